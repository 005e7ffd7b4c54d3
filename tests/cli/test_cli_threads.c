/* `--threads N` on cat, validate and convert: the same output as with one thread
 * (convert --compression writes the same bytes), and a bad N is a usage error. */

#define _POSIX_C_SOURCE 200809L
/* forkpty() and wait4() in the shared helpers. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "cli/cli_test_util.h"

TestSuite(cli_threads, .init = MakeDir, .fini = RemoveDir, .timeout = 120);

/* 150,000 rows of three numeric columns: batches of 65536 rows whose float64 and
 * int64 buffers (512 KiB) are big enough to go to the threads. */
static void WriteCsv(void) {
  cr_assert_eq(Run("(echo 'a,b,c'; seq 1 150000 | awk '{print $1 \",\" ($1 %% 977) * 0.5 "
                   "\",\" ($1 %% 13)}') > '%s/in.csv'",
                   g_dir),
               0);
}

static void ExpectSameFiles(const char* a, const char* b) {
  cr_assert_eq(Run("cmp '%s/%s' '%s/%s'", g_dir, a, g_dir, b), 0, "%s and %s differ", a, b);
}

static void CheckCodec(const char* codec) {
  WriteCsv();
  cr_assert_eq(Run("'%s' convert '%s/in.csv' '%s/one.stream' --compression %s",
                   NANOARROW_CLI_PATH, g_dir, g_dir, codec),
               0);
  cr_assert_eq(Run("'%s' convert '%s/in.csv' '%s/two.stream' --compression %s --threads 2",
                   NANOARROW_CLI_PATH, g_dir, g_dir, codec),
               0);
  ExpectSameFiles("one.stream", "two.stream");
  cr_assert_eq(Run("'%s' convert '%s/one.stream' '%s/one.arrow' --compression %s",
                   NANOARROW_CLI_PATH, g_dir, g_dir, codec),
               0);
  cr_assert_eq(Run("'%s' convert '%s/two.stream' '%s/four.arrow' --compression %s "
                   "--threads=4",
                   NANOARROW_CLI_PATH, g_dir, g_dir, codec),
               0);
  ExpectSameFiles("one.arrow", "four.arrow");

  /* Reading: a stream and a (mapped) file, 1 and 3 threads. */
  cr_assert_eq(Run("'%s' cat '%s/one.stream' --format jsonl > '%s/one.jsonl'",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  cr_assert_eq(Run("'%s' cat '%s/one.stream' --format jsonl --threads 3 > '%s/s3.jsonl'",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  cr_assert_eq(Run("'%s' cat '%s/one.arrow' --format jsonl --threads 3 > '%s/f3.jsonl'",
                   NANOARROW_CLI_PATH, g_dir, g_dir),
               0);
  ExpectSameFiles("one.jsonl", "s3.jsonl");
  ExpectSameFiles("one.jsonl", "f3.jsonl");
  cr_assert_eq(Run("'%s' validate '%s/one.arrow' --threads 2", NANOARROW_CLI_PATH, g_dir), 0);
  {
    char* out = Slurp("out");
    cr_assert(strstr(out, "valid file: 3 batches, 150000 rows") != NULL, "%s", out);
    free(out);
  }
}

Test(cli_threads, zstd_same_output_with_threads) { CheckCodec("zstd"); }

Test(cli_threads, lz4_same_output_with_threads) { CheckCodec("lz4"); }

Test(cli_threads, bad_thread_counts_are_usage_errors) {
  static const char* kBad[] = {"0", "-1", "x", "65", "2x"};
  size_t i;
  for (i = 0; i < sizeof(kBad) / sizeof(kBad[0]); i++) {
    cr_assert_eq(Run("'%s' cat '%s' --threads '%s'", NANOARROW_CLI_PATH,
                     NANOARROW_TEST_DATA_DIR
                     "/arrow-ipc-stream/integration/2.0.0-compression/generated_zstd.stream",
                     kBad[i]),
                 2, "--threads %s", kBad[i]);
    ExpectUsageError("--threads must be an integer from 1 to 64");
  }
  cr_assert_eq(Run("'%s' validate '%s' --threads 0", NANOARROW_CLI_PATH,
                   NANOARROW_TEST_DATA_DIR
                   "/arrow-ipc-stream/integration/2.0.0-compression/generated_zstd.stream"),
               2);
  cr_assert_eq(Run("'%s' convert '%s' '%s/x.stream' --threads 0", NANOARROW_CLI_PATH,
                   NANOARROW_TEST_DATA_DIR
                   "/arrow-ipc-stream/integration/2.0.0-compression/generated_zstd.stream",
                   g_dir),
               2);
}
