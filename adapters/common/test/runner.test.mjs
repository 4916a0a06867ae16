// The shared adapter core: targets, samples at the golden times, confinement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildSamplesFile, channelTarget, readConfined, selectJobs } from '../runner.mjs';
import { writeAsset } from '../testlib/fixtures.mjs';

test('channelTarget: node paths and KHR_animation_pointer pointers, nothing for a channel without target', () => {
  assert.equal(channelTarget({ target: { node: 3, path: 'rotation' } }), '/nodes/3/rotation');
  assert.equal(channelTarget({ target: { path: 'pointer', extensions: { KHR_animation_pointer: { pointer: '/materials/0/emissiveFactor' } } } }),
    '/materials/0/emissiveFactor');
  assert.equal(channelTarget({ targetpointer: '/nodes/0/rotation' }), undefined);
});

test('buildSamplesFile: values at exactly the golden times, missing channels absent with their reason', () => {
  const json = { animations: [{ name: 'a', channels: [
    { sampler: 0, target: { node: 0, path: 'translation' } },
    { sampler: 1, target: { node: 1, path: 'scale' } }] }] };
  const golden = { animations: [{ index: 0, channels: [
    { index: 0, target: '/nodes/0/translation', times: [-0.5, 0.1, 0.30000000000000004] },
    { index: 1, target: '/nodes/1/scale', times: [0] }] }] };
  const seen = [];
  const { file, log } = buildSamplesFile({ assetName: 'x.gltf', generator: 'g', json, golden,
    evaluatorOf: (a, c) => (c === 0 ? { evaluate: (t) => { seen.push(t); return [t, 2 * t, 3]; } } : { missing: 'engine has no scale' }) });
  assert.deepEqual(seen, [-0.5, 0.1, 0.30000000000000004]);
  assert.equal(file.animations[0].channels.length, 1);
  assert.deepEqual(file.animations[0].channels[0].samples.map((s) => s.value), [[-0.5, -1, 3], [0.1, 0.2, 3], [0.30000000000000004, 0.6000000000000001, 3]]);
  assert.ok(file.adapterNotes.some((n) => n.includes('/nodes/1/scale') && n.includes('engine has no scale')));
  assert.equal(log.length, 1);
});

test('readConfined refuses a file outside the suite folder, also through a symbolic link', () => {
  const a = writeAsset({ asset: { version: '2.0' } });
  const b = writeAsset({ asset: { version: '2.0' } });
  try {
    assert.throws(() => readConfined(a.dir, b.file), /outside/);
    fs.symlinkSync(b.file, path.join(a.dir, 'link.gltf'));
    assert.throws(() => readConfined(a.dir, path.join(a.dir, 'link.gltf')), /outside/);
    assert.ok(readConfined(a.dir, a.file).length > 0);
  } finally {
    a.cleanup();
    b.cleanup();
  }
});

test('selectJobs: manifest ids, else an existing file, else an error', () => {
  const manifest = { assets: [{ id: 'x', file: 'valid/x.gltf', samples: 'valid/x.samples.json' }] };
  const [job] = selectJobs(manifest, '/suite', '/gold', ['x']);
  assert.deepEqual(job, { id: 'x', asset: '/suite/valid/x.gltf', samples: '/gold/valid/x.samples.json', rel: 'valid/x.samples.json' });
  assert.throws(() => selectJobs(manifest, '/suite', '/gold', ['nope']), /neither a manifest id nor a file/);
});
