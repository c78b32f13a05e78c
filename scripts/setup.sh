#!/usr/bin/env bash
# Installs everything unearth needs on a fresh Debian 12 machine: compilers, CMake/Ninja,
# zlib, libpng, clang's fuzzer runtime, strace, Blender 3.4 with numpy for the
# real-client round trips, Chromium for the gallery's browser test (apt-get), the glTF validator,
# gltf-transform, three.js, Skia (@napi-rs/canvas: three.js's image decoding and encoding in Node)
# and playwright-core (npm ci in tests/), and the gallery viewer's three.js and
# KHR_animation_pointer plugin (npm ci in viewer/, before the build installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential gcc clang libclang-rt-14-dev llvm cmake ninja-build pkg-config \
  zlib1g-dev libpng-dev python3 ca-certificates strace blender python3-numpy chromium >/dev/null
# Node.js may come from elsewhere with npm bundled; only install Debian's when npm is missing.
if ! command -v npm >/dev/null 2>&1; then
  $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
(cd tests && npm ci --no-audit --no-fund --loglevel=error)
(cd viewer && npm ci --no-audit --no-fund --loglevel=error)
