// Reading only inside the suite, in plain Node, for every JavaScript tool of the project
// (the engine adapters and the exporter round trips). No npm package: a tool with its own
// node_modules (exporters/) imports this file without pulling a second copy of an engine.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// True when `file` (a resolved path) is strictly inside folder `root`.
export function isInside(root, file) {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

// Reads `file` only when its real path is inside the real path of `root`:
// an asset cannot make a tool read anything outside the suite.
export function readConfined(root, file) {
  const realRoot = fs.realpathSync(root);
  const real = fs.realpathSync(file);
  if (!isInside(realRoot, real)) throw new Error(`${file} is outside ${root}`);
  return fs.readFileSync(real);
}

// A fetch replacement confined to `root` (an absolute, real path; null: no files), for
// loaders that fetch an asset's buffers (three.js' FileLoader): data: URIs go to Node's own
// fetch, file: URLs are served only inside root (404 when missing, 403 outside), every other
// scheme is refused (no network).
export function makeConfinedFetch(root, originalFetch = globalThis.fetch) {
  return async function confinedFetch(input, init) {
    const url = typeof input === 'string' ? input : input.url;
    if (url.startsWith('data:')) return originalFetch(input, init);
    if (url.startsWith('file:')) {
      let file;
      try {
        file = fs.realpathSync(fileURLToPath(url));
      } catch (e) {
        return new Response(null, { status: 404, statusText: `${url}: ${e.code || e.message}` });
      }
      if (root === null || !isInside(root, file)) {
        return new Response(null, { status: 403, statusText: `${url} is outside ${root ?? 'the allowed folder (none)'}` });
      }
      const bytes = fs.readFileSync(file);
      return new Response(bytes, {
        status: 200,
        headers: { 'Content-Length': String(bytes.length) },
      });
    }
    throw new TypeError(`refusing to fetch ${url.slice(0, 80)} (only data: and files inside ${root})`);
  };
}

// Runs `fn` with the global fetch confined to `root` (a folder; null: no files), restored after.
export async function withConfinedFetch(root, fn) {
  const saved = globalThis.fetch;
  globalThis.fetch = makeConfinedFetch(root ? fs.realpathSync(root) : null, saved);
  try {
    return await fn();
  } finally {
    globalThis.fetch = saved;
  }
}

// Node 20 has no ProgressEvent; three's FileLoader constructs one per chunk it streams.
// A minimal stand-in with the fields FileLoader sets, installed once.
export function installProgressEvent() {
  if (typeof globalThis.ProgressEvent !== 'undefined') return;
  globalThis.ProgressEvent = class ProgressEvent extends Event {
    constructor(type, init = {}) {
      super(type);
      this.lengthComputable = !!init.lengthComputable;
      this.loaded = init.loaded ?? 0;
      this.total = init.total ?? 0;
    }
  };
}
