import { describe, expect, it } from 'vitest';
import { REJECT_MESSAGE_MAX } from '../../../shared/contract';
import { reasonCounter, reasonFor, reasonToSend, REASON_COUNTER_FROM } from './reject-reason';

const reject = { kind: 'reject_once' as const };

describe('the words sent with a reject', () => {
  const box = { requestId: 'r1', text: '  use the test database instead \n' };

  it('go with a reject option, trimmed', () => {
    expect(reasonToSend(box, 'r1', reject)).toBe('use the test database instead');
    expect(reasonToSend(box, 'r1', { kind: 'reject_always' })).toBe(
      'use the test database instead',
    );
  });

  it('never go with an allow option', () => {
    expect(reasonToSend(box, 'r1', { kind: 'allow_once' })).toBeUndefined();
    expect(reasonToSend(box, 'r1', { kind: 'allow_always' })).toBeUndefined();
  });

  it('never go with another request than the one the box was opened for', () => {
    expect(reasonFor(box, 'r2')).toBeNull();
    expect(reasonToSend(box, 'r2', reject)).toBeUndefined();
  });

  it('are nothing when empty or blank, or when no box is open', () => {
    expect(reasonToSend({ requestId: 'r1', text: ' \t\n' }, 'r1', reject)).toBeUndefined();
    expect(reasonToSend(null, 'r1', reject)).toBeUndefined();
  });

  it('are never longer than the core accepts', () => {
    const long = 'x'.repeat(REJECT_MESSAGE_MAX + 50);
    expect(reasonToSend({ requestId: 'r1', text: long }, 'r1', reject)).toHaveLength(
      REJECT_MESSAGE_MAX,
    );
  });
});

describe('the counter', () => {
  it('appears near the limit only', () => {
    expect(reasonCounter('short')).toBeNull();
    expect(reasonCounter('x'.repeat(REASON_COUNTER_FROM - 1))).toBeNull();
    expect(reasonCounter('x'.repeat(REASON_COUNTER_FROM))).toBe('1,800 / 2,000');
    expect(reasonCounter('x'.repeat(REJECT_MESSAGE_MAX))).toBe('2,000 / 2,000');
  });
});
