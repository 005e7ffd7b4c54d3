#!/bin/sh
# Builds the seed corpora of every harness under OUT_DIR (one directory each) from
# the conformance data in ../shared/arrow-testing/data (symlinked, never copied into
# the repository), the regression inputs kept in fuzz/regressions/, and, when
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
link_into "$out/ipc_file_fuzzer" $files

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

# Every input that ever crashed a harness.
for h in "$here"/regressions/*/; do
  [ -d "$h" ] || continue
  name=$(basename "$h")
  link_into "$out/$name" "$h"*
done

if [ -n "$writer_seeds" ] && [ -x "$writer_seeds" ]; then
  mkdir -p "$out/.writer"
  "$writer_seeds" "$out/.writer"
  for f in "$out/.writer"/*.stream; do
    cp "$f" "$out/ipc_stream_fuzzer/"; cp "$f" "$out/ipc_decoder_fuzzer/"
  done
  for f in "$out/.writer"/*.arrow_file; do cp "$f" "$out/ipc_file_fuzzer/"; done
fi

for d in "$out"/*/; do
  echo "$(basename "$d"): $(ls "$d" | wc -l) seeds"
done
