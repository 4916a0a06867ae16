#!/usr/bin/env bash
# Quick start, command 1: set up, build, and run the main job on a shipped example.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/setup.sh"
CLI="$BUILD_DIR/cli/gltf-anim"
echo "\$ gltf-anim squad-report"
"$CLI" squad-report
