# Shared harness of the CLI end-to-end scripts (sourced): a private temp directory $T, pass/fail
# counters, and expect_rc, which runs a command with stdout in $T/out and stderr in $T/err.
# Usage: UE=<unearth binary>; NAME=<script name>; . cli_lib.sh; ...; finish
T="${UE_TEST_TMP:-/tmp}/$NAME.$$"
rm -rf "$T"; mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*" >&2; }
check() { # check WHAT GOT WANT: one value against the one expected
  [ "$2" = "$3" ] && ok || bad "$1: got '$2', want '$3'"
}
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
# robots_archive N ARCHIVE: the demo's objects.rlb ($T/demo, written by `unearth demo`) with ROBOT.msh
# repeated N times (R0000.msh ...), packed by `unearth pack` from an extraction in $T/robots.
robots_archive() {
  if [ ! -d "$T/robots" ]; then
    "$UE" extract "$T/demo/parkan/objects.rlb" -o "$T/robots" >/dev/null 2>&1 || bad "extract objects.rlb"
    cp "$T/robots/manifest.json" "$T/robots.json"
  fi
  python3 - "$T/robots.json" "$T/robots/manifest.json" "$1" <<'PY'
import json, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
m = json.load(open(src))
keep = ("name", "type_id", "attr1", "attr2", "attr3", "file")
robot = next(e for e in m["entries"] if e["name"] == "ROBOT.msh")
out = [{k: e[k] for k in keep} for e in m["entries"] if e["name"] != "ROBOT.msh"]
out += [dict({k: robot[k] for k in keep}, name="R%04d.msh" % i) for i in range(n)]
json.dump({"unearth_manifest": 1, "format": "nres", "header": {"magic": "NRes", "version": 256},
           "entries": out}, open(dst, "w"))
PY
  "$UE" pack "$T/robots" -o "$2" -f >/dev/null 2>&1 || bad "pack $2"
}
# No temporary of any writer anywhere under $T.
no_temporaries() {
  local left; left=$(find "$T" -name '*.tmp-*' -o -name '*.partial-*' | head -3)
  [ -z "$left" ] && ok || bad "$1: temporaries left: $left"
}
# Every .glb under $1 is whole: 'glTF', version 2, the header's length is the file's size, the
# chunks fill it exactly and the JSON chunk parses, with a BIN chunk as long as buffer 0 says.
glbs_complete() {
  python3 - "$1" <<'EOF' && ok || bad "an incomplete GLB in $1"
import json, os, struct, sys
bad = []
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        if not f.endswith('.glb'):
            continue
        p = os.path.join(root, f)
        b = open(p, 'rb').read()
        try:
            magic, version, length = struct.unpack_from('<4sII', b, 0)
            assert magic == b'glTF' and version == 2 and length == len(b)
            at, chunks = 12, []
            while at < len(b):
                n, kind = struct.unpack_from('<II', b, at)
                chunks.append((kind, b[at + 8:at + 8 + n]))
                at += 8 + n
            assert at == len(b) and chunks[0][0] == 0x4E4F534A
            doc = json.loads(chunks[0][1])
            if doc.get('buffers'):
                assert chunks[1][0] == 0x004E4942 and len(chunks[1][1]) >= doc['buffers'][0]['byteLength']
        except Exception as e:
            bad.append('%s: %r' % (p, e))
print('\n'.join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}

# mount_tmpfs DIR OPTIONS: a tmpfs mounted at DIR with OPTIONS ("size=256k", "ro,size=64k"), as
# root only, unmounted when the script ends; false when it cannot be (not root, no tmpfs).
LIB_MOUNTS=()
mount_tmpfs() {
  [ "$(id -u)" = 0 ] && mount -t tmpfs -o "$2" tmpfs "$1" 2>/dev/null || return 1
  LIB_MOUNTS+=("$1")
  trap 'for m in "${LIB_MOUNTS[@]}"; do umount "$m" 2>/dev/null; done; rm -rf "$T"' EXIT
}
