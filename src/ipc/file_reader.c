/* The IPC file format: "ARROW1" + padding, stream-format messages, the Footer,
 * int32 footer length, "ARROW1". Batches are read through the footer's blocks,
 * so batch i is decoded without reading the others. Init reads only the footer;
 * the dictionaries are decoded when the first batch is read, so that they obey
 * the decompressed-byte limit the caller sets after Init. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

struct IpcFileReaderPrivate {
  struct ArrowIpcDecoder decoder;
  /* Whole-file data (InitBuffer) ... */
  struct ArrowIpcSharedBlock* data_block;
  /* ... or a seekable file (InitFile). */
  FILE* file;
  int close_on_release;
  /* Bytes before the footer: every block must lie inside them. */
  int64_t blocks_end;
  /* The footer's dictionary blocks decoded so far (in file order). */
  int64_t n_dictionaries_read;
  /* Bytes read from file, and the gap under which selected ranges are merged. */
  int64_t bytes_read;
  int64_t coalesce_gap;
};

static void IpcFileReaderPrivateFree(struct IpcFileReaderPrivate* private_data) {
  ArrowIpcDecoderReset(&private_data->decoder);
  if (private_data->data_block != NULL) {
    ArrowIpcPrivateSharedBlockRelease(private_data->data_block);
  }
  if (private_data->file != NULL && private_data->close_on_release) {
    fclose(private_data->file);
  }
  ArrowFree(private_data);
}

/* A block's bytes as a shared block: a slice of the data, or read from the file. */
static ArrowErrorCode IpcFileReaderReadBlock(struct IpcFileReaderPrivate* private_data,
                                const struct ArrowIpcFileBlock* block,
                                struct ArrowIpcSharedBlock** shared_out,
                                const uint8_t** bytes_out, struct ArrowError* error) {
  int64_t size;
  if (block->offset < 8 || block->metadata_length <= 0 || block->body_length < 0 ||
      block->offset > private_data->blocks_end ||
      block->metadata_length > private_data->blocks_end - block->offset ||
      block->body_length >
          private_data->blocks_end - block->offset - block->metadata_length) {
    ArrowErrorSet(error,
                  "file block (offset %ld, metadata %d, body %ld) is outside the %ld bytes "
                  "before the footer",
                  (long)block->offset, (int)block->metadata_length,
                  (long)block->body_length, (long)private_data->blocks_end);
    return EINVAL;
  }
  size = block->metadata_length + block->body_length;
  if (shared_out == NULL) return NANOARROW_OK;
  if (private_data->data_block != NULL) {
    *shared_out = private_data->data_block;
    ArrowIpcRefAdd(&private_data->data_block->refcount);
    *bytes_out = private_data->data_block->src.data + block->offset;
    return NANOARROW_OK;
  } else {
    struct ArrowBuffer bytes;
    ArrowBufferInit(&bytes);
    if (ArrowBufferReserve(&bytes, size) != NANOARROW_OK) {
      ArrowErrorSet(error, "out of memory reading a block of %ld bytes", (long)size);
      return ENOMEM;
    }
    if (fseek(private_data->file, (long)block->offset, SEEK_SET) != 0 ||
        fread(bytes.data, 1, (size_t)size, private_data->file) != (size_t)size) {
      ArrowBufferReset(&bytes);
      ArrowErrorSet(error, "could not read %ld bytes at offset %ld", (long)size,
                    (long)block->offset);
      return EIO;
    }
    private_data->bytes_read += size;
    bytes.size_bytes = size;
    *shared_out = ArrowIpcPrivateSharedBlockNew(&bytes);
    if (*shared_out == NULL) {
      ArrowBufferReset(&bytes);
      return ENOMEM;
    }
    *bytes_out = (*shared_out)->src.data;
    return NANOARROW_OK;
  }
}

static ArrowErrorCode IpcFileReaderReadAt(struct IpcFileReaderPrivate* private_data,
                                          int64_t offset, uint8_t* out, int64_t size,
                                          struct ArrowError* error) {
  if (size == 0) return NANOARROW_OK;
  if (fseek(private_data->file, (long)offset, SEEK_SET) != 0 ||
      fread(out, 1, (size_t)size, private_data->file) != (size_t)size) {
    ArrowErrorSet(error, "could not read %ld bytes at offset %ld", (long)size, (long)offset);
    return EIO;
  }
  private_data->bytes_read += size;
  return NANOARROW_OK;
}

/* A byte range of the body that selected buffers lie in. */
struct IpcFileReaderRange {
  int64_t start;
  int64_t end;
  /* Where start lands in the compact body. */
  int64_t compact;
};

static int IpcFileReaderCompareBuffers(const void* a, const void* b) {
  int64_t left = ArrowIpcFbrLoadI64(*(const uint8_t* const*)a);
  int64_t right = ArrowIpcFbrLoadI64(*(const uint8_t* const*)b);
  return left < right ? -1 : left > right;
}

/* Reads the selected buffers of the record batch whose header the decoder holds
 * (projected: its buffer entries are the decoder's own copies) from the body at
 * body_offset (body_length bytes): the ranges they occupy, merged when less than
 * the coalesce gap apart, into one compact body, each at the same offset modulo
 * 64 as in the file so that alignment is kept. The entries are rewritten to point
 * into it. */
static ArrowErrorCode IpcFileReaderReadSelected(struct IpcFileReaderPrivate* private_data,
                                                int64_t body_offset, int64_t body_length,
                                                struct ArrowBuffer* out,
                                                struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* decoder_private =
      (struct ArrowIpcDecoderPrivate*)private_data->decoder.private_data;
  struct ArrowIpcProjection* projection = decoder_private->projection;
  int64_t n = projection->buffers.size_bytes / 16;
  uint8_t** entries;
  struct IpcFileReaderRange* ranges;
  int64_t n_ranges = 0;
  int64_t compact_size = 0;
  int64_t i;
  int64_t r;
  ArrowErrorCode result = NANOARROW_OK;

  entries = (uint8_t**)ArrowMalloc((n > 0 ? n : 1) * (int64_t)sizeof(uint8_t*));
  ranges = (struct IpcFileReaderRange*)ArrowMalloc((n > 0 ? n : 1) *
                                                   (int64_t)sizeof(struct IpcFileReaderRange));
  if (entries == NULL || ranges == NULL) {
    ArrowFree(entries);
    ArrowFree(ranges);
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  for (i = 0; i < n; i++) {
    uint8_t* entry = projection->buffers.data + 16 * i;
    int64_t offset = ArrowIpcFbrLoadI64(entry);
    int64_t length = ArrowIpcFbrLoadI64(entry + 8);
    if (offset < 0 || length < 0 || offset > body_length || length > body_length - offset) {
      ArrowErrorSet(error,
                    "selected buffer %ld (offset %ld, length %ld) is outside the body of "
                    "%ld bytes",
                    (long)i, (long)offset, (long)length, (long)body_length);
      result = EINVAL;
      break;
    }
    entries[i] = entry;
  }
  if (result == NANOARROW_OK) {
    qsort(entries, (size_t)n, sizeof(uint8_t*), &IpcFileReaderCompareBuffers);
    for (i = 0; i < n; i++) {
      int64_t offset = ArrowIpcFbrLoadI64(entries[i]);
      int64_t end = offset + ArrowIpcFbrLoadI64(entries[i] + 8);
      if (end == offset) continue;
      if (n_ranges > 0 && offset - ranges[n_ranges - 1].end <= private_data->coalesce_gap) {
        if (end > ranges[n_ranges - 1].end) ranges[n_ranges - 1].end = end;
      } else {
        ranges[n_ranges].start = offset;
        ranges[n_ranges].end = end;
        n_ranges++;
      }
    }
    for (r = 0; r < n_ranges; r++) {
      compact_size += ((ranges[r].start - compact_size) % 64 + 64) % 64;
      ranges[r].compact = compact_size;
      compact_size += ranges[r].end - ranges[r].start;
    }
    result = ArrowBufferReserve(out, compact_size + 1);
    if (result != NANOARROW_OK) ArrowErrorSet(error, "out of memory");
  }
  for (r = 0; result == NANOARROW_OK && r < n_ranges; r++) {
    result = IpcFileReaderReadAt(private_data, body_offset + ranges[r].start,
                                 out->data + ranges[r].compact,
                                 ranges[r].end - ranges[r].start, error);
  }
  if (result == NANOARROW_OK) {
    /* Entries are sorted by offset, as are the ranges. */
    out->size_bytes = compact_size;
    r = 0;
    for (i = 0; i < n; i++) {
      int64_t offset = ArrowIpcFbrLoadI64(entries[i]);
      int64_t length = ArrowIpcFbrLoadI64(entries[i] + 8);
      int64_t moved = 0;
      if (length > 0) {
        while (ranges[r].end < offset + length) r++;
        moved = ranges[r].compact + (offset - ranges[r].start);
      }
      {
        int byte;
        for (byte = 0; byte < 8; byte++) {
          entries[i][byte] = (uint8_t)((uint64_t)moved >> (8 * byte));
        }
      }
    }
  }
  ArrowFree(entries);
  ArrowFree(ranges);
  return result;
}

/* The FILE* path of a projected reader: the metadata first, then only what the
 * selected columns need (a skipped dictionary's body is not read at all). */
static ArrowErrorCode IpcFileReaderDecodeProjected(struct IpcFileReaderPrivate* private_data,
                                                   const struct ArrowIpcFileBlock* block,
                                                   enum ArrowIpcMessageType expected,
                                                   struct ArrowArray* out,
                                                   enum ArrowValidationLevel validation_level,
                                                   int* header_ok_out,
                                                   struct ArrowError* error) {
  struct ArrowIpcDecoder* decoder = &private_data->decoder;
  struct ArrowIpcDecoderPrivate* decoder_private =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  struct ArrowBuffer metadata;
  struct ArrowBuffer body;
  struct ArrowBufferView header;
  struct ArrowIpcSharedBlock* shared = NULL;
  int64_t body_offset = block->offset + block->metadata_length;
  ArrowErrorCode result;
  ArrowBufferInit(&metadata);
  ArrowBufferInit(&body);
  result = ArrowBufferReserve(&metadata, block->metadata_length);
  if (result != NANOARROW_OK) {
    ArrowErrorSet(error, "out of memory reading %ld bytes of metadata",
                  (long)block->metadata_length);
  }
  if (result == NANOARROW_OK) {
    result = IpcFileReaderReadAt(private_data, block->offset, metadata.data,
                                 block->metadata_length, error);
  }
  if (result == NANOARROW_OK) {
    header.data.as_uint8 = metadata.data;
    header.size_bytes = block->metadata_length;
    result = ArrowIpcDecoderDecodeHeader(decoder, header, error);
  }
  if (result == NANOARROW_OK && decoder->message_type != expected) {
    ArrowErrorSet(error, "file block at offset %ld holds message type %d, expected %d",
                  (long)block->offset, (int)decoder->message_type, (int)expected);
    result = EINVAL;
  }
  if (result == NANOARROW_OK && header_ok_out != NULL) *header_ok_out = 1;
  if (result == NANOARROW_OK && decoder->body_size_bytes > block->body_length) {
    ArrowErrorSet(error, "message body of %ld bytes is longer than its file block's %ld",
                  (long)decoder->body_size_bytes, (long)block->body_length);
    result = EINVAL;
  }
  if (result == NANOARROW_OK && expected == NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH) {
    if (ArrowIpcPrivateProjectionSkipsId(decoder_private,
                                         decoder_private->dictionary_batch.id)) {
      ArrowBufferReset(&metadata);
      return NANOARROW_OK;
    }
    result = ArrowBufferReserve(&body, decoder->body_size_bytes);
    if (result != NANOARROW_OK) ArrowErrorSet(error, "out of memory reading a body");
    if (result == NANOARROW_OK) {
      result = IpcFileReaderReadAt(private_data, body_offset, body.data,
                                   decoder->body_size_bytes, error);
      body.size_bytes = decoder->body_size_bytes;
    }
  } else if (result == NANOARROW_OK) {
    result = IpcFileReaderReadSelected(private_data, body_offset, decoder->body_size_bytes,
                                       &body, error);
    /* The body is the compact one now. */
    if (result == NANOARROW_OK) decoder->body_size_bytes = body.size_bytes;
  }
  if (result == NANOARROW_OK) {
    shared = ArrowIpcPrivateSharedBlockNew(&body);
    if (shared == NULL) {
      ArrowErrorSet(error, "out of memory");
      result = ENOMEM;
    }
  }
  if (result == NANOARROW_OK) {
    result = ArrowIpcPrivateDecoderDecodeShared(decoder, shared, shared->src.data,
                                                shared->src.size_bytes, -1, out,
                                                validation_level, error);
  }
  if (shared != NULL) ArrowIpcPrivateSharedBlockRelease(shared);
  ArrowBufferReset(&body);
  ArrowBufferReset(&metadata);
  return result;
}

/* Decodes the message in block: a dictionary (out == NULL) or a record batch.
 * *header_ok_out (may be NULL) is set to 1 once the header is decoded and of the
 * expected type, so that an error can name what the header says. */
static ArrowErrorCode IpcFileReaderDecodeBlock(struct IpcFileReaderPrivate* private_data,
                                  const struct ArrowIpcFileBlock* block,
                                  enum ArrowIpcMessageType expected, struct ArrowArray* out,
                                  enum ArrowValidationLevel validation_level,
                                  int* header_ok_out, struct ArrowError* error) {
  struct ArrowIpcSharedBlock* shared = NULL;
  const uint8_t* bytes = NULL;
  struct ArrowBufferView header;
  ArrowErrorCode result;
  const struct ArrowIpcDecoderPrivate* decoder_private =
      (const struct ArrowIpcDecoderPrivate*)private_data->decoder.private_data;
  if (private_data->file != NULL && decoder_private->projection != NULL) {
    /* Checks the block's bounds first. */
    NANOARROW_RETURN_NOT_OK(IpcFileReaderReadBlock(private_data, block, NULL, NULL, error));
    return IpcFileReaderDecodeProjected(private_data, block, expected, out,
                                        validation_level, header_ok_out, error);
  }
  NANOARROW_RETURN_NOT_OK(IpcFileReaderReadBlock(private_data, block, &shared, &bytes, error));
  header.data.as_uint8 = bytes;
  header.size_bytes = block->metadata_length;
  result = ArrowIpcDecoderDecodeHeader(&private_data->decoder, header, error);
  if (result == NANOARROW_OK && private_data->decoder.message_type != expected) {
    ArrowErrorSet(error, "file block at offset %ld holds message type %d, expected %d",
                  (long)block->offset, (int)private_data->decoder.message_type,
                  (int)expected);
    result = EINVAL;
  }
  if (result == NANOARROW_OK && header_ok_out != NULL) *header_ok_out = 1;
  if (result == NANOARROW_OK) {
    result = ArrowIpcPrivateDecoderDecodeShared(
        &private_data->decoder, shared, bytes + block->metadata_length, block->body_length,
        -1, out, validation_level, error);
  }
  ArrowIpcPrivateSharedBlockRelease(shared);
  return result;
}

/* Decodes the footer (and its schema); the dictionaries wait for the first batch. */
static ArrowErrorCode IpcFileReaderStart(struct IpcFileReaderPrivate* private_data,
                                      struct ArrowBufferView tail, int64_t file_size,
                                      struct ArrowError* error) {
  struct ArrowIpcDecoder* decoder = &private_data->decoder;
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderDecodeFooter(decoder, tail, error));
  /* header_size_bytes is the footer's size, without the 10 bytes after it. */
  private_data->blocks_end = file_size - 10 - (int64_t)decoder->header_size_bytes;
  return NANOARROW_OK;
}

/* Decodes the dictionary blocks not read yet, in file order, under the limit in
 * force now. A DictionaryBatch changes its dictionary only once it decoded whole,
 * so after an error the next call starts again at the block that failed. */
static ArrowErrorCode IpcFileReaderEnsureDictionaries(
    struct IpcFileReaderPrivate* private_data, struct ArrowError* error) {
  const struct ArrowBuffer* dictionary_blocks =
      &private_data->decoder.footer->dictionary_blocks;
  const struct ArrowIpcFileBlock* blocks =
      (const struct ArrowIpcFileBlock*)dictionary_blocks->data;
  int64_t n_dictionaries =
      dictionary_blocks->size_bytes / (int64_t)sizeof(struct ArrowIpcFileBlock);
  while (private_data->n_dictionaries_read < n_dictionaries) {
    int64_t i = private_data->n_dictionaries_read;
    int header_ok = 0;
    struct ArrowError detail;
    ArrowErrorCode result;
    detail.message[0] = '\0';
    result = IpcFileReaderDecodeBlock(private_data, &blocks[i],
                                      NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH, NULL,
                                      NANOARROW_VALIDATION_LEVEL_FULL, &header_ok, &detail);
    if (result != NANOARROW_OK) {
      if (header_ok) {
        const struct ArrowIpcDecoderPrivate* decoder_private =
            (const struct ArrowIpcDecoderPrivate*)private_data->decoder.private_data;
        ArrowErrorSet(error,
                      "dictionary id %ld (dictionary block %ld of %ld, file offset %ld): %s",
                      (long)decoder_private->dictionary_batch.id, (long)i,
                      (long)n_dictionaries, (long)blocks[i].offset, detail.message);
      } else {
        ArrowErrorSet(error, "dictionary block %ld of %ld (file offset %ld): %s", (long)i,
                      (long)n_dictionaries, (long)blocks[i].offset, detail.message);
      }
      return result;
    }
    private_data->n_dictionaries_read++;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode IpcFileReaderAllocate(struct ArrowIpcFileReader* reader,
                                         struct IpcFileReaderPrivate** out) {
  struct IpcFileReaderPrivate* private_data =
      (struct IpcFileReaderPrivate*)ArrowMalloc(sizeof(struct IpcFileReaderPrivate));
  reader->private_data = NULL;
  if (private_data == NULL) return ENOMEM;
  memset(private_data, 0, sizeof(*private_data));
  private_data->coalesce_gap = NANOARROW_IPC_DEFAULT_COALESCE_GAP;
  if (ArrowIpcDecoderInit(&private_data->decoder) != NANOARROW_OK) {
    ArrowFree(private_data);
    return ENOMEM;
  }
  *out = private_data;
  return NANOARROW_OK;
}

static ArrowErrorCode IpcFileReaderCheckLeadingMagic(const uint8_t* data, int64_t size,
                                        struct ArrowError* error) {
  if (size < 18 || memcmp(data, "ARROW1", 6) != 0) {
    ArrowErrorSet(error, "not an Arrow IPC file (no leading ARROW1 magic)");
    return EINVAL;
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcFileReaderInitBuffer(struct ArrowIpcFileReader* reader,
                                            struct ArrowBuffer* data,
                                            struct ArrowError* error) {
  struct IpcFileReaderPrivate* private_data;
  struct ArrowBufferView tail;
  ArrowErrorCode result;
  NANOARROW_RETURN_NOT_OK(IpcFileReaderAllocate(reader, &private_data));
  private_data->data_block = ArrowIpcPrivateSharedBlockNew(data);
  if (private_data->data_block == NULL) {
    IpcFileReaderPrivateFree(private_data);
    return ENOMEM;
  }
  tail.data.as_uint8 = private_data->data_block->src.data;
  tail.size_bytes = private_data->data_block->src.size_bytes;
  result = IpcFileReaderCheckLeadingMagic(tail.data.as_uint8, tail.size_bytes, error);
  if (result == NANOARROW_OK) {
    result = IpcFileReaderStart(private_data, tail, tail.size_bytes, error);
  }
  if (result != NANOARROW_OK) {
    IpcFileReaderPrivateFree(private_data);
    return result;
  }
  reader->private_data = private_data;
  return NANOARROW_OK;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcFileReaderInitFile(struct ArrowIpcFileReader* reader,
                                          void* file_ptr, int close_on_release,
                                          struct ArrowError* error) {
  struct IpcFileReaderPrivate* private_data;
  FILE* file = (FILE*)file_ptr;
  long file_size;
  uint8_t head[8];
  uint8_t trailer[10];
  struct ArrowBuffer tail;
  struct ArrowBufferView tail_view;
  int32_t footer_size;
  ArrowErrorCode result;
  if (file == NULL) return EINVAL;
  NANOARROW_RETURN_NOT_OK(IpcFileReaderAllocate(reader, &private_data));
  private_data->file = file;
  private_data->close_on_release = close_on_release;
  ArrowBufferInit(&tail);

  if (fseek(file, 0, SEEK_END) != 0 || (file_size = ftell(file)) < 18 ||
      fseek(file, 0, SEEK_SET) != 0 || fread(head, 1, 8, file) != 8 ||
      fseek(file, file_size - 10, SEEK_SET) != 0 || fread(trailer, 1, 10, file) != 10) {
    ArrowErrorSet(error, "could not read the start and end of the file");
    IpcFileReaderPrivateFree(private_data);
    return EIO;
  }
  result = IpcFileReaderCheckLeadingMagic(head, file_size, error);
  footer_size = ArrowIpcFbrLoadI32(trailer);
  if (result == NANOARROW_OK && (footer_size <= 0 || footer_size > file_size - 18)) {
    ArrowErrorSet(error, "footer size %d does not fit in a file of %ld bytes",
                  (int)footer_size, file_size);
    result = EINVAL;
  }
  if (result == NANOARROW_OK) {
    result = ArrowBufferReserve(&tail, (int64_t)footer_size + 10);
    if (result == NANOARROW_OK &&
        (fseek(file, file_size - 10 - footer_size, SEEK_SET) != 0 ||
         fread(tail.data, 1, (size_t)footer_size + 10, file) != (size_t)footer_size + 10)) {
      ArrowErrorSet(error, "could not read the footer");
      result = EIO;
    }
  }
  private_data->bytes_read = 18 + (result == NANOARROW_OK ? (int64_t)footer_size + 10 : 0);
  if (result == NANOARROW_OK) {
    tail_view.data.as_uint8 = tail.data;
    tail_view.size_bytes = (int64_t)footer_size + 10;
    result = IpcFileReaderStart(private_data, tail_view, file_size, error);
  }
  ArrowBufferReset(&tail);
  if (result != NANOARROW_OK) {
    IpcFileReaderPrivateFree(private_data);
    return result;
  }
  reader->private_data = private_data;
  return NANOARROW_OK;
}

NANOARROW_COLD
void ArrowIpcFileReaderReset(struct ArrowIpcFileReader* reader) {
  if (reader->private_data != NULL) {
    IpcFileReaderPrivateFree((struct IpcFileReaderPrivate*)reader->private_data);
  }
  reader->private_data = NULL;
}

ArrowErrorCode ArrowIpcFileReaderGetSchema(struct ArrowIpcFileReader* reader,
                                           struct ArrowSchema* out,
                                           struct ArrowError* error) {
  struct IpcFileReaderPrivate* private_data = (struct IpcFileReaderPrivate*)reader->private_data;
  const struct ArrowIpcDecoderPrivate* decoder_private =
      (const struct ArrowIpcDecoderPrivate*)private_data->decoder.private_data;
  ArrowErrorCode result;
  if (decoder_private->projection != NULL) {
    return ArrowIpcPrivateProjectSchema(&private_data->decoder.footer->schema,
                                        decoder_private->projection->selected,
                                        decoder_private->projection->n_selected, out, error);
  }
  result = ArrowSchemaDeepCopy(&private_data->decoder.footer->schema, out);
  if (result != NANOARROW_OK) ArrowErrorSet(error, "out of memory copying the schema");
  return result;
}

int64_t ArrowIpcFileReaderNumRecordBatches(struct ArrowIpcFileReader* reader) {
  struct IpcFileReaderPrivate* private_data = (struct IpcFileReaderPrivate*)reader->private_data;
  return private_data->decoder.footer->record_batch_blocks.size_bytes /
         (int64_t)sizeof(struct ArrowIpcFileBlock);
}

ArrowErrorCode ArrowIpcFileReaderSetMaxDecompressedBytes(struct ArrowIpcFileReader* reader,
                                                         int64_t max_bytes) {
  struct IpcFileReaderPrivate* private_data = (struct IpcFileReaderPrivate*)reader->private_data;
  if (private_data == NULL) return EINVAL;
  return ArrowIpcDecoderSetMaxDecompressedBytes(&private_data->decoder, max_bytes);
}

ArrowErrorCode ArrowIpcFileReaderSetNumThreads(struct ArrowIpcFileReader* reader,
                                               int n_threads) {
  struct IpcFileReaderPrivate* private_data = (struct IpcFileReaderPrivate*)reader->private_data;
  if (private_data == NULL) return EINVAL;
  return ArrowIpcDecoderSetNumThreads(&private_data->decoder, n_threads);
}

ArrowErrorCode ArrowIpcFileReaderSetMaxHeldBytes(struct ArrowIpcFileReader* reader,
                                                 int64_t max_bytes) {
  struct IpcFileReaderPrivate* private_data = (struct IpcFileReaderPrivate*)reader->private_data;
  if (private_data == NULL) return EINVAL;
  return ArrowIpcDecoderSetMaxHeldBytes(&private_data->decoder, max_bytes);
}

ArrowErrorCode ArrowIpcFileReaderReadBatch(struct ArrowIpcFileReader* reader, int64_t i,
                                           struct ArrowArray* out,
                                           enum ArrowValidationLevel validation_level,
                                           struct ArrowError* error) {
  struct IpcFileReaderPrivate* private_data = (struct IpcFileReaderPrivate*)reader->private_data;
  const struct ArrowIpcFileBlock* blocks =
      (const struct ArrowIpcFileBlock*)private_data->decoder.footer->record_batch_blocks.data;
  if (i < 0 || i >= ArrowIpcFileReaderNumRecordBatches(reader)) {
    ArrowErrorSet(error, "record batch %ld does not exist (the file has %ld)", (long)i,
                  (long)ArrowIpcFileReaderNumRecordBatches(reader));
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(IpcFileReaderEnsureDictionaries(private_data, error));
  return IpcFileReaderDecodeBlock(private_data, &blocks[i], NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH, out,
                     validation_level, NULL, error);
}

/* ---- Projection ---- */

ArrowErrorCode ArrowIpcFileReaderSetProjection(struct ArrowIpcFileReader* reader,
                                               const int64_t* field_indices, int64_t n,
                                               struct ArrowError* error) {
  struct IpcFileReaderPrivate* private_data;
  if (reader == NULL || reader->private_data == NULL) return EINVAL;
  private_data = (struct IpcFileReaderPrivate*)reader->private_data;
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcDecoderSetProjection(&private_data->decoder, field_indices, n, error));
  /* The dictionaries were dropped with the old schema: read them again. */
  private_data->n_dictionaries_read = 0;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcFileReaderSetProjectionByName(struct ArrowIpcFileReader* reader,
                                                     const char* const* names, int64_t n,
                                                     struct ArrowError* error) {
  struct IpcFileReaderPrivate* private_data;
  int64_t* indices;
  ArrowErrorCode result;
  if (reader == NULL || reader->private_data == NULL || n < 0) return EINVAL;
  private_data = (struct IpcFileReaderPrivate*)reader->private_data;
  indices = (int64_t*)ArrowMalloc((n > 0 ? n : 1) * (int64_t)sizeof(int64_t));
  if (indices == NULL) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  result = ArrowIpcPrivateResolveNames(&private_data->decoder.footer->schema, names, n,
                                       indices, error);
  if (result == NANOARROW_OK) {
    result = ArrowIpcFileReaderSetProjection(reader, n > 0 ? indices : NULL, n, error);
  }
  ArrowFree(indices);
  return result;
}

ArrowErrorCode ArrowIpcFileReaderSetCoalesceGap(struct ArrowIpcFileReader* reader,
                                                int64_t gap_bytes) {
  if (reader == NULL || reader->private_data == NULL || gap_bytes < 0) return EINVAL;
  ((struct IpcFileReaderPrivate*)reader->private_data)->coalesce_gap = gap_bytes;
  return NANOARROW_OK;
}

int64_t ArrowIpcFileReaderBytesRead(struct ArrowIpcFileReader* reader) {
  if (reader == NULL || reader->private_data == NULL) return 0;
  return ((struct IpcFileReaderPrivate*)reader->private_data)->bytes_read;
}

/* ---- ArrowArrayStream over a file ---- */

struct IpcFileReaderStreamPrivate {
  struct ArrowIpcFileReader reader;
  int64_t next_batch;
  enum ArrowValidationLevel validation_level;
  struct ArrowError error;
};

static int IpcFileReaderStreamGetSchema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct IpcFileReaderStreamPrivate* private_data = (struct IpcFileReaderStreamPrivate*)stream->private_data;
  return ArrowIpcFileReaderGetSchema(&private_data->reader, out, &private_data->error);
}

static int IpcFileReaderStreamGetNext(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct IpcFileReaderStreamPrivate* private_data = (struct IpcFileReaderStreamPrivate*)stream->private_data;
  if (private_data->next_batch >= ArrowIpcFileReaderNumRecordBatches(&private_data->reader)) {
    out->release = NULL;
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcFileReaderReadBatch(
      &private_data->reader, private_data->next_batch, out, private_data->validation_level,
      &private_data->error));
  private_data->next_batch++;
  return NANOARROW_OK;
}

static const char* IpcFileReaderStreamGetLastError(struct ArrowArrayStream* stream) {
  struct IpcFileReaderStreamPrivate* private_data = (struct IpcFileReaderStreamPrivate*)stream->private_data;
  return private_data->error.message;
}

static void IpcFileReaderStreamRelease(struct ArrowArrayStream* stream) {
  struct IpcFileReaderStreamPrivate* private_data = (struct IpcFileReaderStreamPrivate*)stream->private_data;
  ArrowIpcFileReaderReset(&private_data->reader);
  ArrowFree(private_data);
  stream->release = NULL;
}

ArrowErrorCode ArrowIpcFileReaderArrayStream(struct ArrowIpcFileReader* reader,
                                             struct ArrowArrayStream* out,
                                             enum ArrowValidationLevel validation_level,
                                             struct ArrowError* error) {
  struct IpcFileReaderStreamPrivate* private_data =
      (struct IpcFileReaderStreamPrivate*)ArrowMalloc(sizeof(struct IpcFileReaderStreamPrivate));
  if (private_data == NULL) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  private_data->reader = *reader;
  reader->private_data = NULL;
  private_data->next_batch = 0;
  private_data->validation_level = validation_level;
  private_data->error.message[0] = '\0';
  out->get_schema = &IpcFileReaderStreamGetSchema;
  out->get_next = &IpcFileReaderStreamGetNext;
  out->get_last_error = &IpcFileReaderStreamGetLastError;
  out->release = &IpcFileReaderStreamRelease;
  out->private_data = private_data;
  return NANOARROW_OK;
}
