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
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXPORTERS } from './lib/exporters.mjs';
import {
  md, factPhrases, verdictsFor, divergencePhrases, verdictCell, versionsTable, matrixHead, checkVerdicts,
  readNotes, readJson, parseMatrixArgs, publish, isMain,
} from '../tools/matrix/table.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// Re-exported for the unit tests, which check the cells' phrases here.
export { factPhrases };

// Facts that would make a case fail on their own (a resampling that keeps the
// playback within the tolerance does not).
function explainsFailure(facts) {
  if (facts.validation && facts.validation.errors > 0) return true;
  return facts.channels.some((c) => c.dropped || c.interpolation !== c.goldenInterpolation || c.keys !== c.goldenKeys || !c.keyTimesEqual);
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
    const found = verdictsFor(verdicts, id, undefined);
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
  const divergence = divergencePhrases(result);
  if (explainsFailure(facts)) {
    // A deviation verdict covering every failing channel is named beside the
    // facts: the changed keys may not be what moves the samples (Babylon's
    // added keys hold a value; its tangents divided by 60 are what fails).
    // Only channels the written file still has (a dropped one says it all).
    const present = result && result.channels ? { ...result, channels: result.channels.filter((c) => !c.missing) } : result;
    const deviations = (verdictsFor(verdicts, id, present) || []).filter((v) => v.verdict === 'deviation');
    for (const v of deviations) used.add(v);
    return { text: `❌ fail: ${[md(phrases.join('; ')), ...divergence, ...deviations.map((v) => md(v.why))].join('; ')}`, kind: 'fail' };
  }
  if (divergence.length) return { text: `❌ fail: ${divergence[0]}`, kind: 'fail' };
  return verdictCell(verdicts, id, result, used, 'the same interpolation, keys and times');
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
  out.push(...versionsTable('exporter', exporters.map((e) => ({ name: e.name, version: versions[e.id], what: e.what }))));
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
  out.push(...matrixHead(exporters.map((e) => e.name), totals));
  out.push(...rows);
  out.push('');
  const notes = { name: 'exporters-notes.md', text: notesText };
  for (const e of exporters) checkVerdicts(problems, e.id, verdicts[e.id], usedBy[e.id], notes);
  return { text: out.join('\n') + '\n', problems };
}

if (isMain(import.meta.url)) {
  const o = parseMatrixArgs(process.argv.slice(2), 'exporters.md');
  const manifest = readJson(path.join(o.suite, 'manifest.json'));
  const versions = readJson(path.join(o.work, 'versions.json'));
  const exporters = EXPORTERS.filter((e) => versions[e.id] !== undefined);
  const facts = {};
  const reports = {};
  const allVerdicts = readJson(path.join(HERE, 'verdicts.json'));
  const verdicts = {};
  for (const e of exporters) {
    facts[e.id] = readJson(path.join(o.work, `${e.id}.facts.json`));
    reports[e.id] = readJson(path.join(o.work, `${e.id}.json`), { cases: [] });
    verdicts[e.id] = allVerdicts[e.id] || [];
  }
  const notesText = readNotes('exporters-notes.md').text;
  const result = buildMatrix({ manifest, exporters, facts, reports, verdicts, versions, notesText });
  publish(o, manifest, result, 'exporter matrix', `${exporters.length} exporters`);
}
