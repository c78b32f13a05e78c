#!/usr/bin/env bash
# pack never writes an archive that its own strict validation rejects, whatever the manifest
# says: hostile edits of NRes, RsLi and FSYS manifests either pack into an archive that
# `validate --strict` accepts (with a warning naming entry and key) or are refused (exit 1,
# nothing written, entry and key named); payload files whose bytes are not what their entry's
# type says, or a nested container that does not read strictly, are refused the same way. Manifest text in messages is printable (no terminal
# escapes), a PKX layout is named in either case, and edit_manifest fails its test loudly.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_pack_hostile
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
P="$T/demo/parkan"; G="$T/demo/gamecube"
for f in "$P/objects.rlb" "$P/sprites_demo.lib" "$G/demo_xd.fsys" "$G/demo_xd.pkx"; do
  expect_rc 0 "$UE" extract "$f" -o "$T/x_$(basename "$f")"
done
XN="$T/x_objects.rlb"; XR="$T/x_sprites_demo.lib"; XF="$T/x_demo_xd.fsys"

n=0
# hostile SRC EXT PYTHON WANT_RC WANT_TEXT: pack a copy of extract SRC with its manifest edited.
# Exit WANT_RC; 0: the archive passes validate --strict; 1: nothing is written. WANT_TEXT
# (a grep -F string, may be empty) must be in pack's messages.
hostile() {
  local src=$1 ext=$2 edit=$3 want=$4 text=$5
  n=$((n+1)); local dir="$T/h$n" out="$T/h$n.$ext"
  rm -rf "$dir"; cp -r "$src" "$dir"; edit_manifest "$dir" "$edit"
  expect_rc "$want" "$UE" pack "$dir" -o "$out"
  cp "$T/err" "$T/pack_err"
  if [ -n "$text" ]; then
    grep -qF -- "$text" "$T/pack_err" && ok || bad "[$edit]: pack does not say '$text': $(cat "$T/pack_err")"
  fi
  if [ "$want" = 0 ]; then
    expect_rc 0 "$UE" validate --strict "$out"
    grep -q "INVALID" "$T/out" && bad "[$edit]: pack wrote an invalid archive: $(cat "$T/out")" || ok
  else
    [ ! -e "$out" ] && ok || bad "[$edit]: a refused pack wrote $out"
  fi
}
# same_bytes FILE: the last hostile pack wrote exactly FILE's bytes.
same_bytes() { cmp -s "$T/h$n.${1##*.}" "$1" && ok || bad "h$n: not byte-identical to $1"; }

# ---- NRes: layout keys are kept only while they describe a valid archive ---------------------
# objects.rlb: entry 3 Robot_Skin.tex at 0xa8 (288 bytes), entry 6 ROBOT.msh ends at the
# directory, 0x2a20; sort_index of entry 3 is 6 (it sorts last).
hostile "$XN" rlb "m['entries'][3]['data_offset'] = 999" 0 \
  'manifest/entries[3]: entry "Robot_Skin.tex": "data_offset" is 999: its bytes [0x3e7, 0x507) overlap entry 6 "ROBOT.msh"'
grep -qF 'pack lays the archive out anew' "$T/pack_err" && ok || bad "overlap: no word of a new layout"
hostile "$XN" rlb "m['entries'][3]['data_offset'] = 16" 0 '"data_offset" is 16: its bytes [0x10, 0x130) overlap entry 0 "robot.wea"'
hostile "$XN" rlb "m['entries'][3]['data_offset'] = 20000" 0 \
  '"data_offset" is 20000: its 288 bytes [0x4e20, 0x4f40) do not lie in the data region [0x10, 0x2a20)'
hostile "$XN" rlb "m['entries'][3]['sort_index'] = 0" 0 \
  'manifest/entries[3]: entry "Robot_Skin.tex": "sort_index" is 0 but pack writes 6 (the key is informational)'
same_bytes "$P/objects.rlb"
hostile "$XN" rlb "m['header']['dir_offset'] = 100" 0 '"dir_offset" is 100 and "total_size" 11232, which do not agree'
same_bytes "$P/objects.rlb"
hostile "$XN" rlb "m['header']['total_size'] = 5" 0 '"header.total_size" is 5 but pack writes 11232 (the key is informational)'
same_bytes "$P/objects.rlb"
hostile "$XN" rlb "m['entries'][3]['size'] = 5" 0 '"size" is 5 but pack writes 288 (the key is informational): pack takes sizes from the payload files'
same_bytes "$P/objects.rlb"
hostile "$XN" rlb "m['header']['entry_count'] = 3" 0 '"header.entry_count" is 3 but pack writes 7'
same_bytes "$P/objects.rlb"
hostile "$XN" rlb "m['header']['magic'] = 'XRes'" 0 '"header.magic" is "XRes" but pack writes "NRes"'
hostile "$XN" rlb "m['header']['sort_table_valid'] = False" 0 '"header.sort_table_valid" is false but pack writes true'
hostile "$XN" rlb "m['header']['unindexed_regions'] = 2" 0 '"header.unindexed_regions" is 2 but pack writes 0'
hostile "$XN" rlb "m['entries'][4]['nested'] = 'rsli'" 0 \
  'entry "textures_inner.lib": "nested" is "rsli" but pack writes "nres" (the key is informational)'
hostile "$XN" rlb "m['entries'][1]['damaged'] = True" 0 'entry "AB": "damaged" is true but pack writes false'
hostile "$XN" rlb "m['unindexed'] = [{'offset': 20, 'size': 40, 'file': 'entries/0001_AB'}]" 0 \
  'manifest/unindexed[0]: "offset" is 20: its bytes [0x14, 0x3c) overlap entry 0 "robot.wea"'
# A payload that changed size is no edited key: laid out anew without a word.
n=$((n+1)); rm -rf "$T/h$n"; cp -r "$XN" "$T/h$n"; printf 'now eleven!' > "$T/h$n/entries/0005_empty.bin"
expect_rc 0 "$UE" pack "$T/h$n" -o "$T/h$n.rlb"
[ "$(grep -c . "$T/err")" = 1 ] && ok || bad "an edited payload gave a warning: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/h$n.rlb"
# Entries added or removed (the count then agrees with the recorded directory): no warning.
hostile "$XN" rlb "m['entries'].pop()" 0 ""
[ "$(grep -c . "$T/pack_err")" = 1 ] && ok || bad "a removed entry gave a warning: $(cat "$T/pack_err")"
# Honoured keys the archive cannot hold are refused.
hostile "$XN" rlb "m['header']['version'] = 5" 1 'manifest/header: "version" is 5: an NRes archive is version 256 (0x100)'
hostile "$XN" rlb "m['entries'][2]['name_hex'] = '00' * 36; del m['entries'][2]['name']" 1 \
  'manifest/entries[2]: entry "": the name is empty'
hostile "$XN" rlb "m['entries'][2]['name_hex'] = '41' * 36; del m['entries'][2]['name']" 1 \
  '"name_hex" holds no NUL in its 36 bytes'

# ---- RsLi ------------------------------------------------------------------------------------
# sprites_demo.lib: entry 1 XOR.TXT at 514 (332 bytes), entry 2 LZSS.TXT at 846.
hostile "$XR" lib "m['entries'][2]['data_offset'] = 514" 0 \
  'entry "LZSS.TXT": "data_offset" is 514: its packed bytes overlap entry 1 "XOR.TXT"'
same_bytes "$P/sprites_demo.lib"
hostile "$XR" lib "m['entries'][1]['sort_to_original'] = 0" 0 \
  'entry "XOR.TXT": "sort_to_original" is 0 but pack writes 4 (the key is informational)'
hostile "$XR" lib "m['entries'][1]['name_hex'] = '00' * 12; del m['entries'][1]['name']" 0 '"sort_to_original"'
hostile "$XR" lib "m['header_hex'] = m['header_hex'][:6] + '09' + m['header_hex'][8:]" 1 \
  '"header_hex" starts 4e 4c 00 09: an RsLi library starts 4e 4c 00 01'
hostile "$XR" lib "m['entries'][1]['nested'] = 'nres'" 0 'entry "XOR.TXT": "nested" is "nres" but pack writes nothing'
hostile "$XR" lib "m['entries'][2]['damaged'] = True" 0 'entry "LZSS.TXT": "damaged" is true but pack writes false'

# ---- FSYS ------------------------------------------------------------------------------------
hostile "$XF" fsys "m['entries'][1]['data_offset'] = m['entries'][0]['data_offset']" 0 '"data_offset" is 640 but pack writes 2016'
hostile "$XF" fsys "m['entries'][1]['file_id'] = m['entries'][0]['file_id']" 0 ""
hostile "$XF" fsys "m['header']['version'] = 7; m['header_hex'] = '00' * 8 + m['header_hex'][16:]" 0 ""
hostile "$XF" fsys "m['entries'][0]['type_code'] = 300" 1 'type_code must be 0..255'

# ---- manifest text in messages is printable ------------------------------------------------
hostile "$XF" fsys "m['\u001b]0;pwned\u0007'] = 1; m['entries'][0]['\u009b2J'] = 2" 0 \
  'manifest: unknown key "\x1B]0;pwned\x07" is ignored'
grep -qF 'unknown key "\xC2\x9B2J" is ignored' "$T/pack_err" && ok || bad "a C1 control is not escaped: $(cat -v "$T/pack_err")"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/pack_err" && bad "raw control bytes in pack's messages: $(cat -v "$T/pack_err")" || ok
hostile "$XF" fsys "m['entries'][1]['name'] = '\u001b[2Jx.pkx'" 1 '"name" "\x1B[2Jx.pkx" must be'
hostile "$XN" rlb "m['entries'][3]['nmae\u001b[31m'] = 1; m['entries'][3]['type'] = '\u001b[2J'" 0 \
  'entry "Robot_Skin.tex": unknown key "nmae\x1B[31m" is ignored'
grep -qF '"type" is "\x1B[2J"' "$T/pack_err" && ok || bad "an informational value is not escaped: $(cat -v "$T/pack_err")"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/pack_err" && bad "raw control bytes in pack's messages: $(cat -v "$T/pack_err")" || ok

# ---- PKX: the layout is named in any case; another value is refused, naming both -------------
hostile "$T/x_demo_xd.pkx" pkx "m['layout']['layout'] = 'XD'" 0 ""
same_bytes "$G/demo_xd.pkx"
hostile "$T/x_demo_xd.pkx" pkx "m['layout']['layout'] = 'gamecube'" 1 \
  'manifest/layout: "layout" is "gamecube": a PKX layout is "xd" or "colosseum"'

# ---- payload files: typed entries and nested containers are checked as validate checks them ----
# bad_payload FILE OFFSET BYTES WANT_TEXT: pack a copy of extract objects.rlb whose entries/FILE
# has BYTES (printf format) written at OFFSET (-1: the file is only those bytes); pack refuses
# (exit 1, nothing written) and says WANT_TEXT, what validate says of such an entry.
bad_payload() {
  local file=$1 at=$2 bytes=$3 text=$4
  n=$((n+1)); local dir="$T/h$n" out="$T/h$n.rlb"
  rm -rf "$dir"; cp -r "$XN" "$dir"
  if [ "$at" = -1 ]; then printf "$bytes" > "$dir/entries/$file"
  else printf "$bytes" | dd of="$dir/entries/$file" bs=1 seek="$at" conv=notrunc 2>/dev/null; fi
  expect_rc 1 "$UE" pack "$dir" -o "$out"
  grep -qF -- "$text" "$T/err" && ok || bad "$file: pack does not say '$text': $(cat "$T/err")"
  [ ! -e "$out" ] && ok || bad "$file: a refused pack wrote $out"
  # --tolerant writes it as asked: exit 0, the finding a warning, the payload's bytes in place
  expect_rc 0 "$UE" pack "$dir" -o "$out" --tolerant
  grep -qF -- "warning: " "$T/err" && grep -qF -- "$text" "$T/err" && ok \
    || bad "$file: pack --tolerant does not warn '$text': $(cat "$T/err")"
  expect_rc 0 "$UE" cat "$out:$(echo "$file" | cut -d_ -f2-)" -o "$dir.payload" --tolerant
  cmp -s "$dir.payload" "$dir/entries/$file" && ok || bad "$file: pack --tolerant did not write the payload as given"
}
bad_payload 0004_textures_inner.lib -1 'junk' \
  'entry 4 "textures_inner.lib" is typed NRes but does not hold an NRes archive: it starts 6a 75 6e 6b'
bad_payload 0004_textures_inner.lib 4 '\xff\xff' 'nres/entry[4]/nres/header/version @0x1cc: version is 0xffff, expected 0x100'
bad_payload 0000_robot.wea -1 'junkjunkjunkjunk' 'entry 0 "robot.wea" is typed WEAR but does not hold a WEAR table'
bad_payload 0001_AB -1 'junkjunkjunkjunk' 'entry 1 "AB" is typed MAT0 but does not hold a MAT0 material'
bad_payload 0003_Robot_Skin.tex -1 'junkjunkjunkjunk' 'entry 3 "Robot_Skin.tex" is typed Texm but does not hold a Texm texture'
bad_payload 0006_ROBOT.msh -1 'junkjunkjunkjunk' 'entry 6 "ROBOT.msh" is typed MESH but does not hold a model'

# ---- edit_manifest: a Python edit that raises fails the test at once --------------------------
out=$( (edit_manifest "$XN" "raise ValueError('no such key')"; echo carried-on) 2>/dev/null ); rc=$?
[ "$rc" != 0 ] && [ "${out#*carried-on}" = "$out" ] && ok || bad "edit_manifest went on after a failed edit (rc $rc, '$out')"

finish
