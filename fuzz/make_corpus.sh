#!/bin/sh
# Builds the seed corpora of every harness under OUT_DIR (one directory each) from
# the conformance data in ../shared/arrow-testing/data (symlinked, never copied into
# the repository), the regression inputs kept in fuzz/regressions/, the polars-written
# seeds in fuzz/seeds/polars/, and, when
# WRITER_SEEDS is an executable (fuzz_writer_seeds, built with the harnesses), the
# streams and files our own writer produces.
#
# usage: fuzz/make_corpus.sh OUT_DIR [WRITER_SEEDS]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
data="${NANOARROW_TEST_DATA_DIR:-$here/../../shared/arrow-testing/data}"
out="$1"
writer_seeds="${2:-}"

[ -d "$data" ] || { echo "no conformance data at $data" >&2; exit 1; }

# link_into DIR FILE...: links each FILE into DIR under a name made from its path.
link_into() {
  dir="$1"; shift
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] || continue
    name=$(echo "$f" | sed "s|^$data/||; s|^$here/||; s|/|_|g")
    ln -sf "$f" "$dir/$name"
  done
}

rm -rf "$out"
mkdir -p "$out"
streams=$(find "$data/arrow-ipc-stream" -type f ! -name '*.json.gz' ! -name '*.arrow_file' ! -name '*.md')
files=$(find "$data/arrow-ipc-stream/integration" "$data/arrow-ipc-file" -type f \
  \( -name '*.arrow_file' -o -name 'clusterfuzz*' \))
jsons=$(find "$data/arrow-ipc-stream/integration" -type f -name '*.json.gz')

# shellcheck disable=SC2086
link_into "$out/ipc_stream_fuzzer" $streams
# shellcheck disable=SC2086
link_into "$out/ipc_decoder_fuzzer" $streams
# shellcheck disable=SC2086
link_into "$out/ipc_push_fuzzer" $streams
# shellcheck disable=SC2086
link_into "$out/ipc_file_fuzzer" $files
# shellcheck disable=SC2086
link_into "$out/ipc_projected_file_fuzzer" $files

# The JSON seeds must be decompressed (the harness takes the document itself).
mkdir -p "$out/json_fuzzer"
for f in $jsons; do
  name=$(echo "$f" | sed "s|^$data/||; s|/|_|g; s|\.gz$||")
  gzip -dc "$f" > "$out/json_fuzzer/$name"
done

# Schema view and metadata harnesses take their own byte encodings: a few
# hand-made seeds give them a start (see the harness headers).
mkdir -p "$out/schema_view_fuzzer" "$out/metadata_fuzzer"
printf 'i\0' > "$out/schema_view_fuzzer/int32"
printf '+s\0a\0\002i\0b\0\000u\0\0' > "$out/schema_view_fuzzer/struct"
printf 'tsu:UTC\0\0\0' > "$out/schema_view_fuzzer/timestamp"
printf '+l\0\0\001+ud:0,1\0\0\002i\0\0\0u\0\0\0' > "$out/schema_view_fuzzer/list_union"
printf 'w:16\0\001\024\0ARROW:extension:name\011arrow.uuid' > "$out/schema_view_fuzzer/ext"
printf '\002\0\0\0\001\0\0\0k\001\0\0\0v\003\0\0\0key\005\0\0\0value' \
  > "$out/metadata_fuzzer/two_pairs"
printf '\0\0\0\0' > "$out/metadata_fuzzer/empty"

# The array view harness builds arrays from its own byte encoding (see the header
# of fuzz/array_view_fuzzer.c): valid arrays of diverse types. zeros N pads the
# raw bytes of a buffer.
zeros() { head -c "$1" /dev/zero; }
av="$out/array_view_fuzzer"
mkdir -p "$av"
# int32[5] with a null at 2
{ printf '\006\000\005\000\140\001\002\000\000'; printf '\001\000\000\000\002\000\000\000'; zeros 12; } > "$av/int32"
# utf8 ["ab", "\303\251", "wxyz"]
printf '\015\000\003\000\000\000\000\002\002\004\000ab\340wxyz' > "$av/string"
# struct<int32, large_utf8>[3]
{ printf '\055\002\000\003\000\006\000\000\000\000\000'; zeros 12;
  printf '\016\000\000\000\000\000\000\001\002\003\000abcdef\000'; } > "$av/struct"
# list<int64>[4] over 10 values
{ printf '\046\000\004\000\010\000\012\000\000\000'; printf '\007'; zeros 79;
  printf '\000\000\000\002\001\000\002'; } > "$av/list"
# dense_union<3: int8, 7: utf8>[4]
printf '\061\000\004\000\002\000\003\000\000\000\001\002\003\015\000\002\000\000\000\000\001\001\000xy\000\000\001\000\001\000\000\000\001\000\002\000\001\000' > "$av/dense_union"
# run_end_encoded<int32, double>[8], 3 runs
{ printf '\070\000\010\000\000\003\000\000\000\001\002\000\014\000\000\000\000\000'; printf '\000\000\000\000\000\000\360\077'; zeros 16; } > "$av/run_end_encoded"
# dictionary<int32 indices, utf8 values ["a", "b", "c"]>[6] with a null
printf '\073\000\006\000\015\000\003\000\000\000\000\001\001\001\000abc\140\001\001\000\000\000\001\002\000\001\002' > "$av/dictionary"
# utf8_view[4]: inlined, two references into one 40-byte buffer, empty
{ printf '\021\001\000\004\000\000\050\000'; printf 'abcdefghijklmnopqrstuvwxyz0123456789ABCD';
  printf '\000\000\011abcd\000\000\005\003\000\000\000\024\001'; } > "$av/string_view"
# map<utf8, int32>[2] over 3 entries
{ printf '\057\000\002\000\000\003\000\015\000\000\000\000\000\000\001\001\001\000abc\006\000\000\000\000\000'; zeros 12;
  printf '\000\000\000\000\001\002'; } > "$av/map"
# sparse_union<0: bool, 1: decimal128>[3]
{ printf '\060\000\003\000\001\000\000\000\000\000\005\030\000\000\000\000\000'; zeros 48; printf '\000\000\001\000'; } > "$av/sparse_union"
# list_view<int8>[3] over 5 values
printf '\050\000\003\000\002\000\005\000\000\000\001\002\003\004\005\000\000\000\001\002\000\005\004\001' > "$av/list_view"
# fixed_size_list<float, 3>[2]
{ printf '\054\000\002\000\013\000\000\000\000\000'; zeros 24; printf '\000'; } > "$av/fixed_size_list"
# int64[4] at offset 5
{ printf '\010\000\004\305\260\377\375\000'; zeros 72; } > "$av/sliced_int64"
# struct<month_day_nano interval, fixed_size_binary(5), decimal256>[2]
{ printf '\055\003\000\002\000\045\000\000\000\000\000'; zeros 32; printf '\024\000\000\000\000\000'; zeros 10;
  printf '\031\000\000\000\000\000'; zeros 64; printf '\000'; } > "$av/struct_fixed_width"

# The CLI harness: a selector byte (0 CSV, 1 JSON Lines, 2 an Arrow input; 0x80: a
# --schema spec on the first line), then the input.
cf="$out/cli_fuzzer"
mkdir -p "$cf"
printf '\000a,b,c,d\n1,2.5,x,true\n2,,"y,""z""",false\n-3,4e10,,\n' > "$cf/csv"
printf '\000t,d\n2024-01-02T03:04:05Z,2024-01-02\n,1970-01-01\n' > "$cf/csv_dates"
printf '\200a:int32,b:utf8,c:float64,d:bool\na,b,c,d\n1,x,2.5,true\n,y,,\n' > "$cf/csv_schema"
printf '\001{"a":1,"b":"x","c":[1,2],"d":{"e":null}}\n{"a":2.5,"b":null,"c":true}\n' > "$cf/jsonl"
printf '\201a:int64,b:bool,c:utf8\n{"a":1,"b":true,"c":"\\u00e9"}\n{"a":null}\n' > "$cf/jsonl_schema"
printf '\001{"u":18446744073709551615,"n":-9223372036854775809,"s":"a\\u0000b"}\n' > "$cf/jsonl_wide"
printf '\000\357\273\277a,b\n1,2\n' > "$cf/csv_bom"
for f in $streams $files; do
  case "$f" in
    */generated_*) ;;
    *) continue ;;
  esac
  name=$(echo "$f" | sed "s|^$data/||; s|/|_|g")
  { printf '\002'; cat "$f"; } > "$cf/$name"
done

# Every input that ever crashed a harness.
for h in "$here"/regressions/*/; do
  [ -d "$h" ] || continue
  name=$(basename "$h")
  link_into "$out/$name" "$h"*
done

# Files and streams polars wrote (its Rust flatbuffers builder orders and sizes the
# tables unlike Arrow C++'s and ours; fuzz/seeds/polars/README.md says how they were
# made).
link_into "$out/ipc_stream_fuzzer" "$here"/seeds/polars/*.stream
link_into "$out/ipc_decoder_fuzzer" "$here"/seeds/polars/*.stream
link_into "$out/ipc_push_fuzzer" "$here"/seeds/polars/*.stream
link_into "$out/ipc_file_fuzzer" "$here"/seeds/polars/*.arrow_file

if [ -n "$writer_seeds" ] && [ -x "$writer_seeds" ]; then
  mkdir -p "$out/.writer"
  "$writer_seeds" "$out/.writer"
  for f in "$out/.writer"/*.stream; do
    cp "$f" "$out/ipc_stream_fuzzer/"; cp "$f" "$out/ipc_decoder_fuzzer/"
    cp "$f" "$out/ipc_push_fuzzer/"
  done
  for f in "$out/.writer"/*.arrow_file; do
    cp "$f" "$out/ipc_file_fuzzer/"; cp "$f" "$out/ipc_projected_file_fuzzer/"
  done
fi

# The mmap harness reads files and streams: every file and stream seed.
mkdir -p "$out/ipc_mmap_fuzzer" && cp -P "$out"/ipc_file_fuzzer/* "$out"/ipc_stream_fuzzer/* "$out/ipc_mmap_fuzzer/"

for d in "$out"/*/; do
  echo "$(basename "$d"): $(ls "$d" | wc -l) seeds"
done
