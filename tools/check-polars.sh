#!/usr/bin/env bash
# Cross-check of the IPC reader and writer with polars (nodejs-polars 0.25.2: polars'
# native Rust IPC reader and writer, whose flatbuffers builder orders and sizes
# tables unlike Arrow C++'s and this library's). Three directions:
#
#   gold:   polars reads arrow-testing's CASE.arrow_file and CASE.stream of every
#           integration case (../shared/arrow-testing/data/arrow-ipc-stream/
#           integration/*/CASE.json.gz) and writes each back as an IPC file and an IPC
#           stream, uncompressed, LZ4 and ZSTD [12 checks]. The CLI reads and validates
#           each (`nanoarrow validate`), then: a strict pass when it VALIDATEs against
#           the case's JSON; else a logical pass when every column holds the same
#           values as arrow-testing's file under the type polars gave it (polars makes
#           every field nullable and stores utf8 as large_string, lists as large_list,
#           dictionaries with uint32 indices, time32 as time64('ns'), seconds as
#           milliseconds...: tests/ipc/js/polars_compare.py lists the changes and
#           scales units). A column of another type is a skip with the change as its
#           reason; a known polars bug (below) is a skip named by the bug; other
#           values are a failure.
#   values: polars reads the files the CLI writes from the case's JSON (an IPC file,
#           a stream, an LZ4 file, a ZSTD stream) and must find in each what it finds in
#           arrow-testing's CASE.arrow_file [4 checks; this library's reader is not
#           involved]. When polars refuses arrow-testing's file too, a skip.
#   frame:  polars writes a frame of 1,000,000 rows with every type it offers
#           (tests/ipc/js/polars_frame.cjs) as a file and a stream, uncompressed, LZ4 and
#           ZSTD; for each, the CLI validates it, prints its first rows as
#           tests/ipc/js/polars_frame_head.jsonl has them, and rewrites it (same format
#           and codec), and polars reads the rewrite back equal to the frame [4 checks
#           per file].
#
# Polars' refusals and bugs seen with these cases, each a skip printed with its reason:
# unions (polars panics: assertion `left == right` failed), duplicate field names (the
# same assertion), extension types, day-time and month-day-nano intervals, decimal256,
# list views and run-end encoded (not implemented); null map rows read as empty lists;
# durations in seconds converted to milliseconds without overflow checks (values wrap);
# times of day outside [0, 24 h) read as null.
#
#   tools/check-polars.sh [BUILD_DIR]     (default: build/check-polars)
#
# NANOARROW_INTEGRATION_DATA overrides the integration directory. BUILD_DIR must be (or
# becomes) a CMake build with -DNANOARROW_IPC=ON, both codecs and the tests (which build
# the CLI); npm installs tests/ipc/js/polars/package.json (nodejs-polars and its
# linux-x64-gnu binary, pinned with npm i -E: newer releases are not served for this
# platform) into BUILD_DIR/ipc_polars. POLARS_FRAME=0 leaves the frame direction out;
# POLARS_CASES (an extended regular expression, default every case) picks the cases by
# DIR/NAME.
# The last line is "polars: N passed, N failed, N skipped"; exits non-zero on any
# failure.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-"$root/build/check-polars"}
mkdir -p "$build"
build=$(cd "$build" && pwd)
data=${NANOARROW_INTEGRATION_DATA:-"$root/../shared/arrow-testing/data/arrow-ipc-stream/integration"}

if [ ! -d "$data" ]; then
  echo "check-polars.sh: no integration data at $data (set NANOARROW_INTEGRATION_DATA)" >&2
  echo "polars: 0 passed, 1 failed, 0 skipped"
  exit 1
fi
data=$(cd "$data" && pwd)
if ! command -v python3 >/dev/null 2>&1; then
  echo "check-polars.sh: python3 is required" >&2
  echo "polars: 0 passed, 1 failed, 0 skipped"
  exit 1
fi

# shellcheck source=tools/js-check-setup.sh
. "$root/tools/js-check-setup.sh"
js_check_setup "$root" "$build" check-polars.sh "polars: 0 passed, 1 failed, 0 skipped"
cmake --build "$build" --target nanoarrow_cli -j"${NANOARROW_TEST_JOBS:-2}"
cli="$build/bin/nanoarrow"

work="$build/ipc_polars"
mkdir -p "$work"
cp "$root/tests/ipc/js/polars/package.json" "$root/tests/ipc/js/polars_roundtrip.cjs" \
  "$root/tests/ipc/js/polars_frame.cjs" "$work/"
(cd "$work" && npm i -E --no-audit --no-fund --silent \
  nodejs-polars@0.25.2 nodejs-polars-linux-x64-gnu@0.25.2)
compare_py="$root/tests/ipc/js/polars_compare.py"

directions=(gold values frame)
declare -A n_pass=() n_fail=() n_skip=()
for d in "${directions[@]}"; do n_pass[$d]=0; n_fail[$d]=0; n_skip[$d]=0; done
n_strict=0
n_logical=0
declare -A skip_reasons=() skip_counts=()
failures=()
case_pass=0
case_fail=0
case_skip=0
case_notes=()

pass() { n_pass[$1]=$((n_pass[$1] + 1)); case_pass=$((case_pass + 1)); }
fail() { # DIRECTION CASE WHAT
  n_fail[$1]=$((n_fail[$1] + 1)); case_fail=$((case_fail + 1))
  failures+=("[$1] $2: $3")
  case_notes+=("  FAIL [$1] ${3%%$'\n'*}")
}
skip() { # DIRECTION CASE LABEL COUNT REASON
  n_skip[$1]=$((n_skip[$1] + $4)); case_skip=$((case_skip + $4))
  skip_reasons[$5]+=" $2[$3]"
  skip_counts[$5]=$((${skip_counts[$5]:-0} + $4))
  case_notes+=("  SKIP [$1] $3 x$4: $5")
}

# A refusal by polars, named when it is one of polars' known bugs.
refusal_reason() { # MESSAGE GOLD_SCHEMA_FILE
  local message=${1/called \`Result::unwrap()\` on an \`Err\` value: /}
  if grep -q 'union' "$2" 2>/dev/null && [[ "$message" == *"assertion"* ]]; then
    echo "polars bug: unions panic ($message)"
  elif grep -q 'union' "$2" 2>/dev/null && [[ "$message" == *"Union"* ]]; then
    echo "polars cannot read unions (${message:0:120})"
  elif [[ "$message" == *"assertion \`left == right\` failed"* ]]; then
    echo "polars refuses duplicate field names ($message)"
  else
    echo "${message:0:160}"
  fi
}


printf '\n== check-polars.sh: %s (nodejs-polars %s)\n' "$data" \
  "$(node -p "require('$work/node_modules/nodejs-polars/package.json').version")"
out_root="$work/out"
rm -rf "$out_root"
mkdir -p "$out_root"

exts=(arrow_file lz4.arrow_file zstd.arrow_file stream lz4.stream zstd.stream)

while IFS= read -r json; do
  base=${json%.json.gz}
  name="$(basename "$(dirname "$json")")/$(basename "$base")"
  out="$out_root/$name"
  mkdir -p "$out"
  case_pass=0; case_fail=0; case_skip=0; case_notes=()

  # arrow-testing's file as this library reads it: what polars' rewrites must hold.
  "$cli" schema "$base.arrow_file" >"$out/gold.schema" 2>"$out/gold.log" || true
  "$cli" cat "$base.arrow_file" --format jsonl >"$out/gold.jsonl" 2>>"$out/gold.log" || true

  # values: this library writes the case from its JSON four ways.
  reads=()
  compares=()
  write_ours() { # LABEL FILE CLI-ARGS...
    local label=$1 file=$2
    shift 2
    if "$@" >"$out/$label.log" 2>&1; then
      reads+=("--read=$label=$file")
      compares+=("--compare=gold_file,$label")
    else
      fail values "$name" "$label: the CLI could not write it: $(head -c 300 "$out/$label.log" | tr '\n' ' ')"
    fi
  }
  write_ours ours "$out/nanoarrow.arrow_file" \
    "$cli" integration --mode=JSON_TO_ARROW --json="$json" --arrow="$out/nanoarrow.arrow_file"
  write_ours ours_stream "$out/nanoarrow.stream" "$cli" convert "$json" "$out/nanoarrow.stream"
  write_ours ours_lz4 "$out/nanoarrow.lz4.arrow_file" \
    "$cli" convert "$json" "$out/nanoarrow.lz4.arrow_file" --compression lz4
  write_ours ours_zstd "$out/nanoarrow.zstd.stream" \
    "$cli" convert "$json" "$out/nanoarrow.zstd.stream" --compression zstd

  if ! timeout 120 node "$work/polars_roundtrip.cjs" "$out" \
    "gold_file=$base.arrow_file" "gold_stream=$base.stream" \
    ${reads[@]+"${reads[@]}"} ${compares[@]+"${compares[@]}"} >"$out/polars.log" 2>"$out/polars.err"; then
    fail gold "$name" "polars_roundtrip.cjs failed: $(tail -c 300 "$out/polars.err" | tr '\n' ' ')"
  fi
  result() { sed -n "s/^$1 \(ok\|refused\|read\)\(: \)\{0,1\}/\1: /p" "$out/polars.log" | head -n 1; }

  # gold: the CLI reads what polars wrote.
  for label in gold_file gold_stream; do
    r=$(result $label)
    case "$r" in
      ok:*)
        pairs=()
        pending=()
        for ext in "${exts[@]}"; do
          f="$out/$label.$ext"
          if ! "$cli" validate "$f" >"$f.log" 2>&1; then
            fail gold "$name" "$label.$ext (polars') does not read/validate here: $(head -c 300 "$f.log" | tr '\n' ' ')
      reproduce: $cli validate $f"
          elif "$cli" integration --mode=VALIDATE --json="$json" --arrow="$f" >>"$f.log" 2>&1; then
            pass gold
            n_strict=$((n_strict + 1))
          else
            "$cli" schema "$f" >"$f.schema" 2>>"$f.log"
            "$cli" cat "$f" --format jsonl >"$f.jsonl" 2>>"$f.log"
            pairs+=("$f.schema" "$f.jsonl")
            pending+=("$ext")
          fi
        done
        if [ ${#pending[@]} -gt 0 ]; then
          i=0
          while IFS= read -r verdict; do
            ext=${pending[$i]}
            i=$((i + 1))
            case "$verdict" in
              same) pass gold; n_logical=$((n_logical + 1)) ;;
              polars-bug:*) skip gold "$name" "$label.$ext" 1 "polars bug: ${verdict#polars-bug: }" ;;
              converted:*) skip gold "$name" "$label.$ext" 1 "polars changes types: ${verdict#converted: }" ;;
              *) fail gold "$name" "$label.$ext (polars') holds other values than arrow-testing's file: ${verdict#differs: }" ;;
            esac
          done < <(python3 "$compare_py" "$out/gold.schema" "$out/gold.jsonl" "${pairs[@]}")
          if [ "$i" -ne ${#pending[@]} ]; then
            fail gold "$name" "$label: polars_compare.py answered $i of ${#pending[@]}"
          fi
        fi
        ;;
      refused:*) skip gold "$name" "$label" 6 "$(refusal_reason "${r#refused: }" "$out/gold.schema")" ;;
      *) fail gold "$name" "$label: no result from polars_roundtrip.cjs" ;;
    esac
  done

  # values: polars finds in this library's files what it finds in arrow-testing's.
  for c in ${compares[@]+"${compares[@]}"}; do
    label=${c#--compare=gold_file,}
    v=$(sed -n "s/^compare gold_file $label //p" "$out/polars.log" | head -n 1)
    case "$v" in
      same) pass values ;;
      differs:*) fail values "$name" "polars reads other data from nanoarrow's $label than from arrow-testing's file: ${v#differs: }" ;;
      "n/a: polars did not read gold_file"*)
        g=$(result gold_file)
        skip values "$name" "$label" 1 "$(refusal_reason "${g#refused: }" "$out/gold.schema")" ;;
      "n/a: polars did not read $label"*)
        fail values "$name" "polars reads arrow-testing's file but not nanoarrow's $label: ${v#n/a: }" ;;
      *) fail values "$name" "$label: no comparison from polars_roundtrip.cjs (${v:-none})" ;;
    esac
  done

  printf '%-48s %d passed, %d failed, %d skipped\n' "$name" $case_pass $case_fail $case_skip
  for note in ${case_notes[@]+"${case_notes[@]}"}; do echo "$note"; done
done < <(find "$data" -mindepth 2 -maxdepth 2 -name '*.json.gz' | LC_ALL=C sort |
  grep -E -- "${POLARS_CASES:-.}" || true)

# frame: polars' 1,000,000 rows of every type.
if [ "${POLARS_FRAME:-1}" != 0 ]; then
  name="frame (1,000,000 rows)"
  case_pass=0; case_fail=0; case_skip=0; case_notes=()
  fdir="$work/frame"
  rm -rf "$fdir"
  mkdir -p "$fdir"
  start=$SECONDS
  if ! timeout 300 node "$work/polars_frame.cjs" write "$fdir" >"$fdir/write.log" 2>&1; then
    fail frame "$name" "polars_frame.cjs write failed: $(tail -c 300 "$fdir/write.log" | tr '\n' ' ')"
  fi
  checks=()
  for ext in "${exts[@]}"; do
    f="$fdir/frame.$ext"
    r=$(sed -n "s/^refused frame.$ext: //p" "$fdir/write.log")
    if [ -n "$r" ]; then
      skip frame "$name" "$ext" 4 "polars cannot write it: $r"
      continue
    fi
    [ -f "$f" ] || { fail frame "$name" "frame.$ext: polars wrote nothing"; continue; }
    if "$cli" validate "$f" >"$f.log" 2>&1; then
      pass frame
    else
      fail frame "$name" "frame.$ext (polars') does not validate: $(head -c 300 "$f.log" | tr '\n' ' ')"
      continue
    fi
    if "$cli" cat "$f" --format jsonl --limit 5 >"$f.head" 2>>"$f.log" &&
      cmp -s "$f.head" "$root/tests/ipc/js/polars_frame_head.jsonl"; then
      pass frame
    else
      fail frame "$name" "frame.$ext: the first rows print otherwise: $(diff "$f.head" "$root/tests/ipc/js/polars_frame_head.jsonl" | head -c 400 | tr '\n' ' ')"
    fi
    codec=()
    case "$ext" in
      lz4.*) codec=(--compression lz4) ;;
      zstd.*) codec=(--compression zstd) ;;
    esac
    to=stream
    [[ "$ext" == *arrow_file ]] && to="file"
    if "$cli" convert "$f" "$fdir/ours.$ext" --to $to ${codec[@]+"${codec[@]}"} >>"$f.log" 2>&1; then
      pass frame
      checks+=("$ext=$fdir/ours.$ext")
    else
      fail frame "$name" "frame.$ext: the CLI could not rewrite it: $(tail -c 300 "$f.log" | tr '\n' ' ')"
    fi
    rm -f "$f"
  done
  if [ ${#checks[@]} -gt 0 ]; then
    if ! timeout 300 node "$work/polars_frame.cjs" check "${checks[@]}" >"$fdir/check.log" 2>&1; then
      fail frame "$name" "polars_frame.cjs check failed: $(tail -c 300 "$fdir/check.log" | tr '\n' ' ')"
    fi
    for c in "${checks[@]}"; do
      ext=${c%%=*}
      v=$(sed -n "s/^$ext //p" "$fdir/check.log" | head -n 1)
      case "$v" in
        same) pass frame ;;
        *) fail frame "$name" "polars reads nanoarrow's rewrite of frame.$ext otherwise: ${v:-no result}" ;;
      esac
    done
  fi
  rm -rf "$fdir"
  printf '%-48s %d passed, %d failed, %d skipped (%ds)\n' "$name" $case_pass $case_fail \
    $case_skip $((SECONDS - start))
  for note in ${case_notes[@]+"${case_notes[@]}"}; do echo "$note"; done
fi

printf '\n== check-polars.sh: skips by reason\n'
while IFS= read -r reason; do
  [ -n "$reason" ] || continue
  echo "- $reason: ${skip_counts[$reason]} checks of"
  echo "${skip_reasons[$reason]# }" | tr ' ' '\n' | sed 's/\[.*//' | LC_ALL=C sort -u |
    tr '\n' ' ' | fold -s -w 96 | sed 's/^/    /'
  echo
done < <(printf '%s\n' ${skip_reasons[@]+"${!skip_reasons[@]}"} | LC_ALL=C sort)

if [ ${#failures[@]} -gt 0 ]; then
  printf '\n== check-polars.sh: failures\n'
  for f in "${failures[@]}"; do echo "- $f"; done
fi

printf '\n== check-polars.sh: summary\n'
echo "gold   (arrow-testing file/stream -> polars writes 6 ways -> nanoarrow reads): ${n_pass[gold]} passed ($n_strict strict VALIDATE, $n_logical logical), ${n_fail[gold]} failed, ${n_skip[gold]} skipped"
echo "values (polars reads nanoarrow's files as arrow-testing's):                   ${n_pass[values]} passed, ${n_fail[values]} failed, ${n_skip[values]} skipped"
echo "frame  (polars' 1,000,000 rows -> nanoarrow reads, prints, rewrites -> polars): ${n_pass[frame]} passed, ${n_fail[frame]} failed, ${n_skip[frame]} skipped"
passed=$((n_pass[gold] + n_pass[values] + n_pass[frame]))
failed=$((n_fail[gold] + n_fail[values] + n_fail[frame]))
skipped=$((n_skip[gold] + n_skip[values] + n_skip[frame]))
echo "polars: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
