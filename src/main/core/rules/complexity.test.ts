import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, evaluate, initShellParser, type PermissionMode, type Rule } from '.';
import { facts, makeSandbox, NOW, type Sandbox } from './helpers.test-support';
import { HOSTILE_LINES, type HostileLine } from './hostile-lines.test-support';

let box: Sandbox;
beforeAll(async () => {
  await initShellParser();
  box = makeSandbox();
});
afterAll(() => box.cleanup());

const ALLOW_ECHO: Rule[] = [{ id: 'allow-echo', action: 'allow', command: 'echo' }];

const HOSTILE: HostileLine[] = [
  ...HOSTILE_LINES,
  // Under the length bound, over the node bound.
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
