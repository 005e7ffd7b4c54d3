// IPC reading benchmarks: the ArrowArrayStream reader over an IPC stream held in
// memory or read from a file, with ArrowArrayViewSetArray() on every batch (what a
// consumer does first). The streams are fixtures written at build time by
// bench/make_fixtures.c with this library's own IPC writer (fixed seed), found in
// $NANOARROW_BENCH_FIXTURES_DIR or else <directory of this program>/fixtures.

#include <benchmark/benchmark.h>

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

namespace {

std::string program_path;  // argv[0], used when /proc/self/exe is unavailable.

std::string FixturesDir() {
  const char* from_env = std::getenv("NANOARROW_BENCH_FIXTURES_DIR");
  if (from_env != nullptr && from_env[0] != '\0') return from_env;
  std::string exe = program_path;
  char link[4096];
  ssize_t n = readlink("/proc/self/exe", link, sizeof(link) - 1);
  if (n > 0) exe.assign(link, static_cast<size_t>(n));
  size_t slash = exe.find_last_of('/');
  return (slash == std::string::npos ? std::string(".") : exe.substr(0, slash)) +
         "/fixtures";
}

// What a benchmark's items/s counts.
enum class Item { kBatch, kColumn, kValue };

// One fixture stream (NAME.arrows): a struct of n_columns columns, n_batches
// batches of n_rows rows, as bench/make_fixtures.c writes it.
struct Fixture {
  const char* name;
  int64_t n_columns;
  int64_t n_batches;
  int64_t n_rows;
  int64_t value_width;  // Bytes per value.
  Item item;

  std::string path;              // Resolved on first use (after main() has run).
  nanoarrow::UniqueBuffer bytes;  // The whole file, once FromBuffer needs it.
  bool loaded = false;
  std::string error;  // Why the fixture cannot be used, once known.

  Fixture(const char* name, int64_t n_columns, int64_t n_batches, int64_t n_rows,
          int64_t value_width, Item item)
      : name(name), n_columns(n_columns), n_batches(n_batches), n_rows(n_rows),
        value_width(value_width), item(item) {}

  const std::string& Path() {
    if (path.empty()) path = FixturesDir() + "/" + name + ".arrows";
    return path;
  }

  int64_t ValueBytes() const { return n_batches * n_columns * n_rows * value_width; }
  int64_t ItemsPerPass() const {
    switch (item) {
      case Item::kBatch:
        return n_batches;
      case Item::kColumn:
        return n_batches * n_columns;
      case Item::kValue:
        break;
    }
    return n_batches * n_columns * n_rows;
  }

  // Reads the file into memory (once); false with error set when it cannot.
  bool Load() {
    if (loaded || !error.empty()) return loaded;
    FILE* file = std::fopen(Path().c_str(), "rb");
    if (file == nullptr) {
      error = MissingMessage();
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
    if (std::ferror(file)) error = "cannot read " + path;
    std::fclose(file);
    loaded = error.empty();
    return loaded;
  }

  std::string MissingMessage() const {
    return "fixture " + path + " missing (" + std::strerror(errno) +
           "): build the default target (bench/make_fixtures) or set "
           "NANOARROW_BENCH_FIXTURES_DIR";
  }
};

Fixture many_batches("many_batches", 1, 10000, 5, 4, Item::kBatch);
Fixture many_columns("many_columns", 10000, 1, 5, 4, Item::kColumn);
Fixture float64("float64", 10, 2, 65536, 8, Item::kValue);
Fixture float64_long("float64_long", 1, 20, 65536, 8, Item::kValue);
Fixture float64_wide("float64_wide", 1280, 1, 1024, 8, Item::kValue);
Fixture float64_zstd("float64_zstd", 10, 2, 65536, 8, Item::kValue);
Fixture float64_lz4("float64_lz4", 10, 2, 65536, 8, Item::kValue);

void KeepBytes(struct ArrowBufferAllocator*, uint8_t*, int64_t) {}

// Throws nanoarrow::Exception with the fixture's path and what went wrong.
[[noreturn]] void Fail(const Fixture& fixture, const std::string& what) {
  throw nanoarrow::Exception(fixture.path + ": " + what);
}

// NANOARROW_THROW_NOT_OK for calls that explain themselves in error.
void ThrowNotOk(ArrowErrorCode code, const Fixture& fixture, const struct ArrowError& error) {
  if (code != NANOARROW_OK) Fail(fixture, error.message);
}

// Reads the whole stream from input (taking it over), viewing every batch; checks
// the fixture's shape. Throws nanoarrow::Exception on any error.
void ReadAll(struct ArrowIpcInputStream* input, const Fixture& fixture) {
  struct ArrowIpcArrayStreamReaderOptions options;
  options.field_index = -1;
  options.use_shared_buffers = 1;
  nanoarrow::UniqueArrayStream stream;
  NANOARROW_THROW_NOT_OK(ArrowIpcArrayStreamReaderInit(stream.get(), input, &options));
  struct ArrowError error;
  ArrowErrorInit(&error);
  nanoarrow::UniqueSchema schema;
  ThrowNotOk(ArrowArrayStreamGetSchema(stream.get(), schema.get(), &error), fixture, error);
  nanoarrow::UniqueArrayView view;
  ThrowNotOk(ArrowArrayViewInitFromSchema(view.get(), schema.get(), &error), fixture,
             error);
  if (schema->n_children != fixture.n_columns) {
    Fail(fixture, "expected " + std::to_string(fixture.n_columns) +
                      " columns, the fixture has " + std::to_string(schema->n_children));
  }
  int64_t n_batches = 0;
  ArrowErrorCode code;
  // Each batch is released when the loop moves on to the next one.
  for (struct ArrowArray& array : nanoarrow::ViewArrayStream(stream.get(), &code, &error)) {
    ThrowNotOk(ArrowArrayViewSetArray(view.get(), &array, &error), fixture, error);
    benchmark::DoNotOptimize(view->children[0]->buffer_views[1].data.data);
    n_batches++;
  }
  ThrowNotOk(code, fixture, error);
  if (n_batches != fixture.n_batches) {
    Fail(fixture, "expected " + std::to_string(fixture.n_batches) + " batches, read " +
                      std::to_string(n_batches));
  }
}

// An input stream over the loaded bytes without copying them (the buffer's
// deallocator leaves the fixture alone).
ArrowErrorCode InitBufferInput(Fixture& fixture, struct ArrowIpcInputStream* input) {
  struct ArrowBuffer borrowed;
  ArrowBufferInit(&borrowed);
  NANOARROW_RETURN_NOT_OK(
      ArrowBufferSetAllocator(&borrowed, ArrowBufferDeallocator(&KeepBytes, nullptr)));
  borrowed.data = fixture.bytes->data;
  borrowed.size_bytes = fixture.bytes->size_bytes;
  borrowed.capacity_bytes = fixture.bytes->size_bytes;
  return ArrowIpcInputStreamInitBuffer(input, &borrowed);
}

enum class Source { kBuffer, kFile };

void ReadFixture(benchmark::State& state, Fixture& fixture, Source source) {
  if (source == Source::kBuffer ? !fixture.Load() : access(fixture.Path().c_str(), R_OK) != 0) {
    if (fixture.error.empty()) fixture.error = fixture.MissingMessage();
    state.SkipWithError(fixture.error.c_str());
    return;
  }
  try {
    for (auto _ : state) {
      // Released here only when the reader did not take it over.
      nanoarrow::ipc::UniqueInputStream input;
      if (source == Source::kBuffer) {
        NANOARROW_THROW_NOT_OK(InitBufferInput(fixture, input.get()));
      } else {
        FILE* file = std::fopen(fixture.path.c_str(), "rb");
        if (file == nullptr) throw nanoarrow::Exception(fixture.MissingMessage());
        if (ArrowIpcInputStreamInitFile(input.get(), file, 1) != NANOARROW_OK) {
          std::fclose(file);
          Fail(fixture, "cannot create the file input stream");
        }
      }
      ReadAll(input.get(), fixture);
    }
  } catch (const nanoarrow::Exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  state.SetItemsProcessed(state.iterations() * fixture.ItemsPerPass());
  state.SetBytesProcessed(state.iterations() * fixture.ValueBytes());
  state.counters["batches"] = benchmark::Counter(
      static_cast<double>(state.iterations() * fixture.n_batches),
      benchmark::Counter::kIsRate);
  state.counters["columns"] = benchmark::Counter(
      static_cast<double>(state.iterations() * fixture.n_batches * fixture.n_columns),
      benchmark::Counter::kIsRate);
}

}  // namespace

/// Read 10,000 tiny batches from a buffer
///
/// The many_batches stream (10,000 record batches of one int32 column with 5
/// values) loaded into memory once, then read through ArrowIpcArrayStreamReaderInit()
/// with shared buffers (zero-copy: arrays point into the input), with
/// ArrowArrayViewSetArray() on every batch. Measures the fixed cost per batch;
/// items are batches.
static void IpcReadManyBatchesFromBuffer(benchmark::State& state) {
  ReadFixture(state, many_batches, Source::kBuffer);
}

/// Read 10,000 tiny batches from a file
///
/// The same 10,000 batches of 5 int32 values read from the fixture file through an
/// ArrowIpcInputStreamInitFile() input stream, with ArrowArrayViewSetArray() on
/// every batch; items are batches.
static void IpcReadManyBatchesFromFile(benchmark::State& state) {
  ReadFixture(state, many_batches, Source::kFile);
}

/// Read one batch of 10,000 columns from a buffer
///
/// The many_columns stream (one record batch of 10,000 int32 columns with 5 values
/// each) read from memory zero-copy, with ArrowArrayViewSetArray() on the batch.
/// Measures the cost per column; items are columns.
static void IpcReadManyColumnsFromBuffer(benchmark::State& state) {
  ReadFixture(state, many_columns, Source::kBuffer);
}

/// Read one batch of 10,000 columns from a file
///
/// The 10,000-column batch read from the fixture file through an
/// ArrowIpcInputStreamInitFile() input stream, with ArrowArrayViewSetArray() on the
/// batch; items are columns.
static void IpcReadManyColumnsFromFile(benchmark::State& state) {
  ReadFixture(state, many_columns, Source::kFile);
}

/// Read 10 float64 columns x 2 batches of 65,536 rows from a buffer
///
/// 10 MiB of float64 values in two record batches, read from memory zero-copy with
/// ArrowArrayViewSetArray() on each batch: the time should not depend on the number
/// of bytes, so it beats the memcpy floor by far.
static void IpcReadFloat64FromBuffer(benchmark::State& state) {
  ReadFixture(state, float64, Source::kBuffer);
}

/// Read 1 float64 column x 20 batches of 65,536 rows from a buffer
///
/// 10 MiB of float64 values in twenty single-column record batches, read from
/// memory zero-copy with ArrowArrayViewSetArray() on each batch.
static void IpcReadFloat64LongFromBuffer(benchmark::State& state) {
  ReadFixture(state, float64_long, Source::kBuffer);
}

/// Read 1,280 float64 columns x 1,024 rows from a buffer
///
/// 10 MiB of float64 values in one record batch of 1,280 columns, read from memory
/// zero-copy with ArrowArrayViewSetArray() on the batch.
static void IpcReadFloat64WideFromBuffer(benchmark::State& state) {
  ReadFixture(state, float64_wide, Source::kBuffer);
}

/// Read the ZSTD-compressed float64 stream from a buffer
///
/// The 10 float64 columns x 2 batches of 65,536 rows, every body buffer compressed
/// with ZSTD by the writer, read from memory: each buffer is decompressed into new
/// memory, then ArrowArrayViewSetArray() on each batch. Needs a library built with
/// NANOARROW_IPC_WITH_ZSTD.
static void IpcReadFloat64ZstdFromBuffer(benchmark::State& state) {
  ReadFixture(state, float64_zstd, Source::kBuffer);
}

/// Read the LZ4-compressed float64 stream from a buffer
///
/// The 10 float64 columns x 2 batches of 65,536 rows, every body buffer compressed
/// as an LZ4 frame by the writer, read from memory: each buffer is decompressed
/// into new memory, then ArrowArrayViewSetArray() on each batch. Needs a library
/// built with NANOARROW_IPC_WITH_LZ4.
static void IpcReadFloat64Lz4FromBuffer(benchmark::State& state) {
  ReadFixture(state, float64_lz4, Source::kBuffer);
}

/// Read 10 float64 columns x 2 batches of 65,536 rows from a file
///
/// The 10 MiB two-batch float64 stream read from the fixture file through an
/// ArrowIpcInputStreamInitFile() input stream (every body is read into memory, so
/// this tracks file read speed; compare with the memcpy floor).
static void IpcReadFloat64FromFile(benchmark::State& state) {
  ReadFixture(state, float64, Source::kFile);
}

/// Read 1 float64 column x 20 batches of 65,536 rows from a file
///
/// The 10 MiB twenty-batch float64 stream read from the fixture file through an
/// ArrowIpcInputStreamInitFile() input stream.
static void IpcReadFloat64LongFromFile(benchmark::State& state) {
  ReadFixture(state, float64_long, Source::kFile);
}

/// Read 1,280 float64 columns x 1,024 rows from a file
///
/// The 10 MiB 1,280-column float64 batch read from the fixture file through an
/// ArrowIpcInputStreamInitFile() input stream.
static void IpcReadFloat64WideFromFile(benchmark::State& state) {
  ReadFixture(state, float64_wide, Source::kFile);
}

/// Floor: memcpy 10 MiB of float64 values
///
/// One memcpy() of the 1,310,720 float64 values (10 MiB) each float64 fixture holds
/// into a second buffer: what reading them costs when every byte is copied once.
static void FloorMemcpyFloat64Read(benchmark::State& state) {
  const int64_t n_values = float64.n_batches * float64.n_columns * float64.n_rows;
  std::vector<double> in(static_cast<size_t>(n_values));
  for (int64_t i = 0; i < n_values; i++) in[i] = static_cast<double>(i % 4096) / 16.0;
  std::vector<double> out(in.size());
  for (auto _ : state) {
    const double* src = in.data();
    benchmark::DoNotOptimize(src);
    std::memcpy(out.data(), src, in.size() * sizeof(double));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n_values);
  state.SetBytesProcessed(state.iterations() * n_values * 8);
}

BENCHMARK(IpcReadManyBatchesFromBuffer);
BENCHMARK(IpcReadManyBatchesFromFile);
BENCHMARK(IpcReadManyColumnsFromBuffer);
BENCHMARK(IpcReadManyColumnsFromFile);
BENCHMARK(IpcReadFloat64FromBuffer);
BENCHMARK(IpcReadFloat64LongFromBuffer);
BENCHMARK(IpcReadFloat64WideFromBuffer);
BENCHMARK(IpcReadFloat64ZstdFromBuffer);
BENCHMARK(IpcReadFloat64Lz4FromBuffer);
BENCHMARK(IpcReadFloat64FromFile);
BENCHMARK(IpcReadFloat64LongFromFile);
BENCHMARK(IpcReadFloat64WideFromFile);
BENCHMARK(FloorMemcpyFloat64Read);

int main(int argc, char** argv) {
  program_path = argv[0];
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
