/* A small program using the device extension, built by tools/check-bundle.sh against
 * dist/ and by tools/check-install.sh against an installed copy. Exits non-zero, saying
 * why, when the CPU device does not behave as documented. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#define CHECK(EXPR)                                              \
  do {                                                           \
    if (!(EXPR)) {                                               \
      fprintf(stderr, "device_consumer: failed: %s\n", #EXPR);   \
      return 1;                                                  \
    }                                                            \
  } while (0)

int main(void) {
  struct ArrowError error;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArray copy;
  struct ArrowDeviceArrayView view;
  int64_t i;

  CHECK(ArrowDeviceCheckRuntime(&error) == NANOARROW_OK);
  CHECK(ArrowDeviceResolve(ARROW_DEVICE_CPU, 0) == ArrowDeviceCpu());
  CHECK(ArrowDeviceResolve(ARROW_DEVICE_CUDA, 0) == NULL);

  CHECK(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT64) == NANOARROW_OK);
  CHECK(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT64) == NANOARROW_OK);
  CHECK(ArrowArrayStartAppending(&array) == NANOARROW_OK);
  for (i = 0; i < 5; i++) {
    CHECK(ArrowArrayAppendInt(&array, i * i) == NANOARROW_OK);
  }
  CHECK(ArrowArrayFinishBuildingDefault(&array, &error) == NANOARROW_OK);
  CHECK(ArrowDeviceArrayInit(ArrowDeviceCpu(), &device_array, &array, NULL) ==
        NANOARROW_OK);
  CHECK(array.release == NULL && device_array.device_type == ARROW_DEVICE_CPU);

  ArrowDeviceArrayViewInit(&view);
  CHECK(ArrowArrayViewInitFromSchema(&view.array_view, &schema, &error) == NANOARROW_OK);
  CHECK(ArrowDeviceArrayViewSetArray(&view, &device_array, &error) == NANOARROW_OK);
  CHECK(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &copy) == NANOARROW_OK);
  CHECK(copy.array.length == 5 && ((const int64_t*)copy.array.buffers[1])[4] == 16);
  ArrowArrayRelease(&copy.array);

  /* Buffers claiming to be on a GPU are refused, not read. */
  device_array.device_type = ARROW_DEVICE_CUDA;
  CHECK(ArrowDeviceArrayViewSetArray(&view, &device_array, &error) == ENOTSUP);
  device_array.device_type = ARROW_DEVICE_CPU;

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
  ArrowSchemaRelease(&schema);
  printf("device_consumer: ok\n");
  return 0;
}
