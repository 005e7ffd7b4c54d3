/* ArrowBuffer: growth, resizing, moving, allocators and typed appends. */

#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

/* Huge requests must come back as NULL, as they do from plain malloc, instead of
 * aborting the test process under AddressSanitizer. */
const char* __asan_default_options(void);
const char* __asan_default_options(void) { return "allocator_may_return_null=1"; }

/* An allocator that counts calls and delegates to the default one. */
struct CountingAllocatorStats {
  int n_reallocate;
  int n_free;
  int64_t bytes_live;
};

static uint8_t* CountingReallocate(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                                   int64_t old_size, int64_t new_size) {
  struct CountingAllocatorStats* stats =
      (struct CountingAllocatorStats*)allocator->private_data;
  stats->n_reallocate++;
  uint8_t* out = (uint8_t*)ArrowRealloc(ptr, new_size);
  if (out != NULL) {
    stats->bytes_live += new_size - old_size;
  }
  return out;
}

static void CountingFree(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                         int64_t size) {
  struct CountingAllocatorStats* stats =
      (struct CountingAllocatorStats*)allocator->private_data;
  stats->n_free++;
  stats->bytes_live -= size;
  ArrowFree(ptr);
}

static struct ArrowBufferAllocator CountingAllocator(struct CountingAllocatorStats* stats) {
  struct ArrowBufferAllocator allocator;
  allocator.reallocate = &CountingReallocate;
  allocator.free = &CountingFree;
  allocator.private_data = stats;
  return allocator;
}

Test(buffer, init_is_empty_with_default_allocator) {
  struct ArrowBuffer buffer;
  memset(&buffer, 0xCD, sizeof(buffer));
  ArrowBufferInit(&buffer);
  cr_assert_null(buffer.data);
  cr_assert_eq(buffer.size_bytes, 0);
  cr_assert_eq(buffer.capacity_bytes, 0);
  cr_assert_eq(buffer.allocator.reallocate, ArrowBufferAllocatorDefault().reallocate);
  cr_assert_eq(buffer.allocator.free, ArrowBufferAllocatorDefault().free);
  ArrowBufferReset(&buffer);
  cr_assert_null(buffer.data);
}

Test(buffer, reserve_grows_capacity_not_size) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);

  cr_assert_eq(ArrowBufferReserve(&buffer, 0), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 0);

  cr_assert_eq(ArrowBufferReserve(&buffer, 100), NANOARROW_OK);
  cr_assert_not_null(buffer.data);
  cr_assert_geq(buffer.capacity_bytes, 100);
  cr_assert_eq(buffer.size_bytes, 0);

  /* Reserving is relative to the current size. */
  cr_assert_eq(ArrowBufferAppendFill(&buffer, 1, 100), NANOARROW_OK);
  cr_assert_eq(ArrowBufferReserve(&buffer, 1000), NANOARROW_OK);
  cr_assert_geq(buffer.capacity_bytes, 1100);
  cr_assert_eq(buffer.size_bytes, 100);
  for (int i = 0; i < 100; i++) {
    cr_assert_eq(buffer.data[i], 1);
  }

  /* Already enough room: nothing moves. */
  uint8_t* data = buffer.data;
  int64_t capacity = buffer.capacity_bytes;
  cr_assert_eq(ArrowBufferReserve(&buffer, 10), NANOARROW_OK);
  cr_assert_eq(buffer.data, data);
  cr_assert_eq(buffer.capacity_bytes, capacity);

  ArrowBufferReset(&buffer);
}

/* Capacities follow the documented rule exactly (callers size buffers by it): a
 * reserve takes the larger of twice the capacity and what is needed, no minimum. */
Test(buffer, reserve_capacity_is_max_of_double_and_needed) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferReserve(&buffer, 10), NANOARROW_OK);
  cr_assert_eq(buffer.capacity_bytes, 10);
  cr_assert_eq(ArrowBufferAppendFill(&buffer, 0, 10), NANOARROW_OK);
  cr_assert_eq(ArrowBufferReserve(&buffer, 1), NANOARROW_OK);
  cr_assert_eq(buffer.capacity_bytes, 20);
  cr_assert_eq(ArrowBufferReserve(&buffer, 100), NANOARROW_OK);
  cr_assert_eq(buffer.capacity_bytes, 110);
  ArrowBufferReset(&buffer);

  struct ArrowBitmap bitmap;
  ArrowBitmapInit(&bitmap);
  cr_assert_eq(ArrowBitmapReserve(&bitmap, 1), NANOARROW_OK);
  cr_assert_eq(bitmap.buffer.capacity_bytes, 1);
  /* Growing clears only the bytes it adds: what the caller wrote stays. */
  bitmap.buffer.data[0] = 0xff;
  cr_assert_eq(ArrowBitmapReserve(&bitmap, 9), NANOARROW_OK);
  cr_assert_eq(bitmap.buffer.capacity_bytes, 2);
  cr_assert_eq(bitmap.buffer.data[0], 0xff);
  cr_assert_eq(bitmap.buffer.data[1], 0x00);
  cr_assert_eq(ArrowBitmapResize(&bitmap, 200, 0), NANOARROW_OK);
  cr_assert_eq(bitmap.buffer.capacity_bytes, 25);
  ArrowBitmapReset(&bitmap);
}

Test(buffer, growth_is_geometric) {
  struct CountingAllocatorStats stats = {0, 0, 0};
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferSetAllocator(&buffer, CountingAllocator(&stats)), NANOARROW_OK);

  for (int i = 0; i < 100000; i++) {
    cr_assert_eq(ArrowBufferAppendUInt8(&buffer, (uint8_t)i), NANOARROW_OK);
  }
  cr_assert_eq(buffer.size_bytes, 100000);
  /* One reallocation per append would be 100000; doubling needs about 17. */
  cr_assert_leq(stats.n_reallocate, 40, "reallocations: %d", stats.n_reallocate);
  for (int i = 0; i < 100000; i++) {
    cr_assert_eq(buffer.data[i], (uint8_t)i);
  }

  ArrowBufferReset(&buffer);
  cr_assert_eq(stats.n_free, 1);
  cr_assert_eq(stats.bytes_live, 0);
}

Test(buffer, resize_grows_and_shrinks) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);

  cr_assert_eq(ArrowBufferResize(&buffer, 64, 0), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 64);
  cr_assert_geq(buffer.capacity_bytes, 64);
  memset(buffer.data, 3, 64);

  /* Shrinking without shrink_to_fit keeps the capacity. */
  int64_t capacity = buffer.capacity_bytes;
  cr_assert_eq(ArrowBufferResize(&buffer, 10, 0), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 10);
  cr_assert_eq(buffer.capacity_bytes, capacity);

  /* shrink_to_fit releases the rest and keeps the content. */
  cr_assert_eq(ArrowBufferResize(&buffer, 5, 1), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 5);
  cr_assert_eq(buffer.capacity_bytes, 5);
  for (int i = 0; i < 5; i++) {
    cr_assert_eq(buffer.data[i], 3);
  }

  /* Growing again keeps the content. */
  cr_assert_eq(ArrowBufferResize(&buffer, 1000, 1), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 1000);
  for (int i = 0; i < 5; i++) {
    cr_assert_eq(buffer.data[i], 3);
  }

  cr_assert_eq(ArrowBufferResize(&buffer, -1, 0), EINVAL);
  cr_assert_eq(buffer.size_bytes, 1000);

  cr_assert_eq(ArrowBufferResize(&buffer, 0, 1), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 0);
  cr_assert_eq(buffer.capacity_bytes, 0);
  ArrowBufferReset(&buffer);
}

Test(buffer, move_transfers_ownership) {
  struct ArrowBuffer src;
  struct ArrowBuffer dst;
  ArrowBufferInit(&src);
  cr_assert_eq(ArrowBufferAppend(&src, "abcdef", 6), NANOARROW_OK);
  uint8_t* data = src.data;
  int64_t capacity = src.capacity_bytes;

  ArrowBufferMove(&src, &dst);
  cr_assert_eq(dst.data, data);
  cr_assert_eq(dst.size_bytes, 6);
  cr_assert_eq(dst.capacity_bytes, capacity);
  cr_assert_eq(memcmp(dst.data, "abcdef", 6), 0);

  cr_assert_null(src.data);
  cr_assert_eq(src.size_bytes, 0);
  cr_assert_eq(src.capacity_bytes, 0);

  /* The moved-from buffer stays usable. */
  ArrowBufferReset(&src);
  cr_assert_eq(ArrowBufferAppendInt8(&src, 1), NANOARROW_OK);
  ArrowBufferReset(&src);
  ArrowBufferReset(&dst);
}

Test(buffer, move_keeps_custom_allocator) {
  struct CountingAllocatorStats stats = {0, 0, 0};
  struct ArrowBuffer src;
  struct ArrowBuffer dst;
  ArrowBufferInit(&src);
  cr_assert_eq(ArrowBufferSetAllocator(&src, CountingAllocator(&stats)), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendInt32(&src, 7), NANOARROW_OK);

  ArrowBufferMove(&src, &dst);
  /* src is left with the default allocator: resetting it frees nothing of dst's. */
  cr_assert_neq(src.allocator.private_data, &stats);
  ArrowBufferReset(&src);
  cr_assert_eq(stats.n_free, 0);
  ArrowBufferReset(&dst);
  cr_assert_eq(stats.n_free, 1);
  cr_assert_eq(stats.bytes_live, 0);
}

/* Reset hands an empty buffer to the allocator's free too (a custom deallocator
 * may own the object the buffer wrapped), then restores the default allocator. */
Test(buffer, reset_frees_through_allocator_even_when_empty) {
  struct CountingAllocatorStats stats = {0, 0, 0};
  struct ArrowBuffer buffer;
  struct ArrowBufferAllocator fallback = ArrowBufferAllocatorDefault();
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferSetAllocator(&buffer, CountingAllocator(&stats)), NANOARROW_OK);
  ArrowBufferReset(&buffer);
  cr_assert_eq(stats.n_free, 1);
  cr_assert_null(buffer.data);
  cr_assert_eq(buffer.allocator.free, fallback.free);
  cr_assert_eq(buffer.allocator.reallocate, fallback.reallocate);
  ArrowBufferReset(&buffer);
  cr_assert_eq(stats.n_free, 1);
}

Test(buffer, custom_allocator_sees_every_call) {
  struct CountingAllocatorStats stats = {0, 0, 0};
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferSetAllocator(&buffer, CountingAllocator(&stats)), NANOARROW_OK);
  cr_assert_eq(buffer.allocator.private_data, &stats);

  cr_assert_eq(ArrowBufferReserve(&buffer, 10), NANOARROW_OK);
  cr_assert_eq(stats.n_reallocate, 1);
  cr_assert_eq(stats.bytes_live, buffer.capacity_bytes);

  cr_assert_eq(ArrowBufferResize(&buffer, 3, 1), NANOARROW_OK);
  cr_assert_eq(stats.n_reallocate, 2);
  cr_assert_eq(stats.bytes_live, 3);

  ArrowBufferReset(&buffer);
  cr_assert_eq(stats.n_free, 1);
  cr_assert_eq(stats.bytes_live, 0);
}

Test(buffer, set_allocator_rejects_non_empty_buffer) {
  struct CountingAllocatorStats stats = {0, 0, 0};
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferAppendInt64(&buffer, 1), NANOARROW_OK);

  struct ArrowBufferAllocator before = buffer.allocator;
  cr_assert_eq(ArrowBufferSetAllocator(&buffer, CountingAllocator(&stats)), EINVAL);
  cr_assert_eq(buffer.allocator.reallocate, before.reallocate);
  cr_assert_eq(buffer.allocator.free, before.free);

  ArrowBufferReset(&buffer);
  cr_assert_eq(stats.n_free, 0);
}

Test(buffer, append_bytes_and_unsafe) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferAppend(&buffer, "1234", 4), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(&buffer, "", 0), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(&buffer, NULL, 0), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 4);

  cr_assert_eq(ArrowBufferReserve(&buffer, 3), NANOARROW_OK);
  ArrowBufferAppendUnsafe(&buffer, "567", 3);
  cr_assert_eq(buffer.size_bytes, 7);
  cr_assert_eq(memcmp(buffer.data, "1234567", 7), 0);
  ArrowBufferReset(&buffer);
}

Test(buffer, append_fill) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferAppendFill(&buffer, 0xAB, 5), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendFill(&buffer, 0x00, 3), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendFill(&buffer, 0x11, 0), NANOARROW_OK);
  /* Nothing to fill touches nothing, not even the buffer. */
  cr_assert_eq(ArrowBufferAppendFill(NULL, 0x11, 0), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 8);
  const uint8_t expected[] = {0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0, 0, 0};
  cr_assert_eq(memcmp(buffer.data, expected, 8), 0);
  cr_assert_neq(ArrowBufferAppendFill(&buffer, 0, -1), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 8);
  ArrowBufferReset(&buffer);
}

Test(buffer, append_every_width) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);

  cr_assert_eq(ArrowBufferAppendInt8(&buffer, -2), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendUInt8(&buffer, 200), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendInt16(&buffer, -300), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendUInt16(&buffer, 60000), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendInt32(&buffer, -70000), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendUInt32(&buffer, 4000000000u), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendInt64(&buffer, INT64_MIN), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendUInt64(&buffer, UINT64_MAX - 1), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendDouble(&buffer, -1.25), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendFloat(&buffer, 3.5f), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 1 + 1 + 2 + 2 + 4 + 4 + 8 + 8 + 8 + 4);

  /* Values are stored unaligned, back to back; read them the same way. */
  const uint8_t* p = buffer.data;
  int8_t i8;
  uint8_t u8;
  int16_t i16;
  uint16_t u16;
  int32_t i32;
  uint32_t u32;
  int64_t i64;
  uint64_t u64;
  double f64;
  float f32;
  memcpy(&i8, p, 1);
  p += 1;
  memcpy(&u8, p, 1);
  p += 1;
  memcpy(&i16, p, 2);
  p += 2;
  memcpy(&u16, p, 2);
  p += 2;
  memcpy(&i32, p, 4);
  p += 4;
  memcpy(&u32, p, 4);
  p += 4;
  memcpy(&i64, p, 8);
  p += 8;
  memcpy(&u64, p, 8);
  p += 8;
  memcpy(&f64, p, 8);
  p += 8;
  memcpy(&f32, p, 4);

  cr_assert_eq(i8, -2);
  cr_assert_eq(u8, 200);
  cr_assert_eq(i16, -300);
  cr_assert_eq(u16, 60000);
  cr_assert_eq(i32, -70000);
  cr_assert_eq(u32, 4000000000u);
  cr_assert_eq(i64, INT64_MIN);
  cr_assert_eq(u64, UINT64_MAX - 1);
  cr_assert_eq(f64, -1.25);
  cr_assert_eq(f32, 3.5f);

  ArrowBufferReset(&buffer);
}

Test(buffer, append_string_and_buffer_views) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);

  cr_assert_eq(ArrowBufferAppendStringView(&buffer, ArrowCharView("hello")), NANOARROW_OK);
  struct ArrowStringView partial = {" world!!", 6};
  cr_assert_eq(ArrowBufferAppendStringView(&buffer, partial), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppendStringView(&buffer, ArrowCharView(NULL)), NANOARROW_OK);

  const int32_t ints[] = {1, 2};
  struct ArrowBufferView view;
  view.data.as_int32 = ints;
  view.size_bytes = sizeof(ints);
  cr_assert_eq(ArrowBufferAppendBufferView(&buffer, view), NANOARROW_OK);

  cr_assert_eq(buffer.size_bytes, 11 + 8);
  cr_assert_eq(memcmp(buffer.data, "hello world", 11), 0);
  cr_assert_eq(memcmp(buffer.data + 11, ints, 8), 0);
  ArrowBufferReset(&buffer);
}

Test(buffer, char_view) {
  struct ArrowStringView view = ArrowCharView("abc");
  cr_assert_eq(view.size_bytes, 3);
  cr_assert_eq(strncmp(view.data, "abc", 3), 0);
  view = ArrowCharView(NULL);
  cr_assert_null(view.data);
  cr_assert_eq(view.size_bytes, 0);
}

Test(buffer, huge_or_negative_sizes_fail_cleanly) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferAppend(&buffer, "xyz", 3), NANOARROW_OK);

  {
    /* A negative additional size reserves nothing (as in nanoarrow). */
    int64_t capacity = buffer.capacity_bytes;
    const uint8_t* data = buffer.data;
    cr_assert_eq(ArrowBufferReserve(&buffer, -1), NANOARROW_OK);
    cr_assert_eq(ArrowBufferReserve(&buffer, INT64_MIN), NANOARROW_OK);
    cr_assert_eq(buffer.capacity_bytes, capacity);
    cr_assert_eq(buffer.data, data);
  }
  /* Appending a negative number of bytes is still refused. */
  cr_assert_eq(ArrowBufferAppend(&buffer, "x", -1), EINVAL);
  cr_assert_eq(ArrowBufferAppendFill(&buffer, 0, -1), EINVAL);
  cr_assert_neq(ArrowBufferReserve(&buffer, INT64_MAX), NANOARROW_OK);
  cr_assert_neq(ArrowBufferReserve(&buffer, INT64_MAX - 3), NANOARROW_OK);
  cr_assert_neq(ArrowBufferReserve(&buffer, (int64_t)1 << 62), NANOARROW_OK);
  cr_assert_neq(ArrowBufferResize(&buffer, INT64_MAX, 0), NANOARROW_OK);
  cr_assert_neq(ArrowBufferAppendFill(&buffer, 0, INT64_MAX), NANOARROW_OK);
  /* volatile: keeps the compiler from flagging the (never executed) huge copy. */
  volatile int64_t huge_size = INT64_MAX;
  cr_assert_neq(ArrowBufferAppend(&buffer, "", huge_size), NANOARROW_OK);

  /* The buffer is unharmed by the failures. */
  cr_assert_eq(buffer.size_bytes, 3);
  cr_assert_eq(memcmp(buffer.data, "xyz", 3), 0);
  cr_assert_eq(ArrowBufferAppend(&buffer, "w", 1), NANOARROW_OK);
  cr_assert_eq(memcmp(buffer.data, "xyzw", 4), 0);
  ArrowBufferReset(&buffer);

  /* Also from an empty buffer. */
  ArrowBufferInit(&buffer);
  cr_assert_neq(ArrowBufferReserve(&buffer, INT64_MAX), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 0);
  ArrowBufferReset(&buffer);
}
