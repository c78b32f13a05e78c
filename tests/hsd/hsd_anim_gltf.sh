#!/usr/bin/env bash
# Writes the glTF of the HSD clips test (test_hsd_anim_scene DIR) and checks each file with the
# Khronos validator (0 errors, 0 warnings) and our independent pointer resolver: every pointer of
# the full file resolves (10: two base colours, two UV offsets, two UV scales … see below), the
# --no-animation-pointer file has none.
set -u
PROG="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
T="${UE_TEST_TMP:-/tmp}/hsd_anim_gltf.$$"
rm -rf "$T"; mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
if ! command -v node >/dev/null 2>&1 || [ ! -d "$HERE/../node_modules/gltf-validator" ]; then
  echo "FAIL: node or tests/node_modules/gltf-validator missing (run: cd tests && npm ci)" >&2
  exit 1
fi
"$PROG" "$T" >"$T/out" 2>"$T/log" || { cat "$T/log" >&2; echo "FAIL: $PROG" >&2; exit 1; }
grep "^$T/.*\.gl" "$T/out" >"$T/list"
[ "$(grep -c . "$T/list")" = 3 ] || { echo "FAIL: expected 3 files" >&2; exit 1; }
rc=0
# shellcheck disable=SC2046
node "$HERE/../gltf_validate.mjs" $(cat "$T/list") || rc=1
# Animation_0: base colour of the two materials of MObj 0, UV offset and scale of both;
# Animation_1: the visibility of J4's mesh node. 2 + 4 + 1 = 7.
for f in "$T/hsd_anim.glb" "$T/hsd_anim.gltf"; do
  python3 "$HERE/../cli/gltf_pointers.py" "$f" --expect 7 || rc=1
done
python3 "$HERE/../cli/gltf_pointers.py" "$T/hsd_anim_nopointer.glb" --none || rc=1
exit $rc
