// The store's writer thread dies alone, in the worst moment: while it holds a decision the agent is
// waiting for. The agent must not be allowed on a decision that was never committed, the loss is
// audited, and the core goes on deciding with a new writer.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const OPTIONS = [
  { optionId: 'yes', name: 'Yes', kind: 'allow_once' as const },
  { optionId: 'no', name: 'No', kind: 'reject_once' as const },
];

function write(path: string, content: string): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: {
      toolCallId: `write-${content.trim()}`,
      kind: 'edit',
      title: `Write ${path}`,
      locations: [{ path }],
      content: [{ type: 'diff', path, oldText: null, newText: content }],
    },
    options: OPTIONS,
    onAllow: [{ type: 'writeFile', path, content }],
  } as ScriptStep;
}

let session: ScriptedSession | undefined;
let folder: string | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
  if (folder) rmSync(folder, { recursive: true, force: true });
});

it('a writer that dies holding a decision: the agent is not allowed, the loss is audited, the next request is decided', async () => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-work-')));
  const first = join(folder, 'first.txt');
  const second = join(folder, 'second.txt');
  session = await startScriptedSession(
    { prompts: [[write(first, 'one\n')], [write(second, 'two\n')]] },
    { folder },
  );
  const { gh, sessionId } = session;
  const { store } = gh.core;

  // The writer thread ends the moment the first decision is handed to it, before it can commit.
  const commit = store.recordDecision;
  store.recordDecision = (...args) => {
    store.recordDecision = commit;
    const committed = commit(...args);
    void store.threads.writer.worker!.terminate();
    return committed;
  };

  const turn = gh.api.call('prompt', { sessionId, text: 'one' });
  const asked = await gh.nextApproval();
  await gh.api.call('vote', { requestId: asked.requestId, optionId: 'yes' });
  await turn.catch(() => undefined);
  // Fail closed: the agent heard no allow and wrote nothing.
  expect(session.replies()).toEqual([]);
  expect(existsSync(first)).toBe(false);

  // The new writer decides the next request and the chain holds.
  const next = gh.api.call('prompt', { sessionId, text: 'two' });
  const again = await gh.nextApproval();
  await gh.api.call('vote', { requestId: again.requestId, optionId: 'yes' });
  await next;
  expect(readFileSync(second, 'utf8')).toBe('two\n');
  expect(session.replies()).toEqual([{ outcome: 'selected', optionId: 'yes' }]);
  await store.flush();
  expect((await store.historyDetail(again.requestId))?.reply).toMatchObject({ optionId: 'yes' });
  expect(await store.historyDetail(asked.requestId)).toBeNull();
  expect((await store.events({ type: 'store_thread_stopped' })).map((e) => e.payload)).toEqual([
    expect.objectContaining({ role: 'writer', replaced: true }),
  ]);
  expect(await store.verifyChain()).toMatchObject({ ok: true });
});
