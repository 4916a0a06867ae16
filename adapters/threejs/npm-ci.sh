#!/usr/bin/env bash
# Installs the adapter's npm dependencies exactly as locked (npm ci) unless
# node_modules already holds them. Fails with a clear message without node/npm.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v node >/dev/null || { echo "npm-ci.sh: node is not installed (the three.js adapter needs Node.js >= 18; Debian: apt-get install nodejs npm)" >&2; exit 2; }
command -v npm >/dev/null || { echo "npm-ci.sh: npm is not installed (Debian: apt-get install npm)" >&2; exit 2; }
locked="$(node -p "require('$HERE/package-lock.json').packages['node_modules/three'].version")"
installed="$(node -p "try { require('$HERE/node_modules/three/package.json').version } catch (e) { '' }")"
if [ "$locked" != "$installed" ]; then
  echo "npm-ci.sh: installing three $locked (npm ci)" >&2
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
