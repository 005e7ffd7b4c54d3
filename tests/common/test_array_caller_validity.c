/* Validity bytes that a caller writes through ArrowArrayBuffer(array, 0) as a plain
 * struct ArrowBuffer (leaving the ArrowBitmap's bit count at 0): finishing the array,
 * at every validation level, and appending after them keep every bit the caller
 * wrote, and a wrapped buffer that cannot grow is exported as it is. */

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

static const enum ArrowValidationLevel kLevels[] = {
    NANOARROW_VALIDATION_LEVEL_NONE, NANOARROW_VALIDATION_LEVEL_MINIMAL,
    NANOARROW_VALIDATION_LEVEL_DEFAULT, NANOARROW_VALIDATION_LEVEL_FULL};

/* 10 int32 values 0..9 with validity bytes 0x55, 0x02 written as a plain buffer:
 * elements 1, 3, 5, 7 and 8 are null. */
static void build_int32_with_caller_bytes(struct ArrowArray* array) {
  static const uint8_t validity[2] = {0x55, 0x02};
  int32_t i;
  cr_assert_eq(ArrowArrayInitFromType(array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  for (i = 0; i < 10; i++) {
    cr_assert_eq(ArrowBufferAppendInt32(ArrowArrayBuffer(array, 1), i), NANOARROW_OK);
  }
  cr_assert_eq(ArrowBufferAppend(ArrowArrayBuffer(array, 0), validity, 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayValidityBitmap(array)->size_bits, 0);
  array->length = 10;
  array->null_count = 5;
}

static void assert_nulls_kept(struct ArrowArray* array, const char* where) {
  static const int expected_valid[10] = {1, 0, 1, 0, 1, 0, 1, 0, 0, 1};
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t i;
  const uint8_t* bytes = (const uint8_t*)array->buffers[0];
  cr_assert_not_null(bytes, "%s: validity buffer dropped", where);
  cr_assert_eq(bytes[0], 0x55, "%s: byte 0 is 0x%02x", where, bytes[0]);
  cr_assert_eq(bytes[1] & 0x03, 0x02, "%s: byte 1 is 0x%02x", where, bytes[1]);

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayViewSetArray(&view, array, &error), NANOARROW_OK, "%s: %s",
               where, error.message);
  for (i = 0; i < 10; i++) {
    cr_assert_eq(!ArrowArrayViewIsNull(&view, i), expected_valid[i],
                 "%s: element %d validity", where, (int)i);
    if (expected_valid[i]) {
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, i), i, "%s: element %d", where,
                   (int)i);
    }
  }
  ArrowArrayViewReset(&view);
}

Test(array_caller_validity, finishing_keeps_nulls_at_every_level) {
  size_t level;
  for (level = 0; level < sizeof(kLevels) / sizeof(kLevels[0]); level++) {
    struct ArrowArray array;
    struct ArrowError error;
    error.message[0] = '\0';
    build_int32_with_caller_bytes(&array);
    cr_assert_eq(ArrowArrayFinishBuilding(&array, kLevels[level], &error), NANOARROW_OK,
                 "level %d: %s", (int)kLevels[level], error.message);
    assert_nulls_kept(&array, "finish");
    cr_assert_eq(array.null_count, 5);
    ArrowArrayRelease(&array);
  }
}

Test(array_caller_validity, finish_default_keeps_nulls) {
  struct ArrowArray array;
  struct ArrowError error;
  error.message[0] = '\0';
  build_int32_with_caller_bytes(&array);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);
  assert_nulls_kept(&array, "default");
  /* Finishing twice changes nothing either. */
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);
  assert_nulls_kept(&array, "second finish");
  ArrowArrayRelease(&array);
}

Test(array_caller_validity, nested_child_keeps_nulls) {
  struct ArrowArray array;
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateChildren(&array, 1), NANOARROW_OK);
  build_int32_with_caller_bytes(array.children[0]);
  array.length = 10;
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  assert_nulls_kept(array.children[0], "child");
  ArrowArrayRelease(&array);
}

/* Deallocator of a buffer wrapping memory the array does not own: counts calls. */
static int g_wrapped_frees;
static void count_free(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                       int64_t size) {
  (void)allocator;
  (void)ptr;
  (void)size;
  g_wrapped_frees++;
}

Test(array_caller_validity, wrapped_validity_that_cannot_grow_is_exported_as_is) {
  static uint8_t wrapped[2] = {0x55, 0x02};
  size_t level;
  for (level = 0; level < sizeof(kLevels) / sizeof(kLevels[0]); level++) {
    struct ArrowArray array;
    struct ArrowError error;
    struct ArrowBuffer* validity;
    int32_t i;
    error.message[0] = '\0';
    g_wrapped_frees = 0;
    cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
    for (i = 0; i < 10; i++) {
      cr_assert_eq(ArrowBufferAppendInt32(ArrowArrayBuffer(&array, 1), i), NANOARROW_OK);
    }
    validity = ArrowArrayBuffer(&array, 0);
    cr_assert_eq(ArrowBufferSetAllocator(validity, ArrowBufferDeallocator(&count_free, NULL)),
                 NANOARROW_OK);
    validity->data = wrapped;
    validity->size_bytes = 2;
    validity->capacity_bytes = 2;
    array.length = 10;
    array.null_count = 5;

    cr_assert_eq(ArrowArrayFinishBuilding(&array, kLevels[level], &error), NANOARROW_OK,
                 "level %d: %s", (int)kLevels[level], error.message);
    cr_assert_eq(array.buffers[0], wrapped, "level %d: the wrapped bytes were replaced",
                 (int)kLevels[level]);
    cr_assert_eq(wrapped[0], 0x55);
    cr_assert_eq(wrapped[1], 0x02);
    assert_nulls_kept(&array, "wrapped");
    ArrowArrayRelease(&array);
    cr_assert_eq(g_wrapped_frees, 1);
  }
}

Test(array_caller_validity, appending_after_caller_bytes_keeps_them) {
  struct ArrowArray array;
  struct ArrowError error;
  struct ArrowArrayView view;
  const uint8_t first = 0x05; /* elements 0 and 2 valid, 1 null */
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendInt32(ArrowArrayBuffer(&array, 1), 10), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendInt32(ArrowArrayBuffer(&array, 1), 11), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendInt32(ArrowArrayBuffer(&array, 1), 12), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(ArrowArrayBuffer(&array, 0), &first, 1), NANOARROW_OK);
  array.length = 3;
  array.null_count = 1;

  cr_assert_eq(ArrowArrayAppendInt(&array, 13), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 15), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(array.length, 6);
  cr_assert_eq(array.null_count, 2);

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert(!ArrowArrayViewIsNull(&view, 0));
  cr_assert(ArrowArrayViewIsNull(&view, 1), "the caller's null was overwritten");
  cr_assert(!ArrowArrayViewIsNull(&view, 2));
  cr_assert(!ArrowArrayViewIsNull(&view, 3));
  cr_assert(ArrowArrayViewIsNull(&view, 4));
  cr_assert(!ArrowArrayViewIsNull(&view, 5));
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 5), 15);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
}

Test(array_caller_validity, short_caller_bytes_are_reported_not_padded) {
  /* Two bytes cannot hold 20 elements: validation says so rather than inventing
   * valid bits, and level NONE exports what the caller wrote. */
  struct ArrowArray array;
  struct ArrowError error;
  int32_t i;
  error.message[0] = '\0';
  build_int32_with_caller_bytes(&array);
  for (i = 10; i < 20; i++) {
    cr_assert_eq(ArrowBufferAppendInt32(ArrowArrayBuffer(&array, 1), i), NANOARROW_OK);
  }
  array.length = 20;
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), EINVAL);
  cr_assert_neq(error.message[0], '\0');
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_NONE, &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayBuffer(&array, 0)->size_bytes, 2);
  cr_assert_eq(((const uint8_t*)array.buffers[0])[0], 0x55);
  ArrowArrayRelease(&array);
}

/* A bitmap handed over with ArrowArraySetValidityBitmap() makes the null count unknown
 * (-1), as in nanoarrow: the caller need not count the nulls, and validation at every
 * level accepts the array. */
Test(array_caller_validity, set_validity_bitmap_makes_null_count_unknown) {
  size_t level;
  for (level = 0; level < sizeof(kLevels) / sizeof(kLevels[0]); level++) {
    struct ArrowArray array;
    struct ArrowBitmap bitmap;
    struct ArrowError error;
    int32_t i;
    error.message[0] = '\0';
    cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
    for (i = 0; i < 10; i++) {
      cr_assert_eq(ArrowBufferAppendInt32(ArrowArrayBuffer(&array, 1), i), NANOARROW_OK);
    }
    ArrowBitmapInit(&bitmap);
    for (i = 0; i < 10; i++) {
      static const int valid[10] = {1, 0, 1, 0, 1, 0, 1, 0, 0, 1};
      cr_assert_eq(ArrowBitmapAppend(&bitmap, (uint8_t)valid[i], 1), NANOARROW_OK);
    }
    ArrowArraySetValidityBitmap(&array, &bitmap);
    cr_assert_eq(array.null_count, -1);
    array.length = 10;
    cr_assert_eq(ArrowArrayFinishBuilding(&array, kLevels[level], &error), NANOARROW_OK,
                 "level %d: %s", (int)kLevels[level], error.message);
    assert_nulls_kept(&array, "set bitmap");
    ArrowArrayRelease(&array);
  }
}
