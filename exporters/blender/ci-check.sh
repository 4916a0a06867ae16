#!/usr/bin/env bash
# Does a Blender scene's glTF export play like the scene? The add-on CI recipe
# (docs/conformance/blender-export-ci.md) as one command:
#
#   bash exporters/blender/ci-check.sh SCENE.blend OUT_DIR [--option NAME=VALUE]...
#
# Opens SCENE.blend in a headless Blender (factory settings: no user add-ons or preferences),
# exports it with bpy.ops.export_scene.gltf (GLB, the add-on's defaults but for each --option),
# evaluates the scene in Blender at the times `gltf-anim generate --from` chose for the export,
# and judges Blender's playback against the export's with `gltf-anim compare`
# (exporters/blender/ci_check.py). The compare report (text) is on standard output, with a line
# naming the object of each node; OUT_DIR holds the export, the goldens, Blender's samples and
# the reports (report.md, report.json).
# Environment: GLTF_ANIM_CLI (default: gltf-anim on PATH), BLENDER (default: blender on PATH).
# Exit codes: 0 the export plays like the scene, 1 it does not (compare's), 2 usage or a step
# failed (Blender's log then on standard error).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -ge 2 ] || { sed -n 2,18p "$0" >&2; exit 2; }
scene="$1" out="$2"
shift 2
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --option) [ $# -ge 2 ] || { echo "ci-check.sh: --option needs NAME=VALUE" >&2; exit 2; }
              args+=(--option "$2"); shift 2 ;;
    --option=*) args+=(--option "${1#--option=}"); shift ;;
    *) echo "ci-check.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -f "$scene" ] || { echo "ci-check.sh: $scene is not a file" >&2; exit 2; }
cli="${GLTF_ANIM_CLI:-$(command -v gltf-anim || true)}"
[ -n "$cli" ] && [ -x "$cli" ] || { echo "ci-check.sh: gltf-anim not found (set GLTF_ANIM_CLI)" >&2; exit 2; }
blender="${BLENDER:-blender}"
command -v "$blender" >/dev/null || { echo "ci-check.sh: $blender not found (Debian: apt-get install blender python3-numpy; or set BLENDER)" >&2; exit 2; }
mkdir -p -- "$out"
log="$out/blender.log"
rc=0
"$blender" --background "$scene" --factory-startup -noaudio --threads 1 --python-exit-code 2 \
  --python "$HERE/ci_check.py" -- --cli "$cli" --out "$out" "${args[@]}" > "$log" 2>&1 || rc=$?
# The recipe's own lines and compare's report; Blender's chatter stays in the log.
sed -n '/^ci_check\.py: /p; /^gltf-anim compare$/,$p' "$log" | grep -v ' | INFO: \| | ERROR: Draco\|^Blender quit$' || true
if [ "$rc" -ge 2 ]; then
  echo "ci-check.sh: a step failed (exit $rc); Blender's last lines ($log):" >&2
  tail -n 20 "$log" >&2
fi
exit "$rc"
