#!/usr/bin/env bash
# The gltf-anim executable linked statically (glibc, the C++ runtime, Boost and every other
# library inside it), for the releases: it runs on any x86-64 Linux, with nothing installed.
#   bash scripts/build-static-cli.sh OUT
# Builds as scripts/build-cli.sh does (the "cli" preset, in BUILD_DIR, default
# build-static) with -static, checks that the result needs no shared library, and copies it
# to OUT. gltf-anim loads nothing at run time (no dlopen, no name service), so glibc's
# warnings about static linking do not apply to it.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: build-static-cli.sh OUT" >&2; exit 2; }
OUT=$1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build-static}"
export CMAKE_ARGS="${CMAKE_ARGS:-} -DBoost_USE_STATIC_LIBS=ON -DCMAKE_EXE_LINKER_FLAGS=-static"
bash "$ROOT/scripts/build-cli.sh" "$BUILD_DIR/prefix" >&2
exe="$BUILD_DIR/prefix/bin/gltf-anim"
if ldd "$exe" >/dev/null 2>&1; then
  echo "build-static-cli: $exe is dynamically linked:" >&2
  ldd "$exe" >&2
  exit 1
fi
mkdir -p "$(dirname "$OUT")"
cp "$exe" "$OUT"
"$OUT" --version
