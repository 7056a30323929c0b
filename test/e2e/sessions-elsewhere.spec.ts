// Sessions started somewhere else appear in an open browser's list, live: one an editor runs
// through `gatehouse acp` (shown with the editor's name, its transcript streamed, no prompt box),
// and one another client started over the HTTP API.
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startEditor, type ScriptedEditor } from '../support/scripted-editor';
import { startDialogHarness, type DialogHarness } from './support/dialog-harness';

const CLI = resolve('bin/gatehouse.mjs');
let harness: DialogHarness;
let editor: ScriptedEditor | null = null;

test.beforeEach(async () => {
  harness = await startDialogHarness([
    {
      id: 'scripted',
      name: 'Scripted agent',
      script: {
        prompts: [
          [
            {
              type: 'requestPermission',
              toolCall: { toolCallId: 'r1', title: 'Read notes.txt', kind: 'read' },
              options: [
                { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
                { optionId: 'no', name: 'Reject', kind: 'reject_once' },
              ],
            },
          ],
          [{ type: 'text', text: 'Edited from the editor.' }],
        ],
      },
    },
  ]);
});
test.afterEach(async () => {
  await editor?.close();
  editor = null;
  await harness.stop();
});

test('an editor session: listed with the editor, transcript streamed, prompted only there', async ({
  page,
}) => {
  await harness.open(page, 'sessions');
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const list = page.getByRole('navigation', { name: 'sessions' });
  await expect(list).toContainText('No sessions yet');

  editor = startEditor({
    command: process.execPath,
    args: [CLI, 'acp', '--agent', 'scripted'],
    env: { ...process.env, GATEHOUSE_HOME: harness.headless.home },
    cwd: harness.folder,
    name: 'Test Editor',
  });
  await editor.initialize();
  const acpSession = await editor.newSession(harness.folder);
  // The proxy reaches the core when its agent first asks; the editor answers this one itself.
  const first = editor.prompt(acpSession, 'look around');
  (await editor.nextShown()).answer({ outcome: { outcome: 'selected', optionId: 'yes' } });
  await first;
  const row = list.getByRole('link').filter({ hasText: 'in Test Editor' });
  await expect(row).toHaveCount(1);
  await row.click();

  const view = page.getByRole('region', { name: 'session' });
  await expect(view.getByText(/Prompted in Test Editor/)).toBeVisible();
  await expect(view.getByLabel('prompt')).toHaveCount(0);
  await expect(view.getByRole('button', { name: 'Close session' })).toHaveCount(0);

  await editor.prompt(acpSession, 'edit it');
  const log = page.getByRole('log', { name: 'transcript' });
  // Both prompts, the first too, which the editor may send before the proxy's link to the core is up.
  const prompts = log.getByLabel('you');
  await expect(prompts).toHaveCount(2);
  await expect(prompts.first()).toContainText('look around');
  await expect(prompts.last()).toContainText('edit it');
  await expect(log.getByLabel('agent').last()).toContainText('Edited from the editor.');
});

test('a session another client starts over the HTTP API appears in the open list', async ({
  page,
}) => {
  await harness.open(page, 'sessions');
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const list = page.getByRole('navigation', { name: 'sessions' });
  await expect(list).toContainText('No sessions yet');

  const response = await harness.headless.api('/api/sessions', {
    method: 'POST',
    body: JSON.stringify({ agentId: 'scripted', cwd: harness.folder }),
  });
  expect(response.status).toBe(200);
  const { sessionId } = (await response.json()) as { sessionId: string };
  const row = list.locator(`a[href="#/sessions/${sessionId}"]`);
  await expect(row).toContainText('scripted');
  await expect(row).toContainText('Idle');
});
