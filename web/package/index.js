// gltf-anim for JavaScript: validate, sample and compare glTF 2.0 animation, and repair it
// (fix, reduce, fit, migrate), in Node (>= 18), browsers, workers and bundlers. Every call runs
// the native CLI's own code, compiled to WebAssembly (dist/gltf-anim-core.wasm), on an
// in-memory copy of the files it is given, so a result is byte for byte what `gltf-anim`
// writes for the same files and options.
//
// Each call gets a fresh instance of the module (the compiled module is shared): a call that
// runs out of memory or fails cannot leave state behind for the next one.

const WORK = '/work'; // the in-memory folder holding the caller's files (the current folder)
const OUT = '/gltf-anim-output'; // where reports are written, outside the caller's files

/** A run that ended with exit code 2 (usage, unreadable input, out of memory). */
export class GltfAnimError extends Error {
  constructor(message, exitCode, stderr) {
    super(message);
    this.name = 'GltfAnimError';
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

// The memory of the build (web/CMakeLists.txt): its initial size and the most it may grow to.
const INITIAL_MEMORY_MB = 32;
const MAX_MEMORY_MB = 2048;

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

/** Loads and compiles the WebAssembly module now (otherwise the first call does). */
export async function init() {
  await wasmModule();
}

function toBytes(data, name) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === 'string') return new TextEncoder().encode(data);
  throw new TypeError(`gltf-anim: the content of '${name}' is not bytes (Uint8Array, ArrayBuffer or string)`);
}

// A relative path inside the in-memory folder: '/'-separated, no '..', no empty part.
function relativePath(name) {
  const parts = String(name).replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) {
    throw new TypeError(`gltf-anim: '${name}' is not a relative file path`);
  }
  return parts.join('/');
}

/** [path, bytes] pairs from a Map, an object, or an array of [path, bytes] / {path, bytes}. */
function fileEntries(files) {
  if (files instanceof Map) return [...files.entries()];
  if (Array.isArray(files)) {
    return files.map((f) => (Array.isArray(f) ? f : [f.path ?? f.name, f.bytes ?? f.data]));
  }
  if (files && typeof files === 'object') return Object.entries(files);
  throw new TypeError('gltf-anim: files must be a Map, an object or an array of files');
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

class Bytes {
  constructor() {
    this.buf = new Uint8Array(1024);
    this.length = 0;
  }
  push(byte) {
    if (this.length === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.length++] = byte;
  }
  bytes() {
    return this.buf.slice(0, this.length);
  }
}

const decoder = new TextDecoder();

// Emscripten 3.1.6's in-memory file system (MEMFS, the root's type) grows a file by 12.5% at
// a time past 1 MiB, copying all of it each time: a 602 MB report is allocated nine times
// over (26 s in Node on the machine of docs/PERFORMANCE.md). Doubling, at most 1 GiB at a
// time, copies each byte at most about once more. Each call's instance is its own, so the
// change stays with it.
function growFilesGeometrically(FS) {
  const memfs = FS.root?.mount?.type;
  if (typeof memfs?.expandFileStorage !== 'function') return;
  memfs.expandFileStorage = (node, needed) => {
    const had = node.contents ? node.contents.length : 0;
    if (had >= needed) return;
    const capacity = Math.max(needed, 256, Math.min(had * 2, had + 2 ** 30));
    const contents = new Uint8Array(capacity);
    if (node.usedBytes > 0) contents.set(node.contents.subarray(0, node.usedBytes), 0);
    node.contents = contents;
  };
}

// The bytes of a file the run wrote, where they lie (FS.readFile would copy them once more);
// null when there is no such file.
function writtenBytes(FS, path) {
  let node;
  try {
    node = FS.lookupPath(path, { follow: true }).node;
  } catch {
    return null;
  }
  if (!FS.isFile(node.mode)) return null;
  if (!node.contents) return new Uint8Array(0);
  return node.contents.subarray(0, node.usedBytes);
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
  return (await startInstance(files, memoryLimitMb, folders)).call(args, collect);
}

// A new instance with `files` (and empty `folders`) in its file system: call(args, collect)
// runs the CLI once in it and returns what a run returns; wasmMemory is its memory.
// `build` (the page's, not the documented API): another build of the CLI's entry point,
// {create: its Emscripten factory, module: its compiled wasm}; the package's own by default.
async function startInstance(files = [], memoryLimitMb = MAX_MEMORY_MB, folders = [], build = null) {
  const module = build === null ? await wasmModule() : await build.module;
  const create = build === null ? await createCore() : build.create;
  const limit = Number(memoryLimitMb);
  if (!Number.isInteger(limit) || limit < 64 || limit > MAX_MEMORY_MB) {
    throw new RangeError(`gltf-anim: memoryLimitMb is an integer from 64 to ${MAX_MEMORY_MB}`);
  }
  // Past the limit an allocation fails: the command reports it (an asset's INTERNAL_ERROR
  // "out of memory", or exit code 2), the page or process lives on.
  const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_MEMORY_MB * 16, maximum: limit * 16 });
  let stdout = new Bytes();
  let stderr = new Bytes();
  let instance;
  try {
    instance = await create({
      noInitialRun: true,
      wasmMemory,
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(module, imports).then((i) => done(i));
        return {};
      },
      preRun: [
        (m) => {
          m.FS.init(null, (b) => b !== null && stdout.push(b), (b) => b !== null && stderr.push(b));
        },
      ],
    });
  } catch (e) {
    throw new GltfAnimError(`gltf-anim: cannot start the WebAssembly module: ${e?.message ?? e}`, 2, '');
  }
  const { FS } = instance;
  growFilesGeometrically(FS);
  FS.mkdirTree(WORK);
  FS.mkdirTree(OUT);
  for (const [path, bytes] of fileEntries(files)) {
    const p = relativePath(path);
    const slash = p.lastIndexOf('/');
    if (slash > 0) FS.mkdirTree(`${WORK}/${p.slice(0, slash)}`);
    // canOwn: the file system reads the caller's bytes where they are. Without it every
    // input is copied once more (a 342 MB .glb: 1.2 s in a browser). The commands never
    // write into an input: an output goes to a new file renamed over its target.
    FS.writeFile(`${WORK}/${p}`, toBytes(bytes, p), { canOwn: true });
  }
  for (const folder of folders) FS.mkdirTree(`${WORK}/${folder}`);
  FS.chdir(WORK);
  const call = (args, collect, prepare = () => {}) => {
    stdout = new Bytes();
    stderr = new Bytes();
    prepare(FS);
    let exitCode;
    try {
      exitCode = instance.callMain(args.map(String));
    } catch (e) {
      // An abort of the runtime (a trap): the instance is dropped with it.
      const message = `gltf-anim: the WebAssembly module stopped: ${e?.message ?? e}`;
      throw new GltfAnimError(message, 2, decoder.decode(stderr.bytes()) + message + '\n');
    }
    const outputs = collect(FS);
    const out = stdout.bytes();
    const err = stderr.bytes();
    return { exitCode, stdout: out, stderr: decoder.decode(err), stderrBytes: err, outputs };
  };
  return { call, wasmMemory, instance };
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
  const started = await startInstance(files, memoryLimitMb, [], build);
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

/**
 * For the offline page (not part of the documented API): the verdict module's typed entry
 * (web/verdict/verdict_api.cpp) on one instance holding `files`, `build` its {create, module}.
 * Each asset is loaded once by the instance, however many of validate, keys and samples ask
 * for it. validate(paths, {maxIssues, maxIssueMb, enable, format}) and keys(path, {maxValues})
 * answer {exitCode, bytes, stderr}: `bytes` what `gltf-anim validate --no-config --no-timings`
 * and `gltf-anim sample --keys` write (null when nothing is written). samples(path, {rate,
 * maxTimes, maxValues, animation, whole}) answers {exitCode, header, channels, stderr}: the
 * samples file of `sample --max-times N --no-keyframes` with every channel's "samples" empty
 * (the whole file when `whole`), and each channel's {times, values, width} as Float64Arrays
 * copied out of the instance. codes() is `codes --format json`; loads() the assets the
 * instance has loaded. Once a call throws (the runtime stopped) the session is spent.
 */
export async function verdictSession(files = [], { memoryLimitMb = MAX_MEMORY_MB, build } = {}) {
  const { instance: m, wasmMemory } = await startInstance(files, memoryLimitMb, [], build);
  let spent = false;
  const bytesAt = (pointer, size) => new Uint8Array(wasmMemory.buffer, pointer >>> 0, size >>> 0).slice();
  const answer = (exitCode, written) => ({
    exitCode,
    bytes: written ? bytesAt(m._gav_text(), m._gav_text_size()) : null,
    stderr: decoder.decode(bytesAt(m._gav_error(), m._gav_error_size())),
  });
  // The report and the keys are written to this file of the instance's file system (as the
  // CLI's --output: a million issues' report is 600 MB, kept out of the module's memory), read
  // where it lies and removed.
  const OUTPUT = `${OUT}/verdict`;
  const removeOutput = () => {
    try {
      m.FS.unlink(OUTPUT);
    } catch {
      // not there
    }
  };
  const fileAnswer = (exitCode) => {
    const bytes = exitCode === 2 ? null : writtenBytes(m.FS, OUTPUT);
    removeOutput();
    return { exitCode, bytes, stderr: decoder.decode(bytesAt(m._gav_error(), m._gav_error_size())) };
  };
  // The strings an entry reads, in the instance's memory for the call's time.
  const call = (strings, f) => {
    if (spent) throw new GltfAnimError('gltf-anim: this session\'s instance stopped', 2, '');
    const pointers = [];
    try {
      for (const s of strings) {
        const b = new TextEncoder().encode(`${s}\0`);
        const p = m._malloc(b.length);
        if (p === 0) throw new GltfAnimError('gltf-anim: out of memory', 2, 'gltf-anim: out of memory\n');
        new Uint8Array(wasmMemory.buffer, p, b.length).set(b);
        pointers.push(p);
      }
      return f(...pointers);
    } catch (e) {
      if (e instanceof GltfAnimError) throw e;
      spent = true; // an abort of the runtime (a trap): the instance is dropped with it
      const message = `gltf-anim: the WebAssembly module stopped: ${e?.message ?? e}`;
      throw new GltfAnimError(message, 2, message + '\n');
    } finally {
      if (!spent) for (const p of pointers) m._free(p);
    }
  };
  return {
    validate(paths, { maxIssues = 0, maxIssueMb = 0, enable = [], format = 'json' } = {}) {
      removeOutput();
      return call([paths.map(relativePath).join('\n'), list(enable).join('\n'), format, OUTPUT], (p, e, f, o) =>
        fileAnswer(m._gav_validate(p, Number(maxIssues), Number(maxIssueMb), e, f, o)));
    },
    keys(path, { maxValues = 1 << 26 } = {}) {
      removeOutput();
      return call([relativePath(path), OUTPUT], (p, o) => fileAnswer(m._gav_keys(p, Number(maxValues), o)));
    },
    samples(path, { rate = 60, maxTimes = 1024, maxValues = 1 << 26, animation = -1, whole = false } = {}) {
      return call([relativePath(path)], (p) => {
        const code = m._gav_samples(p, Number(rate), Number(maxTimes), Number(maxValues), Number(animation), whole ? 1 : 0);
        const { bytes, stderr } = answer(code, code === 0);
        const channels = [];
        if (code === 0) {
          const n = m._gav_sample_channels();
          for (let i = 0; i < n; ++i) {
            const count = m._gav_sample_count(i);
            const width = m._gav_sample_width(i);
            const times = new Float64Array(wasmMemory.buffer, m._gav_sample_times(i) >>> 0, count).slice();
            const values = new Float64Array(wasmMemory.buffer, m._gav_sample_values(i) >>> 0, count * width).slice();
            channels.push({ times, values, width });
          }
        }
        return { exitCode: code, header: bytes, channels, stderr };
      });
    },
    codes() {
      return call([], () => answer(m._gav_codes(), true));
    },
    loads: () => m._gav_loads(),
    forget: () => call([], () => m._gav_forget()),
    memoryBytes: () => wasmMemory.buffer.byteLength,
  };
}

function list(value) {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
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

// ---- JSON reports of any size ----
// A JavaScript string holds at most about 2^29 characters (V8: 512 MiB), and a million issues
// are 600 MB of JSON: such a report is parsed in pieces, never decoded as one string.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MESSAGES = Array.from('messages', (c) => c.charCodeAt(0));
const BATCH = 8192; // messages per JSON.parse: a few MB of text at a time
const SPLIT = 'gltf-anim:split'; // a key no report has (they are words or camelCase)
const encoder = new TextEncoder();

/**
 * Splits the CLI's JSON report (bytes) into the report with every `messages` array emptied
 * (`marked`: holding one {"gltf-anim:split": k} instead, k its place in `arrays`) and, in
 * document order, the parsed arrays: one pass over the bytes, which only needs to know where
 * strings start and end (every structural character is ASCII, so UTF-8 needs no decoding to
 * find them).
 */
export function splitReport(bytes, { marked = false } = {}) {
  const skeleton = []; // pieces of the report outside the messages arrays
  const arrays = [];
  const stack = []; // per open container: {array, messages}
  let keyStart = -1; // the last string's bytes, when it may be a key
  let keyEnd = -1;
  let isMessagesKey = false;
  let copied = 0; // bytes before this belong to a skeleton piece or a messages array
  let cut = -1; // inside a messages array: where its current batch starts
  let batches = null;
  let items = 0;
  const n = bytes.length;
  for (let i = 0; i < n; ++i) {
    const b = bytes[i];
    if (b === QUOTE) {
      const start = i + 1;
      for (++i; i < n && bytes[i] !== QUOTE; ++i) if (bytes[i] === BACKSLASH) ++i;
      keyStart = start;
      keyEnd = i;
    } else if (b === COLON) {
      isMessagesKey = keyEnd - keyStart === MESSAGES.length &&
        MESSAGES.every((c, k) => bytes[keyStart + k] === c);
    } else if (b === OPEN_BRACKET || b === OPEN_BRACE) {
      const messages = b === OPEN_BRACKET && isMessagesKey && stack.length > 0 && !stack.at(-1).array;
      stack.push({ array: b === OPEN_BRACKET, messages });
      isMessagesKey = false;
      if (messages) {
        skeleton.push(bytes.subarray(copied, i + 1));
        if (marked) skeleton.push(encoder.encode(`{"${SPLIT}":${arrays.length}}`));
        copied = i + 1;
        cut = i + 1;
        batches = [];
        items = 0;
      }
    } else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) {
      const top = stack.pop();
      if (top?.messages) {
        if (i > cut && !isBlank(bytes, cut, i)) batches.push(bytes.subarray(cut, i));
        arrays.push(batches.flatMap((piece) => JSON.parse(`[${decoder.decode(piece)}]`)));
        copied = i;
        batches = null;
      }
    } else if (b === COMMA) {
      isMessagesKey = false;
      if (batches !== null && stack.at(-1).messages && ++items % BATCH === 0) {
        batches.push(bytes.subarray(cut, i));
        cut = i + 1;
      }
    }
  }
  skeleton.push(bytes.subarray(copied));
  const report = JSON.parse(skeleton.map((p) => decoder.decode(p)).join(''));
  return { report, arrays };
}

function isBlank(bytes, from, to) {
  for (let i = from; i < to; ++i) if (bytes[i] > 0x20) return false;
  return true;
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
