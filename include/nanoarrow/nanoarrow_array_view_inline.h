// nanoarrow in C: inline element access for struct ArrowArrayView.
//
// Each element getter reads the view's storage type and buffer pointers into locals
// and tests the type with a chain of ifs, the most common types first, never a
// switch: compilers hoist invariant ifs out of a caller's loop over elements (leaving
// a loop without type tests) but keep a switch inside it. "Unsafe" getters do no
// bounds checks: call them only on views validated by ArrowArrayViewSetArray() (or
// built by hand with correct buffers) and with 0 <= i < length.

#ifndef NANOARROW_ARRAY_VIEW_INLINE_H_INCLUDED
#define NANOARROW_ARRAY_VIEW_INLINE_H_INCLUDED

#include "nanoarrow/nanoarrow_buffer_inline.h"

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow_types.h"

#ifdef __cplusplus
extern "C" {
#endif

// Binary/string views: validity and the views come before the variadic buffers.
#ifndef NANOARROW_BINARY_VIEW_FIXED_BUFFERS
#define NANOARROW_BINARY_VIEW_FIXED_BUFFERS 2
#endif

static inline int ArrowPrivateArrayViewIsBinaryView(enum ArrowType storage_type) {
  return storage_type == NANOARROW_TYPE_BINARY_VIEW ||
         storage_type == NANOARROW_TYPE_STRING_VIEW;
}

// Buffer i's data pointer, read as the const void* member it is. Clang lets a read
// through a union member alias any store, so a caller's loop storing each element
// would reload the pointer every time and could not lift the getters' type tests out
// of the loop; C allows reading a union's member through a pointer to the union.
static inline union ArrowBufferViewData ArrowPrivateArrayViewData(
    const struct ArrowArrayView* array_view, int64_t i) {
  union ArrowBufferViewData out;
  out.data = *(const void* const*)&array_view->buffer_views[i].data;
  return out;
}

// ---- Buffer introspection ----

static inline int64_t ArrowArrayViewGetNumBuffers(struct ArrowArrayView* array_view) {
  int64_t n_buffers = 0;
  if (ArrowPrivateArrayViewIsBinaryView(array_view->storage_type)) {
    // Fixed buffers, variadic data buffers, then the variadic sizes buffer.
    return NANOARROW_BINARY_VIEW_FIXED_BUFFERS + (int64_t)array_view->n_variadic_buffers +
           1;
  }
  while (n_buffers < NANOARROW_MAX_FIXED_BUFFERS &&
         array_view->layout.buffer_type[n_buffers] != NANOARROW_BUFFER_TYPE_NONE) {
    n_buffers++;
  }
  return n_buffers;
}

static inline struct ArrowBufferView ArrowArrayViewGetBufferView(
    struct ArrowArrayView* array_view, int64_t i) {
  struct ArrowBufferView out;
  int64_t variadic_i;
  if (!ArrowPrivateArrayViewIsBinaryView(array_view->storage_type)) {
    if (i >= 0 && i < NANOARROW_MAX_FIXED_BUFFERS) {
      return array_view->buffer_views[i];
    }
    out.data.data = NULL;
    out.size_bytes = 0;
    return out;
  }

  if (i >= 0 && i < NANOARROW_BINARY_VIEW_FIXED_BUFFERS) {
    return array_view->buffer_views[i];
  }

  variadic_i = i - NANOARROW_BINARY_VIEW_FIXED_BUFFERS;
  if (variadic_i >= 0 && variadic_i < array_view->n_variadic_buffers) {
    out.data.data = array_view->variadic_buffers[variadic_i];
    out.size_bytes = array_view->variadic_buffer_sizes[variadic_i];
  } else if (variadic_i == array_view->n_variadic_buffers) {
    out.data.data = array_view->variadic_buffer_sizes;
    out.size_bytes = (int64_t)array_view->n_variadic_buffers * (int64_t)sizeof(int64_t);
  } else {
    out.data.data = NULL;
    out.size_bytes = 0;
  }
  return out;
}

// For binary views: which kind of buffer index i is (0 fixed, 1 variadic data,
// 2 variadic sizes, -1 out of range).
static inline int ArrowPrivateArrayViewBinaryViewBufferKind(const struct ArrowArrayView* array_view,
                                                     int64_t i) {
  int64_t variadic_i = i - NANOARROW_BINARY_VIEW_FIXED_BUFFERS;
  if (i < 0) return -1;
  if (variadic_i < 0) return 0;
  if (variadic_i < array_view->n_variadic_buffers) return 1;
  if (variadic_i == array_view->n_variadic_buffers) return 2;
  return -1;
}

static inline enum ArrowBufferType ArrowArrayViewGetBufferType(
    struct ArrowArrayView* array_view, int64_t i) {
  if (ArrowPrivateArrayViewIsBinaryView(array_view->storage_type)) {
    switch (ArrowPrivateArrayViewBinaryViewBufferKind(array_view, i)) {
      case 0:
        return array_view->layout.buffer_type[i];
      case 1:
        return NANOARROW_BUFFER_TYPE_VARIADIC_DATA;
      case 2:
        return NANOARROW_BUFFER_TYPE_VARIADIC_SIZE;
      default:
        return NANOARROW_BUFFER_TYPE_NONE;
    }
  }
  if (i >= 0 && i < NANOARROW_MAX_FIXED_BUFFERS) {
    return array_view->layout.buffer_type[i];
  }
  return NANOARROW_BUFFER_TYPE_NONE;
}

static inline enum ArrowType ArrowArrayViewGetBufferDataType(
    struct ArrowArrayView* array_view, int64_t i) {
  if (ArrowPrivateArrayViewIsBinaryView(array_view->storage_type)) {
    switch (ArrowPrivateArrayViewBinaryViewBufferKind(array_view, i)) {
      case 0:
        return array_view->layout.buffer_data_type[i];
      case 1:
        return array_view->storage_type == NANOARROW_TYPE_STRING_VIEW
                   ? NANOARROW_TYPE_STRING
                   : NANOARROW_TYPE_BINARY;
      case 2:
        return NANOARROW_TYPE_INT64;
      default:
        return NANOARROW_TYPE_UNINITIALIZED;
    }
  }
  if (i >= 0 && i < NANOARROW_MAX_FIXED_BUFFERS) {
    return array_view->layout.buffer_data_type[i];
  }
  return NANOARROW_TYPE_UNINITIALIZED;
}

static inline int64_t ArrowArrayViewGetBufferElementSizeBits(
    struct ArrowArrayView* array_view, int64_t i) {
  if (ArrowPrivateArrayViewIsBinaryView(array_view->storage_type)) {
    switch (ArrowPrivateArrayViewBinaryViewBufferKind(array_view, i)) {
      case 0:
        return array_view->layout.element_size_bits[i];
      case 1:
        return 0;  // variadic data: values of no fixed size
      case 2:
        return 64;
      default:
        return 0;
    }
  }
  if (i >= 0 && i < NANOARROW_MAX_FIXED_BUFFERS) {
    return array_view->layout.element_size_bits[i];
  }
  return 0;
}

// ---- Ownership ----

// A view owns only heap blocks (children, dictionary, union map, variadic arrays) and
// no pointer into itself, so a byte copy moves it.
static inline void ArrowArrayViewMove(struct ArrowArrayView* src,
                                      struct ArrowArrayView* dst) {
  memcpy(dst, src, sizeof(struct ArrowArrayView));
  ArrowArrayViewInitFromType(src, NANOARROW_TYPE_UNINITIALIZED);
}

// ---- Nulls ----

// Unions and run-end encoded arrays have no validity of their own: they are never
// null here (ask the child). The NA type is always null. Buffer 0 is a validity
// bitmap exactly when its elements are 1 bit wide (union type ids are 8 bits, the
// other types without validity have no buffer 0); the width, an int64, is tested
// rather than the buffer type, an enum, which a caller's loop storing int32 values
// may alias and would make the test run again for every element.
static inline int8_t ArrowArrayViewIsNull(const struct ArrowArrayView* array_view,
                                          int64_t i) {
  const uint8_t* validity = ArrowPrivateArrayViewData(array_view, 0).as_uint8;
  if (NANOARROW_PREDICT_TRUE(validity != NULL &&
                             array_view->layout.element_size_bits[0] == 1)) {
    i += array_view->offset;
    return (int8_t)!((validity[i >> 3] >> (i & 7)) & 1);
  }
  // No validity bitmap: only the null type has nulls (all of them). A union's first
  // buffer holds type ids, not validity.
  return array_view->storage_type == NANOARROW_TYPE_NA;
}

static inline int64_t ArrowArrayViewComputeNullCount(
    const struct ArrowArrayView* array_view) {
  const uint8_t* validity = ArrowPrivateArrayViewData(array_view, 0).as_uint8;
  if (array_view->length == 0) {
    return 0;
  }
  if (array_view->layout.buffer_type[0] != NANOARROW_BUFFER_TYPE_VALIDITY) {
    return array_view->storage_type == NANOARROW_TYPE_NA ? array_view->length : 0;
  }
  if (validity == NULL) {
    return 0;
  }
  return array_view->length -
         ArrowBitCountSet(validity, array_view->offset, array_view->length);
}

// ---- Unions and lists ----

static inline int8_t ArrowArrayViewUnionTypeId(const struct ArrowArrayView* array_view,
                                               int64_t i) {
  const enum ArrowType storage_type = array_view->storage_type;
  if (storage_type == NANOARROW_TYPE_SPARSE_UNION ||
      storage_type == NANOARROW_TYPE_DENSE_UNION) {
    return ArrowPrivateArrayViewData(array_view, 0).as_int8[array_view->offset + i];
  }
  return -1;
}

static inline int8_t ArrowArrayViewUnionChildIndex(const struct ArrowArrayView* array_view,
                                                   int64_t i) {
  int8_t type_id = ArrowArrayViewUnionTypeId(array_view, i);
  if (type_id < 0 || array_view->union_type_id_map == NULL) {
    return type_id;
  }
  return array_view->union_type_id_map[type_id];
}

static inline int64_t ArrowArrayViewUnionChildOffset(const struct ArrowArrayView* array_view,
                                                     int64_t i) {
  const enum ArrowType storage_type = array_view->storage_type;
  if (storage_type == NANOARROW_TYPE_DENSE_UNION) {
    return ArrowPrivateArrayViewData(array_view, 1).as_int32[array_view->offset + i];
  }
  if (storage_type == NANOARROW_TYPE_SPARSE_UNION) {
    return array_view->offset + i;
  }
  return -1;
}

// The raw value of offsets buffer element i (for list views, where element i starts
// in the child). As nanoarrow does, the view's offset is not added: pass
// array_view->offset + i for element i of a sliced array.
static inline int64_t ArrowArrayViewListChildOffset(const struct ArrowArrayView* array_view,
                                                    int64_t i) {
  const enum ArrowType storage_type = array_view->storage_type;
  if (storage_type == NANOARROW_TYPE_LIST || storage_type == NANOARROW_TYPE_MAP ||
      storage_type == NANOARROW_TYPE_LIST_VIEW) {
    return ArrowPrivateArrayViewData(array_view, 1).as_int32[i];
  }
  if (storage_type == NANOARROW_TYPE_LARGE_LIST ||
      storage_type == NANOARROW_TYPE_LARGE_LIST_VIEW) {
    return ArrowPrivateArrayViewData(array_view, 1).as_int64[i];
  }
  return -1;
}

// ---- Values ----

// The numeric getters read the view's storage type, data pointer and offset, and
// test the type in a chain of ifs, leaving the other types to an out-of-line
// function. What they read matters in a caller's loop that stores each element into
// memory the compiler cannot tell apart from the view (the seed's benchmarks store
// into a std::vector passed whole to DoNotOptimize()): an int8 (char) store may alias
// every field, so each one read is read again and each test run again per element;
// an int64 store may alias the int64 fields (offset, element sizes), an int32 store
// the enums (the storage type). Hence:
// - the types are told apart by the storage type alone, so that an int64 loop does
//   not re-read element_size_bits (the type tests are then lifted out of its loop);
// - in a loop storing int8, where every test runs per element, int8 is tested right
//   after the first test and falls through to its load (the first test is marked
//   unlikely for that layout only: a loop over int32 is given a version of its own);
// - the first test also checks the element width: clang merges a chain of tests on
//   one value into a switch, which it does not lift out of a caller's loop (a jump per
//   element: the seed's ArrayViewIsNullNonNullable took twice the instructions), and
//   gcc's loop versioning then still gives that type a loop of its own.

// Element i as an int64 (floating point truncated and saturated, NaN as 0;
// INT64_MAX for non-numeric types).
static inline int64_t ArrowArrayViewGetIntUnsafe(const struct ArrowArrayView* array_view,
                                                 int64_t i) {
  const enum ArrowType storage_type = array_view->storage_type;
  const union ArrowBufferViewData data = ArrowPrivateArrayViewData(array_view, 1);
  i += array_view->offset;
  if (NANOARROW_PREDICT_FALSE(array_view->layout.element_size_bits[1] == 32 &&
                              storage_type == NANOARROW_TYPE_INT32)) {
    return data.as_int32[i];
  }
  if (storage_type == NANOARROW_TYPE_INT8) {
    return data.as_int8[i];
  }
  if (storage_type == NANOARROW_TYPE_INT64) {
    return data.as_int64[i];
  }
  if (storage_type == NANOARROW_TYPE_INT16) {
    return data.as_int16[i];
  }
  return ArrowPrivateArrayViewGetIntSlow(array_view, i);
}

// Element i as a uint64 (floating point truncated and saturated, NaN and negative
// values as 0; UINT64_MAX for non-numeric types).
static inline uint64_t ArrowArrayViewGetUIntUnsafe(const struct ArrowArrayView* array_view,
                                                   int64_t i) {
  const enum ArrowType storage_type = array_view->storage_type;
  const union ArrowBufferViewData data = ArrowPrivateArrayViewData(array_view, 1);
  i += array_view->offset;
  if (NANOARROW_PREDICT_FALSE(array_view->layout.element_size_bits[1] == 32 &&
                              storage_type == NANOARROW_TYPE_UINT32)) {
    return data.as_uint32[i];
  }
  if (storage_type == NANOARROW_TYPE_UINT8) {
    return data.as_uint8[i];
  }
  if (storage_type == NANOARROW_TYPE_UINT64) {
    return data.as_uint64[i];
  }
  return ArrowPrivateArrayViewGetUIntSlow(array_view, i);
}

// Element i as a double (0.0 for non-numeric types).
static inline double ArrowArrayViewGetDoubleUnsafe(const struct ArrowArrayView* array_view,
                                                   int64_t i) {
  const enum ArrowType storage_type = array_view->storage_type;
  const union ArrowBufferViewData data = ArrowPrivateArrayViewData(array_view, 1);
  i += array_view->offset;
  if (array_view->layout.element_size_bits[1] == 64 &&
      storage_type == NANOARROW_TYPE_DOUBLE) {
    return data.as_double[i];
  }
  if (storage_type == NANOARROW_TYPE_INT32) {
    return (double)data.as_int32[i];
  }
  return ArrowPrivateArrayViewGetDoubleSlow(array_view, i);
}

// The bytes of element i of a string, binary, fixed-size binary or view array
// ({NULL, 0} for other types).
static inline struct ArrowBufferView ArrowArrayViewGetBytesUnsafe(
    const struct ArrowArrayView* array_view, int64_t i) {
  struct ArrowBufferView out;
  const union ArrowBufferViewData offsets = ArrowPrivateArrayViewData(array_view, 1);
  const char* data = ArrowPrivateArrayViewData(array_view, 2).as_char;
  const enum ArrowType storage_type = array_view->storage_type;
  const union ArrowBinaryView* view;
  i += array_view->offset;
  if (storage_type == NANOARROW_TYPE_STRING || storage_type == NANOARROW_TYPE_BINARY) {
    out.data.as_char = data + offsets.as_int32[i];
    out.size_bytes = (int64_t)offsets.as_int32[i + 1] - offsets.as_int32[i];
    return out;
  }
  if (storage_type == NANOARROW_TYPE_LARGE_STRING ||
      storage_type == NANOARROW_TYPE_LARGE_BINARY) {
    out.data.as_char = data + offsets.as_int64[i];
    out.size_bytes = offsets.as_int64[i + 1] - offsets.as_int64[i];
    return out;
  }
  if (ArrowPrivateArrayViewIsBinaryView(storage_type)) {
    view = offsets.as_binary_view + i;
    out.size_bytes = view->inlined.size;
    if (view->inlined.size <= NANOARROW_BINARY_VIEW_INLINE_SIZE) {
      out.data.as_uint8 = view->inlined.data;
    } else {
      out.data.as_char =
          (const char*)array_view->variadic_buffers[view->ref.buffer_index] +
          view->ref.offset;
    }
    return out;
  }
  if (storage_type == NANOARROW_TYPE_FIXED_SIZE_BINARY) {
    out.size_bytes = array_view->layout.element_size_bits[1] / 8;
    out.data.as_char = offsets.as_char + i * out.size_bytes;
    return out;
  }
  out.data.data = NULL;
  out.size_bytes = 0;
  return out;
}

static inline struct ArrowStringView ArrowArrayViewGetStringUnsafe(
    const struct ArrowArrayView* array_view, int64_t i) {
  struct ArrowBufferView bytes = ArrowArrayViewGetBytesUnsafe(array_view, i);
  struct ArrowStringView out;
  out.data = bytes.data.as_char;
  out.size_bytes = bytes.size_bytes;
  return out;
}

// out must have been initialized with ArrowDecimalInit() for the array's bit width.
static inline void ArrowArrayViewGetDecimalUnsafe(const struct ArrowArrayView* array_view,
                                                  int64_t i, struct ArrowDecimal* out) {
  const union ArrowBufferViewData data = ArrowPrivateArrayViewData(array_view, 1);
  const enum ArrowType storage_type = array_view->storage_type;
  i += array_view->offset;
  if (storage_type == NANOARROW_TYPE_DECIMAL128) {
    ArrowDecimalSetBytes(out, data.as_uint8 + i * 16);
  } else if (storage_type == NANOARROW_TYPE_DECIMAL256) {
    ArrowDecimalSetBytes(out, data.as_uint8 + i * 32);
  } else if (storage_type == NANOARROW_TYPE_DECIMAL64) {
    ArrowDecimalSetInt(out, data.as_int64[i]);
  } else if (storage_type == NANOARROW_TYPE_DECIMAL32) {
    ArrowDecimalSetInt(out, data.as_int32[i]);
  } else {
    memset(out->words, 0, sizeof(out->words));
  }
}

// Fills the fields of out that the array's interval type stores.
static inline void ArrowArrayViewGetIntervalUnsafe(const struct ArrowArrayView* array_view,
                                                   int64_t i, struct ArrowInterval* out) {
  const uint8_t* data = ArrowPrivateArrayViewData(array_view, 1).as_uint8;
  const enum ArrowType storage_type = array_view->storage_type;
  i += array_view->offset;
  if (storage_type == NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO) {
    memcpy(&out->months, data + i * 16, 4);
    memcpy(&out->days, data + i * 16 + 4, 4);
    memcpy(&out->ns, data + i * 16 + 8, 8);
  } else if (storage_type == NANOARROW_TYPE_INTERVAL_DAY_TIME) {
    memcpy(&out->days, data + i * 8, 4);
    memcpy(&out->ms, data + i * 8 + 4, 4);
  } else if (storage_type == NANOARROW_TYPE_INTERVAL_MONTHS) {
    memcpy(&out->months, data + i * 4, 4);
  }
}

// ---- Run-end encoded ----

// The run holding logical position p of a run-end encoded array whose run ends
// view is run_ends: the index of the first run end greater than p (run_ends->length
// when p is past the last run). Binary search; run ends are strictly increasing.
static inline int64_t ArrowArrayViewPrivateRunIndex(const struct ArrowArrayView* run_ends,
                                                   int64_t p) {
  int64_t lo = 0;
  int64_t hi = run_ends->length;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (ArrowArrayViewGetIntUnsafe(run_ends, mid) > p) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

#ifdef __cplusplus
}
#endif

#endif  // NANOARROW_ARRAY_VIEW_INLINE_H_INCLUDED
