/* Dictionary deltas: a new array holding the current dictionary then the delta.
 *
 * Both inputs are validated at FULL first, so the copy below may trust offsets,
 * type ids, run ends and view buffer indexes to be in range; the result is built
 * in a builder array (ArrowArrayInitFromSchema) node by node and validated at FULL. */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

/* Copies n bits of src starting at src_bit to dst starting at dst_bit (dst holds at
 * least dst_bit + n bits). */
NANOARROW_COLD
static void IpcConcatCopyBits(uint8_t* dst, int64_t dst_bit, const uint8_t* src,
                              int64_t src_bit, int64_t n) {
  int64_t i;
  if (dst_bit % 8 == 0 && src_bit % 8 == 0) {
    int64_t whole = n / 8;
    memcpy(dst + dst_bit / 8, src + src_bit / 8, (size_t)whole);
    for (i = whole * 8; i < n; i++) {
      ArrowBitSetTo(dst, dst_bit + i, (uint8_t)ArrowBitGet(src, src_bit + i));
    }
    return;
  }
  for (i = 0; i < n; i++) {
    ArrowBitSetTo(dst, dst_bit + i, (uint8_t)ArrowBitGet(src, src_bit + i));
  }
}

/* Appends n bits of src (NULL: all set) starting at src_bit to bitmap. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppendBitmap(struct ArrowBitmap* bitmap, const uint8_t* src,
                                            int64_t src_bit, int64_t n) {
  NANOARROW_RETURN_NOT_OK(ArrowBitmapReserve(bitmap, n));
  if (src == NULL) {
    ArrowBitmapAppendUnsafe(bitmap, 1, n);
  } else {
    /* Zero the new bytes so the padding bits past the end are deterministic. */
    int64_t used = ArrowBytesForBits(bitmap->size_bits);
    memset(bitmap->buffer.data + used, 0,
           (size_t)(ArrowBytesForBits(bitmap->size_bits + n) - used));
    IpcConcatCopyBits(bitmap->buffer.data, bitmap->size_bits, src, src_bit, n);
    bitmap->size_bits += n;
    bitmap->buffer.size_bytes = ArrowBytesForBits(bitmap->size_bits);
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
static int64_t IpcConcatReadInt(const struct ArrowBufferView* buffer, int large, int64_t i) {
  return large ? buffer->data.as_int64[i] : (int64_t)buffer->data.as_int32[i];
}

/* Appends value to an int32 (large == 0) or int64 buffer; ERANGE if it does not fit. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppendInt(struct ArrowBuffer* buffer, int large,
                                         int64_t value) {
  if (large) return ArrowBufferAppendInt64(buffer, value);
  if (value > INT32_MAX || value < INT32_MIN) return ERANGE;
  return ArrowBufferAppendInt32(buffer, (int32_t)value);
}

NANOARROW_COLD
static ArrowErrorCode IpcConcatAppend(struct ArrowArray* out, const struct ArrowArrayView* view,
                                      int64_t start, int64_t length, int with_dictionary,
                                      int depth, struct ArrowError* error);

/* Offsets [abs, abs + length] rebased so that offsets[abs] becomes shift; the
 * builder's offsets buffer gets its leading zero first if it has none yet. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppendOffsets(struct ArrowBuffer* offsets,
                                             const struct ArrowBufferView* source,
                                             int large, int64_t abs, int64_t length,
                                             int64_t shift) {
  int64_t first = IpcConcatReadInt(source, large, abs);
  int64_t i;
  if (offsets->size_bytes == 0) NANOARROW_RETURN_NOT_OK(IpcConcatAppendInt(offsets, large, 0));
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(offsets, length * (large ? 8 : 4)));
  for (i = 1; i <= length; i++) {
    /* Validated offsets are >= first and <= the data/child size, so no overflow. */
    int64_t relative = IpcConcatReadInt(source, large, abs + i) - first;
    if (relative > INT64_MAX - shift) return ERANGE;
    NANOARROW_RETURN_NOT_OK(IpcConcatAppendInt(offsets, large, relative + shift));
  }
  return NANOARROW_OK;
}

/* List views: the child range the elements use, then offsets rebased onto it. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppendListView(struct ArrowArray* out,
                                              const struct ArrowArrayView* view, int64_t abs,
                                              int64_t length, int with_dictionary, int depth,
                                              struct ArrowError* error) {
  int large = view->storage_type == NANOARROW_TYPE_LARGE_LIST_VIEW;
  const struct ArrowBufferView* offsets = &view->buffer_views[1];
  const struct ArrowBufferView* sizes = &view->buffer_views[2];
  int64_t child_start = INT64_MAX;
  int64_t child_end = 0;
  int64_t shift;
  int64_t i;
  for (i = abs; i < abs + length; i++) {
    int64_t size = IpcConcatReadInt(sizes, large, i);
    int64_t offset = IpcConcatReadInt(offsets, large, i);
    if (size == 0) continue;
    if (offset < child_start) child_start = offset;
    if (offset + size > child_end) child_end = offset + size;
  }
  if (child_start == INT64_MAX) child_start = child_end = 0;
  shift = out->children[0]->length;
  NANOARROW_RETURN_NOT_OK(IpcConcatAppend(out->children[0], view->children[0], child_start,
                                          child_end - child_start, with_dictionary,
                                          depth + 1, error));
  for (i = abs; i < abs + length; i++) {
    int64_t size = IpcConcatReadInt(sizes, large, i);
    /* Empty elements point at the start of this piece, which is in bounds. */
    int64_t offset = size == 0 ? shift : IpcConcatReadInt(offsets, large, i) - child_start + shift;
    NANOARROW_RETURN_NOT_OK(IpcConcatAppendInt(ArrowArrayBuffer(out, 1), large, offset));
    NANOARROW_RETURN_NOT_OK(IpcConcatAppendInt(ArrowArrayBuffer(out, 2), large, size));
  }
  return NANOARROW_OK;
}

/* Child index of a (validated) type id. */
NANOARROW_COLD
static int IpcConcatUnionChild(const struct ArrowArrayView* view, int8_t type_id) {
  return view->union_type_id_map != NULL ? view->union_type_id_map[type_id] : type_id;
}

/* Dense unions: for each child, the range of child elements the union elements
 * use is appended and the offsets are rebased onto it. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppendDenseUnion(struct ArrowArray* out,
                                                const struct ArrowArrayView* view,
                                                int64_t abs, int64_t length,
                                                int with_dictionary, int depth,
                                                struct ArrowError* error) {
  const int8_t* type_ids = view->buffer_views[0].data.as_int8 + abs;
  const int32_t* offsets = view->buffer_views[1].data.as_int32 + abs;
  int64_t child_start[128];
  int64_t child_end[128];
  int64_t shift[128];
  int64_t n_children = view->n_children;
  int64_t i;

  if (n_children > 128) return EINVAL;
  for (i = 0; i < n_children; i++) {
    child_start[i] = INT64_MAX;
    child_end[i] = 0;
  }
  for (i = 0; i < length; i++) {
    int child = IpcConcatUnionChild(view, type_ids[i]);
    if (offsets[i] < child_start[child]) child_start[child] = offsets[i];
    if (offsets[i] + 1 > child_end[child]) child_end[child] = (int64_t)offsets[i] + 1;
  }
  for (i = 0; i < n_children; i++) {
    if (child_start[i] == INT64_MAX) child_start[i] = child_end[i] = 0;
    shift[i] = out->children[i]->length - child_start[i];
    NANOARROW_RETURN_NOT_OK(IpcConcatAppend(out->children[i], view->children[i],
                                            child_start[i], child_end[i] - child_start[i],
                                            with_dictionary, depth + 1, error));
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(ArrowArrayBuffer(out, 0), type_ids, length));
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(ArrowArrayBuffer(out, 1), length * 4));
  for (i = 0; i < length; i++) {
    int child = IpcConcatUnionChild(view, type_ids[i]);
    NANOARROW_RETURN_NOT_OK(
        IpcConcatAppendInt(ArrowArrayBuffer(out, 1), 0, offsets[i] + shift[child]));
  }
  return NANOARROW_OK;
}

NANOARROW_COLD
/* Run-end encoded: the runs covering logical [abs, abs + length), run ends rebased
 * onto the output's logical length, and the values of those runs. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppendRunEndEncoded(struct ArrowArray* out,
                                                   const struct ArrowArrayView* view,
                                                   int64_t abs, int64_t length,
                                                   int with_dictionary, int depth,
                                                   struct ArrowError* error) {
  const struct ArrowArrayView* run_ends = view->children[0];
  struct ArrowArray* out_run_ends = out->children[0];
  struct ArrowBuffer* out_data = ArrowArrayBuffer(out_run_ends, 1);
  int64_t max_run_end = run_ends->storage_type == NANOARROW_TYPE_INT16   ? INT16_MAX
                        : run_ends->storage_type == NANOARROW_TYPE_INT32 ? INT32_MAX
                                                                         : INT64_MAX;
  int64_t first_run = ArrowArrayViewPrivateRunIndex(run_ends, abs);
  int64_t run;

  if (out->length > max_run_end - length) return ERANGE;
  for (run = first_run; run < run_ends->length; run++) {
    int64_t end = ArrowArrayViewGetIntUnsafe(run_ends, run) - abs;
    int64_t rebased = (end < length ? end : length) + out->length;
    switch (run_ends->storage_type) {
      case NANOARROW_TYPE_INT16:
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppendInt16(out_data, (int16_t)rebased));
        break;
      case NANOARROW_TYPE_INT32:
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppendInt32(out_data, (int32_t)rebased));
        break;
      default:
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppendInt64(out_data, rebased));
        break;
    }
    if (end >= length) break;
  }
  if (run == run_ends->length) {
    ArrowErrorSet(error, "run ends stop before the run-end encoded array's length");
    return EINVAL;
  }
  out_run_ends->length += run - first_run + 1;
  return IpcConcatAppend(out->children[1], view->children[1], first_run,
                         run - first_run + 1, with_dictionary, depth + 1, error);
}

/* Binary/string views: the views, with the long ones' buffer indexes rebased past
 * the variadic buffers already in out, then copies of view's variadic buffers. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppendBinaryView(struct ArrowArray* out,
                                                const struct ArrowArrayView* view,
                                                int64_t abs, int64_t length) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)out->private_data;
  struct ArrowBuffer* views = ArrowArrayBuffer(out, 1);
  int32_t base = private_data->n_variadic_buffers;
  int64_t first_byte = views->size_bytes;
  int64_t i;

  if (view->n_variadic_buffers > INT32_MAX - base) return ERANGE;
  NANOARROW_RETURN_NOT_OK(
      ArrowBufferAppend(views, view->buffer_views[1].data.as_uint8 + abs * 16, length * 16));
  if (base > 0) {
    for (i = 0; i < length; i++) {
      uint8_t* element = views->data + first_byte + i * 16;
      int32_t size;
      int32_t buffer_index;
      memcpy(&size, element, sizeof(size));
      if (size <= 12) continue;
      memcpy(&buffer_index, element + 8, sizeof(buffer_index));
      buffer_index += base;
      memcpy(element + 8, &buffer_index, sizeof(buffer_index));
    }
  }
  if (view->n_variadic_buffers == 0) return NANOARROW_OK;
  NANOARROW_RETURN_NOT_OK(ArrowArrayAddVariadicBuffers(out, view->n_variadic_buffers));
  for (i = 0; i < view->n_variadic_buffers; i++) {
    int64_t size_bytes = view->variadic_buffer_sizes[i];
    if (size_bytes > 0) {
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&private_data->variadic_buffers[base + i],
                                                view->variadic_buffers[i], size_bytes));
    }
  }
  return NANOARROW_OK;
}

/* Appends elements [start, start + length) of view (start excludes view->offset)
 * to the builder out; with_dictionary also copies view's dictionaries, which the
 * indices of every piece appended before must refer to as well. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppend(struct ArrowArray* out, const struct ArrowArrayView* view,
                                      int64_t start, int64_t length, int with_dictionary,
                                      int depth, struct ArrowError* error) {
  int64_t abs = view->offset + start;
  int64_t i;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "dictionary nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (length == 0) {
    /* Nothing to copy (buffers may be NULL), but nested dictionaries still come
     * along. */
    for (i = 0; i < view->n_children; i++) {
      NANOARROW_RETURN_NOT_OK(IpcConcatAppend(out->children[i], view->children[i], 0, 0,
                                              with_dictionary, depth + 1, error));
    }
    if (view->dictionary != NULL && with_dictionary) {
      NANOARROW_RETURN_NOT_OK(IpcConcatAppend(out->dictionary, view->dictionary, 0,
                                              view->dictionary->length, 1, depth + 1, error));
    }
    return NANOARROW_OK;
  }
  if (view->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY) {
    /* The builder's bitmap stays unallocated (exported as NULL) until a null comes:
     * arrays handed out while there was none then never see a bitmap, so a later
     * delta cannot write a byte they read (see ArrowIpcPrivateConcatenateInPlace). */
    const uint8_t* validity = view->buffer_views[0].data.as_uint8;
    struct ArrowBitmap* bitmap = ArrowArrayValidityBitmap(out);
    int64_t nulls = validity == NULL ? 0 : length - ArrowBitCountSet(validity, abs, length);
    if (nulls > 0 || bitmap->buffer.data != NULL) {
      if (bitmap->buffer.data == NULL && out->length > 0) {
        NANOARROW_RETURN_NOT_OK(IpcConcatAppendBitmap(bitmap, NULL, 0, out->length));
      }
      NANOARROW_RETURN_NOT_OK(IpcConcatAppendBitmap(bitmap, validity, abs, length));
      out->null_count += nulls;
    }
  }

  switch (view->storage_type) {
    case NANOARROW_TYPE_NA:
      out->null_count += length;
      break;
    case NANOARROW_TYPE_BOOL: {
      struct ArrowBuffer* data = ArrowArrayBuffer(out, 1);
      int64_t used = data->size_bytes;
      NANOARROW_RETURN_NOT_OK(
          ArrowBufferResize(data, ArrowBytesForBits(out->length + length), 0));
      memset(data->data + used, 0, (size_t)(data->size_bytes - used));
      IpcConcatCopyBits(data->data, out->length, view->buffer_views[1].data.as_uint8, abs,
                        length);
      break;
    }
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY: {
      int large = view->storage_type == NANOARROW_TYPE_LARGE_STRING ||
                  view->storage_type == NANOARROW_TYPE_LARGE_BINARY;
      struct ArrowBuffer* data = ArrowArrayBuffer(out, 2);
      int64_t first = IpcConcatReadInt(&view->buffer_views[1], large, abs);
      int64_t last = IpcConcatReadInt(&view->buffer_views[1], large, abs + length);
      NANOARROW_RETURN_NOT_OK(IpcConcatAppendOffsets(ArrowArrayBuffer(out, 1),
                                                     &view->buffer_views[1], large, abs,
                                                     length, data->size_bytes));
      if (last > first) {
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(
            data, view->buffer_views[2].data.as_uint8 + first, last - first));
      }
      break;
    }
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP: {
      int large = view->storage_type == NANOARROW_TYPE_LARGE_LIST;
      int64_t first = IpcConcatReadInt(&view->buffer_views[1], large, abs);
      int64_t last = IpcConcatReadInt(&view->buffer_views[1], large, abs + length);
      NANOARROW_RETURN_NOT_OK(IpcConcatAppendOffsets(ArrowArrayBuffer(out, 1),
                                                     &view->buffer_views[1], large, abs,
                                                     length, out->children[0]->length));
      NANOARROW_RETURN_NOT_OK(IpcConcatAppend(out->children[0], view->children[0], first,
                                              last - first, with_dictionary, depth + 1,
                                              error));
      break;
    }
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      NANOARROW_RETURN_NOT_OK(IpcConcatAppendListView(out, view, abs, length,
                                                      with_dictionary, depth, error));
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST: {
      int64_t list_size = view->layout.child_size_elements;
      NANOARROW_RETURN_NOT_OK(IpcConcatAppend(out->children[0], view->children[0],
                                              abs * list_size, length * list_size,
                                              with_dictionary, depth + 1, error));
      break;
    }
    case NANOARROW_TYPE_STRUCT:
      for (i = 0; i < view->n_children; i++) {
        NANOARROW_RETURN_NOT_OK(IpcConcatAppend(out->children[i], view->children[i], abs,
                                                length, with_dictionary, depth + 1, error));
      }
      break;
    case NANOARROW_TYPE_SPARSE_UNION:
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(
          ArrowArrayBuffer(out, 0), view->buffer_views[0].data.as_int8 + abs, length));
      for (i = 0; i < view->n_children; i++) {
        NANOARROW_RETURN_NOT_OK(IpcConcatAppend(out->children[i], view->children[i], abs,
                                                length, with_dictionary, depth + 1, error));
      }
      break;
    case NANOARROW_TYPE_DENSE_UNION:
      NANOARROW_RETURN_NOT_OK(IpcConcatAppendDenseUnion(out, view, abs, length,
                                                        with_dictionary, depth, error));
      break;
    case NANOARROW_TYPE_RUN_END_ENCODED:
      NANOARROW_RETURN_NOT_OK(IpcConcatAppendRunEndEncoded(out, view, abs, length,
                                                           with_dictionary, depth, error));
      break;
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_STRING_VIEW:
      NANOARROW_RETURN_NOT_OK(IpcConcatAppendBinaryView(out, view, abs, length));
      break;
    default: {
      /* Fixed width: primitives, decimals, intervals, fixed-size binary, indices. */
      int64_t width = view->layout.element_size_bits[1] / 8;
      if (view->layout.buffer_type[1] != NANOARROW_BUFFER_TYPE_DATA ||
          view->layout.element_size_bits[1] % 8 != 0) {
        ArrowErrorSet(error, "dictionary deltas of type %s are not supported",
                      ArrowTypeString(view->storage_type));
        return ENOTSUP;
      }
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(
          ArrowArrayBuffer(out, 1), view->buffer_views[1].data.as_uint8 + abs * width,
          length * width));
      break;
    }
  }

  if (view->dictionary != NULL && with_dictionary) {
    NANOARROW_RETURN_NOT_OK(IpcConcatAppend(out->dictionary, view->dictionary, 0,
                                            view->dictionary->length, 1, depth + 1, error));
  }
  out->length += length;
  return NANOARROW_OK;
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcPrivateConcatenate(const struct ArrowSchema* schema,
                                          struct ArrowArrayView* old_view,
                                          struct ArrowArrayView* delta_view,
                                          struct ArrowArray* out, struct ArrowError* error) {
  struct ArrowError local_error;
  ArrowErrorCode result;

  local_error.message[0] = '\0';
  result = ArrowArrayViewValidate(old_view, NANOARROW_VALIDATION_LEVEL_FULL, &local_error);
  if (result != NANOARROW_OK) {
    ArrowErrorSet(error, "current dictionary (before a delta): %s", local_error.message);
    return result;
  }
  result = ArrowArrayViewValidate(delta_view, NANOARROW_VALIDATION_LEVEL_FULL, &local_error);
  if (result != NANOARROW_OK) {
    ArrowErrorSet(error, "dictionary delta: %s", local_error.message);
    return result;
  }
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromSchema(out, schema, error));
  /* Nested dictionaries: the delta's is the newest, a superset of the old one. */
  result = IpcConcatAppend(out, old_view, 0, old_view->length, 0, 0, error);
  if (result == NANOARROW_OK) {
    result = IpcConcatAppend(out, delta_view, 0, delta_view->length, 1, 0, error);
  }
  if (result == NANOARROW_OK) {
    result = ArrowArrayFinishBuilding(out, NANOARROW_VALIDATION_LEVEL_FULL, &local_error);
    if (result != NANOARROW_OK) {
      ArrowErrorSet(error, "dictionary with its delta appended: %s", local_error.message);
    }
  } else if (result == ERANGE) {
    ArrowErrorSet(error, "concatenated dictionary exceeds its offsets' or run ends' range");
  } else if (result == ENOMEM) {
    ArrowErrorSet(error, "out of memory concatenating a dictionary delta");
  }
  if (result != NANOARROW_OK) ArrowArrayRelease(out);
  return result;
}

/* ---- Appending in place ----
 *
 * A dictionary that received a delta is a builder array (ArrowArrayInitFromSchema)
 * whose buffers grow geometrically (ArrowBufferReserve doubles the capacity), so a
 * delta appended to it costs its own size plus, once per doubling, a copy of what
 * is there: n deltas cost O(total size), not O(n x total size). Before appending,
 * the size of every node is noted so that a failed append can be undone. */

/* What one node of a builder held before an append. */
struct IpcConcatMark {
  int64_t length;
  int64_t null_count;
  int64_t bitmap_bits;
  int64_t sizes[NANOARROW_MAX_FIXED_BUFFERS];
  int32_t n_variadic;
};

NANOARROW_COLD
static int64_t IpcConcatCountNodes(const struct ArrowArray* array, int depth) {
  int64_t n = 1;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return -1;
  for (i = 0; i < array->n_children; i++) {
    int64_t n_child = IpcConcatCountNodes(array->children[i], depth + 1);
    if (n_child < 0) return -1;
    n += n_child;
  }
  return n;
}

NANOARROW_COLD
static void IpcConcatMarkNodes(const struct ArrowArray* array, struct IpcConcatMark* marks,
                               int64_t* k) {
  const struct ArrowArrayPrivateData* private_data =
      (const struct ArrowArrayPrivateData*)array->private_data;
  struct IpcConcatMark* mark = &marks[(*k)++];
  int64_t i;
  mark->length = array->length;
  mark->null_count = array->null_count;
  mark->bitmap_bits = private_data->bitmap.size_bits;
  mark->sizes[0] = private_data->bitmap.buffer.size_bytes;
  for (i = 1; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    mark->sizes[i] = private_data->buffers[i - 1].size_bytes;
  }
  mark->n_variadic = private_data->n_variadic_buffers;
  for (i = 0; i < array->n_children; i++) IpcConcatMarkNodes(array->children[i], marks, k);
}

/* Puts every node back as marked; shrink also gives the spare capacity back. */
NANOARROW_COLD
static void IpcConcatRestoreNodes(struct ArrowArray* array, const struct IpcConcatMark* marks,
                                  int64_t* k, int shrink) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  const struct IpcConcatMark* mark = &marks[(*k)++];
  int64_t i;
  array->length = mark->length;
  array->null_count = mark->null_count;
  private_data->bitmap.size_bits = mark->bitmap_bits;
  if (mark->sizes[0] == 0) {
    /* A bitmap the failed append allocated goes: the node had none. */
    ArrowBufferReset(&private_data->bitmap.buffer);
  } else {
    (void)ArrowBufferResize(&private_data->bitmap.buffer, mark->sizes[0], (char)shrink);
  }
  for (i = 1; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    (void)ArrowBufferResize(&private_data->buffers[i - 1], mark->sizes[i], (char)shrink);
  }
  for (i = mark->n_variadic; i < private_data->n_variadic_buffers; i++) {
    ArrowBufferReset(&private_data->variadic_buffers[i]);
  }
  private_data->n_variadic_buffers = mark->n_variadic;
  for (i = 0; i < array->n_children; i++) {
    IpcConcatRestoreNodes(array->children[i], marks, k, shrink);
  }
}

NANOARROW_COLD
static int64_t IpcConcatContentBytes(const struct ArrowArray* array) {
  const struct ArrowArrayPrivateData* private_data =
      (const struct ArrowArrayPrivateData*)array->private_data;
  int64_t total = private_data->bitmap.buffer.size_bytes;
  int64_t i;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS - 1; i++) {
    total += private_data->buffers[i].size_bytes;
  }
  for (i = 0; i < private_data->n_variadic_buffers; i++) {
    total += private_data->variadic_buffers[i].size_bytes;
  }
  for (i = 0; i < array->n_children; i++) total += IpcConcatContentBytes(array->children[i]);
  return total;
}

/* At most the bytes appending view adds to a builder: its buffers (offsets, run
 * ends and bitmaps rebased or realigned are no larger, give or take a byte) and a
 * validity bitmap for every node, which the builder always has. */
NANOARROW_COLD
static int64_t IpcConcatAppendBound(const struct ArrowArrayView* view, int depth) {
  int64_t total = 0;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return 0;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) total += view->buffer_views[i].size_bytes;
  for (i = 0; i < view->n_variadic_buffers; i++) total += view->variadic_buffer_sizes[i];
  total += view->length / 8 + 2;
  for (i = 0; i < view->n_children; i++) {
    total += IpcConcatAppendBound(view->children[i], depth + 1);
  }
  return total;
}

int64_t ArrowIpcPrivateBuilderContentBytes(const struct ArrowArray* builder) {
  return IpcConcatContentBytes(builder);
}

int ArrowIpcPrivateConcatCanGrow(const struct ArrowSchema* schema) {
  int64_t i;
  if (schema->dictionary != NULL) return 0;
  for (i = 0; i < schema->n_children; i++) {
    if (!ArrowIpcPrivateConcatCanGrow(schema->children[i])) return 0;
  }
  return 1;
}

/* ---- Appending while other arrays share the storage ----
 *
 * Arrays handed out earlier point at the builder's buffers with their own (shorter)
 * lengths and may be read on other threads while a delta is appended. An append is
 * safe for them when it moves no buffer (every buffer that grows already has the
 * capacity) and writes no byte they can read: values, offsets and data are appended
 * past the bytes they use, but a bitmap (validity, or boolean values) shares its
 * last byte between old and new elements, so a bitmap they can see may grow only
 * from a whole byte. A validity bitmap that is still unallocated (no null so far)
 * is invisible to them and may be created. Only flat nodes are handled here (fixed
 * width, boolean, binary/string with 32- or 64-bit offsets); binary views add
 * variadic buffers, whose sizes live in a buffer that is reallocated, and nested
 * types are not checked: they are copied (ArrowIpcPrivateConcatenate). */

NANOARROW_COLD
static int IpcConcatHasRoom(const struct ArrowBuffer* buffer, int64_t additional) {
  return additional <= buffer->capacity_bytes - buffer->size_bytes;
}

NANOARROW_COLD
static int IpcConcatFitsShared(const struct ArrowArray* builder,
                               const struct ArrowArrayView* delta) {
  const struct ArrowArrayPrivateData* private_data =
      (const struct ArrowArrayPrivateData*)builder->private_data;
  const struct ArrowBitmap* bitmap = &private_data->bitmap;
  int64_t n = delta->length;
  int64_t width;
  if (builder->n_children != 0 || builder->dictionary != NULL || delta->n_children != 0 ||
      delta->dictionary != NULL || builder->offset != 0) {
    return 0;
  }
  if (n == 0) return 1;
  if (private_data->layout.buffer_type[0] != NANOARROW_BUFFER_TYPE_VALIDITY) return 0;
  if (bitmap->buffer.data != NULL &&
      (bitmap->size_bits % 8 != 0 || bitmap->size_bits != builder->length ||
       !IpcConcatHasRoom(&bitmap->buffer, ArrowBytesForBits(bitmap->size_bits + n) -
                                              bitmap->buffer.size_bytes))) {
    return 0;
  }
  switch (private_data->storage_type) {
    case NANOARROW_TYPE_BOOL:
      return builder->length % 8 == 0 &&
             IpcConcatHasRoom(&private_data->buffers[0],
                              ArrowBytesForBits(builder->length + n) -
                                  private_data->buffers[0].size_bytes);
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY: {
      int large = private_data->storage_type == NANOARROW_TYPE_LARGE_STRING ||
                  private_data->storage_type == NANOARROW_TYPE_LARGE_BINARY;
      int64_t abs = delta->offset;
      int64_t first = IpcConcatReadInt(&delta->buffer_views[1], large, abs);
      int64_t last = IpcConcatReadInt(&delta->buffer_views[1], large, abs + n);
      return private_data->buffers[0].size_bytes > 0 &&
             IpcConcatHasRoom(&private_data->buffers[0], n * (large ? 8 : 4)) &&
             IpcConcatHasRoom(&private_data->buffers[1], last - first);
    }
    default:
      break;
  }
  width = private_data->layout.element_size_bits[1];
  if (private_data->layout.buffer_type[1] != NANOARROW_BUFFER_TYPE_DATA ||
      private_data->layout.buffer_type[2] != NANOARROW_BUFFER_TYPE_NONE || width % 8 != 0 ||
      width == 0) {
    return 0;
  }
  return IpcConcatHasRoom(&private_data->buffers[0], n * (width / 8));
}

/* Gives every buffer of a flat builder room for as much again as it holds, so that
 * the deltas that follow a copy can be appended in place while arrays share it. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatReserveGrowth(struct ArrowBuffer* buffer) {
  int64_t size = buffer->size_bytes;
  if (buffer->data == NULL || size == 0 || buffer->capacity_bytes >= 2 * size) {
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferResize(buffer, 2 * size, 0));
  buffer->size_bytes = size;
  return NANOARROW_OK;
}

int64_t ArrowIpcPrivateConcatGrowthBytes(const struct ArrowArray* builder) {
  const struct ArrowArrayPrivateData* private_data =
      (const struct ArrowArrayPrivateData*)builder->private_data;
  int64_t total = private_data->bitmap.buffer.size_bytes;
  int64_t i;
  if (builder->n_children != 0 || builder->dictionary != NULL ||
      private_data->storage_type == NANOARROW_TYPE_BINARY_VIEW ||
      private_data->storage_type == NANOARROW_TYPE_STRING_VIEW) {
    return 0;
  }
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS - 1; i++) {
    total += private_data->buffers[i].size_bytes;
  }
  return total;
}

ArrowErrorCode ArrowIpcPrivateConcatReserveGrowth(struct ArrowArray* builder,
                                                  struct ArrowError* error) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)builder->private_data;
  int64_t i;
  if (builder->n_children != 0 || builder->dictionary != NULL ||
      private_data->storage_type == NANOARROW_TYPE_BINARY_VIEW ||
      private_data->storage_type == NANOARROW_TYPE_STRING_VIEW) {
    return NANOARROW_OK;
  }
  if (IpcConcatReserveGrowth(&private_data->bitmap.buffer) != NANOARROW_OK) return ENOMEM;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS - 1; i++) {
    if (IpcConcatReserveGrowth(&private_data->buffers[i]) != NANOARROW_OK) return ENOMEM;
  }
  /* Points the exported buffers at the moved storage (nothing shares it yet). */
  return ArrowArrayFinishBuilding(builder, NANOARROW_VALIDATION_LEVEL_NONE, error);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcPrivateConcatenateInPlace(struct ArrowArray* builder,
                                                 struct ArrowArrayView* delta_view,
                                                 int shared, int64_t max_content_bytes,
                                                 int64_t* content_out,
                                                 struct ArrowError* error) {
  struct ArrowError local_error;
  struct IpcConcatMark* marks;
  int64_t n_nodes;
  int64_t k = 0;
  int shrink = 0;
  ArrowErrorCode result;

  *content_out = IpcConcatContentBytes(builder);
  local_error.message[0] = '\0';
  result = ArrowArrayViewValidate(delta_view, NANOARROW_VALIDATION_LEVEL_FULL, &local_error);
  if (result != NANOARROW_OK) {
    ArrowErrorSet(error, "dictionary delta: %s", local_error.message);
    return result;
  }
  /* Storage others read: only appends that move nothing and write no byte they see. */
  if (shared && !IpcConcatFitsShared(builder, delta_view)) return EAGAIN;
  /* Refused before anything grows when it cannot fit. */
  if (IpcConcatAppendBound(delta_view, 0) > max_content_bytes - *content_out) {
    *content_out += IpcConcatAppendBound(delta_view, 0);
    return EOVERFLOW;
  }
  n_nodes = IpcConcatCountNodes(builder, 0);
  if (n_nodes < 0) {
    ArrowErrorSet(error, "dictionary nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  marks = (struct IpcConcatMark*)ArrowMalloc(n_nodes * (int64_t)sizeof(struct IpcConcatMark));
  if (marks == NULL) {
    ArrowErrorSet(error, "out of memory concatenating a dictionary delta");
    return ENOMEM;
  }
  IpcConcatMarkNodes(builder, marks, &k);

  /* The current values were checked when they became this builder, and every
   * append keeps them valid (offsets, run ends and view buffer indexes are rebased
   * with range checks), so only the delta is validated element by element. */
  result = IpcConcatAppend(builder, delta_view, 0, delta_view->length, 0, 0, error);
  if (result == NANOARROW_OK) {
    *content_out = IpcConcatContentBytes(builder);
    if (*content_out > max_content_bytes) {
      result = EOVERFLOW;
      /* Shrinking moves buffers: never while others read them. */
      shrink = !shared;
    }
  } else if (result == ERANGE) {
    ArrowErrorSet(error, "concatenated dictionary exceeds its offsets' or run ends' range");
  } else if (result == ENOMEM) {
    ArrowErrorSet(error, "out of memory concatenating a dictionary delta");
  }
  if (result != NANOARROW_OK) {
    k = 0;
    IpcConcatRestoreNodes(builder, marks, &k, shrink);
  }
  ArrowFree(marks);
  /* Points the exported buffers at the (possibly moved) storage. */
  if (ArrowArrayFinishBuilding(builder, NANOARROW_VALIDATION_LEVEL_DEFAULT, &local_error) !=
          NANOARROW_OK &&
      result == NANOARROW_OK) {
    ArrowErrorSet(error, "dictionary with its delta appended: %s", local_error.message);
    result = EINVAL;
  }
  return result;
}
