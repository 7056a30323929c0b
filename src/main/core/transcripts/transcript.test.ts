import { describe, expect, it } from 'vitest';
import { Transcript, TRANSCRIPT_LIMITS } from '../../../shared/transcript';
import { EventBus } from '../events/bus';
import type { GatehouseEvent } from '../../../shared/contract';
import { prepareDiffs } from '../safety/diff';
import { Transcripts } from './transcripts';

const REQUEST = '0190a0b0-0000-7000-8000-000000000001';

function book() {
  const bus = new EventBus();
  const events: GatehouseEvent[] = [];
  bus.subscribe((e) => events.push(e));
  let t = 1_000;
  const transcripts = new Transcripts(bus, () => t++);
  return { bus, events, transcripts };
}

const text = (sessionUpdate: string, value: string) => ({
  sessionUpdate,
  content: { type: 'text', text: value },
});

describe('a transcript rebuilt from session updates', () => {
  it('joins message chunks, keeps thoughts apart and starts a new message after a tool call', () => {
    const { transcripts } = book();
    transcripts.prompted('s1', 'make hello.py');
    transcripts.record('s1', text('agent_thought_chunk', 'I should '));
    transcripts.record('s1', text('agent_thought_chunk', 'write it.'));
    transcripts.record('s1', text('agent_message_chunk', 'Sure, '));
    transcripts.record('s1', text('agent_message_chunk', 'writing it.'));
    transcripts.record('s1', {
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Write hello.py',
      kind: 'edit',
    });
    transcripts.record('s1', text('agent_message_chunk', 'Done.'));
    const { entries } = transcripts.get('s1');
    expect(
      entries.map((e) => [e.kind, e.kind === 'tool' ? e.title : 'text' in e ? e.text : '']),
    ).toEqual([
      ['user', 'make hello.py'],
      ['thought', 'I should write it.'],
      ['agent', 'Sure, writing it.'],
      ['tool', 'Write hello.py'],
      ['agent', 'Done.'],
    ]);
    expect(Transcript.safeParse(transcripts.get('s1')).success).toBe(true);
  });

  it('merges tool call updates by id: status, locations, the diff and the command', () => {
    const { transcripts } = book();
    transcripts.record('s1', {
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Edit a.ts',
      kind: 'edit',
      status: 'pending',
      locations: [{ path: '/p/a.ts', line: 3 }],
    });
    transcripts.record('s1', {
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      status: 'completed',
      content: [{ type: 'diff', path: '/p/a.ts', oldText: 'a', newText: 'b' }],
    });
    transcripts.record('s1', {
      sessionUpdate: 'tool_call',
      toolCallId: 't2',
      title: 'Run',
      kind: 'execute',
      rawInput: { command: ['npm', 'test'] },
    });
    const [edit, run] = transcripts.get('s1').entries;
    expect(edit).toMatchObject({
      kind: 'tool',
      title: 'Edit a.ts',
      toolKind: 'edit',
      status: 'completed',
      locations: [{ path: '/p/a.ts', line: 3 }],
      diffs: [
        {
          path: '/p/a.ts',
          change: 'modify',
          oldText: 'a',
          newText: 'b',
          oldLines: 1,
          newLines: 1,
          truncated: false,
        },
      ],
    });
    expect(run).toMatchObject({
      kind: 'tool',
      toolKind: 'execute',
      command: 'npm test',
      status: 'pending',
    });
  });

  it('replaces the plan of the turn, and a new prompt starts a new plan', () => {
    const { transcripts } = book();
    const plan = (status: string) => ({
      sessionUpdate: 'plan',
      entries: [{ content: 'step', priority: 'high', status }],
    });
    transcripts.record('s1', plan('pending'));
    transcripts.record('s1', plan('completed'));
    transcripts.prompted('s1', 'again');
    transcripts.record('s1', plan('in_progress'));
    const plans = transcripts.get('s1').entries.filter((e) => e.kind === 'plan');
    expect(plans.map((p) => p.items[0]?.status)).toEqual(['completed', 'in_progress']);
  });

  it('puts a decision in its place, naming the tool call it answered and its decider', () => {
    const { bus, transcripts } = book();
    transcripts.record('s1', {
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Write x',
      kind: 'edit',
    });
    bus.publish({
      type: 'permission_requested',
      approval: {
        requestId: REQUEST,
        sessionId: 's1',
        toolCall: { toolCallId: 't1', title: 'Write x' },
        diffs: prepareDiffs({
          toolCallId: 't1',
          kind: 'edit',
          title: 'Write x',
          locations: [],
          content: [{ type: 'diff', path: '/p/x', oldText: '', newText: 'x\n' }],
        }),
      },
    } as unknown as GatehouseEvent);
    bus.publish({
      type: 'permission_resolved',
      requestId: REQUEST,
      sessionId: 's1',
      reply: { outcome: 'selected', optionId: 'no', optionKind: 'reject_once' },
      decider: { type: 'person', clientId: 'c1', surface: 'browser' },
      reason: 'first-responder',
    });
    expect(transcripts.get('s1').entries[1]).toMatchObject({
      kind: 'decision',
      requestId: REQUEST,
      toolCallId: 't1',
      outcome: 'rejected',
      decider: { type: 'person', surface: 'browser' },
    });
    // The call itself reads refused, and what was asked is told as the dialog told it.
    expect(transcripts.get('s1').entries[0]).toMatchObject({
      decided: 'rejected',
      asked: { diffs: [{ change: 'create', oldText: '', newLines: 1 }] },
    });
  });

  it("tells a change as the dialog does: an agent's empty before is a new file, lines counted as there", () => {
    const { transcripts } = book();
    const content = [{ type: 'diff', path: '/p/new.py', oldText: '', newText: 'print("hi")\n' }];
    transcripts.record('s1', {
      sessionUpdate: 'tool_call',
      toolCallId: 't',
      kind: 'edit',
      content,
    });
    const [tool] = transcripts.get('s1').entries;
    const [prepared] = prepareDiffs({
      toolCallId: 't',
      kind: 'edit',
      title: '',
      locations: [],
      content,
    });
    expect(prepared).toMatchObject({ change: 'create', newLines: 1 });
    expect(tool).toMatchObject({
      diffs: [{ path: '/p/new.py', change: 'create', oldLines: 0, newLines: 1 }],
    });
  });

  it('announces each change with its revision, and `since` returns only what changed after it', () => {
    const { events, transcripts } = book();
    transcripts.record('s1', text('agent_message_chunk', 'a'));
    transcripts.record('s1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'T' });
    const { rev } = transcripts.get('s1');
    transcripts.record('s1', {
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      status: 'failed',
    });
    const later = transcripts.get('s1', rev);
    expect(later.entries.map((e) => e.kind)).toEqual(['tool']);
    expect(
      events.filter((e) => e.type === 'transcript_changed').map((e) => 'rev' in e && e.rev),
    ).toEqual([1, 2, 3]);
  });
});

describe('a hostile agent cannot grow a transcript without end or shape it', () => {
  it('a huge message is split into bounded entries; a flood of entries drops the oldest, counted', () => {
    const { transcripts } = book();
    transcripts.record(
      's1',
      text('agent_message_chunk', 'x'.repeat(TRANSCRIPT_LIMITS.text * 2 + 5)),
    );
    expect(transcripts.get('s1').entries.map((e) => ('text' in e ? e.text.length : 0))).toEqual([
      TRANSCRIPT_LIMITS.text,
      TRANSCRIPT_LIMITS.text,
      5,
    ]);
    for (let i = 0; i < TRANSCRIPT_LIMITS.entries + 10; i++) {
      transcripts.record('s1', {
        sessionUpdate: 'tool_call',
        toolCallId: `t${i}`,
        title: `call ${i}`,
      });
    }
    const kept = transcripts.get('s1');
    expect(kept.entries).toHaveLength(TRANSCRIPT_LIMITS.entries);
    expect(kept.dropped).toBe(13);
    expect(kept.firstId).toBe(13);
    expect(kept.entries.at(-1)).toMatchObject({ title: `call ${TRANSCRIPT_LIMITS.entries + 9}` });
  });

  it('updates dropped in a flood are said where they were dropped, in one entry whose count grows', () => {
    const { transcripts, events } = book();
    transcripts.record('s1', text('agent_message_chunk', 'before '));
    transcripts.droppedUpdates('s1', 700);
    transcripts.recordAll('s1', [
      text('agent_message_chunk', 'a '),
      text('agent_message_chunk', 'b'),
    ]);
    transcripts.droppedUpdates('s1', 1_500);
    transcripts.floodEnded('s1');
    transcripts.droppedUpdates('s1', 3);
    const { entries } = transcripts.get('s1');
    expect(
      entries.map((e) => (e.kind === 'dropped' ? e.updates : 'text' in e ? e.text : e.kind)),
    ).toEqual(['before ', 1_500, 'a b', 3]);
    expect(Transcript.parse(transcripts.get('s1')).entries).toHaveLength(4);
    // Two updates recorded together are one change for the clients to read.
    expect(events.filter((e) => e.type === 'transcript_changed')).toHaveLength(5);
  });

  it('large diffs are cut and marked; the total stays within the character budget', () => {
    const { transcripts } = book();
    const big = 'y'.repeat(TRANSCRIPT_LIMITS.diffSide + 1);
    for (let i = 0; i < 200; i++) {
      transcripts.record('s1', {
        sessionUpdate: 'tool_call',
        toolCallId: `t${i}`,
        content: Array.from({ length: 10 }, () => ({
          type: 'diff',
          path: '/p',
          oldText: big,
          newText: big,
        })),
      });
    }
    const kept = transcripts.get('s1');
    const tool = kept.entries[0]!;
    expect(tool.kind === 'tool' && tool.diffs).toHaveLength(TRANSCRIPT_LIMITS.diffs);
    expect(tool.kind === 'tool' && tool.diffs[0]!.truncated).toBe(true);
    const chars = JSON.stringify(kept.entries).length;
    expect(chars).toBeLessThan(TRANSCRIPT_LIMITS.chars * 1.01);
    expect(kept.dropped).toBeGreaterThan(0);
    expect(Transcript.safeParse(kept).success).toBe(true);
  });

  it('values of the wrong type are dropped, not trusted; HTML stays text', () => {
    const { transcripts } = book();
    transcripts.record('s1', {
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 42,
      kind: 'rm -rf',
      status: 'hacked',
      locations: 'x',
      content: { type: 'diff' },
    });
    transcripts.record('s1', {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'image', data: 'AAAA' },
    });
    transcripts.record('s1', text('agent_message_chunk', '<img src=x onerror=alert(1)>'));
    transcripts.record('s1', null);
    transcripts.record('s1', { sessionUpdate: 'tool_call' });
    const { entries } = transcripts.get('s1');
    expect(entries[0]).toMatchObject({
      toolKind: 'other',
      status: 'pending',
      locations: [],
      diffs: [],
    });
    expect(entries[1]).toMatchObject({
      kind: 'agent',
      text: '[image]<img src=x onerror=alert(1)>',
    });
    expect(entries).toHaveLength(2);
    expect(Transcript.safeParse(transcripts.get('s1')).success).toBe(true);
  });
});

describe('a transcript kept across a restart', () => {
  it('is taken up whole, goes on after it, and a later update of an old tool call rewrites nothing', () => {
    const before = book();
    before.transcripts.prompted('s1', 'run the tests');
    before.transcripts.record('s1', {
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'npm test',
      kind: 'execute',
      status: 'pending',
    });
    before.transcripts.record('s1', text('agent_message_chunk', 'They pass.'));
    const kept = before.transcripts.kept('s1');

    const after = book();
    expect(after.transcripts.restore('s1', kept)).toBe(true);
    const restored = after.transcripts.get('s1');
    expect(restored).toEqual(before.transcripts.get('s1'));
    after.transcripts.record('s1', {
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      title: 'rm -rf ~',
    });
    after.transcripts.prompted('s1', 'go on');
    const now = after.transcripts.get('s1');
    const tools = now.entries.filter((e) => e.kind === 'tool');
    expect(tools.map((e) => e.title)).toEqual(['npm test', 'rm -rf ~']);
    expect(new Set(now.entries.map((e) => e.id)).size).toBe(now.entries.length);
    expect(now.rev).toBeGreaterThan(restored.rev);
    expect(after.transcripts.get('s1', restored.rev).entries.map((e) => e.kind)).toEqual([
      'tool',
      'user',
    ]);
  });

  it('refuses what does not fit the transcript: not JSON, another session, past its bounds', () => {
    const { transcripts } = book();
    const past = {
      sessionId: 's1',
      rev: 1,
      firstId: 0,
      dropped: 0,
      entries: Array.from({ length: TRANSCRIPT_LIMITS.entries + 1 }, (_, i) => ({
        kind: 'agent',
        id: i,
        rev: 1,
        at: 1,
        text: 'x',
      })),
    };
    expect(transcripts.restore('s1', 'not json')).toBe(false);
    expect(transcripts.restore('s1', null)).toBe(false);
    expect(
      transcripts.restore(
        's1',
        JSON.stringify({ sessionId: 's2', rev: 0, firstId: 0, dropped: 0, entries: [] }),
      ),
    ).toBe(false);
    expect(transcripts.restore('s1', JSON.stringify(past))).toBe(false);
    expect(() => transcripts.get('s1')).toThrow('no transcript');
  });
});
