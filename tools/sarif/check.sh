#!/usr/bin/env bash
# Validates a SARIF file with Microsoft's SARIF Multitool (`validate`), with
# its SARIF rules and its GitHub profile (the rules GitHub code scanning
# applies on upload: --rule-kind "Gh;Sarif"), and fails on any error or
# warning. Notes (advice such as "use message arguments") are listed, not
# failed: docs/CI.md says which remain and why.
#   check.sh FILE.sarif                 exit 0: no error, no warning
#   check.sh --expect RULE FILE.sarif   exit 0 only if RULE is reported (a
#                                       check that the check can fail)
# Exit 2 when the Multitool is not installed (run npm-ci.sh) or does not run.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
expect=""
if [ "${1:-}" = "--expect" ]; then expect="$2"; shift 2; fi
input="$1"
tool="$HERE/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
[ -x "$tool" ] || { echo "check.sh: the SARIF Multitool is not installed: run tools/sarif/npm-ci.sh" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
log="$work/multitool.sarif"
# The Multitool exits 0 whatever it finds: its own SARIF log is read below.
"$tool" validate --rule-kind "Gh;Sarif" --level "Error;Warning;Note" -o "$log" "$input" >"$work/out.txt" 2>&1 \
  && [ -s "$log" ] || { cat "$work/out.txt" >&2; echo "check.sh: the SARIF Multitool failed to run" >&2; exit 2; }
node - "$log" "$expect" <<'JS'
const fs = require('fs');
const [log, expect] = process.argv.slice(2);
const sarif = JSON.parse(fs.readFileSync(log, 'utf8'));
const counts = {};
let failing = 0, expected = 0, ran = true;
for (const run of sarif.runs) {
  for (const inv of run.invocations || []) ran = ran && inv.executionSuccessful !== false;
  for (const r of run.results || []) {
    const key = `${r.level} ${r.ruleId}`;
    counts[key] = (counts[key] || 0) + 1;
    if (r.ruleId === expect) ++expected;
    if (r.level === 'error' || r.level === 'warning') {
      ++failing;
      if (failing <= 20 && !expect) console.error(`${r.level} ${r.ruleId}: ${JSON.stringify(r.message.arguments || r.message.text)}`);
    }
  }
}
console.log(JSON.stringify(counts, null, 1));
if (!ran) { console.error('check.sh: the Multitool reports a failed run'); process.exit(2); }
if (expect) process.exit(expected > 0 ? 0 : 1);
process.exit(failing === 0 ? 0 : 1);
JS
