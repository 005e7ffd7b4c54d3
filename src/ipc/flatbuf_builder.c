/* Front-to-back flatbuffers builder (see flatbuf_builder.h). */

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "ipc/flatbuf_builder.h"

/* flatbuffers offsets are 32-bit: a buffer never grows past this. */
#define ARROW_IPC_FBB_MAX_SIZE ((int64_t)INT32_MAX)

static ArrowErrorCode ArrowIpcFbbCheckRoom(struct ArrowIpcFbb* fbb, int64_t additional) {
  if (additional < 0 || additional > ARROW_IPC_FBB_MAX_SIZE - fbb->buffer.size_bytes) {
    return ERANGE;
  }
  return ArrowBufferReserve(&fbb->buffer, additional);
}

/* Zero bytes until the size is congruent to remainder modulo alignment (a power
 * of two). */
static ArrowErrorCode ArrowIpcFbbPadTo(struct ArrowIpcFbb* fbb, int64_t alignment,
                                       int64_t remainder) {
  int64_t padding = (remainder - fbb->buffer.size_bytes) & (alignment - 1);
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbCheckRoom(fbb, padding));
  return ArrowBufferAppendFill(&fbb->buffer, 0, padding);
}

void ArrowIpcFbbInit(struct ArrowIpcFbb* fbb) { ArrowBufferInit(&fbb->buffer); }

void ArrowIpcFbbReset(struct ArrowIpcFbb* fbb) { ArrowBufferReset(&fbb->buffer); }

ArrowErrorCode ArrowIpcFbbStart(struct ArrowIpcFbb* fbb) {
  fbb->buffer.size_bytes = 0;
  return ArrowBufferAppendFill(&fbb->buffer, 0, 4);
}

ArrowErrorCode ArrowIpcFbbWriteTable(struct ArrowIpcFbb* fbb,
                                     struct ArrowIpcFbbTable* table,
                                     int64_t* position_out) {
  uint16_t field_offset[NANOARROW_IPC_FBB_MAX_FIELDS];
  int64_t table_size = 4; /* the soffset to the vtable comes first */
  int64_t table_alignment = 4;
  int64_t vtable_size = 4 + 2 * (int64_t)table->n_fields;
  int64_t vtable_position;
  int64_t table_position;
  uint8_t* out;
  int size;
  int id;

  /* Largest fields first keeps every field naturally aligned with little padding. */
  memset(field_offset, 0, sizeof(field_offset));
  for (size = 8; size >= 1; size /= 2) {
    for (id = 0; id < table->n_fields; id++) {
      if (table->size[id] != size) continue;
      table_size = (table_size + size - 1) & ~(int64_t)(size - 1);
      field_offset[id] = (uint16_t)table_size;
      table_size += size;
      if (size > table_alignment) table_alignment = size;
    }
  }

  /* Rounding the inline size up to the alignment costs nothing (the padding is
   * there anyway) and helps readers that bounds-check small fields loosely. */
  table_size = (table_size + table_alignment - 1) & ~(table_alignment - 1);

  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbPadTo(fbb, 2, 0));
  vtable_position = fbb->buffer.size_bytes;
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbCheckRoom(fbb, vtable_size));
  out = fbb->buffer.data + vtable_position;
  ArrowIpcFbbStoreLE(out, (uint64_t)vtable_size, 2);
  ArrowIpcFbbStoreLE(out + 2, (uint64_t)table_size, 2);
  for (id = 0; id < table->n_fields; id++) {
    ArrowIpcFbbStoreLE(out + 4 + 2 * id, field_offset[id], 2);
  }
  fbb->buffer.size_bytes += vtable_size;

  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbPadTo(fbb, table_alignment, 0));
  table_position = fbb->buffer.size_bytes;
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbCheckRoom(fbb, table_size));
  out = fbb->buffer.data + table_position;
  memset(out, 0, (size_t)table_size);
  ArrowIpcFbbStoreLE(out, (uint64_t)(uint32_t)(int32_t)(table_position - vtable_position),
                     4);
  for (id = 0; id < table->n_fields; id++) {
    if (table->size[id] == 0) {
      table->position[id] = -1;
      continue;
    }
    ArrowIpcFbbStoreLE(out + field_offset[id], table->value[id], table->size[id]);
    table->position[id] = table_position + field_offset[id];
  }
  fbb->buffer.size_bytes += table_size;

  *position_out = table_position;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcFbbPatchOffset(struct ArrowIpcFbb* fbb, int64_t slot_position,
                                      int64_t target_position) {
  if (slot_position < 0 || slot_position > fbb->buffer.size_bytes - 4 ||
      target_position <= slot_position || target_position > fbb->buffer.size_bytes) {
    return EINVAL;
  }
  ArrowIpcFbbStoreLE(fbb->buffer.data + slot_position,
                     (uint64_t)(target_position - slot_position), 4);
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcFbbWriteString(struct ArrowIpcFbb* fbb,
                                      struct ArrowStringView value,
                                      int64_t* position_out) {
  uint8_t length_le[4];
  if (value.size_bytes < 0 || value.size_bytes > ARROW_IPC_FBB_MAX_SIZE) return ERANGE;
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbPadTo(fbb, 4, 0));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbCheckRoom(fbb, 4 + value.size_bytes + 1));
  *position_out = fbb->buffer.size_bytes;
  ArrowIpcFbbStoreLE(length_le, (uint64_t)value.size_bytes, 4);
  ArrowBufferAppendUnsafe(&fbb->buffer, length_le, 4);
  if (value.size_bytes > 0) {
    ArrowBufferAppendUnsafe(&fbb->buffer, value.data, value.size_bytes);
  }
  ArrowBufferAppendUnsafe(&fbb->buffer, "", 1);
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcFbbWriteVector(struct ArrowIpcFbb* fbb, const void* data,
                                      int64_t n_elements, int64_t element_size,
                                      int64_t element_alignment, int64_t* position_out) {
  uint8_t length_le[4];
  int64_t alignment = element_alignment > 4 ? element_alignment : 4;
  int64_t data_size;
  /* With n_elements < 2^32 and element_size <= 2^30 the product cannot overflow;
   * no division, which compiles to an idiv on a path taken several times per
   * message. Elements are small structs or scalars, never near 2^30 bytes. */
  if (n_elements < 0 || element_size <= 0 || n_elements > UINT32_MAX ||
      element_size > ((int64_t)1 << 30) ||
      n_elements * element_size > ARROW_IPC_FBB_MAX_SIZE) {
    return ERANGE;
  }
  data_size = n_elements * element_size;
  /* The elements (not the length prefix) carry the alignment. */
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbPadTo(fbb, alignment, alignment - 4));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbCheckRoom(fbb, 4 + data_size));
  *position_out = fbb->buffer.size_bytes;
  ArrowIpcFbbStoreLE(length_le, (uint64_t)n_elements, 4);
  ArrowBufferAppendUnsafe(&fbb->buffer, length_le, 4);
  if (data != NULL && data_size > 0) {
    ArrowBufferAppendUnsafe(&fbb->buffer, data, data_size);
  } else if (data_size > 0) {
    memset(fbb->buffer.data + fbb->buffer.size_bytes, 0, (size_t)data_size);
    fbb->buffer.size_bytes += data_size;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowIpcFbbSetString(struct ArrowIpcFbb* fbb,
                                    const struct ArrowIpcFbbTable* table, int id,
                                    struct ArrowStringView value) {
  int64_t position;
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteString(fbb, value, &position));
  return ArrowIpcFbbPatchOffset(fbb, table->position[id], position);
}

ArrowErrorCode ArrowIpcFbbSetVector(struct ArrowIpcFbb* fbb,
                                    const struct ArrowIpcFbbTable* table, int id,
                                    const void* data, int64_t n_elements,
                                    int64_t element_size, int64_t element_alignment,
                                    int64_t* position_out) {
  int64_t position;
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbbWriteVector(fbb, data, n_elements, element_size,
                                                 element_alignment, &position));
  if (position_out != NULL) *position_out = position;
  return ArrowIpcFbbPatchOffset(fbb, table->position[id], position);
}
