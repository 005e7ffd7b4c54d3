/* Checks shared by the simulated-device suite and its test of the tests: each returns
 * NULL when the behaviour holds and a description otherwise (never asserts), so that
 * the test of the tests can run them against deliberately broken paths. */

#ifndef NANOARROW_TESTS_DEVICE_SIM_TEST_UTIL_H_INCLUDED
#define NANOARROW_TESTS_DEVICE_SIM_TEST_UTIL_H_INCLUDED

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#include "sim_device.h"

typedef ArrowErrorCode (*SimCopyFn)(struct ArrowDeviceArrayView* src,
                                    struct ArrowDevice* device_dst,
                                    struct ArrowDeviceArray* dst, void* stream);

static inline int SimIsBinaryView(enum ArrowType type) {
  return type == NANOARROW_TYPE_STRING_VIEW || type == NANOARROW_TYPE_BINARY_VIEW;
}

/* Number of fixed buffers the layout has (binary views: validity and views). */
static inline int SimFixedBuffers(const struct ArrowArrayView* view) {
  int n = 0;
  int i;
  if (SimIsBinaryView(view->storage_type)) {
    return 2;
  }
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    if (view->layout.buffer_type[i] != NANOARROW_BUFFER_TYPE_NONE) {
      n = i + 1;
    }
  }
  return n;
}

/* Bytes a copy of the viewed array moves: every buffer as the view sizes it. Reads
 * variadic sizes, so view must be of host memory. */
static inline int64_t SimViewBytes(const struct ArrowArrayView* view) {
  int64_t total = 0;
  int64_t i;
  for (i = 0; i < SimFixedBuffers(view); i++) {
    if (view->buffer_views[i].data.data != NULL) {
      total += view->buffer_views[i].size_bytes;
    }
  }
  if (SimIsBinaryView(view->storage_type)) {
    for (i = 0; i < view->n_variadic_buffers; i++) {
      total += view->variadic_buffer_sizes[i];
    }
    total += 8 * (int64_t)view->n_variadic_buffers;
  }
  for (i = 0; i < view->n_children; i++) {
    total += SimViewBytes(view->children[i]);
  }
  if (view->dictionary != NULL) {
    total += SimViewBytes(view->dictionary);
  }
  return total;
}

/* Bytes ArrowDeviceArrayViewSetArray() must copy back to size the view: first and
 * last offsets of non-empty string/binary/list/map arrays, the last run end of
 * non-empty run-end encoded arrays. */
static inline int64_t SimReadbackBytes(const struct ArrowArrayView* view) {
  int64_t total = 0;
  int64_t i;
  switch (view->storage_type) {
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      if (view->length > 0) {
        total += 2 * (view->layout.element_size_bits[1] / 8);
      }
      break;
    case NANOARROW_TYPE_RUN_END_ENCODED:
      if (view->length > 0) {
        total += view->children[0]->layout.element_size_bits[1] / 8;
      }
      break;
    default:
      break;
  }
  for (i = 0; i < view->n_children; i++) {
    total += SimReadbackBytes(view->children[i]);
  }
  if (view->dictionary != NULL) {
    total += SimReadbackBytes(view->dictionary);
  }
  return total;
}

/* Variadic buffers in the tree: a copy from a device reads their sizes back first
 * (8 bytes each) to know how much to copy. */
static inline int64_t SimVariadicCount(const struct ArrowArrayView* view) {
  int64_t total = SimIsBinaryView(view->storage_type) ? view->n_variadic_buffers : 0;
  int64_t i;
  for (i = 0; i < view->n_children; i++) {
    total += SimVariadicCount(view->children[i]);
  }
  if (view->dictionary != NULL) {
    total += SimVariadicCount(view->dictionary);
  }
  return total;
}

/* Compares two host views buffer by buffer (sizes and bytes). */
static inline const char* SimCompareViews(const struct ArrowArrayView* expected,
                                          const struct ArrowArrayView* actual,
                                          const char* path, char* buf, size_t buf_size) {
  int64_t i;
  char child_path[128];
  if (expected->storage_type != actual->storage_type ||
      expected->length != actual->length || expected->offset != actual->offset ||
      expected->null_count != actual->null_count ||
      expected->n_children != actual->n_children) {
    snprintf(buf, buf_size, "%s: type, length, offset, null count or children differ",
             path);
    return buf;
  }
  for (i = 0; i < SimFixedBuffers(expected); i++) {
    const struct ArrowBufferView* e = expected->buffer_views + i;
    const struct ArrowBufferView* a = actual->buffer_views + i;
    int64_t e_size = e->data.data == NULL ? 0 : e->size_bytes;
    int64_t a_size = a->data.data == NULL ? 0 : a->size_bytes;
    if (e_size != a_size) {
      snprintf(buf, buf_size, "%s: buffer %" PRId64 " holds %" PRId64
               " bytes instead of %" PRId64, path, i, a_size, e_size);
      return buf;
    }
    if (e_size > 0 && memcmp(e->data.data, a->data.data, (size_t)e_size) != 0) {
      snprintf(buf, buf_size, "%s: buffer %" PRId64 " differs", path, i);
      return buf;
    }
  }
  if (SimIsBinaryView(expected->storage_type)) {
    if (expected->n_variadic_buffers != actual->n_variadic_buffers) {
      snprintf(buf, buf_size, "%s: variadic buffer counts differ", path);
      return buf;
    }
    for (i = 0; i < expected->n_variadic_buffers; i++) {
      int64_t size = expected->variadic_buffer_sizes[i];
      if (actual->variadic_buffer_sizes[i] != size ||
          (size > 0 && memcmp(expected->variadic_buffers[i], actual->variadic_buffers[i],
                              (size_t)size) != 0)) {
        snprintf(buf, buf_size, "%s: variadic buffer %" PRId64 " differs", path, i);
        return buf;
      }
    }
  }
  for (i = 0; i < expected->n_children; i++) {
    const char* message;
    snprintf(child_path, sizeof(child_path), "%s.children[%" PRId64 "]", path, i);
    message = SimCompareViews(expected->children[i], actual->children[i], child_path, buf,
                              buf_size);
    if (message != NULL) {
      return message;
    }
  }
  if ((expected->dictionary == NULL) != (actual->dictionary == NULL)) {
    snprintf(buf, buf_size, "%s: dictionary present on one side only", path);
    return buf;
  }
  if (expected->dictionary != NULL) {
    snprintf(child_path, sizeof(child_path), "%s.dictionary", path);
    return SimCompareViews(expected->dictionary, actual->dictionary, child_path, buf,
                           buf_size);
  }
  return NULL;
}

/* The operation log of one release (SimDeviceLog()) must free buffers first and
 * destroy exactly one event last. */
static inline const char* SimCheckReleaseOrder(const char* log, char* buf, size_t buf_size) {
  const char* destroyed = strstr(log, "event-destroy#");
  if (strncmp(log, "release free#", 13) != 0) {
    snprintf(buf, buf_size, "the release did not start by freeing buffers: %s", log);
    return buf;
  }
  if (destroyed == NULL || strstr(destroyed + 1, "event-destroy#") != NULL) {
    snprintf(buf, buf_size, "the release did not destroy exactly one event: %s", log);
    return buf;
  }
  if (strstr(destroyed, "free#") != NULL) {
    snprintf(buf, buf_size, "a buffer was freed after the event was destroyed: %s", log);
    return buf;
  }
  return NULL;
}

/* Copies array (host; described by schema) to simulated device device_id with copy,
 * sets a view of the device copy (device-resident offsets), copies that back to the
 * CPU with copy, and checks: exactly the viewed bytes went each way (plus the
 * read-back of the view), the round trip is byte-identical, and the device is clean
 * once everything is released. stream (may be NULL) is used for every step. */
static inline const char* SimRoundTrip(const struct ArrowSchema* schema,
                                       struct ArrowArray* array, SimCopyFn copy,
                                       int64_t device_id, struct SimStream* stream,
                                       char* buf, size_t buf_size) {
  struct ArrowDeviceArray host_array;
  struct ArrowDeviceArray device_array;
  struct ArrowDeviceArray back;
  struct ArrowDeviceArrayView host_view;
  struct ArrowDeviceArrayView device_view;
  struct ArrowDeviceArrayView back_view;
  struct ArrowError error;
  const char* message = NULL;
  int64_t expected_bytes;
  int64_t readback;
  int64_t sizes_readback;
  int rc;

  memset(&host_array, 0, sizeof(host_array));
  memset(&device_array, 0, sizeof(device_array));
  memset(&back, 0, sizeof(back));
  ArrowDeviceArrayViewInit(&host_view);
  ArrowDeviceArrayViewInit(&device_view);
  ArrowDeviceArrayViewInit(&back_view);
  error.message[0] = '\0';

  if (ArrowDeviceArrayInit(ArrowDeviceCpu(), &host_array, array, NULL) != NANOARROW_OK ||
      ArrowArrayViewInitFromSchema(&host_view.array_view, schema, &error) != NANOARROW_OK ||
      ArrowArrayViewInitFromSchema(&device_view.array_view, schema, &error) !=
          NANOARROW_OK ||
      ArrowArrayViewInitFromSchema(&back_view.array_view, schema, &error) != NANOARROW_OK ||
      ArrowDeviceArrayViewSetArray(&host_view, &host_array, &error) != NANOARROW_OK) {
    snprintf(buf, buf_size, "setting up the host side failed: %s", error.message);
    message = buf;
    goto done;
  }
  expected_bytes = SimViewBytes(&host_view.array_view);
  readback = SimReadbackBytes(&host_view.array_view);
  sizes_readback = 8 * SimVariadicCount(&host_view.array_view);
  SimDeviceResetStats();

  rc = copy(&host_view, SimDevice(device_id), &device_array, stream);
  if (rc != NANOARROW_OK) {
    snprintf(buf, buf_size, "copy to the device failed (%d): %s", rc,
             SimDeviceLastViolation());
    message = buf;
    goto done;
  }
  if (SimDeviceStats()->bytes_to_device != expected_bytes) {
    snprintf(buf, buf_size,
             "copy to the device moved %" PRId64 " bytes instead of %" PRId64,
             SimDeviceStats()->bytes_to_device, expected_bytes);
    message = buf;
    goto done;
  }

  rc = ArrowDeviceArrayViewSetArrayAsync(&device_view, &device_array, stream, &error);
  if (rc != NANOARROW_OK) {
    snprintf(buf, buf_size, "viewing the device copy failed (%d): %s", rc, error.message);
    message = buf;
    goto done;
  }
  if (SimDeviceStats()->bytes_to_host != readback) {
    snprintf(buf, buf_size,
             "viewing the device copy read back %" PRId64 " bytes instead of %" PRId64,
             SimDeviceStats()->bytes_to_host, readback);
    message = buf;
    goto done;
  }

  rc = copy(&device_view, ArrowDeviceCpu(), &back, stream);
  if (rc != NANOARROW_OK) {
    snprintf(buf, buf_size, "copy back to the CPU failed (%d): %s", rc,
             SimDeviceLastViolation());
    message = buf;
    goto done;
  }
  if (SimDeviceStats()->bytes_to_host != readback + sizes_readback + expected_bytes) {
    snprintf(buf, buf_size, "copy back to the CPU moved %" PRId64 " bytes instead of %" PRId64,
             SimDeviceStats()->bytes_to_host - readback - sizes_readback, expected_bytes);
    message = buf;
    goto done;
  }
  if (back.device_type != ARROW_DEVICE_CPU || back.sync_event != NULL) {
    snprintf(buf, buf_size, "the copy back is not a plain CPU array");
    message = buf;
    goto done;
  }
  rc = ArrowDeviceArrayViewSetArray(&back_view, &back, &error);
  if (rc != NANOARROW_OK) {
    snprintf(buf, buf_size, "the copy back is not valid (%d): %s", rc, error.message);
    message = buf;
    goto done;
  }
  message = SimCompareViews(&host_view.array_view, &back_view.array_view, "array", buf,
                            buf_size);

done:
  ArrowDeviceArrayViewReset(&host_view);
  ArrowDeviceArrayViewReset(&device_view);
  ArrowDeviceArrayViewReset(&back_view);
  if (back.array.release != NULL) {
    ArrowArrayRelease(&back.array);
  }
  if (device_array.array.release != NULL) {
    ArrowArrayRelease(&device_array.array);
  }
  if (host_array.array.release != NULL) {
    ArrowArrayRelease(&host_array.array);
  }
  if (message == NULL) {
    message = SimDeviceCheckMemory(buf, buf_size);
  }
  return message;
}

#endif
