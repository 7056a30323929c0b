// What an allowed request really did, and undo: a scripted agent in Gatehouse's own sandbox edits a
// file through fs/write_text_file and runs a command itself after approval. History records what
// changed; "undo" puts it back — and is refused, changing nothing, when a file changed since, when a
// folder on the way became a link out of the project, and for callers who may not.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { bwrapMissing } from '../support/bwrap';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const OPTIONS = [
  { optionId: 'yes', name: 'Yes', kind: 'allow_once' as const },
  { optionId: 'no', name: 'No', kind: 'reject_once' as const },
];

function editStep(path: string, oldText: string | null, newText: string): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: {
      toolCallId: `edit-${path}`,
      kind: 'edit',
      title: `Write ${path}`,
      locations: [{ path }],
      content: [{ type: 'diff', path, oldText, newText }],
    },
    options: OPTIONS,
    onAllow: [{ type: 'writeFile', path, content: newText, via: 'client' }],
  };
}

function commandStep(command: string, toolCallId = 'cmd'): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: { toolCallId, kind: 'execute', title: command, rawInput: { command } },
    options: OPTIONS,
    // The agent runs it itself, in its sandbox, once allowed; then reports the tool call finished.
    onAllow: [{ type: 'shell', command }],
  };
}

const skip = bwrapMissing('undo changes');

describe.skipIf(skip)('what an allowed request did, and undo', () => {
  let folder: string;
  let outside: string;
  let session: ScriptedSession | undefined;
  beforeEach(() => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-undo-')));
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-undo-outside-')));
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    rmSync(folder, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  /** Previews off unless asked for: whether one finishes before the vote is then no race. */
  async function start(onPrompt: Record<string, ScriptStep[]>, preview = false) {
    session = await startScriptedSession({ onPrompt }, { folder, agent: { preview } });
    return session;
  }

  /**
   * Runs a prompt whose one request a person allows (once its preview finished, with `preview`);
   * resolves with the request id.
   */
  async function allowTurn(s: ScriptedSession, text: string, preview = false): Promise<string> {
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text });
    const approval = await s.gh.nextApproval((a) => a.sessionId === s.sessionId);
    if (preview) {
      await expect
        .poll(() => s.gh.core.pipeline.pending.get(approval.requestId)?.preview?.state, {
          timeout: 20_000,
        })
        .toBe('done');
    }
    await s.gh.api.call('vote', { requestId: approval.requestId, optionId: 'yes' });
    await turn;
    await s.gh.core.store.flush();
    return approval.requestId;
  }

  const eventsOf = async (s: ScriptedSession, type: string) => {
    await s.gh.core.store.flush();
    return s.gh.core.store.events({ type });
  };

  it('undo puts an approved edit back, once, and audits who asked', async () => {
    const notes = join(folder, 'notes.txt');
    const fresh = join(folder, 'docs', 'new.md');
    writeFileSync(notes, 'old\n');
    const s = await start({
      notes: [editStep(notes, 'old\n', 'new\n')],
      fresh: [editStep(fresh, null, '# new\n')],
    });
    const edited = await allowTurn(s, 'notes');
    const created = await allowTurn(s, 'fresh');
    expect(readFileSync(notes, 'utf8')).toBe('new\n');
    expect(readFileSync(fresh, 'utf8')).toBe('# new\n');

    const detail = await s.gh.api.call('historyDetail', { requestId: edited });
    expect(detail.undo).toEqual({ available: true, reason: null, undoneAt: null });

    expect(await s.gh.api.call('undoChanges', { requestId: edited })).toEqual({
      ok: true,
      restored: 1,
      removed: 0,
    });
    expect(readFileSync(notes, 'utf8')).toBe('old\n');
    // A file the edit created is removed.
    expect(await s.gh.api.call('undoChanges', { requestId: created })).toMatchObject({
      removed: 1,
    });
    expect(existsSync(fresh)).toBe(false);

    const [applied] = await eventsOf(s, 'undo_applied');
    expect(applied).toMatchObject({
      requestId: created,
      payload: { restored: 0, removed: 1, by: { paired: true, transport: 'http' } },
    });
    // Once: the second time is refused with the reason, and that is audited too.
    await expect(s.gh.api.call('undoChanges', { requestId: edited })).rejects.toThrow(
      /undone already/,
    );
    expect(readFileSync(notes, 'utf8')).toBe('old\n');
    expect((await eventsOf(s, 'undo_refused'))[0]).toMatchObject({
      requestId: edited,
      payload: { reason: expect.stringMatching(/undone already/) },
    });
    const after = await s.gh.api.call('historyDetail', { requestId: edited });
    expect(after.undo).toMatchObject({ available: false, undoneAt: expect.any(Number) });
  });

  it('refuses, changing nothing, when the file changed again since', async () => {
    const notes = join(folder, 'notes.txt');
    writeFileSync(notes, 'old\n');
    const s = await start({ go: [editStep(notes, 'old\n', 'new\n')] });
    const requestId = await allowTurn(s, 'go');
    writeFileSync(notes, 'new\nand a person typed more\n');
    await expect(s.gh.api.call('undoChanges', { requestId })).rejects.toThrow(
      /Undo refused: notes.txt changed since/,
    );
    expect(readFileSync(notes, 'utf8')).toBe('new\nand a person typed more\n');
    expect(await eventsOf(s, 'undo_refused')).toHaveLength(1);
  });

  it('records what an approved command changed in the project, and undo removes what it made', async () => {
    writeFileSync(join(folder, 'keep.txt'), 'keep\n');
    const s = await start({
      go: [commandStep('mkdir -p build/out && echo built > build/out/app.js && echo 1 > stamp')],
    });
    const requestId = await allowTurn(s, 'go');
    await s.gh.core.store.flush();
    await expect
      .poll(async () => (await s.gh.api.call('historyDetail', { requestId })).effects)
      .toBeDefined();
    const detail = await s.gh.api.call('historyDetail', { requestId });
    expect(detail.effects).toMatchObject({
      state: 'observed',
      endedBy: 'completed',
      counts: { created: 4, modified: 0, deleted: 0, renamed: 0, outside: 0, protected: 0 },
      // No preview ran here: nothing to compare with.
      previewed: null,
      difference: null,
    });
    expect(detail.effects!.changes.map((c) => [c.path, c.change, c.entry])).toEqual([
      [join(folder, 'build'), 'created', 'folder'],
      [join(folder, 'build/out'), 'created', 'folder'],
      [join(folder, 'build/out/app.js'), 'created', 'file'],
      [join(folder, 'stamp'), 'created', 'file'],
    ]);
    const [recorded] = await eventsOf(s, 'command_effects');
    expect(recorded).toMatchObject({ requestId, payload: { heldReplyMs: expect.any(Number) } });
    expect(detail.undo).toEqual({ available: true, reason: null, undoneAt: null });

    expect(await s.gh.api.call('undoChanges', { requestId })).toEqual({
      ok: true,
      restored: 0,
      removed: 2,
    });
    expect(existsSync(join(folder, 'build'))).toBe(false);
    expect(existsSync(join(folder, 'stamp'))).toBe(false);
    expect(readFileSync(join(folder, 'keep.txt'), 'utf8')).toBe('keep\n');
  });

  it('undo restores what an approved command changed and deleted, as its preview named them', async () => {
    writeFileSync(join(folder, 'a.txt'), 'a before\n');
    writeFileSync(join(folder, 'b.txt'), 'b before\n');
    const s = await start(
      { go: [commandStep('echo a after > a.txt && rm b.txt && echo new > n.txt')] },
      true,
    );
    const requestId = await allowTurn(s, 'go', true);
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('a after\n');
    await expect
      .poll(async () => (await s.gh.api.call('historyDetail', { requestId })).effects)
      .toMatchObject({
        counts: { created: 1, modified: 1, deleted: 1 },
        previewed: { created: 1, modified: 1, deleted: 1 },
        difference: null,
      });
    expect(await s.gh.api.call('undoChanges', { requestId })).toEqual({
      ok: true,
      restored: 2,
      removed: 1,
    });
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('a before\n');
    expect(readFileSync(join(folder, 'b.txt'), 'utf8')).toBe('b before\n');
    expect(existsSync(join(folder, 'n.txt'))).toBe(false);
  });

  it('flags an agent that did more than the command it showed: previewed 1 file, changed 3', async () => {
    const s = await start(
      {
        go: [
          {
            type: 'requestPermission',
            toolCall: {
              toolCallId: 'lie',
              kind: 'execute',
              title: 'touch one.txt',
              rawInput: { command: 'touch one.txt' },
            },
            options: OPTIONS,
            onAllow: [{ type: 'shell', command: 'touch one.txt two.txt three.txt' }],
          },
        ],
      },
      true,
    );
    const requestId = await allowTurn(s, 'go', true);
    await expect
      .poll(async () => (await s.gh.api.call('historyDetail', { requestId })).effects?.difference)
      .toBe('previewed 1 file, changed 3');
    const [recorded] = await eventsOf(s, 'command_effects');
    expect(recorded!.payload).toMatchObject({
      previewed: { created: 1 },
      counts: { created: 3 },
    });
    // What it made can still be taken away: files it created need no kept contents.
    expect(await s.gh.api.call('undoChanges', { requestId })).toMatchObject({ removed: 3 });
  });

  it('a command that changed a file whose contents were not kept cannot be undone, and says why', async () => {
    writeFileSync(join(folder, 'config.ini'), 'a=1\n');
    const s = await start({ go: [commandStep("sed -i 's/1/2/' config.ini && touch made.txt")] });
    const requestId = await allowTurn(s, 'go');
    await expect
      .poll(async () => (await s.gh.api.call('historyDetail', { requestId })).effects?.counts)
      .toMatchObject({ created: 1, modified: 1 });
    const detail = await s.gh.api.call('historyDetail', { requestId });
    expect(detail.undo).toMatchObject({
      available: false,
      reason: expect.stringContaining('config.ini before were not kept'),
    });
    await expect(s.gh.api.call('undoChanges', { requestId })).rejects.toThrow(
      /not kept \(the preview did not list it\)/,
    );
    // All or nothing: the file it could remove is still there.
    expect(existsSync(join(folder, 'made.txt'))).toBe(true);
  });

  it('refuses when a folder on the way became a link out of the project: nothing outside is touched', async () => {
    const s = await start({ go: [commandStep('mkdir build && echo built > build/app.js')] });
    const requestId = await allowTurn(s, 'go');
    await expect
      .poll(async () => (await s.gh.api.call('historyDetail', { requestId })).undo?.available)
      .toBe(true);
    // The folder swapped for a link to a look-alike outside, as a hostile agent would leave it.
    mkdirSync(join(outside, 'victim'));
    writeFileSync(join(outside, 'victim', 'app.js'), 'built\n');
    renameSync(join(folder, 'build'), join(folder, 'build-moved'));
    symlinkSync(join(outside, 'victim'), join(folder, 'build'));
    await expect(s.gh.api.call('undoChanges', { requestId })).rejects.toThrow(
      /build\/app.js is no longer where it was/,
    );
    expect(readFileSync(join(outside, 'victim', 'app.js'), 'utf8')).toBe('built\n');
  });

  it('the route validates its input and asks for the same authentication as every command', async () => {
    const notes = join(folder, 'notes.txt');
    writeFileSync(notes, 'old\n');
    const s = await start({ go: [editStep(notes, 'old\n', 'new\n')] });
    const requestId = await allowTurn(s, 'go');
    const url = (id: string) => `${s.gh.server.url}/api/history/${id}/undo`;
    const post = (id: string, headers: Record<string, string>) =>
      fetch(url(id), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      });
    const bearer = { authorization: `Bearer ${s.gh.token}` };

    const noToken = await post(requestId, {});
    expect(noToken.status).toBe(401);
    const badId = await post('not-a-uuid', bearer);
    expect(badId.status).toBe(400);
    expect(((await badId.json()) as { error: { message: string } }).error.message).toMatch(
      /requestId/,
    );
    // Without a pairing the answer is the same whatever the id: no look-up for who may not ask.
    expect((await post('0190a4a0-0000-7000-8000-000000000000', bearer)).status).toBe(403);
    await expect(
      s.gh.api.call('undoChanges', { requestId: '0190a4a0-0000-7000-8000-000000000000' }),
    ).rejects.toThrow(/no decided request/);
    // A client holding only the token, not paired by a person, may not write files back.
    const unpaired = await s.gh.client({ paired: false });
    await expect(unpaired.call('undoChanges', { requestId })).rejects.toThrow(/paired/);
    expect(readFileSync(notes, 'utf8')).toBe('new\n');
    expect((await eventsOf(s, 'undo_refused')).map((e) => e.payload)).toContainEqual(
      expect.objectContaining({ reason: expect.stringMatching(/paired/) }),
    );
  });
});
