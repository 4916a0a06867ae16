#!/usr/bin/env node
// One tool's pipelines over the conformance suite, in this one Node process:
// does the animation survive optimization?
//
//   node pipelines/run.mjs --tool gltfpack|gltf-transform --cli GLTF_ANIM --work DIR
//        [--suite DIR] [--pipelines id,id] [CASE_ID ...]
//
// For every pipeline of the tool (lib/pipelines.mjs) and every case of the
// suite's manifest that has golden samples:
//   1. the pipeline transforms the case (DIR/<pipeline>/<case>.glb, or its error);
//   2. glTF-Validator (npm gltf-validator, in this process) and `gltf-anim
//      validate` (one run over the pipeline's folder) judge the output;
//   3. `gltf-anim sample` evaluates it at the golden samples' times; each
//      golden channel is found again by the names of the objects it animates
//      (../tools/matrix/runner.mjs, as the exporter round trips find it) and
//      written as an actual samples file
//      (DIR/<pipeline>-samples/<case>.samples.json); the largest error of
//      each channel against the goldens is measured (angle for rotations,
//      absolute otherwise, as `gltf-anim compare` does) beside the pipeline's
//      stated precision (lib/pipelines.mjs);
//   4. a pipeline with a `reference` (gltfpack -c, -cc) is compared value for
//      value with the reference's sampled output (exactly, or within the
//      meshopt filters' precision: lib/precision.mjs);
//   5. `gltf-anim compare` judges the samples against the goldens (DIR/<pipeline>.json).
// Facts: DIR/<pipeline>.facts.json; versions: DIR/<tool>.versions.json.
// Exit status: 0 done (cases that fail are results), 2 usage or a tool error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PIPELINES, TOOLS, installedVersion } from './lib/pipelines.mjs';
import { channelBound, precisionOf, quatAngle } from './lib/precision.mjs';
import {
  parseRunArgs, suiteCases, gltfJsonOf, validate, errorMessages, issueCounts, sampledOf, goldenTimes,
  refusedFacts, matchChannels, freshFolders, writeJson, compareWithGoldens,
} from '../tools/matrix/runner.mjs';

function parseArgs(argv) {
  const o = parseRunArgs(argv, { tool: undefined, pipelines: undefined }, {
    '--tool': (x, v) => { x.tool = v; },
    '--pipelines': (x, v) => { x.pipelines = v.split(','); },
  });
  if (!TOOLS[o.tool]) throw new Error(`--tool must be one of ${Object.keys(TOOLS).join(', ')}`);
  return o;
}

// Our verdicts on every .glb of a folder, by file name: {errors, warnings, codes, first}.
function ourValidation(o, dir) {
  const r = validate(o, dir);
  if (r.status === 2) throw new Error(`gltf-anim validate ${dir}: ${r.stderr.trim()}`);
  const out = {};
  for (const rep of JSON.parse(r.stdout).reports || []) {
    const errors = errorMessages(rep);
    out[path.basename(rep.uri)] = {
      ...issueCounts(rep),
      first: errors.length ? { code: errors[0].code, pointer: errors[0].pointer || '', message: errors[0].message } : undefined,
    };
  }
  return out;
}

let khronos;
async function khronosValidation(bytes, file) {
  khronos ??= (await import('gltf-validator')).default;
  const folder = path.dirname(file);
  const rep = await khronos.validateBytes(new Uint8Array(bytes), {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: async (uri) => new Uint8Array(fs.readFileSync(path.join(folder, path.basename(decodeURIComponent(uri))))),
  });
  return issueCounts(rep);
}

// The largest |component| of a sampler's output keys, read from a GLB's BIN
// chunk: FLOAT accessors without compression or sparse storage only (what
// gltfpack writes for translation and scale without -c), else 0.
export function keysMaxAbs(json, bytes, animation, sampler) {
  try {
    const s = json.animations[animation].samplers[sampler];
    const a = json.accessors[s.output];
    if (a.componentType !== 5126 || a.sparse || a.bufferView === undefined) return 0;
    const bv = json.bufferViews[a.bufferView];
    if (bv.extensions && bv.extensions.EXT_meshopt_compression) return 0;
    if (bytes.toString('latin1', 0, 4) !== 'glTF') return 0;
    const jsonLength = bytes.readUInt32LE(12);
    const bin = 20 + jsonLength + 8;
    const n = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 }[a.type] || 1;
    const stride = bv.byteStride || 4 * n;
    let m = 0;
    for (let i = 0; i < a.count; i++) {
      for (let k = 0; k < n; k++) {
        m = Math.max(m, Math.abs(bytes.readFloatLE(bin + (bv.byteOffset || 0) + (a.byteOffset || 0) + i * stride + 4 * k)));
      }
    }
    return m;
  } catch {
    return 0;
  }
}

function errorOf(measure, golden, actual) {
  if (!Array.isArray(golden) || !Array.isArray(actual) || golden.length !== actual.length) return Infinity;
  if (measure === 'angle' && golden.length === 4) return quatAngle(golden, actual);
  let e = 0;
  for (let k = 0; k < golden.length; k++) e = Math.max(e, Math.abs(golden[k] - actual[k]));
  return Number.isNaN(e) ? Infinity : e;
}

// The case's own tolerance for a channel, as `gltf-anim compare` takes it
// (docs/CONFORMANCE.md, "Tolerances"): the channel's, the case's, the
// manifest's, else 1e-5.
export function caseTolerance(manifest, entry, animation, channel, measure) {
  const key = measure === 'angle' ? 'angleTolerance' : 'tolerance';
  const own = (entry.channelTolerances || []).find((c) => c.animation === animation && c.channel === channel);
  for (const source of [own, entry, manifest]) {
    if (source && typeof source[key] === 'number') return source[key];
  }
  return 1e-5;
}

function pathOf(target) {
  const m = /\/(translation|rotation|scale|weights)$/.exec(target);
  return m ? m[1] : 'pointer';
}

// Judges one written file: facts per golden channel and the actual samples file.
function judge(o, manifest, pipeline, entry, outFile, bytes, original, golden, times) {
  const exported = gltfJsonOf(bytes);
  const sampled = sampledOf(o, outFile, times);
  const facts = { exported: true, bytes: bytes.length, channels: [] };
  const values = {};
  // Each channel found: its largest error against the goldens beside the
  // pipeline's precision, and its values for the reference pipeline's check.
  const onFound = (ga, gc, fact, found, byT) => {
    const measure = gc.measure || (pathOf(gc.target) === 'rotation' ? 'angle' : 'absolute');
    let maxError = 0;
    let maxAbs = 0;
    for (const s of gc.samples) {
      maxError = Math.max(maxError, errorOf(measure, s.value, byT.get(s.t)));
      for (const v of s.value || []) maxAbs = Math.max(maxAbs, Math.abs(v));
    }
    // The pipeline's stated precision on top of the case's float32 tolerance.
    const precision = caseTolerance(manifest, entry, ga.index, gc.index, measure) + precisionOf(pipeline.id, pathOf(gc.target), measure, maxAbs);
    fact.measure = measure;
    fact.maxError = Number.isFinite(maxError) ? maxError : null;
    fact.precision = precision;
    fact.withinPrecision = Number.isFinite(maxError) && maxError <= precision;
    values[`${ga.index}/${gc.index}`] = { path: pathOf(gc.target), measure, maxAbs, byT,
      keysMaxAbs: keysMaxAbs(exported, bytes, fact.exportedAnimation, found.sampler) };
  };
  const file = matchChannels({ golden, original, exported, sampled, facts, onFound,
    generator: `${pipeline.name} ${TOOLS[pipeline.tool].version()}, gltf-anim pipelines/` });
  return { facts, file, values };
}

// Compares a pipeline's sampled values with its reference's, channel by channel.
function againstReference(pipeline, values, refValues) {
  if (!refValues) return { comparable: false, why: `${pipeline.reference} wrote no file for this case` };
  const out = { comparable: true, channels: 0, differing: 0, exact: true, withinBound: true, maxAngle: 0, maxAbsolute: 0, worst: undefined, perChannel: {} };
  for (const [key, v] of Object.entries(values)) {
    const r = refValues[key];
    if (!r) continue;
    out.channels++;
    // The bound scales with the largest key, which the samples may not reach
    // (a cubic spline overshoots between the golden times).
    const { measure, bound } = channelBound(v.path, Math.max(v.maxAbs, r.maxAbs, r.keysMaxAbs, v.keysMaxAbs));
    let differs = false;
    out.perChannel[key] = true;
    for (const [t, value] of r.byT) {
      const mine = v.byT.get(t);
      if (!mine) { differs = true; out.exact = false; out.withinBound = false; out.perChannel[key] = false; continue; }
      if (mine.some((x, k) => x !== value[k])) {
        differs = true;
        out.exact = false;
      }
      const e = errorOf(measure, value, mine);
      if (measure === 'angle') out.maxAngle = Math.max(out.maxAngle, e);
      else out.maxAbsolute = Math.max(out.maxAbsolute, e);
      if (!(e <= bound)) {
        out.withinBound = false;
        out.perChannel[key] = false;
        out.worst ??= { channel: key, t, measure, error: e, bound };
      }
    }
    if (differs) out.differing++;
  }
  return out;
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`run.mjs: ${e.message}`);
    return 2;
  }
  const { manifest, entries } = suiteCases(o);
  const pipelines = PIPELINES.filter((p) => p.tool === o.tool && (!o.pipelines || o.pipelines.includes(p.id)));
  fs.mkdirSync(o.work, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gltf-anim-pipelines-'));
  const inputs = new Map();
  for (const entry of entries) {
    const golden = JSON.parse(fs.readFileSync(path.join(o.suite, entry.samples), 'utf8'));
    const original = gltfJsonOf(fs.readFileSync(path.join(o.suite, entry.file)));
    inputs.set(entry.id, { golden, original, times: goldenTimes(golden) });
  }
  const valuesBy = {};
  const factsBy = {};
  const started = Date.now();
  try {
    for (const pipeline of pipelines) {
      const tool = TOOLS[pipeline.tool];
      const outDir = path.join(o.work, pipeline.id);
      const samplesDir = path.join(o.work, `${pipeline.id}-samples`);
      freshFolders(outDir, samplesDir);
      const all = {};
      const written = {};
      // 1. transform, and glTF-Validator on what was written.
      for (const entry of entries) {
        const assetFile = path.join(o.suite, entry.file);
        try {
          const bytes = await tool.run(pipeline.args, assetFile, scratch);
          const outFile = path.join(outDir, `${entry.id}.glb`);
          fs.writeFileSync(outFile, bytes);
          written[entry.id] = { outFile, bytes };
        } catch (e) {
          all[entry.id] = refusedFacts(e, inputs.get(entry.id).original);
        }
      }
      // 2. gltf-anim validate, once over the folder.
      const ours = Object.keys(written).length ? ourValidation(o, outDir) : {};
      valuesBy[pipeline.id] = {};
      for (const entry of entries) {
        const w = written[entry.id];
        if (!w) continue;
        const { golden, original, times } = inputs.get(entry.id);
        const { facts, file, values } = judge(o, manifest, pipeline, entry, w.outFile, w.bytes, original, golden, times);
        facts.validation = ours[`${entry.id}.glb`] || { errors: 0, warnings: 0, codes: [], missing: true };
        facts.khronos = await khronosValidation(w.bytes, w.outFile);
        valuesBy[pipeline.id][entry.id] = values;
        if (pipeline.reference) {
          const ref = valuesBy[pipeline.reference] && valuesBy[pipeline.reference][entry.id];
          facts.reference = againstReference(pipeline, values, ref);
          // A channel survives as the reference's does, when it stays within the
          // filters' precision of the reference's playback: the filters' error is
          // not to excuse what the reference itself does (30 Hz baking).
          const refFacts = factsBy[pipeline.reference] && factsBy[pipeline.reference][entry.id];
          for (const c of facts.channels) {
            if (c.dropped) continue;
            const rc = refFacts && refFacts.channels && refFacts.channels.find((x) => x.animation === c.animation && x.channel === c.channel);
            c.withinPrecision = !!(rc && rc.withinPrecision && facts.reference.perChannel && facts.reference.perChannel[`${c.animation}/${c.channel}`]);
            c.precision = `as ${pipeline.reference}, within the filters`;
          }
        }
        writeJson(path.join(samplesDir, path.basename(entry.samples)), file);
        all[entry.id] = facts;
      }
      factsBy[pipeline.id] = all;
      writeJson(path.join(o.work, `${pipeline.id}.facts.json`), all);
      const failed = compareWithGoldens(o, samplesDir, path.join(o.work, `${pipeline.id}.json`));
      if (failed !== undefined) {
        console.error(`run.mjs: compare for ${pipeline.id} failed: ${failed}`);
        return 2;
      }
      console.log(`run.mjs: ${pipeline.id}: ${Object.keys(written).length}/${entries.length} written`);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const versions = { [o.tool]: TOOLS[o.tool].version(), 'gltf-validator': installedVersion('gltf-validator') };
  writeJson(path.join(o.work, `${o.tool}.versions.json`), versions);
  console.log(`run.mjs: ${o.tool}: ${pipelines.length} pipeline(s) x ${entries.length} cases in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => process.exit(code), (e) => {
    console.error(`run.mjs: ${e.stack || e}`);
    process.exit(2);
  });
}
