#!/usr/bin/env bash
# The Blender adapter as one command (engines.json "command": GLTF_ANIM_BLENDER_ADAPTER):
#   bash adapters/blender/run.sh SUITE_DIR OUT_DIR [CASE_ID...]
# Installs Debian's Blender and the numpy its glTF importer needs (scripts/packages.sh, group
# "blender"; root or sudo, only what is missing), then runs blender_adapter.py inside one
# headless Blender for the whole suite: factory settings (no user preferences or add-ons), no
# audio, one thread. Blender's output (and the adapter's messages) is passed on to standard
# error once Blender has quit; standard output gets only the adapter's summary line, last (what
# run-all.sh shows). Exit codes: the adapter's (0 written, 1 a case failed with an error,
# 2 usage or I/O error; 2 also when Blender stops on a Python exception).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: run.sh SUITE_DIR OUT_DIR [CASE_ID...]" >&2; exit 2; }
. "$ROOT/scripts/packages.sh"
# shellcheck disable=SC2046  # a list of package names
packages_install $(packages_of blender)
log="$(mktemp)"
trap 'rm -f -- "$log"' EXIT
rc=0
# A relative folder stays relative to the caller's directory (Blender does not change it).
blender --background --factory-startup -noaudio --threads 1 --python-exit-code 2 \
  --python "$HERE/blender_adapter.py" -- "$@" > "$log" 2>&1 || rc=$?
summary='^blender_adapter\.py: [0-9]* case(s) written to '
grep -v -- "$summary" "$log" >&2 || true
grep -- "$summary" "$log" || true
exit "$rc"
