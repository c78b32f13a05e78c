#!/usr/bin/env bash
# Hostile DATs whose roots share structs (tests/hsd/hostile_roots.py): many roots on one
# FigaTree, joint array or joint take linear work (generous time and memory ceilings the old
# quadratic walk far exceeded); lists two roots share are valid; one FigaTree defect is one
# report; a padded single DAT is said to be one; pack refuses a huge plain padding; a signal
# ends a single-model convert at once.
set -u
PROG="$1"
UE="$2"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=hsd_shared_roots
. "$HERE/../cli/cli_lib.sh"
"$PROG" "$T" >"$T/prog" 2>&1 || { cat "$T/prog" >&2; bad "test_hsd_figatree"; finish; exit 1; }
python3 "$HERE/hostile_roots.py" "$T" || { bad "hostile_roots.py"; finish; exit 1; }
# bounded CMD...: at most 30 s and 400 MB (each of these took minutes or gigabytes before).
# Under AddressSanitizer (CI's second leg sets ASAN_OPTIONS) the address space cannot be
# limited (ASan reserves terabytes of shadow at start), so there only time is bounded, with
# room for its slowdown; the release leg checks the memory bound.
bounded() {
  if [ -n "${ASAN_OPTIONS:-}" ]; then timeout 90 "$@"; else (ulimit -v 400000; timeout 30 "$@"); fi
}

# 65536 roots on one FigaTree with a 512 KB count table: read once, listed for every root
expect_rc 0 bounded "$UE" info "$T/figa_shared.dat"
check "one clip line per root" "$(grep -c '^  clip Wait: 1 frames, 524255 joints$' "$T/out")" 65536
expect_rc 0 bounded "$UE" validate --strict "$T/figa_shared.dat"
# 16384 roots on one FigaTree of 762 empty tracks: one reading, a clip per root on its targets
expect_rc 0 bounded "$UE" validate --strict "$T/tracks_shared.dat"
expect_rc 0 bounded "$UE" convert "$T/model.dat" --anims "$T/tracks_shared.dat" -o "$T/t.glb"
# 65536 x_scene_models roots on one array of 131040 slots; 65536 a_joint roots and 65536 others
expect_rc 0 bounded "$UE" validate --strict "$T/models_shared.dat"
expect_rc 0 bounded "$UE" info "$T/models_shared.dat"
expect_rc 0 bounded "$UE" info "$T/joint_roots.dat"

# two roots on one LightSet array, or one MatAnimJoint tree: both valid, both of their kind
for f in shared_lights:lights shared_matanim:matanim_joint; do
  expect_rc 0 "$UE" validate --strict "$T/${f%%:*}.dat"
  expect_rc 0 "$UE" info "$T/${f%%:*}.dat"
  check "${f%%:*}: both roots of their kind" "$(grep -c "^  root [01]: [ab]_${f#*:} (${f#*:}) @0x20$" "$T/out")" 2
done

# one FigaTree defect, one report (code, path, offset), in a data DAT and the same in convert
expect_rc 0 "$UE" validate --tolerant "$T/figa_long.dat"
check "figa_long: one report" "$(grep -c 'warning:' "$T/err")" 1
grep -q 'dat/root\[0\]/figatree/joint\[0\]/track\[0\]/data @0x38: .*\[hsd.figatree.track\]$' "$T/err" && ok || bad "figa_long: $(cat "$T/err")"

# a single DAT with 100 bytes of 0xFF after it: said to be that, not a broken bank
{ cat "$T/model.dat"; head -c 100 /dev/zero | tr '\0' '\377'; } >"$T/model_tail.dat"
expect_rc 1 "$UE" validate "$T/model_tail.dat"
grep -q 'a single DAT of [0-9]* bytes followed by 100 bytes of 0xFF padding, not a bank of DATs.*\[bank.single\]' "$T/err" && ok || bad "model_tail: $(cat "$T/err")"

# pack: a plain padding of 32 bytes or more (extract never records one) is refused, nothing written
expect_rc 0 "$UE" extract "$T/bank.dat" -o "$T/x"
edit_manifest "$T/x" 'e = m["entries"][0]; e["padding"] = 2000000000; e.pop("padding_hex", None)'
expect_rc 1 bounded "$UE" pack "$T/x" -o "$T/huge.dat"
grep -q 'manifest/entries\[0\].*"padding": 2000000000 bytes of 0xFF fill.*\[manifest.padding\]' "$T/err" && ok || bad "padding: $(cat "$T/err")"
[ ! -e "$T/huge.dat" ] && ok || bad "pack wrote huge.dat"

# SIGTERM during a long single-model convert (a 1e6-frame clip) ends it at once: 143, no output.
# timeout sends the signal at 0.5 s only to a convert still running then; one that ran past it
# and still ended 0 ignored the signal.
start=$(date +%s%N)
timeout --preserve-status -s TERM 0.5 timeout -s KILL 60 "$UE" convert "$T/model.dat" --anims "$T/long_clip.dat" -o "$T/long.glb" >"$T/out" 2>"$T/err"
rc=$? took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$rc" = 143 ]; then
  [ "$took_ms" -le 10000 ] && ok || bad "SIGTERM at 0.5 s ended convert after ${took_ms} ms"
  [ ! -e "$T/long.glb" ] && ok || bad "interrupted convert left long.glb"
elif [ "$took_ms" -ge 700 ]; then
  bad "SIGTERM at 0.5 s: convert ended after ${took_ms} ms with rc $rc, not 143"
else
  echo "note: convert ended (rc $rc) in ${took_ms} ms, before the signal; the interrupt was not exercised" >&2
fi
finish
