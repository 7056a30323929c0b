// Agents boot a few at a time (agents/start-gate.ts): a hostile agent that never answers ACP
// initialize holds its start slot only for a bounded time, so agents that stall on purpose, as
// many as there are slots, keep no other session from starting. And a starting agent yields the
// CPUs (agents/start-priority.ts): its scheduling group is lowered until its start is over.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedAgentConfig, scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { groupNice, STARTING_NICE } from '../../src/main/core/agents/start-priority';
import { hasSysAdmin } from '../support/capabilities';

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

  // A core without CAP_SYS_ADMIN may find the kernel's one change per 100 ms taken by another.
  it
    .skipIf(!existsSync('/proc/self/autogroup') || !hasSysAdmin())
    .each(['workspace-write', 'off'] as const)(
    'sandbox %s: a starting agent runs in a lowered scheduling group, set back once it has answered initialize',
    async (sandbox) => {
      work = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-starts-')));
      const groupFile = join(work, 'group.txt');
      const ours = groupNice(process.pid);
      gh = await startGatehouse({
        agents: { s: { ...scriptedAgentConfig({ groupFile }), sandbox } },
      });
      const { sessionId } = await gh.api.call('createSession', { agentId: 's', cwd: work });
      expect(readFileSync(groupFile, 'utf8')).toMatch(new RegExp(` nice ${STARTING_NICE}$`));
      const pid = gh.core.sessions.get(sessionId).process!.pid!;
      expect(groupNice(pid)).toBe(0);
      // The agent's own group was lowered: the core's (this process's) is left as it was.
      expect(readFileSync(groupFile, 'utf8').split(' ')[0]).not.toBe(
        readFileSync('/proc/self/autogroup', 'utf8').split(' ')[0],
      );
      expect(groupNice(process.pid)).toBe(ours);
    },
  );
});
