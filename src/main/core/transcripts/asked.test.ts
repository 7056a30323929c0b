import { describe, expect, it } from 'vitest';
import type { AgentReply } from '../../../shared/domain';
import { SessionTranscript } from './transcript';

const REQUEST = '01900000-0000-7000-8000-000000000001';
const ALLOWED: AgentReply = { outcome: 'selected', optionId: 'y', optionKind: 'allow_once' };
const diff = (newText: string) => ({ type: 'diff', path: '/p/a.txt', oldText: null, newText });

/** A call asked about with `hello`, then decided. */
function asked(): SessionTranscript {
  const t = new SessionTranscript('s', () => 0);
  t.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'c',
    kind: 'edit',
    title: 'Edit a.txt',
    content: [diff('hello\n')],
  });
  t.ask(REQUEST, 'c', 'Edit a.txt');
  t.shown('c', {
    requestId: REQUEST,
    diffs: [
      {
        path: '/p/a.txt',
        change: 'create',
        oldText: null,
        newText: 'hello\n',
        oldLines: 0,
        newLines: 1,
        truncated: false,
      },
    ],
    command: null,
  });
  t.decide(REQUEST, ALLOWED, { type: 'person', clientId: 'x', surface: 'api' }, 'ok');
  return t;
}
const tool = (t: SessionTranscript) => t.snapshot().entries.find((e) => e.kind === 'tool');

describe('what was asked about a tool call', () => {
  it('its completion, with output instead of the diff or the same diff again, changes nothing asked', () => {
    const t = asked();
    t.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'done' } }],
    });
    t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', content: [diff('hello\n')] });
    expect(tool(t)).toMatchObject({ asked: { requestId: REQUEST }, status: 'completed' });
    expect(tool(t)).not.toHaveProperty('changedAfterDecision');
  });

  it('the decision is kept on the call: a refused call reads refused though the agent leaves it pending', () => {
    const t = new SessionTranscript('s', () => 0);
    t.update({ sessionUpdate: 'tool_call', toolCallId: 'c', kind: 'execute', title: 'npm test' });
    t.ask(REQUEST, 'c', 'npm test');
    t.decide(
      REQUEST,
      { outcome: 'selected', optionId: 'n', optionKind: 'reject_once' },
      { type: 'person', clientId: 'x', surface: 'api' },
      'no',
    );
    expect(tool(t)).toMatchObject({ status: 'pending', decided: 'rejected' });
    expect(asked().snapshot().entries[0]).toMatchObject({ decided: 'allowed' });
  });

  it('another diff after the decision is marked', () => {
    const t = asked();
    t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', content: [diff('other\n')] });
    expect(tool(t)).toMatchObject({ changedAfterDecision: true });
  });
});
