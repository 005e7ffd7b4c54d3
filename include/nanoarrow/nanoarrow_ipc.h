// nanoarrow in C: the Arrow IPC extension (reading).
//
// Decodes Arrow IPC messages (the encapsulated flatbuffers Message format, the
// stream format and the file format) into ArrowSchema / ArrowArrayView /
// ArrowArray. Every input byte is treated as hostile: offsets, lengths, counts and
// nesting depth are checked before use and allocations are bounded by the input.
//
// Except where noted, objects are not thread-safe; callers serialize accesses.

#ifndef NANOARROW_IPC_H_INCLUDED
#define NANOARROW_IPC_H_INCLUDED

#include "nanoarrow/nanoarrow.h"

#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcCheckRuntime NANOARROW_SYMBOL(ArrowIpcCheckRuntime)
#define ArrowIpcSerialDecompressor NANOARROW_SYMBOL(ArrowIpcSerialDecompressor)
#define ArrowIpcSerialDecompressorSetFunction \
  NANOARROW_SYMBOL(ArrowIpcSerialDecompressorSetFunction)
#define ArrowIpcGetZstdDecompressionFunction \
  NANOARROW_SYMBOL(ArrowIpcGetZstdDecompressionFunction)
#define ArrowIpcGetLZ4DecompressionFunction \
  NANOARROW_SYMBOL(ArrowIpcGetLZ4DecompressionFunction)
#define ArrowIpcDecoderInit NANOARROW_SYMBOL(ArrowIpcDecoderInit)
#define ArrowIpcDecoderReset NANOARROW_SYMBOL(ArrowIpcDecoderReset)
#define ArrowIpcDecoderSetDecompressor NANOARROW_SYMBOL(ArrowIpcDecoderSetDecompressor)
#define ArrowIpcDecoderSetMaxDecompressedBytes \
  NANOARROW_SYMBOL(ArrowIpcDecoderSetMaxDecompressedBytes)
#define ArrowIpcDecoderPeekHeader NANOARROW_SYMBOL(ArrowIpcDecoderPeekHeader)
#define ArrowIpcDecoderVerifyHeader NANOARROW_SYMBOL(ArrowIpcDecoderVerifyHeader)
#define ArrowIpcDecoderDecodeHeader NANOARROW_SYMBOL(ArrowIpcDecoderDecodeHeader)
#define ArrowIpcDecoderGetMessageMetadata NANOARROW_SYMBOL(ArrowIpcDecoderGetMessageMetadata)
#define ArrowIpcDecoderGetMessageMetadataValue \
  NANOARROW_SYMBOL(ArrowIpcDecoderGetMessageMetadataValue)
#define ArrowIpcDecoderVisitMessageMetadata \
  NANOARROW_SYMBOL(ArrowIpcDecoderVisitMessageMetadata)
#define ArrowIpcDecoderDecodeSchema NANOARROW_SYMBOL(ArrowIpcDecoderDecodeSchema)
#define ArrowIpcDecoderSetSchema NANOARROW_SYMBOL(ArrowIpcDecoderSetSchema)
#define ArrowIpcDecoderSetEndianness NANOARROW_SYMBOL(ArrowIpcDecoderSetEndianness)
#define ArrowIpcDecoderDecodeArrayView NANOARROW_SYMBOL(ArrowIpcDecoderDecodeArrayView)
#define ArrowIpcDecoderDecodeArray NANOARROW_SYMBOL(ArrowIpcDecoderDecodeArray)
#define ArrowIpcDecoderDecodeArrayFromShared \
  NANOARROW_SYMBOL(ArrowIpcDecoderDecodeArrayFromShared)
#define ArrowIpcDecoderGetDictionaryEncodings \
  NANOARROW_SYMBOL(ArrowIpcDecoderGetDictionaryEncodings)
#define ArrowIpcDecoderDecodeDictionary NANOARROW_SYMBOL(ArrowIpcDecoderDecodeDictionary)
#define ArrowIpcDecoderDecodeDictionaryFromShared \
  NANOARROW_SYMBOL(ArrowIpcDecoderDecodeDictionaryFromShared)
#define ArrowIpcDecoderGetDictionary NANOARROW_SYMBOL(ArrowIpcDecoderGetDictionary)
#define ArrowIpcDecoderDecodeSchemaWithDictionaries \
  NANOARROW_SYMBOL(ArrowIpcDecoderDecodeSchemaWithDictionaries)
#define ArrowIpcDecoderSetSchemaWithDictionaries \
  NANOARROW_SYMBOL(ArrowIpcDecoderSetSchemaWithDictionaries)
#define ArrowIpcDictionaryEncodingsInit NANOARROW_SYMBOL(ArrowIpcDictionaryEncodingsInit)
#define ArrowIpcDictionaryEncodingsReset NANOARROW_SYMBOL(ArrowIpcDictionaryEncodingsReset)
#define ArrowIpcDictionaryEncodingsAppend NANOARROW_SYMBOL(ArrowIpcDictionaryEncodingsAppend)
#define ArrowIpcDictionaryEncodingsAppendSchema \
  NANOARROW_SYMBOL(ArrowIpcDictionaryEncodingsAppendSchema)
#define ArrowIpcDictionaryEncodingsFind NANOARROW_SYMBOL(ArrowIpcDictionaryEncodingsFind)
#define ArrowIpcDictionariesInit NANOARROW_SYMBOL(ArrowIpcDictionariesInit)
#define ArrowIpcDictionariesReset NANOARROW_SYMBOL(ArrowIpcDictionariesReset)
#define ArrowIpcDictionariesFindCurrentValue \
  NANOARROW_SYMBOL(ArrowIpcDictionariesFindCurrentValue)
#define ArrowIpcDecoderDecodeArrayViewWithDictionaries \
  NANOARROW_SYMBOL(ArrowIpcDecoderDecodeArrayViewWithDictionaries)
#define ArrowIpcDecoderDecodeArrayWithDictionaries \
  NANOARROW_SYMBOL(ArrowIpcDecoderDecodeArrayWithDictionaries)
#define ArrowIpcDecoderDecodeArrayFromSharedWithDictionaries \
  NANOARROW_SYMBOL(ArrowIpcDecoderDecodeArrayFromSharedWithDictionaries)
#define ArrowIpcDictionaryEncodingsFindById \
  NANOARROW_SYMBOL(ArrowIpcDictionaryEncodingsFindById)
#define ArrowIpcDictionaryEncodingsUniqueIds \
  NANOARROW_SYMBOL(ArrowIpcDictionaryEncodingsUniqueIds)
#define ArrowIpcFooterInit NANOARROW_SYMBOL(ArrowIpcFooterInit)
#define ArrowIpcFooterReset NANOARROW_SYMBOL(ArrowIpcFooterReset)
#define ArrowIpcDecoderPeekFooter NANOARROW_SYMBOL(ArrowIpcDecoderPeekFooter)
#define ArrowIpcDecoderVerifyFooter NANOARROW_SYMBOL(ArrowIpcDecoderVerifyFooter)
#define ArrowIpcDecoderDecodeFooter NANOARROW_SYMBOL(ArrowIpcDecoderDecodeFooter)
#define ArrowIpcInputStreamInitBuffer NANOARROW_SYMBOL(ArrowIpcInputStreamInitBuffer)
#define ArrowIpcInputStreamInitFile NANOARROW_SYMBOL(ArrowIpcInputStreamInitFile)
#define ArrowIpcInputStreamMove NANOARROW_SYMBOL(ArrowIpcInputStreamMove)
#define ArrowIpcArrayStreamReaderInit NANOARROW_SYMBOL(ArrowIpcArrayStreamReaderInit)
#define ArrowIpcArrayStreamReaderInitWithValidation \
  NANOARROW_SYMBOL(ArrowIpcArrayStreamReaderInitWithValidation)
#define ArrowIpcArrayStreamReaderInitWithLimits \
  NANOARROW_SYMBOL(ArrowIpcArrayStreamReaderInitWithLimits)
#define ArrowIpcFileReaderInitBuffer NANOARROW_SYMBOL(ArrowIpcFileReaderInitBuffer)
#define ArrowIpcFileReaderInitFile NANOARROW_SYMBOL(ArrowIpcFileReaderInitFile)
#define ArrowIpcFileReaderReset NANOARROW_SYMBOL(ArrowIpcFileReaderReset)
#define ArrowIpcFileReaderGetSchema NANOARROW_SYMBOL(ArrowIpcFileReaderGetSchema)
#define ArrowIpcFileReaderNumRecordBatches \
  NANOARROW_SYMBOL(ArrowIpcFileReaderNumRecordBatches)
#define ArrowIpcFileReaderReadBatch NANOARROW_SYMBOL(ArrowIpcFileReaderReadBatch)
#define ArrowIpcFileReaderArrayStream NANOARROW_SYMBOL(ArrowIpcFileReaderArrayStream)
#define ArrowIpcFileReaderSetMaxDecompressedBytes \
  NANOARROW_SYMBOL(ArrowIpcFileReaderSetMaxDecompressedBytes)
#endif

#ifdef __cplusplus
extern "C" {
#endif

// ---- Enumerators ----

enum ArrowIpcMetadataVersion {
  NANOARROW_IPC_METADATA_VERSION_V1,
  NANOARROW_IPC_METADATA_VERSION_V2,
  NANOARROW_IPC_METADATA_VERSION_V3,
  NANOARROW_IPC_METADATA_VERSION_V4,
  NANOARROW_IPC_METADATA_VERSION_V5
};

enum ArrowIpcMessageType {
  NANOARROW_IPC_MESSAGE_TYPE_UNINITIALIZED,
  NANOARROW_IPC_MESSAGE_TYPE_SCHEMA,
  NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH,
  NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH,
  NANOARROW_IPC_MESSAGE_TYPE_TENSOR,
  NANOARROW_IPC_MESSAGE_TYPE_SPARSE_TENSOR
};

enum ArrowIpcEndianness {
  NANOARROW_IPC_ENDIANNESS_UNINITIALIZED,
  NANOARROW_IPC_ENDIANNESS_LITTLE,
  NANOARROW_IPC_ENDIANNESS_BIG
};

// The byte order of the machine running this code.
static inline enum ArrowIpcEndianness ArrowIpcSystemEndianness(void) {
  const uint32_t one = 1;
  return *(const uint8_t*)&one == 1 ? NANOARROW_IPC_ENDIANNESS_LITTLE
                                    : NANOARROW_IPC_ENDIANNESS_BIG;
}

// Bits of ArrowIpcDecoder.feature_flags (the Schema's "features"); plain macros, so
// they also work in #if.
#define NANOARROW_IPC_FEATURE_DICTIONARY_REPLACEMENT 1
#define NANOARROW_IPC_FEATURE_COMPRESSED_BODY 2

enum ArrowIpcCompressionType {
  NANOARROW_IPC_COMPRESSION_TYPE_NONE,
  NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
  NANOARROW_IPC_COMPRESSION_TYPE_ZSTD
};

// EINVAL when the library was built for a platform whose endianness differs from
// the running one.
NANOARROW_DLL ArrowErrorCode ArrowIpcCheckRuntime(struct ArrowError* error);

// ---- Shared (reference-counted) message bodies ----
//
// The ...FromShared functions take a message body as a shared buffer of the core
// (ArrowSharedBufferInit in nanoarrow.h): the arrays they decode point into it and
// hold a reference, so no body byte is copied. Since nanoarrow 0.9.0 this replaces
// struct ArrowIpcSharedBuffer. Code written for 0.8 keeps compiling: the struct
// name is an alias of struct ArrowBuffer and its functions are aliases of the core
// ones (only its private member private_src is gone: use the buffer itself).
#define ArrowIpcSharedBuffer ArrowBuffer
#define ArrowIpcSharedBufferInit ArrowSharedBufferInit
#define ArrowIpcSharedBufferIsThreadSafe ArrowSharedBufferIsThreadSafe
#define ArrowIpcSharedBufferReset ArrowBufferReset

// ---- Decompression ----

// Decompresses src into exactly dst_size bytes at dst.
typedef ArrowErrorCode (*ArrowIpcDecompressFunction)(struct ArrowBufferView src,
                                                     uint8_t* dst, int64_t dst_size,
                                                     struct ArrowError* error);

// A (possibly asynchronous) decompressor: decompress_add queues one buffer,
// decompress_wait waits until every queued buffer is written (timeout_ms < 0: no
// timeout).
struct ArrowIpcDecompressor {
  ArrowErrorCode (*decompress_add)(struct ArrowIpcDecompressor* decompressor,
                                   enum ArrowIpcCompressionType compression_type,
                                   struct ArrowBufferView src, uint8_t* dst,
                                   int64_t dst_size, struct ArrowError* error);
  ArrowErrorCode (*decompress_wait)(struct ArrowIpcDecompressor* decompressor,
                                    int64_t timeout_ms, struct ArrowError* error);
  void (*release)(struct ArrowIpcDecompressor* decompressor);
  void* private_data;
};

// A decompressor that runs each buffer synchronously in decompress_add, with the
// built-in codecs (those this library was compiled with) installed.
NANOARROW_DLL ArrowErrorCode ArrowIpcSerialDecompressor(struct ArrowIpcDecompressor* decompressor);
// Installs (or with NULL removes) the function used for compression_type.
NANOARROW_DLL ArrowErrorCode ArrowIpcSerialDecompressorSetFunction(
    struct ArrowIpcDecompressor* decompressor,
    enum ArrowIpcCompressionType compression_type,
    ArrowIpcDecompressFunction decompress_function);
// NULL when the library was built without NANOARROW_IPC_WITH_ZSTD / _LZ4.
NANOARROW_DLL ArrowIpcDecompressFunction ArrowIpcGetZstdDecompressionFunction(void);
NANOARROW_DLL ArrowIpcDecompressFunction ArrowIpcGetLZ4DecompressionFunction(void);

// ---- Footer (file format) ----

// One entry of the footer's dictionaries / recordBatches.
struct ArrowIpcFileBlock {
  int64_t offset;
  int32_t metadata_length;
  int64_t body_length;
};

struct ArrowIpcFooter {
  struct ArrowSchema schema;
  // struct ArrowIpcFileBlock entries.
  struct ArrowBuffer record_batch_blocks;
  struct ArrowBuffer dictionary_blocks;
};

NANOARROW_DLL void ArrowIpcFooterInit(struct ArrowIpcFooter* footer);
NANOARROW_DLL void ArrowIpcFooterReset(struct ArrowIpcFooter* footer);

// ---- Decoder ----

// The header of a DictionaryBatch message.
struct ArrowIpcDictionaryBatch {
  // The dictionary id whose values the batch carries.
  int64_t id;
  // Non-zero: the values are appended to the id's current ones, else they
  // replace them.
  int is_delta;
};

struct ArrowIpcDecoder {
  // Of the last message whose header was verified or decoded.
  enum ArrowIpcMessageType message_type;
  enum ArrowIpcMetadataVersion metadata_version;
  // Of the last decoded Schema message.
  enum ArrowIpcEndianness endianness;
  // NANOARROW_IPC_FEATURE_* bits of the last decoded Schema message.
  int32_t feature_flags;
  // Of the last record batch / dictionary batch header.
  enum ArrowIpcCompressionType codec;
  // Prefix plus flatbuffer size of the last peeked message (the body follows);
  // after a footer was peeked, verified or decoded: the footer's flatbuffer size
  // (the int32 before the trailing "ARROW1").
  int32_t header_size_bytes;
  int64_t body_size_bytes;
  // The last decoded DictionaryBatch header (owned by the decoder; NULL after any
  // other message was decoded).
  const struct ArrowIpcDictionaryBatch* dictionary;
  // The last decoded footer (NULL until ArrowIpcDecoderDecodeFooter succeeds).
  struct ArrowIpcFooter* footer;
  void* private_data;
};

NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderInit(struct ArrowIpcDecoder* decoder);
NANOARROW_DLL void ArrowIpcDecoderReset(struct ArrowIpcDecoder* decoder);

// Takes ownership of decompressor (releasing any previous one).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderSetDecompressor(struct ArrowIpcDecoder* decoder,
                                              struct ArrowIpcDecompressor* decompressor);

// ---- Reader limits ----
// Decompressed bytes: all compressed buffers of one message body together may
// declare (and so make the decoder allocate) at most a limit of decompressed bytes,
// checked before anything is allocated or decompressed. By default the limit is
// NANOARROW_IPC_DEFAULT_DECOMPRESSION_RATIO x the body's size +
// NANOARROW_IPC_DEFAULT_DECOMPRESSION_ALLOWANCE bytes (64 x + 1 MiB); bodies that
// compress better than that need a larger limit.
//
// Lengths no input bytes pay for: null arrays, structs without children,
// fixed-size lists of size 0 and the logical length of run-end encoded arrays
// cost nothing however long they claim to be. RecordBatch.length and every field
// node's length must therefore be at most the larger of
// NANOARROW_IPC_MAX_UNBACKED_LENGTH (2^31 - 1) and 8 x the bytes the body may
// hold (its size, plus the decompressed-byte limit when it is compressed): any
// array whose elements take at least one bit of the body is within it. Each
// top-level field's length must also equal RecordBatch.length.
#define NANOARROW_IPC_DEFAULT_DECOMPRESSION_RATIO 64
#define NANOARROW_IPC_DEFAULT_DECOMPRESSION_ALLOWANCE (1 << 20)
#define NANOARROW_IPC_MAX_UNBACKED_LENGTH INT32_MAX

// Sets the decompressed-byte limit per message body of decoder to max_bytes
// (>= 0), or back to the default with -1 (EINVAL for anything else).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderSetMaxDecompressedBytes(struct ArrowIpcDecoder* decoder,
                                                      int64_t max_bytes);

// Reads the message prefix (0xFFFFFFFF + int32 length, or a legacy int32 length)
// and sets header_size_bytes. ESPIPE when data is too short to tell, ENODATA at an
// end-of-stream marker, EINVAL for an impossible length. prefix_size_bytes (may be
// NULL) receives 8 or 4.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderPeekHeader(struct ArrowIpcDecoder* decoder,
                                         struct ArrowBufferView data,
                                         int32_t* prefix_size_bytes,
                                         struct ArrowError* error);
// PeekHeader + a full flatbuffers verification of the Message; sets message_type,
// metadata_version and body_size_bytes.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderVerifyHeader(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error);
// VerifyHeader + decoding of the header. data must stay valid until the next
// header is decoded (the decoder refers to it). When the decoder has a schema, a
// RecordBatch (or a DictionaryBatch of one of the schema's ids) whose numbers of
// field nodes, variadic buffer counts or buffers differ from what the schema (the
// dictionary's value type) needs is refused with EINVAL; decoding checks them
// again.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeHeader(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error);

// ---- Custom metadata of the message itself ----
//
// Message.custom_metadata: the key/value pairs a writer attached to a Schema,
// RecordBatch or DictionaryBatch message (not the metadata of the Schema or of its
// Fields). They describe the message whose header was last verified or decoded
// (ArrowIpcDecoderVerifyHeader / ArrowIpcDecoderDecodeHeader); EINVAL before any.
// Views point into that header's bytes: valid while they are.

// Called for each pair by ArrowIpcDecoderVisitMessageMetadata; a key or value the
// message leaves out is an empty view. Returning non-zero stops the visit.
typedef ArrowErrorCode (*ArrowIpcMetadataVisitFunction)(struct ArrowStringView key,
                                                        struct ArrowStringView value,
                                                        void* private_data,
                                                        struct ArrowError* error);
// Copies the pairs into out (initialized here; the caller resets it) in the
// representation of ArrowSchema::metadata. No pairs: out stays empty (data NULL).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderGetMessageMetadata(struct ArrowIpcDecoder* decoder,
                                                               struct ArrowBuffer* out,
                                                               struct ArrowError* error);
// The value of the first pair whose key is key (not copied). value_out is left as
// it was when no pair has that key.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderGetMessageMetadataValue(
    struct ArrowIpcDecoder* decoder, struct ArrowStringView key,
    struct ArrowStringView* value_out, struct ArrowError* error);
// Calls visit(key, value, private_data, error) for each pair in order; returns the
// first non-zero result of visit, or NANOARROW_OK.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderVisitMessageMetadata(
    struct ArrowIpcDecoder* decoder, ArrowIpcMetadataVisitFunction visit,
    void* private_data, struct ArrowError* error);
// The schema of the last decoded Schema message.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeSchema(struct ArrowIpcDecoder* decoder,
                                           struct ArrowSchema* out,
                                           struct ArrowError* error);
// Sets the schema record batches are decoded against (schema is copied).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderSetSchema(struct ArrowIpcDecoder* decoder,
                                        const struct ArrowSchema* schema,
                                        struct ArrowError* error);
// Endianness of the bodies to come (when not taken from a decoded Schema).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderSetEndianness(struct ArrowIpcDecoder* decoder,
                                            enum ArrowIpcEndianness endianness);

// Decodes field i of the last decoded RecordBatch header into a view owned by
// the decoder, valid until the next decode and while body is. i is -1 for the
// whole batch as a struct, else the index of a field counted depth-first over the
// schema (a column, then its children, then the next column; dictionary value
// types are not counted), which is not the column index when a column is nested:
// for struct<a: struct<x, y>, b>, 0 is a, 1 a.x, 2 a.y and 3 b. EINVAL outside
// [-1, number of fields). The same goes for i below.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeArrayView(struct ArrowIpcDecoder* decoder,
                                              struct ArrowBufferView body, int64_t i,
                                              struct ArrowArrayView** out,
                                              struct ArrowError* error);
// Decodes field i (-1: whole batch) into an independent array (the body is
// copied), validated at validation_level.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeArray(struct ArrowIpcDecoder* decoder,
                                          struct ArrowBufferView body, int64_t i,
                                          struct ArrowArray* out,
                                          enum ArrowValidationLevel validation_level,
                                          struct ArrowError* error);
// Like DecodeArray but the array refers to (and keeps alive) the shared body:
// shared is a shared buffer (ArrowSharedBufferInit) holding the body, which the
// caller still resets afterwards (EINVAL for an ordinary buffer).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeArrayFromShared(
    struct ArrowIpcDecoder* decoder, struct ArrowBuffer* shared, int64_t i,
    struct ArrowArray* out, enum ArrowValidationLevel validation_level,
    struct ArrowError* error);

// ---- Dictionaries ----
// A DictionaryBatch message carries the values of one dictionary id; record
// batches carry only the indices. ArrowIpcDictionaryEncodings says which fields of
// a schema are dictionary-encoded and with which id (one id may serve several
// fields); ArrowIpcDictionaries holds the current values of each id. A delta batch
// appends to the current values, any other batch replaces them; arrays decoded
// earlier keep the values they were decoded with.

enum ArrowIpcDictionaryKind {
  // Zero-initialized memory: no kind set yet.
  NANOARROW_IPC_DICTIONARY_KIND_UNINITIALIZED,
  // The dictionary's values are an ordinary array (the only kind IPC has).
  NANOARROW_IPC_DICTIONARY_KIND_DENSE_ARRAY
};

struct ArrowIpcDictionaryEncoding {
  // The dictionary-encoded field: its format is the index type, its dictionary
  // the value type, ARROW_FLAG_DICTIONARY_ORDERED in its flags tells whether the
  // dictionary is ordered. Borrowed: must outlive the encodings.
  const struct ArrowSchema* schema;
  // The DictionaryBatch id of this field's values.
  int64_t id;
  enum ArrowIpcDictionaryKind kind;
};

// A growable list of encodings, in schema pre-order when made from a schema:
// encodings.data holds encodings.size_bytes / sizeof(struct
// ArrowIpcDictionaryEncoding) of them.
struct ArrowIpcDictionaryEncodings {
  struct ArrowBuffer encodings;
};

// Makes an empty list (never fails).
NANOARROW_DLL void ArrowIpcDictionaryEncodingsInit(struct ArrowIpcDictionaryEncodings* encodings);
NANOARROW_DLL void ArrowIpcDictionaryEncodingsReset(struct ArrowIpcDictionaryEncodings* encodings);
// Appends one encoding (EINVAL when encoding.schema is not dictionary-encoded).
NANOARROW_DLL ArrowErrorCode ArrowIpcDictionaryEncodingsAppend(
    struct ArrowIpcDictionaryEncodings* encodings,
    struct ArrowIpcDictionaryEncoding encoding);
// Appends every dictionary-encoded field of schema (including those inside
// dictionary values) in pre-order, numbering them n_encodings, n_encodings + 1,
// ... as IPC writers do. The fields are borrowed from schema.
NANOARROW_DLL ArrowErrorCode ArrowIpcDictionaryEncodingsAppendSchema(
    struct ArrowIpcDictionaryEncodings* encodings, const struct ArrowSchema* schema);
// The encoding whose field is schema (the same pointer), or NULL.
NANOARROW_DLL const struct ArrowIpcDictionaryEncoding* ArrowIpcDictionaryEncodingsFind(
    const struct ArrowIpcDictionaryEncodings* encodings, const struct ArrowSchema* schema);
// The first encoding (in list order) with dictionary id id, or NULL.
NANOARROW_DLL const struct ArrowIpcDictionaryEncoding* ArrowIpcDictionaryEncodingsFindById(
    const struct ArrowIpcDictionaryEncodings* encodings, int64_t id);
// Appends to ids (int64_t values) each distinct dictionary id of encodings once, in
// the order of first use. ENOMEM leaves ids as it was.
NANOARROW_DLL ArrowErrorCode ArrowIpcDictionaryEncodingsUniqueIds(
    const struct ArrowIpcDictionaryEncodings* encodings, struct ArrowBuffer* ids);

// The current values of every dictionary id of some encodings.
struct ArrowIpcDictionaries {
  void* private_data;
};

// One empty slot per distinct id of encodings (copied; encodings may be reset
// afterwards).
NANOARROW_DLL ArrowErrorCode ArrowIpcDictionariesInit(struct ArrowIpcDictionaries* dictionaries,
                                        const struct ArrowIpcDictionaryEncodings* encodings,
                                        struct ArrowError* error);
// Drops this object's references; arrays that use the values keep them alive.
NANOARROW_DLL void ArrowIpcDictionariesReset(struct ArrowIpcDictionaries* dictionaries);
// The current values of id (borrowed, valid until they change or Reset), or
// EINVAL when id is unknown or no DictionaryBatch for it was decoded yet.
NANOARROW_DLL ArrowErrorCode ArrowIpcDictionariesFindCurrentValue(
    struct ArrowIpcDictionaries* dictionaries, int64_t id,
    const struct ArrowArray** out, struct ArrowError* error);

// Like ArrowIpcDecoderDecodeSchema, and initializes encodings (output only: any
// previous content is neither read nor freed, so reset it first) to the schema's
// dictionary encodings with the ids of the Schema message; their fields point into
// out. The caller resets encodings on success; on failure it is left empty.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeSchemaWithDictionaries(
    struct ArrowIpcDecoder* decoder, struct ArrowSchema* out,
    struct ArrowIpcDictionaryEncodings* encodings, struct ArrowError* error);
// Like ArrowIpcDecoderSetSchema with the dictionary ids taken from encodings (whose
// fields must point into schema). ArrowIpcDecoderSetSchema takes them from the
// last decoded Schema message when it matches, else numbers them in pre-order.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderSetSchemaWithDictionaries(
    struct ArrowIpcDecoder* decoder, const struct ArrowSchema* schema,
    const struct ArrowIpcDictionaryEncodings* encodings, struct ArrowError* error);
// The encodings of the decoder's schema (owned by the decoder, valid until the
// schema changes).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderGetDictionaryEncodings(
    struct ArrowIpcDecoder* decoder, const struct ArrowIpcDictionaryEncodings** out);

// Decodes the last decoded DictionaryBatch header with body (copied). The decoder
// keeps the result for the record batches it decodes next; when dictionaries is
// not NULL, the id's current value there is set to it as well.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeDictionary(struct ArrowIpcDecoder* decoder,
                                               struct ArrowBufferView body,
                                               enum ArrowValidationLevel validation_level,
                                               struct ArrowIpcDictionaries* dictionaries,
                                               struct ArrowError* error);
// The same with the values referring to (and keeping alive) the shared body (a
// shared buffer, as for ArrowIpcDecoderDecodeArrayFromShared).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeDictionaryFromShared(
    struct ArrowIpcDecoder* decoder, struct ArrowBuffer* shared,
    enum ArrowValidationLevel validation_level, struct ArrowIpcDictionaries* dictionaries,
    struct ArrowError* error);
// The values of id the decoder currently uses (borrowed), or EINVAL when none was
// decoded yet.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderGetDictionary(struct ArrowIpcDecoder* decoder, int64_t id,
                                            const struct ArrowArray** out,
                                            struct ArrowError* error);

// ---- Record batches decoded against caller-held dictionaries ----
//
// As ArrowIpcDecoderDecodeArrayView / DecodeArray / DecodeArrayFromShared, except
// that every dictionary-encoded field takes its values from dictionaries (the
// current values of its id there, as set by ArrowIpcDecoderDecodeDictionary with
// those dictionaries) instead of from the dictionaries the decoder kept. EINVAL
// when the id of a field the result contains has no values in dictionaries. The
// decoded arrays hold a reference to the values they use; the view's dictionary
// views are valid while dictionaries keeps those values. dictionaries NULL: the
// decoder's own, as the functions without WithDictionaries.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeArrayViewWithDictionaries(
    struct ArrowIpcDecoder* decoder, struct ArrowBufferView body, int64_t i,
    struct ArrowIpcDictionaries* dictionaries, struct ArrowArrayView** out,
    struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeArrayWithDictionaries(
    struct ArrowIpcDecoder* decoder, struct ArrowBufferView body, int64_t i,
    struct ArrowIpcDictionaries* dictionaries, struct ArrowArray* out,
    enum ArrowValidationLevel validation_level, struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeArrayFromSharedWithDictionaries(
    struct ArrowIpcDecoder* decoder, struct ArrowBuffer* shared, int64_t i,
    struct ArrowIpcDictionaries* dictionaries, struct ArrowArray* out,
    enum ArrowValidationLevel validation_level, struct ArrowError* error);

// ---- Footer decoding ----

// data ends with the footer: ... footer, int32 footer length, "ARROW1". Sets
// header_size_bytes to the footer's flatbuffer size (the int32, not counting the
// 10 trailing bytes). ESPIPE when data has fewer than 10 bytes; the footer itself
// need not be in data (VerifyFooter / DecodeFooter return ESPIPE when it is not).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderPeekFooter(struct ArrowIpcDecoder* decoder,
                                         struct ArrowBufferView data,
                                         struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderVerifyFooter(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error);
// Decodes the footer into decoder->footer (and sets the decoder's schema).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderDecodeFooter(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error);

// ---- Input streams ----

struct ArrowIpcInputStream {
  // Reads up to buf_size_bytes; *size_read_out == 0 means end of input.
  ArrowErrorCode (*read)(struct ArrowIpcInputStream* stream, uint8_t* buf,
                         int64_t buf_size_bytes, int64_t* size_read_out,
                         struct ArrowError* error);
  void (*release)(struct ArrowIpcInputStream* stream);
  void* private_data;
};

NANOARROW_DLL void ArrowIpcInputStreamMove(struct ArrowIpcInputStream* src,
                             struct ArrowIpcInputStream* dst);
// Takes ownership of input (left empty).
NANOARROW_DLL ArrowErrorCode ArrowIpcInputStreamInitBuffer(struct ArrowIpcInputStream* stream,
                                             struct ArrowBuffer* input);
// Reads from a FILE* (passed as void*), closed on release when close_on_release.
NANOARROW_DLL ArrowErrorCode ArrowIpcInputStreamInitFile(struct ArrowIpcInputStream* stream,
                                           void* file_ptr, int close_on_release);

// ---- ArrowArrayStream over IPC input ----

struct ArrowIpcArrayStreamReaderOptions {
  // -1: whole batches (struct arrays); otherwise only the arrays of field i, with
  // fields numbered depth-first (top-level column 0, its children, then column 1).
  int64_t field_index;
  // Non-zero: arrays share each message body instead of copying it (from a
  // buffer input, they point straight into the input).
  int use_shared_buffers;
};

// An ArrowArrayStream over an IPC stream or (detected by its "ARROW1" magic) an IPC
// file. Takes ownership of input_stream. options may be NULL (field_index -1,
// use_shared_buffers 1). Every batch is validated at NANOARROW_VALIDATION_LEVEL_FULL,
// as the input is untrusted (for fixed-width columns this costs O(columns) per
// batch; offsets, run ends and view buffers are checked element by element).
NANOARROW_DLL ArrowErrorCode ArrowIpcArrayStreamReaderInit(
    struct ArrowArrayStream* out, struct ArrowIpcInputStream* input_stream,
    struct ArrowIpcArrayStreamReaderOptions* options);

// ArrowIpcArrayStreamReaderInit validating each batch at validation_level instead
// (NANOARROW_VALIDATION_LEVEL_DEFAULT skips the element-wise checks; NONE is only
// safe for trusted input).
NANOARROW_DLL ArrowErrorCode ArrowIpcArrayStreamReaderInitWithValidation(
    struct ArrowArrayStream* out, struct ArrowIpcInputStream* input_stream,
    struct ArrowIpcArrayStreamReaderOptions* options,
    enum ArrowValidationLevel validation_level);

// ArrowIpcArrayStreamReaderInitWithValidation with the decoder's decompressed-byte
// limit per message body set to max_decompressed_bytes (-1: the default; see
// ArrowIpcDecoderSetMaxDecompressedBytes). EINVAL for a level or limit out of
// range.
NANOARROW_DLL ArrowErrorCode ArrowIpcArrayStreamReaderInitWithLimits(
    struct ArrowArrayStream* out, struct ArrowIpcInputStream* input_stream,
    struct ArrowIpcArrayStreamReaderOptions* options,
    enum ArrowValidationLevel validation_level, int64_t max_decompressed_bytes);

// ---- IPC file reader with random access ----

struct ArrowIpcFileReader {
  void* private_data;
};

// Takes ownership of data (the whole file's bytes; may wrap a memory map through
// ArrowBufferDeallocator). Reads and verifies the footer (with the schema) only:
// the dictionaries are decoded by the first ArrowIpcFileReaderReadBatch (or the
// first get_next of ArrowIpcFileReaderArrayStream), so an error in one is
// reported there, not here.
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderInitBuffer(struct ArrowIpcFileReader* reader,
                                            struct ArrowBuffer* data,
                                            struct ArrowError* error);
// Reads through a seekable FILE* (passed as void*): the footer (with the schema)
// now; the dictionaries with the first record batch read and each record batch
// only when asked for, as with ArrowIpcFileReaderInitBuffer.
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderInitFile(struct ArrowIpcFileReader* reader,
                                          void* file_ptr, int close_on_release,
                                          struct ArrowError* error);
NANOARROW_DLL void ArrowIpcFileReaderReset(struct ArrowIpcFileReader* reader);
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderGetSchema(struct ArrowIpcFileReader* reader,
                                           struct ArrowSchema* out,
                                           struct ArrowError* error);
NANOARROW_DLL int64_t ArrowIpcFileReaderNumRecordBatches(struct ArrowIpcFileReader* reader);
// Sets the decompressed-byte limit per message body of the messages decoded from
// now on to max_bytes (>= 0), or back to the default with -1 (EINVAL for anything
// else; see ArrowIpcDecoderSetMaxDecompressedBytes). It applies to the record
// batches and to the dictionaries not decoded yet: those are all decoded by the
// first batch read, so a limit set between Init and that read covers them.
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderSetMaxDecompressedBytes(struct ArrowIpcFileReader* reader,
                                                         int64_t max_bytes);
// Decodes record batch i (a struct array) without reading the other batches. The
// first call that gets past the index check also decodes every dictionary of the
// file (each validated at NANOARROW_VALIDATION_LEVEL_FULL, under the current
// decompressed-byte limit); a dictionary error fails the call with a message
// naming the dictionary id (when its header could be read), the footer's
// dictionary block and its file offset, and the next call tries that dictionary
// again (e.g. after a higher limit). The reader stays valid for Reset either way.
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderReadBatch(struct ArrowIpcFileReader* reader, int64_t i,
                                           struct ArrowArray* out,
                                           enum ArrowValidationLevel validation_level,
                                           struct ArrowError* error);
// Moves the reader into an ArrowArrayStream over all of its record batches. get_next
// reads them with ArrowIpcFileReaderReadBatch, so dictionaries not decoded yet are
// decoded by the first get_next, under the limit set on the reader before.
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderArrayStream(struct ArrowIpcFileReader* reader,
                                             struct ArrowArrayStream* out,
                                             enum ArrowValidationLevel validation_level,
                                             struct ArrowError* error);

// ---- Memory held across messages (a budget per reader) ----
// Between messages a reader keeps the current values of every dictionary id:
// replacements, each with its deltas appended (decompressed sizes). Their bytes
// (the sizes of their buffers, every node of the values included) are counted
// against a budget per decoder; a DictionaryBatch whose values would take the
// total over it is refused with EINVAL, naming the dictionary id, the bytes the
// reader would hold and the limit, and the dictionaries stay as they were. By
// default the budget is NANOARROW_IPC_DEFAULT_HELD_BYTES_RATIO x the message bytes
// (headers and bodies) the decoder has decoded so far +
// NANOARROW_IPC_DEFAULT_HELD_BYTES_ALLOWANCE (64 x + 16 MiB): whatever the input
// can make the decoder allocate per message (see "Reader limits"), what it keeps is
// bounded by what it has read. Not counted: the spare capacity of a dictionary
// grown by deltas (storage doubles when full, so at most as much again), and the
// rest of the message bodies (input bytes) that dictionaries decoded from them keep
// alive besides their buffers, and the buffers behind the last
// ArrowIpcDecoderDecodeArrayView (one message, within its per-message limits).
//
// A delta is appended in place, in time proportional to its size (amortised), while
// no array handed out still uses the dictionary's storage; otherwise, and for
// values that hold dictionary-encoded fields themselves, the dictionary is copied
// first (arrays handed out never see their values change).
#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcDecoderSetMaxHeldBytes NANOARROW_SYMBOL(ArrowIpcDecoderSetMaxHeldBytes)
#define ArrowIpcDecoderGetHeldBytes NANOARROW_SYMBOL(ArrowIpcDecoderGetHeldBytes)
#define ArrowIpcArrayStreamReaderSetMaxHeldBytes \
  NANOARROW_SYMBOL(ArrowIpcArrayStreamReaderSetMaxHeldBytes)
#define ArrowIpcFileReaderSetMaxHeldBytes NANOARROW_SYMBOL(ArrowIpcFileReaderSetMaxHeldBytes)
#endif

#define NANOARROW_IPC_DEFAULT_HELD_BYTES_RATIO 64
#define NANOARROW_IPC_DEFAULT_HELD_BYTES_ALLOWANCE ((int64_t)16 << 20)

// Sets decoder's budget to max_bytes (>= 0; INT64_MAX: no limit), or back to the
// default with -1 (EINVAL for anything else). It applies to the dictionaries
// decoded from now on; those held already stay.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderSetMaxHeldBytes(struct ArrowIpcDecoder* decoder,
                                              int64_t max_bytes);
// The bytes decoder holds now and the budget in force now (either may be NULL).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderGetHeldBytes(struct ArrowIpcDecoder* decoder,
                                           int64_t* held_bytes, int64_t* max_held_bytes);
// The budget of a stream made by ArrowIpcArrayStreamReaderInit* (also when it reads
// an IPC file); EINVAL for any other stream or a max_bytes below -1.
NANOARROW_DLL ArrowErrorCode ArrowIpcArrayStreamReaderSetMaxHeldBytes(struct ArrowArrayStream* stream,
                                                        int64_t max_bytes);
// The budget of reader (as ArrowIpcDecoderSetMaxHeldBytes; set it before
// ArrowIpcFileReaderArrayStream, which moves the reader). The file's dictionaries are decoded by the first batch read, so
// a budget set between Init and that read covers them all.
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderSetMaxHeldBytes(struct ArrowIpcFileReader* reader,
                                                 int64_t max_bytes);

// ---- Column projection (read a subset of the top-level fields) ----
// A projection names the top-level fields (columns) to read, by index in the
// schema or by name; the result's schema is a struct of those fields in the
// order requested (no duplicates), with the schema's name and metadata. Columns
// not selected are located (their field node, buffer and variadic counts are
// read from the batch header to find where the selected ones start) but never
// decoded, validated, decompressed or copied, and DictionaryBatches whose id
// only unselected fields use are skipped without decoding. Setting a projection
// sets the decoder's schema again: the dictionaries it held are dropped, so set
// it before the first DictionaryBatch. ArrowIpcDecoderSetSchema* clears it.
#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcDecoderSetProjection NANOARROW_SYMBOL(ArrowIpcDecoderSetProjection)
#define ArrowIpcDecoderSetProjectionByName \
  NANOARROW_SYMBOL(ArrowIpcDecoderSetProjectionByName)
#define ArrowIpcArrayStreamReaderSetProjection \
  NANOARROW_SYMBOL(ArrowIpcArrayStreamReaderSetProjection)
#define ArrowIpcArrayStreamReaderSetProjectionByName \
  NANOARROW_SYMBOL(ArrowIpcArrayStreamReaderSetProjectionByName)
#define ArrowIpcFileReaderSetProjection NANOARROW_SYMBOL(ArrowIpcFileReaderSetProjection)
#define ArrowIpcFileReaderSetProjectionByName \
  NANOARROW_SYMBOL(ArrowIpcFileReaderSetProjectionByName)
#define ArrowIpcFileReaderSetCoalesceGap NANOARROW_SYMBOL(ArrowIpcFileReaderSetCoalesceGap)
#define ArrowIpcFileReaderBytesRead NANOARROW_SYMBOL(ArrowIpcFileReaderBytesRead)
#endif

// Byte ranges of selected buffers at most this far apart are read as one.
#define NANOARROW_IPC_DEFAULT_COALESCE_GAP ((int64_t)4096)

// Selects the columns field_indices[0..n) (0 <= index < the schema's number of
// columns, each at most once; n >= 1) of decoder's schema (set before). EINVAL
// with a message naming the bad index otherwise. field_indices == NULL with n ==
// 0 removes the projection (every column again).
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderSetProjection(struct ArrowIpcDecoder* decoder,
                                            const int64_t* field_indices, int64_t n,
                                            struct ArrowError* error);
// As ArrowIpcDecoderSetProjection with the columns' names (the first column of
// each name); EINVAL naming a name no column has.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderSetProjectionByName(struct ArrowIpcDecoder* decoder,
                                                  const char* const* names, int64_t n,
                                                  struct ArrowError* error);
// The projection of a stream made by ArrowIpcArrayStreamReaderInit* (also when it
// reads an IPC file), applied when the schema is read: call it before the first
// get_schema or get_next (EINVAL after, for another stream, or with the options'
// field_index other than -1). Bad indices or names are reported by get_schema /
// get_next. A stream cannot skip bytes: unselected columns are still read from the
// input, but not decoded, validated, decompressed or copied.
NANOARROW_DLL ArrowErrorCode ArrowIpcArrayStreamReaderSetProjection(struct ArrowArrayStream* stream,
                                                      const int64_t* field_indices,
                                                      int64_t n, struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowIpcArrayStreamReaderSetProjectionByName(
    struct ArrowArrayStream* stream, const char* const* names, int64_t n,
    struct ArrowError* error);
// The projection of reader (set before ArrowIpcFileReaderArrayStream, which moves
// the reader, and before the first batch is read). ArrowIpcFileReaderGetSchema then
// gives the projected schema. Over a FILE* (ArrowIpcFileReaderInitFile) a batch
// reads its metadata and only the byte ranges of the selected buffers (ranges
// within the coalesce gap of each other read at once); the dictionaries of
// unselected fields are not read past their metadata.
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderSetProjection(struct ArrowIpcFileReader* reader,
                                               const int64_t* field_indices, int64_t n,
                                               struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderSetProjectionByName(struct ArrowIpcFileReader* reader,
                                                     const char* const* names, int64_t n,
                                                     struct ArrowError* error);
// Selected byte ranges of a batch at most gap_bytes (>= 0) apart are read with one
// read (default NANOARROW_IPC_DEFAULT_COALESCE_GAP).
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderSetCoalesceGap(struct ArrowIpcFileReader* reader,
                                                int64_t gap_bytes);
// Bytes reader has read from its FILE* so far (magic, footer, message metadata and
// bodies or selected ranges); 0 for a reader over a buffer.
NANOARROW_DLL int64_t ArrowIpcFileReaderBytesRead(struct ArrowIpcFileReader* reader);
// ---- Memory-mapped files ----
// An IPC file or stream opened by path through a read-only memory map (POSIX
// mmap; ENOTSUP with a message on platforms without it). Batches point into the
// map without a copy: only buffers that are compressed, big-endian or misaligned
// in the file are copied. The map is unmapped when the reader (or stream) and
// the last array that points into it are released, in any order. Nothing is read
// ahead: the pages of a batch are read from the file when the decoder (the
// message header, the values that validation reads) or the caller touches them.
//
// The file must not be truncated or written while it is mapped: reading a page
// cut off by a truncation raises SIGBUS (no reader can prevent it), and values
// written into the file may show through the map after the batch was validated.
// A path that is not a regular file (a pipe, socket or device) gives ENOTSUP,
// so a caller can fall back on ArrowIpcFileReaderInitFile or a stream reader;
// EISDIR for a directory; errno from open() or mmap() otherwise (ENOTSUP also
// when the file system cannot map files).
#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcFileReaderInitMmap NANOARROW_SYMBOL(ArrowIpcFileReaderInitMmap)
#define ArrowIpcInputStreamInitMmap NANOARROW_SYMBOL(ArrowIpcInputStreamInitMmap)
#endif

// ArrowIpcFileReaderInitBuffer over the file at path, mapped: the footer and
// the schema are read at once, each batch when asked for. EINVAL for an empty
// file or one that is not an IPC file; error names the path.
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderInitMmap(struct ArrowIpcFileReader* reader,
                                                        const char* path,
                                                        struct ArrowError* error);
// ArrowIpcInputStreamInitBuffer over the file at path, mapped (an empty file is an
// empty stream). The batches of ArrowIpcArrayStreamReaderInit with
// use_shared_buffers point into the map; an IPC file (not a stream) read this way
// is copied whole by the stream reader: open it with ArrowIpcFileReaderInitMmap.
NANOARROW_DLL ArrowErrorCode ArrowIpcInputStreamInitMmap(struct ArrowIpcInputStream* stream,
                                                         const char* path,
                                                         struct ArrowError* error);
// ---- Push decoder: stream bytes in pieces of any size ----
// For event loops and non-blocking sockets, where a pull ArrowArrayStream cannot
// wait for bytes: the caller pushes IPC stream bytes as they arrive (1 byte to
// megabytes at a time) and gets the schema, dictionaries and record batches
// through callbacks or by polling. Every message is decoded by the
// ArrowIpcDecoder inside (verification, limits, held-byte budget,
// decompression), with the same results and errors as the stream reader; errors
// name the stream offset of the message. Memory: the one message that spans
// pieces is assembled in a buffer that grows with the bytes that arrived (a
// declared size over the limit below fails before anything is allocated);
// complete messages of a piece are decoded in place (bodies copied, in runs of at
// most 64 KiB, since the caller's bytes do not outlive the call) or, from
// ArrowIpcPushDecoderConsumeBuffer, sliced without a copy. In poll mode (no
// on_batch callback) the bytes wait and are decoded as batches are taken: at most
// 8 batches are decoded ahead of ArrowIpcPushDecoderNext.
#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcPushDecoderInit NANOARROW_SYMBOL(ArrowIpcPushDecoderInit)
#define ArrowIpcPushDecoderReset NANOARROW_SYMBOL(ArrowIpcPushDecoderReset)
#define ArrowIpcPushDecoderSetValidationLevel \
  NANOARROW_SYMBOL(ArrowIpcPushDecoderSetValidationLevel)
#define ArrowIpcPushDecoderSetMaxMessageBytes \
  NANOARROW_SYMBOL(ArrowIpcPushDecoderSetMaxMessageBytes)
#define ArrowIpcPushDecoderConsume NANOARROW_SYMBOL(ArrowIpcPushDecoderConsume)
#define ArrowIpcPushDecoderConsumeBuffer NANOARROW_SYMBOL(ArrowIpcPushDecoderConsumeBuffer)
#define ArrowIpcPushDecoderFinish NANOARROW_SYMBOL(ArrowIpcPushDecoderFinish)
#define ArrowIpcPushDecoderBytesNeeded NANOARROW_SYMBOL(ArrowIpcPushDecoderBytesNeeded)
#define ArrowIpcPushDecoderBytesConsumed NANOARROW_SYMBOL(ArrowIpcPushDecoderBytesConsumed)
#define ArrowIpcPushDecoderGetSchema NANOARROW_SYMBOL(ArrowIpcPushDecoderGetSchema)
#define ArrowIpcPushDecoderNext NANOARROW_SYMBOL(ArrowIpcPushDecoderNext)
#endif

// Bytes one message (metadata and body) may declare unless
// ArrowIpcPushDecoderSetMaxMessageBytes says otherwise (4 GiB).
#define NANOARROW_IPC_PUSH_DEFAULT_MAX_MESSAGE_BYTES ((int64_t)1 << 32)

// What the push decoder calls as messages are decoded (copied by Init; any member
// may be NULL). Each gets this struct (for private_data) and the error of the
// Consume or Finish call that decoded the message; a non-zero return stops the
// decoder with that code.
struct ArrowIpcPushDecoderCallbacks {
  // The stream's schema (the callee may move it; it is released afterwards).
  ArrowErrorCode (*on_schema)(struct ArrowIpcPushDecoderCallbacks* callbacks,
                              struct ArrowSchema* schema, struct ArrowError* error);
  // A DictionaryBatch of id was decoded; values are the id's values now
  // (borrowed, valid until the next message is decoded).
  ArrowErrorCode (*on_dictionary)(struct ArrowIpcPushDecoderCallbacks* callbacks,
                                  int64_t id, int is_delta, const struct ArrowArray* values,
                                  struct ArrowError* error);
  // A record batch (a struct array; the callee may move it, else it is released
  // afterwards). NULL: batches wait for ArrowIpcPushDecoderNext (poll mode).
  ArrowErrorCode (*on_batch)(struct ArrowIpcPushDecoderCallbacks* callbacks,
                             struct ArrowArray* batch, struct ArrowError* error);
  // The end-of-stream marker was consumed, or ArrowIpcPushDecoderFinish was called
  // between messages; called once.
  ArrowErrorCode (*on_end)(struct ArrowIpcPushDecoderCallbacks* callbacks,
                           struct ArrowError* error);
  void* private_data;
};

// May live on the caller's stack; Init, then Reset once done.
struct ArrowIpcPushDecoder {
  // The decoder of every message (owned). Its limits may be set through it
  // (ArrowIpcDecoderSetMaxDecompressedBytes, ArrowIpcDecoderSetMaxHeldBytes,
  // ArrowIpcDecoderSetDecompressor); decoding with it directly is not allowed.
  struct ArrowIpcDecoder decoder;
  void* private_data;
};

// callbacks may be NULL (poll mode for everything). Batches are validated at
// NANOARROW_VALIDATION_LEVEL_FULL unless set otherwise.
NANOARROW_DLL ArrowErrorCode ArrowIpcPushDecoderInit(
    struct ArrowIpcPushDecoder* decoder,
    const struct ArrowIpcPushDecoderCallbacks* callbacks, struct ArrowError* error);
// Releases the decoder, its batches not taken yet and its partial message.
NANOARROW_DLL void ArrowIpcPushDecoderReset(struct ArrowIpcPushDecoder* decoder);
// EINVAL for a level that does not exist.
NANOARROW_DLL ArrowErrorCode ArrowIpcPushDecoderSetValidationLevel(
    struct ArrowIpcPushDecoder* decoder, enum ArrowValidationLevel validation_level);
// The most bytes one message may declare (>= 0; INT64_MAX: no limit), or the
// default with -1; EINVAL below -1. A larger prefix or header fails with EINVAL.
NANOARROW_DLL ArrowErrorCode ArrowIpcPushDecoderSetMaxMessageBytes(
    struct ArrowIpcPushDecoder* decoder, int64_t max_bytes);
// Consumes the next size bytes of the stream (data need not outlive the call),
// decoding every message they complete (poll mode: until 8 batches wait; Next
// decodes the rest, and returns the errors met there). After the end-of-stream
// marker any byte is refused with EINVAL (feed at most
// ArrowIpcPushDecoderBytesNeeded bytes to stop exactly there). Any other failure
// (a malformed message, a limit, a callback's code) stops the decoder: later
// calls return the same code.
NANOARROW_DLL ArrowErrorCode ArrowIpcPushDecoderConsume(struct ArrowIpcPushDecoder* decoder,
                                                        const uint8_t* data, int64_t size,
                                                        struct ArrowError* error);
// Like Consume, taking buffer over (left empty, also on failure): batches of
// messages that lie wholly inside it point into it instead of into copies.
NANOARROW_DLL ArrowErrorCode ArrowIpcPushDecoderConsumeBuffer(
    struct ArrowIpcPushDecoder* decoder, struct ArrowBuffer* buffer,
    struct ArrowError* error);
// No more bytes will come (poll mode: decodes all that waits first). OK between
// messages after the schema (a stream may end without its end-of-stream marker),
// as the stream reader does; a stream cut inside a message fails (ESPIPE in its
// metadata or body, EINVAL in its prefix), one without a Schema with ENODATA.
NANOARROW_DLL ArrowErrorCode ArrowIpcPushDecoderFinish(struct ArrowIpcPushDecoder* decoder,
                                                       struct ArrowError* error);
// The fewest bytes that let the decoder take its next step (finish a prefix, a
// metadata flatbuffer or a message): reading exactly that many never reads past
// the end of the stream. 0 once it ended or failed. In poll mode it first decodes
// the bytes that wait (their batches wait for Next, a failure shows in the next
// call that returns a code).
NANOARROW_DLL int64_t ArrowIpcPushDecoderBytesNeeded(struct ArrowIpcPushDecoder* decoder);
// Bytes consumed as part of the stream (up to and including its end-of-stream
// marker).
NANOARROW_DLL int64_t ArrowIpcPushDecoderBytesConsumed(struct ArrowIpcPushDecoder* decoder);
// A copy of the stream's schema; EAGAIN while its message has not arrived.
NANOARROW_DLL ArrowErrorCode ArrowIpcPushDecoderGetSchema(struct ArrowIpcPushDecoder* decoder,
                                                          struct ArrowSchema* out,
                                                          struct ArrowError* error);
// Poll mode: moves the oldest decoded batch into out. EAGAIN (out->release NULL)
// while more bytes are needed, ENODATA once the stream ended and every batch was
// taken, the failure's code after a failure (batches decoded before it are
// handed out first).
NANOARROW_DLL ArrowErrorCode ArrowIpcPushDecoderNext(struct ArrowIpcPushDecoder* decoder,
                                                     struct ArrowArray* out,
                                                     struct ArrowError* error);

// ---- Parallel decompression and compression (threads) ----
// Opt-in: with the default of 1 thread the library starts no thread. With
// n_threads > 1 the buffers of one compressed message body (a record batch or a
// dictionary batch) are decompressed, or when writing compressed, concurrently:
// decompress_add / compress_add do a buffer under NANOARROW_IPC_PARALLEL_MIN_BYTES
// (decompressed size when reading, uncompressed when writing) at once on the
// calling thread and queue the others; up to n_threads - 1 POSIX threads
// (pthreads: programs built from the single-file bundle link with -pthread),
// started when the first buffer is queued and joined when the (de)compressor is
// released, take queued buffers, and decompress_wait / compress_wait (called by
// the decoder and encoder once per body) make the calling thread take its share
// before it waits for the rest. No thread outlives its (de)compressor; a thread
// that cannot be started is done without. Output and errors are those of the
// serial path: the same bytes (a writer's output is byte-identical), and of
// several failing buffers the first in body order is reported (the decoder's
// message names its field and buffer; buffers queued after it are dropped).
// Memory: every destination is allocated as on the serial path (the decoder's
// decompressed-byte limit and held-byte budget apply before a buffer is queued);
// a (de)compressor adds a queue of at most 16 x n_threads buffers (about 100
// bytes each; when full, add does the oldest itself) and each running thread its
// codec's working memory for one buffer at a time, as a serial call uses. n_threads
// above NANOARROW_IPC_MAX_THREADS counts as that many; on platforms without
// pthreads (_WIN32) everything is serial. A wait with timeout_ms >= 0 returns
// ETIMEDOUT (buffers still queued stay queued) at most about a second late.
#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcParallelDecompressor NANOARROW_SYMBOL(ArrowIpcParallelDecompressor)
#define ArrowIpcParallelCompressor NANOARROW_SYMBOL(ArrowIpcParallelCompressor)
#define ArrowIpcDecoderSetNumThreads NANOARROW_SYMBOL(ArrowIpcDecoderSetNumThreads)
#define ArrowIpcArrayStreamReaderSetNumThreads \
  NANOARROW_SYMBOL(ArrowIpcArrayStreamReaderSetNumThreads)
#define ArrowIpcFileReaderSetNumThreads NANOARROW_SYMBOL(ArrowIpcFileReaderSetNumThreads)
#define ArrowIpcEncoderSetNumThreads NANOARROW_SYMBOL(ArrowIpcEncoderSetNumThreads)
#define ArrowIpcWriterSetNumThreads NANOARROW_SYMBOL(ArrowIpcWriterSetNumThreads)
#endif

// Buffers smaller than this stay on the calling thread (64 KiB).
#define NANOARROW_IPC_PARALLEL_MIN_BYTES ((int64_t)65536)
// The most threads one (de)compressor uses.
#define NANOARROW_IPC_MAX_THREADS 64

struct ArrowIpcCompressor;
struct ArrowIpcEncoder;
struct ArrowIpcWriter;

// A decompressor with the built-in codecs that uses up to n_threads threads
// (the caller's included); n_threads <= 1 gives ArrowIpcSerialDecompressor.
NANOARROW_DLL ArrowErrorCode ArrowIpcParallelDecompressor(
    struct ArrowIpcDecompressor* decompressor, int n_threads);
// A compressor as ArrowIpcSerialCompressor makes (same arguments, same EINVAL)
// that uses up to n_threads threads; n_threads <= 1 gives the serial one.
NANOARROW_DLL ArrowErrorCode ArrowIpcParallelCompressor(
    struct ArrowIpcCompressor* compressor, enum ArrowIpcCompressionType compression_type,
    int compression_level, int n_threads);
// Replaces decoder's decompressor with ArrowIpcParallelDecompressor(n_threads)
// (one installed by ArrowIpcDecoderSetDecompressor is released). Also for the
// decoder of a push decoder.
NANOARROW_DLL ArrowErrorCode ArrowIpcDecoderSetNumThreads(struct ArrowIpcDecoder* decoder,
                                                          int n_threads);
// The same for a stream made by ArrowIpcArrayStreamReaderInit* (also when it
// reads an IPC file); EINVAL with a message for another stream.
NANOARROW_DLL ArrowErrorCode ArrowIpcArrayStreamReaderSetNumThreads(
    struct ArrowArrayStream* stream, int n_threads, struct ArrowError* error);
// The same for a file reader (before ArrowIpcFileReaderArrayStream moves it).
NANOARROW_DLL ArrowErrorCode ArrowIpcFileReaderSetNumThreads(
    struct ArrowIpcFileReader* reader, int n_threads);
// Compressed bodies are compressed with up to n_threads threads: the compressor
// ArrowIpcEncoderSetCompression makes (also one made before this call) is then a
// parallel one; a compressor installed with ArrowIpcEncoderSetCompressor is kept.
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderSetNumThreads(struct ArrowIpcEncoder* encoder,
                                                          int n_threads,
                                                          struct ArrowError* error);
// The same for the encoder of writer.
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterSetNumThreads(struct ArrowIpcWriter* writer,
                                                         int n_threads,
                                                         struct ArrowError* error);

// ---- Push decoder: how far poll mode decodes ahead ----
// Poll mode decodes the bytes it was given until this many batches wait for
// ArrowIpcPushDecoderNext (default 8; -1 sets it back): 1 holds the fewest
// decoded batches at once (a reader handing batches on one at a time, over a
// large ConsumeBuffer of compressed batches, say). EINVAL for 0 or below -1.
#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcPushDecoderSetMaxBatchesAhead \
  NANOARROW_SYMBOL(ArrowIpcPushDecoderSetMaxBatchesAhead)
#endif
NANOARROW_DLL ArrowErrorCode ArrowIpcPushDecoderSetMaxBatchesAhead(
    struct ArrowIpcPushDecoder* decoder, int64_t n_batches);

#ifdef __cplusplus
}
#endif

// The writing half of the IPC API (nanoarrow declares both in this header).
#include "nanoarrow/nanoarrow_ipc_writer.h"

#endif  // NANOARROW_IPC_H_INCLUDED
