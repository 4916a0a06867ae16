// The pipelines of the pipeline matrix: optimization tools that transform an
// asset and write a .glb, each run in this Node process (no process per
// cell): gltfpack's wasm build through its library API (the CLI's own code
// path: gltfpack.js is a thin wrapper around pack()), glTF-Transform's CLI
// through its command-line parser (the same program object its bin runs).
// Nothing here reads outside the asset's folder or touches the network.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));

export function installedVersion(name) {
  // Packages with an "exports" map hide package.json from require.resolve.
  return JSON.parse(fs.readFileSync(path.join(HERE, '..', 'node_modules', name, 'package.json'), 'utf8')).version;
}

// A reader for gltfpack's wasm file system: the input's name maps to its
// bytes, any other name to a file beside the input (its .bin), never a path
// that leaves that folder.
function folderReader(assetFile) {
  const folder = path.resolve(path.dirname(assetFile));
  return (name) => {
    const full = path.resolve(folder, name);
    if (!full.startsWith(folder + path.sep)) throw new Error(`refusing to read ${name} outside the asset's folder`);
    return new Uint8Array(fs.readFileSync(full));
  };
}

let gltfpackLib;
async function gltfpackRun(args, assetFile) {
  // library.js instantiates library.wasm once per process (automatically in Node).
  gltfpackLib ??= require('gltfpack');
  const read = folderReader(assetFile);
  const input = path.basename(assetFile);
  let out;
  try {
    await gltfpackLib.pack(['-i', input, '-o', 'out.glb', ...args], {
      read: (name) => read(name),
      write: (name, data) => {
        if (name === 'out.glb') out = Buffer.from(data);
      },
    });
  } catch (e) {
    // gltfpack's log: its error is the last line that says so.
    const lines = String(e && e.message ? e.message : e).trim().split('\n');
    throw new Error(`gltfpack: ${(lines.filter((l) => /error/i.test(l)).pop() || lines.pop() || '').trim()}`);
  }
  if (!out) throw new Error('gltfpack: wrote no out.glb');
  return out;
}

let caporal;
async function gltfTransformRun(args, assetFile, scratch) {
  if (!caporal) {
    // The CLI registers its commands on caporal's program when imported;
    // programReady resolves once its NodeIO (every extension) is set up.
    // Its exported wrapper's run() reads process.argv: call caporal's own
    // run(argv), which parses an argument list exactly as the shell's.
    const cli = await import('@gltf-transform/cli');
    await cli.programReady;
    caporal = (await import('@donmccurdy/caporal')).program;
  }
  const out = path.join(scratch, 'out.glb');
  fs.rmSync(out, { force: true });
  try {
    await caporal.run([args[0], assetFile, out, ...args.slice(1)]);
  } catch (e) {
    throw new Error(`gltf-transform ${args[0]}: ${String(e && e.message ? e.message : e).split('\n')[0]}`);
  }
  if (!fs.existsSync(out)) throw new Error(`gltf-transform ${args[0]}: wrote no file`);
  return fs.readFileSync(out);
}

export const TOOLS = {
  gltfpack: { name: 'gltfpack', package: 'gltfpack', version: () => installedVersion('gltfpack'), run: gltfpackRun },
  'gltf-transform': { name: 'glTF-Transform CLI', package: '@gltf-transform/cli', version: () => installedVersion('@gltf-transform/cli'), run: gltfTransformRun },
};

// Column order of the matrix. `reference`: the pipeline whose sampled output
// this one must reproduce (`exact`: value for value; `filters`: within the
// precision of gltfpack's meshopt filters, lib/precision.mjs).
export const PIPELINES = [
  { id: 'gltfpack', tool: 'gltfpack', name: 'gltfpack', args: [],
    what: 'gltfpack -i IN -o OUT.glb (defaults: keys resampled at 30 Hz, rotations 16-bit, weights 8-bit)' },
  { id: 'gltfpack-c', tool: 'gltfpack', name: 'gltfpack -c', args: ['-c'], reference: 'gltfpack', exact: true,
    what: 'gltfpack -c: EXT_meshopt_compression, lossless (no filters)' },
  { id: 'gltfpack-cc', tool: 'gltfpack', name: 'gltfpack -cc', args: ['-cc'], reference: 'gltfpack', filters: true,
    what: 'gltfpack -cc: EXT_meshopt_compression with filters (rotations: quaternion filter, 12 bits)' },
  { id: 'gltfpack-kn', tool: 'gltfpack', name: 'gltfpack -kn', args: ['-kn'],
    what: 'gltfpack -kn: the defaults, named nodes kept' },
  { id: 'gt-optimize', tool: 'gltf-transform', name: 'gltf-transform optimize', args: ['optimize'],
    what: 'gltf-transform optimize IN OUT.glb (defaults: resample, prune, meshopt compression, ...)' },
  { id: 'gt-meshopt', tool: 'gltf-transform', name: 'gltf-transform meshopt', args: ['meshopt'],
    what: 'gltf-transform meshopt IN OUT.glb (quantize, then EXT_meshopt_compression)' },
  { id: 'gt-draco', tool: 'gltf-transform', name: 'gltf-transform draco', args: ['draco'],
    what: 'gltf-transform draco IN OUT.glb (KHR_draco_mesh_compression, draco3dgltf)' },
  { id: 'gt-quantize', tool: 'gltf-transform', name: 'gltf-transform quantize', args: ['quantize'],
    what: 'gltf-transform quantize IN OUT.glb (KHR_mesh_quantization)' },
  { id: 'gt-resample', tool: 'gltf-transform', name: 'gltf-transform resample', args: ['resample'],
    what: 'gltf-transform resample IN OUT.glb (redundant keys removed, tolerance 1e-4)' },
];
