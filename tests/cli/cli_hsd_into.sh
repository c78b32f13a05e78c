#!/usr/bin/env bash
# import --base of an HSD model back into the game's containers (docs/hsd-import.md#into-the-game):
# a moved vertex into the sample creature's XD PKX, a Colosseum PKX, its FSYS and a four-entry FSYS
# (--into, and -o named like the --base's container): the copy validates strictly, converts back with
# the vertex where it was moved, keeps the PKX header and slot tables and every other FSYS entry byte
# for byte; an unedited glb gives the container byte for byte; the originals never change; refusals.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_into
. "$HERE/cli_lib.sh"
edit() { python3 "$HERE/hsd_import_glb.py" "$@"; }
no_output() { [ ! -e "$1" ] && ok || bad "$1 was written"; }
digest() { sha256sum "$@" | cut -d' ' -f1 | tr '\n' ' '; }
json() { # json FILE EXPR: EXPR of `unearth info --json FILE` (j bound to it)
  "$UE" info --json "$1" | python3 -c "import json, sys; j = json.load(sys.stdin); print($2)"
}

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"
DAT="$G/dat/creature.dat"
ORIGINALS=$(digest "$G/creature.pkx" "$G/creature.fsys" "$G/demo_xd.fsys" "$G/demo_colo.pkx" "$DAT")

expect_rc 0 "$UE" convert "$DAT" -o "$T/c.glb"
# root_mesh 0 is an envelope PObj with F32 positions: its vertex 3 comes back to float precision.
edit offset "$T/c.glb" "$T/e.glb" root_mesh 0 POSITION 3 0.25,-0.5,0.125 >/dev/null
MOVED=$(edit value "$T/e.glb" root_mesh 0 POSITION 3)
[ "$MOVED" != "$(edit value "$T/c.glb" root_mesh 0 POSITION 3)" ] && ok || bad "the edit moved nothing"

# A four-entry FSYS whose LZSS entry 0 holds the creature's PKX (demo_xd.fsys with the payload
# replaced, packed by `pack`), and a Colosseum PKX around the creature's DAT.
expect_rc 0 "$UE" extract "$G/demo_xd.fsys" -o "$T/x"
cp "$G/creature.pkx" "$T/x/entries/0000_demo_xd.pkx"
expect_rc 0 "$UE" pack "$T/x" -o "$T/multi.fsys"
expect_rc 0 "$UE" extract "$G/demo_colo.pkx" -o "$T/p"
cp "$DAT" "$T/p/entries/0000_model.dat"
expect_rc 0 "$UE" pack "$T/p" -o "$T/colo.pkx"
check "colo layout" "$(json "$T/colo.pkx" 'j["header"]["layout"]')" colosseum
MULTI=$(digest "$T/multi.fsys" "$T/colo.pkx")

# moved OUT ADDRESS: OUT validates strictly, and its model converts back with the vertex moved.
moved() {
  expect_rc 0 "$UE" validate --strict "$1"
  expect_rc 0 "$UE" convert "$2" -o "$T/back.glb" -f
  check "moved vertex in $2" "$(edit value "$T/back.glb" root_mesh 0 POSITION 3)" "$MOVED"
  expect_rc 0 edit check "$T/c.glb" "$T/e.glb" "$T/back.glb" 0.05
  check "edited values in $2" "$(cat "$T/out")" 1
}
# ---- --into FILE.pkx: the DAT re-wrapped, the frame kept --------------------------------------
expect_rc 0 "$UE" import "$T/e.glb" --base "$G/creature.pkx" --into "$G/creature.pkx" -o "$T/new.pkx"
grep -q "^replaced .*creature.pkx:model.dat (7619 bytes) in $T/new.pkx$" "$T/err" && ok || bad "replaced line: $(cat "$T/err")"
moved "$T/new.pkx" "$T/new.pkx"
check "XD header and slots" "$(json "$T/new.pkx" 'j["header"]')" "$(json "$G/creature.pkx" 'j["header"]')"
check "XD animation entries" "$(json "$T/new.pkx" 'len(j["header"]["animations"]), len(j["header"]["slots"]), sep=" "')" "17 17"
check "slot 0 plays" "$(json "$T/new.pkx" 'j["header"]["slots"][0]["anims"]')" "$(json "$G/creature.pkx" 'j["header"]["slots"][0]["anims"]')"
# Outside the DAT not a byte moved: the PKX differs from the original exactly where the DAT does.
expect_rc 0 "$UE" import "$T/e.glb" --base "$DAT" -o "$T/e.dat"
expect_rc 0 edit bytes-differ "$DAT" "$T/e.dat"; IN_DAT=$(cat "$T/out")
expect_rc 0 edit bytes-differ "$G/creature.pkx" "$T/new.pkx"
check "PKX bytes changed" "$(cat "$T/out")" "$IN_DAT"
OFF=$(json "$G/creature.pkx" 'j["header"]["dat_offset"]')
cmp -s <(tail -c +$((OFF + 1)) "$T/new.pkx") "$T/e.dat" && ok || bad "the PKX's DAT is not the edited DAT"
# Colosseum: the DAT first, GPT1 and the animation table after it.
expect_rc 0 "$UE" import "$T/e.glb" --base "$T/colo.pkx" --into "$T/colo.pkx" -o "$T/colo2.pkx"
moved "$T/colo2.pkx" "$T/colo2.pkx"
check "Colosseum slots" "$(json "$T/colo2.pkx" 'len(j["header"]["slots"]) > 0')" True
check "Colosseum header and slots" "$(json "$T/colo2.pkx" 'j["header"]')" "$(json "$T/colo.pkx" 'j["header"]')"

# ---- --into ARCHIVE.fsys:ENTRY.pkx: through the PKX, LZSS again, the other entries kept --------
expect_rc 0 "$UE" import "$T/e.glb" --base "$DAT" --into "$G/creature.fsys:creature.pkx" -o "$T/new.fsys"
grep -q "^replaced .*creature.fsys:creature.pkx:model.dat (7619 bytes) in $T/new.fsys$" "$T/err" && ok || bad "replaced line: $(cat "$T/err")"
moved "$T/new.fsys" "$T/new.fsys:creature.pkx"
check "FSYS entries" "$(json "$T/new.fsys" 'j["header"]["entry_count"]')" 1
"$UE" list --json "$T/new.fsys" > "$T/list.json"
check "method" "$(python3 -c "import json; print(json.load(open('$T/list.json'))['entries'][0]['method'])")" lzss
expect_rc 0 "$UE" cat "$T/new.fsys:creature.pkx" -o "$T/new_pkx.pkx"
cmp -s "$T/new_pkx.pkx" "$T/new.pkx" && ok || bad "the FSYS's PKX is not the one --into FILE.pkx writes"
# Four entries: the creature's is replaced, the three others extract byte for byte as before.
expect_rc 0 "$UE" import "$T/e.glb" --base "$T/multi.fsys:demo_xd.pkx" --into "$T/multi.fsys:demo_xd.pkx" -o "$T/multi2.fsys"
moved "$T/multi2.fsys" "$T/multi2.fsys:demo_xd.pkx"
for N in 1 2 3; do   # by index: entry 3 has no name, and its fallback name is the archive's
  expect_rc 0 "$UE" cat "$T/multi.fsys:#$N" -o "$T/m1_$N"
  expect_rc 0 "$UE" cat "$T/multi2.fsys:#$N" -o "$T/m2_$N"
  cmp -s "$T/m1_$N" "$T/m2_$N" && ok || bad "entry $N changed"
done
# An unchanged LZSS entry keeps its stored bytes.
expect_rc 0 "$UE" extract "$T/multi.fsys" -o "$T/m1"
expect_rc 0 "$UE" extract "$T/multi2.fsys" -o "$T/m2"
cmp -s "$T/m1/entries/0002_demo_model.dat.lzss" "$T/m2/entries/0002_demo_model.dat.lzss" && ok || bad "entry 2's LZSS bytes changed"
expect_rc 0 "$UE" cat "$T/multi2.fsys:demo_xd.pkx" -o "$T/m2_0"
cmp -s "$T/m2_0" "$T/new.pkx" && ok || bad "entry 0 is not the new PKX"
check "entries" "$(json "$T/multi2.fsys" 'j["entry_count"]')" 4

# ---- -o named like the --base's container: the same as --into the --base ----------------------
expect_rc 0 "$UE" import "$T/e.glb" --base "$G/creature.fsys:creature.pkx" -o "$T/implied.fsys"
cmp -s "$T/implied.fsys" "$T/new.fsys" && ok || bad "-o .fsys differs from --into"
expect_rc 0 "$UE" import "$T/e.glb" --base "$G/creature.fsys:creature.pkx" -o "$T/implied.pkx"
cmp -s "$T/implied.pkx" "$T/new.pkx" && ok || bad "-o .pkx of an FSYS's PKX differs from --into FILE.pkx"
expect_rc 0 "$UE" import "$T/e.glb" --base "$G/creature.pkx" -o "$T/implied2.pkx"
cmp -s "$T/implied2.pkx" "$T/new.pkx" && ok || bad "-o .pkx of a PKX differs from --into"

# ---- unedited: the container byte for byte ----------------------------------------------------
expect_rc 0 "$UE" import "$T/c.glb" --base "$G/creature.fsys:creature.pkx" -o "$T/same.fsys"
cmp -s "$T/same.fsys" "$G/creature.fsys" && ok || bad "an unedited import changed the FSYS"
expect_rc 0 "$UE" import "$T/c.glb" --base "$DAT" --into "$T/multi.fsys:demo_xd.pkx" -o "$T/same_multi.fsys"
cmp -s "$T/same_multi.fsys" "$T/multi.fsys" && ok || bad "an unedited import changed the four-entry FSYS"
expect_rc 0 "$UE" import "$T/c.glb" --base "$DAT" --into "$G/creature.pkx" -o "$T/same.pkx"
cmp -s "$T/same.pkx" "$G/creature.pkx" && ok || bad "an unedited import changed the PKX"

# ---- refusals: nothing written ----------------------------------------------------------------
expect_rc 1 "$UE" import "$T/e.glb" --base "$DAT" --into "$G/creature.fsys:creatur.pkx" -o "$T/r.fsys"
grep -q 'no entry named "creatur.pkx"; did you mean creature.pkx?' "$T/err" && ok || bad "missing entry: $(cat "$T/err")"
no_output "$T/r.fsys"
expect_rc 2 "$UE" import "$T/e.glb" --base "$DAT" --into "$G/creature.fsys" -o "$T/r.fsys"
grep -q "into.entry" "$T/err" && ok || bad "no into.entry: $(cat "$T/err")"
no_output "$T/r.fsys"
expect_rc 2 "$UE" import "$T/e.glb" --base "$DAT" --into "$G/creature.fsys:creature.pkx" -o "$T/r.dat"
grep -q "the output is a copy of .*creature.fsys; give it its extension (.fsys)" "$T/err" && ok || bad "extension: $(cat "$T/err")"
no_output "$T/r.dat"
expect_rc 2 "$UE" import "$T/e.glb" --base "$DAT" -o "$T/r.pkx"
grep -q "holds no pkx to put the DAT back into" "$T/err" && ok || bad "bare DAT to .pkx: $(cat "$T/err")"
no_output "$T/r.pkx"
expect_rc 2 "$UE" import "$T/e.glb" --base "$DAT" --into "$T/demo/parkan/objects.rlb:ROBOT.msh" -o "$T/r.rlb"
no_output "$T/r.rlb"
cp "$G/creature.fsys" "$T/mine.fsys"
expect_rc 2 "$UE" import "$T/e.glb" --base "$DAT" --into "$T/mine.fsys:creature.pkx" -o "$T/mine.fsys" -f
grep -q "io.output.input" "$T/err" && ok || bad "output = input: $(cat "$T/err")"
cmp -s "$T/mine.fsys" "$G/creature.fsys" && ok || bad "the --into archive was overwritten"
expect_rc 2 "$UE" import "$T/e.glb" --base "$T/mine.fsys:creature.pkx" -o "$T/mine.fsys" -f
cmp -s "$T/mine.fsys" "$G/creature.fsys" && ok || bad "the --base archive was overwritten"
cp "$T/new.fsys" "$T/before.fsys"
expect_rc 2 "$UE" import "$T/c.glb" --base "$DAT" --into "$G/creature.fsys:creature.pkx" -o "$T/new.fsys"
cmp -s "$T/new.fsys" "$T/before.fsys" && ok || bad "an existing output was replaced without -f"

# Two entries named demo_xd.pkx (the second was demo_xd_gpt1.pkx): a put by name would replace
# entry 0, so #1 is refused by name; the first is taken by its name, and entry 1 is kept.
expect_rc 0 "$UE" extract "$G/demo_xd.fsys" -o "$T/dup"
python3 -c "import json, sys; p = sys.argv[1]; m = json.load(open(p)); e = m['entries'][1]
e['name'], e['short_name'], e['full_name'] = 'demo_xd.pkx', 'demo_xd', 'demo_xd.pkx'; json.dump(m, open(p, 'w'))" "$T/dup/manifest.json"
expect_rc 0 "$UE" pack "$T/dup" -o "$T/dup.fsys"
check "shared name" "$("$UE" list "$T/dup.fsys" | grep -c ' demo_xd.pkx ')" 2
expect_rc 2 "$UE" import "$T/e.glb" --base "$DAT" --into "$T/dup.fsys:#1" -o "$T/r.fsys"
grep -q 'entry 1 shares its name "demo_xd.pkx" with entry 0.*\[into.index\]' "$T/err" && ok || bad "shared name: $(cat "$T/err")"
no_output "$T/r.fsys"
expect_rc 0 "$UE" import "$T/e.glb" --base "$DAT" --into "$T/dup.fsys:demo_xd.pkx" -o "$T/dup2.fsys"
for N in 1 2 3; do
  expect_rc 0 "$UE" cat "$T/dup.fsys:#$N" -o "$T/d1_$N"
  expect_rc 0 "$UE" cat "$T/dup2.fsys:#$N" -o "$T/d2_$N"
  cmp -s "$T/d1_$N" "$T/d2_$N" && ok || bad "entry $N of the shared-name FSYS changed"
done
moved "$T/dup2.fsys" "$T/dup2.fsys:#0"
# Only a model DAT is a target: a PKX's GPT1, an FSYS's camera or blob is refused before any work.
for TARGET in "$G/demo_colo.pkx:particles.gpt1" "$G/demo_colo.fsys:demo_cam.cam" "$G/demo_colo.fsys:#4"; do
  FILE="${TARGET%%:*}"; OUT="$T/kind.${FILE##*.}"
  expect_rc 2 "$UE" import "$T/e.glb" --base "$DAT" --into "$TARGET" -o "$OUT"
  grep -q "into.entry_kind" "$T/err" && ok || bad "$TARGET: $(cat "$T/err")"
  grep -q "^changed:" "$T/err" && bad "$TARGET: refused after the import" || ok
  no_output "$OUT"
done
expect_rc 0 "$UE" import "$T/e.glb" --base "$DAT" --into "$G/demo_colo.fsys:demo_model.dat" -o "$T/kind.fsys"
moved "$T/kind.fsys" "$T/kind.fsys:demo_model.dat"

check "originals untouched" "$(digest "$G/creature.pkx" "$G/creature.fsys" "$G/demo_xd.fsys" "$G/demo_colo.pkx" "$DAT")" "$ORIGINALS"
check "test containers untouched" "$(digest "$T/multi.fsys" "$T/colo.pkx")" "$MULTI"
finish
