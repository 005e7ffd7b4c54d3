// Dictionary delta benchmarks: a stream of one dictionary followed by N delta
// DictionaryBatch messages of 512 int32 values (2 KiB each) and one record batch,
// read by the ArrowArrayStream reader from memory. Each delta is appended to the
// dictionary the reader holds; with geometric growth the time per delta stays the
// same whatever N is (linear in the stream), where copying the whole dictionary for
// every delta made it grow with N (quadratic). The stream is built in memory with
// the encoder before timing starts. The ...Layout benchmarks do the same, keeping
// every batch, for dictionaries whose bitmaps end mid-byte (nulls), binary views,
// lists and structs.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_ipc.hpp"

namespace {

constexpr int64_t kValuesPerDelta = 512;

// Appends the message the encoder just encoded and its body to out.
bool AppendMessage(ArrowIpcEncoder* encoder, ArrowBuffer* body, ArrowBuffer* out) {
  if (ArrowIpcEncoderFinalizeBuffer(encoder, 1, out) != NANOARROW_OK) return false;
  if (ArrowBufferAppend(out, body->data, body->size_bytes) != NANOARROW_OK) return false;
  body->size_bytes = 0;
  return true;
}

// struct<d: dictionary<int32, int32>>: a dictionary of kValuesPerDelta values, then
// n_deltas deltas of as many, then a batch using the first and last value (with
// batch_each, such a batch after every dictionary message).
std::string BuildDeltaStream(int64_t n_deltas, bool batch_each, nanoarrow::UniqueBuffer* out) {
  nanoarrow::ipc::UniqueEncoder encoder;
  nanoarrow::UniqueSchema schema;
  nanoarrow::UniqueBuffer body;
  ArrowError error;
  if (ArrowIpcEncoderInit(encoder.get()) != NANOARROW_OK) return "encoder init failed";
  ArrowSchemaInit(schema.get());
  if (ArrowSchemaSetTypeStruct(schema.get(), 1) != NANOARROW_OK ||
      ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32) != NANOARROW_OK ||
      ArrowSchemaSetName(schema->children[0], "d") != NANOARROW_OK ||
      ArrowSchemaAllocateDictionary(schema->children[0]) != NANOARROW_OK) {
    return "schema failed";
  }
  ArrowSchemaInit(schema->children[0]->dictionary);
  if (ArrowSchemaSetType(schema->children[0]->dictionary, NANOARROW_TYPE_INT32) !=
          NANOARROW_OK ||
      ArrowIpcEncoderEncodeSchema(encoder.get(), schema.get(), &error) != NANOARROW_OK ||
      ArrowIpcEncoderFinalizeBuffer(encoder.get(), 1, out->get()) != NANOARROW_OK) {
    return "schema message failed";
  }

  nanoarrow::UniqueArray values;
  nanoarrow::UniqueArrayView values_view;
  if (ArrowArrayInitFromType(values.get(), NANOARROW_TYPE_INT32) != NANOARROW_OK ||
      ArrowArrayStartAppending(values.get()) != NANOARROW_OK) {
    return "values failed";
  }
  for (int64_t i = 0; i < kValuesPerDelta; i++) {
    if (ArrowArrayAppendInt(values.get(), i) != NANOARROW_OK) return "values failed";
  }
  if (ArrowArrayFinishBuildingDefault(values.get(), &error) != NANOARROW_OK) {
    return error.message;
  }
  ArrowArrayViewInitFromType(values_view.get(), NANOARROW_TYPE_INT32);
  if (ArrowArrayViewSetArray(values_view.get(), values.get(), &error) != NANOARROW_OK) {
    return error.message;
  }
  // A batch using the first value and the last one of a dictionary of length.
  auto append_batch = [&](int64_t length) -> bool {
    nanoarrow::UniqueArray batch;
    nanoarrow::UniqueArrayView batch_view;
    if (ArrowArrayInitFromSchema(batch.get(), schema.get(), &error) != NANOARROW_OK ||
        ArrowArrayStartAppending(batch.get()) != NANOARROW_OK ||
        ArrowArrayAppendInt(batch->children[0], 0) != NANOARROW_OK ||
        ArrowArrayAppendInt(batch->children[0], length - 1) != NANOARROW_OK) {
      return false;
    }
    batch->length = 2;
    return ArrowArrayFinishBuildingDefault(batch.get(), &error) == NANOARROW_OK &&
           ArrowArrayViewInitFromSchema(batch_view.get(), schema.get(), &error) ==
               NANOARROW_OK &&
           ArrowArrayViewSetArray(batch_view.get(), batch.get(), &error) == NANOARROW_OK &&
           ArrowIpcEncoderEncodeSimpleRecordBatch(encoder.get(), batch_view.get(),
                                                  body.get(), &error) == NANOARROW_OK &&
           AppendMessage(encoder.get(), body.get(), out->get());
  };
  for (int64_t k = 0; k <= n_deltas; k++) {
    if (ArrowIpcEncoderEncodeDictionaryBatch(encoder.get(), 0, k > 0, values_view.get(),
                                             body.get(), &error) != NANOARROW_OK ||
        !AppendMessage(encoder.get(), body.get(), out->get())) {
      return "dictionary message failed";
    }
    if (batch_each && k < n_deltas && !append_batch((k + 1) * kValuesPerDelta)) {
      return "record batch failed";
    }
  }
  if (!append_batch((n_deltas + 1) * kValuesPerDelta)) return "record batch failed";

  const int32_t end_of_stream[2] = {-1, 0};
  if (ArrowBufferAppend(out->get(), end_of_stream, sizeof(end_of_stream)) != NANOARROW_OK) {
    return "end of stream failed";
  }
  return "";
}

void NoFree(ArrowBufferAllocator*, uint8_t*, int64_t) {}

// Reads the whole stream once (zero-copy over the bytes); false on any error. With
// keep, every batch is kept until the end (a consumer collecting the stream): the
// batches hold the dictionary while later deltas are appended.
bool ReadDeltaStream(const ArrowBuffer* bytes, int64_t expected_batches,
                     int64_t expected_length, bool keep, std::string* error) {
  nanoarrow::UniqueBuffer input;
  // Borrow the bytes: the input stream owns a buffer that does not free them.
  input->data = bytes->data;
  input->size_bytes = bytes->size_bytes;
  input->capacity_bytes = bytes->size_bytes;
  input->allocator = ArrowBufferDeallocator(&NoFree, nullptr);
  nanoarrow::ipc::UniqueInputStream stream_input;
  nanoarrow::UniqueArrayStream stream;
  std::vector<nanoarrow::UniqueArray> kept;
  nanoarrow::UniqueArray batch;
  int64_t n_batches = 0;
  if (ArrowIpcInputStreamInitBuffer(stream_input.get(), input.get()) != NANOARROW_OK ||
      ArrowIpcArrayStreamReaderInit(stream.get(), stream_input.get(), nullptr) !=
          NANOARROW_OK) {
    *error = "reader init failed";
    return false;
  }
  for (;;) {
    batch.reset();
    if (stream->get_next(stream.get(), batch.get()) != NANOARROW_OK) {
      *error = stream->get_last_error(stream.get());
      return false;
    }
    if (batch->release == nullptr) break;
    n_batches++;
    if (n_batches == expected_batches &&
        batch->children[0]->dictionary->length != expected_length) {
      *error = "wrong dictionary length";
      return false;
    }
    if (keep) kept.push_back(std::move(batch));
  }
  if (n_batches != expected_batches) {
    *error = "wrong number of batches";
    return false;
  }
  return true;
}

void ReadDeltas(benchmark::State& state, bool keep) {
  const int64_t n_deltas = state.range(0);
  nanoarrow::UniqueBuffer bytes;
  std::string error = BuildDeltaStream(n_deltas, keep, &bytes);
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  const int64_t expected = (n_deltas + 1) * kValuesPerDelta;
  const int64_t expected_batches = keep ? n_deltas + 1 : 1;
  for (auto _ : state) {
    if (!ReadDeltaStream(bytes.get(), expected_batches, expected, keep, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * n_deltas);
  state.SetBytesProcessed(state.iterations() * n_deltas * kValuesPerDelta * 4);
}


// Value layouts of the ...KeepBatches layout benchmarks.
enum class Layout { kInt32Nulls, kStringView, kListInt32, kStruct };

// Value types of layout, into schema (initialized).
bool LayoutSchema(Layout layout, ArrowSchema* schema) {
  switch (layout) {
    case Layout::kInt32Nulls:
      return ArrowSchemaSetType(schema, NANOARROW_TYPE_INT32) == NANOARROW_OK;
    case Layout::kStringView:
      return ArrowSchemaSetType(schema, NANOARROW_TYPE_STRING_VIEW) == NANOARROW_OK;
    case Layout::kListInt32:
      return ArrowSchemaSetType(schema, NANOARROW_TYPE_LIST) == NANOARROW_OK &&
             ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32) == NANOARROW_OK;
    case Layout::kStruct:
      return ArrowSchemaSetTypeStruct(schema, 2) == NANOARROW_OK &&
             ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32) == NANOARROW_OK &&
             ArrowSchemaSetName(schema->children[0], "a") == NANOARROW_OK &&
             ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING) == NANOARROW_OK &&
             ArrowSchemaSetName(schema->children[1], "b") == NANOARROW_OK;
  }
  return false;
}

// Value i of layout: every 5th one null; views alternate short and long strings;
// lists hold i % 4 int32; structs {a: i, b: "s<i>"}.
bool LayoutAppend(Layout layout, ArrowArray* array, int64_t i) {
  char text[64];
  if (i % 5 == 3) return ArrowArrayAppendNull(array, 1) == NANOARROW_OK;
  switch (layout) {
    case Layout::kInt32Nulls:
      return ArrowArrayAppendInt(array, i) == NANOARROW_OK;
    case Layout::kStringView:
      std::snprintf(text, sizeof(text), i % 2 == 0 ? "v%d" : "a long string view value %d",
                    static_cast<int>(i));
      return ArrowArrayAppendString(array, ArrowCharView(text)) == NANOARROW_OK;
    case Layout::kListInt32:
      for (int64_t j = 0; j < i % 4; j++) {
        if (ArrowArrayAppendInt(array->children[0], i + j) != NANOARROW_OK) return false;
      }
      return ArrowArrayFinishElement(array) == NANOARROW_OK;
    case Layout::kStruct:
      std::snprintf(text, sizeof(text), "s%d", static_cast<int>(i));
      return ArrowArrayAppendInt(array->children[0], i) == NANOARROW_OK &&
             ArrowArrayAppendString(array->children[1], ArrowCharView(text)) ==
                 NANOARROW_OK &&
             ArrowArrayFinishElement(array) == NANOARROW_OK;
  }
  return false;
}

// Values per delta of the layout benchmarks: odd, so bitmaps end mid-byte.
constexpr int64_t kLayoutValuesPerDelta = 101;

// struct<d: dictionary<int32, layout>>: a dictionary of kLayoutValuesPerDelta
// values, n_deltas deltas of as many, a batch using the first and last value after
// every dictionary message.
std::string BuildLayoutStream(Layout layout, int64_t n_deltas, nanoarrow::UniqueBuffer* out) {
  nanoarrow::ipc::UniqueEncoder encoder;
  nanoarrow::UniqueSchema schema;
  nanoarrow::UniqueBuffer body;
  ArrowError error;
  if (ArrowIpcEncoderInit(encoder.get()) != NANOARROW_OK) return "encoder init failed";
  ArrowSchemaInit(schema.get());
  if (ArrowSchemaSetTypeStruct(schema.get(), 1) != NANOARROW_OK ||
      ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32) != NANOARROW_OK ||
      ArrowSchemaSetName(schema->children[0], "d") != NANOARROW_OK ||
      ArrowSchemaAllocateDictionary(schema->children[0]) != NANOARROW_OK) {
    return "schema failed";
  }
  ArrowSchemaInit(schema->children[0]->dictionary);
  if (!LayoutSchema(layout, schema->children[0]->dictionary) ||
      ArrowIpcEncoderEncodeSchema(encoder.get(), schema.get(), &error) != NANOARROW_OK ||
      ArrowIpcEncoderFinalizeBuffer(encoder.get(), 1, out->get()) != NANOARROW_OK) {
    return "schema message failed";
  }
  for (int64_t k = 0; k <= n_deltas; k++) {
    nanoarrow::UniqueArray values;
    nanoarrow::UniqueArrayView values_view;
    if (ArrowArrayInitFromSchema(values.get(), schema->children[0]->dictionary, &error) !=
            NANOARROW_OK ||
        ArrowArrayStartAppending(values.get()) != NANOARROW_OK) {
      return "values failed";
    }
    for (int64_t i = k * kLayoutValuesPerDelta; i < (k + 1) * kLayoutValuesPerDelta; i++) {
      if (!LayoutAppend(layout, values.get(), i)) return "values failed";
    }
    if (ArrowArrayFinishBuildingDefault(values.get(), &error) != NANOARROW_OK ||
        ArrowArrayViewInitFromSchema(values_view.get(), schema->children[0]->dictionary,
                                     &error) != NANOARROW_OK ||
        ArrowArrayViewSetArray(values_view.get(), values.get(), &error) != NANOARROW_OK ||
        ArrowIpcEncoderEncodeDictionaryBatch(encoder.get(), 0, k > 0, values_view.get(),
                                             body.get(), &error) != NANOARROW_OK ||
        !AppendMessage(encoder.get(), body.get(), out->get())) {
      return "dictionary message failed";
    }
    nanoarrow::UniqueArray batch;
    nanoarrow::UniqueArrayView batch_view;
    if (ArrowArrayInitFromSchema(batch.get(), schema.get(), &error) != NANOARROW_OK ||
        ArrowArrayStartAppending(batch.get()) != NANOARROW_OK ||
        ArrowArrayAppendInt(batch->children[0], 0) != NANOARROW_OK ||
        ArrowArrayAppendInt(batch->children[0], (k + 1) * kLayoutValuesPerDelta - 1) !=
            NANOARROW_OK) {
      return "record batch failed";
    }
    batch->length = 2;
    if (ArrowArrayFinishBuildingDefault(batch.get(), &error) != NANOARROW_OK ||
        ArrowArrayViewInitFromSchema(batch_view.get(), schema.get(), &error) != NANOARROW_OK ||
        ArrowArrayViewSetArray(batch_view.get(), batch.get(), &error) != NANOARROW_OK ||
        ArrowIpcEncoderEncodeSimpleRecordBatch(encoder.get(), batch_view.get(), body.get(),
                                               &error) != NANOARROW_OK ||
        !AppendMessage(encoder.get(), body.get(), out->get())) {
      return "record batch failed";
    }
  }
  const int32_t end_of_stream[2] = {-1, 0};
  if (ArrowBufferAppend(out->get(), end_of_stream, sizeof(end_of_stream)) != NANOARROW_OK) {
    return "end of stream failed";
  }
  return "";
}

void ReadLayoutDeltas(benchmark::State& state, Layout layout) {
  const int64_t n_deltas = state.range(0);
  nanoarrow::UniqueBuffer bytes;
  std::string error = BuildLayoutStream(layout, n_deltas, &bytes);
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  const int64_t expected = (n_deltas + 1) * kLayoutValuesPerDelta;
  for (auto _ : state) {
    if (!ReadDeltaStream(bytes.get(), n_deltas + 1, expected, true, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * n_deltas);
}

}  // namespace

/// Read a stream of N int32 dictionary deltas (2 KiB each)
///
/// The ArrowArrayStream reader over an in-memory stream of one dictionary, N delta
/// DictionaryBatch messages of 512 int32 values and one record batch (N = 250, 500,
/// 1,000, 2,000). Items are deltas: items/s stays level as N grows when deltas are
/// appended in amortised constant time each (the whole stream in linear time).
static void IpcReadDictionaryDeltas(benchmark::State& state) { ReadDeltas(state, false); }

/// Read a stream of N int32 dictionary deltas, keeping every batch
///
/// As IpcReadDictionaryDeltas, with a record batch after every dictionary message
/// and every batch kept until the stream ends (a consumer collecting the stream),
/// so the batches hold the dictionary while the later deltas are appended. Items
/// are deltas: items/s stays level as N grows when the deltas are appended in
/// place into spare capacity (one copy per doubling), and falls as N grows when
/// every delta copies the whole dictionary (quadratic).
static void IpcReadDictionaryDeltasKeepBatches(benchmark::State& state) {
  ReadDeltas(state, true);
}

/// Floor: memcpy N x 2 KiB of dictionary values
///
/// N memcpy() calls of 2 KiB (512 int32) into one preallocated buffer: what
/// appending the deltas of IpcReadDictionaryDeltas costs when each value byte is
/// copied once and nothing else is done.
static void FloorMemcpyDictionaryDeltas(benchmark::State& state) {
  const int64_t n_deltas = state.range(0);
  std::vector<int32_t> delta(static_cast<size_t>(kValuesPerDelta));
  for (int64_t i = 0; i < kValuesPerDelta; i++) delta[i] = static_cast<int32_t>(i);
  std::vector<int32_t> dictionary(static_cast<size_t>((n_deltas + 1) * kValuesPerDelta));
  for (auto _ : state) {
    const int32_t* src = delta.data();
    benchmark::DoNotOptimize(src);
    for (int64_t k = 0; k <= n_deltas; k++) {
      std::memcpy(dictionary.data() + k * kValuesPerDelta, src,
                  kValuesPerDelta * sizeof(int32_t));
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n_deltas);
  state.SetBytesProcessed(state.iterations() * n_deltas * kValuesPerDelta * 4);
}

/// Read N dictionary deltas of int32 with nulls, keeping every batch
///
/// As IpcReadDictionaryDeltasKeepBatches, with deltas of 101 int32 values, every
/// fifth null (N = 250 and 1,000): the validity bitmap ends mid-byte after almost
/// every delta, so the byte the kept batches read last is shared with the delta.
/// Items are deltas: items/s stays level from N to 4N when deltas go in place.
static void IpcReadDictionaryDeltasKeepBatchesNulls(benchmark::State& state) {
  ReadLayoutDeltas(state, Layout::kInt32Nulls);
}

/// Read N string_view dictionary deltas, keeping every batch
///
/// As IpcReadDictionaryDeltasKeepBatchesNulls with string_view values (short
/// inline ones and long ones in variadic buffers, every fifth null): views are
/// appended and variadic bytes placed without copying the earlier buffers.
static void IpcReadDictionaryDeltasKeepBatchesStringView(benchmark::State& state) {
  ReadLayoutDeltas(state, Layout::kStringView);
}

/// Read N list<int32> dictionary deltas, keeping every batch
///
/// As IpcReadDictionaryDeltasKeepBatchesNulls with list<int32> values (0 to 3
/// elements, every fifth list null): offsets and child values grow at both levels.
static void IpcReadDictionaryDeltasKeepBatchesList(benchmark::State& state) {
  ReadLayoutDeltas(state, Layout::kListInt32);
}

/// Read N struct<int32, string> dictionary deltas, keeping every batch
///
/// As IpcReadDictionaryDeltasKeepBatchesNulls with struct values (every fifth one
/// null): the struct's validity and both children grow.
static void IpcReadDictionaryDeltasKeepBatchesStruct(benchmark::State& state) {
  ReadLayoutDeltas(state, Layout::kStruct);
}

BENCHMARK(IpcReadDictionaryDeltas)->Arg(250)->Arg(500)->Arg(1000)->Arg(2000);
BENCHMARK(IpcReadDictionaryDeltasKeepBatches)->Arg(250)->Arg(500)->Arg(1000)->Arg(2000);
BENCHMARK(FloorMemcpyDictionaryDeltas)->Arg(250)->Arg(500)->Arg(1000)->Arg(2000);
BENCHMARK(IpcReadDictionaryDeltasKeepBatchesNulls)->Arg(250)->Arg(1000);
BENCHMARK(IpcReadDictionaryDeltasKeepBatchesStringView)->Arg(250)->Arg(1000);
BENCHMARK(IpcReadDictionaryDeltasKeepBatchesList)->Arg(250)->Arg(1000);
BENCHMARK(IpcReadDictionaryDeltasKeepBatchesStruct)->Arg(250)->Arg(1000);
BENCHMARK_MAIN();
