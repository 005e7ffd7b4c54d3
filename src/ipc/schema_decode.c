/* Verification of Message / Footer flatbuffers and Schema -> ArrowSchema. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "ipc/ipc_private.h"

/* Type union member ids (Schema.fbs: union Type, NONE = 0). */
enum {
  ARROW_IPC_FBR_TYPE_NULL = 1,
  ARROW_IPC_FBR_TYPE_INT = 2,
  ARROW_IPC_FBR_TYPE_FLOATING_POINT = 3,
  ARROW_IPC_FBR_TYPE_BINARY = 4,
  ARROW_IPC_FBR_TYPE_UTF8 = 5,
  ARROW_IPC_FBR_TYPE_BOOL = 6,
  ARROW_IPC_FBR_TYPE_DECIMAL = 7,
  ARROW_IPC_FBR_TYPE_DATE = 8,
  ARROW_IPC_FBR_TYPE_TIME = 9,
  ARROW_IPC_FBR_TYPE_TIMESTAMP = 10,
  ARROW_IPC_FBR_TYPE_INTERVAL = 11,
  ARROW_IPC_FBR_TYPE_LIST = 12,
  ARROW_IPC_FBR_TYPE_STRUCT = 13,
  ARROW_IPC_FBR_TYPE_UNION = 14,
  ARROW_IPC_FBR_TYPE_FIXED_SIZE_BINARY = 15,
  ARROW_IPC_FBR_TYPE_FIXED_SIZE_LIST = 16,
  ARROW_IPC_FBR_TYPE_MAP = 17,
  ARROW_IPC_FBR_TYPE_DURATION = 18,
  ARROW_IPC_FBR_TYPE_LARGE_BINARY = 19,
  ARROW_IPC_FBR_TYPE_LARGE_UTF8 = 20,
  ARROW_IPC_FBR_TYPE_LARGE_LIST = 21,
  ARROW_IPC_FBR_TYPE_RUN_END_ENCODED = 22,
  ARROW_IPC_FBR_TYPE_BINARY_VIEW = 23,
  ARROW_IPC_FBR_TYPE_UTF8_VIEW = 24,
  ARROW_IPC_FBR_TYPE_LIST_VIEW = 25,
  ARROW_IPC_FBR_TYPE_LARGE_LIST_VIEW = 26
};

enum { ARROW_IPC_FBR_HEADER_SCHEMA = 1, ARROW_IPC_FBR_HEADER_DICTIONARY_BATCH = 2, ARROW_IPC_FBR_HEADER_RECORD_BATCH = 3 };

/* ---- Verification ----
 * Each table's own fields are checked against their declared widths by
 * ArrowIpcFbrVerifyFields (flatbuf_fields.c's descriptions); the code here follows
 * the sub-tables and vectors of tables. */

/* The tables of a vector of tables field, each verified by its callback. */
static int IpcSchemaVerifyTableVector(struct ArrowIpcFbrVerifier* v,
                                      const struct ArrowIpcFbrTable* t,
                                      enum ArrowIpcFbrFieldKey key, int depth,
                                      enum ArrowIpcFbrTableKey elem_table,
                                      int (*verify)(struct ArrowIpcFbrVerifier*,
                                                    const struct ArrowIpcFbrTable*, int)) {
  struct ArrowIpcFbrVector vec;
  struct ArrowIpcFbrTable elem;
  int64_t i;
  /* ArrowIpcFbrVerifyFields checked the vector itself. */
  if (!ArrowIpcFbrGetVector(t, key, &vec)) return NANOARROW_OK;
  for (i = 0; i < vec.n; i++) {
    int64_t target = vec.pos + 4 * i + (int64_t)ArrowIpcFbrLoadU32(v->data + vec.pos + 4 * i);
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyTableAt(
        v, target, depth, ArrowIpcPrivateFbrTables[elem_table].name, &elem));
    NANOARROW_RETURN_NOT_OK(verify(v, &elem, depth));
  }
  return NANOARROW_OK;
}

static int IpcSchemaVerifyKeyValue(struct ArrowIpcFbrVerifier* v,
                                   const struct ArrowIpcFbrTable* kv, int depth) {
  (void)depth;
  return ArrowIpcFbrVerifyFields(v, kv, ARROW_IPC_FBR_T_KEY_VALUE);
}

static int IpcSchemaVerifyType(struct ArrowIpcFbrVerifier* v, const struct ArrowIpcFbrTable* field,
                      int depth) {
  struct ArrowIpcFbrTable t;
  int present;
  int type_id = (int)ArrowIpcFbrGetScalar(field, ARROW_IPC_FBR_FIELD_TYPE_TYPE, 0);
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcFbrVerifySubTable(v, field, ARROW_IPC_FBR_FIELD_TYPE, depth, &t, &present));
  if (!present) return NANOARROW_OK;
  /* Unknown type ids are refused when decoded; their tables are not looked into. */
  if (type_id <= 0 || type_id >= ARROW_IPC_FBR_N_TYPE_IDS) return NANOARROW_OK;
  return ArrowIpcFbrVerifyFields(
      v, &t, (enum ArrowIpcFbrTableKey)ArrowIpcPrivateFbrTypeTables[type_id]);
}

static int IpcSchemaVerifyField(struct ArrowIpcFbrVerifier* v,
                                const struct ArrowIpcFbrTable* field, int depth);

/* What the generic verifier does for one Field (and, through the quick path, its
 * children). */
static int IpcSchemaVerifyFieldGeneric(struct ArrowIpcFbrVerifier* v,
                                       const struct ArrowIpcFbrTable* field, int depth) {
  struct ArrowIpcFbrTable t;
  int present;
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyFields(v, field, ARROW_IPC_FBR_T_FIELD));
  NANOARROW_RETURN_NOT_OK(IpcSchemaVerifyType(v, field, depth + 1));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifySubTable(v, field, ARROW_IPC_FBR_FIELD_DICTIONARY,
                                                   depth + 1, &t, &present));
  if (present) {
    struct ArrowIpcFbrTable index_type;
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyFields(v, &t, ARROW_IPC_FBR_T_DICTIONARY_ENCODING));
    NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifySubTable(
        v, &t, ARROW_IPC_FBR_DICTIONARY_ENCODING_INDEX_TYPE, depth + 2, &index_type, &present));
    if (present) {
      NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyFields(v, &index_type, ARROW_IPC_FBR_T_INT));
    }
  }
  /* Each level of children costs two flatbuffers levels (vector, then table). */
  NANOARROW_RETURN_NOT_OK(IpcSchemaVerifyTableVector(
      v, field, ARROW_IPC_FBR_FIELD_CHILDREN, depth + 2, ARROW_IPC_FBR_T_FIELD,
      IpcSchemaVerifyField));
  return IpcSchemaVerifyTableVector(v, field, ARROW_IPC_FBR_FIELD_CUSTOM_METADATA, depth + 1,
                                    ARROW_IPC_FBR_T_KEY_VALUE, IpcSchemaVerifyKeyValue);
}

/* IpcSchemaVerifyFieldQuick's answer when it cannot tell: the generic verifier
 * decides (and words the error). */
#define IPC_SCHEMA_VERIFY_UNSURE (-1)

/* The common Field (no dictionary) checked from one load of its vtable, with the same
 * checks, in the same order and counting the same tables as
 * IpcSchemaVerifyFieldGeneric. Wherever a check fails before a helper has worded
 * an error, IPC_SCHEMA_VERIFY_UNSURE: the caller runs the generic verifier on this
 * Field from its start, which finds and words the same first failure. */
static int IpcSchemaVerifyFieldQuick(struct ArrowIpcFbrVerifier* v,
                                     const struct ArrowIpcFbrTable* field, int depth) {
  uint16_t offsets[ARROW_IPC_FBR_FIELD_N_IDS];
  struct ArrowIpcFbrTable t;
  int64_t n_children = 0;
  int64_t i;
  int type_id;
  ArrowIpcFbrLoadFieldOffsets(field, offsets);
  /* Field ids: 0 name, 1 nullable, 2 type_type, 3 type, 4 dictionary, 5 children,
   * 6 custom_metadata. */
  if (offsets[4] != 0 ||
      !ArrowIpcFbrFieldOffsetsFit(field, offsets)) {
    return IPC_SCHEMA_VERIFY_UNSURE;
  }
  if (offsets[0] != 0 && !ArrowIpcFbrStringAtIsValid(field, offsets[0])) {
    return IPC_SCHEMA_VERIFY_UNSURE;
  }
  if (offsets[3] != 0 && ArrowIpcFbrTargetAt(field, offsets[3]) < 0) {
    return IPC_SCHEMA_VERIFY_UNSURE;
  }
  if (offsets[5] != 0 && (n_children = ArrowIpcFbrVector4At(field, offsets[5])) < 0) {
    return IPC_SCHEMA_VERIFY_UNSURE;
  }
  if (offsets[6] != 0 && ArrowIpcFbrVector4At(field, offsets[6]) < 0) {
    return IPC_SCHEMA_VERIFY_UNSURE;
  }

  /* The type table (IpcSchemaVerifyType). */
  type_id = offsets[2] != 0 ? field->data[field->pos + offsets[2]] : 0;
  if (offsets[3] != 0) {
    if (depth + 1 > ARROW_IPC_FBR_MAX_DEPTH || v->tables_left <= 0 ||
        ArrowIpcFbrTableInit(v->data, v->size, ArrowIpcFbrTargetAt(field, offsets[3]),
                             &t) != 0) {
      return IPC_SCHEMA_VERIFY_UNSURE;
    }
    v->tables_left--;
    if (type_id == ARROW_IPC_FBR_TYPE_INT) {
      /* Int holds scalars only: each present one must fit (else the generic
       * check below words the error). */
      uint16_t int_offsets[ARROW_IPC_FBR_INT_N_IDS];
      ArrowIpcFbrLoadOffsets(&t, ARROW_IPC_FBR_INT_N_IDS, int_offsets);
      if (ArrowIpcFbrOffsetsFit(&t, ARROW_IPC_FBR_INT_N_IDS, int_offsets,
                                kArrowIpcFbrIntWidths)) {
        type_id = 0;
      }
    }
    if (type_id > 0 && type_id < ARROW_IPC_FBR_N_TYPE_IDS) {
      NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyFields(
          v, &t, (enum ArrowIpcFbrTableKey)ArrowIpcPrivateFbrTypeTables[type_id]));
    }
  }

  /* Children, each verified (quickly when it can be) in turn. */
  if (n_children > 0) {
    int64_t slots = ArrowIpcFbrTargetAt(field, offsets[5]) + 4;
    for (i = 0; i < n_children; i++) {
      int64_t slot = slots + 4 * i;
      int64_t target = slot + (int64_t)ArrowIpcFbrLoadU32(v->data + slot);
      NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyTableAt(
          v, target, depth + 2, ArrowIpcPrivateFbrTables[ARROW_IPC_FBR_T_FIELD].name, &t));
      NANOARROW_RETURN_NOT_OK(IpcSchemaVerifyField(v, &t, depth + 2));
    }
  }

  if (offsets[6] != 0) {
    return IpcSchemaVerifyTableVector(v, field, ARROW_IPC_FBR_FIELD_CUSTOM_METADATA,
                                      depth + 1, ARROW_IPC_FBR_T_KEY_VALUE,
                                      IpcSchemaVerifyKeyValue);
  }
  return NANOARROW_OK;
}

static int IpcSchemaVerifyField(struct ArrowIpcFbrVerifier* v,
                                const struct ArrowIpcFbrTable* field, int depth) {
  int64_t tables_left = v->tables_left;
  int result = IpcSchemaVerifyFieldQuick(v, field, depth);
  if (result != IPC_SCHEMA_VERIFY_UNSURE) return result;
  v->tables_left = tables_left;
  return IpcSchemaVerifyFieldGeneric(v, field, depth);
}

static int IpcSchemaVerifySchema(struct ArrowIpcFbrVerifier* v, const struct ArrowIpcFbrTable* schema,
                        int depth) {
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyFields(v, schema, ARROW_IPC_FBR_T_SCHEMA));
  NANOARROW_RETURN_NOT_OK(IpcSchemaVerifyTableVector(v, schema, ARROW_IPC_FBR_SCHEMA_FIELDS,
                                                     depth + 1, ARROW_IPC_FBR_T_FIELD,
                                                     IpcSchemaVerifyField));
  return IpcSchemaVerifyTableVector(v, schema, ARROW_IPC_FBR_SCHEMA_CUSTOM_METADATA,
                                    depth + 1, ARROW_IPC_FBR_T_KEY_VALUE,
                                    IpcSchemaVerifyKeyValue);
}

static int IpcSchemaVerifyRecordBatch(struct ArrowIpcFbrVerifier* v, const struct ArrowIpcFbrTable* rb,
                             int depth) {
  struct ArrowIpcFbrTable compression;
  int present;
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyFields(v, rb, ARROW_IPC_FBR_T_RECORD_BATCH));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifySubTable(
      v, rb, ARROW_IPC_FBR_RECORD_BATCH_COMPRESSION, depth + 1, &compression, &present));
  if (present) {
    NANOARROW_RETURN_NOT_OK(
        ArrowIpcFbrVerifyFields(v, &compression, ARROW_IPC_FBR_T_BODY_COMPRESSION));
  }
  return NANOARROW_OK;
}

static int IpcSchemaVerifyRoot(struct ArrowIpcFbrVerifier* v, struct ArrowIpcFbrTable* root,
                      const char* what) {
  if (v->size < 8) {
    ArrowErrorSet(v->error, "%s flatbuffer of %ld bytes is too short", what,
                  (long)v->size);
    return EINVAL;
  }
  return ArrowIpcFbrVerifyTableAt(v, (int64_t)ArrowIpcFbrLoadU32(v->data), 0, what, root);
}

ArrowErrorCode ArrowIpcPrivateVerifyMessage(const uint8_t* data, int64_t size,
                                            struct ArrowError* error) {
  struct ArrowIpcFbrVerifier v;
  struct ArrowIpcFbrTable message;
  struct ArrowIpcFbrTable header;
  int present;
  ArrowIpcFbrVerifierInit(&v, data, size, error);
  NANOARROW_RETURN_NOT_OK(IpcSchemaVerifyRoot(&v, &message, "Message"));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyFields(&v, &message, ARROW_IPC_FBR_T_MESSAGE));
  NANOARROW_RETURN_NOT_OK(IpcSchemaVerifyTableVector(&v, &message,
                                                     ARROW_IPC_FBR_MESSAGE_CUSTOM_METADATA, 1,
                                                     ARROW_IPC_FBR_T_KEY_VALUE,
                                                     IpcSchemaVerifyKeyValue));
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcFbrVerifySubTable(&v, &message, ARROW_IPC_FBR_MESSAGE_HEADER, 1, &header, &present));
  if (!present) {
    ArrowErrorSet(error, "Message has no header");
    return EINVAL;
  }
  switch (ArrowIpcFbrGetScalar(&message, ARROW_IPC_FBR_MESSAGE_HEADER_TYPE, 0)) {
    case ARROW_IPC_FBR_HEADER_SCHEMA:
      return IpcSchemaVerifySchema(&v, &header, 1);
    case ARROW_IPC_FBR_HEADER_RECORD_BATCH:
      return IpcSchemaVerifyRecordBatch(&v, &header, 1);
    case ARROW_IPC_FBR_HEADER_DICTIONARY_BATCH: {
      struct ArrowIpcFbrTable rb;
      NANOARROW_RETURN_NOT_OK(
          ArrowIpcFbrVerifyFields(&v, &header, ARROW_IPC_FBR_T_DICTIONARY_BATCH));
      NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifySubTable(
          &v, &header, ARROW_IPC_FBR_DICTIONARY_BATCH_DATA, 2, &rb, &present));
      if (!present) {
        ArrowErrorSet(error, "DictionaryBatch has no data");
        return EINVAL;
      }
      return IpcSchemaVerifyRecordBatch(&v, &rb, 2);
    }
    default:
      /* Tensors and unknown headers are refused when decoded. */
      return NANOARROW_OK;
  }
}

ArrowErrorCode ArrowIpcPrivateVerifyFooter(const uint8_t* data, int64_t size,
                                           struct ArrowError* error) {
  struct ArrowIpcFbrVerifier v;
  struct ArrowIpcFbrTable footer;
  struct ArrowIpcFbrTable schema;
  int present;
  ArrowIpcFbrVerifierInit(&v, data, size, error);
  NANOARROW_RETURN_NOT_OK(IpcSchemaVerifyRoot(&v, &footer, "Footer"));
  NANOARROW_RETURN_NOT_OK(ArrowIpcFbrVerifyFields(&v, &footer, ARROW_IPC_FBR_T_FOOTER));
  NANOARROW_RETURN_NOT_OK(
      ArrowIpcFbrVerifySubTable(&v, &footer, ARROW_IPC_FBR_FOOTER_SCHEMA, 1, &schema, &present));
  if (!present) {
    ArrowErrorSet(error, "Footer has no schema");
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(IpcSchemaVerifySchema(&v, &schema, 1));
  return IpcSchemaVerifyTableVector(&v, &footer, ARROW_IPC_FBR_FOOTER_CUSTOM_METADATA, 1,
                                    ARROW_IPC_FBR_T_KEY_VALUE, IpcSchemaVerifyKeyValue);
}

/* ---- Schema decoding ---- */

static ArrowErrorCode IpcSchemaSetMetadata(const struct ArrowIpcFbrTable* table,
                                  enum ArrowIpcFbrFieldKey key,
                                  struct ArrowSchema* out) {
  struct ArrowIpcFbrVector vec;
  struct ArrowIpcFbrTable kv;
  struct ArrowBuffer metadata;
  int64_t i;
  ArrowErrorCode result = NANOARROW_OK;
  if (!ArrowIpcFbrGetVector(table, key, &vec) || vec.n == 0) return NANOARROW_OK;
  NANOARROW_RETURN_NOT_OK(ArrowMetadataBuilderInit(&metadata, NULL));
  for (i = 0; i < vec.n && result == NANOARROW_OK; i++) {
    struct ArrowStringView key = {"", 0};
    struct ArrowStringView value = {"", 0};
    if (ArrowIpcFbrVectorTable(&vec, i, &kv)) {
      struct ArrowStringView s = ArrowIpcFbrGetString(&kv, ARROW_IPC_FBR_KEY_VALUE_KEY);
      if (s.data != NULL) key = s;
      s = ArrowIpcFbrGetString(&kv, ARROW_IPC_FBR_KEY_VALUE_VALUE);
      if (s.data != NULL) value = s;
    }
    result = ArrowMetadataBuilderAppend(&metadata, key, value);
  }
  if (result == NANOARROW_OK) {
    result = ArrowSchemaSetMetadata(out, (const char*)metadata.data);
  }
  ArrowBufferReset(&metadata);
  return result;
}

static const char kIpcSchemaTimeUnitChars[] = {'s', 'm', 'u', 'n'};

/* Writes the format of an Int table (NULL table: the default int32 index). */
static ArrowErrorCode IpcSchemaIntFormat(const struct ArrowIpcFbrTable* t, char* format,
                                struct ArrowError* error, const char* path) {
  int32_t bit_width = 32;
  int is_signed = 1;
  const char* chars;
  if (t != NULL) {
    /* ArrowIpcFbrGetScalar's reads (absent or not fitting: 0) from one vtable load. */
    uint16_t offsets[ARROW_IPC_FBR_INT_N_IDS];
    ArrowIpcFbrLoadOffsets(t, ARROW_IPC_FBR_INT_N_IDS, offsets);
    bit_width = offsets[0] >= 4 && offsets[0] + kArrowIpcFbrIntWidths[0] <= t->table_size
                    ? ArrowIpcFbrLoadI32(t->data + t->pos + offsets[0])
                    : 0;
    is_signed = offsets[1] >= 4 && offsets[1] + kArrowIpcFbrIntWidths[1] <= t->table_size &&
                t->data[t->pos + offsets[1]] != 0;
  }
  chars = is_signed ? "csil" : "CSIL";
  switch (bit_width) {
    case 8: format[0] = chars[0]; break;
    case 16: format[0] = chars[1]; break;
    case 32: format[0] = chars[2]; break;
    case 64: format[0] = chars[3]; break;
    default:
      ArrowErrorSet(error, "%s: Int bitWidth %d is not 8, 16, 32 or 64", path,
                    (int)bit_width);
      return EINVAL;
  }
  format[1] = '\0';
  return NANOARROW_OK;
}

static ArrowErrorCode IpcSchemaCheckChildren(int64_t n_children, int64_t expected, const char* type,
                                    struct ArrowError* error, const char* path) {
  if (n_children != expected) {
    ArrowErrorSet(error, "%s: %s must have %ld children but has %ld", path, type,
                  (long)expected, (long)n_children);
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* The format string of the Field's type (into format, of format_size bytes). */
static ArrowErrorCode IpcSchemaTypeFormat(const struct ArrowIpcFbrTable* field, int64_t n_children,
                                 char* format, size_t format_size, int64_t* flags,
                                 struct ArrowError* error, const char* path) {
  struct ArrowIpcFbrTable t;
  int type_id = (int)ArrowIpcFbrGetScalar(field, ARROW_IPC_FBR_FIELD_TYPE_TYPE, 0);
  int has_table = ArrowIpcFbrGetTable(field, ARROW_IPC_FBR_FIELD_TYPE, &t);
  int16_t unit;
  int32_t width;
  const char* fixed = NULL;
  int64_t expected_children = 0;

  if (!has_table) {
    ArrowErrorSet(error, "%s: Field has no type", path);
    return EINVAL;
  }

  switch (type_id) {
    case ARROW_IPC_FBR_TYPE_NULL: fixed = "n"; break;
    case ARROW_IPC_FBR_TYPE_BOOL: fixed = "b"; break;
    case ARROW_IPC_FBR_TYPE_BINARY: fixed = "z"; break;
    case ARROW_IPC_FBR_TYPE_UTF8: fixed = "u"; break;
    case ARROW_IPC_FBR_TYPE_LARGE_BINARY: fixed = "Z"; break;
    case ARROW_IPC_FBR_TYPE_LARGE_UTF8: fixed = "U"; break;
    case ARROW_IPC_FBR_TYPE_BINARY_VIEW: fixed = "vz"; break;
    case ARROW_IPC_FBR_TYPE_UTF8_VIEW: fixed = "vu"; break;
    case ARROW_IPC_FBR_TYPE_LIST: fixed = "+l"; expected_children = 1; break;
    case ARROW_IPC_FBR_TYPE_LARGE_LIST: fixed = "+L"; expected_children = 1; break;
    case ARROW_IPC_FBR_TYPE_LIST_VIEW: fixed = "+vl"; expected_children = 1; break;
    case ARROW_IPC_FBR_TYPE_LARGE_LIST_VIEW: fixed = "+vL"; expected_children = 1; break;
    case ARROW_IPC_FBR_TYPE_RUN_END_ENCODED: fixed = "+r"; expected_children = 2; break;
    case ARROW_IPC_FBR_TYPE_STRUCT: fixed = "+s"; expected_children = n_children; break;
    case ARROW_IPC_FBR_TYPE_MAP:
      fixed = "+m";
      expected_children = 1;
      if (ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_MAP_KEYS_SORTED, 0)) *flags |= ARROW_FLAG_MAP_KEYS_SORTED;
      break;
    case ARROW_IPC_FBR_TYPE_INT:
      NANOARROW_RETURN_NOT_OK(IpcSchemaIntFormat(&t, format, error, path));
      break;
    case ARROW_IPC_FBR_TYPE_FLOATING_POINT:
      switch (ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_FLOATING_POINT_PRECISION, 0)) {
        case 0: fixed = "e"; break;
        case 1: fixed = "f"; break;
        case 2: fixed = "g"; break;
        default:
          ArrowErrorSet(error, "%s: unknown FloatingPoint precision %d", path,
                        (int)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_FLOATING_POINT_PRECISION, 0));
          return EINVAL;
      }
      break;
    case ARROW_IPC_FBR_TYPE_DECIMAL: {
      int32_t precision = (int32_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_DECIMAL_PRECISION, 0);
      int32_t scale = (int32_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_DECIMAL_SCALE, 0);
      width = (int32_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_DECIMAL_BIT_WIDTH, 128);
      if (width != 32 && width != 64 && width != 128 && width != 256) {
        ArrowErrorSet(error, "%s: Decimal bitWidth %d is not 32, 64, 128 or 256", path,
                      (int)width);
        return EINVAL;
      }
      if (precision < 1) {
        ArrowErrorSet(error, "%s: Decimal precision %d must be positive", path,
                      (int)precision);
        return EINVAL;
      }
      if (width == 128) {
        snprintf(format, format_size, "d:%d,%d", (int)precision, (int)scale);
      } else {
        snprintf(format, format_size, "d:%d,%d,%d", (int)precision, (int)scale,
                 (int)width);
      }
      break;
    }
    case ARROW_IPC_FBR_TYPE_DATE:
      switch (ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_DATE_UNIT, 1)) {
        case 0: fixed = "tdD"; break;
        case 1: fixed = "tdm"; break;
        default:
          ArrowErrorSet(error, "%s: unknown Date unit", path);
          return EINVAL;
      }
      break;
    case ARROW_IPC_FBR_TYPE_TIME:
      unit = (int16_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_TIME_UNIT, 1);
      width = (int32_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_TIME_BIT_WIDTH, 32);
      if (unit < 0 || unit > 3 || width != (unit < 2 ? 32 : 64)) {
        ArrowErrorSet(error, "%s: Time unit %d with bitWidth %d is invalid", path,
                      (int)unit, (int)width);
        return EINVAL;
      }
      snprintf(format, format_size, "tt%c", kIpcSchemaTimeUnitChars[unit]);
      break;
    case ARROW_IPC_FBR_TYPE_TIMESTAMP: {
      struct ArrowStringView tz = ArrowIpcFbrGetString(&t, ARROW_IPC_FBR_TIMESTAMP_TIMEZONE);
      unit = (int16_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_TIMESTAMP_UNIT, 0);
      if (unit < 0 || unit > 3) {
        ArrowErrorSet(error, "%s: unknown Timestamp unit %d", path, (int)unit);
        return EINVAL;
      }
      if ((size_t)tz.size_bytes + 5 > format_size) {
        ArrowErrorSet(error, "%s: Timestamp timezone of %ld bytes is too long", path,
                      (long)tz.size_bytes);
        return EINVAL;
      }
      snprintf(format, format_size, "ts%c:%.*s", kIpcSchemaTimeUnitChars[unit],
               (int)tz.size_bytes, tz.data ? tz.data : "");
      break;
    }
    case ARROW_IPC_FBR_TYPE_DURATION:
      unit = (int16_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_DURATION_UNIT, 1);
      if (unit < 0 || unit > 3) {
        ArrowErrorSet(error, "%s: unknown Duration unit %d", path, (int)unit);
        return EINVAL;
      }
      snprintf(format, format_size, "tD%c", kIpcSchemaTimeUnitChars[unit]);
      break;
    case ARROW_IPC_FBR_TYPE_INTERVAL:
      switch (ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_INTERVAL_UNIT, 0)) {
        case 0: fixed = "tiM"; break;
        case 1: fixed = "tiD"; break;
        case 2: fixed = "tin"; break;
        default:
          ArrowErrorSet(error, "%s: unknown Interval unit", path);
          return EINVAL;
      }
      break;
    case ARROW_IPC_FBR_TYPE_FIXED_SIZE_BINARY:
      width = (int32_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_FIXED_SIZE_BINARY_BYTE_WIDTH, 0);
      /* "w:0" is no valid format: refuse it here, where the field can be named. */
      if (width <= 0) {
        struct ArrowStringView name = ArrowIpcFbrGetString(field, ARROW_IPC_FBR_FIELD_NAME);
        ArrowErrorSet(error,
                      "%s (field '%.*s'): FixedSizeBinary byteWidth must be positive, "
                      "got %d",
                      path, name.data != NULL ? (int)name.size_bytes : 0,
                      name.data != NULL ? name.data : "", (int)width);
        return EINVAL;
      }
      snprintf(format, format_size, "w:%d", (int)width);
      break;
    case ARROW_IPC_FBR_TYPE_FIXED_SIZE_LIST:
      width = (int32_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_FIXED_SIZE_LIST_LIST_SIZE, 0);
      if (width < 0) {
        ArrowErrorSet(error, "%s: FixedSizeList listSize %d is negative", path,
                      (int)width);
        return EINVAL;
      }
      snprintf(format, format_size, "+w:%d", (int)width);
      expected_children = 1;
      break;
    case ARROW_IPC_FBR_TYPE_UNION: {
      struct ArrowIpcFbrVector ids;
      int16_t mode = (int16_t)ArrowIpcFbrGetScalar(&t, ARROW_IPC_FBR_UNION_MODE, 0);
      int64_t i;
      size_t pos;
      if (mode != 0 && mode != 1) {
        ArrowErrorSet(error, "%s: unknown Union mode %d", path, (int)mode);
        return EINVAL;
      }
      if (n_children > 127) {
        ArrowErrorSet(error, "%s: Union has %ld children (at most 127)", path,
                      (long)n_children);
        return EINVAL;
      }
      pos = (size_t)snprintf(format, format_size, "+u%c:", mode == 0 ? 's' : 'd');
      if (ArrowIpcFbrGetVector(&t, ARROW_IPC_FBR_UNION_TYPE_IDS, &ids)) {
        NANOARROW_RETURN_NOT_OK(
            IpcSchemaCheckChildren(n_children, ids.n, "Union (one per type id)", error, path));
      }
      for (i = 0; i < n_children; i++) {
        int32_t type_id_value =
            ArrowIpcFbrGetVector(&t, ARROW_IPC_FBR_UNION_TYPE_IDS, &ids)
                ? ArrowIpcFbrLoadI32(ids.data + ids.pos + 4 * i)
                : (int32_t)i;
        if (type_id_value < 0 || type_id_value > 127) {
          ArrowErrorSet(error, "%s: Union type id %d is outside [0, 127]", path,
                        (int)type_id_value);
          return EINVAL;
        }
        if (pos + 5 > format_size) {
          ArrowErrorSet(error, "%s: Union type ids do not fit the format", path);
          return EINVAL;
        }
        pos += (size_t)snprintf(format + pos, format_size - pos, i == 0 ? "%d" : ",%d",
                                (int)type_id_value);
      }
      expected_children = n_children;
      break;
    }
    default:
      ArrowErrorSet(error, "%s: unsupported or unknown type id %d", path, type_id);
      return ENOTSUP;
  }

  if (fixed != NULL) {
    size_t fixed_size = strlen(fixed);
    if (fixed_size >= format_size) fixed_size = format_size - 1;
    memcpy(format, fixed, fixed_size);
    format[fixed_size] = '\0';
  }
  return IpcSchemaCheckChildren(n_children, expected_children, format, error, path);
}

static ArrowErrorCode IpcSchemaDecodeField(const struct ArrowIpcFbrTable* field,
                                  struct ArrowSchema* out, int depth, const char* path,
                                  struct ArrowError* error);

/* The type of a format that ArrowSchemaSetType() writes without copying it (types
 * without parameters or children of their own); UNINITIALIZED for the others. */
static enum ArrowType IpcSchemaStaticType(const char* format) {
  if (format[0] != '\0' && format[1] == '\0') {
    switch (format[0]) {
      case 'n': return NANOARROW_TYPE_NA;
      case 'b': return NANOARROW_TYPE_BOOL;
      case 'c': return NANOARROW_TYPE_INT8;
      case 'C': return NANOARROW_TYPE_UINT8;
      case 's': return NANOARROW_TYPE_INT16;
      case 'S': return NANOARROW_TYPE_UINT16;
      case 'i': return NANOARROW_TYPE_INT32;
      case 'I': return NANOARROW_TYPE_UINT32;
      case 'l': return NANOARROW_TYPE_INT64;
      case 'L': return NANOARROW_TYPE_UINT64;
      case 'e': return NANOARROW_TYPE_HALF_FLOAT;
      case 'f': return NANOARROW_TYPE_FLOAT;
      case 'g': return NANOARROW_TYPE_DOUBLE;
      case 'z': return NANOARROW_TYPE_BINARY;
      case 'u': return NANOARROW_TYPE_STRING;
      case 'Z': return NANOARROW_TYPE_LARGE_BINARY;
      case 'U': return NANOARROW_TYPE_LARGE_STRING;
      default: return NANOARROW_TYPE_UNINITIALIZED;
    }
  }
  if (strcmp(format, "+s") == 0) return NANOARROW_TYPE_STRUCT;
  if (strcmp(format, "vu") == 0) return NANOARROW_TYPE_STRING_VIEW;
  if (strcmp(format, "vz") == 0) return NANOARROW_TYPE_BINARY_VIEW;
  if (strcmp(format, "tdD") == 0) return NANOARROW_TYPE_DATE32;
  if (strcmp(format, "tdm") == 0) return NANOARROW_TYPE_DATE64;
  return NANOARROW_TYPE_UNINITIALIZED;
}

/* ArrowSchemaSetFormat(), sharing the library's static copy of common formats. */
static ArrowErrorCode IpcSchemaSetFormat(struct ArrowSchema* schema, const char* format) {
  enum ArrowType type = IpcSchemaStaticType(format);
  if (type != NANOARROW_TYPE_UNINITIALIZED) return ArrowSchemaSetType(schema, type);
  return ArrowSchemaSetFormat(schema, format);
}

/* out = path + ".children[i]" (truncated to fit); snprintf costs too much per
 * field of a wide schema. */
static void IpcSchemaChildPath(char* out, size_t out_size, const char* path, int64_t i) {
  static const char kChildren[] = ".children[";
  char digits[24];
  size_t n_digits = 0;
  size_t pos;
  size_t path_size = strlen(path);
  if (path_size + sizeof(kChildren) + sizeof(digits) + 2 > out_size) {
    path_size = out_size - sizeof(kChildren) - sizeof(digits) - 2;
  }
  memcpy(out, path, path_size);
  memcpy(out + path_size, kChildren, sizeof(kChildren) - 1);
  pos = path_size + sizeof(kChildren) - 1;
  do {
    digits[n_digits++] = (char)('0' + i % 10);
    i /= 10;
  } while (i > 0);
  while (n_digits > 0) out[pos++] = digits[--n_digits];
  out[pos++] = ']';
  out[pos] = '\0';
}

/* The path of a first, optimistic decode: errors are reported by decoding again
 * with paths (building one per field costs too much for wide schemas). */
static const char kIpcSchemaNoPath[] = "";

/* The name of Field i of a vector of Fields (for ArrowPrivateSchemaSetChildNames). */
static void IpcSchemaFieldNameAt(const void* context, int64_t i, struct ArrowStringView* out) {
  struct ArrowIpcFbrTable field;
  if (ArrowIpcFbrVectorTable((const struct ArrowIpcFbrVector*)context, i, &field)) {
    /* ArrowIpcFbrGetString(&field, ARROW_IPC_FBR_FIELD_NAME) with the name's id and
     * width from the quick paths' description of Field. */
    uint16_t offset = field.n_fields > 0 ? ArrowIpcFbrLoadU16(field.data + field.vtable_pos + 4) : 0;
    if (offset >= 4 && offset + kArrowIpcFbrFieldWidths[0] <= field.table_size &&
        ArrowIpcFbrStringAtIsValid(&field, offset)) {
      int64_t target = ArrowIpcFbrTargetAt(&field, offset);
      out->data = (const char*)field.data + target + 4;
      out->size_bytes = ArrowIpcFbrLoadU32(field.data + target);
    } else {
      out->data = NULL;
      out->size_bytes = 0;
    }
  } else {
    out->data = NULL;
    out->size_bytes = 0;
  }
}

static ArrowErrorCode IpcSchemaDecodeChildren(const struct ArrowIpcFbrTable* table,
                                     enum ArrowIpcFbrFieldKey key,
                                     struct ArrowSchema* out, int depth, const char* path,
                                     struct ArrowError* error) {
  struct ArrowIpcFbrVector vec;
  struct ArrowIpcFbrTable child;
  int64_t i;
  char child_path_buffer[256];
  const char* child_path = kIpcSchemaNoPath;
  if (!ArrowIpcFbrGetVector(table, key, &vec)) vec.n = 0;
  NANOARROW_RETURN_NOT_OK(ArrowSchemaAllocateChildren(out, vec.n));
  for (i = 0; i < vec.n; i++) ArrowSchemaInit(out->children[i]);
  /* All names in one allocation rather than one each. */
  NANOARROW_RETURN_NOT_OK(ArrowPrivateSchemaSetChildNames(out, &IpcSchemaFieldNameAt, &vec));
  for (i = 0; i < vec.n; i++) {
    if (path != kIpcSchemaNoPath) {
      IpcSchemaChildPath(child_path_buffer, sizeof(child_path_buffer), path, i);
      child_path = child_path_buffer;
    }
    if (!ArrowIpcFbrVectorTable(&vec, i, &child)) {
      ArrowErrorSet(error, "%s: invalid Field table", child_path);
      return EINVAL;
    }
    NANOARROW_RETURN_NOT_OK(IpcSchemaDecodeField(&child, out->children[i], depth + 1, child_path,
                                        error));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode IpcSchemaDecodeField(const struct ArrowIpcFbrTable* field,
                                  struct ArrowSchema* out, int depth, const char* path,
                                  struct ArrowError* error) {
  struct ArrowIpcFbrTable dictionary;
  struct ArrowIpcFbrVector children;
  struct ArrowSchema* value_schema = out;
  /* Fits "+ud:" and 127 type ids of up to 4 characters, or a 1000-byte timezone. */
  char format[1024];
  int64_t flags = 0;
  int64_t n_children;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "%s: schema nested deeper than %d", path,
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }

  {
    /* The common leaf Field (no dictionary, no children, no metadata) from one
     * load of its vtable: what the general path below does for it, without the
     * lookups that find nothing. */
    uint16_t offsets[ARROW_IPC_FBR_FIELD_N_IDS];
    struct ArrowIpcFbrTable type;
    ArrowIpcFbrLoadFieldOffsets(field, offsets);
    if (offsets[4] == 0 &&
        ArrowIpcFbrFieldOffsetsFit(field, offsets) &&
        (offsets[5] == 0 || ArrowIpcFbrVector4At(field, offsets[5]) == 0) &&
        (offsets[6] == 0 || ArrowIpcFbrVector4At(field, offsets[6]) == 0)) {
      if (offsets[1] != 0 && field->data[field->pos + offsets[1]] != 0) {
        flags |= ARROW_FLAG_NULLABLE;
      }
      if (offsets[2] != 0 && offsets[3] != 0 &&
          field->data[field->pos + offsets[2]] == ARROW_IPC_FBR_TYPE_INT &&
          ArrowIpcFbrTargetAt(field, offsets[3]) >= 0 &&
          ArrowIpcFbrTableInit(field->data, field->size, ArrowIpcFbrTargetAt(field, offsets[3]),
                               &type) == 0) {
        /* IpcSchemaTypeFormat's Int case (an Int has no children to check). */
        NANOARROW_RETURN_NOT_OK(IpcSchemaIntFormat(&type, format, error, path));
        if (format[0] == 'i') {
          /* IpcSchemaSetFormat(out, "i"), the usual one, without its lookup. */
          NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(out, NANOARROW_TYPE_INT32));
          out->flags = flags;
          return NANOARROW_OK;
        }
      } else {
        NANOARROW_RETURN_NOT_OK(
            IpcSchemaTypeFormat(field, 0, format, sizeof(format), &flags, error, path));
      }
      NANOARROW_RETURN_NOT_OK(IpcSchemaSetFormat(out, format));
      out->flags = flags;
      return NANOARROW_OK;
    }
  }

  /* The name was set by the caller (IpcSchemaDecodeChildren). */
  if (ArrowIpcFbrGetScalar(field, ARROW_IPC_FBR_FIELD_NULLABLE, 0)) flags |= ARROW_FLAG_NULLABLE;

  n_children = ArrowIpcFbrGetVector(field, ARROW_IPC_FBR_FIELD_CHILDREN, &children)
                   ? children.n : 0;

  if (ArrowIpcFbrGetTable(field, ARROW_IPC_FBR_FIELD_DICTIONARY, &dictionary)) {
    struct ArrowIpcFbrTable index_type;
    int has_index_type = ArrowIpcFbrGetTable(&dictionary, ARROW_IPC_FBR_DICTIONARY_ENCODING_INDEX_TYPE, &index_type);
    NANOARROW_RETURN_NOT_OK(
        IpcSchemaIntFormat(has_index_type ? &index_type : NULL, format, error, path));
    NANOARROW_RETURN_NOT_OK(IpcSchemaSetFormat(out, format));
    if (ArrowIpcFbrGetScalar(&dictionary, ARROW_IPC_FBR_DICTIONARY_ENCODING_IS_ORDERED, 0)) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
    NANOARROW_RETURN_NOT_OK(ArrowSchemaAllocateDictionary(out));
    value_schema = out->dictionary;
    ArrowSchemaInit(value_schema);
    value_schema->flags = flags & ARROW_FLAG_NULLABLE;
  }

  NANOARROW_RETURN_NOT_OK(
      IpcSchemaTypeFormat(field, n_children, format, sizeof(format), &flags, error, path));
  NANOARROW_RETURN_NOT_OK(IpcSchemaSetFormat(value_schema, format));
  if (value_schema != out) {
    value_schema->flags |= flags & ARROW_FLAG_MAP_KEYS_SORTED;
    flags &= ~(int64_t)ARROW_FLAG_MAP_KEYS_SORTED;
  }
  out->flags = flags;
  NANOARROW_RETURN_NOT_OK(
      IpcSchemaDecodeChildren(field, ARROW_IPC_FBR_FIELD_CHILDREN, value_schema, depth, path, error));
  return IpcSchemaSetMetadata(field, ARROW_IPC_FBR_FIELD_CUSTOM_METADATA, out);
}

/* out (released on failure) from the Schema table; path names its fields in
 * error messages. */
static ArrowErrorCode IpcSchemaDecodeRoot(const struct ArrowIpcFbrTable* schema_table,
                                          struct ArrowSchema* out, const char* path,
                                          struct ArrowError* error) {
  ArrowErrorCode result;
  ArrowSchemaInit(out);
  /* An IPC Schema has no nullability of its own: the root struct's flags stay 0, as
   * nanoarrow leaves them. */
  out->flags = 0;
  result = ArrowSchemaSetFormat(out, "+s");
  if (result == NANOARROW_OK) {
    result = IpcSchemaDecodeChildren(schema_table, ARROW_IPC_FBR_SCHEMA_FIELDS, out, 0, path,
                                     error);
  }
  if (result == NANOARROW_OK) {
    result = IpcSchemaSetMetadata(schema_table, ARROW_IPC_FBR_SCHEMA_CUSTOM_METADATA, out);
  }
  if (result != NANOARROW_OK) ArrowSchemaRelease(out);
  return result;
}

ArrowErrorCode ArrowIpcPrivateDecodeSchema(const struct ArrowIpcFbrTable* schema_table,
                                           struct ArrowSchema* out,
                                           enum ArrowIpcEndianness* endianness,
                                           int32_t* features, struct ArrowError* error) {
  struct ArrowIpcFbrVector vec;
  ArrowErrorCode result;
  int64_t i;

  *endianness = ArrowIpcFbrGetScalar(schema_table, ARROW_IPC_FBR_SCHEMA_ENDIANNESS, 0) == 0
                    ? NANOARROW_IPC_ENDIANNESS_LITTLE
                    : NANOARROW_IPC_ENDIANNESS_BIG;
  *features = 0;
  if (ArrowIpcFbrGetVector(schema_table, ARROW_IPC_FBR_SCHEMA_FEATURES, &vec)) {
    for (i = 0; i < vec.n; i++) {
      *features |= (int32_t)(ArrowIpcFbrLoadI64(vec.data + vec.pos + 8 * i) &
                             (NANOARROW_IPC_FEATURE_DICTIONARY_REPLACEMENT |
                              NANOARROW_IPC_FEATURE_COMPRESSED_BODY));
    }
  }

  result = IpcSchemaDecodeRoot(schema_table, out, kIpcSchemaNoPath, error);
  if (result != NANOARROW_OK && result != ENOMEM) {
    result = IpcSchemaDecodeRoot(schema_table, out, "fields", error);
  }
  if (result == ENOMEM) ArrowErrorSet(error, "out of memory decoding schema");
  return result;
}
