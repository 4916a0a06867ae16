#!/usr/bin/env bash
# The WebAssembly build beside the native one, in one run: validate and sample on the
# benchmark assets with the native CLI and with the npm package's CLI (the same C++ compiled by
# Debian's emscripten, run by Node), then the npm package's size. The figures in
# docs/PERFORMANCE.md ("WebAssembly") come from this script:
#   bash bench/measure_web.sh [BUILD_DIR] [WASM_BUILD_DIR] [ASSET_DIR]
# BUILD_DIR (default build) holds cli/gltf-anim and bench/bench_validate; WASM_BUILD_DIR
# (default build-wasm) what scripts/build-web.sh made; ASSET_DIR (default
# /tmp/gltf_anim_bench) receives the generated assets (~700 MB).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
B="$(cd "${1:-$ROOT/build}" && pwd)"
W="$(cd "${2:-$ROOT/build-wasm}" && pwd)"
D="${3:-/tmp/gltf_anim_bench}"
T='%e s wall, %U s user, %S s sys, %M KiB peak'
NATIVE="$B/cli/gltf-anim"
NPM="$W/npm/package/bin/gltf-anim.js"
[ -f "$D/large.glb" ] || "$B/bench/bench_validate" --generate "$D"
cd "$D"
cat large.bin large.gltf large.glb channels.gltf channels.bin > /dev/null   # page cache
echo "== $(uname -m), $(nproc) cores; node $(node --version); uptime before: $(uptime)"
for a in large.glb large.gltf channels.gltf; do
  for i in 1 2 3; do
    echo -n "native validate $a: "; /usr/bin/time -f "$T" "$NATIVE" validate --no-config "$a" > /dev/null
    echo -n "wasm   validate $a: "; /usr/bin/time -f "$T" node "$NPM" validate --no-config "$a" > /dev/null
  done
done 2>&1
for i in 1 2 3; do
  echo -n "native sample large.gltf --rate 30 --threads 1: "
  /usr/bin/time -f "$T" "$NATIVE" sample large.gltf --max-values 0 --rate 30 --threads 1 --output /dev/null
  echo -n "wasm   sample large.gltf --rate 30: "
  /usr/bin/time -f "$T" node "$NPM" sample large.gltf --max-values 0 --rate 30 --threads 1 --output /dev/null
done 2>&1
echo "== npm package: $(ls "$W"/npm/*.tgz)"
ls -l "$W"/npm/*.tgz | awk '{print "tarball: " $5 " bytes"}'
for f in "$W"/npm/package/dist/* "$W"/npm/package/index.js; do
  echo "$(basename "$f"): $(stat -c %s "$f") bytes, $(gzip -9 -c "$f" | wc -c) gzipped"
done
echo "== uptime after: $(uptime)"
