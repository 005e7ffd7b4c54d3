#!/bin/sh
# Builds every libFuzzer harness (clang, ASan + UBSan) and runs each for a bounded
# time on its seed corpus. Inputs that crash, leak, time out or exceed the memory
# limit are copied into fuzz/regressions/<harness>/ (replayed by the normal test
# suite: tests/fuzz/test_regressions.c) and make the script fail.
#
# usage: fuzz/run.sh [SECONDS_PER_HARNESS] [HARNESS...]
#   SECONDS_PER_HARNESS  default $FUZZ_SECONDS, else 30 (CI: 7 harnesses x 30 s on
#                        2 cores fits the 20 minute budget with the build)
#   HARNESS              default: every harness that was built
# environment:
#   FUZZ_BUILD_DIR   build directory (default build/fuzz-clang)
#   FUZZ_WORK_DIR    corpora and artifacts (default $FUZZ_BUILD_DIR/work); the
#                    corpus a run grows is kept there and reused by the next run
#   FUZZ_RSS_MB      libFuzzer -rss_limit_mb (default 2560)
#   FUZZ_JOBS        build parallelism (default 2)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
seconds="${1:-${FUZZ_SECONDS:-30}}"
[ $# -gt 0 ] && shift
build="${FUZZ_BUILD_DIR:-$root/build/fuzz-clang}"
work="${FUZZ_WORK_DIR:-$build/work}"
rss_mb="${FUZZ_RSS_MB:-2560}"
jobs="${FUZZ_JOBS:-2}"

command -v clang >/dev/null 2>&1 || { echo "run.sh: clang is required" >&2; exit 1; }

CC=clang cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNANOARROW_BUILD_FUZZERS=ON >/dev/null
cmake --build "$build" -j"$jobs"

"$here/make_corpus.sh" "$work/seeds" "$build/fuzz/fuzz_writer_seeds"

if [ $# -gt 0 ]; then
  harnesses="$*"
else
  harnesses=""
  for h in ipc_stream_fuzzer ipc_file_fuzzer ipc_decoder_fuzzer schema_view_fuzzer \
           metadata_fuzzer array_view_fuzzer json_fuzzer; do
    if [ -x "$build/fuzz/$h" ]; then
      harnesses="$harnesses $h"
    else
      echo "run.sh: $h was not built (skipped)"
    fi
  done
fi

failed=""
for h in $harnesses; do
  corpus="$work/corpus/$h"
  artifacts="$work/artifacts/$h"
  mkdir -p "$corpus" "$artifacts" "$work/seeds/$h"
  log="$work/$h.log"
  echo "== $h: ${seconds}s"
  set +e
  "$build/fuzz/$h" -max_total_time="$seconds" -rss_limit_mb="$rss_mb" -timeout=25 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" "$work/seeds/$h" >"$log" 2>&1
  status=$?
  set -e
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
