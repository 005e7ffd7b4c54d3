#!/usr/bin/env bash
# Build nanoarrow (Release) with its example programs and run each of them,
# printing their output. Exits non-zero if a build or an example fails.
#
#   tools/run-examples.sh    (as root on Debian it installs missing packages first)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
build="$root/build/examples"

tools/install-deps.sh

shopt -s nullglob
sources=("$root"/examples/*.c)
if [ ${#sources[@]} -eq 0 ]; then
  echo "run-examples.sh: no example programs in examples/*.c" >&2
  exit 1
fi

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DNANOARROW_BUILD_EXAMPLES=ON \
  -DNANOARROW_IPC=ON -DNANOARROW_IPC_WITH_ZSTD=ON -DNANOARROW_IPC_WITH_LZ4=ON
cmake --build "$build" -j2

for src in "${sources[@]}"; do
  name=$(basename "$src" .c)
  printf '\n== %s\n' "$name"
  "$build/examples/$name"
done
printf '\n== ipc_write | ipc_read\n'
"$build/examples/ipc_write" | "$build/examples/ipc_read"
printf '\n== run-examples.sh: %d example(s) and the IPC pair ran successfully\n' "${#sources[@]}"
