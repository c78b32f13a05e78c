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
# edit_manifest DIR PYTHON: runs PYTHON with `m` bound to the manifest, then writes it back. An
# edit that fails (a key that is not there) ends the whole test as failed: what follows would
# test an unedited manifest.
edit_manifest() {
  python3 - "$1/manifest.json" "$2" <<'PY' || { bad "edit_manifest $1: the edit failed: $2"; finish; exit 1; }
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
# expect_usage WANT_LINE CMD...: exit 2, nothing on stdout, exactly one line on stderr that ends
# with the hint; WANT_LINE (when not empty) is the whole line.
expect_usage() {
  local want=$1; shift
  expect_rc 2 "$@"
  [ ! -s "$T/out" ] && ok || bad "usage error wrote to stdout: $*"
  [ "$(wc -l < "$T/err")" = 1 ] && ok || bad "usage error is not one line: $*: $(cat "$T/err")"
  grep -q "; see 'unearth \([a-z]* \)\?--help'\$" "$T/err" && ok || bad "no hint: $*: $(cat "$T/err")"
  if [ -n "$want" ]; then
    [ "$(cat "$T/err")" = "$want" ] && ok || bad "message: got '$(cat "$T/err")', want '$want'"
  fi
}
