/* Mutation testing of the IPC readers: every integration case of arrow-testing
 * (streams through the stream reader; files of three folders through the file reader),
 * damaged in fixed-seed ways (single-byte flips, truncations, corrupted length and
 * offset fields), must either be refused with an error or read into batches that
 * pass FULL validation and can be read element by element (fuzz/fuzz_util.h aborts
 * otherwise, which fails the test). */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "../../fuzz/fuzz_util.h"

#ifndef NANOARROW_TEST_DATA_DIR
#define NANOARROW_TEST_DATA_DIR "../shared/arrow-testing/data"
#endif

/* Mutants per case and kind; the whole suite stays well under a minute under
 * ASan. */
#define MUTANTS_PER_KIND 128

/* xorshift64: the same mutants on every run and platform. */
static uint64_t NextRandom(uint64_t* state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *state = x;
  return x;
}

static int ReadWholeFile(const char* path, struct ArrowBuffer* out) {
  FILE* file = fopen(path, "rb");
  uint8_t chunk[65536];
  size_t n;
  ArrowBufferInit(out);
  if (file == NULL) return EIO;
  while ((n = fread(chunk, 1, sizeof(chunk), file)) > 0) {
    if (ArrowBufferAppend(out, chunk, (int64_t)n) != NANOARROW_OK) {
      fclose(file);
      return ENOMEM;
    }
  }
  fclose(file);
  return NANOARROW_OK;
}

struct MutationStats {
  int64_t n_mutants;
  int64_t n_refused;
  int64_t n_batches_read;
};

/* Reads one (possibly damaged) stream; returns 1 when it was read to the end. */
static int ReadStreamMutant(const uint8_t* data, int64_t size, struct MutationStats* stats) {
  struct ArrowBuffer input;
  struct ArrowIpcInputStream input_stream;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  int complete = 0;
  ArrowErrorInit(&error);

  ArrowBufferInit(&input);
  cr_assert_eq(ArrowBufferAppend(&input, data, size), NANOARROW_OK);
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input_stream, &input), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input_stream, NULL), NANOARROW_OK);
  if (ArrowArrayStreamGetSchema(&stream, &schema, &error) == NANOARROW_OK) {
    FuzzTouchSchema(&schema, 0);
    for (;;) {
      int code = ArrowArrayStreamGetNext(&stream, &array, &error);
      if (code != NANOARROW_OK) {
        /* A refusal must say why. */
        cr_assert_neq(ArrowArrayStreamGetLastError(&stream)[0], '\0');
        break;
      }
      if (array.release == NULL) {
        complete = 1;
        break;
      }
      FuzzCheckBatch(&schema, &array);
      ArrowArrayRelease(&array);
      stats->n_batches_read++;
    }
    ArrowSchemaRelease(&schema);
  } else {
    cr_assert_neq(ArrowArrayStreamGetLastError(&stream)[0], '\0');
  }
  ArrowArrayStreamRelease(&stream);
  stats->n_mutants++;
  stats->n_refused += !complete;
  return complete;
}

/* Reads one (possibly damaged) IPC file through the random-access reader: the
 * footer, then every batch (a refused batch does not stop the others). Returns 1
 * when everything was read. */
static int ReadFileMutant(const uint8_t* data, int64_t size, struct MutationStats* stats) {
  struct ArrowBuffer input;
  struct ArrowIpcFileReader reader;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  int complete = 0;
  ArrowErrorInit(&error);

  ArrowBufferInit(&input);
  cr_assert_eq(ArrowBufferAppend(&input, data, size), NANOARROW_OK);
  if (ArrowIpcFileReaderInitBuffer(&reader, &input, &error) == NANOARROW_OK) {
    int64_t n_batches = ArrowIpcFileReaderNumRecordBatches(&reader);
    int64_t i;
    cr_assert_eq(ArrowIpcFileReaderGetSchema(&reader, &schema, &error), NANOARROW_OK);
    FuzzTouchSchema(&schema, 0);
    complete = 1;
    for (i = n_batches - 1; i >= 0; i--) {
      if (ArrowIpcFileReaderReadBatch(&reader, i, &array, NANOARROW_VALIDATION_LEVEL_FULL,
                                      &error) != NANOARROW_OK) {
        cr_assert_neq(error.message[0], '\0');
        complete = 0;
        continue;
      }
      FuzzCheckBatch(&schema, &array);
      ArrowArrayRelease(&array);
      stats->n_batches_read++;
    }
    ArrowSchemaRelease(&schema);
    ArrowIpcFileReaderReset(&reader);
  } else {
    cr_assert_neq(error.message[0], '\0');
  }
  ArrowBufferReset(&input);
  stats->n_mutants++;
  stats->n_refused += !complete;
  return complete;
}

typedef int (*ReadMutantFunction)(const uint8_t* data, int64_t size,
                                  struct MutationStats* stats);

/* Start of each message's metadata (after its 8-byte prefix) and its length. */
struct MessageSpan {
  int64_t metadata_start;
  int64_t metadata_size;
};

static int64_t FindMessages(const uint8_t* data, int64_t size, struct MessageSpan* spans,
                            int64_t max_spans) {
  struct ArrowIpcDecoder decoder;
  struct ArrowBufferView view;
  int64_t n = 0;
  int64_t pos = 0;
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  while (n < max_spans && pos < size) {
    int32_t prefix;
    view.data.as_uint8 = data + pos;
    view.size_bytes = size - pos;
    if (ArrowIpcDecoderPeekHeader(&decoder, view, &prefix, NULL) != NANOARROW_OK) break;
    if (ArrowIpcDecoderVerifyHeader(&decoder, view, NULL) != NANOARROW_OK) break;
    spans[n].metadata_start = pos + prefix;
    spans[n].metadata_size = decoder.header_size_bytes - prefix;
    n++;
    pos += decoder.header_size_bytes + decoder.body_size_bytes;
  }
  ArrowIpcDecoderReset(&decoder);
  return n;
}

/* Values that stress length and offset arithmetic. */
static const int64_t kEvilValues[] = {
    -1, 0, 1, 7, 0x7FFFFFFF, (int64_t)0x80000000, (int64_t)0xFFFFFFFF,
    (int64_t)1 << 40, INT64_MAX, INT64_MIN, (int64_t)1 << 62, -8};

static void MutateCase(const char* path, int is_file, int n_mutants_per_kind,
                       struct MutationStats* stats, uint64_t seed) {
  ReadMutantFunction read_mutant = is_file ? &ReadFileMutant : &ReadStreamMutant;
  /* An IPC file's messages start after its 8-byte magic. */
  int64_t messages_start = is_file ? 8 : 0;
  struct ArrowBuffer original;
  struct ArrowBuffer mutant;
  struct MessageSpan spans[64];
  int64_t n_spans;
  int k;
  cr_assert_eq(ReadWholeFile(path, &original), NANOARROW_OK, "cannot read %s", path);
  cr_assert_gt(original.size_bytes, 16);
  /* The unmodified case must read completely. */
  cr_assert(read_mutant(original.data, original.size_bytes, stats), "%s", path);
  stats->n_mutants--;
  n_spans = FindMessages(original.data + messages_start, original.size_bytes - messages_start,
                         spans, 64);
  for (k = 0; k < n_spans; k++) spans[k].metadata_start += messages_start;
  cr_assert_gt(n_spans, 0);
  ArrowBufferInit(&mutant);
  cr_assert_eq(ArrowBufferAppend(&mutant, original.data, original.size_bytes), NANOARROW_OK);

  for (k = 0; k < n_mutants_per_kind; k++) {
    int64_t at;
    struct MessageSpan* span = &spans[NextRandom(&seed) % (uint64_t)n_spans];

    /* A flipped byte: half of them in message metadata, where damage matters most. */
    at = (k % 2) ? span->metadata_start + (int64_t)(NextRandom(&seed) %
                                                    (uint64_t)span->metadata_size)
                 : (int64_t)(NextRandom(&seed) % (uint64_t)original.size_bytes);
    mutant.data[at] ^= (uint8_t)(1 + NextRandom(&seed) % 255);
    read_mutant(mutant.data, mutant.size_bytes, stats);
    mutant.data[at] = original.data[at];

    /* A truncation anywhere. */
    read_mutant(original.data, (int64_t)(NextRandom(&seed) % (uint64_t)original.size_bytes),
                stats);

    /* A 4- or 8-byte aligned word of metadata (offsets, lengths, counts, buffer
     * and node fields all live there) set to an extreme value. */
    {
      int width = (k % 2) ? 8 : 4;
      int64_t n_words = span->metadata_size / width;
      int64_t value = kEvilValues[NextRandom(&seed) % (sizeof(kEvilValues) / sizeof(int64_t))];
      if (n_words > 0) {
        at = span->metadata_start + width * (int64_t)(NextRandom(&seed) % (uint64_t)n_words);
        if (width == 8) {
          memcpy(mutant.data + at, &value, 8);
        } else {
          int32_t value32 = (int32_t)value;
          memcpy(mutant.data + at, &value32, 4);
        }
        read_mutant(mutant.data, mutant.size_bytes, stats);
        memcpy(mutant.data + at, original.data + at, (size_t)width);
      }
    }

    /* The message prefix's metadata length. */
    {
      int32_t length = (int32_t)kEvilValues[NextRandom(&seed) %
                                            (sizeof(kEvilValues) / sizeof(int64_t))];
      at = span->metadata_start - 4;
      memcpy(mutant.data + at, &length, 4);
      read_mutant(mutant.data, mutant.size_bytes, stats);
      memcpy(mutant.data + at, original.data + at, 4);
    }
  }
  ArrowBufferReset(&mutant);
  ArrowBufferReset(&original);
}

/* Mutates every case of folder: its .stream files through the stream reader, or
 * (is_file) its .arrow_file files through the file reader. */
static void MutateFolder(const char* folder, int is_file, uint64_t seed) {
  const char* suffix = is_file ? ".arrow_file" : ".stream";
  size_t suffix_length = strlen(suffix);
  char dir_path[1024];
  char path[2048];
  DIR* dir;
  struct dirent* entry;
  struct MutationStats stats = {0, 0, 0};
  int n_cases = 0;
  snprintf(dir_path, sizeof(dir_path), "%s/arrow-ipc-stream/integration/%s",
           NANOARROW_TEST_DATA_DIR, folder);
  dir = opendir(dir_path);
  cr_assert_not_null(dir, "cannot open %s", dir_path);
  while ((entry = readdir(dir)) != NULL) {
    size_t length = strlen(entry->d_name);
    if (length < suffix_length || strcmp(entry->d_name + length - suffix_length, suffix) != 0) {
      continue;
    }
    snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
    MutateCase(path, is_file, is_file ? MUTANTS_PER_KIND / 4 : MUTANTS_PER_KIND, &stats,
               seed + (uint64_t)length * 2654435761u + (uint64_t)n_cases);
    n_cases++;
  }
  closedir(dir);
  cr_assert_gt(n_cases, 0);
  /* Most damage must be noticed: the refusal path is what is under test. */
  cr_assert_gt(stats.n_refused, 0);
  cr_log_info("%s (%s): %d cases, %lld mutants, %lld refused, %lld batches read", folder,
              is_file ? "files" : "streams", n_cases, (long long)stats.n_mutants, (long long)stats.n_refused,
              (long long)stats.n_batches_read);
}

Test(ipc_mutations, v0_14_1) { MutateFolder("0.14.1", 0, 0x9E3779B97F4A7C15u); }
Test(ipc_mutations, v0_17_1) { MutateFolder("0.17.1", 0, 0xD1B54A32D192ED03u); }
Test(ipc_mutations, v1_0_0_littleendian) {
  MutateFolder("1.0.0-littleendian", 0, 0x8CB92BA72F3D8DD7u);
}
Test(ipc_mutations, v1_0_0_bigendian) {
  MutateFolder("1.0.0-bigendian", 0, 0xA0761D6478BD642Fu);
}
Test(ipc_mutations, v2_0_0_compression) {
  if (ArrowIpcGetLZ4DecompressionFunction() == NULL ||
      ArrowIpcGetZstdDecompressionFunction() == NULL) {
    cr_skip_test("built without LZ4 / ZSTD");
  }
  MutateFolder("2.0.0-compression", 0, 0xE7037ED1A0B428DBu);
}
Test(ipc_mutations, v4_0_0_shareddict) {
  MutateFolder("4.0.0-shareddict", 0, 0x8EBC6AF09C88C6E3u);
}
Test(ipc_mutations, cpp_21_0_0) {
  MutateFolder("cpp-21.0.0", 0, 0x589965CC75374CC3u);
}

/* The file format: footer damage and random access on top of the same kinds. */
Test(ipc_mutations, files_1_0_0_littleendian) {
  MutateFolder("1.0.0-littleendian", 1, 0x2545F4914F6CDD1Du);
}
Test(ipc_mutations, files_cpp_21_0_0) { MutateFolder("cpp-21.0.0", 1, 0x9FB21C651E98DF25u); }
Test(ipc_mutations, files_4_0_0_shareddict) {
  MutateFolder("4.0.0-shareddict", 1, 0xC13FA9A902A6328Fu);
}
