#!/usr/bin/env bash
# CTest threejs_conformance_report: regenerates the three.js conformance report
# into WORK (argument) with run.sh and checks that
#   1. the report exists and its summary line "N passed, N failed" parses, and
#      the counts add up to the manifest's number of cases;
#   2. the committed docs/conformance/three.md is identical to it (the report is current);
#   3. docs/conformance/three-notes.md explains every difference: it names the id of
#      every failing case and of every passing case with a non-zero error.
# Needs GLTF_ANIM_CLI (set by CTest).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="${1:?usage: check-report.sh WORK_DIR}"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "${GLTF_ANIM_CLI:-}" ] || fail "GLTF_ANIM_CLI is not set"
. "$HERE/../common/shell.sh"
need_node_npm fail

mkdir -p -- "$WORK"
REPORT="$WORK/three.md"
rm -f "$REPORT"
bash "$HERE/run.sh" --work "$WORK" --report "$REPORT" || fail "run.sh failed"
[ -s "$REPORT" ] || fail "run.sh wrote no report at $REPORT"

summary_re='^## glTF animation conformance: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) with nothing to compare)?$'
line="$(grep -m1 -E "$summary_re" "$REPORT" || true)"
[ -n "$line" ] || fail "no summary line '## glTF animation conformance: N passed, N failed' in $REPORT"
passed="$(sed -E "s/$summary_re/\1/" <<<"$line")"
failed="$(sed -E "s/$summary_re/\2/" <<<"$line")"
nothing="$(sed -E "s/$summary_re/\4/" <<<"$line")"
nothing="${nothing:-0}"
cases="$(node -p "require('$ROOT/conformance_assets/manifest.json').assets.filter(e => e.samples).length")"
[ $((passed + failed + nothing)) -eq "$cases" ] \
  || fail "report counts $passed passed + $failed failed + $nothing with nothing compared, the manifest has $cases cases"
echo "three.js report: $passed of $cases cases pass, $failed fail"

if ! diff -u "$ROOT/docs/conformance/three.md" "$REPORT"; then
  fail "docs/conformance/three.md is not current (diff above): run 'bash adapters/threejs/run.sh', explain new differences in docs/conformance/three-notes.md, commit both"
fi

NOTES="$ROOT/docs/conformance/three-notes.md"
[ -f "$NOTES" ] || fail "$NOTES is missing"
missing=()
while read -r id; do
  grep -q -F "\`$id\`" "$NOTES" || missing+=("$id")
done < <(node -e "
  const r = require('$WORK/three.json');
  const nonzero = (s) => s && s.max > 0;
  for (const c of r.cases) if (!c.passed || nonzero(c.absolute) || nonzero(c.angle)) console.log(c.id);")
[ ${#missing[@]} -eq 0 ] || fail "docs/conformance/three-notes.md does not explain case(s) that fail or differ: ${missing[*]}"
echo "docs/conformance/three.md is current; three-notes.md explains every case that fails or differs"
