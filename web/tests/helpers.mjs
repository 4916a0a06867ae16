// Shared by the npm package's tests: the package installed from its tarball (as a user gets
// it), the native CLI beside it, and the committed assets.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function required(name, what) {
  const value = process.env[name];
  if (!value || !existsSync(value)) {
    throw new Error(`${name} must name ${what} (got '${value ?? ''}'): see web/tests/run.sh`);
  }
  return resolve(value);
}

export const TARBALL = required('GLTF_ANIM_TARBALL', 'the npm tarball (scripts/build-web.sh prints it)');
export const NATIVE = required('GLTF_ANIM_NATIVE', 'the native gltf-anim executable');

let installed = null;

/** The package installed from the tarball into a fresh folder: {prefix, bin, moduleUrl}. */
export function installPackage() {
  if (installed) return installed;
  const prefix = mkdtempSync(join(tmpdir(), 'gltf-anim-npm-'));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', '--prefix', prefix, TARBALL], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const bin = join(prefix, 'node_modules', '.bin', 'gltf-anim');
  if (!existsSync(bin)) throw new Error(`the tarball installed no gltf-anim executable (${bin})`);
  const moduleUrl = new URL(`file://${join(prefix, 'node_modules', 'gltf-anim', 'index.js')}`).href;
  installed = { prefix, bin, moduleUrl };
  return installed;
}

/** Runs a CLI; stdout and stderr as bytes. */
export function runCli(exe, args, cwd = ROOT) {
  const r = spawnSync(exe, args, { cwd, maxBuffer: 1 << 30, env: { ...process.env, NO_COLOR: '1' } });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir` (relative to ROOT, sorted) whose name matches `pattern`. */
export function filesUnder(dir, pattern) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (pattern.test(name)) out.push(relative(ROOT, p));
    }
  };
  walk(join(ROOT, dir));
  return out;
}

/** The committed assets: the suite's valid ones, the invalid ones and the rules' valid ones. */
export function committedAssets() {
  return [
    ...filesUnder('conformance_assets/valid', /\.(gltf|glb)$/),
    ...filesUnder('conformance_assets/invalid', /\.(gltf|glb)$/),
    ...filesUnder('conformance_assets/rules_valid', /\.(gltf|glb)$/),
  ];
}

/**
 * A small animated asset for the repair tools, in one of three containers: 'gltf' (a .gltf
 * with `NAME.bin` beside it), 'data-uri' (the buffer inline) or 'glb'. 90 keys at 30 Hz of a
 * LINEAR translation and rotation sharing one time accessor (smooth curves `reduce` and `fit`
 * can thin out), a STEP scale that never changes (collapses), a CUBICSPLINE translation on a
 * second node. `broken` adds what `fix` repairs: a rotation key of length 1.5, a rotation key
 * negated (the lint of a negative dot), two keys at the same time, and cubic end tangents that
 * are not zero. Returns {name: bytes} (the asset first).
 */
export function repairAsset(name, container, { broken = false } = {}) {
  const n = 90;
  const times = Float32Array.from({ length: n }, (_, i) => i / 30);
  if (broken) times[31] = times[30];
  const translation = new Float32Array(3 * n);
  const rotation = new Float32Array(4 * n);
  const scale = new Float32Array(3 * n).fill(1);
  for (let i = 0; i < n; ++i) {
    const t = i / 30;
    translation.set([Math.sin(t), 0.5 * t, 0.1 * Math.cos(2 * t)], 3 * i);
    const half = (0.8 * t + 0.05 * Math.sin(5 * t)) / 2;
    rotation.set([0, Math.sin(half), 0, Math.cos(half)], 4 * i);
  }
  if (broken) {
    for (let c = 0; c < 4; ++c) rotation[4 * 10 + c] *= 1.5;
    for (let c = 0; c < 4; ++c) rotation[4 * 20 + c] = -rotation[4 * 20 + c];
  }
  const m = 12;
  const cubicTimes = Float32Array.from({ length: m }, (_, i) => i / 4);
  const cubic = new Float32Array(9 * m);
  for (let i = 0; i < m; ++i) {
    const t = i / 4;
    // in-tangent, value, out-tangent: the curve (t^2, sin t, 1) and its derivative.
    cubic.set([2 * t, Math.cos(t), 0, t * t, Math.sin(t), 1, 2 * t, Math.cos(t), 0], 9 * i);
  }
  if (!broken) {
    cubic.fill(0, 0, 3);
    cubic.fill(0, 9 * m - 3);
  }
  const arrays = [times, translation, rotation, scale, cubicTimes, cubic];
  const views = [];
  let length = 0;
  for (const a of arrays) {
    views.push({ buffer: 0, byteOffset: length, byteLength: a.byteLength });
    length += a.byteLength;
  }
  const bin = new Uint8Array(length);
  arrays.forEach((a, i) => bin.set(new Uint8Array(a.buffer), views[i].byteOffset));
  const bounds = (a) => ({ min: [Math.min(...a)], max: [Math.max(...a)] });
  const accessor = (view, count, type) => ({ bufferView: view, componentType: 5126, count, type });
  const buffer = { byteLength: length };
  if (container === 'gltf') buffer.uri = `${name}.bin`;
  if (container === 'data-uri') {
    buffer.uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  }
  const gltf = {
    asset: { version: '2.0', generator: 'gltf-anim web tests' },
    scene: 0,
    scenes: [{ nodes: [0, 1, 2] }],
    nodes: [{ name: 'walker' }, { name: 'steady' }, { name: 'curve' }],
    buffers: [buffer],
    bufferViews: views,
    accessors: [
      { ...accessor(0, n, 'SCALAR'), ...bounds(times) },
      accessor(1, n, 'VEC3'),
      accessor(2, n, 'VEC4'),
      accessor(3, n, 'VEC3'),
      { ...accessor(4, m, 'SCALAR'), ...bounds(cubicTimes) },
      accessor(5, 3 * m, 'VEC3'),
    ],
    animations: [{
      name: 'walk',
      samplers: [
        { input: 0, output: 1 },
        { input: 0, output: 2, interpolation: 'LINEAR' },
        { input: 0, output: 3, interpolation: 'STEP' },
        { input: 4, output: 5, interpolation: 'CUBICSPLINE' },
      ],
      channels: [
        { sampler: 0, target: { node: 0, path: 'translation' } },
        { sampler: 1, target: { node: 0, path: 'rotation' } },
        { sampler: 2, target: { node: 1, path: 'scale' } },
        { sampler: 3, target: { node: 2, path: 'translation' } },
      ],
    }],
  };
  const json = new TextEncoder().encode(JSON.stringify(gltf, null, 1));
  if (container !== 'glb') {
    const files = { [`${name}.gltf`]: json };
    if (container === 'gltf') files[`${name}.bin`] = bin;
    return files;
  }
  return { [`${name}.glb`]: glbBytes(json, bin) };
}

/**
 * A GLB of a JSON chunk (bytes, padded with spaces) and a BIN chunk: bytes, or a byte count
 * (that many zeros, without building them twice).
 */
export function glbBytes(json, bin) {
  const jsonLength = (json.length + 3) & ~3;
  const binLength = ((typeof bin === 'number' ? bin : bin.length) + 3) & ~3;
  const glb = new Uint8Array(12 + 8 + jsonLength + 8 + binLength);
  const view = new DataView(glb.buffer);
  view.setUint32(0, 0x46546c67, true); // glTF
  view.setUint32(4, 2, true);
  view.setUint32(8, glb.length, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true); // JSON
  glb.fill(0x20, 20, 20 + jsonLength);
  glb.set(json, 20);
  view.setUint32(20 + jsonLength, binLength, true);
  view.setUint32(24 + jsonLength, 0x004e4942, true); // BIN
  if (typeof bin !== 'number') glb.set(bin, 28 + jsonLength);
  return glb;
}

// Values within 4 ulps: a rotation's slerp calls sin/cos/acos, and emscripten's libm (musl)
// may round the last bit differently from glibc's; everything else is exact.
export function closeTo(got, want, path = '') {
  if (typeof want === 'number') {
    assert.ok(Math.abs(got - want) <= 4 * Number.EPSILON * Math.max(1, Math.abs(want)), `${path}: ${got} vs ${want}`);
  } else if (want && typeof want === 'object') {
    assert.equal(Array.isArray(got), Array.isArray(want), path);
    assert.deepEqual(Object.keys(got), Object.keys(want), path);
    for (const k of Object.keys(want)) closeTo(got[k], want[k], `${path}/${k}`);
  } else {
    assert.equal(got, want, path);
  }
}
