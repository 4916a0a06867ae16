# Sourced by the merge benchmarks: `parse_builds DEFAULT_WORK_DIR "$@"` reads
# `BUILD_DIR... [-- WORK_DIR]` into BUILDS (absolute paths, each holding cli/gltf-anim)
# and D (the work folder, created), or prints the usage and exits 2.
parse_builds() {
  D=$1; shift
  BUILDS=()
  while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then D="$2"; break; fi
    BUILDS+=("$(cd "$1" && pwd)"); shift
  done
  [ ${#BUILDS[@]} -gt 0 ] || { echo "usage: $0 BUILD_DIR... [-- WORK_DIR]" >&2; exit 2; }
  mkdir -p "$D"
}
