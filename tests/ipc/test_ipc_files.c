/* Reads every IPC stream / file of arrow-testing through the public readers. */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

static int ReadWholeFile(const char* path, struct ArrowBuffer* out) {
  FILE* file = fopen(path, "rb");
  long size;
  ArrowBufferInit(out);
  if (file == NULL) return EIO;
  fseek(file, 0, SEEK_END);
  size = ftell(file);
  fseek(file, 0, SEEK_SET);
  if (ArrowBufferReserve(out, size > 0 ? size : 1) != NANOARROW_OK ||
      fread(out->data, 1, (size_t)size, file) != (size_t)size) {
    fclose(file);
    ArrowBufferReset(out);
    return EIO;
  }
  out->size_bytes = size;
  fclose(file);
  return NANOARROW_OK;
}

struct ReadResult {
  int code;
  int64_t n_batches;
  int64_t n_rows;
  char message[1100];
};

/* Drains an array stream, checking each batch against the schema (FULL). */
static void DrainStream(struct ArrowArrayStream* stream, struct ReadResult* result) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  struct ArrowError error;
  result->n_batches = 0;
  result->n_rows = 0;
  result->message[0] = '\0';
  result->code = stream->get_schema(stream, &schema);
  if (result->code != NANOARROW_OK) {
    snprintf(result->message, sizeof(result->message), "get_schema: %s",
             stream->get_last_error(stream));
    return;
  }
  result->code = ArrowArrayViewInitFromSchema(&view, &schema, &error);
  if (result->code != NANOARROW_OK) {
    snprintf(result->message, sizeof(result->message), "view: %s", error.message);
    ArrowSchemaRelease(&schema);
    return;
  }
  for (;;) {
    result->code = stream->get_next(stream, &array);
    if (result->code != NANOARROW_OK) {
      snprintf(result->message, sizeof(result->message), "get_next: %s",
               stream->get_last_error(stream));
      break;
    }
    if (array.release == NULL) break;
    result->code = ArrowArrayViewSetArray(&view, &array, &error);
    if (result->code == NANOARROW_OK) {
      result->code = ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &error);
    }
    result->n_batches++;
    result->n_rows += array.length;
    ArrowArrayRelease(&array);
    if (result->code != NANOARROW_OK) {
      snprintf(result->message, sizeof(result->message), "validate: %s", error.message);
      break;
    }
  }
  ArrowArrayViewReset(&view);
  ArrowSchemaRelease(&schema);
}

static void ReadWithStreamReader(const char* path, int from_file, int shared,
                                 struct ReadResult* result) {
  struct ArrowIpcInputStream input;
  struct ArrowArrayStream stream;
  struct ArrowIpcArrayStreamReaderOptions options;
  options.field_index = -1;
  options.use_shared_buffers = shared;
  if (from_file) {
    FILE* file = fopen(path, "rb");
    cr_assert_not_null(file, "could not open %s", path);
    cr_assert_eq(ArrowIpcInputStreamInitFile(&input, file, 1), NANOARROW_OK);
  } else {
    struct ArrowBuffer data;
    cr_assert_eq(ReadWholeFile(path, &data), NANOARROW_OK, "could not read %s", path);
    cr_assert_eq(ArrowIpcInputStreamInitBuffer(&input, &data), NANOARROW_OK);
  }
  cr_assert_eq(ArrowIpcArrayStreamReaderInit(&stream, &input, &options), NANOARROW_OK);
  DrainStream(&stream, result);
  ArrowArrayStreamRelease(&stream);
}

static int EndsWith(const char* name, const char* suffix) {
  size_t n = strlen(name);
  size_t m = strlen(suffix);
  return n >= m && strcmp(name + n - m, suffix) == 0;
}

/* Codecs this build cannot decode are expected to fail with ENOTSUP. */
static int NeedsMissingCodec(const char* path) {
  if (strstr(path, "zstd") != NULL) return ArrowIpcGetZstdDecompressionFunction() == NULL;
  if (strstr(path, "lz4") != NULL) return ArrowIpcGetLZ4DecompressionFunction() == NULL;
  return 0;
}

static void CheckIntegrationDir(const char* version, const char* suffix, int* n_files) {
  char dir_path[1024];
  char path[2048];
  DIR* dir;
  struct dirent* entry;
  snprintf(dir_path, sizeof(dir_path), "%s/arrow-ipc-stream/integration/%s",
           NANOARROW_TEST_DATA_DIR, version);
  dir = opendir(dir_path);
  cr_assert_not_null(dir, "missing %s", dir_path);
  while ((entry = readdir(dir)) != NULL) {
    struct ReadResult from_buffer;
    struct ReadResult from_file;
    struct ReadResult copied;
    if (!EndsWith(entry->d_name, suffix)) continue;
    snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
    ReadWithStreamReader(path, 0, 1, &from_buffer);
    ReadWithStreamReader(path, 1, 1, &from_file);
    ReadWithStreamReader(path, 0, 0, &copied);
    if (NeedsMissingCodec(path)) {
      cr_expect_eq(from_buffer.code, ENOTSUP, "%s: %s", path, from_buffer.message);
    } else {
      cr_expect_eq(from_buffer.code, NANOARROW_OK, "%s: %s", path, from_buffer.message);
      cr_expect_eq(from_file.code, NANOARROW_OK, "%s (FILE*): %s", path, from_file.message);
      cr_expect_eq(copied.code, NANOARROW_OK, "%s (copied): %s", path, copied.message);
      cr_expect_eq(from_file.n_batches, from_buffer.n_batches, "%s", path);
      cr_expect_eq(copied.n_rows, from_buffer.n_rows, "%s", path);
    }
    (*n_files)++;
  }
  closedir(dir);
}

static const char* kIntegrationDirs[] = {"0.14.1", "0.17.1", "1.0.0-bigendian",
                                         "1.0.0-littleendian", "2.0.0-compression",
                                         "4.0.0-shareddict", "cpp-21.0.0"};

Test(ipc_files, integration_streams) {
  int n_files = 0;
  size_t i;
  for (i = 0; i < sizeof(kIntegrationDirs) / sizeof(kIntegrationDirs[0]); i++) {
    CheckIntegrationDir(kIntegrationDirs[i], ".stream", &n_files);
  }
  cr_assert_geq(n_files, 90);
}

Test(ipc_files, integration_files_through_stream_entry_point) {
  int n_files = 0;
  size_t i;
  for (i = 0; i < sizeof(kIntegrationDirs) / sizeof(kIntegrationDirs[0]); i++) {
    CheckIntegrationDir(kIntegrationDirs[i], ".arrow_file", &n_files);
  }
  cr_assert_geq(n_files, 90);
}

Test(ipc_files, file_reader_random_access_matches_stream) {
  char stream_path[1024];
  char file_path[1024];
  struct ArrowBuffer data;
  struct ArrowIpcFileReader reader;
  struct ArrowError error;
  struct ArrowArray batch;
  struct ReadResult stream_result;
  int64_t n;
  int64_t rows = 0;
  int64_t i;
  snprintf(stream_path, sizeof(stream_path),
           "%s/arrow-ipc-stream/integration/1.0.0-littleendian/generated_primitive.stream",
           NANOARROW_TEST_DATA_DIR);
  snprintf(file_path, sizeof(file_path),
           "%s/arrow-ipc-stream/integration/1.0.0-littleendian/generated_primitive.arrow_file",
           NANOARROW_TEST_DATA_DIR);
  ReadWithStreamReader(stream_path, 0, 1, &stream_result);
  cr_assert_eq(stream_result.code, NANOARROW_OK, "%s", stream_result.message);

  cr_assert_eq(ReadWholeFile(file_path, &data), NANOARROW_OK);
  cr_assert_eq(ArrowIpcFileReaderInitBuffer(&reader, &data, &error), NANOARROW_OK, "%s",
               error.message);
  n = ArrowIpcFileReaderNumRecordBatches(&reader);
  cr_assert_eq(n, stream_result.n_batches);
  /* Backwards: each batch stands alone. */
  for (i = n - 1; i >= 0; i--) {
    cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, i, &batch,
                                             NANOARROW_VALIDATION_LEVEL_FULL, &error),
                 NANOARROW_OK, "%s", error.message);
    rows += batch.length;
    ArrowArrayRelease(&batch);
  }
  cr_assert_eq(rows, stream_result.n_rows);
  cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, n, &batch,
                                           NANOARROW_VALIDATION_LEVEL_FULL, &error),
               EINVAL);
  ArrowIpcFileReaderReset(&reader);

  {
    FILE* file = fopen(file_path, "rb");
    cr_assert_not_null(file);
    cr_assert_eq(ArrowIpcFileReaderInitFile(&reader, file, 1, &error), NANOARROW_OK, "%s",
                 error.message);
    cr_assert_eq(ArrowIpcFileReaderNumRecordBatches(&reader), n);
    if (n > 0) {
      cr_assert_eq(ArrowIpcFileReaderReadBatch(&reader, n - 1, &batch,
                                               NANOARROW_VALIDATION_LEVEL_FULL, &error),
                   NANOARROW_OK, "%s", error.message);
      ArrowArrayRelease(&batch);
    }
    ArrowIpcFileReaderReset(&reader);
  }
}

/* Every non-integration file must give an error or valid data, never a crash. */
static void CheckFuzzDir(const char* sub, int* n_files, int* n_errors) {
  char dir_path[1024];
  char path[2048];
  DIR* dir;
  struct dirent* entry;
  snprintf(dir_path, sizeof(dir_path), "%s/%s", NANOARROW_TEST_DATA_DIR, sub);
  dir = opendir(dir_path);
  cr_assert_not_null(dir, "missing %s", dir_path);
  while ((entry = readdir(dir)) != NULL) {
    struct ReadResult result;
    if (entry->d_name[0] == '.' || strcmp(entry->d_name, "integration") == 0 ||
        EndsWith(entry->d_name, ".md")) {
      continue;
    }
    snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
    ReadWithStreamReader(path, 0, 1, &result);
    *n_errors += result.code != NANOARROW_OK;
    ReadWithStreamReader(path, 1, 0, &result);
    *n_errors += result.code != NANOARROW_OK;
    (*n_files)++;
  }
  closedir(dir);
}

Test(ipc_files, fuzz_regressions_error_or_valid) {
  int n_files = 0;
  int n_errors = 0;
  CheckFuzzDir("arrow-ipc-stream", &n_files, &n_errors);
  CheckFuzzDir("arrow-ipc-file", &n_files, &n_errors);
  cr_assert_geq(n_files, 50);
  /* Almost all of these are malformed. */
  cr_assert_geq(n_errors, n_files);
}
