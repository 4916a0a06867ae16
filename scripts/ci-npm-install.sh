#!/usr/bin/env bash
# Installs the gltf-anim npm package (the WebAssembly build: no C++ build on the runner) into
# a folder of its own and prints `path=EXECUTABLE`, the line the GitHub Action appends to
# GITHUB_OUTPUT. The same as `npx gltf-anim@VERSION`, with the executable's path kept for the
# steps after it.
#   bash scripts/ci-npm-install.sh PACKAGE PREFIX
# PACKAGE is either an exact published version (e.g. 0.1.0: a range or tag would let a later
# publication change what CI runs), or the path of a tarball made by `npm pack` (a file
# ending in .tgz; docs/CI.md, "From a tarball"), which is how to run the npm route before a
# version is published. Needs node >= 18 and npm.
# Exit code 0 installed, 2 not (a usage error, or npm could not install it: the message says
# why, with npm's own last lines; under GitHub Actions also as an error annotation).
set -euo pipefail

# A message on standard error (standard output is the step's outputs), and under GitHub
# Actions an error annotation too, its text escaped by GitHub's rules (one line).
fail() {
  echo "ci-npm-install: $1" >&2
  if [ "${GITHUB_ACTIONS:-}" = true ]; then
    local data="${1//'%'/%25}"
    data="${data//$'\r'/%0D}"
    data="${data//$'\n'/%0A}"
    echo "::error title=gltf-anim npm install::$data" >&2
  fi
  exit 2
}

if [ "$#" -ne 2 ] || [ -z "$2" ]; then
  echo "usage: ci-npm-install.sh VERSION|TARBALL.tgz PREFIX" >&2
  exit 2
fi
package="$1"
prefix="$2"
if [[ "$package" == *.tgz ]]; then
  [ -f "$package" ] || fail "the tarball '$package' is not a file (make it with npm pack: docs/CI.md)"
  spec="$(cd -- "$(dirname -- "$package")" && pwd)/$(basename -- "$package")"
  what="the tarball '$package'"
elif [[ "$package" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
  spec="gltf-anim@$package"
  what="gltf-anim@$package from the npm registry"
else
  fail "'$package' is neither an exact version (MAJOR.MINOR.PATCH) nor a tarball (.tgz)"
fi
command -v npm >/dev/null 2>&1 || fail "npm is not installed (actions/setup-node)"
mkdir -p -- "$prefix"
log="$prefix/npm-install.log"
if ! npm install --no-audit --no-fund --prefix "$prefix" -- "$spec" >"$log" 2>&1; then
  tail -n 20 -- "$log" | sed 's/^/  npm: /' >&2
  fail "npm could not install $what (its last lines are above). No version of gltf-anim is \
published on npm yet: give the Action a tarball made by npm pack (docs/CI.md, \"From a \
tarball\"), or leave npm-version empty to build from source"
fi
exe="$prefix/node_modules/.bin/gltf-anim"
[ -x "$exe" ] || fail "$what installed no gltf-anim executable"
"$exe" --version >&2 || fail "the installed $exe does not run (node >= 18?)"
echo "path=$exe"
