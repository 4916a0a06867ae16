#!/usr/bin/env bash
# The Debian packages each part of the project needs, named in one place, and their install.
#   . scripts/packages.sh; packages_install $(packages_of build tests)   (from another script)
#   bash scripts/packages.sh GROUP...    installs the groups' packages in one apt transaction
#                                        (`all`: every group, what .ci/run does first)
# Only what is missing is installed (one `apt-get update` at most, then one `apt-get
# install`); root is needed for that (sudo is used when not root).
#
# Groups:
#   build  the gltf-anim executable (valijson is unpacked apart: scripts/setup.sh);
#          libmeshoptimizer-dev decodes EXT_/KHR_meshopt_compression (gltf/src/load/meshopt.cpp)
#   full   the test and benchmark build: GoogleTest, GoogleMock, Google Benchmark
#   tests  what the tests run beside the build:
#          chromium: the HTML conformance report is checked in a real headless browser;
#          strace: tests/hostile checks that no socket is opened and no file outside the root;
#          libxml2-utils: xmllint checks that every XML report (JUnit) is well-formed;
#          dpkg-dev, file: cpack's dpkg-shlibdeps (the Debian package's Depends, tests/delivery);
#            CPack finds the executables to give it with the file utility;
#          python3-yaml: tests/delivery reads action.yml and the GitLab CI job;
#          man-db: tests/delivery checks the package's manual page with man --warnings;
#          python3: the Python adapter template and the adapter templates' check;
#          python3-junitparser: our JUnit is read by a real JUnit parser;
#          assimp-utils: the exporter matrix runs assimp's glTF 2 exporter;
#          libfilament-dev: Filament's gltfio, an engine column of the conformance matrix (CMake
#            builds its adapter only when the package is there, and the matrix test fails without it);
#          libassimp-dev: assimp's glTF 2 importer, the matrix's assimp column (same rule);
#          node and npm: the engine adapters, the exporters, the SARIF and glTF-Validator checks
#   fuzz   clang and libFuzzer's runtime (scripts/fuzz.sh, the "asan" preset)
#   deb    lintian, which checks the Debian package (.ci/run)
#   web    Debian's emscripten and what the wasm build compiles against; xz-utils unpacks
#          Boost's sources (scripts/build-web.sh); node and npm (the page tests add chromium)
#   ci     ccache: CI's CLI-only build reuses the test build's compiles (.ci/run)
#   blender  Blender 3.4 (an engine row of the conformance matrix, adapters/blender/run.sh, which
#          installs this group itself) and python3-numpy, which Blender's glTF importer imports
#          and the blender package does not depend on
#   godot  Godot 3.2.3's headless build (an engine row of the conformance matrix,
#          adapters/godot/run.sh, which installs this group itself: its editor imports glTF)
#   vtk    VTK 9.1's Python bindings for Debian's Python (the matrix's VTK row,
#          adapters/vtk/run.sh, which installs this group itself: vtkGLTFImporter, the glTF
#          importer of ParaView and F3D)
# node and npm come from Debian only where the machine has none (CI's ships its own Node).

packages_of() {  # GROUP...: the packages of these groups, space separated
  local group node=""
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then node="nodejs npm"; fi
  for group in "$@"; do
    case "$group" in
      build) echo cmake g++ make rapidjson-dev libboost-program-options-dev libfmt-dev libmeshoptimizer-dev ;;
      full) echo libgtest-dev libgmock-dev libbenchmark-dev ;;
      tests) echo chromium strace libxml2-utils dpkg-dev file python3-yaml man-db python3 \
               python3-junitparser assimp-utils libfilament-dev libassimp-dev $node ;;
      fuzz) echo clang libclang-rt-14-dev ;;
      deb) echo lintian ;;
      web) echo emscripten cmake make xz-utils rapidjson-dev libfmt-dev libboost-program-options-dev \
             libfast-float-dev $node ;;
      ci) echo ccache ;;
      blender) echo blender python3-numpy ;;
      godot) echo godot3-server ;;
      vtk) echo python3-vtk9 ;;
      all) packages_of build full tests fuzz deb web ci blender godot vtk ;;
      *) echo "packages: no group '$group' (build full tests fuzz deb web ci blender godot vtk all)" >&2; return 2 ;;
    esac
  done
}

packages_install() {  # PACKAGE...: installs those not installed yet
  local p missing=() sudo=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  # Each name once (groups overlap), in the order first named.
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "packages: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  [ $# -gt 0 ] || { echo "usage: packages.sh GROUP... (build full tests fuzz deb web ci blender godot vtk all)" >&2; exit 2; }
  list=$(packages_of "$@")
  # shellcheck disable=SC2086  # a list of package names
  packages_install $list
fi
