#!/usr/bin/env bash
# import --base of an HSD model re-exported by real clients (docs/hsd-import.md#matching): gltf-transform's
# weld (vertices merged and renumbered) and Blender (vertices split, reordered, primitives merged,
# joints re-expressed without scale) import back byte for byte where the client kept the geometry, and
# a vertex moved after the client's re-export comes back as that move; vertices are matched by their
# triangles' geometry (the import says so with -v); the sample creature goes from its FSYS through Blender
# (edited: a part moved, a texture repainted, a new clip) into a copy of the FSYS. Each client is
# skipped, saying so, when missing.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_import_clients
. "$HERE/cli_lib.sh"
edit() { python3 "$HERE/hsd_import_glb.py" "$@"; }
CORPUS="$HERE/../../fuzz/corpus/dat"

expect_rc 0 "$UE" demo -o "$T/demo"
DAT="$T/demo/gamecube/dat/creature.dat"
expect_rc 0 "$UE" convert "$DAT" -o "$T/c.glb"

# ---- gltf-transform weld: the sample creature ---------------------------------------------------
if command -v node >/dev/null 2>&1 && [ -f "$HERE/../node_modules/@gltf-transform/functions/package.json" ]; then
  expect_rc 0 node "$HERE/../clients/gltf_transform.mjs" "$T/c.glb" "$T/w.glb" weld
  expect_rc 0 "$UE" import "$T/w.glb" --base "$DAT" -o "$T/w.dat" -v
  cmp -s "$DAT" "$T/w.dat" && ok || bad "the welded creature does not import back byte for byte"
  grep -q "import.hsd.geometry" "$T/err" && ok || bad "weld: no geometry match: $(cat "$T/err")"
  # A head vertex moved by 0.5 in x in the welded file: one position element (three records share it)
  # moves by 0.5 within the S16 format's step under the head's scale (at most 0.05).
  edit offset "$T/w.glb" "$T/w2.glb" head_mesh 0 POSITION 0 0.5,0,0 >/dev/null
  expect_rc 0 "$UE" import "$T/w2.glb" --base "$DAT" -o "$T/w2.dat"
  grep -q "^changed: 1 position, 0 normals, 0 UVs, 0 colours in 1 PObj, 0 images, 0 materials$" "$T/err" && ok ||
    bad "weld edit: $(cat "$T/err")"
  expect_rc 0 "$UE" convert "$T/w2.dat" -o "$T/w2b.glb"
  read -r N D < <(edit moved "$T/c.glb" "$T/w2b.glb" head_mesh)
  [ "$N" = 3 ] && ok || bad "weld edit moved $N vertices"
  python3 -c "import sys; d=[float(v) for v in '$D'.split(',')]; sys.exit(abs(d[0]-0.5) > 0.05 or abs(d[1]) > 0.05 or abs(d[2]) > 0.05)" &&
    ok || bad "weld edit moved by $D"
  check "other meshes" "$(edit moved "$T/c.glb" "$T/w2b.glb" root_mesh)" "0 "
else
  echo "$NAME: skipping gltf-transform: no node or npm @gltf-transform/functions (cd tests && npm ci)"
fi

# ---- Blender: synthetic rigs whose joints carry no scale ----------------------------------------
if command -v blender >/dev/null 2>&1; then
  blender_reexport() { # IN OUT [--move OBJECT DZ]
    blender -b --factory-startup --python "$HERE/blender_reexport.py" -- "$@" >"$T/blender.log" 2>&1 \
      && [ -s "$2" ] && ok || { bad "blender: $*"; tail -5 "$T/blender.log" >&2; }
  }
  for F in chains_and_clips rig_ten_envelopes rig_long_lists; do
    expect_rc 0 "$UE" convert "$CORPUS/$F.dat" -o "$T/$F.glb"
    blender_reexport "$T/$F.glb" "$T/${F}_bl.glb"
    expect_rc 0 "$UE" import "$T/${F}_bl.glb" --base "$CORPUS/$F.dat" -o "$T/${F}_bl.dat" -v
    cmp -s "$CORPUS/$F.dat" "$T/${F}_bl.dat" && ok || bad "$F: Blender's re-export does not import back byte for byte"
    grep -q "import.hsd.geometry" "$T/err" && ok || bad "$F: no geometry match: $(cat "$T/err")"
  done
  # One object moved up by 2 in Blender: its 9 positions move by (0, 2, 0), nothing else changes.
  blender_reexport "$T/chains_and_clips.glb" "$T/mv.glb" --move joint_001_mesh 2
  expect_rc 0 "$UE" import "$T/mv.glb" --base "$CORPUS/chains_and_clips.dat" -o "$T/mv.dat"
  grep -q "^changed: 9 positions, 0 normals, 0 UVs, 0 colours in 1 PObj, 0 images, 0 materials$" "$T/err" && ok ||
    bad "Blender move: $(cat "$T/err")"
  expect_rc 0 "$UE" validate --strict "$T/mv.dat"
  expect_rc 0 "$UE" convert "$T/mv.dat" -o "$T/mvb.glb"
  check "moved joint_001_mesh" "$(edit moved "$T/chains_and_clips.glb" "$T/mvb.glb" joint_001_mesh)" "9 0.000,2.000,0.000"
  check "kept joint_000_mesh" "$(edit moved "$T/chains_and_clips.glb" "$T/mvb.glb" joint_000_mesh)" "0 "

  # ---- Blender: the sample creature, from its FSYS and back (docs/hsd-import.md#from-the-game-to-blender-and-back)
  # Its head and jaw hang from joints with a non-uniform rest scale, which Blender's bones cannot hold.
  FSYS="$T/demo/gamecube/creature.fsys"
  cp "$FSYS" "$T/creature.orig.fsys"
  expect_rc 0 "$UE" convert "$FSYS:creature.pkx" -o "$T/cr.glb"
  blender_creature() { # IN OUT [--edit ...]
    blender -b --factory-startup --python "$HERE/blender_creature.py" -- "$@" >"$T/blender.log" 2>&1 \
      && [ -s "$2" ] && ok || { bad "blender: $*"; tail -5 "$T/blender.log" >&2; }
  }
  # Unedited: the DAT, and so the PKX and the FSYS, come back byte for byte (clips kept too).
  blender_creature "$T/cr.glb" "$T/cr_bl.glb"
  expect_rc 0 "$UE" import "$T/cr_bl.glb" --base "$DAT" -o "$T/cr_bl.dat" -v
  cmp -s "$DAT" "$T/cr_bl.dat" && ok || bad "the creature's Blender re-export does not import back byte for byte: $(tail -3 "$T/err")"
  grep -q "^changed: nothing (byte-identical to the base)$" "$T/err" && ok || bad "creature: $(tail -1 "$T/err")"
  expect_rc 0 "$UE" import "$T/cr_bl.glb" --base "$FSYS:creature.pkx" --into "$FSYS:creature.pkx" -o "$T/cr_bl.fsys"
  cmp -s "$FSYS" "$T/cr_bl.fsys" && ok || bad "the creature's unedited FSYS is not byte for byte"
  # Edited in Blender: the left arm (4 vertices weighted to arm_l alone) moved by +0.25 in x, the body
  # texture 'skin' (CMPR) painted with a checker of one colour per 4 x 4 block, a new action 'Wave'
  # keying arm_l at frames 0, 10 and 20 (24 fps).
  blender_creature "$T/cr.glb" "$T/cr_ed.glb" --edit root_mesh skin arm_l Wave
  expect_rc 0 "$UE" import "$T/cr_ed.glb" --base "$FSYS:creature.pkx" --into "$FSYS:creature.pkx" -o "$T/cr_ed.fsys"
  grep -q "^changed: 4 positions, 0 normals, 0 UVs, 0 colours in 1 PObj, 1 image, 0 materials$" "$T/err" && ok ||
    bad "Blender edit: $(cat "$T/err")"
  grep -q "^clips: 0 replaced, 1 added, 2 kept as the base has them$" "$T/err" && ok || bad "Blender clip: $(cat "$T/err")"
  grep -q "import.hsd.clip" "$T/err" && bad "Blender's re-expressed rests taken for rest edits: $(cat "$T/err")" || ok
  expect_rc 0 "$UE" validate --strict "$T/cr_ed.fsys"
  cmp -s "$FSYS" "$T/creature.orig.fsys" && ok || bad "the original creature.fsys changed"
  expect_rc 0 "$UE" convert "$T/cr_ed.fsys:creature.pkx" -o "$T/cr_edb.glb"
  # The arm's positions moved by (0.25, 0, 0) (arm_l's chain holds no scale: Blender's x is the
  # base's), within the S16 format's step; the head's mesh is untouched.
  check "moved arm" "$(edit moved "$T/cr.glb" "$T/cr_edb.glb" root_mesh)" "4 0.250,0.000,0.000"
  check "kept head" "$(edit moved "$T/cr.glb" "$T/cr_edb.glb" head_mesh)" "0 "
  # CMPR holds a 4 x 4 block of one colour as its RGB565 value: every texel of the checker so.
  expect_rc 0 edit expect-image "$T/cr_edb.glb" skin checker RGB565 "$T/cr.glb"
  # The new clip is the ModelSet's third (convert names it Animation_2); arm_l turns as Blender keyed
  # it at its keyframes, within the 3e-4 rad the import bounds a converted-back rotation by.
  A=$(edit rotation-angle "$T/cr_ed.glb" Wave "$T/cr_edb.glb" Animation_2 arm_l 0 0.4166667 0.8333333)
  python3 -c "import sys; sys.exit(not float('$A') <= 3e-4)" && ok || bad "Wave's arm_l differs by $A rad"
  # ... and is not the rest: the keyed turn of 0.6 rad is there.
  A=$(edit rotation-angle "$T/cr.glb" Animation_0 "$T/cr_edb.glb" Animation_2 arm_l 0.4166667)
  python3 -c "import sys; sys.exit(not abs(float('$A') - 0.6) < 1e-3)" && ok || bad "Wave's arm_l at frame 10 turned by $A rad"
  # Wave keys no scale of the head (Blender's bones hold none): it keeps the base's 1.5 x 1 x 0.8 at every frame.
  S=$(python3 "$HERE/hsd_clips_glb.py" scales "$T/cr_edb.glb" Animation_2 head)
  python3 -c "import sys; sys.exit(not float('$S') <= 1e-4)" && ok || bad "Wave's head scale leaves its rest by $S"
else
  echo "$NAME: skipping Blender: no blender binary"
fi
finish
