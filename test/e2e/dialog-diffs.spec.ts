// The diff view: new file, edit, delete, move, binary, oversized and 10k-line changes; unified and
// side by side (remembered), highlighted by file type, unchanged stretches collapsed.
import { join } from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { ask, edit, oneAgent, startDialogHarness } from './support/dialog-harness';
import type { DialogHarness } from './support/dialog-harness';
import { queue } from './support/dialog-view';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

const diffOf = (view: Locator, change: string, path: RegExp) =>
  view.getByRole('region', { name: new RegExp(`^${change}: .*${path.source}`) });
const show = (view: Locator, title: string) =>
  queue(view)
    .getByRole('button', { name: new RegExp(title) })
    .click();

const lines = (n: number, line: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => `${line(i)}\n`).join('');

const SOURCE = lines(60, (i) =>
  i === 0
    ? 'export function total(items: number[]): number {'
    : `  const v${i} = items[${i}] ?? 0; // line ${i}`,
);

test('new file, edit, delete and move, each drawn for what it is', async ({ page }) => {
  h = await startDialogHarness((folder) =>
    oneAgent([
      edit(join(folder, 'src/new.py'), null, 'def hello():\n    return "hi"\n', {
        title: 'New python file',
      }),
      edit(join(folder, 'src/empty-old.md'), '', '# Title\n', {
        title: 'New file from empty',
      }),
      edit(
        join(folder, 'src/total.ts'),
        SOURCE,
        SOURCE.replace('line 30', 'line thirty').replace('v45', 'w45'),
        { title: 'Edit total' },
      ),
      ask({
        kind: 'delete',
        title: 'Delete old config',
        locations: [{ path: join(folder, 'old.json') }],
        content: [
          {
            type: 'diff',
            path: join(folder, 'old.json'),
            oldText: '{ "legacy": true }\n',
            newText: '',
          },
        ],
      }),
      ask({
        kind: 'delete',
        title: 'Delete a file without content',
        locations: [{ path: join(folder, 'gone.txt') }],
      }),
      ask({
        kind: 'move',
        title: 'Move util',
        rawInput: {
          source: join(folder, 'src/util.ts'),
          destination: join(folder, 'lib/util.ts'),
        },
        locations: [{ path: join(folder, 'lib/util.ts') }],
        content: [
          {
            type: 'diff',
            path: join(folder, 'lib/util.ts'),
            oldText: 'export const one = 1;\n',
            newText: 'export const one = 1;\nexport const two = 2;\n',
          },
        ],
      }),
    ]),
  );
  const { view } = await h.showTurn(page, 6);

  await show(view, 'New python file');
  const created = diffOf(view, 'New file', /src\/new\.py/);
  await expect(created.getByLabel(/^After: .*new\.py \(new file\)/)).toContainText('return "hi"');
  await expect(created).toContainText('+2');
  // Highlighted as Python once the language has loaded.
  await expect(created.locator('.tok-keyword').first()).toHaveText('def');

  await show(view, 'New file from empty');
  await expect(diffOf(view, 'New file', /empty-old\.md/).getByLabel(/^After:/)).toContainText(
    '# Title',
  );

  await show(view, 'Edit total');
  const edited = diffOf(view, 'Modified', /src\/total\.ts/);
  await expect(edited).toContainText('+2');
  await expect(edited).toContainText('−2');
  const unified = edited.getByLabel(/^After: .*total\.ts \(unified diff/);
  await expect(unified).toContainText('line thirty');
  // The removed line is shown inline, and the long unchanged stretches are collapsed.
  await expect(edited.locator('.cm-deletedChunk')).toHaveCount(2);
  await expect(edited.locator('.cm-collapsedLines').first()).toContainText('unchanged lines');
  await expect(edited.locator('.tok-keyword').first()).toBeVisible();
  await edited.getByRole('button', { name: 'Show all lines' }).click();
  await expect(edited.locator('.cm-collapsedLines')).toHaveCount(0);

  // Side by side: two editors, before and after; the choice is remembered for the next request.
  await view
    .getByRole('group', { name: 'Diff layout' })
    .getByRole('button', { name: 'Side by side' })
    .click();
  await expect(edited.getByLabel(/^Before: .*total\.ts$/)).toContainText('line 30');
  await expect(edited.getByLabel(/^After: .*total\.ts$/)).toContainText('line thirty');

  await show(view, 'Move util');
  const moved = diffOf(view, 'Moved', /lib\/util\.ts/);
  await expect(moved.getByRole('heading')).toHaveText(/src\/util\.ts\s*moved to\s*.*lib\/util\.ts/);
  await expect(moved.getByLabel(/^Before: .*lib\/util\.ts$/)).toBeVisible();
  await expect(moved.getByLabel(/^After: .*lib\/util\.ts$/)).toContainText('export const two = 2;');

  await page.reload();
  await show(view, 'Move util');
  await expect(
    view.getByRole('group', { name: 'Diff layout' }).getByRole('button', { name: 'Side by side' }),
  ).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('u');
  await expect(diffOf(view, 'Moved', /lib\/util\.ts/).getByLabel(/unified diff/)).toContainText(
    'export const two',
  );

  await show(view, 'Delete old config');
  const deleted = diffOf(view, 'Deleted', /old\.json/);
  await expect(deleted.getByLabel(/^Before: .*old\.json \(deleted file\)/)).toContainText(
    '"legacy": true',
  );
  await expect(deleted).toContainText('−1');

  await show(view, 'Delete a file without content');
  await expect(diffOf(view, 'Deleted', /gone\.txt/)).toContainText(
    'The file will be deleted. The agent sent no content to show.',
  );
});

test('binary content is summarised, oversized content is cut with a note and its full size', async ({
  page,
}) => {
  const binary = `\u0089PNG\r\n\u001a\n${'\u0000\u0000\u0000\rIHDR\u0000\u0000\u0001\u0000\ufffd\ufffd'.repeat(64)}`;
  const huge = lines(120_000, (i) => `row ${i}`);
  h = await startDialogHarness((folder) =>
    oneAgent([
      edit(join(folder, 'logo.png'), null, binary, { title: 'Write the logo' }),
      edit(join(folder, 'big.log'), null, huge, { title: 'Write a big log' }),
    ]),
  );
  const { view, pending } = await h.showTurn(page, 2);
  expect(pending.find((a) => a.toolCall.title === 'Write the logo')!.diffs[0]).toMatchObject({
    binary: true,
    newText: null,
  });

  await show(view, 'Write the logo');
  const logo = diffOf(view, 'New file', /logo\.png/);
  await expect(logo.getByRole('note')).toContainText('Binary content, not shown');
  await expect(logo.getByRole('note')).toContainText('KB');
  await expect(logo.locator('.cm-editor')).toHaveCount(0);
  await expect(view.getByRole('button', { name: 'Allow', exact: true })).not.toHaveAttribute(
    'aria-disabled',
  );

  await show(view, 'Write a big log');
  const big = diffOf(view, 'New file', /big\.log/);
  await expect(big.getByRole('note')).toContainText('Too large to show whole');
  await expect(big.getByRole('note')).toContainText('120,000 lines');
  await expect(big.getByRole('note')).toContainText('MB');
  await expect(big.getByLabel(/^After:/)).toContainText('row 0');
  await expect(view.getByRole('button', { name: 'Allow', exact: true })).not.toHaveAttribute(
    'aria-disabled',
  );
});

test('a 10k-line edit: drawn, collapsed around its changes, and the dialog takes clicks', async ({
  page,
}) => {
  const before = lines(10_000, (i) => `export const value${i} = ${i}; // generated line ${i}`);
  const after = before
    .replace('value100 = 100;', 'value100 = 101;')
    .replace('value5000 = 5000;', 'value5000 = -1;')
    .replace('value9990 = 9990;', 'value9990 = 0;');
  h = await startDialogHarness((folder) =>
    oneAgent([
      edit(join(folder, 'generated.ts'), before, after, { title: 'Regenerate constants' }),
    ]),
  );
  const { view } = await h.showTurn(page, 1);
  const diff = diffOf(view, 'Modified', /generated\.ts/);
  await expect(diff).toContainText('+3');
  await expect(diff).toContainText('−3');
  await expect(diff.locator('.cm-deletedChunk')).toHaveCount(3);
  await expect(diff.locator('.cm-collapsedLines').first()).toContainText('unchanged lines');
  await expect(diff.getByLabel(/^After:/)).toContainText('value100 = 101;');
  const allow = view.getByRole('button', { name: 'Allow', exact: true });
  await expect(allow).not.toHaveAttribute('aria-disabled');
  await allow.click();
  await expect.poll(() => h.replies('claude').map((r) => r.optionId)).toEqual(['opt-once']);
});
