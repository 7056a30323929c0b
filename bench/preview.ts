// What a command's preview costs: three realistic commands — a small C build, a test run with
// `node --test`, and a rewrite of every file of a 5,000-file project with sed — each run plainly in
// the project and previewed in a scratch layer of its session's sandbox, alternated in the same
// run. Figures are ratios to the plain run; the floor is the preview of `true` (namespaces, tmpfs,
// overlays, bwrap and the network relay, with nothing to run or list).
//   npx tsx bench/preview.ts            BENCH_PREVIEW_RUNS=5
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { previewProject, type PreviewProject } from '../test/support/preview-project';
import { quantiles, round, type Report } from './report';

const RUNS = Number(process.env.BENCH_PREVIEW_RUNS ?? 5);
const FILES = 5_000;

interface Case {
  name: string;
  command: string;
  /** Puts the project back after a plain run (not timed). */
  undo: string;
}

function seed(p: PreviewProject): Case[] {
  const src = join(p.project, 'csrc');
  mkdirSync(src, { recursive: true });
  for (let i = 0; i < 8; i += 1) {
    const body = Array.from(
      { length: 200 },
      (_, j) => `int f${i}_${j}(int x) { return x * ${j} + ${i}; }`,
    );
    writeFileSync(join(src, `unit${i}.c`), `${body.join('\n')}\n`);
  }
  const tests = join(p.project, 'tests');
  mkdirSync(tests, { recursive: true });
  for (let i = 0; i < 5; i += 1) {
    const cases = Array.from(
      { length: 20 },
      (_, j) => `test('case ${j}', () => assert.equal(${j} + ${i}, ${i + j}));`,
    );
    writeFileSync(
      join(tests, `t${i}.test.mjs`),
      `import test from 'node:test';\nimport assert from 'node:assert/strict';\n${cases.join('\n')}\n`,
    );
  }
  for (let i = 0; i < FILES; i += 1) {
    const dir = join(p.project, 'big', `d${i % 50}`);
    if (i < 50) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.txt`), `line one foo\nline two ${i}\n`);
  }
  return [
    {
      name: 'build',
      command:
        'mkdir -p build && for f in csrc/*.c; do cc -O1 -c "$f" -o "build/$(basename "$f" .c).o"; done',
      undo: 'rm -rf build',
    },
    { name: 'test', command: 'node --test tests/*.test.mjs', undo: 'true' },
    {
      name: 'rewrite',
      command: "find big -name '*.txt' -exec sed -i 's/foo/bar/' {} +",
      undo: "find big -name '*.txt' -exec sed -i 's/bar/foo/' {} +",
    },
  ];
}

function plain(p: PreviewProject, command: string): number {
  const started = performance.now();
  const run = spawnSync('/bin/sh', ['-c', command], { cwd: p.project, stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`plain run failed (${run.status}): ${command}`);
  return performance.now() - started;
}

async function previewed(p: PreviewProject, command: string): Promise<number> {
  const started = performance.now();
  const preview = await p.preview(command, { timeoutMs: 120_000 });
  if (preview.state !== 'done' || preview.exitCode !== 0)
    throw new Error(`preview ${preview.state} (${preview.detail}): ${preview.output.slice(-300)}`);
  return performance.now() - started;
}

export async function benchPreview(report: Report): Promise<void> {
  const p = previewProject();
  try {
    const cases = seed(p);
    const floor: number[] = [];
    for (let i = 0; i < RUNS; i += 1) floor.push(await previewed(p, 'true'));
    const floorMs = quantiles(floor).p50;
    report('preview floor (`true`)', { runs: RUNS, p50Ms: round(floorMs, 1) });
    for (const c of cases) {
      const plainMs: number[] = [];
      const previewMs: number[] = [];
      // Warm the page cache and the compiler once, unmeasured.
      plain(p, c.command);
      plain(p, c.undo);
      for (let i = 0; i < RUNS; i += 1) {
        previewMs.push(await previewed(p, c.command));
        plainMs.push(plain(p, c.command));
        plain(p, c.undo);
      }
      const plainP50 = quantiles(plainMs).p50;
      const previewP50 = quantiles(previewMs).p50;
      report(`preview ${c.name}: ${c.command.slice(0, 60)}`, {
        runs: RUNS,
        plainP50Ms: round(plainP50, 1),
        previewP50Ms: round(previewP50, 1),
        ratio: round(previewP50 / plainP50, 2),
        overFloorMs: round(previewP50 - floorMs - plainP50, 1),
      });
    }
  } finally {
    p.remove();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchPreview((name, figures) => console.log(name, figures));
}
