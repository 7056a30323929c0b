// Remote approval with a single-use link: copied from the dialog, opened in another browser
// context (a phone), answered once; the link is then dead.
import { networkInterfaces } from 'node:os';
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

/** An address of this machine a phone on its network could reach, if it has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

test('served on the network, a link copied on this machine names the network address', async ({
  page,
  browser,
}) => {
  test.skip(!external, 'this machine has no network address');
  h = await startDialogHarness(
    oneAgent([run('make deploy', 'Deploy the site')], { id: 'agent', name: 'Build agent' }),
    {},
    { host: '0.0.0.0' },
  );
  const { view } = await h.showTurn(page, 1, 'agent');
  expect(new URL(page.url()).hostname).toBe('127.0.0.1');
  await view.getByRole('button', { name: 'Copy approval link' }).click();
  const status = view.getByText(/Link copied: /);
  await expect(status).toBeVisible();
  const url = /Link copied: (\S+) —/.exec((await status.textContent()) ?? '')![1]!;
  const port = new URL(h.headless.origin).port;
  expect(url.startsWith(`http://${external}:${port}/#/link/`)).toBe(true);
  const phone = await browser.newContext();
  const remote = await phone.newPage();
  await remote.goto(url);
  await expect(remote.getByRole('heading', { name: 'Deploy the site' })).toBeVisible();
  await phone.close();
});
