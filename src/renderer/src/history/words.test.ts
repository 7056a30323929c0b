import { describe, expect, it } from 'vitest';
import { deciderWords } from './words';

const allowed = { outcome: 'selected', optionId: 'y', optionKind: 'allow_once' } as const;

describe('decider words', () => {
  it('an unpaired API vote is not "you"', () => {
    expect(
      deciderWords(allowed, { type: 'person', clientId: null, surface: 'api', paired: false }),
    ).toBe('Allowed through the API (unpaired)');
    expect(
      deciderWords(allowed, { type: 'person', clientId: 'browser-1', surface: 'browser' }),
    ).toBe('Allowed by you in the browser');
  });

  it('a refusal of the sandbox says nobody was asked', () => {
    const refused = {
      outcome: 'selected',
      optionId: 'sandbox-refused',
      optionKind: 'reject_once',
    } as const;
    expect(deciderWords(refused, { type: 'sandbox', kind: 'write', target: '/etc/x' })).toBe(
      'Blocked by the sandbox (write, not asked)',
    );
  });
});
