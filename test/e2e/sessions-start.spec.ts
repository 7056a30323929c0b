// An agent's start-up errors are shown where the session is started: a command that does not
// exist, an agent that exits, and an agent that asks to be signed in (its methods offered).
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { scriptedAgentConfig } from '../support/agents/scripted-agent';
import { startHeadless, type Headless } from './headless';

let headless: Headless;
let folder: string;

test.beforeEach(async () => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-e2e-start-')));
  const signIn = scriptedAgentConfig({
    requireAuth: {
      methods: [
        { id: 'oauth', name: 'Sign in with Google', description: 'Opens a browser window' },
        { id: 'api-key', name: 'Use an API key' },
      ],
      accept: ['api-key'],
    },
    prompts: [[{ type: 'text', text: 'Signed in.' }]],
  });
  headless = await startHeadless({
    agents: {
      missing: { name: 'Missing agent', command: join(folder, 'no-such-agent') },
      crashing: {
        name: 'Crashing agent',
        command: process.execPath,
        args: ['-e', 'console.error("no model configured"); process.exit(3)'],
      },
      signin: { name: 'Sign-in agent', ...signIn },
    },
  });
});
test.afterEach(async () => {
  await headless.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function start(page: Page, agent: string) {
  const form = page.getByRole('form', { name: 'start a session' });
  await form.getByRole('combobox').selectOption({ label: agent });
  await form.getByLabel('Folder').fill(folder);
  await form.getByRole('button', { name: 'Start session' }).click();
}

test('start-up errors in the view: no such command, an exit code, a sign-in offered', async ({
  page,
}) => {
  await page.goto(await headless.pairingUrl());
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const form = page.getByRole('form', { name: 'start a session' });

  await start(page, 'Missing agent');
  await expect(form.getByRole('alert')).toContainText('no-such-agent');

  await start(page, 'Crashing agent');
  await expect(form.getByRole('alert')).toContainText('code 3');
  await expect(form.getByRole('alert')).toContainText('no model configured');

  await start(page, 'Sign-in agent');
  const view = page.getByRole('region', { name: 'session' });
  const signIn = view.getByRole('region', { name: 'signin asks you to sign in' });
  await expect(signIn).toContainText('Opens a browser window');
  await signIn.getByRole('button', { name: 'Sign in with Google' }).click();
  await expect(view.getByRole('alert')).toContainText('Sign-in refused');
  await signIn.getByRole('button', { name: 'Use an API key' }).click();
  await expect(view.getByText('Idle')).toBeVisible();
  await view.getByLabel('prompt').fill('hello');
  await view.getByRole('button', { name: 'Send' }).click();
  await expect(view.getByRole('log', { name: 'transcript' })).toContainText('Signed in.');
});

test('failed starts of the same agent in the same folder list once, the others folded under it', async ({
  page,
}) => {
  await page.goto(await headless.pairingUrl());
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const form = page.getByRole('form', { name: 'start a session' });
  for (let i = 0; i < 3; i++) {
    await start(page, 'Crashing agent');
    await expect(form.getByRole('alert')).toContainText('code 3');
  }
  const list = page.getByRole('navigation', { name: 'sessions' });
  await expect(list.locator('.session-row')).toHaveCount(1);
  const toggle = list.getByRole('button', {
    name: 'Show 2 earlier sessions that ended the same way',
  });
  await toggle.click();
  await expect(list.locator('.session-row')).toHaveCount(3);
  // Each row names its session, so rows that read alike are still told apart.
  const ids = await list.locator('.session-row-meta [title]').allInnerTexts();
  expect(new Set(ids).size).toBe(3);
});
