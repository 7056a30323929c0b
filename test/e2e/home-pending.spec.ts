// The first screen with work waiting: the dialog over it set aside (Later, or Escape) until a new
// request arrives; a request counting down to its automatic denial, the running sessions and the
// last decisions, axe-clean in both themes.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectAxeClean } from './support/axe';
import { edit, run, startDialogHarness, type DialogHarness } from './support/dialog-harness';

// Written to test-results/ on every run; to docs/images/ only with GATEHOUSE_SCREENSHOTS=1.
const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

let h: DialogHarness | undefined;
test.afterEach(async () => {
  await h?.stop();
  h = undefined;
});
test.use({ colorScheme: 'light', viewport: { width: 1280, height: 860 } });

test('home with pending work: a request counting down, running sessions, last decisions', async ({
  page,
}) => {
  h = await startDialogHarness((folder) => [
    {
      id: 'claude',
      name: 'Claude Code',
      script: { prompts: [[edit(join(folder, 'hello.py'), null, 'print("hello")\n')]] },
    },
    {
      id: 'gemini',
      name: 'Gemini CLI',
      script: {
        prompts: [[run('npm test'), { type: 'text', text: 'Tests pass.' }], [run('npm run lint')]],
      },
    },
  ]);
  await h.startTurn('gemini', 'Run the tests');
  const [decided] = await h.waitForPending(1);
  await h.headless.api(`/api/approvals/${decided!.requestId}/vote`, {
    method: 'POST',
    body: JSON.stringify({ optionId: 'opt-once' }),
  });
  await h.startTurn('claude', 'Add a greeting');
  await h.waitForPending(1);

  await h.open(page, 'sessions');
  await page.goto(`${new URL(page.url()).origin}/#/`);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Create hello.py');
  await dialog.getByRole('button', { name: 'Later' }).click();
  await expect(dialog).toHaveCount(0);
  const main = page.getByRole('main');
  await expect(main.getByRole('timer')).toContainText('auto-deny in');
  await expect(main).toContainText('Create hello.py');
  await expect(main.getByRole('region', { name: 'Running sessions' })).toContainText('claude');
  await expect(main.getByRole('region', { name: 'Last decisions' })).toContainText('npm test');
  await page.screenshot({ path: join(OUT, 'home-pending.png') });
  await expectAxeClean(page);

  // Set aside, not decided: a new request brings the dialog back, with both waiting.
  await page.emulateMedia({ colorScheme: 'light' });
  await h.startTurn('gemini', 'Lint');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('status', { name: 'Queue position' })).toHaveText(/of 2/);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'views' })).toContainText('Approvals 2');
});
