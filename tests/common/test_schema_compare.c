#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

/* ---- Helpers ---- */

/* Compares with IDENTICAL; asserts the call succeeded and returns *out. The reason is
 * left in *reason (when given). */
static int Compare(const struct ArrowSchema* actual, const struct ArrowSchema* expected,
                   struct ArrowError* reason) {
  struct ArrowError local;
  if (reason == NULL) {
    reason = &local;
  }
  reason->message[0] = '\0';
  int out = -1;
  cr_assert_eq(ArrowSchemaCompare(actual, expected, NANOARROW_COMPARE_IDENTICAL, &out,
                                  reason),
               NANOARROW_OK, "%s", reason->message);
  cr_assert(out == 0 || out == 1);
  return out;
}

static void AssertIdentical(const struct ArrowSchema* a, const struct ArrowSchema* b) {
  struct ArrowError reason;
  cr_assert_eq(Compare(a, b, &reason), 1, "%s", reason.message);
  cr_assert_eq(Compare(b, a, &reason), 1, "%s", reason.message);
}

/* actual differs from expected, and the reason is exactly `message`. */
static void AssertDiffer(const struct ArrowSchema* actual,
                         const struct ArrowSchema* expected, const char* message) {
  struct ArrowError reason;
  cr_assert_eq(Compare(actual, expected, &reason), 0);
  cr_assert_str_eq(reason.message, message);
  /* Symmetric as to whether they differ. */
  cr_assert_eq(Compare(expected, actual, &reason), 0);
  /* And without a reason. */
  int out = -1;
  cr_assert_eq(
      ArrowSchemaCompare(actual, expected, NANOARROW_COMPARE_IDENTICAL, &out, NULL),
      NANOARROW_OK);
  cr_assert_eq(out, 0);
}

/* The comparison fails (EINVAL) with `message_part` in the reason and *out == 0. */
static void AssertCompareInvalid(const struct ArrowSchema* actual,
                                 const struct ArrowSchema* expected,
                                 const char* message_part) {
  struct ArrowError reason;
  reason.message[0] = '\0';
  int out = -1;
  cr_assert_eq(ArrowSchemaCompare(actual, expected, NANOARROW_COMPARE_IDENTICAL, &out,
                                  &reason),
               EINVAL);
  cr_assert_eq(out, 0);
  cr_assert_not_null(strstr(reason.message, message_part), "expected '%s' in: %s",
                     message_part, reason.message);
  cr_assert_eq(ArrowSchemaCompare(actual, expected, NANOARROW_COMPARE_IDENTICAL, &out,
                                  NULL),
               EINVAL);
}

static void SetMetadata(struct ArrowSchema* schema, const char* key, const char* value) {
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  cr_assert_eq(
      ArrowMetadataBuilderAppend(&buffer, ArrowCharView(key), ArrowCharView(value)),
      NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(schema, (const char*)buffer.data), NANOARROW_OK);
  ArrowBufferReset(&buffer);
}

/* struct<ints: list<item: int32>, dict: dictionary(int16)<string> (ordered),
 *        map: map<entries: struct<key: string, value: double>> (keys sorted),
 *        uuid: arrow.uuid{fixed_size_binary(16)} (non-nullable),
 *        union: dense_union([0,1])<a: int8, b: bool>> with metadata on the root. */
static void MakeNested(struct ArrowSchema* schema) {
  cr_assert_eq(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema, "root"), NANOARROW_OK);
  SetMetadata(schema, "origin", "test");
  cr_assert_eq(ArrowSchemaAllocateChildren(schema, 5), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (schema)->n_children; child_i++) {
    ArrowSchemaInit((schema)->children[child_i]);
  }

  struct ArrowSchema* ints = schema->children[0];
  cr_assert_eq(ArrowSchemaSetType(ints, NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(ints, "ints"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(ints->children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);

  struct ArrowSchema* dict = schema->children[1];
  cr_assert_eq(ArrowSchemaSetType(dict, NANOARROW_TYPE_INT16), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(dict, "dict"), NANOARROW_OK);
  dict->flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  cr_assert_eq(ArrowSchemaAllocateDictionary(dict), NANOARROW_OK);
  ArrowSchemaInit((dict)->dictionary);
  cr_assert_eq(ArrowSchemaSetType(dict->dictionary, NANOARROW_TYPE_STRING), NANOARROW_OK);

  struct ArrowSchema* map = schema->children[2];
  cr_assert_eq(ArrowSchemaSetType(map, NANOARROW_TYPE_MAP), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(map, "map"), NANOARROW_OK);
  map->flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  cr_assert_eq(ArrowSchemaSetType(map->children[0]->children[0], NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(map->children[0]->children[1], NANOARROW_TYPE_DOUBLE),
               NANOARROW_OK);

  struct ArrowSchema* uuid = schema->children[3];
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(uuid, NANOARROW_TYPE_FIXED_SIZE_BINARY, 16),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(uuid, "uuid"), NANOARROW_OK);
  SetMetadata(uuid, "ARROW:extension:name", "arrow.uuid");
  uuid->flags = 0;

  struct ArrowSchema* dense = schema->children[4];
  cr_assert_eq(ArrowSchemaSetTypeUnion(dense, NANOARROW_TYPE_DENSE_UNION, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(dense, "union"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(dense->children[0], NANOARROW_TYPE_INT8), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(dense->children[0], "a"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(dense->children[1], NANOARROW_TYPE_BOOL), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(dense->children[1], "b"), NANOARROW_OK);
}

/* A chain of `depth` nested lists around an int32. */
static void MakeDeepList(struct ArrowSchema* schema, int depth) {
  cr_assert_eq(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_LIST), NANOARROW_OK);
  struct ArrowSchema* current = schema;
  for (int i = 1; i < depth; i++) {
    cr_assert_eq(ArrowSchemaSetType(current->children[0], NANOARROW_TYPE_LIST), NANOARROW_OK);
    current = current->children[0];
  }
  cr_assert_eq(ArrowSchemaSetType(current->children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
}

static struct ArrowSchema* DeepestChild(struct ArrowSchema* schema) {
  while (schema->n_children > 0) {
    schema = schema->children[0];
  }
  return schema;
}

static void ForeignRelease(struct ArrowSchema* schema) { schema->release = NULL; }

/* ---- Identical schemas ---- */

Test(schema_compare, identical_primitives) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&b, NANOARROW_TYPE_INT32), NANOARROW_OK);
  AssertIdentical(&a, &b);
  AssertIdentical(&a, &a);

  /* The reason is left alone when the schemas are identical. */
  struct ArrowError reason;
  snprintf(reason.message, sizeof(reason.message), "untouched");
  int out = 0;
  cr_assert_eq(ArrowSchemaCompare(&a, &b, NANOARROW_COMPARE_IDENTICAL, &out, &reason),
               NANOARROW_OK);
  cr_assert_eq(out, 1);
  cr_assert_str_eq(reason.message, "untouched");

  /* Same name and metadata in separate allocations. */
  cr_assert_eq(ArrowSchemaSetName(&a, "x"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&b, "x"), NANOARROW_OK);
  SetMetadata(&a, "k", "v");
  SetMetadata(&b, "k", "v");
  AssertIdentical(&a, &b);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, deep_copy_is_identical_to_its_source) {
  struct ArrowSchema schema;
  struct ArrowSchema copy;
  MakeNested(&schema);
  cr_assert_eq(ArrowSchemaDeepCopy(&schema, &copy), NANOARROW_OK);
  AssertIdentical(&copy, &schema);

  /* A copy of the copy, after the source is gone. */
  struct ArrowSchema copy2;
  ArrowSchemaRelease(&schema);
  cr_assert_eq(ArrowSchemaDeepCopy(&copy, &copy2), NANOARROW_OK);
  AssertIdentical(&copy, &copy2);

  /* And the copy differs once changed. */
  cr_assert_eq(ArrowSchemaSetName(copy2.children[4]->children[1], "c"), NANOARROW_OK);
  AssertDiffer(&copy2, &copy, "root.children[4].children[1]: expected name 'b' but found 'c'");
  ArrowSchemaRelease(&copy);
  ArrowSchemaRelease(&copy2);
}

Test(schema_compare, deep_copy_of_every_parameterless_type_is_identical) {
  for (int type = NANOARROW_TYPE_NA; type <= NANOARROW_TYPE_LARGE_LIST_VIEW; type++) {
    struct ArrowSchema schema;
    if (ArrowSchemaInitFromType(&schema, (enum ArrowType)type) != NANOARROW_OK) {
      continue;
    }
    struct ArrowSchema copy;
    cr_assert_eq(ArrowSchemaDeepCopy(&schema, &copy), NANOARROW_OK);
    AssertIdentical(&schema, &copy);
    ArrowSchemaRelease(&copy);
    ArrowSchemaRelease(&schema);
  }
}

Test(schema_compare, foreign_schemas_are_compared_too) {
  /* Schemas whose release callback is not ours, with static strings. */
  struct ArrowSchema built;
  cr_assert_eq(ArrowSchemaInitFromType(&built, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&built, "s"), NANOARROW_OK);

  struct ArrowSchema foreign;
  memcpy(&foreign, &built, sizeof(foreign));
  foreign.release = &ForeignRelease;
  foreign.format = "u";
  foreign.name = "s";
  AssertIdentical(&foreign, &built);
  foreign.format = "U";
  AssertDiffer(&foreign, &built, "root: expected format 'u' but found 'U'");
  ArrowSchemaRelease(&built);
}

/* ---- Each kind of difference ---- */

Test(schema_compare, format_differs) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&b, NANOARROW_TYPE_INT64), NANOARROW_OK);
  AssertDiffer(&a, &b, "root: expected format 'l' but found 'i'");

  /* Parameters are part of the format. */
  cr_assert_eq(ArrowSchemaSetTypeDateTime(&a, NANOARROW_TYPE_TIMESTAMP,
                                          NANOARROW_TIME_UNIT_MICRO, "UTC"),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeDateTime(&b, NANOARROW_TYPE_TIMESTAMP,
                                          NANOARROW_TIME_UNIT_MICRO, "Europe/Paris"),
               NANOARROW_OK);
  AssertDiffer(&a, &b, "root: expected format 'tsu:Europe/Paris' but found 'tsu:UTC'");

  /* A NULL format equals only a NULL format. */
  cr_assert_eq(ArrowSchemaSetFormat(&a, NULL), NANOARROW_OK);
  AssertDiffer(&a, &b, "root: expected format 'tsu:Europe/Paris' but found NULL");
  cr_assert_eq(ArrowSchemaSetFormat(&b, NULL), NANOARROW_OK);
  AssertIdentical(&a, &b);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, name_differs) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&b, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&a, "col"), NANOARROW_OK);
  AssertDiffer(&a, &b, "root: expected name NULL but found 'col'");
  cr_assert_eq(ArrowSchemaSetName(&b, "Col"), NANOARROW_OK);
  AssertDiffer(&a, &b, "root: expected name 'Col' but found 'col'");
  /* The empty name is a name, not the absence of one. */
  cr_assert_eq(ArrowSchemaSetName(&a, ""), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&b, NULL), NANOARROW_OK);
  AssertDiffer(&a, &b, "root: expected name NULL but found ''");
  cr_assert_eq(ArrowSchemaSetName(&b, ""), NANOARROW_OK);
  AssertIdentical(&a, &b);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, metadata_differs) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&b, NANOARROW_TYPE_INT32), NANOARROW_OK);

  /* Present vs absent. 4 (count) + 4 + 3 ("key") + 4 + 5 ("value") = 20 bytes. */
  SetMetadata(&a, "key", "value");
  AssertDiffer(&a, &b, "root: expected no metadata but found 20 bytes");
  AssertDiffer(&b, &a, "root: expected 20 bytes of metadata but found none");

  /* Same size, different bytes. */
  SetMetadata(&b, "key", "valuE");
  AssertDiffer(&a, &b, "root: expected 20 bytes of metadata but found 20 different bytes");

  /* Different sizes. */
  SetMetadata(&b, "key", "value2");
  AssertDiffer(&a, &b, "root: expected 21 bytes of metadata but found 20 bytes");

  /* NULL and a blob with zero keys differ (the bytes are compared). */
  const char empty_blob[4] = {0, 0, 0, 0};
  cr_assert_eq(ArrowSchemaSetMetadata(&a, empty_blob), NANOARROW_OK);
  cr_assert_not_null(a.metadata);
  cr_assert_eq(ArrowSchemaSetMetadata(&b, NULL), NANOARROW_OK);
  AssertDiffer(&a, &b, "root: expected no metadata but found 4 bytes");
  cr_assert_eq(ArrowSchemaSetMetadata(&b, empty_blob), NANOARROW_OK);
  AssertIdentical(&a, &b);

  /* The same pairs in another order are different bytes. */
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, ArrowCharView("x"), ArrowCharView("1")),
               NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, ArrowCharView("y"), ArrowCharView("2")),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(&a, (const char*)buffer.data), NANOARROW_OK);
  ArrowBufferReset(&buffer);
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, ArrowCharView("y"), ArrowCharView("2")),
               NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&buffer, ArrowCharView("x"), ArrowCharView("1")),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(&b, (const char*)buffer.data), NANOARROW_OK);
  ArrowBufferReset(&buffer);
  AssertDiffer(&a, &b, "root: expected 24 bytes of metadata but found 24 different bytes");
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, flags_differ) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&b, NANOARROW_TYPE_INT32), NANOARROW_OK);
  a.flags = 0;
  AssertDiffer(&a, &b, "root: expected flags 0x2 (NULLABLE) but found 0x0 (none)");
  a.flags = ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED;
  AssertDiffer(&a, &b,
               "root: expected flags 0x2 (NULLABLE) but found 0x3 "
               "(DICTIONARY_ORDERED|NULLABLE)");
  a.flags = ARROW_FLAG_NULLABLE | ARROW_FLAG_MAP_KEYS_SORTED | 64;
  AssertDiffer(&a, &b,
               "root: expected flags 0x2 (NULLABLE) but found 0x46 "
               "(NULLABLE|MAP_KEYS_SORTED|unknown)");
  a.flags = ARROW_FLAG_NULLABLE;
  AssertIdentical(&a, &b);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, child_count_differs) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&b, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&a, 3), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&a)->n_children; child_i++) {
    ArrowSchemaInit((&a)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaAllocateChildren(&b, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&b)->n_children; child_i++) {
    ArrowSchemaInit((&b)->children[child_i]);
  }
  AssertDiffer(&a, &b, "root: expected 2 children but found 3");
  AssertDiffer(&b, &a, "root: expected 3 children but found 2");
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, child_differs) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  MakeNested(&a);
  MakeNested(&b);
  AssertIdentical(&a, &b);

  /* The first differing child is reported, by position. */
  cr_assert_eq(ArrowSchemaSetType(b.children[0]->children[0], NANOARROW_TYPE_INT64),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(b.children[3], "other"), NANOARROW_OK);
  AssertDiffer(&a, &b, "root.children[0].children[0]: expected format 'l' but found 'i'");
  cr_assert_eq(ArrowSchemaSetType(b.children[0]->children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  AssertDiffer(&a, &b, "root.children[3]: expected name 'other' but found 'uuid'");
  cr_assert_eq(ArrowSchemaSetName(b.children[3], "uuid"), NANOARROW_OK);
  AssertIdentical(&a, &b);

  /* Deep inside the map: the key's flags. */
  b.children[2]->children[0]->children[0]->flags = ARROW_FLAG_NULLABLE;
  AssertDiffer(&a, &b,
               "root.children[2].children[0].children[0]: expected flags 0x2 (NULLABLE) "
               "but found 0x0 (none)");
  b.children[2]->children[0]->children[0]->flags = 0;

  /* The entries' name. */
  cr_assert_eq(ArrowSchemaSetName(b.children[2]->children[0], "items"), NANOARROW_OK);
  AssertDiffer(&a, &b,
               "root.children[2].children[0]: expected name 'items' but found 'entries'");
  cr_assert_eq(ArrowSchemaSetName(b.children[2]->children[0], "entries"), NANOARROW_OK);

  /* Metadata of a child. */
  SetMetadata(b.children[3], "ARROW:extension:name", "arrow.uuid2");
  AssertDiffer(&a, &b, "root.children[3]: expected 43 bytes of metadata but found 42 bytes");
  SetMetadata(b.children[3], "ARROW:extension:name", "arrow.uuid");

  /* Order of children matters. */
  struct ArrowSchema* first = b.children[4]->children[0];
  b.children[4]->children[0] = b.children[4]->children[1];
  b.children[4]->children[1] = first;
  AssertDiffer(&a, &b, "root.children[4].children[0]: expected format 'b' but found 'c'");
  b.children[4]->children[1] = b.children[4]->children[0];
  b.children[4]->children[0] = first;
  AssertIdentical(&a, &b);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, dictionary_differs) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  MakeNested(&a);
  MakeNested(&b);

  /* Dictionary contents. */
  cr_assert_eq(ArrowSchemaSetType(b.children[1]->dictionary, NANOARROW_TYPE_LARGE_STRING),
               NANOARROW_OK);
  AssertDiffer(&a, &b, "root.children[1].dictionary: expected format 'U' but found 'u'");
  cr_assert_eq(ArrowSchemaSetType(b.children[1]->dictionary, NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  AssertIdentical(&a, &b);

  /* The index type is the node's own format. */
  cr_assert_eq(ArrowSchemaSetType(b.children[1], NANOARROW_TYPE_INT8), NANOARROW_OK);
  AssertDiffer(&a, &b, "root.children[1]: expected format 'c' but found 's'");
  cr_assert_eq(ArrowSchemaSetType(b.children[1], NANOARROW_TYPE_INT16), NANOARROW_OK);

  /* Presence: moved out (the struct stays, released) is not "absent", so remove it. */
  struct ArrowSchema* dictionary = b.children[1]->dictionary;
  b.children[1]->dictionary = NULL;
  AssertDiffer(&a, &b, "root.children[1]: expected no dictionary but found one");
  AssertDiffer(&b, &a, "root.children[1]: expected a dictionary but found none");
  b.children[1]->dictionary = dictionary;
  AssertIdentical(&a, &b);

  /* A dictionary nested in a dictionary's child. */
  struct ArrowSchema c;
  struct ArrowSchema d;
  for (int k = 0; k < 2; k++) {
    struct ArrowSchema* s = k == 0 ? &c : &d;
    cr_assert_eq(ArrowSchemaInitFromType(s, NANOARROW_TYPE_INT32), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaAllocateDictionary(s), NANOARROW_OK);
    ArrowSchemaInit((s)->dictionary);
    cr_assert_eq(ArrowSchemaSetType(s->dictionary, NANOARROW_TYPE_LIST), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetType(s->dictionary->children[0], NANOARROW_TYPE_INT8),
                 NANOARROW_OK);
    cr_assert_eq(ArrowSchemaAllocateDictionary(s->dictionary->children[0]), NANOARROW_OK);
    ArrowSchemaInit((s->dictionary->children[0])->dictionary);
    cr_assert_eq(ArrowSchemaSetType(s->dictionary->children[0]->dictionary,
                                    k == 0 ? NANOARROW_TYPE_STRING : NANOARROW_TYPE_BINARY),
                 NANOARROW_OK);
  }
  AssertDiffer(&c, &d,
               "root.dictionary.children[0].dictionary: expected format 'z' but found 'u'");
  ArrowSchemaRelease(&c);
  ArrowSchemaRelease(&d);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, children_are_compared_before_the_dictionary) {
  /* Both differ: the children come first (the documented order). */
  struct ArrowSchema a;
  struct ArrowSchema b;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&b, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&a, 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&a)->n_children; child_i++) {
    ArrowSchemaInit((&a)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaAllocateChildren(&b, 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&b)->n_children; child_i++) {
    ArrowSchemaInit((&b)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetType(a.children[0], NANOARROW_TYPE_INT8), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(b.children[0], NANOARROW_TYPE_UINT8), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&a), NANOARROW_OK);
  ArrowSchemaInit((&a)->dictionary);
  AssertDiffer(&a, &b, "root.children[0]: expected format 'C' but found 'c'");
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, deep_paths) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  MakeDeepList(&a, NANOARROW_MAX_NESTING_DEPTH);
  MakeDeepList(&b, NANOARROW_MAX_NESTING_DEPTH);
  AssertIdentical(&a, &b);

  cr_assert_eq(ArrowSchemaSetType(DeepestChild(&b), NANOARROW_TYPE_INT64), NANOARROW_OK);
  char expected[2048];
  int used = snprintf(expected, sizeof(expected), "root");
  for (int i = 0; i < NANOARROW_MAX_NESTING_DEPTH; i++) {
    used += snprintf(expected + used, sizeof(expected) - (size_t)used, ".children[0]");
  }
  snprintf(expected + used, sizeof(expected) - (size_t)used,
           ": expected format 'l' but found 'i'");
  AssertDiffer(&a, &b, expected);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

/* ---- The EQUAL and TYPE_EQUAL levels ---- */

static int CompareAt(const struct ArrowSchema* actual, const struct ArrowSchema* expected,
                     enum ArrowCompareLevel level) {
  struct ArrowError reason;
  int out = -1;
  reason.message[0] = '\0';
  cr_assert_eq(ArrowSchemaCompare(actual, expected, level, &out, &reason), NANOARROW_OK,
               "%s", reason.message);
  return out;
}

/* Metadata holding zero keys ("\0\0\0\0") is no metadata at EQUAL and TYPE_EQUAL,
 * but not at IDENTICAL; other metadata differences count at EQUAL. */
Test(schema_compare, equal_level_takes_empty_metadata_for_none) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&b, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(&b, "\0\0\0\0"), NANOARROW_OK);
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_IDENTICAL), 0);
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_EQUAL), 1);
  cr_assert_eq(CompareAt(&b, &a, NANOARROW_COMPARE_EQUAL), 1);
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_TYPE_EQUAL), 1);

  struct ArrowBuffer metadata;
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("k"), ArrowCharView("v")),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(&b, (const char*)metadata.data), NANOARROW_OK);
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_EQUAL), 0);
  /* Below the root, TYPE_EQUAL compares metadata as EQUAL does. */
  struct ArrowSchema s1;
  struct ArrowSchema s2;
  ArrowSchemaInit(&s1);
  ArrowSchemaInit(&s2);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&s1, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&s2, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(s1.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(s2.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(s2.children[0], (const char*)metadata.data),
               NANOARROW_OK);
  cr_assert_eq(CompareAt(&s1, &s2, NANOARROW_COMPARE_TYPE_EQUAL), 0);
  ArrowBufferReset(&metadata);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
  ArrowSchemaRelease(&s1);
  ArrowSchemaRelease(&s2);
}

/* TYPE_EQUAL leaves out the root's name and metadata (the field, not its type);
 * children's names still count, and so does everything else at the root. */
Test(schema_compare, type_equal_level_ignores_the_root_name_and_metadata) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  ArrowSchemaInit(&a);
  ArrowSchemaInit(&b);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&a, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&b, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(a.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(b.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&a, "field_a"), NANOARROW_OK);

  struct ArrowBuffer metadata;
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("k"), ArrowCharView("v")),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(&b, (const char*)metadata.data), NANOARROW_OK);
  ArrowBufferReset(&metadata);

  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_IDENTICAL), 0);
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_EQUAL), 0);
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_TYPE_EQUAL), 1);
  cr_assert_eq(CompareAt(&b, &a, NANOARROW_COMPARE_TYPE_EQUAL), 1);

  cr_assert_eq(ArrowSchemaSetName(b.children[0], "col"), NANOARROW_OK);
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_TYPE_EQUAL), 0);
  cr_assert_eq(ArrowSchemaSetName(b.children[0], NULL), NANOARROW_OK);
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_TYPE_EQUAL), 1);

  b.flags = 0;
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_TYPE_EQUAL), 0);
  b.flags = a.flags;
  cr_assert_eq(ArrowSchemaSetFormat(b.children[0], "l"), NANOARROW_OK);
  cr_assert_eq(CompareAt(&a, &b, NANOARROW_COMPARE_TYPE_EQUAL), 0);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

/* ---- Invalid arguments ---- */

Test(schema_compare, null_out_and_unknown_level) {
  struct ArrowSchema a;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_INT32), NANOARROW_OK);
  struct ArrowError reason;
  reason.message[0] = '\0';
  cr_assert_eq(ArrowSchemaCompare(&a, &a, NANOARROW_COMPARE_IDENTICAL, NULL, &reason),
               EINVAL);
  cr_assert_str_eq(reason.message, "Expected non-NULL out");

  int out = -1;
  cr_assert_eq(
      ArrowSchemaCompare(&a, &a, (enum ArrowCompareLevel)(NANOARROW_COMPARE_TYPE_EQUAL + 1),
                         &out, &reason),
      EINVAL);
  cr_assert_eq(out, 0);
  cr_assert_str_eq(reason.message, "Unknown comparison level 3");
  cr_assert_eq(ArrowSchemaCompare(&a, &a, (enum ArrowCompareLevel)-1, &out, NULL), EINVAL);
  ArrowSchemaRelease(&a);
}

Test(schema_compare, null_and_released_schemas) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  cr_assert_eq(ArrowSchemaInitFromType(&a, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&b, NANOARROW_TYPE_INT32), NANOARROW_OK);

  AssertCompareInvalid(NULL, &b, "root: actual schema is NULL");
  AssertCompareInvalid(&a, NULL, "root: expected schema is NULL");
  AssertCompareInvalid(NULL, NULL, "root: actual schema is NULL");

  ArrowSchemaRelease(&b);
  AssertCompareInvalid(&a, &b, "root: expected schema is released");
  AssertCompareInvalid(&b, &a, "root: actual schema is released");
  AssertCompareInvalid(&b, &b, "root: actual schema is released");
  ArrowSchemaRelease(&a);
}

Test(schema_compare, released_or_null_nodes_inside_the_tree) {
  struct ArrowSchema a;
  struct ArrowSchema b;
  MakeNested(&a);
  MakeNested(&b);

  /* A child moved out. */
  struct ArrowSchema moved;
  ArrowSchemaMove(b.children[2]->children[0]->children[1], &moved);
  AssertCompareInvalid(&a, &b,
                       "root.children[2].children[0].children[1]: expected schema is "
                       "released");
  AssertCompareInvalid(&b, &a,
                       "root.children[2].children[0].children[1]: actual schema is "
                       "released");
  ArrowSchemaMove(&moved, b.children[2]->children[0]->children[1]);
  AssertIdentical(&a, &b);

  /* A dictionary moved out. */
  ArrowSchemaMove(a.children[1]->dictionary, &moved);
  AssertCompareInvalid(&a, &b, "root.children[1].dictionary: actual schema is released");
  ArrowSchemaMove(&moved, a.children[1]->dictionary);

  /* A NULL child pointer. */
  struct ArrowSchema* saved = a.children[4]->children[1];
  a.children[4]->children[1] = NULL;
  AssertCompareInvalid(&a, &b, "root.children[4].children[1]: actual schema is NULL");
  a.children[4]->children[1] = saved;

  /* A NULL children array or a negative count. */
  struct ArrowSchema** saved_children = b.children[0]->children;
  b.children[0]->children = NULL;
  AssertCompareInvalid(&a, &b,
                       "root.children[0]: expected schema has n_children 1 and a NULL "
                       "children array");
  b.children[0]->children = saved_children;
  b.n_children = -5;
  AssertCompareInvalid(&a, &b, "root: expected schema has n_children -5");
  b.n_children = 5;
  AssertIdentical(&a, &b);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}

Test(schema_compare, malformed_metadata_is_invalid) {
  char blob[8];
  int32_t values[] = {1, -7};
  memcpy(blob, &values[0], 4);
  memcpy(blob + 4, &values[1], 4);

  struct ArrowSchema built;
  cr_assert_eq(ArrowSchemaInitFromType(&built, NANOARROW_TYPE_INT32), NANOARROW_OK);
  struct ArrowSchema foreign;
  memcpy(&foreign, &built, sizeof(foreign));
  foreign.release = &ForeignRelease;
  foreign.metadata = blob;
  AssertCompareInvalid(&foreign, &built, "root: actual schema has malformed metadata");
  AssertCompareInvalid(&built, &foreign, "root: expected schema has malformed metadata");
  ArrowSchemaRelease(&built);
}

Test(schema_compare, depth_is_bounded) {
  /* What ArrowSchemaDeepCopy accepts compares; one level more is refused. */
  struct ArrowSchema a;
  struct ArrowSchema b;
  MakeDeepList(&a, NANOARROW_MAX_NESTING_DEPTH);
  MakeDeepList(&b, NANOARROW_MAX_NESTING_DEPTH);
  AssertIdentical(&a, &b);
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);

  MakeDeepList(&a, NANOARROW_MAX_NESTING_DEPTH + 1);
  MakeDeepList(&b, NANOARROW_MAX_NESTING_DEPTH + 1);
  AssertCompareInvalid(&a, &b, "nested more than 64 levels deep");
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);

  /* A cycle (hostile producer) is caught by the same limit. */
  MakeDeepList(&a, 1);
  MakeDeepList(&b, 1);
  struct ArrowSchema* a_child = a.children[0];
  struct ArrowSchema* b_child = b.children[0];
  a.children[0] = &a;
  b.children[0] = &b;
  AssertCompareInvalid(&a, &b, "nested more than 64 levels deep");
  a.children[0] = a_child;
  b.children[0] = b_child;
  ArrowSchemaRelease(&a);
  ArrowSchemaRelease(&b);
}
