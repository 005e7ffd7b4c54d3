/* IPC streams read from pipes: the CLI reads them as they arrive (push decoder),
 * with the same rows, errors and warnings as from the file, and prints each batch
 * as soon as it is complete. */

#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "cli/cli_test_arrow.h"
#include "cli/cli_test_util.h"

#define IPC_DATA NANOARROW_TEST_DATA_DIR "/arrow-ipc-stream/integration/"
#define GOLDEN IPC_DATA "1.0.0-littleendian/"

static void Setup(void) {
  /* A test's own writes into a closed pipe fail with EPIPE instead of killing it. */
  signal(SIGPIPE, SIG_IGN);
  MakeDir();
}

TestSuite(cli_pipe, .init = Setup, .fini = RemoveDir, .timeout = 300);

/* Runs command (a format with one %s, the tool) twice: reading FILE by path and
 * from a pipe ("cat FILE | nanoarrow ... -"); their stdout, stderr and exit status
 * must be the same. args is a format with %s for the input. */
static void ExpectPipeMatchesFile(const char* path, const char* args) {
  char by_path[1024];
  char by_pipe[1024];
  char* out[2];
  char* err[2];
  int status[2];
  snprintf(by_path, sizeof(by_path), args, path);
  snprintf(by_pipe, sizeof(by_pipe), args, "-");
  status[0] = Run("'%s' %s", NANOARROW_CLI_PATH, by_path);
  out[0] = Slurp("out");
  err[0] = Slurp("err");
  status[1] = Run("cat '%s' | '%s' %s", path, NANOARROW_CLI_PATH, by_pipe);
  out[1] = Slurp("out");
  err[1] = Slurp("err");
  cr_assert_eq(status[1], status[0], "%s: exit %d from a pipe, %d from the file (%s)", path,
               status[1], status[0], err[1]);
  cr_assert_str_eq(out[1], out[0], "%s: stdout differs", by_path);
  cr_assert_str_eq(err[1], err[0], "%s: stderr differs", by_path);
  free(out[0]);
  free(out[1]);
  free(err[0]);
  free(err[1]);
}

static void ExpectDirectoryPipeMatchesFile(const char* dir, const char* suffix,
                                           const char* args, int* n_files) {
  char command[512];
  char name[512];
  FILE* list;
  snprintf(command, sizeof(command), "ls '%s' | grep '%s$'", dir, suffix);
  list = popen(command, "r");
  cr_assert_not_null(list);
  while (fgets(name, sizeof(name), list) != NULL) {
    char path[1024];
    name[strcspn(name, "\n")] = '\0';
    snprintf(path, sizeof(path), "%s%s", dir, name);
    ExpectPipeMatchesFile(path, args);
    (*n_files)++;
  }
  pclose(list);
}

Test(cli_pipe, cat_from_a_pipe_equals_cat_from_the_file) {
  int n = 0;
  ExpectDirectoryPipeMatchesFile(GOLDEN, ".stream", "cat %s --format jsonl", &n);
  cr_assert_geq(n, 20, "only %d streams", n);
  /* Compressed bodies (LZ4 and ZSTD), pre-1.0 framing, shared dictionaries. */
  n = 0;
  ExpectDirectoryPipeMatchesFile(IPC_DATA "2.0.0-compression/", ".stream",
                                 "cat %s --format jsonl", &n);
  cr_assert_geq(n, 4);
  ExpectDirectoryPipeMatchesFile(IPC_DATA "0.14.1/", "primitive.stream",
                                 "cat %s --format jsonl", &n);
  ExpectDirectoryPipeMatchesFile(IPC_DATA "4.0.0-shareddict/", ".stream",
                                 "cat %s --format jsonl", &n);
  /* The other commands, and the other inputs a pipe may carry. */
  ExpectPipeMatchesFile(GOLDEN "generated_dictionary.stream", "cat %s --format json");
  ExpectPipeMatchesFile(GOLDEN "generated_nested.stream", "validate %s");
  ExpectPipeMatchesFile(GOLDEN "generated_nested.stream", "schema %s");
  ExpectPipeMatchesFile(GOLDEN "generated_nested.stream", "convert %s - --to json");
  ExpectPipeMatchesFile(GOLDEN "generated_primitive.arrow_file", "cat %s --format csv");
  ExpectPipeMatchesFile(GOLDEN "generated_primitive.json.gz", "cat %s --format jsonl");
  ExpectPipeMatchesFile(GOLDEN "generated_union.json.gz", "validate %s --strict");
  ExpectPipeMatchesFile(IPC_DATA "2.0.0-compression/generated_zstd.arrow_file",
                        "validate %s");
}

Test(cli_pipe, columns_from_a_pipe) {
  ExpectPipeMatchesFile(GOLDEN "generated_primitive.stream",
                        "cat %s --columns utf8_nullable,int8_nonnullable --format csv");
  ExpectPipeMatchesFile(GOLDEN "generated_dictionary.stream", "cat %s --columns dict1");
  ExpectPipeMatchesFile(IPC_DATA "2.0.0-compression/generated_lz4.stream",
                        "validate %s --columns int32");
  ExpectPipeMatchesFile(GOLDEN "generated_primitive.arrow_file",
                        "cat %s --columns utf8_nullable --format csv");
  ExpectPipeMatchesFile(GOLDEN "generated_primitive.json.gz",
                        "cat %s --columns utf8_nullable --format csv");
  /* A wrong name lists the columns, from a pipe too. */
  ExpectPipeMatchesFile(GOLDEN "generated_primitive.stream", "cat %s --columns nope");
  ExpectStderrLine("--columns: no column 'nope' (the columns are: bool_nullable");
  ExpectPipeMatchesFile(GOLDEN "generated_primitive.arrow_file", "cat %s --columns nope");
  ExpectStderrLine("--columns: no column 'nope' (the columns are: bool_nullable");
}

/* Starts the CLI with args, its stdin the reading end of a new pipe (*to_cli: the
 * writing end), its stdout out_fd (-1: g_dir/out), stderr g_dir/err. */
static pid_t StartCli(const char* const* args, int* to_cli, int out_fd) {
  const char* argv[16];
  char path[512];
  int fds[2];
  int n = 0;
  pid_t pid;
  argv[n++] = NANOARROW_CLI_PATH;
  while (args[n - 1] != NULL && n < 15) {
    argv[n] = args[n - 1];
    n++;
  }
  argv[n] = NULL;
  cr_assert_eq(pipe(fds), 0);
  fflush(NULL);
  pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    int fd;
    dup2(fds[0], 0);
    close(fds[0]);
    close(fds[1]);
    if (out_fd >= 0) {
      dup2(out_fd, 1);
    } else {
      snprintf(path, sizeof(path), "%s/out", g_dir);
      fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 1);
    }
    snprintf(path, sizeof(path), "%s/err", g_dir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 2);
    signal(SIGPIPE, SIG_DFL);
    execv(argv[0], (char* const*)argv);
    _exit(127);
  }
  close(fds[0]);
  *to_cli = fds[1];
  return pid;
}

/* Waits for pid (at most timeout_s seconds, then kills it: a failure). */
static int WaitCli(pid_t pid, int timeout_s) {
  int status;
  int waited_ms = 0;
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    cr_assert(done >= 0);
    if (done == pid) return status;
    if (waited_ms >= timeout_s * 1000) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      cr_assert_fail("the CLI did not exit within %d s", timeout_s);
    }
    usleep(10000);
    waited_ms += 10;
  }
}

static char* ReadWhole(const char* path, long* size_out) {
  FILE* file = fopen(path, "rb");
  char* data;
  long size;
  cr_assert_not_null(file, "%s", path);
  fseek(file, 0, SEEK_END);
  size = ftell(file);
  fseek(file, 0, SEEK_SET);
  data = (char*)malloc((size_t)size + 1);
  cr_assert_eq(fread(data, 1, (size_t)size, file), (size_t)size);
  fclose(file);
  data[size] = '\0';
  *size_out = size;
  return data;
}

static void WriteAllTo(int fd, const char* data, long size) {
  while (size > 0) {
    ssize_t n = write(fd, data, (size_t)size);
    if (n < 0 && errno == EINTR) continue;
    cr_assert(n > 0, "write: %s", strerror(errno));
    data += n;
    size -= n;
  }
}

Test(cli_pipe, a_stream_fed_one_byte_per_write) {
  const char* files[] = {GOLDEN "generated_dictionary.stream",
                         IPC_DATA "2.0.0-compression/generated_zstd.stream"};
  size_t f;
  for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
    const char* args[] = {"cat", "-", "--format", "jsonl", NULL};
    char* data;
    char* expected;
    char* out;
    long size;
    long i;
    int to_cli;
    int status;
    pid_t pid;
    data = ReadWhole(files[f], &size);
    cr_assert_eq(Run("'%s' cat '%s' --format jsonl", NANOARROW_CLI_PATH, files[f]), 0);
    expected = Slurp("out");
    pid = StartCli(args, &to_cli, -1);
    for (i = 0; i < size; i++) {
      WriteAllTo(to_cli, data + i, 1);
      /* Let the reader take pieces this small, often. */
      if (i % 64 == 0) usleep(100);
    }
    close(to_cli);
    status = WaitCli(pid, 120);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", Slurp("err"));
    out = Slurp("out");
    cr_assert_str_eq(out, expected, "%s", files[f]);
    free(out);
    free(expected);
    free(data);
  }
}

/* Two batches of one row each: x int64 = 1 then 2, a stream (with or without the
 * second batch and the end-of-stream marker). */
static void WriteTwoBatches(const char* name, int n_batches, int end_marker) {
  char path[512];
  struct ArrowSchema schema;
  struct ArrowArray batches[2];
  struct ArrowError error;
  int b;
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 1), 0);
  SetField(&schema, 0, "x", NANOARROW_TYPE_INT64);
  for (b = 0; b < 2; b++) {
    cr_assert_eq(ArrowArrayInitFromSchema(&batches[b], &schema, &error), 0);
    cr_assert_eq(ArrowArrayStartAppending(&batches[b]), 0);
    cr_assert_eq(ArrowArrayAppendInt(batches[b].children[0], b + 1), 0);
    cr_assert_eq(ArrowArrayFinishElement(&batches[b]), 0);
    FinishBatch(&batches[b]);
  }
  WriteStream(path, &schema, batches, n_batches, end_marker);
  for (b = 0; b < 2; b++) ArrowArrayRelease(&batches[b]);
  ArrowSchemaRelease(&schema);
}

/* Reads from fd until text holds needle (at most timeout_ms); 1 when it does. */
static int ReadUntil(int fd, char* text, size_t size, size_t* used, const char* needle,
                     int timeout_ms) {
  while (strstr(text, needle) == NULL) {
    struct pollfd poller;
    ssize_t n;
    poller.fd = fd;
    poller.events = POLLIN;
    if (poll(&poller, 1, timeout_ms) <= 0) return 0;
    n = read(fd, text + *used, size - 1 - *used);
    if (n <= 0) return 0;
    *used += (size_t)n;
    text[*used] = '\0';
  }
  return 1;
}

Test(cli_pipe, each_batch_is_printed_as_soon_as_it_arrives) {
  const char* formats[] = {"jsonl", "csv"};
  const char* first_row[] = {"{\"x\": 1}\n", "x\n1\n"};
  const char* second_row[] = {"{\"x\": 2}\n", "\n2\n"};
  size_t k;
  char* first;
  char* whole;
  long first_size;
  long whole_size;
  char path[512];
  WriteTwoBatches("first.stream", 1, 0);
  WriteTwoBatches("whole.stream", 2, 1);
  snprintf(path, sizeof(path), "%s/first.stream", g_dir);
  first = ReadWhole(path, &first_size);
  snprintf(path, sizeof(path), "%s/whole.stream", g_dir);
  whole = ReadWhole(path, &whole_size);
  cr_assert(first_size < whole_size && memcmp(first, whole, (size_t)first_size) == 0);

  for (k = 0; k < sizeof(formats) / sizeof(formats[0]); k++) {
    const char* args[] = {"cat", "-", "--format", formats[k], NULL};
    char text[4096];
    size_t used = 0;
    int out_fds[2];
    int to_cli;
    int status;
    pid_t pid;
    text[0] = '\0';
    cr_assert_eq(pipe(out_fds), 0);
    pid = StartCli(args, &to_cli, out_fds[1]);
    close(out_fds[1]);
    /* The schema and the first batch; the second is written only once the first
     * batch's row has come out (the producer waits, as one that sleeps would). */
    WriteAllTo(to_cli, first, first_size);
    cr_assert(ReadUntil(out_fds[0], text, sizeof(text), &used, first_row[k], 60000),
              "--format %s: the first batch was not printed before the second was "
              "written (output so far: '%s')",
              formats[k], text);
    cr_assert(strstr(text, "2") == NULL, "%s", text);
    WriteAllTo(to_cli, whole + first_size, whole_size - first_size);
    close(to_cli);
    cr_assert(ReadUntil(out_fds[0], text, sizeof(text), &used, second_row[k], 60000), "%s",
              text);
    close(out_fds[0]);
    status = WaitCli(pid, 60);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  free(first);
  free(whole);
}

Test(cli_pipe, a_stream_without_its_marker_warns_as_from_a_file) {
  char path[512];
  WriteTwoBatches("cut.stream", 2, 0);
  snprintf(path, sizeof(path), "%s/cut.stream", g_dir);
  ExpectPipeMatchesFile(path, "validate %s");
  ExpectStderrLine("nanoarrow validate: warning: no end-of-stream marker after 2 batches (the "
                   "stream may be truncated)");
  ExpectPipeMatchesFile(path, "validate %s --strict");
  ExpectStderrLine("nanoarrow validate: no end-of-stream marker after 2 batches");
  ExpectPipeMatchesFile(path, "cat %s");
  /* With the marker: no warning, and bytes after it are not read. */
  WriteTwoBatches("whole.stream", 2, 1);
  cr_assert_eq(Run("cat '%s/whole.stream' > '%s/trailing.stream' && printf 'junk' >> "
                   "'%s/trailing.stream'",
                   g_dir, g_dir, g_dir),
               0);
  snprintf(path, sizeof(path), "%s/trailing.stream", g_dir);
  ExpectPipeMatchesFile(path, "validate %s --strict");
  cr_assert_eq(Run("cat '%s' | '%s' validate - --strict", path, NANOARROW_CLI_PATH), 0);
}

Test(cli_pipe, truncated_streams_fail_as_from_the_file) {
  const char* golden = GOLDEN "generated_primitive.stream";
  struct stat info;
  long cut;
  cr_assert_eq(stat(golden, &info), 0);
  /* Inside the prefix, the metadata and the body of the schema and of batches, at
   * message boundaries, and the whole stream but its marker. */
  for (cut = 0; cut < (long)info.st_size; cut += 997) {
    char path[512];
    snprintf(path, sizeof(path), "%s/cut.stream", g_dir);
    cr_assert_eq(Run("head -c %ld '%s' > '%s'", cut, golden, path), 0);
    ExpectPipeMatchesFile(path, "cat %s --format csv");
    ExpectPipeMatchesFile(path, "validate %s");
  }
  {
    char path[512];
    snprintf(path, sizeof(path), "%s/cut.stream", g_dir);
    cr_assert_eq(Run("head -c %ld '%s' > '%s'", (long)info.st_size - 8, golden, path), 0);
    ExpectPipeMatchesFile(path, "validate %s --strict");
    ExpectStderrLine("no end-of-stream marker after 2 batches");
    cr_assert_eq(Run("head -c 2000 '%s' > '%s'", golden, path), 0);
    ExpectPipeMatchesFile(path, "cat %s");
    ExpectStderrLine("nanoarrow cat: batch 0: expected ");
  }
}

/* A stream cut inside its second batch: cat prints the rows of the first batch, then
 * fails, the same from the file and from a pipe that stalls between the batches
 * (where the first batch's rows go out while cat waits). Before, rows still
 * buffered when the read failed were dropped, so the output depended on timing. */
Test(cli_pipe, rows_before_a_truncation_are_printed_whatever_the_timing) {
  const char* golden = GOLDEN "generated_primitive.stream";
  const char* formats[] = {"csv", "jsonl", "table"};
  struct stat info;
  size_t i;
  cr_assert_eq(stat(golden, &info), 0);
  cr_assert_eq(Run("head -c %ld '%s' > '%s/cut.stream'", (long)info.st_size - 100, golden,
                   g_dir),
               0);
  for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
    char* full;
    char* from_file;
    char* from_pipe;
    cr_assert_eq(Run("'%s' cat '%s' --format %s", NANOARROW_CLI_PATH, golden, formats[i]), 0);
    full = Slurp("out");
    cr_assert_eq(Run("'%s' cat '%s/cut.stream' --format %s", NANOARROW_CLI_PATH, g_dir,
                     formats[i]),
                 1);
    ExpectStderrLine("nanoarrow cat: batch 1: ");
    from_file = Slurp("out");
    /* 3000 bytes hold the schema and the first batch (its body ends near 2000). */
    cr_assert_eq(Run("(head -c 3000 '%s/cut.stream'; sleep 0.3; tail -c +3001 "
                     "'%s/cut.stream') | '%s' cat - --format %s",
                     g_dir, g_dir, NANOARROW_CLI_PATH, formats[i]),
                 1);
    from_pipe = Slurp("out");
    cr_assert_str_eq(from_pipe, from_file, "--format %s", formats[i]);
    if (strcmp(formats[i], "table") == 0) {
      /* The table's widths come from the rows shown, so only rows are compared. */
      cr_assert(strstr(from_file, "bool_nullable") != NULL);
      cr_assert(strlen(from_file) < strlen(full));
    } else {
      /* Every row of the first batch (17 rows; csv adds its header), nothing after. */
      size_t n_lines = 0;
      const char* p;
      cr_assert_eq(strncmp(full, from_file, strlen(from_file)), 0, "--format %s", formats[i]);
      for (p = from_file; *p != '\0'; p++) n_lines += *p == '\n';
      cr_assert_eq(n_lines, strcmp(formats[i], "csv") == 0 ? 18u : 17u, "--format %s: %zu",
                   formats[i], n_lines);
    }
    free(full);
    free(from_file);
    free(from_pipe);
  }
}

Test(cli_pipe, hostile_bytes_through_a_pipe_fail_clearly) {
  /* printf formats: a continuation marker then 16 bytes of garbage metadata, a
   * metadata length of 2 GiB that never comes, a negative length, a marker alone,
   * and a legacy-looking length prefix with too little behind it. */
  const char* inputs[] = {
      ("\\377\\377\\377\\377\\020\\000\\000\\000\\001\\002\\003\\004\\005\\006\\007\\010"
       "\\011\\012\\013\\014\\015\\016\\017\\020"),
      "\\377\\377\\377\\377\\377\\377\\377\\177abc",
      "\\377\\377\\377\\377\\000\\000\\000\\200",
      "\\377\\377\\377\\377",
      "\\020\\000\\000\\000abcd"};
  const char* needles[] = {"", "metadata", "", "prefix", "not an Arrow IPC stream or file"};
  size_t i;
  for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
    char path[512];
    snprintf(path, sizeof(path), "%s/bad.stream", g_dir);
    cr_assert_eq(Run("printf '%s' > '%s'", inputs[i], path), 0);
    ExpectPipeMatchesFile(path, "cat %s");
    cr_assert_eq(Run("cat '%s' | '%s' cat -", path, NANOARROW_CLI_PATH), 1, "input %d", (int)i);
    ExpectStderrLine("nanoarrow cat: ");
    if (needles[i][0] != '\0') ExpectStderrLine(needles[i]);
  }
  /* A valid schema followed by random bytes. */
  cr_assert_eq(Run("head -c 1944 '%s' > '%s/bad.stream' && head -c 5000 /dev/urandom >> "
                   "'%s/bad.stream'",
                   GOLDEN "generated_primitive.stream", g_dir, g_dir),
               0);
  cr_assert_eq(Run("cat '%s/bad.stream' | '%s' cat -", g_dir, NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("nanoarrow cat: batch 0: ");
}

Test(cli_pipe, a_fifo_is_read_as_it_arrives) {
  char path[512];
  char* out;
  snprintf(path, sizeof(path), "%s/fifo", g_dir);
  cr_assert_eq(mkfifo(path, 0600), 0);
  cr_assert_eq(Run("cat '%s' > '%s' & '%s' cat '%s' --format csv --columns utf8_nullable",
                   GOLDEN "generated_primitive.stream", path, NANOARROW_CLI_PATH, path),
               0);
  out = Slurp("out");
  cr_assert_eq(CountLines(out), 38, "%s", out);
  free(out);
  /* Process substitution: a /dev/fd path to a pipe. */
  cr_assert_eq(Run("bash -c \"'%s' validate <(cat '%s')\"", NANOARROW_CLI_PATH,
                   GOLDEN "generated_primitive.stream"),
               0);
}

Test(cli_pipe, closed_output_pipe_behaves_as_before) {
  char* err;
  /* As `head` users see it: cat stops early and exits 0, quietly. */
  cr_assert_eq(Run("sh -c 'cat \"%s\" | \"%s\" cat -; echo $? > \"%s/status\"' | head -n 2",
                   GOLDEN "generated_primitive.stream", NANOARROW_CLI_PATH, g_dir),
               0);
  err = Slurp("status");
  cr_assert_str_eq(err, "0\n");
  free(err);
  err = Slurp("err");
  cr_assert_str_empty(err, "%s", err);
  free(err);
  /* convert to a closed stdout is an error. */
  {
    const char* args[] = {"convert", "-", "-", NULL};
    long size;
    char* data = ReadWhole(GOLDEN "generated_primitive.stream", &size);
    int out_fds[2];
    int to_cli;
    int status;
    pid_t pid;
    cr_assert_eq(pipe(out_fds), 0);
    close(out_fds[0]);
    pid = StartCli(args, &to_cli, out_fds[1]);
    close(out_fds[1]);
    WriteAllTo(to_cli, data, size);
    close(to_cli);
    status = WaitCli(pid, 60);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    ExpectStderrLine("cannot write to standard output: Broken pipe");
    free(data);
  }
  /* cat whose reader went away while it waits for more input: it notices when it
   * writes what it has, before it would wait, and ends quietly (exit 0) although
   * the producer never finishes. */
  {
    const char* args[] = {"cat", "-", NULL};
    char path[512];
    char* first;
    long first_size;
    int out_fds[2];
    int to_cli;
    int status;
    pid_t pid;
    WriteTwoBatches("first.stream", 1, 0);
    snprintf(path, sizeof(path), "%s/first.stream", g_dir);
    first = ReadWhole(path, &first_size);
    cr_assert_eq(pipe(out_fds), 0);
    close(out_fds[0]);
    pid = StartCli(args, &to_cli, out_fds[1]);
    close(out_fds[1]);
    WriteAllTo(to_cli, first, first_size);
    status = WaitCli(pid, 60);
    close(to_cli);
    cr_assert(WIFEXITED(status), "killed by signal %d", WTERMSIG(status));
    cr_assert_eq(WEXITSTATUS(status), 0);
    err = Slurp("err");
    cr_assert_str_empty(err, "%s", err);
    free(err);
    free(first);
  }
}

Test(cli_pipe, text_input_through_a_pipe_still_converts) {
  char* out;
  cr_assert_eq(Run("printf 'a,b\\n1,x\\n2,y\\n' | '%s' convert - '%s/t.arrows' --from csv && "
                   "cat '%s/t.arrows' | '%s' cat - --format csv",
                   NANOARROW_CLI_PATH, g_dir, g_dir, NANOARROW_CLI_PATH),
               0);
  out = Slurp("out");
  cr_assert_str_eq(out, "a,b\n1,x\n2,y\n");
  free(out);
  /* Text that is not Arrow says so, from a pipe as from a file. */
  cr_assert_eq(Run("printf 'a,b\\n1,x\\n' | '%s' cat -", NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("not an Arrow IPC stream or file, nor integration JSON");
  cr_assert_eq(Run("printf '' | '%s' cat -", NANOARROW_CLI_PATH), 1);
  ExpectStderrLine("empty input");
}

Test(cli_pipe, help_says_pipes_are_read_as_they_arrive) {
  char* out;
  cr_assert_eq(Run("'%s' --help", NANOARROW_CLI_PATH), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "is read as it arrives") != NULL, "%s", out);
  free(out);
  cr_assert_eq(Run("'%s' cat --help", NANOARROW_CLI_PATH), 0);
  out = Slurp("out");
  cr_assert(strstr(out, "is read as it arrives") != NULL, "%s", out);
  free(out);
}

/* Appends the encoder's last message and body to out. */
static void AppendMessage(struct ArrowIpcEncoder* encoder, struct ArrowBuffer* body,
                          struct ArrowBuffer* out) {
  cr_assert_eq(ArrowIpcEncoderFinalizeBuffer(encoder, 1, out), NANOARROW_OK);
  cr_assert_eq(ArrowBufferAppend(out, body->data, body->size_bytes), NANOARROW_OK);
  body->size_bytes = 0;
}

/* x: dictionary<int32, int8>, its dictionary then n_deltas ZSTD deltas of 1 MiB of
 * zeros each (a few hundred bytes apiece), then a batch. 0 without ZSTD. */
static int WriteGrowingDictionary(const char* name, int n_deltas) {
  struct ArrowIpcEncoder encoder;
  struct ArrowSchema schema;
  struct ArrowBuffer bytes;
  struct ArrowBuffer body;
  struct ArrowError error;
  struct ArrowArray array;
  struct ArrowArrayView view;
  static const int32_t end_of_stream[2] = {-1, 0};
  char path[512];
  FILE* file;
  int i;
  cr_assert_eq(ArrowIpcEncoderInit(&encoder), NANOARROW_OK);
  if (ArrowIpcEncoderSetCompression(&encoder, NANOARROW_IPC_COMPRESSION_TYPE_ZSTD,
                                    NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT,
                                    &error) != NANOARROW_OK) {
    ArrowIpcEncoderReset(&encoder);
    return 0;
  }
  ArrowBufferInit(&bytes);
  ArrowBufferInit(&body);
  ArrowSchemaInit(&schema);
  cr_assert_eq(ArrowSchemaSetTypeStruct(&schema, 1), NANOARROW_OK);
  SetField(&schema, 0, "x", NANOARROW_TYPE_INT32);
  cr_assert_eq(ArrowSchemaAllocateDictionary(schema.children[0]), NANOARROW_OK);
  ArrowSchemaInit(schema.children[0]->dictionary);
  cr_assert_eq(ArrowSchemaSetType(schema.children[0]->dictionary, NANOARROW_TYPE_INT8),
               NANOARROW_OK);
  cr_assert_eq(ArrowIpcEncoderEncodeSchema(&encoder, &schema, &error), NANOARROW_OK, "%s",
               error.message);
  cr_assert_eq(ArrowIpcEncoderFinalizeBuffer(&encoder, 1, &bytes), NANOARROW_OK);

  cr_assert_eq(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT8), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendEmpty(&array, 1 << 20), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK);
  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT8);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK);
  for (i = 0; i <= n_deltas; i++) {
    cr_assert_eq(ArrowIpcEncoderEncodeDictionaryBatch(&encoder, 0, (char)(i > 0), &view,
                                                      &body, &error),
                 NANOARROW_OK, "%s", error.message);
    AppendMessage(&encoder, &body, &bytes);
  }
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);

  cr_assert_eq(ArrowArrayInitFromSchema(&array, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayAppendInt(array.children[0], 0), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishElement(&array), NANOARROW_OK);
  cr_assert_eq(ArrowArrayFinishBuildingDefault(&array, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewInitFromSchema(&view, &schema, &error), NANOARROW_OK);
  cr_assert_eq(ArrowArrayViewSetArray(&view, &array, &error), NANOARROW_OK);
  cr_assert_eq(ArrowIpcEncoderEncodeSimpleRecordBatch(&encoder, &view, &body, &error),
               NANOARROW_OK, "%s", error.message);
  AppendMessage(&encoder, &body, &bytes);
  cr_assert_eq(ArrowBufferAppend(&bytes, end_of_stream, sizeof(end_of_stream)),
               NANOARROW_OK);
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);

  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  file = fopen(path, "wb");
  cr_assert_not_null(file);
  cr_assert_eq(fwrite(bytes.data, 1, (size_t)bytes.size_bytes, file), (size_t)bytes.size_bytes);
  cr_assert_eq(fclose(file), 0);
  ArrowBufferReset(&bytes);
  ArrowBufferReset(&body);
  ArrowSchemaRelease(&schema);
  ArrowIpcEncoderReset(&encoder);
  return 1;
}

Test(cli_pipe, the_held_bytes_budget_applies_from_a_pipe) {
  char path[512];
  char* out;
  /* A few KB that would make the reader hold 25 MiB of dictionary: over the
   * default budget (64 x the bytes read + 16 MiB). */
  if (!WriteGrowingDictionary("grows.stream", 24)) cr_skip_test("built without ZSTD");
  snprintf(path, sizeof(path), "%s/grows.stream", g_dir);
  ExpectPipeMatchesFile(path, "validate %s");
  ExpectStderrLine("dictionary id 0: the reader would hold ");
  /* Fewer deltas stay within it and read, from a pipe as from the file. */
  cr_assert(WriteGrowingDictionary("small.stream", 4));
  snprintf(path, sizeof(path), "%s/small.stream", g_dir);
  ExpectPipeMatchesFile(path, "validate %s");
  out = Slurp("out");
  cr_assert_str_eq(out, "valid stream: 1 batches, 1 rows\n");
  free(out);
}
