// Self-checking tests of the C++ helpers in nanoarrow/nanoarrow.hpp. Prints one
// line per failed check and exits non-zero when any check failed. Built as C++11
// to hold the header to the language level it promises.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "nanoarrow/nanoarrow.hpp"

using nanoarrow::literals::operator"" _asv;

#include "check.h"

// An int32 array [1, null, 3, 4] (nulls only when with_null).
static nanoarrow::UniqueArray MakeInt32Array(bool with_null) {
  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_INT32));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), 1));
  if (with_null) {
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(array.get(), 1));
  } else {
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), 2));
  }
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), 3));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), 4));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
  return array;
}

static void TestThrowNotOk() {
  bool thrown = false;
  try {
    NANOARROW_THROW_NOT_OK(EINVAL);
  } catch (const nanoarrow::Exception& e) {
    thrown = true;
    std::string what = e.what();
    CHECK(what.find("EINVAL") != std::string::npos);
    CHECK(what.find(std::to_string(EINVAL)) != std::string::npos);
  }
  CHECK(thrown);

  // Also catchable as std::exception; NANOARROW_OK throws nothing.
  bool caught_as_std = false;
  try {
    NANOARROW_THROW_NOT_OK(NANOARROW_OK);
    NANOARROW_THROW_NOT_OK(ENOMEM);
  } catch (const std::exception& e) {
    caught_as_std = std::strstr(e.what(), "failed with errno") != nullptr;
  }
  CHECK(caught_as_std);
}

static void TestUniqueSchema() {
  nanoarrow::UniqueSchema schema;
  CHECK(schema->release == nullptr);
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(schema.get(), NANOARROW_TYPE_STRING));
  CHECK(std::strcmp(schema->format, "u") == 0);

  // Move construction and assignment leave the source empty.
  nanoarrow::UniqueSchema moved(std::move(schema));
  CHECK(schema->release == nullptr);
  CHECK(moved->release != nullptr);
  nanoarrow::UniqueSchema assigned;
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(assigned.get(), NANOARROW_TYPE_INT8));
  assigned = std::move(moved);  // releases the int8 schema
  CHECK(moved->release == nullptr);
  CHECK(std::strcmp(assigned->format, "u") == 0);

  // Self-move keeps the object alive (no double release).
  nanoarrow::UniqueSchema& alias = assigned;
  assigned = std::move(alias);
  CHECK(assigned->release != nullptr);

  // move() hands ownership to a plain struct; the constructor takes it back.
  struct ArrowSchema raw;
  assigned.move(&raw);
  CHECK(assigned->release == nullptr);
  CHECK(raw.release != nullptr);
  nanoarrow::UniqueSchema adopted(&raw);
  CHECK(raw.release == nullptr);
  CHECK(std::strcmp(adopted->format, "u") == 0);

  adopted.reset();
  CHECK(adopted->release == nullptr);
  adopted.reset();  // releasing an empty wrapper is a no-op
  CHECK(adopted->release == nullptr);
}

static void TestUniqueBufferAndBitmap() {
  nanoarrow::UniqueBuffer buffer;
  NANOARROW_THROW_NOT_OK(ArrowBufferAppend(buffer.get(), "abcd", 4));
  CHECK(buffer->size_bytes == 4);
  nanoarrow::UniqueBuffer other(std::move(buffer));
  CHECK(buffer->data == nullptr);
  CHECK(buffer->size_bytes == 0);
  CHECK(other->size_bytes == 4);
  CHECK(std::memcmp(other->data, "abcd", 4) == 0);

  nanoarrow::UniqueBitmap bitmap;
  NANOARROW_THROW_NOT_OK(ArrowBitmapAppend(bitmap.get(), 1, 10));
  NANOARROW_THROW_NOT_OK(ArrowBitmapAppend(bitmap.get(), 0, 3));
  CHECK(bitmap->size_bits == 13);
  CHECK(ArrowBitCountSet(bitmap->buffer.data, 0, 13) == 10);
  nanoarrow::UniqueBitmap moved_bitmap;
  moved_bitmap = std::move(bitmap);
  CHECK(bitmap->size_bits == 0);
  CHECK(moved_bitmap->size_bits == 13);
}

static void TestUniqueArrayAndView() {
  nanoarrow::UniqueArray array = MakeInt32Array(true);
  CHECK(array->length == 4);
  CHECK(array->null_count == 1);

  nanoarrow::UniqueSchema schema;
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(schema.get(), NANOARROW_TYPE_INT32));
  nanoarrow::UniqueArrayView view;
  CHECK(view->storage_type == NANOARROW_TYPE_UNINITIALIZED);
  NANOARROW_THROW_NOT_OK(ArrowArrayViewInitFromSchema(view.get(), schema.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array.get(), nullptr));

  nanoarrow::UniqueArrayView moved(std::move(view));
  CHECK(view->storage_type == NANOARROW_TYPE_UNINITIALIZED);
  CHECK(moved->storage_type == NANOARROW_TYPE_INT32);
  CHECK(moved->length == 4);
  CHECK(ArrowArrayViewIsNull(moved.get(), 1));
  CHECK(ArrowArrayViewGetIntUnsafe(moved.get(), 3) == 4);

  // Struct views own children: moving must transfer them without a double free.
  nanoarrow::UniqueSchema struct_schema;
  ArrowSchemaInit(struct_schema.get());
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetTypeStruct(struct_schema.get(), 1));
  NANOARROW_THROW_NOT_OK(
      ArrowSchemaSetType(struct_schema->children[0], NANOARROW_TYPE_DOUBLE));
  nanoarrow::UniqueArrayView struct_view;
  NANOARROW_THROW_NOT_OK(
      ArrowArrayViewInitFromSchema(struct_view.get(), struct_schema.get(), nullptr));
  nanoarrow::UniqueArrayView struct_moved;
  struct_moved = std::move(struct_view);
  CHECK(struct_view->n_children == 0);
  CHECK(struct_moved->n_children == 1);
  CHECK(struct_moved->children[0]->storage_type == NANOARROW_TYPE_DOUBLE);
}

static void TestViewArrayAs() {
  nanoarrow::UniqueArray array = MakeInt32Array(true);
  std::vector<int32_t> values;
  int nulls = 0;
  for (nanoarrow::Nullable<int32_t> value : nanoarrow::ViewArrayAs<int32_t>(array.get())) {
    if (value == nanoarrow::NA) {
      nulls++;
      CHECK(!value.has_value());
      CHECK(value.value_or(-1) == -1);
    } else {
      values.push_back(*value);
    }
  }
  CHECK(nulls == 1);
  CHECK((values == std::vector<int32_t>{1, 3, 4}));

  // Through an ArrowArrayView of a slice: offset 1, length 3 -> [null, 3, 4].
  nanoarrow::UniqueArrayView view;
  ArrowArrayViewInitFromType(view.get(), NANOARROW_TYPE_INT32);
  array->offset = 1;
  array->length = 3;
  array->null_count = -1;
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array.get(), nullptr));
  nanoarrow::ViewArrayAs<int32_t> sliced(view.get());
  CHECK(sliced.size() == 3);
  CHECK(sliced[0] == nanoarrow::NA);
  CHECK(sliced[1] == 3);
  CHECK(sliced[2].value() == 4);

  // Without nulls the validity bitmap is not consulted.
  nanoarrow::UniqueArray dense = MakeInt32Array(false);
  int64_t sum = 0;
  for (auto value : nanoarrow::ViewArrayAs<int32_t>(dense.get())) {
    CHECK(value.has_value());
    sum += *value;
  }
  CHECK(sum == 10);
}

static void TestViewArrayAsBytes() {
  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_STRING));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), "abc"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(array.get(), 1));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), ""_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), "defg"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));

  std::vector<std::string> seen;
  for (auto value : nanoarrow::ViewArrayAsBytes<32>(array.get())) {
    seen.push_back(value ? std::string(value->data, static_cast<size_t>(value->size_bytes))
                         : std::string("<null>"));
  }
  CHECK((seen == std::vector<std::string>{"abc", "<null>", "", "defg"}));

  nanoarrow::ViewArrayAsBytes<32> strings(array.get());
  CHECK(strings[0] == "abc"_asv);
  CHECK(strings[3] != "def"_asv);
  CHECK(strings[1] == nanoarrow::NA);

  // Large strings use 64-bit offsets.
  nanoarrow::UniqueArray large;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(large.get(), NANOARROW_TYPE_LARGE_STRING));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(large.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(large.get(), "x"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(large.get(), "yz"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(large.get(), nullptr));
  nanoarrow::UniqueSchema large_schema;
  NANOARROW_THROW_NOT_OK(
      ArrowSchemaInitFromType(large_schema.get(), NANOARROW_TYPE_LARGE_STRING));
  nanoarrow::UniqueArrayView large_view;
  NANOARROW_THROW_NOT_OK(
      ArrowArrayViewInitFromSchema(large_view.get(), large_schema.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(large_view.get(), large.get(), nullptr));
  nanoarrow::ViewArrayAsBytes<64> large_strings(large_view.get());
  CHECK(large_strings.size() == 2);
  CHECK(large_strings[1] == "yz"_asv);

  // Fixed-size binary of width 2.
  nanoarrow::UniqueSchema fixed_schema;
  ArrowSchemaInit(fixed_schema.get());
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetTypeFixedSize(fixed_schema.get(),
                                                     NANOARROW_TYPE_FIXED_SIZE_BINARY, 2));
  nanoarrow::UniqueArray fixed;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromSchema(fixed.get(), fixed_schema.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(fixed.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendBytes(fixed.get(), {{"ab"}, 2}));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(fixed.get(), 1));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendBytes(fixed.get(), {{"cd"}, 2}));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(fixed.get(), nullptr));
  nanoarrow::ViewArrayAsFixedSizeBytes fixed_values(fixed.get(), 2);
  CHECK(fixed_values.size() == 3);
  CHECK(fixed_values[0] == "ab"_asv);
  CHECK(fixed_values[1] == nanoarrow::NA);
  CHECK(fixed_values[2] == "cd"_asv);
}

// A bool array [T, F, null, T, T, F, F, T, T, null, T] (nulls only when with_null):
// eleven elements so that the bitmap spans two bytes.
static nanoarrow::UniqueArray MakeBoolArray(bool with_null) {
  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_BOOL));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  const int values[] = {1, 0, -1, 1, 1, 0, 0, 1, 1, -1, 1};
  for (int value : values) {
    if (value < 0 && with_null) {
      NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(array.get(), 1));
    } else {
      NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), value < 0 ? 0 : value));
    }
  }
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
  return array;
}

// Renders bools as a string: '1', '0' and 'n' for null.
template <typename Range>
static std::string BoolsToString(const Range& range) {
  std::string out;
  for (nanoarrow::Nullable<bool> value : range) {
    out += value ? (*value ? '1' : '0') : 'n';
  }
  return out;
}

static void TestViewArrayAsBool() {
  nanoarrow::UniqueArray array = MakeBoolArray(true);
  CHECK(array->null_count == 2);
  CHECK(BoolsToString(nanoarrow::ViewArrayAs<bool>(array.get())) == "10n110011n1");

  nanoarrow::ViewArrayAs<bool> bools(array.get());
  CHECK(bools.size() == 11);
  CHECK(bools[0] == true);
  CHECK(bools[1] == false);
  CHECK(bools[2] == nanoarrow::NA);
  CHECK(bools[8] == true);  // second byte of the bitmap
  CHECK(bools[9].value_or(true) == true);
  CHECK(bools[10].value_or(false) == true);

  // A slice through an ArrowArrayView: offset 3, length 7 -> [T, T, F, F, T, T, null].
  nanoarrow::UniqueArrayView view;
  ArrowArrayViewInitFromType(view.get(), NANOARROW_TYPE_BOOL);
  array->offset = 3;
  array->length = 7;
  array->null_count = -1;
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array.get(), nullptr));
  CHECK(BoolsToString(nanoarrow::ViewArrayAs<bool>(view.get())) == "110011n");
  // ... and the same slice read from the ArrowArray directly.
  CHECK(BoolsToString(nanoarrow::ViewArrayAs<bool>(array.get())) == "110011n");
  nanoarrow::ViewArrayAs<bool> sliced(view.get());
  CHECK(sliced.size() == 7);
  CHECK(sliced[2] == false);
  CHECK(sliced[5] == true);
  CHECK(!sliced[6].has_value());

  // Without nulls (null_count 0: no validity bitmap) and sliced at offset 1.
  nanoarrow::UniqueArray dense = MakeBoolArray(false);
  CHECK(dense->null_count == 0);
  CHECK(BoolsToString(nanoarrow::ViewArrayAs<bool>(dense.get())) == "10011001101");
  dense->offset = 1;
  dense->length = 9;
  CHECK(BoolsToString(nanoarrow::ViewAs<bool>(dense.get())) == "001100110");
}

// Appends each value (nullptr for null) to a BINARY_VIEW or STRING_VIEW array.
static nanoarrow::UniqueArray MakeBinaryViewArray(enum ArrowType type,
                                                  const std::vector<const std::string*>& values) {
  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), type));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  for (const std::string* value : values) {
    if (value == nullptr) {
      NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(array.get(), 1));
    } else {
      struct ArrowBufferView bytes;
      bytes.data.data = value->data();
      bytes.size_bytes = static_cast<int64_t>(value->size());
      NANOARROW_THROW_NOT_OK(ArrowArrayAppendBytes(array.get(), bytes));
    }
  }
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
  return array;
}

static std::string ToString(const nanoarrow::Nullable<struct ArrowStringView>& value) {
  if (!value) return "<null>";
  return std::string(value->data, static_cast<size_t>(value->size_bytes));
}

// True when p lies within [begin, begin + size).
static bool PointsInto(const void* p, const void* begin, int64_t size) {
  const char* c = static_cast<const char*>(p);
  const char* b = static_cast<const char*>(begin);
  return c >= b && c < b + size;
}

static void TestViewBinaryViewArrayAsBytes() {
  // Inline up to 12 bytes, out of line from 13; a null and an empty string.
  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_STRING_VIEW));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), "short"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), "exactly 12 b"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(array.get(), 1));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), ""_asv));
  NANOARROW_THROW_NOT_OK(
      ArrowArrayAppendString(array.get(), "a value longer than the inline size"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), "thirteen byte"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
  CHECK(array->n_buffers == 4);  // validity, views, one data buffer, sizes

  std::vector<std::string> seen;
  for (auto value : nanoarrow::ViewBinaryViewArrayAsBytes(array.get())) {
    seen.push_back(ToString(value));
  }
  CHECK((seen == std::vector<std::string>{"short", "exactly 12 b", "<null>", "",
                                          "a value longer than the inline size",
                                          "thirteen byte"}));

  // Inline values point into their view, the others into the data buffer.
  const union ArrowBinaryView* views =
      static_cast<const union ArrowBinaryView*>(array->buffers[1]);
  nanoarrow::ViewBinaryViewArrayAsBytes strings(array.get());
  CHECK(strings.size() == 6);
  CHECK(strings[0]->data == reinterpret_cast<const char*>(views[0].inlined.data));
  CHECK(strings[1]->data == reinterpret_cast<const char*>(views[1].inlined.data));
  CHECK(strings[1]->size_bytes == 12);
  CHECK(strings[2] == nanoarrow::NA);
  CHECK(strings[3] == ""_asv);
  const char* data = static_cast<const char*>(array->buffers[2]);
  CHECK(strings[4]->data == data);
  CHECK(strings[5]->data == data + 35);
  CHECK(strings[5] == "thirteen byte"_asv);

  // Through an ArrowArrayView of a slice: offset 2, length 4.
  nanoarrow::UniqueArrayView view;
  ArrowArrayViewInitFromType(view.get(), NANOARROW_TYPE_STRING_VIEW);
  array->offset = 2;
  array->length = 4;
  array->null_count = -1;
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array.get(), nullptr));
  seen.clear();
  for (auto value : nanoarrow::ViewBinaryViewArrayAsBytes(view.get())) {
    seen.push_back(ToString(value));
  }
  CHECK((seen == std::vector<std::string>{"<null>", "",
                                          "a value longer than the inline size",
                                          "thirteen byte"}));
  nanoarrow::ViewBinaryViewArrayAsBytes sliced(view.get());
  CHECK(sliced[0] == nanoarrow::NA);
  CHECK(PointsInto(sliced[2]->data, view->variadic_buffers[0], view->variadic_buffer_sizes[0]));
  CHECK(sliced[3] == "thirteen byte"_asv);

  // BINARY_VIEW with bytes that need two variadic buffers (32 KiB blocks): the
  // second long value is found through its buffer index.
  std::string first(20000, 'x');
  first[0] = '\0';
  std::string second(20000, 'y');
  second[19999] = 'z';
  std::string small("\x01\x02\x03", 3);
  nanoarrow::UniqueArray binary =
      MakeBinaryViewArray(NANOARROW_TYPE_BINARY_VIEW, {&first, nullptr, &second, &small});
  CHECK(binary->n_buffers == 5);  // validity, views, two data buffers, sizes
  const union ArrowBinaryView* binary_views =
      static_cast<const union ArrowBinaryView*>(binary->buffers[1]);
  CHECK(binary_views[2].ref.buffer_index == 1);
  nanoarrow::ViewBinaryViewArrayAsBytes blobs(binary.get());
  CHECK(ToString(blobs[0]) == first);
  CHECK(blobs[1] == nanoarrow::NA);
  CHECK(ToString(blobs[2]) == second);
  CHECK(PointsInto(blobs[2]->data, binary->buffers[3], 20000));
  CHECK(ToString(blobs[3]) == small);

  nanoarrow::UniqueArrayView binary_view;
  ArrowArrayViewInitFromType(binary_view.get(), NANOARROW_TYPE_BINARY_VIEW);
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(binary_view.get(), binary.get(), nullptr));
  nanoarrow::ViewBinaryViewArrayAsBytes blob_view(binary_view.get());
  CHECK(blob_view.size() == 4);
  CHECK(ToString(blob_view[2]) == second);
  CHECK(ToString(blob_view[0]) == first);
}

// A stream whose second get_next fails, to check error propagation.
class FailingStream {
 public:
  int GetSchema(struct ArrowSchema* out) {
    return ArrowSchemaInitFromType(out, NANOARROW_TYPE_INT32);
  }
  int GetNext(struct ArrowArray* out) {
    if (calls_++ == 0) {
      nanoarrow::UniqueArray array = MakeInt32Array(false);
      array.move(out);
      return NANOARROW_OK;
    }
    std::snprintf(message_, sizeof(message_), "disk on fire");
    return EIO;
  }
  const char* GetLastError() { return message_; }

 private:
  int calls_ = 0;
  char message_[64] = {0};
};

static void TestStreams() {
  // VectorArrayStream + ViewArrayStream.
  nanoarrow::UniqueSchema schema;
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(schema.get(), NANOARROW_TYPE_INT32));
  std::vector<nanoarrow::UniqueArray> arrays;
  arrays.push_back(MakeInt32Array(false));
  arrays.push_back(MakeInt32Array(true));
  nanoarrow::UniqueArrayStream stream =
      nanoarrow::VectorArrayStream::MakeUnique(schema.get(), std::move(arrays));
  CHECK(schema->release == nullptr);  // the stream took it

  nanoarrow::UniqueSchema stream_schema;
  NANOARROW_THROW_NOT_OK(ArrowArrayStreamGetSchema(stream.get(), stream_schema.get(), nullptr));
  CHECK(std::strcmp(stream_schema->format, "i") == 0);

  int n_arrays = 0;
  int64_t total_length = 0;
  nanoarrow::ViewArrayStream batches(stream.get());
  CHECK(batches.count() == 0);
  for (struct ArrowArray& array : batches) {
    n_arrays++;
    CHECK(batches.count() == n_arrays);  // counts the arrays drawn so far
    total_length += array.length;
  }
  CHECK(batches.code() == NANOARROW_OK);
  CHECK(n_arrays == 2);
  CHECK(batches.count() == 2);  // the end of the stream is not counted
  CHECK(total_length == 8);

  // EmptyArrayStream: a schema and no arrays.
  nanoarrow::UniqueSchema empty_schema;
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(empty_schema.get(), NANOARROW_TYPE_STRING));
  nanoarrow::UniqueArrayStream empty =
      nanoarrow::EmptyArrayStream::MakeUnique(empty_schema.get());
  ArrowErrorCode code = EINVAL;
  struct ArrowError error;
  int n_empty = 0;
  nanoarrow::ViewArrayStream empty_view(empty.get(), &code, &error);
  for (struct ArrowArray& array : empty_view) {
    (void)array;
    n_empty++;
  }
  CHECK(n_empty == 0);
  CHECK(empty_view.count() == 0);
  CHECK(code == NANOARROW_OK);
  nanoarrow::UniqueSchema empty_stream_schema;
  NANOARROW_THROW_NOT_OK(
      ArrowArrayStreamGetSchema(empty.get(), empty_stream_schema.get(), nullptr));
  CHECK(std::strcmp(empty_stream_schema->format, "u") == 0);

  // ArrayStreamFactory over a failing producer: the loop stops at the error.
  nanoarrow::UniqueArrayStream failing;
  nanoarrow::ArrayStreamFactory<FailingStream>::InitArrayStream(new FailingStream(),
                                                                failing.get());
  struct ArrowError failing_error;
  nanoarrow::ViewArrayStream failing_view(failing.get(), &failing_error);
  int n_before_error = 0;
  for (struct ArrowArray& array : failing_view) {
    CHECK(array.length == 4);
    n_before_error++;
  }
  CHECK(n_before_error == 1);
  CHECK(failing_view.count() == 1);  // the failed get_next is not counted
  CHECK(failing_view.code() == EIO);
  CHECK(std::strstr(failing_view.error()->message, "disk on fire") != nullptr);
}

// ViewAs / ViewAsBytes are plain aliases, usable from C++11.
static void TestViewAsAliases() {
  static_assert(std::is_same<nanoarrow::ViewAs<int32_t>, nanoarrow::ViewArrayAs<int32_t>>::value,
                "ViewAs<T> is ViewArrayAs<T>");
  static_assert(std::is_same<nanoarrow::ViewAsBytes<64>, nanoarrow::ViewArrayAsBytes<64>>::value,
                "ViewAsBytes<N> is ViewArrayAsBytes<N>");
  nanoarrow::UniqueArray array = MakeInt32Array(true);
  nanoarrow::ViewAs<int32_t> values(array.get());
  CHECK(values.size() == 4);
  CHECK(values[1] == nanoarrow::NA);
  CHECK(values[3] == 4);
}

// This file is C++11: Zip and Enumerate must be switched off here.
#if __cplusplus < 201703L
static_assert(NANOARROW_HAS_ZIP == 0, "NANOARROW_HAS_ZIP must be 0 before C++17");
#endif

static void TestBufferInitSequence() {
  nanoarrow::UniqueBuffer buffer;
  std::vector<int32_t> values{7, 8, 9};
  const int32_t* original = values.data();
  nanoarrow::BufferInitSequence(buffer.get(), std::move(values));
  CHECK(buffer->size_bytes == 12);
  // The vector's storage was moved, not copied.
  CHECK(reinterpret_cast<const int32_t*>(buffer->data) == original);
  CHECK(reinterpret_cast<const int32_t*>(buffer->data)[2] == 9);
  // Wrapped memory has no capacity to grow into.
  CHECK(buffer->capacity_bytes == 0);
  CHECK(ArrowBufferAppendInt32(buffer.get(), 10) != NANOARROW_OK);
  CHECK(buffer->size_bytes == 12);

  nanoarrow::UniqueBuffer text;
  nanoarrow::BufferInitSequence(text.get(), std::string("hello arrow, long enough to allocate"));
  CHECK(text->size_bytes == 36);
  CHECK(std::memcmp(text->data, "hello", 5) == 0);
  // Both are released (and the containers deleted) by the wrappers; ASan checks.

  // An empty container: the buffer holds no bytes but still owns the container,
  // which resetting must delete (LeakSanitizer reports it otherwise).
  nanoarrow::UniqueBuffer empty;
  nanoarrow::BufferInitSequence(empty.get(), std::vector<int64_t>());
  CHECK(empty->size_bytes == 0);
}

// A counter of live Tracked objects, to see BufferInitWrapped destroy its object.
static int g_tracked_live = 0;
struct Tracked {
  std::vector<uint8_t> bytes;
  explicit Tracked(std::vector<uint8_t> b) : bytes(std::move(b)) { g_tracked_live++; }
  Tracked(Tracked&& other) : bytes(std::move(other.bytes)) { g_tracked_live++; }
  Tracked(const Tracked&) = delete;
  ~Tracked() { g_tracked_live--; }
};

static void TestBufferInitWrapped() {
  {
    Tracked tracked(std::vector<uint8_t>{1, 2, 3, 4, 5});
    const uint8_t* data = tracked.bytes.data();
    nanoarrow::UniqueBuffer buffer;
    nanoarrow::BufferInitWrapped(buffer.get(), std::move(tracked), data + 1, 3);
    CHECK(buffer->data == data + 1);
    CHECK(buffer->size_bytes == 3);
    CHECK(buffer->data[2] == 4);
    // It cannot grow: the bytes belong to the wrapped object.
    CHECK(ArrowBufferAppendInt8(buffer.get(), 9) != NANOARROW_OK);
    CHECK(g_tracked_live == 2);  // the moved-from local and the buffer's copy
  }
  CHECK(g_tracked_live == 0);

  // The upstream name for an element that may be null.
  nanoarrow::internal::Maybe<int32_t> maybe = nanoarrow::NA;
  CHECK(!maybe);
  CHECK(maybe.value_or(3) == 3);
}

// A function written for nanoarrow::internal::Maybe<T> in its own namespace (as
// upstream's gtest helpers write PrintTo) must be found by argument-dependent
// lookup from the values the views give, so the type has to live there.
namespace nanoarrow {
namespace internal {
template <typename T>
int DescribeNullableForAdl(const Maybe<T>& value) {
  return value ? 1 : 0;
}
inline int DescribeNullableForAdl(const Nothing&) { return 2; }
}  // namespace internal
}  // namespace nanoarrow

static void TestNullableLookup() {
  nanoarrow::UniqueArray array = MakeInt32Array(true);
  std::vector<int> described;
  for (auto value : nanoarrow::ViewArrayAs<int32_t>(array.get())) {
    described.push_back(DescribeNullableForAdl(value));  // unqualified: ADL
  }
  CHECK((described == std::vector<int>{1, 0, 1, 1}));
  CHECK(DescribeNullableForAdl(nanoarrow::NA) == 2);
  CHECK((std::is_same<nanoarrow::Nullable<int32_t>,
                      nanoarrow::internal::Maybe<int32_t>>::value));
}

int main() {
  try {
    TestThrowNotOk();
    TestUniqueSchema();
    TestUniqueBufferAndBitmap();
    TestUniqueArrayAndView();
    TestViewArrayAs();
    TestViewArrayAsBytes();
    TestViewArrayAsBool();
    TestViewBinaryViewArrayAsBytes();
    TestViewAsAliases();
    TestStreams();
    TestBufferInitSequence();
    TestBufferInitWrapped();
    TestNullableLookup();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    return 1;
  }
  return CheckSummary("test_hpp");
}
