/* A small flatbuffers builder, written front to back.
 *
 * Only what the Arrow IPC writer needs: tables with scalar and offset fields,
 * strings, vectors of scalars / structs / offsets. A parent table is written
 * before its children: each offset field starts as a placeholder slot and is
 * patched once the child has been written after it, so offsets always point
 * forward as flatbuffers requires. Vtables are written just before their table
 * (not deduplicated) and all integers are little-endian.
 *
 * Positions are byte offsets from the start of the flatbuffer; the finished
 * buffer must be placed at an 8-byte-aligned address for its 8-byte fields to be
 * aligned (the IPC message prefix is 8 bytes, so it is). */

#ifndef NANOARROW_IPC_FLATBUF_BUILDER_H_INCLUDED
#define NANOARROW_IPC_FLATBUF_BUILDER_H_INCLUDED

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcFbbInit NANOARROW_SYMBOL(ArrowIpcFbbInit)
#define ArrowIpcFbbReset NANOARROW_SYMBOL(ArrowIpcFbbReset)
#define ArrowIpcFbbStart NANOARROW_SYMBOL(ArrowIpcFbbStart)
#define ArrowIpcFbbWriteTable NANOARROW_SYMBOL(ArrowIpcFbbWriteTable)
#define ArrowIpcFbbPatchOffset NANOARROW_SYMBOL(ArrowIpcFbbPatchOffset)
#define ArrowIpcFbbWriteString NANOARROW_SYMBOL(ArrowIpcFbbWriteString)
#define ArrowIpcFbbWriteVector NANOARROW_SYMBOL(ArrowIpcFbbWriteVector)
#define ArrowIpcFbbSetString NANOARROW_SYMBOL(ArrowIpcFbbSetString)
#define ArrowIpcFbbSetVector NANOARROW_SYMBOL(ArrowIpcFbbSetVector)
#endif

/* Stores the low size (1, 2, 4 or 8) bytes of value little-endian. On
 * little-endian hosts a fixed-size memcpy is one store; the byte loop is the
 * portable fallback (compilers do not reliably merge it into one store). */
static inline void ArrowIpcFbbStoreLE(uint8_t* out, uint64_t value, int size) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint16_t value16;
  uint32_t value32;
  switch (size) {
    case 2:
      value16 = (uint16_t)value;
      memcpy(out, &value16, 2);
      return;
    case 4:
      value32 = (uint32_t)value;
      memcpy(out, &value32, 4);
      return;
    case 8:
      memcpy(out, &value, 8);
      return;
    default:
      break;
  }
#endif
  {
    int i;
    for (i = 0; i < size; i++) out[i] = (uint8_t)(value >> (8 * i));
  }
}

/* Arrow's tables have at most 7 fields (Field); a union costs two ids. */
#define NANOARROW_IPC_FBB_MAX_FIELDS 8

struct ArrowIpcFbb {
  struct ArrowBuffer buffer;
};

/* A table being described before it is written. */
struct ArrowIpcFbbTable {
  /* One more than the highest field id in use. */
  int32_t n_fields;
  /* Byte size of each field: 0 when absent, 1/2/4/8 for scalars, 4 for offsets. */
  uint8_t size[NANOARROW_IPC_FBB_MAX_FIELDS];
  uint8_t is_offset[NANOARROW_IPC_FBB_MAX_FIELDS];
  uint64_t value[NANOARROW_IPC_FBB_MAX_FIELDS];
  /* Set by ArrowIpcFbbWriteTable: where each field landed. */
  int64_t position[NANOARROW_IPC_FBB_MAX_FIELDS];
};

void ArrowIpcFbbInit(struct ArrowIpcFbb* fbb);
void ArrowIpcFbbReset(struct ArrowIpcFbb* fbb);
/* Empties the buffer and writes the root offset placeholder at position 0 (to be
 * patched with ArrowIpcFbbPatchOffset(fbb, 0, root_table_position)). */
ArrowErrorCode ArrowIpcFbbStart(struct ArrowIpcFbb* fbb);

static inline void ArrowIpcFbbTableInit(struct ArrowIpcFbbTable* table) {
  memset(table, 0, sizeof(*table));
}

static inline void ArrowIpcFbbTableAddScalar(struct ArrowIpcFbbTable* table, int id,
                                             uint8_t size, uint64_t value) {
  table->size[id] = size;
  table->is_offset[id] = 0;
  table->value[id] = value;
  if (id + 1 > table->n_fields) table->n_fields = id + 1;
}

static inline void ArrowIpcFbbTableAddBool(struct ArrowIpcFbbTable* table, int id,
                                           int value) {
  ArrowIpcFbbTableAddScalar(table, id, 1, value ? 1 : 0);
}

static inline void ArrowIpcFbbTableAddUInt8(struct ArrowIpcFbbTable* table, int id,
                                            uint8_t value) {
  ArrowIpcFbbTableAddScalar(table, id, 1, value);
}

static inline void ArrowIpcFbbTableAddInt16(struct ArrowIpcFbbTable* table, int id,
                                            int16_t value) {
  ArrowIpcFbbTableAddScalar(table, id, 2, (uint16_t)value);
}

static inline void ArrowIpcFbbTableAddInt32(struct ArrowIpcFbbTable* table, int id,
                                            int32_t value) {
  ArrowIpcFbbTableAddScalar(table, id, 4, (uint32_t)value);
}

static inline void ArrowIpcFbbTableAddInt64(struct ArrowIpcFbbTable* table, int id,
                                            int64_t value) {
  ArrowIpcFbbTableAddScalar(table, id, 8, (uint64_t)value);
}

/* A reference to a table, string or vector written later (then patched). */
static inline void ArrowIpcFbbTableAddOffset(struct ArrowIpcFbbTable* table, int id) {
  table->size[id] = 4;
  table->is_offset[id] = 1;
  table->value[id] = 0;
  if (id + 1 > table->n_fields) table->n_fields = id + 1;
}

/* Writes the vtable and the table; *position_out receives the table's position
 * and table->position[] the position of each present field. */
ArrowErrorCode ArrowIpcFbbWriteTable(struct ArrowIpcFbb* fbb,
                                     struct ArrowIpcFbbTable* table,
                                     int64_t* position_out);

/* Points the uint32 offset slot at slot_position to target_position (> slot). */
ArrowErrorCode ArrowIpcFbbPatchOffset(struct ArrowIpcFbb* fbb, int64_t slot_position,
                                      int64_t target_position);

/* A NUL-terminated string; *position_out is its length prefix. */
ArrowErrorCode ArrowIpcFbbWriteString(struct ArrowIpcFbb* fbb,
                                      struct ArrowStringView value,
                                      int64_t* position_out);

/* A vector of n_elements elements of element_size bytes aligned to
 * element_alignment. data (already little-endian) may be NULL for zeroed elements
 * (offset vectors patched later: element i is at *position_out + 4 + 4 * i). */
ArrowErrorCode ArrowIpcFbbWriteVector(struct ArrowIpcFbb* fbb, const void* data,
                                      int64_t n_elements, int64_t element_size,
                                      int64_t element_alignment, int64_t* position_out);

/* Writes a string / vector and patches table field id to point at it. */
ArrowErrorCode ArrowIpcFbbSetString(struct ArrowIpcFbb* fbb,
                                    const struct ArrowIpcFbbTable* table, int id,
                                    struct ArrowStringView value);
ArrowErrorCode ArrowIpcFbbSetVector(struct ArrowIpcFbb* fbb,
                                    const struct ArrowIpcFbbTable* table, int id,
                                    const void* data, int64_t n_elements,
                                    int64_t element_size, int64_t element_alignment,
                                    int64_t* position_out);

#endif /* NANOARROW_IPC_FLATBUF_BUILDER_H_INCLUDED */
