// Remote approval with a single-use link: copied from the dialog, opened in another browser
// context (a phone), answered once; the link is then dead.
import { expect, test } from '@playwright/test';
import { oneAgent, run, startDialogHarness, type DialogHarness } from './support/dialog-harness';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

test('a copied approval link shows its one request elsewhere and answers it once', async ({
  page,
  browser,
}) => {
  h = await startDialogHarness(
    oneAgent([run('make deploy', 'Deploy the site')], { id: 'agent', name: 'Build agent' }),
  );
  const { view } = await h.showTurn(page, 1, 'agent');
  await view.getByRole('button', { name: 'Copy approval link' }).click();
  const status = view.getByText(/Link copied: /);
  await expect(status).toBeVisible();
  const url = /Link copied: (\S+) —/.exec((await status.textContent()) ?? '')![1]!;
  expect(url).toMatch(/\/#\/link\/[A-Za-z0-9_-]{20,}$/);

  // Another device: no bearer token, only the link.
  const phone = await browser.newContext();
  const remote = await phone.newPage();
  await remote.goto(url);
  await expect(remote.getByRole('heading', { name: 'Deploy the site' })).toBeVisible();
  await expect(remote.getByText('make deploy')).toBeVisible();
  // The token left the address bar at once.
  expect(remote.url()).toMatch(/#\/link$/);
  await remote.setViewportSize({ width: 430, height: 860 });
  await remote.screenshot({ path: 'test-results/screenshots/approval-link-phone.png' });
  await remote.getByRole('button', { name: 'Reject' }).click();
  await expect(remote.getByRole('status')).toContainText('was sent');

  await expect.poll(() => h.replies('agent').map((r) => r.optionId)).toEqual(['opt-reject']);
  const [item] = (await h.history()).items;
  expect(item).toMatchObject({ decider: { type: 'person', surface: 'link' } });

  // Spent: opening it again shows nothing to decide.
  const again = await phone.newPage();
  await again.goto(url);
  await expect(again.getByRole('status')).toContainText('has been used');
  await phone.close();
});
