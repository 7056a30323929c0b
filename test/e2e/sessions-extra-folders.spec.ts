// The start form's extra folders: folded away until asked for, sent with the start, shown among
// the session's writable folders once it runs; a folder the core refuses, or an agent that does not
// take more folders, is said where the session was started.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { scriptedAgentConfig } from '../support/agents/scripted-agent';
import { startHeadless, type Headless } from './headless';

let headless: Headless;
let root: string;
let project: string;
let lib: string;

test.beforeEach(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-e2e-extra-')));
  project = join(root, 'project');
  lib = join(root, 'shared-lib');
  mkdirSync(project);
  mkdirSync(lib);
  const takes = scriptedAgentConfig({
    additionalDirectories: true,
    prompts: [[{ type: 'direct', action: 'write', path: join(lib, 'notes.txt') }]],
  });
  headless = await startHeadless({
    agents: {
      takes: { name: 'Roots agent', ...takes },
      plain: { name: 'Single-root agent', ...scriptedAgentConfig({ prompts: [] }) },
    },
  });
});
test.afterEach(async () => {
  await headless.stop();
  rmSync(root, { recursive: true, force: true });
});

async function start(page: Page, agent: string, folders: string) {
  const form = page.getByRole('form', { name: 'start a session' });
  await form.getByRole('combobox').selectOption({ label: agent });
  await form.getByLabel('Folder').fill(project);
  const field = form.getByLabel(/Also work in/);
  // Folded away until asked for.
  if (!(await field.isVisible())) await form.locator('summary').click();
  await field.fill(folders);
  await form.getByRole('button', { name: 'Start session' }).click();
  return form;
}

test('a session started with another folder works in it; refusals are said at the form', async ({
  page,
}) => {
  await page.goto(await headless.pairingUrl());
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();

  let form = await start(page, 'Roots agent', `${lib}\n/usr`);
  await expect(form.getByRole('alert')).toContainText(
    'additional folder /usr: it is in the system folder /usr',
  );
  await expect(form.getByText('More folders (2)')).toBeVisible();

  form = await start(page, 'Single-root agent', lib);
  await expect(form.getByRole('alert')).toContainText('it does not take additional folders');

  await start(page, 'Roots agent', `\n  ${lib}  \n`);
  const view = page.getByRole('region', { name: 'session' });
  await expect(view.getByText('Idle')).toBeVisible();
  await expect(view).toContainText(lib);
  await view.getByLabel('prompt').fill('go');
  await view.getByRole('button', { name: 'Send' }).click();
  await expect(view.getByRole('log', { name: 'transcript' })).toContainText(
    `direct write ${join(lib, 'notes.txt')}: ok`,
  );
  expect(existsSync(join(lib, 'notes.txt'))).toBe(true);
});
