// The whole path with our own deterministic agent: ACP request → pipeline → mediator → HTTP vote →
// audit → ACP reply, through the real HTTP server and the renderer's own client.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { SettingsInput } from '../../src/shared/settings';
import type { ScriptStep, ScriptedAgentScript } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const OPTIONS = [
  { optionId: 'opt-always', name: 'Always', kind: 'allow_always' as const },
  { optionId: 'opt-yes', name: 'Yes', kind: 'allow_once' as const },
  { optionId: 'opt-no', name: 'No', kind: 'reject_once' as const },
];

function writeRequest(path: string, content: string, extra: Partial<ScriptStep> = {}): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: {
      toolCallId: 'write-1',
      kind: 'edit',
      title: `Write ${path}`,
      locations: [{ path }],
      content: [{ type: 'diff', path, oldText: null, newText: content }],
      rawInput: { path, content },
    },
    options: OPTIONS,
    onAllow: [{ type: 'writeFile', path, content }],
    ...extra,
  } as ScriptStep;
}

describe('pipeline with a scripted agent', () => {
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

  async function start(script: ScriptedAgentScript, settings: Partial<SettingsInput> = {}) {
    session = await startScriptedSession(script, { settings, folder });
    return session;
  }

  it('allow once: the agent hears the allow_once option by kind, writes through Gatehouse, all audited', async () => {
    const target = join(folder, 'hello.txt');
    const { gh, sessionId } = await start({ prompts: [[writeRequest(target, 'hello\n')]] });
    const turn = gh.api.call('prompt', { sessionId, text: 'write it' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('edit');
    expect(approval.diffs[0]).toMatchObject({ path: target, change: 'create', newText: 'hello\n' });
    expect(approval.options.map((o) => o.kind)).toEqual([
      'allow_always',
      'allow_once',
      'reject_once',
    ]);

    const outcome = await gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: 'opt-yes',
    });
    expect(outcome).toEqual({ kind: 'resolved', resolvedOptionId: 'opt-yes' });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(target, 'utf8')).toBe('hello\n');
    expect(session!.replies()).toEqual([{ outcome: 'selected', optionId: 'opt-yes' }]);

    await gh.core.store.flush();
    const detail = (await gh.core.store.historyDetail(approval.requestId))!;
    expect(detail.reply).toEqual({
      outcome: 'selected',
      optionId: 'opt-yes',
      optionKind: 'allow_once',
    });
    expect(detail.decider).toMatchObject({ type: 'person', surface: 'api' });
    expect(detail.votes).toHaveLength(1);
    expect(detail.votes[0]).toMatchObject({ identityProven: true, optionId: 'opt-yes' });
    expect(gh.core.pipeline.pending.size).toBe(0);
  });

  it('reject: the agent hears its reject_once option, nothing is written, the turn ends normally', async () => {
    const target = join(folder, 'no.txt');
    const { gh, sessionId } = await start({ prompts: [[writeRequest(target, 'x')]] });
    const turn = gh.api.call('prompt', { sessionId, text: 'write it' });
    const approval = await gh.nextApproval();
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-no' });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(target)).toBe(false);
    expect(session!.replies()).toEqual([{ outcome: 'selected', optionId: 'opt-no' }]);
  });

  it('a second vote on a decided request is 409 already_resolved, a bogus option 400, an unknown id 404', async () => {
    const { gh, sessionId } = await start({
      prompts: [[writeRequest(join(folder, 'a.txt'), 'a')]],
    });
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    await expect(
      gh.api.call('vote', { requestId: approval.requestId, optionId: 'nope' }),
    ).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      gh.api.call('vote', { requestId: approval.requestId, optionId: '__cancelled__' }),
    ).rejects.toMatchObject({ status: 400 });
    expect(gh.core.pipeline.pending.size).toBe(1);
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-yes' });
    const late = await fetch(`${gh.server.url}/api/approvals/${approval.requestId}/vote`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gh.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ optionId: 'opt-no' }),
    });
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ kind: 'already_resolved', resolvedOptionId: 'opt-yes' });
    const unknown = await fetch(
      `${gh.server.url}/api/approvals/0190f5d2-0000-7000-8000-000000000000/vote`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${gh.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ optionId: 'opt-no' }),
      },
    );
    expect(unknown.status).toBe(404);
    await turn;
  });

  it('cancelling the turn answers the pending request cancelled and the prompt stops cancelled', async () => {
    const { gh, sessionId } = await start({
      prompts: [[writeRequest(join(folder, 'c.txt'), 'c')]],
    });
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    await gh.api.call('cancelTurn', { sessionId });
    expect(await turn).toEqual({ stopReason: 'cancelled' });
    expect(session!.replies()).toEqual([{ outcome: 'cancelled' }]);
    await gh.core.store.flush();
    expect((await gh.core.store.historyDetail(approval.requestId))?.decider).toEqual({
      type: 'turn_cancelled',
    });
    expect(gh.core.pipeline.pending.size).toBe(0);
  });

  it('an agent that dies while a request is pending leaves nothing pending, and its end is audited', async () => {
    const step = writeRequest(join(folder, 'd.txt'), 'd', { wait: false } as Partial<ScriptStep>);
    const { gh, sessionId } = await start({
      prompts: [[step, { type: 'exit', code: 3, delayMs: 300 }]],
    });
    const turn = gh.api.call('prompt', { sessionId, text: 'go' }).catch((e: Error) => e);
    const approval = await gh.nextApproval();
    await gh.waitForEvent('agent_exited');
    expect(await turn).toBeInstanceOf(Error);
    await gh.core.store.flush();
    expect(gh.core.pipeline.pending.size).toBe(0);
    const detail = (await gh.core.store.historyDetail(approval.requestId))!;
    expect(detail.decider).toEqual({ type: 'agent_exit' });
    expect(detail.reply).toEqual({ outcome: 'cancelled' });
    // Listed as ended, with why, for the rest of the day.
    expect(
      (await gh.api.call('listSessions', {})).find((s) => s.sessionId === sessionId),
    ).toMatchObject({ state: 'closed', endReason: 'agent_exit' });
  });

  it('a malformed permission request is refused with an error and audited', async () => {
    const { gh, sessionId } = await start({
      prompts: [
        [
          {
            type: 'malformedRequest',
            params: { toolCall: { toolCallId: 'x', title: 'no options' } },
          },
        ],
      ],
    });
    await gh.api.call('prompt', { sessionId, text: 'go' });
    const errors = session!.log().filter((l) => l.dir === 'in' && l.msg.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg.error!.code).toBe(-32602);
    await gh.core.store.flush();
    const refused = await gh.core.store.events({ type: 'malformed_request' });
    expect(refused).toHaveLength(1);
    expect(gh.core.pipeline.pending.size).toBe(0);
  });

  it('fails closed on timeout: the agent hears its reject option, audited as timeout and never displayed', async () => {
    const target = join(folder, 't.txt');
    const { gh, sessionId } = await start(
      { prompts: [[writeRequest(target, 't')]] },
      { approvals: { timeoutSeconds: 1 } },
    );
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(target)).toBe(false);
    expect(session!.replies()).toEqual([{ outcome: 'selected', optionId: 'opt-no' }]);
    await gh.core.store.flush();
    const detail = (await gh.core.store.historyDetail(approval.requestId))!;
    expect(detail.decider).toEqual({ type: 'timeout' });
    expect(detail.displayed).toBe(false);
  });

  it('a request that carries only its tool call id is shown whole, from the earlier tool_call update', async () => {
    const { gh, sessionId } = await start({
      prompts: [
        [
          {
            type: 'toolCall',
            toolCallId: 'shell-7',
            title: 'Run the tests',
            kind: 'execute',
            status: 'pending',
            rawInput: { command: 'npm test', cwd: folder },
          },
          {
            type: 'requestPermission',
            announce: false,
            toolCall: { toolCallId: 'shell-7' },
            options: OPTIONS,
          },
        ],
      ],
    });
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall).toMatchObject({ kind: 'execute', title: 'Run the tests' });
    expect(approval.command).toMatchObject({
      command: 'npm test',
      cwd: folder,
      source: 'rawInput',
    });
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-no' });
    await turn;
  });

  it('refuses a write outside the session folder and audits the refusal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-outside-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const outside = join(dir, 'escape.txt');
    const { gh, sessionId } = await start({
      prompts: [[{ type: 'writeFile', path: outside, content: 'nope', via: 'client' }]],
    });
    await gh.api.call('prompt', { sessionId, text: 'go' });
    expect(existsSync(outside)).toBe(false);
    await gh.core.store.flush();
    expect(await gh.core.store.events({ type: 'fs_write_refused' })).toHaveLength(1);
  });
});
