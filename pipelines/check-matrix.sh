#!/usr/bin/env bash
# CTest pipeline_matrix: regenerates the pipeline matrix into WORK (argument)
# with run-all.sh --check (every pipeline over the whole suite; fails when a
# failing cell is explained neither by measured facts nor by a verdict on the
# notes page) and checks that the committed docs/conformance/pipelines.md is
# identical to it. Needs GLTF_ANIM_CLI (set by CTest).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="${1:?usage: check-matrix.sh WORK_DIR}"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "${GLTF_ANIM_CLI:-}" ] || fail "GLTF_ANIM_CLI is not set"
mkdir -p "$WORK"
rm -f "$WORK/pipelines.md"
# The reason of a failure leads the output (a CI log may show only a test's first lines).
if ! bash "$HERE/run-all.sh" --work "$WORK" --report "$WORK/pipelines.md" --check > "$WORK/run-all.out" 2>&1; then
  echo "FAIL: run-all.sh failed or a cell is not explained: add a verdict to pipelines/verdicts.json and explain it on docs/conformance/pipelines-notes.md. What it said:" >&2
  tail -n 80 "$WORK/run-all.out" >&2
  exit 1
fi
cat "$WORK/run-all.out"
if ! diff -u "$ROOT/docs/conformance/pipelines.md" "$WORK/pipelines.md" > "$WORK/pipelines.diff"; then
  echo "FAIL: docs/conformance/pipelines.md is not current: run 'bash pipelines/run-all.sh', explain new cells, commit. The difference:" >&2
  cat "$WORK/pipelines.diff" >&2
  exit 1
fi
echo "docs/conformance/pipelines.md is current; every failing cell is explained"
