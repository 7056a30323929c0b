// Grants and rules through the UI: an "always" with a scope and an expiry chosen in the approval
// dialog becomes a grant that settings lists and revokes; "Make this a rule" from a history entry;
// suggestions after repeated approvals; rules added, edited and deleted in settings.
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Grant, Rule } from '../../src/shared/rules';
import { approvalsView, run, startDialogHarness } from './support/dialog-harness';
import type { DialogHarness } from './support/dialog-harness';
import {
  decideTurn,
  historyOf,
  openSession,
  openView,
  prompt,
  registerVoter,
  vote,
} from './support/history-harness';

type GrantView = { grant: Grant; active: boolean; revokeReason: string | null };

let h: DialogHarness;
test.afterEach(async () => h?.stop());

async function start(onPrompt: Record<string, ReturnType<typeof run>[]>) {
  h = await startDialogHarness([{ id: 'claude', name: 'Claude Code', script: { onPrompt } }]);
  return { voter: await registerVoter(h), sessionId: await openSession(h, 'claude') };
}

const getJson = async <T>(path: string): Promise<T> =>
  (await (await h.headless.api(path)).json()) as T;
const grantsTable = (page: Page) => page.getByRole('table', { name: 'Grants' });
const rulesTable = (page: Page) => page.getByRole('table', { name: 'Rules' });
const rows = (page: Page) => page.getByRole('listbox', { name: /^Decisions/ }).getByRole('option');
const matches = (dialog: Locator) =>
  dialog.getByRole('list', { name: 'Matching past requests' }).getByRole('listitem');

test('a grant chosen in the dialog is listed in settings, decides, and once revoked asks again', async ({
  page,
}) => {
  const { voter, sessionId } = await start({ build: [run('npm run build', 'Build the project')] });

  // The dialog: "always", for this project folder, for 30 minutes.
  const first = prompt(h, sessionId, 'build');
  await h.waitForPending(1);
  await h.open(page);
  const view = approvalsView(page);
  await view
    .getByRole('combobox', { name: 'Always applies to' })
    .selectOption({ label: 'this project folder' });
  await view.getByRole('combobox', { name: 'for' }).selectOption({ label: '30 minutes' });
  await expect(view.locator('[data-default-option]')).not.toHaveAttribute('aria-disabled', 'true');
  await view.getByRole('button', { name: 'Allow in this project for 30 min' }).click();
  await first;

  const [made] = await getJson<GrantView[]>('/api/grants');
  expect(made).toMatchObject({
    active: true,
    grant: { scope: 'project', projectRoot: h.folder, toolKind: 'execute' },
  });
  expect(made!.grant.expiresAt! - made!.grant.createdAt).toBe(30 * 60_000);

  // The next identical request is decided by the grant, and the history says so.
  await prompt(h, sessionId, 'build');
  expect((await historyOf(h))[0]!.decider).toEqual({ type: 'grant', grantId: made!.grant.id });
  await openView(h, page, '#/history');
  await rows(page).first().click();
  await expect(page.getByTestId('decider')).toHaveText(
    `Allowed by a grant: allow \`npm run build\` in ${h.folder} for 30 min`,
  );

  // Settings lists it, with what it covers, and revokes it.
  await page.getByRole('link', { name: 'Settings' }).click();
  const row = grantsTable(page).getByRole('row').filter({ hasText: 'npm run build' });
  // In words, not an id: what it allows, where, for how long.
  await expect(row.getByRole('cell').nth(1)).toHaveText(
    `allow npm run build in ${h.folder} for 30 min`,
  );
  await expect(row).toContainText(/in (29|30) minutes/);
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: /^Revoke/ }).click();
  await expect(page.getByText('No grants in force.')).toBeVisible();
  expect(await getJson<GrantView[]>('/api/grants')).toEqual([]);
  const all = await getJson<GrantView[]>('/api/grants?includeInactive=true');
  expect(all).toHaveLength(1);
  expect(all[0]!.grant.revokedAt).toBeDefined();
  await page.getByLabel('Show inactive').check();
  await expect(
    grantsTable(page).getByRole('row').filter({ hasText: 'npm run build' }),
  ).toContainText('Revoked');
  await page.getByLabel('Show inactive').uncheck();

  // The next identical request asks again; its "always" (this session) shows up live.
  const third = prompt(h, sessionId, 'build');
  const [again] = await h.waitForPending(1);
  await vote(h, voter, again!.requestId, { optionId: 'opt-always', grant: { scope: 'session' } });
  await third;
  const live = grantsTable(page).getByRole('row').filter({ hasText: 'npm run build' });
  await expect(live).toContainText('allow npm run build in this session');
  await expect(live).toContainText('with the session');
});

test('make this a rule: pre-filled from the entry, previewed, saved, then it decides', async ({
  page,
}) => {
  const { voter, sessionId } = await start({ test: [run('npm test', 'Run the tests')] });
  const asked = await decideTurn(h, voter, sessionId, 'test', { optionId: 'opt-once' });

  await openView(h, page, '#/history');
  await rows(page).filter({ hasText: 'Run the tests' }).click();
  await page.getByRole('button', { name: 'Make this a rule…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make this a rule' });
  await expect(dialog.getByRole('radio', { name: 'Allow' })).toBeChecked();
  await expect(dialog.getByRole('combobox', { name: 'Tool kind' })).toHaveValue('execute');
  await expect(dialog.getByRole('radio', { name: 'A command' })).toBeChecked();
  await expect(dialog.getByRole('textbox', { name: 'Command' })).toHaveValue('npm test');
  await expect(dialog.getByRole('combobox', { name: 'Match' })).toHaveValue('exact');
  await expect(dialog.getByRole('combobox', { name: 'Agent' })).toHaveValue('claude');
  await expect(dialog.getByRole('textbox', { name: 'Project folder' })).toHaveValue(h.folder);
  await expect(dialog.getByRole('textbox', { name: 'Rule id' })).toHaveValue('allow-npm-test');

  // The preview lists the entry it was made from.
  await expect(matches(dialog)).toHaveCount(1);
  await expect(matches(dialog).first()).toHaveAttribute('data-request-id', asked.requestId);
  await expect(matches(dialog).first()).toContainText('full');
  await expect(dialog.getByRole('status').first()).toHaveText('1 of the last 1 decided requests.');

  // An invalid edit: the core's error, verbatim; nothing saved.
  await dialog.getByRole('textbox', { name: 'Command' }).fill('npm "test');
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await expect(dialog.getByRole('alert').last()).toContainText(
    'rule "allow-npm-test" (#1): command pattern "npm \\"test"',
  );
  expect(await getJson<Rule[]>('/api/rules')).toEqual([]);

  await dialog.getByRole('textbox', { name: 'Command' }).fill('npm test');
  await expect(matches(dialog)).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Rule allow-npm-test saved')).toBeVisible();
  const rules = await getJson<Rule[]>('/api/rules');
  expect(rules).toEqual([
    expect.objectContaining({
      id: 'allow-npm-test',
      action: 'allow',
      toolKind: 'execute',
      command: 'npm test',
      commandMatch: 'exact',
      agent: 'claude',
      project: h.folder,
      source: 'history',
    }),
  ]);

  // The next identical request is decided by the rule: nobody is asked.
  await prompt(h, sessionId, 'test');
  expect((await historyOf(h))[0]!.decider).toEqual({ type: 'rule', ruleId: 'allow-npm-test' });
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).first()).toContainText('Allowed by rule allow-npm-test');
});

test('five identical approvals: a suggestion, made a rule in one click through the editor', async ({
  page,
}) => {
  const { voter, sessionId } = await start({ lint: [run('npm run lint', 'Lint the code')] });
  for (let i = 0; i < 5; i++)
    await decideTurn(h, voter, sessionId, 'lint', { optionId: 'opt-once' });

  await openView(h, page, '#/history');
  const suggestion = page
    .getByRole('listitem')
    .filter({ hasText: 'You approved npm run lint 5 times' });
  await expect(suggestion).toContainText(`in ${h.folder} — make it a rule?`);
  await suggestion.getByRole('button', { name: 'Make it a rule…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make it a rule' });
  await expect(dialog.getByRole('textbox', { name: 'Command' })).toHaveValue('npm run lint');
  await expect(dialog.getByRole('combobox', { name: 'Match' })).toHaveValue('exact');
  await expect(dialog.getByRole('combobox', { name: 'Agent' })).toHaveValue('claude');
  await expect(dialog.getByRole('textbox', { name: 'Project folder' })).toHaveValue(h.folder);
  await expect(matches(dialog)).toHaveCount(5);
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await expect(dialog).toBeHidden();
  await expect(suggestion).toBeHidden();
  const rules = await getJson<Rule[]>('/api/rules');
  expect(rules).toEqual([
    expect.objectContaining({
      action: 'allow',
      command: 'npm run lint',
      commandMatch: 'exact',
      agent: 'claude',
      project: h.folder,
    }),
  ]);
  expect(await getJson<unknown[]>('/api/rules/suggestions')).toEqual([]);
});

test('settings: a new rule starts as Ask matching nothing; add, edit and delete a rule', async ({
  page,
}) => {
  const { voter, sessionId } = await start({
    status: [run('git status --short', 'Check the tree')],
  });
  await decideTurn(h, voter, sessionId, 'status', { optionId: 'opt-once' });
  await openView(h, page, '#/settings');
  await expect(page.getByText('No rules yet')).toBeVisible();

  await page.getByRole('button', { name: 'Add rule…' }).click();
  const add = page.getByRole('dialog', { name: 'New rule' });
  // A new rule asks, and matches nothing until the person picks what: it cannot be saved as is.
  await expect(add.getByRole('radio', { name: 'Ask' })).toBeChecked();
  for (const target of ['Any request', 'A command', 'A path'])
    await expect(add.getByRole('radio', { name: target })).not.toBeChecked();
  await expect(add.getByRole('button', { name: 'Save rule' })).toBeDisabled();
  await expect(add).toContainText('Until then it matches nothing.');
  await add.getByRole('radio', { name: 'Allow' }).check();
  await add.getByRole('radio', { name: 'A command' }).check();
  await add.getByRole('textbox', { name: 'Command' }).fill('git status');
  await expect(add.getByRole('combobox', { name: 'Match' })).toHaveValue('prefix');
  await expect(add.getByRole('textbox', { name: 'Rule id' })).toHaveValue('allow-git-status');
  await expect(matches(add)).toHaveCount(1);
  await add.getByRole('button', { name: 'Save rule' }).click();
  await expect(add).toBeHidden();
  const row = rulesTable(page).getByRole('row').filter({ hasText: 'allow-git-status' });
  await expect(row).toContainText('Allow');
  await expect(row).toContainText('git status');
  expect(await getJson<Rule[]>('/api/rules')).toEqual([
    expect.objectContaining({
      id: 'allow-git-status',
      action: 'allow',
      toolKind: 'execute',
      command: 'git status',
      source: 'ui',
    }),
  ]);

  await row.getByRole('button', { name: 'Edit rule allow-git-status' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit rule allow-git-status' });
  await expect(editDialog.getByRole('textbox', { name: 'Rule id' })).toHaveAttribute(
    'readonly',
    '',
  );
  await editDialog.getByRole('radio', { name: 'Ask' }).check();
  await editDialog.getByRole('button', { name: 'Save rule' }).click();
  await expect(editDialog).toBeHidden();
  await expect(row).toContainText('Ask');
  expect((await getJson<Rule[]>('/api/rules'))[0]).toMatchObject({
    id: 'allow-git-status',
    action: 'ask',
  });

  await row.getByRole('button', { name: 'Delete rule allow-git-status' }).click();
  await row.getByRole('button', { name: 'Delete allow-git-status' }).click();
  await expect(page.getByText('No rules yet')).toBeVisible();
  expect(await getJson<Rule[]>('/api/rules')).toEqual([]);
});

test('an allow rule that matches any request is saved only once confirmed, as Bypass is', async ({
  page,
}) => {
  await start({});
  await openView(h, page, '#/settings');
  await page.getByRole('button', { name: 'Add rule…' }).click();
  const add = page.getByRole('dialog', { name: 'New rule' });
  await add.getByRole('radio', { name: 'Allow' }).check();
  await add.getByRole('radio', { name: 'Any request' }).check();
  await add.getByRole('button', { name: 'Save rule' }).click();

  const confirm = add.getByRole('alertdialog', {
    name: 'Allow every request from any agent in any folder?',
  });
  await expect(confirm).toContainText('as Bypass does');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // Escape closes the confirmation, not the editor; nothing is saved.
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(add).toBeVisible();
  expect(await getJson<Rule[]>('/api/rules')).toEqual([]);

  await add.getByRole('button', { name: 'Save rule' }).click();
  const go = confirm.getByRole('button', { name: 'Save this allow rule' });
  await expect(go).not.toHaveAttribute('aria-disabled');
  await go.click();
  await expect(add).toBeHidden();
  expect(await getJson<Rule[]>('/api/rules')).toEqual([
    expect.objectContaining({ id: 'allow-any', action: 'allow' }),
  ]);
  // Without the confirmation the route itself refuses it.
  const refused = await h.headless.api('/api/rules/allow-more', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rule: { id: 'allow-more', action: 'allow', toolKind: 'execute' } }),
  });
  expect(refused.status).toBe(403);
});
