// The package README's JavaScript conformance recipe, end to end as a user runs it: its ```ts
// block, taken from the README in the tarball, type-checked by `tsc --noEmit` (strict, against
// the installed package's index.d.ts: the report's fields must be typed), compiled and run
// with the package installed from the tarball; and the compare report's types in index.d.ts
// checked member by member against the JSON compare writes. TypeScript is pinned in
// web/tests/tools/package.json (web/tests/run.sh installs it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

import { ROOT, installPackage } from './helpers.mjs';

const TSC = join(ROOT, 'web/tests/tools/node_modules/typescript/bin/tsc');
const work = mkdtempSync(join(tmpdir(), 'gltf-anim-recipe-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The README's ```ts blocks. */
function tsBlocks(readme) {
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022', 'dom'],
    strict: true,
    noUncheckedIndexedAccess: false,
    skipLibCheck: false,
    types: [],
    outDir: 'out',
  },
  files: ['conformance.mts'],
};

function tsc(cwd, args) {
  return spawnSync(process.execPath, [TSC, ...args], { cwd, encoding: 'utf8' });
}

test('the README recipe type-checks with tsc --noEmit and runs: suite, sampler, compare, report', () => {
  assert.ok(existsSync(TSC), `no TypeScript at ${TSC}: run npm ci in web/tests/tools`);
  const { prefix } = installPackage();
  const readme = readFileSync(join(prefix, 'node_modules/gltf-anim/README.md'), 'utf8');
  const blocks = tsBlocks(readme);
  assert.equal(blocks.length, 1, 'one TypeScript recipe in the README');
  // The recipe in a folder whose node_modules holds the installed package.
  const dir = mkdtempSync(join(prefix, 'recipe-'));
  writeFileSync(join(dir, 'conformance.mts'), blocks[0]);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  const check = tsc(dir, ['--noEmit', '-p', 'tsconfig.json']);
  assert.equal(check.status, 0, `tsc --noEmit:\n${check.stdout}${check.stderr}`);
  const build = tsc(dir, ['-p', 'tsconfig.json']);
  assert.equal(build.status, 0, `tsc:\n${build.stdout}${build.stderr}`);
  const run = spawnSync(process.execPath, [join(dir, 'out/conformance.mjs')], { cwd: dir, encoding: 'utf8' });
  assert.equal(run.status, 0, `the recipe:\n${run.stdout}${run.stderr}`);
  const out = run.stdout;
  // 1. The suite, in the folder the recipe named.
  const cases = JSON.parse(readFileSync(join(dir, 'conformance-suite/manifest.json'), 'utf8')).assets.length;
  assert.match(out, new RegExp(`^suite: ${cases} cases$`, 'm'));
  assert.ok(existsSync(join(dir, 'conformance-suite/manifest.json')));
  assert.ok(existsSync(join(dir, 'conformance-suite/valid/translation_step.samples.json')));
  // 2-4. The toy engine (linear keys) passes the LINEAR and STEP cases but lerps rotations
  // and leaves CUBICSPLINE unsupported: some pass, some fail, some are not run, and the
  // summary the recipe prints from the typed fields is compare's.
  const summary = /^(\d+) passed, (\d+) failed, (\d+) not run$/m.exec(out);
  assert.ok(summary, out);
  const [passed, failed, notRun] = summary.slice(1).map(Number);
  assert.ok(passed > 0 && failed > 0 && notRun > 0, out);
  assert.match(out, new RegExp(`^${passed} passed, ${failed} failed, ${notRun} not run, \\d+ excluded \\(unsupported: CUBICSPLINE \\d+`, 'm'));
  assert.match(out, /^FAIL rotation_linear: /m);
  assert.match(out, /^## glTF animation conformance: /m);
  assert.match(out, /^exit code 1$/m);
});

test('the recipe\'s types catch a misread report: a field that is not there does not compile', () => {
  const { prefix } = installPackage();
  const dir = mkdtempSync(join(prefix, 'recipe-wrong-'));
  writeFileSync(join(dir, 'conformance.mts'), [
    "import { conformance } from 'gltf-anim';",
    'const { report } = await conformance({ sampler: () => [] });',
    'const n: number = report.summary.failed;',
    'const wrong: string = report.summary.failures;',
    'const outcome: "passed" | "fail" = report.cases[0].outcome;',
    'console.log(n, wrong, outcome);',
  ].join('\n'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  const check = tsc(dir, ['--noEmit', '-p', 'tsconfig.json']);
  assert.notEqual(check.status, 0);
  assert.match(check.stdout, /Property 'failures' does not exist/);
  assert.match(check.stdout, /Type '"failed"' is not assignable|"nothing compared"/);
  assert.doesNotMatch(check.stdout, /report\.summary\.failed|conformance\.mts\(3,/);
});

// ---- The compare report's types against the JSON compare writes ----

/**
 * A checker of values against the declarations of a .d.ts file (TypeScript's parser): every
 * interface and type literal exactly (no member missing unless optional, no member undeclared
 * unless an index signature allows it), unions, arrays, literals, number/string/boolean/null.
 */
async function declarations(file) {
  const { default: ts } = await import(pathToFileURL(join(ROOT, 'web/tests/tools/node_modules/typescript/lib/typescript.js')).href);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const named = new Map();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) named.set(node.name.text, node);
  });
  const members = (list, value, where) => {
    assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `${where}: an object`);
    const declared = new Set();
    let open = false;
    for (const m of list) {
      if (ts.isIndexSignatureDeclaration(m)) {
        open = true;
        continue;
      }
      const name = m.name.text;
      declared.add(name);
      if (!(name in value)) {
        assert.ok(m.questionToken, `${where}.${name}: declared required, not in the report`);
        continue;
      }
      check(value[name], m.type, `${where}.${name}`);
    }
    if (!open) for (const k of Object.keys(value)) assert.ok(declared.has(k), `${where}.${k}: in the report, not declared`);
  };
  const check = (value, type, where) => {
    switch (type.kind) {
      case ts.SyntaxKind.NumberKeyword: return assert.equal(typeof value, 'number', where);
      case ts.SyntaxKind.StringKeyword: return assert.equal(typeof value, 'string', where);
      case ts.SyntaxKind.BooleanKeyword: return assert.equal(typeof value, 'boolean', where);
      case ts.SyntaxKind.AnyKeyword: case ts.SyntaxKind.UnknownKeyword: return undefined;
      case ts.SyntaxKind.ArrayType:
        assert.ok(Array.isArray(value), `${where}: an array`);
        return value.forEach((v, i) => check(v, type.elementType, `${where}[${i}]`));
      case ts.SyntaxKind.LiteralType:
        if (type.literal.kind === ts.SyntaxKind.NullKeyword) return assert.equal(value, null, where);
        return assert.equal(value, type.literal.text, where);
      case ts.SyntaxKind.UnionType: {
        const errors = [];
        for (const t of type.types) {
          try {
            return check(value, t, where);
          } catch (e) {
            errors.push(e.message);
          }
        }
        return assert.fail(`${where}: none of the union: ${errors.join('; ')}`);
      }
      case ts.SyntaxKind.TypeLiteral: return members(type.members, value, where);
      case ts.SyntaxKind.ParenthesizedType: return check(value, type.type, where);
      case ts.SyntaxKind.TypeReference: {
        const node = named.get(type.typeName.text);
        assert.ok(node, `${where}: no declaration of ${type.typeName.text}`);
        return ts.isInterfaceDeclaration(node) ? members(node.members, value, where) : check(value, node.type, where);
      }
      default: return assert.fail(`${where}: the checker knows no ${ts.SyntaxKind[type.kind]}`);
    }
  };
  return (value, name) => check(value, ts.factory.createTypeReferenceNode(name), name);
}

test('CompareReport in index.d.ts is the JSON compare writes: every member, exactly', async () => {
  const { prefix, moduleUrl } = installPackage();
  const gltfAnim = await import(moduleUrl);
  const conforms = await declarations(join(prefix, 'node_modules/gltf-anim/index.d.ts'));
  const suite = await gltfAnim.generate();
  // A sampler that exercises every member: each case's first known divergence played in
  // full (alternatives), rotations a tenth short (length failures), weights unsupported
  // (not run), one engine error, and the rest the golden values (passes).
  const { report } = await gltfAnim.conformance({
    suite,
    worst: 3,
    sampler(asset, animation, channel, times) {
      if (asset.id === 'edge_uneven') throw new Error('the engine failed');
      if (asset.id.startsWith('weights1')) return { unsupported: 'morph weights' };
      const golden = JSON.parse(new TextDecoder().decode(asset.files.get(asset.entry.samples)));
      const values = golden.animations.find((a) => a.index === animation.index).channels[channel.index].samples.map((s) => s.value);
      const divergence = Object.values(asset.entry.knownDivergences ?? {})[0];
      for (const s of divergence?.samples ?? []) {
        if (s.animation === animation.index && s.channel === channel.index) values[times.indexOf(s.t)] = s.value;
      }
      if (asset.id.startsWith('rotation_') && channel.width === 4) return values.map((v) => v.map((x) => x * 0.9));
      return values;
    },
  });
  // What the report holds, so that each optional and nullable member is seen.
  const channels = report.cases.flatMap((c) => c.channels);
  assert.ok(report.cases.some((c) => c.outcome === 'failed' && c.problem.startsWith('the engine failed')));
  assert.ok(report.cases.some((c) => c.outcome === 'not run'));
  assert.ok(report.cases.some((c) => c.angle === null) && report.cases.some((c) => c.angle !== null));
  assert.ok(channels.some((ch) => ch.alternatives.length > 0 && ch.worstSamples.length > 0));
  assert.ok(channels.some((ch) => ch.worstLength !== undefined));
  assert.ok(channels.some((ch) => ch.max === null));
  conforms(report, 'CompareReport');
  // And the checker checks: a member the types do not have, or one missing, is caught.
  assert.throws(() => conforms({ ...report, extra: 1 }, 'CompareReport'), /extra: in the report, not declared/);
  const { summaryLine, ...less } = report;
  assert.throws(() => conforms(less, 'CompareReport'), /summaryLine: declared required/);
});
