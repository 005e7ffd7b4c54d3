/* Integration JSON -> ArrowSchema / ArrowArray / ArrowArrayStream. */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <zlib.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_testing.h"
#include "testing/testing_private.h"

/* ---- Files ---- */

ArrowErrorCode ArrowTestingReadFile(const char* path, int64_t max_size_bytes,
                                    struct ArrowBuffer* out, struct ArrowError* error) {
  gzFile file;
  int fd;
  int n_read;

  ArrowBufferInit(out);
  if (strcmp(path, "-") == 0) {
    /* gzclose closes the descriptor: give it a duplicate of stdin's. */
    fd = dup(0);
    file = fd < 0 ? NULL : gzdopen(fd, "rb");
    if (file == NULL && fd >= 0) close(fd);
  } else {
    file = gzopen(path, "rb");
  }
  if (file == NULL) {
    ArrowErrorSet(error, "cannot open '%s': %s", path, strerror(errno));
    return errno != 0 ? errno : EINVAL;
  }

  do {
    if (ArrowBufferReserve(out, 65536) != NANOARROW_OK) {
      gzclose(file);
      ArrowBufferReset(out);
      ArrowErrorSet(error, "out of memory reading '%s'", path);
      return ENOMEM;
    }
    n_read = gzread(file, out->data + out->size_bytes, 65536);
    if (n_read < 0) {
      int errnum;
      const char* message = gzerror(file, &errnum);
      ArrowErrorSet(error, "cannot read '%s': %s", path,
                    errnum == Z_ERRNO ? strerror(errno) : message);
      gzclose(file);
      ArrowBufferReset(out);
      return EIO;
    }
    out->size_bytes += n_read;
    if (out->size_bytes > max_size_bytes) {
      gzclose(file);
      ArrowBufferReset(out);
      ArrowErrorSet(error, "'%s' is larger than %" PRId64 " bytes", path, max_size_bytes);
      return ERANGE;
    }
  } while (n_read > 0);

  gzclose(file);
  return NANOARROW_OK;
}

/* ---- Parsed documents ---- */

/* Dictionary-encoded fields of a schema, keyed by their value schema (a heap node
 * that keeps its address when the root schema is moved). */
struct JsonDictIds {
  const struct ArrowSchema** keys;
  int64_t* ids;
  int64_t n;
  int64_t capacity;
};

struct JsonDocument {
  json_t* root;
  json_t* batches;      /* array or NULL */
  json_t* dictionaries; /* array or NULL */
  struct ArrowSchema schema;
  struct JsonDictIds dict_ids;
  /* The allocator of every buffer of the arrays read. */
  struct ArrowBufferAllocator allocator;
};

static void JsonDictIdsReset(struct JsonDictIds* ids) {
  ArrowFree((void*)ids->keys);
  ArrowFree(ids->ids);
  memset(ids, 0, sizeof(*ids));
}

static ArrowErrorCode JsonDictIdsAppend(struct JsonDictIds* ids,
                                        const struct ArrowSchema* key, int64_t id) {
  if (ids->n == ids->capacity) {
    int64_t capacity = ids->capacity == 0 ? 8 : ids->capacity * 2;
    const struct ArrowSchema** keys =
        (const struct ArrowSchema**)ArrowRealloc((void*)ids->keys, capacity * sizeof(*keys));
    int64_t* values;
    if (keys == NULL) return ENOMEM;
    ids->keys = keys;
    values = (int64_t*)ArrowRealloc(ids->ids, capacity * sizeof(*values));
    if (values == NULL) return ENOMEM;
    ids->ids = values;
    ids->capacity = capacity;
  }
  ids->keys[ids->n] = key;
  ids->ids[ids->n] = id;
  ids->n++;
  return NANOARROW_OK;
}

static void JsonDocumentReset(struct JsonDocument* doc) {
  if (doc->root != NULL) json_decref(doc->root);
  if (doc->schema.release != NULL) ArrowSchemaRelease(&doc->schema);
  JsonDictIdsReset(&doc->dict_ids);
  memset(doc, 0, sizeof(*doc));
}

/* ---- Small value readers ---- */

static const char* JsonTypeName(const json_t* value) {
  switch (json_typeof(value)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "number";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
  }
}

/* A required member of object of the given type (JSON_TRUE stands for boolean). */
static ArrowErrorCode JsonGetMember(const json_t* object, const char* key, json_type type,
                                   json_t** out, struct ArrowError* error) {
  json_t* value = json_object_get(object, key);
  if (value == NULL) {
    ArrowErrorSet(error, "missing member \"%s\"", key);
    return EINVAL;
  }
  if (type == JSON_TRUE ? !json_is_boolean(value) : json_typeof(value) != type) {
    ArrowErrorSet(error, "member \"%s\" is a %s", key, JsonTypeName(value));
    return EINVAL;
  }
  *out = value;
  return NANOARROW_OK;
}

/* Parses an optionally signed decimal integer (no spaces) in [min, max]. */
static int ParseInt64Text(const char* text, size_t size, int64_t* out) {
  uint64_t magnitude = 0;
  size_t i = 0;
  int negative = 0;
  if (size > 0 && text[0] == '-') {
    negative = 1;
    i = 1;
  }
  if (i == size || size > 21) return 0;
  for (; i < size; i++) {
    if (text[i] < '0' || text[i] > '9') return 0;
    if (magnitude > (UINT64_MAX - 9) / 10) return 0;
    magnitude = magnitude * 10 + (uint64_t)(text[i] - '0');
  }
  if (negative) {
    if (magnitude > (uint64_t)INT64_MAX + 1) return 0;
    *out = magnitude == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)magnitude;
  } else {
    if (magnitude > (uint64_t)INT64_MAX) return 0;
    *out = (int64_t)magnitude;
  }
  return 1;
}

static int ParseUInt64Text(const char* text, size_t size, uint64_t* out) {
  uint64_t value = 0;
  size_t i;
  if (size == 0 || size > 20) return 0;
  for (i = 0; i < size; i++) {
    uint64_t digit;
    if (text[i] < '0' || text[i] > '9') return 0;
    digit = (uint64_t)(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) return 0;
    value = value * 10 + digit;
  }
  *out = value;
  return 1;
}

/* An integer given as a JSON integer or as a string of digits. */
static int JsonToInt64(const json_t* value, int64_t* out) {
  if (json_is_integer(value)) {
    *out = (int64_t)json_integer_value(value);
    return 1;
  }
  if (json_is_string(value)) {
    return ParseInt64Text(json_string_value(value), json_string_length(value), out);
  }
  return 0;
}

static int JsonToUInt64(const json_t* value, uint64_t* out) {
  if (json_is_integer(value)) {
    if (json_integer_value(value) < 0) return 0;
    *out = (uint64_t)json_integer_value(value);
    return 1;
  }
  if (json_is_string(value)) {
    return ParseUInt64Text(json_string_value(value), json_string_length(value), out);
  }
  return 0;
}

static int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Appends the bytes a hex string spells; 0 when it is not hex. */
static ArrowErrorCode AppendHex(const json_t* value, struct ArrowBuffer* out,
                                int64_t* n_bytes, struct ArrowError* error) {
  const char* text;
  size_t size;
  size_t i;
  if (!json_is_string(value)) {
    ArrowErrorSet(error, "expected a hex string but found a %s", JsonTypeName(value));
    return EINVAL;
  }
  text = json_string_value(value);
  size = json_string_length(value);
  if (size % 2 != 0) {
    ArrowErrorSet(error, "hex string of odd length %zu", size);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, (int64_t)(size / 2)));
  for (i = 0; i < size; i += 2) {
    int high = HexDigit(text[i]);
    int low = HexDigit(text[i + 1]);
    if (high < 0 || low < 0) {
      ArrowErrorSet(error, "invalid hex digit in \"%.32s\"", text);
      return EINVAL;
    }
    out->data[out->size_bytes++] = (uint8_t)(high * 16 + low);
  }
  *n_bytes = (int64_t)(size / 2);
  return NANOARROW_OK;
}

/* ---- Schema ---- */

static ArrowErrorCode JsonReadField(const json_t* field, struct ArrowSchema* schema,
                                    struct JsonDictIds* ids, int depth,
                                    struct ArrowError* error);

static ArrowErrorCode JsonReadMetadata(const json_t* metadata, struct ArrowSchema* schema,
                                       struct ArrowError* error) {
  struct ArrowBuffer blob;
  size_t i;
  ArrowErrorCode rc = NANOARROW_OK;

  if (metadata == NULL || json_is_null(metadata)) return NANOARROW_OK;
  if (!json_is_array(metadata)) {
    ArrowErrorSet(error, "metadata is a %s, not an array", JsonTypeName(metadata));
    return EINVAL;
  }
  if (json_array_size(metadata) == 0) return NANOARROW_OK;

  NANOARROW_RETURN_NOT_OK(ArrowMetadataBuilderInit(&blob, NULL));
  for (i = 0; i < json_array_size(metadata) && rc == NANOARROW_OK; i++) {
    const json_t* item = json_array_get(metadata, i);
    json_t* key;
    json_t* value;
    rc = json_is_object(item) ? NANOARROW_OK : EINVAL;
    if (rc != NANOARROW_OK) ArrowErrorSet(error, "metadata[%zu] is not an object", i);
    if (rc == NANOARROW_OK) rc = JsonGetMember(item, "key", JSON_STRING, &key, error);
    if (rc == NANOARROW_OK) rc = JsonGetMember(item, "value", JSON_STRING, &value, error);
    if (rc == NANOARROW_OK) {
      struct ArrowStringView key_view = {json_string_value(key),
                                         (int64_t)json_string_length(key)};
      struct ArrowStringView value_view = {json_string_value(value),
                                           (int64_t)json_string_length(value)};
      rc = ArrowMetadataBuilderAppend(&blob, key_view, value_view);
    } else {
      ArrowTestingPrefixError(error, "metadata[%zu]", i);
    }
  }
  if (rc == NANOARROW_OK) rc = ArrowSchemaSetMetadata(schema, (const char*)blob.data);
  ArrowBufferReset(&blob);
  return rc;
}

static ArrowErrorCode JsonTimeUnit(const json_t* type, char* out, struct ArrowError* error) {
  json_t* unit;
  const char* text;
  NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "unit", JSON_STRING, &unit, error));
  text = json_string_value(unit);
  if (strcmp(text, "SECOND") == 0) {
    *out = 's';
  } else if (strcmp(text, "MILLISECOND") == 0) {
    *out = 'm';
  } else if (strcmp(text, "MICROSECOND") == 0) {
    *out = 'u';
  } else if (strcmp(text, "NANOSECOND") == 0) {
    *out = 'n';
  } else {
    ArrowErrorSet(error, "unknown time unit \"%s\"", text);
    return EINVAL;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode JsonIntFormat(const json_t* type, const char** out,
                                    struct ArrowError* error) {
  json_t* is_signed;
  json_t* bit_width;
  NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "isSigned", JSON_TRUE, &is_signed, error));
  NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "bitWidth", JSON_INTEGER, &bit_width, error));
  switch (json_integer_value(bit_width)) {
    case 8: *out = json_is_true(is_signed) ? "c" : "C"; break;
    case 16: *out = json_is_true(is_signed) ? "s" : "S"; break;
    case 32: *out = json_is_true(is_signed) ? "i" : "I"; break;
    case 64: *out = json_is_true(is_signed) ? "l" : "L"; break;
    default:
      ArrowErrorSet(error, "int bitWidth %" JSON_INTEGER_FORMAT " is not 8, 16, 32 or 64",
                    json_integer_value(bit_width));
      return EINVAL;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode JsonPositiveInt32(const json_t* type, const char* key, int32_t* out,
                                        struct ArrowError* error) {
  json_t* value;
  NANOARROW_RETURN_NOT_OK(JsonGetMember(type, key, JSON_INTEGER, &value, error));
  if (json_integer_value(value) < 0 || json_integer_value(value) > INT32_MAX) {
    ArrowErrorSet(error, "%s %" JSON_INTEGER_FORMAT " is out of range", key,
                  json_integer_value(value));
    return EINVAL;
  }
  *out = (int32_t)json_integer_value(value);
  return NANOARROW_OK;
}

/* The format string of a JSON type object (flags may gain MAP_KEYS_SORTED). */
static ArrowErrorCode JsonTypeFormat(const json_t* type, char* format, size_t format_size,
                                     int64_t* flags, struct ArrowError* error) {
  json_t* name_value;
  const char* name;
  const char* simple = NULL;
  char unit;
  int32_t n;

  if (!json_is_object(type)) {
    ArrowErrorSet(error, "type is a %s, not an object", JsonTypeName(type));
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "name", JSON_STRING, &name_value, error));
  name = json_string_value(name_value);

  if (strcmp(name, "null") == 0) simple = "n";
  else if (strcmp(name, "bool") == 0) simple = "b";
  else if (strcmp(name, "binary") == 0) simple = "z";
  else if (strcmp(name, "largebinary") == 0) simple = "Z";
  else if (strcmp(name, "utf8") == 0) simple = "u";
  else if (strcmp(name, "largeutf8") == 0) simple = "U";
  else if (strcmp(name, "binaryview") == 0) simple = "vz";
  else if (strcmp(name, "utf8view") == 0) simple = "vu";
  else if (strcmp(name, "list") == 0) simple = "+l";
  else if (strcmp(name, "largelist") == 0) simple = "+L";
  else if (strcmp(name, "listview") == 0) simple = "+vl";
  else if (strcmp(name, "largelistview") == 0) simple = "+vL";
  else if (strcmp(name, "struct") == 0) simple = "+s";
  else if (strcmp(name, "runendencoded") == 0) simple = "+r";

  if (simple != NULL) {
    snprintf(format, format_size, "%s", simple);
  } else if (strcmp(name, "int") == 0) {
    NANOARROW_RETURN_NOT_OK(JsonIntFormat(type, &simple, error));
    snprintf(format, format_size, "%s", simple);
  } else if (strcmp(name, "floatingpoint") == 0) {
    json_t* precision;
    const char* text;
    NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "precision", JSON_STRING, &precision, error));
    text = json_string_value(precision);
    if (strcmp(text, "HALF") == 0) simple = "e";
    else if (strcmp(text, "SINGLE") == 0) simple = "f";
    else if (strcmp(text, "DOUBLE") == 0) simple = "g";
    else {
      ArrowErrorSet(error, "unknown floatingpoint precision \"%s\"", text);
      return EINVAL;
    }
    snprintf(format, format_size, "%s", simple);
  } else if (strcmp(name, "fixedsizebinary") == 0) {
    NANOARROW_RETURN_NOT_OK(JsonPositiveInt32(type, "byteWidth", &n, error));
    snprintf(format, format_size, "w:%" PRId32, n);
  } else if (strcmp(name, "fixedsizelist") == 0) {
    NANOARROW_RETURN_NOT_OK(JsonPositiveInt32(type, "listSize", &n, error));
    snprintf(format, format_size, "+w:%" PRId32, n);
  } else if (strcmp(name, "decimal") == 0) {
    int32_t precision;
    int32_t scale;
    json_t* scale_value;
    json_t* bit_width = json_object_get(type, "bitWidth");
    int64_t bits = 128;
    NANOARROW_RETURN_NOT_OK(JsonPositiveInt32(type, "precision", &precision, error));
    NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "scale", JSON_INTEGER, &scale_value, error));
    if (json_integer_value(scale_value) < INT32_MIN ||
        json_integer_value(scale_value) > INT32_MAX) {
      ArrowErrorSet(error, "decimal scale is out of range");
      return EINVAL;
    }
    scale = (int32_t)json_integer_value(scale_value);
    if (bit_width != NULL) {
      if (!json_is_integer(bit_width)) {
        ArrowErrorSet(error, "decimal bitWidth is a %s", JsonTypeName(bit_width));
        return EINVAL;
      }
      bits = (int64_t)json_integer_value(bit_width);
    }
    if (bits == 128) {
      snprintf(format, format_size, "d:%" PRId32 ",%" PRId32, precision, scale);
    } else if (bits == 32 || bits == 64 || bits == 256) {
      snprintf(format, format_size, "d:%" PRId32 ",%" PRId32 ",%" PRId64, precision, scale,
               bits);
    } else {
      ArrowErrorSet(error, "decimal bitWidth %" PRId64 " is not 32, 64, 128 or 256", bits);
      return EINVAL;
    }
  } else if (strcmp(name, "date") == 0) {
    json_t* unit_value;
    NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "unit", JSON_STRING, &unit_value, error));
    if (strcmp(json_string_value(unit_value), "DAY") == 0) {
      snprintf(format, format_size, "tdD");
    } else if (strcmp(json_string_value(unit_value), "MILLISECOND") == 0) {
      snprintf(format, format_size, "tdm");
    } else {
      ArrowErrorSet(error, "unknown date unit \"%s\"", json_string_value(unit_value));
      return EINVAL;
    }
  } else if (strcmp(name, "time") == 0) {
    json_t* bit_width;
    NANOARROW_RETURN_NOT_OK(JsonTimeUnit(type, &unit, error));
    NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "bitWidth", JSON_INTEGER, &bit_width, error));
    if ((json_integer_value(bit_width) != 32 || (unit != 's' && unit != 'm')) &&
        (json_integer_value(bit_width) != 64 || (unit != 'u' && unit != 'n'))) {
      ArrowErrorSet(error, "time bitWidth %" JSON_INTEGER_FORMAT " does not fit unit '%c'",
                    json_integer_value(bit_width), unit);
      return EINVAL;
    }
    snprintf(format, format_size, "tt%c", unit);
  } else if (strcmp(name, "timestamp") == 0) {
    json_t* timezone = json_object_get(type, "timezone");
    NANOARROW_RETURN_NOT_OK(JsonTimeUnit(type, &unit, error));
    if (timezone != NULL && !json_is_null(timezone) && !json_is_string(timezone)) {
      ArrowErrorSet(error, "timestamp timezone is a %s", JsonTypeName(timezone));
      return EINVAL;
    }
    if (timezone != NULL && json_is_string(timezone) &&
        json_string_length(timezone) + 8 > format_size) {
      ArrowErrorSet(error, "timestamp timezone is too long");
      return EINVAL;
    }
    snprintf(format, format_size, "ts%c:%s", unit,
             json_is_string(timezone) ? json_string_value(timezone) : "");
  } else if (strcmp(name, "duration") == 0) {
    NANOARROW_RETURN_NOT_OK(JsonTimeUnit(type, &unit, error));
    snprintf(format, format_size, "tD%c", unit);
  } else if (strcmp(name, "interval") == 0) {
    json_t* unit_value;
    const char* text;
    NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "unit", JSON_STRING, &unit_value, error));
    text = json_string_value(unit_value);
    if (strcmp(text, "YEAR_MONTH") == 0) simple = "tiM";
    else if (strcmp(text, "DAY_TIME") == 0) simple = "tiD";
    else if (strcmp(text, "MONTH_DAY_NANO") == 0) simple = "tin";
    else {
      ArrowErrorSet(error, "unknown interval unit \"%s\"", text);
      return EINVAL;
    }
    snprintf(format, format_size, "%s", simple);
  } else if (strcmp(name, "map") == 0) {
    json_t* keys_sorted = json_object_get(type, "keysSorted");
    if (keys_sorted != NULL && json_is_true(keys_sorted)) *flags |= ARROW_FLAG_MAP_KEYS_SORTED;
    snprintf(format, format_size, "+m");
  } else if (strcmp(name, "union") == 0) {
    json_t* mode;
    json_t* type_ids;
    size_t i;
    size_t used;
    NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "mode", JSON_STRING, &mode, error));
    NANOARROW_RETURN_NOT_OK(JsonGetMember(type, "typeIds", JSON_ARRAY, &type_ids, error));
    if (strcmp(json_string_value(mode), "SPARSE") == 0) {
      used = (size_t)snprintf(format, format_size, "+us:");
    } else if (strcmp(json_string_value(mode), "DENSE") == 0) {
      used = (size_t)snprintf(format, format_size, "+ud:");
    } else {
      ArrowErrorSet(error, "unknown union mode \"%s\"", json_string_value(mode));
      return EINVAL;
    }
    if (json_array_size(type_ids) > 128) {
      ArrowErrorSet(error, "union has %zu type ids (at most 128)", json_array_size(type_ids));
      return EINVAL;
    }
    for (i = 0; i < json_array_size(type_ids); i++) {
      const json_t* id = json_array_get(type_ids, i);
      if (!json_is_integer(id) || json_integer_value(id) < 0 || json_integer_value(id) > 127) {
        ArrowErrorSet(error, "union typeIds[%zu] is not an integer in [0, 127]", i);
        return EINVAL;
      }
      used += (size_t)snprintf(format + used, format_size - used, "%s%d", i > 0 ? "," : "",
                               (int)json_integer_value(id));
    }
  } else {
    /* ENOTSUP, as for any type this reader cannot represent: a caller reading a
     * corpus may skip such files. */
    ArrowErrorSet(error, "unknown type name \"%s\"", name);
    return ENOTSUP;
  }
  return NANOARROW_OK;
}

static ArrowErrorCode JsonReadChildren(const json_t* children, struct ArrowSchema* schema,
                                       struct JsonDictIds* ids, int depth,
                                       struct ArrowError* error) {
  size_t i;
  size_t n = children == NULL ? 0 : json_array_size(children);
  if (children != NULL && !json_is_array(children)) {
    ArrowErrorSet(error, "children is a %s, not an array", JsonTypeName(children));
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaAllocateChildren(schema, (int64_t)n));
  for (i = 0; i < n; i++) ArrowSchemaInit(schema->children[i]);
  for (i = 0; i < n; i++) {
    ArrowErrorCode rc =
        JsonReadField(json_array_get(children, i), schema->children[i], ids, depth + 1, error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "children[%zu]", i);
      return rc;
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode JsonReadField(const json_t* field, struct ArrowSchema* schema,
                                    struct JsonDictIds* ids, int depth,
                                    struct ArrowError* error) {
  json_t* name = json_object_get(field, "name");
  json_t* nullable = json_object_get(field, "nullable");
  json_t* dictionary = json_object_get(field, "dictionary");
  json_t* type;
  struct ArrowSchema* value_schema = schema;
  struct ArrowSchemaView view;
  char format[1100];
  int64_t flags = 0;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "fields are nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  schema->flags = 0;
  if (!json_is_object(field)) {
    ArrowErrorSet(error, "field is a %s, not an object", JsonTypeName(field));
    return EINVAL;
  }
  if (name != NULL && !json_is_null(name)) {
    if (!json_is_string(name)) {
      ArrowErrorSet(error, "field name is a %s", JsonTypeName(name));
      return EINVAL;
    }
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(schema, json_string_value(name)));
  }
  if (nullable != NULL && !json_is_boolean(nullable)) {
    ArrowErrorSet(error, "field '%s': nullable is a %s", ArrowTestingFieldName(schema),
                  JsonTypeName(nullable));
    return EINVAL;
  }
  if (nullable == NULL || json_is_true(nullable)) flags |= ARROW_FLAG_NULLABLE;

  if (dictionary != NULL && !json_is_null(dictionary)) {
    json_t* id;
    json_t* index_type;
    json_t* is_ordered;
    const char* index_format;
    ArrowErrorCode rc = json_is_object(dictionary) ? NANOARROW_OK : EINVAL;
    if (rc != NANOARROW_OK) ArrowErrorSet(error, "dictionary is not an object");
    if (rc == NANOARROW_OK) rc = JsonGetMember(dictionary, "id", JSON_INTEGER, &id, error);
    if (rc == NANOARROW_OK) {
      rc = JsonGetMember(dictionary, "indexType", JSON_OBJECT, &index_type, error);
    }
    if (rc == NANOARROW_OK) rc = JsonIntFormat(index_type, &index_format, error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "field '%s': dictionary", ArrowTestingFieldName(schema));
      return rc;
    }
    is_ordered = json_object_get(dictionary, "isOrdered");
    if (is_ordered != NULL && json_is_true(is_ordered)) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetFormat(schema, index_format));
    NANOARROW_RETURN_NOT_OK(ArrowSchemaAllocateDictionary(schema));
    value_schema = schema->dictionary;
    ArrowSchemaInit(value_schema);
    value_schema->flags = flags & ARROW_FLAG_NULLABLE;
    NANOARROW_RETURN_NOT_OK(
        JsonDictIdsAppend(ids, value_schema, (int64_t)json_integer_value(id)));
  }

  type = json_object_get(field, "type");
  if (type == NULL) {
    ArrowErrorSet(error, "field '%s': missing member \"type\"", ArrowTestingFieldName(schema));
    return EINVAL;
  }
  {
    int64_t type_flags = 0;
    ArrowErrorCode rc = JsonTypeFormat(type, format, sizeof(format), &type_flags, error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "field '%s'", ArrowTestingFieldName(schema));
      return rc;
    }
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetFormat(value_schema, format));
    value_schema->flags |= type_flags;
  }
  schema->flags |= flags;

  {
    ArrowErrorCode rc =
        JsonReadChildren(json_object_get(field, "children"), value_schema, ids, depth, error);
    if (rc == NANOARROW_OK) rc = JsonReadMetadata(json_object_get(field, "metadata"), schema, error);
    if (rc == NANOARROW_OK) rc = ArrowSchemaViewInit(&view, value_schema, error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "field '%s'", ArrowTestingFieldName(schema));
      return rc;
    }
  }
  return NANOARROW_OK;
}

/* The schema object ({"fields": ..., "metadata": ...}) into a "+s" schema. */
static ArrowErrorCode JsonReadSchemaObject(const json_t* object, struct ArrowSchema* out,
                                           struct JsonDictIds* ids,
                                           struct ArrowError* error) {
  json_t* fields;
  ArrowErrorCode rc;

  if (!json_is_object(object)) {
    ArrowErrorSet(error, "schema is a %s, not an object", JsonTypeName(object));
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(JsonGetMember(object, "fields", JSON_ARRAY, &fields, error));

  ArrowSchemaInit(out);
  /* A schema has no nullability of its own: the root struct's flags are 0, as the IPC
   * reader (and nanoarrow's readers) leave them. */
  out->flags = 0;
  rc = ArrowSchemaSetFormat(out, "+s");
  if (rc == NANOARROW_OK) rc = JsonReadChildren(fields, out, ids, 0, error);
  if (rc == NANOARROW_OK) rc = JsonReadMetadata(json_object_get(object, "metadata"), out, error);
  if (rc != NANOARROW_OK) {
    ArrowTestingPrefixError(error, "schema");
    ArrowSchemaRelease(out);
  }
  return rc;
}

static ArrowErrorCode JsonDocumentParse(const char* json, int64_t size_bytes,
                                        struct JsonDocument* doc, struct ArrowError* error) {
  json_error_t json_error;
  json_t* schema;
  ArrowErrorCode rc;

  memset(doc, 0, sizeof(*doc));
  doc->allocator = ArrowBufferAllocatorDefault();
  if (size_bytes < 0 || (json == NULL && size_bytes > 0)) return EINVAL;
  doc->root = json_loadb(json, (size_t)size_bytes, JSON_ALLOW_NUL, &json_error);
  if (doc->root == NULL) {
    ArrowErrorSet(error, "invalid JSON at line %d column %d: %s", json_error.line,
                  json_error.column, json_error.text);
    return EINVAL;
  }
  if (!json_is_object(doc->root)) {
    ArrowErrorSet(error, "the JSON document is a %s, not an object",
                  JsonTypeName(doc->root));
    JsonDocumentReset(doc);
    return EINVAL;
  }

  schema = json_object_get(doc->root, "schema");
  if (schema == NULL && json_object_get(doc->root, "fields") != NULL) schema = doc->root;
  if (schema == NULL) {
    ArrowErrorSet(error, "the JSON document has no \"schema\"");
    JsonDocumentReset(doc);
    return EINVAL;
  }
  rc = JsonReadSchemaObject(schema, &doc->schema, &doc->dict_ids, error);
  if (rc != NANOARROW_OK) {
    JsonDocumentReset(doc);
    return rc;
  }

  doc->batches = json_object_get(doc->root, "batches");
  doc->dictionaries = json_object_get(doc->root, "dictionaries");
  if ((doc->batches != NULL && !json_is_array(doc->batches)) ||
      (doc->dictionaries != NULL && !json_is_array(doc->dictionaries))) {
    ArrowErrorSet(error, "\"batches\" and \"dictionaries\" must be arrays");
    JsonDocumentReset(doc);
    return EINVAL;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowTestingJsonReadSchema(const char* json, int64_t size_bytes,
                                          struct ArrowSchema* out,
                                          struct ArrowError* error) {
  struct JsonDocument doc;
  NANOARROW_RETURN_NOT_OK(JsonDocumentParse(json, size_bytes, &doc, error));
  ArrowSchemaMove(&doc.schema, out);
  JsonDocumentReset(&doc);
  return NANOARROW_OK;
}

/* ---- Columns ---- */

static ArrowErrorCode JsonReadColumn(const struct JsonDocument* doc,
                                     const struct ArrowSchema* schema, const json_t* column,
                                     struct ArrowArray* array, int depth,
                                     struct ArrowError* error);

/* Gives the fixed buffers of array (still empty) the document's allocator. Only
 * those of its layout: others may hold the library's own bookkeeping. */
static ArrowErrorCode JsonUseAllocator(const struct JsonDocument* doc,
                                       struct ArrowArray* array, struct ArrowError* error) {
  int64_t i;
  for (i = 0; i < array->n_buffers && i < NANOARROW_MAX_FIXED_BUFFERS; i++) {
    if (ArrowBufferSetAllocator(ArrowArrayBuffer(array, i), doc->allocator) != NANOARROW_OK) {
      ArrowErrorSet(error, "buffer %" PRId64 " was allocated before its allocator was set", i);
      return EINVAL;
    }
  }
  return NANOARROW_OK;
}

/* A buffer member (array) that must hold exactly n items. NULL when absent. */
static ArrowErrorCode JsonGetBuffer(const json_t* column, const char* key, int64_t n,
                                    int required, json_t** out, struct ArrowError* error) {
  json_t* value = json_object_get(column, key);
  *out = NULL;
  if (value == NULL) {
    if (!required) return NANOARROW_OK;
    ArrowErrorSet(error, "missing member \"%s\"", key);
    return EINVAL;
  }
  if (!json_is_array(value)) {
    ArrowErrorSet(error, "%s is a %s, not an array", key, JsonTypeName(value));
    return EINVAL;
  }
  if ((int64_t)json_array_size(value) != n) {
    ArrowErrorSet(error, "%s has %zu items but %" PRId64 " are expected", key,
                  json_array_size(value), n);
    return EINVAL;
  }
  *out = value;
  return NANOARROW_OK;
}

/* Appends every item of items (integers or strings of digits) as storage type. */
static ArrowErrorCode JsonAppendIntegers(const json_t* items, enum ArrowType type,
                                         struct ArrowBuffer* out, const char* what,
                                         struct ArrowError* error) {
  size_t n = json_array_size(items);
  size_t i;
  int64_t lo = 0;
  int64_t hi = 0;
  int width;
  int is_unsigned = 0;

  switch (type) {
    case NANOARROW_TYPE_INT8: lo = INT8_MIN; hi = INT8_MAX; width = 1; break;
    case NANOARROW_TYPE_UINT8: hi = UINT8_MAX; width = 1; break;
    case NANOARROW_TYPE_INT16: lo = INT16_MIN; hi = INT16_MAX; width = 2; break;
    case NANOARROW_TYPE_UINT16: hi = UINT16_MAX; width = 2; break;
    case NANOARROW_TYPE_INT32: lo = INT32_MIN; hi = INT32_MAX; width = 4; break;
    case NANOARROW_TYPE_UINT32: hi = UINT32_MAX; width = 4; break;
    case NANOARROW_TYPE_INT64: lo = INT64_MIN; hi = INT64_MAX; width = 8; break;
    case NANOARROW_TYPE_UINT64: is_unsigned = 1; width = 8; break;
    default:
      ArrowErrorSet(error, "%s: type %d is not an integer type", what, (int)type);
      return EINVAL;
  }

  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, (int64_t)n * width));
  for (i = 0; i < n; i++) {
    const json_t* item = json_array_get(items, i);
    int64_t value = 0;
    uint64_t uvalue = 0;
    int ok = is_unsigned ? JsonToUInt64(item, &uvalue) : JsonToInt64(item, &value);
    if (!ok || (!is_unsigned && (value < lo || value > hi))) {
      if (json_is_string(item)) {
        ArrowErrorSet(error, "%s[%zu] \"%.40s\" is not a %s integer", what, i,
                      json_string_value(item), ArrowTypeString(type));
      } else {
        ArrowErrorSet(error, "%s[%zu] (a %s) is not a %s integer", what, i,
                      JsonTypeName(item), ArrowTypeString(type));
      }
      return EINVAL;
    }
    switch (width) {
      case 1: {
        uint8_t v = (uint8_t)value;
        ArrowBufferAppendUnsafe(out, &v, 1);
        break;
      }
      case 2: {
        uint16_t v = (uint16_t)value;
        ArrowBufferAppendUnsafe(out, &v, 2);
        break;
      }
      case 4: {
        uint32_t v = (uint32_t)value;
        ArrowBufferAppendUnsafe(out, &v, 4);
        break;
      }
      default: {
        uint64_t v = is_unsigned ? uvalue : (uint64_t)value;
        ArrowBufferAppendUnsafe(out, &v, 8);
        break;
      }
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode JsonAppendFloats(const json_t* items, enum ArrowType type,
                                       struct ArrowBuffer* out, struct ArrowError* error) {
  size_t n = json_array_size(items);
  size_t i;
  int width = type == NANOARROW_TYPE_DOUBLE ? 8 : (type == NANOARROW_TYPE_FLOAT ? 4 : 2);
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, (int64_t)n * width));
  for (i = 0; i < n; i++) {
    const json_t* item = json_array_get(items, i);
    double value;
    if (!json_is_number(item)) {
      ArrowErrorSet(error, "DATA[%zu] is a %s, not a number", i, JsonTypeName(item));
      return EINVAL;
    }
    value = json_number_value(item);
    if (width == 8) {
      ArrowBufferAppendUnsafe(out, &value, 8);
    } else if (width == 4) {
      float v = (float)value;
      ArrowBufferAppendUnsafe(out, &v, 4);
    } else {
      uint16_t v = ArrowFloatToHalfFloat((float)value);
      ArrowBufferAppendUnsafe(out, &v, 2);
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode JsonAppendBools(const json_t* items, struct ArrowBuffer* out,
                                      const char* what, int64_t* n_true,
                                      struct ArrowError* error) {
  size_t n = json_array_size(items);
  size_t i;
  NANOARROW_RETURN_NOT_OK(ArrowBufferResize(out, ArrowBytesForBits((int64_t)n), 0));
  if (n > 0) memset(out->data, 0, (size_t)out->size_bytes);
  *n_true = 0;
  for (i = 0; i < n; i++) {
    const json_t* item = json_array_get(items, i);
    int bit;
    if (json_is_boolean(item)) {
      bit = json_is_true(item);
    } else if (json_is_integer(item) &&
               (json_integer_value(item) == 0 || json_integer_value(item) == 1)) {
      bit = (int)json_integer_value(item);
    } else {
      ArrowErrorSet(error, "%s[%zu] is not 0, 1, true or false", what, i);
      return EINVAL;
    }
    if (bit) {
      ArrowBitSet(out->data, (int64_t)i);
      (*n_true)++;
    }
  }
  return NANOARROW_OK;
}

/* DATA of binary-like types: utf8 strings, or hex for binary. */
static ArrowErrorCode JsonAppendBytes(const json_t* item, int is_utf8,
                                      struct ArrowBuffer* out, int64_t* n_bytes,
                                      struct ArrowError* error) {
  if (!json_is_string(item)) {
    ArrowErrorSet(error, "expected a string but found a %s", JsonTypeName(item));
    return EINVAL;
  }
  if (is_utf8) {
    *n_bytes = (int64_t)json_string_length(item);
    return ArrowBufferAppend(out, json_string_value(item), *n_bytes);
  }
  return AppendHex(item, out, n_bytes, error);
}

static ArrowErrorCode JsonReadBinary(const json_t* column, const struct ArrowSchemaView* view,
                                     int64_t count, struct ArrowArray* array,
                                     struct ArrowError* error) {
  json_t* offsets;
  json_t* data;
  int is_large = view->storage_type == NANOARROW_TYPE_LARGE_BINARY ||
                 view->storage_type == NANOARROW_TYPE_LARGE_STRING;
  int is_utf8 = view->storage_type == NANOARROW_TYPE_STRING ||
                view->storage_type == NANOARROW_TYPE_LARGE_STRING;
  struct ArrowBuffer* offset_buffer = ArrowArrayBuffer(array, 1);
  struct ArrowBuffer* data_buffer = ArrowArrayBuffer(array, 2);
  int64_t i;

  NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "DATA", count, 1, &data, error));
  NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "OFFSET", count + 1, count > 0, &offsets, error));
  if (offsets != NULL) {
    NANOARROW_RETURN_NOT_OK(JsonAppendIntegers(
        offsets, is_large ? NANOARROW_TYPE_INT64 : NANOARROW_TYPE_INT32, offset_buffer,
        "OFFSET", error));
  } else {
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(offset_buffer, 0, is_large ? 8 : 4));
  }

  for (i = 0; i < count; i++) {
    int64_t n_bytes;
    int64_t expected;
    ArrowErrorCode rc =
        JsonAppendBytes(json_array_get(data, (size_t)i), is_utf8, data_buffer, &n_bytes, error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "DATA[%" PRId64 "]", i);
      return rc;
    }
    /* Offsets must agree with the strings (validation then checks the rest). */
    if (is_large) {
      const int64_t* o = (const int64_t*)offset_buffer->data;
      expected = o[i + 1] - o[i];
      if (o[i + 1] < o[i]) expected = -1;
    } else {
      const int32_t* o = (const int32_t*)offset_buffer->data;
      expected = (int64_t)o[i + 1] - (int64_t)o[i];
    }
    if (expected != n_bytes) {
      ArrowErrorSet(error, "DATA[%" PRId64 "] has %" PRId64
                    " bytes but OFFSET says %" PRId64, i, n_bytes, expected);
      return EINVAL;
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode JsonReadViews(const struct JsonDocument* doc, const json_t* column,
                                    const struct ArrowSchemaView* view, int64_t count,
                                    struct ArrowArray* array, struct ArrowError* error) {
  struct ArrowArrayPrivateData* private_data =
      (struct ArrowArrayPrivateData*)array->private_data;
  int is_utf8 = view->storage_type == NANOARROW_TYPE_STRING_VIEW;
  struct ArrowBuffer* view_buffer = ArrowArrayBuffer(array, 1);
  json_t* views;
  json_t* variadic = json_object_get(column, "VARIADIC_DATA_BUFFERS");
  size_t n_variadic;
  int64_t i;

  NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "VIEWS", count, 1, &views, error));
  if (variadic != NULL && !json_is_array(variadic)) {
    ArrowErrorSet(error, "VARIADIC_DATA_BUFFERS is not an array");
    return EINVAL;
  }
  n_variadic = variadic == NULL ? 0 : json_array_size(variadic);
  if (n_variadic > INT32_MAX) return EINVAL;
  NANOARROW_RETURN_NOT_OK(ArrowArrayAddVariadicBuffers(array, (int32_t)n_variadic));
  for (i = 0; i < (int64_t)n_variadic; i++) {
    int64_t n_bytes;
    ArrowErrorCode rc =
        ArrowBufferSetAllocator(&private_data->variadic_buffers[i], doc->allocator);
    if (rc != NANOARROW_OK) ArrowErrorSet(error, "allocated before its allocator was set");
    if (rc == NANOARROW_OK) {
      rc = AppendHex(json_array_get(variadic, (size_t)i), &private_data->variadic_buffers[i],
                     &n_bytes, error);
    }
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "VARIADIC_DATA_BUFFERS[%" PRId64 "]", i);
      return rc;
    }
  }

  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(view_buffer, count * 16));
  for (i = 0; i < count; i++) {
    const json_t* item = json_array_get(views, (size_t)i);
    union ArrowBinaryView bv;
    json_t* size;
    json_t* inlined;
    ArrowErrorCode rc = json_is_object(item) ? NANOARROW_OK : EINVAL;
    memset(&bv, 0, sizeof(bv));
    if (rc != NANOARROW_OK) ArrowErrorSet(error, "not an object");
    if (rc == NANOARROW_OK) rc = JsonGetMember(item, "SIZE", JSON_INTEGER, &size, error);
    if (rc == NANOARROW_OK &&
        (json_integer_value(size) < 0 || json_integer_value(size) > INT32_MAX)) {
      ArrowErrorSet(error, "SIZE %" JSON_INTEGER_FORMAT " is out of range",
                    json_integer_value(size));
      rc = EINVAL;
    }
    if (rc == NANOARROW_OK) {
      bv.inlined.size = (int32_t)json_integer_value(size);
      inlined = json_object_get(item, "INLINED");
      if (bv.inlined.size <= NANOARROW_BINARY_VIEW_INLINE_SIZE) {
        struct ArrowBuffer bytes;
        int64_t n_bytes = 0;
        ArrowBufferInit(&bytes);
        rc = inlined == NULL ? EINVAL : NANOARROW_OK;
        if (rc != NANOARROW_OK) ArrowErrorSet(error, "missing member \"INLINED\"");
        if (rc == NANOARROW_OK) rc = JsonAppendBytes(inlined, is_utf8, &bytes, &n_bytes, error);
        if (rc == NANOARROW_OK && n_bytes != bv.inlined.size) {
          ArrowErrorSet(error, "INLINED has %" PRId64 " bytes but SIZE is %d", n_bytes,
                        (int)bv.inlined.size);
          rc = EINVAL;
        }
        if (rc == NANOARROW_OK && n_bytes > 0) memcpy(bv.inlined.data, bytes.data, (size_t)n_bytes);
        ArrowBufferReset(&bytes);
      } else {
        json_t* prefix;
        json_t* buffer_index;
        json_t* offset;
        struct ArrowBuffer bytes;
        int64_t n_bytes = 0;
        ArrowBufferInit(&bytes);
        rc = JsonGetMember(item, "PREFIX_HEX", JSON_STRING, &prefix, error);
        if (rc == NANOARROW_OK) rc = AppendHex(prefix, &bytes, &n_bytes, error);
        if (rc == NANOARROW_OK && n_bytes != NANOARROW_BINARY_VIEW_PREFIX_SIZE) {
          ArrowErrorSet(error, "PREFIX_HEX has %" PRId64 " bytes, not 4", n_bytes);
          rc = EINVAL;
        }
        if (rc == NANOARROW_OK) memcpy(bv.ref.prefix, bytes.data, 4);
        ArrowBufferReset(&bytes);
        if (rc == NANOARROW_OK) {
          rc = JsonGetMember(item, "BUFFER_INDEX", JSON_INTEGER, &buffer_index, error);
        }
        if (rc == NANOARROW_OK) rc = JsonGetMember(item, "OFFSET", JSON_INTEGER, &offset, error);
        if (rc == NANOARROW_OK &&
            (json_integer_value(buffer_index) < 0 ||
             json_integer_value(buffer_index) > INT32_MAX ||
             json_integer_value(offset) < 0 || json_integer_value(offset) > INT32_MAX)) {
          ArrowErrorSet(error, "BUFFER_INDEX or OFFSET out of range");
          rc = EINVAL;
        }
        if (rc == NANOARROW_OK) {
          bv.ref.buffer_index = (int32_t)json_integer_value(buffer_index);
          bv.ref.offset = (int32_t)json_integer_value(offset);
        }
      }
    }
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "VIEWS[%" PRId64 "]", i);
      return rc;
    }
    ArrowBufferAppendUnsafe(view_buffer, &bv, sizeof(bv));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode JsonReadIntervals(const json_t* data, enum ArrowType type,
                                        struct ArrowBuffer* out, struct ArrowError* error) {
  size_t n = json_array_size(data);
  size_t i;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, (int64_t)n * 16));
  for (i = 0; i < n; i++) {
    const json_t* item = json_array_get(data, i);
    const char* keys[3];
    int64_t values[3];
    int n_keys;
    int k;
    if (type == NANOARROW_TYPE_INTERVAL_DAY_TIME) {
      keys[0] = "days";
      keys[1] = "milliseconds";
      n_keys = 2;
    } else {
      keys[0] = "months";
      keys[1] = "days";
      keys[2] = "nanoseconds";
      n_keys = 3;
    }
    if (!json_is_object(item)) {
      ArrowErrorSet(error, "DATA[%zu] is a %s, not an object", i, JsonTypeName(item));
      return EINVAL;
    }
    for (k = 0; k < n_keys; k++) {
      json_t* value = json_object_get(item, keys[k]);
      if (value == NULL || !JsonToInt64(value, &values[k]) ||
          (k < 2 && (values[k] < INT32_MIN || values[k] > INT32_MAX))) {
        ArrowErrorSet(error, "DATA[%zu].%s is missing or out of range", i, keys[k]);
        return EINVAL;
      }
    }
    {
      int32_t first = (int32_t)values[0];
      int32_t second = (int32_t)values[1];
      ArrowBufferAppendUnsafe(out, &first, 4);
      ArrowBufferAppendUnsafe(out, &second, 4);
      if (n_keys == 3) ArrowBufferAppendUnsafe(out, &values[2], 8);
    }
  }
  return NANOARROW_OK;
}

static ArrowErrorCode JsonReadDecimals(const json_t* data, const struct ArrowSchemaView* view,
                                       struct ArrowBuffer* out, struct ArrowError* error) {
  size_t n = json_array_size(data);
  size_t i;
  int64_t width = view->decimal_bitwidth / 8;
  uint8_t bytes[32];
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, (int64_t)n * width));
  for (i = 0; i < n; i++) {
    const json_t* item = json_array_get(data, i);
    struct ArrowDecimal decimal;
    struct ArrowStringView digits;
    ArrowDecimalInit(&decimal, view->decimal_bitwidth, view->decimal_precision,
                     view->decimal_scale);
    if (!json_is_string(item)) {
      ArrowErrorSet(error, "DATA[%zu] is a %s, not a string of digits", i, JsonTypeName(item));
      return EINVAL;
    }
    digits.data = json_string_value(item);
    digits.size_bytes = (int64_t)json_string_length(item);
    if (ArrowDecimalSetDigits(&decimal, digits) != NANOARROW_OK) {
      ArrowErrorSet(error, "DATA[%zu] \"%.60s\" is not a %d-bit decimal", i, digits.data,
                    (int)view->decimal_bitwidth);
      return EINVAL;
    }
    ArrowDecimalGetBytes(&decimal, bytes);
    ArrowBufferAppendUnsafe(out, bytes, width);
  }
  return NANOARROW_OK;
}

static const json_t* JsonFindDictionary(const struct JsonDocument* doc,
                                        const struct ArrowSchema* value_schema,
                                        int64_t* id_out) {
  int64_t k;
  size_t i;
  for (k = 0; k < doc->dict_ids.n; k++) {
    if (doc->dict_ids.keys[k] == value_schema) break;
  }
  if (k == doc->dict_ids.n) return NULL;
  *id_out = doc->dict_ids.ids[k];
  for (i = 0; doc->dictionaries != NULL && i < json_array_size(doc->dictionaries); i++) {
    const json_t* entry = json_array_get(doc->dictionaries, i);
    const json_t* id = json_object_get(entry, "id");
    if (id != NULL && json_is_integer(id) && json_integer_value(id) == *id_out) return entry;
  }
  return NULL;
}

/* Reads {"count": N, "columns": [...]} into the struct array (children included). */
static ArrowErrorCode JsonReadRecordBatch(const struct JsonDocument* doc,
                                          const struct ArrowSchema* schema,
                                          const json_t* batch, struct ArrowArray* array,
                                          int depth, struct ArrowError* error) {
  json_t* count_value;
  json_t* columns;
  int64_t i;

  if (!json_is_object(batch)) {
    ArrowErrorSet(error, "record batch is a %s, not an object", JsonTypeName(batch));
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(JsonGetMember(batch, "count", JSON_INTEGER, &count_value, error));
  NANOARROW_RETURN_NOT_OK(JsonGetMember(batch, "columns", JSON_ARRAY, &columns, error));
  if (json_integer_value(count_value) < 0) {
    ArrowErrorSet(error, "count is negative");
    return EINVAL;
  }
  if ((int64_t)json_array_size(columns) != schema->n_children) {
    ArrowErrorSet(error, "%zu columns for %" PRId64 " fields", json_array_size(columns),
                  schema->n_children);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(JsonUseAllocator(doc, array, error));
  for (i = 0; i < schema->n_children; i++) {
    ArrowErrorCode rc = JsonReadColumn(doc, schema->children[i],
                                       json_array_get(columns, (size_t)i),
                                       array->children[i], depth + 1, error);
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "column %" PRId64 " '%s'", i,
                              ArrowTestingFieldName(schema->children[i]));
      return rc;
    }
  }
  array->length = (int64_t)json_integer_value(count_value);
  array->null_count = 0;
  return NANOARROW_OK;
}

static ArrowErrorCode JsonReadColumn(const struct JsonDocument* doc,
                                     const struct ArrowSchema* schema, const json_t* column,
                                     struct ArrowArray* array, int depth,
                                     struct ArrowError* error) {
  struct ArrowSchemaView view;
  json_t* count_value;
  json_t* validity;
  json_t* data = NULL;
  json_t* children;
  int64_t count;
  int64_t null_count = 0;
  int64_t i;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) {
    ArrowErrorSet(error, "columns are nested more than %d levels deep",
                  NANOARROW_MAX_NESTING_DEPTH);
    return EINVAL;
  }
  if (!json_is_object(column)) {
    ArrowErrorSet(error, "column is a %s, not an object", JsonTypeName(column));
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&view, schema, error));
  NANOARROW_RETURN_NOT_OK(JsonUseAllocator(doc, array, error));
  NANOARROW_RETURN_NOT_OK(JsonGetMember(column, "count", JSON_INTEGER, &count_value, error));
  count = (int64_t)json_integer_value(count_value);
  if (count < 0) {
    ArrowErrorSet(error, "count %" PRId64 " is negative", count);
    return EINVAL;
  }

  if (view.layout.buffer_type[0] == NANOARROW_BUFFER_TYPE_VALIDITY) {
    NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "VALIDITY", count, 0, &validity, error));
    if (validity != NULL) {
      struct ArrowBitmap* bitmap = ArrowArrayValidityBitmap(array);
      int64_t n_valid;
      NANOARROW_RETURN_NOT_OK(
          JsonAppendBools(validity, &bitmap->buffer, "VALIDITY", &n_valid, error));
      bitmap->size_bits = count;
      null_count = count - n_valid;
    }
  }

  switch (view.storage_type) {
    case NANOARROW_TYPE_NA:
      null_count = count;
      break;
    case NANOARROW_TYPE_BOOL: {
      int64_t n_true;
      NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "DATA", count, 1, &data, error));
      NANOARROW_RETURN_NOT_OK(
          JsonAppendBools(data, ArrowArrayBuffer(array, 1), "DATA", &n_true, error));
      break;
    }
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_UINT64:
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "DATA", count, 1, &data, error));
      NANOARROW_RETURN_NOT_OK(JsonAppendIntegers(
          data,
          view.storage_type == NANOARROW_TYPE_INTERVAL_MONTHS ? NANOARROW_TYPE_INT32
                                                              : view.storage_type,
          ArrowArrayBuffer(array, 1), "DATA", error));
      break;
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
      NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "DATA", count, 1, &data, error));
      NANOARROW_RETURN_NOT_OK(
          JsonAppendFloats(data, view.storage_type, ArrowArrayBuffer(array, 1), error));
      break;
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO:
      NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "DATA", count, 1, &data, error));
      NANOARROW_RETURN_NOT_OK(
          JsonReadIntervals(data, view.storage_type, ArrowArrayBuffer(array, 1), error));
      break;
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "DATA", count, 1, &data, error));
      NANOARROW_RETURN_NOT_OK(
          JsonReadDecimals(data, &view, ArrowArrayBuffer(array, 1), error));
      break;
    case NANOARROW_TYPE_FIXED_SIZE_BINARY: {
      struct ArrowBuffer* out = ArrowArrayBuffer(array, 1);
      NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "DATA", count, 1, &data, error));
      for (i = 0; i < count; i++) {
        int64_t n_bytes;
        ArrowErrorCode rc = AppendHex(json_array_get(data, (size_t)i), out, &n_bytes, error);
        if (rc == NANOARROW_OK && n_bytes != view.fixed_size) {
          ArrowErrorSet(error, "%" PRId64 " bytes for byteWidth %d", n_bytes,
                        (int)view.fixed_size);
          rc = EINVAL;
        }
        if (rc != NANOARROW_OK) {
          ArrowTestingPrefixError(error, "DATA[%" PRId64 "]", i);
          return rc;
        }
      }
      break;
    }
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_LARGE_BINARY:
      NANOARROW_RETURN_NOT_OK(JsonReadBinary(column, &view, count, array, error));
      break;
    case NANOARROW_TYPE_STRING_VIEW:
    case NANOARROW_TYPE_BINARY_VIEW:
      NANOARROW_RETURN_NOT_OK(JsonReadViews(doc, column, &view, count, array, error));
      break;
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_MAP:
    case NANOARROW_TYPE_LARGE_LIST: {
      json_t* offsets;
      int is_large = view.storage_type == NANOARROW_TYPE_LARGE_LIST;
      NANOARROW_RETURN_NOT_OK(
          JsonGetBuffer(column, "OFFSET", count + 1, count > 0, &offsets, error));
      if (offsets != NULL) {
        NANOARROW_RETURN_NOT_OK(JsonAppendIntegers(
            offsets, is_large ? NANOARROW_TYPE_INT64 : NANOARROW_TYPE_INT32,
            ArrowArrayBuffer(array, 1), "OFFSET", error));
      } else {
        NANOARROW_RETURN_NOT_OK(
            ArrowBufferAppendFill(ArrowArrayBuffer(array, 1), 0, is_large ? 8 : 4));
      }
      break;
    }
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW: {
      json_t* offsets;
      json_t* sizes;
      enum ArrowType type = view.storage_type == NANOARROW_TYPE_LIST_VIEW
                                ? NANOARROW_TYPE_INT32
                                : NANOARROW_TYPE_INT64;
      NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "OFFSET", count, 1, &offsets, error));
      NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "SIZE", count, 1, &sizes, error));
      NANOARROW_RETURN_NOT_OK(
          JsonAppendIntegers(offsets, type, ArrowArrayBuffer(array, 1), "OFFSET", error));
      NANOARROW_RETURN_NOT_OK(
          JsonAppendIntegers(sizes, type, ArrowArrayBuffer(array, 2), "SIZE", error));
      break;
    }
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION: {
      json_t* type_ids;
      NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "TYPE_ID", count, 1, &type_ids, error));
      NANOARROW_RETURN_NOT_OK(JsonAppendIntegers(type_ids, NANOARROW_TYPE_INT8,
                                                 ArrowArrayBuffer(array, 0), "TYPE_ID",
                                                 error));
      if (view.storage_type == NANOARROW_TYPE_DENSE_UNION) {
        json_t* offsets;
        NANOARROW_RETURN_NOT_OK(JsonGetBuffer(column, "OFFSET", count, 1, &offsets, error));
        NANOARROW_RETURN_NOT_OK(JsonAppendIntegers(offsets, NANOARROW_TYPE_INT32,
                                                   ArrowArrayBuffer(array, 1), "OFFSET",
                                                   error));
      }
      break;
    }
    default:
      break;
  }

  /* Children (nested types) by position. */
  if (schema->n_children > 0) {
    children = json_object_get(column, "children");
    if (children == NULL || !json_is_array(children) ||
        (int64_t)json_array_size(children) != schema->n_children) {
      ArrowErrorSet(error, "expected %" PRId64 " children", schema->n_children);
      return EINVAL;
    }
    for (i = 0; i < schema->n_children; i++) {
      ArrowErrorCode rc = JsonReadColumn(doc, schema->children[i],
                                         json_array_get(children, (size_t)i),
                                         array->children[i], depth + 1, error);
      if (rc != NANOARROW_OK) {
        ArrowTestingPrefixError(error, "children[%" PRId64 "] '%s'", i,
                                ArrowTestingFieldName(schema->children[i]));
        return rc;
      }
    }
  }

  if (schema->dictionary != NULL) {
    int64_t id = -1;
    const json_t* entry = JsonFindDictionary(doc, schema->dictionary, &id);
    json_t* batch;
    json_t* columns;
    ArrowErrorCode rc;
    if (entry == NULL) {
      ArrowErrorSet(error, "no dictionary with id %" PRId64 " in \"dictionaries\"", id);
      return EINVAL;
    }
    rc = JsonGetMember(entry, "data", JSON_OBJECT, &batch, error);
    if (rc == NANOARROW_OK) rc = JsonGetMember(batch, "columns", JSON_ARRAY, &columns, error);
    if (rc == NANOARROW_OK && json_array_size(columns) != 1) {
      ArrowErrorSet(error, "has %zu columns, not 1", json_array_size(columns));
      rc = EINVAL;
    }
    if (rc == NANOARROW_OK) {
      rc = JsonReadColumn(doc, schema->dictionary, json_array_get(columns, 0),
                          array->dictionary, depth + 1, error);
    }
    if (rc != NANOARROW_OK) {
      ArrowTestingPrefixError(error, "dictionary %" PRId64, id);
      return rc;
    }
  }

  array->length = count;
  array->null_count = null_count;
  return NANOARROW_OK;
}

/* Builds batch i of doc into out (a struct array of doc->schema); callers name
 * the batch in messages. out is written only on success. */
static ArrowErrorCode JsonDocumentBuildBatch(const struct JsonDocument* doc, int64_t i,
                                             struct ArrowArray* out,
                                             struct ArrowError* error) {
  struct ArrowArray batch;
  ArrowErrorCode rc;
  if (doc->batches == NULL || i < 0 || i >= (int64_t)json_array_size(doc->batches)) {
    ArrowErrorSet(error, "the document has no batch %" PRId64, i);
    return ERANGE;
  }
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromSchema(&batch, &doc->schema, error));
  rc = JsonReadRecordBatch(doc, &doc->schema, json_array_get(doc->batches, (size_t)i), &batch,
                           0, error);
  if (rc == NANOARROW_OK) {
    rc = ArrowArrayFinishBuilding(&batch, NANOARROW_VALIDATION_LEVEL_FULL, error);
  }
  if (rc != NANOARROW_OK) {
    ArrowArrayRelease(&batch);
    return rc;
  }
  ArrowArrayMove(&batch, out);
  return NANOARROW_OK;
}

void ArrowTestingJsonReadOptionsInit(struct ArrowTestingJsonReadOptions* options) {
  options->allocator = ArrowBufferAllocatorDefault();
}

/* The allocator options name (the default one for NULL options). */
static struct ArrowBufferAllocator JsonOptionsAllocator(
    const struct ArrowTestingJsonReadOptions* options) {
  return options == NULL ? ArrowBufferAllocatorDefault() : options->allocator;
}

ArrowErrorCode ArrowTestingJsonReadBatch(const char* json, int64_t size_bytes, int64_t i,
                                         struct ArrowArray* out, struct ArrowError* error) {
  return ArrowTestingJsonReadBatchWithOptions(json, size_bytes, i, NULL, out, error);
}

ArrowErrorCode ArrowTestingJsonReadBatchWithOptions(
    const char* json, int64_t size_bytes, int64_t i,
    const struct ArrowTestingJsonReadOptions* options, struct ArrowArray* out,
    struct ArrowError* error) {
  struct JsonDocument doc;
  ArrowErrorCode rc;
  NANOARROW_RETURN_NOT_OK(JsonDocumentParse(json, size_bytes, &doc, error));
  doc.allocator = JsonOptionsAllocator(options);
  rc = JsonDocumentBuildBatch(&doc, i, out, error);
  if (rc != NANOARROW_OK) ArrowTestingPrefixError(error, "batch %" PRId64, i);
  JsonDocumentReset(&doc);
  return rc;
}

/* ---- Single objects (a field, a batch, a column) ---- */

/* Parses json into doc->root, which must be an object; doc has no schema, batches
 * or dictionaries. */
static ArrowErrorCode JsonObjectParse(const char* json, int64_t size_bytes, const char* what,
                                      struct JsonDocument* doc, struct ArrowError* error) {
  json_error_t json_error;
  memset(doc, 0, sizeof(*doc));
  doc->allocator = ArrowBufferAllocatorDefault();
  if (size_bytes < 0 || (json == NULL && size_bytes > 0)) {
    ArrowErrorSet(error, "%s: no JSON text", what);
    return EINVAL;
  }
  doc->root = json_loadb(json, (size_t)size_bytes, JSON_ALLOW_NUL, &json_error);
  if (doc->root == NULL) {
    ArrowErrorSet(error, "%s: invalid JSON at line %d column %d: %s", what, json_error.line,
                  json_error.column, json_error.text);
    return EINVAL;
  }
  if (!json_is_object(doc->root)) {
    ArrowErrorSet(error, "%s: the JSON text is a %s, not an object", what,
                  JsonTypeName(doc->root));
    JsonDocumentReset(doc);
    return EINVAL;
  }
  return NANOARROW_OK;
}

ArrowErrorCode ArrowTestingJsonReadField(const char* json, int64_t size_bytes,
                                         struct ArrowSchema* out, struct ArrowError* error) {
  struct JsonDocument doc;
  struct ArrowSchema field;
  ArrowErrorCode rc;
  NANOARROW_RETURN_NOT_OK(JsonObjectParse(json, size_bytes, "field", &doc, error));
  ArrowSchemaInit(&field);
  rc = JsonReadField(doc.root, &field, &doc.dict_ids, 0, error);
  if (rc == NANOARROW_OK) {
    ArrowSchemaMove(&field, out);
  } else {
    ArrowSchemaRelease(&field);
  }
  JsonDocumentReset(&doc);
  return rc;
}

/* Reads a batch (is_batch) or a column object of schema into out. */
static ArrowErrorCode JsonReadBareArray(const char* json, int64_t size_bytes,
                                        const struct ArrowSchema* schema, int is_batch,
                                        const struct ArrowTestingJsonReadOptions* options,
                                        struct ArrowArray* out, struct ArrowError* error) {
  const char* what = is_batch ? "record batch" : "column";
  struct JsonDocument doc;
  struct ArrowArray array;
  ArrowErrorCode rc;

  if (schema == NULL || schema->release == NULL) {
    ArrowErrorSet(error, "%s: the schema is released", what);
    return EINVAL;
  }
  if (is_batch && (schema->format == NULL || strcmp(schema->format, "+s") != 0)) {
    ArrowErrorSet(error, "%s: the schema must be a struct (\"+s\")", what);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(JsonObjectParse(json, size_bytes, what, &doc, error));
  doc.allocator = JsonOptionsAllocator(options);
  rc = ArrowArrayInitFromSchema(&array, schema, error);
  if (rc != NANOARROW_OK) {
    JsonDocumentReset(&doc);
    return rc;
  }
  if (is_batch) {
    rc = JsonReadRecordBatch(&doc, schema, doc.root, &array, 0, error);
  } else {
    rc = JsonReadColumn(&doc, schema, doc.root, &array, 0, error);
  }
  if (rc == NANOARROW_OK) {
    rc = ArrowArrayFinishBuilding(&array, NANOARROW_VALIDATION_LEVEL_FULL, error);
  }
  if (rc == NANOARROW_OK) {
    ArrowArrayMove(&array, out);
  } else {
    ArrowTestingPrefixError(error, "%s", what);
    ArrowArrayRelease(&array);
  }
  JsonDocumentReset(&doc);
  return rc;
}

ArrowErrorCode ArrowTestingJsonReadRecordBatch(const char* json, int64_t size_bytes,
                                               const struct ArrowSchema* schema,
                                               struct ArrowArray* out,
                                               struct ArrowError* error) {
  return JsonReadBareArray(json, size_bytes, schema, 1, NULL, out, error);
}

ArrowErrorCode ArrowTestingJsonReadRecordBatchWithOptions(
    const char* json, int64_t size_bytes, const struct ArrowSchema* schema,
    const struct ArrowTestingJsonReadOptions* options, struct ArrowArray* out,
    struct ArrowError* error) {
  return JsonReadBareArray(json, size_bytes, schema, 1, options, out, error);
}

ArrowErrorCode ArrowTestingJsonReadColumn(const char* json, int64_t size_bytes,
                                          const struct ArrowSchema* field,
                                          struct ArrowArray* out, struct ArrowError* error) {
  return JsonReadBareArray(json, size_bytes, field, 0, NULL, out, error);
}

ArrowErrorCode ArrowTestingJsonReadColumnWithOptions(
    const char* json, int64_t size_bytes, const struct ArrowSchema* field,
    const struct ArrowTestingJsonReadOptions* options, struct ArrowArray* out,
    struct ArrowError* error) {
  return JsonReadBareArray(json, size_bytes, field, 0, options, out, error);
}

/* ---- Stream ---- */

struct JsonStreamPrivate {
  struct JsonDocument doc;
  int64_t next_batch;
  struct ArrowError error;
};

static int JsonStreamGetSchema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct JsonStreamPrivate* private_data = (struct JsonStreamPrivate*)stream->private_data;
  return ArrowSchemaDeepCopy(&private_data->doc.schema, out);
}

static int JsonStreamGetNext(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct JsonStreamPrivate* private_data = (struct JsonStreamPrivate*)stream->private_data;
  const json_t* batches = private_data->doc.batches;
  if (batches == NULL || private_data->next_batch >= (int64_t)json_array_size(batches)) {
    out->release = NULL;
    return NANOARROW_OK;
  }
  private_data->error.message[0] = '\0';
  NANOARROW_RETURN_NOT_OK(JsonDocumentBuildBatch(&private_data->doc, private_data->next_batch,
                                                 out, &private_data->error));
  private_data->next_batch++;
  return NANOARROW_OK;
}

static const char* JsonStreamGetLastError(struct ArrowArrayStream* stream) {
  struct JsonStreamPrivate* private_data = (struct JsonStreamPrivate*)stream->private_data;
  return private_data->error.message;
}

static void JsonStreamRelease(struct ArrowArrayStream* stream) {
  struct JsonStreamPrivate* private_data = (struct JsonStreamPrivate*)stream->private_data;
  JsonDocumentReset(&private_data->doc);
  ArrowFree(private_data);
  stream->release = NULL;
}

ArrowErrorCode ArrowTestingJsonReadStream(const char* json, int64_t size_bytes,
                                          struct ArrowArrayStream* out,
                                          struct ArrowError* error) {
  return ArrowTestingJsonReadStreamWithOptions(json, size_bytes, NULL, out, error);
}

ArrowErrorCode ArrowTestingJsonReadStreamWithOptions(
    const char* json, int64_t size_bytes, const struct ArrowTestingJsonReadOptions* options,
    struct ArrowArrayStream* out, struct ArrowError* error) {
  struct JsonStreamPrivate* private_data =
      (struct JsonStreamPrivate*)ArrowMalloc(sizeof(struct JsonStreamPrivate));
  ArrowErrorCode rc;
  if (private_data == NULL) {
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  rc = JsonDocumentParse(json, size_bytes, &private_data->doc, error);
  if (rc != NANOARROW_OK) {
    ArrowFree(private_data);
    return rc;
  }
  private_data->doc.allocator = JsonOptionsAllocator(options);
  private_data->next_batch = 0;
  private_data->error.message[0] = '\0';
  out->get_schema = &JsonStreamGetSchema;
  out->get_next = &JsonStreamGetNext;
  out->get_last_error = &JsonStreamGetLastError;
  out->release = &JsonStreamRelease;
  out->private_data = private_data;
  return NANOARROW_OK;
}
