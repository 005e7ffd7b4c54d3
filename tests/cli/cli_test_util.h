/* What the CLI tests share (include after defining _POSIX_C_SOURCE 200809L and
 * _DEFAULT_SOURCE, for forkpty and wait4): a scratch directory per test, running the tool with
 * its output in files, and reading them back. Included by each tests/cli/test_*.c
 * (static functions: each test executable has its own copy). */

#ifndef NANOARROW_TESTS_CLI_TEST_UTIL_H_INCLUDED
#define NANOARROW_TESTS_CLI_TEST_UTIL_H_INCLUDED

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pty.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

static char g_dir[256];

static inline void MakeDir(void) {
  snprintf(g_dir, sizeof(g_dir), "/tmp/nanoarrow_cli_test_XXXXXX");
  cr_assert_not_null(mkdtemp(g_dir));
}

static inline void RemoveDir(void) {
  char command[512];
  snprintf(command, sizeof(command), "rm -rf '%s'", g_dir);
  cr_assert_eq(system(command), 0);
}


/* Runs a shell command line; stdout and stderr go to files in g_dir. */
static inline int Run(const char* format, ...) {
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
static inline char* Slurp(const char* name) {
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

static inline int CountLines(const char* text) {
  int n = 0;
  for (; *text != '\0'; text++) n += *text == '\n';
  return n;
}

/* A usage error: the message, then the synopsis. */
static inline void ExpectUsageError(const char* needle) {
  char* err = Slurp("err");
  char* newline = strchr(err, '\n');
  cr_assert_eq(CountLines(err), 2, "stderr is not two lines: %s", err);
  cr_assert_not_null(newline);
  *newline = '\0';
  cr_assert(strstr(err, needle) != NULL, "'%s' not in stderr's first line: %s", needle, err);
  cr_assert(strncmp(newline + 1, "usage: nanoarrow ", 17) == 0, "%s", newline + 1);
  free(err);
}

static inline void ExpectStderrLine(const char* needle) {
  char* err = Slurp("err");
  cr_assert_eq(CountLines(err), 1, "stderr is not one line: %s", err);
  cr_assert(strstr(err, needle) != NULL, "'%s' not in stderr: %s", needle, err);
  free(err);
}

/* Runs the CLI with args on a pseudo-terminal; returns its exit status and puts
 * what it wrote (at most size - 1 bytes, carriage returns dropped) in out. */
static inline int RunOnTerminal(const char* const* args, char* out, size_t size, long* max_rss_kb) {
  const char* argv[16];
  struct rusage usage;
  size_t used = 0;
  int status;
  int master;
  int n = 0;
  pid_t pid;

  argv[n++] = NANOARROW_CLI_PATH;
  while (args[n - 1] != NULL && n < 15) {
    argv[n] = args[n - 1];
    n++;
  }
  argv[n] = NULL;
  fflush(NULL);
  pid = forkpty(&master, NULL, NULL, NULL);
  cr_assert(pid >= 0, "forkpty: %s", strerror(errno));
  if (pid == 0) {
    execv(argv[0], (char* const*)argv);
    _exit(127);
  }
  for (;;) {
    char chunk[4096];
    ssize_t k;
    ssize_t i;
    k = read(master, chunk, sizeof(chunk));
    if (k < 0 && errno == EINTR) continue;
    /* EIO once the child has closed its side. */
    if (k <= 0) break;
    for (i = 0; i < k; i++) {
      if (chunk[i] != '\r' && used + 1 < size) out[used++] = chunk[i];
    }
  }
  out[used] = '\0';
  close(master);
  cr_assert_eq(wait4(pid, &status, 0, &usage), pid);
  if (max_rss_kb != NULL) *max_rss_kb = usage.ru_maxrss;
  cr_assert(WIFEXITED(status));
  return WEXITSTATUS(status);
}

#endif /* NANOARROW_TESTS_CLI_TEST_UTIL_H_INCLUDED */
