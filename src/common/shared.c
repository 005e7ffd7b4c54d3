// Shared buffers and arrays: one reference-counted block holds either a buffer
// (ArrowSharedBufferInit) or an array (ArrowSharedArrayInit); every shared
// buffer over it is a struct ArrowBuffer whose allocator's free() drops one
// reference. ArrowArrayMoveShared / ArrowArrayCloneShared build arrays whose
// buffers are all such references.

#include <errno.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "common/refcount.h"

struct ArrowSharedBlock {
  ArrowRefCount refcount;
  // What the block owns: a buffer, or an array (release != NULL).
  struct ArrowBuffer buffer;
  struct ArrowArray array;
};

static struct ArrowSharedBlock* ArrowSharedBlockNew(void) {
  struct ArrowSharedBlock* block =
      (struct ArrowSharedBlock*)ArrowMalloc(sizeof(struct ArrowSharedBlock));
  if (block == NULL) return NULL;
  ArrowRefInit(&block->refcount);
  ArrowBufferInit(&block->buffer);
  block->array.release = NULL;
  return block;
}

static void ArrowSharedBlockRelease(struct ArrowSharedBlock* block) {
  if (!ArrowRefDrop(&block->refcount)) return;
  ArrowBufferReset(&block->buffer);
  if (block->array.release != NULL) block->array.release(&block->array);
  ArrowFree(block);
}

// The free() of every shared buffer: the bytes belong to the block.
static void ArrowSharedBufferFree(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                                  int64_t size) {
  NANOARROW_UNUSED(ptr);
  NANOARROW_UNUSED(size);
  ArrowSharedBlockRelease((struct ArrowSharedBlock*)allocator->private_data);
}

// out becomes a view of [data, data + size) holding one reference the caller
// already took.
static void ArrowSharedBufferView(struct ArrowSharedBlock* block, const void* data,
                                  int64_t size, struct ArrowBuffer* out) {
  ArrowBufferInit(out);
  out->data = (uint8_t*)data;
  out->size_bytes = size;
  out->capacity_bytes = size;
  out->allocator = ArrowBufferDeallocator(&ArrowSharedBufferFree, block);
}

ArrowErrorCode ArrowSharedBufferInit(struct ArrowBuffer* shared, struct ArrowBuffer* src) {
  struct ArrowSharedBlock* block = ArrowSharedBlockNew();
  if (block == NULL) return ENOMEM;
  ArrowBufferMove(src, &block->buffer);
  ArrowSharedBufferView(block, block->buffer.data, block->buffer.size_bytes, shared);
  return NANOARROW_OK;
}

// The public signatures take non-const pointers, as nanoarrow's do; nothing here
// writes through them, so the library's own callers use these const versions.
static int ArrowSharedIsShared(const struct ArrowBuffer* buffer) {
  return buffer != NULL && buffer->allocator.free == &ArrowSharedBufferFree &&
         buffer->allocator.private_data != NULL;
}

static ArrowErrorCode ArrowSharedClone(const struct ArrowBuffer* shared,
                                       struct ArrowBuffer* out) {
  struct ArrowSharedBlock* block;
  if (!ArrowSharedIsShared(shared)) return EINVAL;
  block = (struct ArrowSharedBlock*)shared->allocator.private_data;
  ArrowRefAdd(&block->refcount);
  ArrowSharedBufferView(block, shared->data, shared->size_bytes, out);
  return NANOARROW_OK;
}

static int ArrowSharedArrayIsInternal(const struct ArrowArray* array) {
  return ArrowArrayIsInternal((struct ArrowArray*)array);
}

int ArrowIsSharedBuffer(struct ArrowBuffer* buffer) { return ArrowSharedIsShared(buffer); }

ArrowErrorCode ArrowSharedBufferClone(struct ArrowBuffer* shared, struct ArrowBuffer* out) {
  return ArrowSharedClone(shared, out);
}

int ArrowSharedBufferIsThreadSafe(void) { return NANOARROW_ATOMIC_REFCOUNT; }

ArrowErrorCode ArrowSharedArrayInit(struct ArrowSharedArray* shared,
                                    struct ArrowArray* array) {
  struct ArrowSharedBlock* block = ArrowSharedBlockNew();
  if (block == NULL) return ENOMEM;
  ArrowArrayMove(array, &block->array);
  shared->private_data = block;
  return NANOARROW_OK;
}

void ArrowSharedArrayRelease(struct ArrowSharedArray* shared) {
  if (shared->private_data != NULL) {
    ArrowSharedBlockRelease((struct ArrowSharedBlock*)shared->private_data);
    shared->private_data = NULL;
  }
}

// Binary and string view arrays built here: their variadic buffers and sizes are
// not reached like the fixed buffers.
static int ArrowArrayIsInternalView(const struct ArrowArray* array) {
  enum ArrowType type;
  if (!ArrowSharedArrayIsInternal(array)) return 0;
  type = ((const struct ArrowArrayPrivateData*)array->private_data)->storage_type;
  return type == NANOARROW_TYPE_BINARY_VIEW || type == NANOARROW_TYPE_STRING_VIEW;
}

ArrowErrorCode ArrowSharedArrayBuffer(struct ArrowSharedArray* shared, int64_t i,
                                      struct ArrowBuffer* out) {
  struct ArrowSharedBlock* block = (struct ArrowSharedBlock*)shared->private_data;
  struct ArrowArray* array;
  const void* data;
  int64_t size = 0;
  if (block == NULL) return EINVAL;
  array = &block->array;
  if (i < 0 || i >= array->n_buffers) return EINVAL;

  if (ArrowArrayIsInternalView(array) && i >= NANOARROW_BINARY_VIEW_FIXED_BUFFERS) {
    // Variadic buffers, then their sizes (int64), as published in array->buffers.
    const int64_t* sizes = (const int64_t*)array->buffers[array->n_buffers - 1];
    data = array->buffers[i];
    if (i == array->n_buffers - 1) {
      size = (array->n_buffers - NANOARROW_BINARY_VIEW_FIXED_BUFFERS - 1) *
             (int64_t)sizeof(int64_t);
    } else if (sizes != NULL) {
      size = sizes[i - NANOARROW_BINARY_VIEW_FIXED_BUFFERS];
    }
  } else if (ArrowSharedArrayIsInternal(array)) {
    const struct ArrowBuffer* buffer = ArrowArrayBuffer(array, i);
    data = buffer->data;
    size = buffer->size_bytes;
  } else {
    data = array->buffers[i];
  }

  if (data == NULL) {
    ArrowBufferInit(out);
    return NANOARROW_OK;
  }
  ArrowRefAdd(&block->refcount);
  ArrowSharedBufferView(block, data, size, out);
  return NANOARROW_OK;
}

// ---- Arrays made of shared buffers ----

// An internal array whose buffers with data are all shared, recursively.
static int ArrowArrayIsShared(const struct ArrowArray* array) {
  int64_t i;
  if (!ArrowSharedArrayIsInternal(array)) return 0;
  for (i = 0; i < array->n_buffers; i++) {
    const struct ArrowBuffer* buffer = ArrowArrayBuffer((struct ArrowArray*)array, i);
    if (buffer->data != NULL && !ArrowSharedIsShared(buffer)) return 0;
  }
  for (i = 0; i < array->n_children; i++) {
    if (!ArrowArrayIsShared(array->children[i])) return 0;
  }
  return array->dictionary == NULL || ArrowArrayIsShared(array->dictionary);
}

// dst becomes an empty internal array of src's storage type (when src is internal)
// with src's number of buffers, children and dictionary slots.
static ArrowErrorCode ArrowArrayInitLike(struct ArrowArray* dst, const struct ArrowArray* src) {
  enum ArrowType type = NANOARROW_TYPE_UNINITIALIZED;
  struct ArrowArrayPrivateData* dst_private;
  int is_view = ArrowArrayIsInternalView(src);
  // Only views built here have more buffers than the fixed ones, and at least
  // their fixed ones and the sizes; a foreign array's buffers are taken as fixed.
  if (src->n_buffers < 0 ||
      (!is_view && src->n_buffers > NANOARROW_MAX_FIXED_BUFFERS) ||
      (is_view && src->n_buffers < NANOARROW_BINARY_VIEW_FIXED_BUFFERS + 1)) {
    dst->release = NULL;
    return ENOTSUP;
  }
  if (ArrowSharedArrayIsInternal(src)) {
    type = ((const struct ArrowArrayPrivateData*)src->private_data)->storage_type;
  }
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromType(dst, type));
  dst_private = (struct ArrowArrayPrivateData*)dst->private_data;
  if (is_view) {
    // The variadic buffers, then their sizes: the sizes are taken (shared) as
    // they are, not rewritten from the buffers when the array is finished.
    ArrowErrorCode result = ArrowArrayAddVariadicBuffers(
        dst, (int32_t)(src->n_buffers - NANOARROW_BINARY_VIEW_FIXED_BUFFERS - 1));
    if (result != NANOARROW_OK) {
      ArrowArrayRelease(dst);
      return result;
    }
    dst_private->variadic_sizes_from_caller = 1;
  }
  if (ArrowSharedArrayIsInternal(src)) {
    dst_private->layout = ((const struct ArrowArrayPrivateData*)src->private_data)->layout;
  }
  dst->n_buffers = src->n_buffers;
  dst->length = src->length;
  dst->null_count = src->null_count;
  dst->offset = src->offset;
  if (src->n_children > 0) {
    ArrowErrorCode result = ArrowArrayAllocateChildren(dst, src->n_children);
    if (result != NANOARROW_OK) {
      ArrowArrayRelease(dst);
      return result;
    }
  }
  if (src->dictionary != NULL) {
    ArrowErrorCode result = ArrowArrayAllocateDictionary(dst);
    if (result != NANOARROW_OK) {
      ArrowArrayRelease(dst);
      return result;
    }
  }
  return NANOARROW_OK;
}

// Publishes dst's buffer pointers in dst->buffers.
static void ArrowArrayPublishBuffers(struct ArrowArray* dst) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)dst->private_data;
  int64_t i;
  for (i = 0; i < dst->n_buffers; i++) {
    private_data->buffer_data[i] = ArrowArrayBuffer(dst, i)->data;
  }
  dst->buffers = private_data->buffer_data;
}

// On failure dst is released; src may be partly moved (the caller releases it).
static ArrowErrorCode ArrowArrayMoveSharedInto(struct ArrowArray* src,
                                               struct ArrowArray* dst) {
  struct ArrowSharedArray shared;
  ArrowErrorCode result;
  int64_t i;

  if (ArrowArrayIsShared(src)) {
    ArrowArrayMove(src, dst);
    return NANOARROW_OK;
  }

  NANOARROW_RETURN_NOT_OK(ArrowArrayInitLike(dst, src));
  for (i = 0; i < src->n_children; i++) {
    result = ArrowArrayMoveSharedInto(src->children[i], dst->children[i]);
    if (result != NANOARROW_OK) {
      ArrowArrayRelease(dst);
      return result;
    }
  }
  if (src->dictionary != NULL) {
    result = ArrowArrayMoveSharedInto(src->dictionary, dst->dictionary);
    if (result != NANOARROW_OK) {
      ArrowArrayRelease(dst);
      return result;
    }
  }

  // What is left of src (its buffers) now lives in the block the buffers refer to.
  result = ArrowSharedArrayInit(&shared, src);
  if (result != NANOARROW_OK) {
    ArrowArrayRelease(dst);
    return result;
  }
  for (i = 0; i < dst->n_buffers && result == NANOARROW_OK; i++) {
    struct ArrowBuffer* buffer = ArrowArrayBuffer(dst, i);
    ArrowBufferReset(buffer);
    result = ArrowSharedArrayBuffer(&shared, i, buffer);
  }
  ArrowSharedArrayRelease(&shared);
  if (result != NANOARROW_OK) {
    ArrowArrayRelease(dst);
    return result;
  }
  ArrowArrayPublishBuffers(dst);
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayMoveShared(struct ArrowArray* array, struct ArrowArray* shared) {
  ArrowErrorCode result = ArrowArrayMoveSharedInto(array, shared);
  if (result != NANOARROW_OK) {
    shared->release = NULL;
    if (array->release != NULL) ArrowArrayRelease(array);
  }
  return result;
}

// On failure dst is released.
static ArrowErrorCode ArrowArrayCloneSharedInto(const struct ArrowArray* src,
                                                struct ArrowArray* dst) {
  ArrowErrorCode result = NANOARROW_OK;
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitLike(dst, src));
  for (i = 0; i < src->n_children && result == NANOARROW_OK; i++) {
    result = ArrowArrayCloneSharedInto(src->children[i], dst->children[i]);
  }
  if (result == NANOARROW_OK && src->dictionary != NULL) {
    result = ArrowArrayCloneSharedInto(src->dictionary, dst->dictionary);
  }
  for (i = 0; i < src->n_buffers && result == NANOARROW_OK; i++) {
    const struct ArrowBuffer* from = ArrowArrayBuffer((struct ArrowArray*)src, i);
    if (from->data != NULL) {
      // (the variadic sizes of a view already hold room for the sizes: let it go)
      struct ArrowBuffer* to = ArrowArrayBuffer(dst, i);
      ArrowBufferReset(to);
      result = ArrowSharedClone(from, to);
    }
  }
  if (result != NANOARROW_OK) {
    ArrowArrayRelease(dst);
    return result;
  }
  ArrowArrayPublishBuffers(dst);
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayCloneShared(struct ArrowArray* shared, struct ArrowArray* array) {
  if (shared == NULL || shared->release == NULL || !ArrowArrayIsShared(shared)) {
    array->release = NULL;
    return EINVAL;
  }
  return ArrowArrayCloneSharedInto(shared, array);
}
