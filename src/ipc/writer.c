/* ArrowIpcWriter: the IPC stream and file formats over an ArrowIpcOutputStream.
 *
 * Each call encodes everything it will emit (dictionary batches, then the record
 * batch) into memory before writing a byte, so an array that fails validation or
 * encoding leaves the output untouched. A failed write poisons the writer: every
 * later call returns that error and no footer is written, so a truncated file
 * never ends with a footer that claims it is complete. */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#include "ipc/ipc_private.h"
#include "ipc/writer_private.h"

/* What the reader on the other side knows about one dictionary id. */
struct ArrowIpcWriterDictionary {
  int64_t id;
  /* How many values the reader holds (-1: none written yet). */
  int64_t length;
  /* The canonical value encoding of those values (ArrowIpcWriterAppendValue):
   * equal bytes mean equal values. */
  struct ArrowBuffer signature;
};

/* A dictionary batch planned for the record batch being written. */
struct ArrowIpcWriterDictionaryPlan {
  /* Index in ArrowIpcWriterPrivate.dictionaries (which may be reallocated). */
  int64_t state_index;
  const struct ArrowArrayView* values;
  int64_t start;
  char is_delta;
  /* The values the reader holds once the batch is written, and their encoding. */
  int64_t new_length;
  struct ArrowBuffer new_signature;
};

struct ArrowIpcWriterPrivate {
  struct ArrowIpcEncoder encoder;
  struct ArrowIpcOutputStream output_stream;
  /* Encapsulated metadata of what goes before the record batch body. */
  struct ArrowBuffer pending;
  struct ArrowBuffer header;
  struct ArrowBuffer body;
  int64_t bytes_written;
  /* Of the encoder (ArrowIpcWriterSetAlignment): bodies start at a multiple of it
   * counted from the start of the output. */
  int64_t alignment;
  int writing_file;
  int eos_written;
  int finalized;
  /* The first output stream error; non-zero poisons the writer. */
  ArrowErrorCode failure;
  /* A snapshot of the written schema (release == NULL until written) and a view
   * initialized from it, to check each batch's structure against. */
  struct ArrowSchema schema;
  struct ArrowArrayView schema_view;
  struct ArrowBuffer record_batch_blocks;
  struct ArrowBuffer dictionary_blocks;
  struct ArrowIpcWriterDictionary* dictionaries;
  int64_t n_dictionaries;
  int64_t dictionaries_capacity;
  /* Reused planning storage (struct ArrowIpcWriterDictionaryPlan). */
  struct ArrowBuffer plans;
  /* Dictionary blocks of pending, with offsets relative to its start. */
  struct ArrowBuffer pending_blocks;
  /* Non-zero when the schema's columns are all fixed-width without children or
   * dictionaries (ArrowIpcWriterSchemaIsFixedWidth): batches then skip dictionary
   * planning and may take the fast validation. */
  int fixed_width_schema;
};

static const uint8_t kArrowIpcMagic[8] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
static const uint8_t kArrowIpcEndOfStream[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};

NANOARROW_COLD
ArrowErrorCode ArrowIpcWriterInit(struct ArrowIpcWriter* writer,
                                  struct ArrowIpcOutputStream* output_stream) {
  struct ArrowIpcWriterPrivate* private_data;
  if (writer == NULL || output_stream == NULL || output_stream->release == NULL) {
    return EINVAL;
  }
  private_data =
      (struct ArrowIpcWriterPrivate*)ArrowMalloc(sizeof(struct ArrowIpcWriterPrivate));
  if (private_data == NULL) return ENOMEM;
  memset(private_data, 0, sizeof(*private_data));
  private_data->alignment = 8;

  if (ArrowIpcEncoderInit(&private_data->encoder) != NANOARROW_OK) {
    ArrowFree(private_data);
    return ENOMEM;
  }
  ArrowBufferInit(&private_data->pending);
  ArrowBufferInit(&private_data->header);
  ArrowBufferInit(&private_data->body);
  ArrowBufferInit(&private_data->record_batch_blocks);
  ArrowBufferInit(&private_data->dictionary_blocks);
  ArrowBufferInit(&private_data->plans);
  ArrowBufferInit(&private_data->pending_blocks);
  private_data->schema.release = NULL;
  ArrowIpcOutputStreamMove(output_stream, &private_data->output_stream);
  writer->private_data = private_data;
  return NANOARROW_OK;
}

NANOARROW_COLD
void ArrowIpcWriterReset(struct ArrowIpcWriter* writer) {
  struct ArrowIpcWriterPrivate* private_data =
      (struct ArrowIpcWriterPrivate*)writer->private_data;
  int64_t i;
  if (private_data == NULL) return;
  ArrowIpcEncoderReset(&private_data->encoder);
  if (private_data->output_stream.release != NULL) {
    private_data->output_stream.release(&private_data->output_stream);
  }
  ArrowBufferReset(&private_data->pending);
  ArrowBufferReset(&private_data->header);
  ArrowBufferReset(&private_data->body);
  ArrowBufferReset(&private_data->record_batch_blocks);
  ArrowBufferReset(&private_data->dictionary_blocks);
  ArrowBufferReset(&private_data->plans);
  ArrowBufferReset(&private_data->pending_blocks);
  if (private_data->schema.release != NULL) {
    ArrowArrayViewReset(&private_data->schema_view);
    private_data->schema.release(&private_data->schema);
  }
  for (i = 0; i < private_data->n_dictionaries; i++) {
    ArrowBufferReset(&private_data->dictionaries[i].signature);
  }
  ArrowFree(private_data->dictionaries);
  ArrowFree(private_data);
  writer->private_data = NULL;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcWriterSetCompression(struct ArrowIpcWriter* writer,
                                            enum ArrowIpcCompressionType compression_type,
                                            int compression_level,
                                            struct ArrowError* error) {
  struct ArrowIpcWriterPrivate* private_data =
      (struct ArrowIpcWriterPrivate*)writer->private_data;
  return ArrowIpcEncoderSetCompression(&private_data->encoder, compression_type,
                                       compression_level, error);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcWriterSetNumThreads(struct ArrowIpcWriter* writer, int n_threads,
                                           struct ArrowError* error) {
  struct ArrowIpcWriterPrivate* private_data =
      (struct ArrowIpcWriterPrivate*)writer->private_data;
  return ArrowIpcEncoderSetNumThreads(&private_data->encoder, n_threads, error);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcWriterSetAlignment(struct ArrowIpcWriter* writer,
                                          int64_t alignment, struct ArrowError* error) {
  struct ArrowIpcWriterPrivate* private_data =
      (struct ArrowIpcWriterPrivate*)writer->private_data;
  if (ArrowIpcEncoderSetAlignment(&private_data->encoder, alignment) != NANOARROW_OK) {
    ArrowErrorSet(error, "Alignment must be a power of two between 8 and 4096, got %" PRId64,
                  alignment);
    return EINVAL;
  }
  private_data->alignment = alignment;
  return NANOARROW_OK;
}

/* The encapsulated message that ends buffer (from message_start on), whose buffer
 * starts at absolute position buffer_position: its flatbuffer is zero-padded
 * further so that what follows it (its body) starts at a multiple of the alignment
 * counted from the start of the output (a file's 8 magic bytes put it off by 8). */
static ArrowErrorCode ArrowIpcWriterAlignMessage(struct ArrowIpcWriterPrivate* private_data,
                                                 struct ArrowBuffer* buffer,
                                                 int64_t message_start,
                                                 int64_t buffer_position) {
  int64_t extra = (-(buffer_position + buffer->size_bytes)) & (private_data->alignment - 1);
  int64_t length;
  if (extra == 0) return NANOARROW_OK;
  length = (int64_t)((uint32_t)buffer->data[message_start + 4] |
                     ((uint32_t)buffer->data[message_start + 5] << 8) |
                     ((uint32_t)buffer->data[message_start + 6] << 16) |
                     ((uint32_t)buffer->data[message_start + 7] << 24)) +
           extra;
  if (length > INT32_MAX) return ERANGE;
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(buffer, 0, extra));
  buffer->data[message_start + 4] = (uint8_t)length;
  buffer->data[message_start + 5] = (uint8_t)(length >> 8);
  buffer->data[message_start + 6] = (uint8_t)(length >> 16);
  buffer->data[message_start + 7] = (uint8_t)(length >> 24);
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowIpcWriterCheckUsable(struct ArrowIpcWriterPrivate* private_data,
                                                struct ArrowError* error) {
  if (private_data->failure != NANOARROW_OK) {
    ArrowErrorSet(error, "A previous write to the output stream failed (errno %d)",
                  private_data->failure);
    return private_data->failure;
  }
  if (private_data->finalized) {
    ArrowErrorSet(error, "The IPC file was already finalized");
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* Writes bytes to the output stream, poisoning the writer on failure. */
static ArrowErrorCode ArrowIpcWriterWriteBytes(struct ArrowIpcWriterPrivate* private_data,
                                               const void* data, int64_t size,
                                               struct ArrowError* error) {
  struct ArrowBufferView view;
  int result;
  if (size == 0) return NANOARROW_OK;
  view.data.data = data;
  view.size_bytes = size;
  result = ArrowIpcOutputStreamWrite(&private_data->output_stream, view, error);
  if (result != NANOARROW_OK) {
    private_data->failure = result;
    return result;
  }
  private_data->bytes_written += size;
  return NANOARROW_OK;
}

/* Writes bytes [from, to) of the staged record batch body. */
static ArrowErrorCode ArrowIpcWriterWriteStaged(struct ArrowIpcWriterPrivate* private_data,
                                                int64_t from, int64_t to,
                                                struct ArrowError* error) {
  if (to == from) return NANOARROW_OK;
  return ArrowIpcWriterWriteBytes(private_data, private_data->body.data + from, to - from,
                                  error);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcWriterStartFile(struct ArrowIpcWriter* writer,
                                       struct ArrowError* error) {
  struct ArrowIpcWriterPrivate* private_data =
      (struct ArrowIpcWriterPrivate*)writer->private_data;
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterCheckUsable(private_data, error));
  if (private_data->bytes_written != 0 || private_data->writing_file) {
    ArrowErrorSet(error, "ArrowIpcWriterStartFile() must be called before anything is "
                         "written");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcWriterWriteBytes(private_data, kArrowIpcMagic, sizeof(kArrowIpcMagic), error));
  private_data->writing_file = 1;
  return NANOARROW_OK;
}

/* ---- Fast validation of record batches of fixed-width columns ---- */

/* Non-zero when every column of the schema is fixed-width without children or
 * dictionary: batches of it can take ArrowIpcWriterValidateFixedWidth. */
static int ArrowIpcWriterSchemaIsFixedWidth(const struct ArrowArrayView* schema_view) {
  int64_t i;
  if (schema_view->storage_type != NANOARROW_TYPE_STRUCT ||
      schema_view->dictionary != NULL) {
    return 0;
  }
  for (i = 0; i < schema_view->n_children; i++) {
    const struct ArrowArrayView* column = schema_view->children[i];
    if (!ArrowIpcPrivateIsFixedWidthType(column->storage_type) || column->n_children != 0 ||
        column->dictionary != NULL) {
      return 0;
    }
  }
  return 1;
}

/* offset >= 0, length >= 0, null_count in [-1, length] and *end_out = offset +
 * length without overflow. */
static int ArrowIpcWriterLengthsValid(const struct ArrowArrayView* view,
                                      int64_t* end_out) {
  if (view->length < 0 || view->offset < 0 || view->offset > INT64_MAX - view->length ||
      view->null_count < -1 || view->null_count > view->length ||
      view->n_variadic_buffers != 0) {
    return 0;
  }
  *end_out = view->offset + view->length;
  return 1;
}

/* Non-zero when column (of a type ArrowIpcPrivateIsFixedWidthType accepts, like the
 * schema's expected) matches expected's structure and passes FULL validation. */
static int ArrowIpcWriterFixedColumnValid(const struct ArrowArrayView* expected,
                                          const struct ArrowArrayView* column,
                                          int64_t min_length) {
  const struct ArrowBufferView* validity = &column->buffer_views[0];
  const struct ArrowBufferView* data = &column->buffer_views[1];
  int64_t bits = column->layout.element_size_bits[1];
  int64_t end;
  int64_t required;

  if (column->storage_type != expected->storage_type ||
      bits != expected->layout.element_size_bits[1] ||
      column->layout.child_size_elements != expected->layout.child_size_elements ||
      column->n_children != 0 || column->dictionary != NULL ||
      column->layout.buffer_type[0] != NANOARROW_BUFFER_TYPE_VALIDITY ||
      column->layout.buffer_type[1] != NANOARROW_BUFFER_TYPE_DATA ||
      column->layout.buffer_type[2] != NANOARROW_BUFFER_TYPE_NONE ||
      column->length < min_length || !ArrowIpcWriterLengthsValid(column, &end)) {
    return 0;
  }

  if (validity->data.data == NULL) {
    if (column->null_count > 0) return 0;
  } else if (validity->size_bytes < end / 8 + (end % 8 != 0) ||
             (column->null_count != -1 &&
              ArrowArrayViewComputeNullCount(column) != column->null_count)) {
    return 0;
  }

  if (!ArrowIpcPrivateBytesForBits(end, bits, &required)) return 0;
  if (data->data.data == NULL) return required == 0;
  return data->size_bytes >= required;
}

/* Non-zero when the batch certainly passes the checks of ArrowIpcWriterValidate
 * (a schema of fixed-width columns only, see ArrowIpcWriterSchemaIsFixedWidth):
 * O(1) per column, plus counting nulls. Zero sends the batch to the general
 * checks, which also word the error. */
static int ArrowIpcWriterFixedWidthBatchValid(
    const struct ArrowIpcWriterPrivate* private_data, const struct ArrowArrayView* in) {
  const struct ArrowArrayView* schema_view = &private_data->schema_view;
  int64_t end;
  int64_t i;

  if (in->storage_type != NANOARROW_TYPE_STRUCT ||
      in->n_children != schema_view->n_children || in->dictionary != NULL ||
      (in->n_children > 0 && in->children == NULL) ||
      in->layout.buffer_type[0] != NANOARROW_BUFFER_TYPE_VALIDITY ||
      in->layout.buffer_type[1] != NANOARROW_BUFFER_TYPE_NONE ||
      in->layout.buffer_type[2] != NANOARROW_BUFFER_TYPE_NONE ||
      in->buffer_views[0].data.data != NULL || in->null_count > 0 ||
      !ArrowIpcWriterLengthsValid(in, &end)) {
    return 0;
  }
  for (i = 0; i < in->n_children; i++) {
    if (in->children[i] == NULL ||
        !ArrowIpcWriterFixedColumnValid(schema_view->children[i], in->children[i], end)) {
      return 0;
    }
  }
  return 1;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcWriterWriteSchema(struct ArrowIpcWriter* writer,
                                         const struct ArrowSchema* in,
                                         struct ArrowError* error) {
  struct ArrowIpcWriterPrivate* private_data =
      (struct ArrowIpcWriterPrivate*)writer->private_data;
  struct ArrowSchema snapshot;
  struct ArrowArrayView schema_view;
  int result;
  int64_t i;

  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterCheckUsable(private_data, error));
  /* A second schema starts a new stream (as in nanoarrow). A file has one schema, which
   * its footer gives for every batch: there only the same schema may come again. */
  if (private_data->schema.release != NULL && private_data->writing_file) {
    int equal = 0;
    struct ArrowError reason;
    reason.message[0] = '\0';
    NANOARROW_RETURN_NOT_OK(ArrowSchemaCompare(in, &private_data->schema,
                                               NANOARROW_COMPARE_IDENTICAL, &equal,
                                               &reason));
    if (!equal) {
      ArrowErrorSet(error,
                    "A file holds one schema; this schema differs from the one written "
                    "(%s)",
                    reason.message);
      return EINVAL;
    }
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcEncoderEncodeSchema(&private_data->encoder, in, error));
  private_data->header.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowIpcEncoderFinalizeBuffer(&private_data->encoder, 1, &private_data->header),
      error);
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowIpcWriterAlignMessage(private_data, &private_data->header, 0,
                                 private_data->bytes_written),
      error);
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowIpcPrivateSchemaSnapshot(in, &snapshot),
                                     error);
  result = ArrowArrayViewInitFromSchema(&schema_view, &snapshot, error);
  if (result != NANOARROW_OK) {
    ArrowSchemaRelease(&snapshot);
    return result;
  }

  if (private_data->schema.release != NULL) {
    ArrowArrayViewReset(&private_data->schema_view);
    private_data->schema.release(&private_data->schema);
    /* A new stream's reader knows no dictionaries: each is written again. A file's
     * dictionaries are already in it. */
    if (!private_data->writing_file) {
      for (i = 0; i < private_data->n_dictionaries; i++) {
        ArrowBufferReset(&private_data->dictionaries[i].signature);
      }
      private_data->n_dictionaries = 0;
    }
  }
  ArrowSchemaMove(&snapshot, &private_data->schema);
  private_data->schema_view = schema_view;
  private_data->fixed_width_schema =
      ArrowIpcWriterSchemaIsFixedWidth(&private_data->schema_view);
  private_data->eos_written = 0;
  return ArrowIpcWriterWriteBytes(private_data, private_data->header.data,
                                  private_data->header.size_bytes, error);
}

/* The name of top-level column i for messages. */
NANOARROW_COLD
static const char* ArrowIpcWriterColumnName(const struct ArrowIpcWriterPrivate* private_data,
                                            int64_t i) {
  if (private_data->schema.release != NULL && i < private_data->schema.n_children &&
      private_data->schema.children[i]->name != NULL) {
    return private_data->schema.children[i]->name;
  }
  return "";
}

/* The array's structure must match the schema the stream announced (expected is
 * an array view initialized from it, so no format string is parsed per batch). */
static ArrowErrorCode ArrowIpcWriterCheckStructure(const struct ArrowArrayView* expected,
                                                   const struct ArrowArrayView* view,
                                                   int depth, struct ArrowError* error) {
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "nested deeper than %d levels", NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (expected->storage_type != view->storage_type ||
      expected->layout.element_size_bits[1] != view->layout.element_size_bits[1] ||
      expected->layout.child_size_elements != view->layout.child_size_elements) {
    ArrowErrorSet(error, "storage type %s does not match the schema's %s",
                  ArrowTypeString(view->storage_type),
                  ArrowTypeString(expected->storage_type));
    return EINVAL;
  }
  if (expected->n_children != view->n_children) {
    ArrowErrorSet(error, "%" PRId64 " children where the schema has %" PRId64,
                  view->n_children, expected->n_children);
    return EINVAL;
  }
  if ((expected->dictionary == NULL) != (view->dictionary == NULL)) {
    ArrowErrorSet(error, "dictionary presence does not match the schema");
    return EINVAL;
  }
  for (i = 0; i < view->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowIpcWriterCheckStructure(
        expected->children[i], view->children[i], depth + 1, error));
  }
  if (expected->dictionary != NULL) {
    return ArrowIpcWriterCheckStructure(expected->dictionary, view->dictionary, depth + 1,
                                        error);
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowIpcWriterValidate(struct ArrowIpcWriterPrivate* private_data,
                                             const struct ArrowArrayView* in,
                                             struct ArrowError* error) {
  struct ArrowError local_error;
  int64_t i;
  int result;

  if (private_data->fixed_width_schema &&
      ArrowIpcWriterFixedWidthBatchValid(private_data, in)) {
    return NANOARROW_OK;
  }

  if (in->storage_type != NANOARROW_TYPE_STRUCT) {
    ArrowErrorSet(error, "Record batches must be struct arrays");
    return EINVAL;
  }
  if (private_data->schema.release != NULL &&
      in->n_children != private_data->schema.n_children) {
    ArrowErrorSet(error, "Record batch has %" PRId64 " columns but the schema has %" PRId64,
                  in->n_children, private_data->schema.n_children);
    return EINVAL;
  }
  if (private_data->schema.release != NULL) {
    for (i = 0; i < in->n_children; i++) {
      result = ArrowIpcWriterCheckStructure(private_data->schema_view.children[i],
                                            in->children[i], 0, &local_error);
      if (result != NANOARROW_OK) {
        ArrowErrorSet(error, "Column %" PRId64 " ('%s') does not match the schema: %s", i,
                      ArrowIpcWriterColumnName(private_data, i), local_error.message);
        return result;
      }
    }
  }

  /* Validation reads the view only; the API just is not const-qualified. */
  ArrowErrorInit(&local_error);
  result = ArrowArrayViewValidate((struct ArrowArrayView*)in,
                                  NANOARROW_VALIDATION_LEVEL_FULL, &local_error);
  if (result == NANOARROW_OK) {
    /* Before any dictionary of this batch is encoded or written. */
    return ArrowIpcEncoderPrivateCheckTopLevelNulls(in, error);
  }

  /* Only on failure: find the column to name it. */
  for (i = 0; i < in->n_children; i++) {
    result = ArrowArrayViewValidate((struct ArrowArrayView*)in->children[i],
                                    NANOARROW_VALIDATION_LEVEL_FULL, &local_error);
    if (result != NANOARROW_OK) {
      ArrowErrorSet(error, "Column %" PRId64 " ('%s') is invalid: %s", i,
                    ArrowIpcWriterColumnName(private_data, i), local_error.message);
      return result;
    }
  }
  result = ArrowArrayViewValidate((struct ArrowArrayView*)in,
                                  NANOARROW_VALIDATION_LEVEL_FULL, &local_error);
  ArrowErrorSet(error, "Invalid record batch: %s", local_error.message);
  return result != NANOARROW_OK ? result : EINVAL;
}

/* ---- Dictionaries ---- */

/* Appends a canonical encoding of the value of element i of view: equal values
 * give equal bytes whatever sits under nulls, where buffers start or how offsets
 * are based, and the encoding of elements [0, n) is a prefix of that of [0, m > n). */
static ArrowErrorCode ArrowIpcWriterAppendValue(struct ArrowBuffer* out,
                                                const struct ArrowArrayView* view,
                                                int64_t i, int depth);

NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterAppendValues(struct ArrowBuffer* out,
                                                 const struct ArrowArrayView* view,
                                                 int64_t start, int64_t end, int depth) {
  int64_t i;
  for (i = start; i < end; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowIpcWriterAppendValue(out, view, i, depth));
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterAppendLength(struct ArrowBuffer* out, int64_t length) {
  return ArrowBufferAppend(out, &length, sizeof(length));
}

NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterAppendValue(struct ArrowBuffer* out,
                                                const struct ArrowArrayView* view,
                                                int64_t i, int depth) {
  int64_t j = view->offset + i;
  int64_t start;
  int64_t end;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return EINVAL;
  if (ArrowArrayViewIsNull(view, i)) return ArrowBufferAppendUInt8(out, 0);
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, 1));

  if (view->dictionary != NULL) {
    int64_t index = ArrowArrayViewGetIntUnsafe(view, i);
    if (index < 0 || index >= view->dictionary->length) return EINVAL;
    return ArrowIpcWriterAppendValue(out, view->dictionary, index, depth + 1);
  }

  switch (view->storage_type) {
    case NANOARROW_TYPE_NA:
      return NANOARROW_OK;
    case NANOARROW_TYPE_BOOL:
      return ArrowBufferAppendUInt8(
          out, (uint8_t)ArrowBitGet(view->buffer_views[1].data.as_uint8, j));
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW: {
      struct ArrowBufferView bytes = ArrowArrayViewGetBytesUnsafe(view, i);
      NANOARROW_RETURN_NOT_OK(ArrowIpcWriterAppendLength(out, bytes.size_bytes));
      return ArrowBufferAppend(out, bytes.data.data, bytes.size_bytes);
    }
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      start = ArrowArrayViewListChildOffset(view, j);
      end = ArrowArrayViewListChildOffset(view, j + 1);
      NANOARROW_RETURN_NOT_OK(ArrowIpcWriterAppendLength(out, end - start));
      return ArrowIpcWriterAppendValues(out, view->children[0], start, end, depth + 1);
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      if (view->storage_type == NANOARROW_TYPE_LIST_VIEW) {
        start = view->buffer_views[1].data.as_int32[j];
        end = start + view->buffer_views[2].data.as_int32[j];
      } else {
        start = view->buffer_views[1].data.as_int64[j];
        end = start + view->buffer_views[2].data.as_int64[j];
      }
      NANOARROW_RETURN_NOT_OK(ArrowIpcWriterAppendLength(out, end - start));
      return ArrowIpcWriterAppendValues(out, view->children[0], start, end, depth + 1);
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      start = j * view->layout.child_size_elements;
      return ArrowIpcWriterAppendValues(out, view->children[0], start,
                                        start + view->layout.child_size_elements,
                                        depth + 1);
    case NANOARROW_TYPE_STRUCT: {
      int64_t k;
      for (k = 0; k < view->n_children; k++) {
        NANOARROW_RETURN_NOT_OK(
            ArrowIpcWriterAppendValue(out, view->children[k], j, depth + 1));
      }
      return NANOARROW_OK;
    }
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION: {
      int8_t type_id = ArrowArrayViewUnionTypeId(view, i);
      int8_t child = ArrowArrayViewUnionChildIndex(view, i);
      if (child < 0 || child >= view->n_children) return EINVAL;
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendInt8(out, type_id));
      return ArrowIpcWriterAppendValue(out, view->children[child],
                                       ArrowArrayViewUnionChildOffset(view, i), depth + 1);
    }
    case NANOARROW_TYPE_RUN_END_ENCODED: {
      /* The value of the first run ending after j. */
      int64_t lo = ArrowArrayViewPrivateRunIndex(view->children[0], j);
      if (lo >= view->children[1]->length) return EINVAL;
      return ArrowIpcWriterAppendValue(out, view->children[1], lo, depth + 1);
    }
    default: {
      /* Fixed width: primitives, decimals, intervals, temporal, fixed-size binary. */
      int64_t width = view->layout.element_size_bits[1] / 8;
      if (width <= 0) return ENOTSUP;
      return ArrowBufferAppend(out, view->buffer_views[1].data.as_uint8 + j * width,
                               width);
    }
  }
}

NANOARROW_COLD
static int64_t ArrowIpcWriterFindDictionary(const struct ArrowIpcWriterPrivate* private_data,
                                            int64_t id) {
  int64_t i;
  for (i = 0; i < private_data->n_dictionaries; i++) {
    if (private_data->dictionaries[i].id == id) return i;
  }
  return -1;
}

NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterAddDictionary(struct ArrowIpcWriterPrivate* private_data,
                                                  int64_t id) {
  struct ArrowIpcWriterDictionary* dictionary;
  if (private_data->n_dictionaries == private_data->dictionaries_capacity) {
    int64_t capacity = private_data->dictionaries_capacity * 2 + 4;
    struct ArrowIpcWriterDictionary* grown = (struct ArrowIpcWriterDictionary*)ArrowRealloc(
        private_data->dictionaries, capacity * (int64_t)sizeof(*grown));
    if (grown == NULL) return ENOMEM;
    private_data->dictionaries = grown;
    private_data->dictionaries_capacity = capacity;
  }
  dictionary = &private_data->dictionaries[private_data->n_dictionaries++];
  dictionary->id = id;
  dictionary->length = -1; /* never written */
  ArrowBufferInit(&dictionary->signature);
  return NANOARROW_OK;
}

NANOARROW_COLD
static struct ArrowIpcWriterDictionaryPlan* ArrowIpcWriterPlans(
    struct ArrowIpcWriterPrivate* private_data, int64_t* n_out) {
  *n_out = private_data->plans.size_bytes /
           (int64_t)sizeof(struct ArrowIpcWriterDictionaryPlan);
  return (struct ArrowIpcWriterDictionaryPlan*)private_data->plans.data;
}

NANOARROW_COLD
static void ArrowIpcWriterClearPlans(struct ArrowIpcWriterPrivate* private_data) {
  int64_t n_plans;
  struct ArrowIpcWriterDictionaryPlan* plans = ArrowIpcWriterPlans(private_data, &n_plans);
  int64_t i;
  for (i = 0; i < n_plans; i++) ArrowBufferReset(&plans[i].new_signature);
  private_data->plans.size_bytes = 0;
}

/* Decides what the reader needs for dictionary id holding values: nothing when
 * its values are unchanged, a delta when the known values are a prefix of them,
 * otherwise the whole dictionary. Values are compared, not bytes. */
NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterPlanDictionary(struct ArrowIpcWriterPrivate* private_data,
                                                   int64_t id,
                                                   const struct ArrowArrayView* values,
                                                   int64_t column,
                                                   struct ArrowError* error) {
  struct ArrowIpcWriterDictionaryPlan plan;
  const struct ArrowIpcWriterDictionary* state;
  int64_t n_plans;
  int64_t i;
  int unchanged_prefix = 0;
  int result;
  struct ArrowIpcWriterDictionaryPlan* plans = ArrowIpcWriterPlans(private_data, &n_plans);

  /* A dictionary id is planned at most once per record batch. */
  for (i = 0; i < n_plans; i++) {
    if (private_data->dictionaries[plans[i].state_index].id == id) return NANOARROW_OK;
  }
  memset(&plan, 0, sizeof(plan));
  plan.state_index = ArrowIpcWriterFindDictionary(private_data, id);
  if (plan.state_index < 0) {
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowIpcWriterAddDictionary(private_data, id), error);
    plan.state_index = private_data->n_dictionaries - 1;
  }
  state = &private_data->dictionaries[plan.state_index];
  plan.values = values;
  ArrowBufferInit(&plan.new_signature);

  if (state->length >= 0 && values->length >= state->length) {
    result = ArrowIpcWriterAppendValues(&plan.new_signature, values, 0, state->length, 0);
    unchanged_prefix = result == NANOARROW_OK &&
                       plan.new_signature.size_bytes == state->signature.size_bytes &&
                       memcmp(plan.new_signature.data, state->signature.data,
                              (size_t)state->signature.size_bytes) == 0;
    if (result == NANOARROW_OK) {
      result = ArrowIpcWriterAppendValues(&plan.new_signature, values, state->length,
                                          values->length, 0);
    }
  } else {
    result = ArrowIpcWriterAppendValues(&plan.new_signature, values, 0, values->length, 0);
  }
  if (result != NANOARROW_OK) {
    ArrowBufferReset(&plan.new_signature);
    ArrowErrorSet(error, "Column %" PRId64 " ('%s'): cannot compare dictionary %" PRId64
                         " with the one written before (errno %d)",
                  column, ArrowIpcWriterColumnName(private_data, column), id, result);
    return result;
  }

  if (state->length >= 0) {
    if (unchanged_prefix && values->length == state->length) {
      ArrowBufferReset(&plan.new_signature);
      return NANOARROW_OK;
    } else if (unchanged_prefix) {
      plan.is_delta = 1;
      plan.start = state->length;
    } else if (private_data->writing_file) {
      ArrowBufferReset(&plan.new_signature);
      ArrowErrorSet(error, "Column %" PRId64 " ('%s'): dictionary %" PRId64
                           " changed, and the IPC file format allows only deltas",
                    column, ArrowIpcWriterColumnName(private_data, column), id);
      return EINVAL;
    }
  }

  plan.new_length = values->length;
  if (ArrowBufferAppend(&private_data->plans, &plan, sizeof(plan)) != NANOARROW_OK) {
    ArrowBufferReset(&plan.new_signature);
    ArrowErrorSet(error, "Out of memory planning dictionaries");
    return ENOMEM;
  }
  return NANOARROW_OK;
}

/* Walks view in the pre-order ArrowIpcEncoderEncodeSchema numbers dictionaries in,
 * planning inner dictionaries before the dictionary whose values use them. */
static ArrowErrorCode ArrowIpcWriterPlanDictionaries(
    struct ArrowIpcWriterPrivate* private_data, const struct ArrowArrayView* view,
    int64_t* next_id, int64_t column, int depth, struct ArrowError* error) {
  const struct ArrowArrayView* value_view = view;
  int64_t id = -1;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "Array is nested deeper than %d levels", NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (view->dictionary != NULL) {
    id = (*next_id)++;
    value_view = view->dictionary;
  }
  for (i = 0; i < value_view->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowIpcWriterPlanDictionaries(
        private_data, value_view->children[i], next_id, column, depth + 1, error));
  }
  if (id >= 0) {
    return ArrowIpcWriterPlanDictionary(private_data, id, view->dictionary, column, error);
  }
  return NANOARROW_OK;
}

/* Encodes every planned dictionary batch into pending (with its blocks). */
NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterEncodeDictionaries(
    struct ArrowIpcWriterPrivate* private_data, struct ArrowError* error) {
  int64_t n_plans;
  struct ArrowIpcWriterDictionaryPlan* plans = ArrowIpcWriterPlans(private_data, &n_plans);
  int64_t i;
  for (i = 0; i < n_plans; i++) {
    struct ArrowArrayView slice = *plans[i].values;
    struct ArrowIpcFileBlock block;
    slice.offset += plans[i].start;
    slice.length -= plans[i].start;
    slice.null_count = plans[i].start == 0 ? slice.null_count : -1;
    private_data->body.size_bytes = 0;
    NANOARROW_RETURN_NOT_OK(ArrowIpcEncoderEncodeSimpleDictionaryBatch(
        &private_data->encoder, private_data->dictionaries[plans[i].state_index].id,
        plans[i].is_delta, &slice, &private_data->body, error));
    block.offset = private_data->pending.size_bytes;
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(
        ArrowIpcEncoderFinalizeBuffer(&private_data->encoder, 1, &private_data->pending),
        error);
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(
        ArrowIpcWriterAlignMessage(private_data, &private_data->pending, block.offset,
                                   private_data->bytes_written),
        error);
    block.metadata_length = (int32_t)(private_data->pending.size_bytes - block.offset);
    block.body_length = private_data->body.size_bytes;
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(
        ArrowBufferAppend(&private_data->pending, private_data->body.data,
                          private_data->body.size_bytes),
        error);
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(
        ArrowBufferAppend(&private_data->pending_blocks, &block, sizeof(block)), error);
  }
  return NANOARROW_OK;
}

/* After the bytes are out: the reader now knows the planned dictionaries. */
NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterCommitDictionaries(
    struct ArrowIpcWriterPrivate* private_data, int64_t pending_start,
    struct ArrowError* error) {
  int64_t n_plans;
  struct ArrowIpcWriterDictionaryPlan* plans = ArrowIpcWriterPlans(private_data, &n_plans);
  const struct ArrowIpcFileBlock* blocks =
      (const struct ArrowIpcFileBlock*)private_data->pending_blocks.data;
  int64_t i;
  for (i = 0; i < n_plans; i++) {
    struct ArrowIpcWriterDictionary* state =
        &private_data->dictionaries[plans[i].state_index];
    struct ArrowIpcFileBlock block = blocks[i];
    ArrowBufferReset(&state->signature);
    ArrowBufferMove(&plans[i].new_signature, &state->signature);
    state->length = plans[i].new_length;
    block.offset += pending_start;
    if (private_data->writing_file) {
      NANOARROW_RETURN_NOT_OK_WITH_ERROR(
          ArrowBufferAppend(&private_data->dictionary_blocks, &block, sizeof(block)), error);
    }
  }
  return NANOARROW_OK;
}

/* ---- Record batches ---- */

NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterWriteEndOfStream(
    struct ArrowIpcWriterPrivate* private_data, struct ArrowError* error) {
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterWriteBytes(private_data, kArrowIpcEndOfStream,
                                                   sizeof(kArrowIpcEndOfStream), error));
  private_data->eos_written = 1;
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowIpcWriterWriteBatch(struct ArrowIpcWriterPrivate* private_data,
                                               const struct ArrowArrayView* in,
                                               struct ArrowError* error) {
  struct ArrowIpcFileBlock block;
  const struct ArrowIpcBodySpan* spans;
  int64_t n_spans;
  int64_t body_length;
  int64_t staged_written = 0;
  int64_t next_id = 0;
  int64_t pending_start;
  int64_t i;
  int result;

  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterValidate(private_data, in, error));

  private_data->pending.size_bytes = 0;
  private_data->pending_blocks.size_bytes = 0;
  if (!private_data->fixed_width_schema) {
    for (i = 0; i < in->n_children; i++) {
      NANOARROW_RETURN_NOT_OK(ArrowIpcWriterPlanDictionaries(
          private_data, in->children[i], &next_id, i, 0, error));
    }
    NANOARROW_RETURN_NOT_OK(ArrowIpcWriterEncodeDictionaries(private_data, error));
  }

  /* The record batch body is deferred: large buffers go from the caller's arrays
   * straight to the output stream. */
  private_data->body.size_bytes = 0;
  ArrowIpcEncoderPrivateSetDeferBody(&private_data->encoder, 1);
  result = ArrowIpcEncoderEncodeSimpleRecordBatch(&private_data->encoder, in,
                                                  &private_data->body, error);
  ArrowIpcEncoderPrivateSetDeferBody(&private_data->encoder, 0);
  NANOARROW_RETURN_NOT_OK(result);
  spans = ArrowIpcEncoderPrivateBodySpans(&private_data->encoder, &n_spans, &body_length);
  private_data->header.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowIpcEncoderFinalizeBuffer(&private_data->encoder, 1, &private_data->header), error);
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowIpcWriterAlignMessage(private_data, &private_data->header, 0,
                                 private_data->bytes_written +
                                     private_data->pending.size_bytes),
      error);
  block.metadata_length = (int32_t)private_data->header.size_bytes;
  block.body_length = body_length;
  if (n_spans == 0 && private_data->body.size_bytes <= NANOARROW_IPC_DEFER_MIN_BYTES * 64) {
    /* A small body goes out with its metadata in one write. */
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(
        ArrowBufferAppend(&private_data->header, private_data->body.data,
                          private_data->body.size_bytes),
        error);
    private_data->body.size_bytes = 0;
  }

  /* Everything is encoded: only now does a byte go out. */
  pending_start = private_data->bytes_written;
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterWriteBytes(private_data, private_data->pending.data,
                                                   private_data->pending.size_bytes, error));
  block.offset = private_data->bytes_written;
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterWriteBytes(private_data, private_data->header.data,
                                                   private_data->header.size_bytes, error));
  for (i = 0; i < n_spans; i++) {
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcWriterWriteStaged(private_data, staged_written, spans[i].staged_end, error));
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcWriterWriteBytes(private_data, spans[i].data, spans[i].size_bytes, error));
    staged_written = spans[i].staged_end;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterWriteStaged(private_data, staged_written,
                                                    private_data->body.size_bytes, error));

  /* Tested here: the plan count is a division that the cold (size-optimized)
   * helpers would make a slow idiv on every batch. */
  if (private_data->plans.size_bytes > 0) {
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcWriterCommitDictionaries(private_data, pending_start, error));
  }
  if (private_data->writing_file) {
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(
        ArrowBufferAppend(&private_data->record_batch_blocks, &block, sizeof(block)), error);
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcWriterWriteArrayView(struct ArrowIpcWriter* writer,
                                            const struct ArrowArrayView* in,
                                            struct ArrowError* error) {
  struct ArrowIpcWriterPrivate* private_data =
      (struct ArrowIpcWriterPrivate*)writer->private_data;
  int result;

  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterCheckUsable(private_data, error));
  if (private_data->eos_written) {
    ArrowErrorSet(error, "The end-of-stream marker was already written");
    return EINVAL;
  }
  if (in == NULL) return ArrowIpcWriterWriteEndOfStream(private_data, error);

  result = ArrowIpcWriterWriteBatch(private_data, in, error);
  if (private_data->plans.size_bytes > 0) ArrowIpcWriterClearPlans(private_data);
  return result;
}

/* The view (in the schema's view) whose dictionary has id, numbering as
 * ArrowIpcWriterPlanDictionaries does; NULL when there is none. */
NANOARROW_COLD
static const struct ArrowArrayView* ArrowIpcWriterFindDictionaryField(
    const struct ArrowArrayView* view, int64_t id, int64_t* next_id, int depth) {
  const struct ArrowArrayView* value_view = view;
  const struct ArrowArrayView* found;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return NULL;
  if (view->dictionary != NULL) {
    if ((*next_id)++ == id) return view;
    value_view = view->dictionary;
  }
  for (i = 0; i < value_view->n_children; i++) {
    found = ArrowIpcWriterFindDictionaryField(value_view->children[i], id, next_id,
                                              depth + 1);
    if (found != NULL) return found;
  }
  return NULL;
}

/* Plans the dictionary batch the caller asked for, as ArrowIpcWriterPlanDictionary
 * plans those a record batch needs. */
NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterPlanCallerDictionary(
    struct ArrowIpcWriterPrivate* private_data, int64_t id, char is_delta,
    const struct ArrowArrayView* values, struct ArrowError* error) {
  struct ArrowIpcWriterDictionaryPlan plan;
  const struct ArrowIpcWriterDictionary* state;
  int result;

  memset(&plan, 0, sizeof(plan));
  plan.state_index = ArrowIpcWriterFindDictionary(private_data, id);
  state = plan.state_index >= 0 ? &private_data->dictionaries[plan.state_index] : NULL;
  if (is_delta && (state == NULL || state->length < 0)) {
    ArrowErrorSet(error, "Dictionary %" PRId64 " has not been written: a delta needs the "
                         "values it extends", id);
    return EINVAL;
  }
  if (!is_delta && state != NULL && state->length >= 0 && private_data->writing_file) {
    ArrowErrorSet(error, "Dictionary %" PRId64 " was already written, and the IPC file "
                         "format allows only deltas", id);
    return EINVAL;
  }
  if (plan.state_index < 0) {
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowIpcWriterAddDictionary(private_data, id), error);
    plan.state_index = private_data->n_dictionaries - 1;
    state = &private_data->dictionaries[plan.state_index];
  }

  plan.values = values;
  plan.start = 0;
  plan.is_delta = is_delta;
  plan.new_length = is_delta ? state->length + values->length : values->length;
  ArrowBufferInit(&plan.new_signature);
  result = NANOARROW_OK;
  if (is_delta) {
    result = ArrowBufferAppend(&plan.new_signature, state->signature.data,
                               state->signature.size_bytes);
  }
  if (result == NANOARROW_OK) {
    result = ArrowIpcWriterAppendValues(&plan.new_signature, values, 0, values->length, 0);
  }
  if (result == NANOARROW_OK) {
    result = ArrowBufferAppend(&private_data->plans, &plan, sizeof(plan));
  }
  if (result != NANOARROW_OK) {
    ArrowBufferReset(&plan.new_signature);
    ArrowErrorSet(error, "Out of memory recording dictionary %" PRId64, id);
    return result;
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
static ArrowErrorCode ArrowIpcWriterWriteCallerDictionary(
    struct ArrowIpcWriterPrivate* private_data, int64_t dictionary_id, char is_delta,
    const struct ArrowArrayView* values_view, struct ArrowError* error) {
  const struct ArrowArrayView* field;
  struct ArrowError local_error;
  int64_t next_id = 0;
  int64_t pending_start;
  int64_t i;
  int result;

  if (private_data->schema.release == NULL) {
    ArrowErrorSet(error, "Write the schema before dictionary batches");
    return EINVAL;
  }
  field = NULL;
  for (i = 0; i < private_data->schema_view.n_children && field == NULL; i++) {
    field = ArrowIpcWriterFindDictionaryField(private_data->schema_view.children[i],
                                              dictionary_id, &next_id, 0);
  }
  if (field == NULL) {
    ArrowErrorSet(error, "Dictionary id %" PRId64 " is not in the schema (which has %" PRId64
                         " dictionary-encoded fields)", dictionary_id, next_id);
    return EINVAL;
  }
  result = ArrowIpcWriterCheckStructure(field->dictionary, values_view, 0, &local_error);
  if (result != NANOARROW_OK) {
    ArrowErrorSet(error, "Values of dictionary %" PRId64 " do not match the schema: %s",
                  dictionary_id, local_error.message);
    return result;
  }
  ArrowErrorInit(&local_error);
  result = ArrowArrayViewValidate((struct ArrowArrayView*)values_view,
                                  NANOARROW_VALIDATION_LEVEL_FULL, &local_error);
  if (result != NANOARROW_OK) {
    ArrowErrorSet(error, "Values of dictionary %" PRId64 " are invalid: %s", dictionary_id,
                  local_error.message);
    return result;
  }

  /* The same path as the dictionaries of a record batch: plan, encode, write,
   * then commit what the reader holds (and the file's dictionary block). */
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterPlanCallerDictionary(private_data, dictionary_id,
                                                             is_delta, values_view, error));
  private_data->pending.size_bytes = 0;
  private_data->pending_blocks.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterEncodeDictionaries(private_data, error));
  pending_start = private_data->bytes_written;
  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterWriteBytes(private_data, private_data->pending.data,
                                                   private_data->pending.size_bytes, error));
  return ArrowIpcWriterCommitDictionaries(private_data, pending_start, error);
}

ArrowErrorCode ArrowIpcWriterWriteDictionaryBatch(struct ArrowIpcWriter* writer,
                                                  int64_t dictionary_id, char is_delta,
                                                  const struct ArrowArrayView* values_view,
                                                  struct ArrowError* error) {
  struct ArrowIpcWriterPrivate* private_data =
      (struct ArrowIpcWriterPrivate*)writer->private_data;
  int result;

  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterCheckUsable(private_data, error));
  if (private_data->eos_written) {
    ArrowErrorSet(error, "The end-of-stream marker was already written");
    return EINVAL;
  }
  if (values_view == NULL) {
    ArrowErrorSet(error, "No dictionary values given");
    return EINVAL;
  }
  result = ArrowIpcWriterWriteCallerDictionary(private_data, dictionary_id, is_delta,
                                               values_view, error);
  if (private_data->plans.size_bytes > 0) ArrowIpcWriterClearPlans(private_data);
  return result;
}

ArrowErrorCode ArrowIpcWriterWriteArrayStream(struct ArrowIpcWriter* writer,
                                              struct ArrowArrayStream* in,
                                              struct ArrowError* error) {
  struct ArrowSchema schema;
  struct ArrowArrayView array_view;
  struct ArrowArray array;
  int result;

  NANOARROW_RETURN_NOT_OK(ArrowArrayStreamGetSchema(in, &schema, error));
  result = ArrowIpcWriterWriteSchema(writer, &schema, error);
  if (result == NANOARROW_OK) {
    result = ArrowArrayViewInitFromSchema(&array_view, &schema, error);
    if (result == NANOARROW_OK) {
      for (;;) {
        result = ArrowArrayStreamGetNext(in, &array, error);
        if (result != NANOARROW_OK || array.release == NULL) break;
        result = ArrowArrayViewSetArray(&array_view, &array, error);
        if (result == NANOARROW_OK) {
          result = ArrowIpcWriterWriteArrayView(writer, &array_view, error);
        }
        ArrowArrayRelease(&array);
        if (result != NANOARROW_OK) break;
      }
      ArrowArrayViewReset(&array_view);
    }
  }
  schema.release(&schema);
  NANOARROW_RETURN_NOT_OK(result);
  return ArrowIpcWriterWriteArrayView(writer, NULL, error);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcWriterFinalizeFile(struct ArrowIpcWriter* writer,
                                          struct ArrowError* error) {
  struct ArrowIpcWriterPrivate* private_data =
      (struct ArrowIpcWriterPrivate*)writer->private_data;
  struct ArrowIpcFooter footer;
  int64_t footer_start;
  int64_t footer_size;
  uint8_t footer_size_le[4];
  int i;

  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterCheckUsable(private_data, error));
  if (!private_data->writing_file) {
    ArrowErrorSet(error, "ArrowIpcWriterStartFile() was not called");
    return EINVAL;
  }
  if (private_data->schema.release == NULL) {
    ArrowErrorSet(error, "No schema was written");
    return EINVAL;
  }

  /* Borrowed for encoding only: nothing of footer is released here. */
  footer.schema = private_data->schema;
  footer.record_batch_blocks = private_data->record_batch_blocks;
  footer.dictionary_blocks = private_data->dictionary_blocks;
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcEncoderEncodeFooter(&private_data->encoder, &footer, error));

  /* Footer, its length and the closing magic go out in one write. */
  private_data->header.size_bytes = 0;
  if (!private_data->eos_written) {
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(
        ArrowBufferAppend(&private_data->header, kArrowIpcEndOfStream,
                          sizeof(kArrowIpcEndOfStream)),
        error);
  }
  footer_start = private_data->header.size_bytes;
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowIpcEncoderFinalizeBuffer(&private_data->encoder, 0, &private_data->header),
      error);
  footer_size = private_data->header.size_bytes - footer_start;
  if (footer_size > INT32_MAX) {
    ArrowErrorSet(error, "Footer exceeds 2 GiB");
    return ERANGE;
  }
  for (i = 0; i < 4; i++) footer_size_le[i] = (uint8_t)(footer_size >> (8 * i));
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowBufferAppend(&private_data->header, footer_size_le, 4), error);
  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowBufferAppend(&private_data->header, kArrowIpcMagic, 6), error);

  NANOARROW_RETURN_NOT_OK(ArrowIpcWriterWriteBytes(private_data, private_data->header.data,
                                                   private_data->header.size_bytes, error));
  private_data->eos_written = 1;
  private_data->finalized = 1;
  return NANOARROW_OK;
}
