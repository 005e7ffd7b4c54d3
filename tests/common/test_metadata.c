#include <criterion/criterion.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

/* Serializes n_keys pairs by hand, independently of the builder under test. */
static int64_t WriteBlob(char* out, int32_t n_keys, const char** keys, const char** values) {
  int64_t offset = 0;
  memcpy(out + offset, &n_keys, sizeof(int32_t));
  offset += sizeof(int32_t);
  for (int32_t i = 0; i < n_keys; i++) {
    int32_t key_size = (int32_t)strlen(keys[i]);
    int32_t value_size = (int32_t)strlen(values[i]);
    memcpy(out + offset, &key_size, sizeof(int32_t));
    offset += sizeof(int32_t);
    memcpy(out + offset, keys[i], (size_t)key_size);
    offset += key_size;
    memcpy(out + offset, &value_size, sizeof(int32_t));
    offset += sizeof(int32_t);
    memcpy(out + offset, values[i], (size_t)value_size);
    offset += value_size;
  }
  return offset;
}

static int ViewEquals(struct ArrowStringView view, const char* expected) {
  return view.size_bytes == (int64_t)strlen(expected) &&
         memcmp(view.data, expected, (size_t)view.size_bytes) == 0;
}

static int32_t KeyCount(const char* metadata) {
  struct ArrowMetadataReader reader;
  cr_assert_eq(ArrowMetadataReaderInit(&reader, metadata), NANOARROW_OK);
  return reader.remaining_keys;
}

Test(metadata, reader_null_is_empty) {
  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  cr_assert_eq(ArrowMetadataReaderInit(&reader, NULL), NANOARROW_OK);
  cr_assert_eq(reader.remaining_keys, 0);
  cr_assert_eq(ArrowMetadataReaderRead(&reader, &key, &value), EINVAL);
  cr_assert_eq(ArrowMetadataSizeOf(NULL), 0);
  cr_assert_not(ArrowMetadataHasKey(NULL, ArrowCharView("key")));
}

Test(metadata, reader_reads_every_pair_then_einval) {
  const char* keys[] = {"key1", "", "key3"};
  const char* values[] = {"value1", "value2", ""};
  char blob[128];
  int64_t size = WriteBlob(blob, 3, keys, values);

  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  cr_assert_eq(ArrowMetadataReaderInit(&reader, blob), NANOARROW_OK);
  cr_assert_eq(reader.remaining_keys, 3);
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(ArrowMetadataReaderRead(&reader, &key, &value), NANOARROW_OK);
    cr_assert(ViewEquals(key, keys[i]));
    cr_assert(ViewEquals(value, values[i]));
  }
  cr_assert_eq(ArrowMetadataReaderRead(&reader, &key, &value), EINVAL);
  cr_assert_eq(ArrowMetadataSizeOf(blob), size);
}

Test(metadata, size_of_empty_blob_is_four) {
  char blob[4];
  cr_assert_eq(WriteBlob(blob, 0, NULL, NULL), 4);
  cr_assert_eq(ArrowMetadataSizeOf(blob), 4);
  cr_assert_eq(KeyCount(blob), 0);
}

Test(metadata, get_value_and_has_key) {
  const char* keys[] = {"a", "b", "a"};
  const char* values[] = {"first", "bee", "second"};
  char blob[128];
  WriteBlob(blob, 3, keys, values);

  struct ArrowStringView value = ArrowCharView("untouched");
  cr_assert_eq(ArrowMetadataGetValue(blob, ArrowCharView("a"), &value), NANOARROW_OK);
  cr_assert(ViewEquals(value, "first"), "the first occurrence wins");
  cr_assert_eq(ArrowMetadataGetValue(blob, ArrowCharView("b"), &value), NANOARROW_OK);
  cr_assert(ViewEquals(value, "bee"));

  value = ArrowCharView("untouched");
  cr_assert_eq(ArrowMetadataGetValue(blob, ArrowCharView("missing"), &value), NANOARROW_OK);
  cr_assert(ViewEquals(value, "untouched"));
  cr_assert_eq(ArrowMetadataGetValue(blob, ArrowCharView("ab"), &value), NANOARROW_OK);
  cr_assert(ViewEquals(value, "untouched"));

  cr_assert(ArrowMetadataHasKey(blob, ArrowCharView("a")));
  cr_assert(ArrowMetadataHasKey(blob, ArrowCharView("b")));
  cr_assert_not(ArrowMetadataHasKey(blob, ArrowCharView("c")));
  cr_assert_not(ArrowMetadataHasKey(blob, ArrowCharView("")));
}

Test(metadata, hostile_negative_key_count) {
  char blob[4];
  int32_t n_keys = -1;
  memcpy(blob, &n_keys, sizeof(n_keys));
  struct ArrowMetadataReader reader;
  cr_assert_eq(ArrowMetadataReaderInit(&reader, blob), EINVAL);
  cr_assert_eq(ArrowMetadataSizeOf(blob), 0);
  struct ArrowStringView value;
  cr_assert_eq(ArrowMetadataGetValue(blob, ArrowCharView("k"), &value), EINVAL);
  cr_assert_not(ArrowMetadataHasKey(blob, ArrowCharView("k")));
}

Test(metadata, hostile_negative_key_length) {
  char blob[16];
  int32_t n_keys = 1;
  /* -8 rewinds onto the key count, which would then read as a valid value length. */
  int32_t key_size = -8;
  memcpy(blob, &n_keys, sizeof(int32_t));
  memcpy(blob + 4, &key_size, sizeof(int32_t));
  memset(blob + 8, 0, 8);

  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  cr_assert_eq(ArrowMetadataReaderInit(&reader, blob), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataReaderRead(&reader, &key, &value), EINVAL);
  cr_assert_eq(ArrowMetadataSizeOf(blob), 0);
  cr_assert_eq(ArrowMetadataGetValue(blob, ArrowCharView("k"), &value), EINVAL);
}

Test(metadata, hostile_negative_value_length) {
  char blob[16];
  int32_t n_keys = 1;
  int32_t key_size = 1;
  int32_t value_size = INT32_MIN;
  memcpy(blob, &n_keys, sizeof(int32_t));
  memcpy(blob + 4, &key_size, sizeof(int32_t));
  blob[8] = 'k';
  memcpy(blob + 9, &value_size, sizeof(int32_t));

  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  cr_assert_eq(ArrowMetadataReaderInit(&reader, blob), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataReaderRead(&reader, &key, &value), EINVAL);
  cr_assert_eq(ArrowMetadataSizeOf(blob), 0);

  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, blob), EINVAL);
  ArrowBufferReset(&buffer);
}

Test(metadata, unaligned_blob) {
  const char* keys[] = {"key"};
  const char* values[] = {"value"};
  char storage[64];
  /* Offset by one byte so that every int32 is misaligned. */
  int64_t size = WriteBlob(storage + 1, 1, keys, values);
  struct ArrowStringView value = {NULL, 0};
  cr_assert_eq(ArrowMetadataSizeOf(storage + 1), size);
  cr_assert_eq(ArrowMetadataGetValue(storage + 1, ArrowCharView("key"), &value),
               NANOARROW_OK);
  cr_assert(ViewEquals(value, "value"));
}

Test(metadata, builder_init_null_and_append) {
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 0);

  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, ArrowCharView("key1"),
                                          ArrowCharView("value1")),
               NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, ArrowCharView("key2"),
                                          ArrowCharView("")),
               NANOARROW_OK);

  const char* keys[] = {"key1", "key2"};
  const char* values[] = {"value1", ""};
  char expected[128];
  int64_t expected_size = WriteBlob(expected, 2, keys, values);
  cr_assert_eq(buffer.size_bytes, expected_size);
  cr_assert_eq(memcmp(buffer.data, expected, (size_t)expected_size), 0);
  cr_assert_eq(ArrowMetadataSizeOf((const char*)buffer.data), expected_size);
  ArrowBufferReset(&buffer);
}

Test(metadata, builder_init_copies_existing) {
  const char* keys[] = {"a", "b"};
  const char* values[] = {"1", "2"};
  char blob[64];
  int64_t size = WriteBlob(blob, 2, keys, values);

  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, blob), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, size);
  cr_assert_eq(memcmp(buffer.data, blob, (size_t)size), 0);
  cr_assert_neq((const void*)buffer.data, (const void*)blob);
  ArrowBufferReset(&buffer);
}

Test(metadata, builder_set_replaces_in_place_or_appends) {
  const char* keys[] = {"a", "b", "c"};
  const char* values[] = {"1", "2", "3"};
  char blob[128];
  WriteBlob(blob, 3, keys, values);

  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, blob), NANOARROW_OK);

  /* Longer value in the middle: the entries after it move right. */
  cr_assert_eq(ArrowMetadataBuilderSet(&buffer, ArrowCharView("b"),
                                       ArrowCharView("a much longer value")),
               NANOARROW_OK);
  const char* values_longer[] = {"1", "a much longer value", "3"};
  char expected[128];
  int64_t expected_size = WriteBlob(expected, 3, keys, values_longer);
  cr_assert_eq(buffer.size_bytes, expected_size);
  cr_assert_eq(memcmp(buffer.data, expected, (size_t)expected_size), 0);

  /* Shorter (empty) value. */
  cr_assert_eq(ArrowMetadataBuilderSet(&buffer, ArrowCharView("a"), ArrowCharView("")),
               NANOARROW_OK);
  const char* values_shorter[] = {"", "a much longer value", "3"};
  expected_size = WriteBlob(expected, 3, keys, values_shorter);
  cr_assert_eq(buffer.size_bytes, expected_size);
  cr_assert_eq(memcmp(buffer.data, expected, (size_t)expected_size), 0);

  /* Absent key: appended. */
  cr_assert_eq(ArrowMetadataBuilderSet(&buffer, ArrowCharView("d"), ArrowCharView("4")),
               NANOARROW_OK);
  const char* keys4[] = {"a", "b", "c", "d"};
  const char* values4[] = {"", "a much longer value", "3", "4"};
  expected_size = WriteBlob(expected, 4, keys4, values4);
  cr_assert_eq(buffer.size_bytes, expected_size);
  cr_assert_eq(memcmp(buffer.data, expected, (size_t)expected_size), 0);
  ArrowBufferReset(&buffer);
}

Test(metadata, builder_set_on_empty_buffer) {
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderSet(&buffer, ArrowCharView("k"), ArrowCharView("v")),
               NANOARROW_OK);
  struct ArrowStringView value = {NULL, 0};
  cr_assert_eq(ArrowMetadataGetValue((const char*)buffer.data, ArrowCharView("k"), &value),
               NANOARROW_OK);
  cr_assert(ViewEquals(value, "v"));
  cr_assert_eq(KeyCount((const char*)buffer.data), 1);
  ArrowBufferReset(&buffer);
}

Test(metadata, builder_set_collapses_duplicates) {
  const char* keys[] = {"k", "x", "k"};
  const char* values[] = {"1", "2", "3"};
  char blob[128];
  WriteBlob(blob, 3, keys, values);

  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, blob), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderSet(&buffer, ArrowCharView("k"), ArrowCharView("new")),
               NANOARROW_OK);

  const char* expected_keys[] = {"k", "x"};
  const char* expected_values[] = {"new", "2"};
  char expected[128];
  int64_t expected_size = WriteBlob(expected, 2, expected_keys, expected_values);
  cr_assert_eq(buffer.size_bytes, expected_size);
  cr_assert_eq(memcmp(buffer.data, expected, (size_t)expected_size), 0);
  ArrowBufferReset(&buffer);
}

Test(metadata, builder_remove_all_occurrences) {
  const char* keys[] = {"k", "a", "k", "b", "k"};
  const char* values[] = {"1", "2", "3", "4", "5"};
  char blob[256];
  WriteBlob(blob, 5, keys, values);

  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, blob), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderRemove(&buffer, ArrowCharView("k")), NANOARROW_OK);

  const char* expected_keys[] = {"a", "b"};
  const char* expected_values[] = {"2", "4"};
  char expected[128];
  int64_t expected_size = WriteBlob(expected, 2, expected_keys, expected_values);
  cr_assert_eq(buffer.size_bytes, expected_size);
  cr_assert_eq(memcmp(buffer.data, expected, (size_t)expected_size), 0);

  /* Removing an absent key changes nothing. */
  cr_assert_eq(ArrowMetadataBuilderRemove(&buffer, ArrowCharView("zzz")), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, expected_size);

  /* Removing every key leaves a valid empty blob. */
  cr_assert_eq(ArrowMetadataBuilderRemove(&buffer, ArrowCharView("a")), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderRemove(&buffer, ArrowCharView("b")), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 4);
  cr_assert_eq(KeyCount((const char*)buffer.data), 0);
  ArrowBufferReset(&buffer);
}

Test(metadata, builder_remove_on_empty_buffer) {
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderRemove(&buffer, ArrowCharView("k")), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 0);
  ArrowBufferReset(&buffer);
}

Test(metadata, builder_rejects_truncated_buffer) {
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, ArrowCharView("key"),
                                          ArrowCharView("value")),
               NANOARROW_OK);
  /* Cut the last entry short: the builder knows the size and must notice. */
  buffer.size_bytes -= 2;
  cr_assert_eq(ArrowMetadataBuilderRemove(&buffer, ArrowCharView("key")), EINVAL);
  cr_assert_eq(ArrowMetadataBuilderSet(&buffer, ArrowCharView("key"), ArrowCharView("v")),
               EINVAL);
  ArrowBufferReset(&buffer);
}

Test(metadata, builder_rejects_negative_sizes) {
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  struct ArrowStringView bad = {"x", -1};
  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, bad, ArrowCharView("v")), EINVAL);
  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, ArrowCharView("k"), bad), EINVAL);
  cr_assert_eq(ArrowMetadataBuilderSet(&buffer, ArrowCharView("k"), bad), EINVAL);
  cr_assert_eq(buffer.size_bytes, 0);
  ArrowBufferReset(&buffer);
}

Test(metadata, builder_output_is_schema_metadata) {
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, ArrowCharView("ARROW:extension:name"),
                                          ArrowCharView("arrow.uuid")),
               NANOARROW_OK);

  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(&schema, (const char*)buffer.data), NANOARROW_OK);
  ArrowBufferReset(&buffer);

  struct ArrowStringView value = {NULL, 0};
  cr_assert_eq(ArrowMetadataGetValue(schema.metadata, ArrowCharView("ARROW:extension:name"),
                                     &value),
               NANOARROW_OK);
  cr_assert(ViewEquals(value, "arrow.uuid"));
  ArrowSchemaRelease(&schema);
}
