/* A small, bounds-checked reader for the flatbuffers wire format.
 *
 * Only what Arrow's Schema.fbs / Message.fbs / File.fbs need: tables (through their
 * vtables), scalar and struct fields, vectors of scalars / structs / tables,
 * strings and unions. Fields are taken by key (ARROW_IPC_FBR_<TABLE>_<FIELD>), whose
 * id and width come from one description of those schemas (flatbuf_fields.c), never
 * from the caller. Every accessor re-checks what it reads against the buffer (a
 * failed check reads as "field absent"), and the verifier helpers report the first
 * violation with a message naming table and field, so decoding never trusts the
 * input.
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

/* ---- The fields of Arrow's flatbuffer tables (Schema.fbs, Message.fbs, File.fbs). ----
 *
 * One description per field of every table the format defines: its table, field id,
 * name and kind (which gives its inline width). Readers and the verifier take a field
 * by its ARROW_IPC_FBR_<TABLE>_<FIELD> key, so every read and every bounds check uses
 * the width Arrow's schema declares (a bool is 1 byte, whatever order a builder chose
 * and wherever its table ends). ArrowIpcPrivateFbrFields (flatbuf_fields.c) holds the
 * descriptions. */

/* Field kinds of the Arrow schemas; enums are stored as their underlying type. */
enum ArrowIpcFbrKind {
  ARROW_IPC_FBR_KIND_BOOL,          /* 1 byte, 0 or not */
  ARROW_IPC_FBR_KIND_BYTE,          /* int8 */
  ARROW_IPC_FBR_KIND_UBYTE,         /* uint8 (a union's type field) */
  ARROW_IPC_FBR_KIND_SHORT,         /* int16 */
  ARROW_IPC_FBR_KIND_INT,           /* int32 */
  ARROW_IPC_FBR_KIND_LONG,          /* int64 */
  ARROW_IPC_FBR_KIND_STRING,        /* uoffset to a string */
  ARROW_IPC_FBR_KIND_TABLE,         /* uoffset to a table (a union's value too) */
  ARROW_IPC_FBR_KIND_TABLE_VECTOR,  /* uoffset to [table] */
  ARROW_IPC_FBR_KIND_INT_VECTOR,    /* uoffset to [int] */
  ARROW_IPC_FBR_KIND_LONG_VECTOR,   /* uoffset to [long] */
  ARROW_IPC_FBR_KIND_STRUCT16_VECTOR, /* uoffset to [FieldNode] or [Buffer] */
  ARROW_IPC_FBR_KIND_BLOCK_VECTOR   /* uoffset to [Block] (24-byte structs) */
};

/* The tables, in the order of ArrowIpcPrivateFbrTables. */
enum ArrowIpcFbrTableKey {
  /* Message.fbs */
  ARROW_IPC_FBR_T_MESSAGE,
  ARROW_IPC_FBR_T_RECORD_BATCH,
  ARROW_IPC_FBR_T_BODY_COMPRESSION,
  ARROW_IPC_FBR_T_DICTIONARY_BATCH,
  /* File.fbs */
  ARROW_IPC_FBR_T_FOOTER,
  /* Schema.fbs */
  ARROW_IPC_FBR_T_SCHEMA,
  ARROW_IPC_FBR_T_FIELD,
  ARROW_IPC_FBR_T_KEY_VALUE,
  ARROW_IPC_FBR_T_DICTIONARY_ENCODING,
  ARROW_IPC_FBR_T_NULL,
  ARROW_IPC_FBR_T_INT,
  ARROW_IPC_FBR_T_FLOATING_POINT,
  ARROW_IPC_FBR_T_BINARY,
  ARROW_IPC_FBR_T_UTF8,
  ARROW_IPC_FBR_T_BOOL,
  ARROW_IPC_FBR_T_DECIMAL,
  ARROW_IPC_FBR_T_DATE,
  ARROW_IPC_FBR_T_TIME,
  ARROW_IPC_FBR_T_TIMESTAMP,
  ARROW_IPC_FBR_T_INTERVAL,
  ARROW_IPC_FBR_T_LIST,
  ARROW_IPC_FBR_T_STRUCT,
  ARROW_IPC_FBR_T_UNION,
  ARROW_IPC_FBR_T_FIXED_SIZE_BINARY,
  ARROW_IPC_FBR_T_FIXED_SIZE_LIST,
  ARROW_IPC_FBR_T_MAP,
  ARROW_IPC_FBR_T_DURATION,
  ARROW_IPC_FBR_T_LARGE_BINARY,
  ARROW_IPC_FBR_T_LARGE_UTF8,
  ARROW_IPC_FBR_T_LARGE_LIST,
  ARROW_IPC_FBR_T_RUN_END_ENCODED,
  ARROW_IPC_FBR_T_BINARY_VIEW,
  ARROW_IPC_FBR_T_UTF8_VIEW,
  ARROW_IPC_FBR_T_LIST_VIEW,
  ARROW_IPC_FBR_T_LARGE_LIST_VIEW,
  ARROW_IPC_FBR_T_COUNT
};

/* Every field, grouped by table in the order above and by id within a table. */
enum ArrowIpcFbrFieldKey {
  ARROW_IPC_FBR_MESSAGE_VERSION,
  ARROW_IPC_FBR_MESSAGE_HEADER_TYPE,
  ARROW_IPC_FBR_MESSAGE_HEADER,
  ARROW_IPC_FBR_MESSAGE_BODY_LENGTH,
  ARROW_IPC_FBR_MESSAGE_CUSTOM_METADATA,
  ARROW_IPC_FBR_RECORD_BATCH_LENGTH,
  ARROW_IPC_FBR_RECORD_BATCH_NODES,
  ARROW_IPC_FBR_RECORD_BATCH_BUFFERS,
  ARROW_IPC_FBR_RECORD_BATCH_COMPRESSION,
  ARROW_IPC_FBR_RECORD_BATCH_VARIADIC_BUFFER_COUNTS,
  ARROW_IPC_FBR_BODY_COMPRESSION_CODEC,
  ARROW_IPC_FBR_BODY_COMPRESSION_METHOD,
  ARROW_IPC_FBR_DICTIONARY_BATCH_ID,
  ARROW_IPC_FBR_DICTIONARY_BATCH_DATA,
  ARROW_IPC_FBR_DICTIONARY_BATCH_IS_DELTA,
  ARROW_IPC_FBR_FOOTER_VERSION,
  ARROW_IPC_FBR_FOOTER_SCHEMA,
  ARROW_IPC_FBR_FOOTER_DICTIONARIES,
  ARROW_IPC_FBR_FOOTER_RECORD_BATCHES,
  ARROW_IPC_FBR_FOOTER_CUSTOM_METADATA,
  ARROW_IPC_FBR_SCHEMA_ENDIANNESS,
  ARROW_IPC_FBR_SCHEMA_FIELDS,
  ARROW_IPC_FBR_SCHEMA_CUSTOM_METADATA,
  ARROW_IPC_FBR_SCHEMA_FEATURES,
  ARROW_IPC_FBR_FIELD_NAME,
  ARROW_IPC_FBR_FIELD_NULLABLE,
  ARROW_IPC_FBR_FIELD_TYPE_TYPE,
  ARROW_IPC_FBR_FIELD_TYPE,
  ARROW_IPC_FBR_FIELD_DICTIONARY,
  ARROW_IPC_FBR_FIELD_CHILDREN,
  ARROW_IPC_FBR_FIELD_CUSTOM_METADATA,
  ARROW_IPC_FBR_KEY_VALUE_KEY,
  ARROW_IPC_FBR_KEY_VALUE_VALUE,
  ARROW_IPC_FBR_DICTIONARY_ENCODING_ID,
  ARROW_IPC_FBR_DICTIONARY_ENCODING_INDEX_TYPE,
  ARROW_IPC_FBR_DICTIONARY_ENCODING_IS_ORDERED,
  ARROW_IPC_FBR_DICTIONARY_ENCODING_DICTIONARY_KIND,
  ARROW_IPC_FBR_INT_BIT_WIDTH,
  ARROW_IPC_FBR_INT_IS_SIGNED,
  ARROW_IPC_FBR_FLOATING_POINT_PRECISION,
  ARROW_IPC_FBR_DECIMAL_PRECISION,
  ARROW_IPC_FBR_DECIMAL_SCALE,
  ARROW_IPC_FBR_DECIMAL_BIT_WIDTH,
  ARROW_IPC_FBR_DATE_UNIT,
  ARROW_IPC_FBR_TIME_UNIT,
  ARROW_IPC_FBR_TIME_BIT_WIDTH,
  ARROW_IPC_FBR_TIMESTAMP_UNIT,
  ARROW_IPC_FBR_TIMESTAMP_TIMEZONE,
  ARROW_IPC_FBR_INTERVAL_UNIT,
  ARROW_IPC_FBR_UNION_MODE,
  ARROW_IPC_FBR_UNION_TYPE_IDS,
  ARROW_IPC_FBR_FIXED_SIZE_BINARY_BYTE_WIDTH,
  ARROW_IPC_FBR_FIXED_SIZE_LIST_LIST_SIZE,
  ARROW_IPC_FBR_MAP_KEYS_SORTED,
  ARROW_IPC_FBR_DURATION_UNIT,
  ARROW_IPC_FBR_FIELD_COUNT
};

struct ArrowIpcFbrFieldSpec {
  enum ArrowIpcFbrTableKey table;
  int id;           /* The field's id (its vtable slot). */
  const char* name; /* As Arrow's .fbs spells it. */
  enum ArrowIpcFbrKind kind;
};

struct ArrowIpcFbrTableSpec {
  const char* name;
  /* The table's fields are the keys [first, first + n_fields). */
  int first;
  int n_fields;
};

#if defined(NANOARROW_NAMESPACE)
#define ArrowIpcPrivateFbrFields NANOARROW_SYMBOL(ArrowIpcPrivateFbrFields)
#define ArrowIpcPrivateFbrTables NANOARROW_SYMBOL(ArrowIpcPrivateFbrTables)
#define ArrowIpcPrivateFbrTypeTables NANOARROW_SYMBOL(ArrowIpcPrivateFbrTypeTables)
#endif

extern const struct ArrowIpcFbrFieldSpec ArrowIpcPrivateFbrFields[ARROW_IPC_FBR_FIELD_COUNT];
extern const struct ArrowIpcFbrTableSpec ArrowIpcPrivateFbrTables[ARROW_IPC_FBR_T_COUNT];

/* The table of each member of Schema.fbs's union Type, by type id (1 = Null ... 26 =
 * LargeListView); -1 for NONE (0) and ids beyond. */
#define ARROW_IPC_FBR_N_TYPE_IDS 27
extern const int ArrowIpcPrivateFbrTypeTables[ARROW_IPC_FBR_N_TYPE_IDS];

/* Inline bytes of a field of this kind. */
static inline int64_t ArrowIpcFbrKindWidth(enum ArrowIpcFbrKind kind) {
  switch (kind) {
    case ARROW_IPC_FBR_KIND_BOOL:
    case ARROW_IPC_FBR_KIND_BYTE:
    case ARROW_IPC_FBR_KIND_UBYTE:
      return 1;
    case ARROW_IPC_FBR_KIND_SHORT:
      return 2;
    case ARROW_IPC_FBR_KIND_LONG:
      return 8;
    default:
      return 4; /* int and every uoffset */
  }
}

static inline const char* ArrowIpcFbrKindName(enum ArrowIpcFbrKind kind) {
  switch (kind) {
    case ARROW_IPC_FBR_KIND_BOOL: return "bool";
    case ARROW_IPC_FBR_KIND_BYTE: return "byte";
    case ARROW_IPC_FBR_KIND_UBYTE: return "ubyte";
    case ARROW_IPC_FBR_KIND_SHORT: return "short";
    case ARROW_IPC_FBR_KIND_INT: return "int";
    case ARROW_IPC_FBR_KIND_LONG: return "long";
    case ARROW_IPC_FBR_KIND_STRING: return "string offset";
    case ARROW_IPC_FBR_KIND_TABLE: return "table offset";
    default: return "vector offset";
  }
}

static inline const struct ArrowIpcFbrFieldSpec* ArrowIpcFbrSpec(enum ArrowIpcFbrFieldKey key) {
  return &ArrowIpcPrivateFbrFields[key];
}

/* The vtable's offset for field id (0 = absent). */
static inline int64_t ArrowIpcFbrFieldOffset(const struct ArrowIpcFbrTable* table, int id) {
  if (id >= table->n_fields) return 0;
  return ArrowIpcFbrLoadU16(table->data + table->vtable_pos + 4 + 2 * id);
}

/* Absolute position of a field, or -1 when absent or when its declared width does not
 * fit in the table. */
static inline int64_t ArrowIpcFbrFieldPos(const struct ArrowIpcFbrTable* table,
                                         enum ArrowIpcFbrFieldKey key) {
  const struct ArrowIpcFbrFieldSpec* spec = ArrowIpcFbrSpec(key);
  int64_t field_offset = ArrowIpcFbrFieldOffset(table, spec->id);
  if (field_offset < 4 || field_offset + ArrowIpcFbrKindWidth(spec->kind) > table->table_size) {
    return -1;
  }
  return table->pos + field_offset;
}

/* Whether the vtable names the field at all (present but malformed counts too). */
static inline int ArrowIpcFbrHasField(const struct ArrowIpcFbrTable* table,
                                     enum ArrowIpcFbrFieldKey key) {
  return ArrowIpcFbrFieldOffset(table, ArrowIpcFbrSpec(key)->id) != 0;
}

/* A scalar field read at its declared width (bool and ubyte unsigned, the others
 * signed); default_value when absent or not inside the table. */
static inline int64_t ArrowIpcFbrGetScalar(const struct ArrowIpcFbrTable* table,
                                          enum ArrowIpcFbrFieldKey key,
                                          int64_t default_value) {
  int64_t pos = ArrowIpcFbrFieldPos(table, key);
  const uint8_t* p;
  if (pos < 0) return default_value;
  p = table->data + pos;
  switch (ArrowIpcFbrSpec(key)->kind) {
    case ARROW_IPC_FBR_KIND_BOOL:
    case ARROW_IPC_FBR_KIND_UBYTE:
      return p[0];
    case ARROW_IPC_FBR_KIND_BYTE:
      return (int8_t)p[0];
    case ARROW_IPC_FBR_KIND_SHORT:
      return (int16_t)ArrowIpcFbrLoadU16(p);
    case ARROW_IPC_FBR_KIND_INT:
      return ArrowIpcFbrLoadI32(p);
    case ARROW_IPC_FBR_KIND_LONG:
      return ArrowIpcFbrLoadI64(p);
    default:
      return default_value;
  }
}

/* Follows the uoffset stored in an offset field; -1 when absent or out of bounds. */
static inline int64_t ArrowIpcFbrGetOffsetTarget(const struct ArrowIpcFbrTable* table,
                                                enum ArrowIpcFbrFieldKey key) {
  int64_t pos = ArrowIpcFbrFieldPos(table, key);
  int64_t target;
  if (pos < 0) return -1;
  target = pos + (int64_t)ArrowIpcFbrLoadU32(table->data + pos);
  return target <= table->size - 4 ? target : -1;
}

/* The sub-table in a table field: 1 when present and well-formed. */
static inline int ArrowIpcFbrGetTable(const struct ArrowIpcFbrTable* table,
                                     enum ArrowIpcFbrFieldKey key,
                                     struct ArrowIpcFbrTable* out) {
  int64_t target = ArrowIpcFbrGetOffsetTarget(table, key);
  return target >= 0 && ArrowIpcFbrTableInit(table->data, table->size, target, out) == 0;
}

/* A vector in a flatbuffer: n elements of elem_size bytes at pos. */
struct ArrowIpcFbrVector {
  const uint8_t* data;
  int64_t size;
  int64_t pos;
  int64_t n;
};

/* Element size and alignment of a vector kind's elements. */
static inline int64_t ArrowIpcFbrElementSize(enum ArrowIpcFbrKind kind, int64_t* align) {
  switch (kind) {
    case ARROW_IPC_FBR_KIND_LONG_VECTOR:
      *align = 8;
      return 8;
    case ARROW_IPC_FBR_KIND_STRUCT16_VECTOR:
      *align = 8;
      return 16;
    case ARROW_IPC_FBR_KIND_BLOCK_VECTOR:
      *align = 8;
      return 24;
    default: /* tables (uoffsets) and ints */
      *align = 4;
      return 4;
  }
}

/* The vector in a vector field: 1 when present with all elements in bounds and
 * aligned. */
static inline int ArrowIpcFbrGetVector(const struct ArrowIpcFbrTable* table,
                                      enum ArrowIpcFbrFieldKey key,
                                      struct ArrowIpcFbrVector* out) {
  int64_t target = ArrowIpcFbrGetOffsetTarget(table, key);
  int64_t elem_align;
  int64_t elem_size = ArrowIpcFbrElementSize(ArrowIpcFbrSpec(key)->kind, &elem_align);
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

/* The NUL-terminated string in a string field; data == NULL when absent or
 * malformed. */
static inline struct ArrowStringView ArrowIpcFbrGetString(
    const struct ArrowIpcFbrTable* table, enum ArrowIpcFbrFieldKey key) {
  struct ArrowStringView out;
  int64_t target = ArrowIpcFbrGetOffsetTarget(table, key);
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

/* ---- Several fields of one table at once ----
 * The quick paths of schema_decode.c (Field and Int tables of wide schemas) load a
 * table's vtable offsets once rather than looking each field up by key. The ids and
 * widths here restate ArrowIpcPrivateFbrFields' entries for those two tables (their
 * keys are in id order: ARROW_IPC_FBR_FIELD_NAME + id); test_flatbuf_layouts.c
 * checks that they agree. */
#define ARROW_IPC_FBR_FIELD_N_IDS 7
#define ARROW_IPC_FBR_INT_N_IDS 2
/* Field: name (string), nullable (bool), type_type (ubyte), type (table),
 * dictionary (table), children ([Field]), custom_metadata ([KeyValue]). */
static const uint8_t kArrowIpcFbrFieldWidths[ARROW_IPC_FBR_FIELD_N_IDS] = {4, 1, 1, 4,
                                                                          4, 4, 4};
/* Int: bitWidth (int), is_signed (bool). */
static const uint8_t kArrowIpcFbrIntWidths[ARROW_IPC_FBR_INT_N_IDS] = {4, 1};

/* The vtable offsets of field ids [0, n) (0 when absent or past the vtable). */
static inline void ArrowIpcFbrLoadOffsets(const struct ArrowIpcFbrTable* table, int n,
                                          uint16_t* out) {
  const uint8_t* slots = table->data + table->vtable_pos + 4;
  int n_present = table->n_fields < n ? (int)table->n_fields : n;
  int i;
  for (i = 0; i < n_present; i++) out[i] = ArrowIpcFbrLoadU16(slots + 2 * i);
  for (; i < n; i++) out[i] = 0;
}

/* ArrowIpcFbrLoadOffsets for a Field table, unrolled (every Field of a schema;
 * writers often leave the last ids out of its vtable). */
static inline void ArrowIpcFbrLoadFieldOffsets(const struct ArrowIpcFbrTable* table,
                                               uint16_t* out) {
  const uint8_t* slots = table->data + table->vtable_pos + 4;
  int64_t n_present = table->n_fields;
  memset(out, 0, ARROW_IPC_FBR_FIELD_N_IDS * sizeof(uint16_t));
  switch (n_present >= ARROW_IPC_FBR_FIELD_N_IDS ? ARROW_IPC_FBR_FIELD_N_IDS : n_present) {
    case 7:
      out[6] = ArrowIpcFbrLoadU16(slots + 12);
      /* fallthrough */
    case 6:
      out[5] = ArrowIpcFbrLoadU16(slots + 10);
      /* fallthrough */
    case 5:
      out[4] = ArrowIpcFbrLoadU16(slots + 8);
      /* fallthrough */
    case 4:
      out[3] = ArrowIpcFbrLoadU16(slots + 6);
      /* fallthrough */
    case 3:
      out[2] = ArrowIpcFbrLoadU16(slots + 4);
      /* fallthrough */
    case 2:
      out[1] = ArrowIpcFbrLoadU16(slots + 2);
      /* fallthrough */
    case 1:
      out[0] = ArrowIpcFbrLoadU16(slots);
      /* fallthrough */
    default:
      break;
  }
}

/* Whether every present offset leaves room for its field's width in the table (what
 * ArrowIpcFbrFieldPos and the verifier require of each field). */
static inline int ArrowIpcFbrOffsetsFit(const struct ArrowIpcFbrTable* table, int n,
                                        const uint16_t* offsets, const uint8_t* widths) {
  int i;
  for (i = 0; i < n; i++) {
    if (offsets[i] != 0 && (offsets[i] < 4 || offsets[i] + widths[i] > table->table_size)) {
      return 0;
    }
  }
  return 1;
}

/* ArrowIpcFbrOffsetsFit for a Field table's offsets, without branches per field. */
static inline int ArrowIpcFbrFieldOffsetsFit(const struct ArrowIpcFbrTable* table,
                                             const uint16_t* offsets) {
  int64_t size = table->table_size;
  int bad = 0;
#define ARROW_IPC_FBR_BAD_OFFSET(i)                                     \
  ((offsets[i] != 0) & ((offsets[i] < 4) |                              \
                        ((int64_t)offsets[i] + kArrowIpcFbrFieldWidths[i] > size)))
  bad = ARROW_IPC_FBR_BAD_OFFSET(0) | ARROW_IPC_FBR_BAD_OFFSET(1) |
        ARROW_IPC_FBR_BAD_OFFSET(2) | ARROW_IPC_FBR_BAD_OFFSET(3) |
        ARROW_IPC_FBR_BAD_OFFSET(4) | ARROW_IPC_FBR_BAD_OFFSET(5) |
        ARROW_IPC_FBR_BAD_OFFSET(6);
#undef ARROW_IPC_FBR_BAD_OFFSET
  return !bad;
}

/* ArrowIpcFbrGetOffsetTarget for an offset field at a (fitting) vtable offset. */
static inline int64_t ArrowIpcFbrTargetAt(const struct ArrowIpcFbrTable* table,
                                          uint16_t offset) {
  int64_t pos = table->pos + offset;
  int64_t target = pos + (int64_t)ArrowIpcFbrLoadU32(table->data + pos);
  return target <= table->size - 4 ? target : -1;
}

/* Element count of the vector of 4-byte elements (uoffsets or ints) at a (fitting)
 * vtable offset; -1 when ArrowIpcFbrGetVector would refuse it. */
static inline int64_t ArrowIpcFbrVector4At(const struct ArrowIpcFbrTable* table,
                                           uint16_t offset) {
  int64_t target = ArrowIpcFbrTargetAt(table, offset);
  int64_t n;
  if (target < 0 || (target % 4) != 0) return -1;
  n = ArrowIpcFbrLoadU32(table->data + target);
  return n * 4 > table->size - target - 4 ? -1 : n;
}

/* Whether the string at a (fitting) vtable offset passes ArrowIpcFbrGetString. */
static inline int ArrowIpcFbrStringAtIsValid(const struct ArrowIpcFbrTable* table,
                                             uint16_t offset) {
  int64_t target = ArrowIpcFbrTargetAt(table, offset);
  int64_t n;
  if (target < 0 || (target % 4) != 0) return 0;
  n = ArrowIpcFbrLoadU32(table->data + target);
  return n < table->size - target - 4 && table->data[target + 4 + n] == 0;
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

/* The table at pos; what (and, when not NULL, "." field) names it in errors. */
static inline int ArrowIpcFbrVerifyTableAtField(struct ArrowIpcFbrVerifier* verifier,
                                               int64_t pos, int depth, const char* what,
                                               const char* field,
                                               struct ArrowIpcFbrTable* out) {
  const char* dot = field != NULL ? "." : "";
  if (field == NULL) field = "";
  if (depth > ARROW_IPC_FBR_MAX_DEPTH) {
    ArrowErrorSet(verifier->error, "flatbuffer nesting deeper than %d at %s%s%s",
                  ARROW_IPC_FBR_MAX_DEPTH, what, dot, field);
    return EINVAL;
  }
  if (--verifier->tables_left < 0) {
    ArrowErrorSet(verifier->error,
                  "flatbuffer has more tables than its size allows (%s%s%s)", what, dot,
                  field);
    return EINVAL;
  }
  if (ArrowIpcFbrTableInit(verifier->data, verifier->size, pos, out) != 0) {
    ArrowErrorSet(verifier->error,
                  "flatbuffer table %s%s%s at offset %ld is out of bounds or misaligned",
                  what, dot, field, (long)pos);
    return EINVAL;
  }
  return NANOARROW_OK;
}

static inline int ArrowIpcFbrVerifyTableAt(struct ArrowIpcFbrVerifier* verifier,
                                          int64_t pos, int depth, const char* what,
                                          struct ArrowIpcFbrTable* out) {
  return ArrowIpcFbrVerifyTableAtField(verifier, pos, depth, what, NULL, out);
}

/* Every field of a table the schema names: each present one fits in the table at
 * its declared width; strings and vectors of scalars or structs are in bounds.
 * Sub-tables and vectors of tables are the caller's to follow. Fields with ids the
 * schema does not know (a newer writer's) are ignored. */
static inline int ArrowIpcFbrVerifyFields(struct ArrowIpcFbrVerifier* verifier,
                                         const struct ArrowIpcFbrTable* table,
                                         enum ArrowIpcFbrTableKey table_key) {
  const struct ArrowIpcFbrTableSpec* tspec = &ArrowIpcPrivateFbrTables[table_key];
  struct ArrowIpcFbrVector vec;
  int k;
  for (k = tspec->first; k < tspec->first + tspec->n_fields; k++) {
    enum ArrowIpcFbrFieldKey key = (enum ArrowIpcFbrFieldKey)k;
    const struct ArrowIpcFbrFieldSpec* spec = ArrowIpcFbrSpec(key);
    int64_t offset = ArrowIpcFbrFieldOffset(table, spec->id);
    int64_t width = ArrowIpcFbrKindWidth(spec->kind);
    if (offset == 0) continue;
    if (offset < 4 || offset + width > table->table_size) {
      ArrowErrorSet(verifier->error,
                    "flatbuffer field %s.%s (id %d, %s of %d byte%s) at offset %ld does "
                    "not fit in its %ld-byte table",
                    tspec->name, spec->name, spec->id, ArrowIpcFbrKindName(spec->kind),
                    (int)width, width == 1 ? "" : "s", (long)offset,
                    (long)table->table_size);
      return EINVAL;
    }
    switch (spec->kind) {
      case ARROW_IPC_FBR_KIND_STRING:
        if (ArrowIpcFbrGetString(table, key).data == NULL) {
          ArrowErrorSet(verifier->error,
                        "flatbuffer string %s.%s is out of bounds or not NUL-terminated",
                        tspec->name, spec->name);
          return EINVAL;
        }
        break;
      case ARROW_IPC_FBR_KIND_TABLE_VECTOR:
      case ARROW_IPC_FBR_KIND_INT_VECTOR:
      case ARROW_IPC_FBR_KIND_LONG_VECTOR:
      case ARROW_IPC_FBR_KIND_STRUCT16_VECTOR:
      case ARROW_IPC_FBR_KIND_BLOCK_VECTOR:
        if (!ArrowIpcFbrGetVector(table, key, &vec)) {
          ArrowErrorSet(verifier->error,
                        "flatbuffer vector %s.%s is out of bounds, misaligned or too long",
                        tspec->name, spec->name);
          return EINVAL;
        }
        break;
      case ARROW_IPC_FBR_KIND_TABLE:
        if (ArrowIpcFbrGetOffsetTarget(table, key) < 0) {
          ArrowErrorSet(verifier->error, "flatbuffer offset of %s.%s is out of bounds",
                        tspec->name, spec->name);
          return EINVAL;
        }
        break;
      default:
        break;
    }
  }
  return NANOARROW_OK;
}

/* Optional sub-table (after ArrowIpcFbrVerifyFields on its parent): *present tells
 * whether it exists. */
static inline int ArrowIpcFbrVerifySubTable(struct ArrowIpcFbrVerifier* verifier,
                                           const struct ArrowIpcFbrTable* table,
                                           enum ArrowIpcFbrFieldKey key, int depth,
                                           struct ArrowIpcFbrTable* out, int* present) {
  const struct ArrowIpcFbrFieldSpec* spec = ArrowIpcFbrSpec(key);
  const char* table_name = ArrowIpcPrivateFbrTables[spec->table].name;
  int64_t target;
  *present = 0;
  if (!ArrowIpcFbrHasField(table, key)) return NANOARROW_OK;
  target = ArrowIpcFbrGetOffsetTarget(table, key);
  if (target < 0) {
    ArrowErrorSet(verifier->error, "flatbuffer offset of %s.%s is out of bounds",
                  table_name, spec->name);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyTableAtField(verifier, target, depth,
                                                       table_name, spec->name, out));
  *present = 1;
  return NANOARROW_OK;
}

#endif /* NANOARROW_IPC_FLATBUF_READER_H_INCLUDED */
