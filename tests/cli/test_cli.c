/* The built `nanoarrow` tool, nanoarrow_ipc_integration and
 * libnanoarrow_c_data_integration, run as a user (or archery) would. */

#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

#define GOLDEN NANOARROW_TEST_DATA_DIR "/arrow-ipc-stream/integration/1.0.0-littleendian/"

static char g_dir[256];

static void MakeDir(void) {
  snprintf(g_dir, sizeof(g_dir), "/tmp/nanoarrow_cli_test_XXXXXX");
  cr_assert_not_null(mkdtemp(g_dir));
}

static void RemoveDir(void) {
  char command[512];
  snprintf(command, sizeof(command), "rm -rf '%s'", g_dir);
  cr_assert_eq(system(command), 0);
}

TestSuite(cli, .init = MakeDir, .fini = RemoveDir, .timeout = 120);

/* Runs a shell command line; stdout and stderr go to files in g_dir. */
static int Run(const char* format, ...) {
  char args[2048];
  char command[4096];
  va_list ap;
  int status;
  va_start(ap, format);
  vsnprintf(args, sizeof(args), format, ap);
  va_end(ap);
  snprintf(command, sizeof(command), "(%s) > '%s/out' 2> '%s/err'", args, g_dir, g_dir);
  status = system(command);
  cr_assert(WIFEXITED(status), "%s did not exit", command);
  return WEXITSTATUS(status);
}

/* Contents of g_dir/name (malloc'ed, null-terminated). */
static char* Slurp(const char* name) {
  char path[512];
  FILE* file;
  char* data;
  long size;
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  file = fopen(path, "rb");
  cr_assert_not_null(file, "cannot open %s", path);
  fseek(file, 0, SEEK_END);
  size = ftell(file);
  fseek(file, 0, SEEK_SET);
  data = (char*)malloc((size_t)size + 1);
  cr_assert_eq(fread(data, 1, (size_t)size, file), (size_t)size);
  data[size] = '\0';
  fclose(file);
  return data;
}

static int CountLines(const char* text) {
  int n = 0;
  for (; *text != '\0'; text++) n += *text == '\n';
  return n;
}

static void ExpectStderrLine(const char* needle) {
  char* err = Slurp("err");
  cr_assert_eq(CountLines(err), 1, "stderr is not one line: %s", err);
  cr_assert(strstr(err, needle) != NULL, "'%s' not in stderr: %s", needle, err);
  free(err);
}

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
