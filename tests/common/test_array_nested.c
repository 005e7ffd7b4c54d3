/* Building nested arrays: lists, list views, fixed-size lists, structs, maps, unions,
 * run-end encoded, dictionaries and binary/string views; schema-driven init, deep
 * copies from views, and release of trees whose children were moved out. */

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

static void finish_full(struct ArrowArray* array) {
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayFinishBuilding(array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
}

static void init_from_format(struct ArrowArray* array, struct ArrowSchema* schema,
                             const char* format, const char* child_format) {
  struct ArrowError error;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetFormat(schema, format), NANOARROW_OK);
  if (child_format != NULL) {
    cr_assert_eq(ArrowSchemaAllocateChildren(schema, 1), NANOARROW_OK);
    for (int64_t child_i = 0; child_i < (schema)->n_children; child_i++) {
      ArrowSchemaInit((schema)->children[child_i]);
    }
    ArrowSchemaInit(schema->children[0]);
    cr_assert_eq(ArrowSchemaSetFormat(schema->children[0], child_format), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetName(schema->children[0], "item"), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
}

static const int32_t* i32(const void* buffer) { return (const int32_t*)buffer; }
static const int64_t* i64(const void* buffer) { return (const int64_t*)buffer; }
static const uint8_t* u8(const void* buffer) { return (const uint8_t*)buffer; }

Test(array_nested, list_of_int32) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  int32_t expected_offsets[] = {0, 2, 2, 2, 3};
  init_from_format(&array, &schema, "+l", "i");
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendEmpty(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 3), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(array.length, 4);
  cr_assert_eq(array.null_count, 1);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 0), EINVAL);
  finish_full(&array);
  cr_assert_eq(array.n_buffers, 2);
  cr_assert_eq(memcmp(array.buffers[1], expected_offsets, sizeof(expected_offsets)), 0);
  cr_assert_eq(u8(array.buffers[0])[0], 0x0D);
  cr_assert_eq(i32(array.children[0]->buffers[1])[2], 3);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, list_offsets_overflow) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  init_from_format(&array, &schema, "+l", "n");
  /* A null child costs no memory, so a child longer than INT32_MAX is cheap. */
  cr_assert_eq(ArrowArrayAppendNull(array.children[0], (int64_t)INT32_MAX + 1),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), EOVERFLOW);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), EOVERFLOW);
  cr_assert_eq(array.length, 0);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);

  init_from_format(&array, &schema, "+L", "n");
  cr_assert_eq(ArrowArrayAppendNull(array.children[0], (int64_t)INT32_MAX + 1),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(i64(ArrowArrayBuffer(&array, 1)->data)[1], (int64_t)INT32_MAX + 1);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, large_list) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  int64_t expected_offsets[] = {0, 0, 1};
  init_from_format(&array, &schema, "+L", "u");
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(array.children[0], ArrowCharView("x")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  finish_full(&array);
  cr_assert_eq(memcmp(array.buffers[1], expected_offsets, sizeof(expected_offsets)), 0);
  cr_assert_eq(u8(array.buffers[0])[0], 0x02);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, list_views) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  /* Null and empty elements point nowhere (offset 0, size 0), as nanoarrow builds them. */
  int32_t expected_offsets[] = {0, 0, 2, 0};
  int32_t expected_sizes[] = {2, 0, 1, 0};
  int64_t expected_offsets64[] = {0, 1};
  int64_t expected_sizes64[] = {1, 0};

  init_from_format(&array, &schema, "+vl", "i");
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 3), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendEmpty(&array, 1), NANOARROW_OK);
  finish_full(&array);
  cr_assert_eq(array.n_buffers, 3);
  cr_assert_eq(memcmp(array.buffers[1], expected_offsets, sizeof(expected_offsets)), 0);
  cr_assert_eq(memcmp(array.buffers[2], expected_sizes, sizeof(expected_sizes)), 0);
  cr_assert_eq(u8(array.buffers[0])[0], 0x0D);
  {
    /* ListChildOffset reads a list view's offsets (where each element starts). */
    struct ArrowArrayView view;
    cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
    cr_assert_eq(ArrowArrayViewListChildOffset(&view, 0), 0);
    cr_assert_eq(ArrowArrayViewListChildOffset(&view, 2), 2);
    ArrowArrayViewReset(&view);
  }
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);

  init_from_format(&array, &schema, "+vL", "i");
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  finish_full(&array);
  cr_assert_eq(memcmp(array.buffers[1], expected_offsets64, sizeof(expected_offsets64)), 0);
  cr_assert_eq(memcmp(array.buffers[2], expected_sizes64, sizeof(expected_sizes64)), 0);
  cr_assert_null(array.buffers[0]);
  {
    struct ArrowArrayView view;
    cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
    cr_assert_eq(ArrowArrayViewListChildOffset(&view, 1), 1);
    ArrowArrayViewReset(&view);
  }
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, fixed_size_list_checks_child_length) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  init_from_format(&array, &schema, "+w:2", "s");
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), EINVAL);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  /* A null still occupies two (empty, non-null) child slots. */
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(array.children[0]->length, 4);
  cr_assert_eq(array.children[0]->null_count, 0);
  cr_assert_eq(ArrowArrayReserve(&array, 10), NANOARROW_OK);
  cr_assert_geq(ArrowArrayBuffer(array.children[0], 1)->capacity_bytes, (4 + 20) * 2);
  finish_full(&array);
  cr_assert_eq(array.n_buffers, 1);
  cr_assert_eq(array.length, 2);
  cr_assert_eq(u8(array.buffers[0])[0], 0x01);
  cr_assert_eq(((const int16_t*)array.children[0]->buffers[1])[1], 2);
  cr_assert_eq(((const int16_t*)array.children[0]->buffers[1])[3], 0);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, struct_children_get_empties_for_parent_nulls) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  int32_t expected_offsets[] = {0, 2, 2};

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);
  cr_assert_eq(array.n_children, 2);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);

  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 5), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(array.children[1], ArrowCharView("hi")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(array.length, 2);
  cr_assert_eq(array.null_count, 1);
  cr_assert_eq(array.children[0]->length, 2);
  cr_assert_eq(array.children[1]->length, 2);
  cr_assert_eq(array.children[1]->null_count, 0);
  finish_full(&array);
  cr_assert_eq(u8(array.buffers[0])[0], 0x01);
  cr_assert_eq(i32(array.children[0]->buffers[1])[1], 0);
  cr_assert_eq(memcmp(array.children[1]->buffers[1], expected_offsets,
                      sizeof(expected_offsets)),
               0);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

/* A struct element is finished only when every child holds exactly one more
 * element than the struct. */
Test(array_nested, struct_finish_element_checks_child_lengths) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);

  /* Only the first child was appended to. */
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), EINVAL);
  cr_assert_eq(array.length, 0);
  cr_assert_eq(ArrowArrayAppendInt(array.children[1], 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(array.length, 1);
  /* Both children one element too far ahead. */
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 3), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[1], 4), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 5), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[1], 6), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), EINVAL);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, map_of_string_to_int) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray* entries;
  struct ArrowError error;
  int32_t expected_offsets[] = {0, 2, 2};

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetType(&schema, NANOARROW_TYPE_MAP), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0]->children[0], NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0]->children[1], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  entries = array.children[0];
  cr_assert_eq(ArrowArrayAppendString(entries->children[0], ArrowCharView("a")),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(entries->children[1], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(entries), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(entries->children[0], ArrowCharView("b")),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(entries->children[1], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(entries), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  finish_full(&array);
  cr_assert_eq(memcmp(array.buffers[1], expected_offsets, sizeof(expected_offsets)), 0);
  cr_assert_eq(entries->length, 2);
  cr_assert_eq(entries->children[1]->null_count, 1);
  cr_assert_eq(u8(entries->children[1]->buffers[0])[0], 0x01);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

static void init_union(struct ArrowArray* array, struct ArrowSchema* schema,
                       const char* format) {
  struct ArrowError error;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetFormat(schema, format), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (schema)->n_children; child_i++) {
    ArrowSchemaInit((schema)->children[child_i]);
  }
  ArrowSchemaInit(schema->children[0]);
  ArrowSchemaInit(schema->children[1]);
  cr_assert_eq(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[1], "s"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
}

Test(array_nested, sparse_union_with_mapped_type_ids) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  int8_t expected_type_ids[] = {5, 2, 5};
  init_union(&array, &schema, "+us:5,2");
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 10), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 5), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(array.children[1], ArrowCharView("z")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 0), EINVAL);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 1), EINVAL);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, -1), EINVAL);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(array.length, 3);
  cr_assert_eq(array.null_count, 0);
  cr_assert_eq(array.children[0]->length, 3);
  cr_assert_eq(array.children[1]->length, 3);
  cr_assert_eq(array.children[0]->null_count, 1);
  finish_full(&array);
  cr_assert_eq(array.n_buffers, 1);
  cr_assert_eq(memcmp(array.buffers[0], expected_type_ids, 3), 0);
  cr_assert_eq(i32(array.children[0]->buffers[1])[0], 10);
  cr_assert_eq(i32(array.children[0]->buffers[1])[1], 0);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, dense_union_with_mapped_type_ids) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  int8_t expected_type_ids[] = {7, 3, 7, 3, 3};
  int32_t expected_offsets[] = {0, 0, 1, 1, 1};
  init_union(&array, &schema, "+ud:3,7");
  cr_assert_eq(ArrowArrayAppendString(array.children[1], ArrowCharView("a")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 7), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 3), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(array.children[1], ArrowCharView("b")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 7), NANOARROW_OK);
  /* Two nulls share one null element of the first child. */
  cr_assert_eq(ArrowArrayAppendNull(&array, 2), NANOARROW_OK);
  cr_assert_eq(array.length, 5);
  cr_assert_eq(array.children[0]->length, 2);
  cr_assert_eq(array.children[0]->null_count, 1);
  finish_full(&array);
  cr_assert_eq(array.n_buffers, 2);
  cr_assert_eq(memcmp(array.buffers[0], expected_type_ids, 5), 0);
  cr_assert_eq(memcmp(array.buffers[1], expected_offsets, sizeof(expected_offsets)), 0);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, union_from_type_uses_child_indices) {
  struct ArrowArray array;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_DENSE_UNION), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateChildren(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromType(array.children[0], NANOARROW_TYPE_INT8), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  /* No child element yet: there is nothing for the offset to point at. */
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 0), EINVAL);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 0), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishUnionElement(&array, 1), EINVAL);
  finish_full(&array);
  cr_assert_eq(u8(array.buffers[0])[0], 0);
  cr_assert_eq(i32(array.buffers[1])[0], 0);
  ArrowArrayRelease(&array);
}

Test(array_nested, run_end_encoded_nulls_become_runs) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeRunEndEncoded(&schema, NANOARROW_TYPE_INT16), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_DOUBLE), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(array.n_buffers, 0);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 3), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendEmpty(&array, 2), NANOARROW_OK);
  /* A run built by hand. */
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 9), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendDouble(array.children[1], 2.5), NANOARROW_OK);
  array.length = 9;
  cr_assert_eq(ArrowArrayAppendNull(&array, 40000), EINVAL); /* run end > INT16_MAX */
  cr_assert_eq(array.null_count, 0);
  finish_full(&array);
  cr_assert_eq(((const int16_t*)array.children[0]->buffers[1])[0], 3);
  cr_assert_eq(((const int16_t*)array.children[0]->buffers[1])[1], 5);
  cr_assert_eq(((const int16_t*)array.children[0]->buffers[1])[2], 9);
  cr_assert_eq(array.children[1]->null_count, 1);
  cr_assert_eq(u8(array.children[1]->buffers[0])[0], 0x06);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, dictionary_indices_and_values) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetType(&schema, NANOARROW_TYPE_INT8), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  ArrowSchemaInit(schema.dictionary);
  cr_assert_eq(ArrowSchemaSetType(schema.dictionary, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_not_null(array.dictionary);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(array.dictionary, ArrowCharView("x")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(array.dictionary, ArrowCharView("y")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 200), EINVAL);
  finish_full(&array);
  cr_assert_eq(((const int8_t*)array.buffers[1])[0], 1);
  cr_assert_eq(array.dictionary->length, 2);
  ArrowArrayRelease(&array);

  /* An index past the dictionary fails full validation. */
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 3), NANOARROW_OK);
  cr_assert_neq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
                NANOARROW_OK);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

static void expect_view(const struct ArrowArray* array, int64_t i, int32_t size,
                        const char* inline_or_prefix, int32_t buffer_index, int32_t offset) {
  union ArrowBinaryView view;
  memcpy(&view, (const uint8_t*)array->buffers[1] + 16 * i, sizeof(view));
  cr_assert_eq(view.inlined.size, size, "view %d", (int)i);
  if (size <= NANOARROW_BINARY_VIEW_INLINE_SIZE) {
    char expected[12];
    memset(expected, 0, sizeof(expected));
    memcpy(expected, inline_or_prefix, (size_t)size);
    cr_assert_eq(memcmp(view.inlined.data, expected, 12), 0, "view %d", (int)i);
  } else {
    cr_assert_eq(memcmp(view.ref.prefix, inline_or_prefix, 4), 0);
    cr_assert_eq(view.ref.buffer_index, buffer_index, "view %d", (int)i);
    cr_assert_eq(view.ref.offset, offset, "view %d", (int)i);
  }
}

Test(array_nested, string_views_inline_and_variadic) {
  struct ArrowArray array;
  static char big[NANOARROW_BINARY_VIEW_BLOCK_SIZE];
  struct ArrowStringView big_view;
  const int64_t* sizes;
  memset(big, 'q', sizeof(big));
  big_view.data = big;
  big_view.size_bytes = NANOARROW_BINARY_VIEW_BLOCK_SIZE - 13;

  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("short")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("exactly12chr")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("thirteen char")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  /* Fills the first block exactly (13 + 32755 == 32768). */
  cr_assert_eq(ArrowArrayAppendString(&array, big_view), NANOARROW_OK);
  /* Does not fit anymore: starts block 1. */
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("another long one")),
               NANOARROW_OK);
  /* Larger than a block: gets a block of its own. */
  big_view.size_bytes = NANOARROW_BINARY_VIEW_BLOCK_SIZE;
  cr_assert_eq(ArrowArrayAppendString(&array, big_view), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("tail string here")),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayVariadicBufferCount(&array), 4);
  finish_full(&array);

  cr_assert_eq(array.length, 8);
  cr_assert_eq(array.n_buffers, 2 + 4 + 1);
  expect_view(&array, 0, 5, "short", 0, 0);
  expect_view(&array, 1, 12, "exactly12chr", 0, 0);
  expect_view(&array, 2, 13, "thir", 0, 0);
  expect_view(&array, 3, 0, "", 0, 0);
  expect_view(&array, 4, NANOARROW_BINARY_VIEW_BLOCK_SIZE - 13, "qqqq", 0, 13);
  expect_view(&array, 5, 16, "anot", 1, 0);
  expect_view(&array, 6, NANOARROW_BINARY_VIEW_BLOCK_SIZE, "qqqq", 2, 0);
  expect_view(&array, 7, 16, "tail", 3, 0);
  sizes = (const int64_t*)array.buffers[6];
  cr_assert_eq(sizes[0], NANOARROW_BINARY_VIEW_BLOCK_SIZE);
  cr_assert_eq(sizes[1], 16);
  cr_assert_eq(sizes[2], NANOARROW_BINARY_VIEW_BLOCK_SIZE);
  cr_assert_eq(sizes[3], 16);
  cr_assert_eq(memcmp(array.buffers[2], "thirteen char", 13), 0);
  cr_assert_eq(memcmp(array.buffers[3], "another long one", 16), 0);
  cr_assert_eq(u8(array.buffers[0])[0], 0xF7);
  ArrowArrayRelease(&array);
}

Test(array_nested, binary_view_and_add_variadic_buffers) {
  struct ArrowArray array;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_BINARY_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayVariadicBufferCount(&array), 0);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayVariadicBufferCount(&array), 2);
  cr_assert_eq(array.n_buffers, 2 + 2 + 1);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, -1), EINVAL);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  /* The long value goes to the last (empty) variadic buffer. */
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("0123456789abcdef")),
               NANOARROW_OK);
  finish_full(&array);
  expect_view(&array, 0, 16, "0123", 1, 0);
  ArrowArrayRelease(&array);

  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, 1), EINVAL);
  cr_assert_eq(ArrowArrayVariadicBufferCount(&array), 0);
  ArrowArrayRelease(&array);
}

/* list<struct<a: list<int32>, b: string>> built three levels deep. */
Test(array_nested, three_levels_deep) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  struct ArrowSchema* item;
  struct ArrowArray* structs;
  struct ArrowArray* inner;
  int64_t row;
  int64_t j;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetType(&schema, NANOARROW_TYPE_LIST), NANOARROW_OK);
  item = schema.children[0];
  cr_assert_eq(ArrowSchemaSetTypeStruct(item, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(item->children[0], NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(item->children[0]->children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(item->children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  structs = array.children[0];
  inner = structs->children[0];

  for (row = 0; row < 4; row++) {
    if (row == 2) {
      cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
      continue;
    }
    for (j = 0; j <= row; j++) {
      int64_t k;
      for (k = 0; k < j; k++) {
        cr_assert_eq(ArrowArrayAppendInt(inner->children[0], row * 100 + j * 10 + k),
                     NANOARROW_OK);
      }
      cr_assert_eq(ArrowArrayFinishElement(inner), NANOARROW_OK);
      cr_assert_eq(ArrowArrayAppendString(structs->children[1], ArrowCharView("s")),
                   NANOARROW_OK);
      cr_assert_eq(ArrowArrayFinishElement(structs), NANOARROW_OK);
    }
    cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  }
  finish_full(&array);
  cr_assert_eq(array.length, 4);
  cr_assert_eq(array.null_count, 1);
  cr_assert_eq(structs->length, 1 + 2 + 4);
  cr_assert_eq(i32(array.buffers[1])[4], 7);
  /* row 3 element j=3 holds 330, 331, 332 at the end of the innermost child */
  cr_assert_eq(inner->children[0]->length, 0 + 1 + 0 + 1 + 2 + 3);
  cr_assert_eq(i32(inner->children[0]->buffers[1])[6], 332);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, round_trip_through_array_view) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray copy;
  struct ArrowArrayView view;
  struct ArrowArrayView copy_view;
  struct ArrowError error;
  int equal = 0;
  int i;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 4), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT64), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_STRING_VIEW),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeUnion(schema.children[2], NANOARROW_TYPE_DENSE_UNION, 0),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[2], "+ud:4"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(schema.children[2], 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (schema.children[2])->n_children; child_i++) {
    ArrowSchemaInit((schema.children[2])->children[child_i]);
  }
  ArrowSchemaInit(schema.children[2]->children[0]);
  cr_assert_eq(ArrowSchemaSetType(schema.children[2]->children[0], NANOARROW_TYPE_BOOL),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[3], NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[3]->children[0], NANOARROW_TYPE_UINT16),
               NANOARROW_OK);

  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  for (i = 0; i < 5; i++) {
    if (i == 3) {
      cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
      continue;
    }
    cr_assert_eq(ArrowArrayAppendInt(array.children[0], i * 1000), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendString(array.children[1],
                                        ArrowCharView(i % 2 ? "a rather long string value"
                                                            : "tiny")),
                 NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(array.children[2]->children[0], i % 2), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishUnionElement(array.children[2], 4), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendUInt(array.children[3]->children[0], (uint64_t)i),
                 NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(array.children[3]), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  }
  finish_full(&array);

  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayInitFromArrayView(&copy, &view, &error), NANOARROW_OK, "%s",
               error.message);
  /* The copy owns its memory: the original can go first. */
  ArrowArrayRelease(&array);

  cr_assert_eq(ArrowArrayFinishBuilding(&copy, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&copy_view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&copy_view, &copy, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowArrayViewReset(&view);

  /* Compare against a freshly built original. */
  cr_assert_eq(ArrowArrayInitFromArrayView(&array, &copy_view, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewCompare(&copy_view, &view, NANOARROW_COMPARE_IDENTICAL, &equal,
                                     &error),
               NANOARROW_OK);
  cr_assert_eq(equal, 1, "%s", error.message);
  cr_assert_eq(copy.length, 5);
  cr_assert_eq(copy.null_count, 1);
  cr_assert_eq(copy.children[1]->n_buffers, 4);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(copy_view.children[0], 4), 4000);

  ArrowArrayViewReset(&view);
  ArrowArrayViewReset(&copy_view);
  ArrowArrayRelease(&array);
  ArrowArrayRelease(&copy);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, copy_keeps_offset_and_whole_buffers) {
  struct ArrowArray array;
  struct ArrowArray copy;
  struct ArrowArrayView view;
  struct ArrowError error;
  int i;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  for (i = 0; i < 6; i++) {
    cr_assert_eq(ArrowArrayAppendInt(&array, i), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK);
  array.offset = 2;
  array.length = 5;
  array.null_count = -1;

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayInitFromArrayView(&copy, &view, &error), NANOARROW_OK);
  cr_assert_eq(copy.offset, 2);
  cr_assert_eq(copy.length, 5);
  cr_assert_eq(copy.null_count, 1);
  cr_assert_eq(i32(copy.buffers[1])[2], 2);
  cr_assert_eq(i32(copy.buffers[1])[6], 0);
  cr_assert_eq(u8(copy.buffers[0])[0] & 0x7F, 0x3F);
  cr_assert_eq(ArrowArrayFinishBuilding(&copy, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&copy);
  ArrowArrayRelease(&array);
}

Test(array_nested, release_skips_moved_children) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArray child;
  struct ArrowError error;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(array.children[0], ArrowCharView("kept")),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[1], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK);

  ArrowArrayMove(array.children[0], &child);
  cr_assert_null(array.children[0]->release);
  ArrowArrayRelease(&array);
  cr_assert_null(array.release);
  /* The moved child outlives its parent. */
  cr_assert_eq(child.length, 1);
  cr_assert_eq(memcmp(child.buffers[2], "kept", 4), 0);
  ArrowArrayRelease(&child);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, finish_building_rejects_foreign_children) {
  struct ArrowArray array;
  struct ArrowError error;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateChildren(&array, 1), NANOARROW_OK);
  /* children[0] was never initialized */
  cr_assert_eq(ArrowArrayStartAppending(&array), EINVAL);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "children[0]"), "%s", error.message);
  ArrowArrayRelease(&array);
}

Test(array_nested, init_from_schema_reports_the_failing_child) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowError error;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema.children[1], 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1]->children[0], "not a format"),
               NANOARROW_OK);
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), EINVAL);
  cr_assert_null(array.release);
  cr_assert_not_null(strstr(error.message, "children[1].children[0]"), "%s", error.message);
  ArrowSchemaRelease(&schema);
}

Test(array_nested, shrink_to_fit_recurses) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  init_from_format(&array, &schema, "+l", "i");
  /* Reserving 3 elements leaves slack that shrinking must give back. */
  cr_assert_eq(ArrowBufferReserve(ArrowArrayBuffer(array.children[0], 1), 12), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_gt(ArrowArrayBuffer(array.children[0], 1)->capacity_bytes, 4);
  cr_assert_eq(ArrowArrayShrinkToFit(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayBuffer(array.children[0], 1)->capacity_bytes, 4);
  cr_assert_eq(ArrowArrayBuffer(&array, 1)->capacity_bytes, 8);
  finish_full(&array);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}
