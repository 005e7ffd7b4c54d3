/* cat --offset / --columns: a stream over another that skips rows and keeps some
 * top-level columns. Batches are decoded whole; the kept columns are moved into a
 * new struct array and the rest released with their parent. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "cli/cli_tools.h"

struct SelectStream {
  struct ArrowArrayStream inner;
  struct ArrowSchema schema;
  int64_t* indices;
  int64_t n_indices;
  int64_t to_skip;
  char error[1024];
};

static int SelectGetSchema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct SelectStream* select = (struct SelectStream*)stream->private_data;
  return ArrowSchemaDeepCopy(&select->schema, out);
}

static int SelectGetNext(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct SelectStream* select = (struct SelectStream*)stream->private_data;
  struct ArrowArray array;
  int64_t skip;
  int64_t j;
  int rc;

  select->error[0] = '\0';
  for (;;) {
    rc = select->inner.get_next(&select->inner, &array);
    if (rc != NANOARROW_OK) return rc;
    if (array.release == NULL) {
      out->release = NULL;
      return NANOARROW_OK;
    }
    if (select->to_skip < array.length) break;
    select->to_skip -= array.length;
    ArrowArrayRelease(&array);
  }
  skip = select->to_skip;
  select->to_skip = 0;

  rc = ArrowArrayInitFromType(out, NANOARROW_TYPE_STRUCT);
  /* Buffer pointers set (no validity) before the children arrive. */
  if (rc == NANOARROW_OK) rc = ArrowArrayFinishBuilding(out, NANOARROW_VALIDATION_LEVEL_NONE, NULL);
  if (rc == NANOARROW_OK) rc = ArrowArrayAllocateChildren(out, select->n_indices);
  if (rc != NANOARROW_OK) {
    if (out->release != NULL) ArrowArrayRelease(out);
    ArrowArrayRelease(&array);
    snprintf(select->error, sizeof(select->error), "cannot select columns: %s", strerror(rc));
    return rc;
  }
  for (j = 0; j < select->n_indices; j++) {
    ArrowArrayMove(array.children[select->indices[j]], out->children[j]);
  }
  /* Rows are skipped through the struct's offset; its children keep theirs. */
  out->offset = array.offset + skip;
  out->length = array.length - skip;
  out->null_count = 0;
  /* The columns not kept go with their parent. */
  ArrowArrayRelease(&array);
  return NANOARROW_OK;
}

static const char* SelectGetLastError(struct ArrowArrayStream* stream) {
  struct SelectStream* select = (struct SelectStream*)stream->private_data;
  if (select->error[0] != '\0') return select->error;
  return select->inner.get_last_error(&select->inner);
}

static void SelectRelease(struct ArrowArrayStream* stream) {
  struct SelectStream* select = (struct SelectStream*)stream->private_data;
  ArrowArrayStreamRelease(&select->inner);
  if (select->schema.release != NULL) ArrowSchemaRelease(&select->schema);
  free(select->indices);
  free(select);
  stream->release = NULL;
}

/* The index of the column named name[0, n) in schema, or -1. */
static int64_t FindColumn(const struct ArrowSchema* schema, const char* name, size_t n) {
  int64_t i;
  for (i = 0; i < schema->n_children; i++) {
    const char* child = schema->children[i]->name;
    if (child != NULL && strlen(child) == n && strncmp(child, name, n) == 0) return i;
  }
  return -1;
}

static ArrowErrorCode ResolveColumns(struct SelectStream* select,
                                     const struct ArrowSchema* full, const char* columns,
                                     struct ArrowError* error) {
  const char* p;
  int64_t n_max = full->n_children;
  int64_t i;
  /* At most one index per comma-separated name. */
  if (columns != NULL) {
    n_max = 1;
    for (p = columns; *p != '\0'; p++) n_max += *p == ',';
  }
  select->indices = (int64_t*)malloc((size_t)(n_max > 0 ? n_max : 1) * sizeof(int64_t));
  if (select->indices == NULL) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  if (columns == NULL) {
    for (i = 0; i < full->n_children; i++) select->indices[i] = i;
    select->n_indices = full->n_children;
    return NANOARROW_OK;
  }
  p = columns;
  for (;;) {
    size_t n = strcspn(p, ",");
    int64_t index = FindColumn(full, p, n);
    if (n == 0) {
      ArrowErrorSet(error, "--columns: empty column name in '%.200s'", columns);
      return EINVAL;
    }
    if (index < 0) {
      char names[600];
      size_t used = 0;
      names[0] = '\0';
      for (i = 0; i < full->n_children && used + 4 < sizeof(names); i++) {
        int w = snprintf(names + used, sizeof(names) - used, "%s%s", i > 0 ? ", " : "",
                         full->children[i]->name != NULL ? full->children[i]->name : "");
        if (w < 0) break;
        used += (size_t)w < sizeof(names) - used ? (size_t)w : sizeof(names) - used - 1;
      }
      ArrowErrorSet(error, "--columns: no column '%.*s' (the columns are: %s)",
                    (int)(n > 200 ? 200 : n), p, names);
      return EINVAL;
    }
    for (i = 0; i < select->n_indices; i++) {
      if (select->indices[i] == index) {
        ArrowErrorSet(error, "--columns: column '%.*s' named twice", (int)(n > 200 ? 200 : n), p);
        return EINVAL;
      }
    }
    select->indices[select->n_indices++] = index;
    if (p[n] == '\0') break;
    p += n + 1;
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliSelectStream(struct ArrowArrayStream* in, int64_t offset,
                               const char* columns, struct ArrowArrayStream* out,
                               struct ArrowError* error) {
  struct SelectStream* select = (struct SelectStream*)calloc(1, sizeof(struct SelectStream));
  struct ArrowSchema full;
  int64_t j;
  int rc;

  if (select == NULL) {
    ArrowArrayStreamRelease(in);
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  ArrowArrayStreamMove(in, &select->inner);
  select->to_skip = offset;
  out->private_data = select;
  out->get_schema = &SelectGetSchema;
  out->get_next = &SelectGetNext;
  out->get_last_error = &SelectGetLastError;
  out->release = &SelectRelease;

  rc = select->inner.get_schema(&select->inner, &full);
  if (rc != NANOARROW_OK) {
    const char* message = select->inner.get_last_error(&select->inner);
    ArrowErrorSet(error, "%s", message != NULL ? message : strerror(rc));
    ArrowArrayStreamRelease(out);
    return rc;
  }
  rc = ResolveColumns(select, &full, columns, error);
  if (rc == NANOARROW_OK) {
    /* The selected columns, in their order, under the schema's name and metadata. */
    ArrowSchemaInit(&select->schema);
    rc = ArrowSchemaSetTypeStruct(&select->schema, select->n_indices);
    if (rc == NANOARROW_OK) rc = ArrowSchemaSetName(&select->schema, full.name);
    if (rc == NANOARROW_OK) rc = ArrowSchemaSetMetadata(&select->schema, full.metadata);
    for (j = 0; rc == NANOARROW_OK && j < select->n_indices; j++) {
      ArrowSchemaRelease(select->schema.children[j]);
      rc = ArrowSchemaDeepCopy(full.children[select->indices[j]], select->schema.children[j]);
    }
    if (rc != NANOARROW_OK) ArrowErrorSet(error, "cannot select columns: %s", strerror(rc));
  }
  ArrowSchemaRelease(&full);
  if (rc != NANOARROW_OK) ArrowArrayStreamRelease(out);
  return rc;
}

ArrowErrorCode CliSelectCheckColumns(const struct ArrowSchema* schema, const char* columns,
                                     struct ArrowError* error) {
  struct SelectStream select;
  ArrowErrorCode rc;
  memset(&select, 0, sizeof(select));
  rc = ResolveColumns(&select, schema, columns, error);
  free(select.indices);
  return rc;
}
