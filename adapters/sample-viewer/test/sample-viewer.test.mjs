// The glTF Sample Viewer adapter: the viewer's own object model and
// gltfAnimation.advance, played once. Expected values by hand from the keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleAsset } from '../sample.mjs';
import { GltfBuilder, golden, near, valuesOf, writeAsset } from '../../common/testlib/fixtures.mjs';

test('LINEAR held after the last key (played once, not looped); STEP as the viewer computes it', async () => {
  const b = new GltfBuilder();
  b.node({ name: 'n' });
  b.animation('a', [
    { node: 0, path: 'translation', times: [0, 2], values: [0, 0, 0, 2, 4, 6] },
    { node: 0, path: 'scale', times: [0, 1, 2], values: [1, 1, 1, 2, 2, 2, 3, 3, 3], interpolation: 'STEP' },
  ]);
  const a = writeAsset(b.build());
  try {
    const times = [-1, 0.5, 1, 1.5, 2, 3];
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [['/nodes/0/translation', times], ['/nodes/0/scale', times]]));
    const tr = valuesOf(file, '/nodes/0/translation');
    near(assert, tr.get(-1), [0, 0, 0], 0, 'before the first key');
    near(assert, tr.get(0.5), [0.5, 1, 1.5], 1e-6, 'lerp');
    near(assert, tr.get(2), [2, 4, 6], 0, 'at the last key (a looping player would show the first)');
    near(assert, tr.get(3), [2, 4, 6], 0, 'after the last key');
    const sc = valuesOf(file, '/nodes/0/scale');
    near(assert, sc.get(1.5), [2, 2, 2], 0, 'STEP between keys 1 and 2');
    // The viewer's interpolate takes prevKey = (first i with t <= t_i) - 1: at
    // t = 1 that is key 0; at and after t = 2, key 1 (the spec: 2 and 3).
    near(assert, sc.get(1), [1, 1, 1], 0, 'STEP at an exact key time: the viewer gives the previous key');
    near(assert, sc.get(3), [2, 2, 2], 0, 'STEP after the last key: the viewer gives the key before it');
  } finally {
    a.cleanup();
  }
});

test('a pointer the viewer cannot animate is not produced, with the reason', async () => {
  const b = new GltfBuilder();
  b.node({ name: 'n', extras: { level: 0 } });
  b.animation('a', [
    { raw: { target: { path: 'pointer', extensions: { KHR_animation_pointer: { pointer: '/nodes/0/extras/level' } } } },
      times: [0, 1], type: 'SCALAR', values: [0, 1] },
  ]);
  const a = writeAsset(b.build());
  try {
    const { file } = await sampleAsset(a.file, a.dir, golden('asset.gltf', [['/nodes/0/extras/level', [0.5]]]));
    assert.equal(valuesOf(file, '/nodes/0/extras/level'), undefined);
    assert.ok(file.adapterNotes.some((n) => n.includes('no animatable property')), file.adapterNotes.join('\n'));
  } finally {
    a.cleanup();
  }
});
