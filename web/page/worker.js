// The page's worker: every run of the WebAssembly CLI happens here, never on the page's
// thread. It keeps the dropped files, so a download in another format or a plot runs the
// CLI again on the same files.
import { run } from './gltf-anim/index.js';

let files = [];
let assets = [];

const OUT = '/gltf-anim-output/report';
const decoder = new TextDecoder();

async function cli(args) {
  const r = await run([...args, '--output', OUT], { files, read: [OUT] });
  const out = r.outputs[OUT];
  return { exitCode: r.exitCode, text: out ? decoder.decode(out) : null, stderr: r.stderr };
}

async function handle(msg) {
  switch (msg.type) {
    case 'files':
      files = msg.files;
      assets = files.map(([p]) => p).filter((p) => /\.(gltf|glb)$/i.test(p)).sort();
      if (assets.length === 0) return { error: 'No .gltf or .glb among the dropped files.' };
      return cli(['validate', '--no-config', '--format', 'json', '--', ...assets]);
    case 'report': // the report in another format, as the CLI writes it
      return cli(['validate', '--no-config', '--format', msg.format, '--', ...assets]);
    case 'sample':
      return cli(['sample', '--rate', String(msg.rate ?? 60), '--', msg.asset]);
    default:
      return { error: `unknown request ${msg.type}` };
  }
}

self.onmessage = async (e) => {
  const { id } = e.data;
  try {
    self.postMessage({ id, ...(await handle(e.data)) });
  } catch (err) {
    self.postMessage({ id, error: String(err?.message ?? err) });
  }
};
