// Reading an IPC file through a memory map (ArrowIpcFileReaderInitMmap), each
// beside its floor. The fixture, mmap_int64.arrow (8 int64 columns, batches of
// 8 MiB of values, NANOARROW_BENCH_MMAP_MIB MiB in all: 256 by default), is
// written at build time by bench/make_mmap_fixture.c into
// $NANOARROW_BENCH_FIXTURES_DIR (else <directory of this program>/fixtures);
// $NANOARROW_BENCH_MMAP_FILE names another file of the same shape (e.g. 1 GiB).
//
//   IpcMmapReadBatches      map the file, decode every batch (values untouched),
//                           release everything
//   FloorMemcpyMmapFile     one memcpy of the file's bytes (memory to memory):
//                           goal, the line above < 2% of this (0.02x)
//   IpcMmapSumValues        map the file, decode every batch, sum every value
//   FloorSumMmapFile        mmap the file and sum every 8-byte word of it: goal,
//                           the line above <= 1.1x this
//
// The file is in the page cache (the fixture was just written or read); every
// iteration maps it anew, so both sides of each pair pay the same page faults.

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

namespace {

std::string FixturePath() {
  const char* file = std::getenv("NANOARROW_BENCH_MMAP_FILE");
  if (file != nullptr && file[0] != '\0') return file;
  const char* dir = std::getenv("NANOARROW_BENCH_FIXTURES_DIR");
  std::string base;
  if (dir != nullptr && dir[0] != '\0') {
    base = dir;
  } else {
    char link[4096];
    ssize_t n = readlink("/proc/self/exe", link, sizeof(link) - 1);
    std::string exe = n > 0 ? std::string(link, static_cast<size_t>(n)) : ".";
    size_t slash = exe.find_last_of('/');
    base = (slash == std::string::npos ? std::string(".") : exe.substr(0, slash)) +
           "/fixtures";
  }
  return base + "/mmap_int64.arrow";
}

// The fixture's size, or -1 with *why set.
int64_t FixtureSize(const std::string& path, std::string* why) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    *why = "fixture " + path + " missing (" + std::strerror(errno) +
           "): build the default target (bench/make_mmap_fixture) or set "
           "NANOARROW_BENCH_MMAP_FILE";
    return -1;
  }
  return static_cast<int64_t>(info.st_size);
}

void SetBytes(benchmark::State& state, int64_t size) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * size);
  state.counters["file_MiB"] = static_cast<double>(size) / (1024.0 * 1024.0);
}

// Decodes every batch through a fresh map; sums the values when sum_values.
bool ReadThroughMap(const std::string& path, bool sum_values, int64_t* sum,
                    std::string* why) {
  struct ArrowIpcFileReader reader;
  struct ArrowError error;
  if (ArrowIpcFileReaderInitMmap(&reader, path.c_str(), &error) != NANOARROW_OK) {
    *why = error.message;
    return false;
  }
  int64_t n = ArrowIpcFileReaderNumRecordBatches(&reader);
  for (int64_t i = 0; i < n; i++) {
    struct ArrowArray batch;
    if (ArrowIpcFileReaderReadBatch(&reader, i, &batch, NANOARROW_VALIDATION_LEVEL_DEFAULT,
                                    &error) != NANOARROW_OK) {
      *why = error.message;
      ArrowIpcFileReaderReset(&reader);
      return false;
    }
    if (sum_values) {
      int64_t acc = 0;
      for (int64_t c = 0; c < batch.n_children; c++) {
        const struct ArrowArray* column = batch.children[c];
        const int64_t* values = static_cast<const int64_t*>(column->buffers[1]) + column->offset;
        for (int64_t r = 0; r < column->length; r++) acc += values[r];
      }
      *sum += acc;
    }
    benchmark::DoNotOptimize(batch.children);
    ArrowArrayRelease(&batch);
  }
  ArrowIpcFileReaderReset(&reader);
  return true;
}

/// Decode every batch of a mapped file, values untouched
///
/// ArrowIpcFileReaderInitMmap() over the fixture (256 MiB of int64 batches by
/// default), ArrowIpcFileReaderReadBatch() at the default validation level for every
/// batch, each released, then the reader: a map, one header per batch, an unmap.
/// Floor: one memcpy of the file; the goal is below 0.02x.
void IpcMmapReadBatches(benchmark::State& state) {
  std::string why;
  std::string path = FixturePath();
  int64_t size = FixtureSize(path, &why);
  if (size < 0) {
    state.SkipWithError(why.c_str());
    return;
  }
  for (auto _ : state) {
    int64_t sum = 0;
    if (!ReadThroughMap(path, false, &sum, &why)) {
      state.SkipWithError(why.c_str());
      return;
    }
  }
  SetBytes(state, size);
}

/// One memcpy of the mapped file's size
///
/// memcpy() of as many bytes as the fixture file has, between two buffers already
/// touched (no page faults): the floor of IpcMmapReadBatches.
void FloorMemcpyMmapFile(benchmark::State& state) {
  std::string why;
  std::string path = FixturePath();
  int64_t size = FixtureSize(path, &why);
  if (size < 0) {
    state.SkipWithError(why.c_str());
    return;
  }
  // Both sides touched first: the copy is measured, not page faults.
  std::vector<uint8_t> src(static_cast<size_t>(size), 1);
  std::vector<uint8_t> dst(static_cast<size_t>(size), 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  SetBytes(state, size);
}

/// Sum every value of a mapped file
///
/// IpcMmapReadBatches plus a plain loop summing each int64 column of each batch
/// through its buffer pointer, which points into the map. Floor: mmap() of the file
/// and the same loop over all of its 8-byte words; the goal is at most 1.1x.
void IpcMmapSumValues(benchmark::State& state) {
  std::string why;
  std::string path = FixturePath();
  int64_t size = FixtureSize(path, &why);
  if (size < 0) {
    state.SkipWithError(why.c_str());
    return;
  }
  for (auto _ : state) {
    int64_t sum = 0;
    if (!ReadThroughMap(path, true, &sum, &why)) {
      state.SkipWithError(why.c_str());
      return;
    }
    benchmark::DoNotOptimize(sum);
  }
  SetBytes(state, size);
}

/// Sum every 8-byte word of a mapped file
///
/// open(), mmap() of the whole fixture, a loop summing it as int64 words (the
/// metadata too), munmap(): the floor of IpcMmapSumValues.
void FloorSumMmapFile(benchmark::State& state) {
  std::string why;
  std::string path = FixturePath();
  int64_t size = FixtureSize(path, &why);
  if (size < 0) {
    state.SkipWithError(why.c_str());
    return;
  }
  for (auto _ : state) {
    int fd = open(path.c_str(), O_RDONLY);
    void* map = fd < 0 ? MAP_FAILED
                       : mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE,
                              fd, 0);
    if (fd >= 0) close(fd);
    if (map == MAP_FAILED) {
      state.SkipWithError("cannot map the fixture");
      return;
    }
    const int64_t* words = static_cast<const int64_t*>(map);
    int64_t n_words = size / 8;
    int64_t sum = 0;
    for (int64_t i = 0; i < n_words; i++) sum += words[i];
    benchmark::DoNotOptimize(sum);
    munmap(map, static_cast<size_t>(size));
  }
  SetBytes(state, size);
}

}  // namespace

BENCHMARK(IpcMmapReadBatches)->Unit(benchmark::kMicrosecond);
BENCHMARK(FloorMemcpyMmapFile)->Unit(benchmark::kMicrosecond);
BENCHMARK(IpcMmapSumValues)->Unit(benchmark::kMicrosecond);
BENCHMARK(FloorSumMmapFile)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
