// Where a person turns command previews on and off, and asks a rule to wait for one: the general
// preview settings (on, and its time bound), an agent's "Preview commands", and an allow rule that
// holds only when the preview changes nothing outside named folders — each saved through the core,
// refused in the core's words when out of bounds, and recorded in the audit with who changed it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Rule } from '../../src/shared/rules';
import type { Settings } from '../../src/shared/settings';
import { expectAxeClean } from './support/axe';
import { run, startDialogHarness, type DialogHarness } from './support/dialog-harness';
import { openView } from './support/history-harness';
import { databasePath } from '../../src/main/core/store/data-folder';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

type Loaded = { settings: Settings };
const getJson = async <T>(path: string): Promise<T> =>
  (await (await h.headless.api(path)).json()) as T;
const onDisk = () =>
  JSON.parse(readFileSync(join(h.headless.home, 'settings.json'), 'utf8')) as Settings;
const general = (page: Page) => page.getByRole('form', { name: 'General settings' });
const rulesTable = (page: Page) => page.getByRole('table', { name: 'Rules' });
const conditionIn = (dialog: Locator) =>
  dialog.getByRole('checkbox', {
    name: 'Only when its preview changes nothing outside these folders',
  });

/** The audit's administrative events of `type`, oldest first, read from the store's file. */
function auditEvents(type: string): { payload: Record<string, unknown> }[] {
  const db = new Database(databasePath(h.headless.home), { readonly: true });
  try {
    return db
      .prepare('SELECT payload_json FROM events WHERE type = ? ORDER BY seq')
      .all(type)
      .map((row) => ({ payload: JSON.parse((row as { payload_json: string }).payload_json) }));
  } finally {
    db.close();
  }
}

async function start() {
  h = await startDialogHarness([
    { id: 'claude', name: 'Claude Code', script: { onPrompt: { t: [run('make test')] } } },
  ]);
}

test('the preview settings: off, a longer bound, saved and audited; a bound past the limit is refused in the core’s words', async ({
  page,
}) => {
  await start();
  await openView(h, page, '#/settings');
  const form = general(page);
  const on = form.getByRole('checkbox', { name: /Try each command in a throwaway copy/ });
  const seconds = form.getByRole('spinbutton', { name: 'Stop a preview after (seconds)' });
  await expect(on).toBeChecked();
  await expect(seconds).toHaveValue('10');

  await seconds.fill('30');
  await on.uncheck();
  // Off, the bound is not for editing.
  await expect(seconds).toBeDisabled();
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  expect((await getJson<Loaded>('/api/settings')).settings.preview).toEqual({
    enabled: false,
    timeoutSeconds: 30,
  });
  expect(onDisk().preview).toEqual({ enabled: false, timeoutSeconds: 30 });
  const [changed] = auditEvents('settings_changed');
  expect(changed!.payload).toMatchObject({
    changes: {
      preview: {
        before: { enabled: true, timeoutSeconds: 10 },
        after: { enabled: false, timeoutSeconds: 30 },
      },
    },
    by: { transport: 'http', paired: true },
  });

  await on.check();
  await seconds.fill('500');
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(form.getByRole('alert')).toContainText('timeoutSeconds');
  expect(onDisk().preview).toEqual({ enabled: false, timeoutSeconds: 30 });
  expect(auditEvents('settings_changed')).toHaveLength(1);
  await expectAxeClean(page);
});

test('an agent’s “Preview commands”: off from its form, saved, shown again as it is, audited', async ({
  page,
}) => {
  await start();
  await openView(h, page, '#/settings');
  const agent = page.locator('[data-agent-id="claude"]');
  await agent.getByRole('button', { name: 'Edit Claude Code' }).click();
  const form = agent.getByRole('form', { name: 'Edit Claude Code' });
  const preview = form.getByRole('checkbox', { name: /Preview commands/ });
  await expect(preview).toBeChecked();
  await preview.uncheck();
  await form.getByRole('button', { name: 'Save agent' }).click();
  // A change of what previews does not change what runs: applied at once, no code to type.
  await expect(form).toBeHidden();
  await expect.poll(() => onDisk().agents['claude']!.preview).toBe(false);
  expect((await getJson<Loaded>('/api/settings')).settings.agents['claude']!.preview).toBe(false);
  const [changed] = auditEvents('settings_changed');
  expect(changed!.payload).toMatchObject({
    changes: { agents: { after: { claude: { preview: false } } } },
  });

  await agent.getByRole('button', { name: 'Edit Claude Code' }).click();
  await expect(
    agent.getByRole('form', { name: 'Edit Claude Code' }).getByRole('checkbox', {
      name: /Preview commands/,
    }),
  ).not.toBeChecked();
});

test('an allow rule that waits for the preview: offered only to an allow that can match a command, saved with its folders, listed in words', async ({
  page,
}) => {
  await start();
  await openView(h, page, '#/settings');
  await page.getByRole('button', { name: 'Add rule…' }).click();
  const add = page.getByRole('dialog', { name: 'New rule' });
  const condition = conditionIn(add);
  await add.getByRole('radio', { name: 'A command' }).check();
  await add.getByRole('textbox', { name: 'Command' }).fill('make test');
  // An ask or a deny never waits for anything.
  await expect(condition).toHaveCount(0);
  await add.getByRole('radio', { name: 'Allow' }).check();
  await condition.check();
  await expect(condition).toHaveAccessibleDescription(/A command can tell it is being previewed/);
  await add.getByRole('textbox', { name: /^Folders, one per line/ }).fill('build\n\ndist/\n');
  await add.getByRole('button', { name: 'Save rule' }).click();
  await expect(add).toBeHidden();

  expect(await getJson<Rule[]>('/api/rules')).toEqual([
    expect.objectContaining({
      id: 'allow-make-test',
      action: 'allow',
      command: 'make test',
      whenPreviewChangesOnly: ['build', 'dist/'],
    }),
  ]);
  const row = rulesTable(page).getByRole('row').filter({ hasText: 'allow-make-test' });
  await expect(row).toContainText('only when its preview changes nothing outside build/, dist/');
  const [saved] = auditEvents('rule_saved');
  expect(JSON.stringify(saved!.payload)).toContain('"whenPreviewChangesOnly":["build","dist/"]');

  // No folders: it allows only a command whose preview changes nothing at all.
  await row.getByRole('button', { name: 'Edit rule allow-make-test' }).click();
  const editing = page.getByRole('dialog', { name: 'Edit rule allow-make-test' });
  await expect(editing.getByRole('textbox', { name: /^Folders, one per line/ })).toHaveValue(
    'build\ndist/',
  );
  await editing.getByRole('textbox', { name: /^Folders, one per line/ }).fill('');
  await expectAxeClean(page);
  await editing.getByRole('button', { name: 'Save rule' }).click();
  await expect(editing).toBeHidden();
  await expect(row).toContainText('only when its preview changes nothing');
  expect((await getJson<Rule[]>('/api/rules'))[0]!.whenPreviewChangesOnly).toEqual([]);

  // Made a deny, the condition goes: a deny holds whatever the preview says.
  await row.getByRole('button', { name: 'Edit rule allow-make-test' }).click();
  await editing.getByRole('radio', { name: 'Deny' }).check();
  await expect(conditionIn(editing)).toHaveCount(0);
  await editing.getByRole('button', { name: 'Save rule' }).click();
  await expect(editing).toBeHidden();
  expect((await getJson<Rule[]>('/api/rules'))[0]!.whenPreviewChangesOnly).toBeUndefined();
  await expect(row).not.toContainText('preview');

  // An edit-only rule never sees a preview: the condition is not offered.
  await page.getByRole('button', { name: 'Add rule…' }).click();
  await add.getByRole('radio', { name: 'Allow' }).check();
  await add.getByRole('radio', { name: 'A path' }).check();
  await add.getByRole('combobox', { name: 'Tool kind' }).selectOption('edit');
  await expect(condition).toHaveCount(0);
});
