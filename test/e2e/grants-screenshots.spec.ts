// Screenshots of an "always" made in the dialog: the button naming the project scope and the
// expiry chosen, then the grant in words in Settings. Looked at, not compared; they go to
// test-results/ on every run, and to docs/images/ with GATEHOUSE_SCREENSHOTS=1.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { oneAgent, run, startDialogHarness, type DialogHarness } from './support/dialog-harness';

const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

test('the always button with a project scope, and the grant it makes, in words', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  h = await startDialogHarness(oneAgent([run('npm test', 'Run the tests')]));
  const { view } = await h.showTurn(page, 1);
  await view
    .getByRole('combobox', { name: 'Always applies to' })
    .selectOption({ label: 'this project folder' });
  await view.getByRole('combobox', { name: 'for' }).selectOption({ label: '30 minutes' });
  const always = view.getByRole('button', { name: 'Allow in this project for 30 min' });
  await expect(always).toBeVisible();
  await expect(view.locator('[data-default-option]')).not.toHaveAttribute('aria-disabled', 'true');
  await page.screenshot({ path: join(OUT, 'dialog-always-project.png') });

  await always.click();
  await expect(page.getByText('Nothing is waiting for you')).toBeVisible();
  await page.getByRole('link', { name: 'Settings' }).click();
  const grants = page.locator('#sv-grants');
  await expect(grants.getByRole('row').filter({ hasText: 'npm test' })).toContainText(
    `allow npm test in ${h.folder} for 30 min`,
  );
  await grants.scrollIntoViewIfNeeded();
  await grants.screenshot({ path: join(OUT, 'settings-grants-words.png') });
});
