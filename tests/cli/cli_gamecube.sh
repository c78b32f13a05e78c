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

# pack --level N: entries compressed again use N; unchanged entries keep their bytes; without
# the flag the bytes are the manifest route's (FSYS, RsLi: 6; bare LZSS: 9); the flag wins over
# the manifest's "lzss_level"; PKX and NRes have nothing to compress (docs/gamecube-containers.md)
size_of() { wc -c < "$1" | tr -d ' '; }
set_level() { python3 -c 'import json,sys; p=sys.argv[1]+"/manifest.json"; m=json.load(open(p)); m["lzss_level"]=int(sys.argv[2]); json.dump(m,open(p,"w"),indent=2)' "$1" "$2"; }
expect_rc 0 "$UE" extract "$G/creature.fsys" -o "$T/lv"
expect_rc 0 "$UE" pack --level 0 "$T/lv" -o "$T/lv_same.fsys"
cmp -s "$G/creature.fsys" "$T/lv_same.fsys" && ok || bad "--level changed an unchanged entry"
printf 'X' | dd of="$T/lv/entries/0000_creature.pkx" bs=1 seek=200 conv=notrunc status=none
for l in 0 6 9; do expect_rc 0 "$UE" pack --level $l "$T/lv" -o "$T/lv$l.fsys"; done
expect_rc 0 "$UE" pack "$T/lv" -o "$T/lv_default.fsys"
cmp -s "$T/lv_default.fsys" "$T/lv6.fsys" && ok || bad "FSYS pack without --level is not level 6"
s0=$(size_of "$T/lv0.fsys"); s6=$(size_of "$T/lv6.fsys"); s9=$(size_of "$T/lv9.fsys")
[ "$s9" -le "$s6" ] && [ "$s6" -lt "$s0" ] && ok || bad "FSYS sizes: level 0 $s0, 6 $s6, 9 $s9"
expect_rc 0 "$UE" extract "$T/lv9.fsys:creature.pkx" -o "$T/lv9x"
expect_rc 0 "$UE" extract "$T/lv0.fsys:creature.pkx" -o "$T/lv0x"
cmp -s "$T/lv9x/entries/0000_model.dat" "$T/lv0x/entries/0000_model.dat" && ok || bad "levels decode differently"
set_level "$T/lv" 0
expect_rc 0 "$UE" pack "$T/lv" -o "$T/lv_m0.fsys"
cmp -s "$T/lv_m0.fsys" "$T/lv0.fsys" && ok || bad "manifest lzss_level 0 not honoured"
expect_rc 0 "$UE" pack --level 9 "$T/lv" -o "$T/lv_flag.fsys"
cmp -s "$T/lv_flag.fsys" "$T/lv9.fsys" && ok || bad "--level 9 does not win over lzss_level 0"
expect_rc 2 "$UE" pack --level 10 "$T/lv" -o "$T/never_lv.fsys"
[ ! -e "$T/never_lv.fsys" ] && ok || bad "--level 10 left output"
# bare LZSS: default 9
expect_rc 0 "$UE" extract "$G/demo_model.lzss" -o "$T/lz"
printf 'X' | dd of="$(ls "$T"/lz/entries/* | grep -v '\.lzss$' | head -1)" bs=1 seek=100 conv=notrunc status=none
expect_rc 0 "$UE" pack "$T/lz" -o "$T/lz_default.lzss"
expect_rc 0 "$UE" pack --level 9 "$T/lz" -o "$T/lz9.lzss"
expect_rc 0 "$UE" pack --level 0 "$T/lz" -o "$T/lz0.lzss"
cmp -s "$T/lz_default.lzss" "$T/lz9.lzss" && ok || bad "bare LZSS pack without --level is not level 9"
[ "$(size_of "$T/lz9.lzss")" -lt "$(size_of "$T/lz0.lzss")" ] && ok || bad "bare LZSS: level 9 not smaller than 0"
# RsLi LZSS and LZHUF entries: default 6
P="$T/demo/parkan"
expect_rc 0 "$UE" extract "$P/sprites_demo.lib" -o "$T/rl"
for e in "$T"/rl/entries/*LZSS.TXT "$T"/rl/entries/*LZHUF.TXT; do
  python3 -c 'import sys; p=sys.argv[1]; b=open(p,"rb").read(); open(p,"wb").write(b[:-1]+b"!"+b*3)' "$e"
done
expect_rc 0 "$UE" pack "$T/rl" -o "$T/rl_default.lib"
expect_rc 0 "$UE" pack --level 6 "$T/rl" -o "$T/rl6.lib"
expect_rc 0 "$UE" pack --level 0 "$T/rl" -o "$T/rl0.lib"
expect_rc 0 "$UE" pack --level 9 "$T/rl" -o "$T/rl9.lib"
cmp -s "$T/rl_default.lib" "$T/rl6.lib" && ok || bad "RsLi pack without --level is not level 6"
r0=$(size_of "$T/rl0.lib"); r9=$(size_of "$T/rl9.lib")
[ "$r9" -lt "$r0" ] && ok || bad "RsLi sizes: level 0 $r0, 9 $r9"
expect_rc 0 "$UE" validate --strict "$T/rl0.lib"
expect_rc 0 "$UE" validate --strict "$T/rl9.lib"
# PKX: nothing compressed, the flag changes nothing
expect_rc 0 "$UE" pack --level 0 "$T/x_creature.pkx" -o "$T/pkx_lv.pkx"
cmp -s "$G/creature.pkx" "$T/pkx_lv.pkx" && ok || bad "--level changed a PKX"

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
