#!/usr/bin/env node
// Where the animation bytes go, per asset, in the outputs a run of run.mjs left in its
// --out folder: for each tool, the bytes of time (sampler input) and value (sampler
// output) accessors, each accessor counted once (what run.mjs counts, summed per asset),
// the time accessors, and the bytes an accessor repeats of another animation accessor with
// the same contents (same type, count and decoded data: what merging equal accessors would
// save).
//
//   node bench/reduce/run.mjs ... --out /tmp/reduce-bench
//   node bench/reduce/breakdown.mjs --out /tmp/reduce-bench [--tools 0,2]
//
// Tool numbers are run.mjs's order (0: gltf-anim at E, 2: glTF-Transform).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { accessorBytes, loadGltf, readAccessor } from './evaluate.mjs';
import { option } from '../lib/options.mjs';

const out = option('--out', '/tmp/gltf-anim-reduce-bench');
const toolIds = option('--tools', '0,2').split(',').map(Number);

// Per role, the bytes of the accessors samplers name (once each), and of those that
// repeat an earlier one's contents.
export function breakdown(gltf) {
  const role = new Map();  // accessor -> 'time' | 'value'
  for (const anim of gltf.json.animations ?? [])
    for (const s of anim.samplers) {
      if (!role.has(s.input)) role.set(s.input, 'time');
      if (!role.has(s.output)) role.set(s.output, 'value');
    }
  const r = { time: 0, value: 0, timeAccessors: 0, repeated: 0, repeatedTime: 0 };
  const seen = new Set();
  for (const [a, kind] of role) {
    const bytes = accessorBytes(gltf, a);
    r[kind] += bytes;
    if (kind === 'time') r.timeAccessors += 1;
    const acc = gltf.json.accessors[a];
    let data;
    try {
      data = Buffer.from(readAccessor(gltf, a).buffer).toString('base64');
    } catch {
      continue;
    }
    const key = `${acc.componentType} ${acc.type} ${acc.normalized ?? false} ${data}`;
    if (seen.has(key)) {
      r.repeated += bytes;
      if (kind === 'time') r.repeatedTime += bytes;
    }
    seen.add(key);
  }
  return r;
}

if (process.argv[1] && process.argv[1].endsWith('breakdown.mjs')) {
  const folders = readdirSync(join(out, String(toolIds[0]))).sort();
  const cols = ['time', 'value', 'timeAccessors', 'repeated'];
  console.log(`| asset | input: time / value B, time accessors, repeated B | ` +
    toolIds.map((t) => `tool ${t}: time / value B, time accessors, repeated B`).join(' | ') + ' |');
  console.log('|---|---|' + toolIds.map(() => '---|').join(''));
  const sums = [null, ...toolIds].map(() => Object.fromEntries(cols.map((c) => [c, 0])));
  const fmt = (r) => `${r.time} / ${r.value}, ${r.timeAccessors}, ${r.repeated}`;
  for (const folder of folders) {
    const cells = [];
    let input = null;
    for (const t of toolIds) {
      const dir = join(out, String(t), folder);
      const files = existsSync(dir) ? readdirSync(dir) : [];
      const inName = files.find((f) => /\.(gltf|glb)$/.test(f) && !f.startsWith('out_'));
      const outPath = [join(dir, `out_${inName}`), join(dir, 'out', `out_${inName}`)].find(existsSync);
      if (!input && inName) input = breakdown(loadGltf(join(dir, inName)));
      cells.push(outPath ? breakdown(loadGltf(outPath)) : null);
    }
    if (!input) continue;
    console.log(`| ${folder} | ${fmt(input)} | ${cells.map((c) => (c ? fmt(c) : 'no output')).join(' | ')} |`);
    [input, ...cells].forEach((c, i) => { if (c) for (const k of cols) sums[i][k] += c[k]; });
  }
  console.log(`| total | ${sums.map(fmt).join(' | ')} |`);
}
