/* An array initialized with storage type NANOARROW_TYPE_UNINITIALIZED whose caller sets
 * array->n_buffers and then hands it buffers with ArrowArraySetBuffer(): nanoarrow
 * accepts every index below n_buffers, publishes each buffer in array->buffers at once
 * (no ArrowArrayFinishBuilding() needed) and releases them with the array. nanoarrow's
 * R package exports every array this way. */

#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

static int n_released;

static void CountRelease(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                         int64_t size) {
  (void)allocator;
  (void)ptr;
  (void)size;
  n_released++;
}

/* A buffer that wraps data it does not own, counting its release. */
static void WrapBuffer(struct ArrowBuffer* buffer, uint8_t* data, int64_t size_bytes) {
  ArrowBufferInit(buffer);
  buffer->allocator = ArrowBufferDeallocator(&CountRelease, NULL);
  buffer->data = data;
  buffer->size_bytes = size_bytes;
  buffer->capacity_bytes = size_bytes;
}

Test(array_untyped_buffers, init_declares_no_buffers) {
  struct ArrowArray array;
  struct ArrowBuffer buffer;
  uint8_t data[8] = {0};
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_UNINITIALIZED), NANOARROW_OK);
  cr_assert_eq(array.n_buffers, 0);
  /* Nothing declared yet: no index is accepted. */
  WrapBuffer(&buffer, data, 8);
  cr_assert_eq(ArrowArraySetBuffer(&array, 0, &buffer), EINVAL);
  ArrowBufferReset(&buffer);
  ArrowArrayRelease(&array);
}

Test(array_untyped_buffers, buffers_below_declared_count_are_published) {
  struct ArrowArray array;
  uint8_t data[3][8];
  int64_t i;
  n_released = 0;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_UNINITIALIZED), NANOARROW_OK);
  array.length = 2;
  array.n_buffers = 3;
  for (i = 0; i < 3; i++) {
    struct ArrowBuffer buffer;
    WrapBuffer(&buffer, data[i], 8);
    cr_assert_eq(ArrowArraySetBuffer(&array, i, &buffer), NANOARROW_OK, "buffer %d",
                 (int)i);
    cr_assert_eq(array.buffers[i], data[i], "buffer %d is published at once", (int)i);
    cr_assert_eq(array.n_buffers, 3, "the caller's count stays");
  }
  cr_assert_eq(ArrowArrayBuffer(&array, 2)->data, data[2]);
  ArrowArrayRelease(&array);
  cr_assert_eq(n_released, 3);
}

Test(array_untyped_buffers, index_past_declared_count_is_rejected) {
  struct ArrowArray array;
  struct ArrowBuffer buffer;
  uint8_t data[8];
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_UNINITIALIZED), NANOARROW_OK);
  array.n_buffers = 2;
  WrapBuffer(&buffer, data, 8);
  cr_assert_eq(ArrowArraySetBuffer(&array, 2, &buffer), EINVAL);
  cr_assert_eq(ArrowArraySetBuffer(&array, -1, &buffer), EINVAL);
  /* Past the fixed slots without variadic buffers, whatever n_buffers says. */
  array.n_buffers = 4;
  cr_assert_eq(ArrowArraySetBuffer(&array, 3, &buffer), EINVAL);
  ArrowBufferReset(&buffer);
  ArrowArrayRelease(&array);
}

Test(array_untyped_buffers, variadic_buffers_number_as_in_a_view_array) {
  /* validity, views, two variadic data buffers, their sizes */
  struct ArrowArray array;
  uint8_t data[5][16];
  int64_t i;
  n_released = 0;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_UNINITIALIZED), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, 2), NANOARROW_OK);
  cr_assert_eq(array.n_buffers, 0);
  array.n_buffers = 5;
  for (i = 0; i < 5; i++) {
    struct ArrowBuffer buffer;
    WrapBuffer(&buffer, data[i], 16);
    cr_assert_eq(ArrowArraySetBuffer(&array, i, &buffer), NANOARROW_OK, "buffer %d",
                 (int)i);
  }
  for (i = 0; i < 5; i++) {
    cr_assert_eq(array.buffers[i], data[i], "buffer %d", (int)i);
    cr_assert_eq(ArrowArrayBuffer(&array, i)->data, data[i], "buffer %d", (int)i);
  }
  cr_assert_eq(ArrowArrayVariadicBufferCount(&array), 2);
  cr_assert_eq(array.n_buffers, 5);
  ArrowArrayRelease(&array);
  cr_assert_eq(n_released, 5);
}

Test(array_untyped_buffers, typed_arrays_keep_their_layout) {
  struct ArrowArray array;
  struct ArrowBuffer buffer;
  uint8_t data[8];
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(array.n_buffers, 2);
  WrapBuffer(&buffer, data, 8);
  cr_assert_eq(ArrowArraySetBuffer(&array, 2, &buffer), EINVAL);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, 1), EINVAL);
  cr_assert_eq(ArrowArraySetBuffer(&array, 1, &buffer), NANOARROW_OK);
  cr_assert_eq(array.buffers[1], data);
  cr_assert_eq(array.n_buffers, 2);
  ArrowArrayRelease(&array);
}
