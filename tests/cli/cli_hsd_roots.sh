#!/usr/bin/env bash
# HSD root kinds and multi-root models (docs/hsd.md, "Root kinds" and "Multi-root models") on
# hand-built DATs (hsd_roots_dat.py): a DAT of non-model roots is recognised by its content and
# `info` names each root's kind, checked against its struct; `validate` checks every root's
# structures; `roundtrip` is byte-exact; a `*_joint` root with sibling animation roots converts
# to one clip per model, the material clip's keys checked by value in the glb.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_roots
. "$HERE/cli_lib.sh"
SCHEMA="$HERE/../../docs/schema"

python3 "$HERE/hsd_roots_dat.py" "$T" && ok || bad "fixtures not written"

# info: every root with its kind, whatever the names (no model root at all)
expect_rc 0 "$UE" info --strict "$T/roots.dat"
grep -qx "$T/roots.dat: HAL SysDolphin .dat without a model" "$T/out" && ok || bad "roots.dat not recognised: $(cat "$T/out" "$T/err")"
for line in 't_camera (camera)' 't_lights (lights)' 't_fog (fog)' 'PlyTest_ACTION_Wait1_figatree (figatree)' \
            'ftDataTest (fighter_data)' 't_shapeanim_joint (shapeanim_joint)' 'mystery (unknown)'; do
  grep -q "^  root [0-6]: $line @0x" "$T/out" && ok || bad "info: no root line '$line'"
done
expect_rc 0 "$UE" info --json --strict "$T/roots.dat"
cp "$T/out" "$T/roots.json"
python3 - "$T/roots.json" <<'EOF' && ok || bad "info JSON root kinds"
import json, sys
r = json.load(open(sys.argv[1]))["roots"]
assert [x["kind"] for x in r] == ["camera", "lights", "fog", "figatree", "fighter_data", "shapeanim_joint", "unknown"], r
assert [x["named"] for x in r] == [x["kind"] for x in r], r
EOF
node "$HERE/../json_schema_check.mjs" "$SCHEMA/info.schema.json" "$T/roots.json" >"$T/val" 2>&1 \
  && ok || { bad "info JSON does not match info.schema.json"; cat "$T/val" >&2; }

# validate walks every root's structures (key streams included); roundtrip gives the bytes back
expect_rc 0 "$UE" validate --strict "$T/roots.dat"
grep -q "roots.dat: valid (hsd_data, 0 errors, 0 warnings)" "$T/out" && ok || bad "validate roots.dat: $(cat "$T/out")"
for f in roots multi; do
  expect_rc 0 "$UE" roundtrip --strict "$T/$f.dat"
  grep -q "model $T/$f.dat: identical" "$T/out" && ok || bad "roundtrip $f.dat: $(cat "$T/out")"
done

# a struct that is not what its name announces: unknown in info, an error of strict validate
expect_rc 0 "$UE" info "$T/bad_roots.dat"
grep -q "^  root 0: b_camera (unknown: not a camera) @0x" "$T/out" && ok || bad "bad camera kind: $(cat "$T/out")"
grep -q "^  root 1: b_fog (unknown: not a fog) @0x" "$T/out" && ok || bad "bad fog kind: $(cat "$T/out")"
expect_rc 1 "$UE" validate --strict "$T/bad_roots.dat"
grep -q "error: dat/root\[0\] @0x.*: camera projection 9 is none of .*\[hsd.root.value\]" "$T/out" "$T/err" \
  && ok || bad "strict validate bad camera: $(cat "$T/out" "$T/err")"
expect_rc 0 "$UE" validate --tolerant "$T/bad_roots.dat"
grep -q "warning: dat/root\[1\] @0x.*: fog type 0x3 is no GX fog type \[hsd.root.value\]" "$T/out" "$T/err" \
  && ok || bad "tolerant validate bad fog: $(cat "$T/out" "$T/err")"

# an inconsistent relocation table (an entry not 4-aligned): not taken for a DAT
expect_rc 1 "$UE" info "$T/bad_reloc.dat"
grep -q "not a container unearth knows" "$T/err" && ok || bad "bad_reloc.dat: $(cat "$T/out" "$T/err")"

# multi-root models: n_joint, m_joint + m_animjoint + m_matanim_joint + m_shapeanim_joint, n_matanim_joint
expect_rc 0 "$UE" validate --strict "$T/multi.dat"
expect_rc 0 "$UE" convert --strict "$T/multi.dat" -o "$T/multi.glb"
if node "$HERE/../gltf_validate.mjs" "$T/multi.glb" >"$T/val" 2>&1; then ok; else bad "gltf-validator"; cat "$T/val" >&2; fi
python3 - "$HERE" "$T/multi.glb" <<'EOF' && ok || bad "multi-root clips"
import math, sys
sys.path.insert(0, sys.argv[1])
from hsd_anim_glb import load, Clip, f32, near
doc, binary = load(sys.argv[2])
anims = {a["name"]: Clip(doc, binary, a) for a in doc["animations"]}
# set 0 (n) has its material clip, set 1 (m) one clip with its skeletal and material trees
assert sorted(anims) == ["Animation_0", "Animation_1"], sorted(anims)
n, m = anims["Animation_0"], anims["Animation_1"]
assert n.last_time() == f32(10 / 60) and m.last_time() == f32(40 / 60), (n.last_time(), m.last_time())
# nodes: the model root, joint_000 (n), joint_001 and joint_002 (m); only m's J0 is animated
assert not n.node_paths() and {j for j, _ in m.node_paths()} == {"joint_001"}, m.node_paths()
# ROTZ 0 → 1.5 over 30 frames: 0.75 at frame 15, midway between the keys; glTF rotations are
# slerped, and halfway the slerp is the normalised mean of the two quaternions
q = m.node("joint_001", "rotation", 15 / 60)
q = tuple(c / math.sqrt(sum(x * x for x in q)) for c in q)
assert near(q, (0, 0, math.sin(0.375), math.cos(0.375))), q
colour = "/materials/%d/pbrMetallicRoughness/baseColorFactor"
offset = "/materials/%d/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset"
assert sorted(n.pointers()) == [colour % 0], sorted(n.pointers())
assert colour % 1 in m.pointers() and offset % 1 in m.pointers(), sorted(m.pointers())
# the runtime stores a colour track as (u8)(255·v) (docs/formats/hsd-animation.md#track-types); baseColorFactor is linear
lin = lambda c: c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
assert near(m.sample(m.pointers()[colour % 1], 20 / 60), (lin(127 / 255), 1, 1, 1)), m.sample(m.pointers()[colour % 1], 20 / 60)
assert near(n.sample(n.pointers()[colour % 0], 5 / 60), (1, lin(127 / 255), 1, 1)), n.sample(n.pointers()[colour % 0], 5 / 60)
# TRAU 0 → 0.5 over 40 frames, 0.25 at frame 20: offset = −S·translate (docs/hsd-materials.md)
assert near(m.sample(m.pointers()[offset % 1], 20 / 60), (-0.25, 0)), m.sample(m.pointers()[offset % 1], 20 / 60)
EOF
expect_rc 0 "$UE" info -v "$T/multi.dat"
grep -q 'shape animation root "m_shapeanim_joint" of model 1 kept raw' "$T/out" "$T/err" \
  && ok || bad "shape animation root not bound to model 1: $(cat "$T/out" "$T/err")"

finish
