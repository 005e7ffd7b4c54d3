#!/usr/bin/env bash
# Cross-check of the IPC reader and writer with @uwdata/flechette, a JavaScript Arrow
# implementation independent of this library and of Apache Arrow's (and one with
# types apache-arrow JS lacks: string/binary views, list views, run-end encoded,
# 32/64-bit decimals, ...), over every integration case of arrow-testing
# (../shared/arrow-testing/data/arrow-ipc-stream/integration/*/CASE.json.gz, with
# CASE.arrow_file and CASE.stream written by Arrow C++ and others). Per case:
#
#   ours:   the `nanoarrow` CLI writes the case from its JSON (integration
#           --mode=JSON_TO_ARROW); flechette reads that file and writes it back as an
#           IPC file, an IPC stream and an LZ4-compressed IPC stream; the CLI
#           validates each against the JSON (--mode=VALIDATE). [3 checks]
#   values: flechette finds in the files the CLI writes from the JSON (that IPC
#           file, and IPC files with LZ4- and ZSTD-compressed bodies from `nanoarrow
#           convert --compression`) the schema and values it finds in arrow-testing's
#           CASE.arrow_file. [3 checks; this library's reader is not involved]
#   gold:   flechette reads arrow-testing's CASE.arrow_file and CASE.stream and
#           writes each back the same three ways; the CLI validates all against the
#           JSON. [6 checks; this library's writer is not involved]
#
# A check that flechette cannot take is SKIPPED with the reason printed: it refuses
# the input (an unsupported type or codec, a flechette bug, or a property it would
# silently get wrong; tests/ipc/js/flechette_roundtrip.mjs lists those). When
# flechette reads arrow-testing's file of a case but not the one this library wrote,
# that is a FAILURE, as is any VALIDATE that fails on flechette's output.
#
#   tools/check-flechette.sh [BUILD_DIR]     (default: build/check-flechette)
#
# NANOARROW_INTEGRATION_DATA overrides the integration directory (default:
# ../shared/arrow-testing/data/arrow-ipc-stream/integration beside the checkout).
#
# BUILD_DIR must be (or becomes) a CMake build with -DNANOARROW_IPC=ON (and
# -DNANOARROW_BUILD_TESTS=ON, which builds the CLI); the `nanoarrow_cli` target is
# (re)built there. npm installs the pinned tests/ipc/js/flechette/package.json into
# BUILD_DIR/ipc_flechette (never into the source tree). The last line is
# "N passed, N failed, N skipped"; exits non-zero on any failure.
#
# flechette is pinned at 2.6.0: 2.7.0 depends on @uwdata/wk-geojson, which the npm
# registry does not serve (404). LZ4 and ZSTD buffers are decoded with the pure-JS
# lz4js and fzstd (fzstd cannot compress: flechette writes LZ4 only).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-"$root/build/check-flechette"}
mkdir -p "$build"
build=$(cd "$build" && pwd)
data=${NANOARROW_INTEGRATION_DATA:-"$root/../shared/arrow-testing/data/arrow-ipc-stream/integration"}

if [ ! -d "$data" ]; then
  echo "check-flechette.sh: no integration data at $data (set NANOARROW_INTEGRATION_DATA)" >&2
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi
data=$(cd "$data" && pwd)

# shellcheck source=tools/js-check-setup.sh
. "$root/tools/js-check-setup.sh"
js_check_setup "$root" "$build" check-flechette.sh "0 passed, 1 failed, 0 skipped"
cmake --build "$build" --target nanoarrow_cli -j"${NANOARROW_TEST_JOBS:-2}"
cli="$build/bin/nanoarrow"

work="$build/ipc_flechette"
mkdir -p "$work"
cp "$root/tests/ipc/js/flechette/package.json" "$root/tests/ipc/js/flechette_roundtrip.mjs" "$work/"
(cd "$work" && npm install --no-audit --no-fund --silent)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

directions=(ours values gold)
declare -A n_pass=() n_fail=() n_skip=()
for d in "${directions[@]}"; do n_pass[$d]=0; n_fail[$d]=0; n_skip[$d]=0; done
declare -A skip_reasons=()   # reason -> "case[label] case[label] ..."
declare -A skip_counts=()    # reason -> number of checks skipped for it
failures=()

# Per-case tallies, printed on the case's line.
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

# Validates flechette's three outputs of LABEL against the case's JSON.
validate_outputs() { # DIRECTION CASE JSON OUTDIR LABEL
  local ext out
  for ext in arrow_file stream lz4.stream; do
    out="$4/$5.$ext"
    if "$cli" integration --mode=VALIDATE --json="$3" --arrow="$out" >"$out.log" 2>&1; then
      pass "$1"
    else
      fail "$1" "$2" "$5.$ext (flechette's) does not VALIDATE: $(head -c 400 "$out.log" | tr '\n' ' ')
      reproduce: $cli integration --mode=VALIDATE --json=$3 --arrow=$out"
    fi
  done
}

printf '\n== check-flechette.sh: %s (flechette %s)\n' "$data" \
  "$(node -p "require('$work/node_modules/@uwdata/flechette/package.json').version")"
out_root="$work/out"
rm -rf "$out_root"
mkdir -p "$out_root"

while IFS= read -r json; do
  base=${json%.json.gz}
  name="$(basename "$(dirname "$json")")/$(basename "$base")"
  out="$out_root/$name"
  mkdir -p "$out"
  case_pass=0; case_fail=0; case_skip=0; case_notes=()

  # ours: this library writes the case from its JSON, uncompressed (as archery has
  # it do) and compressed.
  ours_args=()
  if "$cli" integration --mode=JSON_TO_ARROW --json="$json" --arrow="$out/nanoarrow.arrow_file" \
    >"$out/json_to_arrow.log" 2>&1; then
    # shellcheck disable=SC2054 # the comma is part of the argument
    ours_args+=("ours=$out/nanoarrow.arrow_file" --compare=gold_file,ours)
  else
    fail ours "$name" "JSON_TO_ARROW failed: $(head -c 400 "$out/json_to_arrow.log" | tr '\n' ' ')"
  fi
  for codec in lz4 zstd; do
    if "$cli" convert "$json" "$out/nanoarrow.$codec.arrow_file" --compression $codec \
      >"$out/convert_$codec.log" 2>&1; then
      ours_args+=("--read=ours_$codec=$out/nanoarrow.$codec.arrow_file" "--compare=gold_file,ours_$codec")
    else
      fail values "$name" "convert --compression $codec failed: $(head -c 400 "$out/convert_$codec.log" | tr '\n' ' ')"
    fi
  done

  # One node run per case (node takes a while to start): flechette reads and writes
  # arrow-testing's file and stream and this library's file, and reads the
  # compressed files this library wrote.
  if ! timeout 120 node "$work/flechette_roundtrip.mjs" "$out" \
    "gold_file=$base.arrow_file" "gold_stream=$base.stream" ${ours_args[@]+"${ours_args[@]}"} \
    >"$out/flechette.log" 2>&1; then
    fail gold "$name" "flechette_roundtrip.mjs failed: $(tail -c 400 "$out/flechette.log" | tr '\n' ' ')"
  fi
  result() { # LABEL -> "ok: ..." / "refused: ..." / ""
    sed -n "s/^$1 \(ok\|refused\): /\1: /p" "$out/flechette.log" | head -n 1
  }

  gold_file_result=$(result gold_file)
  for label in gold_file gold_stream; do
    r=$(result $label)
    case "$r" in
      ok:*) validate_outputs gold "$name" "$json" "$out" $label ;;
      refused:*) skip gold "$name" $label 3 "${r#refused: }" ;;
      *) [ -s "$out/flechette.log" ] && fail gold "$name" "$label: no result from flechette_roundtrip.mjs" ;;
    esac
  done

  if [ -f "$out/nanoarrow.arrow_file" ]; then
    r=$(result ours)
    case "$r" in
      ok:*) validate_outputs ours "$name" "$json" "$out" ours ;;
      refused:*)
        reason=${r#refused: }
        # Refused for a reason that is flechette's (the same as for arrow-testing's
        # file, or one of the explicit refusals), a skip; otherwise flechette takes
        # arrow-testing's file of the case but not this library's: a failure.
        if [ "$gold_file_result" = "$r" ] || [[ "$reason" != "flechette cannot "* ]]; then
          skip ours "$name" ours 3 "$reason"
        else
          fail ours "$name" "flechette refuses the file nanoarrow wrote ($reason) but not arrow-testing's (${gold_file_result:-no result})
      reproduce: $cli integration --mode=JSON_TO_ARROW --json=$json --arrow=/tmp/ours.arrow_file"
        fi
        ;;
      *) fail ours "$name" "ours: no result from flechette_roundtrip.mjs" ;;
    esac

  fi

  for label in ours ours_lz4 ours_zstd; do
    case $label in
      ours) [ -f "$out/nanoarrow.arrow_file" ] || continue ;;
      *) [ -f "$out/nanoarrow.${label#ours_}.arrow_file" ] || continue ;;
    esac
    c=$(sed -n "s/^compare gold_file $label //p" "$out/flechette.log" | head -n 1)
    case "$c" in
      same) pass values ;;
      differs:*) fail values "$name" "flechette reads other data from nanoarrow's file ($label) than from arrow-testing's: ${c#differs: }" ;;
      "n/a: flechette did not read gold_file"*) skip values "$name" "$label" 1 "${c#n/a: }" ;;
      "n/a: flechette cannot extract"*) skip values "$name" "$label" 1 "${c#n/a: }" ;;
      "n/a: "*) fail values "$name" "flechette reads arrow-testing's file but not nanoarrow's ($label): ${c#n/a: }" ;;
      *) fail values "$name" "$label: no comparison from flechette_roundtrip.mjs" ;;
    esac
  done

  printf '%-48s %d passed, %d failed, %d skipped\n' "$name" $case_pass $case_fail $case_skip
  for note in ${case_notes[@]+"${case_notes[@]}"}; do echo "$note"; done
done < <(find "$data" -mindepth 2 -maxdepth 2 -name '*.json.gz' | LC_ALL=C sort)

printf '\n== check-flechette.sh: skips by reason\n'
while IFS= read -r reason; do
  [ -n "$reason" ] || continue
  echo "- $reason: ${skip_counts[$reason]} checks of"
  # The cases (labels aside), each once.
  echo "${skip_reasons[$reason]# }" | tr ' ' '\n' | sed 's/\[.*//' | LC_ALL=C sort -u |
    tr '\n' ' ' | fold -s -w 96 | sed 's/^/    /'
  echo
done < <(printf '%s\n' ${skip_reasons[@]+"${!skip_reasons[@]}"} | LC_ALL=C sort)

if [ ${#failures[@]} -gt 0 ]; then
  printf '\n== check-flechette.sh: failures\n'
  for f in "${failures[@]}"; do echo "- $f"; done
fi

printf '\n== check-flechette.sh: summary\n'
echo "ours   (nanoarrow writes, flechette reads+writes, nanoarrow validates): ${n_pass[ours]} passed, ${n_fail[ours]} failed, ${n_skip[ours]} skipped"
echo "values (flechette reads nanoarrow's files as arrow-testing's):        ${n_pass[values]} passed, ${n_fail[values]} failed, ${n_skip[values]} skipped"
echo "gold   (arrow-testing file/stream -> flechette -> nanoarrow validates): ${n_pass[gold]} passed, ${n_fail[gold]} failed, ${n_skip[gold]} skipped"
passed=$((n_pass[ours] + n_pass[values] + n_pass[gold]))
failed=$((n_fail[ours] + n_fail[values] + n_fail[gold]))
skipped=$((n_skip[ours] + n_skip[values] + n_skip[gold]))
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
