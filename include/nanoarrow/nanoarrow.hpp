/* nanoarrow in C: optional, header-only C++ helpers (C++11 or later).
 *
 * They give the C structs C++ resource management and error handling; they do
 * not mirror the C API:
 *
 *   - nanoarrow::Exception and NANOARROW_THROW_NOT_OK(EXPR)
 *   - move-only owning wrappers: UniqueSchema, UniqueArray, UniqueArrayView,
 *     UniqueArrayStream, UniqueBuffer, UniqueBitmap
 *   - ArrowArrayStream implementations: ArrayStreamFactory<T>, EmptyArrayStream,
 *     VectorArrayStream
 *   - BufferInitSequence: hand a C++ container's memory to an ArrowBuffer
 *   - range-for views: ViewArrayAs<T> (ViewAs<T>; bool reads the bitmap),
 *     ViewArrayAsBytes<N> (ViewAsBytes<N>), ViewArrayAsFixedSizeBytes,
 *     ViewBinaryViewArrayAsBytes and ViewArrayStream
 *   - C++17 only (when NANOARROW_HAS_ZIP is 1): Zip(ranges...) and Enumerate,
 *     for `for (auto [i, value] : Zip(Enumerate, ViewAs<int32_t>(&view)))`
 *
 * The headers in nanoarrow/hpp/ only include this one.
 *
 * When NANOARROW_NAMESPACE is set, everything lives in an inline namespace of
 * that name inside nanoarrow, so two vendored copies built with different
 * namespaces do not collide in C++ either (the ODR would otherwise merge their
 * inline functions). */

#ifndef NANOARROW_HPP_INCLUDED
#define NANOARROW_HPP_INCLUDED

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nanoarrow/nanoarrow.h"

/* NANOARROW_HAS_ZIP is 1 when the compiler has what Zip and Enumerate need
 * (C++17: structured bindings, class template argument deduction, fold
 * expressions, inline variables and range-for over an end of another type),
 * else 0. Define it to 0 beforehand to leave them out. */
#if !defined(NANOARROW_HAS_ZIP)
#if defined(__cpp_structured_bindings) && __cpp_structured_bindings >= 201606L && \
    defined(__cpp_deduction_guides) && __cpp_deduction_guides >= 201703L &&     \
    defined(__cpp_fold_expressions) && __cpp_fold_expressions >= 201603L &&     \
    defined(__cpp_inline_variables) && __cpp_inline_variables >= 201606L &&     \
    defined(__cpp_range_based_for) && __cpp_range_based_for >= 201603L &&       \
    (defined(__cpp_lib_integer_sequence) || __cplusplus >= 201402L ||           \
     (defined(_MSVC_LANG) && _MSVC_LANG >= 201402L))
#define NANOARROW_HAS_ZIP 1
#else
#define NANOARROW_HAS_ZIP 0
#endif
#endif

#if NANOARROW_HAS_ZIP
#include <tuple>
#endif

// Every hpp header opens NANOARROW_CXX_NAMESPACE (nanoarrow_config.h: nanoarrow
// unless the user defines it); with NANOARROW_NAMESPACE set, an inline namespace
// of that name inside it keeps two copies of the helpers apart at link time.
#if defined(NANOARROW_NAMESPACE)
#define NANOARROW_HPP_BEGIN_NAMESPACE \
  NANOARROW_CXX_NAMESPACE_BEGIN       \
  inline namespace NANOARROW_NAMESPACE {
#define NANOARROW_HPP_END_NAMESPACE \
  }                                 \
  NANOARROW_CXX_NAMESPACE_END
#else
#define NANOARROW_HPP_BEGIN_NAMESPACE NANOARROW_CXX_NAMESPACE_BEGIN
#define NANOARROW_HPP_END_NAMESPACE NANOARROW_CXX_NAMESPACE_END
#endif

NANOARROW_HPP_BEGIN_NAMESPACE

/* ======================================================================== */
/* Errors                                                                   */
/* ======================================================================== */

class Exception : public std::exception {
 public:
  explicit Exception(const std::string& msg) : msg_(msg) {}
  const char* what() const noexcept override { return msg_.c_str(); }

 private:
  std::string msg_;
};

NANOARROW_HPP_END_NAMESPACE

#define NANOARROW_HPP_CAT_IMPL(a, b) a##b
#define NANOARROW_HPP_CAT(a, b) NANOARROW_HPP_CAT_IMPL(a, b)

/* Throws nanoarrow::Exception naming the expression and the code when EXPR is
 * not NANOARROW_OK. NAME is the local that holds the code. */
#define _NANOARROW_THROW_NOT_OK_IMPL(NAME, EXPR, EXPR_STR)                        \
  do {                                                                            \
    const int NAME = (EXPR);                                                      \
    if (NAME != NANOARROW_OK) {                                                   \
      throw ::NANOARROW_CXX_NAMESPACE::Exception(                                 \
          std::string(EXPR_STR) + " failed with errno " + std::to_string(NAME));  \
    }                                                                             \
  } while (0)

#define NANOARROW_THROW_NOT_OK(EXPR)                                                 \
  _NANOARROW_THROW_NOT_OK_IMPL(NANOARROW_HPP_CAT(nanoarrow_errno_, __LINE__), EXPR, \
                               #EXPR)

NANOARROW_HPP_BEGIN_NAMESPACE

/* ======================================================================== */
/* Owning wrappers                                                          */
/* ======================================================================== */

namespace internal {

/* How each wrapped struct is made empty, moved and released. A moved-from or
 * released object is always left in the empty state, so release is idempotent. */
template <typename T>
inline void init_pointer(T* data);
template <typename T>
inline void move_pointer(T* src, T* dst);
template <typename T>
inline void release_pointer(T* data);

template <>
inline void init_pointer(struct ArrowSchema* data) {
  data->release = nullptr;
}
template <>
inline void move_pointer(struct ArrowSchema* src, struct ArrowSchema* dst) {
  ArrowSchemaMove(src, dst);
}
template <>
inline void release_pointer(struct ArrowSchema* data) {
  if (data->release != nullptr) data->release(data);
}

template <>
inline void init_pointer(struct ArrowArray* data) {
  data->release = nullptr;
}
template <>
inline void move_pointer(struct ArrowArray* src, struct ArrowArray* dst) {
  ArrowArrayMove(src, dst);
}
template <>
inline void release_pointer(struct ArrowArray* data) {
  if (data->release != nullptr) data->release(data);
}

template <>
inline void init_pointer(struct ArrowArrayStream* data) {
  data->release = nullptr;
}
template <>
inline void move_pointer(struct ArrowArrayStream* src, struct ArrowArrayStream* dst) {
  ArrowArrayStreamMove(src, dst);
}
template <>
inline void release_pointer(struct ArrowArrayStream* data) {
  if (data->release != nullptr) data->release(data);
}

template <>
inline void init_pointer(struct ArrowBuffer* data) {
  ArrowBufferInit(data);
}
template <>
inline void move_pointer(struct ArrowBuffer* src, struct ArrowBuffer* dst) {
  ArrowBufferMove(src, dst);
}
template <>
inline void release_pointer(struct ArrowBuffer* data) {
  ArrowBufferReset(data);
}

template <>
inline void init_pointer(struct ArrowBitmap* data) {
  ArrowBitmapInit(data);
}
template <>
inline void move_pointer(struct ArrowBitmap* src, struct ArrowBitmap* dst) {
  ArrowBitmapMove(src, dst);
}
template <>
inline void release_pointer(struct ArrowBitmap* data) {
  ArrowBitmapReset(data);
}

template <>
inline void init_pointer(struct ArrowArrayView* data) {
  ArrowArrayViewInitFromType(data, NANOARROW_TYPE_UNINITIALIZED);
}
template <>
inline void move_pointer(struct ArrowArrayView* src, struct ArrowArrayView* dst) {
  /* A view owns only heap pointers (children, dictionary, maps), so a bitwise
   * copy transfers them; src is then emptied without freeing them. */
  std::memcpy(dst, src, sizeof(struct ArrowArrayView));
  init_pointer(src);
}
template <>
inline void release_pointer(struct ArrowArrayView* data) {
  ArrowArrayViewReset(data);
}

/* A move-only owner of one T, released when it goes out of scope. */
template <typename T>
class Unique {
 public:
  /* An empty (released) object. */
  Unique() { init_pointer(&data_); }

  /* Takes ownership of *data, leaving it empty. */
  explicit Unique(T* data) { move_pointer(data, &data_); }

  Unique(Unique&& rhs) { move_pointer(&rhs.data_, &data_); }
  Unique& operator=(Unique&& rhs) {
    if (this != &rhs) reset(&rhs.data_);
    return *this;
  }

  Unique(const Unique&) = delete;
  Unique& operator=(const Unique&) = delete;

  ~Unique() { release_pointer(&data_); }

  T* get() noexcept { return &data_; }
  const T* get() const noexcept { return &data_; }
  T* operator->() noexcept { return &data_; }
  const T* operator->() const noexcept { return &data_; }

  /* Releases the current object and takes ownership of *data. */
  void reset(T* data) {
    reset();
    move_pointer(data, &data_);
  }

  /* Releases the current object, leaving this empty. */
  void reset() {
    release_pointer(&data_);
    init_pointer(&data_);
  }

  /* Transfers ownership to *out (which must be empty), leaving this empty. */
  void move(T* out) { move_pointer(&data_, out); }

 private:
  T data_;
};

}  // namespace internal

using UniqueSchema = internal::Unique<struct ArrowSchema>;
using UniqueArray = internal::Unique<struct ArrowArray>;
using UniqueArrayStream = internal::Unique<struct ArrowArrayStream>;
using UniqueBuffer = internal::Unique<struct ArrowBuffer>;
using UniqueBitmap = internal::Unique<struct ArrowBitmap>;
using UniqueArrayView = internal::Unique<struct ArrowArrayView>;

/* ======================================================================== */
/* Array streams                                                            */
/* ======================================================================== */

/* Exports a C++ object as an ArrowArrayStream. T needs
 *   int GetSchema(struct ArrowSchema* out);
 *   int GetNext(struct ArrowArray* out);
 *   const char* GetLastError();
 * InitArrayStream takes ownership of instance (allocated with new). */
template <typename T>
class ArrayStreamFactory {
 public:
  static void InitArrayStream(T* instance, struct ArrowArrayStream* out) {
    out->get_schema = &get_schema_wrapper;
    out->get_next = &get_next_wrapper;
    out->get_last_error = &get_last_error_wrapper;
    out->release = &release_wrapper;
    out->private_data = instance;
  }

 private:
  static T* self(struct ArrowArrayStream* stream) {
    return static_cast<T*>(stream->private_data);
  }
  static int get_schema_wrapper(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
    return self(stream)->GetSchema(out);
  }
  static int get_next_wrapper(struct ArrowArrayStream* stream, struct ArrowArray* out) {
    return self(stream)->GetNext(out);
  }
  static const char* get_last_error_wrapper(struct ArrowArrayStream* stream) {
    return self(stream)->GetLastError();
  }
  static void release_wrapper(struct ArrowArrayStream* stream) {
    delete self(stream);
    stream->release = nullptr;
    stream->private_data = nullptr;
  }
};

/* A stream with a schema and no arrays. */
class EmptyArrayStream {
 public:
  static UniqueArrayStream MakeUnique(struct ArrowSchema* schema) {
    UniqueArrayStream stream;
    EmptyArrayStream(schema).ToArrayStream(stream.get());
    return stream;
  }

  /* Takes ownership of schema. */
  explicit EmptyArrayStream(struct ArrowSchema* schema) : schema_(schema) {
    ArrowErrorInit(&error_);
  }

  /* Moves this object's state into a new stream. */
  void ToArrayStream(struct ArrowArrayStream* out) {
    ArrayStreamFactory<EmptyArrayStream>::InitArrayStream(
        new EmptyArrayStream(std::move(*this)), out);
  }

  int GetSchema(struct ArrowSchema* out) {
    return ArrowSchemaDeepCopy(schema_.get(), out);
  }
  int GetNext(struct ArrowArray* out) {
    out->release = nullptr;
    return NANOARROW_OK;
  }
  const char* GetLastError() { return error_.message; }

 private:
  UniqueSchema schema_;
  struct ArrowError error_;
};

/* A stream over arrays held in a std::vector. */
class VectorArrayStream {
 public:
  /* Take ownership of schema and arrays. */
  VectorArrayStream(struct ArrowSchema* schema, std::vector<UniqueArray> arrays)
      : schema_(schema), arrays_(std::move(arrays)) {
    ArrowErrorInit(&error_);
  }
  VectorArrayStream(struct ArrowSchema* schema, struct ArrowArray* array) : schema_(schema) {
    arrays_.emplace_back(array);
    ArrowErrorInit(&error_);
  }

  static UniqueArrayStream MakeUnique(struct ArrowSchema* schema,
                                      std::vector<UniqueArray> arrays) {
    UniqueArrayStream stream;
    VectorArrayStream(schema, std::move(arrays)).ToArrayStream(stream.get());
    return stream;
  }
  static UniqueArrayStream MakeUnique(struct ArrowSchema* schema, struct ArrowArray* array) {
    UniqueArrayStream stream;
    VectorArrayStream(schema, array).ToArrayStream(stream.get());
    return stream;
  }

  void ToArrayStream(struct ArrowArrayStream* out) {
    ArrayStreamFactory<VectorArrayStream>::InitArrayStream(
        new VectorArrayStream(std::move(*this)), out);
  }

  int GetSchema(struct ArrowSchema* out) {
    return ArrowSchemaDeepCopy(schema_.get(), out);
  }
  int GetNext(struct ArrowArray* out) {
    if (next_ == arrays_.size()) {
      out->release = nullptr;
      return NANOARROW_OK;
    }
    arrays_[next_++].move(out);
    return NANOARROW_OK;
  }
  const char* GetLastError() { return error_.message; }

 private:
  UniqueSchema schema_;
  std::vector<UniqueArray> arrays_;
  std::size_t next_ = 0;
  struct ArrowError error_;
};

/* ======================================================================== */
/* Buffers                                                                  */
/* ======================================================================== */

namespace internal {

template <typename T>
struct SequenceHolder {
  T sequence;
};

template <typename T>
inline void ReleaseSequence(struct ArrowBufferAllocator* allocator, uint8_t* ptr,
                            int64_t size) {
  NANOARROW_UNUSED(ptr);
  NANOARROW_UNUSED(size);
  delete static_cast<SequenceHolder<T>*>(allocator->private_data);
}

/* Points buffer at size_bytes bytes at data, owned by holder (deleted on reset).
 * The capacity is 0, as for any wrapped memory: the buffer owns no allocation it
 * could grow into. */
template <typename T>
inline void InitHeldBuffer(struct ArrowBuffer* buffer, SequenceHolder<T>* holder,
                           const void* data, int64_t size_bytes) {
  ArrowBufferInit(buffer);
  buffer->data = static_cast<uint8_t*>(const_cast<void*>(data));
  buffer->size_bytes = size_bytes;
  buffer->capacity_bytes = 0;
  buffer->allocator = ArrowBufferDeallocator(&ReleaseSequence<T>, holder);
}

}  // namespace internal

/* Initializes buffer to point at the elements of a contiguous container (e.g.
 * std::vector or std::string), which the buffer then owns: it is freed when the
 * buffer is reset. The buffer cannot grow. */
template <typename T>
inline void BufferInitSequence(struct ArrowBuffer* buffer, T sequence) {
  auto* holder = new internal::SequenceHolder<T>{std::move(sequence)};
  internal::InitHeldBuffer(
      buffer, holder, static_cast<const void*>(holder->sequence.data()),
      static_cast<int64_t>(holder->sequence.size() * sizeof(*holder->sequence.data())));
}

/* Initializes buffer to the size_bytes bytes at data, which obj (moved into the
 * buffer) keeps alive: obj is destroyed when the buffer is reset. data must stay
 * valid when obj is moved (true of a std::vector's elements, not of a short
 * std::string's). The buffer cannot grow. */
template <typename T>
inline void BufferInitWrapped(struct ArrowBuffer* buffer, T obj, const uint8_t* data,
                              int64_t size_bytes) {
  auto* holder = new internal::SequenceHolder<T>{std::move(obj)};
  internal::InitHeldBuffer(buffer, holder, data, size_bytes);
}

/* ======================================================================== */
/* Range-for views                                                          */
/* ======================================================================== */

namespace internal {
struct Nothing {};
}  // namespace internal

/* The null value of a Nullable<T>: `if (value == nanoarrow::NA)`. */
constexpr internal::Nothing NA{};

namespace internal {

/* An element that may be null (nanoarrow's name; Nullable<T> below is the same
 * type). It lives in nanoarrow::internal, as nanoarrow's does, so that functions
 * written for it there (gtest's PrintTo, say) are found by argument-dependent
 * lookup. */
template <typename T>
class Maybe {
 public:
  Maybe() : value_(), valid_(false) {}
  Maybe(Nothing) : value_(), valid_(false) {}  // NOLINT: implicit
  Maybe(T value) : value_(value), valid_(true) {}  // NOLINT: implicit

  bool has_value() const { return valid_; }
  explicit operator bool() const { return valid_; }

  /* Only meaningful when has_value(). */
  const T& value() const { return value_; }
  const T& operator*() const { return value_; }
  const T* operator->() const { return &value_; }
  T value_or(T fallback) const { return valid_ ? value_ : fallback; }

  friend bool operator==(const Maybe& lhs, Nothing) { return !lhs.valid_; }
  friend bool operator!=(const Maybe& lhs, Nothing) { return lhs.valid_; }
  friend bool operator==(const Maybe& lhs, const T& rhs) {
    return lhs.valid_ && lhs.value_ == rhs;
  }
  friend bool operator!=(const Maybe& lhs, const T& rhs) { return !(lhs == rhs); }
  friend bool operator==(const Maybe& lhs, const Maybe& rhs) {
    return lhs.valid_ == rhs.valid_ && (!lhs.valid_ || lhs.value_ == rhs.value_);
  }
  friend bool operator!=(const Maybe& lhs, const Maybe& rhs) { return !(lhs == rhs); }

 private:
  T value_;
  bool valid_;
};

}  // namespace internal

/* An element that may be null. */
template <typename T>
using Nullable = internal::Maybe<T>;

namespace internal {

/* A random-access range of n elements produced by get(i) for i in [0, n). Get
 * is a small copyable functor; iterators compare by index. */
template <typename Get>
class IndexRange {
 public:
  using value_type = decltype(std::declval<const Get&>()(int64_t{0}));

  class const_iterator {
   public:
    using value_type = typename IndexRange::value_type;
    using difference_type = int64_t;
    using reference = value_type;
    using pointer = void;
    using iterator_category = std::input_iterator_tag;

    const_iterator(const Get& get, int64_t i) : get_(get), i_(i) {}
    value_type operator*() const { return get_(i_); }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator previous = *this;
      ++i_;
      return previous;
    }
    bool operator==(const const_iterator& other) const { return i_ == other.i_; }
    bool operator!=(const const_iterator& other) const { return i_ != other.i_; }

   private:
    /* A copy, not a pointer to the range's: the loop then keeps the buffer
     * pointers in registers instead of reloading them after every store the
     * loop body makes (which could alias them), and can be vectorized. */
    Get get_;
    int64_t i_;
  };

  IndexRange(Get get, int64_t size) : get_(get), size_(size) {}
  const_iterator begin() const { return const_iterator(get_, 0); }
  const_iterator end() const { return const_iterator(get_, size_); }
  int64_t size() const { return size_; }
  value_type operator[](int64_t i) const { return get_(i); }

 private:
  Get get_;
  int64_t size_;
};

/* nanoarrow's two range helpers, for code written against them (its own tests use
 * them). RandomAccessRange{get, offset, size} is an aggregate whose elements are
 * get(0), ..., get(size - offset - 1): nanoarrow's ranges count size - offset
 * elements and leave the offset to get (this library's views use IndexRange). */
template <typename Get>
struct RandomAccessRange {
  Get get;
  int64_t offset;
  int64_t size;

  using value_type = decltype(std::declval<const Get&>()(int64_t{0}));

  struct const_iterator {
    using value_type = typename RandomAccessRange::value_type;
    using difference_type = int64_t;
    using reference = value_type;
    using pointer = void;
    using iterator_category = std::input_iterator_tag;

    int64_t i;
    const RandomAccessRange* range;
    value_type operator*() const { return range->get(i); }
    const_iterator& operator++() {
      ++i;
      return *this;
    }
    bool operator==(const const_iterator& other) const { return i == other.i; }
    bool operator!=(const const_iterator& other) const { return i != other.i; }
  };
  using iterator = const_iterator;

  const_iterator begin() const { return const_iterator{0, this}; }
  const_iterator end() const { return const_iterator{size - offset, this}; }
};

/* InputRange{next}: a single-pass range over next(), which returns something that
 * tests false once there are no more elements (a pointer, say) and is dereferenced
 * for the element. begin() draws the first one. */
template <typename Next>
struct InputRange {
  Next next;

  using ValueOrFalsy = decltype(std::declval<Next&>()());
  using value_type = decltype(*std::declval<ValueOrFalsy&>());

  struct iterator {
    using value_type = typename InputRange::value_type;
    using difference_type = int64_t;
    using reference = value_type;
    using pointer = void;
    using iterator_category = std::input_iterator_tag;

    InputRange* range;
    ValueOrFalsy current;
    value_type operator*() const { return *current; }
    iterator& operator++() {
      current = range->next();
      return *this;
    }
    /* Iterators are equal when both or neither hold an element. */
    bool operator==(const iterator& other) const {
      return static_cast<bool>(current) == static_cast<bool>(other.current);
    }
    bool operator!=(const iterator& other) const { return !(*this == other); }
  };

  iterator begin() { return iterator{this, next()}; }
  iterator end() { return iterator{this, ValueOrFalsy()}; }
};

/* Validity of element i (offset already applied); no bitmap means all valid. */
inline bool IsValid(const uint8_t* validity, int64_t i) {
  return validity == nullptr || ArrowBitGet(validity, i);
}

template <typename T>
struct FixedWidthGet {
  const uint8_t* validity;
  const T* values;
  int64_t offset;
  Nullable<T> operator()(int64_t i) const {
    if (!IsValid(validity, offset + i)) return NA;
    return values[offset + i];
  }
};

template <typename Offset>
struct BytesGet {
  const uint8_t* validity;
  const Offset* offsets;
  const char* data;
  int64_t offset;
  Nullable<struct ArrowStringView> operator()(int64_t i) const {
    if (!IsValid(validity, offset + i)) return NA;
    struct ArrowStringView out;
    out.data = data + offsets[offset + i];
    out.size_bytes = static_cast<int64_t>(offsets[offset + i + 1] - offsets[offset + i]);
    return out;
  }
};

struct FixedSizeBytesGet {
  const uint8_t* validity;
  const char* data;
  int64_t offset;
  int32_t fixed_size;
  Nullable<struct ArrowStringView> operator()(int64_t i) const {
    if (!IsValid(validity, offset + i)) return NA;
    struct ArrowStringView out;
    out.data = data + (offset + i) * fixed_size;
    out.size_bytes = fixed_size;
    return out;
  }
};

/* BOOL values are a bitmap like validity: element i is bit (offset + i). */
struct BoolGet {
  const uint8_t* validity;
  const uint8_t* values;
  int64_t offset;
  Nullable<bool> operator()(int64_t i) const {
    if (!IsValid(validity, offset + i)) return NA;
    return ArrowBitGet(values, offset + i) != 0;
  }
};

/* BINARY_VIEW / STRING_VIEW: 16-byte views; short values are stored in the view
 * itself, longer ones in the variadic buffer the view names. */
struct BinaryViewGet {
  const uint8_t* validity;
  const union ArrowBinaryView* views;
  const void* const* variadic_buffers;
  int64_t offset;
  Nullable<struct ArrowStringView> operator()(int64_t i) const {
    if (!IsValid(validity, offset + i)) return NA;
    const union ArrowBinaryView& view = views[offset + i];
    struct ArrowStringView out;
    out.size_bytes = view.inlined.size;
    if (view.inlined.size <= NANOARROW_BINARY_VIEW_INLINE_SIZE) {
      out.data = reinterpret_cast<const char*>(view.inlined.data);
    } else {
      out.data = static_cast<const char*>(variadic_buffers[view.ref.buffer_index]) +
                 view.ref.offset;
    }
    return out;
  }
};

/* Array buffers are only read through the validity bitmap when nulls may exist. */
inline const uint8_t* ArrayValidity(const struct ArrowArray* array) {
  return array->null_count == 0 ? nullptr : static_cast<const uint8_t*>(array->buffers[0]);
}
inline const uint8_t* ViewValidity(const struct ArrowArrayView* view) {
  return view->null_count == 0 ? nullptr : view->buffer_views[0].data.as_uint8;
}

}  // namespace internal

/* The elements of a fixed-width array (T must match its storage type, e.g.
 * int32_t for INT32) as Nullable<T>: `for (auto v : ViewArrayAs<int32_t>(&view))`. */
template <typename T>
class ViewArrayAs : public internal::IndexRange<internal::FixedWidthGet<T>> {
  using Base = internal::IndexRange<internal::FixedWidthGet<T>>;

 public:
  explicit ViewArrayAs(const struct ArrowArrayView* view)
      : Base({internal::ViewValidity(view),
              static_cast<const T*>(view->buffer_views[1].data.data), view->offset},
             view->length) {}
  explicit ViewArrayAs(const struct ArrowArray* array)
      : Base({internal::ArrayValidity(array), static_cast<const T*>(array->buffers[1]),
              array->offset},
             array->length) {}
};

/* BOOL arrays store one bit per value, so the elements are read from the bitmap. */
template <>
class ViewArrayAs<bool> : public internal::IndexRange<internal::BoolGet> {
  using Base = internal::IndexRange<internal::BoolGet>;

 public:
  explicit ViewArrayAs(const struct ArrowArrayView* view)
      : Base({internal::ViewValidity(view), view->buffer_views[1].data.as_uint8,
              view->offset},
             view->length) {}
  explicit ViewArrayAs(const struct ArrowArray* array)
      : Base({internal::ArrayValidity(array), static_cast<const uint8_t*>(array->buffers[1]),
              array->offset},
             array->length) {}
};

/* The elements of a string or binary array (OffsetSize 32) or of a large one
 * (OffsetSize 64) as Nullable<ArrowStringView>. */
template <int OffsetSize>
class ViewArrayAsBytes
    : public internal::IndexRange<internal::BytesGet<
          typename std::conditional<OffsetSize == 32, int32_t, int64_t>::type>> {
  static_assert(OffsetSize == 32 || OffsetSize == 64, "OffsetSize must be 32 or 64");
  using Offset = typename std::conditional<OffsetSize == 32, int32_t, int64_t>::type;
  using Base = internal::IndexRange<internal::BytesGet<Offset>>;

 public:
  explicit ViewArrayAsBytes(const struct ArrowArrayView* view)
      : Base({internal::ViewValidity(view),
              static_cast<const Offset*>(view->buffer_views[1].data.data),
              view->buffer_views[2].data.as_char, view->offset},
             view->length) {}
  explicit ViewArrayAsBytes(const struct ArrowArray* array)
      : Base({internal::ArrayValidity(array), static_cast<const Offset*>(array->buffers[1]),
              static_cast<const char*>(array->buffers[2]), array->offset},
             array->length) {}
};

/* The elements of a fixed-size binary array as Nullable<ArrowStringView>. */
class ViewArrayAsFixedSizeBytes
    : public internal::IndexRange<internal::FixedSizeBytesGet> {
  using Base = internal::IndexRange<internal::FixedSizeBytesGet>;

 public:
  ViewArrayAsFixedSizeBytes(const struct ArrowArrayView* view, int32_t fixed_size)
      : Base({internal::ViewValidity(view), view->buffer_views[1].data.as_char,
              view->offset, fixed_size},
             view->length) {}
  ViewArrayAsFixedSizeBytes(const struct ArrowArray* array, int32_t fixed_size)
      : Base({internal::ArrayValidity(array), static_cast<const char*>(array->buffers[1]),
              array->offset, fixed_size},
             array->length) {}
};

/* The elements of a BINARY_VIEW or STRING_VIEW array as Nullable<ArrowStringView>.
 * Inline values point into the array's views buffer, the others into its
 * variadic data buffers; both stay valid as long as the array does. */
class ViewBinaryViewArrayAsBytes : public internal::IndexRange<internal::BinaryViewGet> {
  using Base = internal::IndexRange<internal::BinaryViewGet>;

 public:
  explicit ViewBinaryViewArrayAsBytes(const struct ArrowArrayView* view)
      : Base({internal::ViewValidity(view), view->buffer_views[1].data.as_binary_view,
              view->variadic_buffers, view->offset},
             view->length) {}
  explicit ViewBinaryViewArrayAsBytes(const struct ArrowArray* array)
      : Base({internal::ArrayValidity(array),
              static_cast<const union ArrowBinaryView*>(array->buffers[1]),
              array->buffers + NANOARROW_BINARY_VIEW_FIXED_BUFFERS, array->offset},
             array->length) {}
};

/* The arrays of a stream, for range-for: `for (ArrowArray& array : view)`.
 * Each array is released when the loop advances. Iteration stops at the end of
 * the stream or at the first error; check code() (and error()) afterwards. */
class ViewArrayStream {
 public:
  ViewArrayStream(struct ArrowArrayStream* stream, ArrowErrorCode* code,
                  struct ArrowError* error)
      : stream_(stream), code_(code), error_(error) {
    *code_ = NANOARROW_OK;
    ArrowErrorInit(error_);
  }
  ViewArrayStream(struct ArrowArrayStream* stream, struct ArrowError* error)
      : ViewArrayStream(stream, &internal_code_, error) {}
  explicit ViewArrayStream(struct ArrowArrayStream* stream)
      : ViewArrayStream(stream, &internal_code_, &internal_error_) {}

  ViewArrayStream(const ViewArrayStream&) = delete;
  ViewArrayStream& operator=(const ViewArrayStream&) = delete;

  class iterator {
   public:
    using value_type = struct ArrowArray;
    using difference_type = std::ptrdiff_t;
    using reference = struct ArrowArray&;
    using pointer = struct ArrowArray*;
    using iterator_category = std::input_iterator_tag;

    explicit iterator(ViewArrayStream* owner) : owner_(owner) {
      if (owner_ != nullptr) advance();
    }
    struct ArrowArray& operator*() { return *array_.get(); }
    struct ArrowArray* operator->() { return array_.get(); }
    iterator& operator++() {
      advance();
      return *this;
    }
    /* Only "is this the end" comparisons are meaningful for an input range. */
    bool operator==(const iterator& other) const { return owner_ == other.owner_; }
    bool operator!=(const iterator& other) const { return owner_ != other.owner_; }

   private:
    void advance() {
      array_.reset();
      int code = ArrowArrayStreamGetNext(owner_->stream_, array_.get(), owner_->error_);
      if (code != NANOARROW_OK) {
        *owner_->code_ = code;
        owner_ = nullptr;
      } else if (array_->release == nullptr) {
        owner_ = nullptr;
      } else {
        owner_->count_++;
      }
    }

    ViewArrayStream* owner_;
    UniqueArray array_;
  };

  iterator begin() { return iterator(this); }
  iterator end() { return iterator(nullptr); }

  ArrowErrorCode code() const { return *code_; }
  struct ArrowError* error() { return error_; }
  /* The number of arrays drawn from the stream so far (errors and the end of
   * the stream are not counted). */
  int count() const { return count_; }

 private:
  struct ArrowArrayStream* stream_;
  ArrowErrorCode* code_;
  struct ArrowError* error_;
  ArrowErrorCode internal_code_ = NANOARROW_OK;
  struct ArrowError internal_error_;
  int count_ = 0;
};

/* Shorter names for the views: ViewAs<int32_t>(&view), ViewAsBytes<32>(array). */
template <typename T>
using ViewAs = ViewArrayAs<T>;
template <int OffsetSize>
using ViewAsBytes = ViewArrayAsBytes<OffsetSize>;

#if NANOARROW_HAS_ZIP

/* ======================================================================== */
/* Zip and Enumerate (C++17)                                                */
/* ======================================================================== */

namespace internal {

template <typename Range>
using RangeBegin = decltype(std::begin(std::declval<Range&>()));
template <typename Range>
using RangeEnd = decltype(std::end(std::declval<Range&>()));

/* Counts 0, 1, 2, ... without end. */
class EnumerateRange {
 public:
  struct sentinel {};

  class iterator {
   public:
    using value_type = int64_t;
    using difference_type = int64_t;
    using reference = int64_t;
    using pointer = void;
    using iterator_category = std::input_iterator_tag;

    constexpr int64_t operator*() const { return i_; }
    constexpr iterator& operator++() {
      ++i_;
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator previous = *this;
      ++i_;
      return previous;
    }
    friend constexpr bool operator==(const iterator&, sentinel) { return false; }
    friend constexpr bool operator!=(const iterator&, sentinel) { return true; }
    friend constexpr bool operator==(sentinel, const iterator&) { return false; }
    friend constexpr bool operator!=(sentinel, const iterator&) { return true; }

   private:
    int64_t i_ = 0;
  };

  constexpr iterator begin() const { return iterator(); }
  constexpr sentinel end() const { return sentinel(); }
};

/* A range whose length is known up front (std::size works: containers, arrays,
 * the views above) and one that never ends (Enumerate). When every range of a
 * Zip is one or the other, the Zip counts its length down instead of comparing
 * each iterator with its end: one exit test per element, which compilers can
 * vectorize. */
template <typename Range, typename = void>
struct IsSizedRange : std::false_type {};
template <typename Range>
struct IsSizedRange<Range, std::void_t<decltype(std::size(std::declval<Range&>()))>>
    : std::true_type {};
template <typename Range>
struct IsEndlessRange : std::is_same<std::decay_t<Range>, EnumerateRange> {};

template <typename Range>
std::ptrdiff_t ZipLength(Range& range, std::ptrdiff_t shortest) {
  if constexpr (IsSizedRange<Range>::value) {
    const auto size = static_cast<std::ptrdiff_t>(std::size(range));
    return (shortest < 0 || size < shortest) ? size : shortest;
  } else {
    return shortest;
  }
}

}  // namespace internal

/* Iterates ranges in lockstep until the first of them ends:
 *
 *   for (auto [i, value, out] : Zip(Enumerate, ViewAs<int32_t>(&view), vec)) ...
 *
 * Each element is a std::tuple of what the ranges' iterators yield (a
 * std::vector<T>& gives T&, so assigning to that binding writes into the
 * vector). Ranges passed as lvalues are referenced, rvalues are moved in. */
template <typename... Ranges>
class Zip {
  static_assert(sizeof...(Ranges) > 0, "Zip needs at least one range");

  template <typename Is>
  struct Impl;

  template <std::size_t... I>
  struct Impl<std::index_sequence<I...>> {
    /* Counted: every range is sized or endless, and at least one is sized. */
    static constexpr bool kCounted =
        ((internal::IsSizedRange<Ranges>::value || internal::IsEndlessRange<Ranges>::value) &&
         ...) &&
        (internal::IsSizedRange<Ranges>::value || ...);

    struct sentinel {
      std::tuple<internal::RangeEnd<Ranges>...> ends;
    };

    class iterator {
     public:
      using value_type =
          std::tuple<decltype(*std::declval<const internal::RangeBegin<Ranges>&>())...>;
      using reference = value_type;
      using difference_type = std::ptrdiff_t;
      using pointer = void;
      using iterator_category = std::input_iterator_tag;

      iterator(std::tuple<internal::RangeBegin<Ranges>...> its, std::ptrdiff_t remaining)
          : its_(std::move(its)), remaining_(remaining) {}

      value_type operator*() const { return value_type(*std::get<I>(its_)...); }
      iterator& operator++() {
        ((void)++std::get<I>(its_), ...);
        if constexpr (kCounted) --remaining_;
        return *this;
      }
      void operator++(int) { ++*this; }

      /* Equal to the end as soon as one range is at its end. */
      friend bool operator==(const iterator& it, const sentinel& end) {
        if constexpr (kCounted) {
          (void)end;
          return it.remaining_ <= 0;
        } else {
          return ((std::get<I>(it.its_) == std::get<I>(end.ends)) || ...);
        }
      }
      friend bool operator!=(const iterator& it, const sentinel& end) { return !(it == end); }
      friend bool operator==(const sentinel& end, const iterator& it) { return it == end; }
      friend bool operator!=(const sentinel& end, const iterator& it) { return !(it == end); }

     private:
      std::tuple<internal::RangeBegin<Ranges>...> its_;
      std::ptrdiff_t remaining_;
    };

    static iterator Begin(std::tuple<Ranges...>& ranges) {
      std::ptrdiff_t remaining = -1;
      if constexpr (kCounted) {
        ((remaining = internal::ZipLength(std::get<I>(ranges), remaining)), ...);
      }
      return iterator(
          std::tuple<internal::RangeBegin<Ranges>...>(std::begin(std::get<I>(ranges))...),
          remaining);
    }
    static sentinel End(std::tuple<Ranges...>& ranges) {
      return sentinel{
          std::tuple<internal::RangeEnd<Ranges>...>(std::end(std::get<I>(ranges))...)};
    }
  };
  using Indexed = Impl<std::index_sequence_for<Ranges...>>;

 public:
  using iterator = typename Indexed::iterator;
  using sentinel = typename Indexed::sentinel;

  explicit Zip(Ranges&&... ranges) : ranges_(std::forward<Ranges>(ranges)...) {}

  iterator begin() { return Indexed::Begin(ranges_); }
  sentinel end() { return Indexed::End(ranges_); }

 private:
  std::tuple<Ranges...> ranges_;
};

/* An lvalue argument deduces a reference type (held by reference), an rvalue a
 * plain type (moved into the Zip). */
template <typename... Ranges>
Zip(Ranges&&...) -> Zip<Ranges...>;

/* The indices 0, 1, 2, ... as a range to Zip with others. */
inline constexpr internal::EnumerateRange Enumerate{};

#endif /* NANOARROW_HAS_ZIP */

/* ======================================================================== */
/* Literals                                                                 */
/* ======================================================================== */

namespace literals {

/* "abc"_asv is an ArrowStringView of the literal. */
inline struct ArrowStringView operator"" _asv(const char* data, std::size_t size_bytes) {
  struct ArrowStringView out;
  out.data = data;
  out.size_bytes = static_cast<int64_t>(size_bytes);
  return out;
}

}  // namespace literals

NANOARROW_HPP_END_NAMESPACE

/* Byte-wise equality of two string views (global, so that it is found for the
 * global C struct from any namespace). */
inline bool operator==(struct ArrowStringView lhs, struct ArrowStringView rhs) {
  return lhs.size_bytes == rhs.size_bytes &&
         (lhs.size_bytes == 0 ||
          std::memcmp(lhs.data, rhs.data, static_cast<std::size_t>(lhs.size_bytes)) == 0);
}
inline bool operator!=(struct ArrowStringView lhs, struct ArrowStringView rhs) {
  return !(lhs == rhs);
}

#endif /* NANOARROW_HPP_INCLUDED */
