#!/usr/bin/env node
// glTF Sample Viewer (npm @khronosgroup/gltf-viewer, the Khronos glTF Sample
// Renderer) adapter for the gltf-anim conformance suite.
//
// The viewer loads assets through ResourceLoader into WebGL; without a WebGL
// context it cannot load anything. What is exercised here is exactly its
// animation path without rendering (lib/viewer-module.mjs):
//   - glTF.fromJson(json): the viewer's object model of the asset (its own
//     accessor, node, material, light, camera and animation classes, with
//     their AnimatableProperty members); extensionsRequired the viewer does
//     not know is refused here by the viewer itself;
//   - the buffers' bytes are attached to its gltfBuffer objects (what its
//     gltfBuffer.load does after fetching; read here by ../common/gltf-file.mjs);
//   - gltfAnimation.advance(gltf, t), the function the viewer's render loop
//     calls each frame (GltfView.updateAnimations), which runs the viewer's
//     gltfInterpolator for every channel (KHR_animation_pointer included)
//     and writes the result into the animated properties;
//   - the value then read back from the AnimatableProperty the channel's
//     target designates, resolved as advance resolves it.
// One setting differs from the viewer's render loop: the viewer always loops
// (gltfInterpolator.interpolate starts with t = t % maxTime, maxTime being
// the animation's last key time), so at t = maxTime it shows the first key
// and after it the animation again. The suite's goldens hold the last value
// after the end (play once), so the adapter sets the animation's maxTime to
// Infinity: t % Infinity = t, and the interpolator's own clamp to
// [first key, last key] follows. Everything else is unchanged.
// Not exercised: image decoding, GL upload, skinning/morphing on the GPU.
// Command line and exit status: ../common/runner.mjs.
import path from 'node:path';
import { buildSamplesFile, installedVersion, refusedFile, runIfMain } from '../common/runner.mjs';
import { readGltf } from '../common/gltf-file.mjs';
import { viewerClasses } from './lib/viewer-module.mjs';

export const VERSION = installedVersion('@khronosgroup/gltf-viewer');
export const GENERATOR = `glTF Sample Viewer ${VERSION} (@khronosgroup/gltf-viewer) glTF.fromJson + gltfAnimation.advance, gltf-anim adapters/sample-viewer`;

// The AnimatableProperty (and array element) the viewer animates for a
// channel: the same resolution as gltfAnimation.advance.
export function animatedPropertyOf(gltf, JsonPointer, channel) {
  const t = channel.target;
  let property;
  switch (t.path) {
    case 'translation': case 'rotation': case 'scale':
      property = `/nodes/${t.node}/${t.path}`;
      break;
    case 'weights':
      property = gltf.nodes[t.node].weights !== undefined ? `/nodes/${t.node}/weights` : `/meshes/${gltf.nodes[t.node].mesh}/weights`;
      break;
    case 'pointer':
      property = t.extensions && t.extensions.KHR_animation_pointer && t.extensions.KHR_animation_pointer.pointer;
      break;
    default:
      return { problem: `target path ${t.path} is not animated by the viewer` };
  }
  if (typeof property !== 'string') return { problem: 'no target the viewer resolves' };
  if (property.startsWith('/extensions/KHR_lights_punctual/')) property = '/' + property.substring('/extensions/KHR_lights_punctual/'.length);
  let pointer = JsonPointer.create(property);
  let parent = pointer.parent(gltf);
  let back = pointer.path.at(-1);
  let element;
  if (Array.isArray(parent)) {
    element = Number(back);
    pointer = JsonPointer.create(pointer.path.slice(0, -1));
    parent = pointer.parent(gltf);
    back = pointer.path.at(-1);
  }
  const prop = parent && parent.animatedPropertyObjects ? parent.animatedPropertyObjects[back] : undefined;
  if (!prop) return { problem: `the viewer has no animatable property at ${property} ("Cannot animate")` };
  if (prop.restValue === undefined) return { problem: `the viewer's property at ${property} has no rest value, so advance skips it` };
  return { prop, element };
}

function components(v) {
  if (typeof v === 'number') return [v];
  if (typeof v === 'boolean') return [v ? 1 : 0];
  return Array.from(v);
}

export async function sampleAsset(assetFile, suiteRoot, golden) {
  const assetName = path.basename(assetFile);
  if (!golden) throw new Error('no golden samples file: this adapter samples at the golden times only');
  const { glTF, JsonPointer } = await viewerClasses();
  const file = readGltf(assetFile, suiteRoot);
  const gltf = new glTF(assetFile);
  const warnings = [];
  const saved = [console.warn, console.error];
  console.warn = (...a) => warnings.push(a.map(String).join(' '));
  console.error = console.warn;
  try {
    try {
      gltf.fromJson(file.json);
    } catch (e) {
      const msg = `the viewer's glTF.fromJson refused the asset: ${e && e.message ? e.message : e}`;
      return refusedFile(assetName, GENERATOR, msg);
    }
    gltf.buffers.forEach((b, i) => {
      const bytes = file.bufferBytes(i);
      b.buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    });
    const evaluatorOf = (ai, ci) => {
      const anim = gltf.animations[ai];
      const ch = anim && anim.channels[ci];
      if (!ch) return { missing: `no channel ${ci} in the viewer's animation ${ai}` };
      if (!ch.target) return { missing: 'channel without target (the viewer reads channel.target)' };
      const r = animatedPropertyOf(gltf, JsonPointer, ch);
      if (r.problem) return { missing: r.problem };
      const interpolation = (anim.samplers[ch.sampler] || {}).interpolation ?? 'LINEAR';
      anim.maxTime = Infinity; // play once: see the header
      return {
        interpolation,
        evaluate(t) {
          r.prop.rest();
          anim.advance(gltf, t);
          const v = r.prop.value();
          return components(r.element === undefined ? v : v[r.element]);
        },
      };
    };
    const built = buildSamplesFile({ assetName, generator: GENERATOR, json: file.json, golden, evaluatorOf });
    const notes = [...new Set(warnings)].map((w) => `viewer: ${w}`);
    built.file.adapterNotes.unshift(...notes);
    built.log.unshift(...notes);
    return built;
  } finally {
    [console.warn, console.error] = saved;
  }
}

runIfMain(import.meta.url, { name: `glTF Sample Viewer ${VERSION}`, short: 'sample-viewer', sampleAsset });
