/* ArrowIpcDecoder: message framing, header decoding, schemas, dictionaries and
 * footers. Record batch bodies are decoded in batch_decode.c. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

static struct ArrowIpcDecoderPrivate* IpcDecoderGetPrivate(struct ArrowIpcDecoder* decoder) {
  return (struct ArrowIpcDecoderPrivate*)decoder->private_data;
}

/* ---- Column trees ---- */

static void IpcDecoderTreeInitEmpty(struct ArrowIpcTree* tree) {
  memset(tree, 0, sizeof(*tree));
  tree->schema.release = NULL;
  ArrowArrayViewInitFromType(&tree->view, NANOARROW_TYPE_UNINITIALIZED);
}

void ArrowIpcPrivateTreeReset(struct ArrowIpcTree* tree) {
  int64_t i;
  for (i = 0; i < tree->n_fields; i++) {
    struct ArrowIpcTreeVariadic* variadic = tree->fields[i].variadic;
    if (variadic == NULL) continue;
    /* The variadic arrays are ours: detach them before the view is reset. */
    if (tree->fields[i].view != NULL) {
      tree->fields[i].view->n_variadic_buffers = 0;
      tree->fields[i].view->variadic_buffers = NULL;
      tree->fields[i].view->variadic_buffer_sizes = NULL;
    }
    ArrowFree((void*)variadic->buffers);
    ArrowFree(variadic->sizes);
    ArrowFree(variadic);
  }
  ArrowFree(tree->fields);
  ArrowArrayViewReset(&tree->view);
  if (tree->schema.release != NULL) ArrowSchemaRelease(&tree->schema);
  IpcDecoderTreeInitEmpty(tree);
}

/* Dictionary ids in schema pre-order, as given by the last Schema message. */
struct IpcDecoderIdList {
  const int64_t* ids;
  int64_t n_ids;
  int64_t next;
};

static ArrowErrorCode IpcDecoderTreeInitWithIds(struct ArrowIpcDecoderPrivate* private_data,
                                      struct ArrowIpcTree* tree, struct ArrowSchema* schema,
                                      int adopt, int direct_export,
                                      struct IpcDecoderIdList* ids,
                                      int64_t* n_encodings, struct ArrowError* error);

static ArrowErrorCode IpcDecoderRegisterDictionary(struct ArrowIpcDecoderPrivate* private_data,
                                         const struct ArrowSchema* field, struct IpcDecoderIdList* ids,
                                         int64_t* n_encodings, int32_t* index_out,
                                         struct ArrowError* error);

static int64_t IpcDecoderFixedBufferCount(const struct ArrowLayout* layout) {
  int64_t n = 0;
  while (n < NANOARROW_MAX_FIXED_BUFFERS &&
         layout->buffer_type[n] != NANOARROW_BUFFER_TYPE_NONE) {
    n++;
  }
  return n;
}

/* Types whose validation at every level is buffer sizes, child lengths and the
 * null count (see ArrowIpcTree.quick_validation). */
static int IpcDecoderIsQuickType(enum ArrowType type) {
  return ArrowIpcPrivateIsFixedWidthType(type) || type == NANOARROW_TYPE_NA ||
         type == NANOARROW_TYPE_STRUCT || type == NANOARROW_TYPE_FIXED_SIZE_LIST;
}

/* Adds the fields below schema (its children and theirs, not dictionaries) to
 * *n, refusing malformed or too deeply nested trees. */
static ArrowErrorCode IpcDecoderCountFields(const struct ArrowSchema* schema, int depth,
                                            int64_t* n, struct ArrowError* error) {
  int64_t i;
  if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == NULL)) {
    ArrowErrorSet(error, "schema has %ld children but no child array",
                  (long)schema->n_children);
    return EINVAL;
  }
  if (schema->n_children > 0 && depth >= NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "schema nested deeper than %d", NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  for (i = 0; i < schema->n_children; i++) {
    if (schema->children[i] == NULL) {
      ArrowErrorSet(error, "schema child %ld is NULL", (long)i);
      return EINVAL;
    }
    NANOARROW_RETURN_NOT_OK(IpcDecoderCountFields(schema->children[i], depth + 1, n, error));
  }
  *n += schema->n_children;
  return NANOARROW_OK;
}

/* Wide schemas repeat leaf types: one that parses like the previous sibling (the
 * same format, nothing else to look at) gets its record without a parse. */
static int IpcDecoderIsSameLeaf(const struct ArrowSchema* previous,
                                const struct ArrowSchema* schema) {
  return schema->release != NULL && schema->format != NULL && schema->n_children == 0 &&
         schema->dictionary == NULL && schema->metadata == NULL &&
         previous->n_children == 0 && previous->dictionary == NULL &&
         (schema->format == previous->format || strcmp(schema->format, previous->format) == 0);
}

/* Fills tree->fields in pre-order (from *k on) for the children of parent. */
static ArrowErrorCode IpcDecoderFlattenChildren(struct ArrowIpcDecoderPrivate* private_data,
                                      struct ArrowIpcTree* tree,
                                      const struct ArrowSchema* parent, int64_t* k,
                                      struct IpcDecoderIdList* ids, int64_t* n_encodings,
                                      int depth, struct ArrowError* error) {
  const struct ArrowSchema* previous = NULL;
  const struct ArrowIpcTreeField* previous_field = NULL;
  int64_t previous_n_buffers = 0;
  int64_t i;
  /* The tree was counted (and its shape checked) first. */
  for (i = 0; i < parent->n_children; i++) {
    const struct ArrowSchema* schema = parent->children[i];
    struct ArrowIpcTreeField* field = &tree->fields[*k];
    (*k)++;
    field->view = NULL;
    field->n_children = schema->n_children;
    field->dictionary_index = -1;
    if (previous != NULL && IpcDecoderIsSameLeaf(previous, schema)) {
      field->storage_type = previous_field->storage_type;
      field->fixed_size = previous_field->fixed_size;
    } else {
      struct ArrowSchemaView schema_view;
      NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&schema_view, schema, error));
      field->storage_type = (int32_t)schema_view.storage_type;
      field->fixed_size = schema_view.storage_type == NANOARROW_TYPE_FIXED_SIZE_LIST
                              ? schema_view.layout.child_size_elements
                              : schema_view.layout.element_size_bits[1];
      previous_n_buffers = IpcDecoderFixedBufferCount(&schema_view.layout);
      if (schema->dictionary != NULL ||
          !IpcDecoderIsQuickType(schema_view.storage_type)) {
        tree->quick_validation = 0;
      }
    }
    if (field->storage_type == NANOARROW_TYPE_BINARY_VIEW ||
        field->storage_type == NANOARROW_TYPE_STRING_VIEW) {
      tree->n_variadic_fields++;
    } else {
      tree->n_export_buffers += previous_n_buffers;
    }
    if (schema->n_children > 0) tree->has_nested_fields = 1;
    tree->n_dictionary_fields += schema->dictionary != NULL;
    if (schema->dictionary != NULL) {
      NANOARROW_RETURN_NOT_OK(IpcDecoderRegisterDictionary(
          private_data, schema, ids, n_encodings, &field->dictionary_index, error));
    }
    NANOARROW_RETURN_NOT_OK(IpcDecoderFlattenChildren(private_data, tree, schema, k, ids,
                                                      n_encodings, depth + 1, error));
    previous = schema;
    previous_field = field;
  }
  return NANOARROW_OK;
}

/* Points the fields at their views (built from the schema), in pre-order. */
static ArrowErrorCode IpcDecoderAttachViews(struct ArrowIpcTree* tree,
                                            struct ArrowArrayView* parent, int64_t* k,
                                            struct ArrowError* error) {
  int64_t i;
  for (i = 0; i < parent->n_children; i++) {
    struct ArrowIpcTreeField* field = &tree->fields[*k];
    struct ArrowArrayView* view = parent->children[i];
    (*k)++;
    if (view->n_children != field->n_children) {
      ArrowErrorSet(error, "schema and view disagree on the number of children");
      return EINVAL;
    }
    if (field->dictionary_index >= 0 && view->dictionary == NULL) {
      ArrowErrorSet(error, "dictionary-encoded field has no dictionary view");
      return EINVAL;
    }
    field->view = view;
    NANOARROW_RETURN_NOT_OK(IpcDecoderAttachViews(tree, view, k, error));
  }
  return NANOARROW_OK;
}

/* The views of a quick tree from its field records: what
 * ArrowArrayViewInitFromSchema gives for these types. */
static ArrowErrorCode IpcDecoderBuildViews(struct ArrowIpcTree* tree,
                                           struct ArrowArrayView* parent, int64_t* k) {
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowArrayViewAllocateChildren(
      parent, parent == &tree->view ? tree->n_columns : tree->fields[*k - 1].n_children));
  for (i = 0; i < parent->n_children; i++) {
    struct ArrowIpcTreeField* field = &tree->fields[*k];
    struct ArrowArrayView* view = parent->children[i];
    (*k)++;
    ArrowArrayViewInitFromType(view, (enum ArrowType)field->storage_type);
    if (field->storage_type == NANOARROW_TYPE_FIXED_SIZE_LIST) {
      view->layout.child_size_elements = field->fixed_size;
    } else if (view->layout.buffer_type[1] != NANOARROW_BUFFER_TYPE_NONE) {
      view->layout.element_size_bits[1] = field->fixed_size;
    }
    field->view = view;
    NANOARROW_RETURN_NOT_OK(IpcDecoderBuildViews(tree, view, k));
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcPrivateTreeEnsureViews(struct ArrowIpcTree* tree,
                                              struct ArrowError* error) {
  int64_t k = 0;
  ArrowErrorCode result;
  if (tree->has_views) return NANOARROW_OK;
  ArrowArrayViewInitFromType(&tree->view, NANOARROW_TYPE_STRUCT);
  result = IpcDecoderBuildViews(tree, &tree->view, &k);
  if (result != NANOARROW_OK) {
    for (k = 0; k < tree->n_fields; k++) tree->fields[k].view = NULL;
    ArrowArrayViewReset(&tree->view);
    ArrowArrayViewInitFromType(&tree->view, NANOARROW_TYPE_UNINITIALIZED);
    ArrowErrorSet(error, "out of memory building the batch's array views");
    return result;
  }
  tree->has_views = 1;
  return NANOARROW_OK;
}

/* With adopt, schema is moved into the tree (when its format is right) rather
 * than copied. With direct_export, a quick tree leaves its views for later. */
static ArrowErrorCode IpcDecoderTreeInitWithIds(struct ArrowIpcDecoderPrivate* private_data,
                                      struct ArrowIpcTree* tree, struct ArrowSchema* schema,
                                      int adopt, int direct_export,
                                      struct IpcDecoderIdList* ids,
                                      int64_t* n_encodings, struct ArrowError* error) {
  int64_t k = 0;
  IpcDecoderTreeInitEmpty(tree);
  if (schema->format == NULL || strcmp(schema->format, "+s") != 0) {
    ArrowErrorSet(error, "expected a struct schema (format '+s')");
    return EINVAL;
  }
  if (adopt) {
    ArrowSchemaMove(schema, &tree->schema);
  } else {
    NANOARROW_RETURN_NOT_OK(ArrowSchemaDeepCopy(schema, &tree->schema));
  }
  NANOARROW_RETURN_NOT_OK(IpcDecoderCountFields(&tree->schema, 1, &k, error));
  tree->n_fields = k;
  k = 0;
  tree->n_columns = tree->schema.n_children;
  tree->fields = (struct ArrowIpcTreeField*)ArrowMalloc(
      (tree->n_fields > 0 ? tree->n_fields : 1) * (int64_t)sizeof(struct ArrowIpcTreeField));
  if (tree->fields == NULL) {
    tree->n_fields = 0;
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  memset(tree->fields, 0, (size_t)tree->n_fields * sizeof(struct ArrowIpcTreeField));
  tree->n_export_buffers = 1; /* The root's validity. */
  tree->quick_validation = 1;
  NANOARROW_RETURN_NOT_OK(IpcDecoderFlattenChildren(private_data, tree, &tree->schema, &k,
                                                    ids, n_encodings, 1, error));
  tree->direct_export = direct_export && tree->quick_validation;
  if (tree->direct_export) return NANOARROW_OK;
  NANOARROW_RETURN_NOT_OK(ArrowArrayViewInitFromSchema(&tree->view, &tree->schema, error));
  tree->has_views = 1;
  k = 0;
  return IpcDecoderAttachViews(tree, &tree->view, &k, error);
}

static int64_t IpcDecoderCountDictionaries(const struct ArrowSchema* schema, int depth) {
  int64_t n = 0;
  int64_t i;
  const struct ArrowSchema* value;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return 0;
  n += schema->dictionary != NULL;
  value = schema->dictionary != NULL ? schema->dictionary : schema;
  for (i = 0; i < value->n_children; i++) n += IpcDecoderCountDictionaries(value->children[i], depth + 1);
  return n;
}

static ArrowErrorCode IpcDecoderRegisterDictionary(struct ArrowIpcDecoderPrivate* private_data,
                                         const struct ArrowSchema* field, struct IpcDecoderIdList* ids,
                                         int64_t* n_encodings, int32_t* index_out,
                                         struct ArrowError* error) {
  int64_t id = ids->next < ids->n_ids ? ids->ids[ids->next] : ids->next;
  int64_t i;
  struct ArrowIpcDictionaryEntry* entry;
  ids->next++;

  {
    /* Space for every encoded field was reserved up front. */
    struct ArrowIpcDictionaryEncoding* encoding =
        ArrowIpcPrivateEncodingsData(&private_data->encodings) + *n_encodings;
    encoding->schema = field;
    encoding->id = id;
    encoding->kind = NANOARROW_IPC_DICTIONARY_KIND_DENSE_ARRAY;
    (*n_encodings)++;
  }

  for (i = 0; i < private_data->n_dictionaries; i++) {
    if (private_data->dictionaries[i].id == id) {
      /* A shared dictionary: the value type's own dictionaries were registered by
       * its first user; skip their ids. */
      *index_out = (int32_t)i;
      ids->next += IpcDecoderCountDictionaries(field->dictionary, 0);
      return NANOARROW_OK;
    }
  }

  /* The entries array was sized for every dictionary field up front. */
  entry = &private_data->dictionaries[private_data->n_dictionaries];
  *index_out = (int32_t)private_data->n_dictionaries;
  private_data->n_dictionaries++;
  entry->id = id;
  entry->current = NULL;
  entry->generation = 0;
  entry->held_bytes = 0;
  entry->validated_level = NANOARROW_VALIDATION_LEVEL_NONE;
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
      result = IpcDecoderTreeInitWithIds(private_data, &entry->tree, &wrapper, 1, 0, ids,
                                         n_encodings, error);
    }
    if (wrapper.release != NULL) ArrowSchemaRelease(&wrapper);
    return result;
  }
}

static void IpcDecoderResetDictionaries(struct ArrowIpcDecoderPrivate* private_data) {
  int64_t i;
  for (i = 0; i < private_data->n_dictionaries; i++) {
    ArrowIpcPrivateTreeReset(&private_data->dictionaries[i].tree);
    if (private_data->dictionaries[i].current != NULL) {
      ArrowIpcPrivateSharedArrayRelease(private_data->dictionaries[i].current);
    }
  }
  ArrowFree(private_data->dictionaries);
  private_data->dictionaries = NULL;
  private_data->n_dictionaries = 0;
  private_data->held_bytes = 0;
  ArrowIpcDictionaryEncodingsReset(&private_data->encodings);
}

/* ---- Init / reset ---- */

NANOARROW_COLD
ArrowErrorCode ArrowIpcDecoderInit(struct ArrowIpcDecoder* decoder) {
  struct ArrowIpcDecoderPrivate* private_data;
  memset(decoder, 0, sizeof(*decoder));
  private_data =
      (struct ArrowIpcDecoderPrivate*)ArrowMalloc(sizeof(struct ArrowIpcDecoderPrivate));
  if (private_data == NULL) return ENOMEM;
  memset(private_data, 0, sizeof(*private_data));
  IpcDecoderTreeInitEmpty(&private_data->tree);
  ArrowIpcFooterInit(&private_data->footer);
  ArrowBufferInit(&private_data->schema_ids);
  ArrowBufferInit(&private_data->tree_ids);
  ArrowIpcDictionaryEncodingsInit(&private_data->encodings);
  private_data->body_endianness = NANOARROW_IPC_ENDIANNESS_UNINITIALIZED;
  private_data->max_decompressed_bytes = -1;
  private_data->max_held_bytes = -1;
  if (ArrowIpcSerialDecompressor(&private_data->decompressor) != NANOARROW_OK) {
    ArrowFree(private_data);
    return ENOMEM;
  }
  decoder->private_data = private_data;
  return NANOARROW_OK;
}

NANOARROW_COLD
void ArrowIpcDecoderReset(struct ArrowIpcDecoder* decoder) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  if (private_data == NULL) return;
  if (private_data->view_owner != NULL) ArrowIpcPrivateOwnerRelease(private_data->view_owner);
  IpcDecoderResetDictionaries(private_data);
  ArrowIpcPrivateTreeReset(&private_data->tree);
  ArrowIpcFooterReset(&private_data->footer);
  ArrowBufferReset(&private_data->schema_ids);
  ArrowBufferReset(&private_data->tree_ids);
  ArrowIpcPrivateProjectionFree(private_data);
  if (private_data->decompressor.release != NULL) {
    private_data->decompressor.release(&private_data->decompressor);
  }
  ArrowFree(private_data);
  memset(decoder, 0, sizeof(*decoder));
}

ArrowErrorCode ArrowIpcDecoderSetDecompressor(struct ArrowIpcDecoder* decoder,
                                              struct ArrowIpcDecompressor* decompressor) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  if (private_data->decompressor.release != NULL) {
    private_data->decompressor.release(&private_data->decompressor);
  }
  memcpy(&private_data->decompressor, decompressor, sizeof(*decompressor));
  decompressor->release = NULL;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderSetMaxDecompressedBytes(struct ArrowIpcDecoder* decoder,
                                                      int64_t max_bytes) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  if (private_data == NULL || max_bytes < -1) return EINVAL;
  private_data->max_decompressed_bytes = max_bytes;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderSetMaxHeldBytes(struct ArrowIpcDecoder* decoder,
                                              int64_t max_bytes) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  if (private_data == NULL || max_bytes < -1) return EINVAL;
  private_data->max_held_bytes = max_bytes;
  return NANOARROW_OK;
}

int64_t ArrowIpcPrivateDecoderHeldLimit(const struct ArrowIpcDecoderPrivate* private_data) {
  if (private_data->max_held_bytes >= 0) return private_data->max_held_bytes;
  if (private_data->bytes_read > (INT64_MAX - NANOARROW_IPC_DEFAULT_HELD_BYTES_ALLOWANCE) /
                                     NANOARROW_IPC_DEFAULT_HELD_BYTES_RATIO) {
    return INT64_MAX;
  }
  return NANOARROW_IPC_DEFAULT_HELD_BYTES_RATIO * private_data->bytes_read +
         NANOARROW_IPC_DEFAULT_HELD_BYTES_ALLOWANCE;
}

ArrowErrorCode ArrowIpcDecoderGetHeldBytes(struct ArrowIpcDecoder* decoder,
                                           int64_t* held_bytes, int64_t* max_held_bytes) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  if (private_data == NULL) return EINVAL;
  if (held_bytes != NULL) *held_bytes = private_data->held_bytes;
  if (max_held_bytes != NULL) {
    *max_held_bytes = ArrowIpcPrivateDecoderHeldLimit(private_data);
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderSetEndianness(struct ArrowIpcDecoder* decoder,
                                            enum ArrowIpcEndianness endianness) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
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
  length = ArrowIpcFbrLoadI32(data.data.as_uint8);
  if (length == -1) {
    /* 0xFFFFFFFF continuation marker, then the length. */
    if (data.size_bytes < 8) {
      ArrowErrorSet(error, "expected 8 bytes of message prefix but got %ld",
                    (long)data.size_bytes);
      return ESPIPE;
    }
    prefix = 8;
    length = ArrowIpcFbrLoadI32(data.data.as_uint8 + 4);
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
static ArrowErrorCode IpcDecoderReadMessageBasics(struct ArrowIpcDecoder* decoder,
                                        const struct ArrowIpcFbrTable* message,
                                        struct ArrowError* error) {
  int16_t version = (int16_t)ArrowIpcFbrGetScalar(message, ARROW_IPC_FBR_MESSAGE_VERSION, 0);
  int header_type = (int)ArrowIpcFbrGetScalar(message, ARROW_IPC_FBR_MESSAGE_HEADER_TYPE, 0);
  int64_t body_length = ArrowIpcFbrGetScalar(message, ARROW_IPC_FBR_MESSAGE_BODY_LENGTH, 0);
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

static ArrowErrorCode IpcDecoderVerifyHeaderInternal(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowIpcFbrTable* message,
                                           struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  int32_t prefix = 0;
  const uint8_t* fb;
  int64_t fb_size;
  decoder->message_type = NANOARROW_IPC_MESSAGE_TYPE_UNINITIALIZED;
  private_data->has_message_table = 0;
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderPeekHeader(decoder, data, &prefix, error));
  if (data.size_bytes < decoder->header_size_bytes) {
    ArrowErrorSet(error, "expected %d bytes of message metadata but got %ld",
                  (int)decoder->header_size_bytes, (long)data.size_bytes);
    return ESPIPE;
  }
  fb = data.data.as_uint8 + prefix;
  fb_size = decoder->header_size_bytes - prefix;
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateVerifyMessage(fb, fb_size, error));
  if (ArrowIpcFbrTableInit(fb, fb_size, (int64_t)ArrowIpcFbrLoadU32(fb), message) != 0) {
    ArrowErrorSet(error, "invalid Message table");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(IpcDecoderReadMessageBasics(decoder, message, error));
  private_data->message_table = *message;
  private_data->has_message_table = 1;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderVerifyHeader(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error) {
  struct ArrowIpcFbrTable message;
  return IpcDecoderVerifyHeaderInternal(decoder, data, &message, error);
}

static ArrowErrorCode IpcDecoderReadBatchHeader(struct ArrowIpcDecoder* decoder,
                                      const struct ArrowIpcFbrTable* rb,
                                      struct ArrowIpcBatchHeader* out,
                                      struct ArrowError* error) {
  struct ArrowIpcFbrTable compression;
  out->table = *rb;
  out->length = ArrowIpcFbrGetScalar(rb, ARROW_IPC_FBR_RECORD_BATCH_LENGTH, 0);
  if (out->length < 0) {
    ArrowErrorSet(error, "record batch length %ld is negative", (long)out->length);
    return EINVAL;
  }
  if (!ArrowIpcFbrGetVector(rb, ARROW_IPC_FBR_RECORD_BATCH_NODES, &out->nodes)) out->nodes.n = 0;
  if (!ArrowIpcFbrGetVector(rb, ARROW_IPC_FBR_RECORD_BATCH_BUFFERS, &out->buffers)) out->buffers.n = 0;
  out->has_variadic_counts = ArrowIpcFbrGetVector(rb, ARROW_IPC_FBR_RECORD_BATCH_VARIADIC_BUFFER_COUNTS, &out->variadic_counts);
  if (!out->has_variadic_counts) out->variadic_counts.n = 0;
  decoder->codec = NANOARROW_IPC_COMPRESSION_TYPE_NONE;
  if (ArrowIpcFbrGetTable(rb, ARROW_IPC_FBR_RECORD_BATCH_COMPRESSION, &compression)) {
    int64_t codec = ArrowIpcFbrGetScalar(&compression, ARROW_IPC_FBR_BODY_COMPRESSION_CODEC, 0);
    int64_t method = ArrowIpcFbrGetScalar(&compression, ARROW_IPC_FBR_BODY_COMPRESSION_METHOD, 0);
    if (method != 0) {
      ArrowErrorSet(error, "unknown body compression method %d",
                    (int)method);
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
static ArrowErrorCode IpcDecoderCollectIds(const struct ArrowIpcFbrTable* table,
                                 enum ArrowIpcFbrFieldKey children_key,
                                 struct ArrowBuffer* ids, int depth,
                                 struct ArrowError* error) {
  struct ArrowIpcFbrVector vec;
  struct ArrowIpcFbrTable field;
  struct ArrowIpcFbrTable dictionary;
  int64_t i;
  if (!ArrowIpcFbrGetVector(table, children_key, &vec)) return NANOARROW_OK;
  /* Fields at depth d are children of this call's table; the same limit (and
   * message) as schema decoding, which would refuse them next. */
  if (vec.n > 0 && depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "schema nested deeper than %d", NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  for (i = 0; i < vec.n; i++) {
    uint16_t offsets[ARROW_IPC_FBR_FIELD_N_IDS];
    if (!ArrowIpcFbrVectorTable(&vec, i, &field)) {
      ArrowErrorSet(error, "invalid Field table in schema");
      return EINVAL;
    }
    /* Most Fields have neither a dictionary nor children (an absent or empty
     * vector, or one the recursion would find absent): skip the lookups. */
    ArrowIpcFbrLoadFieldOffsets(&field, offsets);
    if (offsets[4] == 0 &&
        (offsets[5] < 4 || offsets[5] + kArrowIpcFbrFieldWidths[5] > field.table_size ||
         ArrowIpcFbrVector4At(&field, offsets[5]) <= 0)) {
      continue;
    }
    if (ArrowIpcFbrGetTable(&field, ARROW_IPC_FBR_FIELD_DICTIONARY, &dictionary)) {
      if (ArrowBufferAppendInt64(
              ids, ArrowIpcFbrGetScalar(&dictionary, ARROW_IPC_FBR_DICTIONARY_ENCODING_ID, 0)) !=
          NANOARROW_OK) {
        ArrowErrorSet(error, "out of memory collecting dictionary ids");
        return ENOMEM;
      }
    }
    NANOARROW_RETURN_NOT_OK(IpcDecoderCollectIds(&field, ARROW_IPC_FBR_FIELD_CHILDREN, ids, depth + 1, error));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode IpcDecoderReadSchemaBasics(struct ArrowIpcDecoder* decoder,
                                       const struct ArrowIpcFbrTable* schema,
                                       struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  struct ArrowIpcFbrVector features;
  int64_t i;
  decoder->endianness = ArrowIpcFbrGetScalar(schema, ARROW_IPC_FBR_SCHEMA_ENDIANNESS, 0) == 0
                            ? NANOARROW_IPC_ENDIANNESS_LITTLE
                            : NANOARROW_IPC_ENDIANNESS_BIG;
  decoder->feature_flags = 0;
  if (ArrowIpcFbrGetVector(schema, ARROW_IPC_FBR_SCHEMA_FEATURES, &features)) {
    for (i = 0; i < features.n; i++) {
      decoder->feature_flags |=
          (int32_t)(ArrowIpcFbrLoadI64(features.data + features.pos + 8 * i) & 3);
    }
  }
  private_data->schema_ids.size_bytes = 0;
  return IpcDecoderCollectIds(schema, ARROW_IPC_FBR_SCHEMA_FIELDS, &private_data->schema_ids, 0, error);
}

/* A DictionaryBatch's counts are those of its id's value type (an id the schema
 * does not use is refused when the dictionary is decoded). */
static ArrowErrorCode IpcDecoderCheckDictionaryCounts(struct ArrowIpcDecoder* decoder,
                                                      struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  struct ArrowError detail;
  ArrowErrorCode result;
  int64_t i;
  if (!private_data->has_schema) return NANOARROW_OK;
  for (i = 0; i < private_data->n_dictionaries; i++) {
    if (private_data->dictionaries[i].id == private_data->dictionary_batch.id) break;
  }
  if (i == private_data->n_dictionaries) return NANOARROW_OK;
  detail.message[0] = '\0';
  result = ArrowIpcPrivateCheckBatchCounts(decoder, &private_data->dictionaries[i].tree,
                                           &private_data->batch, &detail);
  if (result != NANOARROW_OK) {
    ArrowErrorSet(error, "DictionaryBatch id %ld: %s", (long)private_data->dictionary_batch.id,
                  detail.message);
  }
  return result;
}

ArrowErrorCode ArrowIpcDecoderDecodeHeader(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  struct ArrowIpcFbrTable message;
  struct ArrowIpcFbrTable data_table;

  private_data->message = NULL;
  decoder->dictionary = NULL;
  NANOARROW_RETURN_NOT_OK(IpcDecoderVerifyHeaderInternal(decoder, data, &message, error));
  if (decoder->metadata_version < NANOARROW_IPC_METADATA_VERSION_V4) {
    ArrowErrorSet(error, "metadata version V%d is not supported (V4 or V5 expected)",
                  (int)decoder->metadata_version + 1);
    return ENOTSUP;
  }
  if (!ArrowIpcFbrGetTable(&message, ARROW_IPC_FBR_MESSAGE_HEADER, &private_data->header_table)) {
    ArrowErrorSet(error, "Message has no header");
    return EINVAL;
  }

  switch (decoder->message_type) {
    case NANOARROW_IPC_MESSAGE_TYPE_SCHEMA:
      NANOARROW_RETURN_NOT_OK(IpcDecoderReadSchemaBasics(decoder, &private_data->header_table, error));
      break;
    case NANOARROW_IPC_MESSAGE_TYPE_RECORD_BATCH:
      NANOARROW_RETURN_NOT_OK(IpcDecoderReadBatchHeader(decoder, &private_data->header_table,
                                              &private_data->batch, error));
      if (private_data->projection != NULL) {
        NANOARROW_RETURN_NOT_OK(
            ArrowIpcPrivateProjectHeader(decoder, &private_data->batch, error));
      }
      /* Decoding checks the counts again (the schema may change in between). */
      if (private_data->has_schema) {
        NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateCheckBatchCounts(
            decoder, &private_data->tree, &private_data->batch, error));
      }
      break;
    case NANOARROW_IPC_MESSAGE_TYPE_DICTIONARY_BATCH:
      private_data->dictionary_batch.id = ArrowIpcFbrGetScalar(
          &private_data->header_table, ARROW_IPC_FBR_DICTIONARY_BATCH_ID, 0);
      private_data->dictionary_batch.is_delta =
          ArrowIpcFbrGetScalar(&private_data->header_table,
                               ARROW_IPC_FBR_DICTIONARY_BATCH_IS_DELTA, 0) != 0;
      if (!ArrowIpcFbrGetTable(&private_data->header_table, ARROW_IPC_FBR_DICTIONARY_BATCH_DATA,
                               &data_table)) {
        ArrowErrorSet(error, "DictionaryBatch has no data");
        return EINVAL;
      }
      NANOARROW_RETURN_NOT_OK(
          IpcDecoderReadBatchHeader(decoder, &data_table, &private_data->batch, error));
      NANOARROW_RETURN_NOT_OK(IpcDecoderCheckDictionaryCounts(decoder, error));
      decoder->dictionary = &private_data->dictionary_batch;
      break;
    default:
      ArrowErrorSet(error, "tensor messages are not supported");
      return ENOTSUP;
  }

  private_data->message = data.data.as_uint8;
  private_data->message_size = decoder->header_size_bytes;
  /* Bytes read so far, for the default budget (bodies count when decoded). */
  if (private_data->bytes_read <= INT64_MAX - decoder->header_size_bytes) {
    private_data->bytes_read += decoder->header_size_bytes;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderDecodeSchema(struct ArrowIpcDecoder* decoder,
                                           struct ArrowSchema* out,
                                           struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
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

/* ids: the dictionary ids of schema's encoded fields in pre-order, or NULL to
 * take them from the last Schema message. */
static ArrowErrorCode IpcDecoderSetSchemaWithIds(struct ArrowIpcDecoder* decoder,
                                       struct ArrowSchema* schema, int adopt,
                                       const int64_t* explicit_ids,
                                       struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  struct IpcDecoderIdList ids;
  int64_t n_dictionary_fields;
  int64_t n_encodings = 0;
  ArrowErrorCode result;

  IpcDecoderResetDictionaries(private_data);
  ArrowIpcPrivateTreeReset(&private_data->tree);
  private_data->has_schema = 0;
  if (!private_data->setting_projection) ArrowIpcPrivateProjectionFree(private_data);

  if (schema == NULL || schema->release == NULL) {
    ArrowErrorSet(error, "schema is released");
    return EINVAL;
  }
  n_dictionary_fields = IpcDecoderCountDictionaries(schema, 0);
  if (n_dictionary_fields > INT32_MAX) {
    ArrowErrorSet(error, "schema has %ld dictionary-encoded fields (at most %ld)",
                  (long)n_dictionary_fields, (long)INT32_MAX);
    return EINVAL;
  }
  private_data->dictionaries = (struct ArrowIpcDictionaryEntry*)ArrowMalloc(
      (n_dictionary_fields + 1) * (int64_t)sizeof(struct ArrowIpcDictionaryEntry));
  if (private_data->dictionaries == NULL ||
      ArrowBufferReserve(&private_data->encodings.encodings,
                         (n_dictionary_fields + 1) *
                             (int64_t)sizeof(struct ArrowIpcDictionaryEncoding)) !=
          NANOARROW_OK) {
    IpcDecoderResetDictionaries(private_data);
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }

  /* Ids come from the last Schema message when it described this many
   * dictionaries; otherwise they are numbered 0, 1, ... in pre-order. */
  ids.ids = explicit_ids != NULL ? explicit_ids : (const int64_t*)private_data->schema_ids.data;
  ids.n_ids = explicit_ids != NULL ? n_dictionary_fields : private_data->schema_ids.size_bytes / 8;
  if (ids.n_ids != n_dictionary_fields) ids.n_ids = 0;
  ids.next = 0;
  /* The ids as resolved, for a projection that selects some of them later. */
  private_data->tree_ids.size_bytes = 0;
  if (ArrowBufferReserve(&private_data->tree_ids, n_dictionary_fields * 8) != NANOARROW_OK) {
    IpcDecoderResetDictionaries(private_data);
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  {
    int64_t i;
    for (i = 0; i < n_dictionary_fields; i++) {
      int64_t id = i < ids.n_ids ? ids.ids[i] : i;
      ArrowBufferAppendUnsafe(&private_data->tree_ids, &id, sizeof(id));
    }
  }

  result = IpcDecoderTreeInitWithIds(private_data, &private_data->tree, schema, adopt, 1, &ids,
                                     &n_encodings, error);
  private_data->encodings.encodings.size_bytes =
      n_encodings * (int64_t)sizeof(struct ArrowIpcDictionaryEncoding);
  if (result != NANOARROW_OK) {
    IpcDecoderResetDictionaries(private_data);
    ArrowIpcPrivateTreeReset(&private_data->tree);
    return result;
  }
  private_data->has_schema = 1;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderSetSchema(struct ArrowIpcDecoder* decoder,
                                        const struct ArrowSchema* schema,
                                        struct ArrowError* error) {
  /* Not adopted: the schema is only read (copied into the decoder's tree). */
  return IpcDecoderSetSchemaWithIds(decoder, (struct ArrowSchema*)schema, 0, NULL, error);
}

ArrowErrorCode ArrowIpcPrivateDecoderSetSchemaWithIds(struct ArrowIpcDecoder* decoder,
                                                    struct ArrowSchema* schema,
                                                    const int64_t* ids,
                                                    struct ArrowError* error) {
  return IpcDecoderSetSchemaWithIds(decoder, schema, 1, ids, error);
}

int64_t ArrowIpcPrivateCountDictionaries(const struct ArrowSchema* schema) {
  return IpcDecoderCountDictionaries(schema, 0);
}

ArrowErrorCode ArrowIpcPrivateDecoderAdoptSchema(struct ArrowIpcDecoder* decoder,
                                                 struct ArrowSchema* schema,
                                                 struct ArrowError* error) {
  ArrowErrorCode result = IpcDecoderSetSchemaWithIds(decoder, schema, 1, NULL, error);
  if (schema->release != NULL) ArrowSchemaRelease(schema);
  return result;
}

/* ---- Dictionaries ---- */

ArrowErrorCode ArrowIpcDecoderGetDictionaryEncodings(
    struct ArrowIpcDecoder* decoder, const struct ArrowIpcDictionaryEncodings** out) {
  *out = &IpcDecoderGetPrivate(decoder)->encodings;
  return NANOARROW_OK;
}

/* Appends the encoded fields under schema in pre-order (the order of the Schema
 * message's ids), with ids[k] for the k-th when ids is not NULL. */
static ArrowErrorCode IpcDecoderAppendEncodings(struct ArrowIpcDictionaryEncodings* encodings,
                                                const struct ArrowSchema* schema,
                                                const int64_t* ids, int64_t* k, int depth) {
  int64_t i;
  const struct ArrowSchema* value = schema;
  if (depth > NANOARROW_MAX_NESTING_DEPTH + 1) return EINVAL;
  if (schema->dictionary != NULL) {
    struct ArrowIpcDictionaryEncoding encoding;
    encoding.schema = schema;
    encoding.id = ids != NULL ? ids[*k] : ArrowIpcPrivateEncodingsCount(encodings);
    encoding.kind = NANOARROW_IPC_DICTIONARY_KIND_DENSE_ARRAY;
    (*k)++;
    NANOARROW_RETURN_NOT_OK(ArrowIpcDictionaryEncodingsAppend(encodings, encoding));
    value = schema->dictionary;
  }
  for (i = 0; i < value->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(
        IpcDecoderAppendEncodings(encodings, value->children[i], ids, k, depth + 1));
  }
  return NANOARROW_OK;
}

void ArrowIpcDictionaryEncodingsInit(struct ArrowIpcDictionaryEncodings* encodings) {
  ArrowBufferInit(&encodings->encodings);
}

void ArrowIpcDictionaryEncodingsReset(struct ArrowIpcDictionaryEncodings* encodings) {
  ArrowBufferReset(&encodings->encodings);
}

ArrowErrorCode ArrowIpcDictionaryEncodingsAppend(
    struct ArrowIpcDictionaryEncodings* encodings,
    struct ArrowIpcDictionaryEncoding encoding) {
  if (encoding.schema == NULL || encoding.schema->dictionary == NULL ||
      encoding.kind != NANOARROW_IPC_DICTIONARY_KIND_DENSE_ARRAY) {
    return EINVAL;
  }
  return ArrowBufferAppend(&encodings->encodings, &encoding, sizeof(encoding));
}

ArrowErrorCode ArrowIpcDictionaryEncodingsAppendSchema(
    struct ArrowIpcDictionaryEncodings* encodings, const struct ArrowSchema* schema) {
  int64_t k = 0;
  if (schema == NULL || schema->release == NULL) return EINVAL;
  return IpcDecoderAppendEncodings(encodings, schema, NULL, &k, 0);
}

const struct ArrowIpcDictionaryEncoding* ArrowIpcDictionaryEncodingsFind(
    const struct ArrowIpcDictionaryEncodings* encodings, const struct ArrowSchema* schema) {
  int64_t i;
  int64_t n = ArrowIpcPrivateEncodingsCount(encodings);
  const struct ArrowIpcDictionaryEncoding* data = ArrowIpcPrivateEncodingsData(encodings);
  if (schema == NULL) return NULL;
  for (i = 0; i < n; i++) {
    if (data[i].schema == schema) return &data[i];
  }
  return NULL;
}

const struct ArrowIpcDictionaryEncoding* ArrowIpcDictionaryEncodingsFindById(
    const struct ArrowIpcDictionaryEncodings* encodings, int64_t id) {
  int64_t i;
  int64_t n;
  const struct ArrowIpcDictionaryEncoding* data;
  if (encodings == NULL) return NULL;
  n = ArrowIpcPrivateEncodingsCount(encodings);
  data = ArrowIpcPrivateEncodingsData(encodings);
  for (i = 0; i < n; i++) {
    if (data[i].id == id) return &data[i];
  }
  return NULL;
}

ArrowErrorCode ArrowIpcDictionaryEncodingsUniqueIds(
    const struct ArrowIpcDictionaryEncodings* encodings, struct ArrowBuffer* ids) {
  int64_t i;
  int64_t n;
  const struct ArrowIpcDictionaryEncoding* data;
  if (encodings == NULL) return NANOARROW_OK;
  n = ArrowIpcPrivateEncodingsCount(encodings);
  data = ArrowIpcPrivateEncodingsData(encodings);
  /* Reserved at once so that a failure leaves ids as it was. */
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(ids, n * (int64_t)sizeof(int64_t)));
  for (i = 0; i < n; i++) {
    /* Whether an earlier encoding had this id (encodings lists are short). */
    if (ArrowIpcDictionaryEncodingsFindById(encodings, data[i].id) == &data[i]) {
      ArrowBufferAppendUnsafe(ids, &data[i].id, sizeof(int64_t));
    }
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderDecodeSchemaWithDictionaries(
    struct ArrowIpcDecoder* decoder, struct ArrowSchema* out,
    struct ArrowIpcDictionaryEncodings* encodings, struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  const int64_t* ids = (const int64_t*)private_data->schema_ids.data;
  int64_t k = 0;
  ArrowErrorCode result;
  /* encodings is output only: whatever it held is not looked at (nor freed). */
  ArrowIpcDictionaryEncodingsInit(encodings);
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderDecodeSchema(decoder, out, error));
  /* Every encoded Field of the message has one id, in the same pre-order. */
  if (private_data->schema_ids.size_bytes / 8 != IpcDecoderCountDictionaries(out, 0)) {
    ids = NULL;
  }
  result = IpcDecoderAppendEncodings(encodings, out, ids, &k, 0);
  if (result != NANOARROW_OK) {
    ArrowIpcDictionaryEncodingsReset(encodings);
    ArrowSchemaRelease(out);
    ArrowErrorSet(error, "could not collect the schema's dictionary encodings");
  }
  return result;
}

/* Collects the ids of schema's encoded fields in pre-order from encodings. */
static ArrowErrorCode IpcDecoderIdsFromEncodings(
    const struct ArrowSchema* schema, const struct ArrowIpcDictionaryEncodings* encodings,
    int64_t* ids, int64_t* k, int depth, struct ArrowError* error) {
  int64_t i;
  const struct ArrowSchema* value = schema;
  if (depth > NANOARROW_MAX_NESTING_DEPTH + 1) {
    ArrowErrorSet(error, "schema nested deeper than %d", NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (schema->dictionary != NULL) {
    /* Encodings are usually in the same pre-order: try slot k first. */
    const struct ArrowIpcDictionaryEncoding* encoding =
        *k < ArrowIpcPrivateEncodingsCount(encodings) && ArrowIpcPrivateEncodingsData(encodings)[*k].schema == schema
            ? &ArrowIpcPrivateEncodingsData(encodings)[*k]
            : ArrowIpcDictionaryEncodingsFind(encodings, schema);
    if (encoding == NULL) {
      ArrowErrorSet(error, "dictionary-encoded field '%s' has no encoding",
                    schema->name != NULL ? schema->name : "");
      return EINVAL;
    }
    ids[(*k)++] = encoding->id;
    value = schema->dictionary;
  }
  for (i = 0; i < value->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(IpcDecoderIdsFromEncodings(value->children[i], encodings, ids,
                                                       k, depth + 1, error));
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderSetSchemaWithDictionaries(
    struct ArrowIpcDecoder* decoder, const struct ArrowSchema* schema,
    const struct ArrowIpcDictionaryEncodings* encodings, struct ArrowError* error) {
  int64_t n;
  int64_t k = 0;
  int64_t* ids;
  ArrowErrorCode result;
  if (encodings == NULL) return ArrowIpcDecoderSetSchema(decoder, schema, error);
  if (schema == NULL || schema->release == NULL) {
    ArrowErrorSet(error, "schema is released");
    return EINVAL;
  }
  n = IpcDecoderCountDictionaries(schema, 0);
  ids = (int64_t*)ArrowMalloc((n + 1) * (int64_t)sizeof(int64_t));
  if (ids == NULL) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  result = IpcDecoderIdsFromEncodings(schema, encodings, ids, &k, 0, error);
  if (result == NANOARROW_OK) {
    result = IpcDecoderSetSchemaWithIds(decoder, (struct ArrowSchema*)schema, 0, ids, error);
  }
  ArrowFree(ids);
  return result;
}

/* ---- ArrowIpcDictionaries: id -> current values, sorted by id ---- */

struct IpcDecoderDictionariesPrivate {
  int64_t n;
  int64_t* ids;
  struct ArrowIpcSharedArray** values;
};

static int IpcDecoderCompareIds(const void* a, const void* b) {
  int64_t x = *(const int64_t*)a;
  int64_t y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcDictionariesInit(struct ArrowIpcDictionaries* dictionaries,
                                        const struct ArrowIpcDictionaryEncodings* encodings,
                                        struct ArrowError* error) {
  struct IpcDecoderDictionariesPrivate* private_data;
  int64_t n = encodings != NULL ? ArrowIpcPrivateEncodingsCount(encodings) : 0;
  int64_t i;
  dictionaries->private_data = NULL;
  private_data = (struct IpcDecoderDictionariesPrivate*)ArrowMalloc(
      sizeof(struct IpcDecoderDictionariesPrivate));
  if (private_data != NULL) {
    private_data->ids = (int64_t*)ArrowMalloc((n + 1) * (int64_t)sizeof(int64_t));
    private_data->values = (struct ArrowIpcSharedArray**)ArrowMalloc(
        (n + 1) * (int64_t)sizeof(struct ArrowIpcSharedArray*));
  }
  if (private_data == NULL || private_data->ids == NULL || private_data->values == NULL) {
    if (private_data != NULL) {
      ArrowFree(private_data->ids);
      ArrowFree(private_data->values);
      ArrowFree(private_data);
    }
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  for (i = 0; i < n; i++) private_data->ids[i] = ArrowIpcPrivateEncodingsData(encodings)[i].id;
  qsort(private_data->ids, (size_t)n, sizeof(int64_t), &IpcDecoderCompareIds);
  /* Several fields may share an id: keep each once. */
  private_data->n = 0;
  for (i = 0; i < n; i++) {
    if (private_data->n == 0 || private_data->ids[private_data->n - 1] != private_data->ids[i]) {
      private_data->values[private_data->n] = NULL;
      private_data->ids[private_data->n++] = private_data->ids[i];
    }
  }
  dictionaries->private_data = private_data;
  return NANOARROW_OK;
}

void ArrowIpcDictionariesReset(struct ArrowIpcDictionaries* dictionaries) {
  struct IpcDecoderDictionariesPrivate* private_data =
      (struct IpcDecoderDictionariesPrivate*)dictionaries->private_data;
  int64_t i;
  if (private_data == NULL) return;
  for (i = 0; i < private_data->n; i++) {
    if (private_data->values[i] != NULL) {
      ArrowIpcPrivateSharedArrayRelease(private_data->values[i]);
    }
  }
  ArrowFree(private_data->ids);
  ArrowFree(private_data->values);
  ArrowFree(private_data);
  dictionaries->private_data = NULL;
}

struct ArrowIpcSharedArray** ArrowIpcPrivateDictionariesSlot(
    const struct ArrowIpcDictionaries* dictionaries, int64_t id) {
  const struct IpcDecoderDictionariesPrivate* private_data =
      (const struct IpcDecoderDictionariesPrivate*)dictionaries->private_data;
  int64_t lo = 0;
  int64_t hi;
  if (private_data == NULL) return NULL;
  hi = private_data->n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (private_data->ids[mid] < id) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < private_data->n && private_data->ids[lo] == id ? &private_data->values[lo]
                                                              : NULL;
}

ArrowErrorCode ArrowIpcDictionariesFindCurrentValue(
    struct ArrowIpcDictionaries* dictionaries, int64_t id,
    const struct ArrowArray** out, struct ArrowError* error) {
  struct ArrowIpcSharedArray** slot = ArrowIpcPrivateDictionariesSlot(dictionaries, id);
  if (slot == NULL) {
    ArrowErrorSet(error, "dictionary id %ld is not one of the encodings", (long)id);
    return EINVAL;
  }
  if (*slot == NULL) {
    ArrowErrorSet(error, "no DictionaryBatch with id %ld has been decoded", (long)id);
    return EINVAL;
  }
  *out = &(*slot)->array;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderGetDictionary(struct ArrowIpcDecoder* decoder, int64_t id,
                                            const struct ArrowArray** out,
                                            struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
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

NANOARROW_COLD
void ArrowIpcFooterReset(struct ArrowIpcFooter* footer) {
  if (footer->schema.release != NULL) ArrowSchemaRelease(&footer->schema);
  ArrowBufferReset(&footer->record_batch_blocks);
  ArrowBufferReset(&footer->dictionary_blocks);
}

NANOARROW_COLD
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
  footer_size = ArrowIpcFbrLoadI32(tail);
  if (footer_size <= 0) {
    ArrowErrorSet(error, "footer size %d is invalid", (int)footer_size);
    return EINVAL;
  }
  /* The footer itself may lie outside data: a reader learns its size from the
   * last 10 bytes alone. */
  decoder->header_size_bytes = footer_size;
  return NANOARROW_OK;
}

NANOARROW_COLD
static ArrowErrorCode IpcDecoderVerifyFooterInternal(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowIpcFbrTable* footer,
                                           struct ArrowError* error) {
  const uint8_t* fb;
  int64_t fb_size;
  NANOARROW_RETURN_NOT_OK(ArrowIpcDecoderPeekFooter(decoder, data, error));
  fb_size = decoder->header_size_bytes;
  if (data.size_bytes - 10 < fb_size) {
    ArrowErrorSet(error, "expected a footer of %ld bytes before the last 10 but got %ld",
                  (long)fb_size, (long)(data.size_bytes - 10));
    return ESPIPE;
  }
  fb = data.data.as_uint8 + data.size_bytes - 10 - fb_size;
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateVerifyFooter(fb, fb_size, error));
  if (ArrowIpcFbrTableInit(fb, fb_size, (int64_t)ArrowIpcFbrLoadU32(fb), footer) != 0) {
    ArrowErrorSet(error, "invalid Footer table");
    return EINVAL;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderVerifyFooter(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error) {
  struct ArrowIpcFbrTable footer;
  return IpcDecoderVerifyFooterInternal(decoder, data, &footer, error);
}

NANOARROW_COLD
static ArrowErrorCode IpcDecoderReadBlocks(const struct ArrowIpcFbrTable* footer,
                                 enum ArrowIpcFbrFieldKey key,
                                 struct ArrowBuffer* out, struct ArrowError* error) {
  struct ArrowIpcFbrVector vec;
  int64_t i;
  out->size_bytes = 0;
  if (!ArrowIpcFbrGetVector(footer, key, &vec)) return NANOARROW_OK;
  if (ArrowBufferReserve(out, vec.n * (int64_t)sizeof(struct ArrowIpcFileBlock)) != 0) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  for (i = 0; i < vec.n; i++) {
    struct ArrowIpcFileBlock block;
    const uint8_t* p = vec.data + vec.pos + 24 * i;
    block.offset = ArrowIpcFbrLoadI64(p);
    block.metadata_length = ArrowIpcFbrLoadI32(p + 8);
    block.body_length = ArrowIpcFbrLoadI64(p + 16);
    ArrowBufferAppendUnsafe(out, &block, sizeof(block));
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcDecoderDecodeFooter(struct ArrowIpcDecoder* decoder,
                                           struct ArrowBufferView data,
                                           struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data = IpcDecoderGetPrivate(decoder);
  struct ArrowIpcFbrTable footer;
  struct ArrowIpcFbrTable schema;
  int32_t features;
  decoder->footer = NULL;
  NANOARROW_RETURN_NOT_OK(IpcDecoderVerifyFooterInternal(decoder, data, &footer, error));
  if (!ArrowIpcFbrGetTable(&footer, ARROW_IPC_FBR_FOOTER_SCHEMA, &schema)) {
    ArrowErrorSet(error, "Footer has no schema");
    return EINVAL;
  }
  ArrowIpcFooterReset(&private_data->footer);
  ArrowIpcFooterInit(&private_data->footer);
  NANOARROW_RETURN_NOT_OK(IpcDecoderReadSchemaBasics(decoder, &schema, error));
  NANOARROW_RETURN_NOT_OK(ArrowIpcPrivateDecodeSchema(
      &schema, &private_data->footer.schema, &decoder->endianness, &features, error));
  NANOARROW_RETURN_NOT_OK(
      IpcDecoderReadBlocks(&footer, ARROW_IPC_FBR_FOOTER_DICTIONARIES, &private_data->footer.dictionary_blocks, error));
  NANOARROW_RETURN_NOT_OK(
      IpcDecoderReadBlocks(&footer, ARROW_IPC_FBR_FOOTER_RECORD_BATCHES, &private_data->footer.record_batch_blocks, error));
  NANOARROW_RETURN_NOT_OK(
      IpcDecoderSetSchemaWithIds(decoder, &private_data->footer.schema, 0, NULL, error));
  decoder->footer = &private_data->footer;
  return NANOARROW_OK;
}
