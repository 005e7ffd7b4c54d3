/* Device-independent entry points: resolve devices and hand each operation to the
 * device callbacks (the destination's first, then the source's). */

#include <errno.h>
#include <inttypes.h>
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

/* Devices registered with ArrowDeviceRegister(): a small fixed table, since a process
 * has a handful of devices at most. */
#define NANOARROW_DEVICE_MAX_REGISTERED 16
static struct ArrowDevice* kArrowDeviceRegistered[NANOARROW_DEVICE_MAX_REGISTERED];

static struct ArrowDevice* ArrowDeviceFindRegistered(ArrowDeviceType device_type,
                                                     int64_t device_id) {
  int i;
  for (i = 0; i < NANOARROW_DEVICE_MAX_REGISTERED; i++) {
    struct ArrowDevice* device = kArrowDeviceRegistered[i];
    if (device != NULL && device->device_type == device_type &&
        device->device_id == device_id) {
      return device;
    }
  }
  return NULL;
}

ArrowErrorCode ArrowDeviceRegister(struct ArrowDevice* device, struct ArrowError* error) {
  int i;
  int free_slot = -1;
  if (!ArrowDevicePrivateIsLive(device)) {
    ArrowErrorSet(error, "cannot register a NULL or released device");
    return EINVAL;
  }
  if (device->device_type == ARROW_DEVICE_CPU ||
      (ArrowDevicePrivateHaveCuda() && ArrowDevicePrivateIsCudaType(device->device_type))) {
    ArrowErrorSet(error,
                  "cannot register a device of type %d (%s): this build provides that "
                  "device type itself",
                  (int)device->device_type,
                  ArrowDevicePrivateTypeName(device->device_type));
    return EINVAL;
  }
  if (device->synchronize_event == NULL) {
    ArrowErrorSet(error, "cannot register a device without a synchronize_event callback");
    return EINVAL;
  }
  if (ArrowDeviceFindRegistered(device->device_type, device->device_id) != NULL) {
    ArrowErrorSet(error,
                  "a device of type %d (%s) with device_id %" PRId64
                  " is registered already",
                  (int)device->device_type,
                  ArrowDevicePrivateTypeName(device->device_type), device->device_id);
    return EEXIST;
  }
  for (i = 0; i < NANOARROW_DEVICE_MAX_REGISTERED; i++) {
    if (kArrowDeviceRegistered[i] == NULL) {
      free_slot = i;
      break;
    }
  }
  if (free_slot < 0) {
    ArrowErrorSet(error, "cannot register more than %d devices",
                  NANOARROW_DEVICE_MAX_REGISTERED);
    return ENOMEM;
  }
  kArrowDeviceRegistered[free_slot] = device;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowDeviceUnregister(struct ArrowDevice* device) {
  int i;
  for (i = 0; i < NANOARROW_DEVICE_MAX_REGISTERED; i++) {
    if (device != NULL && kArrowDeviceRegistered[i] == device) {
      kArrowDeviceRegistered[i] = NULL;
      return NANOARROW_OK;
    }
  }
  return ENOENT;
}

struct ArrowDevice* ArrowDeviceResolve(ArrowDeviceType device_type, int64_t device_id) {
  /* -1 is the CPU's id (what the Arrow format recommends for devices without ids, and
   * what Arrow C++ exports); 0 is accepted from producers that follow DLPack. */
  if (device_type == ARROW_DEVICE_CPU) {
    return (device_id == -1 || device_id == 0) ? ArrowDeviceCpu() : NULL;
  }
  if (ArrowDevicePrivateHaveCuda() && ArrowDevicePrivateIsCudaType(device_type)) {
    return ArrowDeviceCuda(device_type, device_id);
  }
  return ArrowDeviceFindRegistered(device_type, device_id);
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
