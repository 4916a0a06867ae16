// Blender's glTF add-on as a column of the exporter matrix: its importer reads the case into an
// empty factory scene and its exporter writes the scene back (exporters/blender/roundtrip_export.py,
// inside Blender). Blender takes seconds to start, so one headless Blender writes every case
// first (`prepare`, called by roundtrip.mjs before the cases), and `run` hands each case's
// written file (or its failure) to the shared pipeline like any other exporter's. Debian's
// blender and python3-numpy are installed by run-all.sh (scripts/packages.sh, group "blender").
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readConfined } from '../../adapters/common/confined.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCRIPT = path.join(HERE, '..', 'blender', 'roundtrip_export.py');

// The state of the last prepare: the folder Blender wrote and which case each asset is.
const batch = { dir: undefined, caseOf: new Map(), versions: undefined };

// Runs one Blender over `entries` (manifest entries of `suite`), writing WORK/<case>.glb or
// WORK/<case>.error and WORK/versions.json; Blender's output goes to WORK/blender.log. Throws when
// Blender cannot run or stops with an error (a tool failure: roundtrip.mjs exits 2).
export function prepareBlender({ suite, entries, work }) {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const log = path.join(work, 'blender.log');
  const r = spawnSync('blender', ['--background', '--factory-startup', '-noaudio', '--threads', '1', '--python-exit-code', '2',
    '--python', SCRIPT, '--', suite, work, ...entries.map((e) => e.id)],
  { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 600000 });
  fs.writeFileSync(log, `${r.stdout || ''}${r.stderr || ''}`);
  if (r.error) throw new Error(`blender: ${r.error.message} (is Debian's blender installed? scripts/packages.sh blender)`);
  if (r.status !== 0) {
    const tail = `${r.stdout || ''}\n${r.stderr || ''}`.trim().split('\n').slice(-5).join(' | ');
    throw new Error(`blender exited with ${r.signal || r.status} (log: ${log}): ${tail}`);
  }
  useBatch({ suite, entries, work });
}

// Makes `run` hand out what a Blender run left in `work` for `entries` (prepareBlender's last
// step; the unit test's way in, without Blender).
export function useBatch({ suite, entries, work }) {
  batch.dir = work;
  batch.caseOf = new Map(entries.map((e) => [path.resolve(suite, e.file), e.id]));
  batch.versions = JSON.parse(fs.readFileSync(path.join(work, 'versions.json'), 'utf8'));
}

// The bytes Blender wrote for the case of `assetFile`, or its one-line failure ("import: ...",
// "export: ...") thrown as the exporter's error.
export async function blenderExport(assetFile, suiteRoot) {
  readConfined(suiteRoot, assetFile);
  const id = batch.caseOf.get(path.resolve(assetFile));
  if (!batch.dir || id === undefined) throw new Error('blender: the case was not prepared (roundtrip.mjs calls prepare first)');
  const stem = path.join(batch.dir, id);
  if (fs.existsSync(`${stem}.error`)) throw new Error(fs.readFileSync(`${stem}.error`, 'utf8').trim());
  return fs.readFileSync(`${stem}.glb`);
}

// "3.4.1, io_scene_gltf2 3.4.50": Blender's and its add-on's versions, as Blender reported them.
export function blenderVersion() {
  const v = batch.versions;
  return v ? `${v.blender}, io_scene_gltf2 ${v.io_scene_gltf2}` : 'not run';
}
