#!/usr/bin/env bash
# End-to-end tests of what a batch takes as its own in OUTDIR (docs/batch.md, "Output safety",
# "Continuing a batch"): a file that appears at an output path while the batch runs, a file that
# differs from an output only by case, an output the user changed, an input replaced by an older
# or another file, --data from another folder, a second batch on the same OUTDIR, a --report or
# report that is a FIFO, the staging folder, a link put where a folder of outputs goes, a marker
# line too long, a file a user drops into OUT, a folder with no marker of ours. Every user's file
# is checked byte for byte afterwards.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_batch_owner
. "$HERE/cli_lib.sh"
# report FILE EXPR: a value of a JSON report, computed by python from the file itself
report() { python3 -c "import json,sys; d=json.load(open(sys.argv[1], encoding='utf-8')); r=d['records']; print(eval(sys.argv[2]))" "$@"; }
status_of() { report "$1" "[x['status'] for x in r if x['kind']=='model' and x['output']=='$2'][0]"; }
mine() { printf 'the user wrote this\n' > "$1"; }
is_mine() { [ "$(cat "$1" 2>&1)" = "the user wrote this" ] && ok || bad "$2: the user's file $1 was changed or removed"; }

expect_rc 0 "$UE" demo -o "$T/demo"
ROBOT="$T/demo/parkan/robot.msh"

# ---- A file put at an output path while the batch runs, then an interrupt (or its end). ----
# OUT/a/m0500.glb is the user's before the batch reaches it: the batch never takes, replaces or
# removes it, neither in this run nor in the runs that continue it, --fresh included.
S="$T/s"; mkdir -p "$S/a" "$S/b"
python3 -c "import sys; b=open(sys.argv[1],'rb').read(); [open(f'{sys.argv[2]}/m{i:04}.msh','wb').write(b) for i in range(700)]" "$ROBOT" "$S/a"
cp "$ROBOT" "$S/b/robot.msh"
touch -d '1 hour ago' "$S"/a/*.msh "$S/b/robot.msh"
O="$T/o"
"$UE" convert -r "$S" -o "$O" -j 1 >"$T/sig.out" 2>"$T/sig.err" &
pid=$!
for _ in $(seq 1 3000); do [ -d "$O/a" ] && break; sleep 0.01; done
placed_first=no
(set -o noclobber; mine "$O/a/m0500.glb") 2>/dev/null && placed_first=yes
for _ in $(seq 1 3000); do [ -e "$O/a/m0600.glb" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.01; done
kill -INT $pid 2>/dev/null
wait $pid; rc=$?
check "the user's file came before the batch reached it" $placed_first yes
[ "$rc" = 130 ] && echo "cli_batch_owner: the first run was interrupted (exit 130)"
[ "$rc" = 130 ] || [ "$rc" = 1 ] && ok || bad "first run exit code $rc: $(cat "$T/sig.err")"
is_mine "$O/a/m0500.glb" "first run"
expect_rc 1 "$UE" convert -r "$S" -o "$O" -j 1
is_mine "$O/a/m0500.glb" "continued run"
check "continued: the user's file is left" "$(status_of "$O/unearth-batch.json" a/m0500.glb)" left
grep -q "^left (a file that is not this batch's output stands at the path):" "$T/err" && ok || bad "no left list: $(cat "$T/err")"
grep -q "$O/a/m0500.glb: not this batch's output" "$T/err" && ok || bad "the left file is not named: $(cat "$T/err")"
grep -q "^batch: 701 models in 701 files: .* 0 failed, 1 left" "$T/err" && ok || bad "summary: $(cat "$T/err")"
check "continued: b/robot.glb converted now" "$(test -f "$O/b/robot.glb" && echo yes)" yes
touch "$S/a/m0500.msh"      # a newer input: its output would be converted again, but is not ours
expect_rc 1 "$UE" convert -r "$S" -o "$O" -j 1
is_mine "$O/a/m0500.glb" "newer input"
expect_rc 1 "$UE" convert -r "$S" -o "$O" -j 1 --fresh
is_mine "$O/a/m0500.glb" "--fresh"
grep -q "$O/a/m0500.glb: not this batch's output any more .*; left as it is" "$T/err" && ok || bad "--fresh warning: $(cat "$T/err")"
check "--fresh: the rest converted again" "$(report "$O/unearth-batch.json" 'd["summary"]["converted"]')" 700

# ---- A link put where a folder of outputs goes, while the batch runs: that model fails, no
# output goes through the link, the batch goes on. ----
S5="$T/s5"; mkdir -p "$S5/a" "$S5/b" "$T/elsewhere"; cp "$S"/a/m00*.msh "$S"/a/m01*.msh "$S5/a/"; cp "$ROBOT" "$S5/b/robot.msh"
"$UE" convert -r "$S5" -o "$T/o5l" -j 1 >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 1 3000); do [ -d "$T/o5l/a" ] && break; sleep 0.01; done
ln -s "$T/elsewhere" "$T/o5l/b" && [ ! -e "$T/o5l/a/m0199.glb" ] && ok || bad "the batch was too quick for the link test"
wait $pid; check "link: exit code" $? 1
check "nothing written through the link" "$(ls -A "$T/elsewhere" | wc -l)" 0
grep -q "b/robot.msh: error: b: a symbolic link stands where this folder of outputs goes" "$T/err" && ok || bad "link message: $(cat "$T/err")"
grep -q "^batch: 201 models in 201 files: 200 converted, 0 skipped, 1 failed" "$T/err" && ok || bad "link summary: $(cat "$T/err")"

# ---- An output the user changed is theirs: never removed, replaced or counted as kept. ----
S2="$T/s2"; mkdir -p "$S2"; cp "$ROBOT" "$S2/robot.msh"; cp "$ROBOT" "$S2/other.msh"
touch -d '1 hour ago' "$S2"/*.msh
O2="$T/o2"
expect_rc 0 "$UE" convert -r "$S2" -o "$O2"
mine "$O2/robot.glb"; touch -d '1 minute ago' "$O2/robot.glb"   # still newer than its input
expect_rc 1 "$UE" convert -r "$S2" -o "$O2"
is_mine "$O2/robot.glb" "changed output, same command"
check "changed output: status" "$(status_of "$O2/unearth-batch.json" robot.glb)" left
check "changed output: not in files" "$(report "$O2/unearth-batch.json" '"robot.glb" in d["files"]')" False
check "changed output: summary" "$(report "$O2/unearth-batch.json" '(d["summary"]["kept"], d["summary"]["left"])')" "(1, 1)"
touch "$S2/robot.msh"
expect_rc 1 "$UE" convert -r "$S2" -o "$O2"
is_mine "$O2/robot.glb" "changed output, newer input"
expect_rc 1 "$UE" convert -r "$S2" -o "$O2" --fresh
is_mine "$O2/robot.glb" "changed output, --fresh"
rm "$S2/robot.msh"          # its input gone: a complete run removes the outputs that are ours only
expect_rc 0 "$UE" convert -r "$S2" -o "$O2"
is_mine "$O2/robot.glb" "changed output, input gone"
grep -q "$O2/robot.glb: not this batch's output any more" "$T/err" && ok || bad "input gone: no warning: $(cat "$T/err")"
expect_rc 0 "$UE" convert -r "$S2" -o "$O2"   # and OUT is still this batch's
is_mine "$O2/robot.glb" "changed output, once more"

# ---- Letter case: ROBOT.glb beside robot.glb is not the batch's: named, left, its model left. ----
S3="$T/s3"; mkdir -p "$S3"; cp "$ROBOT" "$S3/robot.msh"
O3="$T/o3"
expect_rc 0 "$UE" convert -r "$S3" -o "$O3"
mine "$O3/ROBOT.glb"
mv "$S3/robot.msh" "$S3/ROBOT.msh"   # now the batch would name its output ROBOT.glb
expect_rc 1 "$UE" convert -r "$S3" -o "$O3"
grep -q "^warning: $O3: 1 file not of this batch left as it is: ROBOT.glb \[io.output.stray\]" "$T/err" && ok \
  || bad "case: $(cat "$T/err")"
is_mine "$O3/ROBOT.glb" "another case"
check "case: its model is left" "$(status_of "$O3/unearth-batch.json" ROBOT.glb)" left
expect_rc 1 "$UE" convert -r "$S3" -o "$O3" --fresh
is_mine "$O3/ROBOT.glb" "another case, --fresh"

# ---- Inputs are compared by real path, size and time, not by the path typed. ----
S4="$T/s4"; mkdir -p "$S4"; cp "$ROBOT" "$S4/robot.msh"; touch -d '1 hour ago' "$S4/robot.msh"
O4="$T/o4"
expect_rc 0 "$UE" convert -r "$S4" -o "$O4"
expect_rc 0 "$UE" edit "$ROBOT" -o "$T/other.msh" --scale 2   # another model (as a backup restored)...
cp "$T/other.msh" "$S4/robot.msh"; touch -d '2 hours ago' "$S4/robot.msh"   # ...older than the output
expect_rc 0 "$UE" convert -r "$S4" -o "$O4"
grep -q "^batch: 1 model in 1 file: 1 converted, 0 skipped" "$T/err" && ok || bad "a replaced, older input was kept: $(cat "$T/err")"
# the same relative input from another folder is another folder: another command, refused
mkdir -p "$T/cwd1/in" "$T/cwd2/in"; cp "$ROBOT" "$T/cwd1/in/m.msh"; cp "$ROBOT" "$T/cwd2/in/m.msh"
touch -d '1 hour ago' "$T/cwd1/in/m.msh"; touch -d '2 hours ago' "$T/cwd2/in/m.msh"
(cd "$T/cwd1" && "$UE" convert -r in -o "$T/o5") >/dev/null 2>&1; check "relative input: first run" $? 0
(cd "$T/cwd2" && "$UE" convert -r in -o "$T/o5") >/dev/null 2>"$T/err"; check "relative input elsewhere: refused" $? 2
grep -q "differing in: inputs;" "$T/err" && ok || bad "another folder's input: $(cat "$T/err")"
# the same folder however it is spelled is the same command: everything kept, no doubled slash
# CWD SPELLING pairs: a trailing slash, ./, the absolute path, and from another folder (with //)
set -- "$T/cwd1" in/ "$T/cwd1" ./in "$T/cwd1" "$T/cwd1/in" "$T/cwd2" ../cwd1//in//
while [ $# -gt 0 ]; do
  (cd "$1" && "$UE" convert -r "$2" -o "$T/o5" -v) >/dev/null 2>"$T/err"; check "spelling $2: exit code" $? 0
  grep -q "^batch: 1 model in 1 file: 0 converted, 1 kept, 0 skipped" "$T/err" && ok || bad "spelling $2: $(cat "$T/err")"
  grep -q "//" "$T/err" && bad "spelling $2: doubled slash printed: $(cat "$T/err")" || ok
  shift 2
done
grep -q "//" "$T/o5/unearth-batch.marker" && bad "doubled slash in the marker" || ok
# --data is recorded as its real path: ./data from another folder is another command
mkdir -p "$T/cwd1/data" "$T/cwd2/data"
(cd "$T/cwd1" && "$UE" convert -r "$T/cwd1/in" -o "$T/o6" --data ./data) >/dev/null 2>&1; check "--data: first run" $? 0
(cd "$T/cwd2" && "$UE" convert -r "$T/cwd1/in" -o "$T/o6" --data ./data) >/dev/null 2>"$T/err"; check "--data elsewhere: refused" $? 2
grep -q "differing in: data;" "$T/err" && ok || bad "--data message: $(cat "$T/err")"

# ---- One batch per OUTDIR at a time: a second is refused at once and touches nothing. ----
(cd "$O4" && find . -printf '%p %s %i %T@\n' | sort) > "$T/before"
cp "$O4/unearth-batch.marker" "$T/marker.before"
flock "$O4" "$UE" convert -r "$S4" -o "$O4" --fresh >"$T/out" 2>"$T/err"; check "second batch: exit code" $? 3
grep -q "^unearth: convert: $O4: another unearth batch is writing into this directory now; nothing done" "$T/err" && ok \
  || bad "lock message: $(cat "$T/err")"
(cd "$O4" && find . -printf '%p %s %i %T@\n' | sort) > "$T/after"
cmp -s "$T/before" "$T/after" && cmp -s "$O4/unearth-batch.marker" "$T/marker.before" && ok || bad "a refused batch touched OUT"
mkdir -p "$T/o7"
flock "$T/o7" "$UE" convert -r "$S4" -o "$T/o7" >"$T/out" 2>"$T/err"; check "second batch, empty OUT: exit code" $? 3
check "second batch, empty OUT: nothing made" "$(ls -A "$T/o7" | wc -l)" 0

# ---- Reports are read only from regular files: a FIFO never blocks. ----
mkfifo "$T/fifo.json"
timeout 20 "$UE" convert -r "$S4" -o "$T/o8" --report "$T/fifo.json" >"$T/out" 2>"$T/err"; check "--report FIFO: exit code" $? 2
grep -q "^unearth: convert: --report $T/fifo.json is not a regular file" "$T/err" && ok || bad "--report FIFO: $(cat "$T/err")"
timeout 20 "$UE" convert -r "$S4" -o "$T/o8" --report /dev/stdout 2>"$T/err" | cat >/dev/null; check "--report /dev/stdout (a pipe): exit code" "${PIPESTATUS[0]}" 2
mkdir -p "$T/o9"; mkfifo "$T/o9/unearth-batch.json"
timeout 20 "$UE" convert -r "$S4" -o "$T/o9" >"$T/out" 2>"$T/err"; check "OUT holding a FIFO report: exit code" $? 2
grep -q "is not an unearth convert -r output" "$T/err" && ok || bad "FIFO report in OUT: $(cat "$T/err")"

# ---- The staging folder holds staged files at its top only, and goes at the end. ----
mkdir -p "$O4/unearth-batch.partial/sub"; mine "$O4/unearth-batch.partial/sub/x.glb"
expect_rc 0 "$UE" convert -r "$S4" -o "$O4"
grep -q "^warning: $O4: 1 file not of this batch left as it is: unearth-batch.partial/sub/x.glb " "$T/err" && ok \
  || bad "a file in a staging subfolder: not named: $(cat "$T/err")"
is_mine "$O4/unearth-batch.partial/sub/x.glb" "a file in a staging subfolder"
rm "$O4/unearth-batch.partial/sub/x.glb"      # an empty folder left there: cleared with the rest
expect_rc 0 "$UE" convert -r "$S4" -o "$O4"
[ ! -e "$O4/unearth-batch.partial" ] && ok || bad "the staging folder stayed: $(find "$O4/unearth-batch.partial")"

# ---- A marker line longer than any line of ours is passed over: it lists nothing. ----
mine "$O4/user.glb"
python3 -c "import sys; open(sys.argv[1],'a').write('file\tuser.glb\t\t' + 'x'*20000 + '\t/x\t1\t1\n')" "$O4/unearth-batch.marker"
expect_rc 0 "$UE" convert -r "$S4" -o "$O4" --fresh
grep -q "^warning: $O4: 1 file not of this batch left as it is: user.glb " "$T/err" && ok \
  || bad "a file named by an overlong marker line: not named: $(cat "$T/err")"
is_mine "$O4/user.glb" "a file named by an overlong marker line"

# ---- A file a user drops into OUT stays theirs: named, left byte for byte by a resume and --fresh. ----
O8="$T/o8"
expect_rc 0 "$UE" convert -r "$S4" -o "$O8"
echo mine > "$O8/notes.txt"
for extra in "" --fresh -f; do
  expect_rc 0 "$UE" convert -r "$S4" -o "$O8" $extra
  grep -q "^warning: $O8: 1 file not of this batch left as it is: notes.txt \[io.output.stray\]" "$T/err" && ok \
    || bad "stray ${extra:-resume}: not named: $(cat "$T/err")"
  check "stray ${extra:-resume}: its bytes" "$(cat "$O8/notes.txt")" mine
done
echo more > "$O8/more.txt"; mkdir -p "$O8/d"; for i in 1 2 3 4 5; do echo "$i" > "$O8/d/$i.txt"; done
expect_rc 0 "$UE" convert -r "$S4" -o "$O8"
grep -q "^warning: $O8: 7 files not of this batch left as they are: .* and 2 more \[io.output.stray\]" "$T/err" && ok \
  || bad "seven strays: $(cat "$T/err")"
check "seven strays: each once" "$(grep -o '[a-z0-9/]*\.txt' "$T/err" | sort | uniq -d | wc -l)" 0
check "seven strays: not counted" "$(report "$O8/unearth-batch.json" '(len(d["files"]), d["summary"]["kept"])')" "(1, 1)"
# a folder with no marker of ours is refused, naming a file that makes it foreign, touching nothing
# (also when another thing makes it foreign first: o9 holds a FIFO named as the report)
for dir in "$T/o10" "$T/o9"; do
  mkdir -p "$dir"; echo theirs > "$dir/theirs.txt"
  (cd "$dir" && find . -printf '%p %y %s %i %T@\n' | sort) > "$T/before"
  for extra in "" --fresh -f; do
    expect_rc 2 "$UE" convert -r "$S4" -o "$dir" $extra
    grep -q "not an unearth convert -r output; .*; it holds theirs.txt \[io.output.foreign\]" "$T/err" && ok \
      || bad "foreign folder ${extra:-plain}: file not named: $(cat "$T/err")"
    (cd "$dir" && find . -printf '%p %y %s %i %T@\n' | sort) > "$T/after"
    cmp -s "$T/before" "$T/after" && ok || bad "foreign folder ${extra:-plain}: changed: $(diff "$T/before" "$T/after")"
  done
done
finish
