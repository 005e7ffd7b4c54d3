/* Downstream smoke test: builds against an installed nanoarrow. */
#include <stdio.h>
#include <string.h>

#include <nanoarrow/nanoarrow.h>

int main(void) {
  struct ArrowSchema schema;
  int code = ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32);
  if (code != NANOARROW_OK) {
    fprintf(stderr, "ArrowSchemaInitFromType() failed with code %d\n", code);
    return 1;
  }

  if (schema.format == NULL || strcmp(schema.format, "i") != 0) {
    fprintf(stderr, "unexpected format string for int32: '%s'\n",
            schema.format == NULL ? "(null)" : schema.format);
    schema.release(&schema);
    return 1;
  }

  schema.release(&schema);
  if (schema.release != NULL) {
    fprintf(stderr, "release callback did not mark the schema released\n");
    return 1;
  }

  printf("consumer OK: nanoarrow %s (%d)\n", NANOARROW_VERSION, NANOARROW_VERSION_INT);
  return 0;
}
