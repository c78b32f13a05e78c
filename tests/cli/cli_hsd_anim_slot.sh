#!/usr/bin/env bash
# import --base … --anim-slot N NAME (docs/hsd-import.md#pkx-animation-slots): a new clip (the sample
# creature's second clip with a key turned, renamed "Wave") appended to the DAT and put onto slot 3 of the
# PKX, and the unedited Animation_0 onto slot 2: `info` shows those slots playing anims[2] and anims[0],
# every other byte before the DAT is the original's but the DAT size word, `convert` of the PKX plays the
# new clip within the stated error; the same through an FSYS and with --into; a slot past the table, a
# clip the glTF lacks and a DAT-only output are refused, nothing written.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_anim_slot
. "$HERE/cli_lib.sh"
clip() { python3 "$HERE/hsd_clips_glb.py" "$@"; }
within() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$1" "$2"; }
# slot FILE N: slot N's first sub-animation "motion_type anim_index" as info prints it
slot() { "$UE" info "$1" | grep -A2 "^    \[$2\] motion_kind" | sed -n 's/.*sub_anims (motion_type anim_index) \([0-9]* [0-9]*\),.*/\1/p'; }

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"
expect_rc 0 "$UE" convert "$G/creature.pkx" -o "$T/c.glb"
check "slot 2 before" "$(slot "$G/creature.pkx" 2)" "1 1"
check "slot 3 before" "$(slot "$G/creature.pkx" 3)" "1 0"
clip turn "$T/c.glb" "$T/e.glb" Animation_1 chest 10 x 30 >/dev/null && clip rename-anim "$T/e.glb" "$T/w.glb" Animation_1 Wave ||
  bad "making the new clip"

expect_rc 0 "$UE" import "$T/w.glb" --base "$G/creature.pkx" -o "$T/w.pkx" --anim-slot 3 Wave --anim-slot 2 Animation_0
grep -q "^clips: 0 replaced, 1 added, 1 kept as the base has them$" "$T/err" && ok || bad "clips line: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/w.pkx"
check "slot 3 plays Wave (anims[2])" "$(slot "$T/w.pkx" 3)" "1 2"
check "slot 2 plays Animation_0" "$(slot "$T/w.pkx" 2)" "1 0"
# XD layout: the DAT at 0xE60 (17 entries, no GPT1); before it only the DAT size word (+0x00) and the two
# slots' anim_index words (entry k at 0x84 + k * 0xD0, its first sub-animation's index at +0x90) changed.
DIFF=$(python3 - "$G/creature.pkx" "$T/w.pkx" <<'PY'
import struct, sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
words = [o for o in range(0, 0xE60, 4) if a[o:o + 4] != b[o:o + 4]]
print(" ".join("%#x=%d" % (o, struct.unpack(">I", b[o:o + 4])[0]) for o in words), len(b) - 0xE60)
PY
)
read -r W0 W1 W2 REST <<<"$DIFF"
check "DAT size word" "$W0" "0x0=$REST"
check "changed words before the DAT" "$W1 $W2" "0x2b4=0 0x384=2"
expect_rc 0 "$UE" convert "$T/w.pkx" -o "$T/wb.glb"
read -r ROT TRA SCA <<<"$(clip compare "$T/w.glb" "$T/wb.glb" Wave Animation_2)"
within "$ROT" 3e-4 && within "$TRA" 1e-4 && within "$SCA" 3e-4 && ok || bad "Wave converts back off by $ROT $TRA $SCA"

# Through the FSYS, and a bare DAT base put --into the PKX.
expect_rc 0 "$UE" import "$T/w.glb" --base "$G/creature.fsys:creature.pkx" -o "$T/w.fsys" --anim-slot 3 Wave
expect_rc 0 "$UE" validate --strict "$T/w.fsys"
check "FSYS: slot 3 plays Wave" "$(slot "$T/w.fsys:creature.pkx" 3)" "1 2"
expect_rc 0 "$UE" import "$T/w.glb" --base "$G/dat/creature.dat" --into "$G/creature.pkx" -o "$T/i.pkx" --anim-slot 16 Wave
check "--into: slot 16 plays Wave" "$(slot "$T/i.pkx" 16)" "1 2"

# Refused: slot 17 of a 17-entry table, a clip the glTF lacks (exit 1); a bare DAT out, a new model (exit 2).
expect_rc 1 "$UE" import "$T/w.glb" --base "$G/creature.pkx" -o "$T/x.pkx" --anim-slot 17 Wave
grep -q "anim-slot 17: the PKX's animation table has 17 slots (0 … 16) \[into.anim_slot\]" "$T/err" && ok || bad "slot 17: $(cat "$T/err")"
expect_rc 1 "$UE" import "$T/w.glb" --base "$G/creature.pkx" -o "$T/x.pkx" --anim-slot 1 Animation_1
grep -q 'has no animation named "Animation_1"' "$T/err" && ok || bad "missing clip: $(cat "$T/err")"
expect_rc 2 "$UE" import "$T/w.glb" --base "$G/creature.pkx" -o "$T/x.dat" --anim-slot 1 Wave
expect_rc 2 "$UE" import "$T/w.glb" -o "$T/x.dat" --anim-slot 1 Wave
expect_rc 2 "$UE" import "$T/w.glb" --base "$G/creature.pkx" -o "$T/x.pkx" --anim-slot one Wave
[ ! -e "$T/x.pkx" ] && [ ! -e "$T/x.dat" ] && ok || bad "a refused import wrote its output"
finish
