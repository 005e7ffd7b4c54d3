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

  memset(error->message, 0, sizeof(error->message));

  va_list args;
  va_start(args, fmt);
  int chars_needed = vsnprintf(error->message, sizeof(error->message), fmt, args);
  va_end(args);

  if (chars_needed < 0) {
    /* An encoding error: leave an empty (but terminated) message. */
    error->message[0] = '\0';
    return EINVAL;
  }

  if ((size_t)chars_needed >= sizeof(error->message)) {
    return ERANGE;
  }

  return NANOARROW_OK;
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

/* Memory owned by someone else cannot be resized in place: report failure and
 * leave ptr untouched (still owned by the buffer, released later via free). */
static uint8_t* ArrowBufferDeallocatorReallocate(struct ArrowBufferAllocator* allocator,
                                                 uint8_t* ptr, int64_t old_size,
                                                 int64_t new_size) {
  NANOARROW_UNUSED(allocator);
  NANOARROW_UNUSED(ptr);
  NANOARROW_UNUSED(old_size);
  NANOARROW_UNUSED(new_size);
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
