/* Uses every nanoarrow library of the package: the core builds a column, the
 * device library wraps it as a CPU device array, nanoarrow_ipc writes it as a
 * stream into memory and reads it back, and nanoarrow_testing writes the schema
 * as integration JSON. Prints one line per step. */
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_testing.h"

#define CHECK(expr)                                                       \
  do {                                                                    \
    int check_result = (expr);                                            \
    if (check_result != NANOARROW_OK) {                                   \
      fprintf(stderr, "%s failed (%d): %s\n", #expr, check_result,        \
              error.message);                                             \
      return 1;                                                           \
    }                                                                     \
  } while (0)

int main(void) {
  struct ArrowError error;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowDeviceArray device_array;
  struct ArrowBuffer ipc_bytes;
  struct ArrowBuffer json;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema read_schema;
  struct ArrowArray read_array;
  int64_t i;

  ArrowErrorInit(&error);
  printf("nanoarrow %s\n", ArrowNanoarrowVersion());

  ArrowSchemaInit(&schema);
  CHECK(ArrowSchemaSetTypeStruct(&schema, 1));
  CHECK(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT64));
  CHECK(ArrowSchemaSetName(schema.children[0], "value"));
  CHECK(ArrowArrayInitFromSchema(&array, &schema, &error));
  CHECK(ArrowArrayStartAppending(&array));
  for (i = 0; i < 4; i++) {
    CHECK(ArrowArrayAppendInt(array.children[0], i * 10));
    CHECK(ArrowArrayFinishElement(&array));
  }
  CHECK(ArrowArrayFinishBuildingDefault(&array, &error));
  printf("core: struct array of %ld rows\n", (long)array.length);

  CHECK(ArrowDeviceArrayInit(ArrowDeviceCpu(), &device_array, &array, NULL));
  printf("device: device type %d\n", (int)device_array.device_type);

  CHECK(ArrowArrayViewInitFromSchema(&view, &schema, &error));
  CHECK(ArrowArrayViewSetArray(&view, &device_array.array, &error));
  ArrowBufferInit(&ipc_bytes);
  CHECK(ArrowIpcOutputStreamInitBuffer(&output, &ipc_bytes));
  CHECK(ArrowIpcWriterInit(&writer, &output));
  CHECK(ArrowIpcWriterWriteSchema(&writer, &schema, &error));
  CHECK(ArrowIpcWriterWriteArrayView(&writer, &view, &error));
  CHECK(ArrowIpcWriterWriteArrayView(&writer, NULL, &error));
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&view);

  CHECK(ArrowIpcInputStreamInitBuffer(&input, &ipc_bytes));
  CHECK(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL));
  CHECK(ArrowArrayStreamGetSchema(&stream, &read_schema, &error));
  CHECK(ArrowArrayStreamGetNext(&stream, &read_array, &error));
  printf("ipc: read back %ld rows\n", (long)read_array.length);
  ArrowArrayRelease(&read_array);
  ArrowSchemaRelease(&read_schema);
  ArrowArrayStreamRelease(&stream);

  ArrowBufferInit(&json);
  CHECK(ArrowTestingJsonWriteSchema(&schema, &json, &error));
  printf("testing: schema as JSON has %ld bytes\n", (long)json.size_bytes);
  ArrowBufferReset(&json);

  device_array.array.release(&device_array.array);
  ArrowSchemaRelease(&schema);
  printf("all nanoarrow libraries work\n");
  return 0;
}
