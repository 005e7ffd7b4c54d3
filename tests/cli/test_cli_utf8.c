/* UTF-8 in the `nanoarrow` tool: the library's FULL validation leaves text alone
 * (as nanoarrow's does), so the readers and `cat` take a string column holding
 * other bytes, while `validate` reports it with the column and the index. */

#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "testing/testing_private.h"
#include "cli/cli_test_arrow.h"
#include "cli/cli_test_util.h"

TestSuite(cli_utf8, .init = MakeDir, .fini = RemoveDir, .timeout = 300);

static int64_t InvalidAt(const char* bytes, int64_t size) {
  return ArrowTestingUtf8InvalidAt((const uint8_t*)bytes, size);
}

Test(cli_utf8, invalid_at_finds_the_first_bad_sequence) {
  cr_expect_eq(InvalidAt("plain ascii, longer than eight bytes", 36), -1);
  cr_expect_eq(InvalidAt("caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e \xf4\x8f\xbf\xbf", 19), -1);
  cr_expect_eq(InvalidAt("\xed\x9f\xbf", 3), -1); /* U+D7FF */
  cr_expect_eq(InvalidAt("", 0), -1);
  cr_expect_eq(InvalidAt("abcdefgh\x80", 9), 8);        /* stray continuation */
  cr_expect_eq(InvalidAt("\xc0\x80", 2), 0);            /* overlong NUL */
  cr_expect_eq(InvalidAt("\xc1\xbf", 2), 0);            /* overlong 2-byte */
  cr_expect_eq(InvalidAt("\xe0\x80\x80", 3), 0);        /* overlong 3-byte */
  cr_expect_eq(InvalidAt("\xf0\x80\x80\x80", 4), 0);    /* overlong 4-byte */
  cr_expect_eq(InvalidAt("\xed\xa0\x80", 3), 0);        /* surrogate U+D800 */
  cr_expect_eq(InvalidAt("\xf4\x90\x80\x80", 4), 0);    /* U+110000 */
  cr_expect_eq(InvalidAt("\xf5\x80\x80\x80", 4), 0);    /* invalid lead */
  cr_expect_eq(InvalidAt("\xff", 1), 0);
  cr_expect_eq(InvalidAt("ok \xe2\x82", 5), 3);         /* truncated */
  cr_expect_eq(InvalidAt("\xe2\x28\xa1", 3), 0);        /* bad continuation */
  cr_expect_eq(InvalidAt("caf\xe9", 4), 3);             /* Latin-1 */
}

/* A stream of struct<id: int32, s: utf8, st: struct<t: utf8>> with one batch:
 * bad_s / bad_t put Latin-1 bytes into row 1 of s / st.t. */
static void WriteTextStream(const char* name, int bad_s, int bad_t) {
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowError error;
  char path[512];
  int64_t row;

  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 3), 0);
  SetField(&schema, 0, "id", NANOARROW_TYPE_INT32);
  SetField(&schema, 1, "s", NANOARROW_TYPE_STRING);
  cr_assert_eq(ArrowSchemaSetTypeStruct(schema.children[2], 1), 0);
  cr_assert_eq(ArrowSchemaSetName(schema.children[2], "st"), 0);
  SetField(schema.children[2], 0, "t", NANOARROW_TYPE_STRING);

  cr_assert_eq(ArrowArrayInitFromSchema(&batch, &schema, &error), 0, "%s", error.message);
  cr_assert_eq(ArrowArrayStartAppending(&batch), 0);
  for (row = 0; row < 3; row++) {
    cr_assert_eq(ArrowArrayAppendInt(batch.children[0], row), 0);
    AppendString(batch.children[1], row == 1 && bad_s ? "caf\xe9" : "caf\xc3\xa9");
    AppendString(batch.children[2]->children[0], row == 1 && bad_t ? "x\x80" : "x");
    cr_assert_eq(ArrowArrayFinishElement(batch.children[2]), 0);
    cr_assert_eq(ArrowArrayFinishElement(&batch), 0);
  }
  FinishBatch(&batch);
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  WriteStream(path, &schema, &batch, 1, 1);
  ArrowArrayRelease(&batch);
  ArrowSchemaRelease(&schema);
}

Test(cli_utf8, validate_reports_text_that_is_not_utf8) {
  WriteTextStream("good.arrows", 0, 0);
  WriteTextStream("bad_s.arrows", 1, 0);
  WriteTextStream("bad_t.arrows", 0, 1);

  cr_assert_eq(Run("cd '%s' && '%s' validate good.arrows", g_dir, NANOARROW_CLI_PATH), 0);
  cr_assert_eq(Run("cd '%s' && '%s' validate bad_s.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("nanoarrow validate: batch 0: column 's': expected valid UTF-8 at index 1");
  cr_assert_eq(Run("cd '%s' && '%s' validate bad_t.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("nanoarrow validate: batch 0: column 'st.t': expected valid UTF-8 at index 1");
}

Test(cli_utf8, readers_take_text_that_is_not_utf8) {
  char* out;
  WriteTextStream("bad_s.arrows", 1, 0);
  /* The stream reader validates at FULL; the bytes come through as they are. */
  cr_assert_eq(Run("cd '%s' && '%s' cat bad_s.arrows --format csv --columns s", g_dir,
                   NANOARROW_CLI_PATH),
               0);
  out = Slurp("out");
  cr_expect_str_eq(out, "s\ncaf\xc3\xa9\ncaf\xe9\ncaf\xc3\xa9\n");
  free(out);
  /* JSON Lines stay valid JSON: a byte that starts no UTF-8 sequence is U+FFFD. */
  cr_assert_eq(Run("cd '%s' && '%s' cat bad_s.arrows --format jsonl --columns s", g_dir,
                   NANOARROW_CLI_PATH),
               0);
  out = Slurp("out");
  cr_expect_str_eq(out, "{\"s\": \"caf\xc3\xa9\"}\n{\"s\": \"caf\\ufffd\"}\n{\"s\": \"caf\xc3\xa9\"}\n");
  free(out);
  /* Converted to an IPC file and read back, still the same bytes. */
  cr_assert_eq(Run("cd '%s' && '%s' convert bad_s.arrows bad_s.arrow && '%s' cat bad_s.arrow "
                   "--format csv --columns s",
                   g_dir, NANOARROW_CLI_PATH, NANOARROW_CLI_PATH),
               0);
  out = Slurp("out");
  cr_expect_str_eq(out, "s\ncaf\xc3\xa9\ncaf\xe9\ncaf\xc3\xa9\n");
  free(out);
}

/* A string-view column and the values of a dictionary-encoded column are checked
 * too; the dictionary's path says so. */
Test(cli_utf8, validate_checks_string_views_and_dictionaries) {
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowError error;
  char path[512];
  int bad;

  /* bad: 0 none, 1 a dictionary value, 2 a view's bytes outside the view. */
  for (bad = 0; bad < 3; bad++) {
    ArrowSchemaInit(&schema);
    cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 2), 0);
    SetField(&schema, 0, "v", NANOARROW_TYPE_STRING_VIEW);
    SetField(&schema, 1, "d", NANOARROW_TYPE_INT8);
    cr_assert_eq(ArrowSchemaAllocateDictionary(schema.children[1]), 0);
    cr_assert_eq(ArrowSchemaInitFromType(schema.children[1]->dictionary,
                                         NANOARROW_TYPE_STRING),
                 0);
    cr_assert_eq(ArrowArrayInitFromSchema(&batch, &schema, &error), 0, "%s", error.message);
    cr_assert_eq(ArrowArrayStartAppending(&batch), 0);
    /* Longer than the 12 bytes a view holds inline: the bytes sit in a data buffer. */
    AppendString(batch.children[1]->dictionary, "x");
    AppendString(batch.children[1]->dictionary, bad == 1 ? "y\xc0" : "y");
    AppendString(batch.children[0],
                 bad == 2 ? "a string view that is \xff long" : "a string view that is long");
    cr_assert_eq(ArrowArrayAppendInt(batch.children[1], 1), 0);
    cr_assert_eq(ArrowArrayFinishElement(&batch), 0);
    AppendString(batch.children[0], "short \xc3\xa9");
    cr_assert_eq(ArrowArrayAppendInt(batch.children[1], 0), 0);
    cr_assert_eq(ArrowArrayFinishElement(&batch), 0);
    FinishBatch(&batch);
    snprintf(path, sizeof(path), "%s/%s", g_dir,
             bad == 0 ? "good.arrows" : (bad == 1 ? "bad_d.arrows" : "bad_v.arrows"));
    WriteStream(path, &schema, &batch, 1, 1);
    ArrowArrayRelease(&batch);
    ArrowSchemaRelease(&schema);
  }
  cr_assert_eq(Run("cd '%s' && '%s' validate good.arrows", g_dir, NANOARROW_CLI_PATH), 0);
  cr_assert_eq(Run("cd '%s' && '%s' validate bad_d.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("column 'd(dictionary)': expected valid UTF-8 at index 1");
  cr_assert_eq(Run("cd '%s' && '%s' validate bad_v.arrows", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("column 'v': expected valid UTF-8 at index 0");
}
