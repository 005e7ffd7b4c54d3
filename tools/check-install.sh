#!/usr/bin/env bash
# Install smoke test: install nanoarrow (with the device library; once with IPC and
# testing as README.md says) into temporary prefixes and build the consumer in tests/install/ against it three ways
# (find_package, plain cc, pkg-config), and tests/device/device_consumer.c against
# nanoarrow_device the same three ways. Also checks that NANOARROW_NAMESPACE prefixes
# every exported symbol, using a shared build so BUILD_SHARED_LIBS is covered too.
#
#   tools/check-install.sh            (uses $CC or cc; build trees in build/check-install,
#                                      or in $NANOARROW_CHECK_INSTALL_DIR when set)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
cc=${CC:-cc}
work=${NANOARROW_CHECK_INSTALL_DIR:-$root/build/check-install}
prefix_base=$(mktemp -d "${TMPDIR:-/tmp}/nanoarrow-install.XXXXXX")
trap 'rm -rf "$prefix_base"' EXIT
rm -rf "$work"
mkdir -p "$work"

step() { printf '\n== check-install: %s\n' "$*"; }
fail() { printf 'check-install: FAILED: %s\n' "$*" >&2; exit 1; }

# build_and_install NAME [cmake args...]: configure, build and install the
# library into $prefix_base/NAME.
build_and_install() {
  local name=$1
  shift
  step "build + install ($name) $*"
  cmake -S "$root" -B "$work/$name" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_C_COMPILER="$cc" -DNANOARROW_DEVICE=ON "$@" \
    >"$work/$name.configure.log" \
    || { cat "$work/$name.configure.log"; fail "configure ($name)"; }
  cmake --build "$work/$name" -j2 >"$work/$name.build.log" 2>&1 \
    || { cat "$work/$name.build.log"; fail "build ($name)"; }
  cmake --install "$work/$name" --prefix "$prefix_base/$name" >/dev/null \
    || fail "install ($name)"
  for f in include/nanoarrow/nanoarrow.h include/nanoarrow/nanoarrow_config.h \
           include/nanoarrow/common/inline_types.h include/nanoarrow/common/inline_array.h \
           lib/cmake/nanoarrow/nanoarrowConfig.cmake \
           lib/cmake/nanoarrow/nanoarrowConfigVersion.cmake \
           lib/pkgconfig/nanoarrow.pc \
           include/nanoarrow/nanoarrow_device.h lib/pkgconfig/nanoarrow_device.pc; do
    [ -f "$prefix_base/$name/$f" ] || fail "$name: $f not installed"
  done
}

# consumers NAME [extra env for running]: build and run the consumer 3 ways.
consumers() {
  local name=$1 p="$prefix_base/$1" out="$work/$1-consumer"
  mkdir -p "$out"

  step "$name: consumer via find_package(nanoarrow)"
  cmake -S "$root/tests/install" -B "$out/cmake" -DCMAKE_PREFIX_PATH="$p" \
    -DCMAKE_C_COMPILER="$cc" >"$out/cmake.configure.log" \
    || { cat "$out/cmake.configure.log"; fail "$name: consumer configure"; }
  cmake --build "$out/cmake" >"$out/cmake.build.log" 2>&1 \
    || { cat "$out/cmake.build.log"; fail "$name: consumer build"; }
  "$out/cmake/consumer" || fail "$name: cmake consumer run"

  step "$name: consumer via plain $cc -I -L -lnanoarrow"
  "$cc" -std=c99 "$root/tests/install/consumer.c" -I"$p/include" -L"$p/lib" -lnanoarrow \
    -o "$out/consumer-cc" || fail "$name: plain cc build"
  LD_LIBRARY_PATH="$p/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$out/consumer-cc" \
    || fail "$name: plain cc consumer run"

  step "$name: consumer via pkg-config --cflags --libs nanoarrow"
  local flags
  flags=$(PKG_CONFIG_PATH="$p/lib/pkgconfig" pkg-config --cflags --libs nanoarrow) \
    || fail "$name: pkg-config nanoarrow"
  echo "pkg-config: $flags"
  # shellcheck disable=SC2086
  "$cc" -std=c99 "$root/tests/install/consumer.c" $flags -o "$out/consumer-pc" \
    || fail "$name: pkg-config build"
  LD_LIBRARY_PATH="$p/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$out/consumer-pc" \
    || fail "$name: pkg-config consumer run"

  device_consumers "$name"
}

# device_consumers NAME: tests/device/device_consumer.c against nanoarrow_device,
# through find_package (nanoarrow::nanoarrow_device and the _static/_shared name),
# plain cc and pkg-config.
device_consumers() {
  local name=$1 p="$prefix_base/$1" out="$work/$1-device-consumer"
  mkdir -p "$out/project"
  local run_env="LD_LIBRARY_PATH=$p/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

  step "$name: device consumer via find_package(nanoarrow) (nanoarrow::nanoarrow_device)"
  cp "$root/tests/device/device_consumer.c" "$out/project/"
  cat >"$out/project/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(nanoarrow_device_consumer LANGUAGES C)
find_package(nanoarrow 0.8.0 REQUIRED)
if(NOT nanoarrow_DEVICE_FOUND OR NOT TARGET nanoarrow::nanoarrow_device)
  message(FATAL_ERROR "the installed package has no nanoarrow::nanoarrow_device")
endif()
add_executable(device_consumer device_consumer.c)
target_link_libraries(device_consumer nanoarrow::nanoarrow_device)
add_executable(device_consumer_by_kind device_consumer.c)
if(TARGET nanoarrow::nanoarrow_device_static)
  target_link_libraries(device_consumer_by_kind nanoarrow::nanoarrow_device_static)
else()
  target_link_libraries(device_consumer_by_kind nanoarrow::nanoarrow_device_shared)
endif()
EOF
  cmake -S "$out/project" -B "$out/cmake" -DCMAKE_PREFIX_PATH="$p" \
    -DCMAKE_C_COMPILER="$cc" >"$out/cmake.configure.log" \
    || { cat "$out/cmake.configure.log"; fail "$name: device consumer configure"; }
  cmake --build "$out/cmake" >"$out/cmake.build.log" 2>&1 \
    || { cat "$out/cmake.build.log"; fail "$name: device consumer build"; }
  env "$run_env" "$out/cmake/device_consumer" || fail "$name: cmake device consumer run"
  env "$run_env" "$out/cmake/device_consumer_by_kind" \
    || fail "$name: cmake device consumer (by kind) run"

  step "$name: device consumer via plain $cc -lnanoarrow_device -lnanoarrow"
  "$cc" -std=c99 "$root/tests/device/device_consumer.c" -I"$p/include" -L"$p/lib" \
    -lnanoarrow_device -lnanoarrow -lm -o "$out/device-consumer-cc" \
    || fail "$name: device plain cc build"
  env "$run_env" "$out/device-consumer-cc" || fail "$name: device plain cc run"

  step "$name: device consumer via pkg-config --cflags --libs nanoarrow_device"
  local flags
  flags=$(PKG_CONFIG_PATH="$p/lib/pkgconfig" pkg-config --cflags --libs nanoarrow_device) \
    || fail "$name: pkg-config nanoarrow_device"
  echo "pkg-config: $flags"
  # shellcheck disable=SC2086
  "$cc" -std=c99 "$root/tests/device/device_consumer.c" $flags -o "$out/device-consumer-pc" \
    || fail "$name: device pkg-config build"
  env "$run_env" "$out/device-consumer-pc" || fail "$name: device pkg-config run"
}

# 1. Default static build (the shared libraries, libNAME_shared.so, are installed
# next to the static ones; -lnanoarrow and pkg-config keep the static kind).
build_and_install static
step "static: both kinds installed; no header of a library that was not built"
for lib in nanoarrow nanoarrow_device; do
  [ -f "$prefix_base/static/lib/lib$lib.a" ] || fail "static: lib$lib.a not installed"
  [ -n "$(find "$prefix_base/static/lib" -maxdepth 1 -name "lib${lib}_shared.so*")" ] \
    || fail "static: lib${lib}_shared.so not installed"
done
for f in include/nanoarrow/nanoarrow_ipc.h include/nanoarrow/nanoarrow_testing.h \
         lib/pkgconfig/nanoarrow_ipc.pc lib/pkgconfig/nanoarrow_testing.pc; do
  [ ! -e "$prefix_base/static/$f" ] || fail "static: $f installed without its library"
done
echo "ok"
consumers static

# 2. README's instructions (IPC and device, and the testing library): every
# header installed has its library, and an IPC program links through pkg-config.
build_and_install readme -DNANOARROW_IPC=ON -DNANOARROW_TESTING=ON
step "readme: IPC and testing libraries installed with their headers and .pc files"
for lib in nanoarrow_ipc nanoarrow_testing; do
  [ -f "$prefix_base/readme/lib/lib$lib.a" ] || fail "readme: lib$lib.a not installed"
  [ -n "$(find "$prefix_base/readme/lib" -maxdepth 1 -name "lib${lib}_shared.so*")" ] \
    || fail "readme: lib${lib}_shared.so not installed"
  [ -f "$prefix_base/readme/include/nanoarrow/$lib.h" ] || fail "readme: $lib.h not installed"
  [ -f "$prefix_base/readme/lib/pkgconfig/$lib.pc" ] || fail "readme: $lib.pc not installed"
done
ipc_flags=$(PKG_CONFIG_PATH="$prefix_base/readme/lib/pkgconfig" pkg-config --cflags --libs nanoarrow_ipc) \
  || fail "readme: pkg-config nanoarrow_ipc"
echo "pkg-config nanoarrow_ipc: $ipc_flags"
for prog in ipc_write ipc_read; do
  # shellcheck disable=SC2086
  "$cc" -std=c99 "$root/examples/ipc/$prog.c" $ipc_flags -o "$work/readme-$prog" \
    || fail "readme: examples/ipc/$prog.c does not build with pkg-config nanoarrow_ipc"
done
LD_LIBRARY_PATH="$prefix_base/readme/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  sh -c "'$work/readme-ipc_write' | '$work/readme-ipc_read'" >"$work/readme-ipc.out" \
  || fail "readme: ipc_write | ipc_read"
grep -q '^2 batches, 5 rows$' "$work/readme-ipc.out" || fail "readme: ipc_read printed unexpected rows"
echo "ok: examples/ipc through pkg-config nanoarrow_ipc: write | read"

# 3. Shared build with a symbol namespace.
ns=MyNs
build_and_install ns -DBUILD_SHARED_LIBS=ON -DNANOARROW_NAMESPACE="$ns"
grep -q "^#define NANOARROW_NAMESPACE $ns\$" "$prefix_base/ns/include/nanoarrow/nanoarrow_config.h" \
  || fail "installed nanoarrow_config.h does not define NANOARROW_NAMESPACE $ns"
if grep -q "^#define NANOARROW_NAMESPACE" "$prefix_base/static/include/nanoarrow/nanoarrow_config.h"; then
  fail "default nanoarrow_config.h defines NANOARROW_NAMESPACE"
fi

step "ns: exported symbols carry the '$ns' prefix"
so=$(find "$prefix_base/ns/lib" -maxdepth 1 -type f -name "libnanoarrow.so*" | head -n 1)
[ -n "$so" ] || fail "ns: no shared library installed"
syms=$(nm -D --defined-only "$so" | awk '$2 ~ /^[A-Z]$/ && $2 != "A" {print $3}' | sed 's/@.*//' | sort -u)
echo "$syms" | grep -qx "${ns}ArrowSchemaInit" || fail "ns: ${ns}ArrowSchemaInit not exported"
bad=$(echo "$syms" | grep -v "^${ns}" | grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' || true)
[ -z "$bad" ] || fail "ns: symbols exported without the '$ns' prefix:
$bad"
device_so=$(find "$prefix_base/ns/lib" -maxdepth 1 -type f -name "libnanoarrow_device.so*" | head -n 1)
[ -n "$device_so" ] || fail "ns: no shared nanoarrow_device library installed"
device_syms=$(nm -D --defined-only "$device_so" | awk '$2 ~ /^[A-Z]$/ && $2 != "A" {print $3}' \
  | sed 's/@.*//' | sort -u)
echo "$device_syms" | grep -qx "${ns}ArrowDeviceCpu" || fail "ns: ${ns}ArrowDeviceCpu not exported"
bad=$(echo "$device_syms" | grep -v "^${ns}" \
  | grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' || true)
[ -z "$bad" ] || fail "ns: nanoarrow_device exports symbols without the '$ns' prefix:
$bad"
static_syms=$(nm -g --defined-only "$work/static/libnanoarrow.a" 2>/dev/null | awk 'NF == 3 {print $3}')
echo "$static_syms" | grep -qx "ArrowSchemaInit" || fail "static: ArrowSchemaInit not defined"
static_device_syms=$(nm -g --defined-only "$work/static/libnanoarrow_device.a" 2>/dev/null \
  | awk 'NF == 3 {print $3}')
echo "$static_device_syms" | grep -qx "ArrowDeviceCpu" \
  || fail "static: ArrowDeviceCpu not defined in libnanoarrow_device.a"
# The static library of the same configure is namespaced too.
ns_static_syms=$(nm -g --defined-only "$work/ns/libnanoarrow_static.a" 2>/dev/null | awk 'NF == 3 {print $3}')
echo "$ns_static_syms" | grep -qx "${ns}ArrowSchemaInit" \
  || fail "ns: libnanoarrow_static.a lacks ${ns}ArrowSchemaInit"
bad=$(echo "$ns_static_syms" | grep -v "^${ns}" || true)
[ -z "$bad" ] || fail "ns: libnanoarrow_static.a defines symbols without the '$ns' prefix:
$bad"
echo "ok: $(echo "$syms" | wc -l) exported symbols, all prefixed with $ns (libnanoarrow.so and libnanoarrow_static.a)"

consumers ns

step "all install checks passed"
