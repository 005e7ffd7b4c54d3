/* Uses the single-file bundle copied from dist/: no build system, no install,
 * just `cc main.c nanoarrow.c`. See build.sh. */
#include <stdio.h>

#include "nanoarrow.h"

int main(void) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  struct ArrowArrayView view;
  char description[64];
  int64_t i;

  if (ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT64) != NANOARROW_OK) return 1;
  if (ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT64) != NANOARROW_OK) {
    ArrowSchemaRelease(&schema);
    return 1;
  }
  /* Squares 0..4, then validate while finishing. */
  for (i = 0; i < 5; i++) {
    if (ArrowArrayAppendInt(&array, i * i) != NANOARROW_OK) goto fail;
  }
  if (ArrowArrayFinishBuildingDefault(&array, NULL) != NANOARROW_OK) goto fail;

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT64);
  if (ArrowArrayViewSetArray(&view, &array, NULL) != NANOARROW_OK) {
    ArrowArrayViewReset(&view);
    goto fail;
  }
  ArrowSchemaToString(&schema, description, (int64_t)sizeof(description), 0);
  printf("nanoarrow %s (bundled), %s:", ArrowNanoarrowVersion(), description);
  for (i = 0; i < view.length; i++) {
    printf(" %ld", (long)ArrowArrayViewGetIntUnsafe(&view, i));
  }
  printf("\n");
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  return 0;

fail:
  ArrowArrayRelease(&array);
  ArrowSchemaRelease(&schema);
  return 1;
}
