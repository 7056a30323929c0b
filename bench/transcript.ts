// Transcript benchmark, in Chromium against the headless server: 10,000 session updates streamed
// into an open session view (messages, tool calls and their updates, so the core also drops the
// oldest entries past its bound), with the longest main-thread task meanwhile and the page's JS heap
// after each run. The floor is 100 updates into the same view in the same run.
//   npx tsx bench/transcript.ts          (BENCH_TRANSCRIPT_NO_BUILD=1 to skip the build)
// Targets: longest task ≤ 50 ms; the heap flat (a second 10k run ends where the first ended).
import { execSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import config from '../playwright.config';
import type { ScriptStep } from '../test/support/agents/scripted-agent';
import { startDialogHarness, type DialogHarness } from '../test/e2e/support/dialog-harness';
import { printReport, type Report } from './report';

const UPDATES = Number(process.env.BENCH_TRANSCRIPT_UPDATES ?? 10_000);
const FLOOR_UPDATES = 100;

/** `count` updates, five at a time: two message chunks, a tool call, its progress, its end. */
function updates(count: number, tag: string): ScriptStep[] {
  return Array.from({ length: Math.ceil(count / 5) }, (_, i): ScriptStep[] => {
    const id = `${tag}-${i}`;
    return [
      { type: 'text', text: `Step ${i}: reading ` },
      { type: 'text', text: `the **next** file of ${tag}.\n` },
      {
        type: 'toolCall',
        toolCallId: id,
        title: `Read src/file-${i}.ts`,
        kind: 'read',
        status: 'pending',
      },
      { type: 'toolCallUpdate', update: { toolCallId: id, status: 'in_progress' } },
      { type: 'toolCallUpdate', update: { toolCallId: id, status: 'completed' } },
    ];
  })
    .flat()
    .slice(0, count)
    .concat([{ type: 'text', text: `\nend of ${tag}` }]);
}

// Installed before the app: every long task Chromium reports.
const OBSERVE = `
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
`;

async function heapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize / 1024 / 1024;
}

interface Run {
  longestTaskMs: number;
  longTasks: number;
  heapMb: number;
  seconds: number;
}

async function run(
  h: DialogHarness,
  page: Page,
  cdp: CDPSession,
  sessionId: string,
  tag: string,
): Promise<Run> {
  await page.evaluate('window.__long.length = 0');
  const started = performance.now();
  const turn = await h.headless.api(`/api/sessions/${sessionId}/prompt`, {
    method: 'POST',
    body: JSON.stringify({ text: tag }),
  });
  if (!turn.ok) throw new Error(`${tag}: the turn failed: ${await turn.text()}`);
  // The view has drawn the last update when its last words are on screen.
  await page
    .getByRole('log', { name: 'transcript' })
    .getByText(`end of ${tag}`)
    .waitFor({ timeout: 120_000 });
  const seconds = (performance.now() - started) / 1000;
  const long = (await page.evaluate('window.__long.slice()')) as number[];
  return {
    longestTaskMs: Math.max(0, ...long),
    longTasks: long.length,
    heapMb: await heapMb(cdp),
    seconds,
  };
}

export async function benchTranscript(report: Report): Promise<void> {
  if (!process.env.BENCH_TRANSCRIPT_NO_BUILD)
    execSync('npx electron-vite build', { stdio: 'ignore' });
  const tags = ['floor', 'big-1', 'big-2'];
  let h: DialogHarness | undefined;
  const browser = await chromium.launch({ ...config.use?.launchOptions, headless: true });
  try {
    h = await startDialogHarness(() => [
      {
        id: 'bench',
        name: 'Bench agent',
        script: {
          onPrompt: Object.fromEntries(
            tags.map((tag) => [tag, updates(tag === 'floor' ? FLOOR_UPDATES : UPDATES, tag)]),
          ),
        },
      },
    ]);
    const created = await h.headless.api('/api/sessions', {
      method: 'POST',
      body: JSON.stringify({ agentId: 'bench', cwd: h.folder }),
    });
    const { sessionId } = (await created.json()) as { sessionId: string };
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.addInitScript(OBSERVE);
    await h.open(page, 'sessions');
    await page.goto(`${new URL(page.url()).origin}/#/sessions/${sessionId}`);
    await page.getByRole('log', { name: 'transcript' }).waitFor();
    const cdp = await page.context().newCDPSession(page);
    const idleHeap = await heapMb(cdp);
    const [floor, first, second] = [
      await run(h, page, cdp, sessionId, 'floor'),
      await run(h, page, cdp, sessionId, 'big-1'),
      await run(h, page, cdp, sessionId, 'big-2'),
    ] as [Run, Run, Run];
    const r1 = (n: number) => Math.round(n * 10) / 10;
    report(`transcript: ${FLOOR_UPDATES} updates (floor)`, {
      longest_task_ms: r1(floor.longestTaskMs),
      long_tasks: floor.longTasks,
      seconds: r1(floor.seconds),
      heap_mb: r1(floor.heapMb),
    });
    for (const [name, r] of [
      ['first', first],
      ['second', second],
    ] as const) {
      report(`transcript: ${UPDATES} updates (${name} run)`, {
        longest_task_ms: r1(r.longestTaskMs),
        longest_vs_floor:
          floor.longestTaskMs > 0 ? r1(r.longestTaskMs / floor.longestTaskMs) : 'floor had none',
        long_tasks: r.longTasks,
        seconds: r1(r.seconds),
        updates_per_s: Math.round(UPDATES / r.seconds),
        heap_mb: r1(r.heapMb),
        heap_vs_idle: r1(r.heapMb / idleHeap),
      });
    }
    report('transcript: memory', {
      idle_heap_mb: r1(idleHeap),
      after_floor_mb: r1(floor.heapMb),
      after_first_mb: r1(first.heapMb),
      after_second_mb: r1(second.heapMb),
      second_vs_first: r1(second.heapMb / first.heapMb),
      note: 'heap after a forced GC; flat = the second 10k run ends where the first did',
    });
  } finally {
    await h?.stop();
    await browser.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchTranscript(printReport);
}
