// An independent reader and evaluator of glTF 2.0 animations for the reduce benchmark:
// its own .gltf/.glb and accessor decoding (normalized integers, strides, sparse) and
// Appendix C's STEP, LINEAR (lerp, shortest-path slerp) and CUBICSPLINE (Hermite with
// tangents scaled by the segment's duration, rotations normalized), sharing no code with
// gltf-anim's C++ evaluator, glTF-Transform or gltfpack.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const TYPES = {
  5120: [1, (v, o) => v.getInt8(o), (c) => Math.max(c / 127, -1)],
  5121: [1, (v, o) => v.getUint8(o), (c) => c / 255],
  5122: [2, (v, o) => v.getInt16(o, true), (c) => Math.max(c / 32767, -1)],
  5123: [2, (v, o) => v.getUint16(o, true), (c) => c / 65535],
  5125: [4, (v, o) => v.getUint32(o, true), (c) => c / 4294967295],
  5126: [4, (v, o) => v.getFloat32(o, true), (c) => c],
};

export function loadGltf(path) {
  const bytes = readFileSync(path);
  let json;
  let bin = null;
  if (bytes.readUInt32LE(0) === 0x46546c67) {
    let offset = 12;
    while (offset < bytes.length) {
      const length = bytes.readUInt32LE(offset);
      const type = bytes.readUInt32LE(offset + 4);
      const chunk = bytes.subarray(offset + 8, offset + 8 + length);
      if (type === 0x4e4f534a) json = JSON.parse(chunk.toString('utf8'));
      else if (type === 0x004e4942 && bin === null) bin = chunk;
      offset += 8 + length;
    }
  } else {
    json = JSON.parse(bytes.toString('utf8'));
  }
  const buffers = (json.buffers ?? []).map((b, i) => {
    if (b.uri === undefined) return i === 0 ? bin : null;
    if (b.uri.startsWith('data:')) return Buffer.from(b.uri.slice(b.uri.indexOf(',') + 1), 'base64');
    return readFileSync(join(dirname(path), decodeURIComponent(b.uri)));
  });
  return { json, buffers, path, fileBytes: bytes.length };
}

// The accessor's elements decoded to numbers (normalized integers as glTF decodes them).
export function readAccessor(gltf, index) {
  const a = gltf.json.accessors[index];
  const width = COMPONENTS[a.type];
  const [size, get, decode] = TYPES[a.componentType];
  const out = new Float64Array(a.count * width);
  const norm = a.normalized ? decode : (c) => c;
  if (a.bufferView !== undefined) {
    const bv = gltf.json.bufferViews[a.bufferView];
    const buf = gltf.buffers[bv.buffer];
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const stride = bv.byteStride ?? width * size;
    const base = (bv.byteOffset ?? 0) + (a.byteOffset ?? 0);
    for (let e = 0; e < a.count; ++e)
      for (let c = 0; c < width; ++c) out[e * width + c] = norm(get(view, base + e * stride + c * size));
  }
  if (a.sparse) {
    const s = a.sparse;
    const ib = gltf.json.bufferViews[s.indices.bufferView];
    const vb = gltf.json.bufferViews[s.values.bufferView];
    const [isize, iget] = TYPES[s.indices.componentType];
    const ibuf = gltf.buffers[ib.buffer];
    const vbuf = gltf.buffers[vb.buffer];
    const iview = new DataView(ibuf.buffer, ibuf.byteOffset, ibuf.byteLength);
    const vview = new DataView(vbuf.buffer, vbuf.byteOffset, vbuf.byteLength);
    const ibase = (ib.byteOffset ?? 0) + (s.indices.byteOffset ?? 0);
    const vbase = (vb.byteOffset ?? 0) + (s.values.byteOffset ?? 0);
    for (let i = 0; i < s.count; ++i) {
      const e = iget(iview, ibase + i * isize);
      for (let c = 0; c < width; ++c)
        out[e * width + c] = norm(get(vview, vbase + (i * width + c) * size));
    }
  }
  return out;
}

// Bytes of an accessor's data as stored (elements x components x component size).
export function accessorBytes(gltf, index) {
  const a = gltf.json.accessors[index];
  return a.count * COMPONENTS[a.type] * TYPES[a.componentType][0];
}

// Every channel of every animation: what it targets (a key that survives re-indexing:
// the node's name, or its index when unnamed, and the path; or the pointer) and its track.
export function channels(gltf) {
  const result = [];
  const nodes = gltf.json.nodes ?? [];
  (gltf.json.animations ?? []).forEach((anim, ai) => {
    anim.channels.forEach((ch, ci) => {
      const sampler = anim.samplers[ch.sampler];
      const pointer = ch.target.extensions?.KHR_animation_pointer?.pointer;
      let key;
      let rotation;
      if (ch.target.path === 'pointer' || pointer !== undefined) {
        key = `pointer ${pointer}`;
        rotation = /\/rotation$/.test(pointer ?? '');
      } else {
        const node = nodes[ch.target.node];
        key = `node ${node?.name ?? '#' + ch.target.node} ${ch.target.path}`;
        rotation = ch.target.path === 'rotation';
      }
      const times = readAccessor(gltf, sampler.input);
      const values = readAccessor(gltf, sampler.output);
      const interpolation = sampler.interpolation ?? 'LINEAR';
      const perKey = interpolation === 'CUBICSPLINE' ? 3 : 1;
      const width = times.length ? values.length / (times.length * perKey) : 0;
      result.push({
        animation: anim.name ?? `#${ai}`, animationIndex: ai, channel: ci, key, rotation,
        node: ch.target.node, path: ch.target.path, input: sampler.input,
        output: sampler.output, track: { times, values, width, interpolation },
      });
    });
  });
  return result;
}

// A node's rest value of a TRS path (what plays when no channel animates it).
export function restValue(gltf, nodeName, path) {
  const node = (gltf.json.nodes ?? []).find((n) => n.name === nodeName);
  if (!node) return null;
  if (node[path]) return Float64Array.from(node[path]);
  if (path === 'rotation') return Float64Array.from([0, 0, 0, 1]);
  if (path === 'scale') return Float64Array.from([1, 1, 1]);
  if (path === 'translation') return Float64Array.from([0, 0, 0]);
  return null;
}

function slerp(a, b, u) {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s = d < 0 ? -1 : 1;
  d = Math.min(1, Math.abs(d));
  const angle = Math.acos(d);
  let wa = 1 - u;
  let wb = u;
  if (angle > 1e-9) {
    wa = Math.sin(angle * (1 - u)) / Math.sin(angle);
    wb = Math.sin(angle * u) / Math.sin(angle);
  }
  return [0, 1, 2, 3].map((i) => wa * a[i] + s * wb * b[i]);
}

// The track's value at time t (Appendix C). Clamped outside the keys.
export function evaluate(track, t, rotation) {
  const { times, values, width, interpolation } = track;
  const n = times.length;
  const cubic = interpolation === 'CUBICSPLINE';
  const stride = cubic ? 3 * width : width;
  const at = (k) => values.subarray(k * stride + (cubic ? width : 0), k * stride + (cubic ? 2 * width : width));
  if (n === 1 || t <= times[0]) return Array.from(at(0));
  if (t >= times[n - 1]) return Array.from(at(n - 1));
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  const k = lo;
  if (t === times[k]) return Array.from(at(k));
  const td = times[k + 1] - times[k];
  const u = (t - times[k]) / td;
  if (interpolation === 'STEP') return Array.from(at(k));
  if (!cubic) {
    if (rotation) return slerp(at(k), at(k + 1), u);
    const a = at(k);
    const b = at(k + 1);
    return Array.from(a, (x, i) => (1 - u) * x + u * b[i]);
  }
  const v0 = at(k);
  const v1 = at(k + 1);
  const b0 = values.subarray(k * stride + 2 * width, k * stride + 3 * width);
  const a1 = values.subarray((k + 1) * stride, (k + 1) * stride + width);
  const u2 = u * u;
  const u3 = u2 * u;
  const out = Array.from(v0, (x, i) =>
    (2 * u3 - 3 * u2 + 1) * x + td * (u3 - 2 * u2 + u) * b0[i] + (-2 * u3 + 3 * u2) * v1[i] +
    td * (u3 - u2) * a1[i]);
  if (rotation) {
    const l = Math.hypot(...out);
    return l > 0 ? out.map((x) => x / l) : out;
  }
  return out;
}

// Rotation angle between two quaternions as rotations (q and -q the same), radians.
export function angle(a, b) {
  const la = Math.hypot(...a);
  const lb = Math.hypot(...b);
  const na = a.map((x) => x / la);
  let nb = b.map((x) => x / lb);
  if (na.reduce((s, x, i) => s + x * nb[i], 0) < 0) nb = nb.map((x) => -x);
  const dm = Math.hypot(...na.map((x, i) => x - nb[i]));
  const dp = Math.hypot(...na.map((x, i) => x + nb[i]));
  return 4 * Math.atan2(dm, dp);
}

// The largest error of `value(t)` against the original track over the original's time
// range: at every original key, `dense` points inside every original segment and every
// key of `extraTimes` (the other track's keys). Vectors: max |component difference|;
// rotations: the angle, and the largest quaternion component difference (sign-aligned).
export function trackError(original, rotation, value, extraTimes = [], dense = 32) {
  const { times } = original.track ?? original;
  const track = original.track ?? original;
  let worst = 0;
  let worstComponent = 0;
  const at = (t) => {
    const o = evaluate(track, t, rotation);
    const r = value(t);
    if (rotation) {
      worst = Math.max(worst, angle(o, r));
      const s = o.reduce((acc, x, i) => acc + x * r[i], 0) < 0 ? -1 : 1;
      const ln = Math.hypot(...r);
      for (let i = 0; i < 4; ++i) worstComponent = Math.max(worstComponent, Math.abs(o[i] - (s * r[i]) / ln));
    } else {
      for (let i = 0; i < o.length; ++i) worst = Math.max(worst, Math.abs(o[i] - r[i]));
    }
  };
  for (let k = 0; k < times.length; ++k) {
    at(times[k]);
    if (k + 1 < times.length) {
      for (let s = 1; s <= dense; ++s) at(times[k] + ((times[k + 1] - times[k]) * s) / (dense + 1));
      at(times[k + 1] - (times[k + 1] - times[k]) * 1e-9);  // just before a STEP key
    }
  }
  const first = times[0];
  const last = times[times.length - 1];
  for (const t of extraTimes) if (t >= first && t <= last) at(t);
  return { error: worst, component: rotation ? worstComponent : worst };
}
