// The options: the agent's own words grouped by kind, the scope and expiry of an "always" grant,
// seed 001's Bypass (explained, confirmed), and consensus progress.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import type { PermissionOption } from '../../src/shared/domain';
import { approvalsView, oneAgent, run, startDialogHarness } from './support/dialog-harness';
import type { DialogHarness } from './support/dialog-harness';
import { queue } from './support/dialog-view';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

const OPTIONS: PermissionOption[] = [
  { optionId: 'never', name: 'No, and tell Claude what to do differently', kind: 'reject_always' },
  { optionId: 'always', name: "Yes, and don't ask again this session", kind: 'allow_always' },
  { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
  { optionId: 'no', name: 'No', kind: 'reject_once' },
];

const armed = (view: Locator) =>
  expect(view.locator('[data-default-option]')).not.toHaveAttribute('aria-disabled', 'true');

test('one button per option in the agent’s words, grouped by kind, numbered', async ({ page }) => {
  h = await startDialogHarness(oneAgent([run('npm test', 'Run tests', OPTIONS)]));
  const { view } = await h.showTurn(page, 1);
  await expect(view.getByRole('group', { name: 'Allow' }).getByRole('button')).toHaveText([
    /^Yes\s*1$/,
    // "Always" in Gatehouse's words: the scope and expiry chosen beside it.
    /^Allow for this session\s*2$/,
  ]);
  await expect(view.getByRole('group', { name: 'Reject' }).getByRole('button')).toHaveText([
    /^No\s*3$/,
    /^No, and tell Claude what to do differently\s*4$/,
  ]);
  await expect(view.getByRole('button', { name: 'Yes', exact: true })).toHaveAttribute(
    'aria-keyshortcuts',
    '1',
  );
  await armed(view);
  await page.keyboard.press('4');
  await expect.poll(() => h.replies('claude').map((r) => r.optionId)).toEqual(['never']);
});

test('allow always sends the chosen grant: scope and expiry (default: this session, no expiry)', async ({
  page,
}) => {
  h = await startDialogHarness(
    // Three commands: a grant from the first decides at once any waiting request it covers.
    oneAgent([
      run('npm test', 'First', OPTIONS),
      run('npm run lint', 'Second', OPTIONS),
      run('npm run build', 'Third', OPTIONS),
    ]),
  );
  const { view } = await h.showTurn(page, 3);
  const grantOfNextVote = async (act: () => Promise<void>) => {
    const request = page.waitForRequest((r) => r.url().endsWith('/vote') && r.method() === 'POST');
    await act();
    return (await request).postDataJSON() as { optionId: string; grant?: unknown };
  };

  await queue(view).getByRole('button', { name: /First/ }).click();
  const always = view.locator('button[data-kind="allow_always"] .gh-option-label');
  await expect(always).toHaveText('Allow for this session');
  await view
    .getByRole('combobox', { name: 'Always applies to' })
    .selectOption({ label: 'this project folder' });
  // The button follows the scope and the expiry chosen beside it.
  await expect(always).toHaveText('Allow in this project, until revoked');
  await view.getByRole('combobox', { name: 'for' }).selectOption({ label: '30 minutes' });
  await armed(view);
  expect(
    await grantOfNextVote(() =>
      view.getByRole('button', { name: 'Allow in this project for 30 min' }).click(),
    ),
  ).toEqual({ optionId: 'always', grant: { scope: 'project', expiresInMinutes: 30 } });

  await queue(view)
    .getByRole('button', { name: /Second/ })
    .click();
  // A new request starts from the narrowest grant again.
  await expect(view.getByRole('combobox', { name: 'Always applies to' })).toHaveValue('session');
  await armed(view);
  expect(await grantOfNextVote(() => page.keyboard.press('2'))).toEqual({
    optionId: 'always',
    grant: { scope: 'session' },
  });

  await queue(view).getByRole('button', { name: /Third/ }).click();
  await view
    .getByRole('combobox', { name: 'Always applies to' })
    .selectOption({ label: 'Claude Code everywhere' });
  await view.getByRole('combobox', { name: 'for' }).selectOption({ label: 'until tomorrow' });
  await armed(view);
  const third = await grantOfNextVote(() =>
    view.getByRole('button', { name: 'Allow for Claude Code everywhere until tomorrow' }).click(),
  );
  expect(third).toMatchObject({ optionId: 'always', grant: { scope: 'agent' } });
  const minutes = (third.grant as { expiresInMinutes: number }).expiresInMinutes;
  expect(minutes).toBeGreaterThanOrEqual(1);
  expect(minutes).toBeLessThanOrEqual(24 * 60);
  // Each request is allowed (the core keeps the grant itself and may answer the agent allow_once).
  await expect.poll(() => h.replies('claude').length).toBe(3);
  for (const reply of h.replies('claude')) expect(['always', 'yes']).toContain(reply.optionId);
});

test('Bypass: explained, confirmed, then the agent is trusted and this request allowed once', async ({
  page,
}) => {
  h = await startDialogHarness(oneAgent([run('npm test', 'Run tests', OPTIONS)]));
  const { view } = await h.showTurn(page, 1);
  await view.getByRole('button', { name: 'Bypass for this agent…' }).click();
  const confirm = view.getByRole('alertdialog', { name: 'Bypass permissions for Claude Code?' });
  await expect(confirm).toContainText('every request from Claude Code is allowed without asking');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect(h.replies('claude')).toEqual([]);

  await page.keyboard.press('b');
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await page.keyboard.press('b');
  const go = confirm.getByRole('button', { name: 'Bypass Claude Code' });
  await expect(go).not.toHaveAttribute('aria-disabled');
  await go.click();

  await expect.poll(() => h.replies('claude').map((r) => r.optionId)).toEqual(['yes']);
  const agents = (await (await h.headless.api('/api/agents')).json()) as {
    id: string;
    mode: string;
  }[];
  expect(agents.find((a) => a.id === 'claude')?.mode).toBe('bypassPermissions');
  const settings = JSON.parse(readFileSync(join(h.headless.home, 'settings.json'), 'utf8')) as {
    agents: Record<string, { bypassPermissions?: boolean }>;
  };
  expect(settings.agents['claude']?.bypassPermissions).toBe(true);
  await expect(page.getByRole('heading', { name: 'Nothing is waiting for you' })).toBeVisible();
  await expect(page.getByText('Claude Code is trusted now')).toBeVisible();
});

test('consensus: votes received and needed per option, then decided by the second voter', async ({
  page,
}) => {
  h = await startDialogHarness(oneAgent([run('npm publish', 'Publish', OPTIONS)]), {
    policy: { permissionStrategy: 'consensus' },
  });
  // The second person: the harness's own paired client (an unpaired API client would not count).
  const reviewer = h.headless.identity;
  await h.open(page);
  await expect(page.getByRole('heading', { name: 'Nothing is waiting for you' })).toBeVisible();
  await h.startTurn('claude');
  const [approval] = await h.waitForPending(1);
  const view = approvalsView(page);
  const panel = view.getByRole('region', { name: /^Consensus/ });
  await expect(panel).toContainText('0 of 2 voters voted');
  await expect(panel).toContainText('2 votes decide · 2 more needed');

  await armed(view);
  await view
    .getByRole('button', { name: /^Yes\b/ })
    .first()
    .click();
  await expect(view.getByRole('status').filter({ hasText: 'Vote recorded' })).toBeVisible();
  await expect(panel).toContainText('1 of 2 voters voted');
  await expect(panel.getByRole('meter', { name: 'Yes: 1 of 2 votes' })).toBeVisible();
  await expect(panel).toContainText('You voted “Yes”.');
  await expect(
    view.getByRole('group', { name: 'Allow' }).getByRole('button').first(),
  ).toHaveAttribute('aria-disabled', 'true');

  await h.headless.api(`/api/approvals/${approval!.requestId}/vote`, {
    method: 'POST',
    headers: {
      'x-gatehouse-client-id': reviewer.clientId,
      'x-gatehouse-client-token': reviewer.clientToken,
    },
    body: JSON.stringify({ optionId: 'yes' }),
  });
  await expect.poll(() => h.replies('claude').map((r) => r.optionId)).toEqual(['yes']);
  await expect(page.getByRole('heading', { name: 'Nothing is waiting for you' })).toBeVisible();
  const history = await h.history();
  expect(history.items[0]?.decider.type).toBe('consensus');
});
