// The prompt box behaves like a chat's, with the real Gemini CLI (offline): in view and focused once
// a session starts, Enter sends and Shift+Enter breaks the line (an input method's Enter never
// sends), the approval dialog keeps its safe focus while it is open, and the focus comes back to
// the box after a decision or after the dialog is set aside.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { FakeModelServer } from '../support/fake-model-server';
import type { Headless } from './headless';
import { geminiHeadlessPerTest } from './support/gemini-headless';

let model: FakeModelServer;
let headless: Headless;
let folder: string;

geminiHeadlessPerTest((setup) => {
  ({ model, headless, folder } = setup);
});

const write = (file: string) => ({
  functionCalls: [{ name: 'write_file', args: { file_path: file, content: 'x\n' } }],
  finalText: 'Done.',
});

async function startSession(page: Page) {
  await page.goto(await headless.pairingUrl());
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  await page.getByLabel('Folder').fill(folder);
  await page.getByRole('button', { name: 'Start session' }).click();
}

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`at ${width}×${height}: the box is in view and focused; Enter sends, Shift+Enter and an input method's Enter do not`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    model.enqueue(write(join(folder, 'a.txt')));
    await startSession(page);
    const box = page.getByRole('textbox', { name: 'prompt' });
    await expect(box).toBeFocused();
    await expect(box).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('button', { name: 'Send' })).toBeInViewport({ ratio: 1 });

    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    await expect(box).toHaveValue('first line\nsecond line');
    // An Enter that confirms an input method's candidate, as Chromium reports it.
    await box.dispatchEvent('keydown', { key: 'Enter', keyCode: 229, isComposing: true });
    await expect(box).toHaveValue('first line\nsecond line');
    const log = page.getByRole('log', { name: 'transcript' });
    await expect(log).toContainText('Nothing yet');

    await page.keyboard.press('Enter');
    await expect(log.getByLabel('you')).toContainText('first line\nsecond line');
    await expect(box).toHaveValue('');
    // The dialog takes the focus for its safe default; the box, behind it, cannot keep it.
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('[data-default-option]')).toBeFocused();
    await expect(box).not.toBeFocused();
  });
}

test("a prompt sent on reading the turn's end goes, even while the session list is still being read again", async ({
  page,
}) => {
  model.enqueue(write(join(folder, 'a.txt')));
  model.enqueue({ finalText: 'Second.' });
  await startSession(page);
  const box = page.getByRole('textbox', { name: 'prompt' });
  const dialog = page.getByRole('dialog');
  await box.fill('one');
  await box.press('Enter');
  const deny = dialog.getByRole('button', { name: 'Reject' });
  await expect(deny).toBeVisible();
  await expect(page.getByRole('link', { name: /Waiting for approval/ })).toBeVisible();
  await expect(deny).not.toHaveAttribute('aria-disabled', 'true');
  await expect(dialog.locator('[data-default-option]')).toBeFocused();
  // From now on the session list, read again after each state change, is held back: the page
  // hears the turn's end while its list still says the turn runs.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/sessions', async (route) => {
    await held;
    await route.continue();
  });
  await page.keyboard.press('d');
  await expect(page.getByText('The agent finished its turn.')).toBeVisible();
  await box.fill('two');
  await box.press('Enter');
  await expect(box).toHaveValue('');
  const log = page.getByRole('log', { name: 'transcript' });
  await expect(log.getByLabel('you')).toHaveCount(2);
  release();
  await expect(log).toContainText('Second.');
});

test('the focus comes back to the box after a decision and after the dialog is set aside, never while it is open', async ({
  page,
}) => {
  model.enqueue(write(join(folder, 'a.txt')));
  model.enqueue(write(join(folder, 'b.txt')));
  await startSession(page);
  const box = page.getByRole('textbox', { name: 'prompt' });
  const dialog = page.getByRole('dialog');

  await box.fill('write a');
  await box.press('Enter');
  const deny = dialog.getByRole('button', { name: 'Reject' });
  await expect(deny).toBeVisible();
  await expect(box).not.toBeFocused();
  // Keys typed now go to the dialog, not into the box behind it.
  await page.keyboard.type('zz');
  await expect(box).toHaveValue('');
  await expect(deny).not.toHaveAttribute('aria-disabled', 'true');
  await expect(dialog.locator('[data-default-option]')).toBeFocused();
  await page.keyboard.press('d');
  await expect(dialog).toHaveCount(0);
  await expect(box).toBeFocused();
  await expect(page.getByText('The agent finished its turn.')).toBeVisible();

  await page.keyboard.type('write b');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Reject' })).toBeVisible();
  await expect(dialog.locator('[data-default-option]')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(box).toBeFocused();
});
