import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { PermissionResponse } from '../../shared/control-proxy';
import { CoreUnavailableError } from './core-link';
import { rejectResponse } from './relay';
import { relayWith, settle } from './relay.test-support';

const OPTIONS = [
  { optionId: 'always', name: 'Always', kind: 'allow_always' },
  { optionId: 'once', name: 'Once', kind: 'allow_once' },
  { optionId: 'nope', name: 'No', kind: 'reject_once' },
];
const line = (message: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', ...message });
const ask = (id: number) =>
  line({
    id,
    method: 'session/request_permission',
    params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: OPTIONS },
  });

const setup = relayWith;

describe('the relay', () => {
  it('drops what the agent sends that is not one JSON-RPC message, and gated methods without an id', async () => {
    const { relay, toEditor, link } = setup(vi.fn());
    relay.fromAgent(`[${ask(1)}]`);
    relay.fromAgent('not json');
    relay.fromAgent(
      line({ method: 'fs/write_text_file', params: { sessionId: 's', path: '/x', content: 'y' } }),
    );
    relay.fromAgent(line({ id: { sneaky: 1 }, method: 'session/request_permission', params: {} }));
    await settle();
    expect(toEditor).toEqual([]);
    expect(link.submit).not.toHaveBeenCalled();
  });

  it('a request the core decides is answered by the relay; the editor never sees it', async () => {
    const response: PermissionResponse = { outcome: { outcome: 'selected', optionId: 'once' } };
    const { relay, toAgent, toEditor } = setup(async () => ({ status: 'decided', response }));
    relay.fromAgent(ask(7));
    await settle();
    expect(toEditor).toEqual([]);
    expect(toAgent.map((l) => JSON.parse(l))).toEqual([
      { jsonrpc: '2.0', id: 7, result: response },
    ]);
  });

  it('a request a person is asked about goes to the editor unchanged; its answer is a vote, not passed on', async () => {
    let decide!: (response: PermissionResponse) => void;
    const answer = vi.fn((response: PermissionResponse) => decide(response));
    const { relay, toAgent, toEditor } = setup(async () => ({
      status: 'asking',
      requestId: 'r1',
      askEditor: true,
      decided: new Promise((resolve) => (decide = resolve)),
      answer,
    }));
    relay.fromAgent(ask(3));
    await settle();
    expect(toEditor).toEqual([ask(3)]);
    relay.fromEditor(
      line({ id: 3, result: { outcome: { outcome: 'selected', optionId: 'nope' } } }),
    );
    await settle();
    expect(answer).toHaveBeenCalledWith({ outcome: { outcome: 'selected', optionId: 'nope' } });
    // The agent hears the decision once, from the relay, and the editor is not told to cancel.
    expect(toAgent.map((l) => JSON.parse(l).result)).toEqual([
      { outcome: { outcome: 'selected', optionId: 'nope' } },
    ]);
    expect(toEditor).toHaveLength(1);
  });

  it('when Gatehouse decides first, the editor is told to stop asking, and its late answer is a vote still', async () => {
    let decide!: (response: PermissionResponse) => void;
    const answer = vi.fn();
    const { relay, toAgent, toEditor } = setup(async () => ({
      status: 'asking',
      requestId: 'r2',
      askEditor: true,
      decided: new Promise((resolve) => (decide = resolve)),
      answer,
    }));
    relay.fromAgent(ask(4));
    await settle();
    decide({ outcome: { outcome: 'selected', optionId: 'once' } });
    await settle();
    expect(JSON.parse(toEditor[1]!)).toEqual({
      jsonrpc: '2.0',
      method: '$/cancel_request',
      params: { requestId: 4 },
    });
    relay.fromEditor(
      line({ id: 4, result: { outcome: { outcome: 'selected', optionId: 'nope' } } }),
    );
    expect(answer).toHaveBeenCalledTimes(1);
    expect(toAgent).toHaveLength(1);
  });

  it('with no core, the agent hears its reject option, chosen by kind', async () => {
    const { relay, toAgent } = setup(async () => {
      throw new CoreUnavailableError('no core');
    });
    relay.fromAgent(ask(5));
    await settle();
    expect(JSON.parse(toAgent[0]!).result).toEqual({
      outcome: { outcome: 'selected', optionId: 'nope' },
    });
    expect(rejectResponse({ options: [{ optionId: 'a', kind: 'allow_once' }] })).toEqual({
      outcome: { outcome: 'cancelled' },
    });
  });

  it('a write reaches the editor, byte for byte, only when the core says it is covered', async () => {
    const check = vi.fn(async () => ({
      allowed: false as const,
      message: 'Refused: writing /x: not approved',
    }));
    const { relay, toAgent, toEditor } = setup(vi.fn(), check as never);
    const write = line({
      id: 9,
      method: 'fs/write_text_file',
      params: { sessionId: 's', path: '/x', content: 'é\n' },
    });
    relay.fromAgent(write);
    await settle();
    expect(toEditor).toEqual([]);
    expect(JSON.parse(toAgent[0]!).error).toEqual({
      code: -32602,
      message: 'Refused: writing /x: not approved',
    });
    expect(check).toHaveBeenCalledWith('s', {
      kind: 'write',
      path: '/x',
      sha256: createHash('sha256').update('é\n').digest('hex'),
      bytes: 3,
    });
    check.mockResolvedValueOnce({ allowed: true } as never);
    relay.fromAgent(write);
    await settle();
    expect(toEditor).toEqual([write]);
  });
});
