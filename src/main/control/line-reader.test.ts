import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader';

const lines = (reader: LineReader, ...chunks: string[]) =>
  chunks.flatMap((chunk) => reader.push(Buffer.from(chunk)));

describe('LineReader', () => {
  it('cuts lines at newlines, across chunks, dropping a trailing carriage return', () => {
    const reader = new LineReader(100);
    expect(lines(reader, '{"a":1}\n{"b"', ':2}\r\n', '\n')).toEqual([
      { type: 'line', line: '{"a":1}' },
      { type: 'line', line: '{"b":2}' },
      { type: 'line', line: '' },
    ]);
  });

  it('keeps a multi-byte character split between chunks whole', () => {
    const reader = new LineReader(100);
    const bytes = Buffer.from('"é"\n');
    expect([...reader.push(bytes.subarray(0, 2)), ...reader.push(bytes.subarray(2))]).toEqual([
      { type: 'line', line: '"é"' },
    ]);
  });

  it('reports a line longer than the limit once, with or without its newline, then reads nothing', () => {
    const open = new LineReader(8);
    expect(lines(open, '12345', '6789')).toEqual([{ type: 'too_large', limit: 8 }]);
    expect(lines(open, '\n{}\n')).toEqual([]);

    const closed = new LineReader(8);
    expect(lines(closed, '{}\n123456789\n{}\n')).toEqual([
      { type: 'line', line: '{}' },
      { type: 'too_large', limit: 8 },
    ]);
  });

  it('accepts a line of exactly the limit', () => {
    expect(lines(new LineReader(4), '1234\n')).toEqual([{ type: 'line', line: '1234' }]);
  });
});
