/* ArrowIpcDecoder: message framing, header decoding, schemas, dictionaries and
 * footers. Record batch bodies are decoded in batch_decode.c. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

ArrowErrorCode ArrowIpcCheckRuntime(struct ArrowError* error) {
  /* Flatbuffers are read byte by byte, so any host endianness works; this only
   * checks that the 32/64-bit integer types behave as the format requires. */
  if (sizeof(int64_t) != 8 || sizeof(int32_t) != 4) {
    ArrowErrorSet(error, "unsupported integer sizes");
    return EINVAL;
  }
  return NANOARROW_OK;
}

static struct ArrowIpcDecoderPrivate* DecoderPrivate(struct ArrowIpcDecoder* decoder) {
  return (struct ArrowIpcDecoderPrivate*)decoder->private_data;
}

/* ---- Column trees ---- */

static void TreeInitEmpty(struct ArrowIpcTree* tree) {
  memset(tree, 0, sizeof(*tree));
  tree->schema.release = NULL;
  ArrowArrayViewInitFromType(&tree->view, NANOARROW_TYPE_UNINITIALIZED);
}

void ArrowIpcPrivateTreeReset(struct ArrowIpcTree* tree) {
  int64_t i;
  for (i = 0; i < tree->n_fields; i++) {
    /* The variadic arrays are ours: detach them before the view is reset. */
    if (tree->fields[i].view != NULL) {
      tree->fields[i].view->n_variadic_buffers = 0;
      tree->fields[i].view->variadic_buffers = NULL;
      tree->fields[i].view->variadic_buffer_sizes = NULL;
    }
    ArrowFree((void*)tree->fields[i].variadic_buffers);
    ArrowFree(tree->fields[i].variadic_sizes);
  }
  ArrowFree(tree->fields);
  ArrowArrayViewReset(&tree->view);
  if (tree->schema.release != NULL) ArrowSchemaRelease(&tree->schema);
  TreeInitEmpty(tree);
}

/* Dictionary ids in schema pre-order, as given by the last Schema message. */
struct IdList {
  const int64_t* ids;
  int64_t n_ids;
  int64_t next;
};

static ArrowErrorCode TreeInitWithIds(struct ArrowIpcDecoderPrivate* private_data,
                                      struct ArrowIpcTree* tree,
                                      const struct ArrowSchema* schema,
                                      struct IdList* ids, int64_t* n_encodings,
                                      struct ArrowError* error);

static int64_t CountNodes(const struct ArrowArrayView* view) {
  int64_t n = 1;
  int64_t i;
  for (i = 0; i < view->n_children; i++) n += CountNodes(view->children[i]);
  return n;
}

static ArrowErrorCode RegisterDictionary(struct ArrowIpcDecoderPrivate* private_data,
                                         const struct ArrowSchema* field, struct IdList* ids,
                                         int64_t* n_encodings, int64_t* index_out,
                                         struct ArrowError* error);

/* Fills tree->fields in pre-order from the view and schema trees. */
static ArrowErrorCode FlattenFields(struct ArrowIpcDecoderPrivate* private_data,
                                    struct ArrowIpcTree* tree, struct ArrowArrayView* view,
                                    const struct ArrowSchema* schema, int64_t* k,
                                    struct IdList* ids, int64_t* n_encodings, int depth,
                                    struct ArrowError* error) {
  int64_t i;
  struct ArrowIpcField* field = &tree->fields[*k];
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "schema nested deeper than %d", NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  (*k)++;
  field->view = view;
  field->dictionary_index = -1;
  if (view->storage_type == NANOARROW_TYPE_BINARY_VIEW ||
      view->storage_type == NANOARROW_TYPE_STRING_VIEW) {
    tree->n_variadic_fields++;
  }
  if (schema->dictionary != NULL) {
    if (view->dictionary == NULL) {
      ArrowErrorSet(error, "dictionary-encoded field has no dictionary view");
      return EINVAL;
    }
    NANOARROW_RETURN_NOT_OK(RegisterDictionary(private_data, schema, ids, n_encodings,
                                               &field->dictionary_index, error));
  }
  if (view->n_children != schema->n_children) {
    ArrowErrorSet(error, "schema and view disagree on the number of children");
    return EINVAL;
  }
  for (i = 0; i < view->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(FlattenFields(private_data, tree, view->children[i],
                                          schema->children[i], k, ids, n_encodings,
                                          depth + 1, error));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode TreeInitWithIds(struct ArrowIpcDecoderPrivate* private_data,
                                      struct ArrowIpcTree* tree,
                                      const struct ArrowSchema* schema,
                                      struct IdList* ids, int64_t* n_encodings,
                                      struct ArrowError* error) {
  int64_t i;
  int64_t k = 0;
  TreeInitEmpty(tree);
  if (schema->format == NULL || strcmp(schema->format, "+s") != 0) {
    ArrowErrorSet(error, "expected a struct schema (format '+s')");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaDeepCopy(schema, &tree->schema));
  NANOARROW_RETURN_NOT_OK(ArrowArrayViewInitFromSchema(&tree->view, &tree->schema, error));
  tree->n_fields = CountNodes(&tree->view) - 1;
  tree->fields = (struct ArrowIpcField*)ArrowMalloc(
      (tree->n_fields > 0 ? tree->n_fields : 1) * (int64_t)sizeof(struct ArrowIpcField));
  if (tree->fields == NULL) {
    tree->n_fields = 0;
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  memset(tree->fields, 0, (size_t)tree->n_fields * sizeof(struct ArrowIpcField));
  for (i = 0; i < tree->view.n_children; i++) {
    NANOARROW_RETURN_NOT_OK(FlattenFields(private_data, tree, tree->view.children[i],
                                          tree->schema.children[i], &k, ids, n_encodings,
                                          1, error));
  }
  return NANOARROW_OK;
}

static int64_t CountDictionaries(const struct ArrowSchema* schema, int depth) {
  int64_t n = 0;
  int64_t i;
  const struct ArrowSchema* value;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return 0;
  n += schema->dictionary != NULL;
  value = schema->dictionary != NULL ? schema->dictionary : schema;
  for (i = 0; i < value->n_children; i++) n += CountDictionaries(value->children[i], depth + 1);
  return n;
}

static ArrowErrorCode RegisterDictionary(struct ArrowIpcDecoderPrivate* private_data,
                                         const struct ArrowSchema* field, struct IdList* ids,
                                         int64_t* n_encodings, int64_t* index_out,
                                         struct ArrowError* error) {
  int64_t id = ids->next < ids->n_ids ? ids->ids[ids->next] : ids->next;
  int64_t i;
  struct ArrowIpcDictionaryEntry* entry;
  ids->next++;

  private_data->encodings[*n_encodings].id = id;
  private_data->encodings[*n_encodings].schema = field;
  (*n_encodings)++;

  for (i = 0; i < private_data->n_dictionaries; i++) {
    if (private_data->dictionaries[i].id == id) {
      /* A shared dictionary: the value type's own dictionaries were registered by
       * its first user; skip their ids. */
      *index_out = i;
      ids->next += CountDictionaries(field->dictionary, 0);
      return NANOARROW_OK;
    }
  }

  /* The entries array was sized for every dictionary field up front. */
  entry = &private_data->dictionaries[private_data->n_dictionaries];
  *index_out = private_data->n_dictionaries;
  private_data->n_dictionaries++;
  entry->id = id;
  entry->current = NULL;
  entry->generation = 0;
  {
    /* The dictionary batch holds one column of the value type. */
    struct ArrowSchema wrapper;
    ArrowErrorCode result;
    ArrowSchemaInit(&wrapper);
    result = ArrowSchemaSetTypeStruct(&wrapper, 1);
    if (result == NANOARROW_OK) {
      ArrowSchemaRelease(wrapper.children[0]);
      result = ArrowSchemaDeepCopy(field->dictionary, wrapper.children[0]);
    }
    if (result == NANOARROW_OK) {
      result = TreeInitWithIds(private_data, &entry->tree, &wrapper, ids, n_encodings,
                               error);
    }
    if (wrapper.release != NULL) ArrowSchemaRelease(&wrapper);
    return result;
  }
}

static void ResetDictionaries(struct ArrowIpcDecoderPrivate* private_data) {
  int64_t i;
  for (i = 0; i < private_data->n_dictionaries; i++) {
    ArrowIpcPrivateTreeReset(&private_data->dictionaries[i].tree);
    if (private_data->dictionaries[i].current != NULL) {
      ArrowIpcPrivateSharedArrayRelease(private_data->dictionaries[i].current);
    }
  }
  ArrowFree(private_data->dictionaries);
  ArrowFree(private_data->encodings);
  private_data->dictionaries = NULL;
  private_data->encodings = NULL;
  private_data->n_dictionaries = 0;
  private_data->n_encodings = 0;
}

/* ---- Init / reset ---- */

ArrowErrorCode ArrowIpcDecoderInit(struct ArrowIpcDecoder* decoder) {
  struct ArrowIpcDecoderPrivate* private_data;
  memset(decoder, 0, sizeof(*decoder));
  private_data =
      (struct ArrowIpcDecoderPrivate*)ArrowMalloc(sizeof(struct ArrowIpcDecoderPrivate));
  if (private_data == NULL) return ENOMEM;
  memset(private_data, 0, sizeof(*private_data));
  TreeInitEmpty(&private_data->tree);
  ArrowIpcFooterInit(&private_data->footer);
  ArrowBufferInit(&private_data->schema_ids);
  private_data->body_endianness = NANOARROW_IPC_ENDIANNESS_UNINITIALIZED;
  if (ArrowIpcSerialDecompressor(&private_data->decompressor) != NANOARROW_OK) {
    ArrowFree(private_data);
    return ENOMEM;
  }
  decoder->private_data = private_data;
  return NANOARROW_OK;
}

void ArrowIpcDecoderReset(struct ArrowIpcDecoder* decoder) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  if (private_data == NULL) return;
  if (private_data->view_owner != NULL) ArrowIpcPrivateOwnerRelease(private_data->view_owner);
  ResetDictionaries(private_data);
  ArrowIpcPrivateTreeReset(&private_data->tree);
  ArrowIpcFooterReset(&private_data->footer);
  ArrowBufferReset(&private_data->schema_ids);
  if (private_data->decompressor.release != NULL) {
    private_data->decompressor.release(&private_data->decompressor);
  }
  ArrowFree(private_data);
  memset(decoder, 0, sizeof(*decoder));
}

ArrowErrorCode ArrowIpcDecoderSetDecompressor(struct ArrowIpcDecoder* decoder,
                                              struct ArrowIpcDecompressor* decompressor) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  if (private_data->decompressor.release != NULL) {
    private_data->decompressor.release(&private_data->decompressor);
  }
  memcpy(&private_data->decompressor, decompressor, sizeof(*decompressor));
  decompressor->release = NULL;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderSetEndianness(struct ArrowIpcDecoder* decoder,
                                            enum ArrowIpcEndianness endianness) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  switch (endianness) {
    case NANOARROW_IPC_ENDIANNESS_UNINITIALIZED:
    case NANOARROW_IPC_ENDIANNESS_LITTLE:
    case NANOARROW_IPC_ENDIANNESS_BIG:
      private_data->body_endianness = endianness;
      return NANOARROW_OK;
    default:
      return EINVAL;
  }
}

/* ---- Message headers ---- */

ArrowErrorCode ArrowIpcDecoderPeekHeader(struct ArrowIpcDecoder* decoder,
                                         struct ArrowBufferView data,
                                         int32_t* prefix_size_bytes,
                                         struct ArrowError* error) {
  int32_t prefix = 4;
  int32_t length;
  decoder->header_size_bytes = 0;
  if (data.size_bytes < 4) {
    ArrowErrorSet(error, "expected at least 4 bytes of message prefix but got %ld",
                  (long)data.size_bytes);
    return ESPIPE;
  }
  length = ArrowIpcFbLoadI32(data.data.as_uint8);
  if (length == -1) {
    /* 0xFFFFFFFF continuation marker, then the length. */
    if (data.size_bytes < 8) {
      ArrowErrorSet(error, "expected 8 bytes of message prefix but got %ld",
                    (long)data.size_bytes);
      return ESPIPE;
    }
    prefix = 8;
    length = ArrowIpcFbLoadI32(data.data.as_uint8 + 4);
  }
  if (prefix_size_bytes != NULL) *prefix_size_bytes = prefix;
  if (length == 0) {
    ArrowErrorSet(error, "end of stream marker");
    return ENODATA;
  }
  if (length < 0 || length > INT32_MAX - prefix) {
    ArrowErrorSet(error, "message metadata length %d is invalid", (int)length);
    return EINVAL;
  }
  decoder->header_size_bytes = prefix + length;
  return NANOARROW_OK;
}

/* Reads the verified Message table's version, type and body length. */
static ArrowErrorCode ReadMessageBasics(struct ArrowIpcDecoder* decoder,
                                        const struct ArrowIpcFbTable* message,
                                        struct ArrowError* error) {
  int16_t version = ArrowIpcFbGetInt16(message, 0, 0);
  int header_type = (uint8_t)ArrowIpcFbGetInt8(message, 1, 0);
  int64_t body_length = ArrowIpcFbGetInt64(message, 3, 0);
  if (version < 0 || version > 4) {
    ArrowErrorSet(error, "unknown metadata version %d", (int)version);
    return EINVAL;
  }
  decoder->metadata_version = (enum ArrowIpcMetadataVersion)version;
  if (header_type < 1 || header_type > 5) {
    ArrowErrorSet(error, "unknown message header type %d", header_type);
    return EINVAL;
  }
  decoder->message_type = (enum ArrowIpcMessageType)header_type;
  if (body_length < 0) {
    ArrowErrorSet(error, "message body length %ld is negative", (long)body_length);
    return EINVAL;
  }
  decoder->body_size_bytes = body_length;
  return NANOARROW_OK;
}

static ArrowErrorCode VerifyHeaderInternal(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowIpcFbTable* message,
                                           struct ArrowError* error) {
  int32_t prefix = 0;
  const uint8_t* fb;
  int64_t fb_size;
  decoder->message_type = NANOARROW_IPC_MESSAGE_TYPE_UNINITIALIZED;
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderPeekHeader(decoder, data, &prefix, error));
  if (data.size_bytes < decoder->header_size_bytes) {
    ArrowErrorSet(error, "expected %d bytes of message metadata but got %ld",
                  (int)decoder->header_size_bytes, (long)data.size_bytes);
    return ESPIPE;
  }
  fb = data.data.as_uint8 + prefix;
  fb_size = decoder->header_size_bytes - prefix;
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateVerifyMessage(fb, fb_size, error));
  if (ArrowIpcFbTableInit(fb, fb_size, (int64_t)ArrowIpcFbLoadU32(fb), message) != 0) {
    ArrowErrorSet(error, "invalid Message table");
    return EINVAL;
  }
  return ReadMessageBasics(decoder, message, error);
}

ArrowErrorCode ArrowIpcDecoderVerifyHeader(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error) {
  struct ArrowIpcFbTable message;
  return VerifyHeaderInternal(decoder, data, &message, error);
}

static ArrowErrorCode ReadBatchHeader(struct ArrowIpcDecoder* decoder,
                                      const struct ArrowIpcFbTable* rb,
                                      struct ArrowIpcBatchHeader* out,
                                      struct ArrowError* error) {
  struct ArrowIpcFbTable compression;
  out->table = *rb;
  out->length = ArrowIpcFbGetInt64(rb, 0, 0);
  if (out->length < 0) {
    ArrowErrorSet(error, "record batch length %ld is negative", (long)out->length);
    return EINVAL;
  }
  if (!ArrowIpcFbGetVector(rb, 1, 16, 8, &out->nodes)) out->nodes.n = 0;
  if (!ArrowIpcFbGetVector(rb, 2, 16, 8, &out->buffers)) out->buffers.n = 0;
  out->has_variadic_counts = ArrowIpcFbGetVector(rb, 4, 8, 8, &out->variadic_counts);
  if (!out->has_variadic_counts) out->variadic_counts.n = 0;
  decoder->codec = NANOARROW_IPC_COMPRESSION_TYPE_NONE;
  if (ArrowIpcFbGetTable(rb, 3, &compression)) {
    int8_t codec = ArrowIpcFbGetInt8(&compression, 0, 0);
    if (ArrowIpcFbGetInt8(&compression, 1, 0) != 0) {
      ArrowErrorSet(error, "unknown body compression method %d",
                    (int)ArrowIpcFbGetInt8(&compression, 1, 0));
      return ENOTSUP;
    }
    switch (codec) {
      case 0: decoder->codec = NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME; break;
      case 1: decoder->codec = NANOARROW_IPC_COMPRESSION_TYPE_ZSTD; break;
      default:
        ArrowErrorSet(error, "unknown compression codec %d", (int)codec);
        return ENOTSUP;
    }
  }
  return NANOARROW_OK;
}

/* Dictionary ids of a Schema's Fields in pre-order (the order trees use). */
static ArrowErrorCode CollectIds(const struct ArrowIpcFbTable* table, int children_id,
                                 struct ArrowBuffer* ids, int depth) {
  struct ArrowIpcFbVector vec;
  struct ArrowIpcFbTable field;
  struct ArrowIpcFbTable dictionary;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH + 1) return EINVAL;
  if (!ArrowIpcFbGetVector(table, children_id, 4, 4, &vec)) return NANOARROW_OK;
  for (i = 0; i < vec.n; i++) {
    if (!ArrowIpcFbVectorTable(&vec, i, &field)) return EINVAL;
    if (ArrowIpcFbGetTable(&field, 4, &dictionary)) {
      NANOARROW_RETURN_NOT_OK(
          ArrowBufferAppendInt64(ids, ArrowIpcFbGetInt64(&dictionary, 0, 0)));
    }
    NANOARROW_RETURN_NOT_OK(CollectIds(&field, 5, ids, depth + 1));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ReadSchemaBasics(struct ArrowIpcDecoder* decoder,
                                       const struct ArrowIpcFbTable* schema,
                                       struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  struct ArrowIpcFbVector features;
  int64_t i;
  decoder->endianness = ArrowIpcFbGetInt16(schema, 0, 0) == 0
                            ? NANOARROW_IPC_ENDIANNESS_LITTLE
                            : NANOARROW_IPC_ENDIANNESS_BIG;
  decoder->feature_flags = 0;
  if (ArrowIpcFbGetVector(schema, 3, 8, 8, &features)) {
    for (i = 0; i < features.n; i++) {
      decoder->feature_flags |=
          (int32_t)(ArrowIpcFbLoadI64(features.data + features.pos + 8 * i) & 3);
    }
  }
  private_data->schema_ids.size_bytes = 0;
  if (CollectIds(schema, 1, &private_data->schema_ids, 0) != NANOARROW_OK) {
    ArrowErrorSet(error, "invalid dictionary encodings in schema");
    return EINVAL;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderDecodeHeader(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  struct ArrowIpcFbTable message;
  struct ArrowIpcFbTable data_table;

  private_data->message = NULL;
  NANOARROW_RETURN_NOT_OK(VerifyHeaderInternal(decoder, data, &message, error));
  if (decoder->metadata_version < NANOARROW_IPC_METADATA_VERSION_V4) {
    ArrowErrorSet(error, "metadata version V%d is not supported (V4 or V5 expected)",
                  (int)decoder->metadata_version + 1);
    return ENOTSUP;
  }
  if (!ArrowIpcFbGetTable(&message, 2, &private_data->header_table)) {
    ArrowErrorSet(error, "Message has no header");
    return EINVAL;
  }

  switch (decoder->message_type) {
    case NANOARROW_IPC_MESSAGE_TYPE_SCHEMA:
      NANOARROW_RETURN_NOT_OK(ReadSchemaBasics(decoder, &private_data->header_table, error));
      break;
    case NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH:
      NANOARROW_RETURN_NOT_OK(ReadBatchHeader(decoder, &private_data->header_table,
                                              &private_data->batch, error));
      break;
    case NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH:
      private_data->dictionary_id = ArrowIpcFbGetInt64(&private_data->header_table, 0, 0);
      private_data->dictionary_is_delta =
          ArrowIpcFbGetInt8(&private_data->header_table, 2, 0) != 0;
      if (!ArrowIpcFbGetTable(&private_data->header_table, 1, &data_table)) {
        ArrowErrorSet(error, "DictionaryBatch has no data");
        return EINVAL;
      }
      NANOARROW_RETURN_NOT_OK(
          ReadBatchHeader(decoder, &data_table, &private_data->batch, error));
      break;
    default:
      ArrowErrorSet(error, "tensor messages are not supported");
      return ENOTSUP;
  }

  private_data->message = data.data.as_uint8;
  private_data->message_size = decoder->header_size_bytes;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderDecodeSchema(struct ArrowIpcDecoder* decoder,
                                           struct ArrowSchema* out,
                                           struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  enum ArrowIpcEndianness endianness;
  int32_t features;
  if (private_data->message == NULL ||
      decoder->message_type != NANOARROW_IPC_MESSAGE_TYPE_SCHEMA) {
    ArrowErrorSet(error, "the last decoded message is not a Schema");
    return EINVAL;
  }
  return ArrowIpcPrivateDecodeSchema(&private_data->header_table, out, &endianness,
                                     &features, error);
}

static ArrowErrorCode SetSchemaWithIds(struct ArrowIpcDecoder* decoder,
                                       const struct ArrowSchema* schema,
                                       struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  struct IdList ids;
  int64_t n_dictionary_fields;
  int64_t n_encodings = 0;
  ArrowErrorCode result;

  ResetDictionaries(private_data);
  ArrowIpcPrivateTreeReset(&private_data->tree);
  private_data->has_schema = 0;

  if (schema == NULL || schema->release == NULL) {
    ArrowErrorSet(error, "schema is released");
    return EINVAL;
  }
  n_dictionary_fields = CountDictionaries(schema, 0);
  private_data->dictionaries = (struct ArrowIpcDictionaryEntry*)ArrowMalloc(
      (n_dictionary_fields + 1) * (int64_t)sizeof(struct ArrowIpcDictionaryEntry));
  private_data->encodings = (struct ArrowIpcDictionaryEncoding*)ArrowMalloc(
      (n_dictionary_fields + 1) * (int64_t)sizeof(struct ArrowIpcDictionaryEncoding));
  if (private_data->dictionaries == NULL || private_data->encodings == NULL) {
    ResetDictionaries(private_data);
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }

  /* Ids come from the last Schema message when it described this many
   * dictionaries; otherwise they are numbered 0, 1, ... in pre-order. */
  ids.ids = (const int64_t*)private_data->schema_ids.data;
  ids.n_ids = private_data->schema_ids.size_bytes / 8;
  if (ids.n_ids != n_dictionary_fields) ids.n_ids = 0;
  ids.next = 0;

  result = TreeInitWithIds(private_data, &private_data->tree, schema, &ids, &n_encodings,
                           error);
  private_data->n_encodings = n_encodings;
  if (result != NANOARROW_OK) {
    ResetDictionaries(private_data);
    ArrowIpcPrivateTreeReset(&private_data->tree);
    return result;
  }
  private_data->has_schema = 1;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderSetSchema(struct ArrowIpcDecoder* decoder,
                                        struct ArrowSchema* schema,
                                        struct ArrowError* error) {
  return SetSchemaWithIds(decoder, schema, error);
}

/* ---- Dictionaries ---- */

ArrowErrorCode ArrowIpcDecoderGetDictionaryEncodings(
    struct ArrowIpcDecoder* decoder, struct ArrowIpcDictionaryEncodings* out) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  out->n_encodings = private_data->n_encodings;
  out->encodings = private_data->encodings;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderGetDictionary(struct ArrowIpcDecoder* decoder, int64_t id,
                                            const struct ArrowArray** out,
                                            struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  int64_t i;
  for (i = 0; i < private_data->n_dictionaries; i++) {
    if (private_data->dictionaries[i].id == id &&
        private_data->dictionaries[i].current != NULL) {
      *out = &private_data->dictionaries[i].current->array;
      return NANOARROW_OK;
    }
  }
  ArrowErrorSet(error, "no dictionary with id %ld has been decoded", (long)id);
  return EINVAL;
}

/* ---- Footer ---- */

void ArrowIpcFooterInit(struct ArrowIpcFooter* footer) {
  footer->schema.release = NULL;
  ArrowBufferInit(&footer->record_batch_blocks);
  ArrowBufferInit(&footer->dictionary_blocks);
}

void ArrowIpcFooterReset(struct ArrowIpcFooter* footer) {
  if (footer->schema.release != NULL) ArrowSchemaRelease(&footer->schema);
  ArrowBufferReset(&footer->record_batch_blocks);
  ArrowBufferReset(&footer->dictionary_blocks);
}

ArrowErrorCode ArrowIpcDecoderPeekFooter(struct ArrowIpcDecoder* decoder,
                                         struct ArrowBufferView data,
                                         struct ArrowError* error) {
  const uint8_t* tail;
  int32_t footer_size;
  decoder->header_size_bytes = 0;
  if (data.size_bytes < 10) {
    ArrowErrorSet(error, "expected at least 10 bytes of file tail but got %ld",
                  (long)data.size_bytes);
    return ESPIPE;
  }
  tail = data.data.as_uint8 + data.size_bytes - 10;
  if (memcmp(tail + 4, "ARROW1", 6) != 0) {
    ArrowErrorSet(error, "file does not end with the ARROW1 magic");
    return EINVAL;
  }
  footer_size = ArrowIpcFbLoadI32(tail);
  if (footer_size <= 0 || footer_size > INT32_MAX - 10) {
    ArrowErrorSet(error, "footer size %d is invalid", (int)footer_size);
    return EINVAL;
  }
  decoder->header_size_bytes = footer_size + 10;
  if (data.size_bytes < decoder->header_size_bytes) {
    ArrowErrorSet(error, "footer of %d bytes does not fit in %ld bytes", (int)footer_size,
                  (long)data.size_bytes);
    return ESPIPE;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode VerifyFooterInternal(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowIpcFbTable* footer,
                                           struct ArrowError* error) {
  const uint8_t* fb;
  int64_t fb_size;
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderPeekFooter(decoder, data, error));
  fb_size = decoder->header_size_bytes - 10;
  fb = data.data.as_uint8 + data.size_bytes - decoder->header_size_bytes;
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateVerifyFooter(fb, fb_size, error));
  if (ArrowIpcFbTableInit(fb, fb_size, (int64_t)ArrowIpcFbLoadU32(fb), footer) != 0) {
    ArrowErrorSet(error, "invalid Footer table");
    return EINVAL;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderVerifyFooter(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error) {
  struct ArrowIpcFbTable footer;
  return VerifyFooterInternal(decoder, data, &footer, error);
}

static ArrowErrorCode ReadBlocks(const struct ArrowIpcFbTable* footer, int id,
                                 struct ArrowBuffer* out, struct ArrowError* error) {
  struct ArrowIpcFbVector vec;
  int64_t i;
  out->size_bytes = 0;
  if (!ArrowIpcFbGetVector(footer, id, 24, 8, &vec)) return NANOARROW_OK;
  if (ArrowBufferReserve(out, vec.n * (int64_t)sizeof(struct ArrowIpcFileBlock)) != 0) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  for (i = 0; i < vec.n; i++) {
    struct ArrowIpcFileBlock block;
    const uint8_t* p = vec.data + vec.pos + 24 * i;
    block.offset = ArrowIpcFbLoadI64(p);
    block.metadata_length = ArrowIpcFbLoadI32(p + 8);
    block.body_length = ArrowIpcFbLoadI64(p + 16);
    ArrowBufferAppendUnsafe(out, &block, sizeof(block));
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderDecodeFooter(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = DecoderPrivate(decoder);
  struct ArrowIpcFbTable footer;
  struct ArrowIpcFbTable schema;
  int32_t features;
  decoder->footer = NULL;
  NANOARROW_RETURN_NOT_OK(VerifyFooterInternal(decoder, data, &footer, error));
  if (!ArrowIpcFbGetTable(&footer, 1, &schema)) {
    ArrowErrorSet(error, "Footer has no schema");
    return EINVAL;
  }
  ArrowIpcFooterReset(&private_data->footer);
  ArrowIpcFooterInit(&private_data->footer);
  NANOARROW_RETURN_NOT_OK(ReadSchemaBasics(decoder, &schema, error));
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateDecodeSchema(
      &schema, &private_data->footer.schema, &decoder->endianness, &features, error));
  NANOARROW_RETURN_NOT_OK(
      ReadBlocks(&footer, 2, &private_data->footer.dictionary_blocks, error));
  NANOARROW_RETURN_NOT_OK(
      ReadBlocks(&footer, 3, &private_data->footer.record_batch_blocks, error));
  NANOARROW_RETURN_NOT_OK(SetSchemaWithIds(decoder, &private_data->footer.schema, error));
  decoder->footer = &private_data->footer;
  return NANOARROW_OK;
}
