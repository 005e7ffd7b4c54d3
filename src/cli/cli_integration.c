/* The modes Arrow's integration harness (archery) drives implementations with. */

#include <errno.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_testing.h"

#include "cli/cli.h"

ArrowErrorCode CliIntegrationValidate(const char* arrow_path, const char* json_path,
                                      struct ArrowError* error) {
  struct ArrowArrayStream actual;
  struct ArrowArrayStream expected;
  int equal = 0;
  ArrowErrorCode rc;

  rc = CliOpenInput(arrow_path, CLI_FORMAT_UNKNOWN, &actual, NULL, error);
  if (rc != NANOARROW_OK) return rc;
  rc = CliOpenInput(json_path, CLI_FORMAT_JSON, &expected, NULL, error);
  if (rc != NANOARROW_OK) {
    ArrowArrayStreamRelease(&actual);
    return rc;
  }
  rc = ArrowTestingCompareStreams(&actual, &expected, &equal, error);
  ArrowArrayStreamRelease(&actual);
  ArrowArrayStreamRelease(&expected);
  if (rc == NANOARROW_OK && !equal) rc = EINVAL;
  return rc;
}

static ArrowErrorCode CliIntegrationWrite(const char* input_path, enum CliFormat from,
                                          enum CliFormat to, const char* output_path,
                                          struct ArrowError* error) {
  struct ArrowArrayStream in;
  struct ArrowBuffer out;
  ArrowErrorCode rc;

  NANOARROW_RETURN_NOT_OK(CliOpenInput(input_path, from, &in, NULL, error));
  if (strcmp(output_path, "-") != 0) {
    /* Whole or not at all (a temporary file renamed on success). */
    rc = CliWriteStreamToPath(&in, to, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                              NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, output_path,
                              NULL, NULL, error);
    ArrowArrayStreamRelease(&in);
    return rc;
  }
  ArrowBufferInit(&out);
  rc = CliWriteStream(&in, to, NANOARROW_IPC_COMPRESSION_TYPE_NONE,
                      NANOARROW_IPC_COMPRESSION_LEVEL_DEFAULT, &out, NULL, NULL, error);
  ArrowArrayStreamRelease(&in);
  if (rc == NANOARROW_OK) rc = CliWriteFile(output_path, &out, error);
  ArrowBufferReset(&out);
  return rc;
}

ArrowErrorCode CliIntegrationJsonToArrow(const char* json_path, const char* arrow_path,
                                         struct ArrowError* error) {
  return CliIntegrationWrite(json_path, CLI_FORMAT_JSON, CLI_FORMAT_FILE, arrow_path, error);
}

ArrowErrorCode CliIntegrationArrowToJson(const char* arrow_path, const char* json_path,
                                         struct ArrowError* error) {
  return CliIntegrationWrite(arrow_path, CLI_FORMAT_UNKNOWN, CLI_FORMAT_JSON, json_path,
                             error);
}

ArrowErrorCode CliIntegrationConvert(const char* input_path, enum CliFormat to,
                                     const char* output_path, struct ArrowError* error) {
  enum CliFormat from = to == CLI_FORMAT_FILE ? CLI_FORMAT_STREAM : CLI_FORMAT_FILE;
  return CliIntegrationWrite(input_path, from, to, output_path, error);
}
