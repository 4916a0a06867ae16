#!/usr/bin/env bash
# Time and peak memory of the buffer/accessor layout pass (analysed once, in the
# loader; validate reports its findings, sample only reads the statuses) on
# 100,000 accessors, each on its own bufferView: a valid file and one where
# every accessor has three layout problems (misaligned offset, a stride smaller
# than its element, and past its bufferView's end). The runs behind
# docs/PERFORMANCE.md ("Layout pass").
#   bash bench/layout_mass.sh [BUILD_DIR] [ASSET_DIR]
# BUILD_DIR (default build) must hold cli/gltf-anim; ASSET_DIR (default
# /tmp/gltf_anim_layout_mass) receives the files (about 30 MB).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
G="$(cd "${1:-$ROOT/build}" && pwd)/cli/gltf-anim"
D="${2:-/tmp/gltf_anim_layout_mass}"
mkdir -p "$D"
python3 - "$D" <<'EOF'
import base64, json, sys
d, n = sys.argv[1], 100_000
data = "data:application/octet-stream;base64," + base64.b64encode(bytes(12 * n)).decode()
def write(name, broken):
    views, accessors = [], []
    for i in range(n):
        if broken:
            views.append({"buffer": 0, "byteOffset": 12 * i, "byteLength": 12, "byteStride": 4})
            accessors.append({"bufferView": i, "byteOffset": 2, "componentType": 5126,
                              "count": 1, "type": "VEC3"})
        else:
            views.append({"buffer": 0, "byteOffset": 12 * i, "byteLength": 12})
            accessors.append({"bufferView": i, "componentType": 5126, "count": 1, "type": "VEC3"})
    doc = {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 12 * n, "uri": data}],
           "bufferViews": views, "accessors": accessors}
    with open(f"{d}/{name}.gltf", "w") as f:
        json.dump(doc, f, separators=(",", ":"))
write("valid", False)
write("broken", True)
EOF
T='%e s wall, %U s user, %S s sys, %M KiB peak'
echo "== uptime before: $(uptime)"
for a in valid broken; do
  /usr/bin/time -f "validate $a.gltf: $T" "$G" validate --max-issues 0 --format json "$D/$a.gltf" > /dev/null || true
  /usr/bin/time -f "sample $a.gltf: $T" "$G" sample "$D/$a.gltf" -o "$D/$a.samples.json" > /dev/null || true
done 2>&1 | grep -v '^Command exited'   # exit 1: findings
echo "== uptime after: $(uptime)"
