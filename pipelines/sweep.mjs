#!/usr/bin/env node
// The optimizers' options swept over real assets and the suite: what does gltf-anim
// still get wrong on what gltfpack and glTF-Transform write? Not run by CTest (it
// takes minutes); its findings are recorded on docs/conformance/pipelines-sweep.md.
//
//   PATH="$(bash scripts/node20.sh)":$PATH node pipelines/sweep.mjs --cli GLTF_ANIM --work DIR
//        [--assets corpus|suite|all] [--corpus DIR] [--suite DIR] [--only REGEX]
//        [--no-repair | --repair-only REGEX]
//
// Assets: every .gltf/.glb of --corpus (default ../shared/corpus) and/or of the
// suite's valid folder (conformance_assets/valid). Option sets: OPTION_SETS below
// (gltfpack's and glTF-Transform's options, alone and chained by two), run in
// this Node process through pipelines/lib/pipelines.mjs (as run.mjs runs them);
// --only keeps the sets whose id matches REGEX. The corpus leaves its textures out:
// a .gltf input is copied to DIR/inputs with a 1x1 PNG in place of each image file
// it names and lacks, a 1x1 JPEG for a .jpg (glTF-Transform refuses a missing image;
// nothing animated changes). gltfpack runs as its CLI, a process per output. Outputs equal byte for byte to an earlier one are judged once. For each output (DIR/out/<set>/<asset>.glb):
//   1. glTF-Validator (npm gltf-validator, in process) and `gltf-anim validate`:
//      a false error is an error of ours where glTF-Validator reports none (a data
//      error in a meshopt-compressed view, which glTF-Validator does not decode, is
//      `beyond-gltf-validator`); where both report errors, codes only one reports are
//      `codes-differ`;
//   2. `gltf-anim sample` (default times) and `sample --keys`: an output we accept
//      that cannot be sampled, or a crash, is a finding;
//   3. where the set claims lossless animation (`lossless`), the output sampled at
//      the input's sample times against the input's own samples (`gltf-anim compare`)
//      when both name the same targets;
//   3b. a set with `exact` (gltfpack's lossless compression, its stream versions and
//      fallback buffers) against the output of the set it names, sample for sample, exactly;
//   4. the repair tools on it (--no-repair: none; --repair-only: the sets matching REGEX) (`fix`, `reduce --max-error 1e-4`, `fit --to cubicspline
//      --max-error 1e-3`, `migrate --to khr_animation_pointer`) into DIR/tmp: each must
//      write an output with no new error (ours or glTF-Validator's), or refuse with a
//      coded message and exit 1 or 2; never crash.
// Writes DIR/results.json (one row per set and asset) and prints the findings by
// class. Exit 0 when it ran (findings are results), 2 on usage errors.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TOOLS } from './lib/pipelines.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');

// id, tool, args (a chain: steps); lossless: the animation plays exactly as the input's.
const P = (id, args, extra = {}) => ({ id, steps: [{ tool: 'gltfpack', args }], ...extra });
const T = (id, args, extra = {}) => ({ id, steps: [{ tool: 'gltf-transform', args }], ...extra });
const CHAIN = (id, a, b, extra = {}) => ({ id, steps: [a.steps[0], b.steps[0]], ...extra });
export const OPTION_SETS = [
  P('pack', []), P('pack-c', ['-c'], { exact: 'pack' }), P('pack-cc', ['-cc']), P('pack-cz', ['-cz']),
  P('pack-kn', ['-kn']), P('pack-km', ['-km']), P('pack-ke', ['-ke']),
  P('pack-vp10', ['-vp', '10']), P('pack-vp14', ['-vp', '14']), P('pack-vp16', ['-vp', '16']),
  P('pack-vt8', ['-vt', '8']), P('pack-vt12', ['-vt', '12']), P('pack-vt16', ['-vt', '16']),
  P('pack-vn8', ['-vn', '8']), P('pack-vpf', ['-vpf']), P('pack-vpi', ['-vpi']), P('pack-vtf', ['-vtf']),
  P('pack-noq', ['-noq']), P('pack-af0', ['-af', '0']), P('pack-af15', ['-af', '15']), P('pack-af60', ['-af', '60']),
  P('pack-ac', ['-ac']), P('pack-ar8', ['-ar', '8']), P('pack-ar12', ['-ar', '12']), P('pack-ar16', ['-ar', '16']),
  P('pack-at8', ['-at', '8']), P('pack-at16', ['-at', '16']), P('pack-at24', ['-at', '24']),
  P('pack-as8', ['-as', '8']), P('pack-as16', ['-as', '16']), P('pack-si05', ['-si', '0.5']), P('pack-mi', ['-mi']),
  P('pack-e', ['-e']), P('pack-tc', ['-tc']),
  P('pack-cc-ar8-at8-as8', ['-cc', '-ar', '8', '-at', '8', '-as', '8']),
  P('pack-cc-ar16-at24-as16', ['-cc', '-ar', '16', '-at', '24', '-as', '16']),
  P('pack-cc-af0', ['-cc', '-af', '0']), P('pack-c-af0', ['-c', '-af', '0'], { exact: 'pack-af0' }), P('pack-cc-ac', ['-cc', '-ac']),
  P('pack-cc-noq', ['-cc', '-noq']), P('pack-cc-kn-km', ['-cc', '-kn', '-km']), P('pack-cz-af0', ['-cz', '-af', '0']),
  P('pack-noq-af0', ['-noq', '-af', '0']), P('pack-cc-vpf', ['-cc', '-vpf']),
  // Stream versions and fallback buffers: each plays exactly as its reference (`exact`).
  P('pack-c-khr', ['-c', '-ce', 'khr'], { exact: 'pack' }), P('pack-c-cf', ['-c', '-cf'], { exact: 'pack' }),
  P('pack-c-cf-khr', ['-c', '-cf', '-ce', 'khr'], { exact: 'pack' }),
  P('pack-cc-khr', ['-cc', '-ce', 'khr'], { exact: 'pack-cc' }), P('pack-cc-cf', ['-cc', '-cf'], { exact: 'pack-cc' }),
  P('pack-cc-cf-khr', ['-cc', '-cf', '-ce', 'khr'], { exact: 'pack-cc' }),
  T('gt-optimize', ['optimize']), T('gt-optimize-meshopt', ['optimize', '--compress', 'meshopt']),
  T('gt-optimize-draco', ['optimize', '--compress', 'draco']), T('gt-optimize-quantize', ['optimize', '--compress', 'quantize']),
  T('gt-optimize-nocompress', ['optimize', '--compress', 'false']),
  T('gt-optimize-instance', ['optimize', '--instance', 'true', '--compress', 'false']),
  T('gt-optimize-palette', ['optimize', '--palette', 'true']), T('gt-optimize-simplify', ['optimize', '--simplify', 'true']),
  T('gt-optimize-nojoin', ['optimize', '--join', 'false']), T('gt-optimize-noresample', ['optimize', '--resample', 'false']),
  T('gt-optimize-flatten', ['optimize', '--flatten', 'true', '--compress', 'false']),
  T('gt-optimize-sparse', ['optimize', '--sparse', 'true', '--compress', 'false']),
  T('gt-meshopt', ['meshopt']), T('gt-meshopt-high', ['meshopt', '--level', 'high']),
  T('gt-meshopt-medium', ['meshopt', '--level', 'medium']),
  T('gt-draco', ['draco']), T('gt-draco-edgebreaker', ['draco', '--method', 'edgebreaker']),
  T('gt-draco-sequential', ['draco', '--method', 'sequential']),
  T('gt-draco-q8', ['draco', '--quantize-position', '8', '--quantize-normal', '6', '--quantize-texcoord', '8']),
  T('gt-quantize', ['quantize']), T('gt-quantize-pos8', ['quantize', '--quantize-position', '8']),
  T('gt-quantize-pattern', ['quantize', '--pattern', 'POSITION']),
  T('gt-quantize-16', ['quantize', '--quantize-position', '16', '--quantize-normal', '16', '--quantize-texcoord', '16', '--quantize-weight', '16']),
  T('gt-resample', ['resample']), T('gt-resample-1e-6', ['resample', '--tolerance', '1e-6']),
  T('gt-resample-1e-2', ['resample', '--tolerance', '0.01']), T('gt-resample-0', ['resample', '--tolerance', '0']),
  T('gt-sparse', ['sparse'], { lossless: true }), T('gt-dedup', ['dedup'], { lossless: true }),
  T('gt-prune', ['prune'], { lossless: true }), T('gt-weld', ['weld'], { lossless: true }),
  T('gt-unweld', ['unweld'], { lossless: true }), T('gt-instance', ['instance'], { lossless: true }),
  T('gt-reorder', ['reorder'], { lossless: true }), T('gt-flatten', ['flatten'], { lossless: true }),
  T('gt-join', ['join'], { lossless: true }), T('gt-center', ['center']),
  T('gt-dequantize', ['dequantize'], { lossless: true }), T('gt-palette', ['palette'], { lossless: true }),
  T('gt-metalrough', ['metalrough'], { lossless: true }), T('gt-unlit', ['unlit'], { lossless: true }),
  T('gt-uninstance', ['uninstance'], { lossless: true }), T('gt-copy', ['copy'], { lossless: true }),
  T('gt-simplify', ['simplify'], { lossless: true }),
];
{
  const by = Object.fromEntries(OPTION_SETS.map((s) => [s.id, s]));
  OPTION_SETS.push(
    CHAIN('gt-resample+gt-meshopt', by['gt-resample'], by['gt-meshopt']),
    CHAIN('gt-meshopt+gt-dequantize', by['gt-meshopt'], by['gt-dequantize']),
    CHAIN('gt-quantize+gt-meshopt', by['gt-quantize'], by['gt-meshopt']),
    CHAIN('gt-sparse+gt-meshopt', by['gt-sparse'], by['gt-meshopt']),
    CHAIN('gt-resample+gt-sparse', by['gt-resample'], by['gt-sparse']),
    CHAIN('pack-cc+gt-copy', by['pack-cc'], by['gt-copy']),
    CHAIN('pack-cc+gt-dequantize', by['pack-cc'], by['gt-dequantize']),
    CHAIN('pack+gt-meshopt', by['pack'], by['gt-meshopt']),
    CHAIN('pack-noq+gt-quantize', by['pack-noq'], by['gt-quantize']),
    CHAIN('gt-meshopt+pack', by['gt-meshopt'], by['pack']),
    CHAIN('gt-draco+pack-c', by['gt-draco'], by['pack-c']),
    CHAIN('gt-sparse+pack-cc', by['gt-sparse'], by['pack-cc']),
    CHAIN('gt-resample+pack-cc', by['gt-resample'], by['pack-cc']),
  );
}

function parseArgs(argv) {
  const o = { cli: undefined, work: undefined, assets: 'all', corpus: path.resolve(ROOT, '..', 'shared', 'corpus'),
    suite: path.join(ROOT, 'conformance_assets', 'valid'), only: undefined, repair: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => { if (i + 1 >= argv.length) usage(`${a} needs a value`); return argv[++i]; };
    if (a === '--cli') o.cli = path.resolve(v());
    else if (a === '--work') o.work = path.resolve(v());
    else if (a === '--assets') o.assets = v();
    else if (a === '--corpus') o.corpus = path.resolve(v());
    else if (a === '--suite') o.suite = path.resolve(v());
    else if (a === '--only') o.only = new RegExp(v());
    else if (a === '--no-repair') o.repair = false;
    else if (a === '--repair-only') o.repairOnly = new RegExp(v());
    else usage(`unknown argument ${a}`);
  }
  if (!o.cli || !o.work) usage('--cli and --work are required');
  if (!['corpus', 'suite', 'all'].includes(o.assets)) usage('--assets is corpus, suite or all');
  return o;
}
function usage(why) {
  console.error(`sweep.mjs: ${why}\nusage: node pipelines/sweep.mjs --cli GLTF_ANIM --work DIR [--assets corpus|suite|all] [--only REGEX] [--no-repair]`);
  process.exit(2);
}

function listAssets(dir) {
  const found = [];
  if (!fs.existsSync(dir)) return found;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && !e.name.startsWith('_')) walk(p);
      else if (e.isFile() && /\.(gltf|glb)$/i.test(e.name)) found.push(p);
    }
  };
  walk(dir);
  return found;
}

// A name for an asset unique in the run: its path below the root, '/' as '__'.
const assetName = (root, file) => path.relative(root, file).replace(/\.(gltf|glb)$/i, '').split(path.sep).join('__');

// A 1x1 transparent PNG: what a missing image of the corpus is replaced by.
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
let JPEG_1X1;
function withPlaceholderImages(file, into) {
  if (!/\.gltf$/i.test(file)) return file;
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  const folder = path.dirname(file);
  const missing = (json.images || []).map((im) => im.uri).filter((u) => u && !u.startsWith('data:') && !fs.existsSync(path.join(folder, decodeURIComponent(u))));
  if (!missing.length) return file;
  fs.cpSync(folder, into, { recursive: true });
  for (const u of missing) {
    const p = path.join(into, decodeURIComponent(u));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, /\.jpe?g$/i.test(p) ? JPEG_1X1 : PNG_1X1);
  }
  return path.join(into, path.basename(file));
}

// gltfpack in a process of its own (its CLI, the same pack() as the library): a wasm trap
// ("memory access out of bounds", which gltfpack 1.3.0 hits on some assets) leaves the
// library's instance unusable for every later call of the process.
const GLTFPACK_CLI = path.join(HERE, 'node_modules', 'gltfpack', 'cli.js');
function gltfpackProcess(args, file, scratch) {
  const out = path.join(scratch, 'out.glb');
  const r = spawnSync(process.execPath, [GLTFPACK_CLI, '-i', file, '-o', out, ...args], { encoding: 'utf8', timeout: 300000 });
  if (r.status !== 0 || !fs.existsSync(out)) {
    const lines = `${r.stderr || ''}\n${r.stdout || ''}`.trim().split('\n');
    throw new Error(`gltfpack: ${(lines.filter((l) => /error|bounds|unreachable/i.test(l)).pop() || lines.pop() || `exit ${r.status}`).trim()}`);
  }
  return fs.readFileSync(out);
}

function run(cli, args, timeoutMs = 120000) {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 << 20 });
  return { status: r.status, signal: r.signal, stdout: r.stdout || '', stderr: r.stderr || '', timedOut: r.error && r.error.code === 'ETIMEDOUT' };
}
// A CLI run that did not end with 0, 1 or 2 crashed (a signal, an abort, a timeout).
const crashed = (r) => r.signal || r.timedOut || ![0, 1, 2].includes(r.status);
// Error codes of a report, but for an image's file the corpus does not hold.
const errCodes = (rep) => [...new Set((rep.issues?.messages || rep.issues || [])
  .filter((m) => m.severity === 0 && !(/^IO_/.test(m.code) && /^\/images\//.test(m.pointer || '')))
  .map((m) => m.code))].sort();

let khronos;
async function khronosErrors(file) {
  khronos ??= (await import('gltf-validator')).default;
  const folder = path.dirname(file);
  const rep = await khronos.validateBytes(new Uint8Array(fs.readFileSync(file)), {
    uri: path.basename(file), maxIssues: 0,
    externalResourceFunction: async (uri) => new Uint8Array(fs.readFileSync(path.join(folder, path.basename(decodeURIComponent(uri))))),
  });
  // IO errors for images the corpus did not collect are not the asset's.
  return errCodes(rep);
}
function ourErrors(cli, file) {
  const r = run(cli, ['validate', '--format', 'json', file]);
  if (crashed(r)) return { crash: `validate: ${r.signal || r.status}` };
  try {
    const rep = JSON.parse(r.stdout);
    const one = rep.reports ? rep.reports[0] : rep;
    return { codes: errCodes(one), first: (one.issues?.messages || []).find((m) => m.severity === 0) };
  } catch (e) {
    return { crash: `validate: unreadable report (${e.message})` };
  }
}

// Every time of a samples file, for sampling two assets alike (at most 400).
function sampleTimes(samplesJson) {
  const ts = new Set();
  for (const an of samplesJson.animations || []) for (const ch of an.channels || []) for (const s of ch.samples || []) ts.add(s.t);
  const all = [...ts].sort((a, b) => a - b);
  if (all.length <= 400) return all;
  const step = all.length / 400;
  return Array.from({ length: 400 }, (_, i) => all[Math.floor(i * step)]);
}
// Whether a written .glb stores bufferViews compressed (meshopt), which glTF-Validator reads not.
function compressedData(bytes) {
  try {
    const json = JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
    return (json.extensionsUsed || []).some((e) => /_meshopt_compression$/.test(e));
  } catch (e) {
    return false;
  }
}
const targetsOf = (j) => (j.animations || []).flatMap((an) => (an.channels || []).map((c) => `${an.index}:${c.target}`)).sort().join('|');

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const sets = OPTION_SETS.filter((s) => !o.only || o.only.test(s.id));
  const assets = [];
  if (o.assets !== 'suite') for (const f of listAssets(o.corpus)) assets.push({ file: f, name: `corpus__${assetName(o.corpus, f)}` });
  if (o.assets !== 'corpus') for (const f of listAssets(o.suite)) assets.push({ file: f, name: `suite__${assetName(o.suite, f)}` });
  fs.mkdirSync(o.work, { recursive: true });
  const tmp = path.join(o.work, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const rows = [];
  const started = Date.now();
  // A 1x1 JPEG for the .jpg names (glTF-Transform's optimize decodes textures with sharp).
  const sharp = (await import('sharp')).default;
  JPEG_1X1 = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } }).jpeg().toBuffer();
  for (const a of assets) a.file = withPlaceholderImages(a.file, path.join(o.work, 'inputs', a.name));
  // Inputs: their errors (ours and glTF-Validator's) and samples.
  const inputs = {};
  for (const a of assets) {
    const ours = ourErrors(o.cli, a.file);
    let theirs = [];
    try { theirs = await khronosErrors(a.file); } catch (e) { theirs = [`(glTF-Validator: ${e.message})`]; }
    const s = run(o.cli, ['sample', a.file]);
    let samples;
    try { if (s.status === 0) samples = JSON.parse(s.stdout); } catch (e) { samples = undefined; }
    inputs[a.name] = { ours, theirs, samples, times: samples ? sampleTimes(samples) : [] };
  }
  const seen = new Map();
  for (const set of sets) {
    const outDir = path.join(o.work, 'out', set.id);
    fs.mkdirSync(outDir, { recursive: true });
    for (const a of assets) {
      const row = { set: set.id, asset: a.name, findings: [] };
      rows.push(row);
      const find = (cls, detail) => row.findings.push({ cls, detail });
      let file = a.file;
      let bytes;
      try {
        for (const [i, step] of set.steps.entries()) {
          const scratch = fs.mkdtempSync(path.join(tmp, 'gt-'));
          bytes = step.tool === 'gltfpack' ? gltfpackProcess(step.args, file, scratch)
            : await TOOLS[step.tool].run(step.args, file, scratch);
          const name = `${a.name}${i + 1 < set.steps.length ? `.step${i}` : ''}`;
          const beside = fs.readdirSync(scratch).filter((f) => f !== 'out.glb');
          if (beside.length) {
            // Files the .glb names (gltfpack -cf: out.fallback.bin) go with it, in a folder
            // of its own so that no two outputs share a name.
            const dir = path.join(outDir, name);
            fs.mkdirSync(dir, { recursive: true });
            for (const f of beside) fs.copyFileSync(path.join(scratch, f), path.join(dir, f));
            file = path.join(dir, 'out.glb');
          } else {
            file = path.join(outDir, `${name}.glb`);
          }
          fs.writeFileSync(file, bytes);
          fs.rmSync(scratch, { recursive: true, force: true });
        }
      } catch (e) {
        row.toolError = String(e.message || e).slice(0, 300);
        continue;
      }
      const hash = crypto.createHash('sha256').update(bytes).digest('hex');
      if (seen.has(hash)) { row.sameAs = seen.get(hash); continue; }
      seen.set(hash, `${set.id}/${a.name}`);
      row.output = path.relative(o.work, file);
      let theirs;
      try { theirs = await khronosErrors(file); } catch (e) { theirs = [`(glTF-Validator: ${String(e.message).slice(0, 100)})`]; }
      const ours = ourErrors(o.cli, file);
      row.theirs = theirs;
      row.ours = ours.codes;
      if (ours.crash) find('crash', ours.crash);
      else if (ours.codes.length && !theirs.length && compressedData(bytes) && ours.codes.every((c) => c.startsWith('ACCESSOR_'))) {
        // glTF-Validator decodes no EXT_meshopt_compression / KHR_meshopt_compression view: the
        // data errors we find there are beyond its sight, not false (the uncompressed output
        // of the same set shows them to both).
        find('beyond-gltf-validator', `${ours.codes.join(',')}: ${ours.first?.pointer || ''} ${ours.first?.message || ''}`.slice(0, 300));
      } else if (ours.codes.length && !theirs.length) find('false-error', `${ours.codes.join(',')}: ${ours.first?.pointer || ''} ${ours.first?.message || ''}`.slice(0, 300));
      // Both call it invalid but disagree on why: the rules' business, reported apart.
      if (!ours.crash && ours.codes.length && theirs.length) {
        const only = (x, y) => x.filter((c) => !y.includes(c) && !c.startsWith('('));
        const missed = only(theirs, ours.codes);
        const extra = only(ours.codes, theirs);
        if (missed.length || extra.length) find('codes-differ', `glTF-Validator only: ${missed.join(',') || '-'}; gltf-anim only: ${extra.join(',') || '-'}`);
      }
      const inp = inputs[a.name];
      const newErrors = (before, after) => after.filter((c) => !before.includes(c));
      // Sampling: an output we accept must play.
      const s = run(o.cli, ['sample', file]);
      if (crashed(s)) find('crash', `sample: ${s.signal || s.status} ${s.stderr.slice(0, 200)}`);
      else if (s.status !== 0 && !ours.codes?.length) find('unsampled', `sample exit ${s.status}: ${s.stderr.trim().split('\n')[0].slice(0, 250)}`);
      const k = run(o.cli, ['sample', file, '--keys']);
      if (crashed(k)) find('crash', `sample --keys: ${k.signal || k.status} ${k.stderr.slice(0, 200)}`);
      else if (k.status !== 0 && !ours.codes?.length) find('unsampled', `sample --keys exit ${k.status}: ${k.stderr.trim().split('\n')[0].slice(0, 250)}`);
      // Lossless sets: the input's own samples again.
      if (set.lossless && inp.samples && inp.times.length && s.status === 0) {
        const times = inp.times.join(',');
        const g = path.join(tmp, 'golden.samples.json');
        const act = path.join(tmp, 'actual.samples.json');
        const rg = run(o.cli, ['sample', a.file, '--times', times, '--asset-name', 'x', '--output', g]);
        const ra = run(o.cli, ['sample', file, '--times', times, '--asset-name', 'x', '--output', act]);
        if (rg.status === 0 && ra.status === 0) {
          const same = targetsOf(JSON.parse(fs.readFileSync(g, 'utf8'))) === targetsOf(JSON.parse(fs.readFileSync(act, 'utf8')));
          if (!same) row.compare = 'not compared: targets renumbered';
          else {
            const c = run(o.cli, ['compare', '--golden', g, '--actual', act, '--format', 'json']);
            row.compare = c.status === 0 ? 'pass' : `fail (${c.status})`;
            if (crashed(c)) find('crash', `compare: ${c.signal || c.status}`);
            else if (c.status !== 0) {
              let worst = '';
              try { const j = JSON.parse(c.stdout); worst = JSON.stringify(j.cases?.[0]?.worst ?? j.cases?.[0] ?? '').slice(0, 250); } catch (e) { worst = c.stderr.slice(0, 200); }
              find('lossless-differs', worst);
            }
          }
        }
      }
      // Compressed alike: the same keys as the reference set's output, value for value.
      const refFile = set.exact && [path.join(o.work, 'out', set.exact, `${a.name}.glb`), path.join(o.work, 'out', set.exact, a.name, 'out.glb')].find((f) => fs.existsSync(f));
      if (refFile && fs.existsSync(refFile) && inp.times.length && s.status === 0) {
        const times = inp.times.join(',');
        const g = path.join(tmp, 'reference.samples.json');
        const act = path.join(tmp, 'actual.samples.json');
        const rg = run(o.cli, ['sample', refFile, '--times', times, '--asset-name', 'x', '--output', g]);
        const ra = run(o.cli, ['sample', file, '--times', times, '--asset-name', 'x', '--output', act]);
        if (rg.status === 0 && ra.status === 0) {
          const c = run(o.cli, ['compare', '--golden', g, '--actual', act, '--format', 'json', '--tolerance', '0', '--angle-tolerance', '0', '--length-tolerance', '0']);
          row.exact = c.status === 0 ? `= ${set.exact}` : `differs from ${set.exact}`;
          if (crashed(c)) find('crash', `compare: ${c.signal || c.status}`);
          else if (c.status !== 0) find('not-exact', `against ${set.exact}: ${c.stdout.slice(0, 300)}`);
        }
      }
      if (!o.repair || (o.repairOnly && !o.repairOnly.test(set.id))) continue;
      const tools = [
        ['fix', []], ['reduce', ['--max-error', '1e-4']], ['fit', ['--to', 'cubicspline', '--max-error', '1e-3']],
        ['migrate', ['--to', 'khr_animation_pointer']],
      ];
      row.repair = {};
      for (const [tool, extra] of tools) {
        // An output with files beside it (-cf's fallback .bin) is repaired in its own folder:
        // the tools keep an input's external buffers by relative URI, so they write beside it.
        const out = path.join(path.basename(file) === 'out.glb' ? path.dirname(file) : tmp, `repaired-${tool}.glb`);
        fs.rmSync(out, { force: true });
        const r = run(o.cli, [tool, file, '-o', out, '--format', 'json', ...extra]);
        if (crashed(r)) { find('crash', `${tool}: ${r.signal || r.status} ${r.stderr.slice(0, 200)}`); row.repair[tool] = 'crash'; continue; }
        if (r.status !== 0) {
          const msg = (r.stderr.trim() || r.stdout.trim()).split('\n')[0];
          row.repair[tool] = `exit ${r.status}: ${msg.slice(0, 200)}`;
          // A refusal of an input we call valid says why, in words that name a code or a reason.
          if (!msg) find('silent-refusal', `${tool} exit ${r.status} with no message`);
          else if (r.status === 1 && !ours.codes?.length) find('tool-refuses-valid', `${tool}: ${msg.slice(0, 250)}`);
          else if (r.status === 2 && !ours.codes?.length) find('tool-refuses-valid', `${tool} (exit 2): ${msg.slice(0, 250)}`);
          continue;
        }
        if (!fs.existsSync(out)) { row.repair[tool] = 'exit 0, wrote nothing'; continue; }
        const after = ourErrors(o.cli, out);
        let afterTheirs = [];
        try { afterTheirs = await khronosErrors(out); } catch (e) { afterTheirs = ['(glTF-Validator threw)']; }
        const worse = [...newErrors(ours.codes || [], after.codes || []), ...newErrors(theirs, afterTheirs).map((c) => `glTF-Validator ${c}`)];
        row.repair[tool] = worse.length ? `worse: ${worse.join(',')}` : 'ok';
        if (after.crash) find('crash', `${tool} output validate: ${after.crash}`);
        if (worse.length) find('repair-worse', `${tool}: ${worse.join(',')}`);
      }
    }
    const done = rows.filter((r) => r.set === set.id);
    const f = done.reduce((n, r) => n + r.findings.length, 0);
    console.error(`${set.id}: ${done.filter((r) => r.output).length} outputs, ${done.filter((r) => r.toolError).length} tool errors, ${f} findings (${Math.round((Date.now() - started) / 1000)} s)`);
    fs.writeFileSync(path.join(o.work, 'results.json.tmp'), JSON.stringify(rows, null, 1));
    fs.renameSync(path.join(o.work, 'results.json.tmp'), path.join(o.work, 'results.json'));
  }
  const byClass = {};
  for (const r of rows) for (const f of r.findings) (byClass[f.cls] ??= []).push(`${r.set} ${r.asset}: ${f.detail}`);
  const outputs = rows.filter((r) => r.output).length;
  console.log(`${sets.length} option sets x ${assets.length} assets: ${outputs} distinct outputs, ${rows.filter((r) => r.toolError).length} tool errors, ${rows.filter((r) => r.sameAs).length} duplicates`);
  for (const [cls, list] of Object.entries(byClass)) {
    console.log(`\n## ${cls} (${list.length})`);
    for (const l of list) console.log(`- ${l}`);
  }
}

main().catch((e) => { console.error(`sweep.mjs: ${e.stack || e}`); process.exit(2); });
