/* Text output of `nanoarrow schema` and `nanoarrow cat`: schema trees, JSON values
 * of single elements (JSON lines) and aligned tables. */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "cli/cli_format.h"
#include "testing/testing_private.h"

static ArrowErrorCode Put(struct ArrowBuffer* out, const char* text) {
  return ArrowBufferAppend(out, text, (int64_t)strlen(text));
}

/* ---- Schema tree ---- */

/* "# metadata key = value" lines (values cut at 200 bytes), indented; a field's
 * ARROW:extension:name is left out (the type names the extension). */
static ArrowErrorCode PutMetadata(struct ArrowBuffer* out, const char* metadata, int depth,
                                  int is_field) {
  struct ArrowMetadataReader reader;
  struct ArrowStringView key;
  struct ArrowStringView value;
  if (metadata == NULL) return NANOARROW_OK;
  NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderInit(&reader, metadata));
  while (reader.remaining_keys > 0) {
    NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderRead(&reader, &key, &value));
    if (is_field && key.size_bytes == 20 && memcmp(key.data, "ARROW:extension:name", 20) == 0) {
      continue;
    }
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(out, ' ', 2 * (int64_t)depth));
    NANOARROW_RETURN_NOT_OK(Put(out, "# metadata "));
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(out, key.data, key.size_bytes));
    NANOARROW_RETURN_NOT_OK(Put(out, " = "));
    NANOARROW_RETURN_NOT_OK(
        ArrowBufferAppend(out, value.data, value.size_bytes > 200 ? 200 : value.size_bytes));
    NANOARROW_RETURN_NOT_OK(Put(out, "\n"));
  }
  return NANOARROW_OK;
}

static ArrowErrorCode PutSchemaLine(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                    int depth) {
  char type_text[512];
  int64_t i;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) return EINVAL;
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(out, ' ', 2 * (int64_t)depth));
  NANOARROW_RETURN_NOT_OK(Put(out, schema->name != NULL ? schema->name : ""));
  NANOARROW_RETURN_NOT_OK(Put(out, ": "));
  /* A dictionary shows its value type ("dictionary(int8)<string>"); an
   * extension type is named by ArrowSchemaToString ("name{storage}"), once. */
  ArrowSchemaToString(schema, type_text, sizeof(type_text), schema->dictionary != NULL);
  NANOARROW_RETURN_NOT_OK(Put(out, type_text));
  if (!(schema->flags & ARROW_FLAG_NULLABLE)) NANOARROW_RETURN_NOT_OK(Put(out, " not null"));
  NANOARROW_RETURN_NOT_OK(Put(out, "\n"));
  NANOARROW_RETURN_NOT_OK(PutMetadata(out, schema->metadata, depth + 1, 1));
  for (i = 0; schema->dictionary == NULL && i < schema->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(PutSchemaLine(out, schema->children[i], depth + 1));
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliFormatSchema(const struct ArrowSchema* schema, struct ArrowBuffer* out) {
  int64_t i;
  for (i = 0; i < schema->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(PutSchemaLine(out, schema->children[i], 0));
  }
  NANOARROW_RETURN_NOT_OK(PutMetadata(out, schema->metadata, 0, 0));
  return NANOARROW_OK;
}

/* ---- Sinks ---- */

void CliSinkInit(struct CliSink* sink, FILE* file, int64_t cap) {
  ArrowBufferInit(&sink->text);
  sink->file = file;
  sink->cap = cap;
  sink->write_errno = 0;
}

void CliSinkReset(struct CliSink* sink) { ArrowBufferReset(&sink->text); }

ArrowErrorCode CliSinkFlush(struct CliSink* sink) {
  if (sink->file == NULL || sink->text.size_bytes == 0) return NANOARROW_OK;
  errno = 0;
  if (fwrite(sink->text.data, 1, (size_t)sink->text.size_bytes, sink->file) !=
      (size_t)sink->text.size_bytes) {
    sink->write_errno = errno != 0 ? errno : EIO;
    return sink->write_errno;
  }
  sink->text.size_bytes = 0;
  return NANOARROW_OK;
}

ArrowErrorCode CliSinkCheck(struct CliSink* sink) {
  if (sink->file != NULL) {
    return sink->text.size_bytes >= CLI_SINK_CHUNK_BYTES ? CliSinkFlush(sink) : NANOARROW_OK;
  }
  return sink->cap > 0 && sink->text.size_bytes >= sink->cap ? CLI_SINK_FULL : NANOARROW_OK;
}

/* ---- Values ---- */

/* data[0, n) with JSON's escapes (no quotes around it). */
static ArrowErrorCode PutEscaped(struct CliSink* sink, const char* data, int64_t n) {
  struct ArrowBuffer* out = &sink->text;
  int64_t i;
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)data[i];
    if ((i & 4095) == 0) {
      NANOARROW_RETURN_NOT_OK(CliSinkCheck(sink));
      NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, (n - i < 4096 ? n - i : 4096) + 2));
    }
    if (c == '"' || c == '\\') {
      char escaped[3] = {'\\', (char)c, 0};
      NANOARROW_RETURN_NOT_OK(Put(out, escaped));
    } else if (c < 0x20) {
      char escaped[8];
      snprintf(escaped, sizeof(escaped), "\\u%04x", (unsigned)c);
      NANOARROW_RETURN_NOT_OK(Put(out, escaped));
    } else {
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendUInt8(out, c));
    }
  }
  return NANOARROW_OK;
}

/* A JSON string. Text that is not UTF-8 (string columns may hold other bytes, as
 * in nanoarrow) shows each byte that starts no valid sequence as U+FFFD, so that
 * every line stays valid JSON. */
static ArrowErrorCode PutQuoted(struct CliSink* sink, const char* data, int64_t n) {
  int64_t pos = 0;
  NANOARROW_RETURN_NOT_OK(Put(&sink->text, "\""));
  while (pos < n) {
    int64_t bad = ArrowTestingUtf8InvalidAt((const uint8_t*)data + pos, n - pos);
    NANOARROW_RETURN_NOT_OK(PutEscaped(sink, data + pos, bad < 0 ? n - pos : bad));
    if (bad < 0) break;
    NANOARROW_RETURN_NOT_OK(Put(&sink->text, "\\ufffd"));
    pos += bad + 1;
  }
  return Put(&sink->text, "\"");
}

void CliFormatShortestReal(double value, int is_float, int mark_real, char* text,
                           size_t size) {
  int precision;
  for (precision = is_float ? 6 : 15; precision <= 17; precision++) {
    snprintf(text, size, "%.*g", precision, value);
    if (is_float ? (float)strtod(text, NULL) == (float)value : strtod(text, NULL) == value) {
      break;
    }
  }
  if (mark_real && strpbrk(text, ".e") == NULL) {
    size_t n = strlen(text);
    if (n + 3 <= size) memcpy(text + n, ".0", 3);
  }
}

static ArrowErrorCode PutNumber(struct CliSink* sink, double value, int is_float) {
  struct ArrowBuffer* out = &sink->text;
  char text[40];
  if (isnan(value)) return Put(out, "\"NaN\"");
  if (isinf(value)) return Put(out, value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  CliFormatShortestReal(value, is_float, 0, text, sizeof(text));
  return Put(out, text);
}

static ArrowErrorCode PutElement(struct CliSink* sink, const struct ArrowSchema* schema,
                                 const struct ArrowArrayView* view, int64_t i, int depth);

static ArrowErrorCode PutChildElements(struct CliSink* sink,
                                       const struct ArrowSchema* schema,
                                       const struct ArrowArrayView* child, int64_t start,
                                       int64_t n, int depth) {
  struct ArrowBuffer* out = &sink->text;
  int64_t k;
  NANOARROW_RETURN_NOT_OK(Put(out, "["));
  for (k = 0; k < n; k++) {
    if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
    NANOARROW_RETURN_NOT_OK(CliSinkCheck(sink));
    NANOARROW_RETURN_NOT_OK(PutElement(sink, schema, child, start + k, depth + 1));
  }
  return Put(out, "]");
}

static int64_t OffsetAt(const struct ArrowArrayView* view, int buffer, int64_t p) {
  if (view->layout.element_size_bits[buffer] == 64) {
    return view->buffer_views[buffer].data.as_int64[p];
  }
  return view->buffer_views[buffer].data.as_int32[p];
}

static ArrowErrorCode PutElement(struct CliSink* sink, const struct ArrowSchema* schema,
                                 const struct ArrowArrayView* view, int64_t i, int depth) {
  struct ArrowBuffer* out = &sink->text;
  int64_t p = view->offset + i;
  struct ArrowSchemaView sv;
  char text[64];

  if (depth > NANOARROW_MAX_NESTING_DEPTH) return EINVAL;
  if (view->storage_type != NANOARROW_TYPE_SPARSE_UNION &&
      view->storage_type != NANOARROW_TYPE_DENSE_UNION &&
      view->storage_type != NANOARROW_TYPE_RUN_END_ENCODED && ArrowArrayViewIsNull(view, i)) {
    return Put(out, "null");
  }
  if (view->dictionary != NULL && schema->dictionary != NULL) {
    return PutElement(sink, schema->dictionary, view->dictionary,
                      ArrowArrayViewGetIntUnsafe(view, i), depth + 1);
  }
  NANOARROW_RETURN_NOT_OK(ArrowSchemaViewInit(&sv, schema, NULL));

  switch (view->storage_type) {
    case NANOARROW_TYPE_NA:
      return Put(out, "null");
    case NANOARROW_TYPE_BOOL:
      return Put(out, ArrowBitGet(view->buffer_views[1].data.as_uint8, p) ? "true" : "false");
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_UINT32:
      snprintf(text, sizeof(text), "%" PRId64, ArrowArrayViewGetIntUnsafe(view, i));
      return Put(out, text);
    case NANOARROW_TYPE_UINT64:
      snprintf(text, sizeof(text), "%" PRIu64, ArrowArrayViewGetUIntUnsafe(view, i));
      return Put(out, text);
    case NANOARROW_TYPE_HALF_FLOAT:
    case NANOARROW_TYPE_FLOAT:
      return PutNumber(sink, ArrowArrayViewGetDoubleUnsafe(view, i), 1);
    case NANOARROW_TYPE_DOUBLE:
      return PutNumber(sink, ArrowArrayViewGetDoubleUnsafe(view, i), 0);
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_STRING_VIEW: {
      struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(view, i);
      return PutQuoted(sink, value.data, value.size_bytes);
    }
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_FIXED_SIZE_BINARY: {
      static const char kDigits[] = "0123456789abcdef";
      struct ArrowBufferView value = ArrowArrayViewGetBytesUnsafe(view, i);
      int64_t k;
      if (view->storage_type == NANOARROW_TYPE_FIXED_SIZE_BINARY) {
        value.data.as_uint8 = view->buffer_views[1].data.as_uint8 + p * sv.fixed_size;
        value.size_bytes = sv.fixed_size;
      }
      NANOARROW_RETURN_NOT_OK(Put(out, "\"0x"));
      for (k = 0; k < value.size_bytes; k++) {
        if ((k & 4095) == 0) {
          int64_t chunk = value.size_bytes - k < 4096 ? value.size_bytes - k : 4096;
          NANOARROW_RETURN_NOT_OK(CliSinkCheck(sink));
          NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, 2 * chunk));
        }
        out->data[out->size_bytes++] = (uint8_t)kDigits[value.data.as_uint8[k] >> 4];
        out->data[out->size_bytes++] = (uint8_t)kDigits[value.data.as_uint8[k] & 15];
      }
      return Put(out, "\"");
    }
    case NANOARROW_TYPE_DECIMAL32:
    case NANOARROW_TYPE_DECIMAL64:
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256: {
      struct ArrowDecimal decimal;
      ArrowDecimalInit(&decimal, sv.decimal_bitwidth, sv.decimal_precision, sv.decimal_scale);
      ArrowArrayViewGetDecimalUnsafe(view, i, &decimal);
      NANOARROW_RETURN_NOT_OK(Put(out, "\""));
      if (sv.decimal_scale >= -CLI_DECIMAL_MAX_PLAIN_SCALE &&
          sv.decimal_scale <= CLI_DECIMAL_MAX_PLAIN_SCALE) {
        NANOARROW_RETURN_NOT_OK(ArrowDecimalAppendStringToBuffer(&decimal, out));
      } else {
        /* The scale as a power of ten: padded with zeros, a hostile scale would make
         * one value gigabytes long. */
        NANOARROW_RETURN_NOT_OK(ArrowDecimalAppendDigitsToBuffer(&decimal, out));
        snprintf(text, sizeof(text), "E%" PRId64, -(int64_t)sv.decimal_scale);
        NANOARROW_RETURN_NOT_OK(Put(out, text));
      }
      return Put(out, "\"");
    }
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      snprintf(text, sizeof(text), "{\"months\": %" PRId32 "}",
               view->buffer_views[1].data.as_int32[p]);
      return Put(out, text);
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
      snprintf(text, sizeof(text), "{\"days\": %" PRId32 ", \"milliseconds\": %" PRId32 "}",
               view->buffer_views[1].data.as_int32[2 * p],
               view->buffer_views[1].data.as_int32[2 * p + 1]);
      return Put(out, text);
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO: {
      int32_t months_days[2];
      int64_t nanoseconds;
      char long_text[128];
      memcpy(months_days, view->buffer_views[1].data.as_uint8 + 16 * p, 8);
      memcpy(&nanoseconds, view->buffer_views[1].data.as_uint8 + 16 * p + 8, 8);
      snprintf(long_text, sizeof(long_text),
               "{\"months\": %" PRId32 ", \"days\": %" PRId32 ", \"nanoseconds\": %" PRId64 "}",
               months_days[0], months_days[1], nanoseconds);
      return Put(out, long_text);
    }
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP: {
      int64_t start = OffsetAt(view, 1, p);
      return PutChildElements(sink, schema->children[0], view->children[0], start,
                              OffsetAt(view, 1, p + 1) - start, depth);
    }
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      return PutChildElements(sink, schema->children[0], view->children[0],
                              OffsetAt(view, 1, p), OffsetAt(view, 2, p), depth);
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      return PutChildElements(sink, schema->children[0], view->children[0], p * sv.fixed_size,
                              sv.fixed_size, depth);
    case NANOARROW_TYPE_STRUCT: {
      int64_t k;
      NANOARROW_RETURN_NOT_OK(Put(out, "{"));
      for (k = 0; k < view->n_children; k++) {
        const char* name = schema->children[k]->name;
        if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
        NANOARROW_RETURN_NOT_OK(CliSinkCheck(sink));
        NANOARROW_RETURN_NOT_OK(PutQuoted(sink, name != NULL ? name : "",
                                          name != NULL ? (int64_t)strlen(name) : 0));
        NANOARROW_RETURN_NOT_OK(Put(out, ": "));
        NANOARROW_RETURN_NOT_OK(
            PutElement(sink, schema->children[k], view->children[k], p, depth + 1));
      }
      return Put(out, "}");
    }
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION: {
      int8_t child = ArrowArrayViewUnionChildIndex(view, i);
      if (child < 0 || child >= view->n_children) return EINVAL;
      return PutElement(sink, schema->children[child], view->children[child],
                        ArrowArrayViewUnionChildOffset(view, i), depth + 1);
    }
    case NANOARROW_TYPE_RUN_END_ENCODED: {
      int64_t lo = ArrowArrayViewPrivateRunIndex(view->children[0], p);
      if (lo >= view->children[1]->length) return EINVAL;
      return PutElement(sink, schema->children[1], view->children[1], lo, depth + 1);
    }
    default: {
      /* Temporal types: their integer storage. */
      if (view->layout.element_size_bits[1] == 32) {
        snprintf(text, sizeof(text), "%" PRId32, view->buffer_views[1].data.as_int32[p]);
      } else if (view->layout.element_size_bits[1] == 64) {
        snprintf(text, sizeof(text), "%" PRId64, view->buffer_views[1].data.as_int64[p]);
      } else {
        snprintf(text, sizeof(text), "\"<%s>\"", ArrowTypeString(view->storage_type));
      }
      return Put(out, text);
    }
  }
}

ArrowErrorCode CliFormatElement(const struct ArrowSchema* schema,
                                const struct ArrowArrayView* view, int64_t i,
                                struct CliSink* sink) {
  return PutElement(sink, schema, view, i, 0);
}

ArrowErrorCode CliFormatJsonLines(const struct ArrowSchema* schema,
                                  const struct ArrowArrayView* batch, int64_t start,
                                  int64_t n_rows, struct CliSink* sink) {
  struct ArrowBuffer* out = &sink->text;
  int64_t i;
  int64_t k;
  for (i = start; i < start + n_rows; i++) {
    NANOARROW_RETURN_NOT_OK(CliSinkCheck(sink));
    NANOARROW_RETURN_NOT_OK(Put(out, "{"));
    for (k = 0; k < batch->n_children; k++) {
      const char* name = schema->children[k]->name;
      if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
      NANOARROW_RETURN_NOT_OK(PutQuoted(sink, name != NULL ? name : "",
                                        name != NULL ? (int64_t)strlen(name) : 0));
      NANOARROW_RETURN_NOT_OK(Put(out, ": "));
      NANOARROW_RETURN_NOT_OK(PutElement(sink, schema->children[k], batch->children[k],
                                         batch->offset + i, 1));
    }
    NANOARROW_RETURN_NOT_OK(Put(out, "}\n"));
  }
  return NANOARROW_OK;
}

/* ---- Tables ---- */

/* Display width of UTF-8 text (code points; wide characters count as one). */
static int64_t TextWidth(const char* text, int64_t n) {
  int64_t width = 0;
  int64_t i;
  for (i = 0; i < n; i++) {
    if (((unsigned char)text[i] & 0xC0) != 0x80) width++;
  }
  return width;
}

/* The bytes of the first max_width code points of text. */
static int64_t PrefixBytes(const char* text, int64_t n, int64_t max_width) {
  int64_t width = 0;
  int64_t i;
  for (i = 0; i < n; i++) {
    if (((unsigned char)text[i] & 0xC0) != 0x80) {
      if (width == max_width) return i;
      width++;
    }
  }
  return n;
}

/* Enough bytes for more than CLI_TABLE_MAX_WIDTH code points (4 bytes at most
 * each): formatting a cell stops there. */
#define CLI_CELL_CAP_BYTES (4 * (CLI_TABLE_MAX_WIDTH + 1) + 64)

/* Formats the header (row < 0) or row `row` of column c into table->cell, at most
 * width code points: a longer text is cut to width - 1 and ends with "…". */
static ArrowErrorCode FormatCell(struct CliTable* table, const struct ArrowArrayView* batch,
                                 int64_t c, int64_t row, int64_t width) {
  struct ArrowBuffer* text = &table->cell.text;
  const struct ArrowSchema* child = table->schema->children[c];
  ArrowErrorCode rc;
  int64_t k;
  int64_t cut;

  text->size_bytes = 0;
  if (row < 0) {
    const char* name = child->name != NULL ? child->name : "";
    size_t n = strlen(name);
    rc = ArrowBufferAppend(text, name, n < CLI_CELL_CAP_BYTES ? (int64_t)n : CLI_CELL_CAP_BYTES);
  } else {
    const struct ArrowArrayView* column = batch->children[c];
    int64_t index = batch->offset + row;
    int is_string = column->dictionary == NULL &&
                    (column->storage_type == NANOARROW_TYPE_STRING ||
                     column->storage_type == NANOARROW_TYPE_LARGE_STRING ||
                     column->storage_type == NANOARROW_TYPE_STRING_VIEW);
    if (is_string && !ArrowArrayViewIsNull(column, index)) {
      /* Strings unquoted. */
      struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(column, index);
      rc = ArrowBufferAppend(text, value.data,
                             value.size_bytes < CLI_CELL_CAP_BYTES ? value.size_bytes
                                                                   : CLI_CELL_CAP_BYTES);
    } else {
      rc = PutElement(&table->cell, child, column, index, 1);
      /* Long enough to be cut: what is there suffices. */
      if (rc == CLI_SINK_FULL) rc = NANOARROW_OK;
    }
  }
  NANOARROW_RETURN_NOT_OK(rc);
  /* Control characters (and bytes of an invalid sequence) shown as spaces. */
  for (k = 0; k < text->size_bytes; k++) {
    if (text->data[k] < 0x20 || text->data[k] == 0x7F) text->data[k] = ' ';
  }
  if (TextWidth((const char*)text->data, text->size_bytes) > width) {
    cut = width > 0 ? PrefixBytes((const char*)text->data, text->size_bytes, width - 1) : 0;
    text->size_bytes = cut;
    if (width > 0) NANOARROW_RETURN_NOT_OK(Put(text, "\xE2\x80\xA6"));
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliTableInit(struct CliTable* table, const struct ArrowSchema* schema,
                            int64_t sample_rows) {
  int64_t c;
  table->schema = schema;
  table->n_columns = schema->n_children;
  table->sample_rows = sample_rows < 0 ? 0 : sample_rows;
  /* Wide tables look ahead fewer rows (a row at least). */
  if (table->n_columns > 0 && table->sample_rows > CLI_TABLE_SAMPLE_CELLS / table->n_columns) {
    table->sample_rows = CLI_TABLE_SAMPLE_CELLS / table->n_columns;
    if (table->sample_rows < 1) table->sample_rows = 1;
  }
  table->n_sampled = 0;
  table->header_written = 0;
  ArrowBufferInit(&table->sample_text);
  ArrowBufferInit(&table->sample_cells);
  CliSinkInit(&table->cell, NULL, CLI_CELL_CAP_BYTES);
  table->widths = (int64_t*)ArrowMalloc(
      (table->n_columns > 0 ? table->n_columns : 1) * (int64_t)sizeof(int64_t));
  if (table->widths == NULL) return ENOMEM;
  /* The header is the sample's first row. */
  for (c = 0; c < table->n_columns; c++) {
    int64_t cell[2];
    NANOARROW_RETURN_NOT_OK(FormatCell(table, NULL, c, -1, CLI_TABLE_MAX_WIDTH));
    cell[0] = table->sample_text.size_bytes;
    cell[1] = table->cell.text.size_bytes;
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&table->sample_text, table->cell.text.data,
                                              table->cell.text.size_bytes));
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&table->sample_cells, cell, (int64_t)sizeof(cell)));
  }
  return NANOARROW_OK;
}

void CliTableReset(struct CliTable* table) {
  ArrowBufferReset(&table->sample_text);
  ArrowBufferReset(&table->sample_cells);
  CliSinkReset(&table->cell);
  ArrowFree(table->widths);
  table->widths = NULL;
}

/* One output line of cells (text, size), padded to the widths (but the last). */
static ArrowErrorCode PutTableLine(struct CliTable* table, const char* const* texts,
                                   const int64_t* sizes, struct CliSink* out) {
  int64_t c;
  for (c = 0; c < table->n_columns; c++) {
    if (c > 0) NANOARROW_RETURN_NOT_OK(Put(&out->text, " | "));
    NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&out->text, texts[c], sizes[c]));
    if (c + 1 < table->n_columns) {
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(
          &out->text, ' ', table->widths[c] - TextWidth(texts[c], sizes[c])));
    }
  }
  NANOARROW_RETURN_NOT_OK(Put(&out->text, "\n"));
  return CliSinkCheck(out);
}

/* Fixes the widths from the sample, then writes the header, the rule and the
 * sampled rows, and lets the sample go. */

/* The text of a sampled cell ({start, size}); "" when empty, as the buffer has no
 * memory before its first byte. */
static const char* SampledText(const struct CliTable* table, const int64_t* cell) {
  return cell[1] > 0 ? (const char*)table->sample_text.data + cell[0] : "";
}

static ArrowErrorCode WriteSample(struct CliTable* table, struct CliSink* out) {
  const int64_t* cells = (const int64_t*)table->sample_cells.data;
  const char** texts;
  int64_t* sizes;
  int64_t r;
  int64_t c;
  ArrowErrorCode rc = NANOARROW_OK;

  if (table->n_columns == 0) {
    table->header_written = 1;
    return NANOARROW_OK;
  }
  for (c = 0; c < table->n_columns; c++) {
    table->widths[c] = 1;
    for (r = 0; r <= table->n_sampled; r++) {
      const int64_t* cell = cells + 2 * (r * table->n_columns + c);
      int64_t width = TextWidth(SampledText(table, cell), cell[1]);
      if (width > table->widths[c]) table->widths[c] = width;
    }
  }
  texts = (const char**)ArrowMalloc(table->n_columns * (int64_t)sizeof(const char*));
  sizes = (int64_t*)ArrowMalloc(table->n_columns * (int64_t)sizeof(int64_t));
  if (texts == NULL || sizes == NULL) rc = ENOMEM;
  for (r = 0; rc == NANOARROW_OK && r <= table->n_sampled; r++) {
    for (c = 0; c < table->n_columns; c++) {
      const int64_t* cell = cells + 2 * (r * table->n_columns + c);
      texts[c] = SampledText(table, cell);
      sizes[c] = cell[1];
    }
    rc = PutTableLine(table, texts, sizes, out);
    if (rc == NANOARROW_OK && r == 0) {
      for (c = 0; rc == NANOARROW_OK && c < table->n_columns; c++) {
        if (c > 0) rc = Put(&out->text, "-+-");
        if (rc == NANOARROW_OK) rc = ArrowBufferAppendFill(&out->text, '-', table->widths[c]);
      }
      if (rc == NANOARROW_OK) rc = Put(&out->text, "\n");
    }
  }
  ArrowFree((void*)texts);
  ArrowFree(sizes);
  table->header_written = 1;
  ArrowBufferReset(&table->sample_text);
  ArrowBufferReset(&table->sample_cells);
  return rc;
}

ArrowErrorCode CliTableAppend(struct CliTable* table, const struct ArrowArrayView* batch,
                              int64_t start, int64_t n_rows, struct CliSink* out) {
  int64_t r;
  int64_t c;
  if (table->n_columns == 0) return NANOARROW_OK;
  for (r = start; r < start + n_rows; r++) {
    if (!table->header_written && table->n_sampled == table->sample_rows) {
      NANOARROW_RETURN_NOT_OK(WriteSample(table, out));
    }
    if (!table->header_written) {
      /* Still looking ahead: keep the row's cells. */
      for (c = 0; c < table->n_columns; c++) {
        int64_t cell[2];
        NANOARROW_RETURN_NOT_OK(FormatCell(table, batch, c, r, CLI_TABLE_MAX_WIDTH));
        cell[0] = table->sample_text.size_bytes;
        cell[1] = table->cell.text.size_bytes;
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&table->sample_text, table->cell.text.data,
                                                  table->cell.text.size_bytes));
        NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(&table->sample_cells, cell, (int64_t)sizeof(cell)));
      }
      table->n_sampled++;
      continue;
    }
    /* Widths fixed: each cell is formatted, cut to its column and written. */
    for (c = 0; c < table->n_columns; c++) {
      int64_t width;
      NANOARROW_RETURN_NOT_OK(FormatCell(table, batch, c, r, table->widths[c]));
      if (c > 0) NANOARROW_RETURN_NOT_OK(Put(&out->text, " | "));
      NANOARROW_RETURN_NOT_OK(
          ArrowBufferAppend(&out->text, table->cell.text.data, table->cell.text.size_bytes));
      width = TextWidth((const char*)table->cell.text.data, table->cell.text.size_bytes);
      if (c + 1 < table->n_columns) {
        NANOARROW_RETURN_NOT_OK(
            ArrowBufferAppendFill(&out->text, ' ', table->widths[c] - width));
      }
    }
    NANOARROW_RETURN_NOT_OK(Put(&out->text, "\n"));
    NANOARROW_RETURN_NOT_OK(CliSinkCheck(out));
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliTableFinish(struct CliTable* table, struct CliSink* out) {
  if (table->header_written) return NANOARROW_OK;
  return WriteSample(table, out);
}
