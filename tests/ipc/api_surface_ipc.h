/* The public names of nanoarrow's IPC header (nanoarrow_ipc.h) as code written for
 * nanoarrow 0.9.0 and its main branch uses them; see tests/common/api_surface_core.h
 * for the form and tests/ipc/test_ipc_api_surface.c / tests/cpp/test_api_surface.cc
 * for the checks. The compression-level setters and other functions of this
 * library that nanoarrow does not document are not listed. */

#ifndef NANOARROW_TESTS_API_SURFACE_IPC_H_INCLUDED
#define NANOARROW_TESTS_API_SURFACE_IPC_H_INCLUDED

#include "nanoarrow/nanoarrow_ipc.h"

#define NA_API_IPC(X)                                                                  \
  X(ArrowErrorCode, ArrowIpcCheckRuntime, (struct ArrowError*))                        \
  X(enum ArrowIpcEndianness, ArrowIpcSystemEndianness, (void))                         \
  /* Dictionaries */                                                                   \
  X(void, ArrowIpcDictionaryEncodingsInit, (struct ArrowIpcDictionaryEncodings*))      \
  X(ArrowErrorCode, ArrowIpcDictionaryEncodingsAppend,                                 \
    (struct ArrowIpcDictionaryEncodings*, struct ArrowIpcDictionaryEncoding))          \
  X(ArrowErrorCode, ArrowIpcDictionaryEncodingsAppendSchema,                           \
    (struct ArrowIpcDictionaryEncodings*, const struct ArrowSchema*))                  \
  X(const struct ArrowIpcDictionaryEncoding*, ArrowIpcDictionaryEncodingsFind,         \
    (const struct ArrowIpcDictionaryEncodings*, const struct ArrowSchema*))            \
  X(const struct ArrowIpcDictionaryEncoding*, ArrowIpcDictionaryEncodingsFindById,     \
    (const struct ArrowIpcDictionaryEncodings*, int64_t))                              \
  X(ArrowErrorCode, ArrowIpcDictionaryEncodingsUniqueIds,                              \
    (const struct ArrowIpcDictionaryEncodings*, struct ArrowBuffer*))                  \
  X(void, ArrowIpcDictionaryEncodingsReset, (struct ArrowIpcDictionaryEncodings*))     \
  X(ArrowErrorCode, ArrowIpcDictionariesInit,                                          \
    (struct ArrowIpcDictionaries*, const struct ArrowIpcDictionaryEncodings*,          \
     struct ArrowError*))                                                              \
  X(ArrowErrorCode, ArrowIpcDictionariesFindCurrentValue,                              \
    (struct ArrowIpcDictionaries*, int64_t, const struct ArrowArray**, struct ArrowError*)) \
  X(void, ArrowIpcDictionariesReset, (struct ArrowIpcDictionaries*))                   \
  /* Decompression */                                                                  \
  X(ArrowIpcDecompressFunction, ArrowIpcGetZstdDecompressionFunction, (void))          \
  X(ArrowIpcDecompressFunction, ArrowIpcGetLZ4DecompressionFunction, (void))           \
  X(ArrowErrorCode, ArrowIpcSerialDecompressor, (struct ArrowIpcDecompressor*))        \
  X(ArrowErrorCode, ArrowIpcSerialDecompressorSetFunction,                             \
    (struct ArrowIpcDecompressor*, enum ArrowIpcCompressionType,                       \
     ArrowIpcDecompressFunction))                                                      \
  /* Decoder */                                                                        \
  X(ArrowErrorCode, ArrowIpcDecoderInit, (struct ArrowIpcDecoder*))                    \
  X(void, ArrowIpcDecoderReset, (struct ArrowIpcDecoder*))                             \
  X(ArrowErrorCode, ArrowIpcDecoderSetDecompressor,                                    \
    (struct ArrowIpcDecoder*, struct ArrowIpcDecompressor*))                           \
  X(ArrowErrorCode, ArrowIpcDecoderPeekHeader,                                         \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, int32_t*, struct ArrowError*))   \
  X(ArrowErrorCode, ArrowIpcDecoderVerifyHeader,                                       \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, struct ArrowError*))             \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeHeader,                                       \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, struct ArrowError*))             \
  X(ArrowErrorCode, ArrowIpcDecoderGetMessageMetadata,                                 \
    (struct ArrowIpcDecoder*, struct ArrowBuffer*, struct ArrowError*))                \
  X(ArrowErrorCode, ArrowIpcDecoderGetMessageMetadataValue,                            \
    (struct ArrowIpcDecoder*, struct ArrowStringView, struct ArrowStringView*,         \
     struct ArrowError*))                                                              \
  X(ArrowErrorCode, ArrowIpcDecoderVisitMessageMetadata,                               \
    (struct ArrowIpcDecoder*, ArrowIpcMetadataVisitFunction, void*, struct ArrowError*)) \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeSchema,                                       \
    (struct ArrowIpcDecoder*, struct ArrowSchema*, struct ArrowError*))                \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeSchemaWithDictionaries,                       \
    (struct ArrowIpcDecoder*, struct ArrowSchema*, struct ArrowIpcDictionaryEncodings*, \
     struct ArrowError*))                                                              \
  X(ArrowErrorCode, ArrowIpcDecoderSetSchema,                                          \
    (struct ArrowIpcDecoder*, const struct ArrowSchema*, struct ArrowError*))          \
  X(ArrowErrorCode, ArrowIpcDecoderSetSchemaWithDictionaries,                          \
    (struct ArrowIpcDecoder*, const struct ArrowSchema*,                               \
     const struct ArrowIpcDictionaryEncodings*, struct ArrowError*))                   \
  X(ArrowErrorCode, ArrowIpcDecoderSetEndianness,                                      \
    (struct ArrowIpcDecoder*, enum ArrowIpcEndianness))                                \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeArrayViewWithDictionaries,                    \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, int64_t,                         \
     struct ArrowIpcDictionaries*, struct ArrowArrayView**, struct ArrowError*))       \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeArrayView,                                    \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, int64_t, struct ArrowArrayView**, \
     struct ArrowError*))                                                              \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeArrayWithDictionaries,                        \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, int64_t,                         \
     struct ArrowIpcDictionaries*, struct ArrowArray*, enum ArrowValidationLevel,      \
     struct ArrowError*))                                                              \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeArray,                                        \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, int64_t, struct ArrowArray*,     \
     enum ArrowValidationLevel, struct ArrowError*))                                   \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeArrayFromSharedWithDictionaries,              \
    (struct ArrowIpcDecoder*, struct ArrowBuffer*, int64_t, struct ArrowIpcDictionaries*, \
     struct ArrowArray*, enum ArrowValidationLevel, struct ArrowError*))               \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeArrayFromShared,                              \
    (struct ArrowIpcDecoder*, struct ArrowBuffer*, int64_t, struct ArrowArray*,        \
     enum ArrowValidationLevel, struct ArrowError*))                                   \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeDictionary,                                   \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, enum ArrowValidationLevel,       \
     struct ArrowIpcDictionaries*, struct ArrowError*))                                \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeDictionaryFromShared,                         \
    (struct ArrowIpcDecoder*, struct ArrowBuffer*, enum ArrowValidationLevel,          \
     struct ArrowIpcDictionaries*, struct ArrowError*))                                \
  /* Footer (integration testing) */                                                   \
  X(void, ArrowIpcFooterInit, (struct ArrowIpcFooter*))                                \
  X(void, ArrowIpcFooterReset, (struct ArrowIpcFooter*))                               \
  X(ArrowErrorCode, ArrowIpcDecoderPeekFooter,                                         \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, struct ArrowError*))             \
  X(ArrowErrorCode, ArrowIpcDecoderVerifyFooter,                                       \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, struct ArrowError*))             \
  X(ArrowErrorCode, ArrowIpcDecoderDecodeFooter,                                       \
    (struct ArrowIpcDecoder*, struct ArrowBufferView, struct ArrowError*))             \
  X(ArrowErrorCode, ArrowIpcEncoderEncodeFooter,                                       \
    (struct ArrowIpcEncoder*, const struct ArrowIpcFooter*, struct ArrowError*))       \
  /* Streams */                                                                        \
  X(void, ArrowIpcInputStreamMove, (struct ArrowIpcInputStream*, struct ArrowIpcInputStream*)) \
  X(ArrowErrorCode, ArrowIpcInputStreamInitBuffer,                                     \
    (struct ArrowIpcInputStream*, struct ArrowBuffer*))                                \
  X(ArrowErrorCode, ArrowIpcInputStreamInitFile, (struct ArrowIpcInputStream*, void*, int)) \
  X(ArrowErrorCode, ArrowIpcArrayStreamReaderInit,                                     \
    (struct ArrowArrayStream*, struct ArrowIpcInputStream*,                            \
     struct ArrowIpcArrayStreamReaderOptions*))                                        \
  X(void, ArrowIpcOutputStreamMove,                                                    \
    (struct ArrowIpcOutputStream*, struct ArrowIpcOutputStream*))                      \
  X(ArrowErrorCode, ArrowIpcOutputStreamInitBuffer,                                    \
    (struct ArrowIpcOutputStream*, struct ArrowBuffer*))                               \
  X(ArrowErrorCode, ArrowIpcOutputStreamInitFile, (struct ArrowIpcOutputStream*, void*, int)) \
  X(ArrowErrorCode, ArrowIpcOutputStreamWrite,                                         \
    (struct ArrowIpcOutputStream*, struct ArrowBufferView, struct ArrowError*))        \
  /* Encoder */                                                                        \
  X(ArrowErrorCode, ArrowIpcEncoderInit, (struct ArrowIpcEncoder*))                    \
  X(void, ArrowIpcEncoderReset, (struct ArrowIpcEncoder*))                             \
  X(ArrowErrorCode, ArrowIpcEncoderFinalizeBuffer,                                     \
    (struct ArrowIpcEncoder*, char, struct ArrowBuffer*))                              \
  X(ArrowErrorCode, ArrowIpcEncoderSetMessageMetadata,                                 \
    (struct ArrowIpcEncoder*, struct ArrowBuffer*, struct ArrowError*))                \
  X(ArrowErrorCode, ArrowIpcEncoderEncodeSchema,                                       \
    (struct ArrowIpcEncoder*, const struct ArrowSchema*, struct ArrowError*))          \
  X(ArrowErrorCode, ArrowIpcEncoderEncodeSimpleRecordBatch,                            \
    (struct ArrowIpcEncoder*, const struct ArrowArrayView*, struct ArrowBuffer*,       \
     struct ArrowError*))                                                              \
  /* Writer */                                                                         \
  X(ArrowErrorCode, ArrowIpcWriterInit, (struct ArrowIpcWriter*, struct ArrowIpcOutputStream*)) \
  X(void, ArrowIpcWriterReset, (struct ArrowIpcWriter*))                               \
  X(ArrowErrorCode, ArrowIpcWriterWriteSchema,                                         \
    (struct ArrowIpcWriter*, const struct ArrowSchema*, struct ArrowError*))           \
  X(ArrowErrorCode, ArrowIpcWriterWriteArrayView,                                      \
    (struct ArrowIpcWriter*, const struct ArrowArrayView*, struct ArrowError*))        \
  X(ArrowErrorCode, ArrowIpcWriterWriteArrayStream,                                    \
    (struct ArrowIpcWriter*, struct ArrowArrayStream*, struct ArrowError*))            \
  X(ArrowErrorCode, ArrowIpcWriterStartFile, (struct ArrowIpcWriter*, struct ArrowError*)) \
  X(ArrowErrorCode, ArrowIpcWriterFinalizeFile, (struct ArrowIpcWriter*, struct ArrowError*))

#define NA_ENUM_IPC(X)                                                                 \
  X(NANOARROW_IPC_METADATA_VERSION_V1, 0) X(NANOARROW_IPC_METADATA_VERSION_V2, 1)      \
  X(NANOARROW_IPC_METADATA_VERSION_V3, 2) X(NANOARROW_IPC_METADATA_VERSION_V4, 3)      \
  X(NANOARROW_IPC_METADATA_VERSION_V5, 4)                                              \
  X(NANOARROW_IPC_MESSAGE_TYPE_UNINITIALIZED, 0) X(NANOARROW_IPC_MESSAGE_TYPE_SCHEMA, 1) \
  X(NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH, 2)                                    \
  X(NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH, 3) X(NANOARROW_IPC_MESSAGE_TYPE_TENSOR, 4) \
  X(NANOARROW_IPC_MESSAGE_TYPE_SPARSE_TENSOR, 5)                                       \
  X(NANOARROW_IPC_ENDIANNESS_UNINITIALIZED, 0) X(NANOARROW_IPC_ENDIANNESS_LITTLE, 1)   \
  X(NANOARROW_IPC_ENDIANNESS_BIG, 2)                                                   \
  X(NANOARROW_IPC_COMPRESSION_TYPE_NONE, 0) X(NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME, 1) \
  X(NANOARROW_IPC_COMPRESSION_TYPE_ZSTD, 2)                                            \
  X(NANOARROW_IPC_DICTIONARY_KIND_UNINITIALIZED, 0)                                    \
  X(NANOARROW_IPC_DICTIONARY_KIND_DENSE_ARRAY, 1)                                      \
  X(NANOARROW_IPC_FEATURE_DICTIONARY_REPLACEMENT, 1)                                   \
  X(NANOARROW_IPC_FEATURE_COMPRESSED_BODY, 2)

#define NA_MEMBER_IPC(X)                                                               \
  X(ArrowIpcDecoder, message_type, enum ArrowIpcMessageType)                           \
  X(ArrowIpcDecoder, metadata_version, enum ArrowIpcMetadataVersion)                   \
  X(ArrowIpcDecoder, endianness, enum ArrowIpcEndianness)                              \
  X(ArrowIpcDecoder, feature_flags, int32_t)                                           \
  X(ArrowIpcDecoder, codec, enum ArrowIpcCompressionType)                              \
  X(ArrowIpcDecoder, header_size_bytes, int32_t)                                       \
  X(ArrowIpcDecoder, body_size_bytes, int64_t)                                         \
  X(ArrowIpcDecoder, dictionary, const struct ArrowIpcDictionaryBatch*)                \
  X(ArrowIpcDecoder, footer, struct ArrowIpcFooter*)                                   \
  X(ArrowIpcDecoder, private_data, void*)                                              \
  X(ArrowIpcDictionaryBatch, id, int64_t) X(ArrowIpcDictionaryBatch, is_delta, int)    \
  X(ArrowIpcDictionaryEncoding, schema, const struct ArrowSchema*)                     \
  X(ArrowIpcDictionaryEncoding, id, int64_t)                                           \
  X(ArrowIpcDictionaryEncoding, kind, enum ArrowIpcDictionaryKind)                     \
  X(ArrowIpcInputStream, read,                                                         \
    ArrowErrorCode (*)(struct ArrowIpcInputStream*, uint8_t*, int64_t, int64_t*,       \
                       struct ArrowError*))                                            \
  X(ArrowIpcInputStream, release, void (*)(struct ArrowIpcInputStream*))               \
  X(ArrowIpcInputStream, private_data, void*)                                          \
  X(ArrowIpcOutputStream, write,                                                       \
    ArrowErrorCode (*)(struct ArrowIpcOutputStream*, const void*, int64_t, int64_t*,   \
                       struct ArrowError*))                                            \
  X(ArrowIpcOutputStream, release, void (*)(struct ArrowIpcOutputStream*))             \
  X(ArrowIpcOutputStream, private_data, void*)                                         \
  X(ArrowIpcArrayStreamReaderOptions, field_index, int64_t)                            \
  X(ArrowIpcArrayStreamReaderOptions, use_shared_buffers, int)                         \
  X(ArrowIpcEncoder, private_data, void*) X(ArrowIpcWriter, private_data, void*)

/* The function types code passes in. */
typedef ArrowErrorCode (*NaIpcDecompressFunctionType)(struct ArrowBufferView, uint8_t*,
                                                      int64_t, struct ArrowError*);
typedef ArrowErrorCode (*NaIpcMetadataVisitFunctionType)(struct ArrowStringView,
                                                         struct ArrowStringView, void*,
                                                         struct ArrowError*);

#endif
