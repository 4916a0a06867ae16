// What the exporter round trips (exporters/roundtrip.mjs) and the optimization
// pipelines (pipelines/run.mjs) both do with a file a tool wrote: run the native
// CLI on it (validate, sample, compare), find each golden channel again in it
// and write its actual samples file. One copy, so that the two matrices judge a
// written file alike; what differs (an exporter's one file at a time, a tool's
// folder at a time, the pipelines' precisions) stays with each runner.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mapPointer, findAnimation, describeChanges, weightsElsewhere } from '../../exporters/lib/mapping.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The runners' shared command line: --suite, --work, --cli, case ids; `options`
// maps a runner's own options (each takes a value) to a setter.
export function parseRunArgs(argv, defaults = {}, options = {}) {
  const o = { suite: path.join(ROOT, 'conformance_assets'), work: undefined, cli: process.env.GLTF_ANIM_CLI, cases: [], ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--suite') o.suite = path.resolve(value());
    else if (a === '--work') o.work = path.resolve(value());
    else if (a === '--cli') o.cli = path.resolve(value());
    else if (Object.hasOwn(options, a)) options[a](o, value());
    else if (a === '--') { o.cases.push(...argv.slice(i + 1)); break; }
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else o.cases.push(a);
  }
  if (!o.work) throw new Error('--work DIR is required');
  if (!o.cli) throw new Error('--cli GLTF_ANIM (or GLTF_ANIM_CLI) is required');
  return o;
}

// The suite's manifest and the cases to run: those with golden samples, only
// the ones named on the command line when some are.
export function suiteCases(o) {
  const manifest = JSON.parse(fs.readFileSync(path.join(o.suite, 'manifest.json'), 'utf8'));
  let entries = manifest.assets.filter((e) => e.samples);
  if (o.cases.length) entries = entries.filter((e) => o.cases.includes(e.id));
  return { manifest, entries };
}

export function gltfJsonOf(bytes) {
  if (bytes.length >= 20 && bytes.toString('latin1', 0, 4) === 'glTF') {
    const len = bytes.readUInt32LE(12);
    return JSON.parse(bytes.toString('utf8', 20, 20 + len));
  }
  return JSON.parse(bytes.toString('utf8'));
}

// Runs the native CLI; returns spawnSync's {status, stdout, stderr}. Only a CLI
// that cannot be started throws: its exit codes are the caller's to read.
export function runCli(o, args) {
  const r = spawnSync(o.cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) throw new Error(`gltf-anim ${args[0]}: ${r.error.message}`);
  return r;
}

// `gltf-anim validate` on a file or on every asset of a folder, as JSON.
export function validate(o, target) {
  return runCli(o, ['validate', '--no-config', '--no-timings', '--format', 'json', '--', target]);
}

export function errorMessages(report) {
  return ((report.issues && report.issues.messages) || []).filter((m) => m.severity === 0);
}

// A validation report (gltf-anim's or glTF-Validator's, the same shape) in
// the facts: its counts and its error codes, sorted.
export function issueCounts(report) {
  const issues = report.issues || {};
  return {
    errors: issues.numErrors || 0,
    warnings: issues.numWarnings || 0,
    codes: [...new Set(errorMessages(report).map((m) => m.code))].sort(),
  };
}

// `gltf-anim sample` of a written file at the golden times: its samples, or
// {error} with the first lines of what it said.
export function sampledOf(o, file, times) {
  const args = ['sample', '--format', 'json', '--threads', '1'];
  if (times.length) args.push('--times', times.map((t) => String(t)).join(','));
  args.push('--', file);
  const r = runCli(o, args);
  if (r.status !== 0) return { error: (r.stderr || '').trim().split('\n').slice(0, 3).join(' ') || `sample exit ${r.status}` };
  return JSON.parse(r.stdout);
}

// Every time a golden samples file samples at, once, in order.
export function goldenTimes(golden) {
  return [...new Set(golden.animations.flatMap((a) => a.channels.flatMap((c) => c.samples.map((s) => s.t))))].sort((a, b) => a - b);
}

export function sameTimes(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  return a.every((t, i) => Math.abs(t - b[i]) <= 1e-6 * Math.max(1, Math.abs(t)));
}

// The facts of a case the tool refused or failed on: the first line of its
// message, and the extensions the case requires (a loader may lack them).
export function refusedFacts(err, original) {
  return { exported: false, error: String(err && err.message ? err.message : err).split('\n')[0].slice(0, 300),
    required: original.extensionsRequired || [] };
}

// Finds each golden channel again in the written file (`exported`, sampled as
// `sampled`): collections matched by name (exporters/lib/mapping.mjs), so a
// tool may renumber nodes, materials or animations. Appends a fact per golden
// channel to facts.channels (dropped and why, or what it became) and returns
// the actual samples file, under the golden channel's indices, with what
// changed on the way in its adapterNotes. `onFound(ga, gc, fact, found, byT)`
// adds a runner's own facts about a channel found.
export function matchChannels({ golden, original, exported, sampled, facts, generator, onFound }) {
  const file = { asset: golden.asset, generator, animations: [], adapterNotes: [] };
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
        const candidates = findAnimation(ga, original, exported, sampled);
        for (const pointer of [mapped, ...weightsElsewhere(mapped, exported)]) {
          for (const cand of candidates) {
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
        if (onFound) onFound(ga, gc, fact, found, byT);
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
  return file;
}

// Empty folders for a column's written files and its actual samples.
export function freshFolders(...dirs) {
  for (const d of dirs) {
    fs.rmSync(d, { recursive: true, force: true });
    fs.mkdirSync(d, { recursive: true });
  }
}

export function writeJson(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 1) + '\n');
}

// `gltf-anim compare` of a column's actual samples against the goldens, into
// `output`; returns the CLI's stderr when it fails (exit 2), else undefined
// (failing cases, exit 1, are results).
export function compareWithGoldens(o, samplesDir, output) {
  const r = spawnSync(o.cli, ['compare', '--golden', o.suite, '--actual', samplesDir, '--format', 'json',
    '--output', output, ...(o.cases.length ? ['--cases', o.cases.join(',')] : [])], { encoding: 'utf8' });
  return r.status === 2 ? r.stderr.trim() : undefined;
}
