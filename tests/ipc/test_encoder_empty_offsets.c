/* An empty (length 0) variable-size array whose view has no offsets
 * (ArrowArrayViewSetArray reports a 0-byte offsets buffer for length 0, as
 * nanoarrow's does) is written with its single 0 offset: the encoded batch
 * carries a 4-byte (or 8-byte, large types) offsets buffer, and the decoded view
 * has it. nanoarrow writes the 0-byte buffer as it is; this difference is listed
 * in README ("Where behaviour differs from nanoarrow, on purpose"). */

#include <string.h>

#include <criterion/criterion.h>

#include "encode_decode_util.h"

/* Encodes an empty struct<col: format> batch, decodes it and returns through
 * out_size the decoded column's offsets buffer size (first offset checked 0). */
static void EncodeDecodeEmpty(const char* format, int64_t* view_size,
                              int64_t* out_size) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct EncodeDecodeRoundTrip rt;
  struct ArrowArrayView* decoded;
  struct ArrowError error;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetFormat(schema.children[0], format), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "col"), NANOARROW_OK);
  if (format[0] == '+') {
    cr_assert_eq(ArrowSchemaAllocateChildren(schema.children[0], 1), NANOARROW_OK);
    ArrowSchemaInit(schema.children[0]->children[0]);
    cr_assert_eq(ArrowSchemaSetFormat(schema.children[0]->children[0], "i"),
                 NANOARROW_OK);
    cr_assert_eq(ArrowSchemaSetName(schema.children[0]->children[0], "item"),
                 NANOARROW_OK);
  }

  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK,
               "%s", error.message);
  *view_size = view.children[0]->buffer_views[1].size_bytes;

  decoded = EncodeDecodeField(&rt, &schema, &view, 0);
  cr_assert_eq(decoded->length, 0);
  *out_size = decoded->buffer_views[1].size_bytes;
  if (*out_size == 8) {
    cr_assert_eq(decoded->buffer_views[1].data.as_int64[0], 0);
  } else if (*out_size == 4) {
    cr_assert_eq(decoded->buffer_views[1].data.as_int32[0], 0);
  }

  EncodeDecodeReset(&rt);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(encoder_empty_offsets, string_gets_one_int32_zero) {
  int64_t view_size;
  int64_t out_size;
  EncodeDecodeEmpty("u", &view_size, &out_size);
  cr_expect_eq(view_size, 0, "the source view has no offsets (as in nanoarrow)");
  cr_expect_eq(out_size, 4, "one int32 zero offset is written, got %lld bytes",
               (long long)out_size);
}

Test(encoder_empty_offsets, large_binary_gets_one_int64_zero) {
  int64_t view_size;
  int64_t out_size;
  EncodeDecodeEmpty("Z", &view_size, &out_size);
  cr_expect_eq(view_size, 0);
  cr_expect_eq(out_size, 8, "one int64 zero offset is written, got %lld bytes",
               (long long)out_size);
}

Test(encoder_empty_offsets, list_gets_one_int32_zero) {
  int64_t view_size;
  int64_t out_size;
  EncodeDecodeEmpty("+l", &view_size, &out_size);
  cr_expect_eq(view_size, 0);
  cr_expect_eq(out_size, 4, "one int32 zero offset is written, got %lld bytes",
               (long long)out_size);
}
