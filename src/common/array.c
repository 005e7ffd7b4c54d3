/* Building arrays: initialization, buffer management, release and validation of the
 * arrays whose element-wise appenders live in nanoarrow_array_inline.h. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "common/allocation_private.h"

/* Size of a union type id map: [0, 128) type id -> child index, [128, 256) back. */
#define ARROW_ARRAY_UNION_MAP_SIZE 256

/* ---- Release ---- */

static void ArrowArrayReleaseChild(struct ArrowArray* child) {
  if (child == NULL) {
    return;
  }
  /* A child that was moved out (or never initialized) has release == NULL. */
  if (child->release != NULL) {
    child->release(child);
  }
  ArrowFree(child);
}

static void ArrowArrayReleaseInternal(struct ArrowArray* array) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  int64_t i;

  if (private_data != NULL) {
    ArrowBitmapReset(&private_data->bitmap);
    for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS - 1; i++) {
      ArrowBufferReset(&private_data->buffers[i]);
    }
    for (i = 0; i < private_data->n_variadic_buffers; i++) {
      ArrowBufferReset(&private_data->variadic_buffers[i]);
    }
    ArrowFree(private_data->variadic_buffers);
    ArrowFree((void*)private_data->buffer_data);
    ArrowFree(private_data);
  }

  if (array->children != NULL) {
    for (i = 0; i < array->n_children; i++) {
      ArrowArrayReleaseChild(array->children[i]);
    }
    ArrowFree(array->children);
  }
  ArrowArrayReleaseChild(array->dictionary);

  array->private_data = NULL;
  array->children = NULL;
  array->dictionary = NULL;
  array->buffers = NULL;
  array->release = NULL;
}

/* True for an array made by ArrowArrayInit*() (its private_data is ours). Children and
 * dictionaries may also be arrays moved in from elsewhere, with their own release
 * callback: building the parent leaves those as they are and reads only their public
 * fields. */
static int ArrowArrayIsBuilt(const struct ArrowArray* array) {
  return array->release == &ArrowArrayReleaseInternal;
}


/* EINVAL (with a message) for a child or dictionary slot that holds no array: NULL,
 * or allocated but never initialized (or released). */
static ArrowErrorCode ArrowArrayCheckSlot(const struct ArrowArray* slot,
                                          struct ArrowError* error) {
  if (slot == NULL) {
    ArrowErrorSet(error, "is NULL");
    return EINVAL;
  }
  if (slot->release == NULL) {
    ArrowErrorSet(error, "was never initialized or was released");
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* ---- Buffer bookkeeping ---- */

/* One out-of-line copy of the inline buffer growth code for all of this file, which
 * grows buffers once per array rather than once per element. */
static NANOARROW_NOINLINE ArrowErrorCode
ArrowArrayReserveBytes(struct ArrowBuffer* buffer, int64_t additional_bytes) {
  return ArrowBufferReserve(buffer, additional_bytes);
}

static ArrowErrorCode ArrowArrayCopyInto(struct ArrowBuffer* buffer, const void* data,
                                         int64_t size_bytes) {
  NANOARROW_RETURN_NOT_OK(ArrowArrayReserveBytes(buffer, size_bytes));
  if (size_bytes > 0) {
    memcpy(buffer->data + buffer->size_bytes, data, (size_t)size_bytes);
    buffer->size_bytes += size_bytes;
  }
  return NANOARROW_OK;
}

static int ArrowArrayIsBinaryView(enum ArrowType storage_type) {
  return storage_type == NANOARROW_TYPE_BINARY_VIEW ||
         storage_type == NANOARROW_TYPE_STRING_VIEW;
}

/* Number of buffers before any variadic ones. */
static int64_t ArrowArrayFixedBufferCount(const struct ArrowArrayPrivateData* private_data) {
  int64_t n = 0;
  if (ArrowArrayIsBinaryView(private_data->storage_type)) {
    return 2;
  }
  while (n < NANOARROW_MAX_FIXED_BUFFERS &&
         private_data->layout.buffer_type[n] != NANOARROW_BUFFER_TYPE_NONE) {
    n++;
  }
  return n;
}

/* True when buffers are numbered as in a binary view array (validity, views, the
 * variadic buffers, their sizes): view types, and an array of no storage type yet
 * (ArrowArrayInitFromType(NANOARROW_TYPE_UNINITIALIZED)) once it has variadic
 * buffers. ArrowArrayBuffer() numbers them the same way. */
static int ArrowArrayUsesViewSlots(const struct ArrowArrayPrivateData* private_data) {
  return ArrowArrayIsBinaryView(private_data->storage_type) ||
         (private_data->storage_type == NANOARROW_TYPE_UNINITIALIZED &&
          private_data->n_variadic_buffers > 0);
}

/* Total buffer count as exported: view types add their variadic data buffers and
 * the buffer of variadic sizes. An array of no storage type yet has every fixed slot
 * (its caller sets array->n_buffers and the buffers, as nanoarrow allows). */
static int64_t ArrowArrayBufferCount(const struct ArrowArrayPrivateData* private_data) {
  if (ArrowArrayUsesViewSlots(private_data)) {
    return 2 + (int64_t)private_data->n_variadic_buffers + 1;
  }
  if (private_data->storage_type == NANOARROW_TYPE_UNINITIALIZED) {
    return NANOARROW_MAX_FIXED_BUFFERS;
  }
  return ArrowArrayFixedBufferCount(private_data);
}

/* Points array->buffers at the current data of every buffer. A validity bitmap that
 * was never needed stays NULL. The variadic sizes of a view array (unless the caller
 * set that buffer) are the sizes of its variadic buffers, written here when the sizes
 * buffer has room (ArrowArrayAddVariadicBuffers() and finishing give it room). */
static void ArrowArrayFlushBufferPointers(struct ArrowArray* array) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  int64_t n_buffers = ArrowArrayBufferCount(private_data);
  int64_t i;

  if (ArrowArrayIsBinaryView(private_data->storage_type) &&
      !private_data->variadic_sizes_from_caller &&
      private_data->buffers[1].size_bytes >=
          (int64_t)sizeof(int64_t) * private_data->n_variadic_buffers) {
    for (i = 0; i < private_data->n_variadic_buffers; i++) {
      int64_t size_bytes = private_data->variadic_buffers[i].size_bytes;
      memcpy(private_data->buffers[1].data + i * (int64_t)sizeof(int64_t), &size_bytes,
             sizeof(int64_t));
    }
  }
  for (i = 0; i < n_buffers; i++) {
    private_data->buffer_data[i] = ArrowArrayBuffer(array, i)->data;
  }
  /* Without a storage type the count is the caller's (0 after initialization). */
  if (private_data->storage_type != NANOARROW_TYPE_UNINITIALIZED) {
    array->n_buffers = n_buffers;
  }
  array->buffers = private_data->buffer_data;
}

/* ---- Initialization ---- */

static int ArrowArrayIsBuildableType(enum ArrowType storage_type) {
  switch (storage_type) {
    case NANOARROW_TYPE_UNINITIALIZED:
    case NANOARROW_TYPE_NA:
    case NANOARROW_TYPE_BOOL:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT64:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_DATE64:
    case NANOARROW_TYPE_TIMESTAMP:
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_INTERVAL_MONTHS:
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_STRUCT:
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
    case NANOARROW_TYPE_MAP:
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
    case NANOARROW_TYPE_DURATION:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
    case NANOARROW_TYPE_RUN_END_ENCODED:
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      return 1;
    default:
      /* DICTIONARY and EXTENSION are not storage types. */
      return 0;
  }
}

/* The element width and range of values ArrowArrayAppendInt() checks against. */
static void ArrowArraySetAppendIntRange(struct ArrowArrayPrivateData* private_data) {
  int64_t width = 0;
  int is_signed = 1;
  switch (private_data->storage_type) {
    case NANOARROW_TYPE_INT8:
      width = 1;
      break;
    case NANOARROW_TYPE_UINT8:
      width = 1;
      is_signed = 0;
      break;
    case NANOARROW_TYPE_INT16:
      width = 2;
      break;
    case NANOARROW_TYPE_UINT16:
      width = 2;
      is_signed = 0;
      break;
    /* INTERVAL_MONTHS is left out on purpose: as in nanoarrow, its values are
     * appended with ArrowArrayAppendInterval() and the integer appenders refuse it. */
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_TIME32:
      width = 4;
      break;
    case NANOARROW_TYPE_UINT32:
      width = 4;
      is_signed = 0;
      break;
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_DATE64:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_TIMESTAMP:
    case NANOARROW_TYPE_DURATION:
      width = 8;
      break;
    case NANOARROW_TYPE_UINT64:
      width = 8;
      is_signed = 0;
      break;
    default:
      break;
  }
  private_data->append_int_width = width;
  /* Empty unless some integers fit. */
  private_data->append_int_min = 1;
  private_data->append_int_max = 0;
  if (width == 8) {
    private_data->append_int_min = is_signed ? INT64_MIN : 0;
    private_data->append_int_max = INT64_MAX;
  } else if (width > 0) {
    int64_t n_values = (int64_t)1 << (8 * width);
    private_data->append_int_min = is_signed ? -(n_values / 2) : 0;
    private_data->append_int_max = is_signed ? n_values / 2 - 1 : n_values - 1;
  }
}

ArrowErrorCode ArrowArrayInitFromType(struct ArrowArray* array,
                                      enum ArrowType storage_type) {
  struct ArrowArrayPrivateData* private_data;
  int64_t i;

  array->length = 0;
  array->null_count = 0;
  array->offset = 0;
  array->n_buffers = 0;
  array->n_children = 0;
  array->buffers = NULL;
  array->children = NULL;
  array->dictionary = NULL;
  array->release = NULL;
  array->private_data = NULL;

  if (!ArrowArrayIsBuildableType(storage_type)) {
    return EINVAL;
  }

  private_data =
      (struct ArrowArrayPrivateData*)ArrowMalloc(sizeof(struct ArrowArrayPrivateData));
  if (private_data == NULL) {
    return ENOMEM;
  }
  ArrowBitmapInit(&private_data->bitmap);
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS - 1; i++) {
    ArrowBufferInit(&private_data->buffers[i]);
  }
  private_data->storage_type = storage_type;
  ArrowArraySetAppendIntRange(private_data);
  ArrowLayoutInit(&private_data->layout, storage_type);
  private_data->union_type_id_is_child_index = 1;
  private_data->list_view_offset = 0;
  private_data->variadic_sizes_from_caller = 0;
  private_data->n_variadic_buffers = 0;
  private_data->variadic_buffers = NULL;

  /* Room for every fixed buffer plus the variadic sizes buffer of view types. */
  private_data->buffer_data =
      (const void**)ArrowMalloc(sizeof(void*) * (NANOARROW_MAX_FIXED_BUFFERS + 1));
  if (private_data->buffer_data == NULL) {
    ArrowFree(private_data);
    return ENOMEM;
  }
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS + 1; i++) {
    private_data->buffer_data[i] = NULL;
  }

  array->private_data = private_data;
  array->release = &ArrowArrayReleaseInternal;
  ArrowArrayFlushBufferPointers(array);
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayAllocateChildren(struct ArrowArray* array, int64_t n_children) {
  int64_t i;
  if (array->children != NULL || n_children < 0) {
    return EINVAL;
  }
  if (n_children == 0) {
    return NANOARROW_OK;
  }
  /* The whole request (a pointer and a struct per child) before any of it. */
  NANOARROW_RETURN_NOT_OK(ArrowPrivateCheckAllocation(
      n_children, (int64_t)(sizeof(struct ArrowArray*) + sizeof(struct ArrowArray))));
  array->children =
      (struct ArrowArray**)ArrowMalloc((int64_t)sizeof(struct ArrowArray*) * n_children);
  if (array->children == NULL) {
    return ENOMEM;
  }
  for (i = 0; i < n_children; i++) {
    array->children[i] = NULL;
  }
  /* Publish the count now so that a partial failure is cleaned up by release. */
  array->n_children = n_children;
  for (i = 0; i < n_children; i++) {
    array->children[i] = (struct ArrowArray*)ArrowMalloc(sizeof(struct ArrowArray));
    if (array->children[i] == NULL) {
      return ENOMEM;
    }
    memset(array->children[i], 0, sizeof(struct ArrowArray));
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayAllocateDictionary(struct ArrowArray* array) {
  if (array->dictionary != NULL) {
    return EINVAL;
  }
  array->dictionary = (struct ArrowArray*)ArrowMalloc(sizeof(struct ArrowArray));
  if (array->dictionary == NULL) {
    return ENOMEM;
  }
  memset(array->dictionary, 0, sizeof(struct ArrowArray));
  return NANOARROW_OK;
}

/* Prefixes error's message with where in the tree it happened, e.g.
 * "children[1].children[0]: ...". */
static NANOARROW_COLD void ArrowArrayErrorPrefix(struct ArrowError* error,
                                                 const char* where) {
  char message[sizeof(error->message)];
  const char* separator;
  if (error == NULL) {
    return;
  }
  memcpy(message, error->message, sizeof(message));
  message[sizeof(message) - 1] = '\0';
  separator = (strncmp(message, "children[", 9) == 0 || strncmp(message, "dictionary", 10) == 0)
                  ? "."
                  : ": ";
  ArrowErrorSet(error, "%s%s%s", where, separator, message);
}

static NANOARROW_COLD void ArrowArrayErrorPrefixChild(struct ArrowError* error,
                                                      int64_t i) {
  char where[48];
  snprintf(where, sizeof(where), "children[%" PRId64 "]", i);
  ArrowArrayErrorPrefix(error, where);
}

/* Stores a union's type id -> child index map (see nanoarrow_array_inline.h) unless
 * the type ids are the child indices. type_ids has n_children entries in [0, 127]. */
static NANOARROW_COLD ArrowErrorCode ArrowArraySetUnionTypeIds(struct ArrowArray* array,
                                                               const int8_t* type_ids,
                                                               int64_t n_children,
                                                               struct ArrowError* error) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  struct ArrowBuffer* map_buffer = &private_data->buffers[1];
  int8_t map[ARROW_ARRAY_UNION_MAP_SIZE];
  int is_child_index = 1;
  int64_t i;

  if (n_children > 128) {
    ArrowErrorSet(error, "union with %" PRId64 " children (at most 128)", n_children);
    return EINVAL;
  }
  memset(map, -1, sizeof(map));
  for (i = 0; i < n_children; i++) {
    int8_t type_id = type_ids[i];
    if (type_id < 0) {
      ArrowErrorSet(error, "union type id %d is negative", (int)type_id);
      return EINVAL;
    }
    if (map[type_id] != -1) {
      ArrowErrorSet(error, "union type id %d is used by more than one child", (int)type_id);
      return EINVAL;
    }
    map[type_id] = (int8_t)i;
    map[128 + i] = type_id;
    if (type_id != i) {
      is_child_index = 0;
    }
  }

  ArrowBufferReset(map_buffer);
  private_data->union_type_id_is_child_index = (int8_t)is_child_index;
  if (!is_child_index) {
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowArrayCopyInto(map_buffer, map, sizeof(map)),
                                       error);
  }
  return NANOARROW_OK;
}

/* Parses the comma-separated type ids of a union format string ("+ud:0,5,3"), which
 * ArrowSchemaViewInit() has checked already: this parse only keeps the writes to out
 * in bounds (ArrowArraySetUnionTypeIds() rejects duplicates). */
static NANOARROW_COLD ArrowErrorCode
ArrowArrayParseUnionTypeIds(const char* type_ids_text, int64_t n_children, int8_t* out,
                            struct ArrowError* error) {
  const char* p = type_ids_text == NULL ? "" : type_ids_text;
  int64_t count = 0;

  while (count < n_children && *p >= '0' && *p <= '9') {
    int value = 0;
    while (*p >= '0' && *p <= '9' && value <= 127) {
      value = value * 10 + (*p - '0');
      p++;
    }
    if (value > 127) {
      break;
    }
    out[count++] = (int8_t)value;
    if (*p == ',' && p[1] != '\0') {
      p++;
    }
  }
  if (*p != '\0' || count != n_children) {
    ArrowErrorSet(error, "expected %" PRId64 " union type ids in [0, 127] but found '%s'",
                  n_children, type_ids_text == NULL ? "" : type_ids_text);
    return EINVAL;
  }
  return NANOARROW_OK;
}

static NANOARROW_COLD ArrowErrorCode ArrowArrayInitFromSchemaRecursive(
    struct ArrowArray* array, const struct ArrowSchema* schema, int depth,
    struct ArrowError* error) {
  struct ArrowSchemaView schema_view;
  struct ArrowArrayPrivateData* private_data;
  int64_t i;
  int rc;

  /* A zeroed array is safe to release whatever happens below. */
  memset(array, 0, sizeof(struct ArrowArray));
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "schema is nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&schema_view, schema, error));
  if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == NULL)) {
    ArrowErrorSet(error, "schema has invalid children (n_children %" PRId64 ")",
                  schema->n_children);
    return EINVAL;
  }

  rc = ArrowArrayInitFromType(array, schema_view.storage_type);
  if (rc != NANOARROW_OK) {
    ArrowErrorSet(error, "cannot build an array of storage type %d",
                  (int)schema_view.storage_type);
    return rc;
  }
  private_data = (struct ArrowArrayPrivateData*)array->private_data;

  switch (schema_view.storage_type) {
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      private_data->layout.element_size_bits[1] = (int64_t)schema_view.fixed_size * 8;
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      private_data->layout.child_size_elements = schema_view.fixed_size;
      break;
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION: {
      int8_t type_ids[128];
      if (schema->n_children > 128) {
        ArrowErrorSet(error, "union with %" PRId64 " children (at most 128)",
                      schema->n_children);
        return EINVAL;
      }
      NANOARROW_RETURN_NOT_OK(ArrowArrayParseUnionTypeIds(
          schema_view.union_type_ids, schema->n_children, type_ids, error));
      NANOARROW_RETURN_NOT_OK(
          ArrowArraySetUnionTypeIds(array, type_ids, schema->n_children, error));
      break;
    }
    default:
      break;
  }

  NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowArrayAllocateChildren(array, schema->n_children),
                                     error);
  for (i = 0; i < schema->n_children; i++) {
    rc = ArrowArrayInitFromSchemaRecursive(array->children[i], schema->children[i],
                                           depth + 1, error);
    if (rc != NANOARROW_OK) {
      ArrowArrayErrorPrefixChild(error, i);
      return rc;
    }
  }

  if (schema->dictionary != NULL) {
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowArrayAllocateDictionary(array), error);
    rc = ArrowArrayInitFromSchemaRecursive(array->dictionary, schema->dictionary, depth + 1,
                                           error);
    if (rc != NANOARROW_OK) {
      ArrowArrayErrorPrefix(error, "dictionary");
      return rc;
    }
  }
  return NANOARROW_OK;
}

NANOARROW_COLD ArrowErrorCode ArrowArrayInitFromSchema(struct ArrowArray* array,
                                                       const struct ArrowSchema* schema,
                                                       struct ArrowError* error) {
  int rc = ArrowArrayInitFromSchemaRecursive(array, schema, 0, error);
  if (rc != NANOARROW_OK && array->release != NULL) {
    ArrowArrayRelease(array);
  }
  return rc;
}

static NANOARROW_COLD ArrowErrorCode ArrowArrayInitFromArrayViewRecursive(
    struct ArrowArray* array, const struct ArrowArrayView* array_view, int depth,
    struct ArrowError* error) {
  struct ArrowArrayPrivateData* private_data;
  int64_t n_fixed;
  int64_t i;
  int rc;

  memset(array, 0, sizeof(struct ArrowArray));
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "array view is nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  rc = ArrowArrayInitFromType(array, array_view->storage_type);
  if (rc != NANOARROW_OK) {
    ArrowErrorSet(error, "cannot build an array of storage type %d",
                  (int)array_view->storage_type);
    return rc;
  }
  private_data = (struct ArrowArrayPrivateData*)array->private_data;
  /* The view's layout carries fixed sizes the storage type alone does not. */
  private_data->layout = array_view->layout;
  n_fixed = ArrowArrayFixedBufferCount(private_data);

  array->length = array_view->length;
  array->offset = array_view->offset;
  array->null_count = array_view->null_count >= 0
                          ? array_view->null_count
                          : ArrowArrayViewComputeNullCount(array_view);

  for (i = 0; i < n_fixed; i++) {
    struct ArrowBufferView source = array_view->buffer_views[i];
    if (source.size_bytes < 0 || (source.size_bytes > 0 && source.data.data == NULL)) {
      ArrowErrorSet(error, "buffer %" PRId64 " has size %" PRId64 " but no data", i,
                    source.size_bytes);
      return EINVAL;
    }
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(
        ArrowArrayCopyInto(ArrowArrayBuffer(array, i), source.data.data,
                           source.size_bytes),
        error);
  }
  if (private_data->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY) {
    /* The bitmap describes the view's elements; appends continue after them. */
    int64_t bits = private_data->bitmap.buffer.size_bytes * 8;
    int64_t used_bits = array->offset + array->length;
    private_data->bitmap.size_bits = bits < used_bits ? bits : used_bits;
  }

  if ((array_view->storage_type == NANOARROW_TYPE_SPARSE_UNION ||
       array_view->storage_type == NANOARROW_TYPE_DENSE_UNION) &&
      array_view->union_type_id_map != NULL) {
    int8_t type_ids[128];
    if (array_view->n_children > 128) {
      ArrowErrorSet(error, "union with %" PRId64 " children (at most 128)",
                    array_view->n_children);
      return EINVAL;
    }
    for (i = 0; i < array_view->n_children; i++) {
      type_ids[i] = array_view->union_type_id_map[128 + i];
    }
    NANOARROW_RETURN_NOT_OK(
        ArrowArraySetUnionTypeIds(array, type_ids, array_view->n_children, error));
  }

  if (ArrowArrayIsBinaryView(array_view->storage_type) &&
      array_view->n_variadic_buffers > 0) {
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(
        ArrowArrayAddVariadicBuffers(array, array_view->n_variadic_buffers), error);
    for (i = 0; i < array_view->n_variadic_buffers; i++) {
      int64_t size_bytes = array_view->variadic_buffer_sizes[i];
      if (size_bytes < 0 || (size_bytes > 0 && array_view->variadic_buffers[i] == NULL)) {
        ArrowErrorSet(error, "variadic buffer %" PRId64 " has size %" PRId64 " but no data",
                      i, size_bytes);
        return EINVAL;
      }
      NANOARROW_RETURN_NOT_OK_WITH_ERROR(
          ArrowArrayCopyInto(&private_data->variadic_buffers[i],
                             array_view->variadic_buffers[i], size_bytes),
          error);
    }
  }

  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowArrayAllocateChildren(array, array_view->n_children), error);
  for (i = 0; i < array_view->n_children; i++) {
    rc = ArrowArrayInitFromArrayViewRecursive(array->children[i], array_view->children[i],
                                              depth + 1, error);
    if (rc != NANOARROW_OK) {
      ArrowArrayErrorPrefixChild(error, i);
      return rc;
    }
  }
  if (array_view->dictionary != NULL) {
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowArrayAllocateDictionary(array), error);
    rc = ArrowArrayInitFromArrayViewRecursive(array->dictionary, array_view->dictionary,
                                              depth + 1, error);
    if (rc != NANOARROW_OK) {
      ArrowArrayErrorPrefix(error, "dictionary");
      return rc;
    }
  }

  ArrowArrayFlushBufferPointers(array);
  return NANOARROW_OK;
}

NANOARROW_COLD ArrowErrorCode ArrowArrayInitFromArrayView(
    struct ArrowArray* array, const struct ArrowArrayView* array_view,
    struct ArrowError* error) {
  int rc = ArrowArrayInitFromArrayViewRecursive(array, array_view, 0, error);
  if (rc != NANOARROW_OK && array->release != NULL) {
    ArrowArrayRelease(array);
  }
  return rc;
}

/* ---- Setting buffers ---- */

void ArrowArraySetValidityBitmap(struct ArrowArray* array, struct ArrowBitmap* bitmap) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  ArrowBitmapReset(&private_data->bitmap);
  ArrowBitmapMove(bitmap, &private_data->bitmap);
  ArrowArrayFlushBufferPointers(array);
  /* The nulls of a bitmap from the caller are not counted: unknown, as in nanoarrow. */
  array->null_count = -1;
}

ArrowErrorCode ArrowArraySetBuffer(struct ArrowArray* array, int64_t i,
                                   struct ArrowBuffer* buffer) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  struct ArrowBuffer* target;

  /* Every buffer as exported: for views, the views, each variadic buffer and the
   * variadic sizes, which are then exported as set. */
  if (i < 0 || i >= ArrowArrayBufferCount(private_data)) {
    return EINVAL;
  }
  /* Without a storage type, only the buffers the caller declared in n_buffers. */
  if (private_data->storage_type == NANOARROW_TYPE_UNINITIALIZED && i >= array->n_buffers) {
    return EINVAL;
  }
  target = ArrowArrayBuffer(array, i);
  ArrowBufferReset(target);
  ArrowBufferMove(buffer, target);
  if (i == 0) {
    private_data->bitmap.size_bits = target->size_bytes * 8;
  }
  if (ArrowArrayIsBinaryView(private_data->storage_type) &&
      i == ArrowArrayBufferCount(private_data) - 1) {
    private_data->variadic_sizes_from_caller = 1;
  }
  ArrowArrayFlushBufferPointers(array);
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayAddVariadicBuffers(struct ArrowArray* array, int32_t nbuffers) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  int32_t n_old = private_data->n_variadic_buffers;
  int64_t n_new;
  struct ArrowBuffer* buffers;
  const void** buffer_data;
  int64_t i;

  if ((!ArrowArrayIsBinaryView(private_data->storage_type) &&
       private_data->storage_type != NANOARROW_TYPE_UNINITIALIZED) ||
      nbuffers < 0 || nbuffers > INT32_MAX - n_old) {
    return EINVAL;
  }
  if (nbuffers == 0) {
    return NANOARROW_OK;
  }
  n_new = (int64_t)n_old + nbuffers;
  /* The whole request (a buffer, its size and its exported pointer each) first. */
  NANOARROW_RETURN_NOT_OK(ArrowPrivateCheckAllocation(
      n_new, (int64_t)(sizeof(struct ArrowBuffer) + sizeof(int64_t) + sizeof(void*))));

  /* Sizes set by the caller described the buffers before these: from now on the
   * sizes are the buffers' own again. */
  if (private_data->variadic_sizes_from_caller) {
    ArrowBufferReset(&private_data->buffers[1]);
    private_data->variadic_sizes_from_caller = 0;
  }
  /* Each reallocation is stored as soon as it succeeds so that a later failure
   * leaves the array consistent (n_variadic_buffers is updated last). */
  NANOARROW_RETURN_NOT_OK(
      ArrowBufferResize(&private_data->buffers[1], (int64_t)sizeof(int64_t) * n_new, 0));
  buffers = (struct ArrowBuffer*)ArrowRealloc(private_data->variadic_buffers,
                                              (int64_t)sizeof(struct ArrowBuffer) * n_new);
  if (buffers == NULL) {
    return ENOMEM;
  }
  private_data->variadic_buffers = buffers;
  buffer_data = (const void**)ArrowRealloc((void*)private_data->buffer_data,
                                           (int64_t)sizeof(void*) * (2 + n_new + 1));
  if (buffer_data == NULL) {
    return ENOMEM;
  }
  private_data->buffer_data = buffer_data;

  for (i = n_old; i < n_new; i++) {
    ArrowBufferInit(&private_data->variadic_buffers[i]);
  }
  private_data->n_variadic_buffers = (int32_t)n_new;
  ArrowArrayFlushBufferPointers(array);
  return NANOARROW_OK;
}

/* ---- Start appending ---- */

ArrowErrorCode ArrowPrivateArrayStartAppending(struct ArrowArray* array) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  int64_t i;

  if (private_data->storage_type == NANOARROW_TYPE_UNINITIALIZED) {
    return EINVAL;
  }

  /* Offset buffers start with a single 0 (once: calling this again is harmless). */
  for (i = 1; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    struct ArrowBuffer* buffer = &private_data->buffers[i - 1];
    if (private_data->layout.buffer_type[i] != NANOARROW_BUFFER_TYPE_DATA_OFFSET ||
        buffer->size_bytes != 0) {
      continue;
    }
    if (private_data->layout.element_size_bits[i] == 64) {
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendInt64(buffer, 0));
    } else {
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendInt32(buffer, 0));
    }
  }

  for (i = 0; i < array->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowArrayCheckSlot(array->children[i], NULL));
    if (ArrowArrayIsBuilt(array->children[i])) {
      NANOARROW_RETURN_NOT_OK(ArrowPrivateArrayStartAppending(array->children[i]));
    }
  }
  /* A list view's next element starts after the child elements already there. */
  if (array->n_children > 0 &&
      private_data->layout.buffer_type[1] == NANOARROW_BUFFER_TYPE_VIEW_OFFSET) {
    private_data->list_view_offset = array->children[0]->length;
  }
  if (array->dictionary != NULL) {
    NANOARROW_RETURN_NOT_OK(ArrowArrayCheckSlot(array->dictionary, NULL));
    if (ArrowArrayIsBuilt(array->dictionary)) {
      NANOARROW_RETURN_NOT_OK(ArrowPrivateArrayStartAppending(array->dictionary));
    }
  }
  return NANOARROW_OK;
}

/* ---- Reserve ---- */

NANOARROW_COLD
static ArrowErrorCode ArrowArrayReserveRecursive(struct ArrowArray* array,
                                                 int64_t additional, int depth) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  int64_t i;

  if (depth > NANOARROW_MAX_NESTING_DEPTH || array->release == NULL) {
    return EINVAL;
  }
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    struct ArrowBuffer* buffer = ArrowArrayBuffer(array, i);
    int64_t element_bytes = private_data->layout.element_size_bits[i] / 8;
    int64_t bytes;
    if (ArrowArrayPrivateMulOverflows(additional, element_bytes, &bytes)) {
      /* A fixed-size binary up to 2^31 - 1 bytes wide: more than any memory. */
      return ENOMEM;
    }
    switch (private_data->layout.buffer_type[i]) {
      case NANOARROW_BUFFER_TYPE_NONE:
        continue;
      case NANOARROW_BUFFER_TYPE_VALIDITY:
        /* Only a bitmap already in use grows: arrays without nulls never get one. */
        if (private_data->bitmap.buffer.data != NULL) {
          NANOARROW_RETURN_NOT_OK(ArrowBitmapReserve(&private_data->bitmap, additional));
        }
        continue;
      case NANOARROW_BUFFER_TYPE_DATA_OFFSET:
        /* The first offset is appended by ArrowArrayStartAppending. */
        bytes += (buffer->size_bytes == 0) * element_bytes;
        break;
      case NANOARROW_BUFFER_TYPE_DATA:
        if (private_data->layout.element_size_bits[i] == 1) {
          bytes = ArrowBytesForBits(array->offset + array->length + additional) -
                  buffer->size_bytes;
          if (bytes <= 0) {
            continue;
          }
        }
        break;
      default:
        /* Fixed-width type ids, union offsets, view offsets and sizes. */
        break;
    }
    NANOARROW_RETURN_NOT_OK(ArrowArrayReserveBytes(buffer, bytes));
  }

  /* Children whose length follows from the parent's. */
  switch (private_data->storage_type) {
    case NANOARROW_TYPE_STRUCT:
    case NANOARROW_TYPE_SPARSE_UNION:
      for (i = 0; i < array->n_children; i++) {
        NANOARROW_RETURN_NOT_OK(ArrowArrayCheckSlot(array->children[i], NULL));
        if (ArrowArrayIsBuilt(array->children[i])) {
          NANOARROW_RETURN_NOT_OK(
              ArrowArrayReserveRecursive(array->children[i], additional, depth + 1));
        }
      }
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      if (array->n_children == 1 && private_data->layout.child_size_elements > 0 &&
          array->children[0] != NULL && ArrowArrayIsBuilt(array->children[0])) {
        if (additional > INT64_MAX / 256 / private_data->layout.child_size_elements) {
          return ENOMEM;
        }
        NANOARROW_RETURN_NOT_OK(ArrowArrayReserveRecursive(
            array->children[0], additional * private_data->layout.child_size_elements,
            depth + 1));
      }
      break;
    default:
      break;
  }

  ArrowArrayFlushBufferPointers(array);
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayReserve(struct ArrowArray* array,
                                 int64_t additional_size_elements) {
  /* Nothing to reserve for a negative count (as in nanoarrow). */
  if (additional_size_elements < 0) {
    return NANOARROW_OK;
  }
  /* The bound keeps every additional * element size product far from overflow; past
   * it lies memory no machine has. */
  if (additional_size_elements > INT64_MAX / 256) {
    return ENOMEM;
  }
  return ArrowArrayReserveRecursive(array, additional_size_elements, 0);
}

/* ---- Finish building ---- */

/* The variadic sizes of a view array: room for one per variadic buffer (written by
 * ArrowArrayFlushBufferPointers()), or, when the caller set them, a size for every
 * buffer that its buffer can back (consumers read the buffers by these sizes). */
static NANOARROW_COLD ArrowErrorCode ArrowArrayFinalizeVariadicSizes(
    struct ArrowArrayPrivateData* private_data, struct ArrowError* error) {
  struct ArrowBuffer* sizes = &private_data->buffers[1];
  int64_t n_variadic = private_data->n_variadic_buffers;
  int64_t i;

  if (!private_data->variadic_sizes_from_caller) {
    if (sizes->size_bytes != (int64_t)sizeof(int64_t) * n_variadic) {
      NANOARROW_RETURN_NOT_OK_WITH_ERROR(
          ArrowBufferResize(sizes, (int64_t)sizeof(int64_t) * n_variadic, 0), error);
    }
    return NANOARROW_OK;
  }
  if (sizes->size_bytes < (int64_t)sizeof(int64_t) * n_variadic ||
      (n_variadic > 0 && sizes->data == NULL)) {
    ArrowErrorSet(error,
                  "variadic sizes buffer holds %" PRId64 " bytes but %" PRId64
                  " variadic buffers need %" PRId64,
                  sizes->size_bytes, n_variadic, (int64_t)sizeof(int64_t) * n_variadic);
    return EINVAL;
  }
  for (i = 0; i < n_variadic; i++) {
    int64_t size_bytes;
    memcpy(&size_bytes, sizes->data + i * (int64_t)sizeof(int64_t), sizeof(int64_t));
    if (size_bytes < 0 || size_bytes > private_data->variadic_buffers[i].size_bytes) {
      ArrowErrorSet(error,
                    "variadic sizes buffer gives variadic buffer %" PRId64
                    " a size of %" PRId64 " but it holds %" PRId64 " bytes",
                    i, size_bytes, private_data->variadic_buffers[i].size_bytes);
      return EINVAL;
    }
  }
  return NANOARROW_OK;
}

/* Brings every array of the tree into its exportable state: string data buffers are
 * never NULL (some consumers reject that), and array->buffers points at the current
 * data. The validity bitmap is exported as its bytes stand: a caller may have written
 * them through ArrowArrayBuffer(array, 0) without the bitmap's bit count, or wrapped
 * memory that cannot grow, so finishing never resizes or rewrites it (validation
 * reports bytes too few for the length). */
NANOARROW_COLD
static ArrowErrorCode ArrowArrayFinalize(struct ArrowArray* array, int depth,
                                         struct ArrowError* error) {
  struct ArrowArrayPrivateData* private_data;
  int64_t i;
  int rc;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "array is nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (!ArrowArrayIsBuilt(array)) {
    ArrowErrorSet(error, "array was not initialized by ArrowArrayInit*()");
    return EINVAL;
  }
  private_data = (struct ArrowArrayPrivateData*)array->private_data;

  if (ArrowArrayIsBinaryView(private_data->storage_type)) {
    NANOARROW_RETURN_NOT_OK(ArrowArrayFinalizeVariadicSizes(private_data, error));
  }

  /* The C interface allows NULL for buffers of empty arrays, but some consumers
   * still dereference them: every buffer but the validity bitmap gets zeroed storage.
   * An offsets buffer gets room for the one zero offset a consumer reads even when the
   * length is 0 (its size stays 0). A buffer that cannot grow (a wrapped one) stays
   * NULL, which is still valid. */
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    enum ArrowBufferType type = private_data->layout.buffer_type[i];
    struct ArrowBuffer* buffer;
    int64_t placeholder_bytes = 1;
    if (type == NANOARROW_BUFFER_TYPE_NONE || type == NANOARROW_BUFFER_TYPE_VALIDITY) {
      continue;
    }
    buffer = ArrowArrayBuffer(array, i);
    if (buffer->data != NULL) {
      continue;
    }
    if (type == NANOARROW_BUFFER_TYPE_DATA_OFFSET &&
        private_data->layout.element_size_bits[i] > 8) {
      placeholder_bytes = private_data->layout.element_size_bits[i] / 8;
    }
    /* Zeroed only when empty: a size the caller set on a NULL buffer is left to
     * the validation that follows. */
    if (ArrowArrayReserveBytes(buffer, placeholder_bytes) == NANOARROW_OK &&
        buffer->data != NULL && buffer->size_bytes == 0) {
      memset(buffer->data, 0, (size_t)placeholder_bytes);
    }
  }
  ArrowArrayFlushBufferPointers(array);

  /* Children and a dictionary moved in from elsewhere are exported as they are. */
  for (i = 0; i < array->n_children; i++) {
    rc = ArrowArrayCheckSlot(array->children[i], error);
    if (rc == NANOARROW_OK && ArrowArrayIsBuilt(array->children[i])) {
      rc = ArrowArrayFinalize(array->children[i], depth + 1, error);
    }
    if (rc != NANOARROW_OK) {
      ArrowArrayErrorPrefixChild(error, i);
      return rc;
    }
  }
  if (array->dictionary != NULL) {
    rc = ArrowArrayCheckSlot(array->dictionary, error);
    if (rc == NANOARROW_OK && ArrowArrayIsBuilt(array->dictionary)) {
      rc = ArrowArrayFinalize(array->dictionary, depth + 1, error);
    }
    if (rc != NANOARROW_OK) {
      ArrowArrayErrorPrefix(error, "dictionary");
      return rc;
    }
  }
  return NANOARROW_OK;
}

/* Points array_view at array (already finalized) with the true size of every buffer,
 * which the C interface alone cannot convey: validation then catches a length that
 * the buffers cannot back. A child or dictionary moved in from elsewhere becomes a
 * view of unknown type holding only its public length, offset and null count: its
 * type is not known here, so validation checks it against its parent (lengths,
 * dictionary indices) and leaves its contents to its producer. */
NANOARROW_COLD
static ArrowErrorCode ArrowArrayViewInitFromBuiltArray(struct ArrowArrayView* array_view,
                                                       struct ArrowArray* array,
                                                       struct ArrowError* error) {
  const struct ArrowArrayPrivateData* private_data;
  int64_t n_fixed;
  int64_t i;

  if (!ArrowArrayIsBuilt(array)) {
    ArrowArrayViewInitFromType(array_view, NANOARROW_TYPE_UNINITIALIZED);
    array_view->array = array;
    array_view->offset = array->offset;
    array_view->length = array->length;
    array_view->null_count = array->null_count;
    return NANOARROW_OK;
  }
  private_data = (const struct ArrowArrayPrivateData*)array->private_data;
  n_fixed = ArrowArrayFixedBufferCount(private_data);
  ArrowArrayViewInitFromType(array_view, private_data->storage_type);
  array_view->layout = private_data->layout;
  array_view->array = array;
  array_view->offset = array->offset;
  array_view->length = array->length;
  array_view->null_count = array->null_count;
  for (i = 0; i < n_fixed; i++) {
    struct ArrowBuffer* buffer = ArrowArrayBuffer(array, i);
    array_view->buffer_views[i].data.data = buffer->data;
    array_view->buffer_views[i].size_bytes = buffer->size_bytes;
  }
  if (ArrowArrayIsBinaryView(private_data->storage_type)) {
    array_view->n_variadic_buffers = private_data->n_variadic_buffers;
    array_view->variadic_buffers = private_data->buffer_data + n_fixed;
    array_view->variadic_buffer_sizes = (int64_t*)private_data->buffers[1].data;
  }

  if (!private_data->union_type_id_is_child_index) {
    if (array_view->union_type_id_map == NULL) {
      array_view->union_type_id_map = (int8_t*)ArrowMalloc(ARROW_ARRAY_UNION_MAP_SIZE);
      if (array_view->union_type_id_map == NULL) {
        ArrowErrorSet(error, "failed to allocate a union type id map");
        return ENOMEM;
      }
    }
    memcpy(array_view->union_type_id_map, private_data->buffers[1].data,
           ARROW_ARRAY_UNION_MAP_SIZE);
  }

  NANOARROW_RETURN_NOT_OK_WITH_ERROR(
      ArrowArrayViewAllocateChildren(array_view, array->n_children), error);
  for (i = 0; i < array->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(
        ArrowArrayViewInitFromBuiltArray(array_view->children[i], array->children[i], error));
  }
  if (array->dictionary != NULL) {
    NANOARROW_RETURN_NOT_OK_WITH_ERROR(ArrowArrayViewAllocateDictionary(array_view), error);
    NANOARROW_RETURN_NOT_OK(
        ArrowArrayViewInitFromBuiltArray(array_view->dictionary, array->dictionary, error));
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayFinishBuilding(struct ArrowArray* array,
                                        enum ArrowValidationLevel validation_level,
                                        struct ArrowError* error) {
  struct ArrowArrayView array_view;
  int rc;

  NANOARROW_RETURN_NOT_OK(ArrowArrayFinalize(array, 0, error));
  if (validation_level == NANOARROW_VALIDATION_LEVEL_NONE) {
    return NANOARROW_OK;
  }

  rc = ArrowArrayViewInitFromBuiltArray(&array_view, array, error);
  if (rc == NANOARROW_OK) {
    rc = ArrowArrayViewValidate(&array_view, validation_level, error);
  }
  ArrowArrayViewReset(&array_view);
  return rc;
}

ArrowErrorCode ArrowArrayFinishBuildingDefault(struct ArrowArray* array,
                                               struct ArrowError* error) {
  return ArrowArrayFinishBuilding(array, NANOARROW_VALIDATION_LEVEL_DEFAULT, error);
}

int ArrowArrayIsInternal(struct ArrowArray* array) {
  return array != NULL && ArrowArrayIsBuilt(array);
}
