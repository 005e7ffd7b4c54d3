/* A stand-in for the CUDA driver (libcuda.so.1) made of host memory, so that the code
 * of src/device/device_cuda.c runs in CI on machines without a GPU. It implements only
 * the entry points nanoarrow_device and its tests call, with one device; copies run at
 * once (streams and events only record that they were used). It checks what a real
 * driver would refuse or leak: unknown or freed pointers, unbalanced context pushes,
 * events destroyed twice, and it counts live allocations and events
 * (mock_cuda_live_allocations() and friends) so the tests can check for leaks.
 *
 * This proves the library's use of the driver API as this file understands it, not
 * that it works on a GPU: tools/run-cuda-checks.sh is for that. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#define MOCK_MAX_ALLOCATIONS 4096

struct MockAllocation {
  void* ptr;
  size_t size;
  int kind; /* 0 device, 1 pinned host, 2 managed */
};

static struct MockAllocation mock_allocations[MOCK_MAX_ALLOCATIONS];
static int mock_live_allocations = 0;
static int mock_live_events = 0;
static int mock_live_streams = 0;
static int mock_context_depth = 0;
static int mock_errors = 0;
static int mock_initialized = 0;
static int64_t mock_bytes_copied = 0;
static int mock_event_syncs = 0;
static int mock_stream_waits = 0;
static int mock_stream_syncs = 0;
static int mock_context_sentinel = 0;

struct MockEvent {
  uint32_t magic;
  int recorded;
};

struct MockStream {
  uint32_t magic;
};

#define MOCK_EVENT_MAGIC 0xE7E7E7E7u
#define MOCK_STREAM_MAGIC 0x57575757u

static void MockError(const char* message) {
  mock_errors++;
  fprintf(stderr, "mock libcuda: %s\n", message);
}

int mock_cuda_live_allocations(void) { return mock_live_allocations; }
int mock_cuda_live_events(void) { return mock_live_events; }
int mock_cuda_live_streams(void) { return mock_live_streams; }
int mock_cuda_context_depth(void) { return mock_context_depth; }
int mock_cuda_errors(void) { return mock_errors; }
int64_t mock_cuda_bytes_copied(void) { return mock_bytes_copied; }
int mock_cuda_event_syncs(void) { return mock_event_syncs; }
int mock_cuda_stream_waits(void) { return mock_stream_waits; }
int mock_cuda_stream_syncs(void) { return mock_stream_syncs; }

static CUresult MockAllocate(size_t size, int kind, void** out) {
  int i;
  if (!mock_initialized || mock_context_depth <= 0) {
    MockError("allocation without cuInit or without a current context");
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  for (i = 0; i < MOCK_MAX_ALLOCATIONS; i++) {
    if (mock_allocations[i].ptr == NULL) {
      mock_allocations[i].ptr = malloc(size == 0 ? 1 : size);
      if (mock_allocations[i].ptr == NULL) {
        return CUDA_ERROR_OUT_OF_MEMORY;
      }
      mock_allocations[i].size = size;
      mock_allocations[i].kind = kind;
      mock_live_allocations++;
      *out = mock_allocations[i].ptr;
      return CUDA_SUCCESS;
    }
  }
  return CUDA_ERROR_OUT_OF_MEMORY;
}

static CUresult MockFree(void* ptr, int kind) {
  int i;
  if (mock_context_depth <= 0) {
    MockError("free without a current context");
  }
  for (i = 0; i < MOCK_MAX_ALLOCATIONS; i++) {
    if (mock_allocations[i].ptr == ptr && ptr != NULL) {
      if ((kind == 1) != (mock_allocations[i].kind == 1)) {
        MockError("pinned memory freed with cuMemFree or device memory with cuMemFreeHost");
      }
      free(ptr);
      mock_allocations[i].ptr = NULL;
      mock_live_allocations--;
      return CUDA_SUCCESS;
    }
  }
  MockError("free of an unknown pointer");
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuInit(unsigned int Flags) {
  (void)Flags;
  mock_initialized = 1;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int* count) {
  *count = 1;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice* device, int ordinal) {
  if (ordinal != 0) {
    return CUDA_ERROR_INVALID_DEVICE;
  }
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  (void)dev;
  *pctx = (CUcontext)(void*)&mock_context_sentinel;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx) {
  if (ctx != (CUcontext)(void*)&mock_context_sentinel) {
    MockError("push of an unknown context");
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  mock_context_depth++;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext* pctx) {
  if (mock_context_depth <= 0) {
    MockError("pop without a push");
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  mock_context_depth--;
  if (pctx != NULL) {
    *pctx = (CUcontext)(void*)&mock_context_sentinel;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAlloc(CUdeviceptr* dptr, size_t bytesize) {
  void* ptr = NULL;
  CUresult result = MockAllocate(bytesize, 0, &ptr);
  *dptr = (CUdeviceptr)(uintptr_t)ptr;
  return result;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr dptr) { return MockFree((void*)(uintptr_t)dptr, 0); }

CUresult CUDAAPI cuMemAllocHost(void** pp, size_t bytesize) {
  return MockAllocate(bytesize, 1, pp);
}

CUresult CUDAAPI cuMemFreeHost(void* p) { return MockFree(p, 1); }

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  void* ptr = NULL;
  CUresult result;
  (void)flags;
  result = MockAllocate(bytesize, 2, &ptr);
  *dptr = (CUdeviceptr)(uintptr_t)ptr;
  return result;
}

CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  if (mock_context_depth <= 0) {
    MockError("copy without a current context");
  }
  memmove((void*)(uintptr_t)dst, (const void*)(uintptr_t)src, ByteCount);
  mock_bytes_copied += (int64_t)ByteCount;
  return CUDA_SUCCESS;
}

static int MockStreamValid(CUstream stream) {
  struct MockStream* s = (struct MockStream*)(void*)stream;
  return s == NULL || s->magic == MOCK_STREAM_MAGIC;
}

CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                               CUstream hStream) {
  if (!MockStreamValid(hStream)) {
    MockError("copy on a stream that is not live");
    return CUDA_ERROR_INVALID_HANDLE;
  }
  return cuMemcpy(dst, src, ByteCount);
}

CUresult CUDAAPI cuStreamCreate(CUstream* phStream, unsigned int Flags) {
  struct MockStream* stream = (struct MockStream*)calloc(1, sizeof(struct MockStream));
  (void)Flags;
  stream->magic = MOCK_STREAM_MAGIC;
  mock_live_streams++;
  *phStream = (CUstream)(void*)stream;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamDestroy(CUstream hStream) {
  struct MockStream* stream = (struct MockStream*)(void*)hStream;
  if (stream == NULL || stream->magic != MOCK_STREAM_MAGIC) {
    MockError("destroying a stream that is not live");
    return CUDA_ERROR_INVALID_HANDLE;
  }
  stream->magic = 0;
  free(stream);
  mock_live_streams--;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream hStream) {
  if (!MockStreamValid(hStream)) {
    MockError("synchronizing a stream that is not live");
    return CUDA_ERROR_INVALID_HANDLE;
  }
  mock_stream_syncs++;
  return CUDA_SUCCESS;
}

static int MockEventValid(CUevent event) {
  struct MockEvent* e = (struct MockEvent*)(void*)event;
  return e != NULL && e->magic == MOCK_EVENT_MAGIC;
}

CUresult CUDAAPI cuEventCreate(CUevent* phEvent, unsigned int Flags) {
  struct MockEvent* event = (struct MockEvent*)calloc(1, sizeof(struct MockEvent));
  (void)Flags;
  event->magic = MOCK_EVENT_MAGIC;
  mock_live_events++;
  *phEvent = (CUevent)(void*)event;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventDestroy(CUevent hEvent) {
  struct MockEvent* event = (struct MockEvent*)(void*)hEvent;
  if (!MockEventValid(hEvent)) {
    MockError("destroying an event that is not live");
    return CUDA_ERROR_INVALID_HANDLE;
  }
  if (mock_context_depth <= 0) {
    MockError("event destroyed without a current context");
  }
  event->magic = 0;
  free(event);
  mock_live_events--;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream) {
  if (!MockEventValid(hEvent) || !MockStreamValid(hStream)) {
    MockError("recording an event that is not live, or on a stream that is not");
    return CUDA_ERROR_INVALID_HANDLE;
  }
  ((struct MockEvent*)(void*)hEvent)->recorded = 1;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventSynchronize(CUevent hEvent) {
  if (!MockEventValid(hEvent)) {
    MockError("synchronizing an event that is not live");
    return CUDA_ERROR_INVALID_HANDLE;
  }
  mock_event_syncs++;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  (void)Flags;
  if (!MockEventValid(hEvent) || !MockStreamValid(hStream)) {
    MockError("waiting on an event that is not live, or with a stream that is not");
    return CUDA_ERROR_INVALID_HANDLE;
  }
  mock_stream_waits++;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char** pStr) {
  static char name[32];
  snprintf(name, sizeof(name), "MOCK_CUDA_ERROR_%d", (int)error);
  *pStr = name;
  return CUDA_SUCCESS;
}
