/* Reading an ArrowIpcDictionaryEncodings in tests: its encodings live in an
 * ArrowBuffer. */
#ifndef NANOARROW_TESTS_IPC_ENCODINGS_TEST_UTIL_H
#define NANOARROW_TESTS_IPC_ENCODINGS_TEST_UTIL_H

#include "nanoarrow/nanoarrow_ipc.h"

#define TEST_N_ENCODINGS(e) \
  ((e).encodings.size_bytes / (int64_t)sizeof(struct ArrowIpcDictionaryEncoding))
#define TEST_ENCODING(e, i) (((const struct ArrowIpcDictionaryEncoding*)(e).encodings.data)[i])

#endif
