# shellcheck shell=bash
# Sourced by the JavaScript interop checks (check-js.sh, check-flechette.sh):
#   js_check_setup ROOT BUILD NAME RESULT_LINE
# Machines of this project's kind come with Node.js and npm; elsewhere, as root with
# apt-get, Debian's packages provide them. Without them the check fails with
# RESULT_LINE (its own "N passed, N failed..." format). Then BUILD is configured
# (when it is not a CMake build yet) with IPC, both codecs and the tests.
js_check_setup() {
  local root=$1 build=$2 name=$3 result_line=$4
  if { ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; } &&
    [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    "$root/tools/install-deps.sh" nodejs npm || true
  fi
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "$name: node and npm are required" >&2
    echo "$result_line"
    exit 1
  fi
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DNANOARROW_IPC=ON \
      -DNANOARROW_IPC_WITH_ZSTD=ON -DNANOARROW_IPC_WITH_LZ4=ON -DNANOARROW_BUILD_TESTS=ON
  fi
}
