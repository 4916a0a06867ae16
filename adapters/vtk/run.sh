#!/usr/bin/env bash
# The VTK adapter as one command (engines.json "command": GLTF_ANIM_VTK_ADAPTER):
#   bash adapters/vtk/run.sh SUITE_DIR OUT_DIR [CASE_ID...]
# Installs Debian's python3-vtk9 (VTK 9.1's Python bindings; scripts/packages.sh, group "vtk";
# root or sudo, only what is missing), then runs vtk_adapter.py with Debian's own Python
# (/usr/bin/python3: the bindings are in its dist-packages, not in another python3 on PATH).
# Nothing is rendered and no display is used. Standard output gets only the adapter's summary
# line, last (what run-all.sh shows). Exit codes: the adapter's (0 written, 1 a case failed with
# an error, 2 usage or I/O error).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: run.sh SUITE_DIR OUT_DIR [CASE_ID...]" >&2; exit 2; }
. "$ROOT/scripts/packages.sh"
# shellcheck disable=SC2046  # a list of package names
packages_install $(packages_of vtk)
exec /usr/bin/python3 "$HERE/vtk_adapter.py" "$@"
