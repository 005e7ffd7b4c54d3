/* Where the writer puts body buffers: every buffer's values start at a multiple of
 * the writer's alignment (8, 16, 32, 64) counted from the start of the stream or
 * file, uncompressed or compressed; in a compressed body that is the values after
 * a raw buffer's 8-byte -1 prefix. Decimal values, which a reader may need 16-byte
 * aligned, are never stored raw (polars panics on a decimal128 buffer used in place
 * after the prefix). The messages are parsed here with the library's flatbuffer
 * reader and read back with the stream / file readers. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "ipc/flatbuf_reader.h"
#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#include "writer_test_util.h"

#define N_ROWS 37

/* int64 (incompressible: stored raw when compressing), decimal128 (incompressible
 * too) and int32 (all zeros: compresses). */
static void BuildColumns(struct ArrowSchema* schema, struct ArrowArray* array) {
  static const char* const kFormats[] = {"l", "d:38,0", "i"};
  static const char* const kNames[] = {"noise", "decimal", "zeros"};
  struct ArrowDecimal decimal;
  uint64_t state = 0x9E3779B97F4A7C15u;
  int64_t i;
  WtStructSchema(schema, 3, kFormats, kNames);
  WT_OK(ArrowArrayInitFromSchema(array, schema, NULL));
  WT_OK(ArrowArrayStartAppending(array));
  ArrowDecimalInit(&decimal, 128, 38, 0);
  for (i = 0; i < N_ROWS; i++) {
    uint64_t words[2];
    state = state * 6364136223846793005u + 1442695040888963407u;
    WT_OK(ArrowArrayAppendInt(array->children[0], (int64_t)(state >> 1)));
    state = state * 6364136223846793005u + 1442695040888963407u;
    words[0] = state;
    state = state * 6364136223846793005u + 1442695040888963407u;
    words[1] = state >> 8;
    memcpy(decimal.words, words, sizeof(words));
    WT_OK(ArrowArrayAppendDecimal(array->children[1], &decimal));
    WT_OK(ArrowArrayAppendInt(array->children[2], 0));
  }
  WtFinishStruct(array, N_ROWS);
}

static void WriteAligned(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                         const struct ArrowArray* array, int file_format,
                         enum ArrowIpcCompressionType codec, int64_t alignment) {
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  struct ArrowArrayView view;
  struct ArrowError error;
  int i;
  WT_OK(ArrowIpcOutputStreamInitBuffer(&stream, out));
  WT_OK(ArrowIpcWriterInit(&writer, &stream));
  if (codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    WT_OK(ArrowIpcWriterSetCompression(&writer, codec, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &error));
  }
  WT_OK(ArrowIpcWriterSetAlignment(&writer, alignment, &error));
  if (file_format) WT_OK(ArrowIpcWriterStartFile(&writer, &error));
  WT_OK(ArrowIpcWriterWriteSchema(&writer, schema, &error));
  WT_OK(ArrowArrayViewInitFromSchema(&view, schema, &error));
  WT_OK(ArrowArrayViewSetArray(&view, array, &error));
  /* Two batches: the second starts after a body of the first. */
  for (i = 0; i < 2; i++) WT_OK(ArrowIpcWriterWriteArrayView(&writer, &view, &error));
  if (file_format) {
    WT_OK(ArrowIpcWriterFinalizeFile(&writer, &error));
  } else {
    WT_OK(ArrowIpcWriterWriteArrayView(&writer, NULL, &error));
  }
  ArrowArrayViewReset(&view);
  ArrowIpcWriterReset(&writer);
}

/* Checks every record batch message of the output; returns how many raw buffers
 * (-1 prefix) it saw. */
static int64_t CheckLayout(const struct ArrowBuffer* out, int file_format,
                           enum ArrowIpcCompressionType codec, int64_t alignment) {
  const uint8_t* data = out->data;
  int64_t pos = file_format ? 8 : 0;
  int64_t n_raw = 0;
  int n_batches = 0;
  while (pos + 8 <= out->size_bytes) {
    struct ArrowIpcFbrTable message;
    struct ArrowIpcFbrTable batch;
    struct ArrowIpcFbrVector buffers;
    int32_t length;
    int64_t body;
    int64_t i;
    cr_assert_eq(ArrowIpcFbrLoadI32(data + pos), -1);
    length = ArrowIpcFbrLoadI32(data + pos + 4);
    if (length == 0) break;
    cr_assert_eq(ArrowIpcFbrTableInit(data + pos + 8, length,
                                      ArrowIpcFbrLoadU32(data + pos + 8), &message),
                 NANOARROW_OK);
    body = pos + 8 + length;
    /* Every body (and so the next message) starts aligned. */
    cr_assert_eq(body % alignment, 0, "body at %ld, alignment %ld", (long)body,
                 (long)alignment);
    if (ArrowIpcFbrGetScalar(&message, ARROW_IPC_FBR_MESSAGE_HEADER_TYPE, 0) == 3) {
      n_batches++;
      cr_assert(ArrowIpcFbrGetTable(&message, ARROW_IPC_FBR_MESSAGE_HEADER, &batch));
      cr_assert(ArrowIpcFbrGetVector(&batch, ARROW_IPC_FBR_RECORD_BATCH_BUFFERS, &buffers));
      cr_assert_eq(buffers.n, 6);
      for (i = 0; i < buffers.n; i++) {
        int64_t offset = ArrowIpcFbrLoadI64(buffers.data + buffers.pos + 16 * i);
        int64_t size = ArrowIpcFbrLoadI64(buffers.data + buffers.pos + 16 * i + 8);
        int64_t values = body + offset;
        if (size == 0) continue;
        if (codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
          int is_raw = ArrowIpcFbrLoadI64(data + body + offset) == -1;
          /* Buffer 3 is the decimal column's values. */
          cr_assert(!(is_raw && i == 3), "decimal128 values stored raw");
          if (!is_raw) continue;
          n_raw++;
          values += 8;
        }
        cr_assert_eq(values % alignment, 0,
                     "buffer %ld's values at %ld (alignment %ld, codec %d)", (long)i,
                     (long)values, (long)alignment, (int)codec);
      }
    }
    pos = body + ArrowIpcFbrGetScalar(&message, ARROW_IPC_FBR_MESSAGE_BODY_LENGTH, 0);
  }
  cr_assert_eq(n_batches, 2);
  return n_raw;
}

static void ExpectReadsBack(const struct ArrowBuffer* out, const struct ArrowArray* array,
                            int file_format) {
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray read;
  struct ArrowBuffer copy;
  struct ArrowError error;
  int batches = 0;
  ArrowBufferInit(&copy);
  WT_OK(ArrowBufferAppend(&copy, out->data, out->size_bytes));
  WT_OK(ArrowIpcInputStreamInitBuffer(&input, &copy));
  if (file_format) {
    /* The file reader; its footer points at the same messages. */
    struct ArrowIpcFileReader reader;
    int64_t i;
    input.release(&input);
    ArrowBufferInit(&copy);
    WT_OK(ArrowBufferAppend(&copy, out->data, out->size_bytes));
    WT_OK(ArrowIpcFileReaderInitBuffer(&reader, &copy, &error));
    cr_assert_eq(ArrowIpcFileReaderNumRecordBatches(&reader), 2);
    for (i = 0; i < 2; i++) {
      WT_OK(ArrowIpcFileReaderReadBatch(&reader, i, &read, NANOARROW_VALIDATION_LEVEL_FULL,
                                        &error));
      cr_assert_eq(read.length, N_ROWS);
      cr_assert_eq(memcmp(read.children[1]->buffers[1], array->children[1]->buffers[1],
                          16 * N_ROWS),
                   0);
      cr_assert_eq(memcmp(read.children[0]->buffers[1], array->children[0]->buffers[1],
                          8 * N_ROWS),
                   0);
      ArrowArrayRelease(&read);
      batches++;
    }
    ArrowIpcFileReaderReset(&reader);
  } else {
    WT_OK(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL));
    WT_OK(stream.get_schema(&stream, &schema));
    ArrowSchemaRelease(&schema);
    for (;;) {
      WT_OK(stream.get_next(&stream, &read));
      if (read.release == NULL) break;
      cr_assert_eq(read.length, N_ROWS);
      cr_assert_eq(memcmp(read.children[1]->buffers[1], array->children[1]->buffers[1],
                          16 * N_ROWS),
                   0);
      cr_assert_eq(memcmp(read.children[0]->buffers[1], array->children[0]->buffers[1],
                          8 * N_ROWS),
                   0);
      ArrowArrayRelease(&read);
      batches++;
    }
    ArrowArrayStreamRelease(&stream);
  }
  cr_assert_eq(batches, 2);
}

static void CheckCodec(enum ArrowIpcCompressionType codec) {
  static const int64_t kAlignments[] = {8, 16, 32, 64};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowIpcEncoder probe;
  struct ArrowError error;
  size_t a;
  int file_format;
  WT_OK(ArrowIpcEncoderInit(&probe));
  if (codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE &&
      ArrowIpcEncoderSetCompression(&probe, codec, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &error) == ENOTSUP) {
    ArrowIpcEncoderReset(&probe);
    cr_skip_test("codec %d not built", (int)codec);
  }
  ArrowIpcEncoderReset(&probe);
  BuildColumns(&schema, &array);
  for (a = 0; a < sizeof(kAlignments) / sizeof(kAlignments[0]); a++) {
    for (file_format = 0; file_format < 2; file_format++) {
      struct ArrowBuffer out;
      int64_t n_raw;
      ArrowBufferInit(&out);
      WriteAligned(&out, &schema, &array, file_format, codec, kAlignments[a]);
      n_raw = CheckLayout(&out, file_format, codec, kAlignments[a]);
      if (codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
        /* The int64 noise of both batches went raw: the case under test happened. */
        cr_assert_geq(n_raw, 2);
      }
      ExpectReadsBack(&out, &array, file_format);
      ArrowBufferReset(&out);
    }
  }
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(writer_alignment, uncompressed_buffers_start_aligned) {
  CheckCodec(NANOARROW_IPC_COMPRESSION_TYPE_NONE);
}

Test(writer_alignment, lz4_raw_buffers_start_aligned_after_prefix) {
  CheckCodec(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME);
}

Test(writer_alignment, zstd_raw_buffers_start_aligned_after_prefix) {
  CheckCodec(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
}

/* The encoder alone: an encapsulated message is a multiple of the alignment, so a
 * stream of messages and bodies that starts aligned stays aligned. */
Test(writer_alignment, encoder_messages_are_multiples_of_alignment) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowIpcEncoder encoder;
  struct ArrowBuffer out;
  struct ArrowError error;
  BuildColumns(&schema, &array);
  WT_OK(ArrowIpcEncoderInit(&encoder));
  WT_OK(ArrowIpcEncoderSetAlignment(&encoder, 64));
  WT_OK(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error));
  ArrowBufferInit(&out);
  WT_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &out));
  cr_assert_eq(out.size_bytes % 64, 0);
  cr_assert_eq(ArrowIpcFbrLoadI32(out.data + 4), out.size_bytes - 8);
  ArrowBufferReset(&out);
  ArrowIpcEncoderReset(&encoder);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}
