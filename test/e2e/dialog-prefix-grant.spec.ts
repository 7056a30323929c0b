// "Always" for the first words of a command, picked in the dialog: the exact command is the
// default, the picker widens it one word at a time down to the least the core accepts, the grant
// is said in words before it is made and in the grants view after; the next command it covers is
// not asked. A prefix the core refuses is shown, and the request keeps waiting. Screenshots at
// 1280x800 and 390x844 go to test-results/; the first also to docs/images/ with
// GATEHOUSE_SCREENSHOTS=1.
import { join } from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { run, startDialogHarness, type DialogHarness } from './support/dialog-harness';

const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

const armed = (view: Locator) =>
  expect(view.locator('[data-default-option]')).not.toHaveAttribute('aria-disabled', 'true');
const picker = (view: Locator) => view.getByRole('combobox', { name: 'Always covers' });

test('widened word by word to `npm test …`, the next `npm test -- foo` is not asked', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // One after the other: the second is asked only once the first is answered.
  h = await startDialogHarness([
    {
      id: 'claude',
      name: 'Claude Code',
      script: {
        prompts: [[run('npm test -- --runInBand', 'Run the tests'), run('npm test -- foo')]],
      },
      preview: false,
    },
  ]);
  const { view } = await h.showTurn(page, 1);
  const select = picker(view);
  // The exact command is the default; the choices widen one word at a time, never below `npm test`.
  await expect(select).toHaveValue('');
  await expect(select.locator('option')).toHaveText([
    'this exact command',
    'npm test -- --runInBand …',
    'npm test -- …',
    'npm test …',
  ]);
  await expect(view.locator('.gh-grant-words')).toHaveCount(0);

  // On the keyboard: each arrow press drops one word.
  await select.focus();
  await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('4');
  await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('3');
  await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('2');
  await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('2');
  await expect(view.locator('.gh-grant-words')).toHaveText(
    '“Always” will allow npm test … in this session',
  );
  await armed(view);
  await page.screenshot({ path: join(OUT, 'prefix-grant.png') });

  const vote = page.waitForRequest((r) => r.url().endsWith('/vote') && r.method() === 'POST');
  await view.getByRole('button', { name: 'Allow for this session' }).click();
  expect((await vote).postDataJSON()).toEqual({
    optionId: 'opt-always',
    grant: { scope: 'session', prefixWords: 2 },
  });

  // The next command starts with those words: decided by the grant, never shown.
  await expect.poll(() => h.replies('claude').length).toBe(2);
  const items = (await h.history()).items;
  expect(items.map((i) => i.commandText)).toEqual(['npm test -- foo', 'npm test -- --runInBand']);
  expect(items[0]!.decider).toMatchObject({ type: 'grant' });
  expect(items[1]!.decider).toMatchObject({ type: 'person' });

  // The grants view says it in the same words.
  await page.getByRole('link', { name: 'Settings' }).click();
  const grants = page.locator('#sv-grants');
  await expect(grants.getByRole('row').filter({ hasText: 'npm test' })).toContainText(
    'allow npm test … in this session',
  );
});

test('on a phone the picker fits, and a prefix the core refuses is shown while the request waits', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // The line writes a file direnv runs: offered a prefix, but never remembered.
  h = await startDialogHarness([
    {
      id: 'claude',
      name: 'Claude Code',
      script: { prompts: [[run('npm test > .envrc', 'Run the tests')]] },
      preview: false,
    },
  ]);
  const { view, pending } = await h.showTurn(page, 1);
  await picker(view).selectOption({ label: 'npm test …' });
  await expect(view.locator('.gh-grant-words')).toContainText('allow npm test … in this session');
  const box = await picker(view).boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await armed(view);
  await page.screenshot({ path: 'test-results/screenshots/prefix-grant-phone.png' });

  await view.getByRole('button', { name: 'Allow for this session' }).click();
  await expect(view.getByRole('alert')).toContainText(/Gatehouse refused this answer: .*\.envrc/);
  await expect(view.getByRole('alert')).toContainText('The request is still waiting.');
  await expect(view.getByRole('status', { name: 'Queue position' })).toHaveText(/1 of 1$/);
  expect((await h.pending()).map((a) => a.requestId)).toEqual([pending[0]!.requestId]);
  expect(h.replies('claude')).toEqual([]);
});
