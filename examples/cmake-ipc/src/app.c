#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "library.h"

/*   example_cmake_ipc_app write N > file.arrows   writes N rows
 *   example_cmake_ipc_app read < file.arrows      prints batches, rows and sum */
int main(int argc, char** argv) {
  if (argc == 3 && strcmp(argv[1], "write") == 0) {
    if (example_write_stream(stdout, (int32_t)atoi(argv[2])) != 0) {
      fprintf(stderr, "error: %s\n", example_last_error());
      return 1;
    }
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "read") == 0) {
    int64_t batches;
    int64_t rows;
    int64_t sum;
    if (example_read_stream(stdin, &batches, &rows, &sum) != 0) {
      fprintf(stderr, "error: %s\n", example_last_error());
      return 1;
    }
    printf("%ld batches, %ld rows, sum %ld\n", (long)batches, (long)rows, (long)sum);
    return 0;
  }
  fprintf(stderr, "usage: %s write N | %s read\n", argv[0], argv[0]);
  return 2;
}
