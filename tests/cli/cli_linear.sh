#!/usr/bin/env bash
# convert of one archive holding many models: the system calls it makes grow linearly with the
# number of models (counted by strace for 250, 1,000 and 2,000 models, never timed), and the
# batch summary and progress bar of a convert that writes more than one model (docs/batch.md).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_linear
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
expect_rc 0 "$UE" extract "$T/demo/parkan/objects.rlb" -o "$T/x"

# archive N: objects.rlb's entries with ROBOT.msh repeated N times (R0000.msh ...), two models
# in three with their WEAR table beside them (in either letter case), packed by `unearth pack`
# from a manifest whose copies all name the one extracted file.
archive() {
  python3 - "$T/x/objects.json" "$T/x/manifest.json" "$1" <<'EOF'
import json, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
m = json.load(open(src))
keep = ("name", "type_id", "attr1", "attr2", "attr3", "file")
by_name = {e["name"]: e for e in m["entries"]}
out = []
def add(e, name):
    out.append(dict({k: e[k] for k in keep}, name=name))
for e in m["entries"]:
    if e["name"] != "ROBOT.msh":
        add(e, e["name"])
for i in range(n):
    add(by_name["ROBOT.msh"], "R%04d.msh" % i)
    if i % 3:
        add(by_name["robot.wea"], ("r%04d.WEA" if i % 2 else "R%04d.wea") % i)
json.dump({"unearth_manifest": 1, "format": "nres", "header": {"magic": "NRes", "version": 256},
           "entries": out}, open(dst, "w"))
EOF
  expect_rc 0 "$UE" pack "$T/x" -o "$T/a$1.rlb"
}
cp "$T/x/manifest.json" "$T/x/objects.json"
for n in 250 1000 2000; do archive $n; done
check "models in a2000" "$("$UE" list "$T/a2000.rlb" | grep -c ' R[0-9]*\.msh')" 2000

# ---- the summary: printed when more than one model is written, never for one ----------------
expect_rc 0 "$UE" convert "$T/a250.rlb" -o "$T/o250"
check "summary of 250" "$(grep '^batch:' "$T/err" | sed 's/ (.*//')" \
  "batch: 250 models in 1 file: 250 converted, 0 skipped, 0 failed"
check "outputs of 250" "$(ls "$T/o250" | wc -l)" 250
# A model with its WEAR (either letter case) gets the table's materials: only the 84 models
# without one (i % 3 == 0 of 0..249) are warned that it is missing. Above 10 models the warnings
# are grouped by code after the summary (the first 3 of each), and no line names each output.
check "grouped: models without WEAR" "$(grep -c '^warning \[msh.material.wear\] in 84 models:$' "$T/err")" 1
check "grouped: the first three" "$(grep -c '^  .*a250.rlb:R0[0-9]*.msh: warning: .*no WEAR table' "$T/err")" 3
check "grouped: the rest counted" "$(sed -n '/^warning \[msh.material.wear\]/,/^[^ ]/p' "$T/err" | grep -c '^  \.\.\. and 81 more (-v prints each one)$')" 1
grep -q "R0003.msh: warning: .*no WEAR table R0003.wea" "$T/err" && ok || bad "R0003 has no WEAR: no warning"
grep -q "R0001.msh: warning: .*no WEAR table" "$T/err" && bad "R0001 found no WEAR" || ok
grep -q -e ' -> ' -e '^[^ ].*: warning: ' "$T/err" && bad "a line per model above 10 models: $(grep -m1 -e ' -> ' -e '^[^ ].*: warning: ' "$T/err")" || ok
grep -q "report" "$T/err" && bad "a convert without -r speaks of a report" || ok
# -v: each model's line and its own warnings, nothing grouped.
expect_rc 0 "$UE" convert "$T/a250.rlb" -o "$T/o250" -f -v
check "-v: models without WEAR" "$(grep -c '^[^ ].*: warning: .*no WEAR table' "$T/err")" 84
check "-v: a line per model" "$(grep -c "^$T/a250.rlb:R[0-9]*\.msh -> $T/o250/R[0-9]*\.glb\$" "$T/err")" 250
grep -q '^warning \[' "$T/err" && bad "-v grouped the warnings" || ok
# Up to 10 models each is said: archive 10 (R0000..R0009, 4 without WEAR) names every output.
archive 10
expect_rc 0 "$UE" convert "$T/a10.rlb" -o "$T/o10"
check "10 models: a line each" "$(grep -c ' -> ' "$T/err")" 10
check "10 models: each warning" "$(grep -c '^[^ ].*: warning: .*no WEAR table' "$T/err")" 4
expect_rc 0 "$UE" convert "$T/demo/parkan/robot.msh" -o "$T/one"
grep -q '^batch:' "$T/err" && bad "summary for one model" || ok
expect_rc 0 "$UE" convert "$T/demo/parkan/objects.rlb" -o "$T/one.glb"
grep -q '^batch:' "$T/err" && bad "summary for the one model of an archive" || ok
cp "$T/demo/parkan/robot.msh" "$T/robot2.msh"
expect_rc 0 "$UE" convert "$T/demo/parkan/robot.msh" "$T/robot2.msh" -o "$T/quiet" -q
check "-q, nothing failed" "$(cat "$T/err")" ""
# Two models written, one input refused (strict): the summary names it under "failed".
mkdir -p "$T/d"; python3 "$HERE/damaged_files.py" "$T/demo" "$T/d" >/dev/null
expect_rc 1 "$UE" convert "$T/demo/parkan/robot.msh" "$T/d/msh_batch.msh" "$T/robot2.msh" -o "$T/mixed" -q
check "summary with a failure" "$(grep '^batch:' "$T/err" | sed 's/ (.*//')" \
  "batch: 2 models in 3 files: 2 converted, 0 skipped, 1 failed"
grep -q "^  $T/d/msh_batch.msh: INVALID (.*): not converted" "$T/err" && ok || bad "failed input not listed"

# ---- the progress bar: on a terminal only ---------------------------------------------------
grep -q 'models/s' "$T/err" && bad "progress bar drawn into a file" || ok
if command -v script >/dev/null 2>&1; then
  script -qec "'$UE' convert '$T/demo/parkan/robot.msh' '$T/robot2.msh' -o '$T/tty'" /dev/null >"$T/tty.txt" 2>&1
  grep -q '/2 models, .* models/s, ETA' "$T/tty.txt" && ok || bad "no progress bar on a terminal"
  script -qec "'$UE' convert '$T/demo/parkan/robot.msh' '$T/robot2.msh' -o '$T/tty_q' -q" /dev/null >"$T/tty.txt" 2>&1
  grep -q 'models/s' "$T/tty.txt" && bad "progress bar with -q" || ok
else
  echo "cli_linear: script(1) not installed: the progress bar check is skipped"
fi

# ---- system calls: linear in the number of models ----------------------------------------------
# count_calls N: strace counts the system calls of converting archive N; calls N KIND reads one
# row of the count: every call (KIND total) or one kind (pread64).
count_calls() {
  rm -rf "$T/s$1"
  # LeakSanitizer cannot run under a tracer (it stops the world with ptrace): off for this run only
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -c -o "$T/strace$1.txt" "$UE" convert "$T/a$1.rlb" -o "$T/s$1" -q -j 2 >/dev/null 2>"$T/err" || bad "convert a$1"
  check "outputs of $1" "$(ls "$T/s$1" | wc -l)" "$1"
}
calls() { awk -v k="$2" '$NF == k { print $4 }' "$T/strace$1.txt"; }
if command -v strace >/dev/null 2>&1 && strace -f -c -o /dev/null true >/dev/null 2>&1; then
  for n in 250 1000 2000; do count_calls $n; done
  for kind in total pread64; do
    a=$(calls 250 $kind); b=$(calls 1000 $kind); c=$(calls 2000 $kind)
    echo "cli_linear: $kind system calls: 250 models $a, 1000 models $b, 2000 models $c"
    # Per model, 2,000 models may cost at most 1.25 times what 250 do (quadratic: 8 times).
    python3 -c "import sys; a,b,c=map(int,sys.argv[1:]); sys.exit(0 if c/2000 <= 1.25*a/250 and b/1000 <= 1.25*a/250 else 1)" \
      "$a" "$b" "$c" && ok || bad "$kind calls grow faster than the models: $a, $b, $c"
  done
else
  echo "cli_linear: strace is not installed (or cannot trace here): the system-call counts are skipped"
fi

finish
