#!/usr/bin/env bash
# Prints "key=<key>" (a GitHub Actions step output): the cache key of a CI build of
# gltf-anim (action.yml; the GitLab job keeps it beside its cached build), made of
# the runner's system and one SHA-256 of the sources.
#   bash scripts/ci-build-key.sh [--list] [SOURCE_DIR]
# --list prints the hashed files instead, one per line, relative to SOURCE_DIR.
# Paths are hashed relative to the checkout, so the key is the same wherever the
# sources are unpacked. Every file of the checkout counts except what a build makes
# or fetches (build*/ and install*/ folders, .deps/, node_modules/) and git's own
# data: a build reads files from folders one would not guess (the CLI compiles
# docs/samples.schema.json in), so no source folder is left out, and a change
# anywhere rebuilds. The system (os-release ID and VERSION_ID, machine) is part of
# the key because the binary is linked against that system's C++ runtime.
set -euo pipefail
list=0
if [ "${1:-}" = --list ]; then list=1; shift; fi
ROOT="$(cd -- "${1:-$(dirname -- "${BASH_SOURCE[0]}")/..}" && pwd)"
sources() {
  (cd "$ROOT" && find . \( -path ./.git -o -path './build*' -o -path './install*' -o -path ./.deps \
      -o -name node_modules \) -prune -o -type f -print0 | LC_ALL=C sort -z)
}
if [ "$list" -eq 1 ]; then
  sources | tr '\0' '\n' | sed 's|^\./||'
  exit 0
fi
system="$(. /etc/os-release && echo "${ID:-unknown}-${VERSION_ID:-unknown}")-$(uname -m)"
hash="$(sources | (cd "$ROOT" && xargs -0 -r sha256sum) | sha256sum | cut -d ' ' -f 1)"
echo "key=gltf-anim-cli-$system-$hash"
