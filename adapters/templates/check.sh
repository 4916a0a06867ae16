#!/usr/bin/env bash
# CTest adapter_template_cpp and adapter_template_python: an adapter template over a
# handful of cases, each case judged alone by `gltf-anim compare` (must pass); then one
# value changed must fail (exit 1), so the check can fail.
#   check.sh GLTF_ANIM SUITE_DIR WORK_DIR CASE,CASE,... -- ADAPTER [ARG...]
# The adapter runs as `ADAPTER [ARG...] SUITE_DIR OUT_DIR CASE...`; the first case's first
# sample is the one changed. Needs python3 (the change is made on the parsed JSON, so it
# does not depend on how an adapter formats its file).
set -euo pipefail
CLI="$1" SUITE="$2" WORK="$3"
IFS=, read -r -a CASES <<< "$4"
[ "$5" = "--" ] || { echo "check.sh: usage: check.sh GLTF_ANIM SUITE_DIR WORK_DIR CASES -- ADAPTER [ARG...]" >&2; exit 2; }
shift 5
for tool in "$1" python3; do
  command -v "$tool" > /dev/null || { echo "check.sh: $tool is not installed" >&2; exit 1; }
done
rm -rf -- "$WORK"
mkdir -p -- "$WORK"
"$@" "$SUITE" "$WORK/samples" "${CASES[@]}"
for id in "${CASES[@]}"; do
  if ! "$CLI" compare --golden="$SUITE" --actual="$WORK/samples/$id.samples.json" > "$WORK/$id.txt"; then
    cat "$WORK/$id.txt"
    echo "check.sh: $id does not pass" >&2
    exit 1
  fi
done
# A wrong value fails: the first component of the first case's first sample moved by 1.
python3 - "$WORK/samples/${CASES[0]}.samples.json" "$WORK/wrong.samples.json" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    samples = json.load(f)
samples["animations"][0]["channels"][0]["samples"][0]["value"][0] += 1
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(samples, f)
PY
set +e
"$CLI" compare --golden="$SUITE" --actual="$WORK/wrong.samples.json" > "$WORK/wrong.txt"
rc=$?
set -e
if [ "$rc" != 1 ]; then
  cat "$WORK/wrong.txt"
  echo "check.sh: a changed value gave exit $rc, not 1" >&2
  exit 1
fi
echo "check.sh: ${#CASES[@]} cases pass through the template; a changed value fails"
