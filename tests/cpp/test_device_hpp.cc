// Self-checking tests of the device C++ helpers in nanoarrow/nanoarrow_device.hpp.
// Prints one line per failed check and exits non-zero when any check failed.
// Built as C++11 and run under ASan: a wrapper that leaks or frees twice fails.

#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "nanoarrow/nanoarrow_device.hpp"

#include "check.h"
#include "sim_device.h"

// An int32 CPU device array holding 1, 2, 3.
static void MakeDeviceArray(struct ArrowDeviceArray* out) {
  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_INT32));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  for (int32_t value = 1; value <= 3; value++) {
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), value));
  }
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
  NANOARROW_THROW_NOT_OK(ArrowDeviceArrayInit(ArrowDeviceCpu(), out, array.get(), nullptr));
  CHECK(array->release == nullptr);  // the device array owns it now
}

static void TestUniqueDeviceArray() {
  nanoarrow::device::UniqueDeviceArray array;
  CHECK(array->array.release == nullptr);
  CHECK(array->sync_event == nullptr);

  MakeDeviceArray(array.get());
  CHECK(array->array.release != nullptr);
  CHECK(array->device_type == ARROW_DEVICE_CPU);
  CHECK(array->device_id == ArrowDeviceCpu()->device_id);

  nanoarrow::device::UniqueDeviceArray moved = std::move(array);
  CHECK(array->array.release == nullptr);
  CHECK(moved->array.release != nullptr);
  CHECK(moved->array.length == 3);

  // reset() releases what is held (ASan reports a leak otherwise).
  moved.reset();
  CHECK(moved->array.release == nullptr);
}

static void TestUniqueDeviceArrayStream() {
  nanoarrow::device::UniqueDeviceArrayStream stream;
  CHECK(stream->release == nullptr);

  nanoarrow::UniqueSchema schema;
  NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(schema.get(), NANOARROW_TYPE_INT32));
  nanoarrow::UniqueArrayStream naive;
  NANOARROW_THROW_NOT_OK(ArrowBasicArrayStreamInit(naive.get(), schema.get(), 1));
  nanoarrow::UniqueArray batch;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(batch.get(), NANOARROW_TYPE_INT32));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(batch.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(batch.get(), 42));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(batch.get(), nullptr));
  ArrowBasicArrayStreamSetArray(naive.get(), 0, batch.get());

  NANOARROW_THROW_NOT_OK(
      ArrowDeviceBasicArrayStreamInit(stream.get(), naive.get(), ArrowDeviceCpu()));
  CHECK(stream->release != nullptr);
  CHECK(naive->release == nullptr);

  nanoarrow::device::UniqueDeviceArrayStream moved = std::move(stream);
  CHECK(stream->release == nullptr);
  CHECK(moved->release != nullptr);

  nanoarrow::device::UniqueDeviceArray next;
  CHECK(moved->get_next(moved.get(), next.get()) == NANOARROW_OK);
  CHECK(next->array.release != nullptr);
  CHECK(next->array.length == 1);
}

static void TestUniqueDevice() {
  nanoarrow::device::UniqueDevice device;
  CHECK(device->release == nullptr);
  ArrowDeviceInitCpu(device.get());
  CHECK(device->release != nullptr);
  CHECK(device->device_type == ARROW_DEVICE_CPU);

  nanoarrow::device::UniqueDevice moved = std::move(device);
  CHECK(device->release == nullptr);
  CHECK(moved->release != nullptr);
  moved.reset();
  CHECK(moved->release == nullptr);
}

static void TestUniqueDeviceArrayView() {
  nanoarrow::device::UniqueDeviceArrayView view;
  CHECK(view->device == nullptr);
  CHECK(view->array_view.storage_type == NANOARROW_TYPE_UNINITIALIZED);

  nanoarrow::device::UniqueDeviceArray array;
  MakeDeviceArray(array.get());
  ArrowArrayViewInitFromType(&view->array_view, NANOARROW_TYPE_INT32);
  NANOARROW_THROW_NOT_OK(ArrowDeviceArrayViewSetArray(view.get(), array.get(), nullptr));
  CHECK(view->device == ArrowDeviceCpu());
  CHECK(ArrowArrayViewGetIntUnsafe(&view->array_view, 2) == 3);

  nanoarrow::device::UniqueDeviceArrayView moved = std::move(view);
  CHECK(moved->array_view.storage_type == NANOARROW_TYPE_INT32);
  CHECK(moved->device == ArrowDeviceCpu());
  CHECK(view->array_view.storage_type == NANOARROW_TYPE_UNINITIALIZED);
  CHECK(view->device == nullptr);
}

// The wrappers over arrays of a non-CPU device (the simulated device of the C tests):
// the array owns its buffers and its event, moves carry both, reset releases both
// (the buffers first), and a view of it keeps device pointers.
static void TestWrappersOverSimulatedDevice() {
  SimDeviceSetUp();
  {
    nanoarrow::UniqueSchema schema;
    nanoarrow::UniqueArray array;
    NANOARROW_THROW_NOT_OK(ArrowSchemaInitFromType(schema.get(), NANOARROW_TYPE_STRING));
    NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_STRING));
    NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), ArrowCharView("device")));
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(array.get(), ArrowCharView("memory")));
    NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));

    nanoarrow::device::UniqueDeviceArray host;
    NANOARROW_THROW_NOT_OK(
        ArrowDeviceArrayInit(ArrowDeviceCpu(), host.get(), array.get(), nullptr));
    nanoarrow::device::UniqueDeviceArrayView host_view;
    NANOARROW_THROW_NOT_OK(
        ArrowArrayViewInitFromSchema(&host_view->array_view, schema.get(), nullptr));
    NANOARROW_THROW_NOT_OK(ArrowDeviceArrayViewSetArray(host_view.get(), host.get(), nullptr));

    struct SimStream* stream = SimStreamCreate(0);
    nanoarrow::device::UniqueDeviceArray on_device;
    NANOARROW_THROW_NOT_OK(
        ArrowDeviceArrayViewCopyAsync(host_view.get(), SimDevice(0), on_device.get(), stream));
    CHECK(on_device->device_type == SIM_DEVICE_TYPE);
    CHECK(on_device->sync_event != nullptr);
    void* event = on_device->sync_event;

    nanoarrow::device::UniqueDeviceArray moved = std::move(on_device);
    CHECK(on_device->array.release == nullptr);
    CHECK(moved->sync_event == event);

    nanoarrow::device::UniqueDeviceArrayView view;
    NANOARROW_THROW_NOT_OK(ArrowArrayViewInitFromSchema(&view->array_view, schema.get(), nullptr));
    NANOARROW_THROW_NOT_OK(ArrowDeviceArrayViewSetArray(view.get(), moved.get(), nullptr));
    CHECK(view->device == SimDevice(0));
    CHECK(view->sync_event == event);
    CHECK(view->array_view.buffer_views[2].size_bytes == 12);
    CHECK(SimIsDeviceMemory(view->array_view.buffer_views[1].data.data));
    view.reset();
    CHECK(SimDeviceStats()->events_destroyed == 0);

    SimDeviceClearLog();
    moved.reset();
    CHECK(std::string(SimDeviceLog()).find("event-destroy#") != std::string::npos);
    CHECK(SimDeviceStats()->events_destroyed == 1);
    CHECK(SimDeviceStats()->live_allocations == 0);
    SimStreamDestroy(stream);
  }

  // UniqueDevice over a device struct the caller initializes: reset releases it once.
  {
    static int releases = 0;
    nanoarrow::device::UniqueDevice device;
    *device.get() = *SimDevice(1);
    device->release = [](struct ArrowDevice* self) {
      releases++;
      self->release = nullptr;
    };
    nanoarrow::device::UniqueDevice moved = std::move(device);
    CHECK(moved->device_type == SIM_DEVICE_TYPE);
    device.reset();
    CHECK(releases == 0);
    moved.reset();
    CHECK(releases == 1);
  }

  char buf[256];
  const char* message = SimDeviceCheckClean(buf, sizeof(buf));
  CHECK(message == nullptr);
  if (message != nullptr) {
    std::fprintf(stderr, "simulated device: %s\n", message);
  }
  SimDeviceTearDown();
}

// The same over CUDA device memory, where a GPU is available.
static void TestWrappersOverCuda() {
  struct ArrowDevice* gpu = ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0);
  if (gpu == nullptr) {
    std::printf("test_device_hpp: SKIP TestWrappersOverCuda (no CUDA device)\n");
    return;
  }
  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_INT64));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), 7));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
  nanoarrow::device::UniqueDeviceArray host;
  NANOARROW_THROW_NOT_OK(ArrowDeviceArrayInit(ArrowDeviceCpu(), host.get(), array.get(), nullptr));
  nanoarrow::device::UniqueDeviceArrayView view;
  ArrowArrayViewInitFromType(&view->array_view, NANOARROW_TYPE_INT64);
  NANOARROW_THROW_NOT_OK(ArrowDeviceArrayViewSetArray(view.get(), host.get(), nullptr));
  nanoarrow::device::UniqueDeviceArray on_gpu;
  NANOARROW_THROW_NOT_OK(ArrowDeviceArrayViewCopy(view.get(), gpu, on_gpu.get()));
  CHECK(on_gpu->device_type == ARROW_DEVICE_CUDA);
  NANOARROW_THROW_NOT_OK(ArrowDeviceArrayViewSetArray(view.get(), on_gpu.get(), nullptr));
  CHECK(view->device == gpu);
}

int main() {
  try {
    TestUniqueDeviceArray();
    TestUniqueDeviceArrayStream();
    TestUniqueDevice();
    TestUniqueDeviceArrayView();
    TestWrappersOverSimulatedDevice();
    TestWrappersOverCuda();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    return 1;
  }
  return CheckSummary("test_device_hpp");
}
