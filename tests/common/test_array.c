/* Building flat arrays: initialization, appends of every primitive type, nulls,
 * range errors, buffer management and release. */

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

static void init_started(struct ArrowArray* array, enum ArrowType type) {
  cr_assert_eq(ArrowArrayInitFromType(array, type), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
}

static void finish_ok(struct ArrowArray* array) {
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
}

static const uint8_t* buffer_bytes(const struct ArrowArray* array, int64_t i) {
  return (const uint8_t*)array->buffers[i];
}

Test(array_init, buffer_counts_follow_the_layout) {
  struct {
    enum ArrowType type;
    int64_t n_buffers;
  } cases[] = {{NANOARROW_TYPE_NA, 0},
               {NANOARROW_TYPE_BOOL, 2},
               {NANOARROW_TYPE_INT32, 2},
               {NANOARROW_TYPE_DECIMAL256, 2},
               {NANOARROW_TYPE_STRING, 3},
               {NANOARROW_TYPE_LARGE_BINARY, 3},
               {NANOARROW_TYPE_FIXED_SIZE_BINARY, 2},
               {NANOARROW_TYPE_LIST, 2},
               {NANOARROW_TYPE_LARGE_LIST, 2},
               {NANOARROW_TYPE_LIST_VIEW, 3},
               {NANOARROW_TYPE_LARGE_LIST_VIEW, 3},
               {NANOARROW_TYPE_FIXED_SIZE_LIST, 1},
               {NANOARROW_TYPE_STRUCT, 1},
               {NANOARROW_TYPE_MAP, 2},
               {NANOARROW_TYPE_SPARSE_UNION, 1},
               {NANOARROW_TYPE_DENSE_UNION, 2},
               {NANOARROW_TYPE_RUN_END_ENCODED, 0},
               {NANOARROW_TYPE_BINARY_VIEW, 3},
               {NANOARROW_TYPE_STRING_VIEW, 3}};
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct ArrowArray array;
    cr_assert_eq(ArrowArrayInitFromType(&array, cases[i].type), NANOARROW_OK);
    cr_assert_eq(array.n_buffers, cases[i].n_buffers, "%s: %d buffers",
                 ArrowTypeString(cases[i].type), (int)array.n_buffers);
    cr_assert_eq(array.length, 0);
    cr_assert_eq(array.null_count, 0);
    cr_assert_eq(array.offset, 0);
    cr_assert_eq(array.n_children, 0);
    cr_assert_not_null(array.release);
    ArrowArrayRelease(&array);
    cr_assert_null(array.release);
  }
}

Test(array_init, rejects_non_storage_types) {
  struct ArrowArray array;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_DICTIONARY), EINVAL);
  cr_assert_null(array.release);
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_EXTENSION), EINVAL);
  cr_assert_eq(ArrowArrayInitFromType(&array, (enum ArrowType)999), EINVAL);
}

Test(array_init, uninitialized_cannot_start_appending) {
  struct ArrowArray array;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_UNINITIALIZED), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), EINVAL);
  ArrowArrayRelease(&array);
}

Test(array_append, int32_without_nulls_never_allocates_a_bitmap) {
  struct ArrowArray array;
  int32_t expected[] = {1, -2, 2147483647, -2147483647 - 1};
  int i;
  init_started(&array, NANOARROW_TYPE_INT32);
  for (i = 0; i < 4; i++) {
    cr_assert_eq(ArrowArrayAppendInt(&array, expected[i]), NANOARROW_OK);
    cr_assert_eq(array.length, i + 1);
  }
  cr_assert_null(ArrowArrayValidityBitmap(&array)->buffer.data);
  finish_ok(&array);
  cr_assert_null(array.buffers[0]);
  cr_assert_eq(memcmp(array.buffers[1], expected, sizeof(expected)), 0);
  cr_assert_eq(ArrowArrayBuffer(&array, 1)->size_bytes, 16);
  ArrowArrayRelease(&array);
}

Test(array_append, first_null_fills_the_bitmap_for_earlier_values) {
  struct ArrowArray array;
  int i;
  init_started(&array, NANOARROW_TYPE_INT64);
  for (i = 0; i < 10; i++) {
    cr_assert_eq(ArrowArrayAppendInt(&array, i), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayAppendNull(&array, 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 42), NANOARROW_OK);
  cr_assert_eq(array.length, 13);
  cr_assert_eq(array.null_count, 2);
  finish_ok(&array);
  /* bits 0..9 set, 10..11 clear, 12 set */
  cr_assert_eq(buffer_bytes(&array, 0)[0], 0xFF);
  cr_assert_eq(buffer_bytes(&array, 0)[1], 0x13);
  cr_assert_eq(((const int64_t*)array.buffers[1])[10], 0);
  cr_assert_eq(((const int64_t*)array.buffers[1])[11], 0);
  cr_assert_eq(((const int64_t*)array.buffers[1])[12], 42);
  ArrowArrayRelease(&array);
}

Test(array_append, integer_ranges) {
  struct {
    enum ArrowType type;
    int64_t min;
    int64_t max;
    int64_t width;
  } cases[] = {{NANOARROW_TYPE_INT8, INT8_MIN, INT8_MAX, 1},
               {NANOARROW_TYPE_INT16, INT16_MIN, INT16_MAX, 2},
               {NANOARROW_TYPE_INT32, INT32_MIN, INT32_MAX, 4},
               {NANOARROW_TYPE_UINT8, 0, UINT8_MAX, 1},
               {NANOARROW_TYPE_UINT16, 0, UINT16_MAX, 2},
               {NANOARROW_TYPE_UINT32, 0, UINT32_MAX, 4}};
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct ArrowArray array;
    init_started(&array, cases[i].type);
    cr_assert_eq(ArrowArrayAppendInt(&array, cases[i].min), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(&array, cases[i].max), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(&array, cases[i].min - 1), EINVAL, "%s",
                 ArrowTypeString(cases[i].type));
    cr_assert_eq(ArrowArrayAppendInt(&array, cases[i].max + 1), EINVAL);
    cr_assert_eq(ArrowArrayAppendUInt(&array, (uint64_t)cases[i].max + 1), EINVAL);
    cr_assert_eq(ArrowArrayAppendUInt(&array, UINT64_MAX), EINVAL);
    cr_assert_eq(array.length, 2, "failed appends must not change the length");
    cr_assert_eq(ArrowArrayBuffer(&array, 1)->size_bytes, 2 * cases[i].width);
    finish_ok(&array);
    /* the maximum is all ones in the low bits of every signed/unsigned width */
    if (cases[i].min == 0) {
      cr_assert_eq(buffer_bytes(&array, 1)[cases[i].width], 0xFF);
    }
    ArrowArrayRelease(&array);
  }
}

/* The inline append stores 8 bytes and keeps the element's width of them: whatever
 * the capacity (the last elements before it take the out-of-line path), every
 * element holds its value and nothing past the elements is part of the buffer. */
Test(array_append, integers_pack_at_every_capacity) {
  const enum ArrowType types[] = {NANOARROW_TYPE_INT8,   NANOARROW_TYPE_UINT8,
                                  NANOARROW_TYPE_INT16,  NANOARROW_TYPE_UINT16,
                                  NANOARROW_TYPE_INT32,  NANOARROW_TYPE_UINT32,
                                  NANOARROW_TYPE_DATE32, NANOARROW_TYPE_INT64,
                                  NANOARROW_TYPE_UINT64, NANOARROW_TYPE_TIMESTAMP};
  size_t t;
  int64_t reserved, i;
  for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
    for (reserved = 0; reserved < 20; reserved++) {
      struct ArrowArray array;
      struct ArrowArrayView view;
      const int64_t n = reserved + 11;
      if (types[t] == NANOARROW_TYPE_TIMESTAMP) {
        struct ArrowSchema schema;
        cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT64), NANOARROW_OK);
        cr_assert_eq(ArrowSchemaSetTypeDateTime(&schema, NANOARROW_TYPE_TIMESTAMP,
                                                NANOARROW_TIME_UNIT_SECOND, NULL),
                     NANOARROW_OK);
        cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, NULL), NANOARROW_OK);
        cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
        ArrowSchemaRelease(&schema);
      } else {
        init_started(&array, types[t]);
      }
      cr_assert_eq(ArrowArrayReserve(&array, reserved), NANOARROW_OK);
      for (i = 0; i < n; i++) {
        /* 0x5A, 0x5B, ...: every byte of a wider element differs from its
         * neighbours' bytes, and all fit in 7 bits. */
        cr_assert_eq(ArrowArrayAppendInt(&array, 0x5A + i), NANOARROW_OK);
      }
      cr_assert_eq(array.length, n);
      finish_ok(&array);
      ArrowArrayViewInitFromType(&view, types[t]);
      cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
      cr_assert_eq(view.buffer_views[1].size_bytes,
                   n * view.layout.element_size_bits[1] / 8, "%s",
                   ArrowTypeString(types[t]));
      for (i = 0; i < n; i++) {
        cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, i), 0x5A + i, "%s[%ld] reserved %ld",
                     ArrowTypeString(types[t]), (long)i, (long)reserved);
      }
      ArrowArrayViewReset(&view);
      ArrowArrayRelease(&array);
    }
  }
}

/* Integer values into types stored as integers are range-checked by the width. */
Test(array_append, temporal_types_take_integers_of_their_width) {
  struct ArrowArray array;
  init_started(&array, NANOARROW_TYPE_DATE32);
  cr_assert_eq(ArrowArrayAppendInt(&array, INT32_MIN), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, (int64_t)INT32_MAX + 1), EINVAL);
  cr_assert_eq(ArrowArrayAppendInt(&array, INT32_MAX), NANOARROW_OK);
  cr_assert_eq(array.length, 2);
  finish_ok(&array);
  cr_assert_eq(((const int32_t*)array.buffers[1])[0], INT32_MIN);
  cr_assert_eq(((const int32_t*)array.buffers[1])[1], INT32_MAX);
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_DATE64);
  cr_assert_eq(ArrowArrayAppendInt(&array, INT64_MIN), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, INT64_MAX), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(((const int64_t*)array.buffers[1])[0], INT64_MIN);
  cr_assert_eq(((const int64_t*)array.buffers[1])[1], INT64_MAX);
  ArrowArrayRelease(&array);

  /* Not integers: the inline path must not take these. */
  init_started(&array, NANOARROW_TYPE_DOUBLE);
  cr_assert_eq(ArrowArrayAppendInt(&array, 3), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(((const double*)array.buffers[1])[0], 3.0);
  ArrowArrayRelease(&array);
  init_started(&array, NANOARROW_TYPE_BOOL);
  cr_assert_eq(ArrowArrayAppendInt(&array, 3), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 0), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(((const uint8_t*)array.buffers[1])[0], 0x01);
  ArrowArrayRelease(&array);
}

Test(array_append, int64_and_uint64_extremes) {
  struct ArrowArray array;
  init_started(&array, NANOARROW_TYPE_UINT64);
  cr_assert_eq(ArrowArrayAppendInt(&array, -1), EINVAL);
  cr_assert_eq(ArrowArrayAppendUInt(&array, UINT64_MAX), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, INT64_MAX), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(((const uint64_t*)array.buffers[1])[0], UINT64_MAX);
  cr_assert_eq(((const uint64_t*)array.buffers[1])[1], (uint64_t)INT64_MAX);
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_INT64);
  cr_assert_eq(ArrowArrayAppendUInt(&array, (uint64_t)INT64_MAX + 1), EINVAL);
  cr_assert_eq(ArrowArrayAppendUInt(&array, (uint64_t)INT64_MAX), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, INT64_MIN), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(((const int64_t*)array.buffers[1])[0], INT64_MAX);
  cr_assert_eq(((const int64_t*)array.buffers[1])[1], INT64_MIN);
  ArrowArrayRelease(&array);
}

Test(array_append, floating_point_targets) {
  struct ArrowArray array;
  init_started(&array, NANOARROW_TYPE_DOUBLE);
  cr_assert_eq(ArrowArrayAppendDouble(&array, 1.5), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, -3), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendUInt(&array, 7), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(((const double*)array.buffers[1])[0], 1.5);
  cr_assert_eq(((const double*)array.buffers[1])[1], -3.0);
  cr_assert_eq(((const double*)array.buffers[1])[2], 7.0);
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_FLOAT);
  cr_assert_eq(ArrowArrayAppendDouble(&array, 0.25), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 100), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(((const float*)array.buffers[1])[0], 0.25f);
  cr_assert_eq(((const float*)array.buffers[1])[1], 100.0f);
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_HALF_FLOAT);
  cr_assert_eq(ArrowArrayAppendDouble(&array, 1.0), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, -2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(((const uint16_t*)array.buffers[1])[0], 0x3C00);
  cr_assert_eq(((const uint16_t*)array.buffers[1])[1], 0xC000);
  cr_assert_eq(((const uint16_t*)array.buffers[1])[2], 0);
  cr_assert_eq(array.null_count, 1);
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayAppendDouble(&array, 1.0), EINVAL);
  cr_assert_eq(array.length, 0);
  ArrowArrayRelease(&array);
}

Test(array_append, bool_bits) {
  struct ArrowArray array;
  int i;
  init_started(&array, NANOARROW_TYPE_BOOL);
  for (i = 0; i < 10; i++) {
    cr_assert_eq(ArrowArrayAppendInt(&array, i % 3 == 0), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayAppendUInt(&array, 5), NANOARROW_OK);  /* non-zero: true */
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendEmpty(&array, 1), NANOARROW_OK); /* false */
  cr_assert_eq(array.length, 13);
  finish_ok(&array);
  /* values: 1001001001 1 0 0 -> bits 0,3,6,9,10 */
  cr_assert_eq(buffer_bytes(&array, 1)[0], 0x49);
  cr_assert_eq(buffer_bytes(&array, 1)[1], 0x06);
  /* validity: all but bit 11 */
  cr_assert_eq(buffer_bytes(&array, 0)[0], 0xFF);
  cr_assert_eq(buffer_bytes(&array, 0)[1], 0x17);
  cr_assert_eq(ArrowArrayBuffer(&array, 1)->size_bytes, 2);
  ArrowArrayRelease(&array);
}

Test(array_append, temporal_storage_types) {
  struct ArrowArray array;
  init_started(&array, NANOARROW_TYPE_DATE32);
  cr_assert_eq(ArrowArrayAppendInt(&array, 19000), NANOARROW_OK);
  cr_assert_eq(ArrowArrayBuffer(&array, 1)->size_bytes, 4);
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_TIMESTAMP);
  cr_assert_eq(ArrowArrayAppendInt(&array, INT64_MIN), NANOARROW_OK);
  cr_assert_eq(ArrowArrayBuffer(&array, 1)->size_bytes, 8);
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_DURATION);
  cr_assert_eq(ArrowArrayAppendInt(&array, 5), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(((const int64_t*)array.buffers[1])[0], 5);
  ArrowArrayRelease(&array);
}

Test(array_append, intervals) {
  struct ArrowArray array;
  struct ArrowInterval interval;
  const uint8_t* data;
  int32_t i32;
  int64_t i64;

  init_started(&array, NANOARROW_TYPE_INTERVAL_MONTHS);
  ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_MONTHS);
  interval.months = -7;
  cr_assert_eq(ArrowArrayAppendInterval(&array, &interval), NANOARROW_OK);
  ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_DAY_TIME);
  cr_assert_eq(ArrowArrayAppendInterval(&array, &interval), EINVAL);
  finish_ok(&array);
  cr_assert_eq(((const int32_t*)array.buffers[1])[0], -7);
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_INTERVAL_DAY_TIME);
  ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_DAY_TIME);
  interval.days = 3;
  interval.ms = -4;
  cr_assert_eq(ArrowArrayAppendInterval(&array, &interval), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  finish_ok(&array);
  data = buffer_bytes(&array, 1);
  memcpy(&i32, data, 4);
  cr_assert_eq(i32, 3);
  memcpy(&i32, data + 4, 4);
  cr_assert_eq(i32, -4);
  cr_assert_eq(ArrowArrayBuffer(&array, 1)->size_bytes, 16);
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO);
  ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO);
  interval.months = 1;
  interval.days = 2;
  interval.ns = -3000000000LL;
  cr_assert_eq(ArrowArrayAppendInterval(&array, &interval), NANOARROW_OK);
  finish_ok(&array);
  data = buffer_bytes(&array, 1);
  memcpy(&i32, data, 4);
  cr_assert_eq(i32, 1);
  memcpy(&i32, data + 4, 4);
  cr_assert_eq(i32, 2);
  memcpy(&i64, data + 8, 8);
  cr_assert_eq(i64, -3000000000LL);
  ArrowArrayRelease(&array);
}

// nanoarrow keeps interval_months as a storage type of its own: its numbers go in
// through ArrowArrayAppendInterval(), and the integer and double appenders refuse
// them (found by running the nanoarrow-ruby gem, whose CArrayBuilder.append_ints on
// an interval_months array raises there). Nothing may be appended by a refused call.
Test(array_append, integers_and_doubles_are_refused_by_interval_months) {
  struct ArrowArray array;
  struct ArrowInterval interval;

  init_started(&array, NANOARROW_TYPE_INTERVAL_MONTHS);
  cr_assert_eq(ArrowArrayAppendInt(&array, 5), EINVAL);
  cr_assert_eq(ArrowArrayAppendUInt(&array, 5), EINVAL);
  cr_assert_eq(ArrowArrayAppendDouble(&array, 5.0), EINVAL);
  cr_assert_eq(array.length, 0);
  ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_MONTHS);
  interval.months = 5;
  cr_assert_eq(ArrowArrayAppendInterval(&array, &interval), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(array.length, 1);
  cr_assert_eq(ArrowArrayBuffer(&array, 1)->size_bytes, 4);
  cr_assert_eq(((const int32_t*)array.buffers[1])[0], 5);
  ArrowArrayRelease(&array);
}

Test(array_append, decimals_of_every_width) {
  struct {
    enum ArrowType type;
    int32_t bitwidth;
  } cases[] = {{NANOARROW_TYPE_DECIMAL32, 32},
               {NANOARROW_TYPE_DECIMAL64, 64},
               {NANOARROW_TYPE_DECIMAL128, 128},
               {NANOARROW_TYPE_DECIMAL256, 256}};
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct ArrowArray array;
    struct ArrowDecimal decimal;
    struct ArrowDecimal wrong_width;
    int64_t width = cases[i].bitwidth / 8;
    int64_t b;
    const uint8_t* data;

    init_started(&array, cases[i].type);
    ArrowDecimalInit(&decimal, cases[i].bitwidth, 9, 2);
    ArrowDecimalSetInt(&decimal, -2);
    cr_assert_eq(ArrowArrayAppendDecimal(&array, &decimal), NANOARROW_OK);
    ArrowDecimalSetInt(&decimal, 258);
    cr_assert_eq(ArrowArrayAppendDecimal(&array, &decimal), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
    ArrowDecimalInit(&wrong_width, cases[i].bitwidth == 128 ? 256 : 128, 9, 2);
    cr_assert_eq(ArrowArrayAppendDecimal(&array, &wrong_width), EINVAL);
    cr_assert_eq(ArrowArrayAppendInt(&array, 1), EINVAL);
    finish_ok(&array);
    cr_assert_eq(ArrowArrayBuffer(&array, 1)->size_bytes, 3 * width);
    data = buffer_bytes(&array, 1);
    /* -2: 0xFE then 0xFF sign extension; 258: 0x02 0x01 then zeros */
    cr_assert_eq(data[0], 0xFE);
    for (b = 1; b < width; b++) {
      cr_assert_eq(data[b], 0xFF, "%d bits byte %d", cases[i].bitwidth, (int)b);
    }
    cr_assert_eq(data[width], 0x02);
    cr_assert_eq(data[width + 1], 0x01);
    for (b = 2; b < width; b++) {
      cr_assert_eq(data[width + b], 0x00);
    }
    for (b = 0; b < width; b++) {
      cr_assert_eq(data[2 * width + b], 0x00);
    }
    cr_assert_eq(buffer_bytes(&array, 0)[0], 0x03);
    ArrowArrayRelease(&array);
  }
}

Test(array_append, strings_and_binary) {
  enum ArrowType types[] = {NANOARROW_TYPE_STRING, NANOARROW_TYPE_BINARY};
  int t;
  for (t = 0; t < 2; t++) {
    struct ArrowArray array;
    struct ArrowBufferView bytes;
    int32_t expected_offsets[] = {0, 3, 3, 3, 8};
    init_started(&array, types[t]);
    cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("abc")), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendEmpty(&array, 1), NANOARROW_OK);
    bytes.data.data = "de\0fg";
    bytes.size_bytes = 5;
    cr_assert_eq(ArrowArrayAppendBytes(&array, bytes), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(&array, 1), EINVAL);
    cr_assert_eq(array.length, 4);
    cr_assert_eq(array.null_count, 1);
    finish_ok(&array);
    cr_assert_eq(memcmp(array.buffers[1], expected_offsets, sizeof(expected_offsets)), 0);
    cr_assert_eq(memcmp(array.buffers[2], "abcde\0fg", 8), 0);
    cr_assert_eq(buffer_bytes(&array, 0)[0], 0x0D);
    ArrowArrayRelease(&array);
  }
}

Test(array_append, large_strings) {
  struct ArrowArray array;
  int64_t expected_offsets[] = {0, 5, 5, 6};
  init_started(&array, NANOARROW_TYPE_LARGE_STRING);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("hello")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("!")), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(memcmp(array.buffers[1], expected_offsets, sizeof(expected_offsets)), 0);
  cr_assert_eq(memcmp(array.buffers[2], "hello!", 6), 0);
  ArrowArrayRelease(&array);
}

Test(array_append, empty_string_array_has_non_null_data_buffer) {
  struct ArrowArray array;
  init_started(&array, NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("")), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_not_null(array.buffers[1]);
  cr_assert_not_null(array.buffers[2]);
  cr_assert_eq(array.length, 1);
  ArrowArrayRelease(&array);
}

/* Empty arrays of every buffer layout export non-NULL buffers (the validity
 * bitmap aside), for consumers that dereference them whatever the length. */
Test(array_append, empty_arrays_have_non_null_buffers) {
  static const enum ArrowType types[] = {
      NANOARROW_TYPE_INT32,      NANOARROW_TYPE_DOUBLE,      NANOARROW_TYPE_BOOL,
      NANOARROW_TYPE_LARGE_BINARY, NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO,
      NANOARROW_TYPE_DECIMAL128, NANOARROW_TYPE_STRING_VIEW};
  size_t k;
  int64_t i;
  for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
    struct ArrowArray array;
    init_started(&array, types[k]);
    finish_ok(&array);
    cr_assert_eq(array.length, 0);
    cr_assert_null(array.buffers[0], "%s: validity", ArrowTypeString(types[k]));
    /* (A view array's last buffer lists its variadic buffer sizes: none here.) */
    int64_t n_fixed = types[k] == NANOARROW_TYPE_STRING_VIEW ? 2 : array.n_buffers;
    for (i = 1; i < n_fixed; i++) {
      cr_assert_not_null(array.buffers[i], "%s: buffer %d", ArrowTypeString(types[k]),
                         (int)i);
    }
    ArrowArrayRelease(&array);
  }
}

Test(array_append, string_offset_overflow) {
  struct ArrowArray array;
  struct ArrowBufferView bytes;
  init_started(&array, NANOARROW_TYPE_STRING);
  /* Pretend the data buffer already holds almost INT32_MAX bytes: only sizes are
   * checked before any copy. */
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("x")), NANOARROW_OK);
  ArrowArrayBuffer(&array, 2)->size_bytes = INT32_MAX;
  bytes.data.data = "y";
  bytes.size_bytes = 1;
  cr_assert_eq(ArrowArrayAppendBytes(&array, bytes), EOVERFLOW);
  cr_assert_eq(array.length, 1);
  ArrowArrayBuffer(&array, 2)->size_bytes = 1;
  bytes.size_bytes = -1;
  cr_assert_eq(ArrowArrayAppendBytes(&array, bytes), EINVAL);
  ArrowArrayRelease(&array);
}

Test(array_append, fixed_size_binary_width_is_enforced) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_BINARY, 3),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("abc")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("ab")), EINVAL);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("abcd")), EINVAL);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("xyz")), NANOARROW_OK);
  finish_ok(&array);
  cr_assert_eq(array.length, 3);
  cr_assert_eq(memcmp(array.buffers[1], "abc\0\0\0xyz", 9), 0);
  cr_assert_eq(buffer_bytes(&array, 0)[0], 0x05);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_append, null_type_counts_everything_as_null) {
  struct ArrowArray array;
  init_started(&array, NANOARROW_TYPE_NA);
  cr_assert_eq(ArrowArrayAppendNull(&array, 3), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendEmpty(&array, 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 1), EINVAL);
  cr_assert_eq(array.length, 5);
  cr_assert_eq(array.null_count, 5);
  finish_ok(&array);
  cr_assert_eq(array.n_buffers, 0);
  ArrowArrayRelease(&array);
}

Test(array_append, negative_and_zero_counts) {
  struct ArrowArray array;
  init_started(&array, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayAppendNull(&array, -1), EINVAL);
  cr_assert_eq(ArrowArrayAppendEmpty(&array, -1), EINVAL);
  cr_assert_eq(ArrowArrayAppendNull(&array, 0), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, INT64_MAX), ENOMEM);
  cr_assert_eq(array.length, 0);
  cr_assert_null(ArrowArrayValidityBitmap(&array)->buffer.data);
  ArrowArrayRelease(&array);
}

Test(array_append, many_values_grow_geometrically) {
  struct ArrowArray array;
  int64_t i;
  int64_t reallocations = 0;
  int64_t last_capacity = 0;
  init_started(&array, NANOARROW_TYPE_INT32);
  for (i = 0; i < 100000; i++) {
    cr_assert_eq(ArrowArrayAppendInt(&array, i), NANOARROW_OK);
    if (ArrowArrayBuffer(&array, 1)->capacity_bytes != last_capacity) {
      reallocations++;
      last_capacity = ArrowArrayBuffer(&array, 1)->capacity_bytes;
    }
  }
  cr_assert_lt(reallocations, 20);
  finish_ok(&array);
  for (i = 0; i < 100000; i++) {
    cr_assert_eq(((const int32_t*)array.buffers[1])[i], i);
  }
  cr_assert_eq(ArrowArrayShrinkToFit(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayBuffer(&array, 1)->capacity_bytes, 400000);
  ArrowArrayRelease(&array);
}

Test(array_buffers, reserve_does_not_allocate_a_bitmap) {
  struct ArrowArray array;
  init_started(&array, NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowArrayReserve(&array, 100), NANOARROW_OK);
  cr_assert_geq(ArrowArrayBuffer(&array, 1)->capacity_bytes, 101 * 4);
  cr_assert_null(ArrowArrayValidityBitmap(&array)->buffer.data);
  {
    /* A negative count reserves nothing (as in nanoarrow). */
    int64_t capacity = ArrowArrayBuffer(&array, 1)->capacity_bytes;
    cr_assert_eq(ArrowArrayReserve(&array, -1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayReserve(&array, INT64_MIN), NANOARROW_OK);
    cr_assert_eq(ArrowArrayBuffer(&array, 1)->capacity_bytes, capacity);
  }
  ArrowArrayRelease(&array);

  init_started(&array, NANOARROW_TYPE_DOUBLE);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayReserve(&array, 1000), NANOARROW_OK);
  cr_assert_geq(ArrowArrayBuffer(&array, 1)->capacity_bytes, 1001 * 8);
  cr_assert_geq(ArrowArrayValidityBitmap(&array)->buffer.capacity_bytes, 126);
  ArrowArrayRelease(&array);
}

Test(array_buffers, set_buffer_and_validity_bitmap) {
  struct ArrowArray array;
  struct ArrowBuffer buffer;
  struct ArrowBitmap bitmap;
  int32_t values[] = {7, 8, 9};

  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferAppend(&buffer, values, sizeof(values)), NANOARROW_OK);
  cr_assert_eq(ArrowArraySetBuffer(&array, 1, &buffer), NANOARROW_OK);
  cr_assert_null(buffer.data);
  cr_assert_eq(ArrowArraySetBuffer(&array, 2, &buffer), EINVAL);

  ArrowBitmapInit(&bitmap);
  cr_assert_eq(ArrowBitmapAppend(&bitmap, 1, 2), NANOARROW_OK);
  cr_assert_eq(ArrowBitmapAppend(&bitmap, 0, 1), NANOARROW_OK);
  ArrowArraySetValidityBitmap(&array, &bitmap);
  cr_assert_null(bitmap.buffer.data);

  array.length = 3;
  array.null_count = 1;
  finish_ok(&array);
  cr_assert_eq(memcmp(array.buffers[1], values, sizeof(values)), 0);
  cr_assert_eq(buffer_bytes(&array, 0)[0] & 0x07, 0x03);
  ArrowArrayRelease(&array);
}

Test(array_buffers, finish_building_rejects_inconsistent_buffers) {
  struct ArrowArray array;
  struct ArrowError error;
  init_started(&array, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayAppendInt(&array, 1), NANOARROW_OK);
  array.length = 5; /* only one value's worth of data */
  cr_assert_neq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK);
  cr_assert_neq(error.message[0], '\0');
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_NONE, &error),
               NANOARROW_OK);
  ArrowArrayRelease(&array);
}

Test(array_buffers, finish_building_full_validation_checks_offsets) {
  struct ArrowArray array;
  struct ArrowError error;
  init_started(&array, NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("ab")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("cd")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  /* Make the middle offset decrease: only a full validation reads it. */
  ((int32_t*)ArrowArrayBuffer(&array, 1)->data)[1] = -1;
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
               NANOARROW_OK);
  cr_assert_neq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
                NANOARROW_OK);
  ArrowArrayRelease(&array);
}

Test(array_release, moved_array_is_released_by_its_new_owner) {
  struct ArrowArray array;
  struct ArrowArray moved;
  init_started(&array, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayAppendInt(&array, 1), NANOARROW_OK);
  ArrowArrayMove(&array, &moved);
  cr_assert_null(array.release);
  cr_assert_eq(moved.length, 1);
  ArrowArrayRelease(&moved);
  cr_assert_null(moved.release);
}

Test(array_release, allocate_children_twice_is_rejected) {
  struct ArrowArray array;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateChildren(&array, -1), EINVAL);
  cr_assert_eq(ArrowArrayAllocateChildren(&array, 2), NANOARROW_OK);
  cr_assert_eq(array.n_children, 2);
  cr_assert_null(array.children[0]->release);
  cr_assert_eq(ArrowArrayAllocateChildren(&array, 2), EINVAL);
  cr_assert_eq(ArrowArrayAllocateDictionary(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateDictionary(&array), EINVAL);
  /* Uninitialized children and dictionary are skipped by release. */
  ArrowArrayRelease(&array);
  cr_assert_null(array.release);
}

/* Short values are copied without memcpy; each length class (0, 1-3, 4-7, 8-16, more)
 * takes its own path. Every source is a heap block of exactly its length, so an
 * over-read is an ASan failure. */
Test(array_append, strings_of_every_short_length) {
  enum ArrowType types[] = {NANOARROW_TYPE_STRING, NANOARROW_TYPE_LARGE_STRING,
                            NANOARROW_TYPE_BINARY};
  int t;
  for (t = 0; t < 3; t++) {
    struct ArrowArray array;
    struct ArrowArrayView view;
    int64_t n;
    init_started(&array, types[t]);
    for (n = 0; n <= 40; n++) {
      char* value = (char*)malloc(n == 0 ? 1 : (size_t)n);
      struct ArrowStringView view_in;
      int64_t i;
      for (i = 0; i < n; i++) value[i] = (char)('a' + (n + i) % 26);
      view_in.data = value;
      view_in.size_bytes = n;
      cr_assert_eq(ArrowArrayAppendString(&array, view_in), NANOARROW_OK);
      free(value);
    }
    finish_ok(&array);
    ArrowArrayViewInitFromType(&view, types[t]);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
    for (n = 0; n <= 40; n++) {
      struct ArrowStringView got = ArrowArrayViewGetStringUnsafe(&view, n);
      int64_t i;
      cr_assert_eq(got.size_bytes, n);
      for (i = 0; i < n; i++) {
        cr_assert_eq(got.data[i], (char)('a' + (n + i) % 26), "length %d byte %d",
                     (int)n, (int)i);
      }
    }
    ArrowArrayViewReset(&view);
    ArrowArrayRelease(&array);
  }
}

/* Signed integer types of each width, for the tests of the inline integer append. */
static const enum ArrowType kIntTypes[] = {NANOARROW_TYPE_INT8, NANOARROW_TYPE_INT16,
                                           NANOARROW_TYPE_INT32, NANOARROW_TYPE_INT64};

/* The inline integer append must hand over to the general path whenever the validity
 * bitmap does not cover exactly the existing elements, as with one the caller
 * allocated through ArrowArrayValidityBitmap() before any null. */
Test(array_append, integers_after_a_caller_reserved_bitmap) {
  int t;
  for (t = 0; t < 4; t++) {
    struct ArrowArray array;
    struct ArrowArrayView view;
    int64_t i;
    init_started(&array, kIntTypes[t]);
    cr_assert_eq(ArrowArrayAppendInt(&array, -5), NANOARROW_OK);
    cr_assert_eq(ArrowBitmapReserve(ArrowArrayValidityBitmap(&array), 1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(&array, 7), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
    for (i = 0; i < 100; i++) {
      cr_assert_eq(ArrowArrayAppendInt(&array, i - 50), NANOARROW_OK);
    }
    cr_assert_eq(ArrowArrayValidityBitmap(&array)->size_bits, 103);
    finish_ok(&array);
    ArrowArrayViewInitFromType(&view, kIntTypes[t]);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
    cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 0), -5);
    cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 1), 7);
    cr_assert(!ArrowArrayViewIsNull(&view, 1));
    cr_assert(ArrowArrayViewIsNull(&view, 2));
    for (i = 0; i < 100; i++) {
      cr_assert(!ArrowArrayViewIsNull(&view, 3 + i));
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 3 + i), i - 50);
    }
    ArrowArrayViewReset(&view);
    ArrowArrayRelease(&array);
  }
}

/* Nothing forces the data buffer to hold whole elements while building; a store at an
 * odd byte offset must still land where size_bytes says (and be clean under UBSan). */
Test(array_append, integer_after_odd_sized_data_buffer) {
  struct ArrowArray array;
  const uint8_t one = 0xAB;
  int32_t stored;
  init_started(&array, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowBufferAppend(ArrowArrayBuffer(&array, 1), &one, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 0x01020304), NANOARROW_OK);
  cr_assert_eq(ArrowArrayBuffer(&array, 1)->size_bytes, 5);
  memcpy(&stored, ArrowArrayBuffer(&array, 1)->data + 1, 4);
  cr_assert_eq(stored, 0x01020304);
  cr_assert_eq(array.length, 1);
  ArrowArrayRelease(&array);
}

/* Values and nulls interleaved in an irregular pattern, across byte boundaries and
 * buffer growth: every validity bit, value and count must match, and the bits past
 * the length in the last bitmap byte must be zero (this library starts every byte). */
Test(array_append, interleaved_nulls_and_values_keep_every_bit) {
  int t;
  for (t = 0; t < 4; t++) {
    struct ArrowArray array;
    struct ArrowArrayView view;
    uint32_t state = 12345;
    uint8_t is_null[3001];
    int64_t i, nulls = 0;
    const uint8_t* bits;
    init_started(&array, kIntTypes[t]);
    for (i = 0; i < 3001; i++) {
      state = state * 1103515245u + 12345u;
      is_null[i] = (uint8_t)(((state >> 16) % 3) == 0);
      if (is_null[i]) {
        cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
        nulls++;
      } else {
        cr_assert_eq(ArrowArrayAppendInt(&array, i % 100), NANOARROW_OK);
      }
    }
    cr_assert_eq(array.null_count, nulls);
    finish_ok(&array);
    ArrowArrayViewInitFromType(&view, kIntTypes[t]);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
    for (i = 0; i < 3001; i++) {
      cr_assert_eq(ArrowArrayViewIsNull(&view, i), is_null[i], "element %d", (int)i);
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, i), is_null[i] ? 0 : i % 100,
                   "element %d", (int)i);
    }
    cr_assert_eq(ArrowArrayViewComputeNullCount(&view), nulls);
    bits = buffer_bytes(&array, 0);
    cr_assert_eq(bits[3000 / 8] >> (3000 % 8 + 1), 0);
    ArrowArrayViewReset(&view);
    ArrowArrayRelease(&array);
  }
}
