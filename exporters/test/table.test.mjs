// Unit tests of what the exporter and pipeline matrices share (tools/matrix/table.mjs):
// a verdict's case patterns, which both pages read alike.
import test from 'node:test';
import assert from 'node:assert/strict';
import { globMatch, md } from '../../tools/matrix/table.mjs';

test('a verdict pattern is an id, or a glob whose * matches any run of characters', () => {
  assert.equal(globMatch('edge_clamp', 'edge_clamp'), true);
  assert.equal(globMatch('edge_clamp', 'edge_clamp2'), false);
  assert.equal(globMatch('weights*', 'weights2_linear'), true);
  assert.equal(globMatch('*_cubicspline', 'rotation_cubicspline'), true);
  assert.equal(globMatch('a*b*c', 'axxbyyc'), true);
  assert.equal(globMatch('a*b*c', 'axxcyyb'), false);
  // The two ends may not share a character: "a*a" needs two a's.
  assert.equal(globMatch('a*a', 'a'), false);
  assert.equal(globMatch('a*a', 'aa'), true);
  // Only * is special: a dot is a dot.
  assert.equal(globMatch('x.y*', 'xzy1'), false);
  assert.equal(globMatch('x.y*', 'x.y1'), true);
});

test('Markdown escaping leaves plain words alone', () => {
  assert.equal(md('npm gltf-validator, validateBytes on every output'), 'npm gltf-validator, validateBytes on every output');
  assert.equal(md('a_b|c'), 'a\\_b\\|c');
});
