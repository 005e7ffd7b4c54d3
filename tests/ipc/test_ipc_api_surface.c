/* Compile check of the IPC API against nanoarrow's (tests/ipc/api_surface_ipc.h), and
 * the behaviour of the names nanoarrow's main branch added after 0.9.0 that this
 * library lacked: the custom metadata of a Message itself
 * (ArrowIpcEncoderSetMessageMetadata, ArrowIpcDecoderGetMessageMetadata,
 * ArrowIpcDecoderGetMessageMetadataValue, ArrowIpcDecoderVisitMessageMetadata). */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <criterion/criterion.h>

#include "common/api_surface.h"
#include "ipc/api_surface_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define NA_CHECK_ENUM(NAME, VALUE) typedef char na_enum_##NAME[((NAME) == (VALUE)) ? 1 : -1];
NA_ENUM_IPC(NA_CHECK_ENUM)
NA_MEMBER_IPC(NA_CHECK_MEMBER_TYPE)
NA_CHECK_SAME_TYPE(ArrowIpcDecompressFunction, NaIpcDecompressFunctionType,
                   decompress_function)
NA_CHECK_SAME_TYPE(ArrowIpcMetadataVisitFunction, NaIpcMetadataVisitFunctionType,
                   metadata_visit_function)

static int64_t CountIpcMembersOutOfOrder(void) {
  int64_t n_out_of_order = 0;
  const char* last_struct = "";
  size_t last_offset = 0;
  NA_MEMBER_IPC(NA_CHECK_MEMBER_ORDER)
  return n_out_of_order;
}

Test(ipc_api_surface, functions_have_nanoarrows_signatures) {
  NaApiFn fns[128];
  int64_t n = 0;
  int64_t i;
  NA_API_IPC(NA_TAKE_FUNCTION)
  cr_assert_gt(n, 60, "only %ld functions listed", (long)n);
  for (i = 0; i < n; i++) cr_assert_not_null(fns[i], "function %ld", (long)i);
  cr_assert_eq(CountIpcMembersOutOfOrder(), 0);
}

/* ---- Message custom metadata ---- */

#define MM_OK(EXPR)                                                      \
  do {                                                                   \
    int mm_result = (EXPR);                                              \
    cr_assert_eq(mm_result, NANOARROW_OK, "%s: %d (%s)", #EXPR, mm_result, \
                 error.message);                                         \
  } while (0)

static void MmBuildMetadata(struct ArrowBuffer* metadata, const char* const* pairs,
                            int n_pairs) {
  int i;
  cr_assert_eq(ArrowMetadataBuilderInit(metadata, NULL), NANOARROW_OK);
  for (i = 0; i < n_pairs; i++) {
    cr_assert_eq(ArrowMetadataBuilderAppend(metadata, ArrowCharView(pairs[2 * i]),
                                            ArrowCharView(pairs[2 * i + 1])),
                 NANOARROW_OK);
  }
}

static void MmInt32Schema(struct ArrowSchema* schema) {
  cr_assert_eq(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(schema, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema->children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[0], "x"), NANOARROW_OK);
}

/* A struct<x: int32> batch of values 0..n-1 and its view. */
static void MmInt32Batch(const struct ArrowSchema* schema, int n, struct ArrowArray* array,
                         struct ArrowArrayView* view) {
  int i;
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (i = 0; i < n; i++) {
    cr_assert_eq(ArrowArrayAppendInt(array->children[0], i), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(array), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(view, schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(view, array, NULL), NANOARROW_OK);
}

/* The last encoded message, encapsulated, appended to out; returns where it starts. */
static int64_t MmFinish(struct ArrowIpcEncoder* encoder, struct ArrowBuffer* out) {
  int64_t start = out->size_bytes;
  cr_assert_eq(ArrowIpcEncoderFinalizeBuffer(encoder, 1, out), NANOARROW_OK);
  return start;
}

static struct ArrowBufferView MmView(const struct ArrowBuffer* buffer, int64_t start) {
  struct ArrowBufferView view;
  view.data.as_uint8 = buffer->data + start;
  view.size_bytes = buffer->size_bytes - start;
  return view;
}

struct MmVisitLog {
  char text[256];
  int n_calls;
  int stop_at;
};

static ArrowErrorCode MmVisit(struct ArrowStringView key, struct ArrowStringView value,
                              void* private_data, struct ArrowError* error) {
  struct MmVisitLog* log = (struct MmVisitLog*)private_data;
  size_t used = strlen(log->text);
  log->n_calls++;
  snprintf(log->text + used, sizeof(log->text) - used, "%.*s=%.*s;", (int)key.size_bytes,
           key.data, (int)value.size_bytes, value.data);
  if (log->n_calls == log->stop_at) {
    ArrowErrorSet(error, "stopped at %.*s", (int)key.size_bytes, key.data);
    return ECANCELED;
  }
  return NANOARROW_OK;
}

Test(ipc_message_metadata, schema_message_carries_pairs_to_the_decoder) {
  static const char* const pairs[] = {"origin", "sensor-7", "empty", "", "origin", "dup"};
  struct ArrowError error;
  struct ArrowIpcEncoder encoder;
  struct ArrowIpcDecoder decoder;
  struct ArrowSchema schema;
  struct ArrowBuffer metadata;
  struct ArrowBuffer out;
  struct ArrowBuffer copy;
  struct ArrowStringView value;
  struct MmVisitLog log;
  int64_t start;

  error.message[0] = '\0';
  MmInt32Schema(&schema);
  ArrowBufferInit(&out);
  MM_OK(ArrowIpcEncoderInit(&encoder));
  MmBuildMetadata(&metadata, pairs, 3);
  MM_OK(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error));
  cr_assert_eq(metadata.size_bytes, 0, "the metadata is moved into the encoder");
  cr_assert_null(metadata.data);
  MM_OK(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error));
  start = MmFinish(&encoder, &out);

  MM_OK(ArrowIpcDecoderInit(&decoder));
  cr_assert_eq(ArrowIpcDecoderGetMessageMetadata(&decoder, &copy, &error), EINVAL,
               "before any header");
  cr_assert(strstr(error.message, "ArrowIpcDecoderVerifyHeader") != NULL, "%s",
            error.message);
  MM_OK(ArrowIpcDecoderVerifyHeader(&decoder, MmView(&out, start), &error));

  MM_OK(ArrowIpcDecoderGetMessageMetadata(&decoder, &copy, &error));
  cr_assert_not_null(copy.data);
  cr_assert_eq(ArrowMetadataSizeOf((const char*)copy.data), copy.size_bytes);
  {
    struct ArrowMetadataReader reader;
    struct ArrowStringView key;
    int i;
    MM_OK(ArrowMetadataReaderInit(&reader, (const char*)copy.data));
    cr_assert_eq(reader.remaining_keys, 3);
    for (i = 0; i < 3; i++) {
      MM_OK(ArrowMetadataReaderRead(&reader, &key, &value));
      cr_assert_eq(key.size_bytes, (int64_t)strlen(pairs[2 * i]));
      cr_assert_eq(memcmp(key.data, pairs[2 * i], (size_t)key.size_bytes), 0);
      cr_assert_eq(value.size_bytes, (int64_t)strlen(pairs[2 * i + 1]));
      cr_assert_eq(memcmp(value.data, pairs[2 * i + 1], (size_t)value.size_bytes), 0);
    }
  }
  ArrowBufferReset(&copy);

  /* The first pair with the key wins; a missing key leaves value_out alone. */
  value = ArrowCharView(NULL);
  MM_OK(ArrowIpcDecoderGetMessageMetadataValue(&decoder, ArrowCharView("origin"), &value,
                                               &error));
  cr_assert_eq(value.size_bytes, 8);
  cr_assert_eq(memcmp(value.data, "sensor-7", 8), 0);
  cr_assert(value.data > (const char*)out.data &&
                value.data < (const char*)out.data + out.size_bytes,
            "the value points into the message");
  value = ArrowCharView(NULL);
  MM_OK(ArrowIpcDecoderGetMessageMetadataValue(&decoder, ArrowCharView("empty"), &value,
                                               &error));
  cr_assert_not_null(value.data);
  cr_assert_eq(value.size_bytes, 0);
  value = ArrowCharView(NULL);
  MM_OK(ArrowIpcDecoderGetMessageMetadataValue(&decoder, ArrowCharView("origi"), &value,
                                               &error));
  cr_assert_null(value.data, "no pair has the key");

  memset(&log, 0, sizeof(log));
  MM_OK(ArrowIpcDecoderVisitMessageMetadata(&decoder, &MmVisit, &log, &error));
  cr_assert_str_eq(log.text, "origin=sensor-7;empty=;origin=dup;");
  memset(&log, 0, sizeof(log));
  log.stop_at = 2;
  cr_assert_eq(ArrowIpcDecoderVisitMessageMetadata(&decoder, &MmVisit, &log, &error),
               ECANCELED);
  cr_assert_str_eq(log.text, "origin=sensor-7;empty=;");
  cr_assert_str_eq(error.message, "stopped at empty");
  cr_assert_eq(ArrowIpcDecoderVisitMessageMetadata(&decoder, NULL, &log, &error), EINVAL);

  /* The same after a full decode of the header. */
  MM_OK(ArrowIpcDecoderDecodeHeader(&decoder, MmView(&out, start), &error));
  value = ArrowCharView(NULL);
  MM_OK(ArrowIpcDecoderGetMessageMetadataValue(&decoder, ArrowCharView("origin"), &value,
                                               &error));
  cr_assert_eq(value.size_bytes, 8);

  /* A header that fails to verify leaves no message to ask about. */
  {
    uint8_t junk[16];
    struct ArrowBufferView junk_view;
    memset(junk, 0xff, sizeof(junk));
    junk_view.data.as_uint8 = junk;
    junk_view.size_bytes = sizeof(junk);
    cr_assert_neq(ArrowIpcDecoderVerifyHeader(&decoder, junk_view, &error), NANOARROW_OK);
    cr_assert_eq(
        ArrowIpcDecoderGetMessageMetadataValue(&decoder, ArrowCharView("origin"), &value,
                                               &error),
        EINVAL);
  }

  ArrowIpcDecoderReset(&decoder);
  ArrowIpcEncoderReset(&encoder);
  ArrowBufferReset(&out);
  ArrowSchemaRelease(&schema);
}

/* Metadata applies to one message only; record batches before and after it decode
 * to the same values (the encoder's cached batch header must not pick it up). */
Test(ipc_message_metadata, applies_to_the_next_message_only) {
  static const char* const pairs[] = {"batch", "second"};
  struct ArrowError error;
  struct ArrowIpcEncoder encoder;
  struct ArrowIpcDecoder decoder;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowBuffer metadata;
  struct ArrowBuffer out;
  struct ArrowBuffer body;
  struct ArrowBuffer copy;
  int64_t starts[4];
  int64_t body_starts[4];
  int64_t body_sizes[4];
  int i;

  error.message[0] = '\0';
  MmInt32Schema(&schema);
  MmInt32Batch(&schema, 5, &array, &view);
  ArrowBufferInit(&out);
  ArrowBufferInit(&body);
  MM_OK(ArrowIpcEncoderInit(&encoder));
  MM_OK(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error));
  starts[0] = MmFinish(&encoder, &out);
  for (i = 1; i < 4; i++) {
    if (i == 2) {
      MmBuildMetadata(&metadata, pairs, 1);
      MM_OK(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error));
    }
    body_starts[i] = body.size_bytes;
    MM_OK(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &view, &body, &error));
    body_sizes[i] = body.size_bytes - body_starts[i];
    starts[i] = MmFinish(&encoder, &out);
  }

  MM_OK(ArrowIpcDecoderInit(&decoder));
  MM_OK(ArrowIpcDecoderDecodeHeader(&decoder, MmView(&out, starts[0]), &error));
  MM_OK(ArrowIpcDecoderGetMessageMetadata(&decoder, &copy, &error));
  cr_assert_null(copy.data, "the schema message has no custom metadata");
  cr_assert_eq(copy.size_bytes, 0);
  MM_OK(ArrowIpcDecoderSetSchema(&decoder, &schema, &error));
  for (i = 1; i < 4; i++) {
    struct ArrowBufferView body_view;
    struct ArrowArrayView* decoded;
    struct ArrowStringView value = ArrowCharView(NULL);
    int64_t j;
    MM_OK(ArrowIpcDecoderDecodeHeader(&decoder, MmView(&out, starts[i]), &error));
    cr_assert_eq(decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH);
    MM_OK(ArrowIpcDecoderGetMessageMetadataValue(&decoder, ArrowCharView("batch"), &value,
                                                 &error));
    if (i == 2) {
      cr_assert_eq(value.size_bytes, 6);
      cr_assert_eq(memcmp(value.data, "second", 6), 0);
    } else {
      cr_assert_null(value.data, "batch %d has no metadata", i);
    }
    body_view.data.as_uint8 = body.data + body_starts[i];
    body_view.size_bytes = body_sizes[i];
    MM_OK(ArrowIpcDecoderDecodeArrayView(&decoder, body_view, -1, &decoded, &error));
    cr_assert_eq(decoded->length, 5);
    for (j = 0; j < 5; j++) {
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(decoded->children[0], j), j);
    }
  }

  ArrowIpcDecoderReset(&decoder);
  ArrowIpcEncoderReset(&encoder);
  ArrowBufferReset(&out);
  ArrowBufferReset(&body);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(ipc_message_metadata, setting_none_clears_and_bad_metadata_is_refused) {
  static const char* const pairs[] = {"k", "v"};
  struct ArrowError error;
  struct ArrowIpcEncoder encoder;
  struct ArrowIpcDecoder decoder;
  struct ArrowSchema schema;
  struct ArrowBuffer metadata;
  struct ArrowBuffer out;
  struct ArrowBuffer copy;
  int64_t start;
  int32_t bad_count = -1;
  uint8_t truncated[12];
  int32_t one = 1;
  int32_t too_long = 100;

  error.message[0] = '\0';
  MmInt32Schema(&schema);
  ArrowBufferInit(&out);
  MM_OK(ArrowIpcEncoderInit(&encoder));
  MM_OK(ArrowIpcDecoderInit(&decoder));

  /* Set, then cleared with NULL. */
  MmBuildMetadata(&metadata, pairs, 1);
  MM_OK(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error));
  MM_OK(ArrowIpcEncoderSetMessageMetadata(&encoder, NULL, &error));
  MM_OK(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error));
  start = MmFinish(&encoder, &out);
  MM_OK(ArrowIpcDecoderVerifyHeader(&decoder, MmView(&out, start), &error));
  MM_OK(ArrowIpcDecoderGetMessageMetadata(&decoder, &copy, &error));
  cr_assert_null(copy.data);

  /* No pairs at all is no metadata. */
  MmBuildMetadata(&metadata, pairs, 0);
  MM_OK(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error));
  MM_OK(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error));
  start = MmFinish(&encoder, &out);
  MM_OK(ArrowIpcDecoderVerifyHeader(&decoder, MmView(&out, start), &error));
  MM_OK(ArrowIpcDecoderGetMessageMetadata(&decoder, &copy, &error));
  cr_assert_null(copy.data);

  /* Malformed metadata: refused, and left with the caller. */
  ArrowBufferInit(&metadata);
  cr_assert_eq(ArrowBufferAppend(&metadata, &bad_count, 4), NANOARROW_OK);
  cr_assert_eq(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error), EINVAL);
  cr_assert(strstr(error.message, "negative key count") != NULL, "%s", error.message);
  cr_assert_eq(metadata.size_bytes, 4);
  ArrowBufferReset(&metadata);

  memcpy(truncated, &one, 4);
  memcpy(truncated + 4, &too_long, 4);
  memcpy(truncated + 8, "abcd", 4);
  ArrowBufferInit(&metadata);
  cr_assert_eq(ArrowBufferAppend(&metadata, truncated, sizeof(truncated)), NANOARROW_OK);
  cr_assert_eq(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error), EINVAL);
  cr_assert(strstr(error.message, "key 0 has length 100") != NULL, "%s", error.message);
  ArrowBufferReset(&metadata);

  ArrowBufferInit(&metadata);
  cr_assert_eq(ArrowBufferAppend(&metadata, &one, 2), NANOARROW_OK);
  cr_assert_eq(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error), EINVAL);
  ArrowBufferReset(&metadata);

  /* A refused call does not disturb what was set before it. */
  MmBuildMetadata(&metadata, pairs, 1);
  MM_OK(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error));
  ArrowBufferInit(&metadata);
  cr_assert_eq(ArrowBufferAppend(&metadata, &bad_count, 4), NANOARROW_OK);
  cr_assert_eq(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error), EINVAL);
  ArrowBufferReset(&metadata);
  MM_OK(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error));
  start = MmFinish(&encoder, &out);
  MM_OK(ArrowIpcDecoderVerifyHeader(&decoder, MmView(&out, start), &error));
  {
    struct ArrowStringView value = ArrowCharView(NULL);
    MM_OK(ArrowIpcDecoderGetMessageMetadataValue(&decoder, ArrowCharView("k"), &value,
                                                 &error));
    cr_assert_eq(value.size_bytes, 1);
    cr_assert_eq(value.data[0], 'v');
  }

  ArrowIpcDecoderReset(&decoder);
  ArrowIpcEncoderReset(&encoder);
  ArrowBufferReset(&out);
  ArrowSchemaRelease(&schema);
}

Test(ipc_message_metadata, dictionary_batch_message_carries_pairs) {
  static const char* const pairs[] = {"dictionary", "yes"};
  struct ArrowError error;
  struct ArrowIpcEncoder encoder;
  struct ArrowIpcDecoder decoder;
  struct ArrowArray values;
  struct ArrowArrayView values_view;
  struct ArrowBuffer metadata;
  struct ArrowBuffer out;
  struct ArrowBuffer body;
  struct ArrowStringView value = ArrowCharView(NULL);
  int64_t start;

  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&values, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&values), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&values, ArrowCharView("a")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&values, NULL), NANOARROW_OK);
  ArrowArrayViewInitFromType(&values_view, NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowArrayViewSetArray(&values_view, &values, NULL), NANOARROW_OK);

  ArrowBufferInit(&out);
  ArrowBufferInit(&body);
  MM_OK(ArrowIpcEncoderInit(&encoder));
  MmBuildMetadata(&metadata, pairs, 1);
  MM_OK(ArrowIpcEncoderSetMessageMetadata(&encoder, &metadata, &error));
  MM_OK(ArrowIpcEncoderEncodeSimpleDictionaryBatch(&encoder, 3, 0, &values_view, &body,
                                                   &error));
  start = MmFinish(&encoder, &out);

  MM_OK(ArrowIpcDecoderInit(&decoder));
  MM_OK(ArrowIpcDecoderVerifyHeader(&decoder, MmView(&out, start), &error));
  cr_assert_eq(decoder.message_type, NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH);
  MM_OK(ArrowIpcDecoderGetMessageMetadataValue(&decoder, ArrowCharView("dictionary"),
                                               &value, &error));
  cr_assert_eq(value.size_bytes, 3);
  cr_assert_eq(memcmp(value.data, "yes", 3), 0);

  ArrowIpcDecoderReset(&decoder);
  ArrowIpcEncoderReset(&encoder);
  ArrowBufferReset(&out);
  ArrowBufferReset(&body);
  ArrowArrayViewReset(&values_view);
  ArrowArrayRelease(&values);
}
