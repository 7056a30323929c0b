import { describe, expect, it } from 'vitest';
import { allowAnyReach, newAllowAny } from './allow-any';
import type { Rule } from './types';

const allow = (rest: Partial<Rule> = {}): Rule => ({ id: 'r', action: 'allow', ...rest });

describe('an allow rule that matches any request', () => {
  it('nothing narrowed: every request, whatever agent or folder it is scoped to', () => {
    expect(allowAnyReach(allow())).toBe('every request from any agent in any folder');
    expect(allowAnyReach(allow({ agent: 'gemini', project: '/p' }))).toBe(
      'every request from gemini in /p',
    );
    expect(allowAnyReach(allow({ toolKind: ['execute', 'edit'] }))).toBe(
      'every execute, edit request from any agent in any folder',
    );
  });

  it('a wildcard command or a wildcard path from the root or home is no narrowing', () => {
    expect(allowAnyReach(allow({ command: '*' }))).toBe(
      'every command from any agent in any folder',
    );
    expect(allowAnyReach(allow({ command: '* *', commandMatch: 'exact' }))).toMatch(
      /^every command/,
    );
    expect(allowAnyReach(allow({ path: '/**' }))).toMatch(/^every file request on any path/);
    expect(allowAnyReach(allow({ path: '~/**', toolKind: 'edit' }))).toMatch(
      /^every edit request on any path/,
    );
    expect(allowAnyReach(allow({ path: '$HOME/*/**' }))).not.toBeNull();
  });

  it('a named command or path, a relative glob (inside the session folder), ask and deny are not', () => {
    expect(allowAnyReach(allow({ command: 'npm test' }))).toBeNull();
    expect(allowAnyReach(allow({ command: 'npm *' }))).toBeNull();
    expect(allowAnyReach(allow({ command: 'n*' }))).toBeNull();
    expect(allowAnyReach(allow({ path: '**' }))).toBeNull();
    expect(allowAnyReach(allow({ path: '/home/me/proj/**' }))).toBeNull();
    expect(allowAnyReach({ id: 'r', action: 'ask' })).toBeNull();
    expect(allowAnyReach({ id: 'r', action: 'deny' })).toBeNull();
  });

  it('only a new or changed allow-any rule needs the confirmation; one saved as it is does not', () => {
    const saved = allow({ id: 'all-gemini', agent: 'gemini' });
    expect(newAllowAny([saved], [saved])).toEqual([]);
    expect(newAllowAny([saved], [{ ...saved, agent: 'claude' }])).toEqual([
      { ruleId: 'all-gemini', reach: 'every request from claude in any folder' },
    ]);
    expect(newAllowAny([], [allow({ command: 'ls' }), allow({ id: 'x' })])).toEqual([
      { ruleId: 'x', reach: 'every request from any agent in any folder' },
    ]);
  });
});
