#!/usr/bin/env bash
# Builds the gltf-anim executable alone (the "cli" CMake preset: no tests,
# benchmarks or fuzz targets) and installs it into PREFIX/bin: what the GitHub
# Action (action.yml) runs when its cache has no build of these sources.
#   bash scripts/build-cli.sh PREFIX
# Installs the Debian/Ubuntu packages it needs (scripts/setup.sh, SETUP_PROFILE=cli).
# BUILD_DIR (default build-cli), JOBS and CMAKE_ARGS as for setup.sh; the action adds
# -DBoost_USE_STATIC_LIBS=ON so that its cached binary needs only the C and C++
# runtime on the runner that restores it.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: build-cli.sh PREFIX" >&2; exit 2; }
PREFIX="$1"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v apt-get >/dev/null 2>&1 || {
  echo "build-cli: building needs a Debian or Ubuntu machine (apt-get); elsewhere install gltf-anim and point the action's gltf-anim input at it" >&2
  exit 2; }
SETUP_PROFILE=cli . "$ROOT/scripts/setup.sh"
cmake --install "$BUILD_DIR" --component cli --prefix "$PREFIX" >/dev/null
"$PREFIX/bin/gltf-anim" --version
