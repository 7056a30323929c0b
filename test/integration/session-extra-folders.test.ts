// A session started with folders besides its own (ACP `additionalDirectories`), under the default
// sandbox. They come from the person only: each is checked like the session folder, refused unless
// the agent says it takes them, told to the agent at session/new, writable in the sandbox with its
// files that run later still protected, and a root of the agent's writes through Gatehouse. The
// agent, hostile, writes everywhere it can: inside the folders, next to them, and into git hooks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Settings } from '../../src/shared/settings';
import {
  scriptedAgentLaunch,
  type ScriptedAgentScript,
  type ScriptStep,
} from '../support/agents/scripted-agent';
import { bwrapMissing } from '../support/bwrap';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

const missing = bwrapMissing('session-extra-folders');

describe.skipIf(missing !== null)('a session with additional folders', () => {
  let gh: TestGatehouse;
  let root: string;
  let home: string;
  let project: string;
  let lib: string;
  let outside: string;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-extra-folders-')));
    home = join(root, 'home');
    project = join(root, 'project');
    lib = join(root, 'lib');
    // Beside the folders, where the sandbox shows the agent what is there (read-only).
    outside = join(home, 'outside');
    for (const dir of [home, project, lib, outside]) mkdirSync(dir, { recursive: true });
    // The extra folder is a repository: its hooks run later, outside any sandbox.
    spawnSync('git', ['init', '-q', lib]);
    gh = await startGatehouse({});
  });

  afterAll(async () => {
    await gh?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function configure(id: string, script: ScriptedAgentScript): string {
    const log = join(project, `.${id}-acp.log`);
    const launch = scriptedAgentLaunch(script, { logFile: log });
    const agent = {
      command: launch.command,
      args: launch.args,
      env: { ...(launch.env as Record<string, string>), HOME: home },
    };
    gh.core.replaceSettings(
      Settings.parse({ ...gh.core.settings, agents: { ...gh.core.settings.agents, [id]: agent } }),
    );
    return log;
  }

  const texts = (sessionId: string) =>
    gh.events.flatMap((e) =>
      e.type === 'session_update' &&
      e.sessionId === sessionId &&
      e.update.sessionUpdate === 'agent_message_chunk'
        ? [(e.update['content'] as { text: string }).text]
        : [],
    );

  /** What the agent was sent with session/new, from its own log of the wire. */
  const sessionNew = (log: string) =>
    readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { dir: string; msg: { method?: string; params?: object } })
      .filter((entry) => entry.dir === 'in' && entry.msg.method === 'session/new')
      .map((entry) => entry.msg.params);

  const asks = (path: string, content: string): ScriptStep => ({
    type: 'requestPermission',
    toolCall: {
      toolCallId: `w-${path}`,
      kind: 'edit',
      title: `Write ${path}`,
      locations: [{ path }],
      content: [{ type: 'diff', path, oldText: null, newText: content }],
    },
    options: [
      { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
    onAllow: [{ type: 'writeFile', path, content, via: 'client' }],
  });

  it('is told to the agent; inside it the sandbox writes, next to it and in its hooks it does not', async () => {
    const hook = join(lib, '.git', 'hooks', 'pre-commit');
    const log = configure('extra', {
      additionalDirectories: true,
      prompts: [
        [
          { type: 'direct', action: 'write', path: join(lib, 'direct.txt') },
          { type: 'shell', command: `echo shell > ${join(lib, 'shell.txt')}` },
          { type: 'direct', action: 'write', path: join(outside, 'direct.txt') },
          { type: 'shell', command: `echo shell > ${join(outside, 'shell.txt')}` },
          { type: 'direct', action: 'write', path: hook },
          { type: 'shell', command: `printf '#!/bin/sh\\ntouch x\\n' > ${hook}` },
          // Through Gatehouse: approved, into the extra folder; unasked, outside every root.
          asks(join(lib, 'approved.txt'), 'approved\n'),
          { type: 'writeFile', path: join(outside, 'client.txt'), content: 'x', via: 'client' },
        ],
      ],
    });
    const { sessionId } = await gh.api.call('createSession', {
      agentId: 'extra',
      cwd: project,
      additionalDirectories: [lib],
    });
    expect(sessionNew(log)).toEqual([
      { cwd: project, mcpServers: [], additionalDirectories: [lib] },
    ]);
    const session = (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId);
    expect(session?.additionalDirectories).toEqual([lib]);
    expect(session?.sandbox.profile).toBe('workspace-write');
    expect(session?.sandbox.writable).toEqual(expect.arrayContaining(['project', lib]));
    expect(session?.sandbox.writable).not.toContain(outside);

    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval((a) => a.sessionId === sessionId);
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'yes' });
    await turn;

    expect(texts(sessionId)).toEqual([
      `direct write ${join(lib, 'direct.txt')}: ok`,
      'shell exit 0: ',
      `direct write ${join(outside, 'direct.txt')} failed: EROFS`,
      expect.stringMatching(/^shell exit [1-9]/),
      `direct write ${hook} failed: EROFS`,
      expect.stringMatching(/^shell exit [1-9]/),
      expect.stringMatching(/^permission .* selected yes \(allow_once\)$/),
      `wrote ${join(lib, 'approved.txt')} via client`,
      `write ${join(outside, 'client.txt')} failed: Refused: writing ${join(outside, 'client.txt')}: not approved`,
    ]);
    expect(readFileSync(join(lib, 'direct.txt'), 'utf8')).toBe('written directly\n');
    expect(readFileSync(join(lib, 'shell.txt'), 'utf8')).toBe('shell\n');
    expect(readFileSync(join(lib, 'approved.txt'), 'utf8')).toBe('approved\n');
    expect(existsSync(join(outside, 'direct.txt'))).toBe(false);
    expect(existsSync(join(outside, 'shell.txt'))).toBe(false);
    expect(existsSync(join(outside, 'client.txt'))).toBe(false);
    expect(existsSync(hook)).toBe(false);

    await gh.core.store.flush();
    const refusals = await gh.core.store.events({ type: 'sandbox_violation' });
    expect(refusals.filter((e) => e.sessionId === sessionId).map((e) => e.payload)).toContainEqual(
      expect.objectContaining({
        target: hook,
        reason: 'EROFS',
        protected: expect.objectContaining({ entry: '.git/hooks' }),
      }),
    );
    const written = await gh.core.store.events({ type: 'fs_write' });
    expect(written.filter((e) => e.sessionId === sessionId).map((e) => e.payload)).toEqual([
      expect.objectContaining({ path: join(lib, 'approved.txt') }),
    ]);
    await gh.api.call('closeSession', { sessionId });
  });

  it('an agent that does not say it takes them is not started with them, and the refusal is audited', async () => {
    const log = configure('plain', { prompts: [] });
    await expect(
      gh.api.call('createSession', {
        agentId: 'plain',
        cwd: project,
        additionalDirectories: [lib],
      }),
    ).rejects.toThrow(
      /agent "plain" did not start: it does not take additional folders \(its sessionCapabilities\.additionalDirectories is not advertised\)/,
    );
    // It was never told of them.
    expect(sessionNew(log)).toEqual([]);
    const plain = (await gh.api.call('listSessions', {})).filter((s) => s.agentId === 'plain');
    expect(plain.map((s) => [s.state, s.endReason])).toEqual([['closed', 'agent_exit']]);
    await gh.core.store.flush();
    const audited = await gh.core.store.events({ type: 'session_folders_refused' });
    expect(audited.map((e) => [e.agentId, e.payload])).toContainEqual([
      'plain',
      expect.objectContaining({ cwd: project, additionalDirectories: [lib] }),
    ]);
  });

  it('folders the person may not give are refused before anything starts', async () => {
    configure('extra', { additionalDirectories: true, prompts: [] });
    const started = gh.events.filter((e) => e.type === 'session_state').length;
    for (const [folder, problem] of [
      [home.replace(/\/home$/, ''), 'it holds the session folder'],
      [join(project, 'sub'), 'folder does not exist'],
      ['/usr', 'it is in the system folder /usr'],
      [gh.home, "folder is inside Gatehouse's own data folder"],
      ['lib', 'folder must be an absolute path'],
    ] as const) {
      await expect(
        gh.api.call('createSession', {
          agentId: 'extra',
          cwd: project,
          additionalDirectories: [lib, folder],
        }),
      ).rejects.toThrow(`additional folder ${folder}: ${problem}`);
    }
    // Nothing was spawned for them.
    expect(gh.events.filter((e) => e.type === 'session_state').length).toBe(started);
    // More than the contract bounds is refused at the door.
    await expect(
      gh.api.call('createSession', {
        agentId: 'extra',
        cwd: project,
        additionalDirectories: Array.from({ length: 9 }, () => lib),
      }),
    ).rejects.toThrow();
  });
});
