/* nanoarrow in C: optional, header-only C++ helpers for the IPC extension
 * (C++11 or later).
 *
 * Move-only owning wrappers, in namespace nanoarrow::ipc, built on the same
 * Unique<T> template as nanoarrow.hpp:
 *
 *   UniqueDecoder       struct ArrowIpcDecoder
 *   UniqueFooter        struct ArrowIpcFooter
 *   UniqueEncoder       struct ArrowIpcEncoder
 *   UniqueInputStream   struct ArrowIpcInputStream
 *   UniqueOutputStream  struct ArrowIpcOutputStream
 *   UniqueWriter        struct ArrowIpcWriter
 *   UniqueFileReader    struct ArrowIpcFileReader (this library's file reader)
 *   UniqueSharedBuffer  struct ArrowBuffer holding a shared buffer (the same type
 *                       as nanoarrow::UniqueBuffer since 0.9.0)
 *   UniqueDecompressor  struct ArrowIpcDecompressor
 *   UniqueCompressor    struct ArrowIpcCompressor
 *   UniqueDictionaryEncodings  struct ArrowIpcDictionaryEncodings (initialized)
 *   UniqueDictionaries  struct ArrowIpcDictionaries (empty until
 *                       ArrowIpcDictionariesInit)
 *
 * A default-constructed decoder, encoder, writer or file reader is empty (not
 * yet initialized): pass get() to its Init function, e.g.
 *
 *   nanoarrow::ipc::UniqueDecoder decoder;
 *   NANOARROW_THROW_NOT_OK(ArrowIpcDecoderInit(decoder.get()));
 *
 * A default-constructed footer is initialized (ArrowIpcFooterInit), and the
 * streams are released ones, ready for an ArrowIpc*StreamInit* call. Whatever
 * is owned when the wrapper goes out of scope is reset or released. */

#ifndef NANOARROW_IPC_HPP_INCLUDED
#define NANOARROW_IPC_HPP_INCLUDED

#include <cstring>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_ipc.h"
/* Where the writer has a header of its own; a bundled nanoarrow_ipc.h already
 * holds it (and defines its guard), so the bundle needs no second file. */
#ifndef NANOARROW_IPC_WRITER_H_INCLUDED
#include "nanoarrow/nanoarrow_ipc_writer.h"
#endif

NANOARROW_HPP_BEGIN_NAMESPACE

namespace internal {

/* Structs whose only owned state is behind private_data: empty means
 * private_data == nullptr, and a bitwise copy moves the ownership. */
template <typename T>
inline void init_private_data(T* data) {
  std::memset(data, 0, sizeof(T));
}
template <typename T>
inline void move_private_data(T* src, T* dst) {
  std::memcpy(dst, src, sizeof(T));
  init_private_data(src);
}

template <>
inline void init_pointer(struct ArrowIpcDecoder* data) {
  init_private_data(data);
}
template <>
inline void move_pointer(struct ArrowIpcDecoder* src, struct ArrowIpcDecoder* dst) {
  move_private_data(src, dst);
}
template <>
inline void release_pointer(struct ArrowIpcDecoder* data) {
  if (data->private_data != nullptr) ArrowIpcDecoderReset(data);
}

template <>
inline void init_pointer(struct ArrowIpcFooter* data) {
  ArrowIpcFooterInit(data);
}
template <>
inline void move_pointer(struct ArrowIpcFooter* src, struct ArrowIpcFooter* dst) {
  ArrowSchemaMove(&src->schema, &dst->schema);
  ArrowBufferMove(&src->record_batch_blocks, &dst->record_batch_blocks);
  ArrowBufferMove(&src->dictionary_blocks, &dst->dictionary_blocks);
}
template <>
inline void release_pointer(struct ArrowIpcFooter* data) {
  ArrowIpcFooterReset(data);
}

template <>
inline void init_pointer(struct ArrowIpcEncoder* data) {
  init_private_data(data);
}
template <>
inline void move_pointer(struct ArrowIpcEncoder* src, struct ArrowIpcEncoder* dst) {
  move_private_data(src, dst);
}
template <>
inline void release_pointer(struct ArrowIpcEncoder* data) {
  if (data->private_data != nullptr) ArrowIpcEncoderReset(data);
}

template <>
inline void init_pointer(struct ArrowIpcInputStream* data) {
  data->release = nullptr;
}
template <>
inline void move_pointer(struct ArrowIpcInputStream* src,
                         struct ArrowIpcInputStream* dst) {
  ArrowIpcInputStreamMove(src, dst);
}
template <>
inline void release_pointer(struct ArrowIpcInputStream* data) {
  if (data->release != nullptr) data->release(data);
}

template <>
inline void init_pointer(struct ArrowIpcOutputStream* data) {
  data->release = nullptr;
}
template <>
inline void move_pointer(struct ArrowIpcOutputStream* src,
                         struct ArrowIpcOutputStream* dst) {
  ArrowIpcOutputStreamMove(src, dst);
}
template <>
inline void release_pointer(struct ArrowIpcOutputStream* data) {
  if (data->release != nullptr) data->release(data);
}

template <>
inline void init_pointer(struct ArrowIpcWriter* data) {
  init_private_data(data);
}
template <>
inline void move_pointer(struct ArrowIpcWriter* src, struct ArrowIpcWriter* dst) {
  move_private_data(src, dst);
}
template <>
inline void release_pointer(struct ArrowIpcWriter* data) {
  if (data->private_data != nullptr) ArrowIpcWriterReset(data);
}

template <>
inline void init_pointer(struct ArrowIpcFileReader* data) {
  init_private_data(data);
}
template <>
inline void move_pointer(struct ArrowIpcFileReader* src, struct ArrowIpcFileReader* dst) {
  move_private_data(src, dst);
}
template <>
inline void release_pointer(struct ArrowIpcFileReader* data) {
  if (data->private_data != nullptr) ArrowIpcFileReaderReset(data);
}

template <>
inline void init_pointer(struct ArrowIpcDictionaryEncodings* data) {
  ArrowIpcDictionaryEncodingsInit(data);
}
template <>
inline void move_pointer(struct ArrowIpcDictionaryEncodings* src,
                         struct ArrowIpcDictionaryEncodings* dst) {
  std::memcpy(dst, src, sizeof(struct ArrowIpcDictionaryEncodings));
  ArrowIpcDictionaryEncodingsInit(src);
}
template <>
inline void release_pointer(struct ArrowIpcDictionaryEncodings* data) {
  ArrowIpcDictionaryEncodingsReset(data);
}

template <>
inline void init_pointer(struct ArrowIpcDictionaries* data) {
  data->private_data = nullptr;
}
template <>
inline void move_pointer(struct ArrowIpcDictionaries* src, struct ArrowIpcDictionaries* dst) {
  std::memcpy(dst, src, sizeof(struct ArrowIpcDictionaries));
  src->private_data = nullptr;
}
template <>
inline void release_pointer(struct ArrowIpcDictionaries* data) {
  // Reset of an empty (never initialized or moved-from) object is a no-op.
  ArrowIpcDictionariesReset(data);
}

template <>
inline void init_pointer(struct ArrowIpcDecompressor* data) {
  data->release = nullptr;
}
template <>
inline void move_pointer(struct ArrowIpcDecompressor* src,
                         struct ArrowIpcDecompressor* dst) {
  std::memcpy(dst, src, sizeof(struct ArrowIpcDecompressor));
  src->release = nullptr;
}
template <>
inline void release_pointer(struct ArrowIpcDecompressor* data) {
  if (data->release != nullptr) data->release(data);
}

template <>
inline void init_pointer(struct ArrowIpcCompressor* data) {
  data->release = nullptr;
}
template <>
inline void move_pointer(struct ArrowIpcCompressor* src, struct ArrowIpcCompressor* dst) {
  std::memcpy(dst, src, sizeof(struct ArrowIpcCompressor));
  src->release = nullptr;
}
template <>
inline void release_pointer(struct ArrowIpcCompressor* data) {
  if (data->release != nullptr) data->release(data);
}

}  // namespace internal

namespace ipc {

using UniqueDecoder = internal::Unique<struct ArrowIpcDecoder>;
using UniqueFooter = internal::Unique<struct ArrowIpcFooter>;
using UniqueEncoder = internal::Unique<struct ArrowIpcEncoder>;
using UniqueInputStream = internal::Unique<struct ArrowIpcInputStream>;
using UniqueOutputStream = internal::Unique<struct ArrowIpcOutputStream>;
using UniqueWriter = internal::Unique<struct ArrowIpcWriter>;
using UniqueFileReader = internal::Unique<struct ArrowIpcFileReader>;
// A shared buffer is a struct ArrowBuffer: its wrapper is nanoarrow::UniqueBuffer.
using UniqueSharedBuffer = internal::Unique<struct ArrowBuffer>;
using UniqueDecompressor = internal::Unique<struct ArrowIpcDecompressor>;
using UniqueCompressor = internal::Unique<struct ArrowIpcCompressor>;
using UniqueDictionaryEncodings = internal::Unique<struct ArrowIpcDictionaryEncodings>;
using UniqueDictionaries = internal::Unique<struct ArrowIpcDictionaries>;

}  // namespace ipc

NANOARROW_HPP_END_NAMESPACE

#endif /* NANOARROW_IPC_HPP_INCLUDED */
