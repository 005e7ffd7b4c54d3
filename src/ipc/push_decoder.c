/* ArrowIpcPushDecoder: an IPC stream decoded from bytes the caller pushes in pieces
 * of any size. Every message goes through the ArrowIpcDecoder the push decoder owns
 * (prefix, verification, header, schema, dictionaries, batches, budgets); this file
 * only finds where messages begin and end in the pieces and keeps the bytes of the
 * one message that spans pieces. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

/* Complete messages of a piece the caller keeps are copied in runs of at most this
 * many bytes, one allocation per run: a batch kept by the caller keeps at most this
 * much of other messages alive. Larger messages are copied on their own. */
#define IPC_PUSH_GROUP_BYTES ((int64_t)1 << 16)

/* A message that spans pieces is assembled in a buffer that grows with the bytes
 * that arrived (doubling), reserving at most this much ahead of them: a declared
 * length costs memory only once its bytes exist. */
#define IPC_PUSH_RESERVE_AHEAD ((int64_t)1 << 20)

/* Poll mode decodes until this many batches wait: few enough to stay in cache until
 * the caller takes them, enough to spread the cost of a decoding round. */
#define IPC_PUSH_POLL_AHEAD 8

enum IpcPushState { IPC_PUSH_RUNNING, IPC_PUSH_ENDED, IPC_PUSH_FAILED };

/* What the current message needs next. */
enum IpcPushStage { IPC_PUSH_PREFIX, IPC_PUSH_HEADER, IPC_PUSH_BODY };

struct IpcPushPrivate {
  struct ArrowIpcPushDecoderCallbacks callbacks;
  enum ArrowValidationLevel validation_level;
  int64_t max_message_bytes;
  /* Poll mode: batches decoded ahead of Next (IPC_PUSH_POLL_AHEAD unless set). */
  int64_t poll_ahead;
  /* Bodies are sliced from reference-counted blocks (else copied per array). */
  int use_shared;
  enum IpcPushState state;
  ArrowErrorCode failure;
  struct ArrowError failure_error;
  int has_schema;

  /* The current message: its bytes so far when it spans pieces (empty otherwise),
   * the stage reached, the message bytes that stage needs (from the message's first
   * byte), its first byte's stream offset and what its prefix and header said. */
  struct ArrowBuffer pending;
  enum IpcPushStage stage;
  int64_t need;
  int64_t message_offset;
  int32_t prefix_size;
  int64_t message_size;
  /* Where the current header was decoded (the decoder refers to those bytes). */
  const uint8_t* header_at;
  /* Stream bytes consumed (the end-of-stream marker included, nothing after it). */
  int64_t consumed;

  /* Poll mode: batches decoded and not taken yet (struct ArrowArray each), and the
   * bytes consumed but not decoded yet (struct IpcPushBacklogEntry each, oldest
   * first): decoding stops once IPC_PUSH_POLL_AHEAD batches wait, so that the
   * caller takes each batch while its memory is still hot. */
  struct ArrowBuffer queue;
  int64_t queue_head;
  int64_t queue_end;
  struct ArrowBuffer backlog;
  int64_t backlog_head;
  int64_t backlog_end;
  /* An error Next met while batches decoded before it still waited: reported once
   * they are taken. */
  ArrowErrorCode deferred;
  struct ArrowError deferred_error;
  /* Set by Next while it decodes with an empty queue: the next batch is decoded
   * straight into it (direct_filled then says so) and decoding stops there. */
  struct ArrowArray* direct_out;
  int direct_filled;
};

struct IpcPushBacklogEntry {
  struct ArrowIpcSharedBlock* block;
  int64_t offset;
};

static int IpcPushPollMode(const struct IpcPushPrivate* p) {
  return p->callbacks.on_batch == NULL;
}

static int64_t IpcPushQueueSize(const struct IpcPushPrivate* p) {
  return p->queue_end - p->queue_head;
}

/* Whether a poll-mode round of decoding has done enough. */
static int IpcPushPollStop(const struct IpcPushPrivate* p, int stop_after_batch) {
  return stop_after_batch &&
         (p->direct_filled || IpcPushQueueSize(p) >= p->poll_ahead);
}

static int64_t IpcPushBacklogSize(const struct IpcPushPrivate* p) {
  return p->backlog_end - p->backlog_head;
}

static struct IpcPushPrivate* IpcPushGetPrivate(struct ArrowIpcPushDecoder* decoder) {
  return decoder == NULL ? NULL : (struct IpcPushPrivate*)decoder->private_data;
}

static void IpcPushStartMessage(struct IpcPushPrivate* p) {
  p->stage = IPC_PUSH_PREFIX;
  p->need = 4;
  p->message_offset = p->consumed;
  p->header_at = NULL;
}

/* Records a failure (the decoder refuses everything afterwards) and returns code. */
static ArrowErrorCode IpcPushFail(struct IpcPushPrivate* p, ArrowErrorCode code,
                                  struct ArrowError* error) {
  p->state = IPC_PUSH_FAILED;
  p->failure = code;
  if (error != NULL) {
    memcpy(p->failure_error.message, error->message, sizeof(error->message));
  } else {
    p->failure_error.message[0] = '\0';
  }
  return code;
}

/* A decoder error about the current message, with the message's stream offset. */
static ArrowErrorCode IpcPushFailAt(struct IpcPushPrivate* p, ArrowErrorCode code,
                                    const struct ArrowError* detail,
                                    struct ArrowError* error) {
  ArrowErrorSet(error, "message at byte %ld: %s", (long)p->message_offset,
                detail->message);
  return IpcPushFail(p, code, error);
}

static ArrowErrorCode IpcPushRefuseAfterFailure(struct IpcPushPrivate* p,
                                                struct ArrowError* error) {
  ArrowErrorSet(error, "the push decoder stopped at an earlier error: %s",
                p->failure_error.message);
  return p->failure;
}

static ArrowErrorCode IpcPushEnd(struct ArrowIpcPushDecoder* decoder,
                                 struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  p->state = IPC_PUSH_ENDED;
  p->need = 0;
  if (p->callbacks.on_end != NULL) {
    ArrowErrorCode result = p->callbacks.on_end(&p->callbacks, error);
    if (result != NANOARROW_OK) return IpcPushFail(p, result, error);
  }
  return NANOARROW_OK;
}

static ArrowErrorCode IpcPushDeliverSchema(struct ArrowIpcPushDecoder* decoder,
                                           struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  struct ArrowIpcDecoder* ipc = &decoder->decoder;
  struct ArrowError detail;
  struct ArrowSchema full;
  struct ArrowSchema copy;
  ArrowErrorCode result;
  detail.message[0] = '\0';
  result = ArrowIpcDecoderDecodeSchema(ipc, &full, &detail);
  if (result != NANOARROW_OK) return IpcPushFailAt(p, result, &detail, error);
  copy.release = NULL;
  if (p->callbacks.on_schema != NULL && ArrowSchemaDeepCopy(&full, &copy) != NANOARROW_OK) {
    ArrowSchemaRelease(&full);
    ArrowErrorSet(&detail, "out of memory copying the schema");
    return IpcPushFailAt(p, ENOMEM, &detail, error);
  }
  /* The decoder keeps the schema itself (released on failure too). */
  result = ArrowIpcPrivateDecoderAdoptSchema(ipc, &full, &detail);
  if (result != NANOARROW_OK) {
    if (copy.release != NULL) ArrowSchemaRelease(&copy);
    return IpcPushFailAt(p, result, &detail, error);
  }
  p->has_schema = 1;
  if (p->callbacks.on_schema != NULL) {
    result = p->callbacks.on_schema(&p->callbacks, &copy, error);
    if (copy.release != NULL) ArrowSchemaRelease(&copy);
    if (result != NANOARROW_OK) return IpcPushFail(p, result, error);
  }
  return NANOARROW_OK;
}

static ArrowErrorCode IpcPushQueue(struct IpcPushPrivate* p, struct ArrowArray* batch) {
  if (p->queue_head > 0 && p->queue_head == p->queue_end) {
    p->queue.size_bytes = 0;
    p->queue_head = 0;
    p->queue_end = 0;
  }
  NANOARROW_RETURN_NOT_OK(
      ArrowBufferAppend(&p->queue, batch, (int64_t)sizeof(struct ArrowArray)));
  p->queue_end++;
  return NANOARROW_OK;
}

/* Decodes the complete current message, whose header the decoder holds, with its
 * body at body (inside block when block is not NULL, else copied). */
static ArrowErrorCode IpcPushDecodeMessage(struct ArrowIpcPushDecoder* decoder,
                                           const uint8_t* body,
                                           struct ArrowIpcSharedBlock* block,
                                           struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  struct ArrowIpcDecoder* ipc = &decoder->decoder;
  struct ArrowError detail;
  struct ArrowBufferView view;
  struct ArrowArray batch;
  ArrowErrorCode result;
  detail.message[0] = '\0';
  view.data.as_uint8 = body;
  view.size_bytes = ipc->body_size_bytes;

  if (!p->has_schema) {
    if (ipc->message_type != NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
      ArrowErrorSet(&detail, "expected a Schema message but got message type %d",
                    (int)ipc->message_type);
      return IpcPushFailAt(p, EINVAL, &detail, error);
    }
    return IpcPushDeliverSchema(decoder, error);
  }

  switch (ipc->message_type) {
    case NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH: {
      int64_t id = ipc->dictionary->id;
      int is_delta = ipc->dictionary->is_delta;
      if (block != NULL) {
        result = ArrowIpcPrivateDecoderDecodeShared(ipc, block, body, view.size_bytes, -1,
                                                    NULL, p->validation_level, &detail);
      } else {
        result = ArrowIpcDecoderDecodeDictionary(ipc, view, p->validation_level, NULL,
                                                 &detail);
      }
      if (result != NANOARROW_OK) return IpcPushFailAt(p, result, &detail, error);
      if (p->callbacks.on_dictionary != NULL) {
        const struct ArrowArray* values = NULL;
        result = ArrowIpcDecoderGetDictionary(ipc, id, &values, &detail);
        if (result != NANOARROW_OK) return IpcPushFailAt(p, result, &detail, error);
        result = p->callbacks.on_dictionary(&p->callbacks, id, is_delta, values, error);
        if (result != NANOARROW_OK) return IpcPushFail(p, result, error);
      }
      return NANOARROW_OK;
    }
    case NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH: {
      struct ArrowArray* target = p->direct_out != NULL ? p->direct_out : &batch;
      if (block != NULL) {
        result = ArrowIpcPrivateDecoderDecodeShared(ipc, block, body, view.size_bytes, -1,
                                                    target, p->validation_level, &detail);
      } else {
        result = ArrowIpcDecoderDecodeArray(ipc, view, -1, target, p->validation_level,
                                            &detail);
      }
      if (result != NANOARROW_OK) return IpcPushFailAt(p, result, &detail, error);
      if (target == p->direct_out) {
        p->direct_out = NULL;
        p->direct_filled = 1;
        return NANOARROW_OK;
      }
      if (p->callbacks.on_batch != NULL) {
        result = p->callbacks.on_batch(&p->callbacks, &batch, error);
        if (batch.release != NULL) ArrowArrayRelease(&batch);
        if (result != NANOARROW_OK) return IpcPushFail(p, result, error);
        return NANOARROW_OK;
      }
      if (IpcPushQueue(p, &batch) != NANOARROW_OK) {
        ArrowArrayRelease(&batch);
        ArrowErrorSet(&detail, "out of memory queueing a record batch");
        return IpcPushFailAt(p, ENOMEM, &detail, error);
      }
      return NANOARROW_OK;
    }
    default:
      ArrowErrorSet(&detail, "unexpected message type %d in stream", (int)ipc->message_type);
      return IpcPushFailAt(p, EINVAL, &detail, error);
  }
}

/* Room in pending for n more bytes, growing with what arrived (see
 * IPC_PUSH_RESERVE_AHEAD) and never past the current stage's need. */
static ArrowErrorCode IpcPushPendingAppend(struct IpcPushPrivate* p, const uint8_t* data,
                                           int64_t n, struct ArrowError* error) {
  int64_t required = p->pending.size_bytes + n;
  if (required > p->pending.capacity_bytes) {
    int64_t want = p->pending.capacity_bytes > INT64_MAX / 2 ? INT64_MAX
                                                             : 2 * p->pending.capacity_bytes;
    if (want < IPC_PUSH_RESERVE_AHEAD) want = IPC_PUSH_RESERVE_AHEAD;
    if (want > p->need) want = p->need;
    if (want < required) want = required;
    if (ArrowBufferSetCapacity(&p->pending, want) != NANOARROW_OK) {
      struct ArrowError detail;
      ArrowErrorSet(&detail, "out of memory holding %ld bytes of the message",
                    (long)want);
      return IpcPushFailAt(p, ENOMEM, &detail, error);
    }
  }
  memcpy(p->pending.data + p->pending.size_bytes, data, (size_t)n);
  p->pending.size_bytes += n;
  return NANOARROW_OK;
}

/* A copy of a run of the caller's bytes starting at begin (one Consume call). */
struct IpcPushGroup {
  struct ArrowIpcSharedBlock* block;
  const uint8_t* begin;
};

/* Advances the current message with the avail bytes at msg (its first byte on).
 * *used_out is the size of the message (or end-of-stream marker) when it was
 * complete and handled, else 0 with p->stage and p->need saying what is missing.
 * in_pending: msg is p->pending's data. */
static ArrowErrorCode IpcPushStep(struct ArrowIpcPushDecoder* decoder, const uint8_t* msg,
                                  int64_t avail, int in_pending,
                                  struct ArrowIpcSharedBlock* owner,
                                  struct IpcPushGroup* group,
                                  const uint8_t* region_end, int64_t* used_out,
                                  struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  struct ArrowIpcDecoder* ipc = &decoder->decoder;
  struct ArrowError detail;
  struct ArrowBufferView view;
  ArrowErrorCode result;
  *used_out = 0;
  detail.message[0] = '\0';
  view.data.as_uint8 = msg;

  if (p->stage == IPC_PUSH_PREFIX) {
    int32_t prefix = 0;
    if (avail < 4) return NANOARROW_OK;
    if (p->message_offset == 0 && memcmp(msg, "ARRO", 4) == 0) {
      ArrowErrorSet(&detail,
                    "the input starts with the IPC file magic ARROW1; the push decoder "
                    "reads the IPC stream format");
      return IpcPushFailAt(p, EINVAL, &detail, error);
    }
    view.size_bytes = avail;
    result = ArrowIpcDecoderPeekHeader(ipc, view, &prefix, &detail);
    if (result == ESPIPE) {
      p->need = 8;
      return NANOARROW_OK;
    }
    if (result == ENODATA) {
      *used_out = prefix;
      if (!p->has_schema) {
        ArrowErrorSet(&detail, "stream ended before its Schema message");
        return IpcPushFailAt(p, ENODATA, &detail, error);
      }
      return IpcPushEnd(decoder, error);
    }
    if (result != NANOARROW_OK) return IpcPushFailAt(p, result, &detail, error);
    p->prefix_size = prefix;
    if (p->max_message_bytes >= 0 && ipc->header_size_bytes > p->max_message_bytes) {
      ArrowErrorSet(&detail,
                    "its metadata takes %ld bytes, over the push decoder's limit of %ld "
                    "bytes per message",
                    (long)ipc->header_size_bytes, (long)p->max_message_bytes);
      return IpcPushFailAt(p, EINVAL, &detail, error);
    }
    p->stage = IPC_PUSH_HEADER;
    p->need = ipc->header_size_bytes;
  }

  if (p->stage == IPC_PUSH_HEADER) {
    if (avail < p->need) return NANOARROW_OK;
    view.size_bytes = p->need;
    result = ArrowIpcDecoderDecodeHeader(ipc, view, &detail);
    if (result != NANOARROW_OK) return IpcPushFailAt(p, result, &detail, error);
    p->header_at = msg;
    p->message_size = ipc->body_size_bytes > INT64_MAX - ipc->header_size_bytes
                          ? INT64_MAX
                          : ipc->header_size_bytes + ipc->body_size_bytes;
    if (p->max_message_bytes >= 0 && p->message_size > p->max_message_bytes) {
      ArrowErrorSet(&detail,
                    "it declares %ld bytes (metadata %ld + body %ld), over the push "
                    "decoder's limit of %ld bytes per message",
                    (long)p->message_size, (long)ipc->header_size_bytes,
                    (long)ipc->body_size_bytes, (long)p->max_message_bytes);
      return IpcPushFailAt(p, EINVAL, &detail, error);
    }
    p->stage = IPC_PUSH_BODY;
    p->need = p->message_size;
  }

  /* IPC_PUSH_BODY */
  if (avail < p->need) return NANOARROW_OK;
  if (p->header_at != msg) {
    /* The header's bytes moved (into pending, or within it): decode them where they
     * are now; they were counted as read already. */
    view.size_bytes = ipc->header_size_bytes;
    result = ArrowIpcDecoderDecodeHeader(ipc, view, &detail);
    if (result != NANOARROW_OK) return IpcPushFailAt(p, result, &detail, error);
    ((struct ArrowIpcDecoderPrivate*)ipc->private_data)->bytes_read -=
        ipc->header_size_bytes;
    p->header_at = msg;
  }

  if (ipc->body_size_bytes == 0 || !p->use_shared) {
    result = IpcPushDecodeMessage(decoder, msg + ipc->header_size_bytes, NULL, error);
  } else if (in_pending) {
    /* The assembled message becomes the block its arrays point into. */
    struct ArrowIpcSharedBlock* block = ArrowIpcPrivateSharedBlockNew(&p->pending);
    if (block == NULL) {
      ArrowErrorSet(&detail, "out of memory");
      return IpcPushFailAt(p, ENOMEM, &detail, error);
    }
    result = IpcPushDecodeMessage(decoder, msg + ipc->header_size_bytes, block, error);
    ArrowIpcPrivateSharedBlockRelease(block);
    ArrowBufferInit(&p->pending);
  } else if (owner != NULL) {
    /* The caller handed the bytes over: slices of them, no copy. */
    result = IpcPushDecodeMessage(decoder, msg + ipc->header_size_bytes, owner, error);
  } else if (p->message_size > IPC_PUSH_GROUP_BYTES) {
    result = IpcPushDecodeMessage(decoder, msg + ipc->header_size_bytes, NULL, error);
  } else {
    /* The caller keeps its bytes: copy a run of them that holds this message (and
     * often the next ones) into one block. */
    if (group->block == NULL || msg < group->begin ||
        msg + p->message_size > group->begin + group->block->src.size_bytes) {
      struct ArrowBuffer run;
      int64_t n = region_end - msg < IPC_PUSH_GROUP_BYTES ? region_end - msg
                                                          : IPC_PUSH_GROUP_BYTES;
      if (group->block != NULL) ArrowIpcPrivateSharedBlockRelease(group->block);
      group->block = NULL;
      ArrowBufferInit(&run);
      if (ArrowBufferAppend(&run, msg, n) != NANOARROW_OK ||
          (group->block = ArrowIpcPrivateSharedBlockNew(&run)) == NULL) {
        ArrowBufferReset(&run);
        ArrowErrorSet(&detail, "out of memory copying %ld bytes", (long)n);
        return IpcPushFailAt(p, ENOMEM, &detail, error);
      }
      group->begin = msg;
    }
    result = IpcPushDecodeMessage(
        decoder, group->block->src.data + (msg - group->begin) + ipc->header_size_bytes,
        group->block, error);
  }
  if (result != NANOARROW_OK) return result;
  *used_out = p->message_size;
  return NANOARROW_OK;
}

/* Consumes size bytes at data (inside owner when the caller handed them over);
 * with stop_after_batch, only until IPC_PUSH_POLL_AHEAD batches wait. *used_out: the
 * bytes consumed. */
static ArrowErrorCode IpcPushConsumeRegion(struct ArrowIpcPushDecoder* decoder,
                                           const uint8_t* data, int64_t size,
                                           struct ArrowIpcSharedBlock* owner,
                                           int stop_after_batch, int64_t* used_out,
                                           struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  struct IpcPushGroup group;
  ArrowErrorCode result = NANOARROW_OK;
  int64_t pos = 0;
  int64_t used;
  group.block = NULL;
  group.begin = NULL;
  while (pos < size) {
    if (IpcPushPollStop(p, stop_after_batch)) break;
    if (p->state != IPC_PUSH_RUNNING) {
      /* Only an end-of-stream marker stops the decoder without a failure here. */
      ArrowErrorSet(error, "%ld bytes after the end-of-stream marker (which ends at byte %ld)",
                    (long)(size - pos), (long)p->consumed);
      result = EINVAL;
      break;
    }
    if (p->pending.size_bytes > 0) {
      /* Complete the message that spans pieces. */
      int64_t take = p->need - p->pending.size_bytes;
      if (take > size - pos) take = size - pos;
      result = IpcPushPendingAppend(p, data + pos, take, error);
      if (result != NANOARROW_OK) break;
      pos += take;
      p->consumed += take;
      if (p->pending.size_bytes < p->need) break;
      result = IpcPushStep(decoder, p->pending.data, p->pending.size_bytes, 1, NULL, &group,
                           NULL, &used, error);
      if (result != NANOARROW_OK) break;
      if (used > 0) {
        p->pending.size_bytes = 0;
        if (p->state == IPC_PUSH_RUNNING) IpcPushStartMessage(p);
      }
      continue;
    }
    /* At a message boundary: decode in place what is complete. */
    result = IpcPushStep(decoder, data + pos, size - pos, 0, owner, &group, data + size,
                         &used, error);
    if (result != NANOARROW_OK) break;
    if (used > 0) {
      pos += used;
      p->consumed += used;
      if (p->state == IPC_PUSH_RUNNING) IpcPushStartMessage(p);
      continue;
    }
    /* The rest is the start of a message that continues in later pieces. */
    result = IpcPushPendingAppend(p, data + pos, size - pos, error);
    if (result != NANOARROW_OK) break;
    p->consumed += size - pos;
    pos = size;
  }
  if (group.block != NULL) ArrowIpcPrivateSharedBlockRelease(group.block);
  *used_out = pos;
  return result;
}

static void IpcPushDropBacklog(struct IpcPushPrivate* p) {
  int64_t i;
  struct IpcPushBacklogEntry* entries = (struct IpcPushBacklogEntry*)p->backlog.data;
  for (i = p->backlog_head; i < p->backlog_head + IpcPushBacklogSize(p); i++) {
    ArrowIpcPrivateSharedBlockRelease(entries[i].block);
  }
  p->backlog.size_bytes = 0;
  p->backlog_head = 0;
  p->backlog_end = 0;
}

/* Decodes the bytes consumed and not decoded yet, in order (with
 * stop_after_batch, until IPC_PUSH_POLL_AHEAD batches wait). */
static ArrowErrorCode IpcPushAdvance(struct ArrowIpcPushDecoder* decoder,
                                     int stop_after_batch, struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  while (IpcPushBacklogSize(p) > 0) {
    struct IpcPushBacklogEntry* entry =
        ((struct IpcPushBacklogEntry*)p->backlog.data) + p->backlog_head;
    int64_t used = 0;
    ArrowErrorCode result;
    if (IpcPushPollStop(p, stop_after_batch)) return NANOARROW_OK;
    result = IpcPushConsumeRegion(decoder, entry->block->src.data + entry->offset,
                                  entry->block->src.size_bytes - entry->offset,
                                  entry->block, stop_after_batch, &used, error);
    entry->offset += used;
    if (result != NANOARROW_OK) {
      IpcPushDropBacklog(p);
      return result;
    }
    if (entry->offset == entry->block->src.size_bytes) {
      ArrowIpcPrivateSharedBlockRelease(entry->block);
      p->backlog_head++;
      if (IpcPushBacklogSize(p) == 0) {
        p->backlog.size_bytes = 0;
        p->backlog_head = 0;
        p->backlog_end = 0;
      }
    }
  }
  return NANOARROW_OK;
}

/* Poll mode: keeps block (its reference) to decode after what waits already. */
static ArrowErrorCode IpcPushAppendBacklog(struct IpcPushPrivate* p,
                                           struct ArrowIpcSharedBlock* block,
                                           struct ArrowError* error) {
  struct IpcPushBacklogEntry entry;
  entry.block = block;
  entry.offset = 0;
  if (ArrowBufferAppend(&p->backlog, &entry, (int64_t)sizeof(entry)) != NANOARROW_OK) {
    ArrowIpcPrivateSharedBlockRelease(block);
    ArrowErrorSet(error, "out of memory");
    return IpcPushFail(p, ENOMEM, error);
  }
  p->backlog_end++;
  return NANOARROW_OK;
}

/* IpcPushAdvance for the calls that hand out what is decoded (Next, GetSchema,
 * BytesNeeded): an error is kept for Next to report once the batches decoded
 * before it were taken. */
static void IpcPushAdvanceDeferring(struct ArrowIpcPushDecoder* decoder,
                                    int stop_after_batch) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  ArrowErrorCode result;
  if (p->deferred != NANOARROW_OK || IpcPushBacklogSize(p) == 0) return;
  result = IpcPushAdvance(decoder, stop_after_batch, &p->deferred_error);
  if (result != NANOARROW_OK) p->deferred = result;
}

ArrowErrorCode ArrowIpcPushDecoderInit(struct ArrowIpcPushDecoder* decoder,
                                       const struct ArrowIpcPushDecoderCallbacks* callbacks,
                                       struct ArrowError* error) {
  struct IpcPushPrivate* p;
  if (decoder == NULL) {
    ArrowErrorSet(error, "decoder is NULL");
    return EINVAL;
  }
  decoder->private_data = NULL;
  p = (struct IpcPushPrivate*)ArrowMalloc(sizeof(struct IpcPushPrivate));
  if (p == NULL) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  memset(p, 0, sizeof(*p));
  if (ArrowIpcDecoderInit(&decoder->decoder) != NANOARROW_OK) {
    ArrowFree(p);
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  if (callbacks != NULL) p->callbacks = *callbacks;
  p->validation_level = NANOARROW_VALIDATION_LEVEL_FULL;
  p->max_message_bytes = NANOARROW_IPC_PUSH_DEFAULT_MAX_MESSAGE_BYTES;
  p->poll_ahead = IPC_PUSH_POLL_AHEAD;
  p->use_shared = ArrowSharedBufferIsThreadSafe();
  p->state = IPC_PUSH_RUNNING;
  ArrowBufferInit(&p->pending);
  ArrowBufferInit(&p->queue);
  ArrowBufferInit(&p->backlog);
  IpcPushStartMessage(p);
  decoder->private_data = p;
  return NANOARROW_OK;
}

void ArrowIpcPushDecoderReset(struct ArrowIpcPushDecoder* decoder) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  int64_t i;
  if (p == NULL) return;
  for (i = p->queue_head; i < p->queue_end; i++) {
    struct ArrowArray* batch = ((struct ArrowArray*)p->queue.data) + i;
    if (batch->release != NULL) ArrowArrayRelease(batch);
  }
  ArrowBufferReset(&p->queue);
  IpcPushDropBacklog(p);
  ArrowBufferReset(&p->backlog);
  ArrowBufferReset(&p->pending);
  ArrowIpcDecoderReset(&decoder->decoder);
  ArrowFree(p);
  decoder->private_data = NULL;
}

ArrowErrorCode ArrowIpcPushDecoderSetValidationLevel(
    struct ArrowIpcPushDecoder* decoder, enum ArrowValidationLevel validation_level) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  if (p == NULL) return EINVAL;
  switch (validation_level) {
    case NANOARROW_VALIDATION_LEVEL_NONE:
    case NANOARROW_VALIDATION_LEVEL_MINIMAL:
    case NANOARROW_VALIDATION_LEVEL_DEFAULT:
    case NANOARROW_VALIDATION_LEVEL_FULL:
      p->validation_level = validation_level;
      return NANOARROW_OK;
    default:
      return EINVAL;
  }
}

ArrowErrorCode ArrowIpcPushDecoderSetMaxMessageBytes(struct ArrowIpcPushDecoder* decoder,
                                                     int64_t max_bytes) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  if (p == NULL || max_bytes < -1) return EINVAL;
  p->max_message_bytes = max_bytes == -1 ? NANOARROW_IPC_PUSH_DEFAULT_MAX_MESSAGE_BYTES
                                         : max_bytes;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcPushDecoderSetMaxBatchesAhead(struct ArrowIpcPushDecoder* decoder,
                                                    int64_t n_batches) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  if (p == NULL || n_batches < -1 || n_batches == 0) return EINVAL;
  p->poll_ahead = n_batches == -1 ? IPC_PUSH_POLL_AHEAD : n_batches;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcPushDecoderConsume(struct ArrowIpcPushDecoder* decoder,
                                          const uint8_t* data, int64_t size,
                                          struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  if (p == NULL || size < 0 || (data == NULL && size > 0)) {
    ArrowErrorSet(error, "invalid arguments to ArrowIpcPushDecoderConsume");
    return EINVAL;
  }
  if (p->state == IPC_PUSH_FAILED) return IpcPushRefuseAfterFailure(p, error);
  if (!IpcPushPollMode(p) || !p->use_shared) {
    int64_t used;
    NANOARROW_RETURN_NOT_OK(IpcPushAdvance(decoder, 0, error));
    return IpcPushConsumeRegion(decoder, data, size, NULL, 0, &used, error);
  }
  /* Poll mode: the bytes are copied (in runs of at most IPC_PUSH_GROUP_BYTES, what
   * a batch kept by the caller keeps alive) and decoded until a batch waits. */
  while (size > 0) {
    struct ArrowBuffer run;
    struct ArrowIpcSharedBlock* block;
    int64_t n = size < IPC_PUSH_GROUP_BYTES ? size : IPC_PUSH_GROUP_BYTES;
    ArrowBufferInit(&run);
    if (ArrowBufferAppend(&run, data, n) != NANOARROW_OK ||
        (block = ArrowIpcPrivateSharedBlockNew(&run)) == NULL) {
      ArrowBufferReset(&run);
      ArrowErrorSet(error, "out of memory copying %ld bytes", (long)n);
      return IpcPushFail(p, ENOMEM, error);
    }
    NANOARROW_RETURN_NOT_OK(IpcPushAppendBacklog(p, block, error));
    data += n;
    size -= n;
  }
  return IpcPushAdvance(decoder, 1, error);
}

ArrowErrorCode ArrowIpcPushDecoderConsumeBuffer(struct ArrowIpcPushDecoder* decoder,
                                                struct ArrowBuffer* buffer,
                                                struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  struct ArrowIpcSharedBlock* block;
  ArrowErrorCode result;
  if (p == NULL || buffer == NULL) {
    ArrowErrorSet(error, "invalid arguments to ArrowIpcPushDecoderConsumeBuffer");
    return EINVAL;
  }
  if (p->state == IPC_PUSH_FAILED) {
    ArrowBufferReset(buffer);
    return IpcPushRefuseAfterFailure(p, error);
  }
  if (!p->use_shared || buffer->size_bytes == 0) {
    int64_t used;
    result = IpcPushAdvance(decoder, 0, error);
    if (result == NANOARROW_OK) {
      result = IpcPushConsumeRegion(decoder, buffer->data, buffer->size_bytes, NULL, 0,
                                    &used, error);
    }
    ArrowBufferReset(buffer);
    return result;
  }
  block = ArrowIpcPrivateSharedBlockNew(buffer);
  if (block == NULL) {
    ArrowBufferReset(buffer);
    ArrowErrorSet(error, "out of memory");
    return IpcPushFail(p, ENOMEM, error);
  }
  if (IpcPushPollMode(p)) {
    NANOARROW_RETURN_NOT_OK(IpcPushAppendBacklog(p, block, error));
    return IpcPushAdvance(decoder, 1, error);
  }
  {
    int64_t used;
    result = IpcPushConsumeRegion(decoder, block->src.data, block->src.size_bytes, block, 0,
                                  &used, error);
  }
  ArrowIpcPrivateSharedBlockRelease(block);
  return result;
}

ArrowErrorCode ArrowIpcPushDecoderFinish(struct ArrowIpcPushDecoder* decoder,
                                         struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  struct ArrowError detail;
  int64_t have;
  if (p == NULL) {
    ArrowErrorSet(error, "decoder is not initialized");
    return EINVAL;
  }
  if (p->state == IPC_PUSH_FAILED) return IpcPushRefuseAfterFailure(p, error);
  NANOARROW_RETURN_NOT_OK(IpcPushAdvance(decoder, 0, error));
  if (p->state == IPC_PUSH_ENDED) return NANOARROW_OK;
  have = p->pending.size_bytes;
  if (have > 0) {
    switch (p->stage) {
      case IPC_PUSH_PREFIX:
        ArrowErrorSet(&detail, "the stream ended after %ld of its %ld prefix bytes",
                      (long)have, (long)p->need);
        return IpcPushFailAt(p, EINVAL, &detail, error);
      case IPC_PUSH_HEADER:
        ArrowErrorSet(&detail, "expected %ld bytes of metadata but found %ld",
                      (long)(p->need - p->prefix_size), (long)(have - p->prefix_size));
        return IpcPushFailAt(p, ESPIPE, &detail, error);
      default:
        ArrowErrorSet(&detail, "expected %ld bytes of body but found %ld",
                      (long)decoder->decoder.body_size_bytes,
                      (long)(have - decoder->decoder.header_size_bytes));
        return IpcPushFailAt(p, ESPIPE, &detail, error);
    }
  }
  if (!p->has_schema) {
    ArrowErrorSet(&detail, "stream ended before its Schema message");
    return IpcPushFailAt(p, ENODATA, &detail, error);
  }
  return IpcPushEnd(decoder, error);
}

int64_t ArrowIpcPushDecoderBytesNeeded(struct ArrowIpcPushDecoder* decoder) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  if (p == NULL) return 0;
  /* Decode what waits (a failure is reported by Next). */
  IpcPushAdvanceDeferring(decoder, 0);
  if (p->state != IPC_PUSH_RUNNING) return 0;
  return p->need - p->pending.size_bytes;
}

int64_t ArrowIpcPushDecoderBytesConsumed(struct ArrowIpcPushDecoder* decoder) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  return p == NULL ? 0 : p->consumed;
}

ArrowErrorCode ArrowIpcPushDecoderGetSchema(struct ArrowIpcPushDecoder* decoder,
                                            struct ArrowSchema* out,
                                            struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  if (p == NULL || out == NULL) {
    ArrowErrorSet(error, "invalid arguments to ArrowIpcPushDecoderGetSchema");
    return EINVAL;
  }
  if (!p->has_schema) IpcPushAdvanceDeferring(decoder, 1);
  if (p->has_schema) {
    const struct ArrowIpcDecoderPrivate* ipc =
        (const struct ArrowIpcDecoderPrivate*)decoder->decoder.private_data;
    if (ArrowSchemaDeepCopy(&ipc->tree.schema, out) != NANOARROW_OK) {
      ArrowErrorSet(error, "out of memory copying the schema");
      return ENOMEM;
    }
    return NANOARROW_OK;
  }
  if (p->deferred != NANOARROW_OK) {
    ArrowErrorSet(error, "%s", p->deferred_error.message);
    return p->deferred;
  }
  if (p->state == IPC_PUSH_FAILED) return IpcPushRefuseAfterFailure(p, error);
  ArrowErrorSet(error, "the Schema message has not arrived yet (%ld more bytes needed)",
                (long)ArrowIpcPushDecoderBytesNeeded(decoder));
  return EAGAIN;
}

ArrowErrorCode ArrowIpcPushDecoderNext(struct ArrowIpcPushDecoder* decoder,
                                       struct ArrowArray* out, struct ArrowError* error) {
  struct IpcPushPrivate* p = IpcPushGetPrivate(decoder);
  if (p == NULL || out == NULL) {
    ArrowErrorSet(error, "invalid arguments to ArrowIpcPushDecoderNext");
    return EINVAL;
  }
  out->release = NULL;
  if (IpcPushQueueSize(p) == 0 && IpcPushPollMode(p)) {
    /* Decode the next batch straight into out. */
    p->direct_out = out;
    p->direct_filled = 0;
    IpcPushAdvanceDeferring(decoder, 1);
    p->direct_out = NULL;
    if (p->direct_filled) {
      p->direct_filled = 0;
      return NANOARROW_OK;
    }
  }
  if (IpcPushQueueSize(p) > 0) {
    ArrowArrayMove(((struct ArrowArray*)p->queue.data) + p->queue_head, out);
    p->queue_head++;
    return NANOARROW_OK;
  }
  if (p->deferred != NANOARROW_OK) {
    ArrowErrorCode result = p->deferred;
    p->deferred = NANOARROW_OK;
    ArrowErrorSet(error, "%s", p->deferred_error.message);
    return result;
  }
  switch (p->state) {
    case IPC_PUSH_FAILED:
      return IpcPushRefuseAfterFailure(p, error);
    case IPC_PUSH_ENDED:
      ArrowErrorSet(error, "end of stream");
      return ENODATA;
    default:
      ArrowErrorSet(error, "no record batch yet (%ld more bytes needed)",
                    (long)ArrowIpcPushDecoderBytesNeeded(decoder));
      return EAGAIN;
  }
}
