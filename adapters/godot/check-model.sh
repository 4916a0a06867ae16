#!/usr/bin/env bash
# CTest adapter_godot_model: Godot 3.2.3 over the whole suite with the import's animation
# optimizer off (GLTF_ANIM_GODOT_IMPORT), then bake_model.py: the model of the 15 fps bake and
# of the playback that docs/conformance/godot-notes.md explains must reproduce every node
# transform Godot played (2e-5, relative; 2e-5 rad).
#   check-model.sh SUITE_DIR WORK_DIR
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SUITE="${1:?usage: check-model.sh SUITE_DIR WORK_DIR}" WORK="${2:?usage: check-model.sh SUITE_DIR WORK_DIR}"
rm -rf -- "$WORK"
mkdir -p -- "$WORK"
GLTF_ANIM_GODOT_IMPORT="animation/optimizer/enabled=false" bash "$HERE/run.sh" "$SUITE" "$WORK/samples" 2> "$WORK/godot.log" \
  || { tail -n 40 "$WORK/godot.log" >&2; exit 1; }
python3 "$HERE/bake_model.py" "$SUITE" "$WORK/samples"
