#!/usr/bin/env node
// Exporter round trips over the conformance suite: does an animation survive
// export?
//
//   node exporters/roundtrip.mjs --cli GLTF_ANIM --work DIR [--suite DIR]
//        [--exporters id,id] [CASE_ID ...]
//
// For every exporter of lib/exporters.mjs and every case of the suite's
// manifest that has golden samples:
//   1. the exporter imports the case with its own loader and writes it back
//      (DIR/<exporter>/<case>.glb, or the exporter's error);
//   2. `gltf-anim validate` judges the written file (DIR/<exporter>/<case>.validation.json);
//   3. `gltf-anim sample` evaluates it with the reference evaluator at the
//      golden samples' times; each golden channel is found again in the
//      written file (collections are matched by name, so an exporter may
//      renumber nodes, materials or animations) and its values are written
//      as an actual samples file under the golden channel's indices
//      (DIR/<exporter>-samples/<case>.samples.json), with what changed on
//      the way (dropped channel, interpolation, key count, key times) in
//      its adapterNotes and in DIR/<exporter>/<case>.facts.json;
//   4. `gltf-anim compare` judges every exporter's samples against the
//      goldens (DIR/<exporter>.json).
// The matrix is built from these files by matrix.mjs.
// Exit status: 0 done (cases that fail are results), 2 usage or a tool error.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EXPORTERS, readConfined } from './lib/exporters.mjs';
import { mapPointer, findAnimation, describeChanges, weightsElsewhere } from './lib/mapping.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const o = { suite: path.resolve(HERE, '../conformance_assets'), work: undefined, cli: process.env.GLTF_ANIM_CLI, exporters: undefined, cases: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--suite') o.suite = path.resolve(value());
    else if (a === '--work') o.work = path.resolve(value());
    else if (a === '--cli') o.cli = path.resolve(value());
    else if (a === '--exporters') o.exporters = value().split(',');
    else if (a === '--') { o.cases.push(...argv.slice(i + 1)); break; }
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else o.cases.push(a);
  }
  if (!o.work) throw new Error('--work DIR is required');
  if (!o.cli) throw new Error('--cli GLTF_ANIM (or GLTF_ANIM_CLI) is required');
  return o;
}

function gltfJsonOf(bytes) {
  if (bytes.length >= 20 && bytes.toString('latin1', 0, 4) === 'glTF') {
    const len = bytes.readUInt32LE(12);
    return JSON.parse(bytes.toString('utf8', 20, 20 + len));
  }
  return JSON.parse(bytes.toString('utf8'));
}

// Runs the CLI; returns {status, stdout}. status 2 is a tool error, thrown.
function cli(o, args, what) {
  const r = spawnSync(o.cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) throw new Error(`${what}: ${r.error.message}`);
  return r;
}

function validationOf(o, file) {
  const r = cli(o, ['validate', '--no-config', '--no-timings', '--format', 'json', '--', file], 'validate');
  if (r.status === 2 && !r.stdout) return { status: 2, errors: 0, warnings: 0, codes: [], message: r.stderr.trim() };
  const report = JSON.parse(r.stdout);
  const rep = report.reports ? report.reports[0] : report;
  const issues = rep.issues || {};
  const messages = issues.messages || [];
  const codes = [...new Set(messages.filter((m) => m.severity === 0).map((m) => m.code))].sort();
  return { status: r.status, errors: issues.numErrors || 0, warnings: issues.numWarnings || 0, codes };
}

function sampledOf(o, file, times) {
  const args = ['sample', '--format', 'json', '--threads', '1'];
  if (times.length) args.push('--times', times.map((t) => String(t)).join(','));
  args.push('--', file);
  const r = cli(o, args, 'sample');
  if (r.status !== 0) return { error: (r.stderr || '').trim().split('\n').slice(0, 3).join(' ') || `sample exit ${r.status}` };
  return JSON.parse(r.stdout);
}

function roundTrip(o, exporter, entry, outDir, samplesDir) {
  const assetFile = path.join(o.suite, entry.file);
  const golden = JSON.parse(readConfined(o.suite, path.join(o.suite, entry.samples)).toString('utf8'));
  const original = gltfJsonOf(readConfined(o.suite, assetFile));
  return exporter.run(assetFile, o.suite).then(
    (bytes) => {
      const outFile = path.join(outDir, `${entry.id}.glb`);
      fs.writeFileSync(outFile, bytes);
      const exported = gltfJsonOf(bytes);
      const validation = validationOf(o, outFile);
      const times = [...new Set(golden.animations.flatMap((a) => a.channels.flatMap((c) => c.samples.map((s) => s.t))))].sort((a, b) => a - b);
      const sampled = sampledOf(o, outFile, times);
      const facts = { exported: true, validation, channels: [] };
      const file = { asset: golden.asset, generator: `${exporter.name} ${exporter.version()} round trip, gltf-anim exporters/`, animations: [], adapterNotes: [] };
      if (sampled.error) facts.sampleError = sampled.error;
      for (const ga of golden.animations) {
        const outAnim = { index: ga.index, name: ga.name, channels: [] };
        for (const gc of ga.channels) {
          let mapped = mapPointer(gc.target, original, exported);
          const oc = original.animations && original.animations[ga.index] && original.animations[ga.index].channels
            ? original.animations[ga.index].channels[gc.index] : undefined;
          const viaPointer = !!(oc && oc.target && oc.target.extensions && oc.target.extensions.KHR_animation_pointer);
          const fact = { animation: ga.index, channel: gc.index, target: gc.target, pointer: viaPointer,
            goldenInterpolation: gc.interpolation, goldenKeys: gc.keyframes ? gc.keyframes.length : undefined };
          let found;
          if (mapped && !sampled.error) {
            const ea = findAnimation(ga, original, exported, sampled);
            for (const pointer of [mapped, ...weightsElsewhere(mapped, exported)]) {
              for (const cand of ea) {
                found = cand.channels.find((c) => c.target === pointer);
                if (found) {
                  fact.exportedAnimation = cand.index;
                  mapped = pointer;
                  break;
                }
              }
              if (found) break;
            }
          }
          if (!found) {
            fact.dropped = true;
            fact.why = sampled.error ? `the written file cannot be sampled: ${sampled.error}` : mapped ? `no channel animates ${mapped}` : `the target's object is not in the written file`;
          } else {
            fact.mappedTarget = mapped;
            fact.interpolation = found.interpolation;
            fact.keys = found.keyframes ? found.keyframes.length : undefined;
            fact.keyTimesEqual = sameTimes(gc.keyframes, found.keyframes);
            const byT = new Map(found.samples.map((s) => [s.t, s.value]));
            outAnim.channels.push({
              index: gc.index,
              target: gc.target,
              interpolation: found.interpolation,
              keyframes: found.keyframes,
              samples: gc.samples.map((s) => ({ t: s.t, value: byT.get(s.t) })).filter((s) => s.value !== undefined),
            });
          }
          facts.channels.push(fact);
        }
        if (outAnim.channels.length) file.animations.push(outAnim);
      }
      file.adapterNotes = describeChanges(facts);
      fs.writeFileSync(path.join(samplesDir, path.basename(entry.samples)), JSON.stringify(file, null, 1) + '\n');
      return facts;
    },
    (err) => ({ exported: false, error: String(err && err.message ? err.message : err).split('\n')[0].slice(0, 300),
      required: original.extensionsRequired || [] }),
  );
}

function sameTimes(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  return a.every((t, i) => Math.abs(t - b[i]) <= 1e-6 * Math.max(1, Math.abs(t)));
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`roundtrip.mjs: ${e.message}`);
    return 2;
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(o.suite, 'manifest.json'), 'utf8'));
  let entries = manifest.assets.filter((e) => e.samples);
  if (o.cases.length) entries = entries.filter((e) => o.cases.includes(e.id));
  const exporters = o.exporters ? EXPORTERS.filter((e) => o.exporters.includes(e.id)) : EXPORTERS;
  fs.mkdirSync(o.work, { recursive: true });
  const versions = {};
  for (const exporter of exporters) {
    const outDir = path.join(o.work, exporter.id);
    const samplesDir = path.join(o.work, `${exporter.id}-samples`);
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.rmSync(samplesDir, { recursive: true, force: true });
    fs.mkdirSync(outDir, { recursive: true });
    fs.mkdirSync(samplesDir, { recursive: true });
    // An exporter that writes every case in one process (Blender) does so first.
    if (exporter.prepare) await exporter.prepare({ suite: o.suite, entries, work: path.join(o.work, `${exporter.id}-batch`) });
    versions[exporter.id] = exporter.version();
    const all = {};
    let exported = 0;
    for (const entry of entries) {
      all[entry.id] = await roundTrip(o, exporter, entry, outDir, samplesDir);
      if (all[entry.id].exported) exported++;
    }
    fs.writeFileSync(path.join(o.work, `${exporter.id}.facts.json`), JSON.stringify(all, null, 1) + '\n');
    const r = spawnSync(o.cli, ['compare', '--golden', o.suite, '--actual', samplesDir, '--format', 'json',
      '--output', path.join(o.work, `${exporter.id}.json`), ...(o.cases.length ? ['--cases', o.cases.join(',')] : [])], { encoding: 'utf8' });
    if (r.status === 2) {
      console.error(`roundtrip.mjs: compare for ${exporter.id} failed: ${r.stderr.trim()}`);
      return 2;
    }
    console.log(`roundtrip.mjs: ${exporter.id} ${versions[exporter.id]}: ${exported}/${entries.length} exported`);
  }
  fs.writeFileSync(path.join(o.work, 'versions.json'), JSON.stringify(versions, null, 1) + '\n');
  return 0;
}

main().then((code) => process.exit(code), (e) => {
  console.error(`roundtrip.mjs: ${e.stack || e}`);
  process.exit(2);
});
