/* `nanoarrow convert` from CSV and JSON Lines, on inputs the tests write. */

#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cli/cli_test_arrow.h"
#include "cli/cli_test_util.h"

TestSuite(cli_convert_text, .init = MakeDir, .fini = RemoveDir, .timeout = 300);

static void WriteText(const char* name, const char* text) {
  char path[512];
  FILE* file;
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  file = fopen(path, "wb");
  cr_assert_not_null(file);
  cr_assert_eq(fwrite(text, 1, strlen(text), file), strlen(text));
  fclose(file);
}

/* As WriteText, for text that holds NUL bytes. */
static void WriteBytes(const char* name, const char* data, size_t size) {
  char path[512];
  FILE* file;
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  file = fopen(path, "wb");
  cr_assert_not_null(file);
  cr_assert_eq(fwrite(data, 1, size, file), size);
  fclose(file);
}

static void ExpectOut(const char* expected) {
  char* out = Slurp("out");
  cr_assert_str_eq(out, expected);
  free(out);
}

/* n_rows rows of the types CSV carries, with nulls, awkward strings and
 * awkward doubles: a int64, b double, c bool, d string. */
static void WriteTypesStream(const char* name, int64_t n_rows) {
  static const char* strings[] = {"x", "a,b", "\"q\"", "line\nbreak", "crlf\r\nend", "", " lead",
                                  "é ü", "1", "true", "null"};
  static const double specials[] = {-0.0, 1e300, 5e-324, 0.1, 1.0 / 3, 1e21, NAN, INFINITY};
  char path[512];
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowError error;
  int64_t i;
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 4), 0);
  SetField(&schema, 0, "a", NANOARROW_TYPE_INT64);
  SetField(&schema, 1, "b", NANOARROW_TYPE_DOUBLE);
  SetField(&schema, 2, "c", NANOARROW_TYPE_BOOL);
  SetField(&schema, 3, "d", NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowArrayInitFromSchema(&batch, &schema, &error), 0);
  cr_assert_eq(ArrowArrayStartAppending(&batch), 0);
  for (i = 0; i < n_rows; i++) {
    if (i % 13 == 5) {
      cr_assert_eq(ArrowArrayAppendNull(batch.children[0], 1), 0);
    } else {
      int64_t value = i == 1 ? INT64_MIN : i == 2 ? INT64_MAX : i * 7919 - 300000;
      cr_assert_eq(ArrowArrayAppendInt(batch.children[0], value), 0);
    }
    if (i % 11 == 4) {
      cr_assert_eq(ArrowArrayAppendNull(batch.children[1], 1), 0);
    } else {
      double value = i < 8 ? specials[i] : (double)i / 7.0 - 1000.0;
      cr_assert_eq(ArrowArrayAppendDouble(batch.children[1], value), 0);
    }
    if (i % 3 == 0) {
      cr_assert_eq(ArrowArrayAppendNull(batch.children[2], 1), 0);
    } else {
      cr_assert_eq(ArrowArrayAppendInt(batch.children[2], i % 2), 0);
    }
    if (i % 17 == 16) {
      cr_assert_eq(ArrowArrayAppendNull(batch.children[3], 1), 0);
    } else {
      AppendString(batch.children[3], strings[i % 11]);
    }
    cr_assert_eq(ArrowArrayFinishElement(&batch), 0);
  }
  FinishBatch(&batch);
  WriteStream(path, &schema, &batch, 1, 1);
  ArrowArrayRelease(&batch);
  ArrowSchemaRelease(&schema);
}

Test(cli_convert_text, cat_csv_then_convert_round_trips_exactly) {
  char* first;
  char* second;
  WriteTypesStream("types.arrows", 70000);
  cr_assert_eq(Run("cd '%s' && '%s' cat types.arrows --format csv > types.csv && "
                   "'%s' convert types.csv back.arrows && "
                   "'%s' cat back.arrows --format csv > back.csv",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  first = Slurp("types.csv");
  second = Slurp("back.csv");
  /* Header, 70000 rows, 11980 of them with a line break inside a quoted field. */
  cr_assert_eq(CountLines(first), 1 + 70000 + 11980, "%d", CountLines(first));
  cr_assert(strncmp(first, "a,b,c,d\n-300000,-0.0,,x\n-9223372036854775808,1e+300,true,\"a,b\"\n"
                    "9223372036854775807,4.94065645841247e-324,false,\"\"\"q\"\"\"\n", 119) == 0,
            "%.200s", first);
  cr_assert(strstr(first, ",NaN,") != NULL && strstr(first, ",inf,") != NULL);
  cr_assert_eq(strlen(first), strlen(second));
  cr_assert(strcmp(first, second) == 0, "the CSV of the converted file differs");
  free(first);
  free(second);
  /* Same types (inferred), same values in JSON lines too. */
  cr_assert_eq(Run("'%s' schema '%s/back.arrows'", NANOARROW_CLI_PATH, g_dir), 0);
  ExpectOut("a: int64\nb: double\nc: bool\nd: string\n");
  cr_assert_eq(Run("cd '%s' && '%s' cat types.arrows --format jsonl > a.jsonl && "
                   "'%s' cat back.arrows --format jsonl > b.jsonl && cmp a.jsonl b.jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  /* 65536 rows to a batch. */
  cr_assert_eq(Run("'%s' info '%s/back.arrows' --format json", NANOARROW_CLI_PATH, g_dir), 0);
  {
    char* out = Slurp("out");
    cr_assert(strstr(out, "\"batches\": 2,") != NULL, "%s", out);
    cr_assert(strstr(out, "\"rows\": 70000,") != NULL, "%s", out);
    free(out);
  }
}

Test(cli_convert_text, csv_types_inferred_or_given) {
  WriteText("t.csv",
            "i,f,b,s,n,big\n"
            "1,1.5,true,x,,9223372036854775808\n"
            "-2,2,FALSE,\"\",,1\n"
            ",,,,,\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert t.csv t.arrow && '%s' schema t.arrow", g_dir,
                   NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  /* All-null columns and integers past int64 are text. */
  ExpectOut("i: int64\nf: double\nb: bool\ns: string\nn: string\nbig: string\n");
  cr_assert_eq(Run("'%s' cat '%s/t.arrow' --format jsonl --limit 2", NANOARROW_CLI_PATH, g_dir), 0);
  ExpectOut("{\"i\": 1, \"f\": 1.5, \"b\": true, \"s\": \"x\", \"n\": null, \"big\": \"9223372036854775808\"}\n"
            "{\"i\": -2, \"f\": 2, \"b\": false, \"s\": \"\", \"n\": null, \"big\": \"1\"}\n");

  cr_assert_eq(Run("cd '%s' && '%s' convert t.csv t2.arrow --schema 'i:int8,f:float32,b:bool,s:utf8,n:null,big:uint64' && "
                   "'%s' schema t2.arrow",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("i: int8\nf: float\nb: bool\ns: string\nn: na\nbig: uint64\n");

  /* A value that does not fit: its line, column and value. */
  cr_assert_eq(Run("cd '%s' && '%s' convert t.csv t3.arrow --schema 'i:int8,f:float32,b:bool,s:int64,n:null,big:utf8'",
                   g_dir, NANOARROW_CLI_PATH),
               1);
  ExpectStderrLine("line 2, column 's': 'x' is not a valid int64");
}

Test(cli_convert_text, inference_reads_1000_rows_and_later_rows_must_fit) {
  char path[512];
  FILE* file;
  int i;
  snprintf(path, sizeof(path), "%s/late.csv", g_dir);
  file = fopen(path, "w");
  cr_assert_not_null(file);
  fprintf(file, "n\n");
  for (i = 0; i < 1000; i++) fprintf(file, "%d\n", i);
  fprintf(file, "1.5\n");
  fclose(file);
  cr_assert_eq(Run("cd '%s' && '%s' convert late.csv late.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine(
      "line 1002, column 'n': '1.5' is not a valid int64 (the types were inferred from the "
      "first rows; give --schema)");
  /* The target was not made. */
  snprintf(path, sizeof(path), "%s/late.arrows", g_dir);
  cr_assert_neq(access(path, F_OK), 0);
  cr_assert_eq(Run("cd '%s' && '%s' convert late.csv late.arrows --schema n:float64 && "
                   "'%s' cat late.arrows --offset 1000 --format csv",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("n\n1.5\n");
}

Test(cli_convert_text, malformed_csv_is_an_error_with_its_line) {
  WriteText("fields.csv", "a,b\n1,2\n3\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert fields.csv x.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("line 3: 1 field, expected 2 (as the header has)");
  WriteText("open.csv", "a,b\n1,\"2\n3,4\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert open.csv x.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("line 2: quoted field not closed before the end of the input");
  WriteText("after.csv", "a,b\n1,\"2\"x\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert after.csv x.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("line 2: 'x' after a closing quote");
  WriteText("utf8.csv", "a\nok\n\xff\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert utf8.csv x.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("line 3, column 'a': text that is not valid UTF-8");
  WriteText("name.csv", "a,\xEF\xBB\n1,2\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert name.csv x.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("line 1: the name of column 2 is not valid UTF-8");
  WriteText("empty.csv", "");
  cr_assert_eq(Run("cd '%s' && '%s' convert empty.csv x.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("no header line (the input is empty)");
  /* A header alone: no rows, columns of utf8. CRLF line ends are read too. */
  WriteText("header.csv", "a,b\r\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert header.csv h.arrows && '%s' schema h.arrows", g_dir,
                   NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("a: string\nb: string\n");
}

/* A NUL byte is text like any other in a string, and makes a value no number: it
 * was read as the C string before it ("1", NUL, "2" became the int64 1). */
Test(cli_convert_text, nul_bytes_are_kept_in_strings_and_never_cut_a_number) {
  static const char csv[] = "a,b\nx\0y,1\0" "2\n";
  WriteBytes("nul.csv", csv, sizeof(csv) - 1);
  cr_assert_eq(Run("cd '%s' && '%s' convert nul.csv n.arrows && '%s' cat n.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"a\": \"x\\u0000y\", \"b\": \"1\\u00002\"}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert nul.csv n.arrows --schema a:utf8,b:int64", g_dir,
                   NANOARROW_CLI_PATH),
               1);
  ExpectStderrLine("line 2, column 'b': a value holding a NUL byte is not a valid int64");

  /* JSON's \u0000 in a string value (jansson refuses it unless asked). */
  WriteText("nul.jsonl", "{\"s\": \"a\\u0000b\", \"i\": \"1\\u00002\"}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert nul.jsonl n.arrows && '%s' cat n.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"s\": \"a\\u0000b\", \"i\": \"1\\u00002\"}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert nul.jsonl n.arrows --schema s:utf8,i:int64", g_dir,
                   NANOARROW_CLI_PATH),
               1);
  ExpectStderrLine("line 1, column 'i': a value holding a NUL byte is not a valid int64");
}

/* A UTF-8 byte order mark before the first line is not part of it; bytes that only
 * begin like one (U+FF01 is EF BC 81) stay text, from a file and from a pipe. */
Test(cli_convert_text, a_byte_order_mark_is_skipped) {
  WriteText("bom.csv", "\xEF\xBB\xBF" "a,b\n1,2\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert bom.csv b.arrows && '%s' schema b.arrows", g_dir,
                   NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("a: int64\nb: int64\n");
  WriteText("bom.jsonl", "\xEF\xBB\xBF{\"a\": 1}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert bom.jsonl b.arrows && '%s' cat b.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"a\": 1}\n");
  WriteText("wide.csv", "\xEF\xBC\x81,b\n1,2\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert wide.csv w.arrows && '%s' schema w.arrows", g_dir,
                   NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("\xEF\xBC\x81: int64\nb: int64\n");
  cr_assert_eq(Run("cd '%s' && cat wide.csv | '%s' convert - w.arrows --from csv && '%s' schema w.arrows",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("\xEF\xBC\x81: int64\nb: int64\n");
  WriteText("mark_only.csv", "\xEF\xBB\xBF");
  cr_assert_eq(Run("cd '%s' && '%s' convert mark_only.csv x.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("no header line (the input is empty)");
}

/* JSON integers beyond int64 (uint64, as cat prints them) were refused by the JSON
 * parser: they are read as their digits, exact into a uint64 column and text when
 * inferred (as CSV keeps them). Deeper in a nested value they are still refused. */
Test(cli_convert_text, json_lines_integers_beyond_int64) {
  WriteText("wide.jsonl", "{\"a\": 18446744073709551615, \"b\": -9223372036854775809}\n"
                          "{\"a\": 1, \"b\": null}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert wide.jsonl w.arrows --schema a:uint64,b:float64 && "
                   "'%s' cat w.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"a\": 18446744073709551615, \"b\": -9.223372036854776e+18}\n"
            "{\"a\": 1, \"b\": null}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert wide.jsonl w.arrows && '%s' cat w.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"a\": \"18446744073709551615\", \"b\": \"-9223372036854775809\"}\n"
            "{\"a\": \"1\", \"b\": null}\n");
  /* Nested in an array or object (kept as JSON text), such an integer keeps its
   * digits... */
  WriteText("nested.jsonl",
            "{\"a\": [18446744073709551615, {\"k\": -99999999999999999999}, \"#\"]}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert nested.jsonl n.arrows && '%s' cat n.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"a\": \"[18446744073709551615,{\\\"k\\\":-99999999999999999999},\\\"#\\\"]\"}\n");
  /* ...except on a line that escapes U+0001 itself (which the reader's marking of such
   * integers could be mistaken for): refused, with jansson's message. */
  WriteText("marked.jsonl", "{\"a\": [\"\\u0001#5\", 18446744073709551615]}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert marked.jsonl m.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("too big integer");
  WriteText("plain.jsonl", "{\"a\": [\"\\u0001#5\"]}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert plain.jsonl p.arrows && '%s' cat p.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"a\": \"[\\\"\\\\u0001#5\\\"]\"}\n");
}

/* A JSON number in a utf8 column is the shortest text of its value ("0.1", not the
 * 17 digits "0.10000000000000001" it once became), also inside an array or object
 * kept as JSON text; a float64 column reads the same double back. */
Test(cli_convert_text, json_lines_reals_keep_their_shortest_text) {
  WriteText("reals.jsonl",
            "{\"a\": 0.1, \"b\": 0.1}\n"
            "{\"a\": \"x\", \"b\": 1e300}\n"
            "{\"a\": 1.0, \"b\": -0.0}\n"
            "{\"a\": 2.5e-8, \"b\": 5e-324}\n"
            "{\"a\": 123456789.125, \"b\": 0.30000000000000004}\n"
            "{\"a\": [0.1, {\"k\": 1e300, \"s\": \"\\u00e9\"}, -0.0, 7], \"b\": 2.5}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert reals.jsonl r.arrows && '%s' cat r.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"a\": \"0.1\", \"b\": 0.1}\n"
            "{\"a\": \"x\", \"b\": 1e+300}\n"
            "{\"a\": \"1.0\", \"b\": -0}\n"
            "{\"a\": \"2.5e-08\", \"b\": 4.94065645841247e-324}\n"
            "{\"a\": \"123456789.125\", \"b\": 0.30000000000000004}\n"
            "{\"a\": \"[0.1,{\\\"k\\\":1e+300,\\\"s\\\":\\\"\xc3\xa9\\\"},-0.0,7]\", \"b\": 2.5}\n");
}

/* A blank line cannot be a record of several columns: it is skipped (a trailing one
 * failed the whole input). In a table of one column it is a null, as cat writes one. */
Test(cli_convert_text, blank_lines_are_skipped_unless_one_column) {
  WriteText("blank.csv", "a,b\n1,2\n\n3,4\n\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert blank.csv b.arrows && '%s' cat b.arrows --format csv",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("a,b\n1,2\n3,4\n");
  WriteText("one.csv", "a\n1\n\n3\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert one.csv o.arrows && '%s' cat o.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"a\": 1}\n{\"a\": null}\n{\"a\": 3}\n");
  /* A record with too few fields is still an error, with its line. */
  WriteText("short.csv", "a,b\n1,2\n\n1\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert short.csv x.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("line 4: 1 field, expected 2 (as the header has)");
}

Test(cli_convert_text, json_lines_by_extension_or_from) {
  const char* lines =
      "{\"a\": 1, \"b\": \"x\", \"c\": [1, {\"k\": null}]}\n"
      "\n"
      "{\"a\": 2.5, \"d\": true}\n"
      "{\"a\": null, \"b\": \"y\\u00e9\"}\n";
  WriteText("t.jsonl", lines);
  WriteText("t.ndjson", lines);
  WriteText("t.txt", lines);
  cr_assert_eq(Run("cd '%s' && '%s' convert t.jsonl a.arrow && '%s' convert t.ndjson b.arrow && "
                   "'%s' convert t.txt c.arrow --from jsonl && cmp a.arrow b.arrow && cmp a.arrow c.arrow && "
                   "'%s' schema a.arrow",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH,
                   NANOARROW_CLI_PATH),
               0);
  /* Keys in order of appearance; nested values as JSON text. */
  ExpectOut("a: double\nb: string\nc: string\nd: bool\n");
  cr_assert_eq(Run("'%s' cat '%s/a.arrow' --format jsonl", NANOARROW_CLI_PATH, g_dir), 0);
  ExpectOut("{\"a\": 1, \"b\": \"x\", \"c\": \"[1,{\\\"k\\\":null}]\", \"d\": null}\n"
            "{\"a\": 2.5, \"b\": null, \"c\": null, \"d\": true}\n"
            "{\"a\": null, \"b\": \"y\xc3\xa9\", \"c\": null, \"d\": null}\n");

  /* With --schema, a key it does not name is an error; a number for int64 must be
   * an integer. */
  cr_assert_eq(Run("cd '%s' && '%s' convert t.jsonl x.arrow --schema 'a:float64,b:utf8'", g_dir,
                   NANOARROW_CLI_PATH),
               1);
  ExpectStderrLine("line 1: key 'c' is not a column");
  cr_assert_eq(Run("cd '%s' && '%s' convert t.jsonl x.arrow --schema 'a:int64,b:utf8,c:utf8,d:bool'",
                   g_dir, NANOARROW_CLI_PATH),
               1);
  ExpectStderrLine("line 3, column 'a': 2.5 is not a valid int64");
  WriteText("bad.jsonl", "{\"a\": 1}\n[1]\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert bad.jsonl x.arrow", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("line 2: not a JSON object");
  /* Standard input, with --from. */
  cr_assert_eq(Run("printf 'a,b\\n1,x\\n' | '%s' convert - '%s/stdin.arrows' --from csv && "
                   "'%s' cat '%s/stdin.arrows' --format csv",
                   NANOARROW_CLI_PATH, g_dir, NANOARROW_CLI_PATH, g_dir),
               0);
  ExpectOut("a,b\n1,x\n");
}

Test(cli_convert_text, timestamps_and_dates_given_with_schema) {
  WriteText("ts.csv",
            "t,d\n"
            "2024-02-29T12:34:56.789Z,2024-02-29\n"
            "1969-12-31 23:59:59.5,1969-12-31\n"
            "1700000000000,0\n"
            ",\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert ts.csv ts.arrows --schema 't:timestamp[ms],d:date32' && "
                   "'%s' schema ts.arrows && '%s' cat ts.arrows --format csv",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  /* cat prints the integer storage, which converts back the same. */
  ExpectOut("t: timestamp('ms', '')\nd: date32\n"
            "t,d\n1709210096789,19782\n-500,-1\n1700000000000,0\n,\n");
  cr_assert_eq(Run("cd '%s' && '%s' cat ts.arrows --format csv > ts2.csv && "
                   "'%s' convert ts2.csv ts2.arrows --schema 't:timestamp[ms],d:date32' && "
                   "'%s' cat ts2.arrows --format csv | cmp - ts2.csv",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  /* The nanosecond range is int64's, to the last nanosecond. */
  WriteText("ns.csv", "t\n2262-04-11T23:47:16.854775807\n1677-09-21T00:12:43.145224192\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert ns.csv ns.arrows --schema t:timestamp[ns] && "
                   "'%s' cat ns.arrows --format csv",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("t\n9223372036854775807\n-9223372036854775808\n");
  WriteText("past.csv", "t\n1677-09-21T00:12:43.145224191\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert past.csv x.arrows --schema t:timestamp[ns]", g_dir,
                   NANOARROW_CLI_PATH),
               1);
  ExpectStderrLine("line 2, column 't': '1677-09-21T00:12:43.145224191' is not a valid timestamp");
  /* Not a date; finer than the unit. */
  WriteText("feb.csv", "t\n2023-02-29\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert feb.csv x.arrows --schema t:date32", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("'2023-02-29' is not a valid date32");
  WriteText("fine.csv", "t\n2023-01-01T00:00:00.0001\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert fine.csv x.arrows --schema t:timestamp[ms]", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("is not a valid timestamp('ms', '')");
}

/* Peak resident memory (KiB) of `nanoarrow convert IN OUT` in a child, whose
 * ASan (when built with it) keeps at most 1 MiB of freed memory in quarantine, so
 * that the peak reflects what is live. */
static long ConvertPeakKib(const char* in, const char* out) {
  char in_path[512];
  char out_path[512];
  struct rusage usage;
  int status;
  pid_t pid;
  snprintf(in_path, sizeof(in_path), "%s/%s", g_dir, in);
  snprintf(out_path, sizeof(out_path), "%s/%s", g_dir, out);
  fflush(NULL);
  pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    setenv("ASAN_OPTIONS", "quarantine_size_mb=1:detect_leaks=0", 1);
    execl(NANOARROW_CLI_PATH, NANOARROW_CLI_PATH, "convert", in_path, out_path, (char*)NULL);
    _exit(127);
  }
  cr_assert_eq(wait4(pid, &status, 0, &usage), pid);
  cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return usage.ru_maxrss;
}

static void WriteRowsCsv(const char* name, int n_rows) {
  char path[512];
  FILE* file;
  int i;
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  file = fopen(path, "w");
  cr_assert_not_null(file);
  fprintf(file, "a,b,c,d\n");
  for (i = 0; i < n_rows; i++) {
    fprintf(file, "%d,%.17g,%s,\"name %d, ok\"\n", i, i / 7.0, i % 2 ? "true" : "false", i);
  }
  fclose(file);
}

Test(cli_convert_text, memory_does_not_grow_with_rows) {
  long small_kib;
  long large_kib;
  /* 2 and 10 batches of 65536 rows (6 MB and 30 MB of CSV). */
  WriteRowsCsv("small.csv", 131072);
  WriteRowsCsv("large.csv", 655360);
  small_kib = ConvertPeakKib("small.csv", "small.arrows");
  large_kib = ConvertPeakKib("large.csv", "large.arrows");
  /* Measured (ASan+UBSan, gcc): 100,000 rows 22.0 MB, 1,000,000 rows 22.6 MB; without
   * a sanitizer 5.1 and 7.0 MB. A whole input in memory would add 24 MB. */
  cr_assert_lt(large_kib - small_kib, 8 * 1024, "%ld KiB then %ld KiB", small_kib, large_kib);
  cr_assert_eq(Run("'%s' info '%s/large.arrows' --format json", NANOARROW_CLI_PATH, g_dir), 0);
  {
    char* out = Slurp("out");
    cr_assert(strstr(out, "\"batches\": 10,") != NULL, "%s", out);
    cr_assert(strstr(out, "\"rows\": 655360,") != NULL, "%s", out);
    free(out);
  }
}

/* A wide table's batches hold at most 2^22 values: 4096 columns make batches of
 * 1024 rows, not 65536 (16 GiB of int64 at 32,768 columns). */
Test(cli_convert_text, wide_tables_get_shorter_batches) {
  const int n_columns = 4096;
  const int n_rows = 1025;
  char path[512];
  char* out;
  FILE* file;
  int r;
  int c;
  snprintf(path, sizeof(path), "%s/wide.csv", g_dir);
  file = fopen(path, "wb");
  cr_assert_not_null(file);
  for (c = 0; c < n_columns; c++) fprintf(file, c == 0 ? "c%d" : ",c%d", c);
  fputc('\n', file);
  for (r = 0; r < n_rows; r++) {
    fprintf(file, "%d", r);
    for (c = 1; c < n_columns; c++) fputc(',', file);
    fputc('\n', file);
  }
  fclose(file);
  cr_assert_eq(Run("cd '%s' && '%s' convert wide.csv w.arrows && '%s' info w.arrows --format json",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  out = Slurp("out");
  cr_assert(strstr(out, "\"batches\": 2,") != NULL, "%s", out);
  cr_assert(strstr(out, "\"rows\": 1025,") != NULL, "%.300s", out);
  free(out);
}

Test(cli_convert_text, an_empty_column_name_is_kept) {
  /* (Found by a fuzz run: the empty name was copied from a null pointer.) */
  WriteText("empty_name.csv", "a,\n1,2\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert empty_name.csv e.arrows && '%s' cat e.arrows --format csv",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("a,\"\"\n1,2\n");
  WriteText("empty_key.jsonl", "{\"\": 1}\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert empty_key.jsonl e.arrows && '%s' cat e.arrows --format jsonl",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("{\"\": 1}\n");
  /* An empty header line is one column named "" (found by the CLI fuzz harness: its
   * name was read at an offset from the empty text buffer's null pointer). */
  WriteText("empty_header.csv", "\n1\n2\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert empty_header.csv e.arrows && '%s' cat e.arrows --format csv",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  ExpectOut("\"\"\n1\n2\n");
  /* A table whose header and cells are all empty (no text sampled at all). */
  WriteText("all_empty.csv", "\n\"\"\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert all_empty.csv e.arrows && '%s' cat e.arrows --format table --all",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
}

Test(cli_convert_text, option_errors_exit_2) {
  WriteText("t.csv", "a\n1\n");
  cr_assert_eq(Run("cd '%s' && '%s' convert t.csv x.arrows --schema 'a:int65'", g_dir, NANOARROW_CLI_PATH), 2);
  ExpectUsageError("--schema: unknown type 'int65'");
  cr_assert_eq(Run("cd '%s' && '%s' convert t.csv x.arrows --schema 'a'", g_dir, NANOARROW_CLI_PATH), 2);
  ExpectUsageError("--schema: 'a' is not NAME:TYPE");
  cr_assert_eq(Run("cd '%s' && '%s' convert t.csv x.arrows --schema 'a:int8,a:utf8'", g_dir, NANOARROW_CLI_PATH), 2);
  ExpectUsageError("--schema: column 'a' named twice");
  cr_assert_eq(Run("cd '%s' && '%s' convert t.csv x.arrows --from tsv", g_dir, NANOARROW_CLI_PATH), 2);
  ExpectUsageError("--from must be csv or jsonl");
  cr_assert_eq(Run("cd '%s' && '%s' convert x.arrows y.arrows --schema a:int8", g_dir, NANOARROW_CLI_PATH), 2);
  ExpectUsageError("--schema is for CSV and JSON Lines input");
  /* --schema's columns must match the header's. */
  cr_assert_eq(Run("cd '%s' && '%s' convert t.csv x.arrows --schema 'a:int8,b:utf8'", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("--schema names 2 columns, the header 1");
}

Test(cli_convert_text, help_documents_exit_status_and_text_input) {
  char* out;
  cr_assert_eq(Run("'%s' --help", NANOARROW_CLI_PATH), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "Exit status: 0 success; 1 failure") != NULL, "%s", out);
  cr_assert(strstr(out, "2 usage\nerror") != NULL, "%s", out);
  free(out);
  cr_assert_eq(Run("'%s' convert --help", NANOARROW_CLI_PATH), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "--schema NAME:TYPE") != NULL, "%s", out);
  cr_assert(strstr(out, "first 1000 rows") != NULL, "%s", out);
  free(out);
  cr_assert_eq(Run("'%s' cat --help", NANOARROW_CLI_PATH), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "the reader\n              projects them") != NULL, "%s", out);
  free(out);
}
