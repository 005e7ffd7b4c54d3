/* The CUDA devices: device memory (ARROW_DEVICE_CUDA), pinned host memory
 * (ARROW_DEVICE_CUDA_HOST) and managed memory (ARROW_DEVICE_CUDA_MANAGED), one of each
 * per GPU.
 *
 * The driver API is loaded at run time (dlopen of libcuda.so.1), so the library needs
 * no GPU, driver or CUDA runtime to link or to load: without them ArrowDeviceCuda()
 * returns NULL and the generic functions report ENOTSUP with the reason. Only cuda.h's
 * types are used at compile time. Every call runs in the device's primary context.
 *
 * sync_event is a CUevent*, stream a CUstream*. Copies use cuMemcpy / cuMemcpyAsync,
 * which infer the direction from the pointers (unified addressing). */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "device/device_private.h"

#if !defined(NANOARROW_DEVICE_WITH_CUDA)

int ArrowDevicePrivateHaveCuda(void) { return 0; }

void ArrowDevicePrivateCudaUnavailable(ArrowDeviceType device_type, int64_t device_id,
                                       char* out, size_t out_size) {
  (void)device_type;
  (void)device_id;
  snprintf(out, out_size,
           "this build of nanoarrow_device has no CUDA support (configure with "
           "-DNANOARROW_DEVICE_WITH_CUDA=ON)");
}

struct ArrowDevice* ArrowDeviceCuda(ArrowDeviceType device_type, int64_t device_id) {
  (void)device_type;
  (void)device_id;
  return NULL;
}

#else

#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>

/* The driver entry points this file calls, looked up by their exported names (the
 * versioned names cuda.h maps the plain ones to). */
struct ArrowDeviceCudaDriver {
  CUresult(CUDAAPI* init)(unsigned int flags);
  CUresult(CUDAAPI* device_get_count)(int* count);
  CUresult(CUDAAPI* device_get)(CUdevice* device, int ordinal);
  CUresult(CUDAAPI* primary_ctx_retain)(CUcontext* context, CUdevice device);
  CUresult(CUDAAPI* ctx_push)(CUcontext context);
  CUresult(CUDAAPI* ctx_pop)(CUcontext* context);
  CUresult(CUDAAPI* mem_alloc)(CUdeviceptr* ptr, size_t n_bytes);
  CUresult(CUDAAPI* mem_free)(CUdeviceptr ptr);
  CUresult(CUDAAPI* mem_alloc_host)(void** ptr, size_t n_bytes);
  CUresult(CUDAAPI* mem_free_host)(void* ptr);
  CUresult(CUDAAPI* mem_alloc_managed)(CUdeviceptr* ptr, size_t n_bytes,
                                       unsigned int flags);
  CUresult(CUDAAPI* memcpy_sync)(CUdeviceptr dst, CUdeviceptr src, size_t n_bytes);
  CUresult(CUDAAPI* memcpy_async)(CUdeviceptr dst, CUdeviceptr src, size_t n_bytes,
                                  CUstream stream);
  CUresult(CUDAAPI* event_create)(CUevent* event, unsigned int flags);
  CUresult(CUDAAPI* event_destroy)(CUevent event);
  CUresult(CUDAAPI* event_record)(CUevent event, CUstream stream);
  CUresult(CUDAAPI* event_synchronize)(CUevent event);
  CUresult(CUDAAPI* stream_wait_event)(CUstream stream, CUevent event, unsigned int flags);
  CUresult(CUDAAPI* stream_synchronize)(CUstream stream);
  CUresult(CUDAAPI* get_error_name)(CUresult error, const char** name);
};

struct ArrowDeviceCudaSymbol {
  const char* name;
  size_t offset;
};

#define NANOARROW_CUDA_SYMBOL(NAME, MEMBER) \
  { NAME, offsetof(struct ArrowDeviceCudaDriver, MEMBER) }

static const struct ArrowDeviceCudaSymbol kArrowDeviceCudaSymbols[] = {
    NANOARROW_CUDA_SYMBOL("cuInit", init),
    NANOARROW_CUDA_SYMBOL("cuDeviceGetCount", device_get_count),
    NANOARROW_CUDA_SYMBOL("cuDeviceGet", device_get),
    NANOARROW_CUDA_SYMBOL("cuDevicePrimaryCtxRetain", primary_ctx_retain),
    NANOARROW_CUDA_SYMBOL("cuCtxPushCurrent_v2", ctx_push),
    NANOARROW_CUDA_SYMBOL("cuCtxPopCurrent_v2", ctx_pop),
    NANOARROW_CUDA_SYMBOL("cuMemAlloc_v2", mem_alloc),
    NANOARROW_CUDA_SYMBOL("cuMemFree_v2", mem_free),
    NANOARROW_CUDA_SYMBOL("cuMemAllocHost_v2", mem_alloc_host),
    NANOARROW_CUDA_SYMBOL("cuMemFreeHost", mem_free_host),
    NANOARROW_CUDA_SYMBOL("cuMemAllocManaged", mem_alloc_managed),
    NANOARROW_CUDA_SYMBOL("cuMemcpy", memcpy_sync),
    NANOARROW_CUDA_SYMBOL("cuMemcpyAsync", memcpy_async),
    NANOARROW_CUDA_SYMBOL("cuEventCreate", event_create),
    NANOARROW_CUDA_SYMBOL("cuEventDestroy_v2", event_destroy),
    NANOARROW_CUDA_SYMBOL("cuEventRecord", event_record),
    NANOARROW_CUDA_SYMBOL("cuEventSynchronize", event_synchronize),
    NANOARROW_CUDA_SYMBOL("cuStreamWaitEvent", stream_wait_event),
    NANOARROW_CUDA_SYMBOL("cuStreamSynchronize", stream_synchronize),
    NANOARROW_CUDA_SYMBOL("cuGetErrorName", get_error_name)};

/* The three memory kinds of one GPU, in the order of the device table. */
static const ArrowDeviceType kArrowDeviceCudaTypes[3] = {
    ARROW_DEVICE_CUDA, ARROW_DEVICE_CUDA_HOST, ARROW_DEVICE_CUDA_MANAGED};

struct ArrowDeviceCudaPrivate {
  CUdevice cu_device;
  CUcontext cu_context;
};

/* Set once by ArrowDeviceCudaLoad() (pthread_once), read-only afterwards. The
 * singletons live as long as the process: the library is never unloaded and the
 * primary contexts are never released. */
static struct ArrowDeviceCudaDriver kDriver;
static char kArrowDeviceCudaUnavailable[320];
static int kArrowDeviceCudaCount = 0;
static struct ArrowDevice* kArrowDeviceCudaDevices = NULL;
static struct ArrowDeviceCudaPrivate* kArrowDeviceCudaPrivates = NULL;
static pthread_once_t kArrowDeviceCudaOnce = PTHREAD_ONCE_INIT;

static const char* ArrowDeviceCudaErrorName(CUresult result) {
  const char* name = NULL;
  if (kDriver.get_error_name == NULL ||
      kDriver.get_error_name(result, &name) != CUDA_SUCCESS || name == NULL) {
    return "unknown CUDA error";
  }
  return name;
}

static void ArrowDeviceCudaInitDevices(void);

static void ArrowDeviceCudaLoad(void) {
  void* handle;
  size_t i;
  CUresult result;

  handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char* reason = dlerror();
    snprintf(kArrowDeviceCudaUnavailable, sizeof(kArrowDeviceCudaUnavailable),
             "the CUDA driver library libcuda.so.1 could not be loaded (%s): is the "
             "NVIDIA driver installed?",
             reason == NULL ? "no reason given" : reason);
    return;
  }
  for (i = 0; i < sizeof(kArrowDeviceCudaSymbols) / sizeof(kArrowDeviceCudaSymbols[0]);
       i++) {
    void* symbol = dlsym(handle, kArrowDeviceCudaSymbols[i].name);
    if (symbol == NULL) {
      snprintf(kArrowDeviceCudaUnavailable, sizeof(kArrowDeviceCudaUnavailable),
               "libcuda.so.1 has no %s: the NVIDIA driver is too old",
               kArrowDeviceCudaSymbols[i].name);
      memset(&kDriver, 0, sizeof(kDriver));
      return;
    }
    /* memcpy: ISO C has no conversion from an object pointer to a function pointer. */
    memcpy((char*)&kDriver + kArrowDeviceCudaSymbols[i].offset, &symbol, sizeof(symbol));
  }

  result = kDriver.init(0);
  if (result != CUDA_SUCCESS) {
    snprintf(kArrowDeviceCudaUnavailable, sizeof(kArrowDeviceCudaUnavailable),
             "cuInit() failed with %s (no usable NVIDIA GPU?)",
             ArrowDeviceCudaErrorName(result));
    return;
  }
  result = kDriver.device_get_count(&kArrowDeviceCudaCount);
  if (result != CUDA_SUCCESS || kArrowDeviceCudaCount <= 0) {
    snprintf(kArrowDeviceCudaUnavailable, sizeof(kArrowDeviceCudaUnavailable),
             "the CUDA driver reports no device (%s)",
             result == CUDA_SUCCESS ? "0 devices" : ArrowDeviceCudaErrorName(result));
    kArrowDeviceCudaCount = 0;
    return;
  }
  ArrowDeviceCudaInitDevices();
}

/* Makes the device's primary context current (undo with ArrowDeviceCudaPop()). */
static CUresult ArrowDeviceCudaPush(struct ArrowDevice* device) {
  struct ArrowDeviceCudaPrivate* private_data =
      (struct ArrowDeviceCudaPrivate*)device->private_data;
  return kDriver.ctx_push(private_data->cu_context);
}

static void ArrowDeviceCudaPop(void) {
  CUcontext unused;
  (void)kDriver.ctx_pop(&unused);
}

/* Whether device is one of this file's singletons. */
static int ArrowDeviceCudaIsOurs(const struct ArrowDevice* device) {
  return device != NULL && kArrowDeviceCudaDevices != NULL &&
         device >= kArrowDeviceCudaDevices &&
         device < kArrowDeviceCudaDevices + 3 * kArrowDeviceCudaCount;
}

static int ArrowDeviceCudaIsHost(const struct ArrowDevice* device) {
  return device != NULL && device->device_type == ARROW_DEVICE_CPU;
}

/* The device whose context serves a (src, dst) pair, or NULL when this file cannot
 * serve it: both ends CUDA singletons or the CPU, at least one a CUDA singleton. */
static struct ArrowDevice* ArrowDeviceCudaPairDevice(struct ArrowDevice* device_src,
                                                     struct ArrowDevice* device_dst) {
  if (ArrowDeviceCudaIsOurs(device_dst) &&
      (ArrowDeviceCudaIsOurs(device_src) || ArrowDeviceCudaIsHost(device_src))) {
    return device_dst;
  }
  if (ArrowDeviceCudaIsOurs(device_src) && ArrowDeviceCudaIsHost(device_dst)) {
    return device_src;
  }
  return NULL;
}

static CUresult ArrowDeviceCudaCopy(void* dst, const void* src, int64_t n_bytes,
                                    void* stream) {
  if (stream == NULL) {
    return kDriver.memcpy_sync((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src,
                               (size_t)n_bytes);
  }
  return kDriver.memcpy_async((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src,
                              (size_t)n_bytes, *(CUstream*)stream);
}

/* Deallocator of buffers allocated on a CUDA singleton (private_data). */
static void ArrowDeviceCudaFreeBuffer(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                                      int64_t size) {
  struct ArrowDevice* device = (struct ArrowDevice*)allocator->private_data;
  (void)size;
  if (ptr == NULL) {
    return;
  }
  if (ArrowDeviceCudaPush(device) != CUDA_SUCCESS) {
    return;
  }
  if (device->device_type == ARROW_DEVICE_CUDA_HOST) {
    (void)kDriver.mem_free_host(ptr);
  } else {
    (void)kDriver.mem_free((CUdeviceptr)(uintptr_t)ptr);
  }
  ArrowDeviceCudaPop();
}

/* Allocates n_bytes on device (its context current). */
static CUresult ArrowDeviceCudaAllocate(struct ArrowDevice* device, int64_t n_bytes,
                                        void** out) {
  CUdeviceptr ptr = 0;
  CUresult result;
  switch (device->device_type) {
    case ARROW_DEVICE_CUDA_HOST:
      return kDriver.mem_alloc_host(out, (size_t)n_bytes);
    case ARROW_DEVICE_CUDA_MANAGED:
      result = kDriver.mem_alloc_managed(&ptr, (size_t)n_bytes, CU_MEM_ATTACH_GLOBAL);
      break;
    default:
      result = kDriver.mem_alloc(&ptr, (size_t)n_bytes);
      break;
  }
  *out = (void*)(uintptr_t)ptr;
  return result;
}

static ArrowErrorCode ArrowDeviceCudaBufferInit(struct ArrowDevice* device_src,
                                                struct ArrowBufferView src,
                                                struct ArrowDevice* device_dst,
                                                struct ArrowBuffer* dst, void* stream) {
  struct ArrowDevice* context_device = ArrowDeviceCudaPairDevice(device_src, device_dst);
  void* ptr = NULL;
  CUresult result;
  int64_t n_bytes = src.size_bytes;

  if (context_device == NULL) {
    return ENOTSUP;
  }
  if (dst == NULL || n_bytes < 0 || (n_bytes > 0 && src.data.data == NULL)) {
    return EINVAL;
  }
  ArrowBufferInit(dst);
  if (n_bytes == 0) {
    return NANOARROW_OK;
  }

  if (ArrowDeviceCudaIsHost(device_dst)) {
    if (ArrowBufferReserve(dst, n_bytes) != NANOARROW_OK) {
      ArrowBufferReset(dst);
      return ENOMEM;
    }
    if (ArrowDeviceCudaPush(context_device) != CUDA_SUCCESS) {
      ArrowBufferReset(dst);
      return EIO;
    }
    result = ArrowDeviceCudaCopy(dst->data, src.data.data, n_bytes, stream);
    ArrowDeviceCudaPop();
    if (result != CUDA_SUCCESS) {
      ArrowBufferReset(dst);
      return EIO;
    }
    dst->size_bytes = n_bytes;
    return NANOARROW_OK;
  }

  if (ArrowDeviceCudaPush(context_device) != CUDA_SUCCESS) {
    return EIO;
  }
  result = ArrowDeviceCudaAllocate(device_dst, n_bytes, &ptr);
  if (result != CUDA_SUCCESS) {
    ArrowDeviceCudaPop();
    return ENOMEM;
  }
  result = ArrowDeviceCudaCopy(ptr, src.data.data, n_bytes, stream);
  ArrowDeviceCudaPop();
  /* The buffer owns ptr from here: resetting it frees through the device. */
  dst->allocator = ArrowBufferDeallocator(ArrowDeviceCudaFreeBuffer, device_dst);
  dst->data = (uint8_t*)ptr;
  dst->size_bytes = n_bytes;
  dst->capacity_bytes = n_bytes;
  if (result != CUDA_SUCCESS) {
    ArrowBufferReset(dst);
    return EIO;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowDeviceCudaBufferCopy(struct ArrowDevice* device_src,
                                                struct ArrowBufferView src,
                                                struct ArrowDevice* device_dst,
                                                struct ArrowBufferView dst, void* stream) {
  struct ArrowDevice* context_device = ArrowDeviceCudaPairDevice(device_src, device_dst);
  CUresult result;
  if (context_device == NULL) {
    return ENOTSUP;
  }
  if (src.size_bytes < 0 || dst.size_bytes < src.size_bytes) {
    return EINVAL;
  }
  if (src.size_bytes == 0) {
    return NANOARROW_OK;
  }
  if (src.data.data == NULL || dst.data.data == NULL) {
    return EINVAL;
  }
  if (ArrowDeviceCudaPush(context_device) != CUDA_SUCCESS) {
    return EIO;
  }
  result = ArrowDeviceCudaCopy((void*)dst.data.data, src.data.data, src.size_bytes, stream);
  ArrowDeviceCudaPop();
  return result == CUDA_SUCCESS ? NANOARROW_OK : EIO;
}

/* A device array made by array_init owns its event: the wrapper releases the array,
 * then destroys the event. */
struct ArrowDeviceCudaArrayPrivate {
  struct ArrowArray parent;
  struct ArrowDevice* device;
  CUevent event;
};

static void ArrowDeviceCudaArrayRelease(struct ArrowArray* array) {
  struct ArrowDeviceCudaArrayPrivate* private_data =
      (struct ArrowDeviceCudaArrayPrivate*)array->private_data;
  if (private_data->parent.release != NULL) {
    private_data->parent.release(&private_data->parent);
  }
  if (ArrowDeviceCudaPush(private_data->device) == CUDA_SUCCESS) {
    (void)kDriver.event_destroy(private_data->event);
    ArrowDeviceCudaPop();
  }
  ArrowFree(private_data);
  array->release = NULL;
}

static ArrowErrorCode ArrowDeviceCudaArrayInit(struct ArrowDevice* device,
                                               struct ArrowDeviceArray* device_array,
                                               struct ArrowArray* array, void* sync_event,
                                               void* stream) {
  struct ArrowDeviceCudaArrayPrivate* private_data;
  CUevent event = NULL;
  CUresult result = CUDA_SUCCESS;

  if (!ArrowDeviceCudaIsOurs(device)) {
    return ENOTSUP;
  }
  if (device_array == NULL || array == NULL || array->release == NULL) {
    return EINVAL;
  }
  if (sync_event == NULL && stream == NULL) {
    memset(device_array, 0, sizeof(struct ArrowDeviceArray));
    ArrowArrayMove(array, &device_array->array);
    device_array->device_type = device->device_type;
    device_array->device_id = device->device_id;
    return NANOARROW_OK;
  }

  private_data = (struct ArrowDeviceCudaArrayPrivate*)ArrowMalloc(
      sizeof(struct ArrowDeviceCudaArrayPrivate));
  if (private_data == NULL) {
    return ENOMEM;
  }
  if (ArrowDeviceCudaPush(device) != CUDA_SUCCESS) {
    ArrowFree(private_data);
    return EIO;
  }
  if (sync_event != NULL) {
    event = *(CUevent*)sync_event;
  } else {
    result = kDriver.event_create(&event, CU_EVENT_DISABLE_TIMING);
  }
  if (result == CUDA_SUCCESS && stream != NULL) {
    result = kDriver.event_record(event, *(CUstream*)stream);
  }
  if (result != CUDA_SUCCESS) {
    /* An event this call created is destroyed; the caller's stays the caller's. */
    if (sync_event == NULL && event != NULL) {
      (void)kDriver.event_destroy(event);
    }
    ArrowDeviceCudaPop();
    ArrowFree(private_data);
    return EIO;
  }
  ArrowDeviceCudaPop();

  private_data->device = device;
  private_data->event = event;
  ArrowArrayMove(array, &private_data->parent);
  memset(device_array, 0, sizeof(struct ArrowDeviceArray));
  device_array->array = private_data->parent;
  device_array->array.release = ArrowDeviceCudaArrayRelease;
  device_array->array.private_data = private_data;
  device_array->device_type = device->device_type;
  device_array->device_id = device->device_id;
  device_array->sync_event = &private_data->event;
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowDeviceCudaArrayMove(struct ArrowDevice* device_src,
                                               struct ArrowDeviceArray* src,
                                               struct ArrowDevice* device_dst,
                                               struct ArrowDeviceArray* dst) {
  CUresult result;
  if (src == NULL || dst == NULL || src->array.release == NULL) {
    return EINVAL;
  }
  if (ArrowDeviceCudaIsOurs(device_src) && device_src == device_dst) {
    ArrowDeviceArrayMove(src, dst);
    return NANOARROW_OK;
  }
  /* Pinned and managed memory is readable by the host once the work is done. */
  if (ArrowDeviceCudaIsOurs(device_src) && ArrowDeviceCudaIsHost(device_dst) &&
      (device_src->device_type == ARROW_DEVICE_CUDA_HOST ||
       device_src->device_type == ARROW_DEVICE_CUDA_MANAGED)) {
    if (src->sync_event != NULL) {
      if (ArrowDeviceCudaPush(device_src) != CUDA_SUCCESS) {
        return EIO;
      }
      result = kDriver.event_synchronize(*(CUevent*)src->sync_event);
      ArrowDeviceCudaPop();
      if (result != CUDA_SUCCESS) {
        return EIO;
      }
    }
    ArrowDeviceArrayMove(src, dst);
    /* The event stays owned by the array's release; the CPU has none. */
    dst->sync_event = NULL;
    dst->device_type = device_dst->device_type;
    dst->device_id = device_dst->device_id;
    return NANOARROW_OK;
  }
  return ENOTSUP;
}

static ArrowErrorCode ArrowDeviceCudaSynchronize(struct ArrowDevice* device,
                                                 void* sync_event, void* stream,
                                                 struct ArrowError* error) {
  CUresult result = CUDA_SUCCESS;
  const char* what = "";
  if (!ArrowDeviceCudaIsOurs(device)) {
    ArrowErrorSet(error, "not a CUDA device of this library");
    return ENOTSUP;
  }
  if (sync_event == NULL && stream == NULL) {
    return NANOARROW_OK;
  }
  if (ArrowDeviceCudaPush(device) != CUDA_SUCCESS) {
    ArrowErrorSet(error, "cuCtxPushCurrent() failed for CUDA device %" PRId64,
                  device->device_id);
    return EIO;
  }
  if (sync_event != NULL && stream != NULL) {
    what = "cuStreamWaitEvent()";
    result = kDriver.stream_wait_event(*(CUstream*)stream, *(CUevent*)sync_event, 0);
  } else if (sync_event != NULL) {
    what = "cuEventSynchronize()";
    result = kDriver.event_synchronize(*(CUevent*)sync_event);
  } else {
    what = "cuStreamSynchronize()";
    result = kDriver.stream_synchronize(*(CUstream*)stream);
  }
  ArrowDeviceCudaPop();
  if (result != CUDA_SUCCESS) {
    ArrowErrorSet(error, "%s failed on CUDA device %" PRId64 ": %s", what,
                  device->device_id, ArrowDeviceCudaErrorName(result));
    return EIO;
  }
  return NANOARROW_OK;
}

/* The singletons outlive every caller: release does nothing. */
static void ArrowDeviceCudaRelease(struct ArrowDevice* device) { (void)device; }

static void ArrowDeviceCudaInitDevices(void) {
  int i;
  int k;
  CUresult result;
  size_t n = (size_t)kArrowDeviceCudaCount;

  kArrowDeviceCudaDevices = (struct ArrowDevice*)ArrowMalloc(3 * n * sizeof(struct ArrowDevice));
  kArrowDeviceCudaPrivates = (struct ArrowDeviceCudaPrivate*)ArrowMalloc(
      n * sizeof(struct ArrowDeviceCudaPrivate));
  if (kArrowDeviceCudaDevices == NULL || kArrowDeviceCudaPrivates == NULL) {
    snprintf(kArrowDeviceCudaUnavailable, sizeof(kArrowDeviceCudaUnavailable),
             "out of memory while listing CUDA devices");
    goto fail;
  }
  for (i = 0; i < kArrowDeviceCudaCount; i++) {
    struct ArrowDeviceCudaPrivate* private_data = kArrowDeviceCudaPrivates + i;
    result = kDriver.device_get(&private_data->cu_device, i);
    if (result == CUDA_SUCCESS) {
      result = kDriver.primary_ctx_retain(&private_data->cu_context, private_data->cu_device);
    }
    if (result != CUDA_SUCCESS) {
      snprintf(kArrowDeviceCudaUnavailable, sizeof(kArrowDeviceCudaUnavailable),
               "CUDA device %d could not be opened: %s", i,
               ArrowDeviceCudaErrorName(result));
      goto fail;
    }
    for (k = 0; k < 3; k++) {
      struct ArrowDevice* device = kArrowDeviceCudaDevices + 3 * i + k;
      memset(device, 0, sizeof(struct ArrowDevice));
      device->device_type = kArrowDeviceCudaTypes[k];
      device->device_id = i;
      device->array_init = ArrowDeviceCudaArrayInit;
      device->array_move = ArrowDeviceCudaArrayMove;
      device->buffer_init = ArrowDeviceCudaBufferInit;
      device->buffer_move = NULL;
      device->buffer_copy = ArrowDeviceCudaBufferCopy;
      device->synchronize_event = ArrowDeviceCudaSynchronize;
      device->release = ArrowDeviceCudaRelease;
      device->private_data = private_data;
    }
  }
  return;

fail:
  ArrowFree(kArrowDeviceCudaDevices);
  ArrowFree(kArrowDeviceCudaPrivates);
  kArrowDeviceCudaDevices = NULL;
  kArrowDeviceCudaPrivates = NULL;
  kArrowDeviceCudaCount = 0;
}

int ArrowDevicePrivateHaveCuda(void) { return 1; }

static int ArrowDeviceCudaTypeIndex(ArrowDeviceType device_type) {
  int k;
  for (k = 0; k < 3; k++) {
    if (kArrowDeviceCudaTypes[k] == device_type) {
      return k;
    }
  }
  return -1;
}

void ArrowDevicePrivateCudaUnavailable(ArrowDeviceType device_type, int64_t device_id,
                                       char* out, size_t out_size) {
  (void)pthread_once(&kArrowDeviceCudaOnce, ArrowDeviceCudaLoad);
  if (kArrowDeviceCudaDevices == NULL) {
    snprintf(out, out_size, "%s", kArrowDeviceCudaUnavailable);
  } else if (ArrowDeviceCudaTypeIndex(device_type) < 0) {
    snprintf(out, out_size, "device type %d is not a CUDA memory kind", (int)device_type);
  } else if (device_id < 0 || device_id >= kArrowDeviceCudaCount) {
    snprintf(out, out_size,
             "there is no CUDA device %" PRId64 " (device ids go from 0 to %d)", device_id,
             kArrowDeviceCudaCount - 1);
  } else {
    snprintf(out, out_size, "the CUDA device is available");
  }
}

struct ArrowDevice* ArrowDeviceCuda(ArrowDeviceType device_type, int64_t device_id) {
  int k = ArrowDeviceCudaTypeIndex(device_type);
  if (k < 0) {
    return NULL;
  }
  if (pthread_once(&kArrowDeviceCudaOnce, ArrowDeviceCudaLoad) != 0 ||
      kArrowDeviceCudaDevices == NULL || device_id < 0 ||
      device_id >= kArrowDeviceCudaCount) {
    return NULL;
  }
  return kArrowDeviceCudaDevices + 3 * device_id + k;
}

#endif
