// The offline page's plots on a large asset, in Debian's chromium (playwright-core of
// web/tests/tools): the time from opening an asset's plots to its first drawn curve (or to
// the page's refusal, whose words are printed), and the browser's peak memory over the run
// (the resident set of chromium and all its processes, read from /proc every 100 ms: the
// worker's wasm memory and JavaScript heap are in its renderer), and the page's thread's longest
// task while the plots open (a long task observer: the samples' reply lands there). Each page folder given is
// measured in turn, in a fresh browser, so two builds of the page compare in one run:
//   node bench/web/page_curves.mjs ASSET PAGE_FOLDER [PAGE_FOLDER...]
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'web/tests/tools/package.json'));
const { chromium } = require('playwright-core');

const [asset, ...pages] = process.argv.slice(2);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm' };

// The resident set of every process below pid (not pid itself), in KiB (from /proc; gone ones
// skipped): here the browser this script started, and its renderers and helpers.
function treeRss(pid) {
  const children = new Map();
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(p));
    } catch { /* gone */ }
  }
  let kib = 0;
  const walk = (p) => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) kib += Number(m[1]);
    } catch { /* gone */ }
    for (const c of children.get(p) ?? []) walk(c);
  };
  for (const c of children.get(pid) ?? []) walk(c);
  return kib;
}

for (const dir of pages) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const pid = process.pid; // chromium runs under this script
  let peak = 0;
  const sampler = setInterval(() => { peak = Math.max(peak, treeRss(pid)); }, 100);
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
  await page.waitForFunction(() => window.gltfAnimReady === true);
  const t0 = Date.now();
  await page.setInputFiles('#file', asset);
  await page.waitForSelector('#result:not([hidden])', { timeout: 600000 });
  const report = Date.now() - t0;
  const t1 = Date.now();
  const opened = await page.evaluate(() => performance.now());
  await page.click('details.plots summary');
  // A drawn curve, or the plots' place holding words and no plot (a refusal).
  await page.waitForFunction(() => {
    const box = document.querySelector('.channels');
    if (box === null) return false;
    if ([...box.querySelectorAll('figure.channel canvas')].some((c) => c.width > 0)) return true;
    return box.querySelector('figure') === null && box.textContent !== '' && !box.textContent.startsWith('Sampling');
  }, null, { timeout: 600000, polling: 200 });
  const curves = Date.now() - t1;
  const shown = await page.$eval('.channels', (box) => ({
    figures: box.querySelectorAll('figure.channel').length,
    perChannel: box.dataset.maxTimes ?? null,
    words: box.querySelector('figure') === null ? box.textContent.slice(0, 300) : (box.querySelector('.plot-note')?.textContent ?? ''),
  }));
  const longest = await page.evaluate((from) => Math.max(0, ...window.longTasks.filter((e) => e.start >= from)
    .map((e) => e.duration)), opened);
  clearInterval(sampler);
  peak = Math.max(peak, treeRss(pid));
  console.log(`${dir}: ${basename(asset)} (${statSync(asset).size} bytes): report ${(report / 1000).toFixed(2)} s; ` +
    `plots opened to ${shown.figures ? 'the first curve' : 'the page\'s answer'} ${(curves / 1000).toFixed(2)} s; ` +
    `${shown.figures} plots${shown.perChannel ? `, at most ${shown.perChannel} samples a channel` : ''}; ` +
    `longest page-thread task while they open ${longest.toFixed(0)} ms; browser peak RSS ${(peak / 1024).toFixed(0)} MiB${shown.words ? `; it says: ${shown.words.trim()}` : ''}`);
  await browser.close();
  server.close();
}
