// The first screen with work waiting: a request counting down to its automatic denial, the running
// sessions and the last decisions, axe-clean in both themes with the dialog over it.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { edit, run, startDialogHarness, type DialogHarness } from './support/dialog-harness';

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
      script: { prompts: [[run('npm test'), { type: 'text', text: 'Tests pass.' }]] },
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
  const main = page.getByRole('main');
  await expect(main.getByRole('timer')).toContainText('auto-deny in');
  await expect(main).toContainText('Create hello.py');
  await expect(main.getByRole('region', { name: 'Running sessions' })).toContainText('claude');
  await expect(main.getByRole('region', { name: 'Last decisions' })).toContainText('npm test');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.map((v) => v.id),
      scheme,
    ).toEqual([]);
  }
});
