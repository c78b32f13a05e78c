#!/usr/bin/env bash
# Limit errors: an input that claims more than a size limit allows is invalid input (exit 1, with
# the limit named), never an I/O failure (exit 3); sparse files make the big inputs for free.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_limits
. "$HERE/cli_lib.sh"
has() { # has PATTERN FILE : the file holds the pattern
  if grep -q -- "$1" "$2"; then ok; else bad "no '$1' in $2"; cat "$2" >&2; fi
}

expect_rc 0 "$UE" demo -o "$T/demo"
CAP=2147483648 # UE_CAP_ENTRY_BYTES

# A standalone GameCube LZSS file one byte over the cap is refused from its size alone.
cp "$T/demo/gamecube/demo_model.lzss" "$T/big.lzss"
truncate -s $((CAP + 1)) "$T/big.lzss"
for verb in validate info list; do
  expect_rc 1 "$UE" "$verb" "$T/big.lzss"
  has "lzss.file_cap" "$T/err"
done
expect_rc 1 "$UE" extract "$T/big.lzss" -o "$T/big_out"
[ -e "$T/big_out" ] && bad "extract wrote an output for a refused input" || ok

# The same for a PKX wrapper.
cp "$T/demo/gamecube/demo_colo.pkx" "$T/big.pkx"
truncate -s $((CAP + 1)) "$T/big.pkx"
expect_rc 1 "$UE" validate "$T/big.pkx"
has "pkx.size_cap" "$T/err"

# edit reads a replacement OBJ of at most 256 MiB; a bigger one was "out of memory" (exit 3).
truncate -s $((257 << 20)) "$T/huge.obj"
expect_rc 1 "$UE" edit "$T/demo/parkan/robot.msh" -o "$T/edited.msh" --replace-slot 0 "$T/huge.obj"
has "io.too_large" "$T/err"
has "over a size limit" "$T/err"
[ -e "$T/edited.msh" ] && bad "edit wrote a model from a refused OBJ" || ok

rm -f "$T/big.lzss" "$T/big.pkx" "$T/huge.obj"
finish
