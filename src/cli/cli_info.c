/* `nanoarrow info`: what an IPC stream or file holds, read message by message
 * with the public decoder (ArrowIpcDecoderPeekHeader / DecodeHeader / DecodeSchema
 * / DecodeDictionary / DecodeArrayView). The bytes each column takes as stored
 * come from the RecordBatch's Buffer entries, which the decoder does not expose:
 * those are read from the message with the IPC library's flatbuffer reader. */

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#include "cli/cli.h"
#include "cli/cli_tools.h"
#include "ipc/flatbuf_reader.h"

struct DictionaryStats {
  int64_t id;
  int64_t n_batches;
  int64_t n_deltas;
  int64_t n_values;
  int64_t stored_bytes;
};

struct Info {
  enum CliFormat format;
  int64_t n_bytes;
  struct ArrowSchema schema;
  int64_t n_batches;
  int64_t n_rows;
  /* Per top-level column; stored -1 when the message's buffers did not match. */
  int64_t* stored;
  int64_t* decoded;
  /* Bit per codec seen: 1 none, 2 lz4, 4 zstd. */
  int codecs;
  struct DictionaryStats* dictionaries;
  int64_t n_dictionaries;
  int has_marker;
  int64_t footer_batches;
  int64_t footer_dictionaries;
};

/* Buffers of one node in an IPC body (its layout's, and the variadic ones). */
static int64_t NodeBuffers(const struct ArrowArrayView* view) {
  int64_t n = view->n_variadic_buffers;
  int j;
  for (j = 0; j < NANOARROW_MAX_FIXED_BUFFERS; j++) {
    n += view->layout.buffer_type[j] != NANOARROW_BUFFER_TYPE_NONE;
  }
  return n;
}

/* Buffers (in body order) and decoded bytes of a column's tree. */
static void ColumnSizes(const struct ArrowArrayView* view, int depth, int64_t* n_buffers,
                        int64_t* decoded) {
  int64_t i;
  int j;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return;
  *n_buffers += NodeBuffers(view);
  for (j = 0; j < NANOARROW_MAX_FIXED_BUFFERS; j++) {
    if (view->layout.buffer_type[j] != NANOARROW_BUFFER_TYPE_NONE) {
      *decoded += view->buffer_views[j].size_bytes;
    }
  }
  for (i = 0; i < view->n_variadic_buffers; i++) *decoded += view->variadic_buffer_sizes[i];
  for (i = 0; i < view->n_children; i++) ColumnSizes(view->children[i], depth + 1, n_buffers, decoded);
}

/* The RecordBatch table of the message flatbuffer (fb, size): of the message
 * itself, or of a DictionaryBatch's data. 0 when it cannot be read. */
static int RecordBatchTable(const uint8_t* fb, int64_t size, struct ArrowIpcFbrTable* out) {
  struct ArrowIpcFbrTable message;
  struct ArrowIpcFbrTable header;
  int8_t header_type;
  if (size < 4 || ArrowIpcFbrTableInit(fb, size, ArrowIpcFbrLoadU32(fb), &message) != 0) return 0;
  header_type = (int8_t)ArrowIpcFbrGetScalar(&message, ARROW_IPC_FBR_MESSAGE_HEADER_TYPE, 0);
  if (!ArrowIpcFbrGetTable(&message, ARROW_IPC_FBR_MESSAGE_HEADER, &header)) return 0;
  if (header_type == 3) {
    *out = header;
    return 1;
  }
  return header_type == 2 &&
         ArrowIpcFbrGetTable(&header, ARROW_IPC_FBR_DICTIONARY_BATCH_DATA, out);
}

/* Stored bytes of buffers [first, first + n) of a RecordBatch (Buffer: offset,
 * length); -1 when the vector has fewer. */
static int64_t StoredBytes(const struct ArrowIpcFbrTable* batch, int64_t first, int64_t n) {
  struct ArrowIpcFbrVector buffers;
  int64_t total = 0;
  int64_t i;
  if (!ArrowIpcFbrGetVector(batch, ARROW_IPC_FBR_RECORD_BATCH_BUFFERS, &buffers) || first + n > buffers.n) return -1;
  for (i = first; i < first + n; i++) {
    total += ArrowIpcFbrLoadI64(buffers.data + buffers.pos + 16 * i + 8);
  }
  return total;
}

static int64_t BufferCount(const struct ArrowIpcFbrTable* batch) {
  struct ArrowIpcFbrVector buffers;
  return ArrowIpcFbrGetVector(batch, ARROW_IPC_FBR_RECORD_BATCH_BUFFERS, &buffers) ? buffers.n : -1;
}

static struct DictionaryStats* FindDictionary(struct Info* info, int64_t id) {
  int64_t i;
  struct DictionaryStats* grown;
  for (i = 0; i < info->n_dictionaries; i++) {
    if (info->dictionaries[i].id == id) return info->dictionaries + i;
  }
  grown = (struct DictionaryStats*)realloc(
      info->dictionaries, (size_t)(info->n_dictionaries + 1) * sizeof(struct DictionaryStats));
  if (grown == NULL) return NULL;
  info->dictionaries = grown;
  memset(grown + info->n_dictionaries, 0, sizeof(struct DictionaryStats));
  grown[info->n_dictionaries].id = id;
  return grown + info->n_dictionaries++;
}

static ArrowErrorCode OnRecordBatch(struct Info* info, struct ArrowIpcDecoder* decoder,
                                    const uint8_t* fb, int64_t fb_size,
                                    struct ArrowBufferView body, struct ArrowError* error) {
  struct ArrowArrayView* view;
  struct ArrowIpcFbrTable batch;
  int have_batch = RecordBatchTable(fb, fb_size, &batch);
  int64_t first = 0;
  int64_t c;
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderDecodeArrayView(decoder, body, -1, &view, error));
  info->n_batches++;
  info->n_rows += view->length;
  info->codecs |= decoder->codec == NANOARROW_IPC_COMPRESSION_TYPE_NONE ? 1
                  : decoder->codec == NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME ? 2 : 4;
  /* The batch's own (struct) node has no buffers in the body. */
  for (c = 0; c < view->n_children && c < info->schema.n_children; c++) {
    int64_t n_buffers = 0;
    int64_t decoded = 0;
    int64_t stored;
    ColumnSizes(view->children[c], 0, &n_buffers, &decoded);
    stored = have_batch ? StoredBytes(&batch, first, n_buffers) : -1;
    first += n_buffers;
    info->decoded[c] += decoded;
    if (stored < 0 || info->stored[c] < 0) {
      info->stored[c] = -1;
    } else {
      info->stored[c] += stored;
    }
  }
  if (!have_batch || BufferCount(&batch) != first) {
    for (c = 0; c < info->schema.n_children; c++) info->stored[c] = -1;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode Walk(struct Info* info, const struct ArrowBuffer* data,
                           struct ArrowError* error) {
  struct ArrowIpcDecoder decoder;
  int64_t offset = 0;
  int64_t end = data->size_bytes;
  int64_t n_messages = 0;
  int have_schema = 0;
  int rc = NANOARROW_OK;

  if (info->format == CLI_FORMAT_FILE) {
    struct ArrowIpcDecoder footer;
    struct ArrowBufferView view;
    view.data.as_uint8 = data->data;
    view.size_bytes = data->size_bytes;
    NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderInit(&footer));
    rc = ArrowIpcDecoderDecodeFooter(&footer, view, error);
    if (rc == NANOARROW_OK) {
      info->footer_batches = footer.footer->record_batch_blocks.size_bytes /
                             (int64_t)sizeof(struct ArrowIpcFileBlock);
      info->footer_dictionaries = footer.footer->dictionary_blocks.size_bytes /
                                  (int64_t)sizeof(struct ArrowIpcFileBlock);
      end = data->size_bytes - 10 - footer.header_size_bytes;
    }
    ArrowIpcDecoderReset(&footer);
    if (rc != NANOARROW_OK) {
      char message[sizeof(error->message)];
      snprintf(message, sizeof(message), "%s", error->message);
      ArrowErrorSet(error, "file footer: %s", message);
      return rc;
    }
    offset = 8;
  }

  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderInit(&decoder));
  while (offset < end) {
    struct ArrowBufferView view;
    struct ArrowBufferView body;
    int32_t prefix = 0;
    char message[sizeof(error->message)];
    view.data.as_uint8 = data->data + offset;
    view.size_bytes = end - offset;
    rc = ArrowIpcDecoderPeekHeader(&decoder, view, &prefix, error);
    if (rc == ENODATA) {
      info->has_marker = 1;
      rc = NANOARROW_OK;
      break;
    }
    if (rc == NANOARROW_OK) rc = ArrowIpcDecoderDecodeHeader(&decoder, view, error);
    if (rc == NANOARROW_OK && decoder.body_size_bytes > end - offset - decoder.header_size_bytes) {
      ArrowErrorSet(error, "body of %" PRId64 " bytes runs past the end of the data",
                    decoder.body_size_bytes);
      rc = EINVAL;
    }
    if (rc == NANOARROW_OK) {
      body.data.as_uint8 = view.data.as_uint8 + decoder.header_size_bytes;
      body.size_bytes = decoder.body_size_bytes;
      switch (decoder.message_type) {
        case NANOARROW_IPC_MESSAGE_TYPE_SCHEMA:
          if (have_schema) {
            ArrowErrorSet(error, "a second Schema message");
            rc = EINVAL;
            break;
          }
          rc = ArrowIpcDecoderDecodeSchema(&decoder, &info->schema, error);
          if (rc == NANOARROW_OK) rc = ArrowIpcDecoderSetSchema(&decoder, &info->schema, error);
          if (rc == NANOARROW_OK) {
            int64_t n = info->schema.n_children > 0 ? info->schema.n_children : 1;
            have_schema = 1;
            info->stored = (int64_t*)calloc((size_t)n, sizeof(int64_t));
            info->decoded = (int64_t*)calloc((size_t)n, sizeof(int64_t));
            if (info->stored == NULL || info->decoded == NULL) rc = ENOMEM;
          }
          break;
        case NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH: {
          struct DictionaryStats* stats;
          const struct ArrowArray* values;
          int64_t id;
          int is_delta;
          if (decoder.dictionary == NULL) {
            ArrowErrorSet(error, "a DictionaryBatch without its header");
            rc = EINVAL;
            break;
          }
          id = decoder.dictionary->id;
          is_delta = decoder.dictionary->is_delta;
          if (!have_schema) {
            ArrowErrorSet(error, "a DictionaryBatch before the Schema");
            rc = EINVAL;
            break;
          }
          rc = ArrowIpcDecoderDecodeDictionary(&decoder, body, NANOARROW_VALIDATION_LEVEL_DEFAULT,
                                               NULL, error);
          if (rc == NANOARROW_OK) rc = ArrowIpcDecoderGetDictionary(&decoder, id, &values, error);
          if (rc != NANOARROW_OK) break;
          stats = FindDictionary(info, id);
          if (stats == NULL) {
            rc = ENOMEM;
            break;
          }
          stats->n_batches++;
          stats->n_deltas += is_delta != 0;
          stats->n_values = values->length;
          stats->stored_bytes += decoder.body_size_bytes;
          break;
        }
        case NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH:
          if (!have_schema) {
            ArrowErrorSet(error, "a RecordBatch before the Schema");
            rc = EINVAL;
            break;
          }
          rc = OnRecordBatch(info, &decoder, view.data.as_uint8 + prefix,
                             decoder.header_size_bytes - prefix, body, error);
          break;
        default:
          ArrowErrorSet(error, "unexpected message type %d", (int)decoder.message_type);
          rc = EINVAL;
          break;
      }
    }
    if (rc != NANOARROW_OK) {
      snprintf(message, sizeof(message), "%s", rc == ENOMEM ? strerror(rc) : error->message);
      ArrowErrorSet(error, "message %" PRId64 " at byte %" PRId64 ": %s", n_messages, offset,
                    message);
      break;
    }
    offset += decoder.header_size_bytes + decoder.body_size_bytes;
    n_messages++;
  }
  ArrowIpcDecoderReset(&decoder);
  if (rc == NANOARROW_OK && !have_schema) {
    ArrowErrorSet(error, "no Schema message");
    rc = EINVAL;
  }
  return rc;
}

static const char* CodecText(int codecs) {
  switch (codecs) {
    case 0:
    case 1:
      return "none";
    case 2:
      return "lz4";
    case 4:
      return "zstd";
    default:
      return "mixed";
  }
}

static ArrowErrorCode Printf(struct ArrowBuffer* out, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static ArrowErrorCode Printf(struct ArrowBuffer* out, const char* format, ...) {
  char text[1024];
  va_list args;
  int n;
  va_start(args, format);
  n = vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  if (n < 0) return EINVAL;
  return ArrowBufferAppend(out, text, n < (int)sizeof(text) ? n : (int)sizeof(text) - 1);
}

static void TypeText(const struct ArrowSchema* schema, char* out, size_t size) {
  ArrowSchemaToString(schema, out, (int64_t)size, schema->dictionary != NULL);
}

static ArrowErrorCode WriteText(const struct Info* info, struct ArrowBuffer* out) {
  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  char type_text[256];
  int name_width = 4;
  int type_width = 4;
  int64_t c;
  /* Columns as wide as their longest name and type, 40 at most. */
  for (c = 0; c < info->schema.n_children; c++) {
    const char* name = info->schema.children[c]->name;
    int n = name != NULL ? (int)strlen(name) : 0;
    TypeText(info->schema.children[c], type_text, sizeof(type_text));
    if (n > name_width) name_width = n > 40 ? 40 : n;
    n = (int)strlen(type_text);
    if (n > type_width) type_width = n > 40 ? 40 : n;
  }
  NANOARROW_RETURN_NOT_OK(Printf(out, "format: %s (%" PRId64 " bytes)\n",
                                 info->format == CLI_FORMAT_FILE ? "file" : "stream",
                                 info->n_bytes));
  NANOARROW_RETURN_NOT_OK(Printf(
      out, "end-of-stream marker: %s\n",
      info->has_marker ? "yes"
      : info->format == CLI_FORMAT_FILE ? "no (optional before a file's footer)"
                                        : "no (the stream may be truncated)"));
  if (info->format == CLI_FORMAT_FILE) {
    NANOARROW_RETURN_NOT_OK(Printf(out, "footer: %" PRId64 " record batches, %" PRId64
                                   " dictionary batches\n",
                                   info->footer_batches, info->footer_dictionaries));
  }
  NANOARROW_RETURN_NOT_OK(Printf(out, "batches: %" PRId64 "\nrows: %" PRId64 "\n",
                                 info->n_batches, info->n_rows));
  NANOARROW_RETURN_NOT_OK(Printf(out, "compression: %s\n", CodecText(info->codecs)));
  NANOARROW_RETURN_NOT_OK(Printf(out, "columns: %" PRId64 "\n", info->schema.n_children));
  NANOARROW_RETURN_NOT_OK(Printf(out, "  %-*s  %-*s %12s %12s %6s\n", name_width, "name",
                                 type_width, "type", "stored", "decoded", "ratio"));
  for (c = 0; c < info->schema.n_children; c++) {
    const struct ArrowSchema* child = info->schema.children[c];
    char stored[32];
    char ratio[32];
    TypeText(child, type_text, sizeof(type_text));
    if (info->stored[c] < 0) {
      snprintf(stored, sizeof(stored), "?");
      snprintf(ratio, sizeof(ratio), "?");
    } else {
      snprintf(stored, sizeof(stored), "%" PRId64, info->stored[c]);
      if (info->stored[c] > 0) {
        snprintf(ratio, sizeof(ratio), "%.2f", (double)info->decoded[c] / (double)info->stored[c]);
      } else {
        snprintf(ratio, sizeof(ratio), "-");
      }
    }
    NANOARROW_RETURN_NOT_OK(Printf(out, "  %-*s  %-*s %12s %12" PRId64 " %6s\n", name_width,
                                   child->name != NULL ? child->name : "", type_width,
                                   type_text, stored, info->decoded[c], ratio));
  }
  NANOARROW_RETURN_NOT_OK(Printf(out, "dictionaries: %" PRId64 "\n", info->n_dictionaries));
  for (c = 0; c < info->n_dictionaries; c++) {
    const struct DictionaryStats* d = info->dictionaries + c;
    NANOARROW_RETURN_NOT_OK(Printf(out, "  id %" PRId64 ": %" PRId64 " batches (%" PRId64
                                   " deltas), %" PRId64 " values, %" PRId64 " bytes stored\n",
                                   d->id, d->n_batches, d->n_deltas, d->n_values,
                                   d->stored_bytes));
  }
  NANOARROW_RETURN_NOT_OK(Printf(out, "metadata:%s\n", info->schema.metadata == NULL ? " none" : ""));
  if (info->schema.metadata != NULL) {
    NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderInit(&reader, info->schema.metadata));
    while (reader.remaining_keys > 0) {
      NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderRead(&reader, &key, &value));
      NANOARROW_RETURN_NOT_OK(Printf(out, "  %.*s = %.*s\n", (int)(key.size_bytes > 200 ? 200 : key.size_bytes),
                                     key.data, (int)(value.size_bytes > 200 ? 200 : value.size_bytes),
                                     value.data));
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode WriteJson(const struct Info* info, struct ArrowBuffer* out) {
  json_t* root = json_object();
  json_t* columns = json_array();
  json_t* dictionaries = json_array();
  json_t* metadata = json_object();
  char type_text[256];
  char* text;
  int64_t c;
  ArrowErrorCode rc = NANOARROW_OK;

  json_object_set_new(root, "format",
                      json_string(info->format == CLI_FORMAT_FILE ? "file" : "stream"));
  json_object_set_new(root, "bytes", json_integer(info->n_bytes));
  json_object_set_new(root, "end_of_stream_marker", json_boolean(info->has_marker));
  json_object_set_new(root, "batches", json_integer(info->n_batches));
  json_object_set_new(root, "rows", json_integer(info->n_rows));
  json_object_set_new(root, "compression", json_string(CodecText(info->codecs)));
  for (c = 0; c < info->schema.n_children; c++) {
    const struct ArrowSchema* child = info->schema.children[c];
    json_t* column = json_object();
    TypeText(child, type_text, sizeof(type_text));
    json_object_set_new(column, "name", json_string(child->name != NULL ? child->name : ""));
    json_object_set_new(column, "type", json_string(type_text));
    json_object_set_new(column, "nullable", json_boolean(child->flags & ARROW_FLAG_NULLABLE));
    json_object_set_new(column, "stored_bytes",
                        info->stored[c] < 0 ? json_null() : json_integer(info->stored[c]));
    json_object_set_new(column, "decoded_bytes", json_integer(info->decoded[c]));
    json_object_set_new(column, "ratio",
                        info->stored[c] > 0
                            ? json_real((double)info->decoded[c] / (double)info->stored[c])
                            : json_null());
    json_array_append_new(columns, column);
  }
  json_object_set_new(root, "columns", columns);
  for (c = 0; c < info->n_dictionaries; c++) {
    const struct DictionaryStats* d = info->dictionaries + c;
    json_t* dictionary = json_object();
    json_object_set_new(dictionary, "id", json_integer(d->id));
    json_object_set_new(dictionary, "batches", json_integer(d->n_batches));
    json_object_set_new(dictionary, "deltas", json_integer(d->n_deltas));
    json_object_set_new(dictionary, "values", json_integer(d->n_values));
    json_object_set_new(dictionary, "stored_bytes", json_integer(d->stored_bytes));
    json_array_append_new(dictionaries, dictionary);
  }
  json_object_set_new(root, "dictionaries", dictionaries);
  if (info->schema.metadata != NULL) {
    struct ArrowMetadataReader reader;
    struct ArrowStringView key;
    struct ArrowStringView value;
    rc = ArrowMetadataReaderInit(&reader, info->schema.metadata);
    while (rc == NANOARROW_OK && reader.remaining_keys > 0) {
      char* key_text;
      rc = ArrowMetadataReaderRead(&reader, &key, &value);
      if (rc != NANOARROW_OK) break;
      key_text = (char*)malloc((size_t)key.size_bytes + 1);
      if (key_text == NULL) {
        rc = ENOMEM;
        break;
      }
      memcpy(key_text, key.data, (size_t)key.size_bytes);
      key_text[key.size_bytes] = '\0';
      /* Invalid UTF-8 would make the document invalid: such values are left out. */
      if (json_object_set_new(metadata, key_text, json_stringn(value.data, (size_t)value.size_bytes)) != 0) {
        json_object_set_new(metadata, key_text, json_null());
      }
      free(key_text);
    }
  }
  json_object_set_new(root, "metadata", metadata);
  if (info->format == CLI_FORMAT_FILE) {
    json_t* footer = json_object();
    json_object_set_new(footer, "record_batches", json_integer(info->footer_batches));
    json_object_set_new(footer, "dictionary_batches", json_integer(info->footer_dictionaries));
    json_object_set_new(root, "footer", footer);
  } else {
    json_object_set_new(root, "footer", json_null());
  }
  text = rc == NANOARROW_OK ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
  json_decref(root);
  if (rc != NANOARROW_OK) return rc;
  if (text == NULL) return ENOMEM;
  rc = ArrowBufferAppend(out, text, (int64_t)strlen(text));
  if (rc == NANOARROW_OK) rc = ArrowBufferAppend(out, "\n", 1);
  free(text);
  return rc;
}

ArrowErrorCode CliInfo(const struct ArrowBuffer* data, int json, struct ArrowBuffer* out,
                       struct ArrowError* error) {
  struct Info info;
  ArrowErrorCode rc;
  memset(&info, 0, sizeof(info));
  info.schema.release = NULL;
  info.n_bytes = data->size_bytes;
  info.format = CliDetectFormat(data);
  if (info.format == CLI_FORMAT_JSON) {
    ArrowErrorSet(error, "info reads IPC streams and files (this is integration JSON)");
    return EINVAL;
  }
  if (info.format == CLI_FORMAT_UNKNOWN) {
    ArrowErrorSet(error, "%s", CLI_NOT_ARROW_MESSAGE);
    return EINVAL;
  }
  rc = Walk(&info, data, error);
  if (rc == NANOARROW_OK) {
    rc = json ? WriteJson(&info, out) : WriteText(&info, out);
    if (rc != NANOARROW_OK) ArrowErrorSet(error, "%s", strerror(rc));
  }
  if (info.schema.release != NULL) ArrowSchemaRelease(&info.schema);
  free(info.stored);
  free(info.decoded);
  free(info.dictionaries);
  return rc;
}
