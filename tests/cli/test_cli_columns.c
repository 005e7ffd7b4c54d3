/* --columns on cat, validate and convert read through the reader's projection: a
 * column that is not selected is never decoded or validated, so a file whose
 * unselected column is broken still reads, while reading it whole fails. */

#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cli/cli_test_arrow.h"
#include "cli/cli_test_util.h"

TestSuite(cli_columns, .init = MakeDir, .fini = RemoveDir, .timeout = 120);

/* 8 rows of a (int64 = i), b (string "r" i), c (double i / 2), written to
 * g_dir/name as an IPC file (as_file) or stream, then b's offsets broken: the value
 * at b's offset 3 becomes huge, so FULL validation of b fails. */
static void WriteBrokenB(const char* name, int as_file) {
  char path[512];
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowBuffer data;
  struct ArrowIpcOutputStream output;
  struct ArrowIpcWriter writer;
  struct ArrowError error;
  /* The offsets of "r0".."r7": 0, 2, 4, ... */
  const int32_t pattern[9] = {0, 2, 4, 6, 8, 10, 12, 14, 16};
  const int32_t broken = 0x7FFFFFF0;
  int64_t at = -1;
  int64_t i;
  FILE* file;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 3), 0);
  SetField(&schema, 0, "a", NANOARROW_TYPE_INT64);
  SetField(&schema, 1, "b", NANOARROW_TYPE_STRING);
  SetField(&schema, 2, "c", NANOARROW_TYPE_DOUBLE);
  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), 0);
  cr_assert_eq(ArrowArrayStartAppending(&array), 0);
  for (i = 0; i < 8; i++) {
    char text[8];
    snprintf(text, sizeof(text), "r%d", (int)i);
    cr_assert_eq(ArrowArrayAppendInt(array.children[0], i), 0);
    cr_assert_eq(ArrowArrayAppendString(array.children[1], ArrowCharView(text)), 0);
    cr_assert_eq(ArrowArrayAppendDouble(array.children[2], (double)i / 2), 0);
    cr_assert_eq(ArrowArrayFinishElement(&array), 0);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), 0, "%s", error.message);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), 0);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), 0, "%s", error.message);

  ArrowBufferInit(&data);
  cr_assert_eq(ArrowIpcOutputStreamInitBuffer(&output, &data), 0);
  cr_assert_eq(ArrowIpcWriterInit(&writer, &output), 0);
  if (as_file) cr_assert_eq(ArrowIpcWriterStartFile(&writer, &error), 0, "%s", error.message);
  cr_assert_eq(ArrowIpcWriterWriteSchema(&writer, &schema, &error), 0, "%s", error.message);
  cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, &view, &error), 0, "%s", error.message);
  if (as_file) {
    cr_assert_eq(ArrowIpcWriterFinalizeFile(&writer, &error), 0, "%s", error.message);
  } else {
    cr_assert_eq(ArrowIpcWriterWriteArrayView(&writer, NULL, &error), 0, "%s", error.message);
  }
  ArrowIpcWriterReset(&writer);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);

  for (i = 0; i + (int64_t)sizeof(pattern) <= data.size_bytes; i += 4) {
    if (memcmp(data.data + i, pattern, sizeof(pattern)) == 0) {
      at = i;
      break;
    }
  }
  cr_assert(at >= 0, "b's offsets were not found");
  memcpy(data.data + at + 3 * sizeof(int32_t), &broken, sizeof(broken));

  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  file = fopen(path, "wb");
  cr_assert_not_null(file);
  cr_assert_eq(fwrite(data.data, 1, (size_t)data.size_bytes, file), (size_t)data.size_bytes);
  cr_assert_eq(fclose(file), 0);
  ArrowBufferReset(&data);
}

static void ExpectProjectedReads(const char* name) {
  char* out;
  /* Whole, the broken column fails validation. */
  cr_assert_eq(Run("'%s' validate '%s/%s'", NANOARROW_CLI_PATH, g_dir, name), 1);
  cr_assert_eq(Run("'%s' cat '%s/%s' --format csv", NANOARROW_CLI_PATH, g_dir, name), 1);

  /* Projected, b is never decoded: the other columns read and validate. */
  cr_assert_eq(Run("'%s' validate '%s/%s' --columns c,a", NANOARROW_CLI_PATH, g_dir, name), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "1 batches, 8 rows") != NULL, "%s", out);
  free(out);

  cr_assert_eq(Run("'%s' cat '%s/%s' --columns c,a --offset 6 --format csv",
                   NANOARROW_CLI_PATH, g_dir, name),
               0);
  out = Slurp("out");
  cr_assert_str_eq(out, "c,a\n3.0,6\n3.5,7\n");
  free(out);

  cr_assert_eq(Run("'%s' convert '%s/%s' '%s/a.arrows' --columns a && '%s' schema '%s/a.arrows'",
                   NANOARROW_CLI_PATH, g_dir, name, g_dir, NANOARROW_CLI_PATH, g_dir),
               0);
  out = Slurp("out");
  cr_assert_str_eq(out, "a: int64\n");
  free(out);

  /* The error for a name that is not a column lists the columns. */
  cr_assert_eq(Run("'%s' cat '%s/%s' --columns a,x", NANOARROW_CLI_PATH, g_dir, name), 1);
  ExpectStderrLine("no column 'x' (the columns are: a, b, c)");
}

Test(cli_columns, file_reads_only_the_selected_columns) {
  WriteBrokenB("broken.arrow", 1);
  ExpectProjectedReads("broken.arrow");
}

Test(cli_columns, stream_decodes_only_the_selected_columns) {
  WriteBrokenB("broken.arrows", 0);
  ExpectProjectedReads("broken.arrows");
}

Test(cli_columns, convert_refuses_columns_of_text_input) {
  char path[512];
  FILE* file;
  snprintf(path, sizeof(path), "%s/t.csv", g_dir);
  file = fopen(path, "wb");
  cr_assert_not_null(file);
  fputs("a,b\n1,x\n", file);
  cr_assert_eq(fclose(file), 0);
  cr_assert_eq(Run("'%s' convert '%s/t.csv' '%s/t.arrows' --columns a", NANOARROW_CLI_PATH,
                   g_dir, g_dir),
               2);
  ExpectUsageError("--columns is for Arrow input");
}
