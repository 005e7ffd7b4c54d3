// Compile check, in C++, of the API nanoarrow declares (0.9.0 and its main branch):
// the C function lists of tests/common/api_surface_core.h, tests/ipc/api_surface_ipc.h
// and tests/device/api_surface_device.h are taken into pointers of exactly
// nanoarrow's types (C++ allows no qualifier conversion there), and the C++ names of
// nanoarrow.hpp, nanoarrow_ipc.hpp, nanoarrow_device.hpp and nanoarrow_testing.hpp are
// used as nanoarrow documents them. A missing or changed name breaks the build.

#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nanoarrow/nanoarrow.hpp"

#include "check.h"
#include "common/api_surface.h"
#include "common/api_surface_core.h"

#if defined(TEST_WITH_IPC)
#include "ipc/api_surface_ipc.h"
#include "nanoarrow/nanoarrow_ipc.hpp"
#endif
#if defined(TEST_WITH_DEVICE)
#include "device/api_surface_device.h"
#include "nanoarrow/nanoarrow_device.hpp"
#endif
#if defined(TEST_WITH_TESTING)
#include "nanoarrow/nanoarrow_testing.hpp"
#endif

#define NA_STATIC_ENUM(NAME, VALUE) static_assert((NAME) == (VALUE), #NAME);
NA_ENUM_CORE(NA_STATIC_ENUM)
NA_MEMBER_CORE(NA_CHECK_MEMBER_TYPE)
#if defined(TEST_WITH_IPC)
NA_ENUM_IPC(NA_STATIC_ENUM)
NA_MEMBER_IPC(NA_CHECK_MEMBER_TYPE)
NA_CHECK_SAME_TYPE(ArrowIpcDecompressFunction, NaIpcDecompressFunctionType, decompress)
NA_CHECK_SAME_TYPE(ArrowIpcMetadataVisitFunction, NaIpcMetadataVisitFunctionType, visit)
#endif
#if defined(TEST_WITH_DEVICE)
NA_ENUM_DEVICE(NA_STATIC_ENUM)
NA_MEMBER_DEVICE(NA_CHECK_MEMBER_TYPE)
#endif

// ---- nanoarrow.hpp ----

namespace na = nanoarrow;

// The owning wrappers: default-constructible, movable, not copyable, get() gives
// the C struct.
template <typename Unique, typename CStruct>
void CheckUnique() {
  static_assert(std::is_default_constructible<Unique>::value, "default constructible");
  static_assert(std::is_move_constructible<Unique>::value, "movable");
  static_assert(!std::is_copy_constructible<Unique>::value, "not copyable");
  static_assert(std::is_same<decltype(std::declval<Unique&>().get()), CStruct*>::value,
                "get()");
}

static_assert(std::is_base_of<std::exception, na::Exception>::value, "Exception");
static_assert(std::is_constructible<na::EmptyArrayStream, ArrowSchema*>::value,
              "EmptyArrayStream(ArrowSchema*)");
static_assert(std::is_constructible<na::VectorArrayStream, ArrowSchema*, ArrowArray*>::value,
              "VectorArrayStream(ArrowSchema*, ArrowArray*)");
static_assert(std::is_constructible<na::VectorArrayStream, ArrowSchema*,
                                    std::vector<na::UniqueArray>>::value,
              "VectorArrayStream(ArrowSchema*, std::vector<UniqueArray>)");
static_assert(std::is_constructible<na::ViewArrayAs<int32_t>, const ArrowArrayView*>::value,
              "ViewArrayAs<T>(const ArrowArrayView*)");
static_assert(std::is_constructible<na::ViewArrayAs<int32_t>, const ArrowArray*>::value,
              "ViewArrayAs<T>(const ArrowArray*)");
static_assert(std::is_constructible<na::ViewArrayAsBytes<32>, const ArrowArrayView*>::value,
              "ViewArrayAsBytes<N>(const ArrowArrayView*)");
static_assert(
    std::is_constructible<na::ViewArrayAsFixedSizeBytes, const ArrowArrayView*, int32_t>::value,
    "ViewArrayAsFixedSizeBytes(const ArrowArrayView*, int32_t)");
static_assert(std::is_constructible<na::ViewArrayStream, ArrowArrayStream*, ArrowErrorCode*,
                                    ArrowError*>::value,
              "ViewArrayStream(ArrowArrayStream*, ArrowErrorCode*, ArrowError*)");

namespace {

int TakeCoreFunctions() {
  NaApiFn fns[512];
  int n = 0;
  NA_API_CORE(NA_TAKE_FUNCTION)
  for (int i = 0; i < n; i++) CHECK(fns[i] != nullptr);
  return n;
}

#if defined(TEST_WITH_IPC)
int TakeIpcFunctions() {
  NaApiFn fns[128];
  int n = 0;
  NA_API_IPC(NA_TAKE_FUNCTION)
  for (int i = 0; i < n; i++) CHECK(fns[i] != nullptr);
  return n;
}
#endif

#if defined(TEST_WITH_DEVICE)
int TakeDeviceFunctions() {
  NaApiFn fns[64];
  int n = 0;
  NA_API_DEVICE(NA_TAKE_FUNCTION)
  for (int i = 0; i < n; i++) CHECK(fns[i] != nullptr);
  return n;
}
#endif

void CheckHppNames() {
  CheckUnique<na::UniqueSchema, ArrowSchema>();
  CheckUnique<na::UniqueArray, ArrowArray>();
  CheckUnique<na::UniqueArrayStream, ArrowArrayStream>();
  CheckUnique<na::UniqueArrayView, ArrowArrayView>();
  CheckUnique<na::UniqueBuffer, ArrowBuffer>();
  CheckUnique<na::UniqueBitmap, ArrowBitmap>();

  // NANOARROW_THROW_NOT_OK and nanoarrow::Exception.
  bool thrown = false;
  try {
    NANOARROW_THROW_NOT_OK(EINVAL);
  } catch (const na::Exception& e) {
    thrown = std::strlen(e.what()) > 0;
  }
  CHECK(thrown);

  // BufferInitSequence / BufferInitWrapped.
  na::UniqueBuffer buffer;
  na::BufferInitSequence(buffer.get(), std::vector<int32_t>{1, 2, 3});
  CHECK(buffer->size_bytes == 12);
  na::UniqueBuffer wrapped;
  std::string text = "abc";
  const uint8_t* text_data = reinterpret_cast<const uint8_t*>(text.data());
  na::BufferInitWrapped(wrapped.get(), std::move(text), text_data, 3);
  CHECK(wrapped->size_bytes == 3);

  // EmptyArrayStream::ToArrayStream, VectorArrayStream, ViewArrayStream.
  na::UniqueSchema schema;
  CHECK(ArrowSchemaInitFromType(schema.get(), NANOARROW_TYPE_INT32) == NANOARROW_OK);
  na::UniqueArrayStream stream;
  na::EmptyArrayStream(schema.get()).ToArrayStream(stream.get());
  CHECK(stream->release != nullptr);
  ArrowErrorCode code = NANOARROW_OK;
  int64_t n_arrays = 0;
  for (const auto& array : na::ViewArrayStream(stream.get(), &code, nullptr)) {
    (void)array;
    n_arrays++;
  }
  CHECK(code == NANOARROW_OK && n_arrays == 0);

  na::UniqueArray array;
  CHECK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_INT32) == NANOARROW_OK);
  CHECK(ArrowArrayStartAppending(array.get()) == NANOARROW_OK);
  CHECK(ArrowArrayAppendInt(array.get(), 7) == NANOARROW_OK);
  CHECK(ArrowArrayAppendNull(array.get(), 1) == NANOARROW_OK);
  CHECK(ArrowArrayFinishBuildingDefault(array.get(), nullptr) == NANOARROW_OK);
  int64_t sum = 0;
  int64_t n_null = 0;
  for (auto value : na::ViewArrayAs<int32_t>(array.get())) {
    if (value == na::NA) {
      n_null++;
    } else {
      sum += *value;
    }
  }
  CHECK(sum == 7 && n_null == 1);
  na::UniqueArrayStream vector_stream;
  na::VectorArrayStream(schema.get(), array.get()).ToArrayStream(vector_stream.get());
  CHECK(vector_stream->release != nullptr);

  // nanoarrow::literals.
  using namespace na::literals;
  ArrowStringView view = "abc"_asv;
  CHECK(view.size_bytes == 3);
}

#if defined(TEST_WITH_IPC)
void CheckIpcHppNames() {
  CheckUnique<na::ipc::UniqueDecoder, ArrowIpcDecoder>();
  CheckUnique<na::ipc::UniqueFooter, ArrowIpcFooter>();
  CheckUnique<na::ipc::UniqueDictionaryEncodings, ArrowIpcDictionaryEncodings>();
  CheckUnique<na::ipc::UniqueDictionaries, ArrowIpcDictionaries>();
  CheckUnique<na::ipc::UniqueEncoder, ArrowIpcEncoder>();
  CheckUnique<na::ipc::UniqueDecompressor, ArrowIpcDecompressor>();
  CheckUnique<na::ipc::UniqueInputStream, ArrowIpcInputStream>();
  CheckUnique<na::ipc::UniqueOutputStream, ArrowIpcOutputStream>();
  CheckUnique<na::ipc::UniqueWriter, ArrowIpcWriter>();
}
#endif

#if defined(TEST_WITH_DEVICE)
void CheckDeviceHppNames() {
  CheckUnique<na::device::UniqueDevice, ArrowDevice>();
  CheckUnique<na::device::UniqueDeviceArray, ArrowDeviceArray>();
  CheckUnique<na::device::UniqueDeviceArrayStream, ArrowDeviceArrayStream>();
  CheckUnique<na::device::UniqueDeviceArrayView, ArrowDeviceArrayView>();
}
#endif

#if defined(TEST_WITH_TESTING)
// EXPR (unevaluated) is well-formed.
#define NA_CALLABLE(EXPR) static_assert(sizeof(std::is_void<decltype(EXPR)>) > 0, #EXPR)

// The methods nanoarrow documents, called with the argument types it documents.
void CheckTestingHppNames() {
  namespace nt = na::testing;
  using std::declval;
  static_assert(std::is_same<decltype(declval<nt::TestingJSONWriter&>().WriteSchema(
                                 declval<std::ostream&>(), declval<const ArrowSchema*>())),
                             ArrowErrorCode>::value,
                "WriteSchema");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONWriter&>().WriteDataFile(
                                 declval<std::ostream&>(), declval<ArrowArrayStream*>())),
                             ArrowErrorCode>::value,
                "WriteDataFile");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONWriter&>().WriteBatch(
                                 declval<std::ostream&>(), declval<const ArrowSchema*>(),
                                 declval<const ArrowArrayView*>())),
                             ArrowErrorCode>::value,
                "WriteBatch");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONWriter&>().WriteColumn(
                                 declval<std::ostream&>(), declval<const ArrowSchema*>(),
                                 declval<const ArrowArrayView*>())),
                             ArrowErrorCode>::value,
                "WriteColumn");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONWriter&>().WriteField(
                                 declval<std::ostream&>(), declval<const ArrowSchema*>())),
                             ArrowErrorCode>::value,
                "WriteField");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONWriter&>().WriteType(
                                 declval<std::ostream&>(), declval<const ArrowSchema*>())),
                             ArrowErrorCode>::value,
                "WriteType");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONWriter&>().WriteMetadata(
                                 declval<std::ostream&>(), declval<const char*>())),
                             ArrowErrorCode>::value,
                "WriteMetadata");
  NA_CALLABLE(declval<nt::TestingJSONWriter&>().set_float_precision(declval<int>()));
  NA_CALLABLE(declval<nt::TestingJSONWriter&>().set_include_metadata(declval<bool>()));

  static_assert(std::is_same<decltype(declval<nt::TestingJSONReader&>().ReadDataFile(
                                 declval<const std::string&>(), declval<ArrowArrayStream*>(),
                                 declval<int>(), declval<ArrowError*>())),
                             ArrowErrorCode>::value,
                "ReadDataFile");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONReader&>().ReadSchema(
                                 declval<const std::string&>(), declval<ArrowSchema*>(),
                                 declval<ArrowError*>())),
                             ArrowErrorCode>::value,
                "ReadSchema");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONReader&>().ReadField(
                                 declval<const std::string&>(), declval<ArrowSchema*>(),
                                 declval<ArrowError*>())),
                             ArrowErrorCode>::value,
                "ReadField");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONReader&>().ReadBatch(
                                 declval<const std::string&>(), declval<const ArrowSchema*>(),
                                 declval<ArrowArray*>(), declval<ArrowError*>())),
                             ArrowErrorCode>::value,
                "ReadBatch");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONReader&>().ReadColumn(
                                 declval<const std::string&>(), declval<const ArrowSchema*>(),
                                 declval<ArrowArray*>(), declval<ArrowError*>())),
                             ArrowErrorCode>::value,
                "ReadColumn");

  static_assert(std::is_same<decltype(declval<nt::TestingJSONComparison&>().CompareSchema(
                                 declval<const ArrowSchema*>(), declval<const ArrowSchema*>(),
                                 declval<ArrowError*>(), declval<const std::string&>())),
                             ArrowErrorCode>::value,
                "CompareSchema");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONComparison&>().CompareBatch(
                                 declval<const ArrowArray*>(), declval<const ArrowArray*>(),
                                 declval<ArrowError*>(), declval<const std::string&>())),
                             ArrowErrorCode>::value,
                "CompareBatch");
  static_assert(
      std::is_same<decltype(declval<nt::TestingJSONComparison&>().CompareArrayStream(
                       declval<ArrowArrayStream*>(), declval<ArrowArrayStream*>(),
                       declval<ArrowError*>())),
                   ArrowErrorCode>::value,
      "CompareArrayStream");
  static_assert(std::is_same<decltype(declval<nt::TestingJSONComparison&>().SetSchema(
                                 declval<const ArrowSchema*>(), declval<ArrowError*>())),
                             ArrowErrorCode>::value,
                "SetSchema");
  static_assert(std::is_integral<decltype(
                    declval<const nt::TestingJSONComparison&>().num_differences())>::value,
                "num_differences() const");
  NA_CALLABLE(declval<nt::TestingJSONComparison&>().WriteDifferences(declval<std::ostream&>()));
  NA_CALLABLE(declval<nt::TestingJSONComparison&>().ClearDifferences());
  NA_CALLABLE(declval<nt::TestingJSONComparison&>().set_compare_batch_flags(declval<bool>()));
  NA_CALLABLE(declval<nt::TestingJSONComparison&>().set_compare_float_precision(declval<int>()));
  NA_CALLABLE(declval<nt::TestingJSONComparison&>().set_compare_metadata_order(declval<bool>()));
}
#endif

}  // namespace

int main() {
  CHECK(TakeCoreFunctions() > 160);
#if defined(TEST_WITH_IPC)
  CHECK(TakeIpcFunctions() > 60);
  CheckIpcHppNames();
#endif
#if defined(TEST_WITH_DEVICE)
  CHECK(TakeDeviceFunctions() == 21);
  CheckDeviceHppNames();
#endif
#if defined(TEST_WITH_TESTING)
  CheckTestingHppNames();  // compile-time checks only
#endif
  CheckHppNames();
  return CheckSummary("test_cxx_api_surface");
}
