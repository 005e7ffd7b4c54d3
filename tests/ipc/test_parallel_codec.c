/* Parallel (de)compression: readers and writers with 2 or 4 threads give the same
 * arrays, the same bytes and the same errors as with one; threads start only when
 * a buffer is queued and are joined when the reader is released. */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "ipc/ipc_private.h"
#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define COMPRESSION_DIR \
  NANOARROW_TEST_DATA_DIR "/arrow-ipc-stream/integration/2.0.0-compression"

#define PC_OK(expr)                                                        \
  do {                                                                     \
    int pc_rc_ = (expr);                                                   \
    cr_assert_eq(pc_rc_, NANOARROW_OK, "%s returned %d", #expr, pc_rc_);   \
  } while (0)

static void ReadWholeFile(const char* path, struct ArrowBuffer* out) {
  FILE* file = fopen(path, "rb");
  long size;
  ArrowBufferInit(out);
  cr_assert_not_null(file, "cannot open %s", path);
  fseek(file, 0, SEEK_END);
  size = ftell(file);
  fseek(file, 0, SEEK_SET);
  PC_OK(ArrowBufferReserve(out, size > 0 ? size : 1));
  cr_assert_eq(fread(out->data, 1, (size_t)size, file), (size_t)size);
  out->size_bytes = size;
  fclose(file);
}

/* What a reader produced: schema, batches, the code it stopped with, its message. */
struct Outcome {
  struct ArrowSchema schema;
  struct ArrowArray batches[64];
  int64_t n_batches;
  int code;
  char message[1100];
};

static void OutcomeReset(struct Outcome* outcome) {
  int64_t i;
  if (outcome->schema.release != NULL) ArrowSchemaRelease(&outcome->schema);
  for (i = 0; i < outcome->n_batches; i++) ArrowArrayRelease(&outcome->batches[i]);
  outcome->n_batches = 0;
}

/* Drains stream into out (stream released). */
static void Drain(struct ArrowArrayStream* stream, struct Outcome* out) {
  struct ArrowArray batch;
  out->schema.release = NULL;
  out->n_batches = 0;
  out->message[0] = '\0';
  out->code = stream->get_schema(stream, &out->schema);
  while (out->code == NANOARROW_OK) {
    out->code = stream->get_next(stream, &batch);
    if (out->code != NANOARROW_OK || batch.release == NULL) break;
    cr_assert_lt(out->n_batches, 64);
    ArrowArrayMove(&batch, &out->batches[out->n_batches++]);
  }
  if (out->code != NANOARROW_OK) {
    snprintf(out->message, sizeof(out->message), "%s", stream->get_last_error(stream));
  }
  ArrowArrayStreamRelease(stream);
}

/* The stream reader over a copy of data with n_threads (0: never set). */
static void ReadStream(const struct ArrowBuffer* data, int n_threads, struct Outcome* out) {
  struct ArrowBuffer copy;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowError error;
  ArrowBufferInit(&copy);
  PC_OK(ArrowBufferAppend(&copy, data->data, data->size_bytes));
  PC_OK(ArrowIpcInputStreamInitBuffer(&input, &copy));
  PC_OK(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL));
  if (n_threads != 0) {
    cr_assert_eq(ArrowIpcArrayStreamReaderSetNumThreads(&stream, n_threads, &error),
                 NANOARROW_OK, "%s", error.message);
  }
  Drain(&stream, out);
}

/* The file reader over a copy of data with n_threads. */
static void ReadFile(const struct ArrowBuffer* data, int n_threads, struct Outcome* out) {
  struct ArrowBuffer copy;
  struct ArrowIpcFileReader reader;
  struct ArrowArrayStream stream;
  struct ArrowError error;
  ArrowBufferInit(&copy);
  PC_OK(ArrowBufferAppend(&copy, data->data, data->size_bytes));
  cr_assert_eq(ArrowIpcFileReaderInitBuffer(&reader, &copy, &error), NANOARROW_OK, "%s",
               error.message);
  PC_OK(ArrowIpcFileReaderSetNumThreads(&reader, n_threads));
  cr_assert_eq(ArrowIpcFileReaderArrayStream(&reader, &stream,
                                             NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  Drain(&stream, out);
}

/* Same code and message, same schema, identical batches. */
static void ExpectSame(const struct Outcome* actual, const struct Outcome* expected,
                       const char* what) {
  struct ArrowError error;
  struct ArrowArrayView actual_view;
  struct ArrowArrayView expected_view;
  int equal = 0;
  int64_t i;
  cr_assert_eq(actual->code, expected->code, "%s: code %d (%s), serial %d (%s)", what,
               actual->code, actual->message, expected->code, expected->message);
  cr_assert_str_eq(actual->message, expected->message, "%s", what);
  cr_assert_eq(actual->n_batches, expected->n_batches, "%s: %ld batches, serial %ld", what,
               (long)actual->n_batches, (long)expected->n_batches);
  if (expected->schema.release == NULL) return;
  cr_assert_not_null(actual->schema.release, "%s: no schema", what);
  PC_OK(ArrowSchemaCompare(&actual->schema, &expected->schema, NANOARROW_COMPARE_IDENTICAL,
                           &equal, &error));
  cr_assert(equal, "%s: schema differs: %s", what, error.message);
  if (expected->n_batches == 0) return;
  PC_OK(ArrowArrayViewInitFromSchema(&actual_view, &expected->schema, &error));
  PC_OK(ArrowArrayViewInitFromSchema(&expected_view, &expected->schema, &error));
  for (i = 0; i < expected->n_batches; i++) {
    cr_assert_eq(ArrowArrayViewSetArray(&actual_view, &actual->batches[i], &error),
                 NANOARROW_OK, "%s: batch %ld: %s", what, (long)i, error.message);
    cr_assert_eq(ArrowArrayViewSetArray(&expected_view, &expected->batches[i], &error),
                 NANOARROW_OK, "%s: batch %ld: %s", what, (long)i, error.message);
    PC_OK(ArrowArrayViewCompare(&actual_view, &expected_view, NANOARROW_COMPARE_IDENTICAL,
                                &equal, &error));
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

/* Every gold file, read serially and then with 1, 2 and 4 threads, each with the
 * default size threshold (these files' buffers are small: they stay on the
 * calling thread) and with every buffer queued to the threads. */
static void CheckGoldFiles(int min_bytes_zero) {
  DIR* dir = opendir(COMPRESSION_DIR);
  struct dirent* entry;
  int n_files = 0;
  static const int kThreads[] = {1, 2, 4};
  cr_assert_not_null(dir, "cannot open %s", COMPRESSION_DIR);
  ArrowIpcPrivateSetParallelMinBytes(min_bytes_zero ? 0 : -1);
  while ((entry = readdir(dir)) != NULL) {
    char path[2048];
    struct ArrowBuffer data;
    struct Outcome expected;
    int is_file = EndsWith(entry->d_name, ".arrow_file");
    size_t t;
    if (!is_file && !EndsWith(entry->d_name, ".stream")) continue;
    snprintf(path, sizeof(path), "%s/%s", COMPRESSION_DIR, entry->d_name);
    ReadWholeFile(path, &data);
    ReadStream(&data, 0, &expected);
    cr_assert_eq(expected.code, NANOARROW_OK, "%s: %s", path, expected.message);
    cr_assert_gt(expected.n_batches, 0, "%s", path);
    for (t = 0; t < sizeof(kThreads) / sizeof(kThreads[0]); t++) {
      struct Outcome actual;
      char what[2200];
      snprintf(what, sizeof(what), "%s, stream reader, %d threads", path, kThreads[t]);
      ReadStream(&data, kThreads[t], &actual);
      ExpectSame(&actual, &expected, what);
      OutcomeReset(&actual);
      if (is_file) {
        snprintf(what, sizeof(what), "%s, file reader, %d threads", path, kThreads[t]);
        ReadFile(&data, kThreads[t], &actual);
        ExpectSame(&actual, &expected, what);
        OutcomeReset(&actual);
      }
    }
    OutcomeReset(&expected);
    ArrowBufferReset(&data);
    n_files++;
  }
  closedir(dir);
  ArrowIpcPrivateSetParallelMinBytes(-1);
  cr_assert_eq(n_files, 8, "expected the 8 compressed gold files, read %d", n_files);
}

Test(parallel_codec, gold_files_same_arrays_as_serial) { CheckGoldFiles(0); }

Test(parallel_codec, gold_files_same_arrays_with_every_buffer_queued) { CheckGoldFiles(1); }

/* ---- Writing ---- */

#define N_ROWS 40000
#define N_DOUBLE_COLUMNS 4

/* A struct batch of four float64 columns (320 KB each, compressible to different
 * degrees), an int64 column with nulls and a string column, made from seed. */
static void MakeBatch(struct ArrowSchema* schema, struct ArrowArray* array, int seed) {
  struct ArrowError error;
  int64_t i;
  int c;
  char name[16];
  ArrowSchemaInit(schema);
  PC_OK(ArrowSchemaSetTypeStruct(schema, N_DOUBLE_COLUMNS + 2));
  for (c = 0; c < N_DOUBLE_COLUMNS; c++) {
    snprintf(name, sizeof(name), "d%d", c);
    PC_OK(ArrowSchemaSetType(schema->children[c], NANOARROW_TYPE_DOUBLE));
    PC_OK(ArrowSchemaSetName(schema->children[c], name));
  }
  PC_OK(ArrowSchemaSetType(schema->children[N_DOUBLE_COLUMNS], NANOARROW_TYPE_INT64));
  PC_OK(ArrowSchemaSetName(schema->children[N_DOUBLE_COLUMNS], "i"));
  PC_OK(ArrowSchemaSetType(schema->children[N_DOUBLE_COLUMNS + 1], NANOARROW_TYPE_STRING));
  PC_OK(ArrowSchemaSetName(schema->children[N_DOUBLE_COLUMNS + 1], "s"));
  PC_OK(ArrowArrayInitFromSchema(array, schema, &error));
  PC_OK(ArrowArrayStartAppending(array));
  for (i = 0; i < N_ROWS; i++) {
    char text[32];
    for (c = 0; c < N_DOUBLE_COLUMNS; c++) {
      PC_OK(ArrowArrayAppendDouble(array->children[c],
                                   (double)((i * (c + 1) + seed) % (97 * (c + 1))) * 0.25));
    }
    if ((i + seed) % 7 == 0) {
      PC_OK(ArrowArrayAppendNull(array->children[N_DOUBLE_COLUMNS], 1));
    } else {
      PC_OK(ArrowArrayAppendInt(array->children[N_DOUBLE_COLUMNS], i * 3 + seed));
    }
    snprintf(text, sizeof(text), "row %ld", (long)((i + seed) % 1000));
    PC_OK(ArrowArrayAppendString(array->children[N_DOUBLE_COLUMNS + 1], ArrowCharView(text)));
    PC_OK(ArrowArrayFinishElement(array));
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
}

/* Writes n_batches batches as a stream (or file) with n_threads (0: never set;
 * set_after: after the compression rather than before). */
static void Write(enum ArrowIpcCompressionType codec, int n_threads, int set_after,
                  int file_format, int n_batches, struct ArrowBuffer* out) {
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  struct ArrowArrayView view;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  int b;
  ArrowBufferInit(out);
  PC_OK(ArrowIpcOutputStreamInitBuffer(&stream, out));
  PC_OK(ArrowIpcWriterInit(&writer, &stream));
  if (n_threads != 0 && !set_after) {
    PC_OK(ArrowIpcWriterSetNumThreads(&writer, n_threads, &error));
  }
  PC_OK(ArrowIpcWriterSetCompression(&writer, codec, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                     &error));
  if (n_threads != 0 && set_after) {
    PC_OK(ArrowIpcWriterSetNumThreads(&writer, n_threads, &error));
  }
  if (file_format) PC_OK(ArrowIpcWriterStartFile(&writer, &error));
  for (b = 0; b < n_batches; b++) {
    MakeBatch(&schema, &array, b);
    if (b == 0) {
      cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), NANOARROW_OK, "%s",
                   error.message);
      PC_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
    }
    PC_OK(ArrowArrayViewSetArray(&view, &array, &error));
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), NANOARROW_OK, "%s",
                 error.message);
    ArrowArrayRelease(&array);
    ArrowSchemaRelease(&schema);
  }
  if (file_format) {
    PC_OK(ArrowIpcWriterFinalizeFile(&writer, &error));
  } else {
    PC_OK(ArrowIpcWriterWriteArrayView(&writer, NULL, &error));
  }
  ArrowArrayViewReset(&view);
  ArrowIpcWriterReset(&writer);
}

static void CheckWrite(enum ArrowIpcCompressionType codec, int file_format) {
  struct ArrowBuffer serial;
  struct Outcome expected;
  static const int kThreads[] = {2, 4};
  size_t t;
  int set_after;
  Write(codec, 0, 0, file_format, 3, &serial);
  ReadStream(&serial, 0, &expected);
  cr_assert_eq(expected.code, NANOARROW_OK, "%s", expected.message);
  cr_assert_eq(expected.n_batches, 3);
  /* The batches are the ones written. */
  {
    struct ArrowSchema schema;
    struct ArrowArray array;
    struct Outcome made;
    made.n_batches = 0;
    made.code = NANOARROW_OK;
    made.message[0] = '\0';
    /* The reader's schema (its root is not nullable). */
    PC_OK(ArrowSchemaDeepCopy(&expected.schema, &made.schema));
    for (set_after = 0; set_after < 3; set_after++) {
      MakeBatch(&schema, &array, set_after);
      ArrowSchemaRelease(&schema);
      ArrowArrayMove(&array, &made.batches[made.n_batches++]);
    }
    ExpectSame(&expected, &made, "read back");
    OutcomeReset(&made);
  }
  for (t = 0; t < sizeof(kThreads) / sizeof(kThreads[0]); t++) {
    for (set_after = 0; set_after < 2; set_after++) {
      struct ArrowBuffer parallel;
      struct Outcome actual;
      Write(codec, kThreads[t], set_after, file_format, 3, &parallel);
      cr_assert_eq(parallel.size_bytes, serial.size_bytes,
                   "%d threads: %ld bytes, serial %ld", kThreads[t],
                   (long)parallel.size_bytes, (long)serial.size_bytes);
      cr_assert(memcmp(parallel.data, serial.data, (size_t)serial.size_bytes) == 0,
                "%d threads: bytes differ from the serial writer's", kThreads[t]);
      ReadStream(&parallel, kThreads[t], &actual);
      ExpectSame(&actual, &expected, "written and read with threads");
      OutcomeReset(&actual);
      ArrowBufferReset(&parallel);
    }
  }
  OutcomeReset(&expected);
  ArrowBufferReset(&serial);
}

Test(parallel_codec, zstd_stream_written_with_threads_is_byte_identical) {
  CheckWrite(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 0);
}

Test(parallel_codec, lz4_file_written_with_threads_is_byte_identical) {
  CheckWrite(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 1);
}

/* ---- Errors ---- */

/* Offsets of the codec's frame magic in data (the start of each compressed
 * buffer's frame, 8 bytes after its length prefix). */
static int64_t FindFrames(const struct ArrowBuffer* data, enum ArrowIpcCompressionType codec,
                          int64_t* offsets, int64_t max_offsets) {
  static const uint8_t kZstd[4] = {0x28, 0xB5, 0x2F, 0xFD};
  static const uint8_t kLz4[4] = {0x04, 0x22, 0x4D, 0x18};
  const uint8_t* magic = codec == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD ? kZstd : kLz4;
  int64_t n = 0;
  int64_t i;
  for (i = 8; i + 4 <= data->size_bytes && n < max_offsets; i++) {
    if (memcmp(data->data + i, magic, 4) == 0) offsets[n++] = i;
  }
  return n;
}

/* Corrupts one frame (and optionally makes a later buffer claim more bytes than
 * the limit allows, a failure found while decoding rather than decompressing):
 * every thread count reports the serial reader's error, which names the field
 * and buffer of the first corrupt frame. */
static void CheckCorrupt(enum ArrowIpcCompressionType codec, int later_limit_error,
                         int min_bytes_zero) {
  struct ArrowBuffer data;
  struct Outcome expected;
  int64_t frames[64];
  int64_t n_frames;
  int64_t victim;
  static const int kThreads[] = {1, 2, 4};
  size_t t;
  Write(codec, 0, 0, 0, 1, &data);
  n_frames = FindFrames(&data, codec, frames, 64);
  /* 6 columns: validity bitmaps are absent, so 4 + 1 + 1 (validity of i) + 1 + 2
   * compressed buffers; the schema message holds no frame. */
  cr_assert_geq(n_frames, 6, "found %ld frames", (long)n_frames);
  victim = frames[n_frames / 2];
  data.data[victim] ^= 0xFF;
  data.data[victim + 1] ^= 0xFF;
  if (later_limit_error) {
    /* The prefix of the last buffer: 2^50 decompressed bytes. */
    int64_t prefix_at = frames[n_frames - 1] - 8;
    int64_t huge = (int64_t)1 << 50;
    memcpy(data.data + prefix_at, &huge, sizeof(huge));
  }
  ArrowIpcPrivateSetParallelMinBytes(min_bytes_zero ? 0 : -1);
  ReadStream(&data, 0, &expected);
  cr_assert_neq(expected.code, NANOARROW_OK);
  cr_assert(strstr(expected.message, "field ") != NULL &&
                strstr(expected.message, "buffer ") != NULL,
            "the error names no field and buffer: %s", expected.message);
  cr_assert(strstr(expected.message, "decompress") != NULL ||
                strstr(expected.message, "Unknown frame") != NULL ||
                strstr(expected.message, "LZ4") != NULL,
            "not the decompression error: %s", expected.message);
  for (t = 0; t < sizeof(kThreads) / sizeof(kThreads[0]); t++) {
    struct Outcome actual;
    ReadStream(&data, kThreads[t], &actual);
    ExpectSame(&actual, &expected, "corrupt frame");
    OutcomeReset(&actual);
  }
  ArrowIpcPrivateSetParallelMinBytes(-1);
  OutcomeReset(&expected);
  ArrowBufferReset(&data);
}

Test(parallel_codec, corrupt_zstd_buffer_same_error_as_serial) {
  CheckCorrupt(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 0, 0);
  CheckCorrupt(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 0, 1);
}

Test(parallel_codec, corrupt_lz4_buffer_same_error_as_serial) {
  CheckCorrupt(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 0, 0);
  CheckCorrupt(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 0, 1);
}

Test(parallel_codec, earlier_corrupt_buffer_wins_over_later_limit_error) {
  CheckCorrupt(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 1, 0);
  CheckCorrupt(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 1, 1);
  CheckCorrupt(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 1, 1);
}

/* ---- Many batches, readers made and released in a loop ---- */

Test(parallel_codec, many_batches_in_a_loop) {
  struct ArrowBuffer data;
  struct Outcome expected;
  int round;
  Write(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 2, 0, 0, 24, &data);
  ReadStream(&data, 0, &expected);
  cr_assert_eq(expected.code, NANOARROW_OK, "%s", expected.message);
  cr_assert_eq(expected.n_batches, 24);
  for (round = 0; round < 8; round++) {
    struct Outcome actual;
    ReadStream(&data, 2 + round % 3, &actual);
    ExpectSame(&actual, &expected, "many batches");
    OutcomeReset(&actual);
  }
  OutcomeReset(&expected);
  ArrowBufferReset(&data);
}

/* A decoder used directly: the same decompressor decodes message after message. */
Test(parallel_codec, decoder_reuses_its_threads_across_batches) {
  struct ArrowBuffer data;
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowSchema schema;
  struct Outcome expected;
  int64_t pos = 0;
  int64_t n_batches = 0;
  Write(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 0, 0, 0, 6, &data);
  ReadStream(&data, 0, &expected);
  PC_OK(ArrowIpcDecoderInit(&decoder));
  PC_OK(ArrowIpcDecoderSetNumThreads(&decoder, 3));
  while (pos < data.size_bytes) {
    struct ArrowBufferView view;
    view.data.as_uint8 = data.data + pos;
    view.size_bytes = data.size_bytes - pos;
    if (ArrowIpcDecoderDecodeHeader(&decoder, view, &error) == ENODATA) break;
    cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, view, &error), NANOARROW_OK, "%s",
                 error.message);
    view.data.as_uint8 += decoder.header_size_bytes;
    view.size_bytes = decoder.body_size_bytes;
    if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
      PC_OK(ArrowIpcDecoderDecodeSchema(&decoder, &schema, &error));
      PC_OK(ArrowIpcDecoderSetSchema(&decoder, &schema, &error));
      ArrowSchemaRelease(&schema);
    } else {
      struct ArrowArray array;
      struct ArrowArrayView expected_view;
      struct ArrowArrayView actual_view;
      int equal = 0;
      cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, view, -1, &array,
                                              NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   NANOARROW_OK, "%s", error.message);
      PC_OK(ArrowArrayViewInitFromSchema(&actual_view, &expected.schema, &error));
      PC_OK(ArrowArrayViewInitFromSchema(&expected_view, &expected.schema, &error));
      PC_OK(ArrowArrayViewSetArray(&actual_view, &array, &error));
      PC_OK(ArrowArrayViewSetArray(&expected_view, &expected.batches[n_batches], &error));
      PC_OK(ArrowArrayViewCompare(&actual_view, &expected_view, NANOARROW_COMPARE_IDENTICAL,
                                  &equal, &error));
      cr_assert(equal, "batch %ld differs: %s", (long)n_batches, error.message);
      ArrowArrayViewReset(&actual_view);
      ArrowArrayViewReset(&expected_view);
      ArrowArrayRelease(&array);
      n_batches++;
    }
    pos += decoder.header_size_bytes + decoder.body_size_bytes;
  }
  cr_assert_eq(n_batches, 6);
  ArrowIpcDecoderReset(&decoder);
  OutcomeReset(&expected);
  ArrowBufferReset(&data);
}

/* The push decoder's decoder takes threads too; pieces of 4096 bytes. */
Test(parallel_codec, push_decoder_with_threads) {
  struct ArrowBuffer data;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  struct Outcome expected;
  struct Outcome actual;
  struct ArrowArray batch;
  int64_t pos;
  Write(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 0, 0, 0, 4, &data);
  ReadStream(&data, 0, &expected);
  cr_assert_eq(expected.code, NANOARROW_OK, "%s", expected.message);
  cr_assert_eq(ArrowIpcPushDecoderInit(&decoder, NULL, &error), NANOARROW_OK, "%s",
               error.message);
  PC_OK(ArrowIpcDecoderSetNumThreads(&decoder.decoder, 2));
  actual.n_batches = 0;
  actual.code = NANOARROW_OK;
  actual.message[0] = '\0';
  for (pos = 0; pos < data.size_bytes; pos += 4096) {
    int64_t n = data.size_bytes - pos < 4096 ? data.size_bytes - pos : 4096;
    cr_assert_eq(ArrowIpcPushDecoderConsume(&decoder, data.data + pos, n, &error),
                 NANOARROW_OK, "%s", error.message);
    while (ArrowIpcPushDecoderNext(&decoder, &batch, &error) == NANOARROW_OK) {
      ArrowArrayMove(&batch, &actual.batches[actual.n_batches++]);
    }
  }
  PC_OK(ArrowIpcPushDecoderFinish(&decoder, &error));
  while (ArrowIpcPushDecoderNext(&decoder, &batch, &error) == NANOARROW_OK) {
    ArrowArrayMove(&batch, &actual.batches[actual.n_batches++]);
  }
  PC_OK(ArrowIpcPushDecoderGetSchema(&decoder, &actual.schema, &error));
  ArrowIpcPushDecoderReset(&decoder);
  ExpectSame(&actual, &expected, "push decoder, 2 threads");
  OutcomeReset(&actual);
  OutcomeReset(&expected);
  ArrowBufferReset(&data);
}

/* ---- Setters and threads ---- */

Test(parallel_codec, setters_refuse_what_they_cannot_set) {
  struct ArrowArrayStream stream;
  struct ArrowError error;
  struct ArrowIpcDecompressor decompressor;
  struct ArrowIpcCompressor compressor;
  memset(&stream, 0, sizeof(stream));
  cr_assert_eq(ArrowIpcArrayStreamReaderSetNumThreads(&stream, 2, &error), EINVAL);
  cr_assert_str_eq(error.message, "not a stream made by ArrowIpcArrayStreamReaderInit");
  /* n <= 1 is the serial (de)compressor; an unknown codec is refused as by it. */
  PC_OK(ArrowIpcParallelDecompressor(&decompressor, 0));
  decompressor.release(&decompressor);
  cr_assert_eq(ArrowIpcParallelCompressor(&compressor, (enum ArrowIpcCompressionType)7,
                                          0, 4),
               EINVAL);
  cr_assert_null(compressor.release);
  PC_OK(ArrowIpcParallelCompressor(&compressor, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 0,
                                   1000));
  compressor.release(&compressor);
}

/* A decompressor with nothing queued answers wait at once; its errors name the
 * buffer the decoder labelled, or nothing when used without a decoder. */
Test(parallel_codec, decompressor_direct_use) {
  struct ArrowIpcDecompressor decompressor;
  struct ArrowError error;
  struct ArrowBufferView src;
  uint8_t garbage[16];
  uint8_t dst[64];
  memset(garbage, 0x5A, sizeof(garbage));
  src.data.data = garbage;
  src.size_bytes = sizeof(garbage);
  ArrowIpcPrivateSetParallelMinBytes(0);
  PC_OK(ArrowIpcParallelDecompressor(&decompressor, 2));
  PC_OK(decompressor.decompress_wait(&decompressor, -1, &error));
  PC_OK(decompressor.decompress_wait(&decompressor, 0, &error));
  PC_OK(decompressor.decompress_add(&decompressor, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, src,
                                    dst, sizeof(dst), &error));
  cr_assert_eq(decompressor.decompress_wait(&decompressor, -1, &error), EIO);
  cr_assert(strncmp(error.message, "ZSTD decompression failed", 25) == 0, "%s",
            error.message);
  /* The failure is reported once. */
  PC_OK(decompressor.decompress_wait(&decompressor, -1, &error));
  ArrowIpcPrivateDecompressorSetLabel(&decompressor, 3, 7);
  PC_OK(decompressor.decompress_add(&decompressor, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
                                    src, dst, sizeof(dst), &error));
  cr_assert_eq(decompressor.decompress_wait(&decompressor, 1000, &error), EIO);
  cr_assert(strncmp(error.message, "field 3: buffer 7: LZ4", 22) == 0, "%s", error.message);
  decompressor.release(&decompressor);
  ArrowIpcPrivateSetParallelMinBytes(-1);
}

#if defined(__linux__)
static int CountThreads(void) {
  DIR* dir = opendir("/proc/self/task");
  struct dirent* entry;
  int n = 0;
  cr_assert_not_null(dir);
  while ((entry = readdir(dir)) != NULL) {
    if (entry->d_name[0] != '.') n++;
  }
  closedir(dir);
  return n;
}

/* No thread for small buffers; n - 1 threads once a buffer is queued, all
 * joined when the reader is released. */
Test(parallel_codec, threads_start_on_first_queued_buffer_and_are_joined) {
  struct ArrowBuffer data;
  struct ArrowBuffer copy;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowError error;
  int before = CountThreads();
  int large;
  ReadWholeFile(COMPRESSION_DIR "/generated_zstd.stream", &data);
  for (large = 0; large < 2; large++) {
    ArrowIpcPrivateSetParallelMinBytes(large ? 0 : -1);
    ArrowBufferInit(&copy);
    PC_OK(ArrowBufferAppend(&copy, data.data, data.size_bytes));
    PC_OK(ArrowIpcInputStreamInitBuffer(&input, &copy));
    PC_OK(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL));
    PC_OK(ArrowIpcArrayStreamReaderSetNumThreads(&stream, 4, &error));
    cr_assert_eq(CountThreads(), before, "a thread started before anything was read");
    PC_OK(stream.get_schema(&stream, &schema));
    PC_OK(stream.get_next(&stream, &batch));
    cr_assert_not_null(batch.release);
    cr_assert_eq(CountThreads(), large ? before + 3 : before, "%d threads, %d before",
                 CountThreads(), before);
    ArrowArrayRelease(&batch);
    ArrowSchemaRelease(&schema);
    ArrowArrayStreamRelease(&stream);
    cr_assert_eq(CountThreads(), before, "threads outlive the reader");
  }
  ArrowIpcPrivateSetParallelMinBytes(-1);
  ArrowBufferReset(&data);
}
#endif
