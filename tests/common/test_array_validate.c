/* ArrowArrayViewSetArray / SetArrayMinimal / Validate on hostile, hand-built
 * arrays: every failure is EINVAL with a message naming what and where, raised at
 * the right validation level and not below it. */

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

static void release_nothing(struct ArrowArray* array) { array->release = NULL; }

static void hand_array(struct ArrowArray* array, int64_t length, int64_t offset,
                       int64_t null_count, int64_t n_buffers, const void** buffers) {
  memset(array, 0, sizeof(struct ArrowArray));
  array->length = length;
  array->offset = offset;
  array->null_count = null_count;
  array->n_buffers = n_buffers;
  array->buffers = buffers;
  array->release = &release_nothing;
}

/* Format with n_children children of child_format. */
static void hand_schema(struct ArrowSchema* schema, const char* format, int64_t n_children,
                        const char* child_format) {
  int64_t i;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetFormat(schema, format), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(schema, n_children), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (schema)->n_children; child_i++) {
    ArrowSchemaInit((schema)->children[child_i]);
  }
  for (i = 0; i < n_children; i++) {
    cr_assert_eq(ArrowSchemaSetFormat(schema->children[i], child_format), NANOARROW_OK);
  }
}

static void expect_message(const struct ArrowError* error, const char* part) {
  cr_assert(strstr(error->message, part) != NULL, "expected '%s' in '%s'", part,
            error->message);
}

/* SetArray(Minimal) fails with EINVAL and a message containing part. */
static void expect_minimal_failure(struct ArrowArrayView* view,
                                   const struct ArrowArray* array, const char* part) {
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayViewSetArrayMinimal(view, array, &error), EINVAL,
               "expected failure containing '%s'", part);
  expect_message(&error, part);
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayViewSetArray(view, array, &error), EINVAL);
  expect_message(&error, part);
}

/* Passes MINIMAL, fails DEFAULT (and FULL) with part in the message. */
static void expect_default_failure(struct ArrowArrayView* view,
                                   const struct ArrowArray* array, const char* part) {
  struct ArrowError error;
  cr_assert_eq(ArrowArrayViewSetArrayMinimal(view, array, &error), NANOARROW_OK, "%s",
               error.message);
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayViewValidate(view, NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
               EINVAL, "expected failure containing '%s'", part);
  expect_message(&error, part);
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayViewSetArray(view, array, &error), EINVAL);
  expect_message(&error, part);
}

/* Passes DEFAULT, fails FULL with part in the message. */
static void expect_full_failure(struct ArrowArrayView* view, const struct ArrowArray* array,
                                const char* part) {
  struct ArrowError error;
  cr_assert_eq(ArrowArrayViewSetArray(view, array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(view, NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
               NANOARROW_OK, "%s", error.message);
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayViewValidate(view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL, "expected failure containing '%s'", part);
  expect_message(&error, part);
}

static void expect_full_ok(struct ArrowArrayView* view, const struct ArrowArray* array) {
  struct ArrowError error;
  cr_assert_eq(ArrowArrayViewSetArray(view, array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
}

static const int32_t kInts[] = {1, 2, 3, 4, 5, 6, 7, 8};

/* ---- MINIMAL ---- */

Test(validate_minimal, length_and_offset) {
  const void* buffers[] = {NULL, kInts};
  struct ArrowArray array;
  struct ArrowArrayView view;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);

  hand_array(&array, -1, 0, 0, 2, buffers);
  expect_minimal_failure(&view, &array, "Expected length >= 0 but found -1");
  hand_array(&array, 1, -3, 0, 2, buffers);
  expect_minimal_failure(&view, &array, "Expected offset >= 0 but found -3");
  hand_array(&array, 10, INT64_MAX, 0, 2, buffers);
  expect_minimal_failure(&view, &array, "overflows int64");
  /* Fits int64 as an element count but not as a byte count. */
  hand_array(&array, 1, INT64_MAX / 2, 0, 2, buffers);
  expect_minimal_failure(&view, &array, "overflows int64");
  ArrowArrayViewReset(&view);
}

Test(validate_minimal, buffer_count_and_null_buffers) {
  const void* buffers[] = {NULL, kInts};
  const void* null_data[] = {NULL, NULL};
  struct ArrowArray array;
  struct ArrowArrayView view;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);

  hand_array(&array, 2, 0, 0, 1, buffers);
  expect_minimal_failure(&view, &array, "Expected 2 buffers for int32 array but found 1");
  hand_array(&array, 2, 0, 0, 3, buffers);
  expect_minimal_failure(&view, &array, "Expected 2 buffers for int32 array but found 3");
  hand_array(&array, 2, 0, 0, 2, NULL);
  expect_minimal_failure(&view, &array, "Expected non-NULL buffers");
  hand_array(&array, 2, 0, 0, 2, null_data);
  expect_minimal_failure(&view, &array, "Expected non-NULL data buffer 1");

  /* An empty array may omit its data buffer. */
  hand_array(&array, 0, 0, 0, 2, null_data);
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);

  cr_assert_eq(ArrowArrayViewSetArray(&view, NULL, NULL), EINVAL);
}

/* A slice made by moving offset and length can keep its parent's null_count, which
 * may exceed the slice's length: MINIMAL and DEFAULT accept it (as nanoarrow does) and
 * the view reports it as given; FULL compares it with the validity bits. */
Test(validate_minimal, null_count_above_length_passes_until_full) {
  static const uint8_t kSecondValid[] = {0x02}; /* element 0 null, element 1 valid */
  const void* buffers[] = {kSecondValid, kInts};
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowSchema schema;

  /* A fixed-width leaf (int32) and the same slice as a struct's child. */
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  hand_array(&array, 1, 1, 3, 2, buffers);
  expect_full_failure(&view, &array, "Expected null_count 3 to match");
  cr_assert_eq(view.null_count, 3);
  ArrowArrayViewReset(&view);

  {
    const void* struct_buffers[] = {NULL};
    struct ArrowArray child;
    struct ArrowArray* children[1];
    struct ArrowError error;
    children[0] = &child;
    hand_schema(&schema, "+s", 1, "i");
    cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
    hand_array(&array, 1, 0, 0, 1, struct_buffers);
    array.n_children = 1;
    array.children = children;
    hand_array(&child, 1, 1, 2, 2, buffers);
    expect_full_failure(&view, &array, "Expected null_count 2 to match");
    cr_assert_eq(view.children[0]->null_count, 2);
    ArrowArrayViewReset(&view);
    ArrowSchemaRelease(&schema);
  }
}

Test(validate_minimal, null_count) {
  const void* buffers[] = {NULL, kInts};
  struct ArrowArray array;
  struct ArrowArrayView view;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  hand_array(&array, 2, 0, -2, 2, buffers);
  expect_minimal_failure(&view, &array, "Expected null_count >= -1 but found -2");
  hand_array(&array, 2, 0, 3, 2, buffers);
  expect_minimal_failure(&view, &array, "Expected a validity buffer for null_count 3");
  hand_array(&array, 2, 0, 1, 2, buffers);
  expect_minimal_failure(&view, &array, "Expected a validity buffer for null_count 1");
  hand_array(&array, 2, 0, -1, 2, buffers);
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);
}

Test(validate_minimal, children_count_and_null_children) {
  const void* struct_buffers[] = {NULL};
  const void* child_buffers[] = {NULL, kInts};
  struct ArrowArray array;
  struct ArrowArray child;
  struct ArrowArray* children[] = {&child, NULL};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+s", 2, "i");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&child, 4, 0, 0, 2, child_buffers);

  hand_array(&array, 2, 0, 0, 1, struct_buffers);
  array.n_children = 1;
  array.children = children;
  expect_minimal_failure(&view, &array, "Expected 2 children for struct array but found 1");

  array.n_children = 2;
  array.children = NULL;
  expect_minimal_failure(&view, &array, "Expected non-NULL children");

  array.children = children;
  expect_minimal_failure(&view, &array, "Expected a non-NULL child array in children[1]");

  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

/* Fixed-width children (int32, bool, fixed-size binary) take a shorter path in
 * ArrowArrayViewSetArray: the same buffer sizes and the same errors, with the
 * child's path, as any other array. */
Test(validate_minimal, fixed_width_children) {
  static const uint8_t kBytes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  static const uint8_t kValidity[] = {0xFB};
  const void* struct_buffers[] = {NULL};
  const void* int_buffers[] = {kValidity, kInts};
  const void* bool_buffers[] = {NULL, kBytes};
  const void* fsb_buffers[] = {NULL, kBytes};
  const void* null_data[] = {NULL, NULL};
  struct ArrowArray array;
  struct ArrowArray ints;
  struct ArrowArray bools;
  struct ArrowArray fsbs;
  struct ArrowArray dictionary;
  struct ArrowArray* children[] = {&ints, &bools, &fsbs};
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;

  hand_schema(&schema, "+s", 3, "i");
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "b"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[2], "w:3"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);

  /* int32: offset 1 + length 4 (one null); bool: 11 bits; fixed-size binary: 4 x 3. */
  hand_array(&ints, 4, 1, 1, 2, int_buffers);
  hand_array(&bools, 9, 2, 0, 2, bool_buffers);
  hand_array(&fsbs, 4, 0, -1, 2, fsb_buffers);
  hand_array(&array, 4, 0, 0, 1, struct_buffers);
  array.n_children = 3;
  array.children = children;
  expect_full_ok(&view, &array);
  cr_assert_eq(view.children[0]->array, &ints);
  cr_assert_eq(view.children[0]->offset, 1);
  cr_assert_eq(view.children[0]->length, 4);
  cr_assert_eq(view.children[0]->null_count, 1);
  cr_assert_eq(view.children[0]->buffer_views[0].data.data, kValidity);
  cr_assert_eq(view.children[0]->buffer_views[0].size_bytes, 1);
  cr_assert_eq(view.children[0]->buffer_views[1].data.data, kInts);
  cr_assert_eq(view.children[0]->buffer_views[1].size_bytes, 20);
  cr_assert_eq(view.children[0]->buffer_views[2].data.data, NULL);
  cr_assert_eq(view.children[0]->buffer_views[2].size_bytes, 0);
  cr_assert_eq(view.children[1]->buffer_views[0].size_bytes, 0);
  cr_assert_eq(view.children[1]->buffer_views[1].size_bytes, 2);
  cr_assert_eq(view.children[2]->buffer_views[1].size_bytes, 12);
  cr_assert_eq(view.children[2]->null_count, -1);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0], 1), 3);
  cr_assert(ArrowArrayViewIsNull(view.children[0], 1));
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[1], 0), 0);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[1], 7), 1);

  /* An empty child may omit its data buffer. */
  hand_array(&fsbs, 0, 0, 0, 2, null_data);
  hand_array(&ints, 0, 0, 0, 2, null_data);
  hand_array(&bools, 0, 0, 0, 2, null_data);
  hand_array(&array, 0, 0, 0, 1, struct_buffers);
  array.n_children = 3;
  array.children = children;
  expect_full_ok(&view, &array);
  cr_assert_eq(view.children[2]->buffer_views[1].data.data, NULL);
  cr_assert_eq(view.children[2]->buffer_views[1].size_bytes, 0);

  /* Each failure is worded as for a top-level array, with the child's path. */
  hand_array(&array, 4, 0, 0, 1, struct_buffers);
  array.n_children = 3;
  array.children = children;
  hand_array(&ints, 4, 0, 0, 2, int_buffers);
  hand_array(&bools, 4, 0, 0, 2, bool_buffers);
  hand_array(&fsbs, 4, 0, 0, 2, null_data);
  expect_minimal_failure(&view, &array, "Expected non-NULL data buffer 1");
  expect_minimal_failure(&view, &array, "children[2]");
  hand_array(&fsbs, 4, 0, 1, 2, fsb_buffers);
  expect_minimal_failure(&view, &array, "Expected a validity buffer for null_count 1");
  hand_array(&fsbs, 4, 0, -3, 2, fsb_buffers);
  expect_minimal_failure(&view, &array, "Expected null_count >= -1 but found -3");
  hand_array(&fsbs, 4, 0, 0, 1, fsb_buffers);
  expect_minimal_failure(&view, &array, "Expected 2 buffers for fixed_size_binary array");
  hand_array(&fsbs, 4, 0, 0, 2, NULL);
  expect_minimal_failure(&view, &array, "Expected non-NULL buffers");
  hand_array(&fsbs, -1, 0, 0, 2, fsb_buffers);
  expect_minimal_failure(&view, &array, "Expected length >= 0 but found -1");
  hand_array(&fsbs, 4, -2, 0, 2, fsb_buffers);
  expect_minimal_failure(&view, &array, "Expected offset >= 0 but found -2");
  hand_array(&fsbs, 4, INT64_MAX - 1, 0, 2, fsb_buffers);
  expect_minimal_failure(&view, &array, "Offset + length overflows int64");
  hand_array(&fsbs, 4, INT64_MAX / 16, 0, 2, fsb_buffers);
  expect_minimal_failure(&view, &array, "overflows int64");
  hand_array(&fsbs, 4, 0, 0, 2, fsb_buffers);
  fsbs.n_children = 1;
  fsbs.children = children;
  expect_minimal_failure(&view, &array, "Expected 0 children for fixed_size_binary array");
  hand_array(&fsbs, 4, 0, 0, 2, fsb_buffers);
  hand_array(&dictionary, 4, 0, 0, 2, fsb_buffers);
  fsbs.dictionary = &dictionary;
  expect_minimal_failure(&view, &array, "Expected no dictionary");
  hand_array(&fsbs, 4, 0, 0, 2, fsb_buffers);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);

  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_minimal, struct_child_too_short_names_path) {
  /* struct<a: int32, b: struct<c: int32>> where c is too short */
  const void* struct_buffers[] = {NULL};
  const void* int_buffers[] = {NULL, kInts};
  struct ArrowArray outer, a, b, c;
  struct ArrowArray* outer_children[] = {&a, &b};
  struct ArrowArray* b_children[] = {&c};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+s", 2, "i");
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "+s"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(schema.children[1], 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (schema.children[1])->n_children; child_i++) {
    ArrowSchemaInit((schema.children[1])->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1]->children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);

  hand_array(&outer, 3, 1, 0, 1, struct_buffers);
  outer.n_children = 2;
  outer.children = outer_children;
  hand_array(&a, 4, 0, 0, 2, int_buffers);
  hand_array(&b, 4, 0, 0, 1, struct_buffers);
  b.n_children = 1;
  b.children = b_children;
  hand_array(&c, 3, 0, 0, 2, int_buffers);
  expect_minimal_failure(&view, &outer,
                         "Expected struct child 0 to have length >= 4 but found 3 in "
                         "children[1]");

  hand_array(&a, 3, 0, 0, 2, int_buffers);
  hand_array(&c, 4, 0, 0, 2, int_buffers);
  expect_minimal_failure(&view, &outer,
                         "Expected struct child 0 to have length >= 4 but found 3");

  hand_array(&a, 4, 0, 0, 2, int_buffers);
  expect_full_ok(&view, &outer);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_minimal, fixed_size_list_child_length) {
  const void* list_buffers[] = {NULL};
  const void* child_buffers[] = {NULL, kInts};
  struct ArrowArray array, child;
  struct ArrowArray* children[] = {&child};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+w:2", 1, "i");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 2, 1, 0, 1, list_buffers);
  array.n_children = 1;
  array.children = children;
  hand_array(&child, 5, 0, 0, 2, child_buffers);
  expect_minimal_failure(&view, &array,
                         "Expected fixed-size list child to have length >= 6 but found 5");
  hand_array(&child, 6, 0, 0, 2, child_buffers);
  expect_full_ok(&view, &array);

  /* (offset + length) * list size overflows */
  hand_array(&array, 1, INT64_MAX / 2, 0, 1, list_buffers);
  array.n_children = 1;
  array.children = children;
  expect_minimal_failure(&view, &array, "overflows int64");
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_minimal, sparse_union_child_length) {
  static const int8_t type_ids[] = {0, 0, 0};
  const void* union_buffers[] = {type_ids};
  const void* child_buffers[] = {NULL, kInts};
  struct ArrowArray array, child;
  struct ArrowArray* children[] = {&child};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+us:0", 1, "i");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 3, 0, 0, 1, union_buffers);
  array.n_children = 1;
  array.children = children;
  hand_array(&child, 2, 0, 0, 2, child_buffers);
  expect_minimal_failure(&view, &array,
                         "Expected sparse_union child 0 to have length >= 3 but found 2");
  hand_array(&child, 3, 0, 0, 2, child_buffers);
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_minimal, run_end_encoded_children) {
  static const int32_t run_ends[] = {2, 4};
  static const double values[] = {1.0, 2.0};
  const void* run_end_buffers[] = {NULL, run_ends};
  const void* value_buffers[] = {NULL, values};
  struct ArrowArray array, run_ends_array, values_array;
  struct ArrowArray* children[] = {&run_ends_array, &values_array};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+r", 2, "i");
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "g"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 4, 0, 0, 0, NULL);
  array.n_children = 2;
  array.children = children;

  hand_array(&run_ends_array, 0, 0, 0, 2, run_end_buffers);
  hand_array(&values_array, 0, 0, 0, 2, value_buffers);
  expect_minimal_failure(&view, &array, "Expected at least one run end");

  hand_array(&run_ends_array, 2, 0, 0, 2, run_end_buffers);
  hand_array(&values_array, 1, 0, 0, 2, value_buffers);
  expect_minimal_failure(&view, &array,
                         "Expected values child length >= run ends length 2 but found 1");

  hand_array(&values_array, 2, 0, 0, 2, value_buffers);
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);

  /* Run ends must be int16/32/64 (a view built by hand can say otherwise). */
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_RUN_END_ENCODED);
  cr_assert_eq(ArrowArrayViewAllocateChildren(&view, 2), NANOARROW_OK);
  ArrowArrayViewInitFromType(view.children[0], NANOARROW_TYPE_DOUBLE);
  ArrowArrayViewInitFromType(view.children[1], NANOARROW_TYPE_DOUBLE);
  hand_array(&run_ends_array, 2, 0, 0, 2, value_buffers);
  expect_minimal_failure(&view, &array,
                         "Expected run ends of type int16, int32 or int64 but found double");
  ArrowArrayViewReset(&view);
}

Test(validate_minimal, binary_view_buffer_count) {
  const void* buffers[] = {NULL, NULL};
  struct ArrowArray array;
  struct ArrowArrayView view;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING_VIEW);
  hand_array(&array, 0, 0, 0, 2, buffers);
  expect_minimal_failure(&view, &array,
                         "Expected at least 3 buffers for string_view array but found 2");
  ArrowArrayViewReset(&view);
}

Test(validate_minimal, binary_view_needs_sizes_buffer) {
  static const char block[] = "0123456789abcdefghij";
  union ArrowBinaryView views[1];
  const void* buffers[] = {NULL, views, block, NULL};
  struct ArrowArray array;
  struct ArrowArrayView view;
  memset(views, 0, sizeof(views));
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_BINARY_VIEW);
  hand_array(&array, 1, 0, 0, 4, buffers);
  expect_minimal_failure(&view, &array, "Expected non-NULL variadic buffer sizes");
  ArrowArrayViewReset(&view);
}

Test(validate_minimal, dictionary_presence) {
  static const int8_t indices[] = {0};
  const void* buffers[] = {NULL, indices};
  struct ArrowArray array, dictionary;
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "c"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  ArrowSchemaInit(schema.dictionary);
  cr_assert_eq(ArrowSchemaSetFormat(schema.dictionary, "i"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 1, 0, 0, 2, buffers);
  expect_minimal_failure(&view, &array, "Expected a non-NULL dictionary");

  /* A broken dictionary is reported with its path. */
  hand_array(&dictionary, -5, 0, 0, 2, buffers);
  array.dictionary = &dictionary;
  expect_minimal_failure(&view, &array, "Expected length >= 0 but found -5 in dictionary");
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT8);
  expect_minimal_failure(&view, &array, "Expected no dictionary");
  ArrowArrayViewReset(&view);
}

Test(validate_minimal, hand_built_buffer_too_small) {
  static const int64_t values[] = {1, 2, 3};
  struct ArrowArrayView view;
  struct ArrowError error;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT64);
  view.length = 3;
  view.buffer_views[1].data.data = values;
  view.buffer_views[1].size_bytes = 16;
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_MINIMAL, &error),
               EINVAL);
  expect_message(&error, "Expected data buffer 1 to hold >= 24 bytes but found 16");
  view.buffer_views[1].size_bytes = 24;
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_NONE, NULL),
               NANOARROW_OK);
}

/* MINIMAL reads no buffer, so a NULL pointer that claims enough bytes passes it (as
 * in nanoarrow); DEFAULT, whose checks and getters read buffers, refuses it first. */
Test(validate_minimal, null_pointer_with_size_passes_only_minimal) {
  struct ArrowArrayView view;
  struct ArrowError error;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING);
  view.length = 2;
  view.buffer_views[1].size_bytes = 12;
  view.buffer_views[2].size_bytes = 8;
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_MINIMAL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
               EINVAL);
  expect_message(&error, "Expected non-NULL offset buffer 1");
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  expect_message(&error, "Expected non-NULL offset buffer 1");
  /* Too few bytes still fails MINIMAL, pointer or not. */
  view.buffer_views[1].size_bytes = 8;
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_MINIMAL, &error),
               EINVAL);
  expect_message(&error, "Expected non-NULL offset buffer 1");

  /* Fixed-width data and a union's type ids alike. */
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  view.length = 2;
  view.buffer_views[1].size_bytes = 8;
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_MINIMAL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
               EINVAL);
  expect_message(&error, "Expected non-NULL data buffer 1");
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_SPARSE_UNION);
  view.length = 2;
  view.buffer_views[0].size_bytes = 2;
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_MINIMAL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
               EINVAL);
  expect_message(&error, "buffer 0");
}

/* The same through a built array whose offsets pointer was taken away. */
Test(validate_minimal, built_array_null_pointer_finishes_minimal_only) {
  struct ArrowArray array;
  struct ArrowError error;
  uint8_t* saved;
  struct ArrowStringView value = {"1234", 4};
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, value), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, value), NANOARROW_OK);
  saved = ArrowArrayBuffer(&array, 1)->data;
  ArrowArrayBuffer(&array, 1)->data = NULL;
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_MINIMAL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
               EINVAL);
  expect_message(&error, "Expected non-NULL offset buffer 1");
  ArrowArrayBuffer(&array, 1)->size_bytes = 0;
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_MINIMAL, &error),
               EINVAL);
  ArrowArrayBuffer(&array, 1)->data = saved;
  ArrowArrayRelease(&array);
}

Test(validate_minimal, hand_built_depth_is_bounded) {
  struct ArrowArrayView root;
  struct ArrowArrayView* node = &root;
  struct ArrowError error;
  int depth;
  ArrowArrayViewInitFromType(&root, NANOARROW_TYPE_STRUCT);
  for (depth = 0; depth < 70; depth++) {
    cr_assert_eq(ArrowArrayViewAllocateChildren(node, 1), NANOARROW_OK);
    node = node->children[0];
    ArrowArrayViewInitFromType(node, NANOARROW_TYPE_STRUCT);
  }
  cr_assert_eq(ArrowArrayViewValidate(&root, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  expect_message(&error, "nesting depth");
  ArrowArrayViewReset(&root);
}

/* ---- DEFAULT ---- */

Test(validate_default, string_first_and_last_offsets) {
  static const int32_t negative_first[] = {-1, 2, 3};
  static const int32_t last_before_first[] = {3, 1, 2};
  static const int32_t ok[] = {0, 2, 3};
  const void* buffers[] = {NULL, negative_first, "abc"};
  struct ArrowArray array;
  struct ArrowArrayView view;

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING);
  hand_array(&array, 2, 0, 0, 3, buffers);
  expect_default_failure(&view, &array, "Expected first offset >= 0 but found -1");

  buffers[1] = last_before_first;
  expect_default_failure(&view, &array,
                         "Expected last offset >= first offset 3 but found 2");

  /* Only the offsets of the logical range are read. */
  buffers[1] = last_before_first;
  hand_array(&array, 1, 1, 0, 3, buffers);
  expect_full_ok(&view, &array);

  buffers[1] = ok;
  buffers[2] = NULL;
  hand_array(&array, 2, 0, 0, 3, buffers);
  expect_default_failure(&view, &array, "Expected non-NULL data buffer for last offset 3");
  ArrowArrayViewReset(&view);
}

Test(validate_default, string_last_offset_past_known_data_size) {
  static const int64_t offsets[] = {0, 2, 5};
  struct ArrowArrayView view;
  struct ArrowError error;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_LARGE_STRING);
  view.buffer_views[1].data.data = offsets;
  view.buffer_views[2].data.data = "abc";
  view.buffer_views[2].size_bytes = 3;
  ArrowArrayViewSetLength(&view, 2);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_MINIMAL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
               EINVAL);
  expect_message(&error, "Expected last offset <= data buffer size 3 but found 5");
}

Test(validate_default, list_last_offset_past_child) {
  static const int32_t offsets[] = {0, 2, 5};
  const void* list_buffers[] = {NULL, offsets};
  const void* child_buffers[] = {NULL, kInts};
  struct ArrowArray array, child;
  struct ArrowArray* children[] = {&child};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+l", 1, "i");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 2, 0, 0, 2, list_buffers);
  array.n_children = 1;
  array.children = children;
  hand_array(&child, 4, 0, 0, 2, child_buffers);
  expect_default_failure(&view, &array, "Expected last offset <= child length 4 but found 5");
  hand_array(&child, 5, 0, 0, 2, child_buffers);
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_default, run_ends_must_cover_the_array) {
  static const int16_t run_ends[] = {1, 3};
  static const int32_t values[] = {7, 8};
  const void* run_end_buffers[] = {NULL, run_ends};
  const void* value_buffers[] = {NULL, values};
  struct ArrowArray array, run_ends_array, values_array;
  struct ArrowArray* children[] = {&run_ends_array, &values_array};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+r", 2, "s");
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 3, 1, 0, 0, NULL);
  array.n_children = 2;
  array.children = children;
  hand_array(&run_ends_array, 2, 0, 0, 2, run_end_buffers);
  hand_array(&values_array, 2, 0, 0, 2, value_buffers);
  expect_default_failure(&view, &array,
                         "Expected last run end >= offset + length 4 but found 3");
  hand_array(&array, 2, 1, 0, 0, NULL);
  array.n_children = 2;
  array.children = children;
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

/* ---- FULL ---- */

Test(validate_full, string_offsets_non_decreasing_in_child) {
  static const int32_t offsets[] = {0, 2, 1, 3};
  const void* struct_buffers[] = {NULL};
  const void* int_buffers[] = {NULL, kInts};
  const void* string_buffers[] = {NULL, offsets, "abc"};
  struct ArrowArray array, a, b;
  struct ArrowArray* children[] = {&a, &b};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+s", 2, "i");
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "u"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 3, 0, 0, 1, struct_buffers);
  array.n_children = 2;
  array.children = children;
  hand_array(&a, 3, 0, 0, 2, int_buffers);
  hand_array(&b, 3, 0, 0, 3, string_buffers);
  expect_full_failure(&view, &array,
                      "Expected string offsets to be non-decreasing at index 1 (1 < 2) in "
                      "children[1]");
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_full, list_offsets_non_decreasing) {
  static const int32_t offsets[] = {0, 3, 1, 4};
  const void* list_buffers[] = {NULL, offsets};
  const void* child_buffers[] = {NULL, kInts};
  struct ArrowArray array, child;
  struct ArrowArray* children[] = {&child};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+l", 1, "i");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 3, 0, 0, 2, list_buffers);
  array.n_children = 1;
  array.children = children;
  hand_array(&child, 4, 0, 0, 2, child_buffers);
  expect_full_failure(&view, &array, "Expected list offsets to be non-decreasing at index 1");
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

/* FULL checks no text for UTF-8, as nanoarrow's does not: a string column may
 * carry bytes in another encoding (text from a SQL_ASCII database, say). The CLI's
 * `validate` reports them (tests/cli/test_cli_utf8.c). */
Test(validate_full, string_bytes_are_not_checked_for_utf8) {
  enum ArrowType types[] = {NANOARROW_TYPE_STRING, NANOARROW_TYPE_LARGE_STRING};
  /* "caf\xe9" (Latin-1), a stray continuation byte, a sequence split between
   * elements. */
  static const int32_t offsets32[] = {0, 4, 6, 7};
  static const int64_t offsets64[] = {0, 4, 6, 7};
  const void* buffers[] = {NULL, NULL, "caf\xe9\x80x\xc3"};
  struct ArrowArray array;
  struct ArrowArrayView view;
  size_t t;
  for (t = 0; t < 2; t++) {
    buffers[1] = t == 0 ? (const void*)offsets32 : (const void*)offsets64;
    hand_array(&array, 3, 0, 0, 3, buffers);
    ArrowArrayViewInitFromType(&view, types[t]);
    expect_full_ok(&view, &array);
    ArrowArrayViewReset(&view);
  }
}

static union ArrowBinaryView ref_view(int32_t size, int32_t buffer_index, int32_t offset) {
  union ArrowBinaryView view;
  memset(&view, 0, sizeof(view));
  view.ref.size = size;
  view.ref.buffer_index = buffer_index;
  view.ref.offset = offset;
  return view;
}

Test(validate_full, binary_views) {
  static const char block[] = "0123456789abcdefghij";
  union ArrowBinaryView views[2];
  int64_t sizes[] = {20};
  const void* buffers[] = {NULL, views, block, sizes};
  struct ArrowArray array;
  struct ArrowArrayView view;

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_BINARY_VIEW);
  hand_array(&array, 2, 0, 0, 4, buffers);

  views[0] = ref_view(13, 0, 0);
  views[1] = ref_view(13, 0, 7);
  expect_full_ok(&view, &array);

  views[1] = ref_view(13, 1, 0);
  expect_full_failure(&view, &array,
                      "Expected view buffer index in [0, 1) at index 1 but found 1");
  views[1] = ref_view(13, -1, 0);
  expect_full_failure(&view, &array, "Expected view buffer index");
  views[1] = ref_view(13, 0, 8);
  expect_full_failure(&view, &array,
                      "Expected view offset 8 + size 13 <= variadic buffer 0 size 20 at "
                      "index 1");
  views[1] = ref_view(13, 0, -1);
  expect_full_failure(&view, &array, "Expected view offset -1");
  views[1] = ref_view(-4, 0, 0);
  expect_full_failure(&view, &array, "Expected view size >= 0 at index 1 but found -4");

  /* The offending view is outside the slice. */
  hand_array(&array, 1, 0, 0, 4, buffers);
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);
}

Test(validate_full, string_view_bytes_are_not_checked_for_utf8) {
  static const char block[] = "long enough string \xff!";
  union ArrowBinaryView views[2];
  int64_t sizes[] = {(int64_t)sizeof(block) - 1};
  const void* buffers[] = {NULL, views, block, sizes};
  struct ArrowArray array;
  struct ArrowArrayView view;

  memset(views, 0, sizeof(views));
  views[0].inlined.size = 2;
  memcpy(views[0].inlined.data, "\xc3x", 2);
  views[1] = ref_view((int32_t)sizes[0], 0, 0);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING_VIEW);
  hand_array(&array, 2, 0, 0, 4, buffers);
  expect_full_ok(&view, &array);
  /* The view checks still run: a view past its buffer is refused. */
  views[1] = ref_view((int32_t)sizes[0], 0, 1);
  expect_full_failure(&view, &array, "Expected view offset 1 + size");
  ArrowArrayViewReset(&view);
}

Test(validate_full, list_view_ranges) {
  static const int32_t offsets[] = {0, 2, 1};
  static const int32_t good_sizes[] = {2, 2, 3};
  static const int32_t past_end[] = {2, 3, 1};
  static const int32_t negative[] = {2, -1, 1};
  const void* list_buffers[] = {NULL, offsets, good_sizes};
  const void* child_buffers[] = {NULL, kInts};
  struct ArrowArray array, child;
  struct ArrowArray* children[] = {&child};
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;

  hand_schema(&schema, "+vl", 1, "i");
  if (ArrowArrayViewInitFromSchema(&view, &schema, &error) != NANOARROW_OK) {
    /* Fall back to a hand-built view if the schema parser lacks list views. */
    ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_LIST_VIEW);
    cr_assert_eq(ArrowArrayViewAllocateChildren(&view, 1), NANOARROW_OK);
    ArrowArrayViewInitFromType(view.children[0], NANOARROW_TYPE_INT32);
  }
  hand_array(&array, 3, 0, 0, 3, list_buffers);
  array.n_children = 1;
  array.children = children;
  hand_array(&child, 4, 0, 0, 2, child_buffers);
  expect_full_ok(&view, &array);

  list_buffers[2] = past_end;
  expect_full_failure(&view, &array,
                      "Expected list view offset 2 and size 3 within child length 4 at "
                      "index 1");
  list_buffers[2] = negative;
  expect_full_failure(&view, &array, "size -1");
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_full, union_type_ids_and_offsets) {
  static const int8_t good_ids[] = {5, 2, 5};
  static const int8_t undeclared[] = {5, 3, 5};
  static const int8_t negative[] = {5, -1, 5};
  static const int32_t good_offsets[] = {0, 0, 1};
  static const int32_t bad_offsets[] = {0, 0, 2};
  static const int32_t negative_offsets[] = {0, -1, 1};
  const void* union_buffers[] = {good_ids, good_offsets};
  const void* child_buffers[] = {NULL, kInts};
  struct ArrowArray array, child0, child1;
  struct ArrowArray* children[] = {&child0, &child1};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+ud:5,2", 2, "i");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 3, 0, 0, 2, union_buffers);
  array.n_children = 2;
  array.children = children;
  hand_array(&child0, 2, 0, 0, 2, child_buffers);
  hand_array(&child1, 1, 0, 0, 2, child_buffers);
  expect_full_ok(&view, &array);

  union_buffers[0] = undeclared;
  expect_full_failure(&view, &array,
                      "Expected a declared union type id at index 1 but found 3");
  union_buffers[0] = negative;
  expect_full_failure(&view, &array, "Expected a declared union type id at index 1");

  union_buffers[0] = good_ids;
  union_buffers[1] = bad_offsets;
  expect_full_failure(&view, &array,
                      "Expected union offset in [0, 2) for child 0 at index 2 but found 2");
  union_buffers[1] = negative_offsets;
  expect_full_failure(&view, &array, "Expected union offset in [0, 1) for child 1");
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_full, union_without_map_uses_child_indices) {
  static const int8_t ids[] = {0, 2};
  const void* union_buffers[] = {ids};
  const void* child_buffers[] = {NULL, kInts};
  struct ArrowArray array, child0, child1;
  struct ArrowArray* children[] = {&child0, &child1};
  struct ArrowArrayView view;

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_SPARSE_UNION);
  cr_assert_eq(ArrowArrayViewAllocateChildren(&view, 2), NANOARROW_OK);
  ArrowArrayViewInitFromType(view.children[0], NANOARROW_TYPE_INT32);
  ArrowArrayViewInitFromType(view.children[1], NANOARROW_TYPE_INT32);
  hand_array(&array, 2, 0, 0, 1, union_buffers);
  array.n_children = 2;
  array.children = children;
  hand_array(&child0, 2, 0, 0, 2, child_buffers);
  hand_array(&child1, 2, 0, 0, 2, child_buffers);
  expect_full_failure(&view, &array, "Expected a declared union type id at index 1");
  ArrowArrayViewReset(&view);
}

Test(validate_full, run_ends_increasing_and_positive) {
  static const int64_t not_increasing[] = {2, 2, 5};
  static const int64_t not_positive[] = {0, 2, 5};
  static const double values[] = {1.0, 2.0, 3.0};
  const void* run_end_buffers[] = {NULL, not_increasing};
  const void* value_buffers[] = {NULL, values};
  struct ArrowArray array, run_ends_array, values_array;
  struct ArrowArray* children[] = {&run_ends_array, &values_array};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+r", 2, "l");
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "g"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 5, 0, 0, 0, NULL);
  array.n_children = 2;
  array.children = children;
  hand_array(&run_ends_array, 3, 0, 0, 2, run_end_buffers);
  hand_array(&values_array, 3, 0, 0, 2, value_buffers);
  expect_full_failure(&view, &array,
                      "Expected run ends to be positive and strictly increasing at index 1 "
                      "but found 2 after 2");
  run_end_buffers[1] = not_positive;
  expect_full_failure(&view, &array,
                      "Expected run ends to be positive and strictly increasing at index 0");
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

/* A run-ends child whose null_count is -1 (unknown) passes DEFAULT; its bitmap
 * still marks run end 1 null, which FULL must refuse. */
Test(validate_full, run_ends_with_unknown_null_count_and_a_null) {
  static const int64_t run_ends[] = {2, 4, 5};
  static const uint8_t validity[] = {0x05}; /* 0b101: run end 1 is null */
  static const double values[] = {1.0, 2.0, 3.0};
  const void* run_end_buffers[] = {validity, run_ends};
  const void* value_buffers[] = {NULL, values};
  struct ArrowArray array, run_ends_array, values_array;
  struct ArrowArray* children[] = {&run_ends_array, &values_array};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+r", 2, "l");
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "g"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 5, 0, 0, 0, NULL);
  array.n_children = 2;
  array.children = children;
  hand_array(&run_ends_array, 3, 0, -1, 2, run_end_buffers);
  hand_array(&values_array, 3, 0, 0, 2, value_buffers);
  expect_full_failure(&view, &array, "Expected run ends without nulls but run end 1 is null");

  /* The same bits with every run end valid pass. */
  static const uint8_t all_valid[] = {0x07};
  run_end_buffers[0] = all_valid;
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_full, dictionary_indices) {
  static const int16_t indices[] = {0, 3, 1};
  static const uint8_t validity[] = {0x05}; /* element 1 null */
  const void* buffers[] = {NULL, indices};
  const void* dictionary_buffers[] = {NULL, kInts};
  struct ArrowArray array, dictionary;
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "s"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  ArrowSchemaInit(schema.dictionary);
  cr_assert_eq(ArrowSchemaSetFormat(schema.dictionary, "i"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 3, 0, 0, 2, buffers);
  hand_array(&dictionary, 2, 0, 0, 2, dictionary_buffers);
  array.dictionary = &dictionary;
  expect_full_failure(&view, &array,
                      "Expected dictionary index in [0, 2) at index 1 but found 3");
  /* A null slot's index is not looked up. */
  buffers[0] = validity;
  array.null_count = 1;
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(validate_full, null_count_matches_validity) {
  static const uint8_t validity[] = {0x05}; /* 1 0 1: one null */
  const void* buffers[] = {validity, kInts};
  struct ArrowArray array;
  struct ArrowArrayView view;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  hand_array(&array, 3, 0, 2, 2, buffers);
  expect_full_failure(&view, &array,
                      "Expected null_count 2 to match the validity buffer's 1 nulls");
  hand_array(&array, 3, 0, 1, 2, buffers);
  expect_full_ok(&view, &array);
  ArrowArrayViewReset(&view);
}

Test(validate_full, unknown_level) {
  struct ArrowArrayView view;
  struct ArrowError error;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  cr_assert_eq(
      ArrowArrayViewValidate(&view, (enum ArrowValidationLevel)42, &error), EINVAL);
}
