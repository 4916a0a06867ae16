// The part every engine adapter shares: command line, manifest, golden times,
// confinement to the suite folder, one samples file per asset.
//
// An adapter gives runAdapter() its name and a function
//   sampleAsset(assetFile, suiteRoot, golden) -> Promise<{file, log}>
// where golden is goldenTimes() of the asset's golden samples file (or null
// when there is none), file is the samples-file object of samples.mjs and log
// a list of lines for the console. The runner writes OUT/<samples path of the
// manifest entry> for each asset.
//
// Command line (the same for every adapter):
//   node <adapter>/sample.mjs --out DIR [--suite DIR] [--manifest FILE] [--golden DIR] [ID|ASSET ...]
//     --suite     the conformance_assets folder (default: ../../conformance_assets
//                 from the adapter); assets may only read files inside it
//     --manifest  default: SUITE/manifest.json
//     --golden    take the sample times from DIR/<samples path of the entry>
//                 instead of the manifest's own golden files
//     ID|ASSET    manifest ids or asset paths (default: every manifest entry)
// Exit status: 0 when every asset was processed (an engine that refuses an
// asset is a result, recorded in the file's adapterNotes, not an error), 2 on
// usage or I/O errors, 1 when the adapter itself failed on some asset.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatSamplesJson, goldenTimes } from './samples.mjs';

export const SUITE_DEFAULT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../conformance_assets');

// The confinement helpers live in confined.mjs (shared with exporters/); re-exported here.
export { isInside, readConfined } from './confined.mjs';

export function parseArgs(argv) {
  const opts = { out: undefined, suite: SUITE_DEFAULT, manifest: undefined, golden: undefined, items: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--out') opts.out = value();
    else if (a === '--suite') opts.suite = value();
    else if (a === '--manifest') opts.manifest = value();
    else if (a === '--golden') opts.golden = path.resolve(value());
    else if (a === '--help' || a === '-h') opts.help = true;
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else opts.items.push(a);
  }
  if (!opts.help && !opts.out) throw new Error('--out DIR is required');
  opts.suite = path.resolve(opts.suite);
  opts.manifest = path.resolve(opts.manifest ?? path.join(opts.suite, 'manifest.json'));
  return opts;
}

// The assets to run: [{id, asset, samples (golden file or undefined), rel (output path)}].
export function selectJobs(manifest, base, goldenBase, items) {
  const entries = manifest.assets || [];
  const job = (e) => ({ id: e.id, asset: path.join(base, e.file), samples: e.samples && path.join(goldenBase, e.samples), rel: e.samples });
  if (items.length === 0) return entries.map(job);
  return items.map((item) => {
    const e = entries.find((x) => x.id === item || x.file === item || path.resolve(base, x.file) === path.resolve(item));
    if (e) return job(e);
    if (!fs.existsSync(item)) throw new Error(`${item} is neither a manifest id nor a file`);
    const asset = path.resolve(item);
    const stem = asset.replace(/\.(gltf|glb)$/i, '');
    const rel = path.basename(stem) + '.samples.json';
    return { id: path.basename(stem), asset, samples: fs.existsSync(stem + '.samples.json') ? stem + '.samples.json' : undefined, rel };
  });
}

// Runs the adapter over the command line's assets; resolves to the exit status.
// adapter: {name, usage, sampleAsset(assetFile, suiteRoot, golden)}.
export async function runAdapter(adapter, argv = process.argv.slice(2)) {
  const usage = `usage: node sample.mjs --out DIR [--suite DIR] [--manifest FILE] [--golden DIR] [ID|ASSET ...]\n` +
    `example: node sample.mjs --out /tmp/${adapter.short ?? 'engine'}-samples rotation_linear edge_clamp`;
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    console.error(`sample.mjs: ${e.message}\n${usage}`);
    return 2;
  }
  if (opts.help) {
    console.log(usage);
    return 0;
  }
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(opts.manifest, 'utf8'));
  } catch (e) {
    console.error(`sample.mjs: cannot read the manifest ${opts.manifest}: ${e.message}`);
    return 2;
  }
  const base = path.dirname(opts.manifest);
  let jobs;
  try {
    jobs = selectJobs(manifest, base, opts.golden ?? base, opts.items);
  } catch (e) {
    console.error(`sample.mjs: ${e.message}`);
    return 2;
  }
  fs.mkdirSync(opts.out, { recursive: true });
  let failures = 0;
  for (const job of jobs) {
    try {
      const golden = job.samples ? goldenTimes(fs.readFileSync(job.samples, 'utf8')) : null;
      const { file, log } = await adapter.sampleAsset(job.asset, opts.suite, golden);
      if (golden && golden.asset !== undefined && golden.asset !== file.asset) {
        throw new Error(`golden file names asset ${golden.asset}, adapter loaded ${file.asset}`);
      }
      const outFile = path.join(opts.out, job.rel);
      fs.mkdirSync(path.dirname(outFile), { recursive: true });
      const tmp = `${outFile}.tmp`;
      fs.writeFileSync(tmp, formatSamplesJson(file));
      fs.renameSync(tmp, outFile);
      const n = file.animations.reduce((s, a) => s + a.channels.length, 0);
      console.log(`${job.id}: ${n} channel(s) sampled`);
      for (const l of log) console.log(`  ${l}`);
    } catch (e) {
      failures++;
      console.error(`${job.id}: ADAPTER ERROR: ${e && e.stack ? e.stack : e}`);
    }
  }
  console.log(`${adapter.name}: ${jobs.length} asset(s), ${failures} adapter error(s)`);
  return failures ? 1 : 0;
}

// Runs main only when `moduleUrl` is the script node was started with.
export function runIfMain(moduleUrl, adapter) {
  if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(moduleUrl)) {
    runAdapter(adapter).then((code) => { process.exitCode = code; }, (e) => { console.error(e); process.exitCode = 2; });
  }
}

// The glTF words of a channel's target for the samples file: "/nodes/N/path"
// or the KHR_animation_pointer pointer; undefined when the channel has none.
export function channelTarget(ch) {
  const t = ch && ch.target;
  if (!t) return undefined;
  const ptr = t.extensions && t.extensions.KHR_animation_pointer;
  if (ptr && typeof ptr.pointer === 'string') return ptr.pointer;
  if (t.node !== undefined && t.path !== undefined) return `/nodes/${t.node}/${t.path}`;
  return undefined;
}

// Builds a samples-file object from per-channel evaluators, at the golden
// file's times of the same animation and channel index.
//   json: the asset's glTF JSON; golden: goldenTimes() result (required)
//   evaluatorOf(animationIndex, channelIndex) -> {evaluate(t) -> number[], interpolation?}
//                                                | {missing: reason}
// Channels the golden file has but the engine does not produce are absent and
// noted with the reason (compare fails or skips them as it decides, the
// adapter does not).
export function buildSamplesFile({ assetName, generator, json, golden, evaluatorOf, notes = [] }) {
  const file = { asset: assetName, generator, animations: [], adapterNotes: [...notes] };
  const log = [...notes];
  const note = (m) => { file.adapterNotes.push(m); log.push(m); };
  for (const ga of golden.animations) {
    const def = (json.animations || [])[ga.index];
    const anim = { index: ga.index, name: (def && def.name) ?? ga.name ?? '', channels: [] };
    for (const gc of ga.channels) {
      const ch = def && def.channels ? def.channels[gc.index] : undefined;
      const ev = evaluatorOf(ga.index, gc.index);
      if (!ev || ev.missing !== undefined) {
        note(`animation ${ga.index} channel ${gc.index} (${gc.target}): not produced: ${ev ? ev.missing : 'no evaluator'}`);
        continue;
      }
      anim.channels.push({
        index: gc.index,
        target: channelTarget(ch) ?? gc.target,
        interpolation: ev.interpolation ?? gc.interpolation,
        sampler: ch ? ch.sampler : gc.sampler,
        samples: gc.times.map((t) => ({ t, value: ev.evaluate(t) })),
      });
    }
    file.animations.push(anim);
  }
  return { file, log };
}

// The installed version of npm package `name` (adapters/node_modules, as
// locked in adapters/package-lock.json).
export function installedVersion(name) {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../node_modules', name, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

// The samples file of an asset the engine refused to load: no animation, the
// engine's reason in adapterNotes (a result, not an adapter error).
export function refusedFile(assetName, generator, reason) {
  return { file: { asset: assetName, generator, animations: [], adapterNotes: [reason] }, log: [reason] };
}
