// The luma.gl adapter: values of luma.gl's GLTFAnimator (clip.applyTime) read back from the
// scenegraph nodes it writes. Expected values are hand derivations from the keys (glTF
// Appendix C), never luma.gl's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleAsset } from '../sample.mjs';
import { GltfBuilder, golden, near, valuesOf, writeAsset } from '../../common/testlib/fixtures.mjs';

const S = Math.SQRT1_2;

test('LINEAR translation, slerped rotation, STEP scale; played once, the last value after the end', async () => {
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
    const times = [0, 0.5, 1, 1.5, 2.5];
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [
      ['/nodes/0/translation', times], ['/nodes/0/rotation', times], ['/nodes/0/scale', times]]));
    const tr = valuesOf(file, '/nodes/0/translation');
    near(assert, tr.get(0.5), [0.5, 1, 1.5], 1e-6, 'a quarter of the segment');
    near(assert, tr.get(2.5), [2, 4, 6], 1e-6, 'after the end: the last key (the adapter plays once)');
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

test('a material channel is left out with the reason (not observable without a GPU device)', async () => {
  const b = new GltfBuilder();
  b.node({ name: 'n' });
  b.animation('a', [{ node: 0, path: 'translation', times: [0, 1], values: [0, 0, 0, 1, 1, 1] }]);
  const json = b.build();
  json.materials = [{ pbrMetallicRoughness: { metallicFactor: 1 } }];
  json.extensionsUsed = ['KHR_animation_pointer'];
  json.animations[0].channels.push({ sampler: 0, target: { path: 'pointer',
    extensions: { KHR_animation_pointer: { pointer: '/materials/0/pbrMetallicRoughness/metallicFactor' } } } });
  const a = writeAsset(json);
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [['/nodes/0/translation', [0.5]]]));
    near(assert, valuesOf(file, '/nodes/0/translation').get(0.5), [0.5, 0.5, 0.5], 1e-6, 'the node channel plays');
  } finally {
    a.cleanup();
  }
});
