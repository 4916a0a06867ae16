// The page's thread: reads the dropped or picked files, hands them to the worker (which runs
// the WebAssembly CLI) and draws what comes back. Nothing here validates or samples.
const $ = (sel) => document.querySelector(sel);
const SEVERITY = ['error', 'warning', 'info', 'hint'];

// A classic script, not a module: Chromium loads no module script from file://.

// The worker. Served over http(s) it is worker.js beside this page. From file:// Chromium
// starts no worker from a file: URL, fetches nothing and starts only classic workers from
// blob: URLs, so offline.js (a classic script that scripts/build-web.sh writes: the worker and
// its modules joined into one classic script, the wasm inline) is loaded with a <script> tag
// and its text started as a blob: worker.
function startWorker() {
  if (location.protocol !== 'file:') {
    return Promise.resolve(new Worker(new URL('worker.js', document.baseURI), { type: 'module' }));
  }
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'offline.js';
    script.onload = () => {
      const source = new Blob([window.gltfAnimOfflineWorker], { type: 'text/javascript' });
      resolve(new Worker(URL.createObjectURL(source)));
    };
    script.onerror = () => reject(new Error('offline.js is missing beside index.html: the page cannot start its worker'));
    document.head.append(script);
  });
}

const pending = new Map();
let nextId = 1;
const workerStarted = startWorker().then((worker) => {
  // A worker that cannot load or throws outside a request: said, never silent.
  worker.onerror = (e) => {
    e.preventDefault();
    say(`The page's worker stopped: ${e.message || 'it could not be loaded'}`);
    console.error(`gltf-anim worker: ${e.message || 'it could not be loaded'}`);
  };
  worker.onmessage = (e) => {
    const { id } = e.data;
    pending.get(id)?.(e.data);
    pending.delete(id);
  };
  return worker;
});
async function ask(msg, transfer = []) {
  const worker = await workerStarted;
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ id, memoryLimitMb: memoryLimit(), ...msg }, transfer);
  });
}

// The memory limit field, within what index.js accepts (64 to 2048 MiB, whole numbers).
function memoryLimit() {
  const v = Math.round(Number($('#memory').value));
  return Number.isFinite(v) ? Math.min(2048, Math.max(64, v)) : 2048;
}

// The issue limits of `validate` (--max-issues, --max-issue-mb; 0: none), the CLI's defaults
// unless changed.
function whole(sel, max, fallback) {
  const v = Math.round(Number($(sel).value));
  return Number.isFinite(v) ? Math.min(max, Math.max(0, v)) : fallback;
}

// The opt-in lints to report (`validate --enable`): codes or globs, split on commas and spaces.
function enabled() {
  return $('#enable').value.split(/[\s,]+/).filter((c) => c !== '');
}

function say(text) {
  $('#status').textContent = text;
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// ---- What was dropped or picked: [relative path, File] pairs ----
// The page's thread never reads the files: a File is a handle the worker reads from, so even a
// file of hundreds of MB costs this thread nothing but the postMessage of its handle.

async function readEntry(entry, prefix, out) {
  if (entry.isFile) {
    const file = await new Promise((res, rej) => entry.file(res, rej));
    out.push([prefix + file.name, file]);
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (batch.length === 0) break;
      for (const child of batch) await readEntry(child, `${prefix}${entry.name}/`, out);
    }
  }
}

async function filesFromDrop(dataTransfer) {
  const out = [];
  const entries = [...dataTransfer.items].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  if (entries.length > 0) {
    for (const entry of entries) await readEntry(entry, '', out);
  } else {
    for (const f of dataTransfer.files) out.push([f.name, f]);
  }
  return out;
}

function filesFromInput(input) {
  return [...input.files].map((f) => [f.webkitRelativePath || f.name, f]);
}

// ---- Validation ----

let lastAssets = [];
let registry = null; // code -> {rule, spec, anchor, message, severity}, from `gltf-anim codes --format json`
// A code links to its entry in the page's own list of the report's codes (#codes), the
// registry's words: nothing is fetched, so the links work offline.
const codeId = (entry) => `code-${entry.anchor}`;

// The registry, asked for once when the page opens (the worker parses it: this thread only
// keeps the result), so that showing a report costs no parsing here.
async function loadRegistry() {
  const r = await ask({ type: 'codes' });
  registry = new Map(Object.entries(r.codes ?? {}));
}
const registryLoaded = loadRegistry();

async function validateFiles(files) {
  if (files.length === 0) return;
  const bytes = files.reduce((n, [, f]) => n + f.size, 0);
  say(`Validating ${files.length} file(s), ${(bytes / 1048576).toFixed(1)} MiB…`);
  $('#result').hidden = true;
  const started = performance.now();
  const r = await ask({ type: 'files', files, maxIssues: whole('#max-issues', 2 ** 32 - 1, 100000),
    maxIssueMb: whole('#max-issue-mb', 1048576, 64), enable: enabled() });
  if (r.error || !r.view) {
    say(r.error ?? r.stderr);
    return;
  }
  const report = r.view;
  await registryLoaded;
  lastAssets = report.reports.map((a) => a.uri);
  showReport(report, r.hints ?? [], r.clips ?? []);
  // The verdict in words first, for a screen reader too (a live region), then the timing.
  const s = report.summary;
  say(`${s.result === 'pass' ? 'Pass' : 'Fail'}: ${s.assetsFailing} of ${s.assets} asset(s) failing, ` +
    `${s.numErrors} error(s), ${s.numWarnings} warning(s). Validated in ${((performance.now() - started) / 1000).toFixed(2)} s.`);
  // The page opens on the verdict (the settings stay folded away above it).
  $('#summary').focus({ preventScroll: true });
  $('#summary').scrollIntoView({ block: 'start' });
}

function showReport(report, hints, clips = []) {
  const s = report.summary;
  $('#summary').replaceChildren(
    el('span', { class: `verdict ${s.result}` }, s.result === 'pass' ? 'Pass' : 'Fail'),
    `: ${s.assets} asset(s), ${s.assetsFailing} failing; ${s.numErrors} errors, ${s.numWarnings} warnings, ` +
      `${s.numInfos} infos, ${s.numHints} hints (failing on ${s.failOn}).`,
  );
  const assets = $('#assets');
  assets.replaceChildren();
  report.reports.forEach((a, index) => assets.append(assetView(a, index, hints[index] ?? [], s.failOn, clips[index] ?? null)));
  const codes = [...new Set(report.reports.flatMap((a) => a.groups.map((g) => g.code)))].sort();
  codeList(codes);
  $('#code-filter').replaceChildren(el('option', { value: '' }, 'every code'),
    ...codes.map((c) => el('option', { value: c }, c)));
  applyFilters();
  $('#result').hidden = false;
}

// Filters hide rows; a row's pointers and counts stay whole.
function applyFilters() {
  const severities = new Set([...document.querySelectorAll('#filters input[name=severity]:checked')]
    .map((i) => Number(i.value)));
  const code = $('#code-filter').value;
  for (const row of document.querySelectorAll('tr.code-row')) {
    row.hidden = !severities.has(Number(row.dataset.severity)) || (code !== '' && row.dataset.code !== code);
  }
}

// The report's codes as the registry words them, each an anchor the code cells link to.
function codeList(codes) {
  const list = $('#code-list');
  list.replaceChildren();
  for (const code of codes) {
    const entry = registry?.get(code);
    if (!entry) continue;
    list.append(el('dt', { id: codeId(entry) }, el('code', {}, code), ` (${entry.severity} by default)`),
      el('dd', { class: 'template' }, entry.message), el('dd', {}, entry.rule), el('dd', { class: 'spec' }, entry.spec));
  }
  $('#codes').hidden = list.childElementCount === 0;
}

function assetView(a, index, hints, failOn, clips = null) {
  const i = a.issues;
  const box = el('section', { class: 'asset', 'data-uri': a.uri });
  // Failing as the summary counts it: an issue at or above the --fail-on severity.
  const counts = [i.numErrors, i.numWarnings, i.numInfos, i.numHints];
  const failing = counts.slice(0, SEVERITY.indexOf(failOn) + 1).some((n) => n > 0);
  box.append(el('h2', {}, a.uri, ' ', el('span', { class: `verdict ${failing ? 'fail' : 'pass'}` }, failing ? '(Fail)' : '(Pass)')));
  box.append(el('p', { class: 'counts' },
    `${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints` +
    (i.truncated ? ' (truncated: the report stopped collecting issues, see the issue limits in Settings)' : '')));
  // What to do about the picked files (a missing .bin, a Git LFS pointer), in words.
  if (hints.length > 0) box.append(el('ul', { class: 'hints' }, ...hints.map((h) => el('li', {}, h))));
  // Grouped by code (the worker's groups): one row per (code, severity), its pointers behind a
  // disclosure.
  if (a.groups.length > 0) {
    const table = el('table', { class: 'codes' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Code'), el('th', {}, 'Severity'), el('th', {}, 'Count'),
        el('th', {}, 'Pointers'))));
    const body = el('tbody');
    a.groups.forEach((g, groupIndex) => {
      const entry = registry?.get(g.code);
      const codeCell = el('td', {}, entry
        ? el('a', { href: `#${codeId(entry)}` }, el('code', {}, g.code))
        : el('code', {}, g.code));
      if (entry) codeCell.append(el('div', { class: 'rule' }, entry.rule), el('div', { class: 'spec' }, entry.spec));
      body.append(el('tr', { class: 'code-row', 'data-code': g.code, 'data-severity': String(g.severity) },
        codeCell,
        el('td', {}, el('span', { class: `sev sev-${g.severity}` }, SEVERITY[g.severity])),
        el('td', { class: 'count' }, String(g.count)),
        el('td', {}, pointerList(index, groupIndex, g))));
    });
    table.append(body);
    box.append(table);
  }
  if (a.info?.animationCount > 0) {
    const plots = el('div', { class: 'channels' });
    box.append(el('details', {
      class: 'plots',
      ontoggle: (e) => e.target.open && plots.childElementCount === 0 && plotAsset(a.uri, index, plots),
    }, el('summary', {}, `Animation channels (${a.info.animationCount} animation(s)` +
      // The animations' own names and channel counts, from the asset, at a glance.
      (clips?.length === a.info.animationCount && clips.length <= 12
        ? `: ${clips.map((c, i) => `${c.name === null ? `animation ${i}` : `"${c.name}"`} ${c.channels} channel(s)`).join(', ')}` : '') +
      ')'), plots));
  }
  box.append(repairView(a.uri));
  return box;
}

// A group's pointers as a virtual list: the list is as tall as every row would be, and only the
// rows in view (and a few around them) are in the DOM, asked from the worker as the list
// scrolls. Past what a browser lays out in one element the scroll position is scaled, so every
// row stays reachable (the last one at the bottom). The list is focusable: arrow keys, Page
// Up/Down, Home and End scroll it.
const ROW_PX = 20;
const LIST_PX = 320; // at most this tall on screen
const MAX_LIST_PX = 8_000_000; // well under Chromium's largest layout size
const OVERSCAN = 10;

function pointerList(asset, groupIndex, g) {
  const list = el('ul', { class: 'pointers' });
  const view = el('div', { class: 'pointer-view', tabindex: '0', role: 'region',
    'aria-label': `${g.count} pointer(s) of ${g.code}` }, list);
  const total = g.count * ROW_PX;
  const height = Math.min(total, MAX_LIST_PX);
  list.style.height = `${height}px`;
  view.style.height = `${Math.min(height, LIST_PX) + 2}px`;
  let wanted = ''; // what the last request was for: older answers are dropped
  const render = async () => {
    const fit = Math.max(1, Math.floor(view.clientHeight / ROW_PX)); // whole rows in view
    const shown = fit + 1;
    const room = Math.max(0, height - view.clientHeight);
    // Scaled: the scroll fraction picks the first row, so that at the bottom the last `fit`
    // rows fill the view.
    const scaled = height !== total;
    const at = scaled ? Math.min(1, room > 0 ? view.scrollTop / room : 0) * Math.max(0, g.count - fit)
      : view.scrollTop / ROW_PX; // the row at the view's top, fractional
    const first = Math.floor(at);
    const start = Math.max(0, first - OVERSCAN);
    const end = Math.min(g.count, first + shown + OVERSCAN);
    const key = scaled ? `${start}:${view.scrollTop}` : `${start}`;
    if (key === wanted) return;
    wanted = key;
    const r = await ask({ type: 'rows', asset, group: groupIndex, start, end });
    if (wanted !== key) return;
    // A row's place: its own offset, or in a scaled list where the view shows it.
    const scrollTop = view.scrollTop;
    const top = (k) => (scaled ? scrollTop + (k - at) * ROW_PX : k * ROW_PX);
    list.replaceChildren(...r.rows.map((text, k) => el('li', { style: `top: ${top(r.start + k)}px`, title: text }, text)));
  };
  let queued = false;
  view.addEventListener('scroll', () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      render();
    });
  }, { passive: true });
  const details = el('details', {}, el('summary', {}, g.message), view);
  details.addEventListener('toggle', () => details.open && render());
  return details;
}

// ---- Downloads, exactly the CLI's bytes ----

const EXT = { json: 'json', sarif: 'sarif', junit: 'xml' };
const MIME = { json: 'application/json', sarif: 'application/sarif+json', junit: 'application/xml' };

async function download(format) {
  say(`Writing the ${format} report…`);
  const r = await ask({ type: 'report', format });
  if (r.text === null) {
    say(r.error ?? r.stderr);
    return;
  }
  const a = el('a', {
    href: URL.createObjectURL(new Blob([r.text], { type: MIME[format] })),
    download: `gltf-anim-report.${EXT[format]}`,
  });
  document.body.append(a);
  a.click();
  a.remove();
  say(`Downloaded the ${format} report.`);
}

// ---- Channel plots: samples from the reference evaluator (gltf-anim sample) ----
// A plot is drawn only while it is on screen (an IntersectionObserver), so an asset of
// thousands of channels costs what the screen shows. A time cursor (pointer hover or drag,
// arrow keys on a focused plot) shows every drawn channel's sample nearest to that time.

// Each at least 4.5:1 on white (WCAG 1.4.3 and 1.4.11), the legend's text too.
const COLORS = ['#dc2626', '#15803d', '#2563eb', '#9333ea', '#c2410c', '#0e7490'];
const ISSUE_COLOR = '#7f1d1d';
const HANDLE_COLOR = '#0f766e'; // tangent handles' ends
const PLOT_W = 680;
const PLOT_H = 340;
const PAD = 28;

const plots = new Set(); // the plots on screen: {figure, draw(), cursor(t)}
let cursorTime = null;
const plotObserver = new IntersectionObserver((entries) => {
  for (const e of entries) {
    const p = e.target.plot;
    if (e.isIntersecting) {
      plots.add(p);
      p.draw();
    } else {
      plots.delete(p);
      p.release();
    }
  }
}, { rootMargin: '200px' });

function setCursor(t) {
  cursorTime = t;
  for (const p of plots) p.cursor(t);
}

// A number of seconds, short: 6 significant digits.
const seconds = (t) => `${Number.isFinite(t) ? Number(t.toPrecision(6)) : t} s`;

// What a target pointer animates, in the asset's words: {who: 'bone "Hips" (node 3)', what:
// 'rotation'}; a node that is a skin's joint is a bone. Without a name, the index alone.
const SINGULAR = { nodes: 'node', meshes: 'mesh', materials: 'material', cameras: 'camera', skins: 'skin',
  textures: 'texture', images: 'image' };
function targetWords(target, names) {
  const m = /^\/([A-Za-z_]+)\/(\d+)\/(.*)$/.exec(target ?? '');
  if (m === null) return { who: target ?? '(target unknown)', what: '' };
  const [, kind, at, rest] = m;
  const index = Number(at);
  const name = names?.[kind]?.[index] ?? null;
  const bone = kind === 'nodes' && names?.joints?.includes(index);
  const noun = bone ? 'bone' : SINGULAR[kind] ?? kind;
  return { who: name === null ? `${noun} ${index}` : `${noun} "${name}" (${SINGULAR[kind] ?? kind} ${index})`,
    what: rest.replaceAll('/', ' ') };
}

// The plots of an asset are one tab stop: arrow keys move within them (Left and Right the time
// cursor, Up and Down the plot, Home and End the first and last time).
function plotGroup(into, uri) {
  into.tabIndex = 0;
  into.setAttribute('role', 'group');
  into.setAttribute('aria-label', `Channel plots of ${uri}. Left and Right arrow keys move the time cursor, ` +
    'Up and Down choose the plot, Home and End go to the first and last time.');
  let active = 0;
  const figures = () => into.querySelectorAll('figure.channel');
  const now = el('p', { class: 'plot-now visually-hidden', 'aria-live': 'polite' });
  const mark = (i) => {
    const list = figures();
    if (list.length === 0) return null;
    active = Math.max(0, Math.min(list.length - 1, i));
    list.forEach((f, k) => f.classList.toggle('active', k === active));
    return list[active];
  };
  into.addEventListener('focus', () => mark(active));
  into.addEventListener('blur', () => figures().forEach((f) => f.classList.remove('active')));
  into.addEventListener('keydown', (e) => {
    let f = figures()[active];
    if (!f) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      f = mark(active + (e.key === 'ArrowDown' ? 1 : -1));
      f.scrollIntoView({ block: 'nearest' });
    } else if (!f.plot.step(e.key)) {
      return;
    }
    e.preventDefault();
    now.textContent = `Plot ${active + 1} of ${figures().length}: ${f.querySelector('.name').textContent}. ` +
      f.querySelector('.readout').textContent;
  });
  return now;
}

async function plotAsset(uri, index, into) {
  into.append(el('p', {}, 'Sampling with the reference evaluator…'));
  // One request: the asset's names, the evaluator's samples (parsed by the worker, each channel's
  // in typed arrays: {times, values, width, range}; when the asset is refused, each animation it
  // can sample) and the keys as stored (`gltf-anim sample --keys`: the tangents, and every
  // channel the evaluator refuses, listed with its problem and with its keys when they could be
  // decoded; typed arrays).
  const r = await ask({ type: 'plot', asset: uri, rate: 60 });
  const names = r.names ?? null;
  const keys = r.keys ?? null;
  const samples = r.whole ? r.samples[0] : null;
  if (keys === null && samples === null) {
    into.replaceChildren(el('p', {}, (r.stderr || r.error || 'sampling failed').trim()));
    return;
  }
  const sampled = new Map(); // "animation/channel" -> {anim, ch} of the samples file
  for (const file of r.samples ?? []) {
    for (const anim of file.animations) for (const ch of anim.channels) sampled.set(`${anim.index}/${ch.index}`, { anim, ch });
  }
  // The channels: the keys file's (refused ones too) with their samples, else the samples file's.
  const views = keys !== null
    ? keys.map((c) => {
      const s = sampled.get(`${c.animation}/${c.index}`);
      return { animation: c.animation, name: s?.anim.name ?? '', index: c.index, target: c.target ?? '(target unknown)',
        sampler: c.sampler, interpolation: c.interpolation ?? '(sampler unknown)', width: c.width,
        keyframes: c.decoded ? c.times : (s?.ch.keyframes ?? []), keys: c.decoded ? c : null,
        samples: s?.ch.samples ?? null, problem: c.problem };
    })
    : samples.animations.flatMap((anim) => anim.channels.map((ch) => ({ animation: anim.index, name: anim.name,
      index: ch.index, target: ch.target, sampler: ch.sampler, interpolation: ch.interpolation,
      width: ch.samples.width, keyframes: ch.keyframes ?? [], keys: null, samples: ch.samples, problem: null,
      keysListed: ch.keyframes !== undefined })));
  // Each channel's issues, mapped to its keys by the worker (which holds the messages).
  // Output elements a key stores, as the keys file gives them (null without decoded keys).
  const channels = views.map((v) => ({ animation: v.animation, index: v.index, sampler: v.sampler,
    keys: v.keyframes.length, outputsPerKey: v.keys?.outputsPerKey ?? null }));
  const { channels: issues } = await ask({ type: 'channel-issues', asset: index, channels });
  into.replaceChildren();
  const now = plotGroup(into, uri);
  into.append(el('p', { class: 'plot-help' }, 'Keyboard: Tab to the plots, then the arrow keys: Left and Right ' +
    'move the time cursor, Up and Down choose the plot.'), now);
  // What the worker asked the evaluator for: at most this many samples a channel.
  if (r.request) into.dataset.maxTimes = String(r.request.perChannel);
  if (r.note) into.append(el('p', { class: 'plot-note' }, r.note));
  if (samples === null) {
    into.append(el('p', { class: 'refused' }, `${(r.stderr || r.error || 'sampling failed').trim()} ` +
      '(the keys of every channel are drawn as stored; curves only for animations the evaluator can sample)'));
  }
  // Each animation (clip) under a heading: its name, duration, channels and keys.
  const clips = new Map();
  for (const v of views) {
    let c = clips.get(v.animation);
    if (!c) clips.set(v.animation, c = { name: v.name || names?.animations?.[v.animation] || '', channels: 0, keys: 0, t0: Infinity, t1: -Infinity });
    c.channels += 1;
    c.keys += v.keyframes.length;
    // Without the keys (too many for the page), the clip's span is its samples'.
    if (v.keysListed === false) c.unlisted = true;
    for (const t of v.keysListed === false ? (v.samples?.times ?? []) : v.keyframes) {
      if (Number.isFinite(t)) {
        c.t0 = Math.min(c.t0, t);
        c.t1 = Math.max(c.t1, t);
      }
    }
  }
  let heading = null;
  views.forEach((v, n) => {
    if (v.animation !== heading) {
      heading = v.animation;
      const c = clips.get(heading);
      const span = c.t1 >= c.t0 ? (c.t0 === 0 ? `${seconds(c.t1)} long` : `keys from ${seconds(c.t0)} to ${seconds(c.t1)}`)
        : 'no key times';
      into.append(el('h3', { class: 'clip', 'data-animation': String(heading) },
        `Animation ${heading}${c.name ? ` "${c.name}"` : ''}: ${span}, ${c.channels} channel(s)${c.unlisted ? '' : `, ${c.keys} keys`}`));
    }
    into.append(channelPlot(v, issues[n], names));
  });
}

// Appendix C's cubic Hermite segment from key k to k+1, with t_d = t_{k+1} - t_k, is the Bézier
// curve with control points p_k, p_k + t_d b_k / 3, p_{k+1} - t_d a_{k+1} / 3, p_{k+1} (its
// derivative at each end is t_d times the stored per-second tangent): a key's handles end at
// t_k - t_d/3 (in, the segment before it) and t_k + t_d/3 (out, the segment after it). The first
// in-tangent and the last out-tangent belong to no segment: they take the adjacent segment's
// t_d. CUBICSLERP's tangents are control quaternions (sqlerp, not scaled by t_d): the handles end
// at their components. Two handles a key and component (docs/REFERENCE.md), as typed arrays:
// t[2k] and t[2k + 1] the in and out handles' times, v[(2k + side) * width + c] their values.
function tangentHandles(keys, interpolation) {
  const { times, values, ins, outs, width } = keys;
  if (ins === null) return null;
  const n = times.length;
  const t = new Float64Array(2 * n);
  const v = new Float64Array(2 * n * width);
  const controlPoints = interpolation === 'CUBICSLERP';
  for (let k = 0; k < n; ++k) {
    const before = k > 0 ? times[k] - times[k - 1] : n > 1 ? times[1] - times[0] : 0;
    const after = k + 1 < n ? times[k + 1] - times[k] : n > 1 ? times[k] - times[k - 1] : 0;
    t[2 * k] = times[k] - before / 3;
    t[2 * k + 1] = times[k] + after / 3;
    for (let c = 0; c < width; ++c) {
      const i = k * width + c;
      v[2 * k * width + c] = controlPoints ? ins[i] : values[i] - (before * ins[i]) / 3;
      v[(2 * k + 1) * width + c] = controlPoints ? outs[i] : values[i] + (after * outs[i]) / 3;
    }
  }
  return { t, v };
}

// Samples as the plots hold them: {times, values, width}, values[i * width + c] the component c
// of sample i (the worker's typed arrays, or the keys by time when there are no samples).

// The indices of the two samples around t (times sorted; the first two or last two outside
// them), by bisection.
function around(times, t) {
  let lo = 0;
  let hi = times.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  return [lo, hi];
}

// A component's value at time t from the evaluator's samples (sorted by t): the sample at t,
// else the straight line between its neighbours (STEP: the earlier one).
function valueAt(samples, t, c, step) {
  const { times, values, width } = samples;
  const last = times.length - 1;
  if (last < 0) return NaN;
  if (t <= times[0]) return values[c];
  if (t >= times[last]) return values[last * width + c];
  const [a, b] = around(times, t);
  const va = values[a * width + c];
  if (step || times[a] === t) return va;
  return va + ((t - times[a]) / (times[b] - times[a])) * (values[b * width + c] - va);
}

// The index of the evaluator's sample nearest to t (the cursor shows samples, never a value in
// between); -1 when there is none.
function nearestSample(times, t) {
  if (times.length === 0) return -1;
  const [a, b] = around(times, t);
  return Math.abs(times[b] - t) < Math.abs(t - times[a]) ? b : a;
}

// A unit quaternion (x, y, z, w) as an angle about an axis, in words: "90° about (0, 0, 1)".
function rotationWords([x, y, z, w]) {
  const n = Math.hypot(x, y, z, w);
  if (!(n > 0)) return null;
  const angle = 2 * Math.acos(Math.min(1, Math.abs(w) / n));
  const s = Math.sin(angle / 2) * n * Math.sign(w || 1);
  const r = (v) => String(Number(v.toFixed(3)) + 0);
  const deg = `${Number(((angle * 180) / Math.PI).toFixed(2))}°`;
  return Math.abs(s) > 1e-9 ? `${deg} about (${r(x / s)}, ${r(y / s)}, ${r(z / s)})` : `${deg}`;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

// ---- A channel's plot in steps: its frame (the scales), the axes and key grid, each component's
// curve and keys, the tangent handles, the issue markers, the time cursor and the caption. ----

// Widens a {t0, t1, lo, hi} range by a time and a value, each when finite.
function widen(into, t, v) {
  if (Number.isFinite(t)) { into.t0 = Math.min(into.t0, t); into.t1 = Math.max(into.t1, t); }
  if (Number.isFinite(v)) { into.lo = Math.min(into.lo, v); into.hi = Math.max(into.hi, v); }
}

// The plot's data: the samples' and keys' ranges (once: the worker gives both), and without
// decoded keys the listed keys' times.
function dataRange(samples, keys, keyframes) {
  const data = keys?.range ? { ...keys.range } : { t0: Infinity, t1: -Infinity, lo: Infinity, hi: -Infinity };
  if (samples !== null) {
    const r = samples.range;
    [data.t0, data.t1, data.lo, data.hi] = [Math.min(data.t0, r.t0), Math.max(data.t1, r.t1), Math.min(data.lo, r.lo),
      Math.max(data.hi, r.hi)];
  }
  if (keys === null) for (const t of keyframes) widen(data, t, NaN);
  return data;
}

// The range of the handles' ends, their drawn components.
function handleRangeOf(h, drawn, width) {
  const range = { t0: Infinity, t1: -Infinity, lo: Infinity, hi: -Infinity };
  for (let i = 0; i < h.t.length; ++i) for (let c = 0; c < drawn; ++c) widen(range, h.t[i], h.v[i * width + c]);
  return range;
}

// The scales: the data's ranges, widened by the handles' ends while they are shown (an empty
// range made one wide), and x(t), y(v) the pixel of a time and of a value.
function scales(data, handleRange) {
  let { lo, hi, t0, t1 } = data;
  if (handleRange !== null) {
    [t0, t1, lo, hi] = [Math.min(t0, handleRange.t0), Math.max(t1, handleRange.t1), Math.min(lo, handleRange.lo),
      Math.max(hi, handleRange.hi)];
  }
  if (!(hi > lo)) { lo = (Number.isFinite(lo) ? lo : 0) - 1; hi = lo + 2; }
  if (!(t1 >= t0)) { t0 = 0; t1 = 1; }
  return { t0, t1, lo, hi,
    x: (t) => PAD + ((t - t0) / (t1 - t0 || 1)) * (PLOT_W - 2 * PAD),
    y: (v) => PLOT_H - PAD - ((v - lo) / (hi - lo)) * (PLOT_H - 2 * PAD) };
}

// The axes' numbers and a grid line at each key's time. A key's grid line once a pixel column:
// tens of thousands of keys cost what the plot's width does.
function drawAxes(g, keyframes, { t0, t1, lo, hi }) {
  g.font = '20px sans-serif';
  g.fillStyle = '#4b5563';
  g.fillText(`${hi.toPrecision(3)}`, 2, PAD - 6);
  g.fillText(`${lo.toPrecision(3)}`, 2, PLOT_H - PAD - 4);
  g.fillText(seconds(t0), PAD, PLOT_H - 6);
  const end = seconds(t1);
  g.fillText(end, PLOT_W - PAD - g.measureText(end).width, PLOT_H - 6);
  const sx = (PLOT_W - 2 * PAD) / (t1 - t0 || 1); // x(t) = PAD + (t - t0) sx, inlined below
  const columns = new Uint8Array(PLOT_W);
  for (let k = 0; k < keyframes.length; ++k) {
    const px = Math.round(PAD + (keyframes[k] - t0) * sx);
    if (px >= 0 && px < PLOT_W) columns[px] = 1;
  }
  g.strokeStyle = '#e5e7eb';
  g.beginPath();
  for (let px = 0; px < PLOT_W; ++px) {
    if (!columns[px]) continue;
    g.moveTo(px, PAD);
    g.lineTo(px, PLOT_H - PAD);
  }
  g.stroke();
}

// Component c's curve through the evaluator's samples (STEP: held until the next sample), in
// the stroke style set.
function drawCurve(g, { times, values, width }, c, { x, y }, step) {
  g.beginPath();
  for (let i = 0; i < times.length; ++i) {
    const px = x(times[i]);
    const py = y(values[i * width + c]);
    if (i === 0) g.moveTo(px, py);
    else if (step) {
      g.lineTo(px, y(values[(i - 1) * width + c]));
      g.lineTo(px, py);
    } else g.lineTo(px, py);
  }
  g.stroke();
}

// Component c's keys, a square each in the fill style set (on the curve, or alone when there is
// none), its marks once a pixel (`marks`, PLOT_W x PLOT_H, cleared here) and in one path: a
// canvas operation a key would cost the rasterizer thousands. Returns the squares drawn.
function drawKeys(g, keyframes, keyValue, c, { t0, t1, lo, hi }, marks) {
  g.beginPath();
  marks.fill(0);
  const sx = (PLOT_W - 2 * PAD) / (t1 - t0 || 1); // x(t) = PAD + (t - t0) sx
  const sy = (PLOT_H - 2 * PAD) / (hi - lo); // y(v) = PLOT_H - PAD - (v - lo) sy
  let points = 0;
  for (let k = 0; k < keyframes.length; ++k) {
    const v = keyValue(k, c);
    const px = Math.round(PAD + (keyframes[k] - t0) * sx);
    const py = Math.round(PLOT_H - PAD - (v - lo) * sy);
    if (!(px >= 0 && px < PLOT_W && py >= 0 && py < PLOT_H) || marks[py * PLOT_W + px]) continue;
    marks[py * PLOT_W + px] = 1;
    g.rect(px - 4, py - 4, 8, 8);
    ++points;
  }
  g.fill();
  return points;
}

// Tangent handles (tangentHandles' {t, v}, or null): a thin line from the key to each handle's
// end, a dot at the end, the dots drawn last over every component's lines. Returns the handles drawn.
function drawHandles(g, shown, keyframes, keys, width, drawn, { x, y }) {
  let count = 0;
  const ends = new Path2D();
  for (let c = 0; c < drawn && shown; ++c) {
    g.strokeStyle = COLORS[c % COLORS.length];
    g.lineWidth = 1;
    g.beginPath();
    for (let i = 0; i < shown.t.length; ++i) {
      const k = i >> 1;
      const [t, v] = [shown.t[i], shown.v[i * width + c]];
      const [tk, vk] = [keyframes[k], keys.values[k * width + c]];
      if (!Number.isFinite(t + v + tk + vk)) continue;
      g.moveTo(x(tk), y(vk));
      g.lineTo(x(t), y(v));
      ends.rect(x(t) - 3, y(v) - 3, 6, 6);
      ++count;
    }
    g.stroke();
  }
  g.fillStyle = HANDLE_COLOR;
  g.fill(ends);
  return count;
}

// The channel's issues at their keys (`marked`), in the SVG layer: a triangle on the top edge and
// a line at the key's time. One marker a pixel column (its keys in data-keys, the first's time in
// data-t): a million issues cost at most PLOT_W elements.
function drawIssueMarkers(layer, marked, keyframes, x) {
  const columns = new Map(); // pixel column -> the keys marked there
  for (const k of marked) {
    if (!Number.isFinite(keyframes[k])) continue;
    const px = Math.round(x(keyframes[k]) * 100) / 100;
    const column = Math.round(px);
    if (!columns.has(column)) columns.set(column, { px, keys: [] });
    const c = columns.get(column);
    if (c.keys.length < 8 && !c.keys.includes(k)) c.keys.push(k);
  }
  layer.replaceChildren(...[...columns.values()].map(({ px, keys: at }) => svg('g',
    { class: 'issue-marker', 'data-keys': at.join(' '), 'data-t': String(keyframes[at[0]]), 'data-x': String(px) },
    svg('title', {}, at.map((k) => `key ${k} at ${seconds(keyframes[k])}`).join(', ')),
    svg('line', { x1: px, x2: px, y1: PAD, y2: PLOT_H - PAD, stroke: ISSUE_COLOR, 'stroke-width': 2 }),
    svg('path', { d: `M${px - 9} 4H${px + 9}L${px} ${PAD - 2}Z`, fill: ISSUE_COLOR }))));
}

// The stored keys as the cursor reads them without samples: those with a finite time, sorted by
// time, in the samples' form {times, values, width}.
function keyPointsOf(keys, keyframes, width) {
  const order = [];
  keyframes.forEach((t, k) => { if (Number.isFinite(t)) order.push(k); });
  order.sort((p, q) => keyframes[p] - keyframes[q]);
  const values = new Float64Array(order.length * width);
  order.forEach((k, i) => values.set(keys.values.subarray(k * width, (k + 1) * width), i * width));
  return { times: Float64Array.from(order, (k) => keyframes[k]), values, width };
}

// The time cursor at the point nearest to t (`points`: the samples, or the keys by time): a line
// on the overlay and the point's numbers in the readout (data-t and data-values exact, the text
// to 6 digits; `ofKeys`: the points are keys; `names`: the components' letters, or null).
function drawCursor(overlay, readout, points, t, { x }, { ofKeys, names, isRotation }) {
  const i = nearestSample(points.times, t);
  const g = overlay.getContext('2d');
  g.clearRect(0, 0, overlay.width, overlay.height);
  if (i < 0) return;
  const s = { t: points.times[i], value: Array.from(points.values.subarray(i * points.width, (i + 1) * points.width)) };
  g.strokeStyle = '#111827';
  g.lineWidth = 1.5;
  g.beginPath();
  g.moveTo(x(s.t), PAD);
  g.lineTo(x(s.t), PLOT_H - PAD);
  g.stroke();
  readout.dataset.t = String(s.t);
  readout.dataset.values = JSON.stringify(s.value);
  const short = (v) => (Number.isFinite(v) ? String(Number(v.toPrecision(6))) : String(v));
  const angle = isRotation ? rotationWords(s.value) : null;
  readout.textContent = `${ofKeys ? 'key ' : ''}t=${short(s.t)} s: ` +
    s.value.map((v, c) => `${names ? names[c] : c} ${short(v)}`).join(', ') + (angle ? `; rotation ${angle}` : '');
}

// The caption: the channel in words with its span, the legend, why it has no curve, and its
// issues listed (the first hundred; the report lists every one).
function plotCaption(view, issues, data, { drawn, names, keyCount }) {
  const { samples, keys, keyframes } = view;
  const flagged = issues.total;
  const span = data.t1 >= data.t0 ? ` from ${seconds(data.t0)} to ${seconds(data.t1)}` : '';
  const label = `animation ${view.animation}${view.name ? ` "${view.name}"` : ''}, ${view.target}, ${view.interpolation}, ` +
    `${keyCount}${span}` + (flagged ? `; ${flagged} issue(s) of this channel` : '');
  const legend = el('span', { class: 'legend' });
  for (let c = 0; c < drawn; ++c) {
    legend.append(el('span', { style: `color: ${COLORS[c % COLORS.length]}` }, `\u25a0 ${names ? names[c] : c}`), ' ');
  }
  const issueList = el('ul', { class: 'key-issues' }, ...issues.listed.map((m) => el('li', { 'data-code': m.code,
    'data-key': m.key === null ? '' : String(m.key) },
  `${m.key === null ? 'channel' : `key ${m.key} at ${seconds(keyframes[m.key])}`}: ${m.code}`)));
  if (issues.total > issues.listed.length) {
    issueList.append(el('li', {}, `and ${issues.total - issues.listed.length} more (the report lists every one)`));
  }
  // Why a channel has no curve: the evaluator refuses it, or another channel of its animation.
  const why = samples !== null ? null : view.problem !== null
    ? `No curve: the reference evaluator cannot sample this channel (${view.problem}).` +
      (keys === null ? ' Its keys could not be decoded either.' : ' Its keys are drawn as stored.')
    : `No curve: another channel of animation ${view.animation} cannot be sampled, so neither is its animation. ` +
      'Its keys are drawn as stored.';
  return el('figcaption', { class: 'label' }, label, el('br'), legend, ' (squares: keyframes',
    keys !== null && keys.ins !== null ? '; with tangents on, lines and dots: tangent handles' : '',
    issues.keys.length ? '; dark red triangles and lines: issues at keys)' : ')',
    why === null ? '' : el('p', { class: 'no-curve' }, why), issueList);
}

// The shown handles one by one (for tests and the console).
function handleListOf(h, width) {
  if (!h) return [];
  const out = [];
  for (let i = 0; i < h.t.length; ++i) {
    for (let c = 0; c < width; ++c) {
      out.push({ key: i >> 1, component: c, side: i % 2 === 0 ? 'in' : 'out', t: h.t[i], v: h.v[i * width + c] });
    }
  }
  return out;
}

// A channel's plot: a figure whose canvas is drawn (draw) while it is on screen and released
// when it leaves, with a time cursor (pointer, or the plots' group's keys through step).
function channelPlot(view, issues, assetNames = null) {
  const { width, samples, keys, keyframes } = view;
  const keyCount = view.keysListed === false ? 'keys not listed' : `${keyframes.length} keys`;
  const step = view.interpolation === 'STEP';
  const names = width === 4 ? ['x', 'y', 'z', 'w'] : width === 3 ? ['x', 'y', 'z'] : null;
  const drawn = Math.min(width, 16); // components drawn
  const words = targetWords(view.target, assetNames);
  const isRotation = width === 4 && /\/rotation$/.test(view.target ?? '');
  const canvas = el('canvas', { width: PLOT_W, height: PLOT_H, role: 'img',
    'aria-label': `Plot of ${words.who} ${words.what}, animation ${view.animation}, ${view.interpolation}, ` +
      `${keyCount}; the caption below lists its issues` });
  // The cursor's layer: pointer input only (the keyboard reaches the plots through their group).
  const overlay = el('canvas', { class: 'cursor', width: PLOT_W, height: PLOT_H, 'aria-hidden': 'true' });
  // The issue markers, in SVG: each a line and a triangle at its key's time, with a title.
  const marksLayer = svg('svg', { class: 'marks', viewBox: `0 0 ${PLOT_W} ${PLOT_H}`, 'aria-hidden': 'true' });
  const readout = el('output', { class: 'readout' });
  // What the cursor reads: the evaluator's samples, or without them the stored keys by time
  // (made when the cursor first needs them).
  let keyPoints = null;
  const cursorPoints = () => {
    if (samples !== null) return samples;
    if (keyPoints === null) keyPoints = keyPointsOf(keys, keyframes, width);
    return keyPoints;
  };
  // A key's value as drawn: as stored when the keys are known, else read between the samples.
  const keyValue = (k, c) => (keys ? keys.values[k * width + c] : valueAt(samples, keyframes[k], c, step));
  let handles; // computed the first time the tangents are shown (null: the mode has none)
  const shownHandles = () => {
    if (!$('#tangents').checked || keys === null) return null;
    if (handles === undefined) handles = tangentHandles(keys, view.interpolation);
    return handles;
  };
  // The plot's frame: the samples and keys, and the handles while they are shown.
  const data = dataRange(samples, keys, keyframes);
  let handleRange = null; // the handles' ends, once
  let sc; // the scales
  const frame = () => {
    const h = shownHandles();
    if (h && handleRange === null) handleRange = handleRangeOf(h, drawn, width);
    sc = scales(data, h ? handleRange : null);
  };
  frame();
  const marked = issues.keys; // the key of each issue that names one

  const draw = () => {
    frame();
    canvas.width = PLOT_W; // a released plot gets its bitmap back
    overlay.width = PLOT_W;
    const g = canvas.getContext('2d');
    drawAxes(g, keyframes, sc);
    let points = 0;
    const marks = new Uint8Array(PLOT_W * PLOT_H); // the pixels a component's keys marked
    for (let c = 0; c < drawn; ++c) {
      g.strokeStyle = COLORS[c % COLORS.length];
      g.lineWidth = 2;
      if (samples !== null) drawCurve(g, samples, c, sc, step);
      g.fillStyle = COLORS[c % COLORS.length];
      points += drawKeys(g, keyframes, keyValue, c, sc, marks);
    }
    figure.dataset.points = String(points);
    figure.dataset.handles = String(drawHandles(g, shownHandles(), keyframes, keys, width, drawn, sc));
    drawIssueMarkers(marksLayer, marked, keyframes, sc.x);
    if (cursorTime !== null) cursor(cursorTime);
  };
  const release = () => {
    canvas.width = 0; // the bitmap is freed; the layout keeps its size (style.css)
    overlay.width = 0;
  };
  const cursor = (t) => drawCursor(overlay, readout, cursorPoints(), t, sc, { ofKeys: samples === null, names, isRotation });
  const timeAt = (e) => {
    const r = overlay.getBoundingClientRect();
    const px = ((e.clientX - r.left) / r.width) * PLOT_W;
    return sc.t0 + ((px - PAD) / (PLOT_W - 2 * PAD)) * (sc.t1 - sc.t0);
  };
  overlay.addEventListener('pointermove', (e) => {
    if (e.pointerType === 'mouse' || overlay.hasPointerCapture(e.pointerId)) setCursor(timeAt(e));
  });
  overlay.addEventListener('pointerdown', (e) => {
    overlay.setPointerCapture(e.pointerId);
    setCursor(timeAt(e));
  });
  // A key of the plots' group: the cursor one sample left or right, or to the first or last.
  const stepCursor = (key) => {
    const points = cursorPoints();
    const move = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : 0;
    const n = points.times.length;
    if (n === 0 || (move === 0 && key !== 'Home' && key !== 'End')) return false;
    const here = nearestSample(points.times, cursorTime ?? sc.t0);
    const i = key === 'Home' ? 0 : key === 'End' ? n - 1
      : Math.max(0, Math.min(n - 1, here + (cursorTime === null ? 0 : move)));
    setCursor(points.times[i]);
    if (!plots.has(figure.plot)) cursor(points.times[i]); // drawn when it is on screen
    return true;
  };

  const figure = el('figure', { class: samples !== null ? 'channel' : 'channel keys-only',
    'data-issue-markers': String(marked.length), 'data-keys': String(keyframes.length),
    'data-samples': String(samples?.times.length ?? 0) },
  el('p', { class: 'name' }, words.who, words.what ? `: ${words.what}` : ''),
  el('div', { class: 'plot' }, canvas, marksLayer, overlay), readout,
  plotCaption(view, issues, data, { drawn, names, keyCount }));
  // handles(): the shown handles one by one (for tests and the console), frame(): the axes' ranges.
  figure.plot = { figure, draw, release, cursor, step: stepCursor, handles: () => handleListOf(shownHandles(), width),
    frame: () => ({ t0: sc.t0, t1: sc.t1, lo: sc.lo, hi: sc.hi }) };
  release();
  plotObserver.observe(figure);
  return figure;
}

// ---- Compare mode: the suite's golden samples against an engine's ----

let golden = [];
let actual = [];

// A case's largest error and where it is (the report's {max, worstT, worstTarget}).
function worst(e, unit = '') {
  if (!e) return '';
  return `${e.max.toPrecision(3)}${unit}` + (e.max > 0 ? ` at t=${e.worstT} (${e.worstTarget})` : '');
}

async function compareRun() {
  if (golden.length === 0 || actual.length === 0) {
    say('Compare: pick the suite folder (with its manifest.json) and the engine\'s samples files.');
    return;
  }
  say('Comparing…');
  const r = await ask({ type: 'compare', golden, actual });
  if (r.error || r.text === null) {
    say(r.error ?? r.stderr);
    return;
  }
  const report = JSON.parse(r.text);
  say(report.summaryLine ?? 'Compared.');
  const s = report.summary;
  const ran = report.cases.filter((c) => c.outcome !== 'not run');
  $('#compare-summary').textContent = `${s.cases} cases: ${s.passed} passed, ${s.failed} failed, ` +
    `${s.notRun} not run, ${s.excluded} excluded, ${s.nothingCompared} nothing compared.`;
  const body = el('tbody');
  for (const c of ran) {
    body.append(el('tr', { class: `case ${c.passed ? 'pass' : 'fail'}`, 'data-id': c.id },
      el('td', {}, el('code', {}, c.id)), el('td', { class: 'outcome' }, c.outcome),
      el('td', {}, worst(c.absolute)), el('td', {}, worst(c.angle, ' rad')), el('td', {}, c.problem ?? '')));
  }
  $('#compare-cases').replaceChildren(el('thead', {}, el('tr', {}, el('th', {}, 'Case'), el('th', {}, 'Outcome'),
    el('th', {}, 'Max error'), el('th', {}, 'Max angle'), el('th', {}, 'Problem'))), body);
  $('#compare-result').hidden = false;
}

// ---- Repair: `gltf-anim fix`, `reduce` or `fit` within a bound, `migrate`, run in the worker ----
// The summary is shown and every file the tool wrote (the asset, a new .bin) is offered as a
// download, the bytes the CLI writes. The selects' values are the CLI's --to words.

function repairView(uri) {
  const bound = el('input', { type: 'number', class: 'max-error', min: '0', step: 'any', value: '0.0001' });
  const fitTo = el('select', { class: 'fit-to', 'aria-label': 'fit to' },
    el('option', { value: 'cubicspline' }, 'CUBICSPLINE'), el('option', { value: 'cubicslerp' }, 'CUBICSLERP (EXT_animation_sqlerp)'));
  const migrateTo = el('select', { class: 'migrate-to', 'aria-label': 'migrate to' },
    el('option', { value: 'khr_animation_pointer' }, 'KHR_animation_pointer'), el('option', { value: 'khr_animation2' }, 'KHR_animation2'));
  const out = el('div', { class: 'repair-result', 'aria-live': 'polite' });
  const button = (tool, label, options) => el('button', { type: 'button', class: `repair-${tool}`,
    onclick: () => repairRun(uri, tool, options(), out) }, label);
  return el('details', { class: 'repair' }, el('summary', {}, 'Repair'),
    el('p', {}, button('fix', 'Fix', () => ({})), ' every repair of gltf-anim fix, or ',
      button('reduce', 'Reduce', () => ({ maxError: bound.value })),
      ' keyframes within ', el('label', {}, 'a max error of ', bound),
      ' (each component; rotations within twice that, in radians).'),
    el('p', {}, button('fit', 'Fit', () => ({ maxError: bound.value, to: fitTo.value })),
      ' LINEAR channels with fewer cubic keys as ', fitTo, ' within the same max error.'),
    el('p', {}, button('migrate', 'Migrate', () => ({ to: migrateTo.value })),
      ' KHR_animation2 or KHR_animation_pointer channels to ', migrateTo, '.'),
    out);
}

async function repairRun(uri, tool, options, out) {
  say(`Running ${tool} on ${uri}…`);
  const r = await ask({ type: 'repair', asset: uri, tool, ...options });
  out.replaceChildren();
  if (r.error) out.append(el('p', { class: 'repair-error' }, r.error));
  // What changed and the download first; the channels the tool left alone folded away.
  const names = Object.keys(r.files ?? {});
  const text = r.summary ? repairText(r.summary, r.names ?? null) : null;
  if (text) out.append(el('p', { class: 'repair-lead' }, text.lead));
  if (names.length > 0) {
    out.append(el('p', { class: 'repair-files' }, 'Download: ', ...names.flatMap((name, i) => [i > 0 ? ', ' : '',
      el('a', { href: URL.createObjectURL(new Blob([r.files[name]])), download: name.slice(name.lastIndexOf('/') + 1) },
        name)])));
  }
  if (text) {
    out.append(el('pre', { class: 'repair-summary' }, text.changed));
    if (text.unchanged.length > 0) {
      out.append(el('details', { class: 'repair-unchanged' },
        el('summary', {}, `${text.unchanged.length} channel(s) unchanged`), el('pre', {}, text.unchanged.join('\n'))));
    }
  }
  say(r.error ?? (r.exitCode === 0 ? `${tool}: ${names.length} file(s) written.` : r.summary.message));
}

// The report's note that a channel's time accessor is counted in another channel's bytes
// (samplers sharing it): bookkeeping, not a change.
function isSharedTimesNote(note) {
  return /^(its times \(accessor \d+\)|after the edit its times) are .*'s too, counted in that channel's bytes$/.test(note);
}

// A channel the tool left as it was: the same keys, bytes and interpolation, nothing measured.
function unchangedChannel(c) {
  return c.interpolationAfter === c.interpolationBefore && c.keysAfter === c.keysBefore &&
    c.bytesAfter === c.bytesBefore && c.maxError === null && c.maxAngle === null &&
    c.notes.every((note) => note === 'unchanged' || isSharedTimesNote(note));
}

// The summary as lines, like the CLI's text report: {lead: one sentence of what changed,
// changed: the lines of what changed (first the tool's line, last the totals), unchanged: the
// lines of the channels left as they were}.
function repairText(s, names = null) {
  // A channel's target with the asset's name for it, when it has one: (bone "Hips").
  const named = (target) => {
    const m = /^\/([A-Za-z_]+)\/(\d+)\//.exec(target ?? '');
    if (m === null || (names?.[m[1]]?.[Number(m[2])] ?? null) === null) return '';
    return ` (${targetWords(target, names).who.replace(/ \([^()]*\)$/, '')})`;
  };
  const lines = [`${s.tool}: ${s.input} -> ${s.output ?? '(no output)'}${s.written ? '' : ' (not written)'}`];
  const unchanged = [];
  if (s.message) lines.push(`  ${s.message}`);
  for (const r of s.repairs) lines.push(`  ${r.fixed ? 'fixed' : 'not fixable'} ${r.code} at ${r.pointer}: ${r.action}`);
  for (const c of s.channels) {
    const mode = c.interpolationAfter === c.interpolationBefore ? c.interpolationBefore
      : `${c.interpolationBefore} -> ${c.interpolationAfter}`;
    const error = c.maxAngle !== null ? `, max angle ${c.maxAngle} rad` : c.maxError !== null ? `, max error ${c.maxError}` : '';
    const line = `  ${c.channel} ${c.target}${named(c.target)}: ${mode}, keys ${c.keysBefore} -> ${c.keysAfter}, ` +
      `bytes ${c.bytesBefore} -> ${c.bytesAfter}${error}`;
    if (unchangedChannel(c)) {
      unchanged.push(line.trimStart());
      continue;
    }
    lines.push(line);
    for (const note of c.notes) lines.push(`      ${note}`);
  }
  for (const note of s.notes) lines.push(`  ${note}`);
  lines.push(`  file bytes ${s.bytesBefore} -> ${s.bytesAfter}, errors ${s.errorsBefore} -> ${s.errorsAfter}`);
  const fixed = s.repairs.filter((r) => r.fixed).length;
  const changedChannels = s.channels.length - unchanged.length;
  const parts = [];
  if (s.repairs.length > 0) parts.push(`${fixed} of ${s.repairs.length} issue(s) repaired`);
  parts.push(`${changedChannels} of ${s.channels.length} channel(s) changed`);
  parts.push(`errors ${s.errorsBefore} → ${s.errorsAfter}`, `${s.bytesBefore} → ${s.bytesAfter} bytes`);
  const lead = `${s.tool[0].toUpperCase()}${s.tool.slice(1)}${s.written ? ` wrote ${s.output}` : ' wrote nothing'}: ${parts.join(', ')}.`;
  return { lead, changed: lines.join('\n'), unchanged };
}

// ---- Wiring ----

const drop = $('#drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', async (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  await validateFiles(await filesFromDrop(e.dataTransfer));
});
for (const id of ['#file', '#folder']) {
  $(id).addEventListener('change', async (e) => {
    await validateFiles(filesFromInput(e.target));
    e.target.value = '';
  });
}
for (const [id, set] of [['#golden', (f) => { golden = f; }], ['#actual', (f) => { actual = f; }]]) {
  $(id).addEventListener('change', async (e) => {
    set(filesFromInput(e.target));
    e.target.value = '';
    await compareRun();
  });
}
for (const i of document.querySelectorAll('#filters input[name=severity], #code-filter')) i.addEventListener('change', applyFilters);
$('#tangents').addEventListener('change', () => {
  for (const p of plots) p.draw();
});
for (const b of document.querySelectorAll('#downloads button')) {
  b.addEventListener('click', () => download(b.dataset.format));
}
registryLoaded.then(() => {
  window.gltfAnimReady = true;
}, (e) => say(String(e?.message ?? e)));
