// Unit tests of the channel mapping and of the matrix cells, on hand-made
// glTF JSON and facts (no exporter runs here).
import test from 'node:test';
import assert from 'node:assert/strict';
import { mapPointer, findAnimation, weightsElsewhere } from '../lib/mapping.mjs';
import { cellOf, factPhrases } from '../matrix.mjs';

const original = {
  nodes: [{ name: 'root' }, { name: 'target' }, { name: 'target' }, {}],
  materials: [{ name: 'skin' }],
  extensions: { KHR_lights_punctual: { lights: [{ name: 'lamp', color: [1, 1, 1] }] } },
  animations: [{ name: 'walk' }, { name: 'run' }],
};

test('a renumbered node is found by its name, the k-th of a name by k', () => {
  const exported = { nodes: [{ name: 'target' }, { name: '__root__' }, { name: 'target' }, { name: 'root' }] };
  assert.equal(mapPointer('/nodes/1/rotation', original, exported), '/nodes/0/rotation');
  assert.equal(mapPointer('/nodes/2/rotation', original, exported), '/nodes/2/rotation');
  assert.equal(mapPointer('/nodes/0/translation', original, exported), '/nodes/3/translation');
});

test("three.js's unique-name suffix is followed", () => {
  const exported = { nodes: [{ name: 'root' }, { name: 'target' }, { name: 'target_1' }] };
  assert.equal(mapPointer('/nodes/2/scale', original, exported), '/nodes/2/scale');
});

test('an unnamed object keeps its index only when the collection keeps its size', () => {
  assert.equal(mapPointer('/nodes/3/weights', original, { nodes: [{}, {}, {}, {}] }), '/nodes/3/weights');
  assert.equal(mapPointer('/nodes/3/weights', original, { nodes: [{}, {}] }), undefined);
});

test('pointers into extensions map their arrays by name too; a lost object is undefined', () => {
  const exported = { extensions: { KHR_lights_punctual: { lights: [{ name: 'other' }, { name: 'lamp' }] } } };
  assert.equal(mapPointer('/extensions/KHR_lights_punctual/lights/0/color', original, exported),
    '/extensions/KHR_lights_punctual/lights/1/color');
  assert.equal(mapPointer('/extensions/KHR_lights_punctual/lights/0/color', original, {}), undefined);
  assert.equal(mapPointer('/materials/0/pbrMetallicRoughness/baseColorFactor', original, { materials: [{ name: 'skin' }] }),
    '/materials/0/pbrMetallicRoughness/baseColorFactor');
});

test('the animation of the same name is searched first, then the others', () => {
  const exported = { animations: [{ name: 'run' }, { name: 'walk' }] };
  const sampled = { animations: [{ index: 0, channels: [] }, { index: 1, channels: [] }] };
  assert.deepEqual(findAnimation({ index: 0 }, original, exported, sampled).map((a) => a.index), [1, 0]);
});

const channel = (over) => ({ animation: 0, channel: 0, target: '/nodes/0/rotation', goldenInterpolation: 'CUBICSPLINE', goldenKeys: 4,
  interpolation: 'CUBICSPLINE', keys: 4, keyTimesEqual: true, ...over });

test('facts name what changed: dropped kinds, conversions, key counts, invalid output', () => {
  const facts = { exported: true, validation: { errors: 2, codes: ['EMPTY_ENTITY'] },
    channels: [channel({ interpolation: 'LINEAR', keys: 106 }), channel({ channel: 1, target: '/materials/0/alphaCutoff', dropped: true })] };
  assert.deepEqual(factPhrases(facts), ['invalid output (EMPTY_ENTITY)', '1 of 2 channels dropped (pointer)', 'CUBICSPLINE → LINEAR', 'keys 4 → 106']);
});

test('a failure the facts do not explain needs a verdict; with one it is named', () => {
  const facts = { exported: true, validation: { errors: 0, codes: [] }, channels: [channel({})] };
  const result = { passed: false, channels: [{ passed: false, max: 0.415, problem: 'over' }] };
  const none = cellOf(facts, result, [], 'translation_cubicspline', new Set());
  assert.match(none.text, /unexplained/);
  assert.ok(none.problem);
  const used = new Set();
  const verdict = { verdict: 'deviation', why: 'tangents scaled wrongly', cases: ['translation_*'], when: { interpolation: 'CUBICSPLINE' } };
  const named = cellOf(facts, result, [verdict], 'translation_cubicspline', used);
  assert.equal(named.text, '❓ **unexplained failure**', 'the failing channel is not CUBICSPLINE: the verdict does not fit');
  const cubic = { passed: false, channels: [{ passed: false, max: 0.415, interpolation: 'CUBICSPLINE', problem: 'over' }] };
  assert.equal(cellOf(facts, cubic, [verdict], 'translation_cubicspline', used).text, '❌ fail: tangents scaled wrongly (max error 0.41)');
  assert.ok(used.has(verdict));
  const bounded = { verdict: 'allowed', why: 'quantized', cases: ['*'], when: { maxError: 0.1 } };
  assert.match(cellOf(facts, cubic, [bounded], 'x', new Set()).text, /unexplained/, 'an error above the bound is not covered');
});

test('a pass that was resampled says so; an exporter error is its own cell', () => {
  const facts = { exported: true, validation: { errors: 0, codes: [] }, channels: [channel({ goldenInterpolation: 'LINEAR', interpolation: 'LINEAR', keys: 31 })] };
  assert.equal(cellOf(facts, { passed: true }, [], 'x', new Set()).text, '✅ pass, changed: keys 4 → 31');
  assert.equal(cellOf({ exported: false, error: 'export: boom' }, undefined, [], 'x', new Set()).text, '💥 export: boom');
});

test('morph weights moved to a child that holds the mesh are found there, nearest first', () => {
  const exported = { nodes: [{ mesh: 0 }, { name: 'target', children: [2, 0] }, { children: [3] }, { mesh: 1 }] };
  assert.deepEqual(weightsElsewhere('/nodes/1/weights', exported), ['/nodes/0/weights', '/nodes/3/weights']);
  assert.deepEqual(weightsElsewhere('/nodes/0/weights', exported), [], 'a node with a mesh animates its own weights');
  assert.deepEqual(weightsElsewhere('/nodes/1/rotation', exported), []);
});

test('two verdicts may cover the failing channels of one case between them, never a channel neither fits', () => {
  const facts = { exported: true, validation: { errors: 0, codes: [] }, channels: [channel({}), channel({ channel: 1, target: '/nodes/0/weights' })] };
  const rot = { verdict: 'allowed', why: 'rotations quantized', cases: ['*'], when: { measure: 'angle', maxError: 1e-4 } };
  const wts = { verdict: 'allowed', why: 'weights quantized', cases: ['*'], when: { measure: 'absolute', maxError: 0.002 } };
  const both = { passed: false, channels: [{ passed: false, measure: 'angle', max: 3e-5 }, { passed: false, measure: 'absolute', max: 0.001 }] };
  assert.equal(cellOf(facts, both, [rot, wts], 'x', new Set()).text, '❌ fail (the spec allows it): rotations quantized; weights quantized (max error 0.0010)');
  const tooFar = { passed: false, channels: [{ passed: false, measure: 'angle', max: 3e-5 }, { passed: false, measure: 'absolute', max: 0.5 }] };
  assert.match(cellOf(facts, tooFar, [rot, wts], 'x', new Set()).text, /unexplained/);
});

test('a refused import is "requires X" only when the loader names X; otherwise a verdict says how it failed', () => {
  const named = { exported: false, error: 'import: Required extension EXT_animation_sqlerp is not available', required: ['EXT_animation_sqlerp'] };
  assert.equal(cellOf(named, undefined, [], 'sqlerp_without_fallback', new Set()).text, '⬜ unsupported: requires EXT\\_animation\\_sqlerp');
  const other = { exported: false, error: "import: Cannot read properties of undefined (reading 'input')", required: ['EXT_animation_sqlerp'] };
  assert.equal(cellOf(other, undefined, [], 'sqlerp_without_fallback', new Set()).text, "💥 import: Cannot read properties of undefined (reading 'input')");
  const why = { verdict: 'unsupported', why: 'no sampler', cases: ['sqlerp_without_fallback'] };
  assert.equal(cellOf(other, undefined, [why], 'sqlerp_without_fallback', new Set()).text, '⬜ unsupported: no sampler');
});

test('a deviation verdict covering every failing channel still present is named beside the facts', () => {
  const facts = { exported: true, validation: { errors: 0, codes: [] }, channels: [channel({ keys: 5 })] };
  const tangents = { verdict: 'deviation', why: 'tangents / 60', cases: ['edge_*'], when: { interpolation: 'CUBICSPLINE' } };
  const cubic = { passed: false, channels: [{ passed: false, max: 0.12, interpolation: 'CUBICSPLINE' }] };
  const used = new Set();
  assert.equal(cellOf(facts, cubic, [tangents], 'edge_exact_keys', used).text, '❌ fail: keys 4 → 5; tangents / 60');
  assert.ok(used.has(tangents));
  const dropped = { passed: false, channels: [{ passed: false, missing: true, interpolation: 'CUBICSPLINE' }] };
  const gone = { exported: true, validation: { errors: 0, codes: [] }, channels: [channel({ dropped: true })] };
  assert.doesNotMatch(cellOf(gone, dropped, [tangents], 'edge_exact_keys', new Set()).text, /tangents/, 'a dropped channel is not the deviation\'s');
  const allowed = { verdict: 'allowed', why: 'quantized', cases: ['*'] };
  assert.equal(cellOf(facts, cubic, [allowed], 'edge_exact_keys', new Set()).text, '❌ fail: keys 4 → 5', 'only deviations are named beside facts');
});
