// The self-checking harness of the C++ helper tests: CHECK(EXPR) counts the check and
// prints the failed ones; main() ends with `return CheckSummary("name");`.
#ifndef NANOARROW_TESTS_CPP_CHECK_H_INCLUDED
#define NANOARROW_TESTS_CPP_CHECK_H_INCLUDED

#include <cstdio>

static int n_checks = 0;
static int n_failures = 0;

#define CHECK(EXPR)                                                         \
  do {                                                                      \
    n_checks++;                                                             \
    if (!(EXPR)) {                                                          \
      n_failures++;                                                         \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                   #EXPR);                                                  \
    }                                                                       \
  } while (0)

// Prints "name: N checks, M failed"; the exit status: 0 when nothing failed.
static inline int CheckSummary(const char* name) {
  std::printf("%s: %d checks, %d failed\n", name, n_checks, n_failures);
  return n_failures == 0 ? 0 : 1;
}

#endif
