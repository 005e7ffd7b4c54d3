/* libFuzzer harness: the integration JSON reader (nanoarrow_testing). The input is
 * a JSON document; its schema, every batch (through the stream and by index) must
 * either fail cleanly or be valid at the FULL level and readable in full. */

#include <stdint.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_testing.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* json = (const char*)data;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayStream stream;
  struct ArrowError error;
  int64_t i;
  ArrowErrorInit(&error);

  if (ArrowTestingJsonReadSchema(json, (int64_t)size, &schema, &error) != NANOARROW_OK) {
    return 0;
  }
  FuzzTouchSchema(&schema, 0);

  if (ArrowTestingJsonReadStream(json, (int64_t)size, &stream, &error) == NANOARROW_OK) {
    struct ArrowSchema stream_schema;
    if (ArrowArrayStreamGetSchema(&stream, &stream_schema, &error) == NANOARROW_OK) {
      for (i = 0; i < 100000; i++) {
        if (ArrowArrayStreamGetNext(&stream, &array, &error) != NANOARROW_OK) break;
        if (array.release == NULL) break;
        FuzzCheckBatch(&stream_schema, &array);
        ArrowArrayRelease(&array);
      }
      ArrowSchemaRelease(&stream_schema);
    }
    ArrowArrayStreamRelease(&stream);
  }

  /* Random access by index, including past the end (ERANGE). */
  for (i = 0; i < 4; i++) {
    if (ArrowTestingJsonReadBatch(json, (int64_t)size, i, &array, &error) != NANOARROW_OK) {
      break;
    }
    FuzzCheckBatch(&schema, &array);
    ArrowArrayRelease(&array);
  }
  ArrowSchemaRelease(&schema);
  return 0;
}
