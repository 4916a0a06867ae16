#!/usr/bin/env bash
# The WebAssembly build beside the native one, in one run: validate and sample on the
# benchmark assets with the native CLI and with the npm package's CLI (the same C++ compiled by
# Debian's emscripten, run by Node); the npm package's size beside glTF-Validator's npm build
# (tools/gltf-validator pins it); the page's longest main-thread task on large.glb beside
# glTF-Validator's npm build run on a page's main thread (bench/web/page_longtask.mjs); the
# time from opening its plots to the first curve and the browser's peak memory
# (bench/web/page_curves.mjs). The
# figures in docs/PERFORMANCE.md ("WebAssembly and the page") come from this script:
#   bash bench/web/measure.sh [BUILD_DIR] [WASM_BUILD_DIR] [ASSET_DIR]
# BUILD_DIR (default build) holds cli/gltf-anim and bench/bench_validate; WASM_BUILD_DIR
# (default build-wasm) what scripts/build-web.sh made; ASSET_DIR (default
# /tmp/gltf_anim_bench) receives the generated assets (~700 MB).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
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
# One run of each, native then wasm, back to back (the pairs share the machine's load).
for a in large.glb large.gltf channels.gltf; do
  echo -n "native validate $a: "; /usr/bin/time -f "$T" "$NATIVE" validate --no-config "$a" > /dev/null
  echo -n "wasm   validate $a: "; /usr/bin/time -f "$T" node "$NPM" validate --no-config "$a" > /dev/null
done 2>&1
echo -n "native sample large.gltf --rate 30 --threads 1: "
/usr/bin/time -f "$T" "$NATIVE" sample large.gltf --max-values 0 --rate 30 --threads 1 --output /dev/null 2>&1
echo -n "wasm   sample large.gltf --rate 30: "
/usr/bin/time -f "$T" node "$NPM" sample large.gltf --max-values 0 --rate 30 --threads 1 --output /dev/null 2>&1
echo "== npm package: $(ls "$W"/npm/*.tgz)"
ls -l "$W"/npm/*.tgz | awk '{print "tarball: " $5 " bytes"}'
for f in "$W"/npm/package/dist/* "$W"/npm/package/index.js "$W"/npm/package/inline.js; do
  echo "$(basename "$f"): $(stat -c %s "$f") bytes, $(gzip -9 -c "$f" | wc -c) gzipped"
done
KV="$ROOT/tools/gltf-validator/node_modules/gltf-validator"
[ -d "$KV" ] || bash "$ROOT/tools/gltf-validator/npm-ci.sh" >&2
echo "== glTF-Validator's npm package $(node -p "require('$KV/package.json').version")"
for f in "$KV/gltf_validator.dart.js" "$KV/index.js"; do
  echo "$(basename "$f"): $(stat -c %s "$f") bytes, $(gzip -9 -c "$f" | wc -c) gzipped"
done
echo "== the page, large.glb (Debian's chromium)"
node "$ROOT/bench/web/page_longtask.mjs" "$W/page" "$D/large.glb"
node "$ROOT/bench/web/page_longtask.mjs" "$W/page" "$D/large.glb" --khronos "$KV/gltf_validator.dart.js"
echo "== the page's plots of large.glb: time to the first curve, the browser's peak memory"
node "$ROOT/bench/web/page_curves.mjs" "$D/large.glb" "$W/page"
echo "== uptime after: $(uptime)"
