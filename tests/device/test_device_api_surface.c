/* Compile check of the device API against nanoarrow's
 * (tests/device/api_surface_device.h): exact function types, the device type
 * constants and the members of the C Device interface structs. */

#include <stddef.h>
#include <string.h>

#include <criterion/criterion.h>

#include "common/api_surface.h"
#include "device/api_surface_device.h"

#define NA_CHECK_ENUM(NAME, VALUE) typedef char na_enum_##NAME[((NAME) == (VALUE)) ? 1 : -1];
NA_ENUM_DEVICE(NA_CHECK_ENUM)
NA_MEMBER_DEVICE(NA_CHECK_MEMBER_TYPE)
NA_CHECK_SAME_TYPE(ArrowDeviceType, int32_t, device_type)

static int64_t CountDeviceMembersOutOfOrder(void) {
  int64_t n_out_of_order = 0;
  const char* last_struct = "";
  size_t last_offset = 0;
  NA_MEMBER_DEVICE(NA_CHECK_MEMBER_ORDER)
  return n_out_of_order;
}

Test(device_api_surface, functions_have_nanoarrows_signatures) {
  NaApiFn fns[64];
  int64_t n = 0;
  int64_t i;
  NA_API_DEVICE(NA_TAKE_FUNCTION)
  cr_assert_eq(n, 21);
  for (i = 0; i < n; i++) cr_assert_not_null(fns[i], "function %ld", (long)i);
  cr_assert_eq(CountDeviceMembersOutOfOrder(), 0);
}

Test(device_api_surface, cpu_device_through_nanoarrows_types) {
  struct ArrowDevice* (*cpu)(void) = &ArrowDeviceCpu;
  struct ArrowDevice* (*resolve)(ArrowDeviceType, int64_t) = &ArrowDeviceResolve;
  cr_assert_not_null(cpu());
  cr_assert_eq(resolve(ARROW_DEVICE_CPU, 0), cpu());
  cr_assert_eq(cpu()->device_type, ARROW_DEVICE_CPU);
}
