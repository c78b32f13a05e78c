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
finish() {
  echo "$NAME: $pass passed, $fail failed"
  [ "$fail" = 0 ]
}
