/* Text output of the `nanoarrow` command-line tool (not installed). */

#ifndef NANOARROW_CLI_FORMAT_H_INCLUDED
#define NANOARROW_CLI_FORMAT_H_INCLUDED

#include "nanoarrow/nanoarrow.h"

/* One line per field ("name: type", " not null" when not nullable), children
 * indented by two spaces, then "# metadata key = value" lines. */
ArrowErrorCode CliFormatSchema(const struct ArrowSchema* schema, struct ArrowBuffer* out);

/* Element i of view as a JSON value (strings quoted, binary as "0x..." hex,
 * decimals as strings, nested values as arrays/objects, dictionaries decoded). */
ArrowErrorCode CliFormatElement(const struct ArrowSchema* schema,
                                const struct ArrowArrayView* view, int64_t i,
                                struct ArrowBuffer* out);

/* The first n_rows rows of a record batch as JSON lines ({"column": value, ...}). */
ArrowErrorCode CliFormatJsonLines(const struct ArrowSchema* schema,
                                  const struct ArrowArrayView* batch, int64_t n_rows,
                                  struct ArrowBuffer* out);

/* The first n_rows rows as an aligned table (cells cut at 40 characters), with a
 * header line and a rule when print_header. */
ArrowErrorCode CliFormatTable(const struct ArrowSchema* schema,
                              const struct ArrowArrayView* batch, int64_t n_rows,
                              int print_header, struct ArrowBuffer* out);

#endif /* NANOARROW_CLI_FORMAT_H_INCLUDED */
