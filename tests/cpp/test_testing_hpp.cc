// Self-checking tests of nanoarrow/nanoarrow_testing.hpp (TestingJSONWriter,
// TestingJSONReader, TestingJSONComparison). Prints one line per failed check and
// exits non-zero when any check failed. Built as C++11 and run under ASan with leak
// detection: a member that leaks or frees twice fails.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "nanoarrow/nanoarrow_testing.hpp"

#include "check.h"

using nanoarrow::testing::TestingJSONComparison;
using nanoarrow::testing::TestingJSONReader;
using nanoarrow::testing::TestingJSONWriter;

static const char kSchemaJson[] =
    R"({"fields": [{"name": "i", "nullable": true, "type": {"name": "int", "bitWidth": 32, "isSigned": true}, "children": []}, )"
    R"({"name": "d", "nullable": false, "type": {"name": "floatingpoint", "precision": "DOUBLE"}, "children": []}], )"
    R"("metadata": [{"key": "k", "value": "v"}]})";

static const char kBatch0Json[] =
    R"({"count": 2, "columns": [{"name": "i", "count": 2, "VALIDITY": [1, 0], "DATA": [1, 0]}, )"
    R"({"name": "d", "count": 2, "VALIDITY": [1, 1], "DATA": [1.5, 0.1234]}]})";

static const char kBatch1Json[] =
    R"({"count": 1, "columns": [{"name": "i", "count": 1, "VALIDITY": [1], "DATA": [7]}, )"
    R"({"name": "d", "count": 1, "VALIDITY": [1], "DATA": [2.25]}]})";

static std::string DataFileJson() {
  return std::string("{\"schema\": ") + kSchemaJson + ", \"batches\": [" + kBatch0Json + ", " +
         kBatch1Json + "]}";
}

static void ReadSchemaOrThrow(const std::string& json, struct ArrowSchema* out) {
  TestingJSONReader reader;
  NANOARROW_THROW_NOT_OK(reader.ReadSchema(json, out));
}

static void ReadBatchOrThrow(const struct ArrowSchema* schema, const std::string& json,
                             struct ArrowArray* out) {
  TestingJSONReader reader;
  NANOARROW_THROW_NOT_OK(reader.ReadBatch(json, schema, out));
}

static void TestWriterPieces() {
  TestingJSONWriter writer;
  nanoarrow::UniqueSchema schema;
  ReadSchemaOrThrow(kSchemaJson, schema.get());

  std::stringstream type;
  CHECK(writer.WriteType(type, schema->children[0]) == NANOARROW_OK);
  CHECK(type.str() == R"({"name": "int", "bitWidth": 32, "isSigned": true})");

  std::stringstream field;
  CHECK(writer.WriteField(field, schema->children[1]) == NANOARROW_OK);
  CHECK(field.str() ==
        R"({"name": "d", "nullable": false, "type": {"name": "floatingpoint", "precision": "DOUBLE"}, "children": []})");

  std::stringstream metadata;
  CHECK(writer.WriteMetadata(metadata, schema->metadata) == NANOARROW_OK);
  CHECK(metadata.str() == R"([{"key": "k", "value": "v"}])");
  std::stringstream no_metadata;
  CHECK(writer.WriteMetadata(no_metadata, nullptr) == NANOARROW_OK);
  CHECK(no_metadata.str() == "null");  // absent metadata is JSON null, as in nanoarrow
  std::stringstream empty_metadata;
  CHECK(writer.WriteMetadata(empty_metadata, "\0\0\0\0") == NANOARROW_OK);
  CHECK(empty_metadata.str() == "[]");

  std::stringstream schema_out;
  CHECK(writer.WriteSchema(schema_out, schema.get()) == NANOARROW_OK);
  CHECK(schema_out.str() == kSchemaJson);

  // include_metadata(false) drops schema and field metadata.
  TestingJSONWriter no_meta_writer;
  no_meta_writer.set_include_metadata(false);
  std::stringstream schema_no_meta;
  CHECK(no_meta_writer.WriteSchema(schema_no_meta, schema.get()) == NANOARROW_OK);
  CHECK(schema_no_meta.str().find("metadata") == std::string::npos);
  CHECK(schema_no_meta.str().find(R"({"fields": [{"name": "i")") == 0);

  // A non-struct schema is not a record batch schema: an error, nothing written.
  nanoarrow::UniqueSchema int_schema;
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(int_schema.get(), NANOARROW_TYPE_INT32));
  std::stringstream refused;
  CHECK(writer.WriteSchema(refused, int_schema.get()) == EINVAL);
  CHECK(refused.str().empty());
}

static void TestWriterBatchColumnPrecision() {
  nanoarrow::UniqueSchema schema;
  ReadSchemaOrThrow(kSchemaJson, schema.get());
  nanoarrow::UniqueArray batch;
  ReadBatchOrThrow(schema.get(), kBatch0Json, batch.get());
  nanoarrow::UniqueArrayView view;
  NANOARROW_THROW_NOT_OK(ArrowArrayViewInitFromSchema(view.get(), schema.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), batch.get(), nullptr));

  TestingJSONWriter writer;
  std::stringstream batch_out;
  CHECK(writer.WriteBatch(batch_out, schema.get(), view.get()) == NANOARROW_OK);
  CHECK(batch_out.str() == kBatch0Json);

  std::stringstream column_out;
  CHECK(writer.WriteColumn(column_out, schema->children[1], view->children[1]) ==
        NANOARROW_OK);
  CHECK(column_out.str() == R"({"name": "d", "count": 2, "VALIDITY": [1, 1], "DATA": [1.5, 0.1234]})");

  writer.set_float_precision(3);
  std::stringstream rounded;
  CHECK(writer.WriteColumn(rounded, schema->children[1], view->children[1]) == NANOARROW_OK);
  CHECK(rounded.str() == R"({"name": "d", "count": 2, "VALIDITY": [1, 1], "DATA": [1.500, 0.123]})");

  writer.set_float_precision(-1);
  std::stringstream back;
  CHECK(writer.WriteColumn(back, schema->children[1], view->children[1]) == NANOARROW_OK);
  CHECK(back.str() == column_out.str());
}

static void TestDataFileRoundTrip() {
  TestingJSONReader reader;
  TestingJSONWriter writer;
  const std::string json = DataFileJson();

  nanoarrow::UniqueArrayStream stream;
  CHECK(reader.ReadDataFile(json, stream.get()) == NANOARROW_OK);
  std::stringstream written;
  CHECK(writer.WriteDataFile(written, stream.get()) == NANOARROW_OK);
  CHECK(written.str() == json);

  // write -> read -> compare equal
  nanoarrow::UniqueArrayStream original;
  nanoarrow::UniqueArrayStream reread;
  CHECK(reader.ReadDataFile(json, original.get()) == NANOARROW_OK);
  CHECK(reader.ReadDataFile(written.str(), reread.get()) == NANOARROW_OK);
  TestingJSONComparison comparison;
  CHECK(comparison.CompareArrayStream(reread.get(), original.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 0);

  // An empty stream.
  nanoarrow::UniqueSchema empty_schema;
  ReadSchemaOrThrow(R"({"fields": []})", empty_schema.get());
  nanoarrow::UniqueArrayStream empty = nanoarrow::EmptyArrayStream::MakeUnique(empty_schema.get());
  std::stringstream empty_out;
  CHECK(writer.WriteDataFile(empty_out, empty.get()) == NANOARROW_OK);
  CHECK(empty_out.str() == R"({"schema": {"fields": []}, "batches": []})");
}

static int64_t CountBatches(struct ArrowArrayStream* stream, int64_t* first_length) {
  int64_t n = 0;
  *first_length = -1;
  while (true) {
    nanoarrow::UniqueArray array;
    if (stream->get_next(stream, array.get()) != NANOARROW_OK) return -1;
    if (array->release == nullptr) return n;
    if (n == 0) *first_length = array->length;
    n++;
  }
}

static void TestReader() {
  TestingJSONReader reader;
  TestingJSONReader with_allocator(ArrowBufferAllocatorDefault());
  const std::string json = DataFileJson();
  CHECK(TestingJSONReader::kNumBatchOnlySchema == -2);
  CHECK(TestingJSONReader::kNumBatchReadAll == -1);

  int64_t first_length = 0;
  nanoarrow::UniqueArrayStream all;
  CHECK(with_allocator.ReadDataFile(json, all.get()) == NANOARROW_OK);
  CHECK(CountBatches(all.get(), &first_length) == 2);
  CHECK(first_length == 2);

  nanoarrow::UniqueArrayStream only_schema;
  CHECK(reader.ReadDataFile(json, only_schema.get(), TestingJSONReader::kNumBatchOnlySchema) ==
        NANOARROW_OK);
  nanoarrow::UniqueSchema schema;
  CHECK(only_schema->get_schema(only_schema.get(), schema.get()) == NANOARROW_OK);
  CHECK(schema->n_children == 2);
  CHECK(CountBatches(only_schema.get(), &first_length) == 0);

  nanoarrow::UniqueArrayStream second;
  CHECK(reader.ReadDataFile(json, second.get(), 1) == NANOARROW_OK);
  CHECK(CountBatches(second.get(), &first_length) == 1);
  CHECK(first_length == 1);

  struct ArrowError error;
  error.message[0] = '\0';
  nanoarrow::UniqueArrayStream missing;
  // A batch the file does not have is EINVAL, as nanoarrow's reader says.
  CHECK(reader.ReadDataFile(json, missing.get(), 2, &error) == EINVAL);
  CHECK(std::strstr(error.message, "batch 2") != nullptr);
  CHECK(missing->release == nullptr);
  CHECK(reader.ReadDataFile(json, missing.get(), -3, &error) == EINVAL);

  nanoarrow::UniqueSchema field;
  CHECK(reader.ReadField(R"({"name": "s", "nullable": true, "type": {"name": "utf8"}, "children": []})",
                         field.get()) == NANOARROW_OK);
  CHECK(std::strcmp(field->format, "u") == 0);
  CHECK(std::strcmp(field->name, "s") == 0);

  nanoarrow::UniqueArray column;
  CHECK(reader.ReadColumn(R"({"name": "s", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 3], "DATA": ["a", "bc"]})",
                          field.get(), column.get()) == NANOARROW_OK);
  CHECK(column->length == 2);

  nanoarrow::UniqueArray batch;
  CHECK(reader.ReadBatch(kBatch1Json, schema.get(), batch.get()) == NANOARROW_OK);
  CHECK(batch->length == 1 && batch->n_children == 2);
}

static void TestReaderErrors() {
  TestingJSONReader reader;
  struct ArrowError error;

  error.message[0] = '\0';
  nanoarrow::UniqueSchema schema;
  CHECK(reader.ReadSchema("{\"fields\": [", schema.get(), &error) == EINVAL);
  CHECK(std::strstr(error.message, "invalid JSON") != nullptr);
  CHECK(schema->release == nullptr);
  CHECK(reader.ReadSchema("{\"fields\": [", schema.get()) == EINVAL);  // no ArrowError

  error.message[0] = '\0';
  nanoarrow::UniqueSchema field;
  CHECK(reader.ReadField(R"({"name": "x", "type": {"name": "nosuchtype"}})", field.get(),
                         &error) != NANOARROW_OK);
  CHECK(std::strstr(error.message, "'x'") != nullptr);
  CHECK(field->release == nullptr);
  CHECK(reader.ReadField("[1, 2]", field.get(), &error) == EINVAL);
  CHECK(std::strstr(error.message, "not an object") != nullptr);

  nanoarrow::UniqueSchema good;
  ReadSchemaOrThrow(kSchemaJson, good.get());
  error.message[0] = '\0';
  nanoarrow::UniqueArray batch;
  CHECK(reader.ReadBatch(R"({"count": 1, "columns": []})", good.get(), batch.get(), &error) ==
        EINVAL);
  CHECK(std::strstr(error.message, "0 columns for 2 fields") != nullptr);
  CHECK(batch->release == nullptr);

  error.message[0] = '\0';
  nanoarrow::UniqueArray column;
  CHECK(reader.ReadColumn(R"({"name": "i", "count": 2, "VALIDITY": [1, 1], "DATA": [1]})",
                          good->children[0], column.get(), &error) == EINVAL);
  CHECK(error.message[0] != '\0');
  CHECK(column->release == nullptr);

  error.message[0] = '\0';
  nanoarrow::UniqueArrayStream stream;
  CHECK(reader.ReadDataFile("not json", stream.get(), TestingJSONReader::kNumBatchReadAll,
                            &error) == EINVAL);
  CHECK(error.message[0] != '\0');
  CHECK(stream->release == nullptr);
}

static void TestCompareSchema() {
  nanoarrow::UniqueSchema expected;
  nanoarrow::UniqueSchema actual;
  ReadSchemaOrThrow(kSchemaJson, expected.get());
  // The second field renamed, the schema metadata changed.
  ReadSchemaOrThrow(
      R"({"fields": [{"name": "i", "nullable": true, "type": {"name": "int", "bitWidth": 32, "isSigned": true}, "children": []}, )"
      R"({"name": "e", "nullable": false, "type": {"name": "floatingpoint", "precision": "DOUBLE"}, "children": []}], )"
      R"("metadata": [{"key": "k", "value": "w"}]})",
      actual.get());

  TestingJSONComparison comparison;
  CHECK(comparison.CompareSchema(expected.get(), expected.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 0);

  CHECK(comparison.CompareSchema(actual.get(), expected.get(), nullptr, "Schema") ==
        NANOARROW_OK);
  CHECK(comparison.num_differences() == 2);
  std::stringstream differences;
  comparison.WriteDifferences(differences);
  CHECK(differences.str() ==
        "Path: Schema.metadata\n"
        "- [{\"key\": \"k\", \"value\": \"w\"}]\n"
        "+ [{\"key\": \"k\", \"value\": \"v\"}]\n"
        "\n"
        "Path: Schema.fields[1]\n"
        "- {\"name\": \"e\", \"nullable\": false, \"type\": {\"name\": \"floatingpoint\", "
        "\"precision\": \"DOUBLE\"}, \"children\": []}\n"
        "+ {\"name\": \"d\", \"nullable\": false, \"type\": {\"name\": \"floatingpoint\", "
        "\"precision\": \"DOUBLE\"}, \"children\": []}\n"
        "\n");

  comparison.ClearDifferences();
  CHECK(comparison.num_differences() == 0);
  std::stringstream none;
  comparison.WriteDifferences(none);
  CHECK(none.str().empty());

  // Top-level flags count unless set_compare_batch_flags(false).
  nanoarrow::UniqueSchema nullable_copy;
  NANOARROW_THROW_NOT_OK(ArrowSchemaDeepCopy(expected.get(), nullable_copy.get()));
  nullable_copy->flags ^= ARROW_FLAG_NULLABLE;
  CHECK(comparison.CompareSchema(nullable_copy.get(), expected.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 1);
  comparison.ClearDifferences();
  comparison.set_compare_batch_flags(false);
  CHECK(comparison.CompareSchema(nullable_copy.get(), expected.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 0);

  // Metadata order counts unless set_compare_metadata_order(false).
  nanoarrow::UniqueSchema ab;
  nanoarrow::UniqueSchema ba;
  ReadSchemaOrThrow(
      R"({"fields": [], "metadata": [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}]})",
      ab.get());
  ReadSchemaOrThrow(
      R"({"fields": [], "metadata": [{"key": "b", "value": "2"}, {"key": "a", "value": "1"}]})",
      ba.get());
  TestingJSONComparison ordered;
  CHECK(ordered.CompareSchema(ab.get(), ba.get()) == NANOARROW_OK);
  CHECK(ordered.num_differences() == 1);
  TestingJSONComparison unordered;
  unordered.set_compare_metadata_order(false);
  CHECK(unordered.CompareSchema(ab.get(), ba.get()) == NANOARROW_OK);
  CHECK(unordered.num_differences() == 0);
  // ...but different pairs still differ.
  CHECK(unordered.CompareSchema(ab.get(), expected.get()) == NANOARROW_OK);
  CHECK(unordered.num_differences() > 0);

  struct ArrowError error;
  nanoarrow::UniqueSchema released;
  CHECK(comparison.CompareSchema(released.get(), expected.get(), &error) == EINVAL);
}

static void TestCompareBatch() {
  nanoarrow::UniqueSchema schema;
  ReadSchemaOrThrow(kSchemaJson, schema.get());
  nanoarrow::UniqueArray expected;
  nanoarrow::UniqueArray both_differ;
  nanoarrow::UniqueArray close;
  ReadBatchOrThrow(schema.get(), kBatch0Json, expected.get());
  ReadBatchOrThrow(schema.get(),
                   R"({"count": 2, "columns": [{"name": "i", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 5]}, )"
                   R"({"name": "d", "count": 2, "DATA": [1.5, 9]}]})",
                   both_differ.get());
  ReadBatchOrThrow(schema.get(),
                   R"({"count": 2, "columns": [{"name": "i", "count": 2, "VALIDITY": [1, 0], "DATA": [1, 99]}, )"
                   R"({"name": "d", "count": 2, "DATA": [1.5001, 0.1231]}]})",
                   close.get());

  TestingJSONComparison comparison;
  struct ArrowError error;
  error.message[0] = '\0';
  CHECK(comparison.CompareBatch(expected.get(), expected.get(), &error) == EINVAL);
  CHECK(std::strstr(error.message, "SetSchema") != nullptr);

  CHECK(comparison.SetSchema(schema.get()) == NANOARROW_OK);
  CHECK(comparison.CompareBatch(expected.get(), expected.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 0);

  CHECK(comparison.CompareBatch(both_differ.get(), expected.get(), nullptr, "Batch 0") ==
        NANOARROW_OK);
  CHECK(comparison.num_differences() == 2);
  std::stringstream differences;
  comparison.WriteDifferences(differences);
  CHECK(differences.str() ==
        "Path: Batch 0.columns[0]\n"
        "- {\"name\": \"i\", \"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [1, 5]}\n"
        "+ {\"name\": \"i\", \"count\": 2, \"VALIDITY\": [1, 0], \"DATA\": [1, 0]}\n"
        "\n"
        "Path: Batch 0.columns[1]\n"
        "- {\"name\": \"d\", \"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [1.5, 9.0]}\n"
        "+ {\"name\": \"d\", \"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [1.5, 0.1234]}\n"
        "\n");
  comparison.ClearDifferences();

  // A null slot's value does not matter; 1.5001 vs 1.5 does, unless compared to 3
  // decimal places.
  CHECK(comparison.CompareBatch(close.get(), expected.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 1);
  comparison.ClearDifferences();
  comparison.set_compare_float_precision(3);
  CHECK(comparison.CompareBatch(close.get(), expected.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 0);

  // Lengths.
  nanoarrow::UniqueArray shorter;
  ReadBatchOrThrow(schema.get(), kBatch1Json, shorter.get());
  CHECK(comparison.CompareBatch(shorter.get(), expected.get(), nullptr, "B") == NANOARROW_OK);
  CHECK(comparison.num_differences() == 1);
  std::stringstream length;
  comparison.WriteDifferences(length);
  CHECK(length.str() == "Path: B.length\n- 1\n+ 2\n\n");

  // An invalid array is an error, not a difference.
  comparison.ClearDifferences();
  nanoarrow::UniqueArray broken;
  ReadBatchOrThrow(schema.get(), kBatch0Json, broken.get());
  broken->children[0]->null_count = 2;  // it has 1
  error.message[0] = '\0';
  CHECK(comparison.CompareBatch(broken.get(), expected.get(), &error) != NANOARROW_OK);
  CHECK(std::strstr(error.message, "actual array is invalid") != nullptr);
  CHECK(comparison.num_differences() == 0);
  broken->children[0]->null_count = 1;
}

static void TestCompareArrayStream() {
  TestingJSONReader reader;
  const std::string json = DataFileJson();
  const std::string one_batch =
      std::string("{\"schema\": ") + kSchemaJson + ", \"batches\": [" + kBatch0Json + "]}";

  TestingJSONComparison comparison;
  nanoarrow::UniqueArrayStream actual;
  nanoarrow::UniqueArrayStream expected;
  NANOARROW_THROW_NOT_OK(reader.ReadDataFile(one_batch, actual.get()));
  NANOARROW_THROW_NOT_OK(reader.ReadDataFile(json, expected.get()));
  CHECK(comparison.CompareArrayStream(actual.get(), expected.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 1);
  std::stringstream differences;
  comparison.WriteDifferences(differences);
  CHECK(differences.str() == "Path: Batch 1\n- finished stream\n+ unfinished stream\n\n");

  // Differing schemas stop the comparison before the batches.
  comparison.ClearDifferences();
  nanoarrow::UniqueArrayStream other;
  nanoarrow::UniqueArrayStream expected2;
  NANOARROW_THROW_NOT_OK(reader.ReadDataFile(
      R"({"schema": {"fields": []}, "batches": [{"count": 0, "columns": []}]})", other.get()));
  NANOARROW_THROW_NOT_OK(reader.ReadDataFile(json, expected2.get()));
  CHECK(comparison.CompareArrayStream(other.get(), expected2.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() >= 1);
  std::stringstream schema_differences;
  comparison.WriteDifferences(schema_differences);
  CHECK(schema_differences.str().find("Path: Schema.") == 0);
  CHECK(schema_differences.str().find("Batch") == std::string::npos);

  struct ArrowError error;
  nanoarrow::UniqueArrayStream released;
  CHECK(comparison.CompareArrayStream(released.get(), expected2.get(), &error) == EINVAL);
}

// A struct batch of one column: int32 indices into a string dictionary holding
// `values`, or (in_list) a list<dictionary> column with one list of those indices.
static void MakeDictionaryBatch(const std::vector<std::string>& values,
                                const std::vector<int32_t>& indices, bool in_list,
                                struct ArrowSchema* schema, struct ArrowArray* out) {
  nanoarrow::UniqueSchema made;
  ArrowSchemaInit(made.get());
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetTypeStruct(made.get(), 1));
  struct ArrowSchema* encoded = made->children[0];
  if (in_list) {
    NANOARROW_THROW_NOT_OK(ArrowSchemaSetType(encoded, NANOARROW_TYPE_LIST));
    encoded = encoded->children[0];
  }
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetType(encoded, NANOARROW_TYPE_INT32));
  NANOARROW_THROW_NOT_OK(ArrowSchemaAllocateDictionary(encoded));
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(encoded->dictionary, NANOARROW_TYPE_STRING));

  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromSchema(array.get(), made.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  struct ArrowArray* column = array->children[0];
  struct ArrowArray* index_array = in_list ? column->children[0] : column;
  for (int32_t index : indices) {
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(index_array, index));
    if (!in_list) NANOARROW_THROW_NOT_OK(ArrowArrayFinishElement(array.get()));
  }
  if (in_list) {
    NANOARROW_THROW_NOT_OK(ArrowArrayFinishElement(column));
    NANOARROW_THROW_NOT_OK(ArrowArrayFinishElement(array.get()));
  }
  for (const std::string& value : values) {
    NANOARROW_THROW_NOT_OK(
        ArrowArrayAppendString(index_array->dictionary, ArrowCharView(value.c_str())));
  }
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
  ArrowSchemaMove(made.get(), schema);
  ArrowArrayMove(array.get(), out);
}

// Columns that differ only in their dictionary values are reported at the
// dictionary, showing the values (the columns themselves read the same).
static void TestCompareDictionaries() {
  for (bool in_list : {false, true}) {
    nanoarrow::UniqueSchema schema;
    nanoarrow::UniqueArray expected;
    nanoarrow::UniqueArray actual;
    nanoarrow::UniqueArray other_indices;
    MakeDictionaryBatch({"abc"}, {0}, in_list, schema.get(), expected.get());
    nanoarrow::UniqueSchema unused;
    MakeDictionaryBatch({"def"}, {0}, in_list, unused.get(), actual.get());
    nanoarrow::UniqueSchema unused2;
    MakeDictionaryBatch({"def", "abc"}, {1}, in_list, unused2.get(), other_indices.get());

    TestingJSONComparison comparison;
    CHECK(comparison.SetSchema(schema.get()) == NANOARROW_OK);
    CHECK(comparison.CompareBatch(actual.get(), actual.get()) == NANOARROW_OK);
    CHECK(comparison.num_differences() == 0);
    // Other indices into another dictionary, the same values: no difference.
    CHECK(comparison.CompareBatch(other_indices.get(), expected.get()) == NANOARROW_OK);
    CHECK(comparison.num_differences() == 0);

    struct ArrowError error;
    CHECK(comparison.CompareBatch(actual.get(), expected.get(), &error, "Batch 0") ==
          NANOARROW_OK);
    CHECK(comparison.num_differences() == 1);
    std::stringstream differences;
    comparison.WriteDifferences(differences);
    const std::string path = in_list ? "Batch 0.columns[0].children[0].dictionary"
                                     : "Batch 0.columns[0].dictionary";
    CHECK(differences.str() ==
          "Path: " + path + "\n" +
              R"(- {"name": null, "count": 1, "VALIDITY": [1], "OFFSET": [0, 3], "DATA": ["def"]})"
              "\n" +
              R"(+ {"name": null, "count": 1, "VALIDITY": [1], "OFFSET": [0, 3], "DATA": ["abc"]})"
              "\n\n");
    comparison.ClearDifferences();

    // When the indices are written differently too, the column is what is shown.
    CHECK(comparison.CompareBatch(other_indices.get(), actual.get()) == NANOARROW_OK);
    CHECK(comparison.num_differences() == 1);
    std::stringstream column_differences;
    comparison.WriteDifferences(column_differences);
    CHECK(column_differences.str().find("Path: .columns[0]\n") == 0);
  }
}

// An allocator that counts what it allocates and frees and knows which blocks are
// live.
struct CountingAllocations {
  std::set<const uint8_t*> live;
  int64_t n_allocated = 0;
  int64_t n_freed = 0;
};

static uint8_t* CountingReallocate(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                                   int64_t old_size, int64_t new_size) {
  static_cast<void>(old_size);
  auto* counts = static_cast<CountingAllocations*>(allocator->private_data);
  auto* out = static_cast<uint8_t*>(std::realloc(ptr, static_cast<size_t>(new_size)));
  if (out == nullptr) return nullptr;
  if (ptr == nullptr) {
    counts->n_allocated++;
  } else {
    counts->live.erase(ptr);
  }
  counts->live.insert(out);
  return out;
}

static void CountingFree(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                         int64_t size) {
  static_cast<void>(size);
  auto* counts = static_cast<CountingAllocations*>(allocator->private_data);
  if (ptr != nullptr) {
    counts->n_freed++;
    counts->live.erase(ptr);
  }
  std::free(ptr);
}

// Checks that every buffer of array (children and dictionaries too) is a live block
// of counts; returns how many buffers were checked.
static int64_t CheckBuffersFrom(const struct ArrowArray* array,
                                const CountingAllocations& counts) {
  int64_t n_checked = 0;
  for (int64_t i = 0; i < array->n_buffers; i++) {
    if (array->buffers[i] == nullptr) continue;
    n_checked++;
    CHECK(counts.live.count(static_cast<const uint8_t*>(array->buffers[i])) == 1);
  }
  for (int64_t i = 0; i < array->n_children; i++) {
    n_checked += CheckBuffersFrom(array->children[i], counts);
  }
  if (array->dictionary != nullptr) n_checked += CheckBuffersFrom(array->dictionary, counts);
  return n_checked;
}

static const char kAllocatorDataFile[] =
    R"({"schema": {"fields": [)"
    R"({"name": "i", "nullable": true, "type": {"name": "int", "bitWidth": 32, "isSigned": true}, "children": []}, )"
    R"({"name": "s", "nullable": true, "type": {"name": "utf8"}, "children": []}, )"
    R"({"name": "l", "nullable": true, "type": {"name": "list"}, "children": [)"
    R"({"name": "item", "nullable": true, "type": {"name": "int", "bitWidth": 64, "isSigned": true}, "children": []}]}, )"
    R"({"name": "d", "nullable": true, "type": {"name": "utf8"}, "dictionary": {"id": 0, "indexType": )"
    R"({"name": "int", "bitWidth": 32, "isSigned": true}, "isOrdered": false}, "children": []}]}, )"
    R"("batches": [{"count": 2, "columns": [)"
    R"({"name": "i", "count": 2, "VALIDITY": [1, 0], "DATA": [1, 2]}, )"
    R"({"name": "s", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 3], "DATA": ["a", "bc"]}, )"
    R"({"name": "l", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 2, 3], "children": [)"
    R"({"name": "item", "count": 3, "VALIDITY": [1, 1, 1], "DATA": ["1", "2", "3"]}]}, )"
    R"({"name": "d", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 0]}]}], )"
    R"("dictionaries": [{"id": 0, "data": {"count": 2, "columns": [)"
    R"({"name": null, "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 2], "DATA": ["x", "y"]}]}}]})";

// A reader made with an allocator allocates every buffer it reads through it, and
// the arrays it returns free them through it.
static void TestReaderAllocator() {
  CountingAllocations counts;
  struct ArrowBufferAllocator allocator;
  allocator.reallocate = &CountingReallocate;
  allocator.free = &CountingFree;
  allocator.private_data = &counts;
  TestingJSONReader reader(allocator);

  for (int num_batch : {TestingJSONReader::kNumBatchReadAll, 0}) {
    nanoarrow::UniqueArrayStream stream;
    CHECK(reader.ReadDataFile(kAllocatorDataFile, stream.get(), num_batch) == NANOARROW_OK);
    nanoarrow::UniqueArray batch;
    CHECK(stream->get_next(stream.get(), batch.get()) == NANOARROW_OK);
    CHECK(batch->release != nullptr);
    if (batch->release == nullptr) continue;
    // Validity, data and offsets of i, s, l, l's item, d and d's dictionary.
    CHECK(CheckBuffersFrom(batch.get(), counts) >= 12);
    stream.reset();
    CHECK(!counts.live.empty());
    batch.reset();
    CHECK(counts.live.empty());
    CHECK(counts.n_allocated > 0);
    CHECK(counts.n_freed == counts.n_allocated);
  }

  nanoarrow::UniqueSchema schema;
  CHECK(reader.ReadSchema(kAllocatorDataFile, schema.get()) == NANOARROW_OK);
  const int64_t allocated_before = counts.n_allocated;
  nanoarrow::UniqueArray column;
  CHECK(reader.ReadColumn(
            R"({"name": "l", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "children": [)"
            R"({"name": "item", "count": 1, "VALIDITY": [1], "DATA": ["5"]}]})",
            schema->children[2], column.get()) == NANOARROW_OK);
  CHECK(CheckBuffersFrom(column.get(), counts) >= 4);
  CHECK(counts.n_allocated > allocated_before);
  column.reset();
  CHECK(counts.live.empty());

  nanoarrow::UniqueSchema plain;
  ReadSchemaOrThrow(kSchemaJson, plain.get());
  nanoarrow::UniqueArray batch;
  CHECK(reader.ReadBatch(kBatch0Json, plain.get(), batch.get()) == NANOARROW_OK);
  CHECK(CheckBuffersFrom(batch.get(), counts) >= 4);
  batch.reset();
  CHECK(counts.live.empty());
  CHECK(counts.n_freed == counts.n_allocated);

  // The default reader does not use it.
  const int64_t allocated = counts.n_allocated;
  TestingJSONReader default_reader;
  CHECK(default_reader.ReadBatch(kBatch0Json, plain.get(), batch.get()) == NANOARROW_OK);
  CHECK(counts.n_allocated == allocated);
}

static std::string DictionaryBatches(TestingJSONWriter& writer) {
  std::stringstream out;
  CHECK(writer.WriteDictionaryBatches(out) == NANOARROW_OK);
  return out.str();
}

// The writer remembers the dictionaries of what it writes: ids from WriteSchema /
// WriteField / WriteBatch / WriteColumn agree, and WriteDictionaryBatches writes the
// values the columns had.
static void TestWriterDictionaries() {
  nanoarrow::UniqueSchema schema;
  nanoarrow::UniqueArray array;
  MakeDictionaryBatch({"abc", "def"}, {1, 0}, false, schema.get(), array.get());
  nanoarrow::UniqueArrayView view;
  NANOARROW_THROW_NOT_OK(ArrowArrayViewInitFromSchema(view.get(), schema.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array.get(), nullptr));

  TestingJSONWriter writer;
  CHECK(DictionaryBatches(writer) == "[]");
  std::stringstream schema_json;
  CHECK(writer.WriteSchema(schema_json, schema.get()) == NANOARROW_OK);
  CHECK(schema_json.str().find(R"("dictionary": {"id": 0, )") != std::string::npos);
  // Ids alone, no values yet.
  CHECK(DictionaryBatches(writer) == "[]");

  std::stringstream batch_json;
  CHECK(writer.WriteBatch(batch_json, schema.get(), view.get()) == NANOARROW_OK);
  const std::string values =
      R"({"name": null, "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 3, 6], "DATA": ["abc", "def"]})";
  const std::string batch0 = R"([{"id": 0, "data": {"count": 2, "columns": [)" + values + "]}}]";
  CHECK(DictionaryBatches(writer) == batch0);

  // The same schema object keeps its id; another one gets the next.
  std::stringstream again;
  CHECK(writer.WriteField(again, schema->children[0]) == NANOARROW_OK);
  CHECK(again.str().find(R"("dictionary": {"id": 0, )") != std::string::npos);
  nanoarrow::UniqueSchema list_schema;
  nanoarrow::UniqueArray list_array;
  MakeDictionaryBatch({"x"}, {0, 0}, true, list_schema.get(), list_array.get());
  nanoarrow::UniqueArrayView list_view;
  NANOARROW_THROW_NOT_OK(
      ArrowArrayViewInitFromSchema(list_view.get(), list_schema.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(list_view.get(), list_array.get(), nullptr));
  std::stringstream list_field;
  CHECK(writer.WriteField(list_field, list_schema->children[0]) == NANOARROW_OK);
  CHECK(list_field.str().find(R"("dictionary": {"id": 1, )") != std::string::npos);
  std::stringstream list_column;
  CHECK(writer.WriteColumn(list_column, list_schema->children[0], list_view->children[0]) ==
        NANOARROW_OK);
  const std::string x_values =
      R"({"name": null, "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["x"]})";
  CHECK(DictionaryBatches(writer) ==
        R"([{"id": 0, "data": {"count": 2, "columns": [)" + values + "]}}, " +
            R"({"id": 1, "data": {"count": 1, "columns": [)" + x_values + "]}}]");

  // Reset: forgotten, and a column met first gets id 0.
  writer.ResetDictionaries();
  CHECK(DictionaryBatches(writer) == "[]");
  std::stringstream column_first;
  CHECK(writer.WriteColumn(column_first, list_schema->children[0], list_view->children[0]) ==
        NANOARROW_OK);
  CHECK(DictionaryBatches(writer) ==
        R"([{"id": 0, "data": {"count": 1, "columns": [)" + x_values + "]}}]");

  // Schema, batch and dictionary batches written piecewise make a document that
  // reads back as the batch.
  writer.ResetDictionaries();
  std::stringstream piece_schema;
  std::stringstream piece_batch;
  CHECK(writer.WriteSchema(piece_schema, schema.get()) == NANOARROW_OK);
  CHECK(writer.WriteBatch(piece_batch, schema.get(), view.get()) == NANOARROW_OK);
  const std::string document = "{\"schema\": " + piece_schema.str() + ", \"batches\": [" +
                               piece_batch.str() +
                               "], \"dictionaries\": " + DictionaryBatches(writer) + "}";
  TestingJSONReader reader;
  nanoarrow::UniqueArrayStream read_back;
  CHECK(reader.ReadDataFile(document, read_back.get()) == NANOARROW_OK);
  nanoarrow::UniqueArray read_batch;
  CHECK(read_back->get_next(read_back.get(), read_batch.get()) == NANOARROW_OK);
  TestingJSONComparison comparison;
  CHECK(comparison.SetSchema(schema.get()) == NANOARROW_OK);
  CHECK(comparison.CompareBatch(read_batch.get(), array.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 0);

  // WriteDataFile writes what the C writer writes, and leaves the stream's
  // dictionaries behind (ids from 0 again, whatever was met before).
  writer.ResetDictionaries();
  std::stringstream unrelated;
  CHECK(writer.WriteField(unrelated, list_schema->children[0]) == NANOARROW_OK);
  nanoarrow::UniqueArray copy1;
  nanoarrow::UniqueArray copy2;
  nanoarrow::UniqueSchema unused1;
  nanoarrow::UniqueSchema unused2;
  MakeDictionaryBatch({"abc", "def"}, {1, 0}, false, unused1.get(), copy1.get());
  MakeDictionaryBatch({"abc", "def"}, {1, 0}, false, unused2.get(), copy2.get());
  nanoarrow::UniqueArrayStream stream1;
  nanoarrow::UniqueArrayStream stream2;
  nanoarrow::VectorArrayStream(unused1.get(), copy1.get()).ToArrayStream(stream1.get());
  nanoarrow::VectorArrayStream(unused2.get(), copy2.get()).ToArrayStream(stream2.get());
  std::stringstream data_file;
  CHECK(writer.WriteDataFile(data_file, stream1.get()) == NANOARROW_OK);
  nanoarrow::UniqueBuffer c_data_file;
  CHECK(ArrowTestingJsonWriteDataFile(stream2.get(), nullptr, c_data_file.get(), nullptr) ==
        NANOARROW_OK);
  CHECK(data_file.str() == std::string(reinterpret_cast<const char*>(c_data_file->data),
                                       static_cast<size_t>(c_data_file->size_bytes)));
  CHECK(data_file.str().find("\"dictionaries\": " + batch0 + "}") != std::string::npos);
  CHECK(DictionaryBatches(writer) == batch0);
}

// Layout and API details shared with nanoarrow's nanoarrow_testing.hpp.
static void TestUpstreamCompatibility() {
  // A NULL name is written as null and read back as NULL.
  nanoarrow::UniqueSchema field;
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(field.get(), NANOARROW_TYPE_INT8));
  TestingJSONWriter writer;
  std::stringstream field_out;
  CHECK(writer.WriteField(field_out, field.get()) == NANOARROW_OK);
  CHECK(field_out.str() ==
        R"({"name": null, "nullable": true, "type": {"name": "int", "bitWidth": 8, "isSigned": true}, "children": []})");
  TestingJSONReader reader;
  nanoarrow::UniqueSchema field_back;
  CHECK(reader.ReadField(field_out.str(), field_back.get()) == NANOARROW_OK);
  CHECK(field_back->name == nullptr);

  // Metadata without pairs is still written (as []) unless metadata is excluded.
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetMetadata(field.get(), "\0\0\0\0"));
  std::stringstream empty_metadata;
  CHECK(writer.WriteField(empty_metadata, field.get()) == NANOARROW_OK);
  CHECK(empty_metadata.str().find(R"("children": [], "metadata": []})") != std::string::npos);
  writer.set_include_metadata(false);
  std::stringstream no_metadata;
  CHECK(writer.WriteField(no_metadata, field.get()) == NANOARROW_OK);
  CHECK(no_metadata.str().find("metadata") == std::string::npos);

  // The reader converts from an allocator implicitly, as nanoarrow's does.
  TestingJSONReader from_allocator = ArrowBufferAllocatorDefault();
  nanoarrow::UniqueSchema schema;
  CHECK(from_allocator.ReadSchema(kSchemaJson, schema.get()) == NANOARROW_OK);

  // The names of a map's children are not part of its type.
  const std::string map_schema =
      R"({"fields": [{"name": "m", "nullable": true, "type": {"name": "map", "keysSorted": false}, "children": [)"
      R"({"name": "NAME", "nullable": false, "type": {"name": "struct"}, "children": [)"
      R"({"name": "KEY", "nullable": false, "type": {"name": "utf8"}, "children": []}, )"
      R"({"name": "VALUE", "nullable": true, "type": {"name": "bool"}, "children": []}]}]}]})";
  auto with_names = [&](const char* entries, const char* key, const char* value) {
    std::string json = map_schema;
    json.replace(json.find("NAME"), 4, entries);
    json.replace(json.find("KEY"), 3, key);
    json.replace(json.find("VALUE"), 5, value);
    return json;
  };
  nanoarrow::UniqueSchema canonical;
  nanoarrow::UniqueSchema renamed;
  ReadSchemaOrThrow(with_names("entries", "key", "value"), canonical.get());
  ReadSchemaOrThrow(with_names("my_entries", "k", "v"), renamed.get());
  TestingJSONComparison comparison;
  CHECK(comparison.CompareSchema(renamed.get(), canonical.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 0);
  // ...but a difference elsewhere in the map is still found, and shown as written.
  nanoarrow::UniqueSchema other_value;
  std::string other_json = with_names("my_entries", "k", "v");
  other_json.replace(other_json.find(R"({"name": "bool"})"), 16, R"({"name": "utf8"})");
  ReadSchemaOrThrow(other_json, other_value.get());
  CHECK(comparison.CompareSchema(other_value.get(), canonical.get()) == NANOARROW_OK);
  CHECK(comparison.num_differences() == 1);
  std::stringstream differences;
  comparison.WriteDifferences(differences);
  CHECK(differences.str().find(R"("name": "my_entries")") != std::string::npos);
}

// nanoarrow::testing::dsl: schemas written as nested braces, as nanoarrow's tests do.
static void TestSchemaDsl() {
  using namespace nanoarrow::testing::dsl;
  schema built{children{
      {"i", "int32 field name", metadata{"some_key=some_value", "empty=", "bare"}},
      {"i", dictionary{"u"}, "dictionary field name", metadata{"k=v=w"}, ARROW_FLAG_NULLABLE},
      {"+l", "list", children{{"l", "item", 0}}},
  }};
  const ArrowSchema* s = built.get();
  CHECK(std::string(s->format) == "+s");
  CHECK(s->name == nullptr);
  CHECK(s->n_children == 3);
  if (s->n_children != 3) return;

  const ArrowSchema* first = s->children[0];
  CHECK(std::string(first->format) == "i");
  CHECK(std::string(first->name) == "int32 field name");
  CHECK(first->flags == ARROW_FLAG_NULLABLE);
  CHECK(first->dictionary == nullptr);
  ArrowMetadataReader reader;
  CHECK(ArrowMetadataReaderInit(&reader, first->metadata) == NANOARROW_OK);
  CHECK(reader.remaining_keys == 3);
  const char* expected[3][2] = {{"some_key", "some_value"}, {"empty", ""}, {"bare", ""}};
  for (int i = 0; i < 3 && reader.remaining_keys > 0; i++) {
    ArrowStringView key;
    ArrowStringView value;
    CHECK(ArrowMetadataReaderRead(&reader, &key, &value) == NANOARROW_OK);
    CHECK(std::string(key.data, key.size_bytes) == expected[i][0]);
    CHECK(std::string(value.data, value.size_bytes) == expected[i][1]);
  }

  const ArrowSchema* second = s->children[1];
  CHECK(second->dictionary != nullptr && std::string(second->dictionary->format) == "u");
  CHECK(second->flags == ARROW_FLAG_NULLABLE);
  ArrowStringView value;
  CHECK(ArrowMetadataGetValue(second->metadata, ArrowCharView("k"), &value) == NANOARROW_OK);
  CHECK(std::string(value.data, value.size_bytes) == "v=w");
  ArrowSchemaView view;
  CHECK(ArrowSchemaViewInit(&view, const_cast<ArrowSchema*>(second), nullptr) == NANOARROW_OK);
  CHECK(view.type == NANOARROW_TYPE_DICTIONARY && view.storage_type == NANOARROW_TYPE_INT32);

  const ArrowSchema* third = s->children[2];
  CHECK(third->n_children == 1 && std::string(third->children[0]->name) == "item");
  CHECK(third->children[0]->flags == 0);
  CHECK(ArrowSchemaViewInit(&view, const_cast<ArrowSchema*>(third), nullptr) == NANOARROW_OK);

  // Copies are deep; move() hands the schema over.
  schema copy = built;
  CHECK(copy.get()->children[0] != built.get()->children[0]);
  nanoarrow::UniqueSchema moved;
  copy.move(moved.get());
  CHECK(moved->n_children == 3 && copy.get()->release == nullptr);

  // Mistakes throw rather than build something else.
  bool threw = false;
  try {
    schema bad{"i", "name", "third"};
  } catch (const nanoarrow::Exception&) {
    threw = true;
  }
  CHECK(threw);
  threw = false;
  try {
    schema bad{"i", metadata{"a=b"}, metadata{"c=d"}};
  } catch (const nanoarrow::Exception&) {
    threw = true;
  }
  CHECK(threw);
}

int main() {
  try {
    TestSchemaDsl();
    TestWriterPieces();
    TestWriterBatchColumnPrecision();
    TestDataFileRoundTrip();
    TestReader();
    TestReaderErrors();
    TestCompareSchema();
    TestCompareBatch();
    TestCompareArrayStream();
    TestCompareDictionaries();
    TestReaderAllocator();
    TestWriterDictionaries();
    TestUpstreamCompatibility();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    return 1;
  }
  return CheckSummary("test_testing_hpp");
}
