#!/usr/bin/env bash
# End-to-end tests of Parkan Texm in the CLI: a modder's texture swap (extract a texture library,
# PNG → Texm with `texm --like`, pack, validate --strict, `textures` shows the new pixels),
# bare Texm files, the PNG reader's refusals, damage inside an archive, convert refusing textures.
set -u
UE="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_texm
. "$HERE/cli_lib.sh"
cd "$T" || exit 3
PNG="python3 $HERE/texm_png.py"
# row FILE Y: the texels of row Y as r,g,b,a separated by spaces (PNG decoded by the test's own reader)
row() { python3 "$HERE/hsd_tex_dat.py" png "$1" | sed -n "$(( $2 + 2 ))p"; }
SCHEMA="$HERE/../../docs/schema"
schema_ok() { # schema_ok SCHEMA_NAME FILE: the file matches docs/schema/SCHEMA_NAME.schema.json
  if node "$HERE/../json_schema_check.mjs" "$SCHEMA/$1.schema.json" "$2" >"$T/val" 2>&1; then ok
  else bad "schema $1: $2"; cat "$T/val" >&2; fi
}

"$UE" demo -o demo >/dev/null
LIB=demo/parkan/textures_demo.lib

# ---- the sample library: every texture as PNG, every mip level with --mips -----------------
expect_rc 0 "$UE" textures "$LIB" -o all --mips
[ "$(ls all | wc -l)" = 13 ] && ok || bad "want 13 PNGs (5 textures, 13 levels): $(ls all)"
grep -q "all/PLATES.8888.mip4.png	1x1" "$T/out" && ok || bad "listing: $(cat "$T/out")"
expect_rc 0 "$UE" validate --strict "$LIB"
expect_rc 0 "$UE" validate --json "$LIB"
cp "$T/out" v.json; schema_ok validate v.json
grep -q '"pixel_format": "indexed"' v.json && ok || bad "validate --json lacks the texture: $(cat v.json)"
expect_rc 0 "$UE" info --json "$LIB:PANEL.0"
cp "$T/out" i.json; schema_ok info i.json
grep -q '"format_code": 0' i.json && ok || bad "info --json: $(cat i.json)"
expect_rc 0 "$UE" roundtrip "$LIB"
grep -c identical "$T/out" | grep -qx 6 && ok || bad "roundtrip: $(cat "$T/out")"
# a texture is no model: convert refuses a library of textures only
expect_rc 1 "$UE" convert "$LIB" -o none.glb
grep -q 'textures only' "$T/err" && ok || bad "convert does not say why: $(cat "$T/err")"
[ ! -e none.glb ] && ok || bad "convert wrote something"

# ---- the swap: PLATES.0 (8888, 5 levels, Page) from a 16 × 16 RGBA PNG ------------------
expect_rc 0 "$UE" extract "$LIB" -o x
$PNG rgba16 body.png
expect_rc 0 "$UE" texm body.png -o x/entries/0000_PLATES.0 -f --like "$LIB:PLATES.0"
printf 'x/entries/0000_PLATES.0\t16x16\t8888\t5 mip levels\tPage\n' | cmp -s - "$T/out" && ok || bad "texm said: $(cat "$T/out")"
expect_rc 0 "$UE" pack x -o new.lib
expect_rc 0 "$UE" validate --strict new.lib
expect_rc 0 "$UE" textures new.lib -o shown --mips
# 8888 is lossless: row 3 is (16x, 48, 77, 255 − x)
want=$(for x in $(seq 0 15); do printf '%d,48,77,%d ' $((16 * x)) $((255 - x)); done)
[ "$(row shown/PLATES.8888.png 3)" = "${want% }" ] && ok || bad "row 3: $(row shown/PLATES.8888.png 3)"
# mip 4 (1 × 1) by hand, each level the rounded-down (sum + 2) / 4 of its 2 × 2 boxes:
# R 16x → 32k+8 → 64j+24 → 128i+56 → (56+184+56+184+2)/4 = 120 (G the same over y); B 77;
# A 255−x → 255−2k → 254−4j → 252−8i → (252+244+252+244+2)/4 = 248
[ "$(row shown/PLATES.8888.mip4.png 0)" = "120,120,77,248" ] && ok || bad "mip 4: $(row shown/PLATES.8888.mip4.png 0)"
# the other entries are untouched
cmp -s all/STRIPES.565.png shown/STRIPES.565.png && ok || bad "STRIPES changed"
expect_rc 0 "$UE" info new.lib:PLATES.0
grep -q 'page rect 1: x 0 w 8 y 8 h 8' "$T/out" && ok || bad "Page rects lost: $(cat "$T/out")"

# ---- other PNG kinds and formats, on bare Texm files ------------------------------------------
$PNG grey8 grey.png
expect_rc 0 "$UE" texm grey.png -o grey.texm --pixel-format 565 --mip-levels 1
expect_rc 0 "$UE" textures grey.texm -o g
# grey 128 → R5 16, G6 32 → (16·255+15)/31 = 132, (32·255+31)/63 = 130
[ "$(row g/grey.565.png 0 | cut -d' ' -f1)" = "132,130,132,255" ] && ok || bad "565 grey: $(row g/grey.565.png 0)"
$PNG pal8 pal.png
expect_rc 0 "$UE" texm pal.png -o pal.texm --pixel-format 0
expect_rc 0 "$UE" textures pal.texm -o p
[ "$(row p/pal.indexed.png 5)" = "10,20,30,255 10,20,30,255 10,20,30,255 10,20,30,255 250,5,9,255 250,5,9,255 250,5,9,255 250,5,9,255" ] && ok || bad "indexed: $(row p/pal.indexed.png 5)"
expect_rc 0 "$UE" roundtrip pal.texm
# refusals: interlaced, 16-bit, a size the --like rects do not fit, a bad pixel format
$PNG interlaced il.png
expect_rc 1 "$UE" texm il.png -o il.texm
grep -q 'interlaced' "$T/err" && ok || bad "interlace refusal: $(cat "$T/err")"
$PNG deep deep.png
expect_rc 1 "$UE" texm deep.png -o deep.texm
grep -q '8-bit' "$T/err" && ok || bad "depth refusal: $(cat "$T/err")"
expect_rc 1 "$UE" texm grey.png -o g.texm --like "$LIB:PLATES.0"
expect_rc 2 "$UE" texm grey.png -o g.texm --pixel-format 1555
[ ! -e il.texm ] && [ ! -e deep.texm ] && [ ! -e g.texm ] && ok || bad "a refused run wrote a file"
expect_rc 1 "$UE" convert grey.texm -o grey.glb

# ---- damage inside an archive: a Texm entry cut inside its palette ----------------------------
expect_rc 0 "$UE" extract "$LIB" -o y
head -c 600 y/entries/0003_PANEL.0 > cut && mv cut y/entries/0003_PANEL.0
expect_rc 0 "$UE" pack y -o bad.lib
expect_rc 1 "$UE" validate --strict bad.lib
expect_rc 1 "$UE" validate --strict --json bad.lib
cp "$T/out" bad.json; schema_ok validate bad.json
expect_rc 1 "$UE" validate --strict bad.lib
grep -q 'texm.palette.truncated' "$T/err" "$T/out" && ok || bad "no palette diagnostic: $(cat "$T/out" "$T/err")"
grep -q 'texm/palette' "$T/err" "$T/out" && ok || bad "no struct path: $(cat "$T/out" "$T/err")"
expect_rc 1 "$UE" textures bad.lib -o none
[ ! -e none ] && ok || bad "strict textures wrote a directory"
expect_rc 1 "$UE" textures --tolerant bad.lib -o some
[ "$(ls some | wc -l)" = 4 ] && ok || bad "tolerant: want the 4 intact textures: $(ls some)"

finish
