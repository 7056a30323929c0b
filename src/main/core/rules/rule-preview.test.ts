import { beforeAll, describe, expect, it } from 'vitest';
import {
  evaluate,
  initShellParser,
  preview,
  RulesValidationError,
  suggestRules,
  validateRules,
  type HistoryEntry,
  type RequestFacts,
  type Rule,
} from '.';
import { NOW } from './helpers.test-support';

beforeAll(async () => {
  await initShellParser();
});

const P = '/work/project';
const past: Array<RequestFacts & { id: string }> = [
  {
    id: 'r0',
    agentId: 'a',
    sessionId: 's',
    sessionCwd: P,
    toolKind: 'execute',
    command: 'npm test',
  },
  {
    id: 'r1',
    agentId: 'a',
    sessionId: 's',
    sessionCwd: P,
    toolKind: 'execute',
    command: 'npm test -- --watch',
  },
  {
    id: 'r2',
    agentId: 'a',
    sessionId: 's',
    sessionCwd: P,
    toolKind: 'execute',
    command: 'npm test && npm run build',
  },
  {
    id: 'r3',
    agentId: 'a',
    sessionId: 's',
    sessionCwd: P,
    toolKind: 'execute',
    command: 'echo $(npm test)',
  },
  { id: 'r4', agentId: 'a', sessionId: 's', sessionCwd: P, toolKind: 'edit', paths: ['src/a.ts'] },
  { id: 'r5', agentId: 'a', sessionId: 's', sessionCwd: P, toolKind: 'execute', command: 'rm $X' },
  {
    id: 'r6',
    agentId: 'b',
    sessionId: 's',
    sessionCwd: P,
    toolKind: 'execute',
    command: 'npm test',
  },
];

describe('preview', () => {
  it('allow rule: full when it covers every part, partial when only some; never for opaque lines', () => {
    const hits = preview({ id: 'n', action: 'allow', command: 'npm test' }, past);
    expect(hits.map((h) => [h.request.id, h.match])).toEqual([
      ['r0', 'full'],
      ['r1', 'full'],
      ['r2', 'partial'],
      ['r6', 'full'],
    ]);
    expect(
      preview({ id: 'n', action: 'allow', command: 'npm test', agent: 'b' }, past).map(
        (h) => h.index,
      ),
    ).toEqual([6]);
    expect(
      preview({ id: 'n', action: 'allow', command: 'npm test', commandMatch: 'exact' }, past).map(
        (h) => h.request.id,
      ),
    ).toEqual(['r0', 'r2', 'r6']);
  });

  it('deny rule: matches visible commands of opaque lines too; run-time words are "maybe"', () => {
    const hits = preview({ id: 'd', action: 'deny', command: 'npm test' }, past);
    expect(hits.map((h) => [h.request.id, h.match])).toEqual([
      ['r0', 'full'],
      ['r1', 'full'],
      ['r2', 'full'],
      ['r3', 'full'],
      ['r6', 'full'],
    ]);
    expect(
      preview({ id: 'd', action: 'deny', command: 'rm -rf' }, past).map((h) => [
        h.request.id,
        h.match,
      ]),
    ).toEqual([['r5', 'maybe']]);
  });

  it('path rules', () => {
    expect(
      preview({ id: 'p', action: 'allow', path: 'src/**', toolKind: 'edit' }, past).map(
        (h) => h.request.id,
      ),
    ).toEqual(['r4']);
    expect(preview({ id: 'p', action: 'allow', path: 'lib/**', toolKind: 'edit' }, past)).toEqual(
      [],
    );
  });

  it('refuses an invalid rule with a clear error', () => {
    expect(() =>
      preview({ id: 'x', action: 'allow', command: 'ls', toolKind: 'edit' }, past),
    ).toThrow(RulesValidationError);
  });
});

function approvals(command: string, n: number, extra: Partial<HistoryEntry> = {}): HistoryEntry[] {
  return Array.from({ length: n }, () => ({
    agentId: 'gemini',
    projectRoot: P,
    toolKind: 'execute' as const,
    command,
    paths: [],
    decision: 'allow' as const,
    decidedBy: 'person',
    ...extra,
  }));
}

describe('suggestRules', () => {
  let n = 0;
  const newId = (): string => `s${++n}`;

  it('suggests an exact allow rule after 5 approvals of the same command in a project', () => {
    const s = suggestRules(approvals('npm test', 5), { newId, now: NOW });
    expect(s).toHaveLength(1);
    const [first] = s;
    expect(first?.message).toBe('You approved `npm test` 5 times in /work/project');
    expect(first?.count).toBe(5);
    expect(first?.rule).toMatchObject({
      action: 'allow',
      agent: 'gemini',
      project: P,
      toolKind: 'execute',
      command: 'npm test',
      commandMatch: 'exact',
      source: 'history',
      createdAt: NOW,
    });
    expect(validateRules(s.map((x) => x.rule)).ok).toBe(true);
  });

  it('the suggested rule is never wider than what was seen', () => {
    const [s] = suggestRules(approvals("git commit -m 'fix: a b'", 5));
    expect(s?.rule.command).toBe("git commit -m 'fix: a b'");
    const rules = [s?.rule as Rule];
    const ask = (command: string, agentId = 'gemini', projectRoot = P) =>
      evaluate(
        {
          agentId,
          sessionId: 'x',
          sessionCwd: projectRoot,
          projectRoot,
          toolKind: 'execute',
          command,
        },
        { rules, grants: [], now: NOW },
      ).verdict;
    expect(ask("git commit -m 'fix: a b'")).toBe('allow');
    expect(ask('git commit -m "fix: a b"')).toBe('allow');
    expect(ask("git commit -m 'fix: a b' --amend")).toBe('ask');
    expect(ask('git commit -m fix:')).toBe('ask');
    expect(ask("git commit -m 'fix: a b'", 'claude')).toBe('ask');
    expect(ask("git commit -m 'fix: a b'", 'gemini', '/other')).toBe('ask');
  });

  it('glob characters in commands and paths are escaped, not wildcards', () => {
    const [cmd] = suggestRules(approvals("ls '*.ts'", 5));
    expect(cmd?.rule.command).toBe("ls '*.ts'");
    const paths: HistoryEntry[] = Array.from({ length: 5 }, () => ({
      agentId: 'gemini',
      projectRoot: P,
      toolKind: 'edit' as const,
      paths: ['src/[id]/page.tsx'],
      decision: 'allow' as const,
      decidedBy: 'person',
    }));
    const [p] = suggestRules(paths);
    expect(p?.rule).toMatchObject({
      path: '/work/project/src/\\[id\\]/page.tsx',
      toolKind: 'edit',
    });
    expect(p?.message).toBe(
      'You approved /work/project/src/[id]/page.tsx 5 times in /work/project',
    );
  });

  it('threshold is configurable; below it nothing is suggested', () => {
    expect(suggestRules(approvals('npm test', 4))).toEqual([]);
    expect(suggestRules(approvals('npm test', 3), { threshold: 3 })).toHaveLength(1);
  });

  it('never for opaque commands, run-time words, env assignments, wrappers or redirect writes', () => {
    for (const command of [
      'echo $(id)',
      'bash -c "npm test"',
      'sudo npm test',
      'ls $HOME',
      'CI=1 npm test',
      'time npm test',
      'npm test > log.txt',
    ]) {
      expect(suggestRules(approvals(command, 9)), command).toEqual([]);
    }
  });

  it('counts each part of compound commands, and only person decisions', () => {
    const history = [
      ...approvals('npm ci && npm test', 3),
      ...approvals('npm test', 2),
      ...approvals('npm test', 9, { decidedBy: 'rule' }),
    ];
    const s = suggestRules(history);
    expect(s.map((x) => [x.rule.command, x.count])).toEqual([['npm test', 5]]);
  });

  it('mixed decisions suggest nothing; repeated denials suggest a deny rule', () => {
    const mixed = [...approvals('git push', 6), ...approvals('git push', 1, { decision: 'deny' })];
    expect(suggestRules(mixed)).toEqual([]);
    const denied = suggestRules(approvals('git push --force', 5, { decision: 'deny' }));
    expect(denied).toHaveLength(1);
    expect(denied[0]?.rule).toMatchObject({ action: 'deny', command: 'git push --force' });
    expect(denied[0]?.message).toMatch(/^You denied/);
  });

  it('groups per agent and per project, and sorts by count', () => {
    const history = [
      ...approvals('npm test', 5),
      ...approvals('npm test', 6, { agentId: 'claude' }),
      ...approvals('npm test', 5, { projectRoot: '/p2' }),
    ];
    const s = suggestRules(history);
    expect(s.map((x) => [x.agentId, x.projectRoot, x.count])).toEqual([
      ['claude', P, 6],
      ['gemini', '/p2', 5],
      ['gemini', P, 5],
    ]);
  });

  it('skips what existing rules already decide the same way', () => {
    const existing: Rule[] = [{ id: 'e', action: 'allow', command: 'npm' }];
    expect(suggestRules(approvals('npm test', 5), { existingRules: existing })).toEqual([]);
    const denyOnly: Rule[] = [{ id: 'd', action: 'deny', command: 'npm test' }];
    expect(suggestRules(approvals('npm test', 5), { existingRules: denyOnly })).toHaveLength(1);
  });
});
