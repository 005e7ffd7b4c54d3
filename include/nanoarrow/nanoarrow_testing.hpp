/* nanoarrow in C: C++ classes for the Arrow integration-testing JSON format.
 *
 * nanoarrow::testing::TestingJSONWriter, TestingJSONReader and
 * TestingJSONComparison: a header-only layer over the C functions of
 * nanoarrow_testing.h (link the nanoarrow_testing library). Every member that can
 * fail returns an ArrowErrorCode; none throws. Text goes to and comes from
 * std::ostream / std::string; Arrow structures are the C Data Interface ones. */

#ifndef NANOARROW_TESTING_HPP_INCLUDED
#define NANOARROW_TESTING_HPP_INCLUDED

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_testing.h"

NANOARROW_HPP_BEGIN_NAMESPACE

namespace testing {

namespace internal {

/* Appends buffer's bytes to out; NANOARROW_OK unless the stream failed. */
inline ArrowErrorCode WriteBuffer(std::ostream& out, const struct ArrowBuffer* buffer) {
  out.write(reinterpret_cast<const char*>(buffer->data),
            static_cast<std::streamsize>(buffer->size_bytes));
  return out ? NANOARROW_OK : EIO;
}

}  // namespace internal

/* Writer for the Arrow integration testing JSON format. Output is a single line
 * with keys separated by ", " and ": " ({"name": "col", "nullable": true, ...}).
 * Messages of failures are not kept (the members take no ArrowError). */
class TestingJSONWriter {
 public:
  TestingJSONWriter() : float_precision_(-1), include_metadata_(true) {
    ArrowTestingJsonDictionariesInit(&dictionaries_);
  }
  virtual ~TestingJSONWriter() { ArrowTestingJsonDictionariesReset(&dictionaries_); }
  TestingJSONWriter(const TestingJSONWriter&) = delete;
  TestingJSONWriter& operator=(const TestingJSONWriter&) = delete;

  /* Digits written after the decimal point of floating-point values. The default,
   * -1, writes the shortest text that reads back as the same value; integration
   * files are usually written with 3. */
  void set_float_precision(int value) { float_precision_ = value; }

  /* Whether schema and field metadata are written (default true). */
  void set_include_metadata(bool value) { include_metadata_ = value; }

  /* The writer remembers the dictionaries it meets: WriteSchema and WriteField give
   * each dictionary-encoded field an id (0, 1, ... in the order met, depth-first;
   * the same id again for the same dictionary schema object), and WriteBatch and
   * WriteColumn record the dictionary values of such columns (the latest values of
   * an id win; a column met first gets its id there). ResetDictionaries() forgets
   * them all, so that ids start from 0 again. */
  void ResetDictionaries() {
    ArrowTestingJsonDictionariesReset(&dictionaries_);
  }

  /* The dictionaries whose values were written since the last reset, as the
   * "dictionaries" member of a data file: [{"id": 0, "data": {"count": 2, "columns":
   * [{"name": null, "count": 2, ...}]}}, ...] ([] when none). */
  ArrowErrorCode WriteDictionaryBatches(std::ostream& out) {
    return Write(out, [&](const ArrowTestingJsonWriteOptions*, ArrowBuffer* buffer) {
      return ArrowTestingJsonWriteDictionaries(&dictionaries_, buffer, nullptr);
    });
  }

  /* The whole stream as a data file: {"schema": {...}, "batches": [...], ...}
   * ("dictionaries" when a field is dictionary-encoded). Resets the dictionaries
   * first; afterwards they are the stream's. Consumes the stream; does not release
   * it. */
  ArrowErrorCode WriteDataFile(std::ostream& out, ArrowArrayStream* stream) {
    if (stream == nullptr || stream->release == nullptr) return EINVAL;
    ResetDictionaries();
    return Write(out, [&](const ArrowTestingJsonWriteOptions* options, ArrowBuffer* buffer) {
      return ArrowTestingJsonWriteDataFile(stream, options, buffer, nullptr);
    });
  }

  /* A schema (a struct, "+s"): {"fields": [...], "metadata": [...]} ("metadata" when
   * the schema has metadata, even with no pairs, unless set_include_metadata(false)). */
  ArrowErrorCode WriteSchema(std::ostream& out, const ArrowSchema* schema) {
    if (schema == nullptr) return EINVAL;
    return Write(out, [&](const ArrowTestingJsonWriteOptions* options, ArrowBuffer* buffer) {
      return ArrowTestingJsonWriteSchemaWithOptions(schema, options, buffer, nullptr);
    });
  }

  /* A field: {"name": "col", "nullable": true, "type": {...}, "children": [...]}
   * ("name": null for a NULL name; "dictionary" and "metadata" where they apply). */
  ArrowErrorCode WriteField(std::ostream& out, const ArrowSchema* field) {
    return Write(out, [&](const ArrowTestingJsonWriteOptions* options, ArrowBuffer* buffer) {
      return ArrowTestingJsonWriteField(field, options, buffer, nullptr);
    });
  }

  /* The type of a field: {"name": "int", "bitWidth": 32, "isSigned": true}. */
  ArrowErrorCode WriteType(std::ostream& out, const ArrowSchema* field) {
    return Write(out, [&](const ArrowTestingJsonWriteOptions*, ArrowBuffer* buffer) {
      return ArrowTestingJsonWriteType(field, buffer, nullptr);
    });
  }

  /* Metadata: [{"key": "...", "value": "..."}, ...] ([] for nullptr). */
  ArrowErrorCode WriteMetadata(std::ostream& out, const char* metadata) {
    return Write(out, [&](const ArrowTestingJsonWriteOptions*, ArrowBuffer* buffer) {
      return ArrowTestingJsonWriteMetadata(metadata, buffer, nullptr);
    });
  }

  /* A record batch: {"count": 123, "columns": [...]}. value is a view of a struct
   * array of schema. */
  ArrowErrorCode WriteBatch(std::ostream& out, const ArrowSchema* schema,
                            const ArrowArrayView* value) {
    if (schema == nullptr || value == nullptr) return EINVAL;
    return Write(out, [&](const ArrowTestingJsonWriteOptions* options, ArrowBuffer* buffer) {
      return ArrowTestingJsonWriteBatchView(schema, value, options, buffer, nullptr);
    });
  }

  /* A column: {"name": "col", "count": 123, "VALIDITY": [...], ...}. value is a
   * view of an array of field. */
  ArrowErrorCode WriteColumn(std::ostream& out, const ArrowSchema* field,
                             const ArrowArrayView* value) {
    if (field == nullptr || value == nullptr) return EINVAL;
    return Write(out, [&](const ArrowTestingJsonWriteOptions* options, ArrowBuffer* buffer) {
      return ArrowTestingJsonWriteColumn(field, value, options, buffer, nullptr);
    });
  }

 private:
  int float_precision_;
  bool include_metadata_;
  ArrowTestingJsonDictionaries dictionaries_;

  /* Runs write into a buffer with this writer's options; out receives the text only
   * when it succeeds. */
  template <typename WriteFunc>
  ArrowErrorCode Write(std::ostream& out, WriteFunc write) {
    ArrowTestingJsonWriteOptions options;
    ArrowTestingJsonWriteOptionsInit(&options);
    options.float_precision = float_precision_ < -1 ? -1 : float_precision_;
    options.include_metadata = include_metadata_ ? 1 : 0;
    options.dictionaries = &dictionaries_;
    UniqueBuffer buffer;
    NANOARROW_RETURN_NOT_OK(write(&options, buffer.get()));
    return internal::WriteBuffer(out, buffer.get());
  }
};

/* Reader for the Arrow integration testing JSON format. Malformed input gives EINVAL
 * and, when error is not nullptr, a message naming where the problem is. */
class TestingJSONReader {
 public:
  /* ReadDataFile's num_batch: the schema only (a stream without batches). */
  static const int kNumBatchOnlySchema = -2;
  /* ReadDataFile's num_batch: every batch. */
  static const int kNumBatchReadAll = -1;

  /* Every buffer of the arrays read (ReadDataFile, ReadBatch, ReadColumn) is
   * allocated, and freed on release, through allocator (copied; its private_data
   * must outlive those arrays). */
  TestingJSONReader(ArrowBufferAllocator allocator) : allocator_(allocator) {}  // NOLINT
  TestingJSONReader() : allocator_(ArrowBufferAllocatorDefault()) {}
  virtual ~TestingJSONReader() {}

  /* A data file ({"schema": {...}, "batches": [...], ...}) as a stream of its
   * batches: all of them (kNumBatchReadAll), none (kNumBatchOnlySchema), or batch
   * num_batch alone (EINVAL when the file has no such batch, as in nanoarrow; the C
   * function under it says ERANGE). */
  ArrowErrorCode ReadDataFile(const std::string& data_file_json, ArrowArrayStream* out,
                              int num_batch = kNumBatchReadAll, ArrowError* error = nullptr) {
    if (out == nullptr) return EINVAL;
    const char* json = data_file_json.data();
    const int64_t size = static_cast<int64_t>(data_file_json.size());
    const ArrowTestingJsonReadOptions options = ReadOptions();
    if (num_batch == kNumBatchReadAll) {
      return ArrowTestingJsonReadStreamWithOptions(json, size, &options, out, error);
    }
    if (num_batch < 0 && num_batch != kNumBatchOnlySchema) {
      ArrowErrorSet(error, "num_batch must be >= 0, kNumBatchReadAll or kNumBatchOnlySchema");
      return EINVAL;
    }
    UniqueSchema schema;
    NANOARROW_RETURN_NOT_OK(ArrowTestingJsonReadSchema(json, size, schema.get(), error));
    if (num_batch == kNumBatchOnlySchema) {
      EmptyArrayStream(schema.get()).ToArrayStream(out);
      return NANOARROW_OK;
    }
    UniqueArray batch;
    ArrowErrorCode rc =
        ArrowTestingJsonReadBatchWithOptions(json, size, num_batch, &options, batch.get(), error);
    if (rc == ERANGE) return EINVAL;  // no batch num_batch
    NANOARROW_RETURN_NOT_OK(rc);
    VectorArrayStream(schema.get(), batch.get()).ToArrayStream(out);
    return NANOARROW_OK;
  }

  /* A schema ({"fields": [...], "metadata": [...]}) as a struct ("+s") schema. */
  ArrowErrorCode ReadSchema(const std::string& schema_json, ArrowSchema* out,
                            ArrowError* error = nullptr) {
    if (out == nullptr) return EINVAL;
    return ArrowTestingJsonReadSchema(schema_json.data(),
                                      static_cast<int64_t>(schema_json.size()), out, error);
  }

  /* A field ({"name": "col", "type": {...}, ...}). */
  ArrowErrorCode ReadField(const std::string& field_json, ArrowSchema* out,
                           ArrowError* error = nullptr) {
    if (out == nullptr) return EINVAL;
    return ArrowTestingJsonReadField(field_json.data(),
                                     static_cast<int64_t>(field_json.size()), out, error);
  }

  /* A record batch ({"count": 123, "columns": [...]}) as a struct array of schema. */
  ArrowErrorCode ReadBatch(const std::string& batch_json, const ArrowSchema* schema,
                           ArrowArray* out, ArrowError* error = nullptr) {
    if (out == nullptr) return EINVAL;
    const ArrowTestingJsonReadOptions options = ReadOptions();
    return ArrowTestingJsonReadRecordBatchWithOptions(batch_json.data(),
                                                      static_cast<int64_t>(batch_json.size()),
                                                      schema, &options, out, error);
  }

  /* A column ({"name": "col", "count": 123, "VALIDITY": [...], ...}) as an array of
   * schema (the column's field). */
  ArrowErrorCode ReadColumn(const std::string& column_json, const ArrowSchema* schema,
                            ArrowArray* out, ArrowError* error = nullptr) {
    if (out == nullptr) return EINVAL;
    const ArrowTestingJsonReadOptions options = ReadOptions();
    return ArrowTestingJsonReadColumnWithOptions(column_json.data(),
                                                 static_cast<int64_t>(column_json.size()),
                                                 schema, &options, out, error);
  }

 private:
  ArrowBufferAllocator allocator_;

  ArrowTestingJsonReadOptions ReadOptions() const {
    ArrowTestingJsonReadOptions options;
    ArrowTestingJsonReadOptionsInit(&options);
    options.allocator = allocator_;
    return options;
  }
};

/* Compares schemas, record batches and streams, keeping every difference found
 * (its path and both sides as integration JSON) until ClearDifferences(). A
 * Compare member returns NANOARROW_OK when the comparison could be made, whether
 * or not differences were found: query num_differences() for the result. */
class TestingJSONComparison {
 private:
  struct Difference {
    std::string path;
    std::string actual;
    std::string expected;
  };

 public:
  TestingJSONComparison()
      : compare_batch_flags_(true), compare_metadata_order_(true), float_precision_(-1) {}
  virtual ~TestingJSONComparison() {}

  /* Whether the flags (such as nullability) of the top-level schema are compared
   * (default true). Some implementations export record batches as nullable struct
   * arrays and some do not. */
  void set_compare_batch_flags(bool value) { compare_batch_flags_ = value; }

  /* Digits after the decimal point to which floating-point values are rounded before
   * they are compared; the default, -1, compares them exactly. */
  void set_compare_float_precision(int value) { float_precision_ = value; }

  /* Whether metadata must list its pairs in the same order (default true); false
   * compares them as a multiset, at every level. */
  void set_compare_metadata_order(bool value) { compare_metadata_order_ = value; }

  /* The number of differences found since construction or ClearDifferences(). */
  int64_t num_differences() const { return static_cast<int64_t>(differences_.size()); }

  /* Each difference as "Path: <path>", "- <actual>", "+ <expected>" and a blank
   * line. */
  void WriteDifferences(std::ostream& out) {
    for (const Difference& difference : differences_) {
      out << "Path: " << difference.path << "\n";
      out << "- " << difference.actual << "\n";
      out << "+ " << difference.expected << "\n";
      out << "\n";
    }
  }

  /* Forgets the differences found so far. */
  void ClearDifferences() { differences_.clear(); }

  /* Compares the schemas (path "Schema"); when they match, each pair of batches
   * (path "Batch <i>", from 0) and then the number of batches (a stream that ends
   * first gives a difference at its batch's path: "finished stream" on the side that
   * ended, "unfinished stream" on the other). Consumes both streams; does not
   * release them. */
  ArrowErrorCode CompareArrayStream(ArrowArrayStream* actual, ArrowArrayStream* expected,
                                    ArrowError* error = nullptr) {
    if (actual == nullptr || expected == nullptr || actual->release == nullptr ||
        expected->release == nullptr) {
      ArrowErrorSet(error, "stream is released");
      return EINVAL;
    }
    UniqueSchema actual_schema;
    UniqueSchema expected_schema;
    NANOARROW_RETURN_NOT_OK(
        StreamCall(actual, actual->get_schema(actual, actual_schema.get()), "actual", "schema",
                   error));
    NANOARROW_RETURN_NOT_OK(StreamCall(expected,
                                       expected->get_schema(expected, expected_schema.get()),
                                       "expected", "schema", error));
    const int64_t before = num_differences();
    NANOARROW_RETURN_NOT_OK(
        CompareSchema(actual_schema.get(), expected_schema.get(), error, "Schema"));
    if (num_differences() != before) return NANOARROW_OK;
    NANOARROW_RETURN_NOT_OK(SetSchema(expected_schema.get(), error));

    for (int64_t i = 0;; i++) {
      const std::string path = "Batch " + std::to_string(i);
      UniqueArray actual_batch;
      UniqueArray expected_batch;
      NANOARROW_RETURN_NOT_OK(StreamCall(actual, actual->get_next(actual, actual_batch.get()),
                                         "actual", path.c_str(), error));
      NANOARROW_RETURN_NOT_OK(
          StreamCall(expected, expected->get_next(expected, expected_batch.get()), "expected",
                     path.c_str(), error));
      const bool actual_done = actual_batch->release == nullptr;
      const bool expected_done = expected_batch->release == nullptr;
      if (actual_done && expected_done) return NANOARROW_OK;
      if (actual_done || expected_done) {
        differences_.push_back({path, actual_done ? "finished stream" : "unfinished stream",
                                expected_done ? "finished stream" : "unfinished stream"});
        return NANOARROW_OK;
      }
      NANOARROW_RETURN_NOT_OK(
          CompareBatch(actual_batch.get(), expected_batch.get(), error, path));
    }
  }

  /* Compares two top-level (struct) schemas: path + ".format", ".flags" (see
   * set_compare_batch_flags), ".metadata", ".n_children", and ".fields[i]" for each
   * child field that differs. The names of a map's entries, key and value children
   * are not compared (they are not part of the map's type). */
  ArrowErrorCode CompareSchema(const ArrowSchema* actual, const ArrowSchema* expected,
                               ArrowError* error = nullptr, const std::string& path = "") {
    ArrowTestingCompareOptions options = Options();
    return ArrowTestingCompareSchemaDifferences(actual, expected, path.c_str(), &options,
                                                error);
  }

  /* The schema of the batches given to CompareBatch() (copied). */
  ArrowErrorCode SetSchema(const ArrowSchema* schema, ArrowError* error = nullptr) {
    if (schema == nullptr || schema->release == nullptr) {
      ArrowErrorSet(error, "schema is released");
      return EINVAL;
    }
    UniqueSchema copy;
    NANOARROW_RETURN_NOT_OK(ArrowSchemaDeepCopy(schema, copy.get()));
    struct ArrowSchemaView view;
    NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&view, copy.get(), error));
    schema_ = std::move(copy);
    return NANOARROW_OK;
  }

  /* Compares two arrays of the SetSchema() schema: path + ".length", then for a
   * record batch ".columns[i]" for each column that differs and ".validity". */
  ArrowErrorCode CompareBatch(const ArrowArray* actual, const ArrowArray* expected,
                              ArrowError* error = nullptr, const std::string& path = "") {
    if (schema_->release == nullptr) {
      ArrowErrorSet(error, "CompareBatch() needs SetSchema() first");
      return EINVAL;
    }
    ArrowTestingCompareOptions options = Options();
    return ArrowTestingCompareArrayDifferences(schema_.get(), actual, expected, path.c_str(),
                                               &options, error);
  }

 private:
  bool compare_batch_flags_;
  bool compare_metadata_order_;
  int float_precision_;
  UniqueSchema schema_;
  std::vector<Difference> differences_;

  static ArrowErrorCode Record(void* private_data, const char* path, const char* actual,
                               const char* expected) {
    auto* self = static_cast<TestingJSONComparison*>(private_data);
    self->differences_.push_back({path, actual, expected});
    return NANOARROW_OK;
  }

  ArrowTestingCompareOptions Options() {
    ArrowTestingCompareOptions options;
    ArrowTestingCompareOptionsInit(&options);
    options.compare_batch_flags = compare_batch_flags_ ? 1 : 0;
    options.compare_metadata_order = compare_metadata_order_ ? 1 : 0;
    options.float_precision = float_precision_ < -1 ? -1 : float_precision_;
    options.on_difference = &Record;
    options.private_data = this;
    return options;
  }

  /* Turns a failed stream callback into an error naming the side and the step. */
  static ArrowErrorCode StreamCall(ArrowArrayStream* stream, int rc, const char* which,
                                   const char* step, ArrowError* error) {
    if (rc == NANOARROW_OK) return NANOARROW_OK;
    const char* message = stream->get_last_error(stream);
    ArrowErrorSet(error, "%s stream, %s: %s", which, step,
                  message != nullptr && message[0] != '\0' ? message : "failed");
    return rc;
  }
};

/* A small language for writing schemas in tests, as nested braces:
 *
 *   using namespace nanoarrow::testing::dsl;
 *   schema s{children{
 *       {"i", "an int32 field", metadata{"key=value"}},
 *       {"i", dictionary{"u"}, "dictionary-encoded", ARROW_FLAG_NULLABLE},
 *   }};
 *
 * A schema's arguments, in any order: the format string (the first string; "+s"
 * when none is given), the name (the second string), children{...},
 * dictionary{...} (which takes a schema's arguments), metadata{"key=value", ...}
 * (a pair per string, split at its first '='; an entry without '=' is a key with
 * an empty value) and the flags (an integer; ArrowSchemaInit's when none is
 * given). A third string, or an argument given twice, throws nanoarrow::Exception,
 * as does running out of memory. */
namespace dsl {

class children;
class dictionary;

/* Key/value pairs in the order written. */
class metadata {
 public:
  metadata() {}
  metadata(std::initializer_list<std::string> entries) {
    for (const std::string& entry : entries) {
      const std::string::size_type equals = entry.find('=');
      if (equals == std::string::npos) {
        pairs_.emplace_back(entry, std::string());
      } else {
        pairs_.emplace_back(entry.substr(0, equals), entry.substr(equals + 1));
      }
    }
  }

  const std::vector<std::pair<std::string, std::string>>& pairs() const { return pairs_; }

 private:
  std::vector<std::pair<std::string, std::string>> pairs_;
};

/* An ArrowSchema built from its arguments; copies are deep. */
class schema {
 public:
  template <typename... Args>
  schema(const Args&... args) {
    ArrowSchemaInit(value_.get());
    Apply(args...);
    if (n_strings_ == 0) SetFormat("+s");
  }

  schema(const schema& other) {
    NANOARROW_THROW_NOT_OK(ArrowSchemaDeepCopy(other.get(), value_.get()));
  }
  schema(schema&& other) : value_(std::move(other.value_)) {}
  schema& operator=(const schema& other) {
    if (this != &other) {
      UniqueSchema copy;
      NANOARROW_THROW_NOT_OK(ArrowSchemaDeepCopy(other.get(), copy.get()));
      value_ = std::move(copy);
    }
    return *this;
  }
  schema& operator=(schema&& other) {
    value_ = std::move(other.value_);
    return *this;
  }

  const ArrowSchema* get() const { return value_.get(); }
  ArrowSchema* get() { return value_.get(); }
  /* Moves the schema into out (uninitialized or released); this one is left released. */
  void move(ArrowSchema* out) { ArrowSchemaMove(value_.get(), out); }

 private:
  UniqueSchema value_;
  int n_strings_ = 0;
  bool has_children_ = false;
  bool has_dictionary_ = false;
  bool has_metadata_ = false;
  bool has_flags_ = false;

  void Apply() {}
  template <typename First, typename... Rest>
  void Apply(const First& first, const Rest&... rest) {
    ApplyOne(first);
    Apply(rest...);
  }

  void ApplyOne(const char* text) {
    if (text == nullptr) throw Exception("dsl::schema: a NULL string");
    switch (n_strings_++) {
      case 0:
        SetFormat(text);
        break;
      case 1:
        NANOARROW_THROW_NOT_OK(ArrowSchemaSetName(value_.get(), text));
        break;
      default:
        throw Exception(std::string("dsl::schema: a third string '") + text +
                        "' (only a format and a name)");
    }
  }
  void ApplyOne(const std::string& text) { ApplyOne(text.c_str()); }
  template <typename Integer>
  typename std::enable_if<std::is_integral<Integer>::value>::type ApplyOne(Integer flags) {
    Once(&has_flags_, "flags");
    value_->flags = static_cast<int64_t>(flags);
  }
  void ApplyOne(const metadata& pairs) {
    Once(&has_metadata_, "metadata");
    UniqueBuffer packed;
    NANOARROW_THROW_NOT_OK(ArrowMetadataBuilderInit(packed.get(), nullptr));
    for (const auto& pair : pairs.pairs()) {
      NANOARROW_THROW_NOT_OK(ArrowMetadataBuilderAppend(
          packed.get(), ArrowStringView{pair.first.data(), static_cast<int64_t>(pair.first.size())},
          ArrowStringView{pair.second.data(), static_cast<int64_t>(pair.second.size())}));
    }
    NANOARROW_THROW_NOT_OK(
        ArrowSchemaSetMetadata(value_.get(), reinterpret_cast<const char*>(packed->data)));
  }
  inline void ApplyOne(const children& fields);
  inline void ApplyOne(const dictionary& values);

  void SetFormat(const char* format) {
    NANOARROW_THROW_NOT_OK(ArrowSchemaSetFormat(value_.get(), format));
  }
  static void Once(bool* seen, const char* what) {
    if (*seen) throw Exception(std::string("dsl::schema: ") + what + " given twice");
    *seen = true;
  }
};

/* The children of a schema, in order. */
class children {
 public:
  children(std::initializer_list<schema> fields) : fields_(fields) {}
  const std::vector<schema>& fields() const { return fields_; }

 private:
  std::vector<schema> fields_;
};

/* The value type of a dictionary-encoded schema (whose format gives the indices). */
class dictionary {
 public:
  template <typename... Args>
  explicit dictionary(const Args&... args) : values_(args...) {}
  const schema& values() const { return values_; }

 private:
  schema values_;
};

inline void schema::ApplyOne(const children& fields) {
  Once(&has_children_, "children");
  const std::vector<schema>& list = fields.fields();
  NANOARROW_THROW_NOT_OK(
      ArrowSchemaAllocateChildren(value_.get(), static_cast<int64_t>(list.size())));
  for (size_t i = 0; i < list.size(); i++) {
    NANOARROW_THROW_NOT_OK(ArrowSchemaDeepCopy(list[i].get(), value_->children[i]));
  }
}

inline void schema::ApplyOne(const dictionary& values) {
  Once(&has_dictionary_, "dictionary");
  NANOARROW_THROW_NOT_OK(ArrowSchemaAllocateDictionary(value_.get()));
  NANOARROW_THROW_NOT_OK(ArrowSchemaDeepCopy(values.values().get(), value_->dictionary));
}

}  // namespace dsl

}  // namespace testing

NANOARROW_HPP_END_NAMESPACE

#endif /* NANOARROW_TESTING_HPP_INCLUDED */
