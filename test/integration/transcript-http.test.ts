// A session's transcript is kept in the core: any client of the HTTP API reads the same one, and
// a session another client started is listed for everyone.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

let session: ScriptedSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

function editStep(path: string): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: {
      toolCallId: 'write-1',
      kind: 'edit',
      title: `Write ${path}`,
      locations: [{ path }],
      content: [{ type: 'diff', path, oldText: null, newText: 'hi\n' }],
      rawInput: { path, content: 'hi\n' },
    },
    options: [
      { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
      { optionId: 'no', name: 'No', kind: 'reject_once' },
    ],
    onAllow: [{ type: 'writeFile', path, content: 'hi\n' }],
  } as ScriptStep;
}

describe('transcripts over HTTP', () => {
  it('a session started by one client is listed for another, with the same transcript', async () => {
    session = await startScriptedSession({
      prompts: [
        [
          { type: 'text', text: 'Writing ' },
          { type: 'text', text: '<b>a.txt</b>' },
          {
            type: 'toolCall',
            toolCallId: 'write-1',
            title: 'Write a.txt',
            kind: 'edit',
            status: 'pending',
          },
          editStep('a.txt'),
          { type: 'toolCallUpdate', update: { toolCallId: 'write-1', status: 'completed' } },
        ],
      ],
    });
    const { gh, sessionId } = session;
    const other = await gh.client({ paired: false });
    expect((await other.call('listSessions', {})).map((s) => s.sessionId)).toContain(sessionId);

    const turn = gh.api.call('prompt', { sessionId, text: 'write a.txt please' });
    const approval = await gh.nextApproval();
    expect((await other.call('listSessions', {}))[0]).toMatchObject({
      sessionId,
      state: 'prompting',
      pendingCount: 1,
    });
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'yes' });
    expect(await turn).toEqual({ stopReason: 'end_turn' });

    const transcript = await other.call('getTranscript', { sessionId });
    const kinds = transcript.entries.map((e) => e.kind);
    expect(kinds.slice(0, 4)).toEqual(['user', 'agent', 'tool', 'decision']);
    const [user, agent, tool, decision] = transcript.entries;
    expect(user).toMatchObject({ text: 'write a.txt please' });
    expect(agent).toMatchObject({ text: 'Writing <b>a.txt</b>' });
    expect(tool).toMatchObject({
      toolCallId: 'write-1',
      status: 'completed',
      diffs: [{ path: 'a.txt', oldText: null, newText: 'hi\n' }],
    });
    expect(decision).toMatchObject({
      requestId: approval.requestId,
      toolCallId: 'write-1',
      outcome: 'allowed',
      decider: { type: 'person' },
    });
    // The other client reads the same bytes, and `since` only what changed after.
    expect(await gh.api.call('getTranscript', { sessionId })).toEqual(transcript);
    expect(
      (await other.call('getTranscript', { sessionId, since: transcript.rev })).entries,
    ).toEqual([]);
    expect(
      gh.events.some((e) => e.type === 'transcript_changed' && e.sessionId === sessionId),
    ).toBe(true);
  });

  it('an ended session stays listed with why it ended, and its transcript stays readable', async () => {
    session = await startScriptedSession({ prompts: [[{ type: 'text', text: 'bye' }]] });
    const { gh, sessionId } = session;
    await gh.api.call('prompt', { sessionId, text: 'hello' });
    await gh.api.call('closeSession', { sessionId });
    const [info] = await gh.api.call('listSessions', {});
    expect(info).toMatchObject({ sessionId, state: 'closed', endReason: 'session_closed' });
    expect(info!.endedAt).toBeGreaterThanOrEqual(info!.createdAt);
    const { entries } = await gh.api.call('getTranscript', { sessionId });
    expect(entries.map((e) => e.kind)).toEqual(['user', 'agent']);
  });

  it('an unknown session has no transcript', async () => {
    session = await startScriptedSession({ prompts: [] });
    await expect(session.gh.api.call('getTranscript', { sessionId: 'nope' })).rejects.toThrow(
      /no transcript/,
    );
  });
});

describe('starting a session: the folder and the agent are checked, and errors say what is wrong', () => {
  it('a missing folder, a file and a command that does not exist are refused', async () => {
    session = await startScriptedSession({ prompts: [] });
    const { gh, folder } = session;
    const file = join(folder, 'file.txt');
    writeFileSync(file, 'x');
    const start = (cwd: string, agentId = 's') => gh.api.call('createSession', { agentId, cwd });
    await expect(start(join(folder, 'missing'))).rejects.toThrow(/folder does not exist/);
    await expect(start(file)).rejects.toThrow(/not a folder/);
    const before = (await gh.api.call('listSessions', {})).length;

    gh.core.settings.agents['ghost'] = {
      ...gh.core.settings.agents['s']!,
      command: '/nonexistent/agent-command',
    };
    await expect(start(folder, 'ghost')).rejects.toThrow(
      /agent "ghost" did not start: it exited \(code -?\d+\): .*\/nonexistent\/agent-command/,
    );
    const ended = (await gh.api.call('listSessions', {})).filter((s) => s.agentId === 'ghost');
    expect(ended).toMatchObject([{ state: 'closed', endReason: 'agent_exit' }]);
    expect(before).toBe(1);
  });
});

// root reads every folder whatever its mode: there is nothing to refuse.
it.skipIf(process.getuid?.() === 0)(
  'a folder its user cannot read is refused before the agent starts',
  async () => {
    session = await startScriptedSession({ prompts: [] });
    const locked = join(session.folder, 'locked');
    mkdirSync(locked, { mode: 0o000 });
    await expect(
      session.gh.api.call('createSession', { agentId: 's', cwd: locked }),
    ).rejects.toThrow(/not readable/);
    expect(session.gh.core.sessions.agentProcesses()).toHaveLength(1);
  },
);
