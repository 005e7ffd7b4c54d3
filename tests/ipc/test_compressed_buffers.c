/* Buffers of compressed bodies as other writers lay them out. Each buffer region of a
 * compressed body starts with its uncompressed length; -1 says the bytes after it are
 * not compressed. An empty buffer may be an empty region, a prefix of -1 with nothing
 * after it (flechette writes empty validity bitmaps so) or a prefix of 0 (Arrow Java).
 * All of them are an absent buffer: a validity bitmap taken from such a region would
 * point at the next buffer's bytes or past the body. */

#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "message_test_util.h"

#define kValue 7

/* One LZ4-compressed RecordBatch for the int32 schema of n_rows rows (null count 0):
 * the data region (prefix -1, the values uncompressed) first, the validity region
 * (validity_prefix, then validity_extra bytes of 0xFF) last, so that a pointer taken
 * past its prefix is the end of the body. */
static void AppendBatch(struct ArrowBuffer* out, int64_t n_rows, int64_t validity_prefix,
                        int64_t validity_extra) {
  struct ArrowIpcFbb fbb;
  struct ArrowIpcFbbTable batch;
  int64_t header_slot;
  int64_t position;
  int64_t node[2] = {n_rows, 0};
  int64_t data_length = 8 + (4 * n_rows + 7) / 8 * 8;
  int64_t validity_length = 8 + validity_extra;
  int64_t buffers[4] = {data_length, validity_length, 0, data_length};
  int64_t minus_one = -1;
  int64_t i;

  BeginMessage(&fbb, kHeaderRecordBatch, data_length + (validity_length + 7) / 8 * 8,
               &header_slot);
  ArrowIpcFbbTableInit(&batch);
  ArrowIpcFbbTableAddInt64(&batch, 0, n_rows);
  ArrowIpcFbbTableAddOffset(&batch, 1);
  ArrowIpcFbbTableAddOffset(&batch, 2);
  ArrowIpcFbbTableAddOffset(&batch, 3);
  cr_assert_eq(ArrowIpcFbbWriteTable(&fbb, &batch, &position), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFbbPatchOffset(&fbb, header_slot, position), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFbbSetVector(&fbb, &batch, 1, node, 1, 16, 8, &position), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFbbSetVector(&fbb, &batch, 2, buffers, 2, 16, 8, &position),
               NANOARROW_OK);
  WriteLz4BodyCompression(&fbb, &batch);
  FinishMessage(&fbb, out);

  cr_assert_eq(ArrowBufferAppend(out, &minus_one, 8), NANOARROW_OK);
  for (i = 0; i < n_rows; i++) {
    cr_assert_eq(ArrowBufferAppendInt32(out, kValue), NANOARROW_OK);
  }
  cr_assert_eq(ArrowBufferAppendFill(out, 0, data_length - 8 - 4 * n_rows), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(out, &validity_prefix, 8), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendFill(out, 0xFF, validity_extra), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendFill(out, 0, (validity_length + 7) / 8 * 8 - validity_length),
               NANOARROW_OK);
}

static void MakeStream(struct ArrowBuffer* out, int64_t n_rows, int64_t validity_prefix,
                       int64_t validity_extra) {
  ArrowBufferInit(out);
  AppendInt32Schema(out);
  AppendBatch(out, n_rows, validity_prefix, validity_extra);
  AppendEndOfStream(out);
}

/* Reads the one batch of stream at level; checks it has n_rows rows of kValue, none
 * null, and no validity buffer. */
static void CheckReadsWithoutNulls(const struct ArrowBuffer* stream, int64_t n_rows,
                                   enum ArrowValidationLevel level) {
  struct ArrowBuffer copy;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream reader;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t i;

  ArrowBufferInit(&copy);
  cr_assert_eq(ArrowBufferAppend(&copy, stream->data, stream->size_bytes), NANOARROW_OK);
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &copy), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInitWithValidation(&reader, &input, NULL, level),
               NANOARROW_OK);
  cr_assert_eq(reader.get_schema(&reader, &schema), NANOARROW_OK, "%s",
               reader.get_last_error(&reader));
  cr_assert_eq(reader.get_next(&reader, &array), NANOARROW_OK, "level %d: %s", (int)level,
               reader.get_last_error(&reader));
  cr_assert_not_null(array.release);

  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(view.children[0]->length, n_rows);
  cr_assert_null(array.children[0]->buffers[0]);
  cr_assert_null(view.children[0]->buffer_views[0].data.data);
  cr_assert_eq(array.children[0]->null_count, 0);
  for (i = 0; i < n_rows; i++) {
    cr_assert_not(ArrowArrayViewIsNull(view.children[0], i), "element %ld", (long)i);
    cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0], i), kValue);
  }

  ArrowArrayViewReset(&view);
  array.release(&array);
  cr_assert_eq(reader.get_next(&reader, &array), NANOARROW_OK);
  cr_assert_null(array.release, "one batch only");
  schema.release(&schema);
  reader.release(&reader);
}

static void CheckAllLevels(int64_t n_rows, int64_t validity_prefix, int64_t validity_extra) {
  struct ArrowBuffer stream;
  MakeStream(&stream, n_rows, validity_prefix, validity_extra);
  CheckReadsWithoutNulls(&stream, n_rows, NANOARROW_VALIDATION_LEVEL_NONE);
  CheckReadsWithoutNulls(&stream, n_rows, NANOARROW_VALIDATION_LEVEL_DEFAULT);
  CheckReadsWithoutNulls(&stream, n_rows, NANOARROW_VALIDATION_LEVEL_FULL);
  ArrowBufferReset(&stream);
}

Test(ipc_compressed_buffers, uncompressed_marker_with_no_bytes_is_absent_validity) {
  CheckAllLevels(100, -1, 0);
  CheckAllLevels(3, -1, 0);
}

Test(ipc_compressed_buffers, zero_length_prefix_alone_is_absent_validity) {
  CheckAllLevels(100, 0, 0);
}

/* A prefix of 0 declares the buffer empty whatever follows it (the codec is not run). */
Test(ipc_compressed_buffers, zero_length_prefix_wins_over_following_bytes) {
  CheckAllLevels(100, 0, 8);
}

/* The rules above do not make a short validity region acceptable: 100 rows with an
 * uncompressed 1-byte bitmap are refused, naming the buffer. */
Test(ipc_compressed_buffers, short_uncompressed_validity_is_refused) {
  struct ArrowBuffer stream;
  struct ArrowBuffer copy;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream reader;
  struct ArrowSchema schema;
  struct ArrowArray array;

  MakeStream(&stream, 100, -1, 1);
  ArrowBufferInit(&copy);
  cr_assert_eq(ArrowBufferAppend(&copy, stream.data, stream.size_bytes), NANOARROW_OK);
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &copy), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&reader, &input, NULL), NANOARROW_OK);
  cr_assert_eq(reader.get_schema(&reader, &schema), NANOARROW_OK);
  cr_assert_neq(reader.get_next(&reader, &array), NANOARROW_OK);
  cr_assert(strstr(reader.get_last_error(&reader), "validity") != NULL, "%s",
            reader.get_last_error(&reader));
  schema.release(&schema);
  reader.release(&reader);
  ArrowBufferReset(&stream);
}

/* The LZ4 codec names what is wrong when a frame and its declared size disagree. The
 * frame is written by hand: the default frame header, one stored (uncompressed) block
 * of 16 bytes, the end mark. */
Test(ipc_compressed_buffers, lz4_frame_size_mismatch_messages) {
  static const uint8_t kFrame[] = {0x04, 0x22, 0x4D, 0x18, 0x60, 0x40, 0x82,
                                   0x10, 0x00, 0x00, 0x80, 'a',  'b',  'c',
                                   'd',  'e',  'f',  'g',  'h',  'i',  'j',
                                   'k',  'l',  'm',  'n',  'o',  'p',  0x00,
                                   0x00, 0x00, 0x00};
  ArrowIpcDecompressFunction decompress = ArrowIpcGetLZ4DecompressionFunction();
  struct ArrowBufferView src;
  struct ArrowError error;
  uint8_t dst[32];
  if (decompress == NULL) {
    cr_skip_test("built without LZ4");
  }
  src.data.data = kFrame;
  src.size_bytes = (int64_t)sizeof(kFrame);

  cr_assert_eq(decompress(src, dst, 16, &error), NANOARROW_OK, "%s", error.message);
  cr_assert_eq(memcmp(dst, "abcdefghijklmnop", 16), 0);

  cr_assert_neq(decompress(src, dst, 8, &error), NANOARROW_OK);
  cr_assert_str_eq(error.message, "LZ4 frame holds more than the 8 decompressed bytes declared");

  cr_assert_neq(decompress(src, dst, 20, &error), NANOARROW_OK);
  cr_assert_str_eq(error.message, "LZ4 frame decompressed to 16 bytes but 20 were declared");
}
