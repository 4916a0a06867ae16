// The package README's JavaScript conformance recipe, end to end as a user runs it: its ```ts
// block, taken from the README in the tarball, type-checked by `tsc --noEmit` (strict, against
// the installed package's index.d.ts: the report's fields must be typed), compiled and run
// with the package installed from the tarball. TypeScript is pinned in
// web/tests/tools/package.json (web/tests/run.sh installs it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  assert.match(out, /^suite: 88 cases$/m);
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
