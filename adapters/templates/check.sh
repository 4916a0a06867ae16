#!/usr/bin/env bash
# CTest adapter_template_cpp: the C++ adapter template over a handful of cases (vectors,
# rotations, weights, a pointer, an extension, a GLB), each case judged alone by
# `gltf-anim compare` (must pass); then one value changed must fail (exit 1), so the
# check can fail.
#   check.sh ADAPTER GLTF_ANIM SUITE_DIR WORK_DIR
set -euo pipefail
ADAPTER="$1" CLI="$2" SUITE="$3" WORK="$4"
CASES=(translation_step rotation_linear weights2_cubicspline pointer_float3_linear sqlerp_with_fallback container_glb)
rm -rf "$WORK"
mkdir -p "$WORK"
"$ADAPTER" "$SUITE" "$WORK/samples" "${CASES[@]}"
for id in "${CASES[@]}"; do
  if ! "$CLI" compare --golden "$SUITE" --actual "$WORK/samples/$id.samples.json" > "$WORK/$id.txt"; then
    cat "$WORK/$id.txt"
    echo "check.sh: $id does not pass" >&2
    exit 1
  fi
done
# A wrong value fails: the first translation sample moved by 1.
sed 's/"value": \[0, 0, 0\]/"value": [1, 0, 0]/' "$WORK/samples/translation_step.samples.json" > "$WORK/wrong.samples.json"
if cmp -s "$WORK/wrong.samples.json" "$WORK/samples/translation_step.samples.json"; then
  echo "check.sh: could not change a value" >&2
  exit 1
fi
set +e
"$CLI" compare --golden "$SUITE" --actual "$WORK/wrong.samples.json" > "$WORK/wrong.txt"
rc=$?
set -e
if [ "$rc" != 1 ]; then
  cat "$WORK/wrong.txt"
  echo "check.sh: a changed value gave exit $rc, not 1" >&2
  exit 1
fi
echo "check.sh: ${#CASES[@]} cases pass through the template; a changed value fails"
