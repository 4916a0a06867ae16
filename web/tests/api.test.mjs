// The npm package's ES module API, installed from the tarball: each answer is the object the
// native CLI writes for the same files (parsed), and the failures are the CLI's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';

import { NATIVE, ROOT, filesUnder, installPackage, runCli } from './helpers.mjs';

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

// Values within 4 ulps: a rotation's slerp calls sin/cos/acos, and emscripten's libm (musl)
// may round the last bit differently from glibc's; everything else is exact.
function closeTo(got, want, path = '') {
  if (typeof want === 'number') {
    assert.ok(Math.abs(got - want) <= 4 * Number.EPSILON * Math.max(1, Math.abs(want)), `${path}: ${got} vs ${want}`);
  } else if (want && typeof want === 'object') {
    assert.equal(Array.isArray(got), Array.isArray(want), path);
    assert.deepEqual(Object.keys(got), Object.keys(want), path);
    for (const k of Object.keys(want)) closeTo(got[k], want[k], `${path}/${k}`);
  } else {
    assert.equal(got, want, path);
  }
}

test('sample(bytes): the native samples file', async () => {
  for (const asset of ['conformance_assets/valid/rotation_linear.gltf',
    'conformance_assets/valid/container_glb.glb']) {
    const name = basename(asset);
    const expected = nativeJson(['sample', '--threads', '1', '--rate', '10', name], join(ROOT, dirname(asset)));
    closeTo(await gltfAnim.sample(bytesOf(asset), { name, rate: 10 }), expected, asset);
  }
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

test('running out of memory is a clear error, and the next call works', async () => {
  // A .glb whose 96 MiB binary chunk cannot be read into 64 MiB of wasm memory.
  const chunk = 96 * 1024 * 1024;
  const json = new TextEncoder().encode(JSON.stringify({
    asset: { version: '2.0' },
    buffers: [{ byteLength: chunk }],
  }).padEnd(64, ' '));
  const glb = new Uint8Array(12 + 8 + json.length + 8 + chunk);
  const view = new DataView(glb.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, glb.length, true);
  view.setUint32(12, json.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  glb.set(json, 20);
  view.setUint32(20 + json.length, chunk, true);
  view.setUint32(24 + json.length, 0x004e4942, true);
  const report = await gltfAnim.validate(glb, { memoryLimitMb: 64 });
  const messages = report.reports[0].issues.messages;
  assert.deepEqual(messages.map((m) => m.code), ['INTERNAL_ERROR']);
  assert.match(messages[0].message, /out of memory/);
  // The same asset with room for it validates (a fresh instance per call).
  const ok = await gltfAnim.validate(glb);
  assert.ok(!ok.reports[0].issues.messages.some((m) => m.code === 'INTERNAL_ERROR'));
});
