#!/usr/bin/env bash
# End-to-end tests of the model verbs on the sample robot: info values, per-model validation,
# round trips, convert to .glb/.gltf/.obj (every glTF through the Khronos validator), LOD and
# group selection, archives and ARCHIVE:ENTRY, parallel jobs, and damaged models.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_model
. "$HERE/cli_lib.sh"
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
json_field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"
A="$T/demo/parkan/objects.rlb"

# info: the robot's tables, counted by the writer that built it
expect_rc 0 "$UE" info --json "$R"
[ "$(json_field "$T/out" 'd["nodes"]')" = 6 ] && ok || bad "info nodes"
[ "$(json_field "$T/out" 'd["lods"]')" = 2 ] && ok || bad "info lods"
[ "$(json_field "$T/out" 'd["groups"]')" = 2 ] && ok || bad "info groups"
[ "$(json_field "$T/out" 'd["batches"]')" = 10 ] && ok || bad "info batches"
[ "$(json_field "$T/out" 'd["triangles_per_lod"]')" = "[84, 18, 0]" ] && ok || bad "info triangles per LOD"
[ "$(json_field "$T/out" 'd["node_table"][2]["name"]')" = None ] && ok || bad "unnamed node"
expect_rc 0 "$UE" info "$R"
grep -q "arm_left" "$T/out" && ok || bad "info lacks node names"

# validate: archives report every model inside
expect_rc 0 "$UE" validate "$A"
grep -q "model .*ROBOT.msh: valid (6 nodes, 10 batches" "$T/out" && ok || bad "per-model summary"
expect_rc 0 "$UE" validate --json "$A"
# the archive's three textures come first, then the model (in directory order)
[ "$(json_field "$T/out" '[m["triangles"] for m in d[0]["models"] if m["model"].endswith(":ROBOT.msh")]')" = "[102]" ] && ok || bad "validate --json models"

# roundtrip: container bytes and every decoded table
expect_rc 0 "$UE" roundtrip "$R" "$A"
[ "$(grep -c 'tables decoded and re-encoded' "$T/out")" = 2 ] && ok || bad "model table round trip"

# convert: glb, gltf + bin, obj + mtl; all glTF through the validator
expect_rc 0 "$UE" convert "$R" -o "$T/robot.glb"
validate_gltf "$T/robot.glb"
expect_rc 0 "$UE" convert "$R" -o "$T/robot.gltf"
[ -f "$T/robot.bin" ] && ok || bad "no .bin beside .gltf"
validate_gltf "$T/robot.gltf"
[ "$(json_field "$T/robot.gltf" 'len(d["nodes"])')" = 7 ] && ok || bad "7 nodes (root + 6)"
[ "$(json_field "$T/robot.gltf" 'd["nodes"][1]["name"]')" = body ] && ok || bad "node names from Res10"
[ "$(json_field "$T/robot.gltf" 'd["nodes"][3]["name"]')" = node_2 ] && ok || bad "unnamed node name"
[ "$(json_field "$T/robot.gltf" 'sum(d["accessors"][p["indices"]]["count"] for m in d["meshes"] for p in m["primitives"])')" = 216 ] \
  && ok || bad "LOD 0, group 0 index count (72 triangles: the dented body of group 1 is not drawn)"
[ "$(json_field "$T/robot.gltf" '"COLOR_0" in d["meshes"][0]["primitives"][0]["attributes"]')" = True ] && ok || bad "vertex colours"
expect_rc 0 "$UE" convert "$R" -o "$T/robot1.gltf" --lod 1
validate_gltf "$T/robot1.gltf"
[ "$(json_field "$T/robot1.gltf" 'sum(d["accessors"][p["indices"]]["count"] for m in d["meshes"] for p in m["primitives"])')" = 54 ] \
  && ok || bad "LOD 1 index count (18 triangles)"
expect_rc 0 "$UE" convert "$R" -o "$T/robot_g1.gltf" --group 1
[ "$(json_field "$T/robot_g1.gltf" 'len(d["meshes"])')" = 1 ] && ok || bad "group 1 holds one mesh"
# an existing .bin or .gltf refuses the run (exit 2) and nothing is written
cp "$T/robot.bin" "$T/taken.bin"
expect_rc 2 "$UE" convert "$R" -o "$T/taken.gltf"
[ ! -e "$T/taken.gltf" ] && ok || bad ".gltf written although its .bin exists"
touch "$T/only.gltf"
expect_rc 2 "$UE" convert "$R" -o "$T/only.gltf"
[ ! -e "$T/only.bin" ] && ok || bad "orphan .bin left by a refused run"
# robot.gltf's PNG files (robot.IMAGE.png) are the ones robot.obj's MTL would name: refused
expect_rc 2 "$UE" convert "$R" -o "$T/robot.obj"
[ ! -e "$T/robot.obj" ] && [ ! -e "$T/robot.mtl" ] && ok || bad "a refused OBJ left a file"
expect_rc 0 "$UE" convert "$R" -o "$T/obj/robot.obj"
[ "$(grep -c '^f ' "$T/obj/robot.obj")" = 72 ] && ok || bad "OBJ face count"
[ -f "$T/obj/robot.mtl" ] && ok || bad "no .mtl"
expect_rc 2 "$UE" convert "$R" -o "$T/robot.glb"            # exists without -f
expect_rc 0 "$UE" convert "$R" -o "$T/robot.glb" -f
# deterministic output
cp "$T/robot.glb" "$T/first.glb"
expect_rc 0 "$UE" convert "$R" -o "$T/robot.glb" -f
cmp -s "$T/robot.glb" "$T/first.glb" && ok || bad "convert is not deterministic"

# archives, ARCHIVE:ENTRY, directories, -r and -j
expect_rc 0 "$UE" convert "$A:ROBOT.msh" -o "$T/entry.glb"
cmp -s "$T/entry.glb" "$T/first.glb" || true  # names differ (root node), only validity matters
validate_gltf "$T/entry.glb"
expect_rc 0 "$UE" convert "$A" -o "$T/outdir"
[ -f "$T/outdir/ROBOT.glb" ] && ok || bad "archive convert to directory"
expect_rc 2 "$UE" convert "$A" "$R" -o "$T/two.glb"           # two models, one file
expect_rc 0 "$UE" convert -r "$T/demo" -o "$T/all" -j 2 --format gltf
# the robot twice (objects.rlb, robot.msh) and the creature three times (creature.fsys,
# creature.pkx, dat/creature.dat), mirrored under the sample pack's folders
n=$(find "$T/all" -name '*.gltf' | wc -l); [ "$n" = 5 ] && ok || bad "-r found $n models, want 5"
validate_gltf "$T/all/parkan/robot.gltf" "$T/all/parkan/objects.rlb/ROBOT.gltf"
expect_rc 1 "$UE" convert "$T/demo/parkan/sprites_demo.lib" -o "$T/none.glb"   # no models
[ ! -e "$T/none.glb" ] && ok || bad "output written without models"

# damaged model: batch 0's base vertex points past the vertex stream
mkdir -p "$T/d"; python3 "$HERE/damaged_files.py" "$T/demo" "$T/d" >/dev/null   # tests/cli/damaged_files.py
cp "$T/d/msh_batch.msh" "$T/damaged.msh"
expect_rc 1 "$UE" validate "$T/damaged.msh"
grep -q "msh/res13/batch\[0\]" "$T/err" && ok || bad "diagnostic names the batch"
expect_rc 1 "$UE" convert "$T/damaged.msh" -o "$T/damaged.glb"
[ ! -e "$T/damaged.glb" ] && ok || bad "strict convert left a file"
expect_rc 1 "$UE" convert --tolerant "$T/damaged.msh" -o "$T/damaged.glb"   # written, but a batch is lost
validate_gltf "$T/damaged.glb"
[ "$(node -e "const b=require('fs').readFileSync('$T/damaged.glb');const n=b.readUInt32LE(12);const j=JSON.parse(b.slice(20,20+n));let c=0;for(const m of j.meshes)c+=m.primitives.length;console.log(c)")" = 5 ] \
  && ok || bad "tolerant convert keeps the 5 intact LOD-0 group-0 batches"

# edit: rename, move, replace a slot from an OBJ; the result validates and converts
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvn 0 0 1\nf 1//1 2//1 4//1 3//1\n' > "$T/quad.obj"
expect_rc 0 "$UE" edit "$R" -o "$T/edited.msh" --rename-node 2 antenna --translate 0 0 1 \
  --replace-slot 0 "$T/quad.obj" --material 3
expect_rc 0 "$UE" validate --strict "$T/edited.msh"
expect_rc 0 "$UE" info --json "$T/edited.msh"
[ "$(json_field "$T/out" 'd["node_table"][2]["name"]')" = antenna ] && ok || bad "rename-node"
[ "$(json_field "$T/out" 'd["triangles_per_lod"][0]')" = 74 ] && ok || bad "replace-slot: 84 - 12 + 2 triangles"
[ "$(json_field "$T/out" 'd["vertices"]')" = 220 ] && ok || bad "replace-slot: 216 + 4 vertices"
expect_rc 0 "$UE" convert "$T/edited.msh" -o "$T/edited.gltf"
validate_gltf "$T/edited.gltf"
# the legs mesh moved up by 1 (engine Z = glTF Y) relative to the unedited conversion
y0=$(json_field "$T/robot.gltf" '[a["min"][1] for m in d["meshes"] if m["name"]=="legs_lod0" for a in [d["accessors"][m["primitives"][0]["attributes"]["POSITION"]]]][0]')
y1=$(json_field "$T/edited.gltf" '[a["min"][1] for m in d["meshes"] if m["name"]=="legs_lod0" for a in [d["accessors"][m["primitives"][0]["attributes"]["POSITION"]]]][0]')
python3 -c "import sys; sys.exit(0 if abs(($y1) - ($y0) - 1.0) < 1e-5 else 1)" && ok || bad "translate: legs min y $y0 -> $y1"
[ "$(json_field "$T/edited.gltf" 'len([m for m in d["materials"] if m["name"]=="material_3"])')" = 1 ] && ok || bad "--material row"
expect_rc 2 "$UE" edit "$R" -o "$T/e2.msh" --rename-node 99 x
[ ! -e "$T/e2.msh" ] && ok || bad "failed edit left a file"
expect_rc 2 "$UE" edit "$R" -o "$T/e2.msh" --scale
printf 'v 0 0 0\nf 1 2 3\n' > "$T/bad.obj"
expect_rc 1 "$UE" edit "$R" -o "$T/e3.msh" --replace-slot 0 "$T/bad.obj"
grep -q "obj/line\[2\]" "$T/err" && ok || bad "bad OBJ names its line"
[ ! -e "$T/e3.msh" ] && ok || bad "failed edit left a file"

finish
