// nanoarrow in C: Arrow integration-testing JSON and stream comparison.
//
// Reads and writes the JSON format Arrow implementations exchange in their
// cross-implementation integration tests: a document
//   {"schema": {"fields": [...], "metadata": [...]},
//    "batches": [{"count": N, "columns": [...]}, ...],
//    "dictionaries": [{"id": I, "data": {"count": N, "columns": [...]}}, ...]}
// into and out of ArrowSchema / ArrowArray / ArrowArrayStream, and compares
// schemas, arrays and streams value by value with a message naming the first
// difference (field path, batch, row).
//
// This component (library nanoarrow_testing) uses the jansson JSON library and zlib
// (gzipped documents); the core and IPC libraries do not depend on it. Every JSON
// input is treated as hostile: malformed documents give EINVAL and a message
// naming where the problem is, never a crash.

#ifndef NANOARROW_TESTING_H_INCLUDED
#define NANOARROW_TESTING_H_INCLUDED

#include "nanoarrow/nanoarrow.h"

#if defined(NANOARROW_NAMESPACE)
#define ArrowTestingReadFile NANOARROW_SYMBOL(ArrowTestingReadFile)
#define ArrowTestingJsonReadSchema NANOARROW_SYMBOL(ArrowTestingJsonReadSchema)
#define ArrowTestingJsonReadBatch NANOARROW_SYMBOL(ArrowTestingJsonReadBatch)
#define ArrowTestingJsonReadStream NANOARROW_SYMBOL(ArrowTestingJsonReadStream)
#define ArrowTestingJsonWriteSchema NANOARROW_SYMBOL(ArrowTestingJsonWriteSchema)
#define ArrowTestingJsonWriteBatch NANOARROW_SYMBOL(ArrowTestingJsonWriteBatch)
#define ArrowTestingJsonWriteStream NANOARROW_SYMBOL(ArrowTestingJsonWriteStream)
#define ArrowTestingCompareSchema NANOARROW_SYMBOL(ArrowTestingCompareSchema)
#define ArrowTestingCompareArray NANOARROW_SYMBOL(ArrowTestingCompareArray)
#define ArrowTestingCompareStreams NANOARROW_SYMBOL(ArrowTestingCompareStreams)
#define ArrowTestingJsonReadField NANOARROW_SYMBOL(ArrowTestingJsonReadField)
#define ArrowTestingJsonReadRecordBatch NANOARROW_SYMBOL(ArrowTestingJsonReadRecordBatch)
#define ArrowTestingJsonReadColumn NANOARROW_SYMBOL(ArrowTestingJsonReadColumn)
#define ArrowTestingJsonReadOptionsInit NANOARROW_SYMBOL(ArrowTestingJsonReadOptionsInit)
#define ArrowTestingJsonReadBatchWithOptions \
  NANOARROW_SYMBOL(ArrowTestingJsonReadBatchWithOptions)
#define ArrowTestingJsonReadRecordBatchWithOptions \
  NANOARROW_SYMBOL(ArrowTestingJsonReadRecordBatchWithOptions)
#define ArrowTestingJsonReadColumnWithOptions \
  NANOARROW_SYMBOL(ArrowTestingJsonReadColumnWithOptions)
#define ArrowTestingJsonReadStreamWithOptions \
  NANOARROW_SYMBOL(ArrowTestingJsonReadStreamWithOptions)
#define ArrowTestingJsonWriteOptionsInit NANOARROW_SYMBOL(ArrowTestingJsonWriteOptionsInit)
#define ArrowTestingJsonWriteDataFile NANOARROW_SYMBOL(ArrowTestingJsonWriteDataFile)
#define ArrowTestingJsonWriteSchemaWithOptions \
  NANOARROW_SYMBOL(ArrowTestingJsonWriteSchemaWithOptions)
#define ArrowTestingJsonWriteField NANOARROW_SYMBOL(ArrowTestingJsonWriteField)
#define ArrowTestingJsonWriteType NANOARROW_SYMBOL(ArrowTestingJsonWriteType)
#define ArrowTestingJsonWriteMetadata NANOARROW_SYMBOL(ArrowTestingJsonWriteMetadata)
#define ArrowTestingJsonWriteBatchView NANOARROW_SYMBOL(ArrowTestingJsonWriteBatchView)
#define ArrowTestingJsonWriteColumn NANOARROW_SYMBOL(ArrowTestingJsonWriteColumn)
#define ArrowTestingJsonDictionariesInit NANOARROW_SYMBOL(ArrowTestingJsonDictionariesInit)
#define ArrowTestingJsonDictionariesReset NANOARROW_SYMBOL(ArrowTestingJsonDictionariesReset)
#define ArrowTestingJsonWriteDictionaries NANOARROW_SYMBOL(ArrowTestingJsonWriteDictionaries)
#define ArrowTestingCompareOptionsInit NANOARROW_SYMBOL(ArrowTestingCompareOptionsInit)
#define ArrowTestingCompareSchemaDifferences \
  NANOARROW_SYMBOL(ArrowTestingCompareSchemaDifferences)
#define ArrowTestingCompareArrayDifferences \
  NANOARROW_SYMBOL(ArrowTestingCompareArrayDifferences)
#endif

#ifdef __cplusplus
extern "C" {
#endif

// Reads a whole file into out (ArrowBufferInit'ed here). Gzip-compressed input is
// decompressed transparently; path "-" reads standard input. At most
// max_size_bytes (after decompression) are accepted (ERANGE beyond).
NANOARROW_DLL ArrowErrorCode ArrowTestingReadFile(const char* path, int64_t max_size_bytes,
                                    struct ArrowBuffer* out, struct ArrowError* error);

// ---- Reading integration JSON ----

// The schema of a document (a "+s" struct whose children are the fields, with
// the schema's custom metadata). json may also be a bare schema object
// ({"fields": ...}).
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadSchema(const char* json, int64_t size_bytes,
                                          struct ArrowSchema* out,
                                          struct ArrowError* error);

// Record batch i of a document as a struct array (dictionaries resolved),
// validated at the FULL level. ERANGE when the document has no batch i. out is
// written only on success.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadBatch(const char* json, int64_t size_bytes, int64_t i,
                                         struct ArrowArray* out, struct ArrowError* error);

// A single field object ({"name": ..., "type": ..., "children": [...], ...}) into
// out. A dictionary-encoded field keeps its index and value types; its id is not
// kept.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadField(const char* json, int64_t size_bytes,
                                         struct ArrowSchema* out, struct ArrowError* error);

// A bare record batch object ({"count": N, "columns": [...]}) as a struct array of
// schema (a "+s" schema), validated at the FULL level. Dictionary-encoded columns
// are refused (their values live outside a batch). out is written only on
// success.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadRecordBatch(const char* json, int64_t size_bytes,
                                               const struct ArrowSchema* schema,
                                               struct ArrowArray* out,
                                               struct ArrowError* error);

// A bare column object ({"name": ..., "count": N, "VALIDITY": [...], ...}) as an
// array of field, validated at the FULL level; as for batches, dictionary-encoded
// columns are refused. out is written only on success.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadColumn(const char* json, int64_t size_bytes,
                                          const struct ArrowSchema* field,
                                          struct ArrowArray* out, struct ArrowError* error);

// A stream over every batch of a document. The document is parsed once here;
// batches are built when pulled.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadStream(const char* json, int64_t size_bytes,
                                          struct ArrowArrayStream* out,
                                          struct ArrowError* error);

// How the ...WithOptions readers below build arrays. ArrowTestingJsonReadOptionsInit
// sets the defaults; a NULL options pointer means the defaults too.
struct ArrowTestingJsonReadOptions {
  // The allocator of every buffer (validity, offsets, data, type ids, variadic data;
  // of children and dictionaries too) of the arrays read; it also frees them when
  // the array is released. Default: ArrowBufferAllocatorDefault(). (The array
  // structures themselves and a view array's list of variadic buffer sizes come
  // from ArrowMalloc.)
  struct ArrowBufferAllocator allocator;
};

NANOARROW_DLL void ArrowTestingJsonReadOptionsInit(struct ArrowTestingJsonReadOptions* options);

// As ArrowTestingJsonReadBatch, ...ReadRecordBatch, ...ReadColumn and
// ...ReadStream, with buffers allocated as options say. A stream keeps a copy of
// options->allocator for the batches it builds later.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadBatchWithOptions(
    const char* json, int64_t size_bytes, int64_t i,
    const struct ArrowTestingJsonReadOptions* options, struct ArrowArray* out,
    struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadRecordBatchWithOptions(
    const char* json, int64_t size_bytes, const struct ArrowSchema* schema,
    const struct ArrowTestingJsonReadOptions* options, struct ArrowArray* out,
    struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadColumnWithOptions(
    const char* json, int64_t size_bytes, const struct ArrowSchema* field,
    const struct ArrowTestingJsonReadOptions* options, struct ArrowArray* out,
    struct ArrowError* error);
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonReadStreamWithOptions(
    const char* json, int64_t size_bytes, const struct ArrowTestingJsonReadOptions* options,
    struct ArrowArrayStream* out, struct ArrowError* error);

// ---- Writing integration JSON ----
// Appended to out (an initialized ArrowBuffer); the text is not null-terminated.
// 64-bit integers, decimals and large offsets are written as strings, binary as
// upper-case hex, as the format requires.

// {"fields": [...], "metadata": [...]} for a "+s" schema.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteSchema(const struct ArrowSchema* schema,
                                           struct ArrowBuffer* out,
                                           struct ArrowError* error);
// {"count": N, "columns": [...]} for a struct array of schema. Dictionary values
// are not written (see ArrowTestingJsonWriteStream).
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteBatch(const struct ArrowSchema* schema,
                                          const struct ArrowArray* array,
                                          struct ArrowBuffer* out,
                                          struct ArrowError* error);
// A whole document: schema, batches and the dictionaries they use. Dictionary ids
// are assigned 0, 1, ... to dictionary-encoded fields in depth-first pre-order.
// Integration JSON holds one dictionary per id, so a dictionary that changes
// between batches gives EINVAL (unless only appended to: the last one is kept).
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteStream(struct ArrowArrayStream* stream,
                                           struct ArrowBuffer* out,
                                           struct ArrowError* error);

// The dictionaries a sequence of writes has met (see
// ArrowTestingJsonWriteOptions.dictionaries): an id for each dictionary-encoded
// field, keyed by the address of its dictionary (value) schema, and the dictionary
// values last written for it. ArrowTestingJsonDictionariesInit makes an empty one
// (it cannot fail); ArrowTestingJsonDictionariesReset frees what it holds and
// leaves it empty. A schema released and another allocated at the same address
// would inherit its id: reset between unrelated schemas.
struct ArrowTestingJsonDictionaries {
  // The ids handed out are 0 .. n_ids - 1.
  int64_t n_ids;
  // Private to the library.
  int64_t capacity;
  void* entries;
};

NANOARROW_DLL void ArrowTestingJsonDictionariesInit(struct ArrowTestingJsonDictionaries* dictionaries);
NANOARROW_DLL void ArrowTestingJsonDictionariesReset(struct ArrowTestingJsonDictionaries* dictionaries);

// [{"id": I, "data": {"count": N, "columns": [<the values as a column>]}}, ...]: each
// id whose values were written, in id order ([] when none).
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteDictionaries(
    const struct ArrowTestingJsonDictionaries* dictionaries, struct ArrowBuffer* out,
    struct ArrowError* error);

// How the functions below write. ArrowTestingJsonWriteOptionsInit sets the
// defaults; a NULL options pointer means the defaults too.
struct ArrowTestingJsonWriteOptions {
  // -1 (default): floating-point values as the shortest text that reads back as
  // the same value. 0..20: rounded to that many digits after the decimal point
  // (printf's %.*f); larger values count as 20.
  int float_precision;
  // Non-zero (default): schema and field metadata are written.
  int include_metadata;
  // NULL (default): each call numbers the dictionary-encoded fields it meets 0, 1,
  // ... in depth-first pre-order. Otherwise ids come from (and new ones are added
  // to) this record, so that fields, batches and columns written by separate calls
  // agree; and columns (ArrowTestingJsonWriteBatchView, ArrowTestingJsonWriteColumn,
  // ArrowTestingJsonWriteDataFile) record their dictionaries' values in it for
  // ArrowTestingJsonWriteDictionaries.
  struct ArrowTestingJsonDictionaries* dictionaries;
  // NULL (default): the whole text is appended to out. Otherwise
  // ArrowTestingJsonWriteDataFile calls flush(flush_data, out, error) whenever out
  // holds at least NANOARROW_TESTING_JSON_FLUSH_BYTES between two values; flush
  // takes the bytes (writes them somewhere and sets out->size_bytes to 0) or returns
  // an error code, which ends the write with that code. A document of any length
  // is then written in bounded memory (besides single values and the dictionaries,
  // which are kept for the "dictionaries" section). The caller takes what is left
  // in out afterwards.
  ArrowErrorCode (*flush)(void* flush_data, struct ArrowBuffer* out,
                          struct ArrowError* error);
  void* flush_data;
};

// How much text ArrowTestingJsonWriteOptions.flush is handed at a time (at least).
#define NANOARROW_TESTING_JSON_FLUSH_BYTES 65536

NANOARROW_DLL void ArrowTestingJsonWriteOptionsInit(struct ArrowTestingJsonWriteOptions* options);

// A whole document as ArrowTestingJsonWriteStream writes it, without its final
// newline. With options->dictionaries, ids continue its numbering and the
// document's "dictionaries" lists every dictionary it holds values for (reset it
// first for a document of its own).
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteDataFile(
    struct ArrowArrayStream* stream, const struct ArrowTestingJsonWriteOptions* options,
    struct ArrowBuffer* out, struct ArrowError* error);

// As ArrowTestingJsonWriteSchema. Dictionary-encoded fields are numbered 0, 1, ...
// in depth-first pre-order.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteSchemaWithOptions(
    const struct ArrowSchema* schema, const struct ArrowTestingJsonWriteOptions* options,
    struct ArrowBuffer* out, struct ArrowError* error);

// One field: {"name": ..., "nullable": ..., "type": {...}, "children": [...]}
// plus "dictionary" (ids from 0) and "metadata" where they apply.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteField(const struct ArrowSchema* field,
                                          const struct ArrowTestingJsonWriteOptions* options,
                                          struct ArrowBuffer* out,
                                          struct ArrowError* error);

// The "type" object of a field (of its value type when dictionary-encoded).
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteType(const struct ArrowSchema* field,
                                         struct ArrowBuffer* out, struct ArrowError* error);

// Custom metadata as [{"key": ..., "value": ...}, ...]: null for NULL metadata, []
// for metadata with no items.
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteMetadata(const char* metadata, struct ArrowBuffer* out,
                                             struct ArrowError* error);

// {"count": N, "columns": [...]} for an array view of a "+s" schema (the view must
// have been set from a valid array).
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteBatchView(
    const struct ArrowSchema* schema, const struct ArrowArrayView* view,
    const struct ArrowTestingJsonWriteOptions* options, struct ArrowBuffer* out,
    struct ArrowError* error);

// One column: {"name": ..., "count": N, "VALIDITY": [...], ...} for an array view
// of field. Dictionary values are not written here (they are recorded in
// options->dictionaries when given).
NANOARROW_DLL ArrowErrorCode ArrowTestingJsonWriteColumn(
    const struct ArrowSchema* field, const struct ArrowArrayView* view,
    const struct ArrowTestingJsonWriteOptions* options, struct ArrowBuffer* out,
    struct ArrowError* error);

// ---- Comparing ----
// equal receives 1 when equal; otherwise 0 and reason (may be NULL) names the
// first difference. The return value is non-zero only when comparing failed
// (an invalid array, a stream error). Values are compared logically: null slots'
// contents, offsets' bases and how a dictionary stores its values do not matter;
// floating-point values compare by value (NaN equals NaN).

// Formats, names, nullability, map key ordering, metadata (its key/value pairs in
// any order, each as often on both sides), children and dictionaries.
NANOARROW_DLL ArrowErrorCode ArrowTestingCompareSchema(const struct ArrowSchema* actual,
                                         const struct ArrowSchema* expected, int* equal,
                                         struct ArrowError* reason);
// Two arrays of the same schema, element by element; reason names the field path
// and row of the first difference.
NANOARROW_DLL ArrowErrorCode ArrowTestingCompareArray(const struct ArrowSchema* schema,
                                        const struct ArrowArray* actual,
                                        const struct ArrowArray* expected, int* equal,
                                        struct ArrowError* reason);
// Schema, then each batch in turn (batch boundaries must match), then the
// number of batches. Consumes (but does not release) both streams.
NANOARROW_DLL ArrowErrorCode ArrowTestingCompareStreams(struct ArrowArrayStream* actual,
                                          struct ArrowArrayStream* expected, int* equal,
                                          struct ArrowError* reason);

// ---- Comparing, reporting every difference ----
// These call options->on_difference once for each difference, with a path naming
// where (path + ".fields[1]", path + ".columns[0]", path + ".metadata", ...) and
// both sides as integration JSON text. A non-zero return from the callback stops
// the comparison and is returned. Otherwise the return value is non-zero only when
// comparing failed (an invalid schema or array).
typedef ArrowErrorCode (*ArrowTestingDifferenceCallback)(void* private_data,
                                                         const char* path,
                                                         const char* actual,
                                                         const char* expected);

struct ArrowTestingCompareOptions {
  // Non-zero (default): the flags of the top-level schema are compared (record
  // batches exported as struct arrays are nullable in some implementations and
  // not in others).
  int compare_batch_flags;
  // Non-zero (default): metadata must list its pairs in the same order; zero:
  // the pairs compare as a multiset at every level.
  int compare_metadata_order;
  // -1 (default): floating-point values compare exactly (NaN equals NaN); 0..20:
  // as rounded to that many digits after the decimal point.
  int float_precision;
  ArrowTestingDifferenceCallback on_difference;
  void* private_data;
};

NANOARROW_DLL void ArrowTestingCompareOptionsInit(struct ArrowTestingCompareOptions* options);

// Differences between two schemas: ".format", ".flags", ".metadata", ".n_children"
// of the top level, then ".fields[i]" for each differing child (compared whole,
// as the JSON field objects). path may be NULL ("").
NANOARROW_DLL ArrowErrorCode ArrowTestingCompareSchemaDifferences(
    const struct ArrowSchema* actual, const struct ArrowSchema* expected, const char* path,
    const struct ArrowTestingCompareOptions* options, struct ArrowError* error);

// Differences between two arrays of schema: ".length" (then nothing else), and for
// a struct array ".columns[i]" for each differing column and ".validity" when the
// rows' own nulls differ; for any other array the path itself with both arrays as
// columns. Values compare logically as in ArrowTestingCompareArray. Columns whose
// JSON is the same but whose dictionary values differ (a column shows only its
// indices) are reported at the dictionary instead: the column's path, then
// ".children[k]" steps down to the dictionary-encoded node, then ".dictionary",
// with both dictionaries as columns.
NANOARROW_DLL ArrowErrorCode ArrowTestingCompareArrayDifferences(
    const struct ArrowSchema* schema, const struct ArrowArray* actual,
    const struct ArrowArray* expected, const char* path,
    const struct ArrowTestingCompareOptions* options, struct ArrowError* error);

#ifdef __cplusplus
}
#endif

#endif  // NANOARROW_TESTING_H_INCLUDED
