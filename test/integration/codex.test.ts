// Gatehouse with the real codex-acp (offline, against a fake Responses API): its permission
// requests travel through the pipeline, votes come over HTTP, codex acts on the answer. Codex's
// "don't ask again" option is kept as a Gatehouse grant; codex itself is only ever told `approved`.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/shared/domain';
import type { Rule } from '../../src/shared/rules';
import { codexAcpBinary, prepareCodex, type PreparedCodex } from '../support/codex';
import {
  startFakeResponsesServer,
  type FakeResponsesServer,
} from '../support/fake-responses-server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

const binary = codexAcpBinary();
if (!binary)
  console.warn(`codex-acp tests skipped: no binary for ${process.platform}-${process.arch}`);

const optionOfKind = (approval: PendingApproval, kind: string) => {
  const option = approval.options.find((o) => o.kind === kind);
  if (!option) throw new Error(`no ${kind} option offered`);
  return option.optionId;
};

describe.skipIf(!binary)('pipeline with the real codex-acp', () => {
  let model: FakeResponsesServer;
  let codex: PreparedCodex;
  let gh: TestGatehouse;
  let folder: string;
  let sessionId: string;

  beforeAll(async () => {
    model = await startFakeResponsesServer();
    codex = prepareCodex(binary!, model.url);
  });
  afterAll(async () => {
    await model.close();
    codex.cleanup();
  });
  const start = async (rules: Rule[] = []) => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-codex-work-')));
    gh = await startGatehouse({
      rules,
      agents: {
        codex: {
          name: 'Codex',
          command: codex.command,
          args: codex.args,
          env: codex.env,
          // Its provider is named in config.toml, not in a variable the sandbox reads.
          network: { allow: [`127.0.0.1:${new URL(model.url).port}`] },
          allowUnsandboxed: true,
        },
      },
    });
    sessionId = (await gh.api.call('createSession', { agentId: 'codex', cwd: folder })).sessionId;
  };
  beforeEach(() => {
    folder = '';
  });
  afterEach(async () => {
    await gh?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const run = (shell: string) => {
    model.enqueue({ shell });
    return gh.api.call('prompt', { sessionId, text: `run ${shell}` });
  };
  const lastDecision = async () => {
    await gh.core.store.flush();
    return (await gh.core.store.history({ sessionId, limit: 1 })).items[0]!;
  };
  const vote = (approval: PendingApproval, kind: string, extra: object = {}) =>
    gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: optionOfKind(approval, kind),
      ...extra,
    });

  it('allow once: the command runs; its absolute shell argv is shown whole', async () => {
    await start();
    const turn = run('touch ran.txt');
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('execute');
    expect(approval.command?.args).toEqual(['/bin/bash', '-lc', 'touch ran.txt']);
    expect(approval.options.map((o) => o.optionId)).toEqual([
      'approved',
      'approved-execpolicy-amendment',
      'abort',
    ]);
    await vote(approval, 'allow_once');
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(join(folder, 'ran.txt'))).toBe(true);
  });

  it('its shell request (raw input, an argv) is previewed: the file listed, made only once allowed', async () => {
    await start();
    const turn = run('echo hi > previewed.txt');
    const approval = await gh.nextApproval();
    expect(approval.command?.source).toBe('rawInput');
    expect(approval.preview?.state).toBe('running');
    const { approval: previewed } = await gh.waitForEvent(
      'permission_previewed',
      (e) => e.approval.requestId === approval.requestId,
    );
    expect(previewed.preview).toMatchObject({ state: 'done', exitCode: 0 });
    expect(previewed.preview!.changes).toEqual([
      expect.objectContaining({ path: join(folder, 'previewed.txt'), change: 'created', size: 3 }),
    ]);
    expect(existsSync(join(folder, 'previewed.txt'))).toBe(false);
    await vote(approval, 'allow_once');
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(join(folder, 'previewed.txt'), 'utf8')).toBe('hi\n');
  });

  it('reject: the command does not run, and codex ends its turn as cancelled', async () => {
    await start();
    const turn = run('touch refused.txt');
    await vote(await gh.nextApproval(), 'reject_once');
    expect(await turn).toEqual({ stopReason: 'cancelled' });
    expect(existsSync(join(folder, 'refused.txt'))).toBe(false);
    expect((await lastDecision()).reply).toMatchObject({ optionId: 'abort' });
  });

  it('write: an apply_patch allowed once writes the file', async () => {
    await start();
    const target = join(folder, 'notes.md');
    model.enqueue({ patch: `*** Begin Patch\n*** Add File: ${target}\n+patched\n*** End Patch\n` });
    const turn = gh.api.call('prompt', { sessionId, text: 'patch' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.kind).toBe('edit');
    expect(approval.diffs[0]).toMatchObject({
      path: target,
      change: 'create',
      newText: 'patched\n',
    });
    await vote(approval, 'allow_once');
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(target, 'utf8')).toBe('patched\n');
  });

  it('an allow rule for the script allows ["/bin/bash","-lc",script]; codex is told `approved`', async () => {
    await start([{ id: 'touch-ruled', action: 'allow', command: 'touch ruled.txt' }]);
    expect(await run('touch ruled.txt')).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(join(folder, 'ruled.txt'))).toBe(true);
    const decision = await lastDecision();
    expect(decision.decider).toEqual({ type: 'rule', ruleId: 'touch-ruled' });
    expect(decision.reply).toMatchObject({ optionId: 'approved' });
  });

  it('"always" is kept as a Gatehouse grant: the same command is decided by it; revoked, a person is asked', async () => {
    await start();
    let turn = run('touch again.txt');
    const asked = await gh.nextApproval();
    await vote(asked, 'allow_always', { grant: { scope: 'session' } });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    // Codex was told "once": its exec-policy amendment would outlive any scope or revocation.
    expect((await lastDecision()).reply).toMatchObject({ optionId: 'approved' });
    const [grant] = await gh.api.call('listGrants', {});
    expect(grant!.grant).toMatchObject({ scope: 'session', sessionId, toolKind: 'execute' });

    rmSync(join(folder, 'again.txt'));
    const before = gh.events.filter((e) => e.type === 'permission_requested').length;
    expect(await run('touch again.txt')).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(join(folder, 'again.txt'))).toBe(true);
    expect(gh.events.filter((e) => e.type === 'permission_requested').length).toBe(before);
    const byGrant = await lastDecision();
    expect(byGrant.decider).toEqual({ type: 'grant', grantId: grant!.grant.id });
    expect(byGrant.reply).toMatchObject({ optionId: 'approved' });

    await gh.api.call('revokeGrant', { grantId: grant!.grant.id });
    turn = run('touch again.txt');
    const afterRevoke = await gh.nextApproval((a) => a.requestId !== asked.requestId);
    expect(afterRevoke.command?.args).toEqual(['/bin/bash', '-lc', 'touch again.txt']);
    await vote(afterRevoke, 'reject_once');
    expect(await turn).toEqual({ stopReason: 'cancelled' });
  });
});
