// The effects room on real files: what is kept before an allow (bounded, inside the roots, never
// through a link), what a command changed compared with what its preview said, and undo, all or
// nothing.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GatehouseEvent } from '../../../shared/contract';
import type { PendingApproval } from '../../../shared/domain';
import { EFFECTS_LIMITS } from '../../../shared/effects';
import { emptyPreview, type CommandPreview, type PreviewChange } from '../../../shared/preview';
import { EventBus } from '../events/bus';
import { PROTECTED_FILES } from '../rules/protected-files';
import type { AuditEventInput } from '../store';
import type * as manifestModule from './manifest';
import { pruneKept, readManifest, requestFolder } from './manifest';
import { createEffects, type EffectsService } from './service';
import { snapshotTree } from './snapshot';

// The real function, counted: how often the recorder reads every kept request.
vi.mock('./manifest', async (actual) => {
  const real = await actual<typeof manifestModule>();
  return { ...real, pruneKept: vi.fn(real.pruneKept) };
});

let home: string;
let project: string;
let outside: string;
let bus: EventBus;
let events: AuditEventInput[];
let effects: EffectsService;
let held: number[];
let counter = 0;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'gatehouse-effects-home-'));
  project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-effects-project-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-effects-outside-')));
  bus = new EventBus();
  events = [];
  held = [];
  effects = createEffects({
    home,
    store: { recordEvent: (event) => void events.push(event) },
    bus,
    now: () => 1_000,
    protectedEntries: () => PROTECTED_FILES,
    session: () => ({ cwd: project, own: true, observable: true }),
    held: (ms) => void held.push(ms),
  });
});
afterEach(() => {
  effects.close();
  for (const dir of [home, project, outside]) rmSync(dir, { recursive: true, force: true });
});

const requestId = () => `0190a4a0-0000-7000-8000-${String(++counter).padStart(12, '0')}`;

function change(path: string, kind: PreviewChange['change'], oldPath: string | null = null) {
  return {
    path: join(project, path),
    oldPath: oldPath && join(project, oldPath),
    change: kind,
    entry: 'file' as const,
    size: 1,
    place: 'root' as const,
  };
}

function preview(changes: PreviewChange[]): CommandPreview {
  const counts = { created: 0, modified: 0, deleted: 0, renamed: 0, outside: 0, protected: 0 };
  for (const c of changes) counts[c.change] += 1;
  return { ...emptyPreview('done', null, 10_000), changes, counts };
}

function approval(extra: Partial<PendingApproval>): PendingApproval {
  return {
    requestId: requestId(),
    sessionId: 's1',
    agentId: 'a',
    agentName: 'A',
    cwd: project,
    toolCall: {
      toolCallId: `t${counter}`,
      kind: 'execute',
      title: 'x',
      locations: [],
      content: [],
    },
    options: [],
    policy: 'first-responder',
    issuedAt: 0,
    expiresAt: 0,
    warnings: [],
    diffs: [],
    command: null,
    tally: null,
    ...extra,
  };
}

const command = (text: string, changes: PreviewChange[] | null) =>
  approval({
    command: { command: text, args: null, cwd: project, source: 'rawInput' },
    ...(changes ? { preview: preview(changes) } : {}),
  });

/** The agent reports the tool call finished, as ACP's tool_call_update does. */
async function finished(a: PendingApproval): Promise<void> {
  const event: GatehouseEvent = {
    type: 'session_update',
    sessionId: a.sessionId,
    update: {
      sessionUpdate: 'tool_call_update',
      toolCallId: a.toolCall.toolCallId,
      status: 'completed',
    } as never,
  };
  bus.publish(event);
  await effects.settled();
}

const recorded = () =>
  events.find((e) => e.type === 'command_effects')!.payload as Record<string, unknown>;

describe('a command allowed and observed', () => {
  it('undo restores what it modified, re-creates what it deleted and renamed, removes what it made', async () => {
    writeFileSync(join(project, 'a.txt'), 'a before\n');
    writeFileSync(join(project, 'b.txt'), 'b before\n');
    writeFileSync(join(project, 'c.txt'), 'c\n');
    chmodSync(join(project, 'b.txt'), 0o750);
    const a = command('the command', [
      change('a.txt', 'modified'),
      change('b.txt', 'deleted'),
      change('d.txt', 'renamed', 'c.txt'),
    ]);
    await effects.allowed(a);
    // What it then did, for real:
    writeFileSync(join(project, 'a.txt'), 'a after\n');
    unlinkSync(join(project, 'b.txt'));
    renameSync(join(project, 'c.txt'), join(project, 'd.txt'));
    mkdirSync(join(project, 'out'));
    writeFileSync(join(project, 'out', 'new.bin'), Buffer.from([0, 1, 2, 255]));
    await finished(a);

    const payload = recorded();
    expect(payload).toMatchObject({
      state: 'observed',
      endedBy: 'completed',
      counts: { created: 2, modified: 1, deleted: 1, renamed: 1 },
      previewed: { modified: 1, deleted: 1, renamed: 1, created: 0 },
      difference: 'previewed 3 files, changed 5',
    });
    expect(payload['heldReplyMs']).toEqual(expect.any(Number));

    const outcome = await effects.undo(a.requestId, []);
    expect(outcome).toMatchObject({ restored: 3, removed: 2 });
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('a before\n');
    expect(readFileSync(join(project, 'b.txt'), 'utf8')).toBe('b before\n');
    expect(statSync(join(project, 'b.txt')).mode & 0o777).toBe(0o750);
    expect(readFileSync(join(project, 'c.txt'), 'utf8')).toBe('c\n');
    expect(existsSync(join(project, 'd.txt'))).toBe(false);
    expect(existsSync(join(project, 'out'))).toBe(false);
    expect((await readManifest(home, a.requestId))?.undoneAt).toBe(1_000);
  });

  it('agrees with a preview that named exactly what changed', async () => {
    writeFileSync(join(project, 'a.txt'), '1');
    const a = command('x', [change('a.txt', 'modified')]);
    await effects.allowed(a);
    writeFileSync(join(project, 'a.txt'), '22');
    await finished(a);
    expect(recorded()).toMatchObject({ difference: null, counts: { modified: 1 } });
  });

  it('leaves a command no person was asked about (no preview: a rule allowed it) unobserved', async () => {
    const a = command('x', null);
    await effects.allowed(a);
    writeFileSync(join(project, 'made-by-rule.txt'), '1');
    await finished(a);
    expect(events.filter((e) => e.type === 'command_effects')).toEqual([]);
  });

  it('flags files the preview did not list even when the count agrees', async () => {
    writeFileSync(join(project, 'a.txt'), '1');
    const a = command('x', [change('a.txt', 'modified')]);
    await effects.allowed(a);
    writeFileSync(join(project, 'other.txt'), 'x');
    await finished(a);
    expect(recorded()).toMatchObject({ difference: 'changed 1 file the preview did not list' });
  });

  it('is all or nothing: one file changed since refuses the whole undo', async () => {
    writeFileSync(join(project, 'a.txt'), 'a0');
    writeFileSync(join(project, 'b.txt'), 'b0');
    const a = command('x', [change('a.txt', 'modified'), change('b.txt', 'modified')]);
    await effects.allowed(a);
    writeFileSync(join(project, 'a.txt'), 'a1');
    writeFileSync(join(project, 'b.txt'), 'b1');
    await finished(a);
    writeFileSync(join(project, 'b.txt'), 'b2 by hand');
    await expect(effects.undo(a.requestId, [])).rejects.toThrow('b.txt changed since');
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('a1');
  });

  it('never writes a protected file back: refused with what runs it', async () => {
    mkdirSync(join(project, '.git', 'hooks'), { recursive: true });
    const a = command('x', []);
    await effects.allowed(a);
    writeFileSync(join(project, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
    await finished(a);
    expect(recorded()).toMatchObject({ counts: { created: 1, protected: 1 } });
    await expect(effects.undo(a.requestId, [])).rejects.toThrow(
      /\.git\/hooks\/pre-commit is a protected file \(git runs these hooks/,
    );
    expect(existsSync(join(project, '.git', 'hooks', 'pre-commit'))).toBe(true);
  });

  it('skips git objects', async () => {
    mkdirSync(join(project, '.git', 'objects', 'ab'), { recursive: true });
    const a = command('x', []);
    await effects.allowed(a);
    writeFileSync(join(project, '.git', 'objects', 'ab', 'cdef'), 'blob');
    await finished(a);
    expect(recorded()).toMatchObject({ counts: { created: 0 }, state: 'observed' });
  });

  it('says when the project holds more than a snapshot reads', async () => {
    for (let i = 0; i < 5; i += 1) writeFileSync(join(project, `f${i}`), 'x');
    const small = await snapshotTree(project, 3);
    expect(small).toMatchObject({
      complete: false,
      reason: 'the project holds more than 3 entries',
    });
    expect(small.entries.size).toBe(3);
  });

  it('looks again at the turn’s end: what changed after the agent said it finished makes it incomplete, and not undone', async () => {
    const a = command('x', []);
    await effects.allowed(a);
    writeFileSync(join(project, 'said.txt'), 'x');
    await finished(a);
    // Something it left running writes on after the agent said the command finished.
    writeFileSync(join(project, 'later.txt'), 'y');
    bus.publish({ type: 'turn_ended', sessionId: 's1', stopReason: 'end_turn' });
    await effects.settled();
    const recorded = events.filter((e) => e.type === 'command_effects').map((e) => e.payload);
    expect(recorded).toHaveLength(2);
    expect(recorded[1]).toMatchObject({
      state: 'incomplete',
      reason: 'the project changed after the agent said the command finished (1 more change)',
      endedBy: 'turn_end',
      counts: { created: 2 },
    });
    await expect(effects.undo(a.requestId, [])).rejects.toThrow(/not known whole/);
    expect(existsSync(join(project, 'said.txt'))).toBe(true);
  });

  it('does not look again when something else was allowed since', async () => {
    const a = command('x', []);
    await effects.allowed(a);
    await finished(a);
    await effects.allowed(command('y', []));
    writeFileSync(join(project, 'by-the-next.txt'), 'y');
    bus.publish({ type: 'turn_ended', sessionId: 's1', stopReason: 'end_turn' });
    await effects.settled();
    const forA = events.filter((e) => e.type === 'command_effects' && e.requestId === a.requestId);
    expect(forA).toHaveLength(1);
  });

  it('watches four commands of a session at once: past that the oldest is compared, as incomplete', async () => {
    const allowed = [1, 2, 3, 4, 5].map((n) => command(`c${n}`, []));
    for (const a of allowed) await effects.allowed(a);
    await effects.settled();
    expect(events.filter((e) => e.type === 'command_effects')).toEqual([
      expect.objectContaining({
        requestId: allowed[0]!.requestId,
        payload: expect.objectContaining({
          state: 'incomplete',
          reason: 'more commands were allowed before it finished than are watched at once',
        }),
      }),
    ]);
  });

  it('ends at the turn at the latest', async () => {
    const a = command('x', []);
    await effects.allowed(a);
    writeFileSync(join(project, 'late.txt'), 'x');
    bus.publish({ type: 'turn_ended', sessionId: 's1', stopReason: 'end_turn' });
    await effects.settled();
    expect(recorded()).toMatchObject({ endedBy: 'turn_end', counts: { created: 1 } });
  });
});

describe('what is kept before an allow', () => {
  it('bounds each file and each request, and names what was not kept', async () => {
    const big = Buffer.alloc(EFFECTS_LIMITS.keptFileBytes + 1, 1);
    writeFileSync(join(project, 'big.bin'), big);
    const names: string[] = [];
    // 17 files just under the per-file bound: together past the request's 16 MB.
    for (let i = 0; i < 17; i += 1) {
      const name = `f${String(i).padStart(2, '0')}.bin`;
      writeFileSync(join(project, name), Buffer.alloc(EFFECTS_LIMITS.keptFileBytes, i));
      names.push(name);
    }
    const a = command('x', [
      change('big.bin', 'modified'),
      ...names.map((n) => change(n, 'modified')),
    ]);
    await effects.allowed(a);
    const manifest = (await readManifest(home, a.requestId))!;
    expect(manifest.bytes).toBeLessThanOrEqual(EFFECTS_LIMITS.keptRequestBytes);
    expect(manifest.before.find((b) => b.path.endsWith('big.bin'))).toMatchObject({
      state: 'not_kept',
      why: 'larger than 1 MB (1 MB)',
    });
    expect(manifest.before.filter((b) => b.state === 'file')).toHaveLength(16);
    expect(manifest.before.at(-1)).toMatchObject({
      state: 'not_kept',
      why: 'past the 16 MB kept for one request',
    });
    expect(held[0]).toEqual(expect.any(Number));
  });

  it('never reads outside the roots, nor through a link the agent left', async () => {
    writeFileSync(join(outside, 'secret'), 'the user’s secret\n');
    symlinkSync(join(outside, 'secret'), join(project, 'notes.txt'));
    const a = command('x', [
      change('notes.txt', 'modified'),
      { ...change('x', 'modified'), path: join(outside, 'secret') },
    ]);
    await effects.allowed(a);
    const manifest = (await readManifest(home, a.requestId))!;
    expect(manifest.before.map((b) => b.state)).toEqual(['not_kept']);
    expect(manifest.before[0]).toMatchObject({ why: 'outside the writable roots' });
    const kept = readdirSync(requestFolder(home, a.requestId));
    expect(kept).toEqual(['manifest.json']);
  });

  it('an edit keeps its files before the write, and removes the oldest requests past the total', async () => {
    writeFileSync(join(project, 'a.txt'), 'before');
    const diff = {
      path: join(project, 'a.txt'),
      oldPath: null,
      change: 'modify' as const,
      binary: false,
      oldText: 'before',
      newText: 'after',
      truncated: false,
      oldBytes: 6,
      newBytes: 5,
      oldLines: 1,
      newLines: 1,
      hash: 'h',
    };
    const first = approval({
      toolCall: { toolCallId: 'e', kind: 'edit', title: 'e', locations: [], content: [] },
      diffs: [diff],
    });
    const second = approval({
      toolCall: { toolCallId: 'f', kind: 'edit', title: 'e', locations: [], content: [] },
      diffs: [diff],
    });
    await effects.allowed(first);
    await effects.allowed(second);
    expect((await readManifest(home, first.requestId))?.before).toEqual([
      expect.objectContaining({ state: 'file', size: 6 }),
    ]);
    expect((await pruneKept(home, 6)).removed).toEqual([first.requestId]);
    expect(await readManifest(home, first.requestId)).toBeNull();
    expect(await readManifest(home, second.requestId)).not.toBeNull();
    // Nothing was written by Gatehouse under the approval: nothing to undo.
    expect(await effects.undoStatus(second.requestId, [])).toMatchObject({
      available: false,
      reason: 'no write through Gatehouse used this approval',
    });
  });

  it('an allowed edit does not read every kept request again: the folder is scanned once, then counted', async () => {
    writeFileSync(join(project, 'a.txt'), 'before');
    const diff = {
      path: join(project, 'a.txt'),
      oldPath: null,
      change: 'modify' as const,
      binary: false,
      oldText: 'before',
      newText: 'after',
      truncated: false,
      oldBytes: 6,
      newBytes: 5,
      oldLines: 1,
      newLines: 1,
      hash: 'h',
    };
    const edit = (id: string) =>
      approval({
        toolCall: { toolCallId: id, kind: 'edit', title: 'e', locations: [], content: [] },
        diffs: [diff],
      });
    const first = edit('e');
    await effects.allowed(first);
    await effects.settled();
    // A request kept after the scan that claims the whole bound: only a new scan would see it.
    const planted = requestId();
    const manifest = (await readManifest(home, first.requestId))!;
    mkdirSync(requestFolder(home, planted));
    writeFileSync(
      join(requestFolder(home, planted), 'manifest.json'),
      JSON.stringify({ ...manifest, requestId: planted, bytes: EFFECTS_LIMITS.keptTotalBytes }),
    );
    vi.mocked(pruneKept).mockClear();
    await effects.allowed(edit('f'));
    await effects.allowed(edit('g'));
    await effects.settled();
    // Counted, 18 bytes kept: under the bound, nothing read again and nothing removed.
    expect(pruneKept).not.toHaveBeenCalled();
    expect(await readManifest(home, first.requestId)).not.toBeNull();
    expect(await readManifest(home, planted)).not.toBeNull();
  });
});
