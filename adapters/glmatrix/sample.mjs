#!/usr/bin/env node
// gl-matrix cross-check of the suite's EXT_animation_sqlerp CUBICSLERP cases.
// Not an engine: gl-matrix (npm gl-matrix) is a vector maths library whose
// quat.sqlerp is an independent implementation of the draft's formula. Each
// channel with EXT_animation_sqlerp is evaluated from its CUBICSLERP sampler
// (lib/sqlerp.mjs) at the golden times; every other channel is outside the
// cross-check and absent from the file (noted). The keys are read by a
// minimal FLOAT accessor reader (lib/accessors.mjs), not by gltf-anim.
// Command line and exit status: ../common/runner.mjs.
import path from 'node:path';
import { buildSamplesFile, installedVersion, runIfMain } from '../common/runner.mjs';
import { readGltf } from './lib/accessors.mjs';
import { cubicSlerpKeys, evaluateCubicSlerp } from './lib/sqlerp.mjs';

export const VERSION = installedVersion('gl-matrix');
export const GENERATOR = `gl-matrix ${VERSION} quat.sqlerp (EXT_animation_sqlerp cross-check, not an engine), gltf-anim adapters/glmatrix`;

export async function sampleAsset(assetFile, suiteRoot, golden) {
  const assetName = path.basename(assetFile);
  if (!golden) throw new Error('no golden samples file: the cross-check samples at the golden times only');
  const gltf = readGltf(assetFile, suiteRoot);
  const evaluatorOf = (ai, ci) => {
    const anim = (gltf.json.animations || [])[ai];
    const ch = anim && anim.channels[ci];
    const ext = ch && ch.extensions && ch.extensions.EXT_animation_sqlerp;
    if (!ext) return { missing: 'not an EXT_animation_sqlerp channel: outside the gl-matrix cross-check' };
    try {
      const keys = cubicSlerpKeys(gltf, anim, ext.sampler);
      return { interpolation: 'CUBICSLERP', evaluate: (t) => evaluateCubicSlerp(keys, t) };
    } catch (e) {
      return { missing: `CUBICSLERP sampler ${ext.sampler} not read: ${e.message}` };
    }
  };
  return buildSamplesFile({ assetName, generator: GENERATOR, json: gltf.json, golden, evaluatorOf });
}

runIfMain(import.meta.url, { name: `gl-matrix ${VERSION}`, short: 'glmatrix', sampleAsset });
