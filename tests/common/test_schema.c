#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

static void AssertToString(const struct ArrowSchema* schema, const char* expected) {
  char out[1024];
  int64_t needed = ArrowSchemaToString(schema, out, sizeof(out), 1);
  cr_assert_str_eq(out, expected);
  cr_assert_eq(needed, (int64_t)strlen(expected));
}

static void AssertToStringShallow(const struct ArrowSchema* schema, const char* expected) {
  char out[1024];
  int64_t needed = ArrowSchemaToString(schema, out, sizeof(out), 0);
  cr_assert_str_eq(out, expected);
  cr_assert_eq(needed, (int64_t)strlen(expected));
}

/* ---- Init / SetType ---- */

Test(schema, init_defaults) {
  struct ArrowSchema schema;
  memset(&schema, 0xff, sizeof(schema));
  ArrowSchemaInit(&schema);
  cr_assert_null(schema.format);
  cr_assert_null(schema.name);
  cr_assert_null(schema.metadata);
  cr_assert_eq(schema.flags, ARROW_FLAG_NULLABLE);
  cr_assert_eq(schema.n_children, 0);
  cr_assert_null(schema.children);
  cr_assert_null(schema.dictionary);
  cr_assert_not_null(schema.release);
  ArrowSchemaRelease(&schema);
  cr_assert_null(schema.release);
}

struct TypeFormat {
  enum ArrowType type;
  const char* format;
};

static const struct TypeFormat kParameterlessTypes[] = {
    {NANOARROW_TYPE_NA, "n"},
    {NANOARROW_TYPE_BOOL, "b"},
    {NANOARROW_TYPE_INT8, "c"},
    {NANOARROW_TYPE_UINT8, "C"},
    {NANOARROW_TYPE_INT16, "s"},
    {NANOARROW_TYPE_UINT16, "S"},
    {NANOARROW_TYPE_INT32, "i"},
    {NANOARROW_TYPE_UINT32, "I"},
    {NANOARROW_TYPE_INT64, "l"},
    {NANOARROW_TYPE_UINT64, "L"},
    {NANOARROW_TYPE_HALF_FLOAT, "e"},
    {NANOARROW_TYPE_FLOAT, "f"},
    {NANOARROW_TYPE_DOUBLE, "g"},
    {NANOARROW_TYPE_STRING, "u"},
    {NANOARROW_TYPE_LARGE_STRING, "U"},
    {NANOARROW_TYPE_STRING_VIEW, "vu"},
    {NANOARROW_TYPE_BINARY, "z"},
    {NANOARROW_TYPE_LARGE_BINARY, "Z"},
    {NANOARROW_TYPE_BINARY_VIEW, "vz"},
    {NANOARROW_TYPE_DATE32, "tdD"},
    {NANOARROW_TYPE_DATE64, "tdm"},
    {NANOARROW_TYPE_INTERVAL_MONTHS, "tiM"},
    {NANOARROW_TYPE_INTERVAL_DAY_TIME, "tiD"},
    {NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO, "tin"},
    {NANOARROW_TYPE_STRUCT, "+s"},
};

Test(schema, set_type_parameterless) {
  for (size_t i = 0; i < sizeof(kParameterlessTypes) / sizeof(kParameterlessTypes[0]); i++) {
    struct ArrowSchema schema;
    cr_assert_eq(ArrowSchemaInitFromType(&schema, kParameterlessTypes[i].type), NANOARROW_OK);
    cr_assert_str_eq(schema.format, kParameterlessTypes[i].format);
    cr_assert_eq(schema.n_children, 0);
    cr_assert_eq(schema.flags, ARROW_FLAG_NULLABLE);
    ArrowSchemaRelease(&schema);
  }
}

Test(schema, set_type_lists_have_item_child) {
  const struct TypeFormat lists[] = {{NANOARROW_TYPE_LIST, "+l"},
                                     {NANOARROW_TYPE_LARGE_LIST, "+L"},
                                     {NANOARROW_TYPE_LIST_VIEW, "+vl"},
                                     {NANOARROW_TYPE_LARGE_LIST_VIEW, "+vL"}};
  for (size_t i = 0; i < 4; i++) {
    struct ArrowSchema schema;
    cr_assert_eq(ArrowSchemaInitFromType(&schema, lists[i].type), NANOARROW_OK);
    cr_assert_str_eq(schema.format, lists[i].format);
    cr_assert_eq(schema.n_children, 1);
    cr_assert_str_eq(schema.children[0]->name, "item");
    cr_assert_null(schema.children[0]->format);
    cr_assert_eq(schema.children[0]->flags, ARROW_FLAG_NULLABLE);
    ArrowSchemaRelease(&schema);
  }
}

Test(schema, set_type_map_structure) {
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_MAP), NANOARROW_OK);
  cr_assert_str_eq(schema.format, "+m");
  cr_assert_eq(schema.n_children, 1);
  struct ArrowSchema* entries = schema.children[0];
  cr_assert_str_eq(entries->format, "+s");
  cr_assert_str_eq(entries->name, "entries");
  cr_assert_eq(entries->flags & ARROW_FLAG_NULLABLE, 0);
  cr_assert_eq(entries->n_children, 2);
  cr_assert_str_eq(entries->children[0]->name, "key");
  cr_assert_eq(entries->children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  cr_assert_null(entries->children[0]->format);
  cr_assert_str_eq(entries->children[1]->name, "value");
  cr_assert_eq(entries->children[1]->flags, ARROW_FLAG_NULLABLE);

  cr_assert_eq(ArrowSchemaSetType(entries->children[0], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(entries->children[1], NANOARROW_TYPE_INT32), NANOARROW_OK);
  AssertToString(&schema, "map<entries: struct<key: string, value: int32>>");
  ArrowSchemaRelease(&schema);
}

Test(schema, set_type_rejects_parameterized) {
  const enum ArrowType needs_parameters[] = {
      NANOARROW_TYPE_FIXED_SIZE_BINARY, NANOARROW_TYPE_FIXED_SIZE_LIST,
      NANOARROW_TYPE_DECIMAL32,         NANOARROW_TYPE_DECIMAL64,
      NANOARROW_TYPE_DECIMAL128,        NANOARROW_TYPE_DECIMAL256,
      NANOARROW_TYPE_TIMESTAMP,         NANOARROW_TYPE_TIME32,
      NANOARROW_TYPE_TIME64,            NANOARROW_TYPE_DURATION,
      NANOARROW_TYPE_SPARSE_UNION,      NANOARROW_TYPE_DENSE_UNION,
      NANOARROW_TYPE_DICTIONARY,        NANOARROW_TYPE_EXTENSION,
      NANOARROW_TYPE_RUN_END_ENCODED,   (enum ArrowType)999};
  for (size_t i = 0; i < sizeof(needs_parameters) / sizeof(needs_parameters[0]); i++) {
    struct ArrowSchema schema;
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaSetType(&schema, needs_parameters[i]), EINVAL);
    cr_assert_null(schema.format);
    ArrowSchemaRelease(&schema);

    schema.release = NULL;
    cr_assert_eq(ArrowSchemaInitFromType(&schema, needs_parameters[i]), EINVAL);
    cr_assert_null(schema.release, "InitFromType releases on failure");
  }
}

Test(schema, set_type_uninitialized_clears_format) {
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(&schema, NANOARROW_TYPE_UNINITIALIZED), NANOARROW_OK);
  cr_assert_null(schema.format);
  ArrowSchemaRelease(&schema);
}

Test(schema, set_type_struct) {
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, -1), EINVAL);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 3), NANOARROW_OK);
  cr_assert_str_eq(schema.format, "+s");
  cr_assert_eq(schema.n_children, 3);
  for (int i = 0; i < 3; i++) {
    cr_assert_null(schema.children[i]->format);
    cr_assert_not_null(schema.children[i]->release);
  }
  ArrowSchemaRelease(&schema);
}

/* ---- Parameterized setters ---- */

Test(schema, set_type_fixed_size) {
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_BINARY, 16),
               NANOARROW_OK);
  cr_assert_str_eq(schema.format, "w:16");
  cr_assert_eq(schema.n_children, 0);
  ArrowSchemaRelease(&schema);

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_LIST, 2147483647),
               NANOARROW_OK);
  cr_assert_str_eq(schema.format, "+w:2147483647");
  cr_assert_eq(schema.n_children, 1);
  cr_assert_str_eq(schema.children[0]->name, "item");
  ArrowSchemaRelease(&schema);

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_BINARY, 0), EINVAL);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_LIST, -1), EINVAL);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_BINARY, 4), EINVAL);
  cr_assert_null(schema.format);
  ArrowSchemaRelease(&schema);
}

Test(schema, set_type_decimal) {
  struct {
    enum ArrowType type;
    int32_t max_precision;
    const char* format_at_max;
  } cases[] = {{NANOARROW_TYPE_DECIMAL32, 9, "d:9,-2,32"},
               {NANOARROW_TYPE_DECIMAL64, 18, "d:18,-2,64"},
               {NANOARROW_TYPE_DECIMAL128, 38, "d:38,-2"},
               {NANOARROW_TYPE_DECIMAL256, 76, "d:76,-2,256"}};
  for (size_t i = 0; i < 4; i++) {
    struct ArrowSchema schema;
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, cases[i].type, cases[i].max_precision, -2),
                 NANOARROW_OK);
    cr_assert_str_eq(schema.format, cases[i].format_at_max);
    cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, cases[i].type, 1, 0), NANOARROW_OK);
    cr_assert_eq(
        ArrowSchemaSetTypeDecimal(&schema, cases[i].type, cases[i].max_precision + 1, 0),
        EINVAL);
    cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, cases[i].type, 0, 0), EINVAL);
    ArrowSchemaRelease(&schema);
  }

  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, NANOARROW_TYPE_DECIMAL128, 10, 2),
               NANOARROW_OK);
  cr_assert_str_eq(schema.format, "d:10,2");
  cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, NANOARROW_TYPE_INT32, 10, 2), EINVAL);
  ArrowSchemaRelease(&schema);
}

Test(schema, set_type_run_end_encoded) {
  const struct TypeFormat run_end_types[] = {{NANOARROW_TYPE_INT16, "s"},
                                             {NANOARROW_TYPE_INT32, "i"},
                                             {NANOARROW_TYPE_INT64, "l"}};
  for (size_t i = 0; i < 3; i++) {
    struct ArrowSchema schema;
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaSetTypeRunEndEncoded(&schema, run_end_types[i].type),
                 NANOARROW_OK);
    cr_assert_str_eq(schema.format, "+r");
    cr_assert_eq(schema.n_children, 2);
    cr_assert_str_eq(schema.children[0]->format, run_end_types[i].format);
    cr_assert_str_eq(schema.children[0]->name, "run_ends");
    cr_assert_eq(schema.children[0]->flags & ARROW_FLAG_NULLABLE, 0);
    cr_assert_str_eq(schema.children[1]->name, "values");
    cr_assert_null(schema.children[1]->format);
    ArrowSchemaRelease(&schema);
  }

  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeRunEndEncoded(&schema, NANOARROW_TYPE_UINT32), EINVAL);
  cr_assert_eq(ArrowSchemaSetTypeRunEndEncoded(&schema, NANOARROW_TYPE_INT8), EINVAL);
  cr_assert_null(schema.format);
  ArrowSchemaRelease(&schema);
}

static const char* DateTimeFormat(enum ArrowType type, enum ArrowTimeUnit unit,
                                  const char* timezone, int* code) {
  static char format[512];
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  *code = ArrowSchemaSetTypeDateTime(&schema, type, unit, timezone);
  snprintf(format, sizeof(format), "%s", schema.format ? schema.format : "(null)");
  ArrowSchemaRelease(&schema);
  return format;
}

Test(schema, set_type_date_time) {
  int code;
  cr_assert_str_eq(DateTimeFormat(NANOARROW_TYPE_TIME32, NANOARROW_TIME_UNIT_SECOND, NULL, &code),
                   "tts");
  cr_assert_eq(code, NANOARROW_OK);
  cr_assert_str_eq(DateTimeFormat(NANOARROW_TYPE_TIME32, NANOARROW_TIME_UNIT_MILLI, NULL, &code),
                   "ttm");
  cr_assert_str_eq(DateTimeFormat(NANOARROW_TYPE_TIME64, NANOARROW_TIME_UNIT_MICRO, NULL, &code),
                   "ttu");
  cr_assert_str_eq(DateTimeFormat(NANOARROW_TYPE_TIME64, NANOARROW_TIME_UNIT_NANO, NULL, &code),
                   "ttn");
  cr_assert_str_eq(
      DateTimeFormat(NANOARROW_TYPE_DURATION, NANOARROW_TIME_UNIT_SECOND, NULL, &code), "tDs");
  cr_assert_str_eq(
      DateTimeFormat(NANOARROW_TYPE_DURATION, NANOARROW_TIME_UNIT_MILLI, NULL, &code), "tDm");
  cr_assert_str_eq(
      DateTimeFormat(NANOARROW_TYPE_DURATION, NANOARROW_TIME_UNIT_MICRO, NULL, &code), "tDu");
  cr_assert_str_eq(
      DateTimeFormat(NANOARROW_TYPE_DURATION, NANOARROW_TIME_UNIT_NANO, NULL, &code), "tDn");
  cr_assert_str_eq(
      DateTimeFormat(NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_SECOND, NULL, &code),
      "tss:");
  cr_assert_str_eq(
      DateTimeFormat(NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_MILLI, "UTC", &code),
      "tsm:UTC");
  cr_assert_str_eq(DateTimeFormat(NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_MICRO,
                                  "America/Halifax", &code),
                   "tsu:America/Halifax");
  cr_assert_str_eq(
      DateTimeFormat(NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_NANO, "+01:00", &code),
      "tsn:+01:00");
  cr_assert_eq(code, NANOARROW_OK);
}

Test(schema, set_type_date_time_invalid) {
  int code;
  /* Unit not valid for the type. */
  DateTimeFormat(NANOARROW_TYPE_TIME32, NANOARROW_TIME_UNIT_MICRO, NULL, &code);
  cr_assert_eq(code, EINVAL);
  DateTimeFormat(NANOARROW_TYPE_TIME32, NANOARROW_TIME_UNIT_NANO, NULL, &code);
  cr_assert_eq(code, EINVAL);
  DateTimeFormat(NANOARROW_TYPE_TIME64, NANOARROW_TIME_UNIT_SECOND, NULL, &code);
  cr_assert_eq(code, EINVAL);
  DateTimeFormat(NANOARROW_TYPE_TIME64, NANOARROW_TIME_UNIT_MILLI, NULL, &code);
  cr_assert_eq(code, EINVAL);
  DateTimeFormat(NANOARROW_TYPE_TIMESTAMP, (enum ArrowTimeUnit)7, NULL, &code);
  cr_assert_eq(code, EINVAL);
  /* Time zone only for timestamps. */
  DateTimeFormat(NANOARROW_TYPE_TIME32, NANOARROW_TIME_UNIT_SECOND, "UTC", &code);
  cr_assert_eq(code, EINVAL);
  DateTimeFormat(NANOARROW_TYPE_TIME64, NANOARROW_TIME_UNIT_NANO, "UTC", &code);
  cr_assert_eq(code, EINVAL);
  DateTimeFormat(NANOARROW_TYPE_DURATION, NANOARROW_TIME_UNIT_SECOND, "UTC", &code);
  cr_assert_eq(code, EINVAL);
  /* Not a date/time type with a unit. */
  DateTimeFormat(NANOARROW_TYPE_DATE32, NANOARROW_TIME_UNIT_SECOND, NULL, &code);
  cr_assert_eq(code, EINVAL);

  /* Overlong time zone: 123 characters is the limit (a 128-byte format). */
  char timezone[300];
  memset(timezone, 'x', sizeof(timezone));
  timezone[123] = '\0';
  const char* format =
      DateTimeFormat(NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_SECOND, timezone, &code);
  cr_assert_eq(code, NANOARROW_OK);
  cr_assert_eq(strlen(format), 4 + 123);
  timezone[123] = 'x';
  timezone[124] = '\0';
  DateTimeFormat(NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_SECOND, timezone, &code);
  cr_assert_eq(code, ERANGE);
}

Test(schema, set_type_union) {
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeUnion(&schema, NANOARROW_TYPE_DENSE_UNION, 3), NANOARROW_OK);
  cr_assert_str_eq(schema.format, "+ud:0,1,2");
  cr_assert_eq(schema.n_children, 3);
  ArrowSchemaRelease(&schema);

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeUnion(&schema, NANOARROW_TYPE_SPARSE_UNION, 0), NANOARROW_OK);
  cr_assert_str_eq(schema.format, "+us:");
  cr_assert_eq(schema.n_children, 0);
  ArrowSchemaRelease(&schema);

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeUnion(&schema, NANOARROW_TYPE_SPARSE_UNION, 127), NANOARROW_OK);
  cr_assert_eq(schema.n_children, 127);
  cr_assert_eq(strncmp(schema.format, "+us:0,1,2,", 10), 0);
  const char* tail = schema.format + strlen(schema.format) - 8;
  cr_assert_str_eq(tail, ",125,126");
  ArrowSchemaRelease(&schema);

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeUnion(&schema, NANOARROW_TYPE_SPARSE_UNION, 128), EINVAL);
  cr_assert_eq(ArrowSchemaSetTypeUnion(&schema, NANOARROW_TYPE_DENSE_UNION, -1), EINVAL);
  cr_assert_eq(ArrowSchemaSetTypeUnion(&schema, NANOARROW_TYPE_STRUCT, 2), EINVAL);
  cr_assert_null(schema.format);
  cr_assert_eq(schema.n_children, 0);
  ArrowSchemaRelease(&schema);
}

/* ---- Field setters and allocation ---- */

Test(schema, set_format_name_metadata_copy) {
  char format[] = "i";
  char name[] = "col";
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, format), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&schema, name), NANOARROW_OK);
  format[0] = 'l';
  name[0] = 'x';
  cr_assert_str_eq(schema.format, "i");
  cr_assert_str_eq(schema.name, "col");

  /* Setting from the schema's own string is safe. */
  cr_assert_eq(ArrowSchemaSetName(&schema, schema.name), NANOARROW_OK);
  cr_assert_str_eq(schema.name, "col");

  cr_assert_eq(ArrowSchemaSetFormat(&schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&schema, NULL), NANOARROW_OK);
  cr_assert_null(schema.format);
  cr_assert_null(schema.name);

  struct ArrowBuffer metadata;
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("k"), ArrowCharView("v")),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(&schema, (const char*)metadata.data), NANOARROW_OK);
  cr_assert_neq((const void*)schema.metadata, (const void*)metadata.data);
  cr_assert_eq(ArrowMetadataSizeOf(schema.metadata), metadata.size_bytes);
  cr_assert_eq(memcmp(schema.metadata, metadata.data, (size_t)metadata.size_bytes), 0);
  ArrowBufferReset(&metadata);

  cr_assert_eq(ArrowSchemaSetMetadata(&schema, NULL), NANOARROW_OK);
  cr_assert_null(schema.metadata);
  ArrowSchemaRelease(&schema);
}

Test(schema, set_metadata_rejects_malformed) {
  char blob[4];
  int32_t n_keys = -3;
  memcpy(blob, &n_keys, sizeof(n_keys));
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetMetadata(&schema, blob), EINVAL);
  cr_assert_null(schema.metadata);
  ArrowSchemaRelease(&schema);
}

static void ForeignRelease(struct ArrowSchema* schema) { schema->release = NULL; }

Test(schema, setters_refuse_foreign_or_released_schemas) {
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof(schema));
  schema.format = "i";
  schema.release = &ForeignRelease;
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "l"), EINVAL);
  cr_assert_eq(ArrowSchemaSetName(&schema, "x"), EINVAL);
  cr_assert_eq(ArrowSchemaSetMetadata(&schema, NULL), EINVAL);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), EINVAL);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), EINVAL);
  cr_assert_str_eq(schema.format, "i");

  schema.release = NULL;
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "l"), EINVAL);
}

/* As nanoarrow does: the allocated children and dictionary arrive released (release
 * NULL, every member zeroed); the caller initializes each, and releasing the parent
 * frees them whether or not that happened. */
Test(schema, allocate_children_and_dictionary) {
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, -1), EINVAL);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 0), NANOARROW_OK);
  cr_assert_null(schema.children);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  cr_assert_eq(schema.n_children, 2);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), EINVAL, "children already allocated");
  for (int64_t i = 0; i < 2; i++) {
    cr_assert_not_null(schema.children[i]);
    cr_assert_null(schema.children[i]->release);
    cr_assert_null(schema.children[i]->format);
    cr_assert_null(schema.children[i]->children);
  }
  /* A view of the parent names the child that was never initialized. */
  struct ArrowSchemaView view;
  struct ArrowError error;
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+s"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaViewInit(&view, &schema, &error), EINVAL);
  cr_assert(strstr(error.message, "children[0]") != NULL, "%s", error.message);
  ArrowSchemaInit(schema.children[0]);
  cr_assert_eq(schema.children[0]->flags, ARROW_FLAG_NULLABLE);

  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  cr_assert_not_null(schema.dictionary);
  cr_assert_null(schema.dictionary->release);
  struct ArrowSchema* dictionary = schema.dictionary;
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), EEXIST, "dictionary already allocated");
  cr_assert_eq(schema.dictionary, dictionary, "the existing dictionary is kept");
  /* One child initialized and one not, a released dictionary: all freed (ASan). */
  ArrowSchemaRelease(&schema);
  cr_assert_null(schema.release);
}

Test(schema, allocate_dictionary_twice_is_eexist_even_when_released) {
  /* A moved-out (released) dictionary struct is still allocated: EEXIST too. */
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  struct ArrowSchema moved;
  ArrowSchemaMove(schema.dictionary, &moved);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), EEXIST);
  ArrowSchemaRelease(&moved);
  ArrowSchemaRelease(&schema);
}

/* A child may be released, ArrowFree()d and its slot left NULL: views refuse the
 * parent, release skips the slot. */
Test(schema, freed_child_slot_left_null) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  struct ArrowError error;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT64), NANOARROW_OK);
  ArrowSchemaRelease(schema.children[0]);
  ArrowFree(schema.children[0]);
  schema.children[0] = NULL;
  cr_assert_eq(ArrowSchemaViewInit(&view, &schema, &error), EINVAL);
  ArrowSchemaRelease(&schema);
  cr_assert_null(schema.release);
}

Test(schema, release_frees_replaced_child_pointer) {
  /* Every child struct is its own ArrowMalloc'ed block: the caller may ArrowFree()
   * one and put its own ArrowMalloc'ed struct in its place, which the parent then
   * releases and frees. ASan checks for double frees and leaks. */
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 3), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(ArrowSchemaSetType(schema.children[i], NANOARROW_TYPE_INT32), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetName(schema.children[i], "col"), NANOARROW_OK);
  }

  struct ArrowSchema* own = (struct ArrowSchema*)ArrowMalloc(sizeof(struct ArrowSchema));
  cr_assert_not_null(own);
  ArrowSchemaMove(schema.children[1], own);
  ArrowFree(schema.children[1]);
  schema.children[1] = own;

  /* A replacement holding a freshly built schema, the old child released in place. */
  struct ArrowSchema* fresh = (struct ArrowSchema*)ArrowMalloc(sizeof(struct ArrowSchema));
  cr_assert_not_null(fresh);
  cr_assert_eq(ArrowSchemaInitFromType(fresh, NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(fresh->children[0], NANOARROW_TYPE_STRING), NANOARROW_OK);
  ArrowSchemaRelease(schema.children[2]);
  ArrowFree(schema.children[2]);
  schema.children[2] = fresh;

  char out[128];
  ArrowSchemaToString(&schema, out, sizeof(out), 1);
  cr_assert_str_eq(out, "struct<col: int32, col: int32, list<item: string>>");

  /* The copy and the comparison walk replaced pointers like any other. */
  struct ArrowSchema copy;
  cr_assert_eq(ArrowSchemaDeepCopy(&schema, &copy), NANOARROW_OK);
  int identical = 0;
  cr_assert_eq(ArrowSchemaCompare(&copy, &schema, NANOARROW_COMPARE_IDENTICAL, &identical,
                                  NULL),
               NANOARROW_OK);
  cr_assert(identical);
  ArrowSchemaRelease(&copy);
  ArrowSchemaRelease(&schema);
}

Test(schema, upstream_style_child_initialization) {
  /* Code written for children that start out released (initializing each one, or
   * moving a schema into it) works with our pre-initialized children without leaks:
   * a freshly initialized child owns nothing that overwriting it would lose. */
  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+s"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 3), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT64),
               NANOARROW_OK);
  ArrowSchemaInit(schema.children[1]);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "u"), NANOARROW_OK);
  struct ArrowSchema source;
  cr_assert_eq(ArrowSchemaInitFromType(&source, NANOARROW_TYPE_DOUBLE), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(&source, "moved_in"), NANOARROW_OK);
  ArrowSchemaMove(&source, schema.children[2]);

  char out[128];
  ArrowSchemaToString(&schema, out, sizeof(out), 1);
  cr_assert_str_eq(out, "struct<int64, string, moved_in: double>");
  ArrowSchemaRelease(&schema);
}

Test(schema, released_children_are_skipped_and_reported) {
  /* A child left released (moved out) must not crash release, deep copy, the view or
   * ToString; the view and the copy report it. */
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT32), NANOARROW_OK);
  struct ArrowSchema moved;
  ArrowSchemaMove(schema.children[1], &moved);

  struct ArrowSchemaView view;
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowSchemaViewInit(&view, &schema, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, "schema->children[1]"), "%s", error.message);
  cr_assert_not_null(strstr(error.message, "released"), "%s", error.message);

  struct ArrowSchema copy;
  cr_assert_eq(ArrowSchemaDeepCopy(&schema, &copy), EINVAL);
  cr_assert_null(copy.release);

  AssertToString(&schema, "[invalid: Expected valid schema at schema->children[1] but "
                          "found a released schema]");
  ArrowSchemaRelease(&moved);
  ArrowSchemaRelease(&schema);
}

Test(schema, release_handles_moved_out_children) {
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);

  /* A consumer may move a child out; the parent must then skip it. */
  struct ArrowSchema moved;
  ArrowSchemaMove(schema.children[1], &moved);
  struct ArrowSchema moved_dictionary;
  ArrowSchemaMove(schema.dictionary, &moved_dictionary);
  ArrowSchemaRelease(&schema);
  cr_assert_str_eq(moved.format, "u");
  ArrowSchemaRelease(&moved);
  ArrowSchemaRelease(&moved_dictionary);
}

/* ---- Deep copy ---- */

static void MakeNestedSchema(struct ArrowSchema* schema) {
  cr_assert_eq(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema, "root"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(schema, 3), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (schema)->n_children; child_i++) {
    ArrowSchemaInit((schema)->children[child_i]);
  }

  cr_assert_eq(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[0], "ints"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[0]->children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);

  /* Dictionary-encoded strings. */
  cr_assert_eq(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_INT16), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[1], "dict"), NANOARROW_OK);
  schema->children[1]->flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  cr_assert_eq(ArrowSchemaAllocateDictionary(schema->children[1]), NANOARROW_OK);
  ArrowSchemaInit((schema->children[1])->dictionary);
  cr_assert_eq(ArrowSchemaSetType(schema->children[1]->dictionary, NANOARROW_TYPE_STRING),
               NANOARROW_OK);

  struct ArrowBuffer metadata;
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("ARROW:extension:name"),
                                          ArrowCharView("arrow.uuid")),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(schema->children[2],
                                           NANOARROW_TYPE_FIXED_SIZE_BINARY, 16),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[2], "uuid"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(schema->children[2], (const char*)metadata.data),
               NANOARROW_OK);
  schema->children[2]->flags = 0;
  ArrowBufferReset(&metadata);
}

static void AssertSchemaEqual(const struct ArrowSchema* a, const struct ArrowSchema* b) {
  cr_assert_neq(a, b);
  if (a->format == NULL) {
    cr_assert_null(b->format);
  } else {
    cr_assert_str_eq(a->format, b->format);
    cr_assert_neq(a->format, b->format);
  }
  if (a->name == NULL) {
    cr_assert_null(b->name);
  } else {
    cr_assert_str_eq(a->name, b->name);
  }
  cr_assert_eq(ArrowMetadataSizeOf(a->metadata), ArrowMetadataSizeOf(b->metadata));
  if (a->metadata != NULL) {
    cr_assert_neq(a->metadata, b->metadata);
    cr_assert_eq(memcmp(a->metadata, b->metadata, (size_t)ArrowMetadataSizeOf(a->metadata)), 0);
  }
  cr_assert_eq(a->flags, b->flags);
  cr_assert_eq(a->n_children, b->n_children);
  for (int64_t i = 0; i < a->n_children; i++) {
    AssertSchemaEqual(a->children[i], b->children[i]);
  }
  cr_assert_eq(a->dictionary == NULL, b->dictionary == NULL);
  if (a->dictionary != NULL) {
    AssertSchemaEqual(a->dictionary, b->dictionary);
  }
}

Test(schema, deep_copy) {
  struct ArrowSchema schema;
  MakeNestedSchema(&schema);
  struct ArrowSchema copy;
  cr_assert_eq(ArrowSchemaDeepCopy(&schema, &copy), NANOARROW_OK);
  AssertSchemaEqual(&schema, &copy);
  ArrowSchemaRelease(&schema);

  /* The copy owns everything it points to. */
  AssertToString(&copy,
                 "struct<ints: list<item: int32>, dict: dictionary(int16)<string>, "
                 "uuid: arrow.uuid{fixed_size_binary(16)}>");
  ArrowSchemaRelease(&copy);
}

Test(schema, deep_copy_rejects_released_and_null) {
  struct ArrowSchema schema;
  struct ArrowSchema copy;
  cr_assert_eq(ArrowSchemaDeepCopy(NULL, &copy), EINVAL);
  cr_assert_null(copy.release);

  MakeNestedSchema(&schema);
  /* A released child deep inside: the partial copy must be freed (checked by ASan). */
  struct ArrowSchema moved;
  ArrowSchemaMove(schema.children[2], &moved);
  cr_assert_eq(ArrowSchemaDeepCopy(&schema, &copy), EINVAL);
  cr_assert_null(copy.release);
  ArrowSchemaRelease(&moved);
  ArrowSchemaRelease(&schema);
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

Test(schema, deep_copy_depth_is_bounded) {
  struct ArrowSchema schema;
  struct ArrowSchema copy;

  MakeDeepList(&schema, NANOARROW_MAX_NESTING_DEPTH);
  cr_assert_eq(ArrowSchemaDeepCopy(&schema, &copy), NANOARROW_OK);
  ArrowSchemaRelease(&copy);
  ArrowSchemaRelease(&schema);

  MakeDeepList(&schema, NANOARROW_MAX_NESTING_DEPTH + 1);
  cr_assert_eq(ArrowSchemaDeepCopy(&schema, &copy), EINVAL);
  cr_assert_null(copy.release);
  ArrowSchemaRelease(&schema);
}

/* ---- ToString ---- */

Test(schema, to_string_primitives_and_parameters) {
  struct ArrowSchema schema;
  for (size_t i = 0; i < sizeof(kParameterlessTypes) / sizeof(kParameterlessTypes[0]); i++) {
    char expected[64];
    cr_assert_eq(ArrowSchemaInitFromType(&schema, kParameterlessTypes[i].type), NANOARROW_OK);
    /* Nested types show their (here no) children when recursive. */
    snprintf(expected, sizeof(expected), "%s%s", ArrowTypeString(kParameterlessTypes[i].type),
             schema.format[0] == '+' ? "<>" : "");
    AssertToString(&schema, expected);
    AssertToStringShallow(&schema, ArrowTypeString(kParameterlessTypes[i].type));
    ArrowSchemaRelease(&schema);
  }

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_BINARY, 12),
               NANOARROW_OK);
  AssertToString(&schema, "fixed_size_binary(12)");
  cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, NANOARROW_TYPE_DECIMAL128, 10, 2),
               NANOARROW_OK);
  AssertToString(&schema, "decimal128(10, 2)");
  cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, NANOARROW_TYPE_DECIMAL32, 5, -1),
               NANOARROW_OK);
  AssertToString(&schema, "decimal32(5, -1)");
  cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, NANOARROW_TYPE_DECIMAL64, 18, 3),
               NANOARROW_OK);
  AssertToString(&schema, "decimal64(18, 3)");
  cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, NANOARROW_TYPE_DECIMAL256, 76, 0),
               NANOARROW_OK);
  AssertToString(&schema, "decimal256(76, 0)");
  cr_assert_eq(
      ArrowSchemaSetTypeDateTime(&schema, NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_MICRO,
                                 "UTC"),
      NANOARROW_OK);
  AssertToString(&schema, "timestamp('us', 'UTC')");
  cr_assert_eq(ArrowSchemaSetTypeDateTime(&schema, NANOARROW_TYPE_TIMESTAMP,
                                          NANOARROW_TIME_UNIT_SECOND, NULL),
               NANOARROW_OK);
  AssertToString(&schema, "timestamp('s', '')");
  cr_assert_eq(ArrowSchemaSetTypeDateTime(&schema, NANOARROW_TYPE_TIME32,
                                          NANOARROW_TIME_UNIT_MILLI, NULL),
               NANOARROW_OK);
  AssertToString(&schema, "time32('ms')");
  cr_assert_eq(ArrowSchemaSetTypeDateTime(&schema, NANOARROW_TYPE_TIME64,
                                          NANOARROW_TIME_UNIT_NANO, NULL),
               NANOARROW_OK);
  AssertToString(&schema, "time64('ns')");
  cr_assert_eq(ArrowSchemaSetTypeDateTime(&schema, NANOARROW_TYPE_DURATION,
                                          NANOARROW_TIME_UNIT_SECOND, NULL),
               NANOARROW_OK);
  AssertToString(&schema, "duration('s')");
  ArrowSchemaRelease(&schema);
}

Test(schema, to_string_nested) {
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  AssertToString(&schema, "struct<>");
  ArrowSchemaRelease(&schema);

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "col1"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[1], "col2"), NANOARROW_OK);
  AssertToString(&schema, "struct<col1: int32, col2: string>");
  AssertToStringShallow(&schema, "struct");
  ArrowSchemaRelease(&schema);

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  AssertToString(&schema, "list<item: int32>");
  AssertToStringShallow(&schema, "list");
  ArrowSchemaRelease(&schema);

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_LIST, 3),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_DOUBLE), NANOARROW_OK);
  AssertToString(&schema, "fixed_size_list(3)<item: double>");
  AssertToStringShallow(&schema, "fixed_size_list(3)");
  ArrowSchemaRelease(&schema);

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeUnion(&schema, NANOARROW_TYPE_DENSE_UNION, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "a"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[1], "b"), NANOARROW_OK);
  AssertToString(&schema, "dense_union([0,1])<a: int32, b: string>");
  ArrowSchemaRelease(&schema);

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeRunEndEncoded(&schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_FLOAT), NANOARROW_OK);
  AssertToString(&schema, "run_end_encoded<run_ends: int32, values: float>");
  ArrowSchemaRelease(&schema);

  /* Unnamed children print an empty name. */
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_BOOL), NANOARROW_OK);
  AssertToString(&schema, "struct<bool>");
  ArrowSchemaRelease(&schema);
}

Test(schema, to_string_dictionary_and_extension) {
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  cr_assert_eq(ArrowSchemaSetType(schema.dictionary, NANOARROW_TYPE_STRING), NANOARROW_OK);
  AssertToString(&schema, "dictionary(int32)<string>");
  AssertToStringShallow(&schema, "dictionary(int32)<string>");
  ArrowSchemaRelease(&schema);

  struct ArrowBuffer metadata;
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("ARROW:extension:name"),
                                          ArrowCharView("geoarrow.point")),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(&schema, (const char*)metadata.data), NANOARROW_OK);
  ArrowBufferReset(&metadata);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_DOUBLE), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "x"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_DOUBLE), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[1], "y"), NANOARROW_OK);
  AssertToString(&schema, "geoarrow.point{struct<x: double, y: double>}");
  AssertToStringShallow(&schema, "geoarrow.point{struct}");
  ArrowSchemaRelease(&schema);
}

Test(schema, to_string_invalid) {
  char out[256];
  ArrowSchemaToString(NULL, out, sizeof(out), 1);
  cr_assert_str_eq(out, "[invalid: pointer is null]");

  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  ArrowSchemaRelease(&schema);
  ArrowSchemaToString(&schema, out, sizeof(out), 1);
  cr_assert_str_eq(out, "[invalid: schema is released]");

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "q"), NANOARROW_OK);
  ArrowSchemaToString(&schema, out, sizeof(out), 1);
  cr_assert_eq(strncmp(out, "[invalid: ", 10), 0);
  cr_assert_not_null(strstr(out, "'q'"));
  ArrowSchemaRelease(&schema);

  /* An invalid child is reported in place. */
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_LIST), NANOARROW_OK);
  ArrowSchemaToString(&schema, out, sizeof(out), 1);
  cr_assert_eq(strncmp(out, "list<item: [invalid: ", 21), 0, "%s", out);
  ArrowSchemaRelease(&schema);
}

Test(schema, to_string_truncates_safely) {
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  const char* expected = "list<item: int32>";
  int64_t expected_size = (int64_t)strlen(expected);

  cr_assert_eq(ArrowSchemaToString(&schema, NULL, 0, 1), expected_size);

  char out[32];
  for (int64_t n = 0; n <= expected_size + 2; n++) {
    memset(out, '#', sizeof(out));
    cr_assert_eq(ArrowSchemaToString(&schema, out, n, 1), expected_size);
    if (n == 0) {
      cr_assert_eq(out[0], '#', "n == 0 writes nothing");
      continue;
    }
    int64_t written = n - 1 < expected_size ? n - 1 : expected_size;
    cr_assert_eq((int64_t)strlen(out), written);
    cr_assert_eq(strncmp(out, expected, (size_t)written), 0);
    cr_assert_eq(out[n], '#', "nothing written past n");
  }
  ArrowSchemaRelease(&schema);
}

Test(schema, to_string_deep_nesting_is_bounded) {
  struct ArrowSchema schema;
  MakeDeepList(&schema, NANOARROW_MAX_NESTING_DEPTH + 5);
  int64_t needed = ArrowSchemaToString(&schema, NULL, 0, 1);
  char* out = (char*)malloc((size_t)needed + 1);
  cr_assert_eq(ArrowSchemaToString(&schema, out, needed + 1, 1), needed);
  cr_assert_not_null(strstr(out, "[invalid: nesting too deep]"));
  free(out);
  ArrowSchemaRelease(&schema);
}

/* ---- Scale ---- */

Test(schema, wide_struct_build_view_print) {
  const int64_t n_children = 10000;
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, n_children), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  char name[32];
  for (int64_t i = 0; i < n_children; i++) {
    cr_assert_eq(ArrowSchemaSetType(schema.children[i], NANOARROW_TYPE_INT32), NANOARROW_OK);
    snprintf(name, sizeof(name), "c%ld", (long)i);
    cr_assert_eq(ArrowSchemaSetName(schema.children[i], name), NANOARROW_OK);
  }

  struct ArrowSchemaView view;
  struct ArrowError error;
  cr_assert_eq(ArrowSchemaViewInit(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(view.type, NANOARROW_TYPE_STRUCT);

  int64_t needed = ArrowSchemaToString(&schema, NULL, 0, 1);
  char* out = (char*)malloc((size_t)needed + 1);
  cr_assert_eq(ArrowSchemaToString(&schema, out, needed + 1, 1), needed);
  cr_assert_eq(strncmp(out, "struct<c0: int32, c1: int32, ", 29), 0);
  cr_assert_str_eq(out + needed - 15, ", c9999: int32>");
  free(out);

  struct ArrowSchema copy;
  cr_assert_eq(ArrowSchemaDeepCopy(&schema, &copy), NANOARROW_OK);
  cr_assert_eq(copy.n_children, n_children);
  cr_assert_str_eq(copy.children[n_children - 1]->name, "c9999");
  ArrowSchemaRelease(&copy);
  ArrowSchemaRelease(&schema);
}

/* ArrowSchemaToString() gives the strings nanoarrow gives (programs compare them):
 * a timestamp always names its time zone ('' when none), a dictionary always shows
 * its value type, a nested type shows "<...>" when recursive even without children,
 * and a child without a name shows no "name: " prefix. */
Test(schema_to_string, matches_nanoarrow_output) {
  struct ArrowSchema schema;

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_UNINITIALIZED), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeDateTime(&schema, NANOARROW_TYPE_TIMESTAMP,
                                          NANOARROW_TIME_UNIT_SECOND, NULL),
               NANOARROW_OK);
  AssertToString(&schema, "timestamp('s', '')");
  AssertToStringShallow(&schema, "timestamp('s', '')");
  ArrowSchemaRelease(&schema);

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_UNINITIALIZED), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeDateTime(&schema, NANOARROW_TYPE_TIMESTAMP,
                                          NANOARROW_TIME_UNIT_MICRO, "UTC"),
               NANOARROW_OK);
  AssertToString(&schema, "timestamp('us', 'UTC')");
  ArrowSchemaRelease(&schema);

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_UNINITIALIZED), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeDateTime(&schema, NANOARROW_TYPE_DURATION,
                                          NANOARROW_TIME_UNIT_NANO, NULL),
               NANOARROW_OK);
  AssertToString(&schema, "duration('ns')");
  ArrowSchemaRelease(&schema);

  /* A dictionary shows its values, recursive or not. */
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.dictionary, NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  AssertToString(&schema, "dictionary(int32)<string>");
  AssertToStringShallow(&schema, "dictionary(int32)<string>");
  ArrowSchemaRelease(&schema);

  /* A struct without children, and children without names. */
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  AssertToString(&schema, "struct<>");
  AssertToStringShallow(&schema, "struct");
  ArrowSchemaRelease(&schema);

  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[1], NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[1], "b"), NANOARROW_OK);
  AssertToString(&schema, "struct<int32, b: string>");
  ArrowSchemaRelease(&schema);

  /* An empty extension name is no extension. */
  {
    struct ArrowBuffer metadata;
    cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), NANOARROW_OK);
    cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("ARROW:extension:name"),
                                            ArrowCharView("")),
                 NANOARROW_OK);
    cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetMetadata(&schema, (const char*)metadata.data), NANOARROW_OK);
    AssertToString(&schema, "int32");
    ArrowSchemaRelease(&schema);
    ArrowBufferReset(&metadata);
  }
}
