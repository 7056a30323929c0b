// The transcript tells a call as the dialog did, with the real Gemini CLI (offline): a new file is a
// new file with the dialog's line count in both, and a refused command reads denied, though Gemini
// leaves the refused call pending.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { FakeModelServer } from '../support/fake-model-server';
import type { Headless } from './headless';
import { geminiHeadlessPerTest } from './support/gemini-headless';

let model: FakeModelServer;
let headless: Headless;
let folder: string;

geminiHeadlessPerTest((setup) => {
  ({ model, headless, folder } = setup);
});

test('a new file reads "New file +1" in the dialog and in the transcript; a denied command reads denied', async ({
  page,
}) => {
  const file = join(folder, 'hello.py');
  model.enqueue({
    functionCalls: [{ name: 'write_file', args: { file_path: file, content: 'print("hi")\n' } }],
    finalText: 'Written.',
  });
  model.enqueue({
    functionCalls: [{ name: 'run_shell_command', args: { command: 'npm test' } }],
    finalText: 'Not run.',
  });
  await page.goto(await headless.pairingUrl());
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  await page.getByLabel('Folder').fill(folder);
  await page.getByRole('button', { name: 'Start session' }).click();
  const box = page.getByRole('textbox', { name: 'prompt' });
  await box.fill(`Create ${file}`);
  await box.press('Enter');

  const dialog = page.getByRole('dialog');
  const header = dialog.locator('.gh-diff-header');
  await expect(header).toContainText('New file');
  await expect(header.locator('.gh-diff-stats')).toHaveText('+1 lines added');
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();

  const log = page.getByRole('log', { name: 'transcript' });
  const write = log.getByRole('region', { name: /^tool call: / }).first();
  await expect(write.locator('.gh-diff-header')).toContainText('New file');
  await expect(write.locator('.gh-diff-stats')).toHaveText('+1 lines added');
  await expect(write.locator('.gh-diff-header')).not.toContainText('Modified');
  await expect(page.getByText('The agent finished its turn.')).toBeVisible();

  await box.fill('run the tests');
  await box.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Reject' })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await expect(dialog.locator('[data-default-option]')).toBeFocused();
  await page.keyboard.press('d');
  const run = log.getByRole('region', { name: 'tool call: npm test' });
  await expect(run.locator('.t-status')).toHaveText('denied');
  await expect(log.getByLabel('decision').last()).toContainText('Denied by you');
  await expect(log.getByLabel('agent').last()).toContainText('Not run.');
  await expect(run.locator('.t-status')).toHaveText('denied');
});
