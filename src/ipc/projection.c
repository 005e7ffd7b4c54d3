/* Column projection: the decoder reads a chosen subset of the top-level fields.
 *
 * A batch header lists FieldNodes, Buffers and variadic buffer counts depth-first
 * over the schema, so the entries of one top-level column are contiguous and the
 * counts of each column follow from the schema (plus, for buffers, the variadic
 * counts of its view fields). The decoder keeps the full schema's per-column
 * counts; each record batch header is checked against the full totals and its
 * selected entries copied into vectors of the projected schema's shape, which the
 * ordinary batch decoding then reads. Unselected columns are never looked at past
 * their counts. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

void ArrowIpcPrivateProjectionFree(struct ArrowIpcDecoderPrivate* private_data) {
  struct ArrowIpcProjection* projection = private_data->projection;
  if (projection == NULL) return;
  if (projection->full.release != NULL) ArrowSchemaRelease(&projection->full);
  ArrowFree(projection->columns);
  ArrowFree(projection->ids);
  ArrowFree(projection->selected);
  ArrowFree(projection->node_start);
  ArrowFree(projection->variadic_start);
  ArrowFree(projection->buffer_start);
  ArrowBufferReset(&projection->nodes);
  ArrowBufferReset(&projection->buffers);
  ArrowBufferReset(&projection->variadic);
  ArrowFree(projection);
  private_data->projection = NULL;
}

/* Adds field (and its children) to column's counts. The schema was checked when
 * it was set (nesting depth included). */
static ArrowErrorCode IpcProjectionCount(const struct ArrowSchema* field,
                                         struct ArrowIpcProjectionColumn* column,
                                         struct ArrowError* error) {
  struct ArrowSchemaView schema_view;
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&schema_view, field, error));
  column->n_nodes++;
  switch (schema_view.storage_type) {
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_STRING_VIEW:
      column->n_fixed_buffers += 2;
      column->n_variadic++;
      break;
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      column->n_unions++;
      /* fall through */
    default:
      for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS &&
                  schema_view.layout.buffer_type[i] != NANOARROW_BUFFER_TYPE_NONE;
           i++) {
        column->n_fixed_buffers++;
      }
      break;
  }
  for (i = 0; i < field->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(IpcProjectionCount(field->children[i], column, error));
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcPrivateProjectSchema(const struct ArrowSchema* full,
                                            const int64_t* selected, int64_t n,
                                            struct ArrowSchema* out,
                                            struct ArrowError* error) {
  int64_t i;
  ArrowErrorCode result;
  ArrowSchemaInit(out);
  result = ArrowSchemaSetTypeStruct(out, n);
  if (result == NANOARROW_OK) result = ArrowSchemaSetName(out, full->name);
  if (result == NANOARROW_OK) result = ArrowSchemaSetMetadata(out, full->metadata);
  out->flags = full->flags;
  for (i = 0; result == NANOARROW_OK && i < n; i++) {
    ArrowSchemaRelease(out->children[i]);
    result = ArrowSchemaDeepCopy(full->children[selected[i]], out->children[i]);
  }
  if (result != NANOARROW_OK) {
    if (out->release != NULL) ArrowSchemaRelease(out);
    ArrowErrorSet(error, "out of memory copying the projected schema");
  }
  return result;
}

ArrowErrorCode ArrowIpcPrivateResolveNames(const struct ArrowSchema* schema,
                                           const char* const* names, int64_t n,
                                           int64_t* out, struct ArrowError* error) {
  int64_t i;
  int64_t j;
  if (n > 0 && names == NULL) {
    ArrowErrorSet(error, "names is NULL");
    return EINVAL;
  }
  for (i = 0; i < n; i++) {
    if (names[i] == NULL) {
      ArrowErrorSet(error, "column name %ld is NULL", (long)i);
      return EINVAL;
    }
    for (j = 0; j < schema->n_children; j++) {
      const char* name = schema->children[j]->name;
      if (name != NULL && strcmp(name, names[i]) == 0) break;
    }
    if (j == schema->n_children) {
      ArrowErrorSet(error, "no column named '%.200s' (the schema has %ld columns)",
                    names[i], (long)schema->n_children);
      return EINVAL;
    }
    out[i] = j;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode IpcProjectionAlloc(int64_t n, int64_t** out) {
  *out = (int64_t*)ArrowMalloc((n > 0 ? n : 1) * (int64_t)sizeof(int64_t));
  return *out == NULL ? ENOMEM : NANOARROW_OK;
}

/* A projection of full (the decoder's schema, copied) for columns selected[0..n). */
static ArrowErrorCode IpcProjectionMake(struct ArrowIpcDecoderPrivate* private_data,
                                        const struct ArrowSchema* full,
                                        const int64_t* full_ids, int64_t n_ids,
                                        const int64_t* selected, int64_t n,
                                        struct ArrowIpcProjection** out,
                                        struct ArrowError* error) {
  struct ArrowIpcProjection* projection;
  int64_t i;
  ArrowErrorCode result = NANOARROW_OK;
  (void)private_data;
  projection = (struct ArrowIpcProjection*)ArrowMalloc(sizeof(struct ArrowIpcProjection));
  if (projection == NULL) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  memset(projection, 0, sizeof(*projection));
  ArrowBufferInit(&projection->nodes);
  ArrowBufferInit(&projection->buffers);
  ArrowBufferInit(&projection->variadic);
  projection->n_columns = full->n_children;
  projection->n_selected = n;
  projection->n_ids = n_ids;
  projection->columns = (struct ArrowIpcProjectionColumn*)ArrowMalloc(
      (full->n_children > 0 ? full->n_children : 1) *
      (int64_t)sizeof(struct ArrowIpcProjectionColumn));
  if (projection->columns == NULL || IpcProjectionAlloc(n_ids, &projection->ids) ||
      IpcProjectionAlloc(n, &projection->selected) ||
      IpcProjectionAlloc(full->n_children, &projection->node_start) ||
      IpcProjectionAlloc(full->n_children, &projection->variadic_start) ||
      IpcProjectionAlloc(full->n_children, &projection->buffer_start) ||
      ArrowSchemaDeepCopy(full, &projection->full) != NANOARROW_OK) {
    result = ENOMEM;
    ArrowErrorSet(error, "out of memory");
  }
  if (result == NANOARROW_OK) {
    if (n_ids > 0) memcpy(projection->ids, full_ids, (size_t)n_ids * sizeof(int64_t));
    if (n > 0) memcpy(projection->selected, selected, (size_t)n * sizeof(int64_t));
    memset(projection->columns, 0,
           (size_t)full->n_children * sizeof(struct ArrowIpcProjectionColumn));
  }
  for (i = 0; result == NANOARROW_OK && i < full->n_children; i++) {
    struct ArrowIpcProjectionColumn* column = &projection->columns[i];
    result = IpcProjectionCount(full->children[i], column, error);
    column->n_ids = ArrowIpcPrivateCountDictionaries(full->children[i]);
    projection->node_start[i] = projection->n_fields;
    projection->variadic_start[i] = projection->n_variadic;
    projection->n_fields += column->n_nodes;
    projection->n_fixed_buffers += column->n_fixed_buffers;
    projection->n_unions += column->n_unions;
    projection->n_variadic += column->n_variadic;
  }
  if (result != NANOARROW_OK) {
    struct ArrowIpcDecoderPrivate holder;
    holder.projection = projection;
    ArrowIpcPrivateProjectionFree(&holder);
    return result;
  }
  *out = projection;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcDecoderSetProjection(struct ArrowIpcDecoder* decoder,
                                            const int64_t* field_indices, int64_t n,
                                            struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data;
  struct ArrowIpcProjection* old;
  struct ArrowIpcProjection* projection = NULL;
  const struct ArrowSchema* full;
  const int64_t* full_ids;
  int64_t n_full_ids;
  struct ArrowSchema projected;
  struct ArrowBuffer ids;
  int64_t i;
  int64_t j;
  ArrowErrorCode result;
  if (decoder == NULL || decoder->private_data == NULL) return EINVAL;
  private_data = (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  if (!private_data->has_schema) {
    ArrowErrorSet(error, "the decoder has no schema to project (set it first)");
    return EINVAL;
  }
  old = private_data->projection;
  if (old != NULL) {
    full = &old->full;
    full_ids = old->ids;
    n_full_ids = old->n_ids;
  } else {
    full = &private_data->tree.schema;
    full_ids = (const int64_t*)private_data->tree_ids.data;
    n_full_ids = private_data->tree_ids.size_bytes / 8;
  }
  if (n < 0 || (n > 0 && field_indices == NULL) || (n == 0 && field_indices != NULL)) {
    ArrowErrorSet(error, "a projection needs n >= 1 column indices (NULL, 0 for none)");
    return EINVAL;
  }
  for (i = 0; i < n; i++) {
    if (field_indices[i] < 0 || field_indices[i] >= full->n_children) {
      ArrowErrorSet(error, "projected column %ld: index %ld is out of range [0, %ld)",
                    (long)i, (long)field_indices[i], (long)full->n_children);
      return EINVAL;
    }
    for (j = 0; j < i; j++) {
      if (field_indices[j] == field_indices[i]) {
        ArrowErrorSet(error, "projected column %ld: column %ld is selected twice",
                      (long)i, (long)field_indices[i]);
        return EINVAL;
      }
    }
  }
  if (n == 0 && old == NULL) return NANOARROW_OK;
  if (n > 0) {
    NANOARROW_RETURN_NOT_OK(IpcProjectionMake(private_data, full, full_ids, n_full_ids,
                                              field_indices, n, &projection, error));
  }

  /* The projected schema's dictionary ids: the selected columns' ranges. */
  ArrowBufferInit(&ids);
  result = NANOARROW_OK;
  if (projection != NULL) {
    int64_t* id_start = NULL;
    result = IpcProjectionAlloc(projection->n_columns, &id_start);
    if (result == NANOARROW_OK) {
      int64_t next = 0;
      for (i = 0; i < projection->n_columns; i++) {
        id_start[i] = next;
        next += projection->columns[i].n_ids;
      }
      if (next != n_full_ids) {
        ArrowErrorSet(error, "the schema's %ld dictionary ids do not match its %ld encoded fields",
                      (long)n_full_ids, (long)next);
        result = EINVAL;
      }
      for (i = 0; result == NANOARROW_OK && i < n; i++) {
        int64_t c = field_indices[i];
        if (projection->columns[c].n_ids == 0) continue;
        result = ArrowBufferAppend(&ids, full_ids + id_start[c],
                                   projection->columns[c].n_ids * (int64_t)sizeof(int64_t));
      }
      ArrowFree(id_start);
    }
    if (result == NANOARROW_OK) {
      result = ArrowIpcPrivateProjectSchema(full, field_indices, n, &projected, error);
    }
  } else {
    result = ArrowSchemaDeepCopy(full, &projected);
    if (result == NANOARROW_OK && n_full_ids > 0) {
      result = ArrowBufferAppend(&ids, full_ids, n_full_ids * 8);
    }
  }
  if (result != NANOARROW_OK) {
    if (error->message[0] == '\0') ArrowErrorSet(error, "out of memory");
    ArrowBufferReset(&ids);
    if (projection != NULL) {
      private_data->projection = projection;
      ArrowIpcPrivateProjectionFree(private_data);
      private_data->projection = old;
    }
    return result;
  }

  /* Setting the schema keeps the old projection (whose schema full may be) until
   * the new one is in place. */
  private_data->setting_projection = 1;
  result = ArrowIpcPrivateDecoderSetSchemaWithIds(decoder, &projected,
                                                  (const int64_t*)ids.data, error);
  private_data->setting_projection = 0;
  ArrowBufferReset(&ids);
  if (projected.release != NULL) ArrowSchemaRelease(&projected);
  private_data->projection = old;
  ArrowIpcPrivateProjectionFree(private_data);
  private_data->projection = projection;
  if (result != NANOARROW_OK) ArrowIpcPrivateProjectionFree(private_data);
  return result;
}

ArrowErrorCode ArrowIpcDecoderSetProjectionByName(struct ArrowIpcDecoder* decoder,
                                                  const char* const* names, int64_t n,
                                                  struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data;
  const struct ArrowSchema* full;
  int64_t* indices;
  ArrowErrorCode result;
  if (decoder == NULL || decoder->private_data == NULL || n < 0) return EINVAL;
  private_data = (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  if (!private_data->has_schema) {
    ArrowErrorSet(error, "the decoder has no schema to project (set it first)");
    return EINVAL;
  }
  full = private_data->projection != NULL ? &private_data->projection->full
                                          : &private_data->tree.schema;
  if (IpcProjectionAlloc(n, &indices) != NANOARROW_OK) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  result = ArrowIpcPrivateResolveNames(full, names, n, indices, error);
  if (result == NANOARROW_OK) {
    result = ArrowIpcDecoderSetProjection(decoder, n > 0 ? indices : NULL, n, error);
  }
  ArrowFree(indices);
  return result;
}

int ArrowIpcPrivateProjectionSkipsId(const struct ArrowIpcDecoderPrivate* private_data,
                                     int64_t id) {
  int64_t i;
  if (private_data->projection == NULL) return 0;
  for (i = 0; i < private_data->n_dictionaries; i++) {
    if (private_data->dictionaries[i].id == id) return 0;
  }
  for (i = 0; i < private_data->projection->n_ids; i++) {
    if (private_data->projection->ids[i] == id) return 1;
  }
  return 0;
}

ArrowErrorCode ArrowIpcPrivateProjectHeader(struct ArrowIpcDecoder* decoder,
                                            struct ArrowIpcBatchHeader* header,
                                            struct ArrowError* error) {
  struct ArrowIpcDecoderPrivate* private_data =
      (struct ArrowIpcDecoderPrivate*)decoder->private_data;
  struct ArrowIpcProjection* projection = private_data->projection;
  int legacy_unions = decoder->metadata_version < NANOARROW_IPC_METADATA_VERSION_V5;
  int64_t expected;
  int64_t i;
  int64_t c;
  int64_t n_nodes = 0;
  int64_t n_buffers = 0;
  int64_t n_variadic = 0;

  if (header->nodes.n != projection->n_fields) {
    ArrowErrorSet(error, "Expected %ld field nodes in message but found %ld",
                  (long)projection->n_fields, (long)header->nodes.n);
    return EINVAL;
  }
  if (header->variadic_counts.n != projection->n_variadic) {
    ArrowErrorSet(error, "Expected %ld variadic buffer counts in message but found %ld",
                  (long)projection->n_variadic, (long)header->variadic_counts.n);
    return EINVAL;
  }
  /* Where each column's buffers start: its fixed buffers, and the variadic
   * buffers its view fields declare. */
  expected = 0;
  for (c = 0; c < projection->n_columns; c++) {
    const struct ArrowIpcProjectionColumn* column = &projection->columns[c];
    projection->buffer_start[c] = expected;
    expected += column->n_fixed_buffers + (legacy_unions ? column->n_unions : 0);
    for (i = 0; i < column->n_variadic; i++) {
      int64_t v = ArrowIpcFbrLoadI64(header->variadic_counts.data + header->variadic_counts.pos +
                                     8 * (projection->variadic_start[c] + i));
      if (v < 0 || v > INT32_MAX) {
        ArrowErrorSet(error, "variadic buffer count %ld of view field %ld is invalid",
                      (long)v, (long)(projection->variadic_start[c] + i));
        return EINVAL;
      }
      expected += v;
    }
  }
  if (header->buffers.n != expected) {
    ArrowErrorSet(error, "Expected %ld buffers in message but found %ld", (long)expected,
                  (long)header->buffers.n);
    return EINVAL;
  }

  for (i = 0; i < projection->n_selected; i++) {
    c = projection->selected[i];
    n_nodes += projection->columns[c].n_nodes;
    n_variadic += projection->columns[c].n_variadic;
    n_buffers += (c + 1 < projection->n_columns ? projection->buffer_start[c + 1] : expected) -
                 projection->buffer_start[c];
  }
  projection->nodes.size_bytes = 0;
  projection->buffers.size_bytes = 0;
  projection->variadic.size_bytes = 0;
  if (ArrowBufferReserve(&projection->nodes, 16 * n_nodes + 1) != NANOARROW_OK ||
      ArrowBufferReserve(&projection->buffers, 16 * n_buffers + 1) != NANOARROW_OK ||
      ArrowBufferReserve(&projection->variadic, 8 * n_variadic + 1) != NANOARROW_OK) {
    ArrowErrorSet(error, "out of memory projecting a batch header");
    return ENOMEM;
  }
  for (i = 0; i < projection->n_selected; i++) {
    int64_t buffer_end;
    c = projection->selected[i];
    buffer_end =
        c + 1 < projection->n_columns ? projection->buffer_start[c + 1] : expected;
    /* A message may hold no nodes or buffers vector at all (a NULL base): nothing is
     * copied, and no pointer is formed from it, for an empty range. */
    if (projection->columns[c].n_nodes > 0) {
      ArrowBufferAppendUnsafe(
          &projection->nodes,
          header->nodes.data + header->nodes.pos + 16 * projection->node_start[c],
          16 * projection->columns[c].n_nodes);
    }
    if (buffer_end > projection->buffer_start[c]) {
      ArrowBufferAppendUnsafe(
          &projection->buffers,
          header->buffers.data + header->buffers.pos + 16 * projection->buffer_start[c],
          16 * (buffer_end - projection->buffer_start[c]));
    }
    if (projection->columns[c].n_variadic > 0) {
      ArrowBufferAppendUnsafe(&projection->variadic,
                              header->variadic_counts.data + header->variadic_counts.pos +
                                  8 * projection->variadic_start[c],
                              8 * projection->columns[c].n_variadic);
    }
  }
  header->nodes.data = projection->nodes.data;
  header->nodes.size = projection->nodes.size_bytes;
  header->nodes.pos = 0;
  header->nodes.n = n_nodes;
  header->buffers.data = projection->buffers.data;
  header->buffers.size = projection->buffers.size_bytes;
  header->buffers.pos = 0;
  header->buffers.n = n_buffers;
  header->variadic_counts.data = projection->variadic.data;
  header->variadic_counts.size = projection->variadic.size_bytes;
  header->variadic_counts.pos = 0;
  header->variadic_counts.n = n_variadic;
  return NANOARROW_OK;
}
