#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer + ASan + UBSan (LeakSanitizer on).
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# Installs clang and libFuzzer's runtime when missing (through scripts/setup.sh),
# configures build-fuzz with clang and GLTF_ANIM_BUILD_FUZZ=ON, builds the
# targets of fuzz/, seeds each corpus from conformance_assets/, tests/hostile/
# and fuzz/seeds/, and runs every target (default: all nine) for
# SECONDS_PER_TARGET seconds (default 60), one process each, JOBS (default: the
# cores) side by side. Exits non-zero on any
# finding (crash, sanitizer report, leak, timeout, out-of-memory); the
# reproducer is written to build-fuzz/findings/<target>/.
#   FUZZ_BUILD_DIR  build folder (default: build-fuzz); one configured with the fuzz
#                   targets already (the "asan" preset's build-asan) is only built
#   FUZZ_CORPUS     corpus root (default: $FUZZ_BUILD_DIR/corpus); grows across runs
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_PER_TARGET="${1:-60}"
shift $(( $# > 0 ? 1 : 0 ))
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(fuzz_glb fuzz_gltf_validate fuzz_accessor fuzz_sample fuzz_compare fuzz_reports fuzz_ci_inputs fuzz_writer fuzz_generate_from)

BUILD="${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
JOBS="${JOBS:-$(nproc)}"
if grep -qs '^GLTF_ANIM_BUILD_FUZZ:BOOL=ON$' "$BUILD/CMakeCache.txt"; then
  # A folder already configured with the fuzz targets (the "asan" preset's, which CI
  # builds once for the sanitizer tests and these): just the targets, as it was configured.
  cmake --build "$BUILD" -j "$JOBS" --target fuzz_targets >&2
else
  # Build (setup.sh installs what is missing: clang, libclang-rt-14-dev for libFuzzer).
  BUILD_DIR="$BUILD" BUILD_TYPE=RelWithDebInfo \
    SETUP_EXTRA_PKGS="$(. "$ROOT/scripts/packages.sh"; packages_of fuzz)" JOBS="$JOBS" \
    CMAKE_ARGS="-DCMAKE_CXX_COMPILER=clang++ -DGLTF_ANIM_BUILD_FUZZ=ON -DGLTF_ANIM_BUILD_TESTS=OFF -DGLTF_ANIM_BUILD_BENCH=OFF" \
    bash "$ROOT/scripts/setup.sh"
fi
CORPUS="${FUZZ_CORPUS:-$BUILD/corpus}"

# Seeds (copied, never modified in place; libFuzzer adds new units to CORPUS/<target>).
SEEDS="$BUILD/seeds"
rm -rf "$SEEDS"
mkdir -p "$SEEDS"/{fuzz_glb,fuzz_gltf_validate,fuzz_accessor,fuzz_sample,fuzz_compare,fuzz_reports,fuzz_ci_inputs,fuzz_writer,fuzz_generate_from}
# fuzz_reports' inputs start with two bytes: what the rest feeds (0 an asset,
# 1 validation strings, 2 compare, 3 samples writers, 4 a manifest, 5 a json
# validation report read back) and the writer (+128: CSV samples files).
reports_seed() {  # MODE WRITER FILE NAME
  { printf "\\$(printf '%03o' "$1")\\$(printf '%03o' "$2")"; cat "$3"; } > "$SEEDS/fuzz_reports/$4"
}
# fuzz_writer's inputs start with one byte: which values to edit.
writer_seed() {
  { printf "\\$(printf '%03o' $(($1 % 256)))"; cat "$2"; } > "$SEEDS/fuzz_writer/$3"
}
i=0
while IFS= read -r -d '' f; do
  i=$((i + 1)); n="$(basename "$f")"
  case "$f" in
    *.glb) cp "$f" "$SEEDS/fuzz_glb/$i-$n"; cp "$f" "$SEEDS/fuzz_sample/$i-$n"
           cp "$f" "$SEEDS/fuzz_generate_from/$i-$n"
           writer_seed "$i" "$f" "$i-$n" ;;
    *.gltf) cp "$f" "$SEEDS/fuzz_gltf_validate/$i-$n"; cp "$f" "$SEEDS/fuzz_sample/$i-$n"
            cp "$f" "$SEEDS/fuzz_generate_from/$i-$n"
            writer_seed "$i" "$f" "$i-$n"
            reports_seed 0 $((i % 4)) "$f" "$i-$n" ;;
    *.samples.json) { printf '\0'; cat "$f"; } > "$SEEDS/fuzz_compare/$i-$n"
                    reports_seed 2 $((i % 5)) "$f" "$i-compare-$n"
                    reports_seed 3 0 "$f" "$i-samples-$n" ;;
    */manifest.json)
      # The suite's manifest (380 KB) is over the cap: its first assets, as many
      # as fit, keep it a whole manifest rather than a cut one.
      python3 - "$f" "$SEEDS/manifest.json" 65000 <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
assets = manifest["assets"]
while assets and len(json.dumps(manifest, indent=1).encode()) > int(sys.argv[3]):
    assets.pop()
open(sys.argv[2], "w").write(json.dumps(manifest, indent=1))
PY
      for w in 0 1 2 3 4; do reports_seed 4 "$w" "$SEEDS/manifest.json" "$i-$w-$n"; done
      rm "$SEEDS/manifest.json" ;;
  esac
done < <(find "$ROOT/conformance_assets" "$ROOT/tests/hostile/cases" "$ROOT/tests/validator/meshopt" -type f \
           \( -name '*.gltf' -o -name '*.glb' -o -name '*.samples.json' -o -name manifest.json \) -print0)
# A golden/actual pair for compare: one file against a copy with a changed value.
first="$(find "$ROOT/conformance_assets/valid" -name '*.samples.json' | sort | sed -n 1p)"  # sed reads all: no SIGPIPE under pipefail
{ printf '\0'; cat "$first"; printf '\n--\n'; sed 's/0\.5/0.6/' "$first"; } > "$SEEDS/fuzz_compare/pair.json"
cp "$ROOT"/fuzz/seeds/accessor/* "$SEEDS/fuzz_accessor/"
cp "$ROOT"/fuzz/seeds/ci_inputs/* "$SEEDS/fuzz_ci_inputs/"
cp "$ROOT"/fuzz/seeds/compare/* "$SEEDS/fuzz_compare/"
cp "$ROOT"/fuzz/seeds/generate_from/* "$SEEDS/fuzz_generate_from/"
for w in 0 1 2 3; do reports_seed 1 "$w" "$ROOT/fuzz/seeds/reports/validation_strings" "validation-$w"; done
reports_seed 3 0 "$ROOT/fuzz/seeds/reports/samples_strings" samples-strings
for f in "$ROOT"/fuzz/seeds/reports/validation_report_*.json; do
  for w in 0 1 2 3; do reports_seed 5 "$w" "$f" "report-$w-$(basename "$f")"; done
done
for f in "$ROOT"/fuzz/seeds/compare/*; do  # CSV
  for w in 0 1 2 3 4; do reports_seed 2 $((128 + w)) "$f" "compare-csv-$w-$(basename "$f")"; done
  reports_seed 3 128 "$f" "samples-csv-$(basename "$f")"
done

# Each target's input cap. A seed must fit its target's cap: libFuzzer would
# cut a longer one to the cap without a word, and fuzz something else.
declare -A MAX_LEN=([fuzz_glb]=16384 [fuzz_gltf_validate]=65536 [fuzz_accessor]=4096
                    [fuzz_sample]=65536 [fuzz_compare]=65536 [fuzz_reports]=65536 [fuzz_ci_inputs]=65536
                    [fuzz_writer]=65536 [fuzz_generate_from]=65536)
for t in "${!MAX_LEN[@]}"; do
  [ -d "$SEEDS/$t" ] || continue
  while IFS= read -r -d '' seed; do
    echo "fuzz.sh: seed $seed is $(stat -c %s "$seed") bytes, over $t's cap of ${MAX_LEN[$t]}" >&2
    exit 2
  done < <(find "$SEEDS/$t" -type f -size +"${MAX_LEN[$t]}"c -print0)
done
# One target: its run, and its summary line in $BUILD/findings/<target>/summary (exit 1 on a
# finding). Targets run side by side, JOBS at a time (each is one process on one core).
run_target() {
  local t=$1
  mkdir -p "$CORPUS/$t" "$BUILD/findings/$t"
  local log="$BUILD/findings/$t/last-run.log"
  echo "=== $t: ${SECONDS_PER_TARGET}s ===" >&2
  # -timeout: one input over 10 s is a finding; -rss_limit_mb (and malloc_limit_mb,
  # which defaults to it): a process over 2 GiB or a single allocation over 2 GiB is.
  rc=0
  ( cd "$BUILD/findings/$t" && ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" \
      UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$ROOT/fuzz/ubsan.supp" \
      "$BUILD/fuzz/$t" "$CORPUS/$t" "$SEEDS/$t" -dict="$ROOT/fuzz/gltf.dict" \
      -max_total_time="$SECONDS_PER_TARGET" -max_len="${MAX_LEN[$t]}" -rss_limit_mb=2048 -timeout=10 \
      -print_final_stats=1 -artifact_prefix="$BUILD/findings/$t/" ) >"$log" 2>&1 || rc=$?
  local execs last cov ft units
  execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1 || true)"
  last="$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
  units="$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")"
  if [ $rc -ne 0 ]; then
    echo "$t: FINDING (exit $rc); log $log; reproducer(s):" >&2
    ls "$BUILD/findings/$t"/{crash,leak,timeout,oom,slow-unit}-* 2>/dev/null >&2 || true
    grep -E 'ERROR|SUMMARY|runtime error|deadly signal|out-of-memory|timeout' "$log" | head -n 20 >&2 || true
  fi
  printf '%-20s %8s s  execs %10s  cov %6s  ft %7s  corpus %6s  %s\n' "$t" "$SECONDS_PER_TARGET" \
    "${execs:-?}" "${cov:-?}" "${ft:-?}" "${units:-?}" "$([ $rc -eq 0 ] && echo ok || echo FINDING)" \
    >"$BUILD/findings/$t/summary"
  [ $rc -eq 0 ]
}
status=0
running=0
for t in "${TARGETS[@]}"; do
  rm -f "$BUILD/findings/$t/summary"
  if [ "$running" -ge "$JOBS" ]; then wait -n || status=1; running=$((running - 1)); fi
  run_target "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do wait -n || status=1; running=$((running - 1)); done
echo "=== fuzz summary ===" >&2
for t in "${TARGETS[@]}"; do
  cat "$BUILD/findings/$t/summary" >&2 2>/dev/null || { echo "$t: no summary (the run did not finish)" >&2; status=1; }
done
exit $status
