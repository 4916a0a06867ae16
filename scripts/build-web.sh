#!/usr/bin/env bash
# The web deliverables in one command, on a fresh Debian 12 machine:
#   1. installs what is missing: Debian's emscripten and the header packages the libraries
#      build against, node and npm (scripts/setup.sh's valijson unpack included);
#   2. fetches the sources of Debian's boost1.74 package (apt-get source, through a private
#      deb-src list: the system's apt configuration is left alone) for Boost.Program_options,
#      which the wasm CLI compiles with em++ (Debian ships it for the host only), and of
#      Debian's meshoptimizer package for its decoder (EXT_/KHR_meshopt_compression);
#   3. builds the wasm (CMake preset `wasm`: one -O2 build of the CLI's two entry points, and
#      the page's verdict module linked -Oz beside them);
#   4. assembles and packs the npm package (npm pack), and the offline page.
# Prints `npm: TARBALL` and `page: FOLDER` (the folder holding index.html).
# BUILD_DIR (default build-wasm), VERDICT_OPT (the -O level of the verdict module's libraries,
# default -O2: the same objects as the whole CLI's; any other level is built in
# VERDICT_BUILD_DIR, default BUILD_DIR/verdict-OPT) and JOBS adjust it; the native build never
# needs any of this.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build-wasm}
JOBS=${JOBS:-$(nproc)}
# The verdict module's libraries at -O2, as the whole CLI's: at -Oz the module is 14 % smaller
# gzipped (430 KB instead of 490 KB before the first verdict, both under the page's 500 KB) but
# validates a large asset 3 to 7 times slower (the 342 MB asset: 0.75 s -> 5.2 s), its calls no
# longer inlined and many of them going through the JavaScript exception wrappers
# (docs/PERFORMANCE.md, "First paint"). The artist's time wins over 60 KB.
VERDICT_OPT=${VERDICT_OPT:--O2}
if [ "$VERDICT_OPT" = "-O2" ]; then
  VERDICT_BUILD_DIR=$BUILD_DIR
else
  VERDICT_BUILD_DIR=${VERDICT_BUILD_DIR:-$BUILD_DIR/verdict${VERDICT_OPT#-O}}
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
log() { echo "build-web: $*" >&2; }

# 1. Debian packages (scripts/packages.sh, group "web").
. "$ROOT/scripts/packages.sh"
# shellcheck disable=SC2046  # a list of package names
packages_install $(packages_of web)
# valijson as scripts/setup.sh unpacks it (.deps/valijson, see README).
if [ ! -f "$ROOT/.deps/valijson/usr/include/valijson/validator.hpp" ]; then
  mkdir -p "$ROOT/.deps/debs"
  (cd "$ROOT/.deps/debs" && apt-get download libvalijson-dev >/dev/null)
  dpkg -x "$(ls "$ROOT"/.deps/debs/libvalijson-dev_*.deb | head -n 1)" "$ROOT/.deps/valijson"
fi

# 2. Sources of Debian packages shipped for the host only, for em++ to compile: through a
# private deb-src list (the system's apt configuration is left alone), the list fetched once.
deps="$BUILD_DIR/deps"
apt_src=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$deps/apt/sources"
  -o "Dir::State::Lists=$deps/apt/lists" -o Debug::NoLocking=1)
apt_src_updated=0
# debian_source PACKAGE DEST TOP [MEMBER...]: PACKAGE's upstream tarball unpacked, its folder
# TOP (a glob: the tarball's top folder) moved to DEST; only MEMBERs when given.
debian_source() {
  local package=$1 dest=$2 top=$3 orig
  shift 3
  if [ "$apt_src_updated" -eq 0 ]; then
    mkdir -p "$deps/apt/lists/partial" "$deps/apt/sources"
    cat >"$deps/apt/sources/debian-src.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get "${apt_src[@]}" update -qq >&2
    apt_src_updated=1
  fi
  log "fetching Debian's $package sources (apt-get source)"
  (cd "$deps" && apt-get "${apt_src[@]}" source --download-only -qq "$package" >&2)
  orig=$(ls "$deps/${package}"_*.orig.tar.xz | head -n 1)
  rm -rf "$deps/unpack" && mkdir -p "$deps/unpack"
  tar -xJf "$orig" -C "$deps/unpack" "$@"
  rm -rf "$dest"
  # shellcheck disable=SC2086  # TOP is a glob
  mv "$deps"/unpack/$top "$dest"
  rm -rf "$deps/unpack" "$deps/${package}"_*
}
# Boost.Program_options of boost1.74 (the version of the installed headers, ~60 MB fetched).
BOOST_SOURCE="$deps/boost1.74"
[ -f "$BOOST_SOURCE/libs/program_options/src/cmdline.cpp" ] ||
  debian_source boost1.74 "$BOOST_SOURCE" boost boost/libs/program_options/src
# meshoptimizer's decoder (EXT_/KHR_meshopt_compression), the version of the native build's
# libmeshoptimizer-dev (~150 KB).
MESHOPT_SOURCE="$deps/meshoptimizer"
[ -f "$MESHOPT_SOURCE/src/vertexcodec.cpp" ] ||
  debian_source meshoptimizer "$MESHOPT_SOURCE" 'meshoptimizer-*'

# 3. The wasm build. Emscripten's JS optimizer needs Debian's node-acorn, which a Node from
# outside Debian does not look for in /usr/share/nodejs.
export GLTF_ANIM_BOOST_SOURCE="$BOOST_SOURCE"
export GLTF_ANIM_MESHOPT_SOURCE="$MESHOPT_SOURCE"
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
log "building the wasm (em++ $(em++ --version 2>/dev/null | sed -n "1s/.*) //p"))"
cmake --preset wasm -B "$BUILD_DIR" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS" --target gltf-anim-cli gltf-anim-core >&2
# The page's first module (gltf-anim-verdict, linked -Oz): with its libraries at another level
# than -O2 (VERDICT_OPT), a folder of its own, so that the whole CLI's code (the npm package,
# Repair and Compare) stays -O2.
if [ "$VERDICT_BUILD_DIR" != "$BUILD_DIR" ]; then
  cmake --preset wasm -B "$VERDICT_BUILD_DIR" -DCMAKE_CXX_FLAGS_RELEASE="$VERDICT_OPT -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELEASE="$VERDICT_OPT -DNDEBUG" >/dev/null
fi
cmake --build "$VERDICT_BUILD_DIR" -j "$JOBS" --target gltf-anim-verdict >&2

# 4. The npm package and the page.
pkg="$BUILD_DIR/npm/package"
rm -rf "$BUILD_DIR/npm" && mkdir -p "$pkg/dist"
cp -r "$ROOT/web/package/." "$pkg/"
cp "$BUILD_DIR"/web/gltf-anim-core.{mjs,wasm} "$BUILD_DIR"/web/gltf-anim-cli.{cjs,wasm} "$pkg/dist/"
chmod 644 "$pkg"/dist/*  # the linker marks the .wasm files executable; they are data
cat "$ROOT/packaging/copyright" "$ROOT/web/COPYRIGHT.web" >"$pkg/COPYRIGHT"
node "$ROOT/web/make-inline.mjs" "$pkg"  # the `gltf-anim/inline` entry: the wasm in the JS
tarball=$(cd "$BUILD_DIR/npm" && npm pack ./package --silent --pack-destination "$BUILD_DIR/npm" | tail -n 1)

page="$BUILD_DIR/page"
rm -rf "$page" && mkdir -p "$page/gltf-anim"
if [ -d "$ROOT/web/page" ]; then
  cp -r "$ROOT/web/page/." "$page/"
  cp "$pkg/index.js" "$pkg/instance.js" "$page/gltf-anim/"
  # What makes the two files ES modules for Node too (web/tests/verdict.test.mjs imports the
  # page's copy; Node 18, Debian 12's, reads a .js without it as CommonJS). Browsers ignore it.
  printf '{\n  "type": "module"\n}\n' >"$page/gltf-anim/package.json"
  mkdir -p "$page/gltf-anim/dist"
  cp "$pkg"/dist/gltf-anim-core.{mjs,wasm} "$page/gltf-anim/dist/"
  # The page's first module (web/page/worker.js): the verdict, keys and samples only.
  cp "$VERDICT_BUILD_DIR"/web/gltf-anim-verdict.{mjs,wasm} "$page/gltf-anim/dist/"
  chmod 644 "$page"/gltf-anim/dist/*
  node "$ROOT/web/make-offline.mjs" "$pkg" "$page"  # offline.js: the worker from file://
fi

echo "npm: $BUILD_DIR/npm/$tarball"
echo "page: $page"
