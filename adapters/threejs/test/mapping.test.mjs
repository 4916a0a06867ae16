// Track name -> glTF node index mapping, checked on glTF documents built here
// whose expected indices are known by construction: every channel's values
// start with the index of the node it animates, so a channel mapped to the
// wrong node shows up as a wrong value, not only as a wrong label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GltfBuilder } from '../testlib/gltf-builder.mjs';
import { parseGltf } from '../lib/load.mjs';
import { mapClip, nodeIndexOf, sampleTrack } from '../lib/mapping.mjs';
import { sampleAsset } from '../sample.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// translation/scale of node n: (n, 0, 0) at t=0 -> (n, 10, 0) at t=1.
function vec(n) {
  return [n, 0, 0, n, 10, 0];
}

function suite() {
  const b = new GltfBuilder();
  const single = b.mesh(1, 0);
  const morph = b.mesh(2, 2); // two primitives, two morph targets
  b.node({});                                        // 0: unnamed, no mesh -> track named by uuid
  b.node({ name: 'a b.c', mesh: single });           // 1: sanitized to "a_bc"
  b.node({ name: 'dup', mesh: single, children: [5] }); // 2: "dup"
  b.node({ name: 'dup', mesh: single });             // 3: "dup_1"
  b.node({ name: 'morph', mesh: morph });            // 4: Group with two Mesh children
  b.node({ name: 'child' }, { root: false });        // 5: child of 2, no mesh (Object3D)
  b.node({ mesh: single });                          // 6: unnamed, shared mesh -> "mesh_0_instance_N"
  // Channels deliberately not in node order.
  b.animation('mixed', [
    { node: 4, path: 'weights', times: [0, 1], values: [4, 0, 4, 1] },
    { node: 1, path: 'rotation', times: [0, 1], values: [0, 0, 0, 1, 0, 0, 1, 0] },
    { node: 0, path: 'translation', times: [0, 1], values: vec(0) },
    { node: 3, path: 'translation', times: [0, 1], values: vec(3) },
    { node: 5, path: 'translation', times: [0, 1], values: vec(5) },
    { node: 2, path: 'scale', times: [0, 1], values: vec(2) },
    { node: 6, path: 'translation', times: [0, 1], values: vec(6) },
    { raw: { target: { path: 'pointer', extensions: { KHR_animation_pointer: { pointer: '/nodes/1/scale' } } } },
      times: [0, 1], values: [1, 2, 3, 4, 5, 6], type: 'VEC3' },
  ]);
  b.animation('second', [{ node: 3, path: 'scale', times: [0, 2], values: vec(3) }]);
  const json = b.build();
  json.extensionsUsed = ['KHR_animation_pointer'];
  return json;
}

test('every track maps to the node index it was created for', async () => {
  const gltf = await parseGltf(JSON.stringify(suite()));
  const { targets, unmapped } = mapClip(gltf.animations[0], gltf.scene, gltf.parser.associations);
  assert.deepEqual(unmapped, []);
  const byTarget = Object.fromEntries(targets.map((t) => [t.target, t]));
  assert.deepEqual(Object.keys(byTarget).sort(), [
    '/nodes/0/translation', '/nodes/1/rotation', '/nodes/2/scale',
    '/nodes/3/translation', '/nodes/4/weights', '/nodes/5/translation', '/nodes/6/translation',
  ]);
  // The values say which node each track really came from.
  for (const n of [0, 3, 5, 6]) {
    assert.deepEqual(sampleTrack(byTarget[`/nodes/${n}/translation`].tracks[0], [0.5]), [[n, 5, 0]]);
  }
  assert.deepEqual(sampleTrack(byTarget['/nodes/2/scale'].tracks[0], [0.5]), [[2, 5, 0]]);
  // Node 0 has no name: three names its track by the object's uuid.
  const t0 = byTarget['/nodes/0/translation'].tracks[0].name;
  assert.match(t0, /^[0-9a-f-]{36}\.position$/);
  // Node 6 has no name but a mesh used by several nodes: three names the
  // node's Mesh clone after the mesh ("mesh_0_instance_N").
  assert.match(byTarget['/nodes/6/translation'].tracks[0].name, /^mesh_0_instance_\d+\.position$/);
  // "a b.c" is sanitized by three (PropertyBinding.sanitizeNodeName) to "a_bc".
  assert.equal(byTarget['/nodes/1/rotation'].tracks[0].name, 'a_bc.quaternion');
  // Duplicate names: the second "dup" becomes "dup_1".
  assert.equal(byTarget['/nodes/3/translation'].tracks[0].name, 'dup_1.position');
  // Weights of a two-primitive mesh: one track per primitive Mesh, same values.
  const w = byTarget['/nodes/4/weights'].tracks;
  assert.equal(w.length, 2);
  assert.deepEqual(sampleTrack(w[0], [0.5]), [[4, 0.5]]);
  assert.deepEqual(sampleTrack(w[1], [0.5]), [[4, 0.5]]);
});

test('nodeIndexOf walks up from a primitive Mesh to its node', async () => {
  const gltf = await parseGltf(JSON.stringify(suite()));
  const group = gltf.scene.getObjectByName('morph');
  assert.equal(nodeIndexOf(group, gltf.parser.associations), 4);
  assert.equal(group.children.length, 2);
  for (const mesh of group.children) {
    assert.equal(gltf.parser.associations.get(mesh).nodes, undefined);
    assert.equal(nodeIndexOf(mesh, gltf.parser.associations), 4);
  }
});

test('sampleAsset writes glTF channel indices, pointers and skips what three skips', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'threejs-adapter-'));
  try {
    const file = path.join(dir, 'mixed.gltf');
    fs.writeFileSync(file, JSON.stringify(suite()));
    const golden = {
      asset: 'mixed.gltf',
      animations: [
        { index: 0, channels: [
          '/nodes/4/weights', '/nodes/1/rotation', '/nodes/0/translation', '/nodes/3/translation',
          '/nodes/5/translation', '/nodes/2/scale', '/nodes/6/translation', '/nodes/1/scale',
        ].map((target, index) => ({ index, target, times: [-1, 0, 0.25, 1, 2] })) },
        { index: 1, channels: [{ index: 0, target: '/nodes/3/scale', times: [1] }] },
      ],
    };
    const { file: out } = await sampleAsset(file, dir, golden);
    assert.equal(out.asset, 'mixed.gltf');
    assert.deepEqual(out.animations.map((a) => [a.index, a.name]), [[0, 'mixed'], [1, 'second']]);
    const chans = out.animations[0].channels;
    // Sorted by glTF channel index; channel 7 (KHR_animation_pointer) is absent.
    assert.deepEqual(chans.map((c) => [c.index, c.target, c.sampler, c.interpolation]), [
      [0, '/nodes/4/weights', 0, 'LINEAR'],
      [1, '/nodes/1/rotation', 1, 'LINEAR'],
      [2, '/nodes/0/translation', 2, 'LINEAR'],
      [3, '/nodes/3/translation', 3, 'LINEAR'],
      [4, '/nodes/5/translation', 4, 'LINEAR'],
      [5, '/nodes/2/scale', 5, 'LINEAR'],
      [6, '/nodes/6/translation', 6, 'LINEAR'],
    ]);
    assert.ok(out.adapterNotes.some((n) => /channel 7: not produced by three: .*KHR_animation_pointer \/nodes\/1\/scale/.test(n)));
    // Clamped before the first and after the last key; values at the golden times.
    assert.deepEqual(chans[3].samples.map((s) => s.t), [-1, 0, 0.25, 1, 2]);
    assert.deepEqual(chans[3].samples.map((s) => s.value), [[3, 0, 0], [3, 0, 0], [3, 2.5, 0], [3, 10, 0], [3, 10, 0]]);
    assert.deepEqual(out.animations[1].channels[0].samples, [{ t: 1, value: [3, 5, 0] }]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('names that collide after three renames them bind to one node, as AnimationMixer would', async () => {
  // glTF names "dup", "dup", "dup_1": three's createUniqueName renames the second
  // to "dup_1", which the third keeps, so two objects are named "dup_1" and
  // PropertyBinding.findNode finds node 1 for both tracks.
  const b = new GltfBuilder();
  const m = b.mesh();
  for (const name of ['dup', 'dup', 'dup_1']) b.node({ name, mesh: m });
  b.animation('a', [0, 1, 2].map((n) => ({ node: n, path: 'translation', times: [0, 1], values: vec(n) })));
  const json = b.build();
  const gltf = await parseGltf(JSON.stringify(json));
  const { targets } = mapClip(gltf.animations[0], gltf.scene, gltf.parser.associations);
  assert.deepEqual(targets.map((t) => [t.target, t.tracks.map((x) => x.name)]), [
    ['/nodes/0/translation', ['dup.position']],
    ['/nodes/1/translation', ['dup_1.position', 'dup_1.position']],
  ]);
});

test('tracks of objects outside the scene or of non-node properties are reported, not guessed', async () => {
  const gltf = await parseGltf(JSON.stringify(suite()));
  const clip = gltf.animations[0].clone();
  const [first] = clip.tracks;
  const ghost = first.clone();
  ghost.name = 'nobody.position';
  const material = first.clone();
  material.name = 'morph.material.opacity';
  clip.tracks = [ghost, material];
  const { targets, unmapped } = mapClip(clip, gltf.scene, gltf.parser.associations);
  assert.deepEqual(targets, []);
  assert.equal(unmapped.length, 2);
  assert.match(unmapped[0].reason, /no object named nobody/);
  assert.match(unmapped[1].reason, /not a glTF node property/);
});

test('an asset without a scene: tracks are reported unbound, not guessed', async () => {
  const b = new GltfBuilder();
  b.node({ name: 'n' });
  b.animation('a', [{ node: 0, path: 'translation', times: [0, 1], values: vec(0) }]);
  const json = b.build();
  delete json.scene;
  delete json.scenes;
  const gltf = await parseGltf(JSON.stringify(json));
  assert.equal(gltf.scene, undefined);
  assert.equal(gltf.animations[0].tracks.length, 1);
  const { targets, unmapped } = mapClip(gltf.animations[0], gltf.scene, gltf.parser.associations);
  assert.deepEqual(targets, []);
  assert.match(unmapped[0].reason, /no scene/);
});
