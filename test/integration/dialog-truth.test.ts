// What the dialog shows is what will really change, through real requests of a scripted agent: a
// diff's "before" is the file on disk, a path through a link shows where it lands, and letters
// that only look like ASCII are revealed by code point.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/shared/domain';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';
import { freshDir, type Cleanup } from '../support/steps';

const OPTIONS = [
  { optionId: 'yes', name: 'Yes', kind: 'allow_once' as const },
  { optionId: 'no', name: 'No', kind: 'reject_once' as const },
];

const shell = (command: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: { toolCallId: `sh-${command}`, kind: 'execute', title: command, rawInput: { command } },
  options: OPTIONS,
});

/** Asks to edit `path`; allowed, writes `written` (the agent's newText unless given) through the client. */
function edit(
  path: string,
  oldText: string | null,
  newText: string,
  written = newText,
): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: {
      toolCallId: `edit-${path}`,
      kind: 'edit',
      title: `Edit ${path}`,
      locations: [{ path }],
      content: [{ type: 'diff', path, oldText, newText }],
    },
    options: OPTIONS,
    onAllow: [{ type: 'writeFile', path, content: written, via: 'client' }],
  };
}

describe('the dialog shows what will really change', () => {
  const cleanup: Cleanup = [];
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** Runs one prompt of `steps`, answering the one request asked with `optionId`. */
  async function askOnce(folder: string, steps: ScriptStep[], optionId = 'no') {
    session = await startScriptedSession({ onPrompt: { go: steps } }, { folder });
    const s = session;
    const turn = s.gh.api.call('prompt', { sessionId: s.sessionId, text: 'go' });
    const asked = await s.gh.nextApproval();
    await s.gh.api.call('vote', { requestId: asked.requestId, optionId });
    await turn;
    await s.gh.core.store.flush();
    return asked;
  }
  const codes = (a: PendingApproval) => a.warnings.map((w) => [w.code, w.severity]);
  const message = (a: PendingApproval, code: string) =>
    a.warnings.find((w) => w.code === code)?.message ?? '';

  it("an edit whose 'before' is not the file on disk is shown from disk, with what would be lost; the history keeps it", async () => {
    const folder = freshDir(cleanup, 'gatehouse-truth-');
    const file = join(folder, 'big.txt');
    const onDisk = Array.from({ length: 202 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    writeFileSync(file, onDisk);
    const newText = 'alpha\nbeta\ngamma\n';
    const asked = await askOnce(folder, [edit(file, 'alpha\nbeta\n', newText)], 'yes');

    const [diff] = asked.diffs;
    expect(diff).toMatchObject({ change: 'modify', oldText: onDisk, newText, oldLines: 202 });
    expect(codes(asked)).toContainEqual(['disk_differs', 'danger']);
    expect(message(asked, 'disk_differs')).toContain('199 lines would be lost');

    // The person saw the whole loss and approved it: that is what is written, and kept.
    expect(readFileSync(file, 'utf8')).toBe(newText);
    const detail = await session!.gh.api.call('historyDetail', { requestId: asked.requestId });
    expect(detail.diffs[0]).toMatchObject({ oldText: onDisk, oldLines: 202, newLines: 3 });
    expect(detail.warnings.map((w) => w.code)).toContain('disk_differs');
    expect(detail.writes).toEqual([expect.objectContaining({ outcome: 'written' })]);
  });

  it('an edit whose before matches the disk is shown as sent', async () => {
    const folder = freshDir(cleanup, 'gatehouse-truth-');
    const file = join(folder, 'a.txt');
    writeFileSync(file, 'one\ntwo\nthree\n');
    const asked = await askOnce(folder, [edit(file, 'one\ntwo\nthree\n', 'one\n')]);
    expect(asked.diffs[0]).toMatchObject({ oldText: 'one\ntwo\nthree\n', newText: 'one\n' });
    expect(codes(asked)).toEqual([]);
  });

  it('an edit that replaces a passage is shown as the whole file it makes, and only that file is written', async () => {
    const folder = freshDir(cleanup, 'gatehouse-truth-');
    const file = join(folder, 'a.txt');
    const onDisk = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    writeFileSync(file, onDisk);
    const after = onDisk.replace('line 7\n', 'LINE SEVEN\n');
    // A hostile agent: the passage is real, but what it writes is the bare passage, which would
    // cut the 50-line file to one line.
    const asked = await askOnce(folder, [edit(file, 'line 7\n', 'LINE SEVEN\n')], 'yes');
    expect(asked.diffs[0]).toMatchObject({ oldText: onDisk, newText: after, oldLines: 50 });
    expect(codes(asked)).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(onDisk);
    const [refused] = await session!.gh.core.store.events({ type: 'fs_write_refused' });
    expect(refused!.payload).toMatchObject({ path: file });

    // The agent that writes the file the person saw is let through.
    await session!.close();
    session = undefined;
    await askOnce(folder, [edit(file, 'line 7\n', 'LINE SEVEN\n', after)], 'yes');
    expect(readFileSync(file, 'utf8')).toBe(after);
  });

  it('g -> .git: g/hooks/pre-commit is asked, showing the hook it resolves to and what runs it', async () => {
    const folder = freshDir(cleanup, 'gatehouse-truth-');
    mkdirSync(join(folder, '.git', 'hooks'), { recursive: true });
    symlinkSync('.git', join(folder, 'g'));
    const asked = await askOnce(folder, [edit(join(folder, 'g/hooks/pre-commit'), null, 'x\n')]);
    expect(codes(asked)).toEqual(
      expect.arrayContaining([
        ['link_target', 'danger'],
        ['protected_file', 'danger'],
      ]),
    );
    expect(message(asked, 'link_target')).toContain(join(folder, '.git/hooks/pre-commit'));
    expect(message(asked, 'protected_file')).toContain('git runs these hooks on commit');
  });

  it('a link to ~/.bashrc shows where it resolves, outside the session folder', async () => {
    const folder = freshDir(cleanup, 'gatehouse-truth-');
    symlinkSync(join(homedir(), '.bashrc'), join(folder, 'rc'));
    const asked = await askOnce(folder, [edit(join(folder, 'rc'), null, 'alias ls=rm\n')]);
    expect(codes(asked)).toContainEqual(['link_target', 'danger']);
    expect(message(asked, 'link_target')).toContain(
      `resolves to ${join(homedir(), '.bashrc')}, outside the session folder`,
    );
  });

  it('a command with a Cyrillic look-alike is revealed by code point; French and Russian commit messages are not flagged', async () => {
    const folder = freshDir(cleanup, 'gatehouse-truth-');
    const lookalike = await askOnce(folder, [shell('npm t\u0435st && npm publish')]);
    expect(codes(lookalike)).toContainEqual(['lookalike', 'danger']);
    expect(message(lookalike, 'lookalike')).toContain('U+0435 Cyrillic, looks like "e"');
    await session!.close();
    session = undefined;
    const french = await askOnce(folder, [shell('git commit -m "Corrigé l\'accès à la base"')]);
    expect(codes(french)).toEqual([]);
    await session!.close();
    session = undefined;
    const russian = await askOnce(folder, [
      shell('git commit -m "Исправлена ошибка с кодировкой в отчёте"'),
    ]);
    expect(codes(russian)).toEqual([]);
  });

  it('a transcript entry shows what was asked, and marks what the agent changed after the decision', async () => {
    const folder = freshDir(cleanup, 'gatehouse-truth-');
    const file = join(folder, 'notes.txt');
    const later = { type: 'diff' as const, path: file, oldText: null, newText: 'rm -rf ~\n' };
    const step: ScriptStep = {
      ...(edit(file, null, 'hello\n') as Extract<ScriptStep, { type: 'requestPermission' }>),
      onAllow: [
        { type: 'writeFile', path: file, content: 'hello\n', via: 'client' },
        { type: 'toolCallUpdate', update: { toolCallId: `edit-${file}`, content: [later] } },
      ],
    };
    const asked = await askOnce(folder, [step], 'yes');
    const { entries } = await session!.gh.api.call('getTranscript', {
      sessionId: session!.sessionId,
    });
    const tool = entries.find((e) => e.kind === 'tool');
    expect(tool).toMatchObject({
      asked: {
        requestId: asked.requestId,
        diffs: [{ path: file, oldText: null, newText: 'hello\n' }],
        command: null,
      },
      diffs: [{ newText: 'rm -rf ~\n' }],
      changedAfterDecision: true,
    });
  });
});
