/* Helpers shared by the files of the nanoarrow_testing library (not installed). */

#ifndef NANOARROW_TESTING_PRIVATE_H_INCLUDED
#define NANOARROW_TESTING_PRIVATE_H_INCLUDED

#include <stdarg.h>
#include <stdio.h>
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

#endif /* NANOARROW_TESTING_PRIVATE_H_INCLUDED */
