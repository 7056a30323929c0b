import { describe, expect, it } from 'vitest';
import { NO_COUNTS, PREVIEW_LIMITS } from '../../../shared/preview';
import { effectWarnings, hostsOf, outputTail, verdictOf } from './verdict';

const facts = {
  timedOut: false,
  exitCode: 0,
  output: '',
  diskFull: false,
  refused: [],
  timeoutMs: 10_000,
};

describe('how a scratch run ended', () => {
  it('is incomplete for time first, then a bound, then the network', () => {
    const refused = [{ kind: 'network', host: 'x.org', port: 443, reason: 'not-allowed' } as const];
    expect(verdictOf({ ...facts, timedOut: true, diskFull: true, refused })).toMatchObject({
      reason: 'time',
      detail: 'still running after 10 s',
    });
    expect(verdictOf({ ...facts, diskFull: true, refused }).reason).toBe('limits');
    expect(verdictOf({ ...facts, exitCode: 153 }).reason).toBe('limits');
    expect(verdictOf({ ...facts, output: 'sh: 1: Cannot fork\n' }).reason).toBe('limits');
    expect(verdictOf({ ...facts, refused }).reason).toBe('network');
    expect(verdictOf({ ...facts, output: 'curl: (6) Could not resolve host: a.b\n' }).reason).toBe(
      'network',
    );
    expect(verdictOf(facts)).toEqual({ state: 'done', reason: null, detail: null });
  });

  it('names the hosts from the proxy and from what was printed, printable and bounded', () => {
    const refused = Array.from({ length: 30 }, (_, i) => ({
      kind: 'network' as const,
      host: i === 0 ? 'Evil\u001b[31m.example:80' : `h${i}.example`,
      port: 80,
      reason: 'not-connect' as const,
    }));
    const hosts = hostsOf({ refused, output: 'getaddrinfo ENOTFOUND npm.example\n' });
    expect(hosts[0]).toBe('evil?[31m.example');
    expect(hosts).toHaveLength(PREVIEW_LIMITS.hosts);
    expect(hostsOf({ refused: [], output: 'getaddrinfo ENOTFOUND npm.example\n' })).toEqual([
      'npm.example',
    ]);
  });

  it('warns of writes outside, protected files and many deletes, as danger', () => {
    const counts = {
      ...NO_COUNTS,
      outside: 1,
      protected: 2,
      deleted: PREVIEW_LIMITS.urgentDeletes + 1,
    };
    const warnings = effectWarnings(counts, (place) =>
      place === 'outside' ? '/home/u/.bashrc' : null,
    );
    expect(warnings.map((w) => [w.code, w.severity])).toEqual([
      ['effect_outside', 'danger'],
      ['effect_protected', 'danger'],
      ['effect_mass_delete', 'danger'],
    ]);
    expect(warnings[0]!.message).toContain('/home/u/.bashrc');
    expect(
      effectWarnings({ ...NO_COUNTS, deleted: PREVIEW_LIMITS.urgentDeletes }, () => null),
    ).toEqual([]);
  });

  it('keeps the last lines of the output within the bound', () => {
    const output = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const tail = outputTail(output);
    expect(tail.length).toBeLessThanOrEqual(PREVIEW_LIMITS.output);
    expect(tail.startsWith('line ')).toBe(true);
    expect(tail.endsWith('line 1999\n')).toBe(true);
  });
});
