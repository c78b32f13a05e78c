#!/usr/bin/env bash
# import without --base to a .dat (docs/hsd-import.md#new-models): a new HSD model from the Parkan
# robot's glb and from hand-made glTF scenes (a textured quad with alpha, a cube with vertex colours
# under a rotated, non-uniformly scaled parent) validates strictly and converts back to the same
# triangles in world space within the stated quantisation error, with its materials' factors and
# alpha modes and its image resized to powers of two; skinned glTF (12 joints, a split into PObjs
# of at most 10 matrices, a vertex of 6 influences cut to 4) and the sample creature's glb do the
# same; each limit is refused by name and options a new model does not take, nothing written.
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

# A flat skin of 30,000 joints under one root (10 of them weighted): every one a SKELETON joint with
# its inverse bind (the checks and matrices linear in joints); listed twice, the reader refuses it.
python3 "$HERE/hsd_new_glb.py" flat-skin "$T/flat.gltf" 30000
expect_rc 0 "$UE" import "$T/flat.gltf" -o "$T/flat.dat"
grep -q "^new model: 30003 joints, 1 DObj, 1 PObj, 10 triangles, 10 envelopes," "$T/err" && ok || bad "flat skin: $(cat "$T/err")"
check "flat skin: 30000 inverse binds" "$(glb dat-pobjs "$T/flat.dat" | tail -1)" "skeleton joints with inverse binds 30000"
python3 "$HERE/hsd_new_glb.py" flat-skin "$T/twice.gltf" 30000 twice
expect_rc 1 "$UE" import "$T/twice.gltf" -o "$T/twice.dat"
check "a joint listed twice, told once" "$(grep -c "joints\[30000\]: joint node 30000 listed twice \[scene.skin.joint\]" "$T/err")" 1
[ ! -e "$T/twice.dat" ] && ok || bad "twice.dat written"

# Skinned: 12 joints bent at rest under a non-uniform scale, one mesh, a vertex of 6 influences.
# 13 nodes; the one root is a skin joint, so an owner root is added (14 joints).
expect_rc 0 glb skinned12 "$T/k.gltf"
expect_rc 0 "$UE" import "$T/k.gltf" -o "$T/k.dat"
grep -q "^new model: 14 joints, 1 DObj, 2 PObjs, 25 triangles, 14 envelopes, 1 material, 0 images (0 resized)$" "$T/err" &&
  ok || bad "skinned summary: $(cat "$T/err")"
grep -q "1 vertices had more than 4 joint influences.*import.hsd.new.influences" "$T/err" && ok ||
  bad "the cut influences not told: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/k.dat"
# PObjs and their matrices as the split rule gives them, worked out from the glTF; flags as read here.
expect_rc 0 glb split "$T/k.gltf"
split=$(cat "$T/out")
check "split into 2 PObjs" "$split" "PObjs 2: 10 6"
check "PObjs in the DAT" "$(glb dat-pobjs "$T/k.dat" | tr '\n' ';')" \
  "$split;root flags SKELETON_ROOT 1 ENVELOPE_MODEL 1 SKELETON 0;skeleton joints with inverse binds 12;"
expect_rc 0 "$UE" convert "$T/k.dat" -o "$T/kb.glb"
expect_rc 0 glb same "$T/k.gltf" "$T/kb.glb" "$REL"
check "skinned triangles back" "$(cat "$T/out")" 25
# The same from the DAT's bytes alone, not through unearth's reader: joint worlds by HSD's rule from
# the stored SRTs, the stored inverse binds, envelopes and positions, Σ w·W·IB·v (W alone for one
# joint) against the glTF's skinned rest, so a misreading writer and reader share would show.
expect_rc 0 glb dat-same "$T/k.dat" "$T/k.gltf" "$REL"
check "skinned triangles placed by the DAT's own bytes" "$(cat "$T/out")" 25
# The 6 influences 0.3 0.25 0.2 0.15 0.06 0.04: the 4 largest over their sum 0.9, in 1/64:
# 21.33 17.78 14.22 10.67 floored to 21 17 14 10, the 2 units left to the largest remainders.
check "4 weights renormalised and rounded" "$(glb weights "$T/kb.glb" 0 -1 0)" \
  "$(python3 -c 'print(" ".join("bone%d:%.4f" % (j, u / 64) for j, u in enumerate((21, 18, 14, 11))))')"

# The sample creature (envelope and rigid meshes, joints under a non-uniform scale) in place.
expect_rc 0 "$UE" convert "$T/demo/gamecube/dat/creature.dat" -o "$T/c.glb"
expect_rc 0 "$UE" import "$T/c.glb" -o "$T/c.dat"
grep -q "^new model: 12 joints, 6 DObjs, 6 PObjs, 52 triangles, 9 envelopes," "$T/err" && ok || bad "creature summary: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/c.dat"
expect_rc 0 "$UE" convert "$T/c.dat" -o "$T/cb.glb"
expect_rc 0 glb same "$T/c.glb" "$T/cb.glb" "$REL"
check "creature triangles back" "$(cat "$T/out")" 52

# Skinned limits by name, nothing written. Weights as given (--weight-step 0): 3 triangles of new
# envelopes fill a PObj (9 of 10 matrices), so 720 such triangles make the runtime's 240 PObjs; 723
# are rounded to 1/1024 with a warning (then 2 weights a triangle at most: few PObjs); rounded to
# the default 1/64 they share 17 envelopes from the start.
expect_rc 0 glb skinned-many "$T/e720.gltf" 720
expect_rc 0 "$UE" import "$T/e720.gltf" -o "$T/e720.dat" --weight-step 0
check "720 triangles in 240 PObjs" "$(glb dat-pobjs "$T/e720.dat" | head -1 | cut -d: -f1)" "PObjs 240"
expect_rc 0 "$UE" validate --strict "$T/e720.dat"
expect_rc 0 glb skinned-many "$T/e723.gltf" 723
expect_rc 0 "$UE" import "$T/e723.gltf" -o "$T/e723.dat" --weight-step 0
grep -q "weights as given need more than the 240 PObjs left (10 matrices each): rounded to 1/1024 instead, .*import.hsd.new.weights" "$T/err" &&
  ok || bad "723 triangles not rounded to 1/1024: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/e723.dat"
expect_rc 0 glb split "$T/e723.gltf" 64
pobjs=$(cut -d: -f1 "$T/out" | cut -d' ' -f2)
expect_rc 0 "$UE" import "$T/e723.gltf" -o "$T/e723b.dat"
grep -q ", $pobjs PObjs, 723 triangles, $(glb rounded "$T/e723.gltf" 64) envelopes," "$T/err" && ok || bad "723 in 1/64: $(cat "$T/err")"
# One joint a vertex, each its own: 723 triangles need 241 PObjs whatever the step: refused.
expect_rc 0 glb skinned-own "$T/o723.gltf" 723
expect_rc 1 "$UE" import "$T/o723.gltf" -o "$T/o723.dat"
grep -q "more than 240 PObjs even with one joint a vertex.*import.hsd.new.limit" "$T/err" && ok || bad "skinned PObj limit: $(cat "$T/err")"
[ ! -e "$T/o723.dat" ] && ok || bad "a refused import wrote o723.dat"

# A smoothly painted tube (10,000 triangles, 40 joints curled at rest, every vertex its own blend of
# 2-4 joints): in 1/64 the split worked out here needs more than 240 PObjs, so 1/32 is taken with a
# warning; the envelope and PObj counts as worked out here, and every vertex back in place within
# 1/32 x the spread of its joints' transforms (plus the position error), its weights within 1/32.
expect_rc 0 glb smooth-tube "$T/tube.gltf"
expect_rc 0 glb split "$T/tube.gltf" 64
[ "$(cat "$T/out" | cut -d: -f1 | cut -d' ' -f2)" -gt 240 ] && ok || bad "the tube fits in 1/64: $(cut -c1-40 "$T/out")"
expect_rc 0 glb split "$T/tube.gltf" 32
pobjs=$(cut -d: -f1 "$T/out" | cut -d' ' -f2)
envs=$(glb rounded "$T/tube.gltf" 32)
expect_rc 0 "$UE" import "$T/tube.gltf" -o "$T/tube.dat"
grep -q "weights 1/64 need more than the 240 PObjs left (10 matrices each): rounded to 1/32 instead, $envs envelopes, .*import.hsd.new.weights" "$T/err" &&
  ok || bad "tube warning: $(cat "$T/err")"
grep -q "^new model: 42 joints, 1 DObj, $pobjs PObjs, 10000 triangles, $envs envelopes," "$T/err" && ok || bad "tube summary ($pobjs PObjs, $envs envelopes): $(cat "$T/err")"
check "tube PObjs in the DAT" "$(glb dat-pobjs "$T/tube.dat" | head -1 | cut -d: -f1)" "PObjs $pobjs"
expect_rc 0 "$UE" validate --strict "$T/tube.dat"
expect_rc 0 "$UE" convert "$T/tube.dat" -o "$T/tubeb.glb"
expect_rc 0 glb smooth-check "$T/tube.gltf" "$T/tubeb.glb" 32 "$REL"
echo "tube: $pobjs PObjs, $envs envelopes; $(cat "$T/out")"
grep -q "^5151 vertices" "$T/out" && ok || bad "tube vertices: $(cat "$T/out")"
# --weight-step 1/16: fewer envelopes (as worked out here), no warning.
expect_rc 0 "$UE" import "$T/tube.gltf" -o "$T/tube16.dat" --weight-step 1/16
grep -q "import.hsd.new.weights" "$T/err" && bad "1/16 warned: $(cat "$T/err")" || ok
grep -q " $(glb rounded "$T/tube.gltf" 16) envelopes," "$T/err" && ok || bad "tube 1/16: $(cat "$T/err")"
# One inverse bind per joint: two skins binding a node differently.
expect_rc 0 glb two-skins "$T/two.gltf"
expect_rc 1 "$UE" import "$T/two.gltf" -o "$T/two.dat"
grep -q "another inverse bind matrix.*import.hsd.new.skin" "$T/err" && ok || bad "two binds: $(cat "$T/err")"
[ ! -e "$T/two.dat" ] && ok || bad "a refused import wrote two.dat"
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
# --into a PKX writes a copy of it (cli_hsd_new_into.sh): a DAT output is refused.
expect_rc 2 "$UE" import "$T/s.gltf" -o "$T/n.dat" --into "$T/demo/gamecube/creature.pkx"
grep -q "give it its extension (.pkx)" "$T/err" && ok || bad "--into with -o .dat: $(cat "$T/err")"
expect_usage "" "$UE" import "$T/r.glb" -o "$T/n.msh" --texture-format cmpr
expect_usage "" "$UE" import "$T/r.glb" -o "$T/n.dat" --base "$T/r.dat" --texture-format cmpr
expect_usage "" "$UE" import "$T/s.gltf" -o "$T/n.dat" --texture-format bc7
expect_usage "" "$UE" import "$T/s.gltf" -o "$T/n.dat" --weight-step 0.3
expect_usage "" "$UE" import "$T/s.gltf" -o "$T/n.dat" --weight-step 1/0
expect_usage "" "$UE" import "$T/r.glb" -o "$T/n.msh" --weight-step 1/64
[ ! -e "$T/n.dat" ] && ok || bad "a usage error wrote n.dat"
finish
