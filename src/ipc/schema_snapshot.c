/* A read-only copy of a schema tree in a single allocation, for the IPC writer.
 *
 * The writer keeps the schema it announced, for the file footer and for column names
 * in messages. ArrowSchemaDeepCopy() gives every field its own struct and strings (as
 * nanoarrow's schemas must be, since a consumer may free and replace a child), which
 * for a 10,000-column schema made most of a stream write's allocations. A snapshot is
 * never handed to a caller, so its fields, child arrays and strings can share one
 * block that the root's release frees. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "ipc/ipc_private.h"

/* What a tree needs: its nodes (the root excluded, it is the caller's struct), its
 * child pointer slots, and the bytes of its strings and metadata. */
struct SchemaSnapshotSize {
  int64_t n_nodes;
  int64_t n_slots;
  int64_t n_bytes;
};

struct SchemaSnapshotCursor {
  struct ArrowSchema* nodes;
  struct ArrowSchema** slots;
  char* bytes;
};

static ArrowErrorCode SchemaSnapshotMeasure(const struct ArrowSchema* schema, int depth,
                                            struct SchemaSnapshotSize* size) {
  int64_t i;
  if (schema == NULL || schema->release == NULL || schema->format == NULL ||
      depth > NANOARROW_MAX_NESTING_DEPTH || schema->n_children < 0 ||
      (schema->n_children > 0 && schema->children == NULL)) {
    return EINVAL;
  }
  size->n_bytes += (int64_t)strlen(schema->format) + 1;
  if (schema->name != NULL) size->n_bytes += (int64_t)strlen(schema->name) + 1;
  if (schema->metadata != NULL) size->n_bytes += ArrowMetadataSizeOf(schema->metadata);
  size->n_slots += schema->n_children;
  size->n_nodes += schema->n_children + (schema->dictionary != NULL);
  for (i = 0; i < schema->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(SchemaSnapshotMeasure(schema->children[i], depth + 1, size));
  }
  if (schema->dictionary != NULL) {
    NANOARROW_RETURN_NOT_OK(SchemaSnapshotMeasure(schema->dictionary, depth + 1, size));
  }
  return NANOARROW_OK;
}

static const char* SchemaSnapshotBytes(struct SchemaSnapshotCursor* cursor,
                                       const char* data, int64_t n) {
  char* out = cursor->bytes;
  memcpy(out, data, (size_t)n);
  cursor->bytes += n;
  return out;
}

/* Children share the block: releasing one only marks it released. */
static void SchemaSnapshotReleaseChild(struct ArrowSchema* schema) {
  schema->release = NULL;
}

static void SchemaSnapshotReleaseRoot(struct ArrowSchema* schema) {
  ArrowFree(schema->private_data);
  schema->release = NULL;
}

/* Fills out from in; in was measured, so the block has room for everything. */
static void SchemaSnapshotFill(const struct ArrowSchema* in, struct ArrowSchema* out,
                               struct SchemaSnapshotCursor* cursor) {
  int64_t i;
  out->format = SchemaSnapshotBytes(cursor, in->format, (int64_t)strlen(in->format) + 1);
  out->name = in->name == NULL
                  ? NULL
                  : SchemaSnapshotBytes(cursor, in->name, (int64_t)strlen(in->name) + 1);
  out->metadata = in->metadata == NULL
                      ? NULL
                      : SchemaSnapshotBytes(cursor, in->metadata,
                                            ArrowMetadataSizeOf(in->metadata));
  out->flags = in->flags;
  out->n_children = in->n_children;
  out->children = NULL;
  out->dictionary = NULL;
  out->release = SchemaSnapshotReleaseChild;
  out->private_data = NULL;
  if (in->n_children > 0) {
    out->children = cursor->slots;
    cursor->slots += in->n_children;
    for (i = 0; i < in->n_children; i++) out->children[i] = cursor->nodes++;
    for (i = 0; i < in->n_children; i++) {
      SchemaSnapshotFill(in->children[i], out->children[i], cursor);
    }
  }
  if (in->dictionary != NULL) {
    out->dictionary = cursor->nodes++;
    SchemaSnapshotFill(in->dictionary, out->dictionary, cursor);
  }
}

ArrowErrorCode ArrowIpcPrivateSchemaSnapshot(const struct ArrowSchema* in,
                                             struct ArrowSchema* out) {
  struct SchemaSnapshotSize size = {0, 0, 0};
  struct SchemaSnapshotCursor cursor;
  int64_t nodes_bytes;
  int64_t slots_bytes;
  void* block;

  NANOARROW_RETURN_NOT_OK(SchemaSnapshotMeasure(in, 0, &size));
  nodes_bytes = size.n_nodes * (int64_t)sizeof(struct ArrowSchema);
  slots_bytes = size.n_slots * (int64_t)sizeof(struct ArrowSchema*);
  /* Never empty: the root's format takes at least one byte. */
  block = ArrowMalloc(nodes_bytes + slots_bytes + size.n_bytes);
  if (block == NULL) return ENOMEM;
  cursor.nodes = (struct ArrowSchema*)block;
  cursor.slots = (struct ArrowSchema**)((char*)block + nodes_bytes);
  cursor.bytes = (char*)block + nodes_bytes + slots_bytes;
  SchemaSnapshotFill(in, out, &cursor);
  out->release = SchemaSnapshotReleaseRoot;
  out->private_data = block;
  return NANOARROW_OK;
}
