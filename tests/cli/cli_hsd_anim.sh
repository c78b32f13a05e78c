#!/usr/bin/env bash
# End-to-end: the sample creature's animations (docs/hsd-animation.md, "Sample creature
# animations") from the FSYS and the PKX to glTF: Khronos validator 0 errors, clip names, exact
# end times, TRS channels on the animated joints only, curve values worked out by hand, pointer
# channels for base colour and texture transform (each resolved by gltf_pointers.py), none with
# --no-animation-pointer, `info` listing the clips and PKX slots, and a damaged key stream.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_anim
. "$HERE/cli_lib.sh"
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
check() { # check WHAT WANT GOT
  if [ "$2" = "$3" ]; then ok; else bad "$1: got '$3', want '$2'"; fi
}
anim() { python3 "$HERE/hsd_anim_glb.py" "$@" 2>&1; }

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"

# convert through the whole chain FSYS → LZSS → PKX → DAT, and from the PKX: the same bytes
expect_rc 0 "$UE" convert "$G/creature.fsys" -o "$T/c.glb"
validate_gltf "$T/c.glb"
expect_rc 0 "$UE" convert "$G/creature.pkx" -o "$T/p.glb"
cmp -s "$T/c.glb" "$T/p.glb" && ok || bad "the FSYS and the PKX convert differently"
check "animation names" "Animation_0,Animation_1" "$(anim "$T/c.glb" names)"
check "clips (ends, joints, values, pointers)" ok "$(anim "$T/c.glb" clips)"

# every pointer resolves in the written JSON (the validator does not check this): colour of
# head_mat and mouth_mat, offset and scale of the eye atlas and the mouth atlas
if python3 "$HERE/gltf_pointers.py" "$T/c.glb" --expect 6 >"$T/ptr" 2>&1; then ok; else bad "pointers: $(cat "$T/ptr")"; fi

# without the extension: no pointer channel, the skeleton's channels unchanged, still valid
expect_rc 0 "$UE" convert "$G/creature.fsys" -o "$T/plain.glb" --no-animation-pointer
validate_gltf "$T/plain.glb"
if python3 "$HERE/gltf_pointers.py" "$T/plain.glb" --none >"$T/ptr" 2>&1; then ok; else bad "pointers left: $(cat "$T/ptr")"; fi
check "plain: animation names" "Animation_0,Animation_1" "$(anim "$T/plain.glb" names)"

# info lists each clip with its end frame and what it animates, and the PKX slots name them
expect_rc 0 "$UE" info "$G/creature.fsys:creature.pkx:model.dat"
grep -q "Animation_0: skeletal, end frame 60," "$T/out" && ok || bad "info: idle: $(cat "$T/out")"
grep -q "Animation_1: skeletal, end frame 40," "$T/out" && ok || bad "info: attack: $(cat "$T/out")"
grep -q "Animation_0: material, end frame 60, .*2 materials, 2 textures" "$T/out" && ok || bad "info: face: $(cat "$T/out")"
expect_rc 0 "$UE" info "$G/creature.pkx"
grep -q '^    \[0\] slot 0, name idle, motion_kind 2, anims 0$' "$T/out" && ok || bad "info: slot 0"
grep -q '^    \[2\] slot 2, name physical A, motion_kind 4, anims 1$' "$T/out" && ok || bad "info: slot 2"
grep -q '^    \[2\] type 1, count 0, .*, anim_index 0$' "$T/out" && ok || bad "info: blink block (part_anims[2])"

# Damage: the first byte of Animation_1's root track (TRAZ) made opcode 15. Strict: exit 1 with
# the file offset and the struct path, no output. Tolerant: the model, the idle clip with the
# face, and the attack's other tracks still convert.
expect_rc 0 "$UE" extract "$G/creature.pkx" -o "$T/x"
AT=$(python3 - "$T/x/entries/0000_model.dat" "$T/bad.dat" <<'EOF_PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
data_size, nreloc = struct.unpack_from(">II", d, 4)
relocs = set(struct.unpack_from(">%dI" % nreloc, d, 0x20 + data_size))
def ptr(off):  # a relocated pointer field of the data block (docs/formats/dat.md#null-rule)
    assert off in relocs, hex(off)
    return struct.unpack_from(">I", d, 0x20 + off)[0]
scene = struct.unpack_from(">I", d, 0x20 + data_size + 4 * nreloc)[0]  # root 0: scene_data
model_set = ptr(ptr(scene))                  # SceneDesc → ModelSet[0]
attack = ptr(ptr(model_set + 4) + 4)         # anims[1] → AnimJoint of the root joint
keys = ptr(ptr(ptr(attack + 8) + 8) + 0x10)  # AObj → FObj → key bytes
d[0x20 + keys] = 0x0F
open(sys.argv[2], "wb").write(d)
print("0x%x" % (0x20 + keys))
EOF_PY
)
expect_rc 1 "$UE" convert "$T/bad.dat" -o "$T/bad.glb"
grep -q "anims\[1\]/joint\[0\]/aobj/track\[0\] @$AT: .*opcode 15.*\[hsd.key.opcode\]" "$T/err" && ok || bad "strict message: $(cat "$T/err")"
[ ! -e "$T/bad.glb" ] && ok || bad "strict conversion of a damaged clip left an output"
expect_rc 1 "$UE" convert "$T/bad.dat" -o "$T/bad.glb" --tolerant
grep -q "DAMAGED (1 part dropped" "$T/err" && ok || bad "tolerant verdict: $(cat "$T/err")"
validate_gltf "$T/bad.glb"
check "tolerant: the intact clips" ok "$(anim "$T/bad.glb" damaged)"
finish
