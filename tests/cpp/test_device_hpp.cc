// Self-checking tests of the device C++ helpers in nanoarrow/nanoarrow_device.hpp.
// Prints one line per failed check and exits non-zero when any check failed.
// Built as C++11 and run under ASan: a wrapper that leaks or frees twice fails.

#include <cstdio>
#include <exception>
#include <utility>

#include "nanoarrow/nanoarrow_device.hpp"

#include "check.h"

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

int main() {
  try {
    TestUniqueDeviceArray();
    TestUniqueDeviceArrayStream();
    TestUniqueDevice();
    TestUniqueDeviceArrayView();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    return 1;
  }
  return CheckSummary("test_device_hpp");
}
