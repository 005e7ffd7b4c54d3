/* Internal helpers shared by the device sources in src/device (not installed). All
 * static inline, so the library exports nothing beyond the documented API. */

#ifndef NANOARROW_DEVICE_PRIVATE_H_INCLUDED
#define NANOARROW_DEVICE_PRIVATE_H_INCLUDED

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

/* A name for error messages; device types come from other producers, so any int32
 * may show up here. */
static inline const char* ArrowDevicePrivateTypeName(ArrowDeviceType device_type) {
  switch (device_type) {
    case ARROW_DEVICE_CPU:
      return "CPU";
    case ARROW_DEVICE_CUDA:
      return "CUDA";
    case ARROW_DEVICE_CUDA_HOST:
      return "CUDA_HOST";
    case ARROW_DEVICE_OPENCL:
      return "OPENCL";
    case ARROW_DEVICE_VULKAN:
      return "VULKAN";
    case ARROW_DEVICE_METAL:
      return "METAL";
    case ARROW_DEVICE_VPI:
      return "VPI";
    case ARROW_DEVICE_ROCM:
      return "ROCM";
    case ARROW_DEVICE_ROCM_HOST:
      return "ROCM_HOST";
    case ARROW_DEVICE_EXT_DEV:
      return "EXT_DEV";
    case ARROW_DEVICE_CUDA_MANAGED:
      return "CUDA_MANAGED";
    case ARROW_DEVICE_ONEAPI:
      return "ONEAPI";
    case ARROW_DEVICE_WEBGPU:
      return "WEBGPU";
    case ARROW_DEVICE_HEXAGON:
      return "HEXAGON";
    default:
      return "unknown";
  }
}

/* A device that can be called: not NULL and not released. */
static inline int ArrowDevicePrivateIsLive(const struct ArrowDevice* device) {
  return device != NULL && device->release != NULL;
}

/* The two functions below are shared between files, so exported: they carry the
 * namespace like the public ones. */
#if defined(NANOARROW_NAMESPACE)
#define ArrowDevicePrivateCudaUnavailable NANOARROW_SYMBOL(ArrowDevicePrivateCudaUnavailable)
#define ArrowDevicePrivateHaveCuda NANOARROW_SYMBOL(ArrowDevicePrivateHaveCuda)
#endif

/* Whether device_type is one of the CUDA family (device, pinned host, managed). */
static inline int ArrowDevicePrivateIsCudaType(ArrowDeviceType device_type) {
  return device_type == ARROW_DEVICE_CUDA || device_type == ARROW_DEVICE_CUDA_HOST ||
         device_type == ARROW_DEVICE_CUDA_MANAGED;
}

/* Writes into out why ArrowDeviceCuda() returns NULL for (device_type, device_id): a
 * sentence for error messages (device_cuda.c; says so when this build has no CUDA). */
void ArrowDevicePrivateCudaUnavailable(ArrowDeviceType device_type, int64_t device_id,
                                       char* out, size_t out_size);

/* Whether the CUDA device was compiled in (NANOARROW_DEVICE_WITH_CUDA). */
int ArrowDevicePrivateHaveCuda(void);

/* ENOTSUP with a message naming the device this build cannot serve and why. */
static inline ArrowErrorCode ArrowDevicePrivateUnsupported(ArrowDeviceType type,
                                                           int64_t device_id,
                                                           struct ArrowError* error) {
  if (ArrowDevicePrivateIsCudaType(type) && ArrowDevicePrivateHaveCuda()) {
    char reason[384];
    ArrowDevicePrivateCudaUnavailable(type, device_id, reason, sizeof(reason));
    ArrowErrorSet(error,
                  "device type %d (%s) with device_id %" PRId64 " is not available: %s",
                  (int)type, ArrowDevicePrivateTypeName(type), device_id, reason);
  } else {
    ArrowErrorSet(error,
                  "device type %d (%s) with device_id %" PRId64
                  " is not supported: this build of nanoarrow_device has the %s "
                  "only, and no device was registered for it (ArrowDeviceRegister())",
                  (int)type, ArrowDevicePrivateTypeName(type), device_id,
                  ArrowDevicePrivateHaveCuda() ? "CPU and CUDA devices" : "CPU device");
  }
  return ENOTSUP;
}

#endif /* NANOARROW_DEVICE_PRIVATE_H_INCLUDED */
