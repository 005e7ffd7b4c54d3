// nanoarrow in C: the one header a user includes for the core library.
//
// Declares the whole public API: exported functions (prefixed at link time by
// NANOARROW_NAMESPACE when it is set) and the static inline functions defined in
// nanoarrow_buffer_inline.h, nanoarrow_array_inline.h and
// nanoarrow_array_view_inline.h, which this header includes at its end.

#ifndef NANOARROW_H_INCLUDED
#define NANOARROW_H_INCLUDED

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow_types.h"

// ---- Link-time names ----
// Every exported function goes through NANOARROW_SYMBOL so that
// -DNANOARROW_NAMESPACE=Foo renames ArrowSchemaInit to FooArrowSchemaInit in both
// the library and its callers.
#if defined(NANOARROW_NAMESPACE)
#define ArrowNanoarrowVersion NANOARROW_SYMBOL(ArrowNanoarrowVersion)
#define ArrowNanoarrowVersionInt NANOARROW_SYMBOL(ArrowNanoarrowVersionInt)
#define ArrowErrorSet NANOARROW_SYMBOL(ArrowErrorSet)
#define ArrowPrivateTypeString NANOARROW_SYMBOL(ArrowPrivateTypeString)
#define ArrowPrivateArrayViewGetIntSlow NANOARROW_SYMBOL(ArrowPrivateArrayViewGetIntSlow)
#define ArrowPrivateArrayViewGetUIntSlow NANOARROW_SYMBOL(ArrowPrivateArrayViewGetUIntSlow)
#define ArrowPrivateArrayViewGetDoubleSlow NANOARROW_SYMBOL(ArrowPrivateArrayViewGetDoubleSlow)
#define ArrowPrivateArrayStartAppending NANOARROW_SYMBOL(ArrowPrivateArrayStartAppending)
#define ArrowMalloc NANOARROW_SYMBOL(ArrowMalloc)
#define ArrowRealloc NANOARROW_SYMBOL(ArrowRealloc)
#define ArrowFree NANOARROW_SYMBOL(ArrowFree)
#define ArrowBufferAllocatorDefault NANOARROW_SYMBOL(ArrowBufferAllocatorDefault)
#define ArrowBufferDeallocator NANOARROW_SYMBOL(ArrowBufferDeallocator)
#define ArrowLayoutInit NANOARROW_SYMBOL(ArrowLayoutInit)
#define ArrowDecimalSetDigits NANOARROW_SYMBOL(ArrowDecimalSetDigits)
#define ArrowDecimalAppendDigitsToBuffer NANOARROW_SYMBOL(ArrowDecimalAppendDigitsToBuffer)
#define ArrowDecimalAppendStringToBuffer NANOARROW_SYMBOL(ArrowDecimalAppendStringToBuffer)
#define ArrowSchemaInit NANOARROW_SYMBOL(ArrowSchemaInit)
#define ArrowSchemaInitFromType NANOARROW_SYMBOL(ArrowSchemaInitFromType)
#define ArrowSchemaToString NANOARROW_SYMBOL(ArrowSchemaToString)
#define ArrowSchemaSetType NANOARROW_SYMBOL(ArrowSchemaSetType)
#define ArrowSchemaSetTypeStruct NANOARROW_SYMBOL(ArrowSchemaSetTypeStruct)
#define ArrowSchemaSetTypeFixedSize NANOARROW_SYMBOL(ArrowSchemaSetTypeFixedSize)
#define ArrowSchemaSetTypeDecimal NANOARROW_SYMBOL(ArrowSchemaSetTypeDecimal)
#define ArrowSchemaSetTypeRunEndEncoded NANOARROW_SYMBOL(ArrowSchemaSetTypeRunEndEncoded)
#define ArrowSchemaSetTypeDateTime NANOARROW_SYMBOL(ArrowSchemaSetTypeDateTime)
#define ArrowSchemaSetTypeUnion NANOARROW_SYMBOL(ArrowSchemaSetTypeUnion)
#define ArrowSchemaDeepCopy NANOARROW_SYMBOL(ArrowSchemaDeepCopy)
#define ArrowSchemaCompare NANOARROW_SYMBOL(ArrowSchemaCompare)
#define ArrowSchemaSetFormat NANOARROW_SYMBOL(ArrowSchemaSetFormat)
#define ArrowSchemaSetName NANOARROW_SYMBOL(ArrowSchemaSetName)
#define ArrowSchemaSetMetadata NANOARROW_SYMBOL(ArrowSchemaSetMetadata)
#define ArrowSchemaAllocateChildren NANOARROW_SYMBOL(ArrowSchemaAllocateChildren)
#define ArrowSchemaAllocateDictionary NANOARROW_SYMBOL(ArrowSchemaAllocateDictionary)
#define ArrowSchemaViewInit NANOARROW_SYMBOL(ArrowSchemaViewInit)
#define ArrowMetadataReaderInit NANOARROW_SYMBOL(ArrowMetadataReaderInit)
#define ArrowMetadataReaderRead NANOARROW_SYMBOL(ArrowMetadataReaderRead)
#define ArrowMetadataSizeOf NANOARROW_SYMBOL(ArrowMetadataSizeOf)
#define ArrowMetadataHasKey NANOARROW_SYMBOL(ArrowMetadataHasKey)
#define ArrowMetadataGetValue NANOARROW_SYMBOL(ArrowMetadataGetValue)
#define ArrowMetadataBuilderInit NANOARROW_SYMBOL(ArrowMetadataBuilderInit)
#define ArrowMetadataBuilderAppend NANOARROW_SYMBOL(ArrowMetadataBuilderAppend)
#define ArrowMetadataBuilderSet NANOARROW_SYMBOL(ArrowMetadataBuilderSet)
#define ArrowMetadataBuilderRemove NANOARROW_SYMBOL(ArrowMetadataBuilderRemove)
#define ArrowArrayInitFromType NANOARROW_SYMBOL(ArrowArrayInitFromType)
#define ArrowArrayInitFromSchema NANOARROW_SYMBOL(ArrowArrayInitFromSchema)
#define ArrowArrayInitFromArrayView NANOARROW_SYMBOL(ArrowArrayInitFromArrayView)
#define ArrowArrayAllocateChildren NANOARROW_SYMBOL(ArrowArrayAllocateChildren)
#define ArrowArrayAllocateDictionary NANOARROW_SYMBOL(ArrowArrayAllocateDictionary)
#define ArrowArraySetValidityBitmap NANOARROW_SYMBOL(ArrowArraySetValidityBitmap)
#define ArrowArraySetBuffer NANOARROW_SYMBOL(ArrowArraySetBuffer)
#define ArrowArrayReserve NANOARROW_SYMBOL(ArrowArrayReserve)
#define ArrowArrayAddVariadicBuffers NANOARROW_SYMBOL(ArrowArrayAddVariadicBuffers)
#define ArrowArrayFinishBuilding NANOARROW_SYMBOL(ArrowArrayFinishBuilding)
#define ArrowArrayFinishBuildingDefault NANOARROW_SYMBOL(ArrowArrayFinishBuildingDefault)
#define ArrowArrayAppendArrayView NANOARROW_SYMBOL(ArrowArrayAppendArrayView)
#define ArrowArrayViewInitFromType NANOARROW_SYMBOL(ArrowArrayViewInitFromType)
#define ArrowArrayViewInitFromSchema NANOARROW_SYMBOL(ArrowArrayViewInitFromSchema)
#define ArrowArrayViewAllocateChildren NANOARROW_SYMBOL(ArrowArrayViewAllocateChildren)
#define ArrowArrayViewAllocateDictionary NANOARROW_SYMBOL(ArrowArrayViewAllocateDictionary)
#define ArrowArrayViewSetLength NANOARROW_SYMBOL(ArrowArrayViewSetLength)
#define ArrowArrayViewSetArray NANOARROW_SYMBOL(ArrowArrayViewSetArray)
#define ArrowArrayViewSetArrayMinimal NANOARROW_SYMBOL(ArrowArrayViewSetArrayMinimal)
#define ArrowArrayViewValidate NANOARROW_SYMBOL(ArrowArrayViewValidate)
#define ArrowArrayViewCompare NANOARROW_SYMBOL(ArrowArrayViewCompare)
#define ArrowArrayViewReset NANOARROW_SYMBOL(ArrowArrayViewReset)
#define ArrowBasicArrayStreamInit NANOARROW_SYMBOL(ArrowBasicArrayStreamInit)
#define ArrowBasicArrayStreamSetArray NANOARROW_SYMBOL(ArrowBasicArrayStreamSetArray)
#define ArrowBasicArrayStreamValidate NANOARROW_SYMBOL(ArrowBasicArrayStreamValidate)
#endif

#ifdef __cplusplus
extern "C" {
#endif

// ========================================================================
// Version, errors, allocation
// ========================================================================

// The library's version string, e.g. "0.1.0".
NANOARROW_DLL const char* ArrowNanoarrowVersion(void);
// major * 10000 + minor * 100 + patch.
NANOARROW_DLL int ArrowNanoarrowVersionInt(void);

// printf-style message into error (ignored when error is NULL). Returns
// NANOARROW_OK, or ERANGE when the message had to be truncated.
NANOARROW_DLL ArrowErrorCode ArrowErrorSet(struct ArrowError* error, const char* fmt, ...)
    NANOARROW_CHECK_PRINTF_ATTRIBUTE;
static inline void ArrowErrorInit(struct ArrowError* error);
// Copies src into the message, truncated to fit (ignored when error is NULL).
static inline void ArrowErrorSetString(struct ArrowError* error, const char* src);
// The message, or "" when error is NULL.
static inline const char* ArrowErrorMessage(struct ArrowError* error);

NANOARROW_DLL void* ArrowMalloc(int64_t size);
NANOARROW_DLL void* ArrowRealloc(void* ptr, int64_t size);
NANOARROW_DLL void ArrowFree(void* ptr);

// The allocator ArrowBufferInit() installs (ArrowRealloc/ArrowFree).
NANOARROW_DLL struct ArrowBufferAllocator ArrowBufferAllocatorDefault(void);
// An allocator that cannot grow a buffer and calls callback(allocator, ptr, size)
// when the buffer is released: wraps memory owned by someone else.
NANOARROW_DLL struct ArrowBufferAllocator ArrowBufferDeallocator(ArrowBufferDeallocatorCallback callback,
                                                   void* private_data);

// Human-readable names ("int32", "timestamp", ...); "<unknown type identifier>" for
// values that are not a type (NANOARROW_TYPE_UNINITIALIZED included).
static inline const char* ArrowTypeString(enum ArrowType type);
NANOARROW_DLL const char* ArrowPrivateTypeString(enum ArrowType type);
static inline const char* ArrowTimeUnitString(enum ArrowTimeUnit time_unit);

// ========================================================================
// C Data / Stream Interface helpers
// ========================================================================

static inline void ArrowSchemaMove(struct ArrowSchema* src, struct ArrowSchema* dst);
static inline void ArrowSchemaRelease(struct ArrowSchema* schema);
static inline void ArrowArrayMove(struct ArrowArray* src, struct ArrowArray* dst);
static inline void ArrowArrayRelease(struct ArrowArray* array);
static inline void ArrowArrayStreamMove(struct ArrowArrayStream* src,
                                        struct ArrowArrayStream* dst);
static inline ArrowErrorCode ArrowArrayStreamGetSchema(struct ArrowArrayStream* array_stream,
                                                       struct ArrowSchema* out,
                                                       struct ArrowError* error);
static inline ArrowErrorCode ArrowArrayStreamGetNext(struct ArrowArrayStream* array_stream,
                                                     struct ArrowArray* out,
                                                     struct ArrowError* error);
static inline const char* ArrowArrayStreamGetLastError(
    struct ArrowArrayStream* array_stream);
static inline void ArrowArrayStreamRelease(struct ArrowArrayStream* array_stream);

// ========================================================================
// Utilities
// ========================================================================

// Index of the chunk containing index given sorted chunk start offsets
// offsets[lo..hi] (binary search).
static inline int64_t ArrowResolveChunk64(int64_t index, const int64_t* offsets,
                                          int64_t lo, int64_t hi);
static inline int64_t ArrowResolveChunk32(int32_t index, const int32_t* offsets,
                                          int32_t lo, int32_t hi);

// IEEE 754 binary16 <-> binary32.
static inline float ArrowHalfFloatToFloat(uint16_t value);
static inline uint16_t ArrowFloatToHalfFloat(float value);

// The buffer layout of a storage type.
NANOARROW_DLL void ArrowLayoutInit(struct ArrowLayout* layout, enum ArrowType storage_type);

// ---- Decimals ----
static inline void ArrowDecimalInit(struct ArrowDecimal* decimal, int32_t bitwidth,
                                    int32_t precision, int32_t scale);
// The value when it fits in 64 bits (the low word, sign-interpreted).
static inline int64_t ArrowDecimalGetIntUnsafe(const struct ArrowDecimal* decimal);
// Copies bitwidth / 8 little-endian bytes into out.
static inline void ArrowDecimalGetBytes(const struct ArrowDecimal* decimal, uint8_t* out);
// 1 or -1.
static inline int64_t ArrowDecimalSign(const struct ArrowDecimal* decimal);
static inline void ArrowDecimalSetInt(struct ArrowDecimal* decimal, int64_t value);
static inline void ArrowDecimalNegate(struct ArrowDecimal* decimal);
static inline void ArrowDecimalSetBytes(struct ArrowDecimal* decimal, const uint8_t* value);
// Parses an optionally signed string of decimal digits (the unscaled value).
NANOARROW_DLL ArrowErrorCode ArrowDecimalSetDigits(struct ArrowDecimal* decimal,
                                     struct ArrowStringView value);
// Appends the unscaled value as decimal digits (with '-' when negative).
NANOARROW_DLL ArrowErrorCode ArrowDecimalAppendDigitsToBuffer(const struct ArrowDecimal* decimal,
                                                struct ArrowBuffer* buffer);
// Appends the scaled value, e.g. "-12.345" for digits -12345 and scale 3.
NANOARROW_DLL ArrowErrorCode ArrowDecimalAppendStringToBuffer(const struct ArrowDecimal* decimal,
                                                struct ArrowBuffer* buffer);

// ---- Intervals ----
static inline void ArrowIntervalInit(struct ArrowInterval* interval, enum ArrowType type);

// ========================================================================
// Schemas
// ========================================================================

// An empty, released-by-callback schema: format NULL, no name, no children.
NANOARROW_DLL void ArrowSchemaInit(struct ArrowSchema* schema);
// ArrowSchemaInit + ArrowSchemaSetType; releases the schema on failure.
NANOARROW_DLL ArrowErrorCode ArrowSchemaInitFromType(struct ArrowSchema* schema, enum ArrowType type);
// Writes at most n - 1 characters (null-terminated) of a summary such as
// "struct<col1: int32>"; returns the length the full summary needs.
NANOARROW_DLL int64_t ArrowSchemaToString(const struct ArrowSchema* schema, char* out, int64_t n,
                            char recursive);
// Sets the format for a type without parameters; list types get a child named
// "item", map gets "entries" with "key" and "value" (children to be typed).
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetType(struct ArrowSchema* schema, enum ArrowType type);
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetTypeStruct(struct ArrowSchema* schema, int64_t n_children);
// FIXED_SIZE_BINARY (byte width) or FIXED_SIZE_LIST (list size).
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetTypeFixedSize(struct ArrowSchema* schema, enum ArrowType type,
                                           int32_t fixed_size);
// DECIMAL32, DECIMAL64, DECIMAL128 or DECIMAL256.
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetTypeDecimal(struct ArrowSchema* schema, enum ArrowType type,
                                         int32_t decimal_precision, int32_t decimal_scale);
// Children "run_ends" (INT16, INT32 or INT64) and "values" (to be typed).
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetTypeRunEndEncoded(struct ArrowSchema* schema,
                                               enum ArrowType run_end_type);
// TIME32, TIME64, TIMESTAMP or DURATION; timezone only for TIMESTAMP (may be NULL).
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetTypeDateTime(struct ArrowSchema* schema, enum ArrowType type,
                                          enum ArrowTimeUnit time_unit,
                                          const char* timezone);
// SPARSE_UNION or DENSE_UNION with type ids 0..n_children-1.
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetTypeUnion(struct ArrowSchema* schema, enum ArrowType type,
                                       int64_t n_children);
NANOARROW_DLL ArrowErrorCode ArrowSchemaDeepCopy(const struct ArrowSchema* schema,
                                   struct ArrowSchema* schema_out);
// *out = 1 when the schemas are equal at level (see enum ArrowCompareLevel:
// IDENTICAL, EQUAL or TYPE_EQUAL); otherwise 0 and reason names the first
// difference and where it is.
NANOARROW_DLL ArrowErrorCode ArrowSchemaCompare(const struct ArrowSchema* actual,
                                  const struct ArrowSchema* expected,
                                  enum ArrowCompareLevel level, int* out,
                                  struct ArrowError* reason);
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetFormat(struct ArrowSchema* schema, const char* format);
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetName(struct ArrowSchema* schema, const char* name);
// Copies a serialized metadata blob (NULL removes the metadata).
NANOARROW_DLL ArrowErrorCode ArrowSchemaSetMetadata(struct ArrowSchema* schema, const char* metadata);
// Allocates n_children child structs, released (release NULL): initialize each one
// (ArrowSchemaInit, ArrowSchemaInitFromType) before setting it. Releasing the parent
// frees them either way.
NANOARROW_DLL ArrowErrorCode ArrowSchemaAllocateChildren(struct ArrowSchema* schema, int64_t n_children);
// Allocates schema->dictionary, released like the children above (EEXIST when there
// already is one).
NANOARROW_DLL ArrowErrorCode ArrowSchemaAllocateDictionary(struct ArrowSchema* schema);

// ---- Metadata (the C Data Interface's int32-prefixed key/value blob) ----
NANOARROW_DLL ArrowErrorCode ArrowMetadataReaderInit(struct ArrowMetadataReader* reader,
                                       const char* metadata);
// ENODATA-style end: returns EINVAL when no keys remain.
NANOARROW_DLL ArrowErrorCode ArrowMetadataReaderRead(struct ArrowMetadataReader* reader,
                                       struct ArrowStringView* key_out,
                                       struct ArrowStringView* value_out);
NANOARROW_DLL int64_t ArrowMetadataSizeOf(const char* metadata);
NANOARROW_DLL char ArrowMetadataHasKey(const char* metadata, struct ArrowStringView key);
// Leaves value_out untouched when the key is absent.
NANOARROW_DLL ArrowErrorCode ArrowMetadataGetValue(const char* metadata, struct ArrowStringView key,
                                     struct ArrowStringView* value_out);
// Initializes buffer (ArrowBufferInit) holding a copy of metadata (may be NULL).
NANOARROW_DLL ArrowErrorCode ArrowMetadataBuilderInit(struct ArrowBuffer* buffer, const char* metadata);
NANOARROW_DLL ArrowErrorCode ArrowMetadataBuilderAppend(struct ArrowBuffer* buffer,
                                          struct ArrowStringView key,
                                          struct ArrowStringView value);
NANOARROW_DLL ArrowErrorCode ArrowMetadataBuilderSet(struct ArrowBuffer* buffer, struct ArrowStringView key,
                                       struct ArrowStringView value);
NANOARROW_DLL ArrowErrorCode ArrowMetadataBuilderRemove(struct ArrowBuffer* buffer,
                                          struct ArrowStringView key);

// ---- Schema views ----
// Parses schema->format (and extension metadata) without allocating, and checks
// what the format alone cannot say: child counts and types, flags (only those of
// NANOARROW_FLAG_ALL_SUPPORTED, dictionary-ordered only on dictionaries, keys-sorted
// only on maps), non-nullable map entries and keys, integer dictionary indices.
NANOARROW_DLL ArrowErrorCode ArrowSchemaViewInit(struct ArrowSchemaView* schema_view,
                                   const struct ArrowSchema* schema, struct ArrowError* error);

// ========================================================================
// Buffers and bitmaps (nanoarrow_buffer_inline.h)
// ========================================================================

static inline void ArrowBufferInit(struct ArrowBuffer* buffer);
// EINVAL when the buffer already holds memory.
static inline ArrowErrorCode ArrowBufferSetAllocator(struct ArrowBuffer* buffer,
                                                     struct ArrowBufferAllocator allocator);
static inline void ArrowBufferReset(struct ArrowBuffer* buffer);
static inline void ArrowBufferMove(struct ArrowBuffer* src, struct ArrowBuffer* dst);
static inline ArrowErrorCode ArrowBufferResize(struct ArrowBuffer* buffer,
                                               int64_t new_size_bytes, char shrink_to_fit);
static inline ArrowErrorCode ArrowBufferReserve(struct ArrowBuffer* buffer,
                                                int64_t additional_size_bytes);
static inline void ArrowBufferAppendUnsafe(struct ArrowBuffer* buffer, const void* data,
                                           int64_t size_bytes);
static inline ArrowErrorCode ArrowBufferAppend(struct ArrowBuffer* buffer, const void* data,
                                               int64_t size_bytes);
static inline ArrowErrorCode ArrowBufferAppendFill(struct ArrowBuffer* buffer, uint8_t value,
                                                   int64_t size_bytes);
static inline ArrowErrorCode ArrowBufferAppendInt8(struct ArrowBuffer* buffer, int8_t value);
static inline ArrowErrorCode ArrowBufferAppendUInt8(struct ArrowBuffer* buffer,
                                                    uint8_t value);
static inline ArrowErrorCode ArrowBufferAppendInt16(struct ArrowBuffer* buffer,
                                                    int16_t value);
static inline ArrowErrorCode ArrowBufferAppendUInt16(struct ArrowBuffer* buffer,
                                                     uint16_t value);
static inline ArrowErrorCode ArrowBufferAppendInt32(struct ArrowBuffer* buffer,
                                                    int32_t value);
static inline ArrowErrorCode ArrowBufferAppendUInt32(struct ArrowBuffer* buffer,
                                                     uint32_t value);
static inline ArrowErrorCode ArrowBufferAppendInt64(struct ArrowBuffer* buffer,
                                                    int64_t value);
static inline ArrowErrorCode ArrowBufferAppendUInt64(struct ArrowBuffer* buffer,
                                                     uint64_t value);
static inline ArrowErrorCode ArrowBufferAppendDouble(struct ArrowBuffer* buffer,
                                                     double value);
static inline ArrowErrorCode ArrowBufferAppendFloat(struct ArrowBuffer* buffer, float value);
static inline ArrowErrorCode ArrowBufferAppendStringView(struct ArrowBuffer* buffer,
                                                         struct ArrowStringView value);
static inline ArrowErrorCode ArrowBufferAppendBufferView(struct ArrowBuffer* buffer,
                                                         struct ArrowBufferView value);

static inline int64_t ArrowBytesForBits(int64_t bits);
static inline int8_t ArrowBitGet(const uint8_t* bits, int64_t i);
static inline void ArrowBitSet(uint8_t* bits, int64_t i);
static inline void ArrowBitClear(uint8_t* bits, int64_t i);
static inline void ArrowBitSetTo(uint8_t* bits, int64_t i, uint8_t value);
static inline void ArrowBitsSetTo(uint8_t* bits, int64_t start_offset, int64_t length,
                                  uint8_t bits_are_set);
static inline int64_t ArrowBitCountSet(const uint8_t* bits, int64_t start_offset,
                                       int64_t length);
static inline void ArrowBitsUnpackInt8(const uint8_t* bits, int64_t start_offset,
                                       int64_t length, int8_t* out);
static inline void ArrowBitsUnpackInt32(const uint8_t* bits, int64_t start_offset,
                                        int64_t length, int32_t* out);

static inline void ArrowBitmapInit(struct ArrowBitmap* bitmap);
static inline void ArrowBitmapMove(struct ArrowBitmap* src, struct ArrowBitmap* dst);
static inline ArrowErrorCode ArrowBitmapReserve(struct ArrowBitmap* bitmap,
                                                int64_t additional_size_bits);
// Grows (or with shrink_to_fit, shrinks) the capacity to new_capacity_bits; the bit
// count changes only when it was larger (then it becomes new_capacity_bits).
static inline ArrowErrorCode ArrowBitmapResize(struct ArrowBitmap* bitmap,
                                               int64_t new_capacity_bits,
                                               char shrink_to_fit);
static inline ArrowErrorCode ArrowBitmapAppend(struct ArrowBitmap* bitmap,
                                               uint8_t bits_are_set, int64_t length);
static inline void ArrowBitmapAppendUnsafe(struct ArrowBitmap* bitmap, uint8_t bits_are_set,
                                           int64_t length);
static inline void ArrowBitmapAppendInt8Unsafe(struct ArrowBitmap* bitmap,
                                               const int8_t* values, int64_t n_values);
static inline void ArrowBitmapAppendInt32Unsafe(struct ArrowBitmap* bitmap,
                                                const int32_t* values, int64_t n_values);
static inline void ArrowBitmapReset(struct ArrowBitmap* bitmap);

// ========================================================================
// Building arrays
// ========================================================================

// An empty array of storage_type with the buffers its layout needs; children of
// nested types must be allocated and initialized by the caller.
NANOARROW_DLL ArrowErrorCode ArrowArrayInitFromType(struct ArrowArray* array,
                                      enum ArrowType storage_type);
// An empty array (children and dictionary included) matching schema.
NANOARROW_DLL ArrowErrorCode ArrowArrayInitFromSchema(struct ArrowArray* array,
                                        const struct ArrowSchema* schema,
                                        struct ArrowError* error);
// An array holding copies of the buffers array_view points to.
NANOARROW_DLL ArrowErrorCode ArrowArrayInitFromArrayView(struct ArrowArray* array,
                                           const struct ArrowArrayView* array_view,
                                           struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowArrayAllocateChildren(struct ArrowArray* array, int64_t n_children);
NANOARROW_DLL ArrowErrorCode ArrowArrayAllocateDictionary(struct ArrowArray* array);
// Takes ownership of bitmap's memory; the null count becomes unknown (-1).
NANOARROW_DLL void ArrowArraySetValidityBitmap(struct ArrowArray* array, struct ArrowBitmap* bitmap);
// Takes ownership of buffer's memory as buffer i of array->buffers (views: 0 validity,
// 1 views, 2 .. n + 1 the variadic buffers, n + 2 the variadic sizes).
NANOARROW_DLL ArrowErrorCode ArrowArraySetBuffer(struct ArrowArray* array, int64_t i,
                                   struct ArrowBuffer* buffer);
// Reserves room for additional_size_elements more elements in every buffer.
NANOARROW_DLL ArrowErrorCode ArrowArrayReserve(struct ArrowArray* array, int64_t additional_size_elements);
// Binary/string view arrays: adds nbuffers empty variadic data buffers.
NANOARROW_DLL ArrowErrorCode ArrowArrayAddVariadicBuffers(struct ArrowArray* array, int32_t nbuffers);
// Publishes buffer pointers, shrinks nothing, and validates at validation_level.
NANOARROW_DLL ArrowErrorCode ArrowArrayFinishBuilding(struct ArrowArray* array,
                                        enum ArrowValidationLevel validation_level,
                                        struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowArrayFinishBuildingDefault(struct ArrowArray* array,
                                               struct ArrowError* error);
#if defined(NANOARROW_WITH_ARRAY_APPEND_VIEW)
// Built on request (see nanoarrow_config.h). Appends the array_view->length elements
// array_view shows (from its offset) to an
// array in appending mode, by storage: struct and union children match by position,
// dictionary indices are appended as they are (the dictionary is left to the caller),
// run-end encoded runs are appended clipped to the view, and numbers convert when the
// value fits (integers of any width or sign, integers into floating point). EINVAL
// (nothing appended) when the structures differ; EINVAL part way through for a value
// that does not fit or offsets outside the view's children, after which the array
// should be released. array_view must not view array itself.
NANOARROW_DLL ArrowErrorCode ArrowArrayAppendArrayView(struct ArrowArray* array,
                                         const struct ArrowArrayView* array_view,
                                         struct ArrowError* error);
#endif

// nanoarrow_array_inline.h
static inline struct ArrowBitmap* ArrowArrayValidityBitmap(struct ArrowArray* array);
static inline struct ArrowBuffer* ArrowArrayBuffer(struct ArrowArray* array, int64_t i);
static inline int32_t ArrowArrayVariadicBufferCount(struct ArrowArray* array);
static inline ArrowErrorCode ArrowArrayStartAppending(struct ArrowArray* array);
// ArrowArrayStartAppending() out of line: children and a dictionary that were not made
// by ArrowArrayInit*() (moved in from elsewhere) are left as they are.
NANOARROW_DLL ArrowErrorCode ArrowPrivateArrayStartAppending(struct ArrowArray* array);
static inline ArrowErrorCode ArrowArrayShrinkToFit(struct ArrowArray* array);
static inline ArrowErrorCode ArrowArrayAppendNull(struct ArrowArray* array, int64_t n);
// Appends n non-null "zero" elements (empty strings/lists, zeroed values).
static inline ArrowErrorCode ArrowArrayAppendEmpty(struct ArrowArray* array, int64_t n);
// EINVAL when the value does not fit the storage type (or the type is not numeric).
static inline ArrowErrorCode ArrowArrayAppendInt(struct ArrowArray* array, int64_t value);
static inline ArrowErrorCode ArrowArrayAppendUInt(struct ArrowArray* array, uint64_t value);
static inline ArrowErrorCode ArrowArrayAppendDouble(struct ArrowArray* array, double value);
static inline ArrowErrorCode ArrowArrayAppendBytes(struct ArrowArray* array,
                                                   struct ArrowBufferView value);
static inline ArrowErrorCode ArrowArrayAppendString(struct ArrowArray* array,
                                                    struct ArrowStringView value);
static inline ArrowErrorCode ArrowArrayAppendInterval(struct ArrowArray* array,
                                                      const struct ArrowInterval* value);
static inline ArrowErrorCode ArrowArrayAppendDecimal(struct ArrowArray* array,
                                                     const struct ArrowDecimal* value);
// Closes the current list / struct / map element after its children were appended
// (EINVAL when a struct child does not hold exactly one more element).
static inline ArrowErrorCode ArrowArrayFinishElement(struct ArrowArray* array);
// Closes a union element whose value was appended to the child for type_id.
static inline ArrowErrorCode ArrowArrayFinishUnionElement(struct ArrowArray* array,
                                                          int8_t type_id);

// ========================================================================
// Reading arrays
// ========================================================================

NANOARROW_DLL void ArrowArrayViewInitFromType(struct ArrowArrayView* array_view,
                                enum ArrowType storage_type);
NANOARROW_DLL ArrowErrorCode ArrowArrayViewInitFromSchema(struct ArrowArrayView* array_view,
                                            const struct ArrowSchema* schema,
                                            struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowArrayViewAllocateChildren(struct ArrowArrayView* array_view,
                                              int64_t n_children);
NANOARROW_DLL ArrowErrorCode ArrowArrayViewAllocateDictionary(struct ArrowArrayView* array_view);
// Sets length and the buffer sizes a length implies (for views built by hand).
NANOARROW_DLL void ArrowArrayViewSetLength(struct ArrowArrayView* array_view, int64_t length);
// Points the view at array and validates at the DEFAULT level.
NANOARROW_DLL ArrowErrorCode ArrowArrayViewSetArray(struct ArrowArrayView* array_view,
                                      const struct ArrowArray* array,
                                      struct ArrowError* error);
// Points the view at array validating at the MINIMAL level only.
NANOARROW_DLL ArrowErrorCode ArrowArrayViewSetArrayMinimal(struct ArrowArrayView* array_view,
                                             const struct ArrowArray* array,
                                             struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowArrayViewValidate(struct ArrowArrayView* array_view,
                                      enum ArrowValidationLevel validation_level,
                                      struct ArrowError* error);
// *out = 1 when equal at level (see enum ArrowCompareLevel); otherwise 0 and reason
// names the first difference and where it is.
NANOARROW_DLL ArrowErrorCode ArrowArrayViewCompare(const struct ArrowArrayView* actual,
                                     const struct ArrowArrayView* expected,
                                     enum ArrowCompareLevel level, int* out,
                                     struct ArrowError* reason);
NANOARROW_DLL void ArrowArrayViewReset(struct ArrowArrayView* array_view);

// nanoarrow_array_view_inline.h
// Moves src (and what it owns) into dst, which must not own anything; src is left
// an empty view that need not be reset.
static inline void ArrowArrayViewMove(struct ArrowArrayView* src,
                                      struct ArrowArrayView* dst);
static inline int64_t ArrowArrayViewGetNumBuffers(struct ArrowArrayView* array_view);
static inline struct ArrowBufferView ArrowArrayViewGetBufferView(
    struct ArrowArrayView* array_view, int64_t i);
static inline enum ArrowBufferType ArrowArrayViewGetBufferType(
    struct ArrowArrayView* array_view, int64_t i);
static inline enum ArrowType ArrowArrayViewGetBufferDataType(
    struct ArrowArrayView* array_view, int64_t i);
static inline int64_t ArrowArrayViewGetBufferElementSizeBits(
    struct ArrowArrayView* array_view, int64_t i);
static inline int8_t ArrowArrayViewIsNull(const struct ArrowArrayView* array_view, int64_t i);
static inline int64_t ArrowArrayViewComputeNullCount(const struct ArrowArrayView* array_view);
static inline int8_t ArrowArrayViewUnionTypeId(const struct ArrowArrayView* array_view,
                                               int64_t i);
static inline int8_t ArrowArrayViewUnionChildIndex(const struct ArrowArrayView* array_view,
                                                   int64_t i);
static inline int64_t ArrowArrayViewUnionChildOffset(const struct ArrowArrayView* array_view,
                                                     int64_t i);
static inline int64_t ArrowArrayViewListChildOffset(const struct ArrowArrayView* array_view,
                                                    int64_t i);
static inline int64_t ArrowArrayViewGetIntUnsafe(const struct ArrowArrayView* array_view,
                                                 int64_t i);
static inline uint64_t ArrowArrayViewGetUIntUnsafe(const struct ArrowArrayView* array_view,
                                                   int64_t i);
static inline double ArrowArrayViewGetDoubleUnsafe(const struct ArrowArrayView* array_view,
                                                   int64_t i);
// The less common numeric types of the three getters above, out of line (index i
// with the offset applied). Pure, so a loop over the inline getters still unswitches.
NANOARROW_DLL int64_t ArrowPrivateArrayViewGetIntSlow(const struct ArrowArrayView* array_view,
                                        int64_t i) NANOARROW_PURE;
NANOARROW_DLL uint64_t ArrowPrivateArrayViewGetUIntSlow(const struct ArrowArrayView* array_view,
                                          int64_t i) NANOARROW_PURE;
NANOARROW_DLL double ArrowPrivateArrayViewGetDoubleSlow(const struct ArrowArrayView* array_view,
                                          int64_t i) NANOARROW_PURE;
static inline struct ArrowStringView ArrowArrayViewGetStringUnsafe(
    const struct ArrowArrayView* array_view, int64_t i);
static inline struct ArrowBufferView ArrowArrayViewGetBytesUnsafe(
    const struct ArrowArrayView* array_view, int64_t i);
static inline void ArrowArrayViewGetDecimalUnsafe(const struct ArrowArrayView* array_view,
                                                  int64_t i, struct ArrowDecimal* out);
static inline void ArrowArrayViewGetIntervalUnsafe(const struct ArrowArrayView* array_view,
                                                   int64_t i, struct ArrowInterval* out);

// ========================================================================
// Shared (reference-counted) buffers and arrays
// ========================================================================
//
// A shared buffer is a struct ArrowBuffer that holds one reference to memory
// owned elsewhere (a buffer moved into it, or an array). ArrowBufferReset() on it
// drops that reference; the memory is freed with the last one. Shared buffers
// cannot grow. The counts are atomic when ArrowSharedBufferIsThreadSafe() says so;
// otherwise every holder of one piece of memory must release it on one thread.

#if defined(NANOARROW_NAMESPACE)
#define ArrowSharedBufferInit NANOARROW_SYMBOL(ArrowSharedBufferInit)
#define ArrowSharedBufferClone NANOARROW_SYMBOL(ArrowSharedBufferClone)
#define ArrowSharedBufferIsThreadSafe NANOARROW_SYMBOL(ArrowSharedBufferIsThreadSafe)
#define ArrowIsSharedBuffer NANOARROW_SYMBOL(ArrowIsSharedBuffer)
#define ArrowSharedArrayInit NANOARROW_SYMBOL(ArrowSharedArrayInit)
#define ArrowSharedArrayRelease NANOARROW_SYMBOL(ArrowSharedArrayRelease)
#define ArrowSharedArrayBuffer NANOARROW_SYMBOL(ArrowSharedArrayBuffer)
#define ArrowArrayIsInternal NANOARROW_SYMBOL(ArrowArrayIsInternal)
#define ArrowArrayMoveShared NANOARROW_SYMBOL(ArrowArrayMoveShared)
#define ArrowArrayCloneShared NANOARROW_SYMBOL(ArrowArrayCloneShared)
#endif

// Moves src (left empty) into reference-counted memory and makes shared (which is
// overwritten, not reset) its first reference, with src's bytes and size. ENOMEM
// leaves src untouched.
NANOARROW_DLL ArrowErrorCode ArrowSharedBufferInit(struct ArrowBuffer* shared,
                                                   struct ArrowBuffer* src);
// Makes out (overwritten, not reset) one more reference to the memory of the shared
// buffer shared, with the same bytes and size. EINVAL when shared is not a shared
// buffer.
NANOARROW_DLL ArrowErrorCode ArrowSharedBufferClone(struct ArrowBuffer* shared,
                                                    struct ArrowBuffer* out);
// Non-zero when the reference counts are atomic, so that the holders of one piece
// of memory may release it from different threads.
NANOARROW_DLL int ArrowSharedBufferIsThreadSafe(void);
// Non-zero when buffer is a shared buffer (made by ArrowSharedBufferInit,
// ArrowSharedBufferClone or ArrowSharedArrayBuffer).
NANOARROW_DLL int ArrowIsSharedBuffer(struct ArrowBuffer* buffer);

// One reference to an array held in reference-counted memory. The array's buffers
// can be handed out as shared buffers (ArrowSharedArrayBuffer) that keep the whole
// array alive.
struct ArrowSharedArray {
  // Private: the reference-counted block (NULL once released).
  void* private_data;
};

// Moves array (released-marked afterwards) into reference-counted memory and makes
// shared its first reference. ENOMEM leaves array untouched.
NANOARROW_DLL ArrowErrorCode ArrowSharedArrayInit(struct ArrowSharedArray* shared,
                                                  struct ArrowArray* array);
// Drops this reference (nothing happens when it was already dropped).
NANOARROW_DLL void ArrowSharedArrayRelease(struct ArrowSharedArray* shared);
// Makes out (overwritten, not reset) a shared buffer over buffer i of the array,
// holding one more reference to it. Its size is the buffer's size for an array
// built by this library (ArrowArrayIsInternal) and 0 for any other array, whose
// buffer sizes are not known. A buffer without data gives an empty, ordinary
// buffer. EINVAL when i is not in [0, n_buffers) or shared was released.
NANOARROW_DLL ArrowErrorCode ArrowSharedArrayBuffer(struct ArrowSharedArray* shared,
                                                    int64_t i, struct ArrowBuffer* out);

// Non-zero when array was made by ArrowArrayInit*() (its buffers are then
// reachable with ArrowArrayBuffer()).
NANOARROW_DLL int ArrowArrayIsInternal(struct ArrowArray* array);
// Moves array into shared (overwritten) as an array made by this library whose
// every buffer is a shared buffer, recursively through children and dictionary;
// array is marked released. Arrays that already are so are moved as they are;
// the buffers of others keep the original array (or child) alive until the last
// buffer is released. On failure both array and shared are released. Binary and
// string view arrays (more than three buffers) give ENOTSUP.
NANOARROW_DLL ArrowErrorCode ArrowArrayMoveShared(struct ArrowArray* array,
                                                  struct ArrowArray* shared);
// Makes array (overwritten) a new array over the same memory as shared, which
// must be the result of ArrowArrayMoveShared (or ArrowArrayCloneShared): each buffer
// is one more reference, so shared and the clone may be released in any order.
// EINVAL when shared is not such an array; on other failures array is released.
NANOARROW_DLL ArrowErrorCode ArrowArrayCloneShared(struct ArrowArray* shared,
                                                   struct ArrowArray* array);

// ========================================================================
// Streams
// ========================================================================

// A stream over n_arrays arrays set with ArrowBasicArrayStreamSetArray; takes
// ownership of schema.
NANOARROW_DLL ArrowErrorCode ArrowBasicArrayStreamInit(struct ArrowArrayStream* array_stream,
                                         struct ArrowSchema* schema, int64_t n_arrays);
// Takes ownership of array.
NANOARROW_DLL void ArrowBasicArrayStreamSetArray(struct ArrowArrayStream* array_stream, int64_t i,
                                   struct ArrowArray* array);
// Checks every array against the schema (DEFAULT level).
NANOARROW_DLL ArrowErrorCode ArrowBasicArrayStreamValidate(const struct ArrowArrayStream* array_stream,
                                             struct ArrowError* error);

#ifdef __cplusplus
}
#endif

#include "nanoarrow/nanoarrow_buffer_inline.h"
#include "nanoarrow/nanoarrow_array_inline.h"
#include "nanoarrow/nanoarrow_array_view_inline.h"

#endif  // NANOARROW_H_INCLUDED
