import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { GatehouseEvent } from '../../../shared/contract';
import {
  emptyPreview,
  NO_COUNTS,
  type CommandPreview,
  type PreviewChange,
} from '../../../shared/preview';
import { initShellParser } from '../rules';
import { gated, permissionRequest } from '../../../../test/support/pipeline-harness';
import type { PreviewOptions, PreviewRun } from './preview-stage';

beforeAll(async () => {
  await initShellParser();
});

const CWD = '/work/project';

/** A shell command the agent asks to run, with its exact text in the raw input. */
function run(command: string, toolCallId = 'call-1') {
  return {
    ...permissionRequest(toolCallId),
    toolCall: { toolCallId, kind: 'execute', title: command, rawInput: { command } },
  };
}

/** A previewer whose runs are answered by the test, one by one. */
function scripted() {
  const runs: Array<{
    run: PreviewRun;
    answer: (preview: unknown) => void;
    fail: (error: Error) => void;
  }> = [];
  const previewer = (r: PreviewRun) =>
    new Promise<CommandPreview>((resolve, reject) =>
      runs.push({ run: r, answer: resolve as (p: unknown) => void, fail: reject }),
    );
  return { runs, previewer: vi.fn(previewer) };
}

function change(path: string, kind: PreviewChange['change'] = 'created'): PreviewChange {
  return { path, oldPath: null, change: kind, entry: 'file', size: 1, place: 'root' };
}

/** A finished preview listing `changes`, counted. */
function done(changes: PreviewChange[], extra: Partial<CommandPreview> = {}): CommandPreview {
  const counts = { ...NO_COUNTS };
  for (const c of changes) counts[c.change] += 1;
  return {
    ...emptyPreview('done', null, 10_000),
    changes,
    counts,
    exitCode: 0,
    durationMs: 40,
    ...extra,
  };
}

function withPreview(
  previewer: PreviewOptions['run'],
  settings: PreviewOptions['settingsFor'] = () => ({ enabled: true, timeoutMs: 10_000 }),
  concurrency?: number,
) {
  const harness = gated({
    preview: { run: previewer, settingsFor: settings, ...(concurrency ? { concurrency } : {}) },
  });
  const previewed = () =>
    harness.published.filter(
      (e): e is Extract<GatehouseEvent, { type: 'permission_previewed' }> =>
        e.type === 'permission_previewed',
    );
  const audited = (type: string) => harness.store.events.filter((e) => e.type === type);
  return { ...harness, previewed, audited };
}

describe('a command asked of a person is previewed beside its request', () => {
  it('is shown at once as running, then with what the preview found, audited by counts', async () => {
    const { runs, previewer } = scripted();
    const { pipeline, context, asked, published, previewed, audited } = withPreview(previewer);
    void pipeline.handle(context, run('touch a; echo x >> b; rm c'));
    const shown = await asked();
    expect(shown.preview).toMatchObject({ state: 'running', reason: null, timeoutMs: 10_000 });
    const requested = published.find((e) => e.type === 'permission_requested');
    expect(requested).toMatchObject({ approval: { preview: { state: 'running' } } });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.run).toMatchObject({
      sessionId: 'session-1',
      command: 'touch a; echo x >> b; rm c',
      cwd: CWD,
      timeoutMs: 10_000,
    });

    const effects = done(
      [change(`${CWD}/a`), change(`${CWD}/b`, 'modified'), change(`${CWD}/c`, 'deleted')],
      { hosts: ['api.example.com'], diffs: [] },
    );
    runs[0]!.answer(effects);
    await vi.waitFor(() => expect(previewed()).toHaveLength(1));
    expect(previewed()[0]!.approval.preview).toEqual(effects);
    expect(pipeline.pending.get(shown.requestId)?.preview).toEqual(effects);
    expect(pipeline.pending.summaries(10).items[0]?.effects).toBe(
      'changes 2 files, deletes 1, tried api.example.com',
    );
    const [record] = audited('command_previewed');
    expect(record).toMatchObject({
      requestId: shown.requestId,
      payload: {
        state: 'done',
        counts: { created: 1, modified: 1, deleted: 1 },
        hosts: ['api.example.com'],
        exitCode: 0,
      },
    });
    expect(JSON.stringify(record!.payload)).not.toContain('changes');
  });

  it('merges the preview’s warnings into the request’s, so a danger reaches every surface', async () => {
    const { runs, previewer } = scripted();
    const { pipeline, context, asked, previewed } = withPreview(previewer);
    void pipeline.handle(context, run('./setup.sh'));
    const shown = await asked();
    const danger = {
      code: 'effect_protected' as const,
      severity: 'danger' as const,
      message: 'It writes .git/hooks/pre-commit, which runs later outside the sandbox.',
      where: `preview:${CWD}/.git/hooks/pre-commit`,
    };
    runs[0]!.answer(
      done([{ ...change(`${CWD}/.git/hooks/pre-commit`), place: 'protected' }], {
        counts: { ...NO_COUNTS, created: 1, protected: 1 },
        warnings: [danger],
      }),
    );
    await vi.waitFor(() => expect(previewed()).toHaveLength(1));
    expect(pipeline.pending.get(shown.requestId)?.warnings).toEqual([...shown.warnings, danger]);
  });

  it('a request decided first stops its run, and what the run found is dropped', async () => {
    const { runs, previewer } = scripted();
    const { pipeline, context, asked, vote, previewed, audited } = withPreview(previewer);
    const reply = pipeline.handle(context, run('rm -rf build'));
    const shown = await asked();
    const { signal } = runs[0]!.run;
    expect(signal.aborted).toBe(false);
    vote({ requestId: shown.requestId, clientId: 'desktop', identityProven: true, optionId: 'no' });
    await expect(reply).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
    expect(signal.aborted).toBe(true);
    // Recorded only once the run has ended: what the audit says dropped holds nothing any more.
    expect(audited('command_preview_dropped')).toEqual([]);
    runs[0]!.answer(done([change(`${CWD}/x`)]));
    await vi.waitFor(() => expect(audited('command_preview_dropped')).toHaveLength(1));
    expect(previewed()).toEqual([]);
    expect(audited('command_previewed')).toEqual([]);
  });

  it('a previewer that fails makes the preview "unavailable" with its message, never an allow', async () => {
    const { runs, previewer } = scripted();
    const { pipeline, context, asked, rules, previewed, store } = withPreview(previewer);
    rules.push({ id: 'quiet', action: 'allow', command: 'make', whenPreviewChangesOnly: [] });
    void pipeline.handle(context, run('make'));
    const shown = await asked();
    runs[0]!.fail(new Error('unshare: operation not permitted'));
    await vi.waitFor(() => expect(previewed()).toHaveLength(1));
    expect(pipeline.pending.get(shown.requestId)?.preview).toMatchObject({
      state: 'unavailable',
      reason: 'system',
      detail: 'unshare: operation not permitted',
    });
    expect(store.decisions).toEqual([]);
  });

  it('what a previewer answers is read by the contract: a malformed answer is "unavailable"', async () => {
    const { runs, previewer } = scripted();
    const { pipeline, context, asked, previewed } = withPreview(previewer);
    void pipeline.handle(context, run('make'));
    const shown = await asked();
    runs[0]!.answer({
      ...done([]),
      changes: Array.from({ length: 201 }, (_, i) => change(`/${i}`)),
    });
    await vi.waitFor(() => expect(previewed()).toHaveLength(1));
    expect(pipeline.pending.get(shown.requestId)?.preview).toMatchObject({
      state: 'unavailable',
      detail: expect.stringContaining('changes'),
    });
  });

  it('an allow that waits for the preview decides once it shows changes only where allowed', async () => {
    const { runs, previewer } = scripted();
    const { pipeline, context, asked, rules, store } = withPreview(previewer);
    rules.push({
      id: 'tests-build',
      action: 'allow',
      command: 'make test',
      whenPreviewChangesOnly: ['build'],
    });
    const inside = pipeline.handle(context, run('make test', 'call-1'));
    await asked();
    void pipeline.handle(context, run('make test', 'call-2'));
    await vi.waitFor(() => expect(runs).toHaveLength(2));
    expect(store.decisions).toEqual([]);
    runs[1]!.answer(done([change(`${CWD}/build/a.o`), change(`${CWD}/src/a.c`, 'modified')]));
    runs[0]!.answer(done([change(`${CWD}/build/a.o`)]));
    await expect(inside).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
    expect(store.decisions.map((d) => d.decision.decider)).toEqual([
      { type: 'rule', ruleId: 'tests-build' },
    ]);
    expect(pipeline.pending.list().map((a) => a.toolCall.toolCallId)).toEqual(['call-2']);
  });
});

describe('requests that get no preview run', () => {
  it('a command known only from the agent’s title says so and is not run', async () => {
    const { previewer } = scripted();
    const { pipeline, context, asked, audited } = withPreview(previewer);
    // Gemini CLI: no raw input, the title is the command and a content line says where.
    void pipeline.handle(context, {
      ...permissionRequest(),
      toolCall: {
        toolCallId: 'call-1',
        kind: 'execute',
        title: 'rm -rf build',
        content: [{ type: 'content', content: { type: 'text', text: `[in ${CWD}]` } }],
      },
    });
    const shown = await asked();
    expect(shown.command?.source).toBe('title');
    expect(shown.preview).toMatchObject({ state: 'not_previewed', reason: 'title_only' });
    expect(previewer).not.toHaveBeenCalled();
    expect(audited('command_previewed')[0]).toMatchObject({
      payload: { state: 'not_previewed', reason: 'title_only' },
    });
  });

  it('an agent whose previews are off says "off", read from the settings at each request', async () => {
    const { runs, previewer } = scripted();
    let enabled = false;
    const { pipeline, context, asked } = withPreview(previewer, (agentId) => ({
      enabled: enabled && agentId === 'coder',
      timeoutMs: 5_000,
    }));
    void pipeline.handle(context, run('make', 'call-1'));
    expect((await asked()).preview).toMatchObject({ state: 'not_previewed', reason: 'off' });
    expect(previewer).not.toHaveBeenCalled();
    enabled = true;
    void pipeline.handle(context, run('make', 'call-2'));
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    expect(runs[0]!.run.timeoutMs).toBe(5_000);
  });

  it('an edit carries no preview, and a request the rules decide is never run', async () => {
    const { previewer } = scripted();
    const { pipeline, context, asked, rules } = withPreview(previewer);
    rules.push({ id: 'ls', action: 'allow', command: 'ls' });
    await expect(pipeline.handle(context, run('ls', 'call-0'))).resolves.toEqual({
      outcome: { outcome: 'selected', optionId: 'yes' },
    });
    void pipeline.handle(context, permissionRequest('call-1'));
    const shown = await asked();
    expect(shown.preview).toBeUndefined();
    expect(previewer).not.toHaveBeenCalled();
  });
});

describe('a flood of commands', () => {
  it('runs two previews at once; the others wait, and one decided while waiting never runs', async () => {
    const { runs, previewer } = scripted();
    const { pipeline, context, vote, audited } = withPreview(previewer, undefined, 2);
    for (const id of ['c1', 'c2', 'c3', 'c4']) void pipeline.handle(context, run(`make ${id}`, id));
    await vi.waitFor(() => expect(pipeline.pending.size).toBe(4));
    expect(runs.map((r) => r.run.command)).toEqual(['make c1', 'make c2']);
    const third = pipeline.pending.list()[2]!;
    vote({ requestId: third.requestId, clientId: 'desktop', identityProven: true, optionId: 'no' });
    await vi.waitFor(() => expect(audited('command_preview_dropped')).toHaveLength(1));
    runs[0]!.answer(done([]));
    await vi.waitFor(() => expect(runs).toHaveLength(3));
    expect(runs[2]!.run.command).toBe('make c4');
  });
});
