/* Shared buffers and arrays (nanoarrow 0.9.0): reference counts, clones that keep
 * memory alive until the last release, and arrays made of shared buffers. */

#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

/* An allocator that counts how often its memory was freed. */
static int g_frees;
static void CountingFree(struct ArrowBufferAllocator* allocator, uint8_t* ptr, int64_t size) {
  (void)allocator;
  (void)size;
  ArrowFree(ptr);
  g_frees++;
}

/* A buffer holding "abcdefgh" whose free() is counted. */
static void CountedBuffer(struct ArrowBuffer* buffer) {
  uint8_t* data = (uint8_t*)ArrowMalloc(8);
  cr_assert_not_null(data);
  memcpy(data, "abcdefgh", 8);
  ArrowBufferInit(buffer);
  buffer->data = data;
  buffer->size_bytes = 8;
  buffer->capacity_bytes = 8;
  buffer->allocator = ArrowBufferDeallocator(&CountingFree, NULL);
}

Test(shared_buffer, init_moves_src_and_reset_frees_once) {
  struct ArrowBuffer src;
  struct ArrowBuffer shared;
  g_frees = 0;
  CountedBuffer(&src);
  const uint8_t* data = src.data;
  cr_assert_eq(ArrowSharedBufferInit(&shared, &src), NANOARROW_OK);
  cr_assert_null(src.data, "src is left empty");
  cr_assert_eq(src.size_bytes, 0);
  cr_assert_eq(shared.data, data, "no copy");
  cr_assert_eq(shared.size_bytes, 8);
  cr_assert(ArrowIsSharedBuffer(&shared));
  cr_assert_not(ArrowIsSharedBuffer(&src));
  ArrowBufferReset(&src);
  cr_assert_eq(g_frees, 0);
  ArrowBufferReset(&shared);
  cr_assert_eq(g_frees, 1);
}

Test(shared_buffer, clones_keep_memory_until_last_release) {
  struct ArrowBuffer src;
  struct ArrowBuffer shared;
  struct ArrowBuffer clone1;
  struct ArrowBuffer clone2;
  g_frees = 0;
  CountedBuffer(&src);
  cr_assert_eq(ArrowSharedBufferInit(&shared, &src), NANOARROW_OK);
  cr_assert_eq(ArrowSharedBufferClone(&shared, &clone1), NANOARROW_OK);
  cr_assert_eq(ArrowSharedBufferClone(&clone1, &clone2), NANOARROW_OK);
  cr_assert(ArrowIsSharedBuffer(&clone1));
  cr_assert(ArrowIsSharedBuffer(&clone2));
  cr_assert_eq(clone2.data, shared.data);
  cr_assert_eq(clone2.size_bytes, 8);

  /* Released in an order other than creation: memory stays until the last one. */
  ArrowBufferReset(&shared);
  cr_assert_eq(g_frees, 0);
  cr_assert_eq(memcmp(clone2.data, "abcdefgh", 8), 0);
  ArrowBufferReset(&clone2);
  cr_assert_eq(g_frees, 0);
  cr_assert_eq(memcmp(clone1.data, "abcdefgh", 8), 0);
  ArrowBufferReset(&clone1);
  cr_assert_eq(g_frees, 1);
}

Test(shared_buffer, clone_of_ordinary_buffer_is_einval) {
  struct ArrowBuffer plain;
  struct ArrowBuffer out;
  ArrowBufferInit(&plain);
  cr_assert_eq(ArrowBufferAppend(&plain, "xy", 2), NANOARROW_OK);
  cr_assert_not(ArrowIsSharedBuffer(&plain));
  cr_assert_eq(ArrowSharedBufferClone(&plain, &out), EINVAL);
  ArrowBufferReset(&plain);
}

Test(shared_buffer, empty_source_and_no_growth) {
  struct ArrowBuffer src;
  struct ArrowBuffer shared;
  struct ArrowBuffer clone;
  ArrowBufferInit(&src);
  cr_assert_eq(ArrowSharedBufferInit(&shared, &src), NANOARROW_OK);
  cr_assert(ArrowIsSharedBuffer(&shared));
  cr_assert_null(shared.data);
  cr_assert_eq(ArrowSharedBufferClone(&shared, &clone), NANOARROW_OK);
  /* Shared memory cannot grow. */
  cr_assert_neq(ArrowBufferReserve(&clone, 16), NANOARROW_OK);
  ArrowBufferReset(&clone);
  ArrowBufferReset(&shared); /* ASan/valgrind: the block is freed exactly once */
}

Test(shared_buffer, thread_safety_is_reported) {
  int safe = ArrowSharedBufferIsThreadSafe();
  cr_assert(safe == 0 || safe == 1);
#if defined(__GNUC__) || defined(__clang__)
  cr_assert_eq(safe, 1, "gcc and clang have atomics");
#endif
}

/* Threads that clone and release one shared buffer at once: with atomic counts
 * the memory is freed exactly once, after the last release. */
#define N_CLONE_THREADS 8
#define N_CLONES_PER_THREAD 200000

static void* CloneAndRelease(void* arg) {
  struct ArrowBuffer* shared = (struct ArrowBuffer*)arg;
  for (int i = 0; i < N_CLONES_PER_THREAD; i++) {
    struct ArrowBuffer clone;
    if (ArrowSharedBufferClone(shared, &clone) != NANOARROW_OK) return (void*)1;
    if (clone.data[7] != 'h') return (void*)2;
    ArrowBufferReset(&clone);
  }
  return NULL;
}

Test(shared_buffer, concurrent_clones_and_releases) {
  struct ArrowBuffer src;
  struct ArrowBuffer shared;
  pthread_t threads[N_CLONE_THREADS];
  if (!ArrowSharedBufferIsThreadSafe()) {
    cr_skip_test("reference counts are not atomic in this build");
  }
  g_frees = 0;
  CountedBuffer(&src);
  cr_assert_eq(ArrowSharedBufferInit(&shared, &src), NANOARROW_OK);
  for (int i = 0; i < N_CLONE_THREADS; i++) {
    cr_assert_eq(pthread_create(&threads[i], NULL, &CloneAndRelease, &shared), 0);
  }
  for (int i = 0; i < N_CLONE_THREADS; i++) {
    void* result;
    cr_assert_eq(pthread_join(threads[i], &result), 0);
    cr_assert_null(result, "thread %d failed", i);
  }
  cr_assert_eq(g_frees, 0, "freed while a reference was held");
  ArrowBufferReset(&shared);
  cr_assert_eq(g_frees, 1);
}

/* ---- ArrowSharedArray ---- */

static void MakeInt32(struct ArrowArray* array, int n, int with_null) {
  cr_assert_eq(ArrowArrayInitFromType(array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (int i = 0; i < n; i++) {
    if (with_null && i == 1) {
      cr_assert_eq(ArrowArrayAppendNull(array, 1), NANOARROW_OK);
    } else {
      cr_assert_eq(ArrowArrayAppendInt(array, i), NANOARROW_OK);
    }
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, NULL), NANOARROW_OK);
}

Test(shared_array, buffers_keep_array_alive) {
  struct ArrowArray array;
  struct ArrowSharedArray shared;
  struct ArrowBuffer validity;
  struct ArrowBuffer values;
  MakeInt32(&array, 3, 1);
  const void* values_ptr = array.buffers[1];

  cr_assert(ArrowArrayIsInternal(&array));
  cr_assert_eq(ArrowSharedArrayInit(&shared, &array), NANOARROW_OK);
  cr_assert_null(array.release, "the array was moved");
  cr_assert_eq(ArrowSharedArrayBuffer(&shared, 0, &validity), NANOARROW_OK);
  cr_assert_eq(ArrowSharedArrayBuffer(&shared, 1, &values), NANOARROW_OK);
  cr_assert(ArrowIsSharedBuffer(&validity));
  cr_assert(ArrowIsSharedBuffer(&values));
  cr_assert_eq(values.data, values_ptr);
  cr_assert_eq(values.size_bytes, 3 * 4, "internal arrays give the buffer's size");
  cr_assert_eq(validity.size_bytes, 1);

  struct ArrowBuffer bad;
  cr_assert_eq(ArrowSharedArrayBuffer(&shared, 2, &bad), EINVAL);
  cr_assert_eq(ArrowSharedArrayBuffer(&shared, -1, &bad), EINVAL);

  ArrowSharedArrayRelease(&shared);
  cr_assert_null(shared.private_data);
  ArrowSharedArrayRelease(&shared); /* harmless twice */
  /* The array is still alive through the buffers (ASan would flag a use after free). */
  const int32_t* ints = (const int32_t*)values.data;
  cr_assert_eq(ints[0], 0);
  cr_assert_eq(ints[2], 2);
  ArrowBufferReset(&validity);
  ArrowBufferReset(&values);

  cr_assert_eq(ArrowSharedArrayBuffer(&shared, 0, &bad), EINVAL, "released");
}

/* A foreign (non-internal) array: buffers are not reachable with ArrowArrayBuffer. */
struct ForeignArray {
  int32_t values[4];
  const void* buffers[2];
  int* released;
};

static void ForeignRelease(struct ArrowArray* array) {
  struct ForeignArray* foreign = (struct ForeignArray*)array->private_data;
  (*foreign->released)++;
  ArrowFree(foreign);
  array->release = NULL;
}

static void MakeForeign(struct ArrowArray* array, int* released) {
  struct ForeignArray* foreign = (struct ForeignArray*)ArrowMalloc(sizeof(struct ForeignArray));
  cr_assert_not_null(foreign);
  for (int i = 0; i < 4; i++) foreign->values[i] = 100 + i;
  foreign->buffers[0] = NULL;
  foreign->buffers[1] = foreign->values;
  foreign->released = released;
  memset(array, 0, sizeof(*array));
  array->length = 4;
  array->n_buffers = 2;
  array->buffers = foreign->buffers;
  array->private_data = foreign;
  array->release = &ForeignRelease;
}

Test(shared_array, foreign_array_buffers) {
  int released = 0;
  struct ArrowArray array;
  struct ArrowSharedArray shared;
  struct ArrowBuffer validity;
  struct ArrowBuffer values;
  MakeForeign(&array, &released);
  cr_assert_not(ArrowArrayIsInternal(&array));
  cr_assert_not(ArrowArrayIsInternal(NULL));
  cr_assert_eq(ArrowSharedArrayInit(&shared, &array), NANOARROW_OK);
  cr_assert_eq(ArrowSharedArrayBuffer(&shared, 0, &validity), NANOARROW_OK);
  cr_assert_null(validity.data, "no validity buffer: an empty ordinary buffer");
  cr_assert_not(ArrowIsSharedBuffer(&validity));
  cr_assert_eq(ArrowSharedArrayBuffer(&shared, 1, &values), NANOARROW_OK);
  cr_assert_eq(values.size_bytes, 0, "unknown size of a foreign buffer");
  ArrowSharedArrayRelease(&shared);
  cr_assert_eq(released, 0);
  cr_assert_eq(((const int32_t*)values.data)[3], 103);
  ArrowBufferReset(&values);
  cr_assert_eq(released, 1, "the foreign array is released with the last buffer");
}

/* ---- ArrowArrayMoveShared / ArrowArrayCloneShared ---- */

static void AssertInt32Values(const struct ArrowArray* array) {
  cr_assert_eq(array->length, 3);
  cr_assert_eq(array->null_count, 1);
  const int32_t* ints = (const int32_t*)array->buffers[1];
  const uint8_t* validity = (const uint8_t*)array->buffers[0];
  cr_assert_eq(ints[0], 0);
  cr_assert_eq(ints[2], 2);
  cr_assert_eq(validity[0] & 0x07, 0x05);
}

Test(shared_array, move_then_clone_struct_with_dictionary) {
  struct ArrowArray array;
  struct ArrowArray shared;
  struct ArrowArray clone;
  struct ArrowArray clone2;

  /* struct<a: int32, b: int32 (dictionary int32 values)> built by this library */
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRUCT), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAllocateChildren(&array, 2), NANOARROW_OK);
  MakeInt32(array.children[0], 3, 1);
  MakeInt32(array.children[1], 3, 1);
  cr_assert_eq(ArrowArrayAllocateDictionary(array.children[1]), NANOARROW_OK);
  MakeInt32(array.children[1]->dictionary, 3, 1);
  array.length = 3;
  cr_assert_eq(ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_NONE, NULL),
               NANOARROW_OK);

  /* A clone of an array that is not made of shared buffers is refused. */
  cr_assert_eq(ArrowArrayCloneShared(&array, &clone), EINVAL);

  cr_assert_eq(ArrowArrayMoveShared(&array, &shared), NANOARROW_OK);
  cr_assert_null(array.release);
  cr_assert(ArrowArrayIsInternal(&shared));
  cr_assert_eq(shared.n_children, 2);
  for (int64_t c = 0; c < 2; c++) {
    cr_assert(ArrowArrayIsInternal(shared.children[c]));
    cr_assert(ArrowIsSharedBuffer(ArrowArrayBuffer(shared.children[c], 1)));
    AssertInt32Values(shared.children[c]);
  }
  AssertInt32Values(shared.children[1]->dictionary);

  cr_assert_eq(ArrowArrayCloneShared(&shared, &clone), NANOARROW_OK);
  cr_assert_eq(clone.children[0]->buffers[1], shared.children[0]->buffers[1], "no copy");
  cr_assert_eq(clone.children[1]->dictionary->buffers[1],
               shared.children[1]->dictionary->buffers[1]);

  /* Moving an array that already is shared keeps it as it is. */
  const void* before = clone.children[0]->buffers[1];
  cr_assert_eq(ArrowArrayMoveShared(&clone, &clone2), NANOARROW_OK);
  cr_assert_eq(clone2.children[0]->buffers[1], before);

  /* Release the original first: the clone still reads the values. */
  ArrowArrayRelease(&shared);
  AssertInt32Values(clone2.children[0]);
  AssertInt32Values(clone2.children[1]->dictionary);

  /* The clone validates as an ordinary array of its type. */
  struct ArrowArrayView view;
  struct ArrowSchema schema;
  struct ArrowError error;
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 2), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaAllocateDictionary(schema.children[1]), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[1]->dictionary, NANOARROW_TYPE_INT32),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &clone2, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(ArrowArrayViewGetIntUnsafe(view.children[0], 2), 2);
  cr_assert(ArrowArrayViewIsNull(view.children[0], 1));
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
  ArrowArrayRelease(&clone2);
}

Test(shared_array, move_foreign_array) {
  int released = 0;
  struct ArrowArray array;
  struct ArrowArray shared;
  struct ArrowArray clone;
  MakeForeign(&array, &released);
  cr_assert_eq(ArrowArrayMoveShared(&array, &shared), NANOARROW_OK);
  cr_assert_null(array.release);
  cr_assert(ArrowArrayIsInternal(&shared));
  cr_assert_eq(shared.length, 4);
  cr_assert_null(shared.buffers[0]);
  cr_assert_eq(((const int32_t*)shared.buffers[1])[2], 102);
  cr_assert_eq(ArrowArrayCloneShared(&shared, &clone), NANOARROW_OK);
  ArrowArrayRelease(&shared);
  cr_assert_eq(released, 0, "the clone keeps the foreign array alive");
  cr_assert_eq(((const int32_t*)clone.buffers[1])[3], 103);
  ArrowArrayRelease(&clone);
  cr_assert_eq(released, 1);
}

/* A string view array moves into shared buffers (views, each variadic buffer and
 * the sizes) without a copy, and its clone reads the same values after the
 * original is released. */
Test(shared_array, move_and_clone_a_string_view_array) {
  struct ArrowArray array;
  struct ArrowArray shared;
  struct ArrowArray clone;
  const char* values[3] = {"short", "a string longer than twelve bytes",
                           "another value longer than twelve"};
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView(values[i])), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, NULL), NANOARROW_OK);
  int64_t n_buffers = array.n_buffers;
  cr_assert_geq(n_buffers, 4);
  const void* data_before[8];
  for (int64_t i = 0; i < n_buffers && i < 8; i++) data_before[i] = array.buffers[i];

  cr_assert_eq(ArrowArrayMoveShared(&array, &shared), NANOARROW_OK);
  cr_assert_null(array.release);
  cr_assert_eq(shared.n_buffers, n_buffers);
  for (int64_t i = 0; i < n_buffers && i < 8; i++) {
    cr_assert_eq(shared.buffers[i], data_before[i], "buffer %d moved, not copied", (int)i);
    if (shared.buffers[i] != NULL) {
      cr_assert(ArrowIsSharedBuffer(ArrowArrayBuffer(&shared, i)), "buffer %d", (int)i);
    }
  }

  cr_assert_eq(ArrowArrayCloneShared(&shared, &clone), NANOARROW_OK);
  ArrowArrayRelease(&shared);

  struct ArrowArrayView view;
  struct ArrowError error;
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_STRING_VIEW);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &clone, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error),
               NANOARROW_OK, "%s", error.message);
  for (int i = 0; i < 3; i++) {
    struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(&view, i);
    cr_assert_eq(value.size_bytes, (int64_t)strlen(values[i]));
    cr_assert_eq(memcmp(value.data, values[i], strlen(values[i])), 0);
  }
  cr_assert(ArrowArrayViewIsNull(&view, 3));
  ArrowArrayViewReset(&view);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&clone, &error), NANOARROW_OK, "%s",
               error.message);
  ArrowArrayRelease(&clone);
}

Test(shared_array, buffers_of_a_string_view_array) {
  struct ArrowArray array;
  struct ArrowSharedArray shared;
  struct ArrowBuffer out[4];
  const char* long_value = "a string longer than twelve";
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView(long_value)), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, NULL), NANOARROW_OK);
  cr_assert_eq(array.n_buffers, 4, "validity, views, one variadic buffer, sizes");
  const void* pointers[4];
  for (int i = 0; i < 4; i++) pointers[i] = array.buffers[i];

  cr_assert_eq(ArrowSharedArrayInit(&shared, &array), NANOARROW_OK);
  for (int i = 0; i < 4; i++) {
    cr_assert_eq(ArrowSharedArrayBuffer(&shared, i, &out[i]), NANOARROW_OK);
    cr_assert_eq(out[i].data, pointers[i], "buffer %d", i);
  }
  cr_assert_null(out[0].data, "no nulls: no validity buffer");
  cr_assert_eq(out[1].size_bytes, 16, "one view");
  cr_assert_eq(out[2].size_bytes, (int64_t)strlen(long_value));
  cr_assert_eq(memcmp(out[2].data, long_value, strlen(long_value)), 0);
  cr_assert_eq(out[3].size_bytes, (int64_t)sizeof(int64_t));
  cr_assert_eq(((const int64_t*)out[3].data)[0], (int64_t)strlen(long_value));
  ArrowSharedArrayRelease(&shared);
  for (int i = 0; i < 4; i++) ArrowBufferReset(&out[i]);
}
