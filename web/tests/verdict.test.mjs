// The page's verdict module (web/verdict/verdict_api.cpp, through index.js's verdictSession) on
// the committed assets (and GLTF_ANIM_CORPUS's, when given): the report and the keys byte for
// byte what the native `gltf-anim validate` and `sample --keys` write, with the same exit codes
// and messages; the samples byte for byte what the package's WebAssembly CLI writes for `sample
// --max-times N --no-keyframes` (the argv flow the page ran before; the native CLI's within 4
// ulps, as web/tests/api.test.mjs says: emscripten's libm may round a rotation's last bit
// differently from glibc's), their typed arrays that file's numbers; the codes `codes --format
// json`; and each asset loaded once for all of it. Reads the page folder (GLTF_ANIM_PAGE).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

import { NATIVE, ROOT, closeTo, committedAssets, runCli } from './helpers.mjs';

const PAGE = resolve(process.env.GLTF_ANIM_PAGE ?? join(ROOT, 'build-wasm/page'));
const DIST = join(PAGE, 'gltf-anim/dist');
const { run, verdictSession } = await import(pathToFileURL(join(PAGE, 'gltf-anim/index.js')).href);
const build = {
  create: (await import(pathToFileURL(join(DIST, 'gltf-anim-verdict.mjs')).href)).default,
  module: WebAssembly.compile(readFileSync(join(DIST, 'gltf-anim-verdict.wasm'))),
};

// The page's options (web/page/worker.js): its issue limits, the plots' rate, samples and bounds.
const MAX_ISSUES = 10000;
const MAX_ISSUE_MB = 64;
const KEY_VALUES = 1 << 22;
const MAX_VALUES = (1 << 26) + (1 << 23);

// The asset and the files beside it (its buffers), as the page is handed a picked folder.
function filesOf(asset) {
  const dir = dirname(asset);
  const name = basename(asset);
  const files = [[name, readFileSync(asset)]];
  for (const f of readdirSync(dir).sort()) {
    if (f !== name && !/\.(gltf|glb|json)$/i.test(f) && statSync(join(dir, f)).isFile()) files.push([f, readFileSync(join(dir, f))]);
  }
  return files;
}

function native(args, cwd) {
  const r = runCli(NATIVE, args, cwd);
  return { exitCode: r.status, bytes: r.stdout, stderr: r.stderr.toString() };
}

function same(got, want, what) {
  assert.equal(got.exitCode, want.exitCode, `${what}: exit code (${got.stderr})`);
  assert.equal(got.stderr, want.stderr, `${what}: stderr`);
  if (want.exitCode === 2 || want.bytes.length === 0) return;
  assert.ok(got.bytes !== null, `${what}: nothing written`);
  assert.ok(Buffer.from(got.bytes).equals(want.bytes), `${what}: bytes differ`);
}


async function check(asset, { maxTimes = 64 } = {}) {
  const cwd = dirname(asset);
  const name = basename(asset);
  const v = await verdictSession(filesOf(asset), { build });
  const report = v.validate([name], { maxIssues: MAX_ISSUES, maxIssueMb: MAX_ISSUE_MB, enable: ['LINT_*'] });
  same(report, native(['validate', '--no-config', '--no-timings', '--max-issues', String(MAX_ISSUES),
    '--max-issue-mb', String(MAX_ISSUE_MB), '--enable', 'LINT_*', '--format', 'json', '--', name], cwd), `${asset} validate`);
  const keys = v.keys(name, { maxValues: KEY_VALUES });
  same(keys, native(['sample', '--keys', '--max-values', String(KEY_VALUES), '--', name], cwd), `${asset} keys`);
  const args = ['sample', '--threads', '1', '--rate', '60', '--max-times', String(maxTimes), '--no-keyframes',
    '--max-values', String(MAX_VALUES), '--', name];
  const want = native(args, cwd);
  const files = filesOf(asset);
  const cli = await run(args, { files });
  assert.equal(cli.exitCode, want.exitCode, `${asset}: the wasm CLI's sample exit code`);
  const wasm = { exitCode: cli.exitCode, bytes: Buffer.from(cli.stdout), stderr: cli.stderr };
  const whole = v.samples(name, { rate: 60, maxTimes, maxValues: MAX_VALUES, whole: true });
  same({ ...whole, bytes: whole.header }, wasm, `${asset} samples`);
  if (want.exitCode === 0) closeTo(JSON.parse(wasm.bytes.toString()), JSON.parse(want.bytes.toString()), asset);
  // The typed arrays: the numbers of the CLI's file (null there: not finite), the header its
  // text without the samples.
  const typed = v.samples(name, { rate: 60, maxTimes, maxValues: MAX_VALUES });
  assert.equal(typed.exitCode, want.exitCode, asset);
  if (want.exitCode === 0) {
    const file = JSON.parse(wasm.bytes.toString());
    const header = JSON.parse(Buffer.from(typed.header).toString());
    const channels = file.animations.flatMap((a) => a.channels);
    assert.equal(typed.channels.length, channels.length, asset);
    channels.forEach((c, i) => {
      const { times, values, width } = typed.channels[i];
      assert.deepEqual(Array.from(times), c.samples.map((s) => s.t), `${asset} channel ${i} times`);
      assert.deepEqual(Array.from(values, (x) => (Number.isFinite(x) ? x : null)), c.samples.flatMap((s) => s.value),
        `${asset} channel ${i} values`);
      assert.equal(width, c.samples[0]?.value.length ?? 0, `${asset} channel ${i} width`);
      c.samples = [];
    });
    assert.deepEqual(header, file, `${asset} header`);
  }
  // One load (the validation's) answered all of it.
  assert.equal(v.loads(), 1, `${asset}: loads`);
}

test('validate, keys and samples: the CLI\'s bytes on every committed asset, one load each', async () => {
  const assets = committedAssets();
  assert.ok(assets.length > 100, `${assets.length} assets`);
  for (const asset of assets) await check(join(ROOT, asset));
});

test('validate of several assets at once, and in other formats: the native report', async () => {
  const dir = join(ROOT, 'conformance_assets/valid');
  const names = ['rotation_linear.gltf', 'container_glb.glb', 'container_external_bin.gltf'];
  const v = await verdictSession(names.flatMap((n) => filesOf(join(dir, n))), { build });
  for (const format of ['json', 'text', 'sarif', 'junit', 'md']) {
    same(v.validate(names, { maxIssues: 100, maxIssueMb: 16, format }),
      native(['validate', '--no-config', '--no-timings', '--max-issues', '100', '--max-issue-mb', '16', '--format', format,
        '--', ...names], dir), `validate --format ${format}`);
  }
  // Every validation loads each asset again (a download in another format); the keys and the
  // samples of an asset read its last load.
  assert.equal(v.loads(), 5 * names.length);
  v.keys(names[0]);
  v.samples(names[0]);
  assert.equal(v.loads(), 5 * names.length);
  // A refused option: the CLI's usage error, exit 2, nothing written.
  const bad = v.validate(names, { maxIssues: 100, maxIssueMb: 16, enable: ['NO_SUCH_CODE'] });
  assert.equal(bad.exitCode, 2);
  assert.equal(bad.bytes, null);
});

test('codes: the native `codes --format json`', async () => {
  const v = await verdictSession([], { build });
  same(v.codes(), native(['codes', '--format', 'json']), 'codes');
});

test('the corpus (GLTF_ANIM_CORPUS): the CLI\'s bytes, one load each', async (t) => {
  const corpus = process.env.GLTF_ANIM_CORPUS;
  if (!corpus || !existsSync(corpus)) {
    t.skip('GLTF_ANIM_CORPUS names no folder');
    return;
  }
  const assets = [];
  const walk = (d) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(gltf|glb)$/i.test(f) && statSync(p).size < 64 << 20) assets.push(p);
    }
  };
  walk(corpus);
  for (const asset of assets) await check(asset);
});
