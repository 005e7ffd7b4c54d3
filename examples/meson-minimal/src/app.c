/* Writes a one-column IPC stream into memory, reads it back and prints what it
 * read, with the nanoarrow and nanoarrow_ipc dependencies of the subproject. */
#include <stdio.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

static int Run(struct ArrowError* error) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowBuffer bytes;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowArray batch;
  char text[128];

  ArrowSchemaInit(&schema);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(&schema, 1));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_DOUBLE));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(schema.children[0], "score"));
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromSchema(&array, &schema, error));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStartAppending(&array));
  NANOARROW_RETURN_NOT_OK(ArrowArrayAppendDouble(array.children[0], 1.5));
  NANOARROW_RETURN_NOT_OK(ArrowArrayFinishElement(&array));
  NANOARROW_RETURN_NOT_OK(ArrowArrayAppendNull(array.children[0], 1));
  NANOARROW_RETURN_NOT_OK(ArrowArrayFinishElement(&array));
  NANOARROW_RETURN_NOT_OK(ArrowArrayFinishBuildingDefault(&array, error));

  NANOARROW_RETURN_NOT_OK(ArrowArrayViewInitFromSchema(&view, &schema, error));
  NANOARROW_RETURN_NOT_OK(ArrowArrayViewSetArray(&view, &array, error));
  ArrowBufferInit(&bytes);
  NANOARROW_RETURN_NOT_OK(ArrowIpcOutputStreamInitBuffer(&output, &bytes));
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterInit(&writer, &output));
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterWriteSchema(&writer, &schema, error));
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterWriteArrayView(&writer, &view, error));
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterWriteArrayView(&writer, NULL, error));
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  printf("wrote %ld bytes of IPC stream\n", (long)bytes.size_bytes);

  NANOARROW_RETURN_NOT_OK(ArrowIpcInputStreamInitBuffer(&input, &bytes));
  NANOARROW_RETURN_NOT_OK(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStreamGetSchema(&stream, &schema, error));
  ArrowSchemaToString(&schema, text, sizeof(text), 1);
  NANOARROW_RETURN_NOT_OK(ArrowArrayStreamGetNext(&stream, &batch, error));
  printf("read %s: %ld rows, %ld null\n", text, (long)batch.length,
         (long)batch.children[0]->null_count);
  ArrowArrayRelease(&batch);
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
  return NANOARROW_OK;
}

int main(void) {
  struct ArrowError error;
  ArrowErrorInit(&error);
  if (Run(&error) != NANOARROW_OK) {
    fprintf(stderr, "error: %s\n", error.message);
    return 1;
  }
  printf("nanoarrow %s as a Meson subproject\n", ArrowNanoarrowVersion());
  return 0;
}
