#!/usr/bin/env bash
# Prints "key=<key>" (a GitHub Actions step output): the cache key of the GitHub
# Action's build of gltf-anim (action.yml), made of the runner's system and one
# SHA-256 of the sources a build reads.
#   bash scripts/ci-build-key.sh [SOURCE_DIR]
# Paths are hashed relative to the checkout, so the key is the same wherever the
# sources are unpacked. It errs on the side of rebuilding: every file counts except
# folders no build of the CLI reads (tests, benchmarks, fuzz targets, engine
# adapters, documents) and build products. The system (os-release ID and
# VERSION_ID, machine) is part of the key because the binary is linked against
# that system's C++ runtime.
set -euo pipefail
ROOT="$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
system="$(. /etc/os-release && echo "${ID:-unknown}-${VERSION_ID:-unknown}")-$(uname -m)"
hash="$(cd "$ROOT" && find . \( -path ./.git -o -path './build*' -o -path ./.deps -o -path ./tests \
          -o -path ./bench -o -path ./fuzz -o -path ./adapters -o -path ./docs -o -path './install*' \
          -o -name node_modules \) -prune -o -type f ! -name '*.md' -print0 \
  | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d ' ' -f 1)"
echo "key=gltf-anim-cli-$system-$hash"
