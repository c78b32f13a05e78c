#!/usr/bin/env bash
# import --base with clips (docs/hsd-import.md#clips): one rotation key of the sample creature's
# second clip turned in the glb becomes new AnimJoint tracks; converted back, every joint of that clip
# follows the edited glb's curve within the stated bound at every frame, the turned key at its frame;
# the other clip converts back exactly as before; a clip of a new name is appended and converts back
# within the bound beside the unchanged others; the PKX takes the grown DAT; a changed clip over a
# re-expressed skeleton is refused, nothing written; clips past the scene's sample budget are refused
# by name before any is sampled. Curves are sampled by hsd_clips_glb.py's own
# glTF rules and quaternion math.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_clips
. "$HERE/cli_lib.sh"
clip() { python3 "$HERE/hsd_clips_glb.py" "$@"; }
within() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$1" "$2"; }

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"
DAT="$G/dat/creature.dat"
expect_rc 0 "$UE" convert "$DAT" -o "$T/c.glb"

# Key 10 of the chest's rotation in Animation_1 turned by 30 degrees about its own x axis.
FRAME=$(clip turn "$T/c.glb" "$T/e.glb" Animation_1 chest 10 x 30)
check "turned key's frame" "$FRAME" 11
expect_rc 0 "$UE" import "$T/e.glb" --base "$DAT" -o "$T/e.dat"
grep -q "^clips: 1 replaced, 0 added, 1 kept as the base has them$" "$T/err" && ok || bad "clips line: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/e.dat"
expect_rc 0 "$UE" convert "$T/e.dat" -o "$T/back.glb"

# The bound: each Euler angle within 1e-4 rad at every frame, so the rotation within 3e-4 rad (the
# three axes' errors add at most); translations within 1e-4 (relative beyond 1); scales, through the
# parent-scale compensation of the jaw under the head's (1.5, 1, 0.8), within 3e-4.
read -r ROT TRA SCA <<<"$(clip compare "$T/e.glb" "$T/back.glb" Animation_1)"
within "$ROT" 3e-4 && ok || bad "rotation off by $ROT rad"
within "$TRA" 1e-4 && ok || bad "translation off by $TRA"
within "$SCA" 3e-4 && ok || bad "scale off by $SCA"
# The edit is there: the turned key at its frame, 30 degrees from the unedited clip.
check "turned key back" "$(clip rotation "$T/back.glb" Animation_1 chest "$FRAME")" "$(clip rotation "$T/e.glb" Animation_1 chest "$FRAME")"
read -r ROT TRA SCA <<<"$(clip compare "$T/c.glb" "$T/back.glb" Animation_1)"
within 0.52 "$ROT" && within "$ROT" 0.53 && ok || bad "the edit moved the chest by $ROT rad, not 30 degrees (0.5236)"
# The other clip: the same keys and values as the base's conversion.
check "Animation_0 kept" "$(clip same-anim "$T/c.glb" "$T/back.glb" Animation_0)" same

# A new clip: the edited clip renamed "Wave" (no base clip has that name, and the glTF has no
# Animation_1 any more, which stays as the base has it) is appended as anims[2], within the bound.
clip rename-anim "$T/e.glb" "$T/w.glb" Animation_1 Wave
expect_rc 0 "$UE" import "$T/w.glb" --base "$DAT" -o "$T/w.dat"
grep -q "^clips: 0 replaced, 1 added, 1 kept as the base has them$" "$T/err" && ok || bad "clips line: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/w.dat"
expect_rc 0 "$UE" convert "$T/w.dat" -o "$T/wb.glb"
read -r ROT TRA SCA <<<"$(clip compare "$T/w.glb" "$T/wb.glb" Wave Animation_2)"
within "$ROT" 3e-4 && within "$TRA" 1e-4 && within "$SCA" 3e-4 && ok || bad "new clip off by $ROT $TRA $SCA"
check "Animation_0 kept beside a new clip" "$(clip same-anim "$T/c.glb" "$T/wb.glb" Animation_0)" same
check "Animation_1 kept beside a new clip" "$(clip same-anim "$T/c.glb" "$T/wb.glb" Animation_1)" same

# Into the PKX: the grown DAT re-wrapped, the copy valid.
expect_rc 0 "$UE" import "$T/e.glb" --base "$G/creature.pkx" -o "$T/e.pkx"
expect_rc 0 "$UE" validate --strict "$T/e.pkx"

# A changed clip over a skeleton whose rest the glTF moved (the chest's rest turned to identity, as a
# client that re-expresses bones does): read in the base's joint frames, each joint moving from the
# base's rest as the glTF's moves from its own, so the chest's local rotation comes back as the
# glTF's times the base's rest rotation (docs/hsd-import.md#clips, "A re-expressed skeleton").
clip rest "$T/e.glb" "$T/r.glb" chest 0,0,0,1
expect_rc 0 "$UE" import "$T/r.glb" --base "$DAT" -o "$T/r.dat"
grep -q "^clips: 2 replaced, 0 added, 0 kept as the base has them$" "$T/err" && ok || bad "re-expressed (both clips move from the new rest): $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/r.dat"
expect_rc 0 "$UE" convert "$T/r.dat" -o "$T/rb.glb"
GOT=$(clip rotation "$T/rb.glb" Animation_1 chest "$FRAME")
WANT=$(clip rotation "$T/r.glb" Animation_1 chest "$FRAME")
python3 - "$GOT" "$WANT" "$HERE" "$T/c.glb" <<'PY' && ok || bad "re-expressed chest at frame $FRAME: $GOT, glTF's $WANT"
import sys
sys.path.insert(0, sys.argv[3])
from hsd_clips_glb import joint_nodes, load
got, (x1, y1, z1, w1) = [float(c) for c in sys.argv[1].split(",")], [float(c) for c in sys.argv[2].split(",")]
x2, y2, z2, w2 = joint_nodes(load(sys.argv[4])[0])["chest"]["rotation"]  # the base's chest rest, as convert gives it
want = [w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2, w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2, w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2]
sign = 1 if want[3] >= 0 else -1
sys.exit(max(abs(g - sign * w) for g, w in zip(got, want)) > 2e-3)
PY

# Rest edits no re-expression explains are named (edit mode does not write rests): the arm's rest
# moved by 0.2 in x in the edited glb. Joints the edited clip does not key the scale of hold the
# base's rest scale: the head's rest scale dropped to 1 (as Blender's bones hold none) and its scale
# channel left out of Animation_1, the head converts back at the base's 1.5 x 1 x 0.8 at every frame.
clip rest-scale "$T/e.glb" "$T/s1.glb" head 1,1,1
clip drop-channel "$T/s1.glb" "$T/s2.glb" Animation_1 head scale
clip rest-move "$T/s2.glb" "$T/s3.glb" arm_l 0.2,0,0
expect_rc 0 "$UE" import "$T/s3.glb" --base "$DAT" -o "$T/s3.dat"
grep -q "warning: /nodes: the glTF changes the rest of joint 'arm_l' beyond a re-expression" "$T/err" && ok || bad "rest edit: $(cat "$T/err")"
[ "$(grep -c "import.hsd.clip" "$T/err")" = 1 ] && ok || bad "the head's dropped scale is no rest edit: $(cat "$T/err")"
grep -q "^clips: 1 replaced, 0 added, 1 kept as the base has them$" "$T/err" && ok || bad "clips line: $(cat "$T/err")"
expect_rc 0 "$UE" convert "$T/s3.dat" -o "$T/s3b.glb"
check "the base's head rest scale" "$(python3 - "$T/s3b.glb" "$T/c.glb" <<'PY'
import json, struct, sys
def head(p):
    glb = open(p, "rb").read()
    return next(n["scale"] for n in json.loads(glb[20:20 + struct.unpack_from("<I", glb, 12)[0]])["nodes"] if n.get("name") == "head")
print(head(sys.argv[1]) == head(sys.argv[2]), ["%.2f" % v for v in head(sys.argv[2])])
PY
)" "True ['1.50', '1.00', '0.80']"
within "$(clip scales "$T/s3b.glb" Animation_1 head)" 1e-4 && ok || bad "the head's scale in Animation_1 leaves its rest"

# The comparison with the base's clip costs log(keys) per sample: a base clip of 3000 keys turning by
# 1 rad a frame, its glTF resampled as Blender plays it (33 keys more in every interval, 101967 in
# all, each compared by nlerp) is kept byte for byte.
clip dense "$T/c.glb" "$T/d.glb" Dense chest 3000
expect_rc 0 "$UE" import "$T/d.glb" --base "$DAT" -o "$T/d.dat"
expect_rc 0 "$UE" convert "$T/d.dat" -o "$T/db.glb"
check "resampled keys" "$(clip nlerp-resample "$T/db.glb" "$T/dn.glb" Animation_2 chest 34)" 101967
expect_rc 0 "$UE" import "$T/dn.glb" --base "$T/d.dat" -o "$T/dn.dat"
grep -q "^changed: nothing (byte-identical to the base)$" "$T/err" && cmp -s "$T/d.dat" "$T/dn.dat" && ok ||
  bad "the resampled dense clip: $(cat "$T/err")"

# One sample budget for the scene: eight new clips of 1600 s (96001 frames), each through the same
# pair of two-key accessors, are 8 × 96001 × (8 joints + 1 channel + 1) samples: refused by name
# before any is sampled (each alone is within it), nothing written; two of 10 s are written.
clip shared-long "$T/c.glb" "$T/long.glb" 8 head 1600
START=$(date +%s%N)
expect_rc 1 "$UE" import "$T/long.glb" --base "$DAT" -o "$T/long.dat"
MS=$(( ($(date +%s%N) - START) / 1000000 ))
grep -q "error: /animations: the glTF's clips take 7680080 samples .*at most 4194304 (4 million) are taken for one scene \[import.hsd.limit\]" "$T/err" &&
  ok || bad "long clips: $(cat "$T/err")"
[ ! -e "$T/long.dat" ] && ok || bad "long clips: a DAT was written"
[ "$MS" -lt 3000 ] && ok || bad "long clips refused after $MS ms"
clip shared-long "$T/c.glb" "$T/short.glb" 2 head 10
expect_rc 0 "$UE" import "$T/short.glb" --base "$DAT" -o "$T/short.dat"
grep -q "^clips: 0 replaced, 2 added, 2 kept as the base has them$" "$T/err" && ok || bad "short clips: $(cat "$T/err")"

finish
