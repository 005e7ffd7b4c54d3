/* Replays every input kept in fuzz/regressions/cli_fuzzer/ (each once crashed or
 * misled the CLI harness) through the harness's entry point, built here without
 * libFuzzer and linked with the tool's own code: the test crashes if one of them
 * misbehaves again. NANOARROW_FUZZ_REGRESSIONS_DIR overrides where the inputs are
 * looked for. */

#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#define LLVMFuzzerTestOneInput FuzzCliOne
#include "../../fuzz/cli_fuzzer.c"
#undef LLVMFuzzerTestOneInput

static void HarnessDir(char* out, size_t size) {
  const char* from_env = getenv("NANOARROW_FUZZ_REGRESSIONS_DIR");
  const char* slash = strrchr(__FILE__, '/');
  if (from_env != NULL && from_env[0] != '\0') {
    snprintf(out, size, "%s/cli_fuzzer", from_env);
  } else if (slash == NULL) {
    snprintf(out, size, "../../fuzz/regressions/cli_fuzzer");
  } else {
    snprintf(out, size, "%.*s/../../fuzz/regressions/cli_fuzzer", (int)(slash - __FILE__),
             __FILE__);
  }
}

/* The whole file in an exact-size heap block, so ASan sees a read past the input. */
static uint8_t* ReadWhole(const char* path, size_t* size_out) {
  FILE* file = fopen(path, "rb");
  uint8_t* data;
  long size;
  cr_assert_not_null(file, "cannot open %s", path);
  cr_assert_eq(fseek(file, 0, SEEK_END), 0);
  size = ftell(file);
  cr_assert_geq(size, 0);
  cr_assert_eq(fseek(file, 0, SEEK_SET), 0);
  data = (uint8_t*)malloc(size > 0 ? (size_t)size : 1);
  cr_assert_not_null(data);
  cr_assert_eq(fread(data, 1, (size_t)size, file), (size_t)size);
  fclose(file);
  *size_out = (size_t)size;
  return data;
}

Test(cli_fuzz_regressions, every_kept_input_replays_cleanly) {
  char dir_path[1024];
  char path[2048];
  struct dirent* entry;
  int n_inputs = 0;
  DIR* dir;
  HarnessDir(dir_path, sizeof(dir_path));
  dir = opendir(dir_path);
  cr_assert_not_null(dir, "cannot open %s", dir_path);
  while ((entry = readdir(dir)) != NULL) {
    uint8_t* data;
    size_t size;
    if (entry->d_name[0] == '.') continue;
    snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
    data = ReadWhole(path, &size);
    cr_log_info("replaying %s", path);
    cr_assert_eq(FuzzCliOne(data, size), 0);
    free(data);
    n_inputs++;
  }
  closedir(dir);
  cr_assert_gt(n_inputs, 0);
}
