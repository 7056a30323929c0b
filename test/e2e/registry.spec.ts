// The settings' "Agents from the ACP registry": the snapshot's agents listed (name, version,
// description, kind), and Add, which from the browser waits for the code printed where Gatehouse
// runs, then adds `{ "registry": id }` to settings.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { AgentInfo } from '../../src/shared/domain';
import type { Settings } from '../../src/shared/settings';
import { registryFixture } from '../support/registry-fixture';
import { startDialogHarness, type DialogHarness } from './support/dialog-harness';
import { openView } from './support/history-harness';

let h: DialogHarness;
test.afterEach(async () => h?.stop());

const onDisk = () =>
  JSON.parse(readFileSync(join(h.headless.home, 'settings.json'), 'utf8')) as Settings;

test('lists the snapshot’s agents; Add adds one once the code shown where Gatehouse runs is given', async ({
  page,
}) => {
  h = await startDialogHarness([{ id: 'claude', name: 'Claude Code', script: { prompts: [] } }]);
  writeFileSync(join(h.headless.home, 'registry.json'), JSON.stringify(registryFixture()));
  await openView(h, page, '#/settings');

  const section = page.getByRole('region', { name: 'Agents from the ACP registry' });
  const gemini = section
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Gemini CLI/ }) });
  await expect(gemini).toContainText('0.27.3');
  await expect(gemini).toContainText("Google's official CLI for Gemini");
  await expect(gemini).toContainText('npx');
  await expect(section.getByRole('listitem').filter({ hasText: 'Factory Droid' })).toContainText(
    'binary',
  );
  await expect(section.getByRole('listitem').filter({ hasText: 'Mistral Vibe' })).toContainText(
    'uvx',
  );

  await gemini.getByRole('button', { name: 'Add Gemini CLI' }).click();
  const waiting = page.getByRole('region', {
    name: 'Waiting for confirmation: enter the code shown where Gatehouse runs',
  });
  await expect(waiting).toBeVisible();
  await expect(gemini.getByRole('alert')).toHaveText(/Not applied yet/);
  expect(onDisk().agents['gemini']).toBeUndefined();
  // What the person confirms names the registry agent and the command it runs.
  await expect
    .poll(() => h.headless.output())
    .toMatch(
      /new agent "gemini" command to "npx" "--yes" "@google\/gemini-cli@0.27.3" "--experimental-acp" \(ACP Registry agent "gemini"\)/,
    );
  const code = /code (\d{3}-\d{3})/.exec(h.headless.output())![1]!;

  await waiting.getByRole('textbox', { name: 'Code' }).fill(code);
  await waiting.getByRole('button', { name: 'Confirm' }).click();
  await expect(waiting).toBeHidden();
  await expect(gemini.getByRole('button', { name: 'Add Gemini CLI' })).toHaveText('Added');
  expect(onDisk().agents['gemini']).toMatchObject({ registry: 'gemini' });
  const agents = (await (await h.headless.api('/api/agents')).json()) as AgentInfo[];
  expect(agents.find((a) => a.id === 'gemini')).toMatchObject({
    name: 'Gemini CLI',
    command: 'npx',
    args: ['--yes', '@google/gemini-cli@0.27.3', '--experimental-acp'],
  });
});
