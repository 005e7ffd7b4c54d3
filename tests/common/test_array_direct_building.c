/* Arrays built partly outside the appenders, as database drivers do: buffers filled
 * by the caller and moved in with ArrowArraySetBuffer / ArrowArraySetValidityBitmap
 * are visible through array->buffers at once (a driver may export such an array
 * without calling a finish function), and values written straight into the data
 * buffer before a first ArrowArrayAppendNull stay valid. */

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

static void init_struct_int64_string(struct ArrowSchema* schema) {
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT64),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING),
               NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[1], "s"), NANOARROW_OK);
}

Test(array_direct_building, moved_in_buffers_are_exported_without_finishing) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  struct ArrowBitmap validity[2];
  struct ArrowBuffer data[2];
  struct ArrowBuffer chars;
  const int64_t ints[3] = {5, 0, -7};
  const int32_t offsets[4] = {0, 2, 2, 5};
  struct ArrowStringView item;
  int i;

  init_struct_int64_string(&schema);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);

  /* Row 1 is null in both columns. */
  for (i = 0; i < 2; i++) {
    ArrowBitmapInit(&validity[i]);
    cr_assert_eq(ArrowBitmapReserve(&validity[i], 3), NANOARROW_OK);
    ArrowBitmapAppendUnsafe(&validity[i], 1, 1);
    ArrowBitmapAppendUnsafe(&validity[i], 0, 1);
    ArrowBitmapAppendUnsafe(&validity[i], 1, 1);
    ArrowBufferInit(&data[i]);
  }
  cr_assert_eq(ArrowBufferAppend(&data[0], ints, sizeof(ints)), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(&data[1], offsets, sizeof(offsets)), NANOARROW_OK);
  ArrowBufferInit(&chars);
  cr_assert_eq(ArrowBufferAppend(&chars, "abxyz", 5), NANOARROW_OK);

  for (i = 0; i < 2; i++) {
    ArrowArraySetValidityBitmap(array.children[i], &validity[i]);
    cr_assert_eq(ArrowArraySetBuffer(array.children[i], 1, &data[i]), NANOARROW_OK);
    array.children[i]->length = 3;
  }
  cr_assert_eq(ArrowArraySetBuffer(array.children[1], 2, &chars), NANOARROW_OK);
  array.length = 3;

  /* No finish call: the exported pointers already name the moved-in bytes. */
  cr_assert_not_null(array.children[0]->buffers[0]);
  cr_assert_eq(memcmp(array.children[0]->buffers[1], ints, sizeof(ints)), 0);
  cr_assert_eq(memcmp(array.children[1]->buffers[1], offsets, sizeof(offsets)), 0);
  cr_assert_eq(memcmp(array.children[1]->buffers[2], "abxyz", 5), 0);

  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewIsNull(view.children[0], 0), 0);
  cr_assert_eq(ArrowArrayViewIsNull(view.children[0], 1), 1);
  cr_assert_eq(ArrowArrayViewIsNull(view.children[1], 1), 1);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0], 2), -7);
  item = ArrowArrayViewGetStringUnsafe(view.children[1], 0);
  cr_assert_eq(item.size_bytes, 2);
  cr_assert_eq(memcmp(item.data, "ab", 2), 0);
  item = ArrowArrayViewGetStringUnsafe(view.children[1], 2);
  cr_assert_eq(item.size_bytes, 3);
  cr_assert_eq(memcmp(item.data, "xyz", 3), 0);

  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

/* The pattern of a reader that writes values into the data buffer itself and only
 * appends a validity bit once a validity buffer exists. */
static void append_valid_int32(struct ArrowArray* array, int32_t value) {
  struct ArrowBitmap* validity = ArrowArrayValidityBitmap(array);
  cr_assert_eq(ArrowBufferAppendInt32(ArrowArrayBuffer(array, 1), value), NANOARROW_OK);
  if (validity->buffer.data != NULL) {
    cr_assert_eq(ArrowBitmapAppend(validity, 1, 1), NANOARROW_OK);
  }
  array->length++;
}

Test(array_direct_building, values_written_before_the_first_null_stay_valid) {
  struct ArrowArray array;
  struct ArrowError error;
  const uint8_t* bits;
  const int32_t* values;

  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  append_valid_int32(&array, 10);
  append_valid_int32(&array, 11);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  append_valid_int32(&array, 13);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);

  cr_assert_eq(array.length, 4);
  cr_assert_eq(array.null_count, 1);
  bits = (const uint8_t*)array.buffers[0];
  values = (const int32_t*)array.buffers[1];
  cr_assert_not_null(bits);
  cr_assert_eq(bits[0] & 0x0F, 0x0B);
  cr_assert_eq(values[0], 10);
  cr_assert_eq(values[1], 11);
  cr_assert_eq(values[3], 13);
  ArrowArrayRelease(&array);
}

/* Writers that build one array after another move a buffer and a bitmap in, then
 * fill the same structs again for the next array: both come back empty and usable. */
Test(array_direct_building, moved_in_buffer_and_bitmap_come_back_empty) {
  struct ArrowArray first;
  struct ArrowArray second;
  struct ArrowBuffer values;
  struct ArrowBitmap validity;
  const int32_t one[2] = {1, 2};
  const int32_t two[1] = {3};

  ArrowBufferInit(&values);
  ArrowBitmapInit(&validity);
  cr_assert_eq(ArrowArrayInitFromType(&first, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromType(&second, NANOARROW_TYPE_INT32), NANOARROW_OK);

  cr_assert_eq(ArrowBufferAppend(&values, one, sizeof(one)), NANOARROW_OK);
  cr_assert_eq(ArrowBitmapAppend(&validity, 1, 2), NANOARROW_OK);
  cr_assert_eq(ArrowArraySetBuffer(&first, 1, &values), NANOARROW_OK);
  ArrowArraySetValidityBitmap(&first, &validity);
  first.length = 2;
  cr_assert_null(values.data);
  cr_assert_eq(values.size_bytes, 0);
  cr_assert_eq(values.capacity_bytes, 0);
  cr_assert_null(validity.buffer.data);
  cr_assert_eq(validity.size_bits, 0);

  /* The same structs again, for the second array. */
  cr_assert_eq(ArrowBufferAppend(&values, two, sizeof(two)), NANOARROW_OK);
  cr_assert_eq(ArrowBitmapAppend(&validity, 0, 1), NANOARROW_OK);
  cr_assert_eq(validity.size_bits, 1);
  cr_assert_eq(ArrowArraySetBuffer(&second, 1, &values), NANOARROW_OK);
  ArrowArraySetValidityBitmap(&second, &validity);
  second.length = 1;

  cr_assert_eq(ArrowArrayFinishBuildingDefault(&first, NULL), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&second, NULL), NANOARROW_OK);
  cr_assert_eq(memcmp(first.buffers[1], one, sizeof(one)), 0);
  cr_assert_eq(((const uint8_t*)first.buffers[0])[0] & 0x03, 0x03);
  cr_assert_eq(((const int32_t*)second.buffers[1])[0], 3);
  cr_assert_eq(((const uint8_t*)second.buffers[0])[0] & 0x01, 0x00);
  ArrowArrayRelease(&first);
  ArrowArrayRelease(&second);
  ArrowBufferReset(&values);
  ArrowBitmapReset(&validity);
}

/* An aggregate that reserves its data buffer, finishes the array empty, then writes
 * into the buffer and sets the length: the reserved memory is what finishing exported
 * (an empty buffer with memory is not replaced by NULL or another allocation). */
Test(array_direct_building, finishing_keeps_a_reserved_empty_buffer) {
  struct ArrowArray array;
  struct ArrowBuffer* data;
  uint8_t* reserved;

  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  data = ArrowArrayBuffer(&array, 1);
  cr_assert_eq(ArrowBufferReserve(data, 4 * sizeof(int32_t)), NANOARROW_OK);
  reserved = data->data;
  cr_assert_not_null(reserved);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, NULL), NANOARROW_OK);
  cr_assert_eq(array.length, 0);
  cr_assert_eq((const void*)array.buffers[1], (const void*)reserved);

  ((int32_t*)reserved)[0] = 41;
  ((int32_t*)reserved)[1] = 42;
  array.length = 2;
  cr_assert_eq(((const int32_t*)array.buffers[1])[1], 42);
  ArrowArrayRelease(&array);
}

/* A builder that writes through ArrowArrayBuffer() and sets size_bytes itself: the
 * sizes it set are what finishing checks and exports. */
Test(array_direct_building, sizes_set_by_the_caller_are_finished_as_set) {
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  struct ArrowBuffer* offsets;
  struct ArrowBuffer* chars;
  const int32_t offset_values[3] = {0, 3, 5};
  struct ArrowStringView item;

  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  offsets = ArrowArrayBuffer(&array, 1);
  chars = ArrowArrayBuffer(&array, 2);
  cr_assert_eq(ArrowBufferReserve(offsets, sizeof(offset_values)), NANOARROW_OK);
  cr_assert_eq(ArrowBufferReserve(chars, 5), NANOARROW_OK);
  memcpy(offsets->data, offset_values, sizeof(offset_values));
  offsets->size_bytes = sizeof(offset_values);
  memcpy(chars->data, "abcde", 5);
  chars->size_bytes = 5;
  array.length = 2;
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.buffer_views[1].size_bytes, (int64_t)sizeof(offset_values));
  cr_assert_eq(view.buffer_views[2].size_bytes, 5);
  item = ArrowArrayViewGetStringUnsafe(&view, 1);
  cr_assert_eq(item.size_bytes, 2);
  cr_assert_eq(memcmp(item.data, "de", 2), 0);

  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
}

/* A consumer of an exported empty string or list array reads offset 0 whenever the
 * offsets pointer is not NULL (the offsets buffer of length n holds n + 1 offsets).
 * An array finished without ever appending (no ArrowArrayStartAppending, as Python
 * bindings do for an empty column) must export either NULL or memory holding one
 * zero offset of the offset width; it once exported one uninitialized byte. */
static void check_empty_offsets(enum ArrowType type, int64_t offset_bytes) {
  struct ArrowArray array;
  struct ArrowBuffer* offsets;
  struct ArrowError error;

  cr_assert_eq(ArrowArrayInitFromType(&array, type), NANOARROW_OK);
  if (type == NANOARROW_TYPE_LIST || type == NANOARROW_TYPE_LARGE_LIST) {
    if (array.n_children == 0) {
      cr_assert_eq(ArrowArrayAllocateChildren(&array, 1), NANOARROW_OK);
    }
    if (array.children[0]->release == NULL) {
      cr_assert_eq(ArrowArrayInitFromType(array.children[0], NANOARROW_TYPE_INT32),
                   NANOARROW_OK);
    }
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(array.length, 0);
  offsets = ArrowArrayBuffer(&array, 1);
  if (array.buffers[1] != NULL) {
    cr_assert_eq((const void*)array.buffers[1], (const void*)offsets->data);
    cr_assert_geq(offsets->capacity_bytes, offset_bytes, "type %d: %" PRId64 " bytes",
                  (int)type, offsets->capacity_bytes);
    if (offset_bytes == 8) {
      cr_assert_eq(((const int64_t*)array.buffers[1])[0], 0);
    } else {
      cr_assert_eq(((const int32_t*)array.buffers[1])[0], 0);
    }
  }
  ArrowArrayRelease(&array);
}

Test(array_direct_building, empty_array_finished_unappended_exports_a_zero_offset) {
  check_empty_offsets(NANOARROW_TYPE_STRING, 4);
  check_empty_offsets(NANOARROW_TYPE_BINARY, 4);
  check_empty_offsets(NANOARROW_TYPE_LARGE_STRING, 8);
  check_empty_offsets(NANOARROW_TYPE_LARGE_BINARY, 8);
  check_empty_offsets(NANOARROW_TYPE_LIST, 4);
  check_empty_offsets(NANOARROW_TYPE_LARGE_LIST, 8);
}
