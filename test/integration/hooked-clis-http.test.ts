// GET /api/hooks over real HTTP: which CLIs run Gatehouse's hook, read from the HOME of the user who
// runs Gatehouse, never anything the caller names; refused without the bearer token.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installHook } from '../../src/cli/hook/install';
import { settingsFileFor } from '../../src/main/core/agents/hook-settings';
import { installedGatehouse } from '../../src/main/core/agents/hooked-clis';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

describe('GET /api/hooks', () => {
  let gh: TestGatehouse | undefined;
  let home: string;
  const savedHome = process.env['HOME'];
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'gatehouse-hooked-http-'));
    process.env['HOME'] = home;
  });
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
    if (savedHome === undefined) delete process.env['HOME'];
    else process.env['HOME'] = savedHome;
    rmSync(home, { recursive: true, force: true });
  });

  it("answers each CLI's state from the user's files: hooked here, unreadable", async () => {
    gh = await startGatehouse({});
    const entry = installedGatehouse()!;
    installHook('claude-code', settingsFileFor('claude-code', undefined, home), entry);
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'settings.json'), '{ "hooks": ');

    const rows = await gh.api.call('listHookedClis', {});
    expect(rows).toMatchObject([
      {
        cli: 'claude-code',
        file: join(home, '.claude', 'settings.json'),
        state: 'hooked',
        thisInstallation: true,
      },
      {
        cli: 'gemini',
        file: join(home, '.gemini', 'settings.json'),
        state: 'unreadable',
        thisInstallation: false,
        installCommand: `${entry} hook install gemini`,
      },
    ]);
  });

  it('takes no input from the caller, and answers nothing without the bearer token', async () => {
    gh = await startGatehouse({});
    const url = `${gh.server.url}/api/hooks`;
    expect((await fetch(url)).status).toBe(401);
    const elsewhere = mkdtempSync(join(tmpdir(), 'gatehouse-hooked-other-'));
    try {
      installHook('gemini', settingsFileFor('gemini', undefined, elsewhere), installedGatehouse()!);
      const asked = await fetch(`${url}?home=${encodeURIComponent(elsewhere)}`, {
        headers: { authorization: `Bearer ${gh.token}` },
      });
      expect(asked.status).toBe(400);
      const rows = await gh.api.call('listHookedClis', {});
      expect(rows.map((row) => row.state)).toEqual(['not-hooked', 'not-hooked']);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
