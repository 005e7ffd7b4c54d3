/* Delta dictionary batches of nested, union, view and run-end encoded value types:
 * streams written by our writer (which sends a grown dictionary as a delta) read
 * back by our reader, which must append each delta to the dictionary it holds. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#if defined(NANOARROW_TEST_HAVE_TESTING)
#include "nanoarrow/nanoarrow_testing.h"
#endif
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define DELTA_OK(expr)                                                   \
  do {                                                                   \
    ArrowErrorCode delta_rc_ = (expr);                                   \
    cr_assert_eq(delta_rc_, NANOARROW_OK, "%s failed: %d", #expr, delta_rc_); \
  } while (0)

/* Dictionary value i carries this int32 somewhere; its little-endian bytes
 * appear in the stream once per time value i is sent. */
#define DELTA_MARKER(i) ((int32_t)(0x3C5A0000 + (i)))

/* Dictionary sizes of the three batches: each one grows the dictionary. */
static const int64_t kDeltaSizes[] = {2, 5, 9};
#define DELTA_N_BATCHES 3

typedef void (*DeltaSchemaFn)(struct ArrowSchema* values);
typedef void (*DeltaFillFn)(struct ArrowArray* values, int64_t n);

static void DeltaLongString(char* out, int64_t i) {
  /* Longer than 12 bytes, so binary views keep it in a variadic buffer. */
  snprintf(out, 64, "dictionary value number %d", (int)i);
}

/* ---- Value types ---- */

static void DeltaListSchema(struct ArrowSchema* values) {
  DELTA_OK(ArrowSchemaSetType(values, NANOARROW_TYPE_LIST));
  DELTA_OK(ArrowSchemaSetType(values->children[0], NANOARROW_TYPE_INT32));
}

/* Value i: [marker(i), 0, 1, ..., i % 3 - 1], every fourth one null. */
static void DeltaListFill(struct ArrowArray* values, int64_t n) {
  int64_t i;
  int64_t j;
  for (i = 0; i < n; i++) {
    if (i % 4 == 3) {
      DELTA_OK(ArrowArrayAppendNull(values, 1));
      continue;
    }
    DELTA_OK(ArrowArrayAppendInt(values->children[0], DELTA_MARKER(i)));
    for (j = 0; j < i % 3; j++) DELTA_OK(ArrowArrayAppendInt(values->children[0], j));
    DELTA_OK(ArrowArrayFinishElement(values));
  }
}

static void DeltaListViewSchema(struct ArrowSchema* values) {
  DELTA_OK(ArrowSchemaSetType(values, NANOARROW_TYPE_LIST_VIEW));
  DELTA_OK(ArrowSchemaSetType(values->children[0], NANOARROW_TYPE_INT32));
}

static void DeltaStructSchema(struct ArrowSchema* values) {
  DELTA_OK(ArrowSchemaSetTypeStruct(values, 2));
  DELTA_OK(ArrowSchemaSetType(values->children[0], NANOARROW_TYPE_INT32));
  DELTA_OK(ArrowSchemaSetName(values->children[0], "number"));
  DELTA_OK(ArrowSchemaSetType(values->children[1], NANOARROW_TYPE_STRING));
  DELTA_OK(ArrowSchemaSetName(values->children[1], "name"));
}

/* Value i: {marker(i), "name <i>"}, the string null when i % 3 == 2. */
static void DeltaStructFill(struct ArrowArray* values, int64_t n) {
  char text[64];
  int64_t i;
  for (i = 0; i < n; i++) {
    DELTA_OK(ArrowArrayAppendInt(values->children[0], DELTA_MARKER(i)));
    if (i % 3 == 2) {
      DELTA_OK(ArrowArrayAppendNull(values->children[1], 1));
    } else {
      snprintf(text, sizeof(text), "name %d", (int)i);
      DELTA_OK(ArrowArrayAppendString(values->children[1], ArrowCharView(text)));
    }
    DELTA_OK(ArrowArrayFinishElement(values));
  }
}

static void DeltaStringViewSchema(struct ArrowSchema* values) {
  DELTA_OK(ArrowSchemaSetType(values, NANOARROW_TYPE_STRING_VIEW));
}

/* Value i: long strings, short ones ("s<i>") when i % 3 == 1, null when i % 5 == 4. */
static void DeltaStringViewFill(struct ArrowArray* values, int64_t n) {
  char text[64];
  int64_t i;
  for (i = 0; i < n; i++) {
    if (i % 5 == 4) {
      DELTA_OK(ArrowArrayAppendNull(values, 1));
      continue;
    }
    if (i % 3 == 1) {
      snprintf(text, sizeof(text), "s%d", (int)i);
    } else {
      DeltaLongString(text, i);
    }
    DELTA_OK(ArrowArrayAppendString(values, ArrowCharView(text)));
  }
}

static void DeltaUnionSchema(struct ArrowSchema* values, enum ArrowType type) {
  DELTA_OK(ArrowSchemaSetTypeUnion(values, type, 2));
  DELTA_OK(ArrowSchemaSetType(values->children[0], NANOARROW_TYPE_INT32));
  DELTA_OK(ArrowSchemaSetName(values->children[0], "int"));
  DELTA_OK(ArrowSchemaSetType(values->children[1], NANOARROW_TYPE_STRING));
  DELTA_OK(ArrowSchemaSetName(values->children[1], "text"));
}

static void DeltaDenseUnionSchema(struct ArrowSchema* values) {
  DeltaUnionSchema(values, NANOARROW_TYPE_DENSE_UNION);
}

static void DeltaSparseUnionSchema(struct ArrowSchema* values) {
  DeltaUnionSchema(values, NANOARROW_TYPE_SPARSE_UNION);
}

/* Value i: marker(i) (int) when i is even, "text <i>" otherwise. */
static void DeltaUnionFill(struct ArrowArray* values, int64_t n) {
  char text[64];
  int64_t i;
  for (i = 0; i < n; i++) {
    if (i % 2 == 0) {
      DELTA_OK(ArrowArrayAppendInt(values->children[0], DELTA_MARKER(i)));
      DELTA_OK(ArrowArrayFinishUnionElement(values, 0));
    } else {
      snprintf(text, sizeof(text), "text %d", (int)i);
      DELTA_OK(ArrowArrayAppendString(values->children[1], ArrowCharView(text)));
      DELTA_OK(ArrowArrayFinishUnionElement(values, 1));
    }
  }
}

static void DeltaRunEndSchema(struct ArrowSchema* values) {
  DELTA_OK(ArrowSchemaSetTypeRunEndEncoded(values, NANOARROW_TYPE_INT32));
  DELTA_OK(ArrowSchemaSetType(values->children[1], NANOARROW_TYPE_INT32));
}

/* Run i: marker(i) repeated i % 3 + 1 times. */
static void DeltaRunEndFill(struct ArrowArray* values, int64_t n) {
  int64_t run_end = 0;
  int64_t i;
  for (i = 0; i < n; i++) {
    run_end += i % 3 + 1;
    DELTA_OK(ArrowArrayAppendInt(values->children[0], run_end));
    DELTA_OK(ArrowArrayAppendInt(values->children[1], DELTA_MARKER(i)));
  }
  values->length = run_end;
}

static void DeltaFixedSizeListSchema(struct ArrowSchema* values) {
  DELTA_OK(ArrowSchemaSetTypeFixedSize(values, NANOARROW_TYPE_FIXED_SIZE_LIST, 2));
  DELTA_OK(ArrowSchemaSetType(values->children[0], NANOARROW_TYPE_INT32));
}

/* Value i: [marker(i), i]. */
static void DeltaFixedSizeListFill(struct ArrowArray* values, int64_t n) {
  int64_t i;
  for (i = 0; i < n; i++) {
    DELTA_OK(ArrowArrayAppendInt(values->children[0], DELTA_MARKER(i)));
    DELTA_OK(ArrowArrayAppendInt(values->children[0], i));
    DELTA_OK(ArrowArrayFinishElement(values));
  }
}

static void DeltaNestedDictionarySchema(struct ArrowSchema* values) {
  DELTA_OK(ArrowSchemaSetType(values, NANOARROW_TYPE_LIST));
  DELTA_OK(ArrowSchemaSetType(values->children[0], NANOARROW_TYPE_INT32));
  DELTA_OK(ArrowSchemaAllocateDictionary(values->children[0]));
  ArrowSchemaInit(values->children[0]->dictionary);
  ArrowSchemaInit(values->children[0]->dictionary);
  DELTA_OK(ArrowSchemaSetType(values->children[0]->dictionary, NANOARROW_TYPE_STRING));
}

/* list<dictionary<int32, string>>: the inner dictionary grows with the outer one
 * (word i), value i is [word i, word 0]. */
static void DeltaNestedDictionaryFill(struct ArrowArray* values, int64_t n) {
  char text[64];
  int64_t i;
  for (i = 0; i < n; i++) {
    snprintf(text, sizeof(text), "word %d", (int)i);
    DELTA_OK(ArrowArrayAppendString(values->children[0]->dictionary, ArrowCharView(text)));
    DELTA_OK(ArrowArrayAppendInt(values->children[0], i));
    DELTA_OK(ArrowArrayAppendInt(values->children[0], 0));
    DELTA_OK(ArrowArrayFinishElement(values));
  }
}

/* ---- Streams ---- */

/* struct<d: dictionary<int32, values>> with an n-value dictionary and indices
 * [length - 1, 0, length - 2] (length: the dictionary's logical length). */
static void DeltaBatch(struct ArrowSchema* schema, struct ArrowArray* batch,
                       DeltaSchemaFn make_values, DeltaFillFn fill, int64_t n) {
  struct ArrowError error;
  struct ArrowArray* dictionary;
  ArrowSchemaInit(schema);
  DELTA_OK(ArrowSchemaSetTypeStruct(schema, 1));
  DELTA_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
  DELTA_OK(ArrowSchemaSetName(schema->children[0], "d"));
  DELTA_OK(ArrowSchemaAllocateDictionary(schema->children[0]));
  ArrowSchemaInit(schema->children[0]->dictionary);
  ArrowSchemaInit(schema->children[0]->dictionary);
  make_values(schema->children[0]->dictionary);

  cr_assert_eq(ArrowArrayInitFromSchema(batch, schema, &error), NANOARROW_OK, "%s",
               error.message);
  DELTA_OK(ArrowArrayStartAppending(batch));
  dictionary = batch->children[0]->dictionary;
  fill(dictionary, n);
  DELTA_OK(ArrowArrayAppendInt(batch->children[0], dictionary->length - 1));
  DELTA_OK(ArrowArrayFinishElement(batch));
  DELTA_OK(ArrowArrayAppendInt(batch->children[0], 0));
  DELTA_OK(ArrowArrayFinishElement(batch));
  DELTA_OK(ArrowArrayAppendInt(batch->children[0], dictionary->length - 2));
  DELTA_OK(ArrowArrayFinishElement(batch));
  cr_assert_eq(ArrowArrayFinishBuilding(batch, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
}

static void DeltaWrite(struct ArrowBuffer* bytes, DeltaSchemaFn make_values,
                       DeltaFillFn fill) {
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowError error;
  int k;

  DELTA_OK(ArrowIpcOutputStreamInitBuffer(&output, bytes));
  DELTA_OK(ArrowIpcWriterInit(&writer, &output));
  for (k = 0; k < DELTA_N_BATCHES; k++) {
    struct ArrowSchema schema;
    struct ArrowArray batch;
    struct ArrowArrayView view;
    DeltaBatch(&schema, &batch, make_values, fill, kDeltaSizes[k]);
    if (k == 0) {
      cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), NANOARROW_OK, "%s",
                   error.message);
    }
    cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &batch, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), NANOARROW_OK, "%s",
                 error.message);
    ArrowArrayViewReset(&view);
    ArrowArrayRelease(&batch);
    ArrowSchemaRelease(&schema);
  }
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowIpcWriterReset(&writer);
}

static int64_t DeltaCountMarker(const struct ArrowBuffer* bytes, int32_t marker) {
  uint8_t le[4];
  int64_t count = 0;
  int64_t i;
  le[0] = (uint8_t)(marker & 0xFF);
  le[1] = (uint8_t)((marker >> 8) & 0xFF);
  le[2] = (uint8_t)((marker >> 16) & 0xFF);
  le[3] = (uint8_t)((marker >> 24) & 0xFF);
  for (i = 0; i + 4 <= bytes->size_bytes; i++) count += memcmp(bytes->data + i, le, 4) == 0;
  return count;
}

/* Checks that batch k (read with read_schema) equals the one written. */
static void DeltaCheckBatch(const struct ArrowSchema* read_schema, struct ArrowArray* read,
                            DeltaSchemaFn make_values, DeltaFillFn fill, int k) {
  struct ArrowSchema schema;
  struct ArrowArray expected;
  struct ArrowArrayView expected_view;
  struct ArrowArrayView read_view;
  struct ArrowError error;
  int equal = 0;
  DeltaBatch(&schema, &expected, make_values, fill, kDeltaSizes[k]);
  DELTA_OK(ArrowArrayViewInitFromSchema(&expected_view, &schema, &error));
  DELTA_OK(ArrowArrayViewSetArray(&expected_view, &expected, &error));
  DELTA_OK(ArrowArrayViewInitFromSchema(&read_view, read_schema, &error));
  cr_assert_eq(ArrowArrayViewSetArray(&read_view, read, &error), NANOARROW_OK,
               "batch %d: %s", k, error.message);
  cr_assert_eq(ArrowArrayViewValidate(&read_view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "batch %d: %s", k, error.message);
  cr_assert_eq(read_view.children[0]->dictionary->length,
               expected_view.children[0]->dictionary->length, "batch %d", k);
#if defined(NANOARROW_TEST_HAVE_TESTING)
  DELTA_OK(ArrowTestingCompareArray(&schema, read, &expected, &equal, &error));
  cr_assert(equal, "batch %d differs: %s", k, error.message);
#else
  (void)equal; /* values are compared only with the testing library */
#endif
  ArrowArrayViewReset(&read_view);
  ArrowArrayViewReset(&expected_view);
  ArrowArrayRelease(&expected);
  ArrowSchemaRelease(&schema);
}

/* Reads bytes (taken over) back and checks every batch equals the one written,
 * dictionary included; shared selects zero-copy batches. With keep, every batch
 * is read before any is checked, so later deltas must not disturb the
 * dictionaries earlier batches hold (the reader appends into spare capacity past
 * what they read, or copies the dictionary);
 * without, each batch is checked and released before the next is read (the
 * reader appends the deltas in place). */
static void DeltaReadBack(struct ArrowBuffer* bytes, DeltaSchemaFn make_values,
                          DeltaFillFn fill, int shared, int keep) {
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowIpcArrayStreamReaderOptions options;
  struct ArrowSchema read_schema;
  struct ArrowArray read[DELTA_N_BATCHES];
  struct ArrowArray end;
  int k;

  options.field_index = -1;
  options.use_shared_buffers = shared;
  DELTA_OK(ArrowIpcInputStreamInitBuffer(&input, bytes));
  DELTA_OK(ArrowIpcArrayStreamReaderInit(&stream, &input, &options));
  cr_assert_eq(stream.get_schema(&stream, &read_schema), NANOARROW_OK, "%s",
               stream.get_last_error(&stream));
  for (k = 0; k < DELTA_N_BATCHES; k++) {
    cr_assert_eq(stream.get_next(&stream, &read[k]), NANOARROW_OK, "batch %d: %s", k,
                 stream.get_last_error(&stream));
    cr_assert_neq(read[k].release, NULL, "batch %d missing", k);
    if (!keep) {
      DeltaCheckBatch(&read_schema, &read[k], make_values, fill, k);
      ArrowArrayRelease(&read[k]);
    }
  }
  cr_assert_eq(stream.get_next(&stream, &end), NANOARROW_OK);
  cr_assert_eq(end.release, NULL);

  if (keep) {
    for (k = 0; k < DELTA_N_BATCHES; k++) {
      DeltaCheckBatch(&read_schema, &read[k], make_values, fill, k);
      ArrowArrayRelease(&read[k]);
    }
  }
  ArrowSchemaRelease(&read_schema);
  ArrowArrayStreamRelease(&stream);
}

/* The same batches encoded message by message with the encoder, each dictionary
 * after the first sent explicitly as an empty delta then a delta holding only the
 * new values (id 0: the encoder numbers dictionaries from 0). */
static void DeltaEncode(struct ArrowBuffer* bytes, DeltaSchemaFn make_values,
                        DeltaFillFn fill) {
  static const uint8_t end_of_stream[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  struct ArrowIpcEncoder encoder;
  struct ArrowBuffer body;
  struct ArrowError error;
  int64_t previous = 0;
  int k;

  DELTA_OK(ArrowIpcEncoderInit(&encoder));
  ArrowBufferInit(&body);
  for (k = 0; k < DELTA_N_BATCHES; k++) {
    struct ArrowSchema schema;
    struct ArrowArray batch;
    struct ArrowArrayView view;
    struct ArrowArrayView delta;
    DeltaBatch(&schema, &batch, make_values, fill, kDeltaSizes[k]);
    if (k == 0) {
      cr_assert_eq(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error), NANOARROW_OK,
                   "%s", error.message);
      DELTA_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, bytes));
    }
    DELTA_OK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
    DELTA_OK(ArrowArrayViewSetArray(&view, &batch, &error));
    delta = *view.children[0]->dictionary;
    if (k > 0) {
      /* An empty delta first, which must leave the dictionary as it is. */
      struct ArrowArrayView empty = delta;
      empty.offset += previous;
      empty.length = 0;
      empty.null_count = 0;
      body.size_bytes = 0;
      cr_assert_eq(ArrowIpcEncoderEncodeDictionaryBatch(&encoder, 0, 1, &empty, &body,
                                                        &error),
                   NANOARROW_OK, "%s", error.message);
      DELTA_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, bytes));
      DELTA_OK(ArrowBufferAppend(bytes, body.data, body.size_bytes));
    }
    delta.offset += previous;
    delta.length -= previous;
    delta.null_count = -1;
    body.size_bytes = 0;
    cr_assert_eq(ArrowIpcEncoderEncodeDictionaryBatch(&encoder, 0, k > 0, &delta, &body,
                                                      &error),
                 NANOARROW_OK, "%s", error.message);
    DELTA_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, bytes));
    DELTA_OK(ArrowBufferAppend(bytes, body.data, body.size_bytes));
    body.size_bytes = 0;
    cr_assert_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &view, &body, &error),
                 NANOARROW_OK, "%s", error.message);
    DELTA_OK(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, bytes));
    DELTA_OK(ArrowBufferAppend(bytes, body.data, body.size_bytes));
    previous = view.children[0]->dictionary->length;
    ArrowArrayViewReset(&view);
    ArrowArrayRelease(&batch);
    ArrowSchemaRelease(&schema);
  }
  DELTA_OK(ArrowBufferAppend(bytes, end_of_stream, sizeof(end_of_stream)));
  ArrowBufferReset(&body);
  ArrowIpcEncoderReset(&encoder);
}

/* Copying and zero-copy, each keeping every batch and releasing each at once. */
static void DeltaReadBothWays(struct ArrowBuffer* bytes, DeltaSchemaFn make_values,
                              DeltaFillFn fill) {
  int mode;
  for (mode = 0; mode < 4; mode++) {
    struct ArrowBuffer copy;
    ArrowBufferInit(&copy);
    DELTA_OK(ArrowBufferAppend(&copy, bytes->data, bytes->size_bytes));
    DeltaReadBack(&copy, make_values, fill, mode % 2, mode / 2);
  }
}

/* Through the writer (checking, when check_marker, that value 0 and the last
 * value were each sent once, i.e. later dictionaries went as deltas; the writer
 * sends whole variadic buffers / list view children, so views skip this) and,
 * when encode, through explicit deltas from the encoder; each read copying and
 * zero-copy. */
static void DeltaRoundTrip(DeltaSchemaFn make_values, DeltaFillFn fill, int check_marker,
                           int encode) {
  struct ArrowBuffer bytes;
  ArrowBufferInit(&bytes);
  DeltaWrite(&bytes, make_values, fill);
  if (check_marker) {
    int32_t last = DELTA_MARKER(kDeltaSizes[DELTA_N_BATCHES - 1] - 1);
    cr_assert_eq(DeltaCountMarker(&bytes, DELTA_MARKER(0)), 1, "value 0 sent %d times",
                 (int)DeltaCountMarker(&bytes, DELTA_MARKER(0)));
    cr_assert_eq(DeltaCountMarker(&bytes, last), 1);
  }
  DeltaReadBothWays(&bytes, make_values, fill);
  ArrowBufferReset(&bytes);
  if (!encode) return;

  ArrowBufferInit(&bytes);
  DeltaEncode(&bytes, make_values, fill);
  DeltaReadBothWays(&bytes, make_values, fill);
  ArrowBufferReset(&bytes);
}

Test(ipc_dictionary_deltas, list_of_int32) {
  DeltaRoundTrip(DeltaListSchema, DeltaListFill, 1, 1);
}

Test(ipc_dictionary_deltas, list_view_of_int32) {
  DeltaRoundTrip(DeltaListViewSchema, DeltaListFill, 0, 1);
}

Test(ipc_dictionary_deltas, fixed_size_list_of_int32) {
  DeltaRoundTrip(DeltaFixedSizeListSchema, DeltaFixedSizeListFill, 1, 1);
}

Test(ipc_dictionary_deltas, struct_of_int32_and_string) {
  DeltaRoundTrip(DeltaStructSchema, DeltaStructFill, 1, 1);
}

Test(ipc_dictionary_deltas, dense_union) {
  DeltaRoundTrip(DeltaDenseUnionSchema, DeltaUnionFill, 1, 1);
}

Test(ipc_dictionary_deltas, sparse_union) {
  DeltaRoundTrip(DeltaSparseUnionSchema, DeltaUnionFill, 1, 1);
}

Test(ipc_dictionary_deltas, run_end_encoded) {
  DeltaRoundTrip(DeltaRunEndSchema, DeltaRunEndFill, 1, 1);
}

Test(ipc_dictionary_deltas, string_view) {
  DeltaRoundTrip(DeltaStringViewSchema, DeltaStringViewFill, 0, 1);
}

/* The outer delta's values index the inner dictionary as grown by its own delta. */
Test(ipc_dictionary_deltas, list_of_nested_dictionary) {
  DeltaRoundTrip(DeltaNestedDictionarySchema, DeltaNestedDictionaryFill, 0, 0);
}
