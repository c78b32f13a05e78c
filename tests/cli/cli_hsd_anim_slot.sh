#!/usr/bin/env bash
# import --base … --anim-slot N NAME (docs/hsd-import.md#pkx-animation-slots): a new clip (the sample
# creature's second clip with a key turned, renamed "Wave") appended to the DAT and put onto slot 3 of the
# PKX, and the unedited Animation_0 onto slot 2: `info` shows those slots playing anims[2] and anims[0],
# every other byte before the DAT is the original's but the DAT size word, `convert` of the PKX plays the
# new clip within the stated error; the same through an FSYS and with --into; the lines that tell the slots
# set, the DAT's changes and the container's apart; empty slots given XD's motion type (2 loop, 1 once, from
# the clip's loop flag) or Colosseum's 0, read from the bytes; a slot past the table, a clip the glTF lacks
# (its name shown escaped) and a DAT-only output are refused, nothing written.
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
check "slots told" "$(grep '^anim slots:' "$T/err")" 'anim slots: 3 → clip 2 "Wave" (once), 2 → clip 0 "Animation_0" (loops)'
check "container told" "$(grep '^container:' "$T/err")" \
  "container: $T/w.pkx differs from $G/creature.pkx in the DAT put in as $G/creature.pkx:model.dat and the animation slots set"
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

# The DAT unedited: "changed" speaks of the DAT alone, the container line of the slot (slot 2 played anims[1]);
# a slot set to what it already plays leaves the copy byte-identical, and says so.
expect_rc 0 "$UE" import "$T/c.glb" --base "$G/creature.pkx" -o "$T/u.pkx" --anim-slot 2 Animation_0
check "unedited DAT" "$(grep '^changed:' "$T/err")" "changed: nothing in the DAT (byte-identical to the base's)"
check "slot 2 told" "$(grep '^anim slots:' "$T/err")" 'anim slots: 2 → clip 0 "Animation_0" (loops)'
check "slot 2 changed the PKX" "$(grep '^container:' "$T/err")" \
  "container: $T/u.pkx differs from $G/creature.pkx in the animation slots set"
check "slot 2 plays anims[0]" "$(slot "$T/u.pkx" 2)" "1 0"
expect_rc 0 "$UE" import "$T/c.glb" --base "$G/creature.pkx" -o "$T/s.pkx" --anim-slot 1 Animation_0
check "same slot: copy unchanged" "$(grep '^container:' "$T/err")" "container: $T/s.pkx is byte-identical to $G/creature.pkx"
cmp -s "$G/creature.pkx" "$T/s.pkx" && ok || bad "s.pkx differs from the original"

# Empty slots (sub-animation count 0, +0x8C zeroed; entry k at 0x84 + k * 0xD0) get one sub-animation whose
# motion type is XD's 2 for a looping clip (Animation_0: extras.unearth_clip.loop true), 1 for one played
# once (Wave, from Animation_1: loop false); in a Colosseum PKX (entry k at 0x40 + k * 0xD0) always 0.
# table FILE: where the entries start, from the header words (docs/formats/pkx.md): XD 0x84, Colosseum (the
# u32 at 0x00 equal to the one at 0x40) 0x40 + align32(DAT size) + align32(GPT1 length).
# sub FILE K: entry K's sub-animation count, then its first {motion type, index}, read from the bytes.
sub() {
  python3 -c 'import struct, sys
b = open(sys.argv[1], "rb").read(); w = lambda o: struct.unpack(">I", b[o:o + 4])[0]; a32 = lambda n: (n + 31) & ~31
table = 0x40 + a32(w(0)) + a32(w(4)) if w(0) == w(0x40) else 0x84
e = table + int(sys.argv[2]) * 0xD0
if len(sys.argv) > 3:  # empty the entry: count 0, a stray motion type 7 (rewritten by the import)
    b = bytearray(b); b[e + 4:e + 8] = bytes(4); b[e + 0x8C:e + 0x94] = bytes([0, 0, 0, 7, 0, 0, 0, 0])
    open(sys.argv[3], "wb").write(b)
else:
    print(w(e + 4), w(e + 0x8C), w(e + 0x90))' "$@"
}
sub "$G/creature.pkx" 5 "$T/empty.pkx" && sub "$T/empty.pkx" 6 "$T/empty.pkx" &&
  sub "$G/demo_colo.pkx" 5 "$T/empty_colo.pkx" && sub "$T/empty_colo.pkx" 6 "$T/empty_colo.pkx" || bad "emptying slots"
check "emptied" "$(sub "$T/empty.pkx" 5) / $(sub "$T/empty_colo.pkx" 6)" "0 7 0 / 0 7 0"
expect_rc 0 "$UE" import "$T/w.glb" --base "$G/dat/creature.dat" --into "$T/empty.pkx" -o "$T/e5.pkx" \
  --anim-slot 5 Animation_0 --anim-slot 6 Wave
check "XD empty slot, looping clip" "$(sub "$T/e5.pkx" 5)" "1 2 0"
check "XD empty slot, clip played once" "$(sub "$T/e5.pkx" 6)" "1 1 2"
expect_rc 0 "$UE" validate --strict "$T/e5.pkx"
expect_rc 0 "$UE" import "$T/w.glb" --base "$G/dat/creature.dat" --into "$T/empty_colo.pkx" -o "$T/c5.pkx" \
  --anim-slot 5 Animation_0 --anim-slot 6 Wave
check "Colosseum empty slot" "$(sub "$T/c5.pkx" 5) / $(sub "$T/c5.pkx" 6)" "1 0 0 / 1 0 2"

# A NAME with control bytes is shown escaped: no escape sequence reaches the terminal.
expect_rc 1 "$UE" import "$T/w.glb" --base "$G/creature.pkx" -o "$T/x.pkx" --anim-slot 1 $'A\x1b[31mX\x01'
grep -qF 'has no animation named "A\x1B[31mX\x01"' "$T/err" && ok || bad "escaped name: $(cat -v "$T/err")"
LC_ALL=C grep -q $'[\x01\x1b]' "$T/err" && bad "a control byte reached stderr: $(cat -v "$T/err")" || ok

# A clip of scene_data's models[1] is refused by name for a slot (the PKX plays models[0]); models[0]'s is taken.
# Two ModelSets, each a joint with one triangle and an anims[0] turning it (ROTZ 0 → 1.5 / 0.5 over 30 frames),
# byte by byte from the spec (hsd_anim_dat.py, hsd_roots_dat.py); convert names them Animation_0 and _1.
python3 - "$HERE" "$T/two.dat" <<'PY' || bad "building two.dat"
import sys
sys.path.insert(0, sys.argv[1])
from hsd_anim_dat import Dat, lef, joint, fobj, aobj
from hsd_roots_dat import mesh
b = Dat()
def model_set(angle):
    j0 = joint(b)
    b.ptr(j0 + 0x10, mesh(b, False))
    aj0 = b.alloc(0x14)
    b.ptr(aj0 + 8, aobj(b, 30.0, [fobj(b, 3, bytes([0x12]) + lef(0) + bytes([30]) + lef(angle) + bytes([0]))]))
    anims, ms = b.alloc(8), b.alloc(0x10)
    b.ptr(anims, aj0)
    b.ptr(ms, j0)
    b.ptr(ms + 4, anims)
    return ms
models, scene = b.alloc(12), b.alloc(0x10)
b.ptr(models, model_set(1.5))
b.ptr(models + 4, model_set(0.5))
b.ptr(scene, models)
open(sys.argv[2], "wb").write(b.file([(scene, "scene_data")]))
PY
expect_rc 0 "$UE" convert "$T/two.dat" -o "$T/two.glb"
expect_rc 1 "$UE" import "$T/two.glb" --base "$T/two.dat" --into "$G/creature.pkx" -o "$T/x.pkx" --anim-slot 3 Animation_1
grep -q 'animation "Animation_1" is a clip of another ModelSet of scene_data, and a PKX plays the model of scene_data.s models\[0\] only' \
  "$T/err" && ok || bad "models[1] clip: $(cat "$T/err")"
expect_rc 0 "$UE" import "$T/two.glb" --base "$T/two.dat" --into "$G/creature.pkx" -o "$T/two.pkx" --anim-slot 3 Animation_0
check "models[0] clip onto slot 3" "$(slot "$T/two.pkx" 3)" "1 0"

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
