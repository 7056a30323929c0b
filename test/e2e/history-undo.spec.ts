// The history's "What it changed" over real decisions of the scripted agent in its sandbox: a
// command it ran after approval (what it really changed, listed), "Undo these file changes" putting
// the project back, and an edit's undo refused, with the core's reason, after the file changed again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { OPTIONS, startDialogHarness, type DialogHarness } from './support/dialog-harness';
import { decideTurn, openSession, openView, registerVoter } from './support/history-harness';

// Written to test-results/ on every run; to docs/images/ only with GATEHOUSE_SCREENSHOTS=1.
const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

const BUILD =
  'mkdir -p dist/assets && echo "<h1>site</h1>" > dist/index.html && echo "body{}" > dist/assets/site.css && echo built > .build-stamp';
const NOTES_BEFORE = '# Notes\n\n- ship the site\n';
const NOTES_AFTER = '# Notes\n\n- ship the site\n- write the changelog\n';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

function steps(folder: string): Record<string, ScriptStep[]> {
  const notes = join(folder, 'NOTES.md');
  return {
    build: [
      {
        type: 'requestPermission',
        toolCall: {
          toolCallId: 'build-1',
          kind: 'execute',
          title: 'Build the site',
          rawInput: { command: BUILD },
        },
        options: OPTIONS,
        // Run by the agent itself, in its sandbox, once allowed.
        onAllow: [{ type: 'shell', command: BUILD }],
      },
    ],
    notes: [
      {
        type: 'requestPermission',
        toolCall: {
          toolCallId: 'notes-1',
          kind: 'edit',
          title: 'Add a line to the notes',
          locations: [{ path: notes }],
          content: [{ type: 'diff', path: notes, oldText: NOTES_BEFORE, newText: NOTES_AFTER }],
        },
        options: OPTIONS,
        onAllow: [{ type: 'writeFile', path: notes, content: NOTES_AFTER, via: 'client' }],
      },
    ],
  };
}

async function decisions() {
  h = await startDialogHarness((folder) => [
    { id: 'claude', name: 'Claude Code', script: { onPrompt: steps(folder) } },
  ]);
  const voter = await registerVoter(h);
  const sessionId = await openSession(h, 'claude');
  await decideTurn(h, voter, sessionId, 'build', { optionId: 'opt-once' });
  await decideTurn(h, voter, sessionId, 'notes', { optionId: 'opt-once' });
}

const rows = (page: Page) => page.getByRole('listbox', { name: /^Decisions/ }).getByRole('option');
const detail = (page: Page) => page.getByRole('region', { name: 'Decision detail' });
const changes = (page: Page) => detail(page).getByRole('region', { name: 'What it changed' });
const undoButton = (page: Page) =>
  changes(page).getByRole('button', { name: 'Undo these file changes' });

async function openBuild(page: Page) {
  await openView(h, page, '#/history');
  await rows(page).filter({ hasText: 'Build the site' }).click();
  // The comparison is audited when the agent reports the command finished: it may trail the turn.
  await expect(async () => {
    await page.reload();
    await rows(page).filter({ hasText: 'Build the site' }).click();
    await expect(changes(page)).toContainText('5 created', { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

test('a command’s real changes are listed, and undo puts the project back', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await decisions();
  await openBuild(page);
  const section = changes(page);
  await expect(section).toContainText('Previewnone ran');
  await expect(section).toContainText('compared when the agent reported the command finished');
  await expect(section.getByRole('listitem')).toHaveText([
    /created.*\.build-stamp/,
    /created.*dist\/$/,
    /created.*dist\/assets\/$/,
    /created.*dist\/assets\/site\.css/,
    /created.*dist\/index\.html/,
  ]);
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUT, 'history-undo.png') });

  await undoButton(page).click();
  await expect(section.getByRole('status')).toHaveText('Undone: put back 0 files, removed 3.');
  await expect(section).toContainText('Its file changes were undone');
  await expect(undoButton(page)).toHaveCount(0);
  expect(existsSync(join(h.folder, 'dist'))).toBe(false);
  expect(existsSync(join(h.folder, '.build-stamp'))).toBe(false);
});

test('an edit’s undo is refused with the reason once the file changed again', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await decisions();
  const notes = join(h.folder, 'NOTES.md');
  expect(readFileSync(notes, 'utf8')).toBe(NOTES_AFTER);
  // A person went on editing after the agent's write.
  writeFileSync(notes, `${NOTES_AFTER}- and one more by hand\n`);
  await openView(h, page, '#/history');
  await rows(page).filter({ hasText: 'Add a line to the notes' }).click();
  await expect(changes(page)).toContainText('The writes above are what it changed.');
  await undoButton(page).scrollIntoViewIfNeeded();
  await undoButton(page).click();
  await expect(changes(page).getByRole('alert')).toHaveText(
    'Undo refused: NOTES.md changed since (it is not what the change left)',
  );
  await page.screenshot({ path: 'test-results/screenshots/history-undo-refused-phone.png' });
  expect(readFileSync(notes, 'utf8')).toBe(`${NOTES_AFTER}- and one more by hand\n`);
});
