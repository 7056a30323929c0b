import { describe, expect, it } from 'vitest';
import { DEFAULT_GRANT, grantOf } from './grant-draft';

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
