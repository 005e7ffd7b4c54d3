#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

/* ---- Helpers ---- */

/* Gives schema (format already set) the children its type needs to be valid. Formats
 * are copied into exact-size allocations, so ASan catches any read past the NUL. */
static void AddValidChildren(struct ArrowSchema* schema, int64_t n_union_children) {
  const char* format = schema->format;
  if (strcmp(format, "+l") == 0 || strcmp(format, "+L") == 0 ||
      strcmp(format, "+vl") == 0 || strcmp(format, "+vL") == 0 ||
      strncmp(format, "+w:", 3) == 0) {
    cr_assert_eq(ArrowSchemaAllocateChildren(schema, 1), NANOARROW_OK);
    for (int64_t child_i = 0; child_i < (schema)->n_children; child_i++) {
      ArrowSchemaInit((schema)->children[child_i]);
    }
    cr_assert_eq(ArrowSchemaSetFormat(schema->children[0], "i"), NANOARROW_OK);
  } else if (strcmp(format, "+m") == 0) {
    cr_assert_eq(ArrowSchemaAllocateChildren(schema, 1), NANOARROW_OK);
    for (int64_t child_i = 0; child_i < (schema)->n_children; child_i++) {
      ArrowSchemaInit((schema)->children[child_i]);
    }
    struct ArrowSchema* entries = schema->children[0];
    cr_assert_eq(ArrowSchemaSetTypeStruct(entries, 2), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetFormat(entries->children[0], "u"), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetFormat(entries->children[1], "i"), NANOARROW_OK);
    /* Entries and keys of a map are never null. */
    entries->flags = 0;
    entries->children[0]->flags = 0;
  } else if (strcmp(format, "+r") == 0) {
    cr_assert_eq(ArrowSchemaAllocateChildren(schema, 2), NANOARROW_OK);
    for (int64_t child_i = 0; child_i < (schema)->n_children; child_i++) {
      ArrowSchemaInit((schema)->children[child_i]);
    }
    cr_assert_eq(ArrowSchemaSetFormat(schema->children[0], "i"), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetFormat(schema->children[1], "f"), NANOARROW_OK);
  } else if (strncmp(format, "+u", 2) == 0) {
    cr_assert_eq(ArrowSchemaAllocateChildren(schema, n_union_children), NANOARROW_OK);
    for (int64_t child_i = 0; child_i < (schema)->n_children; child_i++) {
      ArrowSchemaInit((schema)->children[child_i]);
    }
    for (int64_t i = 0; i < n_union_children; i++) {
      cr_assert_eq(ArrowSchemaSetFormat(schema->children[i], "i"), NANOARROW_OK);
    }
  }
}

static void MakeSchema(struct ArrowSchema* schema, const char* format,
                       int64_t n_union_children) {
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetFormat(schema, format), NANOARROW_OK);
  AddValidChildren(schema, n_union_children);
}

/* Builds a schema from a view's fields with the Set* functions (top level only). */
static ArrowErrorCode RebuildFromView(const struct ArrowSchemaView* view,
                                      struct ArrowSchema* out) {
  ArrowSchemaInit(out);
  switch (view->type) {
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      return ArrowSchemaSetTypeFixedSize(out, view->type, view->fixed_size);
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      return ArrowSchemaSetTypeDecimal(out, view->type, view->decimal_precision,
                                       view->decimal_scale);
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_TIMESTAMP:
    case NANOARROW_TYPE_DURATION:
      return ArrowSchemaSetTypeDateTime(out, view->type, view->time_unit, view->timezone);
    case NANOARROW_TYPE_DENSE_UNION:
    case NANOARROW_TYPE_SPARSE_UNION:
      return ArrowSchemaSetTypeUnion(out, view->type, view->schema->n_children);
    case NANOARROW_TYPE_RUN_END_ENCODED:
      return ArrowSchemaSetTypeRunEndEncoded(out, NANOARROW_TYPE_INT32);
    default:
      return ArrowSchemaSetType(out, view->type);
  }
}

struct FormatCase {
  const char* format;
  enum ArrowType type;
  enum ArrowType storage_type;
  int64_t n_union_children;
};

/* Every format string of the C Data Interface specification's table. */
static const struct FormatCase kFormats[] = {
    {"n", NANOARROW_TYPE_NA, NANOARROW_TYPE_NA, 0},
    {"b", NANOARROW_TYPE_BOOL, NANOARROW_TYPE_BOOL, 0},
    {"c", NANOARROW_TYPE_INT8, NANOARROW_TYPE_INT8, 0},
    {"C", NANOARROW_TYPE_UINT8, NANOARROW_TYPE_UINT8, 0},
    {"s", NANOARROW_TYPE_INT16, NANOARROW_TYPE_INT16, 0},
    {"S", NANOARROW_TYPE_UINT16, NANOARROW_TYPE_UINT16, 0},
    {"i", NANOARROW_TYPE_INT32, NANOARROW_TYPE_INT32, 0},
    {"I", NANOARROW_TYPE_UINT32, NANOARROW_TYPE_UINT32, 0},
    {"l", NANOARROW_TYPE_INT64, NANOARROW_TYPE_INT64, 0},
    {"L", NANOARROW_TYPE_UINT64, NANOARROW_TYPE_UINT64, 0},
    {"e", NANOARROW_TYPE_HALF_FLOAT, NANOARROW_TYPE_HALF_FLOAT, 0},
    {"f", NANOARROW_TYPE_FLOAT, NANOARROW_TYPE_FLOAT, 0},
    {"g", NANOARROW_TYPE_DOUBLE, NANOARROW_TYPE_DOUBLE, 0},
    {"z", NANOARROW_TYPE_BINARY, NANOARROW_TYPE_BINARY, 0},
    {"Z", NANOARROW_TYPE_LARGE_BINARY, NANOARROW_TYPE_LARGE_BINARY, 0},
    {"vz", NANOARROW_TYPE_BINARY_VIEW, NANOARROW_TYPE_BINARY_VIEW, 0},
    {"u", NANOARROW_TYPE_STRING, NANOARROW_TYPE_STRING, 0},
    {"U", NANOARROW_TYPE_LARGE_STRING, NANOARROW_TYPE_LARGE_STRING, 0},
    {"vu", NANOARROW_TYPE_STRING_VIEW, NANOARROW_TYPE_STRING_VIEW, 0},
    {"w:1", NANOARROW_TYPE_FIXED_SIZE_BINARY, NANOARROW_TYPE_FIXED_SIZE_BINARY, 0},
    {"w:42", NANOARROW_TYPE_FIXED_SIZE_BINARY, NANOARROW_TYPE_FIXED_SIZE_BINARY, 0},
    {"w:2147483647", NANOARROW_TYPE_FIXED_SIZE_BINARY, NANOARROW_TYPE_FIXED_SIZE_BINARY, 0},
    {"d:9,2,32", NANOARROW_TYPE_DECIMAL32, NANOARROW_TYPE_DECIMAL32, 0},
    {"d:18,-3,64", NANOARROW_TYPE_DECIMAL64, NANOARROW_TYPE_DECIMAL64, 0},
    {"d:19,10", NANOARROW_TYPE_DECIMAL128, NANOARROW_TYPE_DECIMAL128, 0},
    {"d:76,40,256", NANOARROW_TYPE_DECIMAL256, NANOARROW_TYPE_DECIMAL256, 0},
    {"tdD", NANOARROW_TYPE_DATE32, NANOARROW_TYPE_INT32, 0},
    {"tdm", NANOARROW_TYPE_DATE64, NANOARROW_TYPE_INT64, 0},
    {"tts", NANOARROW_TYPE_TIME32, NANOARROW_TYPE_INT32, 0},
    {"ttm", NANOARROW_TYPE_TIME32, NANOARROW_TYPE_INT32, 0},
    {"ttu", NANOARROW_TYPE_TIME64, NANOARROW_TYPE_INT64, 0},
    {"ttn", NANOARROW_TYPE_TIME64, NANOARROW_TYPE_INT64, 0},
    {"tss:", NANOARROW_TYPE_TIMESTAMP, NANOARROW_TYPE_INT64, 0},
    {"tsm:", NANOARROW_TYPE_TIMESTAMP, NANOARROW_TYPE_INT64, 0},
    {"tsu:UTC", NANOARROW_TYPE_TIMESTAMP, NANOARROW_TYPE_INT64, 0},
    {"tsn:America/New_York", NANOARROW_TYPE_TIMESTAMP, NANOARROW_TYPE_INT64, 0},
    {"tss:+07:30", NANOARROW_TYPE_TIMESTAMP, NANOARROW_TYPE_INT64, 0},
    {"tDs", NANOARROW_TYPE_DURATION, NANOARROW_TYPE_INT64, 0},
    {"tDm", NANOARROW_TYPE_DURATION, NANOARROW_TYPE_INT64, 0},
    {"tDu", NANOARROW_TYPE_DURATION, NANOARROW_TYPE_INT64, 0},
    {"tDn", NANOARROW_TYPE_DURATION, NANOARROW_TYPE_INT64, 0},
    {"tiM", NANOARROW_TYPE_INTERVAL_MONTHS, NANOARROW_TYPE_INTERVAL_MONTHS, 0},
    {"tiD", NANOARROW_TYPE_INTERVAL_DAY_TIME, NANOARROW_TYPE_INTERVAL_DAY_TIME, 0},
    {"tin", NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO, NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO,
     0},
    {"+l", NANOARROW_TYPE_LIST, NANOARROW_TYPE_LIST, 0},
    {"+L", NANOARROW_TYPE_LARGE_LIST, NANOARROW_TYPE_LARGE_LIST, 0},
    {"+vl", NANOARROW_TYPE_LIST_VIEW, NANOARROW_TYPE_LIST_VIEW, 0},
    {"+vL", NANOARROW_TYPE_LARGE_LIST_VIEW, NANOARROW_TYPE_LARGE_LIST_VIEW, 0},
    {"+w:3", NANOARROW_TYPE_FIXED_SIZE_LIST, NANOARROW_TYPE_FIXED_SIZE_LIST, 0},
    {"+s", NANOARROW_TYPE_STRUCT, NANOARROW_TYPE_STRUCT, 0},
    {"+m", NANOARROW_TYPE_MAP, NANOARROW_TYPE_MAP, 0},
    {"+ud:", NANOARROW_TYPE_DENSE_UNION, NANOARROW_TYPE_DENSE_UNION, 0},
    {"+ud:0,1,2", NANOARROW_TYPE_DENSE_UNION, NANOARROW_TYPE_DENSE_UNION, 3},
    {"+us:0", NANOARROW_TYPE_SPARSE_UNION, NANOARROW_TYPE_SPARSE_UNION, 1},
    {"+us:0,1", NANOARROW_TYPE_SPARSE_UNION, NANOARROW_TYPE_SPARSE_UNION, 2},
    {"+r", NANOARROW_TYPE_RUN_END_ENCODED, NANOARROW_TYPE_RUN_END_ENCODED, 0},
};

#define N_FORMATS (sizeof(kFormats) / sizeof(kFormats[0]))

/* ---- Every format, both ways ---- */

Test(schema_view, every_format_parses_and_rebuilds) {
  for (size_t i = 0; i < N_FORMATS; i++) {
    struct ArrowSchema schema;
    MakeSchema(&schema, kFormats[i].format, kFormats[i].n_union_children);

    struct ArrowSchemaView view;
    struct ArrowError error;
    error.message[0] = '\0';
    cr_assert_eq(ArrowSchemaViewInit(&view, &schema, &error), NANOARROW_OK, "%s: %s",
                 kFormats[i].format, error.message);
    cr_assert_eq(view.schema, &schema);
    cr_assert_eq(view.type, kFormats[i].type, "%s", kFormats[i].format);
    cr_assert_eq(view.storage_type, kFormats[i].storage_type, "%s", kFormats[i].format);
    cr_assert_null(view.extension_name.data);

    struct ArrowSchema rebuilt;
    cr_assert_eq(RebuildFromView(&view, &rebuilt), NANOARROW_OK, "%s", kFormats[i].format);
    cr_assert_str_eq(rebuilt.format, kFormats[i].format);
    ArrowSchemaRelease(&rebuilt);
    ArrowSchemaRelease(&schema);
  }
}

/* Set* -> view: the parameters come back out. */
static void ViewOf(struct ArrowSchema* schema, struct ArrowSchemaView* view) {
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowSchemaViewInit(view, schema, &error), NANOARROW_OK, "%s: %s",
               schema->format, error.message);
}

Test(schema_view, built_parameterless_types_view_back) {
  for (size_t i = 0; i < N_FORMATS; i++) {
    enum ArrowType type = kFormats[i].type;
    struct ArrowSchema schema;
    if (ArrowSchemaInitFromType(&schema, type) != NANOARROW_OK) {
      continue; /* needs parameters: covered below */
    }
    struct ArrowSchema* child = schema.n_children == 1 ? schema.children[0] : NULL;
    if (type == NANOARROW_TYPE_MAP) {
      cr_assert_eq(ArrowSchemaSetType(child->children[0], NANOARROW_TYPE_STRING),
                   NANOARROW_OK);
      cr_assert_eq(ArrowSchemaSetType(child->children[1], NANOARROW_TYPE_INT32),
                   NANOARROW_OK);
    } else if (child != NULL) {
      cr_assert_eq(ArrowSchemaSetType(child, NANOARROW_TYPE_INT32), NANOARROW_OK);
    }

    struct ArrowSchemaView view;
    ViewOf(&schema, &view);
    cr_assert_eq(view.type, type, "%s", schema.format);
    cr_assert_eq(view.storage_type, kFormats[i].storage_type, "%s", schema.format);
    ArrowSchemaRelease(&schema);
  }
}

Test(schema_view, built_parameterized_types_view_back) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_BINARY, 12),
               NANOARROW_OK);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_FIXED_SIZE_BINARY);
  cr_assert_eq(view.fixed_size, 12);
  cr_assert_eq(view.layout.element_size_bits[1], 96);
  ArrowSchemaRelease(&schema);

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(&schema, NANOARROW_TYPE_FIXED_SIZE_LIST, 5),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT8), NANOARROW_OK);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_FIXED_SIZE_LIST);
  cr_assert_eq(view.fixed_size, 5);
  cr_assert_eq(view.layout.child_size_elements, 5);
  ArrowSchemaRelease(&schema);

  const struct {
    enum ArrowType type;
    int32_t bitwidth;
  } decimals[] = {{NANOARROW_TYPE_DECIMAL32, 32},
                  {NANOARROW_TYPE_DECIMAL64, 64},
                  {NANOARROW_TYPE_DECIMAL128, 128},
                  {NANOARROW_TYPE_DECIMAL256, 256}};
  for (int i = 0; i < 4; i++) {
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaSetTypeDecimal(&schema, decimals[i].type, 7, -4), NANOARROW_OK);
    ViewOf(&schema, &view);
    cr_assert_eq(view.type, decimals[i].type);
    cr_assert_eq(view.storage_type, decimals[i].type);
    cr_assert_eq(view.decimal_bitwidth, decimals[i].bitwidth);
    cr_assert_eq(view.decimal_precision, 7);
    cr_assert_eq(view.decimal_scale, -4);
    cr_assert_eq(view.layout.element_size_bits[1], decimals[i].bitwidth);
    ArrowSchemaRelease(&schema);
  }

  const struct {
    enum ArrowType type;
    enum ArrowTimeUnit unit;
    const char* timezone;
    enum ArrowType storage_type;
  } times[] = {
      {NANOARROW_TYPE_TIME32, NANOARROW_TIME_UNIT_SECOND, NULL, NANOARROW_TYPE_INT32},
      {NANOARROW_TYPE_TIME32, NANOARROW_TIME_UNIT_MILLI, NULL, NANOARROW_TYPE_INT32},
      {NANOARROW_TYPE_TIME64, NANOARROW_TIME_UNIT_MICRO, NULL, NANOARROW_TYPE_INT64},
      {NANOARROW_TYPE_TIME64, NANOARROW_TIME_UNIT_NANO, NULL, NANOARROW_TYPE_INT64},
      {NANOARROW_TYPE_DURATION, NANOARROW_TIME_UNIT_SECOND, NULL, NANOARROW_TYPE_INT64},
      {NANOARROW_TYPE_DURATION, NANOARROW_TIME_UNIT_NANO, NULL, NANOARROW_TYPE_INT64},
      {NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_MILLI, NULL, NANOARROW_TYPE_INT64},
      {NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_MICRO, "Europe/Paris",
       NANOARROW_TYPE_INT64},
  };
  for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
    ArrowSchemaInit(&schema);
    cr_assert_eq(
        ArrowSchemaSetTypeDateTime(&schema, times[i].type, times[i].unit, times[i].timezone),
        NANOARROW_OK);
    ViewOf(&schema, &view);
    cr_assert_eq(view.type, times[i].type);
    cr_assert_eq(view.storage_type, times[i].storage_type);
    cr_assert_eq(view.time_unit, times[i].unit);
    if (times[i].type != NANOARROW_TYPE_TIMESTAMP) {
      cr_assert_null(view.timezone);
    } else if (times[i].timezone == NULL) {
      cr_assert_str_eq(view.timezone, "", "a timestamp without zone reports \"\"");
    } else {
      cr_assert_str_eq(view.timezone, times[i].timezone);
    }
    ArrowSchemaRelease(&schema);
  }

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeUnion(&schema, NANOARROW_TYPE_SPARSE_UNION, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_SPARSE_UNION);
  cr_assert_str_eq(view.union_type_ids, "0,1");
  ArrowSchemaRelease(&schema);

  const enum ArrowType run_end_types[] = {NANOARROW_TYPE_INT16, NANOARROW_TYPE_INT32,
                                          NANOARROW_TYPE_INT64};
  for (int i = 0; i < 3; i++) {
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaSetTypeRunEndEncoded(&schema, run_end_types[i]), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_DOUBLE), NANOARROW_OK);
    ViewOf(&schema, &view);
    cr_assert_eq(view.type, NANOARROW_TYPE_RUN_END_ENCODED);
    struct ArrowSchemaView run_ends_view;
    ViewOf(schema.children[0], &run_ends_view);
    cr_assert_eq(run_ends_view.type, run_end_types[i]);
    ArrowSchemaRelease(&schema);
  }
}

Test(schema_view, layout_is_filled) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  ViewOf(&schema, &view);
  cr_assert_eq(view.layout.buffer_type[0], NANOARROW_BUFFER_TYPE_VALIDITY);
  cr_assert_eq(view.layout.buffer_type[1], NANOARROW_BUFFER_TYPE_DATA);
  cr_assert_eq(view.layout.element_size_bits[1], 32);
  ArrowSchemaRelease(&schema);

  MakeSchema(&schema, "tdm", 0);
  ViewOf(&schema, &view);
  cr_assert_eq(view.layout.element_size_bits[1], 64, "date64 is stored as int64");
  ArrowSchemaRelease(&schema);
}

Test(schema_view, timestamp_timezone_points_into_format) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  MakeSchema(&schema, "tsn:Asia/Tokyo", 0);
  ViewOf(&schema, &view);
  cr_assert_eq(view.time_unit, NANOARROW_TIME_UNIT_NANO);
  cr_assert_eq(view.timezone, schema.format + 4);
  cr_assert_str_eq(view.timezone, "Asia/Tokyo");
  ArrowSchemaRelease(&schema);

  MakeSchema(&schema, "tss:", 0);
  ViewOf(&schema, &view);
  cr_assert_eq(view.time_unit, NANOARROW_TIME_UNIT_SECOND);
  cr_assert_str_eq(view.timezone, "", "an empty time zone is reported as \"\"");
  ArrowSchemaRelease(&schema);
}

Test(schema_view, union_type_ids_any_order) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  MakeSchema(&schema, "+ud:127,5,0", 3);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_DENSE_UNION);
  cr_assert_eq(view.union_type_ids, schema.format + 4);
  cr_assert_str_eq(view.union_type_ids, "127,5,0");
  ArrowSchemaRelease(&schema);
}

Test(schema_view, fixed_size_list_of_zero_is_legal) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  MakeSchema(&schema, "+w:0", 0);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_FIXED_SIZE_LIST);
  cr_assert_eq(view.fixed_size, 0);
  cr_assert_eq(view.layout.child_size_elements, 0);
  ArrowSchemaRelease(&schema);
}

Test(schema_view, decimal_explicit_128_bitwidth) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  MakeSchema(&schema, "d:38,0,128", 0);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_DECIMAL128);
  cr_assert_eq(view.decimal_bitwidth, 128);
  cr_assert_eq(view.decimal_precision, 38);
  ArrowSchemaRelease(&schema);
}

/* A scale is any int32, the most negative one included. */
Test(schema_view, decimal_scale_spans_int32) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  MakeSchema(&schema, "d:9,-2147483648,32", 0);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_DECIMAL32);
  cr_assert_eq(view.decimal_scale, INT32_MIN);
  ArrowSchemaRelease(&schema);
  MakeSchema(&schema, "d:38,2147483647", 0);
  ViewOf(&schema, &view);
  cr_assert_eq(view.decimal_scale, INT32_MAX);
  ArrowSchemaRelease(&schema);
}

/* ---- Malformed format strings ---- */

static const char* kMalformed[] = {
    /* empty and unknown */
    "", "q", "+q", "a", "+", "v", "vx", "+v", "+vx",
    /* trailing garbage */
    "i32", "nn", "uu", "tdDx", "ttsx", "tDsx", "tiMx", "+lx", "+sx", "+mx", "+rx",
    "+vlx", "+w:3x", "w:12abc", "d:10,2x", "d:10,2,128x", "+ud:0x", "+us:0 ",
    /* fixed-size binary */
    "w", "w:", "w:-1", "w:0", "w:x", "w:+3", "w:2147483648", "w:99999999999999999999",
    "w 4",
    /* fixed-size list */
    "+w", "+w:", "+w:-1", "+w:x", "+w:2147483648",
    /* decimals */
    "d", "d:", "d:99", "d:1,2,3", "d:,2", "d:1,", "d:1,2,", "d:1;2", "d:10,2,0",
    "d:10,2,-128", "d:10,2,512", "d:0,0", "d:-1,0", "d:39,0", "d:39,0,128", "d:10,2,32",
    "d:19,2,64", "d:77,2,256", "d:2147483648,0", "d:10,2147483648", "d:10,-2147483649", "d:10,-",
    /* temporal */
    "t", "tX", "td", "tdx", "tt", "ttx", "ts", "tsx", "tsu", "tsuUTC", "tD", "tDx", "ti",
    "tiX",
    /* unions */
    "+u", "+ux", "+ud", "+us", "+ud0", "+ud:1,", "+ud:,1", "+ud:1,,2", "+ud:128", "+ud:-1",
    "+ud:1,1", "+ud:a", "+us:0,1,0", "+ud:99999999999",
};

Test(schema_view, malformed_formats_fail_naming_the_format) {
  for (size_t i = 0; i < sizeof(kMalformed) / sizeof(kMalformed[0]); i++) {
    struct ArrowSchema schema;
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaSetFormat(&schema, kMalformed[i]), NANOARROW_OK);

    struct ArrowSchemaView view;
    struct ArrowError error;
    error.message[0] = '\0';
    cr_assert_eq(ArrowSchemaViewInit(&view, &schema, &error), EINVAL, "'%s' was accepted",
                 kMalformed[i]);

    char quoted[64];
    snprintf(quoted, sizeof(quoted), "'%s'", kMalformed[i]);
    cr_assert_not_null(strstr(error.message, quoted), "message for '%s' was: %s",
                       kMalformed[i], error.message);
    ArrowSchemaRelease(&schema);
  }
}

Test(schema_view, error_pointer_may_be_null) {
  struct ArrowSchema schema;
  MakeSchema(&schema, "w:0", 0);
  struct ArrowSchemaView view;
  cr_assert_eq(ArrowSchemaViewInit(&view, &schema, NULL), EINVAL);
  ArrowSchemaRelease(&schema);
}

/* ---- Invalid schema structure ---- */

static void AssertInvalid(const struct ArrowSchema* schema, const char* message_part) {
  struct ArrowSchemaView view;
  struct ArrowError error;
  error.message[0] = '\0';
  cr_assert_eq(ArrowSchemaViewInit(&view, schema, &error), EINVAL);
  cr_assert_not_null(strstr(error.message, message_part), "expected '%s' in: %s",
                     message_part, error.message);
}

Test(schema_view, null_released_and_formatless_schemas) {
  AssertInvalid(NULL, "NULL");

  struct ArrowSchema schema;
  ArrowSchemaInit(&schema);
  AssertInvalid(&schema, "schema->format");
  ArrowSchemaRelease(&schema);
  AssertInvalid(&schema, "released");
}

Test(schema_view, wrong_child_counts) {
  struct ArrowSchema schema;

  /* A list without its child. */
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+l"), NANOARROW_OK);
  AssertInvalid(&schema, "'+l' to have 1 children but found 0");
  ArrowSchemaRelease(&schema);

  /* A fixed-size list with two children. */
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+w:2"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "i"), NANOARROW_OK);
  AssertInvalid(&schema, "found 2");
  ArrowSchemaRelease(&schema);

  /* A primitive with a child. */
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "i"), NANOARROW_OK);
  AssertInvalid(&schema, "'i' to have 0 children but found 1");
  ArrowSchemaRelease(&schema);

  /* Union id count differs from the number of children. */
  MakeSchema(&schema, "+ud:0,1", 3);
  AssertInvalid(&schema, "'+ud:0,1' to have 2 children but found 3");
  ArrowSchemaRelease(&schema);
  MakeSchema(&schema, "+us:", 1);
  AssertInvalid(&schema, "to have 0 children");
  ArrowSchemaRelease(&schema);

  /* Run-end encoded with a single child. */
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+r"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "i"), NANOARROW_OK);
  AssertInvalid(&schema, "'+r' to have 2 children");
  ArrowSchemaRelease(&schema);
}

Test(schema_view, broken_children_pointers) {
  struct ArrowSchema schema;
  MakeSchema(&schema, "+s", 0);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 3), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(ArrowSchemaSetFormat(schema.children[i], "i"), NANOARROW_OK);
  }

  /* Released child. */
  struct ArrowSchema moved;
  ArrowSchemaMove(schema.children[2], &moved);
  AssertInvalid(&schema, "schema->children[2]");
  ArrowSchemaRelease(&moved);

  /* NULL child pointer. */
  struct ArrowSchema* saved = schema.children[1];
  schema.children[1] = NULL;
  AssertInvalid(&schema, "schema->children[1]");
  schema.children[1] = saved;

  /* NULL children array / negative count. */
  struct ArrowSchema** saved_children = schema.children;
  schema.children = NULL;
  AssertInvalid(&schema, "schema->children");
  schema.children = saved_children;
  int64_t saved_n = schema.n_children;
  schema.n_children = -1;
  AssertInvalid(&schema, "n_children");
  schema.n_children = saved_n;

  ArrowSchemaRelease(&schema);
}

Test(schema_view, malformed_maps) {
  struct ArrowSchema schema;

  /* Entries that are not a struct. */
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+m"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "+l"), NANOARROW_OK);
  AssertInvalid(&schema, "'+l'");
  ArrowSchemaRelease(&schema);

  /* Entries with a single child. */
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+m"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema.children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0]->children[0], "u"), NANOARROW_OK);
  AssertInvalid(&schema, "2 children but found 1");
  ArrowSchemaRelease(&schema);

  /* Entries child with no format at all. */
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+m"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  AssertInvalid(&schema, "(null)");
  ArrowSchemaRelease(&schema);

  /* Two children at the map level. */
  MakeSchema(&schema, "+m", 0);
  ArrowSchemaRelease(&schema);
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+m"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema.children[0], 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema.children[1], 2), NANOARROW_OK);
  AssertInvalid(&schema, "'+m' to have 1 children but found 2");
  ArrowSchemaRelease(&schema);
}

Test(schema_view, map_entries_and_keys_must_not_be_nullable) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;

  /* As built by ArrowSchemaSetType(): valid. */
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_MAP), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0]->children[0], NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0]->children[1], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_MAP);

  /* The value may be nullable (it is by default). */
  cr_assert(schema.children[0]->children[1]->flags & ARROW_FLAG_NULLABLE);

  /* Nullable entries. */
  schema.children[0]->flags |= ARROW_FLAG_NULLABLE;
  AssertInvalid(&schema, "map entries schema->children[0] to be non-nullable");
  schema.children[0]->flags &= ~ARROW_FLAG_NULLABLE;
  ViewOf(&schema, &view);

  /* Nullable key. */
  schema.children[0]->children[0]->flags |= ARROW_FLAG_NULLABLE;
  AssertInvalid(&schema, "map key schema->children[0]->children[0] to be non-nullable");
  schema.children[0]->children[0]->flags &= ~ARROW_FLAG_NULLABLE;
  ViewOf(&schema, &view);

  /* A released or missing key is reported, not dereferenced. */
  struct ArrowSchema moved;
  ArrowSchemaMove(schema.children[0]->children[0], &moved);
  AssertInvalid(&schema, "map key schema at schema->children[0]->children[0] but found a "
                         "released schema");
  ArrowSchemaMove(&moved, schema.children[0]->children[0]);
  struct ArrowSchema* saved = schema.children[0]->children[0];
  schema.children[0]->children[0] = NULL;
  AssertInvalid(&schema, "but found NULL");
  schema.children[0]->children[0] = saved;
  struct ArrowSchema** saved_children = schema.children[0]->children;
  schema.children[0]->children = NULL;
  AssertInvalid(&schema, "map key");
  schema.children[0]->children = saved_children;
  ViewOf(&schema, &view);
  ArrowSchemaRelease(&schema);

  /* Helper-built map (MakeSchema) is valid too. */
  MakeSchema(&schema, "+m", 0);
  ViewOf(&schema, &view);
  ArrowSchemaRelease(&schema);
}

/* ---- Flags ---- */

Test(schema_view, unknown_flags_are_rejected) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  MakeSchema(&schema, "i", 0);
  schema.flags = ARROW_FLAG_NULLABLE | 8;
  AssertInvalid(&schema, "unknown flag bits 0x8");
  schema.flags = (int64_t)1 << 40;
  AssertInvalid(&schema, "unknown flag bits 0x10000000000");
  schema.flags = -1;
  AssertInvalid(&schema, "unknown flag bits");
  schema.flags = 0;
  ViewOf(&schema, &view);
  schema.flags = ARROW_FLAG_NULLABLE;
  ViewOf(&schema, &view);
  ArrowSchemaRelease(&schema);
}

Test(schema_view, dictionary_ordered_needs_a_dictionary) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  MakeSchema(&schema, "i", 0);
  schema.flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  AssertInvalid(&schema, "ARROW_FLAG_DICTIONARY_ORDERED is set on a schema without a "
                         "dictionary (format 'i')");

  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  cr_assert_eq(ArrowSchemaSetType(schema.dictionary, NANOARROW_TYPE_STRING), NANOARROW_OK);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_DICTIONARY);

  /* On the dictionary (the values) it is misplaced. */
  schema.dictionary->flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  AssertInvalid(schema.dictionary, "ARROW_FLAG_DICTIONARY_ORDERED");
  ArrowSchemaRelease(&schema);
}

Test(schema_view, map_keys_sorted_only_on_maps) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  const char* not_maps[] = {"i", "+s", "+l", "u"};
  for (int i = 0; i < 4; i++) {
    MakeSchema(&schema, not_maps[i], 0);
    if (strcmp(not_maps[i], "+s") == 0) {
      cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
      for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
        ArrowSchemaInit((&schema)->children[child_i]);
      }
      cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "i"), NANOARROW_OK);
    }
    ViewOf(&schema, &view);
    schema.flags |= ARROW_FLAG_MAP_KEYS_SORTED;
    char expected[64];
    snprintf(expected, sizeof(expected), "not a map (format '%s')", not_maps[i]);
    AssertInvalid(&schema, expected);
    ArrowSchemaRelease(&schema);
  }

  MakeSchema(&schema, "+m", 0);
  schema.flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_MAP);
  ArrowSchemaRelease(&schema);

  /* A map extension type keeps the flag. */
  MakeSchema(&schema, "+m", 0);
  schema.flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  struct ArrowBuffer metadata;
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("ARROW:extension:name"),
                                          ArrowCharView("my.map")),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetMetadata(&schema, (const char*)metadata.data), NANOARROW_OK);
  ArrowBufferReset(&metadata);
  ViewOf(&schema, &view);
  ArrowSchemaRelease(&schema);

  /* Dictionary-encoded map: the flag belongs on the dictionary, not the indices. */
  MakeSchema(&schema, "i", 0);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  cr_assert_eq(ArrowSchemaSetType(schema.dictionary, NANOARROW_TYPE_MAP), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.dictionary->children[0]->children[0],
                                  NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.dictionary->children[0]->children[1],
                                  NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  schema.dictionary->flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  ViewOf(&schema, &view);
  ViewOf(schema.dictionary, &view);
  schema.flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  AssertInvalid(&schema, "not a map (format 'i')");
  ArrowSchemaRelease(&schema);
}

Test(schema_view, every_einval_sets_a_message) {
  /* A sample of invalid schemas of each kind: the view must never return EINVAL with
   * the message left empty. */
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  struct ArrowError error;
  const char* formats[] = {"",    "x",    "+",    "+w",      "+w:-1", "d:1",  "d:1,2,3",
                           "tsx", "ts",   "+ud:", "+ud:1,1", "w:0",   "tdX",  "vx",
                           "ii",  "tiX",  "+vX",  "+uX",     "d:99,1"};
  for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
    MakeSchema(&schema, formats[i], 1);
    memset(error.message, 0, sizeof(error.message));
    ArrowErrorCode code = ArrowSchemaViewInit(&view, &schema, &error);
    if (code != NANOARROW_OK) {
      cr_assert_eq(code, EINVAL);
      cr_assert_neq(error.message[0], '\0', "no message for format '%s'", formats[i]);
    }
    ArrowSchemaRelease(&schema);
  }
  memset(error.message, 0, sizeof(error.message));
  cr_assert_eq(ArrowSchemaViewInit(NULL, NULL, &error), EINVAL);
  cr_assert_neq(error.message[0], '\0');
}

Test(schema_view, run_ends_must_be_signed_16_32_64) {
  const char* bad[] = {"c", "I", "L", "f", "u"};
  for (int i = 0; i < 5; i++) {
    struct ArrowSchema schema;
    MakeSchema(&schema, "+r", 0);
    cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], bad[i]), NANOARROW_OK);
    char quoted[8];
    snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
    AssertInvalid(&schema, quoted);
    ArrowSchemaRelease(&schema);
  }

  const char* good[] = {"s", "i", "l"};
  for (int i = 0; i < 3; i++) {
    struct ArrowSchema schema;
    struct ArrowSchemaView view;
    MakeSchema(&schema, "+r", 0);
    cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], good[i]), NANOARROW_OK);
    ViewOf(&schema, &view);
    ArrowSchemaRelease(&schema);
  }
}

/* ---- Dictionaries ---- */

Test(schema_view, dictionary_index_types) {
  const struct TypeCase {
    const char* format;
    enum ArrowType index_type;
    int64_t bits;
  } indices[] = {{"c", NANOARROW_TYPE_INT8, 8},     {"C", NANOARROW_TYPE_UINT8, 8},
                 {"s", NANOARROW_TYPE_INT16, 16},   {"S", NANOARROW_TYPE_UINT16, 16},
                 {"i", NANOARROW_TYPE_INT32, 32},   {"I", NANOARROW_TYPE_UINT32, 32},
                 {"l", NANOARROW_TYPE_INT64, 64},   {"L", NANOARROW_TYPE_UINT64, 64}};
  for (int i = 0; i < 8; i++) {
    struct ArrowSchema schema;
    struct ArrowSchemaView view;
    MakeSchema(&schema, indices[i].format, 0);
    cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
    ArrowSchemaInit((&schema)->dictionary);
    cr_assert_eq(ArrowSchemaSetType(schema.dictionary, NANOARROW_TYPE_STRING), NANOARROW_OK);
    ViewOf(&schema, &view);
    cr_assert_eq(view.type, NANOARROW_TYPE_DICTIONARY);
    cr_assert_eq(view.storage_type, indices[i].index_type);
    cr_assert_eq(view.layout.element_size_bits[1], indices[i].bits);
    ArrowSchemaRelease(&schema);
  }
}

Test(schema_view, dictionary_errors) {
  const char* bad_indices[] = {"u", "g", "b", "tdD", "+s", "d:10,2"};
  for (int i = 0; i < 6; i++) {
    struct ArrowSchema schema;
    MakeSchema(&schema, bad_indices[i], 0);
    cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
    ArrowSchemaInit((&schema)->dictionary);
    cr_assert_eq(ArrowSchemaSetType(schema.dictionary, NANOARROW_TYPE_STRING), NANOARROW_OK);
    char quoted[16];
    snprintf(quoted, sizeof(quoted), "'%s'", bad_indices[i]);
    AssertInvalid(&schema, quoted);
    ArrowSchemaRelease(&schema);
  }

  struct ArrowSchema schema;
  MakeSchema(&schema, "i", 0);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  /* Allocated but never given a type. */
  AssertInvalid(&schema, "Expected schema->dictionary to have a format but found NULL");
  struct ArrowSchema moved;
  ArrowSchemaMove(schema.dictionary, &moved);
  AssertInvalid(&schema, "dictionary");
  ArrowSchemaRelease(&moved);
  ArrowSchemaRelease(&schema);
}

/* ---- Extension types ---- */

static void SetMetadataPairs(struct ArrowSchema* schema, int n, const char** keys,
                             const char** values) {
  struct ArrowBuffer buffer;
  cr_assert_eq(ArrowMetadataBuilderInit(&buffer, NULL), NANOARROW_OK);
  for (int i = 0; i < n; i++) {
    cr_assert_eq(
        ArrowMetadataBuilderAppend(&buffer, ArrowCharView(keys[i]), ArrowCharView(values[i])),
        NANOARROW_OK);
  }
  cr_assert_eq(ArrowSchemaSetMetadata(schema, (const char*)buffer.data), NANOARROW_OK);
  ArrowBufferReset(&buffer);
}

static int ViewEquals(struct ArrowStringView view, const char* expected) {
  return view.data != NULL && view.size_bytes == (int64_t)strlen(expected) &&
         memcmp(view.data, expected, (size_t)view.size_bytes) == 0;
}

Test(schema_view, extension_type) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  MakeSchema(&schema, "w:16", 0);
  const char* keys[] = {"other", "ARROW:extension:name", "ARROW:extension:metadata"};
  const char* values[] = {"x", "arrow.uuid", "{\"v\":1}"};
  SetMetadataPairs(&schema, 3, keys, values);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_FIXED_SIZE_BINARY, "the type is the storage type");
  cr_assert_eq(view.storage_type, NANOARROW_TYPE_FIXED_SIZE_BINARY);
  cr_assert_eq(view.fixed_size, 16);
  cr_assert(ViewEquals(view.extension_name, "arrow.uuid"));
  cr_assert(ViewEquals(view.extension_metadata, "{\"v\":1}"));
  ArrowSchemaRelease(&schema);

  /* Name without metadata. */
  MakeSchema(&schema, "u", 0);
  SetMetadataPairs(&schema, 1, keys + 1, values + 1);
  ViewOf(&schema, &view);
  cr_assert(ViewEquals(view.extension_name, "arrow.uuid"));
  cr_assert_null(view.extension_metadata.data);
  ArrowSchemaRelease(&schema);

  /* Unrelated metadata only. */
  MakeSchema(&schema, "u", 0);
  SetMetadataPairs(&schema, 1, keys, values);
  ViewOf(&schema, &view);
  cr_assert_null(view.extension_name.data);
  cr_assert_null(view.extension_metadata.data);
  ArrowSchemaRelease(&schema);

  /* Key that is a prefix of the real one does not count. */
  MakeSchema(&schema, "u", 0);
  const char* prefix_key[] = {"ARROW:extension:nam"};
  SetMetadataPairs(&schema, 1, prefix_key, values + 1);
  ViewOf(&schema, &view);
  cr_assert_null(view.extension_name.data);
  ArrowSchemaRelease(&schema);
}

Test(schema_view, extension_on_dictionary) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  MakeSchema(&schema, "i", 0);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  cr_assert_eq(ArrowSchemaSetType(schema.dictionary, NANOARROW_TYPE_STRING), NANOARROW_OK);
  const char* keys[] = {"ARROW:extension:name"};
  const char* values[] = {"my.enum"};
  SetMetadataPairs(&schema, 1, keys, values);
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_DICTIONARY);
  cr_assert_eq(view.storage_type, NANOARROW_TYPE_INT32);
  cr_assert(ViewEquals(view.extension_name, "my.enum"));
  ArrowSchemaRelease(&schema);
}

/* A schema whose metadata pointer we set by hand (a foreign producer's blob). */
static void ForeignRelease(struct ArrowSchema* schema) { schema->release = NULL; }

Test(schema_view, hostile_metadata) {
  char blob[16];
  int32_t values[] = {1, -7};
  memcpy(blob, &values[0], 4);
  memcpy(blob + 4, &values[1], 4);

  struct ArrowSchema schema;
  memset(&schema, 0, sizeof(schema));
  schema.format = "i";
  schema.metadata = blob;
  schema.release = &ForeignRelease;
  AssertInvalid(&schema, "schema->metadata");

  int32_t negative_count = -1;
  memcpy(blob, &negative_count, 4);
  AssertInvalid(&schema, "schema->metadata");
}

/* ---- Nesting ---- */

/* Views every node of a tree; returns the number of nodes. */
static int64_t ViewTree(const struct ArrowSchema* schema, int depth) {
  cr_assert_lt(depth, NANOARROW_MAX_NESTING_DEPTH);
  struct ArrowSchemaView view;
  struct ArrowError error;
  cr_assert_eq(ArrowSchemaViewInit(&view, schema, &error), NANOARROW_OK, "%s",
               error.message);
  int64_t n_nodes = 1;
  for (int64_t i = 0; i < schema->n_children; i++) {
    n_nodes += ViewTree(schema->children[i], depth + 1);
  }
  if (schema->dictionary != NULL) {
    n_nodes += ViewTree(schema->dictionary, depth + 1);
  }
  return n_nodes;
}

Test(schema_view, nested_tree) {
  /* struct<a: list<map<string, dictionary(int8)<string>>>, b: +w:2<decimal128>> */
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }

  struct ArrowSchema* list = schema.children[0];
  cr_assert_eq(ArrowSchemaSetType(list, NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(list, "a"), NANOARROW_OK);
  struct ArrowSchema* map = list->children[0];
  cr_assert_eq(ArrowSchemaSetType(map, NANOARROW_TYPE_MAP), NANOARROW_OK);
  struct ArrowSchema* entries = map->children[0];
  cr_assert_eq(ArrowSchemaSetType(entries->children[0], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(entries->children[1], NANOARROW_TYPE_INT8), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(entries->children[1]), NANOARROW_OK);
  ArrowSchemaInit((entries->children[1])->dictionary);
  cr_assert_eq(ArrowSchemaSetType(entries->children[1]->dictionary, NANOARROW_TYPE_STRING),
               NANOARROW_OK);

  struct ArrowSchema* fixed = schema.children[1];
  cr_assert_eq(ArrowSchemaSetTypeFixedSize(fixed, NANOARROW_TYPE_FIXED_SIZE_LIST, 2),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(fixed, "b"), NANOARROW_OK);
  cr_assert_eq(
      ArrowSchemaSetTypeDecimal(fixed->children[0], NANOARROW_TYPE_DECIMAL128, 20, 4),
      NANOARROW_OK);

  cr_assert_eq(ViewTree(&schema, 0), 9);

  char out[256];
  ArrowSchemaToString(&schema, out, sizeof(out), 1);
  cr_assert_str_eq(out,
                   "struct<a: list<item: map<entries: struct<key: string, value: "
                   "dictionary(int8)<string>>>>, b: fixed_size_list(2)<item: "
                   "decimal128(20, 4)>>");
  ArrowSchemaRelease(&schema);
}

Test(schema_view, wide_struct_view) {
  struct ArrowSchema schema;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 10000), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  for (int64_t i = 0; i < 10000; i++) {
    cr_assert_eq(ArrowSchemaSetType(schema.children[i], NANOARROW_TYPE_DOUBLE), NANOARROW_OK);
  }
  struct ArrowSchemaView view;
  ViewOf(&schema, &view);
  cr_assert_eq(view.type, NANOARROW_TYPE_STRUCT);
  cr_assert_eq(ViewTree(&schema, 0), 10001);

  /* The view checks one level: a bad grandchild format shows up in the child's view. */
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[9876], "x"), NANOARROW_OK);
  ViewOf(&schema, &view);
  AssertInvalid(schema.children[9876], "'x'");
  ArrowSchemaRelease(&schema);
}

/* ArrowSchemaViewInit() writes the view of a plain one-character fixed-width field
 * directly; the same field with metadata (an unrelated key) takes the full parse.
 * Both must produce the same view, field by field, and the same layout as
 * ArrowLayoutInit(). */
Test(schema_view, plain_fixed_width_fields_view_as_the_full_parse_does) {
  const char* formats[] = {"b", "c", "C", "s", "S", "e", "i", "I", "f", "l", "L", "g"};
  struct ArrowBuffer metadata;
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("some key"),
                                          ArrowCharView("some value")),
               NANOARROW_OK);
  for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
    for (int64_t flags = 0; flags <= ARROW_FLAG_NULLABLE; flags += ARROW_FLAG_NULLABLE) {
      struct ArrowSchema plain;
      struct ArrowSchema with_metadata;
      struct ArrowSchemaView fast;
      struct ArrowSchemaView full;
      struct ArrowLayout layout;
      struct ArrowError error;
      ArrowSchemaInit(&plain);
      ArrowSchemaInit(&with_metadata);
      cr_assert_eq(ArrowSchemaSetFormat(&plain, formats[i]), NANOARROW_OK);
      cr_assert_eq(ArrowSchemaSetFormat(&with_metadata, formats[i]), NANOARROW_OK);
      cr_assert_eq(ArrowSchemaSetMetadata(&with_metadata, (const char*)metadata.data),
                   NANOARROW_OK);
      plain.flags = flags;
      with_metadata.flags = flags;
      memset(&fast, 0xAB, sizeof(fast));
      memset(&full, 0xCD, sizeof(full));
      cr_assert_eq(ArrowSchemaViewInit(&fast, &plain, &error), NANOARROW_OK, "%s",
                   error.message);
      cr_assert_eq(ArrowSchemaViewInit(&full, &with_metadata, &error), NANOARROW_OK, "%s",
                   error.message);
      cr_assert_eq(fast.schema, &plain);
      cr_assert_eq(fast.type, full.type, "format %s", formats[i]);
      cr_assert_eq(fast.storage_type, full.storage_type, "format %s", formats[i]);
      cr_assert_eq(memcmp(&fast.layout, &full.layout, sizeof(fast.layout)), 0, "format %s",
                   formats[i]);
      ArrowLayoutInit(&layout, fast.storage_type);
      cr_assert_eq(memcmp(&fast.layout, &layout, sizeof(layout)), 0, "format %s",
                   formats[i]);
      cr_assert_eq(fast.extension_name.data, NULL);
      cr_assert_eq(fast.extension_name.size_bytes, 0);
      cr_assert_eq(fast.extension_metadata.data, NULL);
      cr_assert_eq(fast.extension_metadata.size_bytes, 0);
      cr_assert_eq(fast.fixed_size, full.fixed_size);
      cr_assert_eq(fast.decimal_bitwidth, full.decimal_bitwidth);
      cr_assert_eq(fast.decimal_precision, full.decimal_precision);
      cr_assert_eq(fast.decimal_scale, full.decimal_scale);
      cr_assert_eq(fast.time_unit, full.time_unit);
      cr_assert_eq(fast.timezone, full.timezone);
      cr_assert_eq(fast.union_type_ids, full.union_type_ids);
      ArrowSchemaRelease(&plain);
      ArrowSchemaRelease(&with_metadata);
    }
  }
  ArrowBufferReset(&metadata);
}

/* A one-character format with children, a dictionary of the wrong kind or a flag it
 * may not carry is still refused (the direct path leaves those to the full parse). */
Test(schema_view, plain_fixed_width_fields_still_check_flags_and_children) {
  struct ArrowSchema schema;
  struct ArrowSchemaView view;
  struct ArrowError error;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "i"), NANOARROW_OK);
  schema.flags = ARROW_FLAG_MAP_KEYS_SORTED;
  cr_assert_eq(ArrowSchemaViewInit(&view, &schema, &error), EINVAL);
  schema.flags = ARROW_FLAG_DICTIONARY_ORDERED;
  cr_assert_eq(ArrowSchemaViewInit(&view, &schema, &error), EINVAL);
  schema.flags = ARROW_FLAG_NULLABLE;
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 1), NANOARROW_OK);
  ArrowSchemaInit(schema.children[0]);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaViewInit(&view, &schema, &error), EINVAL);
  ArrowSchemaRelease(&schema);
}
