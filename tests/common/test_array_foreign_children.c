/* Children and dictionaries that were not made by ArrowArrayInit*(): arrays moved in
 * from elsewhere with their own release callback. Building the parent (starting,
 * reserving, finishing at every validation level) leaves them as they are and reads
 * only their public ArrowArray fields; releasing the parent releases them once.
 * Their private_data is a small block of their own, so that reading it as this
 * library's private data shows under ASan. */

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

static const enum ArrowValidationLevel kLevels[] = {
    NANOARROW_VALIDATION_LEVEL_NONE, NANOARROW_VALIDATION_LEVEL_MINIMAL,
    NANOARROW_VALIDATION_LEVEL_DEFAULT, NANOARROW_VALIDATION_LEVEL_FULL};

/* What a foreign producer keeps: its buffers and a release count. */
struct ForeignPrivate {
  const void* buffers[3];
  struct ArrowArray* children[2];
  int* n_released;
};

static void ForeignRelease(struct ArrowArray* array) {
  struct ForeignPrivate* private_data = (struct ForeignPrivate*)array->private_data;
  int64_t i;
  for (i = 0; i < array->n_children; i++) {
    if (array->children[i]->release != NULL) {
      array->children[i]->release(array->children[i]);
    }
    free(array->children[i]);
  }
  (*private_data->n_released)++;
  free(private_data);
  array->release = NULL;
}

static const int32_t kInt32s[] = {10, 20, 30, 40};
static const int32_t kOffsets[] = {0, 3, 6};
static const char kChars[] = "abcdef";

/* A foreign array of the given type over static data: int32 (kInt32s), string
 * (2 elements "abc", "def"), or a struct of one int32 child. */
static void make_foreign(struct ArrowArray* out, enum ArrowType type, int64_t length,
                         int* n_released) {
  struct ForeignPrivate* private_data =
      (struct ForeignPrivate*)calloc(1, sizeof(struct ForeignPrivate));
  cr_assert_not_null(private_data);
  private_data->n_released = n_released;
  memset(out, 0, sizeof(*out));
  out->length = length;
  out->buffers = private_data->buffers;
  out->private_data = private_data;
  out->release = &ForeignRelease;
  switch (type) {
    case NANOARROW_TYPE_INT32:
      out->n_buffers = 2;
      private_data->buffers[1] = kInt32s;
      break;
    case NANOARROW_TYPE_STRING:
      out->n_buffers = 3;
      private_data->buffers[1] = kOffsets;
      private_data->buffers[2] = kChars;
      break;
    case NANOARROW_TYPE_STRUCT:
      out->n_buffers = 1;
      out->n_children = 2;
      out->children = private_data->children;
      private_data->children[0] = (struct ArrowArray*)malloc(sizeof(struct ArrowArray));
      private_data->children[1] = (struct ArrowArray*)malloc(sizeof(struct ArrowArray));
      make_foreign(private_data->children[0], NANOARROW_TYPE_INT32, length, n_released);
      make_foreign(private_data->children[1], NANOARROW_TYPE_INT32, length, n_released);
      break;
    default:
      cr_assert_fail("unsupported foreign type");
  }
}

/* Moves src into the slot dst (an ArrowArray allocated by the parent). */
static void move_into(struct ArrowArray* dst, struct ArrowArray* src) {
  if (dst->release != NULL) {
    dst->release(dst);
  }
  memcpy(dst, src, sizeof(*dst));
  src->release = NULL;
}

static void assert_untouched(const struct ArrowArray* child, const struct ArrowArray* saved) {
  cr_assert_eq(memcmp(child, saved, sizeof(*child)), 0, "the foreign array was changed");
}

Test(array_foreign_children, struct_child_at_every_level) {
  size_t level;
  for (level = 0; level < sizeof(kLevels) / sizeof(kLevels[0]); level++) {
    struct ArrowArray parent;
    struct ArrowArray foreign;
    struct ArrowArray saved;
    struct ArrowError error;
    int n_released = 0;
    error.message[0] = '\0';
    cr_assert_eq(ArrowArrayInitFromType(&parent, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAllocateChildren(&parent, 2), NANOARROW_OK);
    cr_assert_eq(ArrowArrayInitFromType(parent.children[0], NANOARROW_TYPE_INT64),
                 NANOARROW_OK);
    make_foreign(&foreign, NANOARROW_TYPE_INT32, 4, &n_released);
    move_into(parent.children[1], &foreign);
    memcpy(&saved, parent.children[1], sizeof(saved));

    cr_assert_eq(ArrowArrayStartAppending(&parent), NANOARROW_OK);
    cr_assert_eq(ArrowArrayReserve(&parent, 100), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(parent.children[0], 1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(parent.children[0], 2), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(parent.children[0], 3), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(parent.children[0], 4), NANOARROW_OK);
    parent.length = 4;

    cr_assert_eq(ArrowArrayFinishBuilding(&parent, kLevels[level], &error), NANOARROW_OK,
                 "level %d: %s", (int)kLevels[level], error.message);
    assert_untouched(parent.children[1], &saved);
    cr_assert_eq(parent.children[0]->length, 4);
    cr_assert_eq(n_released, 0);
    ArrowArrayRelease(&parent);
    cr_assert_eq(n_released, 1);
  }
}

Test(array_foreign_children, dictionary_at_every_level) {
  size_t level;
  for (level = 0; level < sizeof(kLevels) / sizeof(kLevels[0]); level++) {
    struct ArrowArray indices;
    struct ArrowArray foreign;
    struct ArrowArray saved;
    struct ArrowError error;
    int n_released = 0;
    error.message[0] = '\0';
    cr_assert_eq(ArrowArrayInitFromType(&indices, NANOARROW_TYPE_INT32), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAllocateDictionary(&indices), NANOARROW_OK);
    make_foreign(&foreign, NANOARROW_TYPE_STRING, 2, &n_released);
    move_into(indices.dictionary, &foreign);
    memcpy(&saved, indices.dictionary, sizeof(saved));

    cr_assert_eq(ArrowArrayStartAppending(&indices), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(&indices, 0), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendInt(&indices, 1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendNull(&indices, 1), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishBuilding(&indices, kLevels[level], &error), NANOARROW_OK,
                 "level %d: %s", (int)kLevels[level], error.message);
    assert_untouched(indices.dictionary, &saved);
    ArrowArrayRelease(&indices);
    cr_assert_eq(n_released, 1);
  }
}

Test(array_foreign_children, indices_are_still_checked_against_the_dictionary) {
  struct ArrowArray indices;
  struct ArrowArray foreign;
  struct ArrowError error;
  int n_released = 0;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&indices, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateDictionary(&indices), NANOARROW_OK);
  make_foreign(&foreign, NANOARROW_TYPE_STRING, 2, &n_released);
  move_into(indices.dictionary, &foreign);
  cr_assert_eq(ArrowArrayStartAppending(&indices), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&indices, 5), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuilding(&indices, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  cr_assert_neq(error.message[0], '\0');
  cr_assert_eq(ArrowArrayFinishBuilding(&indices, NANOARROW_VALIDATION_LEVEL_DEFAULT, &error),
               NANOARROW_OK, "%s", error.message);
  ArrowArrayRelease(&indices);
  cr_assert_eq(n_released, 1);
}

Test(array_foreign_children, short_struct_child_is_reported) {
  struct ArrowArray parent;
  struct ArrowArray foreign;
  struct ArrowError error;
  int n_released = 0;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&parent, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateChildren(&parent, 1), NANOARROW_OK);
  make_foreign(&foreign, NANOARROW_TYPE_INT32, 2, &n_released);
  move_into(parent.children[0], &foreign);
  parent.length = 3;
  cr_assert_eq(ArrowArrayFinishBuilding(&parent, NANOARROW_VALIDATION_LEVEL_MINIMAL, &error),
               EINVAL);
  cr_assert(strstr(error.message, "length") != NULL, "%s", error.message);
  cr_assert_eq(ArrowArrayFinishBuilding(&parent, NANOARROW_VALIDATION_LEVEL_NONE, &error),
               NANOARROW_OK, "%s", error.message);
  ArrowArrayRelease(&parent);
  cr_assert_eq(n_released, 1);
}

Test(array_foreign_children, list_of_foreign_values) {
  struct ArrowArray list;
  struct ArrowArray foreign;
  struct ArrowArrayView view;
  struct ArrowError error;
  int n_released = 0;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&list, NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateChildren(&list, 1), NANOARROW_OK);
  make_foreign(&foreign, NANOARROW_TYPE_INT32, 4, &n_released);
  move_into(list.children[0], &foreign);
  cr_assert_eq(ArrowArrayStartAppending(&list), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&list), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuilding(&list, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(list.length, 1);
  cr_assert_eq(((const int32_t*)list.buffers[1])[1], 4);

  /* Read back through a view made from a schema. */
  {
    struct ArrowSchema schema;
    cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_LIST), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
    cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &list, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0], 3), 40);
    ArrowArrayViewReset(&view);
    ArrowSchemaRelease(&schema);
  }
  ArrowArrayRelease(&list);
  cr_assert_eq(n_released, 1);
}

Test(array_foreign_children, map_of_a_foreign_struct) {
  size_t level;
  for (level = 0; level < sizeof(kLevels) / sizeof(kLevels[0]); level++) {
    struct ArrowArray map;
    struct ArrowArray foreign;
    struct ArrowError error;
    int n_released = 0;
    error.message[0] = '\0';
    cr_assert_eq(ArrowArrayInitFromType(&map, NANOARROW_TYPE_MAP), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAllocateChildren(&map, 1), NANOARROW_OK);
    make_foreign(&foreign, NANOARROW_TYPE_STRUCT, 4, &n_released);
    move_into(map.children[0], &foreign);
    cr_assert_eq(ArrowArrayStartAppending(&map), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishElement(&map), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishBuilding(&map, kLevels[level], &error), NANOARROW_OK,
                 "level %d: %s", (int)kLevels[level], error.message);
    ArrowArrayRelease(&map);
    cr_assert_eq(n_released, 3);
  }
}

Test(array_foreign_children, released_child_is_refused) {
  struct ArrowArray parent;
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&parent, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateChildren(&parent, 1), NANOARROW_OK);
  /* children[0] was allocated but never initialized (release is NULL). */
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&parent, &error), EINVAL);
  cr_assert(strstr(error.message, "children[0]") != NULL, "%s", error.message);
  ArrowArrayRelease(&parent);
}

/* The appenders cannot append to a foreign child: appending an element that reaches
 * one is EINVAL (nothing is written into the foreign array), and shrinking leaves it
 * alone. */
Test(array_foreign_children, appends_that_reach_a_foreign_child_are_refused) {
  enum ArrowType types[] = {NANOARROW_TYPE_STRUCT, NANOARROW_TYPE_FIXED_SIZE_LIST,
                            NANOARROW_TYPE_SPARSE_UNION, NANOARROW_TYPE_DENSE_UNION};
  size_t t;
  for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
    struct ArrowSchema schema;
    struct ArrowArray parent;
    struct ArrowArray foreign;
    struct ArrowArray saved;
    struct ArrowError error;
    int n_released = 0;
    error.message[0] = '\0';
    switch (types[t]) {
      case NANOARROW_TYPE_FIXED_SIZE_LIST:
        ArrowSchemaInit(&schema);
        cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, types[t], 2), NANOARROW_OK);
        cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32),
                     NANOARROW_OK);
        break;
      case NANOARROW_TYPE_SPARSE_UNION:
      case NANOARROW_TYPE_DENSE_UNION:
        ArrowSchemaInit(&schema);
        cr_assert_eq(ArrowSchemaSetTypeUnion(&schema, types[t], 1), NANOARROW_OK);
        cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32),
                     NANOARROW_OK);
        break;
      default:
        cr_assert_eq(ArrowSchemaInitFromType(&schema, types[t]), NANOARROW_OK);
        cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
        cr_assert_eq(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT32),
                     NANOARROW_OK);
        break;
    }
    cr_assert_eq(ArrowArrayInitFromSchema(&parent, &schema, &error), NANOARROW_OK, "%s",
                 error.message);
    make_foreign(&foreign, NANOARROW_TYPE_INT32, 4, &n_released);
    move_into(parent.children[0], &foreign);
    memcpy(&saved, parent.children[0], sizeof(saved));
    cr_assert_eq(ArrowArrayStartAppending(&parent), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAppendNull(&parent, 1), EINVAL, "%s", ArrowTypeString(types[t]));
    cr_assert_eq(ArrowArrayAppendEmpty(&parent, 3), EINVAL, "%s", ArrowTypeString(types[t]));
    cr_assert_eq(ArrowArrayShrinkToFit(&parent), NANOARROW_OK);
    assert_untouched(parent.children[0], &saved);
    ArrowArrayRelease(&parent);
    ArrowSchemaRelease(&schema);
    cr_assert_eq(n_released, 1);
  }
}

Test(array_foreign_children, appending_a_view_to_a_foreign_child_is_refused) {
  struct ArrowSchema schema;
  struct ArrowArray source;
  struct ArrowArray parent;
  struct ArrowArray foreign;
  struct ArrowArrayView view;
  struct ArrowError error;
  int n_released = 0;
  error.message[0] = '\0';
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(&source, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&source), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(source.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&source), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&source, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &source, &error), NANOARROW_OK);

  cr_assert_eq(ArrowArrayInitFromSchema(&parent, &schema, &error), NANOARROW_OK);
  make_foreign(&foreign, NANOARROW_TYPE_INT32, 4, &n_released);
  move_into(parent.children[0], &foreign);
  cr_assert_eq(ArrowArrayAppendArrayView(&parent, &view, &error), EINVAL);
  cr_assert(strstr(error.message, "ArrowArrayInit") != NULL, "%s", error.message);

  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&parent);
  ArrowArrayRelease(&source);
  ArrowSchemaRelease(&schema);
  cr_assert_eq(n_released, 1);
}
