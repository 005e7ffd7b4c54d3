/* A column whose null_count exceeds its length (a slice that kept its parent's
 * count; array views accept it at DEFAULT, as nanoarrow's do) is written with the
 * count of its validity bits, so the message's field node is valid and the decoder
 * (which checks node counts against the bits) reads the batch back. */

#include <string.h>

#include <criterion/criterion.h>

#include "encode_decode_util.h"

Test(encoder_stale_null_count, column_count_above_length_is_recounted) {
  static const uint8_t validity[] = {0x06}; /* 0 1 1: element 0 null */
  static const int32_t values[] = {7, 8, 9};
  const void* column_buffers[2];
  const void* batch_buffers[1] = {NULL};
  struct ArrowArray column;
  struct ArrowArray* children[1];
  struct ArrowArray batch;
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct EncodeDecodeRoundTrip rt;
  struct ArrowArrayView* decoded;
  struct ArrowError error;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "col"), NANOARROW_OK);

  /* Elements 1 and 2 of the parent (both valid), with the parent's count of 5. */
  column_buffers[0] = validity;
  column_buffers[1] = values;
  memset(&column, 0, sizeof(column));
  column.length = 2;
  column.offset = 1;
  column.null_count = 5;
  column.n_buffers = 2;
  column.buffers = column_buffers;
  children[0] = &column;
  memset(&batch, 0, sizeof(batch));
  batch.length = 2;
  batch.null_count = 0;
  batch.n_buffers = 1;
  batch.buffers = batch_buffers;
  batch.n_children = 1;
  batch.children = children;

  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &batch, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.children[0]->null_count, 5);

  decoded = EncodeDecodeField(&rt, &schema, &view, 0);
  /* Field 0: the column itself. */
  cr_assert_eq(decoded->length, 2);
  cr_expect_eq(decoded->null_count, 0, "written count %lld",
               (long long)decoded->null_count);
  cr_expect_eq(ArrowArrayViewGetIntUnsafe(decoded, 0), 8);
  cr_expect_eq(ArrowArrayViewGetIntUnsafe(decoded, 1), 9);
  cr_expect_eq(ArrowArrayViewValidate(decoded, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);

  EncodeDecodeReset(&rt);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}
