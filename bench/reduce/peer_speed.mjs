#!/usr/bin/env node
// glTF-Transform 4.5.1 `resample` on the tracks bench/bench_reduce.cpp reduces (1,000,000
// keys at 30 keys/s, float32, tolerance 1e-4 unless --tolerance says otherwise): the peer's
// time beside ours in docs/PERFORMANCE.md, "Keyframe reduction" (1e-4) and "fit" (1e-2).
// Prints wall time and kept keys per track.
//   node bench/reduce/peer_speed.mjs [--tolerance 1e-2]
import { Document } from '@gltf-transform/core';
import { resample } from '@gltf-transform/functions';
import { option } from '../lib/options.mjs';

const TOLERANCE = Number(option('--tolerance', '1e-4'));

const KEYS = 1_000_000;
const RATE = 30;
const f32 = (v) => Math.fround(v);

function translation() {
  const times = new Float32Array(KEYS);
  const values = new Float32Array(KEYS * 3);
  for (let k = 0; k < KEYS; ++k) {
    const s = k / RATE;
    times[k] = s;
    for (let i = 0; i < 3; ++i) values[k * 3 + i] = f32(0.5 * Math.sin(0.3 * (s + i)) + 0.05 * Math.sin(1.1 * (s + i)));
  }
  return { path: 'translation', times, values, type: 'VEC3' };
}

function rotation() {
  const times = new Float32Array(KEYS);
  const values = new Float32Array(KEYS * 4);
  for (let k = 0; k < KEYS; ++k) {
    const s = k / RATE;
    times[k] = s;
    const angle = 1.2 * Math.sin(0.5 * s);
    const tilt = 0.4 * Math.sin(0.13 * s);
    const h = 0.5 * angle;
    values.set([Math.sin(tilt) * Math.sin(h), Math.cos(tilt) * Math.sin(h), 0, Math.cos(h)], k * 4);
  }
  return { path: 'rotation', times, values, type: 'VEC4' };
}

function collinear() {
  const times = new Float32Array(KEYS);
  const values = new Float32Array(KEYS * 3);
  for (let k = 0; k < KEYS; ++k) {
    const s = k / RATE;
    times[k] = s;
    values.set([2 * s, -s, 0.5], k * 3);
  }
  return { path: 'translation', times, values, type: 'VEC3', name: 'collinear' };
}

for (const track of [translation(), rotation(), collinear()]) {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const node = doc.createNode('n');
  doc.createScene().addChild(node);
  const input = doc.createAccessor().setType('SCALAR').setArray(track.times).setBuffer(buffer);
  const output = doc.createAccessor().setType(track.type).setArray(track.values).setBuffer(buffer);
  const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation('LINEAR');
  const channel = doc.createAnimationChannel().setTargetNode(node).setTargetPath(track.path).setSampler(sampler);
  doc.createAnimation().addSampler(sampler).addChannel(channel);
  const start = process.hrtime.bigint();
  await doc.transform(resample({ tolerance: TOLERANCE }));
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`${track.name ?? track.path}: ${ms.toFixed(0)} ms, kept ${sampler.getInput().getCount()} of ${KEYS} keys`);
}
