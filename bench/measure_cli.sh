#!/usr/bin/env bash
# Wall/CPU/peak-memory figures of the CLI on the benchmark assets, the runs behind
# docs/PERFORMANCE.md ("Summary on an idle machine", and the idle rows of the
# Validator and compare sections). Run it on an otherwise idle machine:
#   bash bench/measure_cli.sh [BUILD_DIR] [ASSET_DIR]
# BUILD_DIR (default build) must hold cli/gltf-anim and bench/bench_validate,
# bench/bench_compare (configure with Google Benchmark installed: scripts/setup.sh does).
# ASSET_DIR (default /tmp/gltf_anim_bench) receives the generated assets (~700 MB)
# and the sample outputs (~3 GB, removed at the end).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
B="$(cd "${1:-$ROOT/build}" && pwd)"
D="${2:-/tmp/gltf_anim_bench}"
G="$B/cli/gltf-anim"
T='%e s wall, %U s user, %S s sys, %M KiB peak'
[ -f "$D/large.gltf" ] || "$B/bench/bench_validate" --generate "$D"
cd "$D"
cat large.bin large.gltf large.glb channels.gltf > /dev/null   # page cache
echo "== uptime before: $(uptime)"
for a in large.gltf large.glb channels.gltf; do for i in 1 2 3; do
  echo -n "validate $a: "; /usr/bin/time -f "$T" "$G" validate "$a" > /dev/null; done; done 2>&1
for fmt in csv json; do for t in 1 2; do for out in /dev/null "$D/out.$fmt"; do for i in 1 2 3; do
  echo -n "sample $fmt --threads $t --output $out: "
  /usr/bin/time -f "$T" "$G" sample large.gltf --max-values 0 --rate 30 --format $fmt --threads $t --output "$out"
done; done; done; done 2>&1
for i in 1 2 3; do echo -n "dd the CSV into a file: "; /usr/bin/time -f "$T" dd if="$D/out.csv" of="$D/copy.csv" bs=1M status=none; done 2>&1
for i in 1 2 3; do echo -n "dd large.bin to /dev/null: "; /usr/bin/time -f "$T" dd if=large.bin of=/dev/null bs=1M status=none; done 2>&1
rm -f "$D/out.csv" "$D/out.json" "$D/copy.csv"
"$B/bench/bench_compare" --benchmark_filter=CompareFiles 2>&1 | tail -1
echo "== uptime after: $(uptime)"
