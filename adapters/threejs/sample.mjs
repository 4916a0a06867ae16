#!/usr/bin/env node
// three.js adapter for the gltf-anim conformance suite.
//
// For each asset, loads it with three's GLTFLoader, then samples every
// KeyframeTrack of every AnimationClip with three's own interpolant
// (track.createInterpolant(), as AnimationAction does) at exactly the times of
// the golden samples file beside the asset, and writes a gltf-anim samples
// JSON file per asset.
//
// Command line and exit status: ../common/runner.mjs (--golden DIR serves the
// core-only goldens of `gltf-anim sample --no-extensions`).
import path from 'node:path';
import { REVISION, InterpolateDiscrete, InterpolateLinear, InterpolateSmooth } from 'three';
import { loadGltf } from './lib/load.mjs';
import { mapClip, sampleTrack } from './lib/mapping.mjs';
import { installedVersion, runIfMain } from '../common/runner.mjs';

const THREE_VERSION = installedVersion('three');
export const GENERATOR = `three.js ${THREE_VERSION} (r${REVISION}) GLTFLoader + KeyframeTrack interpolants, gltf-anim adapters/threejs`;

// What three evaluates for a track, in glTF words.
function interpolationOf(track) {
  if (track.createInterpolant && track.createInterpolant.name === 'InterpolantFactoryMethodGLTFCubicSpline') {
    return 'CUBICSPLINE';
  }
  switch (track.getInterpolation()) {
    case InterpolateDiscrete: return 'STEP';
    case InterpolateLinear: return 'LINEAR';
    case InterpolateSmooth: return 'SMOOTH (three.js CubicInterpolant)';
    default: return undefined;
  }
}

// Why the loader produced no track for glTF channel `ch` (its JSON).
function whyMissing(json, ch) {
  const target = ch.target;
  if (target === undefined) {
    return 'channel has no "target": GLTFLoader.loadAnimation reads channel.target.node and throws';
  }
  if (target.node === undefined) {
    const ptr = target.extensions && target.extensions.KHR_animation_pointer
      ? ` (KHR_animation_pointer ${target.extensions.KHR_animation_pointer.pointer})` : '';
    return `channel without target.node${ptr}: GLTFLoader.loadAnimation skips it (KHR_animation_pointer is not in three's core loader)`;
  }
  if (target.path === 'weights') {
    return 'weights channel: no mesh with morph targets under the node, so GLTFLoader creates no morphTargetInfluences track';
  }
  return `no track for node ${target.node} ${target.path}`;
}

function defaultTimes(track) {
  const keys = Array.from(track.times);
  const set = new Set(keys);
  for (let i = 0; i + 1 < keys.length; i++) {
    for (const f of [0.25, 0.5, 0.75]) set.add(keys[i] + f * (keys[i + 1] - keys[i]));
  }
  set.add(0);
  if (keys.length) {
    set.add(keys[0] - 0.5);
    set.add(keys[keys.length - 1] + 0.5);
  }
  return [...set].sort((a, b) => a - b);
}

// Samples one asset. golden: goldenTimes() of its golden file or null.
// Returns the samples-file object (see lib/samples.mjs) and a short log.
export async function sampleAsset(assetFile, suiteRoot, golden) {
  const assetName = path.basename(assetFile);
  const file = { asset: assetName, generator: GENERATOR, animations: [], adapterNotes: [] };
  const log = [];
  let gltf;
  try {
    gltf = await loadGltf(assetFile, suiteRoot);
  } catch (e) {
    const msg = `GLTFLoader failed to load the asset: ${e && e.message ? e.message : String(e)}`;
    file.adapterNotes.push(msg);
    log.push(msg);
    return { file, log };
  }
  const json = gltf.parser.json;
  const root = gltf.scene; // what one passes to new AnimationMixer(gltf.scene)
  const associations = gltf.parser.associations;
  gltf.animations.forEach((clip, animationIndex) => {
    const animDef = (json.animations || [])[animationIndex] || { channels: [] };
    const { targets, unmapped } = mapClip(clip, root, associations);
    for (const u of unmapped) {
      const msg = `animation ${animationIndex}: track ${u.track} not sampled: ${u.reason}`;
      file.adapterNotes.push(msg);
      log.push(msg);
    }
    const goldenAnim = golden ? golden.animations.find((a) => a.index === animationIndex) : null;
    const anim = { index: animationIndex, name: animDef.name ?? '', channels: [] };
    const seen = new Set();
    for (const t of targets) {
      // The glTF channel of this node + path (a pair is unique within an animation).
      const channelIndex = animDef.channels.findIndex(
        (c) => c.target && c.target.node === t.node && c.target.path === t.path);
      let times;
      if (golden) {
        const gc = goldenAnim ? goldenAnim.channels.find((c) => c.target === t.target) : undefined;
        if (!gc) {
          const msg = `animation ${animationIndex}: three animates ${t.target}, which the golden file does not sample (ignored)`;
          file.adapterNotes.push(msg);
          log.push(msg);
          continue;
        }
        times = gc.times;
      } else {
        times = defaultTimes(t.tracks[0]);
      }
      const values = sampleTrack(t.tracks[0], times);
      // Several tracks for one target: morph weights of a multi-primitive mesh
      // (one track per primitive Mesh). The engine applies each to its Mesh;
      // they must agree for the node to have one weights value.
      for (let k = 1; k < t.tracks.length; k++) {
        const other = sampleTrack(t.tracks[k], times);
        const differs = other.some((v, i) => v.some((x, j) => !Object.is(x, values[i][j])));
        const msg = `animation ${animationIndex}: ${t.target} drives ${t.tracks.length} three tracks (${t.tracks.map((x) => x.name).join(', ')}); track ${k} ${differs ? 'DIFFERS from' : 'equals'} track 0`;
        file.adapterNotes.push(msg);
        if (differs) log.push(msg);
      }
      seen.add(channelIndex);
      anim.channels.push({
        index: channelIndex >= 0 ? channelIndex : anim.channels.length,
        target: t.target,
        interpolation: interpolationOf(t.tracks[0]),
        sampler: channelIndex >= 0 ? animDef.channels[channelIndex].sampler : undefined,
        samples: times.map((time, i) => ({ t: time, value: values[i] })),
      });
    }
    animDef.channels.forEach((ch, i) => {
      if (seen.has(i)) return;
      const msg = `animation ${animationIndex} channel ${i}: not produced by three: ${whyMissing(json, ch)}`;
      file.adapterNotes.push(msg);
      log.push(msg);
    });
    anim.channels.sort((a, b) => a.index - b.index);
    file.animations.push(anim);
  });
  return { file, log };
}

runIfMain(import.meta.url, { name: `three.js ${THREE_VERSION}`, short: 'three', sampleAsset });
