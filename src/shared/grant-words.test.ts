import { describe, expect, it } from 'vitest';
import { forHowLong, grantParts, grantWords } from './grant-words';
import type { Grant } from './rules';

const npmTest: Grant['commands'] = [
  { argv: ['npm', 'test'], env: {}, writes: [], dynamic: [], match: 'exact' },
];
const base = { id: '0192', agentId: 'gemini', toolKind: 'execute', createdAt: 1_000 } as const;

describe('a grant in words', () => {
  it('a project grant for 30 minutes, the home folder written ~', () => {
    const grant: Grant = {
      ...base,
      scope: 'project',
      projectRoot: '/home/me/proj',
      commands: npmTest,
      expiresAt: 1_000 + 30 * 60_000,
    };
    expect(grantWords(grant, { home: '/home/me' })).toBe('allow `npm test` in ~/proj for 30 min');
    expect(grantWords(grant)).toBe('allow `npm test` in /home/me/proj for 30 min');
  });

  it('a session grant, an agent-wide one until revoked, paths by what is done to them', () => {
    expect(grantWords({ ...base, scope: 'session', sessionId: 's', commands: npmTest })).toBe(
      'allow `npm test` in this session',
    );
    expect(
      grantWords(
        { ...base, scope: 'agent', toolKind: 'edit', paths: ['/p/a.ts', "/p/it's.ts"] },
        { agentName: 'Gemini CLI' },
      ),
    ).toBe("allow editing `/p/a.ts`, `/p/it's.ts` for Gemini CLI everywhere, until revoked");
  });

  it('commands as the shell reads them: quoted tokens, variables, redirects, a prefix', () => {
    const grant: Grant = {
      ...base,
      scope: 'session',
      sessionId: 's',
      commands: [
        {
          argv: ['echo', 'a b', '$HOME'],
          env: { X: '1' },
          writes: ['out.txt'],
          dynamic: [2],
          match: 'prefix',
        },
      ],
      expiresAt: 1_000 + 480 * 60_000,
    };
    expect(grantWords(grant)).toBe(
      "allow `X=1 echo 'a b' $HOME … > out.txt` in this session for 8 hours",
    );
  });

  it('a prefix in a project: the words the person picked, then "…"', () => {
    const grant: Grant = {
      ...base,
      scope: 'project',
      projectRoot: '/home/me/proj',
      commands: [{ argv: ['npm', 'test'], env: {}, writes: [], dynamic: [], match: 'prefix' }],
    };
    expect(grantWords(grant, { home: '/home/me' })).toBe(
      'allow `npm test …` in ~/proj, until revoked',
    );
  });

  it('a command or path with a backquote in it stays one piece of code', () => {
    const parts = grantParts({
      ...base,
      scope: 'session',
      sessionId: 's',
      toolKind: 'edit',
      paths: ['/p/a`b'],
    });
    expect(parts.filter((p) => p.code)).toEqual([{ text: '/p/a`b', code: true }]);
  });

  it('durations', () => {
    expect(forHowLong(30)).toBe('for 30 min');
    expect(forHowLong(60)).toBe('for 1 hour');
    expect(forHowLong(90)).toBe('for 1 h 30 min');
    expect(forHowLong(0.2)).toBe('for 1 min');
  });
});
