/* Record batch and dictionary batch bodies -> ArrowArrayView / ArrowArray.
 *
 * The field nodes and buffers of a RecordBatch are walked in the pre-order of the
 * decoder's flattened schema. Each buffer range is checked against the body, then
 * decompressed, byte-swapped or realigned into memory owned by the batch when
 * needed; otherwise it stays where it is (in the shared body, or in the batch's
 * single copy of the body). Output arrays hold one reference per node on the
 * batch's owner, so no buffer is copied per column. */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

/* Zeroes that empty non-validity buffers point at, so that a consumer reading the
 * first offset of an empty array reads 0 rather than dereferencing NULL. */
static const int64_t kIpcBatchEmptyBuffer[4] = {0, 0, 0, 0};

/* ---- Batch owners ---- */

/* Where the exported nodes start inside an owner's allocation. */
#define IPC_BATCH_OWNER_HEAD_BYTES \
  ((sizeof(struct ArrowIpcBatchOwner) + sizeof(int64_t) - 1) / sizeof(int64_t) * \
   sizeof(int64_t))

/* An owner with export_bytes of room for the batch's exported nodes. */
static struct ArrowIpcBatchOwner* IpcBatchOwnerNew(struct ArrowIpcSharedBlock* shared,
                                                   int64_t export_bytes) {
  struct ArrowIpcBatchOwner* owner = (struct ArrowIpcBatchOwner*)ArrowMalloc(
      (int64_t)IPC_BATCH_OWNER_HEAD_BYTES + export_bytes);
  if (owner == NULL) return NULL;
  ArrowIpcRefInit(&owner->refcount);
  owner->shared = shared;
  if (shared != NULL) ArrowIpcRefAdd(&shared->refcount);
  owner->n_blocks = 0;
  owner->capacity_blocks = 0;
  owner->blocks = NULL;
  return owner;
}

static void IpcBatchOwnerFree(struct ArrowIpcBatchOwner* owner) {
  int64_t i;
  for (i = 0; i < owner->n_blocks; i++) ArrowFree(owner->blocks[i]);
  ArrowFree(owner->blocks);
  if (owner->shared != NULL) ArrowIpcPrivateSharedBlockRelease(owner->shared);
  ArrowFree(owner);
}

void ArrowIpcPrivateOwnerRelease(struct ArrowIpcBatchOwner* owner) {
  if (ArrowIpcRefDrop(&owner->refcount)) IpcBatchOwnerFree(owner);
}

/* size_bytes of memory owned by the batch (8-byte aligned by malloc). */
static uint8_t* IpcBatchOwnerAllocate(struct ArrowIpcBatchOwner* owner, int64_t size_bytes) {
  void* block;
  if (owner->n_blocks == owner->capacity_blocks) {
    int64_t capacity = owner->capacity_blocks == 0 ? 4 : owner->capacity_blocks * 2;
    void** blocks = (void**)ArrowRealloc(owner->blocks, capacity * (int64_t)sizeof(void*));
    if (blocks == NULL) return NULL;
    owner->blocks = blocks;
    owner->capacity_blocks = capacity;
  }
  block = ArrowMalloc(size_bytes > 0 ? size_bytes : 1);
  if (block == NULL) return NULL;
  owner->blocks[owner->n_blocks++] = block;
  return (uint8_t*)block;
}

/* ---- Shared (dictionary) array nodes ---- */

/* One allocation per node: this header, then n_children ArrowArray structs, the
 * n_children child pointers and the n_buffers buffer pointers. */
struct IpcBatchNode {
  struct ArrowIpcSharedArray* shared_array;
  struct ArrowArray dictionary;
};

static void IpcBatchNodeRelease(struct ArrowArray* array) {
  struct IpcBatchNode* node = (struct IpcBatchNode*)array->private_data;
  int64_t i;
  for (i = 0; i < array->n_children; i++) {
    if (array->children[i]->release != NULL) array->children[i]->release(array->children[i]);
  }
  if (node->dictionary.release != NULL) node->dictionary.release(&node->dictionary);
  if (node->shared_array != NULL) ArrowIpcPrivateSharedArrayRelease(node->shared_array);
  ArrowFree(node);
  array->release = NULL;
}

/* Allocates the node of out with room for its children and buffers; *buffers_out
 * points into it. */
static ArrowErrorCode IpcBatchNodeAllocate(struct ArrowArray* out, int64_t n_children,
                                           int64_t n_buffers, int64_t extra_bytes,
                                           const void*** buffers_out) {
  int64_t size = (int64_t)sizeof(struct IpcBatchNode) +
                 n_children * (int64_t)(sizeof(struct ArrowArray) + sizeof(void*)) +
                 n_buffers * (int64_t)sizeof(void*) + extra_bytes;
  uint8_t* block = (uint8_t*)ArrowMalloc(size);
  struct IpcBatchNode* node = (struct IpcBatchNode*)block;
  struct ArrowArray* child_structs;
  int64_t i;
  if (block == NULL) return ENOMEM;
  node->shared_array = NULL;
  node->dictionary.release = NULL;
  child_structs = (struct ArrowArray*)(block + sizeof(struct IpcBatchNode));
  out->children = (struct ArrowArray**)(child_structs + n_children);
  *buffers_out = (const void**)(out->children + n_children);
  for (i = 0; i < n_children; i++) {
    child_structs[i].release = NULL;
    out->children[i] = &child_structs[i];
  }
  out->n_children = n_children;
  out->n_buffers = n_buffers;
  out->buffers = *buffers_out;
  out->dictionary = NULL;
  out->private_data = node;
  out->release = IpcBatchNodeRelease;
  return NANOARROW_OK;
}

/* A tree of nodes mirroring shared->array, each holding a reference to it. */
static ArrowErrorCode IpcBatchSharedExportNode(struct ArrowIpcSharedArray* shared,
                                       const struct ArrowArray* src, struct ArrowArray* out,
                                       int depth) {
  const void** buffers;
  struct IpcBatchNode* node;
  int64_t n_sizes = -1;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return EINVAL;
  if (ArrowArrayIsInternal((struct ArrowArray*)src) && src->n_buffers >= 3) {
    /* A binary view grown by deltas (see concat.c): its variadic sizes buffer is
     * rewritten and reallocated as deltas add bytes and buffers, so this array gets
     * its own copy of the sizes as they are now. */
    const struct ArrowArrayPrivateData* private_data =
        (const struct ArrowArrayPrivateData*)src->private_data;
    if (private_data->storage_type == NANOARROW_TYPE_BINARY_VIEW ||
        private_data->storage_type == NANOARROW_TYPE_STRING_VIEW) {
      n_sizes = src->n_buffers - 3;
    }
  }
  NANOARROW_RETURN_NOT_OK(IpcBatchNodeAllocate(
      out, src->n_children, src->n_buffers,
      n_sizes > 0 ? n_sizes * (int64_t)sizeof(int64_t) : 0, &buffers));
  node = (struct IpcBatchNode*)out->private_data;
  node->shared_array = shared;
  ArrowIpcRefAdd(&shared->refcount);
  out->length = src->length;
  out->null_count = src->null_count;
  out->offset = src->offset;
  if (src->n_buffers > 0) memcpy(buffers, src->buffers, (size_t)src->n_buffers * sizeof(void*));
  if (n_sizes > 0) {
    int64_t* sizes = (int64_t*)(buffers + src->n_buffers);
    memcpy(sizes, src->buffers[src->n_buffers - 1], (size_t)n_sizes * sizeof(int64_t));
    buffers[src->n_buffers - 1] = sizes;
  } else if (n_sizes == 0) {
    buffers[src->n_buffers - 1] = kIpcBatchEmptyBuffer;
  }
  for (i = 0; i < src->n_children; i++) {
    ArrowErrorCode result =
        IpcBatchSharedExportNode(shared, src->children[i], out->children[i], depth + 1);
    if (result != NANOARROW_OK) {
      out->release(out);
      return result;
    }
  }
  if (src->dictionary != NULL) {
    /* A dictionary that is itself an export of another id's values (a dictionary
     * of dictionaries grown by deltas: concat.c) is exported holding those values,
     * which the builder may let go of at its next delta. */
    struct ArrowIpcSharedArray* owner = shared;
    ArrowErrorCode result;
    if (src->dictionary->release == &IpcBatchNodeRelease &&
        ((struct IpcBatchNode*)src->dictionary->private_data)->shared_array != NULL) {
      owner = ((struct IpcBatchNode*)src->dictionary->private_data)->shared_array;
    }
    result = IpcBatchSharedExportNode(owner, src->dictionary, &node->dictionary, depth + 1);
    if (result != NANOARROW_OK) {
      out->release(out);
      return result;
    }
    out->dictionary = &node->dictionary;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcPrivateSharedArrayExport(struct ArrowIpcSharedArray* shared,
                                                struct ArrowArray* out) {
  return IpcBatchSharedExportNode(shared, &shared->array, out, 0);
}

void ArrowIpcPrivateSharedArrayRelease(struct ArrowIpcSharedArray* shared) {
  if (!ArrowIpcRefDrop(&shared->refcount)) return;
  if (shared->array.release != NULL) shared->array.release(&shared->array);
  ArrowFree(shared);
}

/* ---- Decoding ---- */

struct IpcBatchContext {
  struct ArrowIpcDecoder* decoder;
  struct ArrowIpcDecoderPrivate* private_data;
  struct ArrowIpcTree* tree;
  const struct ArrowIpcBatchHeader* header;
  const uint8_t* body;
  int64_t body_size;
  struct ArrowIpcBatchOwner* owner;
  int swap_endian;
  int legacy_union_validity;
  int64_t n_decompressing;
  /* Decompressed bytes declared so far, and the body's limit for them. */
  int64_t decompressed_bytes;
  int64_t max_decompressed_bytes;
  /* The largest length a node may claim (see NANOARROW_IPC_MAX_UNBACKED_LENGTH). */
  int64_t max_length;
  int64_t buffer_i;
  int64_t variadic_i;
  /* Quick validation (see ArrowIpcTree.quick_validation): whether it applies, and
   * whether every check so far passed. */
  int quick;
  int quick_full;
  int quick_ok;
  /* Export: where the next node's pieces go in the owner's allocation, and how
   * many nodes were exported. */
  struct ArrowArray* next_array;
  struct ArrowArray** next_child_pointers;
  const void** next_buffers;
  struct ArrowArray* next_dictionary;
  int64_t n_exported;
  struct ArrowError* error;
};

/* Byte swapping: > 0 reverses each element of that many bytes. */
enum { IPC_BATCH_SWAP_NONE = 0, IPC_BATCH_SWAP_MONTH_DAY_NANO = -1, IPC_BATCH_SWAP_BINARY_VIEW = -2 };

/* How a buffer of the given type and element size is byte-swapped. */
static int IpcBatchSwapKind(enum ArrowType storage_type, enum ArrowBufferType type,
                            int64_t bits) {
  switch (type) {
    case NANOARROW_BUFFER_TYPE_DATA_OFFSET:
    case NANOARROW_BUFFER_TYPE_UNION_OFFSET:
    case NANOARROW_BUFFER_TYPE_VIEW_OFFSET:
    case NANOARROW_BUFFER_TYPE_SIZE:
      return (int)(bits / 8);
    case NANOARROW_BUFFER_TYPE_DATA:
      switch (storage_type) {
        case NANOARROW_TYPE_BOOL:
        case NANOARROW_TYPE_FIXED_SIZE_BINARY:
        case NANOARROW_TYPE_STRING:
        case NANOARROW_TYPE_BINARY:
        case NANOARROW_TYPE_LARGE_STRING:
        case NANOARROW_TYPE_LARGE_BINARY:
          return IPC_BATCH_SWAP_NONE;
        case NANOARROW_TYPE_INTERVAL_DAY_TIME:
          return 4;
        case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
          return IPC_BATCH_SWAP_MONTH_DAY_NANO;
        case NANOARROW_TYPE_BINARY_VIEW:
        case NANOARROW_TYPE_STRING_VIEW:
          return IPC_BATCH_SWAP_BINARY_VIEW;
        default:
          return bits > 8 ? (int)(bits / 8) : IPC_BATCH_SWAP_NONE;
      }
    default:
      return IPC_BATCH_SWAP_NONE;
  }
}

static void IpcBatchReverseBytes(uint8_t* p, int64_t width) {
  int64_t i;
  for (i = 0; i < width / 2; i++) {
    uint8_t tmp = p[i];
    p[i] = p[width - 1 - i];
    p[width - 1 - i] = tmp;
  }
}

static void IpcBatchSwapBuffer(uint8_t* data, int64_t size, int kind) {
  int64_t i;
  if (kind > 1) {
    for (i = 0; i + kind <= size; i += kind) IpcBatchReverseBytes(data + i, kind);
  } else if (kind == IPC_BATCH_SWAP_MONTH_DAY_NANO) {
    for (i = 0; i + 16 <= size; i += 16) {
      IpcBatchReverseBytes(data + i, 4);
      IpcBatchReverseBytes(data + i + 4, 4);
      IpcBatchReverseBytes(data + i + 8, 8);
    }
  } else if (kind == IPC_BATCH_SWAP_BINARY_VIEW) {
    for (i = 0; i + 16 <= size; i += 16) {
      int32_t length;
      IpcBatchReverseBytes(data + i, 4);
      memcpy(&length, data + i, 4);
      if (length > NANOARROW_BINARY_VIEW_INLINE_SIZE) {
        IpcBatchReverseBytes(data + i + 8, 4);
        IpcBatchReverseBytes(data + i + 12, 4);
      }
    }
  }
}

static const char* IpcBatchCodecName(enum ArrowIpcCompressionType codec) {
  return codec == NANOARROW_IPC_COMPRESSION_TYPE_ZSTD ? "ZSTD" : "LZ4_FRAME";
}

/* Waits for the buffers queued with the decompressor (if any). A decompressor
 * that works in the background reports a failing buffer only here: that buffer
 * came before whatever made result fail (nothing is queued after a failure), so
 * its error is the one the serial path would have stopped at and wins. */
static ArrowErrorCode IpcBatchFinishDecompression(struct ArrowIpcDecoderPrivate* private_data,
                                                  int64_t* n_decompressing,
                                                  ArrowErrorCode result,
                                                  struct ArrowError* error) {
  struct ArrowError wait_error;
  ArrowErrorCode wait_result;
  if (*n_decompressing == 0) return result;
  *n_decompressing = 0;
  wait_error.message[0] = '\0';
  wait_result =
      private_data->decompressor.decompress_wait(&private_data->decompressor, -1, &wait_error);
  if (wait_result == NANOARROW_OK) return result;
  if (error != NULL) ArrowIpcPrivateLabelError(error, -1, -1, wait_error.message);
  return wait_result;
}

/* Buffer buffer_i of the message (for field k) as a checked, native, aligned view. */
static ArrowErrorCode IpcBatchResolveBuffer(struct IpcBatchContext* ctx, int64_t k, int swap_kind,
                                    int64_t alignment, struct ArrowBufferView* out) {
  const uint8_t* entry;
  int64_t offset;
  int64_t length;
  const uint8_t* data;
  int owned = 0;
  ArrowErrorCode result;
  int64_t i = ctx->buffer_i++;

  if (i >= ctx->header->buffers.n) {
    ArrowErrorSet(ctx->error, "field %ld: message has only %ld buffers", (long)k,
                  (long)ctx->header->buffers.n);
    return EINVAL;
  }
  entry = ctx->header->buffers.data + ctx->header->buffers.pos + 16 * i;
  offset = ArrowIpcFbrLoadI64(entry);
  length = ArrowIpcFbrLoadI64(entry + 8);
  if (offset < 0 || length < 0 || offset > ctx->body_size ||
      length > ctx->body_size - offset) {
    ArrowErrorSet(ctx->error,
                  "field %ld: buffer %ld (offset %ld, length %ld) is outside the body of "
                  "%ld bytes",
                  (long)k, (long)i, (long)offset, (long)length, (long)ctx->body_size);
    return EINVAL;
  }
  if (length == 0) {
    out->data.data = NULL;
    out->size_bytes = 0;
    return NANOARROW_OK;
  }
  data = ctx->body + offset;

  if (ctx->decoder->codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    int64_t decompressed_size;
    struct ArrowBufferView src;
    uint8_t* dst;
    if (length < 8) {
      ArrowErrorSet(ctx->error,
                    "field %ld: compressed buffer %ld has %ld bytes (less than its 8-byte "
                    "length prefix)",
                    (long)k, (long)i, (long)length);
      return EINVAL;
    }
    decompressed_size = ArrowIpcFbrLoadI64(data);
    data += 8;
    length -= 8;
    /* An empty buffer behind its prefix (-1 and nothing after it, as flechette writes;
     * 0, as Arrow Java writes, whatever follows) is absent, as an empty region is: a
     * pointer into the body here would be read as a validity bitmap. */
    if (decompressed_size == 0 || (decompressed_size == -1 && length == 0)) {
      out->data.data = NULL;
      out->size_bytes = 0;
      return NANOARROW_OK;
    }
    if (decompressed_size != -1) {
      if (decompressed_size < 0) {
        ArrowErrorSet(ctx->error,
                      "field %ld: buffer %ld claims %ld decompressed bytes", (long)k,
                      (long)i, (long)decompressed_size);
        return EINVAL;
      }
      /* Checked before anything is allocated: the claims of one body together stay
       * within the decoder's limit. */
      if (decompressed_size > ctx->max_decompressed_bytes - ctx->decompressed_bytes) {
        ArrowErrorSet(ctx->error,
                      "field %ld: buffer %ld claims %ld decompressed bytes (from %ld "
                      "compressed bytes), over the limit of %ld decompressed bytes for "
                      "this message body (%ld already claimed; see "
                      "ArrowIpcDecoderSetMaxDecompressedBytes)",
                      (long)k, (long)i, (long)decompressed_size, (long)length,
                      (long)ctx->max_decompressed_bytes, (long)ctx->decompressed_bytes);
        return EINVAL;
      }
      ctx->decompressed_bytes += decompressed_size;
      if (ctx->private_data->decompressor.decompress_add == NULL) {
        ArrowErrorSet(ctx->error, "no decompressor for %s",
                      IpcBatchCodecName(ctx->decoder->codec));
        return ENOTSUP;
      }
      dst = IpcBatchOwnerAllocate(ctx->owner, decompressed_size);
      if (dst == NULL) {
        ArrowErrorSet(ctx->error, "out of memory decompressing buffer %ld", (long)i);
        return ENOMEM;
      }
      src.data.data = data;
      src.size_bytes = length;
      /* A parallel decompressor reports a failure in decompress_wait, naming the
       * buffer as done here for a failure in decompress_add. */
      ArrowIpcPrivateDecompressorSetLabel(&ctx->private_data->decompressor, k, i);
      result = ctx->private_data->decompressor.decompress_add(
          &ctx->private_data->decompressor, ctx->decoder->codec, src, dst,
          decompressed_size, ctx->error);
      if (result != NANOARROW_OK) {
        if (ctx->error != NULL) {
          ArrowIpcPrivateLabelError(ctx->error, k, i, ctx->error->message);
        }
        return result;
      }
      ctx->n_decompressing++;
      data = dst;
      length = decompressed_size;
      owned = 1;
      if (ctx->swap_endian && swap_kind != IPC_BATCH_SWAP_NONE) {
        /* Swapping needs the bytes now. */
        NANOARROW_RETURN_NOT_OK(
            IpcBatchFinishDecompression(ctx->private_data, &ctx->n_decompressing,
                                        NANOARROW_OK, ctx->error));
      }
    }
  }

  if ((ctx->swap_endian && swap_kind != IPC_BATCH_SWAP_NONE) ||
      ((uintptr_t)data & ((uintptr_t)alignment - 1)) != 0) {
    if (!owned) {
      uint8_t* copy = IpcBatchOwnerAllocate(ctx->owner, length);
      if (copy == NULL) {
        ArrowErrorSet(ctx->error, "out of memory copying buffer %ld", (long)i);
        return ENOMEM;
      }
      memcpy(copy, data, (size_t)length);
      data = copy;
    }
    if (ctx->swap_endian) IpcBatchSwapBuffer((uint8_t*)data, length, swap_kind);
  }

  out->data.data = data;
  out->size_bytes = length;
  return NANOARROW_OK;
}

/* IpcBatchResolveBuffer for the usual buffer of an uncompressed, native-endian body:
 * in bounds and aligned, it is a pointer into the body. Anything else (and every
 * error, worded there) goes through IpcBatchResolveBuffer. */
static inline ArrowErrorCode IpcBatchResolvePlain(struct IpcBatchContext* ctx, int64_t k,
                                                  int swap_kind, int64_t alignment,
                                                  struct ArrowBufferView* out) {
  int64_t i = ctx->buffer_i;
  if (i < ctx->header->buffers.n && ctx->decoder->codec == NANOARROW_IPC_COMPRESSION_TYPE_NONE &&
      !ctx->swap_endian) {
    const uint8_t* entry = ctx->header->buffers.data + ctx->header->buffers.pos + 16 * i;
    int64_t offset = ArrowIpcFbrLoadI64(entry);
    int64_t length = ArrowIpcFbrLoadI64(entry + 8);
    if (offset >= 0 && length > 0 && offset <= ctx->body_size &&
        length <= ctx->body_size - offset &&
        ((uintptr_t)(ctx->body + offset) & ((uintptr_t)alignment - 1)) == 0) {
      ctx->buffer_i++;
      out->data.data = ctx->body + offset;
      out->size_bytes = length;
      return NANOARROW_OK;
    }
    /* An empty buffer (usually the validity bitmap of a column without nulls). */
    if (length == 0 && offset >= 0 && offset <= ctx->body_size) {
      ctx->buffer_i++;
      out->data.data = NULL;
      out->size_bytes = 0;
      return NANOARROW_OK;
    }
  }
  return IpcBatchResolveBuffer(ctx, k, swap_kind, alignment, out);
}

/* The alignment a buffer of the given type and element size needs: 1, 2, 4 or 8
 * (a power of two). */
static int64_t IpcBatchAlignment(enum ArrowType storage_type, enum ArrowBufferType type,
                                 int64_t bits) {
  int64_t bytes = bits / 8;
  if (type == NANOARROW_BUFFER_TYPE_DATA &&
      (storage_type == NANOARROW_TYPE_FIXED_SIZE_BINARY ||
       storage_type == NANOARROW_TYPE_STRING || storage_type == NANOARROW_TYPE_BINARY ||
       storage_type == NANOARROW_TYPE_LARGE_STRING ||
       storage_type == NANOARROW_TYPE_LARGE_BINARY)) {
    return 1;
  }
  return bytes >= 8 ? 8 : bytes >= 4 ? 4 : bytes >= 2 ? 2 : 1;
}

/* What ArrowArrayViewValidate(MINIMAL) requires of a fixed-width buffer: room for
 * length elements (a present validity bitmap too). Failing only routes the batch
 * through ArrowArrayViewValidate, which reports the problem. */
static void IpcBatchQuickCheckBuffer(struct IpcBatchContext* ctx, int64_t length,
                                     int64_t bits, int64_t size, int is_validity) {
  int64_t required;
  if (!ArrowIpcPrivateBytesForBits(length, bits, &required)) {
    ctx->quick_ok = 0;
    return;
  }
  if (size < required && (size > 0 || !is_validity)) ctx->quick_ok = 0;
}

/* Children of struct and fixed-size list fields (and top-level columns) must
 * cover their parent's elements. */
static int IpcBatchQuickCheckChildren(const struct ArrowArrayView* view) {
  int64_t needed = view->length;
  int64_t i;
  if (view->storage_type == NANOARROW_TYPE_FIXED_SIZE_LIST) {
    int64_t size = view->layout.child_size_elements;
    if (size > 0 && needed > INT64_MAX / size) return 0;
    needed *= size;
  }
  for (i = 0; i < view->n_children; i++) {
    if (view->children[i]->length < needed) return 0;
  }
  return 1;
}

/* Reads and checks field node k (top-level column `column`, or -1). */
static ArrowErrorCode IpcBatchReadNode(struct IpcBatchContext* ctx, int64_t k, int64_t column,
                                       int64_t* length_out, int64_t* null_count_out) {
  const uint8_t* node;
  int64_t length;
  int64_t null_count;
  /* k < nodes.n: ArrowIpcPrivateCheckBatchCounts matched the counts to the schema. */
  node = ctx->header->nodes.data + ctx->header->nodes.pos + 16 * k;
  length = ArrowIpcFbrLoadI64(node);
  null_count = ArrowIpcFbrLoadI64(node + 8);
  if (length < 0 || null_count < 0 || null_count > length) {
    ArrowErrorSet(ctx->error, "field %ld: invalid length %ld / null_count %ld", (long)k,
                  (long)length, (long)null_count);
    return EINVAL;
  }
  /* The format requires it, and it keeps a short batch from carrying a column of
   * any length. */
  if (column >= 0 && length != ctx->header->length) {
    /* The name is only known while the decoder still owns its schema: the stream
     * reader hands the schema itself to its consumer, who may have released it. */
    const char* name = ctx->tree->schema.release != NULL
                           ? ctx->tree->schema.children[column]->name
                           : NULL;
    ArrowErrorSet(ctx->error,
                  "column %ld%s%s%s: field length %ld differs from the record batch "
                  "length %ld",
                  (long)column, name != NULL ? " ('" : "", name != NULL ? name : "",
                  name != NULL ? "')" : "", (long)length, (long)ctx->header->length);
    return EINVAL;
  }
  if (length > ctx->max_length) {
    ArrowErrorSet(ctx->error,
                  "field %ld: length %ld is over the reader's limit of %ld for a body of "
                  "%ld bytes (NANOARROW_IPC_MAX_UNBACKED_LENGTH)",
                  (long)k, (long)length, (long)ctx->max_length, (long)ctx->body_size);
    return EINVAL;
  }
  *length_out = length;
  *null_count_out = null_count;
  return NANOARROW_OK;
}

/* Field k of the tree, which is top-level column `column` (or -1), into its view. */
/* The values of dictionary-encoded field k: the decoder's current ones for its
 * id, or those of the caller's dictionaries (ArrowIpcDecoderDecode...With
 * Dictionaries). */
static ArrowErrorCode IpcBatchFieldDictionary(struct IpcBatchContext* ctx, int64_t k,
                                              const struct ArrowIpcTreeField* field,
                                              struct ArrowIpcSharedArray** out) {
  const struct ArrowIpcDictionaryEntry* entry =
      &ctx->private_data->dictionaries[field->dictionary_index];
  if (ctx->private_data->override_dictionaries != NULL) {
    struct ArrowIpcSharedArray** slot =
        ArrowIpcPrivateDictionariesSlot(ctx->private_data->override_dictionaries, entry->id);
    if (slot == NULL) {
      ArrowErrorSet(ctx->error, "field %ld: dictionary id %ld is not one of the dictionaries' ids",
                    (long)k, (long)entry->id);
      return EINVAL;
    }
    if (*slot == NULL) {
      ArrowErrorSet(ctx->error,
                    "field %ld: the dictionaries have no values for id %ld (no DictionaryBatch "
                    "decoded into them yet)",
                    (long)k, (long)entry->id);
      return EINVAL;
    }
    *out = *slot;
    return NANOARROW_OK;
  }
  if (entry->current == NULL) {
    ArrowErrorSet(ctx->error, "field %ld: dictionary with id %ld has not been received",
                  (long)k, (long)entry->id);
    return EINVAL;
  }
  *out = entry->current;
  return NANOARROW_OK;
}

static ArrowErrorCode IpcBatchDecodeField(struct IpcBatchContext* ctx, int64_t k,
                                          int64_t column) {
  struct ArrowIpcTreeField* field = &ctx->tree->fields[k];
  struct ArrowArrayView* view = field->view;
  int64_t length;
  int64_t null_count;
  int slot;

  NANOARROW_RETURN_NOT_OK(IpcBatchReadNode(ctx, k, column, &length, &null_count));
  view->offset = 0;
  view->length = length;
  view->null_count = null_count;

  if (ctx->legacy_union_validity && (view->storage_type == NANOARROW_TYPE_SPARSE_UNION ||
                                     view->storage_type == NANOARROW_TYPE_DENSE_UNION)) {
    /* Before V5, unions were preceded by a validity buffer (unused). */
    struct ArrowBufferView ignored;
    NANOARROW_RETURN_NOT_OK(IpcBatchResolveBuffer(ctx, k, IPC_BATCH_SWAP_NONE, 1, &ignored));
  }

  for (slot = 0; slot < NANOARROW_MAX_FIXED_BUFFERS; slot++) {
    struct ArrowBufferView* buffer_view = &view->buffer_views[slot];
    if (view->layout.buffer_type[slot] == NANOARROW_BUFFER_TYPE_NONE) {
      buffer_view->data.data = NULL;
      buffer_view->size_bytes = 0;
      continue;
    }
    enum ArrowBufferType type = view->layout.buffer_type[slot];
    int64_t bits = view->layout.element_size_bits[slot];
    NANOARROW_RETURN_NOT_OK(IpcBatchResolveBuffer(
        ctx, k,
        ctx->swap_endian ? IpcBatchSwapKind(view->storage_type, type, bits)
                         : IPC_BATCH_SWAP_NONE,
        IpcBatchAlignment(view->storage_type, type, bits), buffer_view));
    if (buffer_view->size_bytes == 0 &&
        view->layout.buffer_type[slot] != NANOARROW_BUFFER_TYPE_VALIDITY) {
      buffer_view->data.data = kIpcBatchEmptyBuffer;
    }
    if (ctx->quick) {
      IpcBatchQuickCheckBuffer(ctx, length, bits, buffer_view->size_bytes,
                               type == NANOARROW_BUFFER_TYPE_VALIDITY);
    }
  }

  if (view->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY && null_count > 0 &&
      view->buffer_views[0].size_bytes == 0) {
    ArrowErrorSet(ctx->error, "field %ld: null_count is %ld but there is no validity buffer",
                  (long)k, (long)null_count);
    return EINVAL;
  }
  if (view->storage_type == NANOARROW_TYPE_NA) view->null_count = length;
  if (ctx->quick_full && view->buffer_views[0].data.data != NULL && ctx->quick_ok &&
      view->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY &&
      ArrowArrayViewComputeNullCount(view) != null_count) {
    ctx->quick_ok = 0;
  }

  if (view->storage_type == NANOARROW_TYPE_BINARY_VIEW ||
      view->storage_type == NANOARROW_TYPE_STRING_VIEW) {
    struct ArrowIpcTreeVariadic* variadic;
    int64_t n_variadic;
    int64_t j;
    /* One count per view field, each in [0, INT32_MAX] and within the buffers:
     * ArrowIpcPrivateCheckBatchCounts checked them all. */
    n_variadic = ArrowIpcFbrLoadI64(ctx->header->variadic_counts.data +
                                   ctx->header->variadic_counts.pos + 8 * ctx->variadic_i);
    ctx->variadic_i++;
    if (field->variadic == NULL) {
      field->variadic =
          (struct ArrowIpcTreeVariadic*)ArrowMalloc(sizeof(struct ArrowIpcTreeVariadic));
      if (field->variadic == NULL) return ENOMEM;
      memset(field->variadic, 0, sizeof(struct ArrowIpcTreeVariadic));
    }
    variadic = field->variadic;
    if (n_variadic > variadic->capacity) {
      const void** buffers = (const void**)ArrowRealloc(
          (void*)variadic->buffers, n_variadic * (int64_t)sizeof(void*));
      int64_t* sizes;
      if (buffers == NULL) return ENOMEM;
      variadic->buffers = buffers;
      sizes = (int64_t*)ArrowRealloc(variadic->sizes, n_variadic * (int64_t)sizeof(int64_t));
      if (sizes == NULL) return ENOMEM;
      variadic->sizes = sizes;
      variadic->capacity = n_variadic;
    }
    for (j = 0; j < n_variadic; j++) {
      struct ArrowBufferView data;
      NANOARROW_RETURN_NOT_OK(IpcBatchResolveBuffer(ctx, k, IPC_BATCH_SWAP_NONE, 1, &data));
      variadic->buffers[j] = data.size_bytes > 0 ? data.data.data : kIpcBatchEmptyBuffer;
      variadic->sizes[j] = data.size_bytes;
    }
    view->n_variadic_buffers = (int32_t)n_variadic;
    view->variadic_buffers = variadic->buffers;
    view->variadic_buffer_sizes = variadic->sizes;
  }

  if (field->dictionary_index >= 0) {
    struct ArrowIpcDictionaryEntry* entry =
        &ctx->private_data->dictionaries[field->dictionary_index];
    struct ArrowIpcSharedArray* values;
    NANOARROW_RETURN_NOT_OK(IpcBatchFieldDictionary(ctx, k, field, &values));
    if (ctx->private_data->override_dictionaries != NULL) {
      /* Values from elsewhere: set every time, and forget the entry's. */
      NANOARROW_RETURN_NOT_OK(
          ArrowArrayViewSetArrayMinimal(view->dictionary, &values->array, ctx->error));
      field->dictionary_generation = -1;
    } else if (field->dictionary_generation != entry->generation) {
      NANOARROW_RETURN_NOT_OK(
          ArrowArrayViewSetArrayMinimal(view->dictionary, &values->array, ctx->error));
      field->dictionary_generation = entry->generation;
    }
  }
  return NANOARROW_OK;
}

/* ---- Exported batches ----
 *
 * Every node of an exported batch lives in its owner's allocation: the child
 * ArrowArray structs, children and buffer pointer arrays and dictionary structs
 * (binary view buffer lists are owner blocks). Each node holds one reference on
 * the owner; releasing a node releases its subtree and drops all of their
 * references at once, so children moved out by a consumer stay valid. */

static void IpcBatchArrayRelease(struct ArrowArray* array);

/* Releases array's subtree of this owner's nodes; returns how many. */
static long IpcBatchReleaseNodes(struct ArrowArray* array,
                                 const struct ArrowIpcBatchOwner* owner) {
  long n = 1;
  int64_t i;
  for (i = 0; i < array->n_children; i++) {
    struct ArrowArray* child = array->children[i];
    if (child->release == IpcBatchArrayRelease && child->private_data == owner) {
      if (child->n_children == 0 && child->dictionary == NULL) {
        /* A leaf (a wide batch's column): nothing below it to release. */
        child->release = NULL;
        n++;
      } else {
        n += IpcBatchReleaseNodes(child, owner);
      }
    } else if (child->release != NULL) {
      child->release(child);
    }
  }
  if (array->dictionary != NULL && array->dictionary->release != NULL) {
    array->dictionary->release(array->dictionary);
  }
  array->release = NULL;
  return n;
}

static void IpcBatchArrayRelease(struct ArrowArray* array) {
  struct ArrowIpcBatchOwner* owner = (struct ArrowIpcBatchOwner*)array->private_data;
  long n = IpcBatchReleaseNodes(array, owner);
  if (ArrowIpcRefDropN(&owner->refcount, n)) IpcBatchOwnerFree(owner);
}

/* Sizes of an export of the subtree at view (field *k, advanced past it). */
struct IpcBatchExportSize {
  int64_t n_nodes;
  int64_t n_buffers;
  int64_t n_dictionaries;
};

static void IpcBatchCountExport(const struct ArrowIpcTree* tree,
                                const struct ArrowArrayView* view, int64_t* k,
                                struct IpcBatchExportSize* size) {
  int64_t i;
  size->n_nodes++;
  if (view->storage_type != NANOARROW_TYPE_BINARY_VIEW &&
      view->storage_type != NANOARROW_TYPE_STRING_VIEW) {
    for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS &&
                view->layout.buffer_type[i] != NANOARROW_BUFFER_TYPE_NONE;
         i++) {
      size->n_buffers++;
    }
  }
  size->n_dictionaries += tree->fields[*k].dictionary_index >= 0;
  for (i = 0; i < view->n_children; i++) {
    (*k)++;
    IpcBatchCountExport(tree, view->children[i], k, size);
  }
}

static int64_t IpcBatchExportBytes(int64_t n_nodes, int64_t n_buffers,
                                   int64_t n_dictionaries) {
  return (n_nodes - 1) * (int64_t)(sizeof(struct ArrowArray) + sizeof(void*)) +
         n_buffers * (int64_t)sizeof(void*) +
         n_dictionaries * (int64_t)sizeof(struct ArrowArray);
}

/* Points the export cursors of ctx at the room after the owner's head. */
static void IpcBatchExportStart(struct IpcBatchContext* ctx,
                                const struct IpcBatchExportSize* size) {
  uint8_t* area = (uint8_t*)ctx->owner + IPC_BATCH_OWNER_HEAD_BYTES;
  ctx->next_array = (struct ArrowArray*)area;
  ctx->next_dictionary = ctx->next_array + (size->n_nodes - 1);
  ctx->next_child_pointers = (struct ArrowArray**)(ctx->next_dictionary + size->n_dictionaries);
  ctx->next_buffers = (const void**)(ctx->next_child_pointers + (size->n_nodes - 1));
  ctx->n_exported = 0;
}

/* Fills out as the next exported node of ctx->owner, with n_children children
 * taken (unreleased) from the owner's area. */
static void IpcBatchExportNode(struct IpcBatchContext* ctx, struct ArrowArray* out,
                               int64_t length, int64_t offset, int64_t null_count,
                               int64_t n_buffers, const void** buffers,
                               int64_t n_children) {
  int64_t i;
  out->length = length;
  out->offset = offset;
  out->null_count = null_count;
  out->n_buffers = n_buffers;
  out->buffers = buffers;
  out->n_children = n_children;
  out->children = ctx->next_child_pointers;
  ctx->next_child_pointers += n_children;
  for (i = 0; i < n_children; i++) {
    out->children[i] = ctx->next_array++;
    out->children[i]->release = NULL;
  }
  out->dictionary = NULL;
  out->private_data = ctx->owner;
  out->release = IpcBatchArrayRelease;
  ctx->n_exported++;
}

/* Exports view (field k, or the root when k == -1) as a node of ctx->owner. On
 * failure the nodes exported so far form a releasable tree under out. */
static ArrowErrorCode IpcBatchExportView(struct IpcBatchContext* ctx, struct ArrowArrayView* view,
                                 int64_t* k, struct ArrowArray* out) {
  struct ArrowIpcTreeField* field = *k >= 0 ? &ctx->tree->fields[*k] : NULL;
  const void** buffers;
  int64_t n_fixed = 0;
  int64_t n_buffers;
  int64_t i;

  while (n_fixed < NANOARROW_MAX_FIXED_BUFFERS &&
         view->layout.buffer_type[n_fixed] != NANOARROW_BUFFER_TYPE_NONE) {
    n_fixed++;
  }
  n_buffers = n_fixed;
  if (view->storage_type == NANOARROW_TYPE_BINARY_VIEW ||
      view->storage_type == NANOARROW_TYPE_STRING_VIEW) {
    /* Fixed buffers, the variadic buffers, then their sizes. */
    int64_t n_variadic = view->n_variadic_buffers;
    int64_t* sizes;
    n_buffers += n_variadic + 1;
    buffers = (const void**)IpcBatchOwnerAllocate(
        ctx->owner, n_buffers * (int64_t)sizeof(void*) + n_variadic * (int64_t)sizeof(int64_t));
    if (buffers == NULL) return ENOMEM;
    sizes = (int64_t*)(buffers + n_buffers);
    for (i = 0; i < n_variadic; i++) {
      buffers[n_fixed + i] = view->variadic_buffers[i];
      sizes[i] = view->variadic_buffer_sizes[i];
    }
    buffers[n_buffers - 1] = n_variadic > 0 ? (const void*)sizes : kIpcBatchEmptyBuffer;
  } else {
    buffers = ctx->next_buffers;
    ctx->next_buffers += n_fixed;
  }
  for (i = 0; i < n_fixed; i++) buffers[i] = view->buffer_views[i].data.data;

  IpcBatchExportNode(ctx, out, view->length, view->offset, view->null_count, n_buffers,
                     buffers, view->n_children);

  for (i = 0; i < view->n_children; i++) {
    (*k)++;
    NANOARROW_RETURN_NOT_OK(IpcBatchExportView(ctx, view->children[i], k, out->children[i]));
  }

  if (field != NULL && field->dictionary_index >= 0) {
    struct ArrowIpcSharedArray* values;
    struct ArrowArray* dictionary = ctx->next_dictionary++;
    NANOARROW_RETURN_NOT_OK(IpcBatchFieldDictionary(ctx, *k, field, &values));
    NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateSharedArrayExport(values, dictionary));
    out->dictionary = dictionary;
  }
  return NANOARROW_OK;
}

/* ArrowArrayViewValidate of a batch whose dictionaries were validated when they
 * were decoded (at validated_level; deltas as they were appended): the batch's
 * indices are checked against stand-ins of the dictionaries' lengths, so that
 * each batch costs its own size, not that of every dictionary it uses. */
static ArrowErrorCode IpcBatchValidate(struct IpcBatchContext* ctx,
                                       struct ArrowArrayView* result_view,
                                       enum ArrowValidationLevel validation_level,
                                       struct ArrowError* error) {
  struct ArrowIpcTree* tree = ctx->tree;
  struct ArrowArrayView* stand_ins;
  struct ArrowArrayView** saved;
  ArrowErrorCode result;
  int64_t n = 0;
  int64_t k;
  if (tree->n_dictionary_fields == 0) {
    return ArrowArrayViewValidate(result_view, validation_level, error);
  }
  stand_ins = (struct ArrowArrayView*)ArrowMalloc(
      tree->n_dictionary_fields *
      (int64_t)(sizeof(struct ArrowArrayView) + sizeof(struct ArrowArrayView*)));
  if (stand_ins == NULL) {
    /* Validating the dictionaries as well is slower, not wrong. */
    return ArrowArrayViewValidate(result_view, validation_level, error);
  }
  saved = (struct ArrowArrayView**)(stand_ins + tree->n_dictionary_fields);
  for (k = 0; k < tree->n_fields && n < tree->n_dictionary_fields; k++) {
    struct ArrowIpcTreeField* field = &tree->fields[k];
    struct ArrowArrayView* view = field->view;
    if (field->dictionary_index < 0 || view == NULL || view->dictionary == NULL) continue;
    if (ctx->private_data->dictionaries[field->dictionary_index].validated_level <
        (int32_t)validation_level) {
      continue;
    }
    ArrowArrayViewInitFromType(&stand_ins[n], NANOARROW_TYPE_NA);
    stand_ins[n].length = view->dictionary->length;
    stand_ins[n].null_count = view->dictionary->length;
    saved[n] = view->dictionary;
    view->dictionary = &stand_ins[n];
    n++;
  }
  result = ArrowArrayViewValidate(result_view, validation_level, error);
  /* Put back in the same order (a field appears once). */
  for (k = 0, n = 0; k < tree->n_fields && n < tree->n_dictionary_fields; k++) {
    struct ArrowIpcTreeField* field = &tree->fields[k];
    if (field->view != NULL && field->view->dictionary == &stand_ins[n]) {
      field->view->dictionary = saved[n];
      n++;
    }
  }
  ArrowFree(stand_ins);
  return result;
}

/* Exports result_view (field k) with the owner's references set to the number of
 * nodes; the owner's decoding reference is gone either way. */
static ArrowErrorCode IpcBatchExport(struct IpcBatchContext* ctx,
                                     struct ArrowArrayView* result_view, int64_t k,
                                     const struct IpcBatchExportSize* size,
                                     struct ArrowArray* out) {
  ArrowErrorCode result;
  IpcBatchExportStart(ctx, size);
  result = IpcBatchExportView(ctx, result_view, &k, out);
  if (result == NANOARROW_OK) {
    /* Nobody else sees the owner yet. */
    ArrowIpcRefInitN(&ctx->owner->refcount, (long)ctx->n_exported);
    return NANOARROW_OK;
  }
  ArrowIpcRefInitN(&ctx->owner->refcount, (long)ctx->n_exported + 1);
  if (ctx->n_exported > 0) out->release(out);
  ArrowIpcPrivateOwnerRelease(ctx->owner);
  return result;
}

/* The field after the subtree of field k (pre-order). */
static int64_t IpcBatchSubtreeEnd(const struct ArrowIpcTree* tree, int64_t k) {
  int64_t end = k + 1;
  int64_t i;
  for (i = 0; i < tree->fields[k].n_children; i++) end = IpcBatchSubtreeEnd(tree, end);
  return end;
}

/* The decompressed-byte and length limits of the body about to be decoded (see
 * "Reader limits" in nanoarrow_ipc.h). */
static void IpcBatchSetLimits(struct IpcBatchContext* ctx,
                              const struct ArrowIpcDecoder* decoder) {
  const struct ArrowIpcDecoderPrivate* private_data =
      (const struct ArrowIpcDecoderPrivate*)decoder->private_data;
  int64_t body_size = decoder->body_size_bytes > 0 ? decoder->body_size_bytes : 0;
  int64_t backed_bytes = body_size;
  if (private_data->max_decompressed_bytes >= 0) {
    ctx->max_decompressed_bytes = private_data->max_decompressed_bytes;
  } else if (body_size > (INT64_MAX - NANOARROW_IPC_DEFAULT_DECOMPRESSION_ALLOWANCE) /
                             NANOARROW_IPC_DEFAULT_DECOMPRESSION_RATIO) {
    ctx->max_decompressed_bytes = INT64_MAX;
  } else {
    ctx->max_decompressed_bytes = NANOARROW_IPC_DEFAULT_DECOMPRESSION_RATIO * body_size +
                                  NANOARROW_IPC_DEFAULT_DECOMPRESSION_ALLOWANCE;
  }
  if (decoder->codec != NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
    backed_bytes = ctx->max_decompressed_bytes > INT64_MAX - body_size
                       ? INT64_MAX
                       : body_size + ctx->max_decompressed_bytes;
  }
  ctx->max_length = backed_bytes > INT64_MAX / 8 ? INT64_MAX : 8 * backed_bytes;
  if (ctx->max_length < NANOARROW_IPC_MAX_UNBACKED_LENGTH) {
    ctx->max_length = NANOARROW_IPC_MAX_UNBACKED_LENGTH;
  }
}

/* Creates ctx->owner with export_bytes of room for the exported nodes, copying
 * the body into it when copy_body. */
static ArrowErrorCode IpcBatchBegin(struct IpcBatchContext* ctx, const uint8_t* body,
                                    struct ArrowIpcSharedBlock* shared, int copy_body,
                                    int64_t export_bytes) {
  ctx->owner = IpcBatchOwnerNew(shared, export_bytes);
  if (ctx->owner == NULL) {
    ArrowErrorSet(ctx->error, "out of memory");
    return ENOMEM;
  }
  ctx->body = body;
  if (copy_body && ctx->body_size > 0) {
    uint8_t* copy = IpcBatchOwnerAllocate(ctx->owner, ctx->body_size);
    if (copy == NULL) {
      ArrowIpcPrivateOwnerRelease(ctx->owner);
      ArrowErrorSet(ctx->error, "out of memory copying a body of %ld bytes",
                    (long)ctx->body_size);
      return ENOMEM;
    }
    memcpy(copy, body, (size_t)ctx->body_size);
    ctx->body = copy;
  }
  return NANOARROW_OK;
}

/* ---- Direct export ----
 *
 * Whole batches of a quick tree (see ArrowIpcTree.direct_export) go straight
 * into the exported nodes, with the same checks, in the same order, as decoding
 * into the views; the views are left alone. */

/* Layout buffers of a quick type: validity then data (see IpcDecoderIsQuickType). */
static int IpcBatchQuickBufferCount(enum ArrowType type) {
  switch (type) {
    case NANOARROW_TYPE_NA:
      return 0;
    case NANOARROW_TYPE_STRUCT:
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      return 1;
    default:
      return 2;
  }
}

/* Field *k (top-level column `column`, or -1) and its subtree into out, a node of
 * ctx->owner; *k moves past the subtree. */
static ArrowErrorCode IpcBatchDirectField(struct IpcBatchContext* ctx, int64_t* k,
                                          int64_t column, struct ArrowArray* out) {
  const struct ArrowIpcTreeField* field = &ctx->tree->fields[*k];
  enum ArrowType type = (enum ArrowType)field->storage_type;
  int n_buffers = IpcBatchQuickBufferCount(type);
  const void** buffers = ctx->next_buffers;
  int64_t field_k = (*k)++;
  int64_t length;
  int64_t null_count;
  int64_t i;

  NANOARROW_RETURN_NOT_OK(IpcBatchReadNode(ctx, field_k, column, &length, &null_count));
  ctx->next_buffers += n_buffers;
  if (n_buffers > 0) {
    struct ArrowBufferView validity;
    NANOARROW_RETURN_NOT_OK(
        IpcBatchResolvePlain(ctx, field_k, IPC_BATCH_SWAP_NONE, 1, &validity));
    buffers[0] = validity.data.data;
    if (ctx->quick) IpcBatchQuickCheckBuffer(ctx, length, 1, validity.size_bytes, 1);
    if (n_buffers > 1) {
      struct ArrowBufferView data;
      int64_t bits = field->fixed_size;
      NANOARROW_RETURN_NOT_OK(IpcBatchResolvePlain(
          ctx, field_k,
          ctx->swap_endian ? IpcBatchSwapKind(type, NANOARROW_BUFFER_TYPE_DATA, bits)
                           : IPC_BATCH_SWAP_NONE,
          IpcBatchAlignment(type, NANOARROW_BUFFER_TYPE_DATA, bits), &data));
      buffers[1] = data.size_bytes > 0 ? data.data.data : kIpcBatchEmptyBuffer;
      if (ctx->quick) IpcBatchQuickCheckBuffer(ctx, length, bits, data.size_bytes, 0);
    }
    if (null_count > 0 && validity.size_bytes == 0) {
      ArrowErrorSet(ctx->error,
                    "field %ld: null_count is %ld but there is no validity buffer",
                    (long)field_k, (long)null_count);
      return EINVAL;
    }
    if (ctx->quick_full && ctx->quick_ok && buffers[0] != NULL &&
        length - ArrowBitCountSet((const uint8_t*)buffers[0], 0, length) != null_count) {
      ctx->quick_ok = 0;
    }
  }
  if (type == NANOARROW_TYPE_NA) null_count = length;

  IpcBatchExportNode(ctx, out, length, 0, null_count, n_buffers, buffers,
                     field->n_children);

  if (field->n_children > 0) {
    /* Children must cover their parent's elements. */
    int64_t needed = length;
    if (type == NANOARROW_TYPE_FIXED_SIZE_LIST) {
      if (field->fixed_size > 0 && needed > INT64_MAX / field->fixed_size) {
        ctx->quick_ok = 0;
      } else {
        needed *= field->fixed_size;
      }
    }
    for (i = 0; i < field->n_children; i++) {
      NANOARROW_RETURN_NOT_OK(IpcBatchDirectField(ctx, k, -1, out->children[i]));
      if (out->children[i]->length < needed) ctx->quick_ok = 0;
    }
  }
  return NANOARROW_OK;
}

/* The whole batch of a direct_export tree into out. *fallback_out is set (and
 * nothing exported) when the quick checks failed, so that the views and
 * ArrowArrayViewValidate() judge the batch. */
static ArrowErrorCode IpcBatchDecodeDirect(struct IpcBatchContext* ctx,
                                           struct ArrowArray* out, int* fallback_out) {
  struct IpcBatchExportSize size;
  ArrowErrorCode result = NANOARROW_OK;
  int64_t k = 0;
  int64_t i;

  size.n_nodes = ctx->tree->n_fields + 1;
  size.n_buffers = ctx->tree->n_export_buffers;
  size.n_dictionaries = 0;
  IpcBatchExportStart(ctx, &size);
  out->length = ctx->header->length;
  out->null_count = 0;
  out->offset = 0;
  out->n_buffers = 1;
  out->buffers = ctx->next_buffers++;
  out->buffers[0] = NULL;
  out->n_children = ctx->tree->n_columns;
  out->children = ctx->next_child_pointers;
  ctx->next_child_pointers += ctx->tree->n_columns;
  for (i = 0; i < ctx->tree->n_columns; i++) {
    out->children[i] = ctx->next_array++;
    out->children[i]->release = NULL;
  }
  out->dictionary = NULL;
  out->private_data = ctx->owner;
  out->release = NULL;
  ctx->n_exported = 1;

  for (i = 0; i < ctx->tree->n_columns && result == NANOARROW_OK; i++) {
    result = IpcBatchDirectField(ctx, &k, i, out->children[i]);
  }
  result = IpcBatchFinishDecompression(ctx->private_data, &ctx->n_decompressing, result,
                                       ctx->error);
  if (result != NANOARROW_OK || (ctx->quick && !ctx->quick_ok)) {
    /* Nothing outside refers to the nodes yet. */
    *fallback_out = result == NANOARROW_OK;
    IpcBatchOwnerFree(ctx->owner);
    return result;
  }
  out->release = IpcBatchArrayRelease;
  /* Nobody else sees the owner yet. */
  ArrowIpcRefInitN(&ctx->owner->refcount, (long)ctx->n_exported);
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcPrivateDecodeBatch(struct ArrowIpcDecoder* decoder,
                                          struct ArrowIpcTree* tree,
                                          const struct ArrowIpcBatchHeader* header,
                                          const uint8_t* body, int64_t body_size,
                                          struct ArrowIpcSharedBlock* shared,
                                          int copy_body, int64_t field_index,
                                          struct ArrowArray* out,
                                          enum ArrowValidationLevel validation_level,
                                          struct ArrowIpcBatchOwner** owner_out,
                                          struct ArrowError* error) {
  struct IpcBatchContext ctx;
  struct ArrowArrayView* result_view;
  enum ArrowIpcEndianness endianness;
  struct IpcBatchExportSize export_size = {0, 0, 0};
  ArrowErrorCode result = NANOARROW_OK;
  int64_t result_k;
  int64_t k;
  /* Field k == next_column_k is top-level column n_columns. */
  int64_t next_column_k = 0;
  int64_t n_columns = 0;

  /* Field indices count every field of the schema depth-first (a column, then its
   * children, then the next column), not only the columns. */
  if (field_index < -1 || field_index >= tree->n_fields) {
    ArrowErrorSet(error,
                  "field index %ld is out of range [-1, %ld) (fields are counted "
                  "depth-first, children included)",
                  (long)field_index, (long)tree->n_fields);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateCheckBatchCounts(decoder, tree, header, error));
  if (body_size < decoder->body_size_bytes) {
    ArrowErrorSet(error, "expected a body of %ld bytes but got %ld",
                  (long)decoder->body_size_bytes, (long)body_size);
    return EINVAL;
  }
  if (body_size > 0 && body == NULL) {
    ArrowErrorSet(error, "body is NULL");
    return EINVAL;
  }
  {
    /* Bytes read so far, for the default budget of held bytes. */
    struct ArrowIpcDecoderPrivate* counted =
        (struct ArrowIpcDecoderPrivate*)decoder->private_data;
    if (decoder->body_size_bytes > 0 &&
        counted->bytes_read <= INT64_MAX - decoder->body_size_bytes) {
      counted->bytes_read += decoder->body_size_bytes;
    }
  }

  memset(&ctx, 0, sizeof(ctx));
  IpcBatchSetLimits(&ctx, decoder);
  if (header->length > ctx.max_length) {
    ArrowErrorSet(error,
                  "record batch length %ld is over the reader's limit of %ld "
                  "for a body of %ld bytes (NANOARROW_IPC_MAX_UNBACKED_LENGTH)",
                  (long)header->length, (long)ctx.max_length,
                  (long)decoder->body_size_bytes);
    return EINVAL;
  }
  ctx.decoder = decoder;
  ctx.private_data = (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  ctx.tree = tree;
  ctx.header = header;
  ctx.error = error;
  ctx.legacy_union_validity = decoder->metadata_version < NANOARROW_IPC_METADATA_VERSION_V5;
  endianness = ctx.private_data->body_endianness != NANOARROW_IPC_ENDIANNESS_UNINITIALIZED
                   ? ctx.private_data->body_endianness
                   : decoder->endianness;
  {
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    ctx.swap_endian = endianness != NANOARROW_IPC_ENDIANNESS_UNINITIALIZED &&
                      endianness != (first ? NANOARROW_IPC_ENDIANNESS_LITTLE
                                           : NANOARROW_IPC_ENDIANNESS_BIG);
  }
  ctx.quick = tree->quick_validation && validation_level != NANOARROW_VALIDATION_LEVEL_NONE;
  ctx.quick_full = ctx.quick && validation_level == NANOARROW_VALIDATION_LEVEL_FULL;
  ctx.quick_ok = 1;
  /* Only the declared body is ever addressed. */
  ctx.body_size = decoder->body_size_bytes;

  if (out != NULL && field_index < 0 && tree->direct_export) {
    struct IpcBatchContext start = ctx;
    int fallback = 0;
    result = IpcBatchBegin(&ctx, body, shared, copy_body,
                           IpcBatchExportBytes(tree->n_fields + 1, tree->n_export_buffers, 0));
    if (result == NANOARROW_OK) result = IpcBatchDecodeDirect(&ctx, out, &fallback);
    if (!fallback) return result;
    ctx = start;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateTreeEnsureViews(tree, error));

  /* The exported nodes are sized now so that they share the owner's allocation. */
  if (field_index < 0) {
    result_k = -1;
    result_view = &tree->view;
    export_size.n_nodes = tree->n_fields + 1;
    export_size.n_buffers = tree->n_export_buffers;
    export_size.n_dictionaries = tree->n_dictionary_fields;
  } else {
    result_k = field_index;
    result_view = tree->fields[field_index].view;
    k = result_k;
    if (out != NULL) IpcBatchCountExport(tree, result_view, &k, &export_size);
  }
  NANOARROW_RETURN_NOT_OK(IpcBatchBegin(
      &ctx, body, shared, copy_body,
      out != NULL ? IpcBatchExportBytes(export_size.n_nodes, export_size.n_buffers,
                                        export_size.n_dictionaries)
                  : 0));

  tree->view.offset = 0;
  tree->view.length = header->length;
  tree->view.null_count = 0;
  for (k = 0; k < tree->n_fields && result == NANOARROW_OK; k++) {
    int64_t column = -1;
    if (k == next_column_k) {
      column = n_columns++;
      next_column_k = tree->has_nested_fields ? IpcBatchSubtreeEnd(tree, k) : k + 1;
    }
    result = IpcBatchDecodeField(&ctx, k, column);
  }
  result =
      IpcBatchFinishDecompression(ctx.private_data, &ctx.n_decompressing, result, error);

  if (result == NANOARROW_OK && validation_level != NANOARROW_VALIDATION_LEVEL_NONE) {
    if (ctx.quick && ctx.quick_ok) {
      ctx.quick_ok = IpcBatchQuickCheckChildren(&tree->view);
      for (k = 0; tree->has_nested_fields && ctx.quick_ok && k < tree->n_fields; k++) {
        ctx.quick_ok = IpcBatchQuickCheckChildren(tree->fields[k].view);
      }
    }
    /* Anything the quick checks could not vouch for gets the full treatment (and
     * its error message). */
    if (!(ctx.quick && ctx.quick_ok)) {
      result = IpcBatchValidate(&ctx, result_view, validation_level, error);
    }
  }
  if (result == NANOARROW_OK && out != NULL) {
    result = IpcBatchExport(&ctx, result_view, result_k, &export_size, out);
    if (result == ENOMEM) ArrowErrorSet(error, "out of memory exporting the batch");
    return result;
  }

  if (result == NANOARROW_OK && owner_out != NULL) {
    *owner_out = ctx.owner;
  } else {
    ArrowIpcPrivateOwnerRelease(ctx.owner);
  }
  return result;
}

/* ---- Field node and buffer counts ---- */

ArrowErrorCode ArrowIpcPrivateCheckBatchCounts(const struct ArrowIpcDecoder* decoder,
                                               const struct ArrowIpcTree* tree,
                                               const struct ArrowIpcBatchHeader* header,
                                               struct ArrowError* error) {
  int64_t expected;
  int64_t i;
  if (header->nodes.n != tree->n_fields) {
    ArrowErrorSet(error, "Expected %ld field nodes in message but found %ld",
                  (long)tree->n_fields, (long)header->nodes.n);
    return EINVAL;
  }
  if (header->variadic_counts.n != tree->n_variadic_fields) {
    ArrowErrorSet(error, "Expected %ld variadic buffer counts in message but found %ld",
                  (long)tree->n_variadic_fields, (long)header->variadic_counts.n);
    return EINVAL;
  }
  /* The fixed buffers: those of an exported batch (less the root's validity) and
   * the validity and views buffers of each binary/string view field. */
  expected = tree->n_export_buffers - 1 + 2 * tree->n_variadic_fields;
  if (decoder->metadata_version < NANOARROW_IPC_METADATA_VERSION_V5) {
    /* Before V5, unions were preceded by a validity buffer. */
    for (i = 0; i < tree->n_fields; i++) {
      expected += tree->fields[i].storage_type == NANOARROW_TYPE_SPARSE_UNION ||
                  tree->fields[i].storage_type == NANOARROW_TYPE_DENSE_UNION;
    }
  }
  /* Then the variadic buffers of the view fields. Each count is below 2^31 and the
   * vector's length below 2^28 (it lives in a message), so the sum fits. */
  for (i = 0; i < header->variadic_counts.n; i++) {
    int64_t n = ArrowIpcFbrLoadI64(header->variadic_counts.data +
                                   header->variadic_counts.pos + 8 * i);
    if (n < 0 || n > INT32_MAX) {
      ArrowErrorSet(error, "variadic buffer count %ld of view field %ld is invalid",
                    (long)n, (long)i);
      return EINVAL;
    }
    expected += n;
  }
  if (header->buffers.n != expected) {
    ArrowErrorSet(error, "Expected %ld buffers in message but found %ld", (long)expected,
                  (long)header->buffers.n);
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* ---- Public entry points ---- */

static ArrowErrorCode IpcBatchCheckRecordBatch(struct ArrowIpcDecoder* decoder,
                                       struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  if (private_data->message == NULL ||
      decoder->message_type != NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH) {
    ArrowErrorSet(error, "the last decoded message is not a RecordBatch");
    return EINVAL;
  }
  if (!private_data->has_schema) {
    ArrowErrorSet(error, "the decoder has no schema (ArrowIpcDecoderSetSchema)");
    return EINVAL;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderDecodeArrayView(struct ArrowIpcDecoder* decoder,
                                              struct ArrowBufferView body, int64_t i,
                                              struct ArrowArrayView** out,
                                              struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  NANOARROW_RETURN_NOT_OK(IpcBatchCheckRecordBatch(decoder, error));
  if (private_data->view_owner != NULL) {
    ArrowIpcPrivateOwnerRelease(private_data->view_owner);
    private_data->view_owner = NULL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateDecodeBatch(
      decoder, &private_data->tree, &private_data->batch, body.data.as_uint8,
      body.size_bytes, NULL, 0, i, NULL, NANOARROW_VALIDATION_LEVEL_NONE,
      &private_data->view_owner, error));
  *out = i < 0 ? &private_data->tree.view : private_data->tree.fields[i].view;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderDecodeArray(struct ArrowIpcDecoder* decoder,
                                          struct ArrowBufferView body, int64_t i,
                                          struct ArrowArray* out,
                                          enum ArrowValidationLevel validation_level,
                                          struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  NANOARROW_RETURN_NOT_OK(IpcBatchCheckRecordBatch(decoder, error));
  return ArrowIpcPrivateDecodeBatch(decoder, &private_data->tree, &private_data->batch,
                                    body.data.as_uint8, body.size_bytes, NULL, 1, i, out,
                                    validation_level, NULL, error);
}

ArrowErrorCode ArrowIpcDecoderDecodeArrayFromShared(
    struct ArrowIpcDecoder* decoder, struct ArrowBuffer* shared, int64_t i,
    struct ArrowArray* out, enum ArrowValidationLevel validation_level,
    struct ArrowError* error) {
  struct ArrowIpcSharedBlock* block;
  ArrowErrorCode result;
  NANOARROW_RETURN_NOT_OK(IpcBatchCheckRecordBatch(decoder, error));
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateSharedBlockFromShared(shared, &block, error));
  /* The arrays take their own references to the block. */
  result = ArrowIpcPrivateDecoderDecodeShared(decoder, block, shared->data,
                                              shared->size_bytes, i, out, validation_level,
                                              error);
  ArrowIpcPrivateSharedBlockRelease(block);
  return result;
}

/* ---- Record batches against the caller's dictionaries ---- */

ArrowErrorCode ArrowIpcDecoderDecodeArrayViewWithDictionaries(
    struct ArrowIpcDecoder* decoder, struct ArrowBufferView body, int64_t i,
    struct ArrowIpcDictionaries* dictionaries, struct ArrowArrayView** out,
    struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  ArrowErrorCode result;
  private_data->override_dictionaries = dictionaries;
  result = ArrowIpcDecoderDecodeArrayView(decoder, body, i, out, error);
  private_data->override_dictionaries = NULL;
  return result;
}

ArrowErrorCode ArrowIpcDecoderDecodeArrayWithDictionaries(
    struct ArrowIpcDecoder* decoder, struct ArrowBufferView body, int64_t i,
    struct ArrowIpcDictionaries* dictionaries, struct ArrowArray* out,
    enum ArrowValidationLevel validation_level, struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  ArrowErrorCode result;
  private_data->override_dictionaries = dictionaries;
  result = ArrowIpcDecoderDecodeArray(decoder, body, i, out, validation_level, error);
  private_data->override_dictionaries = NULL;
  return result;
}

ArrowErrorCode ArrowIpcDecoderDecodeArrayFromSharedWithDictionaries(
    struct ArrowIpcDecoder* decoder, struct ArrowBuffer* shared, int64_t i,
    struct ArrowIpcDictionaries* dictionaries, struct ArrowArray* out,
    enum ArrowValidationLevel validation_level, struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  ArrowErrorCode result;
  private_data->override_dictionaries = dictionaries;
  result = ArrowIpcDecoderDecodeArrayFromShared(decoder, shared, i, out, validation_level,
                                                error);
  private_data->override_dictionaries = NULL;
  return result;
}

static ArrowErrorCode IpcBatchDecodeDictionary(struct ArrowIpcDecoder* decoder,
                                       const uint8_t* body, int64_t body_size,
                                       struct ArrowIpcSharedBlock* shared,
                                       enum ArrowValidationLevel validation_level,
                                       struct ArrowIpcDictionaries* dictionaries,
                                       struct ArrowError* error);

ArrowErrorCode ArrowIpcPrivateDecoderDecodeShared(
    struct ArrowIpcDecoder* decoder, struct ArrowIpcSharedBlock* shared,
    const uint8_t* body, int64_t body_size, int64_t field_index, struct ArrowArray* out,
    enum ArrowValidationLevel validation_level, struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  if (shared == NULL) {
    ArrowErrorSet(error, "shared buffer is not initialized");
    return EINVAL;
  }
  if (out == NULL) {
    return IpcBatchDecodeDictionary(decoder, body, body_size, shared, validation_level, NULL,
                                    error);
  }
  NANOARROW_RETURN_NOT_OK(IpcBatchCheckRecordBatch(decoder, error));
  return ArrowIpcPrivateDecodeBatch(decoder, &private_data->tree, &private_data->batch,
                                    body, body_size, shared, 0, field_index, out,
                                    validation_level, NULL, error);
}

/* ---- Dictionary batches ---- */

/* The bytes of the buffers of view and its children (dictionaries are counted
 * with their own ids). */
static int64_t IpcBatchViewContentBytes(const struct ArrowArrayView* view, int depth) {
  int64_t total = 0;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return 0;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) total += view->buffer_views[i].size_bytes;
  for (i = 0; i < view->n_variadic_buffers; i++) total += view->variadic_buffer_sizes[i];
  for (i = 0; i < view->n_children; i++) {
    total += IpcBatchViewContentBytes(view->children[i], depth + 1);
  }
  return total;
}

/* EINVAL: keeping a dictionary of new_held bytes beside the others' would take the
 * decoder over its budget. */
static ArrowErrorCode IpcBatchHeldError(const struct ArrowIpcDecoderPrivate* private_data,
                                        int64_t id, int64_t others, int64_t new_held,
                                        int64_t limit, struct ArrowError* error) {
  int64_t held = new_held > INT64_MAX - others ? INT64_MAX : others + new_held;
  if (private_data->max_held_bytes >= 0) {
    ArrowErrorSet(error,
                  "dictionary id %ld: the reader would hold %ld bytes of dictionaries, "
                  "over its limit of %ld bytes (set by SetMaxHeldBytes)",
                  (long)id, (long)held, (long)limit);
  } else {
    ArrowErrorSet(error,
                  "dictionary id %ld: the reader would hold %ld bytes of dictionaries, "
                  "over its limit of %ld bytes (the default: %d x the %ld message bytes "
                  "read so far + %ld; SetMaxHeldBytes raises it)",
                  (long)id, (long)held, (long)limit, NANOARROW_IPC_DEFAULT_HELD_BYTES_RATIO,
                  (long)private_data->bytes_read,
                  (long)NANOARROW_IPC_DEFAULT_HELD_BYTES_ALLOWANCE);
  }
  return EINVAL;
}

static ArrowErrorCode IpcBatchDecodeDictionary(struct ArrowIpcDecoder* decoder,
                                       const uint8_t* body, int64_t body_size,
                                       struct ArrowIpcSharedBlock* shared,
                                       enum ArrowValidationLevel validation_level,
                                       struct ArrowIpcDictionaries* dictionaries,
                                       struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  struct ArrowIpcDictionaryEntry* entry = NULL;
  struct ArrowIpcSharedArray** slot = NULL;
  struct ArrowIpcSharedArray* holder;
  struct ArrowArrayView* delta_view;
  struct ArrowArray values;
  ArrowErrorCode result;
  int64_t limit;
  int64_t others;
  int64_t new_held = 0;
  enum ArrowValidationLevel new_level;
  int64_t i;

  if (private_data->message == NULL ||
      decoder->message_type != NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
    ArrowErrorSet(error, "the last decoded message is not a DictionaryBatch");
    return EINVAL;
  }
  for (i = 0; i < private_data->n_dictionaries; i++) {
    if (private_data->dictionaries[i].id == private_data->dictionary_batch.id) {
      entry = &private_data->dictionaries[i];
    }
  }
  if (entry == NULL && ArrowIpcPrivateProjectionSkipsId(private_data,
                                                        private_data->dictionary_batch.id)) {
    /* Only columns the projection leaves out use it: not decoded. */
    return NANOARROW_OK;
  }
  if (entry == NULL) {
    ArrowErrorSet(error, "DictionaryBatch id %ld is not used by the schema",
                  (long)private_data->dictionary_batch.id);
    return EINVAL;
  }
  if (dictionaries != NULL) {
    slot = ArrowIpcPrivateDictionariesSlot(dictionaries, private_data->dictionary_batch.id);
    if (slot == NULL) {
      ArrowErrorSet(error, "DictionaryBatch id %ld is not one of the dictionaries' ids",
                    (long)private_data->dictionary_batch.id);
      return EINVAL;
    }
  }

  /* Column 0 of the dictionary's one-column tree is the values array. */
  result = ArrowIpcPrivateDecodeBatch(decoder, &entry->tree, &private_data->batch, body,
                                      body_size, shared, shared == NULL, 0, &values,
                                      validation_level, NULL, error);
  NANOARROW_RETURN_NOT_OK(result);
  delta_view = entry->tree.view.children[0];
  limit = ArrowIpcPrivateDecoderHeldLimit(private_data);
  others = private_data->held_bytes - entry->held_bytes;

  if (private_data->dictionary_batch.is_delta && entry->current != NULL &&
      entry->current->array.length > 0 && entry->current->growable) {
    /* Nothing handed out uses the current values: the delta goes in place. Batches
     * handed out share them: in place only into spare capacity, past every byte
     * they read (EAGAIN: it would not fit, copied below). */
    result = ArrowIpcPrivateConcatenateInPlace(
        &entry->current->array, delta_view, &values,
        !ArrowIpcRefIsUnique(&entry->current->refcount),
        limit - others, &new_held, error);
  } else {
    result = EAGAIN;
  }
  if (result != EAGAIN) {
    values.release(&values);
    if (result == EOVERFLOW) {
      return IpcBatchHeldError(private_data, entry->id, others, new_held, limit, error);
    }
    NANOARROW_RETURN_NOT_OK(result);
    entry->generation++;
    entry->held_bytes = new_held;
    private_data->held_bytes = others + new_held;
    if (slot != NULL) {
      ArrowIpcRefAdd(&entry->current->refcount);
      if (*slot != NULL) ArrowIpcPrivateSharedArrayRelease(*slot);
      *slot = entry->current;
    }
    return NANOARROW_OK;
  }

  holder = (struct ArrowIpcSharedArray*)ArrowMalloc(sizeof(struct ArrowIpcSharedArray));
  if (holder == NULL) {
    values.release(&values);
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  ArrowIpcRefInit(&holder->refcount);
  holder->growable = 0;

  if (private_data->dictionary_batch.is_delta && entry->current != NULL &&
      entry->current->array.length > 0) {
    /* A copy of the current values with the delta appended, in storage that
     * later deltas can grow. */
    struct ArrowArrayView old_view;
    ArrowArrayViewInitFromType(&old_view, NANOARROW_TYPE_UNINITIALIZED);
    result = ArrowArrayViewInitFromSchema(&old_view, entry->tree.schema.children[0], error);
    if (result == NANOARROW_OK) {
      result = ArrowArrayViewSetArray(&old_view, &entry->current->array, error);
    }
    if (result == NANOARROW_OK) {
      result = ArrowIpcPrivateConcatenate(entry->tree.schema.children[0], &old_view,
                                          delta_view, &values, &holder->array, error);
    }
    ArrowArrayViewReset(&old_view);
    values.release(&values);
    if (result != NANOARROW_OK) {
      ArrowFree(holder);
      return result;
    }
    holder->growable = ArrowIpcPrivateConcatCanGrow(entry->tree.schema.children[0]);
    new_held = ArrowIpcPrivateBuilderContentBytes(&holder->array);
    private_data->n_delta_copies++;
    /* Room for as much again, when the budget has it: the deltas that follow go in
     * place even while batches hold these values, so a stream of deltas costs one
     * copy per doubling. The budget counts content bytes; this spare capacity (at
     * most the content again) is reserved only when content + spare fits in it. */
    if (holder->growable &&
        ArrowIpcPrivateConcatGrowthBytes(&holder->array) <= limit - others - new_held &&
        ArrowIpcPrivateConcatReserveGrowth(&holder->array, error) != NANOARROW_OK) {
      ArrowIpcPrivateSharedArrayRelease(holder);
      ArrowErrorSet(error, "out of memory concatenating a dictionary delta");
      return ENOMEM;
    }
    /* Validated at FULL, the old values and the delta first. */
    new_level = NANOARROW_VALIDATION_LEVEL_FULL;
  } else {
    new_held = IpcBatchViewContentBytes(delta_view, 0);
    new_level = validation_level;
    ArrowArrayMove(&values, &holder->array);
  }

  if (new_held > limit - others) {
    ArrowIpcPrivateSharedArrayRelease(holder);
    return IpcBatchHeldError(private_data, entry->id, others, new_held, limit, error);
  }
  if (entry->current != NULL) ArrowIpcPrivateSharedArrayRelease(entry->current);
  entry->current = holder;
  entry->generation++;
  entry->held_bytes = new_held;
  entry->validated_level = (int32_t)new_level;
  private_data->held_bytes = others + new_held;
  if (slot != NULL) {
    ArrowIpcRefAdd(&holder->refcount);
    if (*slot != NULL) ArrowIpcPrivateSharedArrayRelease(*slot);
    *slot = holder;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderDecodeDictionary(struct ArrowIpcDecoder* decoder,
                                               struct ArrowBufferView body,
                                               enum ArrowValidationLevel validation_level,
                                               struct ArrowIpcDictionaries* dictionaries,
                                               struct ArrowError* error) {
  return IpcBatchDecodeDictionary(decoder, body.data.as_uint8, body.size_bytes, NULL,
                                  validation_level, dictionaries, error);
}

ArrowErrorCode ArrowIpcDecoderDecodeDictionaryFromShared(
    struct ArrowIpcDecoder* decoder, struct ArrowBuffer* shared,
    enum ArrowValidationLevel validation_level, struct ArrowIpcDictionaries* dictionaries,
    struct ArrowError* error) {
  struct ArrowIpcSharedBlock* block;
  ArrowErrorCode result;
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateSharedBlockFromShared(shared, &block, error));
  result = IpcBatchDecodeDictionary(decoder, shared->data, shared->size_bytes, block,
                                    validation_level, dictionaries, error);
  ArrowIpcPrivateSharedBlockRelease(block);
  return result;
}
