// A request too large to show whole: the dialog (which fetches it, knowing it only from the
// queue's summary) says which part was cut and how large it was.
import { expect, test } from '@playwright/test';
import { ask, oneAgent, startDialogHarness, type DialogHarness } from './support/dialog-harness';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

test('a 10 MB raw input is shown cut, with its size', async ({ page }) => {
  const content = 'x'.repeat(10 * 1024 * 1024);
  h = await startDialogHarness(
    oneAgent([
      ask({ kind: 'edit', title: 'Write big.txt', rawInput: { file_path: 'big.txt', content } }),
    ]),
  );
  const { view, pending } = await h.showTurn(page, 1);
  expect(pending[0]!.cuts?.map((c) => c.part)).toEqual(['rawInput']);
  await expect(view.getByRole('heading', { level: 2 })).toHaveText('Write big.txt');
  await expect(view.locator('.gh-raw summary')).toContainText('truncated, 10.0 MB');
  await expect(view.getByRole('note').filter({ hasText: 'Too large to show whole' })).toContainText(
    'rawInput (truncated, 10.0 MB)',
  );
});

test('paths past what the rules check are counted, and the request waits for a person', async ({
  page,
}) => {
  const locations = Array.from({ length: 1_001 }, (_, i) => ({ path: `src/f${i}.ts` }));
  h = await startDialogHarness(
    oneAgent([ask({ kind: 'edit', title: 'Format the sources', locations })]),
  );
  const { view, pending } = await h.showTurn(page, 1);
  // The rules saw the first 1,000 (the dialog shows what fits its own bound of them).
  expect(pending[0]!.toolCall.locationsDropped).toBe(1);
  await expect(view.locator('.gh-paths')).toContainText(
    'and 1 more the agent named, too many for the rules to check',
  );
});

test('diffs past what the dialog shows are counted, not passed over', async ({ page }) => {
  // A hostile agent's request: a hundred harmless changes shown, the rest below the fold of the bound.
  const content = Array.from({ length: 130 }, (_, i) => ({
    type: 'diff',
    path: `src/f${i}.ts`,
    oldText: null,
    newText: `export const n = ${i};\n`,
  }));
  h = await startDialogHarness(
    oneAgent([ask({ kind: 'edit', title: 'Write the sources', content })]),
  );
  const { view, pending } = await h.showTurn(page, 1);
  expect(pending[0]!.diffs).toHaveLength(100);
  expect(pending[0]!.diffsDropped).toBe(30);
  await expect(view.locator('#gh-changes-title')).toContainText('Changes · 130 files');
  await expect(view.locator('.gh-diffs-dropped')).toHaveText(
    'and 30 more the agent sent, too many to show',
  );
});
