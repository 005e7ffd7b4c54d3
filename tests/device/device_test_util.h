/* Arrays the device tests wrap as CPU device arrays. */
#ifndef NANOARROW_TESTS_DEVICE_DEVICE_TEST_UTIL_H
#define NANOARROW_TESTS_DEVICE_DEVICE_TEST_UTIL_H

#include <stdint.h>

#include <criterion/criterion.h>

#include "nanoarrow/nanoarrow.h"

/* An int32 array of length values counting up from first. */
static inline void MakeInt32Array(struct ArrowArray* array, int32_t first, int64_t length) {
  cr_assert_eq(ArrowArrayInitFromType(array, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(ArrowArrayStartAppending(array), NANOARROW_OK);
  for (int64_t i = 0; i < length; i++) {
    cr_assert_eq(ArrowArrayAppendInt(array, first + i), NANOARROW_OK);
  }
  cr_assert_eq(ArrowArrayFinishBuildingDefault(array, NULL), NANOARROW_OK);
}

#endif
