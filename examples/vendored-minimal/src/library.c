/* The flat layout: nanoarrow.h and nanoarrow.c copied next to this file. */
#include <stdio.h>

#include "nanoarrow.h"

#include "library.h"

static struct ArrowError last_error;

const char* example_last_error(void) { return ArrowErrorMessage(&last_error); }

int example_print_strings(int n, char** values) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  char schema_text[128];
  int64_t i;
  int result;

  ArrowErrorInit(&last_error);
  NANOARROW_RETURN_NOT_OK(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_STRING));
  result = ArrowArrayInitFromSchema(&array, &schema, &last_error);
  if (result != NANOARROW_OK) {
    ArrowSchemaRelease(&schema);
    return result;
  }
  result = ArrowArrayStartAppending(&array);
  for (i = 0; i < n && result == NANOARROW_OK; i++) {
    result = ArrowArrayAppendString(&array, ArrowCharView(values[i]));
  }
  if (result == NANOARROW_OK) result = ArrowArrayFinishBuildingDefault(&array, &last_error);
  if (result == NANOARROW_OK) {
    result = ArrowArrayViewInitFromSchema(&view, &schema, &last_error);
    if (result == NANOARROW_OK) {
      result = ArrowArrayViewSetArray(&view, &array, &last_error);
      for (i = 0; result == NANOARROW_OK && i < view.length; i++) {
        struct ArrowStringView item = ArrowArrayViewGetStringUnsafe(&view, i);
        printf("%ld: %.*s\n", (long)i, (int)item.size_bytes, item.data);
      }
      ArrowArrayViewReset(&view);
    }
  }
  if (result == NANOARROW_OK) {
    ArrowSchemaToString(&schema, schema_text, sizeof(schema_text), 1);
    printf("%s, %ld elements\n", schema_text, (long)array.length);
  }
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  return result;
}
