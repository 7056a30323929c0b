import { describe, expect, it } from 'vitest';
import { Warning } from '../../../../shared/domain';
import { claudeBash, geminiShell, only, warningsOf } from '../helpers.test-support';

const lookalikes = (command: string) => only(warningsOf(claudeBash(command)), 'lookalike');

describe('lookalike', () => {
  it('is danger in a command that mixes a Cyrillic letter into a Latin word, and names its code point', () => {
    const ws = lookalikes('npm t\u0435st && npm publish');
    expect(ws).toHaveLength(1);
    expect(ws[0]).toMatchObject({ severity: 'danger', where: 'command' });
    expect(ws[0]!.message).toContain('"t\u0435st" (U+0435 Cyrillic, looks like "e")');
    expect(() => Warning.parse(ws[0])).not.toThrow();
  });

  it('finds Greek, fullwidth and ligature look-alikes, and a Latin letter in a Cyrillic word', () => {
    expect(lookalikes('curl evil.c\u03bfm')[0]!.message).toContain('U+03BF Greek');
    expect(lookalikes('\uff52m -rf /')[0]!.message).toContain('U+FF52 Latin, looks like "r"');
    expect(lookalikes('cat \ufb01le')[0]!.message).toContain('looks like "fi"');
    expect(lookalikes('echo \u043fpo\u0431\u043b\u0435\u043c\u0430')[0]!.message).toContain(
      'U+0070 Latin "p"',
    );
  });

  it('finds a word made only of look-alikes when nothing else is written in that script', () => {
    expect(lookalikes('./\u0435\u0445\u0435')[0]!.message).toContain('U+0445 Cyrillic');
  });

  it('leaves plain French and Russian alone, in a commit message and in a path', () => {
    expect(lookalikes('git commit -m "Corrigé l\'accès à la base de données"')).toEqual([]);
    expect(lookalikes('git commit -m "Исправлена ошибка с кодировкой в отчёте"')).toEqual([]);
    expect(lookalikes('git commit -m "Обновил README и CI"')).toEqual([]);
    const gemini = warningsOf(geminiShell('cat "документы/отчёт о работе.txt"'));
    expect(only(gemini, 'lookalike')).toEqual([]);
    expect(lookalikes('ls ~/Téléchargements ~/Schreibtisch/Übersicht')).toEqual([]);
  });

  it('is caution in a path', () => {
    const ws = only(
      warningsOf({
        toolCallId: 'e',
        kind: 'edit',
        title: 'Edit',
        locations: [{ path: '/home/dev/project/src/\u0456ndex.ts' }],
      }),
      'lookalike',
    );
    expect(ws.map((w) => [w.where, w.severity])).toEqual([['path', 'caution']]);
  });
});
