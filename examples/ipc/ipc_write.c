/* Write two record batches of struct<id: int32, name: string, score: double> in
 * the Arrow IPC stream format (or, with --file, the IPC file format).
 *
 *   ipc_write [--file] [OUTPUT]      (OUTPUT "-" or omitted: standard output)
 *
 * ipc_read prints what this writes: ipc_write | ipc_read */
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
/* The installed headers declare the writer apart; the bundled nanoarrow_ipc.h
 * already contains it (and defines this guard). */
#ifndef NANOARROW_IPC_WRITER_H_INCLUDED
#include "nanoarrow/nanoarrow_ipc_writer.h"
#endif

struct Row {
  int32_t id;
  const char* name; /* NULL means a null name */
  double score;
};

static ArrowErrorCode MakeSchema(struct ArrowSchema* schema) {
  ArrowSchemaInit(schema);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(schema, 3));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(schema->children[0], "id"));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(schema->children[1], "name"));
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[2], NANOARROW_TYPE_DOUBLE));
  return ArrowSchemaSetName(schema->children[2], "score");
}

static ArrowErrorCode MakeBatch(const struct ArrowSchema* schema, const struct Row* rows,
                                int64_t n_rows, struct ArrowArray* out,
                                struct ArrowError* error) {
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromSchema(out, schema, error));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStartAppending(out));
  for (i = 0; i < n_rows; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowArrayAppendInt(out->children[0], rows[i].id));
    if (rows[i].name == NULL) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayAppendNull(out->children[1], 1));
    } else {
      NANOARROW_RETURN_NOT_OK(
          ArrowArrayAppendString(out->children[1], ArrowCharView(rows[i].name)));
    }
    NANOARROW_RETURN_NOT_OK(ArrowArrayAppendDouble(out->children[2], rows[i].score));
    NANOARROW_RETURN_NOT_OK(ArrowArrayFinishElement(out));
  }
  return ArrowArrayFinishBuildingDefault(out, error);
}

/* A stream of the two batches (it owns them and the schema). */
static ArrowErrorCode MakeStream(struct ArrowArrayStream* stream, struct ArrowError* error) {
  static const struct Row batch0[] = {{1, "ada", 9.5}, {2, "grace", 8.25}};
  static const struct Row batch1[] = {
      {3, NULL, 1.0}, {4, "edsger", 7.0}, {5, "barbara", 9.75}};
  struct ArrowSchema schema;
  struct ArrowArray arrays[2];
  ArrowErrorCode code;

  arrays[0].release = NULL;
  arrays[1].release = NULL;
  code = MakeSchema(&schema);
  if (code == NANOARROW_OK) code = MakeBatch(&schema, batch0, 2, &arrays[0], error);
  if (code == NANOARROW_OK) code = MakeBatch(&schema, batch1, 3, &arrays[1], error);
  if (code == NANOARROW_OK) code = ArrowBasicArrayStreamInit(stream, &schema, 2);
  if (code != NANOARROW_OK) {
    if (schema.release != NULL) ArrowSchemaRelease(&schema);
    if (arrays[0].release != NULL) ArrowArrayRelease(&arrays[0]);
    if (arrays[1].release != NULL) ArrowArrayRelease(&arrays[1]);
    return code;
  }
  ArrowBasicArrayStreamSetArray(stream, 0, &arrays[0]);
  ArrowBasicArrayStreamSetArray(stream, 1, &arrays[1]);
  return NANOARROW_OK;
}

/* Writes the stream to out (the writer takes ownership of out). */
static ArrowErrorCode WriteStream(struct ArrowIpcOutputStream* out, int file_format,
                                  struct ArrowArrayStream* stream,
                                  struct ArrowError* error) {
  struct ArrowIpcWriter writer;
  ArrowErrorCode code = ArrowIpcWriterInit(&writer, out);
  if (code != NANOARROW_OK) {
    out->release(out);
    ArrowErrorSet(error, "could not create the IPC writer");
    return code;
  }
  if (file_format) code = ArrowIpcWriterStartFile(&writer, error);
  if (code == NANOARROW_OK) code = ArrowIpcWriterWriteArrayStream(&writer, stream, error);
  if (code == NANOARROW_OK && file_format) code = ArrowIpcWriterFinalizeFile(&writer, error);
  ArrowIpcWriterReset(&writer);
  return code;
}

int main(int argc, char** argv) {
  struct ArrowError error;
  struct ArrowArrayStream stream;
  struct ArrowIpcOutputStream out;
  const char* path = NULL;
  int file_format = 0;
  FILE* file;
  ArrowErrorCode code;
  int i;

  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--file") == 0) {
      file_format = 1;
    } else if (path == NULL) {
      path = argv[i];
    } else {
      fprintf(stderr, "usage: %s [--file] [OUTPUT]\n", argv[0]);
      return 2;
    }
  }
  if (path == NULL || strcmp(path, "-") == 0) {
    file = stdout;
  } else {
    file = fopen(path, "wb");
    if (file == NULL) {
      perror(path);
      return 1;
    }
  }

  ArrowErrorInit(&error);
  code = MakeStream(&stream, &error);
  if (code == NANOARROW_OK) {
    /* The output stream closes the file on release unless it is stdout. */
    code = ArrowIpcOutputStreamInitFile(&out, file, file != stdout);
    if (code == NANOARROW_OK) {
      code = WriteStream(&out, file_format, &stream, &error);
    } else if (file != stdout) {
      fclose(file);
    }
    ArrowArrayStreamRelease(&stream);
  } else if (file != stdout) {
    fclose(file);
  }
  if (code != NANOARROW_OK) {
    fprintf(stderr, "ipc_write: %s (errno %d)\n", error.message, code);
    return 1;
  }
  if (file == stdout && fflush(stdout) != 0) {
    perror("stdout");
    return 1;
  }
  return 0;
}
