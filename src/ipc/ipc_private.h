/* Internal declarations shared by the IPC sources in src/ipc (not installed). */

#ifndef NANOARROW_IPC_PRIVATE_H_INCLUDED
#define NANOARROW_IPC_PRIVATE_H_INCLUDED

#include <stdint.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/flatbuf_reader.h"

#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcPrivateVerifyMessage NANOARROW_SYMBOL(ArrowIpcPrivateVerifyMessage)
#define ArrowIpcPrivateVerifyFooter NANOARROW_SYMBOL(ArrowIpcPrivateVerifyFooter)
#define ArrowIpcPrivateDecodeSchema NANOARROW_SYMBOL(ArrowIpcPrivateDecodeSchema)
#define ArrowIpcPrivateTreeReset NANOARROW_SYMBOL(ArrowIpcPrivateTreeReset)
#define ArrowIpcPrivateTreeEnsureViews NANOARROW_SYMBOL(ArrowIpcPrivateTreeEnsureViews)
#define ArrowIpcPrivateDecodeBatch NANOARROW_SYMBOL(ArrowIpcPrivateDecodeBatch)
#define ArrowIpcPrivateCheckBatchCounts NANOARROW_SYMBOL(ArrowIpcPrivateCheckBatchCounts)
#define ArrowIpcPrivateOwnerRelease NANOARROW_SYMBOL(ArrowIpcPrivateOwnerRelease)
#define ArrowIpcPrivateSharedArrayExport NANOARROW_SYMBOL(ArrowIpcPrivateSharedArrayExport)
#define ArrowIpcPrivateSharedArrayRelease \
  NANOARROW_SYMBOL(ArrowIpcPrivateSharedArrayRelease)
#define ArrowIpcPrivateSharedBlockRelease \
  NANOARROW_SYMBOL(ArrowIpcPrivateSharedBlockRelease)
#define ArrowIpcPrivateSharedBlockNew NANOARROW_SYMBOL(ArrowIpcPrivateSharedBlockNew)
#define ArrowIpcPrivateSharedBlockFromShared \
  NANOARROW_SYMBOL(ArrowIpcPrivateSharedBlockFromShared)
#define ArrowIpcPrivateDecoderDecodeShared \
  NANOARROW_SYMBOL(ArrowIpcPrivateDecoderDecodeShared)
#define ArrowIpcPrivateInputStreamBuffer NANOARROW_SYMBOL(ArrowIpcPrivateInputStreamBuffer)
#define ArrowIpcPrivateInputStreamIsSeekableFile \
  NANOARROW_SYMBOL(ArrowIpcPrivateInputStreamIsSeekableFile)
#define ArrowIpcPrivateInputStreamFileTell \
  NANOARROW_SYMBOL(ArrowIpcPrivateInputStreamFileTell)
#define ArrowIpcPrivateInputStreamReadAt NANOARROW_SYMBOL(ArrowIpcPrivateInputStreamReadAt)
#define ArrowIpcPrivateConcatenate NANOARROW_SYMBOL(ArrowIpcPrivateConcatenate)
#define ArrowIpcPrivateConcatenateInPlace NANOARROW_SYMBOL(ArrowIpcPrivateConcatenateInPlace)
#define ArrowIpcPrivateConcatCanGrow NANOARROW_SYMBOL(ArrowIpcPrivateConcatCanGrow)
#define ArrowIpcPrivateConcatGrowthBytes NANOARROW_SYMBOL(ArrowIpcPrivateConcatGrowthBytes)
#define ArrowIpcPrivateConcatReserveGrowth \
  NANOARROW_SYMBOL(ArrowIpcPrivateConcatReserveGrowth)
#define ArrowIpcPrivateBuilderContentBytes \
  NANOARROW_SYMBOL(ArrowIpcPrivateBuilderContentBytes)
#define ArrowIpcPrivateDecoderHeldLimit NANOARROW_SYMBOL(ArrowIpcPrivateDecoderHeldLimit)
#define ArrowIpcPrivateDecoderAdoptSchema \
  NANOARROW_SYMBOL(ArrowIpcPrivateDecoderAdoptSchema)
#define ArrowIpcPrivateDictionariesSlot NANOARROW_SYMBOL(ArrowIpcPrivateDictionariesSlot)
#define ArrowPrivateSchemaSetChildNames NANOARROW_SYMBOL(ArrowPrivateSchemaSetChildNames)
#define ArrowIpcPrivateSchemaSnapshot NANOARROW_SYMBOL(ArrowIpcPrivateSchemaSnapshot)
#define ArrowIpcPrivateProjectionFree NANOARROW_SYMBOL(ArrowIpcPrivateProjectionFree)
#define ArrowIpcPrivateProjectHeader NANOARROW_SYMBOL(ArrowIpcPrivateProjectHeader)
#define ArrowIpcPrivateProjectionSkipsId NANOARROW_SYMBOL(ArrowIpcPrivateProjectionSkipsId)
#define ArrowIpcPrivateResolveNames NANOARROW_SYMBOL(ArrowIpcPrivateResolveNames)
#define ArrowIpcPrivateDecoderSetSchemaWithIds \
  NANOARROW_SYMBOL(ArrowIpcPrivateDecoderSetSchemaWithIds)
#define ArrowIpcPrivateCountDictionaries NANOARROW_SYMBOL(ArrowIpcPrivateCountDictionaries)
#define ArrowIpcPrivateProjectSchema NANOARROW_SYMBOL(ArrowIpcPrivateProjectSchema)
#endif

/* Sets *out to the bytes that n >= 0 elements of bits > 0 bits each fill (rounded
 * up); 0 when bits <= 0 or the product overflows. Factors below 2^31 cannot overflow,
 * so the division (an idiv, on per-batch paths) runs only for large ones. */
static inline int ArrowIpcPrivateBytesForBits(int64_t n, int64_t bits, int64_t* out) {
  if (bits <= 0 || (((n | bits) >> 31) != 0 && n > (INT64_MAX - 7) / bits)) return 0;
  *out = (n * bits + 7) / 8;
  return 1;
}

/* Storage types made of a validity bitmap and one buffer of fixed-size elements (or
 * bits): checking one at any validation level is buffer sizes and the null count, with
 * no offsets, views, type ids or run ends to read. */
static inline int ArrowIpcPrivateIsFixedWidthType(enum ArrowType type) {
  switch (type) {
    case NANOARROW_TYPE_BOOL:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT64:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_DATE64:
    case NANOARROW_TYPE_TIMESTAMP:
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_DURATION:
    case NANOARROW_TYPE_INTERVAL_MONTHS:
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
      return 1;
    default:
      return 0;
  }
}

/* Defined in src/common/schema.c: names every child i of schema (built by this
 * library, children not named this way yet) after name_at(context, i) (data ==
 * NULL: no name), the copies sharing one allocation that each named child holds a
 * reference to. */
ArrowErrorCode ArrowPrivateSchemaSetChildNames(
    struct ArrowSchema* schema,
    void (*name_at)(const void* context, int64_t i, struct ArrowStringView* out),
    const void* context);

/* ---- Reference counts: the core's (src/common/refcount.h), under IPC names ---- */

#include "common/refcount.h"
#define ARROW_IPC_ATOMIC_REFCOUNT NANOARROW_ATOMIC_REFCOUNT
typedef ArrowRefCount ArrowIpcRefCount;
#define ArrowIpcRefInit ArrowRefInit
#define ArrowIpcRefAdd ArrowRefAdd
#define ArrowIpcRefDrop ArrowRefDrop
#define ArrowIpcRefInitN ArrowRefInitN
#define ArrowIpcRefDropN ArrowRefDropN
#define ArrowIpcRefIsUnique ArrowRefIsUnique


/* A reference-counted message body (or input chunk) that decoded arrays point
 * into. src owns the bytes: a buffer the readers moved in, or a reference to a
 * caller's shared buffer (ArrowSharedBufferClone) for the ...FromShared
 * functions. */
struct ArrowIpcSharedBlock {
  ArrowIpcRefCount refcount;
  struct ArrowBuffer src;
};

/* Takes src over (left empty) as a block with one reference; NULL when out of
 * memory (src untouched). */
struct ArrowIpcSharedBlock* ArrowIpcPrivateSharedBlockNew(struct ArrowBuffer* src);
/* A block with one reference that holds one more reference to the caller's
 * shared buffer shared. EINVAL when shared is not a shared buffer. */
ArrowErrorCode ArrowIpcPrivateSharedBlockFromShared(const struct ArrowBuffer* shared,
                                                    struct ArrowIpcSharedBlock** out,
                                                    struct ArrowError* error);
void ArrowIpcPrivateSharedBlockRelease(struct ArrowIpcSharedBlock* block);

/* Memory a decoded batch refers to: a shared body and/or blocks it owns
 * (the copied body, decompressed, byte-swapped or realigned buffers). One
 * reference per array node. The exported nodes of the batch (child ArrowArray
 * structs, children and buffer pointer arrays) follow it in the same allocation. */
struct ArrowIpcBatchOwner {
  ArrowIpcRefCount refcount;
  struct ArrowIpcSharedBlock* shared;
  int64_t n_blocks;
  int64_t capacity_blocks;
  void** blocks;
};

void ArrowIpcPrivateOwnerRelease(struct ArrowIpcBatchOwner* owner);

/* A decoded dictionary shared by every array that uses it. */
struct ArrowIpcSharedArray {
  ArrowIpcRefCount refcount;
  struct ArrowArray array;
  /* Non-zero when array is a builder made by ArrowIpcPrivateConcatenate, which
   * deltas may grow in place while nothing else refers to it. */
  int growable;
};

/* out becomes an independent array tree over shared->array (one reference per
 * node). */
ArrowErrorCode ArrowIpcPrivateSharedArrayExport(struct ArrowIpcSharedArray* shared,
                                                struct ArrowArray* out);
void ArrowIpcPrivateSharedArrayRelease(struct ArrowIpcSharedArray* shared);

/* ---- Column trees: a struct schema flattened in IPC pre-order ---- */

/* Variadic buffers of the last batch for one binary/string view field. */
struct ArrowIpcTreeVariadic {
  int64_t capacity;
  const void** buffers;
  int64_t* sizes;
};

struct ArrowIpcTreeField {
  /* The field's view (NULL until the tree's views are built). */
  struct ArrowArrayView* view;
  int64_t n_children;
  /* Fixed-size lists: the list size; other types: the bits per element of
   * layout buffer 1 (what the schema's parameters give, e.g. for fixed-size
   * binary). */
  int64_t fixed_size;
  /* Generation of the dictionary last attached to view->dictionary (0: none). */
  int64_t dictionary_generation;
  /* Binary/string views only, allocated by the first batch that needs it. */
  struct ArrowIpcTreeVariadic* variadic;
  /* Index into ArrowIpcDecoderPrivate.dictionaries, or -1. */
  int32_t dictionary_index;
  /* enum ArrowType */
  int32_t storage_type;
};

struct ArrowIpcTree {
  struct ArrowSchema schema; /* "+s" */
  /* The root view: its children are the columns once the views are built. */
  struct ArrowArrayView view;
  int has_views;
  int64_t n_columns;
  int64_t n_fields;
  struct ArrowIpcTreeField* fields;
  int64_t n_variadic_fields;
  /* Export sizes of the whole batch: fixed buffers of every node (root included)
   * except binary views, and dictionary-encoded fields. */
  int64_t n_export_buffers;
  int64_t n_dictionary_fields;
  /* Every field is fixed-width, boolean, null, struct or fixed-size list without
   * a dictionary: buffer sizes, child lengths and (FULL) null counts then cover
   * every validation level, so batches are checked while they are decoded. */
  int quick_validation;
  /* Whole batches of a quick tree are decoded straight into the exported arrays;
   * the views are built only when something asks for them. */
  int direct_export;
  /* Some field has children (nested struct or fixed-size list). */
  int has_nested_fields;
};

/* Builds the views of a direct_export tree (once). */
ArrowErrorCode ArrowIpcPrivateTreeEnsureViews(struct ArrowIpcTree* tree,
                                              struct ArrowError* error);

void ArrowIpcPrivateTreeReset(struct ArrowIpcTree* tree);

/* ---- Decoder state ---- */

struct ArrowIpcDictionaryEntry {
  int64_t id;
  struct ArrowIpcTree tree; /* One column: the dictionary's value type. */
  struct ArrowIpcSharedArray* current;
  /* Bumped whenever current changes. */
  int64_t generation;
  /* The bytes of current counted against the decoder's budget. */
  int64_t held_bytes;
  /* The level current was validated at (enum ArrowValidationLevel): record
   * batches validated at this level or below look only at its length. */
  int32_t validated_level;
};

/* The encodings held in an ArrowIpcDictionaryEncodings' buffer. */
static inline int64_t ArrowIpcPrivateEncodingsCount(
    const struct ArrowIpcDictionaryEncodings* encodings) {
  return encodings->encodings.size_bytes / (int64_t)sizeof(struct ArrowIpcDictionaryEncoding);
}

static inline struct ArrowIpcDictionaryEncoding* ArrowIpcPrivateEncodingsData(
    const struct ArrowIpcDictionaryEncodings* encodings) {
  return (struct ArrowIpcDictionaryEncoding*)encodings->encodings.data;
}

/* Where the last RecordBatch (or DictionaryBatch's data) header lives. */
struct ArrowIpcBatchHeader {
  struct ArrowIpcFbrTable table;
  int64_t length;
  struct ArrowIpcFbrVector nodes;
  struct ArrowIpcFbrVector buffers;
  struct ArrowIpcFbrVector variadic_counts;
  int has_variadic_counts;
};

struct ArrowIpcDecoderPrivate {
  int has_schema;
  struct ArrowIpcTree tree;
  enum ArrowIpcEndianness body_endianness;
  struct ArrowIpcDecompressor decompressor;
  /* Decompressed bytes a message body may declare (-1: the default ratio). */
  int64_t max_decompressed_bytes;
  /* The budget of bytes kept across messages (-1: the default, tied to
   * bytes_read), the bytes held now (the dictionaries' held_bytes), and the
   * message bytes decoded so far (headers and bodies). */
  int64_t max_held_bytes;
  int64_t held_bytes;
  int64_t bytes_read;
  /* Dictionary deltas appended by copying the whole dictionary (tests check that
   * this stays logarithmic in the number of deltas). */
  int64_t n_delta_copies;
  struct ArrowIpcFooter footer;

  /* The Message table of the last header verified or decoded (points into the
   * caller's data), for its custom_metadata; has_message_table: 0 before any. */
  struct ArrowIpcFbrTable message_table;
  int has_message_table;

  /* The last decoded header (points into the caller's data). */
  const uint8_t* message;
  int64_t message_size;
  struct ArrowIpcFbrTable header_table;
  struct ArrowIpcBatchHeader batch;
  /* decoder->dictionary points here after a DictionaryBatch header. */
  struct ArrowIpcDictionaryBatch dictionary_batch;

  /* Dictionary ids of the last Schema message, in pre-order (int64). */
  struct ArrowBuffer schema_ids;
  int64_t n_dictionaries;
  struct ArrowIpcDictionaryEntry* dictionaries;
  /* The encodings of the current schema (preallocated for every encoded field). */
  struct ArrowIpcDictionaryEncodings encodings;

  /* Set by the ...WithDictionaries functions while they decode: the dictionaries
   * the fields take their values from instead of the entries' current ones. */
  const struct ArrowIpcDictionaries* override_dictionaries;

  /* Owner of the buffers behind the last ArrowIpcDecoderDecodeArrayView. */
  struct ArrowIpcBatchOwner* view_owner;

  /* The dictionary ids of tree's encoded fields in pre-order (int64), as the last
   * schema set resolved them. */
  struct ArrowBuffer tree_ids;
  /* The column projection (NULL: every column), see projection.c. */
  struct ArrowIpcProjection* projection;
  /* Set while the projection sets the projected schema (which keeps it). */
  int setting_projection;
};

/* What one top-level column of the full schema takes in a batch header. */
struct ArrowIpcProjectionColumn {
  int64_t n_nodes;
  /* Buffers other than variadic ones (V5 counts), union fields (one validity
   * buffer more each before V5), view fields (one variadic count each). */
  int64_t n_fixed_buffers;
  int64_t n_unions;
  int64_t n_variadic;
  /* Dictionary ids the column's fields use (pre-order, as the tree registers). */
  int64_t n_ids;
};

struct ArrowIpcProjection {
  /* The full schema ("+s") and its dictionary ids. */
  struct ArrowSchema full;
  int64_t n_columns;
  struct ArrowIpcProjectionColumn* columns;
  int64_t n_ids;
  int64_t* ids;
  int64_t n_fields;
  int64_t n_fixed_buffers;
  int64_t n_unions;
  int64_t n_variadic;
  /* The selected columns, in the order of the output. */
  int64_t n_selected;
  int64_t* selected;
  /* Per column scratch: where its nodes, variadic counts and buffers start. */
  int64_t* node_start;
  int64_t* variadic_start;
  int64_t* buffer_start;
  /* The projected header's FieldNode, Buffer (16 bytes each) and variadic count
   * (8 bytes) vectors, copied from the full header (the file reader rewrites the
   * buffers' offsets when it reads only the selected ranges). */
  struct ArrowBuffer nodes;
  struct ArrowBuffer buffers;
  struct ArrowBuffer variadic;
};

void ArrowIpcPrivateProjectionFree(struct ArrowIpcDecoderPrivate* private_data);

/* Replaces header's nodes, buffers and variadic counts (those of the full schema,
 * checked here) with the selected columns' ones. */
ArrowErrorCode ArrowIpcPrivateProjectHeader(struct ArrowIpcDecoder* decoder,
                                            struct ArrowIpcBatchHeader* header,
                                            struct ArrowError* error);

/* Non-zero when id is a dictionary id of the full schema that no selected field
 * uses (its DictionaryBatches are skipped). */
int ArrowIpcPrivateProjectionSkipsId(const struct ArrowIpcDecoderPrivate* private_data,
                                     int64_t id);

/* Indices of names in schema's children (first match); EINVAL naming an unknown one. */
ArrowErrorCode ArrowIpcPrivateResolveNames(const struct ArrowSchema* schema,
                                           const char* const* names, int64_t n,
                                           int64_t* out, struct ArrowError* error);

/* Sets schema (taken over) with the given dictionary ids (pre-order). */
ArrowErrorCode ArrowIpcPrivateDecoderSetSchemaWithIds(struct ArrowIpcDecoder* decoder,
                                                    struct ArrowSchema* schema,
                                                    const int64_t* ids,
                                                    struct ArrowError* error);
/* Dictionary-encoded fields in schema (and in their values), pre-order. */
int64_t ArrowIpcPrivateCountDictionaries(const struct ArrowSchema* schema);

/* The projected schema: a "+s" with deep copies of full's children selected[0..n). */
ArrowErrorCode ArrowIpcPrivateProjectSchema(const struct ArrowSchema* full,
                                            const int64_t* selected, int64_t n,
                                            struct ArrowSchema* out,
                                            struct ArrowError* error);

/* The value slot of id in dictionaries, or NULL when id is not one of them. */
struct ArrowIpcSharedArray** ArrowIpcPrivateDictionariesSlot(
    const struct ArrowIpcDictionaries* dictionaries, int64_t id);

/* Full structural verification of a Message flatbuffer. */
ArrowErrorCode ArrowIpcPrivateVerifyMessage(const uint8_t* data, int64_t size,
                                            struct ArrowError* error);
ArrowErrorCode ArrowIpcPrivateVerifyFooter(const uint8_t* data, int64_t size,
                                           struct ArrowError* error);
/* Schema table -> ArrowSchema ("+s"), plus endianness and feature bits. */
ArrowErrorCode ArrowIpcPrivateDecodeSchema(const struct ArrowIpcFbrTable* schema_table,
                                           struct ArrowSchema* out,
                                           enum ArrowIpcEndianness* endianness,
                                           int32_t* features, struct ArrowError* error);

/* EINVAL unless header has the field nodes, variadic buffer counts and buffers
 * that tree (the decoder's schema, or a dictionary's value type) needs. */
ArrowErrorCode ArrowIpcPrivateCheckBatchCounts(const struct ArrowIpcDecoder* decoder,
                                               const struct ArrowIpcTree* tree,
                                               const struct ArrowIpcBatchHeader* header,
                                               struct ArrowError* error);

/* Decodes a batch header of tree with the body at body/body_size (owned by
 * shared when not NULL, else copied when copy_body). With out == NULL only the
 * tree's views are filled (their memory kept by *owner_out). */
ArrowErrorCode ArrowIpcPrivateDecodeBatch(struct ArrowIpcDecoder* decoder,
                                          struct ArrowIpcTree* tree,
                                          const struct ArrowIpcBatchHeader* header,
                                          const uint8_t* body, int64_t body_size,
                                          struct ArrowIpcSharedBlock* shared,
                                          int copy_body, int64_t field_index,
                                          struct ArrowArray* out,
                                          enum ArrowValidationLevel validation_level,
                                          struct ArrowIpcBatchOwner** owner_out,
                                          struct ArrowError* error);

/* DecodeArrayFromShared / DecodeDictionaryFromShared for a slice of a shared
 * block (the stream reader's zero-copy path over one input buffer). */
ArrowErrorCode ArrowIpcPrivateDecoderDecodeShared(
    struct ArrowIpcDecoder* decoder, struct ArrowIpcSharedBlock* shared,
    const uint8_t* body, int64_t body_size, int64_t field_index, struct ArrowArray* out,
    enum ArrowValidationLevel validation_level, struct ArrowError* error);

/* ArrowIpcDecoderSetSchema() that takes schema over (released on success and
 * failure) instead of copying it. */
ArrowErrorCode ArrowIpcPrivateDecoderAdoptSchema(struct ArrowIpcDecoder* decoder,
                                                 struct ArrowSchema* schema,
                                                 struct ArrowError* error);

/* An array of type schema holding old followed by delta (both validated at FULL
 * first; the result is validated at FULL). delta_values is the array delta_view
 * views: the dictionaries inside it (a dictionary of dictionaries) are moved into
 * the result, not copied. */
ArrowErrorCode ArrowIpcPrivateConcatenate(const struct ArrowSchema* schema,
                                          struct ArrowArrayView* old_view,
                                          struct ArrowArrayView* delta_view,
                                          struct ArrowArray* delta_values,
                                          struct ArrowArray* out, struct ArrowError* error);

/* Appends delta_view (validated at FULL here) to builder, a result of
 * ArrowIpcPrivateConcatenate. shared == 0: nothing else refers to builder (its
 * values may move). shared != 0: arrays handed out point into its buffers; the
 * append is done only into the spare capacity of the buffers they point into
 * (none moves; no byte they read changes, a bitmap's partial last byte is written
 * once, keeping their bits), else EAGAIN is returned (without a message) and
 * builder is as it was: copy it instead. *content_out receives the bytes
 * builder's buffers then hold; over max_content_bytes, the append is undone
 * (spare capacity released unless shared) and EOVERFLOW returned without a
 * message. On any failure builder holds what it held before. */
ArrowErrorCode ArrowIpcPrivateConcatenateInPlace(struct ArrowArray* builder,
                                                 struct ArrowArrayView* delta_view,
                                                 struct ArrowArray* delta_values,
                                                 int shared, int64_t max_content_bytes,
                                                 int64_t* content_out,
                                                 struct ArrowError* error);

/* Non-zero when deltas of values of type schema can be appended in place (now
 * every type: dictionaries inside are taken over from each delta). */
int ArrowIpcPrivateConcatCanGrow(const struct ArrowSchema* schema);

/* At most the bytes ArrowIpcPrivateConcatReserveGrowth would reserve past
 * builder's content (the content again). */
int64_t ArrowIpcPrivateConcatGrowthBytes(const struct ArrowArray* builder);

/* Gives every buffer of every node of a builder that nothing else refers to (no
 * dictionary-encoded field inside) room for as much again as it holds, a binary
 * view's last variadic buffer too (one copy per doubling: the deltas after it are
 * appended in place while batches hold the values). */
ArrowErrorCode ArrowIpcPrivateConcatReserveGrowth(struct ArrowArray* builder,
                                                  struct ArrowError* error);

/* The bytes held by the buffers of a builder array (sizes, not capacities). */
int64_t ArrowIpcPrivateBuilderContentBytes(const struct ArrowArray* builder);

/* The decoder's budget of held bytes now (see ArrowIpcDecoderSetMaxHeldBytes). */
int64_t ArrowIpcPrivateDecoderHeldLimit(const struct ArrowIpcDecoderPrivate* private_data);

/* A read-only copy of in (fields, names, metadata, dictionaries) in one allocation,
 * released through out->release. For the library's own bookkeeping only: its children
 * cannot be freed or replaced one by one. EINVAL for a malformed tree. */
ArrowErrorCode ArrowIpcPrivateSchemaSnapshot(const struct ArrowSchema* in,
                                             struct ArrowSchema* out);

/* The buffer behind an input stream made by ArrowIpcInputStreamInitBuffer (NULL
 * otherwise) and how much of it was read. */
struct ArrowBuffer* ArrowIpcPrivateInputStreamBuffer(struct ArrowIpcInputStream* stream,
                                                     int64_t** position_out);

/* Non-zero when stream was made by ArrowIpcInputStreamInitFile on a seekable file,
 * where reading ahead of what is needed cannot wait for data that is not there. */
int ArrowIpcPrivateInputStreamIsSeekableFile(struct ArrowIpcInputStream* stream);

/* ---- Parallel (de)compression (parallel_codec.c) ---- */
#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcPrivateLabelError NANOARROW_SYMBOL(ArrowIpcPrivateLabelError)
#define ArrowIpcPrivateDecompressorSetLabel \
  NANOARROW_SYMBOL(ArrowIpcPrivateDecompressorSetLabel)
#define ArrowIpcPrivateSetParallelMinBytes \
  NANOARROW_SYMBOL(ArrowIpcPrivateSetParallelMinBytes)
#endif

/* Sets error to message (which may be error's own) prefixed with "field F: buffer
 * B: " (nothing when field < 0): how a buffer that failed to decompress is named,
 * whichever decompressor reports it. */
void ArrowIpcPrivateLabelError(struct ArrowError* error, int64_t field, int64_t buffer,
                               const char* message);

/* Names the buffer of the next decompress_add of decompressor when it is a
 * parallel one, whose decompress_wait reports it (nothing otherwise). */
void ArrowIpcPrivateDecompressorSetLabel(struct ArrowIpcDecompressor* decompressor,
                                         int64_t field, int64_t buffer);

/* For tests: buffers of at least min_bytes (-1: NANOARROW_IPC_PARALLEL_MIN_BYTES)
 * are queued to the threads of the parallel (de)compressors made from now on.
 * Not thread-safe: set it before making any. */
void ArrowIpcPrivateSetParallelMinBytes(int64_t min_bytes);

/* The position of a seekable file's stream (ArrowIpcInputStreamInitFile); -1 for any
 * other stream. */
int64_t ArrowIpcPrivateInputStreamFileTell(struct ArrowIpcInputStream* stream);

/* Reads exactly n bytes at offset of a seekable file's stream into out (n bytes of
 * room), leaving the stream's position where it was. EIO (with a message) when the
 * file cannot be read there, EINVAL for any other stream. */
ArrowErrorCode ArrowIpcPrivateInputStreamReadAt(struct ArrowIpcInputStream* stream,
                                                int64_t offset, uint8_t* out, int64_t n,
                                                struct ArrowError* error);

#endif /* NANOARROW_IPC_PRIVATE_H_INCLUDED */
