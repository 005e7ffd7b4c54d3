/* ArrowSchema / ArrowArray -> integration JSON. */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_testing.h"
#include "testing/testing_private.h"

/* ---- Text helpers ---- */

static ArrowErrorCode Put(struct ArrowBuffer* out, const char* text) {
  return ArrowBufferAppend(out, text, (int64_t)strlen(text));
}

static ArrowErrorCode PutInt(struct ArrowBuffer* out, int64_t value, int quoted) {
  char text[32];
  int n = snprintf(text, sizeof(text), quoted ? "\"%" PRId64 "\"" : "%" PRId64, value);
  return ArrowBufferAppend(out, text, n);
}

static ArrowErrorCode PutUInt(struct ArrowBuffer* out, uint64_t value) {
  char text[32];
  int n = snprintf(text, sizeof(text), "\"%" PRIu64 "\"", value);
  return ArrowBufferAppend(out, text, n);
}

/* The shortest decimal text that reads back as the same float / double, or with
 * fixed digits after the point (fixed_digits >= 0). JSON has no NaN or infinity:
 * EDOM for those, written by nobody (the caller decides). */
static ArrowErrorCode PutDouble(struct ArrowBuffer* out, double value, int is_float,
                                int fixed_digits) {
  char text[400];
  int precision;
  if (isnan(value) || isinf(value)) return EDOM;
  if (fixed_digits >= 0) {
    snprintf(text, sizeof(text), "%.*f", fixed_digits > 20 ? 20 : fixed_digits, value);
    return Put(out, text);
  }
  for (precision = is_float ? 6 : 15; precision <= 17; precision++) {
    snprintf(text, sizeof(text), "%.*g", precision, value);
    if (is_float ? (float)strtod(text, NULL) == (float)value : strtod(text, NULL) == value) {
      break;
    }
  }
  /* A whole number keeps a fraction (1.0, not 1) so that it reads as a real. */
  if (strspn(text, "-0123456789") == strlen(text)) strcat(text, ".0");
  return Put(out, text);
}

/* EILSEQ when data is not UTF-8: JSON text cannot hold it. */
static ArrowErrorCode PutJsonString(struct ArrowBuffer* out, const char* data, int64_t n) {
  int64_t i;
  int64_t run_start = 0;
  if (ArrowTestingUtf8InvalidAt((const uint8_t*)data, n) >= 0) return EILSEQ;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, n + 2));
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(out, "\"", 1));
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)data[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(out, data + run_start, i - run_start));
    run_start = i + 1;
    if (c == '"') {
      NANOARROW_RETURN_NOT_OK(Put(out, "\\\""));
    } else if (c == '\\') {
      NANOARROW_RETURN_NOT_OK(Put(out, "\\\\"));
    } else if (c == '\n') {
      NANOARROW_RETURN_NOT_OK(Put(out, "\\n"));
    } else {
      char escaped[8];
      snprintf(escaped, sizeof(escaped), "\\u%04x", (unsigned)c);
      NANOARROW_RETURN_NOT_OK(Put(out, escaped));
    }
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(out, data + run_start, n - run_start));
  return ArrowBufferAppend(out, "\"", 1);
}

/* Turns PutJsonString's EILSEQ into an error saying which text of which field. */
static ArrowErrorCode TextError(ArrowErrorCode rc, const char* what,
                                const struct ArrowSchema* schema, struct ArrowError* error) {
  if (rc != EILSEQ) return rc;
  ArrowErrorSet(error, "%s of field '%s' is not valid UTF-8 (JSON text cannot hold it)", what,
                schema->name != NULL ? schema->name : "");
  return EINVAL;
}

static ArrowErrorCode PutHex(struct ArrowBuffer* out, const uint8_t* data, int64_t n) {
  static const char kDigits[] = "0123456789ABCDEF";
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, 2 * n + 2));
  out->data[out->size_bytes++] = '"';
  for (i = 0; i < n; i++) {
    out->data[out->size_bytes++] = (uint8_t)kDigits[data[i] >> 4];
    out->data[out->size_bytes++] = (uint8_t)kDigits[data[i] & 15];
  }
  out->data[out->size_bytes++] = '"';
  return NANOARROW_OK;
}

/* ---- Schema ---- */

/* What a dictionaries record holds for each id (its index): the value schema of
 * the dictionary-encoded field that got it, and the values last written for it. */
struct JsonDictEntry {
  const struct ArrowSchema* schema;
  int64_t count; /* -1 until values are written */
  struct ArrowBuffer column;
};

void ArrowTestingJsonDictionariesInit(struct ArrowTestingJsonDictionaries* dictionaries) {
  dictionaries->n_ids = 0;
  dictionaries->capacity = 0;
  dictionaries->entries = NULL;
}

void ArrowTestingJsonDictionariesReset(struct ArrowTestingJsonDictionaries* dictionaries) {
  struct JsonDictEntry* entries = (struct JsonDictEntry*)dictionaries->entries;
  int64_t i;
  for (i = 0; i < dictionaries->n_ids; i++) ArrowBufferReset(&entries[i].column);
  ArrowFree(entries);
  ArrowTestingJsonDictionariesInit(dictionaries);
}

static int64_t DictFind(const struct ArrowTestingJsonDictionaries* dicts,
                        const struct ArrowSchema* schema) {
  const struct JsonDictEntry* entries = (const struct JsonDictEntry*)dicts->entries;
  int64_t i;
  for (i = 0; i < dicts->n_ids; i++) {
    if (entries[i].schema == schema) return i;
  }
  return -1;
}

/* The id of the dictionary whose value schema is schema: the one it already has,
 * else the next one. */
static ArrowErrorCode DictId(struct ArrowTestingJsonDictionaries* dicts,
                             const struct ArrowSchema* schema, int64_t* id,
                             struct ArrowError* error) {
  struct JsonDictEntry* entries = (struct JsonDictEntry*)dicts->entries;
  *id = DictFind(dicts, schema);
  if (*id >= 0) return NANOARROW_OK;
  if (dicts->n_ids == dicts->capacity) {
    int64_t capacity = dicts->capacity == 0 ? 8 : 2 * dicts->capacity;
    entries = (struct JsonDictEntry*)ArrowRealloc(entries, capacity * sizeof(*entries));
    if (entries == NULL) {
      ArrowErrorSet(error, "out of memory for dictionary id %" PRId64, dicts->n_ids);
      return ENOMEM;
    }
    dicts->entries = entries;
    dicts->capacity = capacity;
  }
  entries[dicts->n_ids].schema = schema;
  entries[dicts->n_ids].count = -1;
  ArrowBufferInit(&entries[dicts->n_ids].column);
  *id = dicts->n_ids++;
  return NANOARROW_OK;
}

/* What the recursive writers carry: where dictionary ids come from (a record of
 * the caller's, or one of this call's own) and the options. */
struct JsonWriter {
  struct ArrowTestingJsonDictionaries own_dicts;
  struct ArrowTestingJsonDictionaries* dicts;
  /* Non-zero: columns record their dictionaries' values in dicts. */
  int record_values;
  int float_precision;
  int include_metadata;
  /* The caller's flush (see ArrowTestingJsonWriteOptions) and the buffer it
   * drains: text written elsewhere (dictionary columns) is never flushed. */
  ArrowErrorCode (*flush)(void* flush_data, struct ArrowBuffer* out,
                          struct ArrowError* error);
  void* flush_data;
  const struct ArrowBuffer* flush_target;
};

/* Hands out's text to the caller's flush once it holds
 * NANOARROW_TESTING_JSON_FLUSH_BYTES, so that a document of any size is written
 * with bounded memory. Called between two values only. */
static ArrowErrorCode FlushPoint(struct ArrowBuffer* out, struct JsonWriter* writer,
                                 struct ArrowError* error) {
  if (writer->flush == NULL || out != writer->flush_target ||
      out->size_bytes < NANOARROW_TESTING_JSON_FLUSH_BYTES) {
    return NANOARROW_OK;
  }
  return writer->flush(writer->flush_data, out, error);
}

static void JsonWriterInit(struct JsonWriter* writer,
                           const struct ArrowTestingJsonWriteOptions* options) {
  struct ArrowTestingJsonWriteOptions defaults;
  ArrowTestingJsonWriteOptionsInit(&defaults);
  if (options == NULL) options = &defaults;
  ArrowTestingJsonDictionariesInit(&writer->own_dicts);
  writer->dicts = options->dictionaries != NULL ? options->dictionaries : &writer->own_dicts;
  writer->record_values = options->dictionaries != NULL;
  writer->float_precision = options->float_precision;
  writer->include_metadata = options->include_metadata;
  writer->flush = options->flush;
  writer->flush_data = options->flush_data;
  writer->flush_target = NULL;
}

static void JsonWriterReset(struct JsonWriter* writer) {
  ArrowTestingJsonDictionariesReset(&writer->own_dicts);
}

void ArrowTestingJsonWriteOptionsInit(struct ArrowTestingJsonWriteOptions* options) {
  options->float_precision = -1;
  options->include_metadata = 1;
  options->dictionaries = NULL;
  options->flush = NULL;
  options->flush_data = NULL;
}

static const char* TimeUnitName(enum ArrowTimeUnit unit) {
  switch (unit) {
    case NANOARROW_TIME_UNIT_SECOND: return "SECOND";
    case NANOARROW_TIME_UNIT_MILLI: return "MILLISECOND";
    case NANOARROW_TIME_UNIT_MICRO: return "MICROSECOND";
    default: return "NANOSECOND";
  }
}

/* A field or column name: a JSON string, or null for a NULL name (read back as NULL). */
static ArrowErrorCode PutName(struct ArrowBuffer* out, const char* name) {
  if (name == NULL) return Put(out, "null");
  return PutJsonString(out, name, (int64_t)strlen(name));
}

static ArrowErrorCode PutIntType(struct ArrowBuffer* out, enum ArrowType type) {
  const char* is_signed = "true";
  int bits = 8;
  switch (type) {
    case NANOARROW_TYPE_UINT8: is_signed = "false"; bits = 8; break;
    case NANOARROW_TYPE_INT8: bits = 8; break;
    case NANOARROW_TYPE_UINT16: is_signed = "false"; bits = 16; break;
    case NANOARROW_TYPE_INT16: bits = 16; break;
    case NANOARROW_TYPE_UINT32: is_signed = "false"; bits = 32; break;
    case NANOARROW_TYPE_INT32: bits = 32; break;
    case NANOARROW_TYPE_UINT64: is_signed = "false"; bits = 64; break;
    default: bits = 64; break;
  }
  NANOARROW_RETURN_NOT_OK(Put(out, "{\"name\": \"int\", \"bitWidth\": "));
  NANOARROW_RETURN_NOT_OK(PutInt(out, bits, 0));
  NANOARROW_RETURN_NOT_OK(Put(out, ", \"isSigned\": "));
  NANOARROW_RETURN_NOT_OK(Put(out, is_signed));
  return Put(out, "}");
}

static ArrowErrorCode PutType(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                              const struct ArrowSchemaView* view, struct ArrowError* error) {
  char text[1200];
  switch (view->type) {
    case NANOARROW_TYPE_NA: return Put(out, "{\"name\": \"null\"}");
    case NANOARROW_TYPE_BOOL: return Put(out, "{\"name\": \"bool\"}");
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_UINT64:
      return PutIntType(out, view->type);
    case NANOARROW_TYPE_HALF_FLOAT:
      return Put(out, "{\"name\": \"floatingpoint\", \"precision\": \"HALF\"}");
    case NANOARROW_TYPE_FLOAT:
      return Put(out, "{\"name\": \"floatingpoint\", \"precision\": \"SINGLE\"}");
    case NANOARROW_TYPE_DOUBLE:
      return Put(out, "{\"name\": \"floatingpoint\", \"precision\": \"DOUBLE\"}");
    case NANOARROW_TYPE_STRING: return Put(out, "{\"name\": \"utf8\"}");
    case NANOARROW_TYPE_LARGE_STRING: return Put(out, "{\"name\": \"largeutf8\"}");
    case NANOARROW_TYPE_BINARY: return Put(out, "{\"name\": \"binary\"}");
    case NANOARROW_TYPE_LARGE_BINARY: return Put(out, "{\"name\": \"largebinary\"}");
    case NANOARROW_TYPE_STRING_VIEW: return Put(out, "{\"name\": \"utf8view\"}");
    case NANOARROW_TYPE_BINARY_VIEW: return Put(out, "{\"name\": \"binaryview\"}");
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      snprintf(text, sizeof(text), "{\"name\": \"fixedsizebinary\", \"byteWidth\": %d}",
               (int)view->fixed_size);
      return Put(out, text);
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      snprintf(text, sizeof(text),
               "{\"name\": \"decimal\", \"bitWidth\": %d, \"precision\": %d, \"scale\": %d}",
               (int)view->decimal_bitwidth, (int)view->decimal_precision,
               (int)view->decimal_scale);
      return Put(out, text);
    case NANOARROW_TYPE_DATE32: return Put(out, "{\"name\": \"date\", \"unit\": \"DAY\"}");
    case NANOARROW_TYPE_DATE64:
      return Put(out, "{\"name\": \"date\", \"unit\": \"MILLISECOND\"}");
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
      snprintf(text, sizeof(text), "{\"name\": \"time\", \"unit\": \"%s\", \"bitWidth\": %d}",
               TimeUnitName(view->time_unit), view->type == NANOARROW_TYPE_TIME32 ? 32 : 64);
      return Put(out, text);
    case NANOARROW_TYPE_DURATION:
      snprintf(text, sizeof(text), "{\"name\": \"duration\", \"unit\": \"%s\"}",
               TimeUnitName(view->time_unit));
      return Put(out, text);
    case NANOARROW_TYPE_TIMESTAMP:
      snprintf(text, sizeof(text), "{\"name\": \"timestamp\", \"unit\": \"%s\"",
               TimeUnitName(view->time_unit));
      NANOARROW_RETURN_NOT_OK(Put(out, text));
      if (view->timezone != NULL && view->timezone[0] != '\0') {
        NANOARROW_RETURN_NOT_OK(Put(out, ", \"timezone\": "));
        NANOARROW_RETURN_NOT_OK(TextError(
            PutJsonString(out, view->timezone, (int64_t)strlen(view->timezone)),
            "the time zone", schema, error));
      }
      return Put(out, "}");
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      return Put(out, "{\"name\": \"interval\", \"unit\": \"YEAR_MONTH\"}");
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
      return Put(out, "{\"name\": \"interval\", \"unit\": \"DAY_TIME\"}");
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
      return Put(out, "{\"name\": \"interval\", \"unit\": \"MONTH_DAY_NANO\"}");
    case NANOARROW_TYPE_LIST: return Put(out, "{\"name\": \"list\"}");
    case NANOARROW_TYPE_LARGE_LIST: return Put(out, "{\"name\": \"largelist\"}");
    case NANOARROW_TYPE_LIST_VIEW: return Put(out, "{\"name\": \"listview\"}");
    case NANOARROW_TYPE_LARGE_LIST_VIEW: return Put(out, "{\"name\": \"largelistview\"}");
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      snprintf(text, sizeof(text), "{\"name\": \"fixedsizelist\", \"listSize\": %d}",
               (int)view->fixed_size);
      return Put(out, text);
    case NANOARROW_TYPE_STRUCT: return Put(out, "{\"name\": \"struct\"}");
    case NANOARROW_TYPE_MAP:
      return Put(out, (schema->flags & ARROW_FLAG_MAP_KEYS_SORTED)
                          ? "{\"name\": \"map\", \"keysSorted\": true}"
                          : "{\"name\": \"map\", \"keysSorted\": false}");
    case NANOARROW_TYPE_RUN_END_ENCODED: return Put(out, "{\"name\": \"runendencoded\"}");
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      NANOARROW_RETURN_NOT_OK(Put(out, "{\"name\": \"union\", \"mode\": \""));
      NANOARROW_RETURN_NOT_OK(
          Put(out, view->type == NANOARROW_TYPE_DENSE_UNION ? "DENSE" : "SPARSE"));
      NANOARROW_RETURN_NOT_OK(Put(out, "\", \"typeIds\": ["));
      NANOARROW_RETURN_NOT_OK(Put(out, view->union_type_ids));
      return Put(out, "]}");
    default:
      ArrowErrorSet(error, "type %s has no integration JSON form",
                    ArrowTypeString(view->type));
      return ENOTSUP;
  }
}

static ArrowErrorCode PutMetadata(struct ArrowBuffer* out, const char* metadata) {
  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  int first = 1;
  NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderInit(&reader, metadata));
  NANOARROW_RETURN_NOT_OK(Put(out, "["));
  while (reader.remaining_keys > 0) {
    NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderRead(&reader, &key, &value));
    NANOARROW_RETURN_NOT_OK(Put(out, first ? "{\"key\": " : ", {\"key\": "));
    NANOARROW_RETURN_NOT_OK(PutJsonString(out, key.data, key.size_bytes));
    NANOARROW_RETURN_NOT_OK(Put(out, ", \"value\": "));
    NANOARROW_RETURN_NOT_OK(PutJsonString(out, value.data, value.size_bytes));
    NANOARROW_RETURN_NOT_OK(Put(out, "}"));
    first = 0;
  }
  return Put(out, "]");
}

static ArrowErrorCode PutFields(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                struct JsonWriter* writer, int depth,
                                struct ArrowError* error);

static ArrowErrorCode PutField(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                               struct JsonWriter* writer, int depth,
                               struct ArrowError* error) {
  const struct ArrowSchema* value_schema =
      schema->dictionary != NULL ? schema->dictionary : schema;
  struct ArrowSchemaView view;
  ArrowErrorCode rc;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "schema nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&view, value_schema, error));
  NANOARROW_RETURN_NOT_OK(Put(out, "{\"name\": "));
  NANOARROW_RETURN_NOT_OK(TextError(PutName(out, schema->name), "the name", schema, error));
  NANOARROW_RETURN_NOT_OK(Put(out, ", \"nullable\": "));
  NANOARROW_RETURN_NOT_OK(Put(out, (schema->flags & ARROW_FLAG_NULLABLE) ? "true" : "false"));
  NANOARROW_RETURN_NOT_OK(Put(out, ", \"type\": "));
  NANOARROW_RETURN_NOT_OK(PutType(out, value_schema, &view, error));

  if (schema->dictionary != NULL) {
    struct ArrowSchemaView index_view;
    int64_t id;
    NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&index_view, schema, error));
    NANOARROW_RETURN_NOT_OK(DictId(writer->dicts, schema->dictionary, &id, error));
    NANOARROW_RETURN_NOT_OK(Put(out, ", \"dictionary\": {\"id\": "));
    NANOARROW_RETURN_NOT_OK(PutInt(out, id, 0));
    NANOARROW_RETURN_NOT_OK(Put(out, ", \"indexType\": "));
    NANOARROW_RETURN_NOT_OK(PutIntType(out, index_view.storage_type));
    NANOARROW_RETURN_NOT_OK(Put(out, (schema->flags & ARROW_FLAG_DICTIONARY_ORDERED)
                                         ? ", \"isOrdered\": true}"
                                         : ", \"isOrdered\": false}"));
  }

  NANOARROW_RETURN_NOT_OK(Put(out, ", \"children\": "));
  rc = PutFields(out, value_schema, writer, depth + 1, error);
  if (rc != NANOARROW_OK) {
    ArrowTestingPrefixError(error, "field '%s'", ArrowTestingFieldName(schema));
    return rc;
  }
  if (writer->include_metadata && schema->metadata != NULL) {
    NANOARROW_RETURN_NOT_OK(Put(out, ", \"metadata\": "));
    NANOARROW_RETURN_NOT_OK(
        TextError(PutMetadata(out, schema->metadata), "the metadata", schema, error));
  }
  return Put(out, "}");
}

static ArrowErrorCode PutFields(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                struct JsonWriter* writer, int depth,
                                struct ArrowError* error) {
  int64_t i;
  NANOARROW_RETURN_NOT_OK(Put(out, "["));
  for (i = 0; i < schema->n_children; i++) {
    if (i > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
    NANOARROW_RETURN_NOT_OK(PutField(out, schema->children[i], writer, depth, error));
  }
  return Put(out, "]");
}

static ArrowErrorCode PutSchema(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                struct JsonWriter* writer, struct ArrowError* error) {
  struct ArrowSchemaView view;
  if (schema->release == NULL || schema->format == NULL || strcmp(schema->format, "+s") != 0) {
    ArrowErrorSet(error, "a record batch schema must be a struct (\"+s\")");
    return EINVAL;
  }
  /* Checks the children pointers (and the rest of the struct) before they are
   * walked; each field is checked again as it is written. */
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&view, schema, error));
  NANOARROW_RETURN_NOT_OK(Put(out, "{\"fields\": "));
  NANOARROW_RETURN_NOT_OK(PutFields(out, schema, writer, 0, error));
  if (writer->include_metadata && schema->metadata != NULL) {
    NANOARROW_RETURN_NOT_OK(Put(out, ", \"metadata\": "));
    NANOARROW_RETURN_NOT_OK(
        TextError(PutMetadata(out, schema->metadata), "the metadata", schema, error));
  }
  return Put(out, "}");
}

ArrowErrorCode ArrowTestingJsonWriteSchema(const struct ArrowSchema* schema,
                                           struct ArrowBuffer* out,
                                           struct ArrowError* error) {
  return ArrowTestingJsonWriteSchemaWithOptions(schema, NULL, out, error);
}

ArrowErrorCode ArrowTestingJsonWriteSchemaWithOptions(
    const struct ArrowSchema* schema, const struct ArrowTestingJsonWriteOptions* options,
    struct ArrowBuffer* out, struct ArrowError* error) {
  struct JsonWriter writer;
  ArrowErrorCode rc;
  JsonWriterInit(&writer, options);
  rc = PutSchema(out, schema, &writer, error);
  JsonWriterReset(&writer);
  return rc;
}

ArrowErrorCode ArrowTestingJsonWriteField(const struct ArrowSchema* field,
                                          const struct ArrowTestingJsonWriteOptions* options,
                                          struct ArrowBuffer* out,
                                          struct ArrowError* error) {
  struct JsonWriter writer;
  ArrowErrorCode rc;
  if (field == NULL || field->release == NULL) {
    ArrowErrorSet(error, "field is released");
    return EINVAL;
  }
  JsonWriterInit(&writer, options);
  rc = PutField(out, field, &writer, 0, error);
  JsonWriterReset(&writer);
  return rc;
}

ArrowErrorCode ArrowTestingJsonWriteType(const struct ArrowSchema* field,
                                         struct ArrowBuffer* out, struct ArrowError* error) {
  const struct ArrowSchema* value_schema;
  struct ArrowSchemaView view;
  if (field == NULL || field->release == NULL) {
    ArrowErrorSet(error, "field is released");
    return EINVAL;
  }
  value_schema = field->dictionary != NULL ? field->dictionary : field;
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&view, value_schema, error));
  return PutType(out, value_schema, &view, error);
}

ArrowErrorCode ArrowTestingJsonWriteMetadata(const char* metadata, struct ArrowBuffer* out,
                                             struct ArrowError* error) {
  ArrowErrorCode rc;
  /* Absent metadata is JSON null (as nanoarrow's TestingJSONWriter writes it); present
   * but empty metadata is []. */
  if (metadata == NULL) {
    rc = Put(out, "null");
    if (rc != NANOARROW_OK) ArrowErrorSet(error, "out of memory writing metadata");
    return rc;
  }
  rc = PutMetadata(out, metadata);
  if (rc == EILSEQ) {
    ArrowErrorSet(error, "metadata that is not valid UTF-8 (JSON text cannot hold it)");
    return EINVAL;
  }
  if (rc != NANOARROW_OK) ArrowErrorSet(error, "metadata is malformed or out of memory");
  return rc;
}

/* ---- Columns ---- */

static ArrowErrorCode RecordDictionary(const struct ArrowSchema* schema,
                                       const struct ArrowArrayView* view, int depth,
                                       struct JsonWriter* writer, struct ArrowError* error);
static ArrowErrorCode PutColumn(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                const struct ArrowArrayView* view, int64_t start,
                                int64_t length, int depth, struct JsonWriter* writer,
                                struct ArrowError* error);

static ArrowErrorCode PutOffsets(struct ArrowBuffer* out, const char* key,
                                 const struct ArrowArrayView* view, int buffer, int64_t p0,
                                 int64_t n, int64_t base, struct JsonWriter* writer,
                                 struct ArrowError* error) {
  int64_t k;
  int is_large = view->layout.element_size_bits[buffer] == 64;
  NANOARROW_RETURN_NOT_OK(Put(out, key));
  for (k = 0; k < n; k++) {
    int64_t value = is_large ? view->buffer_views[buffer].data.as_int64[p0 + k]
                             : view->buffer_views[buffer].data.as_int32[p0 + k];
    if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
    NANOARROW_RETURN_NOT_OK(FlushPoint(out, writer, error));
    NANOARROW_RETURN_NOT_OK(PutInt(out, value - base, is_large));
  }
  return Put(out, "]");
}

/* The OFFSET of length elements of a list, string or binary from p0, relative to
 * first (the offset of element p0). An empty range is [0], read from nowhere. */
static ArrowErrorCode PutListOffsets(struct ArrowBuffer* out,
                                     const struct ArrowArrayView* view, int64_t p0,
                                     int64_t length, int64_t first,
                                     struct JsonWriter* writer, struct ArrowError* error) {
  if (length == 0) {
    NANOARROW_RETURN_NOT_OK(Put(out, ", \"OFFSET\": ["));
    NANOARROW_RETURN_NOT_OK(PutInt(out, 0, view->layout.element_size_bits[1] == 64));
    return Put(out, "]");
  }
  return PutOffsets(out, ", \"OFFSET\": [", view, 1, p0, length + 1, first, writer, error);
}

static ArrowErrorCode PutValue(struct ArrowBuffer* out, const struct ArrowSchemaView* sv,
                               const struct ArrowArrayView* view, int64_t i,
                               int fixed_digits) {
  int64_t p = view->offset + i;
  switch (view->storage_type) {
    case NANOARROW_TYPE_BOOL:
      return Put(out, ArrowBitGet(view->buffer_views[1].data.as_uint8, p) ? "true" : "false");
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT32:
      return PutInt(out, ArrowArrayViewGetIntUnsafe(view, i), 0);
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      return PutInt(out, view->buffer_views[1].data.as_int32[p], 0);
    case NANOARROW_TYPE_INT64:
      return PutInt(out, ArrowArrayViewGetIntUnsafe(view, i), 1);
    case NANOARROW_TYPE_UINT64:
      return PutUInt(out, ArrowArrayViewGetUIntUnsafe(view, i));
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
      return PutDouble(out, ArrowArrayViewGetDoubleUnsafe(view, i), 1, fixed_digits);
    case NANOARROW_TYPE_DOUBLE:
      return PutDouble(out, ArrowArrayViewGetDoubleUnsafe(view, i), 0, fixed_digits);
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING: {
      struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(view, i);
      return PutJsonString(out, value.data, value.size_bytes);
    }
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_BINARY: {
      struct ArrowBufferView value = ArrowArrayViewGetBytesUnsafe(view, i);
      return PutHex(out, value.data.as_uint8, value.size_bytes);
    }
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      return PutHex(out, view->buffer_views[1].data.as_uint8 + p * sv->fixed_size,
                    sv->fixed_size);
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256: {
      struct ArrowDecimal decimal;
      ArrowDecimalInit(&decimal, sv->decimal_bitwidth, sv->decimal_precision,
                       sv->decimal_scale);
      ArrowArrayViewGetDecimalUnsafe(view, i, &decimal);
      NANOARROW_RETURN_NOT_OK(Put(out, "\""));
      NANOARROW_RETURN_NOT_OK(ArrowDecimalAppendDigitsToBuffer(&decimal, out));
      return Put(out, "\"");
    }
    case NANOARROW_TYPE_INTERVAL_DAY_TIME: {
      int32_t values[2];
      memcpy(values, view->buffer_views[1].data.as_uint8 + p * 8, 8);
      NANOARROW_RETURN_NOT_OK(Put(out, "{\"days\": "));
      NANOARROW_RETURN_NOT_OK(PutInt(out, values[0], 0));
      NANOARROW_RETURN_NOT_OK(Put(out, ", \"milliseconds\": "));
      NANOARROW_RETURN_NOT_OK(PutInt(out, values[1], 0));
      return Put(out, "}");
    }
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO: {
      int32_t values[2];
      int64_t nanoseconds;
      memcpy(values, view->buffer_views[1].data.as_uint8 + p * 16, 8);
      memcpy(&nanoseconds, view->buffer_views[1].data.as_uint8 + p * 16 + 8, 8);
      NANOARROW_RETURN_NOT_OK(Put(out, "{\"months\": "));
      NANOARROW_RETURN_NOT_OK(PutInt(out, values[0], 0));
      NANOARROW_RETURN_NOT_OK(Put(out, ", \"days\": "));
      NANOARROW_RETURN_NOT_OK(PutInt(out, values[1], 0));
      NANOARROW_RETURN_NOT_OK(Put(out, ", \"nanoseconds\": "));
      NANOARROW_RETURN_NOT_OK(PutInt(out, nanoseconds, 0));
      return Put(out, "}");
    }
    default:
      return ENOTSUP;
  }
}

static ArrowErrorCode PutViews(struct ArrowBuffer* out, const struct ArrowArrayView* view,
                               int64_t start, int64_t length, struct JsonWriter* writer,
                               struct ArrowError* error) {
  int is_utf8 = view->storage_type == NANOARROW_TYPE_STRING_VIEW;
  int64_t k;
  NANOARROW_RETURN_NOT_OK(Put(out, ", \"VIEWS\": ["));
  for (k = 0; k < length; k++) {
    const union ArrowBinaryView* bv =
        &view->buffer_views[1].data.as_binary_view[view->offset + start + k];
    if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
    NANOARROW_RETURN_NOT_OK(FlushPoint(out, writer, error));
    NANOARROW_RETURN_NOT_OK(Put(out, "{\"SIZE\": "));
    NANOARROW_RETURN_NOT_OK(PutInt(out, bv->inlined.size, 0));
    if (bv->inlined.size <= NANOARROW_BINARY_VIEW_INLINE_SIZE) {
      NANOARROW_RETURN_NOT_OK(Put(out, ", \"INLINED\": "));
      if (is_utf8) {
        if (PutJsonString(out, (const char*)bv->inlined.data, bv->inlined.size) != NANOARROW_OK) {
          ArrowErrorSet(error,
                        "element %" PRId64 ": text that is not valid UTF-8 has no "
                        "integration JSON form",
                        start + k);
          return EINVAL;
        }
      } else {
        NANOARROW_RETURN_NOT_OK(PutHex(out, bv->inlined.data, bv->inlined.size));
      }
    } else {
      NANOARROW_RETURN_NOT_OK(Put(out, ", \"PREFIX_HEX\": "));
      NANOARROW_RETURN_NOT_OK(PutHex(out, bv->ref.prefix, 4));
      NANOARROW_RETURN_NOT_OK(Put(out, ", \"BUFFER_INDEX\": "));
      NANOARROW_RETURN_NOT_OK(PutInt(out, bv->ref.buffer_index, 0));
      NANOARROW_RETURN_NOT_OK(Put(out, ", \"OFFSET\": "));
      NANOARROW_RETURN_NOT_OK(PutInt(out, bv->ref.offset, 0));
    }
    NANOARROW_RETURN_NOT_OK(Put(out, "}"));
  }
  NANOARROW_RETURN_NOT_OK(Put(out, "], \"VARIADIC_DATA_BUFFERS\": ["));
  for (k = 0; k < view->n_variadic_buffers; k++) {
    if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
    NANOARROW_RETURN_NOT_OK(PutHex(out, (const uint8_t*)view->variadic_buffers[k],
                                   view->variadic_buffer_sizes[k]));
  }
  return Put(out, "]");
}

/* Writes each child whole (whole != 0), or every child's elements
 * [start, start + length). */
static ArrowErrorCode PutChildren(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                  const struct ArrowArrayView* view, int whole,
                                  int64_t start, int64_t length, int depth,
                                  struct JsonWriter* writer, struct ArrowError* error) {
  int64_t k;
  NANOARROW_RETURN_NOT_OK(Put(out, ", \"children\": ["));
  for (k = 0; k < view->n_children; k++) {
    ArrowErrorCode rc;
    if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
    NANOARROW_RETURN_NOT_OK(FlushPoint(out, writer, error));
    rc = PutColumn(out, schema->children[k], view->children[k],
                   whole ? 0 : start, whole ? view->children[k]->length : length,
                   depth + 1, writer, error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "children[%" PRId64 "]", k);
      return rc;
    }
  }
  return Put(out, "]");
}

/* Writes elements [start, start + length) of view (logical indices). */
static ArrowErrorCode PutColumn(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                const struct ArrowArrayView* view, int64_t start,
                                int64_t length, int depth, struct JsonWriter* writer,
                                struct ArrowError* error) {
  struct ArrowSchemaView sv;
  int64_t p0;
  int64_t k;

  /* An empty range reads no buffer. It may come from the offsets of an empty list
   * (or a list view's empty element), which nothing validates and which may point
   * past the child's end; an empty array may also have no offsets at all. */
  if (length == 0) start = 0;
  p0 = view->offset + start;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "array nested more than %d levels deep", NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&sv, schema, error));
  NANOARROW_RETURN_NOT_OK(Put(out, "{\"name\": "));
  NANOARROW_RETURN_NOT_OK(TextError(PutName(out, schema->name), "the name", schema, error));
  NANOARROW_RETURN_NOT_OK(Put(out, ", \"count\": "));
  NANOARROW_RETURN_NOT_OK(PutInt(out, length, 0));

  if (view->layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY &&
      view->storage_type != NANOARROW_TYPE_NA) {
    NANOARROW_RETURN_NOT_OK(Put(out, ", \"VALIDITY\": ["));
    /* In chunks: the text of a long column is never reserved at once. */
    for (k = 0; k < length; k++) {
      if ((k & 4095) == 0) {
        int64_t chunk = length - k < 4096 ? length - k : 4096;
        NANOARROW_RETURN_NOT_OK(FlushPoint(out, writer, error));
        NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, 3 * chunk));
      }
      if (k > 0) ArrowBufferAppendUnsafe(out, ", ", 2);
      ArrowBufferAppendUnsafe(out, ArrowArrayViewIsNull(view, start + k) ? "0" : "1", 1);
    }
    NANOARROW_RETURN_NOT_OK(Put(out, "]"));
  }

  switch (view->storage_type) {
    case NANOARROW_TYPE_NA:
      break;
    case NANOARROW_TYPE_STRUCT: {
      for (k = 0; k < view->n_children; k++) {
        if (view->children[k]->length < p0 + length) {
          ArrowErrorSet(error, "struct child is shorter than its parent");
          return EINVAL;
        }
      }
      NANOARROW_RETURN_NOT_OK(PutChildren(out, schema, view, 0, p0, length, depth, writer, error));
      break;
    }
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION: {
      NANOARROW_RETURN_NOT_OK(Put(out, ", \"TYPE_ID\": ["));
      for (k = 0; k < length; k++) {
        if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
        NANOARROW_RETURN_NOT_OK(FlushPoint(out, writer, error));
        NANOARROW_RETURN_NOT_OK(PutInt(out, view->buffer_views[0].data.as_int8[p0 + k], 0));
      }
      NANOARROW_RETURN_NOT_OK(Put(out, "]"));
      if (view->storage_type == NANOARROW_TYPE_DENSE_UNION) {
        NANOARROW_RETURN_NOT_OK(PutOffsets(out, ", \"OFFSET\": [", view, 1, p0, length, 0, writer, error));
        NANOARROW_RETURN_NOT_OK(PutChildren(out, schema, view, 1, 0, 0, depth, writer, error));
      } else {
        NANOARROW_RETURN_NOT_OK(PutChildren(out, schema, view, 0, p0, length, depth, writer, error));
      }
      break;
    }
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP: {
      int is_large = view->storage_type == NANOARROW_TYPE_LARGE_LIST;
      int64_t first = 0;
      int64_t last = 0;
      if (length > 0) {
        first = is_large ? view->buffer_views[1].data.as_int64[p0]
                         : view->buffer_views[1].data.as_int32[p0];
        last = is_large ? view->buffer_views[1].data.as_int64[p0 + length]
                        : view->buffer_views[1].data.as_int32[p0 + length];
      }
      NANOARROW_RETURN_NOT_OK(PutListOffsets(out, view, p0, length, first, writer, error));
      NANOARROW_RETURN_NOT_OK(PutChildren(out, schema, view, 0, first, last - first, depth, writer, error));
      break;
    }
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      NANOARROW_RETURN_NOT_OK(PutOffsets(out, ", \"OFFSET\": [", view, 1, p0, length, 0, writer, error));
      NANOARROW_RETURN_NOT_OK(PutOffsets(out, ", \"SIZE\": [", view, 2, p0, length, 0, writer, error));
      NANOARROW_RETURN_NOT_OK(PutChildren(out, schema, view, 1, 0, 0, depth, writer, error));
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST: {
      int64_t child_start = length == 0 ? 0 : p0 * sv.fixed_size;
      int64_t child_length = length * sv.fixed_size;
      NANOARROW_RETURN_NOT_OK(
          PutChildren(out, schema, view, 0, child_start, child_length, depth, writer, error));
      break;
    }
    case NANOARROW_TYPE_RUN_END_ENCODED:
      if (p0 != 0) {
        ArrowErrorSet(error, "a sliced run-end encoded array has no integration JSON form");
        return ENOTSUP;
      }
      NANOARROW_RETURN_NOT_OK(PutChildren(out, schema, view, 1, 0, 0, depth, writer, error));
      break;
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW:
      NANOARROW_RETURN_NOT_OK(PutViews(out, view, start, length, writer, error));
      break;
    default: {
      if (view->storage_type == NANOARROW_TYPE_STRING ||
          view->storage_type == NANOARROW_TYPE_BINARY ||
          view->storage_type == NANOARROW_TYPE_LARGE_STRING ||
          view->storage_type == NANOARROW_TYPE_LARGE_BINARY) {
        int64_t first = 0;
        if (length > 0) {
          first = view->layout.element_size_bits[1] == 64 ? view->buffer_views[1].data.as_int64[p0]
                                                          : view->buffer_views[1].data.as_int32[p0];
        }
        NANOARROW_RETURN_NOT_OK(PutListOffsets(out, view, p0, length, first, writer, error));
      }
      NANOARROW_RETURN_NOT_OK(Put(out, ", \"DATA\": ["));
      for (k = 0; k < length; k++) {
        ArrowErrorCode rc;
        if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
        NANOARROW_RETURN_NOT_OK(FlushPoint(out, writer, error));
        rc = PutValue(out, &sv, view, start + k, writer->float_precision);
        if (rc == EDOM && ArrowArrayViewIsNull(view, start + k)) {
          /* Whatever bits lie under a null (NaN included) are not data: 0 reads back. */
          rc = Put(out, "0");
        } else if (rc == EDOM) {
          /* Writing null (or a bare NaN token) would change or lose the value. */
          double value = ArrowArrayViewGetDoubleUnsafe(view, start + k);
          ArrowErrorSet(error,
                        "field '%s' element %" PRId64 ": %s has no integration JSON form "
                        "(JSON numbers cannot hold it)",
                        schema->name != NULL ? schema->name : "", start + k,
                        isnan(value) ? "NaN" : (value > 0 ? "infinity" : "-infinity"));
          rc = EINVAL;
        }
        if (rc == EILSEQ) {
          ArrowErrorSet(error,
                        "field '%s' element %" PRId64 ": text that is not valid UTF-8 has "
                        "no integration JSON form",
                        schema->name != NULL ? schema->name : "", start + k);
          rc = EINVAL;
        }
        if (rc == ENOTSUP) {
          ArrowErrorSet(error, "cannot write values of type %s",
                        ArrowTypeString(view->storage_type));
        }
        NANOARROW_RETURN_NOT_OK(rc);
      }
      NANOARROW_RETURN_NOT_OK(Put(out, "]"));
      break;
    }
  }
  if (writer->record_values && schema->dictionary != NULL && view->dictionary != NULL) {
    NANOARROW_RETURN_NOT_OK(RecordDictionary(schema, view, depth, writer, error));
  }
  return Put(out, "}");
}

/* Keeps the values of view's dictionary (written whole as a column of the
 * dictionary's value schema) as the latest ones of its id. */
static ArrowErrorCode RecordDictionary(const struct ArrowSchema* schema,
                                       const struct ArrowArrayView* view, int depth,
                                       struct JsonWriter* writer, struct ArrowError* error) {
  struct ArrowBuffer column;
  struct JsonDictEntry* entry;
  int64_t id;
  ArrowErrorCode rc;
  NANOARROW_RETURN_NOT_OK(DictId(writer->dicts, schema->dictionary, &id, error));
  ArrowBufferInit(&column);
  rc = PutColumn(&column, schema->dictionary, view->dictionary, 0, view->dictionary->length,
                 depth + 1, writer, error);
  if (rc != NANOARROW_OK) {
    ArrowTestingPrefixError(error, "dictionary %" PRId64, id);
    ArrowBufferReset(&column);
    return rc;
  }
  /* Looked up again: writing nested dictionaries may have moved the entries. */
  entry = (struct JsonDictEntry*)writer->dicts->entries + id;
  ArrowBufferReset(&entry->column);
  ArrowBufferMove(&column, &entry->column);
  entry->count = view->dictionary->length;
  return NANOARROW_OK;
}

ArrowErrorCode ArrowTestingJsonWriteDictionaries(
    const struct ArrowTestingJsonDictionaries* dictionaries, struct ArrowBuffer* out,
    struct ArrowError* error) {
  const struct JsonDictEntry* entries = (const struct JsonDictEntry*)dictionaries->entries;
  int first = 1;
  int64_t id;
  ArrowErrorCode rc = Put(out, "[");
  for (id = 0; rc == NANOARROW_OK && id < dictionaries->n_ids; id++) {
    if (entries[id].count < 0) continue;
    rc = Put(out, first ? "{\"id\": " : ", {\"id\": ");
    first = 0;
    if (rc == NANOARROW_OK) rc = PutInt(out, id, 0);
    if (rc == NANOARROW_OK) rc = Put(out, ", \"data\": {\"count\": ");
    if (rc == NANOARROW_OK) rc = PutInt(out, entries[id].count, 0);
    if (rc == NANOARROW_OK) rc = Put(out, ", \"columns\": [");
    if (rc == NANOARROW_OK) {
      rc = ArrowBufferAppend(out, entries[id].column.data, entries[id].column.size_bytes);
    }
    if (rc == NANOARROW_OK) rc = Put(out, "]}}");
  }
  if (rc == NANOARROW_OK) rc = Put(out, "]");
  if (rc != NANOARROW_OK) ArrowErrorSet(error, "dictionaries: out of memory");
  return rc;
}

static ArrowErrorCode PutBatch(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                               const struct ArrowArrayView* view, struct JsonWriter* writer,
                               struct ArrowError* error) {
  int64_t k;
  if (view->storage_type != NANOARROW_TYPE_STRUCT) {
    ArrowErrorSet(error, "a record batch must be a struct array");
    return EINVAL;
  }
  /* A batch has no validity of its own (as in IPC): null rows at its top level would
   * be written as valid rows. */
  if (view->null_count != 0 && view->length > 0 && view->buffer_views[0].data.data != NULL) {
    int64_t n_null;
    if (view->offset < 0 || view->offset > INT64_MAX - 8 - view->length ||
        view->buffer_views[0].size_bytes < ArrowBytesForBits(view->offset + view->length)) {
      ArrowErrorSet(error, "the batch's validity buffer is too small for its length");
      return EINVAL;
    }
    n_null = ArrowArrayViewComputeNullCount(view);
    if (n_null > 0) {
      ArrowErrorSet(error,
                    "the batch has %" PRId64 " null rows at its top level, which a record "
                    "batch cannot hold",
                    n_null);
      return EINVAL;
    }
  }
  NANOARROW_RETURN_NOT_OK(Put(out, "{\"count\": "));
  NANOARROW_RETURN_NOT_OK(PutInt(out, view->length, 0));
  NANOARROW_RETURN_NOT_OK(Put(out, ", \"columns\": ["));
  for (k = 0; k < view->n_children; k++) {
    ArrowErrorCode rc;
    if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
    NANOARROW_RETURN_NOT_OK(FlushPoint(out, writer, error));
    if (error != NULL) error->message[0] = '\0';
    rc = PutColumn(out, schema->children[k], view->children[k], view->offset, view->length, 1,
                   writer, error);
    if (rc != NANOARROW_OK) {
      /* A failed allocation leaves no message of its own. */
      if (error != NULL && error->message[0] == '\0') ArrowErrorSet(error, "%s", strerror(rc));
      ArrowTestingPrefixError(error, "column %" PRId64 " '%s'", k,
                              ArrowTestingFieldName(schema->children[k]));
      return rc;
    }
  }
  return Put(out, "]}");
}

static ArrowErrorCode ViewOfArray(struct ArrowArrayView* view, const struct ArrowSchema* schema,
                                  const struct ArrowArray* array, struct ArrowError* error) {
  ArrowErrorCode rc;
  ArrowArrayViewInitFromType(view, NANOARROW_TYPE_UNINITIALIZED);
  rc = ArrowArrayViewInitFromSchema(view, schema, error);
  if (rc == NANOARROW_OK) rc = ArrowArrayViewSetArray(view, array, error);
  if (rc == NANOARROW_OK) rc = ArrowArrayViewValidate(view, NANOARROW_VALIDATION_LEVEL_FULL, error);
  if (rc != NANOARROW_OK) ArrowArrayViewReset(view);
  return rc;
}

/* A view passed in by the caller must have the shape of its schema at every level
 * (the writer walks both together): the same number of children and a dictionary
 * exactly where the schema has one. */
static ArrowErrorCode CheckViewShape(const struct ArrowSchema* schema,
                                     const struct ArrowArrayView* view, int depth,
                                     struct ArrowError* error) {
  int64_t k;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "nested more than %d levels deep", NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (schema->n_children != view->n_children) {
    ArrowErrorSet(error, "the view has %" PRId64 " children for %" PRId64 " fields",
                  view->n_children, schema->n_children);
    return EINVAL;
  }
  if ((schema->dictionary == NULL) != (view->dictionary == NULL)) {
    ArrowErrorSet(error, "the view %s a dictionary where the schema %s",
                  view->dictionary == NULL ? "has no" : "has",
                  schema->dictionary == NULL ? "has none" : "has one");
    return EINVAL;
  }
  for (k = 0; k < schema->n_children; k++) {
    ArrowErrorCode rc = CheckViewShape(schema->children[k], view->children[k], depth + 1,
                                       error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "children[%" PRId64 "]", k);
      return rc;
    }
  }
  if (schema->dictionary != NULL) {
    ArrowErrorCode rc = CheckViewShape(schema->dictionary, view->dictionary, depth + 1,
                                       error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "dictionary");
      return rc;
    }
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowTestingJsonWriteBatchView(
    const struct ArrowSchema* schema, const struct ArrowArrayView* view,
    const struct ArrowTestingJsonWriteOptions* options, struct ArrowBuffer* out,
    struct ArrowError* error) {
  struct JsonWriter writer;
  ArrowErrorCode rc;
  NANOARROW_RETURN_NOT_OK(CheckViewShape(schema, view, 0, error));
  JsonWriterInit(&writer, options);
  rc = PutBatch(out, schema, view, &writer, error);
  JsonWriterReset(&writer);
  return rc;
}

ArrowErrorCode ArrowTestingJsonWriteColumn(
    const struct ArrowSchema* field, const struct ArrowArrayView* view,
    const struct ArrowTestingJsonWriteOptions* options, struct ArrowBuffer* out,
    struct ArrowError* error) {
  struct JsonWriter writer;
  ArrowErrorCode rc;
  NANOARROW_RETURN_NOT_OK(CheckViewShape(field, view, 0, error));
  JsonWriterInit(&writer, options);
  rc = PutColumn(out, field, view, 0, view->length, 0, &writer, error);
  JsonWriterReset(&writer);
  return rc;
}

ArrowErrorCode ArrowTestingJsonWriteBatch(const struct ArrowSchema* schema,
                                          const struct ArrowArray* array,
                                          struct ArrowBuffer* out,
                                          struct ArrowError* error) {
  struct ArrowArrayView view;
  struct JsonWriter writer;
  ArrowErrorCode rc;
  NANOARROW_RETURN_NOT_OK(ViewOfArray(&view, schema, array, error));
  JsonWriterInit(&writer, NULL);
  rc = PutBatch(out, schema, &view, &writer, error);
  JsonWriterReset(&writer);
  ArrowArrayViewReset(&view);
  return rc;
}

/* ---- Streams ---- */

/* The latest dictionary values of each id, copied out of the batch that had them
 * (so that batches can be released as they are written). */
struct DictSlot {
  struct ArrowArray array;
  int has_value;
};

/* Records the dictionary values of every dictionary-encoded node of a batch. */
static ArrowErrorCode CollectDictionaries(const struct ArrowSchema* schema,
                                          const struct ArrowArrayView* view,
                                          const struct ArrowTestingJsonDictionaries* dicts,
                                          struct DictSlot* slots, int64_t n_slots, int depth,
                                          struct ArrowError* error) {
  int64_t k;
  if (depth > NANOARROW_MAX_NESTING_DEPTH) return EINVAL;
  for (k = 0; k < view->n_children; k++) {
    NANOARROW_RETURN_NOT_OK(CollectDictionaries(schema->children[k], view->children[k], dicts,
                                                slots, n_slots, depth + 1, error));
  }
  if (schema->dictionary != NULL && view->dictionary != NULL) {
    int64_t id = DictFind(dicts, schema->dictionary);
    struct ArrowArray copy;
    if (id < 0 || id >= n_slots) {
      ArrowErrorSet(error, "field '%s': a dictionary the schema does not declare",
                    ArrowTestingFieldName(schema));
      return EINVAL;
    }
    NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromArrayView(&copy, view->dictionary, error));
    if (slots[id].has_value) {
      /* JSON holds one dictionary per id: later batches may only append to it. The
       * new values' prefix is compared through a non-owning shorter copy. */
      struct ArrowArray prefix = copy;
      int equal = 0;
      ArrowErrorCode rc = NANOARROW_OK;
      if (slots[id].array.length <= copy.length) {
        prefix.length = slots[id].array.length;
        prefix.null_count = -1;
        rc = ArrowTestingCompareArray(schema->dictionary, &prefix, &slots[id].array, &equal,
                                      error);
      }
      if (rc == NANOARROW_OK && !equal) {
        ArrowErrorSet(error, "dictionary %" PRId64 " changes between batches, which "
                      "integration JSON cannot express", id);
        rc = EINVAL;
      }
      if (rc != NANOARROW_OK) {
        ArrowArrayRelease(&copy);
        return rc;
      }
      ArrowArrayRelease(&slots[id].array);
      slots[id].has_value = 0;
    }
    ArrowArrayMove(&copy, &slots[id].array);
    slots[id].has_value = 1;
    NANOARROW_RETURN_NOT_OK(CollectDictionaries(schema->dictionary, view->dictionary, dicts,
                                                slots, n_slots, depth + 1, error));
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowTestingJsonWriteStream(struct ArrowArrayStream* stream,
                                           struct ArrowBuffer* out,
                                           struct ArrowError* error) {
  NANOARROW_RETURN_NOT_OK(ArrowTestingJsonWriteDataFile(stream, NULL, out, error));
  return Put(out, "\n");
}

ArrowErrorCode ArrowTestingJsonWriteDataFile(
    struct ArrowArrayStream* stream, const struct ArrowTestingJsonWriteOptions* options,
    struct ArrowBuffer* out, struct ArrowError* error) {
  struct ArrowSchema schema;
  struct JsonWriter writer;
  struct DictSlot* slots = NULL;
  int64_t n_slots = 0;
  int64_t n_batches = 0;
  int64_t k;
  ArrowErrorCode rc;

  JsonWriterInit(&writer, options);
  /* The "dictionaries" section is what the batches' columns record. */
  writer.record_values = 1;
  writer.flush_target = out;
  rc = stream->get_schema(stream, &schema);
  if (rc != NANOARROW_OK) {
    const char* message = stream->get_last_error(stream);
    ArrowErrorSet(error, "%s", message != NULL ? message : strerror(rc));
    return rc;
  }

  rc = Put(out, "{\"schema\": ");
  if (rc == NANOARROW_OK) rc = PutSchema(out, &schema, &writer, error);
  if (rc == NANOARROW_OK && writer.dicts->n_ids > 0) {
    n_slots = writer.dicts->n_ids;
    slots = (struct DictSlot*)ArrowMalloc(n_slots * sizeof(struct DictSlot));
    if (slots == NULL) {
      ArrowErrorSet(error, "out of memory for %" PRId64 " dictionaries", n_slots);
      rc = ENOMEM;
      n_slots = 0;
    }
    for (k = 0; rc == NANOARROW_OK && k < n_slots; k++) {
      slots[k].has_value = 0;
      slots[k].array.release = NULL;
    }
  }

  /* Batches first, then the dictionaries they refer to (the order of the format's
   * description). */
  if (rc == NANOARROW_OK) rc = Put(out, ", \"batches\": [");
  while (rc == NANOARROW_OK) {
    struct ArrowArray array;
    struct ArrowArrayView view;
    array.release = NULL;
    rc = stream->get_next(stream, &array);
    if (rc != NANOARROW_OK) {
      const char* message = stream->get_last_error(stream);
      ArrowErrorSet(error, "batch %" PRId64 ": %s", n_batches,
                    message != NULL ? message : strerror(rc));
      break;
    }
    if (array.release == NULL) break;
    rc = ViewOfArray(&view, &schema, &array, error);
    if (rc == NANOARROW_OK) {
      if (n_batches > 0) rc = Put(out, ", ");
      if (rc == NANOARROW_OK) rc = FlushPoint(out, &writer, error);
      if (rc == NANOARROW_OK) rc = PutBatch(out, &schema, &view, &writer, error);
      if (rc == NANOARROW_OK && slots != NULL) {
        rc = CollectDictionaries(&schema, &view, writer.dicts, slots, n_slots, 0, error);
      }
      ArrowArrayViewReset(&view);
    }
    if (rc != NANOARROW_OK) ArrowTestingPrefixError(error, "batch %" PRId64, n_batches);
    ArrowArrayRelease(&array);
    n_batches++;
  }

  if (rc == NANOARROW_OK) rc = Put(out, "]");
  if (rc == NANOARROW_OK && n_slots > 0) {
    rc = Put(out, ", \"dictionaries\": ");
    if (rc == NANOARROW_OK) rc = ArrowTestingJsonWriteDictionaries(writer.dicts, out, error);
  }
  if (rc == NANOARROW_OK) rc = Put(out, "}");

  for (k = 0; k < n_slots; k++) {
    if (slots[k].array.release != NULL) ArrowArrayRelease(&slots[k].array);
  }
  ArrowFree(slots);
  JsonWriterReset(&writer);
  ArrowSchemaRelease(&schema);
  return rc;
}
