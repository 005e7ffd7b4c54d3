/* ArrowArrayAppendArrayView(): appends the elements an ArrowArrayView shows to an
 * array being built.
 *
 * It works on storage: struct and union children are matched by position (names are
 * the caller's business), dictionary-encoded arrays get their indices appended (the
 * dictionary is left alone), and numbers convert when the value fits the destination
 * (integers of any width or signedness, integers into floating point; never floating
 * point into integers). The structure is checked before anything is appended; a
 * value that does not fit, or a view whose offsets point outside its children (the
 * view is only trusted to the default validation level), stops the append part way,
 * and the array should then be released. */

#include "nanoarrow/nanoarrow.h"

#if defined(NANOARROW_WITH_ARRAY_APPEND_VIEW)

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Where in the tree the append is: the child index taken at each level. Kept as
 * numbers and written out only for an error message ("children[1].children[0]"). */
struct AppendViewPath {
  int64_t child[NANOARROW_MAX_NESTING_DEPTH + 2];
  int depth;
  char text[192];
};

static void AppendViewPathPush(struct AppendViewPath* path, int64_t i) {
  if (path->depth < (int)(sizeof(path->child) / sizeof(path->child[0]))) {
    path->child[path->depth] = i;
  }
  path->depth++;
}

static void AppendViewPathPop(struct AppendViewPath* path) { path->depth--; }

static const char* AppendViewPathText(struct AppendViewPath* path) {
  size_t used = 0;
  int level;
  int n_levels = path->depth;
  if (n_levels == 0) return "the array";
  if (n_levels > (int)(sizeof(path->child) / sizeof(path->child[0]))) {
    n_levels = (int)(sizeof(path->child) / sizeof(path->child[0]));
  }
  path->text[0] = '\0';
  for (level = 0; level < n_levels && used < sizeof(path->text) - 1; level++) {
    int n = snprintf(path->text + used, sizeof(path->text) - used, "%schildren[%" PRId64 "]",
                     level == 0 ? "" : ".", path->child[level]);
    if (n < 0) break;
    used += (size_t)n;
  }
  return path->text;
}

enum AppendViewKind {
  APPEND_VIEW_OTHER,
  APPEND_VIEW_SIGNED,
  APPEND_VIEW_UNSIGNED,
  APPEND_VIEW_FLOATING,
  APPEND_VIEW_BOOL,
  APPEND_VIEW_BYTES,
  APPEND_VIEW_DECIMAL,
  APPEND_VIEW_INTERVAL,
  APPEND_VIEW_LIST,
  APPEND_VIEW_STRUCT,
  APPEND_VIEW_UNION,
  APPEND_VIEW_RUN_END,
  APPEND_VIEW_NULL
};

static enum AppendViewKind AppendViewKindOf(enum ArrowType type) {
  switch (type) {
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_DATE64:
    case NANOARROW_TYPE_TIMESTAMP:
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_DURATION:
      return APPEND_VIEW_SIGNED;
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_UINT64:
      return APPEND_VIEW_UNSIGNED;
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
      return APPEND_VIEW_FLOATING;
    case NANOARROW_TYPE_BOOL:
      return APPEND_VIEW_BOOL;
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      return APPEND_VIEW_BYTES;
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      return APPEND_VIEW_DECIMAL;
    case NANOARROW_TYPE_INTERVAL_MONTHS:
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
      return APPEND_VIEW_INTERVAL;
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
    case NANOARROW_TYPE_MAP:
      return APPEND_VIEW_LIST;
    case NANOARROW_TYPE_STRUCT:
      return APPEND_VIEW_STRUCT;
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      return APPEND_VIEW_UNION;
    case NANOARROW_TYPE_RUN_END_ENCODED:
      return APPEND_VIEW_RUN_END;
    case NANOARROW_TYPE_NA:
      return APPEND_VIEW_NULL;
    default:
      return APPEND_VIEW_OTHER;
  }
}

/* The storage type the array was initialized with (kept in its private data). */
static enum ArrowType AppendViewArrayType(const struct ArrowArray* array) {
  return ((const struct ArrowArrayPrivateData*)array->private_data)->storage_type;
}

static int AppendViewCanConvert(enum ArrowType to, const struct ArrowArrayView* from) {
  enum AppendViewKind to_kind = AppendViewKindOf(to);
  enum AppendViewKind from_kind = AppendViewKindOf(from->storage_type);
  switch (to_kind) {
    case APPEND_VIEW_SIGNED:
    case APPEND_VIEW_UNSIGNED:
      return from_kind == APPEND_VIEW_SIGNED || from_kind == APPEND_VIEW_UNSIGNED;
    case APPEND_VIEW_FLOATING:
      return from_kind == APPEND_VIEW_SIGNED || from_kind == APPEND_VIEW_UNSIGNED ||
             from_kind == APPEND_VIEW_FLOATING;
    case APPEND_VIEW_DECIMAL:
      /* The same storage width: decimals are copied word for word. */
      return to == from->storage_type;
    case APPEND_VIEW_INTERVAL:
    case APPEND_VIEW_RUN_END:
      return to == from->storage_type;
    case APPEND_VIEW_LIST:
      /* A map's entries must stay a map's; other list layouts convert freely. */
      return from_kind == APPEND_VIEW_LIST &&
             (to == NANOARROW_TYPE_MAP) == (from->storage_type == NANOARROW_TYPE_MAP);
    case APPEND_VIEW_BOOL:
    case APPEND_VIEW_BYTES:
    case APPEND_VIEW_STRUCT:
    case APPEND_VIEW_UNION:
    case APPEND_VIEW_NULL:
      return to_kind == from_kind;
    default:
      return 0;
  }
}

/* Checks the whole tree before anything is appended. */
static ArrowErrorCode AppendViewCheck(const struct ArrowArray* array,
                                      const struct ArrowArrayView* view, int depth,
                                      struct AppendViewPath* path, struct ArrowError* error) {
  enum ArrowType to;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "%s: nested deeper than %d levels", AppendViewPathText(path),
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (array == NULL || array->release == NULL || array->private_data == NULL) {
    ArrowErrorSet(error, "%s: the destination is not an array being built",
                  AppendViewPathText(path));
    return EINVAL;
  }
  if (!ArrowArrayIsInternal((struct ArrowArray*)array)) {
    ArrowErrorSet(error,
                  "%s: the destination was not made by ArrowArrayInit*() (moved in from "
                  "elsewhere): cannot append to it",
                  AppendViewPathText(path));
    return EINVAL;
  }
  to = AppendViewArrayType(array);
  if (!AppendViewCanConvert(to, view)) {
    ArrowErrorSet(error, "%s: cannot append %s values to %s storage",
                  AppendViewPathText(path), ArrowTypeString(view->storage_type),
                  ArrowTypeString(to));
    return EINVAL;
  }
  switch (AppendViewKindOf(to)) {
    case APPEND_VIEW_LIST:
    case APPEND_VIEW_STRUCT:
    case APPEND_VIEW_UNION:
    case APPEND_VIEW_RUN_END:
      break;
    default:
      return NANOARROW_OK;
  }
  if (array->n_children != view->n_children) {
    ArrowErrorSet(error, "%s: the view has %" PRId64 " children, the array %" PRId64,
                  AppendViewPathText(path), view->n_children, array->n_children);
    return EINVAL;
  }
  for (i = 0; i < view->n_children; i++) {
    AppendViewPathPush(path, i);
    NANOARROW_RETURN_NOT_OK(
        AppendViewCheck(array->children[i], view->children[i], depth + 1, path, error));
    AppendViewPathPop(path);
  }
  return NANOARROW_OK;
}

static ArrowErrorCode AppendViewRange(struct ArrowArray* array,
                                      const struct ArrowArrayView* view, int64_t start,
                                      int64_t length, struct AppendViewPath* path,
                                      struct ArrowError* error);

static ArrowErrorCode AppendViewOutOfRange(struct AppendViewPath* path,
                                           const char* what, int64_t i, int64_t begin,
                                           int64_t end, int64_t child_length,
                                           struct ArrowError* error) {
  ArrowErrorSet(error,
                "%s: element %" PRId64 " %s [%" PRId64 ", %" PRId64
                ") outside its child of length %" PRId64,
                AppendViewPathText(path), i, what, begin, end, child_length);
  return EINVAL;
}

/* Element k (offset applied) of a binary-like view lies inside its data: at the
 * default validation level only the first and last offsets, and no view's buffer
 * index or range, have been checked. */
static int AppendViewBytesInRange(const struct ArrowArrayView* view, int64_t k) {
  const struct ArrowBufferView* offsets = &view->buffer_views[1];
  int64_t data_size = view->buffer_views[2].size_bytes;
  switch (view->storage_type) {
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY: {
      int64_t begin = offsets->data.as_int32[k];
      int64_t end = offsets->data.as_int32[k + 1];
      return begin >= 0 && begin <= end && end <= data_size;
    }
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY: {
      int64_t begin = offsets->data.as_int64[k];
      int64_t end = offsets->data.as_int64[k + 1];
      return begin >= 0 && begin <= end && end <= data_size;
    }
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW: {
      const union ArrowBinaryView* item = offsets->data.as_binary_view + k;
      if (item->inlined.size < 0) return 0;
      if (item->inlined.size <= NANOARROW_BINARY_VIEW_INLINE_SIZE) return 1;
      return item->ref.buffer_index >= 0 &&
             item->ref.buffer_index < view->n_variadic_buffers && item->ref.offset >= 0 &&
             (int64_t)item->ref.offset + item->inlined.size <=
                 view->variadic_buffer_sizes[item->ref.buffer_index];
    }
    default:
      return 1;
  }
}

/* A non-null element of a leaf (non-nested) type. */
static ArrowErrorCode AppendViewLeaf(struct ArrowArray* array,
                                     const struct ArrowArrayView* view, int64_t i,
                                     enum ArrowType to) {
  switch (AppendViewKindOf(view->storage_type)) {
    case APPEND_VIEW_SIGNED:
    case APPEND_VIEW_BOOL:
      return ArrowArrayAppendInt(array, ArrowArrayViewGetIntUnsafe(view, i));
    case APPEND_VIEW_UNSIGNED:
      return ArrowArrayAppendUInt(array, ArrowArrayViewGetUIntUnsafe(view, i));
    case APPEND_VIEW_FLOATING:
      return ArrowArrayAppendDouble(array, ArrowArrayViewGetDoubleUnsafe(view, i));
    case APPEND_VIEW_BYTES:
      if (!AppendViewBytesInRange(view, view->offset + i)) return ERANGE;
      return ArrowArrayAppendBytes(array, ArrowArrayViewGetBytesUnsafe(view, i));
    case APPEND_VIEW_DECIMAL: {
      struct ArrowDecimal decimal;
      ArrowDecimalInit(&decimal, view->layout.element_size_bits[1], 0, 0);
      ArrowArrayViewGetDecimalUnsafe(view, i, &decimal);
      return ArrowArrayAppendDecimal(array, &decimal);
    }
    case APPEND_VIEW_INTERVAL: {
      struct ArrowInterval interval;
      ArrowIntervalInit(&interval, to);
      ArrowArrayViewGetIntervalUnsafe(view, i, &interval);
      return ArrowArrayAppendInterval(array, &interval);
    }
    default:
      return ENOTSUP;
  }
}

/* Appends the validity of the view's elements [start, start + length) and counts
 * them into the array's length: for structs, whose children were appended as
 * ranges, and fixed-width values copied in one piece. A bitmap that does not exist
 * yet stays absent while every element is valid. */
static ArrowErrorCode AppendViewValidity(struct ArrowArray* array,
                                         const struct ArrowArrayView* view, int64_t start,
                                         int64_t length) {
  struct ArrowBitmap* bitmap = ArrowArrayValidityBitmap(array);
  const uint8_t* bits = view->buffer_views[0].data.as_uint8;
  int64_t nulls = 0;
  int64_t i;
  if (bits != NULL && view->null_count != 0) {
    nulls = length - ArrowBitCountSet(bits, view->offset + start, length);
  }
  if (nulls == 0) {
    if (bitmap->buffer.data != NULL) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateAppendValidity(array, 1, length));
    }
    array->length += length;
    return NANOARROW_OK;
  }
  /* Brings the bitmap to exactly the existing elements, then room for the new ones. */
  NANOARROW_RETURN_NOT_OK(ArrowArrayPrivateAppendValidity(array, 1, 0));
  NANOARROW_RETURN_NOT_OK(ArrowBitmapReserve(bitmap, length));
  for (i = view->offset + start; i < view->offset + start + length; i++) {
    ArrowBitmapAppendUnsafe(bitmap, (uint8_t)((bits[i >> 3] >> (i & 7)) & 1), 1);
  }
  array->null_count += nulls;
  array->length += length;
  return NANOARROW_OK;
}

/* Fixed-width values of one type and width (not bits): copied in one piece. Binary
 * views look fixed-width (16 bytes) but point into variadic buffers: not copied. */
static int AppendViewCanCopy(const struct ArrowArray* array,
                             const struct ArrowArrayView* view) {
  const struct ArrowArrayPrivateData* private_data =
      (const struct ArrowArrayPrivateData*)array->private_data;
  int64_t bits = view->layout.element_size_bits[1];
  return view->storage_type == private_data->storage_type &&
         view->storage_type != NANOARROW_TYPE_STRING_VIEW &&
         view->storage_type != NANOARROW_TYPE_BINARY_VIEW &&
         view->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY &&
         view->layout.buffer_type[1] == NANOARROW_BUFFER_TYPE_DATA &&
         view->layout.buffer_type[2] == NANOARROW_BUFFER_TYPE_NONE && bits >= 8 &&
         (bits & 7) == 0 && private_data->layout.element_size_bits[1] == bits;
}

static ArrowErrorCode AppendViewCopy(struct ArrowArray* array,
                                     const struct ArrowArrayView* view, int64_t start,
                                     int64_t length) {
  int64_t width = view->layout.element_size_bits[1] / 8;
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(
      ArrowArrayBuffer(array, 1),
      view->buffer_views[1].data.as_uint8 + (view->offset + start) * width,
      length * width));
  return AppendViewValidity(array, view, start, length);
}

/* Struct elements [start, start + length): each child's matching range, then the
 * struct's own validity (a null struct keeps the child values under it, which the
 * format allows). */
static ArrowErrorCode AppendViewStruct(struct ArrowArray* array,
                                       const struct ArrowArrayView* view, int64_t start,
                                       int64_t length, struct AppendViewPath* path,
                                       struct ArrowError* error) {
  int64_t at = view->offset + start;
  int64_t k;
  for (k = 0; k < view->n_children; k++) {
    const struct ArrowArrayView* child = view->children[k];
    AppendViewPathPush(path, k);
    if (at + length > child->length) {
      return AppendViewOutOfRange(path, "spans", start, at, at + length, child->length,
                                  error);
    }
    NANOARROW_RETURN_NOT_OK(
        AppendViewRange(array->children[k], child, at, length, path, error));
    AppendViewPathPop(path);
  }
  if (AppendViewValidity(array, view, start, length) != NANOARROW_OK) {
    ArrowErrorSet(error, "%s: out of memory", AppendViewPathText(path));
    return ENOMEM;
  }
  return NANOARROW_OK;
}

/* The child range [begin, end) of list-like element i (0 <= i < view->length). */
static ArrowErrorCode AppendViewListRange(const struct ArrowArrayView* view, int64_t i,
                                          int64_t* begin, int64_t* end) {
  int64_t k = view->offset + i;
  switch (view->storage_type) {
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_MAP:
    case NANOARROW_TYPE_LARGE_LIST:
      *begin = ArrowArrayViewListChildOffset(view, k);
      *end = ArrowArrayViewListChildOffset(view, k + 1);
      return NANOARROW_OK;
    case NANOARROW_TYPE_LIST_VIEW:
      *begin = view->buffer_views[1].data.as_int32[k];
      *end = *begin + view->buffer_views[2].data.as_int32[k];
      return NANOARROW_OK;
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      *begin = view->buffer_views[1].data.as_int64[k];
      if (view->buffer_views[2].data.as_int64[k] < 0 ||
          *begin > INT64_MAX - view->buffer_views[2].data.as_int64[k]) {
        return EINVAL;
      }
      *end = *begin + view->buffer_views[2].data.as_int64[k];
      return NANOARROW_OK;
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      *begin = k * view->layout.child_size_elements;
      *end = *begin + view->layout.child_size_elements;
      return NANOARROW_OK;
    default:
      return EINVAL;
  }
}

/* One non-null list element: its child range, then the element is closed. */
static ArrowErrorCode AppendViewList(struct ArrowArray* array,
                                     const struct ArrowArrayView* view, int64_t i,
                                     struct AppendViewPath* path, struct ArrowError* error) {
  int64_t begin = 0;
  int64_t end = 0;
  const struct ArrowArrayView* child = view->children[0];
  AppendViewPathPush(path, 0);
  if (AppendViewListRange(view, i, &begin, &end) != NANOARROW_OK || begin < 0 ||
      end < begin || end > child->length) {
    return AppendViewOutOfRange(path, "spans", i, begin, end, child->length, error);
  }
  NANOARROW_RETURN_NOT_OK(
      AppendViewRange(array->children[0], child, begin, end - begin, path, error));
  AppendViewPathPop(path);
  /* For example a fixed-size list of another size. */
  if (ArrowArrayFinishElement(array) != NANOARROW_OK) {
    ArrowErrorSet(error, "%s: element %" PRId64 " could not be closed (child lengths)",
                  AppendViewPathText(path), i);
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* One union element: the selected child's value, then the type id. */
static ArrowErrorCode AppendViewUnion(struct ArrowArray* array,
                                      const struct ArrowArrayView* view, int64_t i,
                                      struct AppendViewPath* path,
                                      struct ArrowError* error) {
  int8_t type_id = ArrowArrayViewUnionTypeId(view, i);
  int64_t child_index = ArrowArrayViewUnionChildIndex(view, i);
  int64_t at = ArrowArrayViewUnionChildOffset(view, i);
  if (child_index < 0 || child_index >= view->n_children) {
    ArrowErrorSet(error, "%s: element %" PRId64 " has undeclared type id %d",
                  AppendViewPathText(path), i, (int)type_id);
    return EINVAL;
  }
  /* Children correspond by position: the destination's type id for this child must
   * be the source's. */
  if (ArrowArrayPrivateUnionChildIndex(array, type_id) != child_index) {
    ArrowErrorSet(error, "%s: type id %d does not name child %" PRId64 " in the destination",
                  AppendViewPathText(path), (int)type_id, child_index);
    return EINVAL;
  }
  AppendViewPathPush(path, child_index);
  if (at < 0 || at >= view->children[child_index]->length) {
    return AppendViewOutOfRange(path, "at", i, at, at + 1,
                                view->children[child_index]->length, error);
  }
  NANOARROW_RETURN_NOT_OK(AppendViewRange(array->children[child_index],
                                          view->children[child_index], at, 1, path, error));
  AppendViewPathPop(path);
  if (ArrowArrayFinishUnionElement(array, type_id) != NANOARROW_OK) {
    ArrowErrorSet(error, "%s: union element %" PRId64 " could not be closed",
                  AppendViewPathText(path), i);
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* Run-end encoded: every source run that overlaps [start, start + length) becomes one
 * run of the destination, clipped to the range. */
static ArrowErrorCode AppendViewRuns(struct ArrowArray* array,
                                     const struct ArrowArrayView* view, int64_t start,
                                     int64_t length, struct AppendViewPath* path,
                                     struct ArrowError* error) {
  const struct ArrowArrayView* run_ends = view->children[0];
  const struct ArrowArrayView* values = view->children[1];
  int64_t position = view->offset + start;
  int64_t stop = position + length;
  int64_t run = ArrowArrayViewPrivateRunIndex(run_ends, position);
  while (position < stop) {
    int64_t run_end;
    int64_t taken;
    if (run >= run_ends->length || run >= values->length) {
      ArrowErrorSet(error, "%s: the runs end before logical element %" PRId64,
                    AppendViewPathText(path), position);
      return EINVAL;
    }
    run_end = ArrowArrayViewGetIntUnsafe(run_ends, run);
    if (run_end <= position) {
      ArrowErrorSet(error, "%s: run end %" PRId64 " at run %" PRId64 " does not increase",
                    AppendViewPathText(path), run_end, run);
      return EINVAL;
    }
    taken = (run_end < stop ? run_end : stop) - position;
    if (ArrowArrayAppendInt(array->children[0], array->length + taken) != NANOARROW_OK) {
      ArrowErrorSet(error, "%s: run end %" PRId64 " does not fit the destination",
                    AppendViewPathText(path), array->length + taken);
      return EINVAL;
    }
    AppendViewPathPush(path, 1);
    NANOARROW_RETURN_NOT_OK(AppendViewRange(array->children[1], values, run, 1, path, error));
    AppendViewPathPop(path);
    array->length += taken;
    position += taken;
    run++;
  }
  return NANOARROW_OK;
}

/* Appends the view's elements [start, start + length) (indices relative to the view's
 * offset, as for the ArrowArrayView getters). */
static ArrowErrorCode AppendViewRange(struct ArrowArray* array,
                                      const struct ArrowArrayView* view, int64_t start,
                                      int64_t length, struct AppendViewPath* path,
                                      struct ArrowError* error) {
  enum ArrowType to = AppendViewArrayType(array);
  enum AppendViewKind kind = AppendViewKindOf(view->storage_type);
  int64_t i;
  int result;
  if (length == 0) return NANOARROW_OK;
  switch (kind) {
    case APPEND_VIEW_NULL:
      result = ArrowArrayAppendNull(array, length);
      break;
    case APPEND_VIEW_RUN_END:
      return AppendViewRuns(array, view, start, length, path, error);
    case APPEND_VIEW_STRUCT:
      return AppendViewStruct(array, view, start, length, path, error);
    default:
      result = AppendViewCanCopy(array, view) ? AppendViewCopy(array, view, start, length)
                                              : -1;
      break;
  }
  if (result > 0) {
    ArrowErrorSet(error, "%s: could not append %" PRId64 " elements",
                  AppendViewPathText(path), length);
    return result;
  }
  if (result == NANOARROW_OK) return NANOARROW_OK;

  for (i = start; i < start + length; i++) {
    /* Unions have no validity bitmap: a null lives in the selected child. */
    if (kind == APPEND_VIEW_UNION) {
      NANOARROW_RETURN_NOT_OK(AppendViewUnion(array, view, i, path, error));
      continue;
    }
    if (ArrowArrayViewIsNull(view, i)) {
      result = ArrowArrayAppendNull(array, 1);
    } else if (kind == APPEND_VIEW_LIST) {
      NANOARROW_RETURN_NOT_OK(AppendViewList(array, view, i, path, error));
      continue;
    } else {
      result = AppendViewLeaf(array, view, i, to);
    }
    if (result == ERANGE) {
      ArrowErrorSet(error, "%s: element %" PRId64 " lies outside the view's data buffers",
                    AppendViewPathText(path), i);
      return EINVAL;
    }
    if (result != NANOARROW_OK) {
      ArrowErrorSet(error, "%s: element %" PRId64 " (%s) could not be appended to %s storage",
                    AppendViewPathText(path), i, ArrowTypeString(view->storage_type),
                    ArrowTypeString(to));
      return result;
    }
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowArrayAppendArrayView(struct ArrowArray* array,
                                         const struct ArrowArrayView* array_view,
                                         struct ArrowError* error) {
  struct AppendViewPath path;
  path.depth = 0;
  if (array_view == NULL) {
    ArrowErrorSet(error, "ArrowArrayAppendArrayView(): array_view is NULL");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(AppendViewCheck(array, array_view, 0, &path, error));
  return AppendViewRange(array, array_view, 0, array_view->length, &path, error);
}

#else
/* Built without ArrowArrayAppendArrayView(): ISO C wants a declaration in every file. */
typedef int ArrowArrayAppendViewNotBuilt;
#endif
