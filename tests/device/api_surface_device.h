/* The public names of nanoarrow's device header (nanoarrow_device.h) as code written
 * for nanoarrow 0.9.0 uses them; see tests/common/api_surface_core.h for the form and
 * tests/device/test_device_api_surface.c / tests/cpp/test_api_surface.cc for the
 * checks. ArrowDeviceArray and ArrowDeviceArrayStream are the Arrow C Device
 * interface's. */

#ifndef NANOARROW_TESTS_API_SURFACE_DEVICE_H_INCLUDED
#define NANOARROW_TESTS_API_SURFACE_DEVICE_H_INCLUDED

#include "nanoarrow/nanoarrow_device.h"

#define NA_API_DEVICE(X)                                                               \
  X(ArrowErrorCode, ArrowDeviceCheckRuntime, (struct ArrowError*))                     \
  X(struct ArrowDevice*, ArrowDeviceCpu, (void))                                       \
  X(void, ArrowDeviceInitCpu, (struct ArrowDevice*))                                   \
  X(struct ArrowDevice*, ArrowDeviceResolve, (ArrowDeviceType, int64_t))               \
  X(ArrowErrorCode, ArrowDeviceArrayInitAsync,                                         \
    (struct ArrowDevice*, struct ArrowDeviceArray*, struct ArrowArray*, void*, void*)) \
  X(ArrowErrorCode, ArrowDeviceArrayInit,                                              \
    (struct ArrowDevice*, struct ArrowDeviceArray*, struct ArrowArray*, void*))        \
  X(void, ArrowDeviceArrayMove, (struct ArrowDeviceArray*, struct ArrowDeviceArray*))  \
  X(ArrowErrorCode, ArrowDeviceBasicArrayStreamInit,                                   \
    (struct ArrowDeviceArrayStream*, struct ArrowArrayStream*, struct ArrowDevice*))   \
  X(void, ArrowDeviceArrayViewInit, (struct ArrowDeviceArrayView*))                    \
  X(void, ArrowDeviceArrayViewReset, (struct ArrowDeviceArrayView*))                   \
  X(ArrowErrorCode, ArrowDeviceArrayViewSetArrayMinimal,                               \
    (struct ArrowDeviceArrayView*, struct ArrowDeviceArray*, struct ArrowError*))      \
  X(ArrowErrorCode, ArrowDeviceArrayViewSetArrayAsync,                                 \
    (struct ArrowDeviceArrayView*, struct ArrowDeviceArray*, void*, struct ArrowError*)) \
  X(ArrowErrorCode, ArrowDeviceArrayViewSetArray,                                      \
    (struct ArrowDeviceArrayView*, struct ArrowDeviceArray*, struct ArrowError*))      \
  X(ArrowErrorCode, ArrowDeviceArrayViewCopyAsync,                                     \
    (struct ArrowDeviceArrayView*, struct ArrowDevice*, struct ArrowDeviceArray*, void*)) \
  X(ArrowErrorCode, ArrowDeviceArrayViewCopy,                                          \
    (struct ArrowDeviceArrayView*, struct ArrowDevice*, struct ArrowDeviceArray*))     \
  X(ArrowErrorCode, ArrowDeviceArrayMoveToDevice,                                      \
    (struct ArrowDeviceArray*, struct ArrowDevice*, struct ArrowDeviceArray*))         \
  X(ArrowErrorCode, ArrowDeviceBufferInitAsync,                                        \
    (struct ArrowDevice*, struct ArrowBufferView, struct ArrowDevice*, struct ArrowBuffer*, \
     void*))                                                                           \
  X(ArrowErrorCode, ArrowDeviceBufferInit,                                             \
    (struct ArrowDevice*, struct ArrowBufferView, struct ArrowDevice*, struct ArrowBuffer*)) \
  X(ArrowErrorCode, ArrowDeviceBufferMove,                                             \
    (struct ArrowDevice*, struct ArrowBuffer*, struct ArrowDevice*, struct ArrowBuffer*)) \
  X(ArrowErrorCode, ArrowDeviceBufferCopyAsync,                                        \
    (struct ArrowDevice*, struct ArrowBufferView, struct ArrowDevice*,                 \
     struct ArrowBufferView, void*))                                                   \
  X(ArrowErrorCode, ArrowDeviceBufferCopy,                                             \
    (struct ArrowDevice*, struct ArrowBufferView, struct ArrowDevice*,                 \
     struct ArrowBufferView))

#define NA_ENUM_DEVICE(X)                                                              \
  X(ARROW_DEVICE_CPU, 1) X(ARROW_DEVICE_CUDA, 2) X(ARROW_DEVICE_CUDA_HOST, 3)          \
  X(ARROW_DEVICE_OPENCL, 4) X(ARROW_DEVICE_VULKAN, 7) X(ARROW_DEVICE_METAL, 8)         \
  X(ARROW_DEVICE_VPI, 9) X(ARROW_DEVICE_ROCM, 10) X(ARROW_DEVICE_ROCM_HOST, 11)        \
  X(ARROW_DEVICE_EXT_DEV, 12) X(ARROW_DEVICE_CUDA_MANAGED, 13) X(ARROW_DEVICE_ONEAPI, 14) \
  X(ARROW_DEVICE_WEBGPU, 15) X(ARROW_DEVICE_HEXAGON, 16)

#define NA_MEMBER_DEVICE(X)                                                            \
  X(ArrowDeviceArray, array, struct ArrowArray) X(ArrowDeviceArray, device_id, int64_t) \
  X(ArrowDeviceArray, device_type, ArrowDeviceType)                                    \
  X(ArrowDeviceArray, sync_event, void*) X(ArrowDeviceArray, reserved, int64_t[3])     \
  X(ArrowDeviceArrayStream, device_type, ArrowDeviceType)                              \
  X(ArrowDeviceArrayStream, get_schema,                                                \
    int (*)(struct ArrowDeviceArrayStream*, struct ArrowSchema*))                      \
  X(ArrowDeviceArrayStream, get_next,                                                  \
    int (*)(struct ArrowDeviceArrayStream*, struct ArrowDeviceArray*))                 \
  X(ArrowDeviceArrayStream, get_last_error, const char* (*)(struct ArrowDeviceArrayStream*)) \
  X(ArrowDeviceArrayStream, release, void (*)(struct ArrowDeviceArrayStream*))         \
  X(ArrowDeviceArrayStream, private_data, void*)                                       \
  X(ArrowDeviceArrayView, device, struct ArrowDevice*)                                 \
  X(ArrowDeviceArrayView, array_view, struct ArrowArrayView)                           \
  X(ArrowDevice, device_type, ArrowDeviceType) X(ArrowDevice, device_id, int64_t)

#if !defined(ARROW_C_DEVICE_DATA_INTERFACE) || !defined(ARROW_C_DEVICE_STREAM_INTERFACE)
#error "a macro of nanoarrow_device.h is missing"
#endif

#endif
