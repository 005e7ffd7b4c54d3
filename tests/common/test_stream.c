/* ArrowBasicArrayStream and the ArrowArrayStream helper functions. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

/* Hand-built int32 arrays, so these tests do not depend on the array builder. */
static int g_live_arrays = 0;

struct TestArrayData {
  const void* buffers[2];
  int32_t* values;
};

static void ReleaseTestArray(struct ArrowArray* array) {
  struct TestArrayData* data = (struct TestArrayData*)array->private_data;
  free(data->values);
  free(data);
  array->release = NULL;
  g_live_arrays--;
}

/* values first, first + 1, ... */
static void MakeInt32Array(struct ArrowArray* array, int64_t length, int32_t first) {
  struct TestArrayData* data = (struct TestArrayData*)malloc(sizeof(struct TestArrayData));
  cr_assert_not_null(data);
  data->values = (int32_t*)malloc((size_t)(length + 1) * sizeof(int32_t));
  cr_assert_not_null(data->values);
  for (int64_t i = 0; i < length; i++) {
    data->values[i] = first + (int32_t)i;
  }
  data->buffers[0] = NULL;
  data->buffers[1] = data->values;

  array->length = length;
  array->null_count = 0;
  array->offset = 0;
  array->n_buffers = 2;
  array->n_children = 0;
  array->buffers = data->buffers;
  array->children = NULL;
  array->dictionary = NULL;
  array->release = &ReleaseTestArray;
  array->private_data = data;
  g_live_arrays++;
}

static void MakeInt32Schema(struct ArrowSchema* schema) {
  cr_assert_eq(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema, "col"), NANOARROW_OK);
}

/* A basic stream over n_arrays arrays of length 3 starting at 10 * i. */
static void MakeStream(struct ArrowArrayStream* stream, int64_t n_arrays) {
  struct ArrowSchema schema;
  MakeInt32Schema(&schema);
  cr_assert_eq(ArrowBasicArrayStreamInit(stream, &schema, n_arrays), NANOARROW_OK);
  cr_assert_null(schema.release, "the stream takes ownership of the schema");
  for (int64_t i = 0; i < n_arrays; i++) {
    struct ArrowArray array;
    MakeInt32Array(&array, 3, (int32_t)(10 * i));
    ArrowBasicArrayStreamSetArray(stream, i, &array);
    cr_assert_null(array.release, "the stream takes ownership of the array");
  }
}

Test(stream, basic_stream_yields_schema_and_arrays_in_order) {
  struct ArrowArrayStream stream;
  MakeStream(&stream, 3);

  struct ArrowSchema schema;
  cr_assert_eq(stream.get_schema(&stream, &schema), NANOARROW_OK);
  cr_assert_str_eq(schema.format, "i");
  cr_assert_str_eq(schema.name, "col");
  schema.release(&schema);

  for (int i = 0; i < 3; i++) {
    struct ArrowArray array;
    cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK);
    cr_assert_not_null(array.release);
    cr_assert_eq(array.length, 3);
    const int32_t* values = (const int32_t*)array.buffers[1];
    cr_assert_eq(values[0], 10 * i);
    cr_assert_eq(values[2], 10 * i + 2);
    array.release(&array);
  }

  /* End of stream, repeatedly. */
  for (int i = 0; i < 2; i++) {
    struct ArrowArray array;
    array.release = &ReleaseTestArray;
    cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK);
    cr_assert_null(array.release);
  }

  stream.release(&stream);
  cr_assert_null(stream.release);
  cr_assert_eq(g_live_arrays, 0);
}

Test(stream, get_schema_returns_independent_copies) {
  struct ArrowArrayStream stream;
  MakeStream(&stream, 0);

  struct ArrowSchema first;
  struct ArrowSchema second;
  cr_assert_eq(stream.get_schema(&stream, &first), NANOARROW_OK);
  cr_assert_eq(stream.get_schema(&stream, &second), NANOARROW_OK);
  cr_assert_neq(first.format, second.format);

  /* Copies outlive each other and the stream. */
  first.release(&first);
  stream.release(&stream);
  cr_assert_str_eq(second.format, "i");
  cr_assert_str_eq(second.name, "col");
  second.release(&second);
}

Test(stream, empty_stream_ends_immediately) {
  struct ArrowArrayStream stream;
  MakeStream(&stream, 0);
  struct ArrowArray array;
  cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK);
  cr_assert_null(array.release);
  cr_assert_null(stream.get_last_error(&stream));
  stream.release(&stream);
}

Test(stream, release_frees_unconsumed_arrays) {
  struct ArrowArrayStream stream;
  MakeStream(&stream, 4);
  cr_assert_eq(g_live_arrays, 4);

  struct ArrowArray array;
  cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK);
  stream.release(&stream);
  /* The consumed array is the consumer's; the other three went with the stream. */
  cr_assert_eq(g_live_arrays, 1);
  cr_assert_not_null(array.release);
  array.release(&array);
  cr_assert_eq(g_live_arrays, 0);
}

Test(stream, unset_slots_and_replaced_arrays) {
  struct ArrowSchema schema;
  MakeInt32Schema(&schema);
  struct ArrowArrayStream stream;
  cr_assert_eq(ArrowBasicArrayStreamInit(&stream, &schema, 3), NANOARROW_OK);

  struct ArrowArray array;
  MakeInt32Array(&array, 1, 100);
  ArrowBasicArrayStreamSetArray(&stream, 1, &array);
  /* Setting a slot twice releases what it held. */
  MakeInt32Array(&array, 2, 200);
  ArrowBasicArrayStreamSetArray(&stream, 1, &array);
  cr_assert_eq(g_live_arrays, 1);

  /* Slot 0 was never set: a released array comes out. */
  cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK);
  cr_assert_null(array.release);
  cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK);
  cr_assert_not_null(array.release);
  cr_assert_eq(array.length, 2);
  array.release(&array);

  stream.release(&stream);
  cr_assert_eq(g_live_arrays, 0);
}

Test(stream, init_rejects_negative_count_without_taking_schema) {
  struct ArrowSchema schema;
  MakeInt32Schema(&schema);
  struct ArrowArrayStream stream;
  cr_assert_eq(ArrowBasicArrayStreamInit(&stream, &schema, -1), EINVAL);
  cr_assert_not_null(schema.release);
  cr_assert_neq(ArrowBasicArrayStreamInit(&stream, &schema, INT64_MAX), NANOARROW_OK);
  cr_assert_not_null(schema.release);
  schema.release(&schema);
}

Test(stream, validate_accepts_valid_arrays) {
  struct ArrowArrayStream stream;
  struct ArrowError error;
  MakeStream(&stream, 3);
  ArrowErrorInit(&error);
  cr_assert_eq(ArrowBasicArrayStreamValidate(&stream, &error), NANOARROW_OK, "%s",
               error.message);
  stream.release(&stream);
}

Test(stream, validate_names_the_bad_array) {
  struct ArrowArrayStream stream;
  struct ArrowError error;
  MakeStream(&stream, 4);

  /* Replace array 2 with one missing its data buffer. */
  struct ArrowArray bad;
  MakeInt32Array(&bad, 3, 0);
  bad.n_buffers = 1;
  ArrowBasicArrayStreamSetArray(&stream, 2, &bad);

  ArrowErrorInit(&error);
  cr_assert_eq(ArrowBasicArrayStreamValidate(&stream, &error), EINVAL);
  cr_assert_neq(strstr(error.message, "index 2"), NULL, "message: %s", error.message);

  /* Validation does not consume anything. */
  struct ArrowArray array;
  cr_assert_eq(stream.get_next(&stream, &array), NANOARROW_OK);
  cr_assert_eq(((const int32_t*)array.buffers[1])[0], 0);
  array.release(&array);

  stream.release(&stream);
  cr_assert_eq(g_live_arrays, 0);
}

Test(stream, validate_rejects_streams_it_did_not_create) {
  struct ArrowArrayStream stream;
  struct ArrowError error;
  memset(&stream, 0, sizeof(stream));
  cr_assert_eq(ArrowBasicArrayStreamValidate(&stream, &error), EINVAL);

  MakeStream(&stream, 0);
  struct ArrowArrayStream copy = stream;
  copy.get_next = NULL;
  cr_assert_eq(ArrowBasicArrayStreamValidate(&copy, &error), EINVAL);
  stream.release(&stream);
}

Test(stream, helper_functions_on_basic_stream) {
  struct ArrowArrayStream stream;
  struct ArrowError error;
  MakeStream(&stream, 1);

  struct ArrowSchema schema;
  cr_assert_eq(ArrowArrayStreamGetSchema(&stream, &schema, &error), NANOARROW_OK);
  cr_assert_str_eq(schema.format, "i");
  ArrowSchemaRelease(&schema);
  cr_assert_null(schema.release);

  struct ArrowArray array;
  cr_assert_eq(ArrowArrayStreamGetNext(&stream, &array, &error), NANOARROW_OK);
  cr_assert_eq(array.length, 3);
  ArrowArrayRelease(&array);
  cr_assert_null(array.release);

  cr_assert_eq(ArrowArrayStreamGetNext(&stream, &array, NULL), NANOARROW_OK);
  cr_assert_null(array.release);
  cr_assert_null(ArrowArrayStreamGetLastError(&stream));

  /* Move leaves the source released and the destination working. */
  struct ArrowArrayStream moved;
  ArrowArrayStreamMove(&stream, &moved);
  cr_assert_null(stream.release);
  cr_assert_not_null(moved.release);
  ArrowArrayStreamRelease(&moved);
  cr_assert_null(moved.release);
}

/* A producer whose callbacks fail, optionally with a message. */
struct FailingStreamData {
  int code;
  const char* message;
  int n_get_next_calls;
};

static int FailingGetSchema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  NANOARROW_UNUSED(out);
  return ((struct FailingStreamData*)stream->private_data)->code;
}

static int FailingGetNext(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  NANOARROW_UNUSED(out);
  struct FailingStreamData* data = (struct FailingStreamData*)stream->private_data;
  data->n_get_next_calls++;
  return data->code;
}

static const char* FailingGetLastError(struct ArrowArrayStream* stream) {
  return ((struct FailingStreamData*)stream->private_data)->message;
}

static void FailingRelease(struct ArrowArrayStream* stream) { stream->release = NULL; }

static void MakeFailingStream(struct ArrowArrayStream* stream, struct FailingStreamData* data) {
  stream->get_schema = &FailingGetSchema;
  stream->get_next = &FailingGetNext;
  stream->get_last_error = &FailingGetLastError;
  stream->release = &FailingRelease;
  stream->private_data = data;
}

Test(stream, helpers_propagate_producer_errors) {
  struct FailingStreamData data = {EIO, "disk on fire", 0};
  struct ArrowArrayStream stream;
  struct ArrowError error;
  MakeFailingStream(&stream, &data);

  struct ArrowArray array;
  ArrowErrorInit(&error);
  cr_assert_eq(ArrowArrayStreamGetNext(&stream, &array, &error), EIO);
  cr_assert_eq(data.n_get_next_calls, 1);
  cr_assert_neq(strstr(error.message, "disk on fire"), NULL, "message: %s", error.message);

  struct ArrowSchema schema;
  ArrowErrorInit(&error);
  cr_assert_eq(ArrowArrayStreamGetSchema(&stream, &schema, &error), EIO);
  cr_assert_neq(strstr(error.message, "disk on fire"), NULL, "message: %s", error.message);

  cr_assert_str_eq(ArrowArrayStreamGetLastError(&stream), "disk on fire");

  /* A NULL error is fine. */
  cr_assert_eq(ArrowArrayStreamGetNext(&stream, &array, NULL), EIO);

  ArrowArrayStreamRelease(&stream);
  cr_assert_null(stream.release);
}

Test(stream, helpers_report_failure_without_producer_message) {
  struct FailingStreamData data = {EINVAL, NULL, 0};
  struct ArrowArrayStream stream;
  struct ArrowError error;
  MakeFailingStream(&stream, &data);

  struct ArrowArray array;
  ArrowErrorInit(&error);
  cr_assert_eq(ArrowArrayStreamGetNext(&stream, &array, &error), EINVAL);
  cr_assert_neq(error.message[0], '\0', "a failure must leave some message");
  ArrowArrayStreamRelease(&stream);
}
