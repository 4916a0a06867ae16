#!/usr/bin/env node
// luma.gl 9.4 (npm @luma.gl/gltf, on loaders.gl 4.4's GLTFLoader) adapter for the gltf-anim
// conformance suite.
//
// luma.gl's own path from a file to a playing animation, minus the GPU:
//   - @loaders.gl/core parse() with GLTFLoader (images not loaded), then postProcessGLTF():
//     the glTF object luma.gl's createScenegraphsFromGLTF takes (accessors resolved to typed
//     arrays by loaders.gl, normalized and sparse accessors included); buffers are fetched
//     through ../common/confined.mjs's fetch: only inside the suite, no network;
//   - parseGLTFAnimations(gltf): luma.gl's runtime animation model (node channels, and the
//     KHR_animation_pointer channels it maps to nodes, cameras and lights);
//   - new GLTFAnimator({animations, gltfNodeIdToNodeMap, cameras, lightDefinitions}) as
//     createScenegraphsFromGLTF builds it, with one @luma.gl/engine GroupNode per glTF node made
//     with the props createScenegraphsFromGLTF gives it (matrix, translation, rotation, scale),
//     and the cameras' and lights' runtime copies made the same way;
//   - per golden animation animator.selectClip(name), then per golden time
//     clip.applyTime(t) (AnimationAction.setTime + AnimationMixer.update(0), the evaluation
//     step of GLTFAnimator.setTime), and each channel read back from what the animator wrote:
//     the node's position / rotation (quaternion) / scale, its userData.morphWeights (what
//     setGLTFMorphWeights stores before updating GPU buffers), the camera's or light's property.
// Playback: once (AnimationAction.setLoop('once'): the time clamped to [0, the clip's duration]),
// as the other rows play; luma.gl's default, 'repeat', passes every case it plays as the manifest's
// variant loop-repeat and hides the rest.
// Not observable without a GPU device: material and texture-transform channels (the animator
// writes them into GPU materials), which are left out with the reason.
// Command line and exit status: ../common/runner.mjs.
import path from 'node:path';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parse } from '@loaders.gl/core';
import { GLTFLoader, postProcessGLTF } from '@loaders.gl/gltf';
import { GLTFAnimator, parseGLTFAnimations } from '@luma.gl/gltf';
import { GroupNode } from '@luma.gl/engine';
import { log } from '@luma.gl/core';
import { buildSamplesFile, installedVersion, refusedFile, runIfMain, readConfined } from '../common/runner.mjs';
import { makeConfinedFetch } from '../common/confined.mjs';

export const VERSION = installedVersion('@luma.gl/gltf');
export const LOADERS_VERSION = installedVersion('@loaders.gl/gltf');
export const GENERATOR = `luma.gl ${VERSION} (@luma.gl/gltf GLTFAnimator, @loaders.gl/gltf ${LOADERS_VERSION} GLTFLoader + postProcessGLTF), gltf-anim adapters/luma`;

function components(v) {
  if (typeof v === 'number') return [v];
  if (typeof v === 'boolean') return [v ? 1 : 0];
  return Array.from(v);
}

// The reader of one channel of the asset's JSON: {read() -> number[]} or {missing}.
function readerOf(json, channel, nodes, cameras, lights) {
  const target = channel.target || {};
  let pointer;
  if (target.path === 'pointer') pointer = target.extensions?.KHR_animation_pointer?.pointer;
  else if (target.node !== undefined && target.path) pointer = `/nodes/${target.node}/${target.path}`;
  if (typeof pointer !== 'string') return { missing: 'a channel without target.node or pointer (luma.gl reads neither)' };
  const s = pointer.split('/').slice(1);
  if (s[0] === 'nodes') {
    const node = nodes[Number(s[1])];
    if (!node) return { missing: `no node ${s[1]}` };
    const field = { translation: 'position', rotation: 'rotation', scale: 'scale' }[s[2]];
    if (s.length === 3 && field) return { read: () => components(node[field]) };
    if (s.length === 3 && s[2] === 'weights') return { read: () => components(node.userData.morphWeights ?? []) };
    if (s.length === 5 && s[2] === 'extensions' && s[3] === 'KHR_node_visibility' && s[4] === 'visible') {
      return { read: () => [node.display ? 1 : 0] };
    }
    return { missing: `${pointer}: luma.gl animates no such node property` };
  }
  if (s[0] === 'cameras' && s.length === 4) {
    return { read: () => components(cameras[Number(s[1])]?.[s[2]]?.[s[3]]) };
  }
  if (s[0] === 'extensions' && s[1] === 'KHR_lights_punctual' && s[2] === 'lights') {
    const light = () => lights[Number(s[3])];
    if (s[4] === 'spot') return { read: () => components(light()?.spot?.[s[5]]) };
    if (s.length === 6) return { read: () => [light()?.[s[4]]?.[Number(s[5])]] };
    return { read: () => components(light()?.[s[4]]) };
  }
  if (s[0] === 'materials') return { missing: `${pointer}: material channels are written into GPU materials, not observable without a device` };
  return { missing: `${pointer}: luma.gl animates no such target` };
}

export async function sampleAsset(assetFile, suiteRoot, golden) {
  const assetName = path.basename(assetFile);
  if (!golden) throw new Error('no golden samples file: this adapter samples at the golden times only');
  const bytes = readConfined(suiteRoot, assetFile);
  const json = bytes.readUInt32LE(0) === 0x46546c67
    ? JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'))
    : JSON.parse(bytes.toString('utf8'));
  const warnings = [];
  const saved = [console.warn, console.error, console.log];
  console.warn = (...a) => warnings.push(a.map(String).join(' '));
  console.error = console.warn;
  console.log = console.warn;
  log.level = 0;
  try {
    let gltf;
    let animations;
    try {
      const loaded = await parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), GLTFLoader, {
        gltf: { loadImages: false },
        baseUri: pathToFileURL(path.resolve(assetFile)).href,
        fetch: makeConfinedFetch(fs.realpathSync(suiteRoot)),
      });
      gltf = postProcessGLTF(loaded);
      animations = parseGLTFAnimations(gltf);
    } catch (e) {
      return refusedFile(assetName, GENERATOR, `luma.gl / loaders.gl refused the asset: ${e && e.message ? e.message : e}`);
    }
    // As createScenegraphsFromGLTF: one scenegraph node per glTF node, keyed by its id.
    const byId = new Map();
    const nodes = (gltf.nodes || []).map((n) => {
      const node = new GroupNode({ id: n.name || n.id, children: [], matrix: n.matrix,
        display: n.extensions?.KHR_node_visibility?.visible !== false,
        position: n.translation, rotation: n.rotation, scale: n.scale });
      byId.set(n.id, node);
      return node;
    });
    const lights = (gltf.lights || gltf.extensions?.KHR_lights_punctual?.lights || []).map((light) => ({
      ...light,
      ...(Array.isArray(light.color) ? { color: [...light.color] } : {}),
      ...(light.spot ? { spot: { ...light.spot } } : {}),
    }));
    const cameras = (gltf.cameras || []).map((camera) => {
      const c = { ...camera };
      if (camera.perspective) c.perspective = { ...camera.perspective };
      if (camera.orthographic) c.orthographic = { ...camera.orthographic };
      return c;
    });
    // Material channels need GPU materials: the animator refuses them without a materials array.
    const playable = animations.map((a) => ({ ...a, channels: a.channels.filter((c) => c.type !== 'material' && c.type !== 'textureTransform') }));
    let animator;
    try {
      animator = new GLTFAnimator({ animations: playable, gltfNodeIdToNodeMap: byId, cameras, lightDefinitions: lights, autoplay: false });
    } catch (e) {
      return refusedFile(assetName, GENERATOR, `luma.gl's GLTFAnimator refused the asset: ${e && e.message ? e.message : e}`);
    }
    // parseGLTFAnimations drops an animation without a channel it maps: match by name.
    const clipOf = (ai) => {
      const name = (json.animations || [])[ai]?.name || `Animation-${ai}`;
      return animator.clips.find((c) => c.name === name);
    };
    let current = null;
    const evaluatorOf = (ai, ci) => {
      const def = (json.animations || [])[ai];
      const ch = def && def.channels[ci];
      if (!ch) return { missing: `no channel ${ci} in animation ${ai}` };
      const sampler = def.samplers[ch.sampler];
      if (!sampler) return { missing: 'a channel without sampler' };
      const clip = clipOf(ai);
      if (!clip) return { missing: `luma.gl made no clip of animation ${ai} (none of its channels is one it animates)` };
      const reader = readerOf(json, ch, nodes, cameras, lights);
      if (reader.missing) return reader;
      const parsedChannels = playable[animations.findIndex((a) => a.name === clip.name)]?.channels ?? [];
      const pointer = ch.target?.path === 'pointer' ? ch.target.extensions?.KHR_animation_pointer?.pointer : undefined;
      const mapped = parsedChannels.some((c) => (pointer !== undefined ? c.pointer === pointer || (c.type === 'node' && pointer === `/nodes/${gltf.nodes.findIndex((n) => n.id === c.targetNodeId)}/${c.path === 'visibility' ? 'extensions/KHR_node_visibility/visible' : c.path}`)
        : c.type === 'node' && c.targetNodeId === gltf.nodes[ch.target.node]?.id));
      if (!mapped) return { missing: `${pointer ?? ch.target.path}: parseGLTFAnimations skipped the channel` };
      return {
        interpolation: sampler.interpolation ?? 'LINEAR',
        evaluate(t) {
          if (current !== clip) {
            animator.selectClip(clip.name);
            clip.action.setLoop('once'); // play once, as the other rows (luma.gl's default: repeat)
            current = clip;
          }
          clip.action.play(); // a 'once' action stops at its end: playing again before each seek
          clip.applyTime(t);
          return reader.read();
        },
      };
    };
    const built = buildSamplesFile({ assetName, generator: GENERATOR, json, golden, evaluatorOf });
    const notes = [...new Set(warnings)].map((w) => `luma.gl: ${w}`);
    built.file.adapterNotes.unshift(...notes);
    built.log.unshift(...notes);
    return built;
  } finally {
    [console.warn, console.error, console.log] = saved;
  }
}

runIfMain(import.meta.url, { name: `luma.gl ${VERSION}`, short: 'luma', sampleAsset });
