#!/usr/bin/env node
// Builds the exporter matrix docs/conformance/exporters.md from what
// roundtrip.mjs left in WORK: exporters x cases.
//
//   node exporters/matrix.mjs --work DIR [--out FILE] [--check]
//
// A cell says what happened to the case's animation on the way through the
// exporter, from the facts roundtrip.mjs measured:
//   pass                       the written file plays like the case (compare passes)
//   pass, changed: FACTS       it plays like the case, written differently
//                              (resampled, converted) within the tolerance
//   fail: FACTS                it plays differently, and the facts say why:
//                              channels dropped, interpolation converted, key
//                              times shifted, validation errors in the output
//   fail: VERDICT              it plays differently for a reason the facts do
//                              not show (same interpolation, keys and times):
//                              the exporter's verdict (verdicts.json) names it
//   import: / export: MESSAGE  the exporter's loader refused the case, or the
//                              exporter threw (gltfpack, assimp: one process)
// --check: exit 1 when a failing cell is explained neither by facts nor by a
// verdict, when a verdict names a case that needs none, or when a verdict is
// not on the notes page (docs/conformance/exporters-notes.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXPORTERS } from './lib/exporters.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');

const VERDICTS = ['deviation', 'allowed', 'unsupported'];

function md(s) {
  return String(s).replace(/[\\`*_[\]|<>]/g, (c) => `\\${c}`);
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

// Facts that would make a case fail on their own (a resampling that keeps the
// playback within the tolerance does not).
function explainsFailure(facts) {
  if (facts.validation && facts.validation.errors > 0) return true;
  return facts.channels.some((c) => c.dropped || c.interpolation !== c.goldenInterpolation || c.keys !== c.goldenKeys || !c.keyTimesEqual);
}

function globMatch(pattern, id) {
  if (!pattern.includes('*')) return pattern === id;
  const parts = pattern.split('*');
  if (!id.startsWith(parts[0]) || !id.endsWith(parts[parts.length - 1])) return false;
  let at = parts[0].length;
  for (const p of parts.slice(1, -1)) {
    const k = id.indexOf(p, at);
    if (k < 0) return false;
    at = k + p.length;
  }
  return at <= id.length - parts[parts.length - 1].length;
}

// The verdicts that explain case `id`: those whose `cases` name it (ids or
// globs) and, when they have `when`, that cover every failing channel of the
// compare result between them (interpolation, measure, an upper bound on the
// error): a verdict never covers a failure of another kind in the same case.
// Without a result (the case was not exported): the first verdict naming it.
function verdictFor(verdicts, id, result) {
  const naming = verdicts.filter((v) => v.cases.some((c) => globMatch(c, id)));
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

export function cellOf(facts, result, verdicts, id, used) {
  if (!facts) return { text: '**not run**', problem: `no round trip for ${id}` };
  if (!facts.exported) {
    // A loader that refuses an asset for an extension of its extensionsRequired
    // it does not implement (and says so) is no defect of the exporter. glTF 2.0
    // 3.12 only says that such extensions MUST be listed, not how a loader that
    // lacks one fails: a loader that fails otherwise (three.js reading a
    // channel without sampler) is explained by a verdict, which names how.
    if (facts.error.startsWith('import') && facts.required && facts.required.some((x) => facts.error.includes(x))) {
      return { text: `⬜ unsupported: requires ${md(facts.required.join(', '))}`, kind: 'unsupported' };
    }
    const found = verdictFor(verdicts, id, undefined);
    if (found) {
      used.add(found[0]);
      if (found[0].verdict === 'unsupported') return { text: `⬜ unsupported: ${md(found[0].why)}`, kind: 'unsupported' };
    }
    return { text: `💥 ${md(facts.error)}`, kind: 'fail' };
  }
  const phrases = factPhrases(facts);
  if (result && result.passed) {
    const changed = phrases.length ? `, changed: ${md(phrases.join('; '))}` : '';
    return { text: `✅ pass${changed}`, kind: 'pass' };
  }
  // A known divergence of the manifest that the written file's playback
  // matches names the failure (the exporter's loader read the case that way).
  const divergence = result && result.matchedDivergence ? [`plays as divergence *${md(result.matchedDivergence)}*`] : [];
  if (explainsFailure(facts)) {
    // A deviation verdict covering every failing channel is named beside the
    // facts: the changed keys may not be what moves the samples (Babylon's
    // added keys hold a value; its tangents divided by 60 are what fails).
    // Only channels the written file still has (a dropped one says it all).
    const present = result && result.channels ? { ...result, channels: result.channels.filter((c) => !c.missing) } : result;
    const deviations = (verdictFor(verdicts, id, present) || []).filter((v) => v.verdict === 'deviation');
    for (const v of deviations) used.add(v);
    return { text: `❌ fail: ${[md(phrases.join('; ')), ...divergence, ...deviations.map((v) => md(v.why))].join('; ')}`, kind: 'fail' };
  }
  if (divergence.length) return { text: `❌ fail: ${divergence[0]}`, kind: 'fail' };
  const found = verdictFor(verdicts, id, result);
  if (!found) {
    const worst = result && result.channels ? result.channels.filter((c) => !c.passed).map((c) => c.problem).join('; ') : '';
    return { text: '❓ **unexplained failure**', kind: 'fail', problem: `${id} fails with the same interpolation, keys and times and has no verdict (${worst})` };
  }
  for (const v of found) used.add(v);
  const worst = Math.max(0, ...result.channels.filter((c) => !c.passed && Number.isFinite(c.max)).map((c) => c.max));
  const label = found.every((v) => v.verdict === 'allowed') ? 'fail (the spec allows it)' : 'fail';
  return { text: `❌ ${label}: ${found.map((v) => md(v.why)).join('; ')} (max error ${worst.toPrecision(2)})`, kind: 'fail' };
}

export function buildMatrix({ manifest, exporters, facts, reports, verdicts, versions, notesText }) {
  const cases = manifest.assets.filter((e) => e.samples);
  const problems = [];
  const out = [];
  out.push('# Exporter matrix: does the animation survive export?');
  out.push('');
  out.push('Each exporter imports a case of the conformance suite with its own loader and writes it back');
  out.push('(`exporters/roundtrip.mjs`); `gltf-anim validate` judges the written file, and its playback,');
  out.push('evaluated by the reference evaluator at the case\'s golden times, is compared with the goldens');
  out.push('(`gltf-anim compare`, the case\'s tolerance). Channels are found again by the names of the');
  out.push('objects they animate, so renumbering is no failure. Generated by `bash exporters/run-all.sh`;');
  out.push('every failing cell is explained on [exporters-notes.md](exporters-notes.md), with upstream');
  out.push('write-ups for the defects found.');
  out.push('');
  out.push('| exporter | version | what runs |');
  out.push('|---|---|---|');
  for (const e of exporters) out.push(`| ${e.name} | ${md(versions[e.id])} | ${md(e.what)} |`);
  out.push('');
  const totals = exporters.map(() => ({ pass: 0, fail: 0 }));
  const usedBy = {};
  const rows = [];
  for (const entry of cases) {
    const cells = exporters.map((e, k) => {
      const used = (usedBy[e.id] ??= new Set());
      const result = reports[e.id] && reports[e.id].cases.find((c) => c.id === entry.id);
      const cell = cellOf(facts[e.id][entry.id], result, verdicts[e.id], entry.id, used);
      if (cell.problem) problems.push(`${e.id}: ${cell.problem}`);
      if (cell.kind === 'pass') totals[k].pass++;
      else if (cell.kind === 'fail') totals[k].fail++;
      return cell.text;
    });
    rows.push(`| ${entry.id} | ${cells.join(' | ')} |`);
  }
  out.push('| | ' + exporters.map((e) => e.name).join(' | ') + ' |');
  out.push('|---|' + exporters.map(() => '---').join('|') + '|');
  out.push(`| **cases that survive** (of those run) | ${totals.map((t) => `**${t.pass} of ${t.pass + t.fail}**`).join(' | ')} |`);
  out.push(...rows);
  out.push('');
  for (const e of exporters) {
    const used = usedBy[e.id] || new Set();
    for (const v of verdicts[e.id]) {
      if (!VERDICTS.includes(v.verdict)) problems.push(`${e.id}: verdict "${v.why}": unknown kind ${v.verdict}`);
      if (!used.has(v)) problems.push(`${e.id}: verdict "${v.why}" explains no cell`);
      if (!notesText.includes(v.why.replace(/\s+/g, ' '))) problems.push(`${e.id}: verdict "${v.why}" is not on exporters-notes.md`);
    }
  }
  return { text: out.join('\n') + '\n', problems };
}

function parseArgs(argv) {
  const o = { work: undefined, out: path.join(ROOT, 'docs/conformance/exporters.md'), check: false, suite: path.join(ROOT, 'conformance_assets') };
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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const o = parseArgs(process.argv.slice(2));
  const manifest = JSON.parse(fs.readFileSync(path.join(o.suite, 'manifest.json'), 'utf8'));
  const versions = JSON.parse(fs.readFileSync(path.join(o.work, 'versions.json'), 'utf8'));
  const exporters = EXPORTERS.filter((e) => versions[e.id] !== undefined);
  const facts = {};
  const reports = {};
  const allVerdicts = JSON.parse(fs.readFileSync(path.join(HERE, 'verdicts.json'), 'utf8'));
  const verdicts = {};
  for (const e of exporters) {
    facts[e.id] = JSON.parse(fs.readFileSync(path.join(o.work, `${e.id}.facts.json`), 'utf8'));
    const rf = path.join(o.work, `${e.id}.json`);
    reports[e.id] = fs.existsSync(rf) ? JSON.parse(fs.readFileSync(rf, 'utf8')) : { cases: [] };
    verdicts[e.id] = allVerdicts[e.id] || [];
  }
  // Words wrap on the notes page: compare with white space folded.
  const notesText = fs.readFileSync(path.join(ROOT, 'docs/conformance/exporters-notes.md'), 'utf8').replace(/\\/g, '').replace(/\s+/g, ' ');
  const { text, problems } = buildMatrix({ manifest, exporters, facts, reports, verdicts, versions, notesText });
  fs.writeFileSync(o.out, text);
  for (const p of problems) console.error(`matrix.mjs: ${p}`);
  console.log(`exporter matrix: ${exporters.length} exporters x ${manifest.assets.filter((e) => e.samples).length} cases -> ${o.out}${problems.length ? `, ${problems.length} problem(s)` : ''}`);
  process.exit(o.check && problems.length ? 1 : 0);
}
