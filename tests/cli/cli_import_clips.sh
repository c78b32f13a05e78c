#!/usr/bin/env bash
# End-to-end tests of `import --base` with the clip as real clients write it back: Blender's
# 24 fps re-sampling without extras and without the KHR_animation_pointer clip imports
# byte-identical (a note says the material keeps its clip); gltf-transform's pointer channels
# without their pointer are left out with a warning; a moved sample re-keys that node's track
# at the model's 30 fps and nothing else.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_import_clips
. "$HERE/cli_lib.sh"
PY="python3 $HERE/import_clips.py"
same() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }
err_has() { grep -qF -- "$1" "$T/err" && ok || { bad "stderr lacks '$1' ($2)"; cat "$T/err" >&2; }; }
err_lacks() { ! grep -qF -- "$1" "$T/err" && ok || { bad "stderr has '$1' ($2)"; cat "$T/err" >&2; }; }
same_file() { cmp -s "$1" "$2" && ok || bad "$3: $1 and $2 differ"; }

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"
expect_rc 0 "$UE" convert "$R" -o "$T/robot.glb"

# ---- Blender: the node clip re-sampled at 24 fps, the material's clip dropped ----
$PY blender "$T/robot.glb" "$T/bl.glb" 24 || bad "making the Blender-like glb"
expect_rc 0 "$UE" import "$T/bl.glb" --base "$R" -o "$T/bl.msh"
err_has "changed: nothing (byte-identical to the base)" "Blender's re-sampled clip"
err_lacks "warning" "Blender's re-sampled clip"
same_file "$T/bl.msh" "$R" "Blender's re-sampled clip"
expect_rc 0 "$UE" import "$T/bl.glb" --base "$R" -o "$T/bl.msh" -f -v
err_has "/animations: the glTF has no clip 'ROBOT_HEAD' (the base model's material animation): the material keeps it" \
  "the dropped material clip is noted with -v"
err_has "[import.anim.kept]" "the note's code"

# ---- gltf-transform: pointer channels without their pointer ----
$PY strip-pointers "$T/robot.glb" "$T/gt.glb" || bad "making the gltf-transform-like glb"
expect_rc 0 "$UE" import "$T/gt.glb" --base "$R" -o "$T/gt.msh" -v
err_has "/animations/1/channels/0: pointer target without its KHR_animation_pointer pointer" "a pointer the writer dropped"
err_has "[import.anim.kept]" "the emptied material clip"
same_file "$T/gt.msh" "$R" "gltf-transform's clip without pointers"

# ---- an edit: arm_right's sample at 3/24 s moved up 0.02 ----
$PY move-sample "$T/bl.glb" "$T/ed.glb" arm_right 3 0.02 || bad "moving a sample"
expect_rc 0 "$UE" import "$T/ed.glb" --base "$R" -o "$T/ed.msh"
err_has "changed: Res1 Res2 Res8 Res19" "a moved sample re-keys one track"
# arm_right (model node 4) keyed at every 30 fps frame 0..8, z (glTF y) the lerp of the 24 fps
# samples there. The base's z keys: 0.3 at 0, 0.35 at 1/30, 0.25 at 4/30, 0.3 at 8/30 s; sampled
# at i/24 s: 0.3, 0.341667, 0.3, 0.258333 + 0.02, 0.2625, 0.278125, 0.29375. Frame 1 is sample
# 0.8 (0.3 + 0.041667 × 0.8), frame 3 sample 2.4 (0.3 − 0.021667 × 0.4), frame 8 (past 0.25 s)
# holds the last sample.
same "$($PY track "$T/ed.msh" 4)" \
  "0:0.300000 1:0.333333 2:0.316667 3:0.291333 4:0.275167 5:0.262500 6:0.275000 7:0.287500 8:0.293750" \
  "arm_right's re-keyed track"
# the other tracks keep their keys: arm_left (node 3) as in the base
same "$($PY track "$T/ed.msh" 3)" "$($PY track "$R" 3)" "arm_left's track"
same "$($PY track "$T/ed.msh" 1)" "$($PY track "$R" 1)" "head's track"
finish
