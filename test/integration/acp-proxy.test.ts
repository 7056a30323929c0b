// `gatehouse acp` between a scripted editor (the ACP SDK's client side) and a scripted agent, with
// a headless core in its own process: what a person decides in Gatehouse, what the editor answers,
// what a rule decides, what the agent may write, and what is left when either side dies.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import {
  CLAUDE_MODES,
  scriptedAgentLaunch,
  type ScriptedAgentScript,
} from '../support/agents/scripted-agent';
import { startCoreProcess, type CoreProcess } from '../support/core-process';
import { startEditor, type ScriptedEditor } from '../support/scripted-editor';
import { cleanupAfterEach, freshDir, pendingOne } from '../support/steps';
import { databasePath } from '../../src/main/core/store/data-folder';

const CLI = resolve('bin/gatehouse.mjs');
const cleanup = cleanupAfterEach();

const fresh = (prefix: string): string => freshDir(cleanup, prefix);

const ASK_WRITE = (path: string): ScriptedAgentScript['prompts'] => [
  [
    {
      type: 'requestPermission',
      toolCall: {
        toolCallId: 'w1',
        title: `Write ${path}`,
        kind: 'edit',
        locations: [{ path }],
        content: [{ type: 'diff', path, oldText: null, newText: 'approved\n' }],
      },
      options: [
        { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
      onAllow: [{ type: 'writeFile', path, content: 'approved\n', via: 'client' }],
      onReject: [{ type: 'text', text: 'not written' }],
    },
  ],
];

interface Setup {
  home: string;
  folder: string;
  core: CoreProcess;
  api: HttpApi;
}

async function setup(
  script: ScriptedAgentScript,
  extra: Record<string, unknown> = {},
): Promise<Setup> {
  const home = fresh('gatehouse-proxy-');
  const folder = fresh('gatehouse-proxy-work-');
  const launch = scriptedAgentLaunch(script);
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      agents: {
        scripted: { command: launch.command, args: launch.args, env: launch.env, sandbox: 'off' },
      },
      ...extra,
    }),
  );
  const core = await startCoreProcess(home);
  cleanup.push(() => core.stop('SIGKILL'));
  const url = new URL(core.url);
  const fragment = new URLSearchParams(url.hash.slice(1));
  const api = new HttpApi(url.origin, fragment.get('token')!);
  await api.pair(fragment.get('pair')!, 'test person');
  return { home, folder, core, api };
}

function editorFor(home: string, folder: string, args = ['--agent', 'scripted']): ScriptedEditor {
  const editor = startEditor({
    command: process.execPath,
    args: [CLI, 'acp', ...args],
    env: { ...process.env, GATEHOUSE_HOME: home, GATEHOUSE_PORT: '0' },
    cwd: folder,
    name: 'test-editor',
  });
  cleanup.push(async () => {
    await editor.close();
    if (process.env.DEBUG_PROXY) process.stderr.write(editor.stderr());
  });
  return editor;
}

/** Audit events of one type, read beside the running core (WAL lets a reader in). */
function auditEvents(home: string, type: string): { payload: Record<string, unknown> }[] {
  const db = new Database(databasePath(home), { readonly: true });
  try {
    const rows = db
      .prepare('SELECT payload_json FROM events WHERE type = ? ORDER BY seq')
      .all(type) as {
      payload_json: string;
    }[];
    return rows.map((row) => ({
      payload: JSON.parse(row.payload_json) as Record<string, unknown>,
    }));
  } finally {
    db.close();
  }
}

describe('gatehouse acp', () => {
  beforeAll(() => {
    if (!existsSync('out/main/cli.js'))
      throw new Error('not built: run `npx electron-vite build` first');
  });

  it('a vote in Gatehouse decides; the editor, asked at the same time, is told to stop asking', async () => {
    const { home, folder, api } = await setup({ prompts: ASK_WRITE('approved.txt') });
    const editor = editorFor(home, folder);
    await editor.initialize();
    const sessionId = await editor.newSession(folder);
    const turn = editor.prompt(sessionId, 'write it');

    const shown = await editor.nextShown();
    const pending = await pendingOne(api, 15_000);
    const sessions = await api.call('listSessions', {});
    expect(sessions.find((s) => s.sessionId === pending.sessionId)).toMatchObject({
      via: { kind: 'editor', name: 'test-editor' },
      cwd: folder,
      agentId: 'scripted',
    });
    await api.call('vote', { requestId: pending.requestId, optionId: 'yes' });
    expect((await turn).stopReason).toBe('end_turn');
    await expect.poll(() => shown.signal.aborted).toBe(true);
    expect(readFileSync(join(folder, 'approved.txt'), 'utf8')).toBe('approved\n');
    expect(editor.writes).toEqual([{ path: join(folder, 'approved.txt'), content: 'approved\n' }]);
    expect((await api.call('listApprovals', {})).items).toEqual([]);

    // The editor's answer after the decision is a late vote: audited, changes nothing.
    shown.answer({ outcome: { outcome: 'selected', optionId: 'no' } });
    await expect
      .poll(() => auditEvents(home, 'late_vote').map((e) => e.payload), { timeout: 5000 })
      .toEqual([
        expect.objectContaining({ optionId: 'no', resolvedOptionId: 'yes', surface: 'editor' }),
      ]);
    const detail = await api.call('historyDetail', { requestId: pending.requestId });
    expect(detail.decider).toMatchObject({ type: 'person' });
    expect(detail.decider).not.toMatchObject({ surface: 'editor' });
  });

  it('the editor answers first: the agent acts on it, the queue clears, history names the editor', async () => {
    const { home, folder, api } = await setup({ prompts: ASK_WRITE('mine.txt') });
    const editor = editorFor(home, folder);
    await editor.initialize();
    const sessionId = await editor.newSession(folder);
    const turn = editor.prompt(sessionId, 'write it');
    const shown = await editor.nextShown();
    const pending = await pendingOne(api, 15_000);
    shown.answer({ outcome: { outcome: 'selected', optionId: 'no' } });
    await turn;
    expect(existsSync(join(folder, 'mine.txt'))).toBe(false);
    expect((await api.call('listApprovals', {})).items).toEqual([]);
    const detail = await api.call('historyDetail', { requestId: pending.requestId });
    expect(detail.decider).toMatchObject({ type: 'person', surface: 'editor' });
    expect(detail.reply).toMatchObject({ optionId: 'no' });
  });

  it('a deny rule decides with nobody asked, neither a person nor the editor', async () => {
    const { home, folder, api } = await setup(
      { prompts: ASK_WRITE('denied.txt') },
      { rules: [{ id: 'no-edits', action: 'deny', toolKind: 'edit' }] },
    );
    const editor = editorFor(home, folder);
    await editor.initialize();
    const sessionId = await editor.newSession(folder);
    await editor.prompt(sessionId, 'write it');
    expect(editor.shown).toEqual([]);
    expect(existsSync(join(folder, 'denied.txt'))).toBe(false);
    const page = await api.call('history', {});
    expect(page.items[0]).toMatchObject({ decider: { type: 'rule' } });
  });

  it('an agent the editor runs in a mode that does not ask is shown unguarded', async () => {
    const { home, folder, api } = await setup({
      name: 'claude-agent-acp',
      modes: CLAUDE_MODES,
      initialModeId: 'bypassPermissions',
      prompts: [],
    });
    const editor = editorFor(home, folder);
    await editor.initialize();
    await editor.newSession(folder);
    await expect
      .poll(async () => (await api.call('listSessions', {})).find((s) => s.via)?.unguarded, {
        timeout: 10_000,
      })
      .toMatch(/mode "bypassPermissions", which does not ask; only its editor can set it back/);
  });

  it('a write nobody approved is refused before it reaches the editor, and audited', async () => {
    const { home, folder, api } = await setup({
      prompts: [[{ type: 'writeFile', path: 'sneaky.txt', content: 'unasked', via: 'client' }]],
    });
    const editor = editorFor(home, folder);
    await editor.initialize();
    const sessionId = await editor.newSession(folder);
    await editor.prompt(sessionId, 'go');
    expect(editor.writes).toEqual([]);
    expect(existsSync(join(folder, 'sneaky.txt'))).toBe(false);
    const refusal = editor.updates
      .map((u) => u.update)
      .find(
        (u) =>
          u.sessionUpdate === 'agent_message_chunk' && JSON.stringify(u).includes('not approved'),
      );
    expect(refusal).toBeDefined();
    await expect
      .poll(() => auditEvents(home, 'fs_write_refused').map((e) => e.payload), { timeout: 5000 })
      .toEqual([
        expect.objectContaining({ path: join(folder, 'sneaky.txt'), reason: 'not approved' }),
      ]);
    void api;
  });
});
