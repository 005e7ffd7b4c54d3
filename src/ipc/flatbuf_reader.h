/* A small, bounds-checked reader for the flatbuffers wire format.
 *
 * Only what Arrow's Schema.fbs / Message.fbs / File.fbs need: tables (through their
 * vtables), scalar and struct fields, vectors of scalars / structs / tables,
 * strings and unions. Every accessor re-checks what it reads against the buffer
 * (a failed check reads as "field absent"), and the verifier helpers report the
 * first violation with a message, so decoding never trusts the input.
 *
 * Wire format recap: all integers are little-endian. The buffer starts with a
 * uint32 offset to the root table. A table starts with an int32 soffset; the
 * vtable lives at table - soffset and holds uint16 vtable size, uint16 table size,
 * then one uint16 offset (from the table start, 0 = absent) per field id. Offset
 * fields hold a uint32 relative to their own position. Vectors and strings are a
 * uint32 element count followed by the elements (strings also by a NUL). */

#ifndef NANOARROW_IPC_FLATBUF_READER_H_INCLUDED
#define NANOARROW_IPC_FLATBUF_READER_H_INCLUDED

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

/* Legitimate Arrow metadata never nests deeper than the schema does; each level of
 * a Field tree costs two flatbuffers levels (Field -> children vector -> Field). */
#define ARROW_IPC_FBR_MAX_DEPTH (2 * NANOARROW_MAX_NESTING_DEPTH + 8)

struct ArrowIpcFbrTable {
  const uint8_t* data; /* The whole flatbuffer. */
  int64_t size;
  int64_t pos;        /* Table start. */
  int64_t vtable_pos; /* vtable start. */
  int64_t n_fields;   /* Field slots present in the vtable. */
  int64_t table_size; /* Inline size of the table. */
};

static inline uint16_t ArrowIpcFbrLoadU16(const uint8_t* p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t ArrowIpcFbrLoadU32(const uint8_t* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}

static inline uint64_t ArrowIpcFbrLoadU64(const uint8_t* p) {
  return (uint64_t)ArrowIpcFbrLoadU32(p) | ((uint64_t)ArrowIpcFbrLoadU32(p + 4) << 32);
}

static inline int64_t ArrowIpcFbrLoadI64(const uint8_t* p) {
  uint64_t value = ArrowIpcFbrLoadU64(p);
  int64_t out;
  memcpy(&out, &value, sizeof(out));
  return out;
}

static inline int32_t ArrowIpcFbrLoadI32(const uint8_t* p) {
  uint32_t value = ArrowIpcFbrLoadU32(p);
  int32_t out;
  memcpy(&out, &value, sizeof(out));
  return out;
}

/* Reads the table at pos; 0 on success, EINVAL when anything is out of bounds or
 * misaligned. */
static inline int ArrowIpcFbrTableInit(const uint8_t* data, int64_t size, int64_t pos,
                                      struct ArrowIpcFbrTable* out) {
  int64_t vtable_pos;
  int64_t vtable_size;
  if (pos < 0 || pos > size - 4 || (pos % 4) != 0) return EINVAL;
  vtable_pos = pos - (int64_t)ArrowIpcFbrLoadI32(data + pos);
  if (vtable_pos < 0 || vtable_pos > size - 4 || (vtable_pos % 2) != 0) return EINVAL;
  vtable_size = ArrowIpcFbrLoadU16(data + vtable_pos);
  if (vtable_size < 4 || (vtable_size % 2) != 0 || vtable_size > size - vtable_pos) {
    return EINVAL;
  }
  out->table_size = ArrowIpcFbrLoadU16(data + vtable_pos + 2);
  if (out->table_size < 4 || out->table_size > size - pos) return EINVAL;
  out->data = data;
  out->size = size;
  out->pos = pos;
  out->vtable_pos = vtable_pos;
  out->n_fields = (vtable_size - 4) / 2;
  return NANOARROW_OK;
}

/* Absolute position of field id holding field_size bytes, or -1 when absent or
 * not inside the table. */
static inline int64_t ArrowIpcFbrFieldPos(const struct ArrowIpcFbrTable* table, int id,
                                         int64_t field_size) {
  int64_t field_offset;
  if (id >= table->n_fields) return -1;
  field_offset = ArrowIpcFbrLoadU16(table->data + table->vtable_pos + 4 + 2 * id);
  if (field_offset == 0 || field_offset < 4 ||
      field_offset + field_size > table->table_size) {
    return -1;
  }
  return table->pos + field_offset;
}

/* Whether the vtable names field id at all (present but malformed counts too). */
static inline int ArrowIpcFbrHasField(const struct ArrowIpcFbrTable* table, int id) {
  return id < table->n_fields &&
         ArrowIpcFbrLoadU16(table->data + table->vtable_pos + 4 + 2 * id) != 0;
}

static inline int64_t ArrowIpcFbrGetInt64(const struct ArrowIpcFbrTable* table, int id,
                                         int64_t default_value) {
  int64_t pos = ArrowIpcFbrFieldPos(table, id, 8);
  return pos < 0 ? default_value : ArrowIpcFbrLoadI64(table->data + pos);
}

static inline int32_t ArrowIpcFbrGetInt32(const struct ArrowIpcFbrTable* table, int id,
                                         int32_t default_value) {
  int64_t pos = ArrowIpcFbrFieldPos(table, id, 4);
  return pos < 0 ? default_value : ArrowIpcFbrLoadI32(table->data + pos);
}

static inline int16_t ArrowIpcFbrGetInt16(const struct ArrowIpcFbrTable* table, int id,
                                         int16_t default_value) {
  int64_t pos = ArrowIpcFbrFieldPos(table, id, 2);
  return pos < 0 ? default_value : (int16_t)ArrowIpcFbrLoadU16(table->data + pos);
}

static inline int8_t ArrowIpcFbrGetInt8(const struct ArrowIpcFbrTable* table, int id,
                                       int8_t default_value) {
  int64_t pos = ArrowIpcFbrFieldPos(table, id, 1);
  return pos < 0 ? default_value : (int8_t)table->data[pos];
}

/* Follows the uoffset stored in field id; -1 when absent or out of bounds. */
static inline int64_t ArrowIpcFbrGetOffsetTarget(const struct ArrowIpcFbrTable* table,
                                                int id) {
  int64_t pos = ArrowIpcFbrFieldPos(table, id, 4);
  int64_t target;
  if (pos < 0) return -1;
  target = pos + (int64_t)ArrowIpcFbrLoadU32(table->data + pos);
  return target <= table->size - 4 ? target : -1;
}

/* The sub-table in field id: 1 when present and well-formed. */
static inline int ArrowIpcFbrGetTable(const struct ArrowIpcFbrTable* table, int id,
                                     struct ArrowIpcFbrTable* out) {
  int64_t target = ArrowIpcFbrGetOffsetTarget(table, id);
  return target >= 0 && ArrowIpcFbrTableInit(table->data, table->size, target, out) == 0;
}

/* A vector in a flatbuffer: n elements of elem_size bytes at pos. */
struct ArrowIpcFbrVector {
  const uint8_t* data;
  int64_t size;
  int64_t pos;
  int64_t n;
};

/* The vector in field id: 1 when present with all elements in bounds and aligned. */
static inline int ArrowIpcFbrGetVector(const struct ArrowIpcFbrTable* table, int id,
                                      int64_t elem_size, int64_t elem_align,
                                      struct ArrowIpcFbrVector* out) {
  int64_t target = ArrowIpcFbrGetOffsetTarget(table, id);
  int64_t n;
  if (target < 0 || (target % 4) != 0) return 0;
  n = ArrowIpcFbrLoadU32(table->data + target);
  /* n < 2^32 and elem_size is small, so the product cannot overflow. */
  if (n * elem_size > table->size - target - 4) return 0;
  /* Writers may skip aligning empty vectors. */
  if (n > 0 && ((target + 4) % elem_align) != 0) return 0;
  out->data = table->data;
  out->size = table->size;
  out->pos = target + 4;
  out->n = n;
  return 1;
}

/* Element i of a vector of tables. */
static inline int ArrowIpcFbrVectorTable(const struct ArrowIpcFbrVector* vector, int64_t i,
                                        struct ArrowIpcFbrTable* out) {
  int64_t slot = vector->pos + 4 * i;
  int64_t target = slot + (int64_t)ArrowIpcFbrLoadU32(vector->data + slot);
  return ArrowIpcFbrTableInit(vector->data, vector->size, target, out) == 0;
}

/* The NUL-terminated string in field id; data == NULL when absent or malformed. */
static inline struct ArrowStringView ArrowIpcFbrGetString(
    const struct ArrowIpcFbrTable* table, int id) {
  struct ArrowStringView out;
  int64_t target = ArrowIpcFbrGetOffsetTarget(table, id);
  int64_t n;
  out.data = NULL;
  out.size_bytes = 0;
  if (target < 0 || (target % 4) != 0) return out;
  n = ArrowIpcFbrLoadU32(table->data + target);
  if (n >= table->size - target - 4 || table->data[target + 4 + n] != 0) return out;
  out.data = (const char*)table->data + target + 4;
  out.size_bytes = n;
  return out;
}

/* ---- Verification: the same reads, with a message for the first failure. ---- */

struct ArrowIpcFbrVerifier {
  const uint8_t* data;
  int64_t size;
  /* Tables that may still be visited: bounds the work for inputs whose offsets
   * make many paths lead to the same table. */
  int64_t tables_left;
  struct ArrowError* error;
};

static inline void ArrowIpcFbrVerifierInit(struct ArrowIpcFbrVerifier* verifier,
                                          const uint8_t* data, int64_t size,
                                          struct ArrowError* error) {
  verifier->data = data;
  verifier->size = size;
  /* A table takes at least 4 bytes of its own plus its vtable's reference. */
  verifier->tables_left = size / 4 + 1;
  verifier->error = error;
}

static inline int ArrowIpcFbrVerifyTableAt(struct ArrowIpcFbrVerifier* verifier,
                                          int64_t pos, int depth, const char* what,
                                          struct ArrowIpcFbrTable* out) {
  if (depth > ARROW_IPC_FBR_MAX_DEPTH) {
    ArrowErrorSet(verifier->error, "flatbuffer nesting deeper than %d at %s",
                  ARROW_IPC_FBR_MAX_DEPTH, what);
    return EINVAL;
  }
  if (--verifier->tables_left < 0) {
    ArrowErrorSet(verifier->error, "flatbuffer has more tables than its size allows (%s)",
                  what);
    return EINVAL;
  }
  if (ArrowIpcFbrTableInit(verifier->data, verifier->size, pos, out) != 0) {
    ArrowErrorSet(verifier->error,
                  "flatbuffer table %s at offset %ld is out of bounds or misaligned",
                  what, (long)pos);
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* A present field must fit in its table. */
static inline int ArrowIpcFbrVerifyScalar(struct ArrowIpcFbrVerifier* verifier,
                                         const struct ArrowIpcFbrTable* table, int id,
                                         int64_t field_size, const char* what) {
  if (ArrowIpcFbrHasField(table, id) && ArrowIpcFbrFieldPos(table, id, field_size) < 0) {
    ArrowErrorSet(verifier->error, "flatbuffer field %s does not fit in its table", what);
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* Optional sub-table: *present tells whether it exists. */
static inline int ArrowIpcFbrVerifySubTable(struct ArrowIpcFbrVerifier* verifier,
                                           const struct ArrowIpcFbrTable* table, int id,
                                           int depth, const char* what,
                                           struct ArrowIpcFbrTable* out, int* present) {
  int64_t target;
  *present = 0;
  if (!ArrowIpcFbrHasField(table, id)) return NANOARROW_OK;
  target = ArrowIpcFbrGetOffsetTarget(table, id);
  if (target < 0) {
    ArrowErrorSet(verifier->error, "flatbuffer offset to %s is out of bounds", what);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyTableAt(verifier, target, depth, what, out));
  *present = 1;
  return NANOARROW_OK;
}

static inline int ArrowIpcFbrVerifyVector(struct ArrowIpcFbrVerifier* verifier,
                                         const struct ArrowIpcFbrTable* table, int id,
                                         int64_t elem_size, int64_t elem_align,
                                         const char* what, struct ArrowIpcFbrVector* out,
                                         int* present) {
  *present = 0;
  if (!ArrowIpcFbrHasField(table, id)) return NANOARROW_OK;
  if (!ArrowIpcFbrGetVector(table, id, elem_size, elem_align, out)) {
    ArrowErrorSet(verifier->error,
                  "flatbuffer vector %s is out of bounds, misaligned or too long", what);
    return EINVAL;
  }
  *present = 1;
  return NANOARROW_OK;
}

static inline int ArrowIpcFbrVerifyString(struct ArrowIpcFbrVerifier* verifier,
                                         const struct ArrowIpcFbrTable* table, int id,
                                         const char* what) {
  if (ArrowIpcFbrHasField(table, id) && ArrowIpcFbrGetString(table, id).data == NULL) {
    ArrowErrorSet(verifier->error,
                  "flatbuffer string %s is out of bounds or not NUL-terminated", what);
    return EINVAL;
  }
  return NANOARROW_OK;
}

#endif /* NANOARROW_IPC_FLATBUF_READER_H_INCLUDED */
