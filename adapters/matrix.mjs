#!/usr/bin/env node
// Builds the conformance matrix docs/conformance/README.md: engines x cases,
// grouped by the manifest's groups, from each engine's `gltf-anim compare
// --format json` report and its verdicts file.
//
//   node adapters/matrix.mjs --work DIR --out FILE [--html FILE] [--check]
//
// DIR holds <engine id>.json (the compare reports, written by run-all.sh);
// --html also writes the matrix as an HTML page linking each cell to the
// engine's compare report <engine id>.html (put it in DIR).
// Cell of a case:
//   pass                      compare passed it against the golden samples
//   pass as variant NAME      compare passed it on a variant the manifest allows
//   fail: NAME                compare failed it; NAME is the manifest's known
//                             divergence it matched, else the engine's verdict
//   unsupported: WHY          the engine cannot run it (verdict "unsupported")
//   n/a                       outside the adapter's scope (gl-matrix: sqlerp only)
// Verdicts (adapters/<adapter>/verdicts.json) classify every case that does
// not pass: {"case": {"verdict": "deviation" | "allowed" | "unsupported" |
// "our-bug", "why": "short name"}}. "allowed" is a reading the specs allow
// that the manifest does not list as a variant yet (so compare fails it);
// "our-bug" a defect of the suite, named and reported.
// --check: exit 1 when a non-passing case has no verdict, a verdict names a
// case that passes or does not exist, or the engine's notes page does not
// name every non-passing case (`id` in backquotes): every cell is explained.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedVersion } from './common/runner.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const VERDICTS = ['deviation', 'allowed', 'unsupported', 'our-bug'];
const GROUP_TITLES = {
  core: 'Core interpolation (glTF 2.0 Appendix C)',
  edge: 'Edge cases',
  normalized: 'Normalized integer outputs',
  container: 'Containers (data URI, external .bin, GLB)',
  divergence: 'Known divergences between engines',
  pointer: 'KHR_animation_pointer',
  animation2: 'KHR_animation2 (draft)',
  sqlerp: 'EXT_animation_sqlerp (draft)',
  user: 'Your assets (gltf-anim generate --from)',
};

function parseArgs(argv) {
  const o = { check: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--work') o.work = argv[++i];
    else if (argv[i] === '--out') o.out = argv[++i];
    else if (argv[i] === '--check') o.check = true;
    else if (argv[i] === '--html') o.html = argv[++i];
    else if (argv[i] === '--suite') o.suite = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!o.work || !o.out) throw new Error('usage: node adapters/matrix.mjs --work DIR --out FILE [--html FILE] [--suite DIR] [--check]');
  if (o.suite && o.check) throw new Error('--check judges the committed verdicts; it does not apply to --suite');
  return o;
}

// The installed version of a Debian package (a C++ engine's library).
function debianVersion(name) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Version}', name], { encoding: 'utf8' });
  if (r.status !== 0 || !r.stdout) throw new Error(`the Debian package ${name} is not installed`);
  return r.stdout.trim();
}

function md(s) {
  return String(s).replace(/[\\`*_[\]|<>]/g, (c) => `\\${c}`);
}

// The cell of one case for one engine: {text, passed, explained, problem}.
// ownSuite: a suite of the user's assets (run-all.sh --suite): no verdicts, a failure is named
// by the known divergence it matches, if any.
export function cellOf(engine, entry, result, verdicts, ownSuite = false) {
  if (engine.scope !== 'suite' && entry.group !== engine.scope) return { text: 'n/a', plain: 'n/a', kind: 'n/a' };
  if (!result) return { text: '**not run**', plain: 'not run', kind: 'missing', problem: `${engine.id}: no result for ${entry.id}` };
  const v = verdicts[entry.id];
  if (result.passed) {
    const text = result.matchedVariant ? `✅ pass as variant *${md(result.matchedVariant)}*` : '✅ pass';
    const plain = result.matchedVariant ? `pass as variant ${result.matchedVariant}` : 'pass';
    return { text, plain, kind: 'pass', problem: v ? `${engine.id}: verdict for ${entry.id}, which passes` : undefined };
  }
  if (!v && ownSuite) {
    const name = result.matchedDivergence ? `: divergence *${md(result.matchedDivergence)}*` : '';
    return { text: `❌ fail${name}`, plain: `fail${result.matchedDivergence ? `: divergence ${result.matchedDivergence}` : ''}`, kind: 'fail' };
  }
  if (!v) return { text: '❓ **unexplained failure**', plain: 'unexplained failure', kind: 'fail', problem: `${engine.id}: ${entry.id} fails and has no verdict` };
  if (!VERDICTS.includes(v.verdict)) return { text: '❓', plain: 'unknown verdict', kind: 'fail', problem: `${engine.id}: ${entry.id}: unknown verdict ${v.verdict}` };
  if (v.verdict === 'unsupported') return { text: `⬜ unsupported: ${md(v.why)}`, plain: `unsupported: ${v.why}`, kind: 'unsupported' };
  const name = result.matchedDivergence ? `divergence *${md(result.matchedDivergence)}*` : md(v.why);
  const plainName = result.matchedDivergence ? `divergence ${result.matchedDivergence}` : v.why;
  const label = { deviation: 'fail', allowed: 'fail (reading the specs allow)', 'our-bug': 'fail (suite bug)' }[v.verdict];
  return { text: `❌ ${label}: ${name}`, plain: `${label}: ${plainName}`, kind: 'fail' };
}

export function buildMatrix({ manifest, engines, reports, verdicts, versions, notesText, ownSuite = false }) {
  const problems = [];
  const cases = manifest.assets.filter((e) => e.samples);
  const ids = new Set(cases.map((e) => e.id));
  const counts = Object.fromEntries(engines.map((e) => [e.id, { pass: 0, variant: 0, fail: 0, unsupported: 0, 'n/a': 0 }]));
  const groups = [];
  for (const e of cases) {
    let g = groups.find((x) => x.name === e.group);
    if (!g) groups.push(g = { name: e.group, cases: [] });
    g.cases.push(e);
  }
  const out = [];
  if (ownSuite) {
    out.push('# Your assets across engines');
    out.push('');
    out.push('Every engine below played the assets of the suite `gltf-anim generate --from` built, at the');
    out.push('golden samples\' times; `gltf-anim compare` judged each against the reference evaluator\'s');
    out.push('samples and the variants that apply (loops, nlerp, ...). A failure names the known divergence');
    out.push('it matches, if any; the engines\' compare reports (beside this file) show where and by how much.');
    out.push('Generated by `bash adapters/run-all.sh --suite DIR`.');
    out.push('');
  }
  const intro = ownSuite ? [] : out;
  intro.push('# Conformance matrix: engines x cases');
  intro.push('');
  intro.push('Every engine below sampled the whole conformance suite (conformance_assets/) with its own');
  intro.push('glTF loading and animation code, headless (the JavaScript engines in Node, the C++ ones as');
  intro.push('programs: Filament on its no-op backend, assimp\'s imported keys played as its headers document;');
  intro.push('Blender\'s import played by Blender itself, in one headless Blender; Godot 3\'s editor import');
  intro.push('played by its AnimationPlayer, in headless Godot; VTK\'s importer without rendering),');
  intro.push('at the golden samples\' times (gl-matrix, a cross-check of one formula, only the');
  intro.push('EXT_animation_sqlerp cases); `gltf-anim compare` judged');
  intro.push('each case against the golden samples and the variants and known divergences of the manifest.');
  intro.push('Every cell that is not a pass is explained on the engine\'s notes page.');
  intro.push('Generated by `bash adapters/run-all.sh`; do not edit (CTest `conformance_matrix` checks that');
  intro.push('it is current and that every cell is explained).');
  intro.push('');
  out.push('| engine | version (npm: locked in adapters/package-lock.json; Debian: the installed package) | what runs | pass | pass as variant | fail | unsupported | notes |');
  out.push('|---|---|---|---|---|---|---|---|');
  const cellRows = [];
  // Per feature (the manifest's "features" of each case: an interpolation, a path, an
  // extension...), per engine: how many of the cases with that feature pass, fail, are
  // unsupported. The HTML page leads with it.
  const featureCounts = new Map();
  const html = { groups: [], summary: [], features: featureCounts };
  for (const g of groups) {
    const rows = [];
    const htmlRows = [];
    html.groups.push({ title: GROUP_TITLES[g.name] ?? g.name, rows: htmlRows });
    for (const entry of g.cases) {
      const cells = engines.map((eng) => {
        const result = reports[eng.id].cases.find((c) => c.id === entry.id);
        const cell = cellOf(eng, entry, result, verdicts[eng.id], ownSuite);
        if (cell.problem) problems.push(cell.problem);
        const c = counts[eng.id];
        if (cell.kind === 'pass') c[result.matchedVariant ? 'variant' : 'pass']++;
        else if (cell.kind in c) c[cell.kind]++;
        for (const f of entry.features ?? []) {
          if (!featureCounts.has(f)) featureCounts.set(f, Object.fromEntries(engines.map((e) => [e.id, { pass: 0, fail: 0, unsupported: 0 }])));
          const fc = featureCounts.get(f)[eng.id];
          if (cell.kind in fc) fc[cell.kind]++;
        }
        if (!ownSuite && (cell.kind === 'fail' || cell.kind === 'unsupported')) {
          if (!notesText[eng.id].includes(`\`${entry.id}\``)) problems.push(`${eng.id}: ${eng.notes} does not name \`${entry.id}\``);
        }
        return cell;
      });
      rows.push(`| \`${entry.id}\` | ${cells.map((c) => c.text).join(' | ')} |`);
      htmlRows.push({ id: entry.id, cells });
    }
    cellRows.push({ g, rows });
  }
  for (const eng of engines) {
    for (const id of Object.keys(verdicts[eng.id])) {
      if (!ids.has(id)) problems.push(`${eng.id}: verdict for unknown case ${id}`);
    }
    const c = counts[eng.id];
    html.summary.push({ engine: eng, version: versions[eng.id], counts: c });
    out.push(`| ${md(eng.name)} | \`${eng.package}\` ${versions[eng.id]} | ${md(eng.kind)} | ${c.pass} | ${c.variant} | ${c.fail} | ${c.unsupported}${c['n/a'] ? ` (${c['n/a']} n/a)` : ''} | [${eng.notes}](${eng.notes}) |`);
  }
  out.push('');
  out.push('Cells: ✅ pass; ✅ pass as variant *name* (a reading the specs allow, named in the manifest);');
  out.push('❌ fail: the named divergence or deviation (the notes page quotes the spec sentence);');
  out.push('❌ fail (reading the specs allow): the engine took a reading the specs allow that the manifest');
  out.push('does not list yet; ❌ fail (suite bug): a defect of the suite, described on the notes page;');
  out.push('⬜ unsupported: the engine cannot run the case (extension not implemented, loader refuses the');
  out.push('asset); n/a: outside what the adapter is for.');
  out.push('');
  out.push('What happens to animation on its way through tools: the exporter matrix [exporters.md](exporters.md)');
  out.push('(exporters that import and write back every case) and the pipeline matrix [pipelines.md](pipelines.md)');
  out.push('(gltfpack and glTF-Transform\'s optimizations; every cell explained on [pipelines-notes.md](pipelines-notes.md)).');
  out.push('');
  const header = `| case | ${engines.map((e) => md(e.name)).join(' | ')} |`;
  const rule = `|---|${engines.map(() => '---').join('|')}|`;
  for (const { g, rows } of cellRows) {
    out.push(`## ${GROUP_TITLES[g.name] ?? md(g.name)}`);
    out.push('');
    out.push(header);
    out.push(rule);
    out.push(...rows);
    out.push('');
  }
  return { text: out.join('\n'), problems, html };
}

// The anchor `gltf-anim compare --format html` gives a case's section or row
// (reports/src/compare_html.cpp, case_anchors): "case-" + the id, every UTF-8
// byte outside [A-Za-z0-9._-] written as ~XX (upper-case hex).
export function caseAnchor(id) {
  let a = 'case-';
  for (const byte of Buffer.from(String(id), 'utf8')) {
    const c = String.fromCharCode(byte);
    a += /[A-Za-z0-9._-]/.test(c) ? c : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return a;
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// The matrix as one HTML page (cells coloured by kind, no emoji: fonts
// without them show boxes) beside the engines' compare reports (<id>.html
// in the same folder, linked from the column heads and from every cell).
// notesHref(engine): the link to the engine's notes page from where the page
// is written (none when unknown).
export function matrixHtml({ groups, summary, features = new Map() }, engines, notesHref = () => undefined) {
  const colour = { pass: '#e6f4ea', fail: '#fce8e6', unsupported: '#f1f3f4', 'n/a': '#ffffff', missing: '#fff4e5' };
  const out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Conformance matrix</title>',
    '<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse;margin-bottom:1.5em}',
    'td,th{border:1px solid #ccc;padding:3px 6px;font-size:13px;vertical-align:top}th{background:#f8f9fa}</style></head><body>',
    '<h1>Conformance matrix: engines x cases</h1>',
    '<p>Generated by <code>bash adapters/run-all.sh</code>. A column head opens the engine\'s compare report; a cell opens',
    'that case in it; each engine\'s notes page explains every cell that is not a pass.</p>',
    '<p>Legend: ' + Object.entries({ pass: 'pass (or pass as a variant the manifest allows)', fail: 'fail: a named divergence or the engine\'s verdict',
      unsupported: 'unsupported: the engine cannot run the case', missing: 'not run: no samples file', 'n/a': 'outside what the adapter is for' })
      .map(([k, v]) => `<span style="background:${colour[k]};border:1px solid #ccc;padding:0 4px">${esc(v)}</span>`).join(' ') + '</p>',
    '<table><tr><th>engine</th><th>version</th><th>notes</th><th>pass</th><th>pass as variant</th><th>fail</th><th>unsupported</th><th>n/a</th></tr>'];
  for (const { engine, version, counts } of summary) {
    const notes = notesHref(engine);
    out.push(`<tr><td><a href="${esc(engine.id)}.html">${esc(engine.name)}</a></td><td>${esc(engine.package)} ${esc(version)}</td>` +
      `<td>${notes ? `<a href="${esc(notes)}">${esc(engine.notes)}</a>` : esc(engine.notes ?? '')}</td>` +
      `<td>${counts.pass}</td><td>${counts.variant}</td><td>${counts.fail}</td><td>${counts.unsupported}</td><td>${counts['n/a']}</td></tr>`);
  }
  out.push('</table>');
  if (features.size) {
    // Per feature: pass / fail / unsupported cases of each engine (n/a cells not counted).
    out.push('<h2>Per feature</h2><p>Cases with each feature of the manifest: passed / failed / unsupported by each engine.</p>');
    out.push(`<table><tr><th>feature</th>${engines.map((e) => `<th>${esc(e.name)}</th>`).join('')}</tr>`);
    for (const f of [...features.keys()].sort()) {
      const row = features.get(f);
      out.push(`<tr><td><code>${esc(f)}</code></td>${engines.map((e) => {
        const k = row[e.id];
        const total = k.pass + k.fail + k.unsupported;
        if (!total) return '<td>n/a</td>';
        const kind = k.fail ? 'fail' : k.unsupported ? 'unsupported' : 'pass';
        return `<td style="background:${colour[kind]}">${k.pass} / ${k.fail} / ${k.unsupported}</td>`;
      }).join('')}</tr>`);
    }
    out.push('</table>');
  }
  for (const g of groups) {
    out.push(`<h2>${esc(g.title)}</h2><table><tr><th>case</th>${engines.map((e) => `<th><a href="${esc(e.id)}.html">${esc(e.name)}</a></th>`).join('')}</tr>`);
    for (const r of g.rows) {
      out.push(`<tr><td><code>${esc(r.id)}</code></td>${r.cells.map((c, i) => (c.kind === 'n/a' ? '<td>n/a</td>'
        : `<td style="background:${colour[c.kind] ?? '#fff'}"><a href="${esc(engines[i].id)}.html#${esc(caseAnchor(r.id))}">${esc(c.plain)}</a></td>`)).join('')}</tr>`);
    }
    out.push('</table>');
  }
  out.push('</body></html>');
  return out.join('\n') + '\n';
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const manifest = JSON.parse(fs.readFileSync(path.join(o.suite ?? path.join(ROOT, 'conformance_assets'), 'manifest.json'), 'utf8'));
  const { engines } = JSON.parse(fs.readFileSync(path.join(HERE, 'engines.json'), 'utf8'));
  const reports = {};
  const verdicts = {};
  const versions = {};
  const notesText = {};
  for (const e of engines) {
    reports[e.id] = JSON.parse(fs.readFileSync(path.join(o.work, `${e.id}.json`), 'utf8'));
    const vf = path.join(HERE, e.adapter, 'verdicts.json');
    verdicts[e.id] = fs.existsSync(vf) && !o.suite ? JSON.parse(fs.readFileSync(vf, 'utf8')) : {};
    delete verdicts[e.id].about;
    versions[e.id] = e.debianPackage ? debianVersion(e.debianPackage) : installedVersion(e.package);
    const nf = path.join(ROOT, 'docs', 'conformance', e.notes);
    notesText[e.id] = fs.existsSync(nf) ? fs.readFileSync(nf, 'utf8') : '';
    if (!notesText[e.id]) notesText[e.id] = '';
  }
  const { text, problems, html } = buildMatrix({ manifest, engines, reports, verdicts, versions, notesText, ownSuite: !!o.suite });
  const write = (file, content) => {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, content);
    fs.renameSync(`${file}.tmp`, file);
  };
  write(o.out, text + '\n');
  if (o.html) {
    const from = path.dirname(path.resolve(o.html));
    const notesHref = (e) => (e.notes ? path.relative(from, path.join(ROOT, 'docs', 'conformance', e.notes)).split(path.sep).join('/') : undefined);
    write(o.html, matrixHtml(html, engines, notesHref));
  }
  for (const p of problems) console.error(`matrix: ${p}`);
  console.log(`matrix: ${engines.length} engines x ${manifest.assets.filter((e) => e.samples).length} cases -> ${o.out}${problems.length ? `, ${problems.length} cell(s) not explained` : ''}`);
  return o.check && problems.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(`matrix: ${e.message}`);
    process.exitCode = 2;
  }
}
