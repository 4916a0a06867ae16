// Loading a glTF asset in plain Node with Babylon.js's own glTF loader
// (@babylonjs/loaders, glTF 2.0 + its extensions, KHR_animation_pointer
// included) into a NullEngine scene.
//
// The bytes go to LoadAssetContainerAsync: a .glb as binary data, a .gltf as
// a base64 data: URL (the glTF plugin reads JSON text only from a URL or a
// string; binary input is reserved for .glb). Buffer and image URIs are
// resolved by the loader against rootUrl = "file:///<asset folder>/" and
// pass through the documented `preprocessUrlAsync` hook, which here
//   - leaves data: URIs to the loader,
//   - turns a file: URL into a data: URL of the file's bytes only if its real
//     path is inside `root` (the conformance_assets folder),
//   - refuses every other scheme (no network).
// The loader's parsed glTF JSON (which it annotates with its Babylon objects:
// _babylonTransformNode, _babylonAnimationGroup, ...) is kept through the
// `onParsed` option so that channels can be mapped back to glTF exactly.
// Babylon's warnings (e.g. "Invalid pointer ... skipped") are collected
// per load: they say why a channel produced no animation.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NullEngine, Scene, LoadAssetContainerAsync, Logger } from '@babylonjs/core';
import { GLTFLoaderAnimationStartMode } from '@babylonjs/loaders/glTF/glTFFileLoader.js';
import '@babylonjs/loaders/glTF/2.0/index.js';
import { isInside } from '../../common/runner.mjs';

let engine;
function nullEngine() {
  if (!engine) {
    const saved = Logger.Log;
    Logger.Log = () => {}; // the version banner
    engine = new NullEngine();
    Logger.Log = saved;
  }
  return engine;
}

// The preprocessUrlAsync hook: file: URLs inside root become data: URLs.
export function makeConfinedUrl(root) {
  return async (url) => {
    if (url.startsWith('data:')) return url;
    if (url.startsWith('file:')) {
      const file = fs.realpathSync(fileURLToPath(url));
      if (!isInside(root, file)) throw new Error(`${url} is outside ${root}`);
      return `data:application/octet-stream;base64,${fs.readFileSync(file).toString('base64')}`;
    }
    throw new Error(`babylon adapter: refusing to load ${url.slice(0, 80)} (only data: and files inside ${root})`);
  };
}

// Loads `file` (.gltf or .glb, inside `root`). Resolves to {container, scene,
// json (the loader's annotated glTF JSON), warnings}; rejects with the loader's
// error and the warnings it logged.
export async function loadGltf(file, root = path.dirname(file)) {
  const realRoot = fs.realpathSync(root);
  const realFile = fs.realpathSync(file);
  if (!isInside(realRoot, realFile)) throw new Error(`${file} is outside ${root}`);
  const bytes = fs.readFileSync(realFile);
  const glb = bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'glTF';
  const scene = new Scene(nullEngine());
  const warnings = [];
  const saved = Logger.Warn;
  const savedError = Logger.Error;
  Logger.Warn = (m) => warnings.push(String(m));
  Logger.Error = (m) => warnings.push(String(m));
  let json;
  try {
    const container = await LoadAssetContainerAsync(
      glb ? new Uint8Array(bytes) : `data:model/gltf+json;base64,${bytes.toString('base64')}`, scene, {
        pluginExtension: glb ? '.glb' : '.gltf',
        rootUrl: pathToFileURL(path.dirname(realFile)).href + '/',
        pluginOptions: {
          gltf: {
            animationStartMode: GLTFLoaderAnimationStartMode.NONE,
            preprocessUrlAsync: makeConfinedUrl(realRoot),
            onParsed: (data) => { json = data.json; },
          },
        },
      });
    return { container, scene, json, warnings };
  } catch (e) {
    // The loader quotes its source URL: a whole asset as base64; keep its size only.
    const message = String(e && e.message ? e.message : e)
      .replace(/data:([^;,\s]*);base64,[A-Za-z0-9+/=]+/g, (m, type) => `data:${type};base64,(${m.length} characters)`);
    const err = new Error(`${message}${warnings.length ? ` (warnings: ${warnings.join('; ')})` : ''}`);
    err.warnings = warnings;
    throw err;
  } finally {
    Logger.Warn = saved;
    Logger.Error = savedError;
  }
}
