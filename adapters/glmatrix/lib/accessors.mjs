// A minimal FLOAT accessor reader for the gl-matrix cross-check (the file
// itself is read by ../../common/gltf-file.mjs). It deliberately decodes
// nothing else: the cross-check exists for the CUBICSLERP samplers of
// EXT_animation_sqlerp, whose keys the draft stores as floats; anything else
// is refused with a reason, never guessed.
export { readGltf } from '../../common/gltf-file.mjs';

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };

// FLOAT accessor `index` as an array of Number (count x components).
export function readFloatAccessor(gltf, index) {
  const a = (gltf.json.accessors || [])[index];
  if (!a) throw new Error(`no accessor ${index}`);
  if (a.componentType !== 5126) throw new Error(`accessor ${index}: componentType ${a.componentType}, only FLOAT is read here`);
  if (a.sparse) throw new Error(`accessor ${index}: sparse accessors are not read here`);
  const n = COMPONENTS[a.type];
  if (!n) throw new Error(`accessor ${index}: type ${a.type}`);
  if (a.bufferView === undefined) return new Array(a.count * n).fill(0);
  const view = gltf.json.bufferViews[a.bufferView];
  const data = gltf.bufferBytes(view.buffer);
  const stride = view.byteStride ?? 4 * n;
  const base = (view.byteOffset ?? 0) + (a.byteOffset ?? 0);
  const end = base + (a.count - 1) * stride + 4 * n;
  if (a.count > 0 && (end > (view.byteOffset ?? 0) + view.byteLength || end > data.length)) {
    throw new Error(`accessor ${index} runs past its bufferView`);
  }
  const out = new Array(a.count * n);
  for (let i = 0; i < a.count; i++) {
    for (let c = 0; c < n; c++) out[i * n + c] = data.readFloatLE(base + i * stride + 4 * c);
  }
  return out;
}
