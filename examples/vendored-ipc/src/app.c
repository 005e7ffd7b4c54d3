#include <stdio.h>
#include <string.h>

#include "library.h"

/*   example_vendored_ipc_app write > names.arrows
 *   example_vendored_ipc_app < names.arrows     (schema and batches, or the error) */
int main(int argc, char** argv) {
  int result;
  if (argc == 2 && strcmp(argv[1], "write") == 0) {
    result = example_write_names(stdout);
  } else if (argc == 1) {
    result = example_describe_stream(stdin);
  } else {
    fprintf(stderr, "usage: %s [write]\n", argv[0]);
    return 2;
  }
  if (result != 0) {
    fprintf(stderr, "error: %s\n", example_last_error());
    return 1;
  }
  return 0;
}
