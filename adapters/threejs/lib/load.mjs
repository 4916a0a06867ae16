// Loading a glTF asset in plain Node with three.js's own GLTFLoader.
//
// GLTFLoader.parse() takes the file's bytes. Buffers that are not inside a GLB
// are fetched by three's FileLoader, which calls the global fetch() with a
// Request. Node's fetch handles data: URIs itself but not file: URLs, so
// loadGltf() resolves relative URIs against a file: URL of the asset's folder
// and installs, for the duration of the parse, a fetch wrapper that
//   - serves file: URLs by reading the file, only if its real path is inside
//     `root` (the conformance_assets folder): an asset cannot read elsewhere;
//   - passes data: URIs to Node's own fetch (three's normal path);
//   - refuses every other scheme (no network).
// Images: GLTFLoader decodes them through the DOM (TextureLoader/ImageLoader,
// `self.URL`), which Node lacks. A texture's pixels never influence animation,
// so a GLTFLoader plugin (the documented `loadTexture` hook, asked before the
// parser's own loader) hands back an empty THREE.Texture per glTF texture
// instead of decoding the image. Everything else (materials, samplers,
// KHR_texture_transform, animations) is three's own code.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Texture } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { installProgressEvent, isInside, makeConfinedFetch, withConfinedFetch } from '../../common/confined.mjs';

export { makeConfinedFetch };

// three's FileLoader constructs a ProgressEvent per chunk; Node 20 has none.
installProgressEvent();

export function placeholderTexturesPlugin(parser) {
  return {
    name: 'gltf_anim_placeholder_textures',
    loadTexture(textureIndex) {
      const def = parser.json.textures[textureIndex];
      const texture = new Texture();
      texture.name = def.name || '';
      texture.flipY = false; // as GLTFParser.loadTextureImage sets it
      parser.associations.set(texture, { textures: textureIndex });
      return Promise.resolve(texture);
    },
  };
}

// Parses glTF `data` (an ArrayBuffer of a .gltf or .glb, or a JSON string)
// with GLTFLoader; relative URIs resolve against `resourcePath` and may only
// read files inside `root` (both optional: without root, only data: URIs and
// the GLB body can be read). Resolves to GLTFLoader's result ({scene, scenes,
// animations, parser, ...}); rejects with the loader's error (three reports
// parse failures through onError).
export async function parseGltf(data, { resourcePath = '', root, plugins = [] } = {}) {
  return withConfinedFetch(root ?? null, () => new Promise((resolve, reject) => {
    const loader = new GLTFLoader().register(placeholderTexturesPlugin);
    for (const p of plugins) loader.register(p);
    loader.parse(data, resourcePath, resolve, reject);
  }));
}

// Loads `file` (.gltf or .glb), which must be inside `root`. plugins: more
// GLTFLoader plugin factories (e.g. the KHR_animation_pointer plugin).
export async function loadGltf(file, root = path.dirname(file), plugins = []) {
  const realRoot = fs.realpathSync(root);
  const realFile = fs.realpathSync(file);
  if (!isInside(realRoot, realFile)) throw new Error(`${file} is outside ${root}`);
  const bytes = fs.readFileSync(realFile);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const resourcePath = pathToFileURL(path.dirname(realFile)).href + '/';
  return parseGltf(data, { resourcePath, root: realRoot, plugins });
}
