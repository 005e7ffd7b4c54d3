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

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_ipc.hpp"

namespace {

// NANOARROW_THROW_NOT_OK for calls that explain themselves in error.
void Check(ArrowErrorCode code, const char* what, const struct ArrowError& error) {
  if (code != NANOARROW_OK) {
    throw nanoarrow::Exception(std::string(what) + ": " + error.message);
  }
}

// One record batch (a struct of n_columns columns of type with n_rows rows; value
// of row r in column c: r * 7 + c), written n_batches times per pass. Throws
// nanoarrow::Exception when it cannot be built.
struct Fixture {
  nanoarrow::UniqueSchema schema;
  nanoarrow::UniqueArray array;
  nanoarrow::UniqueArrayView view;
  int64_t n_batches;
  int64_t n_columns;
  int64_t n_rows;
  int64_t value_bytes;  // Bytes of column values written per pass.

  Fixture(enum ArrowType type, int64_t n_columns, int64_t n_batches, int64_t n_rows)
      : n_batches(n_batches), n_columns(n_columns), n_rows(n_rows),
        value_bytes(n_batches * n_columns * n_rows * (type == NANOARROW_TYPE_INT32 ? 4 : 8)) {
    struct ArrowError error;
    ArrowErrorInit(&error);
    ArrowSchemaInit(schema.get());
    NANOARROW_THROW_NOT_OK(ArrowSchemaSetTypeStruct(schema.get(), n_columns));
    for (int64_t c = 0; c < n_columns; c++) {
      NANOARROW_THROW_NOT_OK(ArrowSchemaSetType(schema->children[c], type));
      std::string column_name = "c" + std::to_string(c);
      NANOARROW_THROW_NOT_OK(ArrowSchemaSetName(schema->children[c], column_name.c_str()));
    }
    Check(ArrowArrayInitFromSchema(array.get(), schema.get(), &error), "array init", error);
    for (int64_t c = 0; c < n_columns; c++) {
      AppendColumn(array->children[c], type, n_rows, c);
    }
    array->length = n_rows;
    Check(ArrowArrayFinishBuildingDefault(array.get(), &error), "finish", error);
    Check(ArrowArrayViewInitFromSchema(view.get(), schema.get(), &error), "view init",
          error);
    Check(ArrowArrayViewSetArray(view.get(), array.get(), &error), "view set", error);
  }

 private:
  static void AppendColumn(struct ArrowArray* column, enum ArrowType type, int64_t n_rows,
                           int64_t c) {
    NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(column));
    NANOARROW_THROW_NOT_OK(ArrowArrayReserve(column, n_rows));
    for (int64_t r = 0; r < n_rows; r++) {
      if (type == NANOARROW_TYPE_INT32) {
        NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(column, r * 7 + c));
      } else {
        NANOARROW_THROW_NOT_OK(
            ArrowArrayAppendDouble(column, static_cast<double>(r * 7 + c) / 8.0));
      }
    }
  }
};

// Built on first use and kept until exit.
struct Fixtures {
  Fixture many_batches{NANOARROW_TYPE_INT32, 1, 10000, 5};
  Fixture many_columns{NANOARROW_TYPE_INT32, 10000, 1, 5};
  Fixture float64{NANOARROW_TYPE_DOUBLE, 10, 2, 65536};
  Fixture float64_long{NANOARROW_TYPE_DOUBLE, 1, 20, 65536};
  Fixture float64_wide{NANOARROW_TYPE_DOUBLE, 1280, 1, 1024};
};

Fixtures& GetFixtures() {
  static Fixtures fixtures;
  return fixtures;
}

// Runs body (setup and timed loop); a failure, thrown as nanoarrow::Exception, skips
// the benchmark with its message instead of ending the whole run.
template <typename Body>
void SkipOnError(benchmark::State& state, Body body) {
  try {
    body();
  } catch (const nanoarrow::Exception& e) {
    state.SkipWithError(e.what());
  }
}

// Schema, n_batches record batches and the end-of-stream marker, through a writer
// that takes output over.
void WriteAll(const Fixture& fixture, struct ArrowIpcOutputStream* output) {
  nanoarrow::ipc::UniqueWriter writer;
  struct ArrowError error;
  ArrowErrorInit(&error);
  NANOARROW_THROW_NOT_OK(ArrowIpcWriterInit(writer.get(), output));
  Check(ArrowIpcWriterWriteSchema(writer.get(), fixture.schema.get(), &error),
        "write schema", error);
  for (int64_t b = 0; b < fixture.n_batches; b++) {
    Check(ArrowIpcWriterWriteArrayView(writer.get(), fixture.view.get(), &error),
          "write batch", error);
  }
  Check(ArrowIpcWriterWriteArrayView(writer.get(), nullptr, &error), "write end", error);
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

// which names the fixture: GetFixtures() is called inside the guard, so that a
// failure to build the fixtures skips the benchmark.
void WriteToBuffer(benchmark::State& state, Fixture Fixtures::*which) {
  SkipOnError(state, [&] {
    const Fixture& fixture = GetFixtures().*which;
    nanoarrow::UniqueBuffer bytes;
    for (auto _ : state) {
      // The capacity reached by the first pass is kept, as a reused buffer would.
      bytes->size_bytes = 0;
      // The stream appends to bytes without owning it.
      nanoarrow::ipc::UniqueOutputStream output;
      NANOARROW_THROW_NOT_OK(ArrowIpcOutputStreamInitBuffer(output.get(), bytes.get()));
      WriteAll(fixture, output.get());
      benchmark::DoNotOptimize(bytes->data);
    }
    SetCounters(state, fixture);
  });
}

void WriteToFile(benchmark::State& state, Fixture Fixtures::*which) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") +
                     "/nanoarrow_bench_write_" +
                     std::to_string(static_cast<long>(getpid())) + ".arrows";
  SkipOnError(state, [&] {
    const Fixture& fixture = GetFixtures().*which;
    for (auto _ : state) {
      FILE* file = std::fopen(path.c_str(), "wb");
      if (file == nullptr) throw nanoarrow::Exception("cannot open " + path);
      // Closes file when released, by the writer that takes it over or by this owner.
      nanoarrow::ipc::UniqueOutputStream output;
      if (ArrowIpcOutputStreamInitFile(output.get(), file, 1) != NANOARROW_OK) {
        std::fclose(file);
        throw nanoarrow::Exception("cannot create the file output stream");
      }
      WriteAll(fixture, output.get());
    }
    SetCounters(state, fixture);
  });
  std::remove(path.c_str());
}

}  // namespace

/// Write 10,000 tiny batches to a buffer
///
/// An IPC stream of 10,000 record batches of one int32 column with 5 values,
/// written into a reused ArrowBuffer with ArrowIpcWriterWriteArrayView() (which
/// validates every batch first). Measures the fixed cost per batch; compare with
/// IpcReadManyBatchesFromBuffer.
static void IpcWriteManyBatchesToBuffer(benchmark::State& state) {
  WriteToBuffer(state, &Fixtures::many_batches);
}

/// Write 10,000 tiny batches to a file
///
/// The same 10,000 batches of 5 int32 values written through a FILE* output
/// stream to a temporary file.
static void IpcWriteManyBatchesToFile(benchmark::State& state) {
  WriteToFile(state, &Fixtures::many_batches);
}

/// Write one batch of 10,000 columns to a buffer
///
/// One record batch of 10,000 int32 columns with 5 values each, written into a
/// reused ArrowBuffer. Measures the cost per column.
static void IpcWriteManyColumnsToBuffer(benchmark::State& state) {
  WriteToBuffer(state, &Fixtures::many_columns);
}

/// Write one batch of 10,000 columns to a file
///
/// The 10,000-column batch written through a FILE* output stream.
static void IpcWriteManyColumnsToFile(benchmark::State& state) {
  WriteToFile(state, &Fixtures::many_columns);
}

/// Write 10 float64 columns x 2 batches of 65,536 rows to a buffer
///
/// 10 MiB of float64 values in two record batches written into a reused
/// ArrowBuffer: each column's values are copied once, straight from the array
/// into the output. Compare with FloorMemcpyFloat64.
static void IpcWriteFloat64ToBuffer(benchmark::State& state) {
  WriteToBuffer(state, &Fixtures::float64);
}

/// Write 1 float64 column x 20 batches of 65,536 rows to a buffer
///
/// 10 MiB of float64 values in twenty single-column record batches written into
/// a reused ArrowBuffer.
static void IpcWriteFloat64LongToBuffer(benchmark::State& state) {
  WriteToBuffer(state, &Fixtures::float64_long);
}

/// Write 1,280 float64 columns x 1,024 rows to a buffer
///
/// 10 MiB of float64 values in one record batch of 1,280 columns (8 KiB each)
/// written into a reused ArrowBuffer.
static void IpcWriteFloat64WideToBuffer(benchmark::State& state) {
  WriteToBuffer(state, &Fixtures::float64_wide);
}

/// Write 10 float64 columns x 2 batches of 65,536 rows to a file
///
/// The 10 MiB two-batch float64 stream written through a FILE* output stream to a
/// temporary file (tracks file write speed).
static void IpcWriteFloat64ToFile(benchmark::State& state) {
  WriteToFile(state, &Fixtures::float64);
}

/// Write 1 float64 column x 20 batches of 65,536 rows to a file
///
/// The 10 MiB twenty-batch float64 stream written to a temporary file.
static void IpcWriteFloat64LongToFile(benchmark::State& state) {
  WriteToFile(state, &Fixtures::float64_long);
}

/// Write 1,280 float64 columns x 1,024 rows to a file
///
/// The 10 MiB 1,280-column float64 batch written to a temporary file.
static void IpcWriteFloat64WideToFile(benchmark::State& state) {
  WriteToFile(state, &Fixtures::float64_wide);
}

/// Floor: memcpy 10 MiB of float64 values into a buffer
///
/// memcpy() of the bytes of IpcWriteFloat64ToBuffer's values (10 columns x 2
/// batches x 65,536 float64) into a preallocated buffer: the least work any
/// writer of those bytes does.
static void FloorMemcpyFloat64(benchmark::State& state) {
  SkipOnError(state, [&] {
    const Fixture& fixture = GetFixtures().float64;
    std::vector<uint8_t> out(static_cast<size_t>(fixture.value_bytes));
    const size_t column_bytes = static_cast<size_t>(fixture.n_rows) * sizeof(double);
    for (auto _ : state) {
      uint8_t* dst = out.data();
      for (int64_t b = 0; b < fixture.n_batches; b++) {
        for (int64_t c = 0; c < fixture.n_columns; c++) {
          std::memcpy(dst, fixture.view->children[c]->buffer_views[1].data.data,
                      column_bytes);
          dst += column_bytes;
        }
      }
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * fixture.value_bytes);
  });
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
