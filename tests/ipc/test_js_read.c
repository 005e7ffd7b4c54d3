/* Reads the IPC streams (.arrows) and files (.arrow) that Apache Arrow JS wrote
 * into $NANOARROW_IPC_JS_DIR (tests/ipc/js/interop.mjs) with this library's
 * readers and dumps the decoded values as canonical JSON (the format is described
 * in interop.mjs) into FILE.nanoarrow.json, which interop.mjs compares with the
 * values it wrote. A file this library cannot read gets {"nanoarrow error": ...}
 * as its dump. Skipped when the variable is unset (tools/check-js.sh sets it). */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

static void JsDumpString(FILE* out, struct ArrowBufferView bytes) {
  int64_t i;
  fputc('"', out);
  for (i = 0; i < bytes.size_bytes; i++) {
    unsigned char c = (unsigned char)bytes.data.as_char[i];
    if (c == '"' || c == '\\') {
      fprintf(out, "\\%c", c);
    } else if (c < 0x20) {
      fprintf(out, "\\u%04x", c);
    } else {
      fputc(c, out);
    }
  }
  fputc('"', out);
}

static void JsDumpValue(FILE* out, const struct ArrowArrayView* view, int64_t i, int depth);

static void JsDumpRange(FILE* out, const struct ArrowArrayView* view, int64_t start,
                        int64_t end, int depth) {
  int64_t k;
  fputc('[', out);
  for (k = start; k < end; k++) {
    if (k > start) fputc(',', out);
    JsDumpValue(out, view, k, depth + 1);
  }
  fputc(']', out);
}

/* Element i of view (relative to its offset) in the canonical JSON form. */
static void JsDumpValue(FILE* out, const struct ArrowArrayView* view, int64_t i,
                        int depth) {
  int64_t j = view->offset + i;
  int64_t k;
  cr_assert_lt(depth, NANOARROW_MAX_NESTING_DEPTH);
  if (ArrowArrayViewIsNull(view, i)) {
    fputs("null", out);
    return;
  }
  if (view->dictionary != NULL) {
    JsDumpValue(out, view->dictionary, ArrowArrayViewGetIntUnsafe(view, i), depth + 1);
    return;
  }
  switch (view->storage_type) {
    case NANOARROW_TYPE_BOOL:
      fputs(ArrowBitGet(view->buffer_views[1].data.as_uint8, j) ? "true" : "false", out);
      break;
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_DATE32:
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_INTERVAL_MONTHS:
      fprintf(out, "%" PRId64, ArrowArrayViewGetIntUnsafe(view, i));
      break;
    case NANOARROW_TYPE_UINT64:
      fprintf(out, "\"%" PRIu64 "\"", ArrowArrayViewGetUIntUnsafe(view, i));
      break;
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_DATE64:
    case NANOARROW_TYPE_TIME64:
    case NANOARROW_TYPE_TIMESTAMP:
    case NANOARROW_TYPE_DURATION:
      fprintf(out, "\"%" PRId64 "\"", ArrowArrayViewGetIntUnsafe(view, i));
      break;
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
      fprintf(out, "%.17g", ArrowArrayViewGetDoubleUnsafe(view, i));
      break;
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_STRING_VIEW:
      JsDumpString(out, ArrowArrayViewGetBytesUnsafe(view, i));
      break;
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_FIXED_SIZE_BINARY: {
      struct ArrowBufferView bytes = ArrowArrayViewGetBytesUnsafe(view, i);
      fputc('[', out);
      for (k = 0; k < bytes.size_bytes; k++) {
        fprintf(out, k == 0 ? "%d" : ",%d", (int)bytes.data.as_uint8[k]);
      }
      fputc(']', out);
      break;
    }
    case NANOARROW_TYPE_INTERVAL_DAY_TIME:
    case NANOARROW_TYPE_INTERVAL_MONTH_DAY_NANO: {
      struct ArrowInterval interval;
      ArrowIntervalInit(&interval, view->storage_type);
      ArrowArrayViewGetIntervalUnsafe(view, i, &interval);
      if (view->storage_type == NANOARROW_TYPE_INTERVAL_DAY_TIME) {
        fprintf(out, "[%d,%d]", (int)interval.days, (int)interval.ms);
      } else {
        fprintf(out, "[%d,%d,\"%" PRId64 "\"]", (int)interval.months, (int)interval.days,
                interval.ns);
      }
      break;
    }
    case NANOARROW_TYPE_DECIMAL128:
    case NANOARROW_TYPE_DECIMAL256: {
      struct ArrowDecimal decimal;
      struct ArrowBuffer digits;
      ArrowDecimalInit(&decimal, view->storage_type == NANOARROW_TYPE_DECIMAL128 ? 128 : 256,
                       76, 0);
      ArrowArrayViewGetDecimalUnsafe(view, i, &decimal);
      ArrowBufferInit(&digits);
      cr_assert_eq(ArrowDecimalAppendDigitsToBuffer(&decimal, &digits), NANOARROW_OK);
      fprintf(out, "\"%.*s\"", (int)digits.size_bytes, (const char*)digits.data);
      ArrowBufferReset(&digits);
      break;
    }
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_MAP:
      JsDumpRange(out, view->children[0], ArrowArrayViewListChildOffset(view, j),
                  ArrowArrayViewListChildOffset(view, j + 1), depth);
      break;
    case NANOARROW_TYPE_FIXED_SIZE_LIST: {
      int64_t size = view->layout.child_size_elements;
      JsDumpRange(out, view->children[0], j * size, (j + 1) * size, depth);
      break;
    }
    case NANOARROW_TYPE_STRUCT:
      fputc('[', out);
      for (k = 0; k < view->n_children; k++) {
        if (k > 0) fputc(',', out);
        JsDumpValue(out, view->children[k], j, depth + 1);
      }
      fputc(']', out);
      break;
    case NANOARROW_TYPE_SPARSE_UNION:
    case NANOARROW_TYPE_DENSE_UNION:
      fprintf(out, "[%d,", (int)ArrowArrayViewUnionTypeId(view, i));
      JsDumpValue(out, view->children[ArrowArrayViewUnionChildIndex(view, i)],
                  ArrowArrayViewUnionChildOffset(view, i), depth + 1);
      fputc(']', out);
      break;
    case NANOARROW_TYPE_NA:
      fputs("null", out);
      break;
    default:
      cr_assert_fail("no canonical JSON form for storage type %d", (int)view->storage_type);
  }
}

/* [[column values...] per column] for one batch. */
static void JsDumpBatch(FILE* out, const struct ArrowSchema* schema,
                        const struct ArrowArray* batch) {
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t c;
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowArrayViewSetArray(&view, batch, &error), NANOARROW_OK, "%s",
               error.message);
  fputc('[', out);
  for (c = 0; c < view.n_children; c++) {
    if (c > 0) fputc(',', out);
    JsDumpRange(out, view.children[c], 0, view.length, 0);
  }
  fputc(']', out);
  ArrowArrayViewReset(&view);
}

static struct ArrowBuffer JsReadWholeFile(const char* path) {
  struct ArrowBuffer out;
  FILE* file = fopen(path, "rb");
  long size;
  cr_assert_not_null(file, "cannot open %s", path);
  cr_assert_eq(fseek(file, 0, SEEK_END), 0);
  size = ftell(file);
  cr_assert_eq(fseek(file, 0, SEEK_SET), 0);
  ArrowBufferInit(&out);
  cr_assert_eq(ArrowBufferReserve(&out, size + 1), NANOARROW_OK);
  cr_assert_eq(fread(out.data, 1, (size_t)size, file), (size_t)size);
  out.size_bytes = size;
  fclose(file);
  return out;
}

/* A stream through the array stream reader; the error message on failure. */
static int JsDumpStream(const char* path, FILE* out, char* message, size_t message_size) {
  struct ArrowBuffer bytes = JsReadWholeFile(path);
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  int n = 0;
  int rc;
  cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &bytes), NANOARROW_OK);
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, NULL), NANOARROW_OK);
  rc = stream.get_schema(&stream, &schema);
  if (rc != NANOARROW_OK) {
    snprintf(message, message_size, "schema: %.900s", stream.get_last_error(&stream));
    ArrowArrayStreamRelease(&stream);
    return rc;
  }
  fputc('[', out);
  for (;;) {
    rc = stream.get_next(&stream, &batch);
    if (rc != NANOARROW_OK) {
      snprintf(message, message_size, "batch %d: %.900s", n, stream.get_last_error(&stream));
      break;
    }
    if (batch.release == NULL) break;
    if (n++ > 0) fputc(',', out);
    JsDumpBatch(out, &schema, &batch);
    ArrowArrayRelease(&batch);
  }
  fputc(']', out);
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
  return rc;
}

/* A file through its footer (apache-arrow puts the schema only there). */
static int JsDumpFile(const char* path, FILE* out, char* message, size_t message_size) {
  struct ArrowBuffer bytes = JsReadWholeFile(path);
  struct ArrowIpcFileReader reader;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowError error;
  int64_t i;
  int rc = ArrowIpcFileReaderInitBuffer(&reader, &bytes, &error);
  if (rc != NANOARROW_OK) {
    snprintf(message, message_size, "footer: %.900s", error.message);
    return rc;
  }
  rc = ArrowIpcFileReaderGetSchema(&reader, &schema, &error);
  if (rc != NANOARROW_OK) {
    snprintf(message, message_size, "schema: %.900s", error.message);
    ArrowIpcFileReaderReset(&reader);
    return rc;
  }
  fputc('[', out);
  for (i = 0; i < ArrowIpcFileReaderNumRecordBatches(&reader); i++) {
    rc = ArrowIpcFileReaderReadBatch(&reader, i, &batch, NANOARROW_VALIDATION_LEVEL_FULL,
                                     &error);
    if (rc != NANOARROW_OK) {
      snprintf(message, message_size, "batch %" PRId64 ": %.900s", i, error.message);
      break;
    }
    if (i > 0) fputc(',', out);
    JsDumpBatch(out, &schema, &batch);
    ArrowArrayRelease(&batch);
  }
  fputc(']', out);
  ArrowSchemaRelease(&schema);
  ArrowIpcFileReaderReset(&reader);
  return rc;
}

static int JsEndsWith(const char* name, const char* suffix) {
  size_t n = strlen(name);
  size_t m = strlen(suffix);
  return n >= m && strcmp(name + n - m, suffix) == 0;
}

Test(ipc_js_read, dump_files_written_by_apache_arrow) {
  const char* dir_path = getenv("NANOARROW_IPC_JS_DIR");
  char path[2048];
  char out_path[2100];
  char message[1024];
  int rc;
  DIR* dir;
  struct dirent* entry;
  int n_files = 0;
  if (dir_path == NULL) cr_skip_test("NANOARROW_IPC_JS_DIR is not set");
  dir = opendir(dir_path);
  cr_assert_not_null(dir, "cannot open %s", dir_path);
  while ((entry = readdir(dir)) != NULL) {
    int is_stream = JsEndsWith(entry->d_name, ".arrows");
    FILE* out;
    if (!is_stream && !JsEndsWith(entry->d_name, ".arrow")) continue;
    snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
    snprintf(out_path, sizeof(out_path), "%s.nanoarrow.json", path);
    out = fopen(out_path, "wb");
    cr_assert_not_null(out, "cannot write %s", out_path);
    message[0] = '\0';
    rc = is_stream ? JsDumpStream(path, out, message, sizeof(message))
                   : JsDumpFile(path, out, message, sizeof(message));
    fclose(out);
    if (rc != NANOARROW_OK) {
      /* The comparison then reports this reader error for the file. */
      struct ArrowBufferView text;
      out = fopen(out_path, "wb");
      cr_assert_not_null(out, "cannot write %s", out_path);
      text.data.as_char = message;
      text.size_bytes = (int64_t)strlen(message);
      fputs("{\"nanoarrow error\":", out);
      JsDumpString(out, text);
      fputs("}", out);
      fclose(out);
      cr_log_error("%s: %s", path, message);
    }
    n_files++;
  }
  closedir(dir);
  cr_assert_gt(n_files, 0, "no .arrows / .arrow files in %s", dir_path);
}
