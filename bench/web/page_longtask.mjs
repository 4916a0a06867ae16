// The offline page on a large asset, in Debian's chromium (playwright-core of web/tests/tools):
// the page's longest main-thread task (PerformanceObserver 'longtask') and the time from
// picking the file to the rendered report. With --khronos, the same measure for Khronos
// glTF-Validator's npm build (tools/gltf-validator) called on a page's main thread, which is
// where its own web page runs it (that page itself is not published on npm).
//   node bench/web/page_longtask.mjs PAGE_FOLDER ASSET [--khronos VALIDATOR_JS]
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'web/tests/tools/package.json'));
const { chromium } = require('playwright-core');

const [pageDir, asset, flag, khronosJs] = process.argv.slice(2);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm' };
// Serves the page's folder, and /khronos/ the validator's folder and the asset (--khronos).
const roots = { '/': resolve(pageDir) };
if (flag === '--khronos') {
  roots['/khronos/'] = dirname(resolve(khronosJs));
  roots['/asset/'] = dirname(resolve(asset));
}
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
  const prefix = Object.keys(roots).filter((p) => path.startsWith(p)).sort((a, b) => b.length - a.length)[0];
  const file = join(roots[prefix], path.slice(prefix.length));
  if (!file.startsWith(roots[prefix]) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
await page.addInitScript(() => {
  window.longTasks = [];
  new PerformanceObserver((l) => l.getEntries().forEach((e) => window.longTasks.push(e.duration)))
    .observe({ type: 'longtask', buffered: true });
});
const size = statSync(asset).size;
if (flag === '--khronos') {
  // Our page's origin loading the validator's dart2js script (it puts its API on
  // self.exports), then validateBytes on the main thread.
  await page.goto(`${origin}/index.html`);
  await page.addScriptTag({ content: 'self.exports = {};' });
  await page.addScriptTag({ url: `${origin}/khronos/${basename(khronosJs)}` });
  const r = await page.evaluate(async (url) => {
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const before = window.longTasks.length;
    const t0 = performance.now();
    const report = await self.exports.validateBytes(bytes, { maxIssues: 0 });
    const ms = performance.now() - t0;
    await new Promise((d) => setTimeout(d, 200));
    const tasks = window.longTasks.slice(before);
    return { ms, tasks: tasks.length, longest: Math.max(0, ...tasks), errors: report.issues.numErrors };
  }, `${origin}/asset/${basename(asset)}`);
  console.log(`khronos npm validateBytes on the main thread, ${basename(asset)} (${size} bytes): ` +
    `${(r.ms / 1000).toFixed(2)} s to the report, ${r.tasks} long task(s), longest ${r.longest.toFixed(0)} ms, ${r.errors} errors`);
} else {
  await page.goto(`${origin}/index.html`);
  await page.waitForFunction(() => window.gltfAnimReady === true);
  await page.evaluate(() => new Promise((d) => setTimeout(d, 500)));
  const before = await page.evaluate(() => window.longTasks.length);
  const t0 = Date.now();
  await page.setInputFiles('#file', asset);
  await page.waitForSelector('#result:not([hidden]), #status:has-text("out of memory")', { timeout: 600000 });
  const ms = Date.now() - t0;
  const tasks = (await page.evaluate(() => window.longTasks)).slice(before);
  const counts = await page.$eval('#summary', (s) => s.textContent);
  console.log(`gltf-anim page, ${basename(asset)} (${size} bytes): ${(ms / 1000).toFixed(2)} s to the report, ` +
    `${tasks.length} long task(s), longest ${Math.max(0, ...tasks).toFixed(0)} ms; ${counts}`);
}
await browser.close();
server.close();
