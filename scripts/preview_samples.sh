#!/usr/bin/env bash
# The previews of the sample pack's models that docs/preview.md and the README show (docs/images/):
# each drawn by unearth itself from the synthetic pack `unearth demo` writes. scripts/demo.sh runs
# it, and the test cli_doc_images checks that the committed images are what the binary draws now.
# Usage: scripts/preview_samples.sh UNEARTH PACK OUTDIR   (PACK: the directory `unearth demo -o` wrote)
set -euo pipefail
UE="$1"
PACK="$2"
OUT="$3"
mkdir -p "$OUT"
# The Parkan robot (robot.msh; objects.rlb:ROBOT.msh is the same model and draws the same bytes).
"$UE" preview "$PACK/parkan/robot.msh" -o "$OUT/robot.png" -f -q
"$UE" preview "$PACK/parkan/robot.msh" -o "$OUT/robot.front.png" --view front -f -q
"$UE" preview "$PACK/parkan/robot.msh" -o "$OUT/robot.top.png" --view top -f -q
# The GameCube creature (creature.fsys, creature.pkx and dat/creature.dat hold the same model), in
# its bind pose and at frame 20 of its second clip.
"$UE" preview "$PACK/gamecube/creature.fsys" -o "$OUT/creature.png" -f -q
"$UE" preview "$PACK/gamecube/creature.fsys" -o "$OUT/creature.front.png" --view front -f -q
"$UE" preview "$PACK/gamecube/dat/creature.dat" -o "$OUT/creature.Animation_1.20.png" --clip Animation_1 --frame 20 -f -q
# A contact sheet: no container of the pack holds several models, so the sheet is of textures.
"$UE" textures "$PACK/gamecube/creature.fsys" -o "$OUT/creature_textures.png" --sheet -f -q
