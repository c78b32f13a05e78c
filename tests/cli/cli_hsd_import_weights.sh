#!/usr/bin/env bash
# import --base with skin weights and values past their format (docs/hsd-import.md#skin-weights,
# #widening): a vertex re-weighted to an envelope its PObj has, and to a new one, converts back with
# exactly the new weights, in its place, every other vertex unchanged, and validates strictly; a
# weight set past a PObj's 10 matrices and weights on a rigid PObj are refused by name; a position
# and a UV past their formats come back at their values after widening, stderr naming it; an
# edited image in I8 says it lost its colour and alpha and comes back as the luma computed here.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_import_weights
. "$HERE/cli_lib.sh"
edit() { python3 "$HERE/hsd_import_glb.py" "$@"; }
no_output() { [ ! -e "$1" ] && ok || bad "$1 was written"; }

expect_rc 0 "$UE" demo -o "$T/demo"
DAT="$T/demo/gamecube/dat/creature.dat"
expect_rc 0 "$UE" convert "$DAT" -o "$T/c.glb"
# back NAME LINE [BASE]: $T/NAME.glb imported onto BASE (the creature) with LINE on stderr (kept in
# $T/NAME.err), the DAT valid strictly, converted back to $T/NAMEb.glb.
back() {
  expect_rc 0 "$UE" import "$T/$1.glb" --base "${3:-$DAT}" -o "$T/$1.dat"
  cp "$T/err" "$T/$1.err"
  grep -q "$2" "$T/err" && ok || bad "$1: no '$2': $(cat "$T/err")"
  expect_rc 0 "$UE" validate --strict "$T/$1.dat"
  expect_rc 0 "$UE" convert "$T/$1.dat" -o "$T/$1b.glb"
}

# reweighted NAME WANT: vertex 3 of root_mesh 0 in $T/NAMEb.glb has the influences WANT, every other
# vertex its old ones; it is in its place (F32 positions: to float precision), its normal within
# the S8 normals' step, every other value exactly the base's.
reweighted() {
  check "$1: re-weighted vertex" "$(edit skin "$T/$1b.glb" root_mesh 0 3)" "$2"
  expect_rc 0 edit skin-check "$T/c.glb" "$T/$1.glb" "$T/$1b.glb" 1e-6
  check "$1: vertices re-weighted" "$(cat "$T/out")" 1
  check "$1: position kept" "$(edit value "$T/$1b.glb" root_mesh 0 POSITION 3)" "$(edit value "$T/c.glb" root_mesh 0 POSITION 3)"
  expect_rc 0 edit check "$T/c.glb" "$T/$1.glb" "$T/$1b.glb" 0.03
}

# ---- weights: root_mesh 0 is the torso, an envelope PObj with hips, hips+chest and chest ---------
check "vertex 3 before" "$(edit skin "$T/c.glb" root_mesh 0 3)" "chest:0.5,hips:0.5"
# To an envelope the PObj has: its PNMTXIDX changes, its position and normal go to new elements.
check "vertices at vertex 3" "$(edit weights "$T/c.glb" "$T/w1.glb" root_mesh 0 3 chest:1)" 1
back w1 "^weights: 1 vertex given another envelope, 0 envelopes added$"
reweighted w1 chest:1

# To a new envelope (chest 0.75, hips 0.25): appended to the torso's list (3 → 4 matrices).
edit weights "$T/c.glb" "$T/w2.glb" root_mesh 0 3 chest:0.75,hips:0.25 >/dev/null
back w2 "^weights: 1 vertex given another envelope, 1 envelope added$"
reweighted w2 chest:0.75,hips:0.25
# Five influences (JOINTS_1/WEIGHTS_1): the 4 largest kept, renormalised (0.3, 0.3, 0.2, 0.15 over 0.95), with a note.
edit weights "$T/c.glb" "$T/w5.glb" root_mesh 0 3 hips:0.3,chest:0.3,tail:0.2,arm_l:0.15,arm_r:0.05 >/dev/null
back w5 "^note: 1 vertex had more than 4 influences: the 4 largest were kept, renormalised$"
W=$(python3 -c 'print(",".join("%s:%.6g" % (j, w / 0.95) for j, w in (("arm_l", .15), ("chest", .3), ("hips", .3), ("tail", .2))))')
reweighted w5 "$W"
# Weights within a byte's step of the export's are no edit: the base byte for byte.
edit weights "$T/c.glb" "$T/w3.glb" root_mesh 0 1 chest:0.501,hips:0.499 >/dev/null
expect_rc 0 "$UE" import "$T/w3.glb" --base "$DAT" -o "$T/w3.dat"
cmp -s "$DAT" "$T/w3.dat" && ok || bad "weights within the tolerance changed the DAT"

# ---- refusals -----------------------------------------------------------------------------------
refused() { # refused CODE GLB BASE: exit 1 naming CODE, nothing written
  rm -f "$T/r.dat"
  expect_rc 1 "$UE" import "$2" --base "$3" -o "$T/r.dat"
  grep -q "$1" "$T/err" && ok || bad "$2: no $1: $(cat "$T/err")"
  no_output "$T/r.dat"
}
# rig_ten_envelopes: each PObj addresses 10 envelopes (joint N 0.75 + N+1 0.25); an 11th is refused.
RIG="$HERE/../../fuzz/corpus/dat/rig_ten_envelopes.dat"
expect_rc 0 "$UE" convert "$RIG" -o "$T/rig.glb"
edit weights "$T/rig.glb" "$T/rig11.glb" joint_002_mesh 0 0 joint_002:0.5,joint_003:0.5 >/dev/null
refused import.hsd.envelopes "$T/rig11.glb" "$RIG"
grep -q "already addresses 10 matrices, the GX limit (PNMTX0 … 9, PNMTXIDX 0 … 27)" "$T/err" && ok || bad "limit message: $(cat "$T/err")"
# The head is a rigid PObj (no envelopes, no matrix indices).
edit weights "$T/c.glb" "$T/rigid.glb" head_mesh 0 0 chest:1 >/dev/null
refused import.hsd.weights "$T/rigid.glb" "$DAT"

# ---- many re-weighted vertices in one PObj --------------------------------------------------------
# New models of N separate triangles (3N vertices, 3N position elements, 16-bit indices), every vertex
# on bone0, all re-weighted to bone1: each takes a position element of its own after the PObj's.
# 30,000 vertices take 60,000 elements and import; 60,000 would need 120,000, past 65535: one
# refusal, at the first vertex past the limit (index 65536 = 60000 + 5536), nothing written.
NEW="$HERE/hsd_new_glb.py"
for N in 10000 20000; do
  python3 "$NEW" confetti "$T/conf$N.gltf" "$N"
  expect_rc 0 "$UE" import "$T/conf$N.gltf" -o "$T/conf$N.dat"
  expect_rc 0 "$UE" convert "$T/conf$N.dat" -o "$T/conf$N.glb"
  check "confetti $N: vertices re-weighted" "$(edit weights-all "$T/conf$N.glb" "$T/confw$N.glb" root_mesh 0 bone1:1)" $((3 * N))
done
expect_rc 0 "$UE" import "$T/confw10000.glb" --base "$T/conf10000.dat" -o "$T/confw10000.dat"
grep -q "^weights: 30000 vertices given another envelope, 1 envelope added$" "$T/err" && ok || bad "30000: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/confw10000.dat"
expect_rc 0 "$UE" convert "$T/confw10000.dat" -o "$T/confw10000b.glb"
expect_rc 0 edit skin-check "$T/conf10000.glb" "$T/confw10000.glb" "$T/confw10000b.glb" 1e-6
check "30000: vertices re-weighted back" "$(cat "$T/out")" 30000
expect_rc 0 edit check "$T/conf10000.glb" "$T/confw10000.glb" "$T/confw10000b.glb" 1e-5
refused import.hsd.limit "$T/confw20000.glb" "$T/conf20000.dat"
check "60000: one error" "$(grep -c "error:" "$T/err")" 1
grep -q "vertex 5536: re-weighted, it needs an element of its own in PObj 0's array, whose 16-bit indices reach no further" \
  "$T/err" && ok || bad "60000: $(cat "$T/err")"

# ---- widening -----------------------------------------------------------------------------------
# head_mesh 0: S16 positions with 4 fractional bits (-2048 … 2047.94) under the head's 1.5 scale:
# 5000 further on x is past them; the head's array becomes F32.
MOVED=$(edit offset "$T/c.glb" "$T/far.glb" head_mesh 0 POSITION 0 5000,0,0)  # the glTF vertices at that place
back far "^widened: 1 attribute"
grep -q "/meshes/1/primitives/0/attributes/POSITION.*does not fit S16 with 4 fractional bits.*new array of F32 (8 elements) \[import.hsd.widened\]" "$T/far.err" &&
  ok || bad "widened message: $(cat "$T/far.err")"
# F32 at 5000 holds about 4e-4: the moved vertex comes back within 1e-3, every other value exactly.
expect_rc 0 edit check "$T/c.glb" "$T/far.glb" "$T/farb.glb" 1e-3
check "values moved" "$(cat "$T/out")" "$MOVED"
# root_mesh 0 TEXCOORD_0: S16 with 8 fractional bits (-128 … 127.996) in an array the torso shares
# with the tail and the limbs: the torso gets an F32 array (and descriptors) of its own.
edit set "$T/c.glb" "$T/uv.glb" root_mesh 0 TEXCOORD_0 0 200,0.5 >/dev/null
back uv "/meshes/0/primitives/0/attributes/TEXCOORD_0.*does not fit S16 with 8 fractional bits.*F32"
check "far UV" "$(edit value "$T/uvb.glb" root_mesh 0 TEXCOORD_0 0)" "200,0.5"
expect_rc 0 edit check "$T/c.glb" "$T/uv.glb" "$T/uvb.glb" 0

# ---- an intensity image loses colour and alpha, with a warning ----------------------------------
# The eyes' 16 x 16 RGB5A3 image (format 5) read as I8 (format 1): the same bytes hold it.
expect_rc 0 edit image-format "$DAT" "$T/i8.dat" 16 16 5 1
expect_rc 0 "$UE" convert "$T/i8.dat" -o "$T/i8.glb"
python3 "$HERE/glb_image.py" set "$T/i8.glb" "$T/i8e.glb" eye_atlas grad
back i8e "image 'eye_atlas' is stored as I8, which holds intensity only: its colour and alpha are dropped.*\[import.hsd.image_channels\]" "$T/i8.dat"
expect_rc 0 edit expect-image "$T/i8eb.glb" eye_atlas grad LUMA "$T/i8.glb"
check "I8 texels" "$(cat "$T/out")" 256
# A grey texel whose alpha is its grey is what `convert` gives of I8 (alpha = intensity): no warning,
# the new grey back in every channel. An opaque grey texel loses its alpha, with the warning.
python3 "$HERE/glb_image.py" set "$T/i8.glb" "$T/i8g.glb" eye_atlas fill:100,100,100,100
back i8g "^changed: .* 1 image" "$T/i8.dat"
grep -q "image_channels" "$T/i8g.err" && bad "i8g: a warning: $(cat "$T/i8g.err")" || ok
expect_rc 0 edit expect-image "$T/i8gb.glb" eye_atlas fill:100,100,100,100 LUMA "$T/i8.glb"
python3 "$HERE/glb_image.py" set "$T/i8.glb" "$T/i8o.glb" eye_atlas fill:100,100,100,255
back i8o "image 'eye_atlas' is stored as I8, which holds intensity only: its alpha is dropped (the luma is read back as alpha) \[import.hsd.image_channels\]" "$T/i8.dat"
expect_rc 0 edit expect-image "$T/i8ob.glb" eye_atlas fill:100,100,100,255 LUMA "$T/i8.glb"

finish
