#!/usr/bin/env bash
# Installs Khronos glTF-Validator's npm build (tools/gltf-validator/package.json)
# exactly as locked in tools/gltf-validator/package-lock.json (npm ci, from the npm
# registry) unless tools/gltf-validator/node_modules already holds the locked
# version. Fails with a clear message without node/npm.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v node >/dev/null || { echo "npm-ci.sh: node is not installed (glTF-Validator's npm build needs Node.js >= 18; Debian: apt-get install nodejs npm)" >&2; exit 2; }
command -v npm >/dev/null || { echo "npm-ci.sh: npm is not installed (Debian: apt-get install npm)" >&2; exit 2; }
want="$(node -e "console.log(require(process.argv[1]).packages['node_modules/gltf-validator'].version)" "$HERE/package-lock.json")"
have="$(node -e "try { console.log(require(process.argv[1]).version) } catch (e) { console.log('') }" "$HERE/node_modules/gltf-validator/package.json")"
if [ "$have" != "$want" ]; then
  echo "npm-ci.sh: installing the locked glTF-Validator $want (npm ci)" >&2
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
