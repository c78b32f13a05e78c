#!/usr/bin/env bash
# End-to-end tests of help and option handling: help for every verb names exactly the options the
# parser accepts (and README documents them), usage errors are one line with a hint, `--` works.
set -u
UE="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"   # absolute: the test changes directory
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_help
. "$HERE/cli_lib.sh"

# The verbs of the command-line contract (DESIGN.md section 5, plus edit and texm), in table order.
VERBS="info list extract cat pack validate roundtrip convert textures preview texm edit import demo"

# ---- help for every verb -------------------------------------------------------------
expect_rc 0 "$UE" help;      cp "$T/out" "$T/overview"
for v in $VERBS; do
  grep -q "^  $v " "$T/overview" && ok || bad "overview lacks verb $v"
done
n=$(grep -c '^  [a-z]' "$T/overview"); [ "$n" = 14 ] && ok || bad "overview lists $n verbs, want 14"
expect_rc 0 "$UE" --help;    cmp -s "$T/out" "$T/overview" && ok || bad "--help differs from help"
expect_rc 0 "$UE" -h;        cmp -s "$T/out" "$T/overview" && ok || bad "-h differs from help"
expect_rc 0 "$UE" --version
grep -qx 'unearth [0-9]*\.[0-9]*\.[0-9]*' "$T/out" && ok || bad "--version: $(cat "$T/out")"

# Sample values for the options that take some (an option added without one fails here).
sample_values() {
  case "$1" in
    --output) echo "$T/probe.out" ;;   --lod) echo 1 ;;   --group) echo -1 ;;
    --jobs) echo 2 ;;   --format) echo glb ;;   --fps) echo 30 ;;   --data) echo "$T" ;;   --rename-node) echo 0 a ;;
    --vertices) echo 0 1 ;;   --translate) echo 1 2 3 ;;   --scale) echo 2 ;;
    --replace-slot) echo 0 x.obj ;;   --material) echo 0 ;;   --report) echo "$T/probe.json" ;;
    --like) echo x.texm ;;   --pixel-format) echo 565 ;;   --mip-levels) echo 1 ;;
    --base) echo x.msh ;;   --into) echo x.rlb:x.msh ;;   --level) echo 9 ;;
    --wear) echo x.wea ;;   --anims) echo x.dat ;;
    --size) echo 64 ;;   --view) echo iso ;;   --background) echo '#000000' ;;   --clip) echo a ;;   --frame) echo 1 ;;
    --textures-into) echo x.lib ;;   --textures-out) echo "$T/probe.lib" ;;   --textures-dir) echo "$T/probe" ;;
    --texture-format) echo cmpr ;;
    --weight-step) echo 1/64 ;;
    --anim-slot) echo 0 a ;;
    *) echo "NO-SAMPLE" ;;
  esac
}

expect_rc 0 "$UE" help --options; cp "$T/out" "$T/all_options"
for v in $VERBS; do expect_rc 0 "$UE" help --options "$v"; cp "$T/out" "$T/opts_$v"; done
# ACCEPTED[--opt]: the verbs whose table row lists --opt, in table order ("info, list, ...").
declare -A ACCEPTED
while read -r long short count; do
  ACCEPTED[$long]=""
  for w in $VERBS; do grep -q -- "^$long " "$T/opts_$w" && ACCEPTED[$long]="${ACCEPTED[$long]}, $w"; done
  ACCEPTED[$long]=${ACCEPTED[$long]#, }
done < "$T/all_options"
n=$(wc -l < "$T/all_options"); [ "$n" -ge 19 ] && ok || bad "only $n options in the table"
for v in $VERBS; do
  expect_rc 0 "$UE" help "$v";    cp "$T/out" "$T/help_$v"
  [ ! -s "$T/err" ] && ok || bad "help $v wrote to stderr"
  expect_rc 0 "$UE" "$v" --help;  cmp -s "$T/out" "$T/help_$v" && ok || bad "$v --help differs"
  expect_rc 0 "$UE" "$v" -h;      cmp -s "$T/out" "$T/help_$v" && ok || bad "$v -h differs"
  expect_rc 0 "$UE" "$v" --no-such-option --help    # help wins over other errors
  cmp -s "$T/out" "$T/help_$v" && ok || bad "$v --help after a bad option"
  grep -q "^usage: unearth $v" "$T/help_$v" && ok || bad "help $v: no synopsis"
  grep -q '^Examples:' "$T/help_$v" && ok || bad "help $v: no examples"
  ex=$(sed -n '/^Examples:/,$p' "$T/help_$v" | grep -c "^  unearth $v ")
  [ "$ex" -ge 1 ] && ok || bad "help $v: no example of $v"

  # Every option of the table is in the help, in its column, and the help shows no other.
  while read -r long short count; do
    if [ "$short" = - ]; then pat="^      $long\\b"; else pat="^  $short, $long\\b"; fi
    grep -q -- "$pat" "$T/help_$v" && ok || bad "help $v does not document $long"
  done < "$T/opts_$v"
  shown=$(grep -c '^  -\|^      --' "$T/help_$v")
  [ "$shown" = "$(wc -l < "$T/opts_$v")" ] && ok || bad "help $v shows $shown options, table has $(wc -l < "$T/opts_$v")"

  # The parser agrees with the table: every option of the table is accepted by this verb (the
  # complaint is then about the missing input or -o), every other one is refused by name.
  while read -r long short count; do
    [ "$long" = --help ] && continue
    values=""; [ "$count" != 0 ] && values=$(sample_values "$long")
    [ "$values" != NO-SAMPLE ] && ok || bad "no sample value for $long"
    for spelling in "$long" "$short"; do
      [ "$spelling" = - ] && continue
      # shellcheck disable=SC2086
      "$UE" "$v" "$spelling" $values >"$T/out" 2>"$T/err"
      if [[ ", ${ACCEPTED[$long]}, " == *", $v, "* ]]; then
        ! grep -q 'does not apply\|unknown option' "$T/err" && ok || bad "$v refuses its own $spelling: $(cat "$T/err")"
      else
        want="unearth: $v: $spelling does not apply to $v (accepted by ${ACCEPTED[$long]}); see 'unearth $v --help'"
        # shellcheck disable=SC2086
        expect_usage "$want" "$UE" "$v" "$spelling" $values
      fi
    done
  done < "$T/all_options"
done
rm -rf "$T/probe.out"

# values state their range and default (the defaults of the contract: LOD 0, group 0, 1 job)
grep -q -- '--lod N .*0\.\.2 (default: 0)' "$T/help_convert" && ok || bad "help convert: --lod range/default"
grep -q -- '--group G .*0\.\.4, or all (alias -1) for every group' "$T/help_convert" && ok || bad "help convert: --group"
grep -q -- '(default: 0, what the game draws)' "$T/help_convert" && ok || bad "help convert: --group default"
grep -q -- '--jobs N .*1\.\.64 (default: 1)' "$T/help_convert" && ok || bad "help convert: --jobs"
grep -A1 -- '--format F' "$T/help_convert" | grep -q 'default: glb' && ok || bad "help convert: --format default"
for v in extract pack convert textures texm edit import demo; do
  grep -A1 -- '-o, --output' "$T/help_$v" | grep -q '(required)' && ok || bad "help $v: -o not marked required"
done

# --json belongs to info, list and validate only (the verbs that have JSON output).
for v in info list validate; do grep -q '^--json ' "$T/opts_$v" && ok || bad "$v lacks --json"; done
for v in extract pack roundtrip convert textures texm edit import demo; do
  expect_usage "" "$UE" "$v" --json x
  grep -q -- "--json does not apply to $v" "$T/err" && ok || bad "$v accepts --json"
done
# -v is accepted wherever -q is.
for v in $VERBS; do
  q=$(grep -c '^--quiet ' "$T/opts_$v"); w=$(grep -c '^--verbose ' "$T/opts_$v")
  [ "$q" = "$w" ] && ok || bad "$v: -q and -v not accepted together"
done

# README's option table names, for every option, exactly the verbs that accept it.
README="$HERE/../../README.md"
while read -r long short count; do
  row=$(grep -- "^| \`\\(-[a-z], \\)\\?$long[ \`]" "$README" | head -1)
  [ -n "$row" ] && ok || { bad "README does not document $long"; continue; }
  documented=$(printf '%s' "$row" | awk -F'|' '{gsub(/^ +| +$/, "", $3); print $3}')
  accepted=${ACCEPTED[$long]}
  [ "$accepted" = "info, list, extract, cat, pack, validate, roundtrip, convert, textures, preview, texm, edit, import, demo" ] && accepted="every verb"
  [ "$documented" = "$accepted" ] && ok || bad "README: $long on '$documented', parser: '$accepted'"
  if [ "$short" != - ]; then
    printf '%s' "$row" | grep -q -- "\`$short, $long" && ok || bad "README row of $long lacks $short"
  fi
done < "$T/all_options"

# ---- usage errors: one line, a hint, did you mean --------------------------------------
expect_usage "unearth: no verb given; see 'unearth --help'" "$UE"
expect_usage "unearth: unknown verb lsit (did you mean list?); see 'unearth --help'" "$UE" lsit a.rlb
expect_usage "unearth: unknown verb conevrt (did you mean convert?); see 'unearth --help'" "$UE" conevrt a
expect_usage "unearth: unknown verb frobnicate; see 'unearth --help'" "$UE" frobnicate
expect_usage "unearth: unknown verb valdiate (did you mean validate?); see 'unearth --help'" "$UE" help valdiate
expect_usage "unearth: unknown option --verison (did you mean --version?); see 'unearth --help'" "$UE" --verison
expect_usage "" "$UE" --json list a.rlb
expect_usage "unearth: convert: unknown option --lodd (did you mean --lod?); see 'unearth convert --help'" \
  "$UE" convert a.msh -o a.glb --lodd 1
expect_usage "unearth: validate: unknown option --tolerent (did you mean --tolerant?); see 'unearth validate --help'" \
  "$UE" validate --tolerent a.rlb
expect_usage "unearth: convert: unknown option -lod (did you mean --lod?); see 'unearth convert --help'" \
  "$UE" convert a.msh -o a.glb -lod 1
expect_usage "unearth: extract: unknown option --out (did you mean --output?); see 'unearth extract --help'" \
  "$UE" extract a.rlb --out d
expect_usage "unearth: list: unknown option --jsno (did you mean --json?); see 'unearth list --help'" \
  "$UE" list --jsno a.rlb
expect_usage "unearth: edit: unknown option --rename (did you mean --rename-node?); see 'unearth edit --help'" \
  "$UE" edit a.msh -o b.msh --rename 1 x
expect_usage "unearth: info: unknown option --frobnicate; see 'unearth info --help'" "$UE" info --frobnicate a
expect_usage "unearth: list: --lod does not apply to list (accepted by convert); see 'unearth list --help'" \
  "$UE" list --lod 1 a.rlb
expect_usage "unearth: pack: --json does not apply to pack (accepted by info, list, validate); see 'unearth pack --help'" \
  "$UE" pack --json d -o a.rlb
expect_usage "unearth: convert: --translate does not apply to convert (accepted by edit); see 'unearth convert --help'" \
  "$UE" convert a.msh -o a.glb --translate 1 2 3
expect_usage "unearth: convert: --scale 0: want a number from 1e-30 to 1e30 in size, negative to mirror (not 0); see 'unearth convert --help'" \
  "$UE" convert a.msh -o a.glb --scale 0

# values: ranges and choices from the table, missing values, repeated and exclusive options
expect_usage "unearth: convert: --lod takes one of 0|1|2|all, not '3'; see 'unearth convert --help'" \
  "$UE" convert a.msh -o a.glb --lod 3
expect_usage "unearth: convert: --group takes one of 0|1|2|3|4|all|-1, not '-2'; see 'unearth convert --help'" \
  "$UE" convert a.msh -o a.glb --group -2
expect_usage "" "$UE" convert a.msh -o a.glb --group=5
expect_usage "" "$UE" convert a.msh -o a.glb -j 0
expect_usage "" "$UE" convert a.msh -o a.glb --jobs 65
expect_usage "" "$UE" convert a.msh -o a.glb --lod one
expect_usage "unearth: convert: --format takes one of glb|gltf|obj, not 'png'; see 'unearth convert --help'" \
  "$UE" convert a.msh -o d --format png
expect_usage "unearth: convert: --lod needs a value: --lod N; see 'unearth convert --help'" "$UE" convert a.msh --lod
expect_usage "unearth: extract: -o needs a value: -o DIR; see 'unearth extract --help'" "$UE" extract a.rlb -o
expect_usage "unearth: validate: --json takes no value; see 'unearth validate --help'" "$UE" validate --json=yes a
expect_usage "unearth: edit: --translate takes 3 values: --translate X Y Z; see 'unearth edit --help'" \
  "$UE" edit a.msh -o b.msh --translate=1 2 3
expect_usage "unearth: pack: -o given twice; see 'unearth pack --help'" "$UE" pack d -o a.rlb -o b.rlb
expect_usage "unearth: validate: --strict and --tolerant exclude each other; see 'unearth validate --help'" \
  "$UE" validate --strict --tolerant a
expect_usage "unearth: list: -q and -v exclude each other; see 'unearth list --help'" "$UE" list -q -v a
expect_usage "unearth: info: missing FILE; see 'unearth info --help'" "$UE" info
expect_usage "unearth: list: takes one ARCHIVE, not 2 (unexpected b); see 'unearth list --help'" "$UE" list a b
expect_usage "unearth: validate: missing FILE; see 'unearth validate --help'" "$UE" validate --json
expect_usage "unearth: convert: -o OUT is required; see 'unearth convert --help'" "$UE" convert a.msh
expect_usage "unearth: demo: unexpected argument x (demo takes no inputs); see 'unearth demo --help'" \
  "$UE" demo x -o d

# ---- accepted forms do what they say, on the sample pack -------------------------------
expect_rc 0 "$UE" demo -o "$T/demo"
A="$T/demo/parkan/objects.rlb"
R="$T/demo/parkan/robot.msh"
expect_rc 0 "$UE" convert "$R" -o "$T/l1.glb" --lod 1 --group 0
expect_rc 0 "$UE" convert "$R" --output="$T/l1eq.glb" --lod=1 --group=0
cmp -s "$T/l1.glb" "$T/l1eq.glb" && ok || bad "--opt=value differs from --opt value"
expect_rc 0 "$UE" convert "$R" -o "$T/l0.glb" --group 0
! cmp -s "$T/l0.glb" "$T/l1.glb" && ok || bad "--lod=1 had no effect"
expect_rc 0 "$UE" convert "$R" -o "$T/all.glb" --group all
expect_rc 0 "$UE" convert "$R" -o "$T/minus1.glb" --group -1
expect_rc 0 "$UE" convert "$R" -o "$T/default.glb"
cmp -s "$T/l0.glb" "$T/default.glb" && ok || bad "--group 0 is not the default"
cmp -s "$T/all.glb" "$T/minus1.glb" && ok || bad "--group -1 is not an alias of --group all"
! cmp -s "$T/all.glb" "$T/l0.glb" && ok || bad "--group 0 selected every group"
expect_rc 0 "$UE" info -v "$A"
expect_rc 0 "$UE" list --quiet "$A"

# `--` ends options: inputs and edit models that start with '-'
cp "$A" "$T/-odd.rlb"
cp "$R" "$T/-robot.msh"
cd "$T" || exit 1
expect_rc 0 "$UE" info -- -odd.rlb
grep -q "Parkan NRes archive" "$T/out" && ok || bad "info -- -odd.rlb did not read the archive"
expect_usage "unearth: info: unknown option -odd.rlb; see 'unearth info --help'" "$UE" info -odd.rlb
expect_rc 3 "$UE" validate -- -odd.rlb --json    # after --, --json is a file (that does not exist)
grep -q -- '--json' "$T/err" && ok || bad "the missing file --json is not named"
expect_rc 0 "$UE" edit -o "$T/e1.msh" --scale 2 -- -robot.msh
cd "$HERE" || exit 1
expect_rc 0 "$UE" edit "$R" -o "$T/e2.msh" --scale=2
cmp -s "$T/e1.msh" "$T/e2.msh" && ok || bad "edit with -- or --scale=2 differs"
! cmp -s "$T/e1.msh" "$R" && ok || bad "edit --scale 2 changed nothing"
expect_usage "" "$UE" edit "$R" -o "$T/e3.msh" --translate 1 2
[ ! -e "$T/e3.msh" ] && ok || bad "edit wrote an output after a usage error"

# The manual page is generated from the same tables as the help; the installed copy in docs/
# must be what the binary prints (regenerate: unearth help --man > docs/unearth.1).
expect_rc 0 "$UE" help --man
cmp -s "$T/out" "$HERE/../../docs/unearth.1" && ok \
  || bad "docs/unearth.1 differs from 'unearth help --man': regenerate it"
for v in $VERBS; do
  grep -q "^\.SS $v\$" "$T/out" && ok || bad "the man page has no section for $v"
done
if command -v groff >/dev/null; then
  groff -man -Tutf8 -ww -z "$T/out" 2>"$T/groff" && [ ! -s "$T/groff" ] && ok \
    || bad "groff warns about the man page: $(cat "$T/groff")"
fi

finish
