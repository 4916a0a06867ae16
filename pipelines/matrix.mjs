#!/usr/bin/env node
// Builds the pipeline matrix docs/conformance/pipelines.md from what run.mjs
// left in WORK: conformance cases (rows, sorted by id) x pipelines.
//
//   node pipelines/matrix.mjs --work DIR [--out FILE] [--suite DIR] [--check]
//
// A cell says three things, from the facts run.mjs measured:
//  1. whether the animation survived:
//     pass                         the output plays like the case (compare passes)
//     pass within P                it plays like the case within the pipeline's
//                                  stated precision P (lib/precision.mjs), not
//                                  within the case's float32 tolerance
//     fail: FACTS                  it plays differently, and the facts say why
//                                  (channels dropped, interpolation converted,
//                                  keys or times changed, invalid output)
//     fail: VERDICT                a reason the facts do not show (verdicts.json)
//     unsupported / 💥 MESSAGE      the pipeline refused the case, or failed
//  2. for gltfpack -c and -cc, the output against gltfpack's own: `= gltfpack`
//     (every sampled value equal), `≈ gltfpack` (within the meshopt filters'
//     precision), or `≠ gltfpack` (a problem);
//  3. errors: gltf-anim's count / glTF-Validator's. An error of ours where
//     glTF-Validator has none is a false error (a problem unless verdicts.json
//     records it under "validator"); an error of glTF-Validator's that we do
//     not report is shown, and must be recorded there too.
// --check: exit 1 when a cell has a problem, when a verdict explains no cell,
// or when a verdict's words are not on docs/conformance/pipelines-notes.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PIPELINES } from './lib/pipelines.mjs';
import {
  md, fmt, globMatch, factPhrases, verdictsFor, divergencePhrases, verdictCell, versionsTable, matrixHead,
  checkVerdicts, readNotes, readJson, parseMatrixArgs, publish, isMain,
} from '../tools/matrix/table.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// Facts that make a case fail whatever the precision: dropped channels, a
// converted interpolation, invalid output, an unsampled file.
function brokenBy(facts) {
  if (facts.validation && facts.validation.errors > 0) return true;
  if (facts.sampleError) return true;
  return facts.channels.some((c) => c.dropped || c.interpolation !== c.goldenInterpolation);
}

function survival(facts, result, verdicts, id, used, refPass) {
  if (!facts.exported) {
    const found = verdictsFor(verdicts, id, undefined);
    if (found) {
      used.add(found[0]);
      if (found[0].verdict === 'unsupported') return { text: `⬜ unsupported: ${md(found[0].why)}`, kind: 'unsupported' };
    }
    if (facts.required && facts.required.length) {
      return { text: `⬜ unsupported: requires ${md(facts.required.join(', '))} (${md(facts.error)})`, kind: 'unsupported' };
    }
    return { text: `💥 ${md(facts.error)}`, kind: 'fail' };
  }
  const phrases = factPhrases(facts);
  if (facts.sampleError && !phrases.some((p) => p.includes('dropped'))) phrases.push('not sampled');
  const changed = phrases.length ? `, changed: ${md(phrases.join('; '))}` : '';
  if (result && result.passed) return { text: `✅ pass${changed}`, kind: 'pass' };
  // gltfpack -cc: its reference (gltfpack's uncompressed output) survives, and
  // it plays within the filters' precision of it, channel for channel.
  if (refPass && facts.reference && facts.reference.comparable && facts.reference.withinBound &&
      !(facts.validation && facts.validation.errors > 0) && !facts.sampleError && !facts.channels.some((c) => c.dropped)) {
    const how = facts.reference.exact ? 'the same playback' : 'within the filters\' precision';
    return { text: `✅ pass as ${md(refPass)}, ${how}${changed}`, kind: 'pass' };
  }
  if (!brokenBy(facts) && facts.channels.length && facts.channels.every((c) => c.withinPrecision)) {
    const worst = Math.max(...facts.channels.map((c) => c.maxError || 0));
    const angle = facts.channels.filter((c) => c.measure === 'angle');
    const unit = angle.length && angle.some((c) => c.maxError === worst) ? ' rad' : '';
    return { text: `✅ pass within the pipeline's precision (max error ${fmt(worst)}${unit})${changed}`, kind: 'pass' };
  }
  const divergence = divergencePhrases(result);
  if (phrases.length) return { text: `❌ fail: ${[md(phrases.join('; ')), ...divergence].join('; ')}`, kind: 'fail' };
  if (divergence.length) return { text: `❌ fail: ${divergence[0]}`, kind: 'fail' };
  return verdictCell(verdicts, id, result, used, 'the same interpolation, keys and times, beyond the pipeline\'s precision,');
}

function referencePart(pipeline, facts, refFacts) {
  const ref = facts.reference;
  if (!pipeline.reference || !facts.exported) return {};
  if (!ref || !ref.comparable) return { text: `${pipeline.reference} wrote nothing to compare` };
  // The filters' precision holds for valid keys (unit quaternions): an
  // invalid reference is no measure.
  if (!pipeline.exact && !ref.exact && refFacts && refFacts.validation && refFacts.validation.errors > 0) {
    return { text: `${pipeline.reference}'s output is invalid (${md(refFacts.validation.codes.join(', '))}): not compared` };
  }
  if (!ref.channels) return { text: `no channel to compare with ${pipeline.reference}` };
  if (pipeline.exact) {
    if (ref.exact) return { text: `= ${pipeline.reference}` };
    return { text: `**≠ ${pipeline.reference}**`, problem: `${ref.differing} channel(s) differ from ${pipeline.reference}'s output (max ${fmt(ref.maxAngle)} rad, ${fmt(ref.maxAbsolute)})` };
  }
  if (ref.exact) return { text: `= ${pipeline.reference}` };
  const parts = [];
  if (ref.maxAngle) parts.push(`${fmt(ref.maxAngle)} rad`);
  if (ref.maxAbsolute) parts.push(fmt(ref.maxAbsolute));
  if (ref.withinBound) return { text: `≈ ${pipeline.reference} (filters: ${parts.join(', ')})` };
  const w = ref.worst;
  return { text: `**≠ ${pipeline.reference}**`,
    problem: `beyond the filters' precision: channel ${w.channel} at t = ${w.t}: ${fmt(w.error)} > ${fmt(w.bound)} (${w.measure})` };
}

// glTF-Validator does not decode EXT_meshopt_compression: it cannot check the
// values of a compressed view (quaternions of unit length, ...). An error of
// ours on a compressed output is no false error when glTF-Validator reports the
// same code on the reference pipeline's uncompressed output of the same case,
// whose values the compressed one reproduces exactly (gltfpack -c).
function seenUncompressed(pipeline, facts, refFacts, codes) {
  if (!pipeline || !pipeline.reference || !pipeline.exact || !refFacts || !refFacts.exported) return false;
  if (!(facts.reference && facts.reference.exact)) return false;
  return codes.every((c) => refFacts.khronos.codes.includes(c));
}

function validationPart(facts, records, pipelineId, id, used, pipeline, refFacts) {
  if (!facts.exported) return {};
  const ours = facts.validation || { errors: 0, codes: [] };
  const kv = facts.khronos || { errors: 0, codes: [] };
  const record = (kind, codes) => {
    const r = (records || []).find((x) => x.kind === kind && x.cases.some((c) => globMatch(c, id)) &&
      (!x.pipelines || x.pipelines.some((p) => globMatch(p, pipelineId))) && codes.every((c) => x.codes.includes(c)));
    if (r) used.add(r);
    return r;
  };
  const text = `errors ${ours.errors}/${kv.errors}`;
  if (ours.errors > 0 && kv.errors === 0) {
    const first = ours.first ? `${ours.first.code} at ${ours.first.pointer || '/'}` : ours.codes.join(', ');
    if (seenUncompressed(pipeline, facts, refFacts, ours.codes)) {
      return { text: `${text}: ${md(first)}, which glTF-Validator reports on ${pipeline.reference}'s uncompressed output (it does not decode EXT\\_meshopt\\_compression)` };
    }
    if (record('false', ours.codes)) return { text: `${text}, false error: ${md(first)}` };
    return { text: `${text}, **false error: ${md(first)}**`, problem: `gltf-anim reports ${ours.errors} error(s) glTF-Validator does not: ${first}: ${ours.first ? ours.first.message : ''}` };
  }
  const missed = kv.codes.filter((c) => !ours.codes.includes(c));
  if (kv.errors > 0 && missed.length) {
    if (record('missed', missed)) return { text: `${text}, glTF-Validator only: ${md(missed.join(', '))}` };
    return { text: `${text}, **glTF-Validator only: ${md(missed.join(', '))}**`, problem: `glTF-Validator reports ${missed.join(', ')}, gltf-anim does not` };
  }
  return { text };
}

export function buildMatrix({ manifest, pipelines, facts, reports, verdicts, versions, notesText }) {
  const cases = manifest.assets.filter((e) => e.samples).map((e) => e.id).sort();
  const problems = [];
  const out = [];
  out.push('# Pipeline matrix: does the animation survive optimization?');
  out.push('');
  out.push('Each pipeline transforms every case of the conformance suite (`pipelines/run.mjs`, one Node');
  out.push('process per tool); gltf-anim and glTF-Validator judge the output, and its playback, evaluated by');
  out.push('the reference evaluator at the case\'s golden times, is compared with the goldens (`gltf-anim');
  out.push('compare`, the case\'s tolerance, else the pipeline\'s stated precision). Channels are found again');
  out.push('by the names of the objects they animate. Generated by `bash pipelines/run-all.sh`; every cell');
  out.push('that is not a pass, and every precision, is explained on [pipelines-notes.md](pipelines-notes.md).');
  out.push('');
  out.push(...versionsTable('pipeline', [...pipelines.map((p) => ({ name: p.name, version: versions[p.tool], what: p.what })),
    { name: 'glTF-Validator (judge)', version: versions['gltf-validator'], what: 'npm gltf-validator, validateBytes on every output' }]));
  out.push('');
  out.push('Cells: the animation\'s fate; for gltfpack -c and -cc, `=` (sampled values equal to gltfpack\'s');
  out.push('uncompressed output) or `≈` (within the meshopt filters\' precision); then `errors A/B`: errors');
  out.push('reported by gltf-anim (A) and by glTF-Validator (B) on the output.');
  out.push('');
  const totals = pipelines.map(() => ({ pass: 0, fail: 0, ours: 0, kv: 0, falseErrors: 0 }));
  const usedBy = {};
  const kindBy = {};
  const rows = [];
  for (const id of cases) {
    const cells = pipelines.map((p, k) => {
      const used = (usedBy[p.id] ??= new Set());
      const f = facts[p.id][id];
      if (!f) {
        problems.push(`${p.id}: no run for ${id}`);
        return '**not run**';
      }
      const result = reports[p.id] && reports[p.id].cases.find((c) => c.id === id);
      const refPass = p.reference && kindBy[p.reference] && kindBy[p.reference][id] === 'pass' ? p.reference : undefined;
      const s = survival(f, result, verdicts[p.id], id, used, refPass);
      (kindBy[p.id] ??= {})[id] = s.kind;
      const r = referencePart(p, f, p.reference && facts[p.reference] ? facts[p.reference][id] : undefined);
      const v = validationPart(f, verdicts.validator, p.id, id, (usedBy.validator ??= new Set()), p,
        p.reference && facts[p.reference] ? facts[p.reference][id] : undefined);
      for (const part of [s, r, v]) if (part.problem) problems.push(`${p.id}: ${id}: ${part.problem}`);
      if (s.kind === 'pass') totals[k].pass++;
      else if (s.kind === 'fail') totals[k].fail++;
      if (f.exported) {
        if (f.validation.errors) totals[k].ours++;
        if (f.khronos.errors) totals[k].kv++;
        const refFacts = p.reference && facts[p.reference] ? facts[p.reference][id] : undefined;
        if (f.validation.errors && !f.khronos.errors && !seenUncompressed(p, f, refFacts, f.validation.codes)) totals[k].falseErrors++;
      }
      return [s.text, r.text, v.text].filter(Boolean).join(' · ');
    });
    rows.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  out.push(...matrixHead(pipelines.map((p) => p.name), totals));
  out.push(`| **outputs with errors** (gltf-anim / glTF-Validator; false errors) | ${totals.map((t) => `${t.ours} / ${t.kv}; ${t.falseErrors}`).join(' | ')} |`);
  out.push(...rows);
  out.push('');
  const notes = { name: 'pipelines-notes.md', text: notesText };
  for (const p of pipelines) checkVerdicts(problems, p.id, verdicts[p.id], usedBy[p.id], notes);
  checkVerdicts(problems, 'validator', verdicts.validator, usedBy.validator, notes, { kinds: false });
  return { text: out.join('\n') + '\n', problems };
}

if (isMain(import.meta.url)) {
  const o = parseMatrixArgs(process.argv.slice(2), 'pipelines.md');
  const manifest = readJson(path.join(o.suite, 'manifest.json'));
  const versions = {};
  for (const tool of ['gltfpack', 'gltf-transform']) {
    const f = path.join(o.work, `${tool}.versions.json`);
    Object.assign(versions, readJson(f, {}));
  }
  const pipelines = PIPELINES.filter((p) => versions[p.tool] !== undefined && fs.existsSync(path.join(o.work, `${p.id}.facts.json`)));
  const facts = {};
  const reports = {};
  const verdicts = readJson(path.join(HERE, 'verdicts.json'));
  for (const p of pipelines) {
    facts[p.id] = readJson(path.join(o.work, `${p.id}.facts.json`));
    reports[p.id] = readJson(path.join(o.work, `${p.id}.json`), { cases: [] });
  }
  const notesText = readNotes('pipelines-notes.md').text;
  const result = buildMatrix({ manifest, pipelines, facts, reports, verdicts, versions, notesText });
  publish(o, manifest, result, 'pipeline matrix', `${pipelines.length} pipelines`);
}
