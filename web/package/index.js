// gltf-anim for JavaScript: validate, sample and compare glTF 2.0 animation, and repair it
// (fix, reduce, fit, migrate), in Node (>= 18), browsers, workers and bundlers. Every call runs
// the native CLI's own code, compiled to WebAssembly (dist/gltf-anim-core.wasm), on an
// in-memory copy of the files it is given, so a result is byte for byte what `gltf-anim`
// writes for the same files and options.
//
// Each call gets a fresh instance of the module (the compiled module is shared): a call that
// runs out of memory or fails cannot leave state behind for the next one.

import {
  GltfAnimError, MAX_MEMORY_MB, OUT, SPLIT, WORK, decoder, encoder, fileEntries, list, relativePath, startInstance,
  splitReport, toBytes, writtenBytes,
} from './instance.js';

// The page's worker imports these from instance.js itself (all it needs before a first verdict).
export { GltfAnimError, splitReport, verdictSession } from './instance.js';

let compiled = null;
let factory = null;

// The Emscripten module's factory (dist/gltf-anim-core.mjs), imported when a call first needs
// it: the page's first verdict runs its own smaller module and never fetches this glue.
function createCore() {
  if (!factory) {
    factory = import('./dist/gltf-anim-core.mjs').then((m) => m.default);
    factory.catch(() => {
      factory = null; // a failed load may be retried
    });
  }
  return factory;
}

/** The compiled WebAssembly module, located beside this file. */
function wasmModule() {
  if (!compiled) {
    compiled = (async () => {
      // wasm-source-begin (web/make-inline.mjs replaces this block in the inline entry)
      const url = new URL('./dist/gltf-anim-core.wasm', import.meta.url);
      if (url.protocol === 'file:') {
        const { readFile } = await import('node:fs/promises');
        return WebAssembly.compile(await readFile(url));
      }
      const response = await fetch(url);
      if (!response.ok) throw new Error(`gltf-anim: cannot load ${url}: HTTP ${response.status}`);
      return WebAssembly.compile(await response.arrayBuffer());
      // wasm-source-end
    })();
    compiled.catch(() => {
      compiled = null; // a failed load may be retried
    });
  }
  return compiled;
}

// The package's build of the CLI for startInstance (instance.js): its factory and its compiled wasm.
function coreBuild() {
  return { create: createCore(), module: wasmModule() };
}

/** Loads and compiles the WebAssembly module now (otherwise the first call does). */
export async function init() {
  await wasmModule();
}

function isGlb(bytes) {
  return bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

const ASSET = /\.(gltf|glb)$/i;

/**
 * The in-memory files of an input: bytes (one asset, named `name` or asset.glb/asset.gltf by
 * its first bytes) or {files}. Returns the files and the asset paths to name on the command
 * line (given `paths`, else every .gltf/.glb in path order).
 */
function inputFiles(input, options, what) {
  if (input && typeof input === 'object' && 'files' in input && !ArrayBuffer.isView(input)) {
    const files = fileEntries(input.files).map(([p, data]) => [relativePath(p), toBytes(data, p)]);
    const paths = input.paths
      ? input.paths.map(relativePath)
      : files.map(([p]) => p).filter((p) => ASSET.test(p)).sort();
    if (paths.length === 0) throw new TypeError(`gltf-anim ${what}: no .gltf or .glb among the files`);
    return { files, paths };
  }
  const bytes = toBytes(input, options.name ?? 'asset');
  const name = relativePath(options.name ?? (isGlb(bytes) ? 'asset.glb' : 'asset.gltf'));
  return { files: [[name, bytes]], paths: [name] };
}

/**
 * Runs the CLI on in-memory files: `args` exactly as on the command line (after
 * `gltf-anim`), `files` written under the current folder first. Resolves to the exit code,
 * standard output and error (bytes and text) and the bytes of each path in `read` that the
 * run wrote (relative to the current folder, or absolute).
 */
export async function run(args, { files = [], read = [], memoryLimitMb = MAX_MEMORY_MB } = {}) {
  return runInstance(args, files, memoryLimitMb, (FS) => {
    const outputs = {};
    for (const path of read) {
      const bytes = writtenBytes(FS, path.startsWith('/') ? path : `${WORK}/${path}`);
      if (bytes !== null) outputs[path] = bytes;
    }
    return outputs;
  });
}

// A fresh instance runs the CLI on `files` (and empty `folders`); `collect(FS)` picks the
// outputs from its file system once the run ended.
async function runInstance(args, files = [], memoryLimitMb = MAX_MEMORY_MB, collect, folders = []) {
  return (await startInstance(files, memoryLimitMb, folders, coreBuild())).call(args, collect);
}

/**
 * For the offline page (not part of the documented API): one instance kept between commands on
 * the same files, so that a report, the samples and the keys of an asset cost one instance and
 * one copy of its files. session.run(args, {read}) is run()'s answer; once a run throws (the
 * runtime stopped) the session is spent and every later run throws. memoryBytes() is the
 * instance's memory now (it never shrinks: drop a session that grew large). `build` runs another
 * build of the CLI ({create, module}: the page's smaller first one), the package's by default.
 */
export async function session(files = [], { memoryLimitMb = MAX_MEMORY_MB, build = null } = {}) {
  const started = await startInstance(files, memoryLimitMb, [], build ?? coreBuild());
  let spent = false;
  return {
    run(args, { read = [] } = {}) {
      if (spent) throw new GltfAnimError('gltf-anim: this session\'s instance stopped', 2, '');
      const where = (path) => (path.startsWith('/') ? path : `${WORK}/${path}`);
      try {
        return started.call(args, (FS) => {
          const outputs = {};
          for (const path of read) {
            const bytes = writtenBytes(FS, where(path));
            if (bytes !== null) outputs[path] = bytes;
          }
          return outputs;
        }, (FS) => {
          // What an earlier run wrote there is not this run's output (a refused run writes none).
          for (const path of read) {
            try {
              FS.unlink(where(path));
            } catch {
              // not there
            }
          }
        });
      } catch (e) {
        spent = true;
        throw e;
      }
    },
    memoryBytes: () => started.wasmMemory.buffer.byteLength,
  };
}

// The named options of `validate`, as command-line words (the CLI checks them).
function validateArgs(options) {
  const a = [];
  if (options.failOn !== undefined) a.push('--fail-on', options.failOn);
  if (options.lints !== undefined) a.push('--lints', options.lints);
  for (const c of list(options.ignore)) a.push('--ignore', c);
  for (const c of list(options.enable)) a.push('--enable', c);
  const overrides = options.severityOverride;
  if (overrides && !Array.isArray(overrides) && typeof overrides === 'object') {
    for (const [code, sev] of Object.entries(overrides)) a.push('--severity-override', `${code}=${sev}`);
  } else {
    for (const o of list(overrides)) a.push('--severity-override', o);
  }
  if (options.maxIssues !== undefined) a.push('--max-issues', options.maxIssues);
  if (options.maxIssueMb !== undefined) a.push('--max-issue-mb', options.maxIssueMb);
  if (options.maxFileMb !== undefined) a.push('--max-file-mb', options.maxFileMb);
  if (options.root !== undefined) a.push('--root', options.root);
  if (options.config !== undefined) a.push('--config', options.config);
  else a.push('--no-config');
  if (options.timings === false) a.push('--no-timings');
  return a;
}

const LARGE_JSON = 2 ** 28; // bytes: below this a report is decoded and parsed as one string

/**
 * Parses a JSON report the CLI wrote (bytes) into its object, whatever its size: past
 * LARGE_JSON bytes (or with `split`) its `messages` arrays are parsed apart (splitReport)
 * and put back.
 */
export function parseReport(bytes, { split = bytes.length >= LARGE_JSON } = {}) {
  if (!split) return JSON.parse(decoder.decode(bytes));
  const { report, arrays } = splitReport(bytes, { marked: true });
  const put = (value) => {
    if (Array.isArray(value)) {
      const m = value.length === 1 ? value[0] : null;
      if (m !== null && typeof m === 'object' && Object.hasOwn(m, SPLIT)) return arrays[m[SPLIT]];
      for (let i = 0; i < value.length; ++i) value[i] = put(value[i]);
    } else if (value !== null && typeof value === 'object') {
      for (const k of Object.keys(value)) value[k] = put(value[k]);
    }
    return value;
  };
  return put(report);
}

// A report as text; past what a string holds, a clear error instead of the engine's.
function reportText(bytes, what) {
  try {
    return decoder.decode(bytes);
  } catch (e) {
    throw new GltfAnimError(`gltf-anim ${what}: the report is ${bytes.length} bytes, more than a JavaScript ` +
      `string holds (${e?.message ?? e}); ask for it as JSON, or write it to a file with run()`, 2, '');
  }
}

const EXT = { json: 'json', text: 'txt', sarif: 'sarif', junit: 'xml', csv: 'csv', md: 'md', html: 'html', github: 'txt' };

// A message in the caller's names for the in-memory file system's paths: a file under the
// current folder by its relative path (what the caller named it), the report file as "the
// report", and each folder of `roots` ({memfs folder: the caller's name for it, '' for none})
// by that name: `/work/golden/valid/a.samples.json` or `golden/valid/a.samples.json` is
// `suite/valid/a.samples.json` (name 'suite') or `valid/a.samples.json` (no name), the folder
// alone "suite" or "the golden files".
function userPaths(text, roots = {}) {
  let out = text.replace(new RegExp(`${OUT}/report\\.[a-z]+`, 'g'), 'the report');
  for (const [folder, name] of Object.entries(roots)) {
    const start = `(^|[\\s'"(])(?:${WORK}/)?${folder}`;
    out = out.replace(new RegExp(`${start}/`, 'gm'), (_, before) => before + (name ? `${name.replace(/\/+$/, '')}/` : ''));
    out = out.replace(new RegExp(`${start}(?=[:'"]|$)`, 'gm'), (_, before) => before + (name || `the ${folder} files`));
  }
  return out.replaceAll(`${WORK}/`, '');
}

async function runToReport(command, args, files, format, what, memoryLimitMb, roots, folders = []) {
  const output = `${OUT}/report.${EXT[format] ?? 'out'}`;
  const r = await runInstance([command, '--format', format, '--output', output, ...args], files,
    memoryLimitMb, (FS) => writtenBytes(FS, output), folders);
  const bytes = r.outputs;
  if (r.exitCode === 2 || !bytes) {
    const stderr = userPaths(r.stderr, roots);
    const message = stderr.trim() || `gltf-anim ${what}: exit code ${r.exitCode}`;
    throw new GltfAnimError(message, r.exitCode, stderr);
  }
  const report = format === 'json' ? parseReport(bytes) : reportText(bytes, what);
  return { exitCode: r.exitCode, report, stderr: r.stderr };
}

/**
 * Validates one asset (bytes) or every asset of {files} (a .gltf with its .bin and images,
 * or many assets). Resolves to the report `gltf-anim validate --format json` writes (parsed),
 * or its text in another `format` (text, sarif, junit). Rejects with GltfAnimError on a
 * usage error (exit code 2).
 */
export async function validate(input, options = {}) {
  const format = options.format ?? 'json';
  const { files, paths } = inputFiles(input, options, 'validate');
  const args = [...validateArgs(options), ...list(options.args), '--', ...paths];
  return (await runToReport('validate', args, files, format, 'validate', options.memoryLimitMb)).report;
}

// Each channel's keys as stored (`gltf-anim sample --keys`): times, values and cubic tangents,
// decoded; a channel the evaluator refuses carries its `problem` (then exitCode is 1).
export async function keys(input, options = {}) {
  const { files, paths } = inputFiles(input, options, 'keys');
  const args = ['--keys'];
  if (options.animation !== undefined) a(args, '--animation', options.animation);
  if (options.extensions === false) args.push('--no-extensions');
  if (options.maxValues !== undefined) a(args, '--max-values', options.maxValues);
  args.push(...list(options.args), '--', paths[0]);
  const r = await runToReport('sample', args, files, 'json', 'sample --keys', options.memoryLimitMb);
  return { exitCode: r.exitCode, ...r.report };
}

/**
 * Samples every channel of an asset with the reference evaluator. Resolves to the samples
 * file `gltf-anim sample` writes (parsed JSON, or CSV text with format 'csv').
 */
export async function sample(input, options = {}) {
  const format = options.format ?? 'json';
  const { files, paths } = inputFiles(input, options, 'sample');
  const args = [];
  if (options.times !== undefined) a(args, '--times', list(options.times).join(','));
  if (options.rate !== undefined) a(args, '--rate', options.rate);
  if (options.maxTimes !== undefined) a(args, '--max-times', options.maxTimes);
  if (options.animation !== undefined) a(args, '--animation', options.animation);
  if (options.extensions === false) args.push('--no-extensions');
  if (options.keyframes === false) args.push('--no-keyframes');
  if (options.maxValues !== undefined) a(args, '--max-values', options.maxValues);
  args.push(...list(options.args), '--', paths[0]);
  return (await runToReport('sample', args, files, format, 'sample', options.memoryLimitMb)).report;
}

function a(args, flag, value) {
  args.push(flag, String(value));
}

/**
 * Compares golden samples with an implementation's: `golden` and `actual` are {files} (a
 * suite folder's files and the engine's samples files). Resolves to the report
 * `gltf-anim compare --format json` writes (parsed), or its text in another format (text,
 * md, junit, html). A message names a file by its path among the files given (with
 * `golden.name` / `actual.name` before it, when given: the folder they came from).
 */
export async function compare(sets, options = {}) {
  return (await compareRun(sets, options)).report;
}

async function compareRun({ golden, actual }, options = {}) {
  const format = options.format ?? 'json';
  const goldenFiles = fileEntries(golden.files ?? golden);
  const actualFiles = fileEntries(actual.files ?? actual);
  // `name` only beside `files` (a Files object may hold a file called "name").
  const nameOf = (set) => (set.files !== undefined && typeof set.name === 'string' ? set.name : '');
  const roots = { golden: nameOf(golden), actual: nameOf(actual) };
  if (goldenFiles.length === 0) throw new GltfAnimError('gltf-anim compare: no golden files given', 2, '');
  const files = [
    ...goldenFiles.map(([p, d]) => [`golden/${relativePath(p)}`, d]),
    ...actualFiles.map(([p, d]) => [`actual/${relativePath(p)}`, d]),
  ];
  // The actual folder exists when it holds no file: every case is then "not run".
  const folders = actualFiles.length === 0 ? ['actual'] : [];
  const args = ['--golden', 'golden', '--actual', 'actual'];
  if (options.manifest !== undefined) a(args, '--manifest', `golden/${relativePath(options.manifest)}`);
  if (options.tolerance !== undefined) a(args, '--tolerance', options.tolerance);
  if (options.angleTolerance !== undefined) a(args, '--angle-tolerance', options.angleTolerance);
  if (options.timeEpsilon !== undefined) a(args, '--time-epsilon', options.timeEpsilon);
  if (options.cases !== undefined) a(args, '--cases', list(options.cases).join(','));
  if (options.extensions !== undefined) a(args, '--extensions', list(options.extensions).join(','));
  if (options.requireAll) args.push('--require-all');
  if (options.worst !== undefined) a(args, '--worst', options.worst);
  args.push(...list(options.args));
  return runToReport('compare', args, files, format, 'compare', options.memoryLimitMb, roots, folders);
}

// ---- The conformance suite and a one-call conformance run ----

const SUITE = `${OUT}/suite`;

/** Whether this runs in Node (a folder may then be named by its path). */
const inNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

async function nodeFs() {
  if (!inNode) throw new TypeError('gltf-anim: a folder path is for Node; elsewhere give {files}');
  const [fs, path] = await Promise.all([import('node:fs/promises'), import('node:path')]);
  return { fs, path };
}

/** Every file under a folder of the real file system: {relative path: bytes}. */
async function readFolder(dir) {
  const { fs, path } = await nodeFs();
  const files = {};
  const walk = async (d, prefix) => {
    let entries;
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch (e) {
      if (e?.code === 'ENOENT' || e?.code === 'ENOTDIR') {
        throw new GltfAnimError(`gltf-anim: cannot read the folder '${dir}': ${e.code === 'ENOENT' ? 'No such file or directory' : 'Not a directory'}`, 2, '');
      }
      throw e;
    }
    for (const entry of entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(full, `${prefix}${entry.name}/`);
      else if (entry.isFile()) files[`${prefix}${entry.name}`] = new Uint8Array(await fs.readFile(full));
    }
  };
  await walk(dir, '');
  return files;
}

/** Writes {relative path: bytes} under a folder of the real file system (made if missing). */
async function writeFolder(dir, files) {
  const { fs, path } = await nodeFs();
  for (const [p, bytes] of Object.entries(files)) {
    const full = path.join(dir, ...relativePath(p).split('/'));
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.writeFile(full, bytes);
  }
}

/**
 * The conformance suite (`gltf-anim generate`): its assets, golden samples and manifest, the
 * native CLI's files (a few golden rotation values may differ in their last bits: emscripten's
 * libm is not glibc's, far below any tolerance). With `from` ({files}: your .gltf/.glb assets and their
 * resources), a suite of your own assets (`generate --from`). Resolves to {exitCode, files,
 * manifest}: the files by path (manifest.json, valid/<case>.gltf, valid/<case>.samples.json,
 * ...) and the parsed manifest; with `out` (Node), also written under that folder.
 */
export async function generate(options = {}) {
  const args = ['generate', '--out', SUITE];
  let files = [];
  if (options.from !== undefined) {
    const input = inputFiles(options.from, {}, 'generate');
    files = input.files;
    args.push('--from', ...input.paths);
  }
  const r = await runInstance(args, files, options.memoryLimitMb, (FS) => {
    const out = {};
    let paths = [];
    try {
      paths = pathsUnder(FS, SUITE).sort();
    } catch {
      // no suite written
    }
    for (const p of paths) out[p] = FS.readFile(`${SUITE}/${p}`);
    return out;
  });
  const manifestBytes = r.outputs['manifest.json'];
  if (r.exitCode === 2 || !manifestBytes) {
    const stderr = userPaths(r.stderr.replaceAll(SUITE, 'the suite'));
    throw new GltfAnimError(stderr.trim() || `gltf-anim generate: exit code ${r.exitCode}`, r.exitCode, stderr);
  }
  if (options.out !== undefined) await writeFolder(options.out, r.outputs);
  return {
    exitCode: r.exitCode,
    files: r.outputs,
    manifest: JSON.parse(decoder.decode(manifestBytes)),
    stderr: userPaths(r.stderr.replaceAll(SUITE, 'the suite')),
  };
}

/** The JSON of a .gltf, or of a .glb's JSON chunk; null when it is neither. */
function gltfJson(bytes) {
  try {
    if (isGlb(bytes)) {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const length = view.getUint32(12, true);
      return JSON.parse(decoder.decode(bytes.subarray(20, 20 + length)));
    }
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return null;
  }
}

// The engine's values for `times` as one array per time: from an array of arrays (or of
// numbers, a scalar channel), or from a flat array (times.length * width numbers).
function valuesPerTime(values, times, width, where) {
  if (!values || typeof values.length !== 'number') {
    throw new TypeError(`${where}: the sampler returned no array of values`);
  }
  const flat = values.length > 0 && !(Array.isArray(values[0]) || ArrayBuffer.isView(values[0]));
  if (flat && width === 1 && values.length === times.length) return Array.from(values, (v) => [v]);
  if (flat) {
    if (values.length !== times.length * width) {
      throw new TypeError(`${where}: the sampler returned ${values.length} numbers for ${times.length} times of ` +
        `${width} components (${times.length * width} expected, or one array per time)`);
    }
    return times.map((_, i) => Array.from(values.slice(i * width, (i + 1) * width)));
  }
  if (values.length !== times.length) {
    throw new TypeError(`${where}: the sampler returned ${values.length} values for ${times.length} times`);
  }
  return Array.from(values, (v) => Array.from(v));
}

/**
 * A conformance run in one call: your engine's sampler over the suite, compared with the
 * golden samples by the CLI's compare. For each case of the suite's manifest and each channel
 * of its golden samples, `sampler(asset, animation, channel, times)` returns your engine's
 * values at those times; they are written as the case's actual samples file, and all of them
 * compared (`compare`, the options below). Resolves to {report, actual, exitCode}: the report
 * (parsed JSON, or text in `format`), the actual samples files written ({path: bytes}, what
 * `gltf-anim compare --actual` reads) and compare's exit code (0 every case passed or was not
 * run, 1 a case failed).
 */
export async function conformance(options) {
  const sampler = options?.sampler;
  if (typeof sampler !== 'function') throw new TypeError('gltf-anim conformance: `sampler` must be a function');
  let suite = options.suite;
  let suiteName = '';
  if (suite === undefined) {
    suite = (await generate({ memoryLimitMb: options.memoryLimitMb })).files;
  } else if (typeof suite === 'string') {
    suiteName = suite;
    suite = await readFolder(suite);
  } else {
    suite = suite.files ?? suite;
  }
  const files = new Map(fileEntries(suite).map(([p, d]) => [relativePath(p), toBytes(d, p)]));
  const manifestPath = relativePath(options.manifest ?? 'manifest.json');
  const manifestBytes = files.get(manifestPath);
  if (!manifestBytes) {
    throw new GltfAnimError(`gltf-anim conformance: no ${manifestPath} in the suite${suiteName ? ` ${suiteName}` : ''}`, 2, '');
  }
  const manifest = JSON.parse(decoder.decode(manifestBytes));
  const selected = options.cases === undefined ? null : list(options.cases);
  const matches = (id) => selected === null || selected.some((c) => new RegExp(`^${String(c)
    .replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(id));
  const actual = {};
  for (const entry of manifest.assets ?? []) {
    if (!matches(entry.id)) continue;
    const goldenBytes = files.get(entry.samples);
    const bytes = files.get(entry.file);
    if (!goldenBytes || !bytes) continue; // compare reports the missing golden file
    const golden = JSON.parse(decoder.decode(goldenBytes));
    const asset = { id: entry.id, file: entry.file, bytes, gltf: gltfJson(bytes), files, entry };
    const out = { asset: golden.asset, generator: options.generator ?? 'gltf-anim conformance()', animations: [] };
    try {
      for (const anim of golden.animations ?? []) {
        const channels = [];
        for (const [position, ch] of (anim.channels ?? []).entries()) {
          const index = ch.index ?? position;
          const times = ch.samples.map((s) => s.t);
          const width = ch.samples[0]?.value.length ?? 0;
          const channel = { index, target: ch.target, interpolation: ch.interpolation, sampler: ch.sampler, width };
          const got = await sampler(asset, { index: anim.index, name: anim.name }, channel, times);
          if (got && !Array.isArray(got) && !ArrayBuffer.isView(got) && typeof got.unsupported === 'string') {
            channels.push({ index, target: ch.target, unsupported: got.unsupported, samples: [] });
            continue;
          }
          const where = `gltf-anim conformance: ${entry.id} animation ${anim.index} ${ch.target}`;
          const values = valuesPerTime(got, times, width, where);
          channels.push({ index, target: ch.target, samples: times.map((t, i) => ({ t, value: values[i] })) });
        }
        out.animations.push({ index: anim.index, ...(anim.name !== undefined ? { name: anim.name } : {}), channels });
      }
    } catch (e) {
      // The engine failed on this asset: compare fails the case with the message.
      if (e instanceof TypeError && String(e.message).startsWith('gltf-anim conformance:')) throw e;
      out.animations = [];
      out.error = String(e?.message ?? e);
    }
    // JSON.stringify writes NaN and the infinities as null, which compare reads as NaN.
    actual[entry.samples] = encoder.encode(`${JSON.stringify(out)}\n`);
  }
  // The golden side: the manifest and the samples files (compare reads no asset).
  const golden = [...files].filter(([p]) => /\.(json|csv)$/i.test(p));
  const { report, exitCode } = await compareRun(
    { golden: { files: golden, name: suiteName }, actual: { files: actual } },
    { ...options, manifest: manifestPath },
  );
  return { report, actual, exitCode };
}

// The repair tools (fix, reduce, fit, migrate; docs/TOOLS.md): the CLI's commands on the
// in-memory files, so the written files and the summary are the native CLI's bytes. The
// output goes beside the input (an output that still names the input's .bin or images by
// relative URI must), named `options.output` or the input's stem with the tool's suffix.
const SUFFIX = { fix: 'fixed', reduce: 'reduced', fit: 'fitted', migrate: 'migrated' };

/** The paths of the files under `dir` of an instance's file system, relative to it. */
function pathsUnder(FS, dir, prefix = '', out = []) {
  for (const name of FS.readdir(dir)) {
    if (name === '.' || name === '..') continue;
    if (FS.isDir(FS.stat(`${dir}/${name}`).mode)) pathsUnder(FS, `${dir}/${name}`, `${prefix}${name}/`, out);
    else out.push(`${prefix}${name}`);
  }
  return out;
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; ++i) if (a[i] !== b[i]) return false;
  return true;
}

async function repairTool(tool, input, options, toolArgs) {
  const { files, paths } = inputFiles(input, options, tool);
  if (paths.length !== 1) {
    throw new TypeError(`gltf-anim ${tool}: one asset at a time (name it in paths): ${paths.join(', ')}`);
  }
  const asset = paths[0];
  const args = [tool, asset];
  const folders = [];
  if (options.inPlace) {
    args.push('--in-place');
  } else if (!options.dryRun || options.output !== undefined) {
    const output = options.output !== undefined
      ? relativePath(options.output)
      : asset.replace(/(\.[^./]*)?$/, (ext) => `.${SUFFIX[tool]}${ext}`);
    args.push('--output', output);
    // The output's folder exists (the caller has no folder to make it in).
    if (output.includes('/')) folders.push(output.slice(0, output.lastIndexOf('/')));
  }
  if (options.dryRun) args.push('--dry-run');
  if (options.force) args.push('--force');
  args.push(...toolArgs, ...list(options.args), '--format', 'json');
  const before = new Map(files);
  // The files written: what the run left in the folder that the caller did not give, or
  // gave with other bytes (the tools write no input but with --in-place: only then are the
  // caller's files read back).
  const r = await runInstance(args, files, options.memoryLimitMb, (FS) =>
    pathsUnder(FS, WORK).sort().flatMap((p) => {
      if (before.has(p) && !options.inPlace) return [];
      const bytes = FS.readFile(`${WORK}/${p}`);
      return before.has(p) && sameBytes(before.get(p), bytes) ? [] : [[p, bytes]];
    }), folders);
  // The summary on standard output; none after a usage error (the reason on standard error).
  let summary = null;
  try {
    summary = JSON.parse(decoder.decode(r.stdout));
  } catch {
    // no summary
  }
  if (r.exitCode === 2 || !summary) {
    const message = r.stderr.trim() || `gltf-anim ${tool}: exit code ${r.exitCode}`;
    const error = new GltfAnimError(message, r.exitCode, r.stderr);
    if (summary) error.summary = summary;
    throw error;
  }
  return { exitCode: r.exitCode, summary, files: Object.fromEntries(r.outputs) };
}

/**
 * Repairs an asset's animation data (`gltf-anim fix`): `only` names the repairs by the
 * issue codes they answer (an array, or 'none'). Resolves to {exitCode, summary, files}:
 * the `--format json` summary and the files written ({name: bytes}: the asset and any new
 * .bin); exit code 1 (the input has errors fix does not repair, no `force`) writes nothing.
 * Rejects with GltfAnimError on exit code 2 (a usage error, the output refused, out of memory).
 */
export async function fix(input, options = {}) {
  const args = [];
  if (options.only !== undefined) {
    const only = list(options.only);
    a(args, '--only', only.length === 0 ? 'none' : only.join(','));
  }
  return repairTool('fix', input, options, args);
}

function boundArgs(options) {
  const args = [];
  if (options.maxError !== undefined) a(args, '--max-error', options.maxError);
  if (options.maxAngle !== undefined) a(args, '--max-angle', options.maxAngle);
  return args;
}

/**
 * Removes keyframes within a bound (`gltf-anim reduce`): `maxError` (required), `maxAngle`
 * (radians, default 2 maxError), `quantize`, `keepSharedTimes`. Resolves as `fix` does.
 */
export async function reduce(input, options = {}) {
  const args = boundArgs(options);
  if (options.quantize) args.push('--quantize');
  if (options.keepSharedTimes) args.push('--keep-shared-times');
  return repairTool('reduce', input, options, args);
}

/**
 * Replaces LINEAR channels by cubic ones within a bound (`gltf-anim fit`): `to`
 * ('cubicslerp' or 'cubicspline'), `maxError`, `maxAngle`, `fallback: false` (no LINEAR
 * fallback for CUBICSLERP). Resolves as `fix` does.
 */
export async function fit(input, options = {}) {
  const args = boundArgs(options);
  if (options.to !== undefined) a(args, '--to', options.to);
  if (options.fallback === false) args.push('--no-fallback');
  return repairTool('fit', input, options, args);
}

/**
 * Moves channels between KHR_animation2 and KHR_animation_pointer (`gltf-anim migrate`):
 * `to` ('khr_animation_pointer' or 'khr_animation2'). Resolves as `fix` does.
 */
export async function migrate(input, options = {}) {
  const args = [];
  if (options.to !== undefined) a(args, '--to', options.to);
  return repairTool('migrate', input, options, args);
}
