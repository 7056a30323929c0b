// An agent that floods its session with updates: its own permission request is not held behind the
// flood's display, it sees its tool call's latest state, another session's request is not held
// either, and what the transcript shows of the flood adds up with what it says it dropped.
import { afterEach, describe, expect, it } from 'vitest';
import type { GatehouseEvent } from '../../src/shared/contract';
import { TRANSCRIPT_LIMITS } from '../../src/shared/transcript';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { scriptedAgentConfig, type FloodStep } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { realpathSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OPTIONS: PermissionOption[] = [
  { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];
const FLOOD = 20_000;

/** A flood's own updates: its text chunks and the tool call updates it interleaves. */
function isFloodUpdate(event: GatehouseEvent, sessionId: string): boolean {
  if (event.type !== 'session_update' || event.sessionId !== sessionId) return false;
  const update = event.update as { content?: { text?: string }; title?: string };
  return (
    /^[uv]\d+ $/.test(update.content?.text ?? '') || /^write step \d+$/.test(update.title ?? '')
  );
}

describe('fair streams', () => {
  let gh: TestGatehouse | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function start(flood: FloodStep, quiet = false): Promise<TestGatehouse> {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-work-')));
    gh = await startGatehouse({
      agents: {
        flood: scriptedAgentConfig({
          prompts: [
            [
              {
                type: 'toolCall',
                toolCallId: 'w1',
                title: 'write notes.txt',
                kind: 'edit',
                status: 'pending',
              },
              flood,
            ],
          ],
        }),
        ...(quiet
          ? {
              quiet: scriptedAgentConfig({
                prompts: [
                  [
                    {
                      type: 'requestPermission',
                      toolCall: { toolCallId: 'q1', title: 'quiet edit', kind: 'edit' },
                      options: OPTIONS,
                    },
                  ],
                ],
              }),
            }
          : {}),
      },
    });
    return gh;
  }

  /** How many of the flood's updates had reached the bus when each request reached the pipeline. */
  function countAtPipeline(g: TestGatehouse, floodSession: () => string): Map<string, number> {
    const seen = new Map<string, number>();
    const pipeline = g.core.pipeline;
    const handle = pipeline.handle.bind(pipeline);
    pipeline.handle = (session, raw, ...rest) => {
      const shown = g.events.filter((e) => isFloodUpdate(e, floodSession())).length;
      seen.set(session.sessionId, shown);
      return handle(session, raw, ...rest);
    };
    return seen;
  }

  /** The flood's updates the transcript says it dropped. */
  async function droppedOf(g: TestGatehouse, sessionId: string): Promise<number> {
    const transcript = await g.api.call('getTranscript', { sessionId });
    expect(transcript.entries.length).toBeLessThanOrEqual(TRANSCRIPT_LIMITS.entries);
    return transcript.entries.reduce((sum, e) => sum + (e.kind === 'dropped' ? e.updates : 0), 0);
  }

  it("an agent's request behind its own flood reaches the pipeline ahead of it, with its call's latest state", async () => {
    const g = await start({
      type: 'flood',
      count: FLOOD,
      calls: { toolCallId: 'w1', title: 'write step', count: 1_000 },
      ask: { toolCallId: 'w1', options: OPTIONS, with: 300 },
    });
    let sessionId = '';
    const atPipeline = countAtPipeline(g, () => sessionId);
    ({ sessionId } = await g.api.call('createSession', { agentId: 'flood', cwd: folder! }));
    const turn = g.api.call('prompt', { sessionId, text: 'go' });
    const approval = await g.nextApproval((a) => a.sessionId === sessionId);

    // All of the flood was sent before the request, and the 300 updates of its own write were read
    // with it: none of those had been shown when the request was judged.
    expect(atPipeline.get(sessionId)).toBeLessThanOrEqual(FLOOD);
    // Its tool call as the last of its updates left it, though the request names only its id.
    expect(approval.toolCall.title).toBe(`write step ${2 * 1_000 - 1}`);
    expect(approval.toolCall.kind).toBe('edit');

    await g.api.call('vote', { requestId: approval.requestId, optionId: 'no' });
    await turn;
    // The turn ends after everything said in it: shown, or counted where it was dropped.
    const shown = g.events.filter((e) => isFloodUpdate(e, sessionId)).length;
    expect(shown + (await droppedOf(g, sessionId))).toBe(FLOOD + 300);
    const transcript = await g.api.call('getTranscript', { sessionId });
    const texts = transcript.entries.flatMap((e) => (e.kind === 'agent' ? [e.text] : []));
    expect(texts.join('')).toContain('v299 flood ask: {"outcome":"selected","optionId":"no"}');
  });

  it('a request whose own call flooded is shown a tail of it; the rest is dropped, counted and audited', async () => {
    const g = await start({
      type: 'flood',
      count: 5_000,
      calls: { toolCallId: 'w1', title: 'write step', count: 0 },
      ask: { toolCallId: 'w1', options: OPTIONS, with: 600, ofCall: true },
    });
    const { sessionId } = await g.api.call('createSession', { agentId: 'flood', cwd: folder! });
    const turn = g.api.call('prompt', { sessionId, text: 'go' });
    const approval = await g.nextApproval((a) => a.sessionId === sessionId);
    expect(approval.toolCall.title).toBe('write step 5599');
    await g.api.call('vote', { requestId: approval.requestId, optionId: 'ok' });
    await turn;

    // The 600 updates of its call came in the request's own write: at most a tail of 200 was shown
    // before it, and what was older in its way was dropped.
    const dropped = await droppedOf(g, sessionId);
    expect(dropped).toBeGreaterThanOrEqual(400);
    const shown = g.events.filter((e) => isFloodUpdate(e, sessionId)).length;
    expect(shown + dropped).toBe(5_000 + 600);
    const transcript = await g.api.call('getTranscript', { sessionId });
    const tool = transcript.entries.find((e) => e.kind === 'tool' && e.toolCallId === 'w1');
    expect(tool?.kind === 'tool' && tool.title).toBe('write step 5599');
    // Told in the audit once per flood, with the same count.
    const floods = (await g.core.store.events({ type: 'update_flood' })).filter(
      (e) => e.sessionId === sessionId,
    );
    const audited = floods.map((e) => (e.payload as { dropped: number }).dropped);
    expect(audited.reduce((a, b) => a + b, 0)).toBe(dropped);
  });

  it('a mode switch dropped from the display in a flood is still applied, and the agent set back', async () => {
    const g = await start({
      type: 'flood',
      count: 2_000,
      calls: { toolCallId: 'w1', title: 'write step', count: 0 },
      ask: {
        toolCallId: 'w1',
        options: OPTIONS,
        with: 600,
        ofCall: true,
        modeId: 'bypassPermissions',
      },
    });
    const { sessionId } = await g.api.call('createSession', { agentId: 'flood', cwd: folder! });
    const turn = g.api.call('prompt', { sessionId, text: 'go' });
    const approval = await g.nextApproval((a) => a.sessionId === sessionId);
    await g.api.call('vote', { requestId: approval.requestId, optionId: 'no' });
    await turn;
    // Its display was in the request's way, older than the tail: dropped.
    const switched = g.events.filter(
      (e) =>
        e.type === 'session_update' &&
        e.sessionId === sessionId &&
        (e.update as { currentModeId?: string }).currentModeId === 'bypassPermissions',
    );
    expect(switched).toEqual([]);
    expect(await droppedOf(g, sessionId)).toBeGreaterThanOrEqual(400);
    // What it changed was applied as it was read: the mode guard set the agent back, audited.
    await g.core.store.flush();
    const resets = await g.core.store.events({ type: 'agent_mode_reset', sessionId });
    expect(resets.map((e) => e.payload)).toContainEqual({
      via: 'mode',
      from: 'bypassPermissions',
      to: 'default',
    });
  });

  it("another session's request is judged while a flood runs, and the flood is audited once it ends", async () => {
    const g = await start({ type: 'flood', count: 100_000_000 }, true);
    let floodId = '';
    const atPipeline = countAtPipeline(g, () => floodId);
    ({ sessionId: floodId } = await g.api.call('createSession', {
      agentId: 'flood',
      cwd: folder!,
    }));
    const { sessionId: quietId } = await g.api.call('createSession', {
      agentId: 'quiet',
      cwd: folder!,
    });
    const flooding = g.api.call('prompt', { sessionId: floodId, text: 'go' });
    await g.waitForEvent('session_update', (e) => isFloodUpdate(e, floodId));

    const quietTurn = g.api.call('prompt', { sessionId: quietId, text: 'go' });
    const approval = await g.nextApproval((a) => a.sessionId === quietId);
    // The flood never stops by itself: the quiet request was judged while it ran.
    expect(atPipeline.get(quietId)).toBeGreaterThan(0);
    expect(g.core.sessions.get(floodId).state).toBe('prompting');
    await g.api.call('vote', { requestId: approval.requestId, optionId: 'ok' });
    expect((await quietTurn).stopReason).toBe('end_turn');

    await g.api.call('cancelTurn', { sessionId: floodId });
    expect((await flooding).stopReason).toBe('cancelled');
    // Held at least once (the agent writes far faster than a person can be shown), told once per flood.
    const floods = (await g.core.store.events({ type: 'update_flood' })).filter(
      (e) => e.sessionId === floodId,
    );
    expect(floods.length).toBeGreaterThan(0);
    const told = floods.map(
      (e) => e.payload as { updates: number; dropped: number; holds: number },
    );
    expect(told.every((f) => f.holds > 0 || f.dropped > 0)).toBe(true);
    const shown = g.events.filter((e) => isFloodUpdate(e, floodId)).length;
    const transcript = await g.api.call('getTranscript', { sessionId: floodId });
    expect(transcript.entries.length).toBeLessThanOrEqual(TRANSCRIPT_LIMITS.entries);
    expect(shown).toBeGreaterThan(0);
  });
});
