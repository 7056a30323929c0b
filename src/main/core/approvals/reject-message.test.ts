import { describe, expect, it } from 'vitest';
import { REJECT_MESSAGE_MAX } from '../../../shared/domain';
import type { AuditedVote, PermissionDecision } from '../mediator';
import { carriesMessage, cleanRejectMessage, rejectMessageOf } from './reject-message';

describe('cleaning a reject message', () => {
  it.each([
    ['keeps line breaks and tabs', 'use\tthe test db\nnot prod', 'use\tthe test db\nnot prod'],
    ['makes CR LF and a lone CR a line feed', 'a\r\nb\rc', 'a\nb\nc'],
    ['drops whole escape sequences', 'red\u001b[31m text\u001b[0m', 'red text'],
    ['drops an OSC sequence (a title or a link)', 'x\u001b]0;pwned\u0007y', 'xy'],
    ['drops C0, DEL and C1 controls', 'a\u0000b\u0007c\u007fd\u009be', 'abcde'],
    ['drops bidi controls', 'safe\u202edelete\u202c', 'safedelete'],
    ['drops zero-width and tag characters', 'o\u200bk\u{e0041}', 'ok'],
    ['trims', '  \n words \t ', 'words'],
  ])('%s', (_what, raw, cleaned) => {
    expect(cleanRejectMessage(raw)).toBe(cleaned);
  });

  it('nothing visible left is no message', () => {
    expect(cleanRejectMessage('')).toBeNull();
    expect(cleanRejectMessage(' \u200b\u202e\u001b[0m\n\t')).toBeNull();
  });

  it('is bounded, and never cut between the halves of a surrogate pair', () => {
    expect(cleanRejectMessage('x'.repeat(REJECT_MESSAGE_MAX + 50))).toHaveLength(
      REJECT_MESSAGE_MAX,
    );
    const cut = cleanRejectMessage('x'.repeat(REJECT_MESSAGE_MAX - 1) + '😀')!;
    expect(cut).toBe('x'.repeat(REJECT_MESSAGE_MAX - 1));
  });

  it('only reject kinds carry words', () => {
    expect(carriesMessage('reject_once')).toBe(true);
    expect(carriesMessage('reject_always')).toBe(true);
    expect(carriesMessage('allow_once')).toBe(false);
    expect(carriesMessage('allow_always')).toBe(false);
    expect(carriesMessage(undefined)).toBe(false);
  });
});

describe('the words a decided reject carries', () => {
  const vote = (clientId: string, optionId: string, message?: string): AuditedVote => ({
    clientId,
    optionId,
    fromLoopback: true,
    identityProven: true,
    receivedAtMs: 0,
    metadata: { surface: 'dialog', ...(message ? { message } : {}) },
  });
  const decided = (optionId: string, votes: AuditedVote[]): PermissionDecision => ({
    requestId: 'r',
    sessionId: 's',
    policy: 'consensus',
    reason: 'consensus-quorum',
    resolution: {
      kind: 'option',
      optionId,
      decidedBy: { reason: 'consensus-quorum', clientIds: votes.map((v) => v.clientId!) },
    },
    votes,
    forbidden: [],
    forbiddenDropped: 0,
    issuedAtMs: 0,
    decidedAtMs: 0,
  });
  const no = { outcome: 'selected', optionId: 'no', optionKind: 'reject_once' } as const;

  it('is the deciding vote’s', () => {
    const decision = decided('no', [vote('a', 'no', 'first'), vote('b', 'no', 'second')]);
    expect(rejectMessageOf(decision, no)).toBe('second');
  });

  it('a silent deciding vote keeps an earlier voter’s words for the same option', () => {
    expect(rejectMessageOf(decided('no', [vote('a', 'no', 'first'), vote('b', 'no')]), no)).toBe(
      'first',
    );
  });

  it('never borrows the words of a vote for another option', () => {
    const decision = decided('no', [vote('a', 'other-no', 'elsewhere'), vote('b', 'no')]);
    expect(rejectMessageOf(decision, no)).toBeUndefined();
  });

  it('an allow, a cancel or a timeout carries none', () => {
    const yes = { outcome: 'selected', optionId: 'yes', optionKind: 'allow_once' } as const;
    expect(rejectMessageOf(decided('yes', [vote('a', 'yes', 'sneaky')]), yes)).toBeUndefined();
    const timeout: PermissionDecision = {
      ...decided('no', [vote('a', 'no', 'late')]),
      resolution: { kind: 'cancelled', reason: 'timeout' },
    };
    expect(rejectMessageOf(timeout, no)).toBeUndefined();
  });
});
