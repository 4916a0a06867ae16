#!/usr/bin/env bash
# Byte identity of `gltf-anim merge` between two builds: every report set below
# merged in the six formats by each build, outputs (and exit codes) compared by
# SHA-256. The inputs are made by the first build: json reports of the
# conformance assets and the hostile cases (plain, with other --lints,
# --severity-override and --fail-on, sharded in 3 parts, each conformance asset
# with its glTF-Validator report merged in), the fuzz seeds' reports, and
# synthetic reports (bench/merge_identity.py: merge_large.sh's shapes at small
# sizes, text's codes with more than 20 distinct messages, md's and github's
# caps). Prints the number of runs compared and each difference.
#   bash bench/merge_identity.sh BEFORE_BUILD AFTER_BUILD [WORK_DIR]
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
A="$(cd "$1" && pwd)/cli/gltf-anim"
B="$(cd "$2" && pwd)/cli/gltf-anim"
D="${3:-/tmp/gltf_anim_merge_identity}"
rm -rf "$D" && mkdir -p "$D/in" "$D/gv" "$D/syn"
V=$("$A" --version | cut -d' ' -f2)
j=0
report() {  # NAME ARGS...: one validate run of the first build
  local name="$1"; shift
  "$A" validate --format json --no-timings "$@" > "$D/in/$name.json" 2>/dev/null || true
}
for dir in conformance_assets/valid conformance_assets/invalid conformance_assets/rules_valid \
           tests/hostile/cases; do
  n=$(echo "$dir" | tr / _)
  (cd "$SRC" && report "$n" "$dir")
  (cd "$SRC" && report "${n}_lints" --lints hint --enable 'LINT_*' --fail-on warning "$dir")
  (cd "$SRC" && report "${n}_override" --severity-override 'UNEXPECTED_*=0' --fail-on info \
     --max-issues 3 "$dir")
done
for k in 1 2 3; do
  (cd "$SRC" && "$A" validate --format json --no-timings --shard "$k/3" conformance_assets \
     > "$D/in/shard_$k.json" 2>/dev/null || true)
done
# Each invalid conformance asset with its glTF-Validator report (the expected
# report beside it) merged in: foundBy marks, glTF-Validator's own codes.
while IFS= read -r r; do
  g="${r%.report.json}"
  j=$((j + 1))
  (cd "$(dirname "$g")" && "$A" validate --format json --no-timings \
     --merge-gltf-validator "$(basename "$r")" "$(basename "$g")" > "$D/gv/gv_$j.json" \
     2>/dev/null || true)
done < <(find "$SRC/conformance_assets" -name '*.gltf.report.json' | sort)
cp "$SRC"/fuzz/seeds/reports/validation_report_*.json "$D/in/"
"$A" codes --format json > "$D/codes.json"
python3 "$SRC/bench/merge_identity.py" "$D/codes.json" "$D/syn" "$V"

runs=0 differ=0
compare() {  # FILES...: merged in every format by both builds
  local f ha hb
  for f in json text junit sarif md github; do
    ha=$( (cd "$D" && "$A" merge --no-timings --format "$f" "$@" 2>/dev/null; echo "exit $?") |
         sha256sum)
    hb=$( (cd "$D" && "$B" merge --no-timings --format "$f" "$@" 2>/dev/null; echo "exit $?") |
         sha256sum)
    runs=$((runs + 1))
    if [ "$ha" != "$hb" ]; then
      differ=$((differ + 1))
      echo "DIFFERS: --format $f ($# reports) $1"
    fi
  done
}
for r in "$D"/in/*.json "$D"/syn/*.json "$D"/gv/*.json; do compare "$r"; done
compare "$D"/in/shard_1.json "$D"/in/shard_2.json "$D"/in/shard_3.json
compare "$D"/gv/*.json
compare "$D"/syn/many_assets_error.json "$D"/syn/distinct_many_error.json "$D"/syn/found_by_error.json
echo "$runs runs compared (each by both builds), $differ differ"
[ "$differ" = 0 ]
