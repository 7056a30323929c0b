// The evaluation of a request under each permission mode (split from evaluate.test.ts by topic).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolKind } from '../../../shared/domain';
import { evaluate, resolveMode, type Rule } from '.';
import { evaluationFile, TABLE_RULES } from './helpers.test-support';

const { box, state, req, edit, exec } = evaluationFile();

describe('modes', () => {
  // Every kind ACP defines, as the domain lists them.
  const kinds: ToolKind[] = [...ToolKind.options];

  it('default asks for everything without rules', () => {
    for (const toolKind of kinds) {
      expect(
        evaluate(req({ toolKind, paths: ['src/a.ts'], command: 'ls' }), state([])).verdict,
      ).toBe('ask');
    }
  });

  it('acceptEdits allows edit/delete/move inside the folder, including files that do not exist yet', () => {
    for (const toolKind of ['edit', 'delete', 'move'] as const) {
      const r = evaluate(
        req({
          toolKind,
          paths: ['src/a.ts', 'src/new/dir/file.ts', path.join(box.root, 'README.md')],
        }),
        state([], 'acceptEdits'),
      );
      expect(r).toMatchObject({
        verdict: 'allow',
        decidedBy: { type: 'mode', mode: 'acceptEdits' },
      });
    }
    expect(evaluate(edit('src/inlink'), state([], 'acceptEdits')).verdict).toBe('allow');
  });

  it('acceptEdits asks for paths that escape: .., absolute outside, symlinks out, dangling symlinks', () => {
    const escapes = [
      '../outside/inner/secret.txt',
      'src/../../outside/x.txt',
      path.join(box.outside, 'inner', 'secret.txt'),
      'src/escape/secret.txt',
      'src/escape/new-file.txt',
      'src/dangling',
      // kernel semantics: `escape/..` is the parent of the link TARGET, not src/
      'src/escape/../x.txt',
      '/etc/passwd',
    ];
    for (const p of escapes) {
      expect(evaluate(edit(p), state([], 'acceptEdits')).verdict, p).toBe('ask');
    }
    // one path outside spoils the batch
    expect(
      evaluate(
        req({ toolKind: 'move', paths: ['src/a.ts', '../outside/a.ts'] }),
        state([], 'acceptEdits'),
      ).verdict,
    ).toBe('ask');
  });

  it('acceptEdits still asks for .git internals, the folder itself, other kinds and path-less edits', () => {
    expect(evaluate(edit('.git/hooks/pre-commit'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(edit('.git/config'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(edit('vendor/lib/.git/config'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(edit('.'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(req({ toolKind: 'edit' }), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(
      evaluate(req({ toolKind: 'read', paths: ['src/a.ts'] }), state([], 'acceptEdits')).verdict,
    ).toBe('ask');
    expect(evaluate(exec('touch src/x'), state([], 'acceptEdits')).verdict).toBe('ask');
    expect(evaluate(edit('.github/workflows/ci.yml'), state([], 'acceptEdits')).verdict).toBe(
      'allow',
    );
  });

  it('plan denies writes, execution, other and unlabelled requests; reads ask; switch_mode asks', () => {
    for (const toolKind of ['edit', 'delete', 'move', 'execute', 'other'] as const) {
      const r = evaluate(
        req({ toolKind, paths: ['src/a.ts'], command: 'ls' }),
        state(TABLE_RULES, 'plan'),
      );
      expect(r, toolKind).toMatchObject({
        verdict: 'deny',
        decidedBy: { type: 'mode', mode: 'plan' },
      });
      expect(r.reason).toMatch(/Plan mode/);
    }
    expect(evaluate(req({ paths: ['src/a.ts'] }), state([], 'plan')).verdict).toBe('deny');
    for (const toolKind of ['read', 'search', 'think', 'fetch', 'switch_mode'] as const) {
      expect(
        evaluate(req({ toolKind, paths: ['src/a.ts'] }), state([], 'plan')).verdict,
        toolKind,
      ).toBe('ask');
    }
    // allow rules still apply to reads in plan mode
    expect(
      evaluate(
        req({ toolKind: 'read', paths: ['src/a.ts'] }),
        state([{ id: 'r', action: 'allow', toolKind: 'read' }], 'plan'),
      ).verdict,
    ).toBe('allow');
  });

  it('plan: deny and ask rules come first', () => {
    expect(evaluate(exec('curl x'), state(TABLE_RULES, 'plan')).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'deny-curl',
    });
    const ask: Rule[] = [{ id: 'ask-src', action: 'ask', path: 'src/**', toolKind: 'edit' }];
    expect(evaluate(edit('src/a.ts'), state(ask, 'plan'))).toMatchObject({
      verdict: 'ask',
      decidedBy: { ruleId: 'ask-src' },
    });
  });

  it('bypassPermissions allows everything except deny (and ask) rules', () => {
    expect(evaluate(exec('bash -c "anything $(x)"'), state([], 'bypassPermissions'))).toMatchObject(
      {
        verdict: 'allow',
        decidedBy: { type: 'mode', mode: 'bypassPermissions' },
      },
    );
    expect(evaluate(edit('/etc/passwd'), state([], 'bypassPermissions')).verdict).toBe('allow');
    expect(evaluate(exec('sudo curl x'), state(TABLE_RULES, 'bypassPermissions'))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'deny-curl' },
    });
    // a rule that allows is still reported as the decider under bypass
    expect(evaluate(exec('ls'), state(TABLE_RULES, 'bypassPermissions')).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'allow-ls',
    });
  });

  it('resolveMode: session overrides agent; per-agent bypass maps to bypassPermissions', () => {
    expect(resolveMode({})).toBe('default');
    expect(resolveMode({ agent: { bypassPermissions: true } })).toBe('bypassPermissions');
    expect(resolveMode({ agent: { bypassPermissions: true, mode: 'plan' } })).toBe(
      'bypassPermissions',
    );
    expect(resolveMode({ agent: { mode: 'acceptEdits' } })).toBe('acceptEdits');
    expect(resolveMode({ session: 'plan', agent: { bypassPermissions: true } })).toBe('plan');
    expect(resolveMode({ session: 'default', agent: { mode: 'bypassPermissions' } })).toBe(
      'default',
    );
    expect(resolveMode({ session: null, agent: { bypassPermissions: false, mode: 'plan' } })).toBe(
      'plan',
    );
  });
});
