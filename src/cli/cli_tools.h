/* The `nanoarrow` tool's commands beyond reading and writing Arrow: column and row
 * selection for cat, CSV output, CSV / JSON Lines input for convert, and the
 * file summary of `info`. Not installed; not part of the public API. */

#ifndef NANOARROW_CLI_TOOLS_H_INCLUDED
#define NANOARROW_CLI_TOOLS_H_INCLUDED

#include <stdio.h>

#include "nanoarrow/nanoarrow.h"

#include "cli/cli_format.h"

/* ---- Selection (cli_select.c) ----
 * Wraps in (moved from) as a stream that skips the first offset rows and keeps
 * the top-level columns named in columns ("a,b": in that order; NULL: all). The
 * batches are decoded whole and the columns picked afterwards (no projection in
 * the reader yet). A name that is not a column, or one named twice, is an error. */
ArrowErrorCode CliSelectStream(struct ArrowArrayStream* in, int64_t offset,
                               const char* columns, struct ArrowArrayStream* out,
                               struct ArrowError* error);

/* Checks columns ("a,b") against schema's top-level fields with CliSelectStream's
 * messages (an unknown name lists the columns; a name given twice). */
ArrowErrorCode CliSelectCheckColumns(const struct ArrowSchema* schema, const char* columns,
                                     struct ArrowError* error);

/* ---- CSV output (cli_csv.c) ----
 * RFC 4180: fields separated by commas, records by "\n"; a field holding a comma,
 * a quote, CR or LF (or empty text) is quoted, its quotes doubled. A null is an
 * empty field, an empty string "". Numbers read back exactly (floats: the
 * shortest of %.15g..%.17g, %.6g..%.9g for float32, that strtod gives back; a
 * float with an integral value keeps a ".0"), booleans true/false, nested values
 * and intervals as JSON text, binary as 0x hex, decimals as text, temporal types
 * as their integer storage. */
ArrowErrorCode CliFormatCsvHeader(const struct ArrowSchema* schema, struct CliSink* sink);
ArrowErrorCode CliFormatCsvRows(const struct ArrowSchema* schema,
                                const struct ArrowArrayView* batch, int64_t start,
                                int64_t n_rows, struct CliSink* sink);

/* ---- Text input (cli_text_input.c, cli_csv.c, cli_jsonl.c) ---- */
enum CliTextFormat { CLI_TEXT_CSV = 1, CLI_TEXT_JSONL = 2 };

/* Rows read before the types are inferred, and rows per batch. */
#define CLI_TEXT_SAMPLE_ROWS 1000
#define CLI_TEXT_BATCH_ROWS 65536
/* A wide table gets fewer rows a batch: at most this many values (64 columns or
 * fewer: CLI_TEXT_BATCH_ROWS rows; 10,000 columns: 419 rows). */
#define CLI_TEXT_BATCH_VALUES ((int64_t)1 << 22)
/* A record (a CSV record, a JSON line) longer than this is refused. */
#define CLI_TEXT_MAX_RECORD_BYTES ((int64_t)256 << 20)

/* csv for ".csv", jsonl for ".jsonl" / ".ndjson" (0 otherwise). */
enum CliTextFormat CliTextFormatFromPath(const char* path);

/* Parses "name:type,name:type,..." into a struct schema (out is initialized on
 * success). Types: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
 * float32, float64, utf8 (aliases boolean, float, double, string), null. */
ArrowErrorCode CliParseSchemaSpec(const char* spec, struct ArrowSchema* out,
                                  struct ArrowError* error);

/* Opens path ("-": stdin) as a stream of record batches of CLI_TEXT_BATCH_ROWS
 * rows (fewer for a wide table, see CLI_TEXT_BATCH_VALUES). schema (may be NULL; copied) gives the columns, else their types are
 * inferred from the first CLI_TEXT_SAMPLE_ROWS rows. Only a batch is in memory at
 * a time. */
ArrowErrorCode CliOpenText(const char* path, enum CliTextFormat format,
                           const struct ArrowSchema* schema, struct ArrowArrayStream* out,
                           struct ArrowError* error);
/* The same for an open file, closed with the stream when close_file is set (and
 * on failure). */
ArrowErrorCode CliOpenTextFile(FILE* file, int close_file, enum CliTextFormat format,
                               const struct ArrowSchema* schema,
                               struct ArrowArrayStream* out, struct ArrowError* error);

/* ---- info (cli_info.c) ----
 * A summary of an IPC stream or file in data: format, schema, batches and rows,
 * bytes per column as stored (compressed) and decoded, codec, dictionaries,
 * metadata, end-of-stream marker. As text, or as one JSON object (json != 0). */
ArrowErrorCode CliInfo(const struct ArrowBuffer* data, int json, struct ArrowBuffer* out,
                       struct ArrowError* error);

#endif /* NANOARROW_CLI_TOOLS_H_INCLUDED */
