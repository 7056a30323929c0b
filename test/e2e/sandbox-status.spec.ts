// A session whose agent runs without a sandbox says so, as a warning, in the sessions view and in
// the approval dialog; a sandboxed one says what confines it. The dialog's screenshot goes to
// test-results/ on every run, and to docs/images/ with GATEHOUSE_SCREENSHOTS=1.
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { approvalsView, run, startDialogHarness } from './support/dialog-harness';
import type { DialogHarness } from './support/dialog-harness';
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

test('a write the sandbox refused is listed in the session with Allow for this agent, which over HTTP waits for a local confirmation', async ({
  page,
}) => {
  // Outside the temp folder, which a sandboxed agent may write.
  const outside = realpathSync(mkdtempSync('/var/tmp/gatehouse-e2e-outside-'));
  try {
    h = await startDialogHarness([
      {
        id: 'claude',
        name: 'Claude Code',
        script: {
          prompts: [[{ type: 'direct', action: 'write', path: join(outside, 'escaped.txt') }]],
        },
      },
    ]);
    await openView(h, page, '#/sessions');
    const view = page.getByRole('region', { name: 'session' });
    await view.getByLabel('Folder').fill(h.folder);
    await view.getByRole('button', { name: 'Start session' }).click();
    await view.getByLabel('prompt').fill('go');
    await view.getByRole('button', { name: 'Send' }).click();

    const blocked = view.getByRole('list', { name: 'blocked by the sandbox' });
    await expect(blocked.getByRole('listitem')).toHaveText(
      `Blocked by the sandbox: write ${join(outside, 'escaped.txt')}Allow for this agent`,
    );
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    await blocked.getByRole('button', { name: 'Allow for this agent' }).click();
    await expect(blocked.getByRole('status')).toHaveText(
      `Waiting for confirmation where Gatehouse runs: ${outside}`,
    );
    const settings = (await (await h.headless.api('/api/settings')).json()) as {
      settings: { agents: Record<string, { allowWrite?: string[] }> };
    };
    // Not yet allowed: only the harness's own folder (its script and log) is there.
    expect(settings.settings.agents['claude']!.allowWrite ?? []).not.toContain(outside);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test('an agent that stays in a mode that does not ask is shown as unguarded in the sessions view and the dialog', async ({
  page,
}) => {
  h = await startDialogHarness([
    {
      id: 'claude',
      name: 'Claude Code',
      script: {
        initialModeId: 'bypassPermissions',
        refuseModeChange: true,
        // So that a request still reaches the dialog, where the mark must show too.
        autoApprove: {},
        prompts: [[run('npm test', 'Run the tests')]],
      },
    },
  ]);
  await openView(h, page, '#/sessions');
  const view = page.getByRole('region', { name: 'session' });
  await view.getByLabel('Folder').fill(h.folder);
  await view.getByRole('button', { name: 'Start session' }).click();
  await expect(view.getByRole('alert')).toContainText(
    'Unguarded · the agent refused to leave mode "bypassPermissions"',
  );
  await page.screenshot({ path: join(OUT, 'session-unguarded.png') });

  await h.startTurn('claude');
  await h.waitForPending(1);
  await h.open(page);
  await expect(approvalsView(page).getByRole('alert')).toContainText('Unguarded');
});
