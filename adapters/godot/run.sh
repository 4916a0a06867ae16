#!/usr/bin/env bash
# The Godot adapter as one command (engines.json "command": GLTF_ANIM_GODOT_ADAPTER):
#   bash adapters/godot/run.sh SUITE_DIR OUT_DIR [CASE_ID...]
# Installs Debian's godot3-server (Godot 3.2.3 headless; scripts/packages.sh, group "godot";
# root or sudo, only what is missing), then runs godot_adapter.py: one headless editor
# import of the cases' assets into a scratch project, one GDScript run sampling them
# (sample.gd). Godot's output (and the adapter's messages) go to standard error; standard
# output gets only the adapter's summary line, last (what run-all.sh shows). Exit codes: the
# adapter's (0 written, 1 a case failed with an error, 2 usage, I/O or Godot error).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: run.sh SUITE_DIR OUT_DIR [CASE_ID...]" >&2; exit 2; }
. "$ROOT/scripts/packages.sh"
# shellcheck disable=SC2046  # a list of package names
packages_install $(packages_of godot)
exec python3 "$HERE/godot_adapter.py" "$@"
