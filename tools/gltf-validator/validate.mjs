// Runs Khronos glTF-Validator (npm package gltf-validator, locked in package-lock.json;
// install it with npm-ci.sh) over files and folders and writes its reports as one JSON
// array: what `gltf-anim validate --merge-gltf-validator FILE` reads.
//
//   node tools/gltf-validator/validate.mjs --output REPORTS.json [--] PATH...
//
// A folder is searched for .gltf and .glb files below it (symbolic links are not
// followed), in sorted order. Each report's uri is the path as given; glTF-Validator's
// npm build percent-encodes it (a space is %20), which gltf-anim decodes when it matches
// reports to assets. An asset's external files are read from its own folder only (no
// absolute path, no ".."). The output is written to a temporary file beside it, then
// renamed. Exit codes: 0 written, whatever the findings; 2 usage or I/O error.
import fs from 'node:fs';
import path from 'node:path';
import validator from 'gltf-validator';

function usage(why) {
  console.error(`validate.mjs: ${why}\nusage: node validate.mjs --output REPORTS.json [--] PATH...`);
  process.exit(2);
}

function parseArgs(argv) {
  let output = null;
  const paths = [];
  let options = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (options && a === '--') options = false;
    else if (options && a === '--output') {
      if (i + 1 >= argv.length) usage('--output needs a value');
      output = argv[++i];
    } else if (options && a.startsWith('--output=')) output = a.slice('--output='.length);
    else if (options && a.startsWith('-') && a !== '-') usage(`unknown option ${a}`);
    else paths.push(a);
  }
  if (!output) usage('no --output given');
  if (paths.length === 0) usage('no PATH given');
  return { output, paths };
}

// The assets a path names: itself, or the .gltf and .glb files below a folder.
function assets(given) {
  const stat = fs.lstatSync(given);
  if (!stat.isDirectory()) return [given];
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && /\.(gltf|glb)$/i.test(entry.name)) found.push(p);
    }
  };
  walk(given);
  return found;
}

// An external resource of `asset`, read from the asset's folder only.
function resourceReader(asset) {
  const folder = path.resolve(path.dirname(asset));
  return async (uri) => {
    const name = decodeURIComponent(uri);
    const full = path.resolve(folder, name);
    if (path.isAbsolute(name) || name.split(/[\\/]/).includes('..') || !full.startsWith(folder + path.sep)) {
      throw new Error(`${uri} is outside the asset's folder`);
    }
    return new Uint8Array(fs.readFileSync(full));
  };
}

const { output, paths } = parseArgs(process.argv.slice(2));
const reports = [];
try {
  for (const given of paths) {
    for (const asset of assets(given)) {
      const bytes = new Uint8Array(fs.readFileSync(asset));
      reports.push(await validator.validateBytes(bytes, {
        uri: asset,
        maxIssues: 0,
        externalResourceFunction: resourceReader(asset),
      }));
    }
  }
  const temporary = path.join(path.dirname(output), `.${path.basename(output)}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, JSON.stringify(reports, null, 1) + '\n');
  fs.renameSync(temporary, output);
} catch (e) {
  console.error(`validate.mjs: ${e.message}`);
  process.exit(2);
}
console.error(`validate.mjs: glTF-Validator ${validator.version()}: ${reports.length} report(s) in ${output}`);
