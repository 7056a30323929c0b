// A reject with the person's words: a line under the action bar that opens on R or a click (never
// by itself when a request arrives), Enter rejects with the words, Escape closes it without
// deciding; the words go with a reject only, and only to the request they were typed for. The
// approval link page takes the same words. Screenshots at 1280x800 and 390x844 go to
// test-results/; the first also to docs/images/ with GATEHOUSE_SCREENSHOTS=1.
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { oneAgent, run, startDialogHarness, type DialogHarness } from './support/dialog-harness';
import { seriousViolations } from './support/axe';

const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

const armed = (view: Locator) =>
  expect(view.locator('[data-default-option]')).not.toHaveAttribute('aria-disabled', 'true');
const reasonBox = (view: Locator) =>
  view.getByRole('textbox', { name: 'Tell the agent what to do instead' });

/** The body of the next vote the page sends. */
async function nextVote(page: Page, act: () => Promise<void>) {
  const request = page.waitForRequest((r) => /\/vote$/.test(r.url()) && r.method() === 'POST');
  await act();
  return (await request).postDataJSON() as Record<string, unknown>;
}

test('R opens a line for the words, Enter rejects with them, and the core takes them', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  h = await startDialogHarness(oneAgent([run('npm run migrate -- --env prod', 'Migrate')]));
  const { view } = await h.showTurn(page, 1);
  // Nothing to type into on arrival: the safe default has the focus, the box is not there.
  await expect(reasonBox(view)).toHaveCount(0);
  await expect(view.locator('[data-default-option]')).toBeFocused();
  await armed(view);

  await page.keyboard.press('r');
  await expect(reasonBox(view)).toBeFocused();
  await expect(view.getByRole('button', { name: /With a reason/ })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  // Typed letters are the box's, not the dialog's shortcuts (a would allow, d deny).
  await page.keyboard.type('use the test database, and add a dry run');
  await expect(reasonBox(view)).toHaveValue('use the test database, and add a dry run');
  expect(await h.pending()).toHaveLength(1);
  await page.screenshot({ path: join(OUT, 'reject-reason.png') });

  const body = await nextVote(page, () => page.keyboard.press('Enter'));
  expect(body).toEqual({
    optionId: 'opt-reject',
    message: 'use the test database, and add a dry run',
  });
  await expect.poll(() => h.replies('claude').map((r) => r.optionId)).toEqual(['opt-reject']);
  await expect(view.getByText('Nothing is waiting for you')).toBeVisible();
  const [item] = (await h.history()).items;
  expect(item).toMatchObject({
    reply: { outcome: 'selected', optionId: 'opt-reject' },
    decider: { type: 'person' },
    message: 'use the test database, and add a dry run',
  });
  // The history says it with the decision.
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByText('use the test database, and add a dry run').first()).toBeVisible();
});

test('Escape closes the box without deciding; an allow never carries the words', async ({
  page,
}) => {
  h = await startDialogHarness(oneAgent([run('make deploy', 'Deploy')]));
  const { view } = await h.showTurn(page, 1);
  await armed(view);
  const toggle = view.getByRole('button', { name: /With a reason/ });
  await toggle.click();
  await expect(reasonBox(view)).toBeFocused();
  await page.keyboard.type('not on a Friday');
  await page.keyboard.press('Escape');
  await expect(reasonBox(view)).toHaveCount(0);
  await expect(toggle).toBeFocused();
  expect(await h.pending()).toHaveLength(1);
  expect(h.replies('claude')).toEqual([]);

  // Opened again and typed in, then allowed: the vote carries no words.
  await toggle.click();
  await reasonBox(view).fill('this text is not sent');
  const body = await nextVote(page, () =>
    view.getByRole('button', { name: 'Allow', exact: true }).click(),
  );
  expect(body).toEqual({ optionId: 'opt-once' });
  await expect.poll(() => h.replies('claude').map((r) => r.optionId)).toEqual(['opt-once']);
});

test('moving to another request leaves the words with theirs, hidden until coming back', async ({
  page,
}) => {
  h = await startDialogHarness(oneAgent([run('git push --force', 'Push'), run('make', 'Build')]));
  const { view } = await h.showTurn(page, 2);
  await armed(view);
  const first = await view.locator('#gh-request-title').innerText();
  await page.keyboard.press('r');
  await page.keyboard.type('push to a branch');
  await view.getByRole('button', { name: 'Next request' }).click();
  await expect(view.locator('#gh-request-title')).not.toHaveText(first);
  await expect(reasonBox(view)).toHaveCount(0);
  await armed(view);
  // A reject here carries none of the words typed for the other request.
  const body = await nextVote(page, () => page.keyboard.press('d'));
  expect(body).toEqual({ optionId: 'opt-reject' });
  await expect(view.locator('#gh-request-title')).toHaveText(first);
  await expect(reasonBox(view)).toHaveValue('push to a branch');
});

test('near the limit a counter shows what is left; the box takes no more than the core does', async ({
  page,
}) => {
  h = await startDialogHarness(oneAgent([run('make deploy', 'Deploy')]));
  const { view } = await h.showTurn(page, 1);
  await page.keyboard.press('r');
  const box = reasonBox(view);
  await box.fill('x'.repeat(1799));
  await expect(view.getByText(/\/ 2,000$/)).toHaveCount(0);
  await box.press('End');
  await page.keyboard.type('y');
  await expect(view.getByText('1,800 / 2,000')).toBeVisible();
  await expect(box).toHaveAttribute('maxlength', '2000');
});

test('words typed for a request that was decided elsewhere never reach the next one', async ({
  page,
}) => {
  h = await startDialogHarness(
    oneAgent([run('git push --force', 'Push'), run('rm -rf node_modules', 'Clean')]),
  );
  const { view, pending } = await h.showTurn(page, 2);
  await armed(view);
  const shown = await view.locator('#gh-request-title').innerText();
  const first = pending.find((a) => shown.includes(a.toolCall.title))!;
  const second = pending.find((a) => a !== first)!;
  await page.keyboard.press('r');
  await page.keyboard.type('push to a branch');
  // Someone else answers the request on screen while the person is typing.
  const response = await h.headless.api(`/api/approvals/${first.requestId}/vote`, {
    method: 'POST',
    body: JSON.stringify({ optionId: 'opt-once' }),
  });
  expect(response.status).toBe(200);
  await expect(view.locator('#gh-request-title')).toContainText(second.toolCall.title);
  // Past the click guard of the new request: its shortcuts would act now.
  await armed(view);
  // The rest of the sentence, with letters that are shortcuts (a allows, d denies, 1 chooses) and
  // an Enter: all of it lands in the box, which sends nothing now.
  await page.keyboard.type(' and then ask me again 1');
  await page.keyboard.press('Enter');
  await expect(view.getByText(/no longer waiting .*: nothing typed here is sent/)).toBeVisible();
  await expect(reasonBox(view)).toHaveValue('');
  expect((await h.pending()).map((a) => a.requestId)).toEqual([second.requestId]);
  expect(h.replies('claude')).toHaveLength(1);
  await page.keyboard.press('Escape');
  await expect(reasonBox(view)).toHaveCount(0);
  expect((await h.pending()).map((a) => a.requestId)).toEqual([second.requestId]);
});

test('on a phone: the box fits under the answers, and an approval link takes the same words', async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  h = await startDialogHarness(
    oneAgent([run('npm run migrate', 'Migrate'), run('make deploy', 'Deploy the site')], {
      id: 'agent',
      name: 'Build agent',
    }),
  );
  const { view } = await h.showTurn(page, 2, 'agent');
  await armed(view);
  await view.getByRole('button', { name: /With a reason/ }).click();
  await reasonBox(view).fill('run it against staging first');
  const box = await reasonBox(view).boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/screenshots/reject-reason-phone.png' });
  expect(await seriousViolations(page, '.gh-actions')).toEqual([]);
  expect(await seriousViolations(page, '.gh-reason')).toEqual([]);
  await reasonBox(view).press('Escape');

  // The link page: the same optional words, sent with its reject.
  await view.getByRole('button', { name: 'Copy approval link' }).click();
  const status = view.getByText(/Link copied: /);
  const url = /Link copied: (\S+) —/.exec((await status.textContent()) ?? '')![1]!;
  const linked = /Migrate|Deploy the site/.exec(
    await view.locator('#gh-request-title').innerText(),
  );
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const remote = await phone.newPage();
  await remote.goto(url);
  const words = remote.getByRole('textbox', { name: /Tell the agent what to do instead/ });
  expect(await seriousViolations(remote)).toEqual([]);
  await words.fill('  wait for the release window  ');
  const request = remote.waitForRequest((r) => r.url().endsWith('/api/link/vote'));
  await remote.getByRole('button', { name: 'Reject' }).click();
  expect((await request).postDataJSON()).toEqual({
    optionId: 'opt-reject',
    message: 'wait for the release window',
  });
  await expect(remote.getByRole('status')).toContainText('was sent');
  await phone.close();
  await expect.poll(() => h.replies('agent').map((r) => r.optionId)).toEqual(['opt-reject']);
  const item = (await h.history()).items.find((i) => i.title === linked?.[0]);
  expect(item).toMatchObject({
    reply: { outcome: 'selected', optionId: 'opt-reject' },
    decider: { type: 'person', surface: 'link' },
    message: 'wait for the release window',
  });
});

test('the shortcut help lists R', async ({ page }) => {
  h = await startDialogHarness(oneAgent([run('make deploy', 'Deploy')]));
  const { view } = await h.showTurn(page, 1);
  await page.keyboard.press('?');
  const help = view.locator('#gh-shortcuts');
  await expect(
    help.locator('.gh-help-row').filter({ hasText: 'Reject with a reason' }),
  ).toContainText('R');
});
