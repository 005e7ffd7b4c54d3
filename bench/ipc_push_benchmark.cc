// IPC push decoder benchmarks: the many_batches fixture stream (written at build
// time by bench/make_fixtures.c) pushed into ArrowIpcPushDecoder in pieces, as a
// network read loop would, beside the pull stream reader over the whole stream in
// memory (the floor: what a reader that already has every byte costs). Fixtures are
// found in $NANOARROW_BENCH_FIXTURES_DIR or else <directory of this program>/fixtures.

#include <benchmark/benchmark.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_ipc.hpp"

namespace {

constexpr int64_t kManyBatches = 10000;

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

// The many_batches stream, loaded once; empty with error set when it cannot be.
struct Stream {
  nanoarrow::UniqueBuffer bytes;
  std::string error;
  bool loaded = false;

  bool Load() {
    if (loaded || !error.empty()) return loaded;
    std::string path = FixturePath("many_batches");
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
    loaded = error.empty();
    return loaded;
  }
};

Stream many_batches;

void ThrowNotOk(ArrowErrorCode code, const struct ArrowError& error) {
  if (code != NANOARROW_OK) throw nanoarrow::Exception(error.message);
}

// What every benchmark does with a batch: view it (as ipc_read_benchmark does).
struct Viewer {
  nanoarrow::UniqueArrayView view;
  bool ready = false;
  int64_t n_batches = 0;

  void Init(const struct ArrowSchema* schema) {
    struct ArrowError error;
    ThrowNotOk(ArrowArrayViewInitFromSchema(view.get(), schema, &error), error);
    ready = true;
  }

  void See(struct ArrowArray* batch) {
    struct ArrowError error;
    ThrowNotOk(ArrowArrayViewSetArray(view.get(), batch, &error), error);
    benchmark::DoNotOptimize(view->children[0]->buffer_views[1].data.data);
    ArrowArrayRelease(batch);
    n_batches++;
  }
};

enum class Feed { kCopy, kHandOver };

ArrowErrorCode OnSchema(struct ArrowIpcPushDecoderCallbacks* callbacks,
                        struct ArrowSchema* schema, struct ArrowError* error) {
  Viewer* viewer = static_cast<Viewer*>(callbacks->private_data);
  NANOARROW_RETURN_NOT_OK(ArrowArrayViewInitFromSchema(viewer->view.get(), schema, error));
  viewer->ready = true;
  return NANOARROW_OK;
}

ArrowErrorCode OnBatch(struct ArrowIpcPushDecoderCallbacks* callbacks,
                       struct ArrowArray* batch, struct ArrowError* error) {
  Viewer* viewer = static_cast<Viewer*>(callbacks->private_data);
  NANOARROW_RETURN_NOT_OK(ArrowArrayViewSetArray(viewer->view.get(), batch, error));
  benchmark::DoNotOptimize(viewer->view->children[0]->buffer_views[1].data.data);
  viewer->n_batches++;
  return NANOARROW_OK;
}

// Pushes the stream in pieces of piece_size bytes, batches seen by a callback.
void PushAllCallbacks(const struct ArrowBuffer* bytes, int64_t piece_size) {
  Viewer viewer;
  struct ArrowIpcPushDecoderCallbacks callbacks;
  std::memset(&callbacks, 0, sizeof(callbacks));
  callbacks.on_schema = &OnSchema;
  callbacks.on_batch = &OnBatch;
  callbacks.private_data = &viewer;
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  ThrowNotOk(ArrowIpcPushDecoderInit(&decoder, &callbacks, &error), error);
  ArrowErrorCode code = NANOARROW_OK;
  for (int64_t pos = 0; pos < bytes->size_bytes && code == NANOARROW_OK;
       pos += piece_size) {
    int64_t n = bytes->size_bytes - pos < piece_size ? bytes->size_bytes - pos : piece_size;
    code = ArrowIpcPushDecoderConsume(&decoder, bytes->data + pos, n, &error);
  }
  if (code == NANOARROW_OK) code = ArrowIpcPushDecoderFinish(&decoder, &error);
  ArrowIpcPushDecoderReset(&decoder);
  ThrowNotOk(code, error);
  if (viewer.n_batches != kManyBatches) {
    throw nanoarrow::Exception("expected 10000 batches, decoded " +
                               std::to_string(viewer.n_batches));
  }
}

// Pushes the stream in pieces of piece_size bytes, polling after each.
void PushAll(const struct ArrowBuffer* bytes, int64_t piece_size, Feed feed) {
  struct ArrowIpcPushDecoder decoder;
  struct ArrowError error;
  ThrowNotOk(ArrowIpcPushDecoderInit(&decoder, nullptr, &error), error);
  Viewer viewer;
  try {
    for (int64_t pos = 0; pos < bytes->size_bytes; pos += piece_size) {
      int64_t n = bytes->size_bytes - pos < piece_size ? bytes->size_bytes - pos : piece_size;
      if (feed == Feed::kCopy) {
        ThrowNotOk(ArrowIpcPushDecoderConsume(&decoder, bytes->data + pos, n, &error), error);
      } else {
        struct ArrowBuffer piece;
        ArrowBufferInit(&piece);
        NANOARROW_THROW_NOT_OK(ArrowBufferAppend(&piece, bytes->data + pos, n));
        ThrowNotOk(ArrowIpcPushDecoderConsumeBuffer(&decoder, &piece, &error), error);
      }
      if (!viewer.ready) {
        nanoarrow::UniqueSchema schema;
        if (ArrowIpcPushDecoderGetSchema(&decoder, schema.get(), &error) == NANOARROW_OK) {
          viewer.Init(schema.get());
        }
      }
      struct ArrowArray batch;
      while (ArrowIpcPushDecoderNext(&decoder, &batch, &error) == NANOARROW_OK) {
        viewer.See(&batch);
      }
    }
    ThrowNotOk(ArrowIpcPushDecoderFinish(&decoder, &error), error);
  } catch (...) {
    ArrowIpcPushDecoderReset(&decoder);
    throw;
  }
  ArrowIpcPushDecoderReset(&decoder);
  if (viewer.n_batches != kManyBatches) {
    throw nanoarrow::Exception("expected 10000 batches, decoded " +
                               std::to_string(viewer.n_batches));
  }
}

void KeepBytes(struct ArrowBufferAllocator*, uint8_t*, int64_t) {}

// The pull reader over the whole stream in memory, zero-copy (as
// IpcReadManyBatchesFromBuffer in ipc_read_benchmark.cc).
void PullAll(const struct ArrowBuffer* bytes) {
  struct ArrowBuffer borrowed;
  ArrowBufferInit(&borrowed);
  NANOARROW_THROW_NOT_OK(
      ArrowBufferSetAllocator(&borrowed, ArrowBufferDeallocator(&KeepBytes, nullptr)));
  borrowed.data = bytes->data;
  borrowed.size_bytes = bytes->size_bytes;
  borrowed.capacity_bytes = bytes->size_bytes;
  nanoarrow::ipc::UniqueInputStream input;
  NANOARROW_THROW_NOT_OK(ArrowIpcInputStreamInitBuffer(input.get(), &borrowed));
  struct ArrowIpcArrayStreamReaderOptions options;
  options.field_index = -1;
  options.use_shared_buffers = 1;
  nanoarrow::UniqueArrayStream stream;
  NANOARROW_THROW_NOT_OK(ArrowIpcArrayStreamReaderInit(stream.get(), input.get(), &options));
  struct ArrowError error;
  nanoarrow::UniqueSchema schema;
  ThrowNotOk(ArrowArrayStreamGetSchema(stream.get(), schema.get(), &error), error);
  Viewer viewer;
  viewer.Init(schema.get());
  for (;;) {
    struct ArrowArray batch;
    ThrowNotOk(ArrowArrayStreamGetNext(stream.get(), &batch, &error), error);
    if (batch.release == nullptr) break;
    viewer.See(&batch);
  }
  if (viewer.n_batches != kManyBatches) {
    throw nanoarrow::Exception("expected 10000 batches, read " +
                               std::to_string(viewer.n_batches));
  }
}

template <typename Fn>
void Run(benchmark::State& state, Fn fn) {
  if (!many_batches.Load()) {
    state.SkipWithError(many_batches.error.c_str());
    return;
  }
  try {
    for (auto _ : state) fn(many_batches.bytes.get());
  } catch (const nanoarrow::Exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  state.SetItemsProcessed(state.iterations() * kManyBatches);
}

}  // namespace

/// Push 10,000 tiny batches in 64 KiB pieces
///
/// The many_batches stream (10,000 record batches of one int32 column with 5
/// values) pushed into ArrowIpcPushDecoderConsume() 64 KiB at a time, the caller
/// keeping its bytes (so the decoder copies them), every batch taken with
/// ArrowIpcPushDecoderNext() and viewed with ArrowArrayViewSetArray(). Its floor is
/// the pull reader over the whole stream in memory; items are batches.
static void IpcPushManyBatches64KiB(benchmark::State& state) {
  Run(state, [](const struct ArrowBuffer* bytes) { PushAll(bytes, 65536, Feed::kCopy); });
}

/// Push 10,000 tiny batches in 64 KiB pieces to a callback
///
/// As IpcPushManyBatches64KiB, but each batch goes to an on_batch callback (which
/// views it) as soon as it is decoded instead of waiting for
/// ArrowIpcPushDecoderNext(); items are batches.
static void IpcPushManyBatches64KiBCallbacks(benchmark::State& state) {
  Run(state, [](const struct ArrowBuffer* bytes) { PushAllCallbacks(bytes, 65536); });
}

/// Push 10,000 tiny batches in 64 KiB buffers handed over
///
/// As IpcPushManyBatches64KiB, but each 64 KiB piece is copied into a buffer handed
/// over with ArrowIpcPushDecoderConsumeBuffer(), so batches point into the pieces
/// (the copy is the caller's read into its own buffer); items are batches.
static void IpcPushManyBatches64KiBHandedOver(benchmark::State& state) {
  Run(state,
      [](const struct ArrowBuffer* bytes) { PushAll(bytes, 65536, Feed::kHandOver); });
}

/// Push 10,000 tiny batches in 4 KiB pieces
///
/// As IpcPushManyBatches64KiB with 4 KiB pieces (more messages span two pieces and
/// are assembled in the decoder's buffer); items are batches.
static void IpcPushManyBatches4KiB(benchmark::State& state) {
  Run(state, [](const struct ArrowBuffer* bytes) { PushAll(bytes, 4096, Feed::kCopy); });
}

/// Floor: pull 10,000 tiny batches from a buffer
///
/// The same stream read with ArrowIpcArrayStreamReaderInit() over the whole of it
/// in memory, zero-copy, with ArrowArrayViewSetArray() on every batch (what
/// IpcReadManyBatchesFromBuffer measures, here in the same program as the push
/// benchmarks): a push decoder cannot beat a reader that has every byte already.
static void FloorPushBufferReaderManyBatches(benchmark::State& state) {
  Run(state, [](const struct ArrowBuffer* bytes) { PullAll(bytes); });
}

BENCHMARK(IpcPushManyBatches64KiB);
BENCHMARK(IpcPushManyBatches64KiBCallbacks);
BENCHMARK(IpcPushManyBatches64KiBHandedOver);
BENCHMARK(IpcPushManyBatches4KiB);
BENCHMARK(FloorPushBufferReaderManyBatches);
BENCHMARK_MAIN();
