// Schema building and schema view benchmarks.

#include <benchmark/benchmark.h>

#include <cstdint>

#include "nanoarrow/nanoarrow.h"

namespace {

constexpr int64_t kNumChildren = 10000;

ArrowErrorCode InitWideStruct(struct ArrowSchema* schema) {
  ArrowSchemaInit(schema);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(schema, kNumChildren));
  for (int64_t i = 0; i < kNumChildren; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(schema->children[i], NANOARROW_TYPE_INT32));
  }
  return NANOARROW_OK;
}

/// Build a struct schema with 10,000 int32 children
///
/// ArrowSchemaSetTypeStruct() then ArrowSchemaSetType() on each child, and release.
static void SchemaInitWideStruct(benchmark::State& state) {
  for (auto _ : state) {
    struct ArrowSchema schema;
    if (InitWideStruct(&schema) != NANOARROW_OK) state.SkipWithError("init");
    ArrowSchemaRelease(&schema);
  }
  state.SetItemsProcessed(state.iterations() * kNumChildren);
}

/// View each child of a struct schema with 10,000 int32 children
///
/// ArrowSchemaViewInit() on every child of the wide struct.
static void SchemaViewInitWideStruct(benchmark::State& state) {
  struct ArrowSchema schema;
  if (InitWideStruct(&schema) != NANOARROW_OK) state.SkipWithError("init");
  struct ArrowSchemaView view;
  for (auto _ : state) {
    for (int64_t i = 0; i < kNumChildren; i++) {
      if (ArrowSchemaViewInit(&view, schema.children[i], nullptr) != NANOARROW_OK) {
        state.SkipWithError("view");
        break;
      }
    }
    benchmark::DoNotOptimize(view.type);
  }
  ArrowSchemaRelease(&schema);
  state.SetItemsProcessed(state.iterations() * kNumChildren);
}

}  // namespace

BENCHMARK(SchemaInitWideStruct);
BENCHMARK(SchemaViewInitWideStruct);

BENCHMARK_MAIN();
