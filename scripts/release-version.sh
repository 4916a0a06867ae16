#!/usr/bin/env bash
# Checks that a release tag names the version of the sources (release.yml's first step):
#   bash scripts/release-version.sh vX.Y.Z
# The version is set in project(GltfAnim VERSION X.Y.Z) of CMakeLists.txt (the CLI's
# --version, the reports' generator, the Debian package) and in web/package/package.json
# (the npm package); the tag must be v followed by both. Exit 0 when they agree, else 1 with
# what differs; 2 for a tag that is not vX.Y.Z.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 1 ] || { echo "usage: release-version.sh vX.Y.Z" >&2; exit 2; }
tag=$1
[[ $tag =~ ^v([0-9]+\.[0-9]+\.[0-9]+)$ ]] || { echo "release-version: '$tag' is not vX.Y.Z" >&2; exit 2; }
want=${BASH_REMATCH[1]}
cmake_version=$(sed -n 's/^project(GltfAnim VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
npm_version=$(sed -n 's/^  "version": "\([^"]*\)".*/\1/p' "$ROOT/web/package/package.json")
rc=0
[ "$cmake_version" = "$want" ] || { echo "release-version: CMakeLists.txt says $cmake_version, the tag $tag" >&2; rc=1; }
[ "$npm_version" = "$want" ] || { echo "release-version: web/package/package.json says $npm_version, the tag $tag" >&2; rc=1; }
[ "$rc" -ne 0 ] || echo "release-version: $want"
exit "$rc"
