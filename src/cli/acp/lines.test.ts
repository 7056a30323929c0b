import { describe, expect, it } from 'vitest';
import { LineSplitter, lineText, readMessage } from './lines';

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
});
