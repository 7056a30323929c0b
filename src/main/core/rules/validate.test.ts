import { describe, expect, it } from 'vitest';
import { parseRules, RulesValidationError, validateRules } from '.';
import { TABLE_RULES } from './helpers.test-support';

function errorsOf(rules: unknown): string[] {
  const r = validateRules(rules);
  return r.ok ? [] : r.errors.map((e) => e.message);
}

describe('validateRules', () => {
  it('accepts a sensible rule set', () => {
    const r = validateRules([
      ...TABLE_RULES,
      { id: 'p', action: 'allow', path: 'src/**', toolKind: ['edit', 'read'] },
      { id: 'abs', action: 'deny', path: '/etc/**' },
      { id: 'home', action: 'deny', path: '~/.ssh/**' },
      { id: 'k', action: 'ask', toolKind: 'fetch', agent: 'gemini', reason: 'network' },
      {
        id: 'e',
        action: 'allow',
        command: "git commit -m 'x y'",
        commandMatch: 'exact',
        toolKind: 'execute',
        project: '/work/p',
        source: 'ui',
        createdAt: 1,
      },
    ]);
    expect(r.ok).toBe(true);
  });

  it.each([
    [
      { id: 'x', action: 'allow', command: 'ls', toolKind: 'edit' },
      /rule "x".*does not include "execute"/,
    ],
    [
      { id: 'x', action: 'allow', command: 'ls', toolKind: ['read', 'edit'] },
      /does not include "execute"/,
    ],
    [
      { id: 'x', action: 'deny', path: 'src/**', toolKind: 'execute' },
      /rule "x".*`path` never matches toolKind "execute"/,
    ],
    [{ id: 'x', action: 'deny', command: '' }, /rule "x".*empty/],
    [{ id: 'x', action: 'deny', command: '   ' }, /empty/],
    [{ id: 'x', action: 'deny', path: '' }, /rule "x".*path glob is empty/],
    [{ id: 'x', action: 'deny', path: 'src/[abc' }, /rule "x".*invalid glob/],
    [{ id: 'x', action: 'deny', path: 'src/{a,b' }, /invalid glob/],
    [{ id: 'x', action: 'deny', path: '../outside/**' }, /`\.\.` segment/],
    [{ id: 'x', action: 'deny', path: '~bob/x' }, /~user/],
    [{ id: 'x', action: 'deny', toolKind: 'shell' }, /rule "x".*toolKind/],
    [{ id: 'x', action: 'deny', toolKind: ['read', 'write'] }, /toolKind/],
    [{ id: 'x', action: 'deny', toolKind: [] }, /empty list/],
    [{ id: 'x', action: 'block' }, /action/],
    [{ id: 'x', action: 'deny', comand: 'rm' }, /rule "x".*comand/],
    [{ id: '', action: 'deny' }, /id must not be empty/],
    [{ action: 'deny' }, /rule #1.*id/],
    [{ id: 'x', action: 'deny', command: 'rm', path: 'x' }, /both `command`.*and `path`/],
    [{ id: 'x', action: 'deny', command: 'ls && rm' }, /shell operator/],
    [{ id: 'x', action: 'deny', command: 'ls | sh' }, /shell operator/],
    [{ id: 'x', action: 'deny', command: "echo 'oops" }, /unterminated single quote/],
    [{ id: 'x', action: 'deny', command: 'X=1 ls' }, /assignment/],
    [{ id: 'x', action: 'allow', commandMatch: 'exact' }, /`commandMatch` without `command`/],
    [{ id: 'x', action: 'allow', command: 'ls', project: 'relative/dir' }, /absolute path/],
    [{ id: 'x', action: 'allow', agent: '' }, /agent must not be empty/],
    ['not an object', /rule #1/],
  ])('rejects %j', (rule, message) => {
    const errors = errorsOf([rule]);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(message);
  });

  it('rejects duplicate ids naming both rules, and non-lists', () => {
    expect(
      errorsOf([
        { id: 'a', action: 'allow', command: 'ls' },
        { id: 'a', action: 'deny', command: 'rm' },
      ]),
    ).toEqual(['rule "a" (#2): duplicate id (also used by rule #1)']);
    expect(errorsOf({ rules: [] })).toEqual(['rules must be a list']);
  });

  it('reports every problem at once, and parseRules throws them', () => {
    const bad = [
      { id: 'ok', action: 'allow', command: 'ls' },
      { id: 'b1', action: 'allow', command: 'ls', toolKind: 'read' },
      { id: 'b2', action: 'deny', path: '[' },
    ];
    const r = validateRules(bad);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors.map((e) => [e.index, e.ruleId])).toEqual([
        [1, 'b1'],
        [2, 'b2'],
      ]);
    expect(() => parseRules(bad)).toThrow(RulesValidationError);
    expect(() => parseRules(bad)).toThrow(/b1[\s\S]*b2/);
    expect(parseRules(TABLE_RULES)).toEqual(TABLE_RULES);
  });
});
