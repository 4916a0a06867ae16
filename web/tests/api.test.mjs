// The npm package's ES module API, installed from the tarball: each answer is the object the
// native CLI writes for the same files (parsed), and the failures are the CLI's.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';

import { NATIVE, ROOT, closeTo, filesUnder, glbBytes, installPackage, repairAsset, runCli } from './helpers.mjs';

const gltfAnim = await import(installPackage().moduleUrl);

const bytesOf = (p) => new Uint8Array(readFileSync(join(ROOT, p)));

/** The native CLI's JSON for `args` run in the asset's folder (so the uri is its name). */
function nativeJson(args, cwd) {
  const r = runCli(NATIVE, args, cwd);
  assert.ok(r.status === 0 || r.status === 1, `native: ${r.stderr}`);
  return JSON.parse(r.stdout.toString());
}

test('validate(bytes): every invalid asset, the native report', async () => {
  for (const asset of filesUnder('conformance_assets/invalid', /\.gltf$/)) {
    const name = basename(asset);
    const expected = nativeJson(['validate', '--no-config', '--no-timings', '--format', 'json', name],
      join(ROOT, dirname(asset)));
    const got = await gltfAnim.validate(bytesOf(asset), { name, timings: false });
    assert.deepEqual(got, expected, asset);
  }
});

test('validate(bytes) of a .glb names it by its magic', async () => {
  const report = await gltfAnim.validate(bytesOf('conformance_assets/valid/container_glb.glb'));
  assert.equal(report.reports[0].uri, 'asset.glb');
  assert.equal(report.reports[0].mimeType, 'model/gltf-binary');
  assert.equal(report.summary.result, 'pass');
});

test('validate({files}): a .gltf with its external .bin, and without it', async () => {
  const dir = 'conformance_assets/valid';
  const files = {
    'container_external_bin.gltf': bytesOf(`${dir}/container_external_bin.gltf`),
    'container_external_bin.bin': bytesOf(`${dir}/container_external_bin.bin`),
  };
  const expected = nativeJson(['validate', '--no-config', '--no-timings', '--format', 'json',
    'container_external_bin.gltf'], join(ROOT, dir));
  assert.deepEqual(await gltfAnim.validate({ files }, { timings: false }), expected);
  assert.equal(expected.summary.result, 'pass');

  // Without the .bin: the loader's own coded issue, as natively for a missing file.
  const alone = await gltfAnim.validate({ files: { 'container_external_bin.gltf': files['container_external_bin.gltf'] } });
  assert.equal(alone.summary.result, 'fail');
  assert.ok(alone.reports[0].issues.messages.some((m) => m.pointer?.startsWith('/buffers/0')),
    JSON.stringify(alone.reports[0].issues.messages));
});

test('validate: options and formats are the CLI\'s', async () => {
  const asset = 'conformance_assets/invalid/node/rotation_out_of_range.gltf';
  const name = basename(asset);
  const cwd = join(ROOT, dirname(asset));
  const sarif = runCli(NATIVE, ['validate', '--no-config', '--no-timings', '--format', 'sarif',
    '--severity-override', 'VALUE_NOT_IN_RANGE=2', name], cwd).stdout.toString();
  assert.equal(await gltfAnim.validate(bytesOf(asset), { name, format: 'sarif', timings: false,
    severityOverride: { VALUE_NOT_IN_RANGE: 2 } }), sarif);
  const ignored = await gltfAnim.validate(bytesOf(asset), { name, ignore: 'VALUE_NOT_IN_RANGE' });
  assert.equal(ignored.summary.numErrors, 0);
  // A usage error is a GltfAnimError with the CLI's message and exit code 2.
  await assert.rejects(gltfAnim.validate(bytesOf(asset), { ignore: 'NO_SUCH_CODE' }), (e) => {
    assert.equal(e.name, 'GltfAnimError');
    assert.equal(e.exitCode, 2);
    assert.match(e.message, /NO_SUCH_CODE/);
    return true;
  });
});


test('sample(bytes): the native samples file', async () => {
  for (const asset of ['conformance_assets/valid/rotation_linear.gltf',
    'conformance_assets/valid/container_glb.glb']) {
    const name = basename(asset);
    const expected = nativeJson(['sample', '--threads', '1', '--rate', '10', name], join(ROOT, dirname(asset)));
    closeTo(await gltfAnim.sample(bytesOf(asset), { name, rate: 10 }), expected, asset);
  }
});

test('sample(bytes, {maxTimes, keyframes: false}): the native file of --max-times and --no-keyframes', async () => {
  // The clip (keys from 0 to 3.5 s) has 211 times at 60 Hz; capped at 7 they are 0, 3.5/6, ...,
  // 3.5, evenly spaced from its start to its latest key (the CLI's help).
  const asset = 'conformance_assets/valid/rotation_linear.gltf';
  const name = basename(asset);
  const expected = nativeJson(['sample', '--threads', '1', '--rate', '60', '--max-times', '7', '--no-keyframes', name],
    join(ROOT, dirname(asset)));
  const got = await gltfAnim.sample(bytesOf(asset), { name, rate: 60, maxTimes: 7, keyframes: false });
  closeTo(got, expected, asset);
  for (const animation of got.animations) {
    for (const channel of animation.channels) {
      assert.equal(channel.keyframes, undefined, 'keyframes left out');
      assert.deepEqual(channel.samples.map((x) => x.t.toFixed(12)), [0, 1, 2, 3, 4, 5, 6].map((i) => (3.5 * i / 6).toFixed(12)));
    }
  }
});

test('keys(bytes): the native keys file, a refused channel with its problem and exit code 1', async () => {
  for (const [asset, status] of [['conformance_assets/valid/translation_cubicspline.gltf', 0],
    ['conformance_assets/invalid/accessor/input_shared_non_increasing.gltf', 1]]) {
    const name = basename(asset);
    const r = runCli(NATIVE, ['sample', '--keys', name], join(ROOT, dirname(asset)));
    assert.equal(r.status, status, `native: ${r.stderr}`);
    const { exitCode, ...got } = await gltfAnim.keys(bytesOf(asset), { name });
    assert.equal(exitCode, status, asset);
    assert.deepEqual(got, JSON.parse(r.stdout.toString()), asset);
  }
  await assert.rejects(gltfAnim.keys(bytesOf('conformance_assets/valid/translation_cubicspline.gltf'),
    { name: 'translation_cubicspline.gltf', args: ['--rate', '10'] }), gltfAnim.GltfAnimError);
});

test('compare: the suite against its own goldens, the native report', async () => {
  const golden = Object.fromEntries(filesUnder('conformance_assets', /\.(json)$/)
    .filter((p) => p.startsWith('conformance_assets/valid/') || p === 'conformance_assets/manifest.json')
    .map((p) => [p.slice('conformance_assets/'.length), bytesOf(p)]));
  const actual = Object.fromEntries(filesUnder('conformance_assets/valid', /\.samples\.json$/)
    .map((p) => [basename(p), bytesOf(p)]));
  const expected = nativeJson(['compare', '--golden', 'conformance_assets', '--actual',
    'conformance_assets/valid', '--format', 'json'], ROOT);
  const got = await gltfAnim.compare({ golden, actual });
  // The reports name the folders they were given.
  const norm = (r) => JSON.parse(JSON.stringify(r).replaceAll('conformance_assets/valid', 'actual')
    .replaceAll('conformance_assets', 'golden'));
  assert.deepEqual(got, norm(expected));
});

test('generate(): the native suite, in memory and in the folder named', async () => {
  const native = mkdtempSync(join(tmpdir(), 'gltf-anim-suite-native-'));
  const mine = mkdtempSync(join(tmpdir(), 'gltf-anim-suite-npm-'));
  try {
    const r = runCli(NATIVE, ['generate', '--out', native]);
    assert.equal(r.status, 0, r.stderr.toString());
    const suite = await gltfAnim.generate({ out: join(mine, 'made/here') });
    assert.equal(suite.exitCode, 0);
    const nativeFiles = listFiles(native);
    assert.deepEqual(Object.keys(suite.files).sort(), nativeFiles);
    let exact = 0;
    for (const p of nativeFiles) {
      const bytes = readFileSync(join(native, p));
      assert.deepEqual(readFileSync(join(mine, 'made/here', p)), Buffer.from(suite.files[p]), p);
      if (Buffer.from(suite.files[p]).equals(bytes)) {
        ++exact;
        continue;
      }
      // The assets are the same bytes; a golden value computed with libm (a rotation's sin
      // and cos) may differ in its last bits (emscripten's libm is not glibc's): the same
      // JSON, every number within a few ulps.
      assert.match(p, /\.json$/, p);
      assertClose(JSON.parse(decoder.decode(suite.files[p])), JSON.parse(bytes.toString('utf8')), p);
    }
    assert.ok(exact > nativeFiles.length - 10, `${exact} of ${nativeFiles.length} files byte for byte`);
    assertClose(suite.manifest, JSON.parse(readFileSync(join(native, 'manifest.json'), 'utf8')), 'manifest');
  } finally {
    rmSync(native, { recursive: true, force: true });
    rmSync(mine, { recursive: true, force: true });
  }
});

const decoder = new TextDecoder();

/** `got` is `want` but for numbers a few ulps apart (at `where`). */
function assertClose(got, want, where) {
  if (typeof want === 'number' && typeof got === 'number') {
    assert.ok(Math.abs(got - want) <= 1e-14 * Math.max(1, Math.abs(want)), `${where}: ${got} vs ${want}`);
  } else if (Array.isArray(want)) {
    assert.ok(Array.isArray(got) && got.length === want.length, where);
    want.forEach((w, i) => assertClose(got[i], w, `${where}/${i}`));
  } else if (want !== null && typeof want === 'object') {
    assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), where);
    for (const k of Object.keys(want)) assertClose(got[k], want[k], `${where}/${k}`);
  } else {
    assert.equal(got, want, where);
  }
}

/** Every file under a folder, relative to it, sorted. */
function listFiles(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(dir, `${prefix}${e.name}/`) : [`${prefix}${e.name}`]).sort();
}

test('conformance(): the sampler over the suite, then the CLI\'s compare of what it returned', async () => {
  const suite = await gltfAnim.generate();
  const golden = (asset) => JSON.parse(new TextDecoder().decode(asset.files.get(asset.entry.samples)));
  const calls = [];
  const result = await gltfAnim.conformance({
    suite,
    sampler(asset, animation, channel, times) {
      calls.push(`${asset.id} ${animation.index} ${channel.index}`);
      assert.equal(asset.bytes, suite.files[asset.file]);
      assert.equal(asset.gltf.asset.version, '2.0'); // a .glb's JSON chunk too
      const ch = golden(asset).animations.find((a) => a.index === animation.index).channels[channel.index];
      assert.deepEqual(times, ch.samples.map((s) => s.t));
      assert.equal(channel.width, ch.samples[0].value.length);
      const values = ch.samples.map((s) => s.value);
      if (asset.id === 'translation_step') return values.map((v) => v.map((x) => x + 1)); // wrong
      if (asset.id === 'translation_linear') return Float32Array.from(values.flat()); // flat
      if (asset.id.startsWith('weights')) return { unsupported: 'morph weights' };
      if (asset.id === 'rotation_linear') throw new Error('the engine fell over');
      return values;
    },
  });
  assert.equal(result.exitCode, 1);
  const { report } = result;
  assert.equal(report.summary.cases, suite.manifest.assets.length);
  assert.equal(report.summary.failed, 2);
  const outcome = (id) => report.cases.find((c) => c.id === id);
  assert.equal(outcome('translation_step').outcome, 'failed');
  assert.equal(outcome('rotation_linear').problem, 'the engine failed on this case: the engine fell over');
  assert.equal(outcome('translation_linear').outcome, 'passed');
  assert.equal(outcome('weights2_linear').outcome, 'not run');
  assert.equal(report.summary.notRun, suite.manifest.assets.filter((e) => e.id.startsWith('weights')).length);
  // The actual samples files are what the native compare reads, with the same report.
  const dir = mkdtempSync(join(tmpdir(), 'gltf-anim-conformance-'));
  try {
    const write = (folder, files) => {
      for (const [p, bytes] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, folder, p)), { recursive: true });
        writeFileSync(join(dir, folder, p), bytes);
      }
    };
    write('golden', suite.files);
    write('actual', result.actual);
    const expected = nativeJson(['compare', '--golden', 'golden', '--actual', 'actual', '--format', 'json'], dir);
    assert.deepEqual(report, expected);
    // A folder for the suite (Node), and a text report.
    const text = await gltfAnim.conformance({ suite: join(dir, 'golden'), cases: 'translation_*', format: 'text',
      sampler: (asset, animation, channel, times) => times.map(() => Array(channel.width).fill(0)) });
    assert.equal(text.exitCode, 1);
    assert.match(text.report, /^FAIL {2}translation_linear/m);
    assert.doesNotMatch(text.report, /rotation_linear/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A sampler that answers the wrong number of values is the caller's mistake: an error.
  await assert.rejects(gltfAnim.conformance({ suite, cases: 'translation_step', sampler: () => [[0, 0, 0]] }),
    /translation_step animation 0 \/nodes\/0\/translation: the sampler returned 1 values for 15 times/);
});

test('a missing file is named by the caller\'s path, not the in-memory file system\'s', async () => {
  const suite = await gltfAnim.generate();
  const manifest = suite.files['manifest.json'];
  // The manifest names samples files the caller did not give: their paths among the files.
  let e = await gltfAnim.compare({ golden: { 'manifest.json': manifest }, actual: {} }).catch((x) => x);
  assert.ok(e instanceof gltfAnim.GltfAnimError);
  assert.match(e.message, /^gltf-anim compare: valid\/\w+\.samples\.json: cannot read: No such file or directory$/);
  assert.doesNotMatch(e.stderr, /\/work|golden\//);
  // ... behind the folder they came from, when named.
  e = await gltfAnim.compare({ golden: { files: { 'manifest.json': manifest }, name: 'my-suite' }, actual: {} }).catch((x) => x);
  assert.match(e.message, /^gltf-anim compare: my-suite\/valid\/\w+\.samples\.json: cannot read/);
  // A manifest that is not among the files, by the name the caller gave.
  e = await gltfAnim.compare({ golden: suite, actual: {} }, { manifest: 'other.json' }).catch((x) => x);
  assert.equal(e.message, 'gltf-anim compare: other.json: cannot read: No such file or directory');
  // No golden file at all.
  e = await gltfAnim.compare({ golden: {}, actual: {} }).catch((x) => x);
  assert.equal(e.message, 'gltf-anim compare: no golden files given');
  // No actual file: every case not run (the folder exists), no error.
  const none = await gltfAnim.compare({ golden: suite, actual: {} });
  assert.equal(none.summary.notRun, suite.manifest.assets.length);
  // A suite folder that does not exist.
  e = await gltfAnim.conformance({ suite: join(tmpdir(), 'no-such-suite'), sampler: () => [] }).catch((x) => x);
  assert.equal(e.message, `gltf-anim: cannot read the folder '${join(tmpdir(), 'no-such-suite')}': No such file or directory`);
});

// A .glb whose binary chunk (96 MiB) cannot be read into 64 MiB of wasm memory.
function hugeGlb(mib = 96) {
  const chunk = mib * 1024 * 1024;
  const json = new TextEncoder().encode(JSON.stringify({ asset: { version: '2.0' }, buffers: [{ byteLength: chunk }] }));
  return glbBytes(json, chunk);
}

test('running out of memory is a clear error, and the next call works', async () => {
  const glb = hugeGlb();
  const report = await gltfAnim.validate(glb, { memoryLimitMb: 64 });
  const messages = report.reports[0].issues.messages;
  assert.deepEqual(messages.map((m) => m.code), ['INTERNAL_ERROR']);
  assert.match(messages[0].message, /out of memory/);
  // The same asset with room for it validates (a fresh instance per call).
  const ok = await gltfAnim.validate(glb);
  assert.ok(!ok.reports[0].issues.messages.some((m) => m.code === 'INTERNAL_ERROR'));
});

// A .glb of `keys` equal key times: keys - 1 ACCESSOR_ANIMATION_INPUT_NON_INCREASING errors.
function equalTimesGlb(keys) {
  const json = new TextEncoder().encode(JSON.stringify({
    asset: { version: '2.0' },
    nodes: [{}],
    buffers: [{ byteLength: keys * 16 }],
    bufferViews: [{ buffer: 0, byteLength: keys * 4 }, { buffer: 0, byteOffset: keys * 4, byteLength: keys * 12 }],
    accessors: [{ bufferView: 0, componentType: 5126, count: keys, type: 'SCALAR', min: [0], max: [0] },
      { bufferView: 1, componentType: 5126, count: keys, type: 'VEC3' }],
    animations: [{ samplers: [{ input: 0, output: 1 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
  }));
  return glbBytes(json, keys * 16);
}

test('parseReport: parsed in pieces or whole, the same object', () => {
  // Every invalid asset in one report (thousands of messages, some of their texts and
  // pointers holding the word "messages", brackets and escapes), parsed by JSON.parse.
  const r = runCli(NATIVE, ['validate', '--no-config', '--no-timings', '--format', 'json', 'invalid'],
    join(ROOT, 'conformance_assets'));
  assert.equal(r.status, 1, r.stderr.toString());
  const bytes = new Uint8Array(r.stdout);
  const whole = JSON.parse(r.stdout.toString());
  assert.ok(whole.reports.length > 100 && whole.reports.every((a) => Array.isArray(a.issues.messages)));
  assert.deepEqual(gltfAnim.parseReport(bytes, { split: true }), whole);
  // A messages key inside a string, an empty array, and messages at two depths.
  const odd = { note: 'the "messages": [1, 2] key', a: { messages: [] }, b: [{ messages: [{ code: 'X', message: ']}{"' }] }],
    messages: [{ code: 'Y', message: '\\"' }] };
  const oddBytes = new TextEncoder().encode(JSON.stringify(odd, null, 4));
  assert.deepEqual(gltfAnim.parseReport(oddBytes, { split: true }), odd);
});

test('validate: a report larger than a JavaScript string (a million issues) resolves whole', async () => {
  const ISSUES = 1_000_000;
  const report = await gltfAnim.validate(equalTimesGlb(ISSUES + 1), { maxIssues: 0, maxIssueMb: 0, timings: false });
  const issues = report.reports[0].issues;
  assert.equal(issues.numErrors, ISSUES);
  assert.equal(issues.messages.length, ISSUES);
  // Element k's message, from the code's template in the registry (`gltf-anim codes`).
  for (const k of [1, 500_000, ISSUES]) {
    const { code, message, severity, pointer } = issues.messages[k - 1];
    assert.deepEqual({ code, message, severity, pointer }, { code: 'ACCESSOR_ANIMATION_INPUT_NON_INCREASING',
      message: `Animation input accessor element at index ${k} is less than or equal to previous: 0 <= 0.`,
      severity: 0, pointer: '/animations/0/samplers/0/input' });
  }
  assert.equal(report.summary.numErrors, ISSUES);
});

// The repair tools: the native CLI run on the same files in a folder of their own, its
// --format json summary and every file it left there that was not given (or was changed).
function nativeRepair(files, args) {
  const dir = mkdtempSync(join(tmpdir(), 'gltf-anim-api-repair-'));
  try {
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    mkdirSync(join(dir, 'out'));
    const r = runCli(NATIVE, [...args, '--format', 'json'], dir);
    const written = {};
    const names = readdirSync(dir).flatMap((n) => (n === 'out' ? readdirSync(join(dir, n)).map((m) => `out/${m}`) : [n]));
    for (const name of names.sort()) {
      const bytes = new Uint8Array(readFileSync(join(dir, name)));
      if (!files[name] || !Buffer.from(files[name]).equals(Buffer.from(bytes))) written[name] = bytes;
    }
    return { exitCode: r.status, summary: JSON.parse(r.stdout.toString()), files: written, stderr: r.stderr.toString() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function sameRepair(got, want, what) {
  assert.equal(got.exitCode, want.exitCode, `${what}: exit code ${want.stderr}`);
  assert.deepEqual(got.summary, want.summary, `${what}: summary`);
  assert.deepEqual(Object.keys(got.files), Object.keys(want.files), `${what}: the files written`);
  for (const name of Object.keys(want.files)) {
    assert.ok(got.files[name] instanceof Uint8Array, `${what}: ${name} is a Uint8Array`);
    assert.ok(Buffer.from(got.files[name]).equals(Buffer.from(want.files[name])), `${what}: the bytes of ${name}`);
  }
}

const committedFiles = (dir, names) => Object.fromEntries(names.map((n) => [n, bytesOf(`${dir}/${n}`)]));
const CONTAINERS = ['gltf', 'data-uri', 'glb'];

test('fix: the native summary and files, committed assets and every container', async () => {
  const cases = [
    committedFiles('conformance_assets/valid', ['container_external_bin.gltf', 'container_external_bin.bin']),
    committedFiles('conformance_assets/invalid/lint', ['rotation_negative_dot.gltf']),
    committedFiles('conformance_assets/invalid/accessor', ['input_shared_non_increasing.gltf']),
    ...CONTAINERS.map((c) => repairAsset('walk', c, { broken: true })),
  ];
  for (const files of cases) {
    const name = Object.keys(files)[0];
    const out = name.replace(/\.(gltf|glb)$/, '.fixed.$1');
    const want = nativeRepair(files, ['fix', name, '-o', out]);
    assert.equal(want.exitCode, 0, want.stderr);
    assert.ok(want.files[out], `${name}: the native CLI wrote ${out}`);
    sameRepair(await gltfAnim.fix({ files }), want, name);
  }
  // One asset as bytes: named asset.glb by its magic, the output beside it.
  const glb = repairAsset('walk', 'glb', { broken: true })['walk.glb'];
  const want = nativeRepair({ 'asset.glb': glb }, ['fix', 'asset.glb', '-o', 'asset.fixed.glb']);
  sameRepair(await gltfAnim.fix(glb), want, 'fix(bytes)');
});

test('fix: only, dryRun, inPlace, force, output; exit code 1 resolves with nothing written', async () => {
  const files = repairAsset('walk', 'gltf', { broken: true });
  const cases = [
    [{ only: [], force: true, output: 'copy.gltf' }, ['--only', 'none', '--force', '-o', 'copy.gltf']],
    [{ only: 'none', force: true, output: 'copy.gltf' }, ['--only', 'none', '--force', '-o', 'copy.gltf']],
    [{ only: ['LINT_ROTATION_NEGATIVE_DOT', 'ACCESSOR_ANIMATION_INPUT_NON_INCREASING'], force: true },
      ['--only', 'LINT_ROTATION_NEGATIVE_DOT,ACCESSOR_ANIMATION_INPUT_NON_INCREASING', '--force', '-o', 'walk.fixed.gltf']],
    [{ only: 'LINT_ROTATION_NEGATIVE_DOT' }, ['--only', 'LINT_ROTATION_NEGATIVE_DOT', '-o', 'walk.fixed.gltf']],
    [{ dryRun: true }, ['--dry-run']],
    [{ inPlace: true }, ['--in-place']],
    [{ output: 'out/walk.gltf' }, ['-o', 'out/walk.gltf']],
  ];
  for (const [options, args] of cases) {
    sameRepair(await gltfAnim.fix({ files }, options), nativeRepair(files, ['fix', 'walk.gltf', ...args]),
      JSON.stringify(options));
  }
  // --only none: the input's bytes.
  const copy = await gltfAnim.fix({ files }, { only: 'none', force: true, output: 'copy.gltf' });
  assert.deepEqual(Object.keys(copy.files), ['copy.gltf']);
  assert.ok(Buffer.from(copy.files['copy.gltf']).equals(Buffer.from(files['walk.gltf'])));
  // Errors fix was not asked to repair: exit code 1, the reason, nothing written.
  const stopped = await gltfAnim.fix({ files }, { only: 'LINT_ROTATION_NEGATIVE_DOT' });
  assert.equal(stopped.exitCode, 1);
  assert.equal(stopped.summary.written, false);
  assert.match(stopped.summary.message, /ACCESSOR_ANIMATION_INPUT_NON_INCREASING/);
  assert.deepEqual(stopped.files, {});
  const inPlace = await gltfAnim.fix({ files }, { inPlace: true });
  assert.ok(Object.keys(inPlace.files).includes('walk.gltf'));
});

test('reduce, fit, migrate: the native summary and files', async () => {
  for (const container of CONTAINERS) {
    const files = repairAsset('walk', container);
    const name = Object.keys(files)[0];
    const out = (suffix) => name.replace(/\.(gltf|glb)$/, `.${suffix}.$1`);
    const reduced = await gltfAnim.reduce({ files }, { maxError: 1e-3, quantize: true });
    sameRepair(reduced, nativeRepair(files, ['reduce', name, '-o', out('reduced'), '--max-error', '1e-3',
      '--quantize']), `reduce ${container}`);
    assert.ok(reduced.summary.bytesAfter < reduced.summary.bytesBefore);
    sameRepair(await gltfAnim.reduce({ files }, { maxError: 2e-3, maxAngle: 1e-3, keepSharedTimes: true }),
      nativeRepair(files, ['reduce', name, '-o', out('reduced'), '--max-error', '2e-3', '--max-angle', '1e-3',
        '--keep-shared-times']), `reduce --keep-shared-times ${container}`);
    sameRepair(await gltfAnim.fit({ files }, { to: 'cubicslerp', maxError: 1e-3, fallback: false }),
      nativeRepair(files, ['fit', name, '-o', out('fitted'), '--to', 'cubicslerp', '--max-error', '1e-3',
        '--no-fallback']), `fit cubicslerp ${container}`);
    sameRepair(await gltfAnim.fit({ files }, { to: 'cubicspline', maxError: 1e-3, output: 'smooth.glb' }),
      nativeRepair(files, ['fit', name, '-o', 'smooth.glb', '--to', 'cubicspline', '--max-error', '1e-3']),
      `fit cubicspline ${container}`);
  }
  for (const [asset, to] of [['animation2_slerp.gltf', 'khr_animation_pointer'],
    ['pointer_float3_linear.gltf', 'khr_animation2']]) {
    const files = committedFiles('conformance_assets/valid', [asset]);
    const got = await gltfAnim.migrate({ files }, { to });
    sameRepair(got, nativeRepair(files, ['migrate', asset, '-o', asset.replace('.gltf', '.migrated.gltf'),
      '--to', to]), `migrate ${asset}`);
    assert.ok(got.summary.channels.some((c) => c.notes.some((n) => n.startsWith('migrated'))), asset);
  }
});

test('repair tools: a refusal and a bad option reject with GltfAnimError and the reason', async () => {
  const files = repairAsset('walk', 'gltf', { broken: true });
  const refused = (what) => (e) => {
    assert.equal(e.name, 'GltfAnimError', e.stack);
    assert.equal(e.exitCode, 2);
    assert.match(e.message, what);
    return true;
  };
  // The output is the input (or the buffer it reads): refused before any work, as natively.
  for (const output of ['walk.gltf', 'walk.bin']) {
    const want = nativeRepair(files, ['fix', 'walk.gltf', '-o', output]);
    assert.equal(want.exitCode, 2);
    await assert.rejects(gltfAnim.fix({ files }, { output }), (e) => {
      refused(/^gltf-anim fix: refusing to write/)(e);
      assert.equal(e.message, want.stderr.trim());
      assert.deepEqual(e.summary, want.summary);
      return true;
    });
  }
  await assert.rejects(gltfAnim.reduce({ files }, { maxError: -1, force: true }), refused(/--max-error/));
  await assert.rejects(gltfAnim.reduce({ files }, { force: true }), refused(/--max-error is required/));
  await assert.rejects(gltfAnim.fit({ files }, { maxError: 1e-3, to: 'bezier' }), refused(/--to must be/));
  await assert.rejects(gltfAnim.migrate({ files }, { to: 'KHR_nothing' }), refused(/--to must be/));
  await assert.rejects(gltfAnim.fix({ files }, { only: ['NO_SUCH_CODE'] }), refused(/NO_SUCH_CODE/));
  // Two assets among the files and none named: not guessed; named in paths, that one.
  const two = { ...files, ...repairAsset('other', 'glb', { broken: true }) };
  await assert.rejects(gltfAnim.fix({ files: two }), TypeError);
  const other = await gltfAnim.fix({ files: two, paths: ['other.glb'] });
  assert.deepEqual(Object.keys(other.files), ['other.fixed.glb']);
  assert.equal(other.summary.input, 'other.glb');
});

test('repair tools: running out of memory rejects with the CLI\'s message, and the next call works', async () => {
  // The four tools load their input through one pipeline: two of them cover it (a second
  // each on the CI machine).
  const glb = hugeGlb(64);
  for (const [tool, options] of [['fix', {}], ['reduce', { maxError: 1e-3 }]]) {
    await assert.rejects(gltfAnim[tool](glb, { ...options, memoryLimitMb: 64 }), (e) => {
      assert.equal(e.name, 'GltfAnimError');
      assert.equal(e.exitCode, 2);
      assert.equal(e.message, `gltf-anim ${tool}: out of memory (the run needs more memory than this process may allocate)`);
      return true;
    });
  }
  const files = repairAsset('walk', 'glb', { broken: true });
  const after = await gltfAnim.fix(files['walk.glb'], { memoryLimitMb: 64 });
  assert.equal(after.exitCode, 0);
  assert.deepEqual(Object.keys(after.files), ['asset.fixed.glb']);
});

test('session (the page\'s): commands run in one instance give the bytes of a fresh instance each; a refused run leaves no earlier output', async () => {
  const paths = ['conformance_assets/invalid/accessor/input_shared_non_increasing.gltf', 'conformance_assets/valid/rotation_linear.gltf',
    'conformance_assets/valid/translation_cubicspline.gltf'];
  const files = paths.map((p) => [basename(p), readFileSync(join(ROOT, p))]);
  const s = await gltfAnim.session(files);
  const OUT = '/gltf-anim-output/r';
  for (const [name] of files) {
    for (const args of [['validate', '--no-config', '--no-timings', '--format', 'json'], ['sample', '--rate', '60'], ['sample', '--keys'],
      ['validate', '--no-config', '--no-timings', '--format', 'sarif', '--enable', 'LINT_*']]) {
      const argv = [...args, '--output', OUT, '--', name];
      const one = s.run(argv, { read: [OUT] });
      const fresh = await gltfAnim.run(argv, { files, read: [OUT] });
      assert.equal(one.exitCode, fresh.exitCode, `${name}: ${args.join(' ')}`);
      assert.equal(one.stderr, fresh.stderr, `${name}: ${args.join(' ')}`);
      // The refused asset's `sample` writes nothing: not the report of the run before.
      assert.deepEqual(one.outputs[OUT] === undefined ? null : Buffer.from(one.outputs[OUT]),
        fresh.outputs[OUT] === undefined ? null : Buffer.from(fresh.outputs[OUT]), `${name}: ${args.join(' ')}`);
    }
  }
  assert.ok(s.memoryBytes() >= 32 * 1048576);
});
