/* The public names of nanoarrow's core header (nanoarrow.h) as code written for
 * nanoarrow 0.9.0 and its main branch uses them, for the compile checks in
 * tests/common/test_api_surface.c (C) and tests/cpp/test_api_surface.cc (C++).
 *
 * Each entry states a name with the type upstream declares for it; the users
 * below turn a missing name, or a different signature, enum value or struct
 * member, into a compile error (C++: an exact function-pointer initialization; C
 * with GCC or Clang: a type-compatibility check as well). Sources of the facts:
 * nanoarrow's 0.9.0 and main-branch API reference (arrow.apache.org/nanoarrow,
 * doxygen pages) and its headers; see /work/notes/h23-api-diff.md.
 *
 * NA_API_CORE(X) calls X(RETURN_TYPE, NAME, (PARAMETER TYPES)) for every function,
 * exported or static inline. */

#ifndef NANOARROW_TESTS_API_SURFACE_CORE_H_INCLUDED
#define NANOARROW_TESTS_API_SURFACE_CORE_H_INCLUDED

#include "nanoarrow/nanoarrow.h"

#define NA_API_CORE(X)                                                                 \
  /* Version, errors, memory */                                                        \
  X(const char*, ArrowNanoarrowVersion, (void))                                        \
  X(int, ArrowNanoarrowVersionInt, (void))                                             \
  X(void*, ArrowMalloc, (int64_t))                                                     \
  X(void*, ArrowRealloc, (void*, int64_t))                                             \
  X(void, ArrowFree, (void*))                                                          \
  X(struct ArrowBufferAllocator, ArrowBufferAllocatorDefault, (void))                  \
  X(struct ArrowBufferAllocator, ArrowBufferDeallocator,                               \
    (ArrowBufferDeallocatorCallback, void*))                                           \
  X(int, ArrowErrorSet, (struct ArrowError*, const char*, ...))                        \
  X(void, ArrowErrorInit, (struct ArrowError*))                                        \
  X(const char*, ArrowErrorMessage, (struct ArrowError*))                              \
  X(void, ArrowErrorSetString, (struct ArrowError*, const char*))                      \
  /* C data interface helpers */                                                       \
  X(void, ArrowSchemaMove, (struct ArrowSchema*, struct ArrowSchema*))                 \
  X(void, ArrowSchemaRelease, (struct ArrowSchema*))                                   \
  X(void, ArrowArrayMove, (struct ArrowArray*, struct ArrowArray*))                    \
  X(void, ArrowArrayRelease, (struct ArrowArray*))                                     \
  X(void, ArrowArrayStreamMove, (struct ArrowArrayStream*, struct ArrowArrayStream*))  \
  X(ArrowErrorCode, ArrowArrayStreamGetSchema,                                         \
    (struct ArrowArrayStream*, struct ArrowSchema*, struct ArrowError*))               \
  X(ArrowErrorCode, ArrowArrayStreamGetNext,                                           \
    (struct ArrowArrayStream*, struct ArrowArray*, struct ArrowError*))                \
  X(const char*, ArrowArrayStreamGetLastError, (struct ArrowArrayStream*))             \
  X(void, ArrowArrayStreamRelease, (struct ArrowArrayStream*))                         \
  /* Utilities */                                                                      \
  X(const char*, ArrowTypeString, (enum ArrowType))                                    \
  X(const char*, ArrowTimeUnitString, (enum ArrowTimeUnit))                            \
  X(struct ArrowStringView, ArrowCharView, (const char*))                              \
  X(char, _ArrowIsLittleEndian, (void))                                                \
  X(void, ArrowLayoutInit, (struct ArrowLayout*, enum ArrowType))                      \
  X(void, ArrowIntervalInit, (struct ArrowInterval*, enum ArrowType))                  \
  X(void, ArrowDecimalInit, (struct ArrowDecimal*, int32_t, int32_t, int32_t))         \
  X(void, ArrowDecimalGetBytes, (const struct ArrowDecimal*, uint8_t*))                \
  X(int64_t, ArrowDecimalSign, (const struct ArrowDecimal*))                           \
  X(void, ArrowDecimalSetInt, (struct ArrowDecimal*, int64_t))                         \
  X(void, ArrowDecimalNegate, (struct ArrowDecimal*))                                  \
  X(void, ArrowDecimalSetBytes, (struct ArrowDecimal*, const uint8_t*))                \
  X(ArrowErrorCode, ArrowDecimalSetDigits, (struct ArrowDecimal*, struct ArrowStringView)) \
  X(ArrowErrorCode, ArrowDecimalAppendDigitsToBuffer,                                  \
    (const struct ArrowDecimal*, struct ArrowBuffer*))                                 \
  X(ArrowErrorCode, ArrowDecimalAppendStringToBuffer,                                  \
    (const struct ArrowDecimal*, struct ArrowBuffer*))                                 \
  X(uint16_t, ArrowFloatToHalfFloat, (float))                                          \
  X(float, ArrowHalfFloatToFloat, (uint16_t))                                          \
  X(int64_t, ArrowResolveChunk64, (int64_t, const int64_t*, int64_t, int64_t))         \
  /* Creating schemas */                                                               \
  X(void, ArrowSchemaInit, (struct ArrowSchema*))                                      \
  X(ArrowErrorCode, ArrowSchemaInitFromType, (struct ArrowSchema*, enum ArrowType))    \
  X(int64_t, ArrowSchemaToString, (const struct ArrowSchema*, char*, int64_t, char))   \
  X(ArrowErrorCode, ArrowSchemaSetType, (struct ArrowSchema*, enum ArrowType))         \
  X(ArrowErrorCode, ArrowSchemaSetTypeStruct, (struct ArrowSchema*, int64_t))          \
  X(ArrowErrorCode, ArrowSchemaSetTypeFixedSize,                                       \
    (struct ArrowSchema*, enum ArrowType, int32_t))                                    \
  X(ArrowErrorCode, ArrowSchemaSetTypeDecimal,                                         \
    (struct ArrowSchema*, enum ArrowType, int32_t, int32_t))                           \
  X(ArrowErrorCode, ArrowSchemaSetTypeRunEndEncoded, (struct ArrowSchema*, enum ArrowType)) \
  X(ArrowErrorCode, ArrowSchemaSetTypeDateTime,                                        \
    (struct ArrowSchema*, enum ArrowType, enum ArrowTimeUnit, const char*))            \
  X(ArrowErrorCode, ArrowSchemaSetTypeUnion, (struct ArrowSchema*, enum ArrowType, int64_t)) \
  X(ArrowErrorCode, ArrowSchemaDeepCopy, (const struct ArrowSchema*, struct ArrowSchema*)) \
  X(ArrowErrorCode, ArrowSchemaSetFormat, (struct ArrowSchema*, const char*))          \
  X(ArrowErrorCode, ArrowSchemaSetName, (struct ArrowSchema*, const char*))            \
  X(ArrowErrorCode, ArrowSchemaSetMetadata, (struct ArrowSchema*, const char*))        \
  X(ArrowErrorCode, ArrowSchemaAllocateChildren, (struct ArrowSchema*, int64_t))       \
  X(ArrowErrorCode, ArrowSchemaAllocateDictionary, (struct ArrowSchema*))              \
  /* Metadata */                                                                       \
  X(ArrowErrorCode, ArrowMetadataReaderInit, (struct ArrowMetadataReader*, const char*)) \
  X(ArrowErrorCode, ArrowMetadataReaderRead,                                           \
    (struct ArrowMetadataReader*, struct ArrowStringView*, struct ArrowStringView*))   \
  X(int64_t, ArrowMetadataSizeOf, (const char*))                                       \
  X(char, ArrowMetadataHasKey, (const char*, struct ArrowStringView))                  \
  X(ArrowErrorCode, ArrowMetadataGetValue,                                             \
    (const char*, struct ArrowStringView, struct ArrowStringView*))                    \
  X(ArrowErrorCode, ArrowMetadataBuilderInit, (struct ArrowBuffer*, const char*))      \
  X(ArrowErrorCode, ArrowMetadataBuilderAppend,                                        \
    (struct ArrowBuffer*, struct ArrowStringView, struct ArrowStringView))             \
  X(ArrowErrorCode, ArrowMetadataBuilderSet,                                           \
    (struct ArrowBuffer*, struct ArrowStringView, struct ArrowStringView))             \
  X(ArrowErrorCode, ArrowMetadataBuilderRemove, (struct ArrowBuffer*, struct ArrowStringView)) \
  /* Reading schemas */                                                                \
  X(ArrowErrorCode, ArrowSchemaViewInit,                                               \
    (struct ArrowSchemaView*, const struct ArrowSchema*, struct ArrowError*))          \
  /* Buffers */                                                                        \
  X(void, ArrowBufferInit, (struct ArrowBuffer*))                                      \
  X(ArrowErrorCode, ArrowBufferSetAllocator,                                           \
    (struct ArrowBuffer*, struct ArrowBufferAllocator))                                \
  X(void, ArrowBufferReset, (struct ArrowBuffer*))                                     \
  X(void, ArrowBufferMove, (struct ArrowBuffer*, struct ArrowBuffer*))                 \
  X(ArrowErrorCode, ArrowBufferResize, (struct ArrowBuffer*, int64_t, char))           \
  X(ArrowErrorCode, ArrowBufferReserve, (struct ArrowBuffer*, int64_t))                \
  X(void, ArrowBufferAppendUnsafe, (struct ArrowBuffer*, const void*, int64_t))        \
  X(ArrowErrorCode, ArrowBufferAppend, (struct ArrowBuffer*, const void*, int64_t))    \
  X(ArrowErrorCode, ArrowBufferAppendFill, (struct ArrowBuffer*, uint8_t, int64_t))    \
  X(ArrowErrorCode, ArrowBufferAppendInt8, (struct ArrowBuffer*, int8_t))              \
  X(ArrowErrorCode, ArrowBufferAppendUInt8, (struct ArrowBuffer*, uint8_t))            \
  X(ArrowErrorCode, ArrowBufferAppendInt16, (struct ArrowBuffer*, int16_t))            \
  X(ArrowErrorCode, ArrowBufferAppendUInt16, (struct ArrowBuffer*, uint16_t))          \
  X(ArrowErrorCode, ArrowBufferAppendInt32, (struct ArrowBuffer*, int32_t))            \
  X(ArrowErrorCode, ArrowBufferAppendUInt32, (struct ArrowBuffer*, uint32_t))          \
  X(ArrowErrorCode, ArrowBufferAppendInt64, (struct ArrowBuffer*, int64_t))            \
  X(ArrowErrorCode, ArrowBufferAppendUInt64, (struct ArrowBuffer*, uint64_t))          \
  X(ArrowErrorCode, ArrowBufferAppendDouble, (struct ArrowBuffer*, double))            \
  X(ArrowErrorCode, ArrowBufferAppendFloat, (struct ArrowBuffer*, float))              \
  X(ArrowErrorCode, ArrowBufferAppendStringView, (struct ArrowBuffer*, struct ArrowStringView)) \
  X(ArrowErrorCode, ArrowBufferAppendBufferView, (struct ArrowBuffer*, struct ArrowBufferView)) \
  /* Bitmaps */                                                                        \
  X(int8_t, ArrowBitGet, (const uint8_t*, int64_t))                                    \
  X(void, ArrowBitSet, (uint8_t*, int64_t))                                            \
  X(void, ArrowBitClear, (uint8_t*, int64_t))                                          \
  X(void, ArrowBitSetTo, (uint8_t*, int64_t, uint8_t))                                 \
  X(void, ArrowBitsSetTo, (uint8_t*, int64_t, int64_t, uint8_t))                       \
  X(int64_t, ArrowBitCountSet, (const uint8_t*, int64_t, int64_t))                     \
  X(void, ArrowBitsUnpackInt8, (const uint8_t*, int64_t, int64_t, int8_t*))            \
  X(void, ArrowBitsUnpackInt32, (const uint8_t*, int64_t, int64_t, int32_t*))          \
  X(void, ArrowBitmapInit, (struct ArrowBitmap*))                                      \
  X(void, ArrowBitmapMove, (struct ArrowBitmap*, struct ArrowBitmap*))                 \
  X(ArrowErrorCode, ArrowBitmapReserve, (struct ArrowBitmap*, int64_t))                \
  X(ArrowErrorCode, ArrowBitmapResize, (struct ArrowBitmap*, int64_t, char))           \
  X(ArrowErrorCode, ArrowBitmapAppend, (struct ArrowBitmap*, uint8_t, int64_t))        \
  X(void, ArrowBitmapAppendUnsafe, (struct ArrowBitmap*, uint8_t, int64_t))            \
  X(void, ArrowBitmapAppendInt8Unsafe, (struct ArrowBitmap*, const int8_t*, int64_t))  \
  X(void, ArrowBitmapAppendInt32Unsafe, (struct ArrowBitmap*, const int32_t*, int64_t)) \
  X(void, ArrowBitmapReset, (struct ArrowBitmap*))                                     \
  /* Creating arrays */                                                                \
  X(ArrowErrorCode, ArrowArrayInitFromType, (struct ArrowArray*, enum ArrowType))      \
  X(ArrowErrorCode, ArrowArrayInitFromSchema,                                          \
    (struct ArrowArray*, const struct ArrowSchema*, struct ArrowError*))               \
  X(ArrowErrorCode, ArrowArrayInitFromArrayView,                                       \
    (struct ArrowArray*, const struct ArrowArrayView*, struct ArrowError*))            \
  X(ArrowErrorCode, ArrowArrayAllocateChildren, (struct ArrowArray*, int64_t))         \
  X(ArrowErrorCode, ArrowArrayAllocateDictionary, (struct ArrowArray*))                \
  X(void, ArrowArraySetValidityBitmap, (struct ArrowArray*, struct ArrowBitmap*))      \
  X(ArrowErrorCode, ArrowArraySetBuffer, (struct ArrowArray*, int64_t, struct ArrowBuffer*)) \
  X(ArrowErrorCode, ArrowArrayAddVariadicBuffers, (struct ArrowArray*, int32_t))       \
  X(struct ArrowBitmap*, ArrowArrayValidityBitmap, (struct ArrowArray*))               \
  X(struct ArrowBuffer*, ArrowArrayBuffer, (struct ArrowArray*, int64_t))              \
  /* underscore helper nanoarrow declares; its R package calls it */                  \
  X(int32_t, _ArrowParseUnionTypeIds, (const char*, int8_t*))                         \
  X(int8_t, _ArrowUnionTypeIdsWillEqualChildIndices, (const char*, int64_t))         \
  X(ArrowErrorCode, ArrowArrayStartAppending, (struct ArrowArray*))                    \
  X(ArrowErrorCode, ArrowArrayReserve, (struct ArrowArray*, int64_t))                  \
  X(ArrowErrorCode, ArrowArrayAppendNull, (struct ArrowArray*, int64_t))               \
  X(ArrowErrorCode, ArrowArrayAppendEmpty, (struct ArrowArray*, int64_t))              \
  X(ArrowErrorCode, ArrowArrayAppendInt, (struct ArrowArray*, int64_t))                \
  X(ArrowErrorCode, ArrowArrayAppendUInt, (struct ArrowArray*, uint64_t))              \
  X(ArrowErrorCode, ArrowArrayAppendDouble, (struct ArrowArray*, double))              \
  X(ArrowErrorCode, ArrowArrayAppendBytes, (struct ArrowArray*, struct ArrowBufferView)) \
  X(ArrowErrorCode, ArrowArrayAppendString, (struct ArrowArray*, struct ArrowStringView)) \
  X(ArrowErrorCode, ArrowArrayAppendInterval, (struct ArrowArray*, const struct ArrowInterval*)) \
  X(ArrowErrorCode, ArrowArrayAppendDecimal, (struct ArrowArray*, const struct ArrowDecimal*)) \
  X(ArrowErrorCode, ArrowArrayFinishElement, (struct ArrowArray*))                     \
  X(ArrowErrorCode, ArrowArrayFinishUnionElement, (struct ArrowArray*, int8_t))        \
  X(ArrowErrorCode, ArrowArrayShrinkToFit, (struct ArrowArray*))                       \
  X(ArrowErrorCode, ArrowArrayFinishBuildingDefault, (struct ArrowArray*, struct ArrowError*)) \
  X(ArrowErrorCode, ArrowArrayFinishBuilding,                                          \
    (struct ArrowArray*, enum ArrowValidationLevel, struct ArrowError*))               \
  /* Reading arrays */                                                                 \
  X(void, ArrowArrayViewInitFromType, (struct ArrowArrayView*, enum ArrowType))        \
  X(void, ArrowArrayViewMove, (struct ArrowArrayView*, struct ArrowArrayView*))        \
  X(ArrowErrorCode, ArrowArrayViewInitFromSchema,                                      \
    (struct ArrowArrayView*, const struct ArrowSchema*, struct ArrowError*))           \
  X(ArrowErrorCode, ArrowArrayViewAllocateChildren, (struct ArrowArrayView*, int64_t)) \
  X(ArrowErrorCode, ArrowArrayViewAllocateDictionary, (struct ArrowArrayView*))        \
  X(void, ArrowArrayViewSetLength, (struct ArrowArrayView*, int64_t))                  \
  X(ArrowErrorCode, ArrowArrayViewSetArray,                                            \
    (struct ArrowArrayView*, const struct ArrowArray*, struct ArrowError*))            \
  X(ArrowErrorCode, ArrowArrayViewSetArrayMinimal,                                     \
    (struct ArrowArrayView*, const struct ArrowArray*, struct ArrowError*))            \
  X(int64_t, ArrowArrayViewGetNumBuffers, (struct ArrowArrayView*))                    \
  X(struct ArrowBufferView, ArrowArrayViewGetBufferView, (struct ArrowArrayView*, int64_t)) \
  X(enum ArrowBufferType, ArrowArrayViewGetBufferType, (struct ArrowArrayView*, int64_t)) \
  X(enum ArrowType, ArrowArrayViewGetBufferDataType, (struct ArrowArrayView*, int64_t)) \
  X(int64_t, ArrowArrayViewGetBufferElementSizeBits, (struct ArrowArrayView*, int64_t)) \
  X(ArrowErrorCode, ArrowArrayViewValidate,                                            \
    (struct ArrowArrayView*, enum ArrowValidationLevel, struct ArrowError*))           \
  X(ArrowErrorCode, ArrowArrayViewCompare,                                             \
    (const struct ArrowArrayView*, const struct ArrowArrayView*, enum ArrowCompareLevel, \
     int*, struct ArrowError*))                                                        \
  X(void, ArrowArrayViewReset, (struct ArrowArrayView*))                               \
  X(int8_t, ArrowArrayViewIsNull, (const struct ArrowArrayView*, int64_t))             \
  X(int64_t, ArrowArrayViewComputeNullCount, (const struct ArrowArrayView*))           \
  X(int8_t, ArrowArrayViewUnionTypeId, (const struct ArrowArrayView*, int64_t))        \
  X(int8_t, ArrowArrayViewUnionChildIndex, (const struct ArrowArrayView*, int64_t))    \
  X(int64_t, ArrowArrayViewUnionChildOffset, (const struct ArrowArrayView*, int64_t))  \
  X(int64_t, ArrowArrayViewGetIntUnsafe, (const struct ArrowArrayView*, int64_t))      \
  X(uint64_t, ArrowArrayViewGetUIntUnsafe, (const struct ArrowArrayView*, int64_t))    \
  X(double, ArrowArrayViewGetDoubleUnsafe, (const struct ArrowArrayView*, int64_t))    \
  X(struct ArrowStringView, ArrowArrayViewGetStringUnsafe,                             \
    (const struct ArrowArrayView*, int64_t))                                           \
  X(struct ArrowBufferView, ArrowArrayViewGetBytesUnsafe,                              \
    (const struct ArrowArrayView*, int64_t))                                           \
  X(void, ArrowArrayViewGetDecimalUnsafe,                                              \
    (const struct ArrowArrayView*, int64_t, struct ArrowDecimal*))                     \
  /* Shared buffers and arrays (0.9.0) */                                              \
  X(ArrowErrorCode, ArrowSharedBufferInit, (struct ArrowBuffer*, struct ArrowBuffer*)) \
  X(ArrowErrorCode, ArrowSharedBufferClone, (struct ArrowBuffer*, struct ArrowBuffer*)) \
  X(int, ArrowSharedBufferIsThreadSafe, (void))                                        \
  X(int, ArrowIsSharedBuffer, (struct ArrowBuffer*))                                   \
  X(ArrowErrorCode, ArrowSharedArrayInit, (struct ArrowSharedArray*, struct ArrowArray*)) \
  X(void, ArrowSharedArrayRelease, (struct ArrowSharedArray*))                         \
  X(ArrowErrorCode, ArrowSharedArrayBuffer,                                            \
    (struct ArrowSharedArray*, int64_t, struct ArrowBuffer*))                          \
  X(int, ArrowArrayIsInternal, (struct ArrowArray*))                                   \
  X(ArrowErrorCode, ArrowArrayMoveShared, (struct ArrowArray*, struct ArrowArray*))    \
  X(ArrowErrorCode, ArrowArrayCloneShared, (struct ArrowArray*, struct ArrowArray*))   \
  /* Basic array streams */                                                            \
  X(ArrowErrorCode, ArrowBasicArrayStreamInit,                                         \
    (struct ArrowArrayStream*, struct ArrowSchema*, int64_t))                          \
  X(void, ArrowBasicArrayStreamSetArray, (struct ArrowArrayStream*, int64_t, struct ArrowArray*)) \
  X(ArrowErrorCode, ArrowBasicArrayStreamValidate,                                     \
    (const struct ArrowArrayStream*, struct ArrowError*))

/* NA_ENUM_CORE(X) calls X(ENUMERATOR, VALUE) for enumerators whose values code may
 * store or compare (nanoarrow's headers give them these values). */
#define NA_ENUM_CORE(X)                                                                \
  X(NANOARROW_TYPE_UNINITIALIZED, 0) X(NANOARROW_TYPE_NA, 1) X(NANOARROW_TYPE_BOOL, 2) \
  X(NANOARROW_TYPE_UINT8, 3) X(NANOARROW_TYPE_INT8, 4) X(NANOARROW_TYPE_UINT16, 5)     \
  X(NANOARROW_TYPE_INT16, 6) X(NANOARROW_TYPE_UINT32, 7) X(NANOARROW_TYPE_INT32, 8)    \
  X(NANOARROW_TYPE_UINT64, 9) X(NANOARROW_TYPE_INT64, 10)                              \
  X(NANOARROW_TYPE_HALF_FLOAT, 11) X(NANOARROW_TYPE_FLOAT, 12)                         \
  X(NANOARROW_TYPE_DOUBLE, 13) X(NANOARROW_TYPE_STRING, 14)                            \
  X(NANOARROW_TYPE_BINARY, 15) X(NANOARROW_TYPE_FIXED_SIZE_BINARY, 16)                 \
  X(NANOARROW_TYPE_DATE32, 17) X(NANOARROW_TYPE_DATE64, 18)                            \
  X(NANOARROW_TYPE_TIMESTAMP, 19) X(NANOARROW_TYPE_TIME32, 20)                         \
  X(NANOARROW_TYPE_TIME64, 21) X(NANOARROW_TYPE_INTERVAL_MONTHS, 22)                   \
  X(NANOARROW_TYPE_INTERVAL_DAY_TIME, 23) X(NANOARROW_TYPE_DECIMAL128, 24)             \
  X(NANOARROW_TYPE_DECIMAL256, 25) X(NANOARROW_TYPE_LIST, 26)                          \
  X(NANOARROW_TYPE_STRUCT, 27) X(NANOARROW_TYPE_SPARSE_UNION, 28)                      \
  X(NANOARROW_TYPE_DENSE_UNION, 29) X(NANOARROW_TYPE_DICTIONARY, 30)                   \
  X(NANOARROW_TYPE_MAP, 31) X(NANOARROW_TYPE_EXTENSION, 32)                            \
  X(NANOARROW_TYPE_FIXED_SIZE_LIST, 33) X(NANOARROW_TYPE_DURATION, 34)                 \
  X(NANOARROW_TYPE_LARGE_STRING, 35) X(NANOARROW_TYPE_LARGE_BINARY, 36)                \
  X(NANOARROW_TYPE_LARGE_LIST, 37) X(NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO, 38)       \
  X(NANOARROW_TYPE_RUN_END_ENCODED, 39) X(NANOARROW_TYPE_BINARY_VIEW, 40)              \
  X(NANOARROW_TYPE_STRING_VIEW, 41) X(NANOARROW_TYPE_DECIMAL32, 42)                    \
  X(NANOARROW_TYPE_DECIMAL64, 43) X(NANOARROW_TYPE_LIST_VIEW, 44)                      \
  X(NANOARROW_TYPE_LARGE_LIST_VIEW, 45)                                                \
  X(NANOARROW_TIME_UNIT_SECOND, 0) X(NANOARROW_TIME_UNIT_MILLI, 1)                     \
  X(NANOARROW_TIME_UNIT_MICRO, 2) X(NANOARROW_TIME_UNIT_NANO, 3)                       \
  X(NANOARROW_VALIDATION_LEVEL_NONE, 0) X(NANOARROW_VALIDATION_LEVEL_MINIMAL, 1)       \
  X(NANOARROW_VALIDATION_LEVEL_DEFAULT, 2) X(NANOARROW_VALIDATION_LEVEL_FULL, 3)       \
  X(NANOARROW_COMPARE_IDENTICAL, 0)                                                    \
  X(NANOARROW_BUFFER_TYPE_NONE, 0) X(NANOARROW_BUFFER_TYPE_VALIDITY, 1)                \
  X(NANOARROW_BUFFER_TYPE_TYPE_ID, 2) X(NANOARROW_BUFFER_TYPE_UNION_OFFSET, 3)         \
  X(NANOARROW_BUFFER_TYPE_DATA_OFFSET, 4) X(NANOARROW_BUFFER_TYPE_DATA, 5)             \
  X(NANOARROW_BUFFER_TYPE_VARIADIC_DATA, 6) X(NANOARROW_BUFFER_TYPE_VARIADIC_SIZE, 7)  \
  X(NANOARROW_BUFFER_TYPE_VIEW_OFFSET, 8) X(NANOARROW_BUFFER_TYPE_SIZE, 9)             \
  X(NANOARROW_OK, 0) X(NANOARROW_MAX_FIXED_BUFFERS, 3)                                 \
  X(ARROW_FLAG_DICTIONARY_ORDERED, 1) X(ARROW_FLAG_NULLABLE, 2)                        \
  X(ARROW_FLAG_MAP_KEYS_SORTED, 4)                                                     \
  X(NANOARROW_FLAG_ALL_SUPPORTED, 7)                                                   \
  X(NANOARROW_BINARY_VIEW_INLINE_SIZE, 12) X(NANOARROW_BINARY_VIEW_PREFIX_SIZE, 4)

/* NA_MEMBER_CORE(X) calls X(STRUCT, MEMBER, TYPE) for every member of the public
 * structs, in declaration order (the users check the order too). */
#define NA_MEMBER_CORE(X)                                                              \
  X(ArrowSchema, format, const char*) X(ArrowSchema, name, const char*)                \
  X(ArrowSchema, metadata, const char*) X(ArrowSchema, flags, int64_t)                 \
  X(ArrowSchema, n_children, int64_t) X(ArrowSchema, children, struct ArrowSchema**)   \
  X(ArrowSchema, dictionary, struct ArrowSchema*)                                      \
  X(ArrowSchema, release, void (*)(struct ArrowSchema*))                               \
  X(ArrowSchema, private_data, void*)                                                  \
  X(ArrowArray, length, int64_t) X(ArrowArray, null_count, int64_t)                    \
  X(ArrowArray, offset, int64_t) X(ArrowArray, n_buffers, int64_t)                     \
  X(ArrowArray, n_children, int64_t) X(ArrowArray, buffers, const void**)              \
  X(ArrowArray, children, struct ArrowArray**) X(ArrowArray, dictionary, struct ArrowArray*) \
  X(ArrowArray, release, void (*)(struct ArrowArray*)) X(ArrowArray, private_data, void*) \
  X(ArrowArrayStream, get_schema, int (*)(struct ArrowArrayStream*, struct ArrowSchema*)) \
  X(ArrowArrayStream, get_next, int (*)(struct ArrowArrayStream*, struct ArrowArray*)) \
  X(ArrowArrayStream, get_last_error, const char* (*)(struct ArrowArrayStream*))       \
  X(ArrowArrayStream, release, void (*)(struct ArrowArrayStream*))                     \
  X(ArrowArrayStream, private_data, void*)                                             \
  X(ArrowError, message, char[1024])                                                   \
  X(ArrowStringView, data, const char*) X(ArrowStringView, size_bytes, int64_t)        \
  X(ArrowBufferView, data, union ArrowBufferViewData)                                  \
  X(ArrowBufferView, size_bytes, int64_t)                                              \
  X(ArrowBufferAllocator, reallocate,                                                  \
    uint8_t * (*)(struct ArrowBufferAllocator*, uint8_t*, int64_t, int64_t))           \
  X(ArrowBufferAllocator, free, void (*)(struct ArrowBufferAllocator*, uint8_t*, int64_t)) \
  X(ArrowBufferAllocator, private_data, void*)                                         \
  X(ArrowBuffer, data, uint8_t*) X(ArrowBuffer, size_bytes, int64_t)                   \
  X(ArrowBuffer, capacity_bytes, int64_t)                                              \
  X(ArrowBuffer, allocator, struct ArrowBufferAllocator)                               \
  X(ArrowBitmap, buffer, struct ArrowBuffer) X(ArrowBitmap, size_bits, int64_t)        \
  X(ArrowLayout, buffer_type, enum ArrowBufferType[NANOARROW_MAX_FIXED_BUFFERS])       \
  X(ArrowLayout, buffer_data_type, enum ArrowType[NANOARROW_MAX_FIXED_BUFFERS])        \
  X(ArrowLayout, element_size_bits, int64_t[NANOARROW_MAX_FIXED_BUFFERS])              \
  X(ArrowLayout, child_size_elements, int64_t)                                         \
  X(ArrowArrayView, array, const struct ArrowArray*) X(ArrowArrayView, offset, int64_t) \
  X(ArrowArrayView, length, int64_t) X(ArrowArrayView, null_count, int64_t)            \
  X(ArrowArrayView, storage_type, enum ArrowType)                                      \
  X(ArrowArrayView, layout, struct ArrowLayout)                                        \
  X(ArrowArrayView, buffer_views, struct ArrowBufferView[NANOARROW_MAX_FIXED_BUFFERS]) \
  X(ArrowArrayView, n_children, int64_t)                                               \
  X(ArrowArrayView, children, struct ArrowArrayView**)                                 \
  X(ArrowArrayView, dictionary, struct ArrowArrayView*)                                \
  X(ArrowArrayView, union_type_id_map, int8_t*)                                        \
  X(ArrowArrayView, n_variadic_buffers, int32_t)                                       \
  X(ArrowArrayView, variadic_buffers, const void**)                                    \
  X(ArrowArrayView, variadic_buffer_sizes, int64_t*)                                   \
  X(ArrowDecimal, words, uint64_t[4]) X(ArrowDecimal, precision, int32_t)              \
  X(ArrowDecimal, scale, int32_t) X(ArrowDecimal, n_words, int)                        \
  X(ArrowDecimal, high_word_index, int) X(ArrowDecimal, low_word_index, int)           \
  X(ArrowInterval, type, enum ArrowType) X(ArrowInterval, months, int32_t)             \
  X(ArrowInterval, days, int32_t) X(ArrowInterval, ms, int32_t)                        \
  X(ArrowInterval, ns, int64_t)                                                        \
  X(ArrowMetadataReader, metadata, const char*) X(ArrowMetadataReader, offset, int64_t) \
  X(ArrowMetadataReader, remaining_keys, int32_t)                                      \
  X(ArrowSchemaView, schema, const struct ArrowSchema*)                                \
  X(ArrowSchemaView, type, enum ArrowType) X(ArrowSchemaView, storage_type, enum ArrowType) \
  X(ArrowSchemaView, layout, struct ArrowLayout)                                       \
  X(ArrowSchemaView, extension_name, struct ArrowStringView)                           \
  X(ArrowSchemaView, extension_metadata, struct ArrowStringView)                       \
  X(ArrowSchemaView, fixed_size, int32_t) X(ArrowSchemaView, decimal_bitwidth, int32_t) \
  X(ArrowSchemaView, decimal_precision, int32_t)                                       \
  X(ArrowSchemaView, decimal_scale, int32_t)                                           \
  X(ArrowSchemaView, time_unit, enum ArrowTimeUnit)                                    \
  X(ArrowSchemaView, timezone, const char*) X(ArrowSchemaView, union_type_ids, const char*)

/* Macros code written for nanoarrow uses (checked with #ifndef by the users). */
#if !defined(NANOARROW_RETURN_NOT_OK) || !defined(NANOARROW_RETURN_NOT_OK_WITH_ERROR) || \
    !defined(NANOARROW_ASSERT_OK) || !defined(NANOARROW_DCHECK) ||                      \
    !defined(NANOARROW_UNUSED) || !defined(NANOARROW_CHECK_PRINTF_ATTRIBUTE) ||         \
    !defined(NANOARROW_VERSION) || !defined(NANOARROW_VERSION_INT) ||                   \
    !defined(NANOARROW_VERSION_MAJOR) || !defined(NANOARROW_VERSION_MINOR) ||           \
    !defined(NANOARROW_VERSION_PATCH) || !defined(ARROW_C_DATA_INTERFACE) ||            \
    !defined(ARROW_C_STREAM_INTERFACE) || !defined(NANOARROW_DLL) ||                    \
    !defined(NANOARROW_BINARY_VIEW_BLOCK_SIZE)
#error "a macro of nanoarrow.h is missing"
#endif

#endif
