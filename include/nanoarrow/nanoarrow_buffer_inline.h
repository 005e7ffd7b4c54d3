// nanoarrow in C: inline definitions for errors, C interface helpers, bits,
// buffers, bitmaps, decimals and intervals. Included by nanoarrow.h; these are
// hot paths, so they live here as static inline functions.

#ifndef NANOARROW_BUFFER_INLINE_H_INCLUDED
#define NANOARROW_BUFFER_INLINE_H_INCLUDED

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow_types.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- Errors ----

static inline void ArrowErrorInit(struct ArrowError* error) {
  if (error != NULL) {
    error->message[0] = '\0';
  }
}

static inline void ArrowErrorSetString(struct ArrowError* error, const char* src) {
  size_t size;
  if (error == NULL) {
    return;
  }
  size = strlen(src);
  if (size >= sizeof(error->message)) {
    size = sizeof(error->message) - 1;
  }
  memcpy(error->message, src, size);
  error->message[size] = '\0';
}

static inline const char* ArrowErrorMessage(struct ArrowError* error) {
  return error == NULL ? "" : error->message;
}

// ---- Names ----

// The names live in the library once (a switch per translation unit adds up).
static inline const char* ArrowTypeString(enum ArrowType type) {
  return ArrowPrivateTypeString(type);
}

static inline const char* ArrowTimeUnitString(enum ArrowTimeUnit time_unit) {
  switch (time_unit) {
    case NANOARROW_TIME_UNIT_SECOND: return "s";
    case NANOARROW_TIME_UNIT_MILLI: return "ms";
    case NANOARROW_TIME_UNIT_MICRO: return "us";
    case NANOARROW_TIME_UNIT_NANO: return "ns";
    default: return NULL;
  }
}

// ---- C Data / Stream Interface helpers ----

static inline void ArrowSchemaMove(struct ArrowSchema* src, struct ArrowSchema* dst) {
  memcpy(dst, src, sizeof(struct ArrowSchema));
  src->release = NULL;
}

static inline void ArrowSchemaRelease(struct ArrowSchema* schema) {
  schema->release(schema);
}

static inline void ArrowArrayMove(struct ArrowArray* src, struct ArrowArray* dst) {
  memcpy(dst, src, sizeof(struct ArrowArray));
  src->release = NULL;
}

static inline void ArrowArrayRelease(struct ArrowArray* array) { array->release(array); }

static inline void ArrowArrayStreamMove(struct ArrowArrayStream* src,
                                        struct ArrowArrayStream* dst) {
  memcpy(dst, src, sizeof(struct ArrowArrayStream));
  src->release = NULL;
}

static inline const char* ArrowArrayStreamGetLastError(
    struct ArrowArrayStream* array_stream) {
  return array_stream->get_last_error(array_stream);
}

// Copies the producer's last error (or a generic one) into error.
static inline void ArrowArrayStreamSetErrorFromProducer(struct ArrowArrayStream* stream,
                                                        int code,
                                                        struct ArrowError* error) {
  const char* message;
  if (error == NULL) {
    return;
  }
  message = stream->get_last_error(stream);
  if (message == NULL) {
    message = "";
  }
  if (message[0] == '\0') {
    ArrowErrorSet(error, "ArrowArrayStream callback failed with errno %d", code);
  } else {
    ArrowErrorSet(error, "%s", message);
  }
}

static inline ArrowErrorCode ArrowArrayStreamGetSchema(struct ArrowArrayStream* array_stream,
                                                       struct ArrowSchema* out,
                                                       struct ArrowError* error) {
  int code = array_stream->get_schema(array_stream, out);
  if (code != NANOARROW_OK) {
    ArrowArrayStreamSetErrorFromProducer(array_stream, code, error);
  }
  return code;
}

static inline ArrowErrorCode ArrowArrayStreamGetNext(struct ArrowArrayStream* array_stream,
                                                     struct ArrowArray* out,
                                                     struct ArrowError* error) {
  int code = array_stream->get_next(array_stream, out);
  if (code != NANOARROW_OK) {
    ArrowArrayStreamSetErrorFromProducer(array_stream, code, error);
  }
  return code;
}

static inline void ArrowArrayStreamRelease(struct ArrowArrayStream* array_stream) {
  array_stream->release(array_stream);
}

// ---- Chunks ----

static inline int64_t ArrowResolveChunk64(int64_t index, const int64_t* offsets,
                                          int64_t lo, int64_t hi) {
  // Invariant: offsets[lo] <= index < offsets[hi].
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= index) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

static inline int64_t ArrowResolveChunk32(int32_t index, const int32_t* offsets,
                                          int32_t lo, int32_t hi) {
  while (hi - lo > 1) {
    int32_t mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= index) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// ---- Half floats (IEEE 754 binary16) ----

static inline float ArrowHalfFloatToFloat(uint16_t value) {
  uint32_t sign = (uint32_t)(value & 0x8000u) << 16;
  uint32_t exponent = (value >> 10) & 0x1Fu;
  uint32_t mantissa = value & 0x3FFu;
  uint32_t bits;
  float out;

  if (exponent == 0x1Fu) {
    // Infinity or NaN: keep the payload.
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal half: normalize into a binary32 normal.
    uint32_t e = 113u;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      e--;
    }
    mantissa &= 0x3FFu;
    bits = sign | (e << 23) | (mantissa << 13);
  }
  memcpy(&out, &bits, sizeof(out));
  return out;
}

static inline uint16_t ArrowFloatToHalfFloat(float value) {
  uint32_t bits;
  uint32_t sign;
  uint32_t exponent;
  uint32_t mantissa;
  memcpy(&bits, &value, sizeof(bits));
  sign = (bits >> 16) & 0x8000u;
  exponent = (bits >> 23) & 0xFFu;
  mantissa = bits & 0x7FFFFFu;

  if (exponent == 0xFFu) {
    // Infinity stays infinity; NaN stays a (quiet) NaN.
    return (uint16_t)(sign | 0x7C00u | (mantissa ? (0x200u | (mantissa >> 13)) : 0u));
  }

  {
    int32_t e = (int32_t)exponent - 127 + 15;
    if (e >= 0x1F) {
      return (uint16_t)(sign | 0x7C00u);  // Overflow to infinity.
    }
    if (e <= 0) {
      // Subnormal half or zero: shift the implicit bit in, round to nearest even.
      uint32_t shift;
      uint32_t m;
      uint32_t half;
      uint32_t rest;
      if (e < -10) {
        return (uint16_t)sign;
      }
      m = mantissa | 0x800000u;
      shift = (uint32_t)(14 - e);
      half = m >> shift;
      rest = m & ((1u << shift) - 1u);
      if (rest > (1u << (shift - 1)) || (rest == (1u << (shift - 1)) && (half & 1u))) {
        half++;
      }
      return (uint16_t)(sign | half);
    }
    {
      uint32_t half = sign | ((uint32_t)e << 10) | (mantissa >> 13);
      uint32_t rest = mantissa & 0x1FFFu;
      // Round to nearest even; a carry may roll into the exponent, which is right.
      if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) {
        half++;
      }
      return (uint16_t)half;
    }
  }
}

// ---- Decimals ----

static inline int ArrowDecimalWordCount(const struct ArrowDecimal* decimal) {
  return decimal->n_words == 0 ? 1 : decimal->n_words;
}

static inline int ArrowDecimalHostIsLittleEndian(void) {
  return _ArrowIsLittleEndian() != 0;
}

static inline void ArrowDecimalInit(struct ArrowDecimal* decimal, int32_t bitwidth,
                                    int32_t precision, int32_t scale) {
  memset(decimal->words, 0, sizeof(decimal->words));
  decimal->precision = precision;
  decimal->scale = scale;
  decimal->n_words = (int)(bitwidth / 64);
  if (decimal->n_words > 4) {
    decimal->n_words = 4;
  }
  if (ArrowDecimalHostIsLittleEndian() || decimal->n_words <= 1) {
    decimal->low_word_index = 0;
    decimal->high_word_index = ArrowDecimalWordCount(decimal) - 1;
  } else {
    decimal->low_word_index = decimal->n_words - 1;
    decimal->high_word_index = 0;
  }
}

static inline int64_t ArrowDecimalGetIntUnsafe(const struct ArrowDecimal* decimal) {
  return (int64_t)decimal->words[decimal->low_word_index];
}

static inline void ArrowDecimalGetBytes(const struct ArrowDecimal* decimal, uint8_t* out) {
  if (decimal->n_words == 0) {
    int32_t value = (int32_t)(int64_t)decimal->words[0];
    memcpy(out, &value, sizeof(value));
  } else {
    memcpy(out, decimal->words, (size_t)decimal->n_words * sizeof(uint64_t));
  }
}

static inline int64_t ArrowDecimalSign(const struct ArrowDecimal* decimal) {
  return (decimal->words[decimal->high_word_index] >> 63) ? -1 : 1;
}

static inline void ArrowDecimalSetInt(struct ArrowDecimal* decimal, int64_t value) {
  int n = ArrowDecimalWordCount(decimal);
  uint64_t fill = value < 0 ? UINT64_MAX : 0;
  int i;
  for (i = 0; i < n; i++) {
    decimal->words[i] = fill;
  }
  decimal->words[decimal->low_word_index] = (uint64_t)value;
}

static inline void ArrowDecimalNegate(struct ArrowDecimal* decimal) {
  int n = ArrowDecimalWordCount(decimal);
  int step = decimal->low_word_index <= decimal->high_word_index ? 1 : -1;
  int idx = decimal->low_word_index;
  uint64_t carry = 1;
  int i;
  // Two's complement across words: invert, then add one from the low word up.
  for (i = 0; i < n; i++, idx += step) {
    uint64_t inverted = ~decimal->words[idx];
    decimal->words[idx] = inverted + carry;
    carry = (carry && decimal->words[idx] == 0) ? 1 : 0;
  }
}

static inline void ArrowDecimalSetBytes(struct ArrowDecimal* decimal, const uint8_t* value) {
  if (decimal->n_words == 0) {
    int32_t v;
    memcpy(&v, value, sizeof(v));
    decimal->words[0] = (uint64_t)(int64_t)v;
  } else {
    memcpy(decimal->words, value, (size_t)decimal->n_words * sizeof(uint64_t));
  }
}

// ---- Intervals ----

static inline void ArrowIntervalInit(struct ArrowInterval* interval, enum ArrowType type) {
  memset(interval, 0, sizeof(struct ArrowInterval));
  interval->type = type;
}

// ---- Bits ----

static inline int64_t ArrowBytesForBits(int64_t bits) { return (bits >> 3) + ((bits & 7) != 0); }

// Names nanoarrow's own headers use; kept for source compatibility.
static inline int64_t _ArrowBytesForBits(int64_t bits) { return ArrowBytesForBits(bits); }
static inline int64_t _ArrowRoundUpToMultipleOf8(int64_t value) { return (value + 7) & ~(int64_t)7; }

static inline int8_t ArrowBitGet(const uint8_t* bits, int64_t i) {
  return (int8_t)((bits[i >> 3] >> (i & 7)) & 1);
}

static inline void ArrowBitSet(uint8_t* bits, int64_t i) {
  bits[i >> 3] = (uint8_t)(bits[i >> 3] | (1u << (i & 7)));
}

static inline void ArrowBitClear(uint8_t* bits, int64_t i) {
  bits[i >> 3] = (uint8_t)(bits[i >> 3] & ~(1u << (i & 7)));
}

static inline void ArrowBitSetTo(uint8_t* bits, int64_t i, uint8_t value) {
  uint8_t mask = (uint8_t)(1u << (i & 7));
  bits[i >> 3] = (uint8_t)((bits[i >> 3] & ~mask) | ((value != 0) ? mask : 0));
}

static inline void ArrowBitsSetTo(uint8_t* bits, int64_t start_offset, int64_t length,
                                  uint8_t bits_are_set) {
  int64_t end = start_offset + length;
  int64_t first_byte;
  int64_t last_byte;
  uint8_t fill = bits_are_set ? 0xFF : 0x00;
  uint8_t first_mask;
  uint8_t last_mask;

  if (length <= 0) {
    return;
  }
  first_byte = start_offset >> 3;
  last_byte = (end - 1) >> 3;
  // Bits of the first/last byte that lie inside [start_offset, end).
  first_mask = (uint8_t)(0xFFu << (start_offset & 7));
  last_mask = (uint8_t)(0xFFu >> (7 - ((end - 1) & 7)));

  if (first_byte == last_byte) {
    uint8_t mask = (uint8_t)(first_mask & last_mask);
    bits[first_byte] = (uint8_t)((bits[first_byte] & ~mask) | (fill & mask));
    return;
  }
  bits[first_byte] = (uint8_t)((bits[first_byte] & ~first_mask) | (fill & first_mask));
  if (last_byte - first_byte > 1) {
    memset(bits + first_byte + 1, fill, (size_t)(last_byte - first_byte - 1));
  }
  bits[last_byte] = (uint8_t)((bits[last_byte] & ~last_mask) | (fill & last_mask));
}

static inline int64_t ArrowPopcount64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return (int64_t)__builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return (int64_t)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static inline int64_t ArrowBitCountSet(const uint8_t* bits, int64_t start_offset,
                                       int64_t length) {
  int64_t i = start_offset;
  int64_t end = start_offset + length;
  int64_t count = 0;
  if (length <= 0) {
    return 0;
  }
  // Leading bits up to a byte boundary, whole 8-byte words, then the tail.
  while ((i & 7) != 0 && i < end) {
    count += ArrowBitGet(bits, i);
    i++;
  }
  while (end - i >= 64) {
    uint64_t word;
    memcpy(&word, bits + (i >> 3), sizeof(word));
    count += ArrowPopcount64(word);
    i += 64;
  }
  while (end - i >= 8) {
    count += ArrowPopcount64(bits[i >> 3]);
    i += 8;
  }
  while (i < end) {
    count += ArrowBitGet(bits, i);
    i++;
  }
  return count;
}

static inline void ArrowBitsUnpackInt8(const uint8_t* bits, int64_t start_offset,
                                       int64_t length, int8_t* out) {
  int64_t i;
  for (i = 0; i < length; i++) {
    out[i] = ArrowBitGet(bits, start_offset + i);
  }
}

static inline void ArrowBitsUnpackInt32(const uint8_t* bits, int64_t start_offset,
                                        int64_t length, int32_t* out) {
  int64_t i;
  for (i = 0; i < length; i++) {
    out[i] = ArrowBitGet(bits, start_offset + i);
  }
}

// ---- Buffers ----

// Defined in utils.c; declared here so the inline buffer code can install it.
struct ArrowBufferAllocator ArrowBufferAllocatorDefault(void);

static inline void ArrowBufferInit(struct ArrowBuffer* buffer) {
  buffer->data = NULL;
  buffer->size_bytes = 0;
  buffer->capacity_bytes = 0;
  buffer->allocator = ArrowBufferAllocatorDefault();
}

static inline ArrowErrorCode ArrowBufferSetAllocator(struct ArrowBuffer* buffer,
                                                     struct ArrowBufferAllocator allocator) {
  if (buffer->data != NULL) {
    return EINVAL;
  }
  buffer->allocator = allocator;
  return NANOARROW_OK;
}

// The allocator's free runs even when data is NULL: a custom deallocator may own
// something besides the bytes (the object an empty wrapped buffer came from).
// The buffer is then empty with the default allocator.
static inline void ArrowBufferReset(struct ArrowBuffer* buffer) {
  if (buffer->allocator.free != NULL) {
    buffer->allocator.free(&buffer->allocator, buffer->data, buffer->capacity_bytes);
  }
  ArrowBufferInit(buffer);
}

// dst takes the bytes and the allocator (and what it owns); src is left empty with
// the default allocator, so resetting both frees everything once.
static inline void ArrowBufferMove(struct ArrowBuffer* src, struct ArrowBuffer* dst) {
  memcpy(dst, src, sizeof(struct ArrowBuffer));
  ArrowBufferInit(src);
}

// Sets the capacity to exactly new_capacity_bytes (>= size_bytes).
static inline ArrowErrorCode ArrowBufferSetCapacity(struct ArrowBuffer* buffer,
                                                    int64_t new_capacity_bytes) {
  uint8_t* data = buffer->allocator.reallocate(&buffer->allocator, buffer->data,
                                               buffer->capacity_bytes, new_capacity_bytes);
  if (data == NULL && new_capacity_bytes > 0) {
    return ENOMEM;
  }
  buffer->data = data;
  buffer->capacity_bytes = new_capacity_bytes;
  return NANOARROW_OK;
}

static inline ArrowErrorCode ArrowBufferReserve(struct ArrowBuffer* buffer,
                                                int64_t additional_size_bytes) {
  int64_t needed;
  int64_t grown;
  // Nothing to reserve for a negative size (as in nanoarrow).
  if (additional_size_bytes <= 0) {
    return NANOARROW_OK;
  }
  // A size past INT64_MAX is memory no machine has.
  if (additional_size_bytes > INT64_MAX - buffer->size_bytes) {
    return ENOMEM;
  }
  needed = buffer->size_bytes + additional_size_bytes;
  if (NANOARROW_PREDICT_TRUE(needed <= buffer->capacity_bytes)) {
    return NANOARROW_OK;
  }
  // Geometric growth keeps appends amortized O(1).
  grown = buffer->capacity_bytes > INT64_MAX / 2 ? INT64_MAX : buffer->capacity_bytes * 2;
  if (grown < needed) {
    grown = needed;
  }
  return ArrowBufferSetCapacity(buffer, grown);
}

static inline ArrowErrorCode ArrowBufferResize(struct ArrowBuffer* buffer,
                                               int64_t new_size_bytes, char shrink_to_fit) {
  if (new_size_bytes < 0) {
    return EINVAL;
  }
  if (new_size_bytes > buffer->capacity_bytes) {
    NANOARROW_RETURN_NOT_OK(ArrowBufferSetCapacity(buffer, new_size_bytes));
  } else if (shrink_to_fit && new_size_bytes < buffer->capacity_bytes) {
    NANOARROW_RETURN_NOT_OK(ArrowBufferSetCapacity(buffer, new_size_bytes));
  }
  buffer->size_bytes = new_size_bytes;
  return NANOARROW_OK;
}

static inline void ArrowBufferAppendUnsafe(struct ArrowBuffer* buffer, const void* data,
                                           int64_t size_bytes) {
  if (size_bytes > 0) {
    memcpy(buffer->data + buffer->size_bytes, data, (size_t)size_bytes);
    buffer->size_bytes += size_bytes;
  }
}

static inline ArrowErrorCode ArrowBufferAppend(struct ArrowBuffer* buffer, const void* data,
                                               int64_t size_bytes) {
  if (size_bytes < 0) {
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(buffer, size_bytes));
  ArrowBufferAppendUnsafe(buffer, data, size_bytes);
  return NANOARROW_OK;
}

static inline ArrowErrorCode ArrowBufferAppendFill(struct ArrowBuffer* buffer, uint8_t value,
                                                   int64_t size_bytes) {
  if (size_bytes == 0) {
    return NANOARROW_OK;  // touches nothing, not even the buffer
  }
  if (size_bytes < 0) {
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(buffer, size_bytes));
  memset(buffer->data + buffer->size_bytes, value, (size_t)size_bytes);
  buffer->size_bytes += size_bytes;
  return NANOARROW_OK;
}

#define NANOARROW_BUFFER_APPEND_VALUE(NAME, CTYPE)                                  \
  static inline ArrowErrorCode NAME(struct ArrowBuffer* buffer, CTYPE value) {      \
    return ArrowBufferAppend(buffer, &value, (int64_t)sizeof(CTYPE));               \
  }

NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendInt8, int8_t)
NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendUInt8, uint8_t)
NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendInt16, int16_t)
NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendUInt16, uint16_t)
NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendInt32, int32_t)
NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendUInt32, uint32_t)
NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendInt64, int64_t)
NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendUInt64, uint64_t)
NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendDouble, double)
NANOARROW_BUFFER_APPEND_VALUE(ArrowBufferAppendFloat, float)

#undef NANOARROW_BUFFER_APPEND_VALUE

static inline ArrowErrorCode ArrowBufferAppendStringView(struct ArrowBuffer* buffer,
                                                         struct ArrowStringView value) {
  return ArrowBufferAppend(buffer, value.data, value.size_bytes);
}

static inline ArrowErrorCode ArrowBufferAppendBufferView(struct ArrowBuffer* buffer,
                                                         struct ArrowBufferView value) {
  return ArrowBufferAppend(buffer, value.data.data, value.size_bytes);
}

// ---- Bitmaps ----

static inline void ArrowBitmapInit(struct ArrowBitmap* bitmap) {
  ArrowBufferInit(&bitmap->buffer);
  bitmap->size_bits = 0;
}

static inline void ArrowBitmapMove(struct ArrowBitmap* src, struct ArrowBitmap* dst) {
  ArrowBufferMove(&src->buffer, &dst->buffer);
  dst->size_bits = src->size_bits;
  src->size_bits = 0;
}

static inline ArrowErrorCode ArrowBitmapReserve(struct ArrowBitmap* bitmap,
                                                int64_t additional_size_bits) {
  int64_t min_bits;
  int64_t min_bytes;
  int64_t old_capacity;
  // Nothing to reserve for a negative size (as in nanoarrow).
  if (additional_size_bits <= 0) {
    return NANOARROW_OK;
  }
  if (additional_size_bits > INT64_MAX - 7 - bitmap->size_bits) {
    return ENOMEM;
  }
  min_bits = bitmap->size_bits + additional_size_bits;
  min_bytes = ArrowBytesForBits(min_bits);
  if (NANOARROW_PREDICT_TRUE(min_bytes <= bitmap->buffer.capacity_bytes)) {
    return NANOARROW_OK;
  }
  old_capacity = bitmap->buffer.capacity_bytes;
  NANOARROW_RETURN_NOT_OK(
      ArrowBufferReserve(&bitmap->buffer, min_bytes - bitmap->buffer.size_bytes));
  // Clear the capacity this call added (not bytes the caller already had), so that
  // bits appended into fresh bytes start from zero and exported bitmaps are
  // deterministic.
  memset(bitmap->buffer.data + old_capacity, 0,
         (size_t)(bitmap->buffer.capacity_bytes - old_capacity));
  return NANOARROW_OK;
}

// A capacity operation, as in nanoarrow: the capacity becomes enough for
// new_capacity_bits (or exactly that with shrink_to_fit; it only grows otherwise)
// and the bit count changes only when it was above new_capacity_bits. Growing does
// not add bits, so "resize to the final length, then append unsafely" stays within
// the buffer; added capacity starts cleared.
static inline ArrowErrorCode ArrowBitmapResize(struct ArrowBitmap* bitmap,
                                               int64_t new_capacity_bits,
                                               char shrink_to_fit) {
  int64_t new_bytes;
  int64_t old_capacity;
  if (new_capacity_bits < 0) {
    return EINVAL;
  }
  if (new_capacity_bits > INT64_MAX - 7) {
    return ENOMEM;
  }
  new_bytes = ArrowBytesForBits(new_capacity_bits);
  old_capacity = bitmap->buffer.capacity_bytes;
  if (new_bytes > old_capacity || (shrink_to_fit && new_bytes < old_capacity)) {
    NANOARROW_RETURN_NOT_OK(ArrowBufferSetCapacity(&bitmap->buffer, new_bytes));
    if (new_bytes > old_capacity) {
      memset(bitmap->buffer.data + old_capacity, 0, (size_t)(new_bytes - old_capacity));
    }
  }
  if (new_capacity_bits < bitmap->size_bits) {
    bitmap->size_bits = new_capacity_bits;
    bitmap->buffer.size_bytes = new_bytes;
  } else if (bitmap->buffer.size_bytes > bitmap->buffer.capacity_bytes) {
    // Bytes written past the bits by hand, now beyond a shrunken buffer.
    bitmap->buffer.size_bytes = bitmap->buffer.capacity_bytes;
  }
  return NANOARROW_OK;
}

static inline void ArrowBitmapAppendUnsafe(struct ArrowBitmap* bitmap, uint8_t bits_are_set,
                                           int64_t length) {
  ArrowBitsSetTo(bitmap->buffer.data, bitmap->size_bits, length, bits_are_set);
  bitmap->size_bits += length;
  bitmap->buffer.size_bytes = ArrowBytesForBits(bitmap->size_bits);
}

static inline ArrowErrorCode ArrowBitmapAppend(struct ArrowBitmap* bitmap,
                                               uint8_t bits_are_set, int64_t length) {
  if (length < 0) {
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowBitmapReserve(bitmap, length));
  ArrowBitmapAppendUnsafe(bitmap, bits_are_set, length);
  return NANOARROW_OK;
}

static inline void ArrowBitmapAppendInt8Unsafe(struct ArrowBitmap* bitmap,
                                               const int8_t* values, int64_t n_values) {
  int64_t i;
  uint8_t* bits = bitmap->buffer.data;
  int64_t start = bitmap->size_bits;
  for (i = 0; i < n_values; i++) {
    ArrowBitSetTo(bits, start + i, (uint8_t)(values[i] != 0));
  }
  bitmap->size_bits += n_values;
  bitmap->buffer.size_bytes = ArrowBytesForBits(bitmap->size_bits);
}

static inline void ArrowBitmapAppendInt32Unsafe(struct ArrowBitmap* bitmap,
                                                const int32_t* values, int64_t n_values) {
  int64_t i;
  uint8_t* bits = bitmap->buffer.data;
  int64_t start = bitmap->size_bits;
  for (i = 0; i < n_values; i++) {
    ArrowBitSetTo(bits, start + i, (uint8_t)(values[i] != 0));
  }
  bitmap->size_bits += n_values;
  bitmap->buffer.size_bytes = ArrowBytesForBits(bitmap->size_bits);
}

static inline void ArrowBitmapReset(struct ArrowBitmap* bitmap) {
  ArrowBufferReset(&bitmap->buffer);
  bitmap->size_bits = 0;
}

#ifdef __cplusplus
}
#endif

#endif  // NANOARROW_BUFFER_INLINE_H_INCLUDED
