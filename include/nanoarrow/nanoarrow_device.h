// nanoarrow in C: the device extension (Arrow C Device Data Interface).
//
// Declares the C Device Data and Device Stream structures of the Arrow format and
// nanoarrow's device API on top of them. Devices: the CPU (always); CUDA device,
// pinned-host and managed memory when built with NANOARROW_DEVICE_WITH_CUDA (the
// driver, libcuda.so.1, is loaded at run time, so one binary runs everywhere); and any
// device a caller registers with ArrowDeviceRegister(). Arrays of any other device are
// refused (ENOTSUP, with a message) instead of being read.
//
// The generic functions (views, copies) never read a non-CPU device's memory
// directly: every byte goes through the device's buffer_copy / buffer_init callbacks.
//
// Except where noted, objects are not thread-safe; callers serialize accesses.

#ifndef NANOARROW_DEVICE_H_INCLUDED
#define NANOARROW_DEVICE_H_INCLUDED

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#if defined(NANOARROW_NAMESPACE)
#define ArrowDeviceCheckRuntime NANOARROW_SYMBOL(ArrowDeviceCheckRuntime)
#define ArrowDeviceCpu NANOARROW_SYMBOL(ArrowDeviceCpu)
#define ArrowDeviceInitCpu NANOARROW_SYMBOL(ArrowDeviceInitCpu)
#define ArrowDeviceResolve NANOARROW_SYMBOL(ArrowDeviceResolve)
#define ArrowDeviceArrayInitAsync NANOARROW_SYMBOL(ArrowDeviceArrayInitAsync)
#define ArrowDeviceBasicArrayStreamInit NANOARROW_SYMBOL(ArrowDeviceBasicArrayStreamInit)
#define ArrowDeviceArrayViewInit NANOARROW_SYMBOL(ArrowDeviceArrayViewInit)
#define ArrowDeviceArrayViewReset NANOARROW_SYMBOL(ArrowDeviceArrayViewReset)
#define ArrowDeviceArrayViewSetArrayMinimal \
  NANOARROW_SYMBOL(ArrowDeviceArrayViewSetArrayMinimal)
#define ArrowDeviceArrayViewSetArrayAsync NANOARROW_SYMBOL(ArrowDeviceArrayViewSetArrayAsync)
#define ArrowDeviceArrayViewCopyAsync NANOARROW_SYMBOL(ArrowDeviceArrayViewCopyAsync)
#define ArrowDeviceArrayMoveToDevice NANOARROW_SYMBOL(ArrowDeviceArrayMoveToDevice)
#define ArrowDeviceBufferInitAsync NANOARROW_SYMBOL(ArrowDeviceBufferInitAsync)
#define ArrowDeviceBufferMove NANOARROW_SYMBOL(ArrowDeviceBufferMove)
#define ArrowDeviceBufferCopyAsync NANOARROW_SYMBOL(ArrowDeviceBufferCopyAsync)
#define ArrowDeviceRegister NANOARROW_SYMBOL(ArrowDeviceRegister)
#define ArrowDeviceUnregister NANOARROW_SYMBOL(ArrowDeviceUnregister)
#define ArrowDeviceCuda NANOARROW_SYMBOL(ArrowDeviceCuda)
#endif

#ifdef __cplusplus
extern "C" {
#endif

// ========================================================================
// Arrow C Device Data / Device Stream Interface
// ========================================================================

// The guards let these definitions coexist with another header that defines the
// same ABI (Arrow C++'s abi.h, another copy of nanoarrow).
#ifndef ARROW_C_DEVICE_DATA_INTERFACE
#define ARROW_C_DEVICE_DATA_INTERFACE

// Where an array's buffers live. Macros rather than an enum so that the storage
// type is fixed; the values are DLPack's DLDeviceType values.
typedef int32_t ArrowDeviceType;

#define ARROW_DEVICE_CPU 1
#define ARROW_DEVICE_CUDA 2
#define ARROW_DEVICE_CUDA_HOST 3
#define ARROW_DEVICE_OPENCL 4
#define ARROW_DEVICE_VULKAN 7
#define ARROW_DEVICE_METAL 8
#define ARROW_DEVICE_VPI 9
#define ARROW_DEVICE_ROCM 10
#define ARROW_DEVICE_ROCM_HOST 11
#define ARROW_DEVICE_EXT_DEV 12
#define ARROW_DEVICE_CUDA_MANAGED 13
#define ARROW_DEVICE_ONEAPI 14
#define ARROW_DEVICE_WEBGPU 15
#define ARROW_DEVICE_HEXAGON 16

// An ArrowArray whose buffers live on device (device_type, device_id). sync_event,
// when not NULL, is the device's event the consumer waits on before reading.
struct ArrowDeviceArray {
  struct ArrowArray array;
  int64_t device_id;
  ArrowDeviceType device_type;
  void* sync_event;
  // Must be zero: room for later additions to the format.
  int64_t reserved[3];
};

#endif  // ARROW_C_DEVICE_DATA_INTERFACE

#ifndef ARROW_C_DEVICE_STREAM_INTERFACE
#define ARROW_C_DEVICE_STREAM_INTERFACE

// ArrowArrayStream's counterpart: every array it yields is on device_type.
struct ArrowDeviceArrayStream {
  ArrowDeviceType device_type;
  int (*get_schema)(struct ArrowDeviceArrayStream* self, struct ArrowSchema* out);
  // A released out (out->array.release == NULL) marks the end of the stream.
  int (*get_next)(struct ArrowDeviceArrayStream* self, struct ArrowDeviceArray* out);
  const char* (*get_last_error)(struct ArrowDeviceArrayStream* self);
  void (*release)(struct ArrowDeviceArrayStream* self);
  void* private_data;
};

#endif  // ARROW_C_DEVICE_STREAM_INTERFACE

// Moves src into dst (which must not own anything); src is left released.
static inline void ArrowDeviceArrayMove(struct ArrowDeviceArray* src,
                                        struct ArrowDeviceArray* dst) {
  memcpy(dst, src, sizeof(struct ArrowDeviceArray));
  src->array.release = NULL;
}

// ========================================================================
// Devices
// ========================================================================

// EINVAL when the core library this extension runs against is another version than
// the one it was compiled with.
NANOARROW_DLL ArrowErrorCode ArrowDeviceCheckRuntime(struct ArrowError* error);

// An ArrowArrayView together with the device its buffers are on.
struct ArrowDeviceArrayView {
  struct ArrowDevice* device;
  struct ArrowArrayView array_view;
  // The event of the device array the view was last set from (not owned).
  void* sync_event;
};

// A device and the callbacks that move memory to, from and within it. Each callback
// given a (device_src, device_dst) pair it cannot serve returns ENOTSUP, so that the
// caller can ask the other device. release == NULL marks a released device.
struct ArrowDevice {
  ArrowDeviceType device_type;
  int64_t device_id;

  // Wraps array (whose buffers are on this device) as device_array. On NANOARROW_OK
  // device_array owns array and sync_event; stream, when not NULL, is the queue the
  // event must capture, and stays the caller's.
  ArrowErrorCode (*array_init)(struct ArrowDevice* device,
                               struct ArrowDeviceArray* device_array,
                               struct ArrowArray* array, void* sync_event, void* stream);

  // Moves src to device_dst without copying buffers, when the devices allow it.
  ArrowErrorCode (*array_move)(struct ArrowDevice* device_src, struct ArrowDeviceArray* src,
                               struct ArrowDevice* device_dst, struct ArrowDeviceArray* dst);

  // Initializes dst, an owning buffer on device_dst, with a copy of src.
  ArrowErrorCode (*buffer_init)(struct ArrowDevice* device_src, struct ArrowBufferView src,
                                struct ArrowDevice* device_dst, struct ArrowBuffer* dst,
                                void* stream);

  // Moves the owning buffer src to device_dst without copying; on NANOARROW_OK src
  // no longer owns anything and the caller must reset dst.
  ArrowErrorCode (*buffer_move)(struct ArrowDevice* device_src, struct ArrowBuffer* src,
                                struct ArrowDevice* device_dst, struct ArrowBuffer* dst);

  // Copies src.size_bytes bytes into the memory dst points to (small copies).
  ArrowErrorCode (*buffer_copy)(struct ArrowDevice* device_src, struct ArrowBufferView src,
                                struct ArrowDevice* device_dst, struct ArrowBufferView dst,
                                void* stream);

  // sync_event and stream: stream waits on the event. sync_event only: the CPU waits
  // on the event. stream only: the CPU waits for the stream.
  ArrowErrorCode (*synchronize_event)(struct ArrowDevice* device, void* sync_event,
                                      void* stream, struct ArrowError* error);

  void (*release)(struct ArrowDevice* device);
  void* private_data;
};

// The CPU device (type ARROW_DEVICE_CPU, id -1, the id the Arrow format recommends
// for a device type without ids): a static singleton, never to be released (its
// release callback does nothing).
NANOARROW_DLL struct ArrowDevice* ArrowDeviceCpu(void);

// Initializes a caller-allocated device as the CPU device.
NANOARROW_DLL void ArrowDeviceInitCpu(struct ArrowDevice* device);

// The singleton for (device_type, device_id), or NULL when this build has none: the
// CPU with id -1 or 0 (DLPack's id for host memory); ArrowDeviceCuda(device_type,
// device_id) for the CUDA types; otherwise a device registered with
// ArrowDeviceRegister(). Callers must not release the result.
NANOARROW_DLL struct ArrowDevice* ArrowDeviceResolve(ArrowDeviceType device_type, int64_t device_id);

// Extension point of this implementation (nanoarrow has none): makes
// ArrowDeviceResolve(device->device_type, device->device_id) return device, so that
// arrays on a device written outside this library can be viewed, copied and moved by
// the generic functions below. device (not copied) must stay valid and unreleased
// until ArrowDeviceUnregister(device). The CPU type, and the CUDA types in a CUDA
// build, cannot be registered (EINVAL); a (type, id) pair registered already is EEXIST;
// at most 16 devices (ENOMEM). Not thread-safe: register and unregister while no other
// thread uses the device extension.
NANOARROW_DLL ArrowErrorCode ArrowDeviceRegister(struct ArrowDevice* device, struct ArrowError* error);

// Forgets a device registered with ArrowDeviceRegister(); ENOENT if it was not.
NANOARROW_DLL ArrowErrorCode ArrowDeviceUnregister(struct ArrowDevice* device);

// ========================================================================
// CUDA
// ========================================================================

// The CUDA device singleton for (device_type, device_id): ARROW_DEVICE_CUDA (device
// memory), ARROW_DEVICE_CUDA_HOST (pinned host memory) or ARROW_DEVICE_CUDA_MANAGED
// (managed memory), device_id between 0 and the number of devices - 1. NULL when this
// build has no CUDA (NANOARROW_DEVICE_WITH_CUDA off), when libcuda.so.1 cannot be
// loaded or initialized, or when there is no such device; the functions that resolve
// devices then fail with ENOTSUP and a message saying which. Callers must not release
// the result.
//
// For these devices sync_event is a CUevent* and stream a CUstream* (pointers to the
// driver API handles). Device arrays made by array_init own their event: it stays
// valid until the array is released, and is destroyed after the array's buffers.
// Buffers are copied with cuMemcpy / cuMemcpyAsync (unified addressing), between
// any two of CPU, CUDA, CUDA_HOST and CUDA_MANAGED memory; array_move moves an array
// within one device, and CUDA_HOST or CUDA_MANAGED arrays to the CPU (after waiting
// on their event).
NANOARROW_DLL struct ArrowDevice* ArrowDeviceCuda(ArrowDeviceType device_type, int64_t device_id);

// ========================================================================
// Device arrays
// ========================================================================

// Wraps array, whose buffers are on device, as device_array (see
// ArrowDevice.array_init). On failure array and sync_event stay the caller's. The CPU
// device has no events or streams: both must be NULL (EINVAL otherwise).
NANOARROW_DLL ArrowErrorCode ArrowDeviceArrayInitAsync(struct ArrowDevice* device,
                                         struct ArrowDeviceArray* device_array,
                                         struct ArrowArray* array, void* sync_event,
                                         void* stream);

// ArrowDeviceArrayInitAsync() without a stream.
static inline ArrowErrorCode ArrowDeviceArrayInit(struct ArrowDevice* device,
                                                  struct ArrowDeviceArray* device_array,
                                                  struct ArrowArray* array,
                                                  void* sync_event);

// Wraps array_stream, whose arrays are on device, as device_array_stream. On
// NANOARROW_OK device_array_stream owns array_stream and the caller must release
// device_array_stream.
NANOARROW_DLL ArrowErrorCode ArrowDeviceBasicArrayStreamInit(
    struct ArrowDeviceArrayStream* device_array_stream,
    struct ArrowArrayStream* array_stream, struct ArrowDevice* device);

// ========================================================================
// Device array views
// ========================================================================

// Zeroes device_array_view. Initialize its array_view member afterwards with the core
// functions (ArrowArrayViewInitFromSchema(), ArrowArrayViewInitFromType()).
NANOARROW_DLL void ArrowDeviceArrayViewInit(struct ArrowDeviceArrayView* device_array_view);

// Frees what the array_view member holds and forgets the device.
NANOARROW_DLL void ArrowDeviceArrayViewReset(struct ArrowDeviceArrayView* device_array_view);

// Points the view at device_array without reading any buffer: validates like
// ArrowArrayViewSetArrayMinimal(), and leaves the sizes of variable-length data
// unknown (-1). ENOTSUP for a device this build cannot resolve.
NANOARROW_DLL ArrowErrorCode ArrowDeviceArrayViewSetArrayMinimal(
    struct ArrowDeviceArrayView* device_array_view, struct ArrowDeviceArray* device_array,
    struct ArrowError* error);

// Points the view at device_array and resolves every buffer size: validates like
// ArrowArrayViewSetArray(). On the CPU the core reads the offsets. On another device
// the first and last offsets of each string, binary and list array (and the last run
// end of run-end encoded arrays) are copied back with the device's buffer_copy: with
// a stream, the stream first waits on device_array's sync_event, every copy is queued
// on it and the stream is synchronized once; without one, the CPU waits on the event
// and copies synchronously. Buffer pointers in the view (binary views' variadic sizes
// included) stay device pointers. ENOTSUP for a device this build cannot resolve.
NANOARROW_DLL ArrowErrorCode ArrowDeviceArrayViewSetArrayAsync(
    struct ArrowDeviceArrayView* device_array_view, struct ArrowDeviceArray* device_array,
    void* stream, struct ArrowError* error);

// ArrowDeviceArrayViewSetArrayAsync() without a stream.
static inline ArrowErrorCode ArrowDeviceArrayViewSetArray(
    struct ArrowDeviceArrayView* device_array_view, struct ArrowDeviceArray* device_array,
    struct ArrowError* error);

// Copies the arrays src views (buffers, children, dictionary; offsets kept) into a new
// dst on device_dst, between any two devices whose buffer_init can serve the pair
// (ENOTSUP otherwise). Each buffer is copied exactly as the view sizes it (validity
// and fixed-width buffers up to offset + length, data up to the last offset); a view
// set with the Minimal setter has its sizes resolved first. With a stream, the copies
// wait on src's sync_event and are queued on it; dst gets an event recording them
// (when device_dst is the CPU the stream is synchronized instead). src's buffers must
// stay valid until stream is synchronized.
NANOARROW_DLL ArrowErrorCode ArrowDeviceArrayViewCopyAsync(struct ArrowDeviceArrayView* src,
                                             struct ArrowDevice* device_dst,
                                             struct ArrowDeviceArray* dst, void* stream);

// ArrowDeviceArrayViewCopyAsync() without a stream.
static inline ArrowErrorCode ArrowDeviceArrayViewCopy(struct ArrowDeviceArrayView* src,
                                                      struct ArrowDevice* device_dst,
                                                      struct ArrowDeviceArray* dst);

// Moves src to device_dst without copying buffers (src is left released); ENOTSUP
// when neither device can do that.
NANOARROW_DLL ArrowErrorCode ArrowDeviceArrayMoveToDevice(struct ArrowDeviceArray* src,
                                            struct ArrowDevice* device_dst,
                                            struct ArrowDeviceArray* dst);

// ========================================================================
// Device buffers
// ========================================================================

// Initializes dst, an owning buffer on device_dst, with a copy of src (on device_src).
// src must stay valid until stream is synchronized.
NANOARROW_DLL ArrowErrorCode ArrowDeviceBufferInitAsync(struct ArrowDevice* device_src,
                                          struct ArrowBufferView src,
                                          struct ArrowDevice* device_dst,
                                          struct ArrowBuffer* dst, void* stream);

// ArrowDeviceBufferInitAsync() without a stream.
static inline ArrowErrorCode ArrowDeviceBufferInit(struct ArrowDevice* device_src,
                                                   struct ArrowBufferView src,
                                                   struct ArrowDevice* device_dst,
                                                   struct ArrowBuffer* dst);

// Moves src to device_dst without copying; ENOTSUP when neither device can.
NANOARROW_DLL ArrowErrorCode ArrowDeviceBufferMove(struct ArrowDevice* device_src, struct ArrowBuffer* src,
                                     struct ArrowDevice* device_dst, struct ArrowBuffer* dst);

// Copies src into dst, memory already allocated on device_dst: dst.size_bytes must be
// at least src.size_bytes. src must stay valid until stream is synchronized.
NANOARROW_DLL ArrowErrorCode ArrowDeviceBufferCopyAsync(struct ArrowDevice* device_src,
                                          struct ArrowBufferView src,
                                          struct ArrowDevice* device_dst,
                                          struct ArrowBufferView dst, void* stream);

// ArrowDeviceBufferCopyAsync() without a stream.
static inline ArrowErrorCode ArrowDeviceBufferCopy(struct ArrowDevice* device_src,
                                                   struct ArrowBufferView src,
                                                   struct ArrowDevice* device_dst,
                                                   struct ArrowBufferView dst);

// ---- The stream-less wrappers ----

static inline ArrowErrorCode ArrowDeviceArrayInit(struct ArrowDevice* device,
                                                  struct ArrowDeviceArray* device_array,
                                                  struct ArrowArray* array,
                                                  void* sync_event) {
  return ArrowDeviceArrayInitAsync(device, device_array, array, sync_event, NULL);
}

static inline ArrowErrorCode ArrowDeviceArrayViewSetArray(
    struct ArrowDeviceArrayView* device_array_view, struct ArrowDeviceArray* device_array,
    struct ArrowError* error) {
  return ArrowDeviceArrayViewSetArrayAsync(device_array_view, device_array, NULL, error);
}

static inline ArrowErrorCode ArrowDeviceArrayViewCopy(struct ArrowDeviceArrayView* src,
                                                      struct ArrowDevice* device_dst,
                                                      struct ArrowDeviceArray* dst) {
  return ArrowDeviceArrayViewCopyAsync(src, device_dst, dst, NULL);
}

static inline ArrowErrorCode ArrowDeviceBufferInit(struct ArrowDevice* device_src,
                                                   struct ArrowBufferView src,
                                                   struct ArrowDevice* device_dst,
                                                   struct ArrowBuffer* dst) {
  return ArrowDeviceBufferInitAsync(device_src, src, device_dst, dst, NULL);
}

static inline ArrowErrorCode ArrowDeviceBufferCopy(struct ArrowDevice* device_src,
                                                   struct ArrowBufferView src,
                                                   struct ArrowDevice* device_dst,
                                                   struct ArrowBufferView dst) {
  return ArrowDeviceBufferCopyAsync(device_src, src, device_dst, dst, NULL);
}

#ifdef __cplusplus
}
#endif

#endif  // NANOARROW_DEVICE_H_INCLUDED
