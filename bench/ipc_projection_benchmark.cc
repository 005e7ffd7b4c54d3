// Column projection benchmarks: 1 of 100 int64 columns read from an IPC file
// through a FILE* (ArrowIpcFileReaderInitFile + ArrowIpcFileReaderSetProjection),
// beside reading every column of the same file and beside a floor (fseek + fread
// of as many bytes, in as many pieces, as the selected column holds).
//
// The file is written when the benchmark starts (this library's IPC writer), into
// $NANOARROW_BENCH_PROJECTION_DIR (default $TMPDIR, else /tmp), and removed at
// exit. Its size is $NANOARROW_BENCH_PROJECTION_MB megabytes (default 64, small
// enough for CI's quick run; the figure is at 1024). The file stays in the
// page cache, so what is timed is the reader, not the disk.
//
// Counters: bytes_read (the reader's ArrowIpcFileReaderBytesRead per pass),
// selected_bytes (the column's values), read_ratio = bytes_read / (selected_bytes +
// metadata bytes, everything in the file but the record batch bodies).

#include <benchmark/benchmark.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

namespace {

constexpr int64_t kColumns = 100;
constexpr int64_t kRowsPerBatch = 16384;
constexpr int64_t kSelected = 37;

struct WideFile {
  std::string path;
  int64_t n_batches = 0;
  int64_t file_size = 0;
  int64_t metadata_bytes = 0;
  std::string error;
  bool made = false;

  ~WideFile() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

WideFile& TheFile() {
  static WideFile file;
  return file;
}

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || value[0] == '\0') return fallback;
  return std::strtoll(value, nullptr, 10);
}

// Writes the file once (n_batches batches of kRowsPerBatch rows of kColumns int64s).
WideFile& MakeFile() {
  WideFile& out = TheFile();
  if (out.made) return out;
  out.made = true;
  int64_t megabytes = EnvInt("NANOARROW_BENCH_PROJECTION_MB", 64);
  int64_t batch_bytes = kColumns * kRowsPerBatch * 8;
  out.n_batches = (megabytes * 1024 * 1024 + batch_bytes - 1) / batch_bytes;
  if (out.n_batches < 1) out.n_batches = 1;

  const char* dir = std::getenv("NANOARROW_BENCH_PROJECTION_DIR");
  if (dir == nullptr || dir[0] == '\0') dir = std::getenv("TMPDIR");
  if (dir == nullptr || dir[0] == '\0') dir = "/tmp";
  out.path = std::string(dir) + "/nanoarrow_projection_" + std::to_string(getpid()) + ".arrow";

  struct ArrowError error;
  error.message[0] = '\0';
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  FILE* file = std::fopen(out.path.c_str(), "wb");
  if (file == nullptr) {
    out.error = "cannot create " + out.path;
    out.path.clear();
    return out;
  }
  ArrowSchemaInit(&schema);
  int rc = ArrowSchemaSetTypeStruct(&schema, kColumns);
  for (int64_t c = 0; rc == NANOARROW_OK && c < kColumns; c++) {
    rc = ArrowSchemaSetType(schema.children[c], NANOARROW_TYPE_INT64);
    std::string name = "c" + std::to_string(c);
    if (rc == NANOARROW_OK) rc = ArrowSchemaSetName(schema.children[c], name.c_str());
  }
  if (rc == NANOARROW_OK) rc = ArrowArrayInitFromSchema(&array, &schema, &error);
  if (rc == NANOARROW_OK) {
    for (int64_t c = 0; rc == NANOARROW_OK && c < kColumns; c++) {
      struct ArrowBuffer* values = ArrowArrayBuffer(array.children[c], 1);
      rc = ArrowBufferReserve(values, kRowsPerBatch * 8);
      for (int64_t i = 0; rc == NANOARROW_OK && i < kRowsPerBatch; i++) {
        ArrowBufferAppendUnsafe(values, &i, sizeof(i));
      }
      array.children[c]->length = kRowsPerBatch;
    }
    array.length = kRowsPerBatch;
    if (rc == NANOARROW_OK) rc = ArrowArrayFinishBuildingDefault(&array, &error);
  }
  if (rc == NANOARROW_OK) rc = ArrowArrayViewInitFromSchema(&view, &schema, &error);
  if (rc == NANOARROW_OK) rc = ArrowArrayViewSetArray(&view, &array, &error);
  if (rc == NANOARROW_OK) rc = ArrowIpcOutputStreamInitFile(&output, file, 1);
  if (rc == NANOARROW_OK) {
    rc = ArrowIpcWriterInit(&writer, &output);
    if (rc == NANOARROW_OK) rc = ArrowIpcWriterStartFile(&writer, &error);
    if (rc == NANOARROW_OK) rc = ArrowIpcWriterWriteSchema(&writer, &schema, &error);
    for (int64_t b = 0; rc == NANOARROW_OK && b < out.n_batches; b++) {
      rc = ArrowIpcWriterWriteArrayView(&writer, &view, &error);
    }
    if (rc == NANOARROW_OK) rc = ArrowIpcWriterFinalizeFile(&writer, &error);
    ArrowIpcWriterReset(&writer);  // closes file
  } else {
    std::fclose(file);
  }
  if (rc != NANOARROW_OK) {
    out.error = std::string("writing the fixture failed: ") + error.message;
  }
  ArrowArrayViewReset(&view);
  if (array.release != nullptr) ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  FILE* check = std::fopen(out.path.c_str(), "rb");
  if (check != nullptr) {
    std::fseek(check, 0, SEEK_END);
    out.file_size = std::ftell(check);
    std::fclose(check);
  }
  out.metadata_bytes = out.file_size - out.n_batches * kColumns * kRowsPerBatch * 8;
  return out;
}

// Reads every batch of the file (one column or all of them); returns the bytes read.
int64_t ReadFile(const WideFile& fixture, bool project, benchmark::State& state) {
  struct ArrowError error;
  error.message[0] = '\0';
  struct ArrowIpcFileReader reader;
  FILE* file = std::fopen(fixture.path.c_str(), "rb");
  if (file == nullptr ||
      ArrowIpcFileReaderInitFile(&reader, file, 1, &error) != NANOARROW_OK) {
    state.SkipWithError("cannot open the fixture");
    return 0;
  }
  if (project) {
    int64_t selected = kSelected;
    if (ArrowIpcFileReaderSetProjection(&reader, &selected, 1, &error) != NANOARROW_OK) {
      state.SkipWithError(error.message);
      ArrowIpcFileReaderReset(&reader);
      return 0;
    }
  }
  int64_t n = ArrowIpcFileReaderNumRecordBatches(&reader);
  int64_t checksum = 0;
  for (int64_t i = 0; i < n; i++) {
    struct ArrowArray array;
    if (ArrowIpcFileReaderReadBatch(&reader, i, &array, NANOARROW_VALIDATION_LEVEL_DEFAULT,
                                    &error) != NANOARROW_OK) {
      state.SkipWithError(error.message);
      break;
    }
    const struct ArrowArray* column = array.children[project ? 0 : kSelected];
    checksum += static_cast<const int64_t*>(column->buffers[1])[kRowsPerBatch - 1];
    ArrowArrayRelease(&array);
  }
  benchmark::DoNotOptimize(checksum);
  int64_t bytes_read = ArrowIpcFileReaderBytesRead(&reader);
  ArrowIpcFileReaderReset(&reader);
  return bytes_read;
}

void SetCounters(benchmark::State& state, const WideFile& fixture, int64_t bytes_read) {
  int64_t selected_bytes = fixture.n_batches * kRowsPerBatch * 8;
  state.counters["file_bytes"] = static_cast<double>(fixture.file_size);
  state.counters["bytes_read"] = static_cast<double>(bytes_read);
  state.counters["selected_bytes"] = static_cast<double>(selected_bytes);
  state.counters["read_ratio"] = static_cast<double>(bytes_read) /
                                 static_cast<double>(selected_bytes + fixture.metadata_bytes);
  state.SetBytesProcessed(state.iterations() * selected_bytes);
}

/// Read 1 of 100 int64 columns of an IPC file through FILE*
///
/// ArrowIpcFileReaderInitFile with ArrowIpcFileReaderSetProjection to one column:
/// each batch reads its metadata, then only that column's buffers (ranges close
/// together coalesced). The bytes_read counter is ArrowIpcFileReaderBytesRead.
void IpcProjectionOneOf100Columns(benchmark::State& state) {
  WideFile& fixture = MakeFile();
  if (!fixture.error.empty()) {
    state.SkipWithError(fixture.error.c_str());
    return;
  }
  int64_t bytes_read = 0;
  for (auto _ : state) bytes_read = ReadFile(fixture, true, state);
  SetCounters(state, fixture, bytes_read);
}

/// Read every column of the same file through FILE*
///
/// The same file and reader without a projection: every buffer of every batch is
/// read and decoded, the reference the projection is compared with.
void IpcProjectionAllColumns(benchmark::State& state) {
  WideFile& fixture = MakeFile();
  if (!fixture.error.empty()) {
    state.SkipWithError(fixture.error.c_str());
    return;
  }
  int64_t bytes_read = 0;
  for (auto _ : state) bytes_read = ReadFile(fixture, false, state);
  SetCounters(state, fixture, bytes_read);
}

/// Floor: fseek and fread of one column's bytes per batch
///
/// One column's worth of bytes read at each batch's place in the file with plain
/// stdio: what any reader of the selected column must do at least.
void IpcProjectionFloorFreadColumn(benchmark::State& state) {
  WideFile& fixture = MakeFile();
  if (!fixture.error.empty()) {
    state.SkipWithError(fixture.error.c_str());
    return;
  }
  std::vector<uint8_t> buffer(static_cast<size_t>(kRowsPerBatch * 8));
  int64_t stride = fixture.file_size / fixture.n_batches;
  for (auto _ : state) {
    FILE* file = std::fopen(fixture.path.c_str(), "rb");
    if (file == nullptr) {
      state.SkipWithError("cannot open the fixture");
      break;
    }
    for (int64_t i = 0; i < fixture.n_batches; i++) {
      std::fseek(file, static_cast<long>(i * stride), SEEK_SET);
      if (std::fread(buffer.data(), 1, buffer.size(), file) != buffer.size()) {
        state.SkipWithError("short read");
        break;
      }
      benchmark::DoNotOptimize(buffer.data());
    }
    std::fclose(file);
  }
  SetCounters(state, fixture, fixture.n_batches * kRowsPerBatch * 8);
}

BENCHMARK(IpcProjectionOneOf100Columns)->Unit(benchmark::kMillisecond);
BENCHMARK(IpcProjectionAllColumns)->Unit(benchmark::kMillisecond);
BENCHMARK(IpcProjectionFloorFreadColumn)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
