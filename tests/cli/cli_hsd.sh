#!/usr/bin/env bash
# End-to-end tests of HSD .dat models on the sample creature: convert through the FSYS, the PKX,
# PKX:ENTRY and the bare DAT (Khronos validator, 0 errors), bind-pose vertices by the glTF rule
# against the hand-worked values of docs/hsd-creature.md, info/validate/roundtrip outputs,
# --scale, and damaged DATs (exit 1, offset and path named, no output; --tolerant keeps the rest).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd
. "$HERE/cli_lib.sh"
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
SCHEMA="$HERE/../../docs/schema"
schema_ok() { # schema_ok SCHEMA_NAME FILE...
  local s=$1; shift
  if node "$HERE/../json_schema_check.mjs" "$SCHEMA/$s.schema.json" "$@" >"$T/val" 2>&1; then ok
  else bad "schema $s: $*"; cat "$T/val" >&2; fi
}
json_field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
glb() { python3 "$HERE/hsd_glb.py" "$@"; }
check() { # check WHAT WANT GOT
  [ "$3" = "$2" ] && ok || bad "$1: got '$3', want '$2'"
}

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"
expect_rc 0 "$UE" extract "$G/creature.pkx" -o "$T/x"
DAT="$T/creature.dat"; cp "$T/x/entries/0000_model.dat" "$DAT"

# convert: every way in gives a valid glTF with the same model
for IN in "$G/creature.fsys" "$G/creature.pkx" "$G/creature.pkx:model.dat" "$G/creature.fsys:creature.pkx:model.dat" "$DAT"; do
  rm -f "$T/c.glb"
  expect_rc 0 "$UE" convert "$IN" -o "$T/c.glb"
  validate_gltf "$T/c.glb"
  check "skin joints of $IN" "root,hips,chest,head,jaw,arm_l,arm_r,tail" "$(glb "$T/c.glb" skin-joints)"
done
expect_rc 0 "$UE" convert "$G/creature.fsys" -o "$T/fsys.glb"
expect_rc 0 "$UE" convert "$G/creature.pkx" -o "$T/pkx.glb"
cmp -s "$T/fsys.glb" "$T/pkx.glb" && ok || bad "the FSYS and the PKX give different glTF"
grep -q '"unearth_source"' "$T/c.glb" && ok || bad "no unearth_source extras"

# Bind pose, by the glTF rule (Σ w·World·IBM·v, computed in hsd_glb.py): the examples of
# docs/hsd-creature.md, worked out by hand from the joints (hips, chest, tail, arm_l, the jaw —
# whose compensated local matrix is sheared —, the head box and an eye corner).
check "World·IBM at bind" yes "$(glb "$T/c.glb" bind-is-identity)"
while read -r x y z what; do
  check "vertex $what" yes "$(glb "$T/c.glb" has-point "$x" "$y" "$z")"
done <<'EOF'
-1 2 1 position-0-hips
-0.552659 5.854277 1.258880 position-8-chest
0 0.706610 -2.741767 position-17-tail
2.452219 5.142518 -0.736014 position-20-arm_l
0.855494 6.354250 0.735261 position-28-jaw
1.163174 7.644401 0.587855 head-corner
-0.461947 7.018948 1.044548 eye-corner
EOF
# the root joint node's source: the JObj's data offset, read here from the DAT's own pointers
# (scene_data → SceneDesc → ModelSet[0] → JObj)
JOBJ=$(python3 - "$DAT" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
fs, ds, nr = struct.unpack_from(">3I", d, 0)
root = struct.unpack_from(">I", d, 0x20 + ds + 4 * nr)[0]
u = lambda o: struct.unpack_from(">I", d, 0x20 + o)[0]
print(u(u(u(root))))
EOF
)
check "root joint source offset" "$JOBJ" "$(glb "$T/c.glb" source root)"

# --scale scales the skinned model too (the sample's largest coordinate is the head's top)
E1=$(glb "$T/c.glb" extent)
expect_rc 0 "$UE" convert "$DAT" -o "$T/s.glb" --scale 0.1
validate_gltf "$T/s.glb"
python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if abs(b-a/10)<1e-4 else 1)" "$E1" "$(glb "$T/s.glb" extent)" \
  && ok || bad "--scale 0.1: extent $E1 → $(glb "$T/s.glb" extent)"

# ... and the Parkan family alike: the robot's root node takes the factor
expect_rc 0 "$UE" convert "$T/demo/parkan/robot.msh" -o "$T/robot.gltf" --scale 2
check "robot root scale" "[2, 2, 2]" "$(json_field "$T/robot.gltf" 'd["nodes"][d["scenes"][0]["nodes"][0]]["scale"]')"
expect_rc 2 "$UE" convert "$DAT" -o "$T/bad.glb" --scale 0

# convert -r finds the creature inside the FSYS and the PKX (and the bare DAT of dat/), named after the PKX (the FSYS entry
# creature.pkx, the file creature.pkx), never after the PKX's own "model.dat"
expect_rc 0 "$UE" convert -r "$G" -o "$T/all"
for m in creature.fsys/creature.glb creature.glb dat/creature.glb; do   # mirrored chains, the bare DAT
  [ -s "$T/all/$m" ] && ok || bad "convert -r: no $m in $(cd "$T/all" && find . -name '*.glb')"
done
[ "$(find "$T/all" -name '*.glb' | wc -l)" = 3 ] && ok || bad "convert -r: not exactly 3 models"

# info, validate, roundtrip
expect_rc 0 "$UE" info "$DAT"
grep -q "HAL SysDolphin .dat model" "$T/out" && ok || bad "info: no description"
grep -q "root 0: scene_data (scene_data) @0x20" "$T/out" && ok || bad "info: root list"
grep -q "models 1, joints 8, meshes 5 (6 PObjs), materials 4, textures 4 (6 images)" "$T/out" && ok || bad "info counts: $(cat "$T/out")"
expect_rc 0 "$UE" info --json "$G/creature.pkx:model.dat"
check "info --json format" hsd "$(json_field "$T/out" 'd["format"]')"
check "info --json joints" 8 "$(json_field "$T/out" 'd["joints"]')"
check "info --json root kind" scene_data "$(json_field "$T/out" 'd["roots"][0]["kind"]')"
cp "$T/out" "$T/info.json"; schema_ok info "$T/info.json"
expect_rc 0 "$UE" validate "$DAT"
grep -q "valid (8 joints, 5 meshes, 6 PObjs, 80 vertices, 52 triangles, 0 errors, 0 warnings)" "$T/out" && ok || bad "validate: $(cat "$T/out")"
expect_rc 0 "$UE" validate --json "$G/creature.fsys"
check "validate --json model triangles" 52 "$(json_field "$T/out" 'd[0]["models"][0]["triangles"]')"
check "validate --json model nodes (joints)" 8 "$(json_field "$T/out" 'd[0]["models"][0]["nodes"]')"
cp "$T/out" "$T/validate.json"; schema_ok validate "$T/validate.json"
expect_rc 0 "$UE" roundtrip "$DAT" "$G/creature.pkx" "$G/creature.fsys"
[ "$(grep -c "identical (DAT re-serialised" "$T/out")" = 3 ] && ok || bad "roundtrip: $(cat "$T/out")"

# Damage. The PObj's display list made longer than the data block; its pointer set outside it;
# the file cut in half. Strict: exit 1, the offset and struct path named, no output.
read -r POBJ < <(python3 - "$DAT" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
fs, ds, nr = struct.unpack_from(">3I", d, 0)
root = struct.unpack_from(">I", d, 0x20 + ds + 4 * nr)[0]
u = lambda o: struct.unpack_from(">I", d, 0x20 + o)[0]
print(u(u(u(u(u(root))) + 0x10) + 0x0C))
EOF
)
python3 - "$DAT" "$POBJ" "$T" <<'EOF'
import struct, sys
src, p, t = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = bytearray(open(src, "rb").read()); struct.pack_into(">H", d, 0x20 + p + 0x0E, 0x7FFF)
open(t + "/dl.dat", "wb").write(d)
d = bytearray(open(src, "rb").read()); ds = struct.unpack_from(">I", d, 4)[0]
struct.pack_into(">I", d, 0x20 + p + 0x10, ds + 0x100); open(t + "/ptr.dat", "wb").write(d)
d = open(src, "rb").read(); open(t + "/cut.dat", "wb").write(d[:len(d) // 2])
EOF
DL_AT=$(printf '0x%x' $((0x20 + POBJ + 0x0E)))   # the n_display field
expect_rc 1 "$UE" convert "$T/dl.dat" -o "$T/dl.glb"
grep -q "dat/joint\[0\]/dobj\[0\]/pobj\[0\]/dl @$DL_AT: .*runs past the data block \[hsd.pobj.dl\]" "$T/err" && ok || bad "dl message: $(cat "$T/err")"
[ ! -e "$T/dl.glb" ] && ok || bad "damaged DAT left an output"
PTR_AT=$(printf '0x%x' $((0x20 + POBJ + 0x10)))
expect_rc 1 "$UE" convert "$T/ptr.dat" -o "$T/ptr.glb"
# the relocated word past the block is an error where a structure follows it (the PObj's list)
grep -q "dat/joint\[0\]/dobj\[0\]/pobj\[0\]/dl @$PTR_AT: .*not a pointer into the .*data block \[hsd.pointer.outside\]" "$T/err" && ok || bad "pointer message: $(cat "$T/err")"
[ ! -e "$T/ptr.glb" ] && ok || bad "damaged DAT left an output"
expect_rc 1 "$UE" convert "$T/cut.dat" -o "$T/cut.glb"
# a cut .dat is read as a DAT by its name: its data block no longer fits
grep -q "dat/header/data_size @0x4: data block of 0x1a60 bytes does not fit .*\[dat.data_size\]" "$T/err" && ok || bad "cut message: $(cat "$T/err")"
# another file called .dat (no DAT header) is still no model: "not a container", not a DAT error
printf 'hello world, a text file\n' > "$T/notes.dat"
expect_rc 1 "$UE" validate "$T/notes.dat"
grep -q "archive.unknown" "$T/err" && ! grep -q "dat\." "$T/err" && ok || bad "notes.dat: $(cat "$T/err")"
expect_rc 1 "$UE" validate "$T/cut.dat"
grep -q "dat.data_size" "$T/err" "$T/out" && ok || bad "validate cut.dat: $(cat "$T/out" "$T/err")"
[ ! -e "$T/cut.glb" ] && ok || bad "truncated DAT left an output"
expect_rc 1 "$UE" validate "$T/dl.dat"
grep -q "dat/joint\[0\]/dobj\[0\]/pobj\[0\]/dl @$DL_AT: .*\[hsd.pobj.dl\]" "$T/err" "$T/out" && ok \
  || bad "validate names the PObj by its owner: $(cat "$T/err")"
# --tolerant converts what is intact (the torso PObj dropped, the rest kept) and says so
expect_rc 1 "$UE" convert --tolerant "$T/dl.dat" -o "$T/dl.glb"
grep -q "DAMAGED (1 part dropped" "$T/err" && ok || bad "tolerant verdict: $(cat "$T/err")"
validate_gltf "$T/dl.glb"
check "tolerant keeps the head" yes "$(glb "$T/dl.glb" has-point 1.163174 7.644401 0.587855)"
check "tolerant drops the torso" no "$(glb "$T/dl.glb" has-point -0.552659 5.854277 1.258880)"

finish
