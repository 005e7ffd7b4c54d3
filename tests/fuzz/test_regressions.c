/* Replays every input kept in fuzz/regressions/<harness>/ (each once crashed,
 * hung or misled a harness) through that harness's own entry point, built here
 * without libFuzzer: the test fails (crashes) if any of them misbehaves again.
 * NANOARROW_FUZZ_REGRESSIONS_DIR overrides where the inputs are looked for. */

#define _POSIX_C_SOURCE 200809L /* fmemopen in the file harness */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#define LLVMFuzzerTestOneInput FuzzIpcStreamOne
#include "../../fuzz/ipc_stream_fuzzer.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput FuzzIpcFileOne
#include "../../fuzz/ipc_file_fuzzer.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput FuzzIpcProjectedFileOne
#include "../../fuzz/ipc_projected_file_fuzzer.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput FuzzIpcDecoderOne
#include "../../fuzz/ipc_decoder_fuzzer.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput FuzzIpcPushOne
#include "../../fuzz/ipc_push_fuzzer.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput FuzzSchemaViewOne
#include "../../fuzz/schema_view_fuzzer.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput FuzzMetadataOne
#include "../../fuzz/metadata_fuzzer.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput FuzzArrayViewOne
#include "../../fuzz/array_view_fuzzer.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput FuzzIpcMmapOne
#include "../../fuzz/ipc_mmap_fuzzer.c"
#undef LLVMFuzzerTestOneInput

typedef int (*FuzzEntryPoint)(const uint8_t* data, size_t size);

/* fuzz/regressions, found next to this file (CMake compiles it by absolute path). */
static void RegressionsDir(char* out, size_t size) {
  const char* from_env = getenv("NANOARROW_FUZZ_REGRESSIONS_DIR");
  const char* slash;
  if (from_env != NULL && from_env[0] != '\0') {
    snprintf(out, size, "%s", from_env);
    return;
  }
  slash = strrchr(__FILE__, '/');
  if (slash == NULL) {
    snprintf(out, size, "../../fuzz/regressions");
  } else {
    snprintf(out, size, "%.*s/../../fuzz/regressions", (int)(slash - __FILE__), __FILE__);
  }
}

static int ReadInput(const char* path, uint8_t** data_out, size_t* size_out) {
  FILE* file = fopen(path, "rb");
  long size;
  uint8_t* data;
  if (file == NULL) return EIO;
  if (fseek(file, 0, SEEK_END) != 0 || (size = ftell(file)) < 0 ||
      fseek(file, 0, SEEK_SET) != 0) {
    fclose(file);
    return EIO;
  }
  /* An exact-size heap block, so ASan sees any read past the input. */
  data = (uint8_t*)malloc(size > 0 ? (size_t)size : 1);
  if (data == NULL || fread(data, 1, (size_t)size, file) != (size_t)size) {
    free(data);
    fclose(file);
    return EIO;
  }
  fclose(file);
  *data_out = data;
  *size_out = (size_t)size;
  return NANOARROW_OK;
}

/* Replays every file of fuzz/regressions/<harness>/; returns how many. */
static int ReplayHarness(const char* harness, FuzzEntryPoint entry_point) {
  char dir_path[1024];
  char path[2048];
  DIR* dir;
  struct dirent* entry;
  int n_inputs = 0;
  RegressionsDir(dir_path, sizeof(dir_path));
  snprintf(dir_path + strlen(dir_path), sizeof(dir_path) - strlen(dir_path), "/%s", harness);
  dir = opendir(dir_path);
  if (dir == NULL) return 0; /* nothing ever crashed this harness */
  while ((entry = readdir(dir)) != NULL) {
    uint8_t* data;
    size_t size;
    if (entry->d_name[0] == '.') continue;
    snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
    cr_assert_eq(ReadInput(path, &data, &size), NANOARROW_OK, "cannot read %s", path);
    cr_log_info("replaying %s", path);
    cr_assert_eq(entry_point(data, size), 0);
    free(data);
    n_inputs++;
  }
  closedir(dir);
  return n_inputs;
}

Test(fuzz_regressions, ipc_stream_fuzzer) {
  cr_assert_gt(ReplayHarness("ipc_stream_fuzzer", &FuzzIpcStreamOne), 0);
}

Test(fuzz_regressions, ipc_file_fuzzer) {
  ReplayHarness("ipc_file_fuzzer", &FuzzIpcFileOne);
}

Test(fuzz_regressions, ipc_projected_file_fuzzer) {
  ReplayHarness("ipc_projected_file_fuzzer", &FuzzIpcProjectedFileOne);
}

Test(fuzz_regressions, ipc_decoder_fuzzer) {
  ReplayHarness("ipc_decoder_fuzzer", &FuzzIpcDecoderOne);
}

Test(fuzz_regressions, ipc_push_fuzzer) {
  ReplayHarness("ipc_push_fuzzer", &FuzzIpcPushOne);
}

Test(fuzz_regressions, schema_view_fuzzer) {
  ReplayHarness("schema_view_fuzzer", &FuzzSchemaViewOne);
}

Test(fuzz_regressions, metadata_fuzzer) {
  ReplayHarness("metadata_fuzzer", &FuzzMetadataOne);
}

Test(fuzz_regressions, array_view_fuzzer) {
  ReplayHarness("array_view_fuzzer", &FuzzArrayViewOne);
}

Test(fuzz_regressions, ipc_mmap_fuzzer) {
  ReplayHarness("ipc_mmap_fuzzer", &FuzzIpcMmapOne);
}

/* The arrow-testing fuzz regressions (inputs that once broke Arrow C++) through
 * the same harnesses: each must be refused or read cleanly. */
static void ReplayFolder(const char* folder, FuzzEntryPoint entry_point) {
  char dir_path[1024];
  char path[2048];
  DIR* dir;
  struct dirent* entry;
  int n_inputs = 0;
  snprintf(dir_path, sizeof(dir_path), "%s/%s", NANOARROW_TEST_DATA_DIR, folder);
  dir = opendir(dir_path);
  cr_assert_not_null(dir, "cannot open %s", dir_path);
  while ((entry = readdir(dir)) != NULL) {
    uint8_t* data;
    size_t size;
    if (strncmp(entry->d_name, "clusterfuzz", 11) != 0) continue;
    snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
    cr_assert_eq(ReadInput(path, &data, &size), NANOARROW_OK, "cannot read %s", path);
    cr_assert_eq(entry_point(data, size), 0);
    free(data);
    n_inputs++;
  }
  closedir(dir);
  cr_assert_gt(n_inputs, 0);
}

Test(fuzz_regressions, arrow_testing_streams) {
  ReplayFolder("arrow-ipc-stream", &FuzzIpcStreamOne);
  ReplayFolder("arrow-ipc-stream", &FuzzIpcDecoderOne);
  ReplayFolder("arrow-ipc-stream", &FuzzIpcPushOne);
}

Test(fuzz_regressions, arrow_testing_files) {
  ReplayFolder("arrow-ipc-file", &FuzzIpcFileOne);
}
