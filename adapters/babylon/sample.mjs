#!/usr/bin/env node
// Babylon.js adapter for the gltf-anim conformance suite.
//
// For each asset: Babylon's glTF loader (@babylonjs/loaders, with its
// KHR_animation_pointer support) into a NullEngine scene (lib/load.mjs), then
// every Babylon Animation the loader made for a glTF channel is evaluated with
// Babylon's own Animation.evaluate at frame = t x 60 (the loader's targetFps;
// the loader stores key frames as glTF time x 60, so golden times convert
// exactly at keys), and mapped back to the channel's glTF components with the
// loader's own property conversion (lib/channels.mjs).
// Command line and exit status: ../common/runner.mjs.
import path from 'node:path';
import { buildSamplesFile, installedVersion, refusedFile, runIfMain } from '../common/runner.mjs';
import { loadGltf } from './lib/load.mjs';
import { bindingCheck, channelEvaluators } from './lib/channels.mjs';

export const VERSION = installedVersion('@babylonjs/core');
const LOADERS_VERSION = installedVersion('@babylonjs/loaders');
export const GENERATOR = `Babylon.js ${VERSION} (@babylonjs/loaders ${LOADERS_VERSION}) NullEngine glTF loader + Animation.evaluate, gltf-anim adapters/babylon`;

export async function sampleAsset(assetFile, suiteRoot, golden) {
  const assetName = path.basename(assetFile);
  if (!golden) throw new Error('no golden samples file: the Babylon adapter samples at the golden times only');
  let loaded;
  try {
    loaded = await loadGltf(assetFile, suiteRoot);
  } catch (e) {
    const msg = `Babylon's glTF loader refused the asset: ${e && e.message ? e.message : String(e)}`;
    return refusedFile(assetName, GENERATOR, msg);
  }
  const { json, warnings, scene } = loaded;
  const perAnimation = new Map();
  const notes = warnings.map((w) => `Babylon warning: ${w}`);
  const evaluatorOf = (ai, ci) => {
    if (!json.animations || !json.animations[ai]) return { missing: `the asset has no animation ${ai}` };
    if (!perAnimation.has(ai)) perAnimation.set(ai, channelEvaluators(json, ai, warnings));
    const ev = perAnimation.get(ai).get(ci);
    if (!ev || ev.missing !== undefined) return ev;
    // The values are the animation's, mapped back with the loader's own
    // conversion. The binding check compares them with what the object
    // model's getter for the pointer reads during playback; a disagreement is
    // noted (the notes page classifies each: a property the pointer does not
    // designate, or a getter with another convention), not hidden.
    const group = json.animations[ai]._babylonAnimationGroup;
    const gc = golden.animations.find((a) => a.index === ai).channels.find((c) => c.index === ci);
    const check = bindingCheck(group, ev, gc.times);
    if (check === 'negated' || check === 'different') {
      notes.push(`animation ${ai} channel ${ci}: during playback the object-model getter of ${ev.pointer} reads ${check === 'negated' ? 'the opposite sign of' : 'other values than'} the animated Babylon property ${ev.properties.join(', ')}`);
    }
    return ev;
  };
  try {
    const built = buildSamplesFile({ assetName, generator: GENERATOR, json, golden, evaluatorOf });
    built.file.adapterNotes.unshift(...notes);
    built.log.unshift(...notes);
    return built;
  } finally {
    scene.dispose();
  }
}

runIfMain(import.meta.url, { name: `Babylon.js ${VERSION}`, short: 'babylon', sampleAsset });
