// The start form and the session's options in Chromium: the folder checked inline before anything
// starts, the folders used before offered again, the agent's options set from their selects, a
// value where the agent would stop asking not offered.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { scriptedAgentConfig } from '../support/agents/scripted-agent';
import { OPTIONS_AGENT } from '../support/session-options';
import { startHeadless, type Headless } from './headless';
import { expectAxeClean } from './support/axe';

let headless: Headless;
let folder: string;

test.beforeEach(async () => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-e2e-options-')));
  headless = await startHeadless({
    agents: {
      s: { name: 'Scripted', ...scriptedAgentConfig(OPTIONS_AGENT) },
    },
  });
});
test.afterEach(async () => {
  await headless.stop();
  rmSync(folder, { recursive: true, force: true });
});

test('the folder is checked before start and offered again; the agent’s options are set here', async ({
  page,
}) => {
  const project = join(folder, 'project');
  mkdirSync(project);
  writeFileSync(join(folder, 'notes.txt'), 'x');
  await page.goto(await headless.pairingUrl());
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const form = page.getByRole('form', { name: 'start a session' });
  const field = form.getByLabel('Folder');
  // No native picker in a browser.
  await expect(form.getByRole('button', { name: 'Choose…' })).toHaveCount(0);

  await field.fill('relative/path');
  await field.blur();
  await expect(form.getByRole('alert')).toContainText('must be an absolute path');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill(join(folder, 'notes.txt'));
  await form.getByRole('button', { name: 'Start session' }).click();
  await expect(form.getByRole('alert')).toContainText('not a folder');
  expect(await (await headless.api('/api/sessions')).json()).toEqual([]);

  await field.fill(project);
  await expect(field).not.toHaveAttribute('aria-invalid');
  await form.getByRole('button', { name: 'Start session' }).click();
  const view = page.getByRole('region', { name: 'session' });
  await expect(view.getByText('Idle')).toBeVisible();

  const model = view.getByLabel('Model');
  await expect(model).toHaveValue('fast');
  await model.selectOption('smart');
  await expect(model).toHaveValue('smart');
  const [listed] = (await (await headless.api('/api/sessions')).json()) as {
    configOptions: { id: string; currentValue: string }[];
  }[];
  expect(listed?.configOptions.find((o) => o.id === 'model')?.currentValue).toBe('smart');
  const yolo = view.getByLabel('Approvals').locator('option[value="yolo"]');
  await expect(yolo).toBeDisabled();
  await expect(yolo).toContainText('does not ask');

  await expectAxeClean(page);

  // Back to the form: the folder just used is offered.
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  const home = page.getByRole('form', { name: 'start a session' });
  const recent = home.getByRole('group', { name: 'recently used' });
  await recent.getByRole('button', { name: project }).click();
  await expect(home.getByLabel('Folder')).toHaveValue(project);
  await expect(home.getByRole('alert')).toHaveCount(0);
  await expectAxeClean(page);
});
