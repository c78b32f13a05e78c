#!/usr/bin/env bash
# import without --base (docs/hsd-import.md#new-models) with clips: a hand-made three-joint rig with
# LINEAR rotations past half a turn (off the frame grid), STEP scales and CUBICSPLINE translations, and
# the sample creature's glb without its skin (its two clips, the jaw under a non-uniformly scaled
# head), become new DATs whose clips convert back, at every frame, within the stated error of the
# glTF's curves as hsd_clips_glb.py samples them by the glTF rules; a material-only clip is left out
# with a warning; clips past the scene's sample budget are refused by name before any is sampled.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_new_clips
. "$HERE/cli_lib.sh"
clip() { python3 "$HERE/hsd_clips_glb.py" "$@"; }
within() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$1" "$2"; }
# The bound: each Euler angle within 1e-4 rad at every frame, so the rotation within 3e-4 rad;
# translations and scales within 1e-4 (relative beyond 1).
close_to() { # close_to A.glb B.glb ANIM ANIM_B
  read -r ROT TRA SCA <<<"$(clip compare "$@")"
  within "$ROT" 3e-4 && within "$TRA" 1e-4 && within "$SCA" 1e-4 && ok || bad "$3 off by $ROT rad, $TRA, $SCA"
}

# The rig: hip (root), knee, ankle, and two mesh nodes: 5 joints, clips at anims[0] and [1] in glTF order.
expect_rc 0 python3 "$HERE/hsd_new_clips_glb.py" rig "$T/rig.glb"
expect_rc 0 "$UE" import "$T/rig.glb" -o "$T/rig.dat"
grep -q "^clips: 2 written as AnimJoint trees$" "$T/err" && ok || bad "rig clips line: $(cat "$T/err")"
grep -q "warning" "$T/err" && bad "rig warned: $(cat "$T/err")" || ok
expect_rc 0 "$UE" validate --strict "$T/rig.dat"
expect_rc 0 "$UE" convert "$T/rig.dat" -o "$T/rigb.glb"
close_to "$T/rig.glb" "$T/rigb.glb" Swing Animation_0
close_to "$T/rig.glb" "$T/rigb.glb" Bounce Animation_1
# The hip's turn is there (not the rest): 170 degrees about y at 0.45 s (frame 27).
check "hip at frame 27" "$(clip rotation "$T/rigb.glb" Animation_0 hip 27)" "0.0000,0.9962,0.0000,0.0872"

# The creature without its skin: 12 joints, both clips.
expect_rc 0 "$UE" demo -o "$T/demo"
expect_rc 0 "$UE" convert "$T/demo/gamecube/creature.pkx" -o "$T/c.glb"
expect_rc 0 python3 "$HERE/hsd_new_clips_glb.py" unskin "$T/c.glb" "$T/cu.glb"
expect_rc 0 "$UE" import "$T/cu.glb" -o "$T/cu.dat"
grep -q "^clips: 2 written as AnimJoint trees$" "$T/err" && ok || bad "creature clips line: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/cu.dat"
expect_rc 0 "$UE" convert "$T/cu.dat" -o "$T/cub.glb"
close_to "$T/c.glb" "$T/cub.glb" Animation_0 Animation_0
close_to "$T/c.glb" "$T/cub.glb" Animation_1 Animation_1

# The robot: its node clip written, its material clip left out with a warning naming it.
expect_rc 0 "$UE" convert "$T/demo/parkan/robot.msh" -o "$T/r.glb"
expect_rc 0 "$UE" import "$T/r.glb" -o "$T/r.dat"
grep -q "^clips: 1 written as AnimJoint trees$" "$T/err" && ok || bad "robot clips line: $(cat "$T/err")"
grep -q "animation 'ROBOT_HEAD' moves no joint.*\[import.hsd.new.clips\]" "$T/err" && ok || bad "robot warning: $(cat "$T/err")"
expect_rc 0 "$UE" convert "$T/r.dat" -o "$T/rb.glb"
close_to "$T/r.glb" "$T/rb.glb" robot.msh Animation_0

# One sample budget for the scene: the rig with eight more clips of 1600 s (96001 frames) through one
# pair of two-key accessors: 8 × 96001 × (5 joints + 1 channel + 1) samples, and its own two clips'
# 121 × (5 + 4 + 1) and 61 × (5 + 2 + 1): refused by name before any is sampled, nothing written.
clip shared-long "$T/rig.glb" "$T/long.glb" 8 knee 1600
START=$(date +%s%N)
expect_rc 1 "$UE" import "$T/long.glb" -o "$T/long.dat"
MS=$(( ($(date +%s%N) - START) / 1000000 ))
grep -q "error: /animations: the glTF's clips take 5377754 samples .*at most 4194304 (4 million) are taken for one scene \[import.hsd.limit\]" "$T/err" &&
  ok || bad "long clips: $(cat "$T/err")"
[ ! -e "$T/long.dat" ] && ok || bad "long clips: a DAT was written"
[ "$MS" -lt 3000 ] && ok || bad "long clips refused after $MS ms"
finish
