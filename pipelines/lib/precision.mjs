// How far gltfpack -cc may move a sampled value from gltfpack's uncompressed
// output, derived from what gltfpack writes (gltf/stream.cpp,
// writeKeyframeStream, with the defaults of gltf/gltfpack.cpp: rot_bits 12,
// trn_bits 16, scl_bits 16) and the EXT_meshopt_compression filter
// definitions (src/vertexfilter.cpp):
//
//  - rotation: the QUATERNION filter at K = 12 bits (not for CUBICSPLINE
//    outputs, whose tangents are no unit quaternions; gltfpack bakes those to
//    LINEAR anyway). The three smallest components are stored as K-bit signed
//    normalized integers of c * sqrt(2) (|c| <= 1/sqrt(2)), so each is off by
//    at most
//        eps = 1 / (2 * (2^(K-1) - 1) * sqrt(2)) = 1.727e-4;
//    the largest one, rebuilt as sqrt(1 - x^2 - y^2 - z^2) with w >= 1/2, by at
//    most 3 eps; |dq| <= sqrt(3 eps^2 + 9 eps^2) = sqrt(12) eps, and the angle
//    between the rotations is at most 2 |dq| = 1.197e-3 rad. The decoded
//    quaternion is stored in the accessor's 16-bit SHORT (normalized) again, and
//    the uncompressed output is 16-bit too: each adds at most
//    2 * sqrt(4) * 0.5 / 32767 = 6.1e-5 rad. Interpolating keys that are each
//    within an angle a of the reference keys stays within a (slerp and nlerp of
//    close unit quaternions move no further apart than their ends).
//    Bound: 1.197e-3 + 2 * 6.1e-5 = 1.32e-3 rad.
//  - translation, scale: the EXPONENTIAL filter, one exponent per key vector
//    (meshopt_EncodeExpSharedVector), B = 16 bits: with e the exponent of the
//    vector's largest |component| (2^(e-1) <= max < 2^e), every component is
//    m * 2^(e - (B - 1)) with m an integer: off by at most half a step,
//    2^(e - B) <= 2^-(B-1) max = 2^-15 of the key's largest |component| (the
//    uncompressed output keeps float32 as is). A linear combination of keys
//    stays within 2^-15 of the channel's largest |component|, plus float32
//    rounding of the interpolation (4 ulp).
//  - weights: 8-bit unsigned normalized in both outputs: no difference.
export const QUAT_FILTER_BITS = 12;
export const QUAT_COMPONENT_ERROR = 1 / (2 * ((1 << (QUAT_FILTER_BITS - 1)) - 1) * Math.SQRT2);
export const SHORT_ANGLE_ERROR = 2 * 2 * (0.5 / 32767);
export const ROTATION_ANGLE_BOUND = 2 * Math.sqrt(12) * QUAT_COMPONENT_ERROR + 2 * SHORT_ANGLE_ERROR;
export const EXP_FILTER_BITS = 16;
export const FLOAT_RELATIVE_BOUND = 2 ** -(EXP_FILTER_BITS - 1) + 4 * 2 ** -23;

// The angle between two rotations given as quaternions (q and -q equal).
export function quatAngle(a, b) {
  const la = Math.hypot(...a);
  const lb = Math.hypot(...b);
  if (!la || !lb) return la === lb ? 0 : Math.PI;
  let d = 0;
  for (let k = 0; k < 4; k++) d += (a[k] / la) * (b[k] / lb);
  return 2 * Math.acos(Math.min(1, Math.abs(d)));
}

// The bound for one channel: {measure, bound}. `keysMaxAbs`: the largest
// |component| of the reference channel's keys (translation and scale).
export function channelBound(path, keysMaxAbs) {
  if (path === 'rotation') return { measure: 'angle', bound: ROTATION_ANGLE_BOUND };
  if (path === 'translation' || path === 'scale') return { measure: 'absolute', bound: FLOAT_RELATIVE_BOUND * keysMaxAbs };
  return { measure: 'absolute', bound: 0 };
}

// Each pipeline's stated precision against the goldens: how far a sampled
// value may be from the golden one for the animation to count as surviving
// (docs/conformance/pipelines-notes.md derives each figure).
//  - gltfpack (every variant): rotations as 16-bit SHORT normalized,
//    2 * sqrt(4) * 0.5 / 32767 = 6.1e-5 rad; morph weights as 8-bit UNSIGNED_BYTE
//    normalized, 0.5 / 255 = 1.96e-3; translation and scale float32 (23 bits).
//    -cc: rotations through the 12-bit quaternion filter (1.197e-3 rad, then
//    16-bit: 1.26e-3 rad), translation and scale through the 16-bit
//    EXPONENTIAL filter (2^-15 of the largest |component|).
//  - glTF-Transform resample (and optimize, which resamples): a key is
//    removed when its neighbours' interpolation gives it within 1e-4 per
//    component (its --tolerance); linear segments differ most at the removed
//    keys, so 1e-4 absolute; quaternions: components within 1e-4, an angle of
//    at most 2 * sqrt(4) * 1e-4 = 4e-4 rad.
//  - glTF-Transform meshopt (and optimize, which ends with it): the
//    QUATERNION filter at 16 bits for rotations (2 * sqrt(12) / (2 * 32767 *
//    sqrt(2)) = 7.5e-5 rad, then stored as 16-bit SHORT: + 6.1e-5 rad), the
//    EXPONENTIAL filter with 12-bit mantissas for translation and scale (a
//    mantissa m with 2^10 <= |m| < 2^11, or the vector's largest one when the
//    exponent is shared: at most 2^-11 of the largest |component|).
//  - draco, quantize: animation data are not to change: the case's own
//    tolerance (0 here).
// Every figure gets 4 float32 ulps of the largest |value| for rounding.
const ULPS = 4 * 2 ** -23;
const RESAMPLE_ANGLE = 2 * 2 * 1e-4;
const GT_QUAT_ANGLE = 2 * Math.sqrt(12) / (2 * 32767 * Math.SQRT2) + SHORT_ANGLE_ERROR;
const EXP_RELATIVE = 2 ** -11;
export const PRECISION = {
  gltfpack: { angle: SHORT_ANGLE_ERROR, weights: 0.5 / 255, relative: 0 },
  'gltfpack-c': { angle: SHORT_ANGLE_ERROR, weights: 0.5 / 255, relative: 0 },
  'gltfpack-kn': { angle: SHORT_ANGLE_ERROR, weights: 0.5 / 255, relative: 0 },
  'gltfpack-cc': { angle: 2 * Math.sqrt(12) * QUAT_COMPONENT_ERROR + SHORT_ANGLE_ERROR, weights: 0.5 / 255, relative: 2 ** -(EXP_FILTER_BITS - 1) },
  'gt-resample': { angle: RESAMPLE_ANGLE, absolute: 1e-4, relative: 0 },
  'gt-meshopt': { angle: GT_QUAT_ANGLE, relative: EXP_RELATIVE },
  'gt-optimize': { angle: RESAMPLE_ANGLE + GT_QUAT_ANGLE, absolute: 1e-4, relative: EXP_RELATIVE },
};

export function precisionOf(pipelineId, path, measure, maxAbs) {
  const p = PRECISION[pipelineId] || {};
  const rounding = ULPS * maxAbs;
  if (measure === 'angle') return (p.angle || 0) + 2 * ULPS;
  if (path === 'weights' && p.weights) return p.weights + rounding;
  return (p.absolute || 0) + (p.relative || 0) * maxAbs + rounding;
}
