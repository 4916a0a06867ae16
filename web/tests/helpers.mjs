// Shared by the npm package's tests: the package installed from its tarball (as a user gets
// it), the native CLI beside it, and the committed assets.
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
