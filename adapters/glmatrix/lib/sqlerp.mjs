// A CUBICSLERP channel (EXT_animation_sqlerp draft) evaluated with gl-matrix's
// quat.sqlerp, the library's own implementation of
//   sqlerp(A, B, C, D, t) = slerp(slerp(A, D, t), slerp(B, C, t), 2t(1 - t)).
// Only the segment bookkeeping is ours, as the draft states it: output holds
// [a_k, v_k, b_k] per key (in-tangent, value, out-tangent, unit quaternions);
// segment k is sqlerp(v_k, b_k, a_{k+1}, v_{k+1}, s) with
// s = (t - t_k) / (t_{k+1} - t_k); at a key time the key's value is used as
// is (glTF Appendix C.1); before the first and after the last key the first
// and last values hold (glTF 3.11).
// gl-matrix's slerp takes the shortest path (it negates the second quaternion
// when the dot product is negative) and keeps its temporaries in Float32Array
// (glMatrix.ARRAY_TYPE when the module loads), so its sqlerp is the
// shortest-path-inner-slerp reading with float32 intermediates.
import { quat } from 'gl-matrix';
import { readFloatAccessor } from './accessors.mjs';

// The keys of CUBICSLERP sampler `samplerIndex` of animation `anim`.
export function cubicSlerpKeys(gltf, anim, samplerIndex) {
  const s = anim.samplers[samplerIndex];
  if (!s) throw new Error(`no sampler ${samplerIndex}`);
  if (s.interpolation !== 'CUBICSLERP') throw new Error(`sampler ${samplerIndex} is ${s.interpolation}, not CUBICSLERP`);
  const times = readFloatAccessor(gltf, s.input);
  const out = readFloatAccessor(gltf, s.output);
  if (out.length !== times.length * 12) throw new Error(`output has ${out.length / 4} quaternions for ${times.length} keys (3 per key expected)`);
  const q = (i) => out.slice(4 * i, 4 * i + 4);
  return times.map((t, k) => ({ t, a: q(3 * k), v: q(3 * k + 1), b: q(3 * k + 2) }));
}

// The rotation at time t (an array of 4 numbers).
export function evaluateCubicSlerp(keys, t) {
  const n = keys.length;
  if (t <= keys[0].t) return [...keys[0].v];
  if (t >= keys[n - 1].t) return [...keys[n - 1].v];
  let k = 0;
  while (keys[k + 1].t <= t) k++; // keys[k].t <= t < keys[k+1].t
  if (keys[k].t === t) return [...keys[k].v];
  const s = (t - keys[k].t) / (keys[k + 1].t - keys[k].t);
  const r = quat.create();
  quat.sqlerp(r, keys[k].v, keys[k].b, keys[k + 1].a, keys[k + 1].v, s);
  return Array.from(r);
}
