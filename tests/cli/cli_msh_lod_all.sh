#!/usr/bin/env bash
# End-to-end test of `convert --lod all`: the whole MSH slot matrix as child nodes
# <node>_lod<l>_group<g> (the convention glTF import reads back), validator-clean, and the
# default output unchanged by it.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_msh_lod_all
. "$HERE/cli_lib.sh"
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
glb_json() { python3 -c "import json,struct,sys; b=open(sys.argv[1],'rb').read(); n=struct.unpack_from('<I',b,12)[0]; d=json.loads(b[20:20+n]); print(eval(sys.argv[2]))" "$@"; }
same() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }
TRIS='sum(d["accessors"][p["indices"]]["count"] for m in d["meshes"] for p in m["primitives"]) // 3'

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"

# The robot's matrix (unearth info): body [0 9] [6], head [1] [7], node_2 [2], arms [3] [4],
# legs [5] [8]: ten slots, 6 + 1 boxes (84 triangles) and 3 pyramids (18).
expect_rc 0 "$UE" convert "$R" -o "$T/all.glb" --lod all
validate_gltf "$T/all.glb"
same "$(glb_json "$T/all.glb" '[n["name"] for n in d["nodes"] if "mesh" in n]')" \
  "['body_lod0_group0', 'body_lod0_group1', 'body_lod1_group0', 'head_lod0_group0', 'head_lod1_group0', 'node_2_lod0_group0', 'arm_left_lod0_group0', 'arm_right_lod0_group0', 'legs_lod0_group0', 'legs_lod1_group0']" \
  "--lod all: one holder node per cell"
same "$(glb_json "$T/all.glb" '[d["nodes"][c]["name"] for c in d["nodes"][1]["children"]]')" \
  "['body_lod0_group0', 'body_lod0_group1', 'body_lod1_group0', 'head', 'arm_left', 'arm_right', 'legs']" \
  "--lod all: holders are children of their node"
same "$(glb_json "$T/all.glb" '[n.get("mesh") for n in d["nodes"] if n["name"] in ("body", "head", "legs")]')" \
  "[None, None, None]" "--lod all: no mesh on the nodes themselves"
same "$(glb_json "$T/all.glb" '[("translation" in n or "rotation" in n) for n in d["nodes"] if "_lod" in n["name"]].count(True)')" 0 \
  "--lod all: holders at identity"
same "$(glb_json "$T/all.glb" "$TRIS")" 102 "--lod all: every slot once"
expect_rc 0 "$UE" convert "$R" -o "$T/all.gltf" --lod all --group 1
validate_gltf "$T/all.gltf"
expect_rc 2 "$UE" convert "$R" -o "$T/x.glb" --lod every
grep -q "takes one of 0|1|2|all" "$T/err" && ok || bad "bad --lod value not explained"
expect_rc 0 "$UE" convert "$R" -o "$T/obj/all.obj" --lod all
same "$(grep -c '^f ' "$T/obj/all.obj")" 102 "--lod all: OBJ faces"

# A slot two cells of one node share is one mesh that both holders show.
python3 - "$R" "$T/shared.msh" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
n = struct.unpack_from('<i', d, 8)[0]; dir_off = len(d) - 64 * n
for i in range(n):
    e = dir_off + 64 * i
    if struct.unpack_from('<I', d, e)[0] == 1:
        off = struct.unpack_from('<I', d, e + 56)[0]
        # node 1 (head): LOD 1 group 1 shows the same slot as LOD 1 group 0
        word = off + 38 * 1 + 8 + 2 * (5 + 1)
        struct.pack_into('<H', d, word, struct.unpack_from('<H', d, word - 2)[0])
open(sys.argv[2], 'wb').write(d)
PY
expect_rc 0 "$UE" validate --strict "$T/shared.msh"
expect_rc 0 "$UE" convert "$T/shared.msh" -o "$T/shared.glb" --lod all
validate_gltf "$T/shared.glb"
same "$(glb_json "$T/shared.glb" '[n["mesh"] for n in d["nodes"] if n["name"] in ("head_lod1_group0", "head_lod1_group1")]')" \
  "[4, 4]" "--lod all: shared slot, shared mesh"
same "$(glb_json "$T/shared.glb" "$TRIS")" 102 "--lod all: a shared slot is written once"

# The default output does not change (cli_golden pins it byte for byte).
expect_rc 0 "$UE" convert "$R" -o "$T/default.glb"
expect_rc 0 "$UE" convert "$R" -o "$T/lod0.glb" --lod 0
cmp -s "$T/default.glb" "$T/lod0.glb" && ok || bad "--lod 0 differs from the default"
finish
