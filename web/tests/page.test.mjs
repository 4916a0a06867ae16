// The offline page in Debian's chromium, driven by playwright-core (web/tests/tools, pinned;
// no browser download), served from a loopback server: pick files and a folder, compare the
// rendered counts and codes with the native JSON report, download reports as the CLI writes
// them, plot channels, no console errors; screenshots for a person to look at.
import assert from 'node:assert/strict';
import { copyFileSync, createReadStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, normalize, resolve } from 'node:path';
import { after, before, test } from 'node:test';

import { NATIVE, ROOT, runCli } from './helpers.mjs';

const PAGE = resolve(process.env.GLTF_ANIM_PAGE ?? join(ROOT, 'build-wasm/page'));
const CHROMIUM = process.env.GLTF_ANIM_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = join(dirname(PAGE), 'page-screenshots');
const require = createRequire(join(ROOT, 'web/tests/tools/package.json'));
const { chromium } = require('playwright-core');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

let server;
let origin;
let browser;

before(async () => {
  assert.ok(existsSync(join(PAGE, 'index.html')), `no page at ${PAGE}`);
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const file = join(PAGE, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(PAGE) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function openPage(viewport = { width: 1280, height: 720 }) {
  const page = await browser.newPage({ viewport, acceptDownloads: true });
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${origin}/index.html`);
  await page.waitForFunction(() => window.gltfAnimReady === true);
  return { page, problems };
}

/** What the page shows per asset: its counts line and {code: count}. */
async function rendered(page) {
  return page.$$eval('section.asset', (boxes) => boxes.map((b) => ({
    uri: b.dataset.uri,
    counts: b.querySelector('.counts').textContent,
    codes: Object.fromEntries([...b.querySelectorAll('tr.code-row')].map((r) => [
      `${r.dataset.code}/${r.querySelector('.sev').textContent}`, Number(r.querySelector('.count').textContent)])),
  })));
}

const SEVERITY = ['error', 'warning', 'info', 'hint'];

/** The same view computed from the native CLI's JSON report. */
function expectedView(report) {
  return report.reports.map((a) => {
    const codes = {};
    for (const m of a.issues.messages) {
      const k = `${m.code}/${SEVERITY[m.severity]}`;
      codes[k] = (codes[k] ?? 0) + 1;
    }
    const i = a.issues;
    return { uri: a.uri, counts: `${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`, codes };
  });
}

function nativeReport(args, cwd) {
  return JSON.parse(runCli(NATIVE, ['validate', '--no-config', '--no-timings', '--format', 'json', ...args], cwd).stdout);
}

test('picked files: several invalid assets and a .gltf with its .bin, as the native report', async () => {
  const { page, problems } = await openPage();
  const invalid = join(ROOT, 'conformance_assets/invalid/channel');
  const valid = join(ROOT, 'conformance_assets/valid');
  const names = ['output_count.gltf', 'sampler_type_mismatch.gltf', 'target_path_unknown.gltf'];
  const files = [...names.map((n) => join(invalid, n)), join(valid, 'container_external_bin.gltf'),
    join(valid, 'container_external_bin.bin')];
  await page.setInputFiles('#file', files);
  await page.waitForSelector('#result:not([hidden])', { timeout: 60000 });
  const shown = await rendered(page);
  const expected = [
    ...expectedView(nativeReport(['container_external_bin.gltf'], valid)),
    ...expectedView(nativeReport(names, invalid)),
  ].sort((a, b) => a.uri.localeCompare(b.uri));
  assert.deepEqual(shown, expected);
  // Every pointer behind a code, on demand.
  await page.click('section.asset[data-uri="output_count.gltf"] tr.code-row details summary');
  const pointers = await page.$$eval('section.asset[data-uri="output_count.gltf"] ul.pointers li', (l) => l.length);
  assert.ok(pointers >= 1);
  await page.screenshot({ path: join(SHOTS, 'report-1280x720.png'), fullPage: false });

  // The SARIF download is the CLI's, byte for byte (no timings in SARIF).
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#downloads button[data-format="sarif"]')]);
  const got = readFileSync(await download.path());
  const paths = [...files.filter((f) => f.endsWith('.gltf')).map((f) => basename(f))].sort();
  // The page's files sit in one folder: run the CLI the same way, in a folder holding them all.
  const tmp = join(dirname(PAGE), 'page-sarif-check');
  mkdirSync(tmp, { recursive: true });
  for (const f of files) copyFileSync(f, join(tmp, basename(f)));
  const want = runCli(NATIVE, ['validate', '--no-config', '--format', 'sarif', '--', ...paths], tmp).stdout;
  assert.ok(got.equals(want), 'SARIF download differs from the CLI\'s');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a picked folder: every asset at any depth, with its own resources', async () => {
  const { page, problems } = await openPage();
  await page.setInputFiles('#folder', join(ROOT, 'conformance_assets/invalid/node'));
  await page.waitForSelector('#result:not([hidden])', { timeout: 60000 });
  const shown = await rendered(page);
  const dir = join(ROOT, 'conformance_assets/invalid');
  const names = ['children_duplicate.gltf', 'rotation_out_of_range.gltf', 'translation_length.gltf'];
  const expected = expectedView(nativeReport(names.map((n) => `node/${n}`), dir));
  assert.deepEqual(shown, expected);
  assert.deepEqual(problems, []);
  await page.close();
});

test('channel plots from the reference evaluator, at phone width', async () => {
  const { page, problems } = await openPage({ width: 390, height: 844 });
  await page.setInputFiles('#file', [join(ROOT, 'conformance_assets/valid/rotation_linear.gltf'),
    join(ROOT, 'conformance_assets/valid/scale_step.gltf'), join(ROOT, 'conformance_assets/valid/translation_cubicspline.gltf')]);
  await page.waitForSelector('#result:not([hidden])', { timeout: 60000 });
  await page.click('section.asset details.plots summary');
  await page.waitForSelector('figure.channel canvas', { timeout: 60000 });
  const captions = await page.$$eval('figure.channel figcaption', (l) => l.map((c) => c.textContent));
  assert.ok(captions.some((c) => c.includes('/nodes/0/rotation')), captions.join('\n'));
  await page.screenshot({ path: join(SHOTS, 'plots-390x844.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});
