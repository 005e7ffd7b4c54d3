// nanoarrow in C: type definitions shared by every public header.
//
// Everything here is a plain C99 declaration that callers may place on the stack:
// the Arrow C Data / C Stream Interface structs, error handling, the type and
// buffer enums, and the small value structs (views, buffers, bitmaps, layouts,
// decimals, intervals) that the inline API works on.

#ifndef NANOARROW_TYPES_H_INCLUDED
#define NANOARROW_TYPES_H_INCLUDED

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>  // NANOARROW_PRINT_AND_DIE, NANOARROW_DCHECK
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow_config.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- Arrow C Data Interface (ABI fixed by the Arrow specification) ----

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

// Every flag of the C data interface that this library understands.
#define NANOARROW_FLAG_ALL_SUPPORTED \
  (ARROW_FLAG_DICTIONARY_ORDERED | ARROW_FLAG_NULLABLE | ARROW_FLAG_MAP_KEYS_SORTED)

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

// ---- Symbol namespacing ----
// When NANOARROW_NAMESPACE is defined (nanoarrow_config.h, or -D), every exported
// function Foo becomes <NAMESPACE>Foo at link time so that two vendored copies can
// live in one program. Static inline functions need no prefix.
#define NANOARROW_CAT_IMPL(a, b) a##b
#define NANOARROW_CAT(a, b) NANOARROW_CAT_IMPL(a, b)
#if defined(NANOARROW_NAMESPACE)
#define NANOARROW_SYMBOL(name) NANOARROW_CAT(NANOARROW_NAMESPACE, name)
#else
#define NANOARROW_SYMBOL(name) name
#endif

// ---- Compiler helpers ----

#define NANOARROW_UNUSED(x) (void)(x)

// NANOARROW_COLD marks rarely run code (error paths, once-per-schema work): the
// compiler optimizes it for size and lays out branches into it as unlikely.
#if defined(__GNUC__) || defined(__clang__)
#define NANOARROW_PREDICT_TRUE(x) (__builtin_expect(!!(x), 1))
#define NANOARROW_PREDICT_FALSE(x) (__builtin_expect(!!(x), 0))
#define NANOARROW_CHECK_PRINTF_ATTRIBUTE __attribute__((format(printf, 2, 3)))
#define NANOARROW_COLD __attribute__((cold))
#define NANOARROW_NOINLINE __attribute__((noinline))
#define NANOARROW_PURE __attribute__((pure))
#define NANOARROW_CHECK_RETURN_ATTRIBUTE __attribute__((warn_unused_result))
#else
#define NANOARROW_PREDICT_TRUE(x) (x)
#define NANOARROW_PREDICT_FALSE(x) (x)
#define NANOARROW_CHECK_PRINTF_ATTRIBUTE
#define NANOARROW_COLD
#define NANOARROW_NOINLINE
#define NANOARROW_PURE
#define NANOARROW_CHECK_RETURN_ATTRIBUTE
#endif

// Pastes two tokens after expanding them (nanoarrow's spelling, which code written
// against it may use to make unique local names).
#define _NANOARROW_CONCAT(x, y) x##y
#define _NANOARROW_MAKE_NAME(x, y) _NANOARROW_CONCAT(x, y)

// Export attribute of the library's functions, for code that declares its own
// wrappers the way nanoarrow's headers do. Only a Windows DLL needs one: define
// NANOARROW_BUILD_DLL when building nanoarrow as a DLL and NANOARROW_USE_DLL when
// linking to it. Elsewhere (and in static or vendored builds) it is empty, since
// symbols already have default visibility.
#if !defined(NANOARROW_DLL)
#if (defined(_WIN32) || defined(__CYGWIN__)) && defined(NANOARROW_BUILD_DLL)
#define NANOARROW_DLL __declspec(dllexport)
#elif (defined(_WIN32) || defined(__CYGWIN__)) && defined(NANOARROW_USE_DLL)
#define NANOARROW_DLL __declspec(dllimport)
#else
#define NANOARROW_DLL
#endif
#endif

// ---- Errors ----

// Zero on success, otherwise an errno-compatible value (EINVAL, ENOMEM, ERANGE, ...).
typedef int ArrowErrorCode;

#define NANOARROW_OK 0

// A caller-owned message buffer. Functions that fail write a null-terminated
// description here when given a non-NULL pointer.
struct ArrowError {
  char message[1024];
};

#define NANOARROW_RETURN_NOT_OK(EXPR)              \
  do {                                             \
    const int NAME_nanoarrow_rc_ = (EXPR);         \
    if (NAME_nanoarrow_rc_ != NANOARROW_OK) {      \
      return NAME_nanoarrow_rc_;                   \
    }                                              \
  } while (0)

#define NANOARROW_RETURN_NOT_OK_WITH_ERROR(EXPR, ERROR_PTR_EXPR)             \
  do {                                                                       \
    const int NAME_nanoarrow_rc_ = (EXPR);                                   \
    if (NAME_nanoarrow_rc_ != NANOARROW_OK) {                                \
      ArrowErrorSet((ERROR_PTR_EXPR), "%s failed with errno %d", #EXPR,      \
                    NAME_nanoarrow_rc_);                                     \
      return NAME_nanoarrow_rc_;                                             \
    }                                                                        \
  } while (0)

#define NANOARROW_CHECK_RANGE_IMPL(x_, min_, max_) \
  NANOARROW_RETURN_NOT_OK(((x_) >= (min_) && (x_) <= (max_)) ? NANOARROW_OK : EINVAL)
#define NANOARROW_CHECK_UPPER_LIMIT_IMPL(x_, max_) \
  NANOARROW_RETURN_NOT_OK(((x_) <= (max_)) ? NANOARROW_OK : EINVAL)
// Names used by nanoarrow's own headers; kept for source compatibility.
#define _NANOARROW_CHECK_RANGE(x_, min_, max_) NANOARROW_CHECK_RANGE_IMPL(x_, min_, max_)
#define _NANOARROW_CHECK_UPPER_LIMIT(x_, max_) NANOARROW_CHECK_UPPER_LIMIT_IMPL(x_, max_)

// Reports a failed call (its text and error code) on stderr and aborts: for
// programs and tests where a failure cannot be handled.
#define NANOARROW_PRINT_AND_DIE(VALUE, EXPR_STR)                                 \
  do {                                                                         \
    fprintf(stderr, "%s failed with code %d (%s:%d)\n", (EXPR_STR), (int)(VALUE), \
            __FILE__, __LINE__);                                               \
    abort();                                                                   \
  } while (0)

#if defined(NANOARROW_DEBUG)
#define NANOARROW_DCHECK(EXPR)                                                 \
  do {                                                                         \
    if (!(EXPR)) {                                                             \
      fprintf(stderr, "%s:%d: nanoarrow check failed: %s\n", __FILE__,         \
              __LINE__, #EXPR);                                                \
      abort();                                                                 \
    }                                                                          \
  } while (0)
#define NANOARROW_ASSERT_OK(EXPR)                                  \
  do {                                                             \
    const int NAME_nanoarrow_assert_rc_ = (EXPR);                  \
    if (NAME_nanoarrow_assert_rc_ != NANOARROW_OK) {               \
      NANOARROW_PRINT_AND_DIE(NAME_nanoarrow_assert_rc_, #EXPR);   \
    }                                                              \
  } while (0)
#else
#define NANOARROW_DCHECK(EXPR)
#define NANOARROW_ASSERT_OK(EXPR) (void)(EXPR)
#endif

// ---- Types ----

// The numeric values follow the Arrow C++ Type::type ids, as nanoarrow does.
enum ArrowType {
  NANOARROW_TYPE_UNINITIALIZED = 0,
  NANOARROW_TYPE_NA = 1,
  NANOARROW_TYPE_BOOL,
  NANOARROW_TYPE_UINT8,
  NANOARROW_TYPE_INT8,
  NANOARROW_TYPE_UINT16,
  NANOARROW_TYPE_INT16,
  NANOARROW_TYPE_UINT32,
  NANOARROW_TYPE_INT32,
  NANOARROW_TYPE_UINT64,
  NANOARROW_TYPE_INT64,
  NANOARROW_TYPE_HALF_FLOAT,
  NANOARROW_TYPE_FLOAT,
  NANOARROW_TYPE_DOUBLE,
  NANOARROW_TYPE_STRING,
  NANOARROW_TYPE_BINARY,
  NANOARROW_TYPE_FIXED_SIZE_BINARY,
  NANOARROW_TYPE_DATE32,
  NANOARROW_TYPE_DATE64,
  NANOARROW_TYPE_TIMESTAMP,
  NANOARROW_TYPE_TIME32,
  NANOARROW_TYPE_TIME64,
  NANOARROW_TYPE_INTERVAL_MONTHS,
  NANOARROW_TYPE_INTERVAL_DAY_TIME,
  NANOARROW_TYPE_DECIMAL128,
  NANOARROW_TYPE_DECIMAL256,
  NANOARROW_TYPE_LIST,
  NANOARROW_TYPE_STRUCT,
  NANOARROW_TYPE_SPARSE_UNION,
  NANOARROW_TYPE_DENSE_UNION,
  NANOARROW_TYPE_DICTIONARY,
  NANOARROW_TYPE_MAP,
  NANOARROW_TYPE_EXTENSION,
  NANOARROW_TYPE_FIXED_SIZE_LIST,
  NANOARROW_TYPE_DURATION,
  NANOARROW_TYPE_LARGE_STRING,
  NANOARROW_TYPE_LARGE_BINARY,
  NANOARROW_TYPE_LARGE_LIST,
  NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO,
  NANOARROW_TYPE_RUN_END_ENCODED,
  NANOARROW_TYPE_BINARY_VIEW,
  NANOARROW_TYPE_STRING_VIEW,
  NANOARROW_TYPE_DECIMAL32,
  NANOARROW_TYPE_DECIMAL64,
  NANOARROW_TYPE_LIST_VIEW,
  NANOARROW_TYPE_LARGE_LIST_VIEW
};

enum ArrowTimeUnit {
  NANOARROW_TIME_UNIT_SECOND = 0,
  NANOARROW_TIME_UNIT_MILLI = 1,
  NANOARROW_TIME_UNIT_MICRO = 2,
  NANOARROW_TIME_UNIT_NANO = 3
};

// How much ArrowArrayFinishBuilding / ArrowArrayViewValidate check.
// NONE: nothing. MINIMAL: buffer sizes that can be checked without reading any
// buffer. DEFAULT: also reads first/last offsets (O(number of buffers)).
// FULL: every element (O(length)).
enum ArrowValidationLevel {
  NANOARROW_VALIDATION_LEVEL_NONE = 0,
  NANOARROW_VALIDATION_LEVEL_MINIMAL = 1,
  NANOARROW_VALIDATION_LEVEL_DEFAULT = 2,
  NANOARROW_VALIDATION_LEVEL_FULL = 3
};

// How ArrowArrayViewCompare (and ArrowSchemaCompare) decide equality.
// IDENTICAL: same storage types, offsets, lengths, null counts and buffers byte for
// byte (sizes included), children and dictionaries likewise; two arrays holding
// the same values at different offsets are not identical (ArrowTestingCompareArray
// of the testing library compares values). Schemas: same formats, names, metadata
// bytes, flags, children and dictionaries.
// EQUAL (schemas only): as IDENTICAL, but metadata holding zero keys equals no
// metadata.
// TYPE_EQUAL (schemas only): as EQUAL, but the root's name and metadata (which
// describe a field rather than its type) are not compared.
// ArrowArrayViewCompare accepts IDENTICAL only (EINVAL otherwise).
enum ArrowCompareLevel {
  NANOARROW_COMPARE_IDENTICAL = 0,
  NANOARROW_COMPARE_EQUAL = 1,
  NANOARROW_COMPARE_TYPE_EQUAL = 2
};

enum ArrowBufferType {
  NANOARROW_BUFFER_TYPE_NONE,
  NANOARROW_BUFFER_TYPE_VALIDITY,
  NANOARROW_BUFFER_TYPE_TYPE_ID,
  NANOARROW_BUFFER_TYPE_UNION_OFFSET,
  NANOARROW_BUFFER_TYPE_DATA_OFFSET,
  NANOARROW_BUFFER_TYPE_DATA,
  NANOARROW_BUFFER_TYPE_VARIADIC_DATA,
  NANOARROW_BUFFER_TYPE_VARIADIC_SIZE,
  NANOARROW_BUFFER_TYPE_VIEW_OFFSET,
  NANOARROW_BUFFER_TYPE_SIZE
};

// Number of buffers a layout may describe before variadic buffers.
#define NANOARROW_MAX_FIXED_BUFFERS 3

// Maximum nesting depth accepted when walking schema or array trees.
#define NANOARROW_MAX_NESTING_DEPTH 64

// Binary/string view element (16 bytes).
#define NANOARROW_BINARY_VIEW_INLINE_SIZE 12
#define NANOARROW_BINARY_VIEW_PREFIX_SIZE 4
#define NANOARROW_BINARY_VIEW_BLOCK_SIZE (32 << 10)

// A value of at most 12 bytes, stored in the view itself.
struct ArrowBinaryViewInlined {
  int32_t size;
  uint8_t data[NANOARROW_BINARY_VIEW_INLINE_SIZE];
};

// A longer value: its first 4 bytes, and where the whole lies in a variadic buffer.
struct ArrowBinaryViewRef {
  int32_t size;
  uint8_t prefix[NANOARROW_BINARY_VIEW_PREFIX_SIZE];
  int32_t buffer_index;
  int32_t offset;
};

union ArrowBinaryView {
  struct ArrowBinaryViewInlined inlined;
  struct ArrowBinaryViewRef ref;
  int64_t alignment_dummy;
};

// ---- Views of borrowed memory ----

// A non-owning, not necessarily null-terminated string.
struct ArrowStringView {
  const char* data;
  int64_t size_bytes;
};

// Non-zero on a little-endian host. An underscore name of nanoarrow's header that
// programs written against it (its tests among them) call.
static inline char _ArrowIsLittleEndian(void) {
  const uint16_t probe = 1;
  char first;
  memcpy(&first, &probe, 1);
  return first;
}

static inline struct ArrowStringView ArrowCharView(const char* value) {
  struct ArrowStringView out;
  out.data = value;
  out.size_bytes = value ? (int64_t)strlen(value) : 0;
  return out;
}

union ArrowBufferViewData {
  const void* data;
  const int8_t* as_int8;
  const uint8_t* as_uint8;
  const int16_t* as_int16;
  const uint16_t* as_uint16;
  const int32_t* as_int32;
  const uint32_t* as_uint32;
  const int64_t* as_int64;
  const uint64_t* as_uint64;
  const double* as_double;
  const float* as_float;
  const char* as_char;
  const union ArrowBinaryView* as_binary_view;
};

// A non-owning view of a buffer's bytes.
struct ArrowBufferView {
  union ArrowBufferViewData data;
  int64_t size_bytes;
};

// ---- Owned memory ----

// Allocation strategy of an ArrowBuffer. reallocate(NULL, 0, n) allocates; free
// releases. private_data belongs to the allocator.
struct ArrowBufferAllocator {
  uint8_t* (*reallocate)(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                         int64_t old_size, int64_t new_size);
  void (*free)(struct ArrowBufferAllocator* allocator, uint8_t* ptr, int64_t size);
  void* private_data;
};

typedef void (*ArrowBufferDeallocatorCallback)(struct ArrowBufferAllocator* allocator,
                                               uint8_t* ptr, int64_t size);

// A growable, owned byte buffer.
struct ArrowBuffer {
  uint8_t* data;
  int64_t size_bytes;
  int64_t capacity_bytes;
  struct ArrowBufferAllocator allocator;
};

// A growable, owned bit-packed buffer (least significant bit first).
struct ArrowBitmap {
  struct ArrowBuffer buffer;
  int64_t size_bits;
};

// What each fixed buffer of an array of a given storage type holds.
struct ArrowLayout {
  enum ArrowBufferType buffer_type[NANOARROW_MAX_FIXED_BUFFERS];
  enum ArrowType buffer_data_type[NANOARROW_MAX_FIXED_BUFFERS];
  int64_t element_size_bits[NANOARROW_MAX_FIXED_BUFFERS];
  // Children elements per parent element (fixed-size list / fixed-size binary).
  int64_t child_size_elements;
};

// A read-only, pre-parsed view of an ArrowArray (or of buffers set by hand).
struct ArrowArrayView {
  const struct ArrowArray* array;
  int64_t offset;
  int64_t length;
  // -1 when unknown.
  int64_t null_count;
  enum ArrowType storage_type;
  struct ArrowLayout layout;
  struct ArrowBufferView buffer_views[NANOARROW_MAX_FIXED_BUFFERS];
  int64_t n_children;
  struct ArrowArrayView** children;
  struct ArrowArrayView* dictionary;
  // Unions: 256 bytes; [0,128) maps type id -> child index, [128,256) the reverse.
  int8_t* union_type_id_map;
  int32_t n_variadic_buffers;
  const void** variadic_buffers;
  int64_t* variadic_buffer_sizes;
};

// What an ArrowArray built by this library keeps in private_data. Exposed so the
// inline append functions can reach the buffers without a call.
struct ArrowArrayPrivateData {
  struct ArrowBitmap bitmap;
  // Buffers 1 and 2 of the layout. Binary and string views keep their views in
  // buffers[0] and the variadic sizes (an int64 per variadic buffer, the last buffer
  // exported) in buffers[1].
  struct ArrowBuffer buffers[NANOARROW_MAX_FIXED_BUFFERS - 1];
  // The pointers handed out through ArrowArray.buffers.
  const void** buffer_data;
  enum ArrowType storage_type;
  // ArrowArrayAppendInt() without a test of the type: for storage that holds
  // integers (integer types and the temporal types stored as integers) the element
  // width in bytes and the values that fit, [min, max]; width 0 and an empty range
  // (min > max) for every other type.
  int64_t append_int_width;
  int64_t append_int_min;
  int64_t append_int_max;
  struct ArrowLayout layout;
  // List views being built: where the next element's child elements start (the
  // child's length when the previous element was finished).
  int64_t list_view_offset;
  // Non-zero when union type ids equal child indices (fast path).
  int8_t union_type_id_is_child_index;
  // Non-zero when the variadic sizes buffer was set by ArrowArraySetBuffer() and is
  // exported as it is; otherwise finishing writes the variadic buffers' sizes.
  int8_t variadic_sizes_from_caller;
  int32_t n_variadic_buffers;
  struct ArrowBuffer* variadic_buffers;
};

// ---- Values ----

// A decimal of 32, 64, 128 or 256 bits stored as 64-bit words in native order:
// words[low_word_index] is the least significant word. n_words is bitwidth / 64,
// which is 0 for decimal32: its value lives in words[0], sign-extended to 64 bits
// (code that walks words should use n_words == 0 ? 1 : n_words).
struct ArrowDecimal {
  uint64_t words[4];
  int32_t precision;
  int32_t scale;
  int n_words;
  int high_word_index;
  int low_word_index;
};

struct ArrowInterval {
  enum ArrowType type;
  int32_t months;
  int32_t days;
  int32_t ms;
  int64_t ns;
};

// Iterator over serialized key/value metadata.
struct ArrowMetadataReader {
  const char* metadata;
  int64_t offset;
  int32_t remaining_keys;
};

// A parsed view of an ArrowSchema's format string and metadata.
struct ArrowSchemaView {
  const struct ArrowSchema* schema;
  // The logical type (e.g. TIMESTAMP, DICTIONARY, or EXTENSION's storage for extension
  // types: see extension_name).
  enum ArrowType type;
  // The physical type of the buffers (e.g. INT64 for TIMESTAMP, index type for
  // DICTIONARY).
  enum ArrowType storage_type;
  struct ArrowLayout layout;
  // Empty (data == NULL) unless ARROW:extension:name is present.
  struct ArrowStringView extension_name;
  struct ArrowStringView extension_metadata;
  int32_t fixed_size;
  int32_t decimal_bitwidth;
  int32_t decimal_precision;
  int32_t decimal_scale;
  enum ArrowTimeUnit time_unit;
  // Timestamps: points into the format string after "ts?:" ("" when there is no
  // zone); NULL for other types.
  const char* timezone;
  // Points into the format string after "+ud:" or "+us:".
  const char* union_type_ids;
};

#ifdef __cplusplus
}
#endif

#endif  // NANOARROW_TYPES_H_INCLUDED
