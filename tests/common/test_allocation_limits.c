/* Counts and sizes from a caller that no machine can satisfy fail at once with ENOMEM
 * (EINVAL where the value itself is invalid), before anything is allocated, leaving
 * the object as it was.
 *
 * A regression must fail fast rather than exhaust the machine: each test runs in its
 * own process (Criterion's default) under a memory limit, RLIMIT_AS where the build
 * allows it and ASan's hard RSS limit under ASan (which reserves terabytes of address
 * space, so RLIMIT_AS cannot be used there), and checks that its peak resident memory
 * hardly grew. */

#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include "nanoarrow/nanoarrow.h"

#if defined(__SANITIZE_ADDRESS__)
#define TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_UNDER_ASAN 1
#endif
#endif

#if defined(TEST_UNDER_ASAN)
/* A failed malloc returns NULL (as without ASan), and a process whose resident memory
 * passes 1 GiB is stopped. */
const char* __asan_default_options(void) {
  return "allocator_may_return_null=1:hard_rss_limit_mb=1024";
}
#endif

/* Peak resident memory of this process in KiB. */
static long peak_rss_kib(void) {
  struct rusage usage;
  cr_assert_eq(getrusage(RUSAGE_SELF, &usage), 0);
  return usage.ru_maxrss;
}

static long g_rss_at_start;

static void limit_memory(void) {
#if !defined(TEST_UNDER_ASAN)
  struct rlimit limit;
  limit.rlim_cur = (rlim_t)1 << 30;
  limit.rlim_max = (rlim_t)1 << 30;
  cr_assert_eq(setrlimit(RLIMIT_AS, &limit), 0);
#endif
  g_rss_at_start = peak_rss_kib();
}

/* Nothing of the request was allocated: the peak grew by less than 64 MiB. */
static void assert_little_allocated(void) {
  long grown = peak_rss_kib() - g_rss_at_start;
  cr_assert_lt(grown, 64L * 1024, "peak resident memory grew by %ld KiB", grown);
}

static const int64_t kHugeCounts[] = {INT64_MAX / 8, INT64_MAX, INT64_MAX / 80,
                                      (int64_t)1 << 44};

TestSuite(allocation_limits, .init = limit_memory, .fini = assert_little_allocated,
          .timeout = 60);

Test(allocation_limits, schema_children) {
  size_t i;
  for (i = 0; i < sizeof(kHugeCounts) / sizeof(kHugeCounts[0]); i++) {
    struct ArrowSchema schema;
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaAllocateChildren(&schema, kHugeCounts[i]), ENOMEM,
                 "count %lld", (long long)kHugeCounts[i]);
    cr_assert_eq(schema.n_children, 0);
    cr_assert_null(schema.children);
    /* The schema is still usable. */
    cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
    cr_assert_eq(schema.n_children, 2);
    ArrowSchemaRelease(&schema);
  }
  {
    struct ArrowSchema schema;
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaAllocateChildren(&schema, -1), EINVAL);
    cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, INT64_MAX / 8), ENOMEM);
    cr_assert_eq(schema.n_children, 0);
    ArrowSchemaRelease(&schema);
  }
}

Test(allocation_limits, array_children_and_dictionary) {
  size_t i;
  for (i = 0; i < sizeof(kHugeCounts) / sizeof(kHugeCounts[0]); i++) {
    struct ArrowArray array;
    cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAllocateChildren(&array, kHugeCounts[i]), ENOMEM,
                 "count %lld", (long long)kHugeCounts[i]);
    cr_assert_eq(array.n_children, 0);
    cr_assert_null(array.children);
    cr_assert_eq(ArrowArrayAllocateChildren(&array, 2), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAllocateDictionary(&array), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAllocateDictionary(&array), EINVAL);
    ArrowArrayRelease(&array);
  }
}

Test(allocation_limits, array_view_children) {
  size_t i;
  for (i = 0; i < sizeof(kHugeCounts) / sizeof(kHugeCounts[0]); i++) {
    struct ArrowArrayView view;
    ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRUCT);
    cr_assert_eq(ArrowArrayViewAllocateChildren(&view, kHugeCounts[i]), ENOMEM,
                 "count %lld", (long long)kHugeCounts[i]);
    cr_assert_eq(view.n_children, 0);
    cr_assert_null(view.children);
    cr_assert_eq(ArrowArrayViewAllocateChildren(&view, 2), NANOARROW_OK);
    ArrowArrayViewReset(&view);
  }
}

Test(allocation_limits, variadic_buffers) {
  struct ArrowArray array;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, INT32_MAX), ENOMEM);
  cr_assert_eq(ArrowArrayVariadicBufferCount(&array), 0);
  cr_assert_eq(array.n_buffers, 3);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, -1), EINVAL);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, 2), NANOARROW_OK);
  cr_assert_eq(array.n_buffers, 5);
  ArrowArrayRelease(&array);
}

Test(allocation_limits, buffers) {
  struct ArrowBuffer buffer;
  size_t i;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferAppend(&buffer, "abc", 3), NANOARROW_OK);
  for (i = 0; i < sizeof(kHugeCounts) / sizeof(kHugeCounts[0]); i++) {
    int64_t n = kHugeCounts[i];
    cr_assert_eq(ArrowBufferReserve(&buffer, n), ENOMEM, "reserve %lld", (long long)n);
    cr_assert_eq(ArrowBufferResize(&buffer, n, 0), ENOMEM, "resize %lld", (long long)n);
    cr_assert_eq(ArrowBufferAppendFill(&buffer, 0, n), ENOMEM, "fill %lld", (long long)n);
    cr_assert_eq(buffer.size_bytes, 3);
    cr_assert_eq(memcmp(buffer.data, "abc", 3), 0);
  }
  ArrowBufferReset(&buffer);
}

Test(allocation_limits, bitmaps) {
  struct ArrowBitmap bitmap;
  size_t i;
  ArrowBitmapInit(&bitmap);
  cr_assert_eq(ArrowBitmapAppend(&bitmap, 1, 5), NANOARROW_OK);
  for (i = 0; i < sizeof(kHugeCounts) / sizeof(kHugeCounts[0]); i++) {
    int64_t n = kHugeCounts[i];
    cr_assert_eq(ArrowBitmapReserve(&bitmap, n), ENOMEM, "reserve %lld", (long long)n);
    cr_assert_eq(ArrowBitmapResize(&bitmap, n, 0), ENOMEM, "resize %lld", (long long)n);
    cr_assert_eq(ArrowBitmapAppend(&bitmap, 0, n), ENOMEM, "append %lld", (long long)n);
    cr_assert_eq(bitmap.size_bits, 5);
  }
  ArrowBitmapReset(&bitmap);
}

Test(allocation_limits, array_reserve_and_appends) {
  struct ArrowArray array;
  size_t i;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT64), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 7), NANOARROW_OK);
  for (i = 0; i < sizeof(kHugeCounts) / sizeof(kHugeCounts[0]); i++) {
    int64_t n = kHugeCounts[i];
    cr_assert_neq(ArrowArrayReserve(&array, n), NANOARROW_OK, "reserve %lld", (long long)n);
    cr_assert_neq(ArrowArrayAppendNull(&array, n), NANOARROW_OK, "nulls %lld",
                  (long long)n);
    cr_assert_neq(ArrowArrayAppendEmpty(&array, n), NANOARROW_OK, "empties %lld",
                  (long long)n);
    cr_assert_eq(array.length, 1);
  }
  ArrowArrayRelease(&array);
}

/* Counts that stay under the bound for elements of up to 32 bytes but whose product
 * with a fixed-size binary width or fixed-size list size of 2^31 - 1 passes INT64_MAX
 * (2^33 + 4 wraps to a small positive product): ENOMEM, never an overflowed size, the
 * array as it was. The list's child is the null type, whose elements cost nothing. */
Test(allocation_limits, wide_fixed_size_elements) {
  static const int64_t kCounts[] = {((int64_t)1 << 33) + 4, (int64_t)1 << 40,
                                    ((int64_t)1 << 54) + 3};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  size_t i;
  int wide_list;
  for (wide_list = 0; wide_list < 2; wide_list++) {
    if (wide_list) {
      cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_UNINITIALIZED),
                   NANOARROW_OK);
      cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_LIST,
                                               INT32_MAX),
                   NANOARROW_OK);
      cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_NA), NANOARROW_OK);
    } else {
      cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_UNINITIALIZED),
                   NANOARROW_OK);
      cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_BINARY,
                                               INT32_MAX),
                   NANOARROW_OK);
    }
    cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
    for (i = 0; i < sizeof(kCounts) / sizeof(kCounts[0]); i++) {
      int64_t n = kCounts[i];
      cr_assert_eq(ArrowArrayReserve(&array, n), ENOMEM, "reserve %lld", (long long)n);
      cr_assert_eq(ArrowArrayAppendNull(&array, n), ENOMEM, "nulls %lld", (long long)n);
      cr_assert_eq(ArrowArrayAppendEmpty(&array, n), ENOMEM, "empties %lld", (long long)n);
      cr_assert_eq(array.length, 0);
      if (wide_list) cr_assert_eq(array.children[0]->length, 0);
    }
    ArrowArrayRelease(&array);
    ArrowSchemaRelease(&schema);
  }
}

Test(allocation_limits, basic_array_stream) {
  struct ArrowSchema schema;
  struct ArrowArrayStream stream;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowBasicArrayStreamInit(&stream, &schema, INT64_MAX / 8), ENOMEM);
  /* The schema stays the caller's when the stream was not made. */
  cr_assert_not_null(schema.release);
  ArrowSchemaRelease(&schema);
}

Test(allocation_limits, metadata_builder) {
  struct ArrowBuffer buffer;
  struct ArrowStringView key;
  struct ArrowStringView value;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  key.data = "k";
  key.size_bytes = 1;
  value.data = "v";
  value.size_bytes = INT64_MAX - 2;
  cr_assert_neq(ArrowMetadataBuilderAppend(&buffer, key, value), NANOARROW_OK);
  key.size_bytes = INT64_MAX / 2;
  value.size_bytes = INT64_MAX / 2;
  cr_assert_neq(ArrowMetadataBuilderAppend(&buffer, key, value), NANOARROW_OK);
  ArrowBufferReset(&buffer);
}
