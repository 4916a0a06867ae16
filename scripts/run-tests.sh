#!/usr/bin/env bash
# Quick start, command 2: set up, build, and run the whole test suite under CTest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# chromium: the HTML conformance report is checked in a real headless browser.
# strace: tests/hostile checks that no socket is opened and no file outside the root.
# libxml2-utils: xmllint checks that every XML report (JUnit) is well-formed.
# dpkg-dev, file: cpack's dpkg-shlibdeps (the Debian package's Depends, tests/delivery);
#   CPack finds the executables to give it with the file utility.
# python3-yaml: tests/delivery reads action.yml and the GitLab CI job.
# man-db: tests/delivery checks the package's manual page with man --warnings.
# python3: the Python adapter template and the adapter templates' check.
# python3-junitparser: our JUnit is read by a real JUnit parser.
# assimp-utils: the exporter matrix runs assimp's glTF 2 exporter.
# libfilament-dev: Filament's gltfio, an engine column of the conformance matrix (CMake builds
#   its adapter only when the package is there, and the matrix test fails without it).
# libassimp-dev: assimp's glTF 2 importer, the matrix's assimp column (same rule).
SETUP_EXTRA_PKGS="${SETUP_EXTRA_PKGS:-chromium strace libxml2-utils dpkg-dev file python3-yaml man-db python3 python3-junitparser assimp-utils libfilament-dev libassimp-dev}"
# node + npm: the three.js adapter's tests. Machines that ship their own Node
# (as CI's does) keep it; a bare Debian gets its packages.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  SETUP_EXTRA_PKGS="$SETUP_EXTRA_PKGS nodejs npm"
fi
. "$ROOT/scripts/setup.sh"
cd "$BUILD_DIR"
rc=0
ctest --output-on-failure -j "$JOBS" "$@" || rc=$?
if [ "$rc" -ne 0 ]; then
  # The failed tests again, one at a time, so that their output ends the log (a CI
  # page may show only its tail) and a failure that passes alone (one that depends on
  # what ran beside it) says so. The run fails either way.
  echo "=== the failed tests, run again one at a time ===" >&2
  ctest --rerun-failed --output-on-failure -j 1 "$@" || true
  exit "$rc"
fi
