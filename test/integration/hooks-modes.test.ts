// A terminal CLI's tool calls are judged as any agent's: its Bypass switch and modes apply, and a
// person's "always" becomes a Gatehouse grant that answers the next identical call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SettingsInput } from '../../src/shared/settings';
import { openControl } from '../../src/cli/control-client';
import { startControlServer } from '../../src/main/control/server';
import { acquireHomeLock } from '../../src/main/core/home-lock';
import { startGatehouse } from '../support/gatehouse';
import { cleanupAfterEach } from '../support/steps';

const cleanup = cleanupAfterEach();

async function hookCore(settings: SettingsInput) {
  const gh = await startGatehouse(settings);
  const lock = acquireHomeLock(gh.home, 'headless');
  const control = await startControlServer({ core: gh.core, lock });
  const folder = mkdtempSync(join(tmpdir(), 'gatehouse-hooks-modes-'));
  cleanup.push(async () => {
    await control.close();
    lock.release();
    await gh.close();
    rmSync(folder, { recursive: true, force: true });
  });
  /** One tool call as the hook sends it, on a connection of its own (one call per hook process). */
  const ask = async (command: string) => {
    const { control: client } = await openControl(control.path, 'hook');
    cleanup.push(() => client.close());
    return client.call(
      'hook.request',
      {
        agent: 'claude-code',
        cliSessionId: 'cli-1',
        cwd: folder,
        toolName: 'Bash',
        toolInput: { command },
      },
      { timeoutMs: null },
    );
  };
  return { gh, ask };
}

const CLAUDE = { command: 'claude', args: [] };

describe('a terminal CLI judged like any agent', () => {
  it('its Bypass switch allows with nobody asked, and a deny rule still stops it', async () => {
    const { gh, ask } = await hookCore({
      agents: { 'claude-code': { ...CLAUDE, bypassPermissions: true } },
      rules: [{ id: 'no-rm', action: 'deny', toolKind: 'execute', command: 'rm' }],
    });
    expect(await ask('make build')).toMatchObject({ decision: 'allow' });
    expect(await ask('rm -rf build')).toMatchObject({ decision: 'deny' });
    expect(gh.core.pipeline.pending.list()).toEqual([]);
    const deciders = (await gh.api.call('history', {})).items.map((row) => row.decider.type).sort();
    expect(deciders).toEqual(['mode', 'rule']);
  });

  it('plan mode denies a command with nobody asked', async () => {
    const { ask } = await hookCore({ agents: { 'claude-code': { ...CLAUDE, mode: 'plan' } } });
    expect(await ask('make build')).toMatchObject({ decision: 'deny' });
  });

  it("a person's always is a grant: the CLI is told allow now, and the same call later is the grant's", async () => {
    const { gh, ask } = await hookCore({});
    const first = ask('npm test');
    const approval = await gh.nextApproval();
    await gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: 'allow-always',
      grant: { scope: 'session' },
    });
    expect(await first).toMatchObject({ decision: 'allow' });
    expect(await ask('npm test')).toMatchObject({ decision: 'allow' });
    expect(gh.core.pipeline.pending.list()).toEqual([]);
    const [latest] = (await gh.api.call('history', {})).items;
    expect(latest?.decider.type).toBe('grant');
  });
});
