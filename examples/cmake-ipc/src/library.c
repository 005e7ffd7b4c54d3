#include <errno.h>
#include <stdio.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "library.h"

/* Set on nanoarrow_static with target_compile_options(... PUBLIC ...) in this
 * example's CMakeLists.txt: it reaches this file only because that target is a
 * real library, whose PUBLIC options pass on to whatever links it. */
#if !defined(EXAMPLE_CMAKE_IPC_FROM_NANOARROW_STATIC)
#error "target_compile_options(nanoarrow_static PUBLIC ...) did not reach its users"
#endif

static struct ArrowError last_error;

const char* example_last_error(void) { return ArrowErrorMessage(&last_error); }

static int WriteBatch(struct ArrowIpcWriter* writer, struct ArrowSchema* schema,
                      int32_t begin, int32_t end) {
  struct ArrowArray array;
  struct ArrowArrayView view;
  int32_t i;
  int result;

  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromSchema(&array, schema, &last_error));
  result = ArrowArrayStartAppending(&array);
  for (i = begin; i < end && result == NANOARROW_OK; i++) {
    result = ArrowArrayAppendInt(array.children[0], i);
    if (result == NANOARROW_OK) result = ArrowArrayFinishElement(&array);
  }
  if (result == NANOARROW_OK) result = ArrowArrayFinishBuildingDefault(&array, &last_error);
  if (result == NANOARROW_OK) {
    result = ArrowArrayViewInitFromSchema(&view, schema, &last_error);
    if (result == NANOARROW_OK) {
      result = ArrowArrayViewSetArray(&view, &array, &last_error);
      if (result == NANOARROW_OK) {
        result = ArrowIpcWriterWriteArrayView(writer, &view, &last_error);
      }
      ArrowArrayViewReset(&view);
    }
  }
  ArrowArrayRelease(&array);
  return result;
}

int example_write_stream(FILE* out, int32_t n) {
  struct ArrowSchema schema;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  int32_t begin;
  int result;

  ArrowErrorInit(&last_error);
  ArrowSchemaInit(&schema);
  result = ArrowSchemaSetTypeStruct(&schema, 1);
  if (result == NANOARROW_OK) {
    result = ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT32);
  }
  if (result == NANOARROW_OK) result = ArrowSchemaSetName(schema.children[0], "x");
  if (result != NANOARROW_OK) {
    ArrowSchemaRelease(&schema);
    return result;
  }

  result = ArrowIpcOutputStreamInitFile(&output, out, 0);
  if (result == NANOARROW_OK) {
    result = ArrowIpcWriterInit(&writer, &output);
    if (result == NANOARROW_OK) {
      result = ArrowIpcWriterWriteSchema(&writer, &schema, &last_error);
      for (begin = 0; begin < n && result == NANOARROW_OK; begin += 3) {
        result = WriteBatch(&writer, &schema, begin, begin + 3 < n ? begin + 3 : n);
      }
      if (result == NANOARROW_OK) {
        /* End of stream. */
        result = ArrowIpcWriterWriteArrayView(&writer, NULL, &last_error);
      }
      ArrowIpcWriterReset(&writer);
    } else {
      output.release(&output);
    }
  }
  ArrowSchemaRelease(&schema);
  return result;
}

int example_read_stream(FILE* in, int64_t* batches_out, int64_t* rows_out,
                        int64_t* sum_out) {
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowArray array;
  int64_t i;
  int result;

  ArrowErrorInit(&last_error);
  *batches_out = *rows_out = *sum_out = 0;
  NANOARROW_RETURN_NOT_OK(ArrowIpcInputStreamInitFile(&input, in, 0));
  result = ArrowIpcArrayStreamReaderInit(&stream, &input, NULL);
  if (result != NANOARROW_OK) {
    input.release(&input);
    return result;
  }
  result = ArrowArrayStreamGetSchema(&stream, &schema, &last_error);
  if (result != NANOARROW_OK) {
    ArrowArrayStreamRelease(&stream);
    return result;
  }
  result = ArrowArrayViewInitFromSchema(&view, &schema, &last_error);
  while (result == NANOARROW_OK) {
    result = ArrowArrayStreamGetNext(&stream, &array, &last_error);
    if (result != NANOARROW_OK || array.release == NULL) break;
    result = ArrowArrayViewSetArray(&view, &array, &last_error);
    if (result == NANOARROW_OK) {
      *batches_out += 1;
      *rows_out += array.length;
      if (view.n_children > 0 && view.children[0]->storage_type == NANOARROW_TYPE_INT32) {
        for (i = 0; i < view.children[0]->length; i++) {
          *sum_out += ArrowArrayViewGetIntUnsafe(view.children[0], i);
        }
      }
    }
    ArrowArrayRelease(&array);
  }
  if (result != NANOARROW_OK && last_error.message[0] == '\0') {
    ArrowErrorSet(&last_error, "%s", ArrowArrayStreamGetLastError(&stream));
  }
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
  return result;
}
