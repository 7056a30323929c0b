import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  analyzeCommand,
  escapeGlob,
  evaluate,
  formatCommandPattern,
  initShellParser,
  parseCommandPattern,
} from '.';
import picomatch from 'picomatch';
import { decodeAnsiC, unescapeDoubleQuoted, unquoteBare } from './shell/lexical';
import { NOW } from './helpers.test-support';

beforeAll(async () => {
  await initShellParser();
});

describe('command patterns', { timeout: 60_000 }, () => {
  it('tokenises like a shell and keeps * as a within-token wildcard', () => {
    const r = parseCommandPattern(`git commit -m "a b" 'c d' e\\ f test:* \\*`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.pattern.tokens.map((t) => (t.kind === 'literal' ? t.value : `~${t.source}`))).toEqual([
      'git',
      'commit',
      '-m',
      'a b',
      'c d',
      'e f',
      '~test:*',
      '*',
    ]);
  });

  it('round-trips any argv through formatCommandPattern', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme-ascii' }), { minLength: 1, maxLength: 6 }),
        (argv) => {
          const r = parseCommandPattern(formatCommandPattern(argv));
          expect(r.ok).toBe(true);
          if (r.ok)
            expect(r.pattern.tokens.map((t) => (t.kind === 'literal' ? t.value : null))).toEqual(
              argv,
            );
        },
      ),
    );
  });

  it('formatted patterns are also valid shell for the same argv', () => {
    const word = fc.string({
      unit: fc.constantFrom(...'ab-_./:=*?[]{}$`"\'\\ #~!&|;<>()%@,'.split('')),
      minLength: 1,
      maxLength: 8,
    });
    fc.assert(
      fc.property(fc.array(word, { minLength: 0, maxLength: 5 }), (words) => {
        const argv = ['echo', ...words];
        const a = analyzeCommand(formatCommandPattern(argv));
        expect(a).toMatchObject({ kind: 'simple', commands: [{ argv }] });
      }),
      { numRuns: 300 },
    );
  });
});

describe('quoting helpers', () => {
  it('decodes ANSI-C strings exactly or refuses', () => {
    expect(decodeAnsiC('\\x72m')).toBe('rm');
    expect(decodeAnsiC('\\162\\155')).toBe('rm');
    expect(decodeAnsiC('\\u0072m')).toBe('rm');
    expect(decodeAnsiC("a\\nb\\tc\\\\d\\'e\\q")).toBe("a\nb\tc\\d'e\\q");
    expect(decodeAnsiC('\\cA')).toBeNull();
    expect(decodeAnsiC('a\\x00b')).toBeNull();
    expect(decodeAnsiC('\\xff')).toBeNull();
    expect(decodeAnsiC('\\ud800')).toBeNull();
  });

  it('removes quotes like bash', () => {
    expect(unquoteBare('\\r\\m')).toEqual({ value: 'rm', skeleton: '\u0000\u0000' });
    expect(unquoteBare('a\\\nb').value).toBe('ab');
    expect(unescapeDoubleQuoted('\\"\\$\\`\\\\\\n')).toBe('"$`\\\\n');
  });

  it('escapeGlob makes a literal path match only itself', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'ab/.*?[]{}()!+@|\\'.split('')),
          minLength: 1,
          maxLength: 12,
        }),
        (s) => {
          const p = `/x/${s}`;
          expect(picomatch.isMatch(p, escapeGlob(p), { dot: true, windows: false })).toBe(true);
          expect(picomatch.isMatch(`${p}z`, escapeGlob(p), { dot: true, windows: false })).toBe(
            false,
          );
          expect(picomatch.isMatch('/x/a', escapeGlob(p), { dot: true, windows: false })).toBe(
            s === 'a',
          );
        },
      ),
    );
  });
});

describe('properties of the analyser', { timeout: 60_000 }, () => {
  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        const a = analyzeCommand(s);
        expect(['simple', 'opaque']).toContain(a.kind);
      }),
      { numRuns: 300 },
    );
  });

  it('any quoting of `rm` in command position is caught by a deny rule on rm', () => {
    const quoteChar = (c: string) =>
      fc.constantFrom(
        c,
        `\\${c}`,
        `'${c}'`,
        `"${c}"`,
        `$'\\x${c.charCodeAt(0).toString(16)}'`,
        `$'\\${c.charCodeAt(0).toString(8)}'`,
        `${c}''`,
        `""${c}`,
      );
    fc.assert(
      fc.property(
        quoteChar('r'),
        quoteChar('m'),
        fc.constantFrom('', 'env ', 'X=1 ', 'time ', 'ls && ', 'ls; ', 'ls | ', '/bin/'),
        (r, m, prefix) => {
          const command = `${prefix}${r}${m} -rf /`;
          const result = evaluate(
            { agentId: 'a', sessionId: 's', sessionCwd: '/p', toolKind: 'execute', command },
            {
              mode: 'bypassPermissions',
              rules: [{ id: 'no-rm', action: 'deny', command: 'rm' }],
              grants: [],
              now: NOW,
            },
          );
          expect(result.verdict, command).toBe('deny');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an opaque line is never allowed outside bypass, whatever the allow rules', () => {
    const opaqueLines = fc.constantFrom(
      'echo $(id)',
      'bash -c ls',
      'eval ls',
      'sudo ls',
      'ls | sh',
      '$X',
      'if true; then ls; fi',
      'ls `id`',
      'cat <(ls)',
    );
    fc.assert(
      fc.property(
        opaqueLines,
        fc.constantFrom('default', 'acceptEdits') as fc.Arbitrary<'default' | 'acceptEdits'>,
        (command, mode) => {
          const r = evaluate(
            { agentId: 'a', sessionId: 's', sessionCwd: '/p', toolKind: 'execute', command },
            {
              mode,
              rules: [
                { id: 'all-exec', action: 'allow', toolKind: 'execute' },
                { id: 'agent', action: 'allow', agent: 'a' },
                { id: 'any', action: 'allow', command: '*' },
              ],
              grants: [],
              now: NOW,
            },
          );
          expect(r.verdict).toBe('ask');
        },
      ),
    );
  });
});
