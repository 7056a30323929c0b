import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { evaluationFile, NOW } from './helpers.test-support';
import type { RequestFacts, Rule } from './types';

const { box } = evaluationFile();

const rule: Rule = {
  id: 'make-test',
  action: 'allow',
  command: 'make test',
  whenPreviewChangesOnly: ['build'],
};
const facts = (preview?: RequestFacts['preview']): RequestFacts => ({
  agentId: 'a',
  sessionId: 's',
  sessionCwd: box.root,
  projectRoot: box.root,
  toolKind: 'execute',
  command: 'make test',
  ...(preview ? { preview } : {}),
});
const verdict = (preview?: RequestFacts['preview'], rules: Rule[] = [rule]) =>
  evaluate(facts(preview), { rules, grants: [], now: NOW }).verdict;

describe('an allow rule that requires a preview', () => {
  it.each([
    ['no preview yet', undefined, 'ask'],
    ['a preview cut short', { complete: false, beyondRoots: false, changed: [] }, 'ask'],
    ['changes nothing', { complete: true, beyondRoots: false, changed: [] }, 'allow'],
    [
      'changes only under build/',
      { complete: true, beyondRoots: false, changed: ['/p/build/a.o', '/p/build/x/y'] },
      'allow',
    ],
    [
      'changes a file beside build/',
      { complete: true, beyondRoots: false, changed: ['/p/build/a.o', '/p/src/a.c'] },
      'ask',
    ],
    [
      'a folder named like it',
      { complete: true, beyondRoots: false, changed: ['/p/build2/a'] },
      'ask',
    ],
    ['writes outside the roots', { complete: true, beyondRoots: true, changed: [] }, 'ask'],
  ] as const)('%s → %s', (_label, preview, expected) => {
    const inBox = preview && {
      ...preview,
      changed: preview.changed.map((path) => path.replace(/^\/p/, box.root)),
    };
    expect(verdict(inBox)).toBe(expected);
  });

  it('leaves a rule without the condition as it was', () => {
    const plain: Rule = { id: 'plain', action: 'allow', command: 'make test' };
    expect(verdict(undefined, [plain])).toBe('allow');
  });
});
