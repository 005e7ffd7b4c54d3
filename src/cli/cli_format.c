/* Text output of `nanoarrow schema` and `nanoarrow cat`: schema trees, JSON values
 * of single elements (JSON lines) and aligned tables. */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "cli/cli_format.h"

static ArrowErrorCode Put(struct ArrowBuffer* out, const char* text) {
  return ArrowBufferAppend(out, text, (int64_t)strlen(text));
}

/* ---- Schema tree ---- */

static ArrowErrorCode PutSchemaLine(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                    int depth) {
  char type_text[512];
  struct ArrowSchemaView view;
  struct ArrowError error;
  int64_t i;

  if (depth > NANOARROW_MAX_NESTING_DEPTH) return EINVAL;
  NANOARROW_RETURN_NOT_OK(ArrowBufferAppendFill(out, ' ', 2 * (int64_t)depth));
  NANOARROW_RETURN_NOT_OK(Put(out, schema->name != NULL ? schema->name : ""));
  NANOARROW_RETURN_NOT_OK(Put(out, ": "));
  ArrowSchemaToString(schema, type_text, sizeof(type_text), 0);
  NANOARROW_RETURN_NOT_OK(Put(out, type_text));
  if (!(schema->flags & ARROW_FLAG_NULLABLE)) NANOARROW_RETURN_NOT_OK(Put(out, " not null"));
  if (ArrowSchemaViewInit(&view, schema, &error) == NANOARROW_OK &&
      view.extension_name.data != NULL) {
    NANOARROW_RETURN_NOT_OK(Put(out, " <extension "));
    NANOARROW_RETURN_NOT_OK(
        ArrowBufferAppend(out, view.extension_name.data, view.extension_name.size_bytes));
    NANOARROW_RETURN_NOT_OK(Put(out, ">"));
  }
  NANOARROW_RETURN_NOT_OK(Put(out, "\n"));
  {
    const struct ArrowSchema* parent = schema->dictionary != NULL ? schema->dictionary : schema;
    for (i = 0; i < parent->n_children; i++) {
      NANOARROW_RETURN_NOT_OK(PutSchemaLine(out, parent->children[i], depth + 1));
    }
  }
  return NANOARROW_OK;
}

ArrowErrorCode CliFormatSchema(const struct ArrowSchema* schema, struct ArrowBuffer* out) {
  int64_t i;
  for (i = 0; i < schema->n_children; i++) {
    NANOARROW_RETURN_NOT_OK(PutSchemaLine(out, schema->children[i], 0));
  }
  if (schema->metadata != NULL) {
    struct ArrowMetadataReader reader;
    struct ArrowStringView key;
    struct ArrowStringView value;
    NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderInit(&reader, schema->metadata));
    while (reader.remaining_keys > 0) {
      NANOARROW_RETURN_NOT_OK(ArrowMetadataReaderRead(&reader, &key, &value));
      NANOARROW_RETURN_NOT_OK(Put(out, "# metadata "));
      NANOARROW_RETURN_NOT_OK(ArrowBufferAppend(out, key.data, key.size_bytes));
      NANOARROW_RETURN_NOT_OK(Put(out, " = "));
      NANOARROW_RETURN_NOT_OK(
          ArrowBufferAppend(out, value.data, value.size_bytes > 200 ? 200 : value.size_bytes));
      NANOARROW_RETURN_NOT_OK(Put(out, "\n"));
    }
  }
  return NANOARROW_OK;
}

/* ---- Values ---- */

static ArrowErrorCode PutQuoted(struct ArrowBuffer* out, const char* data, int64_t n) {
  int64_t i;
  NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, n + 2));
  NANOARROW_RETURN_NOT_OK(Put(out, "\""));
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)data[i];
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
  return Put(out, "\"");
}

static ArrowErrorCode PutNumber(struct ArrowBuffer* out, double value, int is_float) {
  char text[40];
  int precision;
  if (isnan(value)) return Put(out, "\"NaN\"");
  if (isinf(value)) return Put(out, value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  for (precision = is_float ? 6 : 15; precision <= 17; precision++) {
    snprintf(text, sizeof(text), "%.*g", precision, value);
    if (is_float ? (float)strtod(text, NULL) == (float)value : strtod(text, NULL) == value) {
      break;
    }
  }
  return Put(out, text);
}

static ArrowErrorCode PutElement(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                 const struct ArrowArrayView* view, int64_t i, int depth);

static ArrowErrorCode PutChildElements(struct ArrowBuffer* out,
                                       const struct ArrowSchema* schema,
                                       const struct ArrowArrayView* child, int64_t start,
                                       int64_t n, int depth) {
  int64_t k;
  NANOARROW_RETURN_NOT_OK(Put(out, "["));
  for (k = 0; k < n; k++) {
    if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
    NANOARROW_RETURN_NOT_OK(PutElement(out, schema, child, start + k, depth + 1));
  }
  return Put(out, "]");
}

static int64_t OffsetAt(const struct ArrowArrayView* view, int buffer, int64_t p) {
  if (view->layout.element_size_bits[buffer] == 64) {
    return view->buffer_views[buffer].data.as_int64[p];
  }
  return view->buffer_views[buffer].data.as_int32[p];
}

static ArrowErrorCode PutElement(struct ArrowBuffer* out, const struct ArrowSchema* schema,
                                 const struct ArrowArrayView* view, int64_t i, int depth) {
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
    return PutElement(out, schema->dictionary, view->dictionary,
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
      return PutNumber(out, ArrowArrayViewGetDoubleUnsafe(view, i), 1);
    case NANOARROW_TYPE_DOUBLE:
      return PutNumber(out, ArrowArrayViewGetDoubleUnsafe(view, i), 0);
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_STRING_VIEW: {
      struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(view, i);
      return PutQuoted(out, value.data, value.size_bytes);
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
      NANOARROW_RETURN_NOT_OK(ArrowBufferReserve(out, 4 + 2 * value.size_bytes));
      NANOARROW_RETURN_NOT_OK(Put(out, "\"0x"));
      for (k = 0; k < value.size_bytes; k++) {
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
      NANOARROW_RETURN_NOT_OK(ArrowDecimalAppendStringToBuffer(&decimal, out));
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
      return PutChildElements(out, schema->children[0], view->children[0], start,
                              OffsetAt(view, 1, p + 1) - start, depth);
    }
    case NANOARROW_TYPE_LIST_VIEW:
    case NANOARROW_TYPE_LARGE_LIST_VIEW:
      return PutChildElements(out, schema->children[0], view->children[0],
                              OffsetAt(view, 1, p), OffsetAt(view, 2, p), depth);
    case NANOARROW_TYPE_FIXED_SIZE_LIST:
      return PutChildElements(out, schema->children[0], view->children[0], p * sv.fixed_size,
                              sv.fixed_size, depth);
    case NANOARROW_TYPE_STRUCT: {
      int64_t k;
      NANOARROW_RETURN_NOT_OK(Put(out, "{"));
      for (k = 0; k < view->n_children; k++) {
        const char* name = schema->children[k]->name;
        if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
        NANOARROW_RETURN_NOT_OK(PutQuoted(out, name != NULL ? name : "",
                                          name != NULL ? (int64_t)strlen(name) : 0));
        NANOARROW_RETURN_NOT_OK(Put(out, ": "));
        NANOARROW_RETURN_NOT_OK(
            PutElement(out, schema->children[k], view->children[k], p, depth + 1));
      }
      return Put(out, "}");
    }
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION: {
      int8_t child = ArrowArrayViewUnionChildIndex(view, i);
      if (child < 0 || child >= view->n_children) return EINVAL;
      return PutElement(out, schema->children[child], view->children[child],
                        ArrowArrayViewUnionChildOffset(view, i), depth + 1);
    }
    case NANOARROW_TYPE_RUN_END_ENCODED: {
      int64_t lo = ArrowArrayViewPrivateRunIndex(view->children[0], p);
      if (lo >= view->children[1]->length) return EINVAL;
      return PutElement(out, schema->children[1], view->children[1], lo, depth + 1);
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
                                struct ArrowBuffer* out) {
  return PutElement(out, schema, view, i, 0);
}

ArrowErrorCode CliFormatJsonLines(const struct ArrowSchema* schema,
                                  const struct ArrowArrayView* batch, int64_t n_rows,
                                  struct ArrowBuffer* out) {
  int64_t i;
  int64_t k;
  for (i = 0; i < n_rows; i++) {
    NANOARROW_RETURN_NOT_OK(Put(out, "{"));
    for (k = 0; k < batch->n_children; k++) {
      const char* name = schema->children[k]->name;
      if (k > 0) NANOARROW_RETURN_NOT_OK(Put(out, ", "));
      NANOARROW_RETURN_NOT_OK(PutQuoted(out, name != NULL ? name : "",
                                        name != NULL ? (int64_t)strlen(name) : 0));
      NANOARROW_RETURN_NOT_OK(Put(out, ": "));
      NANOARROW_RETURN_NOT_OK(PutElement(out, schema->children[k], batch->children[k],
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

/* Cuts text to at most max_width code points, ending with "…" when cut. */
static int64_t CutText(const char* text, int64_t n, int64_t max_width) {
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

ArrowErrorCode CliFormatTable(const struct ArrowSchema* schema,
                              const struct ArrowArrayView* batch, int64_t n_rows,
                              int print_header, struct ArrowBuffer* out) {
  int64_t n_columns = batch->n_children;
  int64_t n_cells = (n_rows + 1) * n_columns;
  struct ArrowBuffer text;
  int64_t* starts;
  int64_t* sizes;
  int64_t* widths;
  int64_t r;
  int64_t c;
  ArrowErrorCode rc = NANOARROW_OK;
  const int64_t max_width = 40;

  if (n_columns == 0) return NANOARROW_OK;
  ArrowBufferInit(&text);
  starts = (int64_t*)ArrowMalloc(n_cells * sizeof(int64_t));
  sizes = (int64_t*)ArrowMalloc(n_cells * sizeof(int64_t));
  widths = (int64_t*)ArrowMalloc(n_columns * sizeof(int64_t));
  if (starts == NULL || sizes == NULL || widths == NULL) rc = ENOMEM;

  /* Row 0 holds the header; cells are cut to max_width code points. */
  for (r = 0; rc == NANOARROW_OK && r <= n_rows; r++) {
    for (c = 0; rc == NANOARROW_OK && c < n_columns; c++) {
      int64_t cell = r * n_columns + c;
      int64_t start = text.size_bytes;
      const struct ArrowSchema* child = schema->children[c];
      if (r == 0) {
        rc = Put(&text, child->name != NULL ? child->name : "");
      } else {
        const struct ArrowArrayView* column = batch->children[c];
        int is_string = column->dictionary == NULL &&
                        (column->storage_type == NANOARROW_TYPE_STRING ||
                         column->storage_type == NANOARROW_TYPE_LARGE_STRING ||
                         column->storage_type == NANOARROW_TYPE_STRING_VIEW);
        int64_t index = batch->offset + r - 1;
        if (is_string && !ArrowArrayViewIsNull(column, index)) {
          /* Strings unquoted, control characters shown as spaces. */
          struct ArrowStringView value = ArrowArrayViewGetStringUnsafe(column, index);
          int64_t k;
          rc = ArrowBufferAppend(&text, value.data, value.size_bytes);
          for (k = start; rc == NANOARROW_OK && k < text.size_bytes; k++) {
            if (text.data[k] < 0x20) text.data[k] = ' ';
          }
        } else {
          rc = PutElement(&text, child, column, index, 1);
        }
      }
      if (rc != NANOARROW_OK) break;
      starts[cell] = start;
      sizes[cell] = CutText((const char*)text.data + start, text.size_bytes - start, max_width);
      if (sizes[cell] < text.size_bytes - start) {
        text.size_bytes = start + sizes[cell];
        rc = Put(&text, "\xE2\x80\xA6");
        sizes[cell] += 3;
      }
    }
  }

  for (c = 0; rc == NANOARROW_OK && c < n_columns; c++) {
    widths[c] = 0;
    for (r = (print_header ? 0 : 1); r <= n_rows; r++) {
      int64_t cell = r * n_columns + c;
      int64_t width = TextWidth((const char*)text.data + starts[cell], sizes[cell]);
      if (width > widths[c]) widths[c] = width;
    }
  }

  for (r = (print_header ? 0 : 1); rc == NANOARROW_OK && r <= n_rows; r++) {
    for (c = 0; rc == NANOARROW_OK && c < n_columns; c++) {
      int64_t cell = r * n_columns + c;
      int64_t width = TextWidth((const char*)text.data + starts[cell], sizes[cell]);
      if (c > 0) rc = Put(out, " | ");
      if (rc == NANOARROW_OK) {
        rc = ArrowBufferAppend(out, text.data + starts[cell], sizes[cell]);
      }
      if (rc == NANOARROW_OK && c + 1 < n_columns) {
        rc = ArrowBufferAppendFill(out, ' ', widths[c] - width);
      }
    }
    if (rc == NANOARROW_OK) rc = Put(out, "\n");
    if (rc == NANOARROW_OK && r == 0) {
      for (c = 0; rc == NANOARROW_OK && c < n_columns; c++) {
        if (c > 0) rc = Put(out, "-+-");
        if (rc == NANOARROW_OK) rc = ArrowBufferAppendFill(out, '-', widths[c]);
      }
      if (rc == NANOARROW_OK) rc = Put(out, "\n");
    }
  }

  ArrowFree(starts);
  ArrowFree(sizes);
  ArrowFree(widths);
  ArrowBufferReset(&text);
  return rc;
}
