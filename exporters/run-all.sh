#!/usr/bin/env bash
# Runs every exporter of exporters/lib/exporters.mjs over the whole conformance
# suite (exporters/roundtrip.mjs) and publishes the exporter matrix
# docs/conformance/exporters.md (exporters/matrix.mjs).
#
#   bash exporters/run-all.sh [--report FILE] [--work DIR] [--check]
#
#   --report FILE  where to write the matrix (default: docs/conformance/exporters.md)
#   --work DIR     scratch folder: written files, samples, facts, compare reports
#                  (default: $BUILD_DIR/exporters)
#   --check        fail when a failing cell is not explained (see matrix.mjs)
# Environment: GLTF_ANIM_CLI (default $BUILD_DIR/cli/gltf-anim, built through
# scripts/setup.sh when missing), BUILD_DIR (default build).
# Needs node/npm (the npm registry once, for npm ci), Debian's assimp-utils and
# Debian's blender and python3-numpy (installed here when missing, as root or through sudo).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$PWD/$BUILD_DIR" ;; esac
REPORT="$ROOT/docs/conformance/exporters.md"
WORK="$BUILD_DIR/exporters"
. "$ROOT/adapters/common/shell.sh"
run_all_options exporters/run-all.sh 2,15 "$@"
die() { echo "exporters/run-all.sh: $*" >&2; exit 2; }
need_node_npm die
if ! command -v assimp >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "exporters/run-all.sh: installing assimp-utils (Debian)" >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends assimp-utils >&2 \
    || { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends assimp-utils >&2; } \
    || die "assimp-utils could not be installed"
fi
# Blender's column: Debian's blender and the numpy its glTF importer needs (only what is missing).
. "$ROOT/scripts/packages.sh"
# shellcheck disable=SC2046  # a list of package names
packages_install $(packages_of blender)
bash "$HERE/npm-ci.sh"
find_cli "$ROOT" "$BUILD_DIR" die
mkdir -p "$WORK"
node "$HERE/roundtrip.mjs" --cli "$GLTF_ANIM_CLI" --suite "$ROOT/conformance_assets" --work "$WORK" > "$WORK/roundtrip.log" 2>&1 \
  || { echo "exporters/run-all.sh: roundtrip.mjs failed (log: $WORK/roundtrip.log); its last lines:" >&2; tail -n 40 "$WORK/roundtrip.log" >&2; exit 2; }
grep '^roundtrip.mjs:' "$WORK/roundtrip.log" || true
node "$HERE/matrix.mjs" --work "$WORK" --suite "$ROOT/conformance_assets" --out "$REPORT" "${CHECK[@]}"
