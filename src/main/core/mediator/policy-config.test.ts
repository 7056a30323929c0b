import { describe, expect, it, vi } from 'vitest';
import { InvalidPolicyConfigError, SUPPORTED_POLICIES, validatePolicyConfig } from '.';

describe('validatePolicyConfig', () => {
  it('SUPPORTED_POLICIES is exactly the four policies', () => {
    expect([...SUPPORTED_POLICIES]).toEqual([
      'first-responder',
      'designated',
      'consensus',
      'local-only',
    ]);
  });

  it('an unset strategy means first-responder', () => {
    expect(validatePolicyConfig({})).toEqual({ policy: 'first-responder' });
    expect(validatePolicyConfig(undefined)).toEqual({ policy: 'first-responder' });
    expect(validatePolicyConfig({ permissionStrategy: null, consensusQuorum: null })).toEqual({
      policy: 'first-responder',
    });
  });

  it.each(SUPPORTED_POLICIES)('accepts %s', (policy) => {
    expect(validatePolicyConfig({ permissionStrategy: policy })).toEqual({ policy });
  });

  it.each(['majority', 'Consensus', '', 3, true])(
    'an unknown strategy (%s) throws InvalidPolicyConfigError listing the supported set',
    (strategy) => {
      let caught: unknown;
      try {
        validatePolicyConfig({ permissionStrategy: strategy });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidPolicyConfigError);
      expect(caught).toMatchObject({ field: 'permissionStrategy' });
      for (const policy of SUPPORTED_POLICIES) expect((caught as Error).message).toContain(policy);
    },
  );

  it.each([0, -1, 1.5, '2', Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])(
    'a quorum that is not a positive integer (%s) throws InvalidPolicyConfigError',
    (quorum) => {
      expect(() =>
        validatePolicyConfig({ permissionStrategy: 'consensus', consensusQuorum: quorum }),
      ).toThrow(
        expect.objectContaining({ field: 'consensusQuorum', name: 'InvalidPolicyConfigError' }),
      );
    },
  );

  it('returns the quorum under consensus without warning', () => {
    const warn = vi.fn();
    expect(
      validatePolicyConfig({ permissionStrategy: 'consensus', consensusQuorum: 2 }, warn),
    ).toEqual({
      policy: 'consensus',
      consensusQuorum: 2,
    });
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns when a quorum is set while the strategy is not consensus, and keeps it', () => {
    const warn = vi.fn();
    expect(
      validatePolicyConfig({ permissionStrategy: 'designated', consensusQuorum: 2 }, warn),
    ).toEqual({
      policy: 'designated',
      consensusQuorum: 2,
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/consensusQuorum.*designated/);
  });

  it('warns through console.warn by default', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      validatePolicyConfig({ consensusQuorum: 3 });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('a policy block that is not an object is refused', () => {
    expect(() => validatePolicyConfig('consensus' as never)).toThrow(InvalidPolicyConfigError);
    expect(() => validatePolicyConfig([] as never)).toThrow(InvalidPolicyConfigError);
  });
});
