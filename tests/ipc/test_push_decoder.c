/* ArrowIpcPushDecoder: stream bytes pushed in pieces of any size give the same
 * schema, batches and errors as the stream reader over the same bytes; hostile
 * bytes in tiny pieces fail cleanly; the end-of-stream marker and what follows it. */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/heap_peak_util.h"

#define INTEGRATION_DIR NANOARROW_TEST_DATA_DIR "/arrow-ipc-stream/integration"

static int ReadWholeFile(const char* path, struct ArrowBuffer* out) {
  FILE* file = fopen(path, "rb");
  long size;
  ArrowBufferInit(out);
  if (file == NULL) return EIO;
  fseek(file, 0, SEEK_END);
  size = ftell(file);
  fseek(file, 0, SEEK_SET);
  if (ArrowBufferReserve(out, size > 0 ? size : 1) != NANOARROW_OK ||
      fread(out->data, 1, (size_t)size, file) != (size_t)size) {
    fclose(file);
    ArrowBufferReset(out);
    return EIO;
  }
  out->size_bytes = size;
  fclose(file);
  return NANOARROW_OK;
}

/* What a reader produced: the schema (if any), the batches in order, the code it
 * stopped with (OK at a clean end) and its message. */
struct Outcome {
  struct ArrowSchema schema;
  struct ArrowArray batches[512];
  int64_t n_batches;
  int code;
  char message[1100];
};

static void OutcomeInit(struct Outcome* outcome) {
  outcome->schema.release = NULL;
  outcome->n_batches = 0;
  outcome->code = NANOARROW_OK;
  outcome->message[0] = '\0';
}

static void OutcomeReset(struct Outcome* outcome) {
  int64_t i;
  if (outcome->schema.release != NULL) ArrowSchemaRelease(&outcome->schema);
  for (i = 0; i < outcome->n_batches; i++) ArrowArrayRelease(&outcome->batches[i]);
  outcome->n_batches = 0;
}

static void ReadWithStreamReader(const uint8_t* data, int64_t size, struct Outcome* out) {
  struct ArrowBuffer copy;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowArray batch;
  OutcomeInit(out);
  ArrowBufferInit(&copy);
  cr_assert_eq(ArrowBufferAppend(&copy, data, size), NANOARROW_OK);
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &copy), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL), NANOARROW_OK);
  out->code = stream.get_schema(&stream, &out->schema);
  while (out->code == NANOARROW_OK) {
    out->code = stream.get_next(&stream, &batch);
    if (out->code != NANOARROW_OK || batch.release == NULL) break;
    cr_assert_lt(out->n_batches, 512);
    ArrowArrayMove(&batch, &out->batches[out->n_batches++]);
  }
  if (out->code != NANOARROW_OK) {
    snprintf(out->message, sizeof(out->message), "%s", stream.get_last_error(&stream));
  }
  ArrowArrayStreamRelease(&stream);
}

/* Takes every batch waiting in a poll-mode decoder. */
static void DrainPoll(struct ArrowIpcPushDecoder* decoder, struct Outcome* out) {
  struct ArrowArray batch;
  struct ArrowError error;
  while (ArrowIpcPushDecoderNext(decoder, &batch, &error) == NANOARROW_OK) {
    cr_assert_lt(out->n_batches, 512);
    ArrowArrayMove(&batch, &out->batches[out->n_batches++]);
  }
}

enum FeedMode { FEED_COPY, FEED_BUFFER, FEED_EXACT };

/* Pushes data in pieces of chunk bytes (FEED_BUFFER: handing each piece over as a
 * buffer; FEED_EXACT: pieces of exactly BytesNeeded bytes), polling after each,
 * then Finish. */
static void ReadWithPushDecoder(const uint8_t* data, int64_t size, int64_t chunk,
                                enum FeedMode mode, struct Outcome* out) {
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  int64_t pos = 0;
  OutcomeInit(out);
  error.message[0] = '\0';
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  /* The reader sees where its input ends; the push decoder waits for bytes a length
   * promises unless a limit refuses it first (tested on its own). */
  cr_assert_eq(ArrowIpcPushDecoderSetMaxMessageBytes(&decoder, INT64_MAX), NANOARROW_OK);
  while (pos < size && out->code == NANOARROW_OK) {
    int64_t n = chunk;
    if (mode == FEED_EXACT) {
      n = ArrowIpcPushDecoderBytesNeeded(&decoder);
      cr_assert_gt(n, 0, "BytesNeeded is 0 at byte %ld of %ld", (long)pos, (long)size);
    }
    if (n > size - pos) n = size - pos;
    if (mode == FEED_BUFFER) {
      struct ArrowBuffer piece;
      ArrowBufferInit(&piece);
      cr_assert_eq(ArrowBufferAppend(&piece, data + pos, n), NANOARROW_OK);
      out->code = ArrowIpcPushDecoderConsumeBuffer(&decoder, &piece, &error);
      cr_assert_null(piece.data);
    } else {
      out->code = ArrowIpcPushDecoderConsume(&decoder, data + pos, n, &error);
    }
    pos += n;
    DrainPoll(&decoder, out);
  }
  if (out->code == NANOARROW_OK) out->code = ArrowIpcPushDecoderFinish(&decoder, &error);
  DrainPoll(&decoder, out);
  if (out->code != NANOARROW_OK) {
    snprintf(out->message, sizeof(out->message), "%s", error.message);
  } else {
    struct ArrowArray none;
    cr_assert_eq(ArrowIpcPushDecoderNext(&decoder, &none, &error), ENODATA);
    cr_assert_eq(ArrowIpcPushDecoderBytesNeeded(&decoder), 0);
  }
  if (ArrowIpcPushDecoderGetSchema(&decoder, &out->schema, &error) != NANOARROW_OK) {
    out->schema.release = NULL;
  }
  ArrowIpcPushDecoderReset(&decoder);
}

/* Same code, same schema, same number of batches, each batch identical. */
static void ExpectSame(const struct Outcome* actual, const struct Outcome* expected,
                       const char* what) {
  struct ArrowError error;
  struct ArrowArrayView actual_view;
  struct ArrowArrayView expected_view;
  int equal = 0;
  int64_t i;
  cr_expect_eq(actual->code, expected->code, "%s: code %d (%s), stream reader %d (%s)", what,
               actual->code, actual->message, expected->code, expected->message);
  cr_assert_eq(actual->n_batches, expected->n_batches, "%s: %ld batches, stream reader %ld",
               what, (long)actual->n_batches, (long)expected->n_batches);
  if (expected->schema.release == NULL) return;
  cr_assert_not_null(actual->schema.release, "%s: no schema", what);
  cr_assert_eq(ArrowSchemaCompare(&actual->schema, &expected->schema,
                                  NANOARROW_COMPARE_IDENTICAL, &equal, &error),
               NANOARROW_OK);
  cr_assert(equal, "%s: schema differs: %s", what, error.message);
  if (expected->n_batches == 0) return;
  cr_assert_eq(ArrowArrayViewInitFromSchema(&actual_view, &expected->schema, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&expected_view, &expected->schema, &error),
               NANOARROW_OK, "%s", error.message);
  for (i = 0; i < expected->n_batches; i++) {
    cr_assert_eq(ArrowArrayViewSetArray(&actual_view, &actual->batches[i], &error),
                 NANOARROW_OK, "%s: batch %ld: %s", what, (long)i, error.message);
    cr_assert_eq(ArrowArrayViewSetArray(&expected_view, &expected->batches[i], &error),
                 NANOARROW_OK, "%s: batch %ld: %s", what, (long)i, error.message);
    cr_assert_eq(ArrowArrayViewCompare(&actual_view, &expected_view,
                                       NANOARROW_COMPARE_IDENTICAL, &equal, &error),
                 NANOARROW_OK);
    cr_assert(equal, "%s: batch %ld differs: %s", what, (long)i, error.message);
  }
  ArrowArrayViewReset(&actual_view);
  ArrowArrayViewReset(&expected_view);
}

static int EndsWith(const char* name, const char* suffix) {
  size_t n = strlen(name);
  size_t m = strlen(suffix);
  return n >= m && strcmp(name + n - m, suffix) == 0;
}

static const char* kIntegrationDirs[] = {"0.14.1", "0.17.1", "1.0.0-bigendian",
                                         "1.0.0-littleendian", "2.0.0-compression",
                                         "4.0.0-shareddict", "cpp-21.0.0"};

/* Calls check(path, data, size) for every integration .stream; returns how many. */
static int ForEachIntegrationStream(void (*check)(const char* path,
                                                  const struct ArrowBuffer* data)) {
  int n_files = 0;
  size_t d;
  for (d = 0; d < sizeof(kIntegrationDirs) / sizeof(kIntegrationDirs[0]); d++) {
    char dir_path[1024];
    char path[2048];
    DIR* dir;
    struct dirent* entry;
    snprintf(dir_path, sizeof(dir_path), "%s/%s", INTEGRATION_DIR, kIntegrationDirs[d]);
    dir = opendir(dir_path);
    cr_assert_not_null(dir, "missing %s", dir_path);
    while ((entry = readdir(dir)) != NULL) {
      struct ArrowBuffer data;
      if (!EndsWith(entry->d_name, ".stream")) continue;
      snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
      cr_assert_eq(ReadWholeFile(path, &data), NANOARROW_OK, "cannot read %s", path);
      check(path, &data);
      ArrowBufferReset(&data);
      n_files++;
    }
    closedir(dir);
  }
  return n_files;
}

static void CheckChunked(const char* path, const struct ArrowBuffer* data) {
  static const int64_t kChunks[] = {1, 7, 4096, INT64_MAX};
  struct Outcome expected;
  struct Outcome actual;
  char what[2200];
  size_t i;
  ReadWithStreamReader(data->data, data->size_bytes, &expected);
  for (i = 0; i < sizeof(kChunks) / sizeof(kChunks[0]); i++) {
    snprintf(what, sizeof(what), "%s in pieces of %ld", path, (long)kChunks[i]);
    ReadWithPushDecoder(data->data, data->size_bytes, kChunks[i], FEED_COPY, &actual);
    ExpectSame(&actual, &expected, what);
    OutcomeReset(&actual);
  }
  snprintf(what, sizeof(what), "%s handed over in buffers of 4096", path);
  ReadWithPushDecoder(data->data, data->size_bytes, 4096, FEED_BUFFER, &actual);
  ExpectSame(&actual, &expected, what);
  OutcomeReset(&actual);
  snprintf(what, sizeof(what), "%s handed over whole", path);
  ReadWithPushDecoder(data->data, data->size_bytes, INT64_MAX, FEED_BUFFER, &actual);
  ExpectSame(&actual, &expected, what);
  OutcomeReset(&actual);
  snprintf(what, sizeof(what), "%s in pieces of BytesNeeded", path);
  ReadWithPushDecoder(data->data, data->size_bytes, 0, FEED_EXACT, &actual);
  ExpectSame(&actual, &expected, what);
  OutcomeReset(&actual);
  OutcomeReset(&expected);
}

Test(push_decoder, integration_streams_match_the_stream_reader) {
  cr_assert_geq(ForEachIntegrationStream(&CheckChunked), 90);
}

/* ---- Callbacks ---- */

struct Counts {
  int n_schemas;
  int n_dictionaries;
  int n_batches;
  int n_ends;
  int64_t rows;
  int fail_at_batch;
};

static ArrowErrorCode CountSchema(struct ArrowIpcPushDecoderCallbacks* callbacks,
                                  struct ArrowSchema* schema, struct ArrowError* error) {
  struct Counts* counts = (struct Counts*)callbacks->private_data;
  struct ArrowSchema kept;
  (void)error;
  ArrowSchemaMove(schema, &kept);
  ArrowSchemaRelease(&kept);
  counts->n_schemas++;
  return NANOARROW_OK;
}

static ArrowErrorCode CountDictionary(struct ArrowIpcPushDecoderCallbacks* callbacks,
                                      int64_t id, int is_delta,
                                      const struct ArrowArray* values,
                                      struct ArrowError* error) {
  struct Counts* counts = (struct Counts*)callbacks->private_data;
  (void)id;
  (void)is_delta;
  (void)error;
  if (values == NULL || values->release == NULL) return EINVAL;
  counts->n_dictionaries++;
  return NANOARROW_OK;
}

static ArrowErrorCode CountBatch(struct ArrowIpcPushDecoderCallbacks* callbacks,
                                 struct ArrowArray* batch, struct ArrowError* error) {
  struct Counts* counts = (struct Counts*)callbacks->private_data;
  counts->n_batches++;
  counts->rows += batch->length;
  if (counts->n_batches == counts->fail_at_batch) {
    ArrowErrorSet(error, "the callback refused batch %d", counts->n_batches);
    return ECANCELED;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode CountEnd(struct ArrowIpcPushDecoderCallbacks* callbacks,
                               struct ArrowError* error) {
  (void)error;
  ((struct Counts*)callbacks->private_data)->n_ends++;
  return NANOARROW_OK;
}

static void InitCountingCallbacks(struct ArrowIpcPushDecoderCallbacks* callbacks,
                                  struct Counts* counts) {
  memset(counts, 0, sizeof(*counts));
  callbacks->on_schema = &CountSchema;
  callbacks->on_dictionary = &CountDictionary;
  callbacks->on_batch = &CountBatch;
  callbacks->on_end = &CountEnd;
  callbacks->private_data = counts;
}

static void LoadStream(const char* relative, struct ArrowBuffer* out) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", INTEGRATION_DIR, relative);
  cr_assert_eq(ReadWholeFile(path, out), NANOARROW_OK, "cannot read %s", path);
}

Test(push_decoder, callbacks_see_schema_dictionaries_batches_and_end) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoderCallbacks callbacks;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  struct Counts counts;
  struct Outcome expected;
  struct ArrowArray batch;
  int64_t pos;
  int64_t rows = 0;
  int64_t i;
  LoadStream("1.0.0-littleendian/generated_dictionary.stream", &data);
  ReadWithStreamReader(data.data, data.size_bytes, &expected);
  cr_assert_eq(expected.code, NANOARROW_OK);
  for (i = 0; i < expected.n_batches; i++) rows += expected.batches[i].length;

  InitCountingCallbacks(&callbacks, &counts);
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, &callbacks, &error), NANOARROW_OK);
  for (pos = 0; pos < data.size_bytes; pos += 3) {
    int64_t n = data.size_bytes - pos < 3 ? data.size_bytes - pos : 3;
    cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data + pos, n, &error),
                 NANOARROW_OK, "%s", error.message);
    /* Callback mode: nothing waits for a poll. */
    cr_assert_neq(ArrowIpcPushDecoderNext(&decoder, &batch, &error), NANOARROW_OK);
  }
  cr_assert_eq(ArrowIpcPushDecoderFinish(&decoder, &error), NANOARROW_OK);
  cr_expect_eq(counts.n_schemas, 1);
  cr_expect_gt(counts.n_dictionaries, 0);
  cr_expect_eq(counts.n_batches, expected.n_batches);
  cr_expect_eq(counts.rows, rows);
  cr_expect_eq(counts.n_ends, 1);
  cr_expect_eq(ArrowIpcPushDecoderBytesConsumed(&decoder), data.size_bytes);
  cr_expect_eq(ArrowIpcPushDecoderNext(&decoder, &batch, &error), ENODATA);
  ArrowIpcPushDecoderReset(&decoder);
  OutcomeReset(&expected);
  ArrowBufferReset(&data);
}

Test(push_decoder, a_failing_callback_stops_the_decoder) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoderCallbacks callbacks;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  struct Counts counts;
  LoadStream("1.0.0-littleendian/generated_primitive.stream", &data);
  InitCountingCallbacks(&callbacks, &counts);
  counts.fail_at_batch = 1;
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, &callbacks, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes, &error),
               ECANCELED);
  cr_expect_str_eq(error.message, "the callback refused batch 1");
  cr_expect_eq(counts.n_batches, 1);
  cr_expect_eq(ArrowIpcPushDecoderBytesNeeded(&decoder), 0);
  /* Stopped: the same code again, for every call. */
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, 1, &error), ECANCELED);
  cr_expect(strstr(error.message, "the callback refused batch 1") != NULL, "%s",
            error.message);
  cr_expect_eq(ArrowIpcPushDecoderFinish(&decoder, &error), ECANCELED);
  cr_expect_eq(counts.n_batches, 1);
  cr_expect_eq(counts.n_ends, 0);
  ArrowIpcPushDecoderReset(&decoder);
  ArrowBufferReset(&data);
}

/* ---- Poll mode, end of stream, bytes after it ---- */

Test(push_decoder, poll_mode_says_eagain_until_bytes_arrive) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  LoadStream("1.0.0-littleendian/generated_primitive.stream", &data);
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderBytesNeeded(&decoder), 4);
  cr_expect_eq(ArrowIpcPushDecoderGetSchema(&decoder, &schema, &error), EAGAIN);
  cr_expect_eq(ArrowIpcPushDecoderNext(&decoder, &batch, &error), EAGAIN);
  cr_expect_null(batch.release);
  /* The continuation marker: 4 more prefix bytes, then the metadata. */
  cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, 4, &error), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderBytesNeeded(&decoder), 4);
  cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data + 4, 4, &error), NANOARROW_OK);
  {
    int32_t length;
    memcpy(&length, data.data + 4, sizeof(length));
    cr_expect_eq(ArrowIpcPushDecoderBytesNeeded(&decoder), length);
  }
  cr_expect_eq(ArrowIpcPushDecoderGetSchema(&decoder, &schema, &error), EAGAIN);
  cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data + 8, data.size_bytes - 8,
                                          &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowIpcPushDecoderGetSchema(&decoder, &schema, &error), NANOARROW_OK);
  cr_expect_eq(schema.n_children, 30, "%ld", (long)schema.n_children);
  ArrowSchemaRelease(&schema);
  cr_assert_eq(ArrowIpcPushDecoderNext(&decoder, &batch, &error), NANOARROW_OK);
  ArrowArrayRelease(&batch);
  /* Reset releases the batches nobody took. */
  ArrowIpcPushDecoderReset(&decoder);
  ArrowBufferReset(&data);
}

Test(push_decoder, bytes_after_the_end_of_stream_marker_are_refused) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowIpcPushDecoderCallbacks callbacks;
  struct Counts counts;
  struct ArrowError error;
  struct ArrowArray batch;
  struct Outcome expected;
  char message[128];
  int64_t n = 0;
  int code;
  static const uint8_t kTrailer[] = {1, 2, 3};
  LoadStream("1.0.0-littleendian/generated_primitive.stream", &data);
  ReadWithStreamReader(data.data, data.size_bytes, &expected);
  cr_assert_eq(ArrowBufferAppend(&data, kTrailer, sizeof(kTrailer)), NANOARROW_OK);
  snprintf(message, sizeof(message),
           "3 bytes after the end-of-stream marker (which ends at byte %ld)",
           (long)(data.size_bytes - 3));

  /* Callbacks: in the call that consumes them, after every batch and the end. */
  InitCountingCallbacks(&callbacks, &counts);
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, &callbacks, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes, &error),
               EINVAL);
  cr_expect_str_eq(error.message, message);
  cr_expect_eq(counts.n_batches, expected.n_batches);
  cr_expect_eq(counts.n_ends, 1);
  cr_expect_eq(ArrowIpcPushDecoderBytesConsumed(&decoder), data.size_bytes - 3);
  cr_expect_eq(ArrowIpcPushDecoderBytesNeeded(&decoder), 0);
  /* The stream itself ended cleanly. */
  cr_expect_eq(ArrowIpcPushDecoderFinish(&decoder, &error), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, kTrailer, 1, &error), EINVAL);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, kTrailer, 0, &error), NANOARROW_OK);
  ArrowIpcPushDecoderReset(&decoder);

  /* Poll mode decodes until 8 batches wait (this stream has 2): the same error,
   * and every batch is there to take, then the end. */
  cr_assert_lt(expected.n_batches, 8);
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes, &error),
               EINVAL);
  cr_expect_str_eq(error.message, message);
  while ((code = ArrowIpcPushDecoderNext(&decoder, &batch, &error)) == NANOARROW_OK) {
    ArrowArrayRelease(&batch);
    n++;
  }
  cr_expect_eq(n, expected.n_batches);
  cr_expect_eq(code, ENODATA);
  cr_expect_eq(ArrowIpcPushDecoderBytesConsumed(&decoder), data.size_bytes - 3);
  cr_expect_eq(ArrowIpcPushDecoderFinish(&decoder, &error), NANOARROW_OK);
  ArrowIpcPushDecoderReset(&decoder);
  OutcomeReset(&expected);
  ArrowBufferReset(&data);
}

Test(push_decoder, end_of_stream_forms) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  struct Outcome expected;
  struct Outcome actual;
  static const uint8_t kEos[] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  LoadStream("1.0.0-littleendian/generated_primitive.stream", &data);
  cr_assert_eq(memcmp(data.data + data.size_bytes - 8, kEos, 8), 0);

  /* No marker: Finish between messages ends the stream, as the reader does. */
  ReadWithStreamReader(data.data, data.size_bytes - 8, &expected);
  ReadWithPushDecoder(data.data, data.size_bytes - 8, 5, FEED_COPY, &actual);
  cr_expect_eq(expected.code, NANOARROW_OK);
  ExpectSame(&actual, &expected, "without the end-of-stream marker");
  OutcomeReset(&actual);
  OutcomeReset(&expected);

  /* Only a marker: no schema. */
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, kEos, 8, &error), ENODATA);
  cr_expect_str_eq(error.message, "message at byte 0: stream ended before its Schema message");
  ArrowIpcPushDecoderReset(&decoder);
  /* Nothing at all. */
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderFinish(&decoder, &error), ENODATA);
  ArrowIpcPushDecoderReset(&decoder);
  /* The legacy 4-byte marker (0.14 streams). */
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes - 8, &error),
               NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, kEos + 4, 4, &error), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderBytesNeeded(&decoder), 0);
  cr_expect_eq(ArrowIpcPushDecoderBytesConsumed(&decoder), data.size_bytes - 4);
  ArrowIpcPushDecoderReset(&decoder);
  ArrowBufferReset(&data);
}

/* ---- Hostile bytes ---- */

Test(push_decoder, truncated_streams_fail_like_the_stream_reader) {
  struct ArrowBuffer data;
  struct Outcome expected;
  struct Outcome actual;
  char what[128];
  int64_t cut;
  LoadStream("1.0.0-littleendian/generated_dictionary.stream", &data);
  for (cut = 0; cut < data.size_bytes; cut += (cut < 600 ? 1 : 37)) {
    ReadWithStreamReader(data.data, cut, &expected);
    snprintf(what, sizeof(what), "cut at %ld, pieces of 1", (long)cut);
    ReadWithPushDecoder(data.data, cut, 1, FEED_COPY, &actual);
    ExpectSame(&actual, &expected, what);
    OutcomeReset(&actual);
    snprintf(what, sizeof(what), "cut at %ld, pieces of 7", (long)cut);
    ReadWithPushDecoder(data.data, cut, 7, FEED_BUFFER, &actual);
    ExpectSame(&actual, &expected, what);
    OutcomeReset(&actual);
    OutcomeReset(&expected);
  }
  ArrowBufferReset(&data);
}

/* Deterministic pseudo-random numbers (xorshift). */
static uint64_t NextRandom(uint64_t* state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *state = x;
  return x;
}

Test(push_decoder, corrupted_streams_fail_like_the_stream_reader) {
  static const char* kStreams[] = {"1.0.0-littleendian/generated_dictionary.stream",
                                   "1.0.0-littleendian/generated_nested.stream",
                                   "2.0.0-compression/generated_zstd.stream"};
  uint64_t state = 0x9E3779B97F4A7C15ULL;
  size_t s;
  for (s = 0; s < sizeof(kStreams) / sizeof(kStreams[0]); s++) {
    struct ArrowBuffer data;
    int round;
    LoadStream(kStreams[s], &data);
    for (round = 0; round < 60; round++) {
      struct Outcome expected;
      struct Outcome actual;
      char what[256];
      int64_t at = (int64_t)(NextRandom(&state) % (uint64_t)data.size_bytes);
      uint8_t saved = data.data[at];
      /* Mostly the first bytes (prefixes and metadata), where lengths live. */
      if (round % 2 == 0) at = at % 512;
      saved = data.data[at];
      data.data[at] = (uint8_t)NextRandom(&state);
      ReadWithStreamReader(data.data, data.size_bytes, &expected);
      snprintf(what, sizeof(what), "%s with byte %ld set to %d", kStreams[s], (long)at,
               (int)data.data[at]);
      ReadWithPushDecoder(data.data, data.size_bytes, 1 + round % 5, FEED_COPY, &actual);
      ExpectSame(&actual, &expected, what);
      OutcomeReset(&actual);
      OutcomeReset(&expected);
      data.data[at] = saved;
    }
    ArrowBufferReset(&data);
  }
}

Test(push_decoder, garbage_in_tiny_pieces_fails_cleanly) {
  uint64_t state = 12345;
  int round;
  for (round = 0; round < 200; round++) {
    struct ArrowIpcPushDecoder decoder;
    struct ArrowError error;
    uint8_t bytes[300];
    int64_t size = 1 + (int64_t)(NextRandom(&state) % sizeof(bytes));
    int64_t pos = 0;
    int64_t i;
    int code = NANOARROW_OK;
    for (i = 0; i < size; i++) bytes[i] = (uint8_t)NextRandom(&state);
    /* Half of them with a plausible continuation marker and a small length. */
    if (round % 2 == 0 && size >= 8) {
      memset(bytes, 0xFF, 4);
      bytes[4] = (uint8_t)(NextRandom(&state) % 200);
      bytes[5] = bytes[6] = bytes[7] = 0;
    }
    cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
    while (pos < size && code == NANOARROW_OK) {
      int64_t n = 1 + (int64_t)(NextRandom(&state) % 3);
      if (n > size - pos) n = size - pos;
      code = ArrowIpcPushDecoderConsume(&decoder, bytes + pos, n, &error);
      pos += n;
    }
    if (code == NANOARROW_OK) code = ArrowIpcPushDecoderFinish(&decoder, &error);
    cr_expect_neq(code, NANOARROW_OK, "round %d: garbage accepted", round);
    cr_expect_gt(strlen(error.message), 0);
    ArrowIpcPushDecoderReset(&decoder);
  }
}

Test(push_decoder, file_magic_is_refused) {
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, (const uint8_t*)"AR", 2, &error),
               NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, (const uint8_t*)"ROW1\0\0", 6, &error),
               EINVAL);
  cr_expect(strstr(error.message, "IPC file magic") != NULL, "%s", error.message);
  ArrowIpcPushDecoderReset(&decoder);
}

/* A prefix claiming a 2 GiB metadata flatbuffer, then a trickle of bytes. */
struct LyingPrefix {
  int64_t n_bytes;
  int code;
  int64_t needed;
};

static int FeedLyingPrefix(void* arg) {
  struct LyingPrefix* lie = (struct LyingPrefix*)arg;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  static const uint8_t kPrefix[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF, 0x7F};
  uint8_t zeros[4096];
  int64_t i;
  memset(zeros, 0, sizeof(zeros));
  if (ArrowIpcPushDecoderInit(&decoder, NULL, &error) != NANOARROW_OK) return 1;
  lie->code = ArrowIpcPushDecoderConsume(&decoder, kPrefix, 8, &error);
  for (i = 0; lie->code == NANOARROW_OK && i < lie->n_bytes / 4096; i++) {
    lie->code = ArrowIpcPushDecoderConsume(&decoder, zeros, 4096, &error);
  }
  lie->needed = ArrowIpcPushDecoderBytesNeeded(&decoder);
  if (lie->code == NANOARROW_OK) lie->code = ArrowIpcPushDecoderFinish(&decoder, &error);
  ArrowIpcPushDecoderReset(&decoder);
  /* Checked here: without ASan this runs in a forked child, whose writes to lie
   * never reach the test. */
  if (lie->code != ESPIPE) return 2;
  if (lie->needed != (int64_t)0x7FFFFFF8 - 8 - lie->n_bytes) return 3;
  return 0;
}

Test(push_decoder, declared_lengths_cost_memory_only_as_bytes_arrive) {
  struct LyingPrefix lie;
  int64_t peak = 0;
  lie.n_bytes = (int64_t)4 << 20;
  /* 2: the decoder did not report the cut stream (ESPIPE); 3: wrong bytes needed. */
  cr_assert_eq(HeapPeakRun(&FeedLyingPrefix, &lie, &peak), 0);
  /* The buffer doubles as bytes arrive: at most twice what arrived, three times
   * while it moves, never the 2 GiB. */
  if (HEAP_PEAK_CAN_MEASURE) {
    cr_expect_leq(peak, 3 * lie.n_bytes + (2 << 20), "peak %ld", (long)peak);
  }
}

Test(push_decoder, a_message_over_the_limit_fails_before_allocating) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  static const uint8_t kPrefix[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF, 0x7F};
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcPushDecoderSetMaxMessageBytes(&decoder, 1 << 20), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, kPrefix, 8, &error), EINVAL);
  cr_expect_str_eq(error.message,
                   "message at byte 0: its metadata takes 2147483640 bytes, over the push "
                   "decoder's limit of 1048576 bytes per message");
  ArrowIpcPushDecoderReset(&decoder);

  /* A body over the limit: the schema passes, the first batch does not. */
  LoadStream("1.0.0-littleendian/generated_primitive.stream", &data);
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcPushDecoderSetMaxMessageBytes(&decoder, 3000), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderSetMaxMessageBytes(&decoder, -2), EINVAL);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes, &error),
               EINVAL);
  cr_expect(strstr(error.message, "over the push decoder's limit of 3000 bytes") != NULL,
            "%s", error.message);
  ArrowIpcPushDecoderReset(&decoder);
  ArrowBufferReset(&data);
}

Test(push_decoder, held_bytes_budget_applies) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  LoadStream("1.0.0-littleendian/generated_dictionary.stream", &data);
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetMaxHeldBytes(&decoder.decoder, 1), NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes, &error),
               EINVAL);
  cr_expect(strstr(error.message, "message at byte ") == error.message, "%s",
            error.message);
  ArrowIpcPushDecoderReset(&decoder);
  ArrowBufferReset(&data);
}

/* A stream of n_batches batches of one int32 column (3 values each). */
static void WriteManyBatches(int n_batches, struct ArrowBuffer* out) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowError error;
  int i;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "x"), NANOARROW_OK);
  ArrowBufferInit(out);
  cr_assert_eq(ArrowIpcOutputStreamInitBuffer(&output, out), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &output), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  for (i = 0; i < n_batches; i++) {
    cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);
    cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(array.children[0], i), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(array.children[0], i + 1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendNull(array.children[0], 1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK);
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), NANOARROW_OK);
    ArrowArrayRelease(&array);
  }
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), NANOARROW_OK);
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(push_decoder, poll_mode_decodes_as_batches_are_taken) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  struct ArrowArray batch;
  struct Outcome expected;
  struct Outcome actual;
  int64_t n = 0;
  int code;
  static const uint8_t kTrailer[] = {9, 9};
  WriteManyBatches(30, &data);
  ReadWithStreamReader(data.data, data.size_bytes, &expected);
  cr_assert_eq(expected.code, NANOARROW_OK, "%s", expected.message);
  cr_assert_eq(expected.n_batches, 30);
  ReadWithPushDecoder(data.data, data.size_bytes, INT64_MAX, FEED_COPY, &actual);
  ExpectSame(&actual, &expected, "30 batches whole");
  OutcomeReset(&actual);
  ReadWithPushDecoder(data.data, data.size_bytes, 100, FEED_BUFFER, &actual);
  ExpectSame(&actual, &expected, "30 batches in buffers of 100");
  OutcomeReset(&actual);

  /* Bytes after the marker: Consume decodes only the first batches, so the error
   * comes from Next after the 30th batch; the end follows. */
  cr_assert_eq(ArrowBufferAppend(&data, kTrailer, sizeof(kTrailer)), NANOARROW_OK);
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes, &error),
               NANOARROW_OK, "%s", error.message);
  cr_expect_lt(ArrowIpcPushDecoderBytesConsumed(&decoder), data.size_bytes / 2);
  while ((code = ArrowIpcPushDecoderNext(&decoder, &batch, &error)) == NANOARROW_OK) {
    cr_expect_eq(batch.length, 3);
    ArrowArrayRelease(&batch);
    n++;
  }
  cr_expect_eq(n, 30);
  cr_expect_eq(code, EINVAL);
  cr_expect(strstr(error.message, "2 bytes after the end-of-stream marker") != NULL, "%s",
            error.message);
  cr_expect_eq(ArrowIpcPushDecoderNext(&decoder, &batch, &error), ENODATA);
  cr_expect_eq(ArrowIpcPushDecoderBytesConsumed(&decoder), data.size_bytes - 2);
  ArrowIpcPushDecoderReset(&decoder);

  /* BytesNeeded decodes all that waits: the stream ended (0 more bytes); the error
   * about the bytes after it still comes from Next, after the 30 batches. */
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes, &error),
               NANOARROW_OK);
  cr_expect_eq(ArrowIpcPushDecoderBytesNeeded(&decoder), 0);
  n = 0;
  while ((code = ArrowIpcPushDecoderNext(&decoder, &batch, &error)) == NANOARROW_OK) {
    ArrowArrayRelease(&batch);
    n++;
  }
  cr_expect_eq(n, 30);
  cr_expect_eq(code, EINVAL);
  cr_expect_eq(ArrowIpcPushDecoderNext(&decoder, &batch, &error), ENODATA);
  ArrowIpcPushDecoderReset(&decoder);

  /* BytesNeeded decodes what waits first; Reset releases what nobody took. */
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes - 10, &error),
               NANOARROW_OK);
  /* Cut after the last batch: the next prefix. */
  cr_expect_eq(ArrowIpcPushDecoderBytesNeeded(&decoder), 4);
  cr_expect_eq(ArrowIpcPushDecoderBytesConsumed(&decoder), data.size_bytes - 10);
  ArrowIpcPushDecoderReset(&decoder);
  OutcomeReset(&expected);
  ArrowBufferReset(&data);
}

Test(push_decoder, batches_decoded_ahead_can_be_limited) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  struct ArrowArray batch;
  int64_t consumed[2];
  int64_t ahead[2] = {-1, 1};
  int k;
  WriteManyBatches(30, &data);
  for (k = 0; k < 2; k++) {
    int64_t n = 0;
    int code;
    cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK);
    cr_assert_eq(ArrowIpcPushDecoderSetMaxBatchesAhead(&decoder, 0), EINVAL);
    cr_assert_eq(ArrowIpcPushDecoderSetMaxBatchesAhead(&decoder, -2), EINVAL);
    cr_assert_eq(ArrowIpcPushDecoderSetMaxBatchesAhead(&decoder, ahead[k]), NANOARROW_OK);
    cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data, data.size_bytes, &error),
                 NANOARROW_OK, "%s", error.message);
    /* Consume decoded the schema and as many batches as may wait. */
    consumed[k] = ArrowIpcPushDecoderBytesConsumed(&decoder);
    while ((code = ArrowIpcPushDecoderNext(&decoder, &batch, &error)) == NANOARROW_OK) {
      cr_expect_eq(batch.length, 3);
      ArrowArrayRelease(&batch);
      n++;
    }
    cr_expect_eq(code, ENODATA, "%s", error.message);
    cr_expect_eq(n, 30);
    cr_expect_eq(ArrowIpcPushDecoderBytesConsumed(&decoder), data.size_bytes);
    ArrowIpcPushDecoderReset(&decoder);
  }
  /* The default decodes 8 batches ahead, 1 decodes one: 7 batches' bytes less. */
  cr_expect_lt(consumed[1], consumed[0]);
  cr_expect_eq((consumed[0] - consumed[1]) % 7, 0, "%ld %ld", (long)consumed[0],
               (long)consumed[1]);
  ArrowBufferReset(&data);
}
