#!/usr/bin/env bash
# A convert of several models without -r (docs/batch.md, "Without -r") that cannot write any more:
# a full file system (a small tmpfs as root), a file over RLIMIT_FSIZE (EFBIG, SIGXFSZ ignored), a
# read-only OUT and an OUT removed mid-run each stop it at once with one line naming the cause and
# the file, start no further model, keep the finished outputs whole, and end with a summary that
# counts what exists and what was not done, exit 3, and no word of a report (there is none).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_convert_stop
. "$HERE/cli_lib.sh"
glbs() { find "$1" -name '*.glb' -type f 2>/dev/null | wc -l; }
# stopped WHAT N K OUT: the ending of a stopped run of N models that wrote K: its summary and
# its last line count exactly that, nothing else mentions the cause, nor any report.
stopped() {
  local what=$1 n=$2 k=$3 out=$4
  grep -q "^batch: $n models in [0-9]* files\?: $k converted, 0 skipped, 0 failed, not done: $((n - k)) models, 0 files" "$T/err" \
    && ok || bad "$what: summary: $(grep '^batch:' "$T/err")"
  check "$what: last line" "$(tail -1 "$T/err" | sed 's/ (listed above)//')" \
    "unearth: convert: $k of $n models written to $out, $((n - k)) not done; no temporary file is left"
  grep -q -i "report" "$T/err" && bad "$what: speaks of a report: $(grep -i report "$T/err")" || ok
  no_temporaries "$what"
}

expect_rc 0 "$UE" demo -o "$T/demo"
N=60
robots_archive $N "$T/many.rlb"

# ---- a full file system: -j 1 writes R0000.glb, R0001.glb ... in order until one does not fit --
F="$T/full"; mkdir -p "$F"
if mount_tmpfs "$F" size=256k; then
  expect_rc 3 "$UE" convert "$T/many.rlb" -o "$F/arc" -j 1
  k=$(glbs "$F/arc")
  [ "$k" -ge 1 ] && [ "$k" -lt $N ] && ok || bad "full: $k outputs of $N"
  next=$(printf 'R%04d.glb' "$k")
  check "full: the one line naming cause and file" "$(grep -c 'No space left on device' "$T/err")" 1
  grep -q "^unearth: convert: stopped: $F/arc/$next: cannot write: No space left on device; no further model was tried\$" "$T/err" \
    && ok || bad "full: stop line: $(cat "$T/err")"
  # no model after the one that did not fit was started: the outputs are exactly the first k
  check "full: the first k outputs" "$(ls "$F/arc" | tr '\n' ' ')" "$(for i in $(seq 0 $((k - 1))); do printf 'R%04d.glb ' "$i"; done)"
  glbs_complete "$F/arc"
  stopped "full" $N "$k" "$F/arc"
  # -j 2: models in flight when the disk filled are not done either, never failed
  rm -rf "$F/arc"
  expect_rc 3 "$UE" convert "$T/many.rlb" -o "$F/arc" -j 2 -q
  check "full -j 2: one line" "$(grep -c 'No space left on device' "$T/err")" 1
  glbs_complete "$F/arc"
  stopped "full -j 2" $N "$(glbs "$F/arc")" "$F/arc"
else
  echo "cli_convert_stop: not root or no tmpfs: the full file system check is skipped (RLIMIT_FSIZE below)"
fi

# ---- a file over RLIMIT_FSIZE: 32 KiB fits a robot (18 KB) but not the creature (40 KB) ---------
S="$T/in"; mkdir -p "$S"
for m in a b z y; do cp "$T/demo/parkan/robot.msh" "$S/$m.msh"; done
O="$T/fsize"
(ulimit -f 32; exec "$UE" convert "$S/a.msh" "$S/b.msh" "$T/demo/gamecube/creature.pkx" "$S/z.msh" "$S/y.msh" -o "$O" -j 1) \
  >"$T/out" 2>"$T/err"
check "RLIMIT_FSIZE: exit code (not killed by SIGXFSZ)" $? 3
check "RLIMIT_FSIZE: the one line" "$(grep -c 'File too large' "$T/err")" 1
grep -q "^unearth: convert: stopped: $O/creature.glb: cannot write: File too large; no further model was tried\$" "$T/err" \
  && ok || bad "RLIMIT_FSIZE: stop line: $(cat "$T/err")"
check "RLIMIT_FSIZE: outputs" "$(ls "$O" | tr '\n' ' ')" "a.glb b.glb "
glbs_complete "$O"
stopped "RLIMIT_FSIZE" 5 2 "$O"
# five models: each output is named, and the last line says they are listed
check "RLIMIT_FSIZE: the outputs named" "$(grep -c "^$S/[ab].msh -> $O/[ab].glb\$" "$T/err")" 2
grep -q "written to $O (listed above)" "$T/err" && ok || bad "RLIMIT_FSIZE: not said to be listed"

# ---- a read-only OUT: the first write stops the run, nothing is converted after it --------------
RO="$T/ro"; mkdir -p "$RO"
want=""
if mount_tmpfs "$RO" ro,size=64k; then
  want="Read-only file system"
elif [ "$(id -u)" != 0 ]; then
  chmod 555 "$RO"; want="Permission denied"
else
  echo "cli_convert_stop: root without a tmpfs mount: the read-only OUT check is skipped"
fi
if [ -n "$want" ]; then
  expect_rc 3 "$UE" convert "$T/many.rlb" -o "$RO" -j 2
  check "read-only: one line" "$(grep -c "$want" "$T/err")" 1
  grep -q "^unearth: convert: stopped: $RO/R000[01].glb: cannot write: $want; no further model was tried\$" "$T/err" \
    && ok || bad "read-only: stop line: $(cat "$T/err")"
  check "read-only: nothing written" "$(ls -A "$RO" | wc -l)" 0
  stopped "read-only" $N 0 "$RO"
fi

# ---- OUT removed mid-run: not made again; nothing is counted, as nothing is there ----------------
# The process is stopped while OUT is removed, so no write races the removal (no job control:
# wait then reports only the exit).
V="$T/vanish"
# On a loaded machine the run may finish before the loop sees it: then it is tried again (up to 5 times).
for attempt in 1 2 3 4 5; do
  rm -rf "$V"
  "$UE" convert "$T/many.rlb" -o "$V" -j 1 >/dev/null 2>"$T/err" &
  pid=$!
  for _ in $(seq 1 5000); do
    [ "$(glbs "$V")" -ge 5 ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.002
  done
  kill -STOP $pid 2>/dev/null
  before=$(glbs "$V")
  rm -rf "$V"
  kill -CONT $pid 2>/dev/null
  wait $pid; rc=$?
  [ "$before" -lt $N ] && break
done
[ "$before" -ge 5 ] && [ "$before" -lt $N ] && ok || bad "vanish: removed after $before outputs"
check "vanish: exit code" $rc 3
check "vanish: the one line" "$(grep -c '^unearth: convert: stopped: ' "$T/err")" 1
grep -q "^unearth: convert: stopped: $V no longer exists (removed while the convert ran); no further model was tried\$" "$T/err" \
  && ok || bad "vanish: stop line: $(cat "$T/err")"
[ ! -e "$V" ] && ok || bad "vanish: OUT was made again"
stopped "vanish" $N 0 "$V"

finish
