#!/usr/bin/env bash
# CTest conformance_matrix: regenerates the conformance matrix into WORK
# (argument) with run-all.sh --check (every adapter over the whole suite; fails
# when a cell that is not a pass has no verdict or is not named on its engine's
# notes page), checks that the committed docs/conformance/README.md is
# identical to it (the matrix is current), and that every link of the HTML
# matrix resolves (adapters/check-links.mjs: files and case anchors). Needs GLTF_ANIM_CLI (set by CTest).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="${1:?usage: check-matrix.sh WORK_DIR}"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "${GLTF_ANIM_CLI:-}" ] || fail "GLTF_ANIM_CLI is not set"
. "$HERE/common/shell.sh"
need_node_npm fail
mkdir -p -- "$WORK"
rm -f -- "$WORK/README.md"
bash "$HERE/run-all.sh" --work "$WORK" --report "$WORK/README.md" --check \
  || fail "run-all.sh failed or a cell is not explained (messages above): add the case to adapters/<engine>/verdicts.json and name it on the engine's notes page"
if ! diff -u "$ROOT/docs/conformance/README.md" "$WORK/README.md"; then
  fail "docs/conformance/README.md is not current (diff above): run 'bash adapters/run-all.sh', explain new cells, commit"
fi
node "$HERE/check-links.mjs" "$WORK/matrix.html" \
  || fail "a link of the HTML matrix (a case's anchor in an engine's compare report, a notes page) does not resolve (messages above)"
echo "docs/conformance/README.md is current; every cell that is not a pass is explained; every link of matrix.html resolves"
