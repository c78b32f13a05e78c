#!/usr/bin/env bash
# End-to-end tests of a batch that ends early and is continued (docs/batch.md, "When a batch
# ends early"): SIGINT and SIGTERM mid-batch keep every finished output, listed in OUT's marker
# and counted exactly by the summary and the report; the same command then finishes the rest and
# rewrites nothing it kept (inode and mtime unchanged); --fresh redoes everything; other options
# are refused; a full file system stops the batch at once (a small tmpfs as root, else
# RLIMIT_FSIZE); a read-only OUT is refused before any model is converted.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_batch_resume
. "$HERE/cli_lib.sh"
MOUNTS=()
cleanup() {
  for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
  chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"
}
trap cleanup EXIT
# Job control: a command started with & gets SIGINT as a terminal would send it (without it,
# the shell starts background commands with SIGINT ignored, which unearth then leaves ignored).
set -m
# report FILE EXPR: a value of a JSON report, computed by python from the file itself
report() { python3 -c "import json,sys; d=json.load(open(sys.argv[1], encoding='utf-8')); r=d['records']; print(eval(sys.argv[2]))" "$@"; }
outputs() { find "$1" -name '*.glb' -type f | wc -l; }
# every output: path, inode, mtime in ns (what "rewritten" would change)
snapshot() { (cd "$1" && find . -name '*.glb' -type f -printf '%p %i %T@\n' | sort); }
# the report agrees with OUT: its converted + kept outputs are exactly the files there
agrees() { # agrees WHAT REPORT OUT
  python3 - "$2" "$3" <<'EOF' && ok || bad "$1: the report does not match the files in OUT"
import json, os, sys
d = json.load(open(sys.argv[1], encoding='utf-8'))
out = sys.argv[2]
present = set()
for root, dirs, files in os.walk(out):
    dirs[:] = [x for x in dirs if x != 'unearth-batch.partial']
    present |= {os.path.relpath(os.path.join(root, f), out) for f in files if f.endswith('.glb')}
listed = {x['output'] for x in d['records'] if x['status'] in ('converted', 'kept')}
s = d['summary']
marker = open(os.path.join(out, 'unearth-batch.marker'), encoding='utf-8', errors='replace').read()
in_marker = {l.split('\t')[1] for l in marker.splitlines() if l.startswith('file\t')}
ok = (listed == present == set(d['files']) and s['converted'] + s['kept'] == len(present)
      and present <= in_marker)
if not ok:
    print('present', len(present), 'listed', len(listed), 'files', len(d['files']), 'summary', s,
          'unlisted in marker', sorted(present - in_marker)[:5], file=sys.stderr)
sys.exit(0 if ok else 1)
EOF
}
# start_then KILL_SIGNAL OUT ARGS...: runs a batch in the background, sends the signal once it
# has written 20 outputs; rc in $rc, stderr in $T/sig.err
start_then() {
  local sig=$1 out=$2; shift 2
  touch "$T/stamp"
  "$UE" convert "$@" >"$T/sig.out" 2>"$T/sig.err" &
  local pid=$! n=0
  for _ in $(seq 1 3000); do
    n=$(find "$out" -name '*.glb' -newer "$T/stamp" 2>/dev/null | wc -l); [ "$n" -ge 20 ] && break
    kill -0 $pid 2>/dev/null || break; sleep 0.01
  done
  kill -"$sig" $pid 2>/dev/null && sent=yes || sent=no
  wait $pid; rc=$?
}

expect_rc 0 "$UE" demo -o "$T/demo"
N=800
B="$T/big"; mkdir -p "$B"
python3 -c "import sys; b=open(sys.argv[1],'rb').read(); [open(f'{sys.argv[2]}/m{i:04}.msh','wb').write(b) for i in range(int(sys.argv[3]))]" \
  "$T/demo/parkan/robot.msh" "$B" $N

# SIGINT mid-batch: exit 130, the finished outputs stay, and everything says how many.
O="$T/o"
start_then INT "$O" -r "$B" -o "$O" -j 2 --report "$T/r.json"
check "SIGINT reached a running batch" $sent yes
check "exit code after SIGINT" $rc 130
grep -q "^unearth: convert: interrupted (SIGINT)" "$T/sig.err" && ok || bad "no interrupt line: $(cat "$T/sig.err")"
kept=$(outputs "$O")
[ "$kept" -ge 20 ] && [ "$kept" -lt $N ] && ok || bad "outputs after SIGINT: $kept"
grep -q "^unearth: convert: $O holds $kept converted models ($kept now, 0 kept from before)" "$T/sig.err" && ok \
  || bad "what-exists line: $(cat "$T/sig.err")"
check "report stopped" "$(report "$T/r.json" 'd["stopped"]')" interrupted
check "report converted" "$(report "$T/r.json" 'd["summary"]["converted"]')" "$kept"
check "report not done" "$(report "$T/r.json" 'd["summary"]["not_done"] > 0')" True
cmp -s "$T/r.json" "$O/unearth-batch.json" && ok || bad "--report differs from OUT/unearth-batch.json"
agrees "after SIGINT" "$T/r.json" "$O"
node "$HERE/../json_schema_check.mjs" "$HERE/../../docs/schema/batch.schema.json" "$T/r.json" \
  && ok || bad "interrupted report does not match docs/schema/batch.schema.json"
[ ! -e "$O/unearth-batch.partial" ] && ok || bad "the staging folder was left in OUT"
snapshot "$O" > "$T/snap1"

# A second SIGINT ends the batch at once, as it ends every verb: temporaries removed, exit 130.
# Signals are not queued: when the batch finishes its orderly stop between two of the SIGINTs
# sent below, only one was seen; that run proves nothing either way, so it is tried again.
twice_run() {
  O2="$T/o-twice"; rm -rf "$O2"
  touch "$T/stamp"
  "$UE" convert -r "$B" -o "$O2" -j 2 >/dev/null 2>"$T/twice.err" &
  pid=$!
  for _ in $(seq 1 3000); do
    [ "$(find "$O2" -name '*.glb' -newer "$T/stamp" 2>/dev/null | wc -l)" -ge 20 ] && break
    kill -0 $pid 2>/dev/null || break; sleep 0.01
  done
  # two signals sent at once may arrive as one: SIGINT again every few ms until the process ends
  for _ in $(seq 1 400); do kill -INT $pid 2>/dev/null || break; sleep 0.002; done
  wait $pid; rc=$?
}
for attempt in 1 2 3 4 5; do
  twice_run
  grep -q "interrupted again" "$T/twice.err" && break
  echo "$NAME: note: attempt $attempt saw one SIGINT only (the stop finished first); trying again"
done
check "exit code after a second SIGINT" $rc 130
grep -q "^unearth: convert: interrupted again (SIGINT); stopped at once" "$T/twice.err" && ok \
  || bad "second SIGINT line: $(cat "$T/twice.err")"
check "temporaries after a second SIGINT" "$(find "$O2" -name '*.tmp-*' -o -name '*.partial-*' | wc -l)" 0

# The same command continues: the rest is converted, nothing kept is rewritten.
expect_rc 0 "$UE" convert -r "$B" -o "$O" -j 2 --report "$T/r.json"
grep -q "^batch: $N models in $N files: $((N - kept)) converted, $kept kept, 0 skipped, 0 failed" "$T/err" && ok \
  || bad "resumed summary: $(cat "$T/err")"
check "outputs after resuming" "$(outputs "$O")" $N
check "resumed report kept" "$(report "$T/r.json" 'd["summary"]["kept"]')" "$kept"
check "resumed report stopped" "$(report "$T/r.json" 'd["stopped"]')" None
agrees "after resuming" "$T/r.json" "$O"
snapshot "$O" | grep -F -x -f "$T/snap1" > "$T/snap1b"
cmp -s "$T/snap1" "$T/snap1b" && ok || bad "a kept output was rewritten: $(diff "$T/snap1" "$T/snap1b" | head -3)"
check "marker lines after a complete run" "$(grep -c '^file	' "$O/unearth-batch.marker")" $N
snapshot "$O" > "$T/snap2"

# Once more: everything is kept, nothing is written; an input made newer is converted again.
expect_rc 0 "$UE" convert -r "$B" -o "$O"
grep -q "^batch: $N models in $N files: 0 converted, $N kept," "$T/err" && ok || bad "all kept: $(cat "$T/err")"
snapshot "$O" > "$T/snap3"
cmp -s "$T/snap2" "$T/snap3" && ok || bad "a run with nothing to do rewrote outputs"
touch -d '+2 seconds' "$B/m0005.msh"
expect_rc 0 "$UE" convert -r "$B" -o "$O"
grep -q "^batch: $N models in $N files: 1 converted, $((N - 1)) kept," "$T/err" && ok || bad "newer input: $(cat "$T/err")"
touch -d '1 minute ago' "$B/m0005.msh"   # older than every output again

# Other options are another command: refused (exit 2), with or without --resume; OUT untouched.
expect_rc 2 "$UE" convert -r "$B" -o "$O" --format obj
grep -q "differing in: format; use --fresh or -f" "$T/err" && ok || bad "other options message: $(cat "$T/err")"
expect_rc 2 "$UE" convert -r "$B" -o "$O" --scale 2 --resume
grep -q "differs in: scale); --resume continues only the same command" "$T/err" && ok || bad "--resume message: $(cat "$T/err")"
expect_rc 2 "$UE" convert -r "$B" -o "$O" --fresh --resume
check "outputs after refusals" "$(outputs "$O")" $N

# A marker is hostile input: a listed path leading out of OUT, relative or absolute, is never
# removed by --fresh, even with a "placed" line giving the identity of the file it names. (OUT's
# paths are resolved from OUT opened as a directory, where an absolute path would reach the file.)
mkdir -p "$T/s" "$T/victim"; cp "$B/m0001.msh" "$B/m0002.msh" "$T/s/"
echo keep > "$T/victim/relative"; echo keep > "$T/victim/absolute"
expect_rc 0 "$UE" convert -r "$T/s" -o "$T/so"
python3 - "$T/so/unearth-batch.marker" "$T/victim" <<'EOF'
import os, sys
with open(sys.argv[1], 'a') as m:
    for name, path in (('relative', '../victim/relative'), ('absolute', sys.argv[2] + '/absolute')):
        st = os.stat(os.path.join(sys.argv[2], name))
        m.write(f'file\t{path}\t\tx\t\t1\t1\nplaced\t{path}\t{st.st_size}\t{st.st_mtime_ns}\t{st.st_ino}\n')
EOF
expect_rc 0 "$UE" convert -r "$T/s" -o "$T/so" --fresh
check "a file outside OUT named by the marker (relative)" "$(cat "$T/victim/relative" 2>&1)" keep
check "a file outside OUT named by the marker (absolute)" "$(cat "$T/victim/absolute" 2>&1)" keep

# --fresh redoes everything: the earlier outputs go first; SIGTERM (-j 1) keeps what is done.
start_then TERM "$O" -r "$B" -o "$O" -j 1 --fresh
check "SIGTERM reached a running batch" $sent yes
check "exit code after SIGTERM" $rc 143
fresh=$(outputs "$O")
[ "$fresh" -ge 20 ] && [ "$fresh" -lt $N ] && ok || bad "outputs after --fresh and SIGTERM: $fresh"
check "--fresh kept nothing" "$(report "$O/unearth-batch.json" 'd["summary"]["kept"]')" 0
agrees "after --fresh" "$O/unearth-batch.json" "$O"
newer=$(snapshot "$O" | python3 -c "import sys
old = {l.split()[0]: float(l.split()[2]) for l in open(sys.argv[1])}
print(sum(1 for l in sys.stdin if float(l.split()[2]) > old[l.split()[0]]))" "$T/snap3")
check "--fresh rewrote what it holds" "$newer" "$fresh"
expect_rc 0 "$UE" convert -r "$B" -o "$O" -j 2
grep -q "^batch: $N models in $N files: $((N - fresh)) converted, $fresh kept," "$T/err" && ok || bad "after --fresh ($fresh held): $(cat "$T/err")"

# A full file system stops the batch at once: the finished outputs stay, the report (to
# --report on another file system) counts exactly them, the remaining files are not read.
F="$T/full"; mkdir -p "$F"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=256k tmpfs "$F" 2>/dev/null; then
  MOUNTS+=("$F")
  expect_rc 3 "$UE" convert -r "$B" -o "$F/out" -j 2 --report "$T/full.json"
  check "one stop line" "$(grep -c '^unearth: convert: stopped: .*No space left on device; no further model was tried' "$T/err")" 1
  grep -q "cannot write the report: No space left on device; it is in the --report file" "$T/err" && ok \
    || bad "report fallback message: $(cat "$T/err")"
  done_now=$(outputs "$F/out")
  [ "$done_now" -ge 1 ] && ok || bad "no output survived the full disk"
  check "full: report converted" "$(report "$T/full.json" 'd["summary"]["converted"]')" "$done_now"
  check "full: nothing failed" "$(report "$T/full.json" 'd["summary"]["failed"]')" 0
  check "full: stopped early" "$(report "$T/full.json" 'sum(1 for x in r if x["kind"]=="file" and x["status"]=="not_done") > '$((N / 2)))" True
  check "full: stop reason" "$(report "$T/full.json" '"No space left on device" in d["stopped"]')" True
  agrees "on a full disk" "$T/full.json" "$F/out"
  grep -q "^unearth: convert: $F/out holds $done_now converted models" "$T/err" && ok || bad "full: what-exists line"
  # Room again: the same command finishes the rest, keeping what was written.
  mount -o remount,size=64m "$F"
  expect_rc 0 "$UE" convert -r "$B" -o "$F/out" -j 2 --report "$T/full.json"
  grep -q "^batch: $N models in $N files: $((N - done_now)) converted, $done_now kept," "$T/err" && ok || bad "after room: $(cat "$T/err")"
  agrees "after the disk had room" "$T/full.json" "$F/out"
else
  # Not root: RLIMIT_FSIZE makes the one big output (a 40 KB creature between 18 KB robots) fail
  # with EFBIG, which stops the batch like a full disk.
  S="$T/small"; mkdir -p "$S"
  for i in 0 1 2 3 4; do cp "$T/demo/parkan/robot.msh" "$S/a$i.msh"; cp "$T/demo/parkan/robot.msh" "$S/z$i.msh"; done
  cp "$T/demo/gamecube/creature.pkx" "$S/m.pkx"
  (ulimit -f 32; exec "$UE" convert -r "$S" -o "$F/out" -j 1 --report "$T/full.json") >"$T/out" 2>"$T/err"
  check "RLIMIT_FSIZE exit code" $? 3
  check "one stop line" "$(grep -c '^unearth: convert: stopped: .*File too large; no further model was tried' "$T/err")" 1
  check "RLIMIT_FSIZE outputs" "$(outputs "$F/out")" 5
  check "RLIMIT_FSIZE: z files not read" "$(report "$T/full.json" 'sum(1 for x in r if x["input"].split("/")[-1].startswith("z") and x["status"]=="not_done")')" 5
  agrees "over RLIMIT_FSIZE" "$T/full.json" "$F/out"
fi

# A read-only OUT: one message, exit 3, no model converted, nothing made.
RO="$T/ro"; mkdir -p "$RO"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o ro,size=64k tmpfs "$RO" 2>/dev/null; then
  MOUNTS+=("$RO"); want="Read-only file system"
elif [ "$(id -u)" != 0 ]; then
  chmod 555 "$RO"; want="Permission denied"
else
  want=""; echo "cli_batch_resume: root without a tmpfs mount: read-only OUT check skipped"
fi
if [ -n "$want" ]; then
  expect_rc 3 "$UE" convert -r "$B" -o "$RO/out" -v
  expect_rc 3 "$UE" convert -r "$B" -o "$RO" -v
  grep -q "^unearth: convert: $RO: cannot write into the output directory: $want; nothing converted" "$T/err" && ok \
    || bad "read-only message: $(cat "$T/err")"
  grep -q -e ' -> ' -e '^batch:' "$T/err" && bad "a model was tried in a read-only OUT" || ok
  check "read-only OUT left empty" "$(ls -A "$RO" | wc -l)" 0
fi

finish
