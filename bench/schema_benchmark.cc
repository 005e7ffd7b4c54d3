// Schema building and schema view benchmarks, named and shaped as the seed's suite
// (the reference nanoarrow's dev/benchmarks/c/schema_benchmark.cc) runs them, each
// beside a Floor* doing the same memory work in plain C.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

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
/// The seed's loop: ArrowSchemaInit(), ArrowSchemaSetTypeStruct(schema, 10000), then
/// ArrowSchemaSetType(child, NANOARROW_TYPE_INT32) on each child, and release.
static void SchemaInitWideStruct(benchmark::State& state) {
  SkipOnError(state, [&] {
    for (auto _ : state) {
      nanoarrow::UniqueSchema schema;
      NANOARROW_THROW_NOT_OK(InitWideStruct(schema.get()));
    }
  });
  state.SetItemsProcessed(state.iterations() * kNumChildren);
}

/// Floor: allocate, fill and free 10,000 child structs in a plain loop
///
/// The memory work of SchemaInitWideStruct without the library, at its least: one
/// malloc() per ArrowSchema-sized child, each filled as an int32 child (a static
/// format string, nullable, no children), then each freed. The array of child
/// pointers is allocated once, outside the timed loop.
static void FloorSchemaInitWideStruct(benchmark::State& state) {
  static const char kInt32Format[] = "i";
  std::vector<struct ArrowSchema*> children(kNumChildren);
  for (auto _ : state) {
    for (int64_t i = 0; i < kNumChildren; i++) {
      struct ArrowSchema* child =
          static_cast<struct ArrowSchema*>(malloc(sizeof(struct ArrowSchema)));
      memset(child, 0, sizeof(struct ArrowSchema));
      child->format = kInt32Format;
      child->flags = ARROW_FLAG_NULLABLE;
      children[i] = child;
    }
    benchmark::DoNotOptimize(children.data());
    benchmark::ClobberMemory();
    for (int64_t i = 0; i < kNumChildren; i++) free(children[i]);
  }
  state.SetItemsProcessed(state.iterations() * kNumChildren);
}

/// View each child of a struct schema with 10,000 int32 children
///
/// The seed's loop: ArrowSchemaViewInit() on every child of the wide struct, each
/// into a fresh ArrowSchemaView, with an ArrowError to fill, stopping at the first
/// failure.
static void SchemaViewInitWideStruct(benchmark::State& state) {
  SkipOnError(state, [&] {
    nanoarrow::UniqueSchema schema;
    NANOARROW_THROW_NOT_OK(InitWideStruct(schema.get()));
    struct ArrowError error;
    for (auto _ : state) {
      for (int64_t i = 0; i < schema->n_children; i++) {
        struct ArrowSchemaView view;
        if (ArrowSchemaViewInit(&view, schema->children[i], &error) != NANOARROW_OK) {
          state.SkipWithError(error.message);
          break;
        }
      }
    }
  });
  state.SetItemsProcessed(state.iterations() * kNumChildren);
}

/// Floor: read the format of each of 10,000 children in a plain loop
///
/// The memory work of SchemaViewInitWideStruct without the library, at its least: for
/// each child its format string, dictionary and metadata pointers read and the
/// one-letter format mapped to a type.
static void FloorSchemaViewInitWideStruct(benchmark::State& state) {
  SkipOnError(state, [&] {
    nanoarrow::UniqueSchema schema;
    NANOARROW_THROW_NOT_OK(InitWideStruct(schema.get()));
    for (auto _ : state) {
      struct ArrowSchema* const* children = schema->children;
      benchmark::DoNotOptimize(children);
      int64_t n_int32 = 0;
      for (int64_t i = 0; i < kNumChildren; i++) {
        const struct ArrowSchema* child = children[i];
        const bool plain = child->dictionary == nullptr && child->metadata == nullptr;
        n_int32 += plain && child->format[0] == 'i' && child->format[1] == '\0';
      }
      benchmark::DoNotOptimize(n_int32);
    }
  });
  state.SetItemsProcessed(state.iterations() * kNumChildren);
}

}  // namespace

BENCHMARK(SchemaInitWideStruct);
BENCHMARK(FloorSchemaInitWideStruct);
BENCHMARK(SchemaViewInitWideStruct);
BENCHMARK(FloorSchemaViewInitWideStruct);

BENCHMARK_MAIN();
