// Schema building and schema view benchmarks.

#include <benchmark/benchmark.h>

#include <cstdint>

#include "nanoarrow/nanoarrow.hpp"

namespace {

constexpr int64_t kNumChildren = 10000;

// Builds the wide struct into schema (empty); on failure, whatever was built is left
// for schema's owner to release.
ArrowErrorCode InitWideStruct(struct ArrowSchema* schema) {
  ArrowSchemaInit(schema);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(schema, kNumChildren));
  for (int64_t i = 0; i < kNumChildren; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[i], NANOARROW_TYPE_INT32));
  }
  return NANOARROW_OK;
}

// Runs body (setup and timed loop); a failed library call, thrown by
// NANOARROW_THROW_NOT_OK, skips the benchmark with its message instead of ending the
// whole run.
template <typename Body>
void SkipOnError(benchmark::State& state, Body body) {
  try {
    body();
  } catch (const nanoarrow::Exception& e) {
    state.SkipWithError(e.what());
  }
}

/// Build a struct schema with 10,000 int32 children
///
/// ArrowSchemaSetTypeStruct() then ArrowSchemaSetType() on each child, and release.
static void SchemaInitWideStruct(benchmark::State& state) {
  SkipOnError(state, [&] {
    for (auto _ : state) {
      nanoarrow::UniqueSchema schema;
      NANOARROW_THROW_NOT_OK(InitWideStruct(schema.get()));
    }
  });
  state.SetItemsProcessed(state.iterations() * kNumChildren);
}

/// View each child of a struct schema with 10,000 int32 children
///
/// ArrowSchemaViewInit() on every child of the wide struct.
static void SchemaViewInitWideStruct(benchmark::State& state) {
  SkipOnError(state, [&] {
    nanoarrow::UniqueSchema schema;
    NANOARROW_THROW_NOT_OK(InitWideStruct(schema.get()));
    struct ArrowSchemaView view;
    for (auto _ : state) {
      for (int64_t i = 0; i < kNumChildren; i++) {
        if (ArrowSchemaViewInit(&view, schema->children[i], nullptr) != NANOARROW_OK) {
          state.SkipWithError("view");
          break;
        }
      }
      benchmark::DoNotOptimize(view.type);
    }
  });
  state.SetItemsProcessed(state.iterations() * kNumChildren);
}

}  // namespace

BENCHMARK(SchemaInitWideStruct);
BENCHMARK(SchemaViewInitWideStruct);

BENCHMARK_MAIN();
