/* Reference-counted message bodies behind the arrays the decoder exports without
 * copying (the readers' input and the ...FromShared functions). */

#include <errno.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

struct ArrowIpcSharedBlock* ArrowIpcPrivateSharedBlockNew(struct ArrowBuffer* src) {
  struct ArrowIpcSharedBlock* block =
      (struct ArrowIpcSharedBlock*)ArrowMalloc(sizeof(struct ArrowIpcSharedBlock));
  if (block == NULL) return NULL;
  ArrowIpcRefInit(&block->refcount);
  ArrowBufferMove(src, &block->src);
  return block;
}

ArrowErrorCode ArrowIpcPrivateSharedBlockFromShared(const struct ArrowBuffer* shared,
                                                    struct ArrowIpcSharedBlock** out,
                                                    struct ArrowError* error) {
  /* The core's shared-buffer functions take non-const pointers (as nanoarrow's
   * do) but only read through them. */
  struct ArrowBuffer* source = (struct ArrowBuffer*)shared;
  struct ArrowIpcSharedBlock* block;
  if (source == NULL || !ArrowIsSharedBuffer(source)) {
    ArrowErrorSet(error,
                  "the body must be a shared buffer (see ArrowSharedBufferInit), not an "
                  "ordinary ArrowBuffer");
    return EINVAL;
  }
  block = (struct ArrowIpcSharedBlock*)ArrowMalloc(sizeof(struct ArrowIpcSharedBlock));
  if (block == NULL) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  ArrowIpcRefInit(&block->refcount);
  /* Cannot fail: shared is a shared buffer. */
  ArrowSharedBufferClone(source, &block->src);
  *out = block;
  return NANOARROW_OK;
}

void ArrowIpcPrivateSharedBlockRelease(struct ArrowIpcSharedBlock* block) {
  if (!ArrowIpcRefDrop(&block->refcount)) return;
  ArrowBufferReset(&block->src);
  ArrowFree(block);
}
