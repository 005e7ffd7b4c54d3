/* The CUDA devices (built with NANOARROW_DEVICE_WITH_CUDA). Tests that need a GPU skip
 * themselves, by name and with the reason, where ArrowDeviceCuda() finds none; the
 * no-driver behaviour is tested only there (and skipped where a GPU is present).
 *
 * The tests load the driver themselves (dlopen of libcuda.so.1) for the few calls the
 * library does not make for them: creating streams and events. */

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "sim_test_util.h"

#if defined(NANOARROW_TEST_HAVE_IPC)
#include <dirent.h>

#include "nanoarrow/nanoarrow_ipc.h"
#endif

/* Why there is no CUDA device here: the message ArrowDeviceArrayViewSetArray() gives
 * for a CUDA array. */
static void CudaUnavailableReason(char* out, size_t out_size) {
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  memset(&device_array, 0, sizeof(device_array));
  cr_assert_eq(ArrowArrayInitFromType(&device_array.array, NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&device_array.array, NULL), NANOARROW_OK);
  device_array.device_type = ARROW_DEVICE_CUDA;
  device_array.device_id = 0;
  ArrowDeviceArrayViewInit(&view);
  ArrowArrayViewInitFromType(&view.array_view, NANOARROW_TYPE_INT32);
  error.message[0] = '\0';
  int rc = ArrowDeviceArrayViewSetArray(&view, &device_array, &error);
  snprintf(out, out_size, "%s (errno %d)", error.message, rc);
  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
}

static int HaveGpu(void) { return ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0) != NULL; }

/* Set by the test_device_cuda_mock_driver ctest entry, which puts the stand-in driver
 * of tests/device/mock_libcuda.c first in LD_LIBRARY_PATH. */
static int UsingMockDriver(void) {
  const char* value = getenv("NANOARROW_TEST_CUDA_MOCK_DRIVER");
  return value != NULL && strcmp(value, "1") == 0;
}

#define REQUIRE_GPU()                                                                 \
  do {                                                                                \
    if (!HaveGpu()) {                                                                 \
      char reason_[512];                                                              \
      CudaUnavailableReason(reason_, sizeof(reason_));                                \
      cr_skip_test("no CUDA device, so not run on a GPU: %s", reason_);               \
    }                                                                                 \
    if (UsingMockDriver()) {                                                          \
      cr_log_info("running against the stand-in driver tests/device/mock_libcuda.c, " \
                  "not a GPU");                                                       \
    }                                                                                 \
  } while (0)

/* With the stand-in driver: nothing leaked, no event left, contexts balanced, no
 * misuse reported. */
static void ExpectDriverClean(void) {
  if (!UsingMockDriver()) {
    return;
  }
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  cr_assert_not_null(handle);
  const char* names[] = {"mock_cuda_live_allocations", "mock_cuda_live_events",
                         "mock_cuda_live_streams", "mock_cuda_context_depth",
                         "mock_cuda_errors"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    int (*counter)(void);
    void* symbol = dlsym(handle, names[i]);
    cr_assert_not_null(symbol, "%s: is libcuda.so.1 the stand-in?", names[i]);
    memcpy(&counter, &symbol, sizeof(counter));
    cr_assert_eq(counter(), 0, "stand-in driver: %s() is %d", names[i], counter());
  }
  dlclose(handle);
}

/* Streams and events for the tests, from the driver directly. */
struct TestDriver {
  CUresult(CUDAAPI* stream_create)(CUstream*, unsigned int);
  CUresult(CUDAAPI* stream_destroy)(CUstream);
  CUresult(CUDAAPI* event_create)(CUevent*, unsigned int);
  CUresult(CUDAAPI* ctx_push)(CUcontext);
  CUresult(CUDAAPI* ctx_pop)(CUcontext*);
  CUresult(CUDAAPI* primary_ctx_retain)(CUcontext*, CUdevice);
  CUresult(CUDAAPI* device_get)(CUdevice*, int);
};

static void LoadSymbol(void* handle, const char* name, void* out, size_t size) {
  void* symbol = dlsym(handle, name);
  cr_assert_not_null(symbol, "libcuda.so.1 has no %s", name);
  memcpy(out, &symbol, size);
}

static void LoadTestDriver(struct TestDriver* driver) {
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  cr_assert_not_null(handle, "a GPU was found but libcuda.so.1 does not load");
  LoadSymbol(handle, "cuStreamCreate", &driver->stream_create, sizeof(driver->stream_create));
  LoadSymbol(handle, "cuStreamDestroy_v2", &driver->stream_destroy,
             sizeof(driver->stream_destroy));
  LoadSymbol(handle, "cuEventCreate", &driver->event_create, sizeof(driver->event_create));
  LoadSymbol(handle, "cuCtxPushCurrent_v2", &driver->ctx_push, sizeof(driver->ctx_push));
  LoadSymbol(handle, "cuCtxPopCurrent_v2", &driver->ctx_pop, sizeof(driver->ctx_pop));
  LoadSymbol(handle, "cuDevicePrimaryCtxRetain", &driver->primary_ctx_retain,
             sizeof(driver->primary_ctx_retain));
  LoadSymbol(handle, "cuDeviceGet", &driver->device_get, sizeof(driver->device_get));
}

static void PushContext(struct TestDriver* driver) {
  CUdevice device;
  CUcontext context;
  cr_assert_eq(driver->device_get(&device, 0), CUDA_SUCCESS);
  cr_assert_eq(driver->primary_ctx_retain(&context, device), CUDA_SUCCESS);
  cr_assert_eq(driver->ctx_push(context), CUDA_SUCCESS);
}

static void PopContext(struct TestDriver* driver) {
  CUcontext context;
  cr_assert_eq(driver->ctx_pop(&context), CUDA_SUCCESS);
}

/* ---- Without a GPU ---- */

Test(device_cuda, without_a_gpu_everything_is_enotsup_with_a_reason) {
  if (HaveGpu()) {
    cr_skip_test("a CUDA driver and device were found%s: the no-driver behaviour cannot "
                 "be tested",
                 UsingMockDriver() ? " (the stand-in driver)" : "");
  }
  const ArrowDeviceType types[] = {ARROW_DEVICE_CUDA, ARROW_DEVICE_CUDA_HOST,
                                   ARROW_DEVICE_CUDA_MANAGED};
  for (int i = 0; i < 3; i++) {
    cr_assert_null(ArrowDeviceCuda(types[i], 0));
    cr_assert_null(ArrowDeviceResolve(types[i], 0));
  }
  char reason[512];
  CudaUnavailableReason(reason, sizeof(reason));
  cr_assert(strstr(reason, "is not available") != NULL, "%s", reason);
  cr_assert(strstr(reason, "errno 95") != NULL || strstr(reason, "errno") != NULL, "%s",
            reason);
  /* It names what is missing: the driver library, or cuInit's answer. */
  cr_assert(strstr(reason, "libcuda.so.1") != NULL || strstr(reason, "cuInit") != NULL ||
                strstr(reason, "no device") != NULL,
            "%s", reason);
  cr_log_info("CUDA unavailable here: %s", reason);

  /* Moves of CUDA arrays are refused too, and src stays the caller's. */
  struct ArrowDeviceArray src;
  struct ArrowDeviceArray dst;
  struct ArrowArray array;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &src, &array, NULL), NANOARROW_OK);
  src.device_type = ARROW_DEVICE_CUDA_HOST;
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&src, ArrowDeviceCpu(), &dst), ENOTSUP);
  cr_assert_not_null(src.array.release);
  ArrowArrayRelease(&src.array);
}

Test(device_cuda, cuda_types_cannot_be_registered_in_a_cuda_build) {
  struct ArrowDevice device;
  struct ArrowError error;
  ArrowDeviceInitCpu(&device);
  device.device_type = ARROW_DEVICE_CUDA;
  cr_assert_eq(ArrowDeviceRegister(&device, &error), EINVAL);
  cr_assert(strstr(error.message, "provides that device type itself") != NULL, "%s",
            error.message);
  cr_assert_null(ArrowDeviceCuda(ARROW_DEVICE_CPU, 0));
  cr_assert_null(ArrowDeviceCuda(ARROW_DEVICE_CUDA, -1));
  cr_assert_null(ArrowDeviceCuda(ARROW_DEVICE_CUDA, 1 << 20));
}

/* ---- With a GPU ---- */

Test(device_cuda, singletons) {
  REQUIRE_GPU();
  const ArrowDeviceType types[] = {ARROW_DEVICE_CUDA, ARROW_DEVICE_CUDA_HOST,
                                   ARROW_DEVICE_CUDA_MANAGED};
  for (int i = 0; i < 3; i++) {
    struct ArrowDevice* device = ArrowDeviceCuda(types[i], 0);
    cr_assert_not_null(device);
    cr_assert_eq(device->device_type, types[i]);
    cr_assert_eq(device->device_id, 0);
    cr_assert_eq(ArrowDeviceResolve(types[i], 0), device);
    cr_assert_eq(ArrowDeviceCuda(types[i], 0), device, "the same singleton each time");
  }
}

Test(device_cuda, buffers_in_every_direction) {
  REQUIRE_GPU();
  struct ArrowDevice* cpu = ArrowDeviceCpu();
  struct ArrowDevice* kinds[] = {ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0),
                                 ArrowDeviceCuda(ARROW_DEVICE_CUDA_HOST, 0),
                                 ArrowDeviceCuda(ARROW_DEVICE_CUDA_MANAGED, 0)};
  const char text[] = "0123456789abcdef0123456789abcdef";
  struct ArrowBufferView host = {{text}, 32};
  for (int a = 0; a < 3; a++) {
    for (int b = 0; b < 3; b++) {
      struct ArrowBuffer on_a;
      struct ArrowBuffer on_b;
      struct ArrowBuffer back;
      cr_assert_eq(ArrowDeviceBufferInit(cpu, host, kinds[a], &on_a), NANOARROW_OK);
      struct ArrowBufferView view_a = {{on_a.data}, on_a.size_bytes};
      cr_assert_eq(ArrowDeviceBufferInit(kinds[a], view_a, kinds[b], &on_b), NANOARROW_OK);
      struct ArrowBufferView view_b = {{on_b.data}, on_b.size_bytes};
      cr_assert_eq(ArrowDeviceBufferInit(kinds[b], view_b, cpu, &back), NANOARROW_OK);
      cr_assert_eq(back.size_bytes, 32);
      cr_assert_eq(memcmp(back.data, text, 32), 0, "%d -> %d", a, b);

      /* buffer_copy of a slice, device to device and back to the host. */
      struct ArrowBufferView slice = {{on_a.data + 8}, 8};
      struct ArrowBufferView dst = {{on_b.data}, 8};
      cr_assert_eq(ArrowDeviceBufferCopy(kinds[a], slice, kinds[b], dst), NANOARROW_OK);
      char out[8];
      struct ArrowBufferView out_view = {{out}, 8};
      struct ArrowBufferView src_b = {{on_b.data}, 8};
      cr_assert_eq(ArrowDeviceBufferCopy(kinds[b], src_b, cpu, out_view), NANOARROW_OK);
      cr_assert_eq(memcmp(out, "89abcdef", 8), 0);

      ArrowBufferReset(&back);
      ArrowBufferReset(&on_b);
      ArrowBufferReset(&on_a);
    }
  }
  ExpectDriverClean();
}

static void MakeNestedStrings(struct ArrowSchema* schema, struct ArrowArray* array) {
  struct ArrowError error;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema, 3), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[1]->children[0], NANOARROW_TYPE_INT64),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[2], NANOARROW_TYPE_STRING_VIEW),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (int64_t row = 0; row < 50; row++) {
    char text[64];
    snprintf(text, sizeof(text), "row %d with a value long enough for views", (int)row);
    cr_assert_eq(ArrowArrayAppendString(array->children[0], ArrowCharView(text)),
                 NANOARROW_OK);
    for (int64_t j = 0; j < row % 4; j++) {
      cr_assert_eq(ArrowArrayAppendInt(array->children[1]->children[0], row * j),
                   NANOARROW_OK);
    }
    cr_assert_eq(ArrowArrayFinishElement(array->children[1]), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendString(array->children[2], ArrowCharView(text)),
                 NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(array), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
}

/* CPU -> kind -> CPU, optionally on a stream; the copy back must equal the original. */
static void RoundTrip(ArrowDeviceType type, void* stream) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray host;
  struct ArrowDeviceArray on_device;
  struct ArrowDeviceArray back;
  struct ArrowDeviceArrayView expected;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  char buf[512];
  struct ArrowDevice* device = ArrowDeviceCuda(type, 0);

  MakeNestedStrings(&schema, &array);
  array.offset = 3;
  array.length = 40;
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&expected);
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&expected.array_view, &schema, NULL),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&expected, &host, &error), NANOARROW_OK);

  cr_assert_eq(ArrowDeviceArrayViewCopyAsync(&expected, device, &on_device, stream),
               NANOARROW_OK);
  cr_assert_eq(on_device.device_type, type);
  if (stream != NULL) {
    cr_assert_not_null(on_device.sync_event, "a copy on a stream records an event");
  }
  cr_assert_eq(ArrowDeviceArrayViewSetArrayAsync(&view, &on_device, stream, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(view.array_view.children[0]->buffer_views[2].size_bytes,
               expected.array_view.children[0]->buffer_views[2].size_bytes,
               "string data size read back from the device");
  cr_assert_eq(ArrowDeviceArrayViewCopyAsync(&view, ArrowDeviceCpu(), &back, stream),
               NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &back, &error), NANOARROW_OK, "%s",
               error.message);
  const char* message =
      SimCompareViews(&expected.array_view, &view.array_view, "array", buf, sizeof(buf));
  cr_assert_null(message, "%s", message);

  ArrowDeviceArrayViewReset(&view);
  ArrowDeviceArrayViewReset(&expected);
  ArrowArrayRelease(&back.array);
  ArrowArrayRelease(&on_device.array);
  ArrowArrayRelease(&host.array);
  ArrowSchemaRelease(&schema);
}

Test(device_cuda, copy_nested_and_variable_length_device_memory) {
  REQUIRE_GPU();
  RoundTrip(ARROW_DEVICE_CUDA, NULL);
  ExpectDriverClean();
}

Test(device_cuda, copy_nested_and_variable_length_pinned_and_managed) {
  REQUIRE_GPU();
  RoundTrip(ARROW_DEVICE_CUDA_HOST, NULL);
  RoundTrip(ARROW_DEVICE_CUDA_MANAGED, NULL);
  ExpectDriverClean();
}

Test(device_cuda, copy_on_a_stream) {
  REQUIRE_GPU();
  struct TestDriver driver;
  CUstream stream;
  LoadTestDriver(&driver);
  PushContext(&driver);
  cr_assert_eq(driver.stream_create(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  RoundTrip(ARROW_DEVICE_CUDA, &stream);
  RoundTrip(ARROW_DEVICE_CUDA_HOST, &stream);
  cr_assert_eq(driver.stream_destroy(stream), CUDA_SUCCESS);
  PopContext(&driver);
  ExpectDriverClean();
}

Test(device_cuda, array_init_with_sync_event_and_move_to_cpu) {
  REQUIRE_GPU();
  struct TestDriver driver;
  CUstream stream;
  CUevent event;
  LoadTestDriver(&driver);
  PushContext(&driver);
  cr_assert_eq(driver.stream_create(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  cr_assert_eq(driver.event_create(&event, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);

  /* An int64 array in pinned memory, wrapped with the caller's event (recorded on the
   * stream): the device array owns the event from here. */
  struct ArrowDevice* pinned = ArrowDeviceCuda(ARROW_DEVICE_CUDA_HOST, 0);
  int64_t values[] = {1, 2, 3, 4};
  struct ArrowBufferView host = {{values}, sizeof(values)};
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowDeviceBufferInitAsync(ArrowDeviceCpu(), host, pinned, &buffer, &stream),
               NANOARROW_OK);
  struct ArrowArray array;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT64), NANOARROW_OK);
  cr_assert_eq(ArrowArraySetBuffer(&array, 1, &buffer), NANOARROW_OK);
  array.length = 4;
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_NONE, NULL),
               NANOARROW_OK);
  struct ArrowDeviceArray device_array;
  cr_assert_eq(ArrowDeviceArrayInitAsync(pinned, &device_array, &array, &event, &stream),
               NANOARROW_OK);
  cr_assert_not_null(device_array.sync_event);
  cr_assert_eq(*(CUevent*)device_array.sync_event, event);

  /* Pinned memory moves to the CPU once the event is waited on. */
  struct ArrowDeviceArray on_cpu;
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&device_array, ArrowDeviceCpu(), &on_cpu),
               NANOARROW_OK);
  cr_assert_eq(on_cpu.device_type, ARROW_DEVICE_CPU);
  cr_assert_null(on_cpu.sync_event);
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  ArrowDeviceArrayViewInit(&view);
  ArrowArrayViewInitFromType(&view.array_view, NANOARROW_TYPE_INT64);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &on_cpu, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view.array_view, 3), 4);
  ArrowDeviceArrayViewReset(&view);
  /* Releasing destroys the event (after the buffers). */
  ArrowArrayRelease(&on_cpu.array);

  /* Device memory cannot move to the CPU. */
  struct ArrowDeviceArray on_gpu;
  struct ArrowDeviceArray refused;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT64), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0), &on_gpu, &array,
                                    NULL),
               NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayMoveToDevice(&on_gpu, ArrowDeviceCpu(), &refused), ENOTSUP);
  ArrowArrayRelease(&on_gpu.array);
  cr_assert_eq(driver.stream_destroy(stream), CUDA_SUCCESS);
  PopContext(&driver);
  ExpectDriverClean();
}

Test(device_cuda, basic_array_stream_over_device_arrays) {
  REQUIRE_GPU();
  struct ArrowDevice* gpu = ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0);
  struct ArrowSchema schema;
  struct ArrowArrayStream naive;
  struct ArrowDeviceArrayStream stream;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowBasicArrayStreamInit(&naive, &schema, 2), NANOARROW_OK);
  for (int64_t i = 0; i < 2; i++) {
    struct ArrowArray array;
    struct ArrowDeviceArray host;
    struct ArrowDeviceArray on_gpu;
    struct ArrowDeviceArrayView view;
    cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING), NANOARROW_OK);
    cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
    for (int64_t j = 0; j <= i; j++) {
      cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("batch")), NANOARROW_OK);
    }
    cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, NULL), NANOARROW_OK);
    cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, &array, NULL), NANOARROW_OK);
    ArrowDeviceArrayViewInit(&view);
    ArrowArrayViewInitFromType(&view.array_view, NANOARROW_TYPE_STRING);
    cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &host, NULL), NANOARROW_OK);
    cr_assert_eq(ArrowDeviceArrayViewCopy(&view, gpu, &on_gpu), NANOARROW_OK);
    ArrowBasicArrayStreamSetArray(&naive, i, &on_gpu.array);
    ArrowDeviceArrayViewReset(&view);
    ArrowArrayRelease(&host.array);
  }
  cr_assert_eq(ArrowDeviceBasicArrayStreamInit(&stream, &naive, gpu), NANOARROW_OK);
  cr_assert_eq(stream.device_type, ARROW_DEVICE_CUDA);
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  ArrowDeviceArrayViewInit(&view);
  ArrowArrayViewInitFromType(&view.array_view, NANOARROW_TYPE_STRING);
  for (int64_t i = 0; i < 2; i++) {
    struct ArrowDeviceArray batch;
    cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK);
    cr_assert_not_null(batch.array.release);
    cr_assert_eq(batch.device_type, ARROW_DEVICE_CUDA);
    cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &batch, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(view.array_view.buffer_views[2].size_bytes, 5 * (i + 1));
    ArrowArrayRelease(&batch.array);
  }
  ArrowDeviceArrayViewReset(&view);
  stream.release(&stream);
  ExpectDriverClean();
}

#if defined(NANOARROW_TEST_HAVE_IPC)
/* One column: CPU -> device memory of type -> CPU, compared byte for byte. */
static void RoundTripColumn(const struct ArrowSchema* schema, struct ArrowArray* column,
                            ArrowDeviceType type, const char* what) {
  struct ArrowDeviceArray host;
  struct ArrowDeviceArray on_device;
  struct ArrowDeviceArray back;
  struct ArrowDeviceArrayView expected;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  char buf[512];
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), &host, column, NULL), NANOARROW_OK);
  ArrowDeviceArrayViewInit(&expected);
  ArrowDeviceArrayViewInit(&view);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&expected.array_view, schema, NULL),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view.array_view, schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&expected, &host, &error), NANOARROW_OK, "%s: %s",
               what, error.message);
  cr_assert_eq(ArrowDeviceArrayViewCopy(&expected, ArrowDeviceCuda(type, 0), &on_device),
               NANOARROW_OK, "%s", what);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &on_device, &error), NANOARROW_OK,
               "%s: %s", what, error.message);
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &back), NANOARROW_OK, "%s",
               what);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &back, &error), NANOARROW_OK, "%s: %s",
               what, error.message);
  const char* message =
      SimCompareViews(&expected.array_view, &view.array_view, "array", buf, sizeof(buf));
  cr_assert_null(message, "%s: %s", what, message);
  ArrowDeviceArrayViewReset(&view);
  ArrowDeviceArrayViewReset(&expected);
  ArrowArrayRelease(&back.array);
  ArrowArrayRelease(&on_device.array);
  ArrowArrayRelease(&host.array);
}

/* Every column of arrow-testing's cpp-21.0.0 integration streams, to device, pinned
 * and managed memory in turn. */
Test(device_cuda, copy_arrow_testing_integration_streams) {
  REQUIRE_GPU();
  const ArrowDeviceType types[] = {ARROW_DEVICE_CUDA, ARROW_DEVICE_CUDA_HOST,
                                   ARROW_DEVICE_CUDA_MANAGED};
  char dir_path[1024];
  snprintf(dir_path, sizeof(dir_path), "%s/arrow-ipc-stream/integration/cpp-21.0.0",
           NANOARROW_TEST_DATA_DIR);
  DIR* dir = opendir(dir_path);
  cr_assert_not_null(dir, "%s", dir_path);
  int64_t columns = 0;
  int64_t files = 0;
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL) {
    size_t n = strlen(entry->d_name);
    if (n < 7 || strcmp(entry->d_name + n - 7, ".stream") != 0) {
      continue;
    }
    char path[2048];
    snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
    FILE* file = fopen(path, "rb");
    cr_assert_not_null(file, "%s", path);
    struct ArrowIpcInputStream input;
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    cr_assert_eq(ArrowIpcInputStreamInitFile(&input, file, 1), NANOARROW_OK);
    cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL), NANOARROW_OK);
    cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK, "%s", path);
    for (;;) {
      struct ArrowArray batch;
      cr_assert_eq(stream.get_next(&stream, &batch), NANOARROW_OK, "%s", path);
      if (batch.release == NULL) {
        break;
      }
      for (int64_t c = 0; c < batch.n_children; c++) {
        struct ArrowArray column;
        char what[2200];
        ArrowArrayMove(batch.children[c], &column);
        snprintf(what, sizeof(what), "%s column %d", path, (int)c);
        RoundTripColumn(schema.children[c], &column, types[columns % 3], what);
        columns++;
      }
      ArrowArrayRelease(&batch);
    }
    ArrowSchemaRelease(&schema);
    ArrowArrayStreamRelease(&stream);
    files++;
  }
  closedir(dir);
  cr_assert_gt(files, 30);
  cr_log_info("round-tripped %ld columns of %ld streams through CUDA memory", (long)columns,
              (long)files);
  ExpectDriverClean();
}
#endif
