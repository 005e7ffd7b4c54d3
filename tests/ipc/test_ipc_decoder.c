/* ArrowIpcDecoder framing, hostile headers, shared buffers and decompressors. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

static struct ArrowBufferView View(const void* data, int64_t size) {
  struct ArrowBufferView view;
  view.data.data = data;
  view.size_bytes = size;
  return view;
}

Test(ipc_decoder, peek_header_framing) {
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  int32_t prefix = 0;
  const uint8_t eos[] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  const uint8_t continuation[] = {0xFF, 0xFF, 0xFF, 0xFF, 16, 0, 0, 0};
  const uint8_t legacy[] = {24, 0, 0, 0};
  const uint8_t negative[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF};
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderPeekHeader(&decoder, View(eos, 3), &prefix, &error), ESPIPE);
  cr_assert_eq(ArrowIpcDecoderPeekHeader(&decoder, View(eos, 8), &prefix, &error), ENODATA);
  cr_assert_eq(ArrowIpcDecoderPeekHeader(&decoder, View(continuation, 8), &prefix, &error),
               NANOARROW_OK);
  cr_assert_eq(prefix, 8);
  cr_assert_eq(decoder.header_size_bytes, 24);
  cr_assert_eq(ArrowIpcDecoderPeekHeader(&decoder, View(legacy, 4), &prefix, &error),
               NANOARROW_OK);
  cr_assert_eq(prefix, 4);
  cr_assert_eq(decoder.header_size_bytes, 28);
  cr_assert_eq(ArrowIpcDecoderPeekHeader(&decoder, View(negative, 8), &prefix, &error),
               EINVAL);
  /* The header claims 16 bytes that are not there. */
  cr_assert_eq(ArrowIpcDecoderVerifyHeader(&decoder, View(continuation, 8), &error), ESPIPE);
  ArrowIpcDecoderReset(&decoder);
}

Test(ipc_decoder, hostile_flatbuffers_are_rejected) {
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  uint8_t message[8 + 32];
  int i;
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  memset(message, 0, sizeof(message));
  message[0] = message[1] = message[2] = message[3] = 0xFF;
  message[4] = 32;
  /* Root offset far out of bounds. */
  message[8] = 0xF0;
  message[9] = 0xFF;
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, View(message, sizeof(message)), &error),
               EINVAL);
  cr_assert(strstr(error.message, "out of bounds") != NULL, "%s", error.message);
  /* Root table whose vtable offset points before the buffer. */
  memset(message + 8, 0, 32);
  message[8] = 8;
  message[16] = 0x7F;
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, View(message, sizeof(message)), &error),
               EINVAL);
  /* Every single-byte corruption of a tiny message is an error, not a crash. */
  for (i = 8; i < (int)sizeof(message); i++) {
    message[i] ^= 0x5A;
    (void)ArrowIpcDecoderDecodeHeader(&decoder, View(message, sizeof(message)), &error);
  }
  ArrowIpcDecoderReset(&decoder);
}

Test(ipc_decoder, decode_requires_matching_message) {
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  struct ArrowSchema schema;
  struct ArrowArray array;
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderDecodeSchema(&decoder, &schema, &error), EINVAL);
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, View(NULL, 0), -1, &array,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  cr_assert_eq(ArrowIpcDecoderSetEndianness(&decoder, NANOARROW_IPC_ENDIANNESS_BIG),
               NANOARROW_OK);
  ArrowIpcDecoderReset(&decoder);
}

Test(ipc_decoder, shared_buffer_outlives_reset) {
  struct ArrowIpcSharedBuffer shared;
  struct ArrowBuffer src;
  ArrowBufferInit(&src);
  cr_assert_eq(ArrowBufferAppend(&src, "abcdefgh", 8), NANOARROW_OK);
  cr_assert_eq(ArrowIpcSharedBufferInit(&shared, &src), NANOARROW_OK);
  cr_assert_null(src.data);
  /* Since 0.9.0 the 0.8 names are aliases: the shared buffer is an ArrowBuffer. */
  cr_assert(ArrowIsSharedBuffer(&shared));
  cr_assert_eq(shared.size_bytes, 8);
  cr_assert_eq(memcmp(shared.data, "abcdefgh", 8), 0);
  ArrowIpcSharedBufferReset(&shared);
  cr_assert_eq(ArrowIpcSharedBufferIsThreadSafe(), 1);
}

static int n_fake_calls = 0;

static ArrowErrorCode FakeDecompress(struct ArrowBufferView src, uint8_t* dst,
                                     int64_t dst_size, struct ArrowError* error) {
  (void)error;
  n_fake_calls++;
  if (src.size_bytes != dst_size) return EIO;
  memcpy(dst, src.data.data, (size_t)dst_size);
  return NANOARROW_OK;
}

Test(ipc_decoder, serial_decompressor_functions) {
  struct ArrowIpcDecompressor decompressor;
  struct ArrowError error;
  uint8_t out[4];
  cr_assert_eq(ArrowIpcSerialDecompressor(&decompressor), NANOARROW_OK);
  cr_assert_eq(ArrowIpcSerialDecompressorSetFunction(
                   &decompressor, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, NULL),
               NANOARROW_OK);
  cr_assert_eq(decompressor.decompress_add(&decompressor, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                           View("abcd", 4), out, 4, &error),
               ENOTSUP);
  cr_assert(strstr(error.message, "ZSTD") != NULL, "%s", error.message);
  cr_assert_eq(ArrowIpcSerialDecompressorSetFunction(
                   &decompressor, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &FakeDecompress),
               NANOARROW_OK);
  cr_assert_eq(decompressor.decompress_add(&decompressor, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                           View("abcd", 4), out, 4, &error),
               NANOARROW_OK);
  cr_assert_eq(decompressor.decompress_wait(&decompressor, -1, &error), NANOARROW_OK);
  cr_assert_eq(n_fake_calls, 1);
  cr_assert_eq(memcmp(out, "abcd", 4), 0);
  decompressor.release(&decompressor);
}

/* A compressed stream read without the codec names the missing codec. */
Test(ipc_decoder, compressed_stream_without_codec) {
  char path[1024];
  FILE* file;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowIpcDecoder decoder;
  struct ArrowIpcDecompressor none;
  int rc;
  snprintf(path, sizeof(path),
           "%s/arrow-ipc-stream/integration/2.0.0-compression/generated_zstd.stream",
           NANOARROW_TEST_DATA_DIR);
  file = fopen(path, "rb");
  cr_assert_not_null(file);
  cr_assert_eq(ArrowIpcInputStreamInitFile(&input, file, 1), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL), NANOARROW_OK);
  cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK);
  ArrowSchemaRelease(&schema);
  rc = stream.get_next(&stream, &array);
  if (ArrowIpcGetZstdDecompressionFunction() == NULL) {
    cr_assert_eq(rc, ENOTSUP);
    cr_assert(strstr(stream.get_last_error(&stream), "ZSTD") != NULL);
  } else {
    cr_assert_eq(rc, NANOARROW_OK, "%s", stream.get_last_error(&stream));
    if (array.release != NULL) ArrowArrayRelease(&array);
  }
  ArrowArrayStreamRelease(&stream);

  /* An empty decompressor installed in a decoder is released with it. */
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcSerialDecompressor(&none), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetDecompressor(&decoder, &none), NANOARROW_OK);
  cr_assert_null(none.release);
  ArrowIpcDecoderReset(&decoder);
}

/* A stream's record batches can be selected by column, zero-copy. */
Test(ipc_decoder, stream_reader_field_index) {
  char path[1024];
  FILE* file;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowIpcArrayStreamReaderOptions options;
  struct ArrowSchema schema;
  struct ArrowArray array;
  snprintf(path, sizeof(path),
           "%s/arrow-ipc-stream/integration/1.0.0-littleendian/generated_primitive.stream",
           NANOARROW_TEST_DATA_DIR);
  file = fopen(path, "rb");
  cr_assert_not_null(file);
  options.field_index = 6;
  options.use_shared_buffers = 1;
  cr_assert_eq(ArrowIpcInputStreamInitFile(&input, file, 1), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, &options), NANOARROW_OK);
  cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK);
  cr_assert_str_eq(schema.format, "i");
  cr_assert_str_eq(schema.name, "int32_nullable");
  ArrowSchemaRelease(&schema);
  cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK);
  cr_assert_not_null(array.release);
  cr_assert_eq(array.n_buffers, 2);
  cr_assert_eq(array.n_children, 0);
  ArrowArrayRelease(&array);
  ArrowArrayStreamRelease(&stream);
}

/* An index past the last field (or below -1) is refused with the count of fields. */
Test(ipc_decoder, stream_reader_field_index_out_of_range) {
  static const int64_t kIndices[] = {1000, -5};
  char path[1024];
  size_t k;
  snprintf(path, sizeof(path),
           "%s/arrow-ipc-stream/integration/1.0.0-littleendian/generated_primitive.stream",
           NANOARROW_TEST_DATA_DIR);
  for (k = 0; k < sizeof(kIndices) / sizeof(kIndices[0]); k++) {
    FILE* file = fopen(path, "rb");
    struct ArrowIpcInputStream input;
    struct ArrowArrayStream stream;
    struct ArrowIpcArrayStreamReaderOptions options;
    struct ArrowSchema schema;
    struct ArrowSchema full;
    char expected[64];
    cr_assert_not_null(file);
    options.field_index = -1;
    options.use_shared_buffers = 0;
    cr_assert_eq(ArrowIpcInputStreamInitFile(&input, file, 1), NANOARROW_OK);
    cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, &options), NANOARROW_OK);
    cr_assert_eq(stream.get_schema(&stream, &full), NANOARROW_OK);
    ArrowArrayStreamRelease(&stream);
    /* generated_primitive's columns have no children: one field per column. */
    snprintf(expected, sizeof(expected), "out of range [-1, %ld)", (long)full.n_children);
    ArrowSchemaRelease(&full);

    file = fopen(path, "rb");
    cr_assert_not_null(file);
    options.field_index = kIndices[k];
    cr_assert_eq(ArrowIpcInputStreamInitFile(&input, file, 1), NANOARROW_OK);
    cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, &options), NANOARROW_OK);
    cr_assert_eq(stream.get_schema(&stream, &schema), EINVAL);
    cr_assert(strstr(stream.get_last_error(&stream), expected) != NULL, "%s (want %s)",
              stream.get_last_error(&stream), expected);
    ArrowArrayStreamRelease(&stream);
  }
}

/* Fields in depth-first order (the numbering of field_index), with the matching
 * arrays of a batch. */
struct FlatFields {
  const struct ArrowSchema* schemas[64];
  const struct ArrowArray* arrays[64];
  int n;
};

static void FlattenFields(const struct ArrowSchema* schema, const struct ArrowArray* array,
                          struct FlatFields* out) {
  int64_t k;
  for (k = 0; k < schema->n_children && out->n < 64; k++) {
    out->schemas[out->n] = schema->children[k];
    out->arrays[out->n] = array->children[k];
    out->n++;
    FlattenFields(schema->children[k], array->children[k], out);
  }
}

static void OpenReader(const char* path, int64_t field_index, struct ArrowArrayStream* stream) {
  struct ArrowIpcInputStream input;
  struct ArrowIpcArrayStreamReaderOptions options;
  FILE* file = fopen(path, "rb");
  cr_assert_not_null(file, "cannot open %s", path);
  options.field_index = field_index;
  options.use_shared_buffers = 1;
  cr_assert_eq(ArrowIpcInputStreamInitFile(&input, file, 1), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(stream, &input, &options), NANOARROW_OK);
}

/* field_index numbers nested fields depth-first, from a stream and from a file. */
Test(ipc_decoder, stream_reader_field_index_is_depth_first) {
  static const char* const kFiles[] = {"generated_nested.stream", "generated_nested.arrow_file"};
  char path[1024];
  int f;
  for (f = 0; f < 2; f++) {
    struct ArrowArrayStream stream;
    struct ArrowSchema full;
    struct ArrowArray batch;
    struct FlatFields flat;
    int k;
    snprintf(path, sizeof(path), "%s/arrow-ipc-stream/integration/1.0.0-littleendian/%s",
             NANOARROW_TEST_DATA_DIR, kFiles[f]);
    OpenReader(path, -1, &stream);
    cr_assert_eq(stream.get_schema(&stream, &full), NANOARROW_OK);
    cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK);
    cr_assert_not_null(batch.release);
    flat.n = 0;
    FlattenFields(&full, &batch, &flat);
    cr_assert_gt(flat.n, full.n_children, "the file has nested fields");
    ArrowArrayStreamRelease(&stream);

    for (k = 0; k <= flat.n; k++) {
      struct ArrowSchema schema;
      struct ArrowArray array;
      OpenReader(path, k, &stream);
      if (k == flat.n) {
        cr_assert_eq(stream.get_schema(&stream, &schema), EINVAL);
        cr_assert(strstr(stream.get_last_error(&stream), "out of range") != NULL);
        ArrowArrayStreamRelease(&stream);
        break;
      }
      cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK, "%s",
                   stream.get_last_error(&stream));
      cr_assert_str_eq(schema.format, flat.schemas[k]->format, "%s field %d", kFiles[f], k);
      cr_assert_str_eq(schema.name, flat.schemas[k]->name, "%s field %d", kFiles[f], k);
      cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK, "%s",
                   stream.get_last_error(&stream));
      cr_assert_eq(array.length, flat.arrays[k]->length, "%s field %d", kFiles[f], k);
      cr_assert_eq(array.n_children, flat.arrays[k]->n_children);
      ArrowArrayRelease(&array);
      ArrowSchemaRelease(&schema);
      ArrowArrayStreamRelease(&stream);
    }
    ArrowArrayRelease(&batch);
    ArrowSchemaRelease(&full);
  }
}

/* The whole of an arrow-testing file (relative to NANOARROW_TEST_DATA_DIR). */
static void ReadTestFile(const char* relative_path, struct ArrowBuffer* out) {
  char path[1024];
  uint8_t chunk[4096];
  size_t n;
  FILE* file;
  snprintf(path, sizeof(path), "%s/%s", NANOARROW_TEST_DATA_DIR, relative_path);
  file = fopen(path, "rb");
  cr_assert_not_null(file, "cannot open %s", path);
  ArrowBufferInit(out);
  while ((n = fread(chunk, 1, sizeof(chunk), file)) > 0) {
    cr_assert_eq(ArrowBufferAppend(out, chunk, (int64_t)n), NANOARROW_OK);
  }
  fclose(file);
}

/* FixedSizeBinary(0) has no format nanoarrow accepts ("w:0"): the schema decoder
 * refuses it and names the field, rather than SetSchema failing later. */
Test(ipc_decoder, fixed_size_binary_width_must_be_positive) {
  struct ArrowBuffer input;
  struct ArrowIpcInputStream input_stream;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  const char* message;
  ReadTestFile(
      "arrow-ipc-stream/clusterfuzz-testcase-minimized-arrow-ipc-stream-fuzz-"
      "4831362862022656.fuzz",
      &input);
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input_stream, &input), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input_stream, NULL), NANOARROW_OK);
  cr_assert_eq(stream.get_schema(&stream, &schema), EINVAL);
  message = stream.get_last_error(&stream);
  cr_assert(strstr(message, "FixedSizeBinary byteWidth must be positive, got 0") != NULL,
            "%s", message);
  cr_assert(strstr(message, "fields.children[") != NULL, "%s", message);
  ArrowArrayStreamRelease(&stream);
}

/* Reads every record batch of an IPC stream held in data with a decoder whose
 * decompressed-byte limit is max_bytes; returns the first error. */
static int DecodeStreamWithLimit(const struct ArrowBuffer* data, int64_t max_bytes,
                                 int64_t* n_batches, struct ArrowError* error) {
  struct ArrowIpcDecoder decoder;
  int64_t pos = 0;
  int rc = NANOARROW_OK;
  *n_batches = 0;
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetMaxDecompressedBytes(&decoder, max_bytes), NANOARROW_OK);
  while (rc == NANOARROW_OK && pos < data->size_bytes) {
    struct ArrowBufferView body;
    rc = ArrowIpcDecoderDecodeHeader(
        &decoder, View(data->data + pos, data->size_bytes - pos), error);
    if (rc == ENODATA) {
      rc = NANOARROW_OK;
      break;
    }
    if (rc != NANOARROW_OK) break;
    pos += decoder.header_size_bytes;
    body = View(data->data + pos, decoder.body_size_bytes);
    pos += decoder.body_size_bytes;
    if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
      struct ArrowSchema schema;
      rc = ArrowIpcDecoderDecodeSchema(&decoder, &schema, error);
      if (rc == NANOARROW_OK) {
        rc = ArrowIpcDecoderSetSchema(&decoder, &schema, error);
        ArrowSchemaRelease(&schema);
      }
    } else if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
      rc = ArrowIpcDecoderDecodeDictionary(&decoder, body, NANOARROW_VALIDATION_LEVEL_FULL,
                                           NULL, error);
    } else if (decoder.message_type == NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH) {
      struct ArrowArray array;
      rc = ArrowIpcDecoderDecodeArray(&decoder, body, -1, &array,
                                      NANOARROW_VALIDATION_LEVEL_FULL, error);
      if (rc == NANOARROW_OK) {
        ArrowArrayRelease(&array);
        (*n_batches)++;
      }
    }
  }
  ArrowIpcDecoderReset(&decoder);
  return rc;
}

/* The decompressed-byte limit set on a decoder (or a stream reader) is honoured
 * for real compressed bodies; the default reads arrow-testing's compressed cases. */
Test(ipc_decoder, max_decompressed_bytes_is_honoured) {
  static const char* kCases[] = {
      "arrow-ipc-stream/integration/2.0.0-compression/generated_lz4.stream",
      "arrow-ipc-stream/integration/2.0.0-compression/generated_zstd.stream"};
  struct ArrowIpcDecoder decoder;
  struct ArrowError error;
  size_t i;

  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetMaxDecompressedBytes(&decoder, -2), EINVAL);
  cr_assert_eq(ArrowIpcDecoderSetMaxDecompressedBytes(&decoder, 0), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetMaxDecompressedBytes(&decoder, -1), NANOARROW_OK);
  ArrowIpcDecoderReset(&decoder);

  for (i = 0; i < sizeof(kCases) / sizeof(kCases[0]); i++) {
    struct ArrowBuffer input;
    struct ArrowIpcInputStream input_stream;
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    struct ArrowArray array;
    int64_t n_batches;
    int have_codec = i == 0 ? ArrowIpcGetLZ4DecompressionFunction() != NULL
                            : ArrowIpcGetZstdDecompressionFunction() != NULL;
    if (!have_codec) continue;
    ReadTestFile(kCases[i], &input);

    /* Decoder: the default limit reads every batch, 16 bytes none. */
    error.message[0] = '\0';
    cr_assert_eq(DecodeStreamWithLimit(&input, -1, &n_batches, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_gt(n_batches, 0);
    cr_assert_eq(DecodeStreamWithLimit(&input, 16, &n_batches, &error), EINVAL);
    cr_assert(strstr(error.message, "over the limit of 16 decompressed bytes") != NULL, "%s",
              error.message);
    cr_assert(strstr(error.message, "buffer ") != NULL, "%s", error.message);

    /* Stream reader: the same through ArrowIpcArrayStreamReaderInitWithLimits. */
    cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input_stream, &input), NANOARROW_OK);
    cr_assert_eq(ArrowIpcArrayStreamReaderInitWithLimits(
                     &stream, &input_stream, NULL, NANOARROW_VALIDATION_LEVEL_FULL, 16),
                 NANOARROW_OK);
    cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK);
    ArrowSchemaRelease(&schema);
    cr_assert_eq(stream.get_next(&stream, &array), EINVAL);
    cr_assert(strstr(stream.get_last_error(&stream), "over the limit of 16 decompressed") !=
                  NULL,
              "%s", stream.get_last_error(&stream));
    ArrowArrayStreamRelease(&stream);
  }
}

/* Decoded children share one allocation for their names: a child moved out of the
 * schema keeps its name (and may be renamed) after the parent is released. */
Test(ipc_decoder, decoded_child_names_outlive_their_parent) {
  static const char* const kNames[] = {"first", "", "third column"};
  struct ArrowSchema schema;
  struct ArrowSchema decoded;
  struct ArrowSchema moved;
  struct ArrowSchema other;
  struct ArrowBuffer bytes;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowError error;
  int64_t i;

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 4), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  for (i = 0; i < 4; i++) {
    cr_assert_eq(ArrowSchemaInitFromType(schema.children[i], NANOARROW_TYPE_INT32),
                 NANOARROW_OK);
    if (i < 3) {
      cr_assert_eq(ArrowSchemaSetName(schema.children[i], kNames[i]), NANOARROW_OK);
    }
  }
  ArrowBufferInit(&bytes);
  cr_assert_eq(ArrowIpcOutputStreamInitBuffer(&output, &bytes), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &output), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), NANOARROW_OK);
  ArrowIpcWriterReset(&writer);
  ArrowSchemaRelease(&schema);

  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &bytes), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStreamGetSchema(&stream, &decoded, &error), NANOARROW_OK);
  ArrowArrayStreamRelease(&stream);
  cr_assert_eq(decoded.n_children, 4);
  for (i = 0; i < 3; i++) cr_assert_str_eq(decoded.children[i]->name, kNames[i]);
  /* The writer gives an unnamed field an empty name. */
  cr_assert(decoded.children[3]->name == NULL || decoded.children[3]->name[0] == '\0');

  /* Move two children out, rename one of them and the first still in place. */
  ArrowSchemaMove(decoded.children[0], &moved);
  ArrowSchemaMove(decoded.children[2], &other);
  cr_assert_eq(ArrowSchemaSetName(&other, "renamed"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(decoded.children[1], "second"), NANOARROW_OK);
  cr_assert_str_eq(decoded.children[1]->name, "second");
  ArrowSchemaRelease(&decoded);

  cr_assert_str_eq(moved.name, "first");
  cr_assert_str_eq(other.name, "renamed");
  ArrowSchemaRelease(&other);
  cr_assert_str_eq(moved.name, "first");
  /* A deep copy owns its own name. */
  cr_assert_eq(ArrowSchemaDeepCopy(&moved, &other), NANOARROW_OK);
  ArrowSchemaRelease(&moved);
  cr_assert_str_eq(other.name, "first");
  ArrowSchemaRelease(&other);
}

/* Whole batches of fixed-width schemas are exported without the decoder's own
 * views; those are built when ArrowIpcDecoderDecodeArrayView() asks, and must
 * match what ArrowArrayViewInitFromSchema() gives. */
Test(ipc_decoder, views_built_later_match_the_schema) {
  static const char* const kFormats[] = {"i", "w:3", "d:10,2", "+w:2", "+s"};
  static const char kLetters[] = "abcdefghi";
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView source;
  struct ArrowArrayView expected;
  struct ArrowArrayView* decoded;
  struct ArrowArray batch;
  struct ArrowArray column;
  struct ArrowBuffer bytes;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowIpcDecoder decoder;
  struct ArrowBufferView data;
  struct ArrowError error;
  int64_t i;
  int64_t row;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+s"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 5), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  for (i = 0; i < 5; i++) {
    cr_assert_eq(ArrowSchemaSetFormat(schema.children[i], kFormats[i]), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetName(schema.children[i], kFormats[i]), NANOARROW_OK);
  }
  cr_assert_eq(ArrowSchemaAllocateChildren(schema.children[3], 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (schema.children[3])->n_children; child_i++) {
    ArrowSchemaInit((schema.children[3])->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[3]->children[0], NANOARROW_TYPE_INT16),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(schema.children[4], 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (schema.children[4])->n_children; child_i++) {
    ArrowSchemaInit((schema.children[4])->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[4]->children[0], NANOARROW_TYPE_BOOL),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[4]->children[1], NANOARROW_TYPE_NA),
               NANOARROW_OK);

  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  for (row = 0; row < 3; row++) {
    struct ArrowBufferView fsb;
    fsb.data.data = &kLetters[3 * row];
    fsb.size_bytes = 3;
    cr_assert_eq(ArrowArrayAppendInt(array.children[0], row * 10), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendBytes(array.children[1], fsb), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendNull(array.children[2], 1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(array.children[3]->children[0], row), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(array.children[3]->children[0], -row), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(array.children[3]), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(array.children[4]->children[0], row % 2), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendNull(array.children[4]->children[1], 1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(array.children[4]), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&source, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&source, &array, &error), NANOARROW_OK);

  ArrowBufferInit(&bytes);
  cr_assert_eq(ArrowIpcOutputStreamInitBuffer(&output, &bytes), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &output), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &source, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowIpcWriterReset(&writer);

  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  data = View(bytes.data, bytes.size_bytes);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, data, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderSetSchema(&decoder, &schema, &error), NANOARROW_OK);
  data.data.as_uint8 += decoder.header_size_bytes + decoder.body_size_bytes;
  data.size_bytes -= decoder.header_size_bytes + decoder.body_size_bytes;
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, data, &error), NANOARROW_OK, "%s",
               error.message);
  data.data.as_uint8 += decoder.header_size_bytes;
  data.size_bytes = decoder.body_size_bytes;

  /* The exported batch is complete, and its children stand on their own. */
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, data, -1, &batch,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(batch.n_children, 5);
  ArrowArrayMove(batch.children[3], &column);
  ArrowArrayRelease(&batch);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&expected, schema.children[3], &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&expected, &column, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(expected.children[0], 5), -2);
  ArrowArrayViewReset(&expected);
  ArrowArrayRelease(&column);

  cr_assert_eq(ArrowIpcDecoderDecodeArrayView(&decoder, data, -1, &decoded, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&expected, &schema, &error), NANOARROW_OK);
  cr_assert_eq(decoded->n_children, 5);
  for (i = 0; i < 5; i++) {
    const struct ArrowArrayView* got = decoded->children[i];
    const struct ArrowArrayView* want = expected.children[i];
    int64_t j;
    cr_assert_eq(got->storage_type, want->storage_type, "column %d", (int)i);
    cr_assert_eq(memcmp(&got->layout, &want->layout, sizeof(got->layout)), 0,
                 "column %d", (int)i);
    cr_assert_eq(got->n_children, want->n_children);
    for (j = 0; j < got->n_children; j++) {
      cr_assert_eq(got->children[j]->storage_type, want->children[j]->storage_type);
      cr_assert_eq(memcmp(&got->children[j]->layout, &want->children[j]->layout,
                          sizeof(got->layout)),
                   0, "column %d child %d", (int)i, (int)j);
    }
  }
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(decoded->children[0], 2), 20);
  cr_assert_eq(memcmp(decoded->children[1]->buffer_views[1].data.as_uint8 + 3, "def", 3),
               0);
  cr_assert_eq(ArrowArrayViewValidate(decoded, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);

  ArrowArrayViewReset(&expected);
  ArrowIpcDecoderReset(&decoder);
  ArrowArrayViewReset(&source);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  ArrowBufferReset(&bytes);
}

/* The root struct of a decoded schema has flags 0 (not nullable), as in nanoarrow: an
 * IPC Schema has no nullability of its own. Fields keep theirs. */
Test(ipc_decoder, decoded_root_struct_has_no_flags) {
  struct ArrowSchema schema;
  struct ArrowSchema decoded;
  struct ArrowBuffer bytes;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowError error;
  struct ArrowIpcDecoder decoder;
  struct ArrowBuffer message;
  struct ArrowIpcEncoder encoder;

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[1], NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  schema.children[1]->flags = 0;

  /* Through a stream reader. */
  ArrowBufferInit(&bytes);
  cr_assert_eq(ArrowIpcOutputStreamInitBuffer(&output, &bytes), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &output), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), NANOARROW_OK);
  ArrowIpcWriterReset(&writer);
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &bytes), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStreamGetSchema(&stream, &decoded, &error), NANOARROW_OK);
  ArrowArrayStreamRelease(&stream);
  cr_assert_eq(decoded.flags, 0, "root flags %lld", (long long)decoded.flags);
  cr_assert_eq(decoded.children[0]->flags, ARROW_FLAG_NULLABLE);
  cr_assert_eq(decoded.children[1]->flags, 0);
  ArrowSchemaRelease(&decoded);

  /* Through the decoder. */
  cr_assert_eq(ArrowIpcEncoderInit(&encoder), NANOARROW_OK);
  ArrowBufferInit(&message);
  cr_assert_eq(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &message), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderInit(&decoder), NANOARROW_OK);
  cr_assert_eq(ArrowIpcDecoderVerifyHeader(&decoder, View(message.data, message.size_bytes),
                                           &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, View(message.data, message.size_bytes),
                                           &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowIpcDecoderDecodeSchema(&decoder, &decoded, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoded.flags, 0);
  ArrowSchemaRelease(&decoded);
  ArrowIpcDecoderReset(&decoder);
  ArrowIpcEncoderReset(&encoder);
  ArrowBufferReset(&message);
  ArrowBufferReset(&bytes);
  ArrowSchemaRelease(&schema);
}
