import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, initShellParser, type RequestFacts } from '.';
import { DEFAULT_RULES } from '../../../shared/rules';
import { facts, makeSandbox, NOW, type Sandbox } from './helpers.test-support';

let box: Sandbox;
beforeAll(async () => {
  await initShellParser();
  box = makeSandbox();
  fs.writeFileSync(path.join(box.root, 'README.md'), 'x');
});
afterAll(() => box.cleanup());

const decide = (partial: Partial<RequestFacts>) =>
  evaluate(facts({ sessionCwd: box.root, ...partial }), {
    mode: 'default',
    rules: [...DEFAULT_RULES],
    grants: [],
    now: NOW,
  });
const read = (...paths: string[]) => decide({ toolKind: 'read', paths });

describe('the default read rule', () => {
  it('allows reading and searching inside the project, and names itself as the decider', () => {
    for (const paths of [['README.md'], ['src/a.ts'], ['src/inlink'], ['src/a.ts', 'README.md']]) {
      expect(read(...paths), paths.join()).toMatchObject({
        verdict: 'allow',
        decidedBy: { type: 'rule', ruleId: 'read-project' },
      });
    }
    expect(decide({ toolKind: 'search', paths: ['src/a.ts'] })).toMatchObject({ verdict: 'allow' });
  });

  it('asks for what lies outside, dot-files, the folder itself, and requests that name no path', () => {
    for (const paths of [
      [path.join(box.outside, 'inner', 'secret.txt')],
      ['src/escape/secret.txt'],
      ['../outside/inner/secret.txt'],
      ['src/.env'],
      ['.github/workflows/ci.yml'],
      ['.git/config'],
      ['.'],
      [],
      ['README.md', '/etc/hosts'],
    ]) {
      expect(read(...paths).verdict, paths.join()).toBe('ask');
    }
  });

  it('decides nothing but reads and searches', () => {
    expect(decide({ toolKind: 'edit', paths: ['README.md'] }).verdict).toBe('ask');
    expect(decide({ toolKind: 'execute', command: 'cat README.md' }).verdict).toBe('ask');
    expect(decide({ toolKind: 'delete', paths: ['README.md'] }).verdict).toBe('ask');
  });
});
