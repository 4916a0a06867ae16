#!/usr/bin/env bash
# The gltf-anim executable linked statically (glibc, the C++ runtime, Boost and every other
# library inside it), for the releases: it runs on any x86-64 Linux, with nothing installed.
#   bash scripts/build-static-cli.sh OUT
# Builds as scripts/build-cli.sh does (the "cli" preset, in BUILD_DIR, default
# build-static) with -static, checks that the result needs no shared library, and copies it
# to OUT. Paths holding spaces are not supported (CMAKE_ARGS is split on them). gltf-anim loads nothing at run time (no dlopen, no name service), so glibc's
# warnings about static linking do not apply to it.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: build-static-cli.sh OUT" >&2; exit 2; }
OUT=$1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build-static}"
# Debian ships meshoptimizer as a shared library only: its decoder is compiled in from the
# sources of Debian's package (the version of libmeshoptimizer-dev), as the wasm build does
# (web/cmake/find/Findmeshoptimizer.cmake): those scripts/build-web.sh fetched when there,
# else fetched here the same way (apt-get source through a private deb-src list; the
# system's apt configuration is left alone).
MESHOPT_SOURCE=${GLTF_ANIM_MESHOPT_SOURCE:-$ROOT/build-wasm/deps/meshoptimizer}
if [ ! -f "$MESHOPT_SOURCE/src/vertexcodec.cpp" ]; then
  MESHOPT_SOURCE=$BUILD_DIR/deps/meshoptimizer
  deps=$BUILD_DIR/deps
  apt_src=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$deps/apt/sources"
    -o "Dir::State::Lists=$deps/apt/lists" -o Debug::NoLocking=1)
  mkdir -p "$deps/apt/lists/partial" "$deps/apt/sources"
  cat >"$deps/apt/sources/debian-src.sources" <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  apt-get "${apt_src[@]}" update -qq >&2
  (cd "$deps" && apt-get "${apt_src[@]}" source --download-only -qq meshoptimizer >&2)
  rm -rf "$deps/unpack" "$MESHOPT_SOURCE" && mkdir -p "$deps/unpack"
  tar -xJf "$(ls "$deps"/meshoptimizer_*.orig.tar.xz | head -n 1)" -C "$deps/unpack"
  mv "$deps"/unpack/meshoptimizer-* "$MESHOPT_SOURCE"
  rm -rf "$deps/unpack" "$deps"/meshoptimizer_*
fi
# The decoder as a static library, seen by the build as an imported meshoptimizer target
# (an imported one: the build's export set names it, never builds it).
lib=$BUILD_DIR/meshoptimizer
rm -rf "$lib" && mkdir -p "$lib/find"
for f in vertexcodec indexcodec vertexfilter; do
  c++ -O2 -DNDEBUG -fPIC -c "$MESHOPT_SOURCE/src/$f.cpp" -o "$lib/$f.o"
done
ar rcs "$lib/libmeshoptimizer.a" "$lib"/*.o
cat >"$lib/find/Findmeshoptimizer.cmake" <<FIND
if(NOT TARGET meshoptimizer::meshoptimizer)
  add_library(meshoptimizer::meshoptimizer STATIC IMPORTED)
  set_target_properties(meshoptimizer::meshoptimizer PROPERTIES
    IMPORTED_LOCATION "$lib/libmeshoptimizer.a" INTERFACE_INCLUDE_DIRECTORIES "$MESHOPT_SOURCE/src")
endif()
set(meshoptimizer_FOUND TRUE)
FIND
export CMAKE_ARGS="${CMAKE_ARGS:-} -DBoost_USE_STATIC_LIBS=ON -DCMAKE_EXE_LINKER_FLAGS=-static
  -DCMAKE_MODULE_PATH=$lib/find"
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
