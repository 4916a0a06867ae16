#!/usr/bin/env node
// PlayCanvas adapter for the gltf-anim conformance suite, on PlayCanvas's own
// glTF parse: GlbParser.parse (the parser behind the engine's container
// asset handler) with a NullGraphicsDevice, headless in Node. Each glTF
// animation becomes an AnimTrack; the adapter plays it the way the anim
// component's layers do at full weight: an AnimClip (not looping) in an
// AnimEvaluator with a DefaultAnimBinder over the parsed node graph, the clip
// set to the golden time, evaluator.update(0); the values are read back from
// the GraphNode's localPosition / localRotation / localScale. The binder is
// the anim component's own (AnimComponentBinder, without a component: the
// 'graph' paths glTF animations use need none). Morph weights are set by the
// binder's `weight` handler on the render component's mesh instances, which
// a parse without an application has not created: that one handler is
// replaced by one that records the value it is given (same AnimTarget type
// and width); everything else is PlayCanvas's.
// PlayCanvas has no KHR_animation_pointer, KHR_animation2 or
// EXT_animation_sqlerp support; such channels are not produced.
// Command line and exit status: ../common/runner.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { NullGraphicsDevice, AnimEvaluator, AnimClip, DefaultAnimBinder, GraphNode } from 'playcanvas';
import { GlbParser } from 'playcanvas/build/playcanvas/src/framework/parsers/glb-parser.js';
import { AnimComponentBinder } from 'playcanvas/build/playcanvas/src/framework/components/anim/component-binder.js';
import { buildSamplesFile, installedVersion, isInside, readConfined, refusedFile, runIfMain } from '../common/runner.mjs';

export const VERSION = installedVersion('playcanvas');
export const GENERATOR = `PlayCanvas ${VERSION} GlbParser (NullGraphicsDevice) + AnimEvaluator/DefaultAnimBinder, gltf-anim adapters/playcanvas`;

const PROPERTY_OF_PATH = { translation: 'localPosition', rotation: 'localRotation', scale: 'localScale' };

let device;
function nullDevice() {
  // A canvas stand-in: GraphicsDevice only reads its size and adds listeners.
  device ??= new NullGraphicsDevice({ width: 1, height: 1, addEventListener() {}, removeEventListener() {} });
  return device;
}

// External buffers: GlbParser fetches them over HTTP; the suite's .bin files
// are handed over from inside the suite folder through the parser's
// documented buffer.processAsync hook. data: URIs are the parser's own.
function confinedBuffers(assetFile, root) {
  return {
    buffer: {
      processAsync(gltfBuffer, callback) {
        const uri = gltfBuffer.uri;
        if (uri === undefined || uri.startsWith('data:')) { callback(null, null); return; }
        if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) { callback(`refusing to load ${uri.slice(0, 60)} (no network)`); return; }
        try {
          const file = path.join(path.dirname(assetFile), decodeURIComponent(uri));
          const bytes = readConfined(root, file);
          callback(null, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        } catch (e) {
          callback(e.message);
        }
      },
    },
  };
}

export function parseAsset(assetFile, root) {
  if (!isInside(fs.realpathSync(root), fs.realpathSync(assetFile))) throw new Error(`${assetFile} is outside ${root}`);
  const bytes = readConfined(root, assetFile);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  // No application, so no asset registry: a texture the parser hands it is
  // declared loaded with no resource (animation needs no image). Without add and
  // load, an asset with images threw inside the parser's promise chain, where no
  // caller can catch it, and ended the whole run.
  const registry = {
    loader: { _app: null },
    add() {},
    load(asset) {
      asset.loaded = true;
      asset.fire('load', asset);
    },
  };
  return new Promise((resolve, reject) => {
    GlbParser.parse(path.basename(assetFile), '', data, nullDevice(), registry, confinedBuffers(assetFile, root), [],
      (err, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result)));
  });
}

// The anim component's binder, its morph-weight targets recording their values.
class RecordingBinder extends AnimComponentBinder {
  constructor(graph) {
    super(null, graph, 'gltf-anim', null, 0);
    this.weights = new Map(); // node -> Map(weight index or name -> value)
    this.handlers.weight = (node, weightName) => {
      const key = weightName.startsWith('name.') ? weightName.slice(5) : Number(weightName);
      if (!this.weights.has(node)) this.weights.set(node, new Map());
      const func = (value) => { this.weights.get(node).set(key, value[0]); };
      return DefaultAnimBinder.createAnimTarget(func, 'number', 1, node, `weight.${weightName}`);
    };
  }
}

export async function sampleAsset(assetFile, suiteRoot, golden) {
  const assetName = path.basename(assetFile);
  if (!golden) throw new Error('no golden samples file: this adapter samples at the golden times only');
  let res;
  try {
    res = await parseAsset(assetFile, suiteRoot);
  } catch (e) {
    const msg = `PlayCanvas's GlbParser (parsing without an application) failed on the asset: ${e && e.message ? e.message : String(e)}`;
    return refusedFile(assetName, GENERATOR, msg);
  }
  const json = res.gltf;
  // The graph the binder searches: every parsed scene under one root.
  const root = new GraphNode('gltf-anim-root');
  for (const s of res.scenes) if (!s.parent) root.addChild(s);
  for (const n of res.nodes) if (!n.parent) root.addChild(n);
  const perAnimation = new Map();
  const playerOf = (ai) => {
    if (!perAnimation.has(ai)) {
      const track = res.animations[ai];
      const binder = new RecordingBinder(root);
      const evaluator = new AnimEvaluator(binder);
      const clip = new AnimClip(track, 0, 1, true, false);
      evaluator.addClip(clip);
      perAnimation.set(ai, { track, binder, evaluator, clip });
    }
    return perAnimation.get(ai);
  };
  const evaluatorOf = (ai, ci) => {
    const def = (json.animations || [])[ai];
    const ch = def && def.channels[ci];
    if (!ch) return { missing: `no channel ${ci}` };
    const t = ch.target || {};
    if (t.node === undefined) {
      return { missing: `channel without target.node${t.extensions && t.extensions.KHR_animation_pointer ? ' (KHR_animation_pointer, which PlayCanvas does not support)' : ''}` };
    }
    // An EXT_animation_sqlerp channel: PlayCanvas ignores the extension and
    // plays channel.sampler (the fallback), which is what is sampled.
    const node = res.nodes[t.node];
    const { binder, evaluator, clip } = playerOf(ai);
    const interpolation = (def.samplers[ch.sampler] || {}).interpolation ?? 'LINEAR';
    const property = PROPERTY_OF_PATH[t.path];
    const evaluateAt = (time) => {
      clip.time = time;
      evaluator.update(0);
    };
    if (property) {
      return {
        interpolation,
        evaluate(time) {
          evaluateAt(time);
          const v = node[property];
          return t.path === 'rotation' ? [v.x, v.y, v.z, v.w] : [v.x, v.y, v.z];
        },
      };
    }
    if (t.path === 'weights') {
      // A mesh instance takes as many weights as its mesh has morph targets;
      // the parser may make more weight curves (it divides the output count
      // by the key count, which for CUBICSPLINE is 3 x the targets): only the
      // ones a mesh instance would accept are reported, and the file says so.
      const mesh = (json.meshes || [])[(json.nodes[t.node] || {}).mesh];
      const targets = mesh && mesh.primitives && mesh.primitives[0] && mesh.primitives[0].targets
        ? mesh.primitives[0].targets.length : undefined;
      return {
        interpolation,
        evaluate(time) {
          evaluateAt(time);
          const w = binder.weights.get(node);
          if (!w) return [NaN];
          const keys = [...w.keys()].filter((k) => typeof k === 'number').sort((a, b) => a - b);
          if (targets !== undefined && keys.length > targets && !noted.has(`${ai}/${ci}`)) {
            noted.add(`${ai}/${ci}`);
            extraNotes.push(`animation ${ai} channel ${ci}: PlayCanvas made ${keys.length} weight curves for a mesh with ${targets} morph targets; weights 0..${targets - 1} are reported`);
          }
          return keys.slice(0, targets ?? keys.length).map((k) => w.get(k));
        },
      };
    }
    return { missing: `target path ${t.path} is not animated by PlayCanvas` };
  };
  const noted = new Set();
  const extraNotes = [];
  const built = buildSamplesFile({ assetName, generator: GENERATOR, json, golden, evaluatorOf });
  built.file.adapterNotes.push(...extraNotes);
  built.log.push(...extraNotes);
  return built;
}

runIfMain(import.meta.url, { name: `PlayCanvas ${VERSION}`, short: 'playcanvas', sampleAsset });
