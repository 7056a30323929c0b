// A session's transcript while an agent streams into it: the view keeps to the newest entry until
// the reader scrolls away, and only the reader can make it stop.
import { expect, test, type Page } from '@playwright/test';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startDialogHarness, type DialogHarness } from './support/dialog-harness';

/** `count` steps of work as an agent streams it: a message and a tool call with its updates. */
function work(count: number, tag: string): ScriptStep[] {
  return Array.from({ length: count }, (_, i): ScriptStep[] => [
    { type: 'text', text: `Step ${i} of ${tag}: reading the next file.\n` },
    {
      type: 'toolCall',
      toolCallId: `${tag}-${i}`,
      title: `Read src/${tag}-${i}.ts`,
      kind: 'read',
      status: 'pending',
    },
    { type: 'toolCallUpdate', update: { toolCallId: `${tag}-${i}`, status: 'completed' } },
  ]).flat();
}

const SCRIPTS: Record<string, ScriptStep[]> = {
  stream: [...work(600, 'stream'), { type: 'text', text: '\nend of stream' }],
  pause: [
    ...work(150, 'pause'),
    { type: 'text', text: '\nhalfway' },
    { type: 'sleep', ms: 3000 },
    ...work(150, 'after'),
    { type: 'text', text: '\nend of pause' },
  ],
};

/**
 * Every change the list makes to its rows is followed at once by a scroll event, before the list's
 * own scroll to the newest: what a browser's scroll anchoring or a row measured late can cause, at
 * any moment, in the middle of a fast stream.
 */
const SCROLL_AFTER_EVERY_CHANGE = `
  new MutationObserver((records) => {
    const list = document.querySelector('[role="log"][aria-label="transcript"]');
    if (list && records.some((r) => list.contains(r.target))) list.dispatchEvent(new Event('scroll'));
  }).observe(document, { childList: true, subtree: true, attributes: true });
`;

let h: DialogHarness;

test.beforeEach(async () => {
  h = await startDialogHarness([
    { id: 'streamer', name: 'Streamer', script: { onPrompt: SCRIPTS } },
  ]);
});
test.afterEach(async () => {
  await h.stop();
});

async function openSession(page: Page): Promise<string> {
  const created = await h.headless.api('/api/sessions', {
    method: 'POST',
    body: JSON.stringify({ agentId: 'streamer', cwd: h.folder }),
  });
  const { sessionId } = (await created.json()) as { sessionId: string };
  await h.open(page, 'sessions');
  await page.goto(`${new URL(page.url()).origin}/#/sessions/${sessionId}`);
  await page.getByRole('log', { name: 'transcript' }).waitFor();
  return sessionId;
}

/** Resolves when the turn has ended. */
async function prompt(sessionId: string, text: string): Promise<void> {
  const turn = await h.headless.api(`/api/sessions/${sessionId}/prompt`, {
    method: 'POST',
    body: JSON.stringify({ text }),
  });
  expect(turn.ok).toBe(true);
}

/** How far the transcript is scrolled above its end, in px. */
const fromBottom = (page: Page) =>
  page
    .getByRole('log', { name: 'transcript' })
    .evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

test('a streamed transcript keeps to its newest entry, whatever scroll events the list causes itself', async ({
  page,
}) => {
  await page.addInitScript(SCROLL_AFTER_EVERY_CHANGE);
  const sessionId = await openSession(page);
  await prompt(sessionId, 'stream');
  const log = page.getByRole('log', { name: 'transcript' });
  await expect(log.getByText('end of stream')).toBeVisible();
  expect(await fromBottom(page)).toBeLessThan(40);
});

test('a reader who scrolls up is left there while the agent goes on; Home and End reach either end', async ({
  page,
}) => {
  const sessionId = await openSession(page);
  const turn = prompt(sessionId, 'pause');
  const log = page.getByRole('log', { name: 'transcript' });
  await expect(log.getByText('halfway')).toBeVisible();

  await log.hover();
  await page.mouse.wheel(0, -3000);
  await expect.poll(() => fromBottom(page)).toBeGreaterThan(1000);
  await turn;
  await expect(page.getByText('The agent finished its turn.')).toBeVisible();
  await expect(log.getByText('Read src/after-149.ts')).toHaveCount(0);
  expect(await fromBottom(page)).toBeGreaterThan(1000);

  await log.focus();
  await page.keyboard.press('End');
  await expect(log.getByText('end of pause')).toBeVisible();
  await expect.poll(() => fromBottom(page)).toBeLessThan(40);
  await page.keyboard.press('Home');
  await expect(log.getByText('Step 0 of pause:')).toBeVisible();
});
