// NANOARROW_CXX_NAMESPACE (nanoarrow_config.h, nanoarrow 0.9.0): the hpp helpers
// live in the namespace the user defines before including any nanoarrow header,
// and NANOARROW_CXX_NAMESPACE_BEGIN / _END open and close it.

#define NANOARROW_CXX_NAMESPACE my_vendored_nanoarrow

#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

#include "nanoarrow/nanoarrow.hpp"
#if defined(TEST_WITH_IPC)
#include "nanoarrow/nanoarrow_ipc.hpp"
#endif

#include "check.h"

// Code of the user's own in that namespace, through the macros.
NANOARROW_CXX_NAMESPACE_BEGIN
inline int UsersOwnFunction() { return 42; }
NANOARROW_CXX_NAMESPACE_END

// Nothing was declared in namespace nanoarrow: this one is the test's own.
namespace nanoarrow {
struct UniqueSchema {
  int not_the_library_one;
};
}  // namespace nanoarrow

int main() {
  my_vendored_nanoarrow::UniqueSchema schema;
  ArrowSchemaInit(schema.get());
  NANOARROW_THROW_NOT_OK(ArrowSchemaSetType(schema.get(), NANOARROW_TYPE_INT32));
  CHECK(std::strcmp(schema->format, "i") == 0);
  my_vendored_nanoarrow::UniqueSchema moved(std::move(schema));
  CHECK(schema->release == nullptr);
  CHECK(moved->release != nullptr);
  CHECK(my_vendored_nanoarrow::UsersOwnFunction() == 42);
  CHECK((!std::is_same<nanoarrow::UniqueSchema, my_vendored_nanoarrow::UniqueSchema>::value));
#if defined(TEST_WITH_IPC)
  my_vendored_nanoarrow::ipc::UniqueDictionaryEncodings encodings;
  CHECK(encodings->encodings.size_bytes == 0);
  my_vendored_nanoarrow::ipc::UniqueDictionaries dictionaries;
  CHECK(dictionaries->private_data == nullptr);
#endif
  return CheckSummary("test_cxx_namespace");
}
