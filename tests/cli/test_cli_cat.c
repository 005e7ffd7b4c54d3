/* `nanoarrow cat --offset / --columns / --format csv`, on inputs the tests build. */

#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cli/cli_test_arrow.h"
#include "cli/cli_test_util.h"

TestSuite(cli_cat, .init = MakeDir, .fini = RemoveDir, .timeout = 120);

/* n_batches batches of rows_per_batch rows: a int64 (the row number i), b string
 * ("r" i), c double (i / 2). */
static void WriteRowsStream(const char* name, int n_batches, int rows_per_batch) {
  char path[512];
  struct ArrowSchema schema;
  struct ArrowArray batches[8];
  struct ArrowError error;
  int64_t i = 0;
  int b;
  int r;
  cr_assert(n_batches <= 8);
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 3), 0);
  SetField(&schema, 0, "a", NANOARROW_TYPE_INT64);
  SetField(&schema, 1, "b", NANOARROW_TYPE_STRING);
  SetField(&schema, 2, "c", NANOARROW_TYPE_DOUBLE);
  for (b = 0; b < n_batches; b++) {
    cr_assert_eq(ArrowArrayInitFromSchema(&batches[b], &schema, &error), 0);
    cr_assert_eq(ArrowArrayStartAppending(&batches[b]), 0);
    for (r = 0; r < rows_per_batch; r++, i++) {
      char text[32];
      snprintf(text, sizeof(text), "r%d", (int)i);
      cr_assert_eq(ArrowArrayAppendInt(batches[b].children[0], i), 0);
      AppendString(batches[b].children[1], text);
      cr_assert_eq(ArrowArrayAppendDouble(batches[b].children[2], (double)i / 2), 0);
      cr_assert_eq(ArrowArrayFinishElement(&batches[b]), 0);
    }
    FinishBatch(&batches[b]);
  }
  WriteStream(path, &schema, batches, n_batches, 1);
  for (b = 0; b < n_batches; b++) ArrowArrayRelease(&batches[b]);
  ArrowSchemaRelease(&schema);
}

Test(cli_cat, offset_and_columns_across_batches) {
  char* out;
  WriteRowsStream("rows.arrows", 3, 4);
  /* Row 5 is the second of batch 1; the 3 rows run into batch 2. */
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --offset 5 --limit 3 --columns c,a --format csv",
                   NANOARROW_CLI_PATH, g_dir),
               0);
  out = Slurp("out");
  cr_assert_str_eq(out, "c,a\n2.5,5\n3.0,6\n3.5,7\n");
  free(out);

  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --offset=10 --columns=b --format jsonl",
                   NANOARROW_CLI_PATH, g_dir),
               0);
  out = Slurp("out");
  cr_assert_str_eq(out, "{\"b\": \"r10\"}\n{\"b\": \"r11\"}\n");
  free(out);

  /* Past the end: the header only. */
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --offset 12 --format csv", NANOARROW_CLI_PATH, g_dir), 0);
  out = Slurp("out");
  cr_assert_str_eq(out, "a,b,c\n");
  free(out);

  /* Table and integration JSON see the same selection. */
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --offset 11 --columns b --format table",
                   NANOARROW_CLI_PATH, g_dir),
               0);
  out = Slurp("out");
  cr_assert_str_eq(out, "b\n---\nr11\n");
  free(out);
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --offset 3 --columns a --format json > '%s/sel.json' && "
                   "'%s' cat '%s/sel.json' --format csv",
                   NANOARROW_CLI_PATH, g_dir, g_dir, NANOARROW_CLI_PATH, g_dir),
               0);
  out = Slurp("out");
  cr_assert_str_eq(out, "a\n3\n4\n5\n6\n7\n8\n9\n10\n11\n");
  free(out);
}

Test(cli_cat, selection_errors) {
  WriteRowsStream("rows.arrows", 1, 2);
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --columns a,x", NANOARROW_CLI_PATH, g_dir), 1);
  ExpectStderrLine("nanoarrow cat: --columns: no column 'x' (the columns are: a, b, c)");
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --columns a,a", NANOARROW_CLI_PATH, g_dir), 1);
  ExpectStderrLine("column 'a' named twice");
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --columns=", NANOARROW_CLI_PATH, g_dir), 2);
  ExpectUsageError("--columns needs at least one column name");
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --offset -1", NANOARROW_CLI_PATH, g_dir), 2);
  ExpectUsageError("--offset must be a non-negative integer");
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --offset=x", NANOARROW_CLI_PATH, g_dir), 2);
  ExpectUsageError("--offset must be a non-negative integer");
  cr_assert_eq(Run("'%s' cat '%s/rows.arrows' --format tsv", NANOARROW_CLI_PATH, g_dir), 2);
  ExpectUsageError("--format must be table, jsonl, csv or json");
}

/* One batch: s string, l list<int64>, f float32, d double, with the values the
 * test names. */
static void WriteCsvCasesStream(const char* name) {
  static const char* strings[] = {"plain", "a,b", "say \"hi\"", "two\nlines", "cr\rhere", "", NULL};
  static const double doubles[] = {0.1, 1.0 / 3, 1e300, 5e-324, -0.0, 1.0, 123456789012345678.0};
  static const float floats[] = {0.1f, 1.0f / 3, 3.4028235e38f, 1e-45f, -0.0f, 2.0f, 16777216.0f};
  char path[512];
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowError error;
  int i;
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 4), 0);
  SetField(&schema, 0, "s", NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1], NANOARROW_TYPE_LIST), 0);
  cr_assert_eq(ArrowSchemaSetName(schema.children[1], "l"), 0);
  cr_assert_eq(ArrowSchemaSetType(schema.children[1]->children[0], NANOARROW_TYPE_INT64), 0);
  SetField(&schema, 2, "f", NANOARROW_TYPE_FLOAT);
  SetField(&schema, 3, "d", NANOARROW_TYPE_DOUBLE);
  cr_assert_eq(ArrowArrayInitFromSchema(&batch, &schema, &error), 0);
  cr_assert_eq(ArrowArrayStartAppending(&batch), 0);
  for (i = 0; i < 7; i++) {
    if (strings[i] != NULL) {
      AppendString(batch.children[0], strings[i]);
    } else {
      cr_assert_eq(ArrowArrayAppendNull(batch.children[0], 1), 0);
    }
    if (i == 0) {
      cr_assert_eq(ArrowArrayAppendInt(batch.children[1]->children[0], 1), 0);
      cr_assert_eq(ArrowArrayAppendInt(batch.children[1]->children[0], 2), 0);
      cr_assert_eq(ArrowArrayFinishElement(batch.children[1]), 0);
    } else if (i == 1) {
      cr_assert_eq(ArrowArrayFinishElement(batch.children[1]), 0);
    } else {
      cr_assert_eq(ArrowArrayAppendNull(batch.children[1], 1), 0);
    }
    cr_assert_eq(ArrowArrayAppendDouble(batch.children[2], floats[i]), 0);
    cr_assert_eq(ArrowArrayAppendDouble(batch.children[3], doubles[i]), 0);
    cr_assert_eq(ArrowArrayFinishElement(&batch), 0);
  }
  FinishBatch(&batch);
  WriteStream(path, &schema, &batch, 1, 1);
  ArrowArrayRelease(&batch);
  ArrowSchemaRelease(&schema);
}

Test(cli_cat, csv_quotes_what_it_must_and_nested_values_are_json) {
  char* out;
  WriteCsvCasesStream("cases.arrows");
  cr_assert_eq(Run("'%s' cat '%s/cases.arrows' --format csv --columns s,l", NANOARROW_CLI_PATH, g_dir), 0);
  out = Slurp("out");
  cr_assert_str_eq(out,
                   "s,l\n"
                   "plain,\"[1, 2]\"\n"
                   "\"a,b\",[]\n"
                   "\"say \"\"hi\"\"\",\n"
                   "\"two\nlines\",\n"
                   "\"cr\rhere\",\n"
                   "\"\",\n"
                   ",\n");
  free(out);
}

Test(cli_cat, csv_numbers_read_back_exactly) {
  static const double doubles[] = {0.1, 1.0 / 3, 1e300, 5e-324, -0.0, 1.0, 123456789012345678.0};
  static const float floats[] = {0.1f, 1.0f / 3, 3.4028235e38f, 1e-45f, -0.0f, 2.0f, 16777216.0f};
  char* out;
  char* line;
  int i;
  WriteCsvCasesStream("cases.arrows");
  cr_assert_eq(Run("'%s' cat '%s/cases.arrows' --format csv --columns f,d", NANOARROW_CLI_PATH, g_dir), 0);
  out = Slurp("out");
  /* The shortest of %.15g..%.17g (float32: %.6g..%.9g) that reads back, with
   * ".0" on integral values. */
  cr_assert_str_eq(out,
                   "f,d\n"
                   "0.1,0.1\n"
                   "0.33333334,0.3333333333333333\n"
                   "3.4028235e+38,1e+300\n"
                   "1.4013e-45,4.94065645841247e-324\n"
                   "-0.0,-0.0\n"
                   "2.0,1.0\n"
                   "16777216.0,1.2345678901234568e+17\n");
  line = strchr(out, '\n') + 1;
  for (i = 0; i < 7; i++) {
    char* end;
    double f = strtod(line, &end);
    double d = strtod(end + 1, &end);
    cr_assert_eq((float)f, floats[i], "row %d: %s", i, line);
    cr_assert(memcmp(&d, &doubles[i], sizeof(d)) == 0, "row %d: %s", i, line);
    line = end + 1;
  }
  free(out);
}

Test(cli_cat, csv_on_a_terminal_is_a_preview) {
  static char out[1 << 16];
  char path[512];
  const char* args[] = {"cat", path, "--format", "csv", "--offset", "2", "--columns", "b", NULL};
  {
    int master;
    int slave;
    if (openpty(&master, &slave, NULL, NULL, NULL) != 0) {
      cr_skip_test("no pseudo-terminal: %s", strerror(errno));
    }
    close(master);
    close(slave);
  }
  WriteRowsStream("rows.arrows", 5, 6);
  snprintf(path, sizeof(path), "%s/rows.arrows", g_dir);
  /* 28 rows after the offset: header, 20 rows, and a footer counting the rest. */
  cr_assert_eq(RunOnTerminal(args, out, sizeof(out), NULL), 0, "%s", out);
  cr_assert_eq(CountLines(out), 1 + 20 + 1, "%s", out);
  cr_assert(strncmp(out, "b\nr2\nr3\n", 8) == 0, "%s", out);
  cr_assert(strstr(out, "\nr21\n... 8 more rows; --limit N or --all\n") != NULL, "%s", out);
  /* Piped: all 28. */
  cr_assert_eq(Run("'%s' cat '%s' --format csv --offset 2 --columns b | cat", NANOARROW_CLI_PATH, path), 0);
  {
    char* piped = Slurp("out");
    cr_assert_eq(CountLines(piped), 1 + 28, "%s", piped);
    free(piped);
  }
}

/* A decimal prints with its scale applied while the scale is within the digits of
 * the widest decimal (76); beyond, as its digits and a power of ten, so that a
 * hostile scale (found by the CLI fuzz harness: 536870914) cannot make one value
 * gigabytes long. */
Test(cli_cat, decimals_with_scales_beyond_76_digits_print_a_power_of_ten) {
  static const int32_t scales[] = {2, -3, 76, 77, -77, 536870914, INT32_MIN};
  const int n = (int)(sizeof(scales) / sizeof(scales[0]));
  char path[512];
  char format[64];
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowError error;
  struct ArrowDecimal value;
  char* out;
  int c;
  snprintf(path, sizeof(path), "%s/scales.arrows", g_dir);
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, n), 0);
  for (c = 0; c < n; c++) {
    char name[16];
    snprintf(format, sizeof(format), "d:9,%d,32", (int)scales[c]);
    snprintf(name, sizeof(name), "s%d", c);
    cr_assert_eq(ArrowSchemaSetFormat(schema.children[c], format), 0);
    cr_assert_eq(ArrowSchemaSetName(schema.children[c], name), 0);
  }
  cr_assert_eq(ArrowArrayInitFromSchema(&batch, &schema, &error), 0, "%s", error.message);
  cr_assert_eq(ArrowArrayStartAppending(&batch), 0);
  for (c = 0; c < n; c++) {
    ArrowDecimalInit(&value, 32, 9, scales[c]);
    ArrowDecimalSetInt(&value, -12345);
    cr_assert_eq(ArrowArrayAppendDecimal(batch.children[c], &value), 0);
  }
  cr_assert_eq(ArrowArrayFinishElement(&batch), 0);
  FinishBatch(&batch);
  WriteStream(path, &schema, &batch, 1, 1);
  ArrowArrayRelease(&batch);
  ArrowSchemaRelease(&schema);

  cr_assert_eq(Run("'%s' cat '%s' --format csv > '%s/out'", NANOARROW_CLI_PATH, path, g_dir), 0);
  out = Slurp("out");
  cr_assert_str_eq(out,
                   "s0,s1,s2,s3,s4,s5,s6\n"
                   "-123.45,-12345000,"
                   "-0.0000000000000000000000000000000000000000000000000000000000000000000000012345,"
                   "-12345E-77,-12345E77,-12345E-536870914,-12345E2147483648\n");
  free(out);
  cr_assert_eq(Run("'%s' cat '%s' --format jsonl > '%s/out'", NANOARROW_CLI_PATH, path, g_dir), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "\"s5\": \"-12345E-536870914\"") != NULL, "%s", out);
  free(out);
  cr_assert_eq(Run("'%s' cat '%s' --format table > '%s/out'", NANOARROW_CLI_PATH, path, g_dir), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "-12345E2147483648") != NULL, "%s", out);
  free(out);
}
