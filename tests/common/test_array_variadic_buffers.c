/* Buffers of binary and string view arrays being built, by index: 0 validity, 1 views,
 * 2 .. n + 1 the n variadic data buffers, n + 2 the variadic sizes (int64 each), both
 * through ArrowArrayBuffer() and ArrowArraySetBuffer(). Many variadic buffers, so that
 * an index mapped past the array's own storage shows under ASan. */

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#define N_VARIADIC 40

/* The string held by variadic buffer i: 20 + i bytes, too long to be inlined. */
static int64_t long_string(int32_t i, char* out) {
  int64_t n = 20 + i;
  int64_t j;
  for (j = 0; j < n; j++) {
    out[j] = (char)('a' + (i + j) % 26);
  }
  return n;
}

static union ArrowBinaryView view_of(const char* data, int64_t size, int32_t index) {
  union ArrowBinaryView view;
  memset(&view, 0, sizeof(view));
  view.ref.size = (int32_t)size;
  memcpy(view.ref.prefix, data, 4);
  view.ref.buffer_index = index;
  view.ref.offset = 0;
  return view;
}

static void assert_strings(struct ArrowArray* array, enum ArrowType type) {
  struct ArrowArrayView view;
  struct ArrowError error;
  int32_t i;
  error.message[0] = '\0';
  ArrowArrayViewInitFromType(&view, type);
  cr_assert_eq(ArrowArrayViewSetArray(&view, array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.n_variadic_buffers, N_VARIADIC);
  for (i = 0; i < N_VARIADIC; i++) {
    char expected[64];
    int64_t n = long_string(i, expected);
    struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(&view, i);
    cr_assert_eq(value.size_bytes, n, "element %d", (int)i);
    cr_assert_eq(memcmp(value.data, expected, (size_t)n), 0, "element %d", (int)i);
    cr_assert_eq(view.variadic_buffer_sizes[i], n, "size of variadic buffer %d", (int)i);
  }
  ArrowArrayViewReset(&view);
}

/* Exported buffers and ArrowArrayBuffer() agree for every index. */
static void assert_buffers_match(struct ArrowArray* array) {
  int64_t i;
  cr_assert_eq(array->n_buffers, 2 + N_VARIADIC + 1);
  for (i = 0; i < array->n_buffers; i++) {
    struct ArrowBuffer* buffer = ArrowArrayBuffer(array, i);
    cr_assert_not_null(buffer, "buffer %d", (int)i);
    cr_assert_eq((const void*)buffer->data, array->buffers[i], "buffer %d", (int)i);
  }
  for (i = 0; i < N_VARIADIC; i++) {
    cr_assert_eq(((const int64_t*)array->buffers[2 + N_VARIADIC])[i],
                 ArrowArrayBuffer(array, 2 + i)->size_bytes, "size %d", (int)i);
  }
}

Test(array_variadic_buffers, buffer_maps_every_index) {
  enum ArrowType types[] = {NANOARROW_TYPE_STRING_VIEW, NANOARROW_TYPE_BINARY_VIEW};
  size_t t;
  for (t = 0; t < 2; t++) {
    struct ArrowArray array;
    struct ArrowError error;
    int32_t i;
    error.message[0] = '\0';
    cr_assert_eq(ArrowArrayInitFromType(&array, types[t]), NANOARROW_OK);
    cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, N_VARIADIC), NANOARROW_OK);
    cr_assert_eq(array.n_buffers, 2 + N_VARIADIC + 1);
    /* The variadic buffers are distinct ArrowBuffers, and none is the views buffer
     * or the sizes buffer. */
    for (i = 0; i < N_VARIADIC + 3; i++) {
      int32_t j;
      for (j = 0; j < i; j++) {
        cr_assert_neq(ArrowArrayBuffer(&array, i), ArrowArrayBuffer(&array, j),
                      "buffers %d and %d are the same", (int)i, (int)j);
      }
    }
    for (i = 0; i < N_VARIADIC; i++) {
      char data[64];
      int64_t n = long_string(i, data);
      union ArrowBinaryView view = view_of(data, n, i);
      cr_assert_eq(ArrowBufferAppend(ArrowArrayBuffer(&array, 2 + i), data, n),
                   NANOARROW_OK);
      cr_assert_eq(ArrowBufferAppend(ArrowArrayBuffer(&array, 1), &view, sizeof(view)),
                   NANOARROW_OK);
    }
    array.length = N_VARIADIC;
    cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 NANOARROW_OK, "%s", error.message);
    assert_buffers_match(&array);
    assert_strings(&array, types[t]);
    /* The last buffer is the sizes buffer, an int64 per variadic buffer. */
    cr_assert_eq(ArrowArrayBuffer(&array, 2 + N_VARIADIC)->size_bytes,
                 (int64_t)sizeof(int64_t) * N_VARIADIC);
    ArrowArrayRelease(&array);
  }
}

Test(array_variadic_buffers, set_buffer_accepts_every_index) {
  struct ArrowArray array;
  struct ArrowError error;
  struct ArrowBuffer buffer;
  int32_t i;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, N_VARIADIC), NANOARROW_OK);

  ArrowBufferInit(&buffer);
  for (i = 0; i < N_VARIADIC; i++) {
    char data[64];
    int64_t n = long_string(i, data);
    union ArrowBinaryView view = view_of(data, n, i);
    cr_assert_eq(ArrowBufferAppend(&buffer, &view, sizeof(view)), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArraySetBuffer(&array, 1, &buffer), NANOARROW_OK);
  for (i = 0; i < N_VARIADIC; i++) {
    char data[64];
    int64_t n = long_string(i, data);
    const uint8_t* moved;
    ArrowBufferInit(&buffer);
    cr_assert_eq(ArrowBufferAppend(&buffer, data, n), NANOARROW_OK);
    moved = buffer.data;
    cr_assert_eq(ArrowArraySetBuffer(&array, 2 + i, &buffer), NANOARROW_OK,
                 "variadic buffer %d refused", (int)i);
    cr_assert_null(buffer.data, "buffer %d was not moved", (int)i);
    cr_assert_eq(ArrowArrayBuffer(&array, 2 + i)->data, moved);
  }
  /* Past the last buffer (the sizes buffer) is refused. */
  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowArraySetBuffer(&array, 2 + N_VARIADIC + 1, &buffer), EINVAL);
  cr_assert_eq(ArrowArraySetBuffer(&array, -1, &buffer), EINVAL);

  array.length = N_VARIADIC;
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  assert_buffers_match(&array);
  assert_strings(&array, NANOARROW_TYPE_STRING_VIEW);
  ArrowArrayRelease(&array);
}

Test(array_variadic_buffers, set_buffer_of_sizes_is_exported_as_set) {
  struct ArrowArray array;
  struct ArrowError error;
  struct ArrowBuffer buffer;
  int32_t i;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_BINARY_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, N_VARIADIC), NANOARROW_OK);
  ArrowBufferInit(&buffer);
  for (i = 0; i < N_VARIADIC; i++) {
    char data[64];
    int64_t n = long_string(i, data);
    union ArrowBinaryView view = view_of(data, n, i);
    cr_assert_eq(ArrowBufferAppend(ArrowArrayBuffer(&array, 2 + i), data, n), NANOARROW_OK);
    cr_assert_eq(ArrowBufferAppend(ArrowArrayBuffer(&array, 1), &view, sizeof(view)),
                 NANOARROW_OK);
    cr_assert_eq(ArrowBufferAppendInt64(&buffer, n), NANOARROW_OK);
  }
  {
    const uint8_t* sizes = buffer.data;
    cr_assert_eq(ArrowArraySetBuffer(&array, 2 + N_VARIADIC, &buffer), NANOARROW_OK);
    array.length = N_VARIADIC;
    cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(array.buffers[2 + N_VARIADIC], (const void*)sizes);
  }
  assert_buffers_match(&array);
  assert_strings(&array, NANOARROW_TYPE_BINARY_VIEW);
  ArrowArrayRelease(&array);
}

Test(array_variadic_buffers, sizes_shorter_than_the_buffers_are_refused) {
  struct ArrowArray array;
  struct ArrowError error;
  struct ArrowBuffer sizes;
  char data[64];
  int64_t n = long_string(0, data);
  union ArrowBinaryView view = view_of(data, n, 1);
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, 2), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(ArrowArrayBuffer(&array, 3), data, n), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(ArrowArrayBuffer(&array, 1), &view, sizeof(view)),
               NANOARROW_OK);
  array.length = 1;
  /* One size for two buffers: a consumer would read past it. */
  ArrowBufferInit(&sizes);
  cr_assert_eq(ArrowBufferAppendInt64(&sizes, 0), NANOARROW_OK);
  cr_assert_eq(ArrowArraySetBuffer(&array, 4, &sizes), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), EINVAL);
  cr_assert(strstr(error.message, "sizes") != NULL, "%s", error.message);
  ArrowArrayRelease(&array);
}

Test(array_variadic_buffers, appended_strings_map_to_their_buffers) {
  struct ArrowArray array;
  struct ArrowError error;
  char big[20000];
  int64_t i;
  int32_t n_variadic;
  error.message[0] = '\0';
  memset(big, 'x', sizeof(big));
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  for (i = 0; i < 30; i++) {
    struct ArrowStringView value;
    value.data = big;
    value.size_bytes = (int64_t)sizeof(big) - i;
    cr_assert_eq(ArrowArrayAppendString(&array, value), NANOARROW_OK);
  }
  n_variadic = ArrowArrayVariadicBufferCount(&array);
  cr_assert_gt(n_variadic, 3);
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(array.n_buffers, 2 + n_variadic + 1);
  for (i = 0; i < array.n_buffers; i++) {
    cr_assert_eq((const void*)ArrowArrayBuffer(&array, i)->data, array.buffers[i],
                 "buffer %d", (int)i);
  }
  for (i = 0; i < n_variadic; i++) {
    cr_assert_eq(((const int64_t*)array.buffers[2 + n_variadic])[i],
                 ArrowArrayBuffer(&array, 2 + i)->size_bytes);
  }
  /* More appends after finishing: the sizes follow. */
  {
    struct ArrowStringView value;
    value.data = big;
    value.size_bytes = (int64_t)sizeof(big);
    cr_assert_eq(ArrowArrayAppendString(&array, value), NANOARROW_OK);
    cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 NANOARROW_OK, "%s", error.message);
    n_variadic = ArrowArrayVariadicBufferCount(&array);
    for (i = 0; i < n_variadic; i++) {
      cr_assert_eq(((const int64_t*)array.buffers[2 + n_variadic])[i],
                   ArrowArrayBuffer(&array, 2 + i)->size_bytes);
    }
  }
  ArrowArrayRelease(&array);
}

Test(array_variadic_buffers, no_variadic_buffers_leaves_sizes_at_index_two) {
  struct ArrowArray array;
  struct ArrowError error;
  struct ArrowStringView value;
  error.message[0] = '\0';
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  value.data = "short";
  value.size_bytes = 5;
  cr_assert_eq(ArrowArrayAppendString(&array, value), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(array.n_buffers, 3);
  cr_assert_eq(ArrowArrayBuffer(&array, 2)->size_bytes, 0);
  cr_assert_eq((const void*)ArrowArrayBuffer(&array, 1)->data, array.buffers[1]);
  ArrowArrayRelease(&array);
}

Test(array_variadic_buffers, index_outside_the_array_gives_null) {
  struct ArrowArray array;
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAddVariadicBuffers(&array, 2), NANOARROW_OK);
  cr_assert_not_null(ArrowArrayBuffer(&array, 4));
  cr_assert_null(ArrowArrayBuffer(&array, 5));
  cr_assert_null(ArrowArrayBuffer(&array, 1000));
  cr_assert_null(ArrowArrayBuffer(&array, -1));
  ArrowArrayRelease(&array);

  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_not_null(ArrowArrayBuffer(&array, 2));
  cr_assert_null(ArrowArrayBuffer(&array, 3));
  ArrowArrayRelease(&array);
}
