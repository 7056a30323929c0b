import { describe, expect, it } from 'vitest';
import { alwaysLabel, DEFAULT_GRANT, grantOf } from './grant-draft';

describe('grantOf', () => {
  const now = new Date(2025, 5, 10, 21, 30, 20).getTime();

  it('is unbounded by default, for the session', () => {
    expect(grantOf(DEFAULT_GRANT, now)).toEqual({ scope: 'session' });
  });

  it('turns a duration into minutes', () => {
    expect(grantOf({ scope: 'project', expiry: '480' }, now)).toEqual({
      scope: 'project',
      expiresInMinutes: 480,
    });
  });

  it('runs "until tomorrow" to the next local midnight, rounded up to a whole minute', () => {
    // 21:30:20 → midnight is 2 h 29 min 40 s away.
    expect(grantOf({ scope: 'agent', expiry: 'tomorrow' }, now)).toEqual({
      scope: 'agent',
      expiresInMinutes: 150,
    });
  });

  it('never asks for less than a minute, even just before midnight', () => {
    const late = new Date(2025, 5, 10, 23, 59, 59, 900).getTime();
    expect(grantOf({ scope: 'session', expiry: 'tomorrow' }, late).expiresInMinutes).toBe(1);
  });
});

describe('the "always" button names the scope and the expiry chosen', () => {
  const label = (scope: 'session' | 'project' | 'agent', expiry: '' | '30' | '60' | 'tomorrow') =>
    alwaysLabel({ scope, expiry }, 'Gemini CLI');

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
