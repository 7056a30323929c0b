// Ctrl-C at the terminal of `npm run headless` reaches the whole foreground process group: the core
// and the agent launcher it forked, not the agents (each leads a group of its own); so do a service
// manager's stop and the terminal's hangup. The core then stops as at any clean stop, asking each
// agent to leave (SIGTERM) before it kills; the launcher, whose life is the core's, must not leave
// first and have every agent killed at once.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/core';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { startCoreProcess, type CoreProcess } from '../support/core-process';
import { freshDir, type Cleanup } from '../support/steps';

const TOKEN = 'interrupt-test-token';
// The scripted agent ($2) behind a shell that writes the cue when it is asked to leave (SIGTERM),
// then lets the agent go and leaves itself.
const ASKED = [
  'exec 3<&0',
  `trap 'echo asked > "$CUE"; kill "$agent"; wait "$agent"; exit 0' TERM`,
  '"$1" "$2" <&3 3<&- &',
  'agent=$!',
  'wait "$agent"',
].join('\n');

const cleanup: Cleanup = [];
const fresh = (prefix: string): string => realpathSync(freshDir(cleanup, prefix));
let core: CoreProcess | null = null;

afterEach(async () => {
  if (core) {
    try {
      process.kill(-core.pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
    await core.exited;
  }
  core = null;
  for (const step of cleanup.splice(0).reverse()) await step();
});

// SIGINT is Ctrl-C, SIGTERM a service manager's stop, SIGHUP the terminal closed.
describe.skipIf(process.platform !== 'linux')("a signal to the core's whole group", () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    '%s stops each agent as a clean stop does: asked to leave first',
    async (signal) => {
      const home = fresh('gatehouse-interrupt-');
      const cue = join(fresh('gatehouse-interrupt-cue-'), 'asked');
      const launch = scriptedAgentLaunch({ prompts: [] });
      const agent = {
        command: '/bin/sh',
        args: ['-c', ASKED, 'agent', launch.command, ...launch.args],
        env: { ...(launch.env as Record<string, string>), CUE: cue },
        sandbox: 'off',
      };
      writeFileSync(join(home, 'settings.json'), JSON.stringify({ agents: { s: agent } }));
      core = await startCoreProcess(home, { GATEHOUSE_TOKEN: TOKEN }, { ownGroup: true });
      const api = new HttpApi(new URL(core.url).origin, TOKEN);
      await api.call('createSession', { agentId: 's', cwd: fresh('gatehouse-interrupt-work-') });

      process.kill(-core.pid, signal);
      expect(await core.exited).toBe(0);
      expect(readFileSync(cue, 'utf8')).toBe('asked\n');
      // Its exit as it left on its own, not a kill for a launcher lost to the signal.
      const next = await createCore({ home });
      try {
        await next.store.flush();
        const exits = await next.store.events({ type: 'agent_exited' });
        expect(exits.map((exit) => exit.payload)).toEqual([
          expect.objectContaining({ code: 0, signal: null }),
        ]);
      } finally {
        await next.close();
      }
    },
  );
});
