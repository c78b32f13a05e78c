#!/usr/bin/env bash
# Interrupts of the verbs other than `convert -r` (docs/output-safety.md, "Interrupts"): SIGINT,
# SIGTERM or SIGHUP in the middle of a single convert of a many-model archive, an extract of a
# large archive and a pack leave no NAME.tmp-XXXXXX file nor DIR.partial-XXXXXX directory, keep
# every finished output complete (GLB framing checked and gltf-validator), say what was
# finished and exit 128 + N; an interrupted -f leaves the earlier output as it was.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_interrupt
. "$HERE/cli_lib.sh"
# Job control: a command started with & gets SIGINT as a terminal would send it (without it,
# the shell starts background commands with SIGINT ignored, which unearth then leaves ignored).
set -m
# interrupt_when SIG TEST CMD...: runs CMD in the background; once `TEST PID` succeeds the
# process is stopped, sent SIG and continued, so the signal lands while TEST still holds. The
# exit code goes to $rc, stderr to $T/sig.err; $reached says whether TEST held before CMD ended.
interrupt_when() {
  local sig=$1 test=$2; shift 2
  "$@" >/dev/null 2>"$T/sig.err" &
  local pid=$!
  reached=no
  for _ in $(seq 1 5000); do
    if "$test" $pid; then reached=yes; break; fi
    kill -0 $pid 2>/dev/null || break
    sleep 0.002
  done
  kill -STOP $pid 2>/dev/null
  kill -"$sig" $pid 2>/dev/null
  kill -CONT $pid 2>/dev/null
  # With job control, wait may report the stop (128 + SIGSTOP = 147) until the shell has seen
  # the job continue, however often it is asked at once: wait again, a little later (bounded).
  for _ in $(seq 1 1000); do wait $pid; rc=$?; [ $rc != 147 ] && break; sleep 0.01; done
}
# not_written VERB OUTPUT: a SIGINT that came while VERB was writing its new OUTPUT: exit 130,
# one line saying so, nothing at OUTPUT and no temporary anywhere.
not_written() {
  check "$1: interrupted while writing" $reached yes
  check "$1: exit code" $rc 130
  check "$1: message" "$(cat "$T/sig.err")" \
    "unearth: $1: interrupted (SIGINT); $2 was not written; no temporary file is left"
  [ ! -e "$2" ] && ok || bad "$1: a partial output is in place"
  no_temporaries "$1"
}
glb_count() { find "$1" -name '*.glb' -type f | wc -l; }
# The process holds its output open: an unnamed file (O_TMPFILE) in $T, or a named temp.
writing_output() { ls -l /proc/$1/fd 2>/dev/null | grep -q -e "$T/#[0-9]* (deleted)" -e '\.tmp-'; }

expect_rc 0 "$UE" demo -o "$T/demo"

# ---- single convert of an archive of N models ----------------------------------------------
N=600
robots_archive $N "$T/many.rlb"
twenty_glbs() { [ "$(find "$OUT" -name '*.glb' 2>/dev/null | wc -l)" -ge 20 ]; }
OUT="$T/o"
interrupt_when INT twenty_glbs "$UE" convert "$T/many.rlb" -o "$T/o" -j 2 -v  # -v: a line per model
check "convert: 20 outputs before the end" $reached yes
check "convert: exit code after SIGINT" $rc 130
kept=$(glb_count "$T/o")
[ "$kept" -ge 20 ] && [ "$kept" -lt $N ] && ok || bad "convert: outputs after SIGINT: $kept"
grep -q "^unearth: convert: interrupted (SIGINT): $kept of $N models written to $T/o (listed above), [0-9]* not started; no temporary file is left\$" "$T/sig.err" \
  && ok || bad "convert: interrupt line: $(tail -2 "$T/sig.err")"
check "convert: each finished model is listed" "$(grep -c "^$T/many.rlb:R[0-9]*\.msh -> $T/o/R[0-9]*\.glb\$" "$T/sig.err")" "$kept"
grep -q "^batch: $N models in 1 file: $kept converted, 0 skipped, 0 failed, not done: $((N - kept)) models" "$T/sig.err" \
  && ok || bad "convert: summary: $(grep '^batch:' "$T/sig.err")"
no_temporaries "convert"
glbs_complete "$T/o"
if node "$HERE/../gltf_validate.mjs" "$T"/o/*.glb >"$T/val" 2>&1; then ok; else bad "gltf-validator after SIGINT"; head "$T/val" >&2; fi

# SIGTERM: 143, and the same guarantees.
OUT="$T/o2"
interrupt_when TERM twenty_glbs "$UE" convert "$T/many.rlb" -o "$T/o2" -q
check "convert: SIGTERM after 20 outputs" $reached yes
check "convert: exit code after SIGTERM" $rc 143
grep -q "^unearth: convert: interrupted (SIGTERM): [0-9]* of $N models written" "$T/sig.err" && ok || bad "convert: SIGTERM line: $(cat "$T/sig.err")"
no_temporaries "convert, SIGTERM"
glbs_complete "$T/o2"

# ---- extract of a large archive --------------------------------------------------------------
# 8,000 entries of 512 distinct bytes each, so extract spends a while writing them.
python3 - "$T/big" 8000 <<'EOF'
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d + "/e")
ents = []
for i in range(n):
    open("%s/e/%05d.bin" % (d, i), "wb").write(os.urandom(512))
    ents.append({"name": "F%05d.BIN" % i, "type_id": 0, "attr1": 0, "attr2": 0, "attr3": 0,
                 "file": "e/%05d.bin" % i})
json.dump({"unearth_manifest": 1, "format": "nres", "header": {"magic": "NRes", "version": 256},
           "entries": ents}, open(d + "/manifest.json", "w"))
EOF
expect_rc 0 "$UE" pack "$T/big" -o "$T/big.rlb"
partial_has_files() { compgen -G "$T/ext.partial-*/*/*" >/dev/null; } # a glob: cheap to poll
interrupt_when INT partial_has_files "$UE" extract "$T/big.rlb" -o "$T/ext"
not_written extract "$T/ext"
# -f over an earlier extract: interrupted, the earlier output stays as it was.
expect_rc 0 "$UE" extract "$T/demo/parkan/objects.rlb" -o "$T/ext"
(cd "$T/ext" && find . -type f -exec sha256sum {} + | sort) >"$T/before"
interrupt_when HUP partial_has_files "$UE" extract "$T/big.rlb" -o "$T/ext" -f
check "extract -f: exit code after SIGHUP" $rc 129
check "extract -f: message" "$(cat "$T/sig.err")" \
  "unearth: extract: interrupted (SIGHUP); $T/ext is left as it was; no temporary file is left"
(cd "$T/ext" && find . -type f -exec sha256sum {} + | sort) >"$T/after"
cmp -s "$T/before" "$T/after" && ok || bad "extract -f: the earlier output changed"
no_temporaries "extract -f"

# ---- pack --------------------------------------------------------------------------------------
interrupt_when INT writing_output "$UE" pack "$T/big" -o "$T/packed.rlb"
not_written pack "$T/packed.rlb"
cp "$T/many.rlb" "$T/packed.rlb"
interrupt_when TERM writing_output "$UE" pack "$T/big" -o "$T/packed.rlb" -f
check "pack -f: exit code" $rc 143
cmp -s "$T/many.rlb" "$T/packed.rlb" && ok || bad "pack -f: the earlier archive changed"
no_temporaries "pack -f"
# A SIGINT ignored from the start (as a shell does for a background command) stays ignored.
interrupt_when INT writing_output bash -c 'trap "" INT; exec "$0" "$@"' "$UE" pack "$T/big" -o "$T/ignored.rlb"
check "pack, SIGINT ignored: reached" $reached yes
check "pack, SIGINT ignored: exit code" $rc 0
cmp -s "$T/big.rlb" "$T/ignored.rlb" && ok || bad "pack, SIGINT ignored: the archive differs"

finish
