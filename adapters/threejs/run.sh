#!/usr/bin/env bash
# Runs the three.js adapter over the whole conformance suite and publishes the
# conformance report docs/conformance/three.md.
#
#   bash adapters/threejs/run.sh [--report FILE] [--work DIR]
#
#   --report FILE  where to write the markdown report (default: docs/conformance/three.md)
#   --work DIR     scratch folder for the samples and the json/html reports
#                  (default: $BUILD_DIR/threejs)
# Environment:
#   GLTF_ANIM_CLI  the gltf-anim executable; when unset, $BUILD_DIR/cli/gltf-anim,
#                  built first through scripts/setup.sh if it is missing
#   BUILD_DIR      build folder for scripts/setup.sh (default: build)
#
# Steps: `npm ci` when node_modules does not hold the locked three.js; the
# adapter (sample.mjs) writes one samples file per asset; `gltf-anim compare`
# writes the md report (plus json and html beside the samples). compare exits 1
# when cases fail: that is a result, so this script succeeds whenever the
# adapter ran and compare produced its report, and fails (non-zero) on a
# missing node/npm, an adapter error or a compare error (exit 2).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$PWD/$BUILD_DIR" ;; esac  # relative: from the caller's folder
REPORT="$ROOT/docs/conformance/three.md"
WORK="$BUILD_DIR/threejs"
while [ $# -gt 0 ]; do
  case "$1" in
    --report) REPORT="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

die() { echo "run.sh: $*" >&2; exit 2; }
. "$HERE/../common/shell.sh"
need_node_npm die

# 1. three.js as locked in package-lock.json.
"$HERE/npm-ci.sh"

# 2. The CLI.
find_cli "$ROOT" "$BUILD_DIR" die

# 3. Samples. The work folder holds a link to the suite so that compare prints
#    the same relative paths on every machine (the committed report is diffed).
mkdir -p "$WORK"
rm -rf "$WORK/three-samples"
ln -sfn "$ROOT/conformance_assets" "$WORK/conformance_assets"
node "$HERE/sample.mjs" --suite "$ROOT/conformance_assets" --out "$WORK/three-samples" > "$WORK/adapter.log" 2>&1 \
  || { cat "$WORK/adapter.log"; die "the adapter failed (log above)"; }
tail -n 1 "$WORK/adapter.log"

# 4. The core-only view: three.js supports none of the animation extensions, so
#    conformance_assets/README.md has it compare against
#    `gltf-anim sample --no-extensions` (pointer and KHR_animation2 channels
#    absent, sqlerp channels on their fallback sampler). The core goldens are
#    made here with the CLI (default times), beside a copy of the manifest so
#    that compare uses its tolerances, features and clauses.
rm -rf "$WORK/core-golden" "$WORK/three-samples-core"
mkdir -p "$WORK/core-golden"
cp "$ROOT/conformance_assets/manifest.json" "$WORK/core-golden/manifest.json"
while IFS=$'\t' read -r file samples; do
  mkdir -p "$(dirname "$WORK/core-golden/$samples")"
  "$GLTF_ANIM_CLI" sample "$ROOT/conformance_assets/$file" --no-extensions --output "$WORK/core-golden/$samples" \
    || die "gltf-anim sample --no-extensions $file failed"
done < <(node -e "
  for (const e of require('$ROOT/conformance_assets/manifest.json').assets)
    if (e.samples) console.log(e.file + '\t' + e.samples);")
node "$HERE/sample.mjs" --suite "$ROOT/conformance_assets" --golden "$WORK/core-golden" \
  --out "$WORK/three-samples-core" > "$WORK/adapter-core.log" 2>&1 \
  || { cat "$WORK/adapter-core.log"; die "the adapter failed on the core-only goldens (log above)"; }

# 5. Reports. compare: 0 all pass, 1 some cases fail (a result), 2 error.
THREE_VERSION="$(node -p "require('$HERE/../node_modules/three/package.json').version")"
compare() {
  local rc=0
  (cd "$WORK" && "$GLTF_ANIM_CLI" compare "$@") || rc=$?
  [ "$rc" -le 1 ] || die "gltf-anim compare $* failed with exit code $rc"
}
full=(--golden conformance_assets --actual three-samples)
core=(--golden core-golden --actual three-samples-core)
compare "${full[@]}" --format json --output "$WORK/three.json" >/dev/null
compare "${full[@]}" --format html --output "$WORK/three.html" >/dev/null
compare "${full[@]}" --format md --output "$WORK/compare.md" >/dev/null
compare "${core[@]}" --format json --output "$WORK/three-core.json" >/dev/null
compare "${core[@]}" --format html --output "$WORK/three-core.html" >/dev/null
compare "${core[@]}" --format md --output "$WORK/compare-core.md" >/dev/null
mkdir -p "$(dirname "$REPORT")"
{
  echo "# three.js $THREE_VERSION: glTF animation conformance"
  echo
  echo "three.js $THREE_VERSION (npm \`three\`, pinned in \`adapters/package-lock.json\`):"
  echo "each asset loaded with \`GLTFLoader\`, each \`KeyframeTrack\` sampled with its own interpolant"
  echo "(\`track.createInterpolant()\`, as \`AnimationAction\` does) at the golden samples' times."
  echo "Every difference is explained in [three-notes.md](three-notes.md)."
  echo "Generated by \`bash adapters/threejs/run.sh\`; do not edit (CTest \`threejs_conformance_report\` checks it is current)."
  echo
  echo "Two views: the whole suite against the golden samples (extensions included), then the"
  echo "core-only view that conformance_assets/README.md gives clients without animation extensions"
  echo "(goldens of \`gltf-anim sample --no-extensions\`)."
  echo
  cat "$WORK/compare.md"
  echo
  echo "## Core-only view"
  echo
  echo "Cases whose core-only golden has no channel (pointer and KHR_animation2 channels are absent)"
  echo "are reported as \"nothing compared\" (neither passed nor failed); three-notes.md says which"
  echo "assets three.js does not load at all."
  echo
  sed '1s/^## /### Core-only view: /' "$WORK/compare-core.md"
} > "$REPORT.tmp"
mv "$REPORT.tmp" "$REPORT"
summary() { grep -m1 -o -E '[0-9]+ passed, [0-9]+ failed(, [0-9]+ with nothing to compare)?' "$1"; }
echo "run.sh: $(summary "$REPORT") (core-only view: $(summary "$WORK/compare-core.md")) -> $REPORT (json, html: $WORK)"
