/* `convert` from CSV and JSON Lines: the column types (given with --schema or
 * inferred from the first rows) and a stream that builds record batches of text
 * rows, one batch in memory at a time. */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nanoarrow/nanoarrow.h"

#include "testing/testing_private.h"
#include "cli/cli_text.h"
#include "cli/cli_tools.h"

/* ---- Row sets and names ---- */

void CliTextRowsInit(struct CliTextRows* rows) {
  ArrowBufferInit(&rows->text);
  ArrowBufferInit(&rows->cells);
  ArrowBufferInit(&rows->lines);
  rows->n_rows = 0;
}

void CliTextRowsClear(struct CliTextRows* rows) {
  rows->text.size_bytes = 0;
  rows->cells.size_bytes = 0;
  rows->lines.size_bytes = 0;
  rows->n_rows = 0;
}

void CliTextRowsReset(struct CliTextRows* rows) {
  ArrowBufferReset(&rows->text);
  ArrowBufferReset(&rows->cells);
  ArrowBufferReset(&rows->lines);
  rows->n_rows = 0;
}

ArrowErrorCode CliTextRowsAppendCell(struct CliTextRows* rows, const char* data,
                                     int64_t size, enum CliCellKind kind) {
  struct CliTextCell cell;
  cell.start = rows->text.size_bytes;
  cell.size = size;
  cell.kind = kind;
  if (size > 0) NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&rows->text, data, size));
  return ArrowBufferAppend(&rows->cells, &cell, (int64_t)sizeof(cell));
}

void CliNamesReset(struct CliNames* names) {
  int64_t i;
  for (i = 0; i < names->n; i++) free(names->names[i]);
  free(names->names);
  names->names = NULL;
  names->n = 0;
  names->capacity = 0;
}

int64_t CliNamesFind(const struct CliNames* names, const char* name, int64_t n) {
  int64_t i;
  for (i = 0; i < names->n; i++) {
    if ((int64_t)strlen(names->names[i]) == n &&
        (n == 0 || memcmp(names->names[i], name, (size_t)n) == 0)) {
      return i;
    }
  }
  return -1;
}

ArrowErrorCode CliNamesAppend(struct CliNames* names, const char* name, int64_t n) {
  char* copy;
  if (names->n == names->capacity) {
    int64_t capacity = names->capacity == 0 ? 16 : 2 * names->capacity;
    char** grown = (char**)realloc(names->names, (size_t)capacity * sizeof(char*));
    if (grown == NULL) return ENOMEM;
    names->names = grown;
    names->capacity = capacity;
  }
  copy = (char*)malloc((size_t)n + 1);
  if (copy == NULL) return ENOMEM;
  if (n > 0) memcpy(copy, name, (size_t)n);
  copy[n] = '\0';
  names->names[names->n++] = copy;
  return NANOARROW_OK;
}

enum CliTextFormat CliTextFormatFromPath(const char* path) {
  const char* dot = strrchr(path, '.');
  if (dot == NULL) return (enum CliTextFormat)0;
  if (strcmp(dot, ".csv") == 0) return CLI_TEXT_CSV;
  if (strcmp(dot, ".jsonl") == 0 || strcmp(dot, ".ndjson") == 0) return CLI_TEXT_JSONL;
  return (enum CliTextFormat)0;
}

/* ---- --schema ---- */

static const struct {
  const char* name;
  enum ArrowType type;
  enum ArrowTimeUnit unit;
} kTypeNames[] = {{"null", NANOARROW_TYPE_NA, NANOARROW_TIME_UNIT_SECOND},
                  {"bool", NANOARROW_TYPE_BOOL, NANOARROW_TIME_UNIT_SECOND},
                  {"boolean", NANOARROW_TYPE_BOOL, NANOARROW_TIME_UNIT_SECOND},
                  {"int8", NANOARROW_TYPE_INT8, NANOARROW_TIME_UNIT_SECOND},
                  {"int16", NANOARROW_TYPE_INT16, NANOARROW_TIME_UNIT_SECOND},
                  {"int32", NANOARROW_TYPE_INT32, NANOARROW_TIME_UNIT_SECOND},
                  {"int64", NANOARROW_TYPE_INT64, NANOARROW_TIME_UNIT_SECOND},
                  {"uint8", NANOARROW_TYPE_UINT8, NANOARROW_TIME_UNIT_SECOND},
                  {"uint16", NANOARROW_TYPE_UINT16, NANOARROW_TIME_UNIT_SECOND},
                  {"uint32", NANOARROW_TYPE_UINT32, NANOARROW_TIME_UNIT_SECOND},
                  {"uint64", NANOARROW_TYPE_UINT64, NANOARROW_TIME_UNIT_SECOND},
                  {"float32", NANOARROW_TYPE_FLOAT, NANOARROW_TIME_UNIT_SECOND},
                  {"float", NANOARROW_TYPE_FLOAT, NANOARROW_TIME_UNIT_SECOND},
                  {"float64", NANOARROW_TYPE_DOUBLE, NANOARROW_TIME_UNIT_SECOND},
                  {"double", NANOARROW_TYPE_DOUBLE, NANOARROW_TIME_UNIT_SECOND},
                  {"utf8", NANOARROW_TYPE_STRING, NANOARROW_TIME_UNIT_SECOND},
                  {"string", NANOARROW_TYPE_STRING, NANOARROW_TIME_UNIT_SECOND},
                  {"date32", NANOARROW_TYPE_DATE32, NANOARROW_TIME_UNIT_SECOND},
                  {"timestamp[s]", NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_SECOND},
                  {"timestamp[ms]", NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_MILLI},
                  {"timestamp[us]", NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_MICRO},
                  {"timestamp[ns]", NANOARROW_TYPE_TIMESTAMP, NANOARROW_TIME_UNIT_NANO}};

ArrowErrorCode CliParseSchemaSpec(const char* spec, struct ArrowSchema* out,
                                  struct ArrowError* error) {
  struct CliNames names = {NULL, 0, 0};
  struct ArrowBuffer types;
  const char* p = spec;
  int64_t i;
  int rc = NANOARROW_OK;

  ArrowBufferInit(&types);
  while (rc == NANOARROW_OK) {
    size_t n = strcspn(p, ",");
    const char* colon = memchr(p, ':', n);
    size_t k;
    int found = 0;
    if (colon == NULL || colon == p) {
      ArrowErrorSet(error, "--schema: '%.*s' is not NAME:TYPE", (int)(n > 200 ? 200 : n), p);
      rc = EINVAL;
      break;
    }
    if (CliNamesFind(&names, p, colon - p) >= 0) {
      ArrowErrorSet(error, "--schema: column '%.*s' named twice", (int)(colon - p), p);
      rc = EINVAL;
      break;
    }
    for (k = 0; k < sizeof(kTypeNames) / sizeof(kTypeNames[0]); k++) {
      size_t type_n = n - (size_t)(colon + 1 - p);
      if (strlen(kTypeNames[k].name) == type_n &&
          strncmp(colon + 1, kTypeNames[k].name, type_n) == 0) {
        int32_t type = (int32_t)k;
        rc = ArrowBufferAppend(&types, &type, sizeof(type));
        found = 1;
        break;
      }
    }
    if (!found) {
      ArrowErrorSet(error,
                    "--schema: unknown type '%.*s' (types: bool, int8, int16, int32, int64, "
                    "uint8, uint16, uint32, uint64, float32, float64, utf8, date32, "
                    "timestamp[s|ms|us|ns], null)",
                    (int)(n - (size_t)(colon + 1 - p) > 100 ? 100 : n - (size_t)(colon + 1 - p)),
                    colon + 1);
      rc = EINVAL;
      break;
    }
    if (rc == NANOARROW_OK) rc = CliNamesAppend(&names, p, colon - p);
    if (p[n] == '\0') break;
    p += n + 1;
  }
  if (rc == NANOARROW_OK) {
    ArrowSchemaInit(out);
    rc = ArrowSchemaSetTypeStruct(out, names.n);
    for (i = 0; rc == NANOARROW_OK && i < names.n; i++) {
      int32_t k = ((int32_t*)types.data)[i];
      if (kTypeNames[k].type == NANOARROW_TYPE_TIMESTAMP) {
        rc = ArrowSchemaSetTypeDateTime(out->children[i], NANOARROW_TYPE_TIMESTAMP,
                                        kTypeNames[k].unit, NULL);
      } else {
        rc = ArrowSchemaSetType(out->children[i], kTypeNames[k].type);
      }
      if (rc == NANOARROW_OK) rc = ArrowSchemaSetName(out->children[i], names.names[i]);
    }
    if (rc != NANOARROW_OK) {
      ArrowSchemaRelease(out);
      ArrowErrorSet(error, "--schema: %s", strerror(rc));
    }
  }
  CliNamesReset(&names);
  ArrowBufferReset(&types);
  return rc;
}

/* ---- Values ---- */

static int ParseInt64(const char* text, int64_t* out) {
  char* end;
  long long value;
  if (text[0] == '\0' || text[0] == ' ' || text[0] == '\t' || text[0] == '+') return 0;
  errno = 0;
  value = strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0') return 0;
  *out = (int64_t)value;
  return 1;
}

static int ParseUInt64(const char* text, uint64_t* out) {
  char* end;
  unsigned long long value;
  if (text[0] < '0' || text[0] > '9') return 0;
  errno = 0;
  value = strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0') return 0;
  *out = (uint64_t)value;
  return 1;
}

static int ParseDouble(const char* text, double* out) {
  char* end;
  if (text[0] == '\0' || text[0] == ' ' || text[0] == '\t' || text[0] == '\n') return 0;
  /* No hexadecimal floats. */
  if (strchr(text, 'x') != NULL || strchr(text, 'X') != NULL) return 0;
  errno = 0;
  *out = strtod(text, &end);
  if (*end != '\0') return 0;
  /* Overflow is an error; underflow (a denormal or zero) is the nearest double. */
  return !(errno == ERANGE && isinf(*out));
}

/* An optional '-' and digits only. */
static int IsIntegerSyntax(const char* text) {
  if (*text == '-') text++;
  if (*text == '\0') return 0;
  for (; *text != '\0'; text++) {
    if (*text < '0' || *text > '9') return 0;
  }
  return 1;
}

/* Days from 1970-01-01 to the proleptic Gregorian date y-m-d (the civil-from-days
 * arithmetic on 400-year eras of 146097 days, with years starting in March). */
static int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  int64_t era;
  int64_t year_of_era;
  int64_t day_of_year;
  int64_t day_of_era;
  y -= m <= 2;
  era = (y >= 0 ? y : y - 399) / 400;
  year_of_era = y - era * 400;
  day_of_year = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

/* n decimal digits at *p (advanced past them). */
static int Digits(const char** p, int n, int64_t* out) {
  int i;
  *out = 0;
  for (i = 0; i < n; i++) {
    if ((*p)[i] < '0' || (*p)[i] > '9') return 0;
    *out = *out * 10 + ((*p)[i] - '0');
  }
  *p += n;
  return 1;
}

/* "YYYY-MM-DD" with, unless date_only, an optional "THH:MM[:SS[.fraction]]"
 * ('T' or a space) and an optional 'Z', as days (date_only) or as a count of unit
 * since the epoch. 0 when malformed, out of range or more precise than unit. */
static int ParseIso8601(const char* text, int date_only, enum ArrowTimeUnit unit,
                        int64_t* out) {
  static const int kMonthDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  static const int64_t kPerSecond[] = {1, 1000, 1000000, 1000000000};
  const char* p = text;
  int64_t year, month, day, hour = 0, minute = 0, second = 0, nanos = 0;
  int64_t days;
  int64_t seconds;
  int64_t per_second = kPerSecond[unit];
  int leap;
  if (!Digits(&p, 4, &year) || *p++ != '-' || !Digits(&p, 2, &month) || *p++ != '-' ||
      !Digits(&p, 2, &day)) {
    return 0;
  }
  leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month < 1 || month > 12 || day < 1 || day > kMonthDays[month - 1] ||
      (month == 2 && day == 29 && !leap)) {
    return 0;
  }
  days = DaysFromCivil(year, month, day);
  if (date_only) {
    *out = days;
    return *p == '\0';
  }
  if (*p == 'T' || *p == ' ') {
    p++;
    if (!Digits(&p, 2, &hour) || *p++ != ':' || !Digits(&p, 2, &minute)) return 0;
    if (*p == ':') {
      p++;
      if (!Digits(&p, 2, &second)) return 0;
      if (*p == '.') {
        int64_t scale = 100000000;
        p++;
        if (*p < '0' || *p > '9') return 0;
        for (; *p >= '0' && *p <= '9'; p++) {
          if (scale == 0) return 0;
          nanos += (*p - '0') * scale;
          scale /= 10;
        }
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return 0;
  }
  if (*p == 'Z') p++;
  if (*p != '\0') return 0;
  if (nanos % (1000000000 / per_second) != 0) return 0;
  seconds = days * 86400 + hour * 3600 + minute * 60 + second;
  nanos /= 1000000000 / per_second;
  /* Years 0000-9999 are within int64 seconds; finer units may not be. Before
   * 1970 with a fraction, the value is (seconds + 1) units less (1 - fraction). */
  if (seconds < 0 && nanos > 0) {
    seconds += 1;
    nanos -= per_second;
  }
  if (nanos >= 0) {
    /* (nanos is 0 when seconds < 0.) Division truncates toward 0: a ceiling below 0. */
    if (seconds >= 0 ? seconds > (INT64_MAX - nanos) / per_second
                     : seconds < INT64_MIN / per_second) {
      return 0;
    }
  } else if (seconds < (INT64_MIN - nanos) / per_second) {
    return 0;
  }
  *out = seconds * per_second + nanos;
  return 1;
}

static int ParseBool(const char* text, int* out) {
  if (strcasecmp(text, "true") == 0) {
    *out = 1;
    return 1;
  }
  if (strcasecmp(text, "false") == 0) {
    *out = 0;
    return 1;
  }
  return 0;
}

struct Reader {
  FILE* file;
  int close_file;
  enum CliTextFormat format;
  int64_t line;
  int eof;
  /* The types were inferred (not given with --schema). */
  int inferred;
  struct ArrowSchema schema;
  struct CliNames columns;
  /* The rows read to infer the types, appended first. */
  struct CliTextRows sample;
  int64_t sample_next;
  /* One row read afterwards. */
  struct CliTextRows row;
  struct ArrowBuffer line_text;
  char* value;
  int64_t value_capacity;
  char error[1024];
};

/* A cell's text as a NUL-terminated string (reader->value). */
static ArrowErrorCode CellText(struct Reader* reader, const struct CliTextRows* rows,
                               const struct CliTextCell* cell, const char** out) {
  if (cell->size + 1 > reader->value_capacity) {
    int64_t capacity = cell->size + 1 > 2 * reader->value_capacity
                           ? cell->size + 1
                           : 2 * reader->value_capacity;
    char* grown = (char*)realloc(reader->value, (size_t)capacity);
    if (grown == NULL) return ENOMEM;
    reader->value = grown;
    reader->value_capacity = capacity;
  }
  if (cell->size > 0) memcpy(reader->value, CliTextRowsCellText(rows, cell), (size_t)cell->size);
  reader->value[cell->size] = '\0';
  *out = reader->value;
  return NANOARROW_OK;
}

/* The parsers of numbers, booleans and dates read C strings, which would end at a NUL
 * byte inside the value ("1", NUL, "2" read as 1): such a value is text only. */
static int CellHoldsNul(const char* text, const struct CliTextCell* cell) {
  return cell->size > 0 && memchr(text, '\0', (size_t)cell->size) != NULL;
}

/* Appends cell (row `row` of rows) to column c. */
static ArrowErrorCode AppendCell(struct Reader* reader, struct ArrowArray* column, int64_t c,
                                 const struct CliTextRows* rows, int64_t row,
                                 struct ArrowError* error) {
  const struct CliTextCell* cell =
      (const struct CliTextCell*)rows->cells.data + row * reader->schema.n_children + c;
  int64_t line = ((const int64_t*)rows->lines.data)[row];
  const struct ArrowSchema* field = reader->schema.children[c];
  struct ArrowSchemaView view;
  const char* text;
  int ok = 1;
  int rc;

  if (cell->kind == CLI_CELL_NULL) {
    rc = ArrowArrayAppendNull(column, 1);
    if (rc != NANOARROW_OK) ArrowErrorSet(error, "%s", strerror(rc));
    return rc;
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&view, field, error));
  NANOARROW_RETURN_NOT_OK(CellText(reader, rows, cell, &text));
  if (view.type != NANOARROW_TYPE_STRING && CellHoldsNul(text, cell)) {
    char type_text[64];
    ArrowSchemaToString(field, type_text, sizeof(type_text), 0);
    ArrowErrorSet(error, "line %" PRId64 ", column '%s': a value holding a NUL byte is not a valid %s",
                  line, field->name != NULL ? field->name : "", type_text);
    return EINVAL;
  }
  switch (view.type) {
    case NANOARROW_TYPE_STRING: {
      struct ArrowStringView value;
      value.data = text;
      value.size_bytes = cell->size;
      if (ArrowTestingUtf8InvalidAt((const uint8_t*)text, cell->size) >= 0) {
        ArrowErrorSet(error, "line %" PRId64 ", column '%s': text that is not valid UTF-8",
                      line, field->name != NULL ? field->name : "");
        return EINVAL;
      }
      rc = ArrowArrayAppendString(column, value);
      break;
    }
    case NANOARROW_TYPE_BOOL: {
      int value = 0;
      ok = (cell->kind == CLI_CELL_TEXT || cell->kind == CLI_CELL_STRING ||
            cell->kind == CLI_CELL_BOOL) &&
           ParseBool(text, &value);
      rc = ok ? ArrowArrayAppendInt(column, value) : EINVAL;
      break;
    }
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_INT64: {
      int64_t value = 0;
      ok = (cell->kind == CLI_CELL_TEXT || cell->kind == CLI_CELL_STRING ||
            cell->kind == CLI_CELL_INT) &&
           ParseInt64(text, &value);
      /* AppendInt refuses a value out of the type's range. */
      rc = ok ? ArrowArrayAppendInt(column, value) : EINVAL;
      if (rc != NANOARROW_OK) ok = 0;
      break;
    }
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_UINT64: {
      uint64_t value = 0;
      ok = (cell->kind == CLI_CELL_TEXT || cell->kind == CLI_CELL_STRING ||
            cell->kind == CLI_CELL_INT) &&
           ParseUInt64(text, &value);
      rc = ok ? ArrowArrayAppendUInt(column, value) : EINVAL;
      if (rc != NANOARROW_OK) ok = 0;
      break;
    }
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE: {
      double value = 0;
      ok = (cell->kind == CLI_CELL_TEXT || cell->kind == CLI_CELL_STRING ||
            cell->kind == CLI_CELL_INT || cell->kind == CLI_CELL_REAL) &&
           ParseDouble(text, &value);
      if (ok && view.type == NANOARROW_TYPE_FLOAT && fabs(value) > 3.4028234663852886e38 &&
          !isinf(value)) {
        ok = 0;
      }
      rc = ok ? ArrowArrayAppendDouble(column, value) : EINVAL;
      break;
    }
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_TIMESTAMP: {
      /* The integer storage (what cat prints), or ISO 8601 text. */
      int64_t value = 0;
      ok = (cell->kind == CLI_CELL_TEXT || cell->kind == CLI_CELL_STRING ||
            cell->kind == CLI_CELL_INT) &&
           (ParseInt64(text, &value) ||
            (cell->kind != CLI_CELL_INT &&
             ParseIso8601(text, view.type == NANOARROW_TYPE_DATE32, view.time_unit, &value)));
      rc = ok ? ArrowArrayAppendInt(column, value) : EINVAL;
      if (rc != NANOARROW_OK) ok = 0;
      break;
    }
    default:
      /* null: only nulls. */
      ok = 0;
      rc = EINVAL;
      break;
  }
  if (!ok) {
    char type_text[64];
    ArrowSchemaToString(field, type_text, sizeof(type_text), 0);
    ArrowErrorSet(error, "line %" PRId64 ", column '%s': %s%.60s%s%s is not a valid %s%s",
                  line, field->name != NULL ? field->name : "",
                  cell->kind == CLI_CELL_STRING || cell->kind == CLI_CELL_TEXT ? "'" : "",
                  text, cell->size > 60 ? "..." : "",
                  cell->kind == CLI_CELL_STRING || cell->kind == CLI_CELL_TEXT ? "'" : "",
                  type_text,
                  reader->inferred
                      ? " (the types were inferred from the first rows; give --schema)"
                      : "");
    return EINVAL;
  }
  if (rc != NANOARROW_OK) ArrowErrorSet(error, "line %" PRId64 ": %s", line, strerror(rc));
  return rc;
}

/* Reads one more row into rows (after the sample, reader->row); *eof at the end. */
static ArrowErrorCode ReadRow(struct Reader* reader, struct CliTextRows* rows, int* eof,
                              struct ArrowError* error) {
  int64_t line = reader->line + 1;
  if (reader->format == CLI_TEXT_CSV) {
    int64_t n_fields = 0;
    int64_t before = rows->cells.size_bytes;
    for (;;) {
      const struct CliTextCell* first;
      line = reader->line + 1;
      NANOARROW_RETURN_NOT_OK(
          CliCsvReadRecord(reader->file, &reader->line, rows, &n_fields, eof, error));
      if (*eof) return NANOARROW_OK;
      /* A blank line is a null in a table of one column (as cat writes it); with more
       * columns it cannot be a record and is skipped, as other CSV readers do. */
      first = (const struct CliTextCell*)(rows->cells.data + before);
      if (n_fields == 1 && first->kind == CLI_CELL_NULL && reader->columns.n > 1) {
        rows->cells.size_bytes = before;
        continue;
      }
      break;
    }
    if (n_fields != reader->columns.n) {
      ArrowErrorSet(error, "line %" PRId64 ": %" PRId64 " field%s, expected %" PRId64
                    " (as the header has)", line, n_fields, n_fields == 1 ? "" : "s",
                    reader->columns.n);
      rows->cells.size_bytes = before;
      return EINVAL;
    }
  } else {
    NANOARROW_RETURN_NOT_OK(
        CliJsonlReadLine(reader->file, &reader->line, &reader->line_text, eof, error));
    if (*eof) return NANOARROW_OK;
    line = reader->line;
    NANOARROW_RETURN_NOT_OK(CliJsonlToCells((const char*)reader->line_text.data,
                                            reader->line_text.size_bytes, line,
                                            &reader->columns, rows, error));
  }
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&rows->lines, &line, sizeof(line)));
  rows->n_rows++;
  return NANOARROW_OK;
}

/* ---- Inference ---- */

/* Bits of what a column's cells looked like. */
#define SEEN_INT 1
#define SEEN_FLOAT 2
#define SEEN_BOOL 4
#define SEEN_OTHER 8

static enum ArrowType InferType(struct Reader* reader, int64_t c) {
  int64_t n_columns = reader->columns.n;
  int seen = 0;
  int64_t r;
  for (r = 0; r < reader->sample.n_rows; r++) {
    const struct CliTextCell* cell =
        (const struct CliTextCell*)reader->sample.cells.data + r * n_columns + c;
    const char* text;
    int64_t int_value;
    double double_value;
    int bool_value;
    switch (cell->kind) {
      case CLI_CELL_NULL:
        break;
      case CLI_CELL_INT:
        seen |= SEEN_INT;
        break;
      case CLI_CELL_REAL:
        seen |= SEEN_FLOAT;
        break;
      case CLI_CELL_BOOL:
        seen |= SEEN_BOOL;
        break;
      case CLI_CELL_TEXT:
        if (CellText(reader, &reader->sample, cell, &text) != NANOARROW_OK) return NANOARROW_TYPE_STRING;
        if (CellHoldsNul(text, cell)) {
          seen |= SEEN_OTHER;
        } else if (ParseInt64(text, &int_value)) {
          seen |= SEEN_INT;
        } else if (IsIntegerSyntax(text)) {
          /* Beyond int64: kept exactly as text rather than rounded to a double. */
          seen |= SEEN_OTHER;
        } else if (ParseDouble(text, &double_value)) {
          seen |= SEEN_FLOAT;
        } else if (ParseBool(text, &bool_value)) {
          seen |= SEEN_BOOL;
        } else {
          seen |= SEEN_OTHER;
        }
        break;
      default:
        seen |= SEEN_OTHER;
        break;
    }
  }
  if (seen == 0 || (seen & SEEN_OTHER)) return NANOARROW_TYPE_STRING;
  if (seen & SEEN_BOOL) return seen == SEEN_BOOL ? NANOARROW_TYPE_BOOL : NANOARROW_TYPE_STRING;
  if (seen & SEEN_FLOAT) return NANOARROW_TYPE_DOUBLE;
  return NANOARROW_TYPE_INT64;
}

/* ---- The stream ---- */

static int TextGetSchema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct Reader* reader = (struct Reader*)stream->private_data;
  return ArrowSchemaDeepCopy(&reader->schema, out);
}

static int TextGetNext(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct Reader* reader = (struct Reader*)stream->private_data;
  struct ArrowError error;
  const int64_t n_columns = reader->schema.n_children;
  const int64_t max_rows = n_columns > CLI_TEXT_BATCH_VALUES / CLI_TEXT_BATCH_ROWS
                               ? CLI_TEXT_BATCH_VALUES / n_columns
                               : CLI_TEXT_BATCH_ROWS;
  int64_t n_rows = 0;
  int64_t c;
  int rc;

  error.message[0] = '\0';
  reader->error[0] = '\0';
  out->release = NULL;
  if (reader->eof && reader->sample_next == reader->sample.n_rows) return NANOARROW_OK;
  rc = ArrowArrayInitFromSchema(out, &reader->schema, &error);
  if (rc == NANOARROW_OK) rc = ArrowArrayStartAppending(out);
  while (rc == NANOARROW_OK && n_rows < max_rows) {
    struct CliTextRows* rows;
    int64_t row;
    if (reader->sample_next < reader->sample.n_rows) {
      rows = &reader->sample;
      row = reader->sample_next++;
    } else {
      int eof = 0;
      if (reader->eof) break;
      CliTextRowsClear(&reader->row);
      rc = ReadRow(reader, &reader->row, &eof, &error);
      if (rc != NANOARROW_OK) break;
      if (eof) {
        reader->eof = 1;
        break;
      }
      rows = &reader->row;
      row = 0;
    }
    for (c = 0; rc == NANOARROW_OK && c < n_columns; c++) {
      rc = AppendCell(reader, out->children[c], c, rows, row, &error);
    }
    if (rc == NANOARROW_OK) rc = ArrowArrayFinishElement(out);
    n_rows++;
  }
  if (reader->sample.n_rows > 0 && reader->sample_next == reader->sample.n_rows) {
    CliTextRowsReset(&reader->sample);
    reader->sample_next = 0;
  }
  if (rc == NANOARROW_OK && n_rows == 0) {
    ArrowArrayRelease(out);
    out->release = NULL;
    return NANOARROW_OK;
  }
  if (rc == NANOARROW_OK) rc = ArrowArrayFinishBuildingDefault(out, &error);
  if (rc != NANOARROW_OK) {
    if (out->release != NULL) ArrowArrayRelease(out);
    out->release = NULL;
    snprintf(reader->error, sizeof(reader->error), "%s",
             error.message[0] != '\0' ? error.message : strerror(rc));
  }
  return rc;
}

static const char* TextGetLastError(struct ArrowArrayStream* stream) {
  struct Reader* reader = (struct Reader*)stream->private_data;
  return reader->error;
}

static void TextRelease(struct ArrowArrayStream* stream) {
  struct Reader* reader = (struct Reader*)stream->private_data;
  if (reader->close_file && reader->file != NULL) fclose(reader->file);
  if (reader->schema.release != NULL) ArrowSchemaRelease(&reader->schema);
  CliNamesReset(&reader->columns);
  CliTextRowsReset(&reader->sample);
  CliTextRowsReset(&reader->row);
  ArrowBufferReset(&reader->line_text);
  free(reader->value);
  free(reader);
  stream->release = NULL;
}

/* Reads the header (CSV) and the sample, and settles the columns and their types. */
static ArrowErrorCode Start(struct Reader* reader, const struct ArrowSchema* schema,
                            struct ArrowError* error) {
  struct ArrowBuffer lines;
  struct ArrowBuffer line_numbers;
  int eof = 0;
  int64_t i;

  if (reader->format == CLI_TEXT_CSV) {
    int64_t n_fields = 0;
    const struct CliTextCell* cells;
    NANOARROW_RETURN_NOT_OK(
        CliCsvReadRecord(reader->file, &reader->line, &reader->row, &n_fields, &eof, error));
    if (eof) {
      ArrowErrorSet(error, "no header line (the input is empty)");
      return EINVAL;
    }
    if (n_fields > CLI_TEXT_MAX_COLUMNS) {
      ArrowErrorSet(error, "line 1: more than %d columns", CLI_TEXT_MAX_COLUMNS);
      return EINVAL;
    }
    cells = (const struct CliTextCell*)reader->row.cells.data;
    for (i = 0; i < n_fields; i++) {
      /* Arrow's names are UTF-8 (other readers refuse a schema whose names are not). */
      if (ArrowTestingUtf8InvalidAt((const uint8_t*)CliTextRowsCellText(&reader->row, &cells[i]),
                                    cells[i].size) >= 0) {
        ArrowErrorSet(error, "line 1: the name of column %" PRId64 " is not valid UTF-8", i + 1);
        return EINVAL;
      }
      NANOARROW_RETURN_NOT_OK(CliNamesAppend(
          &reader->columns, CliTextRowsCellText(&reader->row, &cells[i]), cells[i].size));
    }
    CliTextRowsClear(&reader->row);
    if (schema != NULL && schema->n_children != n_fields) {
      ArrowErrorSet(error, "--schema names %" PRId64 " columns, the header %" PRId64,
                    schema->n_children, n_fields);
      return EINVAL;
    }
  } else if (schema != NULL) {
    for (i = 0; i < schema->n_children; i++) {
      const char* name = schema->children[i]->name;
      NANOARROW_RETURN_NOT_OK(CliNamesAppend(&reader->columns, name, (int64_t)strlen(name)));
    }
  }

  if (schema != NULL) {
    NANOARROW_RETURN_NOT_OK(ArrowSchemaDeepCopy(schema, &reader->schema));
    return NANOARROW_OK;
  }

  /* The sample. JSON Lines: the lines first, for the keys. */
  ArrowBufferInit(&lines);
  ArrowBufferInit(&line_numbers);
  if (reader->format == CLI_TEXT_JSONL) {
    struct ArrowBuffer offsets;
    int64_t start = 0;
    int rc = NANOARROW_OK;
    ArrowBufferInit(&offsets);
    for (i = 0; rc == NANOARROW_OK && i < CLI_TEXT_SAMPLE_ROWS; i++) {
      rc = CliJsonlReadLine(reader->file, &reader->line, &reader->line_text, &eof, error);
      if (rc != NANOARROW_OK || eof) break;
      rc = CliJsonlCollectKeys((const char*)reader->line_text.data,
                               reader->line_text.size_bytes, reader->line, &reader->columns,
                               error);
      if (rc == NANOARROW_OK) {
        rc = ArrowBufferAppend(&lines, reader->line_text.data, reader->line_text.size_bytes);
      }
      if (rc == NANOARROW_OK) rc = ArrowBufferAppendInt64(&offsets, lines.size_bytes);
      if (rc == NANOARROW_OK) rc = ArrowBufferAppendInt64(&line_numbers, reader->line);
    }
    if (eof) reader->eof = 1;
    for (i = 0; rc == NANOARROW_OK && i < offsets.size_bytes / 8; i++) {
      int64_t end = ((const int64_t*)offsets.data)[i];
      int64_t line = ((const int64_t*)line_numbers.data)[i];
      rc = CliJsonlToCells((const char*)lines.data + start, end - start, line,
                           &reader->columns, &reader->sample, error);
      if (rc == NANOARROW_OK) rc = ArrowBufferAppendInt64(&reader->sample.lines, line);
      if (rc == NANOARROW_OK) reader->sample.n_rows++;
      start = end;
    }
    ArrowBufferReset(&offsets);
    ArrowBufferReset(&lines);
    ArrowBufferReset(&line_numbers);
    NANOARROW_RETURN_NOT_OK(rc);
    if (reader->columns.n == 0) {
      ArrowErrorSet(error, "no keys in the first %d lines to make columns of",
                    CLI_TEXT_SAMPLE_ROWS);
      return EINVAL;
    }
  } else {
    for (i = 0; i < CLI_TEXT_SAMPLE_ROWS; i++) {
      NANOARROW_RETURN_NOT_OK(ReadRow(reader, &reader->sample, &eof, error));
      if (eof) {
        reader->eof = 1;
        break;
      }
    }
  }

  ArrowSchemaInit(&reader->schema);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaSetTypeStruct(&reader->schema, reader->columns.n));
  for (i = 0; i < reader->columns.n; i++) {
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetType(reader->schema.children[i], InferType(reader, i)));
    NANOARROW_RETURN_NOT_OK(ArrowSchemaSetName(reader->schema.children[i], reader->columns.names[i]));
  }
  reader->inferred = 1;
  return NANOARROW_OK;
}

/* Skips a UTF-8 byte order mark at the start of file, as spreadsheet programs write
 * one before CSV (RFC 8259 lets a JSON reader ignore it too). Bytes that only begin
 * like one are pushed back to be read as text. */
static ArrowErrorCode SkipByteOrderMark(FILE* file, struct ArrowError* error) {
  static const int kMark[3] = {0xEF, 0xBB, 0xBF};
  int got[3];
  int n = 0;
  while (n < 3) {
    got[n] = getc(file);
    if (got[n] != kMark[n]) break;
    n++;
  }
  if (n == 3) return NANOARROW_OK;
  /* got[n] differs from the mark (or is EOF); push back what was read, last first. */
  if (got[n] != EOF && ungetc(got[n], file) == EOF) n = -1;
  while (n > 0 && ungetc(got[n - 1], file) != EOF) n--;
  if (n != 0) {
    ArrowErrorSet(error, "cannot push back the first bytes of the input");
    return EIO;
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliOpenTextFile(FILE* file, int close_file, enum CliTextFormat format,
                               const struct ArrowSchema* schema,
                               struct ArrowArrayStream* out, struct ArrowError* error) {
  struct Reader* reader = (struct Reader*)calloc(1, sizeof(struct Reader));
  int rc;
  if (reader == NULL) {
    if (close_file) fclose(file);
    ArrowErrorSet(error, "out of memory");
    return ENOMEM;
  }
  reader->format = format;
  reader->file = file;
  reader->close_file = close_file;
  CliTextRowsInit(&reader->sample);
  CliTextRowsInit(&reader->row);
  ArrowBufferInit(&reader->line_text);
  out->private_data = reader;
  out->get_schema = &TextGetSchema;
  out->get_next = &TextGetNext;
  out->get_last_error = &TextGetLastError;
  out->release = &TextRelease;
  error->message[0] = '\0';
  rc = SkipByteOrderMark(file, error);
  if (rc == NANOARROW_OK) rc = Start(reader, schema, error);
  if (rc != NANOARROW_OK) {
    if (error->message[0] == '\0') ArrowErrorSet(error, "%s", strerror(rc));
    ArrowArrayStreamRelease(out);
  }
  return rc;
}

ArrowErrorCode CliOpenText(const char* path, enum CliTextFormat format,
                           const struct ArrowSchema* schema, struct ArrowArrayStream* out,
                           struct ArrowError* error) {
  FILE* file;
  if (strcmp(path, "-") == 0) {
    return CliOpenTextFile(stdin, 0, format, schema, out, error);
  }
  file = fopen(path, "rb");
  if (file == NULL) {
    ArrowErrorSet(error, "cannot open '%s': %s", path, strerror(errno));
    return EINVAL;
  }
  return CliOpenTextFile(file, 1, format, schema, out, error);
}
