// Rules, modes and grants with the real Gemini CLI: what is decided before a person is asked, and
// that every such decision names the grant or mode that made it.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/shared/domain';
import type { FakeModelServer } from '../support/fake-model-server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import type { PreparedGemini } from '../support/gemini';
import { geminiAgent, geminiForSuite } from '../support/gemini-suite';

const optionOfKind = (approval: PendingApproval, kind: string) =>
  approval.options.find((o) => o.kind === kind)!.optionId;

describe('rules, modes and grants with the real Gemini CLI', () => {
  let model: FakeModelServer;
  let gemini: PreparedGemini;
  let gh: TestGatehouse;
  let folder: string;

  geminiForSuite((suite) => {
    ({ model, gemini } = suite);
  });
  beforeEach(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-rules-')));
    gh = await startGatehouse({
      agents: { gemini: geminiAgent(gemini) },
    });
  });
  afterEach(async () => {
    await gh.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const session = async () =>
    (await gh.api.call('createSession', { agentId: 'gemini', cwd: folder })).sessionId;
  const write = (sessionId: string, path: string, content: string) => {
    model.enqueue({ functionCalls: [{ name: 'write_file', args: { file_path: path, content } }] });
    return gh.api.call('prompt', { sessionId, text: `write ${path}` });
  };
  const shell = (sessionId: string, command: string) => {
    model.enqueue({
      functionCalls: [{ name: 'run_shell_command', args: { command, description: 'run it' } }],
    });
    return gh.api.call('prompt', { sessionId, text: `run ${command}` });
  };

  it('allow always (session) answers the next identical write by the grant; a new session and a revoked grant ask again', async () => {
    const target = join(folder, 'notes.md');
    const first = await session();
    let turn = write(first, target, 'one\n');
    const asked = await gh.nextApproval();
    await gh.api.call('vote', {
      requestId: asked.requestId,
      optionId: optionOfKind(asked, 'allow_always'),
      grant: { scope: 'session' },
    });
    await turn;
    expect(readFileSync(target, 'utf8')).toBe('one\n');
    // Gemini was told "once": its own "always" would cover every later edit of the session.
    expect((await gh.lastDecision(first)).reply).toMatchObject({ optionKind: 'allow_once' });
    const [grant] = await gh.api.call('listGrants', {});
    expect(gh.events.some((e) => e.type === 'grants_changed')).toBe(true);
    expect(grant!.grant).toMatchObject({
      scope: 'session',
      sessionId: first,
      toolKind: 'edit',
      paths: [target],
    });

    const before = gh.events.filter((e) => e.type === 'permission_requested').length;
    await write(first, target, 'two\n');
    expect(readFileSync(target, 'utf8')).toBe('two\n');
    expect(gh.events.filter((e) => e.type === 'permission_requested').length).toBe(before);
    expect((await gh.lastDecision(first)).decider).toEqual({
      type: 'grant',
      grantId: grant!.grant.id,
    });

    const second = await session();
    turn = write(second, target, 'three\n');
    const again = await gh.nextApproval((a) => a.sessionId === second);
    await gh.api.call('vote', {
      requestId: again.requestId,
      optionId: optionOfKind(again, 'reject_once'),
    });
    await turn;
    expect(readFileSync(target, 'utf8')).toBe('two\n');

    await gh.api.call('revokeGrant', { grantId: grant!.grant.id });
    expect(await gh.api.call('listGrants', {})).toEqual([]);
    turn = write(first, target, 'four\n');
    const afterRevoke = await gh.nextApproval(
      (a) => a.sessionId === first && a.requestId !== asked.requestId,
    );
    await gh.api.call('vote', {
      requestId: afterRevoke.requestId,
      optionId: optionOfKind(afterRevoke, 'reject_once'),
    });
    await turn;
    expect(readFileSync(target, 'utf8')).toBe('two\n');
  });

  it('plan mode: the write does not happen, and Gemini is put in its own plan mode', async () => {
    const sessionId = await session();
    const info = await gh.api.call('setSessionMode', { sessionId, mode: 'plan' });
    expect(info.mode).toBe('plan');
    const target = join(folder, 'plan.txt');
    await write(sessionId, target, 'nope');
    expect(existsSync(target)).toBe(false);
    await gh.core.store.flush();
    expect(
      (await gh.core.store.events({ type: 'session_mode', sessionId }))[0]?.payload,
    ).toMatchObject({
      mode: 'plan',
      agentModeId: 'plan',
    });
  });

  it('acceptEdits allows an edit in the folder (audited as the mode) and asks for a shell command', async () => {
    const sessionId = await session();
    await gh.api.call('setSessionMode', { sessionId, mode: 'acceptEdits' });
    const target = join(folder, 'auto.txt');
    await write(sessionId, target, 'edited without asking\n');
    expect(readFileSync(target, 'utf8')).toBe('edited without asking\n');
    expect(await gh.lastDecision(sessionId)).toMatchObject({
      decider: { type: 'mode', mode: 'acceptEdits' },
      reply: { outcome: 'selected', optionKind: 'allow_once' },
    });

    const turn = shell(sessionId, 'touch made-by-shell');
    const asked = await gh.nextApproval((a) => a.toolCall.kind === 'execute');
    expect(asked.command).toMatchObject({ command: 'touch made-by-shell', source: 'title' });
    await gh.api.call('vote', {
      requestId: asked.requestId,
      optionId: optionOfKind(asked, 'reject_once'),
    });
    await turn;
    expect(existsSync(join(folder, 'made-by-shell'))).toBe(false);
  });
});
