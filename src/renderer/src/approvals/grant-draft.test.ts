import { describe, expect, it } from 'vitest';
import type { PrefixOffer } from '../../../shared/domain';
import {
  alwaysLabel,
  DEFAULT_GRANT,
  draftGrantParts,
  grantOf,
  prefixChoices,
  prefixText,
} from './grant-draft';

describe('grantOf', () => {
  const now = new Date(2025, 5, 10, 21, 30, 20).getTime();

  it('is unbounded by default, for the session', () => {
    expect(grantOf(DEFAULT_GRANT, now)).toEqual({ scope: 'session' });
  });

  it('turns a duration into minutes', () => {
    expect(grantOf({ ...DEFAULT_GRANT, scope: 'project', expiry: '480' }, now)).toEqual({
      scope: 'project',
      expiresInMinutes: 480,
    });
  });

  it('runs "until tomorrow" to the next local midnight, rounded up to a whole minute', () => {
    // 21:30:20 → midnight is 2 h 29 min 40 s away.
    expect(grantOf({ ...DEFAULT_GRANT, scope: 'agent', expiry: 'tomorrow' }, now)).toEqual({
      scope: 'agent',
      expiresInMinutes: 150,
    });
  });

  it('never asks for less than a minute, even just before midnight', () => {
    const late = new Date(2025, 5, 10, 23, 59, 59, 900).getTime();
    expect(grantOf({ ...DEFAULT_GRANT, expiry: 'tomorrow' }, late).expiresInMinutes).toBe(1);
  });
});

describe('the "always" button names the scope and the expiry chosen', () => {
  const label = (scope: 'session' | 'project' | 'agent', expiry: '' | '30' | '60' | 'tomorrow') =>
    alwaysLabel({ scope, expiry, prefixWords: null }, 'Gemini CLI');

  it('a session, as long as it lasts or for a while', () => {
    expect(label('session', '')).toBe('Allow for this session');
    expect(label('session', '30')).toBe('Allow in this session for 30 min');
  });

  it('the project folder, or the agent everywhere, until revoked or for a while', () => {
    expect(label('project', '30')).toBe('Allow in this project for 30 min');
    expect(label('project', '')).toBe('Allow in this project, until revoked');
    expect(label('agent', '60')).toBe('Allow for Gemini CLI everywhere for 1 hour');
    expect(label('agent', 'tomorrow')).toBe('Allow for Gemini CLI everywhere until tomorrow');
  });
});

describe('a prefix picked word by word', () => {
  const offer: PrefixOffer = { words: ['npm', 'test', '--', 'foo'], least: 2 };
  const now = new Date(2025, 5, 10, 12, 0, 0).getTime();

  it('offers every word, then one fewer at a time, never fewer than the least', () => {
    expect(prefixChoices(offer)).toEqual([4, 3, 2]);
    expect(prefixChoices({ words: ['npm', 'test'], least: 2 })).toEqual([2]);
    expect(prefixChoices(undefined)).toEqual([]);
    // An offer out of shape (more words needed than it has) offers nothing.
    expect(prefixChoices({ words: ['npm'], least: 2 })).toEqual([]);
  });

  it('sends the words picked with the vote, and nothing for the exact command', () => {
    expect(grantOf({ ...DEFAULT_GRANT, prefixWords: 2 }, now)).toEqual({
      scope: 'session',
      prefixWords: 2,
    });
    expect(grantOf({ scope: 'project', expiry: '30', prefixWords: 3 }, now)).toEqual({
      scope: 'project',
      expiresInMinutes: 30,
      prefixWords: 3,
    });
    expect(grantOf(DEFAULT_GRANT, now)).not.toHaveProperty('prefixWords');
  });

  it('says the prefix in the words every grant list uses', () => {
    expect(prefixText(offer, 2)).toBe('npm test …');
    expect(prefixText({ words: ['git', 'commit', '-m', 'a b'], least: 2 }, 4)).toBe(
      "git commit -m 'a b' …",
    );
    const approval = {
      agentId: 'claude',
      agentName: 'Claude Code',
      sessionId: 's1',
      cwd: '/home/me/proj',
      command: { command: 'npm test -- foo', args: null, cwd: null, source: 'rawInput' as const },
    };
    const sentence = (draft: Parameters<typeof draftGrantParts>[1]) =>
      draftGrantParts({ ...approval, command: { ...approval.command, prefix: offer } }, draft, now)
        ?.map((p) => (p.code ? `\`${p.text}\`` : p.text))
        .join('');
    expect(sentence({ ...DEFAULT_GRANT, prefixWords: 2 })).toBe(
      'allow `npm test …` in this session',
    );
    expect(sentence({ scope: 'project', expiry: '60', prefixWords: 3 })).toBe(
      'allow `npm test -- …` in /home/me/proj for 1 hour',
    );
    expect(sentence({ scope: 'agent', expiry: '', prefixWords: 2 })).toBe(
      'allow `npm test …` for Claude Code everywhere, until revoked',
    );
    // The exact command, a prefix not offered, or no offer: no sentence.
    expect(sentence(DEFAULT_GRANT)).toBeUndefined();
    expect(sentence({ ...DEFAULT_GRANT, prefixWords: 1 })).toBeUndefined();
    expect(draftGrantParts(approval, { ...DEFAULT_GRANT, prefixWords: 2 }, now)).toBeNull();
  });
});
