/* ArrowIpcSharedBuffer: a message body shared by the arrays decoded from it. */

#include <errno.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

void ArrowIpcPrivateSharedBlockRelease(struct ArrowIpcSharedBlock* block) {
  if (!ArrowIpcRefDrop(&block->refcount)) return;
  ArrowBufferReset(&block->src);
  ArrowFree(block);
}

/* private_src is a non-owning view: freeing it drops this reference. */
static void IpcSharedBufferDeallocate(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                                   int64_t size) {
  NANOARROW_UNUSED(ptr);
  NANOARROW_UNUSED(size);
  ArrowIpcPrivateSharedBlockRelease((struct ArrowIpcSharedBlock*)allocator->private_data);
}

ArrowErrorCode ArrowIpcSharedBufferInit(struct ArrowIpcSharedBuffer* shared,
                                        struct ArrowBuffer* src) {
  struct ArrowIpcSharedBlock* block =
      (struct ArrowIpcSharedBlock*)ArrowMalloc(sizeof(struct ArrowIpcSharedBlock));
  if (block == NULL) return ENOMEM;
  ArrowIpcRefInit(&block->refcount);
  ArrowBufferMove(src, &block->src);
  ArrowBufferInit(&shared->private_src);
  shared->private_src.data = block->src.data;
  shared->private_src.size_bytes = block->src.size_bytes;
  shared->private_src.capacity_bytes = block->src.size_bytes;
  shared->private_src.allocator = ArrowBufferDeallocator(&IpcSharedBufferDeallocate, block);
  return NANOARROW_OK;
}

void ArrowIpcSharedBufferReset(struct ArrowIpcSharedBuffer* shared) {
  struct ArrowIpcSharedBlock* block =
      (struct ArrowIpcSharedBlock*)shared->private_src.allocator.private_data;
  if (block != NULL) ArrowIpcPrivateSharedBlockRelease(block);
  memset(shared, 0, sizeof(*shared));
}

int ArrowIpcSharedBufferIsThreadSafe(void) { return ARROW_IPC_ATOMIC_REFCOUNT; }
