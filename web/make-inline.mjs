// Writes the npm package's inline entry (`gltf-anim/inline`): index.js with the wasm carried in
// the JavaScript as base64 instead of fetched or read beside the module, for hosts without file
// access or a URL to fetch from (some bundlers, serverless functions, file:// pages).
// Usage: node web/make-inline.mjs PACKAGE_FOLDER (holding index.js, instance.js and dist/gltf-anim-core.wasm).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const pkg = process.argv[2];
const index = readFileSync(join(pkg, 'index.js'), 'utf8');
const begin = index.indexOf('// wasm-source-begin');
const end = index.indexOf('// wasm-source-end');
if (begin < 0 || end < begin) throw new Error('index.js has no wasm-source-begin/end block');
const lineStart = (at) => index.lastIndexOf('\n', at) + 1;
const lineEnd = (at) => index.indexOf('\n', at) + 1;
const wasm = readFileSync(join(pkg, 'dist/gltf-anim-core.wasm')).toString('base64');
// index.js imports its instance layer from instance.js (a module of its own for the page's
// worker): the inline entry carries it, so that it needs no file beside it but the Emscripten
// module. Its exports become the entry's own declarations; index.js's re-export of some of them
// stays an export.
const importInstance = /^import \{[^}]*\} from '\.\/instance\.js';\n/m;
const reexportInstance = /^export (\{[^}]*\}) from '\.\/instance\.js';$/m;
if (!importInstance.test(index) || !reexportInstance.test(index)) {
  throw new Error('index.js no longer imports and re-exports ./instance.js as make-inline expects');
}
const instance = readFileSync(join(pkg, 'instance.js'), 'utf8').replace(/^export /gm, '');
const spliced = (text) => text.replace(importInstance, () => instance).replace(reexportInstance, 'export $1;');
const inline = `${spliced(index.slice(0, lineStart(begin)))}` +
  '      return WebAssembly.compile(fromBase64(WASM_BASE64));\n' +
  `${index.slice(lineEnd(end))}
// The wasm, inline (dist/gltf-anim-core.wasm, base64). atob is in Node >= 16 and every browser.
function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
const WASM_BASE64 = '${wasm}';
`;
writeFileSync(join(pkg, 'inline.js'), inline.replace(
  /^\/\/ gltf-anim for JavaScript:/, '// gltf-anim for JavaScript, the wasm inline (gltf-anim/inline):'));
writeFileSync(join(pkg, 'inline.d.ts'), "// The same API as the package's main entry; only where the wasm comes from differs.\nexport * from './index.js';\n");
