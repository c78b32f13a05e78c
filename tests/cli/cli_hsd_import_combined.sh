#!/usr/bin/env bash
# import --base with edits of several kinds at once (docs/hsd-import.md#one-layout): a re-weighted
# vertex or a widened UV with an edited clip, a new envelope with a dropped triangle, and new
# vertices beside two re-weighted ones whose records become equal (they share one vertex). Each
# imports, validates strictly and converts back with every edit in it: weights and triangles read
# back by hsd_import_glb.py's glTF rules, the clip sampled by hsd_clips_glb.py's.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_import_combined
. "$HERE/cli_lib.sh"
edit() { python3 "$HERE/hsd_import_glb.py" "$@"; }
clip() { python3 "$HERE/hsd_clips_glb.py" "$@"; }
within() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$1" "$2"; }

expect_rc 0 "$UE" demo -o "$T/demo"
DAT="$T/demo/gamecube/dat/creature.dat"
expect_rc 0 "$UE" convert "$DAT" -o "$T/c.glb"

# back NAME: $T/NAME.glb imported (stderr kept in $T/NAME.err), valid strictly, converted to $T/NAMEb.glb.
back() {
  expect_rc 0 "$UE" import "$T/$1.glb" --base "$DAT" -o "$T/$1.dat"
  cp "$T/err" "$T/$1.err"
  expect_rc 0 "$UE" validate --strict "$T/$1.dat"
  expect_rc 0 "$UE" convert "$T/$1.dat" -o "$T/$1b.glb"
}
has() { grep -q "$2" "$T/$1.err" && ok || bad "$1: no '$2': $(cat "$T/$1.err")"; }
# clip_edited NAME: Animation_1 of $T/NAMEb.glb follows the edited glb's within the clip bound
# (tests/cli/cli_hsd_clips.sh), the turned key 30 degrees from the base's; Animation_0 as it was.
clip_edited() {
  has "$1" "^clips: 1 replaced, 0 added, 1 kept as the base has them$"
  read -r ROT TRA SCA <<<"$(clip compare "$T/$1.glb" "$T/$1b.glb" Animation_1)"
  within "$ROT" 3e-4 && within "$TRA" 1e-4 && within "$SCA" 3e-4 && ok || bad "$1: clip off by $ROT $TRA $SCA"
  read -r ROT TRA SCA <<<"$(clip compare "$T/c.glb" "$T/$1b.glb" Animation_1)"
  within 0.52 "$ROT" && within "$ROT" 0.53 && ok || bad "$1: the chest turned by $ROT rad, not 30 degrees"
  check "$1: Animation_0 kept" "$(clip same-anim "$T/c.glb" "$T/$1b.glb" Animation_0)" same
}

# ---- a re-weighted vertex and a turned clip key ---------------------------------------------------
edit weights "$T/c.glb" "$T/w.glb" root_mesh 0 3 chest:1 >/dev/null
check "turned key's frame" "$(clip turn "$T/w.glb" "$T/wc.glb" Animation_1 chest 10 x 30)" 11
back wc
has wc "^weights: 1 vertex given another envelope, 0 envelopes added$"
check "wc: re-weighted vertex" "$(edit skin "$T/wcb.glb" root_mesh 0 3)" chest:1
expect_rc 0 edit skin-check "$T/c.glb" "$T/wc.glb" "$T/wcb.glb" 1e-6
check "wc: vertices re-weighted" "$(cat "$T/out")" 1
check "wc: position kept" "$(edit value "$T/wcb.glb" root_mesh 0 POSITION 3)" "$(edit value "$T/c.glb" root_mesh 0 POSITION 3)"
clip_edited wc

# ---- a UV past its format (the torso's array widened to F32) and a turned clip key ---------------
edit set "$T/c.glb" "$T/u.glb" root_mesh 0 TEXCOORD_0 0 200,0.5 >/dev/null
clip turn "$T/u.glb" "$T/uc.glb" Animation_1 chest 10 x 30 >/dev/null
back uc
has uc "does not fit S16 with 8 fractional bits.*F32 .*\[import.hsd.widened\]"
check "uc: far UV" "$(edit value "$T/ucb.glb" root_mesh 0 TEXCOORD_0 0)" "200,0.5"
expect_rc 0 edit check "$T/c.glb" "$T/u.glb" "$T/ucb.glb" 0
clip_edited uc

# ---- a new envelope (chest 0.75, hips 0.25) and the torso's last triangle dropped -----------------
edit weights "$T/c.glb" "$T/n.glb" root_mesh 0 3 chest:0.75,hips:0.25 >/dev/null
edit drop-triangle "$T/n.glb" "$T/nd.glb" root_mesh 0
back nd
has nd "^weights: 1 vertex given another envelope, 1 envelope added$"
has nd "^rebuilt: 1 display list as strips (23 triangles)$"
# F32 positions through the new envelope's matrix and back: float precision; UVs exactly the base's.
expect_rc 0 edit tri-skin "$T/nd.glb" "$T/ndb.glb" root_mesh 0 1e-4 0
read -r TRIS BACK_V WANT_V <"$T/out"
check "nd: triangles" "$TRIS" 23
check "nd: vertices" "$BACK_V" "$WANT_V"
check "nd: re-weighted vertex" "$(edit skin-near "$T/ndb.glb" root_mesh 0 "$(edit value "$T/c.glb" root_mesh 0 POSITION 3)" 1e-4)" \
  chest:0.75,hips:0.25

# ---- new vertices and two re-weighted ones that become one record ---------------------------------
# The limbs (root_mesh 2): vertices 0 (arm_l) and 4 (arm_r) share their normal, UV and colour
# elements. Vertex 4 moved onto vertex 0 and both weighted arm_l 0.5 + arm_r 0.5 store the same
# position and normal in the new envelope: their records are equal and convert gives one vertex
# for both. A triangle subdivided around a new vertex (jaw) rebuilds the list at the same time.
edit copy "$T/c.glb" "$T/m1.glb" root_mesh 2 POSITION 0 4
check "m: vertices weighted" "$(edit weights "$T/m1.glb" "$T/m2.glb" root_mesh 2 0 arm_l:0.5,arm_r:0.5)" 2
edit subdivide "$T/m2.glb" "$T/m3.glb" root_mesh 2 4 jaw:1 >/dev/null
back m3
has m3 "^weights: 2 vertices given another envelope, 1 envelope added$"
has m3 "^new vertices: 1 appended$"
# The new vertex's UV (a third) in the limbs' S16 array with 8 fractional bits: within 1/512.
expect_rc 0 edit tri-skin "$T/m3.glb" "$T/m3b.glb" root_mesh 2 1e-4 0.001954
read -r TRIS BACK_V WANT_V <"$T/out"
check "m3: triangles" "$TRIS" 8
check "m3: vertices (12 of the base, 2 now one, 1 new)" "$BACK_V" 12
check "m3: distinct vertices of the edit" "$WANT_V" 12
# The same without new vertices: the list rebuilt for a dropped triangle.
edit drop-triangle "$T/m2.glb" "$T/m4.glb" root_mesh 2
back m4
expect_rc 0 edit tri-skin "$T/m4.glb" "$T/m4b.glb" root_mesh 2 1e-4 0
read -r TRIS BACK_V WANT_V <"$T/out"
check "m4: triangles" "$TRIS" 5
check "m4: vertices" "$BACK_V" "$WANT_V"
# The rebuilt DAT takes its own conversion back unchanged.
expect_rc 0 "$UE" import "$T/m3b.glb" --base "$T/m3.dat" -o "$T/m3again.dat"
cmp -s "$T/m3.dat" "$T/m3again.dat" && ok || bad "m3: re-import is not byte-identical"

finish
