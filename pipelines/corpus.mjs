#!/usr/bin/env node
// By hand, never from CTest: the pipelines over a folder of real animated
// assets (a corpus laid out as ASSET/VARIANT/FILE, e.g. glTF-Sample-Assets),
// with the input's own playback as the goldens.
//
//   node pipelines/corpus.mjs --cli GLTF_ANIM --corpus DIR --work DIR
//
// Builds WORK/suite: one case per asset folder (its first variant folder in
// sorted order that holds a .gltf or .glb), copied with its resources, and
// golden samples made by `gltf-anim sample --rate 30` of the input; then runs
// run.mjs for both tools side by side over it and writes WORK/corpus.md with
// matrix.mjs (no check: a corpus has no verdicts). Cases whose input
// gltf-anim cannot sample are left out (listed in WORK/suite/skipped.json).
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (['--cli', '--corpus', '--work'].includes(a) && i + 1 < argv.length) o[a.slice(2)] = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.cli || !o.corpus || !o.work) throw new Error('usage: node pipelines/corpus.mjs --cli GLTF_ANIM --corpus DIR --work DIR');
  return o;
}

function assetOf(dir) {
  for (const variant of fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    const files = fs.readdirSync(path.join(dir, variant)).filter((f) => /\.(gltf|glb)$/i.test(f)).sort();
    if (files.length) return { variant, file: files[0] };
  }
  return undefined;
}

function run(cmd, args, log) {
  return new Promise((resolve) => {
    const out = fs.openSync(log, 'w');
    const p = spawn(cmd, args, { stdio: ['ignore', out, out] });
    p.on('close', (code) => resolve(code));
  });
}

const o = parseArgs(process.argv.slice(2));
const suite = path.join(o.work, 'suite');
fs.rmSync(suite, { recursive: true, force: true });
fs.mkdirSync(path.join(suite, 'valid'), { recursive: true });
const assets = [];
const skipped = [];
for (const name of fs.readdirSync(o.corpus, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('_')).map((d) => d.name).sort()) {
  const found = assetOf(path.join(o.corpus, name));
  if (!found) continue;
  const id = name.replace(/[^A-Za-z0-9_]/g, '_');
  const dest = path.join(suite, 'valid', id);
  fs.cpSync(path.join(o.corpus, name, found.variant), dest, { recursive: true, dereference: true });
  const file = `valid/${id}/${found.file}`;
  const samples = `valid/${id}/${found.file.replace(/\.(gltf|glb)$/i, '')}.samples.json`;
  const r = spawnSync(o.cli, ['sample', '--format', 'json', '--rate', '30', '--', path.join(suite, file)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) {
    skipped.push({ id, why: (r.stderr || '').trim().split('\n')[0] });
    fs.rmSync(dest, { recursive: true, force: true });
    continue;
  }
  fs.writeFileSync(path.join(suite, samples), r.stdout);
  assets.push({ id, file, samples, group: 'corpus', features: [], clauses: [], extensions: [] });
}
fs.writeFileSync(path.join(suite, 'manifest.json'), JSON.stringify({ assets }, null, 1) + '\n');
fs.writeFileSync(path.join(suite, 'skipped.json'), JSON.stringify(skipped, null, 1) + '\n');
console.log(`corpus.mjs: ${assets.length} assets, ${skipped.length} skipped (input not sampled)`);
const codes = await Promise.all(['gltfpack', 'gltf-transform'].map((tool) =>
  run(process.execPath, [path.join(HERE, 'run.mjs'), '--tool', tool, '--cli', o.cli, '--suite', suite, '--work', o.work], path.join(o.work, `${tool}.log`))));
if (codes.some((c) => c !== 0)) {
  console.error(`corpus.mjs: run.mjs failed (logs in ${o.work})`);
  process.exit(2);
}
const m = spawnSync(process.execPath, [path.join(HERE, 'matrix.mjs'), '--work', o.work, '--suite', suite, '--out', path.join(o.work, 'corpus.md')], { encoding: 'utf8' });
process.stdout.write(m.stdout);
process.exit(m.status === 0 ? 0 : 2);
