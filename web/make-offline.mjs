// Writes the page's offline.js: what the page needs to start its worker when opened from
// file://. There Chromium starts no worker from a file: URL, loads no module script, fetches
// no file, and a worker from a blob: URL can only be a classic script (measured: a module
// worker from blob: fails to load, a dynamic import of a blob: URL too). So the worker's
// modules (worker.js, report-index.js, the package's instance.js and its inline entry with the
// wasm in base64, the Emscripten module) are joined here into one classic script, each module in its own function
// scope, and offline.js (a classic script, which file:// loads) holds that text for app.js to
// start as a blob: worker.
// The page's verdict module (gltf-anim-verdict, its wasm in base64) is bundled too: the worker
// takes it from self.gltfAnimVerdictInline, so the first verdict decodes and compiles only it,
// and the whole CLI's wasm (the inline entry's) waits for Repair or Compare.
// Usage: node web/make-offline.mjs PACKAGE_FOLDER PAGE_FOLDER (the page's gltf-anim/dist holding
// gltf-anim-verdict.mjs and .wasm)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [pkg, page] = process.argv.slice(2);
const read = (p) => readFileSync(p, 'utf8');

// One module as a function scope that returns its exports. It handles what these modules use
// and fails on anything else: one-line `import {a, b} from 'x'` and `import a from 'x'`,
// `export [async] function|class|const NAME`, one-line `export {a, b};` and `export default NAME;`.
function classic(name, text, specifiers) {
  const exported = [];
  let body = text.replace(/^import (\{[^}]*\}|[A-Za-z_$][\w$]*) from '([^']+)';$/gm, (_, what, from) => {
    const key = specifiers[from];
    if (!key) throw new Error(`make-offline: ${name} imports '${from}', which is not bundled`);
    return what.startsWith('{') ? `const ${what} = modules['${key}'];` : `const ${what} = modules['${key}'].default;`;
  });
  body = body.replace(/^export ((?:async )?function\*? |class |const |let )([A-Za-z_$][\w$]*)/gm, (_, kind, id) => {
    exported.push(id);
    return `${kind}${id}`;
  });
  body = body.replace(/^export \{([^}]*)\};$/gm, (_, ids) => {
    exported.push(...ids.split(',').map((id) => id.trim()).filter((id) => id !== ''));
    return '';
  });
  body = body.replace(/export default ([A-Za-z_$][\w$]*);/g, (_, id) => {
    exported.push(`default: ${id}`);
    return '';
  });
  if (/^\s*(import|export)\b/m.test(body) || body.includes('import.meta')) {
    throw new Error(`make-offline: ${name} keeps a module-only construct`);
  }
  return `modules['${name}'] = (() => {\n${body}\nreturn { ${exported.join(', ')} };\n})();\n`;
}

// The Emscripten module names its wasm beside itself (new URL(..., import.meta.url)); the page
// hands it the compiled wasm, so that name is never used: any URL does.
const core = read(join(pkg, 'dist/gltf-anim-core.mjs')).replaceAll('import.meta.url', '"file:///gltf-anim-core.mjs"');
const verdict = read(join(page, 'gltf-anim/dist/gltf-anim-verdict.mjs'))
  .replaceAll('import.meta.url', '"file:///gltf-anim-verdict.mjs"');
const verdictWasm = readFileSync(join(page, 'gltf-anim/dist/gltf-anim-verdict.wasm')).toString('base64');
// index.js imports the Emscripten module when a call first needs it (a dynamic import, which a
// blob: worker cannot make): here it is the module bundled above.
function bundledCore(text) {
  const lazy = "import('./dist/gltf-anim-core.mjs')";
  if (!text.includes(lazy)) throw new Error(`make-offline: the package's entry no longer has ${lazy}`);
  return text.replace(lazy, "Promise.resolve(modules['core'])");
}
// The worker imports the rest of the package (index.js) when Repair or Compare first needs it:
// here it is the inline entry bundled above.
function bundledApi(text) {
  const lazy = "import('./gltf-anim/index.js')";
  if (!text.includes(lazy)) throw new Error(`make-offline: the worker no longer has ${lazy}`);
  return text.replace(lazy, "Promise.resolve(modules['api'])");
}
const worker = '// The page\'s worker for file:// (web/make-offline.mjs): its modules in one classic script.\n' +
  '"use strict";\nconst modules = {};\n' +
  classic('core', core, {}) +
  classic('api', bundledCore(read(join(pkg, 'inline.js')))) +
  classic('instance', read(join(pkg, 'instance.js')), {}) +
  classic('verdict', verdict, {}) +
  `self.gltfAnimVerdictInline = { create: modules['verdict'].default, base64: '${verdictWasm}' };\n` +
  classic('report-index', read(join(page, 'report-index.js')), {}) +
  classic('worker', bundledApi(read(join(page, 'worker.js'))),
    { './gltf-anim/instance.js': 'instance', './report-index.js': 'report-index' });
writeFileSync(join(page, 'offline.js'), '// Written by web/make-offline.mjs: the page\'s worker for file:// (see app.js).\n' +
  `window.gltfAnimOfflineWorker = ${JSON.stringify(worker)};\n`);
