#!/usr/bin/env bash
# Cross-check of the IPC reader and writer with Apache Arrow JS, both directions:
#   nanoarrow -> JS: tests/test_writer_cases writes streams and files (plain, LZ4,
#                    ZSTD), apache-arrow reads them and checks the values
#                    (tests/ipc/js/check.mjs);
#   JS -> nanoarrow: apache-arrow writes streams and files from known values
#                    (tests/ipc/js/interop.mjs), tests/test_js_read reads them with
#                    this library and the values are compared.
#
#   tools/check-js.sh [BUILD_DIR]     (default: build/check-js)
#
# BUILD_DIR must be (or becomes) a CMake build with -DNANOARROW_IPC=ON
# -DNANOARROW_BUILD_TESTS=ON; the two test executables are (re)built there. npm
# installs the pinned tests/ipc/js/package.json into BUILD_DIR/ipc_js (never into
# the source tree). The last line is "N passed, N failed"; exits non-zero on any
# failure.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-"$root/build/check-js"}
mkdir -p "$build"
build=$(cd "$build" && pwd)

# Machines of this project's kind come with Node.js and npm; elsewhere, as root with
# apt-get, Debian's packages provide them.
if { ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; } &&
  [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  "$root/tools/install-deps.sh" nodejs npm || true
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "check-js.sh: node and npm are required" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DNANOARROW_IPC=ON \
    -DNANOARROW_IPC_WITH_ZSTD=ON -DNANOARROW_IPC_WITH_LZ4=ON -DNANOARROW_BUILD_TESTS=ON
fi
cmake --build "$build" --target test_writer_cases test_js_read -j"${NANOARROW_TEST_JOBS:-2}"

work="$build/ipc_js"
mkdir -p "$work"
cp "$root/tests/ipc/js/package.json" "$root/tests/ipc/js/check.mjs" \
  "$root/tests/ipc/js/interop.mjs" "$work/"
(cd "$work" && npm install --no-audit --no-fund --silent)

passed=0
failed=0
# Adds the counts of a "N passed, N failed" line in log (a missing line is a failure).
tally() {
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1 || true)
  if [ -z "$line" ]; then
    echo "check-js.sh: $2 gave no result line" >&2
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

printf '\n== check-js.sh: nanoarrow writes, apache-arrow reads\n'
out="$work/nanoarrow_out"
rm -rf "$out"
mkdir -p "$out"
if ! NANOARROW_IPC_WRITER_OUT="$out" "$build/tests/test_writer_cases" >"$work/writer_cases.log" 2>&1; then
  cat "$work/writer_cases.log"
  echo "check-js.sh: test_writer_cases failed" >&2
  failed=$((failed + 1))
fi
node "$work/check.mjs" "$out" 2>&1 | tee "$work/check.log" || true
tally "$work/check.log" "check.mjs"

printf '\n== check-js.sh: apache-arrow writes, nanoarrow reads\n'
js_out="$work/js_out"
rm -rf "$js_out"
node "$work/interop.mjs" write "$js_out"
if ! NANOARROW_IPC_JS_DIR="$js_out" "$build/tests/test_js_read" >"$work/js_read.log" 2>&1; then
  cat "$work/js_read.log"
  echo "check-js.sh: test_js_read failed" >&2
  failed=$((failed + 1))
fi
node "$work/interop.mjs" compare "$js_out" 2>&1 | tee "$work/interop.log" || true
tally "$work/interop.log" "interop.mjs compare"

printf '\n== check-js.sh: summary\n'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
