// The page's mapping from an issue to the key its plot marks (web/page/report-index.js), on
// messages written as the validator writes them in its JSON report: the template's arguments
// ({0}, {1}, ...: `gltf-anim codes` gives the templates) in `arguments`, never read from the
// English message.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

// The page's module, imported as an ES module whatever the Node: web/page/ has no package.json
// saying "module" (the page is not a package), so Node 18 would read the .js file as CommonJS.
const source = readFileSync(new URL('../page/report-index.js', import.meta.url), 'utf8');
const { channelIssues } = await import(`data:text/javascript,${encodeURIComponent(source)}`);

// outputsPerKey as the page takes it from the keys file: 3 when its keys have in- and
// out-tangents (CUBICSPLINE, CUBICSLERP), 1 otherwise.
const channel = (outputsPerKey, keys) => ({ animation: 0, index: 0, sampler: 0, keys, outputsPerKey });
const quaternion = (first) => ({
  code: 'ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION',
  pointer: '/animations/0/samplers/0/output',
  message: `Animation sampler output accessor element at indices ${first}..${first + 3} is not of unit length: 0.5.`,
  arguments: [String(first), String(first + 3), '0.5'],
});

test('a non-unit rotation marks its key: 4 components an element, the keys file\'s elements a key', () => {
  // Components 28..31 are element 7. One element a key (LINEAR, STEP): key 7. Three (in-tangent,
  // value, out-tangent: CUBICSPLINE, CUBICSLERP): element 7 is key 2's value (elements 6, 7, 8).
  for (const [perKey, key] of [[1, 7], [3, 2]]) {
    const [got] = channelIssues([quaternion(28)], [channel(perKey, 10)]);
    assert.deepEqual(got.keys, [key], `${perKey} a key`);
  }
});

test('a CUBICSLERP channel\'s nonzero last out-tangent is marked at its last key', () => {
  // 4 keys of 3 elements: 12 elements, the last out-tangent is element 11, key 3.
  const m = {
    code: 'EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT',
    pointer: '/animations/0/samplers/0/output',
    message: 'The CUBICSLERP out-tangent (output element 11) is not zero.',
    arguments: ['out-tangent', '11'],
  };
  const [got] = channelIssues([m], [channel(3, 4)]);
  assert.deepEqual(got.keys, [3]);
  assert.deepEqual(got.listed, [{ code: m.code, key: 3 }]);
});

test('the key comes from the arguments, not the message', () => {
  const at = (args, message) => ({ code: 'LINT_ROTATION_NEGATIVE_DOT', pointer: '/animations/0/channels/0/sampler',
    message, arguments: args });
  // Keys 4 and 5 in the arguments, other numbers in the words: the later key of the pair, 5.
  const [one] = channelIssues([at(['4', '5', '-1', '1'], 'Rotation keys 1 and 2 have a negative dot product')],
    [channel(1, 10)]);
  assert.deepEqual(one.keys, [5]);
  // No arguments (a finding of glTF-Validator's alone): counted, marked nowhere.
  const [none] = channelIssues([at(undefined, 'Rotation keys 1 and 2 have a negative dot product (-1); 1 such pair(s).')],
    [channel(1, 10)]);
  assert.equal(none.total, 1);
  assert.deepEqual(none.keys, []);
});

test('an element index without the keys file\'s elements a key marks nothing', () => {
  const [got] = channelIssues([quaternion(28)], [channel(null, 10)]);
  assert.equal(got.total, 1);
  assert.deepEqual(got.keys, []);
});

test('a key past the channel\'s keys marks nothing, and is still counted', () => {
  const [got] = channelIssues([quaternion(28)], [channel(3, 2)]);
  assert.equal(got.total, 1);
  assert.deepEqual(got.keys, []);
});
