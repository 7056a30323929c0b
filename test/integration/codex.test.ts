// Gatehouse with the real codex-acp (offline, against a fake Responses API), in both its packages:
// @zed-industries/codex-acp 0.16 and the renamed @agentclientprotocol/codex-acp 2.6. Its permission
// requests travel through the pipeline, votes come over HTTP, codex acts on the answer. Codex's
// "don't ask again" option is kept as a Gatehouse grant; codex itself is only ever told its
// allow-once option.
//
// Where 2.6 differs by design, the suite says so: it starts in its mode `agent` (its own model
// reviews each action, the client is never asked), which Gatehouse sets back to `read-only`; there
// a command runs inside codex's own sandbox unasked, and the client is asked for a command the model
// wants run outside it (`require_escalated`) and for every patch.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/shared/domain';
import type { Rule } from '../../src/shared/rules';
import {
  CODEX_PACKAGES,
  prepareCodex,
  type CodexPackage,
  type PreparedCodex,
} from '../support/codex';
import {
  startFakeResponsesServer,
  type FakeResponsesServer,
} from '../support/fake-responses-server';
import { bwrapMissing } from '../support/bwrap';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

const noSandbox = bwrapMissing('codex state folder');

const optionOfKind = (approval: PendingApproval, kind: string) => {
  const option = approval.options.find((o) => o.kind === kind);
  if (!option) throw new Error(`no ${kind} option offered`);
  return option.optionId;
};

/** What each package offers and does, as measured. */
const SHAPES = {
  '@zed-industries/codex-acp': {
    shellOptions: ['approved', 'approved-execpolicy-amendment', 'abort'],
    once: 'approved',
    reject: 'abort',
    // `abort` ends codex's turn.
    rejectedStop: 'cancelled',
    // An argv that hands a script to a shell.
    shown: (script: string) => ({ args: ['/bin/bash', '-lc', script] }),
  },
  '@agentclientprotocol/codex-acp': {
    shellOptions: ['allow_once', 'accept_execpolicy_amendment', 'cancel'],
    once: 'allow_once',
    reject: 'cancel',
    rejectedStop: 'cancelled',
    // The command line as the model wrote it.
    shown: (script: string) => ({ command: script, args: null }),
  },
} as const;

describe.each(CODEX_PACKAGES)('pipeline with the real $name', (pkg: CodexPackage) => {
  const shape = SHAPES[pkg.name];
  let model: FakeResponsesServer;
  let codex: PreparedCodex;
  let gh: TestGatehouse;
  let folder: string;
  let sessionId: string;

  beforeAll(async () => {
    if (!pkg.launch) return;
    model = await startFakeResponsesServer();
    codex = prepareCodex(pkg, model.url);
  });
  afterAll(async () => {
    await model?.close();
    codex?.cleanup();
  });
  const start = async (rules: Rule[] = [], env: Record<string, string> = {}) => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-codex-work-')));
    gh = await startGatehouse({
      rules,
      agents: {
        codex: {
          name: 'Codex',
          command: codex.command,
          args: codex.args,
          env: { ...codex.env, ...env },
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

  // 2.6 asks only for what leaves its own sandbox: the model asks for that.
  const escalated = pkg.asks === 'by-mode';
  const run = (shell: string) => {
    model.enqueue({ shell, escalated });
    return gh.api.call('prompt', { sessionId, text: `run ${shell}` });
  };
  const vote = (approval: PendingApproval, kind: string, extra: object = {}) =>
    gh.api.call('vote', {
      requestId: approval.requestId,
      optionId: optionOfKind(approval, kind),
      ...extra,
    });
  const events = async (type: string) => {
    await gh.core.store.flush();
    return (await gh.core.store.events({ type, sessionId })).map((e) => e.payload);
  };

  it.skipIf(!pkg.launch)(
    'allow once: the command runs; its command is shown as codex sent it',
    async () => {
      await start();
      const turn = run('touch ran.txt');
      const approval = await gh.nextApproval();
      expect(approval.toolCall.kind).toBe('execute');
      expect(approval.command).toMatchObject(shape.shown('touch ran.txt'));
      expect(approval.options.map((o) => o.optionId)).toEqual(shape.shellOptions);
      await vote(approval, 'allow_once');
      expect(await turn).toEqual({ stopReason: 'end_turn' });
      expect(existsSync(join(folder, 'ran.txt'))).toBe(true);
      expect((await gh.lastDecision(sessionId)).reply).toMatchObject({ optionId: shape.once });
    },
  );

  it.skipIf(!pkg.launch)(
    'its shell request (raw input) is previewed: the file listed, made only once allowed',
    async () => {
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
        expect.objectContaining({
          path: join(folder, 'previewed.txt'),
          change: 'created',
          size: 3,
        }),
      ]);
      expect(existsSync(join(folder, 'previewed.txt'))).toBe(false);
      await vote(approval, 'allow_once');
      expect(await turn).toEqual({ stopReason: 'end_turn' });
      expect(readFileSync(join(folder, 'previewed.txt'), 'utf8')).toBe('hi\n');
    },
  );

  it.skipIf(!pkg.launch)(
    `reject: the command does not run; codex is told ${shape.reject}`,
    async () => {
      await start();
      const turn = run('touch refused.txt');
      await vote(await gh.nextApproval(), 'reject_once');
      // Either package's reject (`abort`, `cancel`: "tell Codex what to do differently") ends its turn.
      expect(await turn).toEqual({ stopReason: shape.rejectedStop });
      expect(existsSync(join(folder, 'refused.txt'))).toBe(false);
      expect((await gh.lastDecision(sessionId)).reply).toMatchObject({ optionId: shape.reject });
    },
  );

  it.skipIf(!pkg.launch)('write: an apply_patch allowed once writes the file', async () => {
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

  it.skipIf(!pkg.launch)(
    `an allow rule for the script allows what codex sends; codex is told ${shape.once}`,
    async () => {
      await start([{ id: 'touch-ruled', action: 'allow', command: 'touch ruled.txt' }]);
      expect(await run('touch ruled.txt')).toEqual({ stopReason: 'end_turn' });
      expect(existsSync(join(folder, 'ruled.txt'))).toBe(true);
      const decision = await gh.lastDecision(sessionId);
      expect(decision.decider).toEqual({ type: 'rule', ruleId: 'touch-ruled' });
      expect(decision.reply).toMatchObject({ optionId: shape.once });
    },
  );

  it.skipIf(!pkg.launch)(
    '"always" is kept as a Gatehouse grant: the same command is decided by it; revoked, a person is asked',
    async () => {
      await start();
      let turn = run('touch again.txt');
      const asked = await gh.nextApproval();
      await vote(asked, 'allow_always', { grant: { scope: 'session' } });
      expect(await turn).toEqual({ stopReason: 'end_turn' });
      // Codex was told "once": its exec-policy amendment would outlive any scope or revocation.
      expect((await gh.lastDecision(sessionId)).reply).toMatchObject({ optionId: shape.once });
      const [grant] = await gh.api.call('listGrants', {});
      expect(grant!.grant).toMatchObject({ scope: 'session', sessionId, toolKind: 'execute' });

      rmSync(join(folder, 'again.txt'));
      const before = gh.events.filter((e) => e.type === 'permission_requested').length;
      expect(await run('touch again.txt')).toEqual({ stopReason: 'end_turn' });
      expect(existsSync(join(folder, 'again.txt'))).toBe(true);
      expect(gh.events.filter((e) => e.type === 'permission_requested').length).toBe(before);
      const byGrant = await gh.lastDecision(sessionId);
      expect(byGrant.decider).toEqual({ type: 'grant', grantId: grant!.grant.id });
      expect(byGrant.reply).toMatchObject({ optionId: shape.once });

      await gh.api.call('revokeGrant', { grantId: grant!.grant.id });
      turn = run('touch again.txt');
      const afterRevoke = await gh.nextApproval((a) => a.requestId !== asked.requestId);
      expect(afterRevoke.command).toMatchObject(shape.shown('touch again.txt'));
      await vote(afterRevoke, 'reject_once');
      expect(await turn).toEqual({ stopReason: shape.rejectedStop });
    },
  );

  it.skipIf(!pkg.launch || noSandbox !== null)(
    'a command a person allowed cannot rewrite what codex obeys later (config.toml, hooks.json) in its state folder; the rest of it stays writable',
    async () => {
      await start();
      const state = codex.env['CODEX_HOME']!;
      const config = readFileSync(join(state, 'config.toml'), 'utf8');
      const script =
        `printf 'approval_policy = "never"' >> ${state}/config.toml; ` +
        `printf '{"hooks":{}}' > ${state}/hooks.json; touch ${state}/kept.txt`;
      const turn = run(script);
      await vote(await gh.nextApproval(), 'allow_once');
      expect(await turn).toEqual({ stopReason: 'end_turn' });
      expect(readFileSync(join(state, 'config.toml'), 'utf8')).toBe(config);
      expect(readFileSync(join(state, 'hooks.json'), 'utf8')).not.toContain('hooks');
      expect(existsSync(join(state, 'kept.txt'))).toBe(true);
    },
  );

  it.skipIf(pkg.asks !== 'by-mode' || !pkg.launch)(
    'starts in its mode `agent`, which does not ask: set back to read-only before the first prompt, audited; its own model judges nothing',
    async () => {
      await start();
      expect(await events('agent_mode_reset')).toEqual([
        { via: 'mode', from: 'agent', to: 'read-only' },
      ]);
      const [info] = await gh.api.call('listSessions', {});
      expect(info?.unguarded).toBeUndefined();
      const mode = info?.configOptions?.find((o) => o.id === 'mode');
      expect(mode).toMatchObject({ currentValue: 'read-only' });
      const refused = mode?.type === 'select' ? mode.values.filter((v) => v.refused) : [];
      expect(refused.map((v) => v.value)).toEqual(['agent', 'agent-full-access']);

      const judged = model.requests.filter((r) => r.answer === 'judgement').length;
      const turn = run('touch asked.txt');
      await vote(await gh.nextApproval(), 'allow_once');
      expect(await turn).toEqual({ stopReason: 'end_turn' });
      expect(model.requests.filter((r) => r.answer === 'judgement')).toHaveLength(judged);
    },
  );

  it.skipIf(pkg.asks !== 'by-mode' || !pkg.launch)(
    'a person cannot choose `agent` or `agent-full-access`: refused, and codex stays in read-only',
    async () => {
      await start();
      for (const value of ['agent', 'agent-full-access']) {
        await expect(
          gh.api.call('setSessionOption', { sessionId, configId: 'mode', value }),
        ).rejects.toThrow(/acting without asking/);
      }
      const [info] = await gh.api.call('listSessions', {});
      expect(info?.configOptions?.find((o) => o.id === 'mode')).toMatchObject({
        currentValue: 'read-only',
      });
    },
  );

  it.skipIf(pkg.asks !== 'by-mode' || !pkg.launch)(
    'started in agent-full-access (INITIAL_AGENT_MODE in its environment): set back, audited',
    async () => {
      await start([], { INITIAL_AGENT_MODE: 'agent-full-access' });
      expect(await events('agent_mode_reset')).toEqual([
        { via: 'mode', from: 'agent-full-access', to: 'read-only' },
      ]);
      const turn = run('touch asked.txt');
      await vote(await gh.nextApproval(), 'reject_once');
      expect(await turn).toEqual({ stopReason: shape.rejectedStop });
      expect(existsSync(join(folder, 'asked.txt'))).toBe(false);
    },
  );

  it.skipIf(pkg.asks !== 'by-mode' || !pkg.launch)(
    "by design, a command inside codex's own read-only sandbox is not asked, and writes nothing (inside Gatehouse's sandbox codex's cannot even start)",
    async () => {
      await start();
      const before = gh.events.filter((e) => e.type === 'permission_requested').length;
      model.enqueue({ shell: 'touch unasked.txt' });
      expect(await gh.api.call('prompt', { sessionId, text: 'run' })).toEqual({
        stopReason: 'end_turn',
      });
      expect(gh.events.filter((e) => e.type === 'permission_requested').length).toBe(before);
      expect(existsSync(join(folder, 'unasked.txt'))).toBe(false);
      expect(model.toolOutputs.at(-1)).toMatch(/exited with code [1-9]/);
    },
  );
});
