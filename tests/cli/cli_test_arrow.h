/* Arrow inputs the CLI tests build: IPC streams written with the library's
 * writer from arrays made here. */

#ifndef NANOARROW_TESTS_CLI_TEST_ARROW_H_INCLUDED
#define NANOARROW_TESTS_CLI_TEST_ARROW_H_INCLUDED

#include <stdio.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

/* Writes schema and the n_batches struct arrays of batches to path as an IPC
 * stream (with its end-of-stream marker when end_marker). */
static inline void WriteStream(const char* path, const struct ArrowSchema* schema,
                               struct ArrowArray* batches, int n_batches, int end_marker) {
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowError error;
  FILE* file = fopen(path, "wb");
  int b;
  cr_assert_not_null(file, "cannot open %s", path);
  cr_assert_eq(ArrowIpcOutputStreamInitFile(&output, file, 1), 0);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &output), 0);
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, schema, &error), 0, "%s", error.message);
  for (b = 0; b < n_batches; b++) {
    struct ArrowArrayView view;
    cr_assert_eq(ArrowArrayViewInitFromSchema(&view, schema, &error), 0, "%s", error.message);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &batches[b], &error), 0, "%s", error.message);
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), 0, "%s", error.message);
    ArrowArrayViewReset(&view);
  }
  if (end_marker) {
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), 0, "%s", error.message);
  }
  ArrowIpcWriterReset(&writer);
}

/* Sets schema's field i to name and type. */
static inline void SetField(struct ArrowSchema* schema, int64_t i, const char* name,
                            enum ArrowType type) {
  cr_assert_eq(ArrowSchemaSetType(schema->children[i], type), 0);
  cr_assert_eq(ArrowSchemaSetName(schema->children[i], name), 0);
}

static inline void AppendString(struct ArrowArray* array, const char* text) {
  struct ArrowStringView value;
  value.data = text;
  value.size_bytes = (int64_t)strlen(text);
  cr_assert_eq(ArrowArrayAppendString(array, value), 0);
}

static inline void FinishBatch(struct ArrowArray* array) {
  struct ArrowError error;
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), 0, "%s", error.message);
}

#endif /* NANOARROW_TESTS_CLI_TEST_ARROW_H_INCLUDED */
