/* Device-independent entry points: resolve devices and hand each operation to the
 * device callbacks (the destination's first, then the source's). */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "device/device_private.h"

ArrowErrorCode ArrowDeviceCheckRuntime(struct ArrowError* error) {
  const char* runtime = ArrowNanoarrowVersion();
  if (strcmp(runtime, NANOARROW_VERSION) != 0) {
    ArrowErrorSet(error,
                  "nanoarrow_device was built against nanoarrow %s but runs with "
                  "nanoarrow %s",
                  NANOARROW_VERSION, runtime);
    return EINVAL;
  }
  return NANOARROW_OK;
}

struct ArrowDevice* ArrowDeviceResolve(ArrowDeviceType device_type, int64_t device_id) {
  /* -1 is the CPU's id (what the Arrow format recommends for devices without ids, and
   * what Arrow C++ exports); 0 is accepted from producers that follow DLPack. */
  if (device_type == ARROW_DEVICE_CPU && (device_id == -1 || device_id == 0)) {
    return ArrowDeviceCpu();
  }
  return NULL;
}

ArrowErrorCode ArrowDeviceArrayInitAsync(struct ArrowDevice* device,
                                         struct ArrowDeviceArray* device_array,
                                         struct ArrowArray* array, void* sync_event,
                                         void* stream) {
  if (!ArrowDevicePrivateIsLive(device) || device->array_init == NULL) {
    return EINVAL;
  }
  return device->array_init(device, device_array, array, sync_event, stream);
}

ArrowErrorCode ArrowDeviceArrayMoveToDevice(struct ArrowDeviceArray* src,
                                            struct ArrowDevice* device_dst,
                                            struct ArrowDeviceArray* dst) {
  struct ArrowDevice* device_src;
  int rc = ENOTSUP;

  if (src == NULL || dst == NULL || src->array.release == NULL ||
      !ArrowDevicePrivateIsLive(device_dst)) {
    return EINVAL;
  }
  device_src = ArrowDeviceResolve(src->device_type, src->device_id);
  if (device_src == NULL) {
    return ENOTSUP;
  }
  if (device_dst->array_move != NULL) {
    rc = device_dst->array_move(device_src, src, device_dst, dst);
  }
  if (rc == ENOTSUP && device_src != device_dst && device_src->array_move != NULL) {
    rc = device_src->array_move(device_src, src, device_dst, dst);
  }
  return rc;
}

/* Both ends callable, or EINVAL. */
static int ArrowDeviceBothLive(const struct ArrowDevice* device_src,
                               const struct ArrowDevice* device_dst) {
  return ArrowDevicePrivateIsLive(device_src) && ArrowDevicePrivateIsLive(device_dst);
}

ArrowErrorCode ArrowDeviceBufferInitAsync(struct ArrowDevice* device_src,
                                          struct ArrowBufferView src,
                                          struct ArrowDevice* device_dst,
                                          struct ArrowBuffer* dst, void* stream) {
  int rc = ENOTSUP;
  if (!ArrowDeviceBothLive(device_src, device_dst) || dst == NULL) {
    return EINVAL;
  }
  if (device_dst->buffer_init != NULL) {
    rc = device_dst->buffer_init(device_src, src, device_dst, dst, stream);
  }
  if (rc == ENOTSUP && device_src != device_dst && device_src->buffer_init != NULL) {
    rc = device_src->buffer_init(device_src, src, device_dst, dst, stream);
  }
  return rc;
}

ArrowErrorCode ArrowDeviceBufferMove(struct ArrowDevice* device_src, struct ArrowBuffer* src,
                                     struct ArrowDevice* device_dst,
                                     struct ArrowBuffer* dst) {
  int rc = ENOTSUP;
  if (!ArrowDeviceBothLive(device_src, device_dst) || src == NULL || dst == NULL) {
    return EINVAL;
  }
  if (device_dst->buffer_move != NULL) {
    rc = device_dst->buffer_move(device_src, src, device_dst, dst);
  }
  if (rc == ENOTSUP && device_src != device_dst && device_src->buffer_move != NULL) {
    rc = device_src->buffer_move(device_src, src, device_dst, dst);
  }
  return rc;
}

ArrowErrorCode ArrowDeviceBufferCopyAsync(struct ArrowDevice* device_src,
                                          struct ArrowBufferView src,
                                          struct ArrowDevice* device_dst,
                                          struct ArrowBufferView dst, void* stream) {
  int rc = ENOTSUP;
  if (!ArrowDeviceBothLive(device_src, device_dst)) {
    return EINVAL;
  }
  if (device_dst->buffer_copy != NULL) {
    rc = device_dst->buffer_copy(device_src, src, device_dst, dst, stream);
  }
  if (rc == ENOTSUP && device_src != device_dst && device_src->buffer_copy != NULL) {
    rc = device_src->buffer_copy(device_src, src, device_dst, dst, stream);
  }
  return rc;
}
