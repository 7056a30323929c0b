import { describe, expect, it } from 'vitest';
import { MAX_SCAN_DEPTH, scanLine, valueOf } from './line-scan';

const scan = (text: string) => scanLine(Buffer.from(text));
const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Lines that are JSON and lines that are nearly: each must be read as JSON.parse reads it. */
const SHAPES = [
  '{}',
  '[]',
  '"x"',
  '0',
  '-0.5e+10',
  'true',
  'null',
  '{"a":[1,2,{"b":null}],"c":"\\u00e9\\n"}',
  ' \t{ "a" : 1 }\r\n',
  '{"a":1,}',
  '[1,]',
  '{"a" 1}',
  '{"a":01}',
  '{"a":1.}',
  '{"a":.5}',
  '{"a":-}',
  '{"a":1e}',
  '{"a":"\\x"}',
  '{"a":"\\u12g4"}',
  '{"a":"tab\there"}',
  '{"a":tru}',
  '{"a":1}{"b":2}',
  '{"a":1} x',
  '{"a":1}]',
  '{a:1}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":"unterminated}',
  '\ufeff{}',
  '[[[[]]]]',
  '[[[[]]]',
  '{"a":{"b":{"c":[{"d":"]}"}]}}}',
  '',
  '   ',
];

describe('the line scan', () => {
  it.each(SHAPES)('reads %j as JSON.parse does', (text) => {
    expect(scan(text) !== null).toBe(parses(text));
  });

  it('agrees with JSON.parse on thousands of mutations of a real message', () => {
    const base =
      '{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t","rawInput":{"command":"npm test \\"a\\" é"}},"options":[{"optionId":"o","kind":"allow_once"}]}}';
    const alphabet = '{}[]",:\\0123456789.eE+-tfnul \t\r\nxé';
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let disagreements = 0;
    for (let i = 0; i < 5000; i++) {
      const chars = [...base];
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(chars.length);
        const op = random(3);
        if (op === 0) chars.splice(at, 1);
        else if (op === 1) chars.splice(at, 0, alphabet[random(alphabet.length)]!);
        else chars[at] = alphabet[random(alphabet.length)]!;
      }
      const text = chars.join('');
      if ((scan(text) !== null) !== parses(text)) disagreements++;
    }
    expect(disagreements).toBe(0);
  });

  it('decodes keys, so an escaped key is the key it spells', () => {
    const line = Buffer.from('{"\\u006dethod":"x","par\\u0061ms":{"\\u0073essionId":"s"}}');
    const scanned = scanLine(line)!;
    expect([...scanned.members!.keys()]).toEqual(['method', 'params']);
    expect([...scanned.params!.keys()]).toEqual(['sessionId']);
    expect(valueOf(line, scanned.params!.get('sessionId')!)).toBe('s');
  });

  it('notes a key named twice at the top or in params, however it is spelled', () => {
    expect(scan('{"method":"a","method":"b"}')!.duplicateKey).toBe(true);
    expect(scan('{"method":"a","\\u006dethod":"b"}')!.duplicateKey).toBe(true);
    expect(scan('{"params":{"sessionId":"a","sessionId":"b"}}')!.duplicateKey).toBe(true);
    expect(scan('{"params":{},"params":{"sessionId":"b"}}')!.duplicateKey).toBe(true);
    expect(scan('{"params":{"a":{"x":1,"x":2}}}')!.duplicateKey).toBe(false);
    expect(scan('{"method":"a","params":{"method":"b"}}')!.duplicateKey).toBe(false);
  });

  it('finds each value where it lies, whatever the order of the members', () => {
    const text = '{"params":{"update":{"a":[1,"}"]},"sessionId":"s"},"method":"m","id":"1"}';
    const line = Buffer.from(`${text}\n`);
    const scanned = scanLine(line)!;
    const update = scanned.params!.get('update')!;
    expect(line.toString('utf8', update.start, update.end)).toBe('{"a":[1,"}"]}');
    expect(valueOf(line, scanned.members!.get('method')!)).toBe('m');
    expect(valueOf(line, scanned.members!.get('id')!)).toBe('1');
  });

  it('does not read a line nested past its bound, and reads one just within it', () => {
    const nested = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(scan(nested(MAX_SCAN_DEPTH - 1))).not.toBeNull();
    expect(scan(nested(MAX_SCAN_DEPTH + 1))).toBeNull();
    expect(scan(nested(1_000_000))).toBeNull();
  });
});
