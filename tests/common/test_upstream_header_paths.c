/* Code written against nanoarrow's installed layout may include the split headers
 * under nanoarrow/common/ directly, without nanoarrow.h: each path must compile on
 * its own and bring in what nanoarrow declares there. Only those paths are
 * included here (not nanoarrow/nanoarrow.h). */

#include <criterion/criterion.h>

#include "nanoarrow/common/inline_types.h"
#include "nanoarrow/common/inline_buffer.h"
#include "nanoarrow/common/inline_array.h"

/* inline_types.h: the C data interface structs and the small value types. */
Test(upstream_header_paths, inline_types) {
  struct ArrowStringView view = ArrowCharView("abc");
  struct ArrowSchema schema;
  cr_assert_eq(view.size_bytes, 3);
  cr_assert_eq(NANOARROW_TYPE_INT32 != NANOARROW_TYPE_INT64, 1);
  schema.release = NULL;
  cr_assert_null(schema.release);
}

/* inline_buffer.h: buffers and bitmaps. */
Test(upstream_header_paths, inline_buffer) {
  struct ArrowBuffer buffer;
  struct ArrowBitmap bitmap;
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferAppendInt32(&buffer, 1234), NANOARROW_OK);
  cr_assert_eq(buffer.size_bytes, 4);
  cr_assert_eq(((const int32_t*)buffer.data)[0], 1234);
  ArrowBufferReset(&buffer);
  ArrowBitmapInit(&bitmap);
  cr_assert_eq(ArrowBitmapAppend(&bitmap, 1, 3), NANOARROW_OK);
  cr_assert_eq(ArrowBitGet(bitmap.buffer.data, 2), 1);
  ArrowBitmapReset(&bitmap);
}

/* inline_array.h: appending and reading through an array view. */
Test(upstream_header_paths, inline_array) {
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT64), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(&array, 7), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT64);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(&view, 0), 7);
  cr_assert_eq(ArrowArrayViewIsNull(&view, 1), 1);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
}
