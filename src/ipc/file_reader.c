/* The IPC file format: "ARROW1" + padding, stream-format messages, the Footer,
 * int32 footer length, "ARROW1". Batches are read through the footer's blocks,
 * so batch i is decoded without reading the others. Init reads only the footer;
 * the dictionaries are decoded when the first batch is read, so that they obey
 * the decompressed-byte limit the caller sets after Init. */

#include <errno.h>
#include <stdio.h>
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
  ArrowErrorCode result =
      ArrowSchemaDeepCopy(&private_data->decoder.footer->schema, out);
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
