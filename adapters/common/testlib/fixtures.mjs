// Test helpers shared by the adapters' tests: a small asset written into a
// fresh suite folder, and golden times written by hand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export { GltfBuilder } from '../../threejs/testlib/gltf-builder.mjs';

// Writes `json` as DIR/asset.gltf in a new temporary folder; returns {dir, file, cleanup}.
export function writeAsset(json, name = 'asset.gltf') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gltf-anim-adapter-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(json));
  return { dir, file, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// goldenTimes()-shaped object: channels [[target, times], ...] of animation 0.
export function golden(asset, channels) {
  return {
    asset,
    animations: [{ index: 0, name: '', channels: channels.map(([target, times], index) => ({ index, target, times })) }],
  };
}

// The samples of channel `target` in a samples-file object, as {t: value}.
export function valuesOf(file, target) {
  const ch = file.animations.flatMap((a) => a.channels).find((c) => c.target === target);
  if (!ch) return undefined;
  return new Map(ch.samples.map((s) => [s.t, s.value]));
}

// Asserts |a - b| <= tol componentwise.
export function near(assert, actual, expected, tol, what = '') {
  assert.equal(actual.length, expected.length, `${what}: ${actual} vs ${expected}`);
  actual.forEach((x, i) => assert.ok(Math.abs(x - expected[i]) <= tol, `${what}[${i}]: ${x} vs ${expected[i]} (tolerance ${tol})`));
}
