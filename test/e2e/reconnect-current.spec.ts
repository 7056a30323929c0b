// A page shows what changed while its event stream was gone once the stream is back, without a
// reload: a setting and a rule changed in the file, a device paired, a grant made and a request
// decided elsewhere all sent events (or none) no page heard, and none is replayed. The core is restarted (its streams end) and the
// pages' reconnects are held back until everything has changed, so nothing reaches them by event.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  notAnsweringBanner as banner,
  run,
  startDialogHarness,
  type DialogHarness,
} from './support/dialog-harness';
import { decideTurn, openSession, openView, registerVoter } from './support/history-harness';

let h: DialogHarness | undefined;
test.afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const EVENTS = '**/api/events';

test('settings, rules, grants, devices, history and the first screen are current once the stream is back', async ({
  context,
}) => {
  h = await startDialogHarness(
    [
      {
        id: 'claude',
        name: 'Claude Code',
        script: { prompts: [[run('npm test', 'Run the tests')]] },
      },
    ],
    { approvals: { timeoutSeconds: 120 } },
  );
  const settings = await context.newPage();
  const history = await context.newPage();
  const home = await context.newPage();
  await openView(h, settings, '#/settings');
  await openView(h, history, '#/history');
  await openView(h, home, '#/');
  const timeout = settings
    .getByRole('form', { name: 'General settings' })
    .getByRole('spinbutton', { name: 'Timeout (seconds)' });
  const grants = settings.locator('#sv-grants');
  const rules = settings.locator('#sv-rules');
  const devices = settings.locator('#sv-devices');
  await expect(timeout).toHaveValue('120');
  await expect(grants).toContainText('No grants in force');
  await expect(devices).toContainText('e2e harness');
  await expect(rules.getByText('deny-curl')).toHaveCount(0);
  await expect(history.getByText('No decisions yet.')).toBeVisible();
  await expect(home.getByText('No decision yet.')).toBeVisible();
  // Marks each page: a reload (which would read everything afresh) would drop the mark.
  for (const page of [settings, history, home])
    await page.evaluate(() => Object.assign(globalThis, { loadedOnce: true }));
  const marked = () =>
    Promise.all(
      [settings, history, home].map((page) =>
        page.evaluate(() => (globalThis as { loadedOnce?: boolean }).loadedOnce === true),
      ),
    );

  // Every stream ends with the core, and none opens again until the test lets it.
  await context.route(EVENTS, (route) => route.abort());
  await h.headless.halt();
  for (const page of [settings, history, home]) await expect(banner(page)).toBeVisible();

  const file = join(h.headless.home, 'settings.json');
  const onDisk = JSON.parse(readFileSync(file, 'utf8')) as {
    approvals?: { timeoutSeconds?: number };
  };
  const rule = { id: 'deny-curl', action: 'deny', toolKind: 'execute', command: 'curl' };
  writeFileSync(
    file,
    JSON.stringify({
      ...onDisk,
      approvals: { ...onDisk.approvals, timeoutSeconds: 240 },
      rules: [rule],
    }),
  );
  await h.headless.restart();
  const voter = await registerVoter(h);
  const sessionId = await openSession(h, 'claude');
  await decideTurn(h, voter, sessionId, 'go', {
    optionId: 'opt-always',
    grant: { scope: 'project' },
  });
  // Still cut off: what changed is on no page yet.
  await expect(timeout).toHaveValue('120');
  await expect(devices).not.toContainText('e2e voter');
  await expect(history.getByText('No decisions yet.')).toBeVisible();

  await context.unroute(EVENTS);
  for (const page of [settings, history, home]) await expect(banner(page)).toHaveCount(0);
  await expect(timeout).toHaveValue('240');
  await expect(grants.getByRole('row').filter({ hasText: 'npm test' })).toContainText('Active');
  await expect(rules.getByRole('row').filter({ hasText: 'deny-curl' })).toContainText('curl');
  await expect(devices).toContainText('e2e voter');
  await expect(
    history.getByRole('listbox', { name: /^Decisions/ }).getByRole('option'),
  ).toContainText(['Run the tests']);
  await expect(
    home.getByRole('region', { name: 'Last decisions' }).getByRole('listitem'),
  ).toContainText(['Run the tests']);
  expect(await marked()).toEqual([true, true, true]);
});
