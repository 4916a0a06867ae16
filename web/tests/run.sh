#!/usr/bin/env bash
# The web deliverables' tests (what .ci/run runs): scripts/build-web.sh builds the wasm, packs
# the npm tarball and assembles the page; node's test runner then installs the tarball and
# checks the npm CLI and API against the native CLI (GLTF_ANIM_NATIVE, default
# build/cli/gltf-anim: scripts/run-tests.sh builds it), the page's verdict module against the
# CLI (verdict.test.mjs; GLTF_ANIM_CORPUS adds its assets), the tarball as `npm publish
# --dry-run` sees it and the inline entry (release.test.mjs), the README's conformance recipe
# type-checked and run (recipe.test.mjs), the GitHub workflows and action.yml validated
# (workflows.test.mjs), and the page in a browser.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
export GLTF_ANIM_NATIVE=${GLTF_ANIM_NATIVE:-$ROOT/build/cli/gltf-anim}
[ -x "$GLTF_ANIM_NATIVE" ] || { echo "web tests: no native CLI at $GLTF_ANIM_NATIVE (scripts/setup.sh builds it)" >&2; exit 2; }
out=$(bash scripts/build-web.sh)
echo "$out"
GLTF_ANIM_TARBALL=$(sed -n 's/^npm: //p' <<<"$out")
GLTF_ANIM_PAGE=$(sed -n 's/^page: //p' <<<"$out")
export GLTF_ANIM_TARBALL GLTF_ANIM_PAGE
# The page test drives Debian's chromium (never a downloaded browser) through playwright-core,
# pinned in web/tests/tools/package-lock.json. GLTF_ANIM_CORPUS (optional) names a folder of
# real assets the page also validates.
. scripts/packages.sh
packages_install chromium
(cd web/tests/tools && npm ci --no-audit --no-fund --silent)
# The npm package says Node >= 18, so its tests run on the system's Node, whatever it is;
# playwright-core needs Node 20, so the page test runs on scripts/node20.sh's (the system's
# when new enough, else npm's build of Node 20: Debian 12 ships 18).
page_node=$(bash scripts/node20.sh)/node
[ "$page_node" -ef "$(command -v node)" ] || echo "web tests: Node $(node --version) for the package, $("$page_node" --version) for the page test"
node --test web/tests/api.test.mjs web/tests/cli.test.mjs web/tests/release.test.mjs web/tests/report-index.test.mjs web/tests/verdict.test.mjs \
  web/tests/recipe.test.mjs web/tests/workflows.test.mjs
"$page_node" --test web/tests/page.test.mjs
