#!/usr/bin/env bash
# End-to-end tests of the batch `convert -r` (docs/batch.md): a generated game folder with good
# and damaged files, nested archives, an unreadable folder and file, symbolic-link loops; the
# summary and report counts, mirrored paths, the same bytes from -j 1 and -j 2, exit codes, -f,
# --follow-links. A batch that ends early and is continued: cli_batch_resume.sh.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_batch
. "$HERE/cli_lib.sh"
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
# report FILE EXPR: a value of the JSON report, computed by python from the file itself
report() { python3 -c "import json,sys; d=json.load(open(sys.argv[1], encoding='utf-8')); r=d['records']; print(eval(sys.argv[2]))" "$@"; }

expect_rc 0 "$UE" demo -o "$T/demo"
mkdir -p "$T/d"; python3 "$HERE/damaged_files.py" "$T/demo" "$T/d" >/dev/null   # tests/cli/damaged_files.py

# A nested archive: objects.rlb with its empty entry replaced by a whole copy of objects.rlb,
# so it holds ROBOT.msh directly and inside "empty.bin" (an NRes within the NRes).
expect_rc 0 "$UE" extract "$T/demo/parkan/objects.rlb" -o "$T/x"
cp "$T/demo/parkan/objects.rlb" "$T/x/entries/0005_empty.bin"
expect_rc 0 "$UE" pack "$T/x" -o "$T/outer.rlb"

# The game folder G. Models (7): robot.msh, Robot copy.msh, archives/objects.rlb:ROBOT.msh,
# archives/outer.rlb:ROBOT.msh, archives/outer.rlb:empty.bin:ROBOT.msh, the damaged
# msh_batch.msh (strict: fails), and robot.msh beside robot.MSH (same stem: names are read in
# byte order, so robot.MSH takes "robot.glb" and robot.msh gets "robot~2.glb").
G="$T/G"
mkdir -p "$G/models" "$G/archives" "$G/damaged" "$G/sounds"
cp "$T/demo/parkan/robot.msh" "$G/models/robot.msh"
cp "$T/demo/parkan/robot.msh" "$G/models/robot.MSH"
cp "$T/demo/parkan/robot.msh" "$G/models/Robot copy.msh"
cp "$T/demo/parkan/objects.rlb" "$G/archives/objects.rlb"
cp "$T/outer.rlb" "$G/archives/outer.rlb"
cp "$T/d/msh_batch.msh" "$T/d/nres_trunc.rlb" "$G/damaged/"
cp "$T/demo/gamecube/demo_colo.fsys" "$G/archives/"           # a container without models
cp "$T/demo/parkan/textures_demo.lib" "$G/archives/"           # textures only: no model
printf 'not an asset\n' > "$G/sounds/readme.txt"
ln -s .. "$G/models/loop"                                      # a link back up: a loop
expected_failed=2   # msh_batch.msh (model) and nres_trunc.rlb (file)
expected_skipped=4  # demo_colo.fsys, textures_demo.lib, readme.txt, the link
# Unreadable folder and file: permissions do not bite root, so as root the two batches that
# meet them run as the user nobody (setpriv); without setpriv those checks are skipped, and
# the test says so.
unreadable=no; AS=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  AS=(setpriv --reuid=65534 --regid=65534 --clear-groups); chmod a+rwx "$T"
fi
if [ "$(id -u)" != 0 ] || [ ${#AS[@]} != 0 ]; then
  mkdir -p "$G/locked"; cp "$T/demo/parkan/robot.msh" "$G/locked/hidden.msh"; chmod 000 "$G/locked"
  cp "$T/demo/parkan/robot.msh" "$G/models/secret.msh"; chmod 000 "$G/models/secret.msh"
  unreadable=yes; expected_failed=4
else
  echo "cli_batch: running as root without setpriv, where permissions do not bite: unreadable file and folder checks skipped"
fi

# -j 1: exit 1 (something failed), the summary and the report agree with what G holds.
expect_rc 1 "${AS[@]}" "$UE" convert -r "$G" -o "$T/o1" -j 1 --report "$T/r1.json"
grep -q "^batch: 7 models in " "$T/err" && ok || bad "summary line: $(head -1 "$T/err")"
grep -q " 6 converted, $expected_skipped skipped, $expected_failed failed" "$T/err" && ok || bad "summary counts: $(grep '^batch:' "$T/err")"
grep -q "msh\.batch\.vertex" "$T/err" && ok || bad "summary lacks the damaged model's reason"
grep -q $'\r' "$T/err" && bad "progress bar drawn on a non-terminal" || ok
check "report models" "$(report "$T/r1.json" 'd["summary"]["models"]')" 7
check "report converted" "$(report "$T/r1.json" 'd["summary"]["converted"]')" 6
check "report failed" "$(report "$T/r1.json" 'd["summary"]["failed"]')" "$expected_failed"
check "report skipped" "$(report "$T/r1.json" 'd["summary"]["skipped"]')" "$expected_skipped"
check "converted records" "$(report "$T/r1.json" 'sum(1 for x in r if x["status"]=="converted")')" 6
check "damaged model" "$(report "$T/r1.json" '[x["status"] for x in r if x["input"].endswith("msh_batch.msh")]')" "['read', 'failed']"
check "damaged archive" "$(report "$T/r1.json" '[x["diagnostics"][0]["code"] for x in r if x["input"].endswith("nres_trunc.rlb")]')" "['nres.header.count']"
check "link" "$(report "$T/r1.json" '[(x["kind"],x["status"]) for x in r if x["input"].endswith("/loop")]')" "[('link', 'skipped')]"
check "no-model archive" "$(report "$T/r1.json" '[x["reason"] for x in r if x["input"].endswith("demo_colo.fsys")]')" "['holds no model']"
if [ $unreadable = yes ]; then
  check "unreadable folder" "$(report "$T/r1.json" '[(x["kind"],x["status"]) for x in r if x["input"].endswith("/locked")]')" "[('directory', 'failed')]"
  check "unreadable file" "$(report "$T/r1.json" '[x["status"] for x in r if x["input"].endswith("secret.msh")]')" "['failed']"
  grep -q "locked: cannot read directory: Permission denied" "$T/err" && ok || bad "summary lacks the unreadable folder"
fi
node "$HERE/../json_schema_check.mjs" "$HERE/../../docs/schema/batch.schema.json" "$T/r1.json" "$T/o1/unearth-batch.json" \
  && ok || bad "report does not match docs/schema/batch.schema.json"
cmp -s "$T/r1.json" "$T/o1/unearth-batch.json" && ok || bad "--report differs from OUT/unearth-batch.json"

# Mirrored paths: the folders of G, then each container as a folder.
for f in models/robot.glb "models/robot~2.glb" "models/Robot copy.glb" archives/objects.rlb/ROBOT.glb \
         archives/outer.rlb/ROBOT.glb archives/outer.rlb/empty.bin/ROBOT.glb unearth-batch.json unearth-batch.marker; do
  [ -f "$T/o1/$f" ] && ok || bad "missing $f in the mirror: $(cd "$T/o1" && find . -type f | sort | tr '\n' ' ')"
done
check "files in OUT" "$(find "$T/o1" -type f | wc -l)" 8
check "files listed" "$(report "$T/r1.json" 'len(d["files"])')" 6
check "output of robot.msh" "$(report "$T/r1.json" '[x["output"] for x in r if x["input"].endswith("robot.msh")]')" "[None, 'models/robot~2.glb']"
[ ! -e "$T/o1/damaged/msh_batch.glb" ] && ok || bad "a failed model left a file"
validate_gltf "$T/o1/archives/outer.rlb/empty.bin/ROBOT.glb" "$T/o1/models/Robot copy.glb"
# A batch writes the same bytes as a one-model convert.
expect_rc 0 "$UE" convert "$G/models/robot.MSH" -o "$T/single.glb"
cmp -s "$T/single.glb" "$T/o1/models/robot.glb" && ok || bad "batch output differs from convert of one model"

# Parkan models find their WEAR and libraries beside them in a batch as in a single convert
# (the "origin" option): a copy of the demo folder gives textured output, byte for byte the same.
P="$T/P"; cp -r "$T/demo/parkan" "$P"
expect_rc 0 "$UE" convert -r "$P" -o "$T/po"
expect_rc 0 "$UE" convert "$P/robot.msh" -o "$T/p_robot.glb"
cmp -s "$T/p_robot.glb" "$T/po/robot.glb" && ok || bad "batch robot.glb differs from the single convert"
expect_rc 0 "$UE" convert "$P/objects.rlb:ROBOT.msh" -o "$T/p_entry.glb"
cmp -s "$T/p_entry.glb" "$T/po/objects.rlb/ROBOT.glb" && ok || bad "batch objects.rlb:ROBOT.msh differs from the single convert"
check "textured robot" "$(grep -c '"images"' "$T/po/robot.glb")" 1
check "no origin note" "$(grep -c 'msh.material.origin' "$T/po/unearth-batch.json")" 0
# --scale is applied in a batch as in a single convert.
expect_rc 0 "$UE" convert -r "$P" -o "$T/ps" --scale 2.5
expect_rc 0 "$UE" convert "$P/robot.msh" -o "$T/p_scaled.glb" --scale 2.5
cmp -s "$T/p_scaled.glb" "$T/ps/robot.glb" && ok || bad "batch --scale differs from the single convert"
cmp -s "$T/p_scaled.glb" "$T/p_robot.glb" && bad "--scale changed nothing" || ok
# --data names where the libraries are: a model with only its WEAR beside it finds them there.
mkdir -p "$T/PD/m" "$T/PD/data"; cp "$P/robot.msh" "$P/robot.wea" "$T/PD/m/"
cp "$P/Material.lib" "$P/Textures.lib" "$T/PD/data/"
expect_rc 0 "$UE" convert -r "$T/PD/m" -o "$T/pd" --data "$T/PD/data"
cmp -s "$T/p_robot.glb" "$T/pd/robot.glb" && ok || bad "batch --data did not find the libraries"
expect_rc 0 "$UE" convert -r "$T/PD/m" -o "$T/pn"
cmp -s "$T/p_robot.glb" "$T/pn/robot.glb" && bad "without --data the libraries were found anyway" || ok
check "missing library noted" "$(grep -c 'msh.material.library' "$T/pn/unearth-batch.json")" 1

# -j 2 gives the same bytes, file for file, and the same report but for its "output".
expect_rc 1 "${AS[@]}" "$UE" convert -r "$G" -o "$T/o2" -j 2
(cd "$T/o1" && find . -type f ! -name unearth-batch.json | sort) > "$T/l1"
(cd "$T/o2" && find . -type f ! -name unearth-batch.json | sort) > "$T/l2"
cmp -s "$T/l1" "$T/l2" && ok || bad "-j 2 wrote other files than -j 1"
same=yes; while IFS= read -r f; do [ "$f" = ./unearth-batch.marker ] || cmp -s "$T/o1/$f" "$T/o2/$f" || same=no; done < "$T/l1"
check "-j 1 and -j 2 bytes" $same yes
# the markers too, but for the time and inode of each file placed (its size is the same)
cut -f1-3 "$T/o1/unearth-batch.marker" > "$T/m1"; cut -f1-3 "$T/o2/unearth-batch.marker" > "$T/m2"
cmp -s "$T/m1" "$T/m2" && ok || bad "-j 2 wrote another marker than -j 1: $(diff "$T/m1" "$T/m2" | head -3)"
strip_output() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d.pop('output'); print(json.dumps(d))" "$1"; }
[ "$(strip_output "$T/o1/unearth-batch.json")" = "$(strip_output "$T/o2/unearth-batch.json")" ] && ok \
  || bad "-j 2 report differs from -j 1"

# -v names every model; several roots put each root's name first.
expect_rc 0 "$UE" convert -r "$G/models" "$G/archives" -o "$T/two" -v -j 2
grep -q "outer.rlb:empty.bin:ROBOT.msh -> $T/two/archives/outer.rlb/empty.bin/ROBOT.glb" "$T/err" && ok || bad "-v line"
[ -f "$T/two/models/robot.glb" ] && [ -f "$T/two/archives/objects.rlb/ROBOT.glb" ] && ok || bad "roots' names first"

# An ARCHIVE:ENTRY input is one file of the batch, named after the address.
expect_rc 0 "$UE" convert -r "$G/archives/objects.rlb:ROBOT.msh" -o "$T/entry"
[ -f "$T/entry/objects.rlb_ROBOT.glb" ] && ok || bad "ARCHIVE:ENTRY input: $(cd "$T/entry" && find . -type f)"

# An existing output of other inputs: refused without -f; an earlier batch output is replaced
# with -f; a directory holding anything else is never replaced.
expect_rc 2 "$UE" convert -r "$G/archives" -o "$T/o1"
grep -q "it is an unearth convert -r output of other options, differing in: inputs; use --fresh or -f" "$T/err" && ok || bad "refusal reason: $(cat "$T/err")"
expect_rc 0 "$UE" convert -r "$G/archives" -o "$T/o1" -f
[ -f "$T/o1/outer.rlb/ROBOT.glb" ] && [ ! -e "$T/o1/models" ] && ok || bad "-f did not replace the earlier output"
echo precious > "$T/o1/notes.txt"     # a user's file in a batch's OUT: left, said, the batch goes on
expect_rc 0 "$UE" convert -r "$G/archives" -o "$T/o1" -f
grep -q "1 file not of this batch left as it is: notes.txt \[io.output.stray\]" "$T/err" && ok || bad "stray: $(cat "$T/err")"
[ "$(cat "$T/o1/notes.txt")" = precious ] && ok || bad "a foreign file was replaced"
[ ! -e "$T/o1/unearth-batch.partial" ] && ok || bad "a batch left its staging folder"
# An OUT of an earlier version (a report, no marker) is still recognised: replaced with -f only.
rm "$T/o1/notes.txt"; mkdir -p "$T/old/outer.rlb"; cp "$T/o1/outer.rlb/ROBOT.glb" "$T/old/outer.rlb/"
printf '{"unearth_batch": 1, "files": ["outer.rlb/ROBOT.glb"]}\n' > "$T/old/unearth-batch.json"
expect_rc 2 "$UE" convert -r "$G/archives" -o "$T/old"
grep -q "without a marker, from an earlier version; use --fresh or -f" "$T/err" && ok || bad "earlier-version message: $(cat "$T/err")"
echo precious > "$T/old/notes.txt"   # without a marker, a file the report does not list: refused
expect_rc 2 "$UE" convert -r "$G/archives" -o "$T/old" --fresh
grep -q "; it holds notes.txt \[io.output.foreign\]" "$T/err" && ok || bad "report-only OUT with a stray: $(cat "$T/err")"
[ "$(cat "$T/old/notes.txt")" = precious ] && ok || bad "a foreign file was replaced"
rm "$T/old/notes.txt"
expect_rc 0 "$UE" convert -r "$G/archives" -o "$T/old" --fresh
[ -f "$T/old/unearth-batch.marker" ] && ok || bad "--fresh over an earlier version wrote no marker"

# Usage: the batch writes a directory; --report and --follow-links belong to -r.
expect_rc 2 "$UE" convert -r "$G" -o "$T/one.glb"
expect_rc 2 "$UE" convert "$G/models/robot.msh" -o "$T/x.glb" --report "$T/r.json"
expect_rc 2 "$UE" convert -r "$G" -o "$G/out"                 # inside the input

# --report inside OUTDIR is refused up front (the next -f run would find a foreign file there),
# however the path is spelt and whether OUTDIR exists yet; its missing folders are made.
expect_rc 2 "$UE" convert -r "$P" -o "$T/ri" --report "$T/ri/r.json"
grep -q "lies inside the output directory" "$T/err" && ok || bad "report-inside message: $(cat "$T/err")"
[ ! -e "$T/ri" ] && ok || bad "a refused report left OUTDIR"
expect_rc 2 "$UE" convert -r "$P" -o "$T/po" -f --report "$T/po/../po/sub/r.json"
expect_rc 0 "$UE" convert -r "$P" -o "$T/rn" --report "$T/nodir/sub/r.json"
cmp -s "$T/nodir/sub/r.json" "$T/rn/unearth-batch.json" && ok || bad "--report in new folders not written"
: > "$T/afile"
expect_rc 3 "$UE" convert -r "$P" -o "$T/rf" --report "$T/afile/r.json"
grep -q "a file stands where its folder would be made" "$T/err" && ok || bad "report under a file: $(cat "$T/err")"
[ ! -e "$T/rf" ] && ok || bad "a report that cannot be written left OUTDIR"

# A root that is not there, or cannot be read, is exit 3 before anything is written.
expect_rc 3 "$UE" convert -r "$T/nonexist" -o "$T/q"
grep -q "^error: $T/nonexist: cannot open: No such file or directory \[io.open\]" "$T/err" && ok || bad "missing root message: $(cat "$T/err")"
[ ! -e "$T/q" ] && ok || bad "a missing root left OUTDIR"
expect_rc 3 "$UE" convert -r "$P" "$T/nonexist.rlb:ROBOT.msh" -o "$T/q"
[ ! -e "$T/q" ] && ok || bad "a missing ARCHIVE:ENTRY root left OUTDIR"
if [ $unreadable = yes ]; then
  expect_rc 3 "${AS[@]}" "$UE" convert -r "$G/locked" -o "$T/q"
  grep -q "cannot open: Permission denied" "$T/err" && ok || bad "unreadable root message: $(cat "$T/err")"
  [ ! -e "$T/q" ] && ok || bad "an unreadable root left OUTDIR"
fi

# --follow-links: linked folders are entered once each, a link loop ends.
L="$T/L"; mkdir -p "$L/real" "$T/elsewhere"
cp "$T/demo/parkan/robot.msh" "$L/real/a.msh"; cp "$T/demo/parkan/robot.msh" "$T/elsewhere/b.msh"
ln -s ../elsewhere "$L/link1"; ln -s ../elsewhere "$L/link2"; ln -s .. "$L/real/up"; ln -s ../real "$L/real/self"
expect_rc 0 "$UE" convert -r "$L" -o "$T/lo" --follow-links
check "followed models" "$(report "$T/lo/unearth-batch.json" 'd["summary"]["converted"]')" 2
[ -f "$T/lo/link1/b.glb" ] && [ ! -e "$T/lo/link2" ] && ok || bad "the linked folder was not converted once"
check "loops skipped" "$(report "$T/lo/unearth-batch.json" 'sorted(x["input"].split("/")[-1] for x in r if "already visited" in (x["reason"] or ""))')" "['link2', 'self', 'up']"
expect_rc 0 "$UE" convert -r "$L" -o "$T/ln"
check "unfollowed links" "$(report "$T/ln/unearth-batch.json" 'd["summary"]["skipped"]')" 4

# A link met before the real folder (byte order, or in an earlier folder) does not take its
# models: the real path wins, and the link is the skipped record, whatever -j.
R="$T/R"; mkdir -p "$R/gc" "$R/deep/x"; cp "$T/demo/parkan/robot.msh" "$R/gc/m.msh"
ln -s gc "$R/a_link"; ln -s ../../gc "$R/deep/x/z"
for j in 1 2; do
  expect_rc 0 "$UE" convert -r "$R" -o "$T/rl$j" --follow-links -j $j
  check "files under the real path (-j $j)" "$(cd "$T/rl$j" && find . -type f | sort | tr '\n' ' ')" "./gc/m.glb ./unearth-batch.json ./unearth-batch.marker "
  check "links skipped (-j $j)" "$(report "$T/rl$j/unearth-batch.json" '[(x["input"].split("/")[-1],x["kind"],x["status"]) for x in r if x["kind"]=="link"]')" \
    "[('a_link', 'link', 'skipped'), ('z', 'link', 'skipped')]"
done
cmp -s "$T/rl1/gc/m.glb" "$T/rl2/gc/m.glb" && ok || bad "-j 1 and -j 2 differ with links"

finish
