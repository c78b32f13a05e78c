#!/usr/bin/env bash
# End-to-end tests of `preview` and `textures --sheet`: every sample model drawn as a PNG of the
# asked size that is not blank, the same bytes on every run, through containers and from its
# own glb; contact sheets; and the refusals (bad view, background, clip, frame, unsafe outputs).
set -u
UE="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_preview
. "$HERE/cli_lib.sh"
cd "$T" || exit 3
"$UE" demo -o demo >/dev/null || { bad "demo"; finish; exit 1; }

# png_info FILE: "WIDTHxHEIGHT OPAQUE_PIXELS COLOURS CORNER" of an 8-bit RGB or RGBA PNG, decoded by
# glb_image.py's own decoder (zlib alone; CORNER: the top-left pixel as RGBA hex).
png_info() {
  python3 - "$1" "$HERE" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from glb_image import png_decode
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h, texels = png_decode(data)
opaque = sum(1 for t in texels if t[3] == 255)
colours = len({tuple(t[:3]) for t in texels if t[3]})
print(f"{w}x{h} {opaque} {colours} {bytes(texels[0]).hex()}")
PY
}
# drawn FILE SIZE: a valid PNG of SIZE x SIZE with a model on it (some opaque pixels, several colours).
drawn() {
  local info; info=$(png_info "$1") || { bad "$1: not a valid PNG"; return; }
  set -- "$1" "$2" $info
  check "$1 size" "$3" "$2x$2"
  [ "$4" -gt 0 ] && [ "$5" -gt 8 ] && ok || bad "$1: looks blank ($4 opaque pixels, $5 colours)"
}

# ---- every sample model, through every container that holds one -------------------------------
n=0
for in in demo/parkan/robot.msh demo/parkan/objects.rlb demo/parkan/objects.rlb:ROBOT.msh \
          demo/gamecube/creature.fsys demo/gamecube/creature.pkx demo/gamecube/dat/creature.dat \
          demo/gamecube/creature.fsys:creature.pkx:model.dat; do
  n=$((n+1))
  for view in front back left right top iso; do
    expect_rc 0 "$UE" preview "$in" -o "m$n.$view.png" --view "$view" --size 64
    drawn "m$n.$view.png" 64
  done
  expect_rc 0 "$UE" preview "$in" -o "m$n.png"
  drawn "m$n.png" 256
  # deterministic: a second run gives the same bytes
  expect_rc 0 "$UE" preview "$in" -o "m$n.again.png"
  cmp -s "m$n.png" "m$n.again.png" && ok || bad "$in: two runs differ"
done
# the same model by any path, and from the glb convert writes of it: the same picture
cmp -s m1.png m2.png && cmp -s m1.png m3.png && ok || bad "robot.msh and objects.rlb:ROBOT.msh differ"
cmp -s m4.png m6.png && ok || bad "creature.fsys and creature.dat differ"
"$UE" convert demo/parkan/robot.msh -o robot.glb 2>/dev/null || bad "convert robot.glb"
expect_rc 0 "$UE" preview robot.glb -o robot_glb.png
cmp -s m1.png robot_glb.png && ok || bad "robot.glb draws otherwise than robot.msh"
"$UE" convert demo/gamecube/dat/creature.dat -o creature.gltf 2>/dev/null || bad "convert creature.gltf"
expect_rc 0 "$UE" preview creature.gltf -o creature_gltf.png
cmp -s m6.png creature_gltf.png && ok || bad "creature.gltf draws otherwise than creature.dat"

# ---- options -------------------------------------------------------------------------------------
expect_rc 0 "$UE" preview demo/parkan/robot.msh -o opaque.png --background '#102030' --size 32
read -r size opaque colours corner < <(png_info opaque.png)
check "--background '#102030': opaque pixels" "$opaque" 1024
check "--background '#102030': the corner" "$corner" "102030ff"
# a clip at a frame moves the model; frame 0 of a clip is its first key, not necessarily the rest
expect_rc 0 "$UE" preview demo/gamecube/dat/creature.dat -o wave20.png --clip Animation_1 --frame 20 --view front
drawn wave20.png 256
expect_rc 0 "$UE" preview demo/gamecube/dat/creature.dat -o rest.png --view front
cmp -s wave20.png rest.png && bad "--clip Animation_1 --frame 20 draws the rest pose" || ok
expect_rc 0 "$UE" preview demo/gamecube/dat/creature.dat -o wave20b.png --clip Animation_1 --frame 20.0 --view front
cmp -s wave20.png wave20b.png && ok || bad "--frame 20 and 20.0 differ"

# ---- contact sheets ------------------------------------------------------------------------------
robots_archive 5 robots.rlb
expect_rc 0 "$UE" preview robots.rlb -o sheet.png --size 64
info=$(png_info sheet.png)
# five thumbnails of 64 in a 3 x 2 grid: 4 + 3 x 68 = 208 wide, 4 + 2 x (64 + 12 + 4) = 164 high
check "sheet size" "${info%% *}" "208x164"
expect_rc 0 "$UE" preview robots.rlb -o sheet2.png --size 64
cmp -s sheet.png sheet2.png && ok || bad "two sheets differ"
expect_usage "unearth: preview: --clip walk: robots.rlb holds 5 models; give one (ARCHIVE:ENTRY) to pose it; see 'unearth preview --help'" \
  "$UE" preview -q robots.rlb -o sheet3.png --clip walk
expect_rc 0 "$UE" textures demo/gamecube/creature.fsys -o sheet_tex.png --sheet
info=$(png_info sheet_tex.png) || bad "textures --sheet: not a PNG"
# the grid rule of docs/preview.md: n cells of 128 in c = ceil(sqrt(n)) columns and ceil(n / c)
# rows: 4 + c x 132 wide, 4 + rows x (128 + 12 + 4) high; n, the PNGs `textures -o DIR` writes.
expect_rc 0 "$UE" textures demo/gamecube/creature.fsys -o tex_dir -q
cells=$(find tex_dir -name '*.png' | grep -c .)
want=$(python3 -c "import math,sys; n=int(sys.argv[1]); c=math.isqrt(n-1)+1; print(f'{4+c*132}x{4+-(-n//c)*144}')" "$cells")
check "textures --sheet size for $cells cells" "${info%% *}" "$want"
expect_rc 0 "$UE" textures demo/gamecube/creature.fsys -o sheet_tex2.png --sheet
cmp -s sheet_tex.png sheet_tex2.png && ok || bad "two texture sheets differ"

# ---- refusals: usage errors (exit 2) and no file left ---------------------------------------------
# a bad --background of textures --sheet is refused before the input is even opened
expect_usage "unearth: textures: --background takes transparent or #rrggbb (six hex digits), not 'red'; see 'unearth textures --help'" \
  "$UE" textures missing.fsys -o bad0.png --sheet --background red
expect_usage "unearth: preview: --view takes one of front|back|left|right|top|iso, not 'side'; see 'unearth preview --help'" \
  "$UE" preview demo/parkan/robot.msh -o bad1.png --view side
expect_usage "unearth: preview: --background takes transparent or #rrggbb (six hex digits), not 'red'; see 'unearth preview --help'" \
  "$UE" preview demo/parkan/robot.msh -o bad2.png --background red
expect_usage "" "$UE" preview demo/parkan/robot.msh -o bad3.png --background '#12345'
expect_usage "" "$UE" preview demo/parkan/robot.msh -o bad4.png --frame 3
expect_usage "" "$UE" preview demo/parkan/robot.msh -o bad5.png --size 0
expect_usage "" "$UE" preview demo/parkan/robot.msh -o bad6.jpg
expect_rc 2 "$UE" preview demo/gamecube/dat/creature.dat -o bad7.png --clip Walk
grep -q "no clip named 'Walk'; the clips: Animation_0, Animation_1" "$T/err" && ok || bad "unknown clip: $(cat "$T/err")"
expect_rc 2 "$UE" preview demo/gamecube/dat/creature.dat -o bad8.png --clip Animation_1 --frame 41
grep -q "frame 41 is outside the clip Animation_1: it has frames 0 to 40" "$T/err" && ok || bad "frame past the end: $(cat "$T/err")"
expect_rc 1 "$UE" preview demo/gamecube/dat/creature_data.dat -o bad9.png
grep -q "no model to draw" "$T/err" && ok || bad "no model: $(cat "$T/err")"
[ "$(grep -c . "$T/err")" = 1 ] && ok || bad "no model: more than one message: $(cat "$T/err")"
# A sheet past 16384 pixels a side is refused before any model is converted: 231 cells of 1024
# need 16 columns (4 + 16 x 1028 = 16452); the broken first entry is never read.
robots_archive 230 big.rlb
head -c 40 "$T/robots/entries/0006_ROBOT.msh" >"$T/robots/broken.msh"
python3 - "$T/robots/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
robot = next(e for e in m["entries"] if e["name"] == "R0000.msh")
m["entries"].insert(0, dict(robot, name="A_BROKEN.msh", file="broken.msh"))
json.dump(m, open(sys.argv[1], "w"))
PY
"$UE" pack "$T/robots" -o big.rlb -f --tolerant >/dev/null 2>&1 || bad "pack big.rlb"
expect_rc 1 "$UE" preview big.rlb -o bad11.png --size 1024
grep -q "231 cells of 1024 pixels make a sheet of 16452x15604; the limit is 16384 a side" "$T/err" && ok \
  || bad "oversized sheet: $(cat "$T/err")"
grep -q "A_BROKEN" "$T/err" && bad "an oversized sheet converted its models first: $(cat "$T/err")" || ok
expect_rc 3 "$UE" preview missing.msh -o bad10.png
ls bad*.png bad*.jpg >/dev/null 2>&1 && bad "a refused preview left a file: $(ls bad*)" || ok
# an existing output needs -f; an input is never an output
expect_rc 2 "$UE" preview demo/parkan/robot.msh -o m1.png
grep -q "m1.png exists (use -f to overwrite)" "$T/err" && ok || bad "existing output: $(cat "$T/err")"
expect_rc 0 "$UE" preview demo/parkan/robot.msh -o m1.png -f --size 32
drawn m1.png 32
cp demo/parkan/robot.msh robot_copy.png
expect_rc 2 "$UE" preview robot_copy.png -o robot_copy.png -f
cmp -s robot_copy.png demo/parkan/robot.msh && ok || bad "preview overwrote its input"
no_temporaries "preview"
finish
