import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import config from '../playwright.config';
import { edit, startDialogHarness } from '../test/e2e/support/dialog-harness';

const file = (n: number) => Array.from({ length: n }, (_, i) => (i % 25 === 0 ? `// block ${i}\n` : `v${i} = ${i}\n`)).join('');
const changed = (t: string, every: number) => t.split('\n').map((l, i) => (i > 0 && i % every === 0 ? `${l} + 1` : l)).join('\n');
const tenK = file(10_000);
const browser = await chromium.launch({ ...config.use?.launchOptions, headless: true });
const h = await startDialogHarness((folder) => [{ id: 'b', name: 'B', script: { onPrompt: { x: [edit(join(folder, 'x.ts'), tenK, changed(tenK, 100))] } } }]);
const page = await browser.newPage();
page.on('console', (m) => console.log('page:', m.text()));
await h.open(page);
await page.getByRole('heading', { name: 'Nothing is waiting for you' }).waitFor();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.evaluate(`new PerformanceObserver((l) => { for (const e of l.getEntries()) console.log('long', e.entryType, e.startTime.toFixed(0), e.duration.toFixed(0), JSON.stringify((e.scripts||[]).map(s => [s.invoker, s.sourceFunctionName, Math.round(s.duration), Math.round(s.forcedStyleAndLayoutDuration)]))) }).observe({type: 'long-animation-frame'}); new PerformanceObserver((l) => { for (const e of l.getEntries()) console.log('mark', e.name, e.startTime.toFixed(0)) }).observe({type: 'mark'});`);
await h.startTurn('b', 'x');
await h.waitForPending(1);
await page.locator('.cm-deletedChunk').first().waitFor({ timeout: 60000 });
await page.waitForTimeout(1500);
console.log(await page.evaluate(`JSON.stringify({lines: document.querySelectorAll('.cm-line').length, deleted: document.querySelectorAll('.cm-deletedChunk').length, collapsed: document.querySelectorAll('.cm-collapsedLines').length, editorH: document.querySelector('.cm-editor').getBoundingClientRect().height, scrollerH: document.querySelector('.cm-scroller').getBoundingClientRect().height, contentH: document.querySelector('.cm-content').getBoundingClientRect().height})`));
const { profile } = await cdp.send('Profiler.stop');
writeFileSync('/tmp/gh/profile.json', JSON.stringify(profile));
// self time by function
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas ?? [];
profile.samples?.forEach((id, i) => {
  const n = byId.get(id)!;
  const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
});
console.log([...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(1)}ms ${k}`).join('\n'));
await h.stop();
await browser.close();
