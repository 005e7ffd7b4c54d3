/* ArrowArrayView: a parsed, validated, read-only view of an ArrowArray.
 *
 * Arrays arriving through the C data interface are hostile: they carry no buffer
 * sizes, so every size here is computed from length, offset and the layout, and
 * every piece of arithmetic on a producer's numbers is overflow-checked first. */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

/* ---- Error reporting with the path of the offending child ---- */

/* One step from the root to a nested array, kept on the stack while recursing.
 * The root has no node (NULL). */
struct ArrowViewPath {
  const struct ArrowViewPath* parent;
  /* Child index, or -1 for the dictionary. */
  int64_t child_index;
};

static NANOARROW_COLD void ArrowViewPathFormat(const struct ArrowViewPath* path,
                                               char* out, size_t out_size) {
  const struct ArrowViewPath* nodes[NANOARROW_MAX_NESTING_DEPTH + 2];
  int n_nodes = 0;
  size_t used = 0;
  int written;

  for (; path != NULL && n_nodes < NANOARROW_MAX_NESTING_DEPTH + 2; path = path->parent) {
    nodes[n_nodes++] = path;
  }

  out[0] = '\0';
  while (n_nodes-- > 0) {
    if (nodes[n_nodes]->child_index < 0) {
      written = snprintf(out + used, out_size - used, "%sdictionary", used ? "." : "");
    } else {
      written = snprintf(out + used, out_size - used, "%schildren[%" PRId64 "]",
                         used ? "." : "", nodes[n_nodes]->child_index);
    }
    if (written < 0 || (size_t)written >= out_size - used) {
      return;
    }
    used += (size_t)written;
  }
}

#if defined(__GNUC__) || defined(__clang__)
#define NANOARROW_VIEW_PRINTF(fmt_index) \
  __attribute__((format(printf, fmt_index, fmt_index + 1)))
#else
#define NANOARROW_VIEW_PRINTF(fmt_index)
#endif

static NANOARROW_COLD void ArrowViewSetMessage(struct ArrowError* error,
                                               const struct ArrowViewPath* path,
                                               const char* fmt, va_list args) {
  char message[512];
  char where[480];
  if (error == NULL) {
    return;
  }
  vsnprintf(message, sizeof(message), fmt, args);
  ArrowViewPathFormat(path, where, sizeof(where));
  ArrowErrorSet(error, "%s%s%s", message, path != NULL ? " in " : "", where);
}

/* Writes "<message> in <path>" to error and returns EINVAL. */
static ArrowErrorCode ArrowViewInvalid(struct ArrowError* error,
                                       const struct ArrowViewPath* path, const char* fmt,
                                       ...) NANOARROW_VIEW_PRINTF(3);

static NANOARROW_COLD ArrowErrorCode ArrowViewInvalid(struct ArrowError* error,
                                                      const struct ArrowViewPath* path,
                                                      const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  ArrowViewSetMessage(error, path, fmt, args);
  va_end(args);
  return EINVAL;
}

/* ---- Checked arithmetic on non-negative int64 values ---- */

static int ArrowViewAddOverflows(int64_t a, int64_t b, int64_t* out) {
  if (a > INT64_MAX - b) {
    return 1;
  }
  *out = a + b;
  return 0;
}

/* ---- Type classification ---- */

static int ArrowViewIsVarBinary(enum ArrowType type) {
  switch (type) {
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
      return 1;
    default:
      return 0;
  }
}

/* The data of string and binary views whose values are all empty and whose data
 * buffer is NULL: never read, only offset by 0. */
static const uint8_t kArrowViewNoBytes[1] = {0};

static int ArrowViewIsBinaryView(enum ArrowType type) {
  return type == NANOARROW_TYPE_BINARY_VIEW || type == NANOARROW_TYPE_STRING_VIEW;
}

static const char* ArrowViewTypeName(enum ArrowType type) {
  const char* name = ArrowTypeString(type);
  return name == NULL ? "<unknown type>" : name;
}

static const char* ArrowViewBufferTypeName(enum ArrowBufferType buffer_type) {
  static const char* const kNames[] = {
      [NANOARROW_BUFFER_TYPE_NONE] = "unused",
      [NANOARROW_BUFFER_TYPE_VALIDITY] = "validity",
      [NANOARROW_BUFFER_TYPE_TYPE_ID] = "type id",
      [NANOARROW_BUFFER_TYPE_UNION_OFFSET] = "union offset",
      [NANOARROW_BUFFER_TYPE_DATA_OFFSET] = "offset",
      [NANOARROW_BUFFER_TYPE_DATA] = "data",
      [NANOARROW_BUFFER_TYPE_VARIADIC_DATA] = "variadic data",
      [NANOARROW_BUFFER_TYPE_VARIADIC_SIZE] = "variadic size",
      [NANOARROW_BUFFER_TYPE_VIEW_OFFSET] = "view offset",
      [NANOARROW_BUFFER_TYPE_SIZE] = "size"};
  if ((unsigned)buffer_type >= sizeof(kNames) / sizeof(kNames[0])) {
    return kNames[NANOARROW_BUFFER_TYPE_NONE];
  }
  return kNames[buffer_type];
}

/* Fixed buffers the layout describes (the C interface's n_buffers, except for
 * binary views which add variadic buffers and a sizes buffer). */
static int64_t ArrowViewFixedBufferCount(const struct ArrowArrayView* array_view) {
  int64_t n_buffers = 0;
  while (n_buffers < NANOARROW_MAX_FIXED_BUFFERS &&
         array_view->layout.buffer_type[n_buffers] != NANOARROW_BUFFER_TYPE_NONE) {
    n_buffers++;
  }
  return n_buffers;
}

/* offset + length, after checking both are sane. */
static ArrowErrorCode ArrowViewCheckLengthOffset(const struct ArrowArrayView* array_view,
                                                 const struct ArrowViewPath* path,
                                                 int64_t* end, struct ArrowError* error) {
  if (array_view->length < 0) {
    return ArrowViewInvalid(error, path, "Expected length >= 0 but found %" PRId64,
                            array_view->length);
  }
  if (array_view->offset < 0) {
    return ArrowViewInvalid(error, path, "Expected offset >= 0 but found %" PRId64,
                            array_view->offset);
  }
  if (ArrowViewAddOverflows(array_view->offset, array_view->length, end)) {
    return ArrowViewInvalid(error, path,
                            "Offset + length overflows int64 (offset %" PRId64
                            ", length %" PRId64 ")",
                            array_view->offset, array_view->length);
  }
  return NANOARROW_OK;
}

/* Bytes fixed buffer i must hold for elements [0, end); -1 when that cannot be
 * known without reading the offsets (variable-length data). Non-zero on overflow. */
static int ArrowViewRequiredBytes(const struct ArrowArrayView* array_view, int i,
                                  int64_t end, int64_t* out) {
  int64_t n_elements = end;
  int64_t n_bits;
  switch (array_view->layout.buffer_type[i]) {
    case NANOARROW_BUFFER_TYPE_NONE:
      *out = 0;
      return 0;
    case NANOARROW_BUFFER_TYPE_DATA_OFFSET:
      /* Empty arrays may omit the offsets buffer entirely. */
      if (array_view->length == 0) {
        *out = 0;
        return 0;
      }
      if (ArrowViewAddOverflows(end, 1, &n_elements)) {
        return 1;
      }
      break;
    case NANOARROW_BUFFER_TYPE_DATA:
      if (ArrowViewIsVarBinary(array_view->storage_type)) {
        *out = array_view->length == 0 ? 0 : -1;
        return 0;
      }
      break;
    default:
      break;
  }
  if (ArrowArrayPrivateMulOverflows(n_elements, array_view->layout.element_size_bits[i],
                            &n_bits)) {
    return 1;
  }
  *out = (n_bits >> 3) + ((n_bits & 7) != 0);
  return 0;
}

/* ---- Initialization ---- */

void ArrowArrayViewInitFromType(struct ArrowArrayView* array_view,
                                enum ArrowType storage_type) {
  memset(array_view, 0, sizeof(struct ArrowArrayView));
  array_view->storage_type = storage_type;
  ArrowLayoutInit(&array_view->layout, storage_type);
}

/* Child views are allocated in one block behind the children pointer array:
 * [n pointers][n views]. Reset frees a child separately only when its pointer no
 * longer points into that block (the caller replaced it), so per-child ownership
 * works as before. The views own nothing yet but are otherwise left for the caller
 * to initialize. */
static ArrowErrorCode ArrowViewAllocateChildBlock(struct ArrowArrayView* array_view,
                                                  int64_t n_children) {
  struct ArrowArrayView* views;
  int64_t i;
  if (array_view->children != NULL || n_children < 0) {
    return EINVAL;
  }
  if (n_children == 0) {
    return NANOARROW_OK;
  }
  if (n_children > INT64_MAX / (int64_t)(sizeof(struct ArrowArrayView*) +
                                         sizeof(struct ArrowArrayView))) {
    return ENOMEM;
  }
  array_view->children = (struct ArrowArrayView**)ArrowMalloc(
      n_children * (int64_t)(sizeof(struct ArrowArrayView*) + sizeof(struct ArrowArrayView)));
  if (array_view->children == NULL) {
    return ENOMEM;
  }
  views = (struct ArrowArrayView*)(array_view->children + n_children);
  for (i = 0; i < n_children; i++) {
    array_view->children[i] = views + i;
    views[i].n_children = 0;
    views[i].children = NULL;
    views[i].dictionary = NULL;
    views[i].union_type_id_map = NULL;
  }
  array_view->n_children = n_children;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayViewAllocateChildren(struct ArrowArrayView* array_view,
                                              int64_t n_children) {
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowViewAllocateChildBlock(array_view, n_children));
  for (i = 0; i < n_children; i++) {
    ArrowArrayViewInitFromType(array_view->children[i], NANOARROW_TYPE_UNINITIALIZED);
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayViewAllocateDictionary(struct ArrowArrayView* array_view) {
  if (array_view->dictionary != NULL) {
    return EINVAL;
  }
  array_view->dictionary =
      (struct ArrowArrayView*)ArrowMalloc((int64_t)sizeof(struct ArrowArrayView));
  if (array_view->dictionary == NULL) {
    return ENOMEM;
  }
  ArrowArrayViewInitFromType(array_view->dictionary, NANOARROW_TYPE_UNINITIALIZED);
  return NANOARROW_OK;
}

/* Frees what array_view owns, leaving its fields stale. */
static void ArrowViewRelease(struct ArrowArrayView* array_view) {
  struct ArrowArrayView* block_views;
  int64_t i;
  if (array_view->children != NULL) {
    block_views = (struct ArrowArrayView*)(array_view->children + array_view->n_children);
    for (i = 0; i < array_view->n_children; i++) {
      struct ArrowArrayView* child = array_view->children[i];
      if (child == NULL) {
        continue;
      }
      /* A leaf (a wide table's column) owns nothing: no call for it. */
      if ((child->children != NULL) | (child->dictionary != NULL) |
          (child->union_type_id_map != NULL)) {
        ArrowViewRelease(child);
      }
      if (child != block_views + i) {
        ArrowFree(child);
      }
    }
    ArrowFree(array_view->children);
  }
  if (array_view->dictionary != NULL) {
    ArrowViewRelease(array_view->dictionary);
    ArrowFree(array_view->dictionary);
  }
  if (array_view->union_type_id_map != NULL) {
    ArrowFree(array_view->union_type_id_map);
  }
  /* Variadic buffer pointers borrow the array's buffers: nothing to free. */
}

void ArrowArrayViewReset(struct ArrowArrayView* array_view) {
  ArrowViewRelease(array_view);
  ArrowArrayViewInitFromType(array_view, NANOARROW_TYPE_UNINITIALIZED);
}

/* Parses "+ud:" / "+us:" type ids ("1,5,7") into the 256-byte map: [0,128) type id ->
 * child index, [128,256) child index -> type id; unused entries are -1. */
static NANOARROW_COLD ArrowErrorCode
ArrowViewInitUnionMap(struct ArrowArrayView* array_view, const char* type_ids,
                      const struct ArrowViewPath* path, struct ArrowError* error) {
  int8_t* map;
  int64_t n_ids = 0;
  int value;
  const char* cursor = type_ids;

  if (array_view->n_children > 128) {
    return ArrowViewInvalid(error, path,
                            "Expected a union with at most 128 children but found %" PRId64,
                            array_view->n_children);
  }

  map = (int8_t*)ArrowMalloc(256);
  if (map == NULL) {
    return ENOMEM;
  }
  memset(map, -1, 256);
  array_view->union_type_id_map = map;

  if (cursor == NULL) {
    /* No ids given: they are the child indices. */
    for (n_ids = 0; n_ids < array_view->n_children; n_ids++) {
      map[n_ids] = (int8_t)n_ids;
      map[128 + n_ids] = (int8_t)n_ids;
    }
    return NANOARROW_OK;
  }

  /* ArrowSchemaViewInit() has checked the ids already; this parse only keeps the map
   * writes in bounds, so one message covers every way the list can be wrong. */
  while (n_ids < array_view->n_children && *cursor >= '0' && *cursor <= '9') {
    value = 0;
    while (*cursor >= '0' && *cursor <= '9' && value <= 127) {
      value = value * 10 + (*cursor - '0');
      cursor++;
    }
    if (value > 127 || map[value] != -1) {
      break;
    }
    map[value] = (int8_t)n_ids;
    map[128 + n_ids] = (int8_t)value;
    n_ids++;
    if (*cursor == ',' && cursor[1] != '\0') {
      cursor++;
    }
  }

  if (*cursor != '\0' || n_ids != array_view->n_children) {
    return ArrowViewInvalid(error, path,
                            "Expected %" PRId64
                            " distinct union type ids in [0, 127] but found '%s'",
                            array_view->n_children, type_ids);
  }
  return NANOARROW_OK;
}

/* Whether schema would get the same view as previous (a sibling that got
 * previous_view): both leaves with the same format and nothing else ArrowSchemaViewInit
 * looks at, and a view that owns nothing (so it can be copied). */
static int ArrowViewIsSameLeaf(const struct ArrowSchema* previous,
                               const struct ArrowArrayView* previous_view,
                               const struct ArrowSchema* schema) {
  return schema != NULL && schema->release != NULL && schema->format != NULL &&
         schema->n_children == 0 && schema->dictionary == NULL &&
         schema->metadata == NULL && previous->n_children == 0 &&
         previous->dictionary == NULL && previous->metadata == NULL &&
         previous_view->union_type_id_map == NULL && previous_view->children == NULL &&
         previous_view->dictionary == NULL &&
         (schema->format == previous->format || strcmp(schema->format, previous->format) == 0);
}

static NANOARROW_COLD ArrowErrorCode ArrowViewInitFromSchemaImpl(
    struct ArrowArrayView* array_view, const struct ArrowSchema* schema,
    const struct ArrowViewPath* path, int depth, struct ArrowError* error) {
  struct ArrowSchemaView schema_view;
  int64_t i;

  /* The same as ArrowArrayViewInitFromType(array_view, NANOARROW_TYPE_UNINITIALIZED)
   * (both enums start at 0); the type's layout replaces it below. */
  memset(array_view, 0, sizeof(struct ArrowArrayView));
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    return ArrowViewInvalid(error, path, "Expected nesting depth <= %d",
                            NANOARROW_MAX_NESTING_DEPTH);
  }
  if (schema == NULL) {
    return ArrowViewInvalid(error, path, "Expected a non-NULL schema");
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&schema_view, schema, error));

  array_view->storage_type = schema_view.storage_type;
  /* The schema view's layout has the fixed sizes filled in already. */
  array_view->layout = schema_view.layout;

  if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == NULL)) {
    return ArrowViewInvalid(error, path, "Expected %" PRId64 " non-NULL schema children",
                            schema->n_children);
  }
  if (ArrowViewAllocateChildBlock(array_view, schema->n_children) != NANOARROW_OK) {
    ArrowErrorSet(error, "Failed to allocate %" PRId64 " child array views",
                  schema->n_children);
    return ENOMEM;
  }
  for (i = 0; i < schema->n_children; i++) {
    struct ArrowViewPath child_path;
    if (i > 0 && ArrowViewIsSameLeaf(schema->children[i - 1], array_view->children[i - 1],
                                      schema->children[i])) {
      /* Wide schemas repeat types: the view the parse would give is that one. */
      *array_view->children[i] = *array_view->children[i - 1];
      continue;
    }
    child_path.parent = path;
    child_path.child_index = i;
    NANOARROW_RETURN_NOT_OK(ArrowViewInitFromSchemaImpl(
        array_view->children[i], schema->children[i], &child_path, depth + 1, error));
  }

  if (schema->dictionary != NULL) {
    struct ArrowViewPath dictionary_path;
    dictionary_path.parent = path;
    dictionary_path.child_index = -1;
    /* Initialized by the recursive call. */
    array_view->dictionary =
        (struct ArrowArrayView*)ArrowMalloc((int64_t)sizeof(struct ArrowArrayView));
    if (array_view->dictionary == NULL) {
      ArrowErrorSet(error, "Failed to allocate a dictionary array view");
      return ENOMEM;
    }
    NANOARROW_RETURN_NOT_OK(ArrowViewInitFromSchemaImpl(
        array_view->dictionary, schema->dictionary, &dictionary_path, depth + 1, error));
  }

  if (schema_view.storage_type == NANOARROW_TYPE_SPARSE_UNION ||
      schema_view.storage_type == NANOARROW_TYPE_DENSE_UNION) {
    NANOARROW_RETURN_NOT_OK(
        ArrowViewInitUnionMap(array_view, schema_view.union_type_ids, path, error));
  }
  return NANOARROW_OK;
}

NANOARROW_COLD ArrowErrorCode
ArrowArrayViewInitFromSchema(struct ArrowArrayView* array_view,
                             const struct ArrowSchema* schema, struct ArrowError* error) {
  ArrowErrorCode result = ArrowViewInitFromSchemaImpl(array_view, schema, NULL, 1, error);
  if (result != NANOARROW_OK) {
    ArrowArrayViewReset(array_view);
  }
  return result;
}

/* ---- Hand-built views ---- */

static void ArrowViewSetLengthImpl(struct ArrowArrayView* array_view, int64_t length,
                                   int depth) {
  int64_t end = 0;
  int64_t required;
  int64_t child_length;
  int64_t i;
  int sane;

  array_view->length = length;
  sane = length >= 0 && array_view->offset >= 0 &&
         !ArrowViewAddOverflows(array_view->offset, length, &end);

  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    if (!sane || ArrowViewRequiredBytes(array_view, (int)i, end, &required)) {
      array_view->buffer_views[i].size_bytes = 0;
    } else if (required >= 0) {
      /* Variable-length data (-1) keeps the size its creator gave it. */
      array_view->buffer_views[i].size_bytes = required;
    }
  }

  if (!sane || depth >= NANOARROW_MAX_NESTING_DEPTH) {
    return;
  }

  switch (array_view->storage_type) {
    case NANOARROW_TYPE_STRUCT:
    case NANOARROW_TYPE_SPARSE_UNION:
      for (i = 0; i < array_view->n_children; i++) {
        ArrowViewSetLengthImpl(array_view->children[i], end, depth + 1);
      }
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      if (array_view->n_children == 1 &&
          !ArrowArrayPrivateMulOverflows(end, array_view->layout.child_size_elements,
                                 &child_length)) {
        ArrowViewSetLengthImpl(array_view->children[0], child_length, depth + 1);
      }
      break;
    default:
      break;
  }
}

void ArrowArrayViewSetLength(struct ArrowArrayView* array_view, int64_t length) {
  ArrowViewSetLengthImpl(array_view, length, 1);
}

/* ---- Validation ---- */

typedef ArrowErrorCode (*ArrowViewValidateFn)(struct ArrowArrayView* array_view,
                                              const struct ArrowViewPath* path,
                                              struct ArrowError* error);

/* Applies validate to array_view, then to its children and dictionary. */
static ArrowErrorCode ArrowViewValidateTree(struct ArrowArrayView* array_view,
                                            ArrowViewValidateFn validate,
                                            const struct ArrowViewPath* path, int depth,
                                            struct ArrowError* error) {
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    return ArrowViewInvalid(error, path, "Expected nesting depth <= %d",
                            NANOARROW_MAX_NESTING_DEPTH);
  }
  NANOARROW_RETURN_NOT_OK(validate(array_view, path, error));

  if (array_view->n_children > 0 && array_view->children == NULL) {
    return ArrowViewInvalid(error, path, "Expected %" PRId64 " non-NULL child views",
                            array_view->n_children);
  }
  for (i = 0; i < array_view->n_children; i++) {
    struct ArrowViewPath child_path;
    child_path.parent = path;
    child_path.child_index = i;
    NANOARROW_RETURN_NOT_OK(ArrowViewValidateTree(array_view->children[i], validate,
                                                  &child_path, depth + 1, error));
  }
  if (array_view->dictionary != NULL) {
    struct ArrowViewPath dictionary_path;
    dictionary_path.parent = path;
    dictionary_path.child_index = -1;
    NANOARROW_RETURN_NOT_OK(ArrowViewValidateTree(array_view->dictionary, validate,
                                                  &dictionary_path, depth + 1, error));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowViewExpectChildren(const struct ArrowArrayView* array_view,
                                              int64_t n_expected,
                                              const struct ArrowViewPath* path,
                                              struct ArrowError* error) {
  if (array_view->n_children != n_expected) {
    return ArrowViewInvalid(error, path,
                            "Expected %" PRId64 " children for %s array but found %" PRId64,
                            n_expected, ArrowViewTypeName(array_view->storage_type),
                            array_view->n_children);
  }
  return NANOARROW_OK;
}

/* Children that are indexed like the parent (struct, sparse union) must cover
 * offset + length elements. */
static ArrowErrorCode ArrowViewExpectChildLengths(const struct ArrowArrayView* array_view,
                                                  int64_t min_length,
                                                  const struct ArrowViewPath* path,
                                                  struct ArrowError* error) {
  int64_t i;
  for (i = 0; i < array_view->n_children; i++) {
    if (array_view->children[i]->length < min_length) {
      return ArrowViewInvalid(error, path,
                              "Expected %s child %" PRId64 " to have length >= %" PRId64
                              " but found %" PRId64,
                              ArrowViewTypeName(array_view->storage_type), i, min_length,
                              array_view->children[i]->length);
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowViewValidateRunEndEncodedMinimal(
    const struct ArrowArrayView* array_view, const struct ArrowViewPath* path,
    struct ArrowError* error) {
  const struct ArrowArrayView* run_ends;
  const struct ArrowArrayView* values;
  NANOARROW_RETURN_NOT_OK(ArrowViewExpectChildren(array_view, 2, path, error));
  run_ends = array_view->children[0];
  values = array_view->children[1];
  switch (run_ends->storage_type) {
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_INT64:
      break;
    default:
      return ArrowViewInvalid(error, path,
                              "Expected run ends of type int16, int32 or int64 but found %s",
                              ArrowViewTypeName(run_ends->storage_type));
  }
  if (run_ends->null_count > 0) {
    return ArrowViewInvalid(error, path,
                            "Expected run ends without nulls but found null_count %" PRId64,
                            run_ends->null_count);
  }
  if (array_view->length > 0 && run_ends->length < 1) {
    return ArrowViewInvalid(error, path,
                            "Expected at least one run end for a run-end encoded array of "
                            "length %" PRId64,
                            array_view->length);
  }
  if (values->length < run_ends->length) {
    return ArrowViewInvalid(error, path,
                            "Expected values child length >= run ends length %" PRId64
                            " but found %" PRId64,
                            run_ends->length, values->length);
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowViewCheckNullCount(const struct ArrowArrayView* array_view,
                                              const struct ArrowViewPath* path,
                                              struct ArrowError* error) {
  /* A count above the length passes (as in nanoarrow): a slice made by moving offset
   * and length may keep its parent's count (nanoarrow's Python CArray slicing does).
   * Nothing here sizes or indexes by it; FULL compares it with the validity bits. */
  if (array_view->null_count < -1) {
    return ArrowViewInvalid(error, path, "Expected null_count >= -1 but found %" PRId64,
                            array_view->null_count);
  }
  if (array_view->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY &&
      array_view->buffer_views[0].data.data == NULL && array_view->null_count > 0) {
    return ArrowViewInvalid(error, path,
                            "Expected a validity buffer for null_count %" PRId64,
                            array_view->null_count);
  }

  return NANOARROW_OK;
}

static NANOARROW_COLD ArrowErrorCode ArrowViewMissingBuffer(
    const struct ArrowArrayView* array_view, int64_t i, int64_t end,
    const struct ArrowViewPath* path, struct ArrowError* error) {
  return ArrowViewInvalid(error, path,
                          "Expected non-NULL %s buffer %" PRId64
                          " for %s array of offset + length %" PRId64,
                          ArrowViewBufferTypeName(array_view->layout.buffer_type[i]), i,
                          ArrowViewTypeName(array_view->storage_type), end);
}

/* The MINIMAL checks after those of the fixed buffers: variadic buffers and children
 * (end is offset + length). */
static ArrowErrorCode ArrowViewValidateMinimalRest(const struct ArrowArrayView* array_view,
                                                   int64_t end,
                                                   const struct ArrowViewPath* path,
                                                   struct ArrowError* error) {
  int64_t child_length;
  int64_t i;

  if (array_view->n_variadic_buffers < 0 ||
      (array_view->n_variadic_buffers > 0 &&
       (array_view->variadic_buffers == NULL ||
        array_view->variadic_buffer_sizes == NULL))) {
    return ArrowViewInvalid(error, path, "Expected %d non-NULL variadic buffers",
                            (int)array_view->n_variadic_buffers);
  }
  for (i = 0; i < array_view->n_variadic_buffers; i++) {
    if (array_view->variadic_buffer_sizes[i] < 0) {
      return ArrowViewInvalid(error, path,
                              "Expected variadic buffer %" PRId64
                              " size >= 0 but found %" PRId64,
                              i, array_view->variadic_buffer_sizes[i]);
    }
    if (array_view->variadic_buffer_sizes[i] > 0 &&
        array_view->variadic_buffers[i] == NULL) {
      return ArrowViewInvalid(error, path,
                              "Expected non-NULL variadic buffer %" PRId64 " of size %" PRId64,
                              i, array_view->variadic_buffer_sizes[i]);
    }
  }

  if (array_view->n_children > 0 && array_view->children == NULL) {
    return ArrowViewInvalid(error, path, "Expected %" PRId64 " non-NULL child views",
                            array_view->n_children);
  }

  switch (array_view->storage_type) {
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      return ArrowViewExpectChildren(array_view, 1, path, error);
    case NANOARROW_TYPE_MAP:
      NANOARROW_RETURN_NOT_OK(ArrowViewExpectChildren(array_view, 1, path, error));
      /* A child of unknown type (moved into an array being built) is its producer's. */
      if (array_view->children[0]->storage_type != NANOARROW_TYPE_UNINITIALIZED &&
          (array_view->children[0]->storage_type != NANOARROW_TYPE_STRUCT ||
           array_view->children[0]->n_children != 2)) {
        return ArrowViewInvalid(error, path,
                                "Expected map child to be a struct with 2 children");
      }
      return NANOARROW_OK;
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      NANOARROW_RETURN_NOT_OK(ArrowViewExpectChildren(array_view, 1, path, error));
      if (ArrowArrayPrivateMulOverflows(end, array_view->layout.child_size_elements,
                                &child_length)) {
        return ArrowViewInvalid(error, path,
                                "Fixed-size list child length overflows int64 (offset + "
                                "length %" PRId64 ", list size %" PRId64 ")",
                                end, array_view->layout.child_size_elements);
      }
      if (array_view->children[0]->length < child_length) {
        return ArrowViewInvalid(error, path,
                                "Expected fixed-size list child to have length >= %" PRId64
                                " but found %" PRId64,
                                child_length, array_view->children[0]->length);
      }
      return NANOARROW_OK;
    case NANOARROW_TYPE_STRUCT:
      return ArrowViewExpectChildLengths(array_view, end, path, error);
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      if (array_view->n_children > 128) {
        return ArrowViewInvalid(error, path,
                                "Expected a union with at most 128 children but found %" PRId64,
                                array_view->n_children);
      }
      if (array_view->storage_type == NANOARROW_TYPE_SPARSE_UNION) {
        return ArrowViewExpectChildLengths(array_view, end, path, error);
      }
      return NANOARROW_OK;
    case NANOARROW_TYPE_RUN_END_ENCODED:
      return ArrowViewValidateRunEndEncodedMinimal(array_view, path, error);
    default:
      return NANOARROW_OK;
  }
}

/* MINIMAL: everything checkable from lengths, offsets and buffer sizes. */
static ArrowErrorCode ArrowViewValidateMinimal(struct ArrowArrayView* array_view,
                                               const struct ArrowViewPath* path,
                                               struct ArrowError* error) {
  int64_t end = 0;
  int64_t required;
  int64_t i;
  const struct ArrowBufferView* buffer_view;

  NANOARROW_RETURN_NOT_OK(ArrowViewCheckLengthOffset(array_view, path, &end, error));
  NANOARROW_RETURN_NOT_OK(ArrowViewCheckNullCount(array_view, path, error));

  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    buffer_view = array_view->buffer_views + i;
    if (ArrowViewRequiredBytes(array_view, (int)i, end, &required)) {
      return ArrowViewInvalid(error, path,
                              "Size of buffer %" PRId64 " overflows int64 (offset %" PRId64
                              ", length %" PRId64 ")",
                              i, array_view->offset, array_view->length);
    }
    /* MINIMAL never reads a buffer, so a NULL pointer that claims enough bytes passes
     * here (as in nanoarrow); DEFAULT refuses it before its first read. */
    if (buffer_view->data.data == NULL && buffer_view->size_bytes < required &&
        array_view->layout.buffer_type[i] != NANOARROW_BUFFER_TYPE_VALIDITY) {
      return ArrowViewMissingBuffer(array_view, i, end, path, error);
    }
    if (buffer_view->data.data != NULL && buffer_view->size_bytes < required) {
      return ArrowViewInvalid(error, path,
                              "Expected %s buffer %" PRId64 " to hold >= %" PRId64
                              " bytes but found %" PRId64,
                              ArrowViewBufferTypeName(array_view->layout.buffer_type[i]), i,
                              required, buffer_view->size_bytes);
    }
  }

  return ArrowViewValidateMinimalRest(array_view, end, path, error);
}

/* Offset j of an int32 or int64 offsets buffer. */
static inline int64_t ArrowViewOffsetAt(union ArrowBufferViewData offsets, int is_large,
                                        int64_t j) {
  return is_large ? offsets.as_int64[j] : (int64_t)offsets.as_int32[j];
}

static int ArrowViewOffsetsAreLarge(const struct ArrowArrayView* array_view) {
  return array_view->layout.element_size_bits[1] == 64;
}

/* Checks the first and last offsets of a string/binary/list array against
 * the number of bytes or child elements available. */
static ArrowErrorCode ArrowViewValidateOffsetRange(const struct ArrowArrayView* array_view,
                                                   int64_t available, const char* what,
                                                   int64_t* last_out,
                                                   const struct ArrowViewPath* path,
                                                   struct ArrowError* error) {
  union ArrowBufferViewData offsets = array_view->buffer_views[1].data;
  int is_large = ArrowViewOffsetsAreLarge(array_view);
  int64_t first = ArrowViewOffsetAt(offsets, is_large, array_view->offset);
  int64_t last = ArrowViewOffsetAt(offsets, is_large, array_view->offset + array_view->length);

  if (first < 0) {
    return ArrowViewInvalid(error, path, "Expected first offset >= 0 but found %" PRId64,
                            first);
  }
  if (last < first) {
    return ArrowViewInvalid(error, path,
                            "Expected last offset >= first offset %" PRId64
                            " but found %" PRId64,
                            first, last);
  }
  if (available >= 0 && last > available) {
    return ArrowViewInvalid(error, path,
                            "Expected last offset <= %s %" PRId64 " but found %" PRId64, what,
                            available, last);
  }
  *last_out = last;
  return NANOARROW_OK;
}

/* Buffer i is NULL where the layout has one that is not a validity bitmap (which
 * may be absent): then it must hold no bytes. */
static inline int ArrowViewMayLackBuffer(const struct ArrowArrayView* array_view, int i) {
  return (array_view->buffer_views[i].data.data == NULL) &
         (array_view->layout.buffer_type[i] > NANOARROW_BUFFER_TYPE_VALIDITY);
}

/* Every buffer other than validity that must hold bytes has a non-NULL pointer. */
static NANOARROW_COLD ArrowErrorCode ArrowViewCheckNoNullBuffers(
    const struct ArrowArrayView* array_view, int64_t end, const struct ArrowViewPath* path,
    struct ArrowError* error) {
  int64_t required;
  int64_t i;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    if (ArrowViewMayLackBuffer(array_view, (int)i) &&
        !ArrowViewRequiredBytes(array_view, (int)i, end, &required) && required > 0) {
      return ArrowViewMissingBuffer(array_view, i, end, path, error);
    }
  }
  return NANOARROW_OK;
}

/* DEFAULT: adds O(1) reads per buffer (first/last offsets, last run end). */
static ArrowErrorCode ArrowViewValidateDefault(struct ArrowArrayView* array_view,
                                               const struct ArrowViewPath* path,
                                               struct ArrowError* error) {
  struct ArrowBufferView* data_view = array_view->buffer_views + 2;
  const struct ArrowArrayView* run_ends;
  int64_t last;
  int64_t end = array_view->offset + array_view->length;

  /* The reads below (and every getter) need the pointers MINIMAL did not look at. */
  if (NANOARROW_PREDICT_FALSE(ArrowViewMayLackBuffer(array_view, 0) |
                              ArrowViewMayLackBuffer(array_view, 1) |
                              ArrowViewMayLackBuffer(array_view, 2))) {
    NANOARROW_RETURN_NOT_OK(ArrowViewCheckNoNullBuffers(array_view, end, path, error));
  }

  switch (array_view->storage_type) {
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
      if (array_view->length == 0) {
        if (data_view->size_bytes < 0) {
          data_view->size_bytes = 0;
        }
        return NANOARROW_OK;
      }
      NANOARROW_RETURN_NOT_OK(ArrowViewValidateOffsetRange(
          array_view, data_view->size_bytes, "data buffer size", &last, path, error));
      if (data_view->data.data == NULL) {
        if (last > 0) {
          return ArrowViewInvalid(error, path,
                                  "Expected non-NULL data buffer for last offset %" PRId64,
                                  last);
        }
        /* Every value is empty. The getters add offsets to the data pointer, which
         * must then not be NULL (NULL + 0 is undefined in C). */
        data_view->data.data = kArrowViewNoBytes;
      }
      /* Arrays from the C interface have no data size: the last offset is it. */
      if (data_view->size_bytes < 0) {
        data_view->size_bytes = last;
      }
      return NANOARROW_OK;
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      if (array_view->length == 0) {
        return NANOARROW_OK;
      }
      return ArrowViewValidateOffsetRange(array_view, array_view->children[0]->length,
                                          "child length", &last, path, error);
    case NANOARROW_TYPE_RUN_END_ENCODED:
      if (array_view->length == 0) {
        return NANOARROW_OK;
      }
      run_ends = array_view->children[0];
      last = ArrowArrayViewGetIntUnsafe(run_ends, run_ends->length - 1);
      if (last < end) {
        return ArrowViewInvalid(error, path,
                                "Expected last run end >= offset + length %" PRId64
                                " but found %" PRId64,
                                end, last);
      }
      return NANOARROW_OK;
    default:
      return NANOARROW_OK;
  }
}

/* ---- Pointing a view at an array ---- */

/* A leaf of validity + fixed-width data (int, float, bool, decimal, temporal,
 * fixed-size binary): most columns of a wide table. */
static inline int ArrowViewIsFixedLeaf(const struct ArrowArrayView* array_view) {
  return (array_view->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY) &
         (array_view->layout.buffer_type[1] == NANOARROW_BUFFER_TYPE_DATA) &
         (array_view->layout.buffer_type[2] == NANOARROW_BUFFER_TYPE_NONE) &
         (array_view->n_children == 0) & (array_view->dictionary == NULL) &
         !ArrowViewIsBinaryView(array_view->storage_type);
}

/* ArrowViewSetArrayImpl for a fixed leaf (ArrowViewIsFixedLeaf) whose array passes
 * every check: sets the view as the general path does and returns 1. Returns 0,
 * leaving the view for the general path to set and to word the error, whenever any
 * check (MINIMAL or DEFAULT; neither reads a buffer of these types) would fail. */
static int ArrowViewSetFixedLeaf(struct ArrowArrayView* array_view,
                                 const struct ArrowArray* array) {
  int64_t end;
  int64_t n_bits;
  int64_t data_bytes;
  const void* validity;
  const void* data;
  if ((array->n_buffers != 2) | (array->buffers == NULL) | (array->n_children != 0) |
      (array->dictionary != NULL) | (array->length < 0) | (array->offset < 0)) {
    return 0;
  }
  if (ArrowViewAddOverflows(array->offset, array->length, &end) ||
      ArrowArrayPrivateMulOverflows(end, array_view->layout.element_size_bits[1], &n_bits)) {
    return 0;
  }
  validity = array->buffers[0];
  data = array->buffers[1];
  data_bytes = (n_bits >> 3) + ((n_bits & 7) != 0);
  if ((data == NULL && data_bytes > 0) | (array->null_count < -1) |
      (validity == NULL && array->null_count > 0)) {
    return 0;
  }
  array_view->array = array;
  array_view->offset = array->offset;
  array_view->length = array->length;
  array_view->null_count = array->null_count;
  array_view->buffer_views[0].data.data = validity;
  array_view->buffer_views[0].size_bytes = validity == NULL ? 0 : (end >> 3) + ((end & 7) != 0);
  array_view->buffer_views[1].data.data = data;
  array_view->buffer_views[1].size_bytes = data_bytes;
  array_view->buffer_views[2].data.data = NULL;
  array_view->buffer_views[2].size_bytes = 0;
  array_view->n_variadic_buffers = 0;
  array_view->variadic_buffers = NULL;
  array_view->variadic_buffer_sizes = NULL;
  return 1;
}

/* Points array_view and its children at array and validates them in the same walk:
 * each view's MINIMAL checks (and, with check_default, its DEFAULT checks) run once
 * its children are set, using the buffer sizes computed here. */
static ArrowErrorCode ArrowViewSetArrayImpl(struct ArrowArrayView* array_view,
                                            const struct ArrowArray* array,
                                            const struct ArrowViewPath* path, int depth,
                                            int check_default, struct ArrowError* error) {
  int64_t end = 0;
  int64_t n_fixed;
  int64_t required;
  int64_t missing_buffer = -1;
  int64_t i;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    return ArrowViewInvalid(error, path, "Expected nesting depth <= %d",
                            NANOARROW_MAX_NESTING_DEPTH);
  }
  if (array == NULL) {
    return ArrowViewInvalid(error, path, "Expected a non-NULL array");
  }
  if (ArrowViewIsFixedLeaf(array_view) && ArrowViewSetFixedLeaf(array_view, array)) {
    return NANOARROW_OK;
  }

  array_view->array = array;
  array_view->offset = array->offset;
  array_view->length = array->length;
  array_view->null_count = array->null_count;
  NANOARROW_RETURN_NOT_OK(ArrowViewCheckLengthOffset(array_view, path, &end, error));

  /* Buffers */
  n_fixed = ArrowViewFixedBufferCount(array_view);
  if (ArrowViewIsBinaryView(array_view->storage_type)) {
    if (array->n_buffers < 3 || array->n_buffers - 3 > INT32_MAX) {
      return ArrowViewInvalid(error, path,
                              "Expected at least 3 buffers for %s array but found %" PRId64,
                              ArrowViewTypeName(array_view->storage_type),
                              array->n_buffers);
    }
  } else if (array->n_buffers != n_fixed) {
    return ArrowViewInvalid(error, path,
                            "Expected %" PRId64 " buffers for %s array but found %" PRId64,
                            n_fixed, ArrowViewTypeName(array_view->storage_type),
                            array->n_buffers);
  }
  if (array->n_buffers > 0 && array->buffers == NULL) {
    return ArrowViewInvalid(error, path, "Expected non-NULL buffers for %" PRId64 " buffers",
                            array->n_buffers);
  }

  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    struct ArrowBufferView* buffer_view = array_view->buffer_views + i;
    if (i >= n_fixed) {
      buffer_view->data.data = NULL;
      buffer_view->size_bytes = 0;
      continue;
    }
    if (ArrowViewRequiredBytes(array_view, (int)i, end, &required)) {
      return ArrowViewInvalid(error, path,
                              "Size of %s buffer overflows int64 (offset %" PRId64
                              ", length %" PRId64 ")",
                              ArrowViewBufferTypeName(array_view->layout.buffer_type[i]),
                              array->offset, array->length);
    }
    buffer_view->data.data = array->buffers[i];
    /* A NULL buffer holds nothing; the size of variable-length data stays unknown (-1)
     * until the DEFAULT checks read the last offset. */
    if (array->buffers[i] == NULL && required > 0) {
      buffer_view->size_bytes = 0;
      /* An absent validity buffer means all valid. */
      if (missing_buffer < 0 &&
          array_view->layout.buffer_type[i] != NANOARROW_BUFFER_TYPE_VALIDITY) {
        missing_buffer = i;
      }
    } else {
      buffer_view->size_bytes = required;
    }
  }

  if (ArrowViewIsBinaryView(array_view->storage_type)) {
    array_view->n_variadic_buffers = (int32_t)(array->n_buffers - 3);
    array_view->variadic_buffers = array->buffers + NANOARROW_BINARY_VIEW_FIXED_BUFFERS;
    array_view->variadic_buffer_sizes = (int64_t*)array->buffers[array->n_buffers - 1];
    if (array_view->n_variadic_buffers > 0 && array_view->variadic_buffer_sizes == NULL) {
      return ArrowViewInvalid(error, path, "Expected non-NULL variadic buffer sizes");
    }
  } else {
    array_view->n_variadic_buffers = 0;
    array_view->variadic_buffers = NULL;
    array_view->variadic_buffer_sizes = NULL;
  }

  /* Children */
  if (array->n_children != array_view->n_children) {
    return ArrowViewInvalid(error, path,
                            "Expected %" PRId64 " children for %s array but found %" PRId64,
                            array_view->n_children,
                            ArrowViewTypeName(array_view->storage_type), array->n_children);
  }
  if (array->n_children > 0 && array->children == NULL) {
    return ArrowViewInvalid(error, path, "Expected non-NULL children for %" PRId64
                            " children", array->n_children);
  }
  if (array_view->n_children > 0 && array_view->children == NULL) {
    return ArrowViewInvalid(error, path, "Expected %" PRId64 " non-NULL child views",
                            array_view->n_children);
  }
  for (i = 0; i < array->n_children; i++) {
    struct ArrowViewPath child_path;
    /* Fixed-width leaves (a wide table's columns) without the call; the child is at
     * depth + 1, which the general path would refuse past the limit. */
    if (array->children[i] != NULL && depth < NANOARROW_MAX_NESTING_DEPTH &&
        ArrowViewIsFixedLeaf(array_view->children[i]) &&
        ArrowViewSetFixedLeaf(array_view->children[i], array->children[i])) {
      continue;
    }
    child_path.parent = path;
    child_path.child_index = i;
    if (array->children[i] == NULL) {
      return ArrowViewInvalid(error, &child_path, "Expected a non-NULL child array");
    }
    NANOARROW_RETURN_NOT_OK(ArrowViewSetArrayImpl(array_view->children[i],
                                                  array->children[i], &child_path,
                                                  depth + 1, check_default, error));
  }

  /* Dictionary */
  if ((array->dictionary == NULL) != (array_view->dictionary == NULL)) {
    return ArrowViewInvalid(error, path, "Expected %s dictionary",
                            array_view->dictionary == NULL ? "no" : "a non-NULL");
  }
  if (array->dictionary != NULL) {
    struct ArrowViewPath dictionary_path;
    dictionary_path.parent = path;
    dictionary_path.child_index = -1;
    NANOARROW_RETURN_NOT_OK(ArrowViewSetArrayImpl(array_view->dictionary,
                                                  array->dictionary, &dictionary_path,
                                                  depth + 1, check_default, error));
  }

  /* MINIMAL: the buffer sizes were set from the requirements above, so only the
   * missing buffers are left to report. */
  NANOARROW_RETURN_NOT_OK(ArrowViewCheckNullCount(array_view, path, error));
  if (missing_buffer >= 0) {
    return ArrowViewMissingBuffer(array_view, missing_buffer, end, path, error);
  }
  NANOARROW_RETURN_NOT_OK(ArrowViewValidateMinimalRest(array_view, end, path, error));
  if (check_default) {
    return ArrowViewValidateDefault(array_view, path, error);
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayViewSetArray(struct ArrowArrayView* array_view,
                                      const struct ArrowArray* array,
                                      struct ArrowError* error) {
  return ArrowViewSetArrayImpl(array_view, array, NULL, 1, 1, error);
}

ArrowErrorCode ArrowArrayViewSetArrayMinimal(struct ArrowArrayView* array_view,
                                             const struct ArrowArray* array,
                                             struct ArrowError* error) {
  return ArrowViewSetArrayImpl(array_view, array, NULL, 1, 0, error);
}

/* ---- FULL validation ---- */

/* Offset loops over millions of short elements are the cost of FULL validation:
 * each comes once per offset width so that the loop body reads a single type. */

/* First j in [0, n) with offsets[j + 1] < offsets[j], or n. */
static int64_t ArrowViewFirstDecrease32(const int32_t* offsets, int64_t n) {
  int64_t j;
  for (j = 0; j < n; j++) {
    if (offsets[j + 1] < offsets[j]) {
      break;
    }
  }
  return j;
}

static int64_t ArrowViewFirstDecrease64(const int64_t* offsets, int64_t n) {
  int64_t j;
  for (j = 0; j < n; j++) {
    if (offsets[j + 1] < offsets[j]) {
      break;
    }
  }
  return j;
}

static ArrowErrorCode ArrowViewValidateOffsetsFull(const struct ArrowArrayView* array_view,
                                                   const char* what,
                                                   const struct ArrowViewPath* path,
                                                   struct ArrowError* error) {
  union ArrowBufferViewData offsets = array_view->buffer_views[1].data;
  int is_large = ArrowViewOffsetsAreLarge(array_view);
  int64_t i;

  if (array_view->length == 0) {
    return NANOARROW_OK;
  }
  if (is_large) {
    i = ArrowViewFirstDecrease64(offsets.as_int64 + array_view->offset,
                                 array_view->length);
  } else {
    i = ArrowViewFirstDecrease32(offsets.as_int32 + array_view->offset,
                                 array_view->length);
  }
  if (i < array_view->length) {
    return ArrowViewInvalid(error, path,
                            "Expected %s offsets to be non-decreasing at index %" PRId64
                            " (%" PRId64 " < %" PRId64 ")",
                            what, i,
                            ArrowViewOffsetAt(offsets, is_large, array_view->offset + i + 1),
                            ArrowViewOffsetAt(offsets, is_large, array_view->offset + i));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowViewValidateBinaryViewsFull(
    const struct ArrowArrayView* array_view, const struct ArrowViewPath* path,
    struct ArrowError* error) {
  const union ArrowBinaryView* views = array_view->buffer_views[1].data.as_binary_view;
  int32_t size;
  int32_t buffer_index;
  int64_t i;

  if (array_view->length == 0) {
    return NANOARROW_OK;
  }
  views += array_view->offset;
  for (i = 0; i < array_view->length; i++) {
    size = views[i].inlined.size;
    if (size < 0) {
      return ArrowViewInvalid(error, path,
                              "Expected view size >= 0 at index %" PRId64 " but found %d", i,
                              (int)size);
    }
    if (size > NANOARROW_BINARY_VIEW_INLINE_SIZE) {
      buffer_index = views[i].ref.buffer_index;
      if (buffer_index < 0 || buffer_index >= array_view->n_variadic_buffers) {
        return ArrowViewInvalid(error, path,
                                "Expected view buffer index in [0, %d) at index %" PRId64
                                " but found %d",
                                (int)array_view->n_variadic_buffers, i, (int)buffer_index);
      }
      if (views[i].ref.offset < 0 ||
          (int64_t)views[i].ref.offset + size >
              array_view->variadic_buffer_sizes[buffer_index]) {
        return ArrowViewInvalid(error, path,
                                "Expected view offset %d + size %d <= variadic buffer %d "
                                "size %" PRId64 " at index %" PRId64,
                                (int)views[i].ref.offset, (int)size, (int)buffer_index,
                                array_view->variadic_buffer_sizes[buffer_index], i);
      }
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowViewValidateListViewsFull(
    const struct ArrowArrayView* array_view, const struct ArrowViewPath* path,
    struct ArrowError* error) {
  union ArrowBufferViewData offsets = array_view->buffer_views[1].data;
  union ArrowBufferViewData sizes = array_view->buffer_views[2].data;
  int is_large = ArrowViewOffsetsAreLarge(array_view);
  int64_t child_length = array_view->children[0]->length;
  int64_t i;
  int64_t offset;
  int64_t size;

  for (i = 0; i < array_view->length; i++) {
    offset = ArrowViewOffsetAt(offsets, is_large, array_view->offset + i);
    size = ArrowViewOffsetAt(sizes, is_large, array_view->offset + i);
    if (offset < 0 || size < 0 || offset > child_length - size) {
      return ArrowViewInvalid(error, path,
                              "Expected list view offset %" PRId64 " and size %" PRId64
                              " within child length %" PRId64 " at index %" PRId64,
                              offset, size, child_length, i);
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowViewValidateUnionFull(const struct ArrowArrayView* array_view,
                                                 const struct ArrowViewPath* path,
                                                 struct ArrowError* error) {
  const int8_t* type_ids = array_view->buffer_views[0].data.as_int8;
  const int32_t* offsets = array_view->buffer_views[1].data.as_int32;
  int is_dense = array_view->storage_type == NANOARROW_TYPE_DENSE_UNION;
  int64_t i;
  int64_t j;
  int64_t child_index;
  int8_t type_id;

  for (i = 0; i < array_view->length; i++) {
    j = array_view->offset + i;
    type_id = type_ids[j];
    if (type_id < 0) {
      child_index = -1;
    } else if (array_view->union_type_id_map != NULL) {
      child_index = array_view->union_type_id_map[type_id];
    } else {
      child_index = type_id;
    }
    if (child_index < 0 || child_index >= array_view->n_children) {
      return ArrowViewInvalid(error, path,
                              "Expected a declared union type id at index %" PRId64
                              " but found %d",
                              i, (int)type_id);
    }
    if (is_dense &&
        (offsets[j] < 0 || offsets[j] >= array_view->children[child_index]->length)) {
      return ArrowViewInvalid(error, path,
                              "Expected union offset in [0, %" PRId64 ") for child %" PRId64
                              " at index %" PRId64 " but found %d",
                              array_view->children[child_index]->length, child_index, i,
                              (int)offsets[j]);
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowViewValidateRunEndsFull(const struct ArrowArrayView* array_view,
                                                   const struct ArrowViewPath* path,
                                                   struct ArrowError* error) {
  const struct ArrowArrayView* run_ends = array_view->children[0];
  int64_t previous = 0;
  int64_t current;
  int64_t i;

  for (i = 0; i < run_ends->length; i++) {
    /* A null_count of -1 (unknown) passes the DEFAULT checks; the bits decide. */
    if (ArrowArrayViewIsNull(run_ends, i)) {
      return ArrowViewInvalid(error, path, "Expected run ends without nulls but run end %" PRId64
                              " is null", i);
    }
    current = ArrowArrayViewGetIntUnsafe(run_ends, i);
    if (current <= previous) {
      return ArrowViewInvalid(error, path,
                              "Expected run ends to be positive and strictly increasing at "
                              "index %" PRId64 " but found %" PRId64 " after %" PRId64,
                              i, current, previous);
    }
    previous = current;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode ArrowViewValidateDictionaryIndices(
    const struct ArrowArrayView* array_view, const struct ArrowViewPath* path,
    struct ArrowError* error) {
  int64_t dictionary_length = array_view->dictionary->length;
  int64_t index;
  int64_t i;

  for (i = 0; i < array_view->length; i++) {
    if (ArrowArrayViewIsNull(array_view, i)) {
      continue;
    }
    index = ArrowArrayViewGetIntUnsafe(array_view, i);
    if (index < 0 || index >= dictionary_length) {
      return ArrowViewInvalid(error, path,
                              "Expected dictionary index in [0, %" PRId64
                              ") at index %" PRId64 " but found %" PRId64,
                              dictionary_length, i, index);
    }
  }
  return NANOARROW_OK;
}

/* FULL: reads every element. */
static ArrowErrorCode ArrowViewValidateFull(struct ArrowArrayView* array_view,
                                            const struct ArrowViewPath* path,
                                            struct ArrowError* error) {
  int64_t null_count;

  if (array_view->null_count != -1 &&
      array_view->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY &&
      array_view->buffer_views[0].data.data != NULL) {
    null_count = ArrowArrayViewComputeNullCount(array_view);
    if (null_count != array_view->null_count) {
      return ArrowViewInvalid(error, path,
                              "Expected null_count %" PRId64
                              " to match the validity buffer's %" PRId64 " nulls",
                              array_view->null_count, null_count);
    }
  }

  if (array_view->dictionary != NULL) {
    NANOARROW_RETURN_NOT_OK(ArrowViewValidateDictionaryIndices(array_view, path, error));
  }

  switch (array_view->storage_type) {
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
      /* The bytes are not checked for UTF-8, as nanoarrow does not (the CLI's
       * `validate` does). */
      return ArrowViewValidateOffsetsFull(array_view, "string", path, error);
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_BINARY:
      return ArrowViewValidateOffsetsFull(array_view, "binary", path, error);
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      return ArrowViewValidateOffsetsFull(array_view, "list", path, error);
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      return ArrowViewValidateListViewsFull(array_view, path, error);
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW:
      return ArrowViewValidateBinaryViewsFull(array_view, path, error);
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      return ArrowViewValidateUnionFull(array_view, path, error);
    case NANOARROW_TYPE_RUN_END_ENCODED:
      return ArrowViewValidateRunEndsFull(array_view, path, error);
    default:
      return NANOARROW_OK;
  }
}

ArrowErrorCode ArrowArrayViewValidate(struct ArrowArrayView* array_view,
                                      enum ArrowValidationLevel validation_level,
                                      struct ArrowError* error) {
  switch (validation_level) {
    case NANOARROW_VALIDATION_LEVEL_NONE:
      return NANOARROW_OK;
    case NANOARROW_VALIDATION_LEVEL_MINIMAL:
    case NANOARROW_VALIDATION_LEVEL_DEFAULT:
    case NANOARROW_VALIDATION_LEVEL_FULL:
      break;
    default:
      ArrowErrorSet(error, "Unknown validation level %d", (int)validation_level);
      return EINVAL;
  }

  /* Each level relies on the previous one having passed for the whole tree. */
  NANOARROW_RETURN_NOT_OK(
      ArrowViewValidateTree(array_view, ArrowViewValidateMinimal, NULL, 1, error));
  if (validation_level == NANOARROW_VALIDATION_LEVEL_MINIMAL) {
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(
      ArrowViewValidateTree(array_view, ArrowViewValidateDefault, NULL, 1, error));
  if (validation_level == NANOARROW_VALIDATION_LEVEL_DEFAULT) {
    return NANOARROW_OK;
  }
  return ArrowViewValidateTree(array_view, ArrowViewValidateFull, NULL, 1, error);
}

/* ---- Comparison ---- */

/* Internal result of a range comparison: the views differ (reason written). */
#define NANOARROW_VIEW_DIFFERENT (-1)

static ArrowErrorCode ArrowViewDiffer(struct ArrowError* reason,
                                      const struct ArrowViewPath* path, const char* fmt,
                                      ...) NANOARROW_VIEW_PRINTF(3);

static NANOARROW_COLD ArrowErrorCode ArrowViewDiffer(struct ArrowError* reason,
                                                     const struct ArrowViewPath* path,
                                                     const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  ArrowViewSetMessage(reason, path, fmt, args);
  va_end(args);
  return NANOARROW_VIEW_DIFFERENT;
}

/* Buffer i of both views holds the same bytes (sizes included). */
static NANOARROW_COLD ArrowErrorCode ArrowViewCompareBufferBytes(
    const void* actual, int64_t actual_size, const void* expected, int64_t expected_size,
    const char* what, int64_t i, const struct ArrowViewPath* path,
    struct ArrowError* reason) {
  const uint8_t* a = (const uint8_t*)actual;
  const uint8_t* e = (const uint8_t*)expected;
  int64_t k;
  if (actual_size != expected_size) {
    return ArrowViewDiffer(reason, path,
                           "Expected %s %" PRId64 " of %" PRId64 " bytes but found %" PRId64,
                           what, i, expected_size, actual_size);
  }
  if (actual_size <= 0 || a == e) {
    return NANOARROW_OK;
  }
  if (a == NULL || e == NULL) {
    return ArrowViewDiffer(reason, path, "Expected %s %" PRId64 " to be %s", what, i,
                           e == NULL ? "NULL" : "non-NULL");
  }
  if (memcmp(a, e, (size_t)actual_size) == 0) {
    return NANOARROW_OK;
  }
  for (k = 0; a[k] == e[k]; k++) {
  }
  return ArrowViewDiffer(reason, path,
                         "Expected byte %" PRId64 " of %s %" PRId64
                         " to be 0x%02x but found 0x%02x",
                         k, what, i, (unsigned)e[k], (unsigned)a[k]);
}

/* NANOARROW_COMPARE_IDENTICAL: the views describe the same bytes. */
static NANOARROW_COLD ArrowErrorCode ArrowViewCompareIdentical(
    const struct ArrowArrayView* actual, const struct ArrowArrayView* expected,
    const struct ArrowViewPath* path, int depth, struct ArrowError* reason) {
  struct ArrowViewPath child_path;
  int64_t i;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(reason, "Expected nesting depth <= %d", NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (actual->storage_type != expected->storage_type) {
    return ArrowViewDiffer(reason, path, "Expected storage type %s but found %s",
                           ArrowViewTypeName(expected->storage_type),
                           ArrowViewTypeName(actual->storage_type));
  }
  if (actual->offset != expected->offset) {
    return ArrowViewDiffer(reason, path, "Expected offset %" PRId64 " but found %" PRId64,
                           expected->offset, actual->offset);
  }
  if (actual->length != expected->length) {
    return ArrowViewDiffer(reason, path, "Expected length %" PRId64 " but found %" PRId64,
                           expected->length, actual->length);
  }
  if (actual->null_count != expected->null_count) {
    return ArrowViewDiffer(reason, path,
                           "Expected null_count %" PRId64 " but found %" PRId64,
                           expected->null_count, actual->null_count);
  }
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowViewCompareBufferBytes(
        actual->buffer_views[i].data.data, actual->buffer_views[i].size_bytes,
        expected->buffer_views[i].data.data, expected->buffer_views[i].size_bytes,
        "buffer", i, path, reason));
  }
  if (actual->n_variadic_buffers != expected->n_variadic_buffers) {
    return ArrowViewDiffer(reason, path,
                           "Expected %" PRId32 " variadic buffers but found %" PRId32,
                           expected->n_variadic_buffers, actual->n_variadic_buffers);
  }
  for (i = 0; i < actual->n_variadic_buffers; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowViewCompareBufferBytes(
        actual->variadic_buffers[i], actual->variadic_buffer_sizes[i],
        expected->variadic_buffers[i], expected->variadic_buffer_sizes[i],
        "variadic buffer", i, path, reason));
  }
  if (actual->n_children != expected->n_children) {
    return ArrowViewDiffer(reason, path,
                           "Expected %" PRId64 " children but found %" PRId64,
                           expected->n_children, actual->n_children);
  }
  child_path.parent = path;
  for (i = 0; i < actual->n_children; i++) {
    child_path.child_index = i;
    NANOARROW_RETURN_NOT_OK(ArrowViewCompareIdentical(
        actual->children[i], expected->children[i], &child_path, depth + 1, reason));
  }
  if ((actual->dictionary == NULL) != (expected->dictionary == NULL)) {
    return ArrowViewDiffer(reason, path, "Expected %s dictionary",
                           expected->dictionary == NULL ? "no" : "a");
  }
  if (actual->dictionary != NULL) {
    child_path.child_index = -1;
    NANOARROW_RETURN_NOT_OK(ArrowViewCompareIdentical(
        actual->dictionary, expected->dictionary, &child_path, depth + 1, reason));
  }
  return NANOARROW_OK;
}

NANOARROW_COLD ArrowErrorCode ArrowArrayViewCompare(const struct ArrowArrayView* actual,
                                                    const struct ArrowArrayView* expected,
                                                    enum ArrowCompareLevel level,
                                                    int* out, struct ArrowError* reason) {
  ArrowErrorCode result;
  if (level == NANOARROW_COMPARE_IDENTICAL) {
    *out = 0;
    result = ArrowViewCompareIdentical(actual, expected, NULL, 1, reason);
    if (result == NANOARROW_VIEW_DIFFERENT) {
      return NANOARROW_OK;
    }
    NANOARROW_RETURN_NOT_OK(result);
    *out = 1;
    return NANOARROW_OK;
  }
  ArrowErrorSet(reason, "Unknown comparison level %d", (int)level);
  return EINVAL;
}

/* Floating point to integer conversions that are defined for every input (a C
 * cast is not for NaN or out-of-range values): truncated toward zero, saturated
 * at the type's limits, NaN as 0. */
static int64_t ArrowViewDoubleToInt64(double x) {
  if (x != x) return 0;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  if (x <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)x;
}

static uint64_t ArrowViewDoubleToUInt64(double x) {
  if (!(x > -1.0)) return 0; /* NaN, and negative values below -1 */
  if (x >= 18446744073709551616.0) return UINT64_MAX;
  return (uint64_t)x;
}

/* What ArrowViewReadNumber found at an element. */
#define NANOARROW_VIEW_NUMBER_SIGNED 0   /* *as_int holds the value */
#define NANOARROW_VIEW_NUMBER_UNSIGNED 1 /* *as_int holds a uint64's bits */
#define NANOARROW_VIEW_NUMBER_FLOAT 2    /* *as_double holds the value */
#define NANOARROW_VIEW_NUMBER_NONE 3     /* not a numeric storage type */

/* Element i (offset applied) of any numeric storage type: one switch shared by the
 * three out-of-line getters below. */
static int ArrowViewReadNumber(const struct ArrowArrayView* array_view, int64_t i,
                               int64_t* as_int, double* as_double) {
  const union ArrowBufferViewData data = array_view->buffer_views[1].data;
  switch (array_view->storage_type) {
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      *as_int = data.as_int32[i];
      return NANOARROW_VIEW_NUMBER_SIGNED;
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_DATE64:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_TIMESTAMP:
    case NANOARROW_TYPE_DURATION:
      *as_int = data.as_int64[i];
      return NANOARROW_VIEW_NUMBER_SIGNED;
    case NANOARROW_TYPE_INT16:
      *as_int = data.as_int16[i];
      return NANOARROW_VIEW_NUMBER_SIGNED;
    case NANOARROW_TYPE_INT8:
      *as_int = data.as_int8[i];
      return NANOARROW_VIEW_NUMBER_SIGNED;
    case NANOARROW_TYPE_UINT32:
      *as_int = data.as_uint32[i];
      return NANOARROW_VIEW_NUMBER_SIGNED;
    case NANOARROW_TYPE_UINT16:
      *as_int = data.as_uint16[i];
      return NANOARROW_VIEW_NUMBER_SIGNED;
    case NANOARROW_TYPE_UINT8:
      *as_int = data.as_uint8[i];
      return NANOARROW_VIEW_NUMBER_SIGNED;
    case NANOARROW_TYPE_BOOL:
      *as_int = (data.as_uint8[i >> 3] >> (i & 7)) & 1;
      return NANOARROW_VIEW_NUMBER_SIGNED;
    case NANOARROW_TYPE_UINT64:
      *as_int = (int64_t)data.as_uint64[i];
      return NANOARROW_VIEW_NUMBER_UNSIGNED;
    case NANOARROW_TYPE_DOUBLE:
      *as_double = data.as_double[i];
      return NANOARROW_VIEW_NUMBER_FLOAT;
    case NANOARROW_TYPE_FLOAT:
      *as_double = data.as_float[i];
      return NANOARROW_VIEW_NUMBER_FLOAT;
    case NANOARROW_TYPE_HALF_FLOAT:
      *as_double = ArrowHalfFloatToFloat(data.as_uint16[i]);
      return NANOARROW_VIEW_NUMBER_FLOAT;
    default:
      return NANOARROW_VIEW_NUMBER_NONE;
  }
}

/* The out-of-line getters of nanoarrow_array_view_inline.h (declared pure in
 * nanoarrow.h so loops over the inline getters still unswitch). */
int64_t ArrowPrivateArrayViewGetIntSlow(const struct ArrowArrayView* array_view,
                                        int64_t i) {
  int64_t as_int = 0;
  double as_double = 0.0;
  switch (ArrowViewReadNumber(array_view, i, &as_int, &as_double)) {
    case NANOARROW_VIEW_NUMBER_FLOAT:
      return ArrowViewDoubleToInt64(as_double);
    case NANOARROW_VIEW_NUMBER_NONE:
      return INT64_MAX;
    default:
      return as_int; /* a uint64 above INT64_MAX wraps, as a C conversion would */
  }
}

uint64_t ArrowPrivateArrayViewGetUIntSlow(const struct ArrowArrayView* array_view,
                                          int64_t i) {
  int64_t as_int = 0;
  double as_double = 0.0;
  switch (ArrowViewReadNumber(array_view, i, &as_int, &as_double)) {
    case NANOARROW_VIEW_NUMBER_FLOAT:
      return ArrowViewDoubleToUInt64(as_double);
    case NANOARROW_VIEW_NUMBER_NONE:
      return UINT64_MAX;
    default:
      return (uint64_t)as_int; /* negative values wrap, as a C conversion would */
  }
}

double ArrowPrivateArrayViewGetDoubleSlow(const struct ArrowArrayView* array_view,
                                          int64_t i) {
  int64_t as_int = 0;
  double as_double = 0.0;
  switch (ArrowViewReadNumber(array_view, i, &as_int, &as_double)) {
    case NANOARROW_VIEW_NUMBER_FLOAT:
      return as_double;
    case NANOARROW_VIEW_NUMBER_UNSIGNED:
      return (double)(uint64_t)as_int;
    case NANOARROW_VIEW_NUMBER_SIGNED:
      return (double)as_int;
    default:
      return 0.0;
  }
}
