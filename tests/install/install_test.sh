#!/usr/bin/env bash
# Install test: `cmake --install` into a temporary prefix, then build the README's "Using the
# library" program against it with pkg-config (shared and static) and run it on the sample robot.
# Usage: install_test.sh BUILD_DIR UNEARTH README.md [EXTRA_CFLAGS]
set -u
BUILD="$1"; UE="$2"; README="$3"; EXTRA="${4:-}"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=install
. "$HERE/../cli/cli_lib.sh"
check() { # check WHAT COMMAND... : the command succeeds
  local what=$1; shift
  if "$@" >"$T/check" 2>&1; then ok; else bad "$what"; cat "$T/check" >&2; fi
}
# The GLB header (magic "glTF", version 2, total length) agrees with the file.
glb_ok() {
  python3 - "$1" <<'PY'
import struct, sys, os
data = open(sys.argv[1], 'rb').read()
magic, version, length = struct.unpack_from('<4sII', data)
sys.exit(0 if magic == b'glTF' and version == 2 and length == len(data) == os.path.getsize(sys.argv[1]) else 1)
PY
}

P="$T/prefix"
expect_rc 0 cmake --install "$BUILD" --prefix "$P"
PC="$(find "$P" -name unearth.pc)"
[ -n "$PC" ] && ok || { bad "no unearth.pc installed"; finish; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$PC")"
LIBDIR="$(pkg-config --variable=libdir unearth)"

# What is installed: public headers only, both libraries, a pc file naming zlib privately.
for h in common export version archive msh gltf scene; do
  [ -f "$P/include/unearth/$h.h" ] && ok || bad "include/unearth/$h.h not installed"
done
for h in samples json bytes io text container; do
  [ -e "$P/include/unearth/$h.h" ] && bad "internal header $h.h installed" || ok
done
[ -f "$LIBDIR/libunearth.a" ] && ok || bad "libunearth.a not installed"
[ -e "$LIBDIR/libunearth.so" ] && ok || bad "libunearth.so not installed"
grep -rlE '#[[:space:]]*include[[:space:]]*[<"](jansson|zlib)' "$P/include" &&
  bad "a public header includes jansson.h or zlib.h" || ok
check "Requires.private" grep -qx 'Requires.private: zlib' "$PC"
want="$(sed -n 's/^#define UE_VERSION "\(.*\)"$/\1/p' "$P/include/unearth/version.h")"
[ "$(pkg-config --modversion unearth)" = "$want" ] && ok || bad "pc version != UE_VERSION $want"

# The README's program, exactly as printed there.
awk '/^## Using the library/ {s=1} s && /^```c$/ {c=1; next} c && /^```$/ {exit} c {print}' \
  "$README" > "$T/glb.c"
[ -s "$T/glb.c" ] && ok || { bad "no C block under 'Using the library' in README"; finish; exit 1; }
expect_rc 0 "$UE" demo -o "$T/demo"
ROBOT="$T/demo/parkan/robot.msh"
CFLAGS="-std=c11 -Wall -Wextra -Wpedantic -Werror $EXTRA"

# Shared: what pkg-config says, and the program must load libunearth.so from the prefix.
# shellcheck disable=SC2046,SC2086
check "build against libunearth.so" cc $CFLAGS "$T/glb.c" -o "$T/glb_shared" $(pkg-config --cflags --libs unearth)
check "libunearth.so from the prefix" sh -c "LD_LIBRARY_PATH='$LIBDIR' ldd '$T/glb_shared' | grep -q '$LIBDIR/libunearth.so'"
LD_LIBRARY_PATH="$LIBDIR" expect_rc 0 "$T/glb_shared" "$ROBOT" "$T/shared.glb"
check "shared build writes a GLB" glb_ok "$T/shared.glb"

# Static: libunearth.a plus the private dependencies pkg-config --static names.
# shellcheck disable=SC2046,SC2086
check "build against libunearth.a" cc $CFLAGS "$T/glb.c" -o "$T/glb_static" $(pkg-config --cflags unearth) \
  "$LIBDIR/libunearth.a" $(pkg-config --static --libs unearth | sed 's/-lunearth\b//')
check "static build does not need libunearth.so" sh -c "! ldd '$T/glb_static' | grep -q libunearth"
expect_rc 0 "$T/glb_static" "$ROBOT" "$T/static.glb"
check "static and shared builds write the same bytes" cmp "$T/shared.glb" "$T/static.glb"

# A missing model is an error with a diagnostic, not a crash.
LD_LIBRARY_PATH="$LIBDIR" expect_rc 1 "$T/glb_shared" "$T/none.msh" "$T/none.glb"
check "failure names the result" grep -q 'failed: I/O error' "$T/err"
finish
