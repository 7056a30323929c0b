import { describe, expect, it } from 'vitest';
import type { PendingSummary, PermissionOption } from '../../../shared/domain';
import { batchReport, planBatch } from './batch';

const ONCE: PermissionOption = { optionId: 'once', name: 'Yes', kind: 'allow_once' };
const ALWAYS: PermissionOption = { optionId: 'always', name: 'Always', kind: 'allow_always' };
const REJECT: PermissionOption = { optionId: 'no', name: 'No', kind: 'reject_once' };

const request = (requestId: string, options: PermissionOption[]) =>
  ({ requestId, options, warnings: [] }) as unknown as PendingSummary;

describe('planBatch', () => {
  const both = request('both', [ALWAYS, ONCE, REJECT]);
  const onlyAlways = request('always-only', [ALWAYS, REJECT]);
  const onlyAllow = request('allow-only', [ONCE]);

  it('approves each with its own allow_once, skipping those that offer none', () => {
    const { votes, skipped } = planBatch([both, onlyAlways, onlyAllow], 'approve');
    expect(votes.map((v) => [v.a.requestId, v.option.optionId])).toEqual([
      ['both', 'once'],
      ['allow-only', 'once'],
    ]);
    expect(skipped).toBe(1);
  });

  it('denies each with its reject option, skipping those that offer none', () => {
    const { votes, skipped } = planBatch([both, onlyAlways, onlyAllow], 'deny');
    expect(votes.map((v) => [v.a.requestId, v.option.optionId])).toEqual([
      ['both', 'no'],
      ['always-only', 'no'],
    ]);
    expect(skipped).toBe(1);
  });
});

describe('batchReport', () => {
  it('says how many were decided', () => {
    expect(batchReport('approve', 1, 0, [])).toEqual({ tone: 'info', text: 'Approved 1 request.' });
    expect(batchReport('deny', 3, 0, [])).toEqual({ tone: 'info', text: 'Denied 3 requests.' });
  });

  it('says how many were skipped, and why', () => {
    expect(batchReport('approve', 2, 1, []).text).toBe(
      'Approved 2 requests. 1 skipped: the agent offered no allow-once option.',
    );
    expect(batchReport('deny', 0, 2, []).text).toBe(
      'Denied 0 requests. 2 skipped: the agent offered no reject option.',
    );
  });

  it('is an error when a vote failed, naming the first failure', () => {
    expect(batchReport('approve', 1, 0, ['gone', 'also gone'])).toEqual({
      tone: 'error',
      text: 'Approved 1 request. 2 failed: gone',
    });
  });
});
