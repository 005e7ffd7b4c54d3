/* nanoarrow in C: C++ owning wrappers for the device extension (optional).
 *
 * nanoarrow::device::UniqueDeviceArray, UniqueDeviceArrayStream, UniqueDevice and
 * UniqueDeviceArrayView: move-only owners built on the Unique template of
 * nanoarrow.hpp, released when they go out of scope. An empty (default-constructed
 * or moved-from) wrapper holds a released struct: release == NULL for arrays,
 * streams and devices, a zeroed view with an uninitialized array view. */

#ifndef NANOARROW_DEVICE_HPP_INCLUDED
#define NANOARROW_DEVICE_HPP_INCLUDED

#include <cstring>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_device.h"

NANOARROW_HPP_BEGIN_NAMESPACE

namespace internal {

template <>
inline void init_pointer(struct ArrowDeviceArray* data) {
  std::memset(data, 0, sizeof(struct ArrowDeviceArray));
}
template <>
inline void move_pointer(struct ArrowDeviceArray* src, struct ArrowDeviceArray* dst) {
  ArrowDeviceArrayMove(src, dst);
}
template <>
inline void release_pointer(struct ArrowDeviceArray* data) {
  if (data->array.release != nullptr) {
    data->array.release(&data->array);
  }
  /* The event belongs to the array's producer and goes with the array. */
  data->sync_event = nullptr;
}

template <>
inline void init_pointer(struct ArrowDeviceArrayStream* data) {
  std::memset(data, 0, sizeof(struct ArrowDeviceArrayStream));
}
template <>
inline void move_pointer(struct ArrowDeviceArrayStream* src,
                         struct ArrowDeviceArrayStream* dst) {
  std::memcpy(dst, src, sizeof(struct ArrowDeviceArrayStream));
  src->release = nullptr;
}
template <>
inline void release_pointer(struct ArrowDeviceArrayStream* data) {
  if (data->release != nullptr) {
    data->release(data);
  }
}

template <>
inline void init_pointer(struct ArrowDevice* data) {
  std::memset(data, 0, sizeof(struct ArrowDevice));
}
template <>
inline void move_pointer(struct ArrowDevice* src, struct ArrowDevice* dst) {
  std::memcpy(dst, src, sizeof(struct ArrowDevice));
  src->release = nullptr;
}
template <>
inline void release_pointer(struct ArrowDevice* data) {
  if (data->release != nullptr) {
    data->release(data);
  }
}

template <>
inline void init_pointer(struct ArrowDeviceArrayView* data) {
  ArrowDeviceArrayViewInit(data);
  ArrowArrayViewInitFromType(&data->array_view, NANOARROW_TYPE_UNINITIALIZED);
}
template <>
inline void move_pointer(struct ArrowDeviceArrayView* src,
                         struct ArrowDeviceArrayView* dst) {
  /* As for ArrowArrayView: it owns only heap blocks, so a byte copy moves it. */
  std::memcpy(dst, src, sizeof(struct ArrowDeviceArrayView));
  init_pointer(src);
}
template <>
inline void release_pointer(struct ArrowDeviceArrayView* data) {
  ArrowDeviceArrayViewReset(data);
}

}  // namespace internal

namespace device {

using UniqueDeviceArray = internal::Unique<struct ArrowDeviceArray>;
using UniqueDeviceArrayStream = internal::Unique<struct ArrowDeviceArrayStream>;
using UniqueDevice = internal::Unique<struct ArrowDevice>;
using UniqueDeviceArrayView = internal::Unique<struct ArrowDeviceArrayView>;

}  // namespace device

NANOARROW_HPP_END_NAMESPACE

#endif /* NANOARROW_DEVICE_HPP_INCLUDED */
