// No agent outlives its core: a core killed with SIGKILL takes its agents with it, in every sandbox
// profile, even an agent that ignores its stdin closing and leaves children behind; and one that
// cut its own lifeline is ended by the next core on the home, audited.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxMode } from '../../src/shared/sandbox-settings';
import { createCore } from '../../src/main/core/core';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { bwrapMissing } from '../support/bwrap';
import { startCoreProcess, type CoreProcess } from '../support/core-process';
import { pidsWithEnv } from '../support/process-scan';

const TOKEN = 'lifecycle-test-token';
const LINGER = `"$1" -e 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1e9)'`;
// Runs the scripted agent ($2) with a child that ignores SIGTERM beside it; when the agent's stdin
// closes it does not leave: it becomes such a process itself, as codex-acp stays.
const LINGERING_AGENT = `${LINGER} &\n"$1" "$2"\nexec ${LINGER}`;
// The same, after killing its own children first: the lifeline's watcher among them.
const LIFELINE_CUTTER = `for c in $(cat /proc/$$/task/*/children); do kill -9 "$c"; done\n${LINGERING_AGENT}`;

const temporary: string[] = [];
const fresh = (prefix: string): string => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  temporary.push(dir);
  return dir;
};
let core: CoreProcess | null = null;

afterEach(async () => {
  await core?.stop('SIGKILL');
  core = null;
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A core process on a fresh home with one session of an agent running `script`; its marker. */
async function coreWithAgent(script: string, sandbox: SandboxMode) {
  const home = fresh('gatehouse-lifecycle-');
  const folder = fresh('gatehouse-lifecycle-work-');
  const mark = `LIFECYCLE_TEST_MARK=${randomUUID()}`;
  const launch = scriptedAgentLaunch({ prompts: [] });
  const env = {
    ...(launch.env as Record<string, string>),
    HOME: fresh('gatehouse-lifecycle-agent-home-'),
    LIFECYCLE_TEST_MARK: mark.split('=')[1]!,
  };
  const args = ['-c', script, 'agent', launch.command, ...launch.args];
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ agents: { s: { command: '/bin/sh', args, env, sandbox } } }),
  );
  core = await startCoreProcess(home, { GATEHOUSE_TOKEN: TOKEN });
  const created = await fetch(`${new URL(core.url).origin}/api/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 's', cwd: folder }),
  });
  expect(created.status).toBe(200);
  return { home, mark };
}

/** The next core on the home: what it audited as ended at start. */
async function nextCoreOn(home: string) {
  const next = await createCore({ home });
  try {
    await next.store.flush();
    return next.store.events({ type: 'agent_orphan_ended' });
  } finally {
    await next.close();
  }
}

const noSandbox = bwrapMissing('agent lifecycle under the sandbox');
const profiles: SandboxMode[] = noSandbox ? ['off'] : ['off', 'workspace-write', 'read-only'];

describe.skipIf(process.platform !== 'linux')('an agent whose core is killed', () => {
  it.each(profiles)('sandbox %s: dies with the core, children included', async (sandbox) => {
    const { home, mark } = await coreWithAgent(LINGERING_AGENT, sandbox);
    // The agent and the child it started at least.
    expect(pidsWithEnv(mark).length).toBeGreaterThanOrEqual(2);
    expect(readdirSync(join(home, 'run', 'agents'))).toHaveLength(1);

    await core!.stop('SIGKILL');
    await vi.waitFor(() => expect(pidsWithEnv(mark)).toEqual([]), { timeout: 5000, interval: 50 });

    // Nothing left for the next core to end; the dead core's record is gone.
    expect(await nextCoreOn(home)).toEqual([]);
    expect(readdirSync(join(home, 'run', 'agents'))).toEqual([]);
  });

  it('one that cut its lifeline is ended by the next core on the home, audited', async () => {
    const { home, mark } = await coreWithAgent(LIFELINE_CUTTER, 'off');
    await core!.stop('SIGKILL');
    const survivors = pidsWithEnv(mark);
    expect(survivors.length).toBeGreaterThanOrEqual(2);

    const ended = await nextCoreOn(home);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ agentId: 's' });
    const { killed } = ended[0]!.payload as { killed: number[] };
    expect(killed).toEqual(expect.arrayContaining(survivors));
    await vi.waitFor(() => expect(pidsWithEnv(mark)).toEqual([]), { timeout: 5000, interval: 50 });
  });
});
