#!/usr/bin/env bash
# Builds and runs the downstream projects in examples/ that use nanoarrow the
# ways nanoarrow's own examples do, with only the source location changed:
#
#   cmake-minimal     FetchContent of this tree, a library linking `nanoarrow`
#   cmake-ipc         FetchContent with NANOARROW_IPC, target_compile_options()
#                     on nanoarrow_static, linking nanoarrow_ipc_static
#   cmake-scenarios   find_package(nanoarrow) from a build tree and from an
#                     install, and FetchContent, each with the static, shared
#                     and default (nanoarrow::nanoarrow) targets of the core,
#                     IPC, device and testing libraries
#   vendored-minimal  dist/ copied flat next to the code (and -I dist)
#   vendored-ipc      dist/ headers in a nanoarrow/ folder (three layouts)
#   meson-minimal     this tree as a Meson subproject through a wrap file, with
#                     -Dnanoarrow:ipc=enabled; nanoarrow's tests stay unbuilt
#
# Each check prints "pass: NAME" or "FAIL: NAME"; the last line is
# "examples: N passed, N failed", and the exit status is non-zero on a failure.
#
#   tools/check-examples.sh     (uses $CC or cc; scratch trees in build/check-examples,
#                                or in $NANOARROW_CHECK_EXAMPLES_DIR when set)
set -uo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
cc=${CC:-cc}
work=${NANOARROW_CHECK_EXAMPLES_DIR:-$root/build/check-examples}
jobs=${NANOARROW_CHECK_EXAMPLES_JOBS:-2}
rm -rf "$work"
mkdir -p "$work"
# The version every build reports (CMake package, pkg-config, the CLI, the macros).
version=$(sed -n 's/^ *VERSION \([0-9.]*\)$/\1/p' CMakeLists.txt | head -n 1)

passed=0
failed=0
failures=()

# check NAME COMMAND...: runs COMMAND with its output in $work/NAME.log.
check() {
  local name=$1 log
  shift
  log="$work/$(echo "$name" | tr ' /:()' '_____').log"
  if "$@" >"$log" 2>&1; then
    echo "pass: $name"
    passed=$((passed + 1))
  else
    echo "FAIL: $name (log: $log)"
    tail -n 25 "$log" | sed 's/^/    /'
    failed=$((failed + 1))
    failures+=("$name")
  fi
}

# expect FILE TEXT: FILE contains the line fragment TEXT.
expect() {
  grep -q -F -- "$2" "$1" || { echo "expected '$2' in $1:"; cat "$1"; return 1; }
}

# has_symbol BINARY SYMBOL: BINARY defines SYMBOL.
# (nm's whole output is read first: grep -q stopping early would fail the pipe.)
has_symbol() {
  local syms
  syms=$(nm "$1") || return 1
  grep -q " T $2\$" <<<"$syms" || { echo "$1 does not define $2"; return 1; }
}

cmake_project() {  # cmake_project SRC BUILD [ARGS...]: configure and build
  local src=$1 build=$2
  shift 2
  cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER="$cc" "$@" && cmake --build "$build" -j"$jobs"
}

# ---------------------------------------------------------------------------
# CMake: FetchContent (cmake-minimal, cmake-ipc)
cmake_minimal() {
  local b="$work/cmake-minimal"
  cmake_project "$root/examples/cmake-minimal" "$b" || return 1
  "$b/example_cmake_minimal_app" 4 -1 20 >"$b/out.txt" || return 1
  expect "$b/out.txt" "int32 array of length 3, sum 23" || return 1
  has_symbol "$b/example_cmake_minimal_app" ExampleCmakeMinimalArrowArrayInitFromType || return 1
  # A bad argument is reported, not crashed on.
  if "$b/example_cmake_minimal_app" 1 x >"$b/bad.txt" 2>&1; then return 1; fi
  expect "$b/bad.txt" "argument 2 ('x') is not a 32-bit integer"
}
check "cmake-minimal (FetchContent, links nanoarrow)" cmake_minimal

cmake_ipc() {
  local b="$work/cmake-ipc"
  cmake_project "$root/examples/cmake-ipc" "$b" || return 1
  "$b/example_cmake_ipc_app" write 10 >"$b/ten.arrows" || return 1
  "$b/example_cmake_ipc_app" read <"$b/ten.arrows" >"$b/out.txt" || return 1
  expect "$b/out.txt" "4 batches, 10 rows, sum 45" || return 1
  has_symbol "$b/example_cmake_ipc_app" ExampleCmakeIpcArrowIpcArrayStreamReaderInit || return 1
  # A truncated stream is an error with a message.
  head -c 100 "$b/ten.arrows" >"$b/short.arrows"
  if "$b/example_cmake_ipc_app" read <"$b/short.arrows" >"$b/short.txt" 2>&1; then return 1; fi
  expect "$b/short.txt" "error: "
}
check "cmake-ipc (NANOARROW_IPC, target_compile_options(nanoarrow_static), nanoarrow_ipc_static)" cmake_ipc

# ---------------------------------------------------------------------------
# CMake: find_package from a build tree and from an install (cmake-scenarios)
nanoarrow_build="$work/nanoarrow-build"
nanoarrow_install="$work/nanoarrow-install"
build_nanoarrow() {
  cmake_project "$root" "$nanoarrow_build" -DCMAKE_BUILD_TYPE=Release \
    -DNANOARROW_IPC=ON -DNANOARROW_DEVICE=ON -DNANOARROW_TESTING=ON -DNANOARROW_BUILD_APPS=ON \
    -DCMAKE_INSTALL_LIBDIR=lib || return 1
  cmake --install "$nanoarrow_build" --prefix "$nanoarrow_install"
}
check "nanoarrow build + install (IPC, device, testing; static and shared)" build_nanoarrow

# scenario WHERE KIND ARGS...: cmake-scenarios built against nanoarrow.
scenario() {
  local where=$1 kind=$2 b="$work/scenarios-$1-$2"
  shift 2
  cmake_project "$root/examples/cmake-scenarios" "$b" -DTEST_BUILD_TYPE="$kind" "$@" \
    || return 1
  "$b/scenario_app" >"$b/out.txt" || return 1
  expect "$b/out.txt" "nanoarrow $version" || return 1
  expect "$b/out.txt" "ipc: read back 4 rows" || return 1
  expect "$b/out.txt" "all nanoarrow libraries work" || return 1
  # The kind asked for is the kind linked (auto: static, as nanoarrow was built).
  local libs
  libs=$(ldd "$b/scenario_app") || return 1
  if [ "$kind" = shared ]; then
    grep -q 'libnanoarrow_shared\.so' <<<"$libs" || { echo "not linked to libnanoarrow_shared.so"; return 1; }
  elif grep -q 'libnanoarrow' <<<"$libs"; then
    echo "linked to a shared nanoarrow:"; echo "$libs"; return 1
  fi
}
for kind in static shared auto; do
  check "cmake-scenarios: build tree (nanoarrow_ROOT), $kind" \
    scenario build "$kind" -Dnanoarrow_ROOT="$nanoarrow_build"
  check "cmake-scenarios: install (nanoarrow_ROOT), $kind" \
    scenario install "$kind" -Dnanoarrow_ROOT="$nanoarrow_install"
done
check "cmake-scenarios: build tree (nanoarrow_DIR), auto" \
  scenario build-dir auto -Dnanoarrow_DIR="$nanoarrow_build"
check "cmake-scenarios: FetchContent, static" scenario fetched static -DFIND_NANOARROW=OFF
check "cmake-scenarios: FetchContent, shared" scenario fetched shared -DFIND_NANOARROW=OFF

# The same version from the CLI, pkg-config, the CMake package and the header.
versions_agree() {
  local cli pc header package
  cli=$("$nanoarrow_install/bin/nanoarrow" --version) || return 1
  pc=$(PKG_CONFIG_PATH="$nanoarrow_install/lib/pkgconfig" pkg-config --modversion nanoarrow_ipc) \
    || return 1
  header=$(sed -n 's/^#define NANOARROW_VERSION "\(.*\)"$/\1/p' \
    "$nanoarrow_install/include/nanoarrow/nanoarrow_config.h")
  package=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' \
    "$nanoarrow_install/lib/cmake/nanoarrow/nanoarrowConfigVersion.cmake")
  echo "CMakeLists.txt $version; nanoarrow --version: $cli; pkg-config: $pc;" \
    "NANOARROW_VERSION: $header; CMake package: $package"
  [ "$cli" = "nanoarrow $version" ] && [ "$pc" = "$version" ] && [ "$header" = "$version" ] \
    && [ "$package" = "$version" ] && grep -q "version: '$version'" meson.build
}
check "version $version: CLI, pkg-config, NANOARROW_VERSION, CMake package, meson.build" versions_agree

# Version requests: any 0.x up to this one is accepted, a newer or 1.x one is not.
version_requests() {
  local p="$work/version-request" v
  for v in 0.5.0 0.8.0 0.9.0 0.9.1 1.0.0; do
    mkdir -p "$p/$v"
    cat >"$p/$v/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(version_request_$(echo $v | tr . _) LANGUAGES C)
find_package(nanoarrow $v QUIET)
file(WRITE "\${CMAKE_BINARY_DIR}/found.txt" "\${nanoarrow_FOUND} \${nanoarrow_VERSION}")
EOF
    cmake -S "$p/$v" -B "$p/$v/build" -Dnanoarrow_ROOT="$nanoarrow_install" >/dev/null || return 1
    echo "request $v: $(cat "$p/$v/build/found.txt")"
  done
  grep -q "^1 $version\$" "$p/0.5.0/build/found.txt" && grep -q "^1 $version\$" "$p/0.8.0/build/found.txt" \
    && grep -q "^1 $version\$" "$p/0.9.0/build/found.txt" \
    && ! grep -q '^1' "$p/0.9.1/build/found.txt" && ! grep -q '^1' "$p/1.0.0/build/found.txt"
}
check "find_package(nanoarrow 0.5.0 / 0.8.0 / 0.9.0) found, 0.9.1 / 1.0.0 not" version_requests

# ---------------------------------------------------------------------------
# Vendored bundle
dist="$root/dist"
vendored_minimal_copy() {
  local b="$work/vendored-minimal"
  mkdir -p "$b"
  cp -r "$root/examples/vendored-minimal/src" "$b/"
  cp "$dist/nanoarrow.h" "$dist/nanoarrow.c" "$b/src/"
  (cd "$b/src" &&
    "$cc" -std=c99 -Wall -Wextra -DNANOARROW_NAMESPACE=ExampleVendored -c library.c nanoarrow.c &&
    ar rcs libexample_vendored_minimal_library.a library.o nanoarrow.o &&
    "$cc" -o example_vendored_minimal_app app.c libexample_vendored_minimal_library.a -lm &&
    ./example_vendored_minimal_app one "" three >out.txt) || return 1
  expect "$b/src/out.txt" "2: three" || return 1
  expect "$b/src/out.txt" "3 elements" || return 1
  has_symbol "$b/src/example_vendored_minimal_app" ExampleVendoredArrowArrayInitFromSchema
}
check "vendored-minimal: flat copy next to the code (NANOARROW_NAMESPACE)" vendored_minimal_copy

vendored_minimal_dist() {
  local b="$work/vendored-minimal-dist"
  mkdir -p "$b"
  "$cc" -std=c99 -Wall -Wextra -I "$dist" "$root"/examples/vendored-minimal/src/*.c \
    "$dist/nanoarrow.c" -o "$b/app" -lm && "$b/app" a b >"$b/out.txt" \
    && expect "$b/out.txt" "1: b"
}
check "vendored-minimal: -I dist" vendored_minimal_dist

# vendored_ipc LAYOUT: the bundle laid out in a scratch copy of examples/vendored-ipc.
vendored_ipc() {
  local layout=$1 b="$work/vendored-ipc-$1" srcs incs=()
  mkdir -p "$b"
  cp -r "$root/examples/vendored-ipc/src" "$b/"
  case "$layout" in
    headers-in-folder)  # src/nanoarrow/*.h, src/*.c
      mkdir -p "$b/src/nanoarrow"
      cp "$dist"/nanoarrow/nanoarrow.h "$dist"/nanoarrow/nanoarrow_ipc.h "$b/src/nanoarrow/"
      cp "$dist/nanoarrow.c" "$dist/nanoarrow_ipc.c" "$b/src/"
      srcs=(nanoarrow.c nanoarrow_ipc.c) ;;
    all-in-folder)      # everything in src/nanoarrow/, -I./nanoarrow (flat includes resolve too)
      mkdir -p "$b/src/nanoarrow"
      cp "$dist/nanoarrow.h" "$dist/nanoarrow.c" "$dist/nanoarrow_ipc.h" "$dist/nanoarrow_ipc.c" \
        "$b/src/nanoarrow/"
      srcs=(nanoarrow/nanoarrow.c nanoarrow/nanoarrow_ipc.c)
      incs=(-I./nanoarrow) ;;
    dist)               # -I dist: dist/nanoarrow/ serves the nested includes
      srcs=("$dist/nanoarrow.c" "$dist/nanoarrow_ipc.c")
      incs=(-I "$dist") ;;
  esac
  (cd "$b/src" &&
    "$cc" -std=c99 -Wall -Wextra -DNANOARROW_NAMESPACE=ExampleVendoredIpc "${incs[@]}" \
      -c library.c "${srcs[@]}" &&
    ar rcs libexample_vendored_ipc_library.a library.o nanoarrow.o nanoarrow_ipc.o &&
    "$cc" -o example_vendored_ipc_app app.c libexample_vendored_ipc_library.a -lm &&
    ./example_vendored_ipc_app write >names.arrows &&
    ./example_vendored_ipc_app <names.arrows >out.txt) || return 1
  expect "$b/src/out.txt" "schema: struct<name: string>" || return 1
  expect "$b/src/out.txt" "batch 1: 2 rows" || return 1
  has_symbol "$b/src/example_vendored_ipc_app" ExampleVendoredIpcArrowIpcWriterInit || return 1
  # Not a stream: an error with a message, exit status 1.
  echo "not an arrow stream" >"$b/src/invalid.arrows"
  if (cd "$b/src" && ./example_vendored_ipc_app <invalid.arrows >invalid.txt 2>&1); then
    return 1
  fi
  expect "$b/src/invalid.txt" "error: "
}
check "vendored-ipc: headers in src/nanoarrow/, sources in src/" vendored_ipc headers-in-folder
check "vendored-ipc: whole bundle in src/nanoarrow/ (-I./nanoarrow)" vendored_ipc all-in-folder
check "vendored-ipc: -I dist (dist/nanoarrow/)" vendored_ipc dist

# ---------------------------------------------------------------------------
# Meson subproject
meson_minimal() {
  local b="$work/meson-minimal"
  command -v meson >/dev/null && command -v ninja >/dev/null \
    || { echo "meson and ninja are required (tools/install-deps.sh)"; return 1; }
  mkdir -p "$b"
  cp -r "$root/examples/meson-minimal" "$b/project"
  # The wrap's [provide] names are used; the checkout stands in for the clone.
  ln -s "$root" "$b/project/subprojects/nanoarrow"
  meson setup "$b/build" "$b/project" -Dnanoarrow:ipc=enabled -Dnanoarrow:namespace=MesonExample \
    && meson compile -C "$b/build" || return 1
  "$b/build/example_meson_minimal_app" >"$b/out.txt" || return 1
  expect "$b/out.txt" "read struct<score: double>: 2 rows, 1 null" || return 1
  has_symbol "$b/build/example_meson_minimal_app" MesonExampleArrowIpcWriterInit || return 1
  # nanoarrow's own tests are not built when it is a subproject.
  local tests
  tests=$(meson introspect --tests "$b/build")
  echo "registered tests: $tests"
  [ "$tests" = "[]" ]
}
check "meson-minimal: subproject via wrap, -Dnanoarrow:ipc=enabled, no nanoarrow tests" meson_minimal

echo
if [ "$failed" -gt 0 ]; then
  printf 'failed: %s\n' "${failures[@]}"
fi
echo "examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
