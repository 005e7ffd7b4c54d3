/* ArrowDeviceArrayView: an ArrowArrayView of a device array. CPU arrays are viewed by
 * the core (validated exactly like the ArrowArray they wrap). Arrays on any other
 * device are never read here: the view is set with the core's Minimal setter, and the
 * few values the default checks need (first and last offsets, last run ends) are
 * copied back through the device's buffer_copy callback. Copies go buffer by buffer
 * through buffer_init. */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
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

/* ---- Values read back from a device ---- */

/* What a read-back value is for. */
enum ArrowDeviceReadKind {
  /* first and last offsets of a string or binary array */
  ARROW_DEVICE_READ_DATA_OFFSETS,
  /* first and last offsets of a list, large list or map array */
  ARROW_DEVICE_READ_LIST_OFFSETS,
  /* last run end of a run-end encoded array */
  ARROW_DEVICE_READ_RUN_END
};

struct ArrowDeviceRead {
  struct ArrowArrayView* array_view;
  enum ArrowDeviceReadKind kind;
  /* bytes per value: 2, 4 or 8 */
  int width;
  /* where the copies land (first value, last value); read once the copies are done */
  unsigned char first[8];
  unsigned char last[8];
  /* "root.children[1].dictionary" style, for messages */
  char path[96];
};

struct ArrowDeviceReadList {
  struct ArrowDeviceRead* items;
  int64_t size;
  int64_t capacity;
};

static void ArrowDeviceReadListReset(struct ArrowDeviceReadList* list) {
  ArrowFree(list->items);
  list->items = NULL;
  list->size = 0;
  list->capacity = 0;
}

static struct ArrowDeviceRead* ArrowDeviceReadListAdd(struct ArrowDeviceReadList* list) {
  if (list->size == list->capacity) {
    int64_t capacity = list->capacity == 0 ? 8 : list->capacity * 2;
    struct ArrowDeviceRead* items = (struct ArrowDeviceRead*)ArrowRealloc(
        list->items, (size_t)capacity * sizeof(struct ArrowDeviceRead));
    if (items == NULL) {
      return NULL;
    }
    list->items = items;
    list->capacity = capacity;
  }
  memset(list->items + list->size, 0, sizeof(struct ArrowDeviceRead));
  return list->items + list->size++;
}

static int64_t ArrowDeviceDecode(const unsigned char* bytes, int width) {
  int16_t v16;
  int32_t v32;
  int64_t v64;
  switch (width) {
    case 2:
      memcpy(&v16, bytes, sizeof(v16));
      return v16;
    case 4:
      memcpy(&v32, bytes, sizeof(v32));
      return v32;
    default:
      memcpy(&v64, bytes, sizeof(v64));
      return v64;
  }
}

/* Copies width bytes at device_ptr (on device) into host. The CPU's own memory is
 * read directly; any other device's only through its buffer_copy (queued on stream
 * when there is one). */
static ArrowErrorCode ArrowDeviceReadBytes(struct ArrowDevice* device,
                                           const void* device_ptr, int64_t n_bytes,
                                           void* host, void* stream,
                                           struct ArrowError* error) {
  struct ArrowBufferView src;
  struct ArrowBufferView dst;
  int rc;
  if (n_bytes == 0) {
    return NANOARROW_OK;
  }
  if (device->device_type == ARROW_DEVICE_CPU) {
    memcpy(host, device_ptr, (size_t)n_bytes);
    return NANOARROW_OK;
  }
  src.data.data = device_ptr;
  src.size_bytes = n_bytes;
  dst.data.data = host;
  dst.size_bytes = n_bytes;
  rc = ArrowDeviceBufferCopyAsync(device, src, ArrowDeviceCpu(), dst, stream);
  if (rc != NANOARROW_OK) {
    ArrowErrorSet(error,
                  "could not copy %" PRId64 " bytes from device type %d (%s) id %" PRId64
                  " to the CPU (errno %d)",
                  n_bytes, (int)device->device_type,
                  ArrowDevicePrivateTypeName(device->device_type), device->device_id, rc);
  }
  return rc;
}

static void ArrowDeviceChildPath(char* out, size_t out_size, const char* parent,
                                 int64_t child_index) {
  if (child_index < 0) {
    snprintf(out, out_size, "%s.dictionary", parent);
  } else {
    snprintf(out, out_size, "%s.children[%" PRId64 "]", parent, child_index);
  }
}

/* Walks a view set with the Minimal setter and queues the reads the default checks
 * need. */
static ArrowErrorCode ArrowDeviceCollectReads(struct ArrowDevice* device,
                                              struct ArrowArrayView* array_view,
                                              const char* path, int depth,
                                              struct ArrowDeviceReadList* reads,
                                              void* stream, struct ArrowError* error) {
  struct ArrowDeviceRead* read = NULL;
  const uint8_t* values = NULL;
  int64_t first_index = 0;
  int64_t last_index = 0;
  int64_t i;
  char child_path[96];

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "%s: nesting deeper than %d", path, NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }

  switch (array_view->storage_type) {
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      if (array_view->length == 0) {
        if (array_view->buffer_views[2].size_bytes < 0) {
          array_view->buffer_views[2].size_bytes = 0;
        }
        break;
      }
      read = ArrowDeviceReadListAdd(reads);
      if (read == NULL) {
        ArrowErrorSet(error, "out of memory");
        return ENOMEM;
      }
      read->kind = (array_view->storage_type == NANOARROW_TYPE_LIST ||
                    array_view->storage_type == NANOARROW_TYPE_LARGE_LIST ||
                    array_view->storage_type == NANOARROW_TYPE_MAP)
                       ? ARROW_DEVICE_READ_LIST_OFFSETS
                       : ARROW_DEVICE_READ_DATA_OFFSETS;
      read->width = array_view->layout.element_size_bits[1] / 8;
      values = array_view->buffer_views[1].data.as_uint8;
      first_index = array_view->offset;
      last_index = array_view->offset + array_view->length;
      break;
    case NANOARROW_TYPE_RUN_END_ENCODED: {
      struct ArrowArrayView* run_ends;
      if (array_view->length == 0) {
        break;
      }
      run_ends = array_view->children[0];
      if (run_ends->length < 1) {
        ArrowErrorSet(error, "%s: run-end encoded array of length %" PRId64
                      " has no run ends", path, array_view->length);
        return EINVAL;
      }
      read = ArrowDeviceReadListAdd(reads);
      if (read == NULL) {
        ArrowErrorSet(error, "out of memory");
        return ENOMEM;
      }
      read->kind = ARROW_DEVICE_READ_RUN_END;
      read->width = run_ends->layout.element_size_bits[1] / 8;
      values = run_ends->buffer_views[1].data.as_uint8;
      first_index = -1;
      last_index = run_ends->offset + run_ends->length - 1;
      break;
    }
    default:
      break;
  }

  if (read != NULL) {
    read->array_view = array_view;
    snprintf(read->path, sizeof(read->path), "%s", path);
    if (values == NULL || (read->width != 2 && read->width != 4 && read->width != 8)) {
      ArrowErrorSet(error, "%s: expected a non-NULL offsets or run ends buffer", path);
      return EINVAL;
    }
    if (first_index >= 0) {
      NANOARROW_RETURN_NOT_OK(ArrowDeviceReadBytes(device,
                                                   values + first_index * read->width,
                                                   read->width, read->first, stream,
                                                   error));
    }
    NANOARROW_RETURN_NOT_OK(ArrowDeviceReadBytes(device, values + last_index * read->width,
                                                 read->width, read->last, stream, error));
  }

  for (i = 0; i < array_view->n_children; i++) {
    ArrowDeviceChildPath(child_path, sizeof(child_path), path, i);
    NANOARROW_RETURN_NOT_OK(ArrowDeviceCollectReads(device, array_view->children[i],
                                                    child_path, depth + 1, reads, stream,
                                                    error));
  }
  if (array_view->dictionary != NULL) {
    ArrowDeviceChildPath(child_path, sizeof(child_path), path, -1);
    NANOARROW_RETURN_NOT_OK(ArrowDeviceCollectReads(device, array_view->dictionary,
                                                    child_path, depth + 1, reads, stream,
                                                    error));
  }
  return NANOARROW_OK;
}

/* The default checks of one node, on the values read back. */
static ArrowErrorCode ArrowDeviceCheckRead(struct ArrowDeviceRead* read,
                                           struct ArrowError* error) {
  struct ArrowArrayView* array_view = read->array_view;
  int64_t last = ArrowDeviceDecode(read->last, read->width);
  int64_t first;
  int64_t available;

  if (read->kind == ARROW_DEVICE_READ_RUN_END) {
    int64_t end = array_view->offset + array_view->length;
    if (last < end) {
      ArrowErrorSet(error,
                    "%s: expected last run end >= offset + length %" PRId64
                    " but found %" PRId64,
                    read->path, end, last);
      return EINVAL;
    }
    return NANOARROW_OK;
  }

  first = ArrowDeviceDecode(read->first, read->width);
  if (first < 0) {
    ArrowErrorSet(error, "%s: expected first offset >= 0 but found %" PRId64, read->path,
                  first);
    return EINVAL;
  }
  if (last < first) {
    ArrowErrorSet(error,
                  "%s: expected last offset >= first offset %" PRId64 " but found %" PRId64,
                  read->path, first, last);
    return EINVAL;
  }
  if (read->kind == ARROW_DEVICE_READ_LIST_OFFSETS) {
    available = array_view->children[0]->length;
    if (last > available) {
      ArrowErrorSet(error,
                    "%s: expected last offset <= child length %" PRId64
                    " but found %" PRId64,
                    read->path, available, last);
      return EINVAL;
    }
    return NANOARROW_OK;
  }

  available = array_view->buffer_views[2].size_bytes;
  if (available >= 0 && last > available) {
    ArrowErrorSet(error,
                  "%s: expected last offset <= data buffer size %" PRId64
                  " but found %" PRId64,
                  read->path, available, last);
    return EINVAL;
  }
  if (array_view->buffer_views[2].data.data == NULL && last > 0) {
    ArrowErrorSet(error, "%s: expected non-NULL data buffer for last offset %" PRId64,
                  read->path, last);
    return EINVAL;
  }
  if (available < 0) {
    array_view->buffer_views[2].size_bytes = last;
  }
  return NANOARROW_OK;
}

/* Resolves the sizes a Minimal view of an array on device (not the CPU) leaves
 * unknown, and runs the default checks, reading through device callbacks only.
 * sync_event (of the array) is waited on first: by stream when there is one,
 * otherwise by the CPU. */
static ArrowErrorCode ArrowDeviceResolveSizes(struct ArrowDevice* device,
                                              struct ArrowArrayView* array_view,
                                              void* sync_event, void* stream,
                                              struct ArrowError* error) {
  struct ArrowDeviceReadList reads;
  int64_t i;
  int rc;

  if (sync_event != NULL) {
    NANOARROW_RETURN_NOT_OK(device->synchronize_event(device, sync_event, stream, error));
  }

  memset(&reads, 0, sizeof(reads));
  rc = ArrowDeviceCollectReads(device, array_view, "array", 0, &reads, stream, error);
  if (rc == NANOARROW_OK && reads.size > 0 && stream != NULL) {
    /* The copies were queued: wait for them once. */
    rc = device->synchronize_event(device, NULL, stream, error);
  }
  for (i = 0; rc == NANOARROW_OK && i < reads.size; i++) {
    rc = ArrowDeviceCheckRead(reads.items + i, error);
  }
  ArrowDeviceReadListReset(&reads);
  return rc;
}

/* ---- The Minimal setter on device memory ---- */

/* The core's Minimal setter reads one thing from buffers: the variadic buffer sizes of
 * binary view arrays. On a device it is given a shallow host copy of the array tree
 * (a "shadow") whose binary view nodes point at zeroed host sizes instead; the view is
 * then pointed back at the real array, its sizes pointers at device memory. */
struct ArrowDeviceShadow {
  struct ArrowArray array;
  const void** buffers;
  int64_t* zero_sizes;
  struct ArrowArray** children;
  struct ArrowDeviceShadow* child_shadows;
  struct ArrowDeviceShadow* dictionary_shadow;
  int64_t n_child_shadows;
};

static void ArrowDeviceShadowReset(struct ArrowDeviceShadow* shadow) {
  int64_t i;
  for (i = 0; i < shadow->n_child_shadows; i++) {
    ArrowDeviceShadowReset(shadow->child_shadows + i);
  }
  if (shadow->dictionary_shadow != NULL) {
    ArrowDeviceShadowReset(shadow->dictionary_shadow);
    ArrowFree(shadow->dictionary_shadow);
  }
  ArrowFree((void*)shadow->buffers);
  ArrowFree(shadow->zero_sizes);
  ArrowFree(shadow->children);
  ArrowFree(shadow->child_shadows);
  memset(shadow, 0, sizeof(struct ArrowDeviceShadow));
}

/* Shadows array for view (same shape as far as both agree: where they disagree the
 * original pointers are kept and the core reports the mismatch). */
static ArrowErrorCode ArrowDeviceShadowInit(struct ArrowDeviceShadow* shadow,
                                            const struct ArrowArrayView* view,
                                            const struct ArrowArray* array, int depth) {
  int64_t i;
  memset(shadow, 0, sizeof(struct ArrowDeviceShadow));
  shadow->array = *array;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    return NANOARROW_OK;
  }
  if ((view->storage_type == NANOARROW_TYPE_STRING_VIEW ||
       view->storage_type == NANOARROW_TYPE_BINARY_VIEW) &&
      array->n_buffers > 3 && array->n_buffers - 3 <= INT32_MAX && array->buffers != NULL) {
    shadow->buffers =
        (const void**)ArrowMalloc((size_t)array->n_buffers * sizeof(const void*));
    shadow->zero_sizes =
        (int64_t*)ArrowMalloc((size_t)(array->n_buffers - 3) * sizeof(int64_t));
    if (shadow->buffers == NULL || shadow->zero_sizes == NULL) {
      return ENOMEM;
    }
    memcpy((void*)shadow->buffers, array->buffers,
           (size_t)array->n_buffers * sizeof(const void*));
    memset(shadow->zero_sizes, 0, (size_t)(array->n_buffers - 3) * sizeof(int64_t));
    shadow->buffers[array->n_buffers - 1] = shadow->zero_sizes;
    shadow->array.buffers = shadow->buffers;
  }
  if (array->n_children > 0 && array->n_children == view->n_children &&
      array->children != NULL && view->children != NULL) {
    shadow->children = (struct ArrowArray**)ArrowMalloc((size_t)array->n_children *
                                                        sizeof(struct ArrowArray*));
    shadow->child_shadows = (struct ArrowDeviceShadow*)ArrowMalloc(
        (size_t)array->n_children * sizeof(struct ArrowDeviceShadow));
    if (shadow->children == NULL || shadow->child_shadows == NULL) {
      return ENOMEM;
    }
    for (i = 0; i < array->n_children; i++) {
      shadow->children[i] = array->children[i];
    }
    shadow->array.children = shadow->children;
    for (i = 0; i < array->n_children; i++) {
      if (array->children[i] == NULL || view->children[i] == NULL) {
        continue;
      }
      shadow->n_child_shadows = i + 1;
      memset(shadow->child_shadows + i, 0, sizeof(struct ArrowDeviceShadow));
      NANOARROW_RETURN_NOT_OK(ArrowDeviceShadowInit(shadow->child_shadows + i,
                                                    view->children[i], array->children[i],
                                                    depth + 1));
      shadow->children[i] = &shadow->child_shadows[i].array;
    }
  }
  if (array->dictionary != NULL && view->dictionary != NULL) {
    shadow->dictionary_shadow =
        (struct ArrowDeviceShadow*)ArrowMalloc(sizeof(struct ArrowDeviceShadow));
    if (shadow->dictionary_shadow == NULL) {
      return ENOMEM;
    }
    NANOARROW_RETURN_NOT_OK(ArrowDeviceShadowInit(shadow->dictionary_shadow,
                                                  view->dictionary, array->dictionary,
                                                  depth + 1));
    shadow->array.dictionary = &shadow->dictionary_shadow->array;
  }
  return NANOARROW_OK;
}

/* Points a view set from a shadow back at the real array. */
static void ArrowDeviceUnshadow(struct ArrowArrayView* view, const struct ArrowArray* array,
                                int depth) {
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    return;
  }
  view->array = array;
  if (view->n_variadic_buffers > 0) {
    view->variadic_buffers = array->buffers + 2;
    view->variadic_buffer_sizes = (int64_t*)array->buffers[array->n_buffers - 1];
  }
  for (i = 0; i < view->n_children; i++) {
    ArrowDeviceUnshadow(view->children[i], array->children[i], depth + 1);
  }
  if (view->dictionary != NULL) {
    ArrowDeviceUnshadow(view->dictionary, array->dictionary, depth + 1);
  }
}

static int ArrowDeviceHasBinaryView(const struct ArrowArrayView* view, int depth) {
  int64_t i;
  if (view->storage_type == NANOARROW_TYPE_STRING_VIEW ||
      view->storage_type == NANOARROW_TYPE_BINARY_VIEW) {
    return 1;
  }
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    return 0;
  }
  for (i = 0; i < view->n_children; i++) {
    if (view->children != NULL && view->children[i] != NULL &&
        ArrowDeviceHasBinaryView(view->children[i], depth + 1)) {
      return 1;
    }
  }
  return view->dictionary != NULL && ArrowDeviceHasBinaryView(view->dictionary, depth + 1);
}

/* ArrowArrayViewSetArrayMinimal() for an array in device memory. */
static ArrowErrorCode ArrowDeviceSetMinimal(struct ArrowArrayView* view,
                                            const struct ArrowArray* array,
                                            struct ArrowError* error) {
  struct ArrowDeviceShadow shadow;
  int rc;
  if (!ArrowDeviceHasBinaryView(view, 0)) {
    return ArrowArrayViewSetArrayMinimal(view, array, error);
  }
  rc = ArrowDeviceShadowInit(&shadow, view, array, 0);
  if (rc != NANOARROW_OK) {
    ArrowDeviceShadowReset(&shadow);
    ArrowErrorSet(error, "out of memory");
    return rc;
  }
  rc = ArrowArrayViewSetArrayMinimal(view, &shadow.array, error);
  if (rc == NANOARROW_OK) {
    ArrowDeviceUnshadow(view, array, 0);
  }
  ArrowDeviceShadowReset(&shadow);
  return rc;
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

  if (device->device_type == ARROW_DEVICE_CPU) {
    if (minimal) {
      NANOARROW_RETURN_NOT_OK(ArrowArrayViewSetArrayMinimal(
          &device_array_view->array_view, &device_array->array, error));
    } else {
      NANOARROW_RETURN_NOT_OK(
          device->synchronize_event(device, device_array->sync_event, stream, error));
      NANOARROW_RETURN_NOT_OK(ArrowArrayViewSetArray(&device_array_view->array_view,
                                                     &device_array->array, error));
    }
  } else {
    /* Device memory: the Minimal setter reads no buffer; the rest goes through the
     * device's callbacks. */
    NANOARROW_RETURN_NOT_OK(ArrowDeviceSetMinimal(&device_array_view->array_view,
                                                  &device_array->array, error));
    if (!minimal) {
      NANOARROW_RETURN_NOT_OK(ArrowDeviceResolveSizes(device, &device_array_view->array_view,
                                                      device_array->sync_event, stream,
                                                      error));
    }
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


/* ---- Copies ---- */

/* What each node of a copied array owns: its buffers (allocated on the destination
 * device by buffer_init), the pointer arrays, its children and dictionary. */
struct ArrowDeviceCopyNode {
  int64_t n_buffers;
  struct ArrowBuffer* buffers;
  const void** buffer_pointers;
  struct ArrowArray** child_pointers;
  struct ArrowArray* children;
  struct ArrowArray dictionary;
};

static void ArrowDeviceCopyRelease(struct ArrowArray* array) {
  struct ArrowDeviceCopyNode* node;
  int64_t i;
  if (array == NULL || array->release == NULL) {
    return;
  }
  node = (struct ArrowDeviceCopyNode*)array->private_data;
  if (node != NULL) {
    for (i = 0; node->children != NULL && i < array->n_children; i++) {
      if (node->children[i].release != NULL) {
        node->children[i].release(node->children + i);
      }
    }
    if (node->dictionary.release != NULL) {
      node->dictionary.release(&node->dictionary);
    }
    for (i = 0; node->buffers != NULL && i < node->n_buffers; i++) {
      ArrowBufferReset(node->buffers + i);
    }
    ArrowFree(node->buffers);
    ArrowFree((void*)node->buffer_pointers);
    ArrowFree(node->child_pointers);
    ArrowFree(node->children);
    ArrowFree(node);
  }
  array->private_data = NULL;
  array->release = NULL;
}

/* Where the copy of one node reads from and writes to. */
struct ArrowDeviceCopyContext {
  struct ArrowDevice* device_src;
  struct ArrowDevice* device_dst;
  void* stream;
  /* the device whose stream this is (the non-CPU end) */
  struct ArrowDevice* stream_device;
};

/* Copies n_bytes at src (on device_src) into buffer i of node, on device_dst. */
static ArrowErrorCode ArrowDeviceCopyBuffer(struct ArrowDeviceCopyContext* context,
                                            const void* src, int64_t n_bytes,
                                            struct ArrowDeviceCopyNode* node, int64_t i) {
  struct ArrowBufferView view;
  int rc;
  ArrowBufferInit(node->buffers + i);
  if (src == NULL || n_bytes <= 0) {
    node->buffer_pointers[i] = NULL;
    return NANOARROW_OK;
  }
  view.data.data = src;
  view.size_bytes = n_bytes;
  rc = ArrowDeviceBufferInitAsync(context->device_src, view, context->device_dst,
                                  node->buffers + i, context->stream);
  if (rc != NANOARROW_OK) {
    /* buffer_init leaves dst unusable on failure: start it again empty. */
    ArrowBufferInit(node->buffers + i);
    return rc;
  }
  node->buffer_pointers[i] = node->buffers[i].data;
  return NANOARROW_OK;
}

/* Releases a copy that failed or is not handed out. Copies may still be queued on the
 * stream into its buffers: wait for them before freeing. */
static void ArrowDeviceCopyAbandon(struct ArrowDeviceCopyContext* context,
                                   struct ArrowArray* copy) {
  if (context->stream != NULL && context->stream_device->device_type != ARROW_DEVICE_CPU) {
    (void)context->stream_device->synchronize_event(context->stream_device, NULL,
                                                    context->stream, NULL);
  }
  ArrowDeviceCopyRelease(copy);
}

static ArrowErrorCode ArrowDeviceCopyNodeInit(struct ArrowDeviceCopyContext* context,
                                              const struct ArrowArrayView* array_view,
                                              struct ArrowArray* out, int depth) {
  struct ArrowDeviceCopyNode* node;
  int64_t n_fixed = 0;
  int64_t n_variadic = 0;
  int64_t i;
  int is_binary_view = array_view->storage_type == NANOARROW_TYPE_STRING_VIEW ||
                       array_view->storage_type == NANOARROW_TYPE_BINARY_VIEW;
  int64_t* variadic_sizes = NULL;
  int rc = NANOARROW_OK;

  memset(out, 0, sizeof(struct ArrowArray));
  if (depth > NANOARROW_MAX_NESTING_DEPTH || array_view->n_children < 0 ||
      (array_view->n_children > 0 && array_view->children == NULL)) {
    return EINVAL;
  }
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    if (array_view->layout.buffer_type[i] != NANOARROW_BUFFER_TYPE_NONE) {
      n_fixed = i + 1;
    }
  }
  if (is_binary_view) {
    n_fixed = 2;
    n_variadic = array_view->n_variadic_buffers;
    if (n_variadic < 0 || (n_variadic > 0 && (array_view->variadic_buffers == NULL ||
                                              array_view->variadic_buffer_sizes == NULL))) {
      return EINVAL;
    }
  }

  node = (struct ArrowDeviceCopyNode*)ArrowMalloc(sizeof(struct ArrowDeviceCopyNode));
  if (node == NULL) {
    return ENOMEM;
  }
  memset(node, 0, sizeof(struct ArrowDeviceCopyNode));
  node->n_buffers = n_fixed + (is_binary_view ? n_variadic + 1 : 0);
  out->private_data = node;
  out->release = ArrowDeviceCopyRelease;
  out->length = array_view->length;
  out->offset = array_view->offset;
  out->null_count = array_view->null_count;
  out->n_buffers = node->n_buffers;
  out->n_children = array_view->n_children;

  if (node->n_buffers > 0) {
    node->buffers =
        (struct ArrowBuffer*)ArrowMalloc((size_t)node->n_buffers * sizeof(struct ArrowBuffer));
    node->buffer_pointers =
        (const void**)ArrowMalloc((size_t)node->n_buffers * sizeof(const void*));
    if (node->buffers == NULL || node->buffer_pointers == NULL) {
      ArrowFree(node->buffers);
      node->buffers = NULL;
      ArrowDeviceCopyRelease(out);
      return ENOMEM;
    }
    for (i = 0; i < node->n_buffers; i++) {
      ArrowBufferInit(node->buffers + i);
      node->buffer_pointers[i] = NULL;
    }
  }
  out->buffers = node->buffer_pointers;

  if (array_view->n_children > 0) {
    node->children = (struct ArrowArray*)ArrowMalloc((size_t)array_view->n_children *
                                                     sizeof(struct ArrowArray));
    node->child_pointers = (struct ArrowArray**)ArrowMalloc(
        (size_t)array_view->n_children * sizeof(struct ArrowArray*));
    if (node->children == NULL || node->child_pointers == NULL) {
      ArrowFree(node->children);
      node->children = NULL;
      ArrowDeviceCopyRelease(out);
      return ENOMEM;
    }
    for (i = 0; i < array_view->n_children; i++) {
      memset(node->children + i, 0, sizeof(struct ArrowArray));
      node->child_pointers[i] = node->children + i;
    }
  }
  out->children = node->child_pointers;

  /* Fixed buffers, as the view sizes them. */
  for (i = 0; rc == NANOARROW_OK && i < n_fixed; i++) {
    if (array_view->buffer_views[i].size_bytes < 0) {
      rc = EINVAL;
      break;
    }
    rc = ArrowDeviceCopyBuffer(context, array_view->buffer_views[i].data.data,
                               array_view->buffer_views[i].size_bytes, node, i);
  }

  /* Binary views: the variadic sizes live with the source, so they are read back
   * first (and waited for) to know how much of each data buffer to copy; the sizes
   * buffer itself is copied device to device. */
  if (rc == NANOARROW_OK && is_binary_view && n_variadic > 0) {
    variadic_sizes = (int64_t*)ArrowMalloc((size_t)n_variadic * sizeof(int64_t));
    if (variadic_sizes == NULL) {
      rc = ENOMEM;
    } else {
      rc = ArrowDeviceReadBytes(context->device_src, array_view->variadic_buffer_sizes,
                                n_variadic * (int64_t)sizeof(int64_t), variadic_sizes,
                                context->stream, NULL);
      if (rc == NANOARROW_OK && context->stream != NULL &&
          context->device_src->device_type != ARROW_DEVICE_CPU) {
        rc = context->device_src->synchronize_event(context->device_src, NULL,
                                                    context->stream, NULL);
      }
    }
    for (i = 0; rc == NANOARROW_OK && i < n_variadic; i++) {
      if (variadic_sizes[i] < 0) {
        rc = EINVAL;
        break;
      }
      rc = ArrowDeviceCopyBuffer(context, array_view->variadic_buffers[i],
                                 variadic_sizes[i], node, n_fixed + i);
    }
    if (rc == NANOARROW_OK) {
      rc = ArrowDeviceCopyBuffer(context, array_view->variadic_buffer_sizes,
                                 n_variadic * (int64_t)sizeof(int64_t), node,
                                 n_fixed + n_variadic);
    }
    ArrowFree(variadic_sizes);
  } else if (rc == NANOARROW_OK && is_binary_view) {
    /* No variadic buffers: an empty sizes buffer. */
    node->buffer_pointers[n_fixed] = NULL;
  }

  for (i = 0; rc == NANOARROW_OK && i < array_view->n_children; i++) {
    rc = ArrowDeviceCopyNodeInit(context, array_view->children[i], node->children + i,
                                 depth + 1);
  }
  if (rc == NANOARROW_OK && array_view->dictionary != NULL) {
    rc = ArrowDeviceCopyNodeInit(context, array_view->dictionary, &node->dictionary,
                                 depth + 1);
    out->dictionary = &node->dictionary;
  }

  if (rc != NANOARROW_OK) {
    ArrowDeviceCopyAbandon(context, out);
  }
  return rc;
}

ArrowErrorCode ArrowDeviceArrayViewCopyAsync(struct ArrowDeviceArrayView* src,
                                             struct ArrowDevice* device_dst,
                                             struct ArrowDeviceArray* dst, void* stream) {
  struct ArrowDeviceCopyContext context;
  struct ArrowArray copy;
  int rc;

  if (src == NULL || dst == NULL || !ArrowDevicePrivateIsLive(device_dst) ||
      !ArrowDevicePrivateIsLive(src->device)) {
    return EINVAL;
  }

  if (src->device->device_type == ARROW_DEVICE_CPU &&
      device_dst->device_type == ARROW_DEVICE_CPU) {
    /* Host to host: the core copies. */
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

  context.device_src = src->device;
  context.device_dst = device_dst;
  context.stream = stream;
  context.stream_device =
      src->device->device_type != ARROW_DEVICE_CPU ? src->device : device_dst;

  /* The copies read src's buffers: they wait on its event (on the stream when there
   * is one). A view set with the Minimal setter gets its sizes first. */
  if (!ArrowDeviceViewSizesKnown(&src->array_view, 0)) {
    if (src->device->device_type == ARROW_DEVICE_CPU) {
      if (src->array_view.array == NULL) {
        return EINVAL;
      }
      NANOARROW_RETURN_NOT_OK(
          ArrowArrayViewSetArray(&src->array_view, src->array_view.array, NULL));
    } else {
      NANOARROW_RETURN_NOT_OK(ArrowDeviceResolveSizes(src->device, &src->array_view,
                                                      src->sync_event, stream, NULL));
    }
  } else if (src->sync_event != NULL) {
    NANOARROW_RETURN_NOT_OK(
        src->device->synchronize_event(src->device, src->sync_event, stream, NULL));
  }

  rc = ArrowDeviceCopyNodeInit(&context, &src->array_view, &copy, 0);
  if (rc != NANOARROW_OK) {
    return rc;
  }

  if (device_dst->device_type == ARROW_DEVICE_CPU) {
    /* Host memory has no events: the copies must be done before dst is handed out. */
    if (stream != NULL) {
      rc = context.stream_device->synchronize_event(context.stream_device, NULL, stream,
                                                    NULL);
    }
    if (rc == NANOARROW_OK) {
      rc = ArrowDeviceArrayInitAsync(device_dst, dst, &copy, NULL, NULL);
    }
  } else {
    rc = ArrowDeviceArrayInitAsync(device_dst, dst, &copy, NULL, stream);
  }
  if (rc != NANOARROW_OK) {
    ArrowDeviceCopyAbandon(&context, &copy);
  }
  return rc;
}
