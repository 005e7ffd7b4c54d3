/* The checks the API-surface tests apply to the lists in api_surface_*.h (see
 * tests/common/test_api_surface.c). C and C++. */

#ifndef NANOARROW_TESTS_API_SURFACE_H_INCLUDED
#define NANOARROW_TESTS_API_SURFACE_H_INCLUDED

#include <stddef.h>

typedef void (*NaApiFn)(void);

#if defined(__cplusplus)
#include <type_traits>
/* An exact function-pointer initialization: C++ converts no function-pointer type
 * into another, so any difference in the return or parameter types (const
 * included) is an error. */
#define NA_TAKE_FUNCTION(RET, NAME, PARAMS)                                        \
  {                                                                                \
    RET(*typed) PARAMS = &NAME;                                                    \
    fns[n++] = reinterpret_cast<NaApiFn>(typed);                                   \
  }
#define NA_CHECK_MEMBER_TYPE(STRUCT, MEMBER, TYPE)                                     \
  static_assert(std::is_same<decltype(((struct STRUCT*)0)->MEMBER), TYPE>::value,     \
                #STRUCT "::" #MEMBER);
#else
/* C converts between some function-pointer types with only a warning: with GCC and
 * Clang the types are compared as well, as an array size that is negative when
 * they differ. */
#if defined(__GNUC__)
#define NA_SAME_FUNCTION_TYPE(NAME, RET, PARAMS) \
  __builtin_types_compatible_p(__typeof__(&NAME), RET(*) PARAMS)
#define NA_CHECK_MEMBER_TYPE(STRUCT, MEMBER, TYPE)                                     \
  typedef char na_member_##STRUCT##_##MEMBER                                           \
      [__builtin_types_compatible_p(__typeof__(((struct STRUCT*)0)->MEMBER), TYPE) ? 1 \
                                                                                   : -1];
#else
#define NA_SAME_FUNCTION_TYPE(NAME, RET, PARAMS) 1
#define NA_CHECK_MEMBER_TYPE(STRUCT, MEMBER, TYPE)
#endif
#define NA_TAKE_FUNCTION(RET, NAME, PARAMS)                                        \
  {                                                                                \
    RET(*typed) PARAMS = &NAME;                                                    \
    typedef char same_type[NA_SAME_FUNCTION_TYPE(NAME, RET, PARAMS) ? 1 : -1];     \
    (void)sizeof(same_type);                                                       \
    fns[n++] = (NaApiFn)typed;                                                     \
  }
#endif

/* Two types are the same (typedefs of function types, for instance). */
#if defined(__cplusplus)
#define NA_CHECK_SAME_TYPE(A, B, LABEL) static_assert(std::is_same<A, B>::value, #LABEL);
#elif defined(__GNUC__)
#define NA_CHECK_SAME_TYPE(A, B, LABEL) \
  typedef char na_same_##LABEL[__builtin_types_compatible_p(A, B) ? 1 : -1];
#else
#define NA_CHECK_SAME_TYPE(A, B, LABEL)
#endif

/* Within one struct, each member listed after another lies after it. */
#define NA_CHECK_MEMBER_ORDER(STRUCT, MEMBER, TYPE)                      \
  {                                                                      \
    size_t offset = offsetof(struct STRUCT, MEMBER);                     \
    if (strcmp(last_struct, #STRUCT) == 0 && offset <= last_offset) {    \
      n_out_of_order++;                                                  \
    }                                                                    \
    last_struct = #STRUCT;                                               \
    last_offset = offset;                                                \
  }

#endif
