#!/usr/bin/env bash
# Installs the pipelines' npm packages (pipelines/package.json) exactly as locked
# in pipelines/package-lock.json (npm ci) unless pipelines/node_modules already
# holds every locked version (optional packages of other platforms aside). Fails with a clear message without node/npm.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v node >/dev/null || { echo "npm-ci.sh: node is not installed (Debian: apt-get install nodejs npm)" >&2; exit 2; }
command -v npm >/dev/null || { echo "npm-ci.sh: npm is not installed (Debian: apt-get install npm)" >&2; exit 2; }
# npm runs on the Node the pipelines run on (scripts/node20.sh: the system's when >= 20, else
# npm's build of Node 20): on Node 18, npm leaves out sharp's prebuilt binary (it needs Node
# >= 20.9), and glTF-Transform's CLI then cannot load at all.
PATH="$(bash "$HERE/../scripts/node20.sh")":$PATH
stale="$(cd "$HERE" && node -e "
  const lock = require('./package-lock.json');
  const fs = require('fs');
  for (const [p, v] of Object.entries(lock.packages)) {
    if (!p.startsWith('node_modules/')) continue;
    let have = '';
    try { have = JSON.parse(fs.readFileSync(p + '/package.json', 'utf8')).version; } catch (e) {}
    // Optional packages of other platforms (sharp's prebuilt libvips) are never installed.
    if (!have && v.optional) continue;
    if (have !== v.version) { console.log(p.slice(13) + ' ' + v.version); break; }
  }")"
# Which optional packages npm installs depends on the Node it ran on (sharp's binary needs
# >= 20.9): the last install's lock and Node major are kept in a stamp, and a different one
# installs again.
want="$(sha256sum "$HERE/package-lock.json" | cut -c1-64) node $(node -p 'process.versions.node.split(".")[0]')"
stamp="$HERE/node_modules/.gltf-anim-npm-ci"
if [ -z "$stale" ] && [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then stale="(installed for another lock or Node)"; fi
if [ -n "$stale" ]; then
  echo "npm-ci.sh: installing the locked pipeline packages (npm ci; first missing: $stale)" >&2
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error) >&2
  echo "$want" > "$stamp"
fi
