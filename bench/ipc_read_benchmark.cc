// IPC reading benchmarks: the ArrowArrayStream reader over an IPC stream held in
// memory or in a file, with ArrowArrayViewSetArray() on every batch (what a
// consumer does first). Fixtures are written at startup by this library's own
// IPC writer from deterministic values, so nothing is committed or downloaded.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

namespace {

void Die(const char* what, const struct ArrowError* error) {
  std::fprintf(stderr, "ipc_read_benchmark: %s: %s\n", what,
               error != nullptr ? error->message : "");
  std::abort();
}

void Check(ArrowErrorCode code, const char* what, const struct ArrowError* error = nullptr) {
  if (code != NANOARROW_OK) Die(what, error);
}

// One IPC stream: a struct of n_columns columns of type, n_batches batches of
// n_rows rows each (value of row r in column c: r * 7 + c, the same every batch).
struct Fixture {
  struct ArrowBuffer bytes;
  std::string path;  // The same bytes in a temporary file.
  int64_t n_batches;
  int64_t n_columns;
  int64_t n_rows;
  int64_t value_bytes;  // Bytes of column values read per pass.
};

void AppendColumn(struct ArrowArray* column, enum ArrowType type, int64_t n_rows,
                  int64_t c) {
  Check(ArrowArrayStartAppending(column), "start appending");
  Check(ArrowArrayReserve(column, n_rows), "reserve");
  for (int64_t r = 0; r < n_rows; r++) {
    if (type == NANOARROW_TYPE_INT32) {
      Check(ArrowArrayAppendInt(column, r * 7 + c), "append");
    } else {
      Check(ArrowArrayAppendDouble(column, static_cast<double>(r * 7 + c) / 8.0), "append");
    }
  }
}

Fixture MakeFixture(const char* name, enum ArrowType type, int64_t n_columns,
                    int64_t n_batches, int64_t n_rows) {
  struct ArrowError error;
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  Check(ArrowSchemaSetTypeStruct(&schema, n_columns), "struct schema");
  for (int64_t c = 0; c < n_columns; c++) {
    Check(ArrowSchemaSetType(schema.children[c], type), "column type");
    std::string column_name = "c" + std::to_string(c);
    Check(ArrowSchemaSetName(schema.children[c], column_name.c_str()), "column name");
  }

  struct ArrowArray array;
  Check(ArrowArrayInitFromSchema(&array, &schema, &error), "array init", &error);
  for (int64_t c = 0; c < n_columns; c++) {
    AppendColumn(array.children[c], type, n_rows, c);
  }
  array.length = n_rows;
  Check(ArrowArrayFinishBuildingDefault(&array, &error), "finish", &error);
  struct ArrowArrayView view;
  Check(ArrowArrayViewInitFromSchema(&view, &schema, &error), "view init", &error);
  Check(ArrowArrayViewSetArray(&view, &array, &error), "view set", &error);

  Fixture fixture;
  ArrowBufferInit(&fixture.bytes);
  struct ArrowIpcOutputStream output;
  Check(ArrowIpcOutputStreamInitBuffer(&output, &fixture.bytes), "output stream");
  struct ArrowIpcWriter writer;
  Check(ArrowIpcWriterInit(&writer, &output), "writer init");
  Check(ArrowIpcWriterWriteSchema(&writer, &schema, &error), "write schema", &error);
  for (int64_t b = 0; b < n_batches; b++) {
    Check(ArrowIpcWriterWriteArrayView(&writer, &view, &error), "write batch", &error);
  }
  Check(ArrowIpcWriterWriteArrayView(&writer, nullptr, &error), "write end", &error);
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);

  const char* tmp = std::getenv("TMPDIR");
  fixture.path = std::string(tmp != nullptr ? tmp : "/tmp") + "/nanoarrow_bench_" +
                 name + "_" + std::to_string(static_cast<long>(getpid())) + ".arrows";
  FILE* file = std::fopen(fixture.path.c_str(), "wb");
  if (file == nullptr ||
      std::fwrite(fixture.bytes.data, 1, static_cast<size_t>(fixture.bytes.size_bytes),
                  file) != static_cast<size_t>(fixture.bytes.size_bytes) ||
      std::fclose(file) != 0) {
    Die("writing the fixture file", nullptr);
  }
  fixture.n_batches = n_batches;
  fixture.n_columns = n_columns;
  fixture.n_rows = n_rows;
  fixture.value_bytes = n_batches * n_columns * n_rows *
                        (type == NANOARROW_TYPE_INT32 ? 4 : 8);
  return fixture;
}

// Built on first use and kept (with their files removed at exit).
struct Fixtures {
  Fixture many_batches = MakeFixture("many_batches", NANOARROW_TYPE_INT32, 1, 10000, 5);
  Fixture many_columns = MakeFixture("many_columns", NANOARROW_TYPE_INT32, 10000, 1, 5);
  Fixture float64 = MakeFixture("float64", NANOARROW_TYPE_DOUBLE, 10, 2, 65536);
  Fixture float64_long = MakeFixture("float64_long", NANOARROW_TYPE_DOUBLE, 1, 20, 65536);
  Fixture float64_wide = MakeFixture("float64_wide", NANOARROW_TYPE_DOUBLE, 1280, 1, 1024);

  ~Fixtures() {
    for (Fixture* f : {&many_batches, &many_columns, &float64, &float64_long, &float64_wide}) {
      std::remove(f->path.c_str());
      ArrowBufferReset(&f->bytes);
    }
  }
};

Fixtures& GetFixtures() {
  static Fixtures fixtures;
  return fixtures;
}

void KeepBytes(struct ArrowBufferAllocator*, uint8_t*, int64_t) {}

// An input stream over the fixture's bytes without copying them (the buffer's
// deallocator leaves the fixture alone).
void InitBufferInput(const Fixture& fixture, struct ArrowIpcInputStream* input) {
  struct ArrowBuffer borrowed;
  ArrowBufferInit(&borrowed);
  Check(ArrowBufferSetAllocator(&borrowed, ArrowBufferDeallocator(&KeepBytes, nullptr)),
        "borrowed buffer");
  borrowed.data = fixture.bytes.data;
  borrowed.size_bytes = fixture.bytes.size_bytes;
  borrowed.capacity_bytes = fixture.bytes.size_bytes;
  Check(ArrowIpcInputStreamInitBuffer(input, &borrowed), "buffer input");
}

void InitFileInput(const Fixture& fixture, struct ArrowIpcInputStream* input) {
  FILE* file = std::fopen(fixture.path.c_str(), "rb");
  if (file == nullptr) Die("opening the fixture file", nullptr);
  Check(ArrowIpcInputStreamInitFile(input, file, 1), "file input");
}

// Reads the whole stream, viewing every batch; returns the number of batches.
int64_t ReadAll(struct ArrowIpcInputStream* input, struct ArrowArrayView* view) {
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowError error;
  Check(ArrowIpcArrayStreamReaderInit(&stream, input, nullptr), "reader init");
  Check(ArrowArrayStreamGetSchema(&stream, &schema, &error), "get schema", &error);
  Check(ArrowArrayViewInitFromSchema(view, &schema, &error), "view init", &error);
  int64_t n_batches = 0;
  for (;;) {
    struct ArrowArray array;
    Check(ArrowArrayStreamGetNext(&stream, &array, &error), "get next", &error);
    if (array.release == nullptr) break;
    Check(ArrowArrayViewSetArray(view, &array, &error), "view set", &error);
    benchmark::DoNotOptimize(view->children[0]->buffer_views[1].data.data);
    ArrowArrayRelease(&array);
    n_batches++;
  }
  ArrowArrayViewReset(view);
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
  return n_batches;
}

enum class Source { kBuffer, kFile };

void ReadFixture(benchmark::State& state, const Fixture& fixture, Source source) {
  struct ArrowArrayView view;
  int64_t n_batches = 0;
  for (auto _ : state) {
    struct ArrowIpcInputStream input;
    if (source == Source::kBuffer) {
      InitBufferInput(fixture, &input);
    } else {
      InitFileInput(fixture, &input);
    }
    n_batches = ReadAll(&input, &view);
  }
  if (n_batches != fixture.n_batches) state.SkipWithError("wrong number of batches");
  state.SetBytesProcessed(state.iterations() * fixture.value_bytes);
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
/// An IPC stream of 10,000 record batches of one int32 column with 5 values, read
/// from memory through ArrowIpcArrayStreamReaderInit() (zero-copy: arrays point
/// into the input) with ArrowArrayViewSetArray() on every batch. Measures the
/// fixed cost per batch.
static void IpcReadManyBatchesFromBuffer(benchmark::State& state) {
  ReadFixture(state, GetFixtures().many_batches, Source::kBuffer);
}

/// Read 10,000 tiny batches from a file
///
/// The same 10,000 batches of 5 int32 values read from a temporary file through a
/// FILE* input stream (each message read into memory), with
/// ArrowArrayViewSetArray() on every batch.
static void IpcReadManyBatchesFromFile(benchmark::State& state) {
  ReadFixture(state, GetFixtures().many_batches, Source::kFile);
}

/// Read one batch of 10,000 columns from a buffer
///
/// One record batch of 10,000 int32 columns with 5 values each, read from memory
/// with ArrowArrayViewSetArray() on the batch. Measures the cost per column.
static void IpcReadManyColumnsFromBuffer(benchmark::State& state) {
  ReadFixture(state, GetFixtures().many_columns, Source::kBuffer);
}

/// Read one batch of 10,000 columns from a file
///
/// The 10,000-column batch read from a temporary file through a FILE* input
/// stream, with ArrowArrayViewSetArray() on the batch.
static void IpcReadManyColumnsFromFile(benchmark::State& state) {
  ReadFixture(state, GetFixtures().many_columns, Source::kFile);
}

/// Read 10 float64 columns x 2 batches of 65,536 rows from a buffer
///
/// 10 MiB of float64 values in two record batches, read from memory zero-copy:
/// the time should not depend on the number of bytes.
static void IpcReadFloat64FromBuffer(benchmark::State& state) {
  ReadFixture(state, GetFixtures().float64, Source::kBuffer);
}

/// Read 1 float64 column x 20 batches of 65,536 rows from a buffer
///
/// 10 MiB of float64 values in twenty single-column record batches, read from
/// memory zero-copy.
static void IpcReadFloat64LongFromBuffer(benchmark::State& state) {
  ReadFixture(state, GetFixtures().float64_long, Source::kBuffer);
}

/// Read 1,280 float64 columns x 1,024 rows from a buffer
///
/// 10 MiB of float64 values in one record batch of 1,280 columns, read from memory
/// zero-copy.
static void IpcReadFloat64WideFromBuffer(benchmark::State& state) {
  ReadFixture(state, GetFixtures().float64_wide, Source::kBuffer);
}

/// Read 10 float64 columns x 2 batches of 65,536 rows from a file
///
/// The 10 MiB two-batch float64 stream read from a temporary file (every body is
/// read into memory, so this tracks file read speed).
static void IpcReadFloat64FromFile(benchmark::State& state) {
  ReadFixture(state, GetFixtures().float64, Source::kFile);
}

/// Read 1 float64 column x 20 batches of 65,536 rows from a file
///
/// The 10 MiB twenty-batch float64 stream read from a temporary file.
static void IpcReadFloat64LongFromFile(benchmark::State& state) {
  ReadFixture(state, GetFixtures().float64_long, Source::kFile);
}

/// Read 1,280 float64 columns x 1,024 rows from a file
///
/// The 10 MiB 1,280-column float64 batch read from a temporary file.
static void IpcReadFloat64WideFromFile(benchmark::State& state) {
  ReadFixture(state, GetFixtures().float64_wide, Source::kFile);
}

BENCHMARK(IpcReadManyBatchesFromBuffer);
BENCHMARK(IpcReadManyBatchesFromFile);
BENCHMARK(IpcReadManyColumnsFromBuffer);
BENCHMARK(IpcReadManyColumnsFromFile);
BENCHMARK(IpcReadFloat64FromBuffer);
BENCHMARK(IpcReadFloat64LongFromBuffer);
BENCHMARK(IpcReadFloat64WideFromBuffer);
BENCHMARK(IpcReadFloat64FromFile);
BENCHMARK(IpcReadFloat64LongFromFile);
BENCHMARK(IpcReadFloat64WideFromFile);
BENCHMARK_MAIN();
