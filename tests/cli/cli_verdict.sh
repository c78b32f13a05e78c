#!/usr/bin/env bash
# One verdict: on every damaged file of the test suite (tests/cli/damaged_files.py) validate --strict,
# roundtrip, extract and convert all say invalid, --tolerant exits by the same rule for every
# format, every message names its file, and the --json reports match docs/schema.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
SCHEMA="$HERE/../../docs/schema"
NAME=cli_verdict
. "$HERE/cli_lib.sh"
schema_ok() { # schema_ok SCHEMA_NAME FILE... : the files match docs/schema/SCHEMA_NAME.schema.json
  local s=$1; shift
  if node "$HERE/../json_schema_check.mjs" "$SCHEMA/$s.schema.json" "$@" >"$T/val" 2>&1; then ok
  else bad "schema $s: $*"; cat "$T/val" >&2; fi
}
# every stderr line starts with one of the given files (a model inside is FILE:ENTRY)
names_file() { # names_file WHAT FILE...
  local what=$1; shift
  local line f hit lines=0
  while IFS= read -r line; do
    lines=$((lines+1)); hit=0
    for f in "$@"; do case "$line" in "$f: "*|"$f:"*": "*) hit=1;; esac; done
    [ "$hit" = 1 ] || { bad "$what: line does not name its file: $line"; return; }
  done < "$T/err"
  ok
}

expect_rc 0 "$UE" demo -o "$T/demo"
mkdir -p "$T/d"
python3 "$HERE/damaged_files.py" "$T/demo" "$T/d" > "$T/cases" || bad "damaged_files.py failed"
n=$(wc -l < "$T/cases"); [ "$n" -ge 15 ] && ok || bad "only $n damaged files"

while read -r f fmt drops; do
  F="$T/d/$f"
  # strict: every verb says invalid (exit 1), names the file on each message, writes nothing
  expect_rc 1 "$UE" validate --strict "$F"
  grep -q "^$F: INVALID ($fmt, .*[1-9][0-9]* errors\?," "$T/out" && ok || bad "$f: validate summary: $(cat "$T/out")"
  names_file "$f validate" "$F"
  [ -z "$(sort "$T/err" | uniq -d)" ] && ok || bad "$f: a problem reported twice: $(sort "$T/err" | uniq -d)"
  expect_rc 1 "$UE" roundtrip "$F"
  grep -q "^$F: INVALID, not round-tripped ($fmt, " "$T/out" && ok || bad "$f: roundtrip says: $(cat "$T/out")"
  grep -q identical "$T/out" && bad "$f: roundtrip reports identical" || ok
  names_file "$f roundtrip" "$F"
  expect_rc 1 "$UE" extract "$F" -o "$T/x_$f"
  [ ! -e "$T/x_$f" ] && ok || bad "$f: strict extract wrote output"
  names_file "$f extract" "$F"
  expect_rc 1 "$UE" convert "$F" -o "$T/c_$f.glb"
  [ ! -e "$T/c_$f.glb" ] && ok || bad "$f: strict convert wrote output"
  grep -q "no models found" "$T/err" && bad "$f: convert adds a contradicting 'no models found'" || ok
  names_file "$f convert" "$F"

  # tolerant: 0 when nothing was lost (warnings listed), 1 when anything was dropped
  want=0; [ "$drops" = drop ] && want=1
  expect_rc $want "$UE" validate --tolerant "$F"
  [ -z "$(sort "$T/err" | uniq -d)" ] && ok || bad "$f: a problem reported twice: $(sort "$T/err" | uniq -d)"
  grep -q "INVALID (.* 0 errors" "$T/out" && bad "$f: INVALID with 0 errors: $(cat "$T/out")" || ok
  if [ $want = 0 ]; then
    grep -q "^$F: valid ($fmt, .*[1-9][0-9]* warnings\?)" "$T/out" && ok || bad "$f: tolerant summary: $(cat "$T/out")"
    grep -q "^$F: warning: " "$T/err" && ok || bad "$f: tolerant warnings not listed"
  fi
  expect_rc $want "$UE" extract --tolerant "$F" -o "$T/xt_$f"
  names_file "$f extract --tolerant" "$F"
  # what opens in tolerant mode is extracted (a manifest at least); what does not, writes nothing
  if "$UE" list --tolerant "$F" >/dev/null 2>&1; then
    [ -f "$T/xt_$f/manifest.json" ] && ok || bad "$f: tolerant extract wrote no manifest"
  else
    [ ! -e "$T/xt_$f" ] && ok || bad "$f: failed tolerant extract left output"
  fi
  expect_rc $want "$UE" roundtrip --tolerant "$F"
  # convert --tolerant: same rule for the files that hold models (the output named without the
  # input's extension: convert refuses a game file's name such as x.rlb as its output)
  if "$UE" convert --tolerant "$F" -o "$T/ct_${f//./_}" >"$T/out" 2>"$T/err"; then rc=0; else rc=$?; fi
  if [ -d "$T/ct_${f//./_}" ]; then
    [ $rc = $want ] && ok || bad "$f: convert --tolerant exit $rc, want $want"
  else
    [ $rc = 1 ] && ok || bad "$f: convert --tolerant without models exit $rc, want 1"
  fi
done < "$T/cases"

# the same kind of damage gives the same tolerant exit code in NRes and FSYS (an entry lost)
expect_rc 1 "$UE" extract --tolerant "$T/d/nres_size.rlb" -o "$T/same_nres"
expect_rc 1 "$UE" extract --tolerant "$T/d/fsys_payload.fsys" -o "$T/same_fsys"
expect_rc 1 "$UE" validate --tolerant "$T/d/nres_size.rlb"
grep -q "^$T/d/nres_size.rlb: DAMAGED (nres, 7 entries, 1 part dropped, 1 warning)" "$T/out" \
  && ok || bad "tolerant drop summary: $(cat "$T/out")"

# intact files: every verb agrees they are valid
for f in parkan/objects.rlb parkan/sprites_demo.lib gamecube/demo_colo.fsys gamecube/demo_xd.pkx \
         gamecube/demo_model.lzss parkan/robot.msh; do
  expect_rc 0 "$UE" validate --strict "$T/demo/$f"
  expect_rc 0 "$UE" validate --tolerant "$T/demo/$f"
  expect_rc 0 "$UE" roundtrip "$T/demo/$f"
  expect_rc 0 "$UE" extract --tolerant "$T/demo/$f" -o "$T/ok_$(basename "$f")"
done

# several files at once: each line is readable on its own
D="$T/d"
expect_rc 1 "$UE" validate "$T/demo/parkan/objects.rlb" "$D/rsli_deflate.lib" "$D/fsys_payload.fsys" "$D/msh_batch.msh"
names_file "validate a b c d" "$T/demo/parkan/objects.rlb" "$D/rsli_deflate.lib" "$D/fsys_payload.fsys" "$D/msh_batch.msh"
[ "$(grep -c '^[^ ].*: INVALID (' "$T/out")" = 3 ] && ok || bad "three invalid summaries expected"
grep -q "^  model $D/msh_batch.msh: INVALID (1 error, 0 warnings)" "$T/out" && ok || bad "model summary names the model"

# the bytes shown for an unknown file are only the ones it has
printf 'ab' > "$T/two.bin"; : > "$T/empty.bin"
expect_rc 1 "$UE" info "$T/two.bin"
grep -q "(first bytes 61 62) \[archive.unknown\]" "$T/err" && ok || bad "first bytes: $(cat "$T/err")"
expect_rc 1 "$UE" validate "$T/empty.bin"
grep -q "the file is empty" "$T/err" && ok || bad "empty file: $(cat "$T/err")"
grep -q "^$T/empty.bin: INVALID (unknown, 1 error, 0 warnings)" "$T/out" && ok || bad "empty summary: $(cat "$T/out")"

# --json: schemas for success and failure, every container and a model; exit codes unchanged
j=0
for f in parkan/objects.rlb parkan/sprites_demo.lib gamecube/demo_colo.fsys gamecube/demo_xd.pkx \
         gamecube/demo_model.lzss; do
  j=$((j+1))
  expect_rc 0 "$UE" list --json "$T/demo/$f"; cp "$T/out" "$T/list_$j.json"
  expect_rc 0 "$UE" info --json "$T/demo/$f"; cp "$T/out" "$T/info_$j.json"
done
schema_ok list "$T"/list_*.json
schema_ok info "$T"/info_*.json
[ "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); e=d['entries'][6]; print(d['format'], e['name'], e['nested'], e['method'], e['extra']['type_id'] > 0)" "$T/list_1.json")" = "nres ROBOT.msh nres stored True" ] \
  && ok || bad "list --json NRes entry 6"
[ "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['entries']), d['entries'][0]['method'], d['entries'][0]['size'], d['entries'][0]['stored_size'])" "$T/list_5.json")" = "1 lzss 828 373" ] \
  && ok || bad "list --json LZSS entry"
expect_rc 0 "$UE" info --json "$T/demo/parkan/robot.msh"; cp "$T/out" "$T/info_model.json"
schema_ok info "$T/info_model.json"
expect_rc 1 "$UE" list --json "$D/nres_trunc.rlb"; cp "$T/out" "$T/list_fail.json"
expect_rc 1 "$UE" info --json "$D/fsys_trunc.fsys"; cp "$T/out" "$T/info_fail.json"
expect_rc 1 "$UE" info --json "$T/two.bin"; cp "$T/out" "$T/info_unknown.json"
expect_rc 3 "$UE" list --json "$T/does-not-exist"; cp "$T/out" "$T/list_missing.json"
schema_ok list "$T/list_fail.json" "$T/list_missing.json"
expect_rc 1 "$UE" info --json "$D/msh_batch.msh"; cp "$T/out" "$T/info_model_fail.json"
schema_ok info "$T/info_fail.json" "$T/info_unknown.json" "$T/info_model_fail.json"
[ "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['diagnostics'][0]['code'])" "$T/info_model_fail.json")" = msh.batch.vertex ] \
  && ok || bad "info --json of a damaged model"
[ "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['format'], d['error']['exit_code'], d['diagnostics'][0]['code'])" "$T/list_fail.json")" = "nres 1 nres.header.count" ] \
  && ok || bad "list --json failure object"
[ "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['format'])" "$T/info_fail.json")" = fsys ] \
  && ok || bad "a damaged FSYS is still named fsys"
expect_rc 0 "$UE" validate --json "$T/demo/parkan/objects.rlb" "$T/demo/gamecube/demo_colo.fsys"
cp "$T/out" "$T/val_ok.json"
expect_rc 1 "$UE" validate --json "$D/nres_trunc.rlb" "$D/rsli_deflate.lib" "$T/two.bin" "$D/msh_batch.msh"
cp "$T/out" "$T/val_bad.json"
expect_rc 1 "$UE" validate --tolerant --json "$D/nres_size.rlb" "$D/fsys_recsize.fsys"
cp "$T/out" "$T/val_tol.json"
expect_rc 3 "$UE" validate --json "$T/does-not-exist"
cp "$T/out" "$T/val_missing.json"
schema_ok validate "$T/val_ok.json" "$T/val_bad.json" "$T/val_tol.json" "$T/val_missing.json"
[ "$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))[0]; print(r['verdict'], r['valid'])" "$T/val_missing.json")" = "FAILED False" ] \
  && ok || bad "validate --json of a missing file"
[ "$(python3 -c "import json,sys; print([(r['format'], r['verdict'], r['errors']) for r in json.load(open(sys.argv[1]))])" "$T/val_bad.json")" \
  = "[('nres', 'INVALID', 1), ('rsli', 'INVALID', 1), ('unknown', 'INVALID', 1), ('nres', 'INVALID', 1)]" ] \
  && ok || bad "validate --json failure verdicts"
[ "$(python3 -c "import json,sys; print([(r['verdict'], r['dropped'], r['warnings']) for r in json.load(open(sys.argv[1]))])" "$T/val_tol.json")" \
  = "[('DAMAGED', 1, 1), ('valid', 0, 1)]" ] && ok || bad "validate --tolerant --json verdicts"
[ "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[3]['models'][0]['verdict'])" "$T/val_bad.json")" = INVALID ] \
  && ok || bad "the damaged model's verdict"

finish
