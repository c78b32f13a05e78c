# Shared harness of the CLI end-to-end scripts (sourced): a private temp directory $T, pass/fail
# counters, and expect_rc, which runs a command with stdout in $T/out and stderr in $T/err.
# Usage: UE=<unearth binary>; NAME=<script name>; . cli_lib.sh; ...; finish
T="${UE_TEST_TMP:-/tmp}/$NAME.$$"
rm -rf "$T"; mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*" >&2; }
expect_rc() { # expect_rc WANT CMD...
  local want=$1; shift
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "rc $rc != $want: $*"; cat "$T/err" >&2; fi
}
# edit_manifest DIR PYTHON: runs PYTHON with `m` bound to the manifest, then writes it back.
edit_manifest() {
  python3 - "$1/manifest.json" "$2" <<'PY'
import json, sys
path, code = sys.argv[1], sys.argv[2]
m = json.load(open(path))
exec(code)
json.dump(m, open(path, "w"), indent=2)
PY
}
finish() {
  echo "$NAME: $pass passed, $fail failed"
  [ "$fail" = 0 ]
}
