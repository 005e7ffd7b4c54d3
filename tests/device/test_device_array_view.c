/* ArrowDeviceArrayView: setting views from device arrays (validated exactly as the
 * core validates the wrapped ArrowArray), copies, and non-CPU arrays refused. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

static void MakeStringArray(struct ArrowArray* array, struct ArrowSchema* schema) {
  cr_assert_eq(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromType(array, NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(array, ArrowCharView("one")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(array, 1), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(array, ArrowCharView("three")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, NULL), NANOARROW_OK);
}

/* struct<i: int32, s: string, l: list<int64>> with nulls at every level. */
static void MakeNestedArray(struct ArrowArray* array, struct ArrowSchema* schema) {
  struct ArrowError error;
  ArrowSchemaInit(schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema, 3), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[0], "i"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[1], NANOARROW_TYPE_STRING), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[1], "s"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[2], NANOARROW_TYPE_LIST), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetName(schema->children[2], "l"), NANOARROW_OK);
  cr_assert_eq(ArrowSchemaSetType(schema->children[2]->children[0], NANOARROW_TYPE_INT64),
               NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromSchema(array, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);

  for (int64_t row = 0; row < 6; row++) {
    if (row == 4) {
      cr_assert_eq(ArrowArrayAppendNull(array, 1), NANOARROW_OK);
      continue;
    }
    struct ArrowArray* list = array->children[2];
    if (row == 2) {
      cr_assert_eq(ArrowArrayAppendNull(array->children[0], 1), NANOARROW_OK);
      cr_assert_eq(ArrowArrayAppendNull(array->children[1], 1), NANOARROW_OK);
      cr_assert_eq(ArrowArrayAppendNull(list, 1), NANOARROW_OK);
    } else {
      char text[16];
      memset(text, 'a' + (int)row, sizeof(text));
      text[row + 1] = '\0';
      cr_assert_eq(ArrowArrayAppendInt(array->children[0], row * 100), NANOARROW_OK);
      cr_assert_eq(ArrowArrayAppendString(array->children[1], ArrowCharView(text)),
                   NANOARROW_OK);
      for (int64_t j = 0; j < row; j++) {
        cr_assert_eq(ArrowArrayAppendInt(list->children[0], row * 10 + j), NANOARROW_OK);
      }
      cr_assert_eq(ArrowArrayFinishElement(list), NANOARROW_OK);
    }
    cr_assert_eq(ArrowArrayFinishElement(array), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, &error), NANOARROW_OK, "%s",
               error.message);
}

static void WrapCpu(struct ArrowArray* array, struct ArrowDeviceArray* device_array) {
  cr_assert_eq(ArrowDeviceArrayInit(ArrowDeviceCpu(), device_array, array, NULL),
               NANOARROW_OK);
}

static void InitView(struct ArrowDeviceArrayView* view, const struct ArrowSchema* schema) {
  struct ArrowError error;
  ArrowDeviceArrayViewInit(view);
  cr_assert_null(view->device);
  cr_assert_null(view->sync_event);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view->array_view, schema, &error), NANOARROW_OK,
               "%s", error.message);
}

/* The device view and a plain core view of the same array must agree: same code, same
 * message. Returns the code. */
static int SetBothAndCompare(struct ArrowDeviceArray* device_array,
                             const struct ArrowSchema* schema, int minimal) {
  struct ArrowDeviceArrayView device_view;
  struct ArrowArrayView core_view;
  struct ArrowError device_error;
  struct ArrowError core_error;
  int device_rc;
  int core_rc;

  InitView(&device_view, schema);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&core_view, schema, NULL), NANOARROW_OK);
  device_error.message[0] = '\0';
  core_error.message[0] = '\0';
  if (minimal) {
    device_rc =
        ArrowDeviceArrayViewSetArrayMinimal(&device_view, device_array, &device_error);
    core_rc = ArrowArrayViewSetArrayMinimal(&core_view, &device_array->array, &core_error);
  } else {
    device_rc = ArrowDeviceArrayViewSetArray(&device_view, device_array, &device_error);
    core_rc = ArrowArrayViewSetArray(&core_view, &device_array->array, &core_error);
  }
  cr_assert_eq(device_rc, core_rc, "device %d (%s) vs core %d (%s)", device_rc,
               device_error.message, core_rc, core_error.message);
  if (core_rc != NANOARROW_OK) {
    cr_assert_str_eq(device_error.message, core_error.message);
    cr_assert_null(device_view.device, "a failed set leaves no device behind");
  } else {
    cr_assert_eq(device_view.device, ArrowDeviceCpu());
  }
  ArrowDeviceArrayViewReset(&device_view);
  ArrowArrayViewReset(&core_view);
  return device_rc;
}

Test(device_array_view, set_good_array) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeStringArray(&array, &schema);
  WrapCpu(&array, &device_array);

  InitView(&view, &schema);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.device, ArrowDeviceCpu());
  cr_assert_null(view.sync_event);
  cr_assert_eq(view.array_view.length, 3);
  cr_assert_eq(view.array_view.buffer_views[2].size_bytes, 8, "data size resolved");
  cr_assert(ArrowArrayViewIsNull(&view.array_view, 1));
  struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(&view.array_view, 2);
  cr_assert_eq(value.size_bytes, 5);
  cr_assert_eq(memcmp(value.data, "three", 5), 0);

  /* Minimal leaves the variable-length data size unresolved. */
  cr_assert_eq(ArrowDeviceArrayViewSetArrayMinimal(&view, &device_array, &error),
               NANOARROW_OK, "%s", error.message);
  cr_assert_eq(view.device, ArrowDeviceCpu());
  cr_assert_eq(view.array_view.buffer_views[2].size_bytes, -1);

  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 0), NANOARROW_OK);
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 1), NANOARROW_OK);

  ArrowDeviceArrayViewReset(&view);
  cr_assert_null(view.device);
  ArrowArrayRelease(&device_array.array);
  ArrowSchemaRelease(&schema);
}

Test(device_array_view, bad_arrays_fail_like_the_core) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  MakeStringArray(&array, &schema);
  WrapCpu(&array, &device_array);
  int32_t* offsets = (int32_t*)ArrowArrayBuffer(&device_array.array, 1)->data;

  /* Decreasing first/last offsets: only DEFAULT reads them. */
  int32_t saved = offsets[0];
  offsets[0] = 7;
  offsets[3] = 2;
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 1), NANOARROW_OK);
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 0), EINVAL);
  offsets[0] = saved;
  offsets[3] = 8;
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 0), NANOARROW_OK);

  /* Wrong buffer count: MINIMAL already refuses. */
  device_array.array.n_buffers = 2;
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 1), EINVAL);
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 0), EINVAL);
  device_array.array.n_buffers = 3;

  /* Negative offset, length and null count; a null count above the length passes
   * (a slice keeping its parent's count) in both. */
  device_array.array.offset = -1;
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 0), EINVAL);
  device_array.array.offset = 0;
  device_array.array.length = -2;
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 0), EINVAL);
  device_array.array.length = 3;
  device_array.array.null_count = -2;
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 0), EINVAL);
  device_array.array.null_count = 4;
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 0), NANOARROW_OK);
  device_array.array.null_count = 1;

  /* Offsets buffer taken away. */
  const void* saved_offsets = device_array.array.buffers[1];
  device_array.array.buffers[1] = NULL;
  cr_assert_eq(SetBothAndCompare(&device_array, &schema, 0), EINVAL);
  device_array.array.buffers[1] = saved_offsets;

  /* The exact message is the core's, and the view names what is wrong. */
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  InitView(&view, &schema);
  device_array.array.n_buffers = 1;
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), EINVAL);
  cr_assert(strstr(error.message, "Expected 3 buffers") != NULL, "%s", error.message);
  device_array.array.n_buffers = 3;
  ArrowDeviceArrayViewReset(&view);

  ArrowArrayRelease(&device_array.array);
  ArrowSchemaRelease(&schema);
}

Test(device_array_view, refuses_arguments_and_released_arrays) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeStringArray(&array, &schema);
  WrapCpu(&array, &device_array);
  InitView(&view, &schema);

  cr_assert_eq(ArrowDeviceArrayViewSetArray(NULL, &device_array, &error), EINVAL);
  cr_assert_str_eq(error.message, "device_array_view is NULL");
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, NULL, &error), EINVAL);
  cr_assert_str_eq(error.message, "device_array is NULL");
  cr_assert_eq(ArrowDeviceArrayViewSetArrayMinimal(&view, NULL, &error), EINVAL);

  ArrowArrayRelease(&device_array.array);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), EINVAL);
  cr_assert_str_eq(error.message, "device_array is released");
  cr_assert_eq(ArrowDeviceArrayViewSetArrayMinimal(&view, &device_array, &error), EINVAL);
  cr_assert_str_eq(error.message, "device_array is released");

  ArrowDeviceArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

Test(device_array_view, non_cpu_device_types_refused) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeStringArray(&array, &schema);
  WrapCpu(&array, &device_array);
  InitView(&view, &schema);

  /* Buffers that claim to be in GPU memory are never read by the host, and a view
   * that was set before forgets its device. */
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK);
  cr_assert_eq(view.device, ArrowDeviceCpu());
  device_array.device_type = ARROW_DEVICE_CUDA;
#if defined(NANOARROW_DEVICE_WITH_CUDA)
  /* A CUDA build would find GPU 0 where there is one: ask for a GPU no machine has,
   * and the message says why it is missing. */
  device_array.device_id = 1000;
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), ENOTSUP);
  cr_assert(strstr(error.message, "device type 2 (CUDA)") != NULL, "%s", error.message);
  cr_assert(strstr(error.message, "is not available") != NULL, "%s", error.message);
#else
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), ENOTSUP);
  cr_assert(strstr(error.message, "device type 2 (CUDA)") != NULL, "%s", error.message);
  cr_assert(strstr(error.message, "CPU device only") != NULL, "%s", error.message);
#endif
  cr_assert_null(view.device);
  cr_assert_eq(ArrowDeviceArrayViewSetArrayMinimal(&view, &device_array, &error), ENOTSUP);
  cr_assert(strstr(error.message, "CUDA") != NULL, "%s", error.message);

  const ArrowDeviceType others[] = {ARROW_DEVICE_CUDA_HOST, ARROW_DEVICE_OPENCL,
                                    ARROW_DEVICE_METAL,     ARROW_DEVICE_ROCM,
                                    ARROW_DEVICE_ONEAPI,    ARROW_DEVICE_HEXAGON,
                                    0,                      -1,
                                    99};
  for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
    device_array.device_type = others[i];
    cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), ENOTSUP,
                 "device type %d", (int)others[i]);
  }
  device_array.device_type = 99;
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), ENOTSUP);
  cr_assert(strstr(error.message, "device type 99 (unknown)") != NULL, "%s", error.message);

  /* A CPU with an id this build does not have. */
  device_array.device_type = ARROW_DEVICE_CPU;
  device_array.device_id = 2;
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), ENOTSUP);
  cr_assert(strstr(error.message, "device_id 2") != NULL, "%s", error.message);

  /* 0, DLPack's id for host memory, is read as the CPU too. */
  device_array.device_id = 0;
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(view.device, ArrowDeviceCpu());

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
  ArrowSchemaRelease(&schema);
}

Test(device_array_view, cpu_array_with_sync_event) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  int event = 0;
  MakeStringArray(&array, &schema);
  WrapCpu(&array, &device_array);
  InitView(&view, &schema);

  /* A producer's stray event cannot be waited on by the CPU: reading is refused,
   * while the minimal setter (which reads nothing) records it. */
  device_array.sync_event = &event;
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), EINVAL);
  cr_assert(strstr(error.message, "sync_event") != NULL, "%s", error.message);
  cr_assert_eq(ArrowDeviceArrayViewSetArrayMinimal(&view, &device_array, &error),
               NANOARROW_OK);
  cr_assert_eq(view.sync_event, &event);
  struct ArrowDeviceArray copy;
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &copy), EINVAL,
               "a copy reads the buffers, so it must wait on the event");
  int stream = 0;
  device_array.sync_event = NULL;
  cr_assert_eq(ArrowDeviceArrayViewSetArrayAsync(&view, &device_array, &stream, &error),
               EINVAL);
  cr_assert(strstr(error.message, "stream") != NULL, "%s", error.message);

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
  ArrowSchemaRelease(&schema);
}

static void AssertIdentical(const struct ArrowArrayView* actual,
                            const struct ArrowArrayView* expected) {
  struct ArrowError reason;
  int equal = 0;
  reason.message[0] = '\0';
  cr_assert_eq(
      ArrowArrayViewCompare(actual, expected, NANOARROW_COMPARE_IDENTICAL, &equal, &reason),
      NANOARROW_OK);
  cr_assert(equal, "copy differs: %s", reason.message);
}

/* Copies the view, checks the copy is a separate CPU array equal to the source. */
static void CopyAndCompare(struct ArrowDeviceArrayView* src, const struct ArrowSchema* schema) {
  struct ArrowDeviceArray copy;
  struct ArrowDeviceArrayView copy_view;
  struct ArrowError error;

  cr_assert_eq(ArrowDeviceArrayViewCopy(src, ArrowDeviceCpu(), &copy), NANOARROW_OK);
  cr_assert_not_null(copy.array.release);
  cr_assert_eq(copy.device_type, ARROW_DEVICE_CPU);
  cr_assert_eq(copy.device_id, -1);
  cr_assert_null(copy.sync_event);
  cr_assert_eq(copy.array.offset, src->array_view.offset);
  cr_assert_eq(copy.array.length, src->array_view.length);

  InitView(&copy_view, schema);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&copy_view, &copy, &error), NANOARROW_OK, "%s",
               error.message);
  AssertIdentical(&copy_view.array_view, &src->array_view);
  /* A copy, not an alias. */
  for (int64_t i = 0; i < src->array_view.n_children; i++) {
    const struct ArrowArrayView* child = src->array_view.children[i];
    if (child->buffer_views[1].size_bytes > 0) {
      cr_assert_neq(copy_view.array_view.children[i]->buffer_views[1].data.data,
                    child->buffer_views[1].data.data);
    }
  }
  ArrowDeviceArrayViewReset(&copy_view);
  ArrowArrayRelease(&copy.array);
}

Test(device_array_view, copy_nested_with_offsets_and_nulls) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeNestedArray(&array, &schema);
  WrapCpu(&array, &device_array);
  InitView(&view, &schema);

  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK, "%s",
               error.message);
  CopyAndCompare(&view, &schema);

  /* A slice: the copy keeps the offset and the bytes before it. */
  device_array.array.offset = 1;
  device_array.array.length = 4;
  device_array.array.null_count = 1;
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK, "%s",
               error.message);
  CopyAndCompare(&view, &schema);

  /* An unknown null count (-1) is counted for the copy. */
  struct ArrowDeviceArray counted;
  device_array.array.null_count = -1;
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &counted), NANOARROW_OK);
  cr_assert_eq(counted.array.null_count, 1);
  ArrowArrayRelease(&counted.array);
  device_array.array.null_count = 1;

  /* From a minimal view the sizes are resolved first. */
  cr_assert_eq(ArrowDeviceArrayViewSetArrayMinimal(&view, &device_array, &error),
               NANOARROW_OK, "%s", error.message);
  CopyAndCompare(&view, &schema);

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
  ArrowSchemaRelease(&schema);
}

Test(device_array_view, copy_string_view_array) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  cr_assert_eq(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_STRING_VIEW), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendString(&array, ArrowCharView("short")), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendNull(&array, 1), NANOARROW_OK);
  cr_assert_eq(
      ArrowArrayAppendString(&array, ArrowCharView("a string longer than twelve bytes")),
      NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK, "%s",
               error.message);
  WrapCpu(&array, &device_array);
  InitView(&view, &schema);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_gt(view.array_view.n_variadic_buffers, 0);
  CopyAndCompare(&view, &schema);

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
  ArrowSchemaRelease(&schema);
}

Test(device_array_view, copy_refusals) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArray dst;
  struct ArrowDeviceArrayView view;
  struct ArrowError error;
  MakeStringArray(&array, &schema);
  WrapCpu(&array, &device_array);
  InitView(&view, &schema);

  /* A view never set has no device. */
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &dst), EINVAL);
  cr_assert_eq(ArrowDeviceArrayViewSetArray(&view, &device_array, &error), NANOARROW_OK);
  cr_assert_eq(ArrowDeviceArrayViewCopy(NULL, ArrowDeviceCpu(), &dst), EINVAL);
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, NULL, &dst), EINVAL);
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), NULL), EINVAL);
  int stream = 0;
  cr_assert_eq(ArrowDeviceArrayViewCopyAsync(&view, ArrowDeviceCpu(), &dst, &stream), EINVAL);

  struct ArrowDevice gpu;
  ArrowDeviceInitCpu(&gpu);
  gpu.device_type = ARROW_DEVICE_CUDA;
  cr_assert_eq(ArrowDeviceArrayViewCopy(&view, &gpu, &dst), ENOTSUP);

  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&device_array.array);
  ArrowSchemaRelease(&schema);
}
