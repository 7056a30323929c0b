// An agent's questions (ACP elicitation/create) through the real core, the HTTP API and a scripted
// agent: advertised, shown, answered, declined, timed out and refused, each as the protocol says,
// and each in the audit.
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsInput } from '../../src/shared/settings';
import type { JsonValue, ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const FORM = {
  type: 'object',
  title: 'Release',
  properties: {
    name: { type: 'string', title: 'Release name', minLength: 2, maxLength: 40 },
    count: { type: 'integer', title: 'How many', minimum: 1, maximum: 5, default: 2 },
    publish: { type: 'boolean', title: 'Publish now', default: false },
    channel: {
      type: 'string',
      title: 'Channel',
      oneOf: [
        { const: 'beta', title: 'Beta testers' },
        { const: 'stable', title: 'Everyone' },
      ],
    },
  },
  required: ['name', 'channel'],
};

function ask(params: { [key: string]: JsonValue }, pad?: number): ScriptStep {
  return {
    type: 'raw',
    method: 'elicitation/create',
    params,
    ...(pad ? { pad } : {}),
  } as ScriptStep;
}

const formQuestion = ask({ mode: 'form', message: 'Name the release', requestedSchema: FORM });
const urlQuestion = ask({
  mode: 'url',
  message: 'Sign in to the registry',
  elicitationId: 'el-1',
  url: 'https://auth.example.com/device?code=42',
});

describe('questions from a scripted agent', () => {
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function start(steps: ScriptStep[], settings: Partial<SettingsInput> = {}) {
    session = await startScriptedSession({ prompts: [steps] }, { settings });
    return session;
  }

  /** What the agent read in answer to its n-th raw request. */
  function answerTo(s: ScriptedSession, n: number): { result?: unknown; error?: unknown } {
    const line = s.log().find((l) => l.dir === 'in' && (l.msg.id as unknown) === `raw-${n}`);
    if (!line) throw new Error(`no answer to raw-${n}`);
    const { result, error } = line.msg as { result?: unknown; error?: unknown };
    return result === undefined ? { error } : { result };
  }

  /** The audit's events of one type, oldest first. */
  async function events(s: ScriptedSession, type: string) {
    const newestFirst = await s.gh.core.store.events({ type });
    return newestFirst.reverse().map((e) => e.payload as Record<string, never>);
  }

  it('advertises form and URL questions in initialize', async () => {
    const s = await start([{ type: 'text', text: 'hi' }]);
    const init = s.log().find((l) => l.dir === 'in' && l.msg.method === 'initialize');
    const params = (init?.msg as { params?: { clientCapabilities?: unknown } }).params;
    expect(params?.clientCapabilities).toMatchObject({ elicitation: { form: {}, url: {} } });
  });

  it('a form is shown, a wrong answer is refused, the right one reaches the agent exactly', async () => {
    const s = await start([formQuestion]);
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    const approval = await s.gh.nextApproval((a) => !!a.question);
    expect(approval.question).toMatchObject({ mode: 'form', message: 'Name the release' });
    const form = approval.question?.mode === 'form' ? approval.question.form : null;
    expect(form?.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['name', 'string', true],
      ['count', 'integer', false],
      ['publish', 'boolean', false],
      ['channel', 'string', true],
    ]);
    // Outside the form: refused, audited, and the question still waits.
    await expect(
      s.gh.api.call('answerQuestion', {
        requestId: approval.requestId,
        action: 'accept',
        content: { name: 'x', count: 9, channel: 'nightly' },
      }),
    ).rejects.toThrow(/name: at least 2 characters.*count: at most 5.*channel: not one of/);
    // A plain vote cannot accept a question without its values.
    await expect(
      s.gh.api.call('vote', { requestId: approval.requestId, optionId: 'accept' }),
    ).rejects.toThrow(/answerQuestion/);
    expect(s.gh.core.pipeline.pending.get(approval.requestId)).toBeDefined();
    const content = { name: 'v2.0', count: 3, publish: true, channel: 'beta' };
    const outcome = await s.gh.api.call('answerQuestion', {
      requestId: approval.requestId,
      action: 'accept',
      content,
    });
    expect(outcome).toMatchObject({ kind: 'resolved', resolvedOptionId: 'accept' });
    await turn;
    expect(answerTo(s, 1)).toEqual({ result: { action: 'accept', content } });
    expect(await events(s, 'question_asked')).toMatchObject([
      { mode: 'form', message: 'Name the release' },
    ]);
    expect(await events(s, 'question_answer_refused')).toHaveLength(1);
    // A question is neither a tool call nor a decision of one in the transcript.
    const { entries } = await s.gh.api.call('getTranscript', { sessionId: s.sessionId });
    expect(entries.filter((e) => e.kind === 'decision' || e.kind === 'tool')).toEqual([]);
    expect(await events(s, 'question_answered')).toMatchObject([
      { fields: content, decider: { type: 'person' } },
    ]);
  });

  it('a declined form answers decline, with nothing of the form', async () => {
    const s = await start([formQuestion]);
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    const approval = await s.gh.nextApproval((a) => !!a.question);
    await s.gh.api.call('answerQuestion', { requestId: approval.requestId, action: 'decline' });
    await turn;
    expect(answerTo(s, 1)).toEqual({ result: { action: 'decline' } });
    expect(await events(s, 'question_declined')).toHaveLength(1);
  });

  it('a question no one answers ends as cancel, never as an answer', async () => {
    const s = await start([formQuestion], { approvals: { timeoutSeconds: 1 } });
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    await s.gh.nextApproval((a) => !!a.question);
    await turn;
    expect(answerTo(s, 1)).toEqual({ result: { action: 'cancel' } });
    expect(await events(s, 'question_timed_out')).toMatchObject([
      { reason: 'timeout', decider: { type: 'timeout' } },
    ]);
    expect(s.gh.core.pipeline.pending.size).toBe(0);
  });

  it('a link question shows its host; accepted without values, or declined', async () => {
    const finished = (elicitationId: JsonValue): ScriptStep =>
      ({
        type: 'raw',
        method: 'elicitation/complete',
        params: { elicitationId },
        notification: true,
      }) as ScriptStep;
    const s = await start([urlQuestion, urlQuestion, finished('el-1'), finished(42)]);
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    const first = await s.gh.nextApproval((a) => !!a.question);
    expect(first.question).toMatchObject({
      mode: 'url',
      host: 'auth.example.com',
      url: 'https://auth.example.com/device?code=42',
      elicitationId: 'el-1',
    });
    await expect(
      s.gh.api.call('answerQuestion', {
        requestId: first.requestId,
        action: 'accept',
        content: { code: '42' },
      }),
    ).rejects.toThrow(/without values/);
    await s.gh.api.call('answerQuestion', { requestId: first.requestId, action: 'accept' });
    const second = await s.gh.nextApproval((a) => !!a.question && a.requestId !== first.requestId);
    await s.gh.api.call('answerQuestion', { requestId: second.requestId, action: 'decline' });
    await turn;
    expect(answerTo(s, 1)).toEqual({ result: { action: 'accept' } });
    expect(answerTo(s, 2)).toEqual({ result: { action: 'decline' } });
    expect(await events(s, 'question_asked')).toMatchObject([
      { mode: 'url', host: 'auth.example.com' },
      { mode: 'url', host: 'auth.example.com' },
    ]);
    // The agent's word that a link question finished is kept, a malformed one too; it answers nothing.
    await s.gh.core.store.flush();
    expect(await events(s, 'question_completed')).toMatchObject([
      { elicitationId: 'el-1' },
      { malformed: [expect.any(String)] },
    ]);
    expect(s.gh.core.pipeline.pending.size).toBe(0);
  });

  it('under bypass a question still waits for a person: no mode or rule answers it', async () => {
    session = await startScriptedSession(
      { prompts: [[formQuestion]] },
      { agent: { bypassPermissions: true } },
    );
    const s = session;
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    const approval = await s.gh.nextApproval((a) => !!a.question);
    // Judged again (as after a rule, grant or mode changes), under bypass: still not answered.
    expect(s.gh.core.pipeline.rejudgePending()).toBe(0);
    expect(s.gh.core.pipeline.pending.get(approval.requestId)).toBeDefined();
    await s.gh.api.call('answerQuestion', { requestId: approval.requestId, action: 'decline' });
    await turn;
    expect(answerTo(s, 1)).toEqual({ result: { action: 'decline' } });
  });

  it('a cancelled turn ends its question as cancel', async () => {
    const s = await start([formQuestion]);
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    await s.gh.nextApproval((a) => !!a.question);
    await s.gh.api.call('cancelTurn', { sessionId: s.sessionId });
    await turn;
    expect(answerTo(s, 1)).toEqual({ result: { action: 'cancel' } });
    expect(await events(s, 'question_cancelled')).toMatchObject([
      { reason: 'agent_cancelled', decider: { type: 'turn_cancelled' } },
    ]);
  });

  it('under consensus, an unpaired client cannot answer; the first paired answer decides', async () => {
    const s = await start([formQuestion], { policy: { permissionStrategy: 'consensus' } });
    // A second paired client: consensus would wait for two votes on a request.
    await s.gh.client({ label: 'phone' });
    const unpaired = await s.gh.client({ paired: false, label: 'script' });
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    const approval = await s.gh.nextApproval((a) => !!a.question);
    const content = { name: 'v3', channel: 'stable' };
    await expect(
      unpaired.call('answerQuestion', { requestId: approval.requestId, action: 'accept', content }),
    ).rejects.toThrow(/paired client/);
    expect(
      await s.gh.api.call('answerQuestion', {
        requestId: approval.requestId,
        action: 'accept',
        content,
      }),
    ).toMatchObject({ kind: 'resolved', resolvedOptionId: 'accept' });
    await turn;
    expect(answerTo(s, 1)).toEqual({ result: { action: 'accept', content } });
  });

  it('refuses what a question may not be, tells the agent why, and audits it', async () => {
    const s = await start([
      // Outside the subset: a nested object.
      ask({
        mode: 'form',
        message: 'Nested',
        requestedSchema: {
          type: 'object',
          properties: { address: { type: 'object', properties: { street: { type: 'string' } } } },
        },
      }),
      // 10 MB in one description.
      ask(
        {
          mode: 'form',
          message: 'Large',
          requestedSchema: {
            type: 'object',
            properties: { a: { type: 'string', description: '$PAD' } },
          },
        },
        10 * 1024 * 1024,
      ),
      // A password field.
      ask({
        mode: 'form',
        message: 'Sign in',
        requestedSchema: {
          type: 'object',
          properties: { user: { type: 'string' }, pw: { type: 'string', title: 'Pass word' } },
        },
      }),
      // A link whose host is not what it reads as.
      ask({
        mode: 'url',
        message: 'Open',
        elicitationId: 'el-2',
        url: 'https://github.com@evil.example/',
      }),
      { type: 'text', text: 'done' },
    ]);
    await s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    const codes = [1, 2, 3, 4].map(
      (n) => answerTo(s, n).error as { code: number; message: string },
    );
    expect(codes.map((c) => c.code)).toEqual([-32602, -32602, -32602, -32602]);
    expect(codes[0]!.message).toMatch(/outside the supported schema subset/);
    expect(codes[1]!.message).toMatch(/larger than a question may be/);
    expect(codes[2]!.message).toMatch(/must not ask for a password, key or token.*pw/);
    expect(codes[3]!.message).toMatch(/user name or password/);
    expect((await events(s, 'question_refused')).map((e) => e['refusal'])).toEqual([
      'outside_subset',
      'too_large',
      'secret',
      'unsafe_url',
    ]);
    expect(await events(s, 'question_asked')).toEqual([]);
    expect(s.gh.core.pipeline.pending.size).toBe(0);
  });
});
