/* Compression with a level and pluggable compressors: compression type names,
 * level ranges, the built-in compression functions, the serial compressor,
 * ArrowIpcEncoderSetCompression / SetCompressor and ArrowIpcWriterSetCompression. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define CT_OK(expr)                                                       \
  do {                                                                    \
    int ct_rc_ = (expr);                                                  \
    cr_assert_eq(ct_rc_, NANOARROW_OK, "%s returned %d", #expr, ct_rc_); \
  } while (0)

/* Not an enumerator, but representable in the enum. */
#define CT_UNKNOWN_TYPE ((enum ArrowIpcCompressionType)3)

/* Text from a small vocabulary in a pseudo-random order: compressible, and better
 * compressed by stronger levels. */
static void CtCompressibleText(struct ArrowBuffer* out, int64_t n_words) {
  static const char* const kWords[] = {"arrow ", "columnar ", "buffer ", "stream ",
                                       "dictionary ", "record ", "batch ", "schema ",
                                       "footer ", "message ", "body ", "validity "};
  uint32_t state = 12345;
  int64_t i;
  ArrowBufferInit(out);
  for (i = 0; i < n_words; i++) {
    state = state * 1103515245u + 12345u;
    CT_OK(ArrowBufferAppend(out, kWords[(state >> 16) % 12],
                            (int64_t)strlen(kWords[(state >> 16) % 12])));
  }
}

Test(ipc_compression_api, type_names) {
  enum ArrowIpcCompressionType types[] = {NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                                          NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
                                          NANOARROW_IPC_COMPRESSION_TYPE_ZSTD};
  enum ArrowIpcCompressionType parsed;
  struct ArrowError error;
  int i;

  cr_assert_str_eq(ArrowIpcCompressionTypeToString(NANOARROW_IPC_COMPRESSION_TYPE_NONE),
                   "none");
  cr_assert_str_eq(
      ArrowIpcCompressionTypeToString(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME), "lz4");
  cr_assert_str_eq(ArrowIpcCompressionTypeToString(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD),
                   "zstd");
  cr_assert_str_eq(ArrowIpcCompressionTypeToString(CT_UNKNOWN_TYPE),
                   "<unknown compression type>");

  for (i = 0; i < 3; i++) {
    parsed = CT_UNKNOWN_TYPE;
    CT_OK(ArrowIpcCompressionTypeFromString(ArrowIpcCompressionTypeToString(types[i]),
                                            &parsed, &error));
    cr_assert_eq(parsed, types[i]);
  }

  /* Names are exact; a failure leaves the output as it was. */
  parsed = NANOARROW_IPC_COMPRESSION_TYPE_ZSTD;
  cr_assert_eq(ArrowIpcCompressionTypeFromString("LZ4", &parsed, &error), EINVAL);
  cr_assert_str_eq(error.message,
                   "Unknown compression type name 'LZ4' (expected 'none', 'lz4', or "
                   "'zstd')");
  cr_assert_eq(ArrowIpcCompressionTypeFromString("lz4_frame", &parsed, &error), EINVAL);
  cr_assert_eq(ArrowIpcCompressionTypeFromString("", &parsed, &error), EINVAL);
  cr_assert_eq(
      ArrowIpcCompressionTypeFromString("<unknown compression type>", &parsed, &error),
      EINVAL);
  cr_assert_eq(ArrowIpcCompressionTypeFromString(NULL, &parsed, &error), EINVAL);
  cr_assert_str_eq(error.message,
                   "Unknown compression type name '' (expected 'none', 'lz4', or "
                   "'zstd')");
  cr_assert_eq(parsed, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
}

Test(ipc_compression_api, level_ranges) {
  int min_level = 99;
  int max_level = -99;
  cr_assert_eq(ArrowIpcGetCompressionLevelRange(NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                                                &min_level, &max_level),
               EINVAL);
  cr_assert_eq(ArrowIpcGetCompressionLevelRange(CT_UNKNOWN_TYPE, &min_level, &max_level),
               EINVAL);
  cr_assert_eq(min_level, 99);

  if (ArrowIpcGetZstdCompressionFunction() != NULL) {
  CT_OK(ArrowIpcGetCompressionLevelRange(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &min_level,
                                         &max_level));
  cr_assert_lt(min_level, 0, "zstd's fast (negative) levels: min %d", min_level);
  cr_assert_geq(max_level, 19);
  cr_assert_not_null(ArrowIpcGetZstdCompressionFunction());
  } else {
  cr_assert_eq(ArrowIpcGetCompressionLevelRange(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                                &min_level, &max_level),
               ENOTSUP);
  cr_assert_null(ArrowIpcGetZstdDecompressionFunction());
  }

  if (ArrowIpcGetLZ4CompressionFunction() != NULL) {
  CT_OK(ArrowIpcGetCompressionLevelRange(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
                                         &min_level, &max_level));
  cr_assert_eq(min_level, -65536);
  cr_assert_eq(max_level, 12);
  cr_assert_not_null(ArrowIpcGetLZ4CompressionFunction());
  } else {
  cr_assert_eq(ArrowIpcGetCompressionLevelRange(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
                                                &min_level, &max_level),
               ENOTSUP);
  cr_assert_null(ArrowIpcGetLZ4DecompressionFunction());
  }
}

/* Compresses input at level after some existing bytes (which must survive),
 * decompresses it again and returns the compressed size. */
static int64_t CtRoundtrip(ArrowIpcCompressFunction compress,
                           ArrowIpcDecompressFunction decompress, int level,
                           const struct ArrowBuffer* input) {
  struct ArrowBuffer compressed;
  struct ArrowBufferView src;
  struct ArrowError error;
  uint8_t* output;
  int64_t size;

  ArrowBufferInit(&compressed);
  CT_OK(ArrowBufferAppend(&compressed, "existing", 8));
  src.data.data = input->data;
  src.size_bytes = input->size_bytes;
  cr_assert_eq(compress(src, level, &compressed, &error), NANOARROW_OK, "level %d: %s",
               level, error.message);
  cr_assert_eq(memcmp(compressed.data, "existing", 8), 0);
  size = compressed.size_bytes - 8;

  output = (uint8_t*)ArrowMalloc(input->size_bytes + 1);
  cr_assert_not_null(output);
  src.data.data = compressed.data + 8;
  src.size_bytes = size;
  cr_assert_eq(decompress(src, output, input->size_bytes, &error), NANOARROW_OK,
               "level %d: %s", level, error.message);
  cr_assert(input->size_bytes == 0 || memcmp(output, input->data,
                                             (size_t)input->size_bytes) == 0);
  ArrowFree(output);
  ArrowBufferReset(&compressed);
  return size;
}

Test(ipc_compression_api, zstd_levels_change_output) {
  if (ArrowIpcGetZstdCompressionFunction() != NULL) {
  struct ArrowBuffer input;
  struct ArrowBuffer empty;
  int64_t size_fast;
  int64_t size_1;
  int64_t size_19;
  ArrowIpcCompressFunction compress = ArrowIpcGetZstdCompressionFunction();
  ArrowIpcDecompressFunction decompress = ArrowIpcGetZstdDecompressionFunction();

  CtCompressibleText(&input, 200000);
  ArrowBufferInit(&empty);
  CtRoundtrip(compress, decompress, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &empty);
  size_fast = CtRoundtrip(compress, decompress, -5, &input);
  size_1 = CtRoundtrip(compress, decompress, 1, &input);
  size_19 = CtRoundtrip(compress, decompress, 19, &input);
  cr_log_info("zstd on %ld bytes: level -5 %ld, 1 %ld, 19 %ld bytes", (long)input.size_bytes,
              (long)size_fast, (long)size_1, (long)size_19);
  cr_assert_lt(size_1, input.size_bytes);
  /* The level reaches zstd: a stronger level compresses this input better. */
  cr_assert_lt(size_19, size_1);
  cr_assert_gt(size_fast, size_1);
  ArrowBufferReset(&input);
  } else {
  cr_skip_test("built without NANOARROW_IPC_WITH_ZSTD");
  }
}

Test(ipc_compression_api, lz4_levels_change_output) {
  if (ArrowIpcGetLZ4CompressionFunction() != NULL) {
  struct ArrowBuffer input;
  int64_t size_accelerated;
  int64_t size_default;
  int64_t size_hc;
  int64_t size_min;
  ArrowIpcCompressFunction compress = ArrowIpcGetLZ4CompressionFunction();
  ArrowIpcDecompressFunction decompress = ArrowIpcGetLZ4DecompressionFunction();

  CtCompressibleText(&input, 200000);
  size_accelerated = CtRoundtrip(compress, decompress, -65536, &input);
  size_default = CtRoundtrip(compress, decompress, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                             &input);
  size_hc = CtRoundtrip(compress, decompress, 9, &input);
  /* Below the range saturates at the most acceleration rather than wrapping. */
  size_min = CtRoundtrip(compress, decompress, INT32_MIN, &input);
  cr_log_info("lz4 on %ld bytes: level -65536 %ld, 0 %ld, 9 %ld bytes",
              (long)input.size_bytes, (long)size_accelerated, (long)size_default,
              (long)size_hc);
  cr_assert_gt(size_accelerated, size_default);
  cr_assert_lt(size_hc, size_default);
  cr_assert_eq(size_min, size_accelerated);
  ArrowBufferReset(&input);
  } else {
  cr_skip_test("built without NANOARROW_IPC_WITH_LZ4");
  }
}

/* A compression function that records its level and copies its input. */
static int ct_last_level;
static ArrowErrorCode CtRecordLevelAndCopy(struct ArrowBufferView src, int level,
                                           struct ArrowBuffer* dst,
                                           struct ArrowError* error) {
  NANOARROW_UNUSED(error);
  ct_last_level = level;
  return ArrowBufferAppend(dst, src.data.data, src.size_bytes);
}

static ArrowErrorCode CtFailCompress(struct ArrowBufferView src, int level,
                                     struct ArrowBuffer* dst, struct ArrowError* error) {
  NANOARROW_UNUSED(src);
  NANOARROW_UNUSED(level);
  NANOARROW_UNUSED(dst);
  ArrowErrorSet(error, "CtFailCompress failed");
  return EIO;
}

Test(ipc_compression_api, serial_compressor) {
  struct ArrowIpcCompressor compressor;
  struct ArrowBuffer dst;
  struct ArrowBufferView src;
  struct ArrowError error;
  const char* text = "0123456789";

  src.data.data = text;
  src.size_bytes = 10;
  ArrowBufferInit(&dst);

  compressor.release = NULL;
  cr_assert_eq(ArrowIpcSerialCompressor(&compressor, CT_UNKNOWN_TYPE, 0), EINVAL);
  cr_assert_null(compressor.release);

  /* NONE makes a compressor that refuses to compress. */
  CT_OK(ArrowIpcSerialCompressor(&compressor, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                                 NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT));
  cr_assert_eq(compressor.compression_type, NANOARROW_IPC_COMPRESSION_TYPE_NONE);
  cr_assert_eq(compressor.compress_add(&compressor, src, &dst, &error), EINVAL);
  cr_assert_str_eq(error.message, "Unknown compression type with value 0");
  CT_OK(compressor.compress_wait(&compressor, 0, &error));
  cr_assert_eq(ArrowIpcSerialCompressorSetFunction(
                   &compressor, NANOARROW_IPC_COMPRESSION_TYPE_NONE, NULL),
               EINVAL);
  cr_assert_eq(ArrowIpcSerialCompressorSetFunction(&compressor, CT_UNKNOWN_TYPE, NULL),
               EINVAL);

  /* The level given at construction reaches the function; removing the function
   * refuses the codec; a function's error comes through. */
  compressor.release(&compressor);
  cr_assert_null(compressor.release);
  CT_OK(ArrowIpcSerialCompressor(&compressor, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 7));
  CT_OK(ArrowIpcSerialCompressorSetFunction(
      &compressor, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &CtRecordLevelAndCopy));
  ct_last_level = -1;
  CT_OK(compressor.compress_add(&compressor, src, &dst, &error));
  CT_OK(compressor.compress_wait(&compressor, -1, &error));
  cr_assert_eq(ct_last_level, 7);
  cr_assert_eq(dst.size_bytes, 10);

  CT_OK(ArrowIpcSerialCompressorSetFunction(&compressor,
                                            NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, NULL));
  cr_assert_eq(compressor.compress_add(&compressor, src, &dst, &error), ENOTSUP);
  cr_assert_str_eq(error.message,
                   "Compression type with value 2 not supported by this build of "
                   "nanoarrow");
  CT_OK(ArrowIpcSerialCompressorSetFunction(&compressor,
                                            NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                            &CtFailCompress));
  cr_assert_eq(compressor.compress_add(&compressor, src, &dst, &error), EIO);
  cr_assert_str_eq(error.message, "CtFailCompress failed");
  compressor.release(&compressor);

  /* Only serial compressors take functions. */
  {
    struct ArrowIpcCompressor other;
    memset(&other, 0, sizeof(other));
    cr_assert_eq(ArrowIpcSerialCompressorSetFunction(
                     &other, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &CtFailCompress),
                 EINVAL);
  }
  ArrowBufferReset(&dst);
}

Test(ipc_compression_api, encoder_set_compression_errors) {
  struct ArrowIpcEncoder encoder;
  struct ArrowError error;
  int min_level;
  int max_level;
  char expected[256];

  CT_OK(ArrowIpcEncoderInit(&encoder));
  cr_assert_eq(ArrowIpcEncoderSetCompression(&encoder, CT_UNKNOWN_TYPE,
                                             NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                             &error),
               EINVAL);
  cr_assert_str_eq(error.message, "Unknown compression type with value 3");
  /* NONE takes any level. */
  CT_OK(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 1000,
                                      &error));

  if (ArrowIpcGetZstdCompressionFunction() != NULL) {
  CT_OK(ArrowIpcGetCompressionLevelRange(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, &min_level,
                                         &max_level));
  cr_assert_eq(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                             max_level + 1, &error),
               EINVAL);
  snprintf(expected, sizeof(expected),
           "Compression level %d is out of range for zstd (expected %d to %d)",
           max_level + 1, min_level, max_level);
  cr_assert_str_eq(error.message, expected);
  cr_assert_eq(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                             min_level - 1, &error),
               EINVAL);
  CT_OK(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                      min_level, &error));
  CT_OK(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                      max_level, &error));
  } else {
  cr_assert_eq(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                             NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                             &error),
               ENOTSUP);
  cr_assert_str_eq(error.message,
                   "Compression type with value 2 not supported by this build of "
                   "nanoarrow");
  }

  if (ArrowIpcGetLZ4CompressionFunction() != NULL) {
  CT_OK(ArrowIpcGetCompressionLevelRange(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
                                         &min_level, &max_level));
  cr_assert_eq(ArrowIpcEncoderSetCompression(
                   &encoder, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 13, &error),
               EINVAL);
  cr_assert_str_eq(error.message,
                   "Compression level 13 is out of range for lz4 (expected -65536 to 12)");
  CT_OK(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
                                      -65536, &error));
  } else {
  cr_assert_eq(ArrowIpcEncoderSetCompression(&encoder,
                                             NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
                                             NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                             &error),
               ENOTSUP);
  }
  NANOARROW_UNUSED(min_level);
  NANOARROW_UNUSED(max_level);
  NANOARROW_UNUSED(expected);
  ArrowIpcEncoderReset(&encoder);
}

/* ---- A record batch of one compressible string column and one int32 column ---- */

struct CtBatch {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
};

static void CtBatchInit(struct CtBatch* batch, int64_t n_rows) {
  struct ArrowError error;
  int64_t i;
  char value[32];
  ArrowSchemaInit(&batch->schema);
  CT_OK(ArrowSchemaSetTypeStruct(&batch->schema, 2));
  CT_OK(ArrowSchemaSetType(batch->schema.children[0], NANOARROW_TYPE_STRING));
  CT_OK(ArrowSchemaSetName(batch->schema.children[0], "text"));
  CT_OK(ArrowSchemaSetType(batch->schema.children[1], NANOARROW_TYPE_INT32));
  CT_OK(ArrowSchemaSetName(batch->schema.children[1], "number"));
  CT_OK(ArrowArrayInitFromSchema(&batch->array, &batch->schema, &error));
  CT_OK(ArrowArrayStartAppending(&batch->array));
  for (i = 0; i < n_rows; i++) {
    snprintf(value, sizeof(value), "row-%ld-%s", (long)(i % 97), i % 3 ? "abc" : "xyz");
    CT_OK(ArrowArrayAppendString(batch->array.children[0], ArrowCharView(value)));
    if (i % 11 == 0) {
      CT_OK(ArrowArrayAppendNull(batch->array.children[1], 1));
    } else {
      CT_OK(ArrowArrayAppendInt(batch->array.children[1], (i * 7919) % 1000));
    }
    CT_OK(ArrowArrayFinishElement(&batch->array));
  }
  CT_OK(ArrowArrayFinishBuildingDefault(&batch->array, &error));
  CT_OK(ArrowArrayViewInitFromSchema(&batch->view, &batch->schema, &error));
  CT_OK(ArrowArrayViewSetArray(&batch->view, &batch->array, &error));
}

static void CtBatchReset(struct CtBatch* batch) {
  ArrowArrayViewReset(&batch->view);
  ArrowArrayRelease(&batch->array);
  ArrowSchemaRelease(&batch->schema);
}

/* Decodes a RecordBatch message + body and checks it equals batch. */
static void CtCheckDecodes(const struct CtBatch* batch, const struct ArrowBuffer* message,
                           const struct ArrowBuffer* body,
                           enum ArrowIpcCompressionType expected_codec) {
  struct ArrowIpcDecoder decoder;
  struct ArrowSchema schema;
  struct ArrowArray decoded;
  struct ArrowArrayView decoded_view;
  struct ArrowBufferView data;
  struct ArrowError error;
  int equal = 0;

  CT_OK(ArrowIpcDecoderInit(&decoder));
  CT_OK(ArrowSchemaDeepCopy(&batch->schema, &schema));
  CT_OK(ArrowIpcDecoderSetSchema(&decoder, &schema, &error));
  data.data.data = message->data;
  data.size_bytes = message->size_bytes;
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, data, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.codec, expected_codec);
  data.data.data = body->data;
  data.size_bytes = body->size_bytes;
  cr_assert_eq(ArrowIpcDecoderDecodeArray(&decoder, data, -1, &decoded,
                                          NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  CT_OK(ArrowArrayViewInitFromSchema(&decoded_view, &batch->schema, &error));
  CT_OK(ArrowArrayViewSetArray(&decoded_view, &decoded, &error));
  CT_OK(ArrowArrayViewCompare(&decoded_view, &batch->view, NANOARROW_COMPARE_IDENTICAL,
                              &equal, &error));
  cr_assert(equal, "decoded batch differs: %s", error.message);
  ArrowArrayViewReset(&decoded_view);
  ArrowArrayRelease(&decoded);
  ArrowSchemaRelease(&schema);
  ArrowIpcDecoderReset(&decoder);
}

/* ---- A compressor that defers all work to compress_wait ---- */

struct CtDeferred {
  struct ArrowBufferView src[64];
  struct ArrowBuffer* dst[64];
  int n_pending;
  int max_pending;
  int adds;
  int waits;
  int releases;
  int fail_on_add;
  int fail_wait;
};

static ArrowErrorCode CtDeferredAdd(struct ArrowIpcCompressor* compressor,
                                    struct ArrowBufferView src, struct ArrowBuffer* dst,
                                    struct ArrowError* error) {
  struct CtDeferred* state = (struct CtDeferred*)compressor->private_data;
  if (++state->adds == state->fail_on_add) {
    ArrowErrorSet(error, "deferred add failed");
    return EIO;
  }
  cr_assert_lt(state->n_pending, 64);
  state->src[state->n_pending] = src;
  state->dst[state->n_pending] = dst;
  state->n_pending++;
  if (state->n_pending > state->max_pending) state->max_pending = state->n_pending;
  return NANOARROW_OK;
}

static ArrowErrorCode CtDeferredWait(struct ArrowIpcCompressor* compressor,
                                     int64_t timeout_ms, struct ArrowError* error) {
  struct CtDeferred* state = (struct CtDeferred*)compressor->private_data;
  ArrowIpcCompressFunction compress = ArrowIpcGetZstdCompressionFunction();
  int i;
  int result = NANOARROW_OK;
  cr_assert_lt(timeout_ms, 0);
  state->waits++;
  for (i = 0; i < state->n_pending && result == NANOARROW_OK; i++) {
    /* zstd when built in, else a copy (which the encoder stores uncompressed). */
    if (compress != NULL) {
      result = compress(state->src[i], 1, state->dst[i], error);
    } else {
      result = ArrowBufferAppend(state->dst[i], state->src[i].data.data,
                                 state->src[i].size_bytes);
    }
  }
  state->n_pending = 0;
  if (state->fail_wait) {
    ArrowErrorSet(error, "deferred wait failed");
    return EIO;
  }
  return result;
}

static void CtDeferredRelease(struct ArrowIpcCompressor* compressor) {
  struct CtDeferred* state = (struct CtDeferred*)compressor->private_data;
  state->releases++;
  compressor->release = NULL;
}

static struct ArrowIpcCompressor CtDeferredCompressor(struct CtDeferred* state) {
  struct ArrowIpcCompressor compressor;
  memset(state, 0, sizeof(*state));
  compressor.compression_type = NANOARROW_IPC_COMPRESSION_TYPE_ZSTD;
  compressor.compress_add = &CtDeferredAdd;
  compressor.compress_wait = &CtDeferredWait;
  compressor.release = &CtDeferredRelease;
  compressor.private_data = state;
  return compressor;
}

Test(ipc_compression_api, encoder_deferred_compressor) {
  struct CtBatch batch;
  struct CtDeferred state;
  struct CtDeferred replaced;
  struct ArrowIpcCompressor compressor;
  struct ArrowIpcEncoder encoder;
  struct ArrowBuffer message;
  struct ArrowBuffer body;
  struct ArrowError error;
  int round;

  CtBatchInit(&batch, 2000);
  ArrowBufferInit(&message);
  ArrowBufferInit(&body);
  CT_OK(ArrowIpcEncoderInit(&encoder));

  /* The encoder takes ownership, and releases a compressor it replaces. */
  compressor = CtDeferredCompressor(&replaced);
  CT_OK(ArrowIpcEncoderSetCompressor(&encoder, &compressor));
  cr_assert_null(compressor.release);
  cr_assert_eq(replaced.releases, 0);
  compressor = CtDeferredCompressor(&state);
  CT_OK(ArrowIpcEncoderSetCompressor(&encoder, &compressor));
  cr_assert_eq(replaced.releases, 1);

  /* Twice: slots are reused by the second message. */
  for (round = 0; round < 2; round++) {
    message.size_bytes = 0;
    body.size_bytes = 0;
    state.adds = 0;
    state.waits = 0;
    state.max_pending = 0;
    cr_assert_eq(
        ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &batch.view, &body, &error),
        NANOARROW_OK, "%s", error.message);
    CT_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &message));
    /* Every non-empty buffer was queued before the single wait. */
    cr_assert_geq(state.max_pending, 4, "max pending %d", state.max_pending);
    cr_assert_eq(state.waits, 1);
    cr_assert_eq(body.size_bytes % 8, 0);
    CtCheckDecodes(&batch, &message, &body, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
  }

  /* An add error fails the batch, after draining the compressor. */
  state.fail_on_add = 2;
  state.adds = 0;
  state.waits = 0;
  body.size_bytes = 3;
  cr_assert_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &batch.view, &body, &error),
               EIO);
  cr_assert_str_eq(error.message, "deferred add failed");
  cr_assert_eq(state.waits, 1);
  cr_assert_eq(state.n_pending, 0);
  cr_assert_eq(body.size_bytes, 3, "the body is rolled back");

  /* So does a wait error. */
  state.fail_on_add = 0;
  state.fail_wait = 1;
  state.waits = 0;
  cr_assert_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &batch.view, &body, &error),
               EIO);
  cr_assert_str_eq(error.message, "deferred wait failed");
  cr_assert_eq(state.waits, 1);
  cr_assert_eq(body.size_bytes, 3);

  /* NONE removes (releases) the compressor: batches are uncompressed again. */
  CT_OK(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                                      NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &error));
  cr_assert_eq(state.releases, 1);
  message.size_bytes = 0;
  body.size_bytes = 0;
  state.adds = 0;
  CT_OK(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &batch.view, &body, &error));
  CT_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &message));
  cr_assert_eq(state.adds, 0);
  CtCheckDecodes(&batch, &message, &body, NANOARROW_IPC_COMPRESSION_TYPE_NONE);

  ArrowIpcEncoderReset(&encoder);
  ArrowBufferReset(&message);
  ArrowBufferReset(&body);
  CtBatchReset(&batch);
}

/* A serial compressor whose function records the level: the level given to the
 * compressor is the one the codec sees, and a "compression" that does not shrink
 * a buffer stores it uncompressed (still declaring the codec). */
Test(ipc_compression_api, encoder_level_reaches_function) {
  struct CtBatch batch;
  struct ArrowIpcCompressor compressor;
  struct ArrowIpcEncoder encoder;
  struct ArrowBuffer message;
  struct ArrowBuffer body;
  struct ArrowError error;

  CtBatchInit(&batch, 100);
  ArrowBufferInit(&message);
  ArrowBufferInit(&body);
  CT_OK(ArrowIpcEncoderInit(&encoder));
  CT_OK(ArrowIpcSerialCompressor(&compressor, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 11));
  CT_OK(ArrowIpcSerialCompressorSetFunction(
      &compressor, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, &CtRecordLevelAndCopy));
  CT_OK(ArrowIpcEncoderSetCompressor(&encoder, &compressor));
  ct_last_level = 0;
  CT_OK(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &batch.view, &body, &error));
  CT_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &message));
  cr_assert_eq(ct_last_level, 11);
  /* Every non-empty buffer starts with the -1 "stored as is" prefix. */
  {
    int64_t prefix;
    memcpy(&prefix, body.data, 8);
    cr_assert_eq(prefix, -1);
  }
  CtCheckDecodes(&batch, &message, &body, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME);
  ArrowIpcEncoderReset(&encoder);
  ArrowBufferReset(&message);
  ArrowBufferReset(&body);
  CtBatchReset(&batch);
}

/* A compressor of an undeclarable codec is refused when a batch is encoded. */
Test(ipc_compression_api, encoder_compressor_unknown_codec) {
  struct CtBatch batch;
  struct CtDeferred state;
  struct ArrowIpcCompressor compressor;
  struct ArrowIpcEncoder encoder;
  struct ArrowBuffer body;
  struct ArrowError error;

  CtBatchInit(&batch, 10);
  ArrowBufferInit(&body);
  CT_OK(ArrowIpcEncoderInit(&encoder));
  compressor = CtDeferredCompressor(&state);
  compressor.compression_type = CT_UNKNOWN_TYPE;
  CT_OK(ArrowIpcEncoderSetCompressor(&encoder, &compressor));
  cr_assert_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &batch.view, &body, &error),
               EINVAL);
  cr_assert_str_eq(error.message, "Unknown compression type with value 3");
  cr_assert_eq(state.adds, 0);
  cr_assert_eq(ArrowIpcEncoderSetCompressor(&encoder, &compressor), EINVAL,
               "a released compressor is refused");
  ArrowIpcEncoderReset(&encoder);
  cr_assert_eq(state.releases, 1);
  ArrowBufferReset(&body);
  CtBatchReset(&batch);
}

/* ---- The writer ---- */

static int CtWriteStream(const struct CtBatch* batch, enum ArrowIpcCompressionType type,
                         int level, struct ArrowBuffer* out, struct ArrowError* error) {
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  int rc;
  CT_OK(ArrowIpcOutputStreamInitBuffer(&stream, out));
  CT_OK(ArrowIpcWriterInit(&writer, &stream));
  rc = ArrowIpcWriterSetCompression(&writer, type, level, error);
  if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteSchema(&writer, &batch->schema, error);
  if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteArrayView(&writer, &batch->view, error);
  if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteArrayView(&writer, NULL, error);
  ArrowIpcWriterReset(&writer);
  return rc;
}

static void CtCheckStreamReadsBack(const struct CtBatch* batch, struct ArrowBuffer* bytes) {
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  int equal = 0;
  CT_OK(ArrowIpcInputStreamInitBuffer(&input, bytes));
  CT_OK(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL));
  CT_OK(ArrowArrayStreamGetSchema(&stream, &schema, &error));
  cr_assert_eq(ArrowArrayStreamGetNext(&stream, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_not_null(array.release);
  CT_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
  CT_OK(ArrowArrayViewSetArray(&view, &array, &error));
  CT_OK(ArrowArrayViewCompare(&view, &batch->view, NANOARROW_COMPARE_IDENTICAL, &equal,
                              &error));
  cr_assert(equal, "read back batch differs: %s", error.message);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  CT_OK(ArrowArrayStreamGetNext(&stream, &array, &error));
  cr_assert_null(array.release);
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
}

Test(ipc_compression_api, writer_levels) {
  if (ArrowIpcGetZstdCompressionFunction() != NULL) {
  struct CtBatch batch;
  struct ArrowBuffer level_1;
  struct ArrowBuffer level_19;
  struct ArrowBuffer uncompressed;
  struct ArrowBuffer ignored;
  struct ArrowError error;

  CtBatchInit(&batch, 20000);
  ArrowBufferInit(&level_1);
  ArrowBufferInit(&level_19);
  ArrowBufferInit(&uncompressed);
  ArrowBufferInit(&ignored);
  CT_OK(CtWriteStream(&batch, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                      NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &uncompressed, &error));
  cr_assert_eq(CtWriteStream(&batch, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 1, &level_1,
                             &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(CtWriteStream(&batch, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 19, &level_19,
                             &error),
               NANOARROW_OK, "%s", error.message);
  cr_log_info("stream of %ld rows: uncompressed %ld, zstd 1 %ld, zstd 19 %ld bytes",
              (long)batch.view.length, (long)uncompressed.size_bytes,
              (long)level_1.size_bytes, (long)level_19.size_bytes);
  cr_assert_lt(level_1.size_bytes, uncompressed.size_bytes);
  cr_assert_neq(level_19.size_bytes, level_1.size_bytes,
                "the level must reach the codec through the writer");
  cr_assert_lt(level_19.size_bytes, level_1.size_bytes);
  CtCheckStreamReadsBack(&batch, &level_1);
  CtCheckStreamReadsBack(&batch, &level_19);

  cr_assert_eq(CtWriteStream(&batch, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 1000, &ignored,
                             &error),
               EINVAL);
  cr_assert(strstr(error.message, "Compression level 1000 is out of range for zstd") ==
                error.message,
            "%s", error.message);
  cr_assert_eq(ignored.size_bytes, 0, "nothing is written after a refused level");

  ArrowBufferReset(&ignored);
  ArrowBufferReset(&uncompressed);
  ArrowBufferReset(&level_19);
  ArrowBufferReset(&level_1);
  CtBatchReset(&batch);
  } else {
  cr_skip_test("built without NANOARROW_IPC_WITH_ZSTD");
  }
}

Test(ipc_compression_api, writer_lz4_levels) {
  if (ArrowIpcGetLZ4CompressionFunction() != NULL) {
  struct CtBatch batch;
  struct ArrowBuffer fast;
  struct ArrowBuffer high;
  struct ArrowError error;

  CtBatchInit(&batch, 20000);
  ArrowBufferInit(&fast);
  ArrowBufferInit(&high);
  CT_OK(CtWriteStream(&batch, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, -65536, &fast,
                      &error));
  CT_OK(CtWriteStream(&batch, NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 12, &high, &error));
  cr_log_info("lz4 stream: level -65536 %ld, 12 %ld bytes", (long)fast.size_bytes,
              (long)high.size_bytes);
  cr_assert_lt(high.size_bytes, fast.size_bytes);
  CtCheckStreamReadsBack(&batch, &fast);
  CtCheckStreamReadsBack(&batch, &high);
  ArrowBufferReset(&high);
  ArrowBufferReset(&fast);
  CtBatchReset(&batch);
  } else {
  cr_skip_test("built without NANOARROW_IPC_WITH_LZ4");
  }
}

/* Schemas encoded while a compressor is set declare the COMPRESSED_BODY feature. */
static int32_t CtSchemaFeatures(struct ArrowIpcEncoder* encoder,
                                const struct ArrowSchema* schema) {
  struct ArrowIpcDecoder decoder;
  struct ArrowBuffer message;
  struct ArrowBufferView data;
  struct ArrowError error;
  int32_t features;
  ArrowBufferInit(&message);
  CT_OK(ArrowIpcEncoderEncodeSchema(encoder, schema, &error));
  CT_OK(ArrowIpcEncoderFinalizeBuffer(encoder, 1, &message));
  CT_OK(ArrowIpcDecoderInit(&decoder));
  data.data.data = message.data;
  data.size_bytes = message.size_bytes;
  cr_assert_eq(ArrowIpcDecoderDecodeHeader(&decoder, data, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_SCHEMA);
  features = decoder.feature_flags;
  ArrowIpcDecoderReset(&decoder);
  ArrowBufferReset(&message);
  return features;
}

Test(ipc_compression_api, schema_declares_compression) {
  struct CtBatch batch;
  struct CtDeferred state;
  struct ArrowIpcCompressor compressor;
  struct ArrowIpcEncoder encoder;
  struct ArrowError error;

  CtBatchInit(&batch, 1);
  CT_OK(ArrowIpcEncoderInit(&encoder));
  cr_assert_eq(CtSchemaFeatures(&encoder, &batch.schema), 0);
  compressor = CtDeferredCompressor(&state);
  CT_OK(ArrowIpcEncoderSetCompressor(&encoder, &compressor));
  cr_assert_eq(CtSchemaFeatures(&encoder, &batch.schema),
               NANOARROW_IPC_FEATURE_COMPRESSED_BODY);
  CT_OK(ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                                      NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &error));
  cr_assert_eq(CtSchemaFeatures(&encoder, &batch.schema), 0);
  ArrowIpcEncoderReset(&encoder);
  CtBatchReset(&batch);
}
