#!/usr/bin/env bash
# End-to-end tests of a Parkan model whose WEAR table has another name: `convert --wear` and
# `textures --wear` (a file or ARCHIVE:ENTRY) take the model's materials from that table, in its
# row order, over the same-stem one; a missing table is exit 3, one that is no WEAR exit 1 with its
# name and byte offset, several models exit 2; and the note of `import` and `edit` when the written
# model's name would no longer find its base's WEAR table.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_wear
. "$HERE/cli_lib.sh"
err_has() { grep -qF -- "$1" "$T/err" && ok || { bad "stderr lacks '$1' ($2)"; cat "$T/err" >&2; }; }
no_note() { grep -q "^note: the game finds" "$T/err" && bad "a note where none is due ($1): $(cat "$T/err")" || ok; }
absent() { [ ! -e "$1" ] && ok || bad "$2: $1 was written"; }
# materials GLB: "name texture" of every material, in order, from the file's JSON
materials() {
  python3 - "$1" <<'PY'
import json, struct, sys
d = open(sys.argv[1], "rb").read()
doc = json.loads(d[20:20 + struct.unpack_from("<I", d, 12)[0]])
print(" ".join("%s=%s" % (m["name"], m.get("extras", {}).get("texture", "-")) for m in doc["materials"]))
PY
}

expect_rc 0 "$UE" demo -o "$T/demo"
P="$T/demo/parkan"
W="$T/w"
mkdir -p "$W"
cp "$P/robot.msh" "$W/mybot.msh"            # a renamed model: mybot.wea does not exist
cp "$P/Material.lib" "$P/Textures.lib" "$W/"
printf '4\r\n0 ROBOT_LEG\r\n1 ROBOT_ARM\r\n2 ROBOT_BODY\r\n3 ROBOT_HEAD\r\n' >"$W/reversed.wea"
ORIG="ROBOT_BODY=ROBOT_BODY.0 ROBOT_HEAD=ROBOT_HEAD.0 ROBOT_ARM=ROBOT_ARM.0 ROBOT_LEG=ROBOT_LEG.0"
REV="ROBOT_LEG=ROBOT_LEG.0 ROBOT_ARM=ROBOT_ARM.0 ROBOT_BODY=ROBOT_BODY.0 ROBOT_HEAD=ROBOT_HEAD.0"

# ---- convert: without --wear the renamed model is grey; with it, its rows name the materials ----
expect_rc 0 "$UE" convert "$W/mybot.msh" -o "$T/grey.glb"
err_has "no WEAR table mybot.wea" "the renamed model's WEAR is looked for by its stem"
check "no WEAR: placeholders" "$(materials "$T/grey.glb")" "material_0=- material_1=- material_2=- material_3=-"
expect_rc 0 "$UE" convert "$W/mybot.msh" -o "$T/file.glb" --wear "$W/reversed.wea"
check "--wear FILE: its rows, in its order" "$(materials "$T/file.glb")" "$REV"
expect_rc 0 "$UE" convert "$W/mybot.msh" -o "$T/entry.glb" --wear "$P/objects.rlb:ROBOT.WEA"
check "--wear ARCHIVE:ENTRY (any letter case)" "$(materials "$T/entry.glb")" "$ORIG"
# The given table wins over a same-stem one beside the model.
cp "$P/robot.wea" "$W/mybot.wea"
expect_rc 0 "$UE" convert "$W/mybot.msh" -o "$T/stem.glb"
check "the same-stem WEAR" "$(materials "$T/stem.glb")" "$ORIG"
expect_rc 0 "$UE" convert "$W/mybot.msh" -o "$T/wins.glb" --wear "$W/reversed.wea"
check "--wear over the same-stem WEAR" "$(materials "$T/wins.glb")" "$REV"
rm "$W/mybot.wea"
expect_rc 0 "$UE" convert "$P/objects.rlb" -o "$T/archive.glb" --wear "$W/reversed.wea"
check "an archive of one model" "$(materials "$T/archive.glb")" "$REV"

# ---- convert: what --wear refuses ----
expect_rc 3 "$UE" convert "$W/mybot.msh" -o "$T/no.glb" --wear "$W/nope.wea"
err_has "$W/nope.wea: error: $W/nope.wea: cannot open" "a missing file is named"
err_has "convert: --wear $W/nope.wea: no WEAR table could be read (I/O error); nothing written" "missing"
absent "$T/no.glb" "--wear of a missing file"
printf '2\n0 ONE\n1 TWO\n2 THREE\n' >"$W/long.wea"
expect_rc 1 "$UE" convert "$W/mybot.msh" -o "$T/no.glb" --wear "$W/long.wea"
err_has "$W/long.wea: error: wear/materials @0xe: " "an invalid table: its file and the offset of the extra row (2 + 6 + 6 bytes in)"
err_has "[wear.count.mismatch]" "an invalid table: the check"
absent "$T/no.glb" "--wear of an invalid table"
printf '\x89PNG\r\n' >"$W/png.wea"
expect_rc 1 "$UE" convert "$W/mybot.msh" -o "$T/no.glb" --wear "$W/png.wea" --tolerant
err_has "$W/png.wea: error: wear @0x0: no material row: this is no WEAR table [wear.rows.none]" "no rows, tolerant"
absent "$T/no.glb" "--wear of a file that is no WEAR"
expect_rc 1 "$UE" convert "$W/mybot.msh" -o "$T/no.glb" --wear "$P/objects.rlb:nope.wea"
err_has "no entry named \"nope.wea\"" "a missing entry"
absent "$T/no.glb" "--wear of a missing entry"
cp "$P/robot.msh" "$W/second.msh"
expect_rc 2 "$UE" convert "$W/mybot.msh" "$W/second.msh" -o "$T/several" --wear "$W/reversed.wea"
err_has "--wear $W/reversed.wea: the WEAR table of one model, and 2 models were found" "several models"
absent "$T/several" "--wear with several models"
expect_rc 2 "$UE" convert -r "$W" -o "$T/batch" --wear "$W/reversed.wea"
absent "$T/batch" "--wear with -r"
rm "$W/second.msh"

# ---- textures: the given table finds the textures ----
expect_rc 1 "$UE" textures "$W/mybot.msh" -o "$T/tex_none"
expect_rc 0 "$UE" textures "$W/mybot.msh" -o "$T/tex" --wear "$W/reversed.wea"
check "textures --wear" "$(cd "$T/tex" && ls | tr '\n' ' ')" \
  "mybot.ROBOT_ARM_0.png mybot.ROBOT_BODY_0.png mybot.ROBOT_HEAD_phases.png mybot.ROBOT_LEG_0.png "
# An archive of one model and three textures: --wear goes to the model.
expect_rc 0 "$UE" textures "$P/objects.rlb" -o "$T/tex_archive" --wear "$W/reversed.wea"
[ -e "$T/tex_archive/ROBOT.ROBOT_HEAD_phases.png" ] && ok || bad "textures of an archive with --wear"
expect_rc 3 "$UE" textures "$W/mybot.msh" -o "$T/tex_no" --wear "$W/nope.wea"
absent "$T/tex_no" "textures --wear of a missing file"
expect_rc 1 "$UE" textures "$W/mybot.msh" -o "$T/tex_no" --wear "$W/long.wea"
err_has "$W/long.wea: error: wear/materials @0xe: " "textures: an invalid table"
absent "$T/tex_no" "textures --wear of an invalid table"

# ---- import and edit: where the written model's materials will come from ----
R="$P/robot.msh"
expect_rc 0 "$UE" convert "$R" -o "$T/robot.glb"
expect_rc 0 "$UE" edit "$R" -o "$T/robot2.msh" --scale 2
check "edit note" "$(grep '^note:' "$T/err")" \
  "note: the game finds robot2.msh's materials in robot2.wea beside it; robot.wea holds them today: copy it to that name, or name the output robot.msh"
expect_rc 0 "$UE" import "$T/robot.glb" --base "$R" -o "$T/robot3.msh"
check "import note" "$(grep '^note:' "$T/err")" \
  "note: the game finds robot3.msh's materials in robot3.wea beside it; robot.wea holds them today: copy it to that name, or name the output robot.msh"
expect_rc 0 "$UE" import "$T/robot.glb" --base "$R" -o "$T/robot4.msh" -q
check "import -q: no note" "$(cat "$T/err")" ""
expect_rc 0 "$UE" import "$T/robot.glb" --base "$P/objects.rlb:ROBOT.msh" -o "$T/objects2.rlb" --into "$P/objects.rlb:NEWBOT.msh"
check "import --into note" "$(grep '^note:' "$T/err")" \
  "note: the game finds NEWBOT.msh's materials in the entry NEWBOT.wea of $T/objects2.rlb; ROBOT.wea holds them today: add a copy of it under that name, or name the entry ROBOT.msh"
# A stem that differs: once the table is copied there, the note says nothing; other rows are named.
mkdir -p "$T/sub"
expect_rc 0 "$UE" edit "$R" -o "$T/sub/ROBOT.msh" --scale 2
no_note "the same stem in another letter case"
cp "$P/robot.wea" "$T/robot5.wea"
expect_rc 0 "$UE" edit "$R" -o "$T/robot5.msh" --scale 2
no_note "robot5.wea holds the same rows"
cp "$W/reversed.wea" "$T/robot6.wea"
expect_rc 0 "$UE" edit "$R" -o "$T/robot6.msh" --scale 2
err_has "in robot6.wea beside it (there now, with other rows); robot.wea holds them today" "other rows"
expect_rc 0 "$UE" import "$T/robot.glb" -o "$T/robot7.msh"
no_note "a new model has no base"
finish
