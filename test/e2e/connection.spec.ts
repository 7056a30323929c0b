// The connection is always visible: a banner within 2 s of the core stopping (or freezing), the
// countdown stopped and marked stale, votes off (buttons and keys); all of it gone by itself when
// the core returns, with what it cancelled meanwhile gone too. A token the core no longer accepts
// leads to the "open the new address" state, never to an empty first screen. The tab's title
// carries the count of waiting requests.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  approvalsView,
  edit,
  notAnsweringBanner as banner,
  run,
  startDialogHarness,
  type DialogHarness,
} from './support/dialog-harness';

// Written to test-results/ on every run; to docs/images/ only with GATEHOUSE_SCREENSHOTS=1.
const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

let h: DialogHarness | undefined;
test.afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** The `gatehouse` command, built, on the harness's data folder. */
const gatehouse = (home: string, ...args: string[]) =>
  execFileSync(process.execPath, ['bin/gatehouse.mjs', ...args], {
    env: { ...process.env, GATEHOUSE_HOME: home },
    encoding: 'utf8',
  }).trim();

async function oneRequest(page: Page): Promise<DialogHarness> {
  const harness = await startDialogHarness((folder) => [
    {
      id: 'claude',
      name: 'Claude Code',
      script: { prompts: [[edit(join(folder, 'notes.md'), null, 'hello\n')]] },
    },
  ]);
  await harness.showTurn(page, 1);
  return harness;
}

test('the core stops: a banner within 2 s, the countdown stopped, votes off; all back when it returns', async ({
  page,
}) => {
  h = await oneRequest(page);
  const view = approvalsView(page);
  const timer = view.getByRole('timer');
  await expect(timer).toContainText('Auto-deny in');
  const allow = view.getByRole('button', { name: /^Allow/ }).first();
  await expect(allow).toBeEnabled();

  await h.headless.halt();
  await expect(banner(page)).toBeVisible({ timeout: 2000 });
  await expect(timer).toContainText('Stale');
  const frozen = await timer.innerText();
  // Longer than a tick of the countdown's clock: a live countdown would have moved.
  await page.waitForTimeout(2500);
  expect(await timer.innerText()).toBe(frozen);
  await expect(allow).toBeDisabled();
  await expect(view.getByRole('button', { name: 'Extend 5 min' })).toBeDisabled();
  // The keys are refused too: the request stays on screen, nothing said it was decided.
  await view.focus();
  await page.keyboard.press('a');
  await expect(view.getByRole('status', { name: 'Queue position' })).toHaveText(/of 1$/);

  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(OUT, `connection-lost-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1200, height: 900 });

  // Back on the same address with the same token (kept in the data folder): the banner goes, and
  // the request the core cancelled when it stopped is gone from the page.
  const url = await h.headless.restart();
  expect(url).toContain(`#token=${h.headless.token}&`);
  await expect(banner(page)).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Nothing is waiting for you' })).toBeVisible();
});

test('a frozen core is noticed by its missing heartbeat, and a woken one by its next', async ({
  page,
}) => {
  h = await oneRequest(page);
  const view = approvalsView(page);
  h.headless.signal('SIGSTOP');
  try {
    await expect(banner(page)).toBeVisible({ timeout: 2000 });
    await expect(view.getByRole('timer')).toContainText('Stale');
  } finally {
    h.headless.signal('SIGCONT');
  }
  await expect(banner(page)).toHaveCount(0);
  await expect(view.getByRole('timer')).toContainText('Auto-deny in');
  await expect(view.getByRole('button', { name: /^Allow/ }).first()).toBeEnabled();
});

test('a rotated token: the page says so and where the new address is, even after a reload', async ({
  page,
}) => {
  h = await oneRequest(page);
  gatehouse(h.headless.home, 'token', 'rotate');
  const rejected = page.getByRole('alert').filter({ hasText: 'no longer accepted' });
  await expect(rejected).toBeVisible();
  await expect(rejected).toContainText('gatehouse status --url');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(OUT, `connection-token-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1200, height: 900 });

  // A reload keeps the old token: the same state, never the first-run guide.
  await page.goto(`${h.headless.origin}/#/`);
  await expect(rejected).toBeVisible();
  await expect(page.getByText('No agent is configured yet')).toHaveCount(0);

  // The address the command prints opens the app again, this browser still paired.
  const address = gatehouse(h.headless.home, 'status', '--url');
  expect(address).not.toContain(h.headless.token);
  await page.goto(address);
  await expect(page.locator('.topbar')).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'not paired' })).toHaveCount(0);
});

test('the tab title carries how many requests wait', async ({ page }) => {
  h = await startDialogHarness([
    {
      id: 'claude',
      name: 'Claude Code',
      script: {
        prompts: [[{ type: 'concurrent', branches: [[run('npm test')], [run('npm run lint')]] }]],
      },
    },
  ]);
  const [first, second] = (await h.showTurn(page, 2)).pending;
  await expect(page).toHaveTitle('(2) Gatehouse');
  const vote = (requestId: string) =>
    h!.headless.api(`/api/approvals/${requestId}/vote`, {
      method: 'POST',
      headers: {
        'x-gatehouse-client-id': h!.headless.identity.clientId,
        'x-gatehouse-client-token': h!.headless.identity.clientToken,
      },
      body: JSON.stringify({ optionId: 'opt-reject' }),
    });
  await vote(first!.requestId);
  await expect(page).toHaveTitle('(1) Gatehouse');
  await vote(second!.requestId);
  await expect(page).toHaveTitle('Gatehouse');
});
