/* One vendored copy of nanoarrow, as seen by the code that uses it. Compiled
 * twice (COPY_PREFIX=copy_a_ with NANOARROW_NAMESPACE=NsA, COPY_PREFIX=copy_b_
 * with NsB), so main.c can drive both copies in one program. */
#include <stdint.h>

#include "nanoarrow/nanoarrow.h"

#define COPY_CAT_IMPL(a, b) a##b
#define COPY_CAT(a, b) COPY_CAT_IMPL(a, b)
#define COPY_STR_IMPL(x) #x
#define COPY_STR(x) COPY_STR_IMPL(x)

/* The link-time name this copy uses for ArrowSchemaInit. */
const char* COPY_CAT(COPY_PREFIX, schema_init_symbol)(void) {
  return COPY_STR(ArrowSchemaInit);
}

/* Exports the int32 array [first, first + 1, ..., first + n - 1]. */
int COPY_CAT(COPY_PREFIX, produce)(int32_t first, int32_t n, struct ArrowSchema* schema,
                                   struct ArrowArray* array) {
  int32_t i;
  NANOARROW_RETURN_NOT_OK(ArrowSchemaInitFromType(schema, NANOARROW_TYPE_INT32));
  if (ArrowArrayInitFromType(array, NANOARROW_TYPE_INT32) != NANOARROW_OK) {
    ArrowSchemaRelease(schema);
    return ENOMEM;
  }
  for (i = 0; i < n; i++) {
    if (ArrowArrayAppendInt(array, first + i) != NANOARROW_OK) {
      ArrowArrayRelease(array);
      ArrowSchemaRelease(schema);
      return ENOMEM;
    }
  }
  if (ArrowArrayFinishBuildingDefault(array, NULL) != NANOARROW_OK) {
    ArrowArrayRelease(array);
    ArrowSchemaRelease(schema);
    return EINVAL;
  }
  return NANOARROW_OK;
}

/* Imports an int32 array (from whichever copy made it), sums it and releases both
 * structs through their callbacks. */
int COPY_CAT(COPY_PREFIX, consume)(struct ArrowSchema* schema, struct ArrowArray* array,
                                   int64_t* sum) {
  struct ArrowArrayView view;
  struct ArrowError error;
  int64_t i;
  int code = ArrowArrayViewInitFromSchema(&view, schema, &error);
  if (code == NANOARROW_OK) {
    code = ArrowArrayViewSetArray(&view, array, &error);
    *sum = 0;
    for (i = 0; code == NANOARROW_OK && i < view.length; i++) {
      *sum += ArrowArrayViewGetIntUnsafe(&view, i);
    }
    ArrowArrayViewReset(&view);
  }
  ArrowArrayRelease(array);
  ArrowSchemaRelease(schema);
  return code;
}
