// Gatehouse with the real Gemini CLI (offline, against a fake model server): the agent's own
// permission requests travel through the pipeline, the vote comes over HTTP, the agent acts on it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/shared/domain';
import type { FakeModelServer } from '../support/fake-model-server';
import type { TestGatehouse } from '../support/gatehouse';
import { geminiSessionPerTest } from '../support/gemini-suite';

const optionOfKind = (approval: PendingApproval, kind: string) => {
  const option = approval.options.find((o) => o.kind === kind);
  if (!option) throw new Error(`no ${kind} option offered`);
  return option.optionId;
};

describe('pipeline with the real Gemini CLI', () => {
  let model: FakeModelServer;
  let gh: TestGatehouse;
  let folder: string;
  let sessionId: string;

  geminiSessionPerTest('gatehouse-gemini-work-', (setup) => {
    ({ model, gh, folder, sessionId } = setup);
  });

  /** In its default sandbox, reaching only the fake model server among loopback ports. */
  const expectSandboxed = async () => {
    const [info] = await gh.api.call('listSessions', {});
    expect(info!.sandbox.profile).toBe('workspace-write');
    expect(info!.sandbox.writable).toEqual(expect.arrayContaining(['project', '~/.gemini']));
    expect(info!.sandbox.network).toContain(`127.0.0.1:${new URL(model.url).port}`);
  };

  const askToWrite = (path: string, content: string) => {
    model.enqueue({
      functionCalls: [{ name: 'write_file', args: { file_path: path, content } }],
      finalText: 'Done.',
    });
    return gh.api.call('prompt', { sessionId, text: `write ${path}` });
  };

  it('allow once writes a new file and an existing one, each decision audited with its decider', async () => {
    await expectSandboxed();
    const fresh = join(folder, 'new.txt');
    let turn = askToWrite(fresh, 'brand new\n');
    let approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('edit');
    expect(approval.diffs[0]).toMatchObject({
      path: fresh,
      change: 'create',
      newText: 'brand new\n',
    });
    await gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: optionOfKind(approval, 'allow_once'),
    });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(fresh, 'utf8')).toBe('brand new\n');

    const existing = join(folder, 'old.txt');
    writeFileSync(existing, 'before\n');
    turn = askToWrite(existing, 'after\n');
    const second = await gh.nextApproval((a) => a.requestId !== approval.requestId);
    expect(second.diffs[0]).toMatchObject({
      change: 'modify',
      oldText: 'before\n',
      newText: 'after\n',
    });
    await gh.api.call('vote', {
      requestId: second.requestId,
      optionId: optionOfKind(second, 'allow_once'),
    });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(existing, 'utf8')).toBe('after\n');

    await gh.core.store.flush();
    for (const id of [approval.requestId, second.requestId]) {
      const detail = (await gh.core.store.historyDetail(id))!;
      expect(detail.reply).toMatchObject({ outcome: 'selected', optionKind: 'allow_once' });
      expect(detail.decider).toMatchObject({ type: 'person', surface: 'api' });
    }
    approval = second;
  });

  it('reject leaves the file unwritten, the turn ends normally and Gemini reports the refusal', async () => {
    await expectSandboxed();
    const path = join(folder, 'denied.txt');
    const turn = askToWrite(path, 'nope');
    const approval = await gh.nextApproval();
    await gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: optionOfKind(approval, 'reject_once'),
    });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(path)).toBe(false);
    expect(JSON.stringify(model.lastFunctionResponse()?.response)).toMatch(/cancel/i);
  });

  it('cancelling the turn while a request is pending answers it cancelled; stopReason cancelled', async () => {
    const path = join(folder, 'cancelled.txt');
    const turn = askToWrite(path, 'x');
    const approval = await gh.nextApproval();
    await gh.api.call('cancelTurn', { sessionId });
    expect(await turn).toEqual({ stopReason: 'cancelled' });
    expect(existsSync(path)).toBe(false);
    await gh.core.store.flush();
    const detail = (await gh.core.store.historyDetail(approval.requestId))!;
    expect(detail.reply).toEqual({ outcome: 'cancelled' });
    expect(detail.decider).toEqual({ type: 'turn_cancelled' });
  });

  it('killing the agent while a request is pending leaves nothing pending, all audited', async () => {
    const path = join(folder, 'killed.txt');
    const turn = askToWrite(path, 'x').catch((error: Error) => error);
    const approval = await gh.nextApproval();
    const exited = gh.waitForEvent('agent_exited');
    // Kill the whole process group, as a crash or `kill -9` from outside would.
    process.kill(-gh.core.sessions.get(sessionId).process!.pid!, 'SIGKILL');
    await exited;
    expect(await turn).toMatchObject({ name: 'AgentGoneError' });
    await gh.core.store.flush();
    expect(gh.core.pipeline.pending.size).toBe(0);
    expect(gh.core.pipeline.pending.size).toBe(0);
    expect((await gh.core.store.historyDetail(approval.requestId))?.decider).toEqual({
      type: 'agent_exit',
    });
    expect(existsSync(path)).toBe(false);
  });
});
