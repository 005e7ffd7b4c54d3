/* Build an int32 array with a null, read it back through an ArrowArrayView and
 * print its values and their sum. */
#include <stdio.h>

#include "nanoarrow/nanoarrow.h"

static int Run(void) {
  struct ArrowError error;
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  char description[128];
  int64_t sum = 0;
  int64_t i;
  int result = 1;

  ArrowErrorInit(&error);
  if (ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32) != NANOARROW_OK) {
    fprintf(stderr, "could not create the schema\n");
    return 1;
  }
  if (ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32) != NANOARROW_OK) {
    fprintf(stderr, "could not create the array\n");
    ArrowSchemaRelease(&schema);
    return 1;
  }

  if (ArrowArrayStartAppending(&array) != NANOARROW_OK ||
      ArrowArrayAppendInt(&array, 1) != NANOARROW_OK ||
      ArrowArrayAppendInt(&array, 2) != NANOARROW_OK ||
      ArrowArrayAppendNull(&array, 1) != NANOARROW_OK ||
      ArrowArrayAppendInt(&array, 40) != NANOARROW_OK ||
      ArrowArrayFinishBuildingDefault(&array, &error) != NANOARROW_OK) {
    fprintf(stderr, "building the array failed: %s\n", ArrowErrorMessage(&error));
    goto release_array;
  }

  ArrowSchemaToString(&schema, description, (int64_t)sizeof(description), 1);
  printf("schema: %s\n", description);
  printf("length: %ld, null count: %ld\n", (long)array.length, (long)array.null_count);

  if (ArrowArrayViewInitFromSchema(&view, &schema, &error) != NANOARROW_OK) {
    fprintf(stderr, "could not create the view: %s\n", ArrowErrorMessage(&error));
    goto release_array;
  }
  if (ArrowArrayViewSetArray(&view, &array, &error) != NANOARROW_OK) {
    fprintf(stderr, "the array is not valid: %s\n", ArrowErrorMessage(&error));
    goto reset_view;
  }

  for (i = 0; i < view.length; i++) {
    if (ArrowArrayViewIsNull(&view, i)) {
      printf("  [%ld] null\n", (long)i);
    } else {
      int64_t value = ArrowArrayViewGetIntUnsafe(&view, i);
      printf("  [%ld] %ld\n", (long)i, (long)value);
      sum += value;
    }
  }
  printf("sum of non-null values: %ld\n", (long)sum);
  result = sum == 43 ? 0 : 1;

reset_view:
  ArrowArrayViewReset(&view);
release_array:
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  return result;
}

int main(void) {
  printf("nanoarrow %s\n", NANOARROW_VERSION);
  return Run();
}
