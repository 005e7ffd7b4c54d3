/* The `nanoarrow` command-line tool: schema, cat, validate, convert, and the modes
 * Arrow's integration harness (archery) drives. Errors are one line on stderr with
 * exit status 1; usage errors exit with 2. */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_testing.h"

#include "cli/cli.h"
#include "cli/cli_format.h"

#define EXIT_USAGE 2

static const char* kUsage =
    "usage: nanoarrow COMMAND [ARGS]\n"
    "\n"
    "Commands:\n"
    "  schema FILE                 print the schema, one field per line\n"
    "  cat FILE [--format table|jsonl|json] [--limit N]\n"
    "                              print the data (table on a terminal, else jsonl)\n"
    "  validate FILE               validate every batch fully (exit 1 when invalid)\n"
    "  convert IN OUT [--to stream|file|json] [--compression lz4|zstd]\n"
    "                              convert between IPC stream, IPC file and JSON\n"
    "  integration --arrow=PATH --json=PATH --mode=ARROW_TO_JSON|JSON_TO_ARROW|VALIDATE\n"
    "                              Arrow integration harness (archery) mode\n"
    "  stream-to-file              IPC stream on stdin to IPC file on stdout\n"
    "  file-to-stream [FILE]       IPC file (FILE or stdin) to IPC stream on stdout\n"
    "\n"
    "FILE may be an IPC stream, an IPC file or integration JSON (optionally gzipped);\n"
    "'-' is standard input/output. `nanoarrow COMMAND --help` describes a command.\n";

static const char* kSchemaUsage =
    "usage: nanoarrow schema FILE\n"
    "Prints each field as 'name: type' (' not null' when not nullable), nested\n"
    "fields indented, then the schema's metadata.\n";
static const char* kCatUsage =
    "usage: nanoarrow cat FILE [--format table|jsonl|json] [--limit N]\n"
    "Prints the rows: an aligned table (default on a terminal), JSON lines (default\n"
    "otherwise) or an Arrow integration JSON document. --limit prints at most N rows.\n";
static const char* kValidateUsage =
    "usage: nanoarrow validate FILE\n"
    "Reads and fully validates every batch. Exit 0 when valid; otherwise exit 1 with\n"
    "one line saying what is wrong and where.\n";
static const char* kConvertUsage =
    "usage: nanoarrow convert IN OUT [--to stream|file|json] [--compression lz4|zstd]\n"
    "Converts between IPC stream, IPC file and integration JSON. The output format\n"
    "defaults from OUT's extension (.arrow/.arrow_file/.feather: file, .json: json,\n"
    "otherwise stream). --compression compresses IPC bodies (and aligns their buffers\n"
    "to 64 bytes, as Arrow C++ and arrow-rs do).\n";
static const char* kIntegrationUsage =
    "usage: nanoarrow integration --arrow=PATH --json=PATH --mode=MODE\n"
    "MODE is ARROW_TO_JSON, JSON_TO_ARROW (writes an IPC file) or VALIDATE (exit 1\n"
    "when the Arrow file and the JSON differ). --integration and --validate_*=...\n"
    "flags are accepted and ignored, as archery passes them.\n";
static const char* kStreamToFileUsage =
    "usage: nanoarrow stream-to-file < IN.stream > OUT.arrow_file\n";
static const char* kFileToStreamUsage =
    "usage: nanoarrow file-to-stream [IN.arrow_file] > OUT.stream\n";

/* ---- Messages ---- */

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

static int UsageError(const char* command, const char* usage, const char* message) {
  fprintf(stderr, "nanoarrow %s: %s\n%s", command, message, usage);
  return EXIT_USAGE;
}

static int WantsHelp(int argc, char** argv) {
  int i;
  for (i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
  }
  return 0;
}

/* Matches "--name=value" or "--name value" at argv[*i]; advances *i past a
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

static int WriteAll(const struct ArrowBuffer* buffer) {
  if (buffer->size_bytes == 0) return 1;
  return fwrite(buffer->data, 1, (size_t)buffer->size_bytes, stdout) ==
         (size_t)buffer->size_bytes;
}

static const char* StreamError(struct ArrowArrayStream* stream, int rc) {
  const char* message = stream->get_last_error(stream);
  return message != NULL && message[0] != '\0' ? message : strerror(rc);
}

/* ---- schema ---- */

static int CommandSchema(int argc, char** argv) {
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowBuffer out;
  struct ArrowError error;
  int rc;

  if (WantsHelp(argc, argv)) return printf("%s", kSchemaUsage) < 0;
  if (argc != 1) return UsageError("schema", kSchemaUsage, "expected one FILE");
  error.message[0] = '\0';
  if (CliOpenInput(argv[0], CLI_FORMAT_UNKNOWN, &stream, NULL, &error) != NANOARROW_OK) {
    return Fail("schema", error.message);
  }
  rc = stream.get_schema(&stream, &schema);
  if (rc != NANOARROW_OK) {
    int status = Fail("schema", StreamError(&stream, rc));
    ArrowArrayStreamRelease(&stream);
    return status;
  }
  ArrowBufferInit(&out);
  rc = CliFormatSchema(&schema, &out);
  if (rc == NANOARROW_OK && !WriteAll(&out)) rc = EIO;
  ArrowBufferReset(&out);
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
  return rc == NANOARROW_OK ? EXIT_SUCCESS : Fail("schema", strerror(rc));
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

static int CatJson(struct ArrowArrayStream* stream, int64_t limit) {
  struct ArrowArrayStream limited;
  struct LimitStream* private_data = (struct LimitStream*)malloc(sizeof(struct LimitStream));
  struct ArrowBuffer out;
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

  ArrowBufferInit(&out);
  error.message[0] = '\0';
  rc = ArrowTestingJsonWriteStream(&limited, &out, &error);
  ArrowArrayStreamRelease(&limited);
  if (rc == NANOARROW_OK && !WriteAll(&out)) {
    snprintf(error.message, sizeof(error.message), "cannot write to standard output");
    rc = EIO;
  }
  ArrowBufferReset(&out);
  return rc == NANOARROW_OK ? EXIT_SUCCESS : Fail("cat", error.message);
}

static int CommandCat(int argc, char** argv) {
  const char* path = NULL;
  const char* format = isatty(STDOUT_FILENO) ? "table" : "jsonl";
  int64_t limit = INT64_MAX;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowArrayView view;
  struct ArrowBuffer out;
  struct ArrowError error;
  int64_t n_batches = 0;
  int i;
  int rc;

  if (WantsHelp(argc, argv)) return printf("%s", kCatUsage) < 0;
  for (i = 0; i < argc; i++) {
    const char* value;
    if (OptionValue(argc, argv, &i, "--format", &value)) {
      if (strcmp(value, "table") != 0 && strcmp(value, "jsonl") != 0 &&
          strcmp(value, "json") != 0) {
        return UsageError("cat", kCatUsage, "--format must be table, jsonl or json");
      }
      format = value;
    } else if (OptionValue(argc, argv, &i, "--limit", &value)) {
      char* end;
      errno = 0;
      limit = strtoll(value, &end, 10);
      if (errno != 0 || *end != '\0' || end == value || limit < 0) {
        return UsageError("cat", kCatUsage, "--limit must be a non-negative integer");
      }
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return UsageError("cat", kCatUsage, "unknown option");
    } else if (path == NULL) {
      path = argv[i];
    } else {
      return UsageError("cat", kCatUsage, "expected one FILE");
    }
  }
  if (path == NULL) return UsageError("cat", kCatUsage, "expected one FILE");

  error.message[0] = '\0';
  if (CliOpenInput(path, CLI_FORMAT_UNKNOWN, &stream, NULL, &error) != NANOARROW_OK) {
    return Fail("cat", error.message);
  }
  if (strcmp(format, "json") == 0) return CatJson(&stream, limit);

  rc = stream.get_schema(&stream, &schema);
  if (rc != NANOARROW_OK) {
    int status = Fail("cat", StreamError(&stream, rc));
    ArrowArrayStreamRelease(&stream);
    return status;
  }
  ArrowBufferInit(&out);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_UNINITIALIZED);
  rc = ArrowArrayViewInitFromSchema(&view, &schema, &error);
  while (rc == NANOARROW_OK && limit > 0) {
    struct ArrowArray array;
    int64_t n_rows;
    rc = stream.get_next(&stream, &array);
    if (rc != NANOARROW_OK) {
      snprintf(error.message, sizeof(error.message), "batch %" PRId64 ": %s", n_batches,
               StreamError(&stream, rc));
      break;
    }
    if (array.release == NULL) break;
    rc = ArrowArrayViewSetArray(&view, &array, &error);
    n_rows = array.length < limit ? array.length : limit;
    out.size_bytes = 0;
    if (rc == NANOARROW_OK) {
      rc = strcmp(format, "table") == 0
               ? CliFormatTable(&schema, &view, n_rows, n_batches == 0, &out)
               : CliFormatJsonLines(&schema, &view, n_rows, &out);
      if (rc != NANOARROW_OK) {
        snprintf(error.message, sizeof(error.message), "batch %" PRId64 ": cannot format (%s)",
                 n_batches, strerror(rc));
      }
    }
    if (rc == NANOARROW_OK && !WriteAll(&out)) {
      snprintf(error.message, sizeof(error.message), "cannot write to standard output");
      rc = EIO;
    }
    limit -= n_rows;
    ArrowArrayRelease(&array);
    n_batches++;
  }
  if (rc == NANOARROW_OK && n_batches == 0 && strcmp(format, "table") == 0) {
    /* No batch: still show the columns. */
    view.length = 0;
    out.size_bytes = 0;
    rc = CliFormatTable(&schema, &view, 0, 1, &out);
    if (rc == NANOARROW_OK && !WriteAll(&out)) rc = EIO;
    if (rc != NANOARROW_OK) snprintf(error.message, sizeof(error.message), "%s", strerror(rc));
  }
  ArrowArrayViewReset(&view);
  ArrowBufferReset(&out);
  ArrowSchemaRelease(&schema);
  ArrowArrayStreamRelease(&stream);
  if (fflush(stdout) != 0 && rc == NANOARROW_OK) {
    snprintf(error.message, sizeof(error.message), "cannot write to standard output");
    rc = EIO;
  }
  return rc == NANOARROW_OK ? EXIT_SUCCESS : Fail("cat", error.message);
}

/* ---- validate ---- */

static int CommandValidate(int argc, char** argv) {
  struct ArrowArrayStream stream;
  struct ArrowError error;
  int64_t n_batches;
  int64_t n_rows;
  enum CliFormat detected;
  int rc;

  if (WantsHelp(argc, argv)) return printf("%s", kValidateUsage) < 0;
  if (argc != 1) return UsageError("validate", kValidateUsage, "expected one FILE");
  error.message[0] = '\0';
  if (CliOpenInput(argv[0], CLI_FORMAT_UNKNOWN, &stream, &detected, &error) != NANOARROW_OK) {
    return Fail("validate", error.message);
  }
  rc = CliValidateStream(&stream, &n_batches, &n_rows, &error);
  ArrowArrayStreamRelease(&stream);
  if (rc != NANOARROW_OK) return Fail("validate", error.message);
  printf("valid %s: %" PRId64 " batches, %" PRId64 " rows\n", CliFormatName(detected),
         n_batches, n_rows);
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
  int n_paths = 0;
  enum CliFormat to = CLI_FORMAT_UNKNOWN;
  enum ArrowIpcCompressionType compression = NANOARROW_IPC_COMPRESSION_TYPE_NONE;
  struct ArrowArrayStream stream;
  struct ArrowBuffer out;
  struct ArrowError error;
  int show_progress = isatty(STDERR_FILENO);
  int i;
  int rc;

  if (WantsHelp(argc, argv)) return printf("%s", kConvertUsage) < 0;
  for (i = 0; i < argc; i++) {
    const char* value;
    if (OptionValue(argc, argv, &i, "--to", &value)) {
      to = CliFormatFromName(value);
      if (to == CLI_FORMAT_UNKNOWN) {
        return UsageError("convert", kConvertUsage, "--to must be stream, file or json");
      }
    } else if (OptionValue(argc, argv, &i, "--compression", &value)) {
      if (strcmp(value, "lz4") == 0) {
        compression = NANOARROW_IPC_COMPRESSION_TYPE_LZ4_FRAME;
      } else if (strcmp(value, "zstd") == 0) {
        compression = NANOARROW_IPC_COMPRESSION_TYPE_ZSTD;
      } else {
        return UsageError("convert", kConvertUsage, "--compression must be lz4 or zstd");
      }
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return UsageError("convert", kConvertUsage, "unknown option");
    } else if (n_paths < 2) {
      paths[n_paths++] = argv[i];
    } else {
      return UsageError("convert", kConvertUsage, "expected IN and OUT");
    }
  }
  if (n_paths != 2) return UsageError("convert", kConvertUsage, "expected IN and OUT");
  if (to == CLI_FORMAT_UNKNOWN) {
    to = strcmp(paths[1], "-") == 0 ? CLI_FORMAT_STREAM : FormatFromExtension(paths[1]);
  }

  error.message[0] = '\0';
  if (CliOpenInput(paths[0], CLI_FORMAT_UNKNOWN, &stream, NULL, &error) != NANOARROW_OK) {
    return Fail("convert", error.message);
  }
  ArrowBufferInit(&out);
  rc = CliWriteStream(&stream, to, compression, &out, show_progress ? &ShowProgress : NULL,
                      NULL, &error);
  if (show_progress) fprintf(stderr, "\n");
  ArrowArrayStreamRelease(&stream);
  if (rc == NANOARROW_OK) rc = CliWriteFile(paths[1], &out, &error);
  ArrowBufferReset(&out);
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
      return UsageError("integration", kIntegrationUsage, "unknown argument");
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

int main(int argc, char** argv) {
  const char* command;
  if (argc < 2) {
    fprintf(stderr, "%s", kUsage);
    return EXIT_USAGE;
  }
  command = argv[1];
  argc -= 2;
  argv += 2;
  if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
      strcmp(command, "help") == 0) {
    return printf("%s", kUsage) < 0;
  }
  if (strcmp(command, "--version") == 0) {
    printf("nanoarrow %s\n", ArrowNanoarrowVersion());
    return EXIT_SUCCESS;
  }
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
