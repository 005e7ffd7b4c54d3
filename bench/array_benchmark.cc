// Array building and array view benchmarks. Each benchmark whose work is a plain
// memory pass has a Floor* twin doing the same memory work in a plain loop, so the
// results read as ratios to what the hardware allows.

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

/// Append 1,000,000 int32 elements, 80 % of them null
///
/// Four of every five elements are ArrowArrayAppendNull(array, 1), the rest values.
static void ArrayAppendNulls(benchmark::State& state) {
  for (auto _ : state) {
    struct ArrowArray array;
    CheckOk(state, ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), "init");
    CheckOk(state, ArrowArrayStartAppending(&array), "start");
    for (int64_t i = 0; i < kNumItems; i++) {
      if (i % 5 == 0) {
        ArrowArrayAppendInt(&array, i);
      } else {
        ArrowArrayAppendNull(&array, 1);
      }
    }
    CheckOk(state, ArrowArrayFinishBuildingDefault(&array, nullptr), "finish");
    ArrowArrayRelease(&array);
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

// An int array of kNumItems values (and, optionally, every fifth one null) with a
// view pointing at it. Throws nanoarrow::Exception when it cannot be built.
struct ViewFixture {
  nanoarrow::UniqueArray array;
  nanoarrow::UniqueArrayView view;

  ViewFixture(enum ArrowType type, bool with_nulls) {
    NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), type));
    NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
    for (int64_t i = 0; i < kNumItems; i++) {
      if (with_nulls && i % 5 == 0) {
        NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(array.get(), 1));
      } else {
        NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), i % 100));
      }
    }
    NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
    ArrowArrayViewInitFromType(view.get(), type);
    NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array.get(), nullptr));
  }
};

template <typename CType>
void ViewGetIntegers(benchmark::State& state, enum ArrowType type) {
  SkipOnError(state, [&] {
    ViewFixture fixture(type, false);
    std::vector<CType> out(kNumItems);
    for (auto _ : state) {
      const struct ArrowArrayView* view = fixture.view.get();
      for (int64_t i = 0; i < kNumItems; i++) {
        out[i] = static_cast<CType>(ArrowArrayViewGetIntUnsafe(view, i));
      }
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
  });
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

template <typename CType>
void FloorCopyIntegers(benchmark::State& state) {
  std::vector<CType> in(kNumItems);
  for (int64_t i = 0; i < kNumItems; i++) in[i] = static_cast<CType>(i % 100);
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

/// Read 1,000,000 int8 values through an array view
///
/// ArrowArrayViewGetIntUnsafe() for every element, copied into an int8 vector.
static void ArrayViewGetInt8(benchmark::State& state) {
  ViewGetIntegers<int8_t>(state, NANOARROW_TYPE_INT8);
}

/// Read 1,000,000 int16 values through an array view
///
/// ArrowArrayViewGetIntUnsafe() for every element, copied into an int16 vector.
static void ArrayViewGetInt16(benchmark::State& state) {
  ViewGetIntegers<int16_t>(state, NANOARROW_TYPE_INT16);
}

/// Read 1,000,000 int32 values through an array view
///
/// ArrowArrayViewGetIntUnsafe() for every element, copied into an int32 vector.
static void ArrayViewGetInt32(benchmark::State& state) {
  ViewGetIntegers<int32_t>(state, NANOARROW_TYPE_INT32);
}

/// Read 1,000,000 int64 values through an array view
///
/// ArrowArrayViewGetIntUnsafe() for every element, copied into an int64 vector.
static void ArrayViewGetInt64(benchmark::State& state) {
  ViewGetIntegers<int64_t>(state, NANOARROW_TYPE_INT64);
}

/// Floor: copy 1,000,000 int8 values in a plain loop
///
/// The memory work of ArrayViewGetInt8 without the library.
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

// The seed suite's null-aware read: each element is 0 when null, else its value,
// stored into an int32 vector.
void ViewIsNullThenGet(benchmark::State& state, bool with_nulls) {
  SkipOnError(state, [&] {
    ViewFixture fixture(NANOARROW_TYPE_INT32, with_nulls);
    std::vector<int32_t> out(kNumItems);
    for (auto _ : state) {
      const struct ArrowArrayView* view = fixture.view.get();
      for (int64_t i = 0; i < kNumItems; i++) {
        if (ArrowArrayViewIsNull(view, i)) {
          out[i] = 0;
        } else {
          out[i] = static_cast<int32_t>(ArrowArrayViewGetIntUnsafe(view, i));
        }
      }
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    // Element 1 is 1 % 100; element 0 is null only when the array has nulls.
    if (out[1] != 1 || out[0] != 0) state.SkipWithError("wrong values");
  });
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

/// Read 1,000,000 int32 elements checking for nulls, 20 % null
///
/// For every element ArrowArrayViewIsNull(), then 0 for a null or
/// ArrowArrayViewGetIntUnsafe(), stored into an int32 vector.
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
    in[i] = static_cast<int32_t>(i % 100);
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

/// Read 1,000,000 strings through an array view
///
/// ArrowArrayViewGetStringUnsafe() for every element, summing sizes and first bytes so
/// every string is really read.
static void ArrayViewGetString(benchmark::State& state) {
  SkipOnError(state, [&] {
    StringFixture fixture;
    int64_t checksum = 0;
    for (auto _ : state) {
      const struct ArrowArrayView* view = fixture.view.get();
      checksum = 0;
      for (int64_t i = 0; i < kNumItems; i++) {
        struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(view, i);
        checksum += value.size_bytes;
        if (value.size_bytes > 0) checksum += value.data[0];
      }
      benchmark::DoNotOptimize(checksum);
    }
    state.SetBytesProcessed(state.iterations() * fixture.total_bytes);
  });
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

/// Floor: walk 1,000,000 string offsets in a plain loop
///
/// The memory work of ArrayViewGetString without the library.
static void FloorStringWalk(benchmark::State& state) {
  SkipOnError(state, [&] {
    StringFixture fixture;
    int64_t checksum = 0;
    for (auto _ : state) {
      const int32_t* offsets = fixture.view->buffer_views[1].data.as_int32;
      const char* data = fixture.view->buffer_views[2].data.as_char;
      benchmark::DoNotOptimize(offsets);
      checksum = 0;
      for (int64_t i = 0; i < kNumItems; i++) {
        int64_t size = offsets[i + 1] - offsets[i];
        checksum += size;
        if (size > 0) checksum += data[offsets[i]];
      }
      benchmark::DoNotOptimize(checksum);
    }
  });
  state.SetItemsProcessed(state.iterations() * kNumItems);
}

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
