/* Device-independent entry points: resolve devices and hand each operation to the
 * device callbacks (the destination's first, then the source's). */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "device/device_private.h"

/* Sets RC to what the destination device's CALLBACK(...) returns or, when it answers
 * ENOTSUP (it cannot serve this pair of devices), to the source device's answer. */
#define NANOARROW_DEVICE_DISPATCH(RC, DEVICE_SRC, DEVICE_DST, CALLBACK, ...)      \
  do {                                                                           \
    (RC) = ENOTSUP;                                                              \
    if ((DEVICE_DST)->CALLBACK != NULL) {                                        \
      (RC) = (DEVICE_DST)->CALLBACK(__VA_ARGS__);                                \
    }                                                                            \
    if ((RC) == ENOTSUP && (DEVICE_SRC) != (DEVICE_DST) &&                       \
        (DEVICE_SRC)->CALLBACK != NULL) {                                        \
      (RC) = (DEVICE_SRC)->CALLBACK(__VA_ARGS__);                                \
    }                                                                            \
  } while (0)

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
  int rc;

  if (src == NULL || dst == NULL || src->array.release == NULL ||
      !ArrowDevicePrivateIsLive(device_dst)) {
    return EINVAL;
  }
  device_src = ArrowDeviceResolve(src->device_type, src->device_id);
  if (device_src == NULL) {
    return ENOTSUP;
  }
  NANOARROW_DEVICE_DISPATCH(rc, device_src, device_dst, array_move, device_src, src,
                            device_dst, dst);
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
  int rc;
  if (!ArrowDeviceBothLive(device_src, device_dst) || dst == NULL) {
    return EINVAL;
  }
  NANOARROW_DEVICE_DISPATCH(rc, device_src, device_dst, buffer_init, device_src, src,
                            device_dst, dst, stream);
  return rc;
}

ArrowErrorCode ArrowDeviceBufferMove(struct ArrowDevice* device_src, struct ArrowBuffer* src,
                                     struct ArrowDevice* device_dst,
                                     struct ArrowBuffer* dst) {
  int rc;
  if (!ArrowDeviceBothLive(device_src, device_dst) || src == NULL || dst == NULL) {
    return EINVAL;
  }
  NANOARROW_DEVICE_DISPATCH(rc, device_src, device_dst, buffer_move, device_src, src,
                            device_dst, dst);
  return rc;
}

ArrowErrorCode ArrowDeviceBufferCopyAsync(struct ArrowDevice* device_src,
                                          struct ArrowBufferView src,
                                          struct ArrowDevice* device_dst,
                                          struct ArrowBufferView dst, void* stream) {
  int rc;
  if (!ArrowDeviceBothLive(device_src, device_dst)) {
    return EINVAL;
  }
  NANOARROW_DEVICE_DISPATCH(rc, device_src, device_dst, buffer_copy, device_src, src,
                            device_dst, dst, stream);
  return rc;
}
