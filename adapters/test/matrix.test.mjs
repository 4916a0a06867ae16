// The matrix builder: every cell that is not a pass must be explained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMatrix, cellOf } from '../matrix.mjs';

const engine = { id: 'e', name: 'E', package: 'e', scope: 'suite', notes: 'e-notes.md', kind: 'engine' };
const entry = { id: 'c1', group: 'core' };

test('cells: pass, variant, named divergence, verdicts, out of scope', () => {
  assert.equal(cellOf(engine, entry, { passed: true }, {}).text, '✅ pass');
  assert.match(cellOf(engine, entry, { passed: true, matchedVariant: 'nlerp' }, {}).text, /pass as variant \*nlerp\*/);
  assert.match(cellOf(engine, entry, { passed: false, matchedDivergence: 'x-y' }, { c1: { verdict: 'deviation', why: 'w' } }).text, /fail: divergence \*x-y\*/);
  assert.match(cellOf(engine, entry, { passed: false }, { c1: { verdict: 'unsupported', why: 'no ext' } }).text, /unsupported: no ext/);
  assert.match(cellOf(engine, entry, { passed: false }, { c1: { verdict: 'our-bug', why: 'b' } }).text, /suite bug/);
  assert.equal(cellOf({ ...engine, scope: 'sqlerp' }, entry, { passed: false }, {}).text, 'n/a');
});

test('problems: a failure without verdict, a verdict on a passing case, an unknown verdict, a case the notes do not name', () => {
  const manifest = { assets: [{ id: 'a', group: 'core', samples: 'a.json' }, { id: 'b', group: 'core', samples: 'b.json' },
    { id: 'c', group: 'edge', samples: 'c.json' }, { id: 'd', group: 'edge', samples: 'd.json' }] };
  const reports = { e: { cases: [{ id: 'a', passed: false }, { id: 'b', passed: true }, { id: 'c', passed: false }, { id: 'd', passed: false }] } };
  const verdicts = { e: { b: { verdict: 'deviation', why: 'x' }, c: { verdict: 'unsupported', why: 'y' }, d: { verdict: 'maybe', why: 'z' }, zz: { verdict: 'deviation', why: 'gone' } } };
  const { text, problems } = buildMatrix({ manifest, engines: [engine], reports, verdicts, versions: { e: '1.0' }, notesText: { e: 'about `c` and `d`' } });
  assert.ok(problems.some((p) => p.includes('a fails and has no verdict')));
  assert.ok(problems.some((p) => p.includes('verdict for b, which passes')));
  assert.ok(problems.some((p) => p.includes('unknown verdict maybe')));
  assert.ok(problems.some((p) => p.includes('verdict for unknown case zz')));
  assert.ok(problems.some((p) => p.includes('does not name `a`')));
  assert.ok(!problems.some((p) => p.includes('does not name `c`')));
  assert.match(text, /\| E \| `e` 1\.0 \| engine \| 1 \| 0 \| 2 \| 1 \|/);
});

test('a fully explained engine has no problem', () => {
  const manifest = { assets: [{ id: 'a', group: 'core', samples: 'a.json' }] };
  const { problems } = buildMatrix({ manifest, engines: [engine], reports: { e: { cases: [{ id: 'a', passed: false }] } },
    verdicts: { e: { a: { verdict: 'deviation', why: 'x' } } }, versions: { e: '1' }, notesText: { e: '`a`' } });
  assert.deepEqual(problems, []);
});

test('the HTML page escapes what it shows and links cells to the engine\'s report', async () => {
  const { matrixHtml } = await import('../matrix.mjs');
  const manifest = { assets: [{ id: 'a<b', group: 'core', samples: 'a.json' }] };
  const { html } = buildMatrix({ manifest, engines: [engine], reports: { e: { cases: [{ id: 'a<b', passed: false }] } },
    verdicts: { e: { 'a<b': { verdict: 'unsupported', why: 'x & "y"' } } }, versions: { e: '1' }, notesText: { e: '`a<b`' } });
  const page = matrixHtml(html, [engine]);
  assert.ok(page.includes('<code>a&lt;b</code>'));
  assert.ok(page.includes('unsupported: x &amp; &quot;y&quot;'));
  assert.ok(page.includes('href="e.html#a&lt;b"'));
  assert.ok(!page.includes('a<b'));
});
