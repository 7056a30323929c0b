// `npm test`: lint, formatting (prettier --check), typecheck, build, unit + integration (vitest), e2e (Playwright + Chromium), and
// the Electron suite where a binary exists. Ends with one plain line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { electronBinary } from './electron-binary.mjs';

const only = process.argv.slice(2);
const want = (step) => only.length === 0 || only.includes(step);
let passed = 0;
let failed = 0;
const lines = [];
mkdirSync('test-results', { recursive: true });

function run(cmd, args, env = {}) {
  console.log(`\n$ ${[cmd, ...args].join(' ')}`);
  return spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status === 0;
}

function check(name, ok) {
  if (ok) passed += 1;
  else failed += 1;
  lines.push(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

if (want('lint')) check('lint', run('npx', ['eslint', '.', '--max-warnings=0']));
if (want('format')) check('format', run('npx', ['prettier', '--check', '.']));
if (want('typecheck')) {
  check('typecheck main', run('npx', ['tsc', '-p', 'tsconfig.node.json', '--noEmit']));
  check('typecheck renderer', run('npx', ['tsc', '-p', 'tsconfig.web.json', '--noEmit']));
}
if (want('build') || want('e2e')) check('build', run('npx', ['electron-vite', 'build']));

if (want('unit') || want('integration')) {
  const projects = ['unit', 'integration'].filter(want).flatMap((p) => ['--project', p]);
  const out = 'test-results/vitest.json';
  const ok = run('npx', [
    'vitest',
    'run',
    ...projects,
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${out}`,
  ]);
  const report = readJson(out);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    lines.push(
      `vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`,
    );
    // A crashed file or an error outside a test fails the run even when every counted test passed.
    if (!ok && report.numFailedTests === 0) check('vitest run', false);
  } else check('vitest run', false);
}

function playwright(name, config, env = {}) {
  const out = `test-results/${name}.json`;
  const ok = run('npx', ['playwright', 'test', '-c', config, '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    ...env,
  });
  const stats = readJson(out)?.stats;
  if (stats) {
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    lines.push(
      `${name}: ${stats.expected} passed, ${stats.flaky} flaky, ${stats.unexpected} failed, ${stats.skipped} skipped`,
    );
    if (!ok && stats.unexpected === 0) check(`${name} run`, false);
  } else check(`${name} run`, false);
}

if (want('e2e')) playwright('e2e', 'playwright.config.ts');

if (want('electron')) {
  const binary = electronBinary();
  if (binary)
    playwright('electron', 'test/electron/playwright.config.ts', { GATEHOUSE_ELECTRON: binary });
  else
    lines.push(
      'skipped: no Electron binary — the Electron suite (test/electron) did not run on this machine',
    );
}

console.log(`\n${lines.join('\n')}`);
const summary = `${passed} passed, ${failed} failed`;
writeFileSync('test-results/summary.txt', `${summary}\n`);
console.log(summary);
process.exit(failed > 0 ? 1 : 0);
