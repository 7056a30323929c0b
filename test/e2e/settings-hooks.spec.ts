// The settings' Terminal CLIs section, over a built headless Gatehouse whose user HOME has Claude
// Code hooked as `gatehouse hook install` does it and Gemini CLI not: each shows its state, the unhooked one
// the command that hooks it, and nothing offers to write the user's files. A hook installed by the
// built command and then removed by another process shows as lost, with when and how to put it back.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ALL_TOOLS, hookCommand } from '../../src/main/core/agents/hook-settings';
import { startHeadless, type Headless } from './headless';

let headless: Headless | undefined;
let home: string | undefined;
test.afterEach(async () => {
  await headless?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

test('the Terminal CLIs section shows which CLIs are hooked and how to hook the others', async ({
  page,
}) => {
  home = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-user-'));
  const entry = realpathSync(join('bin', 'gatehouse.mjs'));
  // The entry `gatehouse hook install claude-code` writes for this installation.
  mkdirSync(join(home, '.claude'));
  const hook = { type: 'command', command: hookCommand('claude-code', entry), timeout: 600 };
  const hooks = { PreToolUse: [{ matcher: ALL_TOOLS['claude-code'], hooks: [hook] }] };
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks }));
  // The headless core reads the user's HOME from its environment, copied when it is spawned.
  const savedHome = process.env['HOME'];
  process.env['HOME'] = home;
  try {
    headless = await startHeadless({});
  } finally {
    if (savedHome === undefined) delete process.env['HOME'];
    else process.env['HOME'] = savedHome;
  }
  await page.goto(await headless.pairingUrl());
  await page.locator('.topbar').waitFor();
  await page.evaluate("location.hash = '#/settings'");

  const section = page.getByRole('region', { name: 'Terminal CLIs' });
  const rows = section.getByRole('table', { name: 'Terminal CLIs' }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  const claude = rows.filter({ hasText: 'Claude Code' });
  await expect(claude).toHaveAttribute('data-state', 'hooked');
  await expect(claude).toContainText(/^Claude CodeHooked/);
  await expect(claude).toContainText(join(home, '.claude', 'settings.json'));
  await expect(claude).not.toContainText('To hook it');
  const gemini = rows.filter({ hasText: 'Gemini CLI' });
  await expect(gemini).toHaveAttribute('data-state', 'not-hooked');
  await expect(gemini).toContainText('Not hooked: the file does not exist');
  await expect(gemini.locator('code', { hasText: 'hook install' })).toHaveText(
    `${entry} hook install gemini`,
  );
  await expect(section.getByRole('button')).toHaveCount(0);
});

test('a watched hook removed by another process shows as lost, with when and how to put it back', async ({
  page,
}) => {
  home = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-user-'));
  const entry = realpathSync(join('bin', 'gatehouse.mjs'));
  const savedHome = process.env['HOME'];
  process.env['HOME'] = home;
  try {
    headless = await startHeadless({});
  } finally {
    if (savedHome === undefined) delete process.env['HOME'];
    else process.env['HOME'] = savedHome;
  }
  const env = { ...process.env, HOME: home, GATEHOUSE_HOME: headless.home };
  const install = spawnSync(process.execPath, [entry, 'hook', 'install', 'claude-code'], { env });
  expect(install.status).toBe(0);
  await page.goto(await headless.pairingUrl());
  await page.locator('.topbar').waitFor();
  await page.evaluate("location.hash = '#/settings'");

  const section = page.getByRole('region', { name: 'Terminal CLIs' });
  const claude = section.locator('tbody tr').filter({ hasText: 'Claude Code' });
  await expect(claude).toHaveAttribute('data-watch', 'intact');
  await expect(claude).toContainText('Watched: as installed since');

  // What a hostile agent of the same user does: the file rewritten without the hook.
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ model: 'opus' }));
  await expect(claude).toHaveAttribute('data-watch', 'lost');
  const alert = claude.getByRole('alert');
  await expect(alert).toContainText('Lost: the CLI is no longer gated, since');
  await expect(alert).toContainText("Gatehouse's hook was removed");
  await expect(alert.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expect(claude).toContainText(
    `To put it back, run in a terminal: ${entry} hook install claude-code`,
  );
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: join('test-results', 'screenshots', 'settings-hook-lost.png') });
});
