#!/usr/bin/env node
// Exporter round trips over the conformance suite: does an animation survive
// export?
//
//   node exporters/roundtrip.mjs --cli GLTF_ANIM --work DIR [--suite DIR]
//        [--exporters id,id] [CASE_ID ...]
//
// For every exporter of lib/exporters.mjs and every case of the suite's
// manifest that has golden samples:
//   1. the exporter imports the case with its own loader and writes it back
//      (DIR/<exporter>/<case>.glb, or the exporter's error);
//   2. `gltf-anim validate` judges the written file (DIR/<exporter>/<case>.validation.json);
//   3. `gltf-anim sample` evaluates it with the reference evaluator at the
//      golden samples' times; each golden channel is found again in the
//      written file (collections are matched by name, so an exporter may
//      renumber nodes, materials or animations) and its values are written
//      as an actual samples file under the golden channel's indices
//      (DIR/<exporter>-samples/<case>.samples.json), with what changed on
//      the way (dropped channel, interpolation, key count, key times) in
//      its adapterNotes and in DIR/<exporter>/<case>.facts.json;
//   4. `gltf-anim compare` judges every exporter's samples against the
//      goldens (DIR/<exporter>.json).
// The matrix is built from these files by matrix.mjs.
// Exit status: 0 done (cases that fail are results), 2 usage or a tool error.
import fs from 'node:fs';
import path from 'node:path';
import { EXPORTERS, readConfined } from './lib/exporters.mjs';
import {
  parseRunArgs, suiteCases, gltfJsonOf, validate, issueCounts, sampledOf, goldenTimes, refusedFacts,
  matchChannels, freshFolders, writeJson, compareWithGoldens,
} from '../tools/matrix/runner.mjs';

function parseArgs(argv) {
  return parseRunArgs(argv, { exporters: undefined }, { '--exporters': (o, v) => { o.exporters = v.split(','); } });
}

function validationOf(o, file) {
  const r = validate(o, file);
  if (r.status === 2 && !r.stdout) return { status: 2, errors: 0, warnings: 0, codes: [], message: r.stderr.trim() };
  const report = JSON.parse(r.stdout);
  return { status: r.status, ...issueCounts(report.reports ? report.reports[0] : report) };
}

function roundTrip(o, exporter, entry, outDir, samplesDir) {
  const assetFile = path.join(o.suite, entry.file);
  const golden = JSON.parse(readConfined(o.suite, path.join(o.suite, entry.samples)).toString('utf8'));
  const original = gltfJsonOf(readConfined(o.suite, assetFile));
  return exporter.run(assetFile, o.suite).then(
    (bytes) => {
      const outFile = path.join(outDir, `${entry.id}.glb`);
      fs.writeFileSync(outFile, bytes);
      const exported = gltfJsonOf(bytes);
      const validation = validationOf(o, outFile);
      const sampled = sampledOf(o, outFile, goldenTimes(golden));
      const facts = { exported: true, validation, channels: [] };
      const file = matchChannels({ golden, original, exported, sampled, facts,
        generator: `${exporter.name} ${exporter.version()} round trip, gltf-anim exporters/` });
      writeJson(path.join(samplesDir, path.basename(entry.samples)), file);
      return facts;
    },
    (err) => refusedFacts(err, original),
  );
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`roundtrip.mjs: ${e.message}`);
    return 2;
  }
  const { entries } = suiteCases(o);
  const exporters = o.exporters ? EXPORTERS.filter((e) => o.exporters.includes(e.id)) : EXPORTERS;
  fs.mkdirSync(o.work, { recursive: true });
  const versions = {};
  for (const exporter of exporters) {
    const outDir = path.join(o.work, exporter.id);
    const samplesDir = path.join(o.work, `${exporter.id}-samples`);
    freshFolders(outDir, samplesDir);
    // An exporter that writes every case in one process (Blender) does so first.
    if (exporter.prepare) await exporter.prepare({ suite: o.suite, entries, work: path.join(o.work, `${exporter.id}-batch`) });
    versions[exporter.id] = exporter.version();
    const all = {};
    let exported = 0;
    for (const entry of entries) {
      all[entry.id] = await roundTrip(o, exporter, entry, outDir, samplesDir);
      if (all[entry.id].exported) exported++;
    }
    writeJson(path.join(o.work, `${exporter.id}.facts.json`), all);
    const failed = compareWithGoldens(o, samplesDir, path.join(o.work, `${exporter.id}.json`));
    if (failed !== undefined) {
      console.error(`roundtrip.mjs: compare for ${exporter.id} failed: ${failed}`);
      return 2;
    }
    console.log(`roundtrip.mjs: ${exporter.id} ${versions[exporter.id]}: ${exported}/${entries.length} exported`);
  }
  writeJson(path.join(o.work, 'versions.json'), versions);
  return 0;
}

main().then((code) => process.exit(code), (e) => {
  console.error(`roundtrip.mjs: ${e.stack || e}`);
  process.exit(2);
});
