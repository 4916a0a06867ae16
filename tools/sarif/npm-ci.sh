#!/usr/bin/env bash
# Installs Microsoft's SARIF Multitool (tools/sarif/package.json) exactly as
# locked in tools/sarif/package-lock.json (npm ci, from the npm registry)
# unless tools/sarif/node_modules already holds the locked version. The npm
# package ships a self-contained Linux executable; its install script only
# marks it executable, which npm may skip (install scripts not allowed), so
# this does it. Fails with a clear message without node/npm.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v node >/dev/null || { echo "npm-ci.sh: node is not installed (the SARIF check needs Node.js; Debian: apt-get install nodejs npm)" >&2; exit 2; }
command -v npm >/dev/null || { echo "npm-ci.sh: npm is not installed (Debian: apt-get install npm)" >&2; exit 2; }
want="$(node -e "console.log(require('$HERE/package-lock.json').packages['node_modules/@microsoft/sarif-multitool-linux'].version)")"
have="$(node -e "try { console.log(require('$HERE/node_modules/@microsoft/sarif-multitool-linux/package.json').version) } catch (e) { console.log('') }")"
if [ "$have" != "$want" ]; then
  echo "npm-ci.sh: installing the locked SARIF Multitool $want (npm ci)" >&2
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
chmod u+x "$HERE/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
