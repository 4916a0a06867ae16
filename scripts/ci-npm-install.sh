#!/usr/bin/env bash
# Installs a published gltf-anim npm package (the WebAssembly build: no C++ build on the
# runner) into a folder of its own and prints `path=EXECUTABLE`, the line the GitHub Action
# appends to GITHUB_OUTPUT. The same as `npx gltf-anim@VERSION`, with the executable's path
# kept for the steps after it.
#   bash scripts/ci-npm-install.sh VERSION PREFIX
# VERSION is an exact published version (e.g. 0.1.0): a range or tag would let a later
# publication change what CI runs. Needs node >= 18 and npm.
set -euo pipefail
if [ "$#" -ne 2 ] || [ -z "$2" ]; then
  echo "usage: ci-npm-install.sh VERSION PREFIX" >&2
  exit 2
fi
version="$1"
prefix="$2"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
  echo "ci-npm-install: '$version' is not an exact version (MAJOR.MINOR.PATCH)" >&2
  exit 2
fi
command -v npm >/dev/null 2>&1 || { echo "ci-npm-install: npm is not installed (actions/setup-node)" >&2; exit 2; }
mkdir -p "$prefix"
npm install --no-audit --no-fund --silent --prefix "$prefix" "gltf-anim@$version" >&2
exe="$prefix/node_modules/.bin/gltf-anim"
[ -x "$exe" ] || { echo "ci-npm-install: gltf-anim@$version installed no gltf-anim executable" >&2; exit 2; }
"$exe" --version >&2
echo "path=$exe"
