// Copy of a 100 MiB int64 array host -> CUDA device -> host through nanoarrow_device
// (ArrowDeviceArrayViewCopy both ways, with the view of the device copy in between),
// beside cudaMemcpy of the same bytes. Built only with NANOARROW_DEVICE_WITH_CUDA=ON
// (bench/CMakeLists.txt, executable device_cuda_copy_benchmark); every benchmark
// skips itself where there is no GPU. Not part of bench/run's groups, which must
// build everywhere.
//
// The ratio to read: NanoarrowCopyRoundTrip against CudaMemcpyRoundTripAllocating
// (the same work: allocate device and host memory, copy both ways, free), and against
// CudaMemcpyRoundTrip (buffers allocated once, the floor).

#include <benchmark/benchmark.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_device.hpp"

namespace {

constexpr int64_t kBytes = 100 * 1024 * 1024;
constexpr int64_t kValues = kBytes / static_cast<int64_t>(sizeof(int64_t));

bool SkipWithoutGpu(benchmark::State& state) {
  if (ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0) == nullptr) {
    state.SkipWithError("no CUDA device (ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0) is NULL)");
    return true;
  }
  return false;
}

void MakeInt64Array(struct ArrowArray* out) {
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(out, NANOARROW_TYPE_INT64));
  struct ArrowBuffer* data = ArrowArrayBuffer(out, 1);
  NANOARROW_THROW_NOT_OK(ArrowBufferReserve(data, kBytes));
  auto* values = reinterpret_cast<int64_t*>(data->data);
  for (int64_t i = 0; i < kValues; i++) values[i] = i * 3;
  data->size_bytes = kBytes;
  out->length = kValues;
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(out, nullptr));
}

void NanoarrowCopyRoundTrip(benchmark::State& state) {
  if (SkipWithoutGpu(state)) return;
  struct ArrowDevice* gpu = ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0);
  nanoarrow::UniqueArray array;
  MakeInt64Array(array.get());
  nanoarrow::device::UniqueDeviceArray host;
  NANOARROW_THROW_NOT_OK(ArrowDeviceArrayInit(ArrowDeviceCpu(), host.get(), array.get(), nullptr));
  nanoarrow::device::UniqueDeviceArrayView host_view;
  ArrowArrayViewInitFromType(&host_view->array_view, NANOARROW_TYPE_INT64);
  NANOARROW_THROW_NOT_OK(ArrowDeviceArrayViewSetArray(host_view.get(), host.get(), nullptr));

  for (auto _ : state) {
    nanoarrow::device::UniqueDeviceArray on_gpu;
    nanoarrow::device::UniqueDeviceArray back;
    nanoarrow::device::UniqueDeviceArrayView gpu_view;
    ArrowArrayViewInitFromType(&gpu_view->array_view, NANOARROW_TYPE_INT64);
    if (ArrowDeviceArrayViewCopy(host_view.get(), gpu, on_gpu.get()) != NANOARROW_OK ||
        ArrowDeviceArrayViewSetArray(gpu_view.get(), on_gpu.get(), nullptr) !=
            NANOARROW_OK ||
        ArrowDeviceArrayViewCopy(gpu_view.get(), ArrowDeviceCpu(), back.get()) !=
            NANOARROW_OK) {
      state.SkipWithError("nanoarrow_device copy failed");
      break;
    }
    benchmark::DoNotOptimize(back->array.buffers[1]);
  }
  state.SetBytesProcessed(state.iterations() * 2 * kBytes);
}

void CudaMemcpyRoundTripAllocating(benchmark::State& state) {
  if (SkipWithoutGpu(state)) return;
  std::vector<int64_t> values(kValues);
  for (int64_t i = 0; i < kValues; i++) values[i] = i * 3;
  for (auto _ : state) {
    void* device = nullptr;
    if (cudaMalloc(&device, kBytes) != cudaSuccess) {
      state.SkipWithError("cudaMalloc failed");
      break;
    }
    void* back = std::malloc(kBytes);
    cudaMemcpy(device, values.data(), kBytes, cudaMemcpyHostToDevice);
    cudaMemcpy(back, device, kBytes, cudaMemcpyDeviceToHost);
    benchmark::DoNotOptimize(back);
    std::free(back);
    cudaFree(device);
  }
  state.SetBytesProcessed(state.iterations() * 2 * kBytes);
}

void CudaMemcpyRoundTrip(benchmark::State& state) {
  if (SkipWithoutGpu(state)) return;
  std::vector<int64_t> values(kValues);
  std::vector<int64_t> back(kValues);
  for (int64_t i = 0; i < kValues; i++) values[i] = i * 3;
  void* device = nullptr;
  if (cudaMalloc(&device, kBytes) != cudaSuccess) {
    state.SkipWithError("cudaMalloc failed");
    return;
  }
  for (auto _ : state) {
    cudaMemcpy(device, values.data(), kBytes, cudaMemcpyHostToDevice);
    cudaMemcpy(back.data(), device, kBytes, cudaMemcpyDeviceToHost);
    benchmark::DoNotOptimize(back.data());
  }
  cudaFree(device);
  state.SetBytesProcessed(state.iterations() * 2 * kBytes);
}

}  // namespace

BENCHMARK(NanoarrowCopyRoundTrip)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(CudaMemcpyRoundTripAllocating)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(CudaMemcpyRoundTrip)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
