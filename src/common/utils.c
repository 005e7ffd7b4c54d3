/* Version, error messages and memory allocation. */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "nanoarrow/nanoarrow.h"

const char* ArrowNanoarrowVersion(void) { return NANOARROW_VERSION; }

int ArrowNanoarrowVersionInt(void) { return NANOARROW_VERSION_INT; }

ArrowErrorCode ArrowErrorSet(struct ArrowError* error, const char* fmt, ...) {
  if (error == NULL) {
    return NANOARROW_OK;
  }

  /* Format into a copy so that callers may pass error->message as an argument
   * (e.g. to prefix context to an existing message). */
  char message[sizeof(error->message)];
  va_list args;
  va_start(args, fmt);
  int chars_needed = vsnprintf(message, sizeof(message), fmt, args);
  va_end(args);

  if (chars_needed < 0) {
    /* An encoding error: leave an empty message. */
    error->message[0] = '\0';
    return EINVAL;
  }

  int truncated = (size_t)chars_needed >= sizeof(message);
  size_t n_copied = truncated ? sizeof(message) : (size_t)chars_needed + 1;
  memcpy(error->message, message, n_copied);
  return truncated ? ERANGE : NANOARROW_OK;
}

/* True when size can be handed to malloc()/realloc() as a size_t unchanged. */
static int ArrowSizeIsAllocatable(int64_t size) {
  return size >= 0 && (uint64_t)size <= (uint64_t)SIZE_MAX;
}

void* ArrowMalloc(int64_t size) {
  if (!ArrowSizeIsAllocatable(size)) {
    return NULL;
  }
  return malloc((size_t)size);
}

void* ArrowRealloc(void* ptr, int64_t size) {
  if (!ArrowSizeIsAllocatable(size)) {
    return NULL;
  }
  return realloc(ptr, (size_t)size);
}

void ArrowFree(void* ptr) { free(ptr); }

static uint8_t* ArrowBufferAllocatorMallocReallocate(struct ArrowBufferAllocator* allocator,
                                                     uint8_t* ptr, int64_t old_size,
                                                     int64_t new_size) {
  NANOARROW_UNUSED(allocator);
  NANOARROW_UNUSED(old_size);
  /* realloc(ptr, 0) is implementation-defined; buffers treat size 0 as "free". */
  if (new_size == 0) {
    ArrowFree(ptr);
    return NULL;
  }
  return (uint8_t*)ArrowRealloc(ptr, new_size);
}

static void ArrowBufferAllocatorMallocFree(struct ArrowBufferAllocator* allocator,
                                           uint8_t* ptr, int64_t size) {
  NANOARROW_UNUSED(allocator);
  NANOARROW_UNUSED(size);
  ArrowFree(ptr);
}

struct ArrowBufferAllocator ArrowBufferAllocatorDefault(void) {
  struct ArrowBufferAllocator allocator;
  allocator.reallocate = &ArrowBufferAllocatorMallocReallocate;
  allocator.free = &ArrowBufferAllocatorMallocFree;
  allocator.private_data = NULL;
  return allocator;
}

/* Memory owned by someone else cannot be resized: report failure and leave ptr
 * with the buffer (released later through free). Shrinking to zero bytes is the
 * buffer letting go of ptr: hand it back to its owner now, after which the
 * buffer owns nothing foreign and may grow with the default allocator. */
static uint8_t* ArrowBufferDeallocatorReallocate(struct ArrowBufferAllocator* allocator,
                                                 uint8_t* ptr, int64_t old_size,
                                                 int64_t new_size) {
  if (new_size == 0 && ptr != NULL) {
    allocator->free(allocator, ptr, old_size);
    *allocator = ArrowBufferAllocatorDefault();
  }
  return NULL;
}

struct ArrowBufferAllocator ArrowBufferDeallocator(ArrowBufferDeallocatorCallback callback,
                                                   void* private_data) {
  struct ArrowBufferAllocator allocator;
  allocator.reallocate = &ArrowBufferDeallocatorReallocate;
  allocator.free = callback;
  allocator.private_data = private_data;
  return allocator;
}
