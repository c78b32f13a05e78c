#!/usr/bin/env bash
# The type id decides the check (issue 21): NRes entries typed Texm, MAT0, WEAR, MESH and NRes whose
# bytes are not that type, in an archive built here byte by byte from docs/formats/nres.md, each give
# nres.entry.type naming type, entry and offset; unknown type ids pass; the samples pass strict.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_typed_entries
. "$HERE/cli_lib.sh"

# Writes the archive (payloads 8-aligned from offset 16, sort table in lower-case name order,
# directory of 64-byte rows at the end) and prints "index offset name" for every entry.
build() { # build OUT ENTRY-SET
  python3 - "$@" <<'PY'
import struct, sys
out, which = sys.argv[1], sys.argv[2]
def fourcc(s): return struct.unpack('<I', s.encode())[0]
def nres(entries):                      # entries: (type_id, attr2, name, payload)
    data = bytearray(b'\0' * 16)
    offsets = []
    for _, _, _, p in entries:
        offsets.append(len(data))
        data += p + b'\0' * (-len(p) % 8)
    order = sorted(range(len(entries)), key=lambda i: entries[i][2].lower().encode())
    for i, (t, a2, name, p) in enumerate(entries):
        data += struct.pack('<5I', t, 0, a2, len(p), 1 if t == fourcc('WEAR') else 0)
        data += name.encode().ljust(36, b'\0') + struct.pack('<2I', offsets[i], order[i])
    struct.pack_into('<4sIiI', data, 0, b'NRes', 0x100, len(entries), len(data))
    return bytes(data), offsets
# An NRes that is no model: one entry of type 99 (no MSH resource type, so no core type either).
not_a_model, _ = nres([(99, 0, 'x', b'12345678')])
# Nor is one of MSH resource types holding one core type (1) of the five (1, 2, 3, 6, 13).
one_core_type, _ = nres([(1, 0, 'nodes', b'12345678'), (4, 0, 'four', b'abcd')])
opaque = [(fourcc('FXID'), 0, 'effect.fx', b'\x01\x02\x03'),   # named by the spec, not parsed
          (0x12345678, 0, 'odd.bin', b'anything at all'),
          (7, 0, 'seven', b''),
          (fourcc('NRes'), 0, 'good.lib', not_a_model)]        # a nested archive, and it is one
bad = [(fourcc('Texm'), 0, 'bad.tex', b'\x89PNG\r\n\x1a\n' + b'\0' * 24),
       (fourcc('MAT0'), 6, 'bad_mat', b'not a material'),
       (fourcc('WEAR'), 0, 'bad.wea', b'\x00\x01\x02\x03'),
       (fourcc('MESH'), 0, 'bad.msh', b'RIFF\x04\x00\x00\x00WAVE'),
       (fourcc('MESH'), 0, 'inner.lib', not_a_model),
       (fourcc('MESH'), 0, 'core1.lib', one_core_type),
       (fourcc('NRes'), 0, 'nested.lib', b'random bytes, not an archive')]
random_nres = [(fourcc('NRes'), 0, 'textures_inner.lib', bytes((i * 89 + 7) % 256 for i in range(64)))]
entries = {'bad': bad + opaque, 'opaque': opaque, 'random_nres': random_nres}[which]
data, offsets = nres(entries)
open(out, 'wb').write(data)
for i, e in enumerate(entries):
    print(i, offsets[i], e[2])
PY
}

# ---- unknown type ids are opaque bytes: the archive of them alone is valid -----------------
build "$T/opaque.lib" opaque >"$T/layout" && ok || bad "could not build opaque.lib"
expect_rc 0 "$UE" validate --strict "$T/opaque.lib"
grep -qxF "$T/opaque.lib: valid (nres, 4 entries, 0 errors, 0 warnings)" "$T/out" && ok \
  || bad "unknown types: $(cat "$T/out" "$T/err")"

# ---- each known type holding wrong bytes ------------------------------------------------------
build "$T/bad.lib" bad >"$T/layout" && ok || bad "could not build bad.lib"
expect_rc 1 "$UE" validate --strict "$T/bad.lib"
cp "$T/err" "$T/strict_err"
expect_rc 1 "$UE" validate --strict --json "$T/bad.lib"
# code, entry (index and name), type and absolute offset of every typed entry; no other entry
python3 - "$T/out" "$T/layout" <<'PY' && ok || bad "typed entries in JSON: $(cat "$T/out")"
import json, sys
report = json.load(open(sys.argv[1]))[0]
layout = {int(i): (int(at), name) for i, at, name in (l.split() for l in open(sys.argv[2]))}
typed = {0: 'Texm', 1: 'MAT0', 2: 'WEAR', 3: 'MESH', 4: 'MESH', 5: 'MESH', 6: 'NRes'}
holds = {'Texm': 'a Texm texture', 'MAT0': 'a MAT0 material', 'WEAR': 'a WEAR table', 'MESH': 'a model',
         'NRes': 'an NRes archive'}
found = [d for d in report['diagnostics'] if d['code'] == 'nres.entry.type']
assert len(found) == len(typed), found
for d in found:
    i = int(d['path'].split('[')[1].split(']')[0])
    at, name = layout[i]
    assert d['severity'] == 'error' and d['path'] == 'nres/entry[%d]' % i, d
    assert d['offset'] == at, (d, at)
    assert d['message'].startswith('entry %d "%s" is typed %s but does not hold %s: ' % (i, name, typed[i], holds[typed[i]])), d
assert report['valid'] is False and report['verdict'] == 'INVALID'
PY
# the text form of one, and the reasons: what the bytes are instead
texm_at=$(printf '0x%x' "$(awk '$1 == 0 {print $2}' "$T/layout")")
grep -qxF "$T/bad.lib: error: nres/entry[0] @$texm_at: entry 0 \"bad.tex\" is typed Texm but does not hold a Texm texture: it starts 89 50 4e 47, a Texm starts \"Texm\" [nres.entry.type]" "$T/strict_err" \
  && ok || bad "Texm line: $(cat "$T/strict_err")"
grep -qF 'entry 3 "bad.msh" is typed MESH but does not hold a model: it starts 52 49 46 46, a model is an NRes' "$T/strict_err" \
  && ok || bad "MESH line: $(cat "$T/strict_err")"
grep -qF 'entry 4 "inner.lib" is typed MESH but does not hold a model: it is an NRes of 1 entry, with type 99, which no model holds, and none of a model'"'"'s resource types (1, 2, 3, 6, 13) [nres.entry.type]' "$T/strict_err" \
  && ok || bad "MESH NRes line: $(cat "$T/strict_err")"
grep -qF 'entry 5 "core1.lib" is typed MESH but does not hold a model: it is an NRes of 2 entries, but only type 1 of a model'"'"'s resource types (1, 2, 3, 6, 13); a model holds at least two of them [nres.entry.type]' "$T/strict_err" \
  && ok || bad "MESH NRes of one core type: $(cat "$T/strict_err")"
grep -qF 'entry 6 "nested.lib" is typed NRes but does not hold an NRes archive: it starts 72 61 6e 64, an NRes starts "NRes" [nres.entry.type]' "$T/strict_err" \
  && ok || bad "NRes line: $(cat "$T/strict_err")"
# An entry typed NRes alone, holding random bytes, in the default mode: invalid, not "valid".
build "$T/random_nres.lib" random_nres >/dev/null
expect_rc 1 "$UE" validate "$T/random_nres.lib"
grep -qF 'entry 0 "textures_inner.lib" is typed NRes but does not hold an NRes archive: it starts 07 60 b9 12' "$T/err" \
  && ok || bad "random bytes typed NRes: $(cat "$T/out" "$T/err")"
# MAT0 and WEAR: their readers' own diagnostics, under the entry's path, come first
grep -qE '^[^ ]+: error: nres/entry\[1\]/mat0[^ ]* @0x[0-9a-f]+: .*\[mat0\.' "$T/strict_err" \
  && ok || bad "MAT0 reader's diagnostic: $(cat "$T/strict_err")"
grep -qE '^[^ ]+: error: nres/entry\[2\]/wear[^ ]* @0x[0-9a-f]+: .*\[wear\.' "$T/strict_err" \
  && ok || bad "WEAR reader's diagnostic: $(cat "$T/strict_err")"
grep -q 'effect.fx\|odd.bin\|"seven"\|good.lib' "$T/strict_err" && bad "an unknown type or a good entry was flagged" || ok

# Tolerant: a type that does not match is a warning, the bytes are kept as they are (nothing
# is dropped), so an archive whose only fault is that passes; extract writes every entry.
expect_rc 0 "$UE" validate --tolerant --json "$T/bad.lib"
python3 - "$T/out" <<'PY' && ok || bad "tolerant severities: $(cat "$T/out")"
import json, sys
r = json.load(open(sys.argv[1]))[0]
typed = [d for d in r['diagnostics'] if d['code'] == 'nres.entry.type']
# Texm and MESH entries are judged by the type check alone: a warning each.
for i in (0, 3, 4, 5, 6):
    assert [d['severity'] for d in typed if d['path'] == 'nres/entry[%d]' % i] == ['warning'], typed
PY

expect_rc 0 "$UE" extract --tolerant "$T/bad.lib" -o "$T/tol"
n=$(ls "$T/tol/entries" | wc -l); [ "$n" = 11 ] && ok || bad "tolerant extract wrote $n entries, want 11"
cmp -s "$T/tol/entries/0000_bad.tex" <(printf '\211PNG\r\n\032\n'; head -c 24 /dev/zero) \
  && ok || bad "bad.tex not extracted as it is"

# The verdict other verbs ask: a strict extract refuses the archive and writes nothing.
expect_rc 1 "$UE" extract --strict "$T/bad.lib" -o "$T/never"
[ ! -e "$T/never" ] && ok || bad "strict extract of bad.lib left output"
grep -q 'nres.entry.type' "$T/err" && ok || bad "extract does not say why: $(cat "$T/err")"

# ---- the sample pack: every typed entry is its type -----------------------------------------
expect_rc 0 "$UE" demo -o "$T/demo"
for f in objects.rlb Material.lib Textures.lib textures_demo.lib robot.msh; do
  expect_rc 0 "$UE" validate --strict "$T/demo/parkan/$f"
done
expect_rc 0 "$UE" validate --strict "$T/demo/parkan/objects.rlb"
grep -qF "objects.rlb:Robot_Skin.tex: valid (8 x 8 texture, format 8888" "$T/out" && ok \
  || bad "Robot_Skin.tex is no Texm: $(cat "$T/out")"
# Robot_Skin.tex's bytes replaced by text: the sample's Texm entry is now caught.
expect_rc 0 "$UE" extract "$T/demo/parkan/objects.rlb" -o "$T/x"
printf 'not a texture' > "$T/x/entries/0003_Robot_Skin.tex"
expect_rc 1 "$UE" pack "$T/x" -o "$T/skin.rlb"
grep -qF 'entry 3 "Robot_Skin.tex" is typed Texm but does not hold a Texm texture: it starts 6e 6f 74 20' "$T/err" \
  && ok || bad "pack of a Texm entry that is text: $(cat "$T/err")"
# The same bytes written over the entry in place (at 0xa8) for validate, which pack refuses to write.
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[0xa8:0xa8 + 13] = b"not a texture"; open(sys.argv[2], "wb").write(b)' \
  "$T/demo/parkan/objects.rlb" "$T/skin.rlb" || bad "skin.rlb not made"
expect_rc 1 "$UE" validate --strict "$T/skin.rlb"
grep -qF 'nres/entry[3] @0xa8: entry 3 "Robot_Skin.tex" is typed Texm but does not hold a Texm texture: it starts 6e 6f 74 20' "$T/err" \
  && ok || bad "edited Robot_Skin.tex: $(cat "$T/err")"

finish
