/* The `nanoarrow` command-line tool: info, schema, cat, validate, convert, and the
 * modes Arrow's integration harness (archery) drives. Errors are one line on stderr
 * with exit status 1; usage errors exit with 2. Output is whole or an error: stdout is
 * checked before exit, and a closed pipe is an error except for schema and cat. */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_testing.h"

#include "cli/cli.h"
#include "cli/cli_format.h"
#include "cli/cli_tools.h"

#define EXIT_USAGE 2

static const char* kUsage =
    "usage: nanoarrow COMMAND [ARGS]\n"
    "\n"
    "Commands:\n"
    "  info FILE [--format text|json]\n"
    "                              what an IPC stream or file holds: batches, rows,\n"
    "                              bytes per column, compression, dictionaries\n"
    "  schema FILE                 print the schema, one field per line\n"
    "  cat FILE [--format table|jsonl|csv|json] [--limit N | --all] [--offset N]\n"
    "           [--columns a,b] [--threads N]\n"
    "                              print the data (a 20-row table preview on a\n"
    "                              terminal, else every row as JSON lines)\n"
    "  validate FILE [--strict] [--threads N]\n"
    "                              validate every batch fully (exit 1 when invalid)\n"
    "  convert IN OUT [--to stream|file|json] [--compression lz4|zstd [--level N]]\n"
    "          [--from csv|jsonl] [--schema 'a:int64,b:utf8'] [--threads N]\n"
    "                              convert between IPC stream, IPC file and JSON,\n"
    "                              or from CSV / JSON Lines into Arrow\n"
    "  integration --arrow=PATH --json=PATH --mode=ARROW_TO_JSON|JSON_TO_ARROW|VALIDATE\n"
    "                              Arrow integration harness (archery) mode\n"
    "  stream-to-file              IPC stream on stdin to IPC file on stdout\n"
    "  file-to-stream [FILE]       IPC file (FILE or stdin) to IPC stream on stdout\n"
    "\n"
    "FILE may be an IPC stream, an IPC file or integration JSON (optionally gzipped);\n"
    "'-' is standard input/output. An IPC stream on standard input or another pipe,\n"
    "FIFO or socket is read as it arrives, each batch handed on once complete\n"
    "(`producer | nanoarrow cat -` prints batches while the producer writes).\n"
    "Output is whole or the command fails: a write error (a full disk, /dev/full)\n"
    "exits 1 with the reason. A closed pipe ends the output of schema and cat\n"
    "quietly (exit 0); for other commands it is an error.\n"
    "`nanoarrow COMMAND --help` describes a command.\n"
    "\n"
    "Exit status: 0 success; 1 failure (unreadable or invalid input, a failed\n"
    "write), with one line 'nanoarrow COMMAND: what went wrong' on stderr; 2 usage\n"
    "error (unknown command or option, missing or bad argument), with the message\n"
    "and the command's synopsis on stderr.\n";

static const char* kInfoUsage =
    "usage: nanoarrow info FILE [--format text|json]\n"
    "Summarizes an IPC stream or file: its format and size, whether the stream\n"
    "ends with its end-of-stream marker (and, for a file, the footer's counts), the\n"
    "number of batches and rows, the compression codec (none, lz4, zstd or mixed),\n"
    "each column's name, type, bytes stored (as in the file, compressed when the\n"
    "body is) and decoded, and their ratio (decoded / stored), the dictionaries\n"
    "(per id: batches, deltas, values, bytes stored) and the schema metadata.\n"
    "  --format json   one JSON object, for scripts, with the keys format, bytes,\n"
    "                  end_of_stream_marker, batches, rows, compression, columns\n"
    "                  (name, type, nullable, stored_bytes, decoded_bytes, ratio),\n"
    "                  dictionaries (id, batches, deltas, values, stored_bytes),\n"
    "                  metadata (key: value) and footer (record_batches,\n"
    "                  dictionary_batches; null for a stream)\n";

static const char* kSchemaUsage =
    "usage: nanoarrow schema FILE\n"
    "Prints each field as 'name: type' (' not null' when not nullable), its\n"
    "metadata as '# metadata key = value' lines and its children indented below\n"
    "it, then the schema's metadata. A dictionary shows its index and value types\n"
    "(dictionary(int8)<string>); an extension type is shown as name{storage}.\n";
static const char* kCatUsage =
    "usage: nanoarrow cat FILE [--format table|jsonl|csv|json] [--limit N | --all]\n"
    "                         [--offset N] [--columns a,b] [--threads N]\n"
    "Prints the rows: an aligned table (default on a terminal), JSON lines (default\n"
    "otherwise), CSV or an Arrow integration JSON document. Rows are written as they\n"
    "are read, in bounded memory whatever their number. An IPC stream from a pipe\n"
    "(FILE '-', a FIFO) is read as it arrives: the rows of each batch are written\n"
    "out as soon as it is complete, before waiting for the next (a table holds its\n"
    "first 100 rows back for its column widths).\n"
    "  --format csv  RFC 4180 with a header line: fields holding a comma, a quote,\n"
    "              CR or LF are quoted (quotes doubled); a null is an empty field,\n"
    "              an empty string \"\"; nested values are JSON text; numbers read\n"
    "              back exactly (floats as the shortest text that does)\n"
    "  --offset N  skip the first N rows\n"
    "  --columns a,b  print these top-level columns, in this order: the reader\n"
    "              projects them (the others are never decoded, nor read from\n"
    "              an IPC file; integration JSON is read whole)\n"
    "  --limit N   print at most N rows\n"
    "  --threads N decompress the buffers of a compressed batch with N threads\n"
    "              (default 1)\n"
    "  --all       on a terminal, print every row (by default a terminal gets the\n"
    "              first 20 rows of a table, JSON lines or CSV and a footer\n"
    "              '... 999,980 more rows; --limit N or --all'; a pipe or a file\n"
    "              always gets every row)\n"
    "Table columns keep one width for the whole output: the widest of the header\n"
    "and the first 100 rows (fewer beyond 200 columns), at most 40 characters. A\n"
    "wider cell is cut to its column's width, its last character replaced by an\n"
    "ellipsis (U+2026).\n";
static const char* kValidateUsage =
    "usage: nanoarrow validate FILE [--strict] [--columns a,b] [--threads N]\n"
    "Reads and fully validates every batch, and checks that every string value is\n"
    "valid UTF-8. Exit 0 when valid; otherwise exit 1 with\n"
    "one line saying what is wrong and where. An IPC stream that ends without its\n"
    "end-of-stream marker is read (the marker is optional) with a warning on stderr:\n"
    "'no end-of-stream marker after N batches (the stream may be truncated)'.\n"
    "  --strict    fail (exit 1) on that instead of warning\n"
    "  --columns a,b  validate these top-level columns only: the reader projects\n"
    "              them, so the others are located but never decoded or checked\n"
    "  --threads N decompress the buffers of a compressed batch with N threads\n"
    "              (default 1)\n";
static const char* kConvertUsage =
    "usage: nanoarrow convert IN OUT [--to stream|file|json]\n"
    "                         [--compression lz4|zstd [--level N]]\n"
    "                         [--from csv|jsonl] [--schema NAME:TYPE,...]\n"
    "                         [--columns a,b] [--threads N]\n"
    "Converts between IPC stream, IPC file and integration JSON, or from CSV or\n"
    "JSON Lines (IN ending in .csv, .jsonl or .ndjson, or --from) into Arrow.\n"
    "CSV: RFC 4180 with a header line naming the columns; an unquoted empty field\n"
    "is a null, \"\" an empty string. JSON Lines: one object per line, its keys the\n"
    "columns (absent keys and null are nulls; arrays and objects become JSON text\n"
    "in a utf8 column). Types are inferred from the first 1000 rows: int64 when\n"
    "every value is an integer, float64 when a number, bool for true/false, utf8\n"
    "otherwise or when all are null. --schema gives them instead, as\n"
    "'name:type,name:type' in column order (CSV: one per header field; JSON Lines:\n"
    "the keys), types bool, int8, int16, int32, int64, uint8, uint16, uint32,\n"
    "uint64, float32, float64, utf8, null (aliases boolean, float, double, string),\n"
    "date32 and timestamp[s|ms|us|ns] (no time zone), which read their integer\n"
    "storage (what cat prints) or ISO 8601 text: YYYY-MM-DD, for timestamps\n"
    "optionally followed by THH:MM[:SS[.fraction]] ('T' or a space) and Z.\n"
    "Rows are read 65536 to a batch, one batch in memory at a time; a value that\n"
    "does not fit its column's type fails with its line. `cat --format csv` output\n"
    "converts back to the same values (int64, float64, bool, utf8 and nulls).\n"
    "--columns a,b writes only these top-level columns of Arrow input, in this\n"
    "order; the reader projects them (the others are never decoded).\n"
    "The output format defaults from OUT's extension (.arrow/.arrow_file/.feather:\n"
    "file, .json: json, otherwise stream). --compression compresses IPC bodies, at\n"
    "the codec's level N with --level (zstd: up to 22, negative for faster; lz4:\n"
    "up to 12, negative for faster; 0, the default, is the codec's own default);\n"
    "compressed bodies have their buffers aligned to 64 bytes, as Arrow C++ and\n"
    "arrow-rs write them. --threads N decompresses the buffers of each compressed\n"
    "input batch, and compresses those of each output batch, with N threads\n"
    "(default 1; the output is the same bytes whatever N).\n"
    "OUT is written whole or not at all: the output goes to a temporary file beside\n"
    "OUT, renamed over it once complete and removed on failure ('-': standard\n"
    "output, written once the conversion has succeeded).\n";
static const char* kIntegrationUsage =
    "usage: nanoarrow integration --arrow=PATH --json=PATH --mode=MODE\n"
    "MODE is ARROW_TO_JSON, JSON_TO_ARROW (writes an IPC file) or VALIDATE (exit 1\n"
    "when the Arrow file and the JSON differ). --integration and --validate_*=...\n"
    "flags are accepted and ignored, as archery passes them.\n";
static const char* kStreamToFileUsage =
    "usage: nanoarrow stream-to-file < IN.stream > OUT.arrow_file\n";
static const char* kFileToStreamUsage =
    "usage: nanoarrow file-to-stream [IN.arrow_file] > OUT.stream\n";

/* Rows a terminal gets from `cat` unless --limit or --all says otherwise. */
#define CAT_PREVIEW_ROWS 20

/* ---- Messages and output ---- */

/* Set by commands whose output may end at a closed pipe without an error. */
static int g_epipe_is_quiet = 0;
/* errno of the last failed write to stdout (0: none). */
static int g_stdout_errno = 0;

static int Fail(const char* command, const char* message) {
  char line[sizeof(((struct ArrowError*)0)->message)];
  size_t i;
  snprintf(line, sizeof(line), "%s", message);
  /* One line, whatever the message holds. */
  for (i = 0; line[i] != '\0'; i++) {
    if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
  }
  fprintf(stderr, "nanoarrow %s: %s\n", command, line);
  return EXIT_FAILURE;
}

static int FailWrite(const char* command, int code) {
  char message[128];
  snprintf(message, sizeof(message), "cannot write to standard output: %s",
           strerror(code != 0 ? code : EIO));
  return Fail(command, message);
}

/* The message, then the command's synopsis (the usage's first line) and where to
 * read more. */
static int UsageError(const char* command, const char* usage, const char* message) {
  const char* end = strchr(usage, '\n');
  int n = end != NULL ? (int)(end - usage) : (int)strlen(usage);
  fprintf(stderr, "nanoarrow %s: %s\n%.*s (nanoarrow %s --help for more)\n", command,
          message, n, usage, command);
  return EXIT_USAGE;
}

static int WantsHelp(int argc, char** argv) {
  int i;
  for (i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) return 0;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
  }
  return 0;
}

/* Writes all of buffer to stdout; 0 or the write's errno. */
static int WriteAll(const struct ArrowBuffer* buffer) {
  if (buffer->size_bytes == 0) return 0;
  errno = 0;
  if (fwrite(buffer->data, 1, (size_t)buffer->size_bytes, stdout) !=
      (size_t)buffer->size_bytes) {
    g_stdout_errno = errno != 0 ? errno : EIO;
    return g_stdout_errno;
  }
  return 0;
}

/* What every command's output goes through before exit: stdout is flushed and
 * checked, so that output lost in the stdio buffer is an error too. */
static int FinishOutput(const char* command, int status) {
  int code = 0;
  errno = 0;
  if (fflush(stdout) != 0) {
    code = errno != 0 ? errno : EIO;
  } else if (ferror(stdout)) {
    code = g_stdout_errno != 0 ? g_stdout_errno : EIO;
  }
  if (code == 0) return status;
  if (code == EPIPE && g_epipe_is_quiet) return status;
  /* A command that failed already said why. */
  return status == EXIT_SUCCESS ? FailWrite(command, code) : status;
}

static const char* StreamError(struct ArrowArrayStream* stream, int rc) {
  const char* message = stream->get_last_error(stream);
  return message != NULL && message[0] != '\0' ? message : strerror(rc);
}

/* ---- Options ---- */

/* One option of a command: a flag, or one that takes a value ("--name value" or
 * "--name=value"). Add a row to give a command a new option. */
struct Option {
  const char* name;
  int takes_value;
  /* Receives the value (takes_value) or 1 (a flag). */
  const char** value;
  int* flag;
};

/* Parses argv against options (ended by a row with a NULL name); other arguments
 * (and all after "--") fill positional, at most max_positional of them. Returns -1
 * when fine, else the exit status of the usage error it reported. */
static int ParseArgs(const char* command, const char* usage, int argc, char** argv,
                     const struct Option* options, const char** positional,
                     int max_positional, int* n_positional) {
  char message[256];
  int only_positional = 0;
  int i;
  *n_positional = 0;
  for (i = 0; i < argc; i++) {
    const char* arg = argv[i];
    if (!only_positional && strcmp(arg, "--") == 0) {
      only_positional = 1;
      continue;
    }
    if (!only_positional && arg[0] == '-' && arg[1] != '\0') {
      const struct Option* option;
      size_t n = strcspn(arg, "=");
      for (option = options; option->name != NULL; option++) {
        if (strlen(option->name) == n && strncmp(arg, option->name, n) == 0) break;
      }
      if (option->name == NULL) {
        snprintf(message, sizeof(message), "unknown option '%.*s'", (int)n, arg);
        return UsageError(command, usage, message);
      }
      if (!option->takes_value) {
        if (arg[n] == '=') {
          snprintf(message, sizeof(message), "%s takes no value", option->name);
          return UsageError(command, usage, message);
        }
        *option->flag = 1;
      } else if (arg[n] == '=') {
        *option->value = arg + n + 1;
      } else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
        *option->value = argv[++i];
      } else {
        snprintf(message, sizeof(message), "%s needs a value", option->name);
        return UsageError(command, usage, message);
      }
      continue;
    }
    if (*n_positional == max_positional) {
      snprintf(message, sizeof(message), "unexpected argument '%.200s'", arg);
      return UsageError(command, usage, message);
    }
    positional[(*n_positional)++] = arg;
  }
  return -1;
}

/* Matches "--name=value" or "--name value" at argv[*i] (the archery mode's own
 * parsing, which lets unknown --validate_* flags through); advances *i past a
 * separate value. */
static int OptionValue(int argc, char** argv, int* i, const char* name,
                       const char** value) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) != 0) return 0;
  if (argv[*i][n] == '=') {
    *value = argv[*i] + n + 1;
    return 1;
  }
  if (argv[*i][n] == '\0' && *i + 1 < argc) {
    *value = argv[++(*i)];
    return 1;
  }
  return 0;
}

/* ---- info ---- */

static int CommandInfo(int argc, char** argv) {
  const char* path;
  int n_paths;
  const char* format = NULL;
  const struct Option options[] = {{"--format", 1, &format, NULL}, {NULL, 0, NULL, NULL}};
  struct ArrowBuffer data;
  struct ArrowBuffer out;
  struct ArrowError error;
  int status;
  int rc;

  g_epipe_is_quiet = 1;
  if (WantsHelp(argc, argv)) return printf("%s", kInfoUsage) < 0;
  status = ParseArgs("info", kInfoUsage, argc, argv, options, &path, 1, &n_paths);
  if (status >= 0) return status;
  if (n_paths != 1) return UsageError("info", kInfoUsage, "expected one FILE");
  if (format != NULL && strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
    return UsageError("info", kInfoUsage, "--format must be text or json");
  }
  error.message[0] = '\0';
  if (ArrowTestingReadFile(path, CLI_MAX_INPUT_BYTES, &data, &error) != NANOARROW_OK) {
    return Fail("info", error.message);
  }
  ArrowBufferInit(&out);
  rc = CliInfo(&data, format != NULL && strcmp(format, "json") == 0, &out, &error);
  ArrowBufferReset(&data);
  status = rc == NANOARROW_OK ? EXIT_SUCCESS : Fail("info", error.message);
  if (rc == NANOARROW_OK) {
    rc = WriteAll(&out);
    if (rc != 0 && rc != EPIPE) status = FailWrite("info", rc);
  }
  ArrowBufferReset(&out);
  return status;
}

/* ---- schema ---- */

static int CommandSchema(int argc, char** argv) {
  static const struct Option options[] = {{NULL, 0, NULL, NULL}};
  const char* path;
  int n_paths;
  int status;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowBuffer out;
  struct ArrowError error;
  int rc;

  g_epipe_is_quiet = 1;
  if (WantsHelp(argc, argv)) return printf("%s", kSchemaUsage) < 0;
  status = ParseArgs("schema", kSchemaUsage, argc, argv, options, &path, 1, &n_paths);
  if (status >= 0) return status;
  if (n_paths != 1) return UsageError("schema", kSchemaUsage, "expected one FILE");
  error.message[0] = '\0';
  if (CliOpenInput(path, CLI_FORMAT_UNKNOWN, &stream, NULL, &error) != NANOARROW_OK) {
    return Fail("schema", error.message);
  }
  rc = stream.get_schema(&stream, &schema);
  if (rc != NANOARROW_OK) {
    status = Fail("schema", StreamError(&stream, rc));
    ArrowArrayStreamRelease(&stream);
    return status;
  }
  ArrowBufferInit(&out);
  rc = CliFormatSchema(&schema, &out);
  status = rc == NANOARROW_OK ? EXIT_SUCCESS : Fail("schema", strerror(rc));
  if (rc == NANOARROW_OK) {
    rc = WriteAll(&out);
    if (rc != 0 && rc != EPIPE) status = FailWrite("schema", rc);
  }
  ArrowBufferReset(&out);
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
  return status;
}

/* ---- cat ---- */

/* Stops a stream after limit rows (the last batch is shortened). */
struct LimitStream {
  struct ArrowArrayStream inner;
  int64_t remaining;
};

static int LimitGetSchema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct LimitStream* limit = (struct LimitStream*)stream->private_data;
  return limit->inner.get_schema(&limit->inner, out);
}

static int LimitGetNext(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct LimitStream* limit = (struct LimitStream*)stream->private_data;
  int rc;
  if (limit->remaining <= 0) {
    out->release = NULL;
    return NANOARROW_OK;
  }
  rc = limit->inner.get_next(&limit->inner, out);
  if (rc != NANOARROW_OK || out->release == NULL) return rc;
  if (out->length > limit->remaining) {
    /* A shorter struct is valid over longer children; its null count is unknown. */
    out->length = limit->remaining;
    out->null_count = -1;
  }
  limit->remaining -= out->length;
  return NANOARROW_OK;
}

static const char* LimitGetLastError(struct ArrowArrayStream* stream) {
  struct LimitStream* limit = (struct LimitStream*)stream->private_data;
  return limit->inner.get_last_error(&limit->inner);
}

static void LimitRelease(struct ArrowArrayStream* stream) {
  struct LimitStream* limit = (struct LimitStream*)stream->private_data;
  ArrowArrayStreamRelease(&limit->inner);
  free(limit);
  stream->release = NULL;
}

/* The integration JSON document, written as it is made (never whole in memory). */
static int CatJson(struct ArrowArrayStream* stream, int64_t limit) {
  struct ArrowArrayStream limited;
  struct LimitStream* private_data = (struct LimitStream*)malloc(sizeof(struct LimitStream));
  struct ArrowError error;
  int rc;
  if (private_data == NULL) {
    ArrowArrayStreamRelease(stream);
    return Fail("cat", "out of memory");
  }
  ArrowArrayStreamMove(stream, &private_data->inner);
  private_data->remaining = limit;
  limited.get_schema = &LimitGetSchema;
  limited.get_next = &LimitGetNext;
  limited.get_last_error = &LimitGetLastError;
  limited.release = &LimitRelease;
  limited.private_data = private_data;

  error.message[0] = '\0';
  errno = 0;
  rc = CliWriteStreamToFile(&limited, CLI_FORMAT_JSON, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                            NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                            stdout, NULL, NULL, &error);
  ArrowArrayStreamRelease(&limited);
  if (rc != NANOARROW_OK && ferror(stdout)) {
    g_stdout_errno = rc;
    return rc == EPIPE ? EXIT_SUCCESS : FailWrite("cat", rc);
  }
  if (rc != NANOARROW_OK && error.message[0] == '\0') {
    snprintf(error.message, sizeof(error.message), "%s", strerror(rc));
  }
  return rc == NANOARROW_OK ? EXIT_SUCCESS : Fail("cat", error.message);
}

/* 1234567 as "1,234,567". */
static void FormatCount(int64_t n, char* out, size_t size) {
  char digits[32];
  size_t n_digits;
  size_t i;
  size_t j = 0;
  snprintf(digits, sizeof(digits), "%" PRId64, n);
  n_digits = strlen(digits);
  for (i = 0; i < n_digits && j + 2 < size; i++) {
    if (i > 0 && (n_digits - i) % 3 == 0) out[j++] = ',';
    out[j++] = digits[i];
  }
  out[j] = '\0';
}

/* --threads N (1 to NANOARROW_IPC_MAX_THREADS) for the readers and writers the
 * command opens; -1 when it is given, else a usage error's status. */
static int SetThreads(const char* command, const char* usage, const char* text) {
  char* end;
  long n;
  if (text == NULL) return -1;
  errno = 0;
  n = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || n < 1 || n > NANOARROW_IPC_MAX_THREADS) {
    char message[96];
    snprintf(message, sizeof(message), "--threads must be an integer from 1 to %d",
             NANOARROW_IPC_MAX_THREADS);
    return UsageError(command, usage, message);
  }
  CliSetNumThreads((int)n);
  return -1;
}

/* Before cat waits for more input (from a pipe): the rows formatted so far go out,
 * so that each batch shows as soon as it has arrived. */
static int CatFlushWhileWaiting(void* private_data) {
  struct CliSink* sink = (struct CliSink*)private_data;
  if (CliSinkFlush(sink) != NANOARROW_OK) return sink->write_errno;
  errno = 0;
  if (fflush(stdout) != 0) sink->write_errno = errno != 0 ? errno : EIO;
  return sink->write_errno;
}

static int CommandCat(int argc, char** argv) {
  const char* positional[1];
  int n_positional;
  const char* format = NULL;
  const char* limit_text = NULL;
  const char* offset_text = NULL;
  const char* columns = NULL;
  const char* threads_text = NULL;
  int all = 0;
  const struct Option options[] = {{"--format", 1, &format, NULL},
                                   {"--limit", 1, &limit_text, NULL},
                                   {"--all", 0, NULL, &all},
                                   {"--offset", 1, &offset_text, NULL},
                                   {"--columns", 1, &columns, NULL},
                                   {"--threads", 1, &threads_text, NULL},
                                   {NULL, 0, NULL, NULL}};
  int64_t offset = 0;
  int is_csv;
  int terminal = isatty(STDOUT_FILENO);
  int preview;
  int is_table;
  int table_initialized = 0;
  int read_failed = 0;
  int64_t limit = INT64_MAX;
  int64_t n_written = 0;
  int64_t n_more = 0;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct CliSink sink;
  struct CliTable table;
  struct ArrowError error;
  int64_t n_batches = 0;
  int status;
  int rc;

  g_epipe_is_quiet = 1;
  if (WantsHelp(argc, argv)) return printf("%s", kCatUsage) < 0;
  status = ParseArgs("cat", kCatUsage, argc, argv, options, positional, 1, &n_positional);
  if (status >= 0) return status;
  if (n_positional != 1) return UsageError("cat", kCatUsage, "expected one FILE");
  status = SetThreads("cat", kCatUsage, threads_text);
  if (status >= 0) return status;
  if (format == NULL) format = terminal ? "table" : "jsonl";
  if (strcmp(format, "table") != 0 && strcmp(format, "jsonl") != 0 &&
      strcmp(format, "json") != 0 && strcmp(format, "csv") != 0) {
    return UsageError("cat", kCatUsage, "--format must be table, jsonl, csv or json");
  }
  if (offset_text != NULL) {
    char* end;
    errno = 0;
    offset = strtoll(offset_text, &end, 10);
    if (errno != 0 || *end != '\0' || end == offset_text || offset < 0) {
      return UsageError("cat", kCatUsage, "--offset must be a non-negative integer");
    }
  }
  if (columns != NULL && columns[0] == '\0') {
    return UsageError("cat", kCatUsage, "--columns needs at least one column name");
  }
  if (limit_text != NULL) {
    char* end;
    errno = 0;
    limit = strtoll(limit_text, &end, 10);
    if (errno != 0 || *end != '\0' || end == limit_text || limit < 0) {
      return UsageError("cat", kCatUsage, "--limit must be a non-negative integer");
    }
    if (all) return UsageError("cat", kCatUsage, "--limit and --all exclude each other");
  }
  /* A terminal gets a preview of tables and JSON lines (a JSON document is whole). */
  preview = terminal && !all && limit_text == NULL && strcmp(format, "json") != 0;
  if (preview) limit = CAT_PREVIEW_ROWS;
  is_table = strcmp(format, "table") == 0;
  is_csv = strcmp(format, "csv") == 0;

  error.message[0] = '\0';
  if (CliOpenSelect(positional[0], NULL, columns, &stream, NULL, &error) != NANOARROW_OK) {
    return Fail("cat", error.message);
  }
  if (offset > 0) {
    struct ArrowArrayStream selected;
    if (CliSelectStream(&stream, offset, NULL, &selected, &error) != NANOARROW_OK) {
      return Fail("cat", error.message);
    }
    ArrowArrayStreamMove(&selected, &stream);
  }
  if (strcmp(format, "json") == 0) return CatJson(&stream, limit);

  rc = stream.get_schema(&stream, &schema);
  if (rc != NANOARROW_OK) {
    status = Fail("cat", StreamError(&stream, rc));
    ArrowArrayStreamRelease(&stream);
    return status;
  }
  CliSinkInit(&sink, stdout, 0);
  CliSetInputWait(&CatFlushWhileWaiting, &sink);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_UNINITIALIZED);
  rc = ArrowArrayViewInitFromSchema(&view, &schema, &error);
  if (rc == NANOARROW_OK && is_table) {
    /* A preview's widths come from the rows it shows. */
    table_initialized = 1;
    rc = CliTableInit(&table, &schema, preview ? limit : CLI_TABLE_SAMPLE_ROWS);
    if (rc != NANOARROW_OK) snprintf(error.message, sizeof(error.message), "%s", strerror(rc));
  }
  if (rc == NANOARROW_OK && is_csv) rc = CliFormatCsvHeader(&schema, &sink);
  while (rc == NANOARROW_OK && (n_written < limit || preview)) {
    struct ArrowArray array;
    rc = stream.get_next(&stream, &array);
    if (rc != NANOARROW_OK) {
      snprintf(error.message, sizeof(error.message), "batch %" PRId64 ": %s", n_batches,
               StreamError(&stream, rc));
      read_failed = 1;
      break;
    }
    if (array.release == NULL) break;
    if (n_written < limit) {
      int64_t n_rows = array.length < limit - n_written ? array.length : limit - n_written;
      rc = ArrowArrayViewSetArray(&view, &array, &error);
      if (rc == NANOARROW_OK) {
        rc = is_table ? CliTableAppend(&table, &view, 0, n_rows, &sink)
             : is_csv ? CliFormatCsvRows(&schema, &view, 0, n_rows, &sink)
                      : CliFormatJsonLines(&schema, &view, 0, n_rows, &sink);
        if (rc != NANOARROW_OK && sink.write_errno == 0) {
          snprintf(error.message, sizeof(error.message), "batch %" PRId64 ": cannot format (%s)",
                   n_batches, strerror(rc));
        }
      }
      n_written += n_rows;
      n_more += array.length - n_rows;
    } else {
      /* A preview counts what it does not show. */
      n_more += array.length;
    }
    ArrowArrayRelease(&array);
    n_batches++;
  }
  if (rc == NANOARROW_OK && is_table) rc = CliTableFinish(&table, &sink);
  if (rc == NANOARROW_OK && preview && n_more > 0) {
    char count[48];
    char footer[128];
    FormatCount(n_more, count, sizeof(count));
    snprintf(footer, sizeof(footer), "... %s more row%s; --limit N or --all\n", count,
             n_more == 1 ? "" : "s");
    rc = ArrowBufferAppend(&sink.text, footer, (int64_t)strlen(footer));
  }
  if (rc == NANOARROW_OK) {
    rc = CliSinkFlush(&sink);
  } else if (read_failed) {
    /* The rows of every batch before the failing one go out, whatever the input's
     * timing: from a pipe, some were already written while cat waited for input. */
    if (is_table) (void)CliTableFinish(&table, &sink);
    (void)CliSinkFlush(&sink);
  }

  if (sink.write_errno != 0) {
    g_stdout_errno = sink.write_errno;
    status = sink.write_errno == EPIPE ? EXIT_SUCCESS : FailWrite("cat", sink.write_errno);
  } else if (rc != NANOARROW_OK) {
    if (error.message[0] == '\0') {
      snprintf(error.message, sizeof(error.message), "%s", strerror(rc));
    }
    status = Fail("cat", error.message);
  } else {
    status = EXIT_SUCCESS;
  }
  CliSetInputWait(NULL, NULL);
  if (table_initialized) CliTableReset(&table);
  CliSinkReset(&sink);
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
  return status;
}

/* ---- validate ---- */

static int CommandValidate(int argc, char** argv) {
  const char* path;
  int n_paths;
  int strict = 0;
  const char* columns = NULL;
  const char* threads_text = NULL;
  const struct Option options[] = {{"--strict", 0, NULL, &strict},
                                   {"--columns", 1, &columns, NULL},
                                   {"--threads", 1, &threads_text, NULL},
                                   {NULL, 0, NULL, NULL}};
  struct ArrowArrayStream stream;
  struct ArrowError error;
  int64_t n_batches;
  int64_t n_rows;
  enum CliFormat detected;
  int has_marker = 1;
  int status;
  int rc;

  if (WantsHelp(argc, argv)) return printf("%s", kValidateUsage) < 0;
  status = ParseArgs("validate", kValidateUsage, argc, argv, options, &path, 1, &n_paths);
  if (status >= 0) return status;
  if (n_paths != 1) return UsageError("validate", kValidateUsage, "expected one FILE");
  status = SetThreads("validate", kValidateUsage, threads_text);
  if (status >= 0) return status;
  if (columns != NULL && columns[0] == '\0') {
    return UsageError("validate", kValidateUsage, "--columns needs at least one column name");
  }
  error.message[0] = '\0';
  if (CliOpenSelect(path, NULL, columns, &stream, &detected, &error) != NANOARROW_OK) {
    return Fail("validate", error.message);
  }
  rc = CliValidateStream(&stream, &n_batches, &n_rows, &error);
  /* An IPC stream (from a file or a pipe) knows at its end whether its marker came. */
  has_marker = CliStreamEndMarker(&stream) != 0;
  ArrowArrayStreamRelease(&stream);
  if (rc != NANOARROW_OK) return Fail("validate", error.message);
  if (!has_marker) {
    snprintf(error.message, sizeof(error.message),
             "no end-of-stream marker after %" PRId64
             " batches (the stream may be truncated)",
             n_batches);
    if (strict) return Fail("validate", error.message);
  }
  printf("valid %s: %" PRId64 " batches, %" PRId64 " rows\n", CliFormatName(detected),
         n_batches, n_rows);
  if (!has_marker) fprintf(stderr, "nanoarrow validate: warning: %s\n", error.message);
  return EXIT_SUCCESS;
}

/* ---- convert ---- */

static void ShowProgress(void* private_data, int64_t n_batches, int64_t n_rows) {
  (void)private_data;
  fprintf(stderr, "\rnanoarrow convert: %" PRId64 " batches, %" PRId64 " rows", n_batches,
          n_rows);
}

static enum CliFormat FormatFromExtension(const char* path) {
  const char* dot = strrchr(path, '.');
  if (dot == NULL) return CLI_FORMAT_STREAM;
  if (strcmp(dot, ".arrow") == 0 || strcmp(dot, ".arrow_file") == 0 ||
      strcmp(dot, ".feather") == 0) {
    return CLI_FORMAT_FILE;
  }
  if (strcmp(dot, ".json") == 0) return CLI_FORMAT_JSON;
  return CLI_FORMAT_STREAM;
}

static int CommandConvert(int argc, char** argv) {
  const char* paths[2] = {NULL, NULL};
  int n_paths;
  const char* to_text = NULL;
  const char* compression_text = NULL;
  const char* level_text = NULL;
  const char* threads_text = NULL;
  const char* from_text = NULL;
  const char* schema_text = NULL;
  const char* columns = NULL;
  const struct Option options[] = {{"--to", 1, &to_text, NULL},
                                   {"--compression", 1, &compression_text, NULL},
                                   {"--level", 1, &level_text, NULL},
                                   {"--from", 1, &from_text, NULL},
                                   {"--schema", 1, &schema_text, NULL},
                                   {"--columns", 1, &columns, NULL},
                                   {"--threads", 1, &threads_text, NULL},
                                   {NULL, 0, NULL, NULL}};
  enum CliTextFormat from = (enum CliTextFormat)0;
  struct ArrowSchema text_schema;
  enum CliFormat to = CLI_FORMAT_UNKNOWN;
  enum ArrowIpcCompressionType compression = NANOARROW_IPC_COMPRESSION_TYPE_NONE;
  int compression_level = NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT;
  struct ArrowArrayStream stream;
  struct ArrowError error;
  int show_progress = isatty(STDERR_FILENO);
  int status;
  int rc;

  if (WantsHelp(argc, argv)) return printf("%s", kConvertUsage) < 0;
  status = ParseArgs("convert", kConvertUsage, argc, argv, options, paths, 2, &n_paths);
  if (status >= 0) return status;
  if (n_paths != 2) return UsageError("convert", kConvertUsage, "expected IN and OUT");
  status = SetThreads("convert", kConvertUsage, threads_text);
  if (status >= 0) return status;
  if (to_text != NULL) {
    to = CliFormatFromName(to_text);
    if (to == CLI_FORMAT_UNKNOWN) {
      return UsageError("convert", kConvertUsage, "--to must be stream, file or json");
    }
  }
  if (compression_text != NULL) {
    if (strcmp(compression_text, "lz4") == 0) {
      compression = NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME;
    } else if (strcmp(compression_text, "zstd") == 0) {
      compression = NANOARROW_IPC_COMPRESSION_TYPE_ZSTD;
    } else {
      return UsageError("convert", kConvertUsage, "--compression must be lz4 or zstd");
    }
  }
  if (level_text != NULL) {
    char* end;
    long level;
    errno = 0;
    level = strtol(level_text, &end, 10);
    if (end == level_text || *end != '\0' || errno != 0 || level < INT_MIN ||
        level > INT_MAX) {
      return UsageError("convert", kConvertUsage, "--level must be an integer");
    }
    if (compression == NANOARROW_IPC_COMPRESSION_TYPE_NONE) {
      return UsageError("convert", kConvertUsage, "--level needs --compression");
    }
    compression_level = (int)level;
  }
  if (to == CLI_FORMAT_UNKNOWN) {
    to = strcmp(paths[1], "-") == 0 ? CLI_FORMAT_STREAM : FormatFromExtension(paths[1]);
  }
  if (from_text != NULL) {
    if (strcmp(from_text, "csv") == 0) {
      from = CLI_TEXT_CSV;
    } else if (strcmp(from_text, "jsonl") == 0) {
      from = CLI_TEXT_JSONL;
    } else {
      return UsageError("convert", kConvertUsage, "--from must be csv or jsonl");
    }
  } else {
    from = CliTextFormatFromPath(paths[0]);
  }
  if (schema_text != NULL && from == 0) {
    return UsageError("convert", kConvertUsage,
                      "--schema is for CSV and JSON Lines input (.csv/.jsonl/.ndjson or --from)");
  }
  if (columns != NULL && (from != 0 || columns[0] == '\0')) {
    return UsageError("convert", kConvertUsage,
                      from != 0 ? "--columns is for Arrow input (IPC or integration JSON)"
                                : "--columns needs at least one column name");
  }

  error.message[0] = '\0';
  if (from != 0) {
    text_schema.release = NULL;
    if (schema_text != NULL && CliParseSchemaSpec(schema_text, &text_schema, &error) != NANOARROW_OK) {
      return UsageError("convert", kConvertUsage, error.message);
    }
    rc = CliOpenText(paths[0], from, schema_text != NULL ? &text_schema : NULL, &stream, &error);
    if (text_schema.release != NULL) ArrowSchemaRelease(&text_schema);
    if (rc != NANOARROW_OK) return Fail("convert", error.message);
  } else if (CliOpenSelect(paths[0], NULL, columns, &stream, NULL, &error) != NANOARROW_OK) {
    return Fail("convert", error.message);
  }
  if (strcmp(paths[1], "-") == 0) {
    /* Standard output cannot be taken back: it gets the output once it is whole. */
    struct ArrowBuffer out;
    ArrowBufferInit(&out);
    rc = CliWriteStream(&stream, to, compression, compression_level, &out, show_progress ? &ShowProgress : NULL,
                        NULL, &error);
    if (show_progress) fprintf(stderr, "\n");
    if (rc == NANOARROW_OK) rc = CliWriteFile("-", &out, &error);
    ArrowBufferReset(&out);
  } else {
    rc = CliWriteStreamToPath(&stream, to, compression, compression_level, paths[1],
                              show_progress ? &ShowProgress : NULL, NULL, &error);
    if (show_progress) fprintf(stderr, "\n");
  }
  ArrowArrayStreamRelease(&stream);
  return rc == NANOARROW_OK ? EXIT_SUCCESS : Fail("convert", error.message);
}

/* ---- archery ---- */

static int CommandIntegration(int argc, char** argv) {
  const char* arrow_path = NULL;
  const char* json_path = NULL;
  const char* mode = NULL;
  struct ArrowError error;
  int i;
  int rc;

  if (WantsHelp(argc, argv)) return printf("%s", kIntegrationUsage) < 0;
  for (i = 0; i < argc; i++) {
    const char* value;
    if (OptionValue(argc, argv, &i, "--arrow", &value)) {
      arrow_path = value;
    } else if (OptionValue(argc, argv, &i, "--json", &value)) {
      json_path = value;
    } else if (OptionValue(argc, argv, &i, "--mode", &value)) {
      mode = value;
    } else if (strcmp(argv[i], "--integration") == 0 ||
               strncmp(argv[i], "--validate_", 11) == 0 || strcmp(argv[i], "--verbose") == 0) {
      /* Flags archery passes to Arrow C++'s binary; nothing to do here. */
    } else {
      char message[256];
      snprintf(message, sizeof(message), "%s '%.200s'",
               argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
      return UsageError("integration", kIntegrationUsage, message);
    }
  }
  if (arrow_path == NULL || json_path == NULL || mode == NULL) {
    return UsageError("integration", kIntegrationUsage, "--arrow, --json and --mode are required");
  }

  error.message[0] = '\0';
  if (strcmp(mode, "ARROW_TO_JSON") == 0) {
    rc = CliIntegrationArrowToJson(arrow_path, json_path, &error);
  } else if (strcmp(mode, "JSON_TO_ARROW") == 0) {
    rc = CliIntegrationJsonToArrow(json_path, arrow_path, &error);
  } else if (strcmp(mode, "VALIDATE") == 0) {
    rc = CliIntegrationValidate(arrow_path, json_path, &error);
  } else {
    return UsageError("integration", kIntegrationUsage, "unknown --mode");
  }
  return rc == NANOARROW_OK ? EXIT_SUCCESS : Fail("integration", error.message);
}

static int CommandStreamToFile(int argc, char** argv) {
  struct ArrowError error;
  if (WantsHelp(argc, argv)) return printf("%s", kStreamToFileUsage) < 0;
  if (argc != 0) return UsageError("stream-to-file", kStreamToFileUsage, "no arguments");
  error.message[0] = '\0';
  if (CliIntegrationConvert("-", CLI_FORMAT_FILE, "-", &error) != NANOARROW_OK) {
    return Fail("stream-to-file", error.message);
  }
  return EXIT_SUCCESS;
}

static int CommandFileToStream(int argc, char** argv) {
  struct ArrowError error;
  if (WantsHelp(argc, argv)) return printf("%s", kFileToStreamUsage) < 0;
  if (argc > 1) return UsageError("file-to-stream", kFileToStreamUsage, "at most one FILE");
  error.message[0] = '\0';
  if (CliIntegrationConvert(argc == 1 ? argv[0] : "-", CLI_FORMAT_STREAM, "-", &error) !=
      NANOARROW_OK) {
    return Fail("file-to-stream", error.message);
  }
  return EXIT_SUCCESS;
}

static int Dispatch(const char* command, int argc, char** argv) {
  if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
      strcmp(command, "help") == 0) {
    return printf("%s", kUsage) < 0;
  }
  if (strcmp(command, "--version") == 0) {
    printf("nanoarrow %s\n", ArrowNanoarrowVersion());
    return EXIT_SUCCESS;
  }
  if (strcmp(command, "info") == 0) return CommandInfo(argc, argv);
  if (strcmp(command, "schema") == 0) return CommandSchema(argc, argv);
  if (strcmp(command, "cat") == 0) return CommandCat(argc, argv);
  if (strcmp(command, "validate") == 0) return CommandValidate(argc, argv);
  if (strcmp(command, "convert") == 0) return CommandConvert(argc, argv);
  if (strcmp(command, "integration") == 0) return CommandIntegration(argc, argv);
  if (strcmp(command, "stream-to-file") == 0) return CommandStreamToFile(argc, argv);
  if (strcmp(command, "file-to-stream") == 0) return CommandFileToStream(argc, argv);
  fprintf(stderr, "nanoarrow: unknown command '%s'\n%s", command, kUsage);
  return EXIT_USAGE;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "%s", kUsage);
    return EXIT_USAGE;
  }
  /* A closed pipe is a write error (EPIPE) each command decides about, not death
   * by signal. */
  signal(SIGPIPE, SIG_IGN);
  return FinishOutput(argv[1], Dispatch(argv[1], argc - 2, argv + 2));
}
