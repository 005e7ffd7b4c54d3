/* libFuzzer harness: what the `nanoarrow` command-line tool does with a hostile input
 * file, through the tool's own code (src/cli), not the library's alone.
 *
 * The first byte picks the path; the rest is the input:
 *   mode 0: CSV, and mode 1: JSON Lines, read by `convert`'s text reader (types given
 *           by a --schema spec taken from the first line when bit 0x80 is set, else
 *           inferred). Every batch it builds must pass FULL validation: the text
 *           reader makes these arrays, so an invalid one is its bug.
 *   mode 2: an Arrow input (IPC stream, IPC file or integration JSON, detected as
 *           `cat` detects it), also summarized by `info` as text and as JSON, and
 *           checked by `validate`'s UTF-8 check.
 * Every batch is then printed as `cat` prints it: a table (to /dev/null), CSV, which
 * the tool's CSV reader must read back as one record of one field per column for
 * each row, and JSON lines, each of which must parse (jansson) as an object. Text
 * inputs are also written as an IPC stream and read again, which must give as many
 * rows. */

#define _POSIX_C_SOURCE 200809L /* fmemopen */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

#include "cli/cli.h"
#include "cli/cli_format.h"
#include "cli/cli_text.h"
#include "cli/cli_tools.h"

#include "fuzz_util.h"

static FILE* g_null_output = NULL;

/* Rows printed of a batch, at its start and at its end: a few bytes can describe
 * billions of rows (run-end encoded, all null), which `cat` would print, each the
 * same way. */
#define FUZZ_PRINT_HEAD_ROWS 512
#define FUZZ_PRINT_TAIL_ROWS 64

/* Each line of JSON lines output must be a JSON object, as a consumer parses it. */
static void CheckJsonLines(const struct ArrowBuffer* text, int64_t n_rows) {
  const char* line = (const char*)text->data;
  const char* end;
  int64_t n_lines = 0;
  if (text->size_bytes == 0) {
    FUZZ_CHECK(n_rows == 0);
    return;
  }
  end = line + text->size_bytes;
  while (line < end) {
    const char* newline = (const char*)memchr(line, '\n', (size_t)(end - line));
    json_error_t json_error;
    json_t* value;
    FUZZ_CHECK(newline != NULL);
    /* uint64 values beyond int64 are numbers jansson holds only as reals. */
    value = json_loadb(line, (size_t)(newline - line),
                       JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL, &json_error);
    if (value == NULL || !json_is_object(value)) {
      fprintf(stderr, "cat --format jsonl wrote a line that is not a JSON object (%s): %.*s\n",
              json_error.text, (int)(newline - line < 200 ? newline - line : 200), line);
      abort();
    }
    json_decref(value);
    n_lines++;
    line = newline + 1;
  }
  FUZZ_CHECK(n_lines == n_rows);
}

/* CSV output read back by the tool's own CSV reader: one record per row, each with
 * one field per column. */
static void CheckCsv(const struct ArrowBuffer* text, int64_t n_rows, int64_t n_columns) {
  struct CliTextRows rows;
  struct ArrowError error;
  int64_t line = 0;
  int64_t n_records = 0;
  FILE* file;
  if (text->size_bytes == 0) {
    FUZZ_CHECK(n_rows == 0);
    return;
  }
  file = fmemopen((void*)text->data, (size_t)text->size_bytes, "rb");
  FUZZ_CHECK(file != NULL);
  CliTextRowsInit(&rows);
  for (;;) {
    int64_t n_fields = 0;
    int eof = 0;
    CliTextRowsClear(&rows);
    if (CliCsvReadRecord(file, &line, &rows, &n_fields, &eof, &error) != NANOARROW_OK) {
      fprintf(stderr, "cat --format csv wrote a record its reader refuses: %s\n",
              error.message);
      abort();
    }
    if (eof) break;
    FUZZ_CHECK(n_fields == n_columns);
    n_records++;
  }
  FUZZ_CHECK(n_records == n_rows);
  CliTextRowsReset(&rows);
  fclose(file);
}

static void PrintRows(const struct ArrowSchema* schema, const struct ArrowArrayView* view,
                      int64_t start, int64_t n_rows, struct CliTable* table,
                      struct CliSink* sink) {
  struct CliSink text;
  (void)CliTableAppend(table, view, start, n_rows, sink);
  (void)CliSinkFlush(sink);

  /* With more than one column a CSV record is never blank; with one, a null is an
   * empty line, which the reader skips. */
  CliSinkInit(&text, NULL, 0);
  if (CliFormatCsvRows(schema, view, start, n_rows, &text) == NANOARROW_OK &&
      schema->n_children > 1) {
    CheckCsv(&text.text, n_rows, schema->n_children);
  }
  CliSinkReset(&text);

  CliSinkInit(&text, NULL, 0);
  if (CliFormatJsonLines(schema, view, start, n_rows, &text) == NANOARROW_OK) {
    CheckJsonLines(&text.text, n_rows);
  }
  CliSinkReset(&text);
}

/* Prints rows of one batch in the three row formats of `cat`. Formatting may stop on
 * values it cannot print (an error code), never crash. */
static void PrintBatch(const struct ArrowSchema* schema, const struct ArrowArrayView* view,
                       struct CliTable* table, struct CliSink* sink) {
  int64_t head = view->length < FUZZ_PRINT_HEAD_ROWS ? view->length : FUZZ_PRINT_HEAD_ROWS;
  int64_t tail = view->length - head < FUZZ_PRINT_TAIL_ROWS ? view->length - head
                                                             : FUZZ_PRINT_TAIL_ROWS;
  PrintRows(schema, view, 0, head, table, sink);
  if (tail > 0) PrintRows(schema, view, view->length - tail, tail, table, sink);
}

/* Reads stream to its end, printing each batch; returns the rows read (-1 when the
 * schema could not be read). Batches of a text input must be valid at FULL. */
static int64_t ReadAndPrint(struct ArrowArrayStream* stream, int made_here) {
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowBuffer schema_text;
  struct CliTable table;
  struct CliSink sink;
  struct ArrowError error;
  int64_t n_rows = 0;
  int rc;

  ArrowErrorInit(&error);
  if (stream->get_schema(stream, &schema) != NANOARROW_OK) return -1;
  FuzzTouchSchema(&schema, 0);
  ArrowBufferInit(&schema_text);
  (void)CliFormatSchema(&schema, &schema_text);
  ArrowBufferReset(&schema_text);

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_UNINITIALIZED);
  if (ArrowArrayViewInitFromSchema(&view, &schema, &error) != NANOARROW_OK) {
    FUZZ_CHECK(!made_here);
    ArrowArrayViewReset(&view);
    ArrowSchemaRelease(&schema);
    return -1;
  }
  CliSinkInit(&sink, g_null_output, 0);
  rc = CliTableInit(&table, &schema, CLI_TABLE_SAMPLE_ROWS);
  FUZZ_CHECK(rc == NANOARROW_OK);
  (void)CliFormatCsvHeader(&schema, &sink);

  for (;;) {
    struct ArrowArray array;
    if (stream->get_next(stream, &array) != NANOARROW_OK) {
      FUZZ_CHECK(stream->get_last_error(stream) != NULL);
      break;
    }
    if (array.release == NULL) break;
    rc = ArrowArrayViewSetArray(&view, &array, &error);
    if (rc == NANOARROW_OK) {
      rc = ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error);
    }
    if (made_here && rc != NANOARROW_OK) {
      fprintf(stderr, "the text reader built an invalid batch: %s\n", error.message);
      abort();
    }
    if (rc == NANOARROW_OK) {
      FuzzTouchArrayView(&view, 0);
      (void)CliValidateUtf8(&schema, &view, &error);
      PrintBatch(&schema, &view, &table, &sink);
      n_rows += array.length;
    }
    ArrowArrayRelease(&array);
  }
  (void)CliTableFinish(&table, &sink);
  (void)CliSinkFlush(&sink);
  CliTableReset(&table);
  CliSinkReset(&sink);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
  return n_rows;
}

/* A text input: read with the text reader, printed; then read again and written as
 * an IPC stream, which the tool's own reader must read back row for row. */
static void FuzzText(enum CliTextFormat format, const uint8_t* data, size_t size,
                     int with_schema) {
  struct ArrowSchema spec_schema;
  const struct ArrowSchema* schema = NULL;
  struct ArrowArrayStream stream;
  struct ArrowError error;
  struct ArrowBuffer ipc;
  FILE* file;
  int64_t n_rows;

  ArrowErrorInit(&error);
  spec_schema.release = NULL;
  if (with_schema) {
    const uint8_t* newline = (const uint8_t*)memchr(data, '\n', size);
    size_t spec_size = newline == NULL ? size : (size_t)(newline - data);
    char* spec = (char*)malloc(spec_size + 1);
    FUZZ_CHECK(spec != NULL);
    memcpy(spec, data, spec_size);
    spec[spec_size] = '\0';
    if (CliParseSchemaSpec(spec, &spec_schema, &error) == NANOARROW_OK) {
      FuzzTouchSchema(&spec_schema, 0);
      schema = &spec_schema;
    }
    free(spec);
    data += spec_size < size ? spec_size + 1 : size;
    size -= spec_size < size ? spec_size + 1 : size;
    if (schema == NULL) return;
  }

  /* fmemopen() refuses an empty buffer on some C libraries: one spare byte. */
  file = fmemopen((void*)data, size > 0 ? size : 1, "rb");
  FUZZ_CHECK(file != NULL);
  if (size == 0) (void)fgetc(file);
  if (CliOpenTextFile(file, 1, format, schema, &stream, &error) != NANOARROW_OK) {
    FUZZ_CHECK(error.message[0] != '\0');
    if (spec_schema.release != NULL) ArrowSchemaRelease(&spec_schema);
    return;
  }
  n_rows = ReadAndPrint(&stream, 1);
  ArrowArrayStreamRelease(&stream);
  FUZZ_CHECK(n_rows >= 0);

  /* The same input written as an IPC stream and read back. */
  file = fmemopen((void*)data, size > 0 ? size : 1, "rb");
  FUZZ_CHECK(file != NULL);
  if (size == 0) (void)fgetc(file);
  FUZZ_CHECK(CliOpenTextFile(file, 1, format, schema, &stream, &error) == NANOARROW_OK);
  ArrowBufferInit(&ipc);
  if (CliWriteStream(&stream, CLI_FORMAT_STREAM, NANOARROW_IPC_COMPRESSION_TYPE_NONE, 0,
                     &ipc, NULL, NULL, &error) == NANOARROW_OK) {
    struct ArrowArrayStream back;
    FUZZ_CHECK(CliOpenBuffer(&ipc, CLI_FORMAT_STREAM, &back, NULL, &error) ==
               NANOARROW_OK);
    FUZZ_CHECK(ReadAndPrint(&back, 1) == n_rows);
    ArrowArrayStreamRelease(&back);
  }
  ArrowBufferReset(&ipc);
  ArrowArrayStreamRelease(&stream);
  if (spec_schema.release != NULL) ArrowSchemaRelease(&spec_schema);
}

/* An Arrow input: `info` (text and JSON), then `cat`'s reading and printing. */
static void FuzzArrow(const uint8_t* data, size_t size) {
  struct ArrowBuffer input;
  struct ArrowBuffer summary;
  struct ArrowArrayStream stream;
  struct ArrowError error;
  int json;

  ArrowErrorInit(&error);
  ArrowBufferInit(&input);
  FUZZ_CHECK(ArrowBufferAppend(&input, data, (int64_t)size) == NANOARROW_OK);
  for (json = 0; json <= 1; json++) {
    ArrowBufferInit(&summary);
    (void)CliInfo(&input, json, &summary, &error);
    FuzzTouchBytes(summary.data, summary.size_bytes);
    ArrowBufferReset(&summary);
  }
  if (CliOpenBuffer(&input, CLI_FORMAT_UNKNOWN, &stream, NULL, &error) == NANOARROW_OK) {
    (void)ReadAndPrint(&stream, 0);
    ArrowArrayStreamRelease(&stream);
  }
  ArrowBufferReset(&input);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint8_t selector;
  if (size == 0) return 0;
  if (g_null_output == NULL) {
    g_null_output = fopen("/dev/null", "wb");
    FUZZ_CHECK(g_null_output != NULL);
  }
  selector = data[0];
  data++;
  size--;
  switch (selector % 3) {
    case 0:
      FuzzText(CLI_TEXT_CSV, data, size, (selector & 0x80) != 0);
      break;
    case 1:
      FuzzText(CLI_TEXT_JSONL, data, size, (selector & 0x80) != 0);
      break;
    default:
      FuzzArrow(data, size);
      break;
  }
  return 0;
}
