#!/usr/bin/env bash
# Runs every engine adapter of adapters/engines.json over the whole
# conformance suite and publishes the conformance matrix
# docs/conformance/README.md (and in the work folder an HTML report per engine
# and the matrix as HTML, matrix.html, linking each cell to them).
#
#   bash adapters/run-all.sh [--suite DIR] [--report FILE] [--work DIR] [--check]
#
#   --suite DIR    another suite: one `gltf-anim generate --from YOUR_ASSETS --out DIR`
#                  wrote (default: conformance_assets); its matrix names every
#                  engine's pass or fail per asset, without verdicts
#   --report FILE  where to write the matrix (default: docs/conformance/README.md;
#                  with --suite: WORK/README.md)
#   --work DIR     scratch folder for samples and reports (default: $BUILD_DIR/engines)
#   --check        fail when a cell is not explained (see adapters/matrix.mjs)
# Environment:
#   GLTF_ANIM_CLI  the gltf-anim executable; when unset, $BUILD_DIR/cli/gltf-anim,
#                  built first through scripts/setup.sh if it is missing
#   BUILD_DIR      build folder (default: build)
#   GLTF_ANIM_FILAMENT_ADAPTER, GLTF_ANIM_ASSIMP_ADAPTER  the C++ adapters
#                  (engines.json "command"; default: where the build puts them)
#   GLTF_ANIM_BLENDER_ADAPTER  the Blender adapter (default: adapters/blender/run.sh,
#                  which installs Debian's blender when it is missing)
#   GLTF_ANIM_GODOT_ADAPTER  the Godot adapter (default: adapters/godot/run.sh, which
#                  installs Debian's godot3-server when it is missing)
#   GLTF_ANIM_VTK_ADAPTER  the VTK adapter (default: adapters/vtk/run.sh, which installs
#                  Debian's python3-vtk9 when it is missing)
#
# Steps: npm ci when adapters/node_modules does not hold the locked packages
# (adapters/npm-ci.sh); one node process per engine (adapters/<engine>/sample.mjs)
# writes one samples file per asset; `gltf-anim compare` judges each engine
# (json and html); adapters/matrix.mjs builds the matrix. compare exits 1 when
# cases fail: that is a result. This script fails (non-zero) on a missing
# node/npm, an adapter error, a compare error (exit 2), or with --check an
# unexplained cell.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$PWD/$BUILD_DIR" ;; esac
WORK="$BUILD_DIR/engines"
SUITE="$ROOT/conformance_assets"
. "$HERE/common/shell.sh"
REPORT=""
run_all_options run-all.sh 2,31 "$@"
die() { echo "run-all.sh: $*" >&2; exit 2; }
# The reason first, then the adapter's last lines (exit 2).
adapter_failed() {
  echo "run-all.sh: the $1 adapter failed with exit code $2 (log: $WORK/$1.log); its last lines:" >&2
  tail -n 40 "$WORK/$1.log" >&2
  exit 2
}
OWN_SUITE=()
if [ "$SUITE" != "$ROOT/conformance_assets" ]; then
  [ -f "$SUITE/manifest.json" ] || die "$SUITE has no manifest.json (write one with gltf-anim generate --from ASSET... --out DIR)"
  [ ${#CHECK[@]} -eq 0 ] || die "--check judges the committed matrix's verdicts; it does not apply to --suite"
  OWN_SUITE=(--suite "$SUITE")
  [ -n "$REPORT" ] || REPORT="$WORK/README.md"
fi
[ -n "$REPORT" ] || REPORT="$ROOT/docs/conformance/README.md"
case "$REPORT" in /*) ;; *) REPORT="$PWD/$REPORT" ;; esac
need_node_npm die
bash "$HERE/npm-ci.sh"
find_cli "$ROOT" "$BUILD_DIR" die

mkdir -p -- "$WORK"
# gltf-anim's option values are joined to their options (--output=FILE) so that
# a value beginning with "-" stays a value. compare prints the paths it was given: a link to the suite keeps them the
# same on every machine.
ln -sfn -- "$SUITE" "$WORK/conformance_assets"
mapfile -t engines < <(node -e "for (const e of require('$HERE/engines.json').engines) console.log(e.id + ' ' + e.adapter + ' ' + (e.command || ''))")
# C++ engines run an executable built with the project (engines.json "command"
# names the variable that holds its path).
: "${GLTF_ANIM_FILAMENT_ADAPTER:=$BUILD_DIR/tests/adapters/filament/filament_adapter}"
: "${GLTF_ANIM_ASSIMP_ADAPTER:=$BUILD_DIR/tests/adapters/assimp/assimp_adapter}"
: "${GLTF_ANIM_BLENDER_ADAPTER:=$HERE/blender/run.sh}"
: "${GLTF_ANIM_GODOT_ADAPTER:=$HERE/godot/run.sh}"
: "${GLTF_ANIM_VTK_ADAPTER:=$HERE/vtk/run.sh}"
for line in "${engines[@]}"; do
  read -r id adapter command <<< "$line"
  rm -rf -- "$WORK/$id-samples"
  if [ -n "$command" ]; then
    exe="${!command:-}"
    [ -n "$exe" ] && [ -x "$exe" ] || die "the $id adapter is not built ($command='$exe'): install its Debian package (adapters/README.md) and build the project"
    rc=0
    "$exe" "$SUITE" "$WORK/$id-samples" > "$WORK/$id.log" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || adapter_failed "$id" "$rc"
  else
    rc=0
    node "$HERE/$adapter/sample.mjs" --suite "$SUITE" --out "$WORK/$id-samples" > "$WORK/$id.log" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || adapter_failed "$id" "$rc"
  fi
  echo "run-all.sh: $(tail -n 1 "$WORK/$id.log")"
  for format in json html; do
    rc=0
    (cd "$WORK" && "$GLTF_ANIM_CLI" compare --golden=conformance_assets --actual="$id-samples" \
      --format="$format" --output="$id.$format") >/dev/null || rc=$?
    [ "$rc" -le 1 ] || die "gltf-anim compare for $id failed with exit code $rc"
  done
done
node "$HERE/matrix.mjs" --work "$WORK" --out "$REPORT" --html "$WORK/matrix.html" "${OWN_SUITE[@]}" "${CHECK[@]}"
