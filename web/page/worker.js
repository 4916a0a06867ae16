// The page's worker: every run of the WebAssembly CLI happens here, never on the page's
// thread. It keeps the dropped files, so a download in another format or a plot runs the
// CLI again on the same files. Options go before `--`: what follows it is only paths.
import { splitReport, verdictSession } from './gltf-anim/instance.js';
import { channelIssues, groupIssues, rowText } from './report-index.js';

// The rest of the package (the whole CLI's commands as functions: run, session, the repair
// tools), imported when first needed: the first verdict fetches only instance.js.
let api = null;
function packageApi() {
  if (api === null) {
    api = import('./gltf-anim/index.js');
    api.catch(() => {
      api = null; // a failed load may be retried
    });
  }
  return api;
}

let files = [];
let assets = [];
let validateOptions = []; // the page's issue limits, as CLI words
let verdictOptions = {}; // the same for the verdict module's entry: {maxIssues, maxIssueMb, enable}
// The last report's messages per asset and their groups: the page's thread holds only the
// counts and asks for the rows it draws.
let messages = [];
let groups = [];
let memoryLimitMb; // the page's memory limit for every run (index.js's default when unset)

const OUT = '/gltf-anim-output/report';
const decoder = new TextDecoder();
// The page's reports carry no timings, so a download is byte for byte what
// `gltf-anim validate --no-config --no-timings` writes for the same files.
const VALIDATE = ['validate', '--no-config', '--no-timings'];

// The dropped files' instance of the whole CLI, kept between commands where the verdict module
// is not there (or its instance stopped): the report, an asset's samples and its keys (and a
// download in another format) are then runs of one instance that holds one copy of the files,
// not a new instance each given every file again. Its memory never
// shrinks, so an instance that grew past HOLD_BYTES (a million issues' report) is dropped after
// its run; one whose runtime stopped is replaced by a fresh instance for that run, as before.
const HOLD_BYTES = 512 * 1048576;
let held = null; // {session, limit}: for `files`, with the memory limit it was started with

// The page's first module: gltf-anim-verdict (web/CMakeLists.txt, web/verdict/verdict_api.cpp),
// a typed entry over the library calls of validate, sample --keys, sample and codes, without the
// command line, so the first verdict waits for less. One instance per dropped files loads each
// asset once for its report, keys and samples (the argv flow loaded it again for each command),
// and hands the samples over as typed arrays, not as JSON text parsed here; it writes the
// report's downloads too. The whole CLI (the package's module) is fetched when Repair or
// Compare runs. The
// offline page (one classic script, no module imported) has the module in its bundle. null
// where the verdict build cannot be loaded: then the package's module does it all through the
// CLI's commands.
let verdictBuild = null;
let verdictHeld = null; // {session, limit}: the verdict instance of `files`
function verdict() {
  if (verdictBuild === null) {
    verdictBuild = (async () => {
      try {
        // The offline page's bundle (web/make-offline.mjs) carries the module in base64.
        const inline = self.gltfAnimVerdictInline;
        if (inline !== undefined) {
          const binary = atob(inline.base64);
          const bytes = new Uint8Array(binary.length);
          for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
          return { create: inline.create, module: WebAssembly.compile(bytes) };
        }
        const { default: create } = await import('./gltf-anim/dist/gltf-anim-verdict.mjs');
        const response = await fetch(new URL('gltf-anim/dist/gltf-anim-verdict.wasm', self.location.href));
        if (!response.ok) return null;
        return { create, module: WebAssembly.compile(await response.arrayBuffer()) };
      } catch {
        return null;
      }
    })();
  }
  return verdictBuild;
}

// f(the verdict instance of `files`), or null when there is no verdict build or its instance
// stopped (then the caller runs the CLI's command instead). The instance is kept however large
// it grew: it holds the loaded assets the plots read, and a second instance would need as much.
async function withVerdict(f) {
  const build = await verdict();
  if (build === null) return null;
  if (verdictHeld !== null && verdictHeld.limit !== memoryLimitMb) verdictHeld = null;
  try {
    if (verdictHeld === null) {
      verdictHeld = { session: await verdictSession(files, { memoryLimitMb, build }), limit: memoryLimitMb };
    }
    return f(verdictHeld.session);
  } catch (err) {
    if (err instanceof RangeError) throw err; // a memory limit index.js refuses: said as before
    verdictHeld = null;
    return null;
  }
}

// A command of the whole CLI (the package's module) on `files`.
async function cliBytes(args, paths) {
  const argv = [...args, '--output', OUT, '--', ...paths];
  if (held !== null && held.limit !== memoryLimitMb) held = null;
  let r;
  try {
    if (held === null) {
      const { session } = await packageApi();
      held = { session: await session(files, { memoryLimitMb }), limit: memoryLimitMb };
    }
    r = held.session.run(argv, { read: [OUT] });
    if (held.session.memoryBytes() > HOLD_BYTES) held = null;
  } catch (err) {
    if (err instanceof RangeError) throw err; // a memory limit index.js refuses: said as before
    held = null;
    r = await (await packageApi()).run(argv, { files, read: [OUT], memoryLimitMb });
  }
  return { exitCode: r.exitCode, bytes: r.outputs[OUT] ?? null, stderr: r.stderr };
}

async function cli(args, paths) {
  const r = await cliBytes(args, paths);
  return { exitCode: r.exitCode, text: r.bytes ? decoder.decode(r.bytes) : null, stderr: r.stderr };
}

// The JSON report without its messages, each asset with its groups' counts instead.
async function validateView() {
  messages = [];
  groups = [];
  const r = await withVerdict((v) => v.validate(assets, { ...verdictOptions, format: 'json' })) ??
    await cliBytes([...VALIDATE, ...validateOptions, '--format', 'json'], assets);
  if (r.bytes === null) return { exitCode: r.exitCode, view: null, stderr: r.stderr };
  const { report, arrays } = splitReport(r.bytes);
  messages = arrays;
  groups = arrays.map(groupIssues);
  report.reports.forEach((a, i) => {
    a.groups = groups[i].map((g) => ({ code: g.code, severity: g.severity, message: g.message, count: g.indices.length }));
  });
  return { exitCode: r.exitCode, view: report, stderr: r.stderr };
}

// ---- The asset's own words: names, and what is missing from the picked files ----

const LFS = 'version https://git-lfs.github.com/spec/v1';
const MAX_NAMES_JSON = 64 * 1048576; // a larger JSON text is not parsed for names

function bytesOf(path) {
  const f = files.find(([p]) => p === path);
  return f === undefined ? null : new Uint8Array(f[1]);
}

// The asset's JSON (a .gltf's text, a .glb's JSON chunk) parsed, or null.
function assetJson(path) {
  const b = bytesOf(path);
  if (b === null) return null;
  let text = b;
  if (b.length >= 20 && b[0] === 0x67 && b[1] === 0x6c && b[2] === 0x54 && b[3] === 0x46) { // "glTF"
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    if (v.getUint32(16, true) !== 0x4e4f534a) return null;
    text = b.subarray(20, Math.min(b.length, 20 + v.getUint32(12, true)));
  }
  if (text.length > MAX_NAMES_JSON) return null;
  try {
    const json = JSON.parse(decoder.decode(text));
    return json !== null && typeof json === 'object' ? json : null;
  } catch {
    return null;
  }
}

// Each top-level array's names ({nodes: [name or null], ...}), and which nodes are a skin's joints.
function assetNames(path) {
  const json = assetJson(path);
  if (json === null) return null;
  const names = {};
  for (const key of ['nodes', 'meshes', 'materials', 'cameras', 'skins', 'animations', 'textures', 'images']) {
    if (Array.isArray(json[key])) names[key] = json[key].map((o) => (typeof o?.name === 'string' && o.name !== '' ? o.name : null));
  }
  const joints = new Set();
  for (const skin of Array.isArray(json.skins) ? json.skins : []) {
    for (const j of Array.isArray(skin?.joints) ? skin.joints : []) if (Number.isInteger(j)) joints.add(j);
  }
  return { ...names, joints: [...joints] };
}

// Each animation's name (or null) and channel count, from the asset's JSON (null when it cannot
// be read here): what the report's "Animation channels" line names before anything is sampled.
function clips(path) {
  const json = assetJson(path);
  if (json === null || !Array.isArray(json.animations)) return null;
  return json.animations.map((a) => ({ name: typeof a?.name === 'string' && a.name !== '' ? a.name : null,
    channels: Array.isArray(a?.channels) ? a.channels.length : 0 }));
}

function isLfsPointer(bytes) {
  if (bytes === null || bytes.length < LFS.length || bytes.length > 1024) return false;
  for (let i = 0; i < LFS.length; ++i) if (bytes[i] !== LFS.charCodeAt(i)) return false;
  return true;
}

// A relative URI resolved against the folder of `from` (both as the page names files).
function resolveUri(from, uri) {
  let path;
  try {
    path = decodeURIComponent(uri);
  } catch {
    return null;
  }
  const parts = from.split('/').slice(0, -1);
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

// What the person can do about the picked files, in words: each asset's {asset, hints}.
// A buffer the report could not read (IO_ERROR) that is not among the picked files names the
// file to add; a Git LFS pointer (the asset, or a file it uses) says what it is.
function hints() {
  const picked = new Set(files.map(([p]) => p));
  return assets.map((asset, i) => {
    const out = [];
    if (isLfsPointer(bytesOf(asset))) {
      out.push(`${asset} is a Git LFS pointer file: a few lines of text naming the real file, which was not downloaded. ` +
        'In the repository run "git lfs pull", or download the file itself (a host\'s "Download raw file" link), then pick it again.');
    }
    const missing = (messages[i] ?? []).filter((m) => (m.code === 'IO_ERROR' || m.code === 'GIT_LFS_POINTER') &&
      /^\/(buffers|images)\/\d+\/uri$/.test(m.pointer ?? ''));
    if (missing.length > 0) {
      const json = assetJson(asset);
      const seen = new Set();
      for (const m of missing) {
        const [, kind, index] = m.pointer.split('/');
        const uri = json?.[kind]?.[Number(index)]?.uri;
        if (typeof uri !== 'string') continue;
        const file = resolveUri(asset, uri);
        if (file === null || seen.has(file)) continue;
        seen.add(file);
        if (!picked.has(file)) {
          const name = file.slice(file.lastIndexOf('/') + 1);
          out.push(`${asset} needs ${file === name ? name : `${name} (at ${file})`}, which is not among the picked files: ` +
            `pick ${name} together with ${asset.slice(asset.lastIndexOf('/') + 1)} (select both in the file dialog), ` +
            'or drop or choose their whole folder.');
        } else if (isLfsPointer(bytesOf(file))) {
          out.push(`${file} is a Git LFS pointer file, not the data ${asset} needs: in the repository run "git lfs pull", ` +
            'or download the file itself, then pick it again.');
        }
      }
    }
    return out;
  });
}

// What a plot can show, not what the asset holds: at most PLOT_TIMES samples a channel (about
// one a pixel column of a plot), and the curves of all channels within SAMPLE_TIMES samples,
// so the samples asked for follow the channels, not the clip's length or the asset's keys.
// The keys as stored are drawn when they are at most KEY_VALUES numbers; a larger asset's
// plots are its curves alone. The sampling run's --max-values lets it decode the asset's keys
// (work in proportion to the picked files) and hold these samples.
const PLOT_TIMES = 1024;
const MIN_PLOT_TIMES = 64; // fewer a channel draw no useful curve: the asset has too many channels
const SAMPLE_TIMES = 1 << 20;
const SAMPLE_VALUES = 1 << 23; // the samples' numbers (a channel of weights is many a time)
const KEY_VALUES = 1 << 22;
const CLI_MAX_VALUES = 1 << 26; // the CLI's default --max-values

const count = (n) => n.toLocaleString('en-US');

// Everything an asset's plots need, in one request: its names, the reference evaluator's
// samples (parsed here, off the page's thread) and the keys as stored. `sample` refuses an
// asset when a channel cannot be evaluated: then each animation whose every channel can is
// sampled on its own (--rate gives it the times a whole-asset run would).
async function plot({ asset, rate = 60 }) {
  if (!assets.includes(asset)) return { error: `${asset} is not among the dropped assets` };
  const names = assetNames(asset);
  const channels = (clips(asset) ?? []).reduce((n, c) => n + c.channels, 0);
  let perChannel = channels > 0 ? Math.min(PLOT_TIMES, Math.floor(SAMPLE_TIMES / channels)) : PLOT_TIMES;
  if (perChannel < MIN_PLOT_TIMES) {
    return { error: `${asset} has ${count(channels)} animation channels: too many to plot in a browser page ` +
      `(at most ${count(Math.floor(SAMPLE_TIMES / MIN_PLOT_TIMES))}, each drawn from at least ${MIN_PLOT_TIMES} samples). ` +
      'The report above is complete; plot one animation at a time with the command-line tool.', channels };
  }
  const picked = files.reduce((n, [, b]) => n + b.byteLength, 0);
  const maxValues = Math.max(CLI_MAX_VALUES, picked) + SAMPLE_VALUES;
  const sampleArgs = (more = []) => ['sample', '--rate', String(rate), '--max-times', String(perChannel), '--no-keyframes',
    '--max-values', String(maxValues), ...more];
  const transfer = [];
  // The samples of the asset (or of one animation): the verdict instance's typed arrays, else
  // the CLI's samples file parsed here. {exitCode, stderr, file}.
  const sampleRun = async (animation = -1) => {
    const typed = await withVerdict((v) => v.samples(asset, { rate, maxTimes: perChannel, maxValues, animation }));
    if (typed !== null) {
      return { exitCode: typed.exitCode, stderr: typed.stderr,
        file: typed.exitCode === 0 ? typedSamplesView(typed.header, typed.channels, transfer) : null };
    }
    const s = await cli(sampleArgs(animation < 0 ? [] : ['--animation', String(animation)]), [asset]);
    return { exitCode: s.exitCode, stderr: s.stderr, file: s.text === null ? null : samplesView(s.text, transfer) };
  };
  // A channel wider than a few numbers (morph weights) holds more a sample: fewer samples then.
  let s = await sampleRun();
  while (s.exitCode === 2 && /sampling needs more than/.test(s.stderr) && perChannel >= 2 * MIN_PLOT_TIMES) {
    perChannel = Math.floor(perChannel / 2);
    s = await sampleRun();
  }
  const tooMany = s.exitCode === 2 && /sampling needs more than/.test(s.stderr);
  const k = await withVerdict((v) => {
    const r = v.keys(asset, { maxValues: KEY_VALUES });
    return { exitCode: r.exitCode, text: r.bytes === null ? null : decoder.decode(r.bytes), stderr: r.stderr };
  }) ?? await cli(['sample', '--keys', '--max-values', String(KEY_VALUES)], [asset]);
  const keysTooMany = k.exitCode === 2 && /the keys hold more than/.test(k.stderr);
  const keys = k.text === null ? null : keysView(k.text, transfer);
  const samples = [];
  if (s.file !== null) {
    samples.push(s.file);
  } else if (keys !== null) {
    const refused = new Set(keys.filter((c) => c.problem !== null).map((c) => c.animation));
    for (const a of new Set(keys.map((c) => c.animation))) {
      if (refused.has(a)) continue;
      const one = await sampleRun(a);
      if (one.file !== null) samples.push(one.file);
    }
  }
  // The CLI's words name its options: the page says what it means here instead.
  const stderr = tooMany
    ? `${asset}: its ${count(channels)} channels' samples are more than a browser page can hold. ` +
      'The report above is complete; plot one animation at a time with the command-line tool.'
    : s.stderr;
  const note = keysTooMany && s.file !== null
    ? `This asset holds more than ${count(KEY_VALUES)} key values: its curves are drawn from ` +
      `${count(perChannel)} samples a channel at most, without marking each key.`
    : null;
  return { names, whole: s.file !== null, samples, keys, transfer, stderr, exitCode: s.exitCode, note,
    request: { channels, perChannel, maxValues } };
}

// Rows [start, end) of an asset's group, as the page shows them.
function rows({ asset, group, start, end }) {
  const indices = groups[asset]?.[group]?.indices ?? [];
  const from = Math.max(0, Math.min(indices.length, start));
  const to = Math.max(from, Math.min(indices.length, end));
  const out = [];
  for (let k = from; k < to; ++k) out.push(rowText(messages[asset][indices[k]]));
  return { start: from, rows: out };
}

// The shallowest manifest.json among a picked suite folder's files: its folder is the golden one.
function goldenFolder(paths) {
  const manifests = paths.filter((p) => p === 'manifest.json' || p.endsWith('/manifest.json'));
  manifests.sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  const m = manifests[0];
  return m === undefined ? null : m.slice(0, m.length - 'manifest.json'.length);
}

// The keys file (`sample --keys`) parsed here, each channel's numbers in typed arrays that are
// moved to the page's thread, not copied: the page's thread never parses or walks a key object
// (20,000 keys are a megabyte of JSON). null (a number that is not finite) becomes NaN.
function keysView(text, transfer) {
  const keys = JSON.parse(text).channels.map((c) => {
    const list = c.keys ?? [];
    const n = list.length;
    const w = c.width ?? 0;
    const cubic = n > 0 && list[0].in !== undefined;
    const times = new Float64Array(n);
    const values = new Float64Array(n * w);
    const ins = cubic ? new Float64Array(n * w) : null;
    const outs = cubic ? new Float64Array(n * w) : null;
    // The finite times' and values' ranges (the plot's frame), here rather than on the page's thread.
    const range = { t0: Infinity, t1: -Infinity, lo: Infinity, hi: -Infinity };
    list.forEach((key, k) => {
      const t = key.t ?? NaN;
      times[k] = t;
      if (Number.isFinite(t)) {
        range.t0 = Math.min(range.t0, t);
        range.t1 = Math.max(range.t1, t);
      }
      for (let i = 0; i < w; ++i) {
        const v = key.value[i] ?? NaN;
        values[k * w + i] = v;
        if (Number.isFinite(v)) {
          range.lo = Math.min(range.lo, v);
          range.hi = Math.max(range.hi, v);
        }
        if (cubic) {
          ins[k * w + i] = key.in[i] ?? NaN;
          outs[k * w + i] = key.out[i] ?? NaN;
        }
      }
    });
    for (const a of [times, values, ins, outs]) if (a !== null) transfer.push(a.buffer);
    return { animation: c.animation, index: c.index, target: c.target ?? null, sampler: c.sampler,
      interpolation: c.interpolation ?? null, problem: c.problem ?? null, decoded: c.keys !== undefined, width: w,
      // A cubic key stores an in-tangent, its value and an out-tangent: 3 output elements.
      outputsPerKey: cubic ? 3 : 1,
      times, values, ins, outs, range };
  });
  return keys;
}

// A samples file (`sample`) parsed here, each channel's samples in typed arrays moved to the
// page's thread like the keys': {times, values, width, range}, values[i * width + c] the
// component c of sample i, range the finite times' and values' span (a time counts when its
// sample has a component). A million sample objects would cost the page's thread seconds to
// receive and hundreds of MiB to hold. null (a number that is not finite) becomes NaN.
function samplesView(text, transfer) {
  const file = JSON.parse(text);
  for (const anim of file.animations) {
    for (const ch of anim.channels) {
      const list = ch.samples ?? [];
      const n = list.length;
      const w = list[0]?.value.length ?? 0;
      const times = new Float64Array(n);
      const values = new Float64Array(n * w);
      const range = { t0: Infinity, t1: -Infinity, lo: Infinity, hi: -Infinity };
      for (let i = 0; i < n; ++i) {
        const t = list[i].t ?? NaN;
        const value = list[i].value;
        times[i] = t;
        if (value.length > 0 && Number.isFinite(t)) {
          range.t0 = Math.min(range.t0, t);
          range.t1 = Math.max(range.t1, t);
        }
        for (let c = 0; c < w; ++c) {
          const v = value[c] ?? NaN;
          values[i * w + c] = v;
          if (Number.isFinite(v)) {
            range.lo = Math.min(range.lo, v);
            range.hi = Math.max(range.hi, v);
          }
        }
      }
      transfer.push(times.buffer, values.buffer);
      ch.samples = { times, values, width: w, range };
    }
  }
  return file;
}

// The verdict instance's samples: the samples file's header (every channel's "samples" empty)
// parsed here, each channel given its typed arrays as samplesView gives them, with their range.
function typedSamplesView(header, channels, transfer) {
  const file = JSON.parse(decoder.decode(header));
  let i = 0;
  for (const anim of file.animations) {
    for (const ch of anim.channels) {
      const { times, values, width: w } = channels[i++];
      const range = { t0: Infinity, t1: -Infinity, lo: Infinity, hi: -Infinity };
      for (let j = 0; j < times.length; ++j) {
        const t = times[j];
        if (w > 0 && Number.isFinite(t)) {
          range.t0 = Math.min(range.t0, t);
          range.t1 = Math.max(range.t1, t);
        }
        for (let c = 0; c < w; ++c) {
          const v = values[j * w + c];
          if (Number.isFinite(v)) {
            range.lo = Math.min(range.lo, v);
            range.hi = Math.max(range.hi, v);
          } else {
            values[j * w + c] = NaN; // as samplesView reads a null
          }
        }
      }
      transfer.push(times.buffer, values.buffer);
      ch.samples = { times, values, width: w, range };
    }
  }
  return file;
}

// The page sends File handles: their bytes are read here, off the page's thread.
async function read(list) {
  return Promise.all(list.map(async ([p, f]) => [p, f instanceof Blob ? await f.arrayBuffer() : f]));
}

async function handle(msg) {
  switch (msg.type) {
    case 'files':
      files = await read(msg.files);
      held = null; // the instances of the files before
      verdictHeld = null;
      assets = files.map(([p]) => p).filter((p) => /\.(gltf|glb)$/i.test(p)).sort();
      if (assets.length === 0) return { error: 'No .gltf or .glb among the dropped files.' };
      validateOptions = ['--max-issues', String(msg.maxIssues), '--max-issue-mb', String(msg.maxIssueMb),
        ...(msg.enable ?? []).flatMap((code) => ['--enable', code])];
      verdictOptions = { maxIssues: msg.maxIssues, maxIssueMb: msg.maxIssueMb, enable: msg.enable ?? [] };
      return { ...(await validateView()), hints: hints(), clips: assets.map(clips) };
    case 'rows':
      return rows(msg);
    case 'channel-issues': // each plotted channel's issues, at their keys
      return { channels: channelIssues(messages[msg.asset] ?? [], msg.channels) };
    case 'report': // the report in another format, as the CLI writes it
      // The verdict instance validates again (it holds the files already: no second instance
      // with its own copy of them, no whole CLI fetched for a download).
      return await withVerdict((v) => {
        const r = v.validate(assets, { ...verdictOptions, format: msg.format });
        return { exitCode: r.exitCode, text: r.bytes === null ? null : decoder.decode(r.bytes), stderr: r.stderr };
      }) ?? cli([...VALIDATE, ...validateOptions, '--format', msg.format], assets);
    case 'plot': // an asset's names, samples and keys (the keys file is written, exit 1, when a channel cannot be sampled)
      return plot(msg);
    case 'codes': { // the registry: {code: {anchor, rule, spec, message, severity}}, from `codes --format json`
      const build = await verdict();
      const r = build === null ? await (await packageApi()).run(['codes', '--format', 'json'])
        : (({ exitCode, bytes: stdout, stderr }) => ({ exitCode, stdout, stderr }))((await verdictSession([], { build })).codes());
      const codes = {};
      if (r.exitCode === 0) {
        for (const c of JSON.parse(decoder.decode(r.stdout)).codes) {
          codes[c.code] = { anchor: c.anchor, rule: c.rule, spec: c.spec, message: c.message, severity: c.severityName };
        }
      }
      return { exitCode: r.exitCode, codes, stderr: r.stderr };
    }
    case 'repair':
      return repair(msg);
    case 'compare': {
      const golden = goldenFolder(msg.golden.map(([p]) => p));
      if (golden === null) return { error: 'The suite folder holds no manifest.json.' };
      if (msg.actual.length === 0) return { error: 'Pick the engine\'s samples files.' };
      const both = [...(await read(msg.golden)).map(([p, b]) => [`golden/${p}`, b]),
        ...(await read(msg.actual)).map(([p, b]) => [`actual/${p}`, b])];
      const r = await (await packageApi()).run(['compare', '--golden', `golden/${golden}`, '--actual', 'actual', '--format',
        msg.format ?? 'json', '--output', OUT], { files: both, read: [OUT], memoryLimitMb });
      const out = r.outputs[OUT];
      return { exitCode: r.exitCode, text: out ? decoder.decode(out) : null, stderr: r.stderr };
    }
    default:
      return { error: `unknown request ${msg.type}` };
  }
}

// ---- Repair: `fix`, `reduce` or `fit` within a bound, `migrate`, on one asset with the dropped files ----
// index.js's functions: the summary (`--format json`) and the files written, the native
// CLI's bytes; a refusal or a bad option is the CLI's reason.
const TOOLS = ['fix', 'reduce', 'fit', 'migrate'];

// A repair holds the asset's bytes, its channels decoded (8 bytes a float: up to twice the
// file) and what it changes, then the output. Natively, fix, reduce and migrate peak at 3.3 to
// 4.2 times the 342 MB benchmark asset (docs/PERFORMANCE.md, "Repair on the 342 MB asset");
// the wasm heap gives no freed memory back, so the output may come on top of the decoded
// channels: 5. An asset whose files times REPAIR_FACTOR are more than the page's memory limit
// is refused in words, before a run that would end out of memory.
const REPAIR_FACTOR = 5;
const MB = 1048576;

// The bytes of an asset and of the buffers it names among the picked files.
function assetBytes(asset) {
  let n = bytesOf(asset)?.length ?? 0;
  const json = /\.gltf$/i.test(asset) ? assetJson(asset) : null;
  const seen = new Set();
  for (const b of Array.isArray(json?.buffers) ? json.buffers : []) {
    if (typeof b?.uri !== 'string' || b.uri.startsWith('data:')) continue;
    const file = resolveUri(asset, b.uri);
    if (file === null || seen.has(file)) continue;
    seen.add(file);
    n += bytesOf(file)?.length ?? 0;
  }
  return n;
}

// `ranOut`: the run itself ended out of memory, though the estimate was within the limit (one
// channel that is most of the asset, changed): said so, not the estimate.
function tooLargeToRepair(asset, tool, limitMb, ranOut = false) {
  const mb = (n) => Math.ceil(n / MB).toLocaleString('en-US');
  const bytes = assetBytes(asset);
  const limit = `${limitMb.toLocaleString('en-US')} MB`;
  const need = ranOut && bytes * REPAIR_FACTOR <= limitMb * MB
    ? `it needed more memory than the page's limit of ${limit}. `
    : `a browser page needs about ${mb(bytes * REPAIR_FACTOR)} MB of memory, more than its limit of ${limit}. `;
  return `${asset} is ${mb(bytes)} MB with its buffers: to ${tool} it, ${need}` +
    `The command-line tool (gltf-anim ${tool}) repairs it the same way, with your computer's memory.`;
}

async function repair({ asset, tool, maxError, to }) {
  if (!assets.includes(asset)) return { error: `${asset} is not among the dropped assets` };
  if (!TOOLS.includes(tool)) return { error: `unknown repair tool ${tool}` };
  const limitMb = memoryLimitMb ?? 2048; // index.js's default
  if (assetBytes(asset) * REPAIR_FACTOR > limitMb * MB) return { error: tooLargeToRepair(asset, tool, limitMb), tooLarge: true };
  const input = { files, paths: [asset] };
  const options = { memoryLimitMb };
  if (maxError !== undefined) options.maxError = maxError;
  if (to !== undefined) options.to = to;
  try {
    const r = await (await packageApi())[tool](input, options);
    return { exitCode: r.exitCode, summary: r.summary, files: r.files, names: assetNames(asset) };
  } catch (err) {
    const message = String(err?.message ?? err);
    // Out of memory all the same (a repair that holds more than the estimate): said as above.
    if (/out of memory/i.test(message)) return { error: tooLargeToRepair(asset, tool, limitMb, true), tooLarge: true, summary: null };
    return { error: message, summary: err?.summary ?? null };
  }
}

// The assets the verdict instance of the dropped files has loaded (parsed), for the page test
// that checks each is loaded once for its report, keys and samples; null without that instance.
self.gltfAnimLoads = () => verdictHeld?.session.loads() ?? null;

self.onmessage = async (e) => {
  const { id } = e.data;
  if (e.data.memoryLimitMb !== undefined) memoryLimitMb = e.data.memoryLimitMb;
  try {
    const { transfer = [], ...answer } = await handle(e.data); // transfer: buffers moved, not copied
    self.postMessage({ id, ...answer }, transfer);
  } catch (err) {
    self.postMessage({ id, error: String(err?.message ?? err) });
  }
};
