// The adapter samples track.createInterpolant() directly. This test checks that
// this is what three.js applies to the scene: for every asset of the suite,
// an AnimationMixer playing the clip once (LoopOnce, clampWhenFinished) leaves
// on each node exactly (===) the interpolant's value, at every golden time
// inside [0, clip duration]. (Outside that range playback choices take over:
// see divergence_loop_boundary in docs/conformance/three-notes.md.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnimationMixer, LoopOnce } from 'three';
import { loadGltf } from '../lib/load.mjs';
import { mapClip, sampleTrack } from '../lib/mapping.mjs';
import { goldenTimes } from '../../common/samples.mjs';

const SUITE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../conformance_assets');

function applied(object, property) {
  const v = object[property];
  return Array.isArray(v) ? [...v] : v.toArray();
}

test('AnimationMixer applies exactly the interpolant values', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(SUITE, 'manifest.json'), 'utf8'));
  let checked = 0;
  for (const e of manifest.assets) {
    let gltf;
    try {
      gltf = await loadGltf(path.join(SUITE, e.file), SUITE);
    } catch {
      continue; // assets three cannot load have nothing to apply
    }
    const golden = goldenTimes(fs.readFileSync(path.join(SUITE, e.samples), 'utf8'));
    for (const [ai, clip] of gltf.animations.entries()) {
      const { targets } = mapClip(clip, gltf.scene, gltf.parser.associations);
      const times = new Set();
      for (const c of golden.animations.find((a) => a.index === ai)?.channels ?? []) {
        for (const t of c.times) if (t >= 0 && t <= clip.duration) times.add(t);
      }
      for (const t of times) {
        const mixer = new AnimationMixer(gltf.scene);
        const action = mixer.clipAction(clip);
        action.setLoop(LoopOnce, 1);
        action.clampWhenFinished = true;
        action.play();
        mixer.setTime(t);
        for (const target of targets) {
          for (const track of target.tracks) {
            const [expected] = sampleTrack(track, [t]);
            const object = gltf.scene.getObjectByProperty('uuid', track.name.split('.')[0]) ??
              gltf.scene.getObjectByName(track.name.split('.')[0]);
            const property = track.name.split('.')[1];
            assert.deepEqual(applied(object, property), expected, `${e.id} ${track.name} t=${t}`);
            checked++;
          }
        }
        mixer.stopAllAction();
        mixer.uncacheRoot(gltf.scene);
      }
    }
  }
  assert.ok(checked > 500, `only ${checked} values checked`);
  console.log(`mixer check: ${checked} applied values equal the interpolants'`);
});
