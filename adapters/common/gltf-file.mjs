// Reads a .gltf or .glb for adapters that drive an engine's animation code
// on its own: the JSON and the bytes of each buffer (data: URIs, the GLB
// body, or buffer files inside the suite folder, never anything else).
import path from 'node:path';
import { readConfined } from './runner.mjs';

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

// Reads `file` (inside `root`): {json, bufferBytes(i)}.
export function readGltf(file, root) {
  const bytes = readConfined(root, file);
  let json;
  let body = null;
  if (bytes.length >= 12 && bytes.readUInt32LE(0) === GLB_MAGIC) {
    let off = 12;
    while (off + 8 <= bytes.length) {
      const len = bytes.readUInt32LE(off);
      const type = bytes.readUInt32LE(off + 4);
      if (len > bytes.length - off - 8) throw new Error('GLB chunk longer than the file');
      const chunk = bytes.subarray(off + 8, off + 8 + len);
      if (type === CHUNK_JSON && json === undefined) json = JSON.parse(chunk.toString('utf8'));
      else if (type === CHUNK_BIN && body === null) body = chunk;
      off += 8 + len;
    }
    if (json === undefined) throw new Error('GLB without a JSON chunk');
  } else {
    json = JSON.parse(bytes.toString('utf8'));
  }
  const cache = new Map();
  const bufferBytes = (i) => {
    if (cache.has(i)) return cache.get(i);
    const b = (json.buffers || [])[i];
    if (!b) throw new Error(`no buffer ${i}`);
    let data;
    if (b.uri === undefined) {
      if (i !== 0 || body === null) throw new Error(`buffer ${i} has no uri and there is no GLB body`);
      data = body;
    } else if (b.uri.startsWith('data:')) {
      const comma = b.uri.indexOf(',');
      if (comma < 0 || !b.uri.slice(0, comma).endsWith(';base64')) throw new Error(`buffer ${i}: only base64 data: URIs are read`);
      data = Buffer.from(b.uri.slice(comma + 1), 'base64');
    } else if (/^[a-z][a-z0-9+.-]*:/i.test(b.uri)) {
      throw new Error(`buffer ${i}: scheme of ${b.uri.slice(0, 40)} not read (no network)`);
    } else {
      data = readConfined(root, path.join(path.dirname(file), decodeURIComponent(b.uri)));
    }
    if (data.length < (b.byteLength ?? 0)) throw new Error(`buffer ${i} holds ${data.length} bytes, byteLength says ${b.byteLength}`);
    cache.set(i, data);
    return data;
  };
  return { json, bufferBytes };
}
