/* Helpers shared by the files of the nanoarrow_testing library (not installed). */

#ifndef NANOARROW_TESTING_PRIVATE_H_INCLUDED
#define NANOARROW_TESTING_PRIVATE_H_INCLUDED

#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

/* Puts "<prefix>: " in front of error's current message (no-op for NULL), so a
 * message built deep in a recursion ends up naming the whole path. */
static inline void ArrowTestingPrefixError(struct ArrowError* error, const char* fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static inline void ArrowTestingPrefixError(struct ArrowError* error, const char* fmt, ...) {
  char prefix[256];
  char old[sizeof(error->message)];
  size_t prefix_size;
  size_t old_size;
  va_list args;
  if (error == NULL) return;
  va_start(args, fmt);
  vsnprintf(prefix, sizeof(prefix) - 2, fmt, args);
  va_end(args);
  strcat(prefix, ": ");
  prefix_size = strlen(prefix);
  memcpy(old, error->message, sizeof(old));
  old[sizeof(old) - 1] = '\0';
  /* When it does not fit, the middle of the old message goes (its end says what
   * was wrong, its start where). */
  old_size = strlen(old);
  memcpy(error->message, prefix, prefix_size);
  if (prefix_size + old_size >= sizeof(error->message)) {
    size_t keep_tail = 400;
    size_t keep_head = sizeof(error->message) - 1 - prefix_size - keep_tail - 5;
    memcpy(error->message + prefix_size, old, keep_head);
    memcpy(error->message + prefix_size + keep_head, " ... ", 5);
    memcpy(error->message + prefix_size + keep_head + 5, old + old_size - keep_tail,
           keep_tail);
    old_size = keep_head + 5 + keep_tail;
  } else {
    memcpy(error->message + prefix_size, old, old_size);
  }
  error->message[prefix_size + old_size] = '\0';
}

/* A printable name for field (its name, or "<unnamed>"). */
static inline const char* ArrowTestingFieldName(const struct ArrowSchema* schema) {
  return (schema->name != NULL && schema->name[0] != '\0') ? schema->name : "<unnamed>";
}

/* Index of the first byte of data[0, size) that does not start a valid UTF-8
 * sequence (overlong forms, surrogates, code points past U+10FFFF and truncated
 * sequences refused), or -1 when all of it is valid. Integration JSON carries
 * utf8 values as JSON text, which must be UTF-8; the CLI uses it too. */
static inline int64_t ArrowTestingUtf8InvalidAt(const uint8_t* data, int64_t size) {
  int64_t i = 0;
  uint64_t word;
  uint8_t lead;
  uint8_t lo;
  uint8_t hi;
  int n_continuation;
  int k;

  while (i < size) {
    /* ASCII fast path, 8 bytes at a time. */
    while (i + 8 <= size) {
      memcpy(&word, data + i, 8);
      if (word & UINT64_C(0x8080808080808080)) break;
      i += 8;
    }
    if (i >= size) break;

    lead = data[i];
    if (lead < 0x80) {
      i++;
      continue;
    }

    /* The allowed range of the second byte depends on the lead byte. */
    lo = 0x80;
    hi = 0xBF;
    if (lead < 0xC2) {
      return i; /* a stray continuation byte or an overlong 2-byte form */
    } else if (lead < 0xE0) {
      n_continuation = 1;
    } else if (lead < 0xF0) {
      n_continuation = 2;
      if (lead == 0xE0) lo = 0xA0; /* overlong */
      if (lead == 0xED) hi = 0x9F; /* surrogates */
    } else if (lead < 0xF5) {
      n_continuation = 3;
      if (lead == 0xF0) lo = 0x90; /* overlong */
      if (lead == 0xF4) hi = 0x8F; /* past U+10FFFF */
    } else {
      return i;
    }

    if (size - i <= n_continuation) return i;
    if (data[i + 1] < lo || data[i + 1] > hi) return i;
    for (k = 2; k <= n_continuation; k++) {
      if ((data[i + k] & 0xC0) != 0x80) return i;
    }
    i += n_continuation + 1;
  }
  return -1;
}

#endif /* NANOARROW_TESTING_PRIVATE_H_INCLUDED */
