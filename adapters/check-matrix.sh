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
# The reason of a failure leads the output (a CI log may show only a test's first
# lines); the engines' routine progress lines follow it.
if ! bash "$HERE/run-all.sh" --work "$WORK" --report "$WORK/README.md" --check > "$WORK/run-all.out" 2>&1; then
  echo "FAIL: run-all.sh failed or a cell is not explained: add the case to adapters/<engine>/verdicts.json and name it on the engine's notes page. What it said, progress lines last:" >&2
  grep -v -E '^run-all\.sh: .*, 0 adapter error\(s\)$' "$WORK/run-all.out" | tail -n 80 >&2 || true
  grep -E '^run-all\.sh: .*, 0 adapter error\(s\)$' "$WORK/run-all.out" >&2 || true
  exit 1
fi
cat "$WORK/run-all.out"
if ! diff -u "$ROOT/docs/conformance/README.md" "$WORK/README.md" > "$WORK/README.diff"; then
  echo "FAIL: docs/conformance/README.md is not current: run 'bash adapters/run-all.sh', explain new cells, commit. The difference:" >&2
  cat "$WORK/README.diff" >&2
  exit 1
fi
node "$HERE/check-links.mjs" "$WORK/matrix.html" \
  || fail "a link of the HTML matrix (a case's anchor in an engine's compare report, a notes page) does not resolve (messages above)"
echo "docs/conformance/README.md is current; every cell that is not a pass is explained; every link of matrix.html resolves"
