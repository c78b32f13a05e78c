#!/usr/bin/env bash
# End-to-end tests of the container verbs on the demo pack: extract → pack byte-identity,
# edits, ARCHIVE:ENTRY, validation, bad input (exit 1, no output file, input untouched).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_archive
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
A="$T/demo/parkan/objects.rlb"
[ -f "$A" ] && ok || bad "demo did not write $A"
expect_rc 2 "$UE" demo -o "$T/demo"                    # exists without -f
expect_rc 0 "$UE" demo -o "$T/demo" -f

# info / list report real values
expect_rc 0 "$UE" info "$A"
grep -q "Parkan NRes archive" "$T/out" && ok || bad "info lacks the format"
expect_rc 0 "$UE" list --json "$A"
n=$(grep -c '"name_hex"' "$T/out"); [ "$n" = 7 ] && ok || bad "list --json shows $n entries, want 7"
grep -q '"nested": "nres"' "$T/out" && ok || bad "nested NRes not recognised"

# extract → pack is byte-identical
expect_rc 0 "$UE" extract "$A" -o "$T/x"
[ -f "$T/x/manifest.json" ] && ok || bad "no manifest"
expect_rc 0 "$UE" pack "$T/x" -o "$T/re.rlb"
cmp -s "$A" "$T/re.rlb" && ok || bad "extract/pack not byte-identical"
expect_rc 0 "$UE" roundtrip "$A"
grep -q identical "$T/out" && ok || bad "roundtrip not identical"

# a nested entry addressed as ARCHIVE:ENTRY
expect_rc 0 "$UE" list "$A:textures_inner.lib"
grep -q GRID_01 "$T/out" && ok || bad "ARCHIVE:ENTRY listing lacks GRID_01"
expect_rc 0 "$UE" roundtrip "$A:textures_inner.lib"
expect_rc 1 "$UE" list "$A:no_such_entry"

# a changed payload packs into a valid archive holding the new bytes
f=$(ls "$T/x/entries/" | grep Robot_Skin)
printf 'changed payload of another size' > "$T/x/entries/$f"
expect_rc 0 "$UE" pack "$T/x" -o "$T/edit.rlb"
expect_rc 0 "$UE" validate --strict "$T/edit.rlb"
expect_rc 0 "$UE" extract "$T/edit.rlb" -o "$T/x2"
cmp -s "$T/x/entries/$f" "$T/x2/entries/$f" && ok || bad "edited payload not carried over"

# validate: the sample is valid, recursively
expect_rc 0 "$UE" validate --json "$A"
grep -q '"valid": true' "$T/out" && ok || bad "validate --json not valid"

# bad input: truncated archive → exit 1, diagnostic with offset, no output directory
mkdir -p "$T/d"; python3 "$HERE/damaged_files.py" "$T/demo" "$T/d" >/dev/null   # tests/cli/damaged_files.py
cp "$T/d/nres_trunc.rlb" "$T/trunc.rlb"
cp "$T/trunc.rlb" "$T/trunc.orig"
expect_rc 1 "$UE" extract "$T/trunc.rlb" -o "$T/never"
[ ! -e "$T/never" ] && ok || bad "partial output left behind"
grep -q '@0x' "$T/err" && ok || bad "diagnostic lacks an offset"
cmp -s "$T/trunc.rlb" "$T/trunc.orig" && ok || bad "input modified"
expect_rc 1 "$UE" validate "$T/trunc.rlb"
printf 'not an archive' > "$T/junk.bin"
expect_rc 1 "$UE" info "$T/junk.bin"
expect_rc 3 "$UE" info "$T/does-not-exist"
expect_rc 2 "$UE" frobnicate
expect_rc 2 "$UE" extract "$A"

# tolerant mode: an entry pointing past the directory is skipped, the rest extracted
cp "$T/d/nres_size.rlb" "$T/damaged.rlb"
expect_rc 1 "$UE" extract "$T/damaged.rlb" -o "$T/strict"
[ ! -e "$T/strict" ] && ok || bad "strict extract left output"
expect_rc 1 "$UE" extract --tolerant "$T/damaged.rlb" -o "$T/tol"
grep -q "skipped damaged entry 1" "$T/err" && ok || bad "tolerant extract did not list the damaged entry"
n=$(ls "$T/tol/entries" | wc -l); [ "$n" = 6 ] && ok || bad "tolerant extract wrote $n files, want 6"

# RsLi: every packing method lists, extracts and packs back byte-identically; an edited
# payload is re-packed with its own method and reads back.
L="$T/demo/parkan/sprites_demo.lib"
expect_rc 0 "$UE" list --json "$L"
for m in stored xor lzss xor+lzss lzhuf xor+lzhuf deflate; do
  grep -q "\"method\": \"$m\"" "$T/out" && ok || bad "RsLi sample lacks method $m"
done
expect_rc 0 "$UE" validate --strict "$L"
expect_rc 0 "$UE" extract "$L" -o "$T/lx"
expect_rc 0 "$UE" pack "$T/lx" -o "$T/l2.lib"
cmp -s "$L" "$T/l2.lib" && ok || bad "RsLi extract/pack not byte-identical"
expect_rc 0 "$UE" roundtrip "$L"
for f in "$T"/lx/entries/*; do printf 'EDITED %s' "$(basename "$f")" > "$f"; done
expect_rc 0 "$UE" pack "$T/lx" -o "$T/l3.lib"
expect_rc 0 "$UE" validate --strict "$T/l3.lib"
expect_rc 0 "$UE" extract "$T/l3.lib" -o "$T/lx3"
same=1
for f in "$T"/lx/entries/*; do cmp -s "$f" "$T/lx3/entries/$(basename "$f")" || same=0; done
[ "$same" = 1 ] && ok || bad "edited RsLi payloads did not survive pack → extract"

# reordering manifest entries rebuilds the sort tables (NRes and RsLi): lookups still work
for src in "$A" "$L"; do
  rm -rf "$T/ro"
  expect_rc 0 "$UE" extract "$src" -o "$T/ro"
  python3 - "$T/ro/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["entries"][0], m["entries"][1] = m["entries"][1], m["entries"][0]
json.dump(m, open(sys.argv[1], "w"), indent=1)
PY
  expect_rc 0 "$UE" pack "$T/ro" -o "$T/ro.bin" -f
  expect_rc 0 "$UE" validate --strict "$T/ro.bin"
  first=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries'][0]['name'])" "$T/ro/manifest.json")
  expect_rc 0 "$UE" list --json "$T/ro.bin"
  [ "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries'][0]['name'])" "$T/out")" = "$first" ] \
    && ok || bad "reordered entry not first after pack"
done
# a nested archive found by name through the rebuilt NRes table
expect_rc 0 "$UE" list "$T/ro.bin" >/dev/null
rm -rf "$T/ro"; expect_rc 0 "$UE" extract "$A" -o "$T/ro"
python3 - "$T/ro/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["entries"].reverse()
json.dump(m, open(sys.argv[1], "w"), indent=1)
PY
expect_rc 0 "$UE" pack "$T/ro" -o "$T/rev.rlb"
expect_rc 0 "$UE" list "$T/rev.rlb:textures_inner.lib"
grep -q GRID_01 "$T/out" && ok || bad "lookup through the rebuilt sort table"

finish
