// The sessions window with the real Gemini CLI (offline): a session started from the UI, its
// transcript rebuilt by the core — the same after a reload and in a second browser.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { FakeModelServer } from '../support/fake-model-server';
import type { Headless } from './headless';
import { geminiHeadlessPerTest } from './support/gemini-headless';
import { expectAxeClean } from './support/axe';

let model: FakeModelServer;
let headless: Headless;
let folder: string;

geminiHeadlessPerTest((setup) => {
  ({ model, headless, folder } = setup);
});

async function expectTranscript(page: Page, file: string) {
  const log = page.getByRole('log', { name: 'transcript' });
  await expect(log.getByLabel('you')).toContainText(`Create ${file}`);
  await expect(log.getByRole('region', { name: /^tool call: / })).toContainText('print("hi")');
  await expect(log.getByLabel('decision')).toContainText('Allowed by you');
  await expect(log.getByLabel('agent').last()).toContainText('All done.');
  await expect(page.getByRole('navigation', { name: 'sessions' })).toContainText('gemini');
}

test('a session started from the UI: its transcript, the same after a reload and in another browser', async ({
  page,
  browser,
}) => {
  const file = join(folder, 'hello.py');
  model.enqueue({
    functionCalls: [{ name: 'write_file', args: { file_path: file, content: 'print("hi")\n' } }],
    finalText: 'All done.',
  });
  const url = await headless.pairingUrl();
  await page.goto(url);
  await page.getByLabel('Folder').fill(join(folder, 'missing'));
  await page.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByRole('alert')).toContainText('folder does not exist');

  await page.getByLabel('Folder').fill(folder);
  await page.getByRole('button', { name: 'Start session' }).click();
  await page.getByLabel('prompt').fill(`Create ${file}`);
  await page.getByRole('button', { name: 'Send' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(page.getByText('The agent finished its turn.')).toBeVisible();
  await expectTranscript(page, file);

  await page.reload();
  await expectTranscript(page, file);
  await expectAxeClean(page);

  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto(await headless.pairingUrl());
  await second.getByRole('link', { name: 'Sessions', exact: true }).click();
  await second.getByRole('navigation', { name: 'sessions' }).getByRole('link').first().click();
  await expectTranscript(second, file);
  await other.close();
});
