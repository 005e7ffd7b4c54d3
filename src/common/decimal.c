/* Conversion between struct ArrowDecimal and decimal digit strings.
 *
 * The value is handled as an unsigned magnitude held in 32-bit limbs (least
 * significant first) so that every multiply/divide step fits in a uint64_t on
 * any C99 compiler; no 128-bit integer type is needed. */

#include <stdint.h>

#include "nanoarrow/nanoarrow.h"

/* 256 bits as 32-bit limbs. */
#define ARROW_DECIMAL_MAX_LIMBS 8
/* Largest power of ten that fits in a limb, and its number of digits. */
#define ARROW_DECIMAL_CHUNK_BASE 1000000000U
#define ARROW_DECIMAL_CHUNK_DIGITS 9
/* Digits of 2^256 (78) plus a sign, rounded up. */
#define ARROW_DECIMAL_MAX_CHARS 80

static const uint32_t kPowersOfTen[ARROW_DECIMAL_CHUNK_DIGITS + 1] = {
    1U,      10U,      100U,      1000U,      10000U,
    100000U, 1000000U, 10000000U, 100000000U, 1000000000U};

/* decimal32 has n_words == 0 and keeps its value sign-extended in words[0]. */
static int ArrowDecimalStoredWords(const struct ArrowDecimal* decimal) {
  return decimal->n_words == 0 ? 1 : decimal->n_words;
}

/* 32-bit limbs that hold the value: one for decimal32, two per word otherwise. */
static int ArrowDecimalValueLimbs(const struct ArrowDecimal* decimal) {
  return decimal->n_words == 0 ? 1 : 2 * decimal->n_words;
}

static int ArrowDecimalHasValidLayout(const struct ArrowDecimal* decimal) {
  if (decimal->n_words < 0 || decimal->n_words > 4) {
    return 0;
  }
  int last = ArrowDecimalStoredWords(decimal) - 1;
  return (decimal->low_word_index == 0 && decimal->high_word_index == last) ||
         (decimal->low_word_index == last && decimal->high_word_index == 0);
}

/* Position in decimal->words of the word with the given significance (0 = least). */
static int ArrowDecimalWordPosition(const struct ArrowDecimal* decimal, int significance) {
  if (decimal->low_word_index == 0) {
    return significance;
  }
  return ArrowDecimalStoredWords(decimal) - 1 - significance;
}

/* All stored words as limbs; returns the limb count (2 per stored word). */
static int ArrowDecimalToLimbs(const struct ArrowDecimal* decimal, uint32_t* limbs) {
  int n_words = ArrowDecimalStoredWords(decimal);
  for (int i = 0; i < n_words; i++) {
    uint64_t word = decimal->words[ArrowDecimalWordPosition(decimal, i)];
    limbs[2 * i] = (uint32_t)word;
    limbs[2 * i + 1] = (uint32_t)(word >> 32);
  }
  return 2 * n_words;
}

/* Stores a value given as n_value_limbs limbs, sign-extending it to every word. */
static void ArrowDecimalFromLimbs(struct ArrowDecimal* decimal, uint32_t* limbs,
                                  int n_value_limbs) {
  int n_words = ArrowDecimalStoredWords(decimal);
  uint32_t extension = (limbs[n_value_limbs - 1] & 0x80000000U) ? 0xFFFFFFFFU : 0;
  for (int i = n_value_limbs; i < 2 * n_words; i++) {
    limbs[i] = extension;
  }

  for (int i = 0; i < n_words; i++) {
    decimal->words[ArrowDecimalWordPosition(decimal, i)] =
        (uint64_t)limbs[2 * i] | ((uint64_t)limbs[2 * i + 1] << 32);
  }
}

/* Two's complement negation in place. */
static void ArrowLimbsNegate(uint32_t* limbs, int n_limbs) {
  uint64_t carry = 1;
  for (int i = 0; i < n_limbs; i++) {
    uint64_t sum = (uint64_t)(uint32_t)~limbs[i] + carry;
    limbs[i] = (uint32_t)sum;
    carry = sum >> 32;
  }
}

/* limbs = limbs * multiplier + addend; returns non-zero when the result does not
 * fit in n_limbs. (2^32 - 1) * 10^9 + 2^32 < 2^64, so nothing overflows here. */
static int ArrowLimbsMultiplyAdd(uint32_t* limbs, int n_limbs, uint32_t multiplier,
                                 uint32_t addend) {
  uint64_t carry = addend;
  for (int i = 0; i < n_limbs; i++) {
    uint64_t product = (uint64_t)limbs[i] * multiplier + carry;
    limbs[i] = (uint32_t)product;
    carry = product >> 32;
  }
  return carry != 0;
}

/* limbs[0, n_limbs) /= divisor; returns the remainder. */
static uint32_t ArrowLimbsDivide(uint32_t* limbs, int n_limbs, uint32_t divisor) {
  uint64_t remainder = 0;
  for (int i = n_limbs - 1; i >= 0; i--) {
    uint64_t current = (remainder << 32) | limbs[i];
    limbs[i] = (uint32_t)(current / divisor);
    remainder = current % divisor;
  }
  return (uint32_t)remainder;
}

NANOARROW_COLD
ArrowErrorCode ArrowDecimalSetDigits(struct ArrowDecimal* decimal,
                                     struct ArrowStringView value) {
  if (decimal == NULL || !ArrowDecimalHasValidLayout(decimal) || value.size_bytes < 0 ||
      (value.data == NULL && value.size_bytes > 0)) {
    return EINVAL;
  }

  const char* chars = value.data;
  int64_t pos = 0;
  int is_negative = 0;
  if (value.size_bytes > 0 && (chars[0] == '-' || chars[0] == '+')) {
    is_negative = chars[0] == '-';
    pos = 1;
  }

  if (pos == value.size_bytes) {
    return EINVAL;
  }

  uint32_t limbs[ARROW_DECIMAL_MAX_LIMBS] = {0};
  int n_limbs = ArrowDecimalValueLimbs(decimal);

  /* Consume up to nine digits at a time: one multiply-add per chunk. */
  while (pos < value.size_bytes) {
    int64_t chunk_digits = value.size_bytes - pos;
    if (chunk_digits > ARROW_DECIMAL_CHUNK_DIGITS) {
      chunk_digits = ARROW_DECIMAL_CHUNK_DIGITS;
    }

    uint32_t chunk = 0;
    for (int64_t i = 0; i < chunk_digits; i++) {
      char c = chars[pos + i];
      if (c < '0' || c > '9') {
        return EINVAL;
      }
      chunk = chunk * 10 + (uint32_t)(c - '0');
    }

    if (ArrowLimbsMultiplyAdd(limbs, n_limbs, kPowersOfTen[chunk_digits], chunk)) {
      return EINVAL;
    }
    pos += chunk_digits;
  }

  /* The magnitude must fit the signed range: below 2^(bits-1), or exactly
   * 2^(bits-1) for the most negative value. */
  if (limbs[n_limbs - 1] & 0x80000000U) {
    int is_min_magnitude = is_negative && limbs[n_limbs - 1] == 0x80000000U;
    for (int i = 0; is_min_magnitude && i < n_limbs - 1; i++) {
      is_min_magnitude = limbs[i] == 0;
    }
    if (!is_min_magnitude) {
      return EINVAL;
    }
  }

  if (is_negative) {
    ArrowLimbsNegate(limbs, n_limbs);
  }

  ArrowDecimalFromLimbs(decimal, limbs, n_limbs);
  return NANOARROW_OK;
}

/* Writes the sign and digits of the unscaled value into out (no terminator);
 * returns the number of characters written. */
NANOARROW_COLD
static int ArrowDecimalFormatDigits(const struct ArrowDecimal* decimal,
                                    char out[ARROW_DECIMAL_MAX_CHARS]) {
  uint32_t limbs[ARROW_DECIMAL_MAX_LIMBS] = {0};
  int n_limbs = ArrowDecimalToLimbs(decimal, limbs);

  int is_negative = (limbs[n_limbs - 1] & 0x80000000U) != 0;
  if (is_negative) {
    /* Read as unsigned, the negation of the most negative value is its magnitude. */
    ArrowLimbsNegate(limbs, n_limbs);
  }

  /* Fill from the end, nine digits per division. */
  char digits[ARROW_DECIMAL_MAX_CHARS];
  int start = ARROW_DECIMAL_MAX_CHARS;
  int n_significant_limbs = n_limbs;
  while (n_significant_limbs > 0 && limbs[n_significant_limbs - 1] == 0) {
    n_significant_limbs--;
  }

  while (n_significant_limbs > 0) {
    uint32_t chunk = ArrowLimbsDivide(limbs, n_significant_limbs, ARROW_DECIMAL_CHUNK_BASE);
    while (n_significant_limbs > 0 && limbs[n_significant_limbs - 1] == 0) {
      n_significant_limbs--;
    }

    /* Inner chunks keep their leading zeros; the most significant one does not. */
    for (int i = 0; i < ARROW_DECIMAL_CHUNK_DIGITS; i++) {
      if (n_significant_limbs == 0 && chunk == 0) {
        break;
      }
      digits[--start] = (char)('0' + chunk % 10);
      chunk /= 10;
    }
  }

  if (start == ARROW_DECIMAL_MAX_CHARS) {
    digits[--start] = '0';
  }

  int n_chars = 0;
  if (is_negative) {
    out[n_chars++] = '-';
  }
  memcpy(out + n_chars, digits + start, (size_t)(ARROW_DECIMAL_MAX_CHARS - start));
  return n_chars + (ARROW_DECIMAL_MAX_CHARS - start);
}

NANOARROW_COLD
ArrowErrorCode ArrowDecimalAppendDigitsToBuffer(const struct ArrowDecimal* decimal,
                                                struct ArrowBuffer* buffer) {
  if (decimal == NULL || buffer == NULL || !ArrowDecimalHasValidLayout(decimal)) {
    return EINVAL;
  }

  char text[ARROW_DECIMAL_MAX_CHARS];
  int n_chars = ArrowDecimalFormatDigits(decimal, text);
  return ArrowBufferAppend(buffer, text, n_chars);
}

NANOARROW_COLD
ArrowErrorCode ArrowDecimalAppendStringToBuffer(const struct ArrowDecimal* decimal,
                                                struct ArrowBuffer* buffer) {
  if (decimal == NULL || buffer == NULL || !ArrowDecimalHasValidLayout(decimal)) {
    return EINVAL;
  }

  char text[ARROW_DECIMAL_MAX_CHARS];
  int n_chars = ArrowDecimalFormatDigits(decimal, text);
  int sign_size = text[0] == '-';
  const char* digits = text + sign_size;
  int64_t n_digits = n_chars - sign_size;
  int64_t scale = decimal->scale;

  /* One reservation for whichever of the three shapes below applies. */
  int64_t n_integer_digits = n_digits - scale;
  int64_t total_size;
  if (scale <= 0) {
    total_size = n_chars - scale;
  } else if (n_integer_digits > 0) {
    total_size = n_chars + 1;
  } else {
    total_size = sign_size + 2 + scale;
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(buffer, total_size));

  if (scale <= 0) {
    /* e.g. 123 with scale -2 is 12300 */
    ArrowBufferAppendUnsafe(buffer, text, n_chars);
    memset(buffer->data + buffer->size_bytes, '0', (size_t)(-scale));
    buffer->size_bytes += -scale;
  } else if (n_integer_digits > 0) {
    /* e.g. 12345 with scale 3 is 12.345 */
    ArrowBufferAppendUnsafe(buffer, text, sign_size + n_integer_digits);
    ArrowBufferAppendUnsafe(buffer, ".", 1);
    ArrowBufferAppendUnsafe(buffer, digits + n_integer_digits, scale);
  } else {
    /* e.g. 5 with scale 3 is 0.005 */
    ArrowBufferAppendUnsafe(buffer, text, sign_size);
    ArrowBufferAppendUnsafe(buffer, "0.", 2);
    memset(buffer->data + buffer->size_bytes, '0', (size_t)-n_integer_digits);
    buffer->size_bytes += -n_integer_digits;
    ArrowBufferAppendUnsafe(buffer, digits, n_digits);
  }
  return NANOARROW_OK;
}
