#!/usr/bin/env bash
# Install the Debian packages needed to build and test nanoarrow.
#
#   tools/install-deps.sh [extra-package ...]
#
# As root on a machine with apt-get, missing packages are installed
# (`apt-get update` is run only when the package lists are missing or stale,
# or when a first install attempt fails). Otherwise the missing packages are
# listed and the script carries on, so that callers can still try to build.
set -euo pipefail

packages=(cmake make gcc g++ clang pkg-config libcriterion-dev liblz4-dev libzstd-dev libjansson-dev zlib1g-dev meson ninja-build libclang-rt-14-dev "$@")

is_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install-deps: not a Debian-like system; make sure these are available: ${packages[*]}"
  exit 0
fi

missing=()
for pkg in "${packages[@]}"; do
  is_installed "$pkg" || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present (${packages[*]})"
  exit 0
fi

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: missing packages (not root or no apt-get, not installing): ${missing[*]}"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive

lists_fresh() {
  # Fresh = some package index exists and is less than 7 days old.
  [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mtime -7 -print -quit 2>/dev/null)" ]
}

apt_install() {
  apt-get install -y --no-install-recommends "${missing[@]}"
}

echo "install-deps: installing ${missing[*]}"
if ! lists_fresh; then
  apt-get update
fi
if ! apt_install; then
  echo "install-deps: install failed; refreshing package lists and retrying"
  apt-get update
  apt_install
fi
