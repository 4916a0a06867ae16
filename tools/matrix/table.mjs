// What the exporter matrix (exporters/matrix.mjs) and the pipeline matrix
// (pipelines/matrix.mjs) both do to turn their runners' facts into a Markdown
// page: the escaping, the facts as phrases, the verdicts that explain a cell,
// the table's head and totals, the check that every verdict explains a cell and
// is on the notes page, and the command line that writes the page. One copy, so
// that a cell means the same on both pages; the cells' own rules (an exporter's
// refused import, a pipeline's precision and reference) stay with each matrix.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The kinds a verdict of verdicts.json may be.
export const VERDICTS = ['deviation', 'allowed', 'unsupported'];

export function md(s) {
  return String(s).replace(/[\\`*_[\]|<>]/g, (c) => `\\${c}`);
}

export function fmt(x) {
  return Number(x).toPrecision(2);
}

// A verdict's case (or pipeline) pattern: an id, or a glob with `*`.
export function globMatch(pattern, id) {
  if (!pattern.includes('*')) return pattern === id;
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(id);
}

// Facts that explain a failure by themselves, as short phrases.
export function factPhrases(facts) {
  const out = [];
  if (facts.validation && facts.validation.errors > 0) out.push(`invalid output (${facts.validation.codes.join(', ')})`);
  const dropped = facts.channels.filter((c) => c.dropped);
  if (dropped.length) {
    const kinds = [...new Set(dropped.map((c) => (c.pointer ? 'KHR_animation_pointer' : kindOf(c.target))))];
    out.push(`${dropped.length === facts.channels.length ? 'every channel' : `${dropped.length} of ${facts.channels.length} channels`} dropped (${kinds.join(', ')})`);
  }
  const conv = new Set();
  for (const c of facts.channels) {
    if (c.dropped) continue;
    if (c.interpolation !== c.goldenInterpolation) conv.add(`${c.goldenInterpolation} → ${c.interpolation}`);
  }
  out.push(...conv);
  const keys = facts.channels.filter((c) => !c.dropped && c.keys !== c.goldenKeys);
  if (keys.length) {
    const k = keys[0];
    out.push(`keys ${k.goldenKeys} → ${k.keys}${keys.length > 1 ? ` (and ${keys.length - 1} more channel(s))` : ''}`);
  } else if (facts.channels.some((c) => !c.dropped && !c.keyTimesEqual)) {
    out.push('key times shifted');
  }
  return out;
}

function kindOf(target) {
  if (/^\/nodes\/\d+\/(translation|rotation|scale|weights)$/.test(target)) return target.replace(/^\/nodes\/\d+\//, '');
  return 'pointer';
}

// The verdicts that explain case `id`: those whose `cases` name it (ids or
// globs) and, when they have `when`, that cover every failing channel of the
// compare result between them (interpolation, measure, an upper bound on the
// error): a verdict never covers a failure of another kind in the same case.
// Without a result (the case was not written): the first verdict naming it.
export function verdictsFor(list, id, result) {
  const naming = (list || []).filter((v) => v.cases.some((c) => globMatch(c, id)));
  if (!result) return naming.length ? [naming[0]] : undefined;
  const failing = result.channels ? result.channels.filter((c) => !c.passed) : [];
  if (!failing.length || !naming.length) return undefined;
  const used = [];
  for (const ch of failing) {
    const v = naming.find((x) => fitsChannel(x.when, ch));
    if (!v) return undefined;
    if (!used.includes(v)) used.push(v);
  }
  return used;
}

function fitsChannel(when, c) {
  if (!when) return true;
  return (when.interpolation === undefined || c.interpolation === when.interpolation) &&
    (when.measure === undefined || c.measure === when.measure) &&
    (when.maxError === undefined || (Number.isFinite(c.max) && c.max <= when.maxError));
}

// A known divergence of the manifest that the written file's playback matches
// names the failure (the tool read the case that way).
export function divergencePhrases(result) {
  return result && result.matchedDivergence ? [`plays as divergence *${md(result.matchedDivergence)}*`] : [];
}

// The cell of a failure the facts do not explain: the verdicts that cover it
// (marked used), or an unexplained failure, a problem that says it fails
// `with` what and has no verdict.
export function verdictCell(verdicts, id, result, used, what) {
  const found = verdictsFor(verdicts, id, result);
  if (!found) {
    const worst = result && result.channels ? result.channels.filter((c) => !c.passed).map((c) => c.problem).join('; ') : '';
    return { text: '❓ **unexplained failure**', kind: 'fail', problem: `${id} fails with ${what} and has no verdict (${worst})` };
  }
  for (const v of found) used.add(v);
  const worst = Math.max(0, ...result.channels.filter((c) => !c.passed && Number.isFinite(c.max)).map((c) => c.max));
  const label = found.every((v) => v.verdict === 'allowed') ? 'fail (the spec allows it)' : 'fail';
  return { text: `❌ ${label}: ${found.map((v) => md(v.why)).join('; ')} (max error ${fmt(worst)})`, kind: 'fail' };
}

// The table of what runs: `| name | version | what runs |` per row.
export function versionsTable(first, rows) {
  return [`| ${first} | version | what runs |`, '|---|---|---|', ...rows.map((r) => `| ${r.name} | ${md(r.version)} | ${md(r.what)} |`)];
}

// The matrix's head: a column per name, then how many cases survive of those
// run per column (totals: {pass, fail} per column).
export function matrixHead(names, totals) {
  return [
    '| | ' + names.join(' | ') + ' |',
    '|---|' + names.map(() => '---').join('|') + '|',
    `| **cases that survive** (of those run) | ${totals.map((t) => `**${t.pass} of ${t.pass + t.fail}**`).join(' | ')} |`,
  ];
}

// Every verdict of a column (`key`) must be of a known kind (unless `kinds` is
// false), explain a cell (be in `used`) and be on the notes page.
export function checkVerdicts(problems, key, list, used, notes, { kinds = true } = {}) {
  for (const v of list || []) {
    if (kinds && !VERDICTS.includes(v.verdict)) problems.push(`${key}: verdict "${v.why}": unknown kind ${v.verdict}`);
    if (!(used && used.has(v))) problems.push(`${key}: verdict "${v.why}" explains no cell`);
    if (!notes.text.includes(v.why.replace(/\s+/g, ' '))) problems.push(`${key}: verdict "${v.why}" is not on ${notes.name}`);
  }
}

// A notes page of docs/conformance as a verdict's words are looked up in it:
// words wrap on the page, so white space is folded (and escapes dropped).
export function readNotes(name) {
  return { name, text: fs.readFileSync(path.join(ROOT, 'docs/conformance', name), 'utf8').replace(/\\/g, '').replace(/\s+/g, ' ') };
}

export function readJson(file, fallback) {
  if (fallback !== undefined && !fs.existsSync(file)) return fallback;
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// The matrices' command line: --work DIR [--out FILE] [--suite DIR] [--check].
export function parseMatrixArgs(argv, page) {
  const o = { work: undefined, out: path.join(ROOT, 'docs/conformance', page), check: false, suite: path.join(ROOT, 'conformance_assets') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--work') o.work = path.resolve(argv[++i]);
    else if (argv[i] === '--out') o.out = path.resolve(argv[++i]);
    else if (argv[i] === '--suite') o.suite = path.resolve(argv[++i]);
    else if (argv[i] === '--check') o.check = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!o.work) throw new Error('--work DIR is required');
  return o;
}

// Writes the page, says its problems and exits: 1 with --check when there are
// problems, else 0. `what` names the columns ("3 exporters").
export function publish(o, manifest, { text, problems }, title, what) {
  fs.writeFileSync(o.out, text);
  for (const p of problems) console.error(`matrix.mjs: ${p}`);
  console.log(`${title}: ${what} x ${manifest.assets.filter((e) => e.samples).length} cases -> ${o.out}${problems.length ? `, ${problems.length} problem(s)` : ''}`);
  process.exit(o.check && problems.length ? 1 : 0);
}

// Whether the module at `url` is the program node runs (not an import).
export function isMain(url) {
  return !!process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(url);
}
