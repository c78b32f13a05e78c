#!/usr/bin/env bash
# End-to-end tests of the GameCube containers on the demo pack: list/extract/pack byte identity,
# ARCHIVE:ENTRY, the FSYS → LZSS → PKX → DAT chain, edits, and bad input (exit 1, no output).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_gamecube
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"
for f in demo_colo.fsys demo_xd.fsys demo_colo.pkx demo_xd.pkx demo_model.lzss creature.fsys creature.pkx; do
  [ -f "$G/$f" ] && ok || bad "demo did not write $f"
done

# info / list
expect_rc 0 "$UE" info "$G/demo_colo.fsys"
grep -q "FSYS" "$T/out" && ok || bad "info lacks the format"
expect_rc 0 "$UE" list "$G/demo_colo.fsys"
grep -q "demo_colo.pkx" "$T/out" && ok || bad "list lacks demo_colo.pkx"
grep -q "lzss" "$T/out" && ok || bad "list does not show the LZSS method"
grep -q "0x16" "$T/out" && ok || bad "unknown type code not listed raw"
expect_rc 0 "$UE" list --json "$G/demo_xd.fsys"
grep -q '"nested": "pkx"' "$T/out" && ok || bad "nested PKX not recognised"
grep -q 'demo_xd_entry_3.dat' "$T/out" && ok || bad "fallback name <archive>_entry_<i><ext> missing"
expect_rc 0 "$UE" info "$G/demo_xd.pkx"
grep -q '"xd"\|xd' "$T/out" && ok || bad "PKX layout not reported"

# extract → pack is byte-identical, for every GameCube sample
for f in demo_colo.fsys demo_xd.fsys demo_colo.pkx demo_xd.pkx demo_model.lzss creature.fsys creature.pkx; do
  expect_rc 0 "$UE" extract "$G/$f" -o "$T/x_$f"
  expect_rc 0 "$UE" pack "$T/x_$f" -o "$T/re_$f"
  cmp -s "$G/$f" "$T/re_$f" && ok || bad "extract/pack of $f not byte-identical"
  expect_rc 0 "$UE" roundtrip "$G/$f"
  expect_rc 0 "$UE" validate --strict "$G/$f"
done
[ -f "$T/x_demo_colo.fsys/entries/0000_demo_colo.pkx.lzss" ] && ok || bad "stored LZSS blob not extracted"

# ARCHIVE:ENTRY and the chain FSYS → LZSS → PKX → DAT
expect_rc 0 "$UE" list "$G/demo_colo.fsys:demo_colo.pkx"
grep -q "model.dat" "$T/out" && ok || bad "chain listing lacks model.dat"
grep -q "particles.gpt1" "$T/out" && ok || bad "chain listing lacks the GPT1 block"
expect_rc 0 "$UE" extract "$G/demo_colo.fsys:demo_colo.pkx" -o "$T/chain"
expect_rc 0 "$UE" extract "$G/demo_colo.pkx" -o "$T/direct"
cmp -s "$T/chain/entries/0000_model.dat" "$T/direct/entries/0000_model.dat" && ok || bad "chain DAT differs from the direct PKX's"
expect_rc 0 "$UE" info "$G/demo_model.lzss"
# the sample creature: FSYS → LZSS → PKX → DAT gives the DAT of the bare PKX, whose first word
# is its own size (a DAT written by ue_hsd_model_write: file_size = bytes written)
expect_rc 0 "$UE" list "$G/creature.fsys"
grep -q "creature.pkx.*lzss\|lzss.*creature.pkx" "$T/out" && ok || bad "creature PKX not stored as LZSS"
expect_rc 0 "$UE" extract "$G/creature.fsys:creature.pkx" -o "$T/cchain"
expect_rc 0 "$UE" extract "$G/creature.pkx" -o "$T/cdirect"
cmp -s "$T/cchain/entries/0000_model.dat" "$T/cdirect/entries/0000_model.dat" && ok || bad "creature chain DAT differs"
n=$(stat -c %s "$T/cdirect/entries/0000_model.dat")
[ "$(od -An -tu4 --endian=big -N4 "$T/cdirect/entries/0000_model.dat" | tr -d ' ')" = "$n" ] && ok || bad "creature DAT file_size is not its length"
expect_rc 1 "$UE" list "$G/demo_colo.fsys:no_such_entry"

# a replaced DAT re-wraps into a valid PKX; a replaced FSYS payload is recompressed
printf '\0\0\0\x28 a new placeholder dat payload......' > "$T/direct/entries/0000_model.dat"
cp "$T/direct/entries/0000_model.dat" "$T/good.dat"
printf '\0\0\0\x99 wrong size word' > "$T/direct/entries/0000_model.dat"
expect_rc 1 "$UE" pack "$T/direct" -o "$T/never.pkx"      # Colosseum needs the DAT's own size
[ ! -e "$T/never.pkx" ] && ok || bad "failed pack left output"
cp "$T/good.dat" "$T/direct/entries/0000_model.dat"
expect_rc 0 "$UE" pack "$T/direct" -o "$T/new.pkx"
expect_rc 0 "$UE" validate --strict "$T/new.pkx"
expect_rc 0 "$UE" extract "$T/new.pkx" -o "$T/newx"
cmp -s "$T/direct/entries/0000_model.dat" "$T/newx/entries/0000_model.dat" && ok || bad "re-wrapped DAT differs"
cp "$T/new.pkx" "$T/x_demo_colo.fsys/entries/0000_demo_colo.pkx"
expect_rc 0 "$UE" pack "$T/x_demo_colo.fsys" -o "$T/edit.fsys"
expect_rc 0 "$UE" validate --strict "$T/edit.fsys"
expect_rc 0 "$UE" list "$T/edit.fsys"
grep -q "demo_colo.pkx.*lzss\|lzss.*demo_colo.pkx" "$T/out" && ok || bad "edited entry not recompressed"
expect_rc 0 "$UE" extract "$T/edit.fsys:demo_colo.pkx" -o "$T/editx"
cmp -s "$T/editx/entries/0000_model.dat" "$T/newx/entries/0000_model.dat" && ok || bad "edited chain differs"

# bad input: exit 1, a diagnostic with an offset, no output left behind, input untouched
bad_case() { # bad_case NAME FILE
  cp "$2" "$T/$1.orig"
  expect_rc 1 "$UE" extract "$2" -o "$T/never_$1"
  [ ! -e "$T/never_$1" ] && ok || bad "$1: partial output left behind"
  grep -q '@0x' "$T/err" && ok || bad "$1: diagnostic lacks an offset"
  cmp -s "$2" "$T/$1.orig" && ok || bad "$1: input modified"
  expect_rc 1 "$UE" validate "$2"
}
mkdir -p "$T/d"; python3 "$HERE/damaged_files.py" "$T/demo" "$T/d" >/dev/null   # tests/cli/damaged_files.py
for c in magic ptr payload name nolzss backref bigsize trunc; do cp "$T/d/fsys_$c.fsys" "$T/$c.fsys"; done
cp "$T/d/pkx_size.pkx" "$T/size.pkx"
for c in magic ptr payload name nolzss backref bigsize; do bad_case "$c" "$T/$c.fsys"; done
bad_case size "$T/size.pkx"
expect_rc 1 "$UE" info "$T/trunc.fsys"

# one byte short: the header's total size and the footer say so; strict rejects, tolerant warns
for f in demo_colo demo_xd; do
  head -c -1 "$G/$f.fsys" > "$T/short_$f.fsys"
  expect_rc 1 "$UE" validate --strict "$T/short_$f.fsys"
  grep -q "fsys.header.total_size" "$T/err" "$T/out" && ok || bad "$f: truncation not named"
  expect_rc 0 "$UE" validate --tolerant "$T/short_$f.fsys"
done

# the sample pack's own FSYS prints no note on any command, not even with -v (issue 13 point
# 10); diagnostic lines start with the file's name, so the severity is matched after it.
for f in demo_colo demo_xd; do
  for verb in info list validate; do
    for talk in "" -v; do
      expect_rc 0 "$UE" $verb $talk "$G/$f.fsys"
      grep -q ": info: " "$T/err" && bad "$verb $talk $f.fsys printed an info line" || ok
    done
  done
done

# a million entry pointers naming one record: rejected, in well under a second's memory
python3 - "$T/one.fsys" <<'PY'
import struct, sys
n, lst = 1000000, 0x60
rec = lst + 4 * n; name = rec + 0x70; data = (name + 16 + 31) // 32 * 32; total = data + 0x40
b = bytearray(total); b[0:4] = b'FSYS'
struct.pack_into('>IIIIIIII', b, 4, 0x201, 0, n, 0x80000000, 3, 0x40, data, total)
struct.pack_into('>III', b, 0x40, lst, name, data)
b[lst:rec] = struct.pack('>I', rec) * n
struct.pack_into('>HBx9I', b, rec, 1, 4, data, 12, 0, 0, 12, 0, 0, 2, name)
b[name:name + 4] = b'one\0'; b[data:data + 12] = b'hello world!'; b[-4:] = b'FSYS'
open(sys.argv[1], 'wb').write(b)
PY
expect_rc 1 "$UE" validate "$T/one.fsys"
grep -q "fsys.entry.overlap" "$T/err" "$T/out" && ok || bad "overlapping records not reported"
expect_rc 0 "$UE" validate --tolerant "$T/one.fsys"
grep -q "999999 of 1000000 entries were dropped" "$T/err" "$T/out" && ok || bad "tolerant drop not reported"

# tolerant mode: the broken entry is reported, the others extracted
expect_rc 1 "$UE" extract --tolerant "$T/payload.fsys" -o "$T/tol"
n=$(ls "$T/tol/entries" 2>/dev/null | grep -vc '\.lzss$'); [ "$n" = 4 ] && ok || bad "tolerant extract wrote $n payloads, want 4"

finish
