// The matrix builder: every cell that is not a pass must be explained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMatrix, caseAnchor, cellOf } from '../matrix.mjs';

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
  // compare's HTML anchors a case as "case-" + its id with bytes outside [A-Za-z0-9._-] as ~XX: '<' is 0x3C.
  assert.ok(page.includes('href="e.html#case-a~3Cb"'));
  assert.ok(!page.includes('a<b'));
});

test("a case's anchor is the one compare's HTML report gives it", () => {
  assert.equal(caseAnchor('rotation_linear'), 'case-rotation_linear');
  assert.equal(caseAnchor('a b/c'), 'case-a~20b~2Fc');
  assert.equal(caseAnchor('é'), 'case-~C3~A9', 'UTF-8 bytes of U+00E9');
});

test('the page has a legend and links each engine to its notes page', async () => {
  const { matrixHtml } = await import('../matrix.mjs');
  const manifest = { assets: [{ id: 'a', group: 'core', samples: 'a.json' }] };
  const { html } = buildMatrix({ manifest, engines: [engine], reports: { e: { cases: [{ id: 'a', passed: true }] } },
    verdicts: { e: {} }, versions: { e: '1' }, notesText: { e: '' } });
  const page = matrixHtml(html, [engine], () => '../docs/conformance/e-notes.md');
  assert.ok(page.includes('<a href="../docs/conformance/e-notes.md">e-notes.md</a>'));
  assert.ok(page.includes('Legend: '));
});

test('the link check finds a missing file and a missing anchor, and passes good links', async () => {
  const { brokenLinks } = await import('../check-links.mjs');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'links-'));
  fs.writeFileSync(path.join(dir, 'e.html'), '<section id="case-a"></section>');
  fs.writeFileSync(path.join(dir, 'm.html'),
    '<a href="e.html#case-a">ok</a><a href="e.html#a">no anchor</a><a href="f.html">no file</a><a href="https://x.org/">web</a>');
  const broken = brokenLinks(path.join(dir, 'm.html'));
  assert.equal(broken.length, 2);
  assert.match(broken[0], /^e\.html#a: no id="a"/);
  assert.match(broken[1], /^f\.html: no file/);
  fs.rmSync(dir, { recursive: true });
});

test('a suite of the user\'s assets (run-all.sh --suite): failures named by their divergence, no verdict asked', () => {
  assert.equal(cellOf(engine, entry, { passed: false }, {}, true).text, '❌ fail');
  assert.equal(cellOf(engine, entry, { passed: false }, {}, true).problem, undefined);
  assert.match(cellOf(engine, entry, { passed: false, matchedDivergence: 'previous-key-at-exact-time' }, {}, true).text,
    /fail: divergence \*previous-key-at-exact-time\*/);
  const manifest = { assets: [{ id: 'mine', group: 'user', samples: 'm.json' }] };
  const { text, problems } = buildMatrix({ manifest, engines: [engine], reports: { e: { cases: [{ id: 'mine', passed: false }] } },
    verdicts: { e: {} }, versions: { e: '1' }, notesText: { e: '' }, ownSuite: true });
  assert.deepEqual(problems, []);
  assert.match(text, /^# Your assets across engines/);
  assert.match(text, /## Your assets \(gltf-anim generate --from\)/);
});

test('the HTML page leads with a per-feature summary: pass / fail / unsupported per engine', async () => {
  const { matrixHtml } = await import('../matrix.mjs');
  const manifest = { assets: [{ id: 'a', group: 'core', samples: 'a.json', features: ['STEP', 'rotation'] },
    { id: 'b', group: 'core', samples: 'b.json', features: ['STEP'] }, { id: 'c', group: 'core', samples: 'c.json', features: ['LINEAR'] }] };
  const reports = { e: { cases: [{ id: 'a', passed: true }, { id: 'b', passed: false }, { id: 'c', passed: false }] } };
  const verdicts = { e: { b: { verdict: 'deviation', why: 'x' }, c: { verdict: 'unsupported', why: 'y' } } };
  const { html } = buildMatrix({ manifest, engines: [engine], reports, verdicts, versions: { e: '1' }, notesText: { e: '`b` `c`' } });
  const page = matrixHtml(html, [engine]);
  assert.match(page, /<h2>Per feature<\/h2>/);
  assert.match(page, /<code>STEP<\/code><\/td><td style="background:[^"]+">1 \/ 1 \/ 0<\/td>/);
  assert.match(page, /<code>LINEAR<\/code><\/td><td style="background:[^"]+">0 \/ 0 \/ 1<\/td>/);
  assert.match(page, /<code>rotation<\/code><\/td><td style="background:[^"]+">1 \/ 0 \/ 0<\/td>/);
});
