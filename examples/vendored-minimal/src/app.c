#include <stdio.h>

#include "library.h"

int main(int argc, char** argv) {
  if (example_print_strings(argc - 1, argv + 1) != 0) {
    fprintf(stderr, "error: %s\n", example_last_error());
    return 1;
  }
  return 0;
}
