/* nanoarrow in C: the Arrow IPC extension (reading).
 *
 * Decodes Arrow IPC messages (the encapsulated flatbuffers Message format, the
 * stream format and the file format) into ArrowSchema / ArrowArrayView /
 * ArrowArray. Every input byte is treated as hostile: offsets, lengths, counts and
 * nesting depth are checked before use and allocations are bounded by the input.
 *
 * Except where noted, objects are not thread-safe; callers serialize accesses. */

#ifndef NANOARROW_IPC_H_INCLUDED
#define NANOARROW_IPC_H_INCLUDED

#include "nanoarrow/nanoarrow.h"

#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcCheckRuntime NANOARROW_SYMBOL(ArrowIpcCheckRuntime)
#define ArrowIpcSharedBufferIsThreadSafe NANOARROW_SYMBOL(ArrowIpcSharedBufferIsThreadSafe)
#define ArrowIpcSharedBufferInit NANOARROW_SYMBOL(ArrowIpcSharedBufferInit)
#define ArrowIpcSharedBufferReset NANOARROW_SYMBOL(ArrowIpcSharedBufferReset)
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
#define ArrowIpcDecoderPeekHeader NANOARROW_SYMBOL(ArrowIpcDecoderPeekHeader)
#define ArrowIpcDecoderVerifyHeader NANOARROW_SYMBOL(ArrowIpcDecoderVerifyHeader)
#define ArrowIpcDecoderDecodeHeader NANOARROW_SYMBOL(ArrowIpcDecoderDecodeHeader)
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
#define ArrowIpcFooterInit NANOARROW_SYMBOL(ArrowIpcFooterInit)
#define ArrowIpcFooterReset NANOARROW_SYMBOL(ArrowIpcFooterReset)
#define ArrowIpcDecoderPeekFooter NANOARROW_SYMBOL(ArrowIpcDecoderPeekFooter)
#define ArrowIpcDecoderVerifyFooter NANOARROW_SYMBOL(ArrowIpcDecoderVerifyFooter)
#define ArrowIpcDecoderDecodeFooter NANOARROW_SYMBOL(ArrowIpcDecoderDecodeFooter)
#define ArrowIpcInputStreamInitBuffer NANOARROW_SYMBOL(ArrowIpcInputStreamInitBuffer)
#define ArrowIpcInputStreamInitFile NANOARROW_SYMBOL(ArrowIpcInputStreamInitFile)
#define ArrowIpcInputStreamMove NANOARROW_SYMBOL(ArrowIpcInputStreamMove)
#define ArrowIpcArrayStreamReaderInit NANOARROW_SYMBOL(ArrowIpcArrayStreamReaderInit)
#define ArrowIpcFileReaderInitBuffer NANOARROW_SYMBOL(ArrowIpcFileReaderInitBuffer)
#define ArrowIpcFileReaderInitFile NANOARROW_SYMBOL(ArrowIpcFileReaderInitFile)
#define ArrowIpcFileReaderReset NANOARROW_SYMBOL(ArrowIpcFileReaderReset)
#define ArrowIpcFileReaderGetSchema NANOARROW_SYMBOL(ArrowIpcFileReaderGetSchema)
#define ArrowIpcFileReaderNumRecordBatches \
  NANOARROW_SYMBOL(ArrowIpcFileReaderNumRecordBatches)
#define ArrowIpcFileReaderReadBatch NANOARROW_SYMBOL(ArrowIpcFileReaderReadBatch)
#define ArrowIpcFileReaderArrayStream NANOARROW_SYMBOL(ArrowIpcFileReaderArrayStream)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Enumerators ---- */

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

/* Bits of ArrowIpcDecoder.feature_flags (the Schema's "features"). */
enum ArrowIpcFeatures {
  NANOARROW_IPC_FEATURE_DICTIONARY_REPLACEMENT = 1,
  NANOARROW_IPC_FEATURE_COMPRESSED_BODY = 2
};
/* Also usable in #if / #ifdef, as nanoarrow defines them as macros. */
#define NANOARROW_IPC_FEATURE_DICTIONARY_REPLACEMENT NANOARROW_IPC_FEATURE_DICTIONARY_REPLACEMENT
#define NANOARROW_IPC_FEATURE_COMPRESSED_BODY NANOARROW_IPC_FEATURE_COMPRESSED_BODY

enum ArrowIpcCompressionType {
  NANOARROW_IPC_COMPRESSION_TYPE_NONE,
  NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME,
  NANOARROW_IPC_COMPRESSION_TYPE_ZSTD
};

/* EINVAL when the library was built for a platform whose endianness differs from
 * the running one. */
ArrowErrorCode ArrowIpcCheckRuntime(struct ArrowError* error);

/* ---- Shared (reference-counted) message bodies ---- */

/* A reference-counted body: arrays decoded with ArrowIpcDecoderDecodeArrayFromShared
 * point into it and keep it alive, so no body byte is copied. */
struct ArrowIpcSharedBuffer {
  struct ArrowBuffer private_src;
};

/* Takes ownership of src (src is left empty). */
ArrowErrorCode ArrowIpcSharedBufferInit(struct ArrowIpcSharedBuffer* shared,
                                        struct ArrowBuffer* src);
/* Drops this reference; the memory is freed when the last array using it is. */
void ArrowIpcSharedBufferReset(struct ArrowIpcSharedBuffer* shared);
/* Non-zero when the reference count uses atomic operations (arrays that share a
 * body may then be released from different threads). */
int ArrowIpcSharedBufferIsThreadSafe(void);

/* ---- Decompression ---- */

/* Decompresses src into exactly dst_size bytes at dst. */
typedef ArrowErrorCode (*ArrowIpcDecompressFunction)(struct ArrowBufferView src,
                                                     uint8_t* dst, int64_t dst_size,
                                                     struct ArrowError* error);

/* A (possibly asynchronous) decompressor: decompress_add queues one buffer,
 * decompress_wait waits until every queued buffer is written (timeout_ms < 0: no
 * timeout). */
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

/* A decompressor that runs each buffer synchronously in decompress_add, with the
 * built-in codecs (those this library was compiled with) installed. */
ArrowErrorCode ArrowIpcSerialDecompressor(struct ArrowIpcDecompressor* decompressor);
/* Installs (or with NULL removes) the function used for compression_type. */
ArrowErrorCode ArrowIpcSerialDecompressorSetFunction(
    struct ArrowIpcDecompressor* decompressor,
    enum ArrowIpcCompressionType compression_type,
    ArrowIpcDecompressFunction decompress_function);
/* NULL when the library was built without NANOARROW_IPC_WITH_ZSTD / _LZ4. */
ArrowIpcDecompressFunction ArrowIpcGetZstdDecompressionFunction(void);
ArrowIpcDecompressFunction ArrowIpcGetLZ4DecompressionFunction(void);

/* ---- Footer (file format) ---- */

/* One entry of the footer's dictionaries / recordBatches. */
struct ArrowIpcFileBlock {
  int64_t offset;
  int32_t metadata_length;
  int64_t body_length;
};

struct ArrowIpcFooter {
  struct ArrowSchema schema;
  /* struct ArrowIpcFileBlock entries. */
  struct ArrowBuffer record_batch_blocks;
  struct ArrowBuffer dictionary_blocks;
};

void ArrowIpcFooterInit(struct ArrowIpcFooter* footer);
void ArrowIpcFooterReset(struct ArrowIpcFooter* footer);

/* ---- Decoder ---- */

struct ArrowIpcDecoder {
  /* Of the last message whose header was verified or decoded. */
  enum ArrowIpcMessageType message_type;
  enum ArrowIpcMetadataVersion metadata_version;
  /* Of the last decoded Schema message. */
  enum ArrowIpcEndianness endianness;
  /* NANOARROW_IPC_FEATURE_* bits of the last decoded Schema message. */
  int32_t feature_flags;
  /* Of the last record batch / dictionary batch header. */
  enum ArrowIpcCompressionType codec;
  /* Prefix plus flatbuffer size of the last peeked message (the body follows). */
  int32_t header_size_bytes;
  int64_t body_size_bytes;
  /* The last decoded footer (NULL until ArrowIpcDecoderDecodeFooter succeeds). */
  struct ArrowIpcFooter* footer;
  void* private_data;
};

ArrowErrorCode ArrowIpcDecoderInit(struct ArrowIpcDecoder* decoder);
void ArrowIpcDecoderReset(struct ArrowIpcDecoder* decoder);

/* Takes ownership of decompressor (releasing any previous one). */
ArrowErrorCode ArrowIpcDecoderSetDecompressor(struct ArrowIpcDecoder* decoder,
                                              struct ArrowIpcDecompressor* decompressor);

/* Reads the message prefix (0xFFFFFFFF + int32 length, or a legacy int32 length)
 * and sets header_size_bytes. ESPIPE when data is too short to tell, ENODATA at an
 * end-of-stream marker, EINVAL for an impossible length. prefix_size_bytes (may be
 * NULL) receives 8 or 4. */
ArrowErrorCode ArrowIpcDecoderPeekHeader(struct ArrowIpcDecoder* decoder,
                                         struct ArrowBufferView data,
                                         int32_t* prefix_size_bytes,
                                         struct ArrowError* error);
/* PeekHeader + a full flatbuffers verification of the Message; sets message_type,
 * metadata_version and body_size_bytes. */
ArrowErrorCode ArrowIpcDecoderVerifyHeader(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error);
/* VerifyHeader + decoding of the header. data must stay valid until the next
 * header is decoded (the decoder refers to it). */
ArrowErrorCode ArrowIpcDecoderDecodeHeader(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error);
/* The schema of the last decoded Schema message. */
ArrowErrorCode ArrowIpcDecoderDecodeSchema(struct ArrowIpcDecoder* decoder,
                                           struct ArrowSchema* out,
                                           struct ArrowError* error);
/* Sets the schema record batches are decoded against (schema is copied). */
ArrowErrorCode ArrowIpcDecoderSetSchema(struct ArrowIpcDecoder* decoder,
                                        struct ArrowSchema* schema,
                                        struct ArrowError* error);
/* Endianness of the bodies to come (when not taken from a decoded Schema). */
ArrowErrorCode ArrowIpcDecoderSetEndianness(struct ArrowIpcDecoder* decoder,
                                            enum ArrowIpcEndianness endianness);

/* Decodes field i (-1: the whole batch as a struct) of the last decoded
 * RecordBatch header into a view owned by the decoder, valid until the next
 * decode and while body is. */
ArrowErrorCode ArrowIpcDecoderDecodeArrayView(struct ArrowIpcDecoder* decoder,
                                              struct ArrowBufferView body, int64_t i,
                                              struct ArrowArrayView** out,
                                              struct ArrowError* error);
/* Decodes field i (-1: whole batch) into an independent array (the body is
 * copied), validated at validation_level. */
ArrowErrorCode ArrowIpcDecoderDecodeArray(struct ArrowIpcDecoder* decoder,
                                          struct ArrowBufferView body, int64_t i,
                                          struct ArrowArray* out,
                                          enum ArrowValidationLevel validation_level,
                                          struct ArrowError* error);
/* Like DecodeArray but the array refers to (and keeps alive) the shared body. */
ArrowErrorCode ArrowIpcDecoderDecodeArrayFromShared(
    struct ArrowIpcDecoder* decoder, struct ArrowIpcSharedBuffer* shared, int64_t i,
    struct ArrowArray* out, enum ArrowValidationLevel validation_level,
    struct ArrowError* error);

/* ---- Dictionaries ----
 * Dictionary-encoded fields of the decoder's schema. DictionaryBatch messages are
 * decoded into the decoder's dictionary store with ArrowIpcDecoderDecodeDictionary
 * (a delta appends, a non-delta replaces); decoded record batches then carry the
 * current dictionary of each encoded field (one dictionary may serve several
 * fields; arrays decoded earlier keep the dictionary they were decoded with). */

struct ArrowIpcDictionaryEncoding {
  int64_t id;
  /* The dictionary-encoded field (index type in format, values in ->dictionary). */
  const struct ArrowSchema* schema;
};

struct ArrowIpcDictionaryEncodings {
  int64_t n_encodings;
  const struct ArrowIpcDictionaryEncoding* encodings;
};

/* The encodings of the current schema (valid until the schema changes). */
ArrowErrorCode ArrowIpcDecoderGetDictionaryEncodings(
    struct ArrowIpcDecoder* decoder, struct ArrowIpcDictionaryEncodings* out);
/* Decodes the last decoded DictionaryBatch header with body (copied). */
ArrowErrorCode ArrowIpcDecoderDecodeDictionary(struct ArrowIpcDecoder* decoder,
                                               struct ArrowBufferView body,
                                               enum ArrowValidationLevel validation_level,
                                               struct ArrowError* error);
ArrowErrorCode ArrowIpcDecoderDecodeDictionaryFromShared(
    struct ArrowIpcDecoder* decoder, struct ArrowIpcSharedBuffer* shared,
    enum ArrowValidationLevel validation_level, struct ArrowError* error);
/* The current dictionary with id (a borrowed array owned by the decoder), or
 * EINVAL when none was decoded yet. */
ArrowErrorCode ArrowIpcDecoderGetDictionary(struct ArrowIpcDecoder* decoder, int64_t id,
                                            const struct ArrowArray** out,
                                            struct ArrowError* error);

/* ---- Footer decoding ---- */

/* data ends with the footer: ... footer, int32 footer length, "ARROW1". Sets
 * header_size_bytes to the footer's size plus those 10 trailing bytes. */
ArrowErrorCode ArrowIpcDecoderPeekFooter(struct ArrowIpcDecoder* decoder,
                                         struct ArrowBufferView data,
                                         struct ArrowError* error);
ArrowErrorCode ArrowIpcDecoderVerifyFooter(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error);
/* Decodes the footer into decoder->footer (and sets the decoder's schema). */
ArrowErrorCode ArrowIpcDecoderDecodeFooter(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error);

/* ---- Input streams ---- */

struct ArrowIpcInputStream {
  /* Reads up to buf_size_bytes; *size_read_out == 0 means end of input. */
  ArrowErrorCode (*read)(struct ArrowIpcInputStream* stream, uint8_t* buf,
                         int64_t buf_size_bytes, int64_t* size_read_out,
                         struct ArrowError* error);
  void (*release)(struct ArrowIpcInputStream* stream);
  void* private_data;
};

void ArrowIpcInputStreamMove(struct ArrowIpcInputStream* src,
                             struct ArrowIpcInputStream* dst);
/* Takes ownership of input (left empty). */
ArrowErrorCode ArrowIpcInputStreamInitBuffer(struct ArrowIpcInputStream* stream,
                                             struct ArrowBuffer* input);
/* Reads from a FILE* (passed as void*), closed on release when close_on_release. */
ArrowErrorCode ArrowIpcInputStreamInitFile(struct ArrowIpcInputStream* stream,
                                           void* file_ptr, int close_on_release);

/* ---- ArrowArrayStream over IPC input ---- */

struct ArrowIpcArrayStreamReaderOptions {
  /* -1: whole batches (struct arrays); otherwise only top-level column i. */
  int64_t field_index;
  /* Non-zero: arrays share each message body instead of copying it. */
  int use_shared_buffers;
  /* How thoroughly each batch is validated (FULL when options is NULL). */
  enum ArrowValidationLevel validation_level;
};

/* An ArrowArrayStream over an IPC stream or (detected by its "ARROW1" magic) an IPC
 * file. Takes ownership of input_stream. options may be NULL. */
ArrowErrorCode ArrowIpcArrayStreamReaderInit(
    struct ArrowArrayStream* out, struct ArrowIpcInputStream* input_stream,
    struct ArrowIpcArrayStreamReaderOptions* options);

/* ---- IPC file reader with random access ---- */

struct ArrowIpcFileReader {
  void* private_data;
};

/* Takes ownership of data (the whole file's bytes; may wrap a memory map through
 * ArrowBufferDeallocator). Reads the footer and every dictionary. */
ArrowErrorCode ArrowIpcFileReaderInitBuffer(struct ArrowIpcFileReader* reader,
                                            struct ArrowBuffer* data,
                                            struct ArrowError* error);
/* Reads through a seekable FILE* (passed as void*): the footer and dictionaries
 * now, each record batch only when asked for. */
ArrowErrorCode ArrowIpcFileReaderInitFile(struct ArrowIpcFileReader* reader,
                                          void* file_ptr, int close_on_release,
                                          struct ArrowError* error);
void ArrowIpcFileReaderReset(struct ArrowIpcFileReader* reader);
ArrowErrorCode ArrowIpcFileReaderGetSchema(struct ArrowIpcFileReader* reader,
                                           struct ArrowSchema* out,
                                           struct ArrowError* error);
int64_t ArrowIpcFileReaderNumRecordBatches(struct ArrowIpcFileReader* reader);
/* Decodes record batch i (a struct array) without reading the others. */
ArrowErrorCode ArrowIpcFileReaderReadBatch(struct ArrowIpcFileReader* reader, int64_t i,
                                           struct ArrowArray* out,
                                           enum ArrowValidationLevel validation_level,
                                           struct ArrowError* error);
/* Moves the reader into an ArrowArrayStream over all of its record batches. */
ArrowErrorCode ArrowIpcFileReaderArrayStream(struct ArrowIpcFileReader* reader,
                                             struct ArrowArrayStream* out,
                                             enum ArrowValidationLevel validation_level,
                                             struct ArrowError* error);

#ifdef __cplusplus
}
#endif

#endif /* NANOARROW_IPC_H_INCLUDED */
