#!/usr/bin/env bash
# End-to-end tests of Parkan animation: the sample robot converts to a validator-clean glTF with
# one clip (frame rate and range in extras, channels on the three moving nodes), --fps rescales
# it, bad values are usage errors, and a damaged frame map is reported with its offset and path.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_anim
. "$HERE/cli_lib.sh"
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
glb_json() { python3 -c "import json,struct,sys; b=open(sys.argv[1],'rb').read(); n=struct.unpack_from('<I',b,12)[0]; d=json.loads(b[20:20+n]); print(eval(sys.argv[2]))" "$@"; }
same() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"

expect_rc 0 "$UE" convert "$R" -o "$T/robot.glb"
validate_gltf "$T/robot.glb"
# The model's clip comes first; ROBOT_HEAD's blinking phases are a clip of their own
# (docs/parkan-materials.md, tested in cli_materials.sh).
same "$(glb_json "$T/robot.glb" "[a['name'] for a in d['animations']]")" "['robot.msh', 'ROBOT_HEAD']" "clips"
same "$(glb_json "$T/robot.glb" "d['animations'][0]['extras']['unearth_clip']")" \
  "{'fps': 30, 'start_frame': 0, 'end_frame': 8, 'loop': False}" "clip metadata"
# Channels: node name and path, in node order (head turns, arms swing, the right arm also bobs).
targets="[(d['nodes'][c['target']['node']]['name'], c['target']['path']) for c in d['animations'][0]['channels']]"
same "$(glb_json "$T/robot.glb" "$targets")" \
  "[('head', 'rotation'), ('arm_left', 'rotation'), ('arm_right', 'translation'), ('arm_right', 'rotation')]" \
  "animated channels"
# The head's keys sit at frames 0, 3 and 6: 0.2 s is its last key at 30 fps.
head_max="[round(x, 6) for x in d['accessors'][d['animations'][0]['samplers'][0]['input']]['max']]"
same "$(glb_json "$T/robot.glb" "$head_max")" "[0.2]" "head key times at 30 fps"

expect_rc 0 "$UE" convert "$R" -o "$T/robot24.glb" --fps 24
validate_gltf "$T/robot24.glb"
same "$(glb_json "$T/robot24.glb" "d['animations'][0]['extras']['unearth_clip']['fps']")" 24 "--fps 24"
same "$(glb_json "$T/robot24.glb" "d['animations'][0]['extras']['fps']")" 24 "--fps 24 in extras.fps"
same "$(glb_json "$T/robot24.glb" "$head_max")" "[0.25]" "head key times at 24 fps"
expect_rc 0 "$UE" convert "$R" -o "$T/robot.gltf" --fps 12 --lod 1
validate_gltf "$T/robot.gltf"

expect_rc 2 "$UE" convert "$R" -o "$T/x.glb" --fps 0
expect_rc 2 "$UE" convert "$R" -o "$T/x.glb" --fps fast
expect_rc 2 "$UE" convert "$R" -o "$T/x.glb" --fps 1001
[ ! -e "$T/x.glb" ] && ok || bad "a refused --fps wrote output"

# Res19 word 2 (the head's frame 2) pointed at the head's fallback key: not what docs/formats/msh-anim.md#canonical-layout writes.
python3 - "$R" "$T/bad_map.msh" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
n = struct.unpack_from('<i', d, 8)[0]; dir_off = len(d) - 64 * n
for i in range(n):
    t, off = struct.unpack_from('<I', d, dir_off + 64 * i)[0], struct.unpack_from('<I', d, dir_off + 64 * i + 56)[0]
    if t == 19:
        struct.pack_into('<H', d, off + 4, struct.unpack_from('<H', d, off + 4)[0] + 1)
open(sys.argv[2], 'wb').write(d)
PY
at=$(python3 - "$R" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
n = struct.unpack_from('<i', d, 8)[0]; dir_off = len(d) - 64 * n
print([struct.unpack_from('<I', d, dir_off + 64 * i + 56)[0] + 4 for i in range(n) if struct.unpack_from('<I', d, dir_off + 64 * i)[0] == 19][0])
PY
)
expect_rc 1 "$UE" validate "$T/bad_map.msh"
grep -q "msh.anim.map" "$T/err" && grep -q "msh/res19/word\[2\] @0x$(printf '%x' "$at"):" "$T/err" \
  && ok || { bad "damaged frame map: code, path or offset $at missing"; cat "$T/err" >&2; }
expect_rc 1 "$UE" convert "$T/bad_map.msh" -o "$T/bad.glb"
[ ! -e "$T/bad.glb" ] && ok || bad "strict convert of a damaged map wrote output"
# Tolerant: a warning, the model converted (exit 1: the verdict is DAMAGED, as for any lost rule).
expect_rc 1 "$UE" convert --tolerant "$T/bad_map.msh" -o "$T/bad.glb"
grep -q "warning: msh/res19/word\[2\].*msh.anim.map" "$T/err" && ok || bad "tolerant convert did not warn about the map"
validate_gltf "$T/bad.glb"
finish
