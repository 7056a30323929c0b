// The administrator's managed rules in the UI: listed first in settings, locked (no edit, no
// delete) with the file they come from, and named as managed in the history of what they decided.
import { expect, test } from '@playwright/test';
import type { Rule } from '../../src/shared/rules';
import { run, startDialogHarness, type DialogHarness } from './support/dialog-harness';
import { openSession, openView, prompt } from './support/history-harness';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

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
