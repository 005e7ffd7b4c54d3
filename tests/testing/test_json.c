/* Integration JSON reading, writing and comparison (nanoarrow_testing). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_testing.h"

#define JSON_SIZE(text) (int64_t)strlen(text)

/* A document with one column of the given field and column JSON. */
static char* Document(const char* field, const char* column, const char* extra) {
  size_t size = strlen(field) + strlen(column) + strlen(extra) + 256;
  char* out = (char*)malloc(size);
  snprintf(out, size,
           "{\"schema\": {\"fields\": [%s]}, \"batches\": [{\"count\": 3, \"columns\": "
           "[%s]}]%s}",
           field, column, extra);
  return out;
}

/* Reads batch 0 of a one-column document; returns the error code. */
static int ReadOne(const char* field, const char* column, const char* extra,
                   struct ArrowSchema* schema, struct ArrowArray* array,
                   struct ArrowError* error) {
  char* doc = Document(field, column, extra);
  int rc = ArrowTestingJsonReadSchema(doc, JSON_SIZE(doc), schema, error);
  if (rc == NANOARROW_OK) {
    rc = ArrowTestingJsonReadBatch(doc, JSON_SIZE(doc), 0, array, error);
    if (rc != NANOARROW_OK) ArrowSchemaRelease(schema);
  }
  free(doc);
  return rc;
}

static void ViewOf(struct ArrowArrayView* view, const struct ArrowSchema* schema,
                   const struct ArrowArray* array) {
  struct ArrowError error;
  cr_assert_eq(ArrowArrayViewInitFromSchema(view, schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(view, array, &error), NANOARROW_OK, "%s",
               error.message);
}

Test(json_read, schema_types_and_metadata) {
  const char* doc =
      "{\"schema\": {\"fields\": ["
      "{\"name\": \"a\", \"nullable\": false, \"type\": {\"name\": \"int\", \"isSigned\": "
      "false, \"bitWidth\": 16}, \"children\": []},"
      "{\"name\": \"t\", \"nullable\": true, \"type\": {\"name\": \"timestamp\", \"unit\": "
      "\"MICROSECOND\", \"timezone\": \"UTC\"}, \"children\": [], \"metadata\": [{\"key\": "
      "\"k\", \"value\": \"v\"}]},"
      "{\"name\": \"d\", \"nullable\": true, \"type\": {\"name\": \"decimal\", "
      "\"precision\": 10, \"scale\": 2, \"bitWidth\": 256}, \"children\": []},"
      "{\"name\": \"u\", \"nullable\": true, \"type\": {\"name\": \"union\", \"mode\": "
      "\"DENSE\", \"typeIds\": [5, 7]}, \"children\": ["
      "{\"name\": \"x\", \"nullable\": true, \"type\": {\"name\": \"bool\"}, \"children\": "
      "[]},"
      "{\"name\": \"y\", \"nullable\": true, \"type\": {\"name\": \"utf8\"}, \"children\": "
      "[]}]},"
      "{\"name\": \"e\", \"nullable\": true, \"type\": {\"name\": \"utf8\"}, \"children\": "
      "[], \"dictionary\": {\"id\": 3, \"indexType\": {\"name\": \"int\", \"isSigned\": "
      "true, \"bitWidth\": 8}, \"isOrdered\": true}}"
      "], \"metadata\": [{\"key\": \"top\", \"value\": \"level\"}]}}";
  struct ArrowSchema schema;
  struct ArrowError error;
  struct ArrowStringView value = {NULL, 0};

  cr_assert_eq(ArrowTestingJsonReadSchema(doc, JSON_SIZE(doc), &schema, &error), NANOARROW_OK,
               "%s", error.message);
  cr_assert_str_eq(schema.format, "+s");
  cr_assert_eq(schema.n_children, 5);
  cr_assert_str_eq(schema.children[0]->format, "S");
  cr_assert_eq(schema.children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  cr_assert_str_eq(schema.children[1]->format, "tsu:UTC");
  cr_assert_eq(ArrowMetadataGetValue(schema.children[1]->metadata, ArrowCharView("k"), &value),
               NANOARROW_OK);
  cr_assert_eq(value.size_bytes, 1);
  cr_assert_str_eq(schema.children[2]->format, "d:10,2,256");
  cr_assert_str_eq(schema.children[3]->format, "+ud:5,7");
  cr_assert_str_eq(schema.children[4]->format, "c");
  cr_assert_str_eq(schema.children[4]->dictionary->format, "u");
  cr_assert(schema.children[4]->flags & ARROW_FLAG_DICTIONARY_ORDERED);
  cr_assert(ArrowMetadataHasKey(schema.metadata, ArrowCharView("top")));
  ArrowSchemaRelease(&schema);
}

Test(json_read, values_of_each_buffer_kind) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;

  /* 64-bit integers as strings, VALIDITY. */
  cr_assert_eq(ReadOne("{\"name\": \"x\", \"type\": {\"name\": \"int\", \"isSigned\": true, "
                       "\"bitWidth\": 64}, \"children\": []}",
                       "{\"name\": \"x\", \"count\": 3, \"VALIDITY\": [1, 0, 1], \"DATA\": "
                       "[\"-9223372036854775808\", \"0\", \"9223372036854775807\"]}",
                       "", &schema, &array, &error),
               NANOARROW_OK, "%s", error.message);
  ViewOf(&view, &schema, &array);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0], 0), INT64_MIN);
  cr_assert(ArrowArrayViewIsNull(view.children[0], 1));
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0], 2), INT64_MAX);
  cr_assert_eq(array.children[0]->null_count, 1);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);

  /* Binary as hex with OFFSET. */
  cr_assert_eq(ReadOne("{\"name\": \"b\", \"type\": {\"name\": \"binary\"}, \"children\": []}",
                       "{\"name\": \"b\", \"count\": 3, \"VALIDITY\": [1, 1, 1], \"OFFSET\": "
                       "[0, 2, 2, 3], \"DATA\": [\"00FF\", \"\", \"7a\"]}",
                       "", &schema, &array, &error),
               NANOARROW_OK, "%s", error.message);
  ViewOf(&view, &schema, &array);
  {
    struct ArrowBufferView bytes = ArrowArrayViewGetBytesUnsafe(view.children[0], 0);
    cr_assert_eq(bytes.size_bytes, 2);
    cr_assert_eq(bytes.data.as_uint8[1], 0xFF);
    bytes = ArrowArrayViewGetBytesUnsafe(view.children[0], 2);
    cr_assert_eq(bytes.data.as_uint8[0], 0x7A);
  }
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);

  /* Dictionary-encoded strings resolve through "dictionaries". */
  cr_assert_eq(
      ReadOne("{\"name\": \"d\", \"type\": {\"name\": \"utf8\"}, \"children\": [], "
              "\"dictionary\": {\"id\": 7, \"indexType\": {\"name\": \"int\", \"isSigned\": "
              "true, \"bitWidth\": 32}}}",
              "{\"name\": \"d\", \"count\": 3, \"VALIDITY\": [1, 1, 1], \"DATA\": [1, 0, 1]}",
              ", \"dictionaries\": [{\"id\": 7, \"data\": {\"count\": 2, \"columns\": "
              "[{\"name\": \"DICT7\", \"count\": 2, \"VALIDITY\": [1, 1], \"OFFSET\": [0, 1, "
              "3], \"DATA\": [\"a\", \"bc\"]}]}}]",
              &schema, &array, &error),
      NANOARROW_OK, "%s", error.message);
  cr_assert_not_null(array.children[0]->dictionary);
  cr_assert_eq(array.children[0]->dictionary->length, 2);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

/* Each hostile document gives EINVAL and a message naming the problem. */
static void ExpectError(const char* field, const char* column, const char* needle) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_neq(ReadOne(field, column, "", &schema, &array, &error), NANOARROW_OK,
                "expected an error for %s", column);
  cr_assert(strstr(error.message, needle) != NULL, "'%s' not in '%s'", needle, error.message);
}

Test(json_read, hostile_input_gives_errors) {
  const char* int32 =
      "{\"name\": \"x\", \"type\": {\"name\": \"int\", \"isSigned\": true, \"bitWidth\": 32}, "
      "\"children\": []}";
  const char* utf8 = "{\"name\": \"s\", \"type\": {\"name\": \"utf8\"}, \"children\": []}";
  struct ArrowSchema schema;
  struct ArrowError error;

  ExpectError(int32, "{\"name\": \"x\", \"count\": 3, \"DATA\": [1, 2]}", "DATA has 2 items");
  ExpectError(int32, "{\"name\": \"x\", \"count\": 3, \"DATA\": [1, 2, 3000000000]}",
              "DATA[2]");
  ExpectError(int32, "{\"name\": \"x\", \"count\": 3, \"DATA\": [1, \"x\", 3]}", "DATA[1]");
  ExpectError(int32, "{\"name\": \"x\", \"count\": -1, \"DATA\": []}", "negative");
  ExpectError(int32, "{\"name\": \"x\", \"count\": 3, \"VALIDITY\": [1, 2, 1], \"DATA\": "
              "[1, 2, 3]}", "VALIDITY[1]");
  ExpectError(utf8, "{\"name\": \"s\", \"count\": 3, \"OFFSET\": [0, 1, 2, 9], \"DATA\": "
              "[\"a\", \"b\", \"c\"]}", "OFFSET says");
  ExpectError(utf8, "{\"name\": \"s\", \"count\": 3, \"OFFSET\": [0, 1, 2, 3], \"DATA\": "
              "[\"a\", 5, \"c\"]}", "DATA[1]");
  ExpectError("{\"name\": \"d\", \"type\": {\"name\": \"utf8\"}, \"children\": [], "
              "\"dictionary\": {\"id\": 1, \"indexType\": {\"name\": \"int\", "
              "\"isSigned\": true, \"bitWidth\": 8}}}",
              "{\"name\": \"d\", \"count\": 3, \"DATA\": [0, 0, 0]}", "no dictionary with id 1");
  ExpectError("{\"name\": \"f\", \"type\": {\"name\": \"nope\"}, \"children\": []}",
              "{\"name\": \"f\", \"count\": 3}", "unknown type name \"nope\"");
  ExpectError("{\"name\": \"l\", \"type\": {\"name\": \"list\"}, \"children\": [" 
              "{\"name\": \"item\", \"type\": {\"name\": \"bool\"}, \"children\": []}]}",
              "{\"name\": \"l\", \"count\": 3, \"OFFSET\": [0, 5, 6, 7], \"children\": "
              "[{\"name\": \"item\", \"count\": 1, \"DATA\": [true]}]}", "batch 0");

  /* Not JSON / not an object / no schema. */
  cr_assert_eq(ArrowTestingJsonReadSchema("{\"schema\": [", 12, &schema, &error), EINVAL);
  cr_assert(strstr(error.message, "invalid JSON") != NULL);
  cr_assert_eq(ArrowTestingJsonReadSchema("[]", 2, &schema, &error), EINVAL);
  cr_assert_eq(ArrowTestingJsonReadSchema("{}", 2, &schema, &error), EINVAL);
}

Test(json_read, deep_nesting_is_refused) {
  /* 100 nested lists: more than NANOARROW_MAX_NESTING_DEPTH. */
  size_t size = 100 * 120 + 64;
  char* doc = (char*)malloc(size);
  struct ArrowSchema schema;
  struct ArrowError error;
  size_t used = (size_t)snprintf(doc, size, "{\"schema\": {\"fields\": [");
  int i;
  for (i = 0; i < 100; i++) {
    used += (size_t)snprintf(doc + used, size - used,
                             "{\"name\": \"l\", \"type\": {\"name\": \"list\"}, \"children\": [");
  }
  used += (size_t)snprintf(doc + used, size - used,
                           "{\"name\": \"x\", \"type\": {\"name\": \"bool\"}, \"children\": []}");
  for (i = 0; i < 100; i++) used += (size_t)snprintf(doc + used, size - used, "]}");
  snprintf(doc + used, size - used, "]}}");
  cr_assert_eq(ArrowTestingJsonReadSchema(doc, JSON_SIZE(doc), &schema, &error), EINVAL);
  cr_assert(strstr(error.message, "nested") != NULL, "%s", error.message);
  free(doc);
}

Test(json_compare, names_field_batch_and_row) {
  const char* field =
      "{\"name\": \"v\", \"type\": {\"name\": \"floatingpoint\", \"precision\": \"DOUBLE\"}, "
      "\"children\": []}";
  char* doc_a = Document(field,
                         "{\"name\": \"v\", \"count\": 3, \"VALIDITY\": [1, 0, 1], \"DATA\": "
                         "[1.5, 99, 3]}",
                         "");
  char* doc_b = Document(field,
                         "{\"name\": \"v\", \"count\": 3, \"VALIDITY\": [1, 0, 1], \"DATA\": "
                         "[1.5, 7, 4]}",
                         "");
  struct ArrowArrayStream a;
  struct ArrowArrayStream b;
  struct ArrowError error;
  int equal = 1;

  /* Null slots may hold anything: only row 2 differs. */
  cr_assert_eq(ArrowTestingJsonReadStream(doc_a, JSON_SIZE(doc_a), &a, &error), NANOARROW_OK);
  cr_assert_eq(ArrowTestingJsonReadStream(doc_b, JSON_SIZE(doc_b), &b, &error), NANOARROW_OK);
  cr_assert_eq(ArrowTestingCompareStreams(&a, &b, &equal, &error), NANOARROW_OK);
  cr_assert_eq(equal, 0);
  cr_assert(strstr(error.message, "batch 0") != NULL, "%s", error.message);
  cr_assert(strstr(error.message, "'v'") != NULL, "%s", error.message);
  cr_assert(strstr(error.message, "row 2") != NULL, "%s", error.message);
  cr_assert(strstr(error.message, "expected 4 but found 3") != NULL, "%s", error.message);
  ArrowArrayStreamRelease(&a);
  ArrowArrayStreamRelease(&b);

  /* A stream equals itself. */
  cr_assert_eq(ArrowTestingJsonReadStream(doc_a, JSON_SIZE(doc_a), &a, &error), NANOARROW_OK);
  cr_assert_eq(ArrowTestingJsonReadStream(doc_a, JSON_SIZE(doc_a), &b, &error), NANOARROW_OK);
  cr_assert_eq(ArrowTestingCompareStreams(&a, &b, &equal, &error), NANOARROW_OK);
  cr_assert_eq(equal, 1, "%s", error.message);
  ArrowArrayStreamRelease(&a);
  ArrowArrayStreamRelease(&b);
  free(doc_a);
  free(doc_b);
}

Test(json_compare, schema_differences) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  struct ArrowError error;
  int equal = 1;
  const char* doc_a = "{\"fields\": [{\"name\": \"x\", \"nullable\": true, \"type\": "
                      "{\"name\": \"int\", \"isSigned\": true, \"bitWidth\": 32}}]}";
  const char* doc_b = "{\"fields\": [{\"name\": \"x\", \"nullable\": true, \"type\": "
                      "{\"name\": \"int\", \"isSigned\": true, \"bitWidth\": 64}}]}";
  cr_assert_eq(ArrowTestingJsonReadSchema(doc_a, JSON_SIZE(doc_a), &a, &error), NANOARROW_OK);
  cr_assert_eq(ArrowTestingJsonReadSchema(doc_b, JSON_SIZE(doc_b), &b, &error), NANOARROW_OK);
  cr_assert_eq(ArrowTestingCompareSchema(&a, &b, &equal, &error), NANOARROW_OK);
  cr_assert_eq(equal, 0);
  cr_assert(strstr(error.message, "children[0] 'x'") != NULL, "%s", error.message);
  cr_assert(strstr(error.message, "expected format 'l' but found 'i'") != NULL, "%s",
            error.message);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

/* Metadata of a schema made with the given pairs (keys k0.., values v0..). */
static void SchemaWithMetadata(struct ArrowSchema* schema, const char* const* pairs,
                               int n_pairs) {
  struct ArrowBuffer metadata;
  int i;
  cr_assert_eq(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), NANOARROW_OK);
  for (i = 0; i < n_pairs; i++) {
    cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView(pairs[2 * i]),
                                            ArrowCharView(pairs[2 * i + 1])),
                 NANOARROW_OK);
  }
  cr_assert_eq(ArrowSchemaSetMetadata(schema, (const char*)metadata.data), NANOARROW_OK);
  ArrowBufferReset(&metadata);
}

static int MetadataCompare(const char* const* a, int n_a, const char* const* b, int n_b) {
  struct ArrowSchema schema_a;
  struct ArrowSchema schema_b;
  struct ArrowError error;
  int equal = -1;
  SchemaWithMetadata(&schema_a, a, n_a);
  SchemaWithMetadata(&schema_b, b, n_b);
  cr_assert_eq(ArrowTestingCompareSchema(&schema_a, &schema_b, &equal, &error), NANOARROW_OK);
  ArrowSchemaRelease(&schema_a);
  ArrowSchemaRelease(&schema_b);
  return equal;
}

/* Metadata compares as a multiset of pairs: any order, same multiplicity. */
Test(json_compare, metadata_pairs_in_any_order_each_as_often) {
  const char* const kv[] = {"k", "a", "j", "b"};
  const char* const vk[] = {"j", "b", "k", "a"};
  const char* const kk[] = {"k", "a", "k", "a"};
  const char* const aab[] = {"k", "a", "k", "a", "j", "b"};
  const char* const abb[] = {"k", "a", "j", "b", "j", "b"};
  const char* const other_value[] = {"k", "a", "j", "c"};
  cr_assert_eq(MetadataCompare(kv, 2, kv, 2), 1);
  cr_assert_eq(MetadataCompare(kv, 2, vk, 2), 1);
  /* A repeated pair is not matched by a different one, in either direction. */
  cr_assert_eq(MetadataCompare(kk, 2, kv, 2), 0);
  cr_assert_eq(MetadataCompare(kv, 2, kk, 2), 0);
  cr_assert_eq(MetadataCompare(aab, 3, abb, 3), 0);
  cr_assert_eq(MetadataCompare(abb, 3, aab, 3), 0);
  cr_assert_eq(MetadataCompare(kv, 2, other_value, 2), 0);
  cr_assert_eq(MetadataCompare(kv, 2, kv, 1), 0);
}

/* A type this reader does not know is "not supported", so corpus readers may skip
 * the file. */
Test(json_read, unknown_type_name_is_not_supported) {
  const char* doc = "{\"fields\": [{\"name\": \"f\", \"nullable\": true, \"type\": "
                    "{\"name\": \"someday\"}, \"children\": []}]}";
  struct ArrowSchema schema;
  struct ArrowError error;
  cr_assert_eq(ArrowTestingJsonReadSchema(doc, JSON_SIZE(doc), &schema, &error), ENOTSUP);
  cr_assert(strstr(error.message, "unknown type name \"someday\"") != NULL, "%s",
            error.message);
}

/* A batch that cannot be read leaves the caller's array as it was. */
Test(json_read, failed_batch_leaves_out_alone) {
  const char* doc =
      "{\"schema\": {\"fields\": [{\"name\": \"x\", \"nullable\": true, \"type\": "
      "{\"name\": \"int\", \"isSigned\": true, \"bitWidth\": 32}, \"children\": []}]}, "
      "\"batches\": [{\"count\": 2, \"columns\": [{\"name\": \"x\", \"count\": 2, "
      "\"VALIDITY\": [1, 1], \"DATA\": [1]}]}]}";
  struct ArrowArray out;
  struct ArrowError error;
  memset(&out, 0, sizeof(out));
  out.length = 12345;
  cr_assert_eq(ArrowTestingJsonReadBatch(doc, JSON_SIZE(doc), 0, &out, &error), EINVAL);
  cr_assert_eq(out.length, 12345);
  cr_assert_null(out.release);
  cr_assert_eq(ArrowTestingJsonReadBatch(doc, JSON_SIZE(doc), 1, &out, &error), ERANGE);
  cr_assert_eq(out.length, 12345);
}

Test(json_write, round_trip_keeps_values) {
  const char* field =
      "{\"name\": \"m\", \"nullable\": true, \"type\": {\"name\": \"interval\", \"unit\": "
      "\"MONTH_DAY_NANO\"}, \"children\": []}, "
      "{\"name\": \"s\", \"nullable\": true, \"type\": {\"name\": \"utf8\"}, \"children\": "
      "[]}";
  char* doc = Document(field,
                       "{\"name\": \"m\", \"count\": 3, \"VALIDITY\": [1, 1, 0], \"DATA\": "
                       "[{\"months\": 1, \"days\": -2, \"nanoseconds\": 3}, {\"months\": 0, "
                       "\"days\": 0, \"nanoseconds\": -9223372036854775808}, {\"months\": 0, "
                       "\"days\": 0, \"nanoseconds\": 0}]}, "
                       "{\"name\": \"s\", \"count\": 3, \"VALIDITY\": [1, 1, 1], \"OFFSET\": "
                       "[0, 3, 5, 7], \"DATA\": [\"a\\\"b\", \"\\n\\u0001\", \"\\u00e9\"]}",
                       "");
  struct ArrowArrayStream in;
  struct ArrowArrayStream again;
  struct ArrowArrayStream original;
  struct ArrowBuffer text;
  struct ArrowError error;
  int equal = 0;

  cr_assert_eq(ArrowTestingJsonReadStream(doc, JSON_SIZE(doc), &in, &error), NANOARROW_OK,
               "%s", error.message);
  ArrowBufferInit(&text);
  cr_assert_eq(ArrowTestingJsonWriteStream(&in, &text, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowArrayStreamRelease(&in);
  cr_assert_eq(ArrowTestingJsonReadStream((const char*)text.data, text.size_bytes, &again,
                                          &error),
               NANOARROW_OK, "%.*s: %s", (int)text.size_bytes, text.data, error.message);
  cr_assert_eq(ArrowTestingJsonReadStream(doc, JSON_SIZE(doc), &original, &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowTestingCompareStreams(&again, &original, &equal, &error), NANOARROW_OK);
  cr_assert_eq(equal, 1, "%s", error.message);
  /* 64-bit values are written as strings. */
  cr_assert(strstr((const char*)text.data, "-9223372036854775808") != NULL);
  ArrowArrayStreamRelease(&again);
  ArrowArrayStreamRelease(&original);
  ArrowBufferReset(&text);
  free(doc);
}

/* ---- Reading through a caller's allocator ---- */

/* Counts the blocks an allocator hands out and takes back; remembers the last one. */
struct CountingAllocator {
  int64_t n_live;
  int64_t n_allocated;
};

static uint8_t* CountingReallocate(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                                   int64_t old_size, int64_t new_size) {
  struct CountingAllocator* counts = (struct CountingAllocator*)allocator->private_data;
  uint8_t* out = (uint8_t*)realloc(ptr, (size_t)new_size);
  (void)old_size;
  if (out != NULL && ptr == NULL) {
    counts->n_live++;
    counts->n_allocated++;
  }
  return out;
}

static void CountingFree(struct ArrowBufferAllocator* allocator, uint8_t* ptr, int64_t size) {
  struct CountingAllocator* counts = (struct CountingAllocator*)allocator->private_data;
  (void)size;
  if (ptr != NULL) counts->n_live--;
  free(ptr);
}

Test(json_read_options, stream_batches_and_variadic_buffers_use_the_allocator) {
  /* Validity, views, one variadic data buffer and the variadic sizes: four blocks a
   * batch. */
  const char* doc =
      "{\"schema\": {\"fields\": [{\"name\": \"v\", \"nullable\": true, \"type\": "
      "{\"name\": \"binaryview\"}, \"children\": []}]}, \"batches\": [{\"count\": 2, "
      "\"columns\": [{\"name\": \"v\", \"count\": 2, \"VALIDITY\": [1, 0], \"VIEWS\": ["
      "{\"SIZE\": 14, \"PREFIX_HEX\": \"00010203\", \"BUFFER_INDEX\": 0, \"OFFSET\": 0}, "
      "{\"SIZE\": 0, \"INLINED\": \"\"}], \"VARIADIC_DATA_BUFFERS\": "
      "[\"000102030405060708090A0B0C0D\"]}]}]}";
  struct CountingAllocator counts = {0, 0};
  struct ArrowTestingJsonReadOptions options;
  struct ArrowArrayStream stream;
  struct ArrowArray batch;
  struct ArrowError error;
  ArrowTestingJsonReadOptionsInit(&options);
  options.allocator.reallocate = &CountingReallocate;
  options.allocator.free = &CountingFree;
  options.allocator.private_data = &counts;

  cr_assert_eq(ArrowTestingJsonReadStreamWithOptions(doc, JSON_SIZE(doc), &options, &stream,
                                                     &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK, "%s",
               stream.get_last_error(&stream));
  ArrowArrayStreamRelease(&stream);
  cr_assert_eq(counts.n_allocated, 4);
  cr_assert_eq(counts.n_live, 4);
  cr_assert_eq(batch.children[0]->n_buffers, 4);
  ArrowArrayRelease(&batch);
  cr_assert_eq(counts.n_live, 0);

  /* The same column alone, and batch 0 of the document. */
  cr_assert_eq(ArrowTestingJsonReadBatchWithOptions(doc, JSON_SIZE(doc), 0, &options, &batch,
                                                    &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(counts.n_live, 4);
  ArrowArrayRelease(&batch);
  cr_assert_eq(counts.n_live, 0);
  cr_assert_eq(counts.n_allocated, 8);

  /* NULL options: the default allocator. */
  cr_assert_eq(ArrowTestingJsonReadBatchWithOptions(doc, JSON_SIZE(doc), 0, NULL, &batch,
                                                    &error),
               NANOARROW_OK, "%s", error.message);
  ArrowArrayRelease(&batch);
  cr_assert_eq(counts.n_allocated, 8);
}
