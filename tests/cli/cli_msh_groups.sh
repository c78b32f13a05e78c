#!/usr/bin/env bash
# End-to-end tests of the three MSH fixes of issue 10: group selection (default group 0, --group
# all as child nodes, one group, empty selections), a model lacking a required resource, and a
# batch whose index count is not a multiple of 3 (strict error, tolerant drop).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_msh_groups
. "$HERE/cli_lib.sh"
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
glb_json() { python3 -c "import json,struct,sys; b=open(sys.argv[1],'rb').read(); n=struct.unpack_from('<I',b,12)[0]; d=json.loads(b[20:20+n]); print(eval(sys.argv[2]))" "$@"; }
same() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }
TRIS='sum(d["accessors"][p["indices"]]["count"] for m in d["meshes"] for p in m["primitives"]) // 3'

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"

# ---- groups: the robot's body has group 0 (slot 0) and a dented group 1 (slot 9) ----
expect_rc 0 "$UE" convert "$R" -o "$T/default.glb"
validate_gltf "$T/default.glb"
same "$(glb_json "$T/default.glb" '[n["name"] for n in d["nodes"]]')" \
  "['robot.msh', 'body', 'head', 'node_2', 'arm_left', 'arm_right', 'legs']" "default: no group nodes"
same "$(glb_json "$T/default.glb" "$TRIS")" 72 "default: LOD 0, group 0 (6 boxes x 12 triangles)"
expect_rc 0 "$UE" convert "$R" -o "$T/all.glb" --group all
validate_gltf "$T/all.glb"
same "$(glb_json "$T/all.glb" '[d["nodes"][c]["name"] for c in d["nodes"][1]["children"] if "group" in d["nodes"][c]["name"]]')" \
  "['body_group0', 'body_group1']" "--group all: the body's groups as child nodes"
same "$(glb_json "$T/all.glb" '[d["meshes"][n["mesh"]]["name"] for n in d["nodes"] if "mesh" in n]')" \
  "['body_lod0_group0', 'body_lod0_group1', 'head_lod0_group0', 'node_2_lod0_group0', 'arm_left_lod0_group0', 'arm_right_lod0_group0', 'legs_lod0_group0']" \
  "--group all: one mesh per distinct slot"
same "$(glb_json "$T/all.glb" "$TRIS")" 84 "--group all: 7 boxes"
same "$(glb_json "$T/all.glb" '[n for n in d["nodes"] if n["name"] == "body"][0].get("mesh")')" None "--group all: no mesh on the node itself"
expect_rc 0 "$UE" convert "$R" -o "$T/all.obj" --group all
same "$(grep '^o ' "$T/all.obj" | head -2 | tr '\n' ' ')" "o body_group0 o body_group1 " "--group all: OBJ objects per group"
same "$(grep -c '^f ' "$T/all.obj")" 84 "--group all: OBJ faces"
expect_rc 0 "$UE" convert "$R" -o "$T/g1.glb" --group 1
validate_gltf "$T/g1.glb"
same "$(glb_json "$T/g1.glb" '[(n["name"], d["meshes"][n["mesh"]]["name"]) for n in d["nodes"] if "mesh" in n]')" \
  "[('body', 'body_lod0')]" "--group 1: the dented body only"
expect_rc 1 "$UE" convert "$R" -o "$T/l1g1.glb" --lod 1 --group 1
grep -q "LOD 1 group 1 has no geometry; the model has LOD 0 (groups 0, 1), LOD 1 (group 0)" "$T/err" \
  && ok || bad "empty selection does not name what exists"
[ ! -e "$T/l1g1.glb" ] && ok || bad "empty selection wrote a file"
expect_rc 2 "$UE" convert "$R" -o "$T/x.glb" --group every
grep -q "takes one of 0|1|2|3|4|all|-1" "$T/err" && ok || bad "bad --group value not explained"

# ---- a .msh lacking a required resource is a model error, not a valid NRes ----
python3 - "$R" "$T" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
n = struct.unpack_from('<i', d, 8)[0]; dir_off = len(d) - 64 * n
def retyped(new_type):
    e = bytearray(d)
    for i in range(n):
        if struct.unpack_from('<I', e, dir_off + 64 * i)[0] == 13:
            struct.pack_into('<I', e, dir_off + 64 * i, new_type)
    return e
open(sys.argv[2] + '/no13.msh', 'wb').write(retyped(0x58585858))   # 'XXXX': a type no format knows
open(sys.argv[2] + '/no13.nres', 'wb').write(retyped(0x58585858))
open(sys.argv[2] + '/res14.nres', 'wb').write(retyped(14))         # only MSH types: known by content
# batch 0 (the body, 36 indices) with 35: a partial triangle
e = bytearray(d)
for i in range(n):
    t, off = struct.unpack_from('<I', e, dir_off + 64 * i)[0], struct.unpack_from('<I', e, dir_off + 64 * i + 56)[0]
    if t == 13:
        assert struct.unpack_from('<H', e, off + 8)[0] == 36
        struct.pack_into('<H', e, off + 8, 35)
        open(sys.argv[2] + '/res13_at', 'w').write('%x' % (off + 8))
open(sys.argv[2] + '/partial.msh', 'wb').write(e)
PY
for f in no13.msh res14.nres; do
  for verb in info validate; do
    expect_rc 1 "$UE" $verb "$T/$f"
    grep -q "msh/res13: required resource type 13 is missing \[msh.res.missing\]" "$T/err" \
      && ok || bad "$verb $f: missing Res13 not named"
  done
  expect_rc 1 "$UE" convert "$T/$f" -o "$T/$f.glb"
  grep -q "msh/res13: required resource type 13 is missing" "$T/err" && ok || bad "convert $f: missing Res13 not named"
  [ ! -e "$T/$f.glb" ] && ok || bad "convert $f wrote a file"
done
grep -q "valid (nres" "$T/out" && bad "no13.msh called a valid NRes" || ok
# The same bytes under another name, with a type outside MSH's range, are just an archive.
expect_rc 0 "$UE" validate "$T/no13.nres"
# A file named .MSH in upper case found by -r is a model too.
mkdir -p "$T/in"; cp "$T/no13.msh" "$T/in/BROKEN.MSH"
expect_rc 1 "$UE" convert -r "$T/in" -o "$T/outdir"
grep -q "BROKEN.MSH: error: msh/res13: required resource type 13 is missing" "$T/err" && ok || bad "upper-case .MSH not a model"

# ---- partial triangle: strict error with offset and path, tolerant drop ----
at=$(cat "$T/res13_at")
expect_rc 1 "$UE" validate "$T/partial.msh"
grep -q "error: msh/res13/batch\[0\] @0x$at: index count 35 is not a multiple of 3.*\[msh.batch.partial\]" "$T/err" \
  && ok || { bad "strict partial batch: code, path or offset 0x$at missing"; cat "$T/err" >&2; }
expect_rc 1 "$UE" convert "$T/partial.msh" -o "$T/partial.glb"
[ ! -e "$T/partial.glb" ] && ok || bad "strict convert of a partial batch wrote output"
expect_rc 1 "$UE" convert --tolerant "$T/partial.msh" -o "$T/partial.glb"   # written; verdict DAMAGED
grep -q "warning: msh/res13/batch\[0\] @0x$at:.*msh.batch.partial" "$T/err" && ok || bad "tolerant: no warning"
validate_gltf "$T/partial.glb"
same "$(glb_json "$T/partial.glb" "$TRIS")" 71 "tolerant: the partial triangle dropped (72 - 1)"

finish
