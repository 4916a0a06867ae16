#!/usr/bin/env bash
# Quick start, command 2: set up, build, and run the whole test suite under CTest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Beside the build: the tests' own packages (scripts/packages.sh, groups "tests" and the
# engines the matrix runs, says why each), in the same transaction as the build's: the
# engine adapters would install theirs themselves, but CTest runs them side by side, and two
# apt-get runs at once fail on dpkg's lock.
. "$ROOT/scripts/packages.sh"
SETUP_EXTRA_PKGS="${SETUP_EXTRA_PKGS:-$(packages_of tests blender godot vtk)}"
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
