/* ArrowIpcArrayStreamReaderInit: an ArrowArrayStream over IPC stream (or file)
 * input. Messages are read one at a time; with a buffer input and shared buffers,
 * bodies are sliced from the input instead of being read into new memory. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

/* Reads grow their buffer by at most this much beyond the bytes received, so a
 * length claimed by the input costs memory only once the bytes exist. */
#define IPC_STREAM_READ_CHUNK ((int64_t)1 << 20)

/* Seekable files are read this much at a time; messages are sliced from these
 * chunks like from a buffer input (a retained batch keeps its chunk alive). */
#define IPC_STREAM_READ_AHEAD ((int64_t)1 << 16)
#define IPC_STREAM_READ_PAST ((int64_t)1 << 12)

/* Child indices from the root to the field that a flattened field index names:
 * fields are numbered depth-first (the first top-level column is 0, then its
 * children, then the next column), as in the decoder's field_i. */
struct IpcStreamFieldPath {
  int64_t steps[NANOARROW_MAX_NESTING_DEPTH + 1];
  int n_steps;
};

struct IpcStreamReaderPrivate {
  struct ArrowIpcInputStream input;
  struct ArrowIpcDecoder decoder;
  struct ArrowIpcArrayStreamReaderOptions options;
  /* Where options.field_index points (set with the schema when it is not -1). */
  struct IpcStreamFieldPath field_path;
  enum ArrowValidationLevel validation_level;
  /* What get_schema copies (NULL until the schema is known): the decoder's own
   * schema or one of its columns, or schema (file mode). */
  const struct ArrowSchema* exported_schema;
  struct ArrowSchema schema;
  struct ArrowBuffer header;
  struct ArrowBuffer body;
  /* Zero-copy over a buffer input: the input's bytes and the read position (or,
   * with read_ahead, the current chunk of a seekable file). */
  struct ArrowIpcSharedBlock* input_block;
  int64_t input_position;
  int read_ahead;
  /* With read_ahead: the file position where the input started, the bytes of
   * messages read since, and where the last message read starts in the file. */
  int64_t file_start;
  int64_t consumed;
  int64_t message_offset;
  /* The Schema message (kept by schema_block): the first get_schema takes the
   * decoder's schema itself and later ones decode the message again. A seekable
   * file's message is not kept (its chunk is reused for the batches that follow):
   * later get_schema calls read it again at schema_file_offset, and refuse it
   * unless its bytes still hash to schema_hash. */
  struct ArrowIpcSharedBlock* schema_block;
  const uint8_t* schema_message;
  int64_t schema_message_size;
  int64_t schema_file_offset;
  uint64_t schema_hash;
  int schema_handed_out;
  /* File mode (input started with the ARROW1 magic). */
  int is_file;
  struct ArrowIpcFileReader file_reader;
  int64_t next_batch;
  int finished;
  /* The column projection to apply when the schema is read (n_projection > 0):
   * indices, or names (NUL-terminated, one after the other) when by_name. */
  int64_t n_projection;
  int projection_by_name;
  struct ArrowBuffer projection;
  /* ArrowIpcArrayStreamReaderSetNumThreads (passed on to the file reader). */
  int n_threads;
  struct ArrowError error;
};

/* Appends up to n bytes from the input to buffer; *n_read_out tells how many. */
static ArrowErrorCode IpcStreamReadAppend(struct IpcStreamReaderPrivate* private_data,
                                 struct ArrowBuffer* buffer, int64_t n, int64_t* n_read_out) {
  int64_t total = 0;
  while (total < n) {
    int64_t chunk = n - total < IPC_STREAM_READ_CHUNK ? n - total : IPC_STREAM_READ_CHUNK;
    int64_t n_read = 0;
    if (ArrowBufferReserve(buffer, chunk) != NANOARROW_OK) {
      ArrowErrorSet(&private_data->error, "out of memory reading %ld bytes", (long)n);
      return ENOMEM;
    }
    NANOARROW_RETURN_NOT_OK(private_data->input.read(
        &private_data->input, buffer->data + buffer->size_bytes, chunk, &n_read,
        &private_data->error));
    if (n_read <= 0) break;
    buffer->size_bytes += n_read;
    total += n_read;
  }
  *n_read_out = total;
  return NANOARROW_OK;
}

/* ArrowIpcDecoderPeekHeader for the reader: a stream that ends inside a message's
 * prefix (the decoder's ESPIPE) is malformed rather than cut short inside a message,
 * so it is EINVAL here, as nanoarrow reports it; ESPIPE stays for headers and bodies. */
static ArrowErrorCode IpcStreamPeekHeader(struct ArrowIpcDecoder* decoder,
                                          struct ArrowBufferView view, int32_t* prefix,
                                          struct ArrowError* error) {
  ArrowErrorCode result = ArrowIpcDecoderPeekHeader(decoder, view, prefix, error);
  if (result == ESPIPE) {
    ArrowErrorSet(error, "expected at least 8 bytes of message prefix but found %ld",
                  (long)view.size_bytes);
    return EINVAL;
  }
  return result;
}

static ArrowErrorCode IpcStreamReadExactly(struct IpcStreamReaderPrivate* private_data,
                                  struct ArrowBuffer* buffer, int64_t n, const char* what) {
  int64_t n_read;
  NANOARROW_RETURN_NOT_OK(IpcStreamReadAppend(private_data, buffer, n, &n_read));
  if (n_read != n) {
    ArrowErrorSet(&private_data->error, "expected %ld bytes of %s but found %ld",
                  (long)n, what, (long)n_read);
    return ESPIPE;
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
static ArrowErrorCode IpcStreamStartFileMode(struct IpcStreamReaderPrivate* private_data,
                                    struct ArrowBuffer* all) {
  int64_t n_read;
  ArrowErrorCode result = IpcStreamReadAppend(private_data, all, INT64_MAX / 2, &n_read);
  if (result == NANOARROW_OK) {
    result = ArrowIpcFileReaderInitBuffer(&private_data->file_reader, all,
                                          &private_data->error);
  }
  if (result == NANOARROW_OK) {
    /* The stream reader's limit holds for the file's batches too, and for its
     * dictionaries: the file reader decodes them with the first batch. */
    const struct ArrowIpcDecoderPrivate* decoder_private =
        (const struct ArrowIpcDecoderPrivate*)private_data->decoder.private_data;
    result = ArrowIpcFileReaderSetMaxDecompressedBytes(
        &private_data->file_reader, decoder_private->max_decompressed_bytes);
    if (result == NANOARROW_OK) {
      result = ArrowIpcFileReaderSetMaxHeldBytes(&private_data->file_reader,
                                                 decoder_private->max_held_bytes);
    }
    if (result == NANOARROW_OK && private_data->n_threads > 1) {
      result = ArrowIpcFileReaderSetNumThreads(&private_data->file_reader,
                                               private_data->n_threads);
    }
    if (result != NANOARROW_OK) ArrowIpcFileReaderReset(&private_data->file_reader);
  }
  ArrowBufferReset(all);
  if (result == NANOARROW_OK) private_data->is_file = 1;
  return result;
}

/* Makes up to n bytes after input_position available in input_block (fewer only
 * at the end of the input); *available_out tells how many there are. */
static ArrowErrorCode IpcStreamReadAhead(struct IpcStreamReaderPrivate* private_data,
                                         int64_t n, int64_t* available_out) {
  struct ArrowIpcSharedBlock* block = private_data->input_block;
  int64_t available = block == NULL ? 0 : block->src.size_bytes - private_data->input_position;
  if (available >= n) {
    *available_out = available;
    return NANOARROW_OK;
  }
  if (block != NULL && n > block->src.capacity_bytes - private_data->input_position &&
      ArrowIpcRefIsUnique(&block->refcount)) {
    /* No batch uses the chunk any more: reuse it from the unread bytes on (it
     * grows below if it must). */
    memmove(block->src.data, block->src.data + private_data->input_position,
            (size_t)available);
    block->src.size_bytes = available;
    private_data->input_position = 0;
  } else if (block == NULL ||
             n > block->src.capacity_bytes - private_data->input_position) {
    /* A new chunk starting with the unread bytes (slices of the old one keep it). */
    struct ArrowBuffer chunk;
    struct ArrowIpcSharedBlock* new_block = NULL;
    /* Room for what follows too (usually the next message's header). */
    int64_t capacity = n > IPC_STREAM_READ_CHUNK ? n : n + IPC_STREAM_READ_PAST;
    if (capacity > available + IPC_STREAM_READ_CHUNK) capacity = available + IPC_STREAM_READ_CHUNK;
    if (capacity < IPC_STREAM_READ_AHEAD) capacity = IPC_STREAM_READ_AHEAD;
    ArrowBufferInit(&chunk);
    if (ArrowBufferReserve(&chunk, capacity) != NANOARROW_OK ||
        (available > 0 &&
         ArrowBufferAppend(&chunk, block->src.data + private_data->input_position,
                           available) != NANOARROW_OK) ||
        (new_block = ArrowIpcPrivateSharedBlockNew(&chunk)) == NULL) {
      ArrowBufferReset(&chunk);
      ArrowErrorSet(&private_data->error, "out of memory reading %ld bytes", (long)n);
      return ENOMEM;
    }
    if (block != NULL) ArrowIpcPrivateSharedBlockRelease(block);
    block = new_block;
    private_data->input_block = block;
    private_data->input_position = 0;
  }
  while (available < n) {
    int64_t n_read = 0;
    /* Small messages are read a chunk at a time; past a large one only enough for
     * the next header, since what is read ahead is copied when the chunk moves. */
    int64_t ahead = n > IPC_STREAM_READ_AHEAD ? IPC_STREAM_READ_PAST : IPC_STREAM_READ_AHEAD;
    int64_t n_wanted = n - available > INT64_MAX - ahead ? INT64_MAX : n - available + ahead;
    if (block->src.size_bytes == block->src.capacity_bytes) {
      /* Only a chunk nothing else refers to is ever full here. */
      int64_t grow = n - available < IPC_STREAM_READ_CHUNK ? n - available
                                                           : IPC_STREAM_READ_CHUNK;
      if (ArrowBufferReserve(&block->src, grow) != NANOARROW_OK) {
        ArrowErrorSet(&private_data->error, "out of memory reading %ld bytes", (long)n);
        return ENOMEM;
      }
    }
    if (n_wanted > block->src.capacity_bytes - block->src.size_bytes) {
      n_wanted = block->src.capacity_bytes - block->src.size_bytes;
    }
    NANOARROW_RETURN_NOT_OK(private_data->input.read(&private_data->input,
                                                     block->src.data + block->src.size_bytes,
                                                     n_wanted, &n_read, &private_data->error));
    if (n_read <= 0) break;
    block->src.size_bytes += n_read;
    available += n_read;
  }
  *available_out = available;
  return NANOARROW_OK;
}

/* IpcStreamReadMessage over chunks of a seekable file (same results and errors as
 * reading each piece separately). */
static ArrowErrorCode IpcStreamReadMessageAhead(struct IpcStreamReaderPrivate* private_data,
                                                struct ArrowBufferView* body_out,
                                                struct ArrowIpcSharedBlock** shared_out,
                                                int first) {
  struct ArrowIpcDecoder* decoder = &private_data->decoder;
  struct ArrowError* error = &private_data->error;
  struct ArrowBufferView view;
  const uint8_t* header_data;
  int32_t prefix = 0;
  int64_t available;
  int64_t message_size;
  ArrowErrorCode result;

  NANOARROW_RETURN_NOT_OK(IpcStreamReadAhead(private_data, 8, &available));
  if (available == 0) return ENODATA;
  view.data.as_uint8 = private_data->input_block->src.data + private_data->input_position;
  if (first && available >= 4 && memcmp(view.data.data, "ARRO", 4) == 0) {
    struct ArrowBuffer all;
    ArrowBufferInit(&all);
    if (ArrowBufferAppend(&all, view.data.data, available) != NANOARROW_OK) {
      ArrowBufferReset(&all);
      return ENOMEM;
    }
    return IpcStreamStartFileMode(private_data, &all) == NANOARROW_OK ? ENOENT : EINVAL;
  }
  view.size_bytes = available;
  result = IpcStreamPeekHeader(decoder, view, &prefix, error);
  if (result == ENODATA) return ENODATA;
  NANOARROW_RETURN_NOT_OK(result);

  NANOARROW_RETURN_NOT_OK(IpcStreamReadAhead(private_data, decoder->header_size_bytes, &available));
  if (available < decoder->header_size_bytes) {
    ArrowErrorSet(error, "expected %ld bytes of metadata but found %ld",
                  (long)(decoder->header_size_bytes - prefix), (long)(available - prefix));
    return ESPIPE;
  }
  view.data.as_uint8 = private_data->input_block->src.data + private_data->input_position;
  view.size_bytes = decoder->header_size_bytes;
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderDecodeHeader(decoder, view, error));
  header_data = view.data.as_uint8;

  /* A body too large for int64 arithmetic reads to the end and fails below. */
  message_size = decoder->body_size_bytes > INT64_MAX - decoder->header_size_bytes
                     ? INT64_MAX
                     : decoder->header_size_bytes + decoder->body_size_bytes;
  NANOARROW_RETURN_NOT_OK(IpcStreamReadAhead(private_data, message_size, &available));
  if (available < message_size) {
    ArrowErrorSet(error, "expected %ld bytes of body but found %ld",
                  (long)decoder->body_size_bytes,
                  (long)(available - decoder->header_size_bytes));
    return ESPIPE;
  }
  view.data.as_uint8 = private_data->input_block->src.data + private_data->input_position;
  if (view.data.as_uint8 != header_data) {
    /* The header moved to a new chunk: decode it where it now lives (its bytes
     * were counted as read already). */
    NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderDecodeHeader(decoder, view, error));
    ((struct ArrowIpcDecoderPrivate*)decoder->private_data)->bytes_read -=
        decoder->header_size_bytes;
  }
  body_out->data.as_uint8 = view.data.as_uint8 + decoder->header_size_bytes;
  body_out->size_bytes = decoder->body_size_bytes;
  private_data->input_position += message_size;
  private_data->message_offset = private_data->file_start + private_data->consumed;
  private_data->consumed += message_size;
  *shared_out = private_data->input_block;
  return NANOARROW_OK;
}

/* Reads and decodes the next message header; its body is then at *body_out.
 * ENODATA at the end of the stream, ESPIPE when it ends inside a message. */
static ArrowErrorCode IpcStreamReadMessage(struct IpcStreamReaderPrivate* private_data,
                                  struct ArrowBufferView* body_out,
                                  struct ArrowIpcSharedBlock** shared_out, int first) {
  struct ArrowIpcDecoder* decoder = &private_data->decoder;
  struct ArrowError* error = &private_data->error;
  struct ArrowBufferView view;
  int32_t prefix = 0;
  int64_t n_read;
  ArrowErrorCode result;

  *shared_out = NULL;
  if (private_data->read_ahead) {
    return IpcStreamReadMessageAhead(private_data, body_out, shared_out, first);
  }
  if (private_data->input_block != NULL) {
    /* Slicing the input buffer directly. */
    const uint8_t* data = private_data->input_block->src.data;
    int64_t size = private_data->input_block->src.size_bytes;
    int64_t pos = private_data->input_position;
    if (pos == size) return ENODATA;
    view.data.as_uint8 = data + pos;
    view.size_bytes = size - pos;
    if (first && view.size_bytes >= 6 && memcmp(view.data.data, "ARROW1", 6) == 0) {
      struct ArrowBuffer all;
      ArrowBufferInit(&all);
      if (ArrowBufferAppend(&all, view.data.data, view.size_bytes) != NANOARROW_OK) {
        return ENOMEM;
      }
      return IpcStreamStartFileMode(private_data, &all) == NANOARROW_OK ? ENOENT : EINVAL;
    }
    result = IpcStreamPeekHeader(decoder, view, &prefix, error);
    if (result == ENODATA) return ENODATA;
    NANOARROW_RETURN_NOT_OK(result);
    NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderDecodeHeader(decoder, view, error));
    pos += decoder->header_size_bytes;
    if (decoder->body_size_bytes > size - pos) {
      ArrowErrorSet(error, "message body of %ld bytes extends past the input's end",
                    (long)decoder->body_size_bytes);
      return ESPIPE;
    }
    body_out->data.as_uint8 = data + pos;
    body_out->size_bytes = decoder->body_size_bytes;
    private_data->input_position = pos + decoder->body_size_bytes;
    *shared_out = private_data->input_block;
    return NANOARROW_OK;
  }

  private_data->header.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK(IpcStreamReadAppend(private_data, &private_data->header, 4, &n_read));
  if (n_read == 0) return ENODATA;
  if (first && n_read == 4 && memcmp(private_data->header.data, "ARRO", 4) == 0) {
    struct ArrowBuffer all;
    ArrowBufferInit(&all);
    ArrowBufferMove(&private_data->header, &all);
    return IpcStreamStartFileMode(private_data, &all) == NANOARROW_OK ? ENOENT : EINVAL;
  }
  if (n_read == 4 && ArrowIpcFbrLoadI32(private_data->header.data) == -1) {
    NANOARROW_RETURN_NOT_OK(IpcStreamReadAppend(private_data, &private_data->header, 4, &n_read));
  }
  view.data.as_uint8 = private_data->header.data;
  view.size_bytes = private_data->header.size_bytes;
  result = IpcStreamPeekHeader(decoder, view, &prefix, error);
  if (result == ENODATA) return ENODATA;
  NANOARROW_RETURN_NOT_OK(result);
  NANOARROW_RETURN_NOT_OK(IpcStreamReadExactly(private_data, &private_data->header,
                                      decoder->header_size_bytes - prefix, "metadata"));
  view.data.as_uint8 = private_data->header.data;
  view.size_bytes = private_data->header.size_bytes;
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderDecodeHeader(decoder, view, error));

  private_data->body.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK(
      IpcStreamReadExactly(private_data, &private_data->body, decoder->body_size_bytes, "body"));
  if (private_data->options.use_shared_buffers) {
    *shared_out = ArrowIpcPrivateSharedBlockNew(&private_data->body);
    if (*shared_out == NULL) return ENOMEM;
    body_out->data.as_uint8 = (*shared_out)->src.data;
    body_out->size_bytes = (*shared_out)->src.size_bytes;
  } else {
    body_out->data.as_uint8 = private_data->body.data;
    body_out->size_bytes = private_data->body.size_bytes;
  }
  return NANOARROW_OK;
}

static void IpcStreamDropShared(struct IpcStreamReaderPrivate* private_data,
                       struct ArrowIpcSharedBlock* shared) {
  /* Slices of the input hold no reference of their own. */
  if (shared != NULL && shared != private_data->input_block) {
    ArrowIpcPrivateSharedBlockRelease(shared);
  }
}

/* Counts fields below schema into *counter until it reaches target. */
static int IpcStreamFindField(const struct ArrowSchema* schema, int64_t target,
                              int64_t* counter, struct IpcStreamFieldPath* path) {
  int64_t k;
  if (path->n_steps > NANOARROW_MAX_NESTING_DEPTH) return 0;
  for (k = 0; k < schema->n_children; k++) {
    path->steps[path->n_steps++] = k;
    if ((*counter)++ == target) return 1;
    if (IpcStreamFindField(schema->children[k], target, counter, path)) return 1;
    path->n_steps--;
  }
  return 0;
}

static ArrowErrorCode IpcStreamFieldPathOf(struct IpcStreamReaderPrivate* private_data,
                                           const struct ArrowSchema* full,
                                           struct IpcStreamFieldPath* path) {
  int64_t counter = 0;
  int64_t i = private_data->options.field_index;
  path->n_steps = 0;
  if (i >= 0 && IpcStreamFindField(full, i, &counter, path)) return NANOARROW_OK;
  /* A search that failed counted every field; count them for a negative index. */
  if (i < 0) IpcStreamFindField(full, INT64_MAX, &counter, path);
  ArrowErrorSet(&private_data->error,
                "field index %ld is out of range [-1, %ld) (fields are numbered "
                "depth-first)",
                (long)i, (long)counter);
  return EINVAL;
}

static const struct ArrowSchema* IpcStreamFieldAt(const struct ArrowSchema* full,
                                                  const struct IpcStreamFieldPath* path) {
  int k;
  for (k = 0; k < path->n_steps; k++) full = full->children[path->steps[k]];
  return full;
}

/* Keeps the selected part of full (moving it when it is all of it). */
static ArrowErrorCode IpcStreamSelectSchema(struct IpcStreamReaderPrivate* private_data,
                                   struct ArrowSchema* full) {
  struct IpcStreamFieldPath* path = &private_data->field_path;
  if (private_data->options.field_index == -1) {
    ArrowSchemaMove(full, &private_data->schema);
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(IpcStreamFieldPathOf(private_data, full, path));
  return ArrowSchemaDeepCopy(IpcStreamFieldAt(full, path), &private_data->schema);
}

/* Points exported_schema at the selected part of the decoder's schema. */
static ArrowErrorCode IpcStreamSelectDecoderSchema(struct IpcStreamReaderPrivate* private_data) {
  const struct ArrowSchema* full =
      &((struct ArrowIpcDecoderPrivate*)private_data->decoder.private_data)->tree.schema;
  struct IpcStreamFieldPath* path = &private_data->field_path;
  if (private_data->options.field_index == -1) {
    private_data->exported_schema = full;
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(IpcStreamFieldPathOf(private_data, full, path));
  private_data->exported_schema = IpcStreamFieldAt(full, path);
  return NANOARROW_OK;
}

/* A 64-bit digest of the Schema message's bytes: tells whether a file still holds
 * the message read from it (not a defence against a writer who crafts collisions;
 * the decoder keeps decoding batches with the schema it read first either way). */
static uint64_t IpcStreamHashBytes(const uint8_t* data, int64_t n) {
  static const uint64_t kMul = UINT64_C(0x9e3779b97f4a7c15);
  static const uint64_t kMix = UINT64_C(0xc2b2ae3d27d4eb4f);
  uint64_t a = UINT64_C(0x243f6a8885a308d3) ^ (uint64_t)n;
  uint64_t b = UINT64_C(0x13198a2e03707344);
  uint64_t c = UINT64_C(0xa4093822299f31d0);
  uint64_t d = UINT64_C(0x082efa98ec4e6c89);
  uint64_t w[4];
  int64_t i = 0;
  /* Four independent multiply-xor chains over 32-byte blocks, then the tail. */
  for (; i + 32 <= n; i += 32) {
    memcpy(w, data + i, sizeof(w));
    a = (a ^ w[0]) * kMul;
    b = (b ^ w[1]) * kMul;
    c = (c ^ w[2]) * kMul;
    d = (d ^ w[3]) * kMul;
  }
  for (; i < n; i++) a = (a ^ data[i]) * kMul;
  a = (a ^ (a >> 31) ^ b) * kMix;
  a = (a ^ (a >> 29) ^ c) * kMix;
  a = (a ^ (a >> 31) ^ d) * kMix;
  return a ^ (a >> 29);
}

/* Keeps the bytes of the Schema message just decoded (a reference to the input's
 * block, or the header buffer itself; where it lies in a seekable file); without
 * them get_schema always copies. */
static void IpcStreamKeepSchemaMessage(struct IpcStreamReaderPrivate* private_data) {
  const uint8_t* message =
      ((struct ArrowIpcDecoderPrivate*)private_data->decoder.private_data)->message;
  private_data->schema_message_size = private_data->decoder.header_size_bytes;
  if (private_data->read_ahead && private_data->file_start >= 0) {
    private_data->schema_file_offset = private_data->message_offset;
    private_data->schema_hash =
        IpcStreamHashBytes(message, private_data->schema_message_size);
  } else if (private_data->input_block != NULL) {
    ArrowIpcRefAdd(&private_data->input_block->refcount);
    private_data->schema_block = private_data->input_block;
    private_data->schema_message = message;
  } else {
    int64_t offset = message - private_data->header.data;
    private_data->schema_block = ArrowIpcPrivateSharedBlockNew(&private_data->header);
    if (private_data->schema_block == NULL) return;
    private_data->schema_message = private_data->schema_block->src.data + offset;
  }
}

static int IpcStreamHasKeptSchema(const struct IpcStreamReaderPrivate* private_data) {
  return private_data->schema_block != NULL || private_data->schema_file_offset >= 0;
}

/* A new copy of the schema from the kept Schema message (read again from the file
 * when only its place there was kept). */
static ArrowErrorCode IpcStreamDecodeKeptSchema(struct IpcStreamReaderPrivate* private_data,
                                                struct ArrowSchema* out) {
  struct ArrowIpcDecoder decoder;
  struct ArrowBufferView view;
  struct ArrowBuffer reread;
  ArrowErrorCode result;
  ArrowBufferInit(&reread);
  if (private_data->schema_block != NULL) {
    view.data.as_uint8 = private_data->schema_message;
  } else {
    if (ArrowBufferReserve(&reread, private_data->schema_message_size) != NANOARROW_OK) {
      ArrowErrorSet(&private_data->error, "out of memory reading the Schema message again");
      return ENOMEM;
    }
    result = ArrowIpcPrivateInputStreamReadAt(
        &private_data->input, private_data->schema_file_offset, reread.data,
        private_data->schema_message_size, &private_data->error);
    if (result == NANOARROW_OK &&
        IpcStreamHashBytes(reread.data, private_data->schema_message_size) !=
            private_data->schema_hash) {
      ArrowErrorSet(&private_data->error,
                    "the Schema message at offset %ld of the file changed since it was "
                    "read",
                    (long)private_data->schema_file_offset);
      result = EIO;
    }
    if (result != NANOARROW_OK) {
      ArrowBufferReset(&reread);
      return result;
    }
    view.data.as_uint8 = reread.data;
  }
  view.size_bytes = private_data->schema_message_size;
  if (ArrowIpcDecoderInit(&decoder) != NANOARROW_OK) {
    ArrowBufferReset(&reread);
    return ENOMEM;
  }
  result = ArrowIpcDecoderDecodeHeader(&decoder, view, &private_data->error);
  if (result == NANOARROW_OK) {
    result = ArrowIpcDecoderDecodeSchema(&decoder, out, &private_data->error);
  }
  ArrowIpcDecoderReset(&decoder);
  ArrowBufferReset(&reread);
  return result;
}

/* The names of a by-name projection as an array (ArrowFree it). */
static const char** IpcStreamProjectionNames(struct IpcStreamReaderPrivate* private_data) {
  const char** names = (const char**)ArrowMalloc(private_data->n_projection *
                                                 (int64_t)sizeof(const char*));
  const char* next = (const char*)private_data->projection.data;
  int64_t i;
  if (names == NULL) return NULL;
  for (i = 0; i < private_data->n_projection; i++) {
    names[i] = next;
    next += strlen(next) + 1;
  }
  return names;
}

/* Sets the requested projection on the decoder (stream) or file reader (file). */
static ArrowErrorCode IpcStreamApplyProjection(struct IpcStreamReaderPrivate* private_data) {
  const char** names = NULL;
  ArrowErrorCode result;
  if (private_data->n_projection == 0) return NANOARROW_OK;
  if (private_data->projection_by_name) {
    names = IpcStreamProjectionNames(private_data);
    if (names == NULL) {
      ArrowErrorSet(&private_data->error, "out of memory");
      return ENOMEM;
    }
  }
  if (private_data->is_file) {
    result = names != NULL
                 ? ArrowIpcFileReaderSetProjectionByName(&private_data->file_reader, names,
                                                         private_data->n_projection,
                                                         &private_data->error)
                 : ArrowIpcFileReaderSetProjection(
                       &private_data->file_reader,
                       (const int64_t*)private_data->projection.data,
                       private_data->n_projection, &private_data->error);
  } else {
    result = names != NULL
                 ? ArrowIpcDecoderSetProjectionByName(&private_data->decoder, names,
                                                      private_data->n_projection,
                                                      &private_data->error)
                 : ArrowIpcDecoderSetProjection(&private_data->decoder,
                                                (const int64_t*)private_data->projection.data,
                                                private_data->n_projection,
                                                &private_data->error);
  }
  ArrowFree(names);
  return result;
}

static ArrowErrorCode IpcStreamEnsureSchema(struct IpcStreamReaderPrivate* private_data) {
  struct ArrowBufferView body;
  struct ArrowIpcSharedBlock* shared;
  struct ArrowSchema full;
  ArrowErrorCode result;
  if (private_data->exported_schema != NULL) return NANOARROW_OK;

  result = IpcStreamReadMessage(private_data, &body, &shared, 1);
  if (result == ENOENT && private_data->is_file) {
    NANOARROW_RETURN_NOT_OK(IpcStreamApplyProjection(private_data));
    NANOARROW_RETURN_NOT_OK(ArrowIpcFileReaderGetSchema(&private_data->file_reader, &full,
                                                        &private_data->error));
    result = IpcStreamSelectSchema(private_data, &full);
    if (full.release != NULL) ArrowSchemaRelease(&full);
    if (result == NANOARROW_OK) private_data->exported_schema = &private_data->schema;
    return result;
  }
  if (result == ENODATA) {
    ArrowErrorSet(&private_data->error, "stream ended before its Schema message");
    return ENODATA;
  }
  NANOARROW_RETURN_NOT_OK(result);
  IpcStreamDropShared(private_data, shared);
  if (private_data->decoder.message_type != NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
    ArrowErrorSet(&private_data->error, "expected a Schema message but got message type %d",
                  (int)private_data->decoder.message_type);
    return EINVAL;
  }
  IpcStreamKeepSchemaMessage(private_data);
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcDecoderDecodeSchema(&private_data->decoder, &full, &private_data->error));
  /* The decoder keeps the decoded schema itself; get_schema copies from it. */
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcPrivateDecoderAdoptSchema(&private_data->decoder, &full, &private_data->error));
  NANOARROW_RETURN_NOT_OK(IpcStreamApplyProjection(private_data));
  return IpcStreamSelectDecoderSchema(private_data);
}

static int IpcStreamReaderGetSchema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct IpcStreamReaderPrivate* private_data =
      (struct IpcStreamReaderPrivate*)stream->private_data;
  private_data->error.message[0] = '\0';
  struct ArrowIpcDecoderPrivate* decoder_private;
  int64_t i;
  NANOARROW_RETURN_NOT_OK(IpcStreamEnsureSchema(private_data));
  if (private_data->schema_handed_out) return IpcStreamDecodeKeptSchema(private_data, out);
  decoder_private = (struct ArrowIpcDecoderPrivate*)private_data->decoder.private_data;
  if (!IpcStreamHasKeptSchema(private_data) || private_data->n_projection > 0 ||
      private_data->exported_schema != &decoder_private->tree.schema) {
    return ArrowSchemaDeepCopy(private_data->exported_schema, out);
  }
  /* The decoder needs its schema no more once its columns are set up; the
   * encodings it pointed into go with it. */
  ArrowSchemaMove(&decoder_private->tree.schema, out);
  for (i = 0; i < ArrowIpcPrivateEncodingsCount(&decoder_private->encodings); i++) {
    ArrowIpcPrivateEncodingsData(&decoder_private->encodings)[i].schema = NULL;
  }
  private_data->schema_handed_out = 1;
  return NANOARROW_OK;
}

/* Moves the array of the selected field (field_path) out of a whole batch. */
static void IpcStreamSelectColumn(struct IpcStreamReaderPrivate* private_data,
                                  struct ArrowArray* batch, struct ArrowArray* out) {
  struct ArrowArray* node = batch;
  int k;
  for (k = 0; k < private_data->field_path.n_steps; k++) {
    node = node->children[private_data->field_path.steps[k]];
  }
  ArrowArrayMove(node, out);
  batch->release(batch);
}

static int IpcStreamReaderGetNextFile(struct IpcStreamReaderPrivate* private_data,
                             struct ArrowArray* out) {
  struct ArrowArray batch;
  if (private_data->next_batch >=
      ArrowIpcFileReaderNumRecordBatches(&private_data->file_reader)) {
    out->release = NULL;
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcFileReaderReadBatch(
      &private_data->file_reader, private_data->next_batch, &batch,
      private_data->validation_level, &private_data->error));
  private_data->next_batch++;
  if (private_data->options.field_index == -1) {
    ArrowArrayMove(&batch, out);
  } else {
    IpcStreamSelectColumn(private_data, &batch, out);
  }
  return NANOARROW_OK;
}

static int IpcStreamReaderGetNext(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct IpcStreamReaderPrivate* private_data =
      (struct IpcStreamReaderPrivate*)stream->private_data;
  struct ArrowIpcDecoder* decoder = &private_data->decoder;
  enum ArrowValidationLevel level = private_data->validation_level;
  private_data->error.message[0] = '\0';
  NANOARROW_RETURN_NOT_OK(IpcStreamEnsureSchema(private_data));
  if (private_data->is_file) return IpcStreamReaderGetNextFile(private_data, out);

  while (!private_data->finished) {
    struct ArrowBufferView body;
    struct ArrowIpcSharedBlock* shared;
    ArrowErrorCode result = IpcStreamReadMessage(private_data, &body, &shared, 0);
    if (result == ENODATA) {
      private_data->finished = 1;
      break;
    }
    NANOARROW_RETURN_NOT_OK(result);
    switch (decoder->message_type) {
      case NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH:
        if (shared != NULL) {
          result = ArrowIpcPrivateDecoderDecodeShared(decoder, shared, body.data.as_uint8,
                                                      body.size_bytes, -1, NULL, level,
                                                      &private_data->error);
        } else {
          result = ArrowIpcDecoderDecodeDictionary(decoder, body, level, NULL,
                                                   &private_data->error);
        }
        IpcStreamDropShared(private_data, shared);
        NANOARROW_RETURN_NOT_OK(result);
        continue;
      case NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH:
        if (shared != NULL) {
          result = ArrowIpcPrivateDecoderDecodeShared(
              decoder, shared, body.data.as_uint8, body.size_bytes,
              private_data->options.field_index, out, level, &private_data->error);
        } else {
          result = ArrowIpcDecoderDecodeArray(decoder, body, private_data->options.field_index,
                                              out, level, &private_data->error);
        }
        IpcStreamDropShared(private_data, shared);
        return result;
      default:
        IpcStreamDropShared(private_data, shared);
        ArrowErrorSet(&private_data->error, "unexpected message type %d in stream",
                      (int)decoder->message_type);
        return EINVAL;
    }
  }
  out->release = NULL;
  return NANOARROW_OK;
}

static const char* IpcStreamReaderGetLastError(struct ArrowArrayStream* stream) {
  struct IpcStreamReaderPrivate* private_data =
      (struct IpcStreamReaderPrivate*)stream->private_data;
  return private_data->error.message;
}

NANOARROW_COLD
static void IpcStreamReaderRelease(struct ArrowArrayStream* stream) {
  struct IpcStreamReaderPrivate* private_data =
      (struct IpcStreamReaderPrivate*)stream->private_data;
  if (private_data->input.release != NULL) private_data->input.release(&private_data->input);
  ArrowIpcDecoderReset(&private_data->decoder);
  if (private_data->schema.release != NULL) ArrowSchemaRelease(&private_data->schema);
  ArrowBufferReset(&private_data->header);
  ArrowBufferReset(&private_data->body);
  ArrowBufferReset(&private_data->projection);
  if (private_data->input_block != NULL) {
    ArrowIpcPrivateSharedBlockRelease(private_data->input_block);
  }
  if (private_data->schema_block != NULL) {
    ArrowIpcPrivateSharedBlockRelease(private_data->schema_block);
  }
  if (private_data->is_file) ArrowIpcFileReaderReset(&private_data->file_reader);
  ArrowFree(private_data);
  stream->release = NULL;
}

ArrowErrorCode ArrowIpcArrayStreamReaderInit(
    struct ArrowArrayStream* out, struct ArrowIpcInputStream* input_stream,
    struct ArrowIpcArrayStreamReaderOptions* options) {
  return ArrowIpcArrayStreamReaderInitWithValidation(out, input_stream, options,
                                                     NANOARROW_VALIDATION_LEVEL_FULL);
}

ArrowErrorCode ArrowIpcArrayStreamReaderInitWithValidation(
    struct ArrowArrayStream* out, struct ArrowIpcInputStream* input_stream,
    struct ArrowIpcArrayStreamReaderOptions* options,
    enum ArrowValidationLevel validation_level) {
  return ArrowIpcArrayStreamReaderInitWithLimits(out, input_stream, options,
                                                 validation_level, -1);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcArrayStreamReaderInitWithLimits(
    struct ArrowArrayStream* out, struct ArrowIpcInputStream* input_stream,
    struct ArrowIpcArrayStreamReaderOptions* options,
    enum ArrowValidationLevel validation_level, int64_t max_decompressed_bytes) {
  struct IpcStreamReaderPrivate* private_data;
  struct ArrowBuffer* input_buffer;
  int64_t* position;
  if (input_stream == NULL || input_stream->release == NULL) return EINVAL;
  if (max_decompressed_bytes < -1) return EINVAL;
  switch (validation_level) {
    case NANOARROW_VALIDATION_LEVEL_NONE:
    case NANOARROW_VALIDATION_LEVEL_MINIMAL:
    case NANOARROW_VALIDATION_LEVEL_DEFAULT:
    case NANOARROW_VALIDATION_LEVEL_FULL:
      break;
    default:
      return EINVAL;
  }
  private_data =
      (struct IpcStreamReaderPrivate*)ArrowMalloc(sizeof(struct IpcStreamReaderPrivate));
  if (private_data == NULL) return ENOMEM;
  memset(private_data, 0, sizeof(*private_data));
  if (ArrowIpcDecoderInit(&private_data->decoder) != NANOARROW_OK) {
    ArrowFree(private_data);
    return ENOMEM;
  }
  NANOARROW_ASSERT_OK(
      ArrowIpcDecoderSetMaxDecompressedBytes(&private_data->decoder, max_decompressed_bytes));
  if (options != NULL) {
    private_data->options = *options;
  } else {
    private_data->options.field_index = -1;
    private_data->options.use_shared_buffers = ArrowSharedBufferIsThreadSafe();
  }
  private_data->validation_level = validation_level;
  private_data->exported_schema = NULL;
  private_data->schema_block = NULL;
  private_data->schema_file_offset = -1;
  private_data->file_start = -1;
  private_data->schema.release = NULL;
  ArrowBufferInit(&private_data->header);
  ArrowBufferInit(&private_data->body);
  ArrowBufferInit(&private_data->projection);
  ArrowIpcInputStreamMove(input_stream, &private_data->input);
  out->get_schema = &IpcStreamReaderGetSchema;
  out->get_next = &IpcStreamReaderGetNext;
  out->get_last_error = &IpcStreamReaderGetLastError;
  out->release = &IpcStreamReaderRelease;
  out->private_data = private_data;

  input_buffer = ArrowIpcPrivateInputStreamBuffer(&private_data->input, &position);
  if (input_buffer != NULL && private_data->options.use_shared_buffers) {
    struct ArrowBuffer remaining;
    ArrowBufferInit(&remaining);
    ArrowBufferMove(input_buffer, &remaining);
    private_data->input_position = *position;
    private_data->input_block = ArrowIpcPrivateSharedBlockNew(&remaining);
    if (private_data->input_block == NULL) {
      ArrowBufferReset(&remaining);
      IpcStreamReaderRelease(out);
      return ENOMEM;
    }
  } else if (private_data->options.use_shared_buffers &&
             ArrowIpcPrivateInputStreamIsSeekableFile(&private_data->input)) {
    private_data->read_ahead = 1;
    private_data->file_start = ArrowIpcPrivateInputStreamFileTell(&private_data->input);
  }
  return NANOARROW_OK;
}

/* The reader behind stream, or NULL when stream is not one made here. */
static struct IpcStreamReaderPrivate* IpcStreamReaderOf(struct ArrowArrayStream* stream) {
  if (stream == NULL || stream->release != &IpcStreamReaderRelease) return NULL;
  return (struct IpcStreamReaderPrivate*)stream->private_data;
}

ArrowErrorCode ArrowIpcArrayStreamReaderSetMaxHeldBytes(struct ArrowArrayStream* stream,
                                                        int64_t max_bytes) {
  struct IpcStreamReaderPrivate* private_data = IpcStreamReaderOf(stream);
  if (private_data == NULL || max_bytes < -1) return EINVAL;
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderSetMaxHeldBytes(&private_data->decoder, max_bytes));
  if (private_data->is_file) {
    return ArrowIpcFileReaderSetMaxHeldBytes(&private_data->file_reader, max_bytes);
  }
  return NANOARROW_OK;
}

/* Checks that stream is a reader that has not read its schema yet. */
static ArrowErrorCode IpcStreamProjectionTarget(struct ArrowArrayStream* stream, int64_t n,
                                                struct IpcStreamReaderPrivate** out,
                                                struct ArrowError* error) {
  struct IpcStreamReaderPrivate* private_data = IpcStreamReaderOf(stream);
  if (private_data == NULL) {
    ArrowErrorSet(error, "not a stream made by ArrowIpcArrayStreamReaderInit");
    return EINVAL;
  }
  if (private_data->exported_schema != NULL || private_data->is_file ||
      private_data->finished || private_data->options.field_index != -1) {
    ArrowErrorSet(error,
                  "a projection is set before the stream's schema is read and only "
                  "without a field_index option");
    return EINVAL;
  }
  if (n < 1) {
    ArrowErrorSet(error, "a projection selects at least one column");
    return EINVAL;
  }
  *out = private_data;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcArrayStreamReaderSetProjection(struct ArrowArrayStream* stream,
                                                      const int64_t* field_indices,
                                                      int64_t n, struct ArrowError* error) {
  struct IpcStreamReaderPrivate* private_data;
  NANOARROW_RETURN_NOT_OK(IpcStreamProjectionTarget(stream, n, &private_data, error));
  if (field_indices == NULL) return EINVAL;
  private_data->projection.size_bytes = 0;
  if (ArrowBufferAppend(&private_data->projection, field_indices,
                        n * (int64_t)sizeof(int64_t)) != NANOARROW_OK) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  private_data->n_projection = n;
  private_data->projection_by_name = 0;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcArrayStreamReaderSetProjectionByName(
    struct ArrowArrayStream* stream, const char* const* names, int64_t n,
    struct ArrowError* error) {
  struct IpcStreamReaderPrivate* private_data;
  int64_t i;
  NANOARROW_RETURN_NOT_OK(IpcStreamProjectionTarget(stream, n, &private_data, error));
  if (names == NULL) return EINVAL;
  private_data->projection.size_bytes = 0;
  for (i = 0; i < n; i++) {
    if (names[i] == NULL) {
      ArrowErrorSet(error, "column name %ld is NULL", (long)i);
      return EINVAL;
    }
    if (ArrowBufferAppend(&private_data->projection, names[i],
                          (int64_t)strlen(names[i]) + 1) != NANOARROW_OK) {
      ArrowErrorSet(error, "out of memory");
      return ENOMEM;
    }
  }
  private_data->n_projection = n;
  private_data->projection_by_name = 1;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcArrayStreamReaderSetNumThreads(struct ArrowArrayStream* stream,
                                                      int n_threads,
                                                      struct ArrowError* error) {
  struct IpcStreamReaderPrivate* private_data = IpcStreamReaderOf(stream);
  if (private_data == NULL) {
    ArrowErrorSet(error, "not a stream made by ArrowIpcArrayStreamReaderInit");
    return EINVAL;
  }
  private_data->n_threads = n_threads;
  if (private_data->is_file) {
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcFileReaderSetNumThreads(&private_data->file_reader, n_threads));
  }
  return ArrowIpcDecoderSetNumThreads(&private_data->decoder, n_threads);
}
