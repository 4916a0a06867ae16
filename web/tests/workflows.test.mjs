// The GitHub workflows (.github/workflows/) and the Action (action.yml) checked offline by
// action-validator (@action-validator/cli, pinned in web/tests/tools: the workflow and action
// JSON schemas compiled to WebAssembly, run under Node), and what the release workflow promises
// (docs/RELEASING.md): a tag vX.Y.Z builds, tests and attaches the artifacts and publishes the
// tarball it tested to npm with provenance. Needs no build: run it alone with
//   (cd web/tests/tools && npm ci) && node --test web/tests/workflows.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VALIDATOR = join(ROOT, 'web/tests/tools/node_modules/@action-validator/cli/cli.mjs');
const WORKFLOWS = join(ROOT, '.github/workflows');
const work = mkdtempSync(join(tmpdir(), 'gltf-anim-workflows-'));
after(() => rmSync(work, { recursive: true, force: true }));

function validate(file) {
  return spawnSync(process.execPath, [VALIDATOR, file], { cwd: ROOT, encoding: 'utf8' });
}
const read = (p) => readFileSync(join(ROOT, p), 'utf8');

test('every workflow and action.yml is valid (action-validator)', () => {
  const workflows = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort();
  assert.deepEqual(workflows, ['ci.yml', 'pages.yml', 'release.yml']);
  for (const file of [...workflows.map((f) => join(WORKFLOWS, f)), join(ROOT, 'action.yml')]) {
    const r = validate(file);
    assert.equal(r.status, 0, `${file}:\n${r.stdout}${r.stderr}`);
  }
});

test('every workflow runs its steps with bash -eo pipefail (a failure before `| tee` fails the step)', () => {
  for (const f of ['ci.yml', 'pages.yml', 'release.yml']) {
    assert.match(read(`.github/workflows/${f}`), /^defaults:\n {2}run:\n {4}shell: bash$/m, f);
  }
});

test('the validator refuses a broken workflow (it checks, it does not only parse)', () => {
  const broken = join(work, 'broken.yml');
  writeFileSync(broken, read('.github/workflows/ci.yml').replace('runs-on:', 'runs-onn:'));
  const r = validate(broken);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /Additional property 'runs-onn' is not allowed/);
});

test('ci.yml runs the README\'s test command on every push', () => {
  const readme = read('README.md');
  const command = /^(bash scripts\/run-tests\.sh)\s+#/m.exec(readme)?.[1];
  assert.ok(command, 'the README names its test command');
  const ci = read('.github/workflows/ci.yml');
  assert.match(ci, /^on:\n {2}push:\n/m);
  assert.match(ci, new RegExp(`run: ${command.replace(/\./g, '\\.')}$`, 'm'));
});

test('pages.yml deploys the page scripts/build-web.sh assembles, from main', () => {
  const pages = read('.github/workflows/pages.yml');
  assert.match(pages, /push:\n {4}branches: \[main\]/);
  assert.match(pages, /bash scripts\/build-web\.sh/);
  assert.match(pages, /uses: actions\/upload-pages-artifact@v3/);
  assert.match(pages, /uses: actions\/deploy-pages@v4/);
  assert.match(pages, /pages: write\n {6}id-token: write/);
});

test('release.yml: a tag vX.Y.Z tests, attaches every artifact and publishes the tested tarball', () => {
  const release = read('.github/workflows/release.yml');
  assert.match(release, /tags: \['v\[0-9\]\+\.\[0-9\]\+\.\[0-9\]\+'\]/);
  // Tested before anything is published: the publishing job needs the build job.
  assert.match(release, /publish:\n {4}needs: build/);
  for (const step of ['bash scripts/release-version.sh', 'bash scripts/run-tests.sh', 'cpack --preset deb',
    'bash scripts/build-static-cli.sh', 'bash web/tests/run.sh']) {
    assert.ok(release.includes(step), step);
  }
  // The artifacts: the .deb, the tarball web/tests/run.sh tested, the static CLI, the page's zip.
  assert.match(release, /cp "\$tarball" build-cli\/gltf-anim_\*\.deb dist\//);
  assert.match(release, /dist\/gltf-anim-\$\{TAG#v\}-linux-x86_64/);
  assert.match(release, /zip -qr "\$GITHUB_WORKSPACE\/dist\/gltf-anim-page-/);
  assert.match(release, /gh release create "\$TAG" dist\/\*/);
  // npm: that same tarball, with provenance (id-token), the token from the secret NPM_TOKEN.
  assert.match(release, /npm publish dist\/gltf-anim-\*\.tgz --provenance/);
  assert.match(release, /NODE_AUTH_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/);
  assert.match(release, /contents: write\n {6}id-token: write/);
});

test('scripts/release-version.sh: the tag must be the version of CMakeLists.txt and package.json', () => {
  const version = /project\(GltfAnim VERSION ([0-9.]+)/.exec(read('CMakeLists.txt'))[1];
  const run = (tag) => spawnSync('bash', [join(ROOT, 'scripts/release-version.sh'), tag], { encoding: 'utf8' });
  assert.equal(run(`v${version}`).status, 0);
  const other = run('v99.0.0');
  assert.equal(other.status, 1);
  assert.match(other.stderr, new RegExp(`CMakeLists.txt says ${version.replace(/\./g, '\\.')}, the tag v99\\.0\\.0`));
  assert.match(other.stderr, /web\/package\/package.json says/);
  for (const tag of ['1.2.3', 'v1.2', 'v1.2.3-rc1', '']) assert.equal(run(tag).status, 2, tag);
});
