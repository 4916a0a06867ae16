// The npm package's `gltf-anim` against the native CLI: for the same arguments in the same
// folder, the same exit code, the same standard output and the same standard error, byte for
// byte (timings off: they are the only part that may differ between two runs).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync, linkSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync,
  symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';

import {
  NATIVE, ROOT, committedAssets, filesUnder, installPackage, repairAsset, runCli,
} from './helpers.mjs';

const { bin } = installPackage();

function same(args, what = args.join(' '), cwd = ROOT) {
  return sameRuns(runCli(NATIVE, args, cwd), runCli(bin, args, cwd), what);
}

function sameRuns(native, npm, what) {
  assert.equal(npm.signal, null, `${what}: the npm CLI died by ${npm.signal}`);
  assert.equal(npm.status, native.status, `${what}: exit code\n${npm.stderr}`);
  assert.equal(npm.stderr.toString(), native.stderr.toString(), `${what}: standard error`);
  // Byte for byte; the text first for a readable failure.
  assert.equal(npm.stdout.toString(), native.stdout.toString(), `${what}: standard output`);
  assert.ok(npm.stdout.equals(native.stdout), `${what}: standard output bytes`);
  return native;
}

const assets = committedAssets();

test('the committed assets are there', () => {
  // 87 valid suite assets, 146 invalid and 16 rules assets when this test was written.
  assert.ok(assets.length >= 200, `${assets.length} assets`);
});

for (const format of ['json', 'text', 'sarif', 'junit', 'md', 'github']) {
  test(`validate --format ${format}: every committed asset, one run`, () => {
    const r = same(['validate', '--no-config', '--no-timings', '--format', format, '--', ...assets]);
    assert.equal(r.status, 1, 'the invalid assets fail the run');
  });
}

test('validate, one asset of each invalid folder alone, json: exit code and report', () => {
  const seen = new Set();
  for (const asset of filesUnder('conformance_assets/invalid', /\.gltf$/)) {
    const folder = dirname(asset);
    if (seen.has(folder)) continue;
    seen.add(folder);
    same(['validate', '--no-config', '--no-timings', '--format', 'json', asset]);
  }
});

test('validate a folder (walked by the CLI), text and json', () => {
  same(['validate', '--no-config', '--no-timings', 'conformance_assets/invalid']);
  same(['validate', '--no-config', '--no-timings', '--format', 'json', 'conformance_assets']);
});

test('validate: the policy options', () => {
  const dir = 'conformance_assets/invalid';
  same(['validate', '--no-config', '--no-timings', '--fail-on', 'warning', '--lints', 'warning',
    '--enable', 'LINT_*', '--ignore', 'UNUSED_OBJECT', '--severity-override', 'VALUE_NOT_IN_RANGE=1',
    '--format', 'sarif', dir]);
  same(['validate', '--no-config', '--no-timings', '--max-issues', '1', '--format', 'json', dir]);
});

test('usage and I/O errors: the same message and exit code 2', () => {
  const cases = [
    [],
    ['--version'],
    ['--help'],
    ['validate', '--help'],
    ['nonsense'],
    ['validate'],
    ['validate', '--threads', '-1', 'conformance_assets/valid'],
    ['validate', '--format', 'yaml', 'conformance_assets/valid'],
    ['validate', '--no-such-option'],
    ['validate', '--no-config', 'no/such/file.gltf'],
    ['validate', '--config', 'x.json', '--no-config', 'conformance_assets/valid'],
    ['validate', '--no-config', '--ignore', 'NO_SUCH_CODE', 'conformance_assets/valid'],
    ['sample', 'no/such/file.gltf'],
    ['sample', 'conformance_assets/valid/rotation_linear.gltf', '--rate', '0'],
    ['compare', '--golden', 'conformance_assets'],
  ];
  // Not `sample --help`: it shows the default --threads, the machine's core count natively
  // and 1 in the single-threaded wasm.
  for (const args of cases) same(args);
});

test('sample: every valid asset, json and csv', () => {
  // Byte for byte where no libm function is called (slerp's sin/cos/acos may differ in the
  // last bit between musl and glibc: web/tests/api.test.mjs compares those within 4 ulps).
  for (const asset of filesUnder('conformance_assets/valid', /^(translation|scale)_(linear|step)\.gltf$/)) {
    same(['sample', '--threads', '1', asset]);
  }
  for (const asset of filesUnder('conformance_assets/valid', /^translation_.*\.gltf$/)) {
    same(['sample', '--threads', '1', '--format', 'csv', '--rate', '30', asset]);
  }
});

test('meshopt: gltfpack outputs (EXT_ and KHR_meshopt_compression) decode as natively', () => {
  // The decoder is Debian's meshoptimizer compiled with em++ (web/cmake/find) plus our own
  // version 1 decoder: the same reports, and the same samples where no libm call is made.
  same(['validate', '--no-config', '--no-timings', '--format', 'json', 'tests/validator/meshopt']);
  for (const asset of filesUnder('tests/validator/meshopt', /^(translation|scale|weights2)_.*\.glb$/)) {
    same(['sample', '--threads', '1', asset]);
  }
});

for (const format of ['text', 'json', 'md', 'junit', 'html']) {
  test(`compare --format ${format}: the suite against its own goldens`, () => {
    same(['compare', '--golden', 'conformance_assets', '--actual', 'conformance_assets/valid',
      '--format', format]);
  });
}

test('--output: the same file, written beside the target, and the same summary line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gltf-anim-out-'));
  try {
    const args = (out) => ['validate', '--no-config', '--no-timings', '--format', 'junit', '--output',
      out, 'conformance_assets/invalid'];
    const native = runCli(NATIVE, args(join(dir, 'native.xml')));
    const npm = runCli(bin, args(join(dir, 'npm.xml')));
    assert.equal(npm.status, native.status);
    assert.equal(npm.stderr.toString().replace('npm.xml', 'native.xml'), native.stderr.toString());
    assert.ok(readFileSync(join(dir, 'npm.xml')).equals(readFileSync(join(dir, 'native.xml'))));
    // An output that is an input is refused, as natively.
    same(['validate', '--no-config', '--output', 'conformance_assets/valid/rotation_linear.gltf',
      'conformance_assets/valid/rotation_linear.gltf']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('numbers at the edges of double read and written as natively (libc++ 13 has no floating <charconv>: web/compat)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gltf-anim-numbers-'));
  try {
    // Overflow, underflow to zero, the smallest subnormal and the rounding boundary just
    // below it, negative zero, long mantissas: each read by the loader (from_chars) and
    // reported back (to_chars).
    const edges = ['1e400', '-1e400', '1e-400', '4.9e-324', '2.4703282292062328e-324',
      '2.4703282292062327e-324', '-0', '0.30000000000000004', '1.7976931348623157e308',
      '123456789012345678901234567890', '5e-7', '1e21', '1e22', '0.1e1', '1E5'];
    const nodes = edges.map((e) => `{"translation": [${e}, 0.5, ${e}]}`);
    const gltf = `{"asset": {"version": "2.0"}, "nodes": [${nodes.join(', ')}],
      "scenes": [{"nodes": [${edges.map((_, i) => i).join(', ')}]}]}`;
    writeFileSync(join(dir, 'edges.gltf'), gltf);
    for (const format of ['json', 'text']) {
      same(['validate', '--no-config', '--no-timings', '--format', format, 'edges.gltf'], format, dir);
    }
    // Times read by the CLI and written into the samples file.
    same(['sample', '--threads', '1', '--times',
      '0,5e-7,0.1,0.30000000000000004,1e21,1.5e300,2.4703282292062328e-324',
      join(ROOT, 'conformance_assets/valid/translation_linear.gltf')], 'sample --times', dir);
    same(['sample', '--times', '1e400', join(ROOT, 'conformance_assets/valid/translation_linear.gltf')],
      'sample --times 1e400', dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('indices past 2^32 (wasm32 has a 32-bit size_t): the native issues, not a wrapped index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gltf-anim-index-'));
  try {
    const big = 4294967296; // 2^32: wraps to 0 in 32 bits
    const data = 'data:application/octet-stream;base64,AAAAAAAAgD8=';
    const gltf = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: 8, uri: data }],
      bufferViews: [{ buffer: 0, byteLength: 8 }, { buffer: big + 1, byteLength: 8 }],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
        { bufferView: big, componentType: 5126, count: 2, type: 'SCALAR' },
        { bufferView: 1, componentType: 5126, count: 2, type: 'SCALAR' },
      ],
      nodes: [{}],
      animations: [{
        samplers: [{ input: 0, output: big + 2 }, { input: big, output: 0 }],
        channels: [
          { sampler: big, target: { node: 0, path: 'translation' } },
          { sampler: 0, target: { node: big, path: 'rotation' } },
          { sampler: 1, target: { node: 0, path: 'weights' } },
        ],
      }],
    };
    writeFileSync(join(dir, 'big.gltf'), JSON.stringify(gltf));
    for (const format of ['json', 'text']) {
      same(['validate', '--no-config', '--no-timings', '--format', format, 'big.gltf'], format, dir);
    }
    same(['sample', 'big.gltf'], 'sample', dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('running out of wasm memory: a clear message and exit code 2, no output file, no crash', () => {
  // 10^7 samples a second over rotation_linear's 3.5 s (and --max-values out of the way) need
  // hundreds of millions of values: more than the 2 GiB the wasm heap may grow to.
  const dir = mkdtempSync(join(tmpdir(), 'gltf-anim-oom-'));
  try {
    const out = join(dir, 'samples.json');
    const r = runCli(bin, ['sample', '--rate', '10000000', '--max-values', '100000000000', '--output', out, '--',
      join(ROOT, 'conformance_assets/valid/rotation_linear.gltf')]);
    assert.equal(r.signal, null, `the npm CLI died by ${r.signal}`);
    assert.equal(r.status, 2, r.stderr.toString());
    assert.match(r.stderr.toString(), /^gltf-anim sample: out of memory \(/m);
    assert.deepEqual(readdirSync(dir), [], 'no output (nor its temporary) is left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The repair tools write files: each CLI runs in its own copy of the same folder, so the
// paths they print are equal and what they leave in the folder (outputs, new buffers, no
// temporaries) can be compared file by file, byte for byte.
function folderFiles(dir) {
  const out = {};
  const walk = (d, prefix) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
      else out[`${prefix}${e.name}`] = readFileSync(join(d, e.name));
    }
  };
  walk(dir, '');
  return out;
}

// `fileSizeKb`: both run under `ulimit -f` (a write past it fails with EFBIG, the CLI ignores
// SIGXFSZ natively and Node does too).
// `setup(dir)` prepares each folder further (links).
function sameWrites(files, args, what = args.join(' '), { fileSizeKb, setup } = {}) {
  const dirs = ['native', 'npm'].map((n) => mkdtempSync(join(tmpdir(), `gltf-anim-repair-${n}-`)));
  try {
    for (const dir of dirs) {
      mkdirSync(join(dir, 'out')); // a folder for outputs beside the input's
      for (const [path, bytes] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), bytes);
      }
      setup?.(dir);
    }
    const limited = (exe) => (fileSizeKb === undefined ? [exe, args]
      : ['sh', ['-c', `ulimit -f ${fileSizeKb} && exec "$0" "$@"`, exe, ...args]]);
    const native = sameRuns(runCli(...limited(NATIVE), dirs[0]), runCli(...limited(bin), dirs[1]), what);
    const [a, b] = dirs.map(folderFiles);
    assert.deepEqual(Object.keys(b), Object.keys(a), `${what}: the files left in the folder`);
    for (const name of Object.keys(a)) assert.ok(b[name].equals(a[name]), `${what}: the bytes of ${name}`);
    return { status: native.status, stdout: native.stdout.toString(), files: a };
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** A committed asset with the files beside it that it names (by relative URI). */
function committed(path, extra = []) {
  const files = { [basename(path)]: readFileSync(join(ROOT, path)) };
  for (const e of extra) files[e] = readFileSync(join(ROOT, dirname(path), e));
  return files;
}

const assetName = (files) => Object.keys(files)[0];
const broken = (container) => repairAsset('walk', container, { broken: true });
// Each case starts two CLIs (the npm one compiles its wasm each time): the cases are chosen so
// that every tool, container, option and refusal is met once, not every combination.

test('fix: committed assets (an external .bin, a .glb, data URIs); an error fix does not repair', () => {
  for (const [path, extra, format] of [
    ['valid/container_external_bin.gltf', ['container_external_bin.bin'], 'json'],
    ['valid/container_glb.glb', [], 'text'],
    ['invalid/lint/rotation_negative_dot.gltf', [], 'json'],
    ['invalid/accessor/input_shared_non_increasing.gltf', [], 'text'],
  ]) {
    const files = committed(`conformance_assets/${path}`, extra);
    const name = assetName(files);
    const r = sameWrites(files, ['fix', name, '-o', `fixed-${name}`, '--format', format]);
    assert.equal(r.status, 0, r.stdout);
    assert.ok(r.files[`fixed-${name}`], `${name}: written`);
  }
  // An output in another folder takes the buffer it needs with it (out/x.bin beside out/x.gltf).
  const external = committed('conformance_assets/valid/container_external_bin.gltf', ['container_external_bin.bin']);
  const moved = sameWrites(external, ['fix', 'container_external_bin.gltf', '-o', 'out/x.gltf']);
  assert.equal(moved.status, 0, moved.stdout);
  assert.ok(moved.files['out/x.gltf'] && moved.files['out/x.bin'], Object.keys(moved.files).join(', '));
  // Exit 1, nothing written.
  const count = committed('conformance_assets/invalid/channel/output_count.gltf');
  const stopped = sameWrites(count, ['fix', 'output_count.gltf', '-o', 'o.gltf']);
  assert.equal(stopped.status, 1);
  assert.deepEqual(Object.keys(stopped.files), ['output_count.gltf']);
});

test('fix: every repair in each container (a new .bin beside the output, a new GLB chunk)', () => {
  for (const [container, format] of [['gltf', 'json'], ['data-uri', 'text'], ['glb', 'json']]) {
    const files = broken(container);
    const name = assetName(files);
    const r = sameWrites(files, ['fix', name, '-o', `out/${name}`, '--format', format]);
    assert.equal(r.status, 0, r.stdout);
    const written = Object.keys(r.files).filter((f) => f.startsWith('out/'));
    assert.deepEqual(written, container === 'gltf' ? ['out/walk.bin', 'out/walk.gltf'] : [`out/${name}`]);
    if (format === 'json') {
      const report = JSON.parse(r.stdout);
      assert.deepEqual([report.errorsBefore, report.errorsAfter], [2, 0]);
      assert.deepEqual(report.repairs.map((x) => x.code).sort(), ['ACCESSOR_ANIMATION_INPUT_NON_INCREASING',
        'ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION', 'LINT_CUBICSPLINE_NONZERO_END_TANGENT',
        'LINT_ROTATION_NEGATIVE_DOT']);
    }
  }
});

test('fix: --only none (the same bytes), --only with errors left, --dry-run, --in-place', () => {
  const none = sameWrites(broken('data-uri'), ['fix', 'walk.gltf', '-o', 'copy.gltf', '--only', 'none', '--force']);
  assert.ok(none.files['copy.gltf'].equals(none.files['walk.gltf']), '--only none: the input\'s bytes');
  const some = sameWrites(broken('glb'), ['fix', 'walk.glb', '-o', 'x.glb', '--only', 'LINT_ROTATION_NEGATIVE_DOT']);
  assert.equal(some.status, 1, 'the errors --only leaves stop it');
  const files = broken('gltf');
  const dry = sameWrites(files, ['fix', 'walk.gltf', '--dry-run', '--format', 'json']);
  assert.deepEqual(Object.keys(dry.files).sort(), Object.keys(files).sort(), '--dry-run writes nothing');
  const inPlace = sameWrites(broken('glb'), ['fix', 'walk.glb', '--in-place']);
  assert.equal(inPlace.status, 0);
  assert.ok(!inPlace.files['walk.glb'].equals(Buffer.from(broken('glb')['walk.glb'])), '--in-place replaced it');
});

test('repair tools: refusals (by name, link and symlink; a failed write) and usage errors', () => {
  const files = broken('gltf');
  const link = (dir) => {
    linkSync(join(dir, 'walk.gltf'), join(dir, 'hard.gltf'));
    symlinkSync('walk.gltf', join(dir, 'soft.gltf'));
  };
  for (const args of [
    ['fix', 'walk.gltf', '-o', 'walk.gltf'],
    ['fix', 'walk.gltf', '-o', 'walk.bin', '--format', 'json'],
    ['fix', 'walk.gltf', '-o', 'hard.gltf'],
    ['fix', 'soft.gltf', '-o', 'walk.gltf'],
    ['fix', 'walk.gltf', '-o', 'x.gltf', '--only', 'NO_SUCH_CODE'],
    ['reduce', 'walk.gltf', '-o', 'x.gltf', '--max-error', '-1'],
    ['fit', 'walk.gltf', '-o', 'x.gltf', '--max-error', '1e-3'],
    ['migrate', 'walk.gltf', '-o', 'x.gltf', '--to', 'KHR_nothing'],
  ]) {
    const r = sameWrites(files, args, args.join(' '), { setup: link });
    assert.equal(r.status, 2, args.join(' '));
  }
  // A write that fails (past the file size limit): exit 2 with the reason, nothing left.
  const r = sameWrites(files, ['fix', 'walk.gltf', '-o', 'out/walk.gltf'], 'fix, ulimit -f 4', { fileSizeKb: 4 });
  assert.equal(r.status, 2);
  assert.deepEqual(Object.keys(r.files).sort(), Object.keys(files).sort(), 'nothing written');
});

test('reduce: each container, --quantize, --max-angle, --keep-shared-times, --dry-run', () => {
  const r = sameWrites(repairAsset('walk', 'gltf'), ['reduce', 'walk.gltf', '-o', 'out/walk.gltf', '--max-error',
    '1e-3', '--quantize', '--format', 'json']);
  assert.equal(r.status, 0, r.stdout);
  assert.ok(JSON.parse(r.stdout).channels.every((c) => c.keysAfter < c.keysBefore), r.stdout);
  sameWrites(repairAsset('walk', 'glb'), ['reduce', 'walk.glb', '-o', 'out/walk.glb', '--max-error', '2e-3',
    '--max-angle', '1e-3', '--keep-shared-times']);
  sameWrites(repairAsset('walk', 'data-uri'), ['reduce', 'walk.gltf', '--max-error', '1e-3', '--dry-run']);
});

test('fit and migrate', () => {
  for (const [container, args] of [['glb', ['--to', 'cubicslerp', '--no-fallback', '--format', 'json']],
    ['gltf', ['--to', 'cubicspline']]]) {
    const files = repairAsset('walk', container);
    const name = assetName(files);
    const r = sameWrites(files, ['fit', name, '-o', `out/${name}`, '--max-error', '1e-3', ...args]);
    assert.equal(r.status, 0, r.stdout);
  }
  for (const [asset, to] of [['animation2_slerp.gltf', 'khr_animation_pointer'],
    ['pointer_float3_linear.gltf', 'khr_animation2']]) {
    const r = sameWrites(committed(`conformance_assets/valid/${asset}`),
      ['migrate', asset, '-o', `m-${asset}`, '--to', to, '--format', 'json']);
    assert.equal(r.status, 0, r.stdout);
  }
});

// Runs both CLIs with `stdin` (a file descriptor) and a time limit: a CLI that waits on a FIFO
// fails the test instead of hanging it.
function sameWith(args, what, cwd, stdin = 'ignore') {
  const run = (exe) => {
    const r = spawnSync(exe, args, {
      cwd, stdio: [stdin, 'pipe', 'pipe'], timeout: 60000, maxBuffer: 1 << 28,
      env: { ...process.env, NO_COLOR: '1' },
    });
    if (r.error) throw new Error(`${what}: ${exe}: ${r.error.message}`);
    return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
  };
  return sameRuns(run(NATIVE), run(bin), what);
}

test('a FIFO given as IN or named as a buffer: refused at once, as natively (no wait for a writer)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gltf-anim-fifo-'));
  try {
    execFileSync('mkfifo', [join(dir, 'pipe.gltf'), join(dir, 'pipe.bin')]);
    writeFileSync(join(dir, 'asset.gltf'), JSON.stringify({
      asset: { version: '2.0' }, buffers: [{ byteLength: 8, uri: 'pipe.bin' }],
    }));
    const cases = [
      ['validate', '--no-config', '--no-timings', 'pipe.gltf'],
      ['validate', '--no-config', '--no-timings', '--format', 'json', 'asset.gltf'],
      ['sample', 'pipe.gltf'],
      ['sample', 'asset.gltf'],
      ['fix', 'pipe.gltf', '--dry-run'],
      ['reduce', 'asset.gltf', '--dry-run', '--max-error', '0.01'],
    ];
    for (const args of cases) sameWith(args, args.join(' '), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('standard input that is empty or a folder: the same messages and exit codes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gltf-anim-stdin-'));
  try {
    writeFileSync(join(dir, 'empty'), '');
    const golden = join(ROOT, 'conformance_assets');
    const cases = [
      ['validate', '--no-config', '--no-timings', '-'],
      ['sample', '-'],
      ['merge', '--no-timings', '-'],
      ['compare', '--golden', golden, '--actual=-'],
    ];
    for (const input of ['empty', '.']) {
      for (const args of cases) {
        const fd = openSync(join(dir, input), 'r');
        try {
          sameWith(args, `${args.join(' ')} < ${input}`, dir, fd);
        } finally {
          closeSync(fd);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
