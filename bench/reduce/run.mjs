#!/usr/bin/env node
// The reduce benchmark: gltf-anim reduce beside glTF-Transform `resample` and gltfpack
// (versions pinned in package-lock.json) on the animated corpus, in one run. Every
// output is read back and measured by evaluate.mjs (its own reader and Appendix C
// evaluator) against its input: keys, animation bytes, the largest error per channel
// sampled densely, channels over the bound, channels lost.
//
//   npm ci --prefix bench/reduce
//   node bench/reduce/run.mjs --cli build/cli/gltf-anim --corpus /work/shared/corpus \
//     [--max-error 1e-4] [--quantized-error 1e-3] [--out /tmp/reduce-bench] [--json FILE]
//
// The corpus: one file per asset folder (the first variant manifest.json lists). Figures
// and the command that produced them: docs/PERFORMANCE.md, "Keyframe reduction".
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliPath, corpusPath, option } from '../lib/options.mjs';
import { accessorBytes, channels, evaluate, loadGltf, restValue, trackError } from './evaluate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = cliPath();
const corpus = corpusPath();
const maxError = Number(option('--max-error', '1e-4'));
const quantizedError = Number(option('--quantized-error', '1e-3'));
const out = resolve(option('--out', '/tmp/gltf-anim-reduce-bench'));
const jsonOut = option('--json', null);
const bin = (name) => join(here, 'node_modules/.bin', name);

const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
const assets = [];
for (const entry of manifest) {
  const folder = entry.file.split('/')[0];
  if (!assets.some((a) => a.folder === folder)) assets.push({ folder, file: entry.file });
}

// Each tool: how to run it on `input` writing `output`, and the bound its results are
// held to (the vector bound; rotations at twice it, gltf-anim's default angle). gltf-anim
// runs with --force: some corpus assets have validation errors (the pointer asset's
// pointers outside the Object Model, magnum's broken samplers) and are reduced as far as
// they can be; an output that validates worse is still refused.
const tools = [
  {
    name: `gltf-anim reduce --max-error ${maxError}`, bound: maxError, beside: true,
    run: (i, o) => [cli, ['reduce', i, '-o', o, '--max-error', String(maxError), '--force']],
  },
  {
    name: `gltf-anim reduce --max-error ${quantizedError} --quantize`, bound: quantizedError, beside: true,
    run: (i, o) => [cli, ['reduce', i, '-o', o, '--max-error', String(quantizedError), '--quantize', '--force']],
  },
  {
    name: `glTF-Transform 4.5.1 resample --tolerance ${maxError}`, bound: maxError,
    run: (i, o) => [bin('gltf-transform'), ['resample', i, o, '--tolerance', String(maxError)]],
  },
  {
    name: 'gltfpack 1.3.0 (default: 30 Hz resampling)', bound: maxError,
    run: (i, o) => [bin('gltfpack'), ['-i', i, '-o', o, '-kn']],
  },
  {
    name: 'gltfpack 1.3.0 -af 0', bound: maxError,
    run: (i, o) => [bin('gltfpack'), ['-i', i, '-o', o, '-kn', '-af', '0']],
  },
];

// Animation bytes: the data of every accessor an animation sampler names, once each.
function animationStats(gltf) {
  const seen = new Set();
  const inputs = new Set();
  let bytes = 0;
  for (const anim of gltf.json.animations ?? []) {
    for (const s of anim.samplers) {
      for (const a of [s.input, s.output]) {
        if (!seen.has(a)) {
          seen.add(a);
          bytes += accessorBytes(gltf, a);
        }
      }
      inputs.add(s.input);
    }
  }
  return { bytes, timeAccessors: inputs.size };
}

// Each channel's share of the animation bytes: its input and output accessors' data,
// each divided among the channels that use that accessor (shared time accessors count
// once in all).
function attributeBytes(gltf, list) {
  const uses = new Map();
  for (const ch of list) for (const a of [ch.input, ch.output]) uses.set(a, (uses.get(a) ?? 0) + 1);
  for (const ch of list)
    ch.bytes = accessorBytes(gltf, ch.input) / uses.get(ch.input) +
      accessorBytes(gltf, ch.output) / uses.get(ch.output);
}

function measure(inputPath, outputPath, bound) {
  const before = loadGltf(inputPath);
  const after = loadGltf(outputPath);
  const inChannels = channels(before);
  const outChannels = channels(after);
  attributeBytes(before, inChannels);
  attributeBytes(after, outChannels);
  const result = {
    keysBefore: 0, keysAfter: 0, ...{ bytesBefore: 0, bytesAfter: 0 },
    channels: inChannels.length, violations: 0, lost: 0, lostPointer: 0,
    maxVector: 0, maxAngle: 0, maxQuatComponent: 0, cubicChannels: 0, cubicReduced: 0,
    worst: [], perChannel: new Map(),
  };
  const sb = animationStats(before);
  const sa = animationStats(after);
  result.timeAccessorsBefore = sb.timeAccessors;
  result.timeAccessorsAfter = sa.timeAccessors;
  for (const ch of inChannels) {
    const keys = ch.track.times.length;
    if (keys === 0) continue;
    const cubic = ch.track.interpolation === 'CUBICSPLINE';
    if (cubic) result.cubicChannels += 1;
    const match =
      outChannels.find((o) => o.animation === ch.animation && o.key === ch.key) ??
      outChannels.find((o) => o.animationIndex === ch.animationIndex && o.key === ch.key);
    let value;
    let extra = [];
    let keysAfter = 0;
    let bytesAfter = 0;
    if (match) {
      keysAfter = match.track.times.length;
      bytesAfter = match.bytes;
      if (cubic && match.track.interpolation === 'CUBICSPLINE' && match.track.times.length < keys)
        result.cubicReduced += 1;
      value = (t) => evaluate(match.track, t, ch.rotation);
      extra = match.track.times;
    } else {
      // No channel: the node's rest value plays (a tool may drop a channel that never
      // leaves it); a pointer channel or a node that is gone is lost.
      const nodeName = (before.json.nodes ?? [])[ch.node]?.name;
      const rest = ch.path && ch.path !== 'pointer' && nodeName ? restValue(after, nodeName, ch.path) : null;
      if (!rest) {
        result.lost += 1;
        if (ch.key.startsWith('pointer')) result.lostPointer += 1;
        continue;
      }
      value = () => Array.from(rest);
    }
    // Keys and bytes over the channels the output still plays (lost ones apart).
    result.keysBefore += keys;
    result.keysAfter += keysAfter;
    result.bytesBefore += ch.bytes;
    result.bytesAfter += bytesAfter;
    const e = trackError(ch, ch.rotation, value, extra);
    const limit = ch.rotation ? 2 * bound : bound;
    const over = e.error > limit * (1 + 1e-9);
    result.perChannel.set(`${ch.animationIndex} ${ch.key}`, {
      keysBefore: keys, keysAfter, bytesBefore: ch.bytes, bytesAfter, violations: over ? 1 : 0, channels: 1,
    });
    if (over) {
      result.violations += 1;
      result.worst.push(`${ch.animation} ${ch.key}: ${e.error.toPrecision(3)}`);
    }
    if (ch.rotation) {
      result.maxAngle = Math.max(result.maxAngle, e.error);
      result.maxQuatComponent = Math.max(result.maxQuatComponent, e.component);
    } else {
      result.maxVector = Math.max(result.maxVector, e.error);
    }
  }
  return result;
}

// Each tool works on its own copy of the asset (a .gltf with its external buffers), and
// writes beside it: a .gltf output may keep naming the input's unchanged buffers. The
// corpus has no image files (manifest.md), and a tool that reads images (glTF-Transform)
// refuses a .gltf naming a missing one, so each such image URI becomes a 1x1 PNG data URI
// in every tool's copy alike. Animation data are untouched.
const PNG_1X1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
function prepare(asset, dir) {
  const input = join(corpus, asset.file);
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, basename(input));
  if (extname(input) !== '.gltf') {
    copyFileSync(input, copy);
    return copy;
  }
  const json = JSON.parse(readFileSync(input, 'utf8'));
  for (const im of json.images ?? []) {
    if (im.uri && !im.uri.startsWith('data:') && !existsSync(join(dirname(input), decodeURIComponent(im.uri))))
      im.uri = PNG_1X1;
  }
  for (const b of json.buffers ?? [])
    if (b.uri && !b.uri.startsWith('data:'))
      copyFileSync(join(dirname(input), decodeURIComponent(b.uri)), join(dir, decodeURIComponent(b.uri)));
  writeFileSync(copy, JSON.stringify(json));
  return copy;
}

rmSync(out, { recursive: true, force: true });
const totals = tools.map((t) => ({
  tool: t.name, bound: t.bound, assets: 0, refused: [], keysBefore: 0, keysAfter: 0,
  bytesBefore: 0, bytesAfter: 0, channels: 0, violations: 0, lost: 0, lostPointer: 0,
  maxVector: 0, maxAngle: 0, maxQuatComponent: 0, cubicChannels: 0, cubicReduced: 0,
  timeAccessorsBefore: 0, timeAccessorsAfter: 0, worst: [],
}));
const perAsset = [];
for (const asset of assets) {
  const row = { asset: asset.folder, tools: [] };
  tools.forEach((tool, ti) => {
    const dir = join(out, String(ti), asset.folder);
    const input = prepare(asset, dir);
    // gltf-anim writes beside its input (an output may name the input's unchanged
    // buffers; it never writes over them); the others into a folder of their own, as
    // they write their buffers under the input's names.
    const outDir = tool.beside ? dir : join(dir, 'out');
    mkdirSync(outDir, { recursive: true });
    const output = join(outDir, `out_${basename(input)}`);
    const [cmd, argv] = tool.run(input, output);
    const total = totals[ti];
    try {
      execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
    } catch (err) {
      total.refused.push(`${asset.folder} (exit ${err.status})`);
      row.tools.push(null);
      return;
    }
    if (!existsSync(output)) {
      total.refused.push(`${asset.folder} (no output)`);
      row.tools.push(null);
      return;
    }
    const m = measure(input, output, tool.bound);
    row.tools.push(m);
    total.assets += 1;
    for (const k of ['keysBefore', 'keysAfter', 'bytesBefore', 'bytesAfter', 'channels', 'violations',
      'lost', 'lostPointer', 'cubicChannels', 'cubicReduced', 'timeAccessorsBefore', 'timeAccessorsAfter'])
      total[k] += m[k];
    for (const k of ['maxVector', 'maxAngle', 'maxQuatComponent']) total[k] = Math.max(total[k], m[k]);
    total.worst.push(...m.worst.map((w) => `${asset.folder}: ${w}`));
  });
  perAsset.push(row);
}

// The same sums over the channels every tool wrote (and kept), for a like-for-like
// comparison: a tool that drops a channel does not count its keys as removed.
const common = perAsset.filter((row) => row.tools.every((m) => m !== null));
const commonTotals = tools.map((t) => ({
  tool: t.name, keysBefore: 0, keysAfter: 0, bytesBefore: 0, bytesAfter: 0, violations: 0, channels: 0,
}));
for (const row of common) {
  for (const key of row.tools[0].perChannel.keys()) {
    if (!row.tools.every((m) => m.perChannel.has(key))) continue;
    row.tools.forEach((m, ti) => {
      const c = m.perChannel.get(key);
      for (const k of Object.keys(c)) commonTotals[ti][k] += c[k];
    });
  }
}
for (const row of perAsset) for (const m of row.tools) if (m) delete m.perChannel;

const pct = (before, after) => (before ? (100 * (before - after)) / before : 0).toFixed(1);
console.log(`corpus: ${corpus} (${assets.length} assets, one file per folder)`);
console.log('| tool | assets measured | keys removed | animation bytes saved | channels over the bound | max vector error | max rotation angle (rad) | max quaternion component error | channels lost (pointer) | CUBICSPLINE channels reduced | time accessors |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const t of totals) {
  console.log(`| ${t.tool} | ${t.assets} | ${pct(t.keysBefore, t.keysAfter)}% (${t.keysBefore} -> ${t.keysAfter}) | ` +
    `${pct(t.bytesBefore, t.bytesAfter)}% (${Math.round(t.bytesBefore)} -> ${Math.round(t.bytesAfter)}) | ${t.violations} of ${t.channels} (bound ${t.bound}, rotations ${2 * t.bound} rad) | ` +
    `${t.maxVector.toPrecision(3)} | ${t.maxAngle.toPrecision(3)} | ${t.maxQuatComponent.toPrecision(3)} | ` +
    `${t.lost} (${t.lostPointer}) | ${t.cubicReduced} of ${t.cubicChannels} | ${t.timeAccessorsBefore} -> ${t.timeAccessorsAfter} |`);
}
console.log(`\nThe channels every tool wrote and kept, in the ${common.length} assets every tool wrote:`);
console.log('| tool | keys removed | animation bytes saved | channels over the bound |');
console.log('|---|---|---|---|');
for (const t of commonTotals) {
  console.log(`| ${t.tool} | ${pct(t.keysBefore, t.keysAfter)}% (${t.keysBefore} -> ${t.keysAfter}) | ` +
    `${pct(t.bytesBefore, t.bytesAfter)}% (${Math.round(t.bytesBefore)} -> ${Math.round(t.bytesAfter)}) | ${t.violations} of ${t.channels} |`);
}
console.log(`(${common.map((r) => r.asset).join(', ')})\n`);
for (const t of totals) {
  if (t.refused.length) console.log(`${t.tool}: no output for ${t.refused.join(', ')}`);
  if (t.worst.length) console.log(`${t.tool}: over the bound: ${t.worst.slice(0, 8).join('; ')}${t.worst.length > 8 ? ` (+${t.worst.length - 8})` : ''}`);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ totals, commonTotals, perAsset }, null, 1) + '\n');
