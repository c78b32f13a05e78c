#!/usr/bin/env bash
# The README's main job: write the built-in sample pack, run the container pipeline on every
# archive in it (info, list, validate, extract, pack, byte-compare, roundtrip), show that an
# input is never overwritten, then convert every model to glTF (and the robot to OBJ) and write
# the textures as PNG.
set -euo pipefail
UE="${1:-build/release/unearth}"
OUT="${2:-out/demo}"
PACK="$OUT/pack"
WORK="$OUT/work"

"$UE" demo -o "$PACK" -f
mkdir -p "$WORK"
find "$PACK" -type f | sort | while read -r f; do
  if ! "$UE" info "$f" >/dev/null 2>&1; then continue; fi   # not a container
  name="$(basename "$f")"
  echo "== $f"
  "$UE" info "$f"
  "$UE" list "$f"
  "$UE" validate "$f"
  "$UE" extract "$f" -o "$WORK/$name.extracted" -f -q
  "$UE" pack "$WORK/$name.extracted" -o "$WORK/$name" -f -q
  cmp "$f" "$WORK/$name" && echo "extract → pack: byte-identical"
  "$UE" roundtrip "$f"
done

echo "== never lose a file: an output that is an input is refused, -f or not"
A="$PACK/parkan/objects.rlb"
before="$(cksum < "$A")"
if "$UE" extract "$A" -o "$A" -f; then echo "extract onto its own input was not refused" >&2; exit 1; fi
[ "$(cksum < "$A")" = "$before" ] && echo "refused (exit 2); $A is unchanged"

echo "== models"
"$UE" convert -r "$PACK" -o "$OUT/converted" -f   # the robot (animated, textured) and the creature
"$UE" convert "$PACK/parkan/robot.msh" -o "$OUT/robot.obj" -f
"$UE" info "$PACK/gamecube/creature.fsys:creature.pkx:model.dat"
(cd "$OUT/converted" && find . -name '*.glb' | sort)

echo "== textures"
"$UE" textures "$PACK/gamecube/creature.fsys" -o "$OUT/textures/creature" -f
"$UE" textures "$PACK/parkan/textures_demo.lib" -o "$OUT/textures/parkan" -f
ls "$OUT/textures/creature" "$OUT/textures/parkan"
