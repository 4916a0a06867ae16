#!/usr/bin/env bash
# Quick start, command 1: set up, build, and run the main job — `gltf-anim validate` —
# on a shipped example: a CUBICSLERP (EXT_animation_sqlerp) rotation with its LINEAR
# fallback, valid, which glTF-Validator (npm 2.0.0-dev.3.10) warns about as it does
# not know the extension (VALUE_NOT_IN_LIST on CUBICSLERP) and we accept. Then
# its golden samples, the first lines of what `gltf-anim sample` gives engine authors.
# Exit code: validate's (0 = no errors).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Only the executable: the tests and benchmarks (scripts/run-tests.sh) take many
# times longer to build and the example needs none of them.
SETUP_TARGETS=gltf-anim
. "$ROOT/scripts/setup.sh"
CLI="$BUILD_DIR/cli/gltf-anim"
ASSET="conformance_assets/valid/sqlerp_with_fallback.gltf"
cd "$ROOT"
echo "\$ gltf-anim validate $ASSET"
status=0
"$CLI" validate "$ASSET" || status=$?
echo
echo "\$ gltf-anim sample $ASSET --format csv | head -n 6"
samples="$BUILD_DIR/example.samples.csv"
"$CLI" sample "$ASSET" --format csv --output "$samples"
head -n 6 "$samples"
exit "$status"
