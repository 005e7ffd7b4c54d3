/* CSV (RFC 4180): the rows of `cat --format csv`, and the record reader of
 * `convert` from CSV. */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "cli/cli_format.h"
#include "cli/cli_text.h"
#include "cli/cli_tools.h"

/* ---- Output ---- */

static ArrowErrorCode PutText(struct CliSink* sink, const char* data, int64_t n) {
  return ArrowBufferAppend(&sink->text, data, n);
}

/* A field, quoted when it must be (or when empty: "" is an empty string, an
 * unquoted empty field a null). */
static ArrowErrorCode PutField(struct CliSink* sink, const char* data, int64_t n) {
  int64_t i;
  int64_t start = 0;
  int quote = n == 0;
  for (i = 0; i < n && !quote; i++) {
    quote = data[i] == ',' || data[i] == '"' || data[i] == '\r' || data[i] == '\n';
  }
  if (!quote) return PutText(sink, data, n);
  NANOARROW_RETURN_NOT_OK(PutText(sink, "\"", 1));
  for (i = 0; i < n; i++) {
    if (data[i] == '"') {
      NANOARROW_RETURN_NOT_OK(PutText(sink, data + start, i + 1 - start));
      start = i;
    }
    if ((i & 65535) == 65535) {
      NANOARROW_RETURN_NOT_OK(PutText(sink, data + start, i + 1 - start));
      start = i + 1;
      NANOARROW_RETURN_NOT_OK(CliSinkCheck(sink));
    }
  }
  NANOARROW_RETURN_NOT_OK(PutText(sink, data + start, n - start));
  return PutText(sink, "\"", 1);
}

/* NaN and the infinities as words, any other value as CliFormatShortestReal's text
 * with ".0" when it would read as an integer. */
static void FormatFloat(double value, int is_float, char* text, size_t size) {
  if (isnan(value)) {
    snprintf(text, size, "NaN");
  } else if (isinf(value)) {
    snprintf(text, size, value > 0 ? "inf" : "-inf");
  } else {
    CliFormatShortestReal(value, is_float, 1, text, size);
  }
}

static ArrowErrorCode PutCell(const struct ArrowSchema* schema,
                              const struct ArrowArrayView* view, int64_t i,
                              struct CliSink* sink, struct CliSink* scratch) {
  char text[64];
  if (ArrowArrayViewIsNull(view, i) && view->storage_type != NANOARROW_TYPE_SPARSE_UNION &&
      view->storage_type != NANOARROW_TYPE_DENSE_UNION &&
      view->storage_type != NANOARROW_TYPE_RUN_END_ENCODED) {
    return NANOARROW_OK;
  }
  if (view->dictionary != NULL && schema->dictionary != NULL) {
    /* The value the index points at. */
    return PutCell(schema->dictionary, view->dictionary, ArrowArrayViewGetIntUnsafe(view, i),
                   sink, scratch);
  }
  {
    switch (view->storage_type) {
      case NANOARROW_TYPE_NA:
        return NANOARROW_OK;
      case NANOARROW_TYPE_STRING:
      case NANOARROW_TYPE_LARGE_STRING:
      case NANOARROW_TYPE_STRING_VIEW: {
        struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(view, i);
        return PutField(sink, value.data, value.size_bytes);
      }
      case NANOARROW_TYPE_HALF_FLOAT:
      case NANOARROW_TYPE_FLOAT:
      case NANOARROW_TYPE_DOUBLE:
        FormatFloat(ArrowArrayViewGetDoubleUnsafe(view, i),
                    view->storage_type != NANOARROW_TYPE_DOUBLE, text, sizeof(text));
        return PutText(sink, text, (int64_t)strlen(text));
      default:
        break;
    }
  }
  /* Everything else as its JSON text, unquoted when it is a JSON string. */
  scratch->text.size_bytes = 0;
  NANOARROW_RETURN_NOT_OK(CliFormatElement(schema, view, i, scratch));
  if (scratch->text.size_bytes >= 2 && scratch->text.data[0] == '"') {
    /* Strings the element formatter quotes (decimals, binary as hex) hold no
     * escapes; any other JSON string stays JSON text. */
    const char* data = (const char*)scratch->text.data + 1;
    int64_t n = scratch->text.size_bytes - 2;
    if (memchr(data, '\\', (size_t)n) == NULL) return PutField(sink, data, n);
  }
  return PutField(sink, (const char*)scratch->text.data, scratch->text.size_bytes);
}

ArrowErrorCode CliFormatCsvHeader(const struct ArrowSchema* schema, struct CliSink* sink) {
  int64_t c;
  for (c = 0; c < schema->n_children; c++) {
    const char* name = schema->children[c]->name != NULL ? schema->children[c]->name : "";
    if (c > 0) NANOARROW_RETURN_NOT_OK(PutText(sink, ",", 1));
    NANOARROW_RETURN_NOT_OK(PutField(sink, name, (int64_t)strlen(name)));
  }
  return PutText(sink, "\n", 1);
}

ArrowErrorCode CliFormatCsvRows(const struct ArrowSchema* schema,
                                const struct ArrowArrayView* batch, int64_t start,
                                int64_t n_rows, struct CliSink* sink) {
  struct CliSink scratch;
  int64_t r;
  int64_t c;
  ArrowErrorCode rc = NANOARROW_OK;
  CliSinkInit(&scratch, NULL, 0);
  for (r = start; rc == NANOARROW_OK && r < start + n_rows; r++) {
    for (c = 0; rc == NANOARROW_OK && c < batch->n_children; c++) {
      if (c > 0) rc = PutText(sink, ",", 1);
      if (rc == NANOARROW_OK) {
        rc = PutCell(schema->children[c], batch->children[c], batch->offset + r, sink,
                     &scratch);
      }
    }
    if (rc == NANOARROW_OK) rc = PutText(sink, "\n", 1);
    if (rc == NANOARROW_OK) rc = CliSinkCheck(sink);
  }
  CliSinkReset(&scratch);
  return rc;
}

/* ---- Input ---- */

ArrowErrorCode CliCsvReadRecord(FILE* file, int64_t* line, struct CliTextRows* rows,
                                int64_t* n_fields, int* eof, struct ArrowError* error) {
  int64_t record_line = *line + 1;
  int64_t record_start = rows->text.size_bytes;
  int64_t field_start;
  int c = getc(file);

  *eof = 0;
  *n_fields = 0;
  if (c == EOF) {
    if (ferror(file)) {
      ArrowErrorSet(error, "line %" PRId64 ": cannot read: %s", record_line, strerror(errno));
      return EIO;
    }
    *eof = 1;
    return NANOARROW_OK;
  }
  (*line)++;
  for (;;) {
    int quoted = 0;
    struct CliTextCell cell;
    field_start = rows->text.size_bytes;
    if (c == '"') {
      int64_t quote_line = *line;
      quoted = 1;
      for (;;) {
        c = getc(file);
        if (c == EOF) {
          ArrowErrorSet(error, "line %" PRId64 ": quoted field not closed before the end of the input",
                        quote_line);
          return EINVAL;
        }
        if (c == '"') {
          c = getc(file);
          if (c != '"') break;
        }
        if (c == '\n') (*line)++;
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(&rows->text, (uint8_t)c));
        if (rows->text.size_bytes - record_start > CLI_TEXT_MAX_RECORD_BYTES) {
          ArrowErrorSet(error, "line %" PRId64 ": record longer than %" PRId64 " bytes",
                        record_line, CLI_TEXT_MAX_RECORD_BYTES);
          return EINVAL;
        }
      }
      if (c != ',' && c != '\n' && c != '\r' && c != EOF) {
        ArrowErrorSet(error, "line %" PRId64 ": '%c' after a closing quote (expected a comma or the end of the line)",
                      *line, c >= 0x20 && c < 0x7F ? c : '?');
        return EINVAL;
      }
    } else {
      while (c != ',' && c != '\n' && c != '\r' && c != EOF) {
        if (c == '"') {
          ArrowErrorSet(error, "line %" PRId64 ": quote inside an unquoted field", *line);
          return EINVAL;
        }
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(&rows->text, (uint8_t)c));
        if (rows->text.size_bytes - record_start > CLI_TEXT_MAX_RECORD_BYTES) {
          ArrowErrorSet(error, "line %" PRId64 ": record longer than %" PRId64 " bytes",
                        record_line, CLI_TEXT_MAX_RECORD_BYTES);
          return EINVAL;
        }
        c = getc(file);
      }
    }
    cell.start = field_start;
    cell.size = rows->text.size_bytes - field_start;
    cell.kind = !quoted && cell.size == 0 ? CLI_CELL_NULL : CLI_CELL_TEXT;
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&rows->cells, &cell, (int64_t)sizeof(cell)));
    (*n_fields)++;
    if (*n_fields > CLI_TEXT_MAX_COLUMNS) {
      ArrowErrorSet(error, "line %" PRId64 ": more than %d fields", record_line,
                    CLI_TEXT_MAX_COLUMNS);
      return EINVAL;
    }
    if (c == ',') {
      c = getc(file);
      continue;
    }
    if (c == '\r') {
      c = getc(file);
      if (c != '\n' && c != EOF) ungetc(c, file);
    }
    if (c == EOF && ferror(file)) {
      ArrowErrorSet(error, "line %" PRId64 ": cannot read: %s", *line, strerror(errno));
      return EIO;
    }
    return NANOARROW_OK;
  }
}
