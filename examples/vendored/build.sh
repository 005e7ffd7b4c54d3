#!/bin/sh
# Build this example the way a vendoring project would: copy the two files of
# dist/ next to your code and compile them with it. No configuration step.
#
#   examples/vendored/build.sh [output]      (uses $CC, default cc)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dist="$here/../../dist"
out=${1:-"$here/vendored"}
${CC:-cc} -std=c99 -Wall -Wextra -O2 -I"$dist" "$here/main.c" "$dist/nanoarrow.c" -o "$out"
echo "built $out"
