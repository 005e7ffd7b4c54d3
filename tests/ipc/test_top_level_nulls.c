/* A record batch has no validity bitmap of its own, so a struct array with null
 * rows at its top level cannot be written as one: ArrowIpcEncoderEncodeSimpleRecordBatch
 * and ArrowIpcWriterWriteArrayView return EINVAL (as nanoarrow's do) instead of
 * writing the rows as valid. A slice that leaves the null rows out is written. */

#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

/* struct<a: int32> with rows [null, 1, 2] (row 0 null at the top level). */
static void MakeBatch(struct ArrowSchema* schema, struct ArrowArray* array,
                      struct ArrowArrayView* view) {
  struct ArrowError error;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema, 1), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[0], "a"), NANOARROW_OK);

  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array->children[0], 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array->children[0], 2), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(array->null_count, 1);

  cr_assert_eq(ArrowArrayViewInitFromSchema(view, schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(view, array, &error), NANOARROW_OK, "%s",
               error.message);
}

Test(top_level_nulls, encoder_refuses_null_rows) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowIpcEncoder encoder;
  struct ArrowBuffer body;
  struct ArrowError error;

  MakeBatch(&schema, &array, &view);
  cr_assert_eq(ArrowIpcEncoderInit(&encoder), NANOARROW_OK);
  ArrowBufferInit(&body);

  error.message[0] = '\0';
  cr_expect_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &view, &body, &error),
               EINVAL);
  cr_expect_neq(strstr(error.message, "top level"), NULL, "%s", error.message);
  cr_expect_eq(body.size_bytes, 0);

  /* The same with the null count unknown: the bitmap is counted. */
  view.null_count = -1;
  cr_expect_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &view, &body, &error),
               EINVAL);

  /* Rows 1..2 only: no null row, written. */
  view.offset = 1;
  view.length = 2;
  cr_expect_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &view, &body, &error),
               NANOARROW_OK, "%s", error.message);
  cr_expect_gt(body.size_bytes, 0);

  ArrowBufferReset(&body);
  ArrowIpcEncoderReset(&encoder);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(top_level_nulls, encoder_refuses_a_bitmap_too_small_for_the_rows) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowIpcEncoder encoder;
  struct ArrowBuffer body;
  struct ArrowError error;

  MakeBatch(&schema, &array, &view);
  cr_assert_eq(ArrowIpcEncoderInit(&encoder), NANOARROW_OK);
  ArrowBufferInit(&body);

  /* 3 rows claimed past the bitmap's one byte: refused, nothing read past it. */
  view.offset = 8;
  view.null_count = -1;
  cr_expect_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &view, &body, &error),
               EINVAL);
  cr_expect_eq(body.size_bytes, 0);

  ArrowBufferReset(&body);
  ArrowIpcEncoderReset(&encoder);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

Test(top_level_nulls, writer_refuses_null_rows_and_writes_nothing) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowBuffer output;
  struct ArrowIpcOutputStream stream;
  struct ArrowIpcWriter writer;
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream reader;
  struct ArrowArray batch;
  struct ArrowError error;
  int64_t size_after_schema;

  MakeBatch(&schema, &array, &view);
  ArrowBufferInit(&output);
  cr_assert_eq(ArrowIpcOutputStreamInitBuffer(&stream, &output), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &stream), NANOARROW_OK);
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  size_after_schema = output.size_bytes;

  cr_expect_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), EINVAL);
  cr_expect_eq(output.size_bytes, size_after_schema, "nothing is written");

  /* The writer goes on: the slice without the null row, then end of stream. */
  view.offset = 1;
  view.length = 2;
  view.null_count = 0;
  cr_expect_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), NANOARROW_OK, "%s",
               error.message);
  cr_expect_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowIpcWriterReset(&writer);

  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &output), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&reader, &input, NULL), NANOARROW_OK);
  cr_assert_eq(reader.get_next(&reader, &batch), NANOARROW_OK, "%s",
               reader.get_last_error(&reader));
  cr_assert_neq(batch.release, NULL);
  cr_expect_eq(batch.length, 2);
  cr_expect_eq(batch.null_count, 0);
  cr_expect_eq(((const int32_t*)batch.children[0]->buffers[1])[batch.children[0]->offset], 1);
  ArrowArrayRelease(&batch);
  cr_assert_eq(reader.get_next(&reader, &batch), NANOARROW_OK);
  cr_expect_eq(batch.release, NULL);
  reader.release(&reader);

  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}
