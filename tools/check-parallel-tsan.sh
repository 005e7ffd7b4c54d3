#!/usr/bin/env bash
# ThreadSanitizer check of the parallel (de)compression (src/ipc/parallel_codec.c).
# Criterion cannot start under TSan, so this builds the IPC library with
# -fsanitize=thread (NANOARROW_SANITIZE off: ASan and TSan exclude each other) and
# runs tests/ipc/tsan_parallel_codec.c, the test's paths as a plain program, over
# arrow-testing's compressed gold files. Fails on a race (TSan exits 66) or on any
# difference from the serial path. About 2 minutes on 2 cores.
#
#   tools/check-parallel-tsan.sh     (build tree in build/tsan, or $NANOARROW_TSAN_DIR;
#                                     CC picks the compiler, gcc by default)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
build=${NANOARROW_TSAN_DIR:-$root/build/tsan}
cc=${CC:-gcc}
data="$root/../shared/arrow-testing/data/arrow-ipc-stream/integration/2.0.0-compression"
[ -d "$data" ] || { echo "check-parallel-tsan: $data not found" >&2; exit 1; }

CC="$cc" cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DNANOARROW_IPC=ON \
  -DNANOARROW_IPC_WITH_ZSTD=ON -DNANOARROW_IPC_WITH_LZ4=ON -DNANOARROW_SANITIZE=OFF \
  -DNANOARROW_BUILD_TESTS=OFF -DNANOARROW_BUILD_APPS=OFF \
  "-DCMAKE_C_FLAGS=-fsanitize=thread -g" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j2 --target nanoarrow_ipc_static nanoarrow_static >/dev/null
"$cc" -std=c99 -fsanitize=thread -g -O1 -I "$root/include" -I "$build/generated" \
  -I "$root/src" "$root/tests/ipc/tsan_parallel_codec.c" "$build/libnanoarrow_ipc.a" \
  "$build/libnanoarrow.a" $(pkg-config --libs libzstd liblz4) -lm -pthread \
  -o "$build/tsan_parallel_codec"
TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" "$build/tsan_parallel_codec" "$data"
echo "check-parallel-tsan: ok ($cc)"
