// No agent outlives its core: a core killed with SIGKILL takes its agents with it, in every sandbox
// profile, even an agent that ignores its stdin closing and leaves children behind; the next core
// removes the folders the dead core's sandboxes and previews made; and one that cut its own
// lifeline and left its process group is ended by the next core on the home, audited.
import { randomUUID } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxMode } from '../../src/shared/sandbox-settings';
import { createCore } from '../../src/main/core/core';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { bwrapMissing } from '../support/bwrap';
import { CODEX_PACKAGES, prepareCodex } from '../support/codex';
import { startCoreProcess, type CoreProcess } from '../support/core-process';
import { startFakeResponsesServer } from '../support/fake-responses-server';
import { pidsInSession, pidsWithEnv } from '../support/process-scan';

const TOKEN = 'lifecycle-test-token';
const LINGER = `"$1" -e 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1e9)'`;
// Runs the scripted agent ($2) with a child that ignores SIGTERM beside it; when the agent's stdin
// closes it does not leave: it becomes such a process itself, as codex-acp stays.
const LINGERING_AGENT = `${LINGER} &\n"$1" "$2"\nexec ${LINGER}`;
// The same, after killing its own children first (the lifeline's watcher among them), and from a
// process group of its own, which the agent launcher does not end when the core goes (it stays in
// the agent's session, where the next core looks).
const LIFELINE_CUTTER = [
  'for c in $(cat /proc/$$/task/*/children); do kill -9 "$c"; done',
  `perl -e 'setpgrp(0, 0); exec "/bin/sh", "-c", $ENV{LINGERING_AGENT}, @ARGV' agent "$1" "$2"`,
].join('\n');

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

/** A core process on a fresh home with one open session of agent `s`; the API as a person's. */
async function coreWithAgent(
  agent: Record<string, unknown>,
  settings: Record<string, unknown> = {},
  env: Record<string, string> = {},
) {
  const home = fresh('gatehouse-lifecycle-');
  const folder = fresh('gatehouse-lifecycle-work-');
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ ...settings, agents: { s: agent } }));
  core = await startCoreProcess(home, { ...env, GATEHOUSE_TOKEN: TOKEN });
  const api = new HttpApi(new URL(core.url).origin, TOKEN);
  const { sessionId } = await api.call('createSession', { agentId: 's', cwd: folder });
  return { home, api, sessionId };
}

/** coreWithAgent with the scripted agent behind `script` (sh), marked in its environment. */
async function coreWithScriptedAgent(script: string, sandbox: SandboxMode) {
  const mark = randomUUID();
  const launch = scriptedAgentLaunch({ prompts: [] });
  const env = {
    ...(launch.env as Record<string, string>),
    HOME: fresh('gatehouse-lifecycle-agent-home-'),
    LIFECYCLE_TEST_MARK: mark,
    LINGERING_AGENT,
  };
  const args = ['-c', script, 'agent', launch.command, ...launch.args];
  const { home } = await coreWithAgent({ command: '/bin/sh', args, env, sandbox });
  return { home, mark: `LIFECYCLE_TEST_MARK=${mark}` };
}

/** The next core on the home: what it audited as ended at start (its background removals done). */
async function nextCoreOn(home: string) {
  const next = await createCore({ home });
  try {
    await next.store.flush();
    return await next.store.events({ type: 'agent_orphan_ended' });
  } finally {
    await next.close();
  }
}

const noSandbox = bwrapMissing('agent lifecycle under the sandbox');
const profiles: SandboxMode[] = noSandbox ? ['off'] : ['off', 'workspace-write', 'read-only'];

describe.skipIf(process.platform !== 'linux')('an agent whose core is killed', () => {
  it.each(profiles)('sandbox %s: dies with the core, children included', async (sandbox) => {
    // Sandboxed, it leaves a file in its own /tmp, which lies in the data folder.
    const planting = sandbox === 'off' ? '' : 'echo planted > /tmp/left-behind\n';
    const { home, mark } = await coreWithScriptedAgent(planting + LINGERING_AGENT, sandbox);
    // The agent and the child it started at least.
    expect(pidsWithEnv(mark).length).toBeGreaterThanOrEqual(2);
    const records = readdirSync(join(home, 'run', 'agents'));
    expect(records).toHaveLength(1);
    const { sid } = JSON.parse(readFileSync(join(home, 'run', 'agents', records[0]!), 'utf8')) as {
      sid: number;
    };

    await core!.stop('SIGKILL');
    await vi.waitFor(() => expect(pidsWithEnv(mark)).toEqual([]), { timeout: 5000, interval: 50 });
    // The sandbox's own processes, which carry no mark, finish exiting too.
    await vi.waitFor(() => expect(pidsInSession(sid)).toEqual([]), { timeout: 5000, interval: 50 });

    const launchFolders = () =>
      readdirSync(join(home, 'run')).filter((name) => /^(tmp|net|shell|launch)-/.test(name));
    if (planting) {
      const left = launchFolders().filter((name) => name.startsWith('tmp-'));
      expect(left).toHaveLength(1);
      expect(readdirSync(join(home, 'run', left[0]!))).toContain('left-behind');
    }

    // Nothing left for the next core to end; the dead core's record is gone, and so are the
    // folders its sandbox made, the agent's /tmp with what it left there.
    expect(await nextCoreOn(home)).toEqual([]);
    expect(readdirSync(join(home, 'run', 'agents'))).toEqual([]);
    expect(launchFolders()).toEqual([]);
  });

  it.skipIf(noSandbox)(
    "killed while a preview runs: the next core removes the preview's folders, nothing else",
    async () => {
      // The core's temp folder is one of this test's own: other tests' previews are not counted.
      const temp = fresh('gatehouse-lifecycle-temp-');
      const launch = scriptedAgentLaunch({
        prompts: [
          [
            {
              type: 'requestPermission',
              toolCall: {
                toolCallId: 'sh-1',
                kind: 'execute',
                title: 'sleep',
                rawInput: { command: 'sleep 600' },
              },
              options: [
                { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
                { optionId: 'no', name: 'No', kind: 'reject_once' },
              ],
            },
          ],
        ],
      });
      const { home, api, sessionId } = await coreWithAgent(
        { command: launch.command, args: launch.args, env: launch.env },
        { preview: { enabled: true, timeoutSeconds: 120 } },
        { TMPDIR: temp },
      );
      void api.call('prompt', { sessionId, text: 'run' }).catch(() => {});
      const scratches = () => readdirSync(temp).filter((n) => n.startsWith('gatehouse-preview-'));
      const controls = () => readdirSync(join(home, 'run')).filter((n) => n.startsWith('preview-'));
      await vi.waitFor(
        () => {
          expect(scratches()).toHaveLength(1);
          expect(controls()).toHaveLength(1);
        },
        { timeout: 30_000, interval: 50 },
      );
      // Something of another program's, and a folder named like a scratch folder but no core's.
      mkdirSync(join(temp, 'gatehouse-preview-Ab12Cd'));
      mkdirSync(join(temp, 'unrelated'));

      await core!.stop('SIGKILL');
      expect(scratches()).toHaveLength(2);
      expect(controls()).toHaveLength(1);
      vi.stubEnv('TMPDIR', temp);
      try {
        await nextCoreOn(home);
      } finally {
        vi.unstubAllEnvs();
      }
      expect(scratches()).toEqual(['gatehouse-preview-Ab12Cd']);
      expect(readdirSync(temp)).toContain('unrelated');
      expect(controls()).toEqual([]);
    },
  );

  it('one that cut its lifeline and left its group is ended by the next core on the home, audited', async () => {
    const { home, mark } = await coreWithScriptedAgent(LIFELINE_CUTTER, 'off');
    await core!.stop('SIGKILL');
    // Once its stdin has closed: the agent itself (now the lingering program) and its child; the
    // shell that started them, left in the agent's own group, is gone with it.
    await vi.waitFor(() => expect(pidsWithEnv(mark)).toHaveLength(2), { timeout: 5000 });
    const survivors = pidsWithEnv(mark);

    const ended = await nextCoreOn(home);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ agentId: 's' });
    const { killed } = ended[0]!.payload as { killed: number[] };
    expect(killed).toEqual(expect.arrayContaining(survivors));
    await vi.waitFor(() => expect(pidsWithEnv(mark)).toEqual([]), { timeout: 5000, interval: 50 });
  });
});

const installed = CODEX_PACKAGES.filter((pkg) => pkg.launch !== null);
const codexRuns = installed.flatMap((pkg) =>
  profiles.map((sandbox) => [pkg.name, sandbox, pkg] as const),
);

describe.skipIf(process.platform !== 'linux' || codexRuns.length === 0)(
  'codex-acp whose core is killed mid-turn',
  () => {
    it.each(codexRuns)('%s, sandbox %s: no codex-acp process remains', async (_, sandbox, pkg) => {
      const model = await startFakeResponsesServer();
      const codex = prepareCodex(pkg, model.url);
      try {
        const { home, api, sessionId } = await coreWithAgent({
          command: codex.command,
          args: codex.args,
          env: codex.env,
          sandbox,
          network: { allow: [`127.0.0.1:${new URL(model.url).port}`] },
        });
        // 2.6 asks only for a command to run outside its own sandbox.
        model.enqueue({ shell: 'touch never.txt', escalated: pkg.asks === 'by-mode' });
        void api.call('prompt', { sessionId, text: 'run' }).catch(() => {});
        await vi.waitFor(async () => expect((await api.call('listApprovals', {})).total).toBe(1), {
          timeout: 30_000,
          interval: 100,
        });
        // The adapter and, for 2.6, the codex it runs beside it.
        const mark = `CODEX_HOME=${codex.env['CODEX_HOME']}`;
        expect(pidsWithEnv(mark).length).toBeGreaterThanOrEqual(pkg.asks === 'by-mode' ? 2 : 1);

        await core!.stop('SIGKILL');
        await vi.waitFor(() => expect(pidsWithEnv(mark)).toEqual([]), {
          timeout: 5000,
          interval: 50,
        });
        expect(await nextCoreOn(home)).toEqual([]);
      } finally {
        await model.close();
        codex.cleanup();
      }
    });
  },
);
