#!/usr/bin/env bash
# The PNG files beside .obj and .gltf outputs (docs/text.md#texture-files): the .mtl and the .gltf
# name exactly the files written, each decodes (an independent zlib/PNG decoder here) to the pixels
# of the image the .glb of the same model embeds, the .gltf validates, an existing or input file
# is never replaced, a refused run leaves nothing, and a batch lists, keeps and restores them.
set -u
UE="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_texture_files
. "$HERE/cli_lib.sh"
cd "$T" || exit 3
same() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}

# pixels.py: PNG decoding written from the PNG spec (8-bit RGB/RGBA, the five row filters), and
# the glTF side: each image of a .glb (its bufferView) or a .gltf (its uri) decoded the same way.
cat >pixels.py <<'PY'
import json, os, struct, sys, urllib.parse, zlib

def png_pixels(b):
    assert b[:8] == b'\x89PNG\r\n\x1a\n', 'no PNG signature'
    at, idat, w = 8, b'', None
    while at < len(b):
        n, kind = struct.unpack_from('>I4s', b, at)
        body = b[at + 8:at + 8 + n]
        assert zlib.crc32(kind + body) == struct.unpack_from('>I', b, at + 8 + n)[0], 'chunk CRC'
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack_from('>IIBB', body)
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        at += 12 + n
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            c = prev[i - bpp] if i >= bpp else 0
            p = a + prev[i] - c
            pa, pb, pc = abs(p - a), abs(p - prev[i]), abs(p - c)
            pred = [0, a, prev[i], (a + prev[i]) // 2, a if pa <= pb and pa <= pc else prev[i] if pb <= pc else c][f]
            line[i] = (line[i] + pred) & 255
        rows.append(bytes(line) if bpp == 4 else b''.join(bytes(line[i:i + 3]) + b'\xff' for i in range(0, stride, 3)))
        prev = line
    return w, h, b''.join(rows)

def images(path):
    """name -> (file or None, pixels) of every image of a .glb or .gltf."""
    folder = os.path.dirname(path)
    data = open(path, 'rb').read()
    if data[:4] == b'glTF':
        n = struct.unpack_from('<I', data, 12)[0]
        doc, blob = json.loads(data[20:20 + n]), data[28 + n:]
    else:
        doc = json.loads(data)
        blob = open(os.path.join(folder, urllib.parse.unquote(doc['buffers'][0]['uri'])), 'rb').read()
    out = {}
    for img in doc['images']:
        if 'uri' in img:
            f = urllib.parse.unquote(img['uri'])
            out[img['name']] = (f, png_pixels(open(os.path.join(folder, f), 'rb').read()))
        else:
            v = doc['bufferViews'][img['bufferView']]
            at = v.get('byteOffset', 0)
            out[img['name']] = (None, png_pixels(blob[at:at + v['byteLength']]))
    return out

cmd = sys.argv[1]
if cmd == 'same-as-glb':   # GLTF GLB: every image of the .gltf is a file with the .glb's pixels
    a, b = images(sys.argv[2]), images(sys.argv[3])
    assert sorted(a) == sorted(b), (sorted(a), sorted(b))
    for name in a:
        assert a[name][0] is not None, name + ' is still in the buffer'
        assert a[name][1] == b[name][1], name + ': pixels differ from the .glb'
    print(' '.join(sorted(f for f, _ in a.values())))
elif cmd == 'mtl-same-as-glb':  # MTL GLB: each map_Kd file has the pixels of the .glb image of that material
    folder = os.path.dirname(sys.argv[2])
    glb = images(sys.argv[3])
    n = struct.unpack_from('<I', open(sys.argv[3], 'rb').read(), 12)[0]
    doc = json.loads(open(sys.argv[3], 'rb').read()[20:20 + n])
    by_material = {m['name']: doc['images'][doc['textures'][m['pbrMetallicRoughness']['baseColorTexture']['index']]['source']]['name']
                   for m in doc['materials'] if 'baseColorTexture' in m['pbrMetallicRoughness']}
    material, named = None, []
    for line in open(sys.argv[2]):
        if line.startswith('newmtl '): material = line.split(' ', 1)[1].strip().split('_', 1)[1]
        if line.startswith('map_Kd '):
            f = line.split(' ', 1)[1].strip()
            assert png_pixels(open(os.path.join(folder, f), 'rb').read()) == glb[by_material[material]][1], f
            named.append(f)
    print(' '.join(sorted(set(named))))
elif cmd == 'size':
    w, h, _ = png_pixels(open(sys.argv[2], 'rb').read()); print(w, h)
PY
px() { python3 pixels.py "$@"; }
pngs() { (cd "$1" && ls | grep '\.png$' | sort | tr '\n' ' ' | sed 's/ $//'); }

expect_rc 0 "$UE" demo -o demo
R=demo/parkan/robot.msh
expect_rc 0 "$UE" convert "$R" -o robot.glb

# ---- OBJ: the .mtl names exactly the PNG files written, with the .glb's pixels ---------------
expect_rc 0 "$UE" convert "$R" -o obj/robot.obj
same "$(grep '^map_Kd' obj/robot.mtl | sort -u | tr '\n' ' ')" \
  "map_Kd robot.ROBOT_ARM_0.png map_Kd robot.ROBOT_BODY_0.png map_Kd robot.ROBOT_HEAD_phases.png map_Kd robot.ROBOT_LEG_0.png " \
  "map_Kd lines"
same "$(px mtl-same-as-glb obj/robot.mtl robot.glb 2>&1)" "$(pngs obj)" "the .mtl names exactly the PNGs written"
same "$(px size obj/robot.ROBOT_HEAD_phases.png)" "64 32" "the head's phase atlas"
# "my robot.obj": the MTL is my_robot.mtl, and its PNGs are named after it (no space in map_Kd)
expect_rc 0 "$UE" convert "$R" -o "sp/my robot.obj"
same "$(pngs sp)" "my_robot.ROBOT_ARM_0.png my_robot.ROBOT_BODY_0.png my_robot.ROBOT_HEAD_phases.png my_robot.ROBOT_LEG_0.png" \
  "PNGs named after my_robot.mtl"
px mtl-same-as-glb sp/my_robot.mtl robot.glb >/dev/null && ok || bad "my_robot.mtl names a missing file"

# ---- .gltf: images as PNG files by uri, the same pixels as the .glb, validator-clean ---------
expect_rc 0 "$UE" convert "$R" -o gl/robot.gltf
same "$(px same-as-glb gl/robot.gltf robot.glb 2>&1)" "$(pngs gl)" "the .gltf's uris are exactly the PNGs written"
same "$(ls gl | grep -vc '\.png$')" 2 "robot.gltf and robot.bin beside the PNGs"
validate_gltf gl/robot.gltf
cmp -s gl/robot.ROBOT_BODY_0.png obj/robot.ROBOT_BODY_0.png && ok || bad "one image, two files of different bytes"
# the GameCube creature too (four images through an FSYS → LZSS → PKX chain)
expect_rc 0 "$UE" convert demo/gamecube/creature.fsys -o cr/creature.gltf
expect_rc 0 "$UE" convert demo/gamecube/creature.fsys -o creature.glb
same "$(px same-as-glb cr/creature.gltf creature.glb 2>&1)" "$(pngs cr)" "creature: uris and pixels"
same "$(pngs cr | wc -w)" 4 "creature: four PNG files"
validate_gltf cr/creature.gltf
# a .gltf edited with an image editor imports back: the PNGs are read where the uris say
expect_rc 0 "$UE" import gl/robot.gltf -o back.msh --base "$R"
cmp -s back.msh "$R" && ok || bad "import --base of the .gltf with its PNG files is not byte-identical"

# ---- existing files: refused without -f (nothing written), replaced with it --------------------
ino() { stat -c %i "$1"; }
before="$(ino gl/robot.ROBOT_LEG_0.png) $(ino gl/robot.gltf)"
expect_rc 2 "$UE" convert "$R" -o gl/robot.gltf
grep -q 'gl/robot.ROBOT_BODY_0.png: output exists (use -f to overwrite) \[io.exists\]' "$T/err" && ok \
  || bad "the refusal names the PNG: $(cat "$T/err")"
same "$(ino gl/robot.ROBOT_LEG_0.png) $(ino gl/robot.gltf)" "$before" "a refused run touched the outputs"
expect_rc 0 "$UE" convert "$R" -o gl/robot.gltf -f
px same-as-glb gl/robot.gltf robot.glb >/dev/null && ok || bad "-f output"
# a user's file where one PNG goes: the whole output is refused, nothing of it appears
mkdir u && echo mine >u/robot.ROBOT_LEG_0.png
expect_rc 2 "$UE" convert "$R" -o u/robot.gltf
same "$(ls u)" "robot.ROBOT_LEG_0.png" "a refused .gltf left files"
same "$(cat u/robot.ROBOT_LEG_0.png)" "mine" "the user's file"
expect_rc 2 "$UE" convert "$R" -o u/robot.obj
same "$(ls u)" "robot.ROBOT_LEG_0.png" "a refused .obj left files"
# -f replaces files only when the whole output is written: a directory where the .gltf goes
# refuses the run, and the user's PNG it would have replaced is still the user's
mkdir f && echo mine >f/robot.ROBOT_LEG_0.png && mkdir f/robot.gltf
expect_rc 2 "$UE" convert "$R" -o f/robot.gltf -f
same "$(cat f/robot.ROBOT_LEG_0.png)" "mine" "the user's file after a refused -f run"
same "$(ls f | tr '\n' ' ')" "robot.ROBOT_LEG_0.png robot.gltf " "a refused -f run left files"
# a PNG that would be the input is refused, -f or not (the model is read as r.ROBOT_BODY_0.png)
mkdir in && cp "$R" in/r.ROBOT_BODY_0.png && cp demo/parkan/robot.wea in/r.ROBOT_BODY_0.wea
cp demo/parkan/Material.lib demo/parkan/Textures.lib in/
expect_rc 2 "$UE" convert in/r.ROBOT_BODY_0.png -o in/r.gltf -f
grep -q 'output is the input' "$T/err" && ok || bad "input as a PNG output: $(cat "$T/err")"
cmp -s in/r.ROBOT_BODY_0.png "$R" && ok || bad "the input was overwritten"
[ ! -e in/r.gltf ] && [ ! -e in/r.bin ] && [ ! -e in/r.ROBOT_ARM_0.png ] && ok || bad "a refused run left files: $(ls in)"

# ---- several models into one folder: each output's PNGs are its own -----------------------------
expect_rc 0 "$UE" convert "$R" demo/parkan/objects.rlb:ROBOT.msh -o many --format gltf
same "$(ls many | grep -c '\.gltf$')" 2 "two models"
for g in many/*.gltf; do px same-as-glb "$g" robot.glb >/dev/null && ok || bad "$g: its PNGs"; done
same "$(pngs many | wc -w)" 8 "four PNGs each"

# ---- a batch: the marker lists them, the report too, resume keeps them, a lost one comes back ---
expect_rc 0 "$UE" convert -r demo -o b --format gltf
P=b/parkan
same "$(pngs $P)" "robot.ROBOT_ARM_0.png robot.ROBOT_BODY_0.png robot.ROBOT_HEAD_phases.png robot.ROBOT_LEG_0.png" "batch PNGs"
px same-as-glb $P/robot.gltf robot.glb >/dev/null && ok || bad "batch .gltf and its PNGs"
validate_gltf $P/robot.gltf
same "$(grep -c "^image	parkan/robot.gltf	parkan/robot\.ROBOT_.*\.png$" b/unearth-batch.marker)" 4 "marker image lines"
same "$(grep -c "^placed	parkan/robot\.ROBOT_" b/unearth-batch.marker)" 4 "marker placed lines of the PNGs"
report() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
same "$(report b/unearth-batch.json '[r.get("images") for r in d["records"] if r["kind"] == "model" and r["input"].endswith("parkan/robot.msh")][0]')" \
  "['parkan/robot.ROBOT_BODY_0.png', 'parkan/robot.ROBOT_HEAD_phases.png', 'parkan/robot.ROBOT_ARM_0.png', 'parkan/robot.ROBOT_LEG_0.png']" \
  "the report's images"
same "$(report b/unearth-batch.json 'sum(f.endswith(".png") for f in d["files"])')" \
  "$(find b -name '*.png' | wc -l)" "the report's files list every PNG"
node "$HERE/../json_schema_check.mjs" "$HERE/../../docs/schema/batch.schema.json" b/unearth-batch.json >"$T/val" 2>&1 \
  && ok || bad "report schema: $(cat "$T/val")"
before="$(ino $P/robot.ROBOT_ARM_0.png)"
expect_rc 0 "$UE" convert -r demo -o b --format gltf
grep -q '0 converted, 5 kept' "$T/err" && ok || bad "resume: $(cat "$T/err")"
same "$(ino $P/robot.ROBOT_ARM_0.png)" "$before" "resume rewrote a kept PNG"
rm $P/robot.ROBOT_ARM_0.png
expect_rc 0 "$UE" convert -r demo -o b --format gltf
grep -q '1 converted, 4 kept' "$T/err" && ok || bad "a lost PNG: $(cat "$T/err")"
px same-as-glb $P/robot.gltf robot.glb >/dev/null && ok || bad "the lost PNG is back"
# an edited PNG is the user's now: left as it is, the model not converted (exit 1); removing it
# lets the next run convert the model again
echo edited >$P/robot.ROBOT_LEG_0.png
expect_rc 1 "$UE" convert -r demo -o b --format gltf
same "$(cat $P/robot.ROBOT_LEG_0.png)" "edited" "an edited PNG was replaced"
grep -q "left" "$T/err" && ok || bad "the edited PNG is not said: $(cat "$T/err")"
rm $P/robot.ROBOT_LEG_0.png
expect_rc 0 "$UE" convert -r demo -o b --format gltf
px same-as-glb $P/robot.gltf robot.glb >/dev/null && ok || bad "converted again after the edited PNG went"
# -j 2 writes the same files, byte for byte
expect_rc 0 "$UE" convert -r demo -o b2 --format obj -j 2
expect_rc 0 "$UE" convert -r demo -o b1 --format obj -j 1
diff -r -x 'unearth-batch.*' b1 b2 >/dev/null && ok || bad "-j 2 differs from -j 1"
same "$(px mtl-same-as-glb b1/parkan/robot.mtl robot.glb 2>&1)" "$(pngs b1/parkan)" "batch .mtl names exactly its PNGs"
no_temporaries "$T"
finish
