// The first screen with no agent offers the known agents installed on the PATH Gatehouse runs with
// and those of the ACP registry snapshot; Add from a browser waits for the code shown where
// Gatehouse runs, then the first screen starts sessions with it.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Settings } from '../../src/shared/settings';
import { registryFixture } from '../support/registry-fixture';
import { startHeadless, type Headless } from './headless';

let headless: Headless | undefined;
let bin: string | undefined;
test.afterEach(async () => {
  await headless?.stop();
  if (bin) rmSync(bin, { recursive: true, force: true });
  headless = bin = undefined;
});

test('agents found on PATH and in the registry snapshot are offered; Add waits for the local code', async ({
  page,
}) => {
  bin = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-bin-'));
  for (const name of ['gemini', 'not-an-agent']) {
    writeFileSync(join(bin, name), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, name), 0o755);
  }
  headless = await startHeadless(
    {},
    { path: `${bin}:/usr/bin:/bin`, files: { 'registry.json': JSON.stringify(registryFixture()) } },
  );
  await page.goto(await headless.pairingUrl());
  const offers = page.getByRole('list', { name: 'Agents to add' });
  const gemini = offers.getByRole('listitem').filter({ hasText: 'Gemini CLI' });
  // The program found wins over the registry's entry of the same id; nothing unknown is offered.
  await expect(gemini).toHaveCount(1);
  await expect(gemini).toContainText(`${join(bin, 'gemini')} --acp`);
  await expect(offers.getByRole('listitem').filter({ hasText: 'Mistral Vibe' })).toContainText(
    'ACP registry',
  );
  await expect(offers).not.toContainText('not-an-agent');

  await gemini.getByRole('button', { name: 'Add Gemini CLI' }).click();
  const waiting = page.getByRole('region', {
    name: 'Waiting for confirmation: enter the code shown where Gatehouse runs',
  });
  await expect(waiting).toBeVisible();
  const onDisk = () =>
    JSON.parse(readFileSync(join(headless!.home, 'settings.json'), 'utf8')) as Partial<Settings>;
  expect(onDisk().agents?.['gemini']).toBeUndefined();
  await expect.poll(() => headless!.output()).toMatch(/code \d{3}-\d{3}/);
  const code = /code (\d{3}-\d{3})/.exec(headless.output())![1]!;
  await waiting.getByRole('textbox', { name: 'Code' }).fill(code);
  await waiting.getByRole('button', { name: 'Confirm' }).click();

  await expect(page.getByRole('region', { name: 'Start here' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Agent' })).toContainText('Gemini CLI');
  expect(onDisk().agents?.['gemini']).toMatchObject({
    command: join(bin, 'gemini'),
    args: ['--acp'],
  });
});
