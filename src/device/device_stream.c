/* ArrowDeviceBasicArrayStream: an ArrowArrayStream whose arrays are already on a
 * device, presented as an ArrowDeviceArrayStream of that device. */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "device/device_private.h"

struct ArrowDeviceBasicStreamPrivate {
  struct ArrowDevice* device;
  struct ArrowArrayStream naive;
  /* Set when the last failure was this wrapper's rather than the inner stream's. */
  int own_error;
  struct ArrowError error;
};

static struct ArrowDeviceBasicStreamPrivate* ArrowDeviceBasicStreamGet(
    struct ArrowDeviceArrayStream* stream) {
  if (stream == NULL || stream->release == NULL) {
    return NULL;
  }
  return (struct ArrowDeviceBasicStreamPrivate*)stream->private_data;
}

static int ArrowDeviceBasicStreamGetSchema(struct ArrowDeviceArrayStream* stream,
                                           struct ArrowSchema* out) {
  struct ArrowDeviceBasicStreamPrivate* private_data = ArrowDeviceBasicStreamGet(stream);
  if (private_data == NULL || out == NULL) {
    return EINVAL;
  }
  private_data->own_error = 0;
  return private_data->naive.get_schema(&private_data->naive, out);
}

static int ArrowDeviceBasicStreamGetNext(struct ArrowDeviceArrayStream* stream,
                                         struct ArrowDeviceArray* out) {
  struct ArrowDeviceBasicStreamPrivate* private_data = ArrowDeviceBasicStreamGet(stream);
  struct ArrowArray array;
  int rc;

  if (private_data == NULL || out == NULL) {
    return EINVAL;
  }
  private_data->own_error = 0;
  memset(&array, 0, sizeof(array));
  rc = private_data->naive.get_next(&private_data->naive, &array);
  if (rc != NANOARROW_OK) {
    return rc;
  }
  if (array.release == NULL) {
    /* End of stream: a released device array on this stream's device. */
    memset(out, 0, sizeof(struct ArrowDeviceArray));
    out->device_type = private_data->device->device_type;
    out->device_id = private_data->device->device_id;
    return NANOARROW_OK;
  }
  rc = ArrowDeviceArrayInit(private_data->device, out, &array, NULL);
  if (rc != NANOARROW_OK) {
    ArrowArrayRelease(&array);
    private_data->own_error = 1;
    ArrowErrorSet(&private_data->error,
                  "could not wrap the next array as a device array of device type %d "
                  "(%s) (errno %d)",
                  (int)private_data->device->device_type,
                  ArrowDevicePrivateTypeName(private_data->device->device_type), rc);
  }
  return rc;
}

static const char* ArrowDeviceBasicStreamGetLastError(
    struct ArrowDeviceArrayStream* stream) {
  struct ArrowDeviceBasicStreamPrivate* private_data = ArrowDeviceBasicStreamGet(stream);
  if (private_data == NULL) {
    return NULL;
  }
  if (private_data->own_error) {
    return private_data->error.message;
  }
  return private_data->naive.get_last_error(&private_data->naive);
}

static void ArrowDeviceBasicStreamRelease(struct ArrowDeviceArrayStream* stream) {
  struct ArrowDeviceBasicStreamPrivate* private_data = ArrowDeviceBasicStreamGet(stream);
  if (private_data == NULL) {
    return;
  }
  if (private_data->naive.release != NULL) {
    ArrowArrayStreamRelease(&private_data->naive);
  }
  ArrowFree(private_data);
  stream->private_data = NULL;
  stream->release = NULL;
}

ArrowErrorCode ArrowDeviceBasicArrayStreamInit(
    struct ArrowDeviceArrayStream* device_array_stream,
    struct ArrowArrayStream* array_stream, struct ArrowDevice* device) {
  struct ArrowDeviceBasicStreamPrivate* private_data;

  if (device_array_stream == NULL || array_stream == NULL ||
      array_stream->release == NULL || array_stream->get_schema == NULL ||
      array_stream->get_next == NULL || array_stream->get_last_error == NULL ||
      !ArrowDevicePrivateIsLive(device) ||
      device->array_init == NULL) {
    return EINVAL;
  }
  private_data = (struct ArrowDeviceBasicStreamPrivate*)ArrowMalloc(
      sizeof(struct ArrowDeviceBasicStreamPrivate));
  if (private_data == NULL) {
    return ENOMEM;
  }
  memset(private_data, 0, sizeof(struct ArrowDeviceBasicStreamPrivate));
  private_data->device = device;
  ArrowArrayStreamMove(array_stream, &private_data->naive);

  device_array_stream->device_type = device->device_type;
  device_array_stream->get_schema = ArrowDeviceBasicStreamGetSchema;
  device_array_stream->get_next = ArrowDeviceBasicStreamGetNext;
  device_array_stream->get_last_error = ArrowDeviceBasicStreamGetLastError;
  device_array_stream->release = ArrowDeviceBasicStreamRelease;
  device_array_stream->private_data = private_data;
  return NANOARROW_OK;
}
