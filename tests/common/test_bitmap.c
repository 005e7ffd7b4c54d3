/* Bits and bitmaps, checked against bit-at-a-time reference implementations. */

#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

/* Huge requests must come back as NULL, as they do from plain malloc, instead of
 * aborting the test process under AddressSanitizer. */
const char* __asan_default_options(void);
const char* __asan_default_options(void) { return "allocator_may_return_null=1"; }

static int NaiveBit(const uint8_t* bits, int64_t i) { return (bits[i / 8] >> (i % 8)) & 1; }

static int64_t NaiveCount(const uint8_t* bits, int64_t offset, int64_t length) {
  int64_t count = 0;
  for (int64_t i = offset; i < offset + length; i++) {
    count += NaiveBit(bits, i);
  }
  return count;
}

/* Deterministic, irregular bytes. */
static void FillPseudoRandom(uint8_t* bytes, int64_t n, uint32_t seed) {
  uint32_t state = seed;
  for (int64_t i = 0; i < n; i++) {
    state = state * 1664525u + 1013904223u;
    bytes[i] = (uint8_t)(state >> 24);
  }
}

Test(bitmap, bytes_for_bits) {
  cr_assert_eq(ArrowBytesForBits(0), 0);
  cr_assert_eq(ArrowBytesForBits(1), 1);
  cr_assert_eq(ArrowBytesForBits(7), 1);
  cr_assert_eq(ArrowBytesForBits(8), 1);
  cr_assert_eq(ArrowBytesForBits(9), 2);
  cr_assert_eq(ArrowBytesForBits(64), 8);
  cr_assert_eq(ArrowBytesForBits(65), 9);
  cr_assert_eq(ArrowBytesForBits(INT64_MAX), ((int64_t)1 << 60));
}

Test(bitmap, bit_get_set_clear_are_lsb_first) {
  uint8_t bits[3] = {0, 0, 0};
  ArrowBitSet(bits, 0);
  ArrowBitSet(bits, 7);
  ArrowBitSet(bits, 9);
  ArrowBitSet(bits, 23);
  cr_assert_eq(bits[0], 0x81);
  cr_assert_eq(bits[1], 0x02);
  cr_assert_eq(bits[2], 0x80);

  cr_assert_eq(ArrowBitGet(bits, 0), 1);
  cr_assert_eq(ArrowBitGet(bits, 1), 0);
  cr_assert_eq(ArrowBitGet(bits, 9), 1);
  cr_assert_eq(ArrowBitGet(bits, 23), 1);

  ArrowBitClear(bits, 7);
  ArrowBitClear(bits, 8); /* already clear */
  cr_assert_eq(bits[0], 0x01);
  cr_assert_eq(bits[1], 0x02);

  ArrowBitSetTo(bits, 12, 1);
  ArrowBitSetTo(bits, 9, 0);
  ArrowBitSetTo(bits, 0, 0);
  ArrowBitSetTo(bits, 3, 2); /* any non-zero value sets */
  cr_assert_eq(bits[0], 0x08);
  cr_assert_eq(bits[1], 0x10);
  cr_assert_eq(bits[2], 0x80);
}

Test(bitmap, bits_set_to_matches_reference) {
  enum { kBytes = 24 };
  for (int64_t offset = 0; offset < 40; offset++) {
    for (int64_t length = 0; offset + length <= kBytes * 8; length += (length < 20 ? 1 : 7)) {
      for (uint8_t value = 0; value < 2; value++) {
        uint8_t actual[kBytes];
        uint8_t expected[kBytes];
        FillPseudoRandom(actual, kBytes, (uint32_t)(offset * 1000 + length));
        memcpy(expected, actual, kBytes);

        ArrowBitsSetTo(actual, offset, length, value);
        for (int64_t i = offset; i < offset + length; i++) {
          if (value) {
            expected[i / 8] = (uint8_t)(expected[i / 8] | (1u << (i % 8)));
          } else {
            expected[i / 8] = (uint8_t)(expected[i / 8] & ~(1u << (i % 8)));
          }
        }
        cr_assert_eq(memcmp(actual, expected, kBytes), 0,
                     "offset %d length %d value %d", (int)offset, (int)length, (int)value);
      }
    }
  }
}

Test(bitmap, count_set_matches_naive_count) {
  enum { kBytes = 80 };
  uint8_t bits[kBytes];
  for (uint32_t seed = 1; seed <= 3; seed++) {
    FillPseudoRandom(bits, kBytes, seed);
    for (int64_t offset = 0; offset < 80; offset++) {
      for (int64_t length = 0; offset + length <= kBytes * 8; length += (length < 70 ? 1 : 13)) {
        cr_assert_eq(ArrowBitCountSet(bits, offset, length), NaiveCount(bits, offset, length),
                     "offset %d length %d", (int)offset, (int)length);
      }
    }
  }

  /* All ones and all zeros. */
  memset(bits, 0xFF, kBytes);
  cr_assert_eq(ArrowBitCountSet(bits, 3, 600), 600);
  memset(bits, 0x00, kBytes);
  cr_assert_eq(ArrowBitCountSet(bits, 3, 600), 0);
}

Test(bitmap, unpack_int8_and_int32) {
  uint8_t bits[6];
  FillPseudoRandom(bits, sizeof(bits), 99);
  for (int64_t offset = 0; offset < 16; offset++) {
    for (int64_t length = 0; offset + length <= 48; length++) {
      int8_t out8[48 + 1];
      int32_t out32[48 + 1];
      out8[length] = 42;
      out32[length] = 42;
      ArrowBitsUnpackInt8(bits, offset, length, out8);
      ArrowBitsUnpackInt32(bits, offset, length, out32);
      for (int64_t i = 0; i < length; i++) {
        cr_assert_eq(out8[i], NaiveBit(bits, offset + i));
        cr_assert_eq(out32[i], NaiveBit(bits, offset + i));
      }
      /* Nothing written past length. */
      cr_assert_eq(out8[length], 42);
      cr_assert_eq(out32[length], 42);
    }
  }
}

Test(bitmap, init_reserve_reset) {
  struct ArrowBitmap bitmap;
  ArrowBitmapInit(&bitmap);
  cr_assert_eq(bitmap.size_bits, 0);
  cr_assert_null(bitmap.buffer.data);
  cr_assert_eq(bitmap.buffer.size_bytes, 0);

  cr_assert_eq(ArrowBitmapReserve(&bitmap, 100), NANOARROW_OK);
  cr_assert_geq(bitmap.buffer.capacity_bytes, 13);
  cr_assert_eq(bitmap.size_bits, 0);
  cr_assert_eq(bitmap.buffer.size_bytes, 0);

  /* A negative additional size reserves nothing (as in nanoarrow); appending a
   * negative number of bits is refused. */
  cr_assert_eq(ArrowBitmapReserve(&bitmap, -1), NANOARROW_OK);
  cr_assert_eq(ArrowBitmapReserve(&bitmap, INT64_MIN), NANOARROW_OK);
  cr_assert_geq(bitmap.buffer.capacity_bytes, 13);
  cr_assert_eq(ArrowBitmapAppend(&bitmap, 1, -1), EINVAL);
  cr_assert_eq(bitmap.size_bits, 0);
  cr_assert_neq(ArrowBitmapReserve(&bitmap, INT64_MAX), NANOARROW_OK);

  ArrowBitmapReset(&bitmap);
  cr_assert_null(bitmap.buffer.data);
  cr_assert_eq(bitmap.size_bits, 0);
}

Test(bitmap, append_runs_crossing_bytes) {
  struct ArrowBitmap bitmap;
  ArrowBitmapInit(&bitmap);

  /* Runs of varying lengths and values, compared with the expected bit string. */
  uint8_t expected[400];
  int64_t n_expected = 0;
  const int64_t run_lengths[] = {3, 1, 0, 9, 17, 64, 2, 70, 5, 100, 1, 8};
  for (size_t r = 0; r < sizeof(run_lengths) / sizeof(run_lengths[0]); r++) {
    uint8_t value = (uint8_t)(r % 2 == 0);
    cr_assert_eq(ArrowBitmapAppend(&bitmap, value, run_lengths[r]), NANOARROW_OK);
    for (int64_t i = 0; i < run_lengths[r]; i++) {
      expected[n_expected++] = value;
    }
    cr_assert_eq(bitmap.size_bits, n_expected);
    cr_assert_eq(bitmap.buffer.size_bytes, ArrowBytesForBits(n_expected));
  }

  for (int64_t i = 0; i < n_expected; i++) {
    cr_assert_eq(ArrowBitGet(bitmap.buffer.data, i), expected[i], "bit %d", (int)i);
  }

  int64_t n_set = 0;
  for (int64_t i = 0; i < n_expected; i++) {
    n_set += expected[i];
  }
  cr_assert_eq(ArrowBitCountSet(bitmap.buffer.data, 0, bitmap.size_bits), n_set);

  ArrowBitmapReset(&bitmap);
}

Test(bitmap, append_unsafe_after_reserve) {
  struct ArrowBitmap bitmap;
  ArrowBitmapInit(&bitmap);
  cr_assert_eq(ArrowBitmapReserve(&bitmap, 20), NANOARROW_OK);
  ArrowBitmapAppendUnsafe(&bitmap, 1, 5);
  ArrowBitmapAppendUnsafe(&bitmap, 0, 6);
  ArrowBitmapAppendUnsafe(&bitmap, 1, 9);
  cr_assert_eq(bitmap.size_bits, 20);
  cr_assert_eq(bitmap.buffer.size_bytes, 3);
  /* 11111000 000 111111111 -> bytes 0x1F, 0xF8 (bits 11-15), 0x0F (bits 16-19) */
  cr_assert_eq(bitmap.buffer.data[0], 0x1F);
  cr_assert_eq(bitmap.buffer.data[1], 0xF8);
  cr_assert_eq(bitmap.buffer.data[2] & 0x0F, 0x0F);
  ArrowBitmapReset(&bitmap);
}

Test(bitmap, append_int8_and_int32_unsafe_at_unaligned_start) {
  int8_t values8[37];
  int32_t values32[37];
  for (int i = 0; i < 37; i++) {
    values8[i] = (int8_t)((i * 5) % 3 == 0 ? 0 : (i % 2 ? -1 : 7));
    values32[i] = (i % 4 == 1) ? 0 : i * 1000 - 3;
  }

  struct ArrowBitmap bitmap;
  ArrowBitmapInit(&bitmap);
  cr_assert_eq(ArrowBitmapAppend(&bitmap, 1, 3), NANOARROW_OK);
  cr_assert_eq(ArrowBitmapReserve(&bitmap, 74), NANOARROW_OK);
  ArrowBitmapAppendInt8Unsafe(&bitmap, values8, 37);
  ArrowBitmapAppendInt32Unsafe(&bitmap, values32, 37);
  cr_assert_eq(bitmap.size_bits, 3 + 74);
  cr_assert_eq(bitmap.buffer.size_bytes, ArrowBytesForBits(77));

  for (int i = 0; i < 3; i++) {
    cr_assert_eq(ArrowBitGet(bitmap.buffer.data, i), 1);
  }
  for (int i = 0; i < 37; i++) {
    cr_assert_eq(ArrowBitGet(bitmap.buffer.data, 3 + i), values8[i] != 0, "int8 %d", i);
    cr_assert_eq(ArrowBitGet(bitmap.buffer.data, 40 + i), values32[i] != 0, "int32 %d", i);
  }
  ArrowBitmapReset(&bitmap);
}

Test(bitmap, resize_is_a_capacity_and_shrinks_the_bit_count_only) {
  struct ArrowBitmap bitmap;
  ArrowBitmapInit(&bitmap);
  cr_assert_eq(ArrowBitmapAppend(&bitmap, 1, 10), NANOARROW_OK);

  /* Growing adds capacity (cleared), not bits. */
  cr_assert_eq(ArrowBitmapResize(&bitmap, 100, 0), NANOARROW_OK);
  cr_assert_eq(bitmap.size_bits, 10);
  cr_assert_eq(bitmap.buffer.size_bytes, 2);
  cr_assert_geq(bitmap.buffer.capacity_bytes, 13);
  cr_assert_eq(ArrowBitCountSet(bitmap.buffer.data, 0, 10), 10);
  cr_assert_eq(ArrowBitCountSet(bitmap.buffer.data, 16, 84), 0);

  /* A larger capacity than the bits, without shrink_to_fit: nothing changes. */
  cr_assert_eq(ArrowBitmapResize(&bitmap, 50, 0), NANOARROW_OK);
  cr_assert_eq(bitmap.size_bits, 10);
  cr_assert_geq(bitmap.buffer.capacity_bytes, 13);

  /* Below the bit count: the bits go, and shrink_to_fit gives the memory back. */
  cr_assert_eq(ArrowBitmapResize(&bitmap, 9, 1), NANOARROW_OK);
  cr_assert_eq(bitmap.size_bits, 9);
  cr_assert_eq(bitmap.buffer.size_bytes, 2);
  cr_assert_eq(bitmap.buffer.capacity_bytes, 2);
  cr_assert_eq(ArrowBitCountSet(bitmap.buffer.data, 0, 9), 9);

  cr_assert_eq(ArrowBitmapResize(&bitmap, -1, 0), EINVAL);
  cr_assert_eq(bitmap.size_bits, 9);

  cr_assert_eq(ArrowBitmapResize(&bitmap, 0, 1), NANOARROW_OK);
  cr_assert_eq(bitmap.size_bits, 0);
  cr_assert_eq(bitmap.buffer.size_bytes, 0);
  cr_assert_eq(bitmap.buffer.capacity_bytes, 0);
  ArrowBitmapReset(&bitmap);
}

/* nanoarrow's documented use: resize to the final length, then append unsafely.
 * When resizing added bits, the appends went past the buffer (ASan:
 * heap-buffer-overflow in ArrowBitsSetTo). */
Test(bitmap, resize_then_append_unsafe_stays_in_the_buffer) {
  struct ArrowBitmap bitmap;
  ArrowBitmapInit(&bitmap);
  cr_assert_eq(ArrowBitmapResize(&bitmap, 200, 0), NANOARROW_OK);
  cr_assert_eq(bitmap.size_bits, 0);
  cr_assert_eq(bitmap.buffer.size_bytes, 0);
  cr_assert_eq(bitmap.buffer.capacity_bytes, 25);

  ArrowBitmapAppendUnsafe(&bitmap, 1, 100);
  ArrowBitmapAppendUnsafe(&bitmap, 0, 100);
  cr_assert_eq(bitmap.size_bits, 200);
  cr_assert_eq(bitmap.buffer.size_bytes, 25);
  cr_assert_eq(ArrowBitCountSet(bitmap.buffer.data, 0, 200), 100);

  /* Shrinking to fit where the bytes already match keeps them. */
  cr_assert_eq(ArrowBitmapResize(&bitmap, 199, 1), NANOARROW_OK);
  cr_assert_eq(bitmap.size_bits, 199);
  cr_assert_eq(bitmap.buffer.size_bytes, 25);
  cr_assert_eq(bitmap.buffer.capacity_bytes, 25);
  ArrowBitmapReset(&bitmap);
}

Test(bitmap, move_transfers_bits) {
  struct ArrowBitmap src;
  struct ArrowBitmap dst;
  ArrowBitmapInit(&src);
  cr_assert_eq(ArrowBitmapAppend(&src, 1, 11), NANOARROW_OK);
  uint8_t* data = src.buffer.data;

  ArrowBitmapMove(&src, &dst);
  cr_assert_eq(dst.buffer.data, data);
  cr_assert_eq(dst.size_bits, 11);
  cr_assert_null(src.buffer.data);
  cr_assert_eq(src.size_bits, 0);

  ArrowBitmapReset(&src);
  ArrowBitmapReset(&dst);
}

Test(bitmap, many_single_appends) {
  struct ArrowBitmap bitmap;
  ArrowBitmapInit(&bitmap);
  for (int i = 0; i < 5000; i++) {
    cr_assert_eq(ArrowBitmapAppend(&bitmap, (uint8_t)(i % 3 == 0), 1), NANOARROW_OK);
  }
  cr_assert_eq(bitmap.size_bits, 5000);
  for (int i = 0; i < 5000; i++) {
    cr_assert_eq(ArrowBitGet(bitmap.buffer.data, i), i % 3 == 0);
  }
  cr_assert_eq(ArrowBitCountSet(bitmap.buffer.data, 0, 5000), 1667);
  ArrowBitmapReset(&bitmap);
}
