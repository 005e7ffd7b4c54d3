/* Shared by the CSV and JSON Lines readers of `convert` (cli_text_input.c,
 * cli_csv.c, cli_jsonl.c). Not installed. */

#ifndef NANOARROW_CLI_TEXT_H_INCLUDED
#define NANOARROW_CLI_TEXT_H_INCLUDED

#include <stdio.h>

#include "nanoarrow/nanoarrow.h"

/* What a cell holds: CSV fields are TEXT (their type read from their content) or
 * NULL (an unquoted empty field); JSON values are NULL, STRING, INT, REAL, BOOL
 * (the literal true/false) or JSON (an array or object as compact text). */
enum CliCellKind {
  CLI_CELL_NULL,
  CLI_CELL_TEXT,
  CLI_CELL_STRING,
  CLI_CELL_INT,
  CLI_CELL_REAL,
  CLI_CELL_BOOL,
  CLI_CELL_JSON
};

/* A cell: size bytes at start of its row set's text. */
struct CliTextCell {
  int64_t start;
  int64_t size;
  int64_t kind;
};

/* Rows of cells: text, then n_columns cells per row (struct CliTextCell) and the
 * input line each row began on (int64_t). */
struct CliTextRows {
  struct ArrowBuffer text;
  struct ArrowBuffer cells;
  struct ArrowBuffer lines;
  int64_t n_rows;
};

void CliTextRowsInit(struct CliTextRows* rows);
void CliTextRowsClear(struct CliTextRows* rows);
void CliTextRowsReset(struct CliTextRows* rows);
ArrowErrorCode CliTextRowsAppendCell(struct CliTextRows* rows, const char* data,
                                     int64_t size, enum CliCellKind kind);
/* The first byte of cell in rows ("" for an empty cell: an empty row set has no
 * text buffer to point into). */
static inline const char* CliTextRowsCellText(const struct CliTextRows* rows,
                                              const struct CliTextCell* cell) {
  return cell->size > 0 ? (const char*)rows->text.data + cell->start : "";
}

/* Reads the next CSV record of file into rows (its fields as cells; *n_fields
 * receives their number), *line counting input lines (advanced past the record).
 * *eof is set instead at the end of the input. */
ArrowErrorCode CliCsvReadRecord(FILE* file, int64_t* line, struct CliTextRows* rows,
                                int64_t* n_fields, int* eof, struct ArrowError* error);

/* Reads the next non-blank line of file into out (without its newline). */
ArrowErrorCode CliJsonlReadLine(FILE* file, int64_t* line, struct ArrowBuffer* out,
                                int* eof, struct ArrowError* error);

/* Column names gathered from JSON objects, in order of first appearance. */
struct CliNames {
  char** names;
  int64_t n;
  int64_t capacity;
};
#define CLI_TEXT_MAX_COLUMNS 10000

void CliNamesReset(struct CliNames* names);
int64_t CliNamesFind(const struct CliNames* names, const char* name, int64_t n);
ArrowErrorCode CliNamesAppend(struct CliNames* names, const char* name, int64_t n);

/* Adds the keys of the JSON object on line line_no not yet in names. */
ArrowErrorCode CliJsonlCollectKeys(const char* text, int64_t size, int64_t line_no,
                                   struct CliNames* names, struct ArrowError* error);
/* The object on line line_no as one row of rows: one cell per name of columns
 * (NULL when absent). A key that is not a column is an error. */
ArrowErrorCode CliJsonlToCells(const char* text, int64_t size, int64_t line_no,
                               const struct CliNames* columns, struct CliTextRows* rows,
                               struct ArrowError* error);

#endif /* NANOARROW_CLI_TEXT_H_INCLUDED */
