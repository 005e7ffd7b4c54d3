/* ArrowArrayView: initialization, SetArray on hand-built arrays, buffer
 * introspection, element getters, SetLength, Compare and Reset. Arrays are built
 * by hand (static buffers, no-op release) so that these tests do not depend on the
 * array builder. */

#include <stddef.h>

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

/* A schema from a format string, with n_children children of child_format. */
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

/* Validity bits: element i is valid when bit i is set. */
static const uint8_t kValidity[] = {0xED, 0xFF}; /* 0b11101101: 1 and 4 are null */

Test(array_view, init_from_type_sets_layout) {
  struct ArrowArrayView view;
  memset(&view, 0x5a, sizeof(view));
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  cr_assert_eq(view.storage_type, NANOARROW_TYPE_INT32);
  cr_assert_eq(view.layout.buffer_type[1], NANOARROW_BUFFER_TYPE_DATA);
  cr_assert_eq(view.length, 0);
  cr_assert_eq(view.offset, 0);
  cr_assert_null(view.children);
  cr_assert_null(view.dictionary);
  cr_assert_null(view.union_type_id_map);
  cr_assert_null(view.buffer_views[1].data.data);
  ArrowArrayViewReset(&view);
}

Test(array_view, int32_with_offset_and_nulls) {
  static const int32_t values[] = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90};
  const void* buffers[] = {kValidity, values};
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;

  /* Elements 1..6 of the buffers: 10 (null), 20, 30, 40 (null), 50, 60. */
  hand_array(&array, 6, 1, 2, 2, buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);

  cr_assert_eq(view.array, &array);
  cr_assert_eq(view.length, 6);
  cr_assert_eq(view.offset, 1);
  cr_assert_eq(view.null_count, 2);
  /* Sizes are computed from offset + length, never trusted. */
  cr_assert_eq(view.buffer_views[0].size_bytes, 1);
  cr_assert_eq(view.buffer_views[1].size_bytes, 7 * 4);

  cr_assert(ArrowArrayViewIsNull(&view, 0));
  cr_assert_not(ArrowArrayViewIsNull(&view, 1));
  cr_assert(ArrowArrayViewIsNull(&view, 3));
  cr_assert_not(ArrowArrayViewIsNull(&view, 5));
  cr_assert_eq(ArrowArrayViewComputeNullCount(&view), 2);

  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 1), 20);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 5), 60);
  cr_assert_float_eq(ArrowArrayViewGetDoubleUnsafe(&view, 2), 30.0, 1e-12);

  cr_assert_eq(ArrowArrayViewGetNumBuffers(&view), 2);
  cr_assert_eq(ArrowArrayViewGetBufferType(&view, 0), NANOARROW_BUFFER_TYPE_VALIDITY);
  cr_assert_eq(ArrowArrayViewGetBufferType(&view, 1), NANOARROW_BUFFER_TYPE_DATA);
  cr_assert_eq(ArrowArrayViewGetBufferDataType(&view, 1), NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayViewGetBufferElementSizeBits(&view, 1), 32);
  cr_assert_eq(ArrowArrayViewGetBufferView(&view, 1).data.data, values);
  cr_assert_null(ArrowArrayViewGetBufferView(&view, 5).data.data);
  ArrowArrayViewReset(&view);
}

Test(array_view, no_validity_buffer_means_no_nulls) {
  static const int64_t values[] = {1, -2, 3};
  const void* buffers[] = {NULL, values};
  struct ArrowArray array;
  struct ArrowArrayView view;
  hand_array(&array, 3, 0, 0, 2, buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT64);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(view.buffer_views[0].size_bytes, 0);
  cr_assert_not(ArrowArrayViewIsNull(&view, 2));
  cr_assert_eq(ArrowArrayViewComputeNullCount(&view), 0);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 1), -2);
  cr_assert_float_eq(ArrowArrayViewGetDoubleUnsafe(&view, 1), -2.0, 1e-12);
  ArrowArrayViewReset(&view);
}

/* Three elements of each numeric storage type, read from index 1 on (a view with
 * offset 1): a distinctive value, then 9. */
static const int8_t kI8[] = {0, -8, 9};
static const int16_t kI16[] = {0, -1600, 9};
static const int32_t kI32[] = {0, -32, 9};
static const uint32_t kU32[] = {0, 4000000000u, 9};
static const int64_t kI64[] = {0, -64, 9};
static const uint64_t kU64[] = {0, 18000000000000000000u, 9};
static const double kF64[] = {0, -3.5, 9};

/* A storage type, a buffer whose element 1 holds a value, and that value as the
 * integer and double getters return it. */
struct NumericCase {
  enum ArrowType type;
  const void* data;
  int64_t as_int;
  double as_double;
};

Test(array_view, every_numeric_storage_type) {
  static const uint8_t u8[] = {0, 200, 9};
  static const uint16_t u16[] = {0, 60000, 9};
  static const float f32[] = {0, 2.5f, 9};
  static const uint16_t f16[] = {0, 0x4100 /* 2.5 */, 0x4880 /* 9 */};
  static const uint8_t bits[] = {0x02}; /* 0, 1, 0 */
  struct NumericCase cases[] = {
      {NANOARROW_TYPE_INT8, kI8, -8, -8.0},
      {NANOARROW_TYPE_UINT8, u8, 200, 200.0},
      {NANOARROW_TYPE_INT16, kI16, -1600, -1600.0},
      {NANOARROW_TYPE_UINT16, u16, 60000, 60000.0},
      {NANOARROW_TYPE_INT32, kI32, -32, -32.0},
      {NANOARROW_TYPE_UINT32, kU32, 4000000000LL, 4000000000.0},
      {NANOARROW_TYPE_INT64, kI64, -64, -64.0},
      {NANOARROW_TYPE_FLOAT, f32, 2, 2.5},
      {NANOARROW_TYPE_DOUBLE, kF64, -3, -3.5},
      {NANOARROW_TYPE_HALF_FLOAT, f16, 2, 2.5},
      {NANOARROW_TYPE_BOOL, bits, 1, 1.0},
      {NANOARROW_TYPE_DATE32, kI32, -32, -32.0},
      {NANOARROW_TYPE_TIME32, kI32, -32, -32.0},
      {NANOARROW_TYPE_INTERVAL_MONTHS, kI32, -32, -32.0},
      {NANOARROW_TYPE_DATE64, kI64, -64, -64.0},
      {NANOARROW_TYPE_TIME64, kI64, -64, -64.0},
      {NANOARROW_TYPE_TIMESTAMP, kI64, -64, -64.0},
      {NANOARROW_TYPE_DURATION, kI64, -64, -64.0},
  };
  size_t c;
  const void* buffers[2];
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;

  for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    buffers[0] = NULL;
    buffers[1] = cases[c].data;
    /* Offset 1: element 0 of the view is element 1 of the buffer. */
    hand_array(&array, 2, 1, 0, 2, buffers);
    ArrowArrayViewInitFromType(&view, cases[c].type);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 0), cases[c].as_int, "type %s",
                 ArrowTypeString(cases[c].type));
    cr_assert_float_eq(ArrowArrayViewGetDoubleUnsafe(&view, 0), cases[c].as_double, 1e-9,
                       "type %s", ArrowTypeString(cases[c].type));
    cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 1),
                 cases[c].type == NANOARROW_TYPE_BOOL ? 0 : 9, "type %s",
                 ArrowTypeString(cases[c].type));
    ArrowArrayViewReset(&view);
  }

  buffers[1] = kU64;
  hand_array(&array, 2, 1, 0, 2, buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_UINT64);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 0), 18000000000000000000u);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 1), 9);
  ArrowArrayViewReset(&view);
}

/* The inline getters test the element width beside the type; the value must come
 * from the type alone, so a hand-built view whose layout was left zeroed (or says
 * another width) reads the same values through the out-of-line path. */
Test(array_view, numeric_getters_follow_the_type_not_the_layout_width) {
  static const int64_t widths[] = {0, 8, 16, 32, 64};
  struct NumericCase cases[] = {
      {NANOARROW_TYPE_INT8, kI8, -8, -8.0},     {NANOARROW_TYPE_INT16, kI16, -1600, -1600.0},
      {NANOARROW_TYPE_INT32, kI32, -32, -32.0}, {NANOARROW_TYPE_INT64, kI64, -64, -64.0},
      {NANOARROW_TYPE_UINT32, kU32, 4000000000LL, 4000000000.0},
      {NANOARROW_TYPE_DOUBLE, kF64, -3, -3.5},
  };
  size_t c, w;
  const void* buffers[2];
  struct ArrowArray array;
  struct ArrowArrayView view;

  for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
      buffers[0] = NULL;
      buffers[1] = cases[c].data;
      hand_array(&array, 2, 1, 0, 2, buffers);
      ArrowArrayViewInitFromType(&view, cases[c].type);
      cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
      view.layout.element_size_bits[1] = widths[w];
      cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 0), cases[c].as_int,
                   "type %s, layout width %ld", ArrowTypeString(cases[c].type),
                   (long)widths[w]);
      cr_assert_float_eq(ArrowArrayViewGetDoubleUnsafe(&view, 0), cases[c].as_double,
                         1e-9, "type %s, layout width %ld",
                         ArrowTypeString(cases[c].type), (long)widths[w]);
      cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 1), 9, "type %s, layout width %ld",
                   ArrowTypeString(cases[c].type), (long)widths[w]);
      ArrowArrayViewReset(&view);
    }
  }

  buffers[1] = kU64;
  for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
    hand_array(&array, 2, 1, 0, 2, buffers);
    ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_UINT64);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
    view.layout.element_size_bits[1] = widths[w];
    cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 0), 18000000000000000000u,
                 "layout width %ld", (long)widths[w]);
    ArrowArrayViewReset(&view);
  }
}

Test(array_view, non_numeric_getters_return_sentinels) {
  struct ArrowArrayView view;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRUCT);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 0), INT64_MAX);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 0), UINT64_MAX);
  cr_assert_eq(ArrowArrayViewUnionTypeId(&view, 0), -1);
  cr_assert_eq(ArrowArrayViewUnionChildOffset(&view, 0), -1);
  cr_assert_eq(ArrowArrayViewListChildOffset(&view, 0), -1);
  cr_assert_null(ArrowArrayViewGetBytesUnsafe(&view, 0).data.data);
}

/* Integer getters on floating point values: truncated toward zero, saturated at the
 * limits, NaN as 0 (a plain C cast is undefined for these; UBSan reports it). */
Test(array_view, integer_getters_on_floating_point_saturate) {
  static const double doubles[] = {1e300, -1e300, 0.0 / 0.0, -1.5, 2.9, -0.5,
                                   9223372036854775808.0, 18446744073709551616.0};
  static const float floats[] = {1e30f, -1e30f, 7.75f};
  const void* double_buffers[] = {NULL, doubles};
  const void* float_buffers[] = {NULL, floats};
  struct ArrowArray array;
  struct ArrowArrayView view;

  hand_array(&array, 8, 0, 0, 2, double_buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_DOUBLE);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 0), INT64_MAX);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 1), INT64_MIN);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 2), 0);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 3), -1);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 4), 2);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 6), INT64_MAX);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 0), UINT64_MAX);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 1), 0);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 2), 0);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 3), 0);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 4), 2);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 5), 0);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 6), UINT64_C(9223372036854775808));
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 7), UINT64_MAX);
  ArrowArrayViewReset(&view);

  hand_array(&array, 3, 0, 0, 2, float_buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_FLOAT);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 0), INT64_MAX);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 1), INT64_MIN);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 2), 7);
  cr_assert_eq(ArrowArrayViewGetUIntUnsafe(&view, 0), UINT64_MAX);
  ArrowArrayViewReset(&view);
}

/* All-empty strings may come with a NULL data buffer; the values must still have
 * a non-NULL data pointer (the getters add an offset to it). */
Test(array_view, empty_strings_with_null_data_buffer) {
  static const int32_t offsets[] = {0, 0, 0, 0};
  static const int64_t large_offsets[] = {0, 0, 0};
  const void* buffers[] = {NULL, offsets, NULL};
  const void* large_buffers[] = {NULL, large_offsets, NULL};
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;

  hand_array(&array, 3, 0, 0, 3, buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewGetStringUnsafe(&view, 1).size_bytes, 0);
  cr_assert_not_null(ArrowArrayViewGetStringUnsafe(&view, 1).data);
  cr_assert_eq(view.buffer_views[2].size_bytes, 0);
  ArrowArrayViewReset(&view);

  hand_array(&array, 2, 0, 0, 3, large_buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_LARGE_BINARY);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewGetBytesUnsafe(&view, 0).size_bytes, 0);
  cr_assert_not_null(ArrowArrayViewGetBytesUnsafe(&view, 0).data.data);
  ArrowArrayViewReset(&view);
}

Test(array_view, strings_with_offset) {
  static const int32_t offsets[] = {0, 3, 3, 8, 10};
  static const char data[] = "abcworldxy";
  const void* buffers[] = {NULL, offsets, data};
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowStringView value;
  struct ArrowError error;

  hand_array(&array, 3, 1, 0, 3, buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowArrayViewSetArrayMinimal(&view, &array, &error), NANOARROW_OK);
  /* Data size needs the last offset: unknown until DEFAULT validation. */
  cr_assert_eq(view.buffer_views[2].size_bytes, -1);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.buffer_views[1].size_bytes, 5 * 4);
  cr_assert_eq(view.buffer_views[2].size_bytes, 10);

  value = ArrowArrayViewGetStringUnsafe(&view, 0);
  cr_assert_eq(value.size_bytes, 0);
  value = ArrowArrayViewGetStringUnsafe(&view, 1);
  cr_assert_eq(value.size_bytes, 5);
  cr_assert_eq(memcmp(value.data, "world", 5), 0);
  cr_assert_eq(ArrowArrayViewGetBytesUnsafe(&view, 2).size_bytes, 2);
  cr_assert_eq(ArrowArrayViewGetBufferType(&view, 1), NANOARROW_BUFFER_TYPE_DATA_OFFSET);
  cr_assert_eq(ArrowArrayViewGetBufferDataType(&view, 2), NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowArrayViewGetNumBuffers(&view), 3);
  ArrowArrayViewReset(&view);
}

Test(array_view, large_binary) {
  static const int64_t offsets[] = {0, 2, 5};
  static const uint8_t data[] = {1, 2, 3, 4, 5};
  const void* buffers[] = {NULL, offsets, data};
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowBufferView value;

  hand_array(&array, 2, 0, 0, 3, buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_LARGE_BINARY);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(view.buffer_views[1].size_bytes, 3 * 8);
  value = ArrowArrayViewGetBytesUnsafe(&view, 1);
  cr_assert_eq(value.size_bytes, 3);
  cr_assert_eq(value.data.as_uint8[0], 3);
  cr_assert_eq(ArrowArrayViewGetBufferElementSizeBits(&view, 1), 64);
  ArrowArrayViewReset(&view);
}

Test(array_view, fixed_size_binary_from_schema) {
  static const char data[] = "aaabbbccc";
  const void* buffers[] = {NULL, data};
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  struct ArrowBufferView value;

  hand_schema(&schema, "w:3", 0, NULL);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.layout.element_size_bits[1], 24);
  hand_array(&array, 2, 1, 0, 2, buffers);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.buffer_views[1].size_bytes, 9);
  value = ArrowArrayViewGetBytesUnsafe(&view, 1);
  cr_assert_eq(value.size_bytes, 3);
  cr_assert_eq(memcmp(value.data.data, "ccc", 3), 0);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

/* The view's parts are the named structs of nanoarrow's header, with bytes as
 * uint8_t (code taking `const uint8_t*` from them must compile), at the offsets the
 * columnar format gives. */
Test(array_view, binary_view_struct_layout) {
  struct ArrowBinaryViewInlined inlined;
  struct ArrowBinaryViewRef ref;
  const uint8_t* inline_bytes = inlined.data;
  const uint8_t* prefix_bytes = ref.prefix;
  cr_assert_eq(sizeof(union ArrowBinaryView), 16);
  cr_assert_eq(sizeof(inlined.data), 12);
  cr_assert_eq(offsetof(union ArrowBinaryView, inlined.data), 4);
  cr_assert_eq(offsetof(union ArrowBinaryView, ref.prefix), 4);
  cr_assert_eq(offsetof(union ArrowBinaryView, ref.buffer_index), 8);
  cr_assert_eq(offsetof(union ArrowBinaryView, ref.offset), 12);
  cr_assert_eq((const void*)inline_bytes, (const void*)((const char*)&inlined + 4));
  cr_assert_eq((const void*)prefix_bytes, (const void*)((const char*)&ref + 4));
}

/* Builds a 16-byte view. */
static union ArrowBinaryView make_view(const char* text, int32_t buffer_index,
                                       int32_t offset) {
  union ArrowBinaryView view;
  memset(&view, 0, sizeof(view));
  view.inlined.size = (int32_t)strlen(text);
  if (view.inlined.size <= NANOARROW_BINARY_VIEW_INLINE_SIZE) {
    memcpy(view.inlined.data, text, (size_t)view.inlined.size);
  } else {
    memcpy(view.ref.prefix, text, NANOARROW_BINARY_VIEW_PREFIX_SIZE);
    view.ref.buffer_index = buffer_index;
    view.ref.offset = offset;
  }
  return view;
}

Test(array_view, string_view_inline_and_variadic) {
  static const char block0[] = "xxthis string is long";
  static const char block1[] = "another long string here";
  union ArrowBinaryView views[3];
  int64_t sizes[] = {(int64_t)sizeof(block0) - 1, (int64_t)sizeof(block1) - 1};
  const void* buffers[] = {NULL, views, block0, block1, sizes};
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  struct ArrowStringView value;
  struct ArrowBufferView buffer;

  views[0] = make_view("short", 0, 0);
  views[1] = make_view("this string is long", 0, 2);
  views[2] = make_view("another long string here", 1, 0);
  hand_array(&array, 3, 0, 0, 5, buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING_VIEW);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(view.n_variadic_buffers, 2);
  cr_assert_eq(view.buffer_views[1].size_bytes, 3 * 16);

  value = ArrowArrayViewGetStringUnsafe(&view, 0);
  cr_assert_eq(value.size_bytes, 5);
  cr_assert_eq(memcmp(value.data, "short", 5), 0);
  value = ArrowArrayViewGetStringUnsafe(&view, 1);
  cr_assert_eq(value.size_bytes, 19);
  cr_assert_eq(value.data, block0 + 2);
  value = ArrowArrayViewGetStringUnsafe(&view, 2);
  cr_assert_eq(value.data, block1);

  /* validity, views, two variadic buffers, the sizes buffer */
  cr_assert_eq(ArrowArrayViewGetNumBuffers(&view), 5);
  cr_assert_eq(ArrowArrayViewGetBufferType(&view, 1), NANOARROW_BUFFER_TYPE_DATA);
  cr_assert_eq(ArrowArrayViewGetBufferDataType(&view, 1), NANOARROW_TYPE_STRING_VIEW);
  cr_assert_eq(ArrowArrayViewGetBufferElementSizeBits(&view, 1), 128);
  cr_assert_eq(ArrowArrayViewGetBufferType(&view, 3), NANOARROW_BUFFER_TYPE_VARIADIC_DATA);
  cr_assert_eq(ArrowArrayViewGetBufferDataType(&view, 3), NANOARROW_TYPE_STRING);
  /* Variable-size values: no element size (0), like a string's data buffer. */
  cr_assert_eq(ArrowArrayViewGetBufferElementSizeBits(&view, 3), 0);
  cr_assert_eq(ArrowArrayViewGetBufferElementSizeBits(&view, 4), 64);
  buffer = ArrowArrayViewGetBufferView(&view, 3);
  cr_assert_eq(buffer.data.data, block1);
  cr_assert_eq(buffer.size_bytes, sizes[1]);
  cr_assert_eq(ArrowArrayViewGetBufferType(&view, 4), NANOARROW_BUFFER_TYPE_VARIADIC_SIZE);
  cr_assert_eq(ArrowArrayViewGetBufferDataType(&view, 4), NANOARROW_TYPE_INT64);
  buffer = ArrowArrayViewGetBufferView(&view, 4);
  cr_assert_eq(buffer.data.data, sizes);
  cr_assert_eq(buffer.size_bytes, 16);
  cr_assert_eq(ArrowArrayViewGetBufferType(&view, 5), NANOARROW_BUFFER_TYPE_NONE);
  ArrowArrayViewReset(&view);
}

Test(array_view, binary_view_without_variadic_buffers) {
  union ArrowBinaryView views[1];
  const void* buffers[] = {NULL, views, NULL};
  struct ArrowArray array;
  struct ArrowArrayView view;
  views[0] = make_view("tiny", 0, 0);
  hand_array(&array, 1, 0, 0, 3, buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_BINARY_VIEW);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewGetNumBuffers(&view), 3);
  cr_assert_eq(ArrowArrayViewGetBufferDataType(&view, 2), NANOARROW_TYPE_INT64);
  cr_assert_eq(ArrowArrayViewGetBytesUnsafe(&view, 0).size_bytes, 4);
  ArrowArrayViewReset(&view);
}

Test(array_view, decimals) {
  static const int32_t d32[] = {7, -12345};
  static const int64_t d64[] = {7, -1234567890123LL};
  /* 128-bit little endian: -2 and 2^64 + 5 */
  static const uint64_t d128[] = {UINT64_MAX - 1, UINT64_MAX, 5, 1};
  static const uint64_t d256[] = {1, 2, 3, 4, 9, 0, 0, 0};
  const void* buffers[] = {NULL, NULL};
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowDecimal decimal;

  buffers[1] = d32;
  hand_array(&array, 2, 0, 0, 2, buffers);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_DECIMAL32);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  ArrowDecimalInit(&decimal, 32, 9, 2);
  ArrowArrayViewGetDecimalUnsafe(&view, 1, &decimal);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), -12345);
  ArrowArrayViewReset(&view);

  buffers[1] = d64;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_DECIMAL64);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  ArrowDecimalInit(&decimal, 64, 18, 2);
  ArrowArrayViewGetDecimalUnsafe(&view, 1, &decimal);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), -1234567890123LL);
  ArrowArrayViewReset(&view);

  buffers[1] = d128;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_DECIMAL128);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(view.buffer_views[1].size_bytes, 32);
  ArrowDecimalInit(&decimal, 128, 38, 0);
  ArrowArrayViewGetDecimalUnsafe(&view, 0, &decimal);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), -2);
  cr_assert_eq(ArrowDecimalSign(&decimal), -1);
  ArrowArrayViewGetDecimalUnsafe(&view, 1, &decimal);
  cr_assert_eq(decimal.words[decimal.low_word_index], 5);
  cr_assert_eq(decimal.words[decimal.high_word_index], 1);
  ArrowArrayViewReset(&view);

  buffers[1] = d256;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_DECIMAL256);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(view.buffer_views[1].size_bytes, 64);
  ArrowDecimalInit(&decimal, 256, 76, 0);
  ArrowArrayViewGetDecimalUnsafe(&view, 1, &decimal);
  cr_assert_eq(ArrowDecimalGetIntUnsafe(&decimal), 9);
  ArrowArrayViewReset(&view);
}

Test(array_view, intervals) {
  static const int32_t months[] = {3, -4};
  static const int32_t day_time[] = {1, 2, 5, -6};
  uint8_t month_day_nano[32];
  int32_t m = 7;
  int32_t d = -8;
  int64_t ns = 123456789012LL;
  const void* buffers[] = {NULL, NULL};
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowInterval interval;

  memset(month_day_nano, 0, sizeof(month_day_nano));
  memcpy(month_day_nano + 16, &m, 4);
  memcpy(month_day_nano + 20, &d, 4);
  memcpy(month_day_nano + 24, &ns, 8);

  hand_array(&array, 2, 0, 0, 2, buffers);
  buffers[1] = months;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INTERVAL_MONTHS);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_MONTHS);
  ArrowArrayViewGetIntervalUnsafe(&view, 1, &interval);
  cr_assert_eq(interval.months, -4);
  ArrowArrayViewReset(&view);

  buffers[1] = day_time;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INTERVAL_DAY_TIME);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_DAY_TIME);
  ArrowArrayViewGetIntervalUnsafe(&view, 1, &interval);
  cr_assert_eq(interval.days, 5);
  cr_assert_eq(interval.ms, -6);
  ArrowArrayViewReset(&view);

  buffers[1] = month_day_nano;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  ArrowIntervalInit(&interval, NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO);
  ArrowArrayViewGetIntervalUnsafe(&view, 1, &interval);
  cr_assert_eq(interval.months, 7);
  cr_assert_eq(interval.days, -8);
  cr_assert_eq(interval.ns, 123456789012LL);
  ArrowArrayViewReset(&view);
}

Test(array_view, na_is_always_null) {
  struct ArrowArray array;
  struct ArrowArrayView view;
  hand_array(&array, 4, 0, 4, 0, NULL);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_NA);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert(ArrowArrayViewIsNull(&view, 0));
  cr_assert(ArrowArrayViewIsNull(&view, 3));
  cr_assert_eq(ArrowArrayViewComputeNullCount(&view), 4);
  cr_assert_eq(ArrowArrayViewGetNumBuffers(&view), 0);
  ArrowArrayViewReset(&view);
}

Test(array_view, list_of_int32) {
  static const int32_t offsets[] = {0, 2, 2, 5};
  static const int32_t values[] = {1, 2, 3, 4, 5};
  static const uint8_t validity[] = {0x05}; /* element 1 null */
  const void* list_buffers[] = {validity, offsets};
  const void* child_buffers[] = {NULL, values};
  struct ArrowArray array;
  struct ArrowArray child;
  struct ArrowArray* children[] = {&child};
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;

  hand_schema(&schema, "+l", 1, "i");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.n_children, 1);
  cr_assert_eq(view.children[0]->storage_type, NANOARROW_TYPE_INT32);

  hand_array(&array, 3, 0, 1, 2, list_buffers);
  hand_array(&child, 5, 0, 0, 2, child_buffers);
  array.n_children = 1;
  array.children = children;
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert(ArrowArrayViewIsNull(&view, 1));
  cr_assert_eq(ArrowArrayViewListChildOffset(&view, 2), 2);
  cr_assert_eq(ArrowArrayViewListChildOffset(&view, 3), 5);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0],
                                          ArrowArrayViewListChildOffset(&view, 2)),
               3);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(array_view, large_list_offsets) {
  static const int64_t offsets[] = {0, 1, 3};
  static const int8_t values[] = {1, 2, 3};
  const void* list_buffers[] = {NULL, offsets};
  const void* child_buffers[] = {NULL, values};
  struct ArrowArray array;
  struct ArrowArray child;
  struct ArrowArray* children[] = {&child};
  struct ArrowSchema schema;
  struct ArrowArrayView view;

  hand_schema(&schema, "+L", 1, "c");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 2, 0, 0, 2, list_buffers);
  hand_array(&child, 3, 0, 0, 2, child_buffers);
  array.n_children = 1;
  array.children = children;
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(view.buffer_views[1].size_bytes, 24);
  cr_assert_eq(ArrowArrayViewListChildOffset(&view, 2), 3);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(array_view, struct_and_fixed_size_list) {
  static const int16_t values[] = {1, 2, 3, 4, 5, 6};
  const void* parent_buffers[] = {NULL};
  const void* child_buffers[] = {NULL, values};
  struct ArrowArray array;
  struct ArrowArray child;
  struct ArrowArray* children[] = {&child};
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;

  hand_schema(&schema, "+w:2", 1, "s");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.layout.child_size_elements, 2);
  hand_array(&array, 2, 1, 0, 1, parent_buffers);
  hand_array(&child, 6, 0, 0, 2, child_buffers);
  array.n_children = 1;
  array.children = children;
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  /* Element 0 of the sliced list starts at child element (1 + 0) * 2. */
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0], 2), 3);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);

  hand_schema(&schema, "+s", 1, "s");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, NULL), NANOARROW_OK);
  hand_array(&array, 5, 1, 0, 1, parent_buffers);
  array.n_children = 1;
  array.children = children;
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewGetNumBuffers(&view), 1);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(array_view, dense_union_with_type_id_map) {
  static const int8_t type_ids[] = {5, 2, 5, 2};
  static const int32_t union_offsets[] = {0, 0, 1, 1};
  static const int32_t ints[] = {10, 11};
  static const double doubles[] = {1.5, 2.5};
  const void* union_buffers[] = {type_ids, union_offsets};
  const void* int_buffers[] = {NULL, ints};
  const void* double_buffers[] = {NULL, doubles};
  struct ArrowArray array;
  struct ArrowArray child_int;
  struct ArrowArray child_double;
  struct ArrowArray* children[] = {&child_int, &child_double};
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+ud:5,2"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "g"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_not_null(view.union_type_id_map);
  cr_assert_eq(view.union_type_id_map[5], 0);
  cr_assert_eq(view.union_type_id_map[2], 1);
  cr_assert_eq(view.union_type_id_map[128 + 0], 5);
  cr_assert_eq(view.union_type_id_map[128 + 1], 2);
  cr_assert_eq(view.union_type_id_map[3], -1);

  hand_array(&array, 3, 1, 0, 2, union_buffers);
  hand_array(&child_int, 2, 0, 0, 2, int_buffers);
  hand_array(&child_double, 2, 0, 0, 2, double_buffers);
  array.n_children = 2;
  array.children = children;
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);

  cr_assert_not(ArrowArrayViewIsNull(&view, 0));
  cr_assert_eq(ArrowArrayViewComputeNullCount(&view), 0);
  cr_assert_eq(ArrowArrayViewUnionTypeId(&view, 0), 2);
  cr_assert_eq(ArrowArrayViewUnionChildIndex(&view, 0), 1);
  cr_assert_eq(ArrowArrayViewUnionChildIndex(&view, 1), 0);
  cr_assert_eq(ArrowArrayViewUnionChildOffset(&view, 1), 1);
  cr_assert_float_eq(
      ArrowArrayViewGetDoubleUnsafe(view.children[ArrowArrayViewUnionChildIndex(&view, 2)],
                                    ArrowArrayViewUnionChildOffset(&view, 2)),
      2.5, 1e-12);
  cr_assert_eq(ArrowArrayViewGetBufferType(&view, 0), NANOARROW_BUFFER_TYPE_TYPE_ID);
  cr_assert_eq(ArrowArrayViewGetBufferType(&view, 1), NANOARROW_BUFFER_TYPE_UNION_OFFSET);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(array_view, sparse_union_child_offset_is_parent_index) {
  static const int8_t type_ids[] = {0, 1, 0};
  static const int32_t ints[] = {1, 2, 3};
  static const int64_t longs[] = {4, 5, 6};
  const void* union_buffers[] = {type_ids};
  const void* int_buffers[] = {NULL, ints};
  const void* long_buffers[] = {NULL, longs};
  struct ArrowArray array;
  struct ArrowArray child0;
  struct ArrowArray child1;
  struct ArrowArray* children[] = {&child0, &child1};
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+us:0,1"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "l"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  hand_array(&array, 2, 1, 0, 1, union_buffers);
  hand_array(&child0, 3, 0, 0, 2, int_buffers);
  hand_array(&child1, 3, 0, 0, 2, long_buffers);
  array.n_children = 2;
  array.children = children;
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewUnionChildIndex(&view, 0), 1);
  cr_assert_eq(ArrowArrayViewUnionChildOffset(&view, 0), 1);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[1], 1), 5);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(array_view, dictionary_from_schema) {
  static const int8_t indices[] = {1, 0, 1};
  static const int32_t offsets[] = {0, 1, 3};
  static const char data[] = "abc";
  const void* index_buffers[] = {NULL, indices};
  const void* dictionary_buffers[] = {NULL, offsets, data};
  struct ArrowArray array;
  struct ArrowArray dictionary;
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;
  struct ArrowStringView value;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "c"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(&schema), NANOARROW_OK);
  ArrowSchemaInit((&schema)->dictionary);
  ArrowSchemaInit(schema.dictionary);
  cr_assert_eq(ArrowSchemaSetFormat(schema.dictionary, "u"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.storage_type, NANOARROW_TYPE_INT8);
  cr_assert_not_null(view.dictionary);
  cr_assert_eq(view.dictionary->storage_type, NANOARROW_TYPE_STRING);

  hand_array(&array, 3, 0, 0, 2, index_buffers);
  hand_array(&dictionary, 2, 0, 0, 3, dictionary_buffers);
  array.dictionary = &dictionary;
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  value = ArrowArrayViewGetStringUnsafe(view.dictionary,
                                        ArrowArrayViewGetIntUnsafe(&view, 0));
  cr_assert_eq(value.size_bytes, 2);
  cr_assert_eq(memcmp(value.data, "bc", 2), 0);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(array_view, run_end_encoded) {
  static const int32_t run_ends[] = {2, 5};
  static const double values[] = {1.5, 2.5};
  const void* run_end_buffers[] = {NULL, run_ends};
  const void* value_buffers[] = {NULL, values};
  struct ArrowArray array;
  struct ArrowArray run_ends_array;
  struct ArrowArray values_array;
  struct ArrowArray* children[] = {&run_ends_array, &values_array};
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+r"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "run_ends"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "g"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[1], "values"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK, "%s",
               error.message);

  hand_array(&array, 4, 1, 0, 0, NULL);
  hand_array(&run_ends_array, 2, 0, 0, 2, run_end_buffers);
  hand_array(&values_array, 2, 0, 0, 2, value_buffers);
  array.n_children = 2;
  array.children = children;
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_not(ArrowArrayViewIsNull(&view, 0));
  cr_assert_eq(ArrowArrayViewComputeNullCount(&view), 0);
  cr_assert_eq(ArrowArrayViewGetNumBuffers(&view), 0);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(array_view, init_from_schema_rejects_bad_schema) {
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowError error;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetFormat(&schema, "+ud:1,1"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateChildren(&schema, 2), NANOARROW_OK);
  for (int64_t child_i = 0; child_i < (&schema)->n_children; child_i++) {
    ArrowSchemaInit((&schema)->children[child_i]);
  }
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[1], "i"), NANOARROW_OK);
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), EINVAL);
  cr_assert_neq(error.message[0], '\0');
  /* The view was reset: nothing leaks and Reset is harmless. */
  cr_assert_null(view.children);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);

  hand_schema(&schema, "+s", 1, "not a format");
  cr_assert_neq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  ArrowSchemaRelease(&schema);
}

Test(array_view, init_from_schema_limits_depth) {
  struct ArrowSchema schema;
  struct ArrowSchema* node = &schema;
  struct ArrowArrayView view;
  struct ArrowError error;
  int depth;

  /* 70 nested lists. */
  ArrowSchemaInit(&schema);
  for (depth = 0; depth < 70; depth++) {
    cr_assert_eq(ArrowSchemaSetFormat(node, "+l"), NANOARROW_OK);
    cr_assert_eq(ArrowSchemaAllocateChildren(node, 1), NANOARROW_OK);
    for (int64_t child_i = 0; child_i < (node)->n_children; child_i++) {
      ArrowSchemaInit((node)->children[child_i]);
    }
    node = node->children[0];
  }
  cr_assert_eq(ArrowSchemaSetFormat(node, "i"), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), EINVAL);
  ArrowSchemaRelease(&schema);
}

Test(array_view, allocate_children_and_reset_twice) {
  struct ArrowArrayView view;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRUCT);
  cr_assert_eq(ArrowArrayViewAllocateChildren(&view, 3), NANOARROW_OK);
  cr_assert_eq(view.n_children, 3);
  cr_assert_eq(view.children[2]->storage_type, NANOARROW_TYPE_UNINITIALIZED);
  /* Children already allocated. */
  cr_assert_eq(ArrowArrayViewAllocateChildren(&view, 1), EINVAL);
  cr_assert_eq(ArrowArrayViewAllocateDictionary(&view), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewAllocateDictionary(&view), EINVAL);
  ArrowArrayViewInitFromType(view.children[0], NANOARROW_TYPE_LIST);
  cr_assert_eq(ArrowArrayViewAllocateChildren(view.children[0], 1), NANOARROW_OK);
  ArrowArrayViewReset(&view);
  cr_assert_null(view.children);
  cr_assert_null(view.dictionary);
  cr_assert_eq(view.n_children, 0);
  ArrowArrayViewReset(&view);
  cr_assert_eq(ArrowArrayViewAllocateChildren(&view, -1), EINVAL);
}

Test(array_view, set_length_for_hand_built_views) {
  static int32_t values[] = {1, 2, 3, 4};
  struct ArrowArrayView view;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRUCT);
  cr_assert_eq(ArrowArrayViewAllocateChildren(&view, 1), NANOARROW_OK);
  ArrowArrayViewInitFromType(view.children[0], NANOARROW_TYPE_INT32);
  view.children[0]->buffer_views[1].data.data = values;
  ArrowArrayViewSetLength(&view, 4);
  cr_assert_eq(view.length, 4);
  cr_assert_eq(view.buffer_views[0].size_bytes, 1);
  cr_assert_eq(view.children[0]->length, 4);
  cr_assert_eq(view.children[0]->buffer_views[1].size_bytes, 16);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, NULL),
               NANOARROW_OK);
  ArrowArrayViewReset(&view);

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_LARGE_STRING);
  ArrowArrayViewSetLength(&view, 3);
  cr_assert_eq(view.buffer_views[1].size_bytes, 4 * 8);
  ArrowArrayViewSetLength(&view, 0);
  cr_assert_eq(view.buffer_views[1].size_bytes, 0);
}

Test(array_view, set_array_can_be_repeated) {
  static const int32_t first[] = {1, 2, 3};
  static const int32_t second[] = {7};
  const void* buffers1[] = {NULL, first};
  const void* buffers2[] = {NULL, second};
  struct ArrowArray array;
  struct ArrowArrayView view;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  hand_array(&array, 3, 0, 0, 2, buffers1);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 2), 3);
  hand_array(&array, 1, 0, 0, 2, buffers2);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, NULL), NANOARROW_OK);
  cr_assert_eq(view.length, 1);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 0), 7);
  ArrowArrayViewReset(&view);
}

/* Move hands the children, dictionary and values to dst; src is left empty, so
 * resetting both frees everything once (ASan reports a double free or a leak). */
Test(array_view, move_transfers_ownership) {
  static int32_t values[] = {5, 6, 7};
  struct ArrowArrayView src;
  struct ArrowArrayView dst;
  ArrowArrayViewInitFromType(&src, NANOARROW_TYPE_STRUCT);
  cr_assert_eq(ArrowArrayViewAllocateChildren(&src, 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewAllocateDictionary(&src), NANOARROW_OK);
  ArrowArrayViewInitFromType(src.children[0], NANOARROW_TYPE_INT32);
  ArrowArrayViewInitFromType(src.children[1], NANOARROW_TYPE_LIST);
  cr_assert_eq(ArrowArrayViewAllocateChildren(src.children[1], 1), NANOARROW_OK);
  src.children[0]->buffer_views[1].data.data = values;
  ArrowArrayViewSetLength(&src, 3);
  struct ArrowArrayView* child0 = src.children[0];

  ArrowArrayViewMove(&src, &dst);
  cr_assert_eq(dst.storage_type, NANOARROW_TYPE_STRUCT);
  cr_assert_eq(dst.length, 3);
  cr_assert_eq(dst.n_children, 2);
  cr_assert_eq(dst.children[0], child0);
  cr_assert_not_null(dst.dictionary);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(dst.children[0], 2), 7);
  cr_assert_eq(src.storage_type, NANOARROW_TYPE_UNINITIALIZED);
  cr_assert_eq(src.n_children, 0);
  cr_assert_null(src.children);
  cr_assert_null(src.dictionary);
  cr_assert_eq(src.length, 0);
  ArrowArrayViewReset(&src);
  ArrowArrayViewReset(&dst);
}

/* ---- Compare ---- */

/* IDENTICAL compares bytes: the same values at another offset differ, and the
 * first differing byte is named with its buffer and path. */
Test(array_view, compare_identical_is_byte_for_byte) {
  static const int32_t a_values[] = {9, 1, 2, 3};
  static const int32_t b_values[] = {1, 2, 3};
  static const int32_t c_values[] = {1, 2, 4};
  const void* a_buffers[] = {NULL, a_values};
  const void* b_buffers[] = {NULL, b_values};
  const void* c_buffers[] = {NULL, c_values};
  struct ArrowArray a, b, c;
  struct ArrowArrayView a_view, b_view, c_view;
  struct ArrowError reason;
  int equal = -1;

  hand_array(&a, 3, 1, 0, 2, a_buffers);
  hand_array(&b, 3, 0, 0, 2, b_buffers);
  hand_array(&c, 3, 0, 0, 2, c_buffers);
  ArrowArrayViewInitFromType(&a_view, NANOARROW_TYPE_INT32);
  ArrowArrayViewInitFromType(&b_view, NANOARROW_TYPE_INT32);
  ArrowArrayViewInitFromType(&c_view, NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowArrayViewSetArray(&a_view, &a, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&b_view, &b, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&c_view, &c, NULL), NANOARROW_OK);

  /* Same values, but not IDENTICAL (offset 1 vs 0). */
  cr_assert_eq(ArrowArrayViewCompare(&a_view, &b_view, NANOARROW_COMPARE_IDENTICAL, &equal,
                                     &reason),
               NANOARROW_OK);
  cr_assert_eq(equal, 0);
  cr_assert(strstr(reason.message, "Expected offset 0 but found 1") != NULL, "%s",
            reason.message);

  /* A view is identical to itself and to another view of the same bytes. */
  cr_assert_eq(ArrowArrayViewCompare(&b_view, &b_view, NANOARROW_COMPARE_IDENTICAL, &equal,
                                     &reason),
               NANOARROW_OK);
  cr_assert_eq(equal, 1, "%s", reason.message);

  /* One byte differs: byte 8 of buffer 1 (the third int32). */
  cr_assert_eq(ArrowArrayViewCompare(&c_view, &b_view, NANOARROW_COMPARE_IDENTICAL, &equal,
                                     &reason),
               NANOARROW_OK);
  cr_assert_eq(equal, 0);
  cr_assert(strstr(reason.message, "byte 8 of buffer 1") != NULL, "%s", reason.message);

  /* A shorter buffer (length 2) is a different size, and a different length. */
  c.length = 2;
  cr_assert_eq(ArrowArrayViewSetArray(&c_view, &c, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewCompare(&c_view, &b_view, NANOARROW_COMPARE_IDENTICAL, &equal,
                                     &reason),
               NANOARROW_OK);
  cr_assert_eq(equal, 0);
  cr_assert(strstr(reason.message, "length") != NULL, "%s", reason.message);

  /* null_count -1 (unknown) and 0 are not identical. */
  b.null_count = -1;
  cr_assert_eq(ArrowArrayViewSetArray(&c_view, &b, NULL), NANOARROW_OK);
  b.null_count = 0;
  cr_assert_eq(ArrowArrayViewCompare(&c_view, &b_view, NANOARROW_COMPARE_IDENTICAL, &equal,
                                     &reason),
               NANOARROW_OK);
  cr_assert_eq(equal, 0);
  cr_assert(strstr(reason.message, "null_count") != NULL, "%s", reason.message);

  /* An unknown level is an error. */
  cr_assert_eq(ArrowArrayViewCompare(&b_view, &b_view, (enum ArrowCompareLevel)7, &equal,
                                     &reason),
               EINVAL);
  ArrowArrayViewReset(&a_view);
  ArrowArrayViewReset(&b_view);
  ArrowArrayViewReset(&c_view);
}

/* IDENTICAL walks children and dictionaries and names where they differ. */
Test(array_view, compare_identical_nested_path) {
  static const int32_t offsets[] = {0, 2, 3};
  static const int64_t child_a[] = {1, 2, 3};
  static const int64_t child_b[] = {1, 2, 4};
  const void* a_buffers[] = {NULL, offsets};
  const void* b_buffers[] = {NULL, offsets};
  const void* a_child_buffers[] = {NULL, child_a};
  const void* b_child_buffers[] = {NULL, child_b};
  struct ArrowArray a, b, a_child, b_child;
  struct ArrowArray* a_children[] = {&a_child};
  struct ArrowArray* b_children[] = {&b_child};
  struct ArrowSchema schema;
  struct ArrowArrayView a_view, b_view;
  struct ArrowError reason;
  int equal = -1;

  hand_schema(&schema, "+l", 1, "l");
  cr_assert_eq(ArrowArrayViewInitFromSchema(&a_view, &schema, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&b_view, &schema, NULL), NANOARROW_OK);
  hand_array(&a, 2, 0, 0, 2, a_buffers);
  hand_array(&b, 2, 0, 0, 2, b_buffers);
  hand_array(&a_child, 3, 0, 0, 2, a_child_buffers);
  hand_array(&b_child, 3, 0, 0, 2, b_child_buffers);
  a.n_children = b.n_children = 1;
  a.children = a_children;
  b.children = b_children;
  cr_assert_eq(ArrowArrayViewSetArray(&a_view, &a, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&b_view, &b, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewCompare(&a_view, &b_view, NANOARROW_COMPARE_IDENTICAL, &equal,
                                     &reason),
               NANOARROW_OK);
  cr_assert_eq(equal, 0);
  cr_assert(strstr(reason.message, "byte 16 of buffer 1") != NULL, "%s", reason.message);
  cr_assert(strstr(reason.message, "children[0]") != NULL, "%s", reason.message);

  /* Sliced to the first list both are still different: the children are compared
   * whole, not only the range the parent uses. */
  a.length = b.length = 1;
  cr_assert_eq(ArrowArrayViewSetArray(&a_view, &a, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&b_view, &b, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewCompare(&a_view, &b_view, NANOARROW_COMPARE_IDENTICAL, &equal,
                                     &reason),
               NANOARROW_OK);
  cr_assert_eq(equal, 0);
  ArrowArrayViewReset(&a_view);
  ArrowArrayViewReset(&b_view);
  ArrowSchemaRelease(&schema);
}
