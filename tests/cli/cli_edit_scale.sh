#!/usr/bin/env bash
# End-to-end tests of `edit --scale S` on the whole model: every node offset and every vertex's
# world position at rest and at clip times (keys and between keys) is S × the original's, worked
# out from the two glTF files `convert` writes (msh_scale_glb.py); S = 1 gives the file back byte
# for byte; zero, negative, non-finite or too large S is refused with nothing written; after
# --vertices, --scale still changes those vertices only.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_edit_scale
. "$HERE/cli_lib.sh"
WORLD="python3 $HERE/msh_scale_glb.py"
err_has() { grep -qF -- "$1" "$T/err" && ok || { bad "stderr lacks '$1' ($2)"; cat "$T/err" >&2; }; }
absent() { [ ! -e "$1" ] && ok || bad "$2: $1 was written"; }

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"
expect_rc 0 "$UE" convert "$R" -o "$T/robot.glb" --lod all

# ---- the whole model, at rest and animated (the sample robot's clip: frames 0..8 at 30 fps) ----
for s in 2 0.25; do
  expect_rc 0 "$UE" edit "$R" -o "$T/s$s.msh" --scale "$s"
  expect_rc 0 "$UE" validate --strict "$T/s$s.msh"
  expect_rc 0 "$UE" convert "$T/s$s.msh" -o "$T/s$s.glb" --lod all
  # 0.1 s = frame 3 (a key), 0.15 s = frame 4.5 (between keys), 0.2 s = frame 6
  check "world geometry × $s" "$($WORLD "$T/robot.glb" "$T/s$s.glb" "$s" 0.1 0.15 0.2)" "ok 864"
done
# The checker fails a model that is not S × the original.
case "$($WORLD "$T/robot.glb" "$T/s2.glb" 3 0.1)" in ok*) bad "the checker takes ×2 for ×3";; *) ok;; esac
# In the archive, as the game keeps it: the same model scaled the same way.
expect_rc 0 "$UE" edit "$T/demo/parkan/objects.rlb:ROBOT.msh" -o "$T/objects2.rlb" --scale 2 \
  --into "$T/demo/parkan/objects.rlb:ROBOT.msh"
expect_rc 0 "$UE" convert "$T/objects2.rlb:ROBOT.msh" -o "$T/in_archive.glb" --lod all
check "scaled in an archive" "$($WORLD "$T/robot.glb" "$T/in_archive.glb" 2 0.15)" "ok 432"

# ---- S = 1 changes nothing ----
expect_rc 0 "$UE" edit "$R" -o "$T/s1.msh" --scale 1
cmp -s "$R" "$T/s1.msh" && ok || bad "--scale 1 changed the model"

# ---- refused: exit 2, nothing written ----
for s in 0 -2 -0.5 nan inf 1e31 x; do
  expect_rc 2 "$UE" edit "$R" -o "$T/no.msh" --scale "$s"
  err_has "edit: --scale $s: want a number from 1e-30 to 1e30, not negative" "--scale $s"
  absent "$T/no.msh" "--scale $s"
done
expect_rc 1 "$UE" edit "$R" -o "$T/no.msh" --scale 1e30
err_has "a coordinate of the model would pass 1e18" "--scale 1e30"
absent "$T/no.msh" "--scale 1e30"

# ---- after --vertices: those vertices only, about the node's origin, as before ----
expect_rc 0 "$UE" edit "$R" -o "$T/range.msh" --vertices 0 8 --scale -1
expect_rc 0 "$UE" convert "$T/range.msh" -o "$T/range.glb" --lod all
case "$($WORLD "$T/robot.glb" "$T/range.glb" 1 0.1)" in "vertex 0 at rest"*) ok;; *) bad "--vertices 0 8 --scale -1 did not move vertex 0 alone";; esac
finish
