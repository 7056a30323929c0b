// The settings window over the real settings file: the approvals timeout (saved, in force, and an
// invalid value refused with the core's words), desktop and policy options (restart flagged), an
// agent's mode and Bypass; and the sessions view's permission mode switch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import type { AgentInfo, SessionInfo } from '../../src/shared/domain';
import type { Settings } from '../../src/shared/settings';
import { run, startDialogHarness, type DialogHarness } from './support/dialog-harness';
import { openSession, openView, prompt } from './support/history-harness';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

type Loaded = { settings: Settings; path: string; restartNeeded: string[] };
const getJson = async <T>(path: string): Promise<T> =>
  (await (await h.headless.api(path)).json()) as T;
const onDisk = () =>
  JSON.parse(readFileSync(join(h.headless.home, 'settings.json'), 'utf8')) as Settings;
const general = (page: Page) => page.getByRole('form', { name: 'General settings' });

async function start() {
  h = await startDialogHarness([
    {
      id: 'claude',
      name: 'Claude Code',
      script: { onPrompt: { build: [run('npm run build', 'Build')] } },
    },
  ]);
}

test('the approvals timeout is saved and in force; an invalid value shows the core’s error and changes nothing', async ({
  page,
}) => {
  await start();
  await openView(h, page, '#/settings');
  await expect(page.getByText(join(h.headless.home, 'settings.json'))).toBeVisible();
  const timeout = general(page).getByRole('spinbutton', { name: 'Timeout (seconds)' });
  await expect(timeout).toHaveValue('300');

  await timeout.fill('120');
  await general(page).getByRole('button', { name: 'Save settings' }).click();
  await expect(general(page).getByRole('status')).toHaveText('Saved.');
  expect((await getJson<Loaded>('/api/settings')).settings.approvals.timeoutSeconds).toBe(120);
  expect(onDisk().approvals.timeoutSeconds).toBe(120);
  // In force for the next request.
  const sessionId = await openSession(h, 'claude');
  const turn = prompt(h, sessionId, 'build');
  const [pending] = await h.waitForPending(1);
  expect(Math.round((pending!.expiresAt - pending!.issuedAt) / 1000)).toBe(120);

  await timeout.fill('0');
  await general(page).getByRole('button', { name: 'Save settings' }).click();
  const alert = general(page).getByRole('alert');
  await expect(alert).toContainText('timeoutSeconds');
  // Verbatim: the same words the core gives any client for that value.
  const settings = (await getJson<Loaded>('/api/settings')).settings;
  const refused = await h.headless.api('/api/settings', {
    method: 'PUT',
    body: JSON.stringify({ settings: { ...settings, approvals: { timeoutSeconds: 0 } } }),
  });
  expect(refused.status).toBe(400);
  const { error } = (await refused.json()) as { error: { message: string } };
  await expect(alert).toHaveText(error.message);
  expect((await getJson<Loaded>('/api/settings')).settings.approvals.timeoutSeconds).toBe(120);
  expect(onDisk().approvals.timeoutSeconds).toBe(120);

  await h.headless.api(`/api/sessions/${sessionId}/cancel`, { method: 'POST', body: '{}' });
  await turn;
});

test('desktop options save at once; a policy change is flagged “applies after restart”', async ({
  page,
}) => {
  await start();
  await openView(h, page, '#/settings');
  const form = general(page);
  await form.getByRole('checkbox', { name: /Raise the approval dialog on a new request/ }).check();
  await form.getByRole('combobox', { name: 'Strategy' }).selectOption('consensus');
  await form.getByRole('spinbutton', { name: 'Consensus quorum' }).fill('2');
  await expect(form.getByText('Saved — applies after restart')).toBeHidden();
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  await expect(form.getByText('Saved — applies after restart')).toBeVisible();
  const loaded = await getJson<Loaded>('/api/settings');
  expect(loaded.settings.desktop.raiseOnRequest).toBe(true);
  expect(loaded.restartNeeded).toEqual(['policy']);
  expect(onDisk().policy).toEqual({ permissionStrategy: 'consensus', consensusQuorum: 2 });
  // The policy in force stays until the restart.
  expect((await getJson<{ policy: string }>('/api/health')).policy).toBe('first-responder');

  // A later save (an agent's mode) keeps the policy saved for the restart.
  const agent = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Claude Code/ }) });
  await agent
    .getByRole('combobox', { name: 'Mode of new sessions' })
    .selectOption({ label: 'Plan' });
  await expect(agent.getByRole('status')).toHaveText('New sessions of claude start in Plan.');
  expect(onDisk().policy).toEqual({ permissionStrategy: 'consensus', consensusQuorum: 2 });
  expect(onDisk().desktop.raiseOnRequest).toBe(true);
});

test('an agent’s mode and its Bypass switch', async ({ page }) => {
  await start();
  await openView(h, page, '#/settings');
  const agent = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Claude Code/ }) });
  await agent
    .getByRole('combobox', { name: 'Mode of new sessions' })
    .selectOption({ label: 'Accept edits' });
  await expect(agent.getByRole('status')).toHaveText(
    'New sessions of claude start in Accept edits.',
  );
  expect((await getJson<Loaded>('/api/settings')).settings.agents['claude']!.mode).toBe(
    'acceptEdits',
  );
  expect((await getJson<AgentInfo[]>('/api/agents'))[0]!.mode).toBe('acceptEdits');
  expect(onDisk().agents['claude']!.mode).toBe('acceptEdits');

  const bypass = agent.getByRole('switch', { name: 'Bypass permissions for Claude Code' });
  await expect(bypass).toHaveAttribute('aria-checked', 'false');
  await expect(bypass).toHaveAccessibleDescription(
    /allowed without asking, except what a deny rule refuses/,
  );
  await bypass.click();
  await expect(bypass).toHaveAttribute('aria-checked', 'true');
  expect((await getJson<AgentInfo[]>('/api/agents'))[0]!.mode).toBe('bypassPermissions');
  expect(onDisk().agents['claude']!.bypassPermissions).toBe(true);
  await bypass.click();
  await expect(bypass).toHaveAttribute('aria-checked', 'false');
  expect((await getJson<AgentInfo[]>('/api/agents'))[0]!.mode).toBe('acceptEdits');
});

test('the session’s permission mode switch calls setSessionMode and follows session_state', async ({
  page,
}) => {
  await start();
  await openView(h, page, '#/sessions');
  await page.getByLabel('Folder').fill(h.folder);
  await page.getByRole('button', { name: 'Start session' }).click();
  const mode = page.getByRole('combobox', { name: 'Permission mode' });
  await expect(mode).toHaveValue('default');
  await mode.selectOption({ label: 'Plan' });
  await expect
    .poll(async () => (await getJson<SessionInfo[]>('/api/sessions'))[0]?.mode)
    .toBe('plan');
  await expect(mode).toHaveValue('plan');
  await expect(
    page.getByText('Read only: the agent plans, nothing is changed. For this session only.'),
  ).toBeVisible();

  // Switched elsewhere (another window, the API): the switch shows what is true.
  const [session] = await getJson<SessionInfo[]>('/api/sessions');
  await h.headless.api(`/api/sessions/${session!.sessionId}/mode`, {
    method: 'POST',
    body: JSON.stringify({ mode: 'acceptEdits' }),
  });
  await expect(mode).toHaveValue('acceptEdits');
});

test('an agent’s new command from the browser waits for the code shown where Gatehouse runs', async ({
  page,
}) => {
  await start();
  await openView(h, page, '#/settings');
  const agent = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Claude Code/ }) });
  const before = onDisk().agents['claude']!.command;
  await agent.getByRole('button', { name: 'Edit Claude Code' }).click();
  const form = agent.getByRole('form', { name: 'Edit Claude Code' });
  await form.getByRole('textbox', { name: /^Command/ }).fill('/bin/sh');
  await form.getByRole('textbox', { name: 'Arguments, one per line' }).fill('-c\nid');
  await form.getByRole('button', { name: 'Save agent' }).click();

  const waiting = page.getByRole('region', {
    name: 'Waiting for confirmation: enter the code shown where Gatehouse runs',
  });
  await expect(waiting).toBeVisible();
  await expect(waiting).toContainText('The change of claude is not applied yet.');
  expect(onDisk().agents['claude']!.command).toBe(before);
  expect((await getJson<Loaded>('/api/settings')).settings.agents['claude']!.command).toBe(before);

  await waiting.getByRole('textbox', { name: 'Code' }).fill('12-345');
  await waiting.getByRole('button', { name: 'Confirm' }).click();
  await expect(waiting.getByRole('alert')).toHaveText(/wrong code; 4 tries left/);
  expect(onDisk().agents['claude']!.command).toBe(before);
});

test('Support: the bundle is saved as a zip the browser downloads', async ({ page }) => {
  await start();
  await openView(h, page, '#/settings');
  const support = page.getByRole('region', { name: 'Support' });
  const downloaded = page.waitForEvent('download');
  await support.getByRole('button', { name: 'Save support bundle' }).click();
  const file = await downloaded;
  expect(file.suggestedFilename()).toMatch(/^gatehouse-support-.*\.zip$/);
  const zip = unzipSync(readFileSync((await file.path())!));
  expect(strFromU8(zip['audit-verify.txt']!)).toMatch(/^audit: OK/);
  await expect(support.getByRole('status')).toHaveText(`Saved ${file.suggestedFilename()}.`);
});
