// A session whose agent runs without a sandbox says so, as a warning, in the sessions view and in
// the approval dialog; a sandboxed one says what confines it. The dialog's screenshot goes to
// test-results/ on every run, and to docs/images/ with GATEHOUSE_SCREENSHOTS=1.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  approvalsView,
  run,
  startDialogHarness,
  type DialogHarness,
} from './support/dialog-harness';
import { openView } from './support/history-harness';

const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

let h: DialogHarness;
test.use({ viewport: { width: 1280, height: 860 } });
test.afterEach(async () => h?.stop());

test('an agent with sandbox off is shown as not sandboxed in the sessions view and the dialog', async ({
  page,
}) => {
  h = await startDialogHarness([
    {
      id: 'claude',
      name: 'Claude Code',
      sandbox: 'off',
      script: { prompts: [[run('npm test', 'Run the tests')]] },
    },
    { id: 'helper', name: 'Helper', script: { prompts: [] } },
  ]);

  await openView(h, page, '#/sessions');
  const view = page.getByRole('region', { name: 'session' });
  await view.getByLabel('Agent').selectOption('helper');
  await view.getByLabel('Folder').fill(h.folder);
  await view.getByRole('button', { name: 'Start session' }).click();
  await expect(view.getByRole('note')).toHaveText(
    /^Sandbox: workspace-write · writes: project, .* · network: none$/,
  );

  await view.getByLabel('Agent').selectOption('claude');
  await view.getByRole('button', { name: 'Start session' }).click();
  await expect(view.getByRole('note')).toContainText('Not sandboxed');

  await h.startTurn('claude');
  await h.waitForPending(1);
  await h.open(page);
  const dialog = approvalsView(page);
  await expect(dialog.getByRole('note')).toHaveText(
    'Not sandboxed · sandbox is off in this agent’s settings',
  );
  await page.mouse.move(1, 1);
  await page.screenshot({ path: join(OUT, 'dialog-not-sandboxed.png') });
});
