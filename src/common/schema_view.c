/* ArrowSchemaViewInit: parses an ArrowSchema's format string (the table in the Arrow
 * C Data Interface specification), checks that its children and dictionary fit the
 * type, and picks up extension metadata.
 *
 * The format string and metadata come from outside, so the parser looks at one
 * character at a time and never past the terminating NUL, parses integers with an
 * overflow check, and allocates nothing. */

#include <stdint.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

static ArrowErrorCode FormatError(struct ArrowError* error, const char* format,
                                  const char* reason) {
  ArrowErrorSet(error, "Error parsing schema->format '%s': %s", format, reason);
  return EINVAL;
}

/* Parses an optionally negative decimal integer at *cursor that fits in int32_t.
 * On success advances *cursor past it and returns 1; otherwise returns 0. */
static int ParseInt32(const char** cursor, int32_t* out) {
  const char* p = *cursor;
  int negative = 0;
  if (*p == '-') {
    negative = 1;
    p++;
  }
  if (*p < '0' || *p > '9') {
    return 0;
  }

  int64_t value = 0;
  /* INT32_MIN's magnitude is one more than INT32_MAX. */
  const int64_t limit = negative ? -(int64_t)INT32_MIN : INT32_MAX;
  while (*p >= '0' && *p <= '9') {
    value = value * 10 + (*p - '0');
    if (value > limit) {
      return 0;
    }
    p++;
  }

  *out = (int32_t)(negative ? -value : value);
  *cursor = p;
  return 1;
}

static void SetTypes(struct ArrowSchemaView* view, enum ArrowType type,
                     enum ArrowType storage_type) {
  view->type = type;
  view->storage_type = storage_type;
}

static int ParseTimeUnit(char unit_char, enum ArrowTimeUnit* out) {
  switch (unit_char) {
    case 's':
      *out = NANOARROW_TIME_UNIT_SECOND;
      return 1;
    case 'm':
      *out = NANOARROW_TIME_UNIT_MILLI;
      return 1;
    case 'u':
      *out = NANOARROW_TIME_UNIT_MICRO;
      return 1;
    case 'n':
      *out = NANOARROW_TIME_UNIT_NANO;
      return 1;
    default:
      return 0;
  }
}

/* "d:P,S" or "d:P,S,BW"; p points after "d". */
static ArrowErrorCode ParseDecimal(struct ArrowSchemaView* view, const char* format,
                                   const char* p, const char** end,
                                   struct ArrowError* error) {
  if (*p != ':') {
    return FormatError(error, format, "expected ':' after 'd'");
  }
  p++;

  int32_t precision;
  int32_t scale;
  if (!ParseInt32(&p, &precision)) {
    return FormatError(error, format, "expected decimal precision");
  }
  if (*p != ',') {
    return FormatError(error, format, "expected ',' and decimal scale after precision");
  }
  p++;
  if (!ParseInt32(&p, &scale)) {
    return FormatError(error, format, "expected decimal scale");
  }

  int32_t bitwidth = 128;
  if (*p == ',') {
    p++;
    if (!ParseInt32(&p, &bitwidth)) {
      return FormatError(error, format, "expected decimal bit width after scale");
    }
  }

  enum ArrowType type;
  int32_t max_precision;
  switch (bitwidth) {
    case 32:
      type = NANOARROW_TYPE_DECIMAL32;
      max_precision = 9;
      break;
    case 64:
      type = NANOARROW_TYPE_DECIMAL64;
      max_precision = 18;
      break;
    case 128:
      type = NANOARROW_TYPE_DECIMAL128;
      max_precision = 38;
      break;
    case 256:
      type = NANOARROW_TYPE_DECIMAL256;
      max_precision = 76;
      break;
    default:
      return FormatError(error, format, "decimal bit width must be 32, 64, 128 or 256");
  }
  if (precision < 1 || precision > max_precision) {
    ArrowErrorSet(error,
                  "Error parsing schema->format '%s': decimal precision %d is outside "
                  "[1, %d] for bit width %d",
                  format, (int)precision, (int)max_precision, (int)bitwidth);
    return EINVAL;
  }

  SetTypes(view, type, type);
  view->decimal_bitwidth = bitwidth;
  view->decimal_precision = precision;
  view->decimal_scale = scale;
  *end = p;
  return NANOARROW_OK;
}

/* Date/time types; p points after "t". */
static ArrowErrorCode ParseTemporal(struct ArrowSchemaView* view, const char* format,
                                    const char* p, const char** end,
                                    struct ArrowError* error) {
  char kind = *p;
  if (kind == '\0') {
    return FormatError(error, format, "expected 'd', 't', 's', 'D' or 'i' after 't'");
  }
  p++;
  char detail = *p;

  switch (kind) {
    case 'd':
      if (detail == 'D') {
        SetTypes(view, NANOARROW_TYPE_DATE32, NANOARROW_TYPE_INT32);
      } else if (detail == 'm') {
        SetTypes(view, NANOARROW_TYPE_DATE64, NANOARROW_TYPE_INT64);
      } else {
        return FormatError(error, format, "expected 'D' or 'm' after 'td'");
      }
      *end = p + 1;
      return NANOARROW_OK;

    case 't':
      if (!ParseTimeUnit(detail, &view->time_unit)) {
        return FormatError(error, format, "expected time unit 's', 'm', 'u' or 'n'");
      }
      if (view->time_unit <= NANOARROW_TIME_UNIT_MILLI) {
        SetTypes(view, NANOARROW_TYPE_TIME32, NANOARROW_TYPE_INT32);
      } else {
        SetTypes(view, NANOARROW_TYPE_TIME64, NANOARROW_TYPE_INT64);
      }
      *end = p + 1;
      return NANOARROW_OK;

    case 's':
      if (!ParseTimeUnit(detail, &view->time_unit)) {
        return FormatError(error, format, "expected time unit 's', 'm', 'u' or 'n'");
      }
      p++;
      if (*p != ':') {
        return FormatError(error, format, "expected ':' after timestamp unit");
      }
      p++;
      SetTypes(view, NANOARROW_TYPE_TIMESTAMP, NANOARROW_TYPE_INT64);
      /* The time zone is the rest of the string ("" when there is none), as
       * nanoarrow documents: callers may strcmp() it without a NULL check. */
      view->timezone = p;
      *end = p + strlen(p);
      return NANOARROW_OK;

    case 'D':
      if (!ParseTimeUnit(detail, &view->time_unit)) {
        return FormatError(error, format, "expected time unit 's', 'm', 'u' or 'n'");
      }
      SetTypes(view, NANOARROW_TYPE_DURATION, NANOARROW_TYPE_INT64);
      *end = p + 1;
      return NANOARROW_OK;

    case 'i':
      if (detail == 'M') {
        SetTypes(view, NANOARROW_TYPE_INTERVAL_MONTHS, NANOARROW_TYPE_INTERVAL_MONTHS);
      } else if (detail == 'D') {
        SetTypes(view, NANOARROW_TYPE_INTERVAL_DAY_TIME, NANOARROW_TYPE_INTERVAL_DAY_TIME);
      } else if (detail == 'n') {
        SetTypes(view, NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO,
                 NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO);
      } else {
        return FormatError(error, format, "expected 'M', 'D' or 'n' after 'ti'");
      }
      *end = p + 1;
      return NANOARROW_OK;

    default:
      return FormatError(error, format, "unknown temporal format");
  }
}

/* "+ud:" / "+us:" type id list; p points after the ':'. Ids are 0..127, distinct,
 * separated by single commas. */
static ArrowErrorCode ParseUnionTypeIds(struct ArrowSchemaView* view, const char* format,
                                        const char* p, const char** end,
                                        struct ArrowError* error) {
  view->union_type_ids = p;
  if (*p == '\0') {
    *end = p;
    return NANOARROW_OK;
  }

  uint8_t seen[128];
  memset(seen, 0, sizeof(seen));
  for (;;) {
    int32_t type_id;
    if (*p < '0' || *p > '9' || !ParseInt32(&p, &type_id) || type_id > 127) {
      return FormatError(error, format, "expected union type id between 0 and 127");
    }
    if (seen[type_id]) {
      return FormatError(error, format, "duplicate union type id");
    }
    seen[type_id] = 1;

    if (*p != ',') {
      break;
    }
    p++;
  }

  *end = p;
  return NANOARROW_OK;
}

/* Nested types; p points after "+". */
static ArrowErrorCode ParseNested(struct ArrowSchemaView* view, const char* format,
                                  const char* p, const char** end,
                                  struct ArrowError* error) {
  char kind = *p;
  if (kind == '\0') {
    return FormatError(error, format, "expected a nested type after '+'");
  }
  p++;

  switch (kind) {
    case 'l':
      SetTypes(view, NANOARROW_TYPE_LIST, NANOARROW_TYPE_LIST);
      break;
    case 'L':
      SetTypes(view, NANOARROW_TYPE_LARGE_LIST, NANOARROW_TYPE_LARGE_LIST);
      break;
    case 's':
      SetTypes(view, NANOARROW_TYPE_STRUCT, NANOARROW_TYPE_STRUCT);
      break;
    case 'm':
      SetTypes(view, NANOARROW_TYPE_MAP, NANOARROW_TYPE_MAP);
      break;
    case 'r':
      SetTypes(view, NANOARROW_TYPE_RUN_END_ENCODED, NANOARROW_TYPE_RUN_END_ENCODED);
      break;
    case 'v':
      if (*p == 'l') {
        SetTypes(view, NANOARROW_TYPE_LIST_VIEW, NANOARROW_TYPE_LIST_VIEW);
      } else if (*p == 'L') {
        SetTypes(view, NANOARROW_TYPE_LARGE_LIST_VIEW, NANOARROW_TYPE_LARGE_LIST_VIEW);
      } else {
        return FormatError(error, format, "expected 'l' or 'L' after '+v'");
      }
      p++;
      break;
    case 'w': {
      if (*p != ':') {
        return FormatError(error, format, "expected ':' after '+w'");
      }
      p++;
      int32_t list_size;
      if (!ParseInt32(&p, &list_size) || list_size < 0) {
        return FormatError(error, format,
                           "expected a fixed-size list size between 0 and 2147483647");
      }
      SetTypes(view, NANOARROW_TYPE_FIXED_SIZE_LIST, NANOARROW_TYPE_FIXED_SIZE_LIST);
      view->fixed_size = list_size;
      break;
    }
    case 'u': {
      enum ArrowType type;
      if (*p == 'd') {
        type = NANOARROW_TYPE_DENSE_UNION;
      } else if (*p == 's') {
        type = NANOARROW_TYPE_SPARSE_UNION;
      } else {
        return FormatError(error, format, "expected 'd' or 's' after '+u'");
      }
      p++;
      if (*p != ':') {
        return FormatError(error, format, "expected ':' after union mode");
      }
      p++;
      SetTypes(view, type, type);
      return ParseUnionTypeIds(view, format, p, end, error);
    }
    default:
      return FormatError(error, format, "unknown nested type format");
  }

  *end = p;
  return NANOARROW_OK;
}

static ArrowErrorCode ParseFormat(struct ArrowSchemaView* view, const char* format,
                                  const char** end, struct ArrowError* error) {
  const char* p = format;
  enum ArrowType primitive;
  switch (*p) {
    case 'n':
      primitive = NANOARROW_TYPE_NA;
      break;
    case 'b':
      primitive = NANOARROW_TYPE_BOOL;
      break;
    case 'c':
      primitive = NANOARROW_TYPE_INT8;
      break;
    case 'C':
      primitive = NANOARROW_TYPE_UINT8;
      break;
    case 's':
      primitive = NANOARROW_TYPE_INT16;
      break;
    case 'S':
      primitive = NANOARROW_TYPE_UINT16;
      break;
    case 'i':
      primitive = NANOARROW_TYPE_INT32;
      break;
    case 'I':
      primitive = NANOARROW_TYPE_UINT32;
      break;
    case 'l':
      primitive = NANOARROW_TYPE_INT64;
      break;
    case 'L':
      primitive = NANOARROW_TYPE_UINT64;
      break;
    case 'e':
      primitive = NANOARROW_TYPE_HALF_FLOAT;
      break;
    case 'f':
      primitive = NANOARROW_TYPE_FLOAT;
      break;
    case 'g':
      primitive = NANOARROW_TYPE_DOUBLE;
      break;
    case 'u':
      primitive = NANOARROW_TYPE_STRING;
      break;
    case 'U':
      primitive = NANOARROW_TYPE_LARGE_STRING;
      break;
    case 'z':
      primitive = NANOARROW_TYPE_BINARY;
      break;
    case 'Z':
      primitive = NANOARROW_TYPE_LARGE_BINARY;
      break;
    case 'v':
      p++;
      if (*p == 'u') {
        primitive = NANOARROW_TYPE_STRING_VIEW;
      } else if (*p == 'z') {
        primitive = NANOARROW_TYPE_BINARY_VIEW;
      } else {
        return FormatError(error, format, "expected 'u' or 'z' after 'v'");
      }
      break;
    case 'w': {
      p++;
      if (*p != ':') {
        return FormatError(error, format, "expected ':' after 'w'");
      }
      p++;
      int32_t byte_width;
      if (!ParseInt32(&p, &byte_width) || byte_width <= 0) {
        return FormatError(error, format,
                           "expected a fixed-size binary width between 1 and 2147483647");
      }
      SetTypes(view, NANOARROW_TYPE_FIXED_SIZE_BINARY, NANOARROW_TYPE_FIXED_SIZE_BINARY);
      view->fixed_size = byte_width;
      *end = p;
      return NANOARROW_OK;
    }
    case 'd':
      return ParseDecimal(view, format, p + 1, end, error);
    case 't':
      return ParseTemporal(view, format, p + 1, end, error);
    case '+':
      return ParseNested(view, format, p + 1, end, error);
    case '\0':
      return FormatError(error, format, "format is empty");
    default:
      return FormatError(error, format, "unknown format");
  }

  SetTypes(view, primitive, primitive);
  *end = p + 1;
  return NANOARROW_OK;
}

/* ---- Structure checks ---- */

static ArrowErrorCode CheckChildCount(const struct ArrowSchema* schema, int64_t expected,
                                      struct ArrowError* error) {
  if (schema->n_children != expected) {
    ArrowErrorSet(error, "Expected schema with format '%s' to have %ld children but found %ld",
                  schema->format, (long)expected, (long)schema->n_children);
    return EINVAL;
  }
  return NANOARROW_OK;
}

static int64_t CountUnionTypeIds(const char* type_ids) {
  if (*type_ids == '\0') {
    return 0;
  }
  int64_t count = 1;
  for (const char* p = type_ids; *p != '\0'; p++) {
    count += *p == ',';
  }
  return count;
}

static int IsFormat(const char* format, const char* expected) {
  return format != NULL && strcmp(format, expected) == 0;
}

static ArrowErrorCode CheckChildren(const struct ArrowSchema* schema,
                                    const struct ArrowSchemaView* view,
                                    struct ArrowError* error) {
  if (schema->n_children < 0) {
    ArrowErrorSet(error, "Expected schema->n_children >= 0 but found %ld",
                  (long)schema->n_children);
    return EINVAL;
  }
  if (schema->n_children > 0 && schema->children == NULL) {
    ArrowErrorSet(error, "Expected non-NULL schema->children for %ld children",
                  (long)schema->n_children);
    return EINVAL;
  }
  for (int64_t i = 0; i < schema->n_children; i++) {
    const struct ArrowSchema* child = schema->children[i];
    if (child == NULL) {
      ArrowErrorSet(error, "Expected valid schema at schema->children[%ld] but found NULL",
                    (long)i);
      return EINVAL;
    }
    if (child->release == NULL) {
      ArrowErrorSet(error,
                    "Expected valid schema at schema->children[%ld] but found a released "
                    "schema",
                    (long)i);
      return EINVAL;
    }
  }

  switch (view->type) {
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      return CheckChildCount(schema, 1, error);

    case NANOARROW_TYPE_STRUCT:
      return NANOARROW_OK;

    case NANOARROW_TYPE_MAP: {
      NANOARROW_RETURN_NOT_OK(CheckChildCount(schema, 1, error));
      const struct ArrowSchema* entries = schema->children[0];
      if (!IsFormat(entries->format, "+s")) {
        ArrowErrorSet(error,
                      "Expected map child schema->children[0] to be a struct ('+s') but "
                      "found format '%s'",
                      entries->format != NULL ? entries->format : "(null)");
        return EINVAL;
      }
      if (entries->n_children != 2) {
        ArrowErrorSet(error,
                      "Expected map child schema->children[0] to have 2 children but found "
                      "%ld",
                      (long)entries->n_children);
        return EINVAL;
      }
      /* The Arrow columnar format: a map's entries and keys are never null. */
      if (entries->flags & ARROW_FLAG_NULLABLE) {
        ArrowErrorSet(error,
                      "Expected map entries schema->children[0] to be non-nullable but "
                      "ARROW_FLAG_NULLABLE is set");
        return EINVAL;
      }
      const struct ArrowSchema* key =
          entries->children != NULL ? entries->children[0] : NULL;
      if (key == NULL || key->release == NULL) {
        ArrowErrorSet(error,
                      "Expected valid map key schema at schema->children[0]->children[0] "
                      "but found %s",
                      key == NULL ? "NULL" : "a released schema");
        return EINVAL;
      }
      if (key->flags & ARROW_FLAG_NULLABLE) {
        ArrowErrorSet(error,
                      "Expected map key schema->children[0]->children[0] to be "
                      "non-nullable but ARROW_FLAG_NULLABLE is set");
        return EINVAL;
      }
      return NANOARROW_OK;
    }

    case NANOARROW_TYPE_RUN_END_ENCODED: {
      NANOARROW_RETURN_NOT_OK(CheckChildCount(schema, 2, error));
      const char* run_ends_format = schema->children[0]->format;
      if (!IsFormat(run_ends_format, "s") && !IsFormat(run_ends_format, "i") &&
          !IsFormat(run_ends_format, "l")) {
        ArrowErrorSet(error,
                      "Expected run_ends child schema->children[0] to be int16, int32 or "
                      "int64 but found format '%s'",
                      run_ends_format != NULL ? run_ends_format : "(null)");
        return EINVAL;
      }
      return NANOARROW_OK;
    }

    case NANOARROW_TYPE_DENSE_UNION:
    case NANOARROW_TYPE_SPARSE_UNION:
      return CheckChildCount(schema, CountUnionTypeIds(view->union_type_ids), error);

    default:
      return CheckChildCount(schema, 0, error);
  }
}

static int IsIntegerType(enum ArrowType type) {
  switch (type) {
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_UINT64:
      return 1;
    default:
      return 0;
  }
}

static ArrowErrorCode CheckDictionary(const struct ArrowSchema* schema,
                                      struct ArrowSchemaView* view,
                                      struct ArrowError* error) {
  if (schema->dictionary == NULL) {
    return NANOARROW_OK;
  }
  if (schema->dictionary->release == NULL) {
    ArrowErrorSet(error, "Expected non-released schema->dictionary");
    return EINVAL;
  }
  /* A dictionary allocated but never given a type has no format to read. */
  if (schema->dictionary->format == NULL) {
    ArrowErrorSet(error, "Expected schema->dictionary to have a format but found NULL");
    return EINVAL;
  }
  if (view->type != view->storage_type || !IsIntegerType(view->storage_type)) {
    ArrowErrorSet(error,
                  "Expected dictionary schema index type to be an integer but found format "
                  "'%s'",
                  schema->format);
    return EINVAL;
  }
  view->type = NANOARROW_TYPE_DICTIONARY;
  return NANOARROW_OK;
}

static ArrowErrorCode ReadExtensionMetadata(const struct ArrowSchema* schema,
                                            struct ArrowSchemaView* view,
                                            struct ArrowError* error) {
  static const char name_key[] = "ARROW:extension:name";
  static const char metadata_key[] = "ARROW:extension:metadata";

  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  if (schema->metadata == NULL) {
    return NANOARROW_OK;
  }
  if (ArrowMetadataReaderInit(&reader, schema->metadata) != NANOARROW_OK) {
    ArrowErrorSet(error, "Error parsing schema->metadata: negative number of keys");
    return EINVAL;
  }

  while (reader.remaining_keys > 0) {
    if (ArrowMetadataReaderRead(&reader, &key, &value) != NANOARROW_OK) {
      ArrowErrorSet(error, "Error parsing schema->metadata: negative key or value length");
      return EINVAL;
    }
    /* The first occurrence wins, as with ArrowMetadataGetValue(). */
    if (view->extension_name.data == NULL && key.size_bytes == sizeof(name_key) - 1 &&
        memcmp(key.data, name_key, sizeof(name_key) - 1) == 0) {
      view->extension_name = value;
    } else if (view->extension_metadata.data == NULL &&
               key.size_bytes == sizeof(metadata_key) - 1 &&
               memcmp(key.data, metadata_key, sizeof(metadata_key) - 1) == 0) {
      view->extension_metadata = value;
    }
  }
  return NANOARROW_OK;
}

/* Everything but the layout and extension metadata; fills the view's other fields. */
static ArrowErrorCode ParseSchema(struct ArrowSchemaView* schema_view,
                                  const struct ArrowSchema* schema,
                                  struct ArrowError* error) {
  if (schema == NULL) {
    ArrowErrorSet(error, "Expected non-NULL schema");
    return EINVAL;
  }
  if (schema->release == NULL) {
    ArrowErrorSet(error, "Expected non-released schema");
    return EINVAL;
  }
  if (schema->format == NULL) {
    ArrowErrorSet(error, "Error parsing schema->format: expected a string but found NULL");
    return EINVAL;
  }
  if (schema->flags & ~(int64_t)NANOARROW_FLAG_ALL_SUPPORTED) {
    ArrowErrorSet(error,
                  "Expected schema->flags to use only ARROW_FLAG_DICTIONARY_ORDERED, "
                  "ARROW_FLAG_NULLABLE and ARROW_FLAG_MAP_KEYS_SORTED but found unknown "
                  "flag bits 0x%llx",
                  (unsigned long long)(schema->flags &
                                       ~(int64_t)NANOARROW_FLAG_ALL_SUPPORTED));
    return EINVAL;
  }
  schema_view->schema = schema;

  const char* end = NULL;
  NANOARROW_RETURN_NOT_OK(ParseFormat(schema_view, schema->format, &end, error));
  if (*end != '\0') {
    ArrowErrorSet(error, "Error parsing schema->format '%s': unexpected characters '%s'",
                  schema->format, end);
    return EINVAL;
  }

  NANOARROW_RETURN_NOT_OK(CheckChildren(schema, schema_view, error));
  NANOARROW_RETURN_NOT_OK(CheckDictionary(schema, schema_view, error));

  /* Flags that only make sense for some types. A dictionary-encoded map keeps
   * MAP_KEYS_SORTED on its dictionary (the map), not on the indices. */
  if ((schema->flags & ARROW_FLAG_DICTIONARY_ORDERED) && schema->dictionary == NULL) {
    ArrowErrorSet(error,
                  "ARROW_FLAG_DICTIONARY_ORDERED is set on a schema without a dictionary "
                  "(format '%s')",
                  schema->format);
    return EINVAL;
  }
  if ((schema->flags & ARROW_FLAG_MAP_KEYS_SORTED) &&
      schema_view->storage_type != NANOARROW_TYPE_MAP) {
    ArrowErrorSet(error,
                  "ARROW_FLAG_MAP_KEYS_SORTED is set on a schema that is not a map "
                  "(format '%s')",
                  schema->format);
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* The fixed-width types whose whole format is one character, by that character
 * (a table the compiler builds from the switch): element width in bits, 0 for any
 * other character. */
static int64_t OneCharFixedWidth(char format, enum ArrowType* type) {
  enum ArrowType found = NANOARROW_TYPE_UNINITIALIZED;
  int64_t bits = 0;
  switch (format) {
    case 'b':
      found = NANOARROW_TYPE_BOOL;
      bits = 1;
      break;
    case 'c':
      found = NANOARROW_TYPE_INT8;
      bits = 8;
      break;
    case 'C':
      found = NANOARROW_TYPE_UINT8;
      bits = 8;
      break;
    case 's':
      found = NANOARROW_TYPE_INT16;
      bits = 16;
      break;
    case 'S':
      found = NANOARROW_TYPE_UINT16;
      bits = 16;
      break;
    case 'e':
      found = NANOARROW_TYPE_HALF_FLOAT;
      bits = 16;
      break;
    case 'i':
      found = NANOARROW_TYPE_INT32;
      bits = 32;
      break;
    case 'I':
      found = NANOARROW_TYPE_UINT32;
      bits = 32;
      break;
    case 'f':
      found = NANOARROW_TYPE_FLOAT;
      bits = 32;
      break;
    case 'l':
      found = NANOARROW_TYPE_INT64;
      bits = 64;
      break;
    case 'L':
      found = NANOARROW_TYPE_UINT64;
      bits = 64;
      break;
    case 'g':
      found = NANOARROW_TYPE_DOUBLE;
      bits = 64;
      break;
    default:
      break;
  }
  *type = found;
  return bits;
}

/* The parameters a type may set (extension, sizes, decimal, time, union ids) at
 * their values for a type that sets none: both initialisations below start here. */
static inline void SchemaViewResetParameters(struct ArrowSchemaView* view) {
  view->extension_name.data = NULL;
  view->extension_name.size_bytes = 0;
  view->extension_metadata.data = NULL;
  view->extension_metadata.size_bytes = 0;
  view->fixed_size = 0;
  view->decimal_bitwidth = 0;
  view->decimal_precision = 0;
  view->decimal_scale = 0;
  view->time_unit = NANOARROW_TIME_UNIT_SECOND;
  view->timezone = NULL;
  view->union_type_ids = NULL;
}

/* The view of a plain fixed-width field (one-character format, no children,
 * dictionary or metadata, no flag but NULLABLE), written directly: the same view the
 * parse below produces for it, without the parse. Returns 0 (view untouched) for
 * any other schema. A wide table is mostly such fields (SchemaViewInitWideStruct:
 * 126 -> ~40 instructions per child). */
static int InitFixedWidthView(struct ArrowSchemaView* view, const struct ArrowSchema* schema) {
  enum ArrowType type = NANOARROW_TYPE_UNINITIALIZED;
  const char* format = schema->format;
  int64_t bits;
  if (schema->release == NULL || format == NULL || format[0] == '\0' ||
      format[1] != '\0' || schema->n_children != 0 || schema->dictionary != NULL ||
      schema->metadata != NULL || (schema->flags & ~(int64_t)ARROW_FLAG_NULLABLE) != 0) {
    return 0;
  }
  bits = OneCharFixedWidth(format[0], &type);
  if (bits == 0) {
    return 0;
  }
  view->schema = schema;
  view->type = type;
  view->storage_type = type;
  view->layout.buffer_type[0] = NANOARROW_BUFFER_TYPE_VALIDITY;
  view->layout.buffer_type[1] = NANOARROW_BUFFER_TYPE_DATA;
  view->layout.buffer_type[2] = NANOARROW_BUFFER_TYPE_NONE;
  view->layout.buffer_data_type[0] = NANOARROW_TYPE_BOOL;
  view->layout.buffer_data_type[1] = type;
  view->layout.buffer_data_type[2] = NANOARROW_TYPE_UNINITIALIZED;
  view->layout.element_size_bits[0] = 1;
  view->layout.element_size_bits[1] = bits;
  view->layout.element_size_bits[2] = 0;
  view->layout.child_size_elements = 0;
  SchemaViewResetParameters(view);
  return 1;
}

/* The full parse, out of line so that the direct path above does not pay for its
 * stack frame. */
static NANOARROW_NOINLINE ArrowErrorCode SchemaViewInitParsed(
    struct ArrowSchemaView* schema_view, const struct ArrowSchema* schema,
    struct ArrowError* error) {
  /* Field by field: a memset of the whole view costs more than the parse itself, and
   * the layout is written below anyway (zeroed only when parsing fails). */
  schema_view->schema = NULL;
  schema_view->type = NANOARROW_TYPE_UNINITIALIZED;
  schema_view->storage_type = NANOARROW_TYPE_UNINITIALIZED;
  SchemaViewResetParameters(schema_view);

  ArrowErrorCode result = ParseSchema(schema_view, schema, error);
  if (result != NANOARROW_OK) {
    memset(&schema_view->layout, 0, sizeof(schema_view->layout));
    return result;
  }

  ArrowLayoutInit(&schema_view->layout, schema_view->storage_type);
  switch (schema_view->storage_type) {
    case NANOARROW_TYPE_FIXED_SIZE_BINARY:
      schema_view->layout.element_size_bits[1] = (int64_t)schema_view->fixed_size * 8;
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      schema_view->layout.child_size_elements = schema_view->fixed_size;
      break;
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256:
      schema_view->layout.element_size_bits[1] = schema_view->decimal_bitwidth;
      break;
    default:
      break;
  }

  return ReadExtensionMetadata(schema, schema_view, error);
}

ArrowErrorCode ArrowSchemaViewInit(struct ArrowSchemaView* schema_view,
                                   const struct ArrowSchema* schema,
                                   struct ArrowError* error) {
  if (schema_view == NULL) {
    ArrowErrorSet(error, "Expected non-NULL schema_view");
    return EINVAL;
  }
  if (schema != NULL && InitFixedWidthView(schema_view, schema)) {
    return NANOARROW_OK;
  }
  return SchemaViewInitParsed(schema_view, schema, error);
}
