#!/usr/bin/env bash
# Checks the vendoring story end to end. Exits non-zero on the first failure.
#
#  1. dist/ is exactly what tools/bundle writes (regenerated into a temp dir)
#  2. dist/ compiles alone (only its files + libc) with gcc and clang as C99
#     (flat, and with the headers in a nanoarrow/ folder next to the sources)
#     (-Wall -Wextra -Wpedantic -Werror) and with g++ as C++; the same for a
#     bundle with --namespace baked in, whose exports must all carry the prefix.
#     The IPC bundle also with -DNANOARROW_IPC_WITH_ZSTD / _LZ4 (-lzstd / -llz4),
#     and the C++ helpers (nanoarrow.hpp, nanoarrow_ipc.hpp, nanoarrow_device.hpp)
#     with g++ -std=c++11;
#     the device bundle (nanoarrow_device.h/.c) likewise
#  3. every example builds against the bundle and runs, including
#     examples/vendored/build.sh (plain cc over dist/), the IPC examples
#     (examples/ipc: write | read, stream and file format, with the codecs) and
#     tests/cpp/test_ipc_hpp.cc
#  4. two copies with different NANOARROW_NAMESPACE link into one program and
#     work (tests/namespace via CMake, and from the bundle); without namespaces
#     the same link must fail with duplicate symbols
#  5. every symbol exported by libnanoarrow.a, libnanoarrow_ipc.a and
#     libnanoarrow_device.a starts with Arrow (or with the namespace when one is set);
#     5b. each public one is declared in the bundle as binding generators expect
#     (tools/check-header-rules.py: `NANOARROW_DLL` first, `//` comments)
#  6. the examples build against an installed copy via find_package and via
#     pkg-config, and via add_subdirectory/FetchContent (examples/cmake-subdirectory)
#  7. Meson: meson.build matches CMakeLists.txt, src/common and src/ipc; when
#     meson is installed, the build (with IPC), its tests, and use as a
#     subproject
#  8. prints the compiled size (size: text + data, -O2) of the core library
#     and of the IPC library
#
#   tools/check-bundle.sh          (build trees in build/check-bundle, or in
#                                   $NANOARROW_CHECK_BUNDLE_DIR when set)
#   NANOARROW_CHECK_IPC=0 tools/check-bundle.sh    (leave IPC out of 2-8)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
work=${NANOARROW_CHECK_BUNDLE_DIR:-$root/build/check-bundle}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nanoarrow-check-bundle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rm -rf "$work"
mkdir -p "$work"

step() { printf '\n== check-bundle: %s\n' "$*"; }
fail() { printf 'check-bundle: FAILED: %s\n' "$*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "'$1' is required"; }
for tool in python3 gcc clang g++ cmake nm size pkg-config; do need "$tool"; done

c_flags=(-std=c99 -Wall -Wextra -Wpedantic -Werror)
cxx_flags=(-x c++ -Wall -Wextra -Werror)
have_ipc=1
[ "${NANOARROW_CHECK_IPC:-1}" = 0 ] && have_ipc=0
# The compression libraries the IPC bundle can use (-DNANOARROW_IPC_WITH_*).
ipc_codec_defs=()
ipc_codec_libs=()
if [ "$have_ipc" = 1 ]; then
  for codec in ZSTD:zstd LZ4:lz4; do
    if pkg-config --exists "lib${codec#*:}"; then
      ipc_codec_defs+=(-DNANOARROW_IPC_WITH_"${codec%%:*}")
      ipc_codec_libs+=(-l"${codec#*:}")
    else
      echo "note: lib${codec#*:} not found: IPC checked without ${codec%%:*}"
    fi
  done
fi

# exported_symbols FILE: defined global code/data symbols of an archive or object.
exported_symbols() {
  nm -g --defined-only "$1" | awk 'NF == 3 && $2 ~ /^[TDBR]$/ {print $3}' | sort -u
}

# check_prefix WHAT FILE REGEX: every exported symbol of FILE matches REGEX.
check_prefix() {
  local syms bad
  syms=$(exported_symbols "$2")
  [ -n "$syms" ] || fail "$1: no exported symbols in $2"
  bad=$(echo "$syms" | grep -v -E "$3" || true)
  [ -z "$bad" ] || fail "$1: symbols exported without the expected prefix ($3):
$bad"
  echo "ok: $1: $(echo "$syms" | wc -l) exported symbols, all match $3"
}

# ---------------------------------------------------------------------------
step "1. dist/ is up to date with tools/bundle"
[ -d dist ] || fail "dist/ is missing: run tools/bundle"
tools/bundle --output-dir "$tmp/dist" >/dev/null
if ! diff -r "$tmp/dist" dist >"$work/dist.diff"; then
  head -n 40 "$work/dist.diff"
  fail "dist/ differs from what tools/bundle writes: run tools/bundle and commit dist/"
fi
echo "ok: dist/ matches ($(ls dist | tr '\n' ' '))"

# ---------------------------------------------------------------------------
step "2. dist/ compiles alone with gcc, clang (C99) and g++ (C++)"
# compile_alone DIR NAME [DEFINES...]: copy DIR's bundle into an empty dir and
# compile NAME.c with each compiler.
compile_alone() {
  local src=$1 name=$2 alone="$tmp/alone-$RANDOM"
  shift 2
  mkdir -p "$alone"
  cp "$src"/*.h "$src/$name.c" "$alone/"
  (cd "$alone" &&
    gcc "${c_flags[@]}" "$@" -c "$name.c" -o gcc.o &&
    clang "${c_flags[@]}" "$@" -c "$name.c" -o clang.o &&
    g++ "${cxx_flags[@]}" "$@" -c "$name.c" -o gxx.o) \
    || fail "$src/$name.c does not compile alone${*:+ with $*}"
  echo "ok: $name.c${*:+ ($*)}: gcc, clang, g++"
}
compile_alone dist nanoarrow
# compile_nested NAME: NAME.c with the bundle's headers in a nanoarrow/ folder
# next to it (the layout of nanoarrow's vendored examples), nothing else.
compile_nested() {
  local nested="$tmp/nested-$1"
  mkdir -p "$nested/nanoarrow"
  cp dist/nanoarrow/*.h "$nested/nanoarrow/"
  cp "dist/$1.c" "$nested/"
  (cd "$nested" &&
    gcc "${c_flags[@]}" -c "$1.c" -o gcc.o && clang "${c_flags[@]}" -c "$1.c" -o clang.o) \
    || fail "dist/$1.c does not compile with its header in nanoarrow/"
  echo "ok: $1.c with the headers in nanoarrow/: gcc, clang"
}
compile_nested nanoarrow
compile_nested nanoarrow_device
[ "$have_ipc" = 1 ] && compile_nested nanoarrow_ipc
for header in dist/*.h dist/*.hpp; do
  cmp -s "$header" "dist/nanoarrow/$(basename "$header")" \
    || fail "dist/nanoarrow/$(basename "$header") differs from $header"
done
echo "ok: dist/nanoarrow/ holds the same headers as dist/"
if [ "$have_ipc" = 1 ]; then
  [ -f dist/nanoarrow_ipc.c ] || fail "dist/nanoarrow_ipc.c is missing: run tools/bundle"
  compile_alone dist nanoarrow_ipc
  for def in "${ipc_codec_defs[@]}"; do
    compile_alone dist nanoarrow_ipc "$def"
  done
  if [ ${#ipc_codec_defs[@]} -gt 1 ]; then
    compile_alone dist nanoarrow_ipc "${ipc_codec_defs[@]}"
  fi
else
  echo "note: IPC bundle not checked (NANOARROW_CHECK_IPC=0)"
fi
[ -f dist/nanoarrow_device.c ] || fail "dist/nanoarrow_device.c is missing: run tools/bundle"
compile_alone dist nanoarrow_device
if [ -f dist/nanoarrow.hpp ]; then
  printf '#include "nanoarrow.hpp"\nint main() { nanoarrow::UniqueSchema s; return 0; }\n' \
    >"$tmp/hpp.cc"
  g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -I dist -fsyntax-only "$tmp/hpp.cc" \
    || fail "dist/nanoarrow.hpp does not compile as C++11"
  echo "ok: nanoarrow.hpp: g++ -std=c++11"
fi
if [ "$have_ipc" = 1 ]; then
  [ -f dist/nanoarrow_ipc.hpp ] || fail "dist/nanoarrow_ipc.hpp is missing: run tools/bundle"
  printf '#include "nanoarrow_ipc.hpp"\nint main() { nanoarrow::ipc::UniqueDecoder d; return 0; }\n' \
    >"$tmp/ipc_hpp.cc"
  g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -I dist -fsyntax-only "$tmp/ipc_hpp.cc" \
    || fail "dist/nanoarrow_ipc.hpp does not compile as C++11"
  echo "ok: nanoarrow_ipc.hpp: g++ -std=c++11"
fi
[ -f dist/nanoarrow_device.hpp ] || fail "dist/nanoarrow_device.hpp is missing: run tools/bundle"
printf '#include "nanoarrow_device.hpp"\nint main() { nanoarrow::device::UniqueDeviceArray a; return 0; }\n' \
  >"$tmp/device_hpp.cc"
g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -I dist -fsyntax-only "$tmp/device_hpp.cc" \
  || fail "dist/nanoarrow_device.hpp does not compile as C++11"
echo "ok: nanoarrow_device.hpp: g++ -std=c++11"

tools/bundle --namespace CheckNs --output-dir "$tmp/dist-ns" >/dev/null
grep -q '^#define NANOARROW_NAMESPACE CheckNs$' "$tmp/dist-ns/nanoarrow.h" \
  || fail "tools/bundle --namespace did not bake NANOARROW_NAMESPACE in"
gcc "${c_flags[@]}" -c "$tmp/dist-ns/nanoarrow.c" -o "$tmp/dist-ns/nanoarrow.o" \
  || fail "namespaced bundle does not compile"
check_prefix "bundle --namespace CheckNs" "$tmp/dist-ns/nanoarrow.o" '^CheckNs'
gcc "${c_flags[@]}" -c dist/nanoarrow.c -o "$tmp/nanoarrow-plain.o"
check_prefix "bundle without namespace" "$tmp/nanoarrow-plain.o" '^Arrow'
if [ "$have_ipc" = 1 ]; then
  gcc "${c_flags[@]}" "${ipc_codec_defs[@]}" -c "$tmp/dist-ns/nanoarrow_ipc.c" \
    -o "$tmp/dist-ns/nanoarrow_ipc.o" || fail "namespaced IPC bundle does not compile"
  check_prefix "IPC bundle --namespace CheckNs" "$tmp/dist-ns/nanoarrow_ipc.o" '^CheckNs'
  gcc "${c_flags[@]}" "${ipc_codec_defs[@]}" -c dist/nanoarrow_ipc.c -o "$tmp/nanoarrow_ipc-plain.o"
  check_prefix "IPC bundle without namespace" "$tmp/nanoarrow_ipc-plain.o" '^Arrow'
fi
gcc "${c_flags[@]}" -c "$tmp/dist-ns/nanoarrow_device.c" -o "$tmp/dist-ns/nanoarrow_device.o" \
  || fail "namespaced device bundle does not compile"
check_prefix "device bundle --namespace CheckNs" "$tmp/dist-ns/nanoarrow_device.o" '^CheckNs'
gcc "${c_flags[@]}" -c dist/nanoarrow_device.c -o "$tmp/nanoarrow_device-plain.o"
check_prefix "device bundle without namespace" "$tmp/nanoarrow_device-plain.o" '^Arrow'

# ---------------------------------------------------------------------------
step "3. examples against the bundle"
examples/vendored/build.sh "$work/vendored" >/dev/null || fail "examples/vendored/build.sh"
"$work/vendored" || fail "vendored example run"

# The examples include "nanoarrow/nanoarrow.h": dist/nanoarrow/ serves them with -I dist.
bundle_cc=(gcc "${c_flags[@]}" -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
           -I dist)
shopt -s nullglob
examples=(examples/*.c)
shopt -u nullglob
for src in "${examples[@]}"; do
  name=$(basename "$src" .c)
  "${bundle_cc[@]}" "$src" dist/nanoarrow.c -o "$work/bundle-$name" -lm \
    || fail "example $name does not build against the bundle"
  "$work/bundle-$name" >"$work/bundle-$name.out" || fail "example $name (bundle) failed"
  echo "ok: $name (bundle)"
done
"${bundle_cc[@]}" examples/c-data-interface/*.c dist/nanoarrow.c -o "$work/bundle-cdi" -lm \
  || fail "examples/c-data-interface does not build against the bundle"
"$work/bundle-cdi" >"$work/bundle-cdi.out" || fail "c-data-interface (bundle) failed"
echo "ok: c-data-interface (bundle)"

"${bundle_cc[@]}" tests/device/device_consumer.c dist/nanoarrow_device.c dist/nanoarrow.c \
  -o "$work/bundle-device_consumer" -lm \
  || fail "tests/device/device_consumer.c does not build against the bundle"
"$work/bundle-device_consumer" >/dev/null || fail "device_consumer (bundle) failed"
echo "ok: tests/device/device_consumer.c (bundle: nanoarrow_device.c + nanoarrow.c)"

# check_ipc_examples DIR: DIR/ipc_write's stream and file, read back by
# DIR/ipc_read, give the same (expected) rows.
check_ipc_examples() {
  local dir=$1
  "$dir/ipc_write" | "$dir/ipc_read" >"$dir/ipc-stream.out" || fail "$dir: ipc_write | ipc_read"
  "$dir/ipc_write" --file "$dir/people.arrow" || fail "$dir: ipc_write --file"
  "$dir/ipc_read" "$dir/people.arrow" >"$dir/ipc-file.out" || fail "$dir: ipc_read (file format)"
  diff "$dir/ipc-stream.out" "$dir/ipc-file.out" >/dev/null \
    || fail "$dir: the IPC stream and file read back differently"
  grep -q '^  {id: 3, name: null, score: 1}$' "$dir/ipc-stream.out" \
    && grep -q '^2 batches, 5 rows$' "$dir/ipc-stream.out" \
    || { cat "$dir/ipc-stream.out"; fail "$dir: ipc_read printed unexpected rows"; }
}
if [ "$have_ipc" = 1 ]; then
  mkdir -p "$work/bundle-ipc"
  for src in examples/ipc/*.c; do
    name=$(basename "$src" .c)
    "${bundle_cc[@]}" "${ipc_codec_defs[@]}" "$src" dist/nanoarrow_ipc.c dist/nanoarrow.c \
      -o "$work/bundle-ipc/$name" "${ipc_codec_libs[@]}" -lm \
      || fail "IPC example $name does not build against the bundle"
  done
  check_ipc_examples "$work/bundle-ipc"
  echo "ok: examples/ipc (bundle${ipc_codec_defs[*]:+, ${ipc_codec_defs[*]}}): write | read, stream and file"
  # The compressed integration files, when the test data is next to the checkout.
  data="$root/../shared/arrow-testing/data/arrow-ipc-stream/integration/2.0.0-compression"
  if [ ${#ipc_codec_defs[@]} = 2 ] && [ -d "$data" ]; then
    for file in "$data"/*.stream; do
      "$work/bundle-ipc/ipc_read" "$file" >/dev/null || fail "ipc_read (bundle) $file"
    done
    echo "ok: ipc_read (bundle) reads $(ls "$data"/*.stream | wc -l) compressed integration streams"
  fi
  gcc "${c_flags[@]}" -O1 -fsanitize=address,undefined "${ipc_codec_defs[@]}" \
    -c dist/nanoarrow_ipc.c -o "$tmp/asan-ipc.o"
  gcc "${c_flags[@]}" -O1 -fsanitize=address,undefined -c dist/nanoarrow.c -o "$tmp/asan-core.o"
  g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -O1 -fsanitize=address,undefined \
    -fno-sanitize-recover=all -I dist tests/cpp/test_ipc_hpp.cc \
    "$tmp/asan-ipc.o" "$tmp/asan-core.o" -o "$work/bundle-test_ipc_hpp" "${ipc_codec_libs[@]}" -lm \
    || fail "tests/cpp/test_ipc_hpp.cc does not build against the bundle"
  "$work/bundle-test_ipc_hpp" || fail "test_ipc_hpp (bundle) failed"
fi

# ---------------------------------------------------------------------------
step "4. two namespaced copies in one program"
cmake -S tests/namespace -B "$work/namespace" -DCMAKE_BUILD_TYPE=Debug \
  >"$work/namespace.configure.log" || { cat "$work/namespace.configure.log"; fail "configure tests/namespace"; }
cmake --build "$work/namespace" -j2 >"$work/namespace.build.log" 2>&1 \
  || { cat "$work/namespace.build.log"; fail "build tests/namespace"; }
"$work/namespace/two_copies" || fail "tests/namespace: two_copies"
nm "$work/namespace/two_copies" >"$work/two_copies.nm"
for ns in NsA NsB; do
  grep -q " T ${ns}ArrowSchemaInit\$" "$work/two_copies.nm" \
    || fail "two_copies does not contain ${ns}ArrowSchemaInit"
done

# The same from the bundle, plus the control: without namespaces it must clash.
# bundle_copy NAME NAMESPACE PREFIX: static library of copy.c + the bundle.
bundle_copy() {
  local dir="$tmp/copy-$1"
  mkdir -p "$dir"
  local defs=(-DCOPY_PREFIX="$3")
  [ -n "$2" ] && defs+=(-DNANOARROW_NAMESPACE="$2")
  gcc "${c_flags[@]}" "${defs[@]}" -I dist -c tests/namespace/copy.c -o "$dir/copy.o"
  gcc "${c_flags[@]}" "${defs[@]}" -c dist/nanoarrow.c -o "$dir/nanoarrow.o"
  ar rcs "$tmp/lib$1.a" "$dir/copy.o" "$dir/nanoarrow.o"
}
bundle_copy a NsA copy_a_
bundle_copy b NsB copy_b_
gcc -std=c99 tests/namespace/main.c -Wl,--whole-archive "$tmp/liba.a" "$tmp/libb.a" \
  -Wl,--no-whole-archive -lm -o "$work/two_copies_bundle" || fail "bundle: two copies do not link"
"$work/two_copies_bundle" >/dev/null || fail "bundle: two_copies failed"
echo "ok: two namespaced bundle copies link and work"
bundle_copy a_plain "" copy_a_
bundle_copy b_plain "" copy_b_
if gcc -std=c99 tests/namespace/main.c -Wl,--whole-archive "$tmp/liba_plain.a" \
     "$tmp/libb_plain.a" -Wl,--no-whole-archive -lm -o "$tmp/clash" 2>"$tmp/clash.log"; then
  fail "control: two copies WITHOUT namespaces linked, so the test above proves nothing"
fi
grep -q 'multiple definition' "$tmp/clash.log" || { cat "$tmp/clash.log"; fail "control: unexpected link error"; }
echo "ok: control: without namespaces the copies clash (multiple definition)"

# ---------------------------------------------------------------------------
step "5. libnanoarrow.a exports only Arrow* (or namespaced) symbols"
# build_lib NAME [cmake args]: Release static build with -O2 in $work/NAME.
build_lib() {
  local name=$1
  shift
  cmake -S "$root" -B "$work/$name" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_INSTALL_LIBDIR=lib "$@" \
    >"$work/$name.configure.log" || { cat "$work/$name.configure.log"; fail "configure ($name)"; }
  cmake --build "$work/$name" -j2 >"$work/$name.build.log" 2>&1 \
    || { cat "$work/$name.build.log"; fail "build ($name)"; }
}
ipc_args=(-DNANOARROW_DEVICE=ON)
[ "$have_ipc" = 1 ] && ipc_args+=(-DNANOARROW_IPC=ON)
build_lib lib "${ipc_args[@]}"
check_prefix "libnanoarrow.a" "$work/lib/libnanoarrow.a" '^Arrow'
build_lib lib-ns -DNANOARROW_NAMESPACE=CheckNs "${ipc_args[@]}"
check_prefix "libnanoarrow.a (NANOARROW_NAMESPACE=CheckNs)" "$work/lib-ns/libnanoarrow.a" '^CheckNs'
if [ "$have_ipc" = 1 ]; then
  [ -f "$work/lib/libnanoarrow_ipc.a" ] || fail "-DNANOARROW_IPC=ON did not build libnanoarrow_ipc.a"
  check_prefix "libnanoarrow_ipc.a" "$work/lib/libnanoarrow_ipc.a" '^Arrow'
  check_prefix "libnanoarrow_ipc.a (NANOARROW_NAMESPACE=CheckNs)" \
    "$work/lib-ns/libnanoarrow_ipc.a" '^CheckNs'
fi
[ -f "$work/lib/libnanoarrow_device.a" ] || fail "-DNANOARROW_DEVICE=ON did not build libnanoarrow_device.a"
check_prefix "libnanoarrow_device.a" "$work/lib/libnanoarrow_device.a" '^Arrow'
check_prefix "libnanoarrow_device.a (NANOARROW_NAMESPACE=CheckNs)" \
  "$work/lib-ns/libnanoarrow_device.a" '^CheckNs'

step "5b. the bundled headers follow the declaration rules bindings parse"
header_libs=("$work/lib/libnanoarrow.a" "$work/lib/libnanoarrow_device.a")
[ "$have_ipc" = 1 ] && header_libs+=("$work/lib/libnanoarrow_ipc.a")
python3 tools/check-header-rules.py dist "${header_libs[@]}" ||
  fail "a public declaration does not follow the header rules (tools/check-header-rules.py)"

# ---------------------------------------------------------------------------
step "6. examples against an installed copy"
prefix="$tmp/prefix"
cmake --install "$work/lib" --prefix "$prefix" >/dev/null || fail "install"
cmake -S examples -B "$work/examples-installed" -DCMAKE_PREFIX_PATH="$prefix" \
  >"$work/examples-installed.configure.log" \
  || { cat "$work/examples-installed.configure.log"; fail "configure examples against the install"; }
cmake --build "$work/examples-installed" -j2 >"$work/examples-installed.build.log" 2>&1 \
  || { cat "$work/examples-installed.build.log"; fail "build examples against the install"; }
for src in "${examples[@]}"; do
  name=$(basename "$src" .c)
  "$work/examples-installed/$name" >/dev/null || fail "example $name (find_package) failed"
done
"$work/examples-installed/c_data_interface" >/dev/null || fail "c_data_interface (find_package) failed"
echo "ok: ${#examples[@]} examples + c-data-interface via find_package(nanoarrow)"
if [ "$have_ipc" = 1 ]; then
  [ -x "$work/examples-installed/ipc_read" ] \
    || fail "examples/CMakeLists.txt did not build the IPC examples (nanoarrow::nanoarrow_ipc)"
  check_ipc_examples "$work/examples-installed"
  echo "ok: examples/ipc via find_package(nanoarrow) (nanoarrow::nanoarrow_ipc)"
fi

pc_flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs nanoarrow) \
  || fail "pkg-config nanoarrow"
for src in "${examples[@]}"; do
  name=$(basename "$src" .c)
  # shellcheck disable=SC2086
  gcc -std=c99 "$src" $pc_flags -o "$work/pc-$name" || fail "example $name (pkg-config) build"
  "$work/pc-$name" >/dev/null || fail "example $name (pkg-config) failed"
done
# shellcheck disable=SC2086
gcc -std=c99 examples/c-data-interface/*.c $pc_flags -o "$work/pc-cdi" \
  || fail "c-data-interface (pkg-config) build"
"$work/pc-cdi" >/dev/null || fail "c-data-interface (pkg-config) failed"
echo "ok: ${#examples[@]} examples + c-data-interface via pkg-config ($pc_flags)"
if [ "$have_ipc" = 1 ]; then
  pc_ipc_flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs nanoarrow_ipc) \
    || fail "pkg-config nanoarrow_ipc"
  mkdir -p "$work/pc-ipc"
  for src in examples/ipc/*.c; do
    # shellcheck disable=SC2086
    gcc -std=c99 "$src" $pc_ipc_flags -o "$work/pc-ipc/$(basename "$src" .c)" \
      || fail "IPC example $src (pkg-config) build"
  done
  check_ipc_examples "$work/pc-ipc"
  echo "ok: examples/ipc via pkg-config ($pc_ipc_flags)"
fi

cmake -S examples/cmake-subdirectory -B "$work/subdirectory" >"$work/subdirectory.log" \
  && cmake --build "$work/subdirectory" -j2 >>"$work/subdirectory.log" 2>&1 \
  || { cat "$work/subdirectory.log"; fail "examples/cmake-subdirectory (add_subdirectory)"; }
"$work/subdirectory/subdirectory_example" || fail "subdirectory_example (add_subdirectory)"
# FetchContent, pointed at this checkout so that no network is needed.
cmake -S examples/cmake-subdirectory -B "$work/fetchcontent" -DNANOARROW_SOURCE_DIR= \
  -DFETCHCONTENT_SOURCE_DIR_NANOARROW="$root" >"$work/fetchcontent.log" \
  && cmake --build "$work/fetchcontent" -j2 >>"$work/fetchcontent.log" 2>&1 \
  || { cat "$work/fetchcontent.log"; fail "examples/cmake-subdirectory (FetchContent)"; }
"$work/fetchcontent/subdirectory_example" >/dev/null || fail "subdirectory_example (FetchContent)"
echo "ok: examples/cmake-subdirectory via add_subdirectory and FetchContent"

# ---------------------------------------------------------------------------
step "7. Meson"
cmake_version=$(sed -n 's/^ *VERSION \([0-9.]*\)$/\1/p' CMakeLists.txt | head -n 1)
grep -q "version: '$cmake_version'" meson.build \
  || fail "meson.build version differs from CMakeLists.txt ($cmake_version)"
for src in src/common/*.c src/ipc/*.c src/device/*.c src/testing/*.c; do
  grep -q "'$src'" meson.build || fail "meson.build does not list $src"
done
echo "ok: meson.build lists src/common/*.c, src/ipc/*.c, src/device/*.c, src/testing/*.c and version $cmake_version"
meson_ipc=(-Ddevice=enabled -Dtesting=enabled)
if [ "$have_ipc" = 1 ]; then
  meson_ipc+=(-Dipc=enabled)
  for def in "${ipc_codec_defs[@]}"; do
    codec=${def#-DNANOARROW_IPC_WITH_}
    meson_ipc+=(-Dipc_with_"$(echo "$codec" | tr 'A-Z' 'a-z')"=enabled)
  done
fi
if command -v meson >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1; then
  meson setup "$work/meson" "$root" -Dtests=enabled "${meson_ipc[@]}" >"$work/meson.log" 2>&1 \
    && meson compile -C "$work/meson" >>"$work/meson.log" 2>&1 \
    && meson test -C "$work/meson" --print-errorlogs >>"$work/meson.log" 2>&1 \
    || { cat "$work/meson.log"; fail "meson build/test"; }
  echo "ok: meson setup ${meson_ipc[*]} + compile + test ($(meson test -C "$work/meson" --list 2>/dev/null | wc -l) tests)"
  # A Meson project using this repository as its subproject.
  sub="$tmp/meson-user"
  mkdir -p "$sub/subprojects"
  ln -s "$root" "$sub/subprojects/nanoarrow"
  cp examples/vendored/main.c "$sub/main.c"
  sed -i 's|#include "nanoarrow.h"|#include "nanoarrow/nanoarrow.h"|' "$sub/main.c"
  cat >"$sub/meson.build" <<'EOF'
project('meson_user', 'c', default_options: ['c_std=c99'])
nanoarrow_dep = dependency('nanoarrow', fallback: ['nanoarrow', 'nanoarrow_dep'])
executable('meson_user', 'main.c', dependencies: nanoarrow_dep)
EOF
  meson_user_ipc=()
  if [ "$have_ipc" = 1 ]; then
    meson_user_ipc=(-Dnanoarrow:ipc=enabled)
    cp examples/ipc/ipc_write.c examples/ipc/ipc_read.c "$sub/"
    cat >>"$sub/meson.build" <<'EOF'
nanoarrow_ipc_dep = dependency('nanoarrow_ipc', fallback: ['nanoarrow', 'nanoarrow_ipc_dep'])
executable('ipc_write', 'ipc_write.c', dependencies: nanoarrow_ipc_dep)
executable('ipc_read', 'ipc_read.c', dependencies: nanoarrow_ipc_dep)
EOF
  fi
  meson_user_ipc+=(-Dnanoarrow:device=enabled)
  cp tests/device/device_consumer.c "$sub/"
  cat >>"$sub/meson.build" <<'EOF'
nanoarrow_device_dep = dependency('nanoarrow_device',
  fallback: ['nanoarrow', 'nanoarrow_device_dep'])
executable('device_consumer', 'device_consumer.c', dependencies: nanoarrow_device_dep)
EOF
  meson setup "$work/meson-user" "$sub" -Dnanoarrow:namespace=MesonUser "${meson_user_ipc[@]}" \
    >"$work/meson-user.log" 2>&1 \
    && meson compile -C "$work/meson-user" >>"$work/meson-user.log" 2>&1 \
    || { cat "$work/meson-user.log"; fail "meson subproject use"; }
  "$work/meson-user/meson_user" >/dev/null || fail "meson subproject example failed"
  nm "$work/meson-user/meson_user" >"$work/meson-user.nm"
  grep -q ' T MesonUserArrowSchemaInit$' "$work/meson-user.nm" \
    || fail "meson subproject: -Dnanoarrow:namespace was not applied"
  if [ "$have_ipc" = 1 ]; then
    check_ipc_examples "$work/meson-user"
    nm "$work/meson-user/ipc_read" >"$work/meson-user-ipc.nm"
    grep -q ' T MesonUserArrowIpcArrayStreamReaderInit$' "$work/meson-user-ipc.nm" \
      || fail "meson subproject: nanoarrow_ipc was not built with the namespace"
  fi
  "$work/meson-user/device_consumer" >/dev/null || fail "meson subproject: device_consumer failed"
  nm "$work/meson-user/device_consumer" >"$work/meson-user-device.nm"
  grep -q ' T MesonUserArrowDeviceCpu$' "$work/meson-user-device.nm" \
    || fail "meson subproject: nanoarrow_device was not built with the namespace"
  echo "ok: used as a Meson subproject (namespace MesonUser${meson_user_ipc[*]:+, ${meson_user_ipc[*]}})"
else
  echo "note: meson/ninja not installed: Meson build not exercised"
fi

# ---------------------------------------------------------------------------
step "8. compiled size (size: text + data, -O2)"
# lib_size FILE: text + data summed over the members of an archive.
lib_size() {
  size "$1" | awk 'NR > 1 {sum += $1 + $2} END {print sum}'
}
core=$(lib_size "$work/lib/libnanoarrow.a")
gcc -std=c99 -O2 -c dist/nanoarrow.c -o "$tmp/size-bundle.o"
bundle=$(lib_size "$tmp/size-bundle.o")
echo "size: core libnanoarrow.a (gcc -O2): $core bytes (text + data)"
echo "size: core bundle dist/nanoarrow.c (gcc -O2): $bundle bytes (text + data)"
if [ "$have_ipc" = 1 ]; then
  echo "size: IPC libnanoarrow_ipc.a (gcc -O2, no codecs): $(lib_size "$work/lib/libnanoarrow_ipc.a") bytes (text + data)"
  gcc -std=c99 -O2 -c dist/nanoarrow_ipc.c -o "$tmp/size-ipc.o"
  echo "size: IPC bundle dist/nanoarrow_ipc.c (gcc -O2, no codecs): $(lib_size "$tmp/size-ipc.o") bytes (text + data)"
else
  echo "size: IPC: not checked (NANOARROW_CHECK_IPC=0)"
fi
echo "size: device libnanoarrow_device.a (gcc -O2): $(lib_size "$work/lib/libnanoarrow_device.a") bytes (text + data)"

step "all bundle checks passed"
