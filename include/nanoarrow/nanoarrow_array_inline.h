// nanoarrow in C: inline builder API for arrays created by this library.
//
// An array built here keeps a struct ArrowArrayPrivateData in private_data. Buffer 0
// is private_data->bitmap (the validity bitmap, or the type ids of a union) and fixed
// buffers 1 and 2 are private_data->buffers[0] and [1]. Union arrays whose type ids
// are not their child indices keep a 256-byte map in the otherwise unused
// private_data->buffers[1]: [0, 128) type id -> child index (-1 when unused) and
// [128, 256) child index -> type id, the same shape as ArrowArrayView's map.
//
// The validity bitmap is allocated lazily: it stays empty until the first null is
// appended and is then filled with set bits for the elements before it. The append
// hot path therefore is: check capacity, store, bump the length, plus one
// well-predicted test for "does a bitmap exist".

#ifndef NANOARROW_ARRAY_INLINE_H_INCLUDED
#define NANOARROW_ARRAY_INLINE_H_INCLUDED

#include "nanoarrow/nanoarrow_buffer_inline.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- Internal helpers (not part of the API) ----

// Keep the per-element fast path inlined and its rarely taken slow paths out of line,
// whatever the compiler's inlining budget decides for the rest.
#if defined(__GNUC__) || defined(__clang__)
#define NANOARROW_ARRAY_FAST_PATH static inline __attribute__((always_inline))
#define NANOARROW_ARRAY_SLOW_PATH static __attribute__((noinline, unused))
#else
#define NANOARROW_ARRAY_FAST_PATH static inline
#define NANOARROW_ARRAY_SLOW_PATH static inline
#endif

static inline struct ArrowArrayPrivateData* ArrowArrayPrivateGetData(
    const struct ArrowArray* array) {
  return (struct ArrowArrayPrivateData*)array->private_data;
}

NANOARROW_ARRAY_SLOW_PATH ArrowErrorCode ArrowArrayPrivateGrow(
    struct ArrowBuffer* buffer, int64_t additional_bytes) {
  return ArrowBufferReserve(buffer, additional_bytes);
}

// Appends size_bytes bytes; the capacity test is the only branch on the hot path.
// With a constant size_bytes the memcpy compiles to a single store.
NANOARROW_ARRAY_FAST_PATH ArrowErrorCode ArrowArrayPrivatePush(
    struct ArrowBuffer* buffer, const void* value, int64_t size_bytes) {
  if (NANOARROW_PREDICT_FALSE(buffer->capacity_bytes - buffer->size_bytes < size_bytes)) {
    NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateGrow(buffer, size_bytes));
  }
  memcpy(buffer->data + buffer->size_bytes, value, (size_t)size_bytes);
  buffer->size_bytes += size_bytes;
  return NANOARROW_OK;
}

// Writes n bytes after the end of buffer, which has room for them; the caller updates
// size_bytes. Values of up to 16 bytes (most strings) are moved with at most two pairs
// of overlapping fixed-size loads and stores instead of a call to memcpy; every load
// stays within [src, src + n).
// Copies n > 0 bytes to dst: see ArrowArrayPrivateCopyBytes().
NANOARROW_ARRAY_FAST_PATH void ArrowArrayPrivateCopyTo(uint8_t* dst, const uint8_t* src,
                                                      int64_t n) {
  if (n > 16) {
    memcpy(dst, src, (size_t)n);
  } else if (n >= 8) {
    uint64_t head, tail;
    memcpy(&head, src, 8);
    memcpy(&tail, src + n - 8, 8);
    memcpy(dst, &head, 8);
    memcpy(dst + n - 8, &tail, 8);
  } else if (n >= 4) {
    uint32_t head, tail;
    memcpy(&head, src, 4);
    memcpy(&tail, src + n - 4, 4);
    memcpy(dst, &head, 4);
    memcpy(dst + n - 4, &tail, 4);
  } else {
    dst[0] = src[0];
    dst[n >> 1] = src[n >> 1];
    dst[n - 1] = src[n - 1];
  }
}

NANOARROW_ARRAY_FAST_PATH void ArrowArrayPrivateCopyBytes(struct ArrowBuffer* buffer,
                                                          const uint8_t* src, int64_t n) {
  uint8_t* dst;
  // A buffer that never received a byte has no data pointer to offset.
  if (n <= 0) {
    return;
  }
  dst = buffer->data + buffer->size_bytes;
  ArrowArrayPrivateCopyTo(dst, src, n);
}

// Sets *out to a * b and returns 0, or returns 1 when the product does not fit in an
// int64 (a, b >= 0). Fixed-size binary widths and fixed-size list sizes reach
// 2^31 - 1, so a count times one of them can overflow where the bounds on counts alone
// cannot see it. Two factors below 2^31 cannot overflow: the division (an idiv, slow)
// is left for large ones, since the array view runs this for every buffer it sets.
static inline int ArrowArrayPrivateMulOverflows(int64_t a, int64_t b, int64_t* out) {
  if (((a | b) >> 31) != 0 && b != 0 && a > INT64_MAX / b) {
    return 1;
  }
  *out = a * b;
  return 0;
}

// Appends n copies of a size_bytes-wide value.
static inline ArrowErrorCode ArrowArrayPrivatePushRepeated(struct ArrowBuffer* buffer,
                                                           const void* value,
                                                           int64_t size_bytes, int64_t n) {
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(buffer, size_bytes * n));
  for (i = 0; i < n; i++) {
    memcpy(buffer->data + buffer->size_bytes, value, (size_t)size_bytes);
    buffer->size_bytes += size_bytes;
  }
  return NANOARROW_OK;
}

// Writes n bits of value into a bit-packed data buffer (bool values) after the
// array's current elements, growing the buffer with cleared bytes as needed.
static inline ArrowErrorCode ArrowArrayPrivatePushBits(struct ArrowArray* array,
                                                       struct ArrowBuffer* buffer,
                                                       uint8_t value, int64_t n) {
  int64_t start = array->offset + array->length;
  int64_t bytes_needed = ArrowBytesForBits(start + n);
  if (bytes_needed > buffer->size_bytes) {
    NANOARROW_RETURN_NOT_OK(
        ArrowBufferAppendFill(buffer, 0, bytes_needed - buffer->size_bytes));
  }
  ArrowBitsSetTo(buffer->data, start, n, value);
  return NANOARROW_OK;
}

// ArrowBitmapAppend that also clears the rest of every byte it starts, so that bits
// past the length are always zero in exported bitmaps.
static inline ArrowErrorCode ArrowArrayPrivateBitmapAppend(struct ArrowBitmap* bitmap,
                                                           uint8_t is_valid, int64_t n) {
  int64_t used_bytes = ArrowBytesForBits(bitmap->size_bits);
  int64_t new_bytes;
  NANOARROW_RETURN_NOT_OK(ArrowBitmapReserve(bitmap, n));
  new_bytes = ArrowBytesForBits(bitmap->size_bits + n);
  if (new_bytes > used_bytes) {
    memset(bitmap->buffer.data + used_bytes, 0, (size_t)(new_bytes - used_bytes));
  }
  ArrowBitmapAppendUnsafe(bitmap, is_valid, n);
  return NANOARROW_OK;
}

// Appends n validity bits, first bringing the bitmap to exactly offset + length bits.
// Whole bytes past those the bit count accounts for were written by the caller
// through ArrowArrayBuffer(array, 0) as a plain buffer: their bits stand for the
// existing elements they cover. Any existing element still without a bit (a bitmap
// never allocated, or reserved by hand after some appends) gets a set bit.
NANOARROW_ARRAY_SLOW_PATH ArrowErrorCode ArrowArrayPrivateAppendValidity(
    struct ArrowArray* array, uint8_t is_valid, int64_t n) {
  struct ArrowBitmap* bitmap = &ArrowArrayPrivateGetData(array)->bitmap;
  int64_t existing_bits = array->offset + array->length;
  if (bitmap->size_bits < existing_bits &&
      bitmap->buffer.size_bytes > ArrowBytesForBits(bitmap->size_bits)) {
    int64_t written_bits = bitmap->buffer.size_bytes * 8;
    bitmap->size_bits = written_bits < existing_bits ? written_bits : existing_bits;
  }
  if (bitmap->size_bits < existing_bits) {
    NANOARROW_RETURN_NOT_OK(
        ArrowArrayPrivateBitmapAppend(bitmap, 1, existing_bits - bitmap->size_bits));
  } else if (bitmap->size_bits > existing_bits) {
    ArrowBitsSetTo(bitmap->buffer.data, existing_bits, bitmap->size_bits - existing_bits, 0);
    NANOARROW_RETURN_NOT_OK(ArrowBitmapResize(bitmap, existing_bits, 0));
  }
  return ArrowArrayPrivateBitmapAppend(bitmap, is_valid, n);
}

// Writes one validity bit when the bitmap covers exactly the existing elements and
// has room for it; returns 0 (and writes nothing) otherwise. A bit that starts a byte
// writes the whole byte, so the bits above it are zero without reading the byte; the
// others set or clear their bit with a single read-modify-write. (The former
// "keep the bits below, clear those above" update made every element wait for the
// previous one's byte and ran at half the speed.) Bytes this library starts have
// zero bits past the length; a byte started through the public bitmap functions
// keeps whatever they left above its last bit, which the format leaves unspecified.
NANOARROW_ARRAY_FAST_PATH int ArrowArrayPrivateTryPushValidityBit(
    struct ArrowArray* array, struct ArrowBitmap* bitmap, uint8_t is_valid) {
  int64_t i = bitmap->size_bits;
  if (NANOARROW_PREDICT_TRUE(i == array->offset + array->length &&
                             (i >> 3) < bitmap->buffer.capacity_bytes)) {
    uint8_t* byte = bitmap->buffer.data + (i >> 3);
    uint8_t bit = (uint8_t)(1u << (i & 7));
    if ((i & 7) == 0) {
      *byte = is_valid ? 1 : 0;
    } else if (is_valid) {
      *byte |= bit;
    } else {
      *byte &= (uint8_t)~bit;
    }
    bitmap->size_bits = i + 1;
    bitmap->buffer.size_bytes = (i >> 3) + 1;
    return 1;
  }
  return 0;
}

// Appends one validity bit to a bitmap that exists.
NANOARROW_ARRAY_FAST_PATH ArrowErrorCode ArrowArrayPrivatePushValidityBit(
    struct ArrowArray* array, struct ArrowBitmap* bitmap, uint8_t is_valid) {
  if (NANOARROW_PREDICT_TRUE(ArrowArrayPrivateTryPushValidityBit(array, bitmap, is_valid))) {
    return NANOARROW_OK;
  }
  return ArrowArrayPrivateAppendValidity(array, is_valid, 1);
}

// Out of line so that appends to arrays without nulls keep a minimal loop body.
NANOARROW_ARRAY_SLOW_PATH ArrowErrorCode ArrowArrayPrivatePushValidBit(
    struct ArrowArray* array, struct ArrowBitmap* bitmap) {
  return ArrowArrayPrivatePushValidityBit(array, bitmap, 1);
}

// Completes the append of one non-null element.
NANOARROW_ARRAY_FAST_PATH ArrowErrorCode ArrowArrayPrivateFinishValid(
    struct ArrowArray* array, struct ArrowArrayPrivateData* private_data) {
  if (NANOARROW_PREDICT_FALSE(private_data->bitmap.buffer.data != NULL)) {
    NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePushValidBit(array, &private_data->bitmap));
  }
  array->length++;
  return NANOARROW_OK;
}

#if defined(__GNUC__) || defined(__clang__)
// A store through one of these keeps its type for alias analysis (a memcpy may alias
// anything), so the compiler need not reload what the store cannot have changed.
// aligned(1): nothing forces size_bytes to be a multiple of the width.
typedef int32_t ArrowArrayPrivateUnalignedInt32 __attribute__((aligned(1)));
typedef int64_t ArrowArrayPrivateUnalignedInt64 __attribute__((aligned(1)));
#define NANOARROW_ARRAY_STORE(CTYPE, TYPED, DST, VALUE) (*(TYPED*)(DST) = (CTYPE)(VALUE))
#else
// TYPED is unused here: memcpy is the portable unaligned store.
#define NANOARROW_ARRAY_STORE(CTYPE, TYPED, DST, VALUE) \
  do {                                                  \
    CTYPE nanoarrow_stored_ = (CTYPE)(VALUE);           \
    memcpy((DST), &nanoarrow_stored_, sizeof(CTYPE));   \
  } while (0)
#endif

// Asks for the cache line at base + offset in a writable state ahead of the stores
// that will fill it. Buffers larger than the L2 cache otherwise fill at the pace of one
// ownership request at a time. The address may lie past the allocation: it is formed
// as an integer and prefetches never fault.
#if defined(__GNUC__) || defined(__clang__)
#define NANOARROW_ARRAY_PREFETCH_WRITE(BASE, OFFSET) \
  __builtin_prefetch((const void*)((uintptr_t)(BASE) + (uintptr_t)(OFFSET)), 1, 3)
#else
#define NANOARROW_ARRAY_PREFETCH_WRITE(BASE, OFFSET) ((void)0)
#endif

// Child index of a union type id, or -1 when no child has it.
static inline int ArrowArrayPrivateUnionChildIndex(const struct ArrowArray* array,
                                                   int8_t type_id) {
  const struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  if (type_id < 0) {
    return -1;
  }
  if (private_data->union_type_id_is_child_index) {
    return type_id < array->n_children ? type_id : -1;
  }
  return ((const int8_t*)private_data->buffers[1].data)[type_id];
}

// Type id of a union's child_index-th child.
static inline int8_t ArrowArrayPrivateUnionTypeId(const struct ArrowArray* array,
                                                  int64_t child_index) {
  const struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  if (private_data->union_type_id_is_child_index) {
    return (int8_t)child_index;
  }
  return ((const int8_t*)private_data->buffers[1].data)[128 + child_index];
}

static inline ArrowErrorCode ArrowArrayPrivateAppendEmpty(struct ArrowArray* array,
                                                          int64_t n, uint8_t is_valid);

// ArrowArrayPrivateAppendEmpty for a child or dictionary: EINVAL for one that was
// moved in from elsewhere (its private_data is not this library's).
static inline ArrowErrorCode ArrowArrayPrivateAppendEmptyChild(struct ArrowArray* child,
                                                               int64_t n,
                                                               uint8_t is_valid) {
  if (!ArrowArrayIsInternal(child)) {
    return EINVAL;
  }
  return ArrowArrayPrivateAppendEmpty(child, n, is_valid);
}

// Unions: nulls and empties go to the first child. Unions have no validity bitmap, so
// their own null_count stays 0.
static inline ArrowErrorCode ArrowArrayPrivateAppendEmptyUnion(struct ArrowArray* array,
                                                               int64_t n,
                                                               uint8_t is_valid) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  int8_t type_id;
  int64_t i;
  if (array->n_children < 1) {
    return EINVAL;
  }
  type_id = ArrowArrayPrivateUnionTypeId(array, 0);
  if (private_data->storage_type == NANOARROW_TYPE_DENSE_UNION) {
    // One child element shared by all n slots.
    int32_t child_offset;
    NANOARROW_RETURN_NOT_OK(
        ArrowArrayPrivateAppendEmptyChild(array->children[0], 1, is_valid));
    if (array->children[0]->length - 1 > INT32_MAX) {
      return EOVERFLOW;
    }
    child_offset = (int32_t)(array->children[0]->length - 1);
    NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePushRepeated(
        &private_data->buffers[0], &child_offset, (int64_t)sizeof(int32_t), n));
  } else {
    NANOARROW_RETURN_NOT_OK(
        ArrowArrayPrivateAppendEmptyChild(array->children[0], n, is_valid));
    for (i = 1; i < array->n_children; i++) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateAppendEmptyChild(array->children[i], n, 1));
    }
  }
  NANOARROW_RETURN_NOT_OK(
      ArrowBufferAppendFill(&private_data->bitmap.buffer, (uint8_t)type_id, n));
  array->length += n;
  return NANOARROW_OK;
}

// Run-end encoded: n nulls (or empties) become one new run whose value is one null
// (or empty) element of the values child. Runs are not merged with the previous one.
// REE arrays have no validity bitmap, so their own null_count stays 0.
static inline ArrowErrorCode ArrowArrayPrivateAppendEmptyRunEnd(struct ArrowArray* array,
                                                                int64_t n,
                                                                uint8_t is_valid) {
  if (array->n_children != 2) {
    return EINVAL;
  }
  if (!ArrowArrayIsInternal(array->children[0])) {
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowArrayAppendInt(array->children[0], array->length + n));
  NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateAppendEmptyChild(array->children[1], 1, is_valid));
  array->length += n;
  return NANOARROW_OK;
}

// Appends n zero-valued elements (empty strings/lists, zeroed values); as nulls when
// is_valid is 0. Struct and fixed-size list children receive empty (non-null)
// elements: the parent's validity carries the nulls.
static inline ArrowErrorCode ArrowArrayPrivateAppendEmpty(struct ArrowArray* array,
                                                          int64_t n, uint8_t is_valid) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  int64_t i;

  if (n == 0) {
    return NANOARROW_OK;
  }
  // The bound keeps n times any element width of up to 32 bytes far from overflow
  // (past it lies memory no machine has); wider fixed-size elements are multiplied
  // with a check.
  if (n < 0) {
    return EINVAL;
  }
  if (n > (INT64_MAX >> 8) - array->length) {
    return ENOMEM;
  }

  switch (private_data->storage_type) {
    case NANOARROW_TYPE_NA:
      // Every element of a null array is null, "empty" ones included.
      array->null_count += n;
      array->length += n;
      return NANOARROW_OK;
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      return ArrowArrayPrivateAppendEmptyUnion(array, n, is_valid);
    case NANOARROW_TYPE_RUN_END_ENCODED:
      return ArrowArrayPrivateAppendEmptyRunEnd(array, n, is_valid);
    case NANOARROW_TYPE_STRUCT:
      for (i = 0; i < array->n_children; i++) {
        NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateAppendEmptyChild(array->children[i], n, 1));
      }
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST: {
      int64_t n_child;
      if (array->n_children != 1) {
        return EINVAL;
      }
      if (ArrowArrayPrivateMulOverflows(n, private_data->layout.child_size_elements,
                                        &n_child)) {
        return ENOMEM;
      }
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateAppendEmptyChild(array->children[0], n_child, 1));
      break;
    }
    case NANOARROW_TYPE_UNINITIALIZED:
      return EINVAL;
    default:
      break;
  }

  for (i = 1; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    struct ArrowBuffer* buffer = &private_data->buffers[i - 1];
    int64_t element_bits = private_data->layout.element_size_bits[i];
    int64_t next_offset;
    switch (private_data->layout.buffer_type[i]) {
      case NANOARROW_BUFFER_TYPE_DATA_OFFSET:
      case NANOARROW_BUFFER_TYPE_VIEW_OFFSET:
        // Empty elements start where the next element will: at the end of the child
        // (lists) or of the data buffer (strings). Null and empty list views point
        // nowhere (offset 0, size 0), as nanoarrow builds them.
        if (private_data->layout.buffer_type[i] == NANOARROW_BUFFER_TYPE_VIEW_OFFSET) {
          next_offset = 0;
        } else if (array->n_children > 0) {
          next_offset = array->children[0]->length;
        } else {
          next_offset = private_data->buffers[1].size_bytes;
        }
        if (element_bits == 32) {
          int32_t offset32;
          if (next_offset > INT32_MAX) {
            return EOVERFLOW;
          }
          offset32 = (int32_t)next_offset;
          NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePushRepeated(
              buffer, &offset32, (int64_t)sizeof(int32_t), n));
        } else {
          NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePushRepeated(
              buffer, &next_offset, (int64_t)sizeof(int64_t), n));
        }
        break;
      case NANOARROW_BUFFER_TYPE_SIZE:
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(buffer, 0, n * (element_bits / 8)));
        break;
      case NANOARROW_BUFFER_TYPE_DATA:
        if (i == 2) {
          // The bytes of strings/binary: empty elements add none.
          break;
        }
        if (element_bits == 1) {
          NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePushBits(array, buffer, 0, n));
        } else {
          int64_t bytes;
          if (ArrowArrayPrivateMulOverflows(n, element_bits / 8, &bytes)) {
            return ENOMEM;
          }
          NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(buffer, 0, bytes));
        }
        break;
      default:
        break;
    }
  }

  if (is_valid) {
    if (private_data->bitmap.buffer.data != NULL) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateAppendValidity(array, 1, n));
    }
  } else {
    NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateAppendValidity(array, 0, n));
    array->null_count += n;
  }
  array->length += n;
  return NANOARROW_OK;
}

// Binary/string view element: inline up to 12 bytes, otherwise the bytes go to the
// last variadic buffer (a new one when they do not fit in its block).
static inline ArrowErrorCode ArrowArrayPrivateAppendView(struct ArrowArray* array,
                                                         const void* data,
                                                         int64_t size_bytes) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  union ArrowBinaryView view;
  if (size_bytes > INT32_MAX) {
    return EOVERFLOW;
  }
  memset(&view, 0, sizeof(view));
  view.inlined.size = (int32_t)size_bytes;
  if (size_bytes <= NANOARROW_BINARY_VIEW_INLINE_SIZE) {
    if (size_bytes > 0) {
      memcpy(view.inlined.data, data, (size_t)size_bytes);
    }
  } else {
    struct ArrowBuffer* block;
    int32_t block_index = private_data->n_variadic_buffers - 1;
    if (block_index < 0 ||
        size_bytes > NANOARROW_BINARY_VIEW_BLOCK_SIZE -
                         private_data->variadic_buffers[block_index].size_bytes) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayAddVariadicBuffers(array, 1));
      block_index = private_data->n_variadic_buffers - 1;
      NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(
          &private_data->variadic_buffers[block_index],
          size_bytes > NANOARROW_BINARY_VIEW_BLOCK_SIZE ? size_bytes
                                                        : NANOARROW_BINARY_VIEW_BLOCK_SIZE));
    }
    block = &private_data->variadic_buffers[block_index];
    memcpy(view.ref.prefix, data, NANOARROW_BINARY_VIEW_PREFIX_SIZE);
    view.ref.buffer_index = block_index;
    view.ref.offset = (int32_t)block->size_bytes;
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(block, data, size_bytes));
  }
  return ArrowArrayPrivatePush(&private_data->buffers[0], &view, (int64_t)sizeof(view));
}

// Stores value into a floating point array; EINVAL for other storage types.
static inline ArrowErrorCode ArrowArrayPrivateStoreDouble(
    struct ArrowArrayPrivateData* private_data, double value) {
  struct ArrowBuffer* data = &private_data->buffers[0];
  const enum ArrowType storage_type = private_data->storage_type;
  // A chain of ifs, not a switch: clang makes three consecutive cases a jump through
  // a table on every element.
  if (NANOARROW_PREDICT_TRUE(storage_type == NANOARROW_TYPE_DOUBLE)) {
    return ArrowArrayPrivatePush(data, &value, (int64_t)sizeof(double));
  }
  if (storage_type == NANOARROW_TYPE_FLOAT) {
    float value_float = (float)value;
    return ArrowArrayPrivatePush(data, &value_float, (int64_t)sizeof(float));
  }
  if (storage_type == NANOARROW_TYPE_HALF_FLOAT) {
    uint16_t value_half = ArrowFloatToHalfFloat((float)value);
    return ArrowArrayPrivatePush(data, &value_half, (int64_t)sizeof(uint16_t));
  }
  return EINVAL;
}

// ---- Public API ----

static inline struct ArrowBitmap* ArrowArrayValidityBitmap(struct ArrowArray* array) {
  return &ArrowArrayPrivateGetData(array)->bitmap;
}

// Buffer i as exported in array->buffers. Binary and string views (and an array of
// storage type NANOARROW_TYPE_UNINITIALIZED given variadic buffers): 0 validity,
// 1 views, 2 .. n + 1 the n variadic data buffers, n + 2 the variadic sizes. NULL for
// an index no buffer has (for other types, indices 0 .. 2 always have one).
static inline struct ArrowBuffer* ArrowArrayBuffer(struct ArrowArray* array, int64_t i) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  if (i == 0) {
    return &private_data->bitmap.buffer;
  }
  if (private_data->storage_type == NANOARROW_TYPE_BINARY_VIEW ||
      private_data->storage_type == NANOARROW_TYPE_STRING_VIEW ||
      (private_data->storage_type == NANOARROW_TYPE_UNINITIALIZED &&
       private_data->n_variadic_buffers > 0)) {
    int64_t n_variadic = private_data->n_variadic_buffers;
    if (i == 1) {
      return &private_data->buffers[0];
    }
    if (i >= 2 && i < 2 + n_variadic) {
      return &private_data->variadic_buffers[i - 2];
    }
    return i == 2 + n_variadic ? &private_data->buffers[1] : NULL;
  }
  if (i < 0 || i >= NANOARROW_MAX_FIXED_BUFFERS) {
    return NULL;
  }
  return &private_data->buffers[i - 1];
}

// Parses the type ids of a union format string (the part after "+ud:" or "+us:", as in
// ArrowSchemaView's union_type_ids): comma-separated decimal integers in [0, 127].
// Returns how many there are and, when out is not NULL, writes them to out (which must
// hold 128). Returns 0 for "" and -1 for NULL, a malformed list, an id outside
// [0, 127], or more than 128 ids (so out is never written past 128 entries).
// nanoarrow declares this underscore name in its header and programs written against it
// (its R package, for one) call it, so it is kept for source compatibility.
static inline int32_t _ArrowParseUnionTypeIds(const char* type_ids, int8_t* out) {
  const char* p = type_ids;
  int32_t n = 0;
  if (p == NULL) {
    return -1;
  }
  if (*p == '\0') {
    return 0;
  }
  for (;;) {
    int32_t value = 0;
    const char* digits_start = p;
    while (*p >= '0' && *p <= '9') {
      value = value * 10 + (*p - '0');
      if (value > 127) {
        return -1;
      }
      p++;
    }
    if (p == digits_start || n == 128) {
      return -1;
    }
    if (out != NULL) {
      out[n] = (int8_t)value;
    }
    n++;
    if (*p == '\0') {
      return n;
    }
    if (*p != ',') {
      return -1;
    }
    p++;
  }
}

// Non-zero when the union type ids type_ids (as for _ArrowParseUnionTypeIds) are
// exactly 0, 1, ..., n_children - 1: the case where a type id is its child's index.
// Another underscore name of nanoarrow's header, kept for the programs that call it.
static inline int8_t _ArrowUnionTypeIdsWillEqualChildIndices(const char* type_ids,
                                                             int64_t n_children) {
  int8_t ids[128];
  const int32_t n = _ArrowParseUnionTypeIds(type_ids, ids);
  if (n < 0 || (int64_t)n != n_children) {
    return 0;
  }
  for (int32_t i = 0; i < n; i++) {
    if (ids[i] != i) {
      return 0;
    }
  }
  return 1;
}

// Number of variadic data buffers of a binary or string view array being built
// (0 for other types).
static inline int32_t ArrowArrayVariadicBufferCount(struct ArrowArray* array) {
  return ArrowArrayPrivateGetData(array)->n_variadic_buffers;
}

static inline ArrowErrorCode ArrowArrayStartAppending(struct ArrowArray* array) {
  return ArrowPrivateArrayStartAppending(array);
}

static inline ArrowErrorCode ArrowArrayShrinkToFit(struct ArrowArray* array) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowBufferResize(&private_data->bitmap.buffer,
                                            private_data->bitmap.buffer.size_bytes, 1));
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS - 1; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowBufferResize(&private_data->buffers[i],
                                              private_data->buffers[i].size_bytes, 1));
  }
  for (i = 0; i < private_data->n_variadic_buffers; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowBufferResize(&private_data->variadic_buffers[i],
                                              private_data->variadic_buffers[i].size_bytes,
                                              1));
  }
  // Children and a dictionary moved in from elsewhere are left as they are.
  for (i = 0; i < array->n_children; i++) {
    if (ArrowArrayIsInternal(array->children[i])) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayShrinkToFit(array->children[i]));
    }
  }
  if (array->dictionary != NULL && ArrowArrayIsInternal(array->dictionary)) {
    NANOARROW_RETURN_NOT_OK(ArrowArrayShrinkToFit(array->dictionary));
  }
  return NANOARROW_OK;
}

// Every case of ArrowArrayAppendNull() its inline part does not handle.
NANOARROW_ARRAY_SLOW_PATH ArrowErrorCode ArrowArrayPrivateAppendNulls(
    struct ArrowArray* array, int64_t n) {
  return ArrowArrayPrivateAppendEmpty(array, n, 0);
}

static inline ArrowErrorCode ArrowArrayAppendNull(struct ArrowArray* array, int64_t n) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  struct ArrowBuffer* data = &private_data->buffers[0];
  int64_t width_bits = private_data->layout.element_size_bits[1];

  // Fast path: one null of a fixed-width type (up to 16 bytes: primitives, decimals up
  // to 128 bits, intervals, fixed-size binary, binary views) once the bitmap exists.
  // Zeroing 16 bytes past the end (within capacity) is a constant-size store.
  // PREDICT_TRUE and the out-of-line fallback: without them gcc inlined the whole
  // general path into the caller's loop and laid this one out as the cold branch
  // (two taken jumps and 3 more instructions per null; the time stayed the same).
  if (NANOARROW_PREDICT_TRUE(
          n == 1 && private_data->bitmap.buffer.data != NULL &&
          private_data->layout.buffer_type[1] == NANOARROW_BUFFER_TYPE_DATA &&
          private_data->layout.buffer_type[2] == NANOARROW_BUFFER_TYPE_NONE &&
          width_bits >= 8 && width_bits <= 128 &&
          data->capacity_bytes - data->size_bytes >= 16 &&
          ArrowArrayPrivateTryPushValidityBit(array, &private_data->bitmap, 0))) {
    // null_count and length are updated on either side of the byte stores: side by
    // side, gcc merged them into one 16-byte load and store, and the next append's
    // 8-byte store to length then stalled that 16-byte load (store forwarding fails
    // when a load spans two stores).
    array->null_count++;
    memset(data->data + data->size_bytes, 0, 16);
    data->size_bytes += width_bits >> 3;
    array->length++;
    return NANOARROW_OK;
  }
  return ArrowArrayPrivateAppendNulls(array, n);
}

static inline ArrowErrorCode ArrowArrayAppendEmpty(struct ArrowArray* array, int64_t n) {
  return ArrowArrayPrivateAppendEmpty(array, n, 1);
}

// Stores one element of a fixed-width type and completes the append.
#define NANOARROW_ARRAY_APPEND_VALUE(CTYPE, VALUE)                                       \
  do {                                                                                   \
    CTYPE stored = (CTYPE)(VALUE);                                                       \
    NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(data, &stored, (int64_t)sizeof(CTYPE))); \
    return ArrowArrayPrivateFinishValid(array, private_data);                            \
  } while (0)

// Every case of ArrowArrayAppendInt(), including those its inline part handles when
// the buffer is full or the array has a validity bitmap, and every error. Integer
// storage is range-checked against the array's [append_int_min, append_int_max]
// (EINVAL when the value does not fit, as documented); unsigned stores keep the low
// bits, which are the same for signed values.
NANOARROW_ARRAY_SLOW_PATH ArrowErrorCode ArrowArrayPrivateAppendIntAny(
    struct ArrowArray* array, int64_t value) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  struct ArrowBuffer* data = &private_data->buffers[0];
  const int64_t width = private_data->append_int_width;

  if (width != 0) {
    if (value < private_data->append_int_min || value > private_data->append_int_max) {
      return EINVAL;
    }
    if (width == 1) NANOARROW_ARRAY_APPEND_VALUE(uint8_t, value);
    if (width == 2) NANOARROW_ARRAY_APPEND_VALUE(uint16_t, value);
    if (width == 4) NANOARROW_ARRAY_APPEND_VALUE(uint32_t, value);
    NANOARROW_ARRAY_APPEND_VALUE(uint64_t, value);
  }

  switch (private_data->storage_type) {
    case NANOARROW_TYPE_DOUBLE:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_HALF_FLOAT:
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateStoreDouble(private_data, (double)value));
      return ArrowArrayPrivateFinishValid(array, private_data);
    case NANOARROW_TYPE_BOOL:
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePushBits(array, data, value != 0, 1));
      return ArrowArrayPrivateFinishValid(array, private_data);
    default:
      return EINVAL;
  }
}

// The inline append stores 8 little-endian bytes: on big-endian machines every append
// takes the out-of-line path.
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NANOARROW_ARRAY_APPEND_INT_INLINE 0
#else
#define NANOARROW_ARRAY_APPEND_INT_INLINE 1
#endif

// Appends one value of an integer storage type when it fits, the buffer has room for
// 8 more bytes and any validity bitmap has room for its bit: a short straight line
// without calls and without a test of the type, whatever the compiler makes of the
// caller's loop (a switch on the type became a jump through a table per element in
// clang). The value is stored as 8 little-endian bytes of which the element keeps the
// first append_int_width; the rest lies beyond size_bytes and is overwritten by the
// next append. Everything else, errors included, goes to the single out-of-line
// fallback.
static inline ArrowErrorCode ArrowArrayAppendInt(struct ArrowArray* array, int64_t value) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  struct ArrowBuffer* data = &private_data->buffers[0];
  const int64_t size = data->size_bytes;
  if (NANOARROW_ARRAY_APPEND_INT_INLINE &&
      NANOARROW_PREDICT_TRUE(value >= private_data->append_int_min &&
                             value <= private_data->append_int_max &&
                             size + 8 <= data->capacity_bytes)) {
    // Arrays with a bitmap stay inline too (a call per element made appending to a
    // nullable array several times slower); the test costs the others nothing.
    if (NANOARROW_PREDICT_FALSE(private_data->bitmap.buffer.data != NULL) &&
        !ArrowArrayPrivateTryPushValidityBit(array, &private_data->bitmap, 1)) {
      return ArrowArrayPrivateAppendIntAny(array, value);
    }
    NANOARROW_ARRAY_STORE(int64_t, ArrowArrayPrivateUnalignedInt64, data->data + size, value);
    // length before size_bytes: the same instructions in this order measured 1.5
    // instead of 1.8 ms for 1M int32/int64 appends built with clang (gcc unchanged).
    array->length++;
    data->size_bytes = size + private_data->append_int_width;
    return NANOARROW_OK;
  }
  return ArrowArrayPrivateAppendIntAny(array, value);
}

#undef NANOARROW_ARRAY_APPEND_VALUE
#undef NANOARROW_ARRAY_APPEND_INT_INLINE

static inline ArrowErrorCode ArrowArrayAppendUInt(struct ArrowArray* array, uint64_t value) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  struct ArrowBuffer* data = &private_data->buffers[0];

  switch (private_data->storage_type) {
    case NANOARROW_TYPE_UINT64:
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(data, &value, 8));
      break;
    case NANOARROW_TYPE_UINT32: {
      uint32_t value_u32 = (uint32_t)value;
      if (value > UINT32_MAX) {
        return EINVAL;
      }
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(data, &value_u32, 4));
      break;
    }
    case NANOARROW_TYPE_UINT16: {
      uint16_t value_u16 = (uint16_t)value;
      if (value > UINT16_MAX) {
        return EINVAL;
      }
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(data, &value_u16, 2));
      break;
    }
    case NANOARROW_TYPE_UINT8: {
      uint8_t value_u8 = (uint8_t)value;
      if (value > UINT8_MAX) {
        return EINVAL;
      }
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(data, &value_u8, 1));
      break;
    }
    case NANOARROW_TYPE_DOUBLE:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_HALF_FLOAT:
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateStoreDouble(private_data, (double)value));
      break;
    case NANOARROW_TYPE_BOOL:
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePushBits(array, data, value != 0, 1));
      break;
    default:
      // Signed targets: anything above INT64_MAX cannot fit, the rest is AppendInt.
      if (value > (uint64_t)INT64_MAX) {
        return EINVAL;
      }
      return ArrowArrayAppendInt(array, (int64_t)value);
  }
  return ArrowArrayPrivateFinishValid(array, private_data);
}

static inline ArrowErrorCode ArrowArrayAppendDouble(struct ArrowArray* array, double value) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateStoreDouble(private_data, value));
  return ArrowArrayPrivateFinishValid(array, private_data);
}

// Always inlined: clang's budget left it a call per element (ArrayAppendString 5.0
// ms, 3.7 ms inlined).
NANOARROW_ARRAY_FAST_PATH ArrowErrorCode ArrowArrayAppendBytes(struct ArrowArray* array,
                                                              struct ArrowBufferView value) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  struct ArrowBuffer* offsets = &private_data->buffers[0];
  struct ArrowBuffer* data = &private_data->buffers[1];
  int64_t end;

  if (value.size_bytes < 0 || (value.size_bytes > 0 && value.data.data == NULL)) {
    return EINVAL;
  }

  // The common types first, outside the switch: clang turns a switch into a jump
  // through a table on every element.
  if (NANOARROW_PREDICT_TRUE(private_data->storage_type == NANOARROW_TYPE_STRING ||
                             private_data->storage_type == NANOARROW_TYPE_BINARY)) {
    int32_t end32;
    end = data->size_bytes + value.size_bytes;
    if (NANOARROW_PREDICT_FALSE(end > INT32_MAX)) {
      return EOVERFLOW;
    }
    end32 = (int32_t)end;
    // Both buffers are grown before either is written, so that a failure leaves
    // them unchanged.
    if (NANOARROW_PREDICT_FALSE(offsets->capacity_bytes - offsets->size_bytes < 4 ||
                                data->capacity_bytes < end)) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateGrow(offsets, 4));
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateGrow(data, value.size_bytes));
    }
    {
      // Every field this append reads is loaded before the first byte is stored: a
      // byte store may alias any of them, so reading one after it made the compiler
      // load it again (the offsets' pointer and size on every element).
      // (data->data is NULL until the first byte, hence no pointer to its end here.)
      uint8_t* const offsets_end = offsets->data + offsets->size_bytes;
      const int64_t offsets_size = offsets->size_bytes;
      const int has_bitmap = private_data->bitmap.buffer.data != NULL;
      NANOARROW_ARRAY_PREFETCH_WRITE(data->data, data->size_bytes + 2048);
      NANOARROW_ARRAY_PREFETCH_WRITE(offsets_end, 2048);
      if (value.size_bytes > 0) {
        ArrowArrayPrivateCopyTo(data->data + data->size_bytes,
                                (const uint8_t*)value.data.data, value.size_bytes);
      }
      NANOARROW_ARRAY_STORE(int32_t, ArrowArrayPrivateUnalignedInt32, offsets_end, end32);
      data->size_bytes = end;
      offsets->size_bytes = offsets_size + (int64_t)sizeof(int32_t);
      if (NANOARROW_PREDICT_FALSE(has_bitmap)) {
        NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePushValidBit(array, &private_data->bitmap));
      }
      array->length++;
      return NANOARROW_OK;
    }
  }

  switch (private_data->storage_type) {
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
      if (value.size_bytes > INT64_MAX - data->size_bytes) {
        return EOVERFLOW;
      }
      end = data->size_bytes + value.size_bytes;
      if (NANOARROW_PREDICT_FALSE(offsets->capacity_bytes - offsets->size_bytes < 8 ||
                                  data->capacity_bytes < end)) {
        NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateGrow(offsets, 8));
        NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateGrow(data, value.size_bytes));
      }
      ArrowArrayPrivateCopyBytes(data, (const uint8_t*)value.data.data, value.size_bytes);
      data->size_bytes = end;
      memcpy(offsets->data + offsets->size_bytes, &end, sizeof(int64_t));
      offsets->size_bytes += (int64_t)sizeof(int64_t);
      break;
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_STRING_VIEW:
      NANOARROW_RETURN_NOT_OK(
          ArrowArrayPrivateAppendView(array, value.data.data, value.size_bytes));
      break;
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      if (value.size_bytes * 8 != private_data->layout.element_size_bits[1]) {
        return EINVAL;
      }
      // offsets is the data buffer of a fixed-size binary array.
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(offsets, value.data.data, value.size_bytes));
      break;
    default:
      return EINVAL;
  }
  return ArrowArrayPrivateFinishValid(array, private_data);
}

NANOARROW_ARRAY_FAST_PATH ArrowErrorCode ArrowArrayAppendString(struct ArrowArray* array,
                                                               struct ArrowStringView value) {
  struct ArrowBufferView bytes;
  bytes.data.data = value.data;
  bytes.size_bytes = value.size_bytes;
  return ArrowArrayAppendBytes(array, bytes);
}

static inline ArrowErrorCode ArrowArrayAppendInterval(struct ArrowArray* array,
                                                      const struct ArrowInterval* value) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  struct ArrowBuffer* data = &private_data->buffers[0];
  uint8_t bytes[16];

  if (value->type != private_data->storage_type) {
    return EINVAL;
  }
  switch (private_data->storage_type) {
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(data, &value->months, 4));
      break;
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
      memcpy(bytes, &value->days, 4);
      memcpy(bytes + 4, &value->ms, 4);
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(data, bytes, 8));
      break;
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
      memcpy(bytes, &value->months, 4);
      memcpy(bytes + 4, &value->days, 4);
      memcpy(bytes + 8, &value->ns, 8);
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(data, bytes, 16));
      break;
    default:
      return EINVAL;
  }
  return ArrowArrayPrivateFinishValid(array, private_data);
}

static inline ArrowErrorCode ArrowArrayAppendDecimal(struct ArrowArray* array,
                                                     const struct ArrowDecimal* value) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  uint8_t bytes[32];
  int expected_words;
  int64_t size_bytes;

  switch (private_data->storage_type) {
    case NANOARROW_TYPE_DECIMAL32:
      expected_words = 0;
      size_bytes = 4;
      break;
    case NANOARROW_TYPE_DECIMAL64:
      expected_words = 1;
      size_bytes = 8;
      break;
    case NANOARROW_TYPE_DECIMAL128:
      expected_words = 2;
      size_bytes = 16;
      break;
    case NANOARROW_TYPE_DECIMAL256:
      expected_words = 4;
      size_bytes = 32;
      break;
    default:
      return EINVAL;
  }
  // A decimal of another bit width would be silently truncated or padded.
  if (value->n_words != expected_words) {
    return EINVAL;
  }
  ArrowDecimalGetBytes(value, bytes);
  NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(&private_data->buffers[0], bytes, size_bytes));
  return ArrowArrayPrivateFinishValid(array, private_data);
}

static inline ArrowErrorCode ArrowArrayFinishElement(struct ArrowArray* array) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  struct ArrowBuffer* offsets = &private_data->buffers[0];
  int64_t child_length;
  int64_t expected_child_length;

  if (private_data->storage_type != NANOARROW_TYPE_STRUCT && array->n_children != 1) {
    // Every list-like type has exactly one child; other types are rejected below.
    return EINVAL;
  }
  switch (private_data->storage_type) {
    case NANOARROW_TYPE_STRUCT: {
      // The children were appended to directly: each must now hold one more
      // element than the struct.
      int64_t k;
      for (k = 0; k < array->n_children; k++) {
        if (array->children[k]->length != array->length + 1) {
          return EINVAL;
        }
      }
      break;
    }
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_MAP: {
      int32_t end32;
      child_length = array->children[0]->length;
      if (child_length > INT32_MAX) {
        return EOVERFLOW;
      }
      end32 = (int32_t)child_length;
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(offsets, &end32, 4));
      break;
    }
    case NANOARROW_TYPE_LARGE_LIST:
      child_length = array->children[0]->length;
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(offsets, &child_length, 8));
      break;
    case NANOARROW_TYPE_LIST_VIEW: {
      // This element holds the child elements appended since the previous one.
      struct ArrowBuffer* sizes = &private_data->buffers[1];
      int32_t start32;
      int32_t size32;
      child_length = array->children[0]->length;
      if (child_length > INT32_MAX || private_data->list_view_offset > child_length) {
        return child_length > INT32_MAX ? EOVERFLOW : EINVAL;
      }
      start32 = (int32_t)private_data->list_view_offset;
      size32 = (int32_t)(child_length - start32);
      NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(sizes, 4));
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(offsets, &start32, 4));
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(sizes, &size32, 4));
      private_data->list_view_offset = child_length;
      break;
    }
    case NANOARROW_TYPE_LARGE_LIST_VIEW: {
      struct ArrowBuffer* sizes = &private_data->buffers[1];
      int64_t start;
      int64_t size;
      child_length = array->children[0]->length;
      if (private_data->list_view_offset > child_length) {
        return EINVAL;
      }
      start = private_data->list_view_offset;
      size = child_length - start;
      NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(sizes, 8));
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(offsets, &start, 8));
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(sizes, &size, 8));
      private_data->list_view_offset = child_length;
      break;
    }
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      child_length = array->children[0]->length;
      if (ArrowArrayPrivateMulOverflows(array->length + 1,
                                        private_data->layout.child_size_elements,
                                        &expected_child_length) ||
          child_length != expected_child_length) {
        return EINVAL;
      }
      break;
    default:
      return EINVAL;
  }
  return ArrowArrayPrivateFinishValid(array, private_data);
}

static inline ArrowErrorCode ArrowArrayFinishUnionElement(struct ArrowArray* array,
                                                          int8_t type_id) {
  struct ArrowArrayPrivateData* private_data = ArrowArrayPrivateGetData(array);
  int child_index = ArrowArrayPrivateUnionChildIndex(array, type_id);
  int64_t i;

  if (child_index < 0 || child_index >= array->n_children) {
    return EINVAL;
  }
  switch (private_data->storage_type) {
    case NANOARROW_TYPE_DENSE_UNION: {
      // The element is the child's last one.
      int64_t child_offset = array->children[child_index]->length - 1;
      int32_t child_offset32;
      if (child_offset < 0) {
        return EINVAL;
      }
      if (child_offset > INT32_MAX) {
        return EOVERFLOW;
      }
      child_offset32 = (int32_t)child_offset;
      NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(&private_data->bitmap.buffer, 1));
      NANOARROW_RETURN_NOT_OK(
          ArrowArrayPrivatePush(&private_data->buffers[0], &child_offset32, 4));
      break;
    }
    case NANOARROW_TYPE_SPARSE_UNION:
      // Every other child gets an empty element at this position.
      for (i = 0; i < array->n_children; i++) {
        if (i != child_index) {
          NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateAppendEmptyChild(array->children[i], 1, 1));
        }
      }
      break;
    default:
      return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowArrayPrivatePush(&private_data->bitmap.buffer, &type_id, 1));
  array->length++;
  return NANOARROW_OK;
}

#ifdef __cplusplus
}
#endif

#endif  // NANOARROW_ARRAY_INLINE_H_INCLUDED
