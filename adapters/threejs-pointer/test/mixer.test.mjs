// The adapter reports the plugin's tracks through three's interpolants; this
// checks that a real AnimationMixer applies the same values to the bound
// properties (for CUBICSPLINE pointer tracks: the first components, which is
// what the adapter reports), on every pointer channel of the suite, at the
// golden times inside the clip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnimationClip, AnimationMixer, LoopOnce, PropertyBinding } from 'three';
import { loadGltf } from '../../threejs/lib/load.mjs';
import { goldenTimes } from '../../common/samples.mjs';
import { recordingPointerPlugin, sampleAsset } from '../sample.mjs';

const SUITE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../conformance_assets');

test('AnimationMixer applies the values the adapter reports for pointer channels', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(SUITE, 'manifest.json'), 'utf8'));
  let compared = 0;
  const saved = console.warn;
  console.warn = () => {};
  try {
    for (const e of manifest.assets) {
      if (!e.samples || !e.features.includes('KHR_animation_pointer')) continue;
      const golden = goldenTimes(fs.readFileSync(path.join(SUITE, e.samples), 'utf8'));
      const { file } = await sampleAsset(path.join(SUITE, e.file), SUITE, golden);
      const records = { byTarget: new Map() };
      const gltf = await loadGltf(path.join(SUITE, e.file), SUITE, [recordingPointerPlugin(records)]);
      const json = gltf.parser.json;
      for (const [ai, anim] of json.animations.entries()) {
        for (const [ci, ch] of anim.channels.entries()) {
          const tracks = records.byTarget.get(ch.target);
          const reported = file.animations.find((a) => a.index === ai)?.channels.find((c) => c.index === ci);
          if (!tracks || !reported) continue;
          const track = tracks[0];
          const mixer = new AnimationMixer(gltf.scene);
          const clip = new AnimationClip('check', -1, [track]);
          const action = mixer.clipAction(clip);
          action.setLoop(LoopOnce, 1);
          action.clampWhenFinished = true;
          action.play();
          const binding = PropertyBinding.create(gltf.scene, track.name);
          const buffer = new Float64Array(16);
          for (const s of reported.samples) {
            if (s.t < 0 || s.t > clip.duration) continue;
            mixer.setTime(s.t);
            binding.getValue(buffer, 0);
            // A Color property holds r, g, b (alpha goes to a second track).
            const n = Math.min(s.value.length, track.getValueSize(), typeof binding.resolvedProperty === 'object' && binding.resolvedProperty?.isColor ? 3 : 16);
            // three's camera fov is in degrees: the plugin converts yfov, the adapter converts back.
            const unit = reported.target.endsWith('/perspective/yfov') ? Math.PI / 180 : 1;
            for (let k = 0; k < n; k++) {
              assert.ok(Math.abs(Number(buffer[k]) * unit - s.value[k]) <= 1e-12 * Math.max(1, Math.abs(s.value[k])),
                `${e.id} ${reported.target} t=${s.t} [${k}]: mixer ${buffer[k]}, reported ${s.value[k]}`);
              compared++;
            }
          }
          mixer.stopAllAction();
        }
      }
    }
  } finally {
    console.warn = saved;
  }
  assert.ok(compared > 300, `only ${compared} values compared`);
});
