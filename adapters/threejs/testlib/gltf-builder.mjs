// Builds small glTF 2.0 documents for the adapter's tests: every accessor is
// FLOAT, packed into one buffer written as a base64 data URI.
export class GltfBuilder {
  constructor() {
    this.json = {
      asset: { version: '2.0', generator: 'gltf-anim threejs adapter tests' },
      scene: 0,
      scenes: [{ nodes: [] }],
      nodes: [],
      meshes: [],
      accessors: [],
      bufferViews: [],
      buffers: [],
      animations: [],
    };
    this.floats = [];
  }

  // A FLOAT accessor of `type` ('SCALAR', 'VEC3', ...) holding `values`.
  accessor(values, type, withBounds = false) {
    const byteOffset = this.floats.length * 4;
    this.floats.push(...values);
    this.json.bufferViews.push({ buffer: 0, byteOffset, byteLength: values.length * 4 });
    const width = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 }[type];
    const acc = { bufferView: this.json.bufferViews.length - 1, componentType: 5126, count: values.length / width, type };
    if (withBounds) {
      const min = [], max = [];
      for (let c = 0; c < width; c++) {
        let lo = Infinity, hi = -Infinity;
        for (let i = c; i < values.length; i += width) {
          const f = Math.fround(values[i]);
          lo = Math.min(lo, f);
          hi = Math.max(hi, f);
        }
        min.push(lo);
        max.push(hi);
      }
      acc.min = min;
      acc.max = max;
    }
    this.json.accessors.push(acc);
    return this.json.accessors.length - 1;
  }

  // A one-triangle mesh with `primitives` primitives, each with `targets` morph targets.
  mesh(primitives = 1, targets = 0) {
    const pos = this.accessor([0, 0, 0, 1, 0, 0, 0, 1, 0], 'VEC3', true);
    const prims = [];
    for (let p = 0; p < primitives; p++) {
      const prim = { attributes: { POSITION: pos } };
      if (targets) {
        prim.targets = [];
        for (let k = 0; k < targets; k++) {
          prim.targets.push({ POSITION: this.accessor([0, 0, k + 1, 0, 0, k + 1, 0, 0, k + 1], 'VEC3', true) });
        }
      }
      prims.push(prim);
    }
    const mesh = { primitives: prims };
    if (targets) mesh.weights = new Array(targets).fill(0);
    this.json.meshes.push(mesh);
    return this.json.meshes.length - 1;
  }

  node(def, { root = true } = {}) {
    this.json.nodes.push(def);
    const index = this.json.nodes.length - 1;
    if (root) this.json.scenes[0].nodes.push(index);
    return index;
  }

  // channels: [{node, path, times, values, interpolation}] or raw channel objects via `raw`.
  animation(name, channels) {
    const anim = { name, channels: [], samplers: [] };
    for (const c of channels) {
      if (c.raw) {
        const input = this.accessor(c.times, 'SCALAR', true);
        const output = this.accessor(c.values, c.type);
        anim.samplers.push({ input, output, interpolation: c.interpolation || 'LINEAR' });
        anim.channels.push({ ...c.raw, sampler: anim.samplers.length - 1 });
        continue;
      }
      const type = c.path === 'rotation' ? 'VEC4' : c.path === 'weights' ? 'SCALAR' : 'VEC3';
      const input = this.accessor(c.times, 'SCALAR', true);
      const output = this.accessor(c.values, type);
      anim.samplers.push({ input, output, interpolation: c.interpolation || 'LINEAR' });
      anim.channels.push({ sampler: anim.samplers.length - 1, target: { node: c.node, path: c.path } });
    }
    this.json.animations.push(anim);
    return this.json.animations.length - 1;
  }

  build() {
    const bytes = Buffer.from(new Float32Array(this.floats).buffer);
    this.json.buffers = [{ byteLength: bytes.length, uri: 'data:application/octet-stream;base64,' + bytes.toString('base64') }];
    return this.json;
  }
}
