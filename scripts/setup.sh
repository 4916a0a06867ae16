#!/usr/bin/env bash
# Installs what the build needs and is missing, then configures and builds
# whatever is stale. Sourced by the quick-start scripts; safe to run again.
#   BUILD_DIR   build folder (default: build, build-cli for SETUP_PROFILE=cli)
#   BUILD_TYPE  CMake build type (default: Release)
#   CMAKE_ARGS  extra arguments for the configure step
#   SETUP_EXTRA_PKGS  more Debian packages to install (run-tests.sh adds chromium)
#   SETUP_PROFILE     "cli": only what the gltf-anim executable needs, configured with
#                     the "cli" preset (no tests, benchmarks or fuzz targets) and only
#                     that target built; the GitHub Action and the .deb build this way
#   SETUP_TARGETS     build only these targets (space separated; default: all of the
#                     profile), e.g. gltf-anim for the quick start's first command
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SETUP_PROFILE="${SETUP_PROFILE:-full}"
case "$SETUP_PROFILE" in
  full) BUILD_DIR="${BUILD_DIR:-$ROOT/build}";;
  cli) BUILD_DIR="${BUILD_DIR:-$ROOT/build-cli}";;
  *) echo "setup: SETUP_PROFILE is full or cli, not '$SETUP_PROFILE'" >&2; exit 2;;
esac
BUILD_TYPE="${BUILD_TYPE:-Release}"

# Debian packages. valijson is handled apart (see below and README).
PKGS=(cmake g++ make rapidjson-dev libboost-program-options-dev libfmt-dev
  libmeshoptimizer-dev)  # decodes EXT_/KHR_meshopt_compression (gltf/src/load/meshopt.cpp)
[ "$SETUP_PROFILE" = cli ] || PKGS+=(libgtest-dev libgmock-dev libbenchmark-dev)
PKGS+=(${SETUP_EXTRA_PKGS:-})
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
apt_updated=0
apt_update() { [ $apt_updated -eq 1 ] || { $SUDO apt-get update -qq; apt_updated=1; }; }
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  apt_update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# valijson is header-only; Debian's libvalijson-dev drags in Qt5, Poco and ~100
# more packages through its Depends. We fetch that one .deb with apt-get download
# and unpack it with dpkg -x into .deps/valijson (no root needed, nothing installed
# system-wide). -DGLTF_ANIM_SYSTEM_VALIJSON=ON uses an installed copy instead.
VALIJSON_DIR="$ROOT/.deps/valijson"
if [ ! -f "$VALIJSON_DIR/usr/include/valijson/validator.hpp" ]; then
  echo "setup: unpacking libvalijson-dev into .deps/valijson" >&2
  mkdir -p "$ROOT/.deps/debs"
  ( cd "$ROOT/.deps/debs" && { apt-get download libvalijson-dev >/dev/null 2>&1 \
      || { apt_update; apt-get download libvalijson-dev >/dev/null; }; } )
  rm -rf "$VALIJSON_DIR"
  dpkg -x "$(ls "$ROOT"/.deps/debs/libvalijson-dev_*.deb | head -n 1)" "$VALIJSON_DIR"
fi

JOBS="${JOBS:-$(nproc)}"
# Configuring again is cheap and heals a folder whose last configure failed.
if [ "$SETUP_PROFILE" = cli ]; then
  ( cd "$ROOT" && cmake --preset cli -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" ${CMAKE_ARGS:-} >/dev/null )
  cmake --build "$BUILD_DIR" -j "$JOBS" --target gltf-anim >&2
else
  cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" ${CMAKE_ARGS:-} >/dev/null
  targets=()
  for t in ${SETUP_TARGETS:-}; do targets+=(--target "$t"); done
  cmake --build "$BUILD_DIR" -j "$JOBS" "${targets[@]}" >&2
fi
