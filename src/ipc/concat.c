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

/* Stores v at p as one byte-wide store (see IpcConcatWriteBits). */
NANOARROW_COLD
static void IpcConcatStoreSharedByte(uint8_t* p, uint8_t v) {
#if defined(__GNUC__) || defined(__clang__)
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
#else
  *(volatile uint8_t*)p = v;
#endif
}

/* Writes n bits of src (NULL: all set) starting at src_bit to dst starting at
 * dst_bit; dst holds at least ArrowBytesForBits(dst_bit + n) bytes.
 *
 * Arrays handed out earlier may share dst with their own length of dst_bit
 * elements, and may be read on other threads meanwhile. Every byte after the one
 * holding bit dst_bit is past what they read. That one byte, when dst_bit ends
 * mid-byte, holds their last bits as well as the first new ones: its bits below
 * dst_bit are kept as they are, the new ones are worked out in a register, and the
 * byte is written once, with its final value, by a single byte-wide (relaxed
 * atomic) store. A reader sees the old byte or the new one, and the bits it reads
 * (below its length) are the same in both; no intermediate value is ever stored.
 * The bytes after it are written whole, with 0 past dst_bit + n (padding). */
NANOARROW_COLD
static void IpcConcatWriteBits(uint8_t* dst, int64_t dst_bit, const uint8_t* src,
                               int64_t src_bit, int64_t n) {
  uint8_t* out;
  int64_t whole;
  int64_t tail;
  int64_t i;
  if (n <= 0) return;
  if (dst_bit % 8 != 0) {
    int used = (int)(dst_bit % 8);
    int64_t k = 8 - used < n ? 8 - used : n;
    uint8_t byte = (uint8_t)(dst[dst_bit / 8] & ((1u << used) - 1u));
    for (i = 0; i < k; i++) {
      if (src == NULL || ArrowBitGet(src, src_bit + i)) byte |= (uint8_t)(1u << (used + i));
    }
    IpcConcatStoreSharedByte(dst + dst_bit / 8, byte);
    dst_bit += k;
    src_bit += k;
    n -= k;
    if (n == 0) return;
  }
  out = dst + dst_bit / 8;
  whole = n / 8;
  tail = n % 8;
  if (src == NULL) {
    memset(out, 0xFF, (size_t)whole);
    if (tail > 0) out[whole] = (uint8_t)((1u << tail) - 1u);
    return;
  }
  if (src_bit % 8 == 0) {
    memcpy(out, src + src_bit / 8, (size_t)whole);
  } else {
    /* Output byte i takes source bits src_bit + 8i .. + 7, all below src_bit + n:
     * in[i + 1] is within the source's bytes. */
    const uint8_t* in = src + src_bit / 8;
    int shift = (int)(src_bit % 8);
    for (i = 0; i < whole; i++) {
      out[i] = (uint8_t)((in[i] >> shift) | (in[i + 1] << (8 - shift)));
    }
  }
  if (tail > 0) {
    uint8_t byte = 0;
    for (i = 0; i < tail; i++) {
      if (ArrowBitGet(src, src_bit + whole * 8 + i)) byte |= (uint8_t)(1u << i);
    }
    out[whole] = byte;
  }
}

/* Appends n bits of src (NULL: all set) starting at src_bit to bitmap. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppendBitmap(struct ArrowBitmap* bitmap, const uint8_t* src,
                                            int64_t src_bit, int64_t n) {
  NANOARROW_RETURN_NOT_OK(ArrowBitmapReserve(bitmap, n));
  IpcConcatWriteBits(bitmap->buffer.data, bitmap->size_bits, src, src_bit, n);
  bitmap->size_bits += n;
  bitmap->buffer.size_bytes = ArrowBytesForBits(bitmap->size_bits);
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

/* Binary/string views. Each of view's variadic buffers goes into the last of out's
 * when that one has room for it (capacity, never a reallocation: arrays handed out
 * may point into it) and stays within the int32 offsets of a view, else into a new
 * variadic buffer with room for as much again as out's variadic buffers hold (so
 * there are O(log) of them, and none is ever copied). Then the views, with the long
 * ones' buffer index and offset re-based onto where their bytes went. */
NANOARROW_COLD
static ArrowErrorCode IpcConcatAppendBinaryView(struct ArrowArray* out,
                                                const struct ArrowArrayView* view,
                                                int64_t abs, int64_t length) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)out->private_data;
  struct ArrowBuffer* views = ArrowArrayBuffer(out, 1);
  int64_t n = view->n_variadic_buffers;
  int64_t first_byte = views->size_bytes;
  int64_t total = 0;
  int64_t* placed = NULL;
  int64_t i;
  ArrowErrorCode result = NANOARROW_OK;

  for (i = 0; i < private_data->n_variadic_buffers; i++) {
    total += private_data->variadic_buffers[i].size_bytes;
  }
  if (n > 0) {
    /* placed[2j], placed[2j + 1]: out's buffer index and offset of view's buffer j. */
    placed = (int64_t*)ArrowMalloc(2 * n * (int64_t)sizeof(int64_t));
    if (placed == NULL) return ENOMEM;
  }
  for (i = 0; i < n && result == NANOARROW_OK; i++) {
    int64_t size = view->variadic_buffer_sizes[i];
    int32_t last = private_data->n_variadic_buffers - 1;
    struct ArrowBuffer* target = last >= 0 ? &private_data->variadic_buffers[last] : NULL;
    if (size == 0) {
      /* No long view points into an empty buffer. */
      placed[2 * i] = 0;
      placed[2 * i + 1] = 0;
      continue;
    }
    if (target == NULL || size > target->capacity_bytes - target->size_bytes ||
        size > INT32_MAX - target->size_bytes) {
      int64_t capacity = total > size ? total : size;
      if (capacity > INT32_MAX) capacity = size > INT32_MAX ? size : INT32_MAX;
      if (last == INT32_MAX - 1) {
        result = ERANGE;
        break;
      }
      result = ArrowArrayAddVariadicBuffers(out, 1);
      if (result != NANOARROW_OK) break;
      last++;
      target = &private_data->variadic_buffers[last];
      result = ArrowBufferReserve(target, capacity);
      if (result != NANOARROW_OK) break;
    }
    placed[2 * i] = last;
    placed[2 * i + 1] = target->size_bytes;
    ArrowBufferAppendUnsafe(target, view->variadic_buffers[i], size);
    total += size;
  }
  if (result == NANOARROW_OK) {
    result = ArrowBufferAppend(views, view->buffer_views[1].data.as_uint8 + abs * 16,
                               length * 16);
  }
  for (i = 0; i < length && result == NANOARROW_OK; i++) {
    /* Validated at FULL: a long view's buffer index and range are in view's. */
    uint8_t* element = views->data + first_byte + i * 16;
    int32_t size;
    int32_t buffer_index;
    int32_t offset;
    memcpy(&size, element, sizeof(size));
    if (size <= 12) continue;
    memcpy(&buffer_index, element + 8, sizeof(buffer_index));
    memcpy(&offset, element + 12, sizeof(offset));
    /* Fits: the bytes went where offset + size <= INT32_MAX. */
    offset = (int32_t)(offset + placed[2 * buffer_index + 1]);
    buffer_index = (int32_t)placed[2 * buffer_index];
    memcpy(element + 8, &buffer_index, sizeof(buffer_index));
    memcpy(element + 12, &offset, sizeof(offset));
  }
  ArrowFree(placed);
  return result;
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
     * values without nulls take no bitmap, and arrays handed out before then see
     * none (the one allocated later is new storage). */
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
      /* Values bits are appended as validity bits are (IpcConcatWriteBits). */
      struct ArrowBuffer* data = ArrowArrayBuffer(out, 1);
      int64_t needed = ArrowBytesForBits(out->length + length);
      NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(data, needed - data->size_bytes));
      data->size_bytes = needed;
      IpcConcatWriteBits(data->data, out->length, view->buffer_views[1].data.as_uint8, abs,
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

/* ---- Dictionaries inside the values (a dictionary of dictionaries) ----
 *
 * A field of the values that is itself dictionary-encoded has its own id, whose
 * values the reader holds and grows by their own deltas. The builder does not copy
 * them: each of its dictionary slots takes the array the delta's values carry (an
 * export of that id's values as they were when the delta was decoded: a superset
 * of the ones before, which the earlier elements index), moved out of delta_values.
 * Arrays handed out earlier hold their own reference to the values they were
 * exported with (ArrowIpcPrivateSharedArrayExport), so replacing a slot frees
 * nothing they read. */

/* Non-zero when every dictionary slot of builder has a counterpart in values at
 * least as long (the elements already appended stay in range). */
NANOARROW_COLD
static int IpcConcatDictionariesGrow(const struct ArrowArray* builder,
                                     const struct ArrowArray* values, int depth) {
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH || builder->n_children != values->n_children ||
      (builder->dictionary == NULL) != (values->dictionary == NULL)) {
    return 0;
  }
  if (builder->dictionary != NULL &&
      (values->dictionary->release == NULL ||
       values->dictionary->length < builder->dictionary->length)) {
    return 0;
  }
  for (i = 0; i < builder->n_children; i++) {
    if (!IpcConcatDictionariesGrow(builder->children[i], values->children[i], depth + 1)) {
      return 0;
    }
  }
  return 1;
}

/* Moves each dictionary of values into the matching slot of builder (same shape). */
NANOARROW_COLD
static void IpcConcatTakeDictionaries(struct ArrowArray* builder, struct ArrowArray* values,
                                      int depth) {
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH || builder->n_children != values->n_children) {
    return;
  }
  if (builder->dictionary != NULL && values->dictionary != NULL &&
      values->dictionary->release != NULL) {
    if (builder->dictionary->release != NULL) builder->dictionary->release(builder->dictionary);
    ArrowArrayMove(values->dictionary, builder->dictionary);
  }
  for (i = 0; i < builder->n_children; i++) {
    IpcConcatTakeDictionaries(builder->children[i], values->children[i], depth + 1);
  }
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcPrivateConcatenate(const struct ArrowSchema* schema,
                                          struct ArrowArrayView* old_view,
                                          struct ArrowArrayView* delta_view,
                                          struct ArrowArray* delta_values,
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
  /* Nested dictionaries: the delta's is the newest, a superset of the old one,
   * taken over rather than copied (see above); FULL validation checks that the
   * old elements index it. */
  result = IpcConcatAppend(out, old_view, 0, old_view->length, 0, 0, error);
  if (result == NANOARROW_OK) {
    result = IpcConcatAppend(out, delta_view, 0, delta_view->length, 0, 0, error);
  }
  if (result == NANOARROW_OK) IpcConcatTakeDictionaries(out, delta_values, 0);
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
 * the size of every node is noted so that a failed append can be undone.
 *
 * ---- ... while arrays handed out share the storage ----
 *
 * Arrays handed out earlier (the batches a consumer keeps) point at the builder's
 * buffers with their own, shorter, lengths, and may be read on other threads while
 * a delta is appended. Appending is safe for them when it moves no buffer they
 * point into and writes no byte they can read:
 * - every append writes past the end of each buffer (values, offsets, views, run
 *   ends, type ids, child values at every level), into bytes no earlier array
 *   reads, except a bitmap's (validity or boolean values) last byte when it ends
 *   mid-byte: its bits past the old length change, the bits below it do not, and
 *   it is written once with a single byte-wide store (IpcConcatWriteBits);
 * - no buffer moves: while the append runs, every allocated buffer of every node
 *   has an allocator that refuses to reallocate ("frozen"); a delta that does not
 *   fit in the spare capacity fails there, is undone, and EAGAIN sends it to the
 *   copy (ArrowIpcPrivateConcatenate), which reserves as much again in every
 *   buffer of every node (ArrowIpcPrivateConcatReserveGrowth): one copy per
 *   doubling. New storage (a validity bitmap allocated at the first null, a new
 *   variadic buffer of a binary view) is not frozen: nothing handed out points
 *   into it;
 * - binary views' variadic sizes live in a buffer that is reallocated as buffers
 *   are added: arrays handed out carry their own copy of the sizes
 *   (ArrowIpcPrivateSharedArrayExport), and old variadic buffers only ever receive
 *   bytes into their spare capacity (IpcConcatAppendBinaryView). */

/* What one node of a builder held before an append. */
struct IpcConcatMark {
  int64_t length;
  int64_t null_count;
  int64_t bitmap_bits;
  int64_t sizes[NANOARROW_MAX_FIXED_BUFFERS];
  int32_t n_variadic;
  /* The size of the last variadic buffer (the only one an append can write to). */
  int64_t last_variadic_size;
  /* The allocators of the buffers frozen for a shared append (bitmap, then the
   * fixed buffers), and which were. */
  struct ArrowBufferAllocator allocators[NANOARROW_MAX_FIXED_BUFFERS];
  int frozen[NANOARROW_MAX_FIXED_BUFFERS];
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

/* The buffer k of a builder node: 0 the bitmap, 1 and 2 the fixed buffers. */
NANOARROW_COLD
static struct ArrowBuffer* IpcConcatNodeBuffer(struct ArrowArrayPrivateData* private_data,
                                               int64_t k) {
  return k == 0 ? &private_data->bitmap.buffer : &private_data->buffers[k - 1];
}

NANOARROW_COLD
static int IpcConcatIsView(const struct ArrowArrayPrivateData* private_data) {
  return private_data->storage_type == NANOARROW_TYPE_BINARY_VIEW ||
         private_data->storage_type == NANOARROW_TYPE_STRING_VIEW;
}

NANOARROW_COLD
static void IpcConcatMarkNodes(struct ArrowArray* array, struct IpcConcatMark* marks,
                               int64_t* k) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  struct IpcConcatMark* mark = &marks[(*k)++];
  int64_t i;
  mark->length = array->length;
  mark->null_count = array->null_count;
  mark->bitmap_bits = private_data->bitmap.size_bits;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    mark->sizes[i] = IpcConcatNodeBuffer(private_data, i)->size_bytes;
    mark->frozen[i] = 0;
  }
  mark->n_variadic = private_data->n_variadic_buffers;
  mark->last_variadic_size =
      mark->n_variadic > 0 ? private_data->variadic_buffers[mark->n_variadic - 1].size_bytes
                           : 0;
  for (i = 0; i < array->n_children; i++) IpcConcatMarkNodes(array->children[i], marks, k);
}

/* Set when a frozen buffer was asked to grow. */
struct IpcConcatFrozen {
  int refused;
};

NANOARROW_COLD
static uint8_t* IpcConcatFrozenReallocate(struct ArrowBufferAllocator* allocator,
                                          uint8_t* ptr, int64_t old_size,
                                          int64_t new_size) {
  NANOARROW_UNUSED(ptr);
  NANOARROW_UNUSED(old_size);
  NANOARROW_UNUSED(new_size);
  ((struct IpcConcatFrozen*)allocator->private_data)->refused = 1;
  return NULL;
}

/* Never called: frozen buffers are thawed before anything is freed. Keeping the
 * bytes is the safe answer if it were. */
NANOARROW_COLD
static void IpcConcatFrozenFree(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                                int64_t size) {
  NANOARROW_UNUSED(ptr);
  NANOARROW_UNUSED(size);
  ((struct IpcConcatFrozen*)allocator->private_data)->refused = 1;
}

/* Freezes (thaw == 0) every allocated buffer arrays handed out may point into, or
 * gives them their allocators back. A view's variadic sizes are not among them
 * (exports copy them), nor its variadic buffers (only ever appended into their
 * spare capacity). */
NANOARROW_COLD
static void IpcConcatFreezeNodes(struct ArrowArray* array, struct IpcConcatMark* marks,
                                 int64_t* k, struct IpcConcatFrozen* frozen, int thaw) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  struct IpcConcatMark* mark = &marks[(*k)++];
  int64_t i;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    struct ArrowBuffer* buffer = IpcConcatNodeBuffer(private_data, i);
    if (thaw) {
      if (mark->frozen[i]) buffer->allocator = mark->allocators[i];
      mark->frozen[i] = 0;
    } else if (buffer->data != NULL && !(i == 2 && IpcConcatIsView(private_data))) {
      mark->allocators[i] = buffer->allocator;
      mark->frozen[i] = 1;
      buffer->allocator.reallocate = &IpcConcatFrozenReallocate;
      buffer->allocator.free = &IpcConcatFrozenFree;
      buffer->allocator.private_data = frozen;
    }
  }
  for (i = 0; i < array->n_children; i++) {
    IpcConcatFreezeNodes(array->children[i], marks, k, frozen, thaw);
  }
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
  /* What the failed append put into the spare capacity of the last variadic buffer
   * it kept goes too. */
  if (mark->n_variadic > 0) {
    private_data->variadic_buffers[mark->n_variadic - 1].size_bytes = mark->last_variadic_size;
  }
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
  /* Every layout, dictionaries inside included (taken over, not copied). */
  NANOARROW_UNUSED(schema);
  return 1;
}

/* Room for as much again as buffer holds (limit: at most that capacity, for the
 * last variadic buffer of a view, whose offsets are int32). */
NANOARROW_COLD
static ArrowErrorCode IpcConcatReserveGrowth(struct ArrowBuffer* buffer, int64_t limit) {
  int64_t size = buffer->size_bytes;
  int64_t wanted = size > limit - size ? limit : 2 * size;
  if (buffer->data == NULL || size == 0 || buffer->capacity_bytes >= wanted) {
    return NANOARROW_OK;
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferResize(buffer, wanted, 0));
  buffer->size_bytes = size;
  return NANOARROW_OK;
}

int64_t ArrowIpcPrivateConcatGrowthBytes(const struct ArrowArray* builder) {
  /* At most the content again (every buffer at most doubles). */
  return IpcConcatContentBytes(builder);
}

NANOARROW_COLD
static ArrowErrorCode IpcConcatReserveGrowthNodes(struct ArrowArray* array, int depth) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  int64_t i;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return EINVAL;
  for (i = 0; i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    /* A view's variadic sizes are rewritten, never shared (see above). */
    if (i == 2 && IpcConcatIsView(private_data)) continue;
    NANOARROW_RETURN_NOT_OK(
        IpcConcatReserveGrowth(IpcConcatNodeBuffer(private_data, i), INT64_MAX));
  }
  if (IpcConcatIsView(private_data) && private_data->n_variadic_buffers > 0) {
    NANOARROW_RETURN_NOT_OK(IpcConcatReserveGrowth(
        &private_data->variadic_buffers[private_data->n_variadic_buffers - 1], INT32_MAX));
  }
  for (i = 0; i < array->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(IpcConcatReserveGrowthNodes(array->children[i], depth + 1));
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcPrivateConcatReserveGrowth(struct ArrowArray* builder,
                                                  struct ArrowError* error) {
  if (IpcConcatReserveGrowthNodes(builder, 0) != NANOARROW_OK) return ENOMEM;
  /* Points the exported buffers at the moved storage (nothing shares it yet). */
  return ArrowArrayFinishBuilding(builder, NANOARROW_VALIDATION_LEVEL_NONE, error);
}

NANOARROW_COLD
ArrowErrorCode ArrowIpcPrivateConcatenateInPlace(struct ArrowArray* builder,
                                                 struct ArrowArrayView* delta_view,
                                                 struct ArrowArray* delta_values,
                                                 int shared, int64_t max_content_bytes,
                                                 int64_t* content_out,
                                                 struct ArrowError* error) {
  struct ArrowError local_error;
  struct IpcConcatMark* marks;
  struct IpcConcatFrozen frozen;
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
  /* A dictionary inside that is shorter than the one the values use now (it was
   * replaced): the copy refuses it with a message. */
  if (builder->offset != 0 || !IpcConcatDictionariesGrow(builder, delta_values, 0)) {
    return EAGAIN;
  }
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
  frozen.refused = 0;
  if (shared) {
    k = 0;
    IpcConcatFreezeNodes(builder, marks, &k, &frozen, 0);
  }

  /* The current values were checked when they became this builder, and every
   * append keeps them valid (offsets, run ends and view buffer indexes are rebased
   * with range checks), so only the delta is validated element by element. */
  result = IpcConcatAppend(builder, delta_view, 0, delta_view->length, 0, 0, error);
  if (shared) {
    k = 0;
    IpcConcatFreezeNodes(builder, marks, &k, &frozen, 1);
  }
  if (result == NANOARROW_OK) {
    *content_out = IpcConcatContentBytes(builder);
    if (*content_out > max_content_bytes) {
      result = EOVERFLOW;
      /* Shrinking moves buffers: never while others read them. */
      shrink = !shared;
    }
  } else if (frozen.refused) {
    /* It needs more room than the storage others read has: copied instead. */
    result = EAGAIN;
    if (error != NULL) error->message[0] = '\0';
  } else if (result == ERANGE) {
    ArrowErrorSet(error, "concatenated dictionary exceeds its offsets' or run ends' range");
  } else if (result == ENOMEM) {
    ArrowErrorSet(error, "out of memory concatenating a dictionary delta");
  }
  if (result != NANOARROW_OK) {
    k = 0;
    IpcConcatRestoreNodes(builder, marks, &k, shrink);
  } else {
    IpcConcatTakeDictionaries(builder, delta_values, 0);
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
