// The accessibility checks the views share: no axe violation at all (in the whole page, or inside
// `include`), in the light theme and in the dark; or none serious or critical, named by rule and
// first places.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectAxeClean(page: Page, include?: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const builder = new AxeBuilder({ page });
    const axe = await (include ? builder.include(include) : builder).analyze();
    expect(
      axe.violations.map((v) => v.id),
      scheme,
    ).toEqual([]);
  }
}

/** The serious and critical violations axe finds (inside `include` when given). */
export async function seriousViolations(page: Page, include?: string) {
  const axe = new AxeBuilder({ page });
  const results = await (include ? axe.include(include) : axe).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
}
