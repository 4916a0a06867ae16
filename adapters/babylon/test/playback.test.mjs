// The adapter reports Animation.evaluate; this checks that Babylon's real
// playback (AnimationGroup.goToFrame, which moves the scene's nodes) shows
// exactly those values on every node channel of the suite, at every golden
// time inside the group's range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGltf } from '../lib/load.mjs';
import { channelEvaluators, flatten } from '../lib/channels.mjs';
import { goldenTimes } from '../../common/samples.mjs';

const SUITE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../conformance_assets');
const PROPERTY = { translation: 'position', rotation: 'rotationQuaternion', scale: 'scaling' };

test('AnimationGroup playback moves the nodes to the values the adapter reports', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(SUITE, 'manifest.json'), 'utf8'));
  let compared = 0;
  for (const e of manifest.assets) {
    if (!e.samples) continue;
    let loaded;
    try {
      loaded = await loadGltf(path.join(SUITE, e.file), SUITE);
    } catch {
      continue; // assets Babylon refuses: nothing is played
    }
    const golden = goldenTimes(fs.readFileSync(path.join(SUITE, e.samples), 'utf8'));
    const { json, scene } = loaded;
    for (const ga of golden.animations) {
      const def = json.animations[ga.index];
      const group = def._babylonAnimationGroup;
      const evaluators = channelEvaluators(json, ga.index);
      group.start(false, 1, group.from, group.to);
      group.pause();
      for (const gc of ga.channels) {
        const ch = def.channels[gc.index];
        const prop = ch.target && PROPERTY[ch.target.path];
        const ev = evaluators.get(gc.index);
        if (!prop || ch.target.node === undefined || !ev || ev.missing) continue;
        const node = json.nodes[ch.target.node]._babylonTransformNode;
        for (const t of gc.times) {
          const frame = t * 60;
          if (frame < group.from || frame > group.to) continue;
          group.goToFrame(frame);
          assert.deepEqual(flatten(node[prop]), ev.evaluate(t), `${e.id} ${gc.target} t=${t}`);
          compared++;
        }
      }
      group.stop();
    }
    scene.dispose();
  }
  assert.ok(compared > 500, `only ${compared} values compared`);
});
