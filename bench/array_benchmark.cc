// Array building and array view benchmarks. Each benchmark whose work is a plain
// memory pass has a Floor* twin doing the same memory work in a plain loop, so the
// results read as ratios to what the hardware allows.
//
// The benchmarks named as in the seed's suite (the reference nanoarrow's
// dev/benchmarks/c/array_benchmark.cc) run its workload: the same public calls in the
// same loop shape, sizes and values, so that their figures answer the question that
// suite's readers ask. In particular the view reads call the getter once per element
// on the view and store each result into a std::vector that is then passed whole to
// benchmark::DoNotOptimize(): the compiler must assume such stores may modify the
// view, which is what a caller's loop sees.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "nanoarrow/nanoarrow.hpp"

namespace {

constexpr int64_t kNumItems = 1000000;

void CheckOk(benchmark::State& state, ArrowErrorCode code, const char* what) {
  if (code != NANOARROW_OK) state.SkipWithError(what);
}

// Runs body (setup and timed loop); a failed library call, thrown by
// NANOARROW_THROW_NOT_OK, skips the benchmark with its message instead of ending the
// whole run. The owning wrappers release whatever was built when it throws.
template <typename Body>
void SkipOnError(benchmark::State& state, Body body) {
  try {
    body();
  } catch (const nanoarrow::Exception& e) {
    state.SkipWithError(e.what());
  }
}

// ---- Appending ----

// The workloads follow the seed's benchmark suite: values come from a prebuilt
// std::vector, each iteration builds a new array in a function that returns the first
// failing status (appends are checked), and the array of the previous iteration is
// released when the next one starts.

template <typename CType>
std::vector<CType> IntegerValues() {
  std::vector<CType> values(kNumItems);
  for (int64_t i = 0; i < kNumItems; i++) {
    values[i] = static_cast<CType>(i % std::numeric_limits<CType>::max());
  }
  return values;
}

template <typename CType>
ArrowErrorCode BuildIntegerArray(struct ArrowArray* array, enum ArrowType type,
                                 const std::vector<CType>& values) {
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromType(array, type));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStartAppending(array));
  for (CType value : values) {
    NANOARROW_RETURN_NOT_OK(ArrowArrayAppendInt(array, value));
  }
  return ArrowArrayFinishBuildingDefault(array, nullptr);
}

template <typename CType>
void AppendIntegers(benchmark::State& state, enum ArrowType type) {
  std::vector<CType> values = IntegerValues<CType>();
  nanoarrow::UniqueArray array;
  for (auto _ : state) {
    array.reset();
    CheckOk(state, BuildIntegerArray(array.get(), type, values), "append");
    benchmark::DoNotOptimize(array);
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

/// Append 1,000,000 int8 values
///
/// ArrowArrayAppendInt() into an int8 array, then ArrowArrayFinishBuildingDefault().
static void ArrayAppendInt8(benchmark::State& state) {
  AppendIntegers<int8_t>(state, NANOARROW_TYPE_INT8);
}

/// Append 1,000,000 int16 values
///
/// ArrowArrayAppendInt() into an int16 array, then ArrowArrayFinishBuildingDefault().
static void ArrayAppendInt16(benchmark::State& state) {
  AppendIntegers<int16_t>(state, NANOARROW_TYPE_INT16);
}

/// Append 1,000,000 int32 values
///
/// ArrowArrayAppendInt() into an int32 array, then ArrowArrayFinishBuildingDefault().
static void ArrayAppendInt32(benchmark::State& state) {
  AppendIntegers<int32_t>(state, NANOARROW_TYPE_INT32);
}

/// Append 1,000,000 int64 values
///
/// ArrowArrayAppendInt() into an int64 array, then ArrowArrayFinishBuildingDefault().
static void ArrayAppendInt64(benchmark::State& state) {
  AppendIntegers<int64_t>(state, NANOARROW_TYPE_INT64);
}

/// Floor: push 1,000,000 int32 values onto a plain growable C array
///
/// malloc/realloc doubling the capacity, the memory work an append must do at least.
static void FloorAppendInt32(benchmark::State& state) {
  for (auto _ : state) {
    int64_t capacity = 0;
    int64_t size = 0;
    int32_t* data = nullptr;
    for (int64_t i = 0; i < kNumItems; i++) {
      if (size == capacity) {
        capacity = capacity == 0 ? 16 : capacity * 2;
        data = static_cast<int32_t*>(realloc(data, capacity * sizeof(int32_t)));
      }
      data[size++] = static_cast<int32_t>(i);
    }
    benchmark::DoNotOptimize(data);
    free(data);
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

/// Append 1,000,000 doubles
///
/// ArrowArrayAppendDouble() into a double array.
static void ArrayAppendDouble(benchmark::State& state) {
  for (auto _ : state) {
    struct ArrowArray array;
    CheckOk(state, ArrowArrayInitFromType(&array, NANOARROW_TYPE_DOUBLE), "init");
    CheckOk(state, ArrowArrayStartAppending(&array), "start");
    for (int64_t i = 0; i < kNumItems; i++) {
      ArrowArrayAppendDouble(&array, static_cast<double>(i) * 0.5);
    }
    CheckOk(state, ArrowArrayFinishBuildingDefault(&array, nullptr), "finish");
    ArrowArrayRelease(&array);
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

// The seed's validity pattern for its "80 % null" append: element i is valid when
// i % spacing != 0, spacing = n / (n * 0.8) in integer arithmetic, which is 1: every
// element is null.
std::vector<int8_t> SeedAppendNullsValidity() {
  const int64_t n_nulls = static_cast<int64_t>(kNumItems * 0.8);
  const int64_t spacing = kNumItems / n_nulls;
  std::vector<int8_t> validity(kNumItems);
  for (int64_t i = 0; i < kNumItems; i++) validity[i] = (i % spacing) != 0;
  return validity;
}

ArrowErrorCode BuildInt32WithNulls(struct ArrowArray* array,
                                   const std::vector<int8_t>& validity) {
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromType(array, NANOARROW_TYPE_INT32));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStartAppending(array));
  const int32_t value = std::numeric_limits<int32_t>::max() / 2;
  for (int8_t is_valid : validity) {
    if (is_valid) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayAppendInt(array, value));
    } else {
      NANOARROW_RETURN_NOT_OK(ArrowArrayAppendNull(array, 1));
    }
  }
  return ArrowArrayFinishBuildingDefault(array, nullptr);
}

/// Append 1,000,000 int32 elements one by one, the seed's "80 % null" pattern
///
/// For each element of a prebuilt validity vector, ArrowArrayAppendInt() when valid,
/// else ArrowArrayAppendNull(array, 1), each checked, then
/// ArrowArrayFinishBuildingDefault(). The seed computes the spacing of its nulls
/// with integer division (1,000,000 / 800,000 = 1), so every element is null: this is
/// 1,000,000 single-null appends, as the seed's benchmark measures.
static void ArrayAppendNulls(benchmark::State& state) {
  const std::vector<int8_t> validity = SeedAppendNullsValidity();
  nanoarrow::UniqueArray array;
  for (auto _ : state) {
    array.reset();
    CheckOk(state, BuildInt32WithNulls(array.get(), validity), "append");
    benchmark::DoNotOptimize(array);
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

/// Floor: 1,000,000 null int32 elements appended to plain growable C arrays
///
/// The memory work of ArrayAppendNulls without the library: for each element a
/// cleared validity bit and a zeroed int32 slot, into two realloc-doubled arrays.
static void FloorAppendNulls(benchmark::State& state) {
  const std::vector<int8_t> validity = SeedAppendNullsValidity();
  for (auto _ : state) {
    int64_t capacity = 0;
    int64_t size = 0;
    int32_t* values = nullptr;
    uint8_t* bits = nullptr;
    for (int8_t is_valid : validity) {
      if (size == capacity) {
        capacity = capacity == 0 ? 64 : capacity * 2;
        values = static_cast<int32_t*>(realloc(values, capacity * sizeof(int32_t)));
        bits = static_cast<uint8_t*>(realloc(bits, capacity / 8));
      }
      values[size] = is_valid ? std::numeric_limits<int32_t>::max() / 2 : 0;
      if (size % 8 == 0) bits[size / 8] = 0;
      bits[size / 8] |= static_cast<uint8_t>((is_valid != 0) << (size % 8));
      size++;
    }
    benchmark::DoNotOptimize(values);
    benchmark::DoNotOptimize(bits);
    free(values);
    free(bits);
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

// 1,000,000 strings of 7 letters taken in turn from the alphabet, as the seed's
// suite builds them.
std::vector<std::string> SevenLetterStrings() {
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::vector<std::string> values(kNumItems);
  size_t start = 0;
  for (std::string& value : values) {
    if (start + 7 >= alphabet.size()) start = 0;
    value = alphabet.substr(start, 7);
    start += 7;
  }
  return values;
}

ArrowErrorCode BuildStringArray(struct ArrowArray* array,
                                const std::vector<std::string>& values) {
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromType(array, NANOARROW_TYPE_STRING));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStartAppending(array));
  for (const std::string& value : values) {
    struct ArrowStringView view = {value.data(), static_cast<int64_t>(value.size())};
    NANOARROW_RETURN_NOT_OK(ArrowArrayAppendString(array, view));
  }
  return ArrowArrayFinishBuildingDefault(array, nullptr);
}

void AppendStrings(benchmark::State& state, const std::vector<std::string>& values) {
  nanoarrow::UniqueArray array;
  int64_t bytes = 0;
  for (const std::string& value : values) bytes += static_cast<int64_t>(value.size());
  for (auto _ : state) {
    array.reset();
    CheckOk(state, BuildStringArray(array.get(), values), "append");
    benchmark::DoNotOptimize(array);
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
  state.SetBytesProcessed(state.iterations() * bytes);
}

/// Append 1,000,000 strings of 7 bytes
///
/// ArrowArrayAppendString() of 7-letter std::strings from a vector into a string array.
static void ArrayAppendString(benchmark::State& state) {
  AppendStrings(state, SevenLetterStrings());
}

/// Floor: push 1,000,000 strings of 7 bytes onto plain growable C arrays
///
/// The memory work of ArrayAppendString without the library: an int32 end offset and
/// the bytes of each std::string, into two realloc-doubled arrays.
static void FloorAppendString(benchmark::State& state) {
  const std::vector<std::string> values = SevenLetterStrings();
  for (auto _ : state) {
    int64_t n_offsets = 0;
    int64_t offsets_capacity = 0;
    int32_t* offsets = nullptr;
    int64_t n_bytes = 0;
    int64_t bytes_capacity = 0;
    char* bytes = nullptr;
    for (const std::string& value : values) {
      int64_t size = static_cast<int64_t>(value.size());
      if (n_offsets == offsets_capacity) {
        offsets_capacity = offsets_capacity == 0 ? 16 : offsets_capacity * 2;
        offsets = static_cast<int32_t*>(realloc(offsets, offsets_capacity * sizeof(int32_t)));
      }
      if (n_bytes + size > bytes_capacity) {
        while (n_bytes + size > bytes_capacity) {
          bytes_capacity = bytes_capacity == 0 ? 64 : bytes_capacity * 2;
        }
        bytes = static_cast<char*>(realloc(bytes, bytes_capacity));
      }
      memcpy(bytes + n_bytes, value.data(), value.size());
      n_bytes += size;
      offsets[n_offsets++] = static_cast<int32_t>(n_bytes);
    }
    benchmark::DoNotOptimize(offsets);
    benchmark::DoNotOptimize(bytes);
    free(offsets);
    free(bytes);
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

/// Append 1,000,000 strings of 0 to 15 bytes
///
/// ArrowArrayAppendString() of std::strings whose lengths cycle through 0..15, so
/// the copy of each value cannot be a fixed-size move.
static void ArrayAppendStringMixedLengths(benchmark::State& state) {
  const std::string text = "abcdefghijklmnopqrstuvwxyz";
  std::vector<std::string> values(kNumItems);
  for (int64_t i = 0; i < kNumItems; i++) values[i] = text.substr(i % 7, i % 16);
  AppendStrings(state, values);
}

// ---- Viewing ----

// An array built from prebuilt buffers, as the seed's view benchmarks build theirs
// (schema from the type, array from the schema, buffers appended, length and null
// count set by hand, the view initialized from the schema), and a view pointing at
// it. validity is one int8 per element (empty: no validity buffer); buffer1 and
// buffer2 become buffers 1 and 2. Throws nanoarrow::Exception when it cannot be
// built.
struct ViewFixture {
  nanoarrow::UniqueArray array;
  nanoarrow::UniqueArrayView view;

  template <typename T1, typename T2 = char>
  ViewFixture(enum ArrowType type, int64_t length, const std::vector<int8_t>& validity,
              const std::vector<T1>& buffer1, const std::vector<T2>& buffer2 = {}) {
    nanoarrow::UniqueSchema schema;
    NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(schema.get(), type));
    NANOARROW_THROW_NOT_OK(ArrowArrayInitFromSchema(array.get(), schema.get(), nullptr));
    NANOARROW_THROW_NOT_OK(ArrowBufferAppend(ArrowArrayBuffer(array.get(), 1),
                                             buffer1.data(), buffer1.size() * sizeof(T1)));
    if (!buffer2.empty()) {
      NANOARROW_THROW_NOT_OK(ArrowBufferAppend(ArrowArrayBuffer(array.get(), 2),
                                               buffer2.data(), buffer2.size() * sizeof(T2)));
    }
    array->length = length;
    array->null_count = 0;
    if (!validity.empty()) {
      struct ArrowBitmap* bitmap = ArrowArrayValidityBitmap(array.get());
      NANOARROW_THROW_NOT_OK(ArrowBitmapReserve(bitmap, length));
      ArrowBitmapAppendInt8Unsafe(bitmap, validity.data(), length);
      array->null_count = length - ArrowBitCountSet(bitmap->buffer.data, 0, length);
    }
    NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
    NANOARROW_THROW_NOT_OK(ArrowArrayViewInitFromSchema(view.get(), schema.get(), nullptr));
    NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array.get(), nullptr));
  }
};

// The seed's values for an integer view: element i is i % the type's maximum.
template <typename CType>
std::vector<CType> ModuloValues() {
  std::vector<CType> values(kNumItems);
  for (int64_t i = 0; i < kNumItems; i++) {
    values[i] = static_cast<CType>(i % std::numeric_limits<CType>::max());
  }
  return values;
}

template <typename CType>
void ViewGetIntegers(benchmark::State& state, enum ArrowType type) {
  SkipOnError(state, [&] {
    const std::vector<CType> values = ModuloValues<CType>();
    ViewFixture fixture(type, kNumItems, {}, values);
    std::vector<CType> values_out(kNumItems);
    for (auto _ : state) {
      for (int64_t i = 0; i < kNumItems; i++) {
        values_out[i] = static_cast<CType>(ArrowArrayViewGetIntUnsafe(fixture.view.get(), i));
      }
      benchmark::DoNotOptimize(values_out);
    }
    if (values_out != values) state.SkipWithError("wrong values");
  });
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

template <typename CType>
void FloorCopyIntegers(benchmark::State& state) {
  const std::vector<CType> in = ModuloValues<CType>();
  std::vector<CType> out(kNumItems);
  for (auto _ : state) {
    const CType* src = in.data();
    benchmark::DoNotOptimize(src);
    for (int64_t i = 0; i < kNumItems; i++) {
      out[i] = src[i];
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

/// Read 1,000,000 int8 values through an array view, element by element
///
/// The seed's loop: ArrowArrayViewGetIntUnsafe(view, i) for every element, stored
/// into a std::vector<int8_t> that is then handed whole to DoNotOptimize(). Values
/// i % 127.
static void ArrayViewGetInt8(benchmark::State& state) {
  ViewGetIntegers<int8_t>(state, NANOARROW_TYPE_INT8);
}

/// Read 1,000,000 int16 values through an array view, element by element
///
/// The seed's loop: ArrowArrayViewGetIntUnsafe(view, i) for every element, stored
/// into a std::vector<int16_t> handed whole to DoNotOptimize(). Values i % 32767.
static void ArrayViewGetInt16(benchmark::State& state) {
  ViewGetIntegers<int16_t>(state, NANOARROW_TYPE_INT16);
}

/// Read 1,000,000 int32 values through an array view, element by element
///
/// The seed's loop: ArrowArrayViewGetIntUnsafe(view, i) for every element, stored
/// into a std::vector<int32_t> handed whole to DoNotOptimize(). Values i.
static void ArrayViewGetInt32(benchmark::State& state) {
  ViewGetIntegers<int32_t>(state, NANOARROW_TYPE_INT32);
}

/// Read 1,000,000 int64 values through an array view, element by element
///
/// The seed's loop: ArrowArrayViewGetIntUnsafe(view, i) for every element, stored
/// into a std::vector<int64_t> handed whole to DoNotOptimize(). Values i.
static void ArrayViewGetInt64(benchmark::State& state) {
  ViewGetIntegers<int64_t>(state, NANOARROW_TYPE_INT64);
}

/// Floor: copy 1,000,000 int8 values in a plain loop
///
/// The memory work of ArrayViewGetInt8 without the library: a loop over two raw
/// pointers, which the compiler vectorizes.
static void FloorCopyInt8(benchmark::State& state) { FloorCopyIntegers<int8_t>(state); }

/// Floor: copy 1,000,000 int16 values in a plain loop
///
/// The memory work of ArrayViewGetInt16 without the library.
static void FloorCopyInt16(benchmark::State& state) { FloorCopyIntegers<int16_t>(state); }

/// Floor: copy 1,000,000 int32 values in a plain loop
///
/// The memory work of ArrayViewGetInt32 without the library.
static void FloorCopyInt32(benchmark::State& state) { FloorCopyIntegers<int32_t>(state); }

/// Floor: copy 1,000,000 int64 values in a plain loop
///
/// The memory work of ArrayViewGetInt64 without the library.
static void FloorCopyInt64(benchmark::State& state) { FloorCopyIntegers<int64_t>(state); }

// The seed's null-aware read of an int32 array with values i % 1000: each element is
// 0 when ArrowArrayViewIsNull() says null, else ArrowArrayViewGetIntUnsafe(), stored
// into a std::vector<int32_t> handed whole to DoNotOptimize(). With nulls, every
// fifth element (i % 5 == 0) is null, as the seed's 20 % spacing makes it.
void ViewIsNullThenGet(benchmark::State& state, bool with_nulls) {
  SkipOnError(state, [&] {
    std::vector<int32_t> values(kNumItems);
    for (int64_t i = 0; i < kNumItems; i++) values[i] = static_cast<int32_t>(i % 1000);
    std::vector<int8_t> validity;
    if (with_nulls) {
      const int64_t spacing = kNumItems / static_cast<int64_t>(kNumItems * 0.2);
      validity.resize(kNumItems);
      for (int64_t i = 0; i < kNumItems; i++) validity[i] = (i % spacing) != 0;
    }
    ViewFixture fixture(NANOARROW_TYPE_INT32, kNumItems, validity, values);
    std::vector<int32_t> values_out(kNumItems);
    for (auto _ : state) {
      for (int64_t i = 0; i < kNumItems; i++) {
        if (ArrowArrayViewIsNull(fixture.view.get(), i)) {
          values_out[i] = 0;
        } else {
          values_out[i] = static_cast<int32_t>(ArrowArrayViewGetIntUnsafe(fixture.view.get(), i));
        }
      }
      benchmark::DoNotOptimize(values_out);
    }
    // Element 1 is 1; element 0 is null only when the array has nulls.
    if (values_out[1] != 1 || values_out[0] != 0) state.SkipWithError("wrong values");
  });
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

/// Read 1,000,000 int32 elements checking for nulls, 20 % null
///
/// The seed's loop: for every element ArrowArrayViewIsNull(), then 0 for a null or
/// ArrowArrayViewGetIntUnsafe(), stored into a std::vector<int32_t> handed whole to
/// DoNotOptimize(). Every fifth element is null.
static void ArrayViewIsNull(benchmark::State& state) { ViewIsNullThenGet(state, true); }

/// Read 1,000,000 int32 elements checking for nulls, no validity buffer
///
/// As ArrayViewIsNull on an array without a validity bitmap: every check says "not
/// null", so this is a copy through the view.
static void ArrayViewIsNullNonNullable(benchmark::State& state) {
  ViewIsNullThenGet(state, false);
}

/// Floor: copy 1,000,000 int32 values in a plain loop
///
/// The memory work of ArrayViewIsNullNonNullable without the library.
static void FloorIsNullNonNullable(benchmark::State& state) { FloorCopyInt32(state); }

/// Floor: 1,000,000 elements, 0 where a bit is clear, else the value, in a plain loop
///
/// The memory work of ArrayViewIsNull without the library: a bitmap test and a
/// select per element, stored into an int32 vector.
static void FloorBitmapTest(benchmark::State& state) {
  std::vector<uint8_t> bits(kNumItems / 8 + 1);
  std::vector<int32_t> in(kNumItems);
  for (int64_t i = 0; i < kNumItems; i++) {
    if (i % 5 != 0) bits[i / 8] |= static_cast<uint8_t>(1 << (i % 8));
    in[i] = static_cast<int32_t>(i % 1000);
  }
  std::vector<int32_t> out(kNumItems);
  for (auto _ : state) {
    const uint8_t* valid = bits.data();
    const int32_t* src = in.data();
    benchmark::DoNotOptimize(valid);
    benchmark::DoNotOptimize(src);
    for (int64_t i = 0; i < kNumItems; i++) {
      out[i] = ((valid[i >> 3] >> (i & 7)) & 1) ? src[i] : 0;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

// The buffers of the seed's string view: 1,000,000 strings of 7 letters (element i
// starts at byte 7 * i) over the alphabet repeated. The seed fills such buffers but
// never puts them into its view (it reads an empty view); these are put into one.
struct SevenLetterBuffers {
  std::vector<int32_t> offsets;
  std::vector<char> data;

  SevenLetterBuffers() : offsets(kNumItems + 1), data(7 * kNumItems) {
    const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int64_t i = 0; i <= kNumItems; i++) offsets[i] = static_cast<int32_t>(7 * i);
    for (size_t j = 0; j < data.size(); j++) data[j] = alphabet[j % alphabet.size()];
  }
};

/// Read 1,000,000 strings through an array view, element by element
///
/// The seed's loop: ArrowArrayViewGetStringUnsafe(view, i) for every element, the
/// ArrowStringView stored into a std::vector handed whole to DoNotOptimize(), over a
/// string array of 7-byte values. (The seed's own benchmark builds such buffers but
/// calls the getter on a view it never initialized, which returns empty views.)
static void ArrayViewGetString(benchmark::State& state) {
  SkipOnError(state, [&] {
    SevenLetterBuffers buffers;
    ViewFixture fixture(NANOARROW_TYPE_STRING, kNumItems, {}, buffers.offsets,
                        buffers.data);
    std::vector<struct ArrowStringView> values_out(kNumItems);
    for (auto _ : state) {
      for (int64_t i = 0; i < kNumItems; i++) {
        values_out[i] = ArrowArrayViewGetStringUnsafe(fixture.view.get(), i);
      }
      benchmark::DoNotOptimize(values_out);
    }
    if (values_out[1].size_bytes != 7 || values_out[1].data[0] != 'h') {
      state.SkipWithError("wrong values");
    }
    state.SetBytesProcessed(state.iterations() * 7 * kNumItems);
  });
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

/// Floor: 1,000,000 string views from offsets and data in a plain loop
///
/// The memory work of ArrayViewGetString without the library: for each element a
/// pointer (data + offsets[i]) and a size (offsets[i + 1] - offsets[i]) stored into
/// a vector of ArrowStringView.
static void FloorStringWalk(benchmark::State& state) {
  SevenLetterBuffers buffers;
  std::vector<struct ArrowStringView> out(kNumItems);
  for (auto _ : state) {
    const int32_t* offsets = buffers.offsets.data();
    const char* data = buffers.data.data();
    struct ArrowStringView* dst = out.data();
    benchmark::DoNotOptimize(offsets);
    benchmark::DoNotOptimize(data);
    for (int64_t i = 0; i < kNumItems; i++) {
      dst[i].data = data + offsets[i];
      dst[i].size_bytes = offsets[i + 1] - offsets[i];
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

// A string array of kNumItems strings of 0-15 bytes with a view pointing at it.
// Throws nanoarrow::Exception when it cannot be built.
struct StringFixture {
  nanoarrow::UniqueArray array;
  nanoarrow::UniqueArrayView view;
  int64_t total_bytes = 0;

  StringFixture() {
    const char* text = "abcdefghijklmnopqrstuvwxyz";
    NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_STRING));
    NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
    for (int64_t i = 0; i < kNumItems; i++) {
      struct ArrowStringView value = {text + (i % 7), i % 16};
      NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), value));
      total_bytes += value.size_bytes;
    }
    NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
    ArrowArrayViewInitFromType(view.get(), NANOARROW_TYPE_STRING);
    NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array.get(), nullptr));
  }
};

/// Validate 1,000,000 strings at the full level
///
/// ArrowArrayViewValidate(NANOARROW_VALIDATION_LEVEL_FULL): offsets and UTF-8.
static void ArrayViewValidateFull(benchmark::State& state) {
  SkipOnError(state, [&] {
    StringFixture fixture;
    for (auto _ : state) {
      NANOARROW_THROW_NOT_OK(
          ArrowArrayViewValidate(fixture.view.get(), NANOARROW_VALIDATION_LEVEL_FULL, nullptr));
    }
    state.SetBytesProcessed(state.iterations() * fixture.total_bytes);
  });
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

}  // namespace

BENCHMARK(ArrayAppendInt8);
BENCHMARK(ArrayAppendInt16);
BENCHMARK(ArrayAppendInt32);
BENCHMARK(ArrayAppendInt64);
BENCHMARK(FloorAppendInt32);
BENCHMARK(ArrayAppendDouble);
BENCHMARK(ArrayAppendNulls);
BENCHMARK(FloorAppendNulls);
BENCHMARK(ArrayAppendString);
BENCHMARK(ArrayAppendStringMixedLengths);
BENCHMARK(FloorAppendString);
BENCHMARK(ArrayViewGetInt8);
BENCHMARK(ArrayViewGetInt16);
BENCHMARK(ArrayViewGetInt32);
BENCHMARK(ArrayViewGetInt64);
BENCHMARK(FloorCopyInt8);
BENCHMARK(FloorCopyInt16);
BENCHMARK(FloorCopyInt32);
BENCHMARK(FloorCopyInt64);
BENCHMARK(ArrayViewIsNull);
BENCHMARK(ArrayViewIsNullNonNullable);
BENCHMARK(FloorIsNullNonNullable);
BENCHMARK(FloorBitmapTest);
BENCHMARK(ArrayViewGetString);
BENCHMARK(FloorStringWalk);
BENCHMARK(ArrayViewValidateFull);

BENCHMARK_MAIN();
