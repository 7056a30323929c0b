// A session that ended with Gatehouse, in Chromium: after the core restarts on the same data folder
// it is listed as resumable with its transcript, and its Resume button takes it up again — the old
// turn shown once, a new turn answered, and what runs differently today said on the page.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { scriptedAgentConfig } from '../support/agents/scripted-agent';
import { startHeadless, type Headless } from './headless';
import { expectAxeClean } from './support/axe';

// Written to test-results/ on every run; to docs/images/ only with GATEHOUSE_SCREENSHOTS=1.
const OUT = process.env.GATEHOUSE_SCREENSHOTS ? 'docs/images' : 'test-results/screenshots';

let headless: Headless;
let folder: string;
let kept: string;

test.beforeEach(async () => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-e2e-resume-')));
  kept = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-e2e-kept-')));
  const agent = scriptedAgentConfig({
    sessions: { dir: kept, resume: true, close: true },
    prompts: [
      [
        { type: 'text', text: 'I will run the tests.' },
        {
          type: 'requestPermission',
          toolCall: {
            toolCallId: 'tests-1',
            title: 'npm test',
            kind: 'execute',
            rawInput: { command: 'npm test' },
          },
          options: [
            { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
          onAllow: [{ type: 'text', text: 'The tests pass.' }],
        },
      ],
      [{ type: 'text', text: 'Picked up where we left off.' }],
    ],
  });
  // The agent keeps its sessions in a folder of the real temp folder, which its sandbox replaces.
  headless = await startHeadless({
    agents: { s: { name: 'Scripted', ...agent, allowWrite: [kept] } },
  });
});
test.afterEach(async () => {
  await headless.stop();
  rmSync(folder, { recursive: true, force: true });
  rmSync(kept, { recursive: true, force: true });
});

test('a session that ended with Gatehouse is listed as resumable after a restart and resumed from its page', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(await headless.pairingUrl());
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const form = page.getByRole('form', { name: 'start a session' });
  await form.getByLabel('Folder').fill(folder);
  await form.getByRole('button', { name: 'Start session' }).click();
  await page.getByLabel('prompt').fill('Run the tests');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(page.getByText('The agent finished its turn.')).toBeVisible();

  await headless.restart();
  await page.goto(await headless.pairingUrl());
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  const list = page.getByRole('navigation', { name: 'sessions' });
  const row = list.getByRole('link', { name: /Ended with Gatehouse — resumable/ });
  await expect(row).toHaveCount(1);
  await row.click();
  const view = page.getByRole('region', { name: 'session' });
  const log = view.getByRole('log', { name: 'transcript' });
  await expect(log.getByLabel('you')).toHaveText([/Run the tests/]);
  await expect(log.getByLabel('decision')).toContainText('Allowed by you');
  await expect(view.getByText('This session ended when Gatehouse stopped.')).toBeVisible();
  await expect(view.getByRole('textbox', { name: 'prompt' })).toHaveCount(0);
  await expectAxeClean(page);
  await page.screenshot({ path: join(OUT, 'session-resumable-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(OUT, 'session-resumable-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  await view.getByRole('button', { name: 'Resume session' }).click();
  await expect(
    view.getByRole('status').filter({ hasText: 'Resumed after Gatehouse restarted' }),
  ).toBeVisible();
  await expect(view.getByText('Idle')).toBeVisible();
  await expect(view.getByRole('button', { name: 'Resume session' })).toHaveCount(0);
  await page.getByLabel('prompt').fill('Go on');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(log.getByLabel('agent').last()).toContainText('Picked up where we left off.');
  await expect(log.getByLabel('you')).toHaveText([/Run the tests/, /Go on/]);
  await expect(log.getByText('The tests pass.')).toHaveCount(1);
  await page.screenshot({ path: join(OUT, 'session-resumed-1280.png') });
});
