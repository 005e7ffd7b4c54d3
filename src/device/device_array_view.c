/* ArrowDeviceArrayView: an ArrowArrayView of a device array. Only arrays this build
 * can resolve a device for (the CPU) are viewed; their validation is the core's,
 * so a CPU device array is checked exactly like the ArrowArray it wraps. */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "device/device_private.h"

void ArrowDeviceArrayViewInit(struct ArrowDeviceArrayView* device_array_view) {
  if (device_array_view != NULL) {
    memset(device_array_view, 0, sizeof(struct ArrowDeviceArrayView));
  }
}

void ArrowDeviceArrayViewReset(struct ArrowDeviceArrayView* device_array_view) {
  if (device_array_view == NULL) {
    return;
  }
  ArrowArrayViewReset(&device_array_view->array_view);
  device_array_view->device = NULL;
  device_array_view->sync_event = NULL;
}

/* Both setters: check the arguments, resolve the device, then (unless minimal) wait on
 * the array's event and resolve every buffer size. The view keeps a device only once
 * the new array is known good. */
static ArrowErrorCode ArrowDeviceViewSet(struct ArrowDeviceArrayView* device_array_view,
                                         struct ArrowDeviceArray* device_array, void* stream,
                                         int minimal, struct ArrowError* error) {
  struct ArrowDevice* device;

  if (device_array_view == NULL) {
    ArrowErrorSet(error, "device_array_view is NULL");
    return EINVAL;
  }
  device_array_view->device = NULL;
  device_array_view->sync_event = NULL;
  if (device_array == NULL) {
    ArrowErrorSet(error, "device_array is NULL");
    return EINVAL;
  }
  if (device_array->array.release == NULL) {
    ArrowErrorSet(error, "device_array is released");
    return EINVAL;
  }
  device = ArrowDeviceResolve(device_array->device_type, device_array->device_id);
  if (device == NULL) {
    return ArrowDevicePrivateUnsupported(device_array->device_type,
                                         device_array->device_id, error);
  }

  if (minimal) {
    NANOARROW_RETURN_NOT_OK(ArrowArrayViewSetArrayMinimal(&device_array_view->array_view,
                                                          &device_array->array, error));
  } else {
    NANOARROW_RETURN_NOT_OK(
        device->synchronize_event(device, device_array->sync_event, stream, error));
    NANOARROW_RETURN_NOT_OK(ArrowArrayViewSetArray(&device_array_view->array_view,
                                                   &device_array->array, error));
  }
  device_array_view->device = device;
  device_array_view->sync_event = device_array->sync_event;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowDeviceArrayViewSetArrayMinimal(
    struct ArrowDeviceArrayView* device_array_view, struct ArrowDeviceArray* device_array,
    struct ArrowError* error) {
  return ArrowDeviceViewSet(device_array_view, device_array, NULL, 1, error);
}

ArrowErrorCode ArrowDeviceArrayViewSetArrayAsync(
    struct ArrowDeviceArrayView* device_array_view, struct ArrowDeviceArray* device_array,
    void* stream, struct ArrowError* error) {
  return ArrowDeviceViewSet(device_array_view, device_array, stream, 0, error);
}

/* Whether every buffer size in the tree is known (a view set with the Minimal setter
 * leaves variable-length data sizes at -1). */
static int ArrowDeviceViewSizesKnown(const struct ArrowArrayView* array_view, int depth) {
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    return 0;
  }
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    if (array_view->buffer_views[i].size_bytes < 0) {
      return 0;
    }
  }
  for (i = 0; i < array_view->n_children; i++) {
    if (array_view->children == NULL || array_view->children[i] == NULL ||
        !ArrowDeviceViewSizesKnown(array_view->children[i], depth + 1)) {
      return 0;
    }
  }
  return array_view->dictionary == NULL ||
         ArrowDeviceViewSizesKnown(array_view->dictionary, depth + 1);
}

ArrowErrorCode ArrowDeviceArrayViewCopyAsync(struct ArrowDeviceArrayView* src,
                                             struct ArrowDevice* device_dst,
                                             struct ArrowDeviceArray* dst, void* stream) {
  struct ArrowArray copy;
  int rc;

  if (src == NULL || dst == NULL || !ArrowDevicePrivateIsLive(device_dst) ||
      !ArrowDevicePrivateIsLive(src->device)) {
    return EINVAL;
  }
  /* Copies are made by the host; only CPU -> CPU is possible in this build. */
  if (src->device->device_type != ARROW_DEVICE_CPU ||
      device_dst->device_type != ARROW_DEVICE_CPU) {
    return ENOTSUP;
  }
  if (stream != NULL) {
    return EINVAL;
  }
  /* The copy reads src's buffers: wait for them (the CPU refuses any event). */
  NANOARROW_RETURN_NOT_OK(
      src->device->synchronize_event(src->device, src->sync_event, NULL, NULL));
  if (!ArrowDeviceViewSizesKnown(&src->array_view, 0)) {
    /* On the CPU the sizes can be read from the offsets of the viewed array. */
    if (src->array_view.array == NULL) {
      return EINVAL;
    }
    NANOARROW_RETURN_NOT_OK(
        ArrowArrayViewSetArray(&src->array_view, src->array_view.array, NULL));
  }

  rc = ArrowArrayInitFromArrayView(&copy, &src->array_view, NULL);
  if (rc != NANOARROW_OK) {
    return rc;
  }
  rc = ArrowDeviceArrayInitAsync(device_dst, dst, &copy, NULL, NULL);
  if (rc != NANOARROW_OK) {
    ArrowArrayRelease(&copy);
  }
  return rc;
}
