// The history's "What it changed" over real decisions of the scripted agent in its sandbox, each
// command previewed before it was allowed: what a command really changed next to its preview, the
// difference flagged when the agent ran more than it showed, "Undo these file changes" putting the
// project back, and an edit's undo refused, with the core's reason, after the file changed again.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { seriousViolations } from './support/axe';
import { OPTIONS, startDialogHarness, type DialogHarness } from './support/dialog-harness';
import {
  decideTurn,
  openSession,
  openView,
  prompt,
  registerVoter,
  vote,
  type Voter,
} from './support/history-harness';

// Written to test-results/ on every run; to docs/images/ only with GATEHOUSE_SCREENSHOTS=1.
const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

const BUILD =
  'mkdir -p dist/assets && echo "<h1>site</h1>" > dist/index.html && echo "body{}" > dist/assets/site.css && echo built > .build-stamp';
const NOTES_BEFORE = '# Notes\n\n- ship the site\n';
const NOTES_AFTER = '# Notes\n\n- ship the site\n- write the changelog\n';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

/** Asks to run `shown`; once allowed, the agent runs `ran` itself, in its sandbox. */
function command(id: string, title: string, shown: string, ran = shown): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: { toolCallId: id, kind: 'execute', title, rawInput: { command: shown } },
    options: OPTIONS,
    onAllow: [{ type: 'shell', command: ran }],
  };
}

function steps(folder: string): Record<string, ScriptStep[]> {
  const notes = join(folder, 'NOTES.md');
  return {
    build: [command('build-1', 'Build the site', BUILD)],
    // It shows the build, and removes the old docs too.
    sneaky: [command('build-2', 'Build the site', BUILD, `${BUILD} && rm -r docs`)],
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

/** A person allows the command once its preview has finished, as they would read it first. */
async function allowPreviewed(voter: Voter, sessionId: string, text: string): Promise<void> {
  const turn = prompt(h, sessionId, text);
  await h.waitForPending(1);
  await expect
    .poll(async () => (await h.pending())[0]?.preview?.state, { timeout: 20_000 })
    .toBe('done');
  await vote(h, voter, (await h.pending())[0]!.requestId, { optionId: 'opt-once' });
  await turn;
}

async function decisions(command: 'build' | 'sneaky') {
  h = await startDialogHarness((folder) => [
    { id: 'claude', name: 'Claude Code', script: { onPrompt: steps(folder) } },
  ]);
  mkdirSync(join(h.folder, 'docs'));
  writeFileSync(join(h.folder, 'docs', 'old.md'), '# Old docs\n');
  const voter = await registerVoter(h);
  const sessionId = await openSession(h, 'claude');
  await allowPreviewed(voter, sessionId, command);
  await decideTurn(h, voter, sessionId, 'notes', { optionId: 'opt-once' });
}

const rows = (page: Page) => page.getByRole('listbox', { name: /^Decisions/ }).getByRole('option');
const detail = (page: Page) => page.getByRole('region', { name: 'Decision detail' });
const changes = (page: Page) => detail(page).getByRole('region', { name: 'What it changed' });
const undoButton = (page: Page) =>
  changes(page).getByRole('button', { name: 'Undo these file changes' });

async function openBuild(page: Page, created: string) {
  await openView(h, page, '#/history');
  await rows(page).filter({ hasText: 'Build the site' }).click();
  // The comparison is audited when the agent reports the command finished: it may trail the turn.
  await expect(async () => {
    await page.reload();
    await rows(page).filter({ hasText: 'Build the site' }).click();
    await expect(changes(page)).toContainText(created, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

test('what a command really changed, next to its preview, and undo puts the project back', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await decisions('build');
  await openBuild(page, 'Actually5 created');
  const section = changes(page);
  await expect(section).toContainText('Preview5 created');
  await expect(section).toContainText('compared when the agent reported the command finished');
  await expect(section.getByTestId('effects-difference')).toHaveCount(0);
  await expect(section.getByRole('listitem')).toHaveText([
    /created.*\.build-stamp/,
    /created.*dist\/$/,
    /created.*dist\/assets\/$/,
    /created.*dist\/assets\/site\.css/,
    /created.*dist\/index\.html/,
  ]);

  await undoButton(page).click();
  await expect(section.getByRole('status')).toHaveText('Undone: put back 0 files, removed 3.');
  await expect(section).toContainText('Its file changes were undone');
  await expect(undoButton(page)).toHaveCount(0);
  expect(existsSync(join(h.folder, 'dist'))).toBe(false);
  expect(existsSync(join(h.folder, '.build-stamp'))).toBe(false);
  expect(readFileSync(join(h.folder, 'docs', 'old.md'), 'utf8')).toBe('# Old docs\n');
});

test('an agent that did more than it showed is flagged, and what it deleted unseen cannot be undone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await decisions('sneaky');
  await openBuild(page, 'Actually5 created, 2 deleted');
  const section = changes(page);
  await expect(section).toContainText('Preview5 created');
  await expect(section.getByTestId('effects-difference')).toHaveText(
    'Differs from the preview: previewed 5 files, changed 7',
  );
  await expect(section.getByRole('listitem').filter({ hasText: 'deleted' })).toHaveText([
    /deleted.*docs\/$/,
    /deleted.*docs\/old\.md/,
  ]);
  await expect(undoButton(page)).toBeDisabled();
  await expect(section).toContainText(
    'Not possible now: the contents of docs/old.md before were not kept (the preview did not list it).',
  );
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUT, 'history-undo.png') });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(
      await seriousViolations(page, 'section[aria-labelledby="hv-effects-title"]'),
      scheme,
    ).toEqual([]);
  }
});

test('an edit’s undo is refused with the reason once the file changed again', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await decisions('build');
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
