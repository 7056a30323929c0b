// A batch never accepts a question (its values are given one form at a time); it may decline it.
import { describe, expect, it } from 'vitest';
import type { PendingSummary } from '../../../shared/domain';
import { planBatch } from './batch';

const question = {
  requestId: 'q',
  warnings: [],
  options: [
    { optionId: 'accept', name: 'Accept', kind: 'allow_once' },
    { optionId: 'decline', name: 'Decline', kind: 'reject_once' },
  ],
  question: { mode: 'form', host: null },
} as unknown as PendingSummary;

describe('a question in a batch', () => {
  it('is skipped by an approve and declined by a deny', () => {
    expect(planBatch([question], 'approve')).toEqual({ votes: [], skipped: 1 });
    expect(planBatch([question], 'deny').votes.map((v) => v.option.optionId)).toEqual(['decline']);
  });
});
