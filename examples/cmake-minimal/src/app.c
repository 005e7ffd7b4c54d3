#include <stdio.h>

#include "library.h"

int main(int argc, char** argv) {
  int64_t length = 0;
  int64_t sum = 0;
  if (example_parse_int32(argc - 1, argv + 1, &length, &sum) != 0) {
    fprintf(stderr, "error: %s\n", example_last_error());
    return 1;
  }
  printf("nanoarrow %s: int32 array of length %ld, sum %ld\n", example_nanoarrow_version(),
         (long)length, (long)sum);
  return 0;
}
