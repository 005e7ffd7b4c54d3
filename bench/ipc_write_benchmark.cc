// IPC writing benchmarks: ArrowIpcWriterWriteArrayView() of record batches into
// memory (an ArrowBuffer reused across iterations, as a caller streaming to a
// socket would) or into a file, mirroring the shapes of ipc_read_benchmark.cc.
// FloorMemcpyFloat64 copies the same float64 bytes with memcpy: the write
// benchmarks of large float64 batches read as ratios to it.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

namespace {

void Die(const char* what, const struct ArrowError* error) {
  std::fprintf(stderr, "ipc_write_benchmark: %s: %s\n", what,
               error != nullptr ? error->message : "");
  std::abort();
}

void Check(ArrowErrorCode code, const char* what, const struct ArrowError* error = nullptr) {
  if (code != NANOARROW_OK) Die(what, error);
}

// One record batch (a struct of n_columns columns of type with n_rows rows; value
// of row r in column c: r * 7 + c), written n_batches times per pass.
struct Fixture {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  int64_t n_batches;
  int64_t n_columns;
  int64_t n_rows;
  int64_t value_bytes;  // Bytes of column values written per pass.
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

Fixture* MakeFixture(enum ArrowType type, int64_t n_columns, int64_t n_batches,
                     int64_t n_rows) {
  struct ArrowError error;
  Fixture* fixture = new Fixture();
  ArrowSchemaInit(&fixture->schema);
  Check(ArrowSchemaSetTypeStruct(&fixture->schema, n_columns), "struct schema");
  for (int64_t c = 0; c < n_columns; c++) {
    Check(ArrowSchemaSetType(fixture->schema.children[c], type), "column type");
    std::string column_name = "c" + std::to_string(c);
    Check(ArrowSchemaSetName(fixture->schema.children[c], column_name.c_str()),
          "column name");
  }
  Check(ArrowArrayInitFromSchema(&fixture->array, &fixture->schema, &error), "array init",
        &error);
  for (int64_t c = 0; c < n_columns; c++) {
    AppendColumn(fixture->array.children[c], type, n_rows, c);
  }
  fixture->array.length = n_rows;
  Check(ArrowArrayFinishBuildingDefault(&fixture->array, &error), "finish", &error);
  Check(ArrowArrayViewInitFromSchema(&fixture->view, &fixture->schema, &error),
        "view init", &error);
  Check(ArrowArrayViewSetArray(&fixture->view, &fixture->array, &error), "view set",
        &error);
  fixture->n_batches = n_batches;
  fixture->n_columns = n_columns;
  fixture->n_rows = n_rows;
  fixture->value_bytes =
      n_batches * n_columns * n_rows * (type == NANOARROW_TYPE_INT32 ? 4 : 8);
  return fixture;
}

// Built on first use and kept until exit.
struct Fixtures {
  Fixture* many_batches = MakeFixture(NANOARROW_TYPE_INT32, 1, 10000, 5);
  Fixture* many_columns = MakeFixture(NANOARROW_TYPE_INT32, 10000, 1, 5);
  Fixture* float64 = MakeFixture(NANOARROW_TYPE_DOUBLE, 10, 2, 65536);
  Fixture* float64_long = MakeFixture(NANOARROW_TYPE_DOUBLE, 1, 20, 65536);
  Fixture* float64_wide = MakeFixture(NANOARROW_TYPE_DOUBLE, 1280, 1, 1024);

  ~Fixtures() {
    for (Fixture* f : {many_batches, many_columns, float64, float64_long, float64_wide}) {
      ArrowArrayViewReset(&f->view);
      ArrowArrayRelease(&f->array);
      ArrowSchemaRelease(&f->schema);
      delete f;
    }
  }
};

Fixtures& GetFixtures() {
  static Fixtures fixtures;
  return fixtures;
}

// Schema, n_batches record batches and the end-of-stream marker.
void WriteAll(const Fixture& fixture, struct ArrowIpcOutputStream* output) {
  struct ArrowIpcWriter writer;
  struct ArrowError error;
  Check(ArrowIpcWriterInit(&writer, output), "writer init");
  Check(ArrowIpcWriterWriteSchema(&writer, &fixture.schema, &error), "write schema",
        &error);
  for (int64_t b = 0; b < fixture.n_batches; b++) {
    Check(ArrowIpcWriterWriteArrayView(&writer, &fixture.view, &error), "write batch",
          &error);
  }
  Check(ArrowIpcWriterWriteArrayView(&writer, nullptr, &error), "write end", &error);
  ArrowIpcWriterReset(&writer);
}

void SetCounters(benchmark::State& state, const Fixture& fixture) {
  state.SetBytesProcessed(state.iterations() * fixture.value_bytes);
  state.counters["batches"] = benchmark::Counter(
      static_cast<double>(state.iterations() * fixture.n_batches),
      benchmark::Counter::kIsRate);
  state.counters["columns"] = benchmark::Counter(
      static_cast<double>(state.iterations() * fixture.n_batches * fixture.n_columns),
      benchmark::Counter::kIsRate);
}

void WriteToBuffer(benchmark::State& state, const Fixture& fixture) {
  struct ArrowBuffer bytes;
  ArrowBufferInit(&bytes);
  for (auto _ : state) {
    // The capacity reached by the first pass is kept, as a reused buffer would.
    bytes.size_bytes = 0;
    struct ArrowIpcOutputStream output;
    Check(ArrowIpcOutputStreamInitBuffer(&output, &bytes), "output stream");
    WriteAll(fixture, &output);
    benchmark::DoNotOptimize(bytes.data);
  }
  ArrowBufferReset(&bytes);
  SetCounters(state, fixture);
}

void WriteToFile(benchmark::State& state, const Fixture& fixture) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") +
                     "/nanoarrow_bench_write_" +
                     std::to_string(static_cast<long>(getpid())) + ".arrows";
  for (auto _ : state) {
    FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) Die("opening the output file", nullptr);
    struct ArrowIpcOutputStream output;
    Check(ArrowIpcOutputStreamInitFile(&output, file, 1), "file output");
    WriteAll(fixture, &output);
  }
  std::remove(path.c_str());
  SetCounters(state, fixture);
}

}  // namespace

/// Write 10,000 tiny batches to a buffer
///
/// An IPC stream of 10,000 record batches of one int32 column with 5 values,
/// written into a reused ArrowBuffer with ArrowIpcWriterWriteArrayView() (which
/// validates every batch first). Measures the fixed cost per batch; compare with
/// IpcReadManyBatchesFromBuffer.
static void IpcWriteManyBatchesToBuffer(benchmark::State& state) {
  WriteToBuffer(state, *GetFixtures().many_batches);
}

/// Write 10,000 tiny batches to a file
///
/// The same 10,000 batches of 5 int32 values written through a FILE* output
/// stream to a temporary file.
static void IpcWriteManyBatchesToFile(benchmark::State& state) {
  WriteToFile(state, *GetFixtures().many_batches);
}

/// Write one batch of 10,000 columns to a buffer
///
/// One record batch of 10,000 int32 columns with 5 values each, written into a
/// reused ArrowBuffer. Measures the cost per column.
static void IpcWriteManyColumnsToBuffer(benchmark::State& state) {
  WriteToBuffer(state, *GetFixtures().many_columns);
}

/// Write one batch of 10,000 columns to a file
///
/// The 10,000-column batch written through a FILE* output stream.
static void IpcWriteManyColumnsToFile(benchmark::State& state) {
  WriteToFile(state, *GetFixtures().many_columns);
}

/// Write 10 float64 columns x 2 batches of 65,536 rows to a buffer
///
/// 10 MiB of float64 values in two record batches written into a reused
/// ArrowBuffer: each column's values are copied once, straight from the array
/// into the output. Compare with FloorMemcpyFloat64.
static void IpcWriteFloat64ToBuffer(benchmark::State& state) {
  WriteToBuffer(state, *GetFixtures().float64);
}

/// Write 1 float64 column x 20 batches of 65,536 rows to a buffer
///
/// 10 MiB of float64 values in twenty single-column record batches written into
/// a reused ArrowBuffer.
static void IpcWriteFloat64LongToBuffer(benchmark::State& state) {
  WriteToBuffer(state, *GetFixtures().float64_long);
}

/// Write 1,280 float64 columns x 1,024 rows to a buffer
///
/// 10 MiB of float64 values in one record batch of 1,280 columns (8 KiB each)
/// written into a reused ArrowBuffer.
static void IpcWriteFloat64WideToBuffer(benchmark::State& state) {
  WriteToBuffer(state, *GetFixtures().float64_wide);
}

/// Write 10 float64 columns x 2 batches of 65,536 rows to a file
///
/// The 10 MiB two-batch float64 stream written through a FILE* output stream to a
/// temporary file (tracks file write speed).
static void IpcWriteFloat64ToFile(benchmark::State& state) {
  WriteToFile(state, *GetFixtures().float64);
}

/// Write 1 float64 column x 20 batches of 65,536 rows to a file
///
/// The 10 MiB twenty-batch float64 stream written to a temporary file.
static void IpcWriteFloat64LongToFile(benchmark::State& state) {
  WriteToFile(state, *GetFixtures().float64_long);
}

/// Write 1,280 float64 columns x 1,024 rows to a file
///
/// The 10 MiB 1,280-column float64 batch written to a temporary file.
static void IpcWriteFloat64WideToFile(benchmark::State& state) {
  WriteToFile(state, *GetFixtures().float64_wide);
}

/// Floor: memcpy 10 MiB of float64 values into a buffer
///
/// memcpy() of the bytes of IpcWriteFloat64ToBuffer's values (10 columns x 2
/// batches x 65,536 float64) into a preallocated buffer: the least work any
/// writer of those bytes does.
static void FloorMemcpyFloat64(benchmark::State& state) {
  const Fixture& fixture = *GetFixtures().float64;
  std::vector<uint8_t> out(static_cast<size_t>(fixture.value_bytes));
  const size_t column_bytes = static_cast<size_t>(fixture.n_rows) * sizeof(double);
  for (auto _ : state) {
    uint8_t* dst = out.data();
    for (int64_t b = 0; b < fixture.n_batches; b++) {
      for (int64_t c = 0; c < fixture.n_columns; c++) {
        std::memcpy(dst, fixture.view.children[c]->buffer_views[1].data.data,
                    column_bytes);
        dst += column_bytes;
      }
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * fixture.value_bytes);
}

BENCHMARK(IpcWriteManyBatchesToBuffer);
BENCHMARK(IpcWriteManyBatchesToFile);
BENCHMARK(IpcWriteManyColumnsToBuffer);
BENCHMARK(IpcWriteManyColumnsToFile);
BENCHMARK(IpcWriteFloat64ToBuffer);
BENCHMARK(IpcWriteFloat64LongToBuffer);
BENCHMARK(IpcWriteFloat64WideToBuffer);
BENCHMARK(IpcWriteFloat64ToFile);
BENCHMARK(IpcWriteFloat64LongToFile);
BENCHMARK(IpcWriteFloat64WideToFile);
BENCHMARK(FloorMemcpyFloat64);
BENCHMARK_MAIN();
