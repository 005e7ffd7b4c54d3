/* Version, error messages and memory allocation. */

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "nanoarrow/nanoarrow.h"

#include "common/allocation_private.h"

const char* ArrowNanoarrowVersion(void) { return NANOARROW_VERSION; }

int ArrowNanoarrowVersionInt(void) { return NANOARROW_VERSION_INT; }

NANOARROW_COLD
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

ArrowErrorCode ArrowPrivateCheckAllocation(int64_t n_items, int64_t item_size) {
  int64_t total;
  void* probe;
  if (n_items <= 0 || item_size <= 0) {
    return NANOARROW_OK;
  }
  if (n_items > INT64_MAX / item_size) {
    return ENOMEM;
  }
  total = n_items * item_size;
  if (total < ((int64_t)1 << 20)) {
    return NANOARROW_OK;
  }
  probe = ArrowMalloc(total);
  if (probe == NULL) {
    return ENOMEM;
  }
  ArrowFree(probe);
  return NANOARROW_OK;
}

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

/* Every type's name, NUL-separated, in enum ArrowType order from NANOARROW_TYPE_NA;
 * an offset table beside it costs less than a switch or a table of pointers. */
static const char kArrowTypeNames[] =
    "na\0bool\0uint8\0int8\0uint16\0int16\0uint32\0int32\0uint64\0int64\0half_float\0"
    "float\0double\0string\0binary\0fixed_size_binary\0date32\0date64\0timestamp\0"
    "time32\0time64\0interval_months\0interval_day_time\0decimal128\0decimal256\0"
    "list\0struct\0sparse_union\0dense_union\0dictionary\0map\0extension\0"
    "fixed_size_list\0duration\0large_string\0large_binary\0large_list\0"
    "interval_month_day_nano\0run_end_encoded\0binary_view\0string_view\0decimal32\0"
    "decimal64\0list_view\0large_list_view\0";
static const uint16_t kArrowTypeNameOffsets[] = {
    0, 3, 8, 14, 19, 26, 32, 39, 45, 52, 58, 69, 75, 82, 89, 96, 114, 121, 128, 138,
    145, 152, 168, 186, 197, 208, 213, 220, 233, 245, 256, 260, 270, 286, 295, 308,
    321, 332, 356, 372, 384, 396, 406, 416, 426};

const char* ArrowPrivateTypeString(enum ArrowType type) {
  int i = (int)type - (int)NANOARROW_TYPE_NA;
  if (i < 0 || i >= (int)(sizeof(kArrowTypeNameOffsets) / sizeof(kArrowTypeNameOffsets[0]))) {
    return "<unknown type identifier>";
  }
  return kArrowTypeNames + kArrowTypeNameOffsets[i];
}
