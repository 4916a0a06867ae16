// The Babylon.js adapter: values of Babylon's own Animation.evaluate at
// frame = t x 60, mapped back to glTF components. Expected values are hand
// derivations from the keys (glTF Appendix C), never Babylon's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleAsset } from '../sample.mjs';
import { componentMap } from '../lib/channels.mjs';
import { GltfBuilder, golden, near, valuesOf, writeAsset } from '../../common/testlib/fixtures.mjs';

const S = Math.SQRT1_2;

test('LINEAR translation, slerped rotation, STEP scale, clamped outside the keys', async () => {
  const b = new GltfBuilder();
  const mesh = b.mesh(1, 0);
  b.node({ name: 'n', mesh });
  b.animation('a', [
    { node: 0, path: 'translation', times: [0, 2], values: [0, 0, 0, 2, 4, 6] },
    { node: 0, path: 'rotation', times: [0, 2], values: [0, 0, 0, 1, 0, 0, S, S] },
    { node: 0, path: 'scale', times: [0, 1, 2], values: [1, 1, 1, 2, 2, 2, 3, 3, 3], interpolation: 'STEP' },
  ]);
  const a = writeAsset(b.build());
  try {
    const times = [-1, 0, 0.5, 1, 1.5, 2, 3];
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [
      ['/nodes/0/translation', times], ['/nodes/0/rotation', times], ['/nodes/0/scale', times]]));
    const tr = valuesOf(file, '/nodes/0/translation');
    near(assert, tr.get(-1), [0, 0, 0], 0, 'before the first key');
    near(assert, tr.get(0.5), [0.5, 1, 1.5], 1e-6, 'a quarter of the segment');
    near(assert, tr.get(3), [2, 4, 6], 0, 'after the last key');
    // 90 degrees about z over 2 s: at 0.5 s 22.5 degrees, (0, 0, sin 11.25, cos 11.25).
    const q = valuesOf(file, '/nodes/0/rotation').get(0.5);
    near(assert, q, [0, 0, Math.sin(Math.PI / 16), Math.cos(Math.PI / 16)], 1e-6, 'slerp');
    const sc = valuesOf(file, '/nodes/0/scale');
    near(assert, sc.get(0.5), [1, 1, 1], 0, 'STEP holds the previous key');
    near(assert, sc.get(1), [2, 2, 2], 0, 'STEP at an exact key time gives that key');
  } finally {
    a.cleanup();
  }
});

test('a CUBICSPLINE channel ending before its animation: Babylon\'s copied end key keeps the out-tangent', async () => {
  // translation CUBICSPLINE keys at 0 and 1 s (last key: in-tangent (0,1,0),
  // value (1,0,0), out-tangent (2,0,0)); a LINEAR scale channel makes the
  // animation 2 s long. The spec holds (1,0,0) after 1 s; Babylon's
  // AnimationGroup.normalize copies the last key with its tangents to 2 s, so
  // at 1.25 s it evaluates v + (s^3-2s^2+s) b + (s^3-s^2) a with s = 0.25:
  // (1,0,0) + 0.140625 (2,0,0) - 0.046875 (0,1,0) = (1.28125, -0.046875, 0).
  const b = new GltfBuilder();
  b.node({ name: 'n' });
  b.animation('a', [
    { node: 0, path: 'translation', times: [0, 1], interpolation: 'CUBICSPLINE',
      values: [0, 0, 0, 0, 0, 0, 1, 1, 0, /* key 1 */ 0, 1, 0, 1, 0, 0, 2, 0, 0] },
    { node: 0, path: 'scale', times: [0, 2], values: [1, 1, 1, 1, 1, 1] },
  ]);
  const a = writeAsset(b.build());
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [['/nodes/0/translation', [1, 1.25, 2]]]));
    const tr = valuesOf(file, '/nodes/0/translation');
    near(assert, tr.get(1), [1, 0, 0], 1e-7, 'at the last key');
    near(assert, tr.get(1.25), [1.28125, -0.046875, 0], 1e-6, 'inside the copied segment');
    near(assert, tr.get(2), [1, 0, 0], 1e-7, 'at the copy');
  } finally {
    a.cleanup();
  }
});

test('componentMap inverts the loader\'s conversions: negation, doubling, a component taken from the middle', () => {
  const negated = { getStride: () => 1, getValue: (_t, src, off, scale) => -src[off] * scale };
  assert.deepEqual(componentMap(negated, {}), { stride: 1, map: [{ k: 0, f: -1 }] });
  const doubled = { getStride: () => 1, getValue: (_t, src, off, scale) => src[off] * scale * 2 };
  assert.deepEqual(componentMap(doubled, {}), { stride: 1, map: [{ k: 0, f: 2 }] });
  const alpha = { getStride: () => 4, getValue: (_t, src, off, scale) => src[off + 3] * scale };
  assert.deepEqual(componentMap(alpha, {}), { stride: 4, map: [{ k: 3, f: 1 }] });
});

test('an asset Babylon refuses is a result with its reason, not an adapter error', async () => {
  const b = new GltfBuilder();
  b.node({ name: 'n' });
  const json = b.build();
  json.extensionsUsed = ['EXT_not_a_real_extension'];
  json.extensionsRequired = ['EXT_not_a_real_extension'];
  const a = writeAsset(json);
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', []));
    assert.equal(file.animations.length, 0);
    assert.match(file.adapterNotes[0], /refused the asset: .*EXT_not_a_real_extension/);
  } finally {
    a.cleanup();
  }
});
