// The page's mapping from an issue to the key its plot marks (web/page/report-index.js), on
// messages written as the validator writes them (`gltf-anim codes` gives the templates).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

// The page's module, imported as an ES module whatever the Node: web/page/ has no package.json
// saying "module" (the page is not a package), so Node 18 would read the .js file as CommonJS.
const source = readFileSync(new URL('../page/report-index.js', import.meta.url), 'utf8');
const { channelIssues } = await import(`data:text/javascript,${encodeURIComponent(source)}`);

const channel = (interpolation, keys) => ({ animation: 0, index: 0, sampler: 0, interpolation, keys });
const quaternion = (first) => ({
  code: 'ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION',
  pointer: '/animations/0/samplers/0/output',
  message: `Animation sampler output accessor element at indices ${first}..${first + 3} is not of unit length: 0.5.`,
});

test('a non-unit rotation marks its key: 4 components an element, 3 elements a key for both cubics', () => {
  // Components 28..31 are element 7. LINEAR: one element a key, so key 7. CUBICSPLINE and
  // CUBICSLERP store in-tangent, value, out-tangent: element 7 is key 2's value (elements 6, 7, 8).
  const rows = [['LINEAR', 7], ['STEP', 7], ['CUBICSPLINE', 2], ['CUBICSLERP', 2]];
  for (const [interpolation, key] of rows) {
    const [got] = channelIssues([quaternion(28)], [channel(interpolation, 10)]);
    assert.deepEqual(got.keys, [key], interpolation);
  }
});

test('a key past the channel\'s keys marks nothing, and is still counted', () => {
  const [got] = channelIssues([quaternion(28)], [channel('CUBICSLERP', 2)]);
  assert.equal(got.total, 1);
  assert.deepEqual(got.keys, []);
});
