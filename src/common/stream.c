/* ArrowBasicArrayStream: an ArrowArrayStream over a fixed list of arrays. */

#include <inttypes.h>
#include <stdint.h>

#include "nanoarrow/nanoarrow.h"

struct ArrowBasicArrayStreamPrivate {
  struct ArrowSchema schema;
  int64_t n_arrays;
  /* Slots not yet handed out by get_next; released slots are empty. */
  struct ArrowArray* arrays;
  int64_t next_array_index;
};

static int ArrowBasicArrayStreamGetSchema(struct ArrowArrayStream* array_stream,
                                          struct ArrowSchema* schema) {
  if (array_stream == NULL || array_stream->release == NULL || schema == NULL) {
    return EINVAL;
  }

  struct ArrowBasicArrayStreamPrivate* private_data =
      (struct ArrowBasicArrayStreamPrivate*)array_stream->private_data;
  return ArrowSchemaDeepCopy(&private_data->schema, schema);
}

static int ArrowBasicArrayStreamGetNext(struct ArrowArrayStream* array_stream,
                                        struct ArrowArray* array) {
  if (array_stream == NULL || array_stream->release == NULL || array == NULL) {
    return EINVAL;
  }

  struct ArrowBasicArrayStreamPrivate* private_data =
      (struct ArrowBasicArrayStreamPrivate*)array_stream->private_data;

  if (private_data->next_array_index == private_data->n_arrays) {
    /* End of stream: a released array. */
    array->release = NULL;
    return NANOARROW_OK;
  }

  ArrowArrayMove(&private_data->arrays[private_data->next_array_index++], array);
  return NANOARROW_OK;
}

static const char* ArrowBasicArrayStreamGetLastError(
    struct ArrowArrayStream* array_stream) {
  /* No callback of this stream fails with a message worth keeping. */
  NANOARROW_UNUSED(array_stream);
  return NULL;
}

NANOARROW_COLD
static void ArrowBasicArrayStreamRelease(struct ArrowArrayStream* array_stream) {
  if (array_stream == NULL || array_stream->release == NULL) {
    return;
  }

  struct ArrowBasicArrayStreamPrivate* private_data =
      (struct ArrowBasicArrayStreamPrivate*)array_stream->private_data;

  if (private_data->schema.release != NULL) {
    private_data->schema.release(&private_data->schema);
  }

  for (int64_t i = private_data->next_array_index; i < private_data->n_arrays; i++) {
    if (private_data->arrays[i].release != NULL) {
      private_data->arrays[i].release(&private_data->arrays[i]);
    }
  }

  ArrowFree(private_data->arrays);
  ArrowFree(private_data);
  array_stream->private_data = NULL;
  array_stream->release = NULL;
}

NANOARROW_COLD
ArrowErrorCode ArrowBasicArrayStreamInit(struct ArrowArrayStream* array_stream,
                                         struct ArrowSchema* schema, int64_t n_arrays) {
  if (array_stream == NULL || schema == NULL || n_arrays < 0) {
    return EINVAL;
  }
  if ((uint64_t)n_arrays > (uint64_t)INT64_MAX / sizeof(struct ArrowArray)) {
    return ENOMEM;
  }

  struct ArrowBasicArrayStreamPrivate* private_data =
      (struct ArrowBasicArrayStreamPrivate*)ArrowMalloc(
          sizeof(struct ArrowBasicArrayStreamPrivate));
  if (private_data == NULL) {
    return ENOMEM;
  }

  private_data->arrays = NULL;
  if (n_arrays > 0) {
    private_data->arrays = (struct ArrowArray*)ArrowMalloc(
        n_arrays * (int64_t)sizeof(struct ArrowArray));
    if (private_data->arrays == NULL) {
      ArrowFree(private_data);
      return ENOMEM;
    }
  }

  for (int64_t i = 0; i < n_arrays; i++) {
    private_data->arrays[i].release = NULL;
  }

  /* Ownership of schema moves only once nothing else can fail. */
  ArrowSchemaMove(schema, &private_data->schema);
  private_data->n_arrays = n_arrays;
  private_data->next_array_index = 0;

  array_stream->get_schema = &ArrowBasicArrayStreamGetSchema;
  array_stream->get_next = &ArrowBasicArrayStreamGetNext;
  array_stream->get_last_error = &ArrowBasicArrayStreamGetLastError;
  array_stream->release = &ArrowBasicArrayStreamRelease;
  array_stream->private_data = private_data;
  return NANOARROW_OK;
}

NANOARROW_COLD
void ArrowBasicArrayStreamSetArray(struct ArrowArrayStream* array_stream, int64_t i,
                                   struct ArrowArray* array) {
  struct ArrowBasicArrayStreamPrivate* private_data =
      (struct ArrowBasicArrayStreamPrivate*)array_stream->private_data;
  NANOARROW_DCHECK(i >= 0 && i < private_data->n_arrays);
  if (i < 0 || i >= private_data->n_arrays) {
    return;
  }

  /* Replacing a slot must not leak what it held. */
  if (private_data->arrays[i].release != NULL) {
    private_data->arrays[i].release(&private_data->arrays[i]);
  }
  ArrowArrayMove(array, &private_data->arrays[i]);
}

NANOARROW_COLD
ArrowErrorCode ArrowBasicArrayStreamValidate(const struct ArrowArrayStream* array_stream,
                                             struct ArrowError* error) {
  if (array_stream == NULL || array_stream->release == NULL) {
    ArrowErrorSet(error, "array stream is NULL or released");
    return EINVAL;
  }

  if (array_stream->get_next != &ArrowBasicArrayStreamGetNext) {
    ArrowErrorSet(error, "array stream was not created by ArrowBasicArrayStreamInit()");
    return EINVAL;
  }

  const struct ArrowBasicArrayStreamPrivate* private_data =
      (const struct ArrowBasicArrayStreamPrivate*)array_stream->private_data;

  struct ArrowArrayView array_view;
  struct ArrowError local_error;
  local_error.message[0] = '\0';
  ArrowErrorCode result =
      ArrowArrayViewInitFromSchema(&array_view, &private_data->schema, &local_error);
  if (result != NANOARROW_OK) {
    ArrowErrorSet(error, "stream schema is invalid: %s", local_error.message);
    return result;
  }

  /* Slots already handed out by get_next are empty and skipped. */
  for (int64_t i = private_data->next_array_index; i < private_data->n_arrays; i++) {
    if (private_data->arrays[i].release == NULL) {
      continue;
    }

    local_error.message[0] = '\0';
    result = ArrowArrayViewSetArray(&array_view, &private_data->arrays[i], &local_error);
    if (result != NANOARROW_OK) {
      ArrowErrorSet(error, "array at index %" PRId64 " is invalid: %s", i,
                    local_error.message);
      break;
    }
  }

  ArrowArrayViewReset(&array_view);
  return result;
}
