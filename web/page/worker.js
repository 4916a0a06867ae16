// The page's worker: every run of the WebAssembly CLI happens here, never on the page's
// thread. It keeps the dropped files, so a download in another format or a plot runs the
// CLI again on the same files. Options go before `--`: what follows it is only paths.
import { fit, fix, migrate, reduce, run, splitReport } from './gltf-anim/index.js';
import { channelIssues, groupIssues, rowText } from './report-index.js';

let files = [];
let assets = [];
let validateOptions = []; // the page's issue limits, as CLI words
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

async function cliBytes(args, paths, runFiles = files) {
  const r = await run([...args, '--output', OUT, '--', ...paths], { files: runFiles, read: [OUT], memoryLimitMb });
  return { exitCode: r.exitCode, bytes: r.outputs[OUT] ?? null, stderr: r.stderr };
}

async function cli(args, paths, runFiles = files) {
  const r = await cliBytes(args, paths, runFiles);
  return { exitCode: r.exitCode, text: r.bytes ? decoder.decode(r.bytes) : null, stderr: r.stderr };
}

// The JSON report without its messages, each asset with its groups' counts instead.
async function validateView() {
  const r = await cliBytes([...VALIDATE, ...validateOptions, '--format', 'json'], assets);
  if (r.bytes === null) return { exitCode: r.exitCode, view: null, stderr: r.stderr };
  const { report, arrays } = splitReport(r.bytes);
  messages = arrays;
  groups = arrays.map(groupIssues);
  report.reports.forEach((a, i) => {
    a.groups = groups[i].map((g) => ({ code: g.code, severity: g.severity, message: g.message, count: g.indices.length }));
  });
  return { exitCode: r.exitCode, view: report, stderr: r.stderr };
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
function keysView(text) {
  const transfer = [];
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
      times, values, ins, outs, range };
  });
  return { keys, transfer };
}

// The page sends File handles: their bytes are read here, off the page's thread.
async function read(list) {
  return Promise.all(list.map(async ([p, f]) => [p, f instanceof Blob ? await f.arrayBuffer() : f]));
}

async function handle(msg) {
  switch (msg.type) {
    case 'files':
      files = await read(msg.files);
      assets = files.map(([p]) => p).filter((p) => /\.(gltf|glb)$/i.test(p)).sort();
      if (assets.length === 0) return { error: 'No .gltf or .glb among the dropped files.' };
      validateOptions = ['--max-issues', String(msg.maxIssues), '--max-issue-mb', String(msg.maxIssueMb),
        ...(msg.enable ?? []).flatMap((code) => ['--enable', code])];
      return validateView();
    case 'rows':
      return rows(msg);
    case 'channel-issues': // each plotted channel's issues, at their keys
      return { channels: channelIssues(messages[msg.asset] ?? [], msg.channels) };
    case 'report': // the report in another format, as the CLI writes it
      return cli([...VALIDATE, ...validateOptions, '--format', msg.format], assets);
    case 'sample': // one animation when asked (the others' refused channels then do not matter)
      return cli(['sample', '--rate', String(msg.rate ?? 60),
        ...(msg.animation === undefined ? [] : ['--animation', String(msg.animation)])], [msg.asset]);
    case 'keys': { // every channel's keys as stored; written (exit 1) when a channel cannot be sampled
      const r = await cli(['sample', '--keys'], [msg.asset]);
      if (r.text === null) return { exitCode: r.exitCode, keys: null, stderr: r.stderr };
      return { exitCode: r.exitCode, stderr: r.stderr, ...keysView(r.text) };
    }
    case 'codes': { // the registry: {code: {anchor, rule, spec}}, from `codes --format json`
      const r = await run(['codes', '--format', 'json']);
      const codes = {};
      if (r.exitCode === 0) {
        for (const c of JSON.parse(decoder.decode(r.stdout)).codes) codes[c.code] = { anchor: c.anchor, rule: c.rule, spec: c.spec };
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
      const r = await run(['compare', '--golden', `golden/${golden}`, '--actual', 'actual', '--format',
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
const TOOLS = { fix, reduce, fit, migrate };

async function repair({ asset, tool, maxError, to }) {
  if (!assets.includes(asset)) return { error: `${asset} is not among the dropped assets` };
  if (!Object.hasOwn(TOOLS, tool)) return { error: `unknown repair tool ${tool}` };
  const input = { files, paths: [asset] };
  const options = { memoryLimitMb };
  if (maxError !== undefined) options.maxError = maxError;
  if (to !== undefined) options.to = to;
  try {
    const r = await TOOLS[tool](input, options);
    return { exitCode: r.exitCode, summary: r.summary, files: r.files };
  } catch (err) {
    return { error: String(err?.message ?? err), summary: err?.summary ?? null };
  }
}

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
