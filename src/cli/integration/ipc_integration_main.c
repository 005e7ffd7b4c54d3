/* nanoarrow_ipc_integration: the IPC driver Arrow's integration harness (archery)
 * runs for nanoarrow, configured through the environment:
 *   COMMAND=VALIDATE        ARROW_PATH (IPC file) must equal JSON_PATH
 *   COMMAND=JSON_TO_ARROW   JSON_PATH written as an IPC file to ARROW_PATH
 *   COMMAND=STREAM_TO_FILE  IPC stream on stdin written as an IPC file to ARROW_PATH
 *   COMMAND=FILE_TO_STREAM  IPC file ARROW_PATH written as an IPC stream to stdout
 * ARROW_PATH defaults to "-" (stdin/stdout). Errors: one line on stderr, exit 1. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#include "cli/cli.h"

int main(void) {
  const char* command = getenv("COMMAND");
  const char* arrow_path = getenv("ARROW_PATH");
  const char* json_path = getenv("JSON_PATH");
  struct ArrowError error;
  ArrowErrorCode rc;

  error.message[0] = '\0';
  if (arrow_path == NULL || arrow_path[0] == '\0') arrow_path = "-";
  if (command == NULL) {
    fprintf(stderr,
            "nanoarrow_ipc_integration: set COMMAND to VALIDATE, JSON_TO_ARROW, "
            "STREAM_TO_FILE or FILE_TO_STREAM (with ARROW_PATH and JSON_PATH)\n");
    return 2;
  }
  if ((strcmp(command, "VALIDATE") == 0 || strcmp(command, "JSON_TO_ARROW") == 0) &&
      (json_path == NULL || json_path[0] == '\0')) {
    fprintf(stderr, "nanoarrow_ipc_integration: %s needs JSON_PATH\n", command);
    return 2;
  }

  if (strcmp(command, "VALIDATE") == 0) {
    rc = CliIntegrationValidate(arrow_path, json_path, &error);
  } else if (strcmp(command, "JSON_TO_ARROW") == 0) {
    rc = CliIntegrationJsonToArrow(json_path, arrow_path, &error);
  } else if (strcmp(command, "STREAM_TO_FILE") == 0) {
    rc = CliIntegrationConvert("-", CLI_FORMAT_FILE, arrow_path, &error);
  } else if (strcmp(command, "FILE_TO_STREAM") == 0) {
    rc = CliIntegrationConvert(arrow_path, CLI_FORMAT_STREAM, "-", &error);
  } else {
    fprintf(stderr, "nanoarrow_ipc_integration: unknown COMMAND '%s'\n", command);
    return 2;
  }

  if (rc != NANOARROW_OK) {
    size_t i;
    for (i = 0; error.message[i] != '\0'; i++) {
      if (error.message[i] == '\n') error.message[i] = ' ';
    }
    fprintf(stderr, "nanoarrow_ipc_integration %s: %s\n", command, error.message);
    return 1;
  }
  return 0;
}
