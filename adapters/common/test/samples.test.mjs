// The samples writer: shape, and numbers that read back to the same double
// (JSON.stringify prints the shortest decimal that round-trips). When
// GLTF_ANIM_CLI is set (CTest sets it), gltf-anim's own reader reads the file too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatSamplesJson, goldenTimes } from '../samples.mjs';

const HARD = [
  0.1, 1 / 3, 2 / 3, Math.PI, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
  Math.fround(0.7071067811865476), Math.fround(1 / 3), 1e21, 1e-7, 123456789012345680000,
  -0.5000152587890625, 0.30000000000000004, -1.000030517578125, 9007199254740993,
];

function file(values) {
  return {
    asset: 'x "quoted" \\ asset.gltf',
    generator: 'test',
    animations: [{
      index: 2, name: 'ä/é',
      channels: [
        { index: 1, target: '/nodes/7/translation', interpolation: 'LINEAR', sampler: 3,
          samples: values.map((v, i) => ({ t: i / 7, value: [v, -v, 0] })) },
        { index: 0, target: '/nodes/7/weights', samples: [{ t: -0.5, value: [1] }] },
      ],
    }],
  };
}

test('every double reads back bit-identical', () => {
  const text = formatSamplesJson(file(HARD));
  const doc = JSON.parse(text);
  const samples = doc.animations[0].channels[0].samples;
  HARD.forEach((v, i) => {
    assert.ok(Object.is(samples[i].value[0], v), `${v} came back as ${samples[i].value[0]}`);
    assert.ok(Object.is(samples[i].value[1], -v));
    assert.ok(Object.is(samples[i].t, i / 7));
  });
});

test('shape: members, optional interpolation and sampler, escaping', () => {
  const doc = JSON.parse(formatSamplesJson(file([1])));
  assert.equal(doc.asset, 'x "quoted" \\ asset.gltf');
  assert.equal(doc.generator, 'test');
  assert.equal(doc.adapterNotes, undefined);
  const [a] = doc.animations;
  assert.deepEqual([a.index, a.name], [2, 'ä/é']);
  assert.deepEqual(a.channels[0], {
    index: 1, target: '/nodes/7/translation', interpolation: 'LINEAR', sampler: 3,
    samples: [{ t: 0, value: [1, -1, 0] }],
  });
  assert.deepEqual(a.channels[1], { index: 0, target: '/nodes/7/weights', samples: [{ t: -0.5, value: [1] }] });
  const noted = JSON.parse(formatSamplesJson({ ...file([1]), adapterNotes: ['a', 'b'] }));
  assert.deepEqual(noted.adapterNotes, ['a', 'b']);
});

test('non-finite values become null, -0 becomes 0', () => {
  const doc = JSON.parse(formatSamplesJson(file([NaN, Infinity, -0])));
  const v = doc.animations[0].channels[0].samples.map((s) => s.value[0]);
  assert.deepEqual(v, [null, null, 0]);
});

test('goldenTimes reads the times per channel', () => {
  const g = goldenTimes(formatSamplesJson(file(HARD)));
  assert.equal(g.animations[0].index, 2);
  assert.deepEqual(g.animations[0].channels.map((c) => c.target), ['/nodes/7/translation', '/nodes/7/weights']);
  assert.deepEqual(g.animations[0].channels[0].times, HARD.map((_, i) => i / 7));
  assert.deepEqual(g.animations[0].channels[1].times, [-0.5]);
  assert.throws(() => goldenTimes('{"asset": "a"}'), /animations/);
});

const cli = process.env.GLTF_ANIM_CLI;
test('gltf-anim reads the file and finds every value equal to itself', { skip: cli ? false : 'GLTF_ANIM_CLI not set' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'threejs-samples-'));
  try {
    const f = path.join(dir, 'a.samples.json');
    fs.writeFileSync(f, formatSamplesJson(file(HARD)));
    const out = execFileSync(cli, ['compare', '--golden', f, '--actual', f, '--format', 'json',
      '--tolerance', '0', '--angle-tolerance', '0'], { encoding: 'utf8' });
    const r = JSON.parse(out);
    assert.equal(r.cases.length, 1);
    assert.equal(r.cases[0].passed, true);
    const compared = r.cases[0].channels.reduce((s, c) => s + c.compared, 0);
    assert.equal(compared, HARD.length + 1);
    // null (NaN) is read back and fails the comparison (exit 1), it is not a format error (exit 2).
    const g = path.join(dir, 'nan.samples.json');
    fs.writeFileSync(g, formatSamplesJson(file([NaN])));
    const res = spawnSync(cli, ['compare', '--golden', f, '--actual', g], { encoding: 'utf8' });
    assert.equal(res.status, 1, res.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every golden file of the suite, re-written by the adapter, is read by gltf-anim as identical', { skip: cli ? false : 'GLTF_ANIM_CLI not set' }, () => {
  const suite = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '../../../conformance_assets');
  const manifest = JSON.parse(fs.readFileSync(path.join(suite, 'manifest.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'threejs-rewrite-'));
  try {
    let n = 0;
    for (const e of manifest.assets) {
      if (!e.samples) continue;
      const doc = JSON.parse(fs.readFileSync(path.join(suite, e.samples), 'utf8'));
      const text = formatSamplesJson(doc);
      // JS reads its own output back to the same doubles...
      const again = JSON.parse(text);
      doc.animations.forEach((a, i) => a.channels.forEach((c, j) => c.samples.forEach((s, k) => {
        const r = again.animations[i].channels[j].samples[k];
        assert.ok(Object.is(r.t, s.t));
        s.value.forEach((v, m) => assert.ok(Object.is(r.value[m], v) || (v === 0 && r.value[m] === 0)));
      })));
      const out = path.join(dir, e.samples);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, text);
      n++;
    }
    // ...and so does gltf-anim (C++ from_chars): zero error on every sample.
    const res = spawnSync(cli, ['compare', '--golden', suite, '--actual', dir, '--format', 'json',
      '--tolerance', '0', '--angle-tolerance', '0'], { encoding: 'utf8' });
    assert.equal(res.status, 0, res.stdout.slice(0, 2000) + res.stderr);
    const r = JSON.parse(res.stdout);
    assert.equal(r.cases.length, n);
    assert.ok(r.cases.every((c) => c.passed));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
