// A pending approval as the pipeline builds one, for the tests of what bounds, queues or shows it.
import type { PendingApproval } from '../../../shared/domain';

type Given = Pick<
  PendingApproval,
  'requestId' | 'sessionId' | 'agentId' | 'agentName' | 'cwd' | 'toolCall'
> &
  Partial<PendingApproval>;

/** Two options (yes, no) under first-responder, no warnings, diffs or command unless given. */
export function pendingApproval(given: Given): PendingApproval {
  return {
    options: [
      { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
      { optionId: 'no', name: 'No', kind: 'reject_once' },
    ],
    policy: 'first-responder',
    issuedAt: 1,
    expiresAt: 2,
    warnings: [],
    diffs: [],
    command: null,
    tally: null,
    ...given,
  };
}
