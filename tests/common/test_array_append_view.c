/* ArrowArrayAppendArrayView(): slices, nulls, conversions, nested and run-end encoded
 * storage, refusals that leave the destination untouched, and views whose offsets
 * point outside their children. */

#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#define OK(expr)                                                          \
  do {                                                                    \
    int ok_rc_ = (expr);                                                  \
    cr_assert_eq(ok_rc_, NANOARROW_OK, "%s returned %d", #expr, ok_rc_); \
  } while (0)

static void InitAppending(struct ArrowArray* array, struct ArrowSchema* schema) {
  struct ArrowError error;
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK, "%s",
               error.message);
  OK(ArrowArrayStartAppending(array));
}

static void FinishFull(struct ArrowArray* array) {
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayFinishBuilding(array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
}

/* A view of array (offset and length taken from the array). */
static void ViewOf(struct ArrowArrayView* view, struct ArrowSchema* schema,
                   struct ArrowArray* array) {
  struct ArrowError error;
  cr_assert_eq(ArrowArrayViewInitFromSchema(view, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewSetArray(view, array, &error), NANOARROW_OK, "%s",
               error.message);
}

static void AppendView(struct ArrowArray* array, struct ArrowArrayView* view) {
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayAppendArrayView(array, view, &error), NANOARROW_OK, "%s",
               error.message);
}

static void ExpectIdentical(struct ArrowArrayView* actual, struct ArrowArrayView* expected) {
  struct ArrowError reason;
  int equal = 0;
  reason.message[0] = '\0';
  OK(ArrowArrayViewCompare(actual, expected, NANOARROW_COMPARE_IDENTICAL, &equal, &reason));
  cr_assert(equal, "appended array differs: %s", reason.message);
}

/* Appends elements [offset, offset + length) of source to an empty array of its
 * schema and requires the result to be IDENTICAL to expected (the same rows built
 * directly). Returns the appended array's null count; releases everything. */
static int64_t ExpectSliceAppendsAs(struct ArrowSchema* schema, struct ArrowArray* source,
                                    int64_t offset, int64_t length,
                                    struct ArrowSchema* expected_schema,
                                    struct ArrowArray* expected) {
  struct ArrowArray target;
  struct ArrowArrayView view;
  struct ArrowArrayView target_view;
  struct ArrowArrayView expected_view;
  int64_t null_count;
  source->offset = offset;
  source->length = length;
  source->null_count = -1;
  ViewOf(&view, schema, source);
  InitAppending(&target, schema);
  AppendView(&target, &view);
  FinishFull(&target);
  null_count = target.null_count;
  ViewOf(&target_view, schema, &target);
  ViewOf(&expected_view, expected_schema, expected);
  ExpectIdentical(&target_view, &expected_view);
  ArrowArrayViewReset(&view);
  ArrowArrayViewReset(&target_view);
  ArrowArrayViewReset(&expected_view);
  ArrowArrayRelease(&target);
  ArrowArrayRelease(expected);
  ArrowArrayRelease(source);
  ArrowSchemaRelease(expected_schema);
  ArrowSchemaRelease(schema);
  return null_count;
}

/* int32 [1, null, 3, 4, null, 6, 7] */
static void BuildInt32(struct ArrowArray* array, struct ArrowSchema* schema) {
  static const int64_t values[] = {1, -1, 3, 4, -1, 6, 7};
  int64_t i;
  OK(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_INT32));
  InitAppending(array, schema);
  for (i = 0; i < 7; i++) {
    if (values[i] < 0) {
      OK(ArrowArrayAppendNull(array, 1));
    } else {
      OK(ArrowArrayAppendInt(array, values[i]));
    }
  }
  FinishFull(array);
}

static void ExpectInts(struct ArrowArray* array, enum ArrowType type, const int64_t* expected,
                       int64_t n) {
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t i;
  FinishFull(array);
  cr_assert_eq(array->length, n);
  ArrowArrayViewInitFromType(&view, type);
  cr_assert_eq(ArrowArrayViewSetArray(&view, array, &error), NANOARROW_OK, "%s",
               error.message);
  for (i = 0; i < n; i++) {
    if (expected[i] < 0) {
      cr_assert(ArrowArrayViewIsNull(&view, i), "element %d should be null", (int)i);
    } else {
      cr_assert_not(ArrowArrayViewIsNull(&view, i), "element %d should not be null", (int)i);
      cr_assert_eq(ArrowArrayViewGetDoubleUnsafe(&view, i), (double)expected[i],
                   "element %d", (int)i);
    }
  }
  ArrowArrayViewReset(&view);
}

Test(array_append_view, sliced_ints_keep_nulls_and_convert) {
  static const enum ArrowType targets[] = {NANOARROW_TYPE_INT32, NANOARROW_TYPE_INT64,
                                           NANOARROW_TYPE_UINT16, NANOARROW_TYPE_DOUBLE};
  /* Elements 1..5 of the source, then 2..3 (no nulls: the bulk copy). */
  static const int64_t expected[] = {-1, 3, 4, -1, 6, 3, 4};
  struct ArrowSchema schema;
  struct ArrowArray source;
  struct ArrowArrayView view;
  size_t t;
  BuildInt32(&source, &schema);
  for (t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
    struct ArrowArray target;
    OK(ArrowArrayInitFromType(&target, targets[t]));
    OK(ArrowArrayStartAppending(&target));
    source.offset = 1;
    source.length = 5;
    source.null_count = -1;
    ViewOf(&view, &schema, &source);
    AppendView(&target, &view);
    ArrowArrayViewReset(&view);
    source.offset = 2;
    source.length = 2;
    ViewOf(&view, &schema, &source);
    AppendView(&target, &view);
    ArrowArrayViewReset(&view);
    cr_assert_eq(target.null_count, 2, "%s", ArrowTypeString(targets[t]));
    ExpectInts(&target, targets[t], expected, 7);
    ArrowArrayRelease(&target);
  }
  ArrowArrayRelease(&source);
  ArrowSchemaRelease(&schema);
}

Test(array_append_view, value_that_does_not_fit_names_its_element) {
  struct ArrowArray source;
  struct ArrowArray target;
  struct ArrowArrayView view;
  struct ArrowError error;
  OK(ArrowArrayInitFromType(&source, NANOARROW_TYPE_INT64));
  OK(ArrowArrayStartAppending(&source));
  OK(ArrowArrayAppendInt(&source, 1));
  OK(ArrowArrayAppendInt(&source, 300));
  FinishFull(&source);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT64);
  OK(ArrowArrayViewSetArray(&view, &source, &error));
  OK(ArrowArrayInitFromType(&target, NANOARROW_TYPE_INT8));
  OK(ArrowArrayStartAppending(&target));
  cr_assert_eq(ArrowArrayAppendArrayView(&target, &view, &error), EINVAL);
  cr_assert(strstr(error.message, "element 1") != NULL, "%s", error.message);
  /* Floating point never goes into integers. */
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&target);
  OK(ArrowArrayInitFromType(&target, NANOARROW_TYPE_INT64));
  OK(ArrowArrayStartAppending(&target));
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_DOUBLE);
  cr_assert_eq(ArrowArrayAppendArrayView(&target, &view, &error), EINVAL);
  cr_assert(strstr(error.message, "cannot append double values to int64") != NULL, "%s",
            error.message);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&target);
  ArrowArrayRelease(&source);
}

/* struct<a: list<int32>, b: string> rows from..to-1 of a fixed table with nulls at
 * every level. */
static void BuildNested(struct ArrowArray* array, struct ArrowSchema* schema, int64_t from,
                        int64_t to) {
  static const char* const strings[] = {"zero", NULL, "two", "three-is-longer", "", "five"};
  int64_t row;
  int64_t k;
  ArrowSchemaInit(schema);
  OK(ArrowSchemaSetTypeStruct(schema, 2));
  OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_LIST));
  OK(ArrowSchemaSetName(schema->children[0], "a"));
  OK(ArrowSchemaSetType(schema->children[0]->children[0], NANOARROW_TYPE_INT32));
  OK(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING));
  OK(ArrowSchemaSetName(schema->children[1], "b"));
  InitAppending(array, schema);
  for (row = from; row < to; row++) {
    if (row == 4) {
      OK(ArrowArrayAppendNull(array, 1));
      continue;
    }
    if (row == 2) {
      OK(ArrowArrayAppendNull(array->children[0], 1));
    } else {
      for (k = 0; k < row % 3; k++) {
        if (k == 1) {
          OK(ArrowArrayAppendNull(array->children[0]->children[0], 1));
        } else {
          OK(ArrowArrayAppendInt(array->children[0]->children[0], row * 10 + k));
        }
      }
      OK(ArrowArrayFinishElement(array->children[0]));
    }
    if (strings[row] == NULL) {
      OK(ArrowArrayAppendNull(array->children[1], 1));
    } else {
      OK(ArrowArrayAppendString(array->children[1], ArrowCharView(strings[row])));
    }
    OK(ArrowArrayFinishElement(array));
  }
  FinishFull(array);
}

Test(array_append_view, nested_slice_equals_the_same_rows_built_directly) {
  struct ArrowSchema schema;
  struct ArrowSchema expected_schema;
  struct ArrowArray source;
  struct ArrowArray expected;
  BuildNested(&source, &schema, 0, 6);
  BuildNested(&expected, &expected_schema, 1, 5);
  ExpectSliceAppendsAs(&schema, &source, 1, 4, &expected_schema, &expected);
}

Test(array_append_view, mismatched_structure_appends_nothing) {
  struct ArrowSchema schema;
  struct ArrowSchema other;
  struct ArrowArray source;
  struct ArrowArray target;
  struct ArrowArrayView view;
  struct ArrowError error;
  BuildNested(&source, &schema, 0, 6);
  ViewOf(&view, &schema, &source);
  ArrowSchemaInit(&other);
  OK(ArrowSchemaSetTypeStruct(&other, 2));
  OK(ArrowSchemaSetType(other.children[0], NANOARROW_TYPE_LARGE_LIST));
  OK(ArrowSchemaSetType(other.children[0]->children[0], NANOARROW_TYPE_INT64));
  OK(ArrowSchemaSetType(other.children[1], NANOARROW_TYPE_INT32));
  InitAppending(&target, &other);
  cr_assert_eq(ArrowArrayAppendArrayView(&target, &view, &error), EINVAL);
  cr_assert(strstr(error.message, "children[1]") != NULL, "%s", error.message);
  cr_assert(strstr(error.message, "string") != NULL, "%s", error.message);
  cr_assert_eq(target.length, 0);
  cr_assert_eq(target.children[0]->length, 0);
  cr_assert_eq(target.children[0]->children[0]->length, 0);
  /* A list of another layout and wider values is fine once the strings match. */
  OK(ArrowSchemaSetType(other.children[1], NANOARROW_TYPE_STRING_VIEW));
  ArrowArrayRelease(&target);
  InitAppending(&target, &other);
  AppendView(&target, &view);
  FinishFull(&target);
  cr_assert_eq(target.length, 6);
  cr_assert_eq(target.null_count, 1);
  /* Rows 1 and 5 hold 1 and 2 list elements; the others none. */
  cr_assert_eq(target.children[0]->children[0]->length, 3);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&target);
  ArrowArrayRelease(&source);
  ArrowSchemaRelease(&other);
  ArrowSchemaRelease(&schema);
}

Test(array_append_view, union_children_match_by_position) {
  struct ArrowSchema schema;
  struct ArrowArray source;
  struct ArrowArray target;
  struct ArrowArrayView view;
  struct ArrowArrayView target_view;
  enum ArrowType kinds[2] = {NANOARROW_TYPE_DENSE_UNION, NANOARROW_TYPE_SPARSE_UNION};
  int u;
  for (u = 0; u < 2; u++) {
    OK(ArrowSchemaSetTypeUnion((ArrowSchemaInit(&schema), &schema), kinds[u], 2));
    OK(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32));
    OK(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_STRING));
    InitAppending(&source, &schema);
    OK(ArrowArrayAppendInt(source.children[0], 5));
    OK(ArrowArrayFinishUnionElement(&source, 0));
    OK(ArrowArrayAppendString(source.children[1], ArrowCharView("six")));
    OK(ArrowArrayFinishUnionElement(&source, 1));
    OK(ArrowArrayAppendNull(source.children[0], 1));
    OK(ArrowArrayFinishUnionElement(&source, 0));
    FinishFull(&source);
    source.offset = 1;
    source.length = 2;
    ViewOf(&view, &schema, &source);
    InitAppending(&target, &schema);
    AppendView(&target, &view);
    FinishFull(&target);
    ViewOf(&target_view, &schema, &target);
    cr_assert_eq(target.length, 2);
    cr_assert_eq(ArrowArrayViewUnionTypeId(&target_view, 0), 1);
    cr_assert_eq(ArrowArrayViewUnionTypeId(&target_view, 1), 0);
    {
      struct ArrowStringView six = ArrowArrayViewGetStringUnsafe(
          target_view.children[1], ArrowArrayViewUnionChildOffset(&target_view, 0));
      cr_assert_eq(six.size_bytes, 3);
      cr_assert_eq(memcmp(six.data, "six", 3), 0);
    }
    cr_assert(ArrowArrayViewIsNull(target_view.children[0],
                                   ArrowArrayViewUnionChildOffset(&target_view, 1)));
    ArrowArrayViewReset(&view);
    ArrowArrayViewReset(&target_view);
    ArrowArrayRelease(&target);
    ArrowArrayRelease(&source);
    ArrowSchemaRelease(&schema);
  }
}

Test(array_append_view, run_end_encoded_runs_are_clipped_to_the_slice) {
  struct ArrowSchema schema;
  struct ArrowArray source;
  struct ArrowArray target;
  struct ArrowArrayView view;
  struct ArrowArrayView target_view;
  static const int64_t run_ends[] = {2, 5, 6};
  static const int64_t values[] = {10, 20, 30};
  static const int64_t expected_ends[] = {1, 4};
  static const int64_t expected_values[] = {10, 20};
  int64_t i;
  ArrowSchemaInit(&schema);
  OK(ArrowSchemaSetTypeRunEndEncoded(&schema, NANOARROW_TYPE_INT32));
  OK(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT64));
  InitAppending(&source, &schema);
  for (i = 0; i < 3; i++) {
    OK(ArrowArrayAppendInt(source.children[0], run_ends[i]));
    OK(ArrowArrayAppendInt(source.children[1], values[i]));
  }
  source.length = 6;
  FinishFull(&source);
  source.offset = 1;
  source.length = 4;
  ViewOf(&view, &schema, &source);
  InitAppending(&target, &schema);
  AppendView(&target, &view);
  FinishFull(&target);
  cr_assert_eq(target.length, 4);
  ViewOf(&target_view, &schema, &target);
  cr_assert_eq(target_view.children[0]->length, 2);
  for (i = 0; i < 2; i++) {
    cr_assert_eq(ArrowArrayViewGetIntUnsafe(target_view.children[0], i), expected_ends[i]);
    cr_assert_eq(ArrowArrayViewGetIntUnsafe(target_view.children[1], i), expected_values[i]);
  }
  ArrowArrayViewReset(&view);
  ArrowArrayViewReset(&target_view);
  ArrowArrayRelease(&target);
  ArrowArrayRelease(&source);
  ArrowSchemaRelease(&schema);
}

/* Offsets that default validation lets through (only the first and last are
 * checked there) must not send the append outside the child. */
Test(array_append_view, list_offsets_outside_the_child_are_refused) {
  struct ArrowSchema schema;
  struct ArrowArray source;
  struct ArrowArray target;
  struct ArrowArrayView view;
  struct ArrowError error;
  static const int32_t offsets[] = {0, 5, 2};
  struct ArrowBuffer* buffer;
  ArrowSchemaInit(&schema);
  OK(ArrowSchemaSetType(&schema, NANOARROW_TYPE_LIST));
  OK(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32));
  InitAppending(&source, &schema);
  OK(ArrowArrayAppendInt(source.children[0], 1));
  OK(ArrowArrayAppendInt(source.children[0], 2));
  buffer = ArrowArrayBuffer(&source, 1);
  buffer->size_bytes = 0;
  OK(ArrowBufferAppend(buffer, offsets, sizeof(offsets)));
  source.length = 2;
  OK(ArrowArrayFinishBuilding(&source, NANOARROW_VALIDATION_LEVEL_NONE, NULL));
  ViewOf(&view, &schema, &source);
  InitAppending(&target, &schema);
  cr_assert_eq(ArrowArrayAppendArrayView(&target, &view, &error), EINVAL);
  cr_assert(strstr(error.message, "element 0 spans [0, 5)") != NULL, "%s", error.message);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&target);
  ArrowArrayRelease(&source);
  ArrowSchemaRelease(&schema);
}

/* The same for string offsets: element 0 would read 10 bytes of a 2-byte buffer. */
Test(array_append_view, string_offsets_outside_the_data_are_refused) {
  struct ArrowArray source;
  struct ArrowArray target;
  struct ArrowArrayView view;
  struct ArrowError error;
  static const int32_t offsets[] = {0, 10, 2};
  struct ArrowBuffer* buffer;
  OK(ArrowArrayInitFromType(&source, NANOARROW_TYPE_STRING));
  OK(ArrowArrayStartAppending(&source));
  OK(ArrowArrayAppendString(&source, ArrowCharView("ab")));
  buffer = ArrowArrayBuffer(&source, 1);
  buffer->size_bytes = 0;
  OK(ArrowBufferAppend(buffer, offsets, sizeof(offsets)));
  source.length = 2;
  OK(ArrowArrayFinishBuilding(&source, NANOARROW_VALIDATION_LEVEL_NONE, NULL));
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING);
  OK(ArrowArrayViewSetArray(&view, &source, &error));
  OK(ArrowArrayInitFromType(&target, NANOARROW_TYPE_STRING));
  OK(ArrowArrayStartAppending(&target));
  cr_assert_eq(ArrowArrayAppendArrayView(&target, &view, &error), EINVAL);
  cr_assert(strstr(error.message, "element 0 lies outside") != NULL, "%s", error.message);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&target);
  ArrowArrayRelease(&source);
}

/* Rows from..to-1 of a 4-row column of type whose row 2 is null. */
static void BuildLeaf(struct ArrowArray* array, struct ArrowSchema* schema,
                      enum ArrowType type, int64_t from, int64_t to) {
  static const char* const texts[] = {"a", "longer than twelve bytes", "", "bb"};
  int64_t row;
  ArrowSchemaInit(schema);
  if (type == NANOARROW_TYPE_FIXED_SIZE_BINARY) {
    OK(ArrowSchemaSetTypeFixedSize(schema, type, 3));
  } else if (type == NANOARROW_TYPE_DECIMAL128) {
    OK(ArrowSchemaSetTypeDecimal(schema, type, 20, 2));
  } else {
    OK(ArrowSchemaSetType(schema, type));
  }
  InitAppending(array, schema);
  for (row = from; row < to; row++) {
    if (row == 2) {
      OK(ArrowArrayAppendNull(array, 1));
      continue;
    }
    switch (type) {
      case NANOARROW_TYPE_BOOL:
        OK(ArrowArrayAppendInt(array, row & 1));
        break;
      case NANOARROW_TYPE_FIXED_SIZE_BINARY: {
        struct ArrowBufferView bytes;
        bytes.data.as_char = texts[1] + row;
        bytes.size_bytes = 3;
        OK(ArrowArrayAppendBytes(array, bytes));
        break;
      }
      case NANOARROW_TYPE_DECIMAL128: {
        struct ArrowDecimal decimal;
        ArrowDecimalInit(&decimal, 128, 20, 2);
        ArrowDecimalSetInt(&decimal, -12345 * (row + 1));
        OK(ArrowArrayAppendDecimal(array, &decimal));
        break;
      }
      case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO: {
        struct ArrowInterval interval;
        ArrowIntervalInit(&interval, type);
        interval.months = (int32_t)row;
        interval.days = -(int32_t)row;
        interval.ns = row * 1000000007;
        OK(ArrowArrayAppendInterval(array, &interval));
        break;
      }
      case NANOARROW_TYPE_HALF_FLOAT:
        OK(ArrowArrayAppendDouble(array, 0.5 * (double)row));
        break;
      default:
        OK(ArrowArrayAppendString(array, ArrowCharView(texts[row])));
        break;
    }
  }
  FinishFull(array);
}

Test(array_append_view, leaf_types_append_as_built) {
  static const enum ArrowType types[] = {
      NANOARROW_TYPE_BOOL,        NANOARROW_TYPE_FIXED_SIZE_BINARY,
      NANOARROW_TYPE_DECIMAL128,  NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO,
      NANOARROW_TYPE_HALF_FLOAT,  NANOARROW_TYPE_STRING,
      NANOARROW_TYPE_LARGE_BINARY, NANOARROW_TYPE_STRING_VIEW};
  size_t t;
  for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
    struct ArrowSchema schema;
    struct ArrowSchema expected_schema;
    struct ArrowArray source;
    struct ArrowArray expected;
    cr_log_info("%s", ArrowTypeString(types[t]));
    BuildLeaf(&source, &schema, types[t], 0, 4);
    BuildLeaf(&expected, &expected_schema, types[t], 1, 4);
    cr_assert_eq(ExpectSliceAppendsAs(&schema, &source, 1, 3, &expected_schema, &expected),
                 1, "%s", ArrowTypeString(types[t]));
  }
}

/* Dictionary-encoded: the indices are appended, the destination's dictionary is the
 * caller's and stays as it was. */
Test(array_append_view, dictionary_indices_are_appended_as_they_are) {
  struct ArrowSchema schema;
  struct ArrowArray source;
  struct ArrowArray target;
  struct ArrowArrayView view;
  struct ArrowArrayView target_view;
  ArrowSchemaInit(&schema);
  OK(ArrowSchemaSetType(&schema, NANOARROW_TYPE_INT32));
  OK(ArrowSchemaAllocateDictionary(&schema));
  OK(ArrowSchemaInitFromType(schema.dictionary, NANOARROW_TYPE_STRING));
  InitAppending(&source, &schema);
  OK(ArrowArrayAppendString(source.dictionary, ArrowCharView("x")));
  OK(ArrowArrayAppendString(source.dictionary, ArrowCharView("y")));
  OK(ArrowArrayAppendInt(&source, 1));
  OK(ArrowArrayAppendNull(&source, 1));
  OK(ArrowArrayAppendInt(&source, 0));
  FinishFull(&source);
  ViewOf(&view, &schema, &source);
  InitAppending(&target, &schema);
  AppendView(&target, &view);
  cr_assert_eq(target.length, 3);
  cr_assert_eq(target.dictionary->length, 0);
  OK(ArrowArrayAppendString(target.dictionary, ArrowCharView("p")));
  OK(ArrowArrayAppendString(target.dictionary, ArrowCharView("q")));
  FinishFull(&target);
  ViewOf(&target_view, &schema, &target);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&target_view, 0), 1);
  cr_assert(ArrowArrayViewIsNull(&target_view, 1));
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&target_view, 2), 0);
  ArrowArrayViewReset(&view);
  ArrowArrayViewReset(&target_view);
  ArrowArrayRelease(&target);
  ArrowArrayRelease(&source);
  ArrowSchemaRelease(&schema);
}
