# Shell helpers of the adapter and exporter scripts (run-all.sh, check-matrix.sh,
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

# run_all_options NAME HELP_LINES ARG...: the options of adapters/run-all.sh and
# exporters/run-all.sh (--report FILE, --work DIR, --check, -h; --suite DIR when
# the caller has set SUITE) into REPORT, WORK, SUITE (made absolute; their
# defaults set before the call) and CHECK (an array, (--check) or empty). -h
# prints lines HELP_LINES ("2,22") of the calling script; an unknown option or a
# missing value is an error (exit 2) naming NAME.
run_all_options() {
  local name="$1" help="$2"
  shift 2
  CHECK=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --report|--work|--suite)
        [ $# -ge 2 ] || { echo "$name: $1 needs a value" >&2; exit 2; }
        case "$1" in
          --report) REPORT="$2" ;;
          --work) WORK="$2" ;;
          *) [ -n "${SUITE+x}" ] || { echo "$name: unknown argument $1" >&2; exit 2; }; SUITE="$2" ;;
        esac
        shift 2 ;;
      --check) CHECK=(--check); shift ;;
      -h|--help) sed -n "${help}p" "$0"; exit 0 ;;
      *) echo "$name: unknown argument $1" >&2; exit 2 ;;
    esac
  done
  if [ -n "$REPORT" ]; then case "$REPORT" in /*) ;; *) REPORT="$PWD/$REPORT" ;; esac; fi
  case "$WORK" in /*) ;; *) WORK="$PWD/$WORK" ;; esac
  if [ -n "${SUITE:-}" ]; then case "$SUITE" in /*) ;; *) SUITE="$PWD/$SUITE" ;; esac; fi
}
