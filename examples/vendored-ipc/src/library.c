/* The nested layout: the bundle's headers in a nanoarrow/ folder, included as
 * nanoarrow's vendored examples include them. */
#include <stdio.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "library.h"

static struct ArrowError last_error;

const char* example_last_error(void) { return ArrowErrorMessage(&last_error); }

static int MakeBatch(struct ArrowSchema* schema, const char* first, const char* second,
                     struct ArrowArray* out) {
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromSchema(out, schema, &last_error));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStartAppending(out));
  NANOARROW_RETURN_NOT_OK(ArrowArrayAppendString(out->children[0], ArrowCharView(first)));
  NANOARROW_RETURN_NOT_OK(ArrowArrayFinishElement(out));
  NANOARROW_RETURN_NOT_OK(ArrowArrayAppendString(out->children[0], ArrowCharView(second)));
  NANOARROW_RETURN_NOT_OK(ArrowArrayFinishElement(out));
  return ArrowArrayFinishBuildingDefault(out, &last_error);
}

int example_write_names(FILE* out) {
  struct ArrowSchema schema;
  struct ArrowArray batches[2];
  struct ArrowArrayStream stream;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  int result;

  ArrowErrorInit(&last_error);
  ArrowSchemaInit(&schema);
  batches[0].release = batches[1].release = NULL;
  result = ArrowSchemaSetTypeStruct(&schema, 1);
  if (result == NANOARROW_OK) {
    result = ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_STRING);
  }
  if (result == NANOARROW_OK) result = ArrowSchemaSetName(schema.children[0], "name");
  if (result == NANOARROW_OK) result = MakeBatch(&schema, "alice", "bob", &batches[0]);
  if (result == NANOARROW_OK) result = MakeBatch(&schema, "carol", "dave", &batches[1]);
  if (result != NANOARROW_OK) {
    if (batches[0].release != NULL) ArrowArrayRelease(&batches[0]);
    if (batches[1].release != NULL) ArrowArrayRelease(&batches[1]);
    ArrowSchemaRelease(&schema);
    return result;
  }

  /* The basic stream takes over the schema and the two batches. */
  result = ArrowBasicArrayStreamInit(&stream, &schema, 2);
  if (result != NANOARROW_OK) {
    ArrowArrayRelease(&batches[0]);
    ArrowArrayRelease(&batches[1]);
    ArrowSchemaRelease(&schema);
    return result;
  }
  ArrowBasicArrayStreamSetArray(&stream, 0, &batches[0]);
  ArrowBasicArrayStreamSetArray(&stream, 1, &batches[1]);

  result = ArrowIpcOutputStreamInitFile(&output, out, 0);
  if (result == NANOARROW_OK) {
    result = ArrowIpcWriterInit(&writer, &output);
    if (result == NANOARROW_OK) {
      result = ArrowIpcWriterWriteArrayStream(&writer, &stream, &last_error);
      ArrowIpcWriterReset(&writer);
    } else {
      output.release(&output);
    }
  }
  ArrowArrayStreamRelease(&stream);
  return result;
}

int example_describe_stream(FILE* in) {
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  char schema_text[256];
  int64_t batches = 0;
  int result;

  ArrowErrorInit(&last_error);
  NANOARROW_RETURN_NOT_OK(ArrowIpcInputStreamInitFile(&input, in, 0));
  result = ArrowIpcArrayStreamReaderInit(&stream, &input, NULL);
  if (result != NANOARROW_OK) {
    input.release(&input);
    return result;
  }
  result = ArrowArrayStreamGetSchema(&stream, &schema, &last_error);
  if (result == NANOARROW_OK) {
    ArrowSchemaToString(&schema, schema_text, sizeof(schema_text), 1);
    printf("schema: %s\n", schema_text);
    ArrowSchemaRelease(&schema);
  }
  while (result == NANOARROW_OK) {
    result = ArrowArrayStreamGetNext(&stream, &batch, &last_error);
    if (result != NANOARROW_OK || batch.release == NULL) break;
    printf("batch %ld: %ld rows\n", (long)batches++, (long)batch.length);
    ArrowArrayRelease(&batch);
  }
  if (result != NANOARROW_OK && last_error.message[0] == '\0') {
    ArrowErrorSet(&last_error, "%s", ArrowArrayStreamGetLastError(&stream));
  }
  ArrowArrayStreamRelease(&stream);
  return result;
}
