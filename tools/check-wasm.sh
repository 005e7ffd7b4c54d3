#!/usr/bin/env bash
# Cross-check of the IPC writer and reader with the two strictest Arrow
# implementations, arrow-rs and Arrow C++, both run in Node.js as WebAssembly:
#   arrow-rs:  parquet-wasm 0.8.0 (arrow-ipc 59.3.0): Table.fromIPCStream() reads,
#              intoIPCStream() writes;
#   Arrow C++: duckdb-wasm 1.32.0 (DuckDB 1.4.3): insertArrowFromIPCStream() reads
#              the stream with Arrow C++ into a table; the result of `SELECT *` comes
#              back as an IPC stream that Arrow C++ writes.
# Every IPC stream that tests/test_writer_cases writes (the cases check-js.sh has
# apache-arrow JS read) goes through both; tests/ipc/js/wasm/wasm_check.mjs then
#   read: compares what each implementation read (as apache-arrow JS reads its
#         output) with what apache-arrow JS reads from our stream, value by value,
#         with schema and field metadata for arrow-rs, after DuckDB's documented
#         type mapping for Arrow C++ (one string, blob, list and interval type,
#         microsecond times; see DUCKDB_TYPES there);
#   ours: has this library read each implementation's output: `nanoarrow validate`,
#         then `nanoarrow convert` (our reader and writer) must keep every type and
#         value apache-arrow JS finds in that output, and for arrow-rs `nanoarrow
#         cat` must print the rows it prints for our stream.
# Then every arrow-testing integration case (../shared/arrow-testing/data/
# arrow-ipc-stream/integration/*/CASE.json.gz; NANOARROW_INTEGRATION_DATA overrides
# the directory, absent: left out) that this library writes as a stream from its
# JSON (`nanoarrow convert`; for arrow-rs also with LZ4 bodies):
#   arrow-rs:  its rewrite of our stream must VALIDATE against the JSON;
#   Arrow C++: DuckDB's result from our stream must hold what its result from
#              arrow-testing's CASE.stream holds (`nanoarrow schema` and `cat`).
# Last, DuckDB as the producer of its own data (tests/ipc/js/wasm/duckdb_produced.mjs):
# a zoo of DuckDB values (every type, NULLs, empty and long values, 3 record
# batches) as duckdb-wasm writes it, as an IPC file and as a stream, under every
# combination of its Arrow output settings (lossless conversion, string views, list
# views, large buffers, format version 1.5): `nanoarrow validate`, `convert` and `cat`
# must read every value apache-arrow JS reads there, and DuckDB must read our
# rewrite as it reads its own output.
# A case that an implementation refuses for a type or codec it lacks is SKIPPED
# (named, with the reason; for DuckDB each other column of the case is then checked
# alone, projected by `nanoarrow convert --columns`). A bug of the other
# implementation, judged against the format spec, is KNOWN (listed in the .mjs with
# the reason; it fails the check when it stops showing). A column whose values the
# other implementation reads differently from run to run on the same bytes
# (arrow-testing's stream too) is left out of that case's comparison and named in a
# note (UNSTABLE in the .mjs). Anything else, a refusal or other values, is a FAILURE.
#
#   tools/check-wasm.sh [BUILD_DIR]     (default: build/check-wasm)
#
# BUILD_DIR must be (or becomes) a CMake build with -DNANOARROW_IPC=ON and the tests;
# test_writer_cases and the CLI are (re)built there. `npm ci` installs the locked
# tests/ipc/js/wasm/package.json into BUILD_DIR/ipc_wasm (never into the source
# tree). The last line is "wasm: N passed, N failed, N skipped, N known"; exits
# non-zero on any failure.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-"$root/build/check-wasm"}
mkdir -p "$build"
build=$(cd "$build" && pwd)
result_fail="wasm: 0 passed, 1 failed, 0 skipped, 0 known"

# shellcheck source=tools/js-check-setup.sh
. "$root/tools/js-check-setup.sh"
js_check_setup "$root" "$build" check-wasm.sh "$result_fail"
cmake --build "$build" --target test_writer_cases nanoarrow_cli -j"${NANOARROW_TEST_JOBS:-2}"

work="$build/ipc_wasm"
mkdir -p "$work"
cp "$root/tests/ipc/js/wasm/package.json" "$root/tests/ipc/js/wasm/package-lock.json" \
  "$root/tests/ipc/js/wasm/wasm_check.mjs" "$root/tests/ipc/js/wasm/duckdb_produced.mjs" "$work/"
(cd "$work" && npm ci --no-audit --no-fund --silent)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

in="$work/writer_out"
rm -rf "$in" "$work/out"
mkdir -p "$in"
if ! NANOARROW_IPC_WRITER_OUT="$in" "$build/tests/test_writer_cases" >"$work/writer_cases.log" 2>&1; then
  cat "$work/writer_cases.log"
  echo "check-wasm.sh: test_writer_cases failed" >&2
  echo "$result_fail"
  exit 1
fi

printf '\n== check-wasm.sh: %s streams through parquet-wasm %s and duckdb-wasm %s\n' \
  "$(find "$in" -name '*.arrows' | wc -l)" \
  "$(node -p "require('$work/node_modules/parquet-wasm/package.json').version")" \
  "$(node -p "require('$work/node_modules/@duckdb/duckdb-wasm/package.json').version")"
status=0
data=${NANOARROW_INTEGRATION_DATA:-"$root/../shared/arrow-testing/data/arrow-ipc-stream/integration"}
if [ -d "$data" ]; then
  data=$(cd "$data" && pwd)
else
  echo "check-wasm.sh: no integration data at $data: the integration cases are left out" >&2
  data=""
fi
node "$work/wasm_check.mjs" "$in" "$work/out" "$build/bin/nanoarrow" ${data:+"$data"} 2>&1 |
  tee "$work/wasm_check.log" || status=$?
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped, [0-9]+ known$' \
  "$work/wasm_check.log" | tail -n 1 || true)
if [ -z "$line" ]; then
  echo "check-wasm.sh: wasm_check.mjs gave no result line" >&2
  echo "$result_fail"
  exit 1
fi
echo "wasm: $line"
[ "$status" -eq 0 ]
