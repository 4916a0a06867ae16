#!/usr/bin/env bash
# CTest exporter_matrix: regenerates the exporter matrix into WORK (argument)
# with run-all.sh --check (every exporter over the whole suite; fails when a
# failing cell is explained neither by measured facts nor by a verdict on the
# notes page) and checks that the committed docs/conformance/exporters.md is
# identical to it. Needs GLTF_ANIM_CLI (set by CTest).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="${1:?usage: check-matrix.sh WORK_DIR}"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "${GLTF_ANIM_CLI:-}" ] || fail "GLTF_ANIM_CLI is not set"
mkdir -p "$WORK"
rm -f "$WORK/exporters.md"
bash "$HERE/run-all.sh" --work "$WORK" --report "$WORK/exporters.md" --check \
  || fail "run-all.sh failed or a cell is not explained (messages above): add a verdict to exporters/verdicts.json and explain it on docs/conformance/exporters-notes.md"
if ! diff -u "$ROOT/docs/conformance/exporters.md" "$WORK/exporters.md"; then
  fail "docs/conformance/exporters.md is not current (diff above): run 'bash exporters/run-all.sh', explain new cells, commit"
fi
echo "docs/conformance/exporters.md is current; every failing cell is explained"
