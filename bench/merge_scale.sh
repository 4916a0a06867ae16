#!/usr/bin/env bash
# Time and peak memory of the passes whose cost grew with their input's shape
# rather than its size: the command line (100,000 PATH words), the matching of
# glTF-Validator's reports to assets (a 2 MB uri; 1,400 paths 2,000 folders
# deep, given through --files-from) and their merge (2,000 reports of one
# asset that has 100,000 issues). The runs behind docs/PERFORMANCE.md
# ("Argument list and glTF-Validator merge").
#   bash bench/merge_scale.sh [BUILD_DIR] [WORK_DIR]
# BUILD_DIR (default build) must hold cli/gltf-anim; WORK_DIR (default
# /tmp/gltf_anim_merge_scale) receives the inputs (about 30 MB).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
G="$(cd "${1:-$ROOT/build}" && pwd)/cli/gltf-anim"
D="${2:-/tmp/gltf_anim_merge_scale}"
mkdir -p "$D"
ONE="$ROOT/conformance_assets/valid/edge_single_key.gltf"
python3 - "$D" "$ONE" <<'PY'
import json, os, shutil, sys
d, one = sys.argv[1], sys.argv[2]
os.makedirs(f"{d}/lib", exist_ok=True)
shutil.copy(one, f"{d}/lib/a.gltf")
# 100,000 paths naming the same small asset: the words, not the work.
with open(f"{d}/args.txt", "w") as f:
    f.write("\n".join(["lib/a.gltf"] * 100_000))  # relative: fits the kernel's 2 MB
# A report whose uri is 2 MB of folders ending in the asset's name.
with open(f"{d}/long_uri.json", "w") as f:
    json.dump({"uri": "x/" * 1_000_000 + "a.gltf", "issues": {"messages": []}}, f)
# 1,400 paths 1,000 folders deep ("./" repeated: the same file).
with open(f"{d}/deep.txt", "w") as f:
    f.write("\n".join("lib/" + "./" * 1000 + "a.gltf" for _ in range(1400)))
# 1,000 paths 500 folders deep: what a command line holds (both builds take it).
with open(f"{d}/deep_args.txt", "w") as f:
    f.write("\n".join("lib/" + "./" * 500 + "a.gltf" for _ in range(1000)))
# An asset with 100,000 issues (duplicate keys) and 2,000 empty reports of it.
with open(f"{d}/lib/dup.gltf", "w") as f:
    f.write('{"asset":{"version":"2.0"},"extras":[' +
            ",".join('{"a":0,"a":0}' for _ in range(100_000)) + "]}")
with open(f"{d}/empty_reports.json", "w") as f:
    json.dump([{"uri": "dup.gltf", "issues": {"messages": []}}] * 2000, f)
PY
T='%e s wall, %U s user, %S s sys, %M KiB peak'
echo "== uptime before: $(uptime)"
cd "$D"
run() {  # label, then the command; stopped after 120 s or at 2 GiB of address space
  local label="$1"; shift
  /usr/bin/time -f "$label: $T" timeout 120 prlimit --as=2147483648 "$@" > /dev/null \
    2> err.txt || true
  tail -n 1 err.txt
}
# shellcheck disable=SC2046
# Parsing alone: the format is refused once the words are parsed, before any work.
run "100,000 PATH words, parsed only" "$G" validate --format none $(cat args.txt)
if "$G" validate --help | grep -q -- --files-from; then
  run "100,000 paths, --files-from, parsed only" "$G" validate --format none --files-from args.txt
  run "1,400 deep paths, one report each" "$G" validate --format json \
    --merge-gltf-validator empty_reports.json --files-from deep.txt lib/dup.gltf
fi
# shellcheck disable=SC2046
run "1,000 paths 500 deep, one report" "$G" validate --format json \
  --merge-gltf-validator empty_reports.json lib/dup.gltf $(cat deep_args.txt)
run "2 MB uri" "$G" validate --format json --merge-gltf-validator long_uri.json lib/a.gltf
run "2,000 reports x 100,000 issues" "$G" validate --format json --max-issues 0 \
  --merge-gltf-validator empty_reports.json lib/dup.gltf
echo "== uptime after: $(uptime)"
