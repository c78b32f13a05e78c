#!/usr/bin/env bash
# The CLI built against the installed library, as an engine would build against it: `cmake --install`
# of BUILD_DIR into a temporary prefix, then src/cli compiled as a separate CMake project
# (tests/install/cli_project) that sees only the prefix's public headers, the CLI's own headers and
# the sample pack's interface (libunearth_samples.a is taken from BUILD_DIR). The binary must then
# write the same sample pack, byte for byte, as BUILD_DIR's own unearth.
# Usage: build_cli_installed.sh BUILD_DIR [WORK_DIR] [EXTRA_FLAGS]
set -euo pipefail
BUILD="$(cd "$1" && pwd)"
WORK="${2:-$(mktemp -d)}"
EXTRA="${3:-}"
SRC="$(cd "$(dirname "$0")/.." && pwd)"
rm -rf "$WORK/prefix" "$WORK/stage" "$WORK/build" "$WORK/demo_installed" "$WORK/demo_tree"
mkdir -p "$WORK/stage/cli" "$WORK/stage/samples"

cmake --install "$BUILD" --prefix "$WORK/prefix" >/dev/null
cp "$SRC"/src/cli/*.h "$WORK/stage/cli/"
cp "$SRC/src/samples/samples.h" "$WORK/stage/samples/"
PC="$(dirname "$(find "$WORK/prefix" -name unearth.pc | head -1)")"

# The library's own compiler: a sanitizer build's runtime and warnings are those of the compiler
# that built it (the asan preset uses clang).
CC_OF_BUILD="$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt")"
PKG_CONFIG_PATH="$PC" cmake -S "$SRC/tests/install/cli_project" -B "$WORK/build" -G Ninja \
  ${CC_OF_BUILD:+-DCMAKE_C_COMPILER="$CC_OF_BUILD"} -DCMAKE_BUILD_TYPE=Release -DUE_SOURCE="$SRC" -DUE_STAGE="$WORK/stage" \
  -DUE_SAMPLES_LIB="$BUILD/libunearth_samples.a" -DUE_EXTRA_FLAGS="$EXTRA" >/dev/null
cmake --build "$WORK/build" -j2 >/dev/null

# It works, and as the tree's own CLI does: the same sample pack, the same listing.
"$WORK/build/unearth" demo -o "$WORK/demo_installed" >/dev/null
"$BUILD/unearth" demo -o "$WORK/demo_tree" >/dev/null
diff -r "$WORK/demo_installed" "$WORK/demo_tree"
cmp <("$WORK/build/unearth" list "$WORK/demo_tree/parkan/objects.rlb:textures_inner.lib") \
    <("$BUILD/unearth" list "$WORK/demo_tree/parkan/objects.rlb:textures_inner.lib")
echo "build_cli_installed: the CLI builds against the installed library and writes the same sample pack"
