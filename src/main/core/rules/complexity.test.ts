import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, evaluate, initShellParser, type PermissionMode, type Rule } from '.';
import { facts, makeSandbox, NOW, type Sandbox } from './helpers.test-support';

let box: Sandbox;
beforeAll(async () => {
  await initShellParser();
  box = makeSandbox();
});
afterAll(() => box.cleanup());

const ALLOW_ECHO: Rule[] = [{ id: 'allow-echo', action: 'allow', command: 'echo' }];

// Hostile lines that used to hold the main thread for seconds or minutes.
const HOSTILE: Array<[string, () => string]> = [
  ['100,000 substitutions', () => `echo ${'$(echo) '.repeat(100_000)}`],
  ['10 MB', () => `echo ${'a'.repeat(10 * 1024 * 1024)}`],
  ['10,000 nested substitutions', () => `echo ${'$('.repeat(10_000)}echo${')'.repeat(10_000)}`],
  ['1,000,000 words', () => Array.from({ length: 1_000_000 }, () => 'echo').join(';')],
  // Under the length bound, over the substitution and node bounds.
  ['300 substitutions', () => `echo ${'$(echo) '.repeat(300)}`],
  ['30,000 words', () => Array.from({ length: 30_000 }, () => 'echo').join(';')],
  // Under the length bound; tree-sitter's error recovery would take seconds over it.
  ['10,000 unterminated here-documents', () => '<<EOF\n'.repeat(10_000)],
];

describe('commands too long or complex to analyse always ask', () => {
  it.each(HOSTILE)('%s: opaque, and no rule or mode allows it', { timeout: 60_000 }, (_, make) => {
    const command = make();
    const analysis = analyzeCommand(command);
    expect(analysis).toMatchObject({ kind: 'opaque', tooComplex: true });
    expect(analysis.kind === 'opaque' && analysis.reasons.join(' ')).toMatch(/too (long|complex)/);
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as PermissionMode[]) {
      const verdict = evaluate(facts({ sessionCwd: box.root, toolKind: 'execute', command }), {
        mode,
        rules: ALLOW_ECHO,
        grants: [],
        now: NOW,
      }).verdict;
      expect(verdict, mode).toBe('ask');
    }
  });

  it('ordinary opaque lines are still allowed by bypass mode, and simple ones by a rule', () => {
    const state = (mode: PermissionMode) => ({ mode, rules: ALLOW_ECHO, grants: [], now: NOW });
    const exec = (command: string) => facts({ sessionCwd: box.root, toolKind: 'execute', command });
    expect(evaluate(exec('echo $(date)'), state('bypassPermissions')).verdict).toBe('allow');
    expect(evaluate(exec('echo $(date)'), state('default')).verdict).toBe('ask');
    expect(evaluate(exec('echo a; echo b'), state('default')).verdict).toBe('allow');
  });
});
