#!/usr/bin/env bash
# import --into ARCHIVE.fsys:NEW.dat --add (docs/hsd-import.md#new-fsys-entries): an edited creature DAT and then
# a new model added as new entries of copies of the sample's creature.fsys: `list` shows each with the type
# code the rules give (dat 0x04: no DAT in the archive, then the code the added one has) and file id one past
# the largest (0x0301 → 0x0302 → 0x0303), stored as its stored sibling is; `cat` gives the DAT back byte for
# byte; `validate --strict` passes; every other entry extracts byte-identical; the original never changes.
# Without --add the nearest-name error stays; --add of a present name, a .pkx, another extension, an archive
# whose DATs are dat and rdat, and without --into are refused by name, nothing written.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_into_add
. "$HERE/cli_lib.sh"
clip() { python3 "$HERE/hsd_clips_glb.py" "$@"; }
# entries FSYS: "name type_code file_id method" per entry, from list --json
entries() {
  "$UE" list --json "$1" | python3 -c 'import json, sys
for e in json.load(sys.stdin)["entries"]:
    x = e["extra"]; print(e["name"], "0x%02X" % x["type_code"], "0x%04X" % x["file_id"], e["method"])'
}

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"
cp "$G/creature.fsys" "$T/orig.fsys"
expect_rc 0 "$UE" convert "$G/creature.pkx" -o "$T/c.glb"
clip turn "$T/c.glb" "$T/e.glb" Animation_1 chest 10 x 30 >/dev/null || bad "editing a clip"

# An edit of the creature's DAT as a new entry: the archive holds only a PKX, so the type is dat (0x04).
expect_rc 0 "$UE" import "$T/e.glb" --base "$G/dat/creature.dat" -o "$T/edited.dat"
expect_rc 0 "$UE" import "$T/e.glb" --base "$G/dat/creature.dat" --into "$G/creature.fsys:edited.dat" --add \
  -o "$T/a.fsys"
check "added line" "$(head -1 "$T/err")" "added $G/creature.fsys:edited.dat ($(stat -c %s "$T/edited.dat") bytes) in \
$T/a.fsys: a new entry, type dat (0x04), file id 0x0302, stored"
check "entries after one add" "$(entries "$T/a.fsys")" "creature.pkx 0x1E 0x0301 lzss
edited.dat 0x04 0x0302 stored"
expect_rc 0 "$UE" validate --strict "$T/a.fsys"
expect_rc 0 "$UE" cat "$T/a.fsys:edited.dat" -o "$T/edited_back.dat"
cmp -s "$T/edited.dat" "$T/edited_back.dat" && ok || bad "the added DAT is not the edit's bytes"

# A new model into that copy: its type is the added DAT's, its id the next one.
expect_rc 0 "$UE" import "$T/c.glb" -o "$T/new.dat"
expect_rc 0 "$UE" import "$T/c.glb" --into "$T/a.fsys:new.dat" --add -o "$T/b.fsys"
check "entries after two adds" "$(entries "$T/b.fsys")" "creature.pkx 0x1E 0x0301 lzss
edited.dat 0x04 0x0302 stored
new.dat 0x04 0x0303 stored"
expect_rc 0 "$UE" validate --strict "$T/b.fsys"
expect_rc 0 "$UE" cat "$T/b.fsys:new.dat" -o "$T/new_back.dat"
cmp -s "$T/new.dat" "$T/new_back.dat" && ok || bad "the added new model is not its bytes"
# Every other entry byte-identical after extract (the decoded bytes and the PKX's LZSS stored bytes).
expect_rc 0 "$UE" extract "$T/orig.fsys" -o "$T/x0"
expect_rc 0 "$UE" extract "$T/b.fsys" -o "$T/x2"
for f in 0000_creature.pkx 0000_creature.pkx.lzss; do
  cmp -s "$T/x0/entries/$f" "$T/x2/entries/$f" && ok || bad "$f changed"
done
cmp -s "$T/x2/entries/0001_edited.dat" "$T/edited.dat" && ok || bad "edited.dat changed by the second add"
cmp -s "$G/creature.fsys" "$T/orig.fsys" && ok || bad "the original FSYS changed"

# Without --add a typo is caught as before (exit 1, nearest name); refusals by name, nothing written.
expect_rc 1 "$UE" import "$T/c.glb" --into "$G/creature.fsys:creatur.pkx" -o "$T/x.fsys"
grep -q 'no entry named "creatur.pkx"; did you mean creature.pkx?' "$T/err" && ok || bad "nearest name: $(cat "$T/err")"
expect_rc 2 "$UE" import "$T/c.glb" --into "$G/creature.fsys:creature.dat" --add -o "$T/x.fsys"
grep -q '"creature.dat" is taken: an entry has that name, or that short name.*\[archive.add.exists\]' "$T/err" && ok ||
  bad "short name taken: $(cat "$T/err")"
expect_rc 2 "$UE" import "$T/c.glb" --into "$G/creature.fsys:creature.pkx" --add -o "$T/x.fsys"
grep -q '\-\-add adds a new entry, and "creature.pkx" is there.*\[into.add\]' "$T/err" && ok || bad "present: $(cat "$T/err")"
expect_rc 2 "$UE" import "$T/c.glb" --into "$G/creature.fsys:other.pkx" --add -o "$T/x.fsys"
grep -q '"other.pkx" names a PKX entry.*\[into.add\]' "$T/err" && ok || bad ".pkx: $(cat "$T/err")"
expect_rc 2 "$UE" import "$T/c.glb" --into "$G/creature.fsys:other.bin" --add -o "$T/x.fsys"
grep -q '"other.bin": a new FSYS entry is a .pkx or a .dat.*\[archive.add.type\]' "$T/err" && ok || bad ".bin: $(cat "$T/err")"
expect_rc 2 "$UE" import "$T/c.glb" --into "$G/demo_colo.fsys:other.dat" --add -o "$T/x.fsys"
grep -q 'holds both dat (0x04) and rdat (0x02) entries.*\[archive.add.type\]' "$T/err" && ok || bad "dat+rdat: $(cat "$T/err")"
expect_rc 2 "$UE" import "$T/c.glb" --into "$G/creature.fsys:"$'a\x1bb.dat' --add -o "$T/x.fsys"
grep -qF '"a\x1Bb.dat" is no FSYS entry name' "$T/err" && ok || bad "control byte: $(cat -v "$T/err")"
expect_rc 2 "$UE" import "$T/c.glb" -o "$T/x.dat" --add
[ ! -e "$T/x.fsys" ] && [ ! -e "$T/x.dat" ] && ok || bad "a refused import wrote its output"
finish
