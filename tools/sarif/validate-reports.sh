#!/usr/bin/env bash
# Writes gltf-anim's SARIF for every kind of asset we ship (the valid suite,
# the invalid assets, the hostile corpus with its GLB container and JSON
# syntax errors), from another folder than the repository with --sarif-base,
# and checks each report with the SARIF Multitool (check.sh).
#   validate-reports.sh GLTF_ANIM_CLI WORK_DIR
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cli="$1"
work="$2"
rm -rf "$work" && mkdir -p "$work"
for set in conformance_assets/valid conformance_assets/invalid tests/hostile/cases; do
  out="$work/$(echo "$set" | tr / _).sarif"
  # Exit 1 (findings) is expected for the invalid sets; 2 is a failure.
  status=0
  (cd "$work" && "$cli" validate --format sarif --sarif-base "$ROOT" --output "$out" "$ROOT/$set" 2>/dev/null) \
    || status=$?
  [ "$status" -le 1 ] || { echo "validate-reports.sh: gltf-anim validate $set exited $status" >&2; exit 1; }
  grep -q '"uriBaseId": "%SRCROOT%"' "$out" || { echo "validate-reports.sh: $set: no path relative to %SRCROOT%" >&2; exit 1; }
  echo "== $set" >&2
  bash "$HERE/check.sh" "$out"
done
