/* Compile check of the core API against nanoarrow's (tests/common/api_surface_core.h):
 * every function is taken by address into a pointer of exactly the type nanoarrow
 * declares, every listed enumerator and macro has nanoarrow's value, and every
 * public struct member has nanoarrow's type and order. A name that goes missing or
 * changes breaks the build of this file; the tests below also call a few of the
 * functions through those pointers. */

#include <stddef.h>
#include <string.h>

#include <criterion/criterion.h>

#include "common/api_surface.h"
#include "common/api_surface_core.h"

/* Enumerators and macros: a negative array size when a value differs. */
#define NA_CHECK_ENUM(NAME, VALUE) typedef char na_enum_##NAME[((NAME) == (VALUE)) ? 1 : -1];
NA_ENUM_CORE(NA_CHECK_ENUM)

/* Struct members: the type (GCC/Clang) and a strictly increasing offset. */
NA_MEMBER_CORE(NA_CHECK_MEMBER_TYPE)

static int64_t CountCoreMembersInOrder(void) {
  int64_t n_out_of_order = 0;
  const char* last_struct = "";
  size_t last_offset = 0;
  NA_MEMBER_CORE(NA_CHECK_MEMBER_ORDER)
  return n_out_of_order;
}

Test(api_surface, core_functions_have_nanoarrows_signatures) {
  NaApiFn fns[512];
  int64_t n = 0;
  int64_t i;
  NA_API_CORE(NA_TAKE_FUNCTION)
  cr_assert_gt(n, 160, "only %ld functions listed", (long)n);
  for (i = 0; i < n; i++) cr_assert_not_null(fns[i], "function %ld", (long)i);
}

Test(api_surface, core_struct_members_are_in_nanoarrows_order) {
  cr_assert_eq(CountCoreMembersInOrder(), 0);
}

Test(api_surface, pointers_of_nanoarrows_types_call_the_library) {
  ArrowErrorCode (*init_from_type)(struct ArrowSchema*, enum ArrowType) =
      &ArrowSchemaInitFromType;
  int64_t (*to_string)(const struct ArrowSchema*, char*, int64_t, char) =
      &ArrowSchemaToString;
  ArrowErrorCode (*clone)(struct ArrowBuffer*, struct ArrowBuffer*) = &ArrowSharedBufferClone;
  ArrowErrorCode (*share)(struct ArrowBuffer*, struct ArrowBuffer*) = &ArrowSharedBufferInit;
  int (*is_shared)(struct ArrowBuffer*) = &ArrowIsSharedBuffer;
  struct ArrowSchema schema;
  struct ArrowBuffer buffer;
  struct ArrowBuffer shared;
  struct ArrowBuffer copy;
  char text[64];

  cr_assert_eq(init_from_type(&schema, NANOARROW_TYPE_INT32), NANOARROW_OK);
  cr_assert_eq(to_string(&schema, text, sizeof(text), 0), 5);
  cr_assert_str_eq(text, "int32");
  ArrowSchemaRelease(&schema);

  ArrowBufferInit(&buffer);
  cr_assert_eq(ArrowBufferAppendInt32(&buffer, 42), NANOARROW_OK);
  cr_assert_eq(is_shared(&buffer), 0);
  cr_assert_eq(clone(&buffer, &copy), EINVAL);
  cr_assert_eq(share(&shared, &buffer), NANOARROW_OK);
  cr_assert_neq(is_shared(&shared), 0);
  cr_assert_eq(clone(&shared, &copy), NANOARROW_OK);
  ArrowBufferReset(&shared);
  cr_assert_eq(copy.size_bytes, 4);
  cr_assert_eq(*(const int32_t*)copy.data, 42);
  ArrowBufferReset(&copy);
}
