/* The conformance suite: every case of arrow-testing's IPC integration folders.
 *
 * For each <case>.json.gz with its <case>.stream and <case>.arrow_file:
 *   - the IPC stream and the IPC file (read with the stream reader and with the
 *     random-access file reader) equal the JSON, value by value (dictionaries
 *     compared through their decoded values);
 *   - JSON -> integration JSON text -> JSON round-trips;
 *   - JSON -> IPC stream -> JSON and JSON -> IPC file -> JSON round-trip;
 *   - IPC stream -> integration JSON -> equals the original JSON (ARROW_TO_JSON);
 *   - VALIDATE mode (the archery entry point) passes for the stream and the file.
 * A case is skipped only when it needs a codec this build lacks. */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"
#include "nanoarrow/nanoarrow_testing.h"

#include "cli/cli.h"

#define INTEGRATION_DIR NANOARROW_TEST_DATA_DIR "/arrow-ipc-stream/integration"

struct Tally {
  int passed;
  int failed;
  int skipped;
};

static int ReadWhole(const char* path, struct ArrowBuffer* out, struct ArrowError* error) {
  return ArrowTestingReadFile(path, CLI_MAX_INPUT_BYTES, out, error);
}

static int OpenCopy(const struct ArrowBuffer* data, enum CliFormat format,
                    struct ArrowArrayStream* out, struct ArrowError* error) {
  struct ArrowBuffer copy;
  ArrowBufferInit(&copy);
  if (ArrowBufferAppend(&copy, data->data, data->size_bytes) != NANOARROW_OK) return ENOMEM;
  return CliOpenBuffer(&copy, format, out, NULL, error);
}

/* Compares the stream in `actual_data` (format) with the JSON. */
static int CheckEqual(const char* what, const struct ArrowBuffer* actual_data,
                      enum CliFormat format, const struct ArrowBuffer* json,
                      char* failure, size_t failure_size) {
  struct ArrowArrayStream actual;
  struct ArrowArrayStream expected;
  struct ArrowError error;
  int equal = 0;
  int rc;

  error.message[0] = '\0';
  rc = OpenCopy(actual_data, format, &actual, &error);
  if (rc != NANOARROW_OK) {
    snprintf(failure, failure_size, "%s: open: %s", what, error.message);
    return 0;
  }
  rc = OpenCopy(json, CLI_FORMAT_JSON, &expected, &error);
  if (rc != NANOARROW_OK) {
    ArrowArrayStreamRelease(&actual);
    snprintf(failure, failure_size, "%s: JSON: %s", what, error.message);
    return 0;
  }
  rc = ArrowTestingCompareStreams(&actual, &expected, &equal, &error);
  ArrowArrayStreamRelease(&actual);
  ArrowArrayStreamRelease(&expected);
  if (rc != NANOARROW_OK || !equal) {
    snprintf(failure, failure_size, "%s: %s", what, error.message);
    return 0;
  }
  return 1;
}

/* Converts `data` (format from) to format `to` into out. */
static int Convert(const struct ArrowBuffer* data, enum CliFormat from, enum CliFormat to,
                   struct ArrowBuffer* out, struct ArrowError* error) {
  struct ArrowArrayStream in;
  int rc = OpenCopy(data, from, &in, error);
  if (rc != NANOARROW_OK) return rc;
  ArrowBufferInit(out);
  rc = CliWriteStream(&in, to, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                      NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, out, NULL, NULL, error);
  ArrowArrayStreamRelease(&in);
  if (rc != NANOARROW_OK) ArrowBufferReset(out);
  return rc;
}

/* A round trip JSON -> `via` -> compared with JSON. */
static int CheckRoundTrip(const char* what, const struct ArrowBuffer* json,
                          enum CliFormat via, char* failure, size_t failure_size) {
  struct ArrowBuffer converted;
  struct ArrowError error;
  int ok;
  error.message[0] = '\0';
  if (Convert(json, CLI_FORMAT_JSON, via, &converted, &error) != NANOARROW_OK) {
    snprintf(failure, failure_size, "%s: write: %s", what, error.message);
    return 0;
  }
  ok = CheckEqual(what, &converted, via, json, failure, failure_size);
  ArrowBufferReset(&converted);
  return ok;
}

/* IPC -> JSON text, which must equal the original JSON. */
static int CheckArrowToJson(const struct ArrowBuffer* ipc, const struct ArrowBuffer* json,
                            char* failure, size_t failure_size) {
  struct ArrowBuffer converted;
  struct ArrowError error;
  int ok;
  error.message[0] = '\0';
  if (Convert(ipc, CLI_FORMAT_STREAM, CLI_FORMAT_JSON, &converted, &error) != NANOARROW_OK) {
    snprintf(failure, failure_size, "stream -> JSON: %s", error.message);
    return 0;
  }
  ok = CheckEqual("stream -> JSON", &converted, CLI_FORMAT_JSON, json, failure, failure_size);
  ArrowBufferReset(&converted);
  return ok;
}

/* Why this build cannot run a case (NULL: it can). */
static const char* SkipReason(const char* folder, const char* name) {
  (void)folder;
  if (strstr(name, "zstd") != NULL && ArrowIpcGetZstdDecompressionFunction() == NULL) {
    return "built without ZSTD (NANOARROW_IPC_WITH_ZSTD)";
  }
  if (strstr(name, "lz4") != NULL && ArrowIpcGetLZ4DecompressionFunction() == NULL) {
    return "built without LZ4 (NANOARROW_IPC_WITH_LZ4)";
  }
  return NULL;
}

static int RunCase(const char* folder, const char* name, char* failure,
                   size_t failure_size) {
  char path[4096];
  struct ArrowBuffer json;
  struct ArrowBuffer stream;
  struct ArrowBuffer file;
  struct ArrowError error;
  int ok = 1;

  error.message[0] = '\0';
  snprintf(path, sizeof(path), "%s/%s/%s.json.gz", INTEGRATION_DIR, folder, name);
  if (ReadWhole(path, &json, &error) != NANOARROW_OK) {
    snprintf(failure, failure_size, "%s", error.message);
    return 0;
  }
  snprintf(path, sizeof(path), "%s/%s/%s.stream", INTEGRATION_DIR, folder, name);
  if (ReadWhole(path, &stream, &error) != NANOARROW_OK) {
    snprintf(failure, failure_size, "%s", error.message);
    ArrowBufferReset(&json);
    return 0;
  }
  snprintf(path, sizeof(path), "%s/%s/%s.arrow_file", INTEGRATION_DIR, folder, name);
  if (ReadWhole(path, &file, &error) != NANOARROW_OK) {
    snprintf(failure, failure_size, "%s", error.message);
    ArrowBufferReset(&json);
    ArrowBufferReset(&stream);
    return 0;
  }

  ok = ok && CheckEqual(".stream vs JSON", &stream, CLI_FORMAT_STREAM, &json, failure,
                        failure_size);
  ok = ok && CheckEqual(".arrow_file vs JSON", &file, CLI_FORMAT_FILE, &json, failure,
                        failure_size);
  ok = ok && CheckRoundTrip("JSON -> JSON", &json, CLI_FORMAT_JSON, failure, failure_size);
  ok = ok && CheckRoundTrip("JSON -> stream", &json, CLI_FORMAT_STREAM, failure, failure_size);
  ok = ok && CheckRoundTrip("JSON -> file", &json, CLI_FORMAT_FILE, failure, failure_size);
  ok = ok && CheckArrowToJson(&stream, &json, failure, failure_size);

  if (ok) {
    char json_path[4096];
    snprintf(json_path, sizeof(json_path), "%s/%s/%s.json.gz", INTEGRATION_DIR, folder, name);
    snprintf(path, sizeof(path), "%s/%s/%s.arrow_file", INTEGRATION_DIR, folder, name);
    if (CliIntegrationValidate(path, json_path, &error) != NANOARROW_OK) {
      snprintf(failure, failure_size, "VALIDATE (file): %s", error.message);
      ok = 0;
    }
    snprintf(path, sizeof(path), "%s/%s/%s.stream", INTEGRATION_DIR, folder, name);
    if (ok && CliIntegrationValidate(path, json_path, &error) != NANOARROW_OK) {
      snprintf(failure, failure_size, "VALIDATE (stream): %s", error.message);
      ok = 0;
    }
  }

  ArrowBufferReset(&json);
  ArrowBufferReset(&stream);
  ArrowBufferReset(&file);
  return ok;
}

static int CompareNames(const void* a, const void* b) {
  return strcmp(*(const char* const*)a, *(const char* const*)b);
}

/* Sorted entries of dir whose names end with suffix (suffix removed). */
static int ListNames(const char* dir, const char* suffix, int want_dirs, char*** out) {
  DIR* handle = opendir(dir);
  struct dirent* entry;
  char** names = NULL;
  int n = 0;
  size_t suffix_size = strlen(suffix);
  if (handle == NULL) return -1;
  while ((entry = readdir(handle)) != NULL) {
    size_t size = strlen(entry->d_name);
    char full[4096];
    int is_dir;
    DIR* probe;
    if (entry->d_name[0] == '.') continue;
    snprintf(full, sizeof(full), "%s/%s", dir, entry->d_name);
    probe = opendir(full);
    is_dir = probe != NULL;
    if (probe != NULL) closedir(probe);
    if (is_dir != want_dirs) continue;
    if (size < suffix_size || strcmp(entry->d_name + size - suffix_size, suffix) != 0) continue;
    names = (char**)realloc(names, (size_t)(n + 1) * sizeof(char*));
    names[n] = (char*)malloc(size - suffix_size + 1);
    memcpy(names[n], entry->d_name, size - suffix_size);
    names[n][size - suffix_size] = '\0';
    n++;
  }
  closedir(handle);
  qsort(names, (size_t)n, sizeof(char*), &CompareNames);
  *out = names;
  return n;
}

static void FreeNames(char** names, int n) {
  int i;
  for (i = 0; i < n; i++) free(names[i]);
  free(names);
}

Test(conformance, integration_cases, .timeout = 600) {
  char** folders;
  int n_folders = ListNames(INTEGRATION_DIR, "", 1, &folders);
  struct Tally total = {0, 0, 0};
  int f;

  cr_assert(n_folders > 0, "no folders under %s", INTEGRATION_DIR);
  for (f = 0; f < n_folders; f++) {
    char dir[4096];
    char** cases;
    int n_cases;
    int c;
    struct Tally tally = {0, 0, 0};
    snprintf(dir, sizeof(dir), "%s/%s", INTEGRATION_DIR, folders[f]);
    n_cases = ListNames(dir, ".json.gz", 0, &cases);
    for (c = 0; c < n_cases; c++) {
      char failure[2048];
      const char* skip = SkipReason(folders[f], cases[c]);
      failure[0] = '\0';
      if (skip != NULL) {
        tally.skipped++;
        printf("SKIP %s/%s: %s\n", folders[f], cases[c], skip);
      } else if (RunCase(folders[f], cases[c], failure, sizeof(failure))) {
        tally.passed++;
      } else {
        tally.failed++;
        printf("FAIL %s/%s: %s\n", folders[f], cases[c], failure);
      }
    }
    printf("conformance %-22s cases passed=%d failed=%d skipped=%d\n", folders[f],
           tally.passed, tally.failed, tally.skipped);
    total.passed += tally.passed;
    total.failed += tally.failed;
    total.skipped += tally.skipped;
    FreeNames(cases, n_cases);
  }
  printf("conformance TOTAL %d folders: cases passed=%d failed=%d skipped=%d\n", n_folders,
         total.passed, total.failed, total.skipped);
  fflush(stdout);
  FreeNames(folders, n_folders);
  cr_assert(total.passed > 0);
  cr_assert_eq(total.failed, 0, "%d conformance cases failed (see FAIL lines)", total.failed);
}

/* Every fuzz-regression input gives valid data or a clean error with a message,
 * through the same path as the CLI (detection, reader, FULL validation). */
static void CheckFuzzFolder(const char* folder, int* n_valid, int* n_rejected) {
  char dir[4096];
  char** names;
  int n;
  int i;
  snprintf(dir, sizeof(dir), "%s/%s", NANOARROW_TEST_DATA_DIR, folder);
  n = ListNames(dir, "", 0, &names);
  cr_assert(n > 0, "no files in %s", dir);
  for (i = 0; i < n; i++) {
    char path[8448];
    struct ArrowArrayStream stream;
    struct ArrowError error;
    int64_t n_batches;
    int64_t n_rows;
    int rc;
    if (strstr(names[i], "README") != NULL) continue;
    snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
    error.message[0] = '\0';
    rc = CliOpenInput(path, CLI_FORMAT_UNKNOWN, &stream, NULL, &error);
    if (rc == NANOARROW_OK) {
      rc = CliValidateStream(&stream, &n_batches, &n_rows, &error);
      ArrowArrayStreamRelease(&stream);
    }
    if (rc == NANOARROW_OK) {
      (*n_valid)++;
    } else {
      cr_assert(error.message[0] != '\0', "%s: error %d without a message", names[i], rc);
      (*n_rejected)++;
    }
  }
  FreeNames(names, n);
}

Test(conformance, fuzz_regressions_fail_cleanly, .timeout = 600) {
  int n_valid = 0;
  int n_rejected = 0;
  CheckFuzzFolder("arrow-ipc-stream", &n_valid, &n_rejected);
  CheckFuzzFolder("arrow-ipc-file", &n_valid, &n_rejected);
  printf("conformance fuzz regressions: %d read as valid data, %d rejected with a message\n",
         n_valid, n_rejected);
  cr_assert_gt(n_valid + n_rejected, 100);
}
