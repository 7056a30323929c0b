// Agents started by Gatehouse run in their OS sandbox: a scripted agent tries, without asking, to
// write outside its project, read the user's ssh key and Gatehouse's data, read its parent's
// environment and reach loopback ports. Everything runs as the same user (root on CI), so only the
// sandbox can be what stops it.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../src/shared/domain';
import { Settings, type AgentConfig } from '../../src/shared/settings';
import { scriptedAgentLaunch, type ScriptStep } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { bwrapMissing } from '../support/bwrap';
import { PRIVATE_TMP_SHOWN } from '../../src/main/core/sandbox/launch';
import { databasePath } from '../../src/main/core/store/data-folder';

const missing = bwrapMissing('sandbox-agents');

describe.skipIf(missing !== null)('agents in their sandbox', () => {
  let gh: TestGatehouse;
  let root: string;
  let home: string;
  let outside: string;
  let listener: Server;
  let listenerPort: number;
  let gatehousePort: number;

  /** The escape attempts, and one write where the agent may write. */
  const escape = (project: string): ScriptStep[] => [
    { type: 'direct', action: 'write', path: join(outside, 'escaped.txt') },
    { type: 'direct', action: 'read', path: join(home, '.ssh', 'id_ed25519') },
    { type: 'direct', action: 'connect', host: '127.0.0.1', port: listenerPort },
    { type: 'direct', action: 'read', path: join(gh.home, 'settings.json') },
    { type: 'direct', action: 'read', path: databasePath(gh.home) },
    { type: 'direct', action: 'read', path: `/proc/${process.pid}/environ` },
    { type: 'direct', action: 'connect', host: '127.0.0.1', port: gatehousePort },
    { type: 'direct', action: 'write', path: join(project, 'inside.txt') },
  ];

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-sandboxed-')));
    home = join(root, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
    // Outside the temp folder, which every sandboxed agent may write.
    outside = realpathSync(mkdtempSync('/var/tmp/gatehouse-outside-'));
    listener = createServer((socket) => {
      socket.on('error', () => socket.destroy());
      socket.end('hello\n');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    listenerPort = (listener.address() as { port: number }).port;
    gh = await startGatehouse({});
    gatehousePort = Number(new URL(gh.server.url).port);
    writeFileSync(join(gh.home, 'settings.json'), '{"agents":{}}\n');
  });

  afterAll(async () => {
    await gh?.close();
    await new Promise<void>((resolve) => listener?.close(() => resolve()));
    for (const dir of [root, outside]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a session of an agent running `steps` on its first prompt, with `extra` settings. */
  async function session(
    id: string,
    steps: (project: string) => ScriptStep[],
    extra: Partial<AgentConfig> = {},
  ): Promise<{ info: SessionInfo; project: string; run(): Promise<string[]> }> {
    const project = join(root, id);
    mkdirSync(project, { recursive: true });
    const launch = scriptedAgentLaunch({ prompts: [steps(project)] });
    const agent = {
      command: launch.command,
      args: launch.args,
      env: { ...(launch.env as Record<string, string>), HOME: home },
      ...extra,
    };
    gh.core.replaceSettings(
      Settings.parse({ ...gh.core.settings, agents: { ...gh.core.settings.agents, [id]: agent } }),
    );
    const { sessionId } = await gh.api.call('createSession', { agentId: id, cwd: project });
    const info = (await gh.api.call('listSessions', {})).find((x) => x.sessionId === sessionId)!;
    return {
      info,
      project,
      async run() {
        await gh.api.call('prompt', { sessionId: info.sessionId, text: 'go' });
        return gh.events.flatMap((e) =>
          e.type === 'session_update' &&
          e.sessionId === info.sessionId &&
          e.update.sessionUpdate === 'agent_message_chunk'
            ? [(e.update['content'] as { text: string }).text]
            : [],
        );
      },
    };
  }

  async function violations(sessionId: string) {
    await gh.core.store.flush();
    return (await gh.core.store.events({ type: 'sandbox_violation' }))
      .filter((e) => e.sessionId === sessionId)
      .map((e) => e.payload as { kind: string; target: string });
  }

  it('workspace-write: the escapes fail inside the agent and are audited; the project is writable', async () => {
    const s = await session('confined', escape);
    expect(s.info.sandbox).toMatchObject({ profile: 'workspace-write', network: 'none' });
    expect(s.info.sandbox.writable).toEqual(['project', PRIVATE_TMP_SHOWN]);
    const texts = await s.run();
    expect(texts).toEqual([
      `direct write ${join(outside, 'escaped.txt')} failed: EROFS`,
      // A hidden path refuses access, so that the agent's error names the sandbox's refusal.
      `direct read ${join(home, '.ssh', 'id_ed25519')} failed: EACCES`,
      `direct connect 127.0.0.1:${listenerPort} failed: ECONNREFUSED`,
      `direct read ${join(gh.home, 'settings.json')} failed: EACCES`,
      `direct read ${databasePath(gh.home)} failed: EACCES`,
      // Its own PID namespace: the core's process is not there.
      `direct read /proc/${process.pid}/environ failed: ENOENT`,
      `direct connect 127.0.0.1:${gatehousePort} failed: ECONNREFUSED`,
      `direct write ${join(s.project, 'inside.txt')}: ok`,
    ]);
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    expect(readFileSync(join(s.project, 'inside.txt'), 'utf8')).toBe('written directly\n');

    await expect.poll(() => violations(s.info.sessionId)).toHaveLength(6);
    expect(await violations(s.info.sessionId)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'file',
          target: join(outside, 'escaped.txt'),
          reason: 'EROFS',
        }),
        expect.objectContaining({
          kind: 'file',
          target: join(home, '.ssh', 'id_ed25519'),
          reason: 'EACCES',
        }),
        expect.objectContaining({ kind: 'file', target: join(gh.home, 'settings.json') }),
        expect.objectContaining({ kind: 'file', target: databasePath(gh.home) }),
        expect.objectContaining({
          kind: 'network',
          target: `127.0.0.1:${listenerPort}`,
          port: listenerPort,
        }),
        expect.objectContaining({ kind: 'network', target: `127.0.0.1:${gatehousePort}` }),
      ]),
    );
    expect(gh.events).toContainEqual({
      type: 'sandbox_violation',
      sessionId: s.info.sessionId,
      agentId: 'confined',
      kind: 'file',
      blocked: 'write',
      target: join(outside, 'escaped.txt'),
    });

    // Each refusal is also a line of the history, decided by the sandbox.
    const blocked = (
      await gh.core.store.history({ decider: 'sandbox', sessionId: s.info.sessionId })
    ).items;
    expect(blocked).toHaveLength(6);
    expect(blocked).toContainEqual(
      expect.objectContaining({
        toolKind: 'edit',
        title: `Blocked by the sandbox: write ${join(outside, 'escaped.txt')}`,
        paths: [join(outside, 'escaped.txt')],
        reply: { outcome: 'selected', optionId: 'sandbox-refused', optionKind: 'reject_once' },
        decider: { type: 'sandbox', kind: 'write', target: join(outside, 'escaped.txt') },
      }),
    );
    expect(blocked).toContainEqual(
      expect.objectContaining({
        toolKind: 'read',
        title: `Blocked by the sandbox: read ${join(home, '.ssh', 'id_ed25519')}`,
        decider: { type: 'sandbox', kind: 'read', target: join(home, '.ssh', 'id_ed25519') },
      }),
    );
    expect(blocked).toContainEqual(
      expect.objectContaining({
        toolKind: 'fetch',
        decider: { type: 'sandbox', kind: 'connect', target: `127.0.0.1:${listenerPort}` },
      }),
    );
    expect(
      (await gh.core.store.history({ decision: 'deny', sessionId: s.info.sessionId })).items,
    ).toHaveLength(6);
  });

  it('an agent that keeps failing on one path is reported as repeated, once, for a person to allow', async () => {
    const target = join(outside, 'again.txt');
    const s = await session('insistent', () =>
      Array.from({ length: 4 }, () => ({ type: 'direct', action: 'write', path: target }) as const),
    );
    await s.run();
    await expect
      .poll(() =>
        gh.events.filter((e) => e.type === 'sandbox_violation' && e.sessionId === s.info.sessionId),
      )
      .toHaveLength(2);
    const reported = gh.events.filter(
      (e) => e.type === 'sandbox_violation' && e.sessionId === s.info.sessionId,
    );
    expect(reported.map((e) => (e as { repeated?: true }).repeated ?? false)).toEqual([
      false,
      true,
    ]);
    const audited = await violations(s.info.sessionId);
    expect(audited).toHaveLength(2);
    expect(audited).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ target, repeated: false, suppressed: 0 }),
        expect.objectContaining({ target, repeated: true, suppressed: 1 }),
      ]),
    );
    expect(existsSync(target)).toBe(false);
  });

  it('off: the same agent does all of it, and its session says it is not sandboxed', async () => {
    const s = await session('open', escape, { sandbox: 'off' });
    expect(s.info.sandbox).toMatchObject({ profile: 'off', writable: [], network: 'all' });
    const texts = await s.run();
    expect(texts).toEqual(
      expect.arrayContaining([
        `direct write ${join(outside, 'escaped.txt')}: ok`,
        `direct read ${join(home, '.ssh', 'id_ed25519')}: ok`,
        `direct connect 127.0.0.1:${listenerPort}: ok`,
        `direct read /proc/${process.pid}/environ: ok`,
      ]),
    );
    rmSync(join(outside, 'escaped.txt'));
    expect(await violations(s.info.sessionId)).toEqual([]);
  });

  it('read-only: an approved write lands (Gatehouse makes it), the agent’s own write does not', async () => {
    const s = await session(
      'readonly',
      (project) => [
        {
          type: 'requestPermission',
          // The approval names the file: only a write a decision covers is performed.
          toolCall: {
            toolCallId: 'w',
            title: 'Write approved.txt',
            kind: 'edit',
            locations: [{ path: join(project, 'approved.txt') }],
          },
          options: [
            { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
          onAllow: [
            { type: 'writeFile', path: join(project, 'approved.txt'), content: 'approved\n' },
          ],
        },
        { type: 'direct', action: 'write', path: join(project, 'direct.txt') },
      ],
      { sandbox: 'read-only' },
    );
    expect(s.info.sandbox.profile).toBe('read-only');
    expect(s.info.sandbox.writable).not.toContain('project');
    const turn = s.run();
    const approval = await gh.nextApproval((a) => a.sessionId === s.info.sessionId);
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'yes' });
    const texts = await turn;
    expect(texts).toContain(`wrote ${join(s.project, 'approved.txt')} via client`);
    expect(texts).toContain(`direct write ${join(s.project, 'direct.txt')} failed: EROFS`);
    expect(readFileSync(join(s.project, 'approved.txt'), 'utf8')).toBe('approved\n');
    expect(existsSync(join(s.project, 'direct.txt'))).toBe(false);
    await expect
      .poll(() => violations(s.info.sessionId))
      .toEqual([expect.objectContaining({ kind: 'file', target: join(s.project, 'direct.txt') })]);
  });

  it('without bubblewrap a session fails to start with an error naming it, unless the agent allows running unsandboxed', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(root, 'no-such-bin');
    try {
      await expect(session('nobwrap', () => [])).rejects.toThrow(/bubblewrap.*allowUnsandboxed/s);
      await gh.core.store.flush();
      expect(await gh.core.store.events({ type: 'sandbox_unavailable' })).toHaveLength(1);
      const allowed = await session('nobwrap-allowed', () => [], { allowUnsandboxed: true });
      expect(allowed.info.sandbox.profile).toBe('off');
      expect(allowed.info.sandbox.reason).toMatch(/bubblewrap/);
    } finally {
      process.env.PATH = path;
    }
  });

  it('a bubblewrap that cannot create namespaces is the same: a clear error, or unsandboxed when allowed', async () => {
    const bin = join(root, 'broken-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      await expect(session('brokenbwrap', () => [])).rejects.toThrow(
        /cannot create a sandbox here: bwrap: setting up uid map: Permission denied.*allowUnsandboxed/s,
      );
      const allowed = await session('brokenbwrap-allowed', () => [], { allowUnsandboxed: true });
      expect(allowed.info.sandbox).toMatchObject({
        profile: 'off',
        reason: expect.stringMatching(/uid map/),
      });
    } finally {
      process.env.PATH = path;
    }
  });
});
