# Shell helpers of the adapter scripts (run-all.sh, check-matrix.sh,
# threejs/run.sh, threejs/check-report.sh); sourced, not run.

# need_node_npm FAIL_FUNCTION: calls FAIL_FUNCTION with a message when node or npm is missing.
need_node_npm() {
  command -v node >/dev/null || "$1" "node is not installed: the adapters need Node.js >= 18 and npm (Debian: apt-get install nodejs npm)"
  command -v npm >/dev/null || "$1" "npm is not installed (Debian: apt-get install npm)"
}

# find_cli ROOT BUILD_DIR DIE_FUNCTION: sets GLTF_ANIM_CLI to $BUILD_DIR/cli/gltf-anim
# when it is unset, building it first with scripts/setup.sh if it is missing.
find_cli() {
  if [ -z "${GLTF_ANIM_CLI:-}" ]; then
    GLTF_ANIM_CLI="$2/cli/gltf-anim"
    if [ ! -x "$GLTF_ANIM_CLI" ]; then
      echo "building the CLI in $2 (scripts/setup.sh)" >&2
      BUILD_DIR="$2" bash "$1/scripts/setup.sh"
    fi
  fi
  [ -x "$GLTF_ANIM_CLI" ] || "$3" "no gltf-anim executable at $GLTF_ANIM_CLI"
}
