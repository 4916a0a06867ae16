// Loading: external buffers are read only from inside the suite folder; data:
// URIs go through Node's fetch; other schemes are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GltfBuilder } from '../testlib/gltf-builder.mjs';
import { loadGltf, makeConfinedFetch } from '../lib/load.mjs';

function withExternalBuffer(uri) {
  const b = new GltfBuilder();
  b.node({ name: 'n' });
  b.animation('a', [{ node: 0, path: 'translation', times: [0, 1], values: [0, 0, 0, 1, 2, 3] }]);
  const json = b.build();
  const bytes = Buffer.from(json.buffers[0].uri.split(',')[1], 'base64');
  json.buffers[0].uri = uri;
  return { json, bytes };
}

test('an external .bin inside the root loads; one outside it does not', async () => {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'threejs-load-'));
  try {
    const root = path.join(top, 'suite');
    fs.mkdirSync(path.join(root, 'valid'), { recursive: true });
    const inside = withExternalBuffer('data%20file.bin'); // percent-encoded, as a URI must be
    fs.writeFileSync(path.join(root, 'valid', 'data file.bin'), inside.bytes);
    fs.writeFileSync(path.join(root, 'valid', 'in.gltf'), JSON.stringify(inside.json));
    const gltf = await loadGltf(path.join(root, 'valid', 'in.gltf'), root);
    const track = gltf.animations[0].tracks[0];
    assert.deepEqual(Array.from(track.values), [0, 0, 0, 1, 2, 3]);

    const outside = withExternalBuffer('../../secret.bin');
    fs.writeFileSync(path.join(top, 'secret.bin'), outside.bytes);
    fs.writeFileSync(path.join(root, 'valid', 'out.gltf'), JSON.stringify(outside.json));
    await assert.rejects(loadGltf(path.join(root, 'valid', 'out.gltf'), root), /Failed to load buffer/);

    await assert.rejects(loadGltf(path.join(top, 'secret.bin'), root), /outside/);
  } finally {
    fs.rmSync(top, { recursive: true, force: true });
  }
});

test('the fetch wrapper passes data: URIs on and refuses the network', async () => {
  const f = makeConfinedFetch(null);
  const r = await f('data:application/octet-stream;base64,AQID');
  assert.deepEqual([...new Uint8Array(await r.arrayBuffer())], [1, 2, 3]);
  await assert.rejects(f('http://example.invalid/x.bin'), /refusing to fetch/);
  const denied = await f(import.meta.url); // this very file: no root, so no file may be read
  assert.equal(denied.status, 403);
});
