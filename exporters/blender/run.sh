#!/usr/bin/env bash
# Blender's glTF exporter against Blender's own playback: regenerates
# docs/conformance/blender-export.md (one command).
#
#   bash exporters/blender/run.sh [--work DIR] [--report FILE] [--check]
#
#   --work DIR     scratch folder: the exports, Blender's playback (default: $BUILD_DIR/blender-export)
#   --report FILE  where to write the table (default: docs/conformance/blender-export.md;
#                  with --check: WORK/blender-export.md)
#   --check        regenerate into WORK and fail when the committed table differs (CTest
#                  blender_export_fidelity)
# Environment: GLTF_ANIM_CLI (default $BUILD_DIR/cli/gltf-anim, built through scripts/setup.sh
# when missing), BUILD_DIR (default build).
# Steps: Debian's blender and python3-numpy installed when missing (scripts/packages.sh, group
# "blender"); one headless Blender (factory settings) authors the scene, exports each object three
# ways and records its own playback (export_scenes.py); report.py plays each export with
# `gltf-anim sample` and writes the table. Exit codes: 0 written (or current), 1 --check found a
# difference, 2 a tool failed.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$PWD/$BUILD_DIR" ;; esac
WORK="$BUILD_DIR/blender-export"
REPORT=""
CHECK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --work|--report)
      [ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
      if [ "$1" = --work ]; then WORK="$2"; else REPORT="$2"; fi
      shift 2 ;;
    --check) CHECK=1; shift ;;
    -h|--help) sed -n 2,19p "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$WORK" in /*) ;; *) WORK="$PWD/$WORK" ;; esac
COMMITTED="$ROOT/docs/conformance/blender-export.md"
if [ -z "$REPORT" ]; then
  if [ "$CHECK" = 1 ]; then REPORT="$WORK/blender-export.md"; else REPORT="$COMMITTED"; fi
fi
die() { echo "exporters/blender/run.sh: $*" >&2; exit 2; }
. "$ROOT/scripts/packages.sh"
# shellcheck disable=SC2046  # a list of package names
packages_install $(packages_of blender)
. "$ROOT/adapters/common/shell.sh"
find_cli "$ROOT" "$BUILD_DIR" die
rm -rf -- "$WORK/exports"
mkdir -p -- "$WORK/exports"
blender --background --factory-startup -noaudio --threads 1 --python-exit-code 2 \
  --python "$HERE/export_scenes.py" -- "$WORK/exports" > "$WORK/blender.log" 2>&1 \
  || { tail -n 40 "$WORK/blender.log" >&2; die "Blender failed (log: $WORK/blender.log)"; }
grep '^export_scenes.py:' "$WORK/blender.log" || true
python3 "$HERE/report.py" --work "$WORK/exports" --cli "$GLTF_ANIM_CLI" --out "$REPORT" \
  || die "report.py failed"
if [ "$CHECK" = 1 ]; then
  if ! diff -u "$COMMITTED" "$REPORT"; then
    echo "FAIL: docs/conformance/blender-export.md is not current: run 'bash exporters/blender/run.sh', explain what changed in docs/conformance/blender-export-notes.md, commit" >&2
    exit 1
  fi
  echo "docs/conformance/blender-export.md is current"
fi
