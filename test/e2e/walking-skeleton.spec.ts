// A new user's first run: `npm run headless`, open the printed URL, start a session with the real
// Gemini CLI (offline), prompt, see the request with its diff, decide, and see the agent act on it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { HistoryPage } from '../../src/shared/history';
import type { FakeModelServer } from '../support/fake-model-server';
import type { Headless } from './headless';
import { geminiHeadlessPerTest } from './support/gemini-headless';

let model: FakeModelServer;
let headless: Headless;
let folder: string;

geminiHeadlessPerTest((setup) => {
  ({ model, headless, folder } = setup);
});

async function promptForWrite(page: Page, file: string, content: string) {
  model.enqueue({
    functionCalls: [{ name: 'write_file', args: { file_path: file, content } }],
    finalText: 'All done.',
  });
  await page.goto(await headless.pairingUrl());
  await page.getByLabel('Folder').fill(folder);
  await page.getByRole('button', { name: 'Start session' }).click();
  await page.getByLabel('prompt').fill(`Create ${file}`);
  await page.getByRole('button', { name: 'Send' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  return dialog;
}

test('allow: the approval shows its diff, Allow lets the agent write the file', async ({
  page,
}) => {
  const file = join(folder, 'hello.py');
  const dialog = await promptForWrite(page, file, 'print("hello from gemini")\n');
  await expect(dialog.getByRole('heading', { name: /hello\.py/ }).first()).toBeVisible();
  await expect(dialog.getByLabel('after')).toContainText('print("hello from gemini")');
  await page.screenshot({ path: 'test-results/screenshots/walking-skeleton-approval.png' });
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(page.getByText('The agent finished its turn.')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(readFileSync(file, 'utf8')).toBe('print("hello from gemini")\n');

  const history = HistoryPage.parse(await (await headless.api('/api/history')).json());
  expect(history.items).toHaveLength(1);
  expect(history.items[0]).toMatchObject({
    reply: { outcome: 'selected', optionKind: 'allow_once' },
    decider: { type: 'person', surface: 'browser' },
  });
});

test('deny: Reject keeps the file from being written and the turn ends normally', async ({
  page,
}) => {
  const file = join(folder, 'secret.txt');
  const dialog = await promptForWrite(page, file, 'password=hunter2\n');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText('The agent finished its turn.')).toBeVisible();
  expect(existsSync(file)).toBe(false);

  const history = HistoryPage.parse(await (await headless.api('/api/history')).json());
  expect(history.items[0]).toMatchObject({
    reply: { outcome: 'selected', optionKind: 'reject_once' },
    decider: { type: 'person', surface: 'browser' },
  });
});
