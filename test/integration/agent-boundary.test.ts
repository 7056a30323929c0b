// What an agent process can reach of Gatehouse: its environment, its reads and writes, its messages.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

type StartOptions = Parameters<typeof startScriptedSession>[1];

/** Payloads of the audited events of one type, oldest first. */
function eventsOf(session: ScriptedSession): (type: string) => Promise<unknown[]> {
  return async (type) =>
    (await session.gh.core.store.events({ type }))
      .sort((a, b) => a.seq - b.seq)
      .map((e) => e.payload);
}

/** Text chunks the agent sent, in order. */
function saidTexts(session: ScriptedSession): string[] {
  return session
    .log()
    .filter((l) => l.dir === 'out' && l.msg.method === 'session/update')
    .map(
      (l) =>
        (l.msg as { params?: { update?: { content?: { text?: string } } } }).params?.update?.content
          ?.text,
    )
    .filter((t): t is string => typeof t === 'string');
}

describe('agent boundary', () => {
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  it("the agent's environment holds neither GATEHOUSE_TOKEN nor other secrets of the core", async () => {
    process.env.GATEHOUSE_TOKEN = 'core-secret-token';
    process.env.SOME_CLOUD_SECRET = 'cloud-secret';
    try {
      session = await startScriptedSession({
        prompts: [
          [
            { type: 'env', name: 'GATEHOUSE_TOKEN' },
            { type: 'env', name: 'SOME_CLOUD_SECRET' },
            { type: 'env', name: 'PATH' },
          ],
        ],
      });
      await session.gh.api.call('prompt', { sessionId: session.sessionId, text: 'go' });
      expect(saidTexts(session)).toEqual([
        'env GATEHOUSE_TOKEN unset',
        'env SOME_CLOUD_SECRET unset',
        `env PATH=${process.env.PATH}`,
      ]);
    } finally {
      delete process.env.GATEHOUSE_TOKEN;
      delete process.env.SOME_CLOUD_SECRET;
    }
  });

  describe('reads', () => {
    let outside: string;
    let folder: string;
    beforeEach(() => {
      outside = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-outside-')));
      folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-work-')));
    });
    afterEach(async () => {
      await session?.close();
      session = undefined;
      rmSync(outside, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
    });

    async function startReading(
      steps: (folder: string) => ScriptStep[],
      options: StartOptions = {},
    ) {
      writeFileSync(join(outside, 'other.txt'), 'outside text');
      writeFileSync(join(folder, 'notes.txt'), 'line 1\nline 2\nline 3');
      writeFileSync(join(folder, '.env'), 'API_KEY=hunter2');
      symlinkSync(join(outside, 'other.txt'), join(folder, 'link.txt'));
      session = await startScriptedSession({ prompts: [steps(folder)] }, { ...options, folder });
      await session.gh.api.call('prompt', { sessionId: session.sessionId, text: 'go' });
      await session.gh.core.store.flush();
      return { folder, texts: saidTexts(session), events: eventsOf(session) };
    }

    it('not advertised: fs/read_text_file is "method not found", nothing is read, the refusal is audited', async () => {
      const { folder, texts, events } = await startReading((f) => [
        { type: 'readFile', path: join(f, 'notes.txt') },
      ]);
      expect(texts).toEqual([
        `read ${join(folder, 'notes.txt')} failed: -32601 "Method not found": fs/read_text_file`,
      ]);
      expect(await events('fs_read_refused')).toEqual([
        { path: join(folder, 'notes.txt'), reason: 'reads not advertised' },
      ]);
      expect(await events('fs_read')).toEqual([]);
      const init = session!.log().find((l) => l.dir === 'in' && l.msg.method === 'initialize');
      expect(init!.msg).toMatchObject({
        params: { clientCapabilities: { fs: { readTextFile: false } } },
      });
    });

    it('enabled: reads inside the folder are served and audited with their hash and decider', async () => {
      const { folder, texts, events } = await startReading(
        (f) => [{ type: 'readFile', path: join(f, 'notes.txt'), line: 2, limit: 1 }],
        { agent: { fs: { read: true } } },
      );
      const init = session!.log().find((l) => l.dir === 'in' && l.msg.method === 'initialize');
      expect(init!.msg).toMatchObject({
        params: { clientCapabilities: { fs: { readTextFile: true } } },
      });
      expect(texts).toEqual([`read ${join(folder, 'notes.txt')}: line 2`]);
      const whole = 'line 1\nline 2\nline 3';
      expect(await events('fs_read')).toEqual([
        {
          path: join(folder, 'notes.txt'),
          bytes: whole.length,
          sha256: createHash('sha256').update(whole).digest('hex'),
          decider: 'inside session folder',
        },
      ]);
    });

    it('enabled: outside the folder, through a link, secrets and denied paths are refused and audited', async () => {
      const { folder, texts, events } = await startReading(
        (f) => [
          { type: 'readFile', path: join(outside, 'other.txt') },
          { type: 'readFile', path: join(f, 'link.txt') },
          { type: 'readFile', path: join(f, '.env') },
          { type: 'readFile', path: join(f, 'notes.txt') },
        ],
        {
          agent: { fs: { read: true } },
          settings: {
            rules: [{ id: 'no-notes', action: 'deny', toolKind: 'read', path: 'notes.txt' }],
          },
        },
      );
      expect(texts).toHaveLength(4);
      for (const text of texts) expect(text).toMatch(/failed: -32602 Refused/);
      expect(texts.join('\n')).not.toContain('outside text');
      expect(texts.join('\n')).not.toContain('hunter2');
      const refused = (await events('fs_read_refused')) as { path: string; reason: string }[];
      expect(refused.map((r) => r.path)).toEqual([
        join(outside, 'other.txt'),
        join(folder, 'link.txt'),
        join(folder, '.env'),
        join(folder, 'notes.txt'),
      ]);
      expect(refused[0]!.reason).toBe('outside the session folder and no rule allows it');
      expect(refused[1]!.reason).toBe('outside the session folder and no rule allows it');
      expect(refused[2]!.reason).toMatch(/environment file/);
      expect(refused[3]!.reason).toMatch(/no-notes/);
      expect(await events('fs_read')).toEqual([]);
    });

    it('enabled: an allow rule opens a path outside the folder, and a secret only when it names it', async () => {
      const { texts, events } = await startReading(
        (f) => [
          { type: 'readFile', path: join(outside, 'other.txt') },
          { type: 'readFile', path: join(f, '.env') },
        ],
        {
          agent: { fs: { read: true } },
          settings: {
            rules: [
              { id: 'outside-ok', action: 'allow', toolKind: 'read', path: `${outside}/**` },
              { id: 'env-ok', action: 'allow', toolKind: 'read', path: '.env' },
            ],
          },
        },
      );
      expect(texts[0]).toMatch(/: outside text$/);
      expect(texts[1]).toMatch(/: API_KEY=hunter2$/);
      expect(((await events('fs_read')) as { decider: string }[]).map((e) => e.decider)).toEqual([
        'rule outside-ok',
        'rule env-ok',
      ]);
    });
  });

  it('a write through a link and `..` lands where the rule that allowed it looked, as the kernel resolves it', async () => {
    // `hop/..` is the parent of hop's target (sub), not the folder itself: text that lexically
    // names a file the rule does not cover must not be written there under the rule's allow.
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-boundary-write-')));
    try {
      mkdirSync(join(folder, 'sub/inner'), { recursive: true });
      symlinkSync(join(folder, 'sub/inner'), join(folder, 'hop'));
      session = await startScriptedSession(
        {
          prompts: [
            [
              {
                type: 'writeFile',
                path: `${folder}/hop/../made.txt`,
                content: 'made',
                via: 'client',
              },
            ],
          ],
        },
        {
          folder,
          settings: {
            rules: [{ id: 'sub-ok', action: 'allow', toolKind: 'edit', path: 'sub/**' }],
          },
        },
      );
      await session.gh.api.call('prompt', { sessionId: session.sessionId, text: 'go' });
      await session.gh.core.store.flush();
      expect(readFileSync(join(folder, 'sub/made.txt'), 'utf8')).toBe('made');
      expect(existsSync(join(folder, 'made.txt'))).toBe(false);
      const written = (await eventsOf(session)('fs_write')) as {
        path: string;
        allowedBy: string;
      }[];
      expect(written).toMatchObject([{ path: join(folder, 'sub/made.txt') }]);
    } finally {
      await session?.close();
      session = undefined;
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a permission request read together with the tool_call update that declares it is shown whole', async () => {
    session = await startScriptedSession({
      prompts: [
        [
          {
            type: 'raw',
            method: 'session/request_permission',
            params: {
              toolCall: { toolCallId: 'shell-1' },
              options: [{ optionId: 'no', name: 'No', kind: 'reject_once' }],
            },
            updateBefore: {
              sessionUpdate: 'tool_call',
              toolCallId: 'shell-1',
              title: 'Run the tests',
              kind: 'execute',
              status: 'pending',
              rawInput: { command: 'npm test' },
            },
          },
        ],
      ],
    });
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall).toMatchObject({ kind: 'execute', title: 'Run the tests' });
    expect(approval.command).toMatchObject({ command: 'npm test' });
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'no' });
    await turn;
  });

  describe('deep or huge messages', () => {
    const OPTIONS = [
      { optionId: 'yes', name: 'Yes', kind: 'allow_once' as const },
      { optionId: 'no', name: 'No', kind: 'reject_once' as const },
    ];
    const deepPermission = (depth: number): ScriptStep => ({
      type: 'raw',
      method: 'session/request_permission',
      params: {
        toolCall: { toolCallId: `deep-${depth}`, title: 'Read', kind: 'read', rawInput: '$NESTED' },
        options: OPTIONS,
      },
      nestDepth: depth,
    });
    const normalPermission: ScriptStep = {
      type: 'requestPermission',
      toolCall: { toolCallId: 'normal', title: 'Read notes', kind: 'read', locations: [] },
      options: OPTIONS,
    };

    it('a permission request nested 5,000 or 100,000 levels deep is refused as invalid params and audited; the next is answered', async () => {
      session = await startScriptedSession(
        { prompts: [[deepPermission(5_000), deepPermission(100_000), normalPermission]] },
        { settings: { rules: [{ id: 'reads', action: 'allow', toolKind: 'read' }] } },
      );
      const turn = await session.gh.api.call('prompt', {
        sessionId: session.sessionId,
        text: 'go',
      });
      expect(turn).toEqual({ stopReason: 'end_turn' });
      const texts = saidTexts(session);
      expect(texts[0]).toMatch(
        /^raw session\/request_permission refused: -32602 .*nested deeper than 64 levels/,
      );
      expect(texts[1]).toMatch(
        /^raw session\/request_permission refused: -32602 .*nested deeper than 64 levels/,
      );
      expect(texts[2]).toBe('permission normal: selected yes (allow_once)');
      await session.gh.core.store.flush();
      const refused = await session.gh.core.store.events({ type: 'malformed_request' });
      expect(refused).toHaveLength(2);
      for (const row of refused) {
        expect((row.payload as { problems: string[] }).problems[0]).toMatch(
          /nested deeper than 64 levels at \$\.toolCall\.rawInput/,
        );
        // A description of the shape, not the payload.
        expect(JSON.stringify(row.payload).length).toBeLessThan(1_000);
      }
    });

    it('deep fs/write_text_file and fs/read_text_file params are refused and audited; nothing is written', async () => {
      session = await startScriptedSession(
        {
          prompts: [
            [
              {
                type: 'raw',
                method: 'fs/write_text_file',
                params: { path: '/tmp/x', content: 'x', _meta: { a: '$NESTED' } },
                nestDepth: 5_000,
              },
              {
                type: 'raw',
                method: 'fs/read_text_file',
                params: { path: '/tmp/x', _meta: { a: '$NESTED' } },
                nestDepth: 100_000,
              },
            ],
          ],
        },
        { agent: { fs: { read: true } } },
      );
      await session.gh.api.call('prompt', { sessionId: session.sessionId, text: 'go' });
      const texts = saidTexts(session);
      expect(texts[0]).toMatch(
        /^raw fs\/write_text_file refused: -32602 .*nested deeper than 64 levels/,
      );
      expect(texts[1]).toMatch(
        /^raw fs\/read_text_file refused: -32602 .*nested deeper than 64 levels/,
      );
      await session.gh.core.store.flush();
      const refused = await session.gh.core.store.events({ type: 'malformed_request' });
      expect(refused.map((r) => (r.payload as { method: string }).method).sort()).toEqual([
        'fs/read_text_file',
        'fs/write_text_file',
      ]);
      expect(await session.gh.core.store.events({ type: 'fs_write' })).toEqual([]);
    });

    it('deep session/update notifications are dropped, audited once, and later updates still arrive', async () => {
      const deepUpdate: ScriptStep = {
        type: 'raw',
        method: 'session/update',
        notification: true,
        params: {
          update: { sessionUpdate: 'tool_call', toolCallId: 'd', title: 't', rawInput: '$NESTED' },
        },
        nestDepth: 100_000,
      };
      session = await startScriptedSession({
        prompts: [[deepUpdate, deepUpdate, deepUpdate, { type: 'text', text: 'still here' }]],
      });
      const turn = await session.gh.api.call('prompt', {
        sessionId: session.sessionId,
        text: 'go',
      });
      expect(turn).toEqual({ stopReason: 'end_turn' });
      const updates = session.gh.events.filter((e) => e.type === 'session_update');
      expect(
        updates.map((e) => (e as { update: { sessionUpdate: string } }).update.sessionUpdate),
      ).not.toContain('tool_call');
      expect(updates.some((e) => JSON.stringify(e).includes('still here'))).toBe(true);
      await session.gh.core.store.flush();
      const rows = await session.gh.core.store.events({ type: 'malformed_update' });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.payload).toMatchObject({
        problem: expect.stringMatching(/nested deeper than 64 levels/),
      });
    });
  });

  describe('an agent that ignores cancel', () => {
    const longTurn: ScriptStep[] = [
      { type: 'text', text: 'working' },
      { type: 'sleep', ms: 120_000 },
    ];

    it('is stopped after the grace period: the turn ends cancelled, the session ends agent_unresponsive', async () => {
      session = await startScriptedSession(
        { ignoreCancel: true, prompts: [longTurn] },
        { settings: { approvals: { cancelGraceSeconds: 1 } } },
      );
      const { gh, sessionId } = session;
      const started = gh.waitForEvent('session_update', (e) => e.sessionId === sessionId);
      const turn = gh.api.call('prompt', { sessionId, text: 'go' });
      await started;
      const pid = (gh.core.sessions.get(sessionId).process as { pid?: number }).pid!;
      const exited = gh.waitForEvent('agent_exited', (e) => e.sessionIds.includes(sessionId));
      await gh.api.call('cancelTurn', { sessionId });

      expect(await turn).toEqual({ stopReason: 'cancelled' });
      expect(gh.events).toContainEqual({ type: 'turn_ended', sessionId, stopReason: 'cancelled' });
      await exited;
      expect(() => process.kill(pid, 0)).toThrow();
      // Listed as ended, with why, for the rest of the day.
      expect(
        (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId),
      ).toMatchObject({ state: 'closed', endReason: 'agent_unresponsive' });
      await gh.core.store.flush();
      const rows = await gh.core.store.events({ type: 'agent_unresponsive' });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ sessionId, payload: { graceMs: 1_000 } });
    });

    it('a request the agent made after the cancel is answered cancelled, decided by agent_unresponsive', async () => {
      session = await startScriptedSession(
        {
          ignoreCancel: true,
          prompts: [
            [
              { type: 'text', text: 'working' },
              { type: 'sleep', ms: 800 },
              {
                type: 'requestPermission',
                toolCall: { toolCallId: 'late', title: 'Run', kind: 'execute' },
                options: [{ optionId: 'yes', name: 'Yes', kind: 'allow_once' }],
                wait: false,
              },
              { type: 'sleep', ms: 120_000 },
            ],
          ],
        },
        // Long enough that the request, sent 0.8 s after the cancel, arrives inside the grace
        // period on a loaded machine too.
        { settings: { approvals: { cancelGraceSeconds: 8 } } },
      );
      const { gh, sessionId } = session;
      const started = gh.waitForEvent('session_update', (e) => e.sessionId === sessionId);
      const turn = gh.api.call('prompt', { sessionId, text: 'go' });
      await started;
      await gh.api.call('cancelTurn', { sessionId });
      const approval = await gh.nextApproval();
      // The turn's end and the request's both come when the grace period is over, in no set order.
      const resolved = gh.waitForEvent(
        'permission_resolved',
        (e) => e.requestId === approval.requestId,
      );
      expect(await turn).toEqual({ stopReason: 'cancelled' });
      await resolved;
      expect(gh.core.pipeline.pending.size).toBe(0);
      await gh.core.store.flush();
      const detail = (await gh.core.store.historyDetail(approval.requestId))!;
      expect(detail.decider).toEqual({ type: 'agent_unresponsive' });
      expect(detail.reply).toEqual({ outcome: 'cancelled' });
    });

    it('an agent that honours cancel keeps its session', async () => {
      session = await startScriptedSession(
        { prompts: [longTurn] },
        { settings: { approvals: { cancelGraceSeconds: 1 } } },
      );
      const { gh, sessionId } = session;
      const started = gh.waitForEvent('session_update', (e) => e.sessionId === sessionId);
      const turn = gh.api.call('prompt', { sessionId, text: 'go' });
      await started;
      await gh.api.call('cancelTurn', { sessionId });
      expect(await turn).toEqual({ stopReason: 'cancelled' });
      // Longer than the grace period: the timer was disarmed when the turn ended.
      await new Promise((done) => setTimeout(done, 1_500));
      expect(gh.core.sessions.get(sessionId).state).toBe('idle');
      await gh.core.store.flush();
      expect(await gh.core.store.events({ type: 'agent_unresponsive' })).toEqual([]);
    });
  });
});
