// Self-checking tests of the C++17 parts of nanoarrow/nanoarrow.hpp (Zip,
// Enumerate, ViewAs and ViewAsBytes) and of the nanoarrow/hpp/ forwarding
// headers. Prints one line per failed check and exits non-zero when any check
// failed. Built as C++17.

// A forwarding header comes first, so that it must stand on its own; the others
// follow (each is also compiled first in a translation unit of its own when
// NANOARROW_HPP17_FORWARD_TUS is set, see tests/cpp/CMakeLists.txt).
#include "nanoarrow/hpp/view.hpp"

#include "nanoarrow/hpp/array_stream.hpp"
#include "nanoarrow/hpp/buffer.hpp"
#include "nanoarrow/hpp/exception.hpp"
#include "nanoarrow/hpp/operators.hpp"
#include "nanoarrow/hpp/unique.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "nanoarrow/nanoarrow.hpp"

static_assert(NANOARROW_HAS_ZIP == 1, "C++17 compilers must provide Zip and Enumerate");

using nanoarrow::Enumerate;
using nanoarrow::Zip;
using nanoarrow::literals::operator""_asv;

#include "check.h"

// Lvalue ranges are held by reference, rvalues by value.
static_assert(std::is_same_v<decltype(Zip(std::declval<std::vector<int>&>(),
                                          std::declval<std::vector<double>>())),
                             Zip<std::vector<int>&, std::vector<double>>>);
static_assert(std::is_same_v<decltype(Zip(Enumerate)),
                             Zip<const nanoarrow::internal::EnumerateRange&>>);

// Enumerate is constexpr and its end never compares equal.
static_assert(*Enumerate.begin() == 0);
static_assert(*++Enumerate.begin() == 1);
static_assert(Enumerate.begin() != Enumerate.end());
static_assert(!(Enumerate.begin() == Enumerate.end()));

// An int64 array [1, null, 3, 4] (nulls only when with_null).
static nanoarrow::UniqueArray MakeInt64Array(bool with_null) {
  nanoarrow::UniqueArray array;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(array.get(), NANOARROW_TYPE_INT64));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(array.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), 1));
  if (with_null) {
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(array.get(), 1));
  } else {
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), 2));
  }
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), 3));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(array.get(), 4));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(array.get(), nullptr));
  return array;
}

static nanoarrow::UniqueArrayView MakeView(const struct ArrowArray* array, enum ArrowType type) {
  nanoarrow::UniqueArrayView view;
  ArrowArrayViewInitFromType(view.get(), type);
  NANOARROW_THROW_NOT_OK(ArrowArrayViewSetArray(view.get(), array, nullptr));
  return view;
}

static std::string ToString(const nanoarrow::Nullable<struct ArrowStringView>& value) {
  if (!value) return "<null>";
  return std::string(value->data, static_cast<size_t>(value->size_bytes));
}

// A range whose end is a sentinel of another type: the characters of a C string.
struct CStringRange {
  struct sentinel {};
  struct iterator {
    const char* p;
    char operator*() const { return *p; }
    iterator& operator++() {
      ++p;
      return *this;
    }
    bool operator==(sentinel) const { return *p == '\0'; }
    bool operator!=(sentinel) const { return *p != '\0'; }
  };
  const char* str;
  iterator begin() const { return iterator{str}; }
  sentinel end() const { return sentinel{}; }
};

static void TestZipWritesThrough() {
  std::vector<int> ints{1, 2, 3};
  std::vector<std::string> strings{"x", "y", "z"};
  for (auto [i, s] : Zip(ints, strings)) {
    static_assert(std::is_same_v<decltype(i), int&>);
    static_assert(std::is_same_v<decltype(s), std::string&>);
    i *= 10;
    s += "!";
  }
  CHECK((ints == std::vector<int>{10, 20, 30}));
  CHECK((strings == std::vector<std::string>{"x!", "y!", "z!"}));

  // A const lvalue gives const references; a C array works too.
  const std::vector<int> source{7, 8, 9};
  int destination[3] = {0, 0, 0};
  for (auto [from, to] : Zip(source, destination)) {
    static_assert(std::is_same_v<decltype(from), const int&>);
    to = from + 1;
  }
  CHECK(destination[0] == 8 && destination[1] == 9 && destination[2] == 10);

  // An rvalue is moved into the Zip and lives as long as the loop.
  int sum = 0;
  for (auto [value] : Zip(std::vector<int>{4, 5, 6})) sum += value;
  CHECK(sum == 15);
  std::vector<int> moved_from{1, 2};
  auto zipped = Zip(std::move(moved_from));
  CHECK(moved_from.empty());  // the Zip took the elements
  int n_moved = 0;
  for (auto [value] : zipped) n_moved += value;
  CHECK(n_moved == 3);
}

static void TestZipStopsAtShortest() {
  std::vector<int> five{1, 2, 3, 4, 5};
  std::vector<int> three{10, 20, 30};
  std::vector<int> empty;

  int n = 0;
  for (auto [a, b] : Zip(five, three)) {
    a = b;
    n++;
  }
  CHECK(n == 3);
  CHECK((five == std::vector<int>{10, 20, 30, 4, 5}));  // the rest is untouched

  n = 0;
  for (auto [a, b, c] : Zip(three, std::vector<double>{1.5, 2.5}, five)) {
    (void)a;
    (void)b;
    (void)c;
    n++;
  }
  CHECK(n == 2);  // the shortest range in the middle

  n = 0;
  for (auto [a, b] : Zip(five, empty)) {
    (void)a;
    (void)b;
    n++;
  }
  CHECK(n == 0);

  // A sentinel of another type ends the loop too.
  std::string seen;
  for (auto [i, c] : Zip(Enumerate, CStringRange{"arrow"})) {
    seen += c;
    CHECK(i == static_cast<int64_t>(seen.size()) - 1);
  }
  CHECK(seen == "arrow");

  // A sized range beside one that is not: the unsized one can still end first.
  n = 0;
  for (auto [a, c] : Zip(five, CStringRange{"ab"})) {
    (void)a;
    (void)c;
    n++;
  }
  CHECK(n == 2);
}

static void TestEnumerate() {
  std::vector<int64_t> indices;
  std::vector<char> letters{'a', 'b', 'c', 'd'};
  std::string order;
  for (auto [i, letter] : Zip(Enumerate, letters)) {
    static_assert(std::is_same_v<decltype(i), int64_t>);
    indices.push_back(i);
    order += letter;
  }
  CHECK((indices == std::vector<int64_t>{0, 1, 2, 3}));
  CHECK(order == "abcd");

  // Enumerate alone never ends; two Enumerates stay in step.
  int64_t last = -1;
  bool in_step = true;
  for (auto [i, j] : Zip(Enumerate, Enumerate)) {
    in_step = in_step && i == j && i == last + 1;
    last = i;
    if (i == 1000) break;
  }
  CHECK(in_step);
  CHECK(last == 1000);
  int64_t count = 0;
  for (int64_t i : Enumerate) {
    if (i != count) break;
    if (++count == 10) break;
  }
  CHECK(count == 10);
}

static void TestViewAs() {
  // The typical loop: slot is nullable, value_out a reference into out.
  nanoarrow::UniqueArray array = MakeInt64Array(true);
  nanoarrow::UniqueArrayView view = MakeView(array.get(), NANOARROW_TYPE_INT64);
  std::vector<int64_t> out(static_cast<size_t>(view->length), -1);
  for (auto [i, slot, value_out] :
       nanoarrow::Zip(nanoarrow::Enumerate, nanoarrow::ViewAs<int64_t>(view.get()), out)) {
    static_assert(std::is_same_v<decltype(slot), nanoarrow::Nullable<int64_t>>);
    static_assert(std::is_same_v<decltype(value_out), int64_t&>);
    CHECK(static_cast<bool>(slot) == (i != 1));
    value_out = slot.value_or(0);
  }
  CHECK((out == std::vector<int64_t>{1, 0, 3, 4}));

  // From a const ArrowArray*: operator*, explicit operator bool and value_or.
  const struct ArrowArray* const_array = array.get();
  std::vector<int64_t> present;
  int nulls = 0;
  for (auto [slot] : Zip(nanoarrow::ViewAs<int64_t>(const_array))) {
    if (slot) {
      present.push_back(*slot);
    } else {
      nulls++;
      CHECK(slot == nanoarrow::NA);
      CHECK(slot.value_or(-7) == -7);
    }
  }
  CHECK((present == std::vector<int64_t>{1, 3, 4}));
  CHECK(nulls == 1);

  // A slice (offset 2) through the view, zipped with a shorter vector.
  array->offset = 2;
  array->length = 2;
  array->null_count = -1;
  nanoarrow::UniqueArrayView sliced = MakeView(array.get(), NANOARROW_TYPE_INT64);
  std::vector<int64_t> doubled(5, 0);
  int n = 0;
  for (auto [slot, value_out] : Zip(nanoarrow::ViewAs<int64_t>(sliced.get()), doubled)) {
    value_out = 2 * *slot;
    n++;
  }
  CHECK(n == 2);
  CHECK((doubled == std::vector<int64_t>{6, 8, 0, 0, 0}));

  // ViewAs<bool> reads the values bitmap.
  nanoarrow::UniqueArray bools;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(bools.get(), NANOARROW_TYPE_BOOL));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(bools.get()));
  for (int value : {1, 0, 0, 1, 1, 1, 0, 1, 0, 1}) {
    NANOARROW_THROW_NOT_OK(ArrowArrayAppendInt(bools.get(), value));
  }
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(bools.get(), 1));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(bools.get(), nullptr));
  std::string bits;
  for (auto [i, b] : Zip(Enumerate, nanoarrow::ViewAs<bool>(bools.get()))) {
    bits += b ? (*b ? '1' : '0') : 'n';
    CHECK(i < 11);
  }
  CHECK(bits == "1001110101n");
}

static void TestViewAsBytes() {
  nanoarrow::UniqueArray strings;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(strings.get(), NANOARROW_TYPE_STRING));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(strings.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(strings.get(), "abc"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(strings.get(), 1));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(strings.get(), "de"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(strings.get(), nullptr));

  std::vector<std::string> out(3);
  for (auto [i, value, text] : Zip(Enumerate, nanoarrow::ViewAsBytes<32>(strings.get()), out)) {
    static_assert(std::is_same_v<decltype(value), nanoarrow::Nullable<struct ArrowStringView>>);
    text = std::to_string(i) + ":" + ToString(value);
  }
  CHECK((out == std::vector<std::string>{"0:abc", "1:<null>", "2:de"}));

  nanoarrow::UniqueArray large;
  NANOARROW_THROW_NOT_OK(ArrowArrayInitFromType(large.get(), NANOARROW_TYPE_LARGE_STRING));
  NANOARROW_THROW_NOT_OK(ArrowArrayStartAppending(large.get()));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(large.get(), "x"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendString(large.get(), "yz"_asv));
  NANOARROW_THROW_NOT_OK(ArrowArrayAppendNull(large.get(), 1));
  NANOARROW_THROW_NOT_OK(ArrowArrayFinishBuildingDefault(large.get(), nullptr));
  nanoarrow::UniqueArrayView large_view = MakeView(large.get(), NANOARROW_TYPE_LARGE_STRING);
  std::vector<std::string> expected{"x", "yz", "<null>"};
  int n = 0;
  for (auto [value, want] : Zip(nanoarrow::ViewAsBytes<64>(large_view.get()), expected)) {
    CHECK(ToString(value) == want);
    n++;
  }
  CHECK(n == 3);

  // Two string columns side by side.
  std::string pairs;
  for (auto [a, b] : Zip(nanoarrow::ViewAsBytes<32>(strings.get()),
                         nanoarrow::ViewAsBytes<64>(large.get()))) {
    pairs += ToString(a) + "/" + ToString(b) + ";";
  }
  CHECK(pairs == "abc/x;<null>/yz;de/<null>;");
  CHECK(nanoarrow::ViewAsBytes<32>(strings.get())[2] == "de"_asv);
}

#if defined(NANOARROW_HPP17_FORWARD_TUS)
// Defined by the generated translation units that include one forwarding
// header first; each returns 15 when the whole of nanoarrow.hpp came with it.
int NanoarrowHppForward_array_stream();
int NanoarrowHppForward_buffer();
int NanoarrowHppForward_exception();
int NanoarrowHppForward_operators();
int NanoarrowHppForward_unique();
int NanoarrowHppForward_view();
#endif

static void TestForwardingHeaders() {
  // This file includes nanoarrow/hpp/view.hpp first; the guard of
  // nanoarrow.hpp is what each forwarding header pulls in.
#if !defined(NANOARROW_HPP_INCLUDED) || !defined(NANOARROW_HPP_VIEW_HPP_INCLUDED) || \
    !defined(NANOARROW_HPP_UNIQUE_HPP_INCLUDED)
#error "the forwarding headers did not include nanoarrow/nanoarrow.hpp"
#endif
#if defined(NANOARROW_HPP17_FORWARD_TUS)
  CHECK(NanoarrowHppForward_array_stream() == 15);
  CHECK(NanoarrowHppForward_buffer() == 15);
  CHECK(NanoarrowHppForward_exception() == 15);
  CHECK(NanoarrowHppForward_operators() == 15);
  CHECK(NanoarrowHppForward_unique() == 15);
  CHECK(NanoarrowHppForward_view() == 15);
#endif
}

// nanoarrow's internal range helpers, as code written against nanoarrow uses them.
static void TestUpstreamRangeHelpers() {
  auto square = [](int64_t i) { return i * i; };
  const nanoarrow::internal::RandomAccessRange<decltype(square)> squares{square, 0, 4};
  std::vector<int64_t> seen;
  for (int i = 0; i < 2; i++) {  // a const range can be walked again
    for (int64_t value : squares) seen.push_back(value);
  }
  CHECK((seen == std::vector<int64_t>{0, 1, 4, 9, 0, 1, 4, 9}));
  // An offset shortens the range by as many elements (get() applies it, if at all).
  const nanoarrow::internal::RandomAccessRange<decltype(square)> shifted{square, 1, 4};
  seen.clear();
  for (int64_t value : shifted) seen.push_back(value);
  CHECK((seen == std::vector<int64_t>{0, 1, 4}));

  auto factorial = [i = 1, f = 1]() mutable {
    f *= i++;
    return f < 1000 ? &f : nullptr;
  };
  nanoarrow::internal::InputRange<decltype(factorial)> factorials{factorial};
  std::vector<int> drawn;
  for (int value : factorials) drawn.push_back(value);
  CHECK((drawn == std::vector<int>{1, 2, 6, 24, 120, 720}));
  auto nothing = []() -> const int* { return nullptr; };
  nanoarrow::internal::InputRange<decltype(nothing)> empty{nothing};
  CHECK(empty.begin() == empty.end());
}

int main() {
  try {
    TestUpstreamRangeHelpers();
    TestZipWritesThrough();
    TestZipStopsAtShortest();
    TestEnumerate();
    TestViewAs();
    TestViewAsBytes();
    TestForwardingHeaders();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    return 1;
  }
  return CheckSummary("test_hpp17");
}
