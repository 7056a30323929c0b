import { describe, expect, it } from 'vitest';
import { Warning } from '../../../../shared/domain';
import { revealInvisibles } from '..';
import { claudeBash, geminiShell, only, warningsOf } from '../helpers.test-support';

const edit = (path: string, newText: string, oldText: string | null = null) => ({
  toolCallId: 'e',
  kind: 'edit',
  title: `Edit ${path}`,
  locations: [{ path }],
  content: [{ type: 'diff', path, oldText, newText }],
});

describe('bidi_control', () => {
  it('is danger in a command and names the code point', () => {
    const ws = only(warningsOf(claudeBash('cp a.sh "b\u202e\u2066hs.exe"')), 'bidi_control');
    expect(ws).toHaveLength(1);
    expect(ws[0]).toMatchObject({ severity: 'danger', where: 'command' });
    expect(ws[0]?.message).toContain('U+202E RIGHT-TO-LEFT OVERRIDE');
    expect(ws[0]?.message).toContain('U+2066 LEFT-TO-RIGHT ISOLATE');
    expect(ws[0]?.message).toContain('2 bidirectional control characters');
    expect(() => Warning.parse(ws[0])).not.toThrow();
  });

  it('is caution in the title, paths and diff text, with the line of a diff', () => {
    const ws = warningsOf({
      ...edit(
        '/home/dev/project/src/acc\u202ess.ts',
        'const a = 1;\nconst isAdmin = false; /*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */\n',
      ),
      title: 'Fix \u200fauth',
    });
    const bidi = only(ws, 'bidi_control');
    expect(bidi.map((w) => [w.where, w.severity])).toEqual([
      ['title', 'caution'],
      ['path', 'caution'],
      ['diff:/home/dev/project/src/acc⟨U+202E⟩ss.ts line 2', 'caution'],
    ]);
  });

  it.each([
    0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c,
  ])('detects U+%s', (cp) => {
    const ws = only(warningsOf(claudeBash(`echo a${String.fromCodePoint(cp)}b`)), 'bidi_control');
    expect(ws[0]?.message).toContain(`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
  });

  it('does not fire on right-to-left text without controls', () => {
    expect(
      only(
        warningsOf(edit('/home/dev/project/ar.md', 'مرحبا بالعالم\nשלום עולם\n')),
        'bidi_control',
      ),
    ).toEqual([]);
  });
});

describe('zero_width', () => {
  it.each([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0x00ad, 0xe0041])(
    'detects U+%s in a command',
    (cp) => {
      const ws = only(
        warningsOf(claudeBash(`rm -rf ./bu${String.fromCodePoint(cp)}ild`)),
        'zero_width',
      );
      expect(ws).toHaveLength(1);
      expect(ws[0]).toMatchObject({ severity: 'caution', where: 'command' });
      expect(ws[0]?.message).toContain(`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
    },
  );

  it('finds invisible characters in paths and in rawInput fields the dialog shows', () => {
    const ws = warningsOf({
      toolCallId: 'x',
      kind: 'execute',
      title: 'ls',
      rawInput: { command: 'ls', description: 'List\u200b files' },
    });
    expect(only(ws, 'zero_width')).toEqual([
      expect.objectContaining({ where: 'rawInput.description' }),
    ]);
    const p = only(warningsOf(edit('/home/dev/project/pass\u200bwd.ts', 'x')), 'zero_width');
    expect(p.map((w) => w.where)).toEqual(['title', 'path']);
  });

  it('leaves emoji sequences, Persian/Indic joiners and a leading BOM of a file alone', () => {
    expect(
      only(
        warningsOf(edit('/home/dev/project/a.md', '\ufeff# Team 👩‍💻 👨‍👩‍👧\nمی‌خواهم\nक्‍ष\n')),
        'zero_width',
      ),
    ).toEqual([]);
    expect(
      only(
        warningsOf({
          toolCallId: 'x',
          kind: 'edit',
          title: 'Add 👩‍💻 to README.md',
          locations: [{ path: '/home/dev/project/README.md' }],
        }),
        'zero_width',
      ),
    ).toEqual([]);
    // ...but a joiner between ASCII letters is how identifiers are spoofed.
    expect(
      only(warningsOf(edit('/home/dev/project/a.ts', 'const ad\u200dmin = 1;\n')), 'zero_width'),
    ).toHaveLength(1);
  });
});

describe('ansi_escape', () => {
  it('flags CSI and OSC sequences and names them', () => {
    const [w] = only(
      warningsOf(
        claudeBash('echo "\u001b[2K\u001b[1Adone" && echo "\u001b]8;;https://evil\u0007x"'),
      ),
      'ansi_escape',
    );
    expect(w).toMatchObject({ severity: 'caution', where: 'command' });
    expect(w?.message).toContain('ANSI CSI sequence');
    expect(w?.message).toContain('OSC sequence');
    expect(w?.message).toContain('U+0007 BELL');
  });

  it('flags other C0 controls, DEL and 8-bit CSI but not tab, newline or carriage return', () => {
    expect(only(warningsOf(claudeBash('printf "a\\tb"\necho "x"\r\n')), 'ansi_escape')).toEqual([]);
    for (const c of ['\u0000', '\u0008', '\u007f', '\u009b']) {
      expect(only(warningsOf(claudeBash(`echo a${c}b`)), 'ansi_escape')).toHaveLength(1);
    }
  });

  it('points at the line of a diff and at the title', () => {
    const ws = only(
      warningsOf({
        ...edit('/home/dev/project/log.txt', 'one\ntwo\n\u001b[31mthree\n'),
        title: 'Edit \u001b[8mlog.txt',
      }),
      'ansi_escape',
    );
    expect(ws.map((w) => w.where)).toEqual(['title', 'diff:/home/dev/project/log.txt line 3']);
  });

  it('flags a script whose single NUL would otherwise hide it as binary', () => {
    const ws = only(
      warningsOf(edit('/home/dev/project/run.sh', '#!/bin/sh\necho hi\n\u0000')),
      'ansi_escape',
    );
    expect(ws[0]?.message).toContain('U+0000 NULL');
  });
});

describe('Gemini: the title is the command', () => {
  it('reports hidden characters once, under command', () => {
    const ws = warningsOf(geminiShell('ls \u202e'));
    expect(only(ws, 'bidi_control').map((w) => w.where)).toEqual(['command']);
  });
});

describe('flood control', () => {
  it('collapses many findings of one code into 20 plus one summary', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({
      type: 'diff',
      path: `/home/dev/project/f${i}.ts`,
      oldText: null,
      newText: `x\u200by${i}`,
    }));
    const ws = only(
      warningsOf({ toolCallId: 'e', kind: 'edit', title: 'Edit many files', content: items }),
      'zero_width',
    );
    expect(ws).toHaveLength(21);
    expect(ws[20]).toMatchObject({
      where: 'request',
      message: expect.stringContaining('20 more zero_width findings'),
    });
  });

  it('bounds the walk over a huge rawInput', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 200_000 }, (_, i) => [`k${i}`, `v${i}\u200b`]),
    );
    const start = performance.now();
    const ws = only(
      warningsOf({ toolCallId: 'x', kind: 'other', title: 'Tool', rawInput: { wide } }),
      'zero_width',
    );
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(ws).toHaveLength(21);
    expect(ws[0]?.where).toBe('rawInput.wide.k0');
    expect(
      only(
        warningsOf({ toolCallId: 'x', kind: 'other', title: 'T', rawInput: 'a\u200bb' }),
        'zero_width',
      )[0]?.message,
    ).toMatch(/^The raw input/);
  });

  it('handles a megabyte of bidi characters quickly', () => {
    const start = performance.now();
    const ws = warningsOf(claudeBash(`echo ${'\u202e'.repeat(1_000_000)}`));
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(only(ws, 'bidi_control')[0]?.message).toContain('at least 10000 bidirectional');
  });
});

describe('revealInvisibles', () => {
  it('replaces bidi, zero-width and control characters with visible markers', () => {
    expect(revealInvisibles('rm -rf /\u202e\u200b\u001b[2J\u0000')).toBe(
      'rm -rf /⟨U+202E⟩⟨U+200B⟩⟨U+001B⟩[2J⟨U+0000⟩',
    );
    expect(revealInvisibles('a\u{E0041}b')).toBe('a⟨U+E0041⟩b');
    expect(revealInvisibles('a\u2028b\u00adc')).toBe('a⟨U+2028⟩b⟨U+00AD⟩c');
    expect(revealInvisibles('lone \ud800 surrogate')).toBe('lone ⟨U+D800⟩ surrogate');
  });

  it('keeps line breaks and tabs by default, reveals a lone CR, and can reveal everything', () => {
    expect(revealInvisibles('a\tb\nc\r\nd\re')).toBe('a\tb\nc\r\nd⟨U+000D⟩e');
    expect(revealInvisibles('a\tb\nc\r\nd', { lineBreaks: 'reveal' })).toBe(
      'a⟨U+0009⟩b⟨U+000A⟩c⟨U+000D⟩⟨U+000A⟩d',
    );
  });

  it('leaves ordinary text, other scripts and emoji untouched', () => {
    const text = 'Xin chào — 你好 — مرحبا — 👩‍💻 — <script>alert(1)</script>';
    expect(revealInvisibles(text)).toBe(text.replace('\u200d', '⟨U+200D⟩'));
    expect(revealInvisibles('plain ascii ~!@#$%^&*()')).toBe('plain ascii ~!@#$%^&*()');
  });
});
