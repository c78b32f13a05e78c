#!/usr/bin/env bash
# The README's main job: write the built-in sample pack, run the container pipeline on every
# archive in it (info, list, validate, extract, pack, byte-compare, roundtrip), show that an
# input is never overwritten, an archive's models and one entry's bytes (cat), then convert
# several models at once and every model of the pack twice (the second run keeps every output),
# the pack's gallery (convert -r --gallery) and previews of its models (a few views, a contact sheet),
# the robot to OBJ, show the creature's animation clips and the FigaTree clips of its animation
# bank (convert --anims), import a glTF back into an MSH and into its archive, and into an HSD
# DAT and a copy of its FSYS (and a new DAT from the robot), paint a texture in
# a .gltf's PNG files and import it back into a Textures.lib copy, scale the robot, and write the
# textures as PNG. Each step checks what it shows and fails loudly.
set -euo pipefail
UE="${1:-build/release/unearth}"
OUT="${2:-out/demo}"
PACK="$OUT/pack"
WORK="$OUT/work"

"$UE" demo -o "$PACK" -f
mkdir -p "$WORK"
find "$PACK" -type f | sort | while read -r f; do
  if ! "$UE" list "$f" >/dev/null 2>&1; then continue; fi   # not a container (a bare .wea, .msh model …)
  name="$(basename "$f")"
  echo "== $f"
  "$UE" info "$f"
  "$UE" list "$f"
  "$UE" validate "$f"
  "$UE" extract "$f" -o "$WORK/$name.extracted" -f -q
  "$UE" pack "$WORK/$name.extracted" -o "$WORK/$name" -f -q
  cmp "$f" "$WORK/$name"; echo "extract → pack: byte-identical"
  "$UE" roundtrip "$f"
done

echo "== never lose a file: an output that is an input is refused, -f or not"
A="$PACK/parkan/objects.rlb"
before="$(cksum < "$A")"
if "$UE" extract "$A" -o "$A" -f; then echo "extract onto its own input was not refused" >&2; exit 1; fi
[ "$(cksum < "$A")" = "$before" ] || { echo "$A changed" >&2; exit 1; }
echo "refused (exit 2); $A is unchanged"

echo "== an archive's models (unearth info), and one entry's bytes (unearth cat)"
models_in_a="$("$UE" info "$A" | sed -n '/^  models /,$p')"
echo "$models_in_a"
grep -q '^    ROBOT\.msh (msh): [0-9]* nodes' <<<"$models_in_a" || { echo "info $A lists no ROBOT.msh" >&2; exit 1; }
"$UE" cat "$A:robot.wea" -o "$WORK/robot.wea" -f
payload="$(python3 -c 'import json, sys
print(next(e["file"] for e in json.load(open(sys.argv[1]))["entries"] if e["name"] == "robot.wea"))' \
  "$WORK/objects.rlb.extracted/manifest.json")"
cmp "$WORK/robot.wea" "$WORK/objects.rlb.extracted/$payload"
echo "cat $A:robot.wea: the bytes extract wrote ($payload)"

echo "== several models in one convert: names kept apart, a summary, each option where it applies"
several="$("$UE" convert "$A" "$PACK/parkan/robot.msh" "$PACK/gamecube/creature.fsys" -o "$OUT/several" -f --lod all 2>&1)"
echo "$several"
grep -q '^batch: 3 models in 3 files: 3 converted, 0 skipped, 0 failed' <<<"$several" \
  && grep -q -- '--lod ignored for 1 HAL SysDolphin .dat model ' <<<"$several" \
  && [ -s "$OUT/several/ROBOT.glb" ] && [ -s "$OUT/several/robot~2.glb" ] && [ -s "$OUT/several/creature.glb" ] \
  || { echo "convert of several models: not the summary and outputs expected" >&2; exit 1; }

echo "== models"
"$UE" convert -r "$PACK" -o "$OUT/converted" -f   # the robot (animated, textured) and the creature
echo "-- the same command again continues the batch: every finished output is kept, none rewritten"
touch "$WORK/before_second_run"
again="$("$UE" convert -r "$PACK" -o "$OUT/converted" -f 2>&1)"
echo "$again"
grep -q '^batch: \([1-9][0-9]*\) models in [0-9]* files: 0 converted, \1 kept, [0-9]* skipped, 0 failed' <<<"$again" \
  || { echo "the second convert -r did not keep every output" >&2; exit 1; }
[ -z "$(find "$OUT/converted" -name '*.glb' -newer "$WORK/before_second_run")" ] \
  || { echo "the second convert -r rewrote outputs" >&2; exit 1; }
"$UE" convert "$PACK/parkan/robot.msh" -o "$OUT/robot.obj" -f
"$UE" info "$PACK/gamecube/creature.fsys:creature.pkx:model.dat"   # joints, meshes and its clips
(cd "$OUT/converted" && find . -name '*.glb' | sort)

echo "== a gallery of the pack: index.html and the viewer page (docs/gallery.md)"
"$UE" convert -r "$PACK" -o "$OUT/gallery" -f --gallery
[ "$(grep -c '<li class="model' "$OUT/gallery/index.html")" = 5 ] \
  || { echo "the gallery does not list the pack's 5 models" >&2; exit 1; }
[ "$(find "$OUT/gallery" -name '*.preview.png' | wc -l)" = 5 ] && [ "$(grep -c '<img [^>]*src="[^"]*\.preview\.png"' "$OUT/gallery/index.html")" = 5 ] \
  || { echo "the gallery has not a thumbnail on each of its 5 models" >&2; exit 1; }
echo "open it: python3 -m http.server -d $OUT/gallery -b 127.0.0.1, then http://127.0.0.1:8000/"

echo "== previews: unearth's own software renderer, no GPU (docs/preview.md)"
"$(dirname "$0")/preview_samples.sh" "$UE" "$PACK" "$OUT/previews"   # the pictures of docs/images
"$UE" preview "$A" -o "$OUT/previews/objects.rlb.png" -f -q   # one model inside: a picture, not a sheet
python3 - "$OUT/previews" <<'EOF_PY'
import os, struct, sys
for name in sorted(os.listdir(sys.argv[1])):
    head = open(os.path.join(sys.argv[1], name), "rb").read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n": sys.exit(name + ": not a PNG")
    print("%-30s %dx%d" % (name, *struct.unpack(">II", head[16:24])))
EOF_PY

echo "== the animated creature: idle (with blinking eyes and a mouth swap) and attack"
"$UE" convert "$PACK/gamecube/creature.fsys" -o "$OUT/creature.glb" -f
"$UE" convert "$PACK/gamecube/creature.fsys" -o "$OUT/creature_skeleton_only.glb" -f --no-animation-pointer
python3 - "$OUT/creature.glb" <<'EOF_PY'
import json, struct, sys
d = open(sys.argv[1], "rb").read()
doc = json.loads(d[20:20 + struct.unpack_from("<I", d, 12)[0]])
for a in doc["animations"]:
    ends = max(doc["accessors"][s["input"]]["max"][0] for s in a["samplers"])
    joints = sorted({doc["nodes"][c["target"]["node"]]["name"] for c in a["channels"] if "node" in c["target"]})
    ptrs = sum(1 for c in a["channels"] if c["target"]["path"] == "pointer")
    print("%s: %.3f s, joints %s, %d material/texture pointer channels" % (a["name"], ends, " ".join(joints), ptrs))
EOF_PY
echo "open $OUT/creature.glb in a viewer with KHR_animation_pointer (e.g. sandbox.babylonjs.com)"

echo "== the creature as Melee keeps a fighter: a bare model DAT, an animation bank, a DAT of other roots"
D="$PACK/gamecube/dat"
"$UE" info "$D/creature_anims.dat"   # the bank's clip table: Wait1 60 frames, Wave 30, Jump 40
"$UE" info "$D/creature_data.dat"    # fighter data, camera, lights and fog roots: nothing to convert
"$UE" validate --strict "$D/creature.dat" "$D/creature_anims.dat" "$D/creature_data.dat"
"$UE" convert "$D/creature.dat" --anims "$D/creature_anims.dat" -o "$OUT/creature_anims.glb" -f
clips="$(python3 - "$OUT/creature_anims.glb" <<'EOF_PY'
import json, struct, sys
d = open(sys.argv[1], "rb").read()
doc = json.loads(d[20:20 + struct.unpack_from("<I", d, 12)[0]])
for a in doc["animations"]:
    end = max(doc["accessors"][s["input"]]["max"][0] for s in a["samplers"])
    print("%s: %g frames" % (a["name"], round(end * 60, 3)))
EOF_PY
)"
echo "$clips"
grep -q '^Wait1: 60 frames$' <<<"$clips" && grep -q '^Wave: 30 frames$' <<<"$clips" && grep -q '^Jump: 40 frames$' <<<"$clips" \
  || { echo "convert --anims: not the bank's three clips" >&2; exit 1; }

echo "== back into the game: glTF → MSH (unearth import)"
"$UE" convert "$PACK/parkan/robot.msh" -o "$WORK/robot_edit.glb" -f --lod all   # every LOD and group
"$UE" import "$WORK/robot_edit.glb" -o "$WORK/robot_back.msh" --base "$PACK/parkan/robot.msh" -f
cmp "$PACK/parkan/robot.msh" "$WORK/robot_back.msh" && echo "convert → import --base: byte-identical"
"$UE" import "$WORK/robot_edit.glb" -o "$WORK/robot_new.msh" -f   # a new model from the glTF
"$UE" validate --strict "$WORK/robot_new.msh"
"$UE" import "$WORK/robot_edit.glb" -o "$WORK/objects_modded.rlb" -f \
  --base "$PACK/parkan/objects.rlb:ROBOT.msh" --into "$PACK/parkan/objects.rlb:ROBOT.msh"
"$UE" validate --strict "$WORK/objects_modded.rlb"

echo "== back into the GameCube games: glTF → HSD (unearth import; docs/hsd-import.md)"
"$UE" convert "$PACK/gamecube/dat/creature.dat" -o "$WORK/creature_edit.glb" -f
"$UE" import "$WORK/creature_edit.glb" -o "$WORK/creature_back.dat" --base "$PACK/gamecube/dat/creature.dat" -f
cmp "$PACK/gamecube/dat/creature.dat" "$WORK/creature_back.dat" && echo "convert → import --base (DAT): byte-identical"
"$UE" import "$WORK/creature_edit.glb" -o "$WORK/creature_modded.fsys" -f \
  --base "$PACK/gamecube/creature.fsys:creature.pkx" --into "$PACK/gamecube/creature.fsys:creature.pkx"
"$UE" validate --strict "$WORK/creature_modded.fsys"
cmp "$PACK/gamecube/creature.fsys" "$WORK/creature_modded.fsys" && echo "… into a copy of the FSYS: byte-identical"
"$UE" convert "$PACK/parkan/robot.msh" -o "$WORK/robot_for_gc.glb" -f
"$UE" import "$WORK/robot_for_gc.glb" -o "$WORK/robot_new.dat" -f   # a new HSD model from a static glTF
"$UE" validate --strict "$WORK/robot_new.dat"
# a new skinned model with its clips, from the creature's glTF, in a copy of the PKX; slot 0 plays Animation_1
"$UE" import "$WORK/creature_edit.glb" -o "$WORK/creature_new.pkx" -f --into "$PACK/gamecube/creature.pkx" \
  --anim-slot 0 Animation_1
"$UE" validate --strict "$WORK/creature_new.pkx"

echo "== a texture painted over goes back into the game (a .gltf keeps its images as PNG files)"
rm -rf "$WORK/loop"
"$UE" convert "$PACK/parkan/robot.msh" -o "$WORK/loop/robot.gltf"   # + robot.bin, robot.ROBOT_ARM_0.png, ...
ls "$WORK/loop"
cp "$WORK/loop/robot.ROBOT_LEG_0.png" "$WORK/loop/robot.ROBOT_ARM_0.png"   # "paint" the arms like the legs
"$UE" import "$WORK/loop/robot.gltf" -o "$WORK/loop/robot.msh" --base "$PACK/parkan/robot.msh" \
  --textures-out "$WORK/loop/Textures.lib"   # ROBOT_ARM.0 re-encoded in its own format
cmp "$PACK/parkan/robot.msh" "$WORK/loop/robot.msh" && echo "the model itself: byte-identical"
"$UE" validate --strict "$WORK/loop/Textures.lib"
"$UE" edit "$PACK/parkan/robot.msh" -o "$WORK/loop/robot_x2.msh" --scale 2   # twice the size, about the origin
"$UE" validate --strict "$WORK/loop/robot_x2.msh"

echo "== textures"
"$UE" textures "$PACK/gamecube/creature.fsys" -o "$OUT/textures/creature" -f
"$UE" textures "$PACK/parkan/textures_demo.lib" -o "$OUT/textures/parkan" -f
ls "$OUT/textures/creature" "$OUT/textures/parkan"
