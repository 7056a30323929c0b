// The administrator's managed rules in the UI: listed first in settings, locked (no edit, no
// delete) with the file they come from, and named as managed in the history of what they decided.
// User settings the policy forbids: the managed value shown in force, each with a note beside it.
import { expect, test } from '@playwright/test';
import type { Rule } from '../../src/shared/rules';
import { startHeadless, type Headless } from './headless';
import { run, startDialogHarness, type DialogHarness } from './support/dialog-harness';
import { openSession, openView, prompt } from './support/history-harness';

let h: DialogHarness | undefined;
let headless: Headless | undefined;
test.afterEach(async () => {
  await h?.stop();
  await headless?.stop();
  h = headless = undefined;
});

const NO_RM: Rule = { id: 'no-rm', action: 'deny', command: 'rm', reason: 'company policy' };

test('a managed rule is shown locked in settings and named in the history', async ({ page }) => {
  h = await startDialogHarness(
    [{ id: 'claude', name: 'Claude Code', script: { onPrompt: { clean: [run('rm -rf build')] } } }],
    { rules: [{ id: 'mine', action: 'allow', command: 'ls' }] },
    { managedSettings: { rules: [NO_RM] } },
  );
  const sessionId = await openSession(h, 'claude');
  // Decided by the managed rule at once: nobody is asked.
  await prompt(h, sessionId, 'clean');

  await openView(h, page, '#/settings');
  const managed = page.getByRole('table', { name: 'Managed rules' });
  const row = managed.getByRole('row').filter({ hasText: 'no-rm' });
  await expect(row).toContainText('Deny');
  await expect(row).toContainText('company policy');
  await expect(row).toContainText('Locked');
  await expect(row.getByRole('button')).toHaveCount(0);
  await expect(
    page.getByText(`Set by your administrator: ${h.headless.home}/managed-settings.json`),
  ).toBeVisible();
  // The user's own rules keep their controls.
  const mine = page
    .getByRole('table', { name: 'Rules' })
    .getByRole('row')
    .filter({ hasText: 'mine' });
  await expect(mine.getByRole('button', { name: 'Delete rule mine' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete rule no-rm' })).toHaveCount(0);

  await openView(h, page, '#/history');
  await expect(page.getByText('Denied by managed rule no-rm').first()).toBeVisible();
});

test('settings the policy forbids are shown with the administrator’s value in force and a note beside each', async ({
  page,
}) => {
  headless = await startHeadless(
    {
      policy: { permissionStrategy: 'consensus' },
      agents: {
        claude: {
          name: 'Claude Code',
          command: '/bin/cat',
          bypassPermissions: true,
          mode: 'bypassPermissions',
        },
      },
    },
    { managedSettings: { allowBypass: false, allowedPolicies: ['first-responder'] } },
  );
  await page.goto(await headless.pairingUrl());
  await page.locator('.topbar').waitFor();
  await page.evaluate(`location.hash = '#/settings'`);

  const notice = page.getByRole('status').filter({ hasText: 'of your settings are replaced' });
  await expect(notice).toContainText('3 of your settings are replaced');
  await expect(notice).toContainText(`${headless.home}/managed-settings.json`);
  await expect(notice).toContainText('agents.claude.bypassPermissions: off (yours: on)');

  const agent = page.locator('[data-agent-id="claude"]');
  await expect(
    agent.getByRole('switch', { name: 'Bypass permissions for Claude Code' }),
  ).toHaveAttribute('aria-checked', 'false');
  await expect(agent.locator('[data-setting="agents.claude.bypassPermissions"]')).toHaveText(
    'Set by your administrator: off (your settings file says on)',
  );
  await expect(agent.getByRole('combobox', { name: 'Mode of new sessions' })).toHaveValue(
    'default',
  );
  await expect(agent.locator('[data-setting="agents.claude.mode"]')).toHaveText(
    'Set by your administrator: default (your settings file says bypassPermissions)',
  );
  const general = page.locator('#sv-general');
  await expect(general.getByRole('combobox', { name: 'Strategy' })).toHaveValue('first-responder');
  await expect(general.locator('[data-setting="policy.permissionStrategy"]')).toHaveText(
    'Set by your administrator: first-responder (your settings file says consensus)',
  );

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await agent.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/e2e/managed-overridden-${width}.png` });
  }
});
