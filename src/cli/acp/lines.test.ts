import { describe, expect, it } from 'vitest';
import { classifyLine, LineSplitter, lineText, paramBytes, paramText, readMessage } from './lines';

describe('lines', () => {
  it('splits a stream into whole lines, newline and carriage return kept, across chunks', () => {
    const splitter = new LineSplitter();
    const chunks = ['{"a":1}\n{"b"', ':2}\r\n', '{"c":3}\n{"d"'].map((c) => Buffer.from(c));
    const lines = chunks.flatMap((chunk) => splitter.push(chunk)).map(String);
    expect(lines).toEqual(['{"a":1}\n', '{"b":2}\r\n', '{"c":3}\n']);
    expect(splitter.push(Buffer.from(':4}\n')).map(String)).toEqual(['{"d":4}\n']);
  });

  it('reads a copy: text without the newline, one JSON-RPC object or "other"', () => {
    expect(lineText(Buffer.from('{"id":1,"result":{}}\n'))).toBe('{"id":1,"result":{}}');
    expect(readMessage('{"jsonrpc":"2.0","id":1,"method":"x"}')).toMatchObject({
      kind: 'request',
      id: 1,
    });
    expect(readMessage('{"jsonrpc":"2.0","method":"x"}')).toMatchObject({ kind: 'notification' });
    expect(readMessage('{"jsonrpc":"2.0","id":"a","error":{}}')).toMatchObject({
      kind: 'response',
    });
    expect(readMessage('[{"jsonrpc":"2.0","id":1,"method":"x"}]')).toEqual({ kind: 'other' });
    expect(readMessage('{"id":{"x":1},"method":"x"}')).toMatchObject({ kind: 'notification' });
    expect(readMessage('nope')).toEqual({ kind: 'other' });
  });

  it.each([
    '{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}',
    '{"params":{"sessionId":"s"},"id":1,"jsonrpc":"2.0","method":"session/request_permission"}',
    '{"jsonrpc":"2.0","id":1,"\u006dethod":"session/request_permission","params":{}}',
    '{"jsonrpc":"2.0","id":1,"method":"session\\/request_permission"}',
    '{"jsonrpc":"2.0","id":1,"method":"session\u002frequest_permission"}',
    '{"jsonrpc":"2.0","id":1.0,"method":"fs/write_text_file"}',
    '{"jsonrpc":"2.0","id":-3e2,"result":null}',
    '{"jsonrpc":"2.0","id":"\u0031","error":{"code":1}}',
    '{"jsonrpc":"2.0","id":null,"method":"terminal/create"}',
    '{"jsonrpc":"2.0","id":true,"method":"x"}',
    '{"jsonrpc":"2.0","id":{"a":1},"method":"x"}',
    '{"jsonrpc":"2.0","method":7}',
    '{"jsonrpc":"2.0","id":1}',
    '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{}}}',
    '[{"jsonrpc":"2.0","id":1,"method":"x"}]',
    '"session/request_permission"',
  ])('the scan reads %s as a parse does', (text) => {
    const parsed = readMessage(text);
    const seen = classifyLine(Buffer.from(`${text}\n`));
    expect(seen.kind).toBe(parsed.kind);
    if (parsed.kind === 'request' || parsed.kind === 'notification')
      expect(seen).toMatchObject({ method: parsed.method });
    if (parsed.kind === 'request' || parsed.kind === 'response')
      expect(seen).toMatchObject({ id: parsed.id });
  });

  it('a line that names a key twice is other, whichever comes first', () => {
    for (const text of [
      '{"jsonrpc":"2.0","method":"session/update","id":1,"method":"session/request_permission"}',
      '{"jsonrpc":"2.0","method":"session/request_permission","id":1,"method":"session/update"}',
      '{"jsonrpc":"2.0","method":"session/update","\u006dethod":"fs/write_text_file","id":2}',
      '{"jsonrpc":"2.0","id":1,"id":2,"result":{}}',
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"a","sessionId":"b"}}',
    ])
      expect(classifyLine(Buffer.from(text))).toEqual({ kind: 'other', why: 'a key twice' });
  });

  it("reads params' members as a parse does, and gives an object's exact bytes", () => {
    const text =
      '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"x","n":1.50},"sessionId":"\u0073"}}';
    const line = Buffer.from(`${text}\n`);
    const seen = classifyLine(line);
    if (seen.kind !== 'notification') throw new Error(seen.kind);
    expect(paramText(line, seen.scan, 'sessionId')).toBe('s');
    expect(String(paramBytes(line, seen.scan, 'update'))).toBe('{"sessionUpdate":"x","n":1.50}');
    expect(paramText(line, seen.scan, 'update')).toBeNull();
    expect(paramBytes(line, seen.scan, 'sessionId')).toBeNull();
  });
});
