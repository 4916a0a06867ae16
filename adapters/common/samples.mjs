// gltf-anim samples files (the shape docs/CONFORMANCE.md describes and
// samples/include/gltf_anim/samples/samples.hpp):
//   {"asset": "...", "generator": "...", "animations": [{"index": 0, "name": "...",
//    "channels": [{"index": 0, "target": "/nodes/0/rotation", "interpolation": "LINEAR",
//                  "sampler": 0, "samples": [{"t": 0.5, "value": [x, y, z, w]}]}]}]}
// Numbers are written with JSON.stringify, i.e. ECMAScript Number::toString:
// the shortest decimal that reads back to the same double. Non-finite values
// become null, which gltf-anim reads back as NaN (and compare then fails).
// -0 is written as 0 (JSON.stringify drops the sign of zero).
// Extra members (here "adapterNotes") are ignored by gltf-anim's reader.

function num(x) {
  return JSON.stringify(x); // "null" for NaN and +-Infinity
}

function sampleLine(t, value) {
  return `{"t": ${num(t)}, "value": [${value.map(num).join(', ')}]}`;
}

// file: {asset, generator, animations: [{index, name, channels: [{index, target,
// interpolation?, sampler?, samples: [{t, value: number[]}]}]}], adapterNotes?: string[]}
export function formatSamplesJson(file) {
  const out = [];
  out.push('{');
  out.push(`  "asset": ${JSON.stringify(file.asset)},`);
  out.push(`  "generator": ${JSON.stringify(file.generator)},`);
  if (file.adapterNotes && file.adapterNotes.length) {
    out.push(`  "adapterNotes": [`);
    out.push(file.adapterNotes.map((n) => `    ${JSON.stringify(n)}`).join(',\n'));
    out.push('  ],');
  }
  out.push('  "animations": [');
  file.animations.forEach((a, ai) => {
    out.push('    {');
    out.push(`      "index": ${a.index},`);
    out.push(`      "name": ${JSON.stringify(a.name ?? '')},`);
    out.push('      "channels": [');
    a.channels.forEach((c, ci) => {
      out.push('        {');
      out.push(`          "index": ${c.index},`);
      out.push(`          "target": ${JSON.stringify(c.target)},`);
      if (c.interpolation !== undefined) out.push(`          "interpolation": ${JSON.stringify(c.interpolation)},`);
      if (c.sampler !== undefined) out.push(`          "sampler": ${c.sampler},`);
      out.push('          "samples": [');
      out.push(c.samples.map((s) => `            ${sampleLine(s.t, s.value)}`).join(',\n'));
      out.push('          ]');
      out.push(`        }${ci + 1 < a.channels.length ? ',' : ''}`);
    });
    out.push('      ]');
    out.push(`    }${ai + 1 < file.animations.length ? ',' : ''}`);
  });
  out.push('  ]');
  out.push('}');
  return out.join('\n') + '\n';
}

// Reads a samples JSON file's text into {asset, animations: [{index, name,
// channels: [{index, target, interpolation, sampler, times: number[]}]}]}:
// what the adapter needs from a golden file (the times to sample at).
export function goldenTimes(text) {
  const doc = JSON.parse(text);
  if (!doc || !Array.isArray(doc.animations)) throw new Error('samples file without "animations"');
  return {
    asset: doc.asset,
    animations: doc.animations.map((a) => ({
      index: a.index,
      name: a.name,
      channels: (a.channels || []).map((c, i) => ({
        index: c.index ?? i,
        target: c.target,
        interpolation: c.interpolation,
        sampler: c.sampler,
        times: (c.samples || []).map((s) => s.t),
      })),
    })),
  };
}
