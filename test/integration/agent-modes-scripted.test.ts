// An agent in a mode that approves by itself never asks Gatehouse anything. With a scripted agent
// that advertises its modes as claude-agent-acp does (session modes and a `mode` config option):
// one that starts in bypassPermissions is set back before the first prompt, one that switches
// itself mid-session is set back, and one that refuses leaves its session marked unguarded.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationPlanner } from '../../src/main/presence';
import {
  CLAUDE_MODES,
  type ScriptStep,
  type ScriptedAgentScript,
} from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const CLAUDE_LIKE: ScriptedAgentScript = {
  name: 'claude-agent-acp',
  modes: CLAUDE_MODES,
  modeConfigOption: true,
  autoApprove: { acceptEdits: ['edit'], auto: 'all', dontAsk: 'all', bypassPermissions: 'all' },
};

// As the renamed codex-acp 2.6 advertises itself: its name, its four modes (also its `mode` option).
const CODEX_26_LIKE: ScriptedAgentScript = {
  name: '@agentclientprotocol/codex-acp',
  modes: [
    {
      id: 'read-only',
      name: 'Read-only',
      description: 'Requires approval to edit files and access the internet.',
    },
    {
      id: 'workspace-write',
      name: 'Workspace access',
      description:
        'Edit workspace files; ask before writing outside the workspace or accessing the network.',
    },
    {
      id: 'agent',
      name: 'Auto review',
      description: 'Only ask for actions detected as potentially unsafe',
    },
    {
      id: 'agent-full-access',
      name: 'Full access',
      description: 'Unrestricted access to the internet and any file on your computer',
    },
  ],
  initialModeId: 'read-only',
  modeConfigOption: true,
  autoApprove: { agent: 'all', 'agent-full-access': 'all' },
};

function writeRequest(path: string): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: {
      toolCallId: 'write-1',
      kind: 'edit',
      title: `Write ${path}`,
      locations: [{ path }],
    },
    options: [
      { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
      { optionId: 'no', name: 'No', kind: 'reject_once' },
    ],
  };
}

describe('agents keep asking', () => {
  let folder: string;
  let session: ScriptedSession | undefined;

  beforeEach(() => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-work-')));
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  const events = async (type: string) => {
    await session!.gh.core.store.flush();
    return await session!.gh.core.store.events({ type, sessionId: session!.sessionId });
  };
  const sent = (method: string) =>
    session!.log().filter((l) => l.dir === 'in' && l.msg.method === method);

  it('an agent that starts in bypassPermissions is set back to asking before the first prompt, audited', async () => {
    const target = join(folder, 'a.txt');
    session = await startScriptedSession(
      { ...CLAUDE_LIKE, initialModeId: 'bypassPermissions', prompts: [[writeRequest(target)]] },
      { folder },
    );
    const { gh, sessionId } = session;
    expect(sent('session/prompt')).toEqual([]);
    const setMode = sent('session/set_mode');
    expect(setMode.map((l) => (l.msg as { params?: unknown }).params)).toEqual([
      expect.objectContaining({ modeId: 'default' }),
    ]);
    expect((await events('agent_mode_reset'))[0]?.payload).toEqual({
      via: 'mode',
      from: 'bypassPermissions',
      to: 'default',
    });
    const info = (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId);
    expect(info?.unguarded).toBeUndefined();

    // It asks now: the write reaches a person.
    const turn = gh.api.call('prompt', { sessionId, text: 'write' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('edit');
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'no' });
    await turn;
  });

  it('an agent that switches itself to a mode that does not ask is set back, audited', async () => {
    const target = join(folder, 'b.txt');
    session = await startScriptedSession(
      {
        ...CLAUDE_LIKE,
        prompts: [
          [
            { type: 'switchMode', modeId: 'dontAsk' },
            { type: 'sleep', ms: 500 },
            writeRequest(target),
          ],
        ],
      },
      { folder },
    );
    const { gh, sessionId } = session;
    expect(await events('agent_mode_reset')).toEqual([]);
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('edit');
    expect((await events('agent_mode_reset')).map((e) => e.payload)).toContainEqual({
      via: 'mode',
      from: 'dontAsk',
      to: 'default',
    });
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'no' });
    await turn;
  });

  it('claude-agent-acp starting in auto (its own default, where a classifier decides) is set back to asking, audited', async () => {
    session = await startScriptedSession({ ...CLAUDE_LIKE, initialModeId: 'auto' }, { folder });
    expect((await events('agent_mode_reset')).map((e) => e.payload)).toEqual([
      { via: 'mode', from: 'auto', to: 'default' },
    ]);
    expect(sent('session/prompt')).toEqual([]);
  });

  it('codex 2.6 switching itself to agent, then to agent-full-access, is set back to read-only each time, audited', async () => {
    const target = join(folder, 'c.txt');
    session = await startScriptedSession(
      {
        ...CODEX_26_LIKE,
        prompts: [
          [{ type: 'switchMode', modeId: 'agent' }],
          [{ type: 'switchMode', modeId: 'agent-full-access' }],
          [writeRequest(target)],
        ],
      },
      { folder },
    );
    const { gh, sessionId } = session;
    const resets = async () => (await events('agent_mode_reset')).map((e) => e.payload);
    expect(await resets()).toEqual([]);
    await gh.api.call('prompt', { sessionId, text: 'one' });
    await vi.waitFor(async () => expect(await resets()).toHaveLength(1), { timeout: 10_000 });
    await gh.api.call('prompt', { sessionId, text: 'two' });
    await vi.waitFor(async () => expect(await resets()).toHaveLength(2), { timeout: 10_000 });
    expect(await resets()).toEqual(
      expect.arrayContaining([
        { via: 'mode', from: 'agent', to: 'read-only' },
        { via: 'mode', from: 'agent-full-access', to: 'read-only' },
      ]),
    );
    const info = (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId);
    expect(info?.unguarded).toBeUndefined();
    expect(info?.configOptions?.find((o) => o.id === 'mode')).toMatchObject({
      currentValue: 'read-only',
    });

    // Back in read-only, its write reaches a person.
    const turn = gh.api.call('prompt', { sessionId, text: 'three' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('edit');
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'no' });
    await turn;
  });

  it('an agent that refuses to leave such a mode leaves its session unguarded, shown and notified', async () => {
    session = await startScriptedSession(
      { ...CLAUDE_LIKE, initialModeId: 'bypassPermissions', refuseModeChange: true },
      { folder },
    );
    const { gh, sessionId } = session;
    const info = (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId);
    expect(info?.unguarded).toMatch(/refused to leave mode "bypassPermissions"/);
    const unguarded = await events('agent_unguarded');
    expect(unguarded).toHaveLength(1);
    expect(unguarded[0]?.payload).toMatchObject({ reason: info?.unguarded });

    // Every surface hears it in the session's state; the notifications show it.
    const state = gh.events.find(
      (e) => e.type === 'session_state' && e.session.sessionId === sessionId,
    );
    expect(state).toMatchObject({ session: { unguarded: info?.unguarded } });
    const shown = new NotificationPlanner().plan(gh.events);
    expect(shown).toEqual([
      expect.objectContaining({
        type: 'show',
        notification: expect.objectContaining({
          key: `unguarded:${sessionId}`,
          urgency: 'critical',
        }),
      }),
    ]);
  });
});
