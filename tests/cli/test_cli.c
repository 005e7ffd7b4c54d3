/* The built `nanoarrow` tool, nanoarrow_ipc_integration and
 * libnanoarrow_c_data_integration, run as a user (or archery) would. */

#define _POSIX_C_SOURCE 200809L
/* wait4() and forkpty(). */
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_ipc_writer.h"

#define GOLDEN NANOARROW_TEST_DATA_DIR "/arrow-ipc-stream/integration/1.0.0-littleendian/"

#include "cli/cli_test_util.h"

TestSuite(cli, .init = MakeDir, .fini = RemoveDir, .timeout = 120);

Test(cli, schema_prints_nested_fields_indented) {
  char* out;
  cr_assert_eq(Run("'%s' schema '%s'", NANOARROW_CLI_PATH, GOLDEN "generated_nested.stream"),
               0);
  out = Slurp("out");
  cr_assert(strstr(out, "list_nullable: list\n  item: int32\n") != NULL, "%s", out);
  cr_assert(strstr(out, "struct_nullable: struct\n  f1: int32\n  f2: string\n") != NULL, "%s",
            out);
  free(out);
}

Test(cli, cat_table_is_aligned) {
  char* out;
  char* second_line;
  cr_assert_eq(Run("'%s' cat '%s' --format table --limit 3", NANOARROW_CLI_PATH,
                   GOLDEN "generated_primitive.arrow_file"),
               0);
  out = Slurp("out");
  /* Header, rule, 3 rows; the rule's "-+-" joints line up with the " | " bars. */
  cr_assert_eq(CountLines(out), 5, "%s", out);
  second_line = strchr(out, '\n') + 1;
  cr_assert(strncmp(out, "bool_nullable", 13) == 0, "%s", out);
  cr_assert_eq(strchr(out, '|') - out, strchr(second_line, '+') - second_line, "%s", out);
  free(out);
}

Test(cli, cat_jsonl_and_json) {
  char* out;
  cr_assert_eq(Run("'%s' cat '%s' --format jsonl --limit 4", NANOARROW_CLI_PATH,
                   GOLDEN "generated_dictionary.stream"),
               0);
  out = Slurp("out");
  cr_assert_eq(CountLines(out), 4, "%s", out);
  cr_assert(out[0] == '{' && strstr(out, "\"dict0\": ") != NULL, "%s", out);
  free(out);

  /* --format json is integration JSON, which validates against the original. */
  cr_assert_eq(Run("'%s' cat '%s' --format json > '%s/copy.json'", NANOARROW_CLI_PATH,
                   GOLDEN "generated_dictionary.stream", g_dir),
               0);
  cr_assert_eq(Run("'%s' integration --arrow='%s' --json='%s/copy.json' --mode=VALIDATE",
                   NANOARROW_CLI_PATH, GOLDEN "generated_dictionary.stream", g_dir),
               0);
}

Test(cli, validate_accepts_golden_files) {
  char* out;
  cr_assert_eq(Run("'%s' validate '%s'", NANOARROW_CLI_PATH, GOLDEN "generated_union.stream"),
               0);
  out = Slurp("out");
  cr_assert(strstr(out, "valid stream") != NULL, "%s", out);
  free(out);
  cr_assert_eq(
      Run("'%s' validate '%s'", NANOARROW_CLI_PATH, GOLDEN "generated_union.json.gz"), 0);
}

Test(cli, truncated_and_corrupt_inputs_exit_1) {
  const char* commands[] = {"cat", "validate", "convert"};
  size_t i;
  /* A stream cut in the middle of a record batch, and a file whose footer is gone. */
  cr_assert_eq(Run("head -c 2000 '%s' > '%s/cut.stream'", GOLDEN "generated_primitive.stream",
                   g_dir),
               0);
  cr_assert_eq(Run("head -c 3000 '%s' > '%s/cut.arrow_file'",
                   GOLDEN "generated_primitive.arrow_file", g_dir),
               0);
  cr_assert_eq(Run("printf '{\"schema\": {\"fields\": [' > '%s/cut.json'", g_dir), 0);
  /* `schema` reads only the schema: cut that one inside the Schema message. */
  cr_assert_eq(Run("head -c 300 '%s' > '%s/cut_schema.stream'",
                   GOLDEN "generated_primitive.stream", g_dir),
               0);
  cr_assert_eq(Run("'%s' schema '%s/cut_schema.stream'", NANOARROW_CLI_PATH, g_dir), 1);
  ExpectStderrLine("schema");
  for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
    const char* extra = strcmp(commands[i], "convert") == 0 ? " /dev/null" : "";
    cr_assert_eq(Run("'%s' %s '%s/cut.stream'%s", NANOARROW_CLI_PATH, commands[i], g_dir,
                     extra),
                 1, "%s on a truncated stream", commands[i]);
    ExpectStderrLine(commands[i]);
    cr_assert_eq(Run("'%s' %s '%s/cut.arrow_file'%s", NANOARROW_CLI_PATH, commands[i], g_dir,
                     extra),
                 1, "%s on a truncated file", commands[i]);
    ExpectStderrLine(commands[i]);
    cr_assert_eq(Run("'%s' %s '%s/cut.json'%s", NANOARROW_CLI_PATH, commands[i], g_dir, extra),
                 1, "%s on truncated JSON", commands[i]);
    ExpectStderrLine("invalid JSON");
  }
  cr_assert_eq(Run("'%s' cat '%s/missing.arrow'", NANOARROW_CLI_PATH, g_dir), 1);
  ExpectStderrLine("cannot open");
}

Test(cli, convert_round_trips_with_compression) {
  cr_assert_eq(Run("'%s' convert '%s' '%s/a.arrow' --compression zstd", NANOARROW_CLI_PATH,
                   GOLDEN "generated_nested.json.gz", g_dir),
               0);
  cr_assert_eq(Run("'%s' convert '%s/a.arrow' - --to stream --compression lz4 > '%s/b.stream'",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  cr_assert_eq(Run("'%s' convert - '%s/c.json' < '%s/b.stream'", NANOARROW_CLI_PATH, g_dir,
                   g_dir),
               0);
  cr_assert_eq(Run("'%s' integration --integration --arrow='%s/a.arrow' --json='%s' "
                   "--mode=VALIDATE --validate_decimals=false --validate_times=false",
                   NANOARROW_CLI_PATH, g_dir, GOLDEN "generated_nested.json.gz"),
               0);
  cr_assert_eq(Run("'%s' integration --arrow='%s/b.stream' --json='%s/c.json' --mode=VALIDATE",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  /* A different file does not validate. */
  cr_assert_eq(Run("'%s' integration --arrow='%s' --json='%s/c.json' --mode=VALIDATE",
                   NANOARROW_CLI_PATH, GOLDEN "generated_primitive.stream", g_dir),
               1);
  ExpectStderrLine("schema");
}

/* --level reaches the codec (zstd 19 writes a smaller stream than zstd 1 here),
 * and a level out of the codec's range or without --compression is refused. */
Test(cli, convert_compression_level) {
  char* small;
  char* large;
  struct stat st_1;
  struct stat st_19;
  char path[512];
  if (Run("'%s' convert '%s' '%s/l1.stream' --compression zstd --level 1",
          NANOARROW_CLI_PATH, GOLDEN "generated_decimal.stream", g_dir) != 0) {
    char* err = Slurp("err");
    int unsupported = strstr(err, "not supported by this build") != NULL;
    free(err);
    if (unsupported) cr_skip_test("built without NANOARROW_IPC_WITH_ZSTD");
    cr_assert_fail("convert --compression zstd --level 1 failed");
  }
  cr_assert_eq(Run("'%s' convert '%s' '%s/l19.stream' --compression=zstd --level=19",
                   NANOARROW_CLI_PATH, GOLDEN "generated_decimal.stream", g_dir),
               0);
  snprintf(path, sizeof(path), "%s/l1.stream", g_dir);
  cr_assert_eq(stat(path, &st_1), 0);
  snprintf(path, sizeof(path), "%s/l19.stream", g_dir);
  cr_assert_eq(stat(path, &st_19), 0);
  cr_assert_lt(st_19.st_size, st_1.st_size);
  /* Both hold the same data. */
  cr_assert_eq(Run("'%s' cat '%s/l1.stream' --format jsonl > '%s/l1.jsonl'",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  cr_assert_eq(Run("'%s' cat '%s/l19.stream' --format jsonl > '%s/l19.jsonl'",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  small = Slurp("l1.jsonl");
  large = Slurp("l19.jsonl");
  cr_assert_str_eq(small, large);
  free(small);
  free(large);

  cr_assert_eq(Run("'%s' convert '%s' '%s/x.stream' --compression zstd --level 99",
                   NANOARROW_CLI_PATH, GOLDEN "generated_primitive.stream", g_dir),
               1);
  ExpectStderrLine("Compression level 99 is out of range for zstd");
  cr_assert_eq(Run("'%s' convert '%s' '%s/x.stream' --level 3", NANOARROW_CLI_PATH,
                   GOLDEN "generated_primitive.stream", g_dir),
               2);
  cr_assert_eq(Run("'%s' convert '%s' '%s/x.stream' --compression lz4 --level 3x",
                   NANOARROW_CLI_PATH, GOLDEN "generated_primitive.stream", g_dir),
               2);
}

Test(cli, usage_errors_exit_2_and_help_exits_0) {
  const char* commands[] = {"schema", "cat", "validate", "convert", "integration",
                            "stream-to-file", "file-to-stream"};
  size_t i;
  cr_assert_eq(Run("'%s'", NANOARROW_CLI_PATH), 2);
  cr_assert_eq(Run("'%s' frobnicate", NANOARROW_CLI_PATH), 2);
  cr_assert_eq(Run("'%s' cat x --format xml", NANOARROW_CLI_PATH), 2);
  cr_assert_eq(Run("'%s' convert only_one", NANOARROW_CLI_PATH), 2);
  cr_assert_eq(Run("'%s' integration --mode=VALIDATE", NANOARROW_CLI_PATH), 2);
  for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
    char* out;
    cr_assert_eq(Run("'%s' %s --help", NANOARROW_CLI_PATH, commands[i]), 0);
    out = Slurp("out");
    cr_assert(strstr(out, "usage: nanoarrow") != NULL, "%s", out);
    free(out);
  }
}

Test(cli, archery_stream_file_conversions) {
  cr_assert_eq(Run("'%s' stream-to-file < '%s' > '%s/x.arrow_file'", NANOARROW_CLI_PATH,
                   GOLDEN "generated_map.stream", g_dir),
               0);
  cr_assert_eq(Run("'%s' file-to-stream '%s/x.arrow_file' > '%s/x.stream'", NANOARROW_CLI_PATH,
                   g_dir, g_dir),
               0);
  cr_assert_eq(Run("'%s' integration --arrow='%s/x.stream' --json='%s' --mode=VALIDATE",
                   NANOARROW_CLI_PATH, g_dir, GOLDEN "generated_map.json.gz"),
               0);
  /* ARROW_TO_JSON then JSON_TO_ARROW. */
  cr_assert_eq(Run("'%s' integration --arrow='%s/x.arrow_file' --json='%s/x.json' "
                   "--mode=ARROW_TO_JSON",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  cr_assert_eq(Run("'%s' integration --arrow='%s/y.arrow_file' --json='%s/x.json' "
                   "--mode=JSON_TO_ARROW",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  cr_assert_eq(Run("'%s' integration --arrow='%s/y.arrow_file' --json='%s' --mode=VALIDATE",
                   NANOARROW_CLI_PATH, g_dir, GOLDEN "generated_map.json.gz"),
               0);
}

Test(cli, ipc_integration_driver_environment) {
  const char* json = GOLDEN "generated_decimal.json.gz";
  cr_assert_eq(Run("COMMAND=JSON_TO_ARROW ARROW_PATH='%s/d.arrow_file' JSON_PATH='%s' '%s'",
                   g_dir, json, NANOARROW_IPC_INTEGRATION_PATH),
               0);
  cr_assert_eq(Run("COMMAND=VALIDATE ARROW_PATH='%s/d.arrow_file' JSON_PATH='%s' '%s'", g_dir,
                   json, NANOARROW_IPC_INTEGRATION_PATH),
               0);
  cr_assert_eq(Run("COMMAND=FILE_TO_STREAM ARROW_PATH='%s/d.arrow_file' '%s' > '%s/d.stream'",
                   g_dir, NANOARROW_IPC_INTEGRATION_PATH, g_dir),
               0);
  cr_assert_eq(Run("COMMAND=STREAM_TO_FILE ARROW_PATH='%s/e.arrow_file' '%s' < '%s/d.stream'",
                   g_dir, NANOARROW_IPC_INTEGRATION_PATH, g_dir),
               0);
  cr_assert_eq(Run("COMMAND=VALIDATE ARROW_PATH='%s/e.arrow_file' JSON_PATH='%s' '%s'", g_dir,
                   json, NANOARROW_IPC_INTEGRATION_PATH),
               0);
  cr_assert_eq(Run("COMMAND=VALIDATE ARROW_PATH='%s/e.arrow_file' JSON_PATH='%s' '%s'", g_dir,
                   GOLDEN "generated_map.json.gz", NANOARROW_IPC_INTEGRATION_PATH),
               1);
  ExpectStderrLine("VALIDATE");
  cr_assert_eq(Run("COMMAND=NOPE '%s'", NANOARROW_IPC_INTEGRATION_PATH), 2);
}

typedef const char* (*ExportSchemaFn)(const char*, struct ArrowSchema*);
typedef const char* (*ImportSchemaFn)(const char*, struct ArrowSchema*);
typedef const char* (*ExportBatchFn)(const char*, int, struct ArrowArray*);
typedef const char* (*ImportBatchFn)(const char*, int, struct ArrowArray*);
typedef int64_t (*BytesAllocatedFn)(void);

Test(cli, c_data_integration_library) {
  const char* json = GOLDEN "generated_nested.json.gz";
  const char* other = GOLDEN "generated_primitive.json.gz";
  void* library = dlopen(NANOARROW_C_DATA_INTEGRATION_PATH, RTLD_NOW | RTLD_LOCAL);
  ExportSchemaFn export_schema;
  ImportSchemaFn import_schema;
  ExportBatchFn export_batch;
  ImportBatchFn import_batch;
  BytesAllocatedFn bytes_allocated;
  struct ArrowSchema schema;
  struct ArrowArray array;
  const char* result;

  cr_assert_not_null(library, "%s", dlerror());
  *(void**)&export_schema = dlsym(library, "nanoarrow_CDataIntegration_ExportSchemaFromJson");
  *(void**)&import_schema =
      dlsym(library, "nanoarrow_CDataIntegration_ImportSchemaAndCompareToJson");
  *(void**)&export_batch = dlsym(library, "nanoarrow_CDataIntegration_ExportBatchFromJson");
  *(void**)&import_batch =
      dlsym(library, "nanoarrow_CDataIntegration_ImportBatchAndCompareToJson");
  *(void**)&bytes_allocated = dlsym(library, "nanoarrow_BytesAllocated");
  cr_assert(export_schema && import_schema && export_batch && import_batch && bytes_allocated);
  /* Only the entry points are exported. */
  cr_assert_null(dlsym(library, "ArrowSchemaInit"));

  cr_assert_eq(bytes_allocated(), 0);
  result = export_schema(json, &schema);
  cr_assert_null(result, "%s", result);
  cr_assert_gt(bytes_allocated(), 0);
  result = import_schema(json, &schema);
  cr_assert_null(result, "%s", result);
  cr_assert_null(schema.release);
  cr_assert_eq(bytes_allocated(), 0);

  result = export_batch(json, 1, &array);
  cr_assert_null(result, "%s", result);
  cr_assert_gt(bytes_allocated(), 0);
  result = import_batch(json, 1, &array);
  cr_assert_null(result, "%s", result);
  cr_assert_eq(bytes_allocated(), 0);

  /* Mismatches are reported, and what was imported is still released. */
  cr_assert_null(export_schema(json, &schema));
  result = import_schema(other, &schema);
  cr_assert_not_null(result);
  cr_assert(strstr(result, "schema differs") != NULL, "%s", result);
  cr_assert_null(export_batch(json, 0, &array));
  result = import_batch(json, 1, &array);
  cr_assert_not_null(result);
  cr_assert(strstr(result, "row") != NULL, "%s", result);
  cr_assert_eq(bytes_allocated(), 0);
  result = export_batch(json, 999, &array);
  cr_assert_not_null(result);
  cr_assert(strstr(result, "no batch 999") != NULL, "%s", result);
  dlclose(library);
}

/* ---- Output that is whole, or an error ---- */

/* Writes an IPC stream of one batch of n_rows rows to g_dir/name: one column "n"
 * of type null (kind 'n'), or one struct column "s" with a null child (kind 's').
 * Neither has buffers, so a few hundred bytes declare any number of rows. Without
 * end_marker, the stream stops after the batch. */
static void WriteLongStream(const char* name, char kind, int64_t n_rows, int end_marker) {
  char path[512];
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowError error;
  FILE* file;

  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 1), 0);
  if (kind == 'l') {
    /* One row: a list of n_rows nulls. */
    cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_LIST), 0);
    cr_assert_eq(ArrowSchemaSetName(schema.children[0], "l"), 0);
    cr_assert_eq(ArrowSchemaSetType(schema.children[0]->children[0], NANOARROW_TYPE_NA), 0);
    cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), 0, "%s", error.message);
    cr_assert_eq(ArrowArrayStartAppending(&array), 0);
    cr_assert_eq(ArrowArrayAppendNull(array.children[0]->children[0], n_rows), 0);
    cr_assert_eq(ArrowArrayFinishElement(array.children[0]), 0);
    cr_assert_eq(ArrowArrayFinishElement(&array), 0);
    cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), 0, "%s", error.message);
  } else if (kind == 'n') {
    cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_NA), 0);
    cr_assert_eq(ArrowSchemaSetName(schema.children[0], "n"), 0);
  } else {
    cr_assert_eq(ArrowSchemaSetTypeStruct(schema.children[0], 1), 0);
    cr_assert_eq(ArrowSchemaSetName(schema.children[0], "s"), 0);
    cr_assert_eq(ArrowSchemaSetType(schema.children[0]->children[0], NANOARROW_TYPE_NA), 0);
    cr_assert_eq(ArrowSchemaSetName(schema.children[0]->children[0], "n"), 0);
  }
  if (kind != 'l') {
    cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), 0, "%s", error.message);
    cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), 0, "%s", error.message);
    array.length = n_rows;
    array.children[0]->length = n_rows;
    if (kind == 's') array.children[0]->children[0]->length = n_rows;
  }
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), 0, "%s", error.message);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), 0, "%s", error.message);

  file = fopen(path, "wb");
  cr_assert_not_null(file);
  cr_assert_eq(ArrowIpcOutputStreamInitFile(&output, file, 1), 0);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &output), 0);
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), 0, "%s", error.message);
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), 0, "%s", error.message);
  if (end_marker) {
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), 0, "%s", error.message);
  }
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
}

/* Writes an IPC stream to g_dir/name with columns "name" (string) and "id"
 * (int32): one batch per element of batches, each a '|'-separated list of names
 * (ids count from 0); end_marker as above. */
static void WriteNamesStream(const char* name, const char** batches, int n_batches,
                             int end_marker) {
  char path[512];
  struct ArrowSchema schema;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowError error;
  int32_t id = 0;
  FILE* file;
  int b;

  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 2), 0);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_STRING), 0);
  cr_assert_eq(ArrowSchemaSetName(schema.children[0], "name"), 0);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_INT32), 0);
  cr_assert_eq(ArrowSchemaSetName(schema.children[1], "id"), 0);
  file = fopen(path, "wb");
  cr_assert_not_null(file);
  cr_assert_eq(ArrowIpcOutputStreamInitFile(&output, file, 1), 0);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &output), 0);
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), 0, "%s", error.message);
  for (b = 0; b < n_batches; b++) {
    struct ArrowArray array;
    struct ArrowArrayView view;
    const char* item = batches[b];
    cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), 0);
    cr_assert_eq(ArrowArrayStartAppending(&array), 0);
    while (item != NULL) {
      const char* bar = strchr(item, '|');
      struct ArrowStringView value;
      value.data = item;
      value.size_bytes = bar != NULL ? bar - item : (int64_t)strlen(item);
      cr_assert_eq(ArrowArrayAppendString(array.children[0], value), 0);
      cr_assert_eq(ArrowArrayAppendInt(array.children[1], id++), 0);
      cr_assert_eq(ArrowArrayFinishElement(&array), 0);
      item = bar != NULL ? bar + 1 : NULL;
    }
    cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), 0, "%s", error.message);
    cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), 0);
    cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), 0, "%s", error.message);
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), 0, "%s", error.message);
    ArrowArrayViewReset(&view);
    ArrowArrayRelease(&array);
  }
  if (end_marker) {
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), 0, "%s", error.message);
  }
  ArrowIpcWriterReset(&writer);
  ArrowSchemaRelease(&schema);
}

/* Runs the CLI with args (NULL-terminated) in a child whose stdout is the file
 * stdout_path (or the descriptor stdout_fd when >= 0) and whose stderr is
 * g_dir/err. Returns the wait status; *max_rss_kb (may be NULL) receives the
 * child's peak resident memory (wait4's ru_maxrss, in KiB). Linux keeps that peak
 * across exec, so it is at least what the forked test process held before exec
 * (about the CLI's own footprint here, 16 MiB under ASan): an upper bound on the
 * CLI's, which is why growth between two row counts is checked as well. */
/* When > 0, Spawn's child may write files of at most this many bytes (a larger
 * write fails with EFBIG, as on a full disk). */
static long g_max_file_bytes = 0;

static int Spawn(const char* const* args, const char* stdout_path, int stdout_fd,
                 long* max_rss_kb) {
  char err_path[512];
  const char* argv[32];
  struct rusage usage;
  int status;
  int n = 0;
  pid_t pid;

  argv[n++] = NANOARROW_CLI_PATH;
  while (args[n - 1] != NULL && n < 31) {
    argv[n] = args[n - 1];
    n++;
  }
  argv[n] = NULL;
  snprintf(err_path, sizeof(err_path), "%s/err", g_dir);
  fflush(NULL);
  pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    int out = stdout_fd >= 0 ? stdout_fd : open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) _exit(126);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    if (g_max_file_bytes > 0) {
      struct rlimit limit;
      limit.rlim_cur = (rlim_t)g_max_file_bytes;
      limit.rlim_max = (rlim_t)g_max_file_bytes;
      signal(SIGXFSZ, SIG_IGN);
      if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(125);
    }
    execv(argv[0], (char* const*)argv);
    _exit(127);
  }
  cr_assert_eq(wait4(pid, &status, 0, &usage), pid);
  if (max_rss_kb != NULL) *max_rss_kb = usage.ru_maxrss;
  return status;
}

static double Now(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return (double)now.tv_sec + (double)now.tv_usec / 1e6;
}

/* The bound on `cat`'s memory, whatever the number of rows: the tool's own
 * footprint (an ASan build's included) plus a few chunks of text. */
#define CAT_MAX_RSS_KB (96 * 1024)
/* How much more a run may hold for 20x the rows. A cat that formats a whole batch
 * first holds 12 bytes (JSON lines) to 25 bytes (table) per row more: 11-24 MiB. */
#define CAT_MAX_GROWTH_KB (4 * 1024)

Test(cli, cat_memory_does_not_grow_with_rows) {
  const char* formats[] = {"jsonl", "table", "json"};
  char path_small[512];
  char path_large[512];
  size_t f;
  WriteLongStream("n_50k.stream", 'n', 50000, 1);
  WriteLongStream("n_1m.stream", 'n', 1000000, 1);
  WriteLongStream("s_50k.stream", 's', 50000, 1);
  WriteLongStream("s_1m.stream", 's', 1000000, 1);
  for (f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
    /* JSON of a null column is only a count: the struct's validity is what grows. */
    char kind = strcmp(formats[f], "json") == 0 ? 's' : 'n';
    const char* args[5] = {"cat", path_small, "--format", formats[f], NULL};
    long small_kb;
    long large_kb;
    double start;
    int status;
    snprintf(path_small, sizeof(path_small), "%s/%c_50k.stream", g_dir, kind);
    snprintf(path_large, sizeof(path_large), "%s/%c_1m.stream", g_dir, kind);
    status = Spawn(args, "/dev/null", -1, &small_kb);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", formats[f]);
    args[1] = path_large;
    start = Now();
    status = Spawn(args, "/dev/null", -1, &large_kb);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", formats[f]);
    cr_log_info("cat --format %s: 50,000 rows %ld KiB, 1,000,000 rows %ld KiB (%.2f s)",
                formats[f], small_kb, large_kb, Now() - start);
    cr_assert_lt(large_kb, CAT_MAX_RSS_KB, "%s: %ld KiB", formats[f], large_kb);
    cr_assert_lt(large_kb - small_kb, CAT_MAX_GROWTH_KB, "%s: %ld KiB then %ld KiB",
                 formats[f], small_kb, large_kb);
  }
}

Test(cli, one_long_value_is_written_in_chunks_too) {
  /* One row holding a list of 50,000 then 2,000,000 nulls (6 bytes of text each;
   * a value formatted whole first holds 11 MiB more): JSON lines flush inside
   * the value, a table cell stops formatting past its width. */
  const char* formats[] = {"jsonl", "table"};
  char path[512];
  size_t f;
  WriteLongStream("l_50k.stream", 'l', 50000, 1);
  WriteLongStream("l_2m.stream", 'l', 2000000, 1);
  for (f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
    const char* args[5] = {"cat", path, "--format", formats[f], NULL};
    long small_kb;
    long large_kb;
    int status;
    snprintf(path, sizeof(path), "%s/l_50k.stream", g_dir);
    status = Spawn(args, "/dev/null", -1, &small_kb);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", formats[f]);
    snprintf(path, sizeof(path), "%s/l_2m.stream", g_dir);
    status = Spawn(args, "/dev/null", -1, &large_kb);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", formats[f]);
    cr_log_info("cat --format %s, one list: 50,000 nulls %ld KiB, 2,000,000 nulls %ld KiB",
                formats[f], small_kb, large_kb);
    cr_assert_lt(large_kb - small_kb, CAT_MAX_GROWTH_KB, "%s: %ld KiB then %ld KiB",
                 formats[f], small_kb, large_kb);
  }
  cr_assert_eq(Run("'%s' cat '%s/l_2m.stream' --format table", NANOARROW_CLI_PATH, g_dir), 0);
  {
    char* out = Slurp("out");
    cr_assert_str_eq(out,
                     "l\n----------------------------------------\n"
                     "[null, null, null, null, null, null, nu\xE2\x80\xA6\n",
                     "%s", out);
    free(out);
  }
}

Test(cli, cat_of_2_31_rows_stays_small) {
  /* The 264-byte stream that declares 2^31 - 1 null rows, and a struct of as many
   * rows: --limit bounds the time, not the memory, which the reader and the
   * formatting bound whatever the batch's length. */
  const char* formats[] = {"jsonl", "table", "json"};
  char path[512];
  size_t f;
  WriteLongStream("n_max.stream", 'n', INT32_MAX, 1);
  WriteLongStream("s_max.stream", 's', INT32_MAX, 1);
  for (f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
    const char* args[7] = {"cat", path, "--format", formats[f], "--limit", "200000", NULL};
    long rss_kb;
    int status;
    snprintf(path, sizeof(path), "%s/%s", g_dir,
             strcmp(formats[f], "json") == 0 ? "s_max.stream" : "n_max.stream");
    status = Spawn(args, "/dev/null", -1, &rss_kb);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", formats[f]);
    cr_assert_lt(rss_kb, CAT_MAX_RSS_KB, "%s: %ld KiB", formats[f], rss_kb);
  }
  /* --limit shortens the JSON document's batch too. */
  cr_assert_eq(Run("'%s' cat '%s/s_max.stream' --format json --limit 3 > '%s/s3.json'",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  {
    char* out = Slurp("s3.json");
    cr_assert(strstr(out, "\"count\": 3") != NULL, "%.300s", out);
    cr_assert(strstr(out, "\"VALIDITY\": [1, 1, 1]") != NULL, "%.300s", out);
    free(out);
  }
}

Test(cli, cat_on_a_terminal_shows_20_rows_and_a_footer) {
  static char out[1 << 16];
  char path[512];
  const char* names[] = {"a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t|u|v|w|x|y"};
  const char* args[4] = {"cat", path, NULL, NULL};
  long rss_kb;

  /* A machine without pseudo-terminals (a bare container) cannot run this. */
  {
    int master;
    int slave;
    if (openpty(&master, &slave, NULL, NULL, NULL) != 0) {
      cr_skip_test("no pseudo-terminal: %s", strerror(errno));
    }
    close(master);
    close(slave);
  }

  /* 2^31 - 1 rows: 20 shown, the rest counted without being formatted. */
  WriteLongStream("n_max.stream", 'n', INT32_MAX, 1);
  snprintf(path, sizeof(path), "%s/n_max.stream", g_dir);
  cr_assert_eq(RunOnTerminal(args, out, sizeof(out), &rss_kb), 0, "%s", out);
  cr_assert_eq(CountLines(out), 2 + 20 + 1, "%s", out);
  cr_assert(strncmp(out, "n\n----\nnull\n", 12) == 0, "%s", out);
  cr_assert(strstr(out, "\n... 2,147,483,627 more rows; --limit N or --all\n") != NULL, "%s",
            out);
  cr_assert_lt(rss_kb, CAT_MAX_RSS_KB, "%ld KiB", rss_kb);

  /* 25 rows: 20 and a footer; --all and --limit show what they say, no footer. */
  WriteNamesStream("names.stream", names, 1, 1);
  snprintf(path, sizeof(path), "%s/names.stream", g_dir);
  cr_assert_eq(RunOnTerminal(args, out, sizeof(out), NULL), 0, "%s", out);
  cr_assert_eq(CountLines(out), 2 + 20 + 1, "%s", out);
  cr_assert(strstr(out, "\n... 5 more rows; --limit N or --all\n") != NULL, "%s", out);
  args[2] = "--all";
  cr_assert_eq(RunOnTerminal(args, out, sizeof(out), NULL), 0, "%s", out);
  cr_assert_eq(CountLines(out), 2 + 25, "%s", out);
  cr_assert(strstr(out, "more row") == NULL, "%s", out);
  args[2] = "--limit=3";
  cr_assert_eq(RunOnTerminal(args, out, sizeof(out), NULL), 0, "%s", out);
  cr_assert_eq(CountLines(out), 2 + 3, "%s", out);
  cr_assert(strstr(out, "more row") == NULL, "%s", out);
  /* JSON lines get the preview too; one more row is "row". */
  {
    const char* jsonl[] = {"cat", path, "--format", "jsonl", NULL};
    const char* names21[] = {"a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t|u"};
    WriteNamesStream("names.stream", names21, 1, 1);
    cr_assert_eq(RunOnTerminal(jsonl, out, sizeof(out), NULL), 0, "%s", out);
    cr_assert_eq(CountLines(out), 21, "%s", out);
    cr_assert(strstr(out, "\n... 1 more row; --limit N or --all\n") != NULL, "%s", out);
  }

  /* Piped: every row, no footer. */
  WriteNamesStream("names.stream", names, 1, 1);
  cr_assert_eq(Run("'%s' cat '%s' | cat", NANOARROW_CLI_PATH, path), 0);
  {
    char* piped = Slurp("out");
    cr_assert_eq(CountLines(piped), 25, "%s", piped);
    cr_assert(strstr(piped, "more row") == NULL, "%s", piped);
    free(piped);
  }
}

/* Code points before the first '|' of line (up to its end). */
static int BarColumn(const char* line) {
  int width = 0;
  for (; *line != '\0' && *line != '\n' && *line != '|'; line++) {
    if (((unsigned char)*line & 0xC0) != 0x80) width++;
  }
  return *line == '|' ? width : -1;
}

Test(cli, table_keeps_one_width_across_batches) {
  static char sample_rows[150 * 2 + 1];
  const char* widening[] = {"x|y|z", "wider|w"};
  const char* beyond[2];
  char* out;
  char* line;
  int bar;
  int i;

  /* Batches of different widths inside the look-ahead: one width, no cut. */
  WriteNamesStream("widening.stream", widening, 2, 1);
  cr_assert_eq(Run("'%s' cat '%s/widening.stream' --format table", NANOARROW_CLI_PATH, g_dir),
               0);
  out = Slurp("out");
  cr_assert_eq(CountLines(out), 2 + 5, "%s", out);
  bar = BarColumn(out);
  cr_assert_eq(bar, 6, "%s", out);
  for (line = out; *line != '\0'; line = strchr(line, '\n') + 1) {
    if (line != out && strncmp(line, "-----", 5) == 0) continue;
    cr_assert_eq(BarColumn(line), bar, "%s", out);
  }
  cr_assert(strstr(out, "\nwider | 3\n") != NULL, "%s", out);
  free(out);

  /* A wider value after the look-ahead (100 rows) is cut to the column's width,
   * its last character replaced by an ellipsis. */
  for (i = 0; i < 150; i++) memcpy(sample_rows + 2 * i, i == 149 ? "x" : "x|", 2);
  sample_rows[2 * 149 + 1] = '\0';
  beyond[0] = sample_rows;
  beyond[1] = "much wider than the rest|ok";
  WriteNamesStream("beyond.stream", beyond, 2, 1);
  cr_assert_eq(Run("'%s' cat '%s/beyond.stream' --format table", NANOARROW_CLI_PATH, g_dir),
               0);
  out = Slurp("out");
  cr_assert_eq(CountLines(out), 2 + 152, "%s", out);
  for (line = strchr(out, '\n') + 1; *line != '\0'; line = strchr(line, '\n') + 1) {
    if (strncmp(line, "----", 4) == 0) continue;
    cr_assert_eq(BarColumn(line), 5, "%.200s", line);
  }
  cr_assert(strstr(out, "\nmuc\xE2\x80\xA6 | 1\xE2\x80\xA6\nok   | 1\xE2\x80\xA6\n") != NULL,
            "%s",
            strstr(out, "\nmuc") != NULL ? strstr(out, "\nmuc") : out);
  free(out);

  /* No value is wider than 40 characters. */
  {
    const char* long_value[] = {
        "0123456789012345678901234567890123456789012345678901234567890123456789"};
    WriteNamesStream("long.stream", long_value, 1, 1);
    cr_assert_eq(Run("'%s' cat '%s/long.stream' --format table", NANOARROW_CLI_PATH, g_dir),
                 0);
    out = Slurp("out");
    cr_assert(strstr(out, "\n012345678901234567890123456789012345678\xE2\x80\xA6 | 0\n") !=
                  NULL,
              "%s", out);
    free(out);
  }
}

Test(cli, write_errors_fail_with_the_reason) {
  const char* golden = GOLDEN "generated_primitive.stream";
  const char* commands[] = {"cat %s --format json", "cat %s --format jsonl",
                            "cat %s --format table", "schema %s", "validate %s",
                            "convert %s -", "cat --help"};
  size_t i;
  for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
    char command[512];
    char line[1024];
    snprintf(command, sizeof(command), commands[i], golden);
    snprintf(line, sizeof(line), "'%s' %s > /dev/full", NANOARROW_CLI_PATH, command);
    cr_assert_eq(Run("%s", line), 1, "%s", command);
    ExpectStderrLine("cannot write to standard output: No space left on device");
  }
}

/* Runs the CLI with args writing into a pipe whose reading end is already closed:
 * returns the wait status (stderr in g_dir/err). */
static int SpawnIntoClosedPipe(const char* const* args) {
  int fds[2];
  int status;
  cr_assert_eq(pipe(fds), 0);
  close(fds[0]);
  status = Spawn(args, NULL, fds[1], NULL);
  close(fds[1]);
  return status;
}

Test(cli, closed_pipe_ends_cat_and_schema_quietly_and_fails_convert) {
  char path[512];
  const char* cat_args[] = {"cat", path, NULL};
  const char* json_args[] = {"cat", path, "--format", "json", NULL};
  const char* schema_args[] = {"schema", path, NULL};
  const char* convert_args[] = {"convert", path, "-", NULL};
  const char* const* quiet[] = {cat_args, json_args, schema_args};
  char* err;
  size_t i;
  int status;

  WriteLongStream("n_1m.stream", 'n', 1000000, 1);
  snprintf(path, sizeof(path), "%s/n_1m.stream", g_dir);
  for (i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++) {
    status = SpawnIntoClosedPipe(quiet[i]);
    cr_assert(!WIFSIGNALED(status), "%s killed by signal %d", quiet[i][0], WTERMSIG(status));
    cr_assert_eq(WEXITSTATUS(status), 0, "%s %s", quiet[i][0], quiet[i][2]);
    err = Slurp("err");
    cr_assert_str_empty(err, "%s", err);
    free(err);
  }
  status = SpawnIntoClosedPipe(convert_args);
  cr_assert(!WIFSIGNALED(status), "convert killed by signal %d", WTERMSIG(status));
  cr_assert_eq(WEXITSTATUS(status), 1);
  ExpectStderrLine("cannot write to standard output: Broken pipe");

  /* As `head` users see it: cat stops early and exits 0. */
  cr_assert_eq(Run("sh -c '\"%s\" cat \"%s\"; echo $? > \"%s/status\"' | head -n 2",
                   NANOARROW_CLI_PATH, path, g_dir),
               0);
  err = Slurp("status");
  cr_assert_str_eq(err, "0\n");
  free(err);
}

/* Names in g_dir other than the given ones (a leftover temporary file). */
static int CountOtherFiles(const char* const* expected, int n_expected) {
  DIR* dir = opendir(g_dir);
  struct dirent* entry;
  int n = 0;
  cr_assert_not_null(dir);
  while ((entry = readdir(dir)) != NULL) {
    int k;
    int known = strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0 ||
                strcmp(entry->d_name, "out") == 0 || strcmp(entry->d_name, "err") == 0;
    for (k = 0; k < n_expected; k++) known |= strcmp(entry->d_name, expected[k]) == 0;
    if (!known) {
      cr_log_error("unexpected file %s", entry->d_name);
      n++;
    }
  }
  closedir(dir);
  return n;
}

Test(cli, failed_convert_leaves_no_partial_output) {
  const char* names[] = {"a|b|c", "d|e|f", "g|h|i"};
  const char* files[] = {"names.stream", "bad.stream", "keep.arrow", "good.arrow"};
  char path[512];
  char* kept;
  struct stat info;
  long size;
  /* A stream whose last batch is cut: the first two convert, then it fails. */
  WriteNamesStream("names.stream", names, 3, 1);
  snprintf(path, sizeof(path), "%s/names.stream", g_dir);
  cr_assert_eq(stat(path, &info), 0);
  size = (long)info.st_size;
  cr_assert_eq(Run("head -c %ld '%s/names.stream' > '%s/bad.stream'", size - 20, g_dir, g_dir),
               0);

  /* A new target is not created; an existing one keeps its contents. */
  cr_assert_eq(Run("'%s' convert '%s/bad.stream' '%s/new.arrow'", NANOARROW_CLI_PATH, g_dir,
                   g_dir),
               1);
  ExpectStderrLine("batch 2");
  snprintf(path, sizeof(path), "%s/new.arrow", g_dir);
  cr_assert_neq(access(path, F_OK), 0);
  cr_assert_eq(Run("printf 'old contents' > '%s/keep.arrow'", g_dir), 0);
  cr_assert_eq(Run("'%s' convert '%s/bad.stream' '%s/keep.arrow' --to json",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               1);
  kept = Slurp("keep.arrow");
  cr_assert_str_eq(kept, "old contents");
  free(kept);
  cr_assert_eq(CountOtherFiles(files, 3), 0);

  /* Success replaces the target whole, and leaves nothing else behind. */
  cr_assert_eq(Run("'%s' convert '%s/names.stream' '%s/keep.arrow'", NANOARROW_CLI_PATH, g_dir,
                   g_dir),
               0);
  cr_assert_eq(Run("'%s' convert '%s/names.stream' '%s/good.arrow'", NANOARROW_CLI_PATH, g_dir,
                   g_dir),
               0);
  cr_assert_eq(Run("cmp '%s/keep.arrow' '%s/good.arrow'", g_dir, g_dir), 0);
  cr_assert_eq(Run("'%s' validate '%s/good.arrow'", NANOARROW_CLI_PATH, g_dir), 0);
  cr_assert_eq(CountOtherFiles(files, 4), 0);
  /* A write that fails half-way (a full disk, here a file size limit) leaves the
   * target as it was. */
  {
    char in_path[512];
    char out_path[512];
    const char* args[] = {"convert", in_path, out_path, NULL};
    int status;
    snprintf(in_path, sizeof(in_path), "%s", GOLDEN "generated_primitive.json.gz");
    snprintf(out_path, sizeof(out_path), "%s/keep.arrow", g_dir);
    cr_assert_eq(Run("printf 'old contents' > '%s/keep.arrow'", g_dir), 0);
    g_max_file_bytes = 2000;
    status = Spawn(args, "/dev/null", -1, NULL);
    g_max_file_bytes = 0;
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    ExpectStderrLine("File too large");
    kept = Slurp("keep.arrow");
    cr_assert_str_eq(kept, "old contents");
    free(kept);
    cr_assert_eq(CountOtherFiles(files, 4), 0);
  }
  /* A target that is not a regular file is written in place. */
  cr_assert_eq(Run("'%s' convert '%s/names.stream' /dev/null", NANOARROW_CLI_PATH, g_dir), 0);
}

Test(cli, validate_reports_a_missing_end_of_stream_marker) {
  const char* names[] = {"a|b", "c"};
  char* out;
  WriteNamesStream("cut.stream", names, 2, 0);
  WriteNamesStream("whole.stream", names, 2, 1);

  cr_assert_eq(Run("'%s' validate '%s/cut.stream'", NANOARROW_CLI_PATH, g_dir), 0);
  out = Slurp("out");
  cr_assert_str_eq(out, "valid stream: 2 batches, 3 rows\n");
  free(out);
  ExpectStderrLine("warning: no end-of-stream marker after 2 batches (the stream may be "
                   "truncated)");
  cr_assert_eq(Run("'%s' validate '%s/cut.stream' --strict", NANOARROW_CLI_PATH, g_dir), 1);
  ExpectStderrLine("nanoarrow validate: no end-of-stream marker after 2 batches");
  /* Read all the same by the other commands. */
  cr_assert_eq(Run("'%s' cat '%s/cut.stream' --format jsonl", NANOARROW_CLI_PATH, g_dir), 0);
  out = Slurp("out");
  cr_assert_eq(CountLines(out), 3, "%s", out);
  free(out);

  cr_assert_eq(Run("'%s' validate '%s/whole.stream' --strict", NANOARROW_CLI_PATH, g_dir), 0);
  out = Slurp("err");
  cr_assert_str_empty(out, "%s", out);
  free(out);
  cr_assert_eq(Run("'%s' validate --strict '%s'", NANOARROW_CLI_PATH,
                   GOLDEN "generated_primitive.stream"),
               0);
  /* Files and JSON have no such marker to miss. */
  cr_assert_eq(Run("'%s' validate --strict '%s'", NANOARROW_CLI_PATH,
                   GOLDEN "generated_primitive.arrow_file"),
               0);
  cr_assert_eq(Run("'%s' validate --strict '%s'", NANOARROW_CLI_PATH,
                   GOLDEN "generated_primitive.json.gz"),
               0);
}

Test(cli, option_errors_name_the_option) {
  const char* path = GOLDEN "generated_primitive.stream";
  cr_assert_eq(Run("'%s' cat '%s' --bogus", NANOARROW_CLI_PATH, path), 2);
  ExpectUsageError("nanoarrow cat: unknown option '--bogus'");
  cr_assert_eq(Run("'%s' cat '%s' --bogus=1", NANOARROW_CLI_PATH, path), 2);
  ExpectUsageError("nanoarrow cat: unknown option '--bogus'");
  cr_assert_eq(Run("'%s' cat '%s' --limit", NANOARROW_CLI_PATH, path), 2);
  ExpectUsageError("nanoarrow cat: --limit needs a value");
  cr_assert_eq(Run("'%s' cat '%s' --limit --all", NANOARROW_CLI_PATH, path), 2);
  ExpectUsageError("nanoarrow cat: --limit needs a value");
  cr_assert_eq(Run("'%s' cat '%s' --limit x", NANOARROW_CLI_PATH, path), 2);
  ExpectUsageError("--limit must be a non-negative integer");
  cr_assert_eq(Run("'%s' cat '%s' '%s'", NANOARROW_CLI_PATH, path, path), 2);
  ExpectUsageError("unexpected argument");
  cr_assert_eq(Run("'%s' validate '%s' --strict=yes", NANOARROW_CLI_PATH, path), 2);
  ExpectUsageError("nanoarrow validate: --strict takes no value");
  cr_assert_eq(Run("'%s' convert '%s' x.arrow --compression", NANOARROW_CLI_PATH, path), 2);
  ExpectUsageError("nanoarrow convert: --compression needs a value");
  cr_assert_eq(Run("'%s' schema '%s' -x", NANOARROW_CLI_PATH, path), 2);
  ExpectUsageError("nanoarrow schema: unknown option '-x'");
  cr_assert_eq(Run("'%s' integration --arrow=a --json=b --mode=VALIDATE --nope",
                   NANOARROW_CLI_PATH),
               2);
  ExpectUsageError("nanoarrow integration: unknown option '--nope'");
}

Test(cli, input_that_is_not_arrow_says_so) {
  const char* commands[] = {"cat", "schema", "validate", "convert"};
  size_t i;
  /* Not .csv: convert reads CSV by its extension (or --from). */
  cr_assert_eq(Run("printf 'null,hello\\n1,2\\n' > '%s/table.txt'", g_dir), 0);
  cr_assert_eq(Run(": > '%s/empty'", g_dir), 0);
  for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
    const char* extra = strcmp(commands[i], "convert") == 0 ? " /dev/null" : "";
    cr_assert_eq(Run("'%s' %s '%s/table.txt'%s", NANOARROW_CLI_PATH, commands[i], g_dir, extra),
                 1, "%s", commands[i]);
    ExpectStderrLine("not an Arrow IPC stream or file, nor integration JSON");
    cr_assert_eq(Run("'%s' %s '%s/empty'%s", NANOARROW_CLI_PATH, commands[i], g_dir, extra), 1,
                 "%s", commands[i]);
    ExpectStderrLine("empty input (not an Arrow IPC stream or file, nor integration JSON)");
  }
}
