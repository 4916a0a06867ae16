#!/usr/bin/env node
// The fit figures of docs/TOOLS.md ("fit"): `gltf-anim fit --dry-run --format json` beside
// `gltf-anim reduce --dry-run --format json` on the LINEAR channels of the animated corpus,
// at each bound E (rotations at A = 2E), both as the CLI reports them per channel. Nothing is
// written: a dry run only reports (its output path is a name in the input's folder, the only
// place an output that keeps the input's external buffers may go).
//
//   node bench/fit/run.mjs --cli build/cli/gltf-anim --corpus ../shared/corpus [--bounds 1e-4,1e-3,1e-2]
//
// Prints the table's Markdown rows. The corpus: every file its manifest.json lists.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cliPath, corpusPath, option } from '../lib/options.mjs';

const cli = cliPath();
const corpus = corpusPath();
const bounds = option('--bounds', '1e-4,1e-3,1e-2').split(',').map(Number);

const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
const files = manifest.map((entry) => entry.file);

// The per-channel rows of one dry run (exit 0 or 1: a report; 2: refused, no rows).
function channels(tool, file, extra) {
  const input = join(corpus, file);
  const output = join(dirname(input), 'gltf-anim-bench-dry-run.glb');
  const run = spawnSync(cli, [tool, input, '-o', output, '--dry-run', '--format', 'json', ...extra],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0 && run.status !== 1) return null;
  return JSON.parse(run.stdout).channels;
}

const isRotation = (c) => c.target.endsWith('/rotation');
const fmt = (n) => n.toLocaleString('en-US');
console.log('| E (A = 2E) | CUBICSPLINE: channels fitted | their keys kept vs reduce\'s | channels that save bytes | CUBICSLERP: rotation channels fitted | their keys kept vs reduce\'s | channels under 38.5% |');
console.log('|---|---|---|---|---|---|---|');
let totals = null;
for (const e of bounds) {
  const bound = ['--max-error', String(e), '--max-angle', String(2 * e)];
  const row = { linear: 0, keys: 0, rotations: 0, rotationKeys: 0, spline: 0, splineKeys: 0, splineReduce: 0,
    saves: 0, slerp: 0, slerpKeys: 0, slerpReduce: 0, under: 0, fewer: 0, jumpBefore: 0, jumpAfter: 0,
    skipped: [] };
  for (const file of files) {
    const reduced = channels('reduce', file, bound);
    const spline = channels('fit', file, [...bound, '--to', 'cubicspline']);
    const slerp = channels('fit', file, [...bound, '--to', 'cubicslerp']);
    if (!reduced || !spline || !slerp) { row.skipped.push(file); continue; }
    const byChannel = new Map(reduced.map((c) => [c.channel, c]));
    for (const c of spline) {
      if (c.interpolationBefore !== 'LINEAR') continue;
      row.linear += 1;
      row.keys += c.keysBefore;
      if (isRotation(c)) { row.rotations += 1; row.rotationKeys += c.keysBefore; }
      const r = byChannel.get(c.channel);
      if (c.interpolationAfter !== 'CUBICSPLINE' || !r) continue;
      row.spline += 1;
      row.splineKeys += c.keysAfter;
      row.splineReduce += r.keysAfter;
      if (c.bytesAfter < r.bytesAfter) row.saves += 1;
    }
    for (const c of slerp) {
      if (c.interpolationBefore !== 'LINEAR' || !isRotation(c)) continue;
      const r = byChannel.get(c.channel);
      // "LINEAR + CUBICSLERP": the fitted sampler, the LINEAR one kept as its fallback.
      if (!c.interpolationAfter.includes('CUBICSLERP') || !r) continue;
      row.slerp += 1;
      row.slerpKeys += c.keysAfter;
      row.slerpReduce += r.keysAfter;
      if (c.keysAfter < 0.385 * r.keysAfter) row.under += 1;
      if (c.keysAfter < r.keysAfter) row.fewer += 1;
      // "largest velocity jump at a key: X rad/s (LINEAR) -> Y rad/s"
      for (const note of c.notes) {
        const m = /^largest velocity jump at a key: ([0-9.e+-]+) rad\/s \(LINEAR\) -> ([0-9.e+-]+) rad\/s$/.exec(note);
        if (m) { row.jumpBefore += Number(m[1]); row.jumpAfter = Math.max(row.jumpAfter, Number(m[2])); }
      }
    }
  }
  console.log(`| ${e} | ${row.spline} of ${row.linear} | ${fmt(row.splineKeys)} vs ${fmt(row.splineReduce)} | ${row.saves} | ` +
    `${row.slerp} of ${row.rotations} | ${fmt(row.slerpKeys)} vs ${fmt(row.slerpReduce)} | ${row.under} |`);
  console.error(`E = ${e}: CUBICSPLINE keeps ${(100 * row.splineKeys / row.splineReduce).toFixed(1)}% of reduce's keys; ` +
    `CUBICSLERP ${(100 * row.slerpKeys / row.slerpReduce - 100).toFixed(1)}% more, ${row.fewer} of ${row.slerp} fitted rotation ` +
    `channels keep fewer; largest angular velocity jump at a key, mean over them ` +
    `${(row.jumpBefore / Math.max(row.slerp, 1)).toFixed(3)} rad/s as LINEAR, at most ${row.jumpAfter.toExponential(2)} rad/s fitted`);
  totals = row;
}
if (totals) {
  console.error(`fit bench: ${files.length} assets, ${totals.linear} LINEAR channels (${fmt(totals.keys)} keys), ` +
    `${totals.rotations} rotation channels (${fmt(totals.rotationKeys)} keys)` +
    (totals.skipped.length ? `; refused, not counted: ${totals.skipped.join(', ')}` : ''));
}
