// The PlayCanvas adapter: GlbParser + AnimEvaluator values, mapped to glTF
// channels. Expected values are hand derivations from the keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleAsset } from '../sample.mjs';
import { GltfBuilder, golden, near, valuesOf, writeAsset } from '../../common/testlib/fixtures.mjs';

const S = Math.SQRT1_2;

test('translation and weights as the spec gives them; LINEAR rotation as PlayCanvas plays it (nlerp)', async () => {
  const b = new GltfBuilder();
  const mesh = b.mesh(1, 2);
  b.node({ name: 'n', mesh });
  b.animation('a', [
    { node: 0, path: 'translation', times: [0, 2], values: [0, 0, 0, 2, 4, 6] },
    { node: 0, path: 'rotation', times: [0, 1], values: [0, 0, 0, 1, 0, 0, S, S] },
    { node: 0, path: 'weights', times: [0, 1], values: [0, 1, 1, 0] },
  ]);
  const a = writeAsset(b.build());
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [
      ['/nodes/0/translation', [-1, 0.5, 3]], ['/nodes/0/rotation', [0.25, 0.5]], ['/nodes/0/weights', [0.25]]]));
    const tr = valuesOf(file, '/nodes/0/translation');
    near(assert, tr.get(-1), [0, 0, 0], 0, 'clamped before');
    near(assert, tr.get(0.5), [0.5, 1, 1.5], 1e-6, 'lerp');
    near(assert, tr.get(3), [2, 4, 6], 0, 'clamped after');
    near(assert, valuesOf(file, '/nodes/0/weights').get(0.25), [0.25, 0.75], 1e-6, 'weights lerp');
    // nlerp: normalize(0.75 (0,0,0,1) + 0.25 (0,0,S,S)) = (0, 0, 0.25 S, 0.75 + 0.25 S) / norm.
    const z = 0.25 * S, w = 0.75 + 0.25 * S, n = Math.hypot(z, w);
    near(assert, valuesOf(file, '/nodes/0/rotation').get(0.25), [0, 0, z / n, w / n], 1e-6, 'nlerp at a quarter');
    // Midpoint: nlerp and slerp agree (22.5 degrees).
    near(assert, valuesOf(file, '/nodes/0/rotation').get(0.5), [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)], 1e-6, 'midpoint');
  } finally {
    a.cleanup();
  }
});

test('a KHR_animation_pointer channel is not produced, with the reason', async () => {
  const b = new GltfBuilder();
  b.node({ name: 'n' });
  b.animation('a', [
    { raw: { target: { path: 'pointer', extensions: { KHR_animation_pointer: { pointer: '/nodes/0/translation' } } } },
      times: [0, 1], type: 'VEC3', values: [0, 0, 0, 1, 1, 1] },
  ]);
  const json = b.build();
  json.extensionsUsed = ['KHR_animation_pointer'];
  const a = writeAsset(json);
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [['/nodes/0/translation', [0.5]]]));
    assert.equal(valuesOf(file, '/nodes/0/translation'), undefined);
    assert.ok(file.adapterNotes.some((n) => /KHR_animation_pointer/.test(n)), file.adapterNotes.join('\n'));
  } finally {
    a.cleanup();
  }
});

test('an asset with a texture is sampled: the headless parser is given a registry for its images', async () => {
  // A 1x1 PNG on the mesh's material. Before, the parser's texture loading threw
  // inside a promise nobody could catch (no asset registry) and ended the run.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const b = new GltfBuilder();
  const mesh = b.mesh(1, 0);
  b.node({ name: 'n', mesh });
  b.animation('a', [{ node: 0, path: 'translation', times: [0, 2], values: [0, 0, 0, 2, 4, 6] }]);
  const json = b.build();
  json.images = [{ uri: `data:image/png;base64,${png}` }];
  json.textures = [{ source: 0 }];
  json.materials = [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }];
  json.meshes[mesh].primitives[0].material = 0;
  const a = writeAsset(json);
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [['/nodes/0/translation', [0.5]]]));
    // lerp at t = 0.5 of (0,0,0) -> (2,4,6) over [0, 2]: a quarter of the way.
    near(assert, valuesOf(file, '/nodes/0/translation').get(0.5), [0.5, 1, 1.5], 1e-6, 'lerp');
  } finally {
    a.cleanup();
  }
});
