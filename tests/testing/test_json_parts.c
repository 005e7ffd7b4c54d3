/* The finer-grained integration JSON entry points: single fields, types, metadata,
 * columns and batches, write options, and comparisons that report every
 * difference (nanoarrow_testing). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_testing.h"

#define JSON_SIZE(text) (int64_t)strlen(text)

static const char kSchema[] =
    "{\"fields\": [{\"name\": \"x\", \"nullable\": true, \"type\": {\"name\": "
    "\"floatingpoint\", \"precision\": \"DOUBLE\"}, \"children\": [], \"metadata\": "
    "[{\"key\": \"a\", \"value\": \"1\"}]}]}";
static const char kBatch[] =
    "{\"count\": 2, \"columns\": [{\"name\": \"x\", \"count\": 2, \"VALIDITY\": [1, 1], "
    "\"DATA\": [0.25, 2.0004]}]}";

/* The buffer's text, null-terminated (owned by the buffer). */
static const char* Text(struct ArrowBuffer* buffer) {
  cr_assert_eq(ArrowBufferAppendUInt8(buffer, 0), NANOARROW_OK);
  buffer->size_bytes--;
  return (const char*)buffer->data;
}

Test(json_parts, field_round_trip) {
  struct ArrowSchema schema;
  struct ArrowSchema field;
  struct ArrowBuffer out;
  struct ArrowError error;
  struct ArrowTestingJsonWriteOptions options;

  cr_assert_eq(ArrowTestingJsonReadSchema(kSchema, JSON_SIZE(kSchema), &schema, &error),
               NANOARROW_OK);
  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteField(schema.children[0], NULL, &out, &error),
               NANOARROW_OK);
  cr_assert_str_eq(Text(&out),
                   "{\"name\": \"x\", \"nullable\": true, \"type\": {\"name\": "
                   "\"floatingpoint\", \"precision\": \"DOUBLE\"}, \"children\": [], "
                   "\"metadata\": [{\"key\": \"a\", \"value\": \"1\"}]}");
  cr_assert_eq(ArrowTestingJsonReadField((const char*)out.data, out.size_bytes, &field,
                                         &error),
               NANOARROW_OK);
  cr_assert_str_eq(field.format, "g");
  cr_assert_str_eq(field.name, "x");
  cr_assert_eq(field.flags, ARROW_FLAG_NULLABLE);
  cr_assert_eq(ArrowMetadataSizeOf(field.metadata), ArrowMetadataSizeOf(schema.children[0]->metadata));

  ArrowTestingJsonWriteOptionsInit(&options);
  cr_assert_eq(options.float_precision, -1);
  cr_assert_eq(options.include_metadata, 1);
  options.include_metadata = 0;
  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteField(&field, &options, &out, &error), NANOARROW_OK);
  cr_assert_null(strstr(Text(&out), "metadata"));

  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteType(&field, &out, &error), NANOARROW_OK);
  cr_assert_str_eq(Text(&out), "{\"name\": \"floatingpoint\", \"precision\": \"DOUBLE\"}");
  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteMetadata(NULL, &out, &error), NANOARROW_OK);
  cr_assert_str_eq(Text(&out), "null");
  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteMetadata("\0\0\0\0", &out, &error), NANOARROW_OK);
  cr_assert_str_eq(Text(&out), "[]");

  ArrowBufferReset(&out);
  ArrowSchemaRelease(&field);
  ArrowSchemaRelease(&schema);
}

Test(json_parts, malformed_field_and_column) {
  struct ArrowSchema field;
  struct ArrowArray array;
  struct ArrowError error;
  const char* bad_json = "{\"name\": ";
  field.release = NULL;
  cr_assert_eq(ArrowTestingJsonReadField(bad_json, JSON_SIZE(bad_json), &field, &error),
               EINVAL);
  cr_assert_not_null(strstr(error.message, "field: invalid JSON"));
  cr_assert_null(field.release);

  cr_assert_eq(ArrowSchemaInitFromType(&field, NANOARROW_TYPE_INT32), NANOARROW_OK);
  array.release = NULL;
  cr_assert_eq(ArrowTestingJsonReadColumn("[]", 2, &field, &array, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "not an object"));
  cr_assert_eq(ArrowTestingJsonReadRecordBatch("{}", 2, &field, &array, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "\"+s\""));
  cr_assert_null(array.release);
  ArrowSchemaRelease(&field);
}

Test(json_parts, batch_and_column_views) {
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowArrayView view;
  struct ArrowBuffer out;
  struct ArrowError error;
  struct ArrowTestingJsonWriteOptions options;

  cr_assert_eq(ArrowTestingJsonReadSchema(kSchema, JSON_SIZE(kSchema), &schema, &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowTestingJsonReadRecordBatch(kBatch, JSON_SIZE(kBatch), &schema, &batch,
                                               &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &batch, &error), NANOARROW_OK);

  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteBatchView(&schema, &view, NULL, &out, &error),
               NANOARROW_OK);
  cr_assert_str_eq(Text(&out),
                   "{\"count\": 2, \"columns\": [{\"name\": \"x\", \"count\": 2, "
                   "\"VALIDITY\": [1, 1], \"DATA\": [0.25, 2.0004]}]}");

  ArrowTestingJsonWriteOptionsInit(&options);
  options.float_precision = 2;
  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteColumn(schema.children[0], view.children[0], &options,
                                           &out, &error),
               NANOARROW_OK);
  cr_assert_str_eq(Text(&out),
                   "{\"name\": \"x\", \"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [0.25, "
                   "2.00]}");

  ArrowBufferReset(&out);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&batch);
  ArrowSchemaRelease(&schema);
}

/* Collects differences as "path|actual|expected;" into a buffer. */
static ArrowErrorCode Collect(void* private_data, const char* path, const char* actual,
                              const char* expected) {
  struct ArrowBuffer* out = (struct ArrowBuffer*)private_data;
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendStringView(out, ArrowCharView(path)));
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, '|'));
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendStringView(out, ArrowCharView(actual)));
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, '|'));
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendStringView(out, ArrowCharView(expected)));
  return ArrowBufferAppendUInt8(out, ';');
}

static ArrowErrorCode StopAtFirst(void* private_data, const char* path, const char* actual,
                                  const char* expected) {
  (void)path;
  (void)actual;
  (void)expected;
  (*(int*)private_data)++;
  return ECANCELED;
}

Test(json_parts, every_difference_reported) {
  const char* two_columns =
      "{\"fields\": [{\"name\": \"a\", \"nullable\": true, \"type\": {\"name\": \"int\", "
      "\"isSigned\": true, \"bitWidth\": 8}, \"children\": []}, {\"name\": \"b\", "
      "\"nullable\": true, \"type\": {\"name\": \"int\", \"isSigned\": true, \"bitWidth\": "
      "8}, \"children\": []}]}";
  const char* batch_a =
      "{\"count\": 2, \"columns\": [{\"name\": \"a\", \"count\": 2, \"VALIDITY\": [1, 1], "
      "\"DATA\": [1, 2]}, {\"name\": \"b\", \"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [3, "
      "4]}]}";
  const char* batch_b =
      "{\"count\": 2, \"columns\": [{\"name\": \"a\", \"count\": 2, \"VALIDITY\": [1, 1], "
      "\"DATA\": [1, 9]}, {\"name\": \"b\", \"count\": 2, \"VALIDITY\": [1, 0], \"DATA\": [3, "
      "4]}]}";
  struct ArrowSchema schema;
  struct ArrowArray a;
  struct ArrowArray b;
  struct ArrowBuffer found;
  struct ArrowError error;
  struct ArrowTestingCompareOptions options;
  int calls = 0;

  cr_assert_eq(ArrowTestingJsonReadSchema(two_columns, JSON_SIZE(two_columns), &schema, &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowTestingJsonReadRecordBatch(batch_a, JSON_SIZE(batch_a), &schema, &a, &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowTestingJsonReadRecordBatch(batch_b, JSON_SIZE(batch_b), &schema, &b, &error),
               NANOARROW_OK);
  ArrowBufferInit(&found);
  ArrowTestingCompareOptionsInit(&options);
  cr_assert_eq(options.compare_batch_flags, 1);
  cr_assert_eq(options.compare_metadata_order, 1);
  cr_assert_eq(options.float_precision, -1);
  options.on_difference = &Collect;
  options.private_data = &found;

  cr_assert_eq(ArrowTestingCompareArrayDifferences(&schema, &a, &a, "p", &options, &error),
               NANOARROW_OK);
  cr_assert_eq(found.size_bytes, 0);
  cr_assert_eq(ArrowTestingCompareArrayDifferences(&schema, &a, &b, "p", &options, &error),
               NANOARROW_OK);
  cr_assert_str_eq(Text(&found),
                   "p.columns[0]|{\"name\": \"a\", \"count\": 2, \"VALIDITY\": [1, 1], "
                   "\"DATA\": [1, 2]}|{\"name\": \"a\", \"count\": 2, \"VALIDITY\": [1, 1], "
                   "\"DATA\": [1, 9]};"
                   "p.columns[1]|{\"name\": \"b\", \"count\": 2, \"VALIDITY\": [1, 1], "
                   "\"DATA\": [3, 4]}|{\"name\": \"b\", \"count\": 2, \"VALIDITY\": [1, 0], "
                   "\"DATA\": [3, 4]};");

  /* A callback's error stops the comparison and is returned. */
  options.on_difference = &StopAtFirst;
  options.private_data = &calls;
  cr_assert_eq(ArrowTestingCompareArrayDifferences(&schema, &a, &b, NULL, &options, &error),
               ECANCELED);
  cr_assert_eq(calls, 1);
  cr_assert_not_null(strstr(error.message, ".columns[0]"));

  /* Schemas: the child that differs, and the number of children. */
  found.size_bytes = 0;
  options.on_difference = &Collect;
  options.private_data = &found;
  schema.children[1]->flags = 0;
  {
    struct ArrowSchema other;
    cr_assert_eq(ArrowTestingJsonReadSchema(two_columns, JSON_SIZE(two_columns), &other, &error),
                 NANOARROW_OK);
    cr_assert_eq(ArrowTestingCompareSchemaDifferences(&schema, &other, "s", &options, &error),
                 NANOARROW_OK);
    cr_assert_not_null(strstr(Text(&found), "s.fields[1]|{\"name\": \"b\", \"nullable\": false"));
    cr_assert_null(strstr(Text(&found), "s.fields[0]"));
    found.size_bytes = 0;
    cr_assert_eq(ArrowTestingCompareSchemaDifferences(&schema, other.children[0], "s",
                                                      &options, &error),
                 NANOARROW_OK);
    cr_assert_not_null(strstr(Text(&found), "s.format|+s|c;"));
    cr_assert_not_null(strstr(Text(&found), "s.n_children|2|0;"));
    ArrowSchemaRelease(&other);
  }

  ArrowBufferReset(&found);
  ArrowArrayRelease(&a);
  ArrowArrayRelease(&b);
  ArrowSchemaRelease(&schema);
}

Test(json_parts, data_file_has_no_trailing_newline) {
  const char* doc = "{\"schema\": {\"fields\": []}, \"batches\": [{\"count\": 0, \"columns\": []}]}";
  struct ArrowArrayStream stream;
  struct ArrowBuffer out;
  struct ArrowError error;
  cr_assert_eq(ArrowTestingJsonReadStream(doc, JSON_SIZE(doc), &stream, &error), NANOARROW_OK);
  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteDataFile(&stream, NULL, &out, &error), NANOARROW_OK);
  cr_assert_str_eq(Text(&out), doc);
  ArrowArrayStreamRelease(&stream);
  cr_assert_eq(ArrowTestingJsonReadStream(doc, JSON_SIZE(doc), &stream, &error), NANOARROW_OK);
  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteStream(&stream, &out, &error), NANOARROW_OK);
  cr_assert_eq(out.data[out.size_bytes - 1], '\n');
  ArrowArrayStreamRelease(&stream);
  ArrowBufferReset(&out);
}

/* A view whose shape differs from the schema below the top level (here a list view
 * written with a schema whose child is a plain int32) is refused with the path of the
 * mismatch, before anything is read through the missing child. */
Test(json_parts, view_of_another_shape_is_refused) {
  struct ArrowSchema list_field, int_field;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowBuffer out;
  struct ArrowError error;

  cr_assert_eq(ArrowSchemaInitFromType(&list_field, NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(list_field.children[0], NANOARROW_TYPE_LIST),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(list_field.children[0]->children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &list_field, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &list_field, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK);

  /* Same top level (a list with one child), but the child has no children. */
  cr_assert_eq(ArrowSchemaInitFromType(&int_field, NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(int_field.children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteColumn(&int_field, &view, NULL, &out, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "children[0]"), "%s", error.message);
  cr_assert_not_null(strstr(error.message, "has 1 children for 0 fields"), "%s",
                     error.message);
  cr_assert_eq(ArrowTestingJsonWriteColumn(&list_field, &view, NULL, &out, &error),
               NANOARROW_OK);

  ArrowBufferReset(&out);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&int_field);
  ArrowSchemaRelease(&list_field);
}

/* Schemas come from callers and may be malformed: a NULL child is refused by the
 * writers and by both comparisons with its position, never followed. */
Test(json_parts, schema_with_null_child_is_refused) {
  struct ArrowSchema schema;
  struct ArrowSchema* child;
  struct ArrowBuffer out;
  struct ArrowError error;
  struct ArrowTestingCompareOptions options;
  int equal = 1;

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  ArrowSchemaInit(schema.children[0]);
  ArrowSchemaInit(schema.children[1]);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT32), NANOARROW_OK);
  child = schema.children[1];
  schema.children[1] = NULL;

  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteSchema(&schema, &out, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "children[1]"), "%s", error.message);
  cr_assert_eq(ArrowTestingJsonWriteField(&schema, NULL, &out, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "children[1]"), "%s", error.message);
  cr_assert_eq(ArrowTestingCompareSchema(&schema, &schema, &equal, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "children[1]"), "%s", error.message);
  cr_assert_eq(equal, 0);
  ArrowTestingCompareOptionsInit(&options);
  cr_assert_eq(
      ArrowTestingCompareSchemaDifferences(&schema, &schema, "", &options, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "children[1]"), "%s", error.message);

  schema.children[1] = child;
  ArrowBufferReset(&out);
  ArrowSchemaRelease(&schema);
}

/* ---- Flushing a document as it is written ---- */

struct FlushRecord {
  struct ArrowBuffer text;
  int64_t n_calls;
  int64_t smallest;
  int fail_with;
};

static ArrowErrorCode RecordFlush(void* flush_data, struct ArrowBuffer* out,
                                  struct ArrowError* error) {
  struct FlushRecord* record = (struct FlushRecord*)flush_data;
  if (record->fail_with != 0) {
    ArrowErrorSet(error, "flush failed on purpose");
    return record->fail_with;
  }
  record->n_calls++;
  if (record->smallest < 0 || out->size_bytes < record->smallest) {
    record->smallest = out->size_bytes;
  }
  cr_assert_eq(ArrowBufferAppend(&record->text, out->data, out->size_bytes), NANOARROW_OK);
  out->size_bytes = 0;
  return NANOARROW_OK;
}

static void OpenGolden(const char* name, struct ArrowArrayStream* stream) {
  char path[1024];
  struct ArrowBuffer json;
  struct ArrowError error;
  snprintf(path, sizeof(path),
           "%s/arrow-ipc-stream/integration/1.0.0-littleendian/generated_%s.json.gz",
           NANOARROW_TEST_DATA_DIR, name);
  cr_assert_eq(ArrowTestingReadFile(path, (int64_t)1 << 30, &json, &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_eq(ArrowTestingJsonReadStream((const char*)json.data, json.size_bytes, stream,
                                          &error),
               NANOARROW_OK, "%s", error.message);
  ArrowBufferReset(&json);
}

/* The text handed to flush, then what is left in out, is the document written
 * without flush; it comes in chunks of at least NANOARROW_TESTING_JSON_FLUSH_BYTES. */
Test(json_parts, flush_hands_out_the_same_document_in_chunks) {
  const char* names[] = {"primitive", "nested", "dictionary", "union", "map",
                         "datetime", "decimal"};
  int64_t total_calls = 0;
  size_t i;
  for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    struct ArrowArrayStream stream;
    struct ArrowBuffer whole;
    struct ArrowBuffer rest;
    struct ArrowError error;
    struct ArrowTestingJsonWriteOptions options;
    struct FlushRecord record;

    OpenGolden(names[i], &stream);
    ArrowBufferInit(&whole);
    cr_assert_eq(ArrowTestingJsonWriteDataFile(&stream, NULL, &whole, &error), NANOARROW_OK,
                 "%s", error.message);
    ArrowArrayStreamRelease(&stream);

    OpenGolden(names[i], &stream);
    ArrowTestingJsonWriteOptionsInit(&options);
    cr_assert_null(options.flush);
    options.flush = &RecordFlush;
    options.flush_data = &record;
    ArrowBufferInit(&record.text);
    record.n_calls = 0;
    record.smallest = -1;
    record.fail_with = 0;
    ArrowBufferInit(&rest);
    cr_assert_eq(ArrowTestingJsonWriteDataFile(&stream, &options, &rest, &error), NANOARROW_OK,
                 "%s", error.message);
    ArrowArrayStreamRelease(&stream);
    cr_assert_lt(rest.size_bytes, NANOARROW_TESTING_JSON_FLUSH_BYTES + 4096, "%s", names[i]);
    cr_assert_eq(ArrowBufferAppend(&record.text, rest.data, rest.size_bytes), NANOARROW_OK);
    cr_assert_eq(record.text.size_bytes, whole.size_bytes, "%s", names[i]);
    cr_assert_eq(memcmp(record.text.data, whole.data, (size_t)whole.size_bytes), 0, "%s",
                 names[i]);
    if (record.n_calls > 0) {
      cr_assert_geq(record.smallest, NANOARROW_TESTING_JSON_FLUSH_BYTES, "%s", names[i]);
    }
    total_calls += record.n_calls;
    ArrowBufferReset(&rest);
    ArrowBufferReset(&record.text);
    ArrowBufferReset(&whole);
  }
  /* The decimal document (390 KB) went through flush. */
  cr_assert_gt(total_calls, 4);
}

Test(json_parts, flush_error_ends_the_write) {
  struct ArrowArrayStream stream;
  struct ArrowBuffer out;
  struct ArrowError error;
  struct ArrowTestingJsonWriteOptions options;
  struct FlushRecord record;
  /* 390 KB of JSON: flush is called before the end. */
  OpenGolden("decimal", &stream);
  ArrowTestingJsonWriteOptionsInit(&options);
  options.flush = &RecordFlush;
  options.flush_data = &record;
  ArrowBufferInit(&record.text);
  record.fail_with = EPIPE;
  ArrowBufferInit(&out);
  error.message[0] = '\0';
  cr_assert_eq(ArrowTestingJsonWriteDataFile(&stream, &options, &out, &error), EPIPE);
  cr_assert(strstr(error.message, "flush failed on purpose") != NULL, "%s", error.message);
  ArrowArrayStreamRelease(&stream);
  ArrowBufferReset(&out);
  ArrowBufferReset(&record.text);
}

/* JSON numbers hold no NaN or infinity. Under a null the bits are not data and are
 * written as 0 (so the column reads back); a valid NaN or infinity fails, naming the
 * field and element, instead of being written as null (before: null, which changed
 * the value and which no reader accepts). */
static void WriteDoubles(const double* values, const uint8_t* valid, int64_t n,
                         struct ArrowSchema* field, struct ArrowArray* array,
                         struct ArrowArrayView* view) {
  int64_t i;
  int any_null = 0;
  cr_assert_eq(ArrowSchemaInitFromType(field, NANOARROW_TYPE_DOUBLE), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(field, "x"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(array, field, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (i = 0; i < n; i++) {
    cr_assert_eq(ArrowArrayAppendDouble(array, values[i]), NANOARROW_OK);
  }
  /* The bitmap is set afterwards so that the NaN bits stay under the nulls. */
  for (i = 0; i < n; i++) any_null |= !valid[i];
  if (any_null) {
    cr_assert_eq(ArrowBitmapReserve(ArrowArrayValidityBitmap(array), n), NANOARROW_OK);
    ArrowBitmapAppendInt8Unsafe(ArrowArrayValidityBitmap(array), (const int8_t*)valid, n);
    array->null_count = -1;
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(view, field, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(view, array, NULL), NANOARROW_OK);
}

Test(json_parts, nan_and_infinity_are_never_written_as_null) {
  const double nan_value = strtod("nan", NULL);
  const double values[] = {1.5, nan_value, nan_value, strtod("inf", NULL)};
  const uint8_t under_null[] = {1, 0, 1, 1};
  struct ArrowSchema field;
  struct ArrowArray array;
  struct ArrowArray back;
  struct ArrowArrayView view;
  struct ArrowBuffer out;
  struct ArrowError error;

  /* Only the first two elements: 1.5 and a null over NaN bits. */
  WriteDoubles(values, under_null, 2, &field, &array, &view);
  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteColumn(&field, &view, NULL, &out, &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_null(strstr(Text(&out), "null"), "%s", Text(&out));
  cr_assert_not_null(strstr(Text(&out), "\"DATA\": [1.5, 0]"), "%s", Text(&out));
  cr_assert_eq(ArrowTestingJsonReadColumn((const char*)out.data, out.size_bytes, &field,
                                          &back, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(back.length, 2);
  cr_assert_eq(back.null_count, 1);
  ArrowArrayRelease(&back);
  ArrowBufferReset(&out);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&field);

  /* A valid NaN (element 2), then a valid infinity in an array of its own. */
  WriteDoubles(values, under_null, 4, &field, &array, &view);
  ArrowBufferInit(&out);
  error.message[0] = '\0';
  cr_assert_eq(ArrowTestingJsonWriteColumn(&field, &view, NULL, &out, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "field 'x' element 2: NaN"), "%s",
                     error.message);
  ArrowBufferReset(&out);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&field);

  WriteDoubles(values + 3, under_null + 3, 1, &field, &array, &view);
  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteColumn(&field, &view, NULL, &out, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "infinity has no integration JSON form"), "%s",
                     error.message);
  ArrowBufferReset(&out);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&field);
}

/* A batch has no validity of its own: a struct array with a null row at its top level
 * is refused instead of being written with that row valid (as the IPC writer does). */
Test(json_parts, top_level_null_rows_are_refused) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowBuffer out;
  struct ArrowError error;

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "a"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, NULL), NANOARROW_OK);

  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteBatch(&schema, &array, &out, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "1 null rows at its top level"), "%s",
                     error.message);

  /* The same batch sliced to its valid first row is written. */
  array.length = 1;
  array.null_count = 0;
  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteBatch(&schema, &array, &out, &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_not_null(strstr(Text(&out), "\"count\": 1"), "%s", Text(&out));

  ArrowBufferReset(&out);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

/* Integration JSON carries utf8 values, names and metadata as JSON text, which must
 * be UTF-8: other bytes are refused with the field and element, not written into
 * a document no JSON reader takes. */
Test(json_parts, text_that_is_not_utf8_is_refused) {
  struct ArrowSchema field;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowBuffer out;
  struct ArrowError error;
  struct ArrowStringView value;
  int k;

  cr_assert_eq(ArrowSchemaInitFromType(&field, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&field, "s"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &field, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  for (k = 0; k < 2; k++) {
    value.data = k == 0 ? "caf\xc3\xa9" : "caf\xe9";
    value.size_bytes = (int64_t)strlen(value.data);
    cr_assert_eq(ArrowArrayAppendString(&array, value), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &field, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK);

  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteColumn(&field, &view, NULL, &out, &error), EINVAL);
  cr_expect_not_null(strstr(error.message, "field 's' element 1: text that is not valid UTF-8"),
                     "%s", error.message);

  /* The first element alone is fine. */
  view.length = 1;
  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteColumn(&field, &view, NULL, &out, &error), NANOARROW_OK,
               "%s", error.message);

  /* A name that is not UTF-8. */
  cr_assert_eq(ArrowSchemaSetName(&field, "n\xff"), NANOARROW_OK);
  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteField(&field, NULL, &out, &error), EINVAL);
  cr_expect_not_null(strstr(error.message, "the name of field"), "%s", error.message);

  ArrowBufferReset(&out);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&field);
}

/* An empty range reads no offsets: an empty list's one offset may point past its
 * (empty) child, which nothing validates (the JSON writer read the nested list's
 * offsets there: a heap overflow found by json_fuzzer), and an empty array may
 * have no offsets buffer at all. */
Test(json_parts, empty_ranges_read_no_offsets) {
  static const char kNestedSchema[] =
      "{\"fields\": [{\"name\": \"l\", \"nullable\": true, \"type\": {\"name\": "
      "\"largelist\"}, \"children\": [{\"name\": \"inner\", \"nullable\": true, \"type\": "
      "{\"name\": \"list\"}, \"children\": [{\"name\": \"item\", \"nullable\": true, "
      "\"type\": {\"name\": \"int\", \"isSigned\": true, \"bitWidth\": 32}, "
      "\"children\": []}]}]}]}";
  static const char kNestedBatch[] =
      "{\"count\": 0, \"columns\": [{\"name\": \"l\", \"count\": 0, \"VALIDITY\": [], "
      "\"OFFSET\": [\"5\"], \"children\": [{\"name\": \"inner\", \"count\": 0, "
      "\"VALIDITY\": [], \"OFFSET\": [0], \"children\": [{\"name\": \"item\", "
      "\"count\": 0, \"VALIDITY\": [], \"DATA\": []}]}]}]}";
  struct ArrowSchema schema;
  struct ArrowSchema field;
  struct ArrowArray array;
  struct ArrowArray bare;
  struct ArrowArrayView view;
  struct ArrowBuffer out;
  struct ArrowError error;
  const void* no_buffers[3] = {NULL, NULL, NULL};

  cr_assert_eq(ArrowTestingJsonReadSchema(kNestedSchema, JSON_SIZE(kNestedSchema), &schema,
                                          &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowTestingJsonReadRecordBatch(kNestedBatch, JSON_SIZE(kNestedBatch), &schema,
                                               &array, &error),
               NANOARROW_OK, "%s", error.message);
  ArrowBufferInit(&out);
  cr_assert_eq(ArrowTestingJsonWriteBatch(&schema, &array, &out, &error), NANOARROW_OK, "%s",
               error.message);
  cr_expect_not_null(strstr(Text(&out), "\"name\": \"l\", \"count\": 0, \"VALIDITY\": [], "
                                        "\"OFFSET\": [\"0\"]"),
                     "%s", Text(&out));
  cr_expect_not_null(strstr(Text(&out), "\"name\": \"inner\", \"count\": 0, \"VALIDITY\": [], "
                                        "\"OFFSET\": [0]"),
                     "%s", Text(&out));
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);

  /* An empty string array with no buffers at all (as the C interface allows). */
  cr_assert_eq(ArrowSchemaInitFromType(&field, NANOARROW_TYPE_STRING), NANOARROW_OK);
  memset(&bare, 0, sizeof(bare));
  bare.n_buffers = 3;
  bare.buffers = no_buffers;
  bare.release = NULL; /* borrowed by the view only */
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &field, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &bare, &error), NANOARROW_OK, "%s",
               error.message);
  out.size_bytes = 0;
  cr_assert_eq(ArrowTestingJsonWriteColumn(&field, &view, NULL, &out, &error), NANOARROW_OK,
               "%s", error.message);
  cr_expect_str_eq(Text(&out),
                   "{\"name\": null, \"count\": 0, \"VALIDITY\": [], \"OFFSET\": [0], "
                   "\"DATA\": []}");
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&field);
  ArrowBufferReset(&out);
}
