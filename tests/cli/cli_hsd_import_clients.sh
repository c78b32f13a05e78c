#!/usr/bin/env bash
# import --base of an HSD model re-exported by real clients (docs/hsd-import.md#matching): gltf-transform's
# weld (vertices merged and renumbered) and Blender (vertices split, reordered, primitives merged,
# joints re-expressed without scale) import back byte for byte where the client kept the geometry, and
# a vertex moved after the client's re-export comes back as that move; vertices are matched by their
# triangles' geometry (the import says so with -v). Each client is skipped, saying so, when missing.
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
else
  echo "$NAME: skipping Blender: no blender binary"
fi
finish
