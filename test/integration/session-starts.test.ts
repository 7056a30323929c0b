// Agents boot a few at a time (agents/start-gate.ts): a hostile agent that never answers ACP
// initialize holds its start slot only for a bounded time, so agents that stall on purpose, as
// many as there are slots, keep no other session from starting.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

let gh: TestGatehouse | undefined;
let work: string | undefined;
afterEach(async () => {
  await gh?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  gh = work = undefined;
});

describe('session starts', () => {
  it('agents that never answer initialize, one per start slot, do not keep another session from starting', async () => {
    work = mkdtempSync(join(tmpdir(), 'gatehouse-starts-'));
    const launch = scriptedAgentLaunch({});
    gh = await startGatehouse({
      agents: {
        silent: {
          command: process.execPath,
          args: ['-e', 'process.stdin.resume(); setInterval(() => {}, 1e9)'],
          sandbox: 'off',
        },
        s: {
          command: launch.command,
          args: launch.args,
          env: launch.env as Record<string, string>,
        },
      },
    });
    const slots = 2 * availableParallelism();
    const stalled = Array.from({ length: slots }, () =>
      gh!.api.call('createSession', { agentId: 'silent', cwd: work! }).catch(() => null),
    );
    const { sessionId } = await gh.api.call('createSession', { agentId: 's', cwd: work });
    expect(gh.core.sessions.get(sessionId).info()).toMatchObject({ agentId: 's', state: 'idle' });
    await gh.close();
    gh = undefined;
    expect(await Promise.all(stalled)).toEqual(Array.from({ length: slots }, () => null));
  });
});
