#!/usr/bin/env bash
# CTest adapter_template_cpp and adapter_template_python: an adapter template over a
# handful of cases, each case judged alone by `gltf-anim compare` (must pass); then one
# value changed must fail (exit 1), so the check can fail.
#   check.sh GLTF_ANIM SUITE_DIR WORK_DIR CASE,CASE,... -- ADAPTER [ARG...]
# The adapter runs as `ADAPTER [ARG...] SUITE_DIR OUT_DIR CASE...`; the first case's first
# sample is the one changed; then manifests naming files outside the suite (and an id
# with a folder in it) must be refused with nothing written outside OUT_DIR, and a case whose
# asset cannot load must fail alone (exit 1, the next case written). Needs python3 (the change is made on the parsed JSON, so it
# does not depend on how an adapter formats its file).
# With CHECK_UNSUPPORTED=CASE,CASE (cases whose channels the engine cannot play), each must
# come out of compare as not run (unsupported: FEATURE), exit 0, never failed; with
# CHECK_ERROR_FILE=1 the case that cannot load must also be written with its "error", which
# compare fails with the engine's message.
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
# Cases the engine cannot play: declared unsupported, so not run (exit 0), never failed.
if [ -n "${CHECK_UNSUPPORTED:-}" ]; then
  IFS=, read -r -a UNSUPPORTED <<< "$CHECK_UNSUPPORTED"
  "$@" "$SUITE" "$WORK/unsupported" "${UNSUPPORTED[@]}"
  for id in "${UNSUPPORTED[@]}"; do
    if ! "$CLI" compare --golden="$SUITE" --actual="$WORK/unsupported/$id.samples.json" > "$WORK/$id.txt" \
        || ! grep -q "^NOT RUN  $id\( \|\$\)" "$WORK/$id.txt" || ! grep -q "^      not run (unsupported: " "$WORK/$id.txt" \
        || ! grep -q "^0 passed, 0 failed, 1 not run (unsupported: " "$WORK/$id.txt"; then
      cat "$WORK/$id.txt"
      echo "check.sh: $id, which the engine cannot play, is not reported as not run (unsupported: FEATURE)" >&2
      exit 1
    fi
  done
fi
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
# A manifest naming files outside its suite or an id with a folder in it: the adapter
# refuses (exit 2) and writes nothing outside OUT_DIR. The suite is a copy of the first
# case with its manifest entry changed; beside it, a copy outside the suite that an
# unconfined adapter would read (and succeed with).
H="$WORK/hostile"
mkdir -p -- "$H/suite" "$H/outside" "$H/a/b"
python3 - "$SUITE" "$H" "${CASES[0]}" <<'PY'
import json, os, shutil, sys
suite, hostile, case = sys.argv[1:4]
with open(os.path.join(suite, "manifest.json"), encoding="utf-8") as f:
    manifest = json.load(f)
entry = next(e for e in manifest["assets"] if e["id"] == case)
for key in ("file", "samples"):
    for where in ("suite", "outside"):
        shutil.copy(os.path.join(suite, entry[key]), os.path.join(hostile, where))
for name in os.listdir(os.path.join(suite, os.path.dirname(entry["file"]))):
    if name.endswith(".bin") and name.startswith(os.path.splitext(os.path.basename(entry["file"]))[0]):
        for where in ("suite", "outside"):
            shutil.copy(os.path.join(suite, os.path.dirname(entry["file"]), name), os.path.join(hostile, where))
file, samples = os.path.basename(entry["file"]), os.path.basename(entry["samples"])
bad = {"id": {"id": "../../escaped", "file": file, "samples": samples},
       "file": {"id": "c", "file": "../outside/" + file, "samples": samples},
       "samples": {"id": "c", "file": file, "samples": "../outside/" + samples},
       "absolute": {"id": "c", "file": os.path.join(hostile, "outside", file), "samples": samples}}
for name, e in bad.items():
    with open(os.path.join(hostile, "manifest." + name), "w", encoding="utf-8") as f:
        json.dump({"assets": [dict(entry, **e)]}, f)
PY
# Every name outside OUT_DIR with its size and time (an overwrite shows), the manifest aside.
snapshot() {
  (cd "$H" && find . \( -path ./a/b/out -o -path ./suite/manifest.json \) -prune -o -type f -printf '%p %s %T@\n' -o -printf '%p\n' \
    | LC_ALL=C sort)
}
before="$(snapshot)"
for bad in id file samples absolute; do
  cp -- "$H/manifest.$bad" "$H/suite/manifest.json"
  rm -rf -- "$H/a/b/out"
  set +e
  "$@" "$H/suite" "$H/a/b/out" > "$WORK/$bad.txt" 2>&1
  rc=$?
  set -e
  if [ "$rc" != 2 ]; then
    cat "$WORK/$bad.txt"
    echo "check.sh: a manifest whose $bad leads out of the suite gave exit $rc, not 2" >&2
    exit 1
  fi
  after="$(snapshot)"
  if [ "$after" != "$before" ]; then
    diff <(echo "$before") <(echo "$after") || true
    echo "check.sh: with a manifest whose $bad leads out of the suite, files changed outside OUT_DIR" >&2
    exit 1
  fi
done
# One case whose asset the engine cannot load is that case's failure, not the end of the run:
# exit 1, its message names the case, and the case after it is written.
python3 - "$H" "$SUITE" "${CASES[0]}" <<'PY'
import json, os, sys
hostile, suite, case = sys.argv[1:4]
with open(os.path.join(suite, "manifest.json"), encoding="utf-8") as f:
    entry = next(e for e in json.load(f)["assets"] if e["id"] == case)
with open(os.path.join(hostile, "suite", "broken.gltf"), "w", encoding="utf-8") as f:
    f.write("{ not json")
file, samples = os.path.basename(entry["file"]), os.path.basename(entry["samples"])
assets = [dict(entry, id="broken", file="broken.gltf", samples=samples), dict(entry, id="good", file=file, samples=samples)]
with open(os.path.join(hostile, "suite", "manifest.json"), "w", encoding="utf-8") as f:
    json.dump({"assets": assets}, f)
PY
rm -rf -- "$H/a/b/out"
set +e
"$@" "$H/suite" "$H/a/b/out" > "$WORK/broken.txt" 2>&1
rc=$?
set -e
if [ "$rc" != 1 ] || [ ! -s "$H/a/b/out/good.samples.json" ] || ! grep -q '^broken: ' "$WORK/broken.txt"; then
  cat "$WORK/broken.txt"
  echo "check.sh: a case the engine cannot load must fail alone (exit 1, 'broken: ...', the next case written); got exit $rc" >&2
  exit 1
fi
if [ "${CHECK_ERROR_FILE:-}" = 1 ]; then
  # Its samples file carries the engine's message; compare fails the case with it.
  set +e
  "$CLI" compare --golden="$H/suite" --actual="$H/a/b/out/broken.samples.json" > "$WORK/broken-compare.txt"
  rc=$?
  set -e
  if [ "$rc" != 1 ] || ! grep -q '^FAIL  broken\( \|$\)' "$WORK/broken-compare.txt" \
      || ! grep -q '^      the engine failed on this case: ' "$WORK/broken-compare.txt"; then
    cat "$WORK/broken-compare.txt"
    echo "check.sh: the case the engine cannot load must be compare's failure with the engine's message; got exit $rc" >&2
    exit 1
  fi
elif [ -e "$H/a/b/out/broken.samples.json" ]; then
  echo "check.sh: the case the engine cannot load left a samples file" >&2
  exit 1
fi
echo "check.sh: ${#CASES[@]} cases pass through the template; a changed value fails; manifests leading out of the suite are refused; a case that cannot load fails alone"
