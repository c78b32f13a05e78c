#!/usr/bin/env bash
# import without --base to a .dat (docs/hsd-import.md#new-models): a new HSD model from the Parkan
# robot's glb and from hand-made glTF scenes (a textured quad with alpha, a cube with vertex colours
# under a rotated, non-uniformly scaled parent) validates strictly and converts back to the same
# triangles in world space within the stated quantisation error, with its materials' factors and
# alpha modes and its image resized to powers of two; skinned input and options a new model does
# not take are refused, nothing written.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_new
. "$HERE/cli_lib.sh"
glb() { python3 "$HERE/hsd_new_glb.py" "$@"; }
REL=0.000123 # 2^-13 of the extent: positions are stored within 2^-14 of each PObj's largest coordinate

expect_rc 0 "$UE" demo -o "$T/demo"
expect_rc 0 "$UE" convert "$T/demo/parkan/robot.msh" -o "$T/r.glb"

# The robot: 7 nodes, 6 rigid meshes (no root added: one root, not rotated), 72 triangles.
expect_rc 0 "$UE" import "$T/r.glb" -o "$T/r.dat"
grep -q "^new model: 7 joints, 6 DObjs, 6 PObjs, 72 triangles, 4 materials, 4 images (0 resized)$" "$T/err" && ok ||
  bad "robot summary: $(cat "$T/err")"
grep -q "import.hsd.new.clips" "$T/err" && ok || bad "the robot's clips left out without a word"
expect_rc 0 "$UE" validate --strict "$T/r.dat"
expect_rc 0 "$UE" convert "$T/r.dat" -o "$T/rb.glb"
expect_rc 0 glb same "$T/r.glb" "$T/rb.glb" "$REL"
check "robot triangles back" "$(cat "$T/out")" 72

# The hand-made scene: two roots, so an identity root joint is added (4 joints).
expect_rc 0 glb static "$T/s.gltf"
expect_rc 0 "$UE" import "$T/s.gltf" -o "$T/s.dat"
grep -q "^new model: 4 joints, 2 DObjs, 2 PObjs, 14 triangles, 2 materials, 1 image (1 resized)$" "$T/err" && ok ||
  bad "static summary: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/s.dat"
expect_rc 0 "$UE" convert "$T/s.dat" -o "$T/sb.glb"
expect_rc 0 glb same "$T/s.gltf" "$T/sb.glb" "$REL"
check "static triangles back" "$(cat "$T/out")" 14
# Materials: the diffuse colour is stored as sRGB bytes, so 0.5 comes back as its byte's linear value.
half=$(printf '%.4f' "$(python3 "$HERE/hsd_import_glb.py" srgb-step 0.5)")
quarter=$(printf '%.4f' "$(python3 "$HERE/hsd_import_glb.py" srgb-step 0.25)")
check "materials back" "$(glb materials "$T/sb.glb" | tr '\n' ';')" \
  "$half,$quarter,1.0000,1.0000 OPAQUE;1.0000,1.0000,1.0000,0.7500 BLEND;"
check "12 x 6 image made 8 x 4" "$(glb image-size "$T/sb.glb" 0)" 8x4
# MASK with cutoff 0.5: an alpha test alpha >= ceil(255 * 0.5) = 128, read back as cutoff 128/255.
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['materials'][0].update(alphaMode='MASK', alphaCutoff=0.5); json.dump(d, open(sys.argv[2], 'w'))" \
  "$T/s.gltf" "$T/m.gltf"
expect_rc 0 "$UE" import "$T/m.gltf" -o "$T/m.dat"
expect_rc 0 "$UE" convert "$T/m.dat" -o "$T/mb.glb"
cutoff=$(python3 -c "
import json, struct, sys
b = open(sys.argv[1], 'rb').read(); n = struct.unpack('<I', b[12:16])[0]
print(*['%s %.6f' % (m['alphaMode'], m['alphaCutoff']) for m in json.loads(b[20:20 + n])['materials'] if 'alphaCutoff' in m])" "$T/mb.glb")
check "MASK cutoff back" "$cutoff" "MASK $(python3 -c 'print("%.6f" % (128 / 255))')"
# Another texture format: RGBA8 takes 4 bytes a texel (8 x 4 x 4 = 128) where RGB5A3 took 64.
expect_rc 0 "$UE" import "$T/s.gltf" -o "$T/s8.dat" --texture-format rgba8
check "RGBA8 adds 64 bytes" "$(( $(stat -c %s "$T/s8.dat") - $(stat -c %s "$T/s.dat") ))" 64
expect_rc 0 "$UE" validate --strict "$T/s8.dat"

# Refused: a skinned glTF (not written yet), nothing written.
expect_rc 0 glb skinned "$T/k.gltf"
expect_rc 1 "$UE" import "$T/k.gltf" -o "$T/k.dat"
grep -q "import.hsd.new.skin" "$T/err" && ok || bad "skin refusal: $(cat "$T/err")"
[ ! -e "$T/k.dat" ] && ok || bad "a refused import wrote k.dat"
# The runtime's PObj limit: 240 one-triangle primitives are written, 241 refused by name.
expect_rc 0 glb many "$T/p240.gltf" 240
expect_rc 0 "$UE" import "$T/p240.gltf" -o "$T/p240.dat"
expect_rc 0 "$UE" validate --strict "$T/p240.dat"
expect_rc 0 glb many "$T/p241.gltf" 241
expect_rc 1 "$UE" import "$T/p241.gltf" -o "$T/p241.dat"
grep -q "more than 240 PObjs.*import.hsd.new.limit" "$T/err" && ok || bad "PObj limit: $(cat "$T/err")"
[ ! -e "$T/p241.dat" ] && ok || bad "a refused import wrote p241.dat"
# An existing output without -f, options a new model does not take.
expect_rc 2 "$UE" import "$T/s.gltf" -o "$T/s.dat"
expect_usage "" "$UE" import "$T/s.gltf" -o "$T/n.dat" --into "$T/demo/gamecube/creature.pkx"
expect_usage "" "$UE" import "$T/r.glb" -o "$T/n.msh" --texture-format cmpr
expect_usage "" "$UE" import "$T/r.glb" -o "$T/n.dat" --base "$T/r.dat" --texture-format cmpr
expect_usage "" "$UE" import "$T/s.gltf" -o "$T/n.dat" --texture-format bc7
[ ! -e "$T/n.dat" ] && ok || bad "a usage error wrote n.dat"
finish
