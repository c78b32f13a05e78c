#!/usr/bin/env bash
# import of a NEW HSD model into the game's containers (docs/hsd-import.md#a-new-model-in-the-game):
# the sample creature's glb rebuilt as a new model into its XD PKX and its FSYS: the copies validate
# strictly, the PKX keeps every header and slot-table byte but the DAT size word, its DAT is the
# standalone new model's, `convert` gives the new model back, the originals never change; the slot
# table fitted to a model with fewer clips; --anim-slot; refusals by name.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_new_into
. "$HERE/cli_lib.sh"
no_output() { [ ! -e "$1" ] && ok || bad "$1 was written"; }
be32() { od -An -tu1 -j "$2" -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'; }
# keep_clips IN OUT N: the glb with only its first N animations (a glTF edit, buffers untouched).
keep_clips() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, struct, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = open(src, "rb").read()
jlen = struct.unpack_from("<I", b, 12)[0]
j = json.loads(b[20:20 + jlen])
j["animations"] = j.get("animations", [])[:n]
if not j["animations"]: del j["animations"]
t = json.dumps(j).encode(); t += b" " * (-len(t) % 4)
rest = b[20 + jlen:]
open(dst, "wb").write(b"glTF" + struct.pack("<II", 2, 12 + 8 + len(t) + len(rest)) +
                      struct.pack("<I", len(t)) + b"JSON" + t + rest)
PY
}
# glb_counts GLB: its triangles (index counts / 3) and its skin's joints.
glb_counts() {
  python3 - "$1" <<'PY'
import json, struct, sys
b = open(sys.argv[1], "rb").read()
j = json.loads(b[20:20 + struct.unpack_from("<I", b, 12)[0]])
tris = sum(j["accessors"][p["indices"]]["count"] // 3 for m in j["meshes"] for p in m["primitives"])
print(tris, sum(len(s["joints"]) for s in j.get("skins", [])))
PY
}
# header_and_slots PKX: the XD preamble after the size word and the 17 slot entries, in hex.
header_and_slots() { od -An -tx1 -v -j 4 -N $((0x84 - 4 + 17 * 0xD0)) "$1"; }

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"
cp "$G/creature.pkx" "$T/orig.pkx"; cp "$G/creature.fsys" "$T/orig.fsys"
expect_rc 0 "$UE" convert "$G/dat/creature.dat" -o "$T/c.glb"
expect_rc 0 "$UE" import "$T/c.glb" -o "$T/new.dat"
grep -q "new model: 12 joints, 6 DObjs, 6 PObjs, 52 triangles" "$T/err" && ok || bad "new model: $(cat "$T/err")"

# ---- into the PKX -----------------------------------------------------------------------------
expect_rc 0 "$UE" import "$T/c.glb" -o "$T/n.pkx" --into "$G/creature.pkx"
grep -q "^replaced $G/creature.pkx:model.dat ($(stat -c %s "$T/new.dat") bytes) in $T/n.pkx" "$T/err" && ok || bad "told: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/n.pkx"
cmp -s "$G/creature.pkx" "$T/orig.pkx" && ok || bad "the template PKX changed"
# XD: the DAT size at +0x00 is the new DAT's; the preamble's other words and the table are the template's.
check "PKX DAT size word" "$(be32 "$T/n.pkx" 0)" "$(stat -c %s "$T/new.dat")"
[ "$(header_and_slots "$T/n.pkx")" = "$(header_and_slots "$G/creature.pkx")" ] && ok || bad "header or slots changed"
expect_rc 0 "$UE" cat "$T/n.pkx:model.dat" -o "$T/n_model.dat"
cmp -s "$T/n_model.dat" "$T/new.dat" && ok || bad "the PKX's DAT is not the new model"
expect_rc 0 "$UE" info "$T/n.pkx:model.dat"
grep -q "joints 12, meshes 6 (6 PObjs)" "$T/out" && ok || bad "info: $(cat "$T/out")"
expect_rc 0 "$UE" validate --strict "$T/n.pkx"
grep -q "(12 joints, 6 meshes, 6 PObjs, 80 vertices, 52 triangles, 0 errors" "$T/out" && ok || bad "validate: $(cat "$T/out")"
expect_rc 0 "$UE" convert "$T/n.pkx" -o "$T/n.glb"
check "convert back: triangles, skin joints" "$(glb_counts "$T/n.glb")" "52 12"

# ---- into the FSYS ----------------------------------------------------------------------------
expect_rc 0 "$UE" import "$T/c.glb" -o "$T/n.fsys" --into "$G/creature.fsys:creature.pkx"
expect_rc 0 "$UE" validate --strict "$T/n.fsys"
cmp -s "$G/creature.fsys" "$T/orig.fsys" && ok || bad "the template FSYS changed"
expect_rc 0 "$UE" cat "$T/n.fsys:creature.pkx" -o "$T/f.pkx"
cmp -s "$T/f.pkx" "$T/n.pkx" && ok || bad "the FSYS's PKX is not the one --into FILE.pkx writes"
expect_rc 0 "$UE" list --json "$T/n.fsys"
check "still LZSS" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["entries"][0]["extra"]["compressed"])' "$T/out" 2>/dev/null)" "True"

# ---- --anim-slot and the table fitted to the new model's clips --------------------------------
expect_rc 0 "$UE" import "$T/c.glb" -o "$T/s.pkx" --into "$G/creature.pkx" --anim-slot 5 Animation_1
check "slot 5 plays clip 1" "$(be32 "$T/s.pkx" $((0x84 + 5 * 0xD0 + 0x90)))" 1
keep_clips "$T/c.glb" "$T/one.glb" 1
expect_rc 0 "$UE" import "$T/one.glb" -o "$T/one.pkx" --into "$G/creature.pkx"
# Slot 2 plays clip 1 in the template (info shows it): clip 0 now, with a warning naming it; the
# rest of the table is the template's.
check "template slot 2" "$(be32 "$G/creature.pkx" $((0x84 + 2 * 0xD0 + 0x90)))" 1
check "fitted slot 2" "$(be32 "$T/one.pkx" $((0x84 + 2 * 0xD0 + 0x90)))" 0
grep -q "warning: .*: 1 sub-animations (slots 2) played clips the new model does not have.*into.new_model_clips" "$T/err" && ok || bad "no fit warning: $(cat "$T/err")"
cmp -l "$T/one.pkx" "$G/creature.pkx" 2>/dev/null | awk -v end=$((0x84 + 17 * 0xD0)) '$1 <= end { print $1 }' | tr '\n' ' ' > "$T/diff"
check "bytes changed in the header and table (1-based)" "$(cat "$T/diff")" "3 4 $((0x84 + 2 * 0xD0 + 0x90 + 4)) "
expect_rc 0 "$UE" validate --strict "$T/one.pkx"
expect_rc 0 "$UE" import "$T/one.glb" -o "$T/one2.pkx" --into "$G/creature.pkx" --anim-slot 2 Animation_0
grep -q "into.new_model_clips" "$T/err" && bad "slot 2 mapped still redirected: $(cat "$T/err")" || ok
check "mapped slot 2" "$(be32 "$T/one2.pkx" $((0x84 + 2 * 0xD0 + 0x90)))" 0

# ---- refusals ---------------------------------------------------------------------------------
keep_clips "$T/c.glb" "$T/static.glb" 0
expect_rc 1 "$UE" import "$T/static.glb" -o "$T/st.pkx" --into "$G/creature.pkx"
grep -q "into.new_model_clips" "$T/err" && ok || bad "no clips: $(cat "$T/err")"
no_output "$T/st.pkx"
expect_usage "" "$UE" import "$T/c.glb" -o "$T/x.pkx"
grep -q "a new model has no PKX or FSYS of its own" "$T/err" && ok || bad "no --into: $(cat "$T/err")"
expect_usage "" "$UE" import "$T/c.glb" -o "$T/x.dat" --anim-slot 1 Animation_0
no_output "$T/x.dat"
expect_rc 1 "$UE" import "$T/c.glb" -o "$T/x.pkx" --into "$G/creature.pkx" --anim-slot 1 Wave
grep -q 'has no animation named "Wave"' "$T/err" && ok || bad "unknown clip: $(cat "$T/err")"
expect_rc 1 "$UE" import "$T/c.glb" -o "$T/x.pkx" --into "$G/creature.pkx" --anim-slot 40 Animation_0
grep -q "into.anim_slot" "$T/err" && ok || bad "slot past the table: $(cat "$T/err")"
no_output "$T/x.pkx"
expect_rc 2 "$UE" import "$T/c.glb" -o "$G/creature.pkx" --into "$G/creature.pkx" -f
grep -q "io.output.input" "$T/err" && ok || bad "output is the template: $(cat "$T/err")"
cmp -s "$G/creature.pkx" "$T/orig.pkx" && ok || bad "the template PKX changed"
finish
