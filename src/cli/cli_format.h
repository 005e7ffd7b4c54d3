/* Text output of the `nanoarrow` command-line tool (not installed). */

#ifndef NANOARROW_CLI_FORMAT_H_INCLUDED
#define NANOARROW_CLI_FORMAT_H_INCLUDED

#include <errno.h>
#include <stdio.h>

#include "nanoarrow/nanoarrow.h"

/* ---- Sinks ----
 * Where formatted text goes. With a file, text is written out whenever
 * CLI_SINK_CHUNK_BYTES have gathered (checked between values, so memory stays
 * bounded whatever the number of rows or the length of a nested value). Without
 * one, text is kept in memory up to cap bytes: formatting stops there with
 * CLI_SINK_FULL (what a table cell needs; cap 0: no limit). */
#define CLI_SINK_CHUNK_BYTES 65536
#define CLI_SINK_FULL ERANGE

struct CliSink {
  struct ArrowBuffer text;
  FILE* file;
  int64_t cap;
  /* errno of the write that failed (0 when none did). */
  int write_errno;
};

void CliSinkInit(struct CliSink* sink, FILE* file, int64_t cap);
void CliSinkReset(struct CliSink* sink);
/* The check formatting makes between values: flushes or stops, as above. */
ArrowErrorCode CliSinkCheck(struct CliSink* sink);
/* Writes out all pending text (nothing without a file). The error code is the
 * write's errno (EPIPE for a closed pipe). */
ArrowErrorCode CliSinkFlush(struct CliSink* sink);

/* The shortest text of the finite value that strtod reads back as the same double
 * (as the same float when is_float): the first of %.15g..%.17g (%.6g..%.9g) that
 * does. With mark_real, ".0" follows a text that would read as an integer, so the
 * value stays visibly a real ("1.0", "-0.0"). size: 32 or more. */
void CliFormatShortestReal(double value, int is_float, int mark_real, char* text,
                           size_t size);

/* One line per field ("name: type", " not null" when not nullable), children
 * indented by two spaces, then "# metadata key = value" lines. */
ArrowErrorCode CliFormatSchema(const struct ArrowSchema* schema, struct ArrowBuffer* out);

/* Element i of view as a JSON value (strings quoted, binary as "0x..." hex,
 * decimals as strings, nested values as arrays/objects, dictionaries decoded). A
 * decimal whose scale is beyond +/-CLI_DECIMAL_MAX_PLAIN_SCALE (the digits of the
 * widest decimal) is its unscaled digits and a power of ten: "123E-1000". */
#define CLI_DECIMAL_MAX_PLAIN_SCALE 76
ArrowErrorCode CliFormatElement(const struct ArrowSchema* schema,
                                const struct ArrowArrayView* view, int64_t i,
                                struct CliSink* sink);

/* Rows [start, start + n_rows) of a record batch as JSON lines
 * ({"column": value, ...}), flushed between rows and within long values. */
ArrowErrorCode CliFormatJsonLines(const struct ArrowSchema* schema,
                                  const struct ArrowArrayView* batch, int64_t start,
                                  int64_t n_rows, struct CliSink* sink);

/* ---- Tables ----
 * An aligned table written as rows arrive, with one width per column for the
 * whole output: the widths come from the header and the first sample_rows rows
 * (the look-ahead, kept as text: at most CLI_TABLE_SAMPLE_CELLS cells of
 * CLI_TABLE_MAX_WIDTH characters, so a table of more than
 * CLI_TABLE_SAMPLE_CELLS / sample_rows columns looks ahead fewer rows, one at
 * least), no column is wider than CLI_TABLE_MAX_WIDTH
 * characters, and a cell wider than its column is cut to the width, its last
 * character replaced by "…". Strings are shown unquoted, control characters as
 * spaces; other values as in CliFormatElement. Widths count code points. */
#define CLI_TABLE_MAX_WIDTH 40
#define CLI_TABLE_SAMPLE_ROWS 100
#define CLI_TABLE_SAMPLE_CELLS 20000

struct CliTable {
  const struct ArrowSchema* schema;
  int64_t n_columns;
  int64_t sample_rows;
  int64_t n_sampled;
  /* Sampled cells (header first), each cut to CLI_TABLE_MAX_WIDTH. */
  struct ArrowBuffer sample_text;
  struct ArrowBuffer sample_cells; /* int64_t start, size per cell */
  int64_t* widths;
  int header_written;
  /* One cell being formatted (capped). */
  struct CliSink cell;
};

ArrowErrorCode CliTableInit(struct CliTable* table, const struct ArrowSchema* schema,
                            int64_t sample_rows);
/* Rows [start, start + n_rows) of batch (a view of a struct array of schema). */
ArrowErrorCode CliTableAppend(struct CliTable* table, const struct ArrowArrayView* batch,
                              int64_t start, int64_t n_rows, struct CliSink* out);
/* Writes what the look-ahead still holds (the header at least). */
ArrowErrorCode CliTableFinish(struct CliTable* table, struct CliSink* out);
void CliTableReset(struct CliTable* table);

#endif /* NANOARROW_CLI_FORMAT_H_INCLUDED */
