/* Shared by the fuzz harnesses and the regression/mutation tests: checks that
 * what a reader hands out keeps the promises of FULL validation, by reading every
 * value through the public array view getters (ASan/UBSan turn any out-of-bounds
 * or misaligned read into a crash) and asserting the structural invariants a
 * caller relies on when it indexes children and dictionaries. */

#ifndef NANOARROW_FUZZ_UTIL_H_INCLUDED
#define NANOARROW_FUZZ_UTIL_H_INCLUDED

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

/* Accumulates what was read so the compiler cannot drop the reads. */
static volatile uint64_t fuzz_sink;

/* An invariant a validated array must satisfy: abort so the fuzzer (or the test)
 * records the input. */
#define FUZZ_CHECK(cond)                                                      \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                \
    }                                                                         \
  } while (0)

static inline void FuzzTouchBytes(const void* data, int64_t size) {
  const uint8_t* bytes = (const uint8_t*)data;
  uint64_t sum = 0;
  int64_t i;
  FUZZ_CHECK(size >= 0);
  FUZZ_CHECK(size == 0 || data != NULL);
  for (i = 0; i < size; i++) sum += bytes[i];
  fuzz_sink += sum;
}

static inline void FuzzTouchArrayView(const struct ArrowArrayView* view, int depth);

static inline void FuzzTouchElement(const struct ArrowArrayView* view, int64_t i) {
  struct ArrowBufferView bytes;
  struct ArrowDecimal decimal;
  struct ArrowInterval interval;
  int64_t start;
  int64_t end;
  int8_t child_index;
  int64_t j = view->offset + i;

  switch (view->storage_type) {
    case NANOARROW_TYPE_BOOL:
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_INT64:
      fuzz_sink += (uint64_t)ArrowArrayViewGetIntUnsafe(view, i);
      break;
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_UINT64:
      fuzz_sink += ArrowArrayViewGetUIntUnsafe(view, i);
      break;
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
      fuzz_sink += ArrowArrayViewGetDoubleUnsafe(view, i) > 0.0;
      break;
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      bytes = ArrowArrayViewGetBytesUnsafe(view, i);
      FuzzTouchBytes(bytes.data.data, bytes.size_bytes);
      break;
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      ArrowDecimalInit(&decimal, (int32_t)view->layout.element_size_bits[1], 10, 0);
      ArrowArrayViewGetDecimalUnsafe(view, i, &decimal);
      fuzz_sink += decimal.words[decimal.low_word_index];
      break;
    case NANOARROW_TYPE_INTERVAL_MONTHS:
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
      ArrowIntervalInit(&interval, view->storage_type);
      ArrowArrayViewGetIntervalUnsafe(view, i, &interval);
      fuzz_sink += (uint64_t)interval.months + (uint64_t)interval.days + (uint64_t)interval.ms +
                   (uint64_t)interval.ns;
      break;
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      start = ArrowArrayViewListChildOffset(view, j);
      end = ArrowArrayViewListChildOffset(view, j + 1);
      FUZZ_CHECK(view->n_children == 1);
      FUZZ_CHECK(start >= 0 && start <= end && end <= view->children[0]->length);
      break;
    case NANOARROW_TYPE_LIST_VIEW:
      start = view->buffer_views[1].data.as_int32[j];
      end = start + view->buffer_views[2].data.as_int32[j];
      FUZZ_CHECK(view->n_children == 1);
      FUZZ_CHECK(start >= 0 && start <= end && end <= view->children[0]->length);
      break;
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      start = view->buffer_views[1].data.as_int64[j];
      FUZZ_CHECK(start >= 0 && view->buffer_views[2].data.as_int64[j] >= 0);
      FUZZ_CHECK(view->n_children == 1);
      FUZZ_CHECK(view->buffer_views[2].data.as_int64[j] <= view->children[0]->length - start);
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      FUZZ_CHECK(view->n_children == 1);
      FUZZ_CHECK((j + 1) * view->layout.child_size_elements <= view->children[0]->length);
      break;
    case NANOARROW_TYPE_STRUCT:
      for (start = 0; start < view->n_children; start++) {
        FUZZ_CHECK(j < view->children[start]->length);
      }
      break;
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      child_index = ArrowArrayViewUnionChildIndex(view, i);
      FUZZ_CHECK(child_index >= 0 && child_index < view->n_children);
      start = ArrowArrayViewUnionChildOffset(view, i);
      FUZZ_CHECK(start >= 0 && start < view->children[child_index]->length);
      break;
    default:
      break;
  }
}

/* Run-end encoded: run ends strictly increase and cover the logical range. */
static inline void FuzzTouchRunEnds(const struct ArrowArrayView* view) {
  const struct ArrowArrayView* run_ends;
  int64_t previous = 0;
  int64_t k;
  FUZZ_CHECK(view->n_children == 2);
  run_ends = view->children[0];
  FUZZ_CHECK(run_ends->length <= view->children[1]->length);
  for (k = 0; k < run_ends->length; k++) {
    int64_t end = ArrowArrayViewGetIntUnsafe(run_ends, k);
    FUZZ_CHECK(end > previous);
    previous = end;
  }
  if (view->length > 0) FUZZ_CHECK(previous >= view->offset + view->length);
}

/* Arrays without buffers (null type, childless structs, the logical length of run
 * end encoded arrays) may claim lengths no input bytes back, so elements beyond
 * the first and last FUZZ_TOUCH_EDGE are skipped when an array is that long: an
 * out-of-bounds element would sit at the end anyway. */
#define FUZZ_TOUCH_EDGE ((int64_t)1 << 16)

static inline void FuzzTouchArrayView(const struct ArrowArrayView* view, int depth) {
  int64_t i;
  int64_t null_count = 0;
  int sampled = view->length > 4 * FUZZ_TOUCH_EDGE;
  FUZZ_CHECK(depth <= NANOARROW_MAX_NESTING_DEPTH + 1);
  FUZZ_CHECK(view->length >= 0 && view->offset >= 0);

  for (i = 0; i < view->length; i++) {
    int8_t is_null;
    if (sampled && i == FUZZ_TOUCH_EDGE) i = view->length - FUZZ_TOUCH_EDGE;
    is_null = ArrowArrayViewIsNull(view, i);
    null_count += is_null;
    if (view->dictionary != NULL && !is_null) {
      int64_t index = ArrowArrayViewGetIntUnsafe(view, i);
      FUZZ_CHECK(index >= 0 && index < view->dictionary->length);
    }
    FuzzTouchElement(view, i);
  }
  if (!sampled && view->null_count != -1 &&
      view->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY) {
    FUZZ_CHECK(null_count == view->null_count);
  }
  if (view->storage_type == NANOARROW_TYPE_RUN_END_ENCODED) FuzzTouchRunEnds(view);

  for (i = 0; i < view->n_children; i++) {
    FuzzTouchArrayView(view->children[i], depth + 1);
  }
  if (view->dictionary != NULL) FuzzTouchArrayView(view->dictionary, depth + 1);
}

/* Parses every schema node (format, metadata) the way a consumer would. */
static inline void FuzzTouchSchema(const struct ArrowSchema* schema, int depth) {
  struct ArrowSchemaView schema_view;
  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  char summary[128];
  int64_t i;
  FUZZ_CHECK(depth <= NANOARROW_MAX_NESTING_DEPTH + 1);
  FUZZ_CHECK(ArrowSchemaViewInit(&schema_view, schema, NULL) == NANOARROW_OK);
  fuzz_sink += (uint64_t)ArrowSchemaToString(schema, summary, sizeof(summary), 1);
  if (schema->name != NULL) FuzzTouchBytes(schema->name, (int64_t)strlen(schema->name));
  if (schema->metadata != NULL) {
    FUZZ_CHECK(ArrowMetadataReaderInit(&reader, schema->metadata) == NANOARROW_OK);
    while (ArrowMetadataReaderRead(&reader, &key, &value) == NANOARROW_OK) {
      FuzzTouchBytes(key.data, key.size_bytes);
      FuzzTouchBytes(value.data, value.size_bytes);
    }
  }
  for (i = 0; i < schema->n_children; i++) FuzzTouchSchema(schema->children[i], depth + 1);
  if (schema->dictionary != NULL) FuzzTouchSchema(schema->dictionary, depth + 1);
}

/* What a careful consumer does with a batch it received from a reader that
 * promised FULL validation: view it, re-validate it, read all of it. */
static inline void FuzzCheckBatch(const struct ArrowSchema* schema, const struct ArrowArray* array) {
  struct ArrowArrayView view;
  struct ArrowError error;
  ArrowErrorInit(&error);
  FUZZ_CHECK(ArrowArrayViewInitFromSchema(&view, schema, &error) == NANOARROW_OK);
  if (ArrowArrayViewSetArray(&view, array, &error) != NANOARROW_OK ||
      ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error) !=
          NANOARROW_OK) {
    fprintf(stderr, "a batch the reader validated fails validation: %s\n",
            ArrowErrorMessage(&error));
    abort();
  }
  FuzzTouchArrayView(&view, 0);
  ArrowArrayViewReset(&view);
}

#endif /* NANOARROW_FUZZ_UTIL_H_INCLUDED */
