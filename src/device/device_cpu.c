/* The CPU device: buffers in ordinary host memory, so copies are memcpy, moves hand
 * over ownership, and there is nothing to synchronize. */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "device/device_private.h"

static int ArrowDeviceCpuBoth(const struct ArrowDevice* device_src,
                              const struct ArrowDevice* device_dst) {
  return device_src != NULL && device_dst != NULL &&
         device_src->device_type == ARROW_DEVICE_CPU &&
         device_dst->device_type == ARROW_DEVICE_CPU;
}

static ArrowErrorCode ArrowDeviceCpuArrayInit(struct ArrowDevice* device,
                                              struct ArrowDeviceArray* device_array,
                                              struct ArrowArray* array, void* sync_event,
                                              void* stream) {
  if (device == NULL || device->device_type != ARROW_DEVICE_CPU) {
    return ENOTSUP;
  }
  if (device_array == NULL || array == NULL || array->release == NULL) {
    return EINVAL;
  }
  /* Host memory needs no event; a non-NULL one belongs to another device. */
  if (sync_event != NULL || stream != NULL) {
    return EINVAL;
  }
  memset(device_array, 0, sizeof(struct ArrowDeviceArray));
  ArrowArrayMove(array, &device_array->array);
  device_array->device_type = device->device_type;
  device_array->device_id = device->device_id;
  device_array->sync_event = NULL;
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowDeviceCpuArrayMove(struct ArrowDevice* device_src,
                                              struct ArrowDeviceArray* src,
                                              struct ArrowDevice* device_dst,
                                              struct ArrowDeviceArray* dst) {
  if (!ArrowDeviceCpuBoth(device_src, device_dst)) {
    return ENOTSUP;
  }
  if (src == NULL || dst == NULL || src->array.release == NULL) {
    return EINVAL;
  }
  ArrowDeviceArrayMove(src, dst);
  dst->device_type = device_dst->device_type;
  dst->device_id = device_dst->device_id;
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowDeviceCpuBufferInit(struct ArrowDevice* device_src,
                                               struct ArrowBufferView src,
                                               struct ArrowDevice* device_dst,
                                               struct ArrowBuffer* dst, void* stream) {
  if (!ArrowDeviceCpuBoth(device_src, device_dst)) {
    return ENOTSUP;
  }
  if (dst == NULL || stream != NULL || src.size_bytes < 0 ||
      (src.size_bytes > 0 && src.data.data == NULL)) {
    return EINVAL;
  }
  ArrowBufferInit(dst);
  if (ArrowBufferAppend(dst, src.data.data, src.size_bytes) != NANOARROW_OK) {
    ArrowBufferReset(dst);
    return ENOMEM;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowDeviceCpuBufferMove(struct ArrowDevice* device_src,
                                               struct ArrowBuffer* src,
                                               struct ArrowDevice* device_dst,
                                               struct ArrowBuffer* dst) {
  if (!ArrowDeviceCpuBoth(device_src, device_dst)) {
    return ENOTSUP;
  }
  if (src == NULL || dst == NULL) {
    return EINVAL;
  }
  ArrowBufferMove(src, dst);
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowDeviceCpuBufferCopy(struct ArrowDevice* device_src,
                                               struct ArrowBufferView src,
                                               struct ArrowDevice* device_dst,
                                               struct ArrowBufferView dst, void* stream) {
  if (!ArrowDeviceCpuBoth(device_src, device_dst)) {
    return ENOTSUP;
  }
  if (stream != NULL || src.size_bytes < 0 || dst.size_bytes < src.size_bytes) {
    return EINVAL;
  }
  if (src.size_bytes == 0) {
    return NANOARROW_OK;
  }
  if (src.data.data == NULL || dst.data.data == NULL) {
    return EINVAL;
  }
  /* memmove: nothing stops a caller from passing overlapping views. */
  memmove((void*)dst.data.data, src.data.data, (size_t)src.size_bytes);
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowDeviceCpuSynchronize(struct ArrowDevice* device,
                                                void* sync_event, void* stream,
                                                struct ArrowError* error) {
  if (device == NULL || device->device_type != ARROW_DEVICE_CPU) {
    ArrowErrorSet(error, "the CPU device cannot synchronize another device's events");
    return ENOTSUP;
  }
  if (sync_event != NULL) {
    ArrowErrorSet(error,
                  "a CPU device array must have a NULL sync_event (the CPU device has "
                  "no events to wait on)");
    return EINVAL;
  }
  if (stream != NULL) {
    ArrowErrorSet(error, "the CPU device has no streams: stream must be NULL");
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* Devices made by ArrowDeviceInitCpu() own nothing: releasing just marks them. */
static void ArrowDeviceCpuRelease(struct ArrowDevice* device) { device->release = NULL; }

/* The singleton must survive a caller releasing it by mistake. */
static void ArrowDeviceCpuReleaseSingleton(struct ArrowDevice* device) { (void)device; }

static struct ArrowDevice kArrowDeviceCpu = {
    ARROW_DEVICE_CPU,          -1,
    ArrowDeviceCpuArrayInit,   ArrowDeviceCpuArrayMove,
    ArrowDeviceCpuBufferInit,  ArrowDeviceCpuBufferMove,
    ArrowDeviceCpuBufferCopy,  ArrowDeviceCpuSynchronize,
    ArrowDeviceCpuReleaseSingleton, NULL};

struct ArrowDevice* ArrowDeviceCpu(void) { return &kArrowDeviceCpu; }

void ArrowDeviceInitCpu(struct ArrowDevice* device) {
  if (device == NULL) {
    return;
  }
  *device = kArrowDeviceCpu;
  device->release = ArrowDeviceCpuRelease;
}
