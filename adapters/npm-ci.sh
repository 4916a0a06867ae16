#!/usr/bin/env bash
# Installs the engine adapters' npm dependencies (adapters/package.json) exactly
# as locked in adapters/package-lock.json (npm ci, from the npm registry)
# unless adapters/node_modules already holds every locked version. One install
# serves every adapter (threejs, threejs-pointer, babylon, playcanvas,
# sample-viewer, glmatrix). Fails with a clear message without node/npm.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v node >/dev/null || { echo "npm-ci.sh: node is not installed (the engine adapters need Node.js >= 18; Debian: apt-get install nodejs npm)" >&2; exit 2; }
command -v npm >/dev/null || { echo "npm-ci.sh: npm is not installed (Debian: apt-get install npm)" >&2; exit 2; }
stale="$(node -e "
  const lock = require('$HERE/package-lock.json');
  const fs = require('fs');
  for (const [p, v] of Object.entries(lock.packages)) {
    if (!p.startsWith('node_modules/')) continue;
    let have = '';
    try { have = JSON.parse(fs.readFileSync('$HERE/' + p + '/package.json', 'utf8')).version; } catch (e) {}
    if (have !== v.version) { console.log(p.slice(13) + ' ' + v.version); break; }
  }")"
if [ -n "$stale" ]; then
  echo "npm-ci.sh: installing the locked adapter packages (npm ci; first missing: $stale)" >&2
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
