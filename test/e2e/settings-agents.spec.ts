// Settings → Agents in a browser, over `npm run headless` with no agent configured: a scripted
// agent added as a custom command (waiting for the code shown where Gatehouse runs), edited, used
// for a session and removed; the form's refusal of a program that is not there; settings.json
// edited on disk shown at once, and a broken one kept out with a notice until it is fixed. The
// first screen's setup lines name this install's gatehouse, not a placeholder.
// Screenshots go to test-results/ on every run; to docs/images/ with GATEHOUSE_SCREENSHOTS=1.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { Settings } from '../../src/shared/settings';
import { scriptedAgentConfig } from '../support/agents/scripted-agent';
import { startHeadless, type Headless } from './headless';
import { agentsCard, fillAgentForm, typeTheCode } from './support/agent-form';

const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let headless: Headless;
let folder: string;
test.beforeEach(async () => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-e2e-agents-')));
  headless = await startHeadless({});
});
test.afterEach(async () => {
  await headless.stop();
  rmSync(folder, { recursive: true, force: true });
});

const onDisk = () =>
  JSON.parse(readFileSync(join(headless.home, 'settings.json'), 'utf8')) as Partial<Settings>;
/** No axe violation at all in what this spec adds (the agents card, the file notice). */
async function expectAxeCleanIn(page: Page, selector: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page }).include(selector).analyze();
    expect(
      axe.violations.map((v) => v.id),
      scheme,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function openSettings(page: Page) {
  await page.goto(await headless.pairingUrl());
  await page.locator('.topbar').waitFor();
  await page.evaluate(`location.hash = '#/settings'`);
  await expect(agentsCard(page)).toBeVisible();
}

test('a scripted agent added from the form, edited, used for a session, and removed', async ({
  page,
}) => {
  // The first screen's setup lines name this install's gatehouse.
  await page.goto(await headless.pairingUrl());
  const guide = page.getByRole('region', { name: 'Start here' });
  await expect(guide).toContainText(realpathSync(resolve('bin/gatehouse.mjs')));
  await expect(guide).not.toContainText('/path/to/gatehouse');

  await openSettings(page);
  await agentsCard(page).getByRole('button', { name: 'Add agent' }).click();
  const form = page.getByRole('form', { name: 'Add an agent' });
  const scripted = scriptedAgentConfig({
    prompts: [[{ type: 'text', text: 'Hello from the scripted agent.' }]],
  });
  // A typo is named before anything is saved (shown as a person would fill the form).
  await fillAgentForm(form, {
    id: 'gemini',
    name: 'Gemini CLI',
    command: 'gemini-cli-nope',
    args: ['--acp'],
    env: { GEMINI_API_KEY: 'your-key' },
  });
  await form.getByRole('button', { name: 'Add agent' }).click();
  await expect(form.getByRole('alert')).toContainText(
    'command not found: "gemini-cli-nope" is not a program on the PATH',
  );
  await expectAxeCleanIn(page, '#sv-agents');
  // The whole form at 1280 px; on a phone its end, with the refusal and the buttons.
  await form.screenshot({ path: join(OUT, 'settings-add-agent.png') });
  await page.setViewportSize(PHONE);
  await form.getByRole('alert').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: join(OUT, 'settings-add-agent-phone.png') });
  await page.setViewportSize(DESKTOP);

  await fillAgentForm(form, { id: 'scripted', name: 'Scripted agent', ...scripted });
  await form.getByRole('button', { name: 'Add agent' }).click();
  // From a browser, a new command waits for the person where Gatehouse runs.
  expect(onDisk().agents?.['scripted']).toBeUndefined();
  await typeTheCode(page, headless);
  const agent = agentsCard(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Scripted agent/ }) });
  await expect(agent).toContainText(scripted.command);
  expect(onDisk().agents?.['scripted']).toMatchObject({ command: scripted.command });

  // A new name applies at once; the environment's values were never shown to the page.
  await agent.getByRole('button', { name: 'Edit Scripted agent' }).click();
  const edit = page.getByRole('form', { name: 'Edit Scripted agent' });
  await expect(
    edit.getByRole('textbox', { name: /^Environment, NAME=value per line/ }),
  ).toHaveValue('SCRIPTED_AGENT_SCRIPT');
  await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('Scripted helper');
  await edit.getByRole('button', { name: 'Save agent' }).click();
  const renamed = agentsCard(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Scripted helper/ }) });
  await expect(renamed).toBeVisible();
  expect(onDisk().agents?.['scripted']).toMatchObject({
    name: 'Scripted helper',
    env: scripted.env,
  });

  // A session with it.
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const start = page.getByRole('form', { name: 'start a session' });
  await start.getByRole('combobox').selectOption({ label: 'Scripted helper' });
  await start.getByLabel('Folder').fill(folder);
  await start.getByRole('button', { name: 'Start session' }).click();
  const view = page.getByRole('region', { name: 'session' });
  await view.getByLabel('prompt').fill('hello');
  await view.getByRole('button', { name: 'Send' }).click();
  await expect(view.getByRole('log', { name: 'transcript' })).toContainText(
    'Hello from the scripted agent.',
  );

  // Removed: asked once more, then gone from the list and the file.
  await page.evaluate(`location.hash = '#/settings'`);
  await renamed.getByRole('button', { name: 'Remove Scripted helper' }).click();
  await renamed
    .getByRole('group', { name: 'Remove Scripted helper?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(renamed).toHaveCount(0);
  expect(onDisk().agents?.['scripted']).toBeUndefined();
});

test('settings.json edited on disk is shown at once; a broken one keeps the last good settings and says why', async ({
  page,
}) => {
  await openSettings(page);
  const file = join(headless.home, 'settings.json');
  writeFileSync(
    file,
    JSON.stringify({
      agents: { cat: { name: 'Cat on disk', command: '/bin/cat' } },
      policy: { permissionStrategy: 'local-only' },
      history: { durability: 'full' },
    }),
  );
  await expect(agentsCard(page).getByRole('heading', { name: /Cat on disk/ })).toBeVisible();
  // What cannot change while Gatehouse runs says so.
  await expect(
    page.getByRole('status').filter({ hasText: 'in force after Gatehouse restarts' }),
  ).toHaveText(
    "Saved, and in force after Gatehouse restarts: the mediator policy, the history's durability.",
  );

  writeFileSync(file, '{ "agents": { "cat": { "command": "/bin/cat", } }');
  const notice = page.getByRole('alert').filter({
    has: page.getByRole('heading', {
      name: 'settings.json has a problem: the last good settings stay in force',
    }),
  });
  await expect(notice).toContainText('not JSON');
  await expect(agentsCard(page).getByRole('heading', { name: /Cat on disk/ })).toBeVisible();
  await expectAxeCleanIn(page, '.sv-file-problem');
  for (const [size, name] of [
    [DESKTOP, 'settings-broken-file.png'],
    [PHONE, 'settings-broken-file-phone.png'],
  ] as const) {
    await page.setViewportSize(size);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(OUT, name) });
  }

  writeFileSync(file, JSON.stringify({ agents: {} }));
  await expect(notice).toHaveCount(0);
  await expect(agentsCard(page).getByText('No agents yet: add one.')).toBeVisible();
});
