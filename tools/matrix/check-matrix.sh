#!/usr/bin/env bash
# The CTests exporter_matrix and pipeline_matrix (through exporters/check-matrix.sh
# and pipelines/check-matrix.sh): regenerates the matrix of NAME (exporters or
# pipelines: the folder and its page docs/conformance/NAME.md) into WORK with
# NAME/run-all.sh --check (every column over the whole suite; fails when a cell
# is explained neither by measured facts nor by a verdict on the notes page)
# and checks that the committed page is identical to it. Needs GLTF_ANIM_CLI
# (set by CTest).
#
#   bash tools/matrix/check-matrix.sh NAME WORK
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NAME="${1:?usage: check-matrix.sh exporters|pipelines WORK_DIR}"
WORK="${2:?usage: check-matrix.sh exporters|pipelines WORK_DIR}"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "${GLTF_ANIM_CLI:-}" ] || fail "GLTF_ANIM_CLI is not set"
mkdir -p "$WORK"
rm -f "$WORK/$NAME.md"
# The reason of a failure leads the output (a CI log may show only a test's first lines).
if ! bash "$ROOT/$NAME/run-all.sh" --work "$WORK" --report "$WORK/$NAME.md" --check > "$WORK/run-all.out" 2>&1; then
  echo "FAIL: run-all.sh failed or a cell is not explained: add a verdict to $NAME/verdicts.json and explain it on docs/conformance/$NAME-notes.md. What it said:" >&2
  tail -n 80 "$WORK/run-all.out" >&2
  exit 1
fi
cat "$WORK/run-all.out"
if ! diff -u "$ROOT/docs/conformance/$NAME.md" "$WORK/$NAME.md" > "$WORK/$NAME.diff"; then
  echo "FAIL: docs/conformance/$NAME.md is not current: run 'bash $NAME/run-all.sh', explain new cells, commit. The difference:" >&2
  cat "$WORK/$NAME.diff" >&2
  exit 1
fi
echo "docs/conformance/$NAME.md is current; every failing cell is explained"
