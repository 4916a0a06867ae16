// The three.js + KHR_animation_pointer adapter: pointer tracks recorded per
// channel, bound as AnimationMixer binds them. Expected values by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleAsset } from '../sample.mjs';
import { GltfBuilder, golden, near, valuesOf, writeAsset } from '../../common/testlib/fixtures.mjs';

function materialAsset(channels) {
  const b = new GltfBuilder();
  const mesh = b.mesh(1, 0);
  b.node({ name: 'n', mesh });
  b.animation('a', channels);
  const json = b.build();
  json.materials = [{ name: 'm', emissiveFactor: [0, 0, 0] }];
  json.meshes[mesh].primitives[0].material = 0;
  json.extensionsUsed = ['KHR_animation_pointer'];
  return json;
}

test('a LINEAR pointer to emissiveFactor, and a core channel beside it', async () => {
  const a = writeAsset(materialAsset([
    { raw: { target: { path: 'pointer', extensions: { KHR_animation_pointer: { pointer: '/materials/0/emissiveFactor' } } } },
      times: [0, 2], type: 'VEC3', values: [0, 0, 0, 1, 0.5, 0.25] },
    { node: 0, path: 'translation', times: [0, 1], values: [0, 0, 0, 4, 0, 0] },
  ]));
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [
      ['/materials/0/emissiveFactor', [0.5, 3]], ['/nodes/0/translation', [0.25]]]));
    const e = valuesOf(file, '/materials/0/emissiveFactor');
    near(assert, e.get(0.5), [0.25, 0.125, 0.0625], 1e-7, 'a quarter of the way');
    near(assert, e.get(3), [1, 0.5, 0.25], 0, 'clamped after');
    near(assert, valuesOf(file, '/nodes/0/translation').get(0.25), [1, 0, 0], 1e-7, 'core channel');
  } finally {
    a.cleanup();
  }
});

test('a track that binds to nothing is reported as not produced, with the binding\'s reason', async () => {
  const a = writeAsset(materialAsset([
    { raw: { target: { path: 'pointer', extensions: { KHR_animation_pointer: { pointer: '/nodes/0/extras/level' } } } },
      times: [0, 1], type: 'SCALAR', values: [0, 1] },
  ]));
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [['/nodes/0/extras/level', [0.5]]]));
    assert.equal(valuesOf(file, '/nodes/0/extras/level'), undefined);
    assert.ok(file.adapterNotes.some((n) => n.includes('binds to nothing')), file.adapterNotes.join('\n'));
  } finally {
    a.cleanup();
  }
});

test('a CUBICSPLINE pointer track: what the binding applies is the interpolated in-tangent', async () => {
  // keys at 0 and 2 s, scalar emissive strength: [a, v, b] = [10, 1, 20], [30, 3, 40].
  // three + plugin interpolate [a, v, b] linearly and apply the first component:
  // at 0.5 s, 10 + 0.25 (30 - 10) = 15. (Appendix C.5 gives, with s = 0.25, t_d = 2:
  // 0.84375 * 1 + 0.140625 * 2 * 20 + 0.15625 * 3 - 0.046875 * 2 * 30 = 4.125.)
  const a = writeAsset(materialAsset([
    { raw: { target: { path: 'pointer', extensions: { KHR_animation_pointer: { pointer: '/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength' } } } },
      times: [0, 2], type: 'SCALAR', interpolation: 'CUBICSPLINE', values: [10, 1, 20, 30, 3, 40] },
  ]));
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [
      ['/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength', [0.5]]]));
    near(assert, valuesOf(file, '/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength').get(0.5), [15], 1e-6, 'in-tangent lerp');
    assert.ok(file.adapterNotes.some((n) => n.includes('no cubic-spline interpolant')));
  } finally {
    a.cleanup();
  }
});
