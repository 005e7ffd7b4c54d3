#!/usr/bin/env bash
# Cross-check of the IPC reader and writer with Apache Arrow JS, both directions:
#   nanoarrow -> JS: tests/test_writer_cases writes streams and files (plain, LZ4,
#                    ZSTD), apache-arrow reads them and checks the values
#                    (tests/ipc/js/check.mjs);
#   JS -> nanoarrow: apache-arrow writes streams and files from known values
#                    (tests/ipc/js/interop.mjs), tests/test_js_read reads them with
#                    this library and the values are compared.
#   round trip:      every arrow-testing integration case
#                    (../shared/arrow-testing/data/arrow-ipc-stream/integration/*/
#                    CASE.json.gz, .arrow_file, .stream) through apache-arrow, batch
#                    by batch (tests/ipc/js/arrow_roundtrip.mjs, one node run for all
#                    cases), as tools/check-flechette.sh does through flechette:
#      ours: the `nanoarrow` CLI writes the case from its JSON (integration
#            --mode=JSON_TO_ARROW); apache-arrow reads that file (RecordBatchReader)
#            and writes its batches back as an IPC file, an IPC stream and an
#            LZ4-compressed IPC stream; the CLI validates each against the JSON
#            (--mode=VALIDATE). [3 checks]
#      gold: apache-arrow reads arrow-testing's CASE.arrow_file and CASE.stream and
#            writes each back the same three ways; the CLI validates all against
#            the JSON. [6 checks; this library's writer is not involved]
#      deltas: the same round trip of the stream and the file with a dictionary
#            delta that test_writer_cases wrote (no arrow-testing case has one);
#            each output keeps the delta message, passes `nanoarrow validate` and
#            holds the input's values (`nanoarrow cat`). [6 checks]
#    A check apache-arrow cannot take is SKIPPED with the reason printed: it throws
#    on the input (a type it lacks: list views, run-end encoded), the input has a
#    property it would silently get wrong (big-endian data, decoded as
#    little-endian; top-level fields of one name, merged by name), or it cannot
#    write an output right (apache-arrow 21.2.0 puts the compressed length before
#    a compressed buffer, so an LZ4 output is kept only when no buffer got
#    compressed). arrow_roundtrip.mjs explains each. When apache-arrow takes
#    arrow-testing's file of a case but not the one this library wrote, that is a
#    FAILURE, as is any VALIDATE that fails on apache-arrow's output. An output
#    byte for byte the same as one of the case validated before takes that one's
#    result without another VALIDATE run (apache-arrow mostly writes the same bytes
#    from a case's file and stream). NANOARROW_INTEGRATION_DATA overrides the
#    integration directory.
#
#   tools/check-js.sh [BUILD_DIR]     (default: build/check-js)
#
# BUILD_DIR must be (or becomes) a CMake build with -DNANOARROW_IPC=ON
# -DNANOARROW_BUILD_TESTS=ON; the two test executables and the CLI are (re)built
# there. npm installs the pinned tests/ipc/js/package.json into BUILD_DIR/ipc_js
# (never into the source tree). The round trip runs NANOARROW_TEST_JOBS (default 2)
# cases at a time. The line before the last is "N skipped" (the round trip's
# skips); the last is "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-"$root/build/check-js"}
mkdir -p "$build"
build=$(cd "$build" && pwd)

# shellcheck source=tools/js-check-setup.sh
. "$root/tools/js-check-setup.sh"
js_check_setup "$root" "$build" check-js.sh "0 passed, 1 failed"
cmake --build "$build" --target test_writer_cases test_js_read nanoarrow_cli \
  -j"${NANOARROW_TEST_JOBS:-2}"

work="$build/ipc_js"
mkdir -p "$work"
cp "$root/tests/ipc/js/package.json" "$root/tests/ipc/js/check.mjs" \
  "$root/tests/ipc/js/interop.mjs" "$root/tests/ipc/js/arrow_roundtrip.mjs" "$work/"
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

printf '\n== check-js.sh: integration round trip through apache-arrow %s\n' \
  "$(node -p "require('$work/node_modules/apache-arrow/package.json').version")"
data=${NANOARROW_INTEGRATION_DATA:-"$root/../shared/arrow-testing/data/arrow-ipc-stream/integration"}
cli="$build/bin/nanoarrow"
rt_out="$work/roundtrip"
rm -rf "$rt_out"
mkdir -p "$rt_out"

# The directory of a case's files under RT_OUT (DIR/CASE), from its CASE.json.gz.
case_name() {
  local base=${1%.json.gz}
  echo "$(basename "$(dirname "$base")")/$(basename "$base")"
}

# Step 1 of a case: this library writes it from its JSON (RT_OUT/DIR/CASE/
# nanoarrow.arrow_file), as archery has it do.
write_case() { # JSON
  local out
  out="$rt_out/$(case_name "$1")"
  mkdir -p "$out"
  if ! "$cli" integration --mode=JSON_TO_ARROW --json="$1" --arrow="$out/nanoarrow.arrow_file" \
    >"$out/json_to_arrow.log" 2>&1; then
    rm -f "$out/nanoarrow.arrow_file"
    echo "F ours JSON_TO_ARROW failed: $(head -c 400 "$out/json_to_arrow.log" | tr '\n' ' ')" \
      "reproduce: $cli integration --mode=JSON_TO_ARROW --json=$1 --arrow=/tmp/ours.arrow_file" \
      >"$out/result"
  fi
  return 0
}

# Step 3 of a case (step 2: arrow_roundtrip.mjs for all cases, into RT_OUT/arrow.log):
# judges what apache-arrow did with the case's files and validates its outputs;
# appends to RT_OUT/DIR/CASE/result one line a check: "P DIRECTION",
# "F DIRECTION WHAT" or "S DIRECTION COUNT LABEL REASON".
check_case() { # JSON
  local json=$1 name out res ext r o g reason
  name=$(case_name "$json")
  out="$rt_out/$name"
  res="$out/result"
  # This case's lines of arrow_roundtrip.mjs, "LABEL ..." (the path cut off).
  awk -v p="$out/" 'index($0, p) == 1 { print substr($0, length(p) + 1) }' \
    "$rt_out/arrow.log" >"$out/arrow.log"
  # The line arrow_roundtrip.mjs printed for LABEL, as "read: ...", "ok: ...",
  # "refused: ..." or "failed: ..." ("" when none).
  result() {
    sed -n "s/^${1//./\\.} \(read\|ok\|refused\|failed\): /\1: /p" "$out/arrow.log" | head -n 1
  }
  local validated=()
  validate() { # DIRECTION LABEL.EXT
    local o="$out/$2" v
    # An output byte for byte the same as one validated before (apache-arrow mostly
    # writes the same bytes from a case's file and its stream, often from this
    # library's file too) has that one's result.
    for v in ${validated[@]+"${validated[@]}"}; do
      if cmp -s "$o" "$out/$v"; then
        echo "same bytes as $v" >"$o.log"
        if [ -s "$out/$v.failure" ]; then
          echo "F $1 $2 (apache-arrow's, the same bytes as $v) $(cat "$out/$v.failure")" >>"$res"
        else
          echo "P $1" >>"$res"
        fi
        return
      fi
    done
    validated+=("$2")
    : >"$o.failure"
    if "$cli" integration --mode=VALIDATE --json="$json" --arrow="$o" >"$o.log" 2>&1; then
      echo "P $1" >>"$res"
    else
      echo "does not VALIDATE: $(head -c 400 "$o.log" | tr '\n' ' ')" \
        "reproduce: $cli integration --mode=VALIDATE --json=$json --arrow=$o" >"$o.failure"
      echo "F $1 $2 (apache-arrow's) $(cat "$o.failure")" >>"$res"
    fi
  }

  for label in gold_file gold_stream; do
    r=$(result $label)
    case "$r" in
      read:*)
        for ext in arrow_file stream lz4.stream; do
          o=$(result "$label.$ext")
          case "$o" in
            ok:*) validate gold "$label.$ext" ;;
            refused:*) echo "S gold 1 $label.$ext ${o#refused: }" >>"$res" ;;
            failed:*) echo "F gold $label.$ext: ${o#failed: }" >>"$res" ;;
            *) echo "F gold $label.$ext: no result from arrow_roundtrip.mjs" >>"$res" ;;
          esac
        done
        ;;
      refused:*) echo "S gold 3 $label ${r#refused: }" >>"$res" ;;
      failed:*) echo "F gold $label: ${r#failed: }" >>"$res" ;;
      *) echo "F gold $label: no result from arrow_roundtrip.mjs" >>"$res" ;;
    esac
  done

  [ -f "$out/nanoarrow.arrow_file" ] || return 0
  g=$(result gold_file)
  r=$(result ours)
  case "$r" in
    read:*)
      for ext in arrow_file stream lz4.stream; do
        o=$(result "ours.$ext")
        case "$o" in
          ok:*) validate ours "ours.$ext" ;;
          failed:*) echo "F ours ours.$ext: ${o#failed: }" >>"$res" ;;
          refused:*)
            # apache-arrow refuses to write what it read from this library's file:
            # its own limit when it refuses arrow-testing's file the same way, or
            # for one of the explicit reasons (not "apache-arrow cannot ...").
            reason=${o#refused: }
            if [ "$(result "gold_file.$ext")" = "$o" ] ||
              [[ "$reason" != "apache-arrow cannot "* ]]; then
              echo "S ours 1 ours.$ext $reason" >>"$res"
            else
              echo "F ours apache-arrow cannot write ours.$ext ($reason) but writes" \
                "gold_file.$ext ($(result "gold_file.$ext"))" >>"$res"
            fi
            ;;
          *) echo "F ours ours.$ext: no result from arrow_roundtrip.mjs" >>"$res" ;;
        esac
      done
      ;;
    refused:*)
      reason=${r#refused: }
      # Refused for a reason that is apache-arrow's (the same as for arrow-testing's
      # file, or one of the explicit refusals), a skip; otherwise apache-arrow takes
      # arrow-testing's file of the case but not this library's.
      if [ "$g" = "$r" ] || [[ "$reason" != "apache-arrow cannot "* ]]; then
        echo "S ours 3 ours $reason" >>"$res"
      else
        echo "F ours apache-arrow refuses the file nanoarrow wrote ($reason) but not" \
          "arrow-testing's (${g:-no result}); reproduce: $cli integration" \
          "--mode=JSON_TO_ARROW --json=$json --arrow=/tmp/ours.arrow_file" >>"$res"
      fi
      ;;
    failed:*) echo "F ours ours: ${r#failed: }" >>"$res" ;;
    *) echo "F ours ours: no result from arrow_roundtrip.mjs" >>"$res" ;;
  esac
  return 0
}

# Dictionary deltas: arrow-testing has no case with one (its JSON cannot hold one),
# so the stream and the file with a delta that test_writer_cases wrote
# (nanoarrow_out/dictionary_delta.arrows and .arrow: dictionary "a", "b", then a
# delta "c") take the same round trip (labels stream and file under RT_OUT/deltas).
# Each output must have the input's messages (a delta stays a delta message), pass
# `nanoarrow validate` and hold what `nanoarrow cat` finds in the input. Appends to
# RT_OUT/deltas/result as check_case does.
check_deltas() {
  local d="$rt_out/deltas" label in r o ext want
  local res="$d/result"
  for label in stream file; do
    in="$work/nanoarrow_out/dictionary_delta.arrows"
    [ $label = file ] && in="$work/nanoarrow_out/dictionary_delta.arrow"
    if [ ! -f "$in" ]; then
      echo "F deltas test_writer_cases wrote no $in" >>"$res"
      continue
    fi
    r=$(sed -n "s#^$d/$label \(read\|refused\|failed\): #\1: #p" "$rt_out/arrow.log" | head -n 1)
    case "$r" in
      read:*) want=${r#read: } ;;
      *) echo "F deltas apache-arrow does not take $in: ${r:-no result}" >>"$res"; continue ;;
    esac
    "$cli" cat "$in" --format jsonl >"$d/$label.in.jsonl" 2>&1 || true
    for ext in arrow_file stream lz4.stream; do
      o=$(sed -n "s#^$d/$label\.$ext \(ok\|refused\|failed\): #\1: #p" "$rt_out/arrow.log" |
        head -n 1)
      case "$o" in
        ok:*)
          if [ "${o#ok: }" != "$want" ]; then
            echo "F deltas $label.$ext: apache-arrow wrote ${o#ok: }, read $want" >>"$res"
          elif ! "$cli" validate "$d/$label.$ext" >"$d/$label.$ext.log" 2>&1; then
            echo "F deltas $label.$ext (apache-arrow's) does not validate:" \
              "$(head -c 300 "$d/$label.$ext.log" | tr '\n' ' ')" \
              "reproduce: $cli validate $d/$label.$ext" >>"$res"
          elif ! "$cli" cat "$d/$label.$ext" --format jsonl 2>&1 |
            cmp -s - "$d/$label.in.jsonl"; then
            echo "F deltas $label.$ext (apache-arrow's): nanoarrow cat finds other values than" \
              "in $in; reproduce: diff <($cli cat $in --format jsonl) <($cli cat $d/$label.$ext" \
              "--format jsonl)" >>"$res"
          else
            echo "P deltas" >>"$res"
          fi
          ;;
        refused:*) echo "S deltas 1 $label.$ext ${o#refused: }" >>"$res" ;;
        failed:*) echo "F deltas $label.$ext: ${o#failed: }" >>"$res" ;;
        *) echo "F deltas $label.$ext: no result from arrow_roundtrip.mjs" >>"$res" ;;
      esac
    done
  done
}

declare -A rt_pass=([ours]=0 [gold]=0 [deltas]=0) rt_fail=([ours]=0 [gold]=0 [deltas]=0)
declare -A rt_skip=([ours]=0 [gold]=0 [deltas]=0)
declare -A skip_cases=() skip_counts=()   # reason -> " case ..." / number of checks
rt_failures=()
skipped=0
if [ ! -d "$data" ]; then
  echo "check-js.sh: no integration data at $data (set NANOARROW_INTEGRATION_DATA)" >&2
  failed=$((failed + 1))
else
  data=$(cd "$data" && pwd)
  echo "$data"
  export cli rt_out
  export -f case_name write_case check_case
  find "$data" -mindepth 2 -maxdepth 2 -name '*.json.gz' | LC_ALL=C sort >"$rt_out/cases"
  if [ ! -s "$rt_out/cases" ]; then
    rt_failures+=("no integration case (DIR/CASE.json.gz) under $data")
    rt_fail[gold]=$((rt_fail[gold] + 1))
  fi
  rt_jobs=${NANOARROW_TEST_JOBS:-2}
  # shellcheck disable=SC2016 # $1 is for the bash that xargs runs
  xargs -d '\n' -n 1 -P "$rt_jobs" bash -c 'write_case "$1"' _ <"$rt_out/cases" || true

  # One node run for all cases (node takes longer to start than a case's work).
  rt_args=()
  [ -s "$rt_out/cases" ] && while IFS= read -r json; do
    out="$rt_out/$(case_name "$json")"
    rt_args+=("$out/gold_file=${json%.json.gz}.arrow_file"
      "$out/gold_stream=${json%.json.gz}.stream")
    [ -f "$out/nanoarrow.arrow_file" ] && rt_args+=("$out/ours=$out/nanoarrow.arrow_file")
  done <"$rt_out/cases"
  mkdir -p "$rt_out/deltas"
  rt_args+=("$rt_out/deltas/stream=$work/nanoarrow_out/dictionary_delta.arrows"
    "$rt_out/deltas/file=$work/nanoarrow_out/dictionary_delta.arrow")
  if ! timeout 600 node "$work/arrow_roundtrip.mjs" "${rt_args[@]}" \
    >"$rt_out/arrow.log" 2>"$rt_out/arrow.stderr"; then
    rt_failures+=("arrow_roundtrip.mjs failed: $(tail -c 400 "$rt_out/arrow.stderr" | tr '\n' ' ')")
    rt_fail[gold]=$((rt_fail[gold] + 1))
  fi

  # shellcheck disable=SC2016 # $1 is for the bash that xargs runs
  xargs -d '\n' -n 1 -P "$rt_jobs" bash -c 'check_case "$1"' _ <"$rt_out/cases" || true
  check_deltas

  while IFS= read -r name; do
    cp=0 cf=0 cs=0
    notes=()
    while read -r kind dir rest; do
      case $kind in
        P) rt_pass[$dir]=$((rt_pass[$dir] + 1)); cp=$((cp + 1)) ;;
        F)
          rt_fail[$dir]=$((rt_fail[$dir] + 1)); cf=$((cf + 1))
          rt_failures+=("[$dir] $name: $rest")
          notes+=("  FAIL [$dir] ${rest:0:200}")
          ;;
        S)
          read -r count label reason <<<"$rest"
          rt_skip[$dir]=$((rt_skip[$dir] + count)); cs=$((cs + count))
          skip_cases[$reason]+=" $name"
          skip_counts[$reason]=$((${skip_counts[$reason]:-0} + count))
          notes+=("  SKIP [$dir] $label x$count: $reason")
          ;;
      esac
    done < <(cat "$rt_out/$name/result" 2>/dev/null)
    if [ $((cp + cf + cs)) -eq 0 ]; then
      rt_fail[gold]=$((rt_fail[gold] + 1)); cf=1
      rt_failures+=("[gold] $name: no result (the case did not run)")
    fi
    printf '%-48s %d passed, %d failed, %d skipped\n' "$name" $cp $cf $cs
    for note in ${notes[@]+"${notes[@]}"}; do echo "$note"; done
  done < <(while IFS= read -r json; do case_name "$json"; done <"$rt_out/cases"; echo deltas)

  printf '\n== check-js.sh: round trip skips by reason\n'
  while IFS= read -r reason; do
    [ -n "$reason" ] || continue
    echo "- $reason: ${skip_counts[$reason]} checks of"
    echo "${skip_cases[$reason]# }" | tr ' ' '\n' | LC_ALL=C sort -u | tr '\n' ' ' |
      fold -s -w 96 | sed 's/^/    /'
    echo
  done < <(printf '%s\n' ${skip_counts[@]+"${!skip_counts[@]}"} | LC_ALL=C sort)
  if [ ${#rt_failures[@]} -gt 0 ]; then
    printf '\n== check-js.sh: round trip failures\n'
    for f in "${rt_failures[@]}"; do echo "- $f"; done
  fi
  echo
  echo "ours (nanoarrow writes, apache-arrow reads+writes, nanoarrow validates): ${rt_pass[ours]} passed, ${rt_fail[ours]} failed, ${rt_skip[ours]} skipped"
  echo "gold (arrow-testing file/stream -> apache-arrow -> nanoarrow validates): ${rt_pass[gold]} passed, ${rt_fail[gold]} failed, ${rt_skip[gold]} skipped"
  echo "deltas (nanoarrow's delta stream/file -> apache-arrow -> nanoarrow reads): ${rt_pass[deltas]} passed, ${rt_fail[deltas]} failed, ${rt_skip[deltas]} skipped"
  passed=$((passed + rt_pass[ours] + rt_pass[gold] + rt_pass[deltas]))
  failed=$((failed + rt_fail[ours] + rt_fail[gold] + rt_fail[deltas]))
  skipped=$((rt_skip[ours] + rt_skip[gold] + rt_skip[deltas]))
fi

printf '\n== check-js.sh: summary\n'
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
