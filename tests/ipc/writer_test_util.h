/* Helpers shared by the IPC writer tests: building small schemas and arrays. */

#ifndef NANOARROW_TESTS_IPC_WRITER_TEST_UTIL_H_INCLUDED
#define NANOARROW_TESTS_IPC_WRITER_TEST_UTIL_H_INCLUDED

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define WT_OK(expr)                                                                \
  do {                                                                             \
    int wt_rc_ = (expr);                                                           \
    cr_assert_eq(wt_rc_, NANOARROW_OK, "%s returned %d", #expr, wt_rc_);           \
  } while (0)

/* A struct schema whose children have the given formats and names. */
static inline void WtStructSchema(struct ArrowSchema* schema, int64_t n,
                                  const char* const* formats, const char* const* names) {
  int64_t i;
  ArrowSchemaInit(schema);
  WT_OK(ArrowSchemaSetTypeStruct(schema, n));
  for (i = 0; i < n; i++) {
    WT_OK(ArrowSchemaSetFormat(schema->children[i], formats[i]));
    WT_OK(ArrowSchemaSetName(schema->children[i], names[i]));
  }
}

static inline void WtAppendStrings(struct ArrowArray* array, int64_t n,
                                   const char* const* values) {
  int64_t i;
  for (i = 0; i < n; i++) {
    if (values[i] == NULL) {
      WT_OK(ArrowArrayAppendNull(array, 1));
    } else {
      WT_OK(ArrowArrayAppendString(array, ArrowCharView(values[i])));
    }
  }
}

/* Counts n struct rows whose children were appended already, then builds the
 * array. (ArrowArrayFinishElement closes one row at a time: it wants each child
 * exactly one element longer than the struct.) */
static inline void WtFinishStruct(struct ArrowArray* array, int64_t n) {
  struct ArrowError error;
  array->length += n;
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
}

/* Writes schema + arrays as a stream (file_format == 0) or a file into out. */
static inline int WtWrite(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                          struct ArrowArray** arrays, int64_t n_arrays, int file_format,
                          enum ArrowIpcCompressionType codec, struct ArrowError* error) {
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  struct ArrowArrayView view;
  int64_t i;
  int rc;

  WT_OK(ArrowIpcOutputStreamInitBuffer(&stream, out));
  WT_OK(ArrowIpcWriterInit(&writer, &stream));
  rc = ArrowIpcWriterSetCompression(&writer, codec, NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                    error);
  if (rc == NANOARROW_OK && file_format) rc = ArrowIpcWriterStartFile(&writer, error);
  if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteSchema(&writer, schema, error);
  if (rc == NANOARROW_OK) rc = ArrowArrayViewInitFromSchema(&view, schema, error);
  if (rc != NANOARROW_OK) {
    ArrowIpcWriterReset(&writer);
    return rc;
  }
  for (i = 0; i < n_arrays && rc == NANOARROW_OK; i++) {
    rc = ArrowArrayViewSetArray(&view, arrays[i], error);
    if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteArrayView(&writer, &view, error);
  }
  if (rc == NANOARROW_OK) {
    rc = file_format ? ArrowIpcWriterFinalizeFile(&writer, error)
                     : ArrowIpcWriterWriteArrayView(&writer, NULL, error);
  }
  ArrowArrayViewReset(&view);
  ArrowIpcWriterReset(&writer);
  return rc;
}

#endif /* NANOARROW_TESTS_IPC_WRITER_TEST_UTIL_H_INCLUDED */
