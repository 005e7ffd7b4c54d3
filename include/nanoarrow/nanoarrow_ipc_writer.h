// nanoarrow in C: the Arrow IPC extension (writing).
//
// Encodes ArrowSchema / ArrowArrayView into Arrow IPC messages and writes the IPC
// stream and file formats. Shares its enums and footer structs with the reading
// half (nanoarrow_ipc.h).
//
// Body layout policy: every body buffer's values start at a multiple of the
// encoder's alignment (8 bytes by default; 16, 32, 64... with
// ArrowIpcEncoderSetAlignment), counted from the start of the output when written by
// ArrowIpcWriter (each message's metadata is padded so that its body starts there).
// In a compressed body that holds for the values of a buffer stored raw after its
// 8-byte -1 prefix. Buffers are zero-padded to the alignment, so message bodies are
// always a multiple of it. Sliced
// arrays (non-zero offsets) are written as their logical slice: offsets are
// rebased to start at 0 and bitmaps shifted to start at bit 0.
//
// Dictionary ids: ArrowIpcEncoderEncodeSchema numbers dictionary-encoded fields
// 0, 1, 2, ... in depth-first pre-order (a field, then the children of its value
// type, then its siblings); ArrowIpcWriter uses the same numbering.

#ifndef NANOARROW_IPC_WRITER_H_INCLUDED
#define NANOARROW_IPC_WRITER_H_INCLUDED

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcEncoderInit NANOARROW_SYMBOL(ArrowIpcEncoderInit)
#define ArrowIpcEncoderReset NANOARROW_SYMBOL(ArrowIpcEncoderReset)
#define ArrowIpcEncoderSetCompression NANOARROW_SYMBOL(ArrowIpcEncoderSetCompression)
#define ArrowIpcEncoderSetCompressor NANOARROW_SYMBOL(ArrowIpcEncoderSetCompressor)
#define ArrowIpcSerialCompressor NANOARROW_SYMBOL(ArrowIpcSerialCompressor)
#define ArrowIpcSerialCompressorSetFunction \
  NANOARROW_SYMBOL(ArrowIpcSerialCompressorSetFunction)
#define ArrowIpcGetZstdCompressionFunction \
  NANOARROW_SYMBOL(ArrowIpcGetZstdCompressionFunction)
#define ArrowIpcGetLZ4CompressionFunction NANOARROW_SYMBOL(ArrowIpcGetLZ4CompressionFunction)
#define ArrowIpcGetCompressionLevelRange NANOARROW_SYMBOL(ArrowIpcGetCompressionLevelRange)
#define ArrowIpcCompressionTypeToString NANOARROW_SYMBOL(ArrowIpcCompressionTypeToString)
#define ArrowIpcCompressionTypeFromString \
  NANOARROW_SYMBOL(ArrowIpcCompressionTypeFromString)
#define ArrowIpcEncoderSetAlignment NANOARROW_SYMBOL(ArrowIpcEncoderSetAlignment)
#define ArrowIpcEncoderSetMessageMetadata NANOARROW_SYMBOL(ArrowIpcEncoderSetMessageMetadata)
#define ArrowIpcEncoderFinalizeBuffer NANOARROW_SYMBOL(ArrowIpcEncoderFinalizeBuffer)
#define ArrowIpcEncoderEncodeSchema NANOARROW_SYMBOL(ArrowIpcEncoderEncodeSchema)
#define ArrowIpcEncoderEncodeSimpleRecordBatch \
  NANOARROW_SYMBOL(ArrowIpcEncoderEncodeSimpleRecordBatch)
#define ArrowIpcEncoderEncodeDictionaryBatch \
  NANOARROW_SYMBOL(ArrowIpcEncoderEncodeDictionaryBatch)
#define ArrowIpcEncoderEncodeSimpleDictionaryBatch \
  NANOARROW_SYMBOL(ArrowIpcEncoderEncodeSimpleDictionaryBatch)
#define ArrowIpcEncoderEncodeFooter NANOARROW_SYMBOL(ArrowIpcEncoderEncodeFooter)
#define ArrowIpcOutputStreamInitBuffer NANOARROW_SYMBOL(ArrowIpcOutputStreamInitBuffer)
#define ArrowIpcOutputStreamInitFile NANOARROW_SYMBOL(ArrowIpcOutputStreamInitFile)
#define ArrowIpcOutputStreamWrite NANOARROW_SYMBOL(ArrowIpcOutputStreamWrite)
#define ArrowIpcOutputStreamMove NANOARROW_SYMBOL(ArrowIpcOutputStreamMove)
#define ArrowIpcWriterInit NANOARROW_SYMBOL(ArrowIpcWriterInit)
#define ArrowIpcWriterReset NANOARROW_SYMBOL(ArrowIpcWriterReset)
#define ArrowIpcWriterSetCompression NANOARROW_SYMBOL(ArrowIpcWriterSetCompression)
#define ArrowIpcWriterSetAlignment NANOARROW_SYMBOL(ArrowIpcWriterSetAlignment)
#define ArrowIpcWriterWriteSchema NANOARROW_SYMBOL(ArrowIpcWriterWriteSchema)
#define ArrowIpcWriterWriteArrayView NANOARROW_SYMBOL(ArrowIpcWriterWriteArrayView)
#define ArrowIpcWriterWriteDictionaryBatch \
  NANOARROW_SYMBOL(ArrowIpcWriterWriteDictionaryBatch)
#define ArrowIpcWriterWriteArrayStream NANOARROW_SYMBOL(ArrowIpcWriterWriteArrayStream)
#define ArrowIpcWriterStartFile NANOARROW_SYMBOL(ArrowIpcWriterStartFile)
#define ArrowIpcWriterFinalizeFile NANOARROW_SYMBOL(ArrowIpcWriterFinalizeFile)
#endif

#ifdef __cplusplus
extern "C" {
#endif

// ---- Compression ----

// The level that selects each codec's own default (zstd's 3, lz4's fast mode).
#define NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT 0

// Compresses src at compression_level, appending the compressed bytes to dst
// (what dst held before is kept).
typedef ArrowErrorCode (*ArrowIpcCompressFunction)(struct ArrowBufferView src,
                                                   int compression_level,
                                                   struct ArrowBuffer* dst,
                                                   struct ArrowError* error);

// A user-extensible compressor, as ArrowIpcDecompressor is for reading. The
// encoder calls compress_add once per body buffer of a message and then
// compress_wait once before it reads any dst; an implementation may do the work in
// either (in threads, say). src stays valid and dst untouched by the encoder until
// compress_wait returns; each dst is a distinct buffer that only grows.
struct ArrowIpcCompressor {
  // The codec it compresses with, which messages declare.
  enum ArrowIpcCompressionType compression_type;
  // Compresses src, appending to dst (possibly only by the next compress_wait).
  ArrowErrorCode (*compress_add)(struct ArrowIpcCompressor* compressor,
                                 struct ArrowBufferView src, struct ArrowBuffer* dst,
                                 struct ArrowError* error);
  // Completes every compress_add (timeout_ms < 0: however long it takes); on
  // error every pending one is completed or dropped all the same.
  ArrowErrorCode (*compress_wait)(struct ArrowIpcCompressor* compressor,
                                  int64_t timeout_ms, struct ArrowError* error);
  // Sets release to NULL.
  void (*release)(struct ArrowIpcCompressor* compressor);
  void* private_data;
};

// A compressor that compresses in compress_add, with the built-in function of each
// codec (replaceable with ArrowIpcSerialCompressorSetFunction) at
// compression_level. EINVAL (release left NULL) for an unknown compression_type;
// NONE is accepted, but such a compressor refuses to compress.
NANOARROW_DLL ArrowErrorCode ArrowIpcSerialCompressor(struct ArrowIpcCompressor* compressor,
                                        enum ArrowIpcCompressionType compression_type,
                                        int compression_level);

// Replaces the function a serial compressor uses for compression_type (NULL: the
// codec is refused with ENOTSUP). EINVAL for NONE, an unknown type or a compressor
// not made by ArrowIpcSerialCompressor.
NANOARROW_DLL ArrowErrorCode ArrowIpcSerialCompressorSetFunction(
    struct ArrowIpcCompressor* compressor, enum ArrowIpcCompressionType compression_type,
    ArrowIpcCompressFunction compress_function);

// The built-in compression functions; NULL when built without the codec.
NANOARROW_DLL ArrowIpcCompressFunction ArrowIpcGetZstdCompressionFunction(void);
NANOARROW_DLL ArrowIpcCompressFunction ArrowIpcGetLZ4CompressionFunction(void);

// The levels compression_type accepts: zstd's ZSTD_minCLevel() to ZSTD_maxCLevel(),
// lz4's -65536 (most acceleration) to LZ4F_compressionLevel_max(). EINVAL for NONE
// or an unknown type, ENOTSUP when built without the codec.
NANOARROW_DLL ArrowErrorCode ArrowIpcGetCompressionLevelRange(
    enum ArrowIpcCompressionType compression_type, int* min_level_out,
    int* max_level_out);

// "none", "lz4" or "zstd"; "<unknown compression type>" for anything else.
NANOARROW_DLL const char* ArrowIpcCompressionTypeToString(enum ArrowIpcCompressionType compression_type);

// The type ArrowIpcCompressionTypeToString names name (exactly, case matters).
// EINVAL for any other name or NULL, leaving *compression_type_out as it was.
NANOARROW_DLL ArrowErrorCode ArrowIpcCompressionTypeFromString(
    const char* name, enum ArrowIpcCompressionType* compression_type_out,
    struct ArrowError* error);

// ---- Encoder ----

// Encodes one message at a time: an Encode* call builds the message's flatbuffer
// (and appends its body to a caller buffer), ArrowIpcEncoderFinalizeBuffer copies
// the flatbuffer out. Allocate it anywhere, ArrowIpcEncoderInit it, and release it
// with ArrowIpcEncoderReset.
struct ArrowIpcEncoder {
  void* private_data;
};

NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderInit(struct ArrowIpcEncoder* encoder);
NANOARROW_DLL void ArrowIpcEncoderReset(struct ArrowIpcEncoder* encoder);

// Body compression of the record / dictionary batches encoded next (NONE by
// default). compression_level is the codec's own scale, checked against
// ArrowIpcGetCompressionLevelRange (EINVAL outside it);
// NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT picks the codec's default. ENOTSUP when
// the library was built without that codec (NANOARROW_IPC_WITH_LZ4 /
// NANOARROW_IPC_WITH_ZSTD), EINVAL for an unknown type. Installs a serial
// compressor (ArrowIpcSerialCompressor), replacing any compressor set before; NONE
// removes it. Each buffer is compressed on its own and prefixed by its
// uncompressed length (int64), or by -1 and stored as is when compressing would
// not make it smaller, except decimal values, which are always stored compressed
// (a reader using raw values in place after the prefix can count on 8-byte
// alignment only; polars panics on such a decimal128 buffer). Schemas encoded
// while a compressor is set declare the COMPRESSED_BODY feature.
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderSetCompression(struct ArrowIpcEncoder* encoder,
                                             enum ArrowIpcCompressionType compression_type,
                                             int compression_level,
                                             struct ArrowError* error);

// Moves compressor into the encoder (compressor->release is NULL afterwards),
// releasing the one set before. Its compression_type is the codec batches
// declare (NONE: batches are not compressed); whether it can compress is only
// known when a batch is encoded.
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderSetCompressor(struct ArrowIpcEncoder* encoder,
                                            struct ArrowIpcCompressor* compressor);

// Alignment of body buffers: a power of two, at least 8 and at most 4096
// (EINVAL otherwise). 8 by default; 64 matches Arrow C++'s and arrow-rs's default
// and suits SIMD. Encapsulated messages (ArrowIpcEncoderFinalizeBuffer) are padded
// to a multiple of it too.
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderSetAlignment(struct ArrowIpcEncoder* encoder,
                                           int64_t alignment);

// Custom metadata (Message.custom_metadata, not the schema's) for the next message
// this encoder encodes, whatever its kind; cleared once a message is encoded, and
// replaced by the next call before that. metadata holds pairs as in
// ArrowSchema::metadata (ArrowMetadataBuilderInit / Append) and is moved into the
// encoder (left empty); NULL, or no pairs, means none. EINVAL when it is not
// well-formed metadata (metadata is then left as it was).
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderSetMessageMetadata(struct ArrowIpcEncoder* encoder,
                                                               struct ArrowBuffer* metadata,
                                                               struct ArrowError* error);

// Appends the last encoded message's flatbuffer to out. When encapsulate is
// non-zero it is framed as in the IPC formats: 0xFFFFFFFF, the int32 length of what
// follows, then the flatbuffer zero-padded so that the whole is a multiple of the
// alignment (8 bytes by default).
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderFinalizeBuffer(struct ArrowIpcEncoder* encoder,
                                             char encapsulate, struct ArrowBuffer* out);

// A Schema message. schema must be a struct ("+s"); its children are the fields
// and its metadata the schema's custom metadata.
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderEncodeSchema(struct ArrowIpcEncoder* encoder,
                                           const struct ArrowSchema* schema,
                                           struct ArrowError* error);

// A RecordBatch message for a struct array view (one column per child), appending
// the body (padded to the alignment) to body_buffer. EINVAL for a view with null
// rows at its top level (a record batch has no validity of its own).
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderEncodeSimpleRecordBatch(
    struct ArrowIpcEncoder* encoder, const struct ArrowArrayView* array_view,
    struct ArrowBuffer* body_buffer, struct ArrowError* error);

// A DictionaryBatch message with the given id holding the values view (a
// dictionary's values, e.g. array_view->dictionary) as its single column,
// appending the body to body_buffer; compressed like record batches.
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderEncodeSimpleDictionaryBatch(
    struct ArrowIpcEncoder* encoder, int64_t dictionary_id, char is_delta,
    const struct ArrowArrayView* values_view, struct ArrowBuffer* body_buffer,
    struct ArrowError* error);

// The same as ArrowIpcEncoderEncodeSimpleDictionaryBatch (this library's earlier
// name for it).
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderEncodeDictionaryBatch(
    struct ArrowIpcEncoder* encoder, int64_t id, char is_delta,
    const struct ArrowArrayView* values, struct ArrowBuffer* body_buffer,
    struct ArrowError* error);

// The flatbuffer of an IPC file's Footer (schema, dictionary and record batch
// blocks), to be followed by its int32 length and "ARROW1".
NANOARROW_DLL ArrowErrorCode ArrowIpcEncoderEncodeFooter(struct ArrowIpcEncoder* encoder,
                                           const struct ArrowIpcFooter* footer,
                                           struct ArrowError* error);

// ---- Output streams ----

struct ArrowIpcOutputStream {
  // Writes up to buf_size_bytes from buf; *size_written_out receives how many.
  ArrowErrorCode (*write)(struct ArrowIpcOutputStream* stream, const void* buf,
                          int64_t buf_size_bytes, int64_t* size_written_out,
                          struct ArrowError* error);
  // Sets release to NULL.
  void (*release)(struct ArrowIpcOutputStream* stream);
  void* private_data;
};

// Moves src into dst (src is left released).
NANOARROW_DLL void ArrowIpcOutputStreamMove(struct ArrowIpcOutputStream* src,
                              struct ArrowIpcOutputStream* dst);
// Appends every byte written to output, which the caller keeps owning and must
// keep alive while the stream is used.
NANOARROW_DLL ArrowErrorCode ArrowIpcOutputStreamInitBuffer(struct ArrowIpcOutputStream* stream,
                                              struct ArrowBuffer* output);
// Writes to a FILE* (passed as void*), closed on release when close_on_release
// (a failure to close is not reported: close it yourself if that matters).
NANOARROW_DLL ArrowErrorCode ArrowIpcOutputStreamInitFile(struct ArrowIpcOutputStream* stream,
                                            void* file_ptr, int close_on_release);
// Writes all of data, calling stream->write until done; EIO when a write makes no
// progress.
NANOARROW_DLL ArrowErrorCode ArrowIpcOutputStreamWrite(struct ArrowIpcOutputStream* stream,
                                         struct ArrowBufferView data,
                                         struct ArrowError* error);

// ---- Writer ----

// Writes the IPC stream format (schema, then dictionary and record batches, then
// the end-of-stream marker) or, after ArrowIpcWriterStartFile, the file format.
// Arrays are validated (FULL level) before any of their bytes is written; once
// the output stream fails, every later call fails too and no footer is written.
struct ArrowIpcWriter {
  void* private_data;
};

// Takes ownership of output_stream on success.
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterInit(struct ArrowIpcWriter* writer,
                                  struct ArrowIpcOutputStream* output_stream);
NANOARROW_DLL void ArrowIpcWriterReset(struct ArrowIpcWriter* writer);

// See ArrowIpcEncoderSetCompression / ArrowIpcEncoderSetAlignment. Set the
// compression before writing the schema, so that it declares the feature.
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterSetCompression(struct ArrowIpcWriter* writer,
                                            enum ArrowIpcCompressionType compression_type,
                                            int compression_level,
                                            struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterSetAlignment(struct ArrowIpcWriter* writer,
                                          int64_t alignment, struct ArrowError* error);

// Writes the schema message. A second schema starts a new stream (as in nanoarrow):
// end the previous one first (ArrowIpcWriterWriteArrayView(writer, NULL, ...)); its
// batches are checked against the new schema and its dictionaries are written anew.
// A file holds one schema: after ArrowIpcWriterStartFile only the same schema may
// come again (EINVAL otherwise).
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterWriteSchema(struct ArrowIpcWriter* writer,
                                         const struct ArrowSchema* in,
                                         struct ArrowError* error);
// A record batch (a struct array view), preceded by the dictionary batches its
// dictionary-encoded columns need: a dictionary is written the first time, again
// as a delta when it grew (its old values are a prefix of the new ones), as a
// replacement when it changed otherwise (an error in the file format), and not at
// all when unchanged. in == NULL writes the end-of-stream marker. EINVAL, with
// nothing written, for a view with null rows at its top level.
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterWriteArrayView(struct ArrowIpcWriter* writer,
                                            const struct ArrowArrayView* in,
                                            struct ArrowError* error);
// A dictionary batch written by the caller: values_view holds the values of the
// schema's dictionary dictionary_id (ids numbered as ArrowIpcEncoderEncodeSchema
// does), all of them, or when is_delta only those appended to the ones written
// before. Must follow the schema; the values must match the schema's value type
// and are validated. In the file format it is listed in the footer, and a
// replacement (not a delta) of a dictionary already written is refused (EINVAL).
// Record batches written afterwards rely on it: ArrowIpcWriterWriteArrayView
// writes a dictionary again only when its values differ from what the reader
// holds.
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterWriteDictionaryBatch(struct ArrowIpcWriter* writer,
                                                  int64_t dictionary_id, char is_delta,
                                                  const struct ArrowArrayView* values_view,
                                                  struct ArrowError* error);
// The schema, every array (each preceded by the dictionary batches it needs, as
// ArrowIpcWriterWriteArrayView writes them) and the end-of-stream marker.
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterWriteArrayStream(struct ArrowIpcWriter* writer,
                                              struct ArrowArrayStream* in,
                                              struct ArrowError* error);
// Writes the file magic ("ARROW1" and 2 padding bytes); must come first.
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterStartFile(struct ArrowIpcWriter* writer,
                                       struct ArrowError* error);
// Writes the end-of-stream marker (if not yet written), the footer, its length
// and the closing magic.
NANOARROW_DLL ArrowErrorCode ArrowIpcWriterFinalizeFile(struct ArrowIpcWriter* writer,
                                          struct ArrowError* error);

#ifdef __cplusplus
}
#endif

#endif  // NANOARROW_IPC_WRITER_H_INCLUDED
