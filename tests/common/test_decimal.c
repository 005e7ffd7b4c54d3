/* Decimals: layout, integer/byte access, sign, negation and digit conversion. */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

static const int32_t kBitwidths[] = {32, 64, 128, 256};

/* The word of the given significance (0 = least significant). */
static uint64_t WordAt(const struct ArrowDecimal* decimal, int significance) {
  int n_words = decimal->n_words == 0 ? 1 : decimal->n_words;
  if (decimal->low_word_index == 0) {
    return decimal->words[significance];
  }
  return decimal->words[n_words - 1 - significance];
}

/* Formats the unscaled value into out (null-terminated). */
static void DigitsOf(const struct ArrowDecimal* decimal, char* out, size_t out_size) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowDecimalAppendDigitsToBuffer(decimal, &buffer), NANOARROW_OK);
  cr_assert_lt((size_t)buffer.size_bytes, out_size);
  memcpy(out, buffer.data, (size_t)buffer.size_bytes);
  out[buffer.size_bytes] = '\0';
  ArrowBufferReset(&buffer);
}

static void StringOf(const struct ArrowDecimal* decimal, char* out, size_t out_size) {
  struct ArrowBuffer buffer;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowDecimalAppendStringToBuffer(decimal, &buffer), NANOARROW_OK);
  cr_assert_lt((size_t)buffer.size_bytes, out_size);
  memcpy(out, buffer.data, (size_t)buffer.size_bytes);
  out[buffer.size_bytes] = '\0';
  ArrowBufferReset(&buffer);
}

/* Parses text and checks that formatting gives it back unchanged. */
static void ExpectRoundTrip(int32_t bitwidth, const char* text) {
  struct ArrowDecimal decimal;
  char formatted[128];
  ArrowDecimalInit(&decimal, bitwidth, 10, 0);
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView(text)), NANOARROW_OK,
               "SetDigits(%s) failed for decimal%d", text, (int)bitwidth);
  DigitsOf(&decimal, formatted, sizeof(formatted));
  cr_assert_str_eq(formatted, text, "decimal%d round trip", (int)bitwidth);
}

static void ExpectInvalid(int32_t bitwidth, const char* text) {
  struct ArrowDecimal decimal;
  ArrowDecimalInit(&decimal, bitwidth, 10, 0);
  ArrowDecimalSetInt(&decimal, 42);
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView(text)), EINVAL,
               "SetDigits(\"%s\") should fail for decimal%d", text, (int)bitwidth);
  /* A failed parse leaves the previous value in place. */
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), 42);
}

Test(decimal, init_sets_layout_for_every_width) {
  const int expected_words[] = {0, 1, 2, 4};
  for (int i = 0; i < 4; i++) {
    struct ArrowDecimal decimal;
    memset(&decimal, 0xAB, sizeof(decimal));
    ArrowDecimalInit(&decimal, kBitwidths[i], 7, 3);
    cr_assert_eq(decimal.n_words, expected_words[i], "decimal%d", (int)kBitwidths[i]);
    cr_assert_eq(decimal.precision, 7);
    cr_assert_eq(decimal.scale, 3);
    for (int w = 0; w < 4; w++) {
      cr_assert_eq(decimal.words[w], 0);
    }
    int n_words = decimal.n_words == 0 ? 1 : decimal.n_words;
    cr_assert(decimal.low_word_index == 0 || decimal.low_word_index == n_words - 1);
    cr_assert_eq(decimal.low_word_index + decimal.high_word_index, n_words - 1);
    cr_assert_eq(ArrowDecimalSign(&decimal), 1);
  }
}

Test(decimal, set_int_get_int_every_width) {
  const int64_t values[] = {0, 1, -1, 123456, -123456, INT32_MAX, INT32_MIN};
  for (int i = 0; i < 4; i++) {
    for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
      struct ArrowDecimal decimal;
      ArrowDecimalInit(&decimal, kBitwidths[i], 10, 0);
      ArrowDecimalSetInt(&decimal, values[v]);
      cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), values[v]);
      cr_assert_eq(ArrowDecimalSign(&decimal), values[v] < 0 ? -1 : 1);
    }
  }

  /* Wider decimals sign-extend into every word. */
  struct ArrowDecimal decimal;
  ArrowDecimalInit(&decimal, 256, 10, 0);
  ArrowDecimalSetInt(&decimal, -2);
  cr_assert_eq(WordAt(&decimal, 0), (uint64_t)-2);
  for (int w = 1; w < 4; w++) {
    cr_assert_eq(WordAt(&decimal, w), UINT64_MAX);
  }
  ArrowDecimalSetInt(&decimal, INT64_MAX);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), INT64_MAX);
  for (int w = 1; w < 4; w++) {
    cr_assert_eq(WordAt(&decimal, w), 0);
  }
}

Test(decimal, bytes_round_trip_every_width) {
  for (int i = 0; i < 4; i++) {
    int32_t n_bytes = kBitwidths[i] / 8;
    uint8_t bytes[32];
    uint8_t out[33];
    for (int b = 0; b < n_bytes; b++) {
      bytes[b] = (uint8_t)(b * 37 + 11);
    }
    /* Sentinel after the value must not be written. */
    memset(out, 0xEE, sizeof(out));

    struct ArrowDecimal decimal;
    ArrowDecimalInit(&decimal, kBitwidths[i], 10, 0);
    ArrowDecimalSetBytes(&decimal, bytes);
    ArrowDecimalGetBytes(&decimal, out);
    cr_assert_eq(memcmp(out, bytes, (size_t)n_bytes), 0, "decimal%d", (int)kBitwidths[i]);
    cr_assert_eq(out[n_bytes], 0xEE, "decimal%d wrote past its width", (int)kBitwidths[i]);
  }
}

Test(decimal, decimal32_bytes_are_four_little_endian_bytes) {
  struct ArrowDecimal decimal;
  uint8_t out[8];
  memset(out, 0xEE, sizeof(out));
  ArrowDecimalInit(&decimal, 32, 9, 0);
  ArrowDecimalSetInt(&decimal, -2);
  ArrowDecimalGetBytes(&decimal, out);
  const uint8_t expected[] = {0xFE, 0xFF, 0xFF, 0xFF, 0xEE};
  cr_assert_eq(memcmp(out, expected, sizeof(expected)), 0);

  /* Only the first four bytes belong to the value. */
  const uint8_t negative_one[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00};
  ArrowDecimalSetBytes(&decimal, negative_one);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), -1);
  cr_assert_eq(ArrowDecimalSign(&decimal), -1);
}

Test(decimal, bytes_match_little_endian_two_complement) {
  struct ArrowDecimal decimal;
  uint8_t out[16];
  ArrowDecimalInit(&decimal, 128, 38, 0);
  ArrowDecimalSetInt(&decimal, -1);
  ArrowDecimalGetBytes(&decimal, out);
  for (int b = 0; b < 16; b++) {
    cr_assert_eq(out[b], 0xFF);
  }

  ArrowDecimalSetInt(&decimal, 0x0102);
  ArrowDecimalGetBytes(&decimal, out);
  cr_assert_eq(out[0], 0x02);
  cr_assert_eq(out[1], 0x01);
  for (int b = 2; b < 16; b++) {
    cr_assert_eq(out[b], 0);
  }
}

Test(decimal, negate_carries_across_words) {
  struct ArrowDecimal decimal;
  ArrowDecimalInit(&decimal, 128, 38, 0);
  ArrowDecimalSetInt(&decimal, 5);
  ArrowDecimalNegate(&decimal);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), -5);
  cr_assert_eq(WordAt(&decimal, 1), UINT64_MAX);
  cr_assert_eq(ArrowDecimalSign(&decimal), -1);
  ArrowDecimalNegate(&decimal);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), 5);
  cr_assert_eq(WordAt(&decimal, 1), 0);

  /* -(2^64) = ...FFFF 0000: the carry out of the low word reaches the high word. */
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView("18446744073709551616")),
               NANOARROW_OK);
  cr_assert_eq(WordAt(&decimal, 0), 0);
  cr_assert_eq(WordAt(&decimal, 1), 1);
  ArrowDecimalNegate(&decimal);
  cr_assert_eq(WordAt(&decimal, 0), 0);
  cr_assert_eq(WordAt(&decimal, 1), UINT64_MAX);

  char text[128];
  DigitsOf(&decimal, text, sizeof(text));
  cr_assert_str_eq(text, "-18446744073709551616");

  ArrowDecimalInit(&decimal, 256, 76, 0);
  ArrowDecimalSetInt(&decimal, 0);
  ArrowDecimalNegate(&decimal);
  for (int w = 0; w < 4; w++) {
    cr_assert_eq(WordAt(&decimal, w), 0);
  }
}

Test(decimal, set_digits_matches_set_int) {
  const int64_t values[] = {0,          1,           -1,         9,          10,
                            -10,        999999999,   1000000000, -1000000000,
                            1234567890, -9876543210, INT64_MAX,  INT64_MIN + 1,
                            INT64_MIN};
  for (int i = 1; i < 4; i++) {
    for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
      char text[32];
      snprintf(text, sizeof(text), "%" PRId64, values[v]);

      struct ArrowDecimal parsed;
      struct ArrowDecimal expected;
      ArrowDecimalInit(&parsed, kBitwidths[i], 19, 0);
      ArrowDecimalInit(&expected, kBitwidths[i], 19, 0);
      cr_assert_eq(ArrowDecimalSetDigits(&parsed, ArrowCharView(text)), NANOARROW_OK);
      ArrowDecimalSetInt(&expected, values[v]);
      cr_assert_eq(memcmp(parsed.words, expected.words, sizeof(parsed.words)), 0,
                   "%s as decimal%d", text, (int)kBitwidths[i]);

      char formatted[128];
      DigitsOf(&parsed, formatted, sizeof(formatted));
      cr_assert_str_eq(formatted, text);
    }
  }
}

Test(decimal, round_trips_limits_of_every_width) {
  ExpectRoundTrip(32, "2147483647");
  ExpectRoundTrip(32, "-2147483648");
  ExpectRoundTrip(32, "999999999");
  ExpectRoundTrip(32, "-999999999");
  ExpectRoundTrip(64, "9223372036854775807");
  ExpectRoundTrip(64, "-9223372036854775808");
  ExpectRoundTrip(64, "999999999999999999");
  ExpectRoundTrip(128, "170141183460469231731687303715884105727");
  ExpectRoundTrip(128, "-170141183460469231731687303715884105728");
  ExpectRoundTrip(128, "99999999999999999999999999999999999999");
  ExpectRoundTrip(128, "-99999999999999999999999999999999999999");
  ExpectRoundTrip(128, "18446744073709551615");
  ExpectRoundTrip(128, "18446744073709551616");
  ExpectRoundTrip(128, "1000000000000000000000000000");
  ExpectRoundTrip(256,
                  "578960446186580977117854925043439539266349923328202820197287920039565"
                  "64819967");
  ExpectRoundTrip(256,
                  "-57896044618658097711785492504343953926634992332820282019728792003956"
                  "564819968");
  ExpectRoundTrip(256,
                  "999999999999999999999999999999999999999999999999999999999999999999999"
                  "9999999");
  ExpectRoundTrip(256, "-1");
  ExpectRoundTrip(256, "0");
}

Test(decimal, decimal32_value_is_sign_extended) {
  struct ArrowDecimal decimal;
  ArrowDecimalInit(&decimal, 32, 9, 0);
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView("-2147483648")), NANOARROW_OK);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), INT32_MIN);
  cr_assert_eq(ArrowDecimalSign(&decimal), -1);
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView("2147483647")), NANOARROW_OK);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), INT32_MAX);
}

Test(decimal, set_digits_known_wide_values) {
  struct ArrowDecimal decimal;
  ArrowDecimalInit(&decimal, 128, 38, 0);
  cr_assert_eq(ArrowDecimalSetDigits(&decimal,
                                     ArrowCharView("-99999999999999999999999999999999999999")),
               NANOARROW_OK);
  cr_assert_eq(WordAt(&decimal, 0), 0xf675ddc000000001ULL);
  cr_assert_eq(WordAt(&decimal, 1), 0xb4c4b357a5793b85ULL);

  /* Computed independently (Python int -> two's complement words). */
  const char* texts[] = {
      "47548532878000795436471885496554996210469829388180983864669623532585348412472",
      "-12430175616472221454162180969950967837556342716352606253447509588223701520427",
      "31903456400540094894163005950035899511696464677071245378879139948489508212952",
      "-36510746213775588838223877389433971948203891823676734912011220440378176784934"};
  const uint64_t words[4][4] = {
      {0xf2a74de452e6b438ULL, 0x6513270e269e0d37ULL, 0x0c5c7fd0a6a3a450ULL,
       0x691f8412128b2f33ULL},
      {0xe7e717ee76d06fd5ULL, 0x6ace67a2a2623607ULL, 0x171da26bf126fb8aULL,
       0xe484c5197e18b10aULL},
      {0x1600a35a099950d8ULL, 0x6b0d549b6f03675aULL, 0x3d9c172411e20b8fULL,
       0x4688b7671738f7d9ULL},
      {0xf0de22499352b5daULL, 0x6f3e6d302c536b50ULL, 0x0d73efa2e04e83dcULL,
       0xaf47a663c6d9cfa6ULL}};

  for (int i = 0; i < 4; i++) {
    ArrowDecimalInit(&decimal, 256, 76, 0);
    cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView(texts[i])), NANOARROW_OK);
    for (int w = 0; w < 4; w++) {
      cr_assert_eq(WordAt(&decimal, w), words[i][w], "value %d word %d", i, w);
    }
    cr_assert_eq(ArrowDecimalSign(&decimal), texts[i][0] == '-' ? -1 : 1);

    char formatted[128];
    DigitsOf(&decimal, formatted, sizeof(formatted));
    cr_assert_str_eq(formatted, texts[i]);
  }
}

Test(decimal, round_trips_powers_of_ten_and_neighbours) {
  /* 10^k - 1, 10^k and 10^k + 1 exercise every chunk boundary of the conversion. */
  for (int k = 1; k <= 75; k++) {
    char text[96];
    for (int sign = 0; sign < 2; sign++) {
      int pos = 0;
      if (sign) {
        text[pos++] = '-';
      }
      /* 10^k - 1: k nines */
      memset(text + pos, '9', (size_t)k);
      text[pos + k] = '\0';
      ExpectRoundTrip(256, text);

      /* 10^k and 10^k + 1 */
      text[pos] = '1';
      memset(text + pos + 1, '0', (size_t)k);
      text[pos + k + 1] = '\0';
      ExpectRoundTrip(256, text);
      text[pos + k] = '1';
      ExpectRoundTrip(256, text);
    }
  }
}

Test(decimal, set_digits_accepts_sign_and_leading_zeros) {
  struct ArrowDecimal decimal;
  char text[128];
  ArrowDecimalInit(&decimal, 128, 38, 0);

  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView("+17")), NANOARROW_OK);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), 17);

  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView("-0")), NANOARROW_OK);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), 0);
  DigitsOf(&decimal, text, sizeof(text));
  cr_assert_str_eq(text, "0");

  /* Leading zeros do not count towards the width. */
  const char* padded =
      "00000000000000000000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000012";
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView(padded)), NANOARROW_OK);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), 12);

  /* Only size_bytes characters are read. */
  struct ArrowStringView prefix = {"12345", 3};
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, prefix), NANOARROW_OK);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), 123);
}

Test(decimal, set_digits_rejects_malformed_input) {
  for (int i = 0; i < 4; i++) {
    ExpectInvalid(kBitwidths[i], "");
    ExpectInvalid(kBitwidths[i], "-");
    ExpectInvalid(kBitwidths[i], "+");
    ExpectInvalid(kBitwidths[i], "--1");
    ExpectInvalid(kBitwidths[i], "+-1");
    ExpectInvalid(kBitwidths[i], " 1");
    ExpectInvalid(kBitwidths[i], "1 ");
    ExpectInvalid(kBitwidths[i], "12a");
    ExpectInvalid(kBitwidths[i], "1.5");
    ExpectInvalid(kBitwidths[i], "1e5");
    ExpectInvalid(kBitwidths[i], "0x10");
  }

  struct ArrowDecimal decimal;
  ArrowDecimalInit(&decimal, 128, 38, 0);
  struct ArrowStringView null_view = {NULL, 0};
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, null_view), EINVAL);
  struct ArrowStringView embedded_nul = {"1\0" "2", 3};
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, embedded_nul), EINVAL);
}

Test(decimal, set_digits_rejects_values_too_wide) {
  ExpectInvalid(32, "2147483648");
  ExpectInvalid(32, "-2147483649");
  ExpectInvalid(32, "99999999999");
  ExpectInvalid(64, "9223372036854775808");
  ExpectInvalid(64, "-9223372036854775809");
  ExpectInvalid(64, "18446744073709551616");
  ExpectInvalid(128, "170141183460469231731687303715884105728");
  ExpectInvalid(128, "-170141183460469231731687303715884105729");
  ExpectInvalid(128, "340282366920938463463374607431768211456");
  ExpectInvalid(256,
                "5789604461865809771178549250434395392663499233282028201972879200395656"
                "4819968");
  ExpectInvalid(256,
                "-578960446186580977117854925043439539266349923328202820197287920039565"
                "64819969");

  /* A very long number fails cleanly instead of overflowing anything. */
  char huge[4097];
  memset(huge, '9', sizeof(huge) - 1);
  huge[sizeof(huge) - 1] = '\0';
  for (int i = 0; i < 4; i++) {
    ExpectInvalid(kBitwidths[i], huge);
  }
}

Test(decimal, append_digits_appends_to_existing_content) {
  struct ArrowDecimal decimal;
  struct ArrowBuffer buffer;
  ArrowDecimalInit(&decimal, 64, 18, 0);
  ArrowDecimalSetInt(&decimal, -42);
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferAppend(&buffer, "x=", 2), NANOARROW_OK);
  cr_assert_eq(ArrowDecimalAppendDigitsToBuffer(&decimal, &buffer), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 5);
  cr_assert_eq(memcmp(buffer.data, "x=-42", 5), 0);
  ArrowBufferReset(&buffer);
}

static void ExpectString(int32_t bitwidth, const char* digits, int32_t scale,
                         const char* expected) {
  struct ArrowDecimal decimal;
  char text[256];
  ArrowDecimalInit(&decimal, bitwidth, 38, scale);
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView(digits)), NANOARROW_OK);
  StringOf(&decimal, text, sizeof(text));
  cr_assert_str_eq(text, expected, "%s with scale %d", digits, (int)scale);
}

Test(decimal, append_string_applies_scale) {
  ExpectString(128, "12345", 3, "12.345");
  ExpectString(128, "-12345", 3, "-12.345");
  ExpectString(128, "12345", 5, "0.12345");
  ExpectString(128, "-12345", 5, "-0.12345");
  ExpectString(128, "5", 3, "0.005");
  ExpectString(128, "-5", 3, "-0.005");
  ExpectString(128, "0", 2, "0.00");
  ExpectString(128, "1000", 3, "1.000");
  ExpectString(128, "123", 0, "123");
  ExpectString(128, "-123", 0, "-123");
  ExpectString(128, "123", -2, "12300");
  ExpectString(128, "-123", -3, "-123000");
  ExpectString(32, "-2147483648", 4, "-214748.3648");
  ExpectString(64, "9223372036854775807", 18, "9.223372036854775807");
  ExpectString(128, "-170141183460469231731687303715884105728", 38,
               "-1.70141183460469231731687303715884105728");
  ExpectString(256,
               "-57896044618658097711785492504343953926634992332820282019728792003956"
               "564819968",
               76,
               "-5.7896044618658097711785492504343953926634992332820282019728792003956"
               "564819968");
  ExpectString(256, "7", 40, "0.0000000000000000000000000000000000000007");
}

Test(decimal, invalid_layout_is_rejected) {
  struct ArrowDecimal decimal;
  struct ArrowBuffer buffer;
  ArrowDecimalInit(&decimal, 128, 38, 0);
  decimal.n_words = 7;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowDecimalSetDigits(&decimal, ArrowCharView("1")), EINVAL);
  cr_assert_eq(ArrowDecimalAppendDigitsToBuffer(&decimal, &buffer), EINVAL);
  cr_assert_eq(ArrowDecimalAppendStringToBuffer(&decimal, &buffer), EINVAL);
  cr_assert_eq(buffer.size_bytes, 0);
  ArrowBufferReset(&buffer);
}
