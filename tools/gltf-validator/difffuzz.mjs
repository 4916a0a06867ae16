// Differential fuzzer: gltf-anim against Khronos glTF-Validator's npm build on plausible
// mutants of valid assets. The property: no file glTF-Validator accepts (0 errors) gets an
// error from `gltf-anim validate`, and every such file with animations is sampled by
// `gltf-anim sample`. The mutants stay close to what exporters and optimizers write
// (unused objects, sparse and strided animation data, normalized outputs, containers,
// extensions declared without use, edge-case floats...), so the classes of false errors
// show up before an independent checker with a bigger corpus finds them.
//
//   node tools/gltf-validator/difffuzz.mjs --cli build/cli/gltf-anim --work DIR
//        [--seed N] [--mutants N] [--jobs N] [--max-seed-kb N] [--keep]
//        [--seeds PATH]... [--report FILE] [--timeout-ms N]
//
// Seeds: conformance_assets/valid, and when present ../shared/corpus and every file of
// ../shared/khronos-validator-tests whose expected report has no error (or the --seeds
// given, files or folders; --max-seed-kb bounds their size, default 600). A seed
// glTF-Validator finds an error in, or whose buffers cannot be read, is dropped; one we
// already give an error (BlenderIO_24's documented pointers) is named and not mutated.
// Images by uri become a 1x1 PNG data URI (mutants live in other folders). Each mutant is seed (seeded PRNG: same --seed, same
// mutants) + 1 to 4 mutations, written as .gltf with data: URIs, .gltf with external
// .bin files, or .glb. For each one: glTF-Validator (validateBytes with an
// externalResourceFunction reading the mutant's folder), `gltf-anim validate --format
// json`, and, when it has animations, `gltf-anim sample`. Findings, by class:
//   false-error   glTF-Validator: 0 errors; gltf-anim: an error (documented differences,
//                 docs/VALIDATOR.md "Differences from glTF-Validator", are not counted:
//                 an error at an accessor without bufferView, or at a sampler naming one)
//   no-sample     glTF-Validator: 0 errors, animations; `sample` exits 1 (same exemption)
//   crash         any exit code but 0/1 of either command, a signal, a timeout (hang),
//                 or INTERNAL_ERROR
//   documented    (informative) an error of ours on such a file that docs/VALIDATOR.md
//                 explains (documentedDifference below: narrow predicates, not codes)
//   missed        (informative) an animation-related error of glTF-Validator's (pointer
//                 under /animations or at an accessor an animation reads) we do not raise
// Up to 5 mutants of each finding are copied to --work/findings/<class>/<code>/ (the
// mutant, its files, and <name>.finding.json: seed, container, mutations, our message,
// glTF-Validator's errors); the summary (counts by class, by code with the mutations
// seen, why glTF-Validator refused mutants, each mutation's acceptance) goes to stdout
// and, with the findings, to --report (JSON). --keep keeps every mutant. Exit codes: 0 no
// false error, no no-sample, no crash; 1 some; 2 usage or setup error. CTest's
// gltf_validator_difffuzz runs a small seeded run; docs/VALIDATOR.md ("Differential
// fuzzing") has the big run's command and figures.
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import validator from 'gltf-validator';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const SHARED = path.resolve(ROOT, '..', 'shared');

function usage(why) {
  console.error(`difffuzz.mjs: ${why}\nusage: node difffuzz.mjs --cli GLTF_ANIM --work DIR [--seed N] [--mutants N] [--jobs N] [--max-seed-kb N] [--keep] [--seeds PATH]... [--report FILE]`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { cli: null, work: null, seed: 1, mutants: 300, jobs: 2, maxSeedKb: 600, keep: false, seeds: [], report: null, timeout: 30000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => { if (i + 1 >= argv.length) usage(`${a} needs a value`); return argv[++i]; };
    if (a === '--cli') o.cli = val();
    else if (a === '--work') o.work = val();
    else if (a === '--seed') o.seed = Number(val());
    else if (a === '--mutants') o.mutants = Number(val());
    else if (a === '--jobs') o.jobs = Number(val());
    else if (a === '--max-seed-kb') o.maxSeedKb = Number(val());
    else if (a === '--seeds') o.seeds.push(val());
    else if (a === '--report') o.report = val();
    else if (a === '--keep') o.keep = true;
    else if (a === '--timeout-ms') o.timeout = Number(val());
    else usage(`unknown argument ${a}`);
  }
  if (!o.cli || !o.work) usage('--cli and --work are required');
  for (const k of ['seed', 'mutants', 'jobs', 'maxSeedKb']) if (!Number.isInteger(o[k]) || o[k] < 0) usage(`--${k} must be a whole number`);
  return o;
}

// ---- PRNG (mulberry32): the same --seed gives the same mutants on any machine.
function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n) => Math.floor(next() * n), pick: (a) => a[Math.floor(next() * a.length)], chance: (p) => next() < p };
}

// ---- Seeds: a document and its buffers' bytes.
function listAssets(p) {
  if (!fs.existsSync(p)) return [];
  const st = fs.statSync(p);
  if (!st.isDirectory()) return [p];
  const out = [];
  for (const e of fs.readdirSync(p, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const q = path.join(p, e.name);
    if (e.isDirectory()) out.push(...listAssets(q));
    else if (/\.(gltf|glb)$/i.test(e.name)) out.push(q);
  }
  return out;
}

function khronosAccepted() {
  const dir = path.join(SHARED, 'khronos-validator-tests');
  return listAssets(dir).filter((f) => {
    try {
      const r = JSON.parse(fs.readFileSync(`${f}.report.json`, 'utf8'));
      return r.issues && r.issues.numErrors === 0;
    } catch { return false; }
  });
}

function parseGlb(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== 0x46546C67) return null;
  let at = 12, json = null, bin = null;
  while (at + 8 <= bytes.length) {
    const len = dv.getUint32(at, true), type = dv.getUint32(at + 4, true);
    const chunk = bytes.subarray(at + 8, at + 8 + len);
    if (type === 0x4E4F534A && !json) json = JSON.parse(Buffer.from(chunk).toString('utf8'));
    else if (type === 0x004E4942 && !bin) bin = chunk;
    at += 8 + len;
  }
  return { json, bin };
}

function loadSeed(file) {
  const bytes = fs.readFileSync(file);
  let json, bin = null;
  if (/\.glb$/i.test(file)) {
    const g = parseGlb(bytes);
    if (!g || !g.json) return null;
    ({ json, bin } = g);
  } else {
    json = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const bins = [];
  for (const [i, b] of (json.buffers || []).entries()) {
    let data;
    if (b.uri === undefined) {
      if (i !== 0 || !bin) return null;
      data = bin.subarray(0, b.byteLength);
    } else if (b.uri.startsWith('data:')) {
      const comma = b.uri.indexOf(',');
      data = Buffer.from(b.uri.slice(comma + 1), 'base64');
    } else {
      const f = path.join(path.dirname(file), decodeURIComponent(b.uri));
      if (!fs.existsSync(f)) return null;
      data = fs.readFileSync(f);
    }
    if (data.length < b.byteLength) return null;
    bins.push(new Uint8Array(data.subarray(0, b.byteLength)));
  }
  // Images are not ours to check, and a mutant in another folder cannot find them:
  // images by uri become a 1x1 PNG data URI (glTF-Validator reads it).
  for (const img of json.images || []) if (typeof img.uri === 'string' && !img.uri.startsWith('data:')) img.uri = PNG_1x1;
  return { file, json, bins };
}
const PNG_1x1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

// ---- Writing a mutant.
function pad4(n) { return (n + 3) & ~3; }

function writeMutant(m, dir, name, container, style = {}) {
  const json = structuredClone(m.json);
  const files = [];
  const bufs = json.buffers || [];
  let binChunk = null;
  bufs.forEach((b, i) => {
    const data = m.bins[i];
    b.byteLength = data.length;
    if (container === 'glb' && i === 0) { delete b.uri; binChunk = data; }
    else if (container === 'external') {
      const f = style.spaces ? `${name} b${i}.bin` : `${name}_b${i}.bin`;
      // style.longFile: the file holds more bytes than byteLength (trailing data).
      fs.writeFileSync(path.join(dir, f), style.longFile ? Buffer.concat([Buffer.from(data), Buffer.alloc(style.longFile)]) : data);
      files.push(f);
      b.uri = encodeURI(f);
    } else b.uri = `data:${style.gltfBufferMime ? 'application/gltf-buffer' : 'application/octet-stream'};base64,${Buffer.from(data).toString('base64')}`;
  });
  // Integer members written as 3.0 or 3e0: JSON numbers that are integers (glTF-Validator
  // reads them so; JSON Schema 2020-12 does too).
  const text = (j, indent) => {
    let t = JSON.stringify(j, null, indent);
    if (style.floatInts) t = t.replace(/("(?:count|bufferView|input|output|sampler|node|byteLength|buffer|componentType)": ?)(\d+)([,\n}\]])/g, (_, k, v, e) => `${k}${v}${style.floatInts === 1 ? '.0' : 'e0'}${e}`);
    return t;
  };
  if (container === 'glb') {
    const file = `${name}.glb`;
    const j = Buffer.from(text(json), 'utf8');
    const jl = pad4(j.length);
    // style.slack: a BIN chunk longer than the buffer by more than its padding.
    const bl = binChunk ? pad4(binChunk.length) + (style.slack || 0) : 0;
    const total = 12 + 8 + jl + (binChunk ? 8 + bl : 0);
    const out = Buffer.alloc(total, 0);
    out.writeUInt32LE(0x46546C67, 0); out.writeUInt32LE(2, 4); out.writeUInt32LE(total, 8);
    out.writeUInt32LE(jl, 12); out.writeUInt32LE(0x4E4F534A, 16);
    out.fill(0x20, 20, 20 + jl); j.copy(out, 20);
    if (binChunk) {
      out.writeUInt32LE(bl, 20 + jl); out.writeUInt32LE(0x004E4942, 24 + jl);
      Buffer.from(binChunk).copy(out, 28 + jl);
    }
    fs.writeFileSync(path.join(dir, file), out);
    return { file, files: [file, ...files] };
  }
  const file = `${name}.gltf`;
  fs.writeFileSync(path.join(dir, file), text(json, 1));
  return { file, files: [file, ...files] };
}

// ---- Accessor data helpers.
const COMP = { 5120: [1, 'Int8'], 5121: [1, 'Uint8'], 5122: [2, 'Int16'], 5123: [2, 'Uint16'], 5125: [4, 'Uint32'], 5126: [4, 'Float32'] };
const NCOMP = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

function dequant(ct, v) {
  switch (ct) {
    case 5120: return Math.max(v / 127, -1);
    case 5121: return v / 255;
    case 5122: return Math.max(v / 32767, -1);
    case 5123: return v / 65535;
    default: return v;
  }
}

// The components of a plain (bufferView, no sparse) accessor as numbers: raw values
// and, for normalized ones, the values they stand for.
function readAccessor(m, ai) {
  const a = m.json.accessors?.[ai];
  if (!a || a.bufferView === undefined || a.sparse || !COMP[a.componentType] || !NCOMP[a.type]) return null;
  if (a.type.startsWith('MAT')) return null;
  const bv = m.json.bufferViews?.[a.bufferView];
  if (!bv || bv.extensions) return null;
  const data = m.bins[bv.buffer];
  if (!data) return null;
  const [size, kind] = COMP[a.componentType];
  const n = NCOMP[a.type];
  const stride = bv.byteStride || size * n;
  const base = (bv.byteOffset || 0) + (a.byteOffset || 0);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const raw = [];
  for (let e = 0; e < a.count; e++) for (let c = 0; c < n; c++) {
    const at = base + e * stride + c * size;
    if (at + size > data.length) return null;
    raw.push(dv[`get${kind}`](at, true));
  }
  return { a, raw, n, size, kind, values: a.normalized ? raw.map((v) => dequant(a.componentType, v)) : raw };
}

function encode(ct, comps) {
  const [size, kind] = COMP[ct];
  const out = new Uint8Array(comps.length * size);
  const dv = new DataView(out.buffer);
  comps.forEach((v, i) => dv[`set${kind}`](i * size, v, true));
  return out;
}

// Appends bytes to a new buffer of their own and returns a bufferView index.
function newBufferView(m, bytes, extra = {}) {
  m.json.buffers = m.json.buffers || [];
  m.json.bufferViews = m.json.bufferViews || [];
  const pre = extra.prefix || 0;
  const data = new Uint8Array(pre + bytes.length + (extra.suffix || 0));
  data.set(bytes, pre);
  m.json.buffers.push({ byteLength: data.length });
  m.bins.push(data);
  const bv = { buffer: m.json.buffers.length - 1, byteLength: bytes.length };
  if (pre) bv.byteOffset = pre;
  if (extra.byteStride) bv.byteStride = extra.byteStride;
  m.json.bufferViews.push(bv);
  return m.json.bufferViews.length - 1;
}

function minMax(comps, n) {
  const min = [], max = [];
  for (let c = 0; c < n; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = c; i < comps.length; i += n) { lo = Math.min(lo, comps[i]); hi = Math.max(hi, comps[i]); }
    min.push(lo); max.push(hi);
  }
  return { min, max };
}

// The animation samplers' uses: accessor -> [{anim, sampler, role, path}].
function samplerUses(m) {
  const uses = [];
  (m.json.animations || []).forEach((an, ai) => {
    (an.samplers || []).forEach((s, si) => {
      const ch = (an.channels || []).find((c) => c.sampler === si);
      const p = ch?.target?.path;
      // Only core samplers a core channel reads: an extension's sampler (EXT_animation_sqlerp
      // names its own in the channel's extension) has rules a copy would break.
      if (!ch || ch.extensions || !['LINEAR', 'STEP', 'CUBICSPLINE', undefined].includes(s.interpolation)) return;
      uses.push({ ai, si, s, path: p, interpolation: s.interpolation || 'LINEAR' });
    });
  });
  return uses;
}

function usedAccessorCount(m, idx) {
  let n = 0;
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'number' && x === idx && ['input', 'output', 'indices', 'inverseBindMatrices', 'POSITION', 'NORMAL', 'TANGENT', 'TEXCOORD_0', 'TEXCOORD_1', 'COLOR_0', 'JOINTS_0', 'WEIGHTS_0', 'JOINTS_1', 'WEIGHTS_1'].includes(k)) n++;
      else walk(x);
    }
  };
  walk(m.json.meshes); walk(m.json.skins); walk(m.json.animations); walk(m.json.nodes);
  return n;
}

// ---- Mutations. Each returns a label (what it did) or null when it does not apply.
const KNOWN_EXTS = ['KHR_mesh_quantization', 'EXT_meshopt_compression', 'KHR_draco_mesh_compression', 'KHR_texture_transform',
  'KHR_materials_emissive_strength', 'KHR_materials_unlit', 'KHR_materials_transmission', 'KHR_materials_ior', 'KHR_materials_specular',
  'EXT_mesh_gpu_instancing', 'KHR_animation_pointer', 'KHR_texture_basisu', 'KHR_lights_punctual', 'KHR_materials_variants'];
const OBJ_KINDS = ['accessors', 'animations', 'buffers', 'bufferViews', 'nodes', 'meshes', 'skins', 'scenes', 'materials'];

function randomObject(r, m) {
  const kinds = OBJ_KINDS.filter((k) => Array.isArray(m.json[k]) && m.json[k].length);
  if (!kinds.length) return null;
  const k = r.pick(kinds);
  const i = r.int(m.json[k].length);
  let o = m.json[k][i], ptr = `/${k}/${i}`;
  if (k === 'animations' && r.chance(0.6)) {
    const sub = r.pick(['channels', 'samplers']);
    if (o[sub]?.length) { const j = r.int(o[sub].length); ptr += `/${sub}/${j}`; o = o[sub][j]; if (sub === 'channels' && r.chance(0.5) && o.target) { o = o.target; ptr += '/target'; } }
  }
  if (k === 'accessors' && o.sparse && r.chance(0.5)) { o = o.sparse; ptr += '/sparse'; }
  return { o, ptr };
}

function quantizeOutput(r, m, signedOnly) {
  const uses = samplerUses(m).filter((u) => u.path === 'rotation' || u.path === 'weights');
  if (!uses.length) return null;
  const u = r.pick(uses);
  const d = readAccessor(m, u.s.output);
  if (!d || d.a.componentType !== 5126) return null;
  const allPos = d.values.every((v) => v >= 0);
  const types = allPos && !signedOnly ? [5120, 5121, 5122, 5123] : [5120, 5122];
  const ct = r.pick(types);
  const scale = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 }[ct];
  const raw = d.values.map((v) => Math.round(Math.max(-1, Math.min(1, v)) * scale));
  const bytes = encode(ct, raw);
  const bv = newBufferView(m, bytes, { prefix: r.pick([0, 4, 8]) });
  const acc = { bufferView: bv, componentType: ct, normalized: true, count: d.a.count, type: d.a.type };
  if (r.chance(0.5)) Object.assign(acc, minMax(raw, d.n));
  m.json.accessors.push(acc);
  u.s.output = m.json.accessors.length - 1;
  return `quantize-${u.path}-${ct}`;
}

// Rewrites an animation accessor (input or output) as sparse: over its own data or over
// no bufferView, with indices of a random component type. The values stay the same.
function sparsify(r, m) {
  const uses = samplerUses(m);
  if (!uses.length) return null;
  const u = r.pick(uses);
  const role = r.pick(['input', 'output']);
  const ai = u.s[role];
  const d = readAccessor(m, ai);
  if (!d) return null;
  const count = d.a.count;
  const ict = r.pick(count <= 255 ? [5121, 5123, 5125] : count <= 65535 ? [5123, 5125] : [5125]);
  const overBase = r.chance(0.5);
  const all = [...Array(count).keys()];
  let idx = overBase ? all.filter(() => r.chance(0.3)) : all;
  if (idx.length === 0) idx = overBase && r.chance(0.5) ? [] : [0];
  const vals = [];
  for (const i of idx) for (let c = 0; c < d.n; c++) vals.push(d.raw[i * d.n + c]);
  const acc = structuredClone(d.a);
  if (!overBase) delete acc.bufferView, delete acc.byteOffset;
  if (idx.length === 0) {
    // A sparse count of 0 is below the schema's minimum (1): glTF-Validator's verdict decides.
  }
  const ib = newBufferView(m, encode(ict, idx), { prefix: r.pick([0, 4]) });
  const vb = newBufferView(m, encode(d.a.componentType, vals));
  acc.sparse = { count: idx.length, indices: { bufferView: ib, componentType: ict }, values: { bufferView: vb } };
  if (r.chance(0.3)) { acc.sparse.indices.byteOffset = 0; acc.sparse.values.byteOffset = 0; }
  m.json.accessors.push(acc);
  u.s[role] = m.json.accessors.length - 1;
  return `sparse-${role}-${overBase ? 'base' : 'nobv'}-${ict}${idx.length === 0 ? '-zero' : ''}`;
}

// Moves an animation accessor's data to a new bufferView with a byteStride, or at an
// offset pair (bufferView byteOffset, accessor byteOffset) that is aligned in total.
function relayout(r, m) {
  const uses = samplerUses(m);
  if (!uses.length) return null;
  const u = r.pick(uses);
  const role = r.pick(['input', 'output']);
  const d = readAccessor(m, u.s[role]);
  if (!d) return null;
  const elem = d.size * d.n;
  const acc = structuredClone(d.a);
  if (r.chance(0.2)) {
    const stride = Math.min(252, pad4(elem) + 4 * r.int(3));
    const bytes = new Uint8Array(stride * (d.a.count - 1) + elem);
    const enc = encode(d.a.componentType, d.raw);
    for (let e = 0; e < d.a.count; e++) bytes.set(enc.subarray(e * elem, (e + 1) * elem), e * stride);
    acc.bufferView = newBufferView(m, bytes, { byteStride: stride });
    delete acc.byteOffset;
    m.json.accessors.push(acc);
    u.s[role] = m.json.accessors.length - 1;
    return `bytestride-${role}`;
  }
  const bvOff = d.size * r.int(5);
  const accOff = d.size * r.int(5);
  const enc = encode(d.a.componentType, d.raw);
  const bytes = new Uint8Array(accOff + enc.length + d.size * r.int(3));
  bytes.set(enc, accOff);
  acc.bufferView = newBufferView(m, bytes, { prefix: bvOff });
  if (accOff || r.chance(0.3)) acc.byteOffset = accOff; else delete acc.byteOffset;
  m.json.accessors.push(acc);
  u.s[role] = m.json.accessors.length - 1;
  return `offsets-${role}-${bvOff % 4 ? 'unaligned4' : 'aligned4'}`;
}

// Rewrites an input accessor's times: shifted (start after 0, negative), scaled (huge,
// denormal), a first time of -0, min/max written as doubles that round to the float32.
function retime(r, m) {
  const uses = samplerUses(m);
  if (!uses.length) return null;
  const u = r.pick(uses);
  const d = readAccessor(m, u.s.input);
  if (!d || d.a.componentType !== 5126) return null;
  const kind = r.pick(['shift', 'negative', 'huge', 'tiny', 'denormal', 'negzero', 'fuzzyminmax', 'halfulpminmax', 'absentminmax']);
  let t = d.values.slice();
  if (kind === 'shift') t = t.map((x) => x + r.pick([0.5, 3, 1000.25, 1e6]));
  else if (kind === 'negative') t = t.map((x) => x - r.pick([0.5, 10]));
  else if (kind === 'huge') t = t.map((x) => x * 1e30);
  else if (kind === 'tiny') t = t.map((x) => x * 1e-30);
  else if (kind === 'denormal') t = t.map((_, k) => k * 1.401298464324817e-45 * 3); // multiples of the smallest float32
  else if (kind === 'negzero') { if (t[0] !== 0) return null; t[0] = -0; }
  t = t.map((x) => Math.fround(x));
  const acc = structuredClone(d.a);
  acc.bufferView = newBufferView(m, encode(5126, t));
  delete acc.byteOffset;
  const mm = minMax(t, 1);
  acc.min = mm.min; acc.max = mm.max;
  if (kind === 'negzero') acc.min = [-0];
  if (kind === 'fuzzyminmax') {
    // The nearest doubles around the float32 value: each rounds to it as a float32.
    const nudge = (x) => (x === 0 ? x : x * (1 + 1e-9));
    acc.min = acc.min.map(nudge); acc.max = acc.max.map(nudge);
  }
  if (kind === 'halfulpminmax') { acc.min = acc.min.map(halfUlp); acc.max = acc.max.map(halfUlp); }
  if (kind === 'absentminmax') { delete acc.min; delete acc.max; }
  m.json.accessors.push(acc);
  u.s.input = m.json.accessors.length - 1;
  return `times-${kind}`;
}

// A double halfway between float32 x and a neighbour that rounds (ties to even) to x:
// the farthest a JSON number may be from the float32 it stands for.
function nextF32(x, dir) {
  const f = new Float32Array([x]);
  const u = new Int32Array(f.buffer);
  if (x === 0) { f[0] = dir * 1.401298464324817e-45; return f[0]; }
  u[0] += (x > 0) === (dir > 0) ? 1 : -1;
  return f[0];
}
function halfUlp(x) {
  for (const dir of [1, -1]) {
    const mid = (x + nextF32(x, dir)) / 2;
    if (Math.fround(mid) === x && mid !== x) return mid;
  }
  return x;
}

// An output's min/max: added, or nudged within float32 rounding.
function outputMinMax(r, m) {
  const uses = samplerUses(m);
  if (!uses.length) return null;
  const u = r.pick(uses);
  const d = readAccessor(m, u.s.output);
  if (!d) return null;
  const mm = minMax(d.raw, d.n);
  const kind = d.a.componentType === 5126 ? r.pick(['exact', 'fuzzy', 'halfulp', 'absent']) : r.pick(['exact', 'absent']);
  if (kind === 'absent') { delete d.a.min; delete d.a.max; }
  else if (kind === 'halfulp') { d.a.min = mm.min.map(halfUlp); d.a.max = mm.max.map(halfUlp); }
  else if (kind === 'exact') { d.a.min = mm.min; d.a.max = mm.max; }
  else { d.a.min = mm.min.map((x) => x * (1 + 1e-9)); d.a.max = mm.max.map((x) => x * (1 + 1e-9)); }
  return `output-minmax-${kind}`;
}

const MUTATIONS = {
  extras(r, m) {
    const t = r.chance(0.2) ? { o: m.json, ptr: '' } : randomObject(r, m);
    if (!t) return null;
    // Added to what is there: a pointer may target an existing extras value.
    const add = r.pick([{}, { fuzz_note: 'x' }, { fuzz_nested: { a: [1, 2, 3] } }]);
    t.o.extras = t.o.extras && typeof t.o.extras === 'object' && !Array.isArray(t.o.extras) ? { ...t.o.extras, ...add } : add;
    return 'extras';
  },
  unknownExtension(r, m) {
    const t = r.chance(0.2) ? { o: m.json, ptr: '' } : randomObject(r, m);
    if (!t) return null;
    const name = r.pick(['EXT_fuzz_unknown', 'VENDOR_thing']);
    t.o.extensions = { ...(t.o.extensions || {}), [name]: r.pick([{}, { value: 1 }]) };
    if (r.chance(0.95)) m.json.extensionsUsed = [...new Set([...(m.json.extensionsUsed || []), name])];
    return 'unknown-extension';
  },
  declareUnused(r, m) {
    const name = r.pick(KNOWN_EXTS);
    m.json.extensionsUsed = [...new Set([...(m.json.extensionsUsed || []), name])];
    // KHR_mesh_quantization must also be required (glTF-Validator: NON_REQUIRED_EXTENSION).
    if (name === 'KHR_mesh_quantization' || r.chance(0.2)) m.json.extensionsRequired = [...new Set([...(m.json.extensionsRequired || []), name])];
    return `declare-${name}`;
  },
  addUnusedBuffer(r, m) {
    m.json.buffers = m.json.buffers || [];
    m.json.buffers.push({ byteLength: 0 });
    m.bins.push(new Uint8Array(r.pick([1, 4, 16, 17])));
    return 'unused-buffer';
  },
  addUnusedBufferView(r, m) {
    if (!m.bins.length) return null;
    const b = r.int(m.bins.length);
    const len = m.bins[b].length;
    if (len < 1) return null;
    const off = r.int(len);
    m.json.bufferViews = m.json.bufferViews || [];
    const bv = { buffer: b, byteLength: Math.max(1, r.int(len - off + 1)) };
    if (off) bv.byteOffset = off;
    m.json.bufferViews.push(bv);
    return 'unused-bufferview';
  },
  addUnusedAccessor(r, m) {
    const ct = r.pick([5120, 5121, 5122, 5123, 5125, 5126]);
    const type = r.pick(['SCALAR', 'VEC2', 'VEC3', 'VEC4']);
    const n = NCOMP[type], count = 1 + r.int(5);
    const comps = Array.from({ length: n * count }, () => (ct === 5126 ? Math.fround(r.next() * 2 - 1) : r.int(100)));
    const acc = { bufferView: newBufferView(m, encode(ct, comps)), componentType: ct, count, type };
    if (r.chance(0.5)) Object.assign(acc, minMax(comps, n));
    m.json.accessors = m.json.accessors || [];
    m.json.accessors.push(acc);
    return 'unused-accessor';
  },
  duplicateAnimation(r, m) {
    if (!m.json.animations?.length) return null;
    m.json.animations.push(structuredClone(r.pick(m.json.animations)));
    return 'duplicate-animation';
  },
  reorderAnimations(r, m) {
    const a = m.json.animations;
    if (!a || a.length < 2) return null;
    for (let i = a.length - 1; i > 0; i--) { const j = r.int(i + 1); [a[i], a[j]] = [a[j], a[i]]; }
    return 'reorder-animations';
  },
  reorderSamplers(r, m) {
    const an = m.json.animations?.length ? r.pick(m.json.animations) : null;
    if (!an?.samplers || an.samplers.length < 2 || (an.channels || []).some((c) => c.extensions)) return null;
    const perm = [...an.samplers.keys()];
    for (let i = perm.length - 1; i > 0; i--) { const j = r.int(i + 1); [perm[i], perm[j]] = [perm[j], perm[i]]; }
    const inv = [];
    perm.forEach((old, neu) => { inv[old] = neu; });
    an.samplers = perm.map((old) => an.samplers[old]);
    for (const c of an.channels || []) if (typeof c.sampler === 'number') c.sampler = inv[c.sampler];
    return 'reorder-samplers';
  },
  unusedSampler(r, m) {
    const an = m.json.animations?.length ? r.pick(m.json.animations) : null;
    if (!an?.samplers?.length || (an.channels || []).some((c) => c.extensions)) return null;
    an.samplers.push(structuredClone(r.pick(an.samplers)));
    return 'unused-sampler';
  },
  removeChannel(r, m) {
    const an = m.json.animations?.length ? r.pick(m.json.animations) : null;
    if (!an?.channels || an.channels.length < 2) return null;
    an.channels.splice(r.int(an.channels.length), 1);
    return 'remove-channel';
  },
  emptyOptionalArrays(r, m) {
    const k = r.pick(['extensionsUsed', 'extensionsRequired', 'samplers', 'textures', 'images', 'cameras', 'skins']);
    if (m.json[k] !== undefined) return null;
    m.json[k] = [];
    return `empty-${k}`;
  },
  zeroChannelAnimation(r, m) {
    m.json.animations = m.json.animations || [];
    m.json.animations.push(r.chance(0.5) ? { channels: [], samplers: [] } : { channels: [], samplers: [], name: 'empty' });
    return 'zero-channel-animation';
  },
  // A new node without mesh (child of the first scene's first root) animated by a new
  // sampler that shares the input accessor of an existing one.
  emptyNodeChannel(r, m) {
    const uses = samplerUses(m);
    if (!uses.length || !m.json.nodes) return null;
    const u = r.pick(uses);
    const tin = readAccessor(m, u.s.input);
    if (!tin) return null;
    const pathName = r.pick(['translation', 'scale', 'rotation']);
    const n = pathName === 'rotation' ? 4 : 3;
    const per = u.interpolation === 'CUBICSPLINE' ? 3 : 1;
    const vals = [];
    for (let k = 0; k < tin.a.count * per; k++) {
      if (pathName === 'rotation') vals.push(...(per === 3 && k % 3 !== 1 ? [0, 0, 0, 0] : [0, 0, Math.fround(Math.sin(k * 0.1)), Math.fround(Math.cos(k * 0.1))]));
      else vals.push(Math.fround(k), 1, 2);
    }
    m.json.accessors.push({ bufferView: newBufferView(m, encode(5126, vals)), componentType: 5126, count: tin.a.count * per, type: n === 4 ? 'VEC4' : 'VEC3' });
    m.json.nodes.push({ name: 'fuzz_empty' });
    const node = m.json.nodes.length - 1;
    const parent = m.json.nodes.findIndex((nd) => nd.children || nd.mesh !== undefined);
    if (r.chance(0.2)) { /* in no scene */ } else if (parent >= 0 && r.chance(0.7)) m.json.nodes[parent].children = [...(m.json.nodes[parent].children || []), node];
    else if (m.json.scenes?.length) m.json.scenes[0].nodes = [...(m.json.scenes[0].nodes || []), node];
    const an = m.json.animations[u.ai];
    an.samplers.push({ input: u.s.input, output: m.json.accessors.length - 1, interpolation: u.interpolation });
    an.channels.push({ sampler: an.samplers.length - 1, target: { node, path: pathName } });
    return `empty-node-${pathName}`;
  },
  // The same sampler accessors in a new animation on the same targets.
  shareAccessors(r, m) {
    if (!m.json.animations?.length) return null;
    const an = r.pick(m.json.animations);
    if (!an.channels?.length) return null;
    const c = r.pick(an.channels);
    const s = an.samplers?.[c.sampler];
    if (!s) return null;
    m.json.animations.push({ channels: [{ sampler: 0, target: structuredClone(c.target) }], samplers: [structuredClone(s)] });
    return 'share-accessors';
  },
  dropMeshWeights(r, m) {
    const ms = (m.json.meshes || []).filter((x) => x.weights);
    if (!ms.length) return null;
    const x = r.pick(ms);
    delete x.weights;
    for (const nd of m.json.nodes || []) if (nd.mesh === m.json.meshes.indexOf(x) && r.chance(0.5)) delete nd.weights;
    return 'drop-mesh-weights';
  },
  matrixOnAnimatedNode(r, m) {
    const nodes = [];
    for (const an of m.json.animations || []) for (const c of an.channels || []) if (typeof c.target?.node === 'number') nodes.push([c.target.node, c.target.path]);
    if (!nodes.length) return null;
    const [ni, p] = r.pick(nodes);
    const nd = m.json.nodes?.[ni];
    if (!nd) return null;
    const onlyWeights = r.chance(0.5);
    if (onlyWeights && p !== 'weights') return null;
    delete nd.translation; delete nd.rotation; delete nd.scale;
    nd.matrix = r.pick([[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1]]);
    return `matrix-on-${p}-node`;
  },
  quantizeOutput: (r, m) => quantizeOutput(r, m, false),
  // Rotation keys scaled off unit length, within glTF-Validator's tolerance
  // (|length - 1| <= 0.00769, docs: ../shared/specs/validator-codes.md).
  quatLength(r, m) {
    const uses = samplerUses(m).filter((u) => u.path === 'rotation');
    if (!uses.length) return null;
    const u = r.pick(uses);
    const d = readAccessor(m, u.s.output);
    if (!d || d.a.componentType !== 5126) return null;
    const f = r.pick([1.005, 0.995, 1.0075, 0.9925, 1.001]);
    const vals = d.values.map((v) => Math.fround(v * f));
    const acc = { ...structuredClone(d.a), bufferView: newBufferView(m, encode(5126, vals)) };
    delete acc.byteOffset;
    if (acc.min) Object.assign(acc, minMax(vals, 4));
    m.json.accessors.push(acc);
    u.s.output = m.json.accessors.length - 1;
    return `quat-length-${f}`;
  },
  // Output values at the float32 extremes: the largest finite, denormals, -0, negative
  // and out-of-[0,1] morph weights.
  outputExtremes(r, m) {
    const uses = samplerUses(m).filter((u) => u.path === 'translation' || u.path === 'scale' || u.path === 'weights');
    if (!uses.length) return null;
    const u = r.pick(uses);
    const d = readAccessor(m, u.s.output);
    if (!d || d.a.componentType !== 5126) return null;
    const pick = r.pick(u.path === 'weights' ? [-2, 5, -0, 1e-45, 1e30] : [3.4028234663852886e38, -3.4028234663852886e38, 1e-45, -0, 1e-40, 0]);
    const vals = d.values.map((v) => (r.chance(0.3) ? Math.fround(pick) : v));
    const acc = { ...structuredClone(d.a), bufferView: newBufferView(m, encode(5126, vals)) };
    delete acc.byteOffset;
    if (acc.min) Object.assign(acc, minMax(vals, d.n));
    m.json.accessors.push(acc);
    u.s.output = m.json.accessors.length - 1;
    return `output-extreme-${u.path}`;
  },
  // A sampler cut to its first key (LINEAR and STEP may have one; glTF-Validator asks
  // CUBICSPLINE for two).
  singleKey(r, m) {
    const uses = samplerUses(m).filter((u) => u.interpolation !== 'CUBICSPLINE');
    if (!uses.length) return null;
    const u = r.pick(uses);
    const tin = readAccessor(m, u.s.input), tout = readAccessor(m, u.s.output);
    if (!tin || !tout || tin.a.count === 0 || tout.a.count % tin.a.count) return null;
    const per = tout.a.count / tin.a.count;
    const inA = { ...structuredClone(tin.a), bufferView: newBufferView(m, encode(tin.a.componentType, tin.raw.slice(0, 1))), count: 1, min: [tin.values[0]], max: [tin.values[0]] };
    delete inA.byteOffset;
    const oraw = tout.raw.slice(0, per * tout.n);
    const outA = { ...structuredClone(tout.a), bufferView: newBufferView(m, encode(tout.a.componentType, oraw)), count: per };
    delete outA.byteOffset;
    if (outA.min) Object.assign(outA, minMax(oraw, tout.n));
    m.json.accessors.push(inA, outA);
    u.s.input = m.json.accessors.length - 2;
    u.s.output = m.json.accessors.length - 1;
    return 'single-key';
  },
  // LINEAR -> CUBICSPLINE with zero tangents: the same curve at the keys.
  toCubic(r, m) {
    const uses = samplerUses(m).filter((u) => u.interpolation === 'LINEAR');
    if (!uses.length) return null;
    const u = r.pick(uses);
    const tin = readAccessor(m, u.s.input), tout = readAccessor(m, u.s.output);
    if (!tin || !tout || tin.a.count < 2) return null;
    const per = tout.a.count / tin.a.count;
    if (!Number.isInteger(per)) return null;
    const zero = Array(per * tout.n).fill(0);
    const raw = [];
    for (let k = 0; k < tin.a.count; k++) raw.push(...zero, ...tout.raw.slice(k * per * tout.n, (k + 1) * per * tout.n), ...zero);
    const acc = { ...structuredClone(tout.a), bufferView: newBufferView(m, encode(tout.a.componentType, raw)), count: tout.a.count * 3 };
    delete acc.byteOffset;
    if (acc.min) Object.assign(acc, minMax(raw, tout.n));
    m.json.accessors.push(acc);
    u.s.output = m.json.accessors.length - 1;
    u.s.interpolation = 'CUBICSPLINE';
    return 'to-cubicspline';
  },
  // Members written at their defaults: normalized false, byteOffset 0, a sampler's LINEAR.
  explicitDefaults(r, m) {
    const accs = m.json.accessors || [];
    if (!accs.length) return null;
    for (const a of accs) {
      if (r.chance(0.5)) a.normalized = a.normalized ?? false;
      if (a.bufferView !== undefined && a.byteOffset === undefined && r.chance(0.5)) a.byteOffset = 0;
    }
    for (const bv of m.json.bufferViews || []) if (bv.byteOffset === undefined && r.chance(0.5)) bv.byteOffset = 0;
    return 'explicit-defaults';
  },
  // A channel whose target has no node: "the animated object MAY be defined by an
  // extension" (glTF 2.0, 5.7 animation.channel.target); nothing to animate.
  dropTargetNode(r, m) {
    const chans = [];
    for (const an of m.json.animations || []) for (const c of an.channels || []) if (c.target && !c.extensions && c.target.path !== 'pointer') chans.push([an, c]);
    if (!chans.length) return null;
    const [an, c] = r.pick(chans);
    if (an.channels.length < 2 && r.chance(0.5)) return null;
    delete c.target.node;
    return 'target-without-node';
  },
  // A core channel written as a KHR_animation_pointer channel to the same property.
  toPointer(r, m) {
    const chans = [];
    for (const an of m.json.animations || []) for (const c of an.channels || []) if (typeof c.target?.node === 'number' && !c.target.extensions && ['translation', 'rotation', 'scale', 'weights'].includes(c.target.path)) chans.push(c);
    if (!chans.length) return null;
    const c = r.pick(chans);
    const ptr = `/nodes/${c.target.node}/${c.target.path}`;
    c.target = { path: 'pointer', extensions: { KHR_animation_pointer: { pointer: ptr } } };
    m.json.extensionsUsed = [...new Set([...(m.json.extensionsUsed || []), 'KHR_animation_pointer'])];
    return `to-pointer-${ptr.split('/')[3]}`;
  },
  // A TRS channel on the node that instantiates a skinned mesh (glTF-Validator: the
  // warning ANIMATION_CHANNEL_TARGET_NODE_SKIN; the transform is ignored, 5.27).
  // One sampler read by a second channel, on another node (exporters share samplers
  // between nodes that move together).
  shareSampler(r, m) {
    const uses = samplerUses(m).filter((u) => ['translation', 'rotation', 'scale'].includes(u.path));
    if (!uses.length || !m.json.nodes) return null;
    const u = r.pick(uses);
    m.json.nodes.push({ name: 'fuzz_shared' });
    const node = m.json.nodes.length - 1;
    if (m.json.scenes?.length) m.json.scenes[0].nodes = [...(m.json.scenes[0].nodes || []), node];
    m.json.animations[u.ai].channels.push({ sampler: u.si, target: { node, path: u.path } });
    return 'share-sampler';
  },
  // A static matrix on a node no TRS channel targets (a parent of animated nodes, often):
  // rotations from float32 quaternions, unit conversions (x0.01, x100), small shears,
  // large translations.
  staticMatrix(r, m) {
    const animated = new Set();
    for (const an of m.json.animations || []) for (const c of an.channels || []) if (c.target?.path !== 'weights') animated.add(c.target?.node);
    const free = (m.json.nodes || []).map((n, i) => i).filter((i) => !animated.has(i));
    if (!free.length) return null;
    const nd = m.json.nodes[r.pick(free)];
    const [x, y, z] = [r.next() - 0.5, r.next() - 0.5, r.next() - 0.5];
    const w = Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z)) || 1;
    const l = Math.hypot(x, y, z, w);
    const q = [x / l, y / l, z / l, w / l].map(Math.fround);
    const [qx, qy, qz, qw] = q;
    const R = [1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qz * qw), 2 * (qx * qz - qy * qw),
      2 * (qx * qy - qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz + qx * qw),
      2 * (qx * qz + qy * qw), 2 * (qy * qz - qx * qw), 1 - 2 * (qx * qx + qy * qy)];
    const kind = r.pick(['rot', 'cm', 'tiny', 'big', 'shear-small', 'shear-tiny', 'translate-far', 'mirror']);
    const sc = { rot: [1, 1, 1], cm: [0.01, 0.01, 0.01], tiny: [1e-4, 2e-4, 1e-4], big: [100, 100, 250], 'shear-small': [1, 1, 1], 'shear-tiny': [0.001, 0.001, 0.001], 'translate-far': [1, 1, 1], mirror: [-1, 1, 1] }[kind];
    const M = [];
    for (let c = 0; c < 3; c++) { for (let k = 0; k < 3; k++) M.push(Math.fround(R[c * 3 + k] * sc[c])); M.push(0); }
    if (kind.startsWith('shear')) M[4] = Math.fround(M[4] + 2e-5 * (kind === 'shear-tiny' ? 1 : 0.5));
    const t = kind === 'translate-far' ? [123456.7, -98765.4, 5e5] : [Math.fround(r.next()), 2, -3];
    M.push(...t.map(Math.fround), 1);
    delete nd.translation; delete nd.rotation; delete nd.scale;
    nd.matrix = M;
    return `static-matrix-${kind}`;
  },
  // A static rotation off unit length by float32 rounding or a little more.
  staticRotation(r, m) {
    const nodes = m.json.nodes || [];
    if (!nodes.length) return null;
    const nd = r.pick(nodes);
    if (nd.matrix) return null;
    const f = r.pick([1 + 1e-6, 1 - 4e-6, 1.005, 0.995]);
    const [x, y, z] = [r.next() - 0.5, r.next() - 0.5, r.next() - 0.5];
    const w = Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z)) || 1;
    const l = Math.hypot(x, y, z, w) / f;
    nd.rotation = [x / l, y / l, z / l, w / l].map(Math.fround);
    return `static-rotation-${f}`;
  },
  // skin.skeleton: the first joint's parent (a common root), or the first joint.
  skinSkeleton(r, m) {
    const skins = m.json.skins || [];
    if (!skins.length) return null;
    const sk = r.pick(skins);
    if (!sk.joints?.length) return null;
    const parent = (m.json.nodes || []).findIndex((n) => (n.children || []).includes(sk.joints[0]));
    sk.skeleton = parent >= 0 && r.chance(0.5) ? parent : sk.joints[0];
    return 'skin-skeleton';
  },
  // Inverse bind matrices whose fourth row is written as -0 (equal to 0).
  ibmNegativeZero(r, m) {
    const skins = (m.json.skins || []).filter((s) => s.inverseBindMatrices !== undefined);
    if (!skins.length) return null;
    const sk = r.pick(skins);
    const a = m.json.accessors[sk.inverseBindMatrices];
    const bv = m.json.bufferViews?.[a?.bufferView];
    if (!a || !bv || a.componentType !== 5126 || a.sparse || bv.byteStride) return null;
    const raw = new Float32Array(a.count * 16);
    const src = m.bins[bv.buffer];
    const base = (bv.byteOffset || 0) + (a.byteOffset || 0);
    const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
    for (let k = 0; k < raw.length; k++) raw[k] = dv.getFloat32(base + 4 * k, true);
    for (let e = 0; e < a.count; e++) for (const k of [3, 7, 11]) if (raw[e * 16 + k] === 0) raw[e * 16 + k] = -0;
    const acc = { ...structuredClone(a), bufferView: newBufferView(m, new Uint8Array(raw.buffer)) };
    delete acc.byteOffset;
    m.json.accessors.push(acc);
    sk.inverseBindMatrices = m.json.accessors.length - 1;
    return 'ibm-negative-zero';
  },
  // A new animation of a property through KHR_animation_pointer: a material's factors
  // (also when pbrMetallicRoughness is absent: it has defaults, glTF 2.0 5.19), a
  // punctual light's intensity and colour (the light added).
  propertyPointer(r, m) {
    const targets = [];
    (m.json.materials || []).forEach((mat, i) => {
      targets.push([`/materials/${i}/pbrMetallicRoughness/baseColorFactor`, 4], [`/materials/${i}/pbrMetallicRoughness/metallicFactor`, 1],
        [`/materials/${i}/pbrMetallicRoughness/roughnessFactor`, 1], [`/materials/${i}/emissiveFactor`, 3]);
      targets.push([`/materials/${i}/alphaCutoff`, 1]);
      if (mat.normalTexture) targets.push([`/materials/${i}/normalTexture/scale`, 1]);
      if (mat.occlusionTexture) targets.push([`/materials/${i}/occlusionTexture/strength`, 1]);
      if (mat.pbrMetallicRoughness?.baseColorTexture?.extensions?.KHR_texture_transform) {
        const b = `/materials/${i}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform`;
        targets.push([`${b}/offset`, 2], [`${b}/scale`, 2], [`${b}/rotation`, 1]);
      }
      for (const [ext, prop, n] of [['KHR_materials_emissive_strength', 'emissiveStrength', 1], ['KHR_materials_ior', 'ior', 1],
        ['KHR_materials_transmission', 'transmissionFactor', 1], ['KHR_materials_specular', 'specularFactor', 1],
        ['KHR_materials_specular', 'specularColorFactor', 3], ['KHR_materials_clearcoat', 'clearcoatFactor', 1], ['KHR_materials_sheen', 'sheenColorFactor', 3]]) {
        if (mat.extensions?.[ext] && (m.json.extensionsUsed || []).includes(ext)) targets.push([`/materials/${i}/extensions/${ext}/${prop}`, n]);
      }
    });
    (m.json.cameras || []).forEach((c, i) => {
      if (c.perspective) targets.push([`/cameras/${i}/perspective/yfov`, 1], [`/cameras/${i}/perspective/znear`, 1]);
      if (c.orthographic) targets.push([`/cameras/${i}/orthographic/xmag`, 1], [`/cameras/${i}/orthographic/zfar`, 1]);
    });
    if (m.json.nodes?.length) targets.push(['light-intensity', 1], ['light-color', 3]);
    if (!targets.length) return null;
    let [ptr, n] = r.pick(targets);
    if (ptr.startsWith('light')) {
      const root = (m.json.extensions = m.json.extensions || {});
      const lp = (root.KHR_lights_punctual = root.KHR_lights_punctual || { lights: [] });
      lp.lights.push(r.pick([{ type: 'point' }, { type: 'directional', intensity: 2 }, { type: 'spot', spot: {} }]));
      const li = lp.lights.length - 1;
      const nd = r.pick(m.json.nodes);
      nd.extensions = { ...(nd.extensions || {}), KHR_lights_punctual: { light: li } };
      m.json.extensionsUsed = [...new Set([...(m.json.extensionsUsed || []), 'KHR_lights_punctual'])];
      ptr = `/extensions/KHR_lights_punctual/lights/${li}/${ptr === 'light-intensity' ? 'intensity' : 'color'}`;
    }
    const times = [0, 0.5, 1].map(Math.fround);
    const vals = [];
    for (let k = 0; k < 3; k++) for (let c = 0; c < n; c++) vals.push(Math.fround(0.25 * (k + 1)));
    m.json.accessors = m.json.accessors || [];
    m.json.accessors.push({ bufferView: newBufferView(m, encode(5126, times)), componentType: 5126, count: 3, type: 'SCALAR', min: [0], max: [1] });
    m.json.accessors.push({ bufferView: newBufferView(m, encode(5126, vals)), componentType: 5126, count: 3, type: ['SCALAR', 'VEC2', 'VEC3', 'VEC4'][n - 1] });
    const a = m.json.accessors.length;
    m.json.animations = m.json.animations || [];
    m.json.animations.push({ channels: [{ sampler: 0, target: { path: 'pointer', extensions: { KHR_animation_pointer: { pointer: ptr } } } }], samplers: [{ input: a - 2, output: a - 1, interpolation: r.pick(['LINEAR', 'STEP']) }] });
    m.json.extensionsUsed = [...new Set([...(m.json.extensionsUsed || []), 'KHR_animation_pointer'])];
    return `pointer-${ptr.replace(/\/\d+(?=\/|$)/g, '/N').replace(/^\//, '').replace(/\//g, '.')}`;
  },
  // EXT_mesh_gpu_instancing on a node with a mesh, with TRANSLATION and maybe ROTATION.
  gpuInstancing(r, m) {
    const nodes = (m.json.nodes || []).filter((n) => n.mesh !== undefined && n.skin === undefined);
    if (!nodes.length) return null;
    const nd = r.pick(nodes);
    const count = 1 + r.int(4);
    const tr = [];
    for (let k = 0; k < count; k++) tr.push(k, 0, Math.fround(-k * 0.5));
    m.json.accessors.push({ bufferView: newBufferView(m, encode(5126, tr)), componentType: 5126, count, type: 'VEC3' });
    const attributes = { TRANSLATION: m.json.accessors.length - 1 };
    if (r.chance(0.5)) {
      const rot = [];
      for (let k = 0; k < count; k++) rot.push(0, 0, 0, 1);
      m.json.accessors.push({ bufferView: newBufferView(m, encode(5126, rot)), componentType: 5126, count, type: 'VEC4' });
      attributes.ROTATION = m.json.accessors.length - 1;
    }
    nd.extensions = { ...(nd.extensions || {}), EXT_mesh_gpu_instancing: { attributes } };
    m.json.extensionsUsed = [...new Set([...(m.json.extensionsUsed || []), 'EXT_mesh_gpu_instancing'])];
    return 'gpu-instancing';
  },
  animateSkinnedNode(r, m) {
    const ni = (m.json.nodes || []).findIndex((n) => n.skin !== undefined);
    const uses = samplerUses(m).filter((u) => u.path === 'translation' || u.path === 'rotation' || u.path === 'scale');
    if (ni < 0 || !uses.length) return null;
    const u = r.pick(uses);
    const an = m.json.animations[u.ai];
    if (an.channels.some((c) => c.target?.node === ni && c.target.path === u.path)) return null;
    an.channels.push({ sampler: u.si, target: { node: ni, path: u.path } });
    delete m.json.nodes[ni].matrix;
    return `animate-skinned-node-${u.path}`;
  },
  sparsify,
  relayout,
  retime,
  outputMinMax,
  interpolationCase(r, m) {
    const uses = samplerUses(m).filter((u) => u.s.interpolation === undefined || u.s.interpolation === 'LINEAR');
    if (!uses.length) return null;
    const u = r.pick(uses);
    if (u.s.interpolation === undefined) { u.s.interpolation = 'LINEAR'; return 'explicit-linear'; }
    delete u.s.interpolation;
    return 'default-linear';
  },
};

// How often each mutation is drawn (default 1): those whose mutants glTF-Validator
// mostly refuses (an empty animation is EMPTY_ENTITY, byteStride on animation data
// ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE) test the "missed" side and are drawn less.
const WEIGHTS = { propertyPointer: 2, zeroChannelAnimation: 0.15, emptyOptionalArrays: 0.3, matrixOnAnimatedNode: 0.4, relayout: 1.5, sparsify: 2, quantizeOutput: 1.5, retime: 1.5, emptyNodeChannel: 1.5 };
const MUTATION_NAMES = Object.keys(MUTATIONS);
const WEIGHT_TOTAL = MUTATION_NAMES.reduce((t, n) => t + (WEIGHTS[n] ?? 1), 0);
function pickMutation(r) {
  let x = r.next() * WEIGHT_TOTAL;
  for (const n of MUTATION_NAMES) { x -= WEIGHTS[n] ?? 1; if (x < 0) return n; }
  return MUTATION_NAMES[MUTATION_NAMES.length - 1];
}

// ---- Running the tools.
function run(cmd, args, timeout) {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout, maxBuffer: 256 * 1024 * 1024, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, signal: err?.signal || null, killed: !!err?.killed, stdout, stderr });
    });
  });
}

async function gvValidate(dir, file) {
  const bytes = new Uint8Array(fs.readFileSync(path.join(dir, file)));
  return validator.validateBytes(bytes, {
    uri: file,
    maxIssues: 0,
    externalResourceFunction: async (uri) => new Uint8Array(fs.readFileSync(path.join(dir, decodeURIComponent(uri)))),
  });
}

// Documented difference: the data of an accessor without bufferView (nor sparse) is
// checked as the zeros it holds (docs/VALIDATOR.md).
function implicitZerosIssue(json, pointer) {
  const t = pointer.split('/').slice(1);
  let ai = null;
  if (t[0] === 'accessors') ai = Number(t[1]);
  else if (t[0] === 'animations' && t[2] === 'samplers' && (t[4] === 'input' || t[4] === 'output')) ai = json.animations?.[t[1]]?.samplers?.[t[3]]?.[t[4]];
  else if (t[0] === 'animations' && t[2] === 'channels') {
    const an = json.animations?.[t[1]];
    const s = an?.samplers?.[an?.channels?.[t[3]]?.sampler];
    if (s) return [s.input, s.output].some((x) => json.accessors?.[x] && json.accessors[x].bufferView === undefined && !json.accessors[x].sparse);
  }
  const a = json.accessors?.[ai];
  return !!a && a.bufferView === undefined && !a.sparse;
}

// Other documented differences (docs/VALIDATOR.md), each as narrow as its reading, so
// that a false error beside them still counts: the reason, or null.
function documentedDifference(json, issue) {
  const p = issue.pointer || '';
  // "If the static matrix property is defined on the node object in JSON, the
  // corresponding rotation and scale pointers are undefined" (Object Model, KHR_animation_pointer
  // section of VALIDATOR.md); glTF-Validator does not resolve pointers.
  if (issue.code === 'ANIMATION_CHANNEL_TARGET_NODE_MATRIX' && p.endsWith('/extensions/KHR_animation_pointer/pointer')) {
    const t = p.split('/');
    const target = json.animations?.[t[2]]?.channels?.[t[4]]?.target?.extensions?.KHR_animation_pointer?.pointer;
    const mm = /^\/nodes\/(\d+)\/(rotation|scale)$/.exec(target || '');
    if (mm && json.nodes?.[mm[1]]?.matrix) return 'pointer-to-rotation-or-scale-of-matrix-node';
  }
  // NODE_MATRIX_NON_TRS: columns orthogonal within a relative 5e-5 here; glTF-Validator's
  // absolute 5e-5 after a float32 round trip lets a shear through when the columns are short.
  if (issue.code === 'NODE_MATRIX_NON_TRS') {
    const mt = json.nodes?.[p.split('/')[2]]?.matrix;
    if (Array.isArray(mt) && mt.length === 16 && [0, 4, 8].every((c) => Math.hypot(mt[c], mt[c + 1], mt[c + 2]) < 1)) return 'matrix-shear-below-absolute-tolerance';
  }
  return null;
}

function animationAccessors(json) {
  const s = new Set();
  for (const an of json.animations || []) for (const sm of an.samplers || []) { s.add(sm.input); s.add(sm.output); }
  return s;
}

async function judge(opts, dir, w, m) {
  const gv = await gvValidate(dir, w.file);
  const gvErrors = gv.issues.messages.filter((x) => x.severity === 0);
  const full = path.join(dir, w.file);
  const v = await run(opts.cli, ['validate', '--format', 'json', '--no-timings', '--threads', '1', '--lints', 'off', full], opts.timeout);
  const findings = [];
  let ours = [];
  if (v.signal || v.killed || (v.code !== 0 && v.code !== 1)) findings.push({ cls: 'crash', code: v.killed ? 'VALIDATE_TIMEOUT' : `VALIDATE_EXIT_${v.code ?? v.signal}`, detail: v.stderr.slice(0, 2000) });
  else {
    try { ours = JSON.parse(v.stdout).reports[0].issues.messages; } catch (e) { findings.push({ cls: 'crash', code: 'VALIDATE_BAD_JSON', detail: String(e) }); }
  }
  for (const x of ours) if (x.code === 'INTERNAL_ERROR') findings.push({ cls: 'crash', code: 'INTERNAL_ERROR', detail: x.message });
  const json = m.json;
  const ourErrors = ours.filter((x) => x.severity === 0);
  if (gvErrors.length === 0) {
    for (const x of ourErrors) {
      if (x.pointer !== undefined && implicitZerosIssue(json, x.pointer)) continue;
      const why = documentedDifference(json, x);
      if (why) { findings.push({ cls: 'documented', code: `${x.code}:${why}`, detail: `${x.pointer}: ${x.message}` }); continue; }
      findings.push({ cls: 'false-error', code: x.code, detail: `${x.pointer ?? x.offset}: ${x.message}` });
    }
  } else {
    const anim = animationAccessors(json);
    const oursKey = new Set(ours.map((x) => `${x.code} ${x.pointer}`));
    for (const x of gvErrors) {
      const p = x.pointer || '';
      const t = p.split('/');
      const related = p.startsWith('/animations/') || (t[1] === 'accessors' && anim.has(Number(t[2])));
      if (related && !oursKey.has(`${x.code} ${x.pointer}`) && !ours.some((o) => o.code === x.code)) findings.push({ cls: 'missed', code: x.code, detail: `${p}: ${x.message}` });
    }
  }
  if (gvErrors.length === 0 && (json.animations || []).length) {
    // The default times (every key, quarter points, before and after): what a user runs.
    const s = await run(opts.cli, ['sample', full, '--no-keyframes', '--threads', '1', '--output', '/dev/null'], opts.timeout);
    if (s.signal || s.killed || (s.code !== 0 && s.code !== 1)) findings.push({ cls: 'crash', code: s.killed ? 'SAMPLE_TIMEOUT' : `SAMPLE_EXIT_${s.code ?? s.signal}`, detail: s.stderr.slice(0, 2000) });
    else if (s.code === 1) {
      const zeros = ourErrors.length > 0 && ourErrors.every((x) => x.pointer !== undefined && (implicitZerosIssue(json, x.pointer) || documentedDifference(json, x)));
      if (!zeros) findings.push({ cls: 'no-sample', code: 'SAMPLE_REFUSED', detail: s.stderr.slice(0, 2000) });
    }
    if (/internal error/i.test(s.stderr)) findings.push({ cls: 'crash', code: 'SAMPLE_INTERNAL_ERROR', detail: s.stderr.slice(0, 2000) });
  }
  return { gvErrors: gvErrors.length, ourErrors: ourErrors.length, findings, gvCodes: gvErrors.map((x) => `${x.code} ${x.pointer}`) };
}

// ---- Main.
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  fs.mkdirSync(opts.work, { recursive: true });
  const mutDir = path.join(opts.work, 'mutants');
  fs.rmSync(mutDir, { recursive: true, force: true });
  fs.rmSync(path.join(opts.work, 'findings'), { recursive: true, force: true });
  fs.mkdirSync(mutDir, { recursive: true });

  let seedFiles = opts.seeds.length ? opts.seeds.flatMap(listAssets)
    : [...listAssets(path.join(ROOT, 'conformance_assets', 'valid')), ...listAssets(path.join(SHARED, 'corpus')), ...khronosAccepted()];
  seedFiles = seedFiles.filter((f) => fs.statSync(f).size <= opts.maxSeedKb * 1024);
  const seeds = [];
  const seedsWithOurErrors = [];
  for (const f of seedFiles) {
    let s;
    try { s = loadSeed(f); } catch { s = null; }
    if (!s) continue;
    // The seed as the mutants are written (images inlined, buffers re-homed) must itself
    // be accepted by glTF-Validator.
    const w = writeMutant(s, mutDir, 'seedcheck', 'gltf');
    const gv = await gvValidate(mutDir, w.file);
    if (gv.issues.numErrors !== 0) continue;
    // A seed we already give an error is a known, documented difference (BlenderIO_24's
    // pointers, docs/VALIDATOR.md): its mutants would only repeat it. Listed, not mutated.
    const v = await run(opts.cli, ['validate', '--format', 'json', '--no-timings', '--lints', 'off', path.join(mutDir, w.file)], opts.timeout);
    let errs = -1;
    try {
      errs = JSON.parse(v.stdout).reports[0].issues.messages.filter((x) => x.severity === 0 && !(x.pointer !== undefined && implicitZerosIssue(s.json, x.pointer))).length;
    } catch { errs = -1; }
    if (errs === 0) seeds.push(s);
    else seedsWithOurErrors.push(path.relative(ROOT, f));
  }
  for (const f of seedsWithOurErrors) console.error(`difffuzz: seed with an error of ours, not mutated: ${f}`);
  if (!seeds.length) { console.error('difffuzz.mjs: no seed asset'); process.exit(2); }
  console.error(`difffuzz: ${seeds.length} seeds of ${seedFiles.length} files; ${opts.mutants} mutants, seed ${opts.seed}`);

  const started = Date.now();
  const animated = seeds.filter((s) => (s.json.animations || []).length);
  const r = rng(opts.seed);
  // The mutants are made in order from one PRNG (reproducible), then judged in parallel.
  const plan = [];
  for (let i = 0; i < opts.mutants; i++) {
    // Most mutations are about animations: 3 mutants in 4 start from an animated seed.
    const seed = animated.length && r.chance(0.75) ? animated[r.int(animated.length)] : seeds[r.int(seeds.length)];
    const m = { json: structuredClone(seed.json), bins: seed.bins.slice() };
    const applied = [];
    const k = 1 + r.int(4);
    for (let tries = 0; applied.length < k && tries < 12; tries++) {
      const name = pickMutation(r);
      let label = null;
      try { label = MUTATIONS[name](r, m); } catch (e) { label = null; }
      if (label) applied.push(label);
    }
    const container = r.pick(['gltf', 'external', 'glb']);
    const style = {};
    if (r.chance(0.1)) style.floatInts = r.pick([1, 2]);
    if (r.chance(0.2)) style.gltfBufferMime = true;
    if (r.chance(0.2)) style.spaces = true;
    if (r.chance(0.1)) style.slack = r.pick([4, 8, 64]);
    if (container === 'external' && r.chance(0.15)) style.longFile = r.pick([1, 3, 4, 100]);
    for (const [k, v] of Object.entries(style)) applied.push(`style-${k}${v === true ? '' : `-${v}`}`);
    plan.push({ i, seed: path.relative(ROOT, seed.file), m, applied, container, style });
  }

  const stats = { mutants: 0, gvAccepted: 0, withFindings: 0, byClass: {}, byCode: {}, gvRefusedBy: {}, byMutation: {} };
  const findingsOut = [];
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const p = plan[next++];
      const name = `m${String(p.i).padStart(6, '0')}`;
      const dir = path.join(mutDir, name);
      fs.mkdirSync(dir, { recursive: true });
      const w = writeMutant(p.m, dir, name, p.container, p.style);
      let res;
      try { res = await judge(opts, dir, w, p.m); } catch (e) { res = { findings: [{ cls: 'harness', code: 'HARNESS_ERROR', detail: String(e.stack || e) }], gvErrors: -1 }; }
      stats.mutants++;
      if (stats.mutants % 500 === 0) console.error(`difffuzz: ${stats.mutants} mutants, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      for (const a of new Set(p.applied.map((x) => x.replace(/-\d+$/, '')))) {
        const e = (stats.byMutation[a] = stats.byMutation[a] || { applied: 0, accepted: 0 });
        e.applied++;
        if (res.gvErrors === 0) e.accepted++;
      }
      if (res.gvErrors === 0) stats.gvAccepted++;
      // Why glTF-Validator refused mutants: a mutation that always makes invalid files
      // tests little.
      for (const c of new Set((res.gvCodes || []).map((x) => x.split(' ')[0]))) {
        const e = (stats.gvRefusedBy[c] = stats.gvRefusedBy[c] || { count: 0, mutations: {} });
        e.count++;
        for (const a of p.applied) e.mutations[a] = (e.mutations[a] || 0) + 1;
      }
      if (res.findings.length) stats.withFindings++;
      const seen = new Set();
      for (const f of res.findings) {
        const key = `${f.cls}/${f.code}`;
        if (seen.has(key)) continue;
        seen.add(key);
        stats.byClass[f.cls] = (stats.byClass[f.cls] || 0) + 1;
        const c = (stats.byCode[key] = stats.byCode[key] || { count: 0, mutations: {}, example: null });
        c.count++;
        for (const a of p.applied) c.mutations[a] = (c.mutations[a] || 0) + 1;
        const fdir = path.join(opts.work, 'findings', f.cls, f.code);
        if (!c.example || fs.readdirSync(fdir).length < 5 * 4) {
          fs.mkdirSync(fdir, { recursive: true });
          for (const x of w.files) fs.copyFileSync(path.join(dir, x), path.join(fdir, x));
          fs.writeFileSync(path.join(fdir, `${name}.finding.json`), JSON.stringify({ seed: p.seed, container: p.container, mutations: p.applied, finding: f, gvErrors: res.gvCodes }, null, 1));
          c.example = c.example || `${name} (${p.seed}; ${p.applied.join(', ')})`;
        }
        findingsOut.push({ mutant: name, seed: p.seed, container: p.container, mutations: p.applied, ...f });
      }
      if (!opts.keep) fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.jobs) }, worker));

  const summary = { seed: opts.seed, seeds: seeds.length, seedsWithOurErrors, ...stats };
  const text = JSON.stringify(summary, null, 1);
  if (opts.report) {
    const tmp = `${opts.report}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, JSON.stringify({ ...summary, findings: findingsOut }, null, 1));
    fs.renameSync(tmp, opts.report);
  }
  console.log(`mutants ${stats.mutants}, accepted by glTF-Validator ${stats.gvAccepted}, with findings ${stats.withFindings}`);
  for (const [k, c] of Object.entries(stats.byCode).sort((a, b) => b[1].count - a[1].count)) {
    const top = Object.entries(c.mutations).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([n, x]) => `${n}:${x}`).join(' ');
    console.log(`${String(c.count).padStart(6)}  ${k}  [${top}]  e.g. ${c.example}`);
  }
  const bad = ['false-error', 'no-sample', 'crash', 'harness'].some((k) => stats.byClass[k]);
  process.exit(bad ? 1 : 0);
}

main().catch((e) => { console.error(`difffuzz.mjs: ${e.stack || e}`); process.exit(2); });
