/* Dictionary deltas: a new array holding the current dictionary then the delta. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

static ArrowErrorCode IpcConcatAppendValidity(struct ArrowBitmap* bitmap,
                                     const struct ArrowArrayView* view) {
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowBitmapReserve(bitmap, view->length));
  if (view->buffer_views[0].data.data == NULL) {
    ArrowBitmapAppendUnsafe(bitmap, 1, view->length);
    return NANOARROW_OK;
  }
  for (i = 0; i < view->length; i++) {
    ArrowBitmapAppendUnsafe(
        bitmap, (uint8_t)ArrowBitGet(view->buffer_views[0].data.as_uint8, view->offset + i),
        1);
  }
  return NANOARROW_OK;
}

static ArrowErrorCode IpcConcatAppendBits(struct ArrowBuffer* buffer, int64_t* n_bits,
                                 const struct ArrowArrayView* view) {
  int64_t i;
  int64_t bytes_needed = ArrowBytesForBits(*n_bits + view->length);
  NANOARROW_RETURN_NOT_OK(ArrowBufferResize(buffer, bytes_needed, 0));
  for (i = 0; i < view->length; i++) {
    ArrowBitSetTo(buffer->data, *n_bits + i,
                  (uint8_t)ArrowBitGet(view->buffer_views[1].data.as_uint8, view->offset + i));
  }
  *n_bits += view->length;
  return NANOARROW_OK;
}

/* Offsets of view rebased by shift (the first one only when first). */
static ArrowErrorCode IpcConcatAppendOffsets(struct ArrowBuffer* buffer,
                                    const struct ArrowArrayView* view, int64_t shift,
                                    int first, int large) {
  int64_t i;
  int64_t start = large ? view->buffer_views[1].data.as_int64[view->offset]
                        : view->buffer_views[1].data.as_int32[view->offset];
  for (i = first ? 0 : 1; i <= view->length; i++) {
    int64_t value = (large ? view->buffer_views[1].data.as_int64[view->offset + i]
                           : view->buffer_views[1].data.as_int32[view->offset + i]) -
                    start + shift;
    if (large) {
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendInt64(buffer, value));
    } else {
      if (value > INT32_MAX) return ERANGE;
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendInt32(buffer, (int32_t)value));
    }
  }
  return NANOARROW_OK;
}

static int64_t IpcConcatDataBytes(const struct ArrowArrayView* view, int large, int64_t* start) {
  int64_t first = large ? view->buffer_views[1].data.as_int64[view->offset]
                        : view->buffer_views[1].data.as_int32[view->offset];
  int64_t last = large ? view->buffer_views[1].data.as_int64[view->offset + view->length]
                       : view->buffer_views[1].data.as_int32[view->offset + view->length];
  *start = first;
  return last - first;
}

ArrowErrorCode ArrowIpcPrivateConcatenate(const struct ArrowArrayView* old_view,
                                          const struct ArrowArrayView* delta_view,
                                          struct ArrowArray* out, struct ArrowError* error) {
  enum ArrowType type = old_view->storage_type;
  int64_t width_bits = old_view->layout.element_size_bits[1];
  int is_var = type == NANOARROW_TYPE_STRING || type == NANOARROW_TYPE_BINARY ||
               type == NANOARROW_TYPE_LARGE_STRING || type == NANOARROW_TYPE_LARGE_BINARY;
  int large = type == NANOARROW_TYPE_LARGE_STRING || type == NANOARROW_TYPE_LARGE_BINARY;
  int is_fixed = old_view->layout.buffer_type[1] == NANOARROW_BUFFER_TYPE_DATA &&
                 old_view->layout.buffer_type[2] == NANOARROW_BUFFER_TYPE_NONE &&
                 old_view->n_children == 0 && type != NANOARROW_TYPE_FIXED_SIZE_BINARY &&
                 type != NANOARROW_TYPE_BINARY_VIEW && type != NANOARROW_TYPE_STRING_VIEW &&
                 width_bits > 0 && (width_bits % 8 == 0 || type == NANOARROW_TYPE_BOOL);
  ArrowErrorCode result;

  if (!is_var && !is_fixed) {
    ArrowErrorSet(error, "dictionary deltas of type %s are not supported",
                  ArrowTypeString(type));
    return ENOTSUP;
  }
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromType(out, type));
  result = IpcConcatAppendValidity(ArrowArrayValidityBitmap(out), old_view);
  if (result == NANOARROW_OK) {
    result = IpcConcatAppendValidity(ArrowArrayValidityBitmap(out), delta_view);
  }
  if (result == NANOARROW_OK && type == NANOARROW_TYPE_BOOL) {
    int64_t n_bits = 0;
    result = IpcConcatAppendBits(ArrowArrayBuffer(out, 1), &n_bits, old_view);
    if (result == NANOARROW_OK) result = IpcConcatAppendBits(ArrowArrayBuffer(out, 1), &n_bits, delta_view);
  } else if (result == NANOARROW_OK && is_fixed) {
    int64_t width = width_bits / 8;
    result = ArrowBufferAppend(ArrowArrayBuffer(out, 1),
                               old_view->buffer_views[1].data.as_uint8 + old_view->offset * width,
                               old_view->length * width);
    if (result == NANOARROW_OK) {
      result = ArrowBufferAppend(
          ArrowArrayBuffer(out, 1),
          delta_view->buffer_views[1].data.as_uint8 + delta_view->offset * width,
          delta_view->length * width);
    }
  } else if (result == NANOARROW_OK) {
    int64_t old_start;
    int64_t delta_start;
    int64_t old_bytes = IpcConcatDataBytes(old_view, large, &old_start);
    int64_t delta_bytes = IpcConcatDataBytes(delta_view, large, &delta_start);
    result = IpcConcatAppendOffsets(ArrowArrayBuffer(out, 1), old_view, 0, 1, large);
    if (result == NANOARROW_OK) {
      result = IpcConcatAppendOffsets(ArrowArrayBuffer(out, 1), delta_view, old_bytes, 0, large);
    }
    if (result == NANOARROW_OK) {
      result = ArrowBufferAppend(ArrowArrayBuffer(out, 2),
                                 old_view->buffer_views[2].data.as_uint8 + old_start, old_bytes);
    }
    if (result == NANOARROW_OK) {
      result = ArrowBufferAppend(ArrowArrayBuffer(out, 2),
                                 delta_view->buffer_views[2].data.as_uint8 + delta_start,
                                 delta_bytes);
    }
  }
  if (result == NANOARROW_OK) {
    out->length = old_view->length + delta_view->length;
    out->null_count = ArrowArrayViewComputeNullCount(old_view) +
                      ArrowArrayViewComputeNullCount(delta_view);
    result = ArrowArrayFinishBuildingDefault(out, error);
  } else if (result == ERANGE) {
    ArrowErrorSet(error, "concatenated dictionary exceeds 32-bit offsets");
  } else {
    ArrowErrorSet(error, "out of memory concatenating a dictionary delta");
  }
  if (result != NANOARROW_OK) ArrowArrayRelease(out);
  return result;
}
