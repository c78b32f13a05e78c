#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset) and runs each for SECONDS on a temp copy of its
# seed corpus (fuzz/corpus/<target>) with its dictionary; fails on crash, leak, timeout or OOM.
#
# usage: scripts/fuzz.sh SECONDS [TARGET...]      e.g. scripts/fuzz.sh 30, scripts/fuzz.sh 60 fsys
# Targets are the directories of fuzz/corpus (nres lzss rsli lzhuf fsys gc_lzss pkx msh msh_anim mat0_wear obj
# dat gx texm hsd_anim json_doc hsd_import): a new target needs its fuzz_<name>.c in fuzz/CMakeLists.txt and its seeds there.
# Prints one line per target: executions, executions per second, coverage (libFuzzer's cov: and
# ft: counters at the end of the run) and peak RSS. Crash inputs are kept under the printed dir.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || [ "$1" -eq 0 ]; then
  echo "usage: scripts/fuzz.sh SECONDS [TARGET...]" >&2
  exit 2
fi
seconds="$1"
shift

# Inputs stay small so every run is cheap: the codec targets' streams expand at most 9–1032×,
# and every container seed is under 12 KB (hsd_import's creature.glb: 40 KB). Memory above 1 GiB counts as a failure (OOM).
max_len_of() {
  case "$1" in
    lzss | lzhuf | gc_lzss) echo 4096 ;;
    hsd_import) echo 65536 ;; # the sample creature's glb with its images (about 40 KB)
    *) echo 16384 ;;
  esac
}
RSS_LIMIT_MB=1024
# ASan keeps 256 MiB of freed blocks in quarantine by default, so every allocation lands on
# fresh pages and page faults cost more than the code under test; 32 MiB still catches a use
# after free of anything one run frees. Callers may override with their own ASAN_OPTIONS.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=32}"
final_stat() { sed -n "s/^stat::$2: *//p" "$1" | tail -n 1; }
TIMEOUT_S=10

cmake --preset fuzz >/dev/null
cmake --build build/fuzz >/dev/null

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for dir in fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/unearth-fuzz.XXXXXX")"
echo "fuzzing ${#targets[@]} targets for ${seconds}s each; logs and any crash inputs in $work"
# exec/cpu-s divides by the CPU time the fuzzer got: on a shared machine wall-clock exec/s
# mostly measures the other load.
printf '%-8s %10s %8s %11s %6s %6s %8s  %s\n' target executions exec/s exec/cpu-s cov ft \
  rss_mb result
failed=0
for t in "${targets[@]}"; do
  bin="build/fuzz/fuzz/fuzz_$t"
  if [ ! -x "$bin" ] || [ ! -d "fuzz/corpus/$t" ]; then
    echo "$t: no such target (build/fuzz/fuzz/fuzz_$t and fuzz/corpus/$t are both needed)" >&2
    failed=1
    continue
  fi
  corpus="$work/corpus_$t"
  mkdir -p "$corpus" "$work/artifacts_$t"
  cp fuzz/corpus/"$t"/* "$corpus"/
  dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  log="$work/$t.log"
  status=0
  TIMEFORMAT='%U %S'
  { time "$bin" -max_total_time="$seconds" -max_len="$(max_len_of "$t")" \
      -rss_limit_mb="$RSS_LIMIT_MB" -timeout="$TIMEOUT_S" -print_final_stats=1 \
      -artifact_prefix="$work/artifacts_$t/" "${dict[@]}" "$corpus" >"$log" 2>&1; } \
    2>"$work/$t.cpu" || status=$?
  execs="$(final_stat "$log" number_of_executed_units)"
  per_cpu="$(awk -v n="${execs:-0}" '{ t = $1 + $2; print (t > 0 ? int(n / t) : "?") }' \
    "$work/$t.cpu")"

  last_cov="$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]*' | tail -n 1 || true)"
  cov="$(echo "$last_cov" | awk '{print $2}')"
  ft="$(echo "$last_cov" | awk '{print $4}')"
  result=ok
  if [ "$status" -ne 0 ]; then
    why="$(grep -m1 -oE 'ERROR: [A-Za-z]+: [^ ]+|out-of-memory|timeout|leak' "$log" || true)"
    result="FAILED (exit $status: ${why:-see the log})"
    failed=1
  fi
  printf '%-8s %10s %8s %11s %6s %6s %8s  %s\n' "$t" "${execs:-?}" \
    "$(final_stat "$log" average_exec_per_sec)" "${per_cpu:-?}" "${cov:-?}" "${ft:-?}" \
    "$(final_stat "$log" peak_rss_mb)" "$result"
  if [ "$status" -ne 0 ]; then
    tail -n 30 "$log" | sed 's/^/    /'
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzzing FAILED; logs and crash inputs: $work" >&2
  exit 1
fi
rm -rf "$work"
echo "fuzzing passed"
