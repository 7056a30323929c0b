// An agent's first start, from the sessions view: one the sandbox stops as it starts says which path
// or host, with "Allow for this agent" confirmed by the code printed where Gatehouse runs; one that
// asks for an API key gets a password field, and the next start has the key. Screenshots of both go
// to test-results/ on every run, and to docs/images/ with GATEHOUSE_SCREENSHOTS=1.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { scriptedAgentConfig } from '../support/agents/scripted-agent';
import { startHeadless, type Headless } from './headless';

const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';
const KEY = 'AIzaE2eKey-9c4b1f7e0d2a';

let headless: Headless | undefined;
const made: string[] = [];
test.use({ viewport: { width: 1280, height: 800 } });
test.afterEach(async () => {
  await headless?.stop();
  headless = undefined;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(prefix: string, under = tmpdir()): string {
  const dir = realpathSync(mkdtempSync(join(under, prefix)));
  made.push(dir);
  return dir;
}

/** The same view on a phone's width, looked at and kept with the test's results only. */
async function narrow(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join('test-results/screenshots', name), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function openSessions(page: Page, h: Headless): Promise<void> {
  await page.goto(await h.pairingUrl());
  await page.locator('.topbar').waitFor();
  await page.evaluate(`location.hash = '#/sessions'`);
}

test('an agent the sandbox stops as it starts: the path is named, and allowed for it with the local code', async ({
  page,
}) => {
  // Outside the temp folder, which a sandboxed agent may write.
  const state = folder('gatehouse-e2e-agent-state-', '/var/tmp');
  const work = folder('gatehouse-e2e-work-');
  const file = join(state, 'state.json');
  headless = await startHeadless({
    agents: {
      stateful: {
        name: 'Stateful agent',
        command: '/bin/sh',
        args: ['-c', `echo '{}' > ${file} || exit 3`],
      },
    },
  });
  await openSessions(page, headless);
  const view = page.getByRole('region', { name: 'session' });
  await view.getByLabel('Folder').fill(work);
  await view.getByRole('button', { name: 'Start session' }).click();
  await expect(view.getByRole('alert').first()).toContainText('did not start');
  const blocked = view.getByRole('region', { name: 'The sandbox stopped stateful as it started' });
  await expect(blocked.getByRole('listitem')).toHaveText(
    `Blocked by the sandbox: write ${file}Allow for this agent`,
  );
  await page.mouse.move(1, 1);
  await page.screenshot({ path: join(OUT, 'session-blocked-at-start.png') });
  await narrow(page, 'session-blocked-at-start-390.png');

  await blocked.getByRole('button', { name: 'Allow for this agent' }).click();
  await expect(blocked.getByRole('status')).toHaveText(
    `Waiting for confirmation where Gatehouse runs: ${state}`,
  );
  await expect.poll(() => headless!.output()).toMatch(/code \d{3}-\d{3}/);
  const code = /code (\d{3}-\d{3})/.exec(headless.output())![1]!;
  await blocked.getByRole('textbox', { name: 'Code' }).fill(code);
  await blocked.getByRole('button', { name: 'Confirm' }).click();
  await expect(blocked.getByRole('status')).toHaveText(
    `Allowed for this agent from its next session: ${state}`,
  );

  // The next start writes its state and runs.
  await view.getByRole('button', { name: 'Start session' }).click();
  await expect
    .poll(() => (existsSync(file) ? readFileSync(file, 'utf8').trim() : null), { timeout: 10_000 })
    .toBe('{}');
});

test('an agent that asks for an API key: the key is entered once, shown as set, and the next start has it', async ({
  page,
}) => {
  const home = folder('gatehouse-e2e-agent-home-');
  const work = folder('gatehouse-e2e-work-');
  const agent = scriptedAgentConfig({
    requireAuth: {
      methods: [
        { id: 'oauth-personal', name: 'Log in with Google' },
        { id: 'gemini-api-key', name: 'Gemini API key' },
      ],
      accept: [],
      unlessEnv: 'GEMINI_API_KEY',
    },
  });
  headless = await startHeadless({
    agents: { gemini: { ...agent, name: 'Gemini CLI', env: { ...agent.env, HOME: home } } },
  });
  await openSessions(page, headless);
  const view = page.getByRole('region', { name: 'session' });
  await view.getByLabel('Folder').fill(work);
  await view.getByRole('button', { name: 'Start session' }).click();
  const signIn = view.getByRole('region', { name: 'gemini asks you to sign in' });
  const form = signIn.getByRole('form', { name: 'API key' });
  const field = form.getByLabel('GEMINI_API_KEY');
  await expect(field).toHaveAttribute('type', 'password');
  await field.fill(KEY);
  await page.mouse.move(1, 1);
  await page.screenshot({ path: join(OUT, 'sign-in-api-key.png') });
  await narrow(page, 'sign-in-api-key-390.png');

  await form.getByRole('button', { name: 'Save key' }).click();
  await expect(form.getByRole('status')).toContainText(
    'GEMINI_API_KEY is set for gemini; it is used from the agent’s next start.',
  );
  await expect(field).toHaveValue('');
  expect(await page.content()).not.toContain(KEY);
  const settings = await (await headless.api('/api/settings')).text();
  expect(settings).not.toContain(KEY);

  await form.getByRole('button', { name: 'Start again with the key' }).click();
  // The new session is open: no sign-in asked, the prompt box is there.
  await expect(view.getByLabel('prompt')).toBeVisible();
  await expect(view.getByRole('region', { name: 'gemini asks you to sign in' })).toHaveCount(0);
  const saved = JSON.parse(readFileSync(join(headless.home, 'settings.json'), 'utf8')) as {
    agents: { gemini: { env: Record<string, string> } };
  };
  expect(saved.agents.gemini.env['GEMINI_API_KEY']).toBe(KEY);
});
