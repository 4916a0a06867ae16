#!/usr/bin/env bash
# Writes gltf-anim's SARIF for every kind of asset we ship (the valid suite,
# the invalid assets, the hostile corpus with its GLB container and JSON
# syntax errors), from another folder than the repository with --sarif-base,
# and checks the report with the SARIF Multitool (check.sh).
#   validate-reports.sh GLTF_ANIM_CLI WORK_DIR
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cli="$1"
work="$2"
rm -rf "$work" && mkdir -p "$work"
# One report over all of them: each Multitool run costs about 20 s of start-up.
out="$work/all.sarif"
sets=(conformance_assets/valid conformance_assets/invalid tests/hostile/cases)
# Exit 1 (findings) is expected for the invalid sets; 2 is a failure.
status=0
(cd "$work" && "$cli" validate --format sarif --sarif-base "$ROOT" --output "$out" "${sets[@]/#/$ROOT/}" 2>/dev/null) \
  || status=$?
[ "$status" -le 1 ] || { echo "validate-reports.sh: gltf-anim validate exited $status" >&2; exit 1; }
grep -q '"uriBaseId": "%SRCROOT%"' "$out" || { echo "validate-reports.sh: no path relative to %SRCROOT%" >&2; exit 1; }
grep -q '"byteOffset"' "$out" || { echo "validate-reports.sh: no GLB region to check" >&2; exit 1; }
bash "$HERE/check.sh" "$out"
