#!/usr/bin/env bash
# The project's test command: the whole Criterion suite (IPC and device libraries
# included; the gcc build with the CUDA device when cuda.h is installed), under
# ASan + UBSan, with gcc and with clang (Debug, -Werror, examples built), then the
# interop, install, bundle and downstream-example checks (tools/check-examples.sh),
# fuzzing and a quick benchmark run. Exits non-zero on any failure.
#
#   tools/test.sh            (as root on Debian it installs missing packages first)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
jobs=${NANOARROW_TEST_JOBS:-2}

tools/install-deps.sh

compilers=(gcc clang)
summaries=()
for cc in "${compilers[@]}"; do
  if ! command -v "$cc" >/dev/null 2>&1; then
    echo "test.sh: compiler '$cc' not found" >&2
    exit 1
  fi
  build="$root/build/test-$cc"
  # The gcc build adds the CUDA device where the toolkit's cuda.h is installed (a few
  # seconds more): its tests skip themselves without a GPU, and run once more against
  # the stand-in driver (test_device_cuda_mock_driver). clang keeps the build without.
  cuda_flag=()
  if [ "$cc" = gcc ] && [ -f "${CUDA_HOME:-/usr/local/cuda}/include/cuda.h" ]; then
    cuda_flag=(-DNANOARROW_DEVICE_WITH_CUDA=ON -DCUDAToolkit_ROOT="${CUDA_HOME:-/usr/local/cuda}")
  fi
  printf '\n== test.sh: %s: configure + build (%s)\n' "$cc" "$build"
  CC=$cc cmake -S "$root" -B "$build" "${cuda_flag[@]}" \
    -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_BUILD_TYPE=Debug \
    -DNANOARROW_BUILD_TESTS=ON \
    -DNANOARROW_IPC=ON \
    -DNANOARROW_IPC_WITH_ZSTD=ON \
    -DNANOARROW_IPC_WITH_LZ4=ON \
    -DNANOARROW_DEVICE=ON \
    -DNANOARROW_BUILD_EXAMPLES=ON \
    -DNANOARROW_SANITIZE=ON \
    -DNANOARROW_WERROR=ON
  cmake --build "$build" -j"$jobs"

  printf '\n== test.sh: %s: ctest\n' "$cc"
  log="$build/ctest.log"
  set +e
  (cd "$build" && ctest --output-on-failure --no-tests=error -j"$jobs") 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    echo "test.sh: ctest failed with $cc" >&2
    exit "$status"
  fi
  summaries+=("$cc: $(grep -E 'tests passed' "$log" | tail -n 1)")
done

printf '\n== test.sh: JS interop (apache-arrow reads our files, we read its files)\n'
tools/check-js.sh "$root/build/test-gcc"

printf '\n== test.sh: GDAL/OGR Arrow C streams read, compared, written and read back by apache-arrow\n'
# build/test-gcc again (ASan + UBSan, IPC): about 80 s; installs libgdal-dev when missing.
tools/check-gdal.sh "$root/build/test-gcc"

printf '\n== test.sh: flechette interop (every integration case, both directions)\n'
# Its own build without sanitizers: about a thousand short CLI runs, each ten times
# slower to start under ASan (1 minute here against 3.7 with build/test-gcc).
tools/check-flechette.sh "$root/build/check-flechette"

printf '\n== test.sh: polars interop (integration cases both ways, a 1,000,000-row frame)\n'
# The same build as check-flechette (no sanitizers: over a thousand short CLI runs).
tools/check-polars.sh "$root/build/check-flechette"

printf '\n== test.sh: arrow-rs and Arrow C++ (WebAssembly) read our streams, we read theirs\n'
# The same build as check-flechette (no sanitizers needed: about 150 short CLI runs).
tools/check-wasm.sh "$root/build/check-flechette"

printf '\n== test.sh: ThreadSanitizer over the parallel (de)compression\n'
tools/check-parallel-tsan.sh

printf '\n== test.sh: install checks\n'
tools/check-install.sh

printf '\n== test.sh: bundle, namespace, packaging checks\n'
tools/check-bundle.sh

printf '\n== test.sh: downstream projects in the style of nanoarrow'"'"'s examples\n'
tools/check-examples.sh

printf '\n== test.sh: every fuzz harness for a bounded time (FUZZ_SECONDS each)\n'
FUZZ_SECONDS=${FUZZ_SECONDS:-60} fuzz/run.sh

printf '\n== test.sh: benchmark report tests; a quick benchmark run, also built against a copy of this tree\n'
python3 -m unittest discover -s bench -p 'test_report.py'
# --against builds this checkout's benchmark sources against another source tree (here
# a copy of this one, as a user would point it at an Apache nanoarrow checkout) and
# runs both; --quick fails if any benchmark of either errors. About 40 s on 2 cores.
bench_copy=$(mktemp -d)
mkdir "$bench_copy/nanoarrow-copy"
tar -C "$root" --exclude=./build --exclude=./bench/out --exclude=./.git -cf - . |
  tar -C "$bench_copy/nanoarrow-copy" -xf -
bench/run --quick --against "$bench_copy/nanoarrow-copy"
rm -rf "$bench_copy"

printf '\n== test.sh: summary\n'
for s in "${summaries[@]}"; do
  echo "$s"
done
# Repeat the last ctest summary line verbatim as the final line of output.
grep -E 'tests passed' "$log" | tail -n 1
