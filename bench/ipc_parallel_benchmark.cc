// Parallel decompression benchmarks: the compressed float64 fixtures (10 float64
// columns x 2 batches of 65,536 rows, every body buffer a 512 KiB ZSTD or LZ4
// frame; written at build time by bench/make_fixtures.c) read with 1 and 2 threads
// (ArrowIpcArrayStreamReaderSetNumThreads), beside their floor: the codec's own
// decompression of the same frames in a loop, on one thread and shared by two.
// Every benchmark runs on wall-clock time (UseRealTime), since the work of the
// second thread is not in the calling thread's CPU time: compare real times
// (bench/run --metric real_time). Fixtures are found in
// $NANOARROW_BENCH_FIXTURES_DIR or else <directory of this program>/fixtures.

#include <benchmark/benchmark.h>

#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_ipc.hpp"

#if defined(NANOARROW_BENCH_WITH_ZSTD)
#include <zstd.h>
#endif
#if defined(NANOARROW_BENCH_WITH_LZ4)
#include <lz4frame.h>
#endif

namespace {

std::string FixturePath(const char* name) {
  const char* from_env = std::getenv("NANOARROW_BENCH_FIXTURES_DIR");
  if (from_env != nullptr && from_env[0] != '\0') {
    return std::string(from_env) + "/" + name + ".arrows";
  }
  std::string exe;
  char link[4096];
  ssize_t n = readlink("/proc/self/exe", link, sizeof(link) - 1);
  if (n > 0) exe.assign(link, static_cast<size_t>(n));
  size_t slash = exe.find_last_of('/');
  return (slash == std::string::npos ? std::string(".") : exe.substr(0, slash)) +
         "/fixtures/" + name + ".arrows";
}

// One compressed body buffer as the reader hands it to the codec.
struct Frame {
  std::vector<uint8_t> src;
  size_t dst_size;
};

std::vector<Frame>* g_recording = nullptr;
ArrowIpcDecompressFunction g_real_function = nullptr;

// A decompression function that keeps a copy of each frame, then decompresses it.
ArrowErrorCode RecordFrame(struct ArrowBufferView src, uint8_t* dst, int64_t dst_size,
                           struct ArrowError* error) {
  Frame frame;
  frame.src.assign(src.data.as_uint8, src.data.as_uint8 + src.size_bytes);
  frame.dst_size = static_cast<size_t>(dst_size);
  g_recording->push_back(std::move(frame));
  return g_real_function(src, dst, dst_size, error);
}

constexpr int64_t kColumns = 10;
constexpr int64_t kBatches = 2;
constexpr int64_t kRows = 65536;
constexpr int64_t kValues = kColumns * kBatches * kRows;

// A compressed fixture stream, loaded once, and the frames its batches hold.
struct Workload {
  const char* name;
  enum ArrowIpcCompressionType codec;
  nanoarrow::UniqueBuffer bytes;
  std::vector<Frame> frames;
  size_t total_dst = 0;
  bool loaded = false;
  std::string error;

  Workload(const char* name, enum ArrowIpcCompressionType codec) : name(name), codec(codec) {}

  bool Load() {
    if (loaded || !error.empty()) return loaded;
    std::string path = FixturePath(name);
    FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
      error = "fixture " + path + " missing (" + std::strerror(errno) +
              "): build the default target (bench/make_fixtures) or set "
              "NANOARROW_BENCH_FIXTURES_DIR";
      return false;
    }
    char chunk[1 << 16];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0) {
      if (ArrowBufferAppend(bytes.get(), chunk, static_cast<int64_t>(n)) != NANOARROW_OK) {
        error = "out of memory loading " + path;
        break;
      }
    }
    std::fclose(file);
    if (error.empty()) error = RecordFrames();
    if (!error.empty()) error = path + ": " + error;
    loaded = error.empty();
    return loaded;
  }

  // Decodes every message with a decompressor that records the frames.
  std::string RecordFrames() {
    g_real_function = codec == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD
                          ? ArrowIpcGetZstdDecompressionFunction()
                          : ArrowIpcGetLZ4DecompressionFunction();
    if (g_real_function == nullptr) return "the library was built without this codec";
    nanoarrow::ipc::UniqueDecoder decoder;
    struct ArrowIpcDecompressor decompressor;
    struct ArrowError error;
    if (ArrowIpcDecoderInit(decoder.get()) != NANOARROW_OK) return "cannot make a decoder";
    if (ArrowIpcSerialDecompressor(&decompressor) != NANOARROW_OK ||
        ArrowIpcSerialDecompressorSetFunction(&decompressor, codec, &RecordFrame) !=
            NANOARROW_OK ||
        ArrowIpcDecoderSetDecompressor(decoder.get(), &decompressor) != NANOARROW_OK) {
      return "cannot install the recording decompressor";
    }
    g_recording = &frames;
    int64_t pos = 0;
    while (pos < bytes->size_bytes) {
      struct ArrowBufferView view;
      view.data.as_uint8 = bytes->data + pos;
      view.size_bytes = bytes->size_bytes - pos;
      ArrowErrorCode code = ArrowIpcDecoderDecodeHeader(decoder.get(), view, &error);
      if (code == ENODATA) break;
      if (code != NANOARROW_OK) return error.message;
      view.data.as_uint8 += decoder->header_size_bytes;
      view.size_bytes = decoder->body_size_bytes;
      if (decoder->message_type == NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
        nanoarrow::UniqueSchema schema;
        if (ArrowIpcDecoderDecodeSchema(decoder.get(), schema.get(), &error) != NANOARROW_OK ||
            ArrowIpcDecoderSetSchema(decoder.get(), schema.get(), &error) != NANOARROW_OK) {
          return error.message;
        }
      } else if (decoder->message_type == NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH) {
        nanoarrow::UniqueArray array;
        if (ArrowIpcDecoderDecodeArray(decoder.get(), view, -1, array.get(),
                                       NANOARROW_VALIDATION_LEVEL_NONE,
                                       &error) != NANOARROW_OK) {
          return error.message;
        }
      }
      pos += decoder->header_size_bytes + decoder->body_size_bytes;
    }
    g_recording = nullptr;
    if (frames.size() != static_cast<size_t>(kColumns * kBatches)) {
      return "expected " + std::to_string(kColumns * kBatches) + " frames, found " +
             std::to_string(frames.size());
    }
    for (const Frame& frame : frames) total_dst += frame.dst_size;
    return "";
  }
};

Workload float64_zstd("float64_zstd", NANOARROW_IPC_COMPRESSION_TYPE_ZSTD);
Workload float64_lz4("float64_lz4", NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME);

void KeepBytes(struct ArrowBufferAllocator*, uint8_t*, int64_t) {}

void ThrowNotOk(ArrowErrorCode code, const struct ArrowError& error) {
  if (code != NANOARROW_OK) throw nanoarrow::Exception(error.message);
}

// Reads the whole fixture (zero-copy input) with n_threads, viewing every batch.
void ReadAll(Workload& workload, int n_threads) {
  struct ArrowBuffer borrowed;
  ArrowBufferInit(&borrowed);
  NANOARROW_THROW_NOT_OK(
      ArrowBufferSetAllocator(&borrowed, ArrowBufferDeallocator(&KeepBytes, nullptr)));
  borrowed.data = workload.bytes->data;
  borrowed.size_bytes = workload.bytes->size_bytes;
  borrowed.capacity_bytes = workload.bytes->size_bytes;
  nanoarrow::ipc::UniqueInputStream input;
  NANOARROW_THROW_NOT_OK(ArrowIpcInputStreamInitBuffer(input.get(), &borrowed));
  struct ArrowIpcArrayStreamReaderOptions options;
  options.field_index = -1;
  options.use_shared_buffers = 1;
  nanoarrow::UniqueArrayStream stream;
  NANOARROW_THROW_NOT_OK(ArrowIpcArrayStreamReaderInit(stream.get(), input.get(), &options));
  struct ArrowError error;
  ArrowErrorInit(&error);
  ThrowNotOk(ArrowIpcArrayStreamReaderSetNumThreads(stream.get(), n_threads, &error), error);
  nanoarrow::UniqueSchema schema;
  ThrowNotOk(ArrowArrayStreamGetSchema(stream.get(), schema.get(), &error), error);
  nanoarrow::UniqueArrayView view;
  ThrowNotOk(ArrowArrayViewInitFromSchema(view.get(), schema.get(), &error), error);
  int64_t n_batches = 0;
  ArrowErrorCode code;
  for (struct ArrowArray& array : nanoarrow::ViewArrayStream(stream.get(), &code, &error)) {
    ThrowNotOk(ArrowArrayViewSetArray(view.get(), &array, &error), error);
    benchmark::DoNotOptimize(view->children[0]->buffer_views[1].data.data);
    n_batches++;
  }
  ThrowNotOk(code, error);
  if (n_batches != kBatches) throw nanoarrow::Exception("unexpected number of batches");
}

void ReadWorkload(benchmark::State& state, Workload& workload) {
  if (!workload.Load()) {
    state.SkipWithError(workload.error.c_str());
    return;
  }
  int n_threads = static_cast<int>(state.range(0));
  try {
    for (auto _ : state) ReadAll(workload, n_threads);
  } catch (const nanoarrow::Exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * 8);
}

// ---- The floor: the codec on the recorded frames ----

struct FloorTask {
  const Workload* workload;
  std::vector<std::vector<uint8_t>>* outputs;
  // The next frame not yet taken, shared by the threads of a pass.
  std::atomic<size_t>* next;
  int failed;
};

// Decompresses the frames not yet taken, one at a time, with the codec (one
// context per call of this function, reused for its frames). The threads of a pass
// share the frames dynamically, as the reader's pool does: a static split (every
// other frame) is slower whenever one core is slower than the other, as the
// vCPUs of a shared machine often are, which would make the floor easier to
// reach than what the reader's work sharing makes possible.
void* DecompressFrames(void* arg) {
  FloorTask* task = static_cast<FloorTask*>(arg);
  const std::vector<Frame>& frames = task->workload->frames;
  task->failed = 0;
  if (task->workload->codec == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD) {
#if defined(NANOARROW_BENCH_WITH_ZSTD)
    ZSTD_DCtx* context = ZSTD_createDCtx();
    for (size_t i = task->next->fetch_add(1); i < frames.size();
         i = task->next->fetch_add(1)) {
      size_t n = ZSTD_decompressDCtx(context, (*task->outputs)[i].data(), frames[i].dst_size,
                                     frames[i].src.data(), frames[i].src.size());
      if (n != frames[i].dst_size) task->failed = 1;
    }
    ZSTD_freeDCtx(context);
    return nullptr;
#endif
  } else {
#if defined(NANOARROW_BENCH_WITH_LZ4)
    LZ4F_dctx* context = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&context, LZ4F_VERSION))) {
      task->failed = 1;
      return nullptr;
    }
    for (size_t i = task->next->fetch_add(1); i < frames.size();
         i = task->next->fetch_add(1)) {
      size_t dst_size = frames[i].dst_size;
      size_t src_size = frames[i].src.size();
      size_t hint = LZ4F_decompress(context, (*task->outputs)[i].data(), &dst_size,
                                    frames[i].src.data(), &src_size, nullptr);
      if (hint != 0 || dst_size != frames[i].dst_size) task->failed = 1;
    }
    LZ4F_freeDecompressionContext(context);
    return nullptr;
#endif
  }
  // Built without the codec's header: the library's own function for it.
  ArrowIpcDecompressFunction function = task->workload->codec ==
                                                NANOARROW_IPC_COMPRESSION_TYPE_ZSTD
                                            ? ArrowIpcGetZstdDecompressionFunction()
                                            : ArrowIpcGetLZ4DecompressionFunction();
  for (size_t i = task->next->fetch_add(1); i < frames.size();
         i = task->next->fetch_add(1)) {
    struct ArrowBufferView src;
    struct ArrowError error;
    src.data.as_uint8 = frames[i].src.data();
    src.size_bytes = static_cast<int64_t>(frames[i].src.size());
    if (function(src, (*task->outputs)[i].data(), static_cast<int64_t>(frames[i].dst_size),
                 &error) != NANOARROW_OK) {
      task->failed = 1;
    }
  }
  return nullptr;
}

void FloorWorkload(benchmark::State& state, Workload& workload) {
  if (!workload.Load()) {
    state.SkipWithError(workload.error.c_str());
    return;
  }
  int n_threads = static_cast<int>(state.range(0));
  std::vector<std::vector<uint8_t>> outputs;
  for (const Frame& frame : workload.frames) outputs.emplace_back(frame.dst_size);
  std::atomic<size_t> next(0);
  std::vector<FloorTask> tasks(static_cast<size_t>(n_threads));
  std::vector<pthread_t> threads(static_cast<size_t>(n_threads));
  for (int t = 0; t < n_threads; t++) tasks[t] = FloorTask{&workload, &outputs, &next, 0};
  for (auto _ : state) {
    next.store(0);
    // The calling thread takes the first share, as the reader's does.
    for (int t = 1; t < n_threads; t++) {
      if (pthread_create(&threads[t], nullptr, &DecompressFrames, &tasks[t]) != 0) {
        state.SkipWithError("pthread_create failed");
        return;
      }
    }
    DecompressFrames(&tasks[0]);
    for (int t = 1; t < n_threads; t++) pthread_join(threads[t], nullptr);
    for (const FloorTask& task : tasks) {
      if (task.failed) {
        state.SkipWithError("a frame did not decompress to its declared size");
        return;
      }
    }
    benchmark::DoNotOptimize(outputs[0].data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * 8);
}

}  // namespace

/// Read the ZSTD float64 stream with 1 or 2 threads
///
/// The float64_zstd fixture (10 float64 columns x 2 batches of 65,536 rows, each
/// column's 512 KiB buffer one ZSTD frame) read from memory through the stream
/// reader with ArrowIpcArrayStreamReaderSetNumThreads(N) (the argument), then
/// ArrowArrayViewSetArray() on each batch; real time, items are values. With 2
/// threads the 10 buffers of a batch are decompressed by the calling thread and
/// one pool thread: the goal is 1.7x the 1-thread throughput on 2 idle cores.
static void IpcReadFloat64ZstdThreads(benchmark::State& state) {
  ReadWorkload(state, float64_zstd);
}

/// Floor: ZSTD-decompress the same frames on 1 or 2 threads
///
/// ZSTD_decompressDCtx() over the 20 frames the reader decompresses (copied out
/// of the fixture as the reader hands them to the codec) into preallocated
/// memory: on the calling thread alone (1), or shared by it and one pthread
/// started and joined per pass (2), each taking the next frame not yet taken
/// (no pause between the two batches' frames, which the reader has). What
/// decompression itself costs; its 2/1 ratio is the most the reader's can reach
/// on this machine.
static void FloorZstdDecompressThreads(benchmark::State& state) {
  FloorWorkload(state, float64_zstd);
}

/// Read the LZ4 float64 stream with 1 or 2 threads
///
/// The float64_lz4 fixture (the same values, each buffer one LZ4 frame) read from
/// memory with ArrowIpcArrayStreamReaderSetNumThreads(N), then
/// ArrowArrayViewSetArray() on each batch; real time, items are values.
static void IpcReadFloat64Lz4Threads(benchmark::State& state) {
  ReadWorkload(state, float64_lz4);
}

/// Floor: LZ4-decompress the same frames on 1 or 2 threads
///
/// LZ4F_decompress() (one decompression context per thread and pass) over the 20
/// LZ4 frames the reader decompresses, into preallocated memory, on 1 thread or
/// shared frame by frame by the calling thread and one pthread.
static void FloorLz4DecompressThreads(benchmark::State& state) {
  FloorWorkload(state, float64_lz4);
}

BENCHMARK(IpcReadFloat64ZstdThreads)->Arg(1)->Arg(2)->UseRealTime();
BENCHMARK(FloorZstdDecompressThreads)->Arg(1)->Arg(2)->UseRealTime();
BENCHMARK(IpcReadFloat64Lz4Threads)->Arg(1)->Arg(2)->UseRealTime();
BENCHMARK(FloorLz4DecompressThreads)->Arg(1)->Arg(2)->UseRealTime();

BENCHMARK_MAIN();
