/* `nanoarrow info`, and `nanoarrow schema` on dictionaries, metadata and extension
 * types, on inputs the tests build. */

#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "cli/cli_test_arrow.h"
#include "cli/cli_test_util.h"

TestSuite(cli_info, .init = MakeDir, .fini = RemoveDir, .timeout = 120);

/* A stream of one dictionary(int32)<string> column "d" and one int64 column "n":
 * batch 0 has dictionary [a, b], batch 1 [a, b, c] (written as a delta); schema
 * metadata origin = test; column "n" has field metadata unit = m and is the
 * extension type "my.ext". */
static void WriteDictionaryStream(const char* path, int end_marker) {
  struct ArrowSchema schema;
  struct ArrowArray batches[2];
  struct ArrowBuffer metadata;
  struct ArrowError error;
  int b;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 2), 0);
  SetField(&schema, 0, "d", NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowSchemaAllocateDictionary(schema.children[0]), 0);
  cr_assert_eq(ArrowSchemaInitFromType(schema.children[0]->dictionary, NANOARROW_TYPE_STRING), 0);
  SetField(&schema, 1, "n", NANOARROW_TYPE_INT64);
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), 0);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("origin"), ArrowCharView("test")), 0);
  cr_assert_eq(ArrowSchemaSetMetadata(&schema, (const char*)metadata.data), 0);
  ArrowBufferReset(&metadata);
  cr_assert_eq(ArrowMetadataBuilderInit(&metadata, NULL), 0);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("ARROW:extension:name"),
                                          ArrowCharView("my.ext")), 0);
  cr_assert_eq(ArrowMetadataBuilderAppend(&metadata, ArrowCharView("unit"), ArrowCharView("m")), 0);
  cr_assert_eq(ArrowSchemaSetMetadata(schema.children[1], (const char*)metadata.data), 0);
  ArrowBufferReset(&metadata);

  for (b = 0; b < 2; b++) {
    struct ArrowArray* batch = &batches[b];
    cr_assert_eq(ArrowArrayInitFromSchema(batch, &schema, &error), 0, "%s", error.message);
    cr_assert_eq(ArrowArrayStartAppending(batch), 0);
    AppendString(batch->children[0]->dictionary, "a");
    AppendString(batch->children[0]->dictionary, "b");
    if (b == 1) AppendString(batch->children[0]->dictionary, "c");
    cr_assert_eq(ArrowArrayAppendInt(batch->children[0], b == 0 ? 0 : 2), 0);
    cr_assert_eq(ArrowArrayAppendInt(batch->children[1], 10 * b), 0);
    cr_assert_eq(ArrowArrayFinishElement(batch), 0);
    cr_assert_eq(ArrowArrayAppendInt(batch->children[0], 1), 0);
    cr_assert_eq(ArrowArrayAppendNull(batch->children[1], 1), 0);
    cr_assert_eq(ArrowArrayFinishElement(batch), 0);
    FinishBatch(batch);
  }
  WriteStream(path, &schema, batches, 2, end_marker);
  for (b = 0; b < 2; b++) ArrowArrayRelease(&batches[b]);
  ArrowSchemaRelease(&schema);
}

/* 1000 rows of one repetitive column, as CSV. */
static void WriteRepetitiveCsv(const char* name) {
  char path[512];
  FILE* file;
  int i;
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  file = fopen(path, "w");
  cr_assert_not_null(file);
  fprintf(file, "word,n\n");
  for (i = 0; i < 1000; i++) fprintf(file, "repeated,%d\n", i % 7);
  fclose(file);
}

static json_t* LoadJsonOut(void) {
  char* out = Slurp("out");
  json_error_t json_error;
  json_t* root = json_loads(out, 0, &json_error);
  cr_assert_not_null(root, "not JSON (%s): %s", json_error.text, out);
  cr_assert(json_is_object(root), "%s", out);
  free(out);
  return root;
}

static json_int_t IntAt(json_t* object, const char* key) {
  json_t* value = json_object_get(object, key);
  cr_assert(json_is_integer(value), "'%s' is not an integer", key);
  return json_integer_value(value);
}

Test(cli_info, text_summary_of_plain_and_compressed_streams) {
  char* out;
  WriteRepetitiveCsv("words.csv");
  cr_assert_eq(Run("cd '%s' && '%s' convert words.csv plain.arrows", g_dir, NANOARROW_CLI_PATH), 0);
  cr_assert_eq(Run("'%s' info '%s/plain.arrows'", NANOARROW_CLI_PATH, g_dir), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "format: stream (") != NULL, "%s", out);
  cr_assert(strstr(out, "end-of-stream marker: yes\n") != NULL, "%s", out);
  cr_assert(strstr(out, "batches: 1\nrows: 1000\n") != NULL, "%s", out);
  cr_assert(strstr(out, "compression: none\n") != NULL, "%s", out);
  /* int64 without nulls: 8000 bytes stored and decoded. */
  cr_assert(strstr(out, "8000         8000   1.00\n") != NULL, "%s", out);
  cr_assert(strstr(out, "dictionaries: 0\n") != NULL, "%s", out);
  free(out);

  if (Run("cd '%s' && '%s' convert words.csv zstd.arrow --compression zstd", g_dir,
          NANOARROW_CLI_PATH) != 0) {
    cr_skip_test("built without zstd");
  }
  cr_assert_eq(Run("'%s' info '%s/zstd.arrow' --format json", NANOARROW_CLI_PATH, g_dir), 0);
  {
    json_t* root = LoadJsonOut();
    json_t* columns = json_object_get(root, "columns");
    json_t* word;
    cr_assert_str_eq(json_string_value(json_object_get(root, "format")), "file");
    cr_assert_str_eq(json_string_value(json_object_get(root, "compression")), "zstd");
    cr_assert_eq(IntAt(root, "rows"), 1000);
    cr_assert_eq(IntAt(root, "batches"), 1);
    cr_assert(json_is_true(json_object_get(root, "end_of_stream_marker")));
    cr_assert_eq(IntAt(json_object_get(root, "footer"), "record_batches"), 1);
    cr_assert_eq(json_array_size(columns), 2);
    word = json_array_get(columns, 0);
    cr_assert_str_eq(json_string_value(json_object_get(word, "name")), "word");
    cr_assert_str_eq(json_string_value(json_object_get(word, "type")), "string");
    /* 1000 x "repeated": 8000 data bytes and 4004 offset bytes decoded, far fewer
     * stored (measured: 2032). */
    cr_assert_eq(IntAt(word, "decoded_bytes"), 8000 + 4004);
    cr_assert_lt(IntAt(word, "stored_bytes"), (8000 + 4004) / 4);
    cr_assert_gt(json_real_value(json_object_get(word, "ratio")), 4.0);
    /* 1000 int64 values of 0..6: 8000 bytes decoded, under 100 stored. */
    cr_assert_eq(IntAt(json_array_get(columns, 1), "decoded_bytes"), 8000);
    cr_assert_lt(IntAt(json_array_get(columns, 1), "stored_bytes"), 100);
    json_decref(root);
  }
}

Test(cli_info, dictionaries_metadata_and_a_missing_marker) {
  char path[512];
  char* out;
  snprintf(path, sizeof(path), "%s/dict.arrows", g_dir);
  WriteDictionaryStream(path, 0);
  cr_assert_eq(Run("'%s' info '%s'", NANOARROW_CLI_PATH, path), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "end-of-stream marker: no (the stream may be truncated)\n") != NULL,
            "%s", out);
  cr_assert(strstr(out, "batches: 2\nrows: 4\n") != NULL, "%s", out);
  cr_assert(strstr(out, "dictionary(int32)<string>") != NULL, "%s", out);
  cr_assert(strstr(out, "dictionaries: 1\n  id 0: 2 batches (1 deltas), 3 values, ") != NULL,
            "%s", out);
  cr_assert(strstr(out, "metadata:\n  origin = test\n") != NULL, "%s", out);
  free(out);

  cr_assert_eq(Run("'%s' info '%s' --format=json", NANOARROW_CLI_PATH, path), 0);
  {
    json_t* root = LoadJsonOut();
    json_t* dictionary = json_array_get(json_object_get(root, "dictionaries"), 0);
    cr_assert(json_is_false(json_object_get(root, "end_of_stream_marker")));
    cr_assert(json_is_null(json_object_get(root, "footer")));
    cr_assert_eq(IntAt(dictionary, "id"), 0);
    cr_assert_eq(IntAt(dictionary, "batches"), 2);
    cr_assert_eq(IntAt(dictionary, "deltas"), 1);
    cr_assert_eq(IntAt(dictionary, "values"), 3);
    cr_assert_str_eq(
        json_string_value(json_object_get(json_object_get(root, "metadata"), "origin")), "test");
    json_decref(root);
  }

  /* With the marker. */
  WriteDictionaryStream(path, 1);
  cr_assert_eq(Run("'%s' info '%s'", NANOARROW_CLI_PATH, path), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "end-of-stream marker: yes\n") != NULL, "%s", out);
  free(out);
}

Test(cli_info, errors_and_usage) {
  cr_assert_eq(Run("printf 'a,b\\n1,2\\n' > '%s/x.csv' && '%s' info '%s/x.csv'", g_dir,
                   NANOARROW_CLI_PATH, g_dir),
               1);
  ExpectStderrLine("nanoarrow info: not an Arrow IPC stream or file");
  cr_assert_eq(Run("'%s' info '%s/x.csv' --format xml", NANOARROW_CLI_PATH, g_dir), 2);
  ExpectUsageError("--format must be text or json");
  cr_assert_eq(Run("'%s' info", NANOARROW_CLI_PATH), 2);
  ExpectUsageError("expected one FILE");
  cr_assert_eq(Run("'%s' info --help", NANOARROW_CLI_PATH), 0);
  {
    char* out = Slurp("out");
    cr_assert(strstr(out, "end_of_stream_marker") != NULL, "%s", out);
    free(out);
  }
  /* A cut stream: the message that runs past the end is named. */
  {
    char path[512];
    snprintf(path, sizeof(path), "%s/dict.arrows", g_dir);
    WriteDictionaryStream(path, 1);
    cr_assert_eq(Run("head -c 300 '%s' > '%s/cut.arrows' && '%s' info '%s/cut.arrows'", path,
                     g_dir, NANOARROW_CLI_PATH, g_dir),
                 1);
    ExpectStderrLine("nanoarrow info: message ");
  }
}

Test(cli_info, schema_shows_dictionary_values_metadata_and_extension_once) {
  char path[512];
  char* out;
  snprintf(path, sizeof(path), "%s/dict.arrows", g_dir);
  WriteDictionaryStream(path, 1);
  cr_assert_eq(Run("'%s' schema '%s'", NANOARROW_CLI_PATH, path), 0);
  out = Slurp("out");
  cr_assert_str_eq(out,
                   "d: dictionary(int32)<string>\n"
                   "n: my.ext{int64}\n"
                   "  # metadata unit = m\n"
                   "# metadata origin = test\n");
  free(out);
}
