#!/usr/bin/env bash
# This library as a consumer of an independent Arrow C stream producer: GDAL/OGR's
# OGR_L_GetArrowStream (RFC 86, GDAL >= 3.6; Debian's libgdal-dev).
#
#   tests/ipc/gdal/gdal_arrow_check.c builds OGR datasets (Memory, GeoPackage,
#   SQLite, FlatGeobuf, GeoJSON, CSV, Shapefile) with every OGR field type and
#   subtype, NULL and unset fields, every geometry kind (empty and NULL too), an
#   empty layer and one of 100,000 features; reads each layer through
#   OGR_L_GetArrowStream (default options, INCLUDE_FID=NO,
#   MAX_FEATURES_IN_BATCH=7 and =1) with this library (ArrowSchemaViewInit on every
#   field, ArrowMetadataReader, ArrowArrayViewValidate at FULL) and compares every
#   value with OGR's feature API; writes each stream as an IPC stream and file with
#   ArrowIpcWriter, reads the stream back with ArrowIpcArrayStreamReader and
#   compares again. [1 check]
#   tests/ipc/gdal/gdal_arrow_check.mjs then has apache-arrow (tests/ipc/js/
#   package.json) read every IPC stream and file and compares its values with
#   OGR's. [1 check per IPC file]
#   GDAL's own known bugs (listed in gdal_arrow_check.c) are counted apart, not failed.
#
#   tools/check-gdal.sh [BUILD_DIR]     (default: build/check-gdal)
#
# BUILD_DIR becomes (when it is not a CMake build yet) a Debug ASan + UBSan build with
# IPC and both codecs; the program is compiled with the build's sanitizer flags. With
# NANOARROW_GDAL_VALGRIND=1 (and a BUILD_DIR without sanitizers) the program runs
# under valgrind instead, without the 100,000-feature layer. As root with apt-get,
# missing libgdal-dev, nodejs and npm are installed. Fails if libgdal exports
# C symbols named Arrow* (they would clash with this library's). The last line is
# "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-"$root/build/check-gdal"}
mkdir -p "$build"
build=$(cd "$build" && pwd)

# Only what is missing is asked for: Debian's npm package conflicts with a Node.js
# that bundles npm (NodeSource's), and one refused package fails the whole install.
wanted=()
pkg-config --exists gdal 2>/dev/null || wanted+=(libgdal-dev)
command -v node >/dev/null 2>&1 || wanted+=(nodejs)
command -v npm >/dev/null 2>&1 || wanted+=(npm)
if [ ${#wanted[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  "$root/tools/install-deps.sh" "${wanted[@]}" || true
fi
if ! pkg-config --exists gdal 2>/dev/null; then
  echo "check-gdal.sh: GDAL (libgdal-dev, pkg-config gdal) is required" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
echo "GDAL $(pkg-config --modversion gdal)"

# Exported C symbols of libgdal named like this library's would be bound to one or
# the other at load time.
libdir=$(pkg-config --variable=libdir gdal)
clash=$(nm -D --defined-only "$libdir/libgdal.so" 2>/dev/null | awk '{print $3}' |
  grep -E '^Arrow[A-Z]' || true)
if [ -n "$clash" ]; then
  echo "check-gdal.sh: libgdal exports C symbols named Arrow*; build this library with" \
    "NANOARROW_NAMESPACE: $(echo "$clash" | head -n 5 | tr '\n' ' ')" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DNANOARROW_IPC=ON \
    -DNANOARROW_IPC_WITH_ZSTD=ON -DNANOARROW_IPC_WITH_LZ4=ON -DNANOARROW_SANITIZE=ON \
    -DNANOARROW_WERROR=ON
fi
cmake --build "$build" --target nanoarrow_static nanoarrow_ipc_static \
  -j"${NANOARROW_TEST_JOBS:-2}"

flags=(-std=c99 -D_POSIX_C_SOURCE=200809L -g -O1 -Wall -Wextra -Wpedantic -Werror)
sanitized=0
if grep -q '^NANOARROW_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
  sanitized=1
  # shellcheck disable=SC2054 # the comma belongs to the flag
  flags+=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
fi
work="$build/gdal_check"
rm -rf "$work"
mkdir -p "$work"
# GDAL's headers are not -Wpedantic clean (enumerators above INT_MAX): -isystem.
# shellcheck disable=SC2046 # the words of pkg-config's output
"${CC:-cc}" "${flags[@]}" -I"$root/include" -I"$build/generated" \
  $(pkg-config --cflags gdal | sed 's/-I/-isystem /g') \
  "$root/tests/ipc/gdal/gdal_arrow_check.c" -o "$work/gdal_arrow_check" \
  "$build/libnanoarrow_ipc.a" "$build/libnanoarrow.a" \
  $(pkg-config --libs gdal) -lzstd -llz4 -lm

passed=0
failed=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
printf '\n== check-gdal.sh: OGR_L_GetArrowStream read with nanoarrow, compared with OGR\n'
run=("$work/gdal_arrow_check" "$work/out")
if [ "${NANOARROW_GDAL_VALGRIND:-0}" = 1 ]; then
  if [ $sanitized = 1 ]; then
    echo "check-gdal.sh: NANOARROW_GDAL_VALGRIND=1 needs a build without sanitizers" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
  run=(valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite
    "$work/gdal_arrow_check" "$work/out" --small)
fi
if "${run[@]}" >"$work/check.log" 2>&1; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  grep -E '^(MISMATCH|GDAL-FAIL)' "$work/check.log" | head -n 40 || true
  tail -n 40 "$work/check.log"
fi
sed -n '/^SUMMARY/,$p' "$work/check.log"

printf '\n== check-gdal.sh: apache-arrow reads the IPC streams and files nanoarrow wrote\n'
js="$build/gdal_js"
mkdir -p "$js"
cp "$root/tests/ipc/js/package.json" "$root/tests/ipc/gdal/gdal_arrow_check.mjs" "$js/"
(cd "$js" && npm install --no-audit --no-fund --silent)
node "$js/gdal_arrow_check.mjs" "$work/out" "$work/out/known.tsv" 2>&1 |
  tee "$work/js.log" || true
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$work/js.log" | tail -n 1 || true)
if [ -z "$line" ]; then
  echo "check-gdal.sh: gdal_arrow_check.mjs gave no result line" >&2
  failed=$((failed + 1))
else
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
fi
# The IPC output is several hundred MB.
[ "${NANOARROW_GDAL_KEEP:-0}" = 1 ] || rm -rf "$work/out/ipc" "$work/out/data"

printf '\n== check-gdal.sh: summary\n'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
