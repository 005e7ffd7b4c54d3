/* Version, errors, allocation, type names, chunk resolution and half floats. */

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

/* Huge requests must come back as NULL, as they do from plain malloc, instead of
 * aborting the test process under AddressSanitizer. */
const char* __asan_default_options(void);
const char* __asan_default_options(void) { return "allocator_may_return_null=1"; }

Test(utils, version_matches_config) {
  cr_assert_str_eq(ArrowNanoarrowVersion(), NANOARROW_VERSION);
  cr_assert_eq(ArrowNanoarrowVersionInt(), NANOARROW_VERSION_INT);

  int major = -1;
  int minor = -1;
  int patch = -1;
  cr_assert_eq(sscanf(ArrowNanoarrowVersion(), "%d.%d.%d", &major, &minor, &patch), 3);
  cr_assert_eq(ArrowNanoarrowVersionInt(), major * 10000 + minor * 100 + patch);
}

Test(utils, error_set_formats_message) {
  struct ArrowError error;
  ArrowErrorInit(&error);
  cr_assert_str_eq(ArrowErrorMessage(&error), "");

  cr_assert_eq(ArrowErrorSet(&error, "bad value %d in '%s'", 42, "col"), NANOARROW_OK);
  cr_assert_str_eq(ArrowErrorMessage(&error), "bad value 42 in 'col'");

  /* A second call replaces the message. */
  cr_assert_eq(ArrowErrorSet(&error, "%s", "short"), NANOARROW_OK);
  cr_assert_str_eq(error.message, "short");

  /* The current message may be used as an argument to add context. */
  cr_assert_eq(ArrowErrorSet(&error, "children[1]: %s", error.message), NANOARROW_OK);
  cr_assert_str_eq(error.message, "children[1]: short");
}

Test(utils, error_set_accepts_null_error) {
  cr_assert_eq(ArrowErrorSet(NULL, "ignored %d", 1), NANOARROW_OK);
  cr_assert_str_eq(ArrowErrorMessage(NULL), "");
  ArrowErrorInit(NULL);
}

Test(utils, error_set_truncates_long_messages) {
  char long_text[2048];
  memset(long_text, 'a', sizeof(long_text) - 1);
  long_text[sizeof(long_text) - 1] = '\0';

  struct ArrowError error;
  cr_assert_eq(ArrowErrorSet(&error, "%s", long_text), ERANGE);
  cr_assert_eq(strlen(error.message), sizeof(error.message) - 1);
  cr_assert_eq(strncmp(error.message, long_text, sizeof(error.message) - 1), 0);

  /* Exactly fitting: 1023 characters plus the terminator. */
  long_text[sizeof(error.message) - 1] = '\0';
  cr_assert_eq(ArrowErrorSet(&error, "%s", long_text), NANOARROW_OK);
  cr_assert_str_eq(error.message, long_text);

  long_text[sizeof(error.message) - 1] = 'a';
  long_text[sizeof(error.message)] = '\0';
  cr_assert_eq(ArrowErrorSet(&error, "%s", long_text), ERANGE);
}

static ArrowErrorCode FailWithContext(struct ArrowError* error) {
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(EINVAL, error);
  return NANOARROW_OK;
}

static ArrowErrorCode PassThrough(ArrowErrorCode code) {
  NANOARROW_RETURN_NOT_OK(code);
  return NANOARROW_OK;
}

Test(utils, return_not_ok_macros) {
  struct ArrowError error;
  ArrowErrorInit(&error);
  cr_assert_eq(FailWithContext(&error), EINVAL);
  cr_assert_neq(strstr(error.message, "EINVAL"), NULL, "message: %s", error.message);

  cr_assert_eq(PassThrough(NANOARROW_OK), NANOARROW_OK);
  cr_assert_eq(PassThrough(ENOMEM), ENOMEM);
}

/* nanoarrow's helper macros that code written against it may use. */
NANOARROW_DLL NANOARROW_CHECK_RETURN_ATTRIBUTE ArrowErrorCode ReturnsSeven(void);
ArrowErrorCode ReturnsSeven(void) { return 7; }

Test(utils, compatibility_macros) {
#define COUNTER_SUFFIX 42
  /* The argument is expanded before pasting: this declares counter_42. */
  int _NANOARROW_MAKE_NAME(counter_, COUNTER_SUFFIX) = 3;
  cr_assert_eq(counter_42, 3);
#undef COUNTER_SUFFIX
  cr_assert_eq(ReturnsSeven(), 7);
}

Test(utils, print_and_die_aborts, .signal = SIGABRT) {
  NANOARROW_PRINT_AND_DIE(EINVAL, "a failing call");
}

Test(utils, malloc_realloc_free) {
  uint8_t* data = (uint8_t*)ArrowMalloc(16);
  cr_assert_not_null(data);
  memset(data, 7, 16);

  data = (uint8_t*)ArrowRealloc(data, 4096);
  cr_assert_not_null(data);
  for (int i = 0; i < 16; i++) {
    cr_assert_eq(data[i], 7);
  }
  ArrowFree(data);

  /* realloc(NULL, n) allocates. */
  data = (uint8_t*)ArrowRealloc(NULL, 8);
  cr_assert_not_null(data);
  ArrowFree(data);

  ArrowFree(NULL);
}

Test(utils, malloc_rejects_impossible_sizes) {
  cr_assert_null(ArrowMalloc(-1));
  cr_assert_null(ArrowMalloc(INT64_MIN));
  cr_assert_null(ArrowMalloc(INT64_MAX));

  uint8_t* data = (uint8_t*)ArrowMalloc(8);
  cr_assert_not_null(data);
  cr_assert_null(ArrowRealloc(data, -8));
  cr_assert_null(ArrowRealloc(data, INT64_MAX));
  /* A failed realloc leaves the original allocation valid. */
  data[7] = 1;
  ArrowFree(data);
}

Test(utils, default_allocator) {
  struct ArrowBufferAllocator allocator = ArrowBufferAllocatorDefault();
  cr_assert_not_null(allocator.reallocate);
  cr_assert_not_null(allocator.free);

  uint8_t* data = allocator.reallocate(&allocator, NULL, 0, 10);
  cr_assert_not_null(data);
  memcpy(data, "0123456789", 10);

  data = allocator.reallocate(&allocator, data, 10, 100000);
  cr_assert_not_null(data);
  cr_assert_eq(memcmp(data, "0123456789", 10), 0);

  cr_assert_null(allocator.reallocate(&allocator, data, 100000, -1));
  cr_assert_eq(memcmp(data, "0123456789", 10), 0);

  allocator.free(&allocator, data, 100000);

  /* Reallocating to zero bytes releases the memory (leak checking verifies). */
  data = allocator.reallocate(&allocator, NULL, 0, 32);
  cr_assert_not_null(data);
  cr_assert_null(allocator.reallocate(&allocator, data, 32, 0));
}

struct DeallocatorRecord {
  int n_calls;
  uint8_t* ptr;
  int64_t size;
  void* private_data;
};

static void RecordAndFree(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                          int64_t size) {
  struct DeallocatorRecord* record = (struct DeallocatorRecord*)allocator->private_data;
  record->n_calls++;
  record->ptr = ptr;
  record->size = size;
  record->private_data = allocator->private_data;
  ArrowFree(ptr);
}

/* A buffer wrapping memory it did not allocate. */
static void WrapForeignMemory(struct ArrowBuffer* buffer, struct DeallocatorRecord* record,
                              uint8_t** foreign, int64_t size) {
  *foreign = (uint8_t*)ArrowMalloc(size);
  cr_assert_not_null(*foreign);
  memset(*foreign, 0x5A, (size_t)size);

  ArrowBufferInit(buffer);
  cr_assert_eq(ArrowBufferSetAllocator(buffer, ArrowBufferDeallocator(&RecordAndFree, record)),
               NANOARROW_OK);
  buffer->data = *foreign;
  buffer->size_bytes = size;
  buffer->capacity_bytes = size;
}

Test(utils, deallocator_called_with_pointer_and_size) {
  struct DeallocatorRecord record = {0, NULL, 0, NULL};
  struct ArrowBuffer buffer;
  uint8_t* foreign;
  WrapForeignMemory(&buffer, &record, &foreign, 24);

  cr_assert_eq(buffer.allocator.private_data, &record);
  cr_assert_eq(buffer.data[23], 0x5A);

  ArrowBufferReset(&buffer);
  cr_assert_eq(record.n_calls, 1);
  cr_assert_eq(record.ptr, foreign);
  cr_assert_eq(record.size, 24);
  cr_assert_eq(record.private_data, &record);
  cr_assert_null(buffer.data);

  /* Resetting again must not call the deallocator twice. */
  ArrowBufferReset(&buffer);
  cr_assert_eq(record.n_calls, 1);
}

Test(utils, deallocator_buffer_cannot_grow) {
  struct DeallocatorRecord record = {0, NULL, 0, NULL};
  struct ArrowBuffer buffer;
  uint8_t* foreign;
  WrapForeignMemory(&buffer, &record, &foreign, 8);

  /* Room left in the capacity: nothing to reallocate. */
  buffer.size_bytes = 4;
  cr_assert_eq(ArrowBufferAppendInt32(&buffer, 1), NANOARROW_OK);

  /* Growing needs a reallocation, which foreign memory cannot give. */
  cr_assert_eq(ArrowBufferAppendInt32(&buffer, 2), ENOMEM);
  cr_assert_eq(buffer.data, foreign);
  cr_assert_eq(buffer.size_bytes, 8);
  cr_assert_eq(record.n_calls, 0);

  ArrowBufferReset(&buffer);
  cr_assert_eq(record.n_calls, 1);
  cr_assert_eq(record.ptr, foreign);
  cr_assert_eq(record.size, 8);
}

Test(utils, deallocator_called_when_shrunk_to_nothing) {
  struct DeallocatorRecord record = {0, NULL, 0, NULL};
  struct ArrowBuffer buffer;
  uint8_t* foreign;
  WrapForeignMemory(&buffer, &record, &foreign, 16);

  cr_assert_eq(ArrowBufferResize(&buffer, 0, 1), NANOARROW_OK);
  cr_assert_eq(record.n_calls, 1);
  cr_assert_eq(record.ptr, foreign);
  cr_assert_eq(record.size, 16);
  cr_assert_null(buffer.data);

  /* Without foreign memory the buffer grows like any other. */
  cr_assert_eq(ArrowBufferAppendInt64(&buffer, 99), NANOARROW_OK);
  ArrowBufferReset(&buffer);
  cr_assert_eq(record.n_calls, 1);
}

Test(utils, type_string_every_type) {
  static const struct {
    enum ArrowType type;
    const char* name;
  } kNames[] = {
      {NANOARROW_TYPE_NA, "na"},
      {NANOARROW_TYPE_BOOL, "bool"},
      {NANOARROW_TYPE_UINT8, "uint8"},
      {NANOARROW_TYPE_INT8, "int8"},
      {NANOARROW_TYPE_UINT16, "uint16"},
      {NANOARROW_TYPE_INT16, "int16"},
      {NANOARROW_TYPE_UINT32, "uint32"},
      {NANOARROW_TYPE_INT32, "int32"},
      {NANOARROW_TYPE_UINT64, "uint64"},
      {NANOARROW_TYPE_INT64, "int64"},
      {NANOARROW_TYPE_HALF_FLOAT, "half_float"},
      {NANOARROW_TYPE_FLOAT, "float"},
      {NANOARROW_TYPE_DOUBLE, "double"},
      {NANOARROW_TYPE_STRING, "string"},
      {NANOARROW_TYPE_BINARY, "binary"},
      {NANOARROW_TYPE_FIXED_SIZE_BINARY, "fixed_size_binary"},
      {NANOARROW_TYPE_DATE32, "date32"},
      {NANOARROW_TYPE_DATE64, "date64"},
      {NANOARROW_TYPE_TIMESTAMP, "timestamp"},
      {NANOARROW_TYPE_TIME32, "time32"},
      {NANOARROW_TYPE_TIME64, "time64"},
      {NANOARROW_TYPE_INTERVAL_MONTHS, "interval_months"},
      {NANOARROW_TYPE_INTERVAL_DAY_TIME, "interval_day_time"},
      {NANOARROW_TYPE_DECIMAL128, "decimal128"},
      {NANOARROW_TYPE_DECIMAL256, "decimal256"},
      {NANOARROW_TYPE_LIST, "list"},
      {NANOARROW_TYPE_STRUCT, "struct"},
      {NANOARROW_TYPE_SPARSE_UNION, "sparse_union"},
      {NANOARROW_TYPE_DENSE_UNION, "dense_union"},
      {NANOARROW_TYPE_DICTIONARY, "dictionary"},
      {NANOARROW_TYPE_MAP, "map"},
      {NANOARROW_TYPE_EXTENSION, "extension"},
      {NANOARROW_TYPE_FIXED_SIZE_LIST, "fixed_size_list"},
      {NANOARROW_TYPE_DURATION, "duration"},
      {NANOARROW_TYPE_LARGE_STRING, "large_string"},
      {NANOARROW_TYPE_LARGE_BINARY, "large_binary"},
      {NANOARROW_TYPE_LARGE_LIST, "large_list"},
      {NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO, "interval_month_day_nano"},
      {NANOARROW_TYPE_RUN_END_ENCODED, "run_end_encoded"},
      {NANOARROW_TYPE_BINARY_VIEW, "binary_view"},
      {NANOARROW_TYPE_STRING_VIEW, "string_view"},
      {NANOARROW_TYPE_DECIMAL32, "decimal32"},
      {NANOARROW_TYPE_DECIMAL64, "decimal64"},
      {NANOARROW_TYPE_LIST_VIEW, "list_view"},
      {NANOARROW_TYPE_LARGE_LIST_VIEW, "large_list_view"},
  };
  const size_t n_names = sizeof(kNames) / sizeof(kNames[0]);

  /* Every value after UNINITIALIZED up to the last one is covered, in order. */
  cr_assert_eq(n_names, (size_t)NANOARROW_TYPE_LARGE_LIST_VIEW);
  for (size_t i = 0; i < n_names; i++) {
    cr_assert_eq((size_t)kNames[i].type, i + 1);
    const char* name = ArrowTypeString(kNames[i].type);
    cr_assert_not_null(name, "no name for type %d", (int)kNames[i].type);
    cr_assert_str_eq(name, kNames[i].name);
  }

  /* nanoarrow 0.9.0: a value that is not a type has a placeholder name, not NULL. */
  cr_assert_str_eq(ArrowTypeString(NANOARROW_TYPE_UNINITIALIZED), "<unknown type identifier>");
  cr_assert_str_eq(ArrowTypeString((enum ArrowType)(NANOARROW_TYPE_LARGE_LIST_VIEW + 1)),
                   "<unknown type identifier>");
  cr_assert_str_eq(ArrowTypeString((enum ArrowType)-1), "<unknown type identifier>");
}

Test(utils, time_unit_string) {
  cr_assert_str_eq(ArrowTimeUnitString(NANOARROW_TIME_UNIT_SECOND), "s");
  cr_assert_str_eq(ArrowTimeUnitString(NANOARROW_TIME_UNIT_MILLI), "ms");
  cr_assert_str_eq(ArrowTimeUnitString(NANOARROW_TIME_UNIT_MICRO), "us");
  cr_assert_str_eq(ArrowTimeUnitString(NANOARROW_TIME_UNIT_NANO), "ns");
  cr_assert_null(ArrowTimeUnitString((enum ArrowTimeUnit)4));
  cr_assert_null(ArrowTimeUnitString((enum ArrowTimeUnit)-1));
}

/* The chunk holding index, found the slow way: the last chunk starting at or
 * before index. */
static int64_t NaiveResolve(int64_t index, const int64_t* offsets, int64_t n_chunks) {
  int64_t chunk = 0;
  for (int64_t i = 0; i < n_chunks; i++) {
    if (offsets[i] <= index) {
      chunk = i;
    }
  }
  return chunk;
}

Test(utils, resolve_chunk) {
  /* Four chunks of lengths 2, 3, 0 and 4 (the empty one is never the answer). */
  const int64_t offsets64[] = {0, 2, 5, 5, 9};
  const int32_t offsets32[] = {0, 2, 5, 5, 9};
  const int64_t expected[] = {0, 0, 1, 1, 1, 3, 3, 3, 3};

  for (int64_t i = 0; i < 9; i++) {
    cr_assert_eq(ArrowResolveChunk64(i, offsets64, 0, 4), expected[i], "index %d", (int)i);
    cr_assert_eq(ArrowResolveChunk32((int32_t)i, offsets32, 0, 4), expected[i]);
    cr_assert_eq(NaiveResolve(i, offsets64, 4), expected[i]);
  }

  /* Many chunks of varying sizes against a linear scan. */
  int64_t many64[101];
  int32_t many32[101];
  many64[0] = 0;
  for (int i = 1; i <= 100; i++) {
    many64[i] = many64[i - 1] + (i * 7) % 5 + 1;
  }
  for (int i = 0; i <= 100; i++) {
    many32[i] = (int32_t)many64[i];
  }
  for (int64_t i = 0; i < many64[100]; i++) {
    int64_t chunk = NaiveResolve(i, many64, 100);
    cr_assert_eq(ArrowResolveChunk64(i, many64, 0, 100), chunk);
    cr_assert_eq(ArrowResolveChunk32((int32_t)i, many32, 0, 100), chunk);
  }

  /* A restricted search range. */
  cr_assert_eq(ArrowResolveChunk64(6, offsets64, 2, 4), 3);
}

static uint32_t FloatBits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

Test(utils, half_float_to_float) {
  cr_assert_eq(ArrowHalfFloatToFloat(0x0000), 0.0f);
  cr_assert_eq(FloatBits(ArrowHalfFloatToFloat(0x8000)), 0x80000000u);
  cr_assert_eq(ArrowHalfFloatToFloat(0x3C00), 1.0f);
  cr_assert_eq(ArrowHalfFloatToFloat(0xC000), -2.0f);
  cr_assert_eq(ArrowHalfFloatToFloat(0x3555), 0x1.554p-2f);
  cr_assert_eq(ArrowHalfFloatToFloat(0x7BFF), 65504.0f);
  cr_assert_eq(ArrowHalfFloatToFloat(0xFBFF), -65504.0f);
  /* Smallest normal, largest and smallest subnormal. */
  cr_assert_eq(ArrowHalfFloatToFloat(0x0400), 0x1p-14f);
  cr_assert_eq(ArrowHalfFloatToFloat(0x03FF), 0x3FFp-24f);
  cr_assert_eq(ArrowHalfFloatToFloat(0x0001), 0x1p-24f);
  cr_assert_eq(ArrowHalfFloatToFloat(0x8001), -0x1p-24f);
  cr_assert_eq(ArrowHalfFloatToFloat(0x0200), 0x1p-15f);

  float inf = ArrowHalfFloatToFloat(0x7C00);
  cr_assert(isinf(inf) && inf > 0);
  float neg_inf = ArrowHalfFloatToFloat(0xFC00);
  cr_assert(isinf(neg_inf) && neg_inf < 0);
  cr_assert(isnan(ArrowHalfFloatToFloat(0x7E00)));
  cr_assert(isnan(ArrowHalfFloatToFloat(0x7C01)));
  cr_assert(isnan(ArrowHalfFloatToFloat(0xFE00)));
}

Test(utils, float_to_half_float) {
  cr_assert_eq(ArrowFloatToHalfFloat(0.0f), 0x0000);
  cr_assert_eq(ArrowFloatToHalfFloat(-0.0f), 0x8000);
  cr_assert_eq(ArrowFloatToHalfFloat(1.0f), 0x3C00);
  cr_assert_eq(ArrowFloatToHalfFloat(-2.0f), 0xC000);
  cr_assert_eq(ArrowFloatToHalfFloat(65504.0f), 0x7BFF);
  cr_assert_eq(ArrowFloatToHalfFloat(0x1p-14f), 0x0400);
  cr_assert_eq(ArrowFloatToHalfFloat(0x3FFp-24f), 0x03FF);
  cr_assert_eq(ArrowFloatToHalfFloat(0x1p-24f), 0x0001);
  cr_assert_eq(ArrowFloatToHalfFloat(-0x1p-24f), 0x8001);

  /* Too large: infinity. 65520 is halfway to 65536 and ties to even (up). */
  cr_assert_eq(ArrowFloatToHalfFloat(65520.0f), 0x7C00);
  cr_assert_eq(ArrowFloatToHalfFloat(65519.0f), 0x7BFF);
  cr_assert_eq(ArrowFloatToHalfFloat(1e6f), 0x7C00);
  cr_assert_eq(ArrowFloatToHalfFloat(-1e6f), 0xFC00);
  cr_assert_eq(ArrowFloatToHalfFloat(INFINITY), 0x7C00);
  cr_assert_eq(ArrowFloatToHalfFloat(-INFINITY), 0xFC00);

  /* Too small: zero (2^-25 is a tie between 0 and the smallest subnormal). */
  cr_assert_eq(ArrowFloatToHalfFloat(1e-10f), 0x0000);
  cr_assert_eq(ArrowFloatToHalfFloat(-1e-10f), 0x8000);
  cr_assert_eq(ArrowFloatToHalfFloat(0x1p-25f), 0x0000);
  cr_assert_eq(ArrowFloatToHalfFloat(0x1.8p-25f), 0x0001);
  cr_assert_eq(ArrowFloatToHalfFloat(0x3p-25f), 0x0002);

  uint16_t nan_half = ArrowFloatToHalfFloat(NAN);
  cr_assert_eq(nan_half & 0x7C00, 0x7C00);
  cr_assert_neq(nan_half & 0x03FF, 0);
}

Test(utils, float_to_half_float_rounds_to_nearest_even) {
  /* Halfway between 1 (even) and 1 + 2^-10: stays 1. */
  cr_assert_eq(ArrowFloatToHalfFloat(1.0f + 0x1p-11f), 0x3C00);
  /* Halfway between 1 + 2^-10 (odd) and 1 + 2^-9: goes up. */
  cr_assert_eq(ArrowFloatToHalfFloat(1.0f + 0x3p-11f), 0x3C02);
  /* Just above / below halfway. */
  cr_assert_eq(ArrowFloatToHalfFloat(1.0f + 0x1p-11f + 0x1p-20f), 0x3C01);
  cr_assert_eq(ArrowFloatToHalfFloat(1.0f + 0x1p-11f - 0x1p-20f), 0x3C00);
  /* Rounding carries into the exponent: just under 2 becomes 2. */
  cr_assert_eq(ArrowFloatToHalfFloat(0x1.FFFp0f), 0x4000);
  /* Largest subnormal rounding up to the smallest normal. */
  cr_assert_eq(ArrowFloatToHalfFloat(0x3FF.Cp-24f), 0x0400);
  /* Subnormal ties: 1.5 and 2.5 units of 2^-24 go to 2. */
  cr_assert_eq(ArrowFloatToHalfFloat(0x5p-25f), 0x0002);
}

Test(utils, half_float_round_trips_every_value) {
  for (uint32_t bits = 0; bits <= 0xFFFF; bits++) {
    uint16_t half = (uint16_t)bits;
    float value = ArrowHalfFloatToFloat(half);
    int is_nan = (half & 0x7C00) == 0x7C00 && (half & 0x03FF) != 0;
    if (is_nan) {
      cr_assert(isnan(value));
      uint16_t back = ArrowFloatToHalfFloat(value);
      cr_assert((back & 0x7C00) == 0x7C00 && (back & 0x03FF) != 0);
      cr_assert_eq(back & 0x8000, half & 0x8000);
    } else {
      cr_assert_eq(ArrowFloatToHalfFloat(value), half, "0x%04x", (unsigned)half);
    }
  }
}
