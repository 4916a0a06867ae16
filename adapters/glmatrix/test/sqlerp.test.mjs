// The gl-matrix cross-check: the draft's segment bookkeeping around
// quat.sqlerp. Expected values by hand: about one axis every slerp is a lerp
// of angles, so sqlerp(A,B,C,D,s) is the angle
// lerp(lerp(θA, θD, s), lerp(θB, θC, s), 2s(1-s)).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateCubicSlerp } from '../lib/sqlerp.mjs';
import { sampleAsset } from '../sample.mjs';
import { golden, near, valuesOf, writeAsset, GltfBuilder } from '../../common/testlib/fixtures.mjs';

const zRot = (deg) => [0, 0, Math.sin((deg * Math.PI) / 360), Math.cos((deg * Math.PI) / 360)];
// keys at 1 s and 3 s: v 0 deg -> 90 deg, controls b_1 = 30 deg, a_2 = 60 deg.
const keys = [
  { t: 1, a: [0, 0, 0, 0], v: zRot(0), b: zRot(30) },
  { t: 3, a: zRot(60), v: zRot(90), b: [0, 0, 0, 0] },
];

test('sqlerp inside a segment about one axis: 28.125 degrees at a quarter', () => {
  // s = 0.25: lerp(22.5, 37.5, 0.375) = 28.125 degrees.
  near(assert, evaluateCubicSlerp(keys, 1.5), zRot(28.125), 1e-6, 's = 0.25');
  // s = 0.5: lerp(45, 45, 0.5) = 45 degrees.
  near(assert, evaluateCubicSlerp(keys, 2), zRot(45), 1e-6, 's = 0.5');
});

test('keys as they are at their exact time, clamped outside', () => {
  assert.deepEqual(evaluateCubicSlerp(keys, 1), zRot(0));
  assert.deepEqual(evaluateCubicSlerp(keys, 3), zRot(90));
  assert.deepEqual(evaluateCubicSlerp(keys, 0), zRot(0));
  assert.deepEqual(evaluateCubicSlerp(keys, 7), zRot(90));
});

test('an asset: only EXT_animation_sqlerp channels are evaluated, from their CUBICSLERP sampler', async () => {
  const b = new GltfBuilder();
  b.node({ name: 'n' });
  const f = (q) => q.map(Math.fround);
  b.animation('a', [
    { raw: { target: { node: 0, path: 'rotation' }, extensions: { EXT_animation_sqlerp: { sampler: 0 } } },
      times: [1, 3], type: 'VEC4', interpolation: 'CUBICSLERP',
      values: [...keys[0].a, ...keys[0].v, ...keys[0].b, ...keys[1].a, ...keys[1].v, ...keys[1].b] },
    { node: 0, path: 'translation', times: [0, 1], values: [0, 0, 0, 1, 1, 1] },
  ]);
  // The sqlerp channel's core sampler is the LINEAR fallback: sampler 2.
  const fallbackIn = b.accessor([1, 3], 'SCALAR');
  const fallbackOut = b.accessor([...f(zRot(0)), ...f(zRot(90))], 'VEC4');
  const again = b.build();
  again.animations[0].samplers.push({ input: fallbackIn, output: fallbackOut, interpolation: 'LINEAR' });
  again.animations[0].channels[0].sampler = 2;
  const a = writeAsset(again);
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [['/nodes/0/rotation', [1.5]], ['/nodes/0/translation', [0.5]]]));
    near(assert, valuesOf(file, '/nodes/0/rotation').get(1.5), zRot(28.125), 1e-6, 'CUBICSLERP, not the fallback');
    assert.equal(valuesOf(file, '/nodes/0/translation'), undefined);
    assert.ok(file.adapterNotes.some((n) => n.includes('outside the gl-matrix cross-check')));
  } finally {
    a.cleanup();
  }
});
