/* Resource limits of the IPC reader: streams that claim enormous lengths, counts
 * and nesting depths (built by hand with the internal flatbuffers builder) must be
 * refused quickly, without deep recursion and without allocating more than a small
 * multiple of the bytes actually given. Under AddressSanitizer the peak heap use of
 * each read is measured through the allocator hooks. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "heap_peak_util.h"
#include "message_test_util.h"

/* ---- Peak heap tracking (ASan builds only; tests/ipc/heap_peak_util.h) ---- */

#define LIMITS_CAN_MEASURE HEAP_PEAK_CAN_MEASURE

/* ---- Hand-built messages (the helpers are in message_test_util.h) ---- */

/* A schema of `depth` nested lists ending in a null-typed field. */
static void AppendDeepSchema(struct ArrowBuffer* out, int64_t depth) {
  struct ArrowIpcFbb fbb;
  int64_t slot = BeginSchema(&fbb);
  int64_t level;
  for (level = 0; level < depth; level++) {
    int64_t children;
    int is_last = level == depth - 1;
    int64_t field = WriteField(&fbb, is_last ? kTypeNull : kTypeList, is_last ? 0 : 1,
                               &children);
    cr_assert_eq(ArrowIpcFbbPatchOffset(&fbb, slot, field), NANOARROW_OK);
    slot = children + 4;
  }
  FinishMessage(&fbb, out);
}

/* A schema whose every struct level lists the same child table `fan_out` times:
 * few bytes, fan_out^levels fields once expanded. */
static void AppendDagSchema(struct ArrowBuffer* out, int64_t fan_out, int64_t levels) {
  struct ArrowIpcFbb fbb;
  int64_t slots_start = BeginSchema(&fbb);
  int64_t n_slots = 1;
  int64_t level;
  for (level = 0; level < levels; level++) {
    int64_t children;
    int is_last = level == levels - 1;
    int64_t field = WriteField(&fbb, is_last ? kTypeNull : kTypeStruct, is_last ? 0 : fan_out,
                               &children);
    int64_t i;
    for (i = 0; i < n_slots; i++) {
      cr_assert_eq(ArrowIpcFbbPatchOffset(&fbb, slots_start + 4 * i, field), NANOARROW_OK);
    }
    slots_start = children + 4;
    n_slots = fan_out;
  }
  FinishMessage(&fbb, out);
}

/* A schema with a single nullable field of the null type (which has no buffers:
 * its batches are written with BatchSpec.no_buffers). */
static void AppendNullSchema(struct ArrowBuffer* out) {
  struct ArrowIpcFbb fbb;
  int64_t slot = BeginSchema(&fbb);
  int64_t children;
  int64_t field = WriteField(&fbb, kTypeNull, 0, &children);
  cr_assert_eq(ArrowIpcFbbPatchOffset(&fbb, slot, field), NANOARROW_OK);
  FinishMessage(&fbb, out);
}

struct BatchSpec {
  int64_t length;
  int64_t node_length;
  int64_t body_length_claimed;
  int64_t body_length_given;
  int64_t data_buffer_length;
  /* Overrides the nodes vector's element count when > 0. */
  uint32_t nodes_count_claimed;
  int compressed_lz4;
  /* The compressed data buffer's declared decompressed size (0: 1 TiB). */
  int64_t decompressed_claim;
  /* Non-zero: the batch has no buffers (for the null schema). */
  int no_buffers;
};

/* A RecordBatch for the int32 schema: one node, buffers validity (absent) and data. */
static void AppendBatch(struct ArrowBuffer* out, const struct BatchSpec* spec) {
  struct ArrowIpcFbb fbb;
  struct ArrowIpcFbbTable batch;
  int64_t header_slot;
  int64_t position;
  int64_t nodes_position;
  int64_t node[2];
  int64_t buffers[4];
  BeginMessage(&fbb, kHeaderRecordBatch, spec->body_length_claimed, &header_slot);
  ArrowIpcFbbTableInit(&batch);
  ArrowIpcFbbTableAddInt64(&batch, 0, spec->length);
  ArrowIpcFbbTableAddOffset(&batch, 1);
  ArrowIpcFbbTableAddOffset(&batch, 2);
  if (spec->compressed_lz4) ArrowIpcFbbTableAddOffset(&batch, 3);
  cr_assert_eq(ArrowIpcFbbWriteTable(&fbb, &batch, &position), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFbbPatchOffset(&fbb, header_slot, position), NANOARROW_OK);

  node[0] = spec->node_length;
  node[1] = 0;
  cr_assert_eq(ArrowIpcFbbSetVector(&fbb, &batch, 1, node, 1, 16, 8, &nodes_position),
               NANOARROW_OK);
  if (spec->nodes_count_claimed > 0) {
    memcpy(fbb.buffer.data + nodes_position, &spec->nodes_count_claimed, 4);
  }
  buffers[0] = 0;
  buffers[1] = 0;
  buffers[2] = 0;
  buffers[3] = spec->data_buffer_length;
  cr_assert_eq(ArrowIpcFbbSetVector(&fbb, &batch, 2, buffers, spec->no_buffers ? 0 : 2, 16,
                                    8, &position),
               NANOARROW_OK);
  if (spec->compressed_lz4) WriteLz4BodyCompression(&fbb, &batch);
  FinishMessage(&fbb, out);

  if (spec->compressed_lz4) {
    /* Each compressed buffer starts with its uncompressed length. */
    int64_t claimed =
        spec->decompressed_claim != 0 ? spec->decompressed_claim : (int64_t)1 << 40;
    cr_assert_geq(spec->body_length_given, 16);
    cr_assert_eq(ArrowBufferAppend(out, &claimed, 8), NANOARROW_OK);
    cr_assert_eq(ArrowBufferAppendFill(out, 0x11, spec->body_length_given - 8), NANOARROW_OK);
  } else {
    cr_assert_eq(ArrowBufferAppendFill(out, 0x22, spec->body_length_given), NANOARROW_OK);
  }
}

/* ---- Reading ---- */

/* An input stream handing out at most 1000 bytes per read, so the reader's own
 * buffering (where a claimed length could turn into an allocation) is used. */
struct ChunkedInput {
  struct ArrowBuffer bytes;
  int64_t position;
};

static ArrowErrorCode ChunkedRead(struct ArrowIpcInputStream* stream, uint8_t* buf,
                                  int64_t buf_size_bytes, int64_t* size_read_out,
                                  struct ArrowError* error) {
  struct ChunkedInput* input = (struct ChunkedInput*)stream->private_data;
  int64_t n = input->bytes.size_bytes - input->position;
  (void)error;
  if (n > buf_size_bytes) n = buf_size_bytes;
  if (n > 1000) n = 1000;
  if (n > 0) memcpy(buf, input->bytes.data + input->position, (size_t)n);
  input->position += n;
  *size_read_out = n;
  return NANOARROW_OK;
}

static void ChunkedRelease(struct ArrowIpcInputStream* stream) {
  struct ChunkedInput* input = (struct ChunkedInput*)stream->private_data;
  ArrowBufferReset(&input->bytes);
  free(input);
  stream->release = NULL;
}

struct ReadOutcome {
  int schema_code;
  int batch_code;
  int64_t n_batches;
  int64_t peak_bytes;
  char message[1024];
};

/* Reads all of input (a copy) with the buffer path (chunked = 0) or the chunked
 * input stream, recording the first error and the peak extra heap use. */
static struct ReadOutcome ReadAllWithLimit(const struct ArrowBuffer* input, int chunked,
                                           int64_t max_decompressed_bytes) {
  struct ReadOutcome outcome;
  struct ArrowIpcInputStream input_stream;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray array;
  int64_t baseline;
  memset(&outcome, 0, sizeof(outcome));

  if (chunked) {
    struct ChunkedInput* state = (struct ChunkedInput*)malloc(sizeof(struct ChunkedInput));
    cr_assert_not_null(state);
    ArrowBufferInit(&state->bytes);
    cr_assert_eq(ArrowBufferAppend(&state->bytes, input->data, input->size_bytes),
                 NANOARROW_OK);
    state->position = 0;
    input_stream.read = &ChunkedRead;
    input_stream.release = &ChunkedRelease;
    input_stream.private_data = state;
  } else {
    struct ArrowBuffer copy;
    ArrowBufferInit(&copy);
    cr_assert_eq(ArrowBufferAppend(&copy, input->data, input->size_bytes), NANOARROW_OK);
    cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input_stream, &copy), NANOARROW_OK);
  }

  PeakReset();
  baseline = PeakBaseline();
  cr_assert_eq(ArrowIpcArrayStreamReaderInitWithLimits(&stream, &input_stream, NULL,
                                                       NANOARROW_VALIDATION_LEVEL_FULL,
                                                       max_decompressed_bytes),
               NANOARROW_OK);
  outcome.schema_code = stream.get_schema(&stream, &schema);
  if (outcome.schema_code == NANOARROW_OK) {
    for (;;) {
      outcome.batch_code = stream.get_next(&stream, &array);
      if (outcome.batch_code != NANOARROW_OK || array.release == NULL) break;
      outcome.n_batches++;
      ArrowArrayRelease(&array);
    }
    ArrowSchemaRelease(&schema);
  }
  snprintf(outcome.message, sizeof(outcome.message), "%s", stream.get_last_error(&stream));
  ArrowArrayStreamRelease(&stream);
  outcome.peak_bytes = PeakSinceReset(baseline);
  return outcome;
}

static struct ReadOutcome ReadAll(const struct ArrowBuffer* input, int chunked) {
  return ReadAllWithLimit(input, chunked, -1);
}

/* The bound SECURITY.md documents for a refused or accepted read: a small
 * multiple of the input plus a constant (the 1 MiB read chunk, flatbuffer
 * bookkeeping, decoder state). */
static void ExpectBoundedMemory(const struct ReadOutcome* outcome, int64_t input_size) {
  if (!LIMITS_CAN_MEASURE) return;
  cr_assert_leq(outcome->peak_bytes, 16 * input_size + (4 << 20),
                "peak heap %lld bytes for %lld input bytes", (long long)outcome->peak_bytes,
                (long long)input_size);
}

/* Refused by both input paths, with a message containing each of the non-NULL
 * expected strings. */
static void ExpectRefusedWith(const struct ArrowBuffer* input, int64_t max_decompressed_bytes,
                              const char* expected, const char* also_expected) {
  int chunked;
  for (chunked = 0; chunked < 2; chunked++) {
    struct ReadOutcome outcome = ReadAllWithLimit(input, chunked, max_decompressed_bytes);
    cr_assert(outcome.schema_code != NANOARROW_OK || outcome.batch_code != NANOARROW_OK,
              "a hostile stream was accepted (chunked=%d)", chunked);
    cr_assert_neq(outcome.message[0], '\0', "refused without a message");
    cr_log_info("refused (chunked=%d, peak heap %lld bytes for %lld input bytes): %s",
                chunked, (long long)outcome.peak_bytes, (long long)input->size_bytes,
                outcome.message);
    ExpectBoundedMemory(&outcome, input->size_bytes);
    if (expected != NULL) {
      cr_assert(strstr(outcome.message, expected) != NULL, "expected '%s' in: %s", expected,
                outcome.message);
    }
    if (also_expected != NULL) {
      cr_assert(strstr(outcome.message, also_expected) != NULL, "expected '%s' in: %s",
                also_expected, outcome.message);
    }
  }
}

static void ExpectRefused(const struct ArrowBuffer* input) {
  ExpectRefusedWith(input, -1, NULL, NULL);
}

/* ---- Tests ---- */

Test(ipc_limits, hand_built_stream_reads) {
  /* Positive control: the builders above make streams the reader accepts. */
  struct ArrowBuffer input;
  struct BatchSpec spec = {3, 3, 16, 16, 12, 0, 0, 0, 0};
  struct ReadOutcome outcome;
  ArrowBufferInit(&input);
  AppendInt32Schema(&input);
  AppendBatch(&input, &spec);
  AppendEndOfStream(&input);
  outcome = ReadAll(&input, 0);
  cr_assert_eq(outcome.schema_code, NANOARROW_OK, "%s", outcome.message);
  cr_assert_eq(outcome.batch_code, NANOARROW_OK, "%s", outcome.message);
  cr_assert_eq(outcome.n_batches, 1);
  outcome = ReadAll(&input, 1);
  cr_assert_eq(outcome.batch_code, NANOARROW_OK, "%s", outcome.message);
  cr_assert_eq(outcome.n_batches, 1);
  /* The heap hooks see the reader's allocations (or the bounds test nothing). */
  if (LIMITS_CAN_MEASURE) cr_assert_gt(outcome.peak_bytes, 0);
  ArrowBufferReset(&input);

  ArrowBufferInit(&input);
  AppendDeepSchema(&input, 16);
  AppendEndOfStream(&input);
  outcome = ReadAll(&input, 0);
  cr_assert_eq(outcome.schema_code, NANOARROW_OK, "%s", outcome.message);
  ArrowBufferReset(&input);

  ArrowBufferInit(&input);
  AppendDagSchema(&input, 3, 3);
  AppendEndOfStream(&input);
  outcome = ReadAll(&input, 0);
  cr_assert_eq(outcome.schema_code, NANOARROW_OK, "%s", outcome.message);
  ArrowBufferReset(&input);
}

/* The reader's codes for input that ends early, as nanoarrow's: ENODATA for an
 * empty stream, EINVAL for one shorter than a message prefix, ESPIPE for one that
 * stops inside a message; the same whether the input is a buffer or a stream read
 * in chunks. */
Test(ipc_limits, truncated_input_codes) {
  struct ArrowBuffer input;
  struct ArrowBuffer cut;
  struct BatchSpec spec = {3, 3, 16, 16, 12, 0, 0, 0, 0};
  struct ReadOutcome outcome;
  int64_t schema_end;
  int64_t lengths[3];
  int chunked;
  int k;

  ArrowBufferInit(&input);
  AppendInt32Schema(&input);
  schema_end = input.size_bytes;
  AppendBatch(&input, &spec);
  AppendEndOfStream(&input);

  for (chunked = 0; chunked < 2; chunked++) {
    ArrowBufferInit(&cut);
    outcome = ReadAll(&cut, chunked);
    cr_assert_eq(outcome.schema_code, ENODATA, "%s", outcome.message);

    /* One byte, then a continuation marker with half a length. */
    for (k = 0; k < 2; k++) {
      cut.size_bytes = 0;
      cr_assert_eq(ArrowBufferAppend(&cut, input.data, k == 0 ? 1 : 6), NANOARROW_OK);
      outcome = ReadAll(&cut, chunked);
      cr_assert_eq(outcome.schema_code, EINVAL, "prefix cut %d: %s", k, outcome.message);
      cr_assert(strstr(outcome.message, "8 bytes of message prefix") != NULL, "%s",
                outcome.message);
    }

    /* Inside the schema message, inside the batch's header, inside its body. */
    lengths[0] = schema_end - 3;
    lengths[1] = schema_end + 8 + 6; /* past the batch's 8-byte prefix */
    lengths[2] = input.size_bytes - 8 - 4;
    for (k = 0; k < 3; k++) {
      cut.size_bytes = 0;
      cr_assert_eq(ArrowBufferAppend(&cut, input.data, lengths[k]), NANOARROW_OK);
      outcome = ReadAll(&cut, chunked);
      if (k == 0) {
        cr_assert_eq(outcome.schema_code, ESPIPE, "cut %d: %s", k, outcome.message);
      } else {
        cr_assert_eq(outcome.schema_code, NANOARROW_OK, "cut %d: %s", k, outcome.message);
        cr_assert_eq(outcome.batch_code, ESPIPE, "cut %d: %s", k, outcome.message);
      }
    }
    ArrowBufferReset(&cut);
  }
  ArrowBufferReset(&input);
}

/* A NULL FILE* (a failed fopen) reports fopen's errno. */
Test(ipc_limits, null_file_reports_errno) {
  struct ArrowIpcInputStream input_stream;
  struct ArrowIpcOutputStream output_stream;
  FILE* missing = fopen("/nonexistent-dir/nanoarrow-test.arrows", "rb");
  cr_assert_null(missing);
  cr_assert_eq(ArrowIpcInputStreamInitFile(&input_stream, missing, 1), ENOENT);
  missing = fopen("/nonexistent-dir/nanoarrow-test.arrows", "wb");
  cr_assert_null(missing);
  cr_assert_eq(ArrowIpcOutputStreamInitFile(&output_stream, missing, 1), ENOENT);
}

Test(ipc_limits, nesting_deeper_than_the_limit_is_refused) {
  static const int64_t kDepths[] = {NANOARROW_MAX_NESTING_DEPTH + 2, 200, 20000};
  size_t i;
  for (i = 0; i < sizeof(kDepths) / sizeof(kDepths[0]); i++) {
    struct ArrowBuffer input;
    ArrowBufferInit(&input);
    AppendDeepSchema(&input, kDepths[i]);
    AppendEndOfStream(&input);
    ExpectRefused(&input);
    ArrowBufferReset(&input);
  }
}

Test(ipc_limits, shared_subtrees_cannot_expand_exponentially) {
  /* 64^6 (6.9e10) fields from a few kilobytes. */
  struct ArrowBuffer input;
  ArrowBufferInit(&input);
  AppendDagSchema(&input, 64, 6);
  AppendEndOfStream(&input);
  ExpectRefused(&input);
  ArrowBufferReset(&input);
}

Test(ipc_limits, enormous_metadata_length_is_refused) {
  static const int32_t kLengths[] = {0x7FFFFFF0, 0x7FFFFFFF, 0x40000000, 1 << 24};
  size_t i;
  for (i = 0; i < sizeof(kLengths) / sizeof(kLengths[0]); i++) {
    struct ArrowBuffer input;
    int32_t prefix[2] = {-1, kLengths[i]};
    ArrowBufferInit(&input);
    cr_assert_eq(ArrowBufferAppend(&input, prefix, sizeof(prefix)), NANOARROW_OK);
    cr_assert_eq(ArrowBufferAppendFill(&input, 0, 64), NANOARROW_OK);
    ExpectRefused(&input);
    ArrowBufferReset(&input);
  }
}

Test(ipc_limits, enormous_body_length_is_refused) {
  static const int64_t kClaims[] = {(int64_t)1 << 40, INT64_MAX, (int64_t)1 << 31, -16};
  size_t i;
  for (i = 0; i < sizeof(kClaims) / sizeof(kClaims[0]); i++) {
    struct ArrowBuffer input;
    struct BatchSpec spec = {3, 3, kClaims[i], 16, 12, 0, 0, 0, 0};
    ArrowBufferInit(&input);
    AppendInt32Schema(&input);
    AppendBatch(&input, &spec);
    ExpectRefused(&input);
    ArrowBufferReset(&input);
  }
}

Test(ipc_limits, enormous_array_lengths_are_refused) {
  static const int64_t kLengths[] = {(int64_t)1 << 40, INT64_MAX, (int64_t)1 << 61, -1};
  size_t i;
  for (i = 0; i < sizeof(kLengths) / sizeof(kLengths[0]); i++) {
    struct ArrowBuffer input;
    /* Batch and node claim the length; the data buffer claims the bytes it needs
     * (possibly overflowing) but only 16 exist. */
    struct BatchSpec spec = {kLengths[i], kLengths[i], 16, 16, 16, 0, 0, 0, 0};
    struct BatchSpec big_buffer = {kLengths[i], kLengths[i], 16, 16, kLengths[i], 0, 0, 0, 0};
    ArrowBufferInit(&input);
    AppendInt32Schema(&input);
    AppendBatch(&input, &spec);
    AppendEndOfStream(&input);
    ExpectRefused(&input);
    ArrowBufferReset(&input);

    ArrowBufferInit(&input);
    AppendInt32Schema(&input);
    AppendBatch(&input, &big_buffer);
    AppendEndOfStream(&input);
    ExpectRefused(&input);
    ArrowBufferReset(&input);
  }
}

Test(ipc_limits, enormous_vector_counts_are_refused) {
  static const uint32_t kCounts[] = {0x40000000u, 0xFFFFFFFFu, 1000000u, 4096u};
  size_t i;
  for (i = 0; i < sizeof(kCounts) / sizeof(kCounts[0]); i++) {
    struct ArrowBuffer input;
    struct BatchSpec spec = {3, 3, 16, 16, 12, kCounts[i], 0, 0, 0};
    ArrowBufferInit(&input);
    AppendInt32Schema(&input);
    AppendBatch(&input, &spec);
    AppendEndOfStream(&input);
    ExpectRefused(&input);
    ArrowBufferReset(&input);
  }
}

Test(ipc_limits, decompression_bomb_is_refused) {
  struct ArrowBuffer input;
  /* A 32-byte "LZ4" buffer claiming to expand to 1 TiB. */
  struct BatchSpec spec = {3, 3, 32, 32, 32, 0, 1, 0, 0};
  ArrowBufferInit(&input);
  AppendInt32Schema(&input);
  AppendBatch(&input, &spec);
  AppendEndOfStream(&input);
  ExpectRefused(&input);
  ArrowBufferReset(&input);
}

Test(ipc_limits, many_empty_batches_cost_input) {
  /* 20000 zero-row batches: each costs the reader one message of input, and the
   * memory in use stays bounded while they are read. */
  struct ArrowBuffer input;
  struct BatchSpec spec = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  struct ReadOutcome outcome;
  int i;
  ArrowBufferInit(&input);
  AppendInt32Schema(&input);
  for (i = 0; i < 20000; i++) AppendBatch(&input, &spec);
  AppendEndOfStream(&input);
  outcome = ReadAll(&input, 0);
  cr_assert_eq(outcome.batch_code, NANOARROW_OK, "%s", outcome.message);
  cr_assert_eq(outcome.n_batches, 20000);
  ExpectBoundedMemory(&outcome, input.size_bytes);
  outcome = ReadAll(&input, 1);
  cr_assert_eq(outcome.n_batches, 20000);
  ExpectBoundedMemory(&outcome, input.size_bytes);
  ArrowBufferReset(&input);
}

/* ---- Lengths no input bytes pay for ---- */

/* fuzz/regressions/<harness>/<name>, found next to this file. */
static void ReadRegression(const char* name, struct ArrowBuffer* out) {
  char path[2048];
  const char* slash = strrchr(__FILE__, '/');
  FILE* file;
  uint8_t chunk[4096];
  size_t n;
  if (slash == NULL) {
    snprintf(path, sizeof(path), "../../fuzz/regressions/%s", name);
  } else {
    snprintf(path, sizeof(path), "%.*s/../../fuzz/regressions/%s", (int)(slash - __FILE__),
             __FILE__, name);
  }
  file = fopen(path, "rb");
  cr_assert_not_null(file, "cannot open %s", path);
  ArrowBufferInit(out);
  while ((n = fread(chunk, 1, sizeof(chunk), file)) > 0) {
    cr_assert_eq(ArrowBufferAppend(out, chunk, (int64_t)n), NANOARROW_OK);
  }
  fclose(file);
}

Test(ipc_limits, column_length_must_equal_batch_length) {
  struct ArrowBuffer input;
  /* A 0-row batch whose null column "f0" claims 31806672368304128 rows. */
  ReadRegression("ipc_stream_fuzzer/huge-null-column-under-empty-batch", &input);
  /* The stream reader has handed its schema to the consumer by then, so the column
   * is named by its index (the name could already be freed). */
  ExpectRefusedWith(&input, -1, "column 0: field length 31806672368304128",
                    "record batch length 0");
  ArrowBufferReset(&input);

  /* Backed by its bytes but shorter than the batch. */
  {
    struct BatchSpec spec = {3, 2, 16, 16, 8, 0, 0, 0, 0};
    ArrowBufferInit(&input);
    AppendInt32Schema(&input);
    AppendBatch(&input, &spec);
    AppendEndOfStream(&input);
    ExpectRefusedWith(&input, -1, "field length 2 differs from the record batch length 3",
                      NULL);
    ArrowBufferReset(&input);
  }
}

Test(ipc_limits, unbacked_lengths_are_capped) {
  struct ArrowBuffer input;
  struct ReadOutcome outcome;
  struct BatchSpec at_limit = {INT32_MAX, INT32_MAX, 0, 0, 0, 0, 0, 0, 1};
  struct BatchSpec over_limit = {(int64_t)INT32_MAX + 1, (int64_t)INT32_MAX + 1, 0, 0, 0, 0,
                                 0, 0, 1};
  struct BatchSpec huge = {(int64_t)1 << 60, (int64_t)1 << 60, 16, 16, 0, 0, 0, 0, 1};

  /* A null column as long as the limit still reads. */
  ArrowBufferInit(&input);
  AppendNullSchema(&input);
  AppendBatch(&input, &at_limit);
  AppendEndOfStream(&input);
  outcome = ReadAll(&input, 0);
  cr_assert_eq(outcome.batch_code, NANOARROW_OK, "%s", outcome.message);
  cr_assert_eq(outcome.n_batches, 1);
  ArrowBufferReset(&input);

  ArrowBufferInit(&input);
  AppendNullSchema(&input);
  AppendBatch(&input, &over_limit);
  AppendEndOfStream(&input);
  ExpectRefusedWith(&input, -1, "record batch length 2147483648",
                    "NANOARROW_IPC_MAX_UNBACKED_LENGTH");
  ArrowBufferReset(&input);

  ArrowBufferInit(&input);
  AppendNullSchema(&input);
  AppendBatch(&input, &huge);
  AppendEndOfStream(&input);
  ExpectRefusedWith(&input, -1, "over the reader's limit of 2147483647 for a body of 16",
                    NULL);
  ArrowBufferReset(&input);
}

Test(ipc_limits, nesting_depth_errors_name_the_depth) {
  /* 66 and 67 levels were once refused as "invalid dictionary encodings". */
  int64_t depth;
  for (depth = NANOARROW_MAX_NESTING_DEPTH + 1; depth <= NANOARROW_MAX_NESTING_DEPTH + 4;
       depth++) {
    struct ArrowBuffer input;
    ArrowBufferInit(&input);
    AppendDeepSchema(&input, depth);
    AppendEndOfStream(&input);
    ExpectRefusedWith(&input, -1, "deeper than", NULL);
    ArrowBufferReset(&input);
  }
}

/* ---- Decompressed bytes ---- */

Test(ipc_limits, decompressed_claims_over_the_default_limit_are_refused) {
  /* A 32-byte body: the default limit is 64 x 32 + 1 MiB. */
  const int64_t limit = NANOARROW_IPC_DEFAULT_DECOMPRESSION_RATIO * 32 +
                        NANOARROW_IPC_DEFAULT_DECOMPRESSION_ALLOWANCE;
  struct BatchSpec over = {3, 3, 32, 32, 32, 0, 1, limit + 1, 0};
  struct BatchSpec at = {3, 3, 32, 32, 32, 0, 1, limit, 0};
  struct ArrowBuffer input;
  struct ReadOutcome outcome;
  char expected[128];

  ArrowBufferInit(&input);
  AppendInt32Schema(&input);
  AppendBatch(&input, &over);
  AppendEndOfStream(&input);
  snprintf(expected, sizeof(expected), "over the limit of %ld decompressed bytes",
           (long)limit);
  ExpectRefusedWith(&input, -1, "buffer 1 claims 1050625 decompressed bytes", expected);
  ArrowBufferReset(&input);

  /* At the limit the claim is allowed (the garbage frame then fails to decode). */
  ArrowBufferInit(&input);
  AppendInt32Schema(&input);
  AppendBatch(&input, &at);
  AppendEndOfStream(&input);
  outcome = ReadAll(&input, 0);
  cr_assert_neq(outcome.batch_code, NANOARROW_OK);
  cr_assert(strstr(outcome.message, "over the limit") == NULL, "%s", outcome.message);
  ArrowBufferReset(&input);
}

Test(ipc_limits, stream_reader_limit_is_honoured) {
  struct BatchSpec spec = {3, 3, 32, 32, 32, 0, 1, 4096, 0};
  struct ArrowBuffer input;
  struct ArrowIpcInputStream input_stream;
  struct ArrowArrayStream stream;
  ArrowBufferInit(&input);
  AppendInt32Schema(&input);
  AppendBatch(&input, &spec);
  AppendEndOfStream(&input);
  ExpectRefusedWith(&input, 4095, "buffer 1 claims 4096 decompressed bytes",
                    "over the limit of 4095 decompressed bytes");
  ExpectRefusedWith(&input, 0, "over the limit of 0 decompressed bytes", NULL);
  ArrowBufferReset(&input);

  /* Limits below -1 are refused (and the input stream is left to the caller). */
  ArrowBufferInit(&input);
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input_stream, &input), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInitWithLimits(&stream, &input_stream, NULL,
                                                       NANOARROW_VALIDATION_LEVEL_FULL, -2),
               EINVAL);
  cr_assert_not_null(input_stream.release);
  input_stream.release(&input_stream);
}

/* An IPC file of one ZSTD-compressed batch: one int32 column of n_rows zeros (so the
 * body claims 4 x n_rows decompressed bytes in all). 0 when ZSTD is not built in. */
static int WriteCompressedFile(int64_t n_rows, struct ArrowBuffer* out) {
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t i;
  int rc;

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "zeros"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  for (i = 0; i < n_rows; i++) {
    cr_assert_eq(ArrowArrayAppendInt(array.children[0], 0), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, NULL), NANOARROW_OK);

  ArrowBufferInit(out);
  cr_assert_eq(ArrowIpcOutputStreamInitBuffer(&output, out), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &output), NANOARROW_OK);
  rc = ArrowIpcWriterSetCompression(&writer, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                    NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &error);
  if (rc == NANOARROW_OK) {
    cr_assert_eq(ArrowIpcWriterStartFile(&writer, &error), NANOARROW_OK, "%s", error.message);
    cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK);
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(ArrowIpcWriterFinalizeFile(&writer, &error), NANOARROW_OK, "%s",
                 error.message);
    ArrowArrayViewReset(&view);
  }
  ArrowIpcWriterReset(&writer);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  return rc == NANOARROW_OK;
}

Test(ipc_limits, file_reader_limit_is_honoured) {
  struct ArrowBuffer bytes;
  struct ArrowIpcFileReader reader;
  struct ArrowArray batch;
  struct ArrowError error;
  /* 4096 int32 zeros: 16384 decompressed bytes from a few compressed ones. */
  if (!WriteCompressedFile(4096, &bytes)) {
    ArrowBufferReset(&bytes);
    cr_skip_test("built without ZSTD");
  }
  cr_assert_eq(ArrowIpcFileReaderInitBuffer(&reader, &bytes, &error), NANOARROW_OK, "%s",
               error.message);

  /* Just under the claim: refused, naming the limit. */
  cr_assert_eq(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, 16383), NANOARROW_OK);
  error.message[0] = '\0';
  cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                           NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  cr_assert(strstr(error.message, "over the limit of 16383 decompressed bytes") != NULL,
            "%s", error.message);

  /* At the claim, and back at the default: read. */
  cr_assert_eq(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, 16384), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                           NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(batch.length, 4096);
  ArrowArrayRelease(&batch);
  cr_assert_eq(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, 0), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, -1), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, 0, &batch,
                                           NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  ArrowArrayRelease(&batch);

  /* Limits below -1 are refused and leave the limit alone. */
  cr_assert_eq(ArrowIpcFileReaderSetMaxDecompressedBytes(&reader, -2), EINVAL);
  ArrowIpcFileReaderReset(&reader);
}

/* A consumer may release the schema before asking for batches; an error found in a
 * batch afterwards must not read anything of it (ASan reports a use after free). */
Test(ipc_limits, batch_error_after_the_schema_was_released) {
  struct ArrowBuffer input;
  struct ArrowBuffer copy;
  struct ArrowIpcInputStream input_stream;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray array;
  ReadRegression("ipc_stream_fuzzer/huge-null-column-under-empty-batch", &input);
  ArrowBufferInit(&copy);
  cr_assert_eq(ArrowBufferAppend(&copy, input.data, input.size_bytes), NANOARROW_OK);
  ArrowBufferReset(&input);
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input_stream, &copy), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input_stream, NULL), NANOARROW_OK);
  cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK);
  ArrowSchemaRelease(&schema);
  cr_assert_eq(stream.get_next(&stream, &array), EINVAL);
  cr_assert(strstr(stream.get_last_error(&stream), "column 0: field length") != NULL, "%s",
            stream.get_last_error(&stream));
  ArrowArrayStreamRelease(&stream);
}
