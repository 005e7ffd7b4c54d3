#!/usr/bin/env bash
# Cross-check of the IPC writer with Apache Arrow JS.
# usage: tests/ipc/js/run.sh BUILD_DIR
# BUILD_DIR holds tests/test_writer_cases (configured with -DNANOARROW_IPC=ON
# -DNANOARROW_BUILD_TESTS=ON). npm installs the pinned packages into
# BUILD_DIR/ipc_writer_js (never into the source tree).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "$1" && pwd)"
work="$build/ipc_writer_js"
mkdir -p "$work"
cp "$here/package.json" "$here/check.mjs" "$work/"
(cd "$work" && npm install --no-audit --no-fund --silent)
out="$work/out"
rm -rf "$out"
mkdir -p "$out"
NANOARROW_IPC_WRITER_OUT="$out" "$build/tests/test_writer_cases"
node "$work/check.mjs" "$out"
