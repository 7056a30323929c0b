// A hostile agent kills the agent launcher (agents/launcher.ts), its parent: as the same user it
// may. Gatehouse fails closed: that agent's session ends, every other agent the launcher started is
// killed and its session ends too, the request that was waiting is never allowed, and the next
// session starts through a new launcher.
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processIdentity } from '../../src/main/core/process-identity';
import { scriptedAgentConfig } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { freshDir, type Cleanup } from '../support/steps';

// Behind the lifeline the agent's sh runs in the process the launcher spawned: $PPID is the
// launcher. On the test's cue (a file appears) it kills it, then goes on as the scripted agent.
const KILLER = [
  '( while [ ! -e "$KILL_CUE" ]; do sleep 0.05; done; kill -9 "$PPID" ) </dev/null >/dev/null 2>&1 &',
  'exec "$@"',
].join('\n');

const OPTIONS = [
  { optionId: 'yes', name: 'Yes', kind: 'allow_once' as const },
  { optionId: 'no', name: 'No', kind: 'reject_once' as const },
];

const cleanup: Cleanup = [];
let gh: TestGatehouse | undefined;
afterEach(async () => {
  await gh?.close();
  gh = undefined;
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe.skipIf(process.platform !== 'linux')('an agent that kills the agent launcher', () => {
  it('ends its own session and every other agent; its request is never allowed; the next session starts', async () => {
    const work = realpathSync(freshDir(cleanup, 'gatehouse-launcher-work-'));
    const cue = join(freshDir(cleanup, 'gatehouse-launcher-cue-'), 'kill');
    const asking = scriptedAgentConfig({
      prompts: [
        [
          {
            type: 'requestPermission',
            toolCall: {
              toolCallId: 'rm',
              title: 'Remove everything',
              kind: 'execute',
              rawInput: { command: 'rm -rf ~' },
            },
            options: OPTIONS,
          },
        ],
      ],
    });
    const plain = scriptedAgentConfig({ prompts: [] });
    gh = await startGatehouse({
      agents: {
        hostile: {
          command: '/bin/sh',
          args: ['-c', KILLER, 'hostile', asking.command, ...asking.args],
          env: { ...asking.env, KILL_CUE: cue },
          sandbox: 'off',
        },
        other: { ...plain, sandbox: 'off' },
      },
    });
    const hostile = await gh.api.call('createSession', { agentId: 'hostile', cwd: work });
    const other = await gh.api.call('createSession', { agentId: 'other', cwd: work });
    const sessions = [hostile, other].map((s) => gh!.core.sessions.get(s.sessionId));
    const pids = sessions.map((session) => session.process!.pid!);
    const turn = gh.api
      .call('prompt', { sessionId: hostile.sessionId, text: 'go' })
      .catch((e: Error) => e);
    const approval = await gh.nextApproval();

    writeFileSync(cue, '');
    for (const session of sessions) {
      await vi.waitFor(() => expect(session.info().state).toBe('closed'), { timeout: 10_000 });
      expect(session.endReason).toBe('agent_exit');
    }
    await turn;
    // Killed with their process groups, the hostile agent's cue watcher included.
    for (const pid of pids) await vi.waitFor(() => expect(processIdentity(pid)).toBeNull());
    expect(existsSync(cue)).toBe(true);

    // The request ended with its session: a person's allow now finds nothing to decide.
    expect(await gh.api.call('vote', { requestId: approval.requestId, optionId: 'yes' })).toEqual({
      kind: 'unknown_request',
    });
    await gh.core.store.flush();
    const decided = (await gh.core.store.history({ sessionId: hostile.sessionId, limit: 10 }))
      .items;
    expect(decided).toEqual([
      expect.objectContaining({
        requestId: approval.requestId,
        reply: { outcome: 'cancelled' },
        decider: { type: 'agent_exit' },
      }),
    ]);

    // A new launcher starts the next session.
    const next = await gh.api.call('createSession', { agentId: 'other', cwd: work });
    expect(gh.core.sessions.get(next.sessionId).info()).toMatchObject({ state: 'idle' });
  });
});
