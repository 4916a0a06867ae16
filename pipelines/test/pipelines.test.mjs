// Unit tests of the pipeline matrix: the stated precisions against a brute-force
// run of the quaternion filter, the GLB key reader, and the cells' rules (a false
// error, gltfpack -c leaving gltfpack's output, a pass within the precision).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  QUAT_COMPONENT_ERROR, ROTATION_ANGLE_BOUND, SHORT_ANGLE_ERROR, FLOAT_RELATIVE_BOUND,
  PRECISION, channelBound, precisionOf, quatAngle,
} from '../lib/precision.mjs';
import { keysMaxAbs } from '../run.mjs';
import { buildMatrix } from '../matrix.mjs';
import { PIPELINES } from '../lib/pipelines.mjs';

// EXT_meshopt_compression's QUATERNION filter, encoded as gltfpack's encodeQuat and
// decoded as the extension's spec says, at K bits; then stored as 16-bit SHORT.
function snorm(v, bits) {
  const scale = (1 << (bits - 1)) - 1;
  return Math.round(Math.max(-1, Math.min(1, v)) * scale);
}
function quatFilter(q, bits) {
  let qc = 0;
  for (let k = 1; k < 4; k++) if (Math.abs(q[k]) > Math.abs(q[qc])) qc = k;
  const sign = q[qc] < 0 ? -1 : 1;
  const s = Math.SQRT2 * sign;
  const enc = [1, 2, 3].map((d) => snorm(q[(qc + d) & 3] * s, bits));
  const range = 1 / Math.SQRT2 / ((1 << (bits - 1)) - 1);
  const x = enc.map((e) => e * range);
  const w = Math.sqrt(Math.max(0, 1 - x[0] * x[0] - x[1] * x[1] - x[2] * x[2]));
  const out = [0, 0, 0, 0];
  out[(qc + 1) & 3] = x[0];
  out[(qc + 2) & 3] = x[1];
  out[(qc + 3) & 3] = x[2];
  out[qc] = w;
  return out.map((c) => snorm(c, 16) / 32767);
}
function randomUnitQuat(rand) {
  const q = [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1];
  const l = Math.hypot(...q);
  return q.map((c) => c / l);
}
function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

test('the 12-bit quaternion filter figures: eps = 1.727e-4, the angle bound 1.32e-3 rad', () => {
  assert.ok(Math.abs(QUAT_COMPONENT_ERROR - 1.7272e-4) < 1e-7);
  assert.ok(Math.abs(SHORT_ANGLE_ERROR - 6.1037e-5) < 1e-8);
  assert.ok(Math.abs(ROTATION_ANGLE_BOUND - 1.3186e-3) < 1e-6);
  assert.ok(Math.abs(PRECISION['gltfpack-cc'].angle - 1.2577e-3) < 1e-6);
});

test('the quaternion filter at 12 bits stays within its stated bound on 20000 rotations', () => {
  const rand = lcg(7);
  let worst = 0;
  for (let i = 0; i < 20000; i++) {
    const q = randomUnitQuat(rand);
    worst = Math.max(worst, quatAngle(q, quatFilter(q, 12)));
  }
  assert.ok(worst <= PRECISION['gltfpack-cc'].angle, `worst ${worst}`);
  // The bound is not loose by orders of magnitude.
  assert.ok(worst > PRECISION['gltfpack-cc'].angle / 10, `worst ${worst}`);
});

test('glTF-Transform meshopt: the 16-bit quaternion filter stays within 1.36e-4 rad', () => {
  const rand = lcg(11);
  let worst = 0;
  for (let i = 0; i < 20000; i++) {
    const q = randomUnitQuat(rand);
    worst = Math.max(worst, quatAngle(q, quatFilter(q, 16)));
  }
  assert.ok(worst <= PRECISION['gt-meshopt'].angle, `worst ${worst}`);
  assert.ok(Math.abs(PRECISION['gt-meshopt'].angle - 1.358e-4) < 1e-6);
});

// meshopt_encodeFilterExp with one exponent per vector, and its decoding.
function expFilterShared(v, bits) {
  const log2 = (x) => (x === 0 ? -100 : Math.floor(Math.log2(Math.abs(x))) + 1);
  const e = Math.max(-100, ...v.map(log2)) - (bits - 1);
  return v.map((x) => Math.fround(Math.round(x * 2 ** -e) * 2 ** e));
}

test('the EXPONENTIAL filter, one exponent per vector, 16 bits: within 2^-15 of the largest |component|', () => {
  assert.equal(channelBound('translation', 2).bound, 2 * FLOAT_RELATIVE_BOUND);
  assert.equal(channelBound('rotation', 2).measure, 'angle');
  assert.equal(channelBound('weights', 2).bound, 0);
  const rand = lcg(3);
  let worst = 0;
  for (let i = 0; i < 20000; i++) {
    const scale = 10 ** (rand() * 6 - 3);
    const v = [0, 1, 2].map(() => Math.fround((rand() * 2 - 1) * scale));
    const d = expFilterShared(v, 16);
    const m = Math.max(...v.map(Math.abs));
    for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(d[k] - v[k]) / m);
  }
  assert.ok(worst <= FLOAT_RELATIVE_BOUND, `worst ${worst}`);
  assert.ok(worst > 2 ** -16, `worst ${worst}: the bound is not loose by more than 2`);
});

test('quatAngle: q and -q are one rotation; a quarter turn about z is pi/2', () => {
  assert.equal(quatAngle([0, 0, 0, 1], [0, 0, 0, -1]), 0);
  const h = Math.SQRT1_2;
  assert.ok(Math.abs(quatAngle([0, 0, 0, 1], [0, 0, h, h]) - Math.PI / 2) < 1e-12);
});

test('precisionOf: gltfpack weights 0.5/255, resample 1e-4, draco nothing beyond rounding', () => {
  assert.ok(Math.abs(precisionOf('gltfpack', 'weights', 'absolute', 1) - (0.5 / 255 + 4 * 2 ** -23)) < 1e-15);
  assert.ok(Math.abs(precisionOf('gt-resample', 'translation', 'absolute', 0) - 1e-4) < 1e-15);
  assert.equal(precisionOf('gt-draco', 'translation', 'absolute', 0), 0);
});

function glbWith(json, bin) {
  const j = Buffer.from(JSON.stringify(json));
  const jp = Buffer.concat([j, Buffer.alloc((4 - (j.length % 4)) % 4, 0x20)]);
  const head = Buffer.alloc(12);
  head.write('glTF', 0, 'latin1');
  head.writeUInt32LE(2, 4);
  head.writeUInt32LE(12 + 8 + jp.length + 8 + bin.length, 8);
  const jh = Buffer.alloc(8);
  jh.writeUInt32LE(jp.length, 0);
  jh.writeUInt32LE(0x4e4f534a, 4);
  const bh = Buffer.alloc(8);
  bh.writeUInt32LE(bin.length, 0);
  bh.writeUInt32LE(0x004e4942, 4);
  return Buffer.concat([head, jh, jp, bh, bin]);
}

test('keysMaxAbs reads FLOAT keys from the BIN chunk, and gives 0 for compressed views', () => {
  const bin = Buffer.from(new Float32Array([0, 1, 1, -7.5, 2, 0.25, 3, 4]).buffer);
  const json = {
    accessors: [{ bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR' },
      { bufferView: 0, byteOffset: 8, componentType: 5126, count: 2, type: 'VEC3' }],
    bufferViews: [{ buffer: 0, byteLength: 32 }],
    animations: [{ samplers: [{ input: 0, output: 1 }], channels: [] }],
  };
  assert.equal(keysMaxAbs(json, glbWith(json, bin), 0, 0), 7.5);
  json.bufferViews[0].extensions = { EXT_meshopt_compression: {} };
  assert.equal(keysMaxAbs(json, glbWith(json, bin), 0, 0), 0);
});

function channel(extra) {
  return { animation: 0, channel: 0, target: '/nodes/0/rotation', pointer: false, goldenInterpolation: 'LINEAR',
    goldenKeys: 4, interpolation: 'LINEAR', keys: 4, keyTimesEqual: true, measure: 'angle', maxError: 0, withinPrecision: true, ...extra };
}
function facts(extra) {
  return { exported: true, channels: [channel()], validation: { errors: 0, codes: [] }, khronos: { errors: 0, codes: [] }, ...extra };
}
function matrixOf(factsById, reports = {}, verdicts = {}) {
  const pipelines = PIPELINES.filter((p) => factsById[p.id]);
  return buildMatrix({
    manifest: { assets: [{ id: 'case_a', samples: 'x' }] },
    pipelines,
    facts: factsById,
    reports,
    verdicts,
    versions: { gltfpack: '1.3.0', 'gltf-transform': '4.5.1', 'gltf-validator': '2.0.0-dev.3.10' },
    notesText: '',
  });
}

test('a false error of gltf-anim is a problem; the same error from both validators is not', () => {
  const wrong = facts({ validation: { errors: 1, codes: ['X'], first: { code: 'X', pointer: '/a', message: 'm' } } });
  const m = matrixOf({ gltfpack: { case_a: wrong } }, { gltfpack: { cases: [{ id: 'case_a', passed: true }] } });
  assert.match(m.text, /\*\*false error: X at \/a\*\*/);
  assert.ok(m.problems.some((p) => p.includes('glTF-Validator does not')));
  const both = facts({ validation: { errors: 1, codes: ['X'] }, khronos: { errors: 1, codes: ['X'] } });
  const m2 = matrixOf({ gltfpack: { case_a: both } }, { gltfpack: { cases: [{ id: 'case_a', passed: false }] } });
  assert.deepEqual(m2.problems, []);
  assert.match(m2.text, /invalid output \(X\)/);
});

test('gltfpack -c must equal gltfpack; -cc may differ within the filters', () => {
  const same = facts({ reference: { comparable: true, channels: 1, differing: 0, exact: true, withinBound: true, maxAngle: 0, maxAbsolute: 0 } });
  const off = facts({ reference: { comparable: true, channels: 1, differing: 1, exact: false, withinBound: true, maxAngle: 1e-4, maxAbsolute: 0 } });
  const rep = { cases: [{ id: 'case_a', passed: true }] };
  assert.deepEqual(matrixOf({ 'gltfpack-c': { case_a: same } }, { 'gltfpack-c': rep }).problems, []);
  assert.ok(matrixOf({ 'gltfpack-c': { case_a: off } }, { 'gltfpack-c': rep }).problems.length === 1);
  const m = matrixOf({ 'gltfpack-cc': { case_a: off } }, { 'gltfpack-cc': rep });
  assert.deepEqual(m.problems, []);
  assert.match(m.text, /≈ gltfpack \(filters: 0.00010 rad\)/);
  const beyond = facts({ reference: { ...off.reference, withinBound: false, worst: { channel: '0/0', t: 1, measure: 'angle', error: 2e-3, bound: 1.3e-3 } } });
  assert.ok(matrixOf({ 'gltfpack-cc': { case_a: beyond } }, { 'gltfpack-cc': rep }).problems.length === 1);
});

test('a case within the pipeline precision passes; a dropped channel fails whatever the error', () => {
  const rep = { cases: [{ id: 'case_a', passed: false, channels: [{ passed: false, max: 5e-5, measure: 'angle' }] }] };
  const within = facts({ channels: [channel({ maxError: 5e-5, keys: 106, keyTimesEqual: false })] });
  const m = matrixOf({ gltfpack: { case_a: within } }, { gltfpack: rep });
  assert.match(m.text, /✅ pass within the pipeline's precision \(max error 0.000050 rad\), changed: keys 4 → 106/);
  const dropped = facts({ channels: [channel({ dropped: true, withinPrecision: undefined, maxError: undefined })] });
  assert.match(matrixOf({ gltfpack: { case_a: dropped } }, { gltfpack: rep }).text, /❌ fail: every channel dropped \(rotation\)/);
});

test('gltfpack -cc passes as gltfpack when gltfpack passes and -cc stays within the filters', () => {
  const ref = facts({ channels: [channel({ interpolation: 'LINEAR', goldenInterpolation: 'CUBICSPLINE', keys: 61 })] });
  const cc = facts({ channels: [channel({ interpolation: 'LINEAR', goldenInterpolation: 'CUBICSPLINE', keys: 61, withinPrecision: false })],
    reference: { comparable: true, channels: 1, differing: 1, exact: false, withinBound: true, maxAngle: 1e-4, maxAbsolute: 0 } });
  const m = matrixOf({ gltfpack: { case_a: ref }, 'gltfpack-cc': { case_a: cc } },
    { gltfpack: { cases: [{ id: 'case_a', passed: true }] }, 'gltfpack-cc': { cases: [{ id: 'case_a', passed: false, channels: [{ passed: false, max: 1e-4 }] }] } });
  assert.match(m.text, /✅ pass as gltfpack, within the filters' precision, changed: CUBICSPLINE → LINEAR/);
  assert.deepEqual(m.problems, []);
});

test('an error glTF-Validator cannot see in a meshopt view is named, not counted false, when it reports it uncompressed', () => {
  const err = { errors: 1, codes: ['Q'], first: { code: 'Q', pointer: '/p', message: 'm' } };
  const ref = facts({ validation: err, khronos: { errors: 1, codes: ['Q'] } });
  const c = facts({ validation: err, reference: { comparable: true, channels: 1, differing: 0, exact: true, withinBound: true, maxAngle: 0, maxAbsolute: 0 } });
  const rep = { cases: [{ id: 'case_a', passed: false }] };
  const m = matrixOf({ gltfpack: { case_a: ref }, 'gltfpack-c': { case_a: c } }, { gltfpack: rep, 'gltfpack-c': rep });
  assert.deepEqual(m.problems, []);
  assert.match(m.text, /which glTF-Validator reports on gltfpack's uncompressed output/);
  assert.match(m.text, /1 \/ 1; 0 \| 1 \/ 0; 0/);
  // Without that report on the uncompressed output it is a false error.
  const m2 = matrixOf({ gltfpack: { case_a: facts() }, 'gltfpack-c': { case_a: c } }, { gltfpack: rep, 'gltfpack-c': rep });
  assert.ok(m2.problems.some((p) => p.includes('glTF-Validator does not')));
});

test('gltfpack -cc is not measured against an invalid gltfpack output', () => {
  const ref = facts({ validation: { errors: 1, codes: ['Q'] }, khronos: { errors: 1, codes: ['Q'] } });
  const cc = facts({ reference: { comparable: true, channels: 1, differing: 1, exact: false, withinBound: false, maxAngle: 0.26, maxAbsolute: 0,
    worst: { channel: '0/0', t: 1, measure: 'angle', error: 0.26, bound: 1.3e-3 } } });
  const rep = { cases: [{ id: 'case_a', passed: false }] };
  const m = matrixOf({ gltfpack: { case_a: ref }, 'gltfpack-cc': { case_a: cc } }, { gltfpack: rep, 'gltfpack-cc': rep });
  assert.match(m.text, /gltfpack's output is invalid \(Q\): not compared/);
  assert.ok(!m.problems.some((p) => p.includes('filters')));
});
