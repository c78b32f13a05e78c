#!/usr/bin/env bash
# End-to-end tests of `textures`: PNGs from a hand-built HSD .dat (bare, inside an FSYS, and as
# ARCHIVE:ENTRY), decoded back in the test and compared with texels worked out from the spec;
# --mips, -f over its own output only, no textures, damage in strict and tolerant mode.
set -u
UE="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_textures
. "$HERE/cli_lib.sh"
DAT="python3 $HERE/hsd_tex_dat.py"
cd "$T" || exit 3

$DAT make tex.dat
# png FILE: "W H", then each row's texels as r,g,b,a separated by spaces
png() { $DAT png "$1"; }
row() { png "$1" | sed -n "$(( $2 + 2 ))p"; }

# ---- a bare .dat: two textures, level 0 -------------------------------------------------
expect_rc 0 "$UE" textures tex.dat -o pngs
[ "$(ls pngs | wc -l)" = 2 ] && ok || bad "want 2 PNGs: $(ls pngs)"
printf 'pngs/tex.tex0_C4.png\t8x8\npngs/tex.tex1_RGB5A3.png\t4x4\n' | cmp -s - "$T/out" && ok || bad "listing: $(cat "$T/out")"
[ "$(png pngs/tex.tex0_C4.png | head -1)" = "8 8" ] && ok || bad "C4 size"
[ "$(png pngs/tex.tex1_RGB5A3.png | head -1)" = "4 4" ] && ok || bad "RGB5A3 size"
# C4: texel (x, y) is palette entry (x + y) & 3 of red, green, blue, white (RGB565 0xF800 …)
R=255,0,0,255; G=0,255,0,255; B=0,0,255,255; W=255,255,255,255
[ "$(row pngs/tex.tex0_C4.png 0)" = "$R $G $B $W $R $G $B $W" ] && ok || bad "C4 row 0: $(row pngs/tex.tex0_C4.png 0)"
[ "$(row pngs/tex.tex0_C4.png 7)" = "$W $R $G $B $W $R $G $B" ] && ok || bad "C4 row 7: $(row pngs/tex.tex0_C4.png 7)"
# RGB5A3: 0x801F is opaque blue; 0x3F00 is A3RGB4 a=3 → (3<<5)|(3<<2)|(3>>1) = 109, r=0xF → 255
[ "$(row pngs/tex.tex1_RGB5A3.png 2)" = "$B 255,0,0,109 $B 255,0,0,109" ] && ok || bad "RGB5A3 row 2: $(row pngs/tex.tex1_RGB5A3.png 2)"
png pngs/tex.tex0_C4.png | grep -qx 'tEXt Software=unearth textures' && ok || bad "no mark"

# ---- an existing output: refused without -f, replaced with it; --mips adds the levels ----
expect_rc 2 "$UE" textures tex.dat -o pngs --mips
[ ! -e pngs/tex.tex1_RGB5A3.mip1.png ] && ok || bad "refused run wrote a level"
expect_rc 0 "$UE" textures tex.dat -o pngs --mips -f
[ "$(ls pngs | wc -l)" = 4 ] && ok || bad "want 4 PNGs with --mips: $(ls pngs)"
[ "$(png pngs/tex.tex1_RGB5A3.mip1.png | head -1)" = "2 2" ] && ok || bad "mip 1 size"
[ "$(row pngs/tex.tex1_RGB5A3.mip1.png 1)" = "$G $G" ] && ok || bad "mip 1: 0x83E0 is green"
[ "$(row pngs/tex.tex1_RGB5A3.mip2.png 0)" = "$W" ] && ok || bad "mip 2: 0xFFFF is white"
# a folder holding somebody's picture (no mark) is never replaced
mkdir pics && cp pngs/tex.tex0_C4.png pics/mine.png
python3 - pics/mine.png <<'EOF'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); i = b.find(b'unearth'); b[i] = ord('U')
open(p, 'wb').write(bytes(b))
EOF
expect_rc 2 "$UE" textures tex.dat -o pics -f
[ -f pics/mine.png ] && [ "$(ls pics)" = mine.png ] && ok || bad "foreign folder changed: $(ls pics)"
grep -q 'previous unearth textures output' "$T/err" && ok || bad "refusal does not say why: $(cat "$T/err")"
expect_rc 2 "$UE" textures tex.dat -o tex.dat
cmp -s tex.dat <($DAT make /dev/stdout) && ok || bad "the input was touched"

# ---- through containers: an FSYS entry found by the walk, and FSYS:ENTRY -------------------
"$UE" demo -o demo >/dev/null
"$UE" extract demo/gamecube/demo_colo.fsys -o x >/dev/null
cp tex.dat x/entries/0001_demo_model.dat
"$UE" pack x -o new.fsys >/dev/null
expect_rc 0 "$UE" textures new.fsys -o viafsys
[ "$(ls viafsys)" = "$(printf 'demo_model.tex0_C4.png\ndemo_model.tex1_RGB5A3.png')" ] && ok || bad "FSYS walk: $(ls viafsys)"
cmp -s viafsys/demo_model.tex0_C4.png pngs/tex.tex0_C4.png && ok || bad "FSYS copy decodes differently"
expect_rc 0 "$UE" textures new.fsys:demo_model.dat -o entry --mips
[ "$(ls entry | wc -l)" = 4 ] && ok || bad "ARCHIVE:ENTRY: $(ls entry)"

# ---- the sample creature (FSYS → LZSS → PKX → DAT): its four textures, and its materials ------
# named after the FSYS entry creature.pkx that holds the model (docs/text.md), not its model.dat
expect_rc 0 "$UE" textures demo/gamecube/creature.fsys -o creature
printf 'creature/creature.tex0_CMPR.png\t16x16\ncreature/creature.tex1_C4.png\t8x8\ncreature/creature.tex2_RGB5A3.png\t16x16\ncreature/creature.tex3_RGB5A3.png\t8x8\n' |
  cmp -s - "$T/out" && ok || bad "creature listing: $(cat "$T/out")"
[ "$(png creature/creature.tex1_C4.png | head -1)" = "8 8" ] && ok || bad "creature C4 PNG size"
expect_rc 0 "$UE" convert demo/gamecube/creature.fsys -o creature.gltf
if node "$HERE/../gltf_validate.mjs" creature.gltf >"$T/val" 2>&1; then ok; else bad "gltf-validator: $(cat "$T/val")"; fi
# eye_mat: XLU → BLEND; its TObj has repeat 1 and scale 2 on both axes, so docs/formats/hsd-materials.md#texture-matrix samples
# s' = s / 2: KHR scale 0.5, offset 0; wrap CLAMP → 33071. body_mat samples with REPEAT (default).
python3 - creature.gltf <<'EOF_PY' && ok || bad "creature materials"
import json, sys
g = json.load(open(sys.argv[1]))
m = {x['name']: x for x in g['materials']}
eye = m['eye_mat']
assert eye['alphaMode'] == 'BLEND', eye
tt = eye['pbrMetallicRoughness']['baseColorTexture']['extensions']['KHR_texture_transform']
assert tt['scale'] == [0.5, 0.5] and tt['offset'] == [0, 0] and tt['rotation'] == 0, tt
tex = g['textures'][eye['pbrMetallicRoughness']['baseColorTexture']['index']]
s = g['samplers'][tex['sampler']]
assert s.get('wrapS') == 33071 and s.get('wrapT') == 33071, s
body = g['textures'][m['body_mat']['pbrMetallicRoughness']['baseColorTexture']['index']]
assert 'wrapS' not in g['samplers'][body['sampler']], g['samplers']
assert 'KHR_texture_transform' in g['extensionsUsed']
EOF_PY

# ---- a Parkan model: the textures its materials resolve to (WEAR → Material.lib → Textures.lib)
expect_rc 0 "$UE" textures demo/parkan/robot.msh -o robot_tex
[ "$(ls robot_tex | wc -l)" = 4 ] && ok || bad "robot: want 4 PNGs: $(ls robot_tex)"
expect_rc 0 "$UE" textures demo/parkan/Textures.lib -o lib_tex
# the same pixels as the Texm entry read on its own (the Texm hook, not the material chain)
[ "$(png robot_tex/robot.ROBOT_BODY_0.png)" = "$(png lib_tex/ROBOT_BODY.8888.png)" ] && ok \
  || bad "the robot's body texture differs from Textures.lib:ROBOT_BODY.0"
expect_rc 0 "$UE" textures demo/parkan/objects.rlb:ROBOT.msh -o rlb_tex

# ---- nothing to write: a model without textures is an error, nothing written ---------------
# tex.dat with its MObj's TObj pointer (data offset 0x68) cleared: a valid model, no texture
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[0x88:0x8C] = bytes(4); open(sys.argv[2], "wb").write(b)' tex.dat plain.dat
expect_rc 1 "$UE" textures plain.dat -o none
[ ! -e none ] && ok || bad "no textures, yet something was written"
grep -q 'none with a texture' "$T/err" && ok || bad "no-texture message: $(cat "$T/err")"
# A file or archive without a model says what it holds, under the input's name like every message.
expect_rc 0 "$UE" extract demo/gamecube/demo_xd.fsys -o xd
expect_rc 1 "$UE" textures xd/entries/0003_demo_xd_entry_3.dat -o none
grep -q '^xd/entries/0003_demo_xd_entry_3.dat: error: .*: a HAL SysDolphin .dat without a model, no model to take textures from (no model root' \
  "$T/err" && ok || bad "DAT without a model root: $(cat "$T/err")"
grep -q 'model found' "$T/err" && bad "a DAT without a model root called a model: $(cat "$T/err")" || ok
expect_rc 1 "$UE" textures demo/gamecube/demo_xd.fsys -o none
grep -q '^demo/gamecube/demo_xd.fsys: error: .*: no model inside: 4 entries, none a model (the first, .*demo_xd.pkx:model.dat, is a HAL SysDolphin .dat without a model' \
  "$T/err" && ok || bad "archive without a model: $(cat "$T/err")"
expect_rc 1 "$UE" textures demo/parkan/sprites_demo.lib -o none
grep -q '^demo/parkan/sprites_demo.lib: error: demo/parkan/sprites_demo.lib: no model inside' "$T/err" && ok \
  || bad "library without a model: $(cat "$T/err")"
[ ! -e none ] && ok || bad "no model, yet something was written"

# ---- materials not found: named with where they were looked for, grouped per code ------------
# The robot alone, without its WEAR: no texture at all, so nothing is written and exit 1.
mkdir -p lone && cp demo/parkan/robot.msh lone/
expect_rc 1 "$UE" textures lone/robot.msh -o lone_tex
[ ! -e lone_tex ] && ok || bad "lone robot: no texture found, yet $(ls -d lone_tex) was written"
grep -qF 'lone/robot.msh: no WEAR table robot.wea (any letter case) in lone' "$T/err" && ok || bad "what was looked for, where: $(cat "$T/err")"
grep -qF 'no texture found: the materials of 1 model were not found (the first: no WEAR table robot.wea' "$T/err" \
  && ok || bad "the refusal names what is missing: $(cat "$T/err")"
! grep -q 'damaged' "$T/err" && ok || bad "a healthy model called damaged: $(cat "$T/err")"
# 40 models without their WEAR in one archive: one group of 3 lines and a count, not 80 lines.
"$UE" extract demo/parkan/objects.rlb -o many_x >/dev/null 2>&1
python3 -c '
import json, copy, sys
m = json.load(open(sys.argv[1])); robot = [e for e in m["entries"] if e["name"] == "ROBOT.msh"][0]
keep = {k: v for k, v in robot.items() if k not in ("name_hex", "sort_index", "data_offset", "index")}
m["entries"] = [dict(keep, name="M%02d.msh" % i) for i in range(40)]
m["header"] = {"magic": "NRes", "version": 256}
json.dump(m, open(sys.argv[1], "w"))' many_x/manifest.json || bad "40 models: the manifest edit failed"
mkdir many && expect_rc 0 "$UE" pack many_x -o many/many.rlb
expect_rc 1 "$UE" textures many/many.rlb -o many_tex
check "grouped title" "$(grep -c '^not found \[msh.material.wear\] for 40 models:$' "$T/err")" 1
check "models listed" "$(grep -c '^  many/many.rlb:M[0-9]*.msh: no WEAR table' "$T/err")" 3
grep -qF '  ... and 37 more (-v prints each one)' "$T/err" && ok || bad "the rest counted: $(cat "$T/err")"
check "lines of the run" "$(wc -l <"$T/err")" 7
expect_rc 1 "$UE" textures -v many/many.rlb -o many_tex
check "-v lists every model" "$(grep -c '^  many/many.rlb:M[0-9]*.msh: no WEAR table' "$T/err")" 40
[ ! -e many_tex ] && ok || bad "no texture found, yet many_tex was written"
# WEAR and Material.lib beside it, Textures.lib without ROBOT_ARM.0: the other three are written.
mkdir part && cp demo/parkan/robot.msh demo/parkan/robot.wea demo/parkan/Material.lib part/
"$UE" extract demo/parkan/Textures.lib -o tx_x >/dev/null 2>&1
python3 -c '
import json, sys
m = json.load(open(sys.argv[1])); m["entries"] = [e for e in m["entries"] if e["name"] != sys.argv[2]]
json.dump(m, open(sys.argv[1], "w"))' tx_x/manifest.json ROBOT_ARM.0
"$UE" pack tx_x -o part/Textures.lib >/dev/null 2>&1
expect_rc 0 "$UE" textures part/robot.msh -o part_tex
[ "$(ls part_tex | tr '\n' ' ')" = "robot.ROBOT_BODY_0.png robot.ROBOT_HEAD_phases.png robot.ROBOT_LEG_0.png " ] \
  && ok || bad "the three textures found: $(ls part_tex)"
grep -qF "texture ROBOT_ARM.0 of material ROBOT_ARM not found in" "$T/err" && grep -qF "part/Textures.lib" "$T/err" \
  && ok || bad "the missing texture named with its library: $(cat "$T/err")"
grep -qF 'the textures that were found are written' "$T/err" && ok || bad "partial note: $(cat "$T/err")"
# A texture that is there but cannot be decoded is damage: exit 1.
"$UE" extract demo/parkan/Textures.lib -o tx_y >/dev/null 2>&1
printf 'Texm\0\0\0\0' >tx_y/entries/0003_ROBOT_ARM.0
"$UE" pack tx_y -o part/Textures.lib -f >/dev/null 2>&1
expect_rc 1 "$UE" textures part/robot.msh -o part_tex -f
grep -q 'msh.texture.damaged' "$T/err" && grep -q 'robot.msh: damaged' "$T/err" && ok || bad "an undecodable texture is damage: $(cat "$T/err")"

# ---- damage: level chain past the data (maxLOD 5 on a 4×4 with 3 stored levels) -----------
$DAT make bad.dat 5
expect_rc 1 "$UE" textures bad.dat -o dmg
[ ! -e dmg ] && ok || bad "strict run wrote despite the damage"
grep -q 'hsd.image.size' "$T/err" && ok || bad "no diagnostic naming the image: $(cat "$T/err")"
grep -q '@0x240' "$T/err" && ok || bad "diagnostic lacks the offset: $(cat "$T/err")"
expect_rc 1 "$UE" textures bad.dat -o dmg --tolerant
[ "$(ls dmg)" = bad.tex0_C4.png ] && ok || bad "tolerant: want the intact C4 only: $(ls dmg)"

finish
