#!/usr/bin/env bash
# CTest gltf_validator_folder_recipe: the folder recipe of docs/CI.md ("Beside
# glTF-Validator") run as written, with Khronos glTF-Validator's npm build as locked
# here, on a folder whose name and files hold spaces (the npm build percent-encodes
# them in its reports' uri): glTF-Validator over the folder, then gltf-anim validate
# over the same folder with --merge-gltf-validator. The invalid asset must carry
# messages of both tools, the valid one none.
#   check-recipe.sh GLTF_ANIM WORK_DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: check-recipe.sh GLTF_ANIM WORK_DIR" >&2; exit 2; }
CLI="$1" WORK="$2"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
fail() { echo "check-recipe: FAIL: $*" >&2; exit 1; }
case "$WORK" in ""|/|.|..) fail "WORK_DIR '$WORK' is not a scratch folder";; esac
[ -d "$HERE/node_modules/gltf-validator" ] || fail "glTF-Validator is not installed: run tools/gltf-validator/npm-ci.sh"
rm -rf -- "$WORK"
mkdir -p -- "$WORK/my assets/sub folder"
cp -- "$ROOT/conformance_assets/invalid/channel/duplicate_targets.gltf" "$WORK/my assets/dup targets.gltf"
cp -- "$ROOT/conformance_assets/valid/rotation_linear.gltf" "$WORK/my assets/sub folder/rotation linear.gltf"
cd "$WORK"
# The recipe (docs/CI.md).
node "$HERE/validate.mjs" --output gltf-validator.json -- "my assets"
status=0
"$CLI" validate --format json --output gltf-anim.json --merge-gltf-validator gltf-validator.json -- "my assets" \
  || status=$?
[ "$status" -eq 1 ] || fail "gltf-anim validate --merge-gltf-validator exited $status, not 1 (findings)"
grep -q '%20' gltf-validator.json || fail "glTF-Validator's reports hold no percent-encoded uri: the check would prove nothing"
node - gltf-anim.json <<'JS'
const fs = require('fs');
const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const byUri = Object.fromEntries(doc.reports.map((r) => [r.uri, r]));
const dup = byUri['my assets/dup targets.gltf'];
const ok = byUri['my assets/sub folder/rotation linear.gltf'];
if (!dup || !ok) throw new Error(`reports for ${Object.keys(byUri)}`);
const tools = new Set(dup.issues.messages.flatMap((m) => m.foundBy || []));
if (!tools.has('glTF-Validator') || !tools.has('gltf-anim')) {
  throw new Error(`the invalid asset's messages were found by ${[...tools]}, not by both tools`);
}
if (ok.issues.messages.some((m) => m.severity <= 1)) throw new Error('the valid asset has errors or warnings');
JS
echo "check-recipe: glTF-Validator's percent-encoded reports merged into gltf-anim's for a folder with spaces"
