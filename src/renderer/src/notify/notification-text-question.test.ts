// A browser notification of a question has no buttons: it is answered in the dialog.
import { describe, expect, it } from 'vitest';
import type { PendingSummary } from '../../../shared/domain';
import { notificationText } from './notification-text';

describe('a browser notification of an agent question', () => {
  it('says who asks and what, with no answer buttons', () => {
    const text = notificationText({
      requestId: 'r1',
      sessionId: 's1',
      agentId: 'claude',
      agentName: 'Claude Code',
      cwd: '/p',
      kind: 'other',
      title: 'Which release?',
      command: null,
      paths: [],
      pathCount: 0,
      warnings: [],
      policy: 'first-responder',
      issuedAt: 0,
      expiresAt: 1,
      tally: null,
      options: [
        { optionId: 'accept', name: 'Accept', kind: 'allow_once' },
        { optionId: 'decline', name: 'Decline', kind: 'reject_once' },
      ],
      truncated: false,
      question: { mode: 'form', host: null },
    } satisfies PendingSummary);
    expect(text).toEqual({
      title: 'Claude Code asks: Which release?',
      body: 'A question — open Gatehouse to answer',
      actions: [],
    });
  });
});
