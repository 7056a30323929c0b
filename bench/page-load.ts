// The first screen in a fresh browser (no cache, as a phone opening its pairing link): from the
// navigation to the header drawn, with the main thread's script and task time and the bytes of the
// page's own files on the wire, next to its floor in the same run: a bare Node server's page that
// draws the same header without any code (what a fresh context and a navigation cost here).
//   BENCH_ONLY=page npm run bench      (builds the app first; BENCH_PAGE_NO_BUILD=1 to skip)
//   Knob: BENCH_PAGE_RUNS=12 (loads of each, the first of each not counted)
import { execSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { chromium, type Browser } from '@playwright/test';
import config from '../playwright.config';
import { startHeadless } from '../test/e2e/headless';
import { quantiles, round, type Report } from './report';

const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 12);

interface Load {
  ms: number;
  scriptMs: number;
  taskMs: number;
  bytes: number;
}

async function loadOnce(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    let bytes = 0;
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) return;
      bytes += Number(r.headers()['content-length'] ?? 0);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const started = performance.now();
    await page.goto(url);
    await page.locator('.topbar').waitFor();
    const ms = performance.now() - started;
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    return { ms, scriptMs: metric('ScriptDuration'), taskMs: metric('TaskDuration'), bytes };
  } finally {
    await context.close();
  }
}

function bareServer(): Promise<{ server: Server; url: string }> {
  const page = '<!doctype html><title>Gatehouse</title><header class="topbar">Gatehouse</header>';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    }),
  );
}

export async function benchPageLoad(report: Report): Promise<void> {
  if (!process.env.BENCH_PAGE_NO_BUILD) execSync('npx electron-vite build', { stdio: 'ignore' });
  const headless = await startHeadless({});
  const bare = await bareServer();
  const browser = await chromium.launch(config.use!.launchOptions);
  try {
    const app: Load[] = [];
    const floor: Load[] = [];
    // Interleaved, so a change of the machine's speed falls on both.
    for (let i = 0; i <= RUNS; i++) {
      const a = await loadOnce(browser, await headless.pairingUrl());
      const f = await loadOnce(browser, bare.url);
      if (i === 0) continue;
      app.push(a);
      floor.push(f);
    }
    const q = (loads: Load[], key: keyof Load) => quantiles(loads.map((l) => l[key]));
    const appMs = q(app, 'ms');
    const floorMs = q(floor, 'ms');
    report('page: the first screen in a fresh browser', {
      runs: RUNS,
      ms_p50: round(appMs.p50, 1),
      ms_p95: round(appMs.p95, 1),
      floor_ms_p50: round(floorMs.p50, 1),
      vs_floor_p50: round(appMs.p50 / floorMs.p50, 2),
      script_ms_p50: round(q(app, 'scriptMs').p50, 1),
      task_ms_p50: round(q(app, 'taskMs').p50, 1),
      floor_task_ms_p50: round(q(floor, 'taskMs').p50, 1),
      kb_on_the_wire: round(q(app, 'bytes').p50 / 1024, 1),
    });
  } finally {
    await browser.close();
    bare.server.close();
    await headless.stop();
  }
}
