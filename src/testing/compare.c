/* Logical comparison of schemas, arrays and streams, naming the first difference. */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_testing.h"
#include "testing/testing_private.h"

/* Results of the element walk: equal, different (reason set), or a failure. */
#define COMPARE_EQUAL 0
#define COMPARE_DIFFERENT (-1)

/* ---- Schemas ---- */

/* How many times the pair (key, value) occurs in metadata (-1: unreadable). */
static int64_t MetadataCountPair(const char* metadata, struct ArrowStringView key,
                                 struct ArrowStringView value) {
  struct ArrowMetadataReader reader;
  struct ArrowStringView k, v;
  int64_t n = 0;
  if (ArrowMetadataReaderInit(&reader, metadata) != NANOARROW_OK) return -1;
  while (reader.remaining_keys > 0) {
    if (ArrowMetadataReaderRead(&reader, &k, &v) != NANOARROW_OK) return -1;
    n += k.size_bytes == key.size_bytes && v.size_bytes == value.size_bytes &&
         memcmp(k.data, key.data, (size_t)k.size_bytes) == 0 &&
         memcmp(v.data, value.data, (size_t)v.size_bytes) == 0;
  }
  return n;
}

/* Key/value pairs compare as a multiset: IPC and JSON producers do not all keep
 * the order (a hash map holds them in some), but each pair must occur as often
 * on both sides. */
static int MetadataEqual(const char* actual, const char* expected) {
  struct ArrowMetadataReader reader_a;
  struct ArrowMetadataReader reader_b;
  struct ArrowStringView key, value;
  if (ArrowMetadataReaderInit(&reader_a, actual) != NANOARROW_OK ||
      ArrowMetadataReaderInit(&reader_b, expected) != NANOARROW_OK) {
    return 0;
  }
  if (reader_a.remaining_keys != reader_b.remaining_keys) return 0;
  while (reader_a.remaining_keys > 0) {
    int64_t in_actual, in_expected;
    if (ArrowMetadataReaderRead(&reader_a, &key, &value) != NANOARROW_OK) return 0;
    in_actual = MetadataCountPair(actual, key, value);
    in_expected = MetadataCountPair(expected, key, value);
    if (in_actual < 0 || in_actual != in_expected) return 0;
  }
  return 1;
}

/* Metadata as bytes (ordered) or as a multiset of pairs; no metadata and an empty
 * one are the same. */
static int MetadataSame(const char* actual, const char* expected, int ordered) {
  struct ArrowMetadataReader reader_a;
  struct ArrowMetadataReader reader_b;
  int64_t size;
  if (ArrowMetadataReaderInit(&reader_a, actual) != NANOARROW_OK ||
      ArrowMetadataReaderInit(&reader_b, expected) != NANOARROW_OK) {
    return 0;
  }
  if (reader_a.remaining_keys == 0 && reader_b.remaining_keys == 0) return 1;
  if (!ordered) return MetadataEqual(actual, expected);
  size = ArrowMetadataSizeOf(actual);
  return size == ArrowMetadataSizeOf(expected) &&
         memcmp(actual, expected, (size_t)size) == 0;
}

/* A schema handed in by the caller is checked whole before it is compared: every
 * node parses (ArrowSchemaViewInit also refuses NULL or released children and
 * dictionaries) and the tree is at most NANOARROW_MAX_NESTING_DEPTH deep. */
static ArrowErrorCode CheckSchemaTree(const struct ArrowSchema* schema, int depth,
                                      struct ArrowError* error) {
  struct ArrowSchemaView view;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "schema nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (schema == NULL || schema->release == NULL) {
    ArrowErrorSet(error, "schema is NULL or released");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&view, schema, error));
  for (i = 0; i < schema->n_children; i++) {
    ArrowErrorCode rc = CheckSchemaTree(schema->children[i], depth + 1, error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "children[%" PRId64 "]", i);
      return rc;
    }
  }
  if (schema->dictionary != NULL) {
    ArrowErrorCode rc = CheckSchemaTree(schema->dictionary, depth + 1, error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "dictionary");
      return rc;
    }
  }
  return NANOARROW_OK;
}

/* ignore_names (2: a map's entries, 1: their key and value): names Arrow
 * does not consider part of the type (C++ writes them canonically to IPC). */
static int CompareSchemaNode(const struct ArrowSchema* actual,
                             const struct ArrowSchema* expected, int depth, int ignore_names,
                             int metadata_ordered, struct ArrowError* reason) {
  const char* name_a = actual->name == NULL ? "" : actual->name;
  const char* name_b = expected->name == NULL ? "" : expected->name;
  int64_t i;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(reason, "schema nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (actual->format == NULL || expected->format == NULL) {
    ArrowErrorSet(reason, "schema has no format");
    return EINVAL;
  }
  if (!ignore_names && strcmp(name_a, name_b) != 0) {
    ArrowErrorSet(reason, "expected name '%s' but found '%s'", name_b, name_a);
    return COMPARE_DIFFERENT;
  }
  if (strcmp(actual->format, expected->format) != 0) {
    ArrowErrorSet(reason, "expected format '%s' but found '%s'", expected->format,
                  actual->format);
    return COMPARE_DIFFERENT;
  }
  if (actual->flags != expected->flags) {
    ArrowErrorSet(reason, "expected flags %" PRId64 " but found %" PRId64
                  " (1: dictionary ordered, 2: nullable, 4: map keys sorted)",
                  expected->flags, actual->flags);
    return COMPARE_DIFFERENT;
  }
  if (!MetadataSame(actual->metadata, expected->metadata, metadata_ordered)) {
    ArrowErrorSet(reason, "metadata differs");
    return COMPARE_DIFFERENT;
  }
  if (actual->n_children != expected->n_children) {
    ArrowErrorSet(reason, "expected %" PRId64 " children but found %" PRId64,
                  expected->n_children, actual->n_children);
    return COMPARE_DIFFERENT;
  }
  for (i = 0; i < actual->n_children; i++) {
    int is_map = strcmp(expected->format, "+m") == 0;
    int rc = CompareSchemaNode(actual->children[i], expected->children[i], depth + 1,
                               is_map ? 2 : (ignore_names == 2 ? 1 : 0), metadata_ordered,
                               reason);
    if (rc != COMPARE_EQUAL) {
      ArrowTestingPrefixError(reason, "children[%" PRId64 "] '%s'", i,
                              ArrowTestingFieldName(expected->children[i]));
      return rc;
    }
  }
  if ((actual->dictionary == NULL) != (expected->dictionary == NULL)) {
    ArrowErrorSet(reason, "expected %s dictionary",
                  expected->dictionary == NULL ? "no" : "a");
    return COMPARE_DIFFERENT;
  }
  if (actual->dictionary != NULL) {
    int rc = CompareSchemaNode(actual->dictionary, expected->dictionary, depth + 1, 0,
                               metadata_ordered, reason);
    if (rc != COMPARE_EQUAL) {
      ArrowTestingPrefixError(reason, "dictionary");
      return rc;
    }
  }
  return COMPARE_EQUAL;
}

ArrowErrorCode ArrowTestingCompareSchema(const struct ArrowSchema* actual,
                                         const struct ArrowSchema* expected, int* equal,
                                         struct ArrowError* reason) {
  int rc;
  *equal = 0;
  if (actual == NULL || expected == NULL || actual->release == NULL ||
      expected->release == NULL) {
    ArrowErrorSet(reason, "schema is released");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(CheckSchemaTree(actual, 0, reason));
  NANOARROW_RETURN_NOT_OK(CheckSchemaTree(expected, 0, reason));
  rc = CompareSchemaNode(actual, expected, 0, 0, 0, reason);
  if (rc == COMPARE_DIFFERENT) return NANOARROW_OK;
  if (rc != COMPARE_EQUAL) return rc;
  *equal = 1;
  return NANOARROW_OK;
}

/* ---- Elements ---- */

/* A short description of element i for messages. */
static void DescribeElement(const struct ArrowArrayView* view, int64_t i, char* out,
                            size_t size) {
  int64_t p = view->offset + i;
  if (view->storage_type != NANOARROW_TYPE_SPARSE_UNION &&
      view->storage_type != NANOARROW_TYPE_DENSE_UNION &&
      view->storage_type != NANOARROW_TYPE_RUN_END_ENCODED &&
      ArrowArrayViewIsNull(view, i)) {
    snprintf(out, size, "null");
    return;
  }
  switch (view->storage_type) {
    case NANOARROW_TYPE_BOOL:
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_UINT32:
      snprintf(out, size, "%" PRId64, ArrowArrayViewGetIntUnsafe(view, i));
      return;
    case NANOARROW_TYPE_UINT64:
      snprintf(out, size, "%" PRIu64, ArrowArrayViewGetUIntUnsafe(view, i));
      return;
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
    case NANOARROW_TYPE_HALF_FLOAT:
      snprintf(out, size, "%.17g", ArrowArrayViewGetDoubleUnsafe(view, i));
      return;
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_STRING_VIEW: {
      struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(view, i);
      snprintf(out, size, "\"%.*s\"%s", (int)(value.size_bytes > 40 ? 40 : value.size_bytes),
               value.data, value.size_bytes > 40 ? "..." : "");
      return;
    }
    default: {
      /* Fixed-width values as hex; others by kind. */
      int64_t bits = view->layout.element_size_bits[1];
      if (view->layout.buffer_type[1] == NANOARROW_BUFFER_TYPE_DATA && bits >= 8 &&
          bits <= 256 && view->n_children == 0) {
        const uint8_t* bytes = view->buffer_views[1].data.as_uint8 + p * (bits / 8);
        size_t used = 0;
        int64_t k;
        used += (size_t)snprintf(out, size, "0x");
        for (k = 0; k < bits / 8 && used + 3 < size; k++) {
          used += (size_t)snprintf(out + used, size - used, "%02X", bytes[k]);
        }
      } else {
        snprintf(out, size, "<%s value>", ArrowTypeString(view->storage_type));
      }
      return;
    }
  }
}

static int CompareElement(const struct ArrowSchema* schema, const struct ArrowArrayView* a,
                          int64_t i, const struct ArrowArrayView* b, int64_t j, int depth,
                          int fixed_digits, struct ArrowError* reason);

/* Sets the message for two differing elements. */
static int ReportDifferent(const struct ArrowArrayView* a, int64_t i,
                           const struct ArrowArrayView* b, int64_t j,
                           struct ArrowError* reason) {
  char found[96];
  char expected[96];
  DescribeElement(a, i, found, sizeof(found));
  DescribeElement(b, j, expected, sizeof(expected));
  ArrowErrorSet(reason, "expected %s but found %s", expected, found);
  return COMPARE_DIFFERENT;
}

static int CompareChildRange(const struct ArrowSchema* schema, int64_t child,
                             const struct ArrowArrayView* a, int64_t a_start,
                             const struct ArrowArrayView* b, int64_t b_start, int64_t n,
                             int depth, int fixed_digits, struct ArrowError* reason) {
  int64_t k;
  for (k = 0; k < n; k++) {
    int rc = CompareElement(schema->children[child], a->children[child], a_start + k,
                            b->children[child], b_start + k, depth + 1, fixed_digits,
                            reason);
    if (rc != COMPARE_EQUAL) {
      ArrowTestingPrefixError(reason, "children[%" PRId64 "] '%s' row %" PRId64, child,
                              ArrowTestingFieldName(schema->children[child]), b_start + k);
      return rc;
    }
  }
  return COMPARE_EQUAL;
}

/* Exactly (NaN equal to NaN), or as rounded to fixed_digits decimals. */
static int FloatsEqual(double a, double b, int fixed_digits) {
  char text_a[400];
  char text_b[400];
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (fixed_digits < 0 || isinf(a) || isinf(b)) return a == b;
  if (fixed_digits > 20) fixed_digits = 20;
  snprintf(text_a, sizeof(text_a), "%.*f", fixed_digits, a);
  snprintf(text_b, sizeof(text_b), "%.*f", fixed_digits, b);
  /* -0.000 and 0.000 are the same rounded value. */
  return strcmp(text_a[0] == '-' && strspn(text_a + 1, "0.") == strlen(text_a + 1) ? text_a + 1
                                                                                   : text_a,
                text_b[0] == '-' && strspn(text_b + 1, "0.") == strlen(text_b + 1) ? text_b + 1
                                                                                   : text_b) == 0;
}

static int64_t OffsetAt(const struct ArrowArrayView* view, int buffer, int64_t p) {
  if (view->layout.element_size_bits[buffer] == 64) {
    return view->buffer_views[buffer].data.as_int64[p];
  }
  return view->buffer_views[buffer].data.as_int32[p];
}


static int CompareElement(const struct ArrowSchema* schema, const struct ArrowArrayView* a,
                          int64_t i, const struct ArrowArrayView* b, int64_t j, int depth,
                          int fixed_digits, struct ArrowError* reason) {
  int64_t pa = a->offset + i;
  int64_t pb = b->offset + j;
  enum ArrowType type = a->storage_type;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(reason, "arrays nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (type != b->storage_type) {
    ArrowErrorSet(reason, "expected storage type %s but found %s",
                  ArrowTypeString(b->storage_type), ArrowTypeString(type));
    return COMPARE_DIFFERENT;
  }
  if (type == NANOARROW_TYPE_NA) return COMPARE_EQUAL;
  if (type != NANOARROW_TYPE_SPARSE_UNION && type != NANOARROW_TYPE_DENSE_UNION &&
      type != NANOARROW_TYPE_RUN_END_ENCODED) {
    int8_t null_a = ArrowArrayViewIsNull(a, i);
    int8_t null_b = ArrowArrayViewIsNull(b, j);
    if (null_a != null_b) return ReportDifferent(a, i, b, j, reason);
    if (null_a) return COMPARE_EQUAL;
  }

  if (a->dictionary != NULL || b->dictionary != NULL) {
    int64_t index_a = ArrowArrayViewGetIntUnsafe(a, i);
    int64_t index_b = ArrowArrayViewGetIntUnsafe(b, j);
    int rc;
    if (a->dictionary == NULL || b->dictionary == NULL || schema->dictionary == NULL ||
        index_a < 0 || index_a >= a->dictionary->length || index_b < 0 ||
        index_b >= b->dictionary->length) {
      ArrowErrorSet(reason, "dictionary index out of range (found %" PRId64
                    ", expected %" PRId64 ")", index_a, index_b);
      return COMPARE_DIFFERENT;
    }
    rc = CompareElement(schema->dictionary, a->dictionary, index_a, b->dictionary, index_b,
                        depth + 1, fixed_digits, reason);
    if (rc != COMPARE_EQUAL) {
      ArrowTestingPrefixError(reason, "dictionary value (index %" PRId64 ")", index_b);
    }
    return rc;
  }

  switch (type) {
    case NANOARROW_TYPE_BOOL:
      if (ArrowBitGet(a->buffer_views[1].data.as_uint8, pa) !=
          ArrowBitGet(b->buffer_views[1].data.as_uint8, pb)) {
        return ReportDifferent(a, i, b, j, reason);
      }
      return COMPARE_EQUAL;
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE: {
      double value_a = ArrowArrayViewGetDoubleUnsafe(a, i);
      double value_b = ArrowArrayViewGetDoubleUnsafe(b, j);
      if (!FloatsEqual(value_a, value_b, fixed_digits)) {
        return ReportDifferent(a, i, b, j, reason);
      }
      return COMPARE_EQUAL;
    }
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW: {
      struct ArrowBufferView value_a = ArrowArrayViewGetBytesUnsafe(a, i);
      struct ArrowBufferView value_b = ArrowArrayViewGetBytesUnsafe(b, j);
      if (value_a.size_bytes != value_b.size_bytes ||
          (value_a.size_bytes > 0 &&
           memcmp(value_a.data.data, value_b.data.data, (size_t)value_a.size_bytes) != 0)) {
        return ReportDifferent(a, i, b, j, reason);
      }
      return COMPARE_EQUAL;
    }
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW: {
      int64_t start_a = OffsetAt(a, 1, pa);
      int64_t start_b = OffsetAt(b, 1, pb);
      int is_view = type == NANOARROW_TYPE_LIST_VIEW || type == NANOARROW_TYPE_LARGE_LIST_VIEW;
      int64_t size_a = is_view ? OffsetAt(a, 2, pa) : OffsetAt(a, 1, pa + 1) - start_a;
      int64_t size_b = is_view ? OffsetAt(b, 2, pb) : OffsetAt(b, 1, pb + 1) - start_b;
      if (size_a != size_b) {
        ArrowErrorSet(reason, "expected a list of %" PRId64 " items but found %" PRId64,
                      size_b, size_a);
        return COMPARE_DIFFERENT;
      }
      return CompareChildRange(schema, 0, a, start_a, b, start_b, size_a, depth, fixed_digits, reason);
    }
    case NANOARROW_TYPE_FIXED_SIZE_LIST: {
      int64_t size = a->layout.child_size_elements;
      if (size != b->layout.child_size_elements) {
        ArrowErrorSet(reason, "list sizes differ");
        return COMPARE_DIFFERENT;
      }
      return CompareChildRange(schema, 0, a, pa * size, b, pb * size, size, depth, fixed_digits, reason);
    }
    case NANOARROW_TYPE_STRUCT: {
      int64_t k;
      if (a->n_children != b->n_children) {
        ArrowErrorSet(reason, "struct child counts differ");
        return COMPARE_DIFFERENT;
      }
      for (k = 0; k < a->n_children; k++) {
        int rc = CompareChildRange(schema, k, a, pa, b, pb, 1, depth, fixed_digits, reason);
        if (rc != COMPARE_EQUAL) return rc;
      }
      return COMPARE_EQUAL;
    }
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION: {
      int8_t id_a = ArrowArrayViewUnionTypeId(a, i);
      int8_t id_b = ArrowArrayViewUnionTypeId(b, j);
      int64_t child;
      if (id_a != id_b) {
        ArrowErrorSet(reason, "expected union type id %d but found %d", (int)id_b, (int)id_a);
        return COMPARE_DIFFERENT;
      }
      child = ArrowArrayViewUnionChildIndex(b, j);
      if (child < 0 || child >= b->n_children || child != ArrowArrayViewUnionChildIndex(a, i)) {
        ArrowErrorSet(reason, "union type id %d maps to different children", (int)id_b);
        return COMPARE_DIFFERENT;
      }
      return CompareChildRange(schema, child, a, ArrowArrayViewUnionChildOffset(a, i), b,
                               ArrowArrayViewUnionChildOffset(b, j), 1, depth, fixed_digits, reason);
    }
    case NANOARROW_TYPE_RUN_END_ENCODED: {
      int64_t run_a = ArrowArrayViewPrivateRunIndex(a->children[0], pa);
      int64_t run_b = ArrowArrayViewPrivateRunIndex(b->children[0], pb);
      if (run_a >= a->children[1]->length || run_b >= b->children[1]->length) {
        ArrowErrorSet(reason, "run-end encoded element outside of the runs");
        return COMPARE_DIFFERENT;
      }
      return CompareChildRange(schema, 1, a, run_a, b, run_b, 1, depth, fixed_digits, reason);
    }
    default: {
      /* Fixed-width values (integers, temporal types, decimals, intervals, half
       * floats, fixed-size binary): compare the bytes. */
      int64_t bits = a->layout.element_size_bits[1];
      if (bits != b->layout.element_size_bits[1]) {
        ArrowErrorSet(reason, "value widths differ");
        return COMPARE_DIFFERENT;
      }
      if (bits % 8 != 0 || bits <= 0) {
        ArrowErrorSet(reason, "cannot compare values of %s", ArrowTypeString(type));
        return ENOTSUP;
      }
      if (memcmp(a->buffer_views[1].data.as_uint8 + pa * (bits / 8),
                 b->buffer_views[1].data.as_uint8 + pb * (bits / 8), (size_t)(bits / 8)) != 0) {
        return ReportDifferent(a, i, b, j, reason);
      }
      return COMPARE_EQUAL;
    }
  }
}

static int CompareViews(const struct ArrowSchema* schema, const struct ArrowArrayView* a,
                        const struct ArrowArrayView* b, struct ArrowError* reason) {
  int64_t i;
  int64_t k;
  if (a->length != b->length) {
    ArrowErrorSet(reason, "expected %" PRId64 " rows but found %" PRId64, b->length,
                  a->length);
    return COMPARE_DIFFERENT;
  }
  /* Struct roots (record batches) column by column so the message names the column. */
  if (a->storage_type == NANOARROW_TYPE_STRUCT && b->storage_type == NANOARROW_TYPE_STRUCT &&
      a->n_children == b->n_children && schema->n_children == a->n_children) {
    for (k = 0; k < a->n_children; k++) {
      for (i = 0; i < a->length; i++) {
        int rc = CompareElement(schema->children[k], a->children[k], a->offset + i,
                                b->children[k], b->offset + i, 1, -1, reason);
        if (rc != COMPARE_EQUAL) {
          ArrowTestingPrefixError(reason, "column %" PRId64 " '%s' row %" PRId64, k,
                                  ArrowTestingFieldName(schema->children[k]), i);
          return rc;
        }
      }
    }
    for (i = 0; i < a->length; i++) {
      if (ArrowArrayViewIsNull(a, i) != ArrowArrayViewIsNull(b, i)) {
        ArrowErrorSet(reason, "row %" PRId64 ": validity of the struct differs", i);
        return COMPARE_DIFFERENT;
      }
    }
    return COMPARE_EQUAL;
  }
  for (i = 0; i < a->length; i++) {
    int rc = CompareElement(schema, a, i, b, i, 0, -1, reason);
    if (rc != COMPARE_EQUAL) {
      ArrowTestingPrefixError(reason, "row %" PRId64, i);
      return rc;
    }
  }
  return COMPARE_EQUAL;
}

/* Views of both arrays, validated at the FULL level; reset by the caller either
 * way. */
static ArrowErrorCode ViewsOfArrays(const struct ArrowSchema* schema,
                                    const struct ArrowArray* actual,
                                    const struct ArrowArray* expected,
                                    struct ArrowArrayView* view_a,
                                    struct ArrowArrayView* view_b,
                                    struct ArrowError* reason) {
  ArrowErrorCode rc;
  ArrowArrayViewInitFromType(view_a, NANOARROW_TYPE_UNINITIALIZED);
  ArrowArrayViewInitFromType(view_b, NANOARROW_TYPE_UNINITIALIZED);
  rc = ArrowArrayViewInitFromSchema(view_a, schema, reason);
  if (rc == NANOARROW_OK) rc = ArrowArrayViewInitFromSchema(view_b, schema, reason);
  if (rc == NANOARROW_OK) {
    rc = ArrowArrayViewSetArray(view_a, actual, reason);
    if (rc == NANOARROW_OK) rc = ArrowArrayViewValidate(view_a, NANOARROW_VALIDATION_LEVEL_FULL, reason);
    if (rc != NANOARROW_OK) ArrowTestingPrefixError(reason, "actual array is invalid");
  }
  if (rc == NANOARROW_OK) {
    rc = ArrowArrayViewSetArray(view_b, expected, reason);
    if (rc == NANOARROW_OK) rc = ArrowArrayViewValidate(view_b, NANOARROW_VALIDATION_LEVEL_FULL, reason);
    if (rc != NANOARROW_OK) ArrowTestingPrefixError(reason, "expected array is invalid");
  }
  return rc;
}

ArrowErrorCode ArrowTestingCompareArray(const struct ArrowSchema* schema,
                                        const struct ArrowArray* actual,
                                        const struct ArrowArray* expected, int* equal,
                                        struct ArrowError* reason) {
  struct ArrowArrayView view_a;
  struct ArrowArrayView view_b;
  int rc;

  *equal = 0;
  rc = ViewsOfArrays(schema, actual, expected, &view_a, &view_b, reason);
  if (rc == NANOARROW_OK) {
    rc = CompareViews(schema, &view_a, &view_b, reason);
    if (rc == COMPARE_EQUAL) *equal = 1;
    if (rc == COMPARE_DIFFERENT) rc = NANOARROW_OK;
  }
  ArrowArrayViewReset(&view_a);
  ArrowArrayViewReset(&view_b);
  return rc;
}

/* ---- Streams ---- */

static ArrowErrorCode StreamNext(struct ArrowArrayStream* stream, struct ArrowArray* out,
                                 const char* which, int64_t batch,
                                 struct ArrowError* reason) {
  int rc = stream->get_next(stream, out);
  if (rc != NANOARROW_OK) {
    const char* message = stream->get_last_error(stream);
    ArrowErrorSet(reason, "%s stream, batch %" PRId64 ": %s", which, batch,
                  message != NULL ? message : strerror(rc));
  }
  return rc;
}

ArrowErrorCode ArrowTestingCompareStreams(struct ArrowArrayStream* actual,
                                          struct ArrowArrayStream* expected, int* equal,
                                          struct ArrowError* reason) {
  struct ArrowSchema schema_a;
  struct ArrowSchema schema_b;
  int64_t batch = 0;
  int rc;

  *equal = 0;
  schema_a.release = NULL;
  schema_b.release = NULL;
  rc = actual->get_schema(actual, &schema_a);
  if (rc != NANOARROW_OK) {
    const char* message = actual->get_last_error(actual);
    ArrowErrorSet(reason, "actual stream, schema: %s", message ? message : strerror(rc));
    return rc;
  }
  rc = expected->get_schema(expected, &schema_b);
  if (rc != NANOARROW_OK) {
    const char* message = expected->get_last_error(expected);
    ArrowErrorSet(reason, "expected stream, schema: %s", message ? message : strerror(rc));
    ArrowSchemaRelease(&schema_a);
    return rc;
  }
  rc = ArrowTestingCompareSchema(&schema_a, &schema_b, equal, reason);
  if (rc == NANOARROW_OK && !*equal) ArrowTestingPrefixError(reason, "schema");

  while (rc == NANOARROW_OK && *equal) {
    struct ArrowArray array_a;
    struct ArrowArray array_b;
    array_a.release = NULL;
    array_b.release = NULL;
    rc = StreamNext(actual, &array_a, "actual", batch, reason);
    if (rc == NANOARROW_OK) rc = StreamNext(expected, &array_b, "expected", batch, reason);
    if (rc == NANOARROW_OK) {
      if (array_a.release == NULL && array_b.release == NULL) {
        break;
      } else if (array_a.release == NULL || array_b.release == NULL) {
        ArrowErrorSet(reason, "expected %s batches but found %s (batch %" PRId64 ")",
                      array_b.release == NULL ? "fewer" : "more",
                      array_b.release == NULL ? "more" : "fewer", batch);
        *equal = 0;
      } else {
        rc = ArrowTestingCompareArray(&schema_b, &array_a, &array_b, equal, reason);
        if (rc != NANOARROW_OK || !*equal) {
          ArrowTestingPrefixError(reason, "batch %" PRId64, batch);
        }
      }
    }
    if (array_a.release != NULL) ArrowArrayRelease(&array_a);
    if (array_b.release != NULL) ArrowArrayRelease(&array_b);
    batch++;
  }

  ArrowSchemaRelease(&schema_a);
  ArrowSchemaRelease(&schema_b);
  if (rc != NANOARROW_OK) *equal = 0;
  return rc;
}

/* ---- Every difference, with its path ---- */

void ArrowTestingCompareOptionsInit(struct ArrowTestingCompareOptions* options) {
  options->compare_batch_flags = 1;
  options->compare_metadata_order = 1;
  options->float_precision = -1;
  options->on_difference = NULL;
  options->private_data = NULL;
}

/* Hands one difference to the callback: path + suffix, both texts null-terminated. */
static ArrowErrorCode ReportDifference(const struct ArrowTestingCompareOptions* options,
                                       const char* path, const char* suffix,
                                       struct ArrowBuffer* actual,
                                       struct ArrowBuffer* expected,
                                       struct ArrowError* error) {
  char full_path[1024];
  ArrowErrorCode rc;
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(actual, 0));
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(expected, 0));
  if (options->on_difference == NULL) return NANOARROW_OK;
  snprintf(full_path, sizeof(full_path), "%s%s", path, suffix);
  rc = options->on_difference(options->private_data, full_path, (const char*)actual->data,
                              (const char*)expected->data);
  if (rc != NANOARROW_OK) {
    ArrowErrorSet(error, "%s: the difference callback returned %d", full_path, (int)rc);
  }
  return rc;
}

static ArrowErrorCode AppendText(struct ArrowBuffer* out, const char* fmt, int64_t value) {
  char text[64];
  int n = snprintf(text, sizeof(text), fmt, value);
  return ArrowBufferAppend(out, text, n);
}

/* Both sides of a difference, as JSON text. */
struct DifferenceTexts {
  struct ArrowBuffer actual;
  struct ArrowBuffer expected;
};

static void DifferenceTextsClear(struct DifferenceTexts* texts) {
  ArrowBufferResize(&texts->actual, 0, 0);
  ArrowBufferResize(&texts->expected, 0, 0);
}

/* Whether two fields differ, by the structural comparison ArrowTestingCompareSchema
 * uses (names of a map's entries, key and value ignored; metadata ordered or not as
 * options say); when they do, texts receive both written whole, metadata included. */
static ArrowErrorCode CompareFieldDifference(const struct ArrowSchema* actual,
                                             const struct ArrowSchema* expected,
                                             const struct ArrowTestingCompareOptions* options,
                                             struct DifferenceTexts* texts, int* differs,
                                             struct ArrowError* error) {
  struct ArrowError reason;
  int rc = CompareSchemaNode(actual, expected, 1, 0, options->compare_metadata_order,
                             &reason);
  if (rc != COMPARE_EQUAL && rc != COMPARE_DIFFERENT) {
    ArrowErrorSet(error, "%s", reason.message);
    return rc;
  }
  *differs = rc == COMPARE_DIFFERENT;
  DifferenceTextsClear(texts);
  if (*differs) {
    NANOARROW_RETURN_NOT_OK(ArrowTestingJsonWriteField(actual, NULL, &texts->actual, error));
    NANOARROW_RETURN_NOT_OK(
        ArrowTestingJsonWriteField(expected, NULL, &texts->expected, error));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode CompareSchemaDifferences(const struct ArrowSchema* actual,
                                               const struct ArrowSchema* expected,
                                               const char* path,
                                               const struct ArrowTestingCompareOptions* options,
                                               struct DifferenceTexts* texts,
                                               struct ArrowError* error) {
  int64_t i;
  if (actual == NULL || expected == NULL || actual->release == NULL ||
      expected->release == NULL || actual->format == NULL || expected->format == NULL) {
    ArrowErrorSet(error, "%s: schema is released or has no format", path);
    return EINVAL;
  }
  if (strcmp(actual->format, expected->format) != 0) {
    DifferenceTextsClear(texts);
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppendStringView(
        &texts->actual, ArrowCharView(actual->format)));
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppendStringView(
        &texts->expected, ArrowCharView(expected->format)));
    NANOARROW_RETURN_NOT_OK(
        ReportDifference(options, path, ".format", &texts->actual, &texts->expected, error));
  }
  if (options->compare_batch_flags && actual->flags != expected->flags) {
    DifferenceTextsClear(texts);
    NANOARROW_RETURN_NOT_OK(AppendText(&texts->actual, "%" PRId64, actual->flags));
    NANOARROW_RETURN_NOT_OK(AppendText(&texts->expected, "%" PRId64, expected->flags));
    NANOARROW_RETURN_NOT_OK(
        ReportDifference(options, path, ".flags", &texts->actual, &texts->expected, error));
  }
  if (!MetadataSame(actual->metadata, expected->metadata, options->compare_metadata_order)) {
    DifferenceTextsClear(texts);
    NANOARROW_RETURN_NOT_OK(
        ArrowTestingJsonWriteMetadata(actual->metadata, &texts->actual, error));
    NANOARROW_RETURN_NOT_OK(
        ArrowTestingJsonWriteMetadata(expected->metadata, &texts->expected, error));
    NANOARROW_RETURN_NOT_OK(
        ReportDifference(options, path, ".metadata", &texts->actual, &texts->expected, error));
  }
  if (actual->n_children != expected->n_children) {
    DifferenceTextsClear(texts);
    NANOARROW_RETURN_NOT_OK(AppendText(&texts->actual, "%" PRId64, actual->n_children));
    NANOARROW_RETURN_NOT_OK(AppendText(&texts->expected, "%" PRId64, expected->n_children));
    return ReportDifference(options, path, ".n_children", &texts->actual, &texts->expected,
                            error);
  }
  for (i = 0; i < actual->n_children; i++) {
    char suffix[48];
    int differs = 0;
    ArrowErrorCode rc = CompareFieldDifference(actual->children[i], expected->children[i],
                                               options, texts, &differs, error);
    snprintf(suffix, sizeof(suffix), ".fields[%" PRId64 "]", i);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "%s%s", path, suffix);
      return rc;
    }
    if (differs) {
      NANOARROW_RETURN_NOT_OK(
          ReportDifference(options, path, suffix, &texts->actual, &texts->expected, error));
    }
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowTestingCompareSchemaDifferences(
    const struct ArrowSchema* actual, const struct ArrowSchema* expected, const char* path,
    const struct ArrowTestingCompareOptions* options, struct ArrowError* error) {
  struct ArrowTestingCompareOptions defaults;
  struct DifferenceTexts texts;
  ArrowErrorCode rc;
  ArrowTestingCompareOptionsInit(&defaults);
  if (options == NULL) options = &defaults;
  NANOARROW_RETURN_NOT_OK(CheckSchemaTree(actual, 0, error));
  NANOARROW_RETURN_NOT_OK(CheckSchemaTree(expected, 0, error));
  ArrowBufferInit(&texts.actual);
  ArrowBufferInit(&texts.expected);
  rc = CompareSchemaDifferences(actual, expected, path == NULL ? "" : path, options, &texts,
                                error);
  ArrowBufferReset(&texts.actual);
  ArrowBufferReset(&texts.expected);
  return rc;
}

/* Rows [offset, offset + length) of a struct's child k as a view of their own (a
 * shallow copy that shares everything with the child view). */
static struct ArrowArrayView ColumnOfStruct(const struct ArrowArrayView* parent, int64_t k) {
  struct ArrowArrayView column = *parent->children[k];
  column.offset += parent->offset;
  column.length = parent->length;
  column.null_count = -1;
  return column;
}

/* Whether rows of a and b (same length) differ anywhere; a negative return is an
 * error code. */
static int ColumnDiffers(const struct ArrowSchema* schema, const struct ArrowArrayView* a,
                         const struct ArrowArrayView* b, int fixed_digits,
                         struct ArrowError* error) {
  struct ArrowError reason;
  int64_t i;
  for (i = 0; i < a->length; i++) {
    int rc = CompareElement(schema, a, i, b, i, 1, fixed_digits, &reason);
    if (rc == COMPARE_DIFFERENT) return 1;
    if (rc != COMPARE_EQUAL) {
      ArrowErrorSet(error, "row %" PRId64 ": %s", i, reason.message);
      return -rc;
    }
  }
  return 0;
}

/* Writes columns a and b of schema into texts (cleared first); *same receives
 * whether the two texts match. */
static ArrowErrorCode WriteColumnPair(const struct ArrowSchema* schema,
                                      const struct ArrowArrayView* a,
                                      const struct ArrowArrayView* b,
                                      const struct ArrowTestingCompareOptions* options,
                                      struct DifferenceTexts* texts, int* same,
                                      struct ArrowError* error) {
  struct ArrowTestingJsonWriteOptions write_options;
  ArrowTestingJsonWriteOptionsInit(&write_options);
  write_options.float_precision = options->float_precision;
  DifferenceTextsClear(texts);
  NANOARROW_RETURN_NOT_OK(
      ArrowTestingJsonWriteColumn(schema, a, &write_options, &texts->actual, error));
  NANOARROW_RETURN_NOT_OK(
      ArrowTestingJsonWriteColumn(schema, b, &write_options, &texts->expected, error));
  *same = texts->actual.size_bytes == texts->expected.size_bytes &&
          (texts->actual.size_bytes == 0 ||
           memcmp(texts->actual.data, texts->expected.data,
                  (size_t)texts->actual.size_bytes) == 0);
  return NANOARROW_OK;
}

/* A column's JSON shows its dictionary indices, not its dictionary values. When two
 * columns differ only there, this finds the first node (path, then ".children[k]"
 * and ".dictionary" steps in pre-order) whose dictionary values are written
 * differently, reports them at that path + ".dictionary" and sets *found. */
static ArrowErrorCode ReportDictionaryDifference(
    const struct ArrowSchema* schema, const struct ArrowArrayView* a,
    const struct ArrowArrayView* b, const char* path,
    const struct ArrowTestingCompareOptions* options, struct DifferenceTexts* texts,
    int* found, int depth, struct ArrowError* error) {
  char inner[1024];
  int same;
  int64_t k;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return NANOARROW_OK;
  if (schema->dictionary != NULL && a->dictionary != NULL && b->dictionary != NULL) {
    snprintf(inner, sizeof(inner), "%s.dictionary", path);
    NANOARROW_RETURN_NOT_OK(WriteColumnPair(schema->dictionary, a->dictionary,
                                            b->dictionary, options, texts, &same, error));
    if (!same) {
      *found = 1;
      return ReportDifference(options, inner, "", &texts->actual, &texts->expected, error);
    }
    NANOARROW_RETURN_NOT_OK(ReportDictionaryDifference(schema->dictionary, a->dictionary,
                                                       b->dictionary, inner, options, texts,
                                                       found, depth + 1, error));
    if (*found) return NANOARROW_OK;
  }
  for (k = 0; k < schema->n_children && k < a->n_children && k < b->n_children; k++) {
    snprintf(inner, sizeof(inner), "%s.children[%" PRId64 "]", path, k);
    NANOARROW_RETURN_NOT_OK(ReportDictionaryDifference(schema->children[k], a->children[k],
                                                       b->children[k], inner, options, texts,
                                                       found, depth + 1, error));
    if (*found) return NANOARROW_OK;
  }
  return NANOARROW_OK;
}

/* Reports two differing columns at path + suffix, both written whole; when they
 * are written the same (the difference is in dictionary values), the dictionaries
 * that differ instead. */
static ArrowErrorCode ReportColumns(const struct ArrowSchema* schema,
                                    const struct ArrowArrayView* a,
                                    const struct ArrowArrayView* b, const char* path,
                                    const char* suffix,
                                    const struct ArrowTestingCompareOptions* options,
                                    struct DifferenceTexts* texts, struct ArrowError* error) {
  char column_path[1024];
  int same;
  int found = 0;
  NANOARROW_RETURN_NOT_OK(WriteColumnPair(schema, a, b, options, texts, &same, error));
  if (same) {
    snprintf(column_path, sizeof(column_path), "%s%s", path, suffix);
    NANOARROW_RETURN_NOT_OK(ReportDictionaryDifference(schema, a, b, column_path, options,
                                                       texts, &found, 0, error));
    if (found) return NANOARROW_OK;
    NANOARROW_RETURN_NOT_OK(WriteColumnPair(schema, a, b, options, texts, &same, error));
  }
  return ReportDifference(options, path, suffix, &texts->actual, &texts->expected, error);
}

static ArrowErrorCode AppendValidity(struct ArrowBuffer* out, const struct ArrowArrayView* view) {
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, '['));
  for (i = 0; i < view->length; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppendStringView(
        out, ArrowCharView(ArrowArrayViewIsNull(view, i) ? (i > 0 ? ", 0" : "0")
                                                         : (i > 0 ? ", 1" : "1"))));
  }
  return ArrowBufferAppendUInt8(out, ']');
}

static ArrowErrorCode CompareViewDifferences(const struct ArrowSchema* schema,
                                             const struct ArrowArrayView* a,
                                             const struct ArrowArrayView* b, const char* path,
                                             const struct ArrowTestingCompareOptions* options,
                                             struct DifferenceTexts* texts,
                                             struct ArrowError* error) {
  int differs;
  int64_t i;
  int64_t k;
  if (a->length != b->length) {
    DifferenceTextsClear(texts);
    NANOARROW_RETURN_NOT_OK(AppendText(&texts->actual, "%" PRId64, a->length));
    NANOARROW_RETURN_NOT_OK(AppendText(&texts->expected, "%" PRId64, b->length));
    return ReportDifference(options, path, ".length", &texts->actual, &texts->expected,
                            error);
  }
  if (a->storage_type != NANOARROW_TYPE_STRUCT) {
    differs = ColumnDiffers(schema, a, b, options->float_precision, error);
    if (differs < 0) return -differs;
    if (differs) return ReportColumns(schema, a, b, path, "", options, texts, error);
    return NANOARROW_OK;
  }

  for (k = 0; k < a->n_children; k++) {
    char suffix[48];
    struct ArrowArrayView column_a = ColumnOfStruct(a, k);
    struct ArrowArrayView column_b = ColumnOfStruct(b, k);
    snprintf(suffix, sizeof(suffix), ".columns[%" PRId64 "]", k);
    differs = ColumnDiffers(schema->children[k], &column_a, &column_b,
                            options->float_precision, error);
    if (differs < 0) {
      ArrowTestingPrefixError(error, "%s%s", path, suffix);
      return -differs;
    }
    if (differs) {
      NANOARROW_RETURN_NOT_OK(ReportColumns(schema->children[k], &column_a, &column_b, path,
                                            suffix, options, texts, error));
    }
  }
  for (i = 0; i < a->length; i++) {
    if (ArrowArrayViewIsNull(a, i) != ArrowArrayViewIsNull(b, i)) {
      DifferenceTextsClear(texts);
      NANOARROW_RETURN_NOT_OK(AppendValidity(&texts->actual, a));
      NANOARROW_RETURN_NOT_OK(AppendValidity(&texts->expected, b));
      return ReportDifference(options, path, ".validity", &texts->actual, &texts->expected,
                              error);
    }
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowTestingCompareArrayDifferences(
    const struct ArrowSchema* schema, const struct ArrowArray* actual,
    const struct ArrowArray* expected, const char* path,
    const struct ArrowTestingCompareOptions* options, struct ArrowError* error) {
  struct ArrowTestingCompareOptions defaults;
  struct DifferenceTexts texts;
  struct ArrowArrayView view_a;
  struct ArrowArrayView view_b;
  ArrowErrorCode rc;
  ArrowTestingCompareOptionsInit(&defaults);
  if (options == NULL) options = &defaults;
  if (path == NULL) path = "";
  if (schema == NULL || schema->release == NULL || actual == NULL || expected == NULL ||
      actual->release == NULL || expected->release == NULL) {
    ArrowErrorSet(error, "%s: schema or array is released", path);
    return EINVAL;
  }
  ArrowBufferInit(&texts.actual);
  ArrowBufferInit(&texts.expected);
  rc = ViewsOfArrays(schema, actual, expected, &view_a, &view_b, error);
  if (rc != NANOARROW_OK) {
    if (path[0] != '\0') ArrowTestingPrefixError(error, "%s", path);
  } else {
    rc = CompareViewDifferences(schema, &view_a, &view_b, path, options, &texts, error);
  }
  ArrowArrayViewReset(&view_a);
  ArrowArrayViewReset(&view_b);
  ArrowBufferReset(&texts.actual);
  ArrowBufferReset(&texts.expected);
  return rc;
}
