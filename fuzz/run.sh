#!/bin/sh
# Builds every libFuzzer harness (clang, ASan + UBSan) and runs each for a bounded
# time on its seed corpus. Inputs that crash, leak, time out or exceed the memory
# limit are copied into fuzz/regressions/<harness>/ (replayed by the normal test
# suite: tests/fuzz/test_regressions.c) and make the script fail.
#
# usage: fuzz/run.sh [SECONDS_PER_HARNESS] [HARNESS...]
#   SECONDS_PER_HARNESS  default $FUZZ_SECONDS, else 30 (tools/test.sh: 60)
#   HARNESS              default: every harness that was built
# environment:
#   FUZZ_BUILD_DIR   build directory (default build/fuzz-clang)
#   FUZZ_WORK_DIR    corpora and artifacts (default $FUZZ_BUILD_DIR/work); the
#                    corpus a run grows is kept there and reused by the next run
#   FUZZ_RSS_MB      libFuzzer -rss_limit_mb (default 2560)
#   FUZZ_JOBS        build parallelism (default 2)
#   FUZZ_PARALLEL    harnesses run at a time (default 2: CI runs every harness x 60 s
#                    two at a time on 2 cores)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
seconds="${1:-${FUZZ_SECONDS:-30}}"
[ $# -gt 0 ] && shift
build="${FUZZ_BUILD_DIR:-$root/build/fuzz-clang}"
work="${FUZZ_WORK_DIR:-$build/work}"
rss_mb="${FUZZ_RSS_MB:-2560}"
jobs="${FUZZ_JOBS:-2}"
parallel="${FUZZ_PARALLEL:-2}"

command -v clang >/dev/null 2>&1 || { echo "run.sh: clang is required" >&2; exit 1; }

CC=clang cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNANOARROW_BUILD_FUZZERS=ON >/dev/null
cmake --build "$build" -j"$jobs"

"$here/make_corpus.sh" "$work/seeds" "$build/fuzz/fuzz_writer_seeds"

if [ $# -gt 0 ]; then
  harnesses="$*"
else
  harnesses=""
  for h in ipc_stream_fuzzer ipc_file_fuzzer ipc_projected_file_fuzzer ipc_decoder_fuzzer \
           ipc_push_fuzzer schema_view_fuzzer \
           ipc_mmap_fuzzer \
           metadata_fuzzer array_view_fuzzer json_fuzzer cli_fuzzer; do
    if [ -x "$build/fuzz/$h" ]; then
      harnesses="$harnesses $h"
    else
      echo "run.sh: $h was not built (skipped)"
    fi
  done
fi

# Runs harness $1 for $seconds; its exit status goes to $work/$1.status.
run_harness() {
  mkdir -p "$work/corpus/$1" "$work/artifacts/$1" "$work/seeds/$1"
  rm -f "$work/$1.status"
  set +e
  "$build/fuzz/$1" -max_total_time="$seconds" -rss_limit_mb="$rss_mb" -timeout=25 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/$1/" \
    "$work/corpus/$1" "$work/seeds/$1" >"$work/$1.log" 2>&1
  echo $? >"$work/$1.status"
}

# FUZZ_PARALLEL harnesses at a time (each is one process on one core).
running=0
for h in $harnesses; do
  echo "== $h: ${seconds}s"
  run_harness "$h" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait
    running=0
  fi
done
wait

failed=""
for h in $harnesses; do
  artifacts="$work/artifacts/$h"
  log="$work/$h.log"
  status=$(cat "$work/$h.status" 2>/dev/null || echo 1)
  echo "== $h"
  grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec' "$log" || true
  found=$(ls "$artifacts" 2>/dev/null | head -n 1)
  if [ "$status" -ne 0 ] || [ -n "$found" ]; then
    mkdir -p "$here/regressions/$h"
    for f in "$artifacts"/*; do
      [ -f "$f" ] || continue
      cp "$f" "$here/regressions/$h/"
      echo "run.sh: $h: saved $(basename "$f") into fuzz/regressions/$h/"
    done
    tail -n 40 "$log"
    failed="$failed $h"
  fi
done

if [ -n "$failed" ]; then
  echo "run.sh: findings in:$failed (inputs kept in fuzz/regressions/)" >&2
  exit 1
fi
echo "run.sh: no findings"
