// The package's instance layer (internal: index.js re-exports what is public): an Emscripten
// instance of a build of the CLI's code started on in-memory files, the page's verdict session
// over the verdict module's typed entry, and the splitting of a JSON report of any size. It is
// its own module so that the page's worker, which needs only these for its first verdict, does
// not fetch the rest of the package (the CLI's commands as functions) before it.

export const WORK = '/work'; // the in-memory folder holding the caller's files (the current folder)
export const OUT = '/gltf-anim-output'; // where reports are written, outside the caller's files

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
export const MAX_MEMORY_MB = 2048;

export function toBytes(data, name) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === 'string') return new TextEncoder().encode(data);
  throw new TypeError(`gltf-anim: the content of '${name}' is not bytes (Uint8Array, ArrayBuffer or string)`);
}

// A relative path inside the in-memory folder: '/'-separated, no '..', no empty part.
export function relativePath(name) {
  const parts = String(name).replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) {
    throw new TypeError(`gltf-anim: '${name}' is not a relative file path`);
  }
  return parts.join('/');
}

/** [path, bytes] pairs from a Map, an object, or an array of [path, bytes] / {path, bytes}. */
export function fileEntries(files) {
  if (files instanceof Map) return [...files.entries()];
  if (Array.isArray(files)) {
    return files.map((f) => (Array.isArray(f) ? f : [f.path ?? f.name, f.bytes ?? f.data]));
  }
  if (files && typeof files === 'object') return Object.entries(files);
  throw new TypeError('gltf-anim: files must be a Map, an object or an array of files');
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

export const decoder = new TextDecoder();

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
export function writtenBytes(FS, path) {
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

// A new instance with `files` (and empty `folders`) in its file system: call(args, collect)
// runs the CLI once in it and returns what a run returns; wasmMemory is its memory.
// `build` is the build of the CLI's code: {create: its Emscripten factory, module: its compiled
// wasm}, each may be a promise (index.js's is the package's own, dist/gltf-anim-core).
export async function startInstance(files, memoryLimitMb, folders, build) {
  const module = await build.module;
  const create = await build.create;
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

export function list(value) {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
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
export const SPLIT = 'gltf-anim:split'; // a key no report has (they are words or camelCase)
export const encoder = new TextEncoder();

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
