/* The CPU device: singleton, resolution, device arrays, moves, buffer operations and
 * the refusal of every other device type. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "device_test_util.h"

Test(device_cpu, check_runtime) {
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowDeviceCheckRuntime(&error), NANOARROW_OK);
  cr_assert_str_eq(error.message, "");
  cr_assert_eq(ArrowDeviceCheckRuntime(NULL), NANOARROW_OK);
}

Test(device_cpu, singleton) {
  struct ArrowDevice* cpu = ArrowDeviceCpu();
  cr_assert_not_null(cpu);
  cr_assert_eq(ArrowDeviceCpu(), cpu, "ArrowDeviceCpu() must return one singleton");
  cr_assert_eq(cpu->device_type, ARROW_DEVICE_CPU);
  cr_assert_eq(cpu->device_id, -1);
  cr_assert_not_null(cpu->array_init);
  cr_assert_not_null(cpu->array_move);
  cr_assert_not_null(cpu->buffer_init);
  cr_assert_not_null(cpu->buffer_move);
  cr_assert_not_null(cpu->buffer_copy);
  cr_assert_not_null(cpu->synchronize_event);
  cr_assert_not_null(cpu->release);

  /* Releasing the singleton by mistake must not break it. */
  cpu->release(cpu);
  cr_assert_not_null(ArrowDeviceCpu()->release);
  cr_assert_eq(ArrowDeviceCpu()->device_type, ARROW_DEVICE_CPU);
}

Test(device_cpu, init_cpu) {
  struct ArrowDevice device;
  memset(&device, 0xff, sizeof(device));
  ArrowDeviceInitCpu(&device);
  cr_assert_eq(device.device_type, ARROW_DEVICE_CPU);
  cr_assert_eq(device.device_id, -1);
  cr_assert_eq(device.array_init, ArrowDeviceCpu()->array_init);
  cr_assert_eq(device.buffer_copy, ArrowDeviceCpu()->buffer_copy);
  cr_assert_null(device.private_data);
  cr_assert_not_null(device.release);
  device.release(&device);
  cr_assert_null(device.release, "a released device has release == NULL");

  /* A released device is refused. */
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  MakeInt32Array(&array, 1, 3);
  cr_assert_eq(ArrowDeviceArrayInit(&device, &device_array, &array, NULL), EINVAL);
  cr_assert_not_null(array.release, "a refused array stays the caller's");
  ArrowArrayRelease(&array);
}

Test(device_cpu, resolve) {
  cr_assert_eq(ArrowDeviceResolve(ARROW_DEVICE_CPU, -1), ArrowDeviceCpu());
  cr_assert_eq(ArrowDeviceResolve(ARROW_DEVICE_CPU, 0), ArrowDeviceCpu(),
               "0, DLPack's id for host memory, is the CPU too");
  cr_assert_null(ArrowDeviceResolve(ARROW_DEVICE_CPU, 1));
  cr_assert_null(ArrowDeviceResolve(ARROW_DEVICE_CPU, -2));
  /* The CUDA types resolve to ArrowDeviceCuda(): NULL without CUDA, without a driver
   * or without a GPU. */
  cr_assert_eq(ArrowDeviceResolve(ARROW_DEVICE_CUDA, 0),
               ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0));
  cr_assert_eq(ArrowDeviceResolve(ARROW_DEVICE_CUDA_HOST, 0),
               ArrowDeviceCuda(ARROW_DEVICE_CUDA_HOST, 0));
#if !defined(NANOARROW_DEVICE_WITH_CUDA)
  cr_assert_null(ArrowDeviceResolve(ARROW_DEVICE_CUDA, 0));
  cr_assert_null(ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0));
#endif
  cr_assert_null(ArrowDeviceResolve(ARROW_DEVICE_CUDA, 1 << 20));
  cr_assert_null(ArrowDeviceResolve(ARROW_DEVICE_METAL, 0));
  cr_assert_null(ArrowDeviceResolve(0, 0));
  cr_assert_null(ArrowDeviceResolve(-7, 0));
  cr_assert_null(ArrowDeviceResolve(INT32_MAX, INT64_MAX));
}

Test(device_cpu, device_type_values) {
  /* The values are ABI (the Arrow C Device Data Interface, after DLPack). */
  cr_assert_eq(ARROW_DEVICE_CPU, 1);
  cr_assert_eq(ARROW_DEVICE_CUDA, 2);
  cr_assert_eq(ARROW_DEVICE_CUDA_HOST, 3);
  cr_assert_eq(ARROW_DEVICE_OPENCL, 4);
  cr_assert_eq(ARROW_DEVICE_VULKAN, 7);
  cr_assert_eq(ARROW_DEVICE_METAL, 8);
  cr_assert_eq(ARROW_DEVICE_VPI, 9);
  cr_assert_eq(ARROW_DEVICE_ROCM, 10);
  cr_assert_eq(ARROW_DEVICE_ROCM_HOST, 11);
  cr_assert_eq(ARROW_DEVICE_EXT_DEV, 12);
  cr_assert_eq(ARROW_DEVICE_CUDA_MANAGED, 13);
  cr_assert_eq(ARROW_DEVICE_ONEAPI, 14);
  cr_assert_eq(ARROW_DEVICE_WEBGPU, 15);
  cr_assert_eq(ARROW_DEVICE_HEXAGON, 16);
  cr_assert_eq(sizeof(ArrowDeviceType), 4);
  cr_assert_eq(sizeof(struct ArrowDeviceArray), sizeof(struct ArrowArray) + 48);
}

Test(device_cpu, array_init_takes_ownership) {
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  MakeInt32Array(&array, 7, 4);
  const void* data = array.buffers[1];
  memset(&device_array, 0xab, sizeof(device_array));

  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &device_array, &array, NULL),
               NANOARROW_OK);
  cr_assert_null(array.release, "the array moves into the device array");
  cr_assert_not_null(device_array.array.release);
  cr_assert_eq(device_array.array.buffers[1], data, "moved, not copied");
  cr_assert_eq(device_array.array.length, 4);
  cr_assert_eq(device_array.device_type, ARROW_DEVICE_CPU);
  cr_assert_eq(device_array.device_id, -1);
  cr_assert_null(device_array.sync_event);
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(device_array.reserved[i], 0, "reserved bytes must be zeroed");
  }
  ArrowArrayRelease(&device_array.array);
}

Test(device_cpu, array_init_async_and_user_device) {
  struct ArrowDevice device;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  ArrowDeviceInitCpu(&device);
  MakeInt32Array(&array, 0, 2);
  cr_assert_eq(ArrowDeviceArrayInitAsync(&device, &device_array, &array, NULL, NULL),
               NANOARROW_OK);
  cr_assert_eq(device_array.device_type, ARROW_DEVICE_CPU);
  cr_assert_eq(device_array.device_id, -1);
  ArrowArrayRelease(&device_array.array);
  device.release(&device);
}

Test(device_cpu, array_init_refusals) {
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  int event = 0;
  MakeInt32Array(&array, 0, 2);

  cr_assert_eq(ArrowDeviceArrayInit(NULL, &device_array, &array, NULL), EINVAL);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), NULL, &array, NULL), EINVAL);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &device_array, NULL, NULL), EINVAL);
  /* The CPU has no events or streams to record. */
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &device_array, &array, &event), EINVAL);
  cr_assert_eq(
      ArrowDeviceArrayInitAsync(ArrowDeviceCpu(), &device_array, &array, NULL, &event),
      EINVAL);
  cr_assert_not_null(array.release, "refused: the array stays the caller's");

  /* A released array cannot be wrapped. */
  struct ArrowArray released;
  memset(&released, 0, sizeof(released));
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &device_array, &released, NULL),
               EINVAL);

  /* A device struct claiming another type makes the CPU callback refuse. */
  struct ArrowDevice fake;
  ArrowDeviceInitCpu(&fake);
  fake.device_type = ARROW_DEVICE_CUDA;
  cr_assert_eq(ArrowDeviceArrayInit(&fake, &device_array, &array, NULL), ENOTSUP);
  cr_assert_not_null(array.release);
  ArrowArrayRelease(&array);
}

Test(device_cpu, device_array_move_inline) {
  struct ArrowArray array;
  struct ArrowDeviceArray a;
  struct ArrowDeviceArray b;
  MakeInt32Array(&array, 0, 2);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &a, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayMove(&a, &b);
  cr_assert_null(a.array.release);
  cr_assert_not_null(b.array.release);
  cr_assert_eq(b.device_type, ARROW_DEVICE_CPU);
  ArrowArrayRelease(&b.array);
}

Test(device_cpu, move_to_device_cpu_to_cpu) {
  struct ArrowArray array;
  struct ArrowDeviceArray src;
  struct ArrowDeviceArray dst;
  MakeInt32Array(&array, 10, 5);
  const void* data = array.buffers[1];
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &src, &array, NULL), NANOARROW_OK);

  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&src, ArrowDeviceCpu(), &dst), NANOARROW_OK);
  cr_assert_null(src.array.release, "a move leaves src released");
  cr_assert_not_null(dst.array.release);
  cr_assert_eq(dst.array.buffers[1], data, "CPU -> CPU moves without copying");
  cr_assert_eq(dst.device_type, ARROW_DEVICE_CPU);
  cr_assert_eq(dst.device_id, -1);
  cr_assert_eq(((const int32_t*)dst.array.buffers[1])[4], 14);

  /* src is released now: a second move is refused. */
  struct ArrowDeviceArray again;
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&src, ArrowDeviceCpu(), &again), EINVAL);
  ArrowArrayRelease(&dst.array);
}

Test(device_cpu, move_to_device_refuses_other_devices) {
  struct ArrowArray array;
  struct ArrowDeviceArray src;
  struct ArrowDeviceArray dst;
  MakeInt32Array(&array, 0, 1);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &src, &array, NULL), NANOARROW_OK);

  /* An array that claims to be on a GPU cannot be moved anywhere by this build. */
  src.device_type = ARROW_DEVICE_CUDA;
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&src, ArrowDeviceCpu(), &dst), ENOTSUP);
  cr_assert_not_null(src.array.release, "refused: src keeps its array");
  src.device_type = ARROW_DEVICE_CPU;
  src.device_id = 3;
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&src, ArrowDeviceCpu(), &dst), ENOTSUP);
  src.device_id = 0;

  /* Nor can a CPU array be moved to a device of another type. */
  struct ArrowDevice fake;
  ArrowDeviceInitCpu(&fake);
  fake.device_type = ARROW_DEVICE_METAL;
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&src, &fake, &dst), ENOTSUP);
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&src, NULL, &dst), EINVAL);
  cr_assert_not_null(src.array.release);
  ArrowArrayRelease(&src.array);
}

Test(device_cpu, buffer_init_copies) {
  const char bytes[] = "abcdefgh";
  struct ArrowBufferView src;
  struct ArrowBuffer dst;
  src.data.data = bytes;
  src.size_bytes = 8;
  cr_assert_eq(ArrowDeviceBufferInit(ArrowDeviceCpu(), src, ArrowDeviceCpu(), &dst),
               NANOARROW_OK);
  cr_assert_eq(dst.size_bytes, 8);
  cr_assert_neq((const void*)dst.data, (const void*)bytes, "init copies");
  cr_assert_eq(memcmp(dst.data, bytes, 8), 0);
  ArrowBufferReset(&dst);

  /* Empty source: an empty buffer. */
  src.data.data = NULL;
  src.size_bytes = 0;
  cr_assert_eq(ArrowDeviceBufferInitAsync(ArrowDeviceCpu(), src, ArrowDeviceCpu(), &dst, NULL),
               NANOARROW_OK);
  cr_assert_eq(dst.size_bytes, 0);
  ArrowBufferReset(&dst);
}

Test(device_cpu, buffer_init_refusals) {
  struct ArrowBufferView src;
  struct ArrowBuffer dst;
  int stream = 0;
  src.data.data = NULL;
  src.size_bytes = 4;
  cr_assert_eq(ArrowDeviceBufferInit(ArrowDeviceCpu(), src, ArrowDeviceCpu(), &dst), EINVAL,
               "4 bytes claimed at NULL");
  src.data.data = "abcd";
  src.size_bytes = -1;
  cr_assert_eq(ArrowDeviceBufferInit(ArrowDeviceCpu(), src, ArrowDeviceCpu(), &dst), EINVAL);
  src.size_bytes = 4;
  cr_assert_eq(ArrowDeviceBufferInit(ArrowDeviceCpu(), src, ArrowDeviceCpu(), NULL), EINVAL);
  cr_assert_eq(ArrowDeviceBufferInit(NULL, src, ArrowDeviceCpu(), &dst), EINVAL);
  cr_assert_eq(
      ArrowDeviceBufferInitAsync(ArrowDeviceCpu(), src, ArrowDeviceCpu(), &dst, &stream),
      EINVAL);

  struct ArrowDevice gpu;
  ArrowDeviceInitCpu(&gpu);
  gpu.device_type = ARROW_DEVICE_CUDA;
  cr_assert_eq(ArrowDeviceBufferInit(ArrowDeviceCpu(), src, &gpu, &dst), ENOTSUP);
  cr_assert_eq(ArrowDeviceBufferInit(&gpu, src, ArrowDeviceCpu(), &dst), ENOTSUP);
}

Test(device_cpu, buffer_move) {
  struct ArrowBuffer src;
  struct ArrowBuffer dst;
  ArrowBufferInit(&src);
  cr_assert_eq(ArrowBufferAppend(&src, "xyz", 3), NANOARROW_OK);
  uint8_t* data = src.data;

  cr_assert_eq(ArrowDeviceBufferMove(ArrowDeviceCpu(), &src, ArrowDeviceCpu(), &dst),
               NANOARROW_OK);
  cr_assert_eq(dst.data, data, "CPU -> CPU moves the allocation");
  cr_assert_eq(dst.size_bytes, 3);
  cr_assert_null(src.data, "src no longer owns the bytes");
  cr_assert_eq(src.size_bytes, 0);
  ArrowBufferReset(&src);
  ArrowBufferReset(&dst);

  struct ArrowDevice gpu;
  ArrowDeviceInitCpu(&gpu);
  gpu.device_type = ARROW_DEVICE_ROCM;
  ArrowBufferInit(&src);
  cr_assert_eq(ArrowBufferAppend(&src, "xyz", 3), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceBufferMove(ArrowDeviceCpu(), &src, &gpu, &dst), ENOTSUP);
  cr_assert_eq(src.size_bytes, 3, "refused: src keeps its bytes");
  cr_assert_eq(ArrowDeviceBufferMove(ArrowDeviceCpu(), NULL, ArrowDeviceCpu(), &dst), EINVAL);
  ArrowBufferReset(&src);
}

Test(device_cpu, buffer_copy) {
  const char bytes[] = "0123456789";
  char out[16];
  struct ArrowBufferView src;
  struct ArrowBufferView dst;
  memset(out, '.', sizeof(out));
  src.data.data = bytes;
  src.size_bytes = 10;
  dst.data.data = out;
  dst.size_bytes = 16;
  cr_assert_eq(ArrowDeviceBufferCopy(ArrowDeviceCpu(), src, ArrowDeviceCpu(), dst),
               NANOARROW_OK);
  cr_assert_eq(memcmp(out, bytes, 10), 0);
  cr_assert_eq(out[10], '.', "only src.size_bytes bytes are written");

  /* A destination smaller than the source is refused, not overrun. */
  dst.size_bytes = 9;
  memset(out, '.', sizeof(out));
  cr_assert_eq(ArrowDeviceBufferCopy(ArrowDeviceCpu(), src, ArrowDeviceCpu(), dst), EINVAL);
  cr_assert_eq(out[0], '.');
  dst.size_bytes = 16;
  dst.data.data = NULL;
  cr_assert_eq(ArrowDeviceBufferCopy(ArrowDeviceCpu(), src, ArrowDeviceCpu(), dst), EINVAL);
  dst.data.data = out;
  src.size_bytes = -3;
  cr_assert_eq(ArrowDeviceBufferCopy(ArrowDeviceCpu(), src, ArrowDeviceCpu(), dst), EINVAL);
  src.size_bytes = 10;
  int stream = 0;
  cr_assert_eq(
      ArrowDeviceBufferCopyAsync(ArrowDeviceCpu(), src, ArrowDeviceCpu(), dst, &stream),
      EINVAL);

  struct ArrowDevice gpu;
  ArrowDeviceInitCpu(&gpu);
  gpu.device_type = ARROW_DEVICE_OPENCL;
  cr_assert_eq(ArrowDeviceBufferCopy(ArrowDeviceCpu(), src, &gpu, dst), ENOTSUP);
}

Test(device_cpu, synchronize_event) {
  struct ArrowDevice* cpu = ArrowDeviceCpu();
  struct ArrowError error;
  int event = 0;
  cr_assert_eq(cpu->synchronize_event(cpu, NULL, NULL, &error), NANOARROW_OK,
               "nothing to wait for on the CPU");
  cr_assert_eq(cpu->synchronize_event(cpu, &event, NULL, &error), EINVAL);
  cr_assert(strstr(error.message, "sync_event") != NULL, "%s", error.message);
  cr_assert_eq(cpu->synchronize_event(cpu, NULL, &event, &error), EINVAL);
  cr_assert(strstr(error.message, "stream") != NULL, "%s", error.message);
}
