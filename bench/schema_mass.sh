#!/usr/bin/env bash
# Peak memory and CPU of the schema pass on 2,000,000 values of the wrong type
# (8 MB files), the runs behind docs/PERFORMANCE.md ("Schema pass on mass
# errors"); tests/hostile's HostileBounds.SchemaErrorsOfEveryValueAreNotHeldAtOnce
# holds the bound.
#   bash bench/schema_mass.sh [BUILD_DIR] [ASSET_DIR]
# BUILD_DIR (default build) must hold cli/gltf-anim; ASSET_DIR (default
# /tmp/gltf_anim_schema_mass) receives the files (32 MB).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
G="$(cd "${1:-$ROOT/build}" && pwd)/cli/gltf-anim"
D="${2:-/tmp/gltf_anim_schema_mass}"
mkdir -p "$D"
python3 - "$D" <<'EOF'
import sys
d, n = sys.argv[1], 2_000_000
head = '{"asset":{"version":"2.0"},'
def write(name, text):
    with open(f"{d}/{name}.gltf", "w") as f:
        f.write(head + text)
write("children", '"nodes":[{"children":[' + ",".join(['"x"'] * n) + "]}]}")
write("min", '"accessors":[{"componentType":5126,"count":1,"type":"SCALAR","min":['
      + ",".join(['"a"'] * n) + "]}]}")
write("nodes", '"nodes":[' + ",".join(["1"] * n) + "]}")
write("valid", '"nodes":[{"children":[' + ",".join(["1"] * n) + "]},{}]}")
EOF
T='%e s wall, %U s user, %S s sys, %M KiB peak'
echo "== uptime before: $(uptime)"
for a in children min nodes valid; do for opts in "" "--max-issues 10"; do
  # shellcheck disable=SC2086
  /usr/bin/time -f "validate $opts $a.gltf: $T" "$G" validate $opts "$D/$a.gltf" > /dev/null || true
done; done 2>&1 | grep -v '^Command exited'   # exit 1: findings
echo "== uptime after: $(uptime)"
