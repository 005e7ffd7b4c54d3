#!/usr/bin/env bash
# The CUDA checks, for a machine with an NVIDIA GPU and driver (libcuda.so.1): builds
# nanoarrow_device with NANOARROW_DEVICE_WITH_CUDA=ON, runs the CUDA tests, the other
# device tests and the C++ device helpers' test, then the 100 MiB copy benchmark, and
# prints the counts. Exits non-zero when a test fails, when the CUDA tests did not run
# on a GPU (any of them skipped), or when the build fails.
#
#   tools/run-cuda-checks.sh                  build in build/cuda-checks, then run
#   NANOARROW_CUDA_BUILD_DIR=dir tools/run-cuda-checks.sh
#                                             use (and update) that build directory
#   NANOARROW_CUDA_CHECKS_NO_BUILD=1 ...      run binaries built before (e.g. built on
#                                             a machine without a GPU and carried over)
#   NANOARROW_CUDA_BENCH_MIN_TIME=2 ...       seconds per benchmark (default 1)
#
# Needs: cmake, a C/C++ compiler, Criterion (libcriterion-dev), Google Benchmark
# (libbenchmark-dev; without it the benchmark is left out and says so) and the CUDA
# toolkit headers and runtime (CUDA_HOME, default /usr/local/cuda). Release build
# without sanitizers: ASan's shadow memory and the CUDA driver do not mix.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
build=${NANOARROW_CUDA_BUILD_DIR:-$root/build/cuda-checks}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
min_time=${NANOARROW_CUDA_BENCH_MIN_TIME:-1}
jobs=$(nproc 2>/dev/null || echo 4)
log_dir="$build/cuda-checks-logs"
status=0

say() { printf 'run-cuda-checks: %s\n' "$*"; }

say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null \
  || echo 'nvidia-smi not found')"
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
  say "warning: ldconfig lists no libcuda.so.1: the CUDA tests will skip themselves"
fi

if [ "${NANOARROW_CUDA_CHECKS_NO_BUILD:-0}" != 1 ]; then
  mkdir -p "$build"
  have_benchmark=OFF
  if [ -d /usr/lib/x86_64-linux-gnu/cmake/benchmark ] || [ -d /usr/lib/cmake/benchmark ] \
    || [ -d /usr/local/lib/cmake/benchmark ]; then
    have_benchmark=ON
  fi
  say "configuring $build (benchmarks: $have_benchmark)"
  if ! cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DNANOARROW_DEVICE=ON -DNANOARROW_DEVICE_WITH_CUDA=ON \
      -DNANOARROW_BUILD_TESTS=ON -DNANOARROW_TESTING=OFF \
      -DNANOARROW_BUILD_BENCHMARKS=$have_benchmark \
      -DCUDAToolkit_ROOT="$cuda_home" >"$build/configure.log" 2>&1; then
    tail -30 "$build/configure.log"
    say "FAILED: cmake configure (log: $build/configure.log)"
    exit 1
  fi
  targets=(test_device_cuda test_device_cpu test_device_array_view test_device_stream
    test_device_sim test_device_sim_selftest test_device_hpp)
  [ "$have_benchmark" = ON ] && targets+=(device_cuda_copy_benchmark)
  say "building ${targets[*]}"
  if ! cmake --build "$build" -j"$jobs" --target "${targets[@]}" >"$build/build.log" 2>&1; then
    tail -40 "$build/build.log"
    say "FAILED: build (log: $build/build.log)"
    exit 1
  fi
fi

mkdir -p "$log_dir"
total_pass=0
total_fail=0
total_skip=0

# Runs one Criterion executable; adds its counts to the totals.
run_criterion() {
  local name=$1
  local exe="$build/tests/$name"
  local log="$log_dir/$name.log"
  if [ ! -x "$exe" ]; then
    say "$name: MISSING ($exe)"
    status=1
    return
  fi
  "$exe" --verbose >"$log" 2>&1
  local rc=$?
  local pass fail skip
  pass=$(grep -c '^\[PASS\]' "$log")
  fail=$(grep -c -E '^\[FAIL\]' "$log")
  skip=$(grep -c '^\[SKIP\]' "$log")
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
  total_skip=$((total_skip + skip))
  say "$name: $pass passed, $fail failed, $skip skipped (exit $rc)"
  grep -E '^\[(FAIL|SKIP)\]' "$log" | sed 's/^/    /'
  if [ "$rc" -ne 0 ] || [ "$fail" -ne 0 ]; then
    status=1
  fi
  if [ "$name" = test_device_cuda ]; then
    # On a GPU only the no-driver test may skip.
    local gpu_skips
    gpu_skips=$(grep '^\[SKIP\]' "$log" | grep -vc 'without_a_gpu')
    if [ "$gpu_skips" -ne 0 ]; then
      say "FAILED: $gpu_skips CUDA tests skipped: they did not run on a GPU"
      status=1
    fi
  fi
}

for t in test_device_cuda test_device_cpu test_device_array_view test_device_stream \
  test_device_sim test_device_sim_selftest; do
  run_criterion "$t"
done

if [ -x "$build/tests/test_device_hpp" ]; then
  "$build/tests/test_device_hpp" >"$log_dir/test_device_hpp.log" 2>&1
  rc=$?
  say "test_device_hpp: $(tail -1 "$log_dir/test_device_hpp.log") (exit $rc)"
  grep SKIP "$log_dir/test_device_hpp.log" | sed 's/^/    /'
  [ "$rc" -ne 0 ] && status=1
else
  say "test_device_hpp: MISSING"
  status=1
fi

say "Criterion totals: $total_pass passed, $total_fail failed, $total_skip skipped"

bench="$build/bench/device_cuda_copy_benchmark"
if [ -x "$bench" ]; then
  json="$log_dir/device_cuda_copy.json"
  say "benchmark: 100 MiB int64 host -> device -> host (min time ${min_time}s each)"
  "$bench" --benchmark_min_time="$min_time" --benchmark_out="$json" \
    --benchmark_out_format=json 2>&1 | sed 's/^/    /'
  if command -v python3 >/dev/null; then
    python3 - "$json" <<'EOF'
import json, sys
runs = {b["name"].split("/")[0]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
def gbps(name):
    b = runs.get(name)
    if b is None or "error_occurred" in b or not b.get("bytes_per_second"):
        return None
    return b["bytes_per_second"] / 1e9
ours = gbps("NanoarrowCopyRoundTrip")
for base in ("CudaMemcpyRoundTripAllocating", "CudaMemcpyRoundTrip"):
    theirs = gbps(base)
    if ours is None or theirs is None:
        print("run-cuda-checks: ratio to %s: not measured" % base)
    else:
        print("run-cuda-checks: NanoarrowCopyRoundTrip %.2f GB/s, %s %.2f GB/s, ratio %.3f"
              % (ours, base, theirs, ours / theirs))
EOF
  fi
else
  say "benchmark: not built (needs Google Benchmark)"
fi

if [ "$status" -eq 0 ]; then
  say "OK"
else
  say "FAILED"
fi
exit "$status"
