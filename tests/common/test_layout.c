/* ArrowLayoutInit: buffer types, data types and element sizes per storage type. */

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

static void expect_buffer(const struct ArrowLayout* layout, int i,
                          enum ArrowBufferType buffer_type, enum ArrowType data_type,
                          int64_t element_size_bits) {
  cr_assert_eq(layout->buffer_type[i], buffer_type, "buffer %d type", i);
  cr_assert_eq(layout->buffer_data_type[i], data_type, "buffer %d data type", i);
  cr_assert_eq(layout->element_size_bits[i], element_size_bits, "buffer %d bits", i);
}

static void expect_none(const struct ArrowLayout* layout, int i) {
  expect_buffer(layout, i, NANOARROW_BUFFER_TYPE_NONE, NANOARROW_TYPE_UNINITIALIZED, 0);
}

static void expect_validity(const struct ArrowLayout* layout) {
  expect_buffer(layout, 0, NANOARROW_BUFFER_TYPE_VALIDITY, NANOARROW_TYPE_BOOL, 1);
}

/* Validity + one fixed-width data buffer. */
static void expect_fixed_width(enum ArrowType type, enum ArrowType data_type,
                               int64_t bits) {
  struct ArrowLayout layout;
  ArrowLayoutInit(&layout, type);
  expect_validity(&layout);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA, data_type, bits);
  expect_none(&layout, 2);
  cr_assert_eq(layout.child_size_elements, 0);
}

Test(layout, primitives) {
  expect_fixed_width(NANOARROW_TYPE_BOOL, NANOARROW_TYPE_BOOL, 1);
  expect_fixed_width(NANOARROW_TYPE_INT8, NANOARROW_TYPE_INT8, 8);
  expect_fixed_width(NANOARROW_TYPE_UINT8, NANOARROW_TYPE_UINT8, 8);
  expect_fixed_width(NANOARROW_TYPE_INT16, NANOARROW_TYPE_INT16, 16);
  expect_fixed_width(NANOARROW_TYPE_UINT16, NANOARROW_TYPE_UINT16, 16);
  expect_fixed_width(NANOARROW_TYPE_INT32, NANOARROW_TYPE_INT32, 32);
  expect_fixed_width(NANOARROW_TYPE_UINT32, NANOARROW_TYPE_UINT32, 32);
  expect_fixed_width(NANOARROW_TYPE_INT64, NANOARROW_TYPE_INT64, 64);
  expect_fixed_width(NANOARROW_TYPE_UINT64, NANOARROW_TYPE_UINT64, 64);
  expect_fixed_width(NANOARROW_TYPE_HALF_FLOAT, NANOARROW_TYPE_HALF_FLOAT, 16);
  expect_fixed_width(NANOARROW_TYPE_FLOAT, NANOARROW_TYPE_FLOAT, 32);
  expect_fixed_width(NANOARROW_TYPE_DOUBLE, NANOARROW_TYPE_DOUBLE, 64);
}

Test(layout, decimals_and_intervals) {
  expect_fixed_width(NANOARROW_TYPE_DECIMAL32, NANOARROW_TYPE_DECIMAL32, 32);
  expect_fixed_width(NANOARROW_TYPE_DECIMAL64, NANOARROW_TYPE_DECIMAL64, 64);
  expect_fixed_width(NANOARROW_TYPE_DECIMAL128, NANOARROW_TYPE_DECIMAL128, 128);
  expect_fixed_width(NANOARROW_TYPE_DECIMAL256, NANOARROW_TYPE_DECIMAL256, 256);
  /* The storage type of the data buffer, as nanoarrow gives it. */
  expect_fixed_width(NANOARROW_TYPE_INTERVAL_MONTHS, NANOARROW_TYPE_INT32, 32);
  expect_fixed_width(NANOARROW_TYPE_INTERVAL_DAY_TIME, NANOARROW_TYPE_INTERVAL_DAY_TIME,
                     64);
  expect_fixed_width(NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO,
                     NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO, 128);
}

Test(layout, temporal_types_use_int_storage) {
  expect_fixed_width(NANOARROW_TYPE_DATE32, NANOARROW_TYPE_INT32, 32);
  expect_fixed_width(NANOARROW_TYPE_TIME32, NANOARROW_TYPE_INT32, 32);
  expect_fixed_width(NANOARROW_TYPE_DATE64, NANOARROW_TYPE_INT64, 64);
  expect_fixed_width(NANOARROW_TYPE_TIME64, NANOARROW_TYPE_INT64, 64);
  expect_fixed_width(NANOARROW_TYPE_TIMESTAMP, NANOARROW_TYPE_INT64, 64);
  expect_fixed_width(NANOARROW_TYPE_DURATION, NANOARROW_TYPE_INT64, 64);
}

Test(layout, fixed_size_binary_width_comes_later) {
  expect_fixed_width(NANOARROW_TYPE_FIXED_SIZE_BINARY, NANOARROW_TYPE_BINARY, 0);
}

Test(layout, variable_length_binary) {
  struct ArrowLayout layout;
  ArrowLayoutInit(&layout, NANOARROW_TYPE_STRING);
  expect_validity(&layout);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET, NANOARROW_TYPE_INT32, 32);
  expect_buffer(&layout, 2, NANOARROW_BUFFER_TYPE_DATA, NANOARROW_TYPE_STRING, 0);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_BINARY);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET, NANOARROW_TYPE_INT32, 32);
  expect_buffer(&layout, 2, NANOARROW_BUFFER_TYPE_DATA, NANOARROW_TYPE_BINARY, 0);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_LARGE_STRING);
  expect_validity(&layout);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET, NANOARROW_TYPE_INT64, 64);
  expect_buffer(&layout, 2, NANOARROW_BUFFER_TYPE_DATA, NANOARROW_TYPE_STRING, 0);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_LARGE_BINARY);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET, NANOARROW_TYPE_INT64, 64);
  expect_buffer(&layout, 2, NANOARROW_BUFFER_TYPE_DATA, NANOARROW_TYPE_BINARY, 0);
}

Test(layout, binary_views) {
  struct ArrowLayout layout;
  ArrowLayoutInit(&layout, NANOARROW_TYPE_STRING_VIEW);
  expect_validity(&layout);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA, NANOARROW_TYPE_STRING_VIEW, 128);
  expect_none(&layout, 2);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_BINARY_VIEW);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA, NANOARROW_TYPE_BINARY_VIEW, 128);
  expect_none(&layout, 2);
}

Test(layout, lists) {
  struct ArrowLayout layout;
  ArrowLayoutInit(&layout, NANOARROW_TYPE_LIST);
  expect_validity(&layout);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET, NANOARROW_TYPE_INT32, 32);
  expect_none(&layout, 2);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_MAP);
  expect_validity(&layout);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET, NANOARROW_TYPE_INT32, 32);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_LARGE_LIST);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_DATA_OFFSET, NANOARROW_TYPE_INT64, 64);
  expect_none(&layout, 2);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_LIST_VIEW);
  expect_validity(&layout);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_VIEW_OFFSET, NANOARROW_TYPE_INT32, 32);
  expect_buffer(&layout, 2, NANOARROW_BUFFER_TYPE_SIZE, NANOARROW_TYPE_INT32, 32);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_LARGE_LIST_VIEW);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_VIEW_OFFSET, NANOARROW_TYPE_INT64, 64);
  expect_buffer(&layout, 2, NANOARROW_BUFFER_TYPE_SIZE, NANOARROW_TYPE_INT64, 64);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_FIXED_SIZE_LIST);
  expect_validity(&layout);
  expect_none(&layout, 1);
  expect_none(&layout, 2);
  cr_assert_eq(layout.child_size_elements, 0);
}

Test(layout, struct_has_only_validity) {
  struct ArrowLayout layout;
  ArrowLayoutInit(&layout, NANOARROW_TYPE_STRUCT);
  expect_validity(&layout);
  expect_none(&layout, 1);
  expect_none(&layout, 2);
}

Test(layout, unions_have_no_validity) {
  struct ArrowLayout layout;
  ArrowLayoutInit(&layout, NANOARROW_TYPE_SPARSE_UNION);
  expect_buffer(&layout, 0, NANOARROW_BUFFER_TYPE_TYPE_ID, NANOARROW_TYPE_INT8, 8);
  expect_none(&layout, 1);
  expect_none(&layout, 2);

  ArrowLayoutInit(&layout, NANOARROW_TYPE_DENSE_UNION);
  expect_buffer(&layout, 0, NANOARROW_BUFFER_TYPE_TYPE_ID, NANOARROW_TYPE_INT8, 8);
  expect_buffer(&layout, 1, NANOARROW_BUFFER_TYPE_UNION_OFFSET, NANOARROW_TYPE_INT32, 32);
  expect_none(&layout, 2);
}

Test(layout, no_buffers) {
  enum ArrowType types[] = {NANOARROW_TYPE_NA, NANOARROW_TYPE_RUN_END_ENCODED,
                            NANOARROW_TYPE_UNINITIALIZED};
  size_t t;
  int i;
  struct ArrowLayout layout;
  for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
    /* Garbage first: every slot must be overwritten. */
    memset(&layout, 0x5a, sizeof(layout));
    ArrowLayoutInit(&layout, types[t]);
    for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
      expect_none(&layout, i);
    }
    cr_assert_eq(layout.child_size_elements, 0);
  }
}

Test(layout, overwrites_previous_contents) {
  struct ArrowLayout layout;
  memset(&layout, 0x5a, sizeof(layout));
  ArrowLayoutInit(&layout, NANOARROW_TYPE_INT8);
  expect_none(&layout, 2);
  cr_assert_eq(layout.child_size_elements, 0);
}

/* Through a schema as through ArrowLayoutInit(): the data buffer of interval_months is
 * int32, its storage (programs map buffers to other type systems by this), and
 * temporal types report their integer storage. */
Test(layout, buffer_data_types_through_a_schema) {
  struct {
    const char* format;
    enum ArrowType data_type;
  } cases[] = {{"tiM", NANOARROW_TYPE_INT32},       {"tdD", NANOARROW_TYPE_INT32},
               {"tdm", NANOARROW_TYPE_INT64},       {"tts", NANOARROW_TYPE_INT32},
               {"ttn", NANOARROW_TYPE_INT64},       {"tsu:UTC", NANOARROW_TYPE_INT64},
               {"tDs", NANOARROW_TYPE_INT64},       {"tiD", NANOARROW_TYPE_INTERVAL_DAY_TIME},
               {"d:10,2", NANOARROW_TYPE_DECIMAL128}, {"w:4", NANOARROW_TYPE_BINARY}};
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct ArrowSchema schema;
    struct ArrowSchemaView schema_view;
    struct ArrowArrayView array_view;
    struct ArrowError error;
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaSetFormat(&schema, cases[i].format), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaViewInit(&schema_view, &schema, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(schema_view.layout.buffer_data_type[1], cases[i].data_type, "%s",
                 cases[i].format);
    cr_assert_eq(ArrowArrayViewInitFromSchema(&array_view, &schema, &error), NANOARROW_OK);
    cr_assert_eq(ArrowArrayViewGetBufferDataType(&array_view, 1), cases[i].data_type, "%s",
                 cases[i].format);
    ArrowArrayViewReset(&array_view);
    ArrowSchemaRelease(&schema);
  }
}
