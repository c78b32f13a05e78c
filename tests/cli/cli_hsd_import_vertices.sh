#!/usr/bin/env bash
# import --base with new vertices (docs/hsd-import.md#new-vertices): a triangle subdivided around a
# new centre vertex in a rigid PObj (the head) and in an envelope PObj (the torso, the new vertex
# weighted between two joints), an extruded triangle and 260 vertices along one edge (8-bit indices
# widened to 16): each imports, validates strictly and converts back with exactly the edited
# triangle count, the new vertices within their format's step of the glTF's (and with their
# weights), every other vertex and every other primitive exactly the base's.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_import_vertices
. "$HERE/cli_lib.sh"
edit() { python3 "$HERE/hsd_import_glb.py" "$@"; }

expect_rc 0 "$UE" demo -o "$T/demo"
DAT="$T/demo/gamecube/dat/creature.dat"
expect_rc 0 "$UE" convert "$DAT" -o "$T/c.glb"
edit triangles "$T/c.glb" >"$T/before"

# back NAME NODE PRIM TRIANGLES: $T/NAME.glb imported, valid strictly, converted back to $T/NAMEb.glb
# with TRIANGLES triangles in NODE's primitive PRIM and every other primitive's triangles the base's.
back() {
  expect_rc 0 "$UE" import "$T/$1.glb" --base "$DAT" -o "$T/$1.dat"
  cp "$T/err" "$T/$1.err"
  expect_rc 0 "$UE" validate --strict "$T/$1.dat"
  expect_rc 0 "$UE" convert "$T/$1.dat" -o "$T/$1b.glb"
  check "$1: triangles" "$(edit count-triangles "$T/$1b.glb" "$2" "$3")" "$4"
  edit triangles "$T/$1b.glb" | grep -v "^$2/$3:" >"$T/got"
  grep -v "^$2/$3:" "$T/before" | cmp -s - "$T/got" && ok || bad "$1: other primitives changed"
}

check "head triangles before" "$(edit count-triangles "$T/c.glb" head_mesh 0)" 12
check "torso triangles before" "$(edit count-triangles "$T/c.glb" root_mesh 0)" 24

# ---- the head: rigid, S16 positions with 4 fractional bits under the head's 1.5 x 1 x 0.8 scale ----
# A stored step of 1/16 rounds by at most 1/32 per component: in the world at most
# |(1.5, 1, 0.8)| / 32 = 0.0617 per component.
HEAD_TOL=$(python3 -c 'print((1.5 ** 2 + 1 + 0.8 ** 2) ** 0.5 / 32)')
edit subdivide "$T/c.glb" "$T/h1.glb" head_mesh 0 0 >/dev/null
back h1 head_mesh 0 14
grep -q "^rebuilt: 1 display list as strips (14 triangles)$" "$T/h1.err" && ok || bad "h1: $(cat "$T/h1.err")"
grep -q "^new vertices: 1 appended$" "$T/h1.err" && ok || bad "h1: $(cat "$T/h1.err")"
# 14 triangles each within the step of the edit's, one vertex new, every other exactly the base's
# (the centre's UV, a direct U8 with 7 fractional bits in the head's records, within 1/256).
expect_rc 0 edit tri-match "$T/c.glb" "$T/h1.glb" "$T/h1b.glb" head_mesh 0 "$HEAD_TOL" 0.003907
check "h1: triangles and new vertices" "$(cat "$T/out")" "14 1"
# The rebuilt DAT takes its own conversion back unchanged.
expect_rc 0 "$UE" import "$T/h1b.glb" --base "$T/h1.dat" -o "$T/h1again.dat"
cmp -s "$T/h1.dat" "$T/h1again.dat" && ok || bad "h1: re-import is not byte-identical"

# An extruded head triangle: 3 new vertices (its corners raised by 0.5), +6 triangles.
check "extruded vertices" "$(edit extrude "$T/c.glb" "$T/x1.glb" head_mesh 0 2 0.5)" 27
back x1 head_mesh 0 18
expect_rc 0 edit tri-match "$T/c.glb" "$T/x1.glb" "$T/x1b.glb" head_mesh 0 "$HEAD_TOL"
check "x1: triangles and new vertices" "$(cat "$T/out")" "18 3"

# ---- the torso: an envelope PObj (F32 positions), the new vertex between chest and hips --------
P=$(edit subdivide "$T/c.glb" "$T/t1.glb" root_mesh 0 5 chest:0.6,hips:0.4)
back t1 root_mesh 0 26
grep -q "^weights: 0 vertices given another envelope, 1 envelope added$" "$T/t1.err" && ok || bad "t1: $(cat "$T/t1.err")"
# F32 positions through the envelope's matrix and back: float precision (1e-4 at these sizes); its
# UV in the torso's S16 array with 8 fractional bits, within 1/512.
expect_rc 0 edit tri-match "$T/c.glb" "$T/t1.glb" "$T/t1b.glb" root_mesh 0 1e-4 0.001954
check "t1: triangles and new vertices" "$(cat "$T/out")" "26 1"
check "t1: the new vertex's weights" "$(edit skin-near "$T/t1b.glb" root_mesh 0 "$P" 1e-4)" "chest:0.6,hips:0.4"
# Weights of an envelope the torso has (chest 0.5, hips 0.5): no envelope added.
P=$(edit subdivide "$T/c.glb" "$T/t2.glb" root_mesh 0 7 chest:0.5,hips:0.5)
back t2 root_mesh 0 26
grep -q "^weights:" "$T/t2.err" && bad "t2 added an envelope: $(cat "$T/t2.err")" || ok
check "t2: the new vertex's weights" "$(edit skin-near "$T/t2b.glb" root_mesh 0 "$P" 1e-4)" "chest:0.5,hips:0.5"

# 260 vertices along one edge: the torso's normals and UVs (8-bit indices, 27 elements) pass 255.
edit split-edge "$T/c.glb" "$T/s1.glb" root_mesh 0 3 260 chest:0.6,hips:0.4 >/dev/null
back s1 root_mesh 0 284
grep -q "PObj 0: new vertices' elements of attribute 13 lie past index 255; its indices are widened from 8 to 16 bits \[import.hsd.widened\]" \
  "$T/s1.err" && ok || bad "s1: $(cat "$T/s1.err")"
expect_rc 0 edit tri-match "$T/c.glb" "$T/s1.glb" "$T/s1b.glb" root_mesh 0 1e-4 0.001954
check "s1: triangles and new vertices" "$(cat "$T/out")" "284 260"

# ---- refusals -----------------------------------------------------------------------------------
# A new vertex of the rigid head weighted to the chest: the head takes no envelopes.
edit subdivide "$T/c.glb" "$T/r1.glb" head_mesh 0 0 chest:1 >/dev/null
expect_rc 1 "$UE" import "$T/r1.glb" --base "$DAT" -o "$T/r1.dat"
grep -q "giving it envelopes is a later step \[import.hsd.weights\]" "$T/err" && ok || bad "r1: $(cat "$T/err")"
[ ! -e "$T/r1.dat" ] && ok || bad "r1.dat was written"

finish
