// The relay reads a line's kind from a scan of its bytes, not a parse. A hostile agent shapes its
// lines to make that scan see a harmless update where the editor would read a permission request or
// a write: each shape here is read as the request it is (and goes to the core first), or is not
// passed at all; and the core is told of every update it was told of when each line was parsed.
import { describe, expect, it, vi } from 'vitest';
import type { PermissionResponse } from '../../shared/control-proxy';
import { MessageTooLargeError } from '../control-client';
import { LineSplitter } from './lines';
import { relayWith, settle } from './relay.test-support';

const ALLOW: PermissionResponse = { outcome: { outcome: 'selected', optionId: 'once' } };
const decided = () => vi.fn(async () => ({ status: 'decided' as const, response: ALLOW }));
const PARAMS =
  '{"sessionId":"s","toolCall":{"toolCallId":"t","title":"rm -rf ~","rawInput":{"command":"rm -rf ~"}},"options":[{"optionId":"once","name":"Once","kind":"allow_once"},{"optionId":"no","name":"No","kind":"reject_once"}]}';

/** The agent's permission request, spelled in ways a parser reads alike. */
const PERMISSION_SHAPES: [string, string][] = [
  [
    'the method after the params',
    `{"params":${PARAMS},"id":1,"jsonrpc":"2.0","method":"session/request_permission"}`,
  ],
  [
    'an escaped method key',
    `{"jsonrpc":"2.0","id":1,"\\u006dethod":"session/request_permission","params":${PARAMS}}`,
  ],
  [
    'an escaped method name',
    `{"jsonrpc":"2.0","id":1,"method":"session\\u002frequest_permission","params":${PARAMS}}`,
  ],
  [
    'an escaped params key',
    `{"jsonrpc":"2.0","id":1,"method":"session/request_permission","p\\u0061rams":${PARAMS}}`,
  ],
  [
    'white space everywhere',
    ` { "jsonrpc" : "2.0" ,\t"id" : 1 , "method" : "session/request_permission" , "params" : ${PARAMS} } \r`,
  ],
  [
    'a string id',
    `{"jsonrpc":"2.0","id":"\\u0031","method":"session/request_permission","params":${PARAMS}}`,
  ],
];

describe('what the relay reads from a line, without parsing it', () => {
  it.each(PERMISSION_SHAPES)(
    'a permission request with %s goes to the core with its params as sent, and never to the editor',
    async (_shape, text) => {
      const { relay, link, toEditor, toAgent } = relayWith(decided());
      relay.fromAgent(text);
      await settle();
      expect(toEditor).toEqual([]);
      expect(link.submit).toHaveBeenCalledTimes(1);
      const [acpSessionId, request] = link.submit.mock.calls[0] as unknown as [string, Buffer];
      expect(acpSessionId).toBe('s');
      expect(String(request)).toBe(PARAMS);
      expect(toAgent.map((l) => JSON.parse(l).result)).toEqual([ALLOW]);
    },
  );

  it.each([
    ['an update, then a permission request', 'session/update', 'session/request_permission'],
    ['a permission request, then an update', 'session/request_permission', 'session/update'],
    ['an update, then a write (key escaped)', 'session/update', 'fs/write_text_file'],
    ['a notification, then a terminal', 'x/notice', 'terminal/create'],
  ])(
    'a line naming the method twice (%s) reaches neither the editor nor the core',
    async (_s, a, b) => {
      const { relay, link, toEditor, logs } = relayWith(decided());
      relay.fromAgent(
        `{"jsonrpc":"2.0","id":1,"method":"${a}","params":${PARAMS},"\\u006dethod":"${b}"}`,
      );
      relay.fromAgent(
        `{"jsonrpc":"2.0","id":2,"method":"${a}","method":"${b}","params":${PARAMS}}`,
      );
      await settle();
      expect(toEditor).toEqual([]);
      expect(link.submit).not.toHaveBeenCalled();
      expect(link.update).not.toHaveBeenCalled();
      expect(link.check).not.toHaveBeenCalled();
      expect(logs).toEqual([
        'gatehouse acp: dropped a line from the agent that names a key twice',
        'gatehouse acp: dropped a line from the agent that names a key twice',
      ]);
    },
  );

  it('a request naming its session twice, or its id twice, is not passed either', async () => {
    const { relay, link, toEditor } = relayWith(decided());
    relay.fromAgent(
      '{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"s","sessionId":"other","options":[]}}',
    );
    relay.fromAgent('{"jsonrpc":"2.0","id":1,"id":"x","method":"fs/write_text_file","params":{}}');
    relay.fromAgent(
      '{"jsonrpc":"2.0","params":{},"params":{"sessionId":"s"},"method":"session/update"}',
    );
    await settle();
    expect(toEditor).toEqual([]);
    expect(link.submit).not.toHaveBeenCalled();
    expect(link.update).not.toHaveBeenCalled();
  });

  it('a permission request split across reads, in the middle of a character, is read once, whole', async () => {
    const { inner, link, toEditor } = relayWith(decided());
    const params = PARAMS.replace('rm -rf ~', 'écrire ~ 🙂');
    const bytes = Buffer.from(
      `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk"}}}\n{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":${params}}\n`,
    );
    const splitter = new LineSplitter();
    const emoji = bytes.indexOf(Buffer.from('🙂'));
    for (const cut of [
      [0, 40],
      [40, emoji + 2],
      [emoji + 2, bytes.length],
    ])
      for (const line of splitter.push(bytes.subarray(cut[0], cut[1]))) inner.fromAgent(line);
    await settle();
    expect(toEditor).toHaveLength(1);
    expect(link.submit).toHaveBeenCalledTimes(1);
    expect(String((link.submit.mock.calls[0] as unknown[])[1])).toBe(params);
  });

  it('a 10 MB permission request goes to the core, a 10 MB update reaches the editor byte for byte', async () => {
    const refused = vi.fn(async () => ({
      allowed: false as const,
      message: 'Refused: not approved',
    }));
    const { inner, link, editorBytes, toAgent } = relayWith(decided(), refused as never);
    const big = 'x'.repeat(10 * 1024 * 1024);
    const params = PARAMS.replace('rm -rf ~"}', `rm -rf ~","pad":"${big}"}`);
    inner.fromAgent(
      Buffer.from(
        `{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":${params}}\n`,
      ),
    );
    const update = `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"${big}"}}`;
    const line = Buffer.from(
      `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":${update}}}\n`,
    );
    inner.fromAgent(line);
    // A line that is a write only at its very end, past 10 MB of content.
    inner.fromAgent(
      Buffer.from(
        `{"jsonrpc":"2.0","params":{"sessionId":"s","path":"/x","content":"${big}"},"id":4,"method":"fs/write_text_file"}\n`,
      ),
    );
    await settle();
    expect(String((link.submit.mock.calls[0] as unknown[])[1])).toBe(params);
    expect(editorBytes).toHaveLength(1);
    expect(editorBytes[0]!.equals(line)).toBe(true);
    expect(String(link.update.mock.calls[0]![1])).toBe(update);
    expect(refused).toHaveBeenCalledTimes(1);
    expect(toAgent.map((l) => JSON.parse(l))).toEqual([
      { jsonrpc: '2.0', id: 3, result: ALLOW },
      { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'Refused: not approved' } },
    ]);
  });

  it('a permission request too large for the core is refused for the agent, and the core told it was', async () => {
    const tooLarge = async (): Promise<never> => {
      throw new MessageTooLargeError('message too large for Gatehouse');
    };
    const { inner, link, toAgent, toEditor } = relayWith(tooLarge);
    inner.fromAgent(
      Buffer.from(
        `{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":${PARAMS}}\n`,
      ),
    );
    await settle();
    expect(link.dropped).toHaveBeenCalledWith('s', Buffer.byteLength(PARAMS));
    expect(toEditor).toEqual([]);
    const answered = JSON.parse(toAgent[0]!) as { id: number; result: PermissionResponse };
    expect(answered.id).toBe(5);
    expect(answered.result.outcome).toEqual({ outcome: 'selected', optionId: 'no' });
  });

  it('a line the scan cannot read is not passed: not JSON, two values, nested past the bound', async () => {
    const { relay, link, toEditor } = relayWith(decided());
    relay.fromAgent(
      `{"jsonrpc":"2.0","method":"session/update"}{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":${PARAMS}}`,
    );
    relay.fromAgent(
      `{"jsonrpc":"2.0","method":"session/update","params":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    );
    relay.fromAgent('{"jsonrpc":"2.0","method":"session/update",}');
    await settle();
    expect(toEditor).toEqual([]);
    expect(link.submit).not.toHaveBeenCalled();
  });
});

describe('the core is told what it was told when every line was parsed', () => {
  /** What the relay passed to the core when it parsed each line (the update object, as sent). */
  const parsedWay = (text: string) => {
    const message = JSON.parse(text) as { method?: unknown; id?: unknown; params?: unknown };
    if (message.method !== 'session/update' || 'id' in message) return null;
    const params = (message.params ?? {}) as { sessionId?: unknown; update?: unknown };
    const update = params.update as { sessionUpdate?: unknown } | undefined;
    const ok =
      typeof params.sessionId === 'string' &&
      params.sessionId.length > 0 &&
      update !== null &&
      typeof update === 'object' &&
      !Array.isArray(update) &&
      typeof update.sessionUpdate === 'string' &&
      update.sessionUpdate.length > 0;
    return ok ? [params.sessionId, update] : null;
  };

  it('every update it was given before, with the same content', async () => {
    const lines = [
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hé \\"quoted\\" \\u2028"}}}}',
      '{"params":{"update":{"sessionUpdate":"tool_call","toolCallId":"t","status":"pending","content":[{"type":"diff","path":"/p","oldText":"a","newText":"b"}]},"sessionId":"s"},"method":"session/update","jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","\\u006dethod":"session/update","params":{"\\u0073essionId":"\\u0073","update":{"sessionUpdate":"plan","entries":[]}}}',
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"completed"}}}\r',
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"","update":{"sessionUpdate":"x"}}}',
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":[1]}}',
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}',
      '{"jsonrpc":"2.0","method":"x/other","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}}',
    ];
    const { relay, link, toEditor } = relayWith(decided());
    for (const line of lines) relay.fromAgent(line);
    await settle();
    expect(toEditor).toEqual(lines);
    const told = link.update.mock.calls.map(([id, bytes]) => [id, JSON.parse(String(bytes))]);
    const before = lines.map((l) => parsedWay(l.trim())).filter((u) => u !== null);
    expect(before).toHaveLength(4);
    // Every one it was told of before; an update without a kind is passed too, and the core refuses it.
    for (const update of before) expect(told).toContainEqual(update);
    expect(told.every(([id]) => id === 's')).toBe(true);
  });
});
