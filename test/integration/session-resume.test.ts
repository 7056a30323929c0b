// Sessions outlive a restart: a core stopped with a session of an agent that can resume (or load)
// it lists that session after it starts again on the same data folder, with its transcript, and
// takes it up under today's settings and checks. A replay cannot ask again or be shown twice; an
// agent that cannot resume is not offered; a person's close reaches the agent as session/close.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transcript } from '../../src/shared/transcript';
import {
  scriptedAgentConfig,
  type ScriptedAgentScript,
  type ScriptStep,
} from '../support/agents/scripted-agent';
import { bwrapMissing } from '../support/bwrap';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

const OPTIONS = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
];

const asks = (id: string, after: string): ScriptStep[] => [
  { type: 'text', text: `turn ${id} starts` },
  {
    type: 'requestPermission',
    toolCall: { toolCallId: id, title: `run ${id}`, kind: 'execute', rawInput: { command: id } },
    options: OPTIONS,
    onAllow: [{ type: 'text', text: after }],
    onReject: [{ type: 'text', text: `${id} refused` }],
  },
];

let dirs: string[] = [];
let gh: TestGatehouse | undefined;
afterEach(async () => {
  await gh?.close();
  gh = undefined;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

const fresh = (name: string): string => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `gatehouse-resume-${name}-`)));
  dirs.push(dir);
  return dir;
};

interface Setup {
  home: string;
  work: string;
  kept: string;
  logFile: string;
  extra: string;
}

function setup(): Setup {
  const logs = fresh('log');
  return {
    home: fresh('home'),
    work: fresh('work'),
    kept: fresh('kept'),
    logFile: join(logs, 'agent.jsonl'),
    extra: fresh('extra'),
  };
}

/** A core on the set-up data folder whose agent `s` runs `script`, writable where `allowWrite` says. */
function core(s: Setup, script: ScriptedAgentScript, allowWrite: string[]) {
  return startGatehouse(
    {
      agents: {
        s: {
          ...scriptedAgentConfig(script, { logFile: s.logFile }),
          allowWrite: [join(s.logFile, '..'), s.kept, ...allowWrite],
        },
      },
    },
    {},
    { home: s.home },
  );
}

/** One turn whose one request a person allows. */
async function turnAllowed(g: TestGatehouse, sessionId: string, text: string): Promise<void> {
  const turn = g.api.call('prompt', { sessionId, text });
  const approval = await g.nextApproval((a) => a.sessionId === sessionId);
  await g.api.call('vote', { requestId: approval.requestId, optionId: 'yes' });
  expect(await turn).toEqual({ stopReason: 'end_turn' });
}

const texts = (t: Transcript): string[] =>
  t.entries.flatMap((e) => (e.kind === 'user' || e.kind === 'agent' ? [e.text] : []));
const count = (all: string[], part: string): number => all.filter((t) => t.includes(part)).length;

function agentLog(s: Setup): { dir: string; msg: { method?: string; params?: unknown } }[] {
  return readFileSync(s.logFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { dir: string; msg: { method?: string; params?: unknown } });
}

describe.skipIf(bwrapMissing('session resume'))('sessions outlive a restart', () => {
  it('a session of an agent that resumes is listed after a restart with its transcript, resumed under today’s sandbox, and asks again', async () => {
    const s = setup();
    const script: ScriptedAgentScript = {
      sessions: { dir: s.kept, resume: true, load: true, close: true },
      prompts: [
        asks('one', 'one ran'),
        [
          ...asks('two', 'two ran'),
          // The folder writable before the restart is not any more: today's sandbox holds it.
          { type: 'direct', action: 'write', path: join(s.extra, 'after-restart.txt') },
        ],
      ],
    };
    gh = await core(s, script, [s.extra]);
    const { sessionId } = await gh.api.call('createSession', { agentId: 's', cwd: s.work });
    await turnAllowed(gh, sessionId, 'first words');
    const acpSessionId = gh.core.sessions.get(sessionId).acpSessionId;
    await gh.close();

    // The same data folder, the sandbox tightened meanwhile.
    gh = await core(s, script, []);
    const listed = (await gh.api.call('listSessions', {})).find((x) => x.sessionId === sessionId);
    expect(listed).toMatchObject({ state: 'closed', endReason: 'shutdown', resumable: 'resume' });
    const kept = await gh.api.call('getTranscript', { sessionId });
    expect(count(texts(kept), 'first words')).toBe(1);
    expect(count(texts(kept), 'one ran')).toBe(1);
    expect(kept.entries.some((e) => e.kind === 'decision' && e.outcome === 'allowed')).toBe(true);

    const resumed = await gh.api.call('resumeSession', { sessionId });
    expect(resumed).toMatchObject({ sessionId, state: 'idle', resumed: { how: 'resume' } });
    expect(resumed.resumable).toBeUndefined();
    expect(resumed.sandbox.writable).not.toContain(s.extra);
    expect(resumed.resumed!.changes.join('\n')).toContain('writable folders');
    const toAgent = agentLog(s).filter((l) => l.dir === 'in' && l.msg.method === 'session/resume');
    expect(toAgent).toHaveLength(1);
    expect(toAgent[0]!.msg.params).toMatchObject({ sessionId: acpSessionId, cwd: s.work });
    expect(agentLog(s).some((l) => l.msg.method === 'session/load')).toBe(false);

    await turnAllowed(gh, sessionId, 'second words');
    const after = texts(await gh.api.call('getTranscript', { sessionId }));
    expect(count(after, 'first words')).toBe(1);
    expect(count(after, 'one ran')).toBe(1);
    expect(count(after, 'two ran')).toBe(1);
    expect(after.join('\n')).toMatch(/direct write .*after-restart\.txt failed/);

    await gh.api.call('closeSession', { sessionId });
    const closes = agentLog(s).filter((l) => l.dir === 'in' && l.msg.method === 'session/close');
    expect(closes).toHaveLength(1);
    expect(closes[0]!.msg.params).toMatchObject({ sessionId: acpSessionId });
    await gh.core.store.flush();
    const [resumedEvent] = await gh.core.store.events({ type: 'session_resumed', sessionId });
    expect(resumedEvent!.payload).toMatchObject({
      acpSessionId,
      by: { clientId: expect.any(String), identityProven: true },
    });
    const [closed] = await gh.core.store.events({ type: 'session_closed', sessionId });
    expect(closed!.payload).toMatchObject({ acpClose: 'ok', by: { identityProven: true } });
    expect(await gh.core.store.verifyChain()).toMatchObject({ ok: true });

    // Closed by a person: not offered again after another restart.
    await gh.close();
    gh = await core(s, script, []);
    const again = await gh.api.call('listSessions', {});
    expect(again.find((x) => x.sessionId === sessionId)).toBeUndefined();
  });

  it('a load replays the conversation once: not shown again, and its permission request refused and audited', async () => {
    const s = setup();
    const script: ScriptedAgentScript = {
      sessions: { dir: s.kept, load: true, replayRequest: true },
      prompts: [asks('one', 'one ran'), asks('two', 'two ran')],
    };
    gh = await core(s, script, []);
    const { sessionId } = await gh.api.call('createSession', { agentId: 's', cwd: s.work });
    await turnAllowed(gh, sessionId, 'first words');
    await gh.close();

    gh = await core(s, script, []);
    const listed = (await gh.api.call('listSessions', {})).find((x) => x.sessionId === sessionId);
    expect(listed?.resumable).toBe('load');
    const resumed = await gh.api.call('resumeSession', { sessionId });
    expect(resumed.resumed).toMatchObject({ how: 'load', changes: [] });
    const shown = texts(await gh.api.call('getTranscript', { sessionId }));
    expect(count(shown, 'first words')).toBe(1);
    expect(count(shown, 'one ran')).toBe(1);
    // The agent heard its replayed request refused; what it said during the load is not shown.
    expect(count(shown, 'replay request')).toBe(0);
    const said = agentLog(s).filter(
      (l) =>
        l.dir === 'out' &&
        JSON.stringify(l.msg.params ?? '').includes('replay request: refused -32600'),
    );
    expect(said).toHaveLength(1);
    expect(gh.core.pipeline.pending.list()).toHaveLength(0);

    await turnAllowed(gh, sessionId, 'second words');
    const after = texts(await gh.api.call('getTranscript', { sessionId }));
    expect(count(after, 'one ran')).toBe(1);
    expect(count(after, 'two ran')).toBe(1);
    await gh.core.store.flush();
    const [loaded] = await gh.core.store.events({ type: 'session_loaded', sessionId });
    expect(loaded!.payload).toMatchObject({ refusedRequests: 1 });
    expect((loaded!.payload as { replayedUpdates: number }).replayedUpdates).toBeGreaterThan(3);
    expect(await gh.core.store.events({ type: 'replay_request_refused', sessionId })).toHaveLength(
      1,
    );
    // Nothing of the replay became a request or a decision of its own.
    const history = await gh.api.call('history', { sessionId });
    expect(history.items.map((i) => i.title).sort()).toEqual(['run one', 'run two']);
  });

  it('a session of an agent that does not advertise resume or load is not offered', async () => {
    const s = setup();
    const script: ScriptedAgentScript = {
      sessions: { dir: s.kept, close: true, list: true },
      prompts: [asks('one', 'one ran')],
    };
    gh = await core(s, script, []);
    const { sessionId } = await gh.api.call('createSession', { agentId: 's', cwd: s.work });
    await turnAllowed(gh, sessionId, 'first words');
    await gh.close();

    gh = await core(s, script, []);
    const listed = await gh.api.call('listSessions', {});
    expect(listed.find((x) => x.sessionId === sessionId)).toBeUndefined();
    await expect(gh.api.call('resumeSession', { sessionId })).rejects.toMatchObject({
      status: 404,
    });
  });
});
