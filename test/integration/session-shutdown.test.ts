// Gatehouse stopping while sessions start: a start not finished when the close began fails, and no
// agent it spawned is left running after the core closed — one started after the close began
// would run with no one to ask, and its exit would reach a store already closed.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Settings } from '../../src/shared/settings';
import { createCore } from '../../src/main/core/core';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { pidsWithEnv } from '../support/process-scan';

const temporary: string[] = [];
const fresh = (prefix: string): string => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  temporary.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a core that closes while sessions start', () => {
  it('leaves no agent running, and a start it did not finish fails', async () => {
    const mark = `SHUTDOWN_TEST_MARK=${randomUUID()}`;
    const launch = scriptedAgentLaunch({ prompts: [] });
    const settings = Settings.parse({
      agents: {
        s: {
          command: launch.command,
          args: launch.args,
          env: {
            ...(launch.env as Record<string, string>),
            SHUTDOWN_TEST_MARK: mark.split('=')[1],
          },
          sandbox: 'off',
        },
      },
    });
    const core = await createCore({ home: fresh('gatehouse-shutdown-'), settings });
    const folder = fresh('gatehouse-shutdown-work-');
    // Starts at each step of the way: one on its way when the close begins (its agent spawned
    // after), one asked as it begins, one once it is under way.
    const starts = [core.sessions.create('s', folder)];
    const closed = core.close();
    starts.push(core.sessions.create('s', folder));
    await Promise.resolve();
    starts.push(core.sessions.create('s', folder));
    const outcomes = await Promise.allSettled(starts);
    await closed;
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/Gatehouse is stopping/);
    }
    await vi.waitFor(() => expect(pidsWithEnv(mark)).toEqual([]), { timeout: 5_000 });
  });
});
