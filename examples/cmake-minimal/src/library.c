#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "nanoarrow/nanoarrow.h"

#include "library.h"

static struct ArrowError last_error;

const char* example_last_error(void) { return ArrowErrorMessage(&last_error); }

const char* example_nanoarrow_version(void) { return ArrowNanoarrowVersion(); }

int example_parse_int32(int n, char** values, int64_t* length_out, int64_t* sum_out) {
  struct ArrowArray array;
  struct ArrowArrayView view;
  int i;
  int64_t j;
  int result;

  ArrowErrorInit(&last_error);
  NANOARROW_RETURN_NOT_OK(ArrowArrayInitFromType(&array, NANOARROW_TYPE_INT32));
  result = ArrowArrayStartAppending(&array);
  for (i = 0; i < n && result == NANOARROW_OK; i++) {
    char* end = NULL;
    long value;
    errno = 0;
    value = strtol(values[i], &end, 10);
    if (errno != 0 || end == values[i] || *end != '\0' || value < INT32_MIN ||
        value > INT32_MAX) {
      ArrowErrorSet(&last_error, "argument %d ('%s') is not a 32-bit integer", i + 1,
                    values[i]);
      result = EINVAL;
    } else {
      result = ArrowArrayAppendInt(&array, value);
    }
  }
  if (result == NANOARROW_OK) {
    result = ArrowArrayFinishBuildingDefault(&array, &last_error);
  }
  if (result != NANOARROW_OK) {
    ArrowArrayRelease(&array);
    return result;
  }

  ArrowArrayViewInitFromType(&view, NANOARROW_TYPE_INT32);
  result = ArrowArrayViewSetArray(&view, &array, &last_error);
  if (result == NANOARROW_OK) {
    *length_out = view.length;
    *sum_out = 0;
    for (j = 0; j < view.length; j++) {
      *sum_out += ArrowArrayViewGetIntUnsafe(&view, j);
    }
  }
  ArrowArrayViewReset(&view);
  ArrowArrayRelease(&array);
  return result;
}
