import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import type { HistoryDetail } from '../../../shared/history';
import type { Rule } from '../../../shared/rules';
import {
  draftOfHistory,
  draftOfRule,
  EMPTY_DRAFT,
  escapeGlob,
  ruleOfDraft,
  splitShellLine,
  suggestId,
  type RuleDraft,
} from './rule-draft';

describe('escapeGlob', () => {
  it('makes a glob that matches the path itself and nothing else', () => {
    for (const path of [
      '/src/[id]/page.tsx',
      '/a/*.log',
      '/x/file?.txt',
      '/y/{a,b}/(c)!+@|',
      'C:\\work\\a.ts',
    ]) {
      const glob = escapeGlob(path);
      expect(picomatch.isMatch(path, glob, { dot: true }), path).toBe(true);
    }
    expect(picomatch.isMatch('/a/b.log', escapeGlob('/a/*.log'))).toBe(false);
    expect(picomatch.isMatch('/src/i/page.tsx', escapeGlob('/src/[id]/page.tsx'))).toBe(false);
  });

  it('leaves a path without special characters as it is', () => {
    expect(escapeGlob('/home/dev/project/src/index.ts')).toBe('/home/dev/project/src/index.ts');
  });
});

describe('drafts and rules', () => {
  const rule: Rule = {
    id: 'allow-npm-test',
    action: 'allow',
    agent: 'claude',
    project: '/work/p',
    toolKind: 'execute',
    command: 'npm test',
    commandMatch: 'exact',
    reason: 'Safe',
    createdAt: 1_700_000_000_000,
    source: 'ui',
  };

  it('a saved rule survives the editor unchanged', () => {
    expect(ruleOfDraft(draftOfRule(rule))).toEqual(rule);
    const pathRule: Rule = { id: 'no-env', action: 'deny', path: '**/.env*' };
    expect(ruleOfDraft(draftOfRule(pathRule))).toEqual(pathRule);
    const several: Rule = { id: 'ask', action: 'ask', toolKind: ['edit', 'delete'] };
    expect(ruleOfDraft(draftOfRule(several))).toEqual(several);
    const previewed: Rule = {
      id: 'make-test',
      action: 'allow',
      command: 'make test',
      commandMatch: 'prefix',
      whenPreviewChangesOnly: ['build', 'dist'],
    };
    expect(ruleOfDraft(draftOfRule(previewed))).toEqual(previewed);
    const nothing: Rule = { ...previewed, whenPreviewChangesOnly: [] };
    expect(ruleOfDraft(draftOfRule(nothing))).toEqual(nothing);
  });

  it('an allow keeps its preview condition, one folder per line; another action drops it', () => {
    const draft: RuleDraft = {
      ...EMPTY_DRAFT,
      id: 'x',
      action: 'allow',
      target: 'command',
      command: 'make',
      previewOnly: true,
      previewFolders: ' build \n\n dist/\n',
    };
    expect(ruleOfDraft(draft).whenPreviewChangesOnly).toEqual(['build', 'dist/']);
    expect(ruleOfDraft({ ...draft, previewOnly: false }).whenPreviewChangesOnly).toBeUndefined();
    expect(ruleOfDraft({ ...draft, action: 'deny' }).whenPreviewChangesOnly).toBeUndefined();
  });

  it('a new rule asks and matches nothing until the person picks what', () => {
    expect(EMPTY_DRAFT).toMatchObject({ action: 'ask', target: '' });
  });

  it('a draft targets the command, else the path, else anything', () => {
    expect(draftOfRule(rule).target).toBe('command');
    expect(draftOfRule({ id: 'p', action: 'deny', path: '/x' }).target).toBe('path');
    expect(draftOfRule({ id: 'a', action: 'ask' }).target).toBe('any');
  });

  it('leaves blank and hidden fields out of the rule, trimming what it keeps', () => {
    const draft: RuleDraft = {
      ...EMPTY_DRAFT,
      id: '  tidy  ',
      action: 'deny',
      target: 'path',
      path: '/secret',
      command: 'left over from the command target',
      project: '   ',
      reason: '  because  ',
    };
    expect(ruleOfDraft(draft)).toEqual({
      id: 'tidy',
      action: 'deny',
      path: '/secret',
      reason: 'because',
    });
  });

  it('keeps a command exactly as typed (spaces matter to the match)', () => {
    const draft: RuleDraft = { ...EMPTY_DRAFT, id: 'x', target: 'command', command: ' ls  -la ' };
    expect(ruleOfDraft(draft)).toMatchObject({ command: ' ls  -la ', commandMatch: 'prefix' });
  });
});

describe('splitShellLine', () => {
  it('splits at unquoted separators', () => {
    expect(splitShellLine('npm ci && npm test || echo failed; ls | wc -l & wait\nexit')).toEqual([
      'npm ci',
      'npm test',
      'echo failed',
      'ls',
      'wc -l',
      'wait',
      'exit',
    ]);
  });

  it('keeps quoted and escaped separators inside their command', () => {
    expect(splitShellLine(`echo 'a && b' "c; d" e\\;f && ls`)).toEqual([
      `echo 'a && b' "c; d" e\\;f`,
      'ls',
    ]);
    expect(splitShellLine(`echo "say \\"hi\\" | there" | cat`)).toEqual([
      `echo "say \\"hi\\" | there"`,
      'cat',
    ]);
  });

  it('does not split at redirections', () => {
    expect(splitShellLine('make 2>&1 | tee log')).toEqual(['make 2>&1', 'tee log']);
    expect(splitShellLine('build &> out.txt')).toEqual(['build &> out.txt']);
  });

  it('drops empty parts', () => {
    expect(splitShellLine(' ;; ls ; ')).toEqual(['ls']);
    expect(splitShellLine('')).toEqual([]);
  });
});

describe('draftOfHistory', () => {
  const base = {
    agentId: 'claude',
    cwd: '/work/p',
    title: 'Run the tests',
    toolKind: 'execute',
    command: null,
    commandText: null,
    paths: [],
    reply: { outcome: 'selected', optionId: 'yes', optionKind: 'allow_once' },
  } as const;
  const detail = (over: Partial<HistoryDetail>) => ({ ...base, ...over }) as HistoryDetail;

  it('an approved command becomes an exact allow for this agent and folder', () => {
    const draft = draftOfHistory(detail({ commandText: 'npm test' }), 42);
    expect(draft).toMatchObject({
      action: 'allow',
      toolKind: 'execute',
      target: 'command',
      command: 'npm test',
      commandMatch: 'exact',
      agent: 'claude',
      project: '/work/p',
      createdAt: 42,
      source: 'history',
      reason: 'Made from a approved request: Run the tests',
    });
    expect(draft.commandParts).toBeUndefined();
  });

  it('prefers the command as it ran over the text of the title', () => {
    const draft = draftOfHistory(
      detail({
        commandText: 'from title',
        command: { command: 'npm run lint', args: null, cwd: null, source: 'rawInput' },
      }),
      0,
    );
    expect(draft.command).toBe('npm run lint');
  });

  it('a line of several commands starts from the first, and offers the others', () => {
    const draft = draftOfHistory(detail({ commandText: 'npm ci && npm test' }), 0);
    expect(draft).toMatchObject({
      command: 'npm ci',
      commandParts: ['npm ci', 'npm test'],
    });
  });

  it('a refused edit becomes a deny of its first path, escaped to match only itself', () => {
    const draft = draftOfHistory(
      detail({
        toolKind: 'edit',
        paths: ['/work/p/[slug].ts', '/work/p/other.ts'],
        reply: { outcome: 'selected', optionId: 'no', optionKind: 'reject_once' },
      }),
      0,
    );
    expect(draft).toMatchObject({ action: 'deny', target: 'path', path: '/work/p/\\[slug\\].ts' });
    expect(draft.reason).toMatch(/^Made from a refused request/);
  });

  it('a cancelled request becomes a deny; without command or path it matches any', () => {
    const draft = draftOfHistory(detail({ toolKind: 'fetch', reply: { outcome: 'cancelled' } }), 0);
    expect(draft).toMatchObject({ action: 'deny', target: 'any', toolKind: 'fetch' });
  });

  it('bounds the reason to 300 characters', () => {
    const draft = draftOfHistory(detail({ title: 'x'.repeat(1000), commandText: 'ls' }), 0);
    expect(draft.reason).toHaveLength(300);
  });
});

describe('suggestId', () => {
  const none = new Set<string>();

  it('names the action and what the rule matches', () => {
    expect(
      suggestId({ ...EMPTY_DRAFT, action: 'allow', target: 'command', command: 'npm test' }, none),
    ).toBe('allow-npm-test');
    expect(
      suggestId({ ...EMPTY_DRAFT, action: 'deny', target: 'path', path: '/a/b/.env.local' }, none),
    ).toBe('deny-env-local');
    expect(suggestId({ ...EMPTY_DRAFT, action: 'ask', toolKind: ['edit', 'delete'] }, none)).toBe(
      'ask-edit-delete',
    );
    expect(suggestId({ ...EMPTY_DRAFT, action: 'allow', toolKind: 'fetch' }, none)).toBe(
      'allow-fetch',
    );
    expect(suggestId(EMPTY_DRAFT, none)).toBe('ask-any');
  });

  it('counts up past ids that are taken', () => {
    const draft: RuleDraft = { ...EMPTY_DRAFT, action: 'deny', target: 'command', command: 'rm' };
    expect(suggestId(draft, new Set(['deny-rm']))).toBe('deny-rm-2');
    expect(suggestId(draft, new Set(['deny-rm', 'deny-rm-2']))).toBe('deny-rm-3');
  });

  it('stays short and never ends with a dash', () => {
    const draft: RuleDraft = {
      ...EMPTY_DRAFT,
      target: 'command',
      command: 'a'.repeat(41) + ' --flag',
    };
    const id = suggestId(draft, none);
    expect(id.length).toBeLessThanOrEqual(48);
    expect(id).not.toMatch(/-$/);
  });

  it('falls back to the action when nothing readable is left', () => {
    expect(suggestId({ ...EMPTY_DRAFT, target: 'command', command: '!!!' }, none)).toBe('ask');
  });
});
