/* JSON Lines input of `convert`: one JSON object per line, its keys the columns
 * (parsed with jansson). */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "nanoarrow/nanoarrow.h"

#include "cli/cli_format.h"
#include "cli/cli_text.h"
#include "cli/cli_tools.h"

ArrowErrorCode CliJsonlReadLine(FILE* file, int64_t* line, struct ArrowBuffer* out,
                                int* eof, struct ArrowError* error) {
  int c;
  *eof = 0;
  for (;;) {
    int blank = 1;
    int64_t k;
    out->size_bytes = 0;
    c = getc(file);
    if (c == EOF) {
      if (ferror(file)) {
        ArrowErrorSet(error, "line %" PRId64 ": cannot read: %s", *line + 1, strerror(errno));
        return EIO;
      }
      *eof = 1;
      return NANOARROW_OK;
    }
    (*line)++;
    while (c != '\n' && c != EOF) {
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, (uint8_t)c));
      if (out->size_bytes > CLI_TEXT_MAX_RECORD_BYTES) {
        ArrowErrorSet(error, "line %" PRId64 ": longer than %" PRId64 " bytes", *line,
                      CLI_TEXT_MAX_RECORD_BYTES);
        return EINVAL;
      }
      c = getc(file);
    }
    if (c == EOF && ferror(file)) {
      ArrowErrorSet(error, "line %" PRId64 ": cannot read: %s", *line, strerror(errno));
      return EIO;
    }
    for (k = 0; k < out->size_bytes && blank; k++) {
      uint8_t b = out->data[k];
      blank = b == ' ' || b == '\t' || b == '\r';
    }
    if (!blank) return NANOARROW_OK;
  }
}

/* A string that stands for an integer beyond int64 inside an array or object: the
 * marker, then the digits. Used only for a line that holds no \u0001 of its own, so
 * no string of the input can look like one. */
#define CLI_JSONL_WIDE_MARKER "\\u0001#"
#define CLI_JSONL_WIDE_PREFIX "\x01#"

/* The line with every integer beyond int64 (a uint64, say) written as a string:
 * jansson holds integers as int64 and refuses the others. An object's own value
 * becomes the string of its digits, which reads exactly into a uint64 column (or
 * stays text, as CSV keeps such integers). One nested deeper becomes a marked
 * string (CLI_JSONL_WIDE_MARKER) when mark_nested, which DumpCompact writes back
 * as the bare digits; otherwise it is left as it is. */
static ArrowErrorCode QuoteWideIntegers(const char* text, int64_t size, int mark_nested,
                                       struct ArrowBuffer* out) {
  int64_t depth = 0;
  int in_string = 0;
  int64_t i = 0;
  while (i < size) {
    char c = text[i];
    int64_t end = i + 1;
    if (in_string) {
      if (c == '\\' && i + 1 < size) {
        end = i + 2;
      } else if (c == '"') {
        in_string = 0;
      }
    } else if (c == '"') {
      in_string = 1;
    } else if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}' || c == ']') {
      depth--;
    } else if ((depth == 1 || (depth > 1 && mark_nested)) &&
               (c == '-' || (c >= '0' && c <= '9'))) {
      int integer = 1;
      char digits[32];
      char* digits_end;
      while (end < size && text[end] != '\0' && strchr("+-0123456789.eE", text[end]) != NULL) {
        end++;
      }
      for (int64_t k = i; k < end; k++) {
        if (text[k] == '.' || text[k] == 'e' || text[k] == 'E') integer = 0;
      }
      if (integer && end - i < (int64_t)sizeof(digits)) {
        memcpy(digits, text + i, (size_t)(end - i));
        digits[end - i] = '\0';
        errno = 0;
        (void)strtoll(digits, &digits_end, 10);
        if (errno == ERANGE && *digits_end == '\0') {
          NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, '"'));
          if (depth > 1) {
            NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(out, CLI_JSONL_WIDE_MARKER,
                                                      strlen(CLI_JSONL_WIDE_MARKER)));
          }
          NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(out, text + i, end - i));
          NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, '"'));
          i = end;
          continue;
        }
      }
    }
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(out, text + i, end - i));
    i = end;
  }
  return NANOARROW_OK;
}

/* Appends a string value (or key) as JSON text, escaped as jansson escapes it. */
static ArrowErrorCode DumpString(const json_t* string, struct ArrowBuffer* out) {
  char* text = json_dumps(string, JSON_ENCODE_ANY | JSON_COMPACT);
  ArrowErrorCode rc;
  if (text == NULL) return ENOMEM;
  rc = ArrowBufferAppend(out, text, (int64_t)strlen(text));
  free(text);
  return rc;
}

/* Appends value as compact JSON text (jansson's JSON_COMPACT layout), with each real
 * number as the shortest text of its value: jansson's own dump writes 17 digits, so
 * [0.1] would become [0.10000000000000001] in the utf8 column. Depth is bounded by
 * jansson's parser. */
static ArrowErrorCode DumpCompact(json_t* value, int markers, struct ArrowBuffer* out) {
  char number[64];
  size_t index;
  const char* key;
  json_t* item;
  int first = 1;
  switch (json_typeof(value)) {
    case JSON_OBJECT:
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, '{'));
      json_object_foreach(value, key, item) {
        json_t* key_string = json_string(key);
        ArrowErrorCode rc;
        if (key_string == NULL) return ENOMEM;
        rc = first ? NANOARROW_OK : ArrowBufferAppendUInt8(out, ',');
        if (rc == NANOARROW_OK) rc = DumpString(key_string, out);
        json_decref(key_string);
        NANOARROW_RETURN_NOT_OK(rc);
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, ':'));
        NANOARROW_RETURN_NOT_OK(DumpCompact(item, markers, out));
        first = 0;
      }
      return ArrowBufferAppendUInt8(out, '}');
    case JSON_ARRAY:
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, '['));
      json_array_foreach(value, index, item) {
        if (index > 0) NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, ','));
        NANOARROW_RETURN_NOT_OK(DumpCompact(item, markers, out));
      }
      return ArrowBufferAppendUInt8(out, ']');
    case JSON_STRING:
      if (markers && json_string_length(value) > 2 &&
          memcmp(json_string_value(value), CLI_JSONL_WIDE_PREFIX, 2) == 0) {
        /* An integer beyond int64 (see QuoteWideIntegers): its digits, unquoted. */
        return ArrowBufferAppend(out, json_string_value(value) + 2,
                                 (int64_t)json_string_length(value) - 2);
      }
      return DumpString(value, out);
    case JSON_INTEGER:
      snprintf(number, sizeof(number), "%" JSON_INTEGER_FORMAT, json_integer_value(value));
      return ArrowBufferAppend(out, number, (int64_t)strlen(number));
    case JSON_REAL:
      CliFormatShortestReal(json_real_value(value), 0, 1, number, sizeof(number));
      return ArrowBufferAppend(out, number, (int64_t)strlen(number));
    case JSON_TRUE:
      return ArrowBufferAppend(out, "true", 4);
    case JSON_FALSE:
      return ArrowBufferAppend(out, "false", 5);
    default:
      return ArrowBufferAppend(out, "null", 4);
  }
}

/* Whether text holds the escape \u0001 anywhere (then no marker is used: a string
 * of the input could start as one does). */
static int HoldsEscapedU0001(const char* text, int64_t size) {
  int64_t i;
  for (i = 0; i + 6 <= size; i++) {
    if (text[i] == '\\' && memcmp(text + i + 1, "u0001", 5) == 0) return 1;
  }
  return 0;
}

/* Parses the line as an object. *markers: whether wide integers nested in arrays or
 * objects were marked (see QuoteWideIntegers). */
static ArrowErrorCode ParseObject(const char* text, int64_t size, int64_t line_no,
                                  json_t** out, int* markers, struct ArrowError* error) {
  json_error_t json_error;
  /* \u0000 is text like any other in a string value (string values are read with
   * their length); jansson refuses it in a key, which a column name could not hold. */
  json_t* value =
      json_loadb(text, (size_t)size, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &json_error);
  *markers = 0;
  if (value == NULL && json_error_code(&json_error) == json_error_numeric_overflow) {
    struct ArrowBuffer quoted;
    ArrowBufferInit(&quoted);
    *markers = !HoldsEscapedU0001(text, size);
    if (QuoteWideIntegers(text, size, *markers, &quoted) == NANOARROW_OK) {
      json_error_t quoted_error;
      value = json_loadb((const char*)quoted.data, (size_t)quoted.size_bytes,
                         JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &quoted_error);
    }
    ArrowBufferReset(&quoted);
  }
  if (value == NULL) {
    ArrowErrorSet(error, "line %" PRId64 ", column %d: %s", line_no, json_error.column,
                  json_error.text);
    return EINVAL;
  }
  if (!json_is_object(value)) {
    json_decref(value);
    ArrowErrorSet(error, "line %" PRId64 ": not a JSON object", line_no);
    return EINVAL;
  }
  *out = value;
  return NANOARROW_OK;
}

ArrowErrorCode CliJsonlCollectKeys(const char* text, int64_t size, int64_t line_no,
                                   struct CliNames* names, struct ArrowError* error) {
  json_t* object;
  const char* key;
  json_t* value;
  int rc = NANOARROW_OK;
  int markers;
  NANOARROW_RETURN_NOT_OK(ParseObject(text, size, line_no, &object, &markers, error));
  json_object_foreach(object, key, value) {
    int64_t n = (int64_t)strlen(key);
    (void)value;
    if (CliNamesFind(names, key, n) >= 0) continue;
    if (names->n == CLI_TEXT_MAX_COLUMNS) {
      ArrowErrorSet(error, "line %" PRId64 ": more than %d distinct keys", line_no,
                    CLI_TEXT_MAX_COLUMNS);
      rc = EINVAL;
      break;
    }
    rc = CliNamesAppend(names, key, n);
    if (rc != NANOARROW_OK) break;
  }
  json_decref(object);
  return rc;
}

ArrowErrorCode CliJsonlToCells(const char* text, int64_t size, int64_t line_no,
                               const struct CliNames* columns, struct CliTextRows* rows,
                               struct ArrowError* error) {
  json_t* object;
  const char* key;
  json_t* value;
  int64_t first_cell = rows->cells.size_bytes / (int64_t)sizeof(struct CliTextCell);
  int64_t i;
  int rc = NANOARROW_OK;
  /* The text of an array or object value, reused from one to the next. */
  struct ArrowBuffer nested;
  int markers;

  NANOARROW_RETURN_NOT_OK(ParseObject(text, size, line_no, &object, &markers, error));
  ArrowBufferInit(&nested);
  /* Absent keys are nulls. */
  for (i = 0; rc == NANOARROW_OK && i < columns->n; i++) {
    rc = CliTextRowsAppendCell(rows, NULL, 0, CLI_CELL_NULL);
  }
  json_object_foreach(object, key, value) {
    struct CliTextCell* cell;
    char number[64];
    const char* data = number;
    int64_t n = 0;
    enum CliCellKind kind;
    int64_t column;
    if (rc != NANOARROW_OK) break;
    column = CliNamesFind(columns, key, (int64_t)strlen(key));
    if (column < 0) {
      ArrowErrorSet(error, "line %" PRId64 ": key '%.100s' is not a column (%s)", line_no,
                    key,
                    "the columns are the keys of the first lines, or those of --schema");
      rc = EINVAL;
      break;
    }
    switch (json_typeof(value)) {
      case JSON_NULL:
        continue;
      case JSON_TRUE:
      case JSON_FALSE:
        kind = CLI_CELL_BOOL;
        data = json_is_true(value) ? "true" : "false";
        n = (int64_t)strlen(data);
        break;
      case JSON_INTEGER:
        kind = CLI_CELL_INT;
        n = snprintf(number, sizeof(number), "%" JSON_INTEGER_FORMAT, json_integer_value(value));
        break;
      case JSON_REAL:
        kind = CLI_CELL_REAL;
        /* The shortest text of the double: a utf8 column keeps 0.1 as "0.1" (17
         * digits would make it "0.10000000000000001"), a float64 column reads it
         * back as the same value. */
        CliFormatShortestReal(json_real_value(value), 0, 1, number, sizeof(number));
        n = (int64_t)strlen(number);
        break;
      case JSON_STRING:
        kind = CLI_CELL_STRING;
        data = json_string_value(value);
        n = (int64_t)json_string_length(value);
        break;
      default:
        kind = CLI_CELL_JSON;
        nested.size_bytes = 0;
        rc = DumpCompact(value, markers, &nested);
        if (rc != NANOARROW_OK) {
          ArrowErrorSet(error, "line %" PRId64 ": out of memory", line_no);
          continue;
        }
        data = (const char*)nested.data;
        n = nested.size_bytes;
        break;
    }
    /* The cell was null; it now points at text appended at the end. */
    cell = (struct CliTextCell*)rows->cells.data + first_cell + column;
    cell->start = rows->text.size_bytes;
    cell->size = n;
    cell->kind = kind;
    if (n > 0) rc = ArrowBufferAppend(&rows->text, data, n);
  }
  ArrowBufferReset(&nested);
  json_decref(object);
  if (rc != NANOARROW_OK && error->message[0] == '\0') ArrowErrorSet(error, "%s", strerror(rc));
  return rc;
}
