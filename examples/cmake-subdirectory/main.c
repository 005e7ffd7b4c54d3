/* Built together with nanoarrow (add_subdirectory or FetchContent) under the
 * symbol namespace ExampleApp. */
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"

#define EXAMPLE_STR_IMPL(x) #x
#define EXAMPLE_STR(x) EXAMPLE_STR_IMPL(x)

int main(void) {
  struct ArrowSchema schema;
  struct ArrowSchemaView schema_view;
  struct ArrowError error;

  if (ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_FLOAT) != NANOARROW_OK) return 1;
  if (ArrowSchemaViewInit(&schema_view, &schema, &error) != NANOARROW_OK) {
    fprintf(stderr, "%s\n", ArrowErrorMessage(&error));
    ArrowSchemaRelease(&schema);
    return 1;
  }
  printf("nanoarrow %s as a subproject: format '%s' is %s; ArrowSchemaInit links as %s\n",
         NANOARROW_VERSION, schema.format, ArrowTypeString(schema_view.type),
         EXAMPLE_STR(ArrowSchemaInit));
  ArrowSchemaRelease(&schema);
  return strcmp(EXAMPLE_STR(ArrowSchemaInit), "ExampleAppArrowSchemaInit") == 0 ? 0 : 1;
}
