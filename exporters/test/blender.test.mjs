// Unit test of the Blender column's hand-over (exporters/lib/blender.mjs) on a hand-made batch
// folder: what one Blender run leaves there reaches the round trip case by case (no Blender runs
// here; CTest exporter_matrix runs the real one).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blenderExport, blenderVersion, useBatch } from '../lib/blender.mjs';

test("a case's written file, its failure line and the versions come from the batch folder", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'blender-batch-'));
  try {
    const suite = path.join(root, 'suite');
    const work = path.join(root, 'work');
    fs.mkdirSync(path.join(suite, 'valid'), { recursive: true });
    fs.mkdirSync(work);
    for (const name of ['a.gltf', 'b.gltf', 'c.gltf']) fs.writeFileSync(path.join(suite, 'valid', name), '{}');
    fs.writeFileSync(path.join(work, 'a.glb'), Buffer.from('glTF-bytes'));
    fs.writeFileSync(path.join(work, 'b.error'), "import: Couldn't parse glTF. Check that the file is valid\n");
    fs.writeFileSync(path.join(work, 'versions.json'), JSON.stringify({ blender: '3.4.1', io_scene_gltf2: '3.4.50' }));
    useBatch({ suite, work, entries: [{ id: 'a', file: 'valid/a.gltf' }, { id: 'b', file: 'valid/b.gltf' }] });
    assert.equal(blenderVersion(), '3.4.1, io_scene_gltf2 3.4.50');
    assert.equal((await blenderExport(path.join(suite, 'valid/a.gltf'), suite)).toString(), 'glTF-bytes');
    await assert.rejects(blenderExport(path.join(suite, 'valid/b.gltf'), suite),
      { message: "import: Couldn't parse glTF. Check that the file is valid" });
    // A case Blender was not given is an error of the harness, not a result.
    await assert.rejects(blenderExport(path.join(suite, 'valid/c.gltf'), suite), /was not prepared/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
