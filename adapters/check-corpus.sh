#!/usr/bin/env bash
# A user's own assets through every engine, as README ("Your own asset across
# engines") tells a user to do it, on the real corpus: `gltf-anim generate
# --from CORPUS` builds a suite of it, `adapters/run-all.sh --suite` plays it in
# every engine and writes its matrix. Fails when generate cannot write the suite
# (exit 2), an engine's adapter fails, compare errs, or the matrix lacks a row
# for an asset of the suite. Which engine passes which asset is the report's
# answer, not this check's.
#   bash adapters/check-corpus.sh CORPUS WORK
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CORPUS=$1 WORK=$2
CLI=${GLTF_ANIM_CLI:?GLTF_ANIM_CLI names the gltf-anim executable}
rm -rf -- "$WORK"
mkdir -p -- "$WORK"
rc=0
# Exit 1: some files skipped (no animation, or not sampleable), each with its reason.
"$CLI" generate --from "$CORPUS" --out "$WORK/suite" > "$WORK/generate.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
  echo "FAIL: gltf-anim generate --from $CORPUS exited $rc"; tail -n 20 "$WORK/generate.log"; exit 1
fi
ids=$(node -e 'for (const a of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).assets) console.log(a.id)' "$WORK/suite/manifest.json")
count=$(grep -c . <<<"$ids" || true)
[ "$count" -gt 0 ] || { echo "FAIL: the suite built from $CORPUS has no asset"; cat "$WORK/generate.log"; exit 1; }
if ! bash "$HERE/run-all.sh" --suite "$WORK/suite" --work "$WORK/engines" --report "$WORK/README.md" > "$WORK/run-all.log" 2>&1; then
  echo "FAIL: adapters/run-all.sh --suite (an adapter or compare failed)"; tail -n 30 "$WORK/run-all.log"; exit 1
fi
missing=0
while IFS= read -r id; do
  grep -qF -- "$id" "$WORK/README.md" || { echo "FAIL: no row for $id in the matrix"; missing=1; }
done <<<"$ids"
[ "$missing" -eq 0 ] || exit 1
echo "corpus through the engines: $count assets of $CORPUS, matrix $WORK/README.md"
