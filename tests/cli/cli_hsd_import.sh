#!/usr/bin/env bash
# import --base of an HSD model (edit mode, docs/hsd-import.md): convert → import unedited gives the
# DAT byte for byte (the sample creature as a bare DAT, a PKX and FSYS:ENTRY, and every synthetic DAT
# of the fuzz corpus that converts); an edited glb (moved vertices, a UV, a colour) gives exactly
# those values back on re-conversion and the file changes nowhere else; a replaced image comes back
# as its GX format stores it (CMPR, RGB5A3, C4 with its palette), a material's factor and alpha
# mode as the MObj stores them; every refusal: exit 1 or 2,
# the glTF path named, nothing written.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_import
. "$HERE/cli_lib.sh"
edit() { python3 "$HERE/hsd_import_glb.py" "$@"; }
no_output() { [ ! -e "$1" ] && ok || bad "$1 was written"; }

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"
DAT="$G/dat/creature.dat"

# ---- unedited round trips: byte for byte ------------------------------------------------------
expect_rc 0 "$UE" convert "$DAT" -o "$T/c.glb"
for BASE in "$DAT" "$G/creature.pkx" "$G/creature.fsys" "$G/creature.fsys:creature.pkx"; do
  rm -f "$T/c2.dat"
  expect_rc 0 "$UE" import "$T/c.glb" --base "$BASE" -o "$T/c2.dat"
  cmp -s "$DAT" "$T/c2.dat" && ok || bad "unedited import onto $BASE is not the DAT byte for byte"
  grep -q "^changed: nothing (byte-identical to the base)$" "$T/err" && ok || bad "no 'changed: nothing': $(cat "$T/err")"
done
FIXTURES=0
for F in "$HERE/../../fuzz/corpus/dat/"*.dat; do
  "$UE" convert "$F" -o "$T/f.glb" -f -q >/dev/null 2>&1 || continue  # no model to convert
  FIXTURES=$((FIXTURES + 1))
  expect_rc 0 "$UE" import "$T/f.glb" --base "$F" -o "$T/f.dat" -f
  cmp -s "$F" "$T/f.dat" && ok || bad "unedited import of $(basename "$F") differs"
done
[ "$FIXTURES" -ge 8 ] && ok || bad "only $FIXTURES fixtures converted"

# ---- edits: exactly those values come back, the file changes nowhere else --------------------
# root_mesh 0 is an envelope PObj (F32 positions, RGBA8 colours); head_mesh 0 S16 positions with 4
# fractional bits under the head's 1.5 scale (a step of 1/16 stored is at most 0.047 drawn); head_mesh 1
# direct U8 UVs with 7 fractional bits (0.25 and 0.75 are exact).
edit offset "$T/c.glb" "$T/e1.glb" root_mesh 0 POSITION 3 0.25,-0.5,0.125 >/dev/null
edit offset "$T/e1.glb" "$T/e2.glb" head_mesh 0 POSITION 0 0.5,0,0 >/dev/null
edit set "$T/e2.glb" "$T/e3.glb" head_mesh 1 TEXCOORD_0 0 0.25,0.75 >/dev/null
edit set "$T/e3.glb" "$T/e.glb" root_mesh 0 COLOR_0 0 0.2,0.4,0.6,1 >/dev/null
expect_rc 0 "$UE" import "$T/e.glb" --base "$DAT" -o "$T/e.dat"
grep -q "^changed: 2 positions, 0 normals, 2 UVs, 11 colours in 3 PObjs, 0 images, 0 materials$" "$T/err" && ok || bad "changed line: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/e.dat"
expect_rc 0 "$UE" convert "$T/e.dat" -o "$T/back.glb"
expect_rc 0 edit check "$T/c.glb" "$T/e.glb" "$T/back.glb" 0.05
check "edited vertex values" "$(cat "$T/out")" 17
# F32 positions come back to float precision, UVs and colours on their grid exactly.
check "F32 position" "$(edit value "$T/back.glb" root_mesh 0 POSITION 3)" "$(edit value "$T/e.glb" root_mesh 0 POSITION 3)"
check "U8 UV" "$(edit value "$T/back.glb" head_mesh 1 TEXCOORD_0 0)" "0.25,0.75"
check "RGBA8 colour" "$(edit value "$T/back.glb" root_mesh 0 COLOR_0 0)" "0.2,0.4,0.6,1"
# Bytes: one F32 position (at most 12 bytes), one S16 position (6), two U8 UV records (4), one
# RGBA8 colour in each of its direct records (3 channels changed each); the size the same.
expect_rc 0 edit bytes-differ "$DAT" "$T/e.dat"
N=$(cat "$T/out"); [ "$N" -gt 0 ] && [ "$N" -le 60 ] && ok || bad "$N bytes differ"
# A UV element the torso shares with the limbs: both change, and a warning says so.
edit set "$T/c.glb" "$T/s.glb" root_mesh 0 TEXCOORD_0 0 0.25,0.75 >/dev/null
expect_rc 0 "$UE" import "$T/s.glb" --base "$DAT" -o "$T/s.dat"
grep -q "import.hsd.shared" "$T/err" && ok || bad "no shared warning: $(cat "$T/err")"
expect_rc 0 "$UE" convert "$T/s.dat" -o "$T/sb.glb"
check "shared UV" "$(edit value "$T/sb.glb" root_mesh 2 TEXCOORD_0 0)" "0.25,0.75"

# ---- images: re-encoded in their own GX format, the others kept ------------------------------
# skin is CMPR 16 x 16 (the checker's 4 x 4 squares: one colour per block, its RGB565 value),
# eye_atlas RGB5A3 (every texel its own colour, both the opaque and the alpha form), head_skin C4
# (its palette kept: each texel the nearest palette colour, with a warning).
img() { python3 "$HERE/glb_image.py" "$@"; }
img set "$T/c.glb" "$T/i1.glb" skin checker
img set "$T/i1.glb" "$T/i2.glb" eye_atlas grad
img set "$T/i2.glb" "$T/i.glb" head_skin checker
expect_rc 0 "$UE" import "$T/i.glb" --base "$DAT" -o "$T/i.dat"
grep -q "^changed: 0 positions, 0 normals, 0 UVs, 0 colours in 0 PObjs, 3 images, 0 materials$" "$T/err" && ok || bad "changed line: $(cat "$T/err")"
grep -q "import.hsd.palette" "$T/err" && ok || bad "no palette warning: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/i.dat"
expect_rc 0 "$UE" convert "$T/i.dat" -o "$T/ib.glb"
expect_rc 0 edit expect-image "$T/ib.glb" skin checker RGB565 "$T/c.glb"
check "CMPR texels" "$(cat "$T/out")" 256
expect_rc 0 edit expect-image "$T/ib.glb" eye_atlas grad RGB5A3 "$T/c.glb"
check "RGB5A3 texels" "$(cat "$T/out")" 256
expect_rc 0 edit expect-image "$T/ib.glb" head_skin checker PALETTE "$T/c.glb"
check "C4 texels" "$(cat "$T/out")" 64
expect_rc 0 edit same-image "$T/c.glb" "$T/ib.glb" mouth_atlas
expect_rc 0 edit check "$T/c.glb" "$T/c.glb" "$T/ib.glb" 0   # no vertex changed
# Only image bytes changed: CMPR 16 x 16 is 128 bytes, RGB5A3 16 x 16 512, C4 8 x 8 32.
expect_rc 0 edit bytes-differ "$DAT" "$T/i.dat"
N=$(cat "$T/out"); [ "$N" -gt 0 ] && [ "$N" -le 672 ] && ok || bad "$N bytes differ"
# The same image put back (PNG re-encoded by another writer) is no edit.
img set "$T/c.glb" "$T/same.glb" skin same
expect_rc 0 "$UE" import "$T/same.glb" --base "$DAT" -o "$T/same.dat"
cmp -s "$DAT" "$T/same.dat" && ok || bad "an unchanged image changed the DAT"

# ---- materials: the base colour factor through the Material's sRGB bytes, alpha mode via XLU ----
# head_mat takes colour and alpha from its Material (MODULATE texture): RGB comes back as the sRGB
# byte it rounds to, alpha as the F32 it is; eye_mat BLEND → OPAQUE clears XLU (no PE block).
edit material "$T/c.glb" "$T/m1.glb" head_mat 0.5,0.25,1,0.6 BLEND
edit material "$T/m1.glb" "$T/m.glb" eye_mat - OPAQUE
expect_rc 0 "$UE" import "$T/m.glb" --base "$DAT" -o "$T/m.dat"
grep -q "^changed: 0 positions, 0 normals, 0 UVs, 0 colours in 0 PObjs, 0 images, 2 materials$" "$T/err" && ok || bad "changed line: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/m.dat"
expect_rc 0 "$UE" convert "$T/m.dat" -o "$T/mb.glb"
check "head_mat" "$(edit factor "$T/mb.glb" head_mat)" "$(edit srgb-step 0.5),$(edit srgb-step 0.25),$(edit srgb-step 1),0.6 BLEND"
check "eye_mat" "$(edit factor "$T/mb.glb" eye_mat)" "1,1,1,1 OPAQUE"
check "body_mat kept" "$(edit factor "$T/mb.glb" body_mat)" "$(edit factor "$T/c.glb" body_mat)"
check "mouth_mat kept" "$(edit factor "$T/mb.glb" mouth_mat)" "$(edit factor "$T/c.glb" mouth_mat)"
# Bytes: head_mat's diffuse RGB (3), alpha F32 (at most 4), two render modes (one bit each).
expect_rc 0 edit bytes-differ "$DAT" "$T/m.dat"
N=$(cat "$T/out"); [ "$N" -ge 3 ] && [ "$N" -le 9 ] && ok || bad "$N bytes differ"

# ---- refusals: exit 1 (invalid) or 2 (usage), nothing written --------------------------------
refused() { # refused RC CODE GLB [ARGS]: import GLB onto the creature is refused with CODE
  local rc=$1 code=$2 glb=$3; shift 3
  rm -f "$T/r.dat"
  expect_rc "$rc" "$UE" import "$glb" --base "$DAT" -o "$T/r.dat" "$@"
  [ -z "$code" ] || grep -q "$code" "$T/err" && ok || bad "$glb: no $code: $(cat "$T/err")"
  no_output "$T/r.dat"
}
# A value beyond a direct attribute's format (head_mesh 0: direct U8 UVs, 7 fractional bits): not widened
# (indexed attributes are: cli_hsd_import_weights.sh).
edit set "$T/c.glb" "$T/far.glb" head_mesh 0 TEXCOORD_0 0 5,0.75 >/dev/null
refused 1 "import.hsd.range" "$T/far.glb"
grep -q "/meshes/1/primitives/0/attributes/TEXCOORD_0.*U8 with 7 fractional bits, which holds 0 … 1.99219 (a direct attribute is not widened)" "$T/err" && ok ||
  bad "range message: $(cat "$T/err")"
edit set "$T/c.glb" "$T/rgb.glb" root_mesh 0 COLOR_0 0 1.5,0,0,1 >/dev/null
refused 1 "scene.prim.color" "$T/rgb.glb"   # the glTF reader refuses it first
edit pair "$T/c.glb" "$T/pair.glb" head_mesh 0 0.25
refused 1 "import.hsd.conflict" "$T/pair.glb"
# New triangles over vertices most of which moved: no PObj of the base has these vertices.
edit retriangle "$T/c.glb" "$T/tri0.glb" head_mesh 2 0 1 >/dev/null
edit offset "$T/tri0.glb" "$T/tri1.glb" head_mesh 2 POSITION 0 0.5,0,0 >/dev/null
edit offset "$T/tri1.glb" "$T/tri2.glb" head_mesh 2 POSITION 1 0.5,0,0 >/dev/null
edit offset "$T/tri2.glb" "$T/tri.glb" head_mesh 2 POSITION 2 0.5,0,0 >/dev/null
refused 1 "import.hsd.topology" "$T/tri.glb"
img set "$T/c.glb" "$T/big.glb" skin checker --size 32 32
refused 1 "import.hsd.image_size" "$T/big.glb"
grep -q "is 32 × 32; the base's CMPR image is 16 × 16" "$T/err" && ok || bad "size message: $(cat "$T/err")"
edit material "$T/c.glb" "$T/mask.glb" body_mat - MASK 0.5
refused 1 "import.hsd.material" "$T/mask.glb"
grep -q "alphaMode MASK needs an alpha test, and MObj 0 has no PE block" "$T/err" && ok || bad "mask message: $(cat "$T/err")"
edit material "$T/c.glb" "$T/mf.glb" eye_mat 1,1,0.5,1
refused 1 "import.hsd.material" "$T/mf.glb"   # eye_mat's texture replaces the colour
edit rename "$T/c.glb" "$T/ren.glb" head_mesh face_mesh
refused 1 "import.hsd.unmatched" "$T/ren.glb"
edit duplicate "$T/c.glb" "$T/dup.glb" head_mesh head_mesh.001   # its PObjs taken by head_mesh first
refused 1 "import.hsd.duplicate" "$T/dup.glb"
grep -q "node 'head_mesh.001': the base's PObj with this primitive's 24 vertices and 12 triangles is already edited" "$T/err" &&
  ok || bad "duplicate message: $(cat "$T/err")"
head -c 200 "$T/c.glb" > "$T/cut.glb"
refused 1 "gltf.glb" "$T/cut.glb"
refused 2 "" "$T/c.glb" --into "$G/creature.fsys:creature.pkx"
expect_rc 2 "$UE" import "$T/c.glb" --base "$DAT" -o "$T/r.pkx"
no_output "$T/r.pkx"
cp "$DAT" "$T/copy.dat"
expect_rc 2 "$UE" import "$T/c.glb" --base "$T/copy.dat" -o "$T/copy.dat" -f
cmp -s "$DAT" "$T/copy.dat" && ok || bad "the base was overwritten"
cp "$T/e.dat" "$T/e_before.dat"
expect_rc 2 "$UE" import "$T/c.glb" --base "$DAT" -o "$T/e.dat"   # exists, no -f
cmp -s "$T/e.dat" "$T/e_before.dat" && ok || bad "an existing output was replaced without -f"
expect_rc 0 "$UE" import "$T/c.glb" --base "$DAT" -o "$T/e.dat" -f
cmp -s "$DAT" "$T/e.dat" && ok || bad "-f did not replace the output"

# A singular skinning matrix: the chest mirrored (scale z = -1, patched at its JObj's scale,
# docs/formats/hsd-model.md) blends with the hips' identity at 0.5/0.5 in root_mesh 0's envelope 1,
# a projection. Vertex 3 uses it: an edit of it cannot be placed and is refused, not written at 0.
python3 -c "import struct, sys; b = bytearray(open(sys.argv[1], 'rb').read())
u = lambda o: struct.unpack('>I', b[0x20 + o:0x24 + o])[0]
chest = u(u(u(u(u(0))) + 8) + 8)  # scene_data → models → ModelSet → root → hips → chest
b[0x20 + chest + 0x28:0x20 + chest + 0x2c] = struct.pack('>f', -1.0)
open(sys.argv[2], 'wb').write(b)" "$DAT" "$T/mirror.dat"
expect_rc 0 "$UE" convert "$T/mirror.dat" -o "$T/mirror.glb"
expect_rc 0 "$UE" import "$T/mirror.glb" --base "$T/mirror.dat" -o "$T/mirror2.dat"
cmp -s "$T/mirror.dat" "$T/mirror2.dat" && ok || bad "the unedited mirrored model changed"
edit offset "$T/mirror.glb" "$T/mirror_e.glb" root_mesh 0 POSITION 3 0.25,-0.5,0.125 >/dev/null
expect_rc 1 "$UE" import "$T/mirror_e.glb" --base "$T/mirror.dat" -o "$T/mirror3.dat"
grep -q "/meshes/0/primitives/0/attributes/POSITION @0x[0-9a-f]*: vertex 3: PObj 0 places it with a matrix that has no inverse (envelope 1.*\[import.hsd.singular\]" "$T/err" && ok || bad "singular: $(cat "$T/err")"
no_output "$T/mirror3.dat"

# A normal edited to exactly the base normal carried by its vertex's matrix itself (not its inverse
# transpose: how Blender's importer carries normals into re-expressed joints) is an edit when the
# glTF's skeleton is the base's: the jaw's vertices (non-uniform under the head's 1.5 x 1 x 0.8), in
# a glb matched by geometry (an unused vertex put first), come back with the edited normal.
N=$(edit direct-normal "$T/c.glb" root_mesh 2 8)
edit set "$T/c.glb" "$T/dn1.glb" root_mesh 2 NORMAL 8 "$N" >/dev/null
edit extra-vertex "$T/dn1.glb" "$T/dn2.glb" root_mesh 2
expect_rc 0 "$UE" import "$T/dn2.glb" --base "$DAT" -o "$T/dn.dat" -v
grep -q "import.hsd.geometry" "$T/err" && ok || bad "direct normal: no geometry match: $(cat "$T/err")"
grep -q "^changed: 0 positions, 1 normal, 0 UVs, 0 colours in 1 PObj, 0 images, 0 materials$" "$T/err" && ok ||
  bad "direct normal: $(cat "$T/err")"
expect_rc 0 "$UE" convert "$T/dn.dat" -o "$T/dnb.glb"
python3 - "$(edit value "$T/dnb.glb" root_mesh 2 NORMAL 8)" "$N" "$(edit value "$T/c.glb" root_mesh 2 NORMAL 8)" <<'PY' && ok || bad "direct normal came back as $(edit value "$T/dnb.glb" root_mesh 2 NORMAL 8), not $N"
import sys
got, want, base = ([float(c) for c in a.split(",")] for a in sys.argv[1:4])
# within the normal format's step of the edit, and far from the base's normal
sys.exit(not (max(abs(g - w) for g, w in zip(got, want)) < 5e-3 < max(abs(g - b) for g, b in zip(got, base))))
PY

finish
