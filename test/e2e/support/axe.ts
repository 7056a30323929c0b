// The accessibility check the views share: no axe violation at all, in the light theme and in the dark.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectAxeClean(page: Page): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.map((v) => v.id),
      scheme,
    ).toEqual([]);
  }
}
