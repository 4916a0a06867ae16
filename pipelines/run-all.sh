#!/usr/bin/env bash
# Runs every pipeline of pipelines/lib/pipelines.mjs over the whole conformance
# suite (pipelines/run.mjs: one Node process per tool, gltfpack and
# glTF-Transform side by side) and publishes the pipeline matrix
# docs/conformance/pipelines.md (pipelines/matrix.mjs).
#
#   bash pipelines/run-all.sh [--report FILE] [--work DIR] [--check]
#
#   --report FILE  where to write the matrix (default: docs/conformance/pipelines.md)
#   --work DIR     scratch folder: written files, samples, facts, compare reports
#                  (default: $BUILD_DIR/pipelines)
#   --check        fail when a cell needs an explanation it lacks (see matrix.mjs)
# Environment: GLTF_ANIM_CLI (default $BUILD_DIR/cli/gltf-anim, built through
# scripts/setup.sh when missing), BUILD_DIR (default build).
# Needs Node >= 20 and npm (the npm registry once, for npm ci).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$PWD/$BUILD_DIR" ;; esac
REPORT="$ROOT/docs/conformance/pipelines.md"
WORK="$BUILD_DIR/pipelines"
. "$ROOT/adapters/common/shell.sh"
run_all_options pipelines/run-all.sh 2,15 "$@"
die() { echo "pipelines/run-all.sh: $*" >&2; exit 2; }
need_node_npm die
# glTF-Transform's CLI 4.5.1 needs Node >= 20: the system's, or npm's build where it is older.
PATH="$(bash "$ROOT/scripts/node20.sh")":$PATH
bash "$HERE/npm-ci.sh"
find_cli "$ROOT" "$BUILD_DIR" die
mkdir -p "$WORK"
# One process per tool, the two side by side (two cores); each waits for its
# own gltf-anim runs, so no more than two processes work at once.
pids=()
for tool in gltfpack gltf-transform; do
  node "$HERE/run.mjs" --tool "$tool" --cli "$GLTF_ANIM_CLI" --suite "$ROOT/conformance_assets" --work "$WORK" > "$WORK/$tool.log" 2>&1 &
  pids+=($!)
done
status=0
tools=(gltfpack gltf-transform)
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "pipelines/run-all.sh: run.mjs --tool ${tools[$i]} failed (log: $WORK/${tools[$i]}.log); its last lines:" >&2
    tail -n 40 "$WORK/${tools[$i]}.log" >&2
    status=2
  fi
done
[ "$status" -eq 0 ] || exit "$status"
grep -h '^run.mjs:' "$WORK/gltfpack.log" "$WORK/gltf-transform.log" || true
node "$HERE/matrix.mjs" --work "$WORK" --suite "$ROOT/conformance_assets" --out "$REPORT" "${CHECK[@]}"
