// The exporters of the round-trip matrix: each takes a suite asset (its path,
// inside the suite folder) and resolves to the bytes of the asset it writes
// back with its own loader and exporter (a .glb), or throws with the
// exporter's own message. Nothing here reads outside the suite folder (the
// loaders are given the asset's bytes and a reader confined to the suite),
// and nothing touches the network.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installProgressEvent, isInside, readConfined, withConfinedFetch } from '../../adapters/common/confined.mjs';
import { blenderExport, blenderVersion, prepareBlender } from './blender.mjs';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));

export function installedVersion(name) {
  // Packages with an "exports" map hide package.json from require.resolve.
  return JSON.parse(fs.readFileSync(path.join(HERE, '..', 'node_modules', name, 'package.json'), 'utf8')).version;
}

// Runs one stage of a round trip; its error message says which stage failed
// ("import": the exporter's own loader refused the case; "export": the
// exporter threw), with data: URIs shortened to their length.
export async function stage(name, fn) {
  try {
    return await fn();
  } catch (e) {
    const msg = String(e && e.message ? e.message : e)
      .replace(/data:([^;,\s]*);base64,[A-Za-z0-9+/=]+/g, (m, type) => `data:${type};base64,(${m.length} characters)`);
    throw new Error(`${name}: ${msg}`);
  }
}

// Confinement, the global fetch confined to the suite and Node's missing ProgressEvent: shared
// with the engine adapters (adapters/common/confined.mjs, no npm package).
export { isInside, readConfined };

// Node lacks the DOM's FileReader, which three's GLTFExporter uses to turn its
// Blobs into bytes. This is the browser's behaviour for the two calls it makes,
// built on the standard Blob API: no exporter logic is replaced.
class NodeFileReader {
  constructor() {
    this.result = null;
    this.onloadend = null;
    this.onload = null;
  }
  _finish(result) {
    this.result = result;
    const ev = { target: this };
    if (this.onload) this.onload(ev);
    if (this.onloadend) this.onloadend(ev);
  }
  readAsArrayBuffer(blob) {
    blob.arrayBuffer().then((b) => this._finish(b));
  }
  readAsDataURL(blob) {
    blob.arrayBuffer().then((b) => {
      const type = blob.type || 'application/octet-stream';
      this._finish(`data:${type};base64,${Buffer.from(b).toString('base64')}`);
    });
  }
}

async function threeExport(assetFile, suiteRoot) {
  if (typeof globalThis.FileReader === 'undefined') globalThis.FileReader = NodeFileReader;
  installProgressEvent();
  const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
  const { GLTFExporter } = await import('three/examples/jsm/exporters/GLTFExporter.js');
  const { Texture } = await import('three');
  const bytes = readConfined(suiteRoot, assetFile);
  // Buffers outside a GLB come through fetch: data: URIs pass, files are read
  // only inside the suite, anything else is refused.
  return withConfinedFetch(suiteRoot, async () => {
    const loader = new GLTFLoader();
    // Images never influence animation, and Node cannot decode them.
    loader.register((parser) => ({
      name: 'gltf_anim_placeholder_textures',
      loadTexture(i) {
        const t = new Texture();
        t.name = parser.json.textures[i].name || '';
        return Promise.resolve(t);
      },
    }));
    const resourcePath = pathToFileURL(path.dirname(assetFile) + path.sep).href;
    const gltf = await stage('import', () => new Promise((resolve, reject) =>
      loader.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), resourcePath, resolve, reject)));
    const out = await stage('export', () => new Promise((resolve, reject) =>
      new GLTFExporter().parse(gltf.scene, resolve, reject, { binary: true, animations: gltf.animations })));
    return Buffer.from(out);
  });
}

async function gltfTransformExport(assetFile, suiteRoot) {
  const { NodeIO } = await import('@gltf-transform/core');
  const { ALL_EXTENSIONS } = await import('@gltf-transform/extensions');
  readConfined(suiteRoot, assetFile); // the confinement check; NodeIO reads the same file
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  // External buffers: NodeIO resolves them beside the asset; the suite's
  // assets name only files beside themselves (checked by gltf-anim validate).
  const doc = await stage('import', () => io.read(assetFile));
  return Buffer.from(await stage('export', () => io.writeBinary(doc)));
}

function gltfpackExport(extraArgs) {
  return async (assetFile, suiteRoot) => {
    readConfined(suiteRoot, assetFile);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gltfpack-'));
    try {
      // gltfpack's wasm CLI reads and writes paths relative to its working
      // folder: give it a copy of the asset (and its .bin) in a scratch folder.
      const json = assetFile.endsWith('.gltf') ? JSON.parse(fs.readFileSync(assetFile, 'utf8')) : null;
      fs.copyFileSync(assetFile, path.join(dir, path.basename(assetFile)));
      for (const b of (json && json.buffers) || []) {
        if (b.uri && !b.uri.startsWith('data:')) {
          const src = path.join(path.dirname(assetFile), decodeURIComponent(b.uri));
          fs.writeFileSync(path.join(dir, path.basename(src)), readConfined(suiteRoot, src));
        }
      }
      const cli = require.resolve('gltfpack/cli.js');
      execFileSync(process.execPath, [cli, '-i', path.basename(assetFile), '-o', 'out.glb', ...extraArgs],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60000 });
      return fs.readFileSync(path.join(dir, 'out.glb'));
    } catch (e) {
      const msg = e.stderr ? String(e.stderr).trim().split('\n').slice(-3).join(' ') : e.message;
      throw new Error(`gltfpack (import and export): ${msg}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}

async function babylonExport(assetFile, suiteRoot) {
  const BABYLON = await import('@babylonjs/core');
  const { GLTFLoaderAnimationStartMode } = await import('@babylonjs/loaders/glTF/glTFFileLoader.js');
  await import('@babylonjs/loaders/glTF/2.0/index.js');
  const { GLTF2Export } = await import('@babylonjs/serializers/glTF/2.0/index.js');
  const bytes = readConfined(suiteRoot, assetFile);
  const realRoot = fs.realpathSync(suiteRoot);
  const glb = bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'glTF';
  const savedLog = BABYLON.Logger.Log;
  const savedWarn = BABYLON.Logger.Warn;
  BABYLON.Logger.Log = () => {};
  BABYLON.Logger.Warn = () => {};
  const engine = new BABYLON.NullEngine();
  const scene = new BABYLON.Scene(engine);
  try {
    // Buffers outside a GLB reach the loader through preprocessUrlAsync:
    // data: URIs as they are, files only inside the suite, as data: URIs.
    const confined = async (url) => {
      if (url.startsWith('data:')) return url;
      if (url.startsWith('file:')) {
        return `data:application/octet-stream;base64,${readConfined(realRoot, fileURLToPath(url)).toString('base64')}`;
      }
      throw new Error(`refusing to load ${url.slice(0, 80)}`);
    };
    const container = await stage('import', () => BABYLON.LoadAssetContainerAsync(
      glb ? new Uint8Array(bytes) : `data:model/gltf+json;base64,${bytes.toString('base64')}`, scene, {
        pluginExtension: glb ? '.glb' : '.gltf',
        rootUrl: pathToFileURL(path.dirname(fs.realpathSync(assetFile))).href + '/',
        pluginOptions: { gltf: { animationStartMode: GLTFLoaderAnimationStartMode.NONE, preprocessUrlAsync: confined } },
      }));
    container.addAllToScene();
    const out = await stage('export', () => GLTF2Export.GLBAsync(scene, 'out', {}));
    const blob = out.files['out.glb'];
    return Buffer.from(await blob.arrayBuffer());
  } finally {
    scene.dispose();
    engine.dispose();
    BABYLON.Logger.Log = savedLog;
    BABYLON.Logger.Warn = savedWarn;
  }
}

function assimpExport(assetFile, suiteRoot) {
  readConfined(suiteRoot, assetFile);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assimp-'));
  try {
    const out = path.join(dir, 'out.glb');
    const r = spawnSync('assimp', ['export', assetFile, out, '-fglb2'], { encoding: 'utf8', timeout: 60000 });
    // assimp prints its errors on standard output, an assertion on either.
    const said = `${r.stdout || ''}\n${r.stderr || ''}`.split('\n')
      .filter((l) => /ERROR|ai_assert|Exception/.test(l)).map((l) => l.trim()).slice(-1).join(' ');
    if (r.error) throw new Error(`assimp (import and export): ${r.error.message}`);
    if (r.signal) throw new Error(`assimp (import and export): killed by ${r.signal}${said ? `: ${said}` : ''}`);
    if (r.status !== 0 || !fs.existsSync(out)) throw new Error(`assimp (import and export): exit status ${r.status}${said ? `: ${said}` : ''}`);
    return Promise.resolve(fs.readFileSync(out));
  } catch (e) {
    return Promise.reject(e);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function assimpVersion() {
  try {
    const out = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'assimp-utils'], { stdio: ['ignore', 'pipe', 'ignore'] });
    return String(out).trim();
  } catch {
    return 'not installed';
  }
}

// Column order of the matrix. `version` is the pinned version that names it.
export const EXPORTERS = [
  { id: 'threejs', name: 'three.js GLTFExporter', version: () => installedVersion('three'), run: threeExport,
    what: 'GLTFLoader, then GLTFExporter.parse(scene, {binary: true, animations})' },
  { id: 'babylon', name: 'Babylon.js GLTF2Export', version: () => installedVersion('@babylonjs/serializers'), run: babylonExport,
    what: 'the glTF loader into a NullEngine scene, then GLTF2Export.GLBAsync' },
  { id: 'gltf-transform', name: 'glTF-Transform', version: () => installedVersion('@gltf-transform/core'), run: gltfTransformExport,
    what: 'NodeIO with ALL_EXTENSIONS: read, then writeBinary (no transform)' },
  { id: 'gltfpack-af0', name: 'gltfpack -af 0', version: () => installedVersion('gltfpack'), run: gltfpackExport(['-af', '0']),
    what: 'gltfpack -i IN -o OUT.glb -af 0 (keyframes kept, no resampling)' },
  { id: 'gltfpack', name: 'gltfpack (default)', version: () => installedVersion('gltfpack'), run: gltfpackExport([]),
    what: 'gltfpack -i IN -o OUT.glb (its defaults: animation resampled at 30 Hz, quantized)' },
  { id: 'assimp', name: 'assimp glb2', version: assimpVersion, run: assimpExport,
    what: 'assimp export IN OUT.glb -fglb2 (Debian assimp-utils)' },
  // `prepare` (optional): called once with the cases before any `run`, for an exporter that
  // writes every case in one process (roundtrip.mjs).
  { id: 'blender', name: 'Blender glTF add-on', version: blenderVersion, run: blenderExport, prepare: prepareBlender,
    what: 'bpy.ops.import_scene.gltf (defaults) into an empty factory scene (24 fps), then bpy.ops.export_scene.gltf with export_format=GLB, export_force_sampling=False (keys as-is), the other options their defaults (Debian blender, one headless Blender for every case)' },
];

export const HERE_DIR = HERE;
