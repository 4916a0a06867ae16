#!/usr/bin/env bash
# Quick start, command 2: set up, build, and run the whole test suite under CTest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# chromium: the HTML conformance report is checked in a real headless browser.
# strace: tests/hostile checks that no socket is opened and no file outside the root.
SETUP_EXTRA_PKGS="${SETUP_EXTRA_PKGS:-chromium strace}"
. "$ROOT/scripts/setup.sh"
cd "$BUILD_DIR"
ctest --output-on-failure -j "$JOBS" "$@"
