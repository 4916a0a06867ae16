#!/usr/bin/env node
// three.js + KHR_animation_pointer adapter for the gltf-anim conformance suite:
// three's GLTFLoader with @needle-tools/three-animation-pointer registered (the
// plugin GLTFLoader's header points to for KHR_animation_pointer).
//
// For each asset: load as the three.js adapter does (../threejs/lib/load.mjs)
// plus the plugin. Core node channels are mapped exactly as the three.js
// adapter maps them (../threejs/lib/mapping.mjs). Pointer channels: the plugin
// is subclassed only to record which KeyframeTracks it creates for which
// channel target (its own track creation runs unchanged). Each such track must
// bind the way AnimationMixer binds it (PropertyBinding with the plugin's
// findNode patch); a track that binds to nothing is reported as not produced,
// with the binding's reason. Values: the channel's first track (the one
// carrying all of the glTF value's components; the plugin splits alpha into a
// second opacity track) through three's own interpolant, at the golden times.
// The plugin's only value conversions are undone: booleans (0/1) and camera
// yfov (degrees back to radians).
// Command line and exit status: ../common/runner.mjs.
import path from 'node:path';
import { PropertyBinding } from 'three';
import { GLTFAnimationPointerExtension } from '@needle-tools/three-animation-pointer';
import { buildSamplesFile, installedVersion, refusedFile, runIfMain } from '../common/runner.mjs';
import { loadGltf } from '../threejs/lib/load.mjs';
import { mapClip, sampleTrack } from '../threejs/lib/mapping.mjs';

export const THREE_VERSION = installedVersion('three');
export const PLUGIN_VERSION = installedVersion('@needle-tools/three-animation-pointer');
export const GENERATOR = `three.js ${THREE_VERSION} GLTFLoader + @needle-tools/three-animation-pointer ${PLUGIN_VERSION} + KeyframeTrack interpolants, gltf-anim adapters/threejs-pointer`;

// The plugin, recording the tracks it makes per channel target and keeping
// the channels' original pointers (the plugin rewrites them in the parser's
// JSON into three property paths).
export function recordingPointerPlugin(records) {
  return (parser) => {
    records.originalAnimations = structuredClone(parser.json.animations || []);
    const ext = new GLTFAnimationPointerExtension(parser);
    const create = ext.createAnimationTracksWithAnimationPointer.bind(ext);
    ext.createAnimationTracksWithAnimationPointer = (node, inputAccessor, outputAccessor, sampler, target) => {
      const tracks = create(node, inputAccessor, outputAccessor, sampler, target);
      if (tracks) records.byTarget.set(target, tracks);
      return tracks;
    };
    return ext;
  };
}

// Binds `track` as AnimationMixer would on `root`: null when it binds, else the reason.
export function bindingProblem(root, track) {
  const messages = [];
  const saved = [console.warn, console.error];
  console.warn = (...a) => messages.push(a.map(String).join(' '));
  console.error = console.warn;
  try {
    const binding = PropertyBinding.create(root, track.name);
    binding.bind();
    // bind() replaces the unbound accessors only when it found the object and
    // the property (three's PropertyBinding.bind).
    if (binding.getValue === binding._getValue_unbound || binding.getValue === binding._getValue_unavailable) {
      return messages.length ? messages.join('; ').slice(0, 300) : 'PropertyBinding finds no target';
    }
    return null;
  } finally {
    [console.warn, console.error] = saved;
  }
}

function sampleValues(track, pointer, times) {
  const values = sampleTrack(track, times);
  if (pointer.endsWith('/perspective/yfov')) return values.map((v) => v.map((x) => x / 180 * Math.PI));
  return values;
}

export async function sampleAsset(assetFile, suiteRoot, golden) {
  const assetName = path.basename(assetFile);
  if (!golden) throw new Error('no golden samples file: this adapter samples at the golden times only');
  const records = { byTarget: new Map(), originalAnimations: [] };
  let gltf;
  const warnings = [];
  const saved = console.warn;
  console.warn = (...a) => warnings.push(a.map((x) => (typeof x === 'string' ? x : '')).join(' ').trim());
  try {
    gltf = await loadGltf(assetFile, suiteRoot, [recordingPointerPlugin(records)]);
  } catch (e) {
    const msg = `GLTFLoader (with the KHR_animation_pointer plugin) failed to load the asset: ${e && e.message ? e.message : String(e)}`;
    return refusedFile(assetName, GENERATOR, msg);
  } finally {
    console.warn = saved;
  }
  const json = gltf.parser.json;
  const root = gltf.scene;
  const recordedTracks = new Set([...records.byTarget.values()].flat());
  const notes = warnings.filter((w) => w).map((w) => `three.js warning: ${w}`);
  const evaluatorOf = (ai, ci) => {
    const def = json.animations[ai];
    const original = records.originalAnimations[ai];
    const ch = def && def.channels[ci];
    if (!ch) return { missing: `no channel ${ci} in animation ${ai}` };
    const interpolation = (def.samplers[ch.sampler] || {}).interpolation ?? 'LINEAR';
    const ptr = original.channels[ci].target && original.channels[ci].target.extensions
      && original.channels[ci].target.extensions.KHR_animation_pointer;
    if (ptr) {
      const tracks = records.byTarget.get(ch.target);
      if (!tracks || tracks.length === 0) return { missing: `the KHR_animation_pointer plugin made no track for ${ptr.pointer}` };
      const problem = bindingProblem(root, tracks[0]);
      if (problem) return { missing: `the plugin's track "${tracks[0].name}" for ${ptr.pointer} binds to nothing: ${problem}` };
      // The plugin compares three's interpolation constant with 'CUBICSPLINE'
      // (GLTFLoader's INTERPOLATION maps CUBICSPLINE to undefined), so a
      // CUBICSPLINE track keeps three's default interpolant over
      // [in-tangent, value, out-tangent] triples. PropertyBinding applies the
      // first components of such a value to the property: what the scene
      // shows is reported, and the file says so.
      const size = tracks[0].getValueSize();
      const width = size / 3;
      if (interpolation === 'CUBICSPLINE' && tracks[0].createInterpolant.name !== 'InterpolantFactoryMethodGLTFCubicSpline') {
        notes.push(`animation ${ai} channel ${ci}: the plugin's CUBICSPLINE track "${tracks[0].name}" has no cubic-spline interpolant (value size ${size} = 3 x ${width}); the first ${width} component(s), the interpolated in-tangents, are what PropertyBinding applies and what is reported`);
        return { interpolation: 'CUBICSPLINE (as a linear track of [a, v, b])', sampleAll: (times) => sampleValues(tracks[0], ptr.pointer, times).map((v) => v.slice(0, width)) };
      }
      return { interpolation, sampleAll: (times) => sampleValues(tracks[0], ptr.pointer, times) };
    }
    if (!ch.target || ch.target.node === undefined) return { missing: 'channel without target.node or pointer' };
    const clip = gltf.animations[ai];
    const filtered = clip.clone();
    filtered.tracks = clip.tracks.filter((t) => !recordedTracks.has(t));
    const wanted = `/nodes/${ch.target.node}/${ch.target.path}`;
    const m = mapClip(filtered, root, gltf.parser.associations).targets.find((t) => t.target === wanted);
    if (!m) return { missing: `no three.js track drives ${wanted}` };
    return { interpolation, sampleAll: (times) => sampleTrack(m.tracks[0], times) };
  };
  // buildSamplesFile takes per-time evaluators; three's interpolants are
  // evaluated over the whole golden time list at once (as AnimationAction
  // does, in time order).
  const cache = new Map();
  const perTime = (ai, ci) => {
    const ev = evaluatorOf(ai, ci);
    if (ev.missing !== undefined) return ev;
    const gc = golden.animations.find((a) => a.index === ai).channels.find((c) => c.index === ci);
    const values = ev.sampleAll(gc.times);
    gc.times.forEach((t, i) => cache.set(`${ai}/${ci}/${t}`, values[i]));
    return { interpolation: ev.interpolation, evaluate: (t) => cache.get(`${ai}/${ci}/${t}`) };
  };
  const jsonForTargets = { animations: records.originalAnimations };
  const built = buildSamplesFile({ assetName, generator: GENERATOR, json: jsonForTargets, golden, evaluatorOf: perTime });
  built.file.adapterNotes.unshift(...notes);
  built.log.unshift(...notes);
  return built;
}

runIfMain(import.meta.url, { name: `three.js ${THREE_VERSION} + three-animation-pointer ${PLUGIN_VERSION}`, short: 'threejs-pointer', sampleAsset });
