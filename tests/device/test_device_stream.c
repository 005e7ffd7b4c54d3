/* ArrowDeviceBasicArrayStreamInit: an ArrowArrayStream presented as a CPU
 * ArrowDeviceArrayStream. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "device_test_util.h"

/* A basic stream of n_arrays int32 arrays: array i holds 3 values from 10 * i. */
static void MakeStream(struct ArrowArrayStream* stream, int64_t n_arrays) {
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&schema, "col"), NANOARROW_OK);
  cr_assert_eq(ArrowBasicArrayStreamInit(stream, &schema, n_arrays), NANOARROW_OK);
  for (int64_t i = 0; i < n_arrays; i++) {
    struct ArrowArray array;
    MakeInt32Array(&array, (int32_t)(10 * i), 3);
    ArrowBasicArrayStreamSetArray(stream, i, &array);
  }
}

Test(device_stream, schema_batches_end_release) {
  struct ArrowArrayStream naive;
  struct ArrowDeviceArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowDeviceArray batch;
  MakeStream(&naive, 2);

  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, &naive, ArrowDeviceCpu()),
               NANOARROW_OK);
  cr_assert_null(naive.release, "the device stream owns the array stream");
  cr_assert_eq(stream.device_type, ARROW_DEVICE_CPU);

  cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK);
  cr_assert_str_eq(schema.format, "i");
  cr_assert_str_eq(schema.name, "col");
  ArrowSchemaRelease(&schema);

  for (int i = 0; i < 2; i++) {
    memset(&batch, 0xcd, sizeof(batch));
    cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK);
    cr_assert_not_null(batch.array.release);
    cr_assert_eq(batch.device_type, ARROW_DEVICE_CPU);
    cr_assert_eq(batch.device_id, -1);
    cr_assert_null(batch.sync_event);
    cr_assert_eq(batch.array.length, 3);
    cr_assert_eq(((const int32_t*)batch.array.buffers[1])[2], 10 * i + 2);
    ArrowArrayRelease(&batch.array);
  }

  /* End of stream: a released array, repeatedly. */
  for (int i = 0; i < 2; i++) {
    memset(&batch, 0xcd, sizeof(batch));
    cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK);
    cr_assert_null(batch.array.release);
    cr_assert_eq(batch.device_type, ARROW_DEVICE_CPU);
  }

  stream.release(&stream);
  cr_assert_null(stream.release);
}

Test(device_stream, release_with_batches_left) {
  struct ArrowArrayStream naive;
  struct ArrowDeviceArrayStream stream;
  MakeStream(&naive, 3);
  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, &naive, ArrowDeviceCpu()),
               NANOARROW_OK);
  /* Under ASan a leak of the unread arrays fails this test. */
  stream.release(&stream);
  cr_assert_null(stream.release);
}

Test(device_stream, errors_are_forwarded) {
  struct ArrowArrayStream naive;
  struct ArrowDeviceArrayStream stream;
  struct ArrowDeviceArray batch;
  MakeStream(&naive, 1);
  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, &naive, ArrowDeviceCpu()),
               NANOARROW_OK);
  cr_assert_eq(stream.get_next(&stream, NULL), EINVAL);
  cr_assert_eq(stream.get_schema(&stream, NULL), EINVAL);
  /* The inner stream's message (possibly empty) is what get_last_error reports. */
  const char* message = stream.get_last_error(&stream);
  (void)message;
  cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK);
  ArrowArrayRelease(&batch.array);
  stream.release(&stream);
}

Test(device_stream, init_refusals) {
  struct ArrowArrayStream naive;
  struct ArrowDeviceArrayStream stream;
  MakeStream(&naive, 1);

  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(NULL, &naive, ArrowDeviceCpu()), EINVAL);
  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, NULL, ArrowDeviceCpu()), EINVAL);
  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, &naive, NULL), EINVAL);
  struct ArrowDevice released;
  ArrowDeviceInitCpu(&released);
  released.release(&released);
  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, &naive, &released), EINVAL);
  cr_assert_not_null(naive.release, "refused: the array stream stays the caller's");

  struct ArrowArrayStream gone;
  memset(&gone, 0, sizeof(gone));
  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, &gone, ArrowDeviceCpu()), EINVAL);
  ArrowArrayStreamRelease(&naive);
}

Test(device_stream, non_cpu_device_batches_refused) {
  struct ArrowArrayStream naive;
  struct ArrowDeviceArrayStream stream;
  struct ArrowDeviceArray batch;
  struct ArrowDevice gpu;
  /* A device struct that claims CUDA but has the CPU callbacks: wrapping host arrays
   * as CUDA arrays is refused batch by batch, with a message. */
  ArrowDeviceInitCpu(&gpu);
  gpu.device_type = ARROW_DEVICE_CUDA;
  MakeStream(&naive, 1);
  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, &naive, &gpu), NANOARROW_OK);
  cr_assert_eq(stream.device_type, ARROW_DEVICE_CUDA);
  cr_assert_eq(stream.get_next(&stream, &batch), ENOTSUP);
  const char* message = stream.get_last_error(&stream);
  cr_assert_not_null(message);
  cr_assert(strstr(message, "CUDA") != NULL, "%s", message);
  stream.release(&stream);
}
