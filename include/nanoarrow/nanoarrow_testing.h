/* nanoarrow in C: Arrow integration-testing JSON and stream comparison.
 *
 * Reads and writes the JSON format Arrow implementations exchange in their
 * cross-implementation integration tests: a document
 *   {"schema": {"fields": [...], "metadata": [...]},
 *    "batches": [{"count": N, "columns": [...]}, ...],
 *    "dictionaries": [{"id": I, "data": {"count": N, "columns": [...]}}, ...]}
 * into and out of ArrowSchema / ArrowArray / ArrowArrayStream, and compares
 * schemas, arrays and streams value by value with a message naming the first
 * difference (field path, batch, row).
 *
 * This component (library nanoarrow_testing) uses the jansson JSON library and zlib
 * (gzipped documents); the core and IPC libraries do not depend on it. Every JSON
 * input is treated as hostile: malformed documents give EINVAL and a message
 * naming where the problem is, never a crash. */

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
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a whole file into out (ArrowBufferInit'ed here). Gzip-compressed input is
 * decompressed transparently; path "-" reads standard input. At most
 * max_size_bytes (after decompression) are accepted (ERANGE beyond). */
ArrowErrorCode ArrowTestingReadFile(const char* path, int64_t max_size_bytes,
                                    struct ArrowBuffer* out, struct ArrowError* error);

/* ---- Reading integration JSON ---- */

/* The schema of a document (a "+s" struct whose children are the fields, with
 * the schema's custom metadata). json may also be a bare schema object
 * ({"fields": ...}). */
ArrowErrorCode ArrowTestingJsonReadSchema(const char* json, int64_t size_bytes,
                                          struct ArrowSchema* out,
                                          struct ArrowError* error);

/* Record batch i of a document as a struct array (dictionaries resolved),
 * validated at the FULL level. ERANGE when the document has no batch i. out is
 * written only on success. */
ArrowErrorCode ArrowTestingJsonReadBatch(const char* json, int64_t size_bytes, int64_t i,
                                         struct ArrowArray* out, struct ArrowError* error);

/* A stream over every batch of a document. The document is parsed once here;
 * batches are built when pulled. */
ArrowErrorCode ArrowTestingJsonReadStream(const char* json, int64_t size_bytes,
                                          struct ArrowArrayStream* out,
                                          struct ArrowError* error);

/* ---- Writing integration JSON ----
 * Appended to out (an initialized ArrowBuffer); the text is not null-terminated.
 * 64-bit integers, decimals and large offsets are written as strings, binary as
 * upper-case hex, as the format requires. */

/* {"fields": [...], "metadata": [...]} for a "+s" schema. */
ArrowErrorCode ArrowTestingJsonWriteSchema(const struct ArrowSchema* schema,
                                           struct ArrowBuffer* out,
                                           struct ArrowError* error);
/* {"count": N, "columns": [...]} for a struct array of schema. Dictionary values
 * are not written (see ArrowTestingJsonWriteStream). */
ArrowErrorCode ArrowTestingJsonWriteBatch(const struct ArrowSchema* schema,
                                          const struct ArrowArray* array,
                                          struct ArrowBuffer* out,
                                          struct ArrowError* error);
/* A whole document: schema, batches and the dictionaries they use. Dictionary ids
 * are assigned 0, 1, ... to dictionary-encoded fields in depth-first pre-order.
 * Integration JSON holds one dictionary per id, so a dictionary that changes
 * between batches gives EINVAL (unless only appended to: the last one is kept). */
ArrowErrorCode ArrowTestingJsonWriteStream(struct ArrowArrayStream* stream,
                                           struct ArrowBuffer* out,
                                           struct ArrowError* error);

/* ---- Comparing ----
 * *equal receives 1 when equal; otherwise 0 and reason (may be NULL) names the
 * first difference. The return value is non-zero only when comparing failed
 * (an invalid array, a stream error). Values are compared logically: null slots'
 * contents, offsets' bases and how a dictionary stores its values do not matter;
 * floating-point values compare by value (NaN equals NaN). */

/* Formats, names, nullability, map key ordering, metadata (its key/value pairs in
 * any order, each as often on both sides), children and dictionaries. */
ArrowErrorCode ArrowTestingCompareSchema(const struct ArrowSchema* actual,
                                         const struct ArrowSchema* expected, int* equal,
                                         struct ArrowError* reason);
/* Two arrays of the same schema, element by element; reason names the field path
 * and row of the first difference. */
ArrowErrorCode ArrowTestingCompareArray(const struct ArrowSchema* schema,
                                        const struct ArrowArray* actual,
                                        const struct ArrowArray* expected, int* equal,
                                        struct ArrowError* reason);
/* Schema, then each batch in turn (batch boundaries must match), then the
 * number of batches. Consumes (but does not release) both streams. */
ArrowErrorCode ArrowTestingCompareStreams(struct ArrowArrayStream* actual,
                                          struct ArrowArrayStream* expected, int* equal,
                                          struct ArrowError* reason);

#ifdef __cplusplus
}
#endif

#endif /* NANOARROW_TESTING_H_INCLUDED */
