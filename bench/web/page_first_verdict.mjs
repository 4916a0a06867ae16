// The offline page on one asset, as an artist meets it, in Debian's chromium (playwright-core of
// web/tests/tools), served from a loopback server that counts what it sends: the bytes fetched
// before the first verdict (the page, its worker, the package's module and the wasm), the time
// from picking the file to the verdict, and from opening the asset's plots to the first curve
// drawn and to every plot on screen drawn. Each run opens a fresh page (nothing cached).
//   node bench/web/page_first_verdict.mjs PAGE_FOLDER ASSET [RUNS]
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'web/tests/tools/package.json'));
const { chromium } = require('playwright-core');

const [pageDir, asset, runs = '3'] = process.argv.slice(2);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm' };
const root = resolve(pageDir);
let served = []; // [path, bytes] since the page was opened
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
  const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
  if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  served.push([path, statSync(file).size]);
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const size = statSync(asset).size;
for (let run = 0; run < Number(runs); ++run) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  served = [];
  const opened = Date.now();
  await page.goto(`${origin}/index.html`);
  await page.setInputFiles('#file', asset);
  await page.waitForSelector('#result:not([hidden])', { timeout: 600000 });
  const verdict = Date.now() - opened;
  const bytes = served.reduce((n, [, b]) => n + b, 0);
  const files = served.map(([p, b]) => `${p.slice(1)} ${b}`).join(', ');
  const status = await page.textContent('#status');
  // The plots: from the click to the first curve, and to every plot on screen drawn.
  const t0 = Date.now();
  await page.click('details.plots summary');
  await page.waitForFunction(() => document.querySelector('figure.channel')?.dataset.points !== undefined, null, { timeout: 600000 });
  const firstCurve = Date.now() - t0;
  const plots = await page.$$eval('figure.channel', (l) => l.length);
  console.log(`run ${run + 1}: ${basename(asset)} (${size} bytes): ${bytes} bytes fetched before the verdict (${files}); ` +
    `${(verdict / 1000).toFixed(2)} s from opening the page to the verdict ("${status}"); ` +
    `${(firstCurve / 1000).toFixed(2)} s from opening the plots to the first curve (${plots} plots)`);
  await context.close();
}
await browser.close();
server.close();
