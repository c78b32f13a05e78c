#!/usr/bin/env bash
# End-to-end tests of output names (docs/text.md#outputs-of-one-run): the one de-duplication rule
# of convert (several models), convert -r and textures, with clashes found ignoring case; models
# of PKX/FSYS/LZSS chains named after the entry that holds them; format options in a run of
# several models given only to the formats that have them, and noted once.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_names
. "$HERE/cli_lib.sh"
# files DIR: every file below DIR, relative, sorted by bytes, on one line
files() { (cd "$1" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' '); }
# case_clashes DIR: the paths below DIR (files and folders) that another path equals ignoring
# case (Python's str.lower: every script), one per line; empty when there is none
case_clashes() {
  python3 -c '
import os, sys, collections
seen = collections.defaultdict(list)
for top, dirs, names in os.walk(sys.argv[1]):
    for n in dirs + names:
        p = os.path.relpath(os.path.join(top, n), sys.argv[1])
        seen[p.lower()].append(p)
print("\n".join(p for ps in seen.values() if len(ps) > 1 for p in ps))' "$1"
}
# glb_root FILE: the name of the glTF scene's first root node
glb_root() {
  python3 -c '
import json, struct, sys
b = open(sys.argv[1], "rb").read()
n = struct.unpack("<I", b[12:16])[0]
d = json.loads(b[20:20 + n])
print(d["nodes"][d["scenes"][0]["nodes"][0]]["name"])' "$1"
}

expect_rc 0 "$UE" demo -o "$T/demo"
P="$T/demo/parkan"; G="$T/demo/gamecube"

# ---- one archive holding ROBOT.msh and robot.msh (the same model twice) ----------------------
expect_rc 0 "$UE" extract "$P/objects.rlb" -o "$T/tw"
python3 - "$T/tw/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
robot = [e for e in m['entries'] if e['name'] == 'ROBOT.msh'][0]
twin = dict(robot); twin['name'] = 'robot.msh'; del twin['name_hex']; twin['index'] = len(m['entries'])
m['entries'].append(twin)
json.dump(m, open(sys.argv[1], 'w'), indent=1)
PY
expect_rc 0 "$UE" pack "$T/tw" -o "$P/twin.rlb"   # beside Material.lib, so textures finds them
expect_rc 0 "$UE" list "$P/twin.rlb"
grep -q ' ROBOT.msh ' "$T/out" && grep -q ' robot.msh ' "$T/out" && ok || bad "twin.rlb lacks a twin: $(cat "$T/out")"

# convert of several models: the first in directory order keeps the name, the other takes ~2
expect_rc 0 "$UE" convert "$P/twin.rlb" -o "$T/c1"
check "convert names" "$(files "$T/c1")" "ROBOT.glb robot~2.glb "
check "convert: no case clash" "$(case_clashes "$T/c1")" ""
expect_rc 0 "$UE" convert "$P/twin.rlb:robot.msh" -o "$T/one.glb"
cmp -s "$T/one.glb" "$T/c1/robot~2.glb" && ok || bad "robot~2.glb is not robot.msh's conversion"
# OBJ: the .mtl beside each output follows the output's name
expect_rc 0 "$UE" convert "$P/twin.rlb" -o "$T/c1o" --format obj
# and its PNG files follow the .mtl's name (MTL.IMAGE.png), so two models' textures never meet
check "convert OBJ names" "$(files "$T/c1o")" "ROBOT.ROBOT_ARM_0.png ROBOT.ROBOT_BODY_0.png ROBOT.ROBOT_HEAD_phases.png ROBOT.ROBOT_LEG_0.png ROBOT.mtl ROBOT.obj robot~2.ROBOT_ARM_0.png robot~2.ROBOT_BODY_0.png robot~2.ROBOT_HEAD_phases.png robot~2.ROBOT_LEG_0.png robot~2.mtl robot~2.obj "
check "convert OBJ: no case clash" "$(case_clashes "$T/c1o")" ""
grep -qx 'map_Kd robot~2.ROBOT_ARM_0.png' "$T/c1o/robot~2.mtl" && ok || bad "robot~2.mtl names another model's PNG"
grep -qx 'mtllib robot~2.mtl' "$T/c1o/robot~2.obj" && ok || bad "robot~2.obj names another MTL"

# convert -r: the same rule inside the archive's folder
mkdir -p "$T/in1"; cp "$P/twin.rlb" "$T/in1/"
expect_rc 0 "$UE" convert -r "$T/in1" -o "$T/r1"
check "convert -r names" "$(files "$T/r1")" "twin.rlb/ROBOT.glb twin.rlb/robot~2.glb unearth-batch.json unearth-batch.marker "
expect_rc 0 "$UE" convert "$T/in1/twin.rlb:robot.msh" -o "$T/one1.glb"   # no Material.lib beside it here
cmp -s "$T/r1/twin.rlb/robot~2.glb" "$T/one1.glb" && ok || bad "robot~2.glb of the batch is not robot.msh's"

# textures: MODEL.IMAGE.png, the second model's images take ~2 as well
expect_rc 0 "$UE" textures "$P/twin.rlb" -o "$T/t1"
# (the archive's own Texm entries, GRID_01, Robot_Skin and textures_inner.lib's grid_00, come too)
check "textures names" "$(files "$T/t1")" \
  "GRID_01.565.png ROBOT.ROBOT_ARM_0.png ROBOT.ROBOT_BODY_0.png ROBOT.ROBOT_HEAD_phases.png ROBOT.ROBOT_LEG_0.png Robot_Skin.8888.png grid_00.8888.png robot.ROBOT_ARM_0~2.png robot.ROBOT_BODY_0~2.png robot.ROBOT_HEAD_phases~2.png robot.ROBOT_LEG_0~2.png "
check "textures: no case clash" "$(case_clashes "$T/t1")" ""
cmp -s "$T/t1/ROBOT.ROBOT_ARM_0.png" "$T/t1/robot.ROBOT_ARM_0~2.png" && ok || bad "the twin's texture differs"

# ---- a folder holding ROBOT.msh, robot.msh, РОБОТ.msh, робот.msh and Models/, models/ ---------
F="$T/F"; mkdir -p "$F/Models" "$F/models"
for n in ROBOT robot РОБОТ робот Models/robot models/robot; do cp "$P/robot.msh" "$F/$n.msh"; done
expect_rc 0 "$UE" convert -r "$F" -o "$T/r2"
# byte order: "Models" < "ROBOT.msh" < "models" < "robot.msh" < "РОБОТ" (D0 A0) < "робот" (D1 80)
check "convert -r folder names" "$(files "$T/r2")" \
  "Models/robot.glb ROBOT.glb models~2/robot.glb robot~2.glb unearth-batch.json unearth-batch.marker РОБОТ.glb робот~2.glb "
check "convert -r: no case clash" "$(case_clashes "$T/r2")" ""
expect_rc 0 "$UE" convert "$F/ROBOT.msh" "$F/robot.msh" "$F/РОБОТ.msh" "$F/робот.msh" -o "$T/c2"
check "convert files names" "$(files "$T/c2")" "ROBOT.glb robot~2.glb РОБОТ.glb робот~2.glb "
check "convert files: no case clash" "$(case_clashes "$T/c2")" ""
# -f: a second run gives the same names (they depend on the inputs only)
expect_rc 0 "$UE" convert -r "$F" -o "$T/r2" -f -j 2
check "convert -r again, -j 2" "$(files "$T/r2")" \
  "Models/robot.glb ROBOT.glb models~2/robot.glb robot~2.glb unearth-batch.json unearth-batch.marker РОБОТ.glb робот~2.glb "

# ---- creatures are named after the entry that holds them, not "model.dat" --------------------
expect_rc 0 "$UE" convert "$G/creature.pkx" -o "$T/n1/"
check "PKX creature" "$(files "$T/n1")" "creature.glb "
check "PKX root node" "$(glb_root "$T/n1/creature.glb")" "creature.pkx"
expect_rc 0 "$UE" convert "$G/creature.fsys" -o "$T/n2/"
check "FSYS creature" "$(files "$T/n2")" "creature.glb "
grep -q 'creature.fsys:creature.pkx:model.dat -> .*/n2/creature.glb' "$T/err" && ok || bad "convert message: $(cat "$T/err")"
cmp -s "$T/n1/creature.glb" "$T/n2/creature.glb" && ok || bad "the FSYS and PKX creatures differ"
expect_rc 0 "$UE" convert "$G/creature.fsys" "$G/creature.pkx" -o "$T/n3"
check "both creatures" "$(files "$T/n3")" "creature.glb creature~2.glb "
# LZSS → PKX → DAT: a standalone LZSS file wrapping the PKX ("beast.lzss:decoded.pkx:model.dat")
expect_rc 0 "$UE" extract "$G/demo_model.lzss" -o "$T/lz"
cp "$G/creature.pkx" "$T/lz/entries/0000_decoded.bin"
mkdir -p "$T/in3"
expect_rc 0 "$UE" pack "$T/lz" -o "$T/in3/beast.lzss"
# FSYS → LZSS → PKX → DAT: the FSYS entry creature.pkx holding that LZSS file
expect_rc 0 "$UE" extract "$G/creature.fsys" -o "$T/fx"
cp "$T/in3/beast.lzss" "$T/fx/entries/0000_creature.pkx"
expect_rc 0 "$UE" pack "$T/fx" -o "$T/in3/chain.fsys"
cp "$G/creature.pkx" "$T/in3/"
expect_rc 0 "$UE" convert "$T/in3/chain.fsys" "$T/in3/beast.lzss" -o "$T/n4"
grep -q 'chain.fsys:creature.pkx:decoded.pkx:model.dat -> .*/n4/creature.glb' "$T/err" && ok || bad "FSYS chain: $(cat "$T/err")"
grep -q 'beast.lzss:decoded.pkx:model.dat -> .*/n4/beast.glb' "$T/err" && ok || bad "LZSS chain: $(cat "$T/err")"
expect_rc 0 "$UE" convert -r "$T/in3" -o "$T/r4"
check "convert -r chains" "$(files "$T/r4")" "beast.glb chain.fsys/creature.glb creature.glb unearth-batch.json unearth-batch.marker "
cmp -s "$T/r4/chain.fsys/creature.glb" "$T/n1/creature.glb" && ok || bad "the chained creature differs"
# An entry that an archive itself names like those ("decoded.msh", "model.dat") keeps its name:
# only what PKX and a standalone LZSS file make up is passed over.
expect_rc 0 "$UE" extract "$P/objects.rlb" -o "$T/ren"
for name in decoded.msh model.dat; do
  python3 - "$T/ren/manifest.json" "$name" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
for e in m["entries"]:
    if e["file"].endswith("ROBOT.msh"):
        e["name"] = sys.argv[2]
json.dump(m, open(sys.argv[1], "w"))
EOF
  rm -rf "$T/in5"; mkdir -p "$T/in5"
  expect_rc 0 "$UE" pack "$T/ren" -o "$T/in5/objects.rlb"
  stem="${name%.*}"
  expect_rc 0 "$UE" convert "$T/in5/objects.rlb" -o "$T/n5$stem/"
  check "entry $name" "$(files "$T/n5$stem")" "$stem.glb "
  check "entry $name: root node" "$(glb_root "$T/n5$stem/$stem.glb")" "$name"
  expect_rc 0 "$UE" convert -r "$T/in5" -o "$T/r5$stem"
  check "convert -r: entry $name" "$(files "$T/r5$stem")" "objects.rlb/$stem.glb unearth-batch.json unearth-batch.marker "
done

# ---- format options in a run of several models: given where they apply, noted once ----------
# --lod and --fps are Parkan MSH options; the three creatures (FSYS, PKX, bare DAT) convert without them.
expect_rc 0 "$UE" convert -r "$T/demo" -o "$T/o1" --lod all --fps 12 -j 2
for m in gamecube/creature.glb gamecube/creature.fsys/creature.glb gamecube/dat/creature.glb parkan/robot.glb parkan/objects.rlb/ROBOT.glb; do
  [ -s "$T/o1/$m" ] && ok || bad "convert -r --lod all: no $m"
done
check "one note for --lod" "$(grep -c -- '--lod ignored' "$T/err")" 1
check "one note for --fps" "$(grep -c -- '--fps ignored' "$T/err")" 1
grep -q 'warning: hsd: --lod ignored for 3 HAL SysDolphin .dat models (an option of Parkan MSH models only) \[convert.option.ignored\]' \
  "$T/err" && ok || bad "the --lod note: $(cat "$T/err")"
grep -q 'model.option.unknown' "$T/err" && bad "a model failed on an option: $(cat "$T/err")" || ok
# the report records them too (option, format, models), in the schema, and so does a continued run,
# whose kept creatures were made without them as well
ignored_in() { python3 -c 'import json, sys
print(" ".join("%(option)s:%(format)s:%(models)d" % i for i in json.load(open(sys.argv[1]))["ignored_options"]))' "$1"; }
check "report: ignored options" "$(ignored_in "$T/o1/unearth-batch.json")" "lod:hsd:3 fps:hsd:3"
node "$HERE/../json_schema_check.mjs" "$HERE/../../docs/schema/batch.schema.json" "$T/o1/unearth-batch.json" \
  && ok || bad "report with ignored options does not match docs/schema/batch.schema.json"
expect_rc 0 "$UE" convert -r "$T/demo" -o "$T/o1" --lod all --fps 12 -j 2
grep -q 'batch: \([0-9]*\) models in .*: 0 converted, \1 kept' "$T/err" && ok || bad "second run: $(cat "$T/err")"
check "continued report: ignored options" "$(ignored_in "$T/o1/unearth-batch.json")" "lod:hsd:3 fps:hsd:3"
# the MSH models did take the options: the batch output is single convert's with them
expect_rc 0 "$UE" convert "$P/robot.msh" -o "$T/lod.glb" --lod all --fps 12
cmp -s "$T/lod.glb" "$T/o1/parkan/robot.glb" && ok || bad "the batch robot did not get --lod all --fps 12"
expect_rc 0 "$UE" convert "$P/robot.msh" -o "$T/nolod.glb"
cmp -s "$T/nolod.glb" "$T/lod.glb" && bad "--lod all changes nothing: the check above proves nothing" || ok
# ... and the creatures are what they are without the options
cmp -s "$T/o1/gamecube/creature.glb" "$T/n1/creature.glb" && ok || bad "the batch creature differs"
# -q keeps the notes back
expect_rc 0 "$UE" convert -r "$T/demo" -o "$T/o2" --lod all -q
check "-q: no note" "$(grep -c -- 'ignored' "$T/err")" 0
check "-q: still in the report" "$(ignored_in "$T/o2/unearth-batch.json")" "lod:hsd:3"
check "no option given: nothing ignored" "$(ignored_in "$T/r4/unearth-batch.json")" ""
# convert of several models (no -r) does the same
expect_rc 0 "$UE" convert "$G/creature.pkx" "$G/creature.fsys" "$P/robot.msh" -o "$T/o3" --group all
check "several models" "$(files "$T/o3")" "creature.glb creature~2.glb robot.glb "
check "one note for --group" "$(grep -c -- '--group ignored for 2 HAL SysDolphin .dat models' "$T/err")" 1
# one model given an option its format lacks is still a usage error, and nothing is written
expect_rc 2 "$UE" convert "$G/creature.pkx" -o "$T/single.glb" --lod 1
grep -q 'has no option lod.*\[model.option.unknown\]' "$T/err" && ok || bad "single model: $(cat "$T/err")"
[ ! -e "$T/single.glb" ] && ok || bad "single model: output written"
expect_rc 2 "$UE" convert "$G/creature.pkx" -o "$T/single/" --lod 1

finish
