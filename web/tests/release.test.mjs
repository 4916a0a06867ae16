// The npm package as it would be published: `npm publish --dry-run` on the packed tarball
// (name, version, license, types, the exact file list: nothing stray, the README), and the inline entry
// (`gltf-anim/inline`, the wasm carried in the JavaScript) working under Node with no .wasm file
// beside it.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

import { NATIVE, ROOT, TARBALL, installPackage, runCli } from './helpers.mjs';

// The project's version, from the top-level CMakeLists.txt (the one place it is set).
const VERSION = /project\(GltfAnim VERSION ([0-9.]+)/.exec(readFileSync(join(ROOT, 'CMakeLists.txt'), 'utf8'))[1];

const work = mkdtempSync(join(tmpdir(), 'gltf-anim-release-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('npm publish --dry-run: name, version, license, types and exactly the intended files', () => {
  // A private cache and no registry round trip: a dry run only packs and lists.
  const out = execFileSync('npm', ['publish', '--dry-run', '--json', '--ignore-scripts', '--cache', join(work, 'cache'),
    '--registry', 'http://127.0.0.1:9/', TARBALL], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // npm 9 prints the package's summary, npm 10 and later nest it under the package's name.
  const parsed = JSON.parse(out.slice(out.indexOf('{')));
  const r = parsed['gltf-anim'] ?? parsed;
  assert.equal(r.name, 'gltf-anim');
  assert.equal(r.version, VERSION);
  assert.deepEqual(r.files.map((f) => f.path).sort(), [
    'COPYRIGHT', 'README.md', 'bin/gltf-anim.js', 'dist/gltf-anim-cli.cjs', 'dist/gltf-anim-cli.wasm',
    'dist/gltf-anim-core.mjs', 'dist/gltf-anim-core.wasm', 'index.d.ts', 'index.js', 'inline.d.ts', 'inline.js',
    'instance.js', 'package.json'].sort());
  // Only the executable is executable (the linker marks the .wasm files so).
  assert.deepEqual(r.files.filter((f) => (f.mode & 0o111) !== 0).map((f) => f.path), ['bin/gltf-anim.js']);
  const { prefix } = installPackage();
  const manifest = JSON.parse(readFileSync(join(prefix, 'node_modules/gltf-anim/package.json'), 'utf8'));
  assert.equal(manifest.license, 'SEE LICENSE IN COPYRIGHT');
  assert.equal(manifest.types, './index.d.ts');
  // npm publish --provenance (release.yml) refuses a package whose repository is not the
  // repository the workflow runs in: it must be the project's.
  assert.equal(manifest.repository.url, `git+${manifest.homepage}.git`);
  assert.equal(manifest.exports['./inline'].types, './inline.d.ts');
  assert.deepEqual(manifest.bin, { 'gltf-anim': 'bin/gltf-anim.js' });
  const copyright = readFileSync(join(prefix, 'node_modules/gltf-anim/COPYRIGHT'), 'utf8');
  assert.match(copyright, /Boost\.Program_options/);
});

test('gltf-anim/inline: the same reports as the main entry, with no .wasm file beside it', async () => {
  const { prefix } = installPackage();
  const pkg = join(prefix, 'node_modules/gltf-anim');
  // Only the files the inline entry needs: the .wasm stays behind.
  const alone = join(work, 'inline-alone');
  mkdirSync(join(alone, 'dist'), { recursive: true });
  copyFileSync(join(pkg, 'inline.js'), join(alone, 'inline.js'));
  copyFileSync(join(pkg, 'dist/gltf-anim-core.mjs'), join(alone, 'dist/gltf-anim-core.mjs'));
  // And the package.json that makes them ES modules: Node 18 reads a .js file without it as CommonJS.
  copyFileSync(join(pkg, 'package.json'), join(alone, 'package.json'));
  const inline = await import(pathToFileURL(join(alone, 'inline.js')).href);
  const dir = join(ROOT, 'conformance_assets/invalid/node');
  const glb = readFileSync(join(ROOT, 'conformance_assets/valid/container_glb.glb'));
  const got = await inline.validate(glb, { name: 'container_glb.glb', timings: false });
  const native = JSON.parse(runCli(NATIVE, ['validate', '--no-config', '--no-timings', '--format', 'json', '--',
    'container_glb.glb'], join(ROOT, 'conformance_assets/valid')).stdout);
  assert.deepEqual(got, native);
  const bad = readFileSync(join(dir, 'rotation_out_of_range.gltf'));
  const report = await inline.validate(bad, { name: 'rotation_out_of_range.gltf', timings: false });
  const nativeBad = JSON.parse(runCli(NATIVE, ['validate', '--no-config', '--no-timings', '--format', 'json', '--',
    'rotation_out_of_range.gltf'], dir).stdout);
  assert.deepEqual(report, nativeBad);
});

test('scripts/ci-npm-install.sh (the Action\'s npm-version) takes only an exact version', () => {
  for (const version of ['latest', '^0.1.0', '0.1', '0.1.0; rm -rf /', '']) {
    const r = spawnSync('bash', [join(ROOT, 'scripts/ci-npm-install.sh'), version, join(work, 'npm-prefix')],
      { encoding: 'utf8' });
    assert.equal(r.status, 2, `${version}: ${r.stderr}`);
    assert.equal(r.stdout, '');
  }
  assert.ok(!existsSync(join(work, 'npm-prefix')), 'nothing installed');
});
