// The glTF Sample Viewer's own classes, out of its published bundle.
//
// @khronosgroup/gltf-viewer ships one self-contained ES module
// (dist/gltf-viewer.module.js, no imports) that exports only GltfState,
// GltfView and ResourceLoader; loading an asset through ResourceLoader needs a
// WebGL context (textures, vertex buffers, shaders). The animation code does
// not: glTF.fromJson builds the viewer's object model (accessors, buffer
// views, nodes, materials, lights with their AnimatableProperty members),
// gltfAnimation.advance(gltf, t) runs the viewer's gltfInterpolator on it and
// writes the animated values into those properties. So the bundle's text is
// imported unchanged plus one line that also exports these classes (through a
// data: URL: nothing is written to disk).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BUNDLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)),
  '../../node_modules/@khronosgroup/gltf-viewer/dist/gltf-viewer.module.js');
const EXPORTS = ['glTF', 'gltfAnimation', 'gltfInterpolator', 'JsonPointer', 'AnimatableProperty', 'gltfWebGl'];

// The viewer reads WebGL enum values (GL.FLOAT, GL.TRIANGLES, ...) from the
// first context handed to gltfWebGl, also while building its object model
// (accessor component types, primitive modes, sampler defaults). Without a
// context these are the WebGL 2 specification's values; a name not listed
// here throws (an adapter error, never a silent undefined).
const WEBGL_ENUMS = Object.freeze({
  POINTS: 0, LINES: 1, LINE_LOOP: 2, LINE_STRIP: 3, TRIANGLES: 4, TRIANGLE_STRIP: 5, TRIANGLE_FAN: 6,
  BYTE: 5120, UNSIGNED_BYTE: 5121, SHORT: 5122, UNSIGNED_SHORT: 5123, INT: 5124, UNSIGNED_INT: 5125, FLOAT: 5126,
  NEAREST: 9728, LINEAR: 9729, NEAREST_MIPMAP_NEAREST: 9984, LINEAR_MIPMAP_NEAREST: 9985,
  NEAREST_MIPMAP_LINEAR: 9986, LINEAR_MIPMAP_LINEAR: 9987, TEXTURE_MAG_FILTER: 10240, TEXTURE_MIN_FILTER: 10241,
  TEXTURE_WRAP_S: 10242, TEXTURE_WRAP_T: 10243, REPEAT: 10497, CLAMP_TO_EDGE: 33071, MIRRORED_REPEAT: 33648,
  ARRAY_BUFFER: 34962, ELEMENT_ARRAY_BUFFER: 34963, STATIC_DRAW: 35044, TEXTURE_2D: 3553, TEXTURE_CUBE_MAP: 34067,
  RGBA: 6408, RGB: 6407, SRGB: 35904,
});
export const WEBGL_CONSTANTS = new Proxy(WEBGL_ENUMS, {
  get(target, name) {
    if (typeof name !== 'string' || name in target) return target[name];
    if (name === 'then') return undefined; // not a thenable
    throw new Error(`sample-viewer adapter: the viewer asked for WebGL constant ${name}, which has no value without a context`);
  },
});

let loaded;
export async function viewerClasses() {
  if (!loaded) {
    const text = fs.readFileSync(BUNDLE, 'utf8');
    for (const name of EXPORTS) {
      if (!new RegExp(`^(class|const|let|var|function) ${name}\\b`, 'm').test(text)) {
        throw new Error(`the viewer bundle has no top-level ${name}: another version than the adapter was written for`);
      }
    }
    // The bundle's TextEncoder polyfill looks for `window` or `self` when it
    // loads (a browser global): Node has neither, and has TextEncoder, so
    // `self` is the global object, as in a worker.
    if (typeof globalThis.self === 'undefined') globalThis.self = globalThis;
    const source = `${text}\nexport { ${EXPORTS.join(', ')} };\n`;
    loaded = import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`).then((m) => {
      new m.gltfWebGl(WEBGL_CONSTANTS); // sets the bundle's GL enum table (its first context)
      return m;
    });
  }
  return loaded;
}
